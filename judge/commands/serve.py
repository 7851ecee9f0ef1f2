"""`judge serve`: the reference browser on the web (judge/web), a production server.

The port is bound first, so a busy port or a bad address is a one-line error
before anything is loaded, and held while the app warms. Then the corpus is loaded and every
answer the pages need is computed (`Site.warm`), and the app is served by
Granian (https://github.com/emmett-framework/granian): its HTTP side (Rust)
reads and writes the connections, so a slow phone holds no Python thread,
and `--workers` processes (default: the CPUs, at most 4), forked from the
warmed one, run the app, `--threads` Python threads each. Python runs one
thread at a time per process, so only processes put every core to work.
The workers ask Linux to schedule them as batch work (`batch_scheduling`).
Granian forks a new worker when one dies. The "serving on" line comes once
every worker listens.

The Flask development server (reloader, interactive debugger) runs only with
`--debug`, and only on loopback addresses unless asked twice.
"""
from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import os
import socket
import sys
import threading
import time
from pathlib import Path

import click

from judge.errors import JudgeError

DEFAULT_PORT = 8080
# Requests are CPU work under Python's lock, and Granian's Rust side does the waiting on
# sockets and queues the requests: one Python thread per worker process is the fastest
# (50 clients, new searches: p95 37-44 ms with one, 44-49 ms with two, which pass the
# lock to and fro). A second one would let a long answer (the first diff of two editions,
# ~0.5 s) share its process with short ones rather than hold them up.
THREADS_PER_WORKER = 1
MAX_DEFAULT_WORKERS = 4  # each worker holds a copy of the corpus, the index and the graph (~250 MB)
BACKLOG = 2048  # connections waiting while the server warms up or is busy
# On Ctrl-C (SIGINT to every process) a Granian 2.8 worker sometimes never finishes
# stopping (emmett-framework/granian#651), and the server would wait for it for ever:
# it is killed after this long, time enough to finish an answer being written.
WORKER_STOP_SECONDS = 3


class ServeError(click.ClickException):
    """Shown as `Error: ...`, exit status 2, never a traceback."""

    exit_code = 2


def default_workers() -> int:
    return max(1, min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1))


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def shown_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port; ServeError saying why if there can be none."""
    where = shown_address(host, port)
    try:
        family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else "not a valid host name"
        raise ServeError(f"cannot listen on {where}: unknown address {host!r} ({reason})") from None
    try:
        return socket.create_server(address, family=family, backlog=BACKLOG)
    except OSError as exc:
        reasons = {
            errno.EADDRINUSE: "the port is already in use (another judge serve?); choose another "
                              "with --port, or --port 0 for any free one",
            errno.EADDRNOTAVAIL: "this machine has no such address",
            errno.EACCES: "permission denied (ports below 1024 need administrator rights)",
        }
        raise ServeError(f"cannot listen on {where}: {reasons.get(exc.errno, exc.strerror or exc)}") from None


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets phones on the same network reach it.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--workers", default=None, type=click.IntRange(1, 32),
              help=f"Processes serving requests (default: the CPUs, at most {MAX_DEFAULT_WORKERS}).")
@click.option("--threads", default=THREADS_PER_WORKER, show_default=True, type=click.IntRange(1, 64),
              help="Python threads running requests in each process.")
@click.option("--debug", is_flag=True,
              help="Flask's development server with reloader and debugger: for working on judge only.")
@click.option("--debug-on-network", is_flag=True, hidden=True,
              help="Allow --debug on a non-loopback address (the debugger runs code sent to it).")
def serve(host: str, port: int, workers: int | None, threads: int, debug: bool,
          debug_on_network: bool) -> None:
    """Serve the reference browser: search, rules, glossary, graph, lint and the JSON API."""
    if debug and not _is_loopback(host) and not debug_on_network:
        raise click.BadParameter("--debug runs Flask's debugger, which executes code sent to it: "
                                 "use it on 127.0.0.1 only", param_hint="--host")
    if debug:
        _serve_debug(host, port)
        return
    workers = workers or default_workers()
    sock = listen(host, port)  # before loading anything: a busy port is told at once
    try:
        app = _load_app()
    except JudgeError as exc:  # nothing loaded, or a data file judge cannot do without
        sock.close()
        raise ServeError(f"judge serve cannot start: {exc}") from None
    address, port = sock.getsockname()[:2]
    how = f"{workers} process{'es' if workers > 1 else ''} × {threads} thread{'s' if threads > 1 else ''}"
    announce = f"judge: serving on http://{shown_address(host, port)}/  ({how}; Ctrl-C to stop)"
    sock.close()  # kept until now so that nothing else takes the port while the app warmed
    run_granian(app, address, port, workers, threads, announce)


def _load_app():
    """The warmed app, having said which documents it serves and which it skipped."""
    from judge.cli import load, log_to_stderr
    from judge.web.app import create_app
    from judge.web.warmup import warm

    log_to_stderr(logging.INFO)  # the server's log: faults while serving, rebuilds, a data file kept at its last good copy
    corpus = load()  # a warning for each document skipped
    if corpus.errors:
        click.echo(f"judge: serving {len(corpus.documents)} document{'s' if len(corpus.documents) > 1 else ''} "
                   f"({', '.join(corpus.documents)}); {len(corpus.errors)} skipped, see the warnings above",
                   err=True)
    click.echo("loading the search index and the rule graph, rendering the rules…", err=True)
    app = create_app(corpus)
    warm(app)
    return app


def run_granian(app, address: str, port: int, workers: int, threads: int, announce: str) -> None:
    """Granian on address:port, `workers` processes forked from this one (the app
    already warm); `announce` is printed once every worker listens. Returns when
    Ctrl-C or SIGTERM has stopped them.

    On Linux each worker listens on a socket of its own (SO_REUSEPORT) and the
    kernel spreads new connections over them evenly; one socket shared by all
    would let whichever worker is idle accept them all (fifty phones on one
    core, measured, while the other idles)."""
    import gc

    from granian.constants import Interfaces
    from granian.log import LogLevels
    from granian.server import MPServer

    server = MPServer("judge.web.app:create_app", address=address, port=port, interface=Interfaces.WSGI,
                      workers=workers, blocking_threads=threads, backlog=BACKLOG, websockets=False,
                      log_level=LogLevels.warning, respawn_failed_workers=True,
                      workers_kill_timeout=WORKER_STOP_SECONDS)
    # The warm state is shared with the workers copy-on-write: keep the collector from
    # touching (and so copying) it in each of them (Python's advice for fork, gc.freeze).
    gc.collect()
    gc.freeze()
    global _WARM_APP
    _WARM_APP = app
    threading.Thread(target=_announce_when_listening, args=(address, port, workers, announce),
                     daemon=True).start()
    server.serve(target_loader=_worker_app)


def _announce_when_listening(address: str, port: int, workers: int, announce: str, wait: float = 120) -> None:
    """Print `announce` once `workers` sockets listen on the port (where the
    system tells: Linux), else once the port takes a connection."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        listening = _listeners(port)
        if listening is None:
            try:
                socket.create_connection((address if address not in ("0.0.0.0", "::") else "localhost", port),
                                         timeout=1).close()
                listening = workers
            except OSError:
                listening = 0
        if listening >= workers:
            click.echo(announce, err=True)
            sys.stderr.flush()
            return
        time.sleep(0.05)


TCP_ESTABLISHED, TCP_LISTEN = "01", "0A"  # TCP states as /proc/net/tcp writes them


def _listeners(port: int) -> int | None:
    """Sockets listening on TCP `port` on this machine (from /proc/net); None where it cannot be read."""
    states = tcp_states(port)
    return None if states is None else sum(state == TCP_LISTEN for state in states.values())


def tcp_states(port: int) -> dict[str, str] | None:
    """{socket inode: TCP state} of this machine's sockets whose own port is `port`
    (from /proc/net, Linux); None where it cannot be read."""
    states, readable = {}, False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        readable = True
        for row in rows:
            fields = row.split()  # sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            if len(fields) > 9 and int(fields[1].rsplit(":", 1)[1], 16) == port:
                states[fields[9]] = fields[3]
    return states if readable else None


_WARM_APP = None  # the app `run_granian` serves, found in memory by workers it forks


def batch_scheduling() -> None:
    """Ask Linux to schedule this thread, and the threads it starts afterwards, as
    batch work (SCHED_BATCH): a thread woken does not take the CPU from a running one
    on the spot, only when its time slice ends.

    A worker is two threads that take turns on one CPU: Granian's I/O thread hands
    the Python thread a request and writes its answer. Woken for every answer, the
    I/O thread interrupted the Python thread mid-page, more than once a page (~8,600
    forced switches in 5 s for ~6,500 pages per process), each switch costing the
    interrupted page its caches. As batch work they take turns a few pages at a time
    (~1,300 such switches): 50 clients, new searches, ~10% more pages a second by the
    median of eleven alternated runs (docs/web.md). An idle server is not slower: a
    woken thread still runs at once on a free CPU.
    Any user may ask for it; elsewhere (macOS, Windows) it is a no-op."""
    if hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):  # a sandbox refusing the call: run as before
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _worker_app(_target: str):
    """The app a Granian worker serves: the warm one when the worker was forked,
    else (a platform that spawns processes) one it loads and warms itself.
    Granian calls it in the worker before it starts the worker's threads."""
    batch_scheduling()
    if _WARM_APP is not None:
        return _WARM_APP
    return _load_app()


def _serve_debug(host: str, port: int) -> None:
    from judge.cli import load
    from judge.web.app import create_app

    if not os.environ.get("WERKZEUG_RUN_MAIN"):  # the reloader's child gets the socket from its parent
        listen(host, port).close()  # a clear error now rather than the development server's own
    create_app(load()).run(host=host, port=port, debug=True)
