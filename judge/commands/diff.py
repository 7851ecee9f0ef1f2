"""`judge diff` and `judge history`: what an edition or a draft changes, a rule's past.

The comparer is judge.compare.comparison (docs/compare.md). The `judge` group
turns a JudgeError (an unknown document or ID, an unreadable draft) into its
message."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import click

from judge.commands.shared import emit_json, load
from judge.errors import JudgeError


def _use_color(color: Optional[bool]) -> bool:
    return sys.stdout.isatty() if color is None else color


def _write(text: str, output: Optional[Path]) -> None:
    if output is None:
        click.echo(text, color=True)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise JudgeError(f"{output}: cannot write the report: {exc.strerror}") from None
    click.echo(f"wrote {output}", err=True)


@click.command(name="diff")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="[NEW]", required=False)
@click.option("--draft", type=click.Path(dir_okay=False, path_type=Path),
              help="Compare this draft file of document OLD with the corpus version, then lint it.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (docs/compare.md).")
@click.option("--html", "as_html", is_flag=True, help="A standalone HTML report.")
@click.option("--markdown", "as_markdown", is_flag=True, help="A Markdown report.")
@click.option("--all", "show_all", is_flag=True, help="List unchanged pairs too.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write the report to this file instead of the terminal.")
@click.option("--color/--no-color", default=None, help="Colour the terminal text (default: when a terminal).")
def diff(old: str, new: Optional[str], draft: Optional[Path], as_json: bool, as_html: bool, as_markdown: bool,
         show_all: bool, output: Optional[Path], color: Optional[bool]) -> None:
    """Compare two editions of a game's rules (OLD NEW), or a draft of one (OLD --draft FILE).

    Each aligned pair of paragraphs is unchanged, terminology (equal once tap is
    lock), wording, or meaning (a number, negation, modal verb, timing phrase,
    quantity or actor changed: the signal is named); plus added, removed and
    moved paragraphs. A draft is followed by its lint report."""
    from judge.compare import render as compare_render  # here: `judge --help` loads no numpy
    from judge.compare.comparison import compare, compare_draft

    if sum((as_json, as_html, as_markdown)) > 1:
        raise click.UsageError("choose one of --json, --html, --markdown")
    if draft is not None and new is not None:
        raise click.UsageError("give either NEW or --draft FILE, not both")
    if draft is None and new is None:
        raise click.UsageError("missing NEW: `judge diff OLD NEW`, or `judge diff DOC --draft FILE`")
    corpus = load()
    comparison = compare_draft(corpus, old, draft) if draft is not None else compare(corpus, old, new)
    if as_json:
        if output:
            _write(json.dumps(comparison.to_json(), ensure_ascii=False), output)
        else:
            emit_json(comparison.to_json())
    elif as_html:
        _write(compare_render.render_html(comparison, show_all), output)
    elif as_markdown:
        _write(compare_render.render_markdown(comparison, show_all), output)
    else:
        _write(compare_render.render_text(comparison, _use_color(color) and output is None, show_all), output)


@click.command(name="history")
@click.argument("ident", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (docs/compare.md).")
@click.option("--color/--no-color", default=None, help="Colour the terminal text (default: when a terminal).")
def history(ident: str, as_json: bool, color: Optional[bool]) -> None:
    """One paragraph through every edition of its game, oldest first: created, unchanged,
    edited (with the meaning signals and the word diff), moved, removed."""
    from judge.compare import render as compare_render
    from judge.compare.comparison import history as rule_history

    found = rule_history(load(), ident)
    if as_json:
        emit_json(found.to_json())
        return
    click.echo(compare_render.render_history_text(found, _use_color(color)), color=True)
