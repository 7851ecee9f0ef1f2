"""`judge graph ...`: the rule graph from the command line.

Every subcommand has `--json`, whose shapes are those of the judge.graph
functions (docs/graph.md).
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Optional

import click

from judge.errors import JudgeError, UnknownIdError


class _GraphGroup(click.Group):
    """Bad input (an unknown ID, a document that is not a rule) is an error message, never
    a traceback, even when the group is invoked on its own."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except JudgeError as exc:
            from judge.cli import UserError
            raise UserError(str(exc), 1 if isinstance(exc, UnknownIdError) else 2) from None


def _graph():
    from judge.cli import load
    from judge.graph import get_graph

    return get_graph(load())


def _emit(data) -> None:
    from judge.cli import emit_json

    emit_json(data)


def _json_option(fn):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)


@click.group(name="graph", cls=_GraphGroup)
def graph() -> None:
    """The rule graph: citations, terms and the same rule across editions."""


@graph.command()
@click.argument("ident", metavar="ID")
@click.option("-k", "--limit", "k", type=click.IntRange(1, 100), default=10, show_default=True,
              help="How many related rules.")
@_json_option
def related(ident: str, k: int, as_json: bool) -> None:
    """The rules most related to ID (personalised PageRank), each with the links that connect them."""
    from judge.graph import related as find

    rows = find(_graph(), ident, k)
    if as_json:
        _emit(rows)
        return
    for n, row in enumerate(rows, 1):
        also = f"  (also {', '.join(row['same_rule'])})" if row["same_rule"] else ""
        click.echo(f"{n:>2}. {row['label']}  [{row['id']}]{also}")
        for hop in row["path"]:
            click.echo(f"      {hop['text']}")


@graph.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@_json_option
def path(a: str, b: str, as_json: bool) -> None:
    """The strongest chain of links from rule A to rule B, each hop explained."""
    from judge.graph import path as find

    found = find(_graph(), a, b)
    if found is None:
        from judge.cli import UserError
        raise UserError(f"nothing links {a} to {b}", 1)
    if as_json:
        _emit(found)
        return
    click.echo(f"{found['from']['label']} → {found['to']['label']}: {len(found['hops'])} hops")
    for n, hop in enumerate(found["hops"], 1):
        click.echo(f"{n:>2}. {hop['text']}")


@graph.command()
@click.argument("ident", metavar="ID")
@_json_option
def editions(ident: str, as_json: bool) -> None:
    """The same rule in the other editions, and the outline steps linked to it."""
    from judge.graph import editions as find

    data = find(_graph(), ident)
    if as_json:
        _emit(data)
        return
    click.echo(f"{data['label']}  [{data['id']}]")
    if not data["editions"] and not data["step_cites"]:
        click.echo("  no counterpart in another edition")
    for row in data["editions"]:
        click.echo(f"  {row['label']}  [{row['id']}]  {row['method']}, confidence {row['confidence']:.2f}")
    if data["outline_steps"]:
        click.echo("Outline steps:")
        for row in data["outline_steps"]:
            click.echo(f"  {row['label']}  [{row['id']}]  {row['via']}, confidence {row['confidence']:.2f}")
    if data["step_cites"]:
        click.echo("The step cites, in each edition:")
        for row in data["step_cites"]:
            click.echo(f"  {row['label']}  [{row['id']}]  {row['via']}, confidence {row['confidence']:.2f}")


@graph.command()
@click.argument("ident", metavar="ID")
@_json_option
def backlinks(ident: str, as_json: bool) -> None:
    """What cites ID (or anything inside it, or the sections holding it)."""
    from judge.graph import backlinks as find

    rows = find(_graph(), ident)
    if as_json:
        _emit(rows)
        return
    if not rows:
        click.echo("nothing cites it")
    for row in rows:
        click.echo(f"{row['relation']:<9} {row['text']}  [{row['id']}]")


@graph.command()
@click.option("--doc", help="Only this document's paragraphs.")
@_json_option
def orphans(doc: Optional[str], as_json: bool) -> None:
    """Paragraphs that nothing cites and that cite nothing."""
    from judge.graph import orphans as find

    rows = find(_graph(), doc)
    if as_json:
        _emit(rows)
        return
    for row in rows:
        click.echo(f"{row['id']:<40} {row['para_kind']:<12} {row['label']}")
    click.echo(f"{len(rows)} orphans", err=True)


@graph.command()
@click.option("-k", "--limit", "k", type=click.IntRange(1, 1000), default=20, show_default=True)
@click.option("--doc", help="Only rules of this document.")
@_json_option
def hubs(k: int, doc: Optional[str], as_json: bool) -> None:
    """The most cited rules."""
    from judge.graph import hubs as find

    rows = find(_graph(), k, doc)
    if as_json:
        _emit(rows)
        return
    for row in rows:
        click.echo(f"{row['cited_by']:>4}  {row['label']}  [{row['id']}]  cited from {', '.join(row['docs'])}")


@graph.command()
@click.argument("ident", metavar="ID")
@click.option("--radius", type=click.IntRange(0, 3), default=1, show_default=True)
@_json_option
def neighbourhood(ident: str, radius: int, as_json: bool) -> None:
    """The rules, sections and terms within RADIUS links of ID."""
    from judge.graph import neighbourhood as find

    data = find(_graph(), ident, radius)
    if as_json:
        _emit(data)
        return
    for node in data["nodes"]:
        click.echo(f"{node['distance']}  {node['kind']:<9} {node['label']}  [{node['id']}]")
    click.echo(f"{len(data['nodes'])} nodes, {len(data['edges'])} edges", err=True)


@graph.command()
@_json_option
def stats(as_json: bool) -> None:
    """Counts of nodes and edges by kind, per document, orphans and hubs."""
    from judge.graph import stats as compute

    data = compute(_graph())
    if as_json:
        _emit(data)
        return
    click.echo(f"{data['nodes']} nodes, {data['edges']} edges, {data['components']} connected components")
    click.echo("nodes: " + ", ".join(f"{n} {k}" for k, n in data["node_kinds"].items()))
    click.echo("edges: " + ", ".join(f"{n} {k}" for k, n in data["edge_kinds"].items()))
    for doc, row in data["documents"].items():
        click.echo(f"  {doc:<8} {row['sections']:>4} sections {row['paragraphs']:>5} paragraphs "
                   f"{row['orphans']:>5} orphans")
    click.echo("most cited: " + "; ".join(f"{h['label']} ({h['cited_by']})" for h in data["hubs"]))


@graph.command()
@click.option("--format", "fmt", type=click.Choice(["graphml", "json"]), required=True,
              help="GraphML, or JSON in networkx node-link form.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write to this file instead of standard output.")
@_json_option
def export(fmt: str, output: Optional[Path], as_json: bool) -> None:
    """Write the whole graph as GraphML or node-link JSON (loadable with networkx)."""
    from judge.graph import export as write

    g = _graph()
    if as_json and output is None:
        raise click.UsageError("--json reports on an exported file: give --output too")
    if output is not None:
        try:
            with output.open("wb" if fmt == "graphml" else "w", **({} if fmt == "graphml" else
                                                                    {"encoding": "utf-8"})) as fh:
                write(g, fmt, fh)
        except OSError as exc:
            raise click.FileError(str(output), exc.strerror) from None
        summary = {"format": fmt, "output": str(output), "nodes": g.g.number_of_nodes(),
                   "edges": g.g.number_of_edges()}
        if as_json:
            _emit(summary)
        else:
            click.echo(f"wrote {summary['nodes']} nodes and {summary['edges']} edges to {output}", err=True)
        return
    buffer = io.BytesIO() if fmt == "graphml" else io.StringIO()
    write(g, fmt, buffer)
    click.echo(buffer.getvalue(), nl=fmt == "json")
