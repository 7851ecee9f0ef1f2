"""`judge graph ...`: the rule graph from the command line.

Every subcommand has `--json`, whose shapes are those of the judge.graph
functions (docs/graph.md).
"""
from __future__ import annotations

import io
import os
from collections import Counter
from pathlib import Path
from typing import Optional

import click

from judge.commands.shared import UserError, emit_json, load
from judge.model import KINDS as PARAGRAPH_KINDS


def _graph():
    from judge.graph import get_graph

    return get_graph(load())


def _saved_graph(answers: bool = False):
    """What `related`, `orphans`, `hubs` and `stats` read: the graph's arrays and answers saved
    by an earlier command (judge.graph.saved) when they are of this corpus, read with the
    served corpus; else the graph built here, and saved for the next command."""
    from judge.commands.shared import load_served
    from judge.graph import get_graph
    from judge.graph import saved as saved_graph
    from judge.served import whole

    corpus = load_served()
    found = saved_graph.open_saved(corpus, answers=answers)
    if found is not None:
        return found
    graph = get_graph(whole(corpus))
    saved_graph.save(graph)
    return graph


def _json_option(fn):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)


@click.group(name="graph")
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

    rows = find(_saved_graph(), ident, k)
    if as_json:
        emit_json(rows)
        return
    for n, row in enumerate(rows, 1):
        also = f"  (also {', '.join(row['same_rule'])})" if row["same_rule"] else ""
        click.echo(f"{n:>2}. {row['label']}  [{row['id']}]{also}")
        click.echo(f"      why: {row['reason']}")
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
        raise UserError(f"nothing links {a} to {b}", 1)
    if as_json:
        emit_json(found)
        return
    click.echo(f"{found['from']['label']} → {found['to']['label']}: {len(found['hops'])} hops")
    for n, hop in enumerate(found["hops"], 1):
        click.echo(f"{n:>2}. {hop['text']}")


@graph.command()
@click.argument("ident", metavar="ID")
@_json_option
def editions(ident: str, as_json: bool) -> None:
    """The same rule in the other editions, and the outline steps linked to it."""
    from judge.graph import counterparts as find

    data = find(_graph(), ident)
    if as_json:
        emit_json(data)
        return
    click.echo(f"{data['label']}  [{data['id']}]")
    if not data["editions"] and not data["step_cites"]:
        click.echo("  no counterpart in another edition")
    for heading, key, how in [(None, "editions", "method"), ("Outline steps:", "outline_steps", "via"),
                              ("The step cites, in each edition:", "step_cites", "via")]:
        if heading and data[key]:
            click.echo(heading)
        for row in data[key]:
            click.echo(f"  {row['label']}  [{row['id']}]  {row[how]}, confidence {row['confidence']:.2f}")


@graph.command()
@click.argument("ident", metavar="ID")
@_json_option
def backlinks(ident: str, as_json: bool) -> None:
    """What cites ID (or anything inside it, or the sections holding it)."""
    from judge.graph import backlinks as find

    rows = find(_graph(), ident)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("nothing cites it")
    for row in rows:
        click.echo(f"{row['relation']:<9} {row['text']}  [{row['id']}]")


@graph.command()
@click.option("--doc", help="Only this document's paragraphs.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(PARAGRAPH_KINDS),
              help="Only paragraphs of this kind (repeat for several).")
@click.option("--summary", is_flag=True, help="Only the counts per document and kind.")
@_json_option
def orphans(doc: Optional[str], kinds: tuple[str, ...], summary: bool, as_json: bool) -> None:
    """Paragraphs that nothing cites and that cite nothing: the counts per document and
    kind, then the paragraphs, grouped the same way."""
    from judge.graph import orphans as find

    g = _saved_graph(answers=True)
    rows = find(g, doc, kinds)
    groups: dict[str, Counter] = {}
    for row in rows:
        groups.setdefault(row["doc"], Counter())[row["para_kind"]] += 1
    by_size = sorted(groups, key=lambda d: (-sum(groups[d].values()), d))
    if as_json:
        emit_json({d: dict(groups[d].most_common()) for d in by_size} if summary else rows)
        return
    click.echo(f"{len(rows)} orphans: paragraphs that nothing cites and that cite nothing")
    width = max((len(d) for d in groups), default=0)
    for d in by_size:
        kinds_here = ", ".join(f"{n} {kind}" for kind, n in groups[d].most_common())
        click.echo(f"  {d:<{width}} {sum(groups[d].values()):>5}  {kinds_here}")
    if summary:
        return
    for d in by_size:
        for kind, n in groups[d].most_common():
            click.echo(f"\n{d} · {kind} ({n})")
            for row in rows:
                if row["doc"] == d and row["para_kind"] == kind:
                    click.echo(f"  {row['label']}  [{row['id']}]  {_excerpt(g.corpus.paragraphs[row['id']].text)}")


def _excerpt(text: str, length: int = 50) -> str:
    """The first words of a text, on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= length else flat[:length - 1].rsplit(" ", 1)[0] + "…"


@graph.command()
@click.option("-k", "--limit", "k", type=click.IntRange(1, 1000), default=20, show_default=True)
@click.option("--doc", help="Only rules of this document.")
@_json_option
def hubs(k: int, doc: Optional[str], as_json: bool) -> None:
    """The most cited rules."""
    from judge.graph import hubs as find

    rows = find(_saved_graph(answers=True), k, doc)
    if as_json:
        emit_json(rows)
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
        emit_json(data)
        return
    for node in data["nodes"]:
        click.echo(f"{node['distance']}  {node['kind']:<9} {node['label']}  [{node['id']}]")
    click.echo(f"{len(data['nodes'])} nodes, {len(data['edges'])} edges", err=True)


@graph.command()
@_json_option
def stats(as_json: bool) -> None:
    """Counts of nodes and edges by kind, per document, orphans and hubs."""
    from judge.graph import stats as compute

    data = compute(_saved_graph(answers=True))
    if as_json:
        emit_json(data)
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

    if as_json and output is None:
        raise click.UsageError("--json reports on an exported file: give --output too")
    if output is not None:
        _check_writable(output)  # before the graph is built: a typo costs no wait
    g = _graph()
    if output is not None:
        try:
            with output.open("wb" if fmt == "graphml" else "w", **({} if fmt == "graphml" else
                                                                    {"encoding": "utf-8"})) as fh:
                write(g, fmt, fh)
        except OSError as exc:
            raise _cannot_write(output, exc.strerror or str(exc)) from None
        summary = {"format": fmt, "output": str(output), "nodes": g.g.number_of_nodes(),
                   "edges": g.g.number_of_edges()}
        if as_json:
            emit_json(summary)
        else:
            click.echo(f"wrote {summary['nodes']} nodes and {summary['edges']} edges to {output}", err=True)
        return
    buffer = io.BytesIO() if fmt == "graphml" else io.StringIO()
    write(g, fmt, buffer)
    click.echo(buffer.getvalue(), nl=fmt == "json")


def _cannot_write(output: Path, why: str):
    return UserError(f"cannot write the graph to {output}: {why}", 2)  # a bad argument: exit 2


def _check_writable(output: Path) -> None:
    folder = output.parent
    if output.is_dir():
        raise _cannot_write(output, "it is a directory")
    if not folder.is_dir():
        raise _cannot_write(output, f"no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _cannot_write(output, f"directory {folder} is not writable")
