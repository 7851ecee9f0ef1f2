"""What the commands share: loading the corpus, JSON output, errors, the log.

The corpus is loaded with a warning for each document skipped; a user's error
is a message with an exit code; judge's log goes to stderr."""
from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import click

from judge.errors import SourceError

if TYPE_CHECKING:
    from judge.model import Corpus, Document


def emit_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, dict) and
                          len(json.dumps(data)) > 2000 else 2))


class _LogToStderr(logging.Handler):
    """judge's log lines on stderr as the CLI's own (`warning: ...`), written to
    whatever stderr is when they come (click's test runner swaps it)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            level = "warning" if record.levelno < logging.ERROR else "error"
            if record.levelno < logging.WARNING:
                level = "judge"
            click.echo(f"{level}: {self.format(record)}", err=True)
        except Exception:  # a log line must never break the command
            self.handleError(record)


def log_to_stderr(level: int = logging.WARNING) -> None:
    """Show judge's log on stderr, from `level` up: warnings (a cache or an index
    found damaged and rebuilt, a data file kept at its last good copy) for a
    command; a server's log (judge serve) adds what it did (an index rebuilt)."""
    logger = logging.getLogger("judge")
    handler = next((h for h in logger.handlers if isinstance(h, _LogToStderr)), None)
    if handler is None:
        handler = _LogToStderr()
        logger.addHandler(handler)
    handler.setLevel(min(level, handler.level or level))
    logger.setLevel(min(handler.level, logger.level or handler.level))


def load() -> Corpus:
    """The corpus, warning once on stderr about documents that failed to load; a
    SourceError naming the manifest when none did."""
    from judge.corpus import get_corpus  # here: `judge --help` and `--version` load no corpus code

    return _checked(get_corpus())


def load_served() -> Corpus:
    """`load`, for a command that reads a few items: the served corpus (`judge.served`:
    each item read by ID when asked for) when it is written and of the rulebooks as
    they are; else the corpus loaded whole, and the served form written for the next
    command."""
    from judge import paths, served
    from judge.corpus import _LOADED, corpus_digest, get_corpus

    rules = paths.rules_dir()
    loaded = _LOADED.get(str(rules))  # this process has it whole already (tests, a server)
    if loaded is None and rules.is_dir():
        corpus = served.open_served(corpus_digest(rules))
        if corpus is not None:
            return _checked(corpus)
    corpus = _checked(loaded or get_corpus())
    if corpus.digest and loaded is None:
        served.write(corpus)
    return corpus


def _checked(corpus: Corpus) -> Corpus:
    for err in corpus.errors:
        click.echo(f"warning: {err} (document skipped)", err=True)
    for doc in corpus.documents.values():
        for d in doc.diagnostics:
            if d.code == "truncated":  # what loaded is served, but it is not the whole book
                click.echo(f"warning: {doc.meta.source}:{d.line}: {d.message}", err=True)
    if not corpus.documents:
        raise SourceError("manifest.yaml", 0, "no document could be loaded: " + (
            f"each of the {len(corpus.errors)} it lists failed (see the warnings above)" if corpus.errors
            else "it lists none under 'documents:'"))
    return corpus


def document_or_fail(corpus: Corpus, doc_id: str) -> Document:
    """The document `doc_id`, or a usage error listing the known ones."""
    doc = corpus.documents.get(doc_id)
    if doc is None:
        raise click.BadParameter(f"no document {doc_id!r}; known: {', '.join(corpus.documents)}",
                                 param_hint="DOC")
    return doc


class UserError(click.ClickException):
    """A user's error shown as `error: ...` with its own exit code, never a traceback."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code

    def format_message(self) -> str:
        return self.message
