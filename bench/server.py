"""Start `judge serve` in a subprocess, for the tests and benches that need a real
server (not part of the installed package)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout holding judge/


class DidNotStart(RuntimeError):
    """`spawn`'s server exited or stayed silent; the message holds what it printed."""


def spawn(*args: str, new_session: bool = False, wait: float = 120) -> tuple[subprocess.Popen, str, str]:
    """`judge serve --host 127.0.0.1 --port 0 ARGS` in a subprocess of this Python (the
    tests and benches start it so): (the process, its base URL, the line announcing
    it), once every worker listens. Its log is drained afterwards: a full pipe would
    block the server's next write. Raises `DidNotStart` with its log otherwise."""
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()",
                             "--host", "127.0.0.1", "--port", "0", *args],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, start_new_session=new_session)
    seen, deadline = [], time.monotonic() + wait
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"serving on (http://\S+/)", line)
        if found:
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, found.group(1), line
    proc.kill()
    raise DidNotStart("judge serve did not start:\n" + "".join(seen))
