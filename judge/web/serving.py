"""How `judge serve` runs the app in production: Granian's settings, the worker
processes and threads, their scheduling, and the listening socket.

Granian (https://github.com/emmett-framework/granian) reads and writes the
connections in Rust, so a slow phone holds no Python thread. The app is warmed
once (judge.web.warmup) in the process that then forks the workers, which share
what it computed; each worker runs the app in `threads` Python threads and asks
Linux to schedule it as batch work. Why each setting is what it is, with the
figures: docs/performance.md, "Serving".
"""
from __future__ import annotations

import contextlib
import errno
import gc
import os
import socket
import sys
import threading
import time
from pathlib import Path

from judge.errors import JudgeError
from judge.web.transport import BODY_SECONDS, HEADER_SECONDS, Transport

# Requests are CPU work under Python's lock, and Granian's Rust side does the waiting on
# sockets and queues the requests: one Python thread per worker process is the fastest.
THREADS_PER_WORKER = 1
MAX_DEFAULT_WORKERS = 4  # each worker holds its copy of what it changes of the warm state
BACKLOG = 2048  # connections waiting while the server warms up or is busy
# On Ctrl-C (SIGINT to every process) a Granian 2.8 worker sometimes never finishes
# stopping (emmett-framework/granian#651), and the server would wait for it for ever:
# it is killed after this long, time enough to finish an answer being written.
WORKER_STOP_SECONDS = 3
ANNOUNCE_WAIT_SECONDS = 120  # how long the workers may take to listen before "serving on" is said anyway
TCP_ESTABLISHED, TCP_LISTEN = "01", "0A"  # TCP states as /proc/net/tcp writes them


class CannotListen(JudgeError):
    """The port cannot be bound: in use, an unknown host, an address this machine lacks."""


def default_workers() -> int:
    """One worker per CPU, at most MAX_DEFAULT_WORKERS."""
    return max(1, min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1))


def shown_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _is_any(host: str) -> bool:
    """Does `host` listen on every interface (0.0.0.0, ::, or an empty host)?"""
    return host in ("", "0.0.0.0", "::", "[::]")


def _local_network_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, as a phone on the same network would reach it: the
    address of the interface that routes outward (a UDP socket "connected" to a public address sends nothing,
    it only picks the route), then any other its host name resolves to. Loopback and link-local are left out."""
    import ipaddress
    found: list[str] = []

    def keep(address: str) -> None:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in found:
            found.append(address)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, nothing is sent
            keep(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for *_, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            keep(address[0])
    except (OSError, UnicodeError):
        pass
    return found


def reach_lines(host: str, port: int) -> list[str]:
    """What `judge serve` prints once it listens: the addresses to open, and how to let the phones at the table
    in when it listens on loopback only."""
    if _is_any(host):
        lines = [f"  on this machine:     http://{shown_address('127.0.0.1', port)}/"]
        lines += [f"  on your network:     http://{shown_address(a, port)}/" for a in _local_network_addresses()]
        if len(lines) == 1:
            lines.append("  (no network address found: is this machine on a network?)")
        return lines
    lines = [f"  open:                http://{shown_address(host, port)}/"]
    try:
        import ipaddress
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        lines.append(f"  this machine only; for phones on the same network: judge serve --host 0.0.0.0"
                     f"{'' if port == 8080 else f' --port {port}'}")
    return lines


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port; CannotListen saying why if there can be none."""
    where = shown_address(host, port)
    try:
        family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else "not a valid host name"
        raise CannotListen(f"cannot listen on {where}: unknown address {host!r} ({reason})") from None
    try:
        return socket.create_server(address, family=family, backlog=BACKLOG)
    except OSError as exc:
        reasons = {
            errno.EADDRINUSE: "the port is already in use (another judge serve?); choose another "
                              "with --port, or --port 0 for any free one",
            errno.EADDRNOTAVAIL: "this machine has no such address",
            errno.EACCES: "permission denied (ports below 1024 need administrator rights)",
        }
        raise CannotListen(f"cannot listen on {where}: {reasons.get(exc.errno, exc.strerror or exc)}") from None


def run_granian(app, address: str, port: int, workers: int, threads: int, announce,
                body_seconds: float = BODY_SECONDS) -> None:
    """Granian on address:port, `workers` processes forked from this one (the app
    already warm); `announce()` is called once every worker listens. Returns when
    Ctrl-C or SIGTERM has stopped them.

    Granian's RSGI interface hands each request to judge.web.transport, which
    receives its body in full (within `body_seconds`) before the WSGI app runs on
    it, in `threads` threads. On Linux each worker listens on a socket of its own
    (SO_REUSEPORT) and the kernel spreads new connections over them; one socket
    shared by all would let whichever worker is idle accept them all."""
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import MPServer

    server = MPServer("judge.web.app:create_app", address=address, port=port, interface=Interfaces.RSGI,
                      workers=workers, blocking_threads=1, backlog=BACKLOG, websockets=False,
                      http1_settings=HTTP1Settings(header_read_timeout=HEADER_SECONDS * 1000),
                      log_level=LogLevels.warning, respawn_failed_workers=True,
                      workers_kill_timeout=WORKER_STOP_SECONDS)
    # The warm state is shared with the workers copy-on-write: keep the collector from
    # touching (and so copying) it in each of them (Python's advice for fork, gc.freeze).
    gc.collect()
    gc.freeze()
    global _WARM_APP, _SETTINGS
    _WARM_APP = app
    _SETTINGS = {"threads": threads, "body_seconds": body_seconds}
    threading.Thread(target=_announce_when_listening, args=(address, port, workers, announce),
                     daemon=True).start()
    server.serve(target_loader=_worker_app)


_WARM_APP = None  # the app `run_granian` serves, found in memory by the workers it forks
_SETTINGS: dict = {"threads": THREADS_PER_WORKER, "body_seconds": BODY_SECONDS}


def _worker_app(_target: str) -> Transport:
    """The app a Granian worker serves: the warm one when the worker was forked,
    else (a platform that spawns processes) one it loads and warms itself, behind
    the transport that reads bodies before it runs. Granian calls it in the worker
    before it starts serving."""
    batch_scheduling()
    app = _WARM_APP
    if app is None:
        from judge.corpus import get_corpus
        from judge.web.app import create_app
        from judge.web.warmup import warm

        app = create_app(get_corpus())
        warm(app)
    return Transport(app, app.config["MAX_CONTENT_LENGTH"], _SETTINGS["body_seconds"], _SETTINGS["threads"])


def batch_scheduling() -> None:
    """Ask Linux to schedule this thread, and the threads it starts afterwards, as
    batch work (SCHED_BATCH): a thread woken does not take the CPU from a running one
    on the spot, only when its time slice ends.

    A worker is two threads that take turns on one CPU: Granian's I/O thread hands
    the Python thread a request and writes its answer. Woken for every answer, the
    I/O thread would interrupt the Python thread mid-page, costing the page its
    caches; as batch work they take turns a few pages at a time. An idle server is
    not slower: a woken thread still runs at once on a free CPU. Any user may ask
    for it; elsewhere (macOS, Windows) it is a no-op."""
    if hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):  # a sandbox refusing the call: run as before
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _announce_when_listening(address: str, port: int, workers: int, announce,
                             wait: float = ANNOUNCE_WAIT_SECONDS) -> None:
    """Call `announce()` once `workers` sockets listen on the port (where the
    system tells: Linux), else once the port takes a connection."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        listening = listening_sockets(port)
        if listening is None:
            try:
                socket.create_connection((address if address not in ("0.0.0.0", "::") else "localhost", port),
                                         timeout=1).close()
                listening = workers
            except OSError:
                listening = 0
        if listening >= workers:
            announce()
            sys.stderr.flush()
            return
        time.sleep(0.05)


def listening_sockets(port: int) -> int | None:
    """Sockets listening on TCP `port` on this machine; None where it cannot be known."""
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
