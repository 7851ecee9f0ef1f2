"""Shared fixtures: the real corpus, loaded once per test session."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from judge import paths

RULES = paths.rules_dir()


@pytest.fixture(scope="session")
def corpus():
    from judge.corpus import load_corpus

    return load_corpus()


@pytest.fixture
def rules_copy(tmp_path, monkeypatch) -> Path:
    """A private copy of rules/ (and a private index dir) that a test may damage."""
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    monkeypatch.setenv("JUDGE_RULES_DIR", str(copy))
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path / "index"))
    return copy


@pytest.fixture
def runner():
    from click.testing import CliRunner

    return CliRunner()


def start_judge_serve(*args: str, new_session: bool = False, wait: float = 120) -> tuple[subprocess.Popen, str, str]:
    """`judge serve --host 127.0.0.1 --port 0 ARGS` in a subprocess: (the process, its
    base URL, the line saying so). Fails the test with its log when it does not start;
    its log is drained afterwards (a full pipe would block the server)."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()",
                             "--host", "127.0.0.1", "--port", "0", *args],
                            cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, stderr=subprocess.PIPE,
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
    pytest.fail("judge serve did not start:\n" + "".join(seen))
