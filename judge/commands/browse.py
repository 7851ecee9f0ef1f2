"""`judge docs`, `toc`, `show`, `refs` and `export`: reading the corpus.

The `--json` shapes of docs, toc and show are the web API's too (`judge.shapes`)."""
from __future__ import annotations

import json
from typing import Optional

import click

from judge.commands.shared import document_or_fail, emit_json, load, load_served
from judge.shapes import documents_data, show_data, toc_data


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def docs(as_json: bool) -> None:
    """List the documents of the corpus, then the card data's counts (cards, rulings, references,
    RBK references resolved; as JSON: judge rulings --counts --json)."""
    corpus = load()
    if as_json:
        emit_json(documents_data(corpus))
        return
    for r in (d.to_json() for d in corpus.documents.values()):
        click.echo(f"{r['id']:<8} {r['game']:<7} {r['sections']:>4} sections {r['paragraphs']:>5} paragraphs  "
                   f"{r['title']} [{r['edition']}]")
    from judge.commands.cards import cards_summary
    click.echo(cards_summary(corpus))


@click.command()
@click.argument("doc")
@click.option("--json", "as_json", is_flag=True)
def toc(doc: str, as_json: bool) -> None:
    """Show a document's table of contents."""
    corpus = load()
    tree = toc_data(corpus, document_or_fail(corpus, doc))
    if as_json:
        emit_json(tree)
        return

    def walk(nodes, depth):
        for n in nodes:
            number = f"{n['number']} " if n["number"] else ""
            click.echo(f"{'  ' * depth}{number}{n['title']}  [{n['id']}]")
            walk(n["children"], depth + 1)
    walk(tree, 0)


@click.command()
@click.argument("ident", metavar="ID")
@click.option("--json", "as_json", is_flag=True)
@click.option("--as-scanned", is_flag=True,
              help="The older book's text as its scan has it, before its damaged words were repaired.")
def show(ident: str, as_json: bool, as_scanned: bool) -> None:
    """Show a paragraph or section: by ID, label, vekn.net URL, section or outline number."""
    data = show_data(load_served(), ident)
    if as_json:
        emit_json(data)
        return
    how = data["resolved_from"]
    if how["how"] != "id":
        click.echo(f"{ident!r} → {data['id']}" + (f" ({how['note']})" if how["note"] else ""))
    if how["also"]:
        click.echo(f"also: {', '.join(how['also'])}")
    if data["in_force"]:
        click.echo("in the book in force: " + ", ".join(f"{c['label']} [{c['id']}]" for c in data["in_force"]))
    click.echo(" › ".join(s["title"] for s in data["section"]))
    click.echo(f"{data['label']}  [{data['id']}]  ({data['kind']})\n")
    scan = data.get("scan")
    click.echo(scan["text"] if scan and as_scanned else data["text"])
    if scan:
        words = len(scan["repairs"])
        click.echo(f"\n(as scanned, before {words} damaged word{'s were' if words != 1 else ' was'} repaired)" if as_scanned
                   else f"\n({words} word{'s' if words != 1 else ''} of the scan repaired: "
                        + "; ".join(f"{r['original']!r} -> {r['repaired']!r}" for r in scan["repairs"][:6])
                        + ("; …" if words > 6 else "") + f". The scan's text: judge show {data['id']} --as-scanned)")
    if data["refs_out"]:
        click.echo("\nReferences:")
        for r in data["refs_out"]:
            click.echo(f"  {r['raw']} → {r['target'] or r['status']}" + (f"  ({r['reason']})" if r["reason"] else ""))
    if data["refs_in"]:
        click.echo("\nCited by:")
        for r in data["refs_in"]:
            click.echo(f"  {r['source']}  ({r['raw']})")


@click.command()
@click.option("--status", type=click.Choice(["resolved", "external", "broken"]), help="Only this status.")
@click.option("--doc", help="Only references written in this document.")
@click.option("--json", "as_json", is_flag=True)
def refs(status: Optional[str], doc: Optional[str], as_json: bool) -> None:
    """List the references found in the texts and how each was resolved."""
    corpus = load()
    if doc:
        document_or_fail(corpus, doc)
    rows = [r for r in corpus.references()
            if (not status or r.status == status) and (not doc or r.source.startswith(doc + ":"))]
    if as_json:
        emit_json([{"source": r.source, "raw": r.raw, "kind": r.kind, "status": r.status, "target": r.target,
                    "reason": r.reason} for r in rows])
        return
    for r in rows:
        click.echo(f"{r.status:<8} {r.source:<28} {r.raw[:50]:<50} → {r.target or ''}"
                   + (f"  ({r.reason})" if r.reason else ""))
    counts = {s: sum(1 for r in rows if r.status == s) for s in ("resolved", "external", "broken")}
    click.echo(f"{len(rows)} references: " + ", ".join(f"{n} {s}" for s, n in counts.items()), err=True)


@click.command()
@click.option("--doc", help="Only this document.")
def export(doc: Optional[str]) -> None:
    """Every paragraph as JSON lines: {id, doc, label, kind, section, text}."""
    corpus = load()
    if doc:
        document_or_fail(corpus, doc)
    for d in corpus.documents.values():
        if doc and d.id != doc:
            continue
        for p in d.paragraphs:
            click.echo(json.dumps({"id": p.id, "doc": p.doc, "label": p.label, "kind": p.kind,
                                   "section": p.section, "text": p.text}, ensure_ascii=False))
