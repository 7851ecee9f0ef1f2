"""`judge serve`: the reference browser on the web (judge/web), a production server.

The listening socket is bound first, so a busy port or a bad address is a
one-line error before anything is loaded. Then the corpus is loaded and every
answer the pages need is computed (`Site.warm`), and the app is served:

* by gunicorn, one process per CPU (`--workers`, default: the CPUs, at most 4)
  forked from the warmed one, so the pages render on every core (Python runs
  one thread at a time per process). The workers share the bound socket and
  copy the warm state on fork; gunicorn restarts a worker that dies.
* by waitress, threads in one process, with `--workers 1` or where gunicorn
  cannot run (Windows has no fork).

The Flask development server (reloader, interactive debugger) runs only with
`--debug`, and only on loopback addresses unless asked twice.
"""
from __future__ import annotations

import errno
import ipaddress
import os
import socket
import sys

import click

DEFAULT_PORT = 8080
# Requests are CPU work under Python's lock: in a gunicorn worker, threads beyond one add no
# speed and, measured with 50 clients, lengthen the slowest answers; a few let slow phones not
# hold up the rest. Waitress alone needs more: with 4 it served static files at half the rate.
THREADS_PER_WORKER = 4
THREADS_ALONE = 8
MAX_DEFAULT_WORKERS = 4  # each worker holds a copy of the corpus, the index and the graph (~250 MB)
BACKLOG = 2048  # connections waiting while the server warms up or is busy


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


def gunicorn_available() -> bool:
    """Gunicorn runs on POSIX systems only (it needs fork and fcntl), not on Windows."""
    try:
        import gunicorn.app.base  # noqa: F401
    except ImportError:
        return False
    return True


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets phones on the same network reach it.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--workers", default=None, type=click.IntRange(1, 32),
              help=f"Processes serving requests (default: the CPUs, at most {MAX_DEFAULT_WORKERS}; "
                   "more than one needs gunicorn, not available on Windows).")
@click.option("--threads", default=None, type=click.IntRange(1, 64),
              help=f"Requests handled at once by each process (default: {THREADS_PER_WORKER} per worker, "
                   f"{THREADS_ALONE} in a single process).")
@click.option("--debug", is_flag=True,
              help="Flask's development server with reloader and debugger: for working on judge only.")
@click.option("--debug-on-network", is_flag=True, hidden=True,
              help="Allow --debug on a non-loopback address (the debugger runs code sent to it).")
def serve(host: str, port: int, workers: int | None, threads: int | None, debug: bool,
          debug_on_network: bool) -> None:
    """Serve the reference browser: search, rules, glossary, graph, lint and the JSON API."""
    if debug and not _is_loopback(host) and not debug_on_network:
        raise click.BadParameter("--debug runs Flask's debugger, which executes code sent to it: "
                                 "use it on 127.0.0.1 only", param_hint="--host")
    if debug:
        _serve_debug(host, port)
        return
    workers = workers or default_workers()
    if workers > 1 and not gunicorn_available():
        click.echo("note: gunicorn is not available here (Windows?): serving from one process", err=True)
        workers = 1
    threads = threads or (THREADS_PER_WORKER if workers > 1 else THREADS_ALONE)

    sock = listen(host, port)  # before loading anything: a busy port is told at once
    from judge.cli import load
    from judge.web import create_app, warm

    click.echo("loading the search index and the rule graph, rendering the rules…", err=True)
    app = create_app(load())
    warm(app)
    url = f"http://{shown_address(host, sock.getsockname()[1])}/"
    how = f"{workers} processes × {threads} threads" if workers > 1 else f"{threads} threads"
    click.echo(f"judge: serving on {url}  ({how}; Ctrl-C to stop)", err=True)
    sys.stderr.flush()
    if workers > 1:
        run_gunicorn(app, sock, workers, threads)
    else:
        run_waitress(app, sock, threads)


def waitress_server(app, sock: socket.socket, threads: int):
    """Waitress on the bound socket: `.run()` serves until `.close()` (or Ctrl-C)."""
    import waitress

    return waitress.create_server(app, sockets=[sock], threads=threads, ident="judge",
                                  clear_untrusted_proxy_headers=True)


def run_waitress(app, sock: socket.socket, threads: int) -> None:
    server = waitress_server(app, sock, threads)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def run_gunicorn(app, sock: socket.socket, workers: int, threads: int) -> None:
    """Gunicorn's arbiter on the bound socket: it forks `workers` copies of this
    process (the app already warm) and restarts any that dies. Ctrl-C stops all."""
    import gc

    from gunicorn.app.base import BaseApplication

    options = {
        "bind": [f"fd://{sock.detach()}"],  # gunicorn takes the descriptor over (and closes ours)
        "workers": workers,
        "worker_class": "gthread",  # threads per worker, keep-alive connections
        "threads": threads,
        "preload_app": True,
        "proc_name": "judge",
        "loglevel": "warning",
        "timeout": 60,
        "control_socket_disable": True,  # gunicorn ≥ 25 would open one under ~/.gunicorn
    }

    class Prefork(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:  # settings an older gunicorn lacks are left out
                    self.cfg.set(key, value)

        def load(self):
            return app

    # The warm state is shared with the workers copy-on-write: keep the collector from
    # touching (and so copying) it in each of them (Python's advice for fork, gc.freeze).
    gc.collect()
    gc.freeze()
    Prefork().run()  # the workers exit from inside this call; the arbiter returns on Ctrl-C


def _serve_debug(host: str, port: int) -> None:
    from judge.cli import load
    from judge.web import create_app

    if not os.environ.get("WERKZEUG_RUN_MAIN"):  # the reloader's child gets the socket from its parent
        listen(host, port).close()  # a clear error now rather than the development server's own
    create_app(load()).run(host=host, port=port, debug=True)
