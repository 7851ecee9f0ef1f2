"""`judge serve`: its errors before loading anything, and a real server answering at once on
the port it names, its workers as batch work, stopping on Ctrl-C."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time
import urllib.request
from pathlib import Path

import pytest


from conftest import start_judge_serve


def test_serve_refuses_the_debugger_on_a_network_address():
    from click.testing import CliRunner

    from judge.commands.serve import serve
    result = CliRunner().invoke(serve, ["--debug", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "127.0.0.1 only" in result.output


@pytest.fixture
def busy_port():
    with socket.create_server(("127.0.0.1", 0)) as sock:
        yield sock.getsockname()[1]


@pytest.mark.parametrize("args, reason", [
    (["--port", "{busy}"], "already in use"),
    (["--host", "nosuch.invalid"], "unknown address"),
    (["--host", "999.1.1.1"], "unknown address"),
    (["--host", "192.0.2.1"], "no such address"),  # TEST-NET-1: never this machine's
])
def test_serve_says_why_it_cannot_listen_before_loading_anything(busy_port, args, reason):
    from click.testing import CliRunner

    from judge.commands.serve import serve
    started = time.monotonic()
    result = CliRunner().invoke(serve, [a.format(busy=busy_port) for a in args])
    assert result.exit_code == 2 and not isinstance(result.exception, OSError)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot listen on ") and reason in lines[0]
    assert "Traceback" not in result.output
    assert time.monotonic() - started < 5  # told before the corpus and the index are loaded


def test_serve_answers_at_once_on_the_port_it_chose_and_stops_on_ctrl_c():
    """`judge serve --port 0`: the port it names is the one it serves, each
    worker listening there on a socket of its own (the kernel spreads the
    connections); it says so once they all listen, so a request sent at once
    is answered; Ctrl-C (SIGINT to every process of the group) stops them all,
    a worker Granian fails to stop killed after WORKER_STOP_SECONDS."""
    from judge.web.serving import WORKER_STOP_SECONDS
    proc, url, line = start_judge_serve("--workers", "2", new_session=True)
    workers = []
    try:
        assert "(2 processes × 1 thread;" in line
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        assert port != 0 and listeners(port) == 2
        with urllib.request.urlopen(url + "p/rb:6.4.6/2", timeout=30) as answer:  # asked at once
            assert answer.status == 200 and "RB §6.4.6 ¶2".encode() in answer.read()
            assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
        with urllib.request.urlopen(url + "api/search?q=torper", timeout=30) as answer:
            assert json.loads(answer.read())["did_you_mean"] == "torpor"
        workers = children_of(proc.pid)
        assert len(workers) == 2
        # Every thread of each worker, Granian's own included, runs as batch work
        # (batch_scheduling); the process that forked them does not.
        for pid in workers:
            assert scheduling_policies(pid) == {os.SCHED_BATCH}, pid
        assert os.sched_getscheduler(proc.pid) == os.SCHED_OTHER
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=WORKER_STOP_SECONDS + 10)
        time.sleep(0.5)
        assert not [pid for pid in workers if running(pid)]
    finally:
        if proc.poll() is None or any(running(pid) for pid in workers):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def scheduling_policies(pid: int) -> set[int]:
    """The scheduling policies of a process's threads (those still running when asked)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
            found.add(os.sched_getscheduler(int(task.name)))
    return found


def listeners(port: int) -> int:
    from judge.web.serving import listening_sockets
    return listening_sockets(port)


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def test_serve_says_where_phones_at_the_table_can_open_it():
    """On loopback it says how to let the phones in; on every interface it names this machine's network
    addresses, each one a phone on the same network can open."""
    from judge.web.serving import _local_network_addresses, reach_lines
    local = reach_lines("127.0.0.1", 8080)
    assert local[0].split()[-1] == "http://127.0.0.1:8080/"
    assert "judge serve --host 0.0.0.0" in local[1] and "--port" not in local[1]
    assert "--host 0.0.0.0 --port 9000" in reach_lines("127.0.0.1", 9000)[1]
    everywhere = reach_lines("0.0.0.0", 8080)
    assert everywhere[0].split()[-1] == "http://127.0.0.1:8080/"
    addresses = _local_network_addresses()
    assert [line.split()[-1] for line in everywhere[1:]] == [f"http://{a}:8080/" for a in addresses] or \
        (not addresses and "no network address" in everywhere[1])
    for address in addresses:  # each is this machine's: a socket can listen there
        with socket.create_server((address, 0)):
            pass
