"""The `judge` command group, registering the commands of judge/commands/.

Each command's module loads when the command is called, and a user's error
becomes a message with an exit code, never a traceback. Every command has
`--json`; those shapes are a contract other tools rely on (docs/cli.md)."""
from __future__ import annotations

import importlib
import os
import sys

import click

from judge.commands.shared import UserError, log_to_stderr
from judge.errors import JudgeError, UnknownIdError


class JudgeGroup(click.Group):
    """The `judge` group: user errors become messages, and a command's module loads
    only when it is called (so `judge docs` never imports the engine, the search
    index or numpy)."""

    LAZY = {
        "docs": "judge.commands.browse:docs",
        "toc": "judge.commands.browse:toc",
        "show": "judge.commands.browse:show",
        "refs": "judge.commands.browse:refs",
        "export": "judge.commands.browse:export",
        "lint": "judge.commands.lint:lint_command",
        "search": "judge.commands.search:search",
        "graph": "judge.commands.graph:graph",
        "diff": "judge.commands.diff:diff",
        "history": "judge.commands.diff:history",
        "check": "judge.commands.check:check",
        "serve": "judge.commands.serve:serve",
        "card": "judge.commands.cards:card",
        "rulings": "judge.commands.cards:rulings",
    }

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            module, _, attr = self.LAZY[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UnknownIdError as exc:
            raise UserError(str(exc), 1) from None
        except JudgeError as exc:
            raise UserError(str(exc), 2) from None


@click.group(cls=JudgeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="judge")
def cli() -> None:
    """Rules judge and reference browser for V:TES and VTM Rivals."""
    log_to_stderr()


def main() -> None:
    # One command, one job: OpenBLAS's thread pool (one thread a core, started when
    # numpy is imported) cost each command ~0.1 s of CPU and bought nothing, judge's
    # matrices being sparse (scipy) or small. Set before any command imports numpy;
    # a value the user set is kept.
    for pool in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(pool, "1")
    try:
        cli()
    except BrokenPipeError:  # `judge export | head`
        code = 0
    except SystemExit as exc:  # how click ends every command
        code = exc.code
    else:
        code = 0
    _exit(code)


def _exit(code) -> None:
    """End the process with `code` without the interpreter's teardown: freeing every object a command made (a
    search's tables, half a million blocks at 100 books) took ~0.09 s of a 0.5 s `judge search`. What the teardown
    does that matters is done first: the exit functions run (logging's flush among them) and the standard streams
    are flushed. Taken only when no other thread that the normal exit would wait for is running, and the code is a
    number (a message as code is printed by the normal exit); docs/performance.md."""
    import atexit
    import threading
    if not (code is None or type(code) is int) or any(
            not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(code)
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_functions is None:  # (not CPython's atexit)
        sys.exit(code)
    run_exit_functions()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (BrokenPipeError, ValueError):  # `judge export | head`; a stream closed
            pass
    os._exit(code or 0)


if __name__ == "__main__":
    main()
