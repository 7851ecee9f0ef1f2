"""`judge lint`: the editor's report of the corpus (judge.lint)."""
from __future__ import annotations

import click

from judge.commands.shared import document_or_fail, emit_json, load
from judge.lint import lint


@click.command(name="lint")
@click.argument("docs", metavar="[DOC]...", nargs=-1)
@click.option("--json", "as_json", is_flag=True)
def lint_command(docs: tuple[str, ...], as_json: bool) -> None:
    """The editor's report: broken references, placeholders, empty citations, duplicates, gaps.
    `judge lint rulings`: the card data's problems instead (judge.commands.cards)."""
    if docs == ("rulings",):
        from judge.commands.cards import lint_rulings
        return click.get_current_context().invoke(lint_rulings, as_json=as_json)
    corpus = load()
    for d in docs:
        document_or_fail(corpus, d)
    findings = lint(corpus, docs or None)
    if as_json:
        emit_json([f.to_json() for f in findings])
        return
    for f in findings:
        where = f.location() if f.section_label else f"{f.doc} {f.location()}"
        click.echo(f"{where:<36} {f.severity:<7} {f.code:<17} {f.message}" + (f"  [{f.paragraph}]" if f.paragraph else ""))
    click.echo(f"{len(findings)} findings", err=True)
