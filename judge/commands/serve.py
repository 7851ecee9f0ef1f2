"""`judge serve`: the reference browser on the web (judge/web), a production server.

The port is bound first, so a busy port or a bad address is a one-line error
before anything is loaded, and held while the app warms. Then the corpus is
loaded, the app is warmed (judge.web.warmup: everything the pages need,
computed before the first visitor) and served by Granian, `--workers`
processes forked from the warmed one, `--threads` Python threads each; how and
why is judge/web/serving.py. The "serving on" line comes once every worker listens.

The Flask development server (reloader, interactive debugger) runs only with
`--debug`, and only on loopback addresses unless asked twice.
"""
from __future__ import annotations

import ipaddress
import logging
import os

import click

from judge.errors import JudgeError
from judge.web.serving import (
    BODY_SECONDS,
    MAX_DEFAULT_WORKERS,
    THREADS_PER_WORKER,
    CannotListen,
    default_workers,
    listen,
    reach_lines,
    run_granian,
    shown_address,
)

DEFAULT_PORT = 8080


class ServeError(click.ClickException):
    """Shown as `Error: ...`, exit status 2, never a traceback."""

    exit_code = 2


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets phones on the same network reach it.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--workers", default=None, type=click.IntRange(1, 32),
              help=f"Processes serving requests (default: the CPUs, at most {MAX_DEFAULT_WORKERS}).")
@click.option("--threads", default=THREADS_PER_WORKER, show_default=True, type=click.IntRange(1, 64),
              help="Python threads running requests in each process.")
@click.option("--body-timeout", default=BODY_SECONDS, show_default=True, type=click.FloatRange(0.5, 300),
              metavar="SECONDS",
              help="How long a request's body may take to arrive, from its headers on: later, a 408 and the "
                   "connection closed (the app's threads never wait for a slow client).")
@click.option("--public-url", envvar="JUDGE_PUBLIC_URL", default=None, metavar="URL",
              help="The address visitors reach the site at (https://judge.example.org): copied citations and the "
                   "API's links use it. Default: the environment variable JUDGE_PUBLIC_URL, else the address each "
                   "visitor used.")
@click.option("--debug", is_flag=True,
              help="Flask's development server with reloader and debugger: for working on judge only.")
@click.option("--debug-on-network", is_flag=True, hidden=True,
              help="Allow --debug on a non-loopback address (the debugger runs code sent to it).")
def serve(host: str, port: int, workers: int | None, threads: int, body_timeout: float, public_url: str | None,
          debug: bool, debug_on_network: bool) -> None:
    """Serve the reference browser: search, rules, glossary, graph, lint and the JSON API."""
    from judge.web.citations import BadPublicUrl, checked_public_url
    try:
        public_url = checked_public_url(public_url)
    except BadPublicUrl as exc:
        raise click.BadParameter(str(exc), param_hint="--public-url") from None
    if debug and not _is_loopback(host) and not debug_on_network:
        raise click.BadParameter("--debug runs Flask's debugger, which executes code sent to it: "
                                 "use it on 127.0.0.1 only", param_hint="--host")
    if debug:
        _serve_debug(host, port, public_url)
        return
    workers = workers or default_workers()
    try:
        sock = listen(host, port)  # before loading anything: a busy port is told at once
    except CannotListen as exc:
        raise ServeError(str(exc)) from None
    try:
        app = _load_app(public_url)
    except JudgeError as exc:  # nothing loaded, or a data file judge cannot do without
        sock.close()
        raise ServeError(f"judge serve cannot start: {exc}") from None
    address, port = sock.getsockname()[:2]
    how = f"{workers} process{'es' if workers > 1 else ''} × {threads} thread{'s' if threads > 1 else ''}"
    announce = "\n".join([f"judge: serving on http://{shown_address(host, port)}/  ({how}; Ctrl-C to stop)",
                           *reach_lines(host, port)])
    sock.close()  # kept until now so that nothing else takes the port while the app warmed
    run_granian(app, address, port, workers, threads, lambda: click.echo(announce, err=True), body_timeout)


def _load_app(public_url: str | None):
    """The warmed app, having said which documents it serves and which it skipped."""
    from judge.commands.shared import load, log_to_stderr
    from judge.web.app import create_app
    from judge.web.warmup import warm

    log_to_stderr(logging.INFO)  # the server's log: faults while serving, rebuilds, a data file kept at its last good copy
    corpus = load()  # a warning for each document skipped
    if corpus.errors:
        click.echo(f"judge: serving {len(corpus.documents)} document{'s' if len(corpus.documents) > 1 else ''} "
                   f"({', '.join(corpus.documents)}); {len(corpus.errors)} skipped, see the warnings above",
                   err=True)
    click.echo("loading the search index and the rule graph, rendering the rules…", err=True)
    app = create_app(corpus, {"PUBLIC_URL": public_url})
    warm(app)
    return app


def _serve_debug(host: str, port: int, public_url: str | None) -> None:
    from judge.commands.shared import load
    from judge.web.app import create_app

    if not os.environ.get("WERKZEUG_RUN_MAIN"):  # the reloader's child gets the socket from its parent
        try:
            listen(host, port).close()  # a clear error now rather than the development server's own
        except CannotListen as exc:
            raise ServeError(str(exc)) from None
    create_app(load(), {"PUBLIC_URL": public_url}).run(host=host, port=port, debug=True)
