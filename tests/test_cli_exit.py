"""The command line ends without the interpreter's teardown (judge.cli._exit), yet as a shell expects it to: the exit
code, the whole of the output through a pipe, the exit functions, and the normal exit where another thread is still
to be waited for."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _judge(*args: str, before: str = "") -> subprocess.CompletedProcess:
    script = f"{before}\nfrom judge.cli import main\nmain()\nprint('after main', file=sys.stderr)\n"
    return subprocess.run([sys.executable, "-c", "import sys\n" + script, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_a_long_answer_reaches_the_pipe_whole(corpus):
    done = _judge("export")
    assert done.returncode == 0, done.stderr[-500:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(corpus.paragraphs)  # every paragraph, the last line too
    assert {json.loads(line)["id"] for line in lines} == set(corpus.paragraphs)
    assert "after main" not in done.stderr  # the process ended in main(), not after it


def test_an_error_keeps_its_code_and_message_and_the_exit_functions_run():
    done = _judge("show", "no such paragraph",
                  before="import atexit\natexit.register(lambda: print('exit function ran', file=sys.stderr))")
    assert done.returncode == 1 and "no such paragraph" in done.stderr and "exit function ran" in done.stderr
    usage = _judge("export", "--doc", "nosuch")
    assert usage.returncode == 2 and "no document 'nosuch'" in usage.stderr


def test_a_thread_still_running_gets_the_normal_exit():
    """A non-daemon thread is waited for, as Python's own exit waits: its last words are written."""
    before = ("import threading, time\n"
              "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done', flush=True))).start()")
    done = _judge("toc", "rb", before=before)
    assert done.returncode == 0 and "thread done" in done.stdout, done.stderr[-500:]
