"""`judge serve`: the reference browser on the web (judge/web), under waitress.

Waitress is a production WSGI server: threads, request size limits, no
debugger. The Flask development server (reloader, interactive debugger) runs
only with `--debug`, and only on loopback addresses unless asked twice.
"""
from __future__ import annotations

import ipaddress
import sys

import click

DEFAULT_PORT = 8080
DEFAULT_THREADS = 8


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
@click.option("--threads", default=DEFAULT_THREADS, show_default=True, type=click.IntRange(1, 64),
              help="Requests handled at once.")
@click.option("--debug", is_flag=True,
              help="Flask's development server with reloader and debugger: for working on judge only.")
@click.option("--debug-on-network", is_flag=True, hidden=True,
              help="Allow --debug on a non-loopback address (the debugger runs code sent to it).")
def serve(host: str, port: int, threads: int, debug: bool, debug_on_network: bool) -> None:
    """Serve the reference browser: search, rules, glossary, graph, lint and the JSON API."""
    from judge.cli import load
    from judge.web import create_app

    if debug and not _is_loopback(host) and not debug_on_network:
        raise click.BadParameter("--debug runs Flask's debugger, which executes code sent to it: "
                                 "use it on 127.0.0.1 only", param_hint="--host")
    corpus = load()
    app = create_app(corpus)
    if debug:
        app.run(host=host, port=port, debug=True)
        return

    import waitress

    click.echo("loading the search index and the rule graph, finding related rules…", err=True)
    app.extensions["judge"].warm()
    server = waitress.create_server(app, host=host, port=port, threads=threads, ident="judge",
                                    clear_untrusted_proxy_headers=True)
    shown_host = f"[{host}]" if ":" in host else host
    click.echo(f"judge: serving on http://{shown_host}:{server.effective_port}/  (Ctrl-C to stop)", err=True)
    sys.stderr.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
