"""`judge search QUERY`: search the rulebooks from the command line.

    judge search "who can block an undirected action"
    judge search tap --doc rb --limit 3
    judge search 6.4.6 --json
    judge search "govern the unaligned ruling" --in rulings
    printf 'diablerize\\ntorper\\n' | judge search --stdin      # one JSON result per line

`--json` prints `SearchResult.to_json()`: {query, hits: [{id, doc, label, text,
score, snippet, snippet_runs, ...}], total, facets, did_you_mean, direct, message, notes}
(docs/search.md) plus `cards` (the cards the query names) and `in` (what was
searched: `--in rules|cards|rulings`, the web search's `in=` facet, all three by
default). The exit status is 0 when something was found, 1 when nothing was;
with `--stdin` it is 0 once every line has been answered.
"""
from __future__ import annotations

import json
import sys
from typing import Optional

import click


def _values(options: tuple[str, ...]) -> list[str]:
    """`--doc rb --doc s6` and `--doc rb,s6` alike."""
    return [v.strip() for option in options for v in option.split(",") if v.strip()]


def _terminal_snippet(runs) -> str:
    """A hit's snippet for a terminal: the matched words in bold (plain when piped)."""
    return "".join([click.style(text, bold=True) if marked else text for text, marked in runs])


SEARCH_IN = ("rules", "cards", "rulings")  # as the web search's `in=` facet (judge.web.params.SEARCH_IN)


def _searched_in(options: tuple[str, ...]) -> list[str]:
    """`--in cards --in rulings` and `--in cards,rulings` alike, in SEARCH_IN's order; all when none."""
    given = _values(options)
    unknown = [v for v in given if v not in SEARCH_IN]
    if unknown:
        raise click.BadParameter(f"unknown value {unknown[0][:40]!r} (known: {', '.join(SEARCH_IN)})",
                                 param_hint="'--in'")
    return [s for s in SEARCH_IN if s in given] or list(SEARCH_IN)


def _answer(searcher, query: str, limit: int, filters: dict, searched: list[str]) -> dict:
    """`judge search --json`'s answer (judge.shapes.search_data): the rules' result (no rule hit when the rules
    are not searched, as /api/search), mixed with the rulings the question matches, and the card answer (None when
    neither cards nor rulings are searched)."""
    from judge.commands.cards import search_answer  # the cards the query names (issue 22)
    from judge.shapes import search_data
    result = searcher.search(query, limit=limit, **filters)
    answer = base = None
    if {"cards", "rulings"} & set(searched):
        answer, base = search_answer(searcher.corpus, query, tuple(s for s in searched if s != "rules"), result)
    filtered = bool(filters.get("doc") or filters.get("kind"))
    return result, answer, search_data(result, answer, base, searched, limit, filtered)


def _print_result(result, hits: list[dict], searched: list[str]) -> None:
    """The rules' result in text: its notes and message, then the hits as `search_data` mixed them (rule
    paragraphs and rulings)."""
    if result.direct is not None:
        also = f" (also {', '.join(result.direct.also)})" if result.direct.also else ""
        click.echo(f"{result.query!r} is {result.direct.id}{also}")
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if result.message:
        click.echo(result.message, err=True)
    if result.did_you_mean:
        click.echo(f"did you mean: {result.did_you_mean}", err=True)
    for n, hit in enumerate(hits, 1):
        kind = "" if hit["kind"] == "rule" else f"  ({hit['kind']})"
        if not hit["in_force"]:
            kind += "  (older edition" + (", OCR text)" if hit["ocr"] else ")")
        click.echo(f"{n:>2}. {click.style(hit['label'], bold=True)}  [{hit['id']}]{kind}")
        click.echo(f"    {_terminal_snippet(hit['snippet_runs'])}")
        if hit["editions"]:
            click.echo("    also: " + ", ".join(c["label"] for c in hit["editions"]))
    if result.other_game and not hits and "rules" in searched:
        click.echo(f"(--game {result.other_game['game']} finds {result.other_game['total']})", err=True)
    if hits and result.total > len(hits):
        click.echo(f"{result.total} matching paragraphs, best {len(hits)} shown", err=True)


@click.command(name="search")
@click.argument("query", required=False)
@click.option("--doc", "docs", multiple=True, metavar="DOC", help="Only this document (repeat or comma-separate).")
@click.option("--game", "games", multiple=True, metavar="GAME",
              help="This game: vtes, rivals or all (default: the game the query is about, else vtes).")
@click.option("--kind", "kinds", multiple=True, metavar="KIND", help="Only paragraphs of this kind (rule, example ...).")
@click.option("--in", "searched", multiple=True, metavar="WHAT",
              help="Search these only: rules, cards, rulings (repeat or comma-separate; default: all three).")
@click.option("-n", "--limit", type=click.IntRange(1, 100), default=10, show_default=True, help="How many hits.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--stdin", "from_stdin", is_flag=True, help="Read one query per line, write one JSON result per line.")
def search(query: Optional[str], docs, games, kinds, searched, limit: int, as_json: bool, from_stdin: bool) -> None:
    """Search the rulebooks: plain words, "quoted phrases", doc:/game:/kind: filters,
    older terms (tap, diablerize, Assamite), typos, section numbers (6.4.6, IV.D.2)."""
    if from_stdin and query is not None:
        raise click.UsageError("give a QUERY or --stdin, not both")
    if not from_stdin and query is None:
        raise click.UsageError("missing QUERY (or use --stdin to read one query per line)")
    from judge.commands.shared import load_served
    from judge.search import get_searcher

    given_in = bool(searched)
    searched = _searched_in(searched)
    searcher = get_searcher(load_served())
    filters = dict(doc=_values(docs) or None, game=_values(games) or None, kind=_values(kinds) or None)
    if from_stdin:
        for line in sys.stdin:
            if not given_in:  # the rules' result alone, as before `--in`
                click.echo(json.dumps(searcher.search(line.rstrip("\r\n"), limit=limit, **filters).to_json(),
                                      ensure_ascii=False))
                continue
            _, _, data = _answer(searcher, line.rstrip("\r\n"), limit, filters, searched)
            click.echo(json.dumps(data, ensure_ascii=False))
        return
    result, answer, data = _answer(searcher, query, limit, filters, searched)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        from judge.commands.cards import print_answer
        if answer is not None:
            print_answer(answer)
        _print_result(result, data["hits"], searched)
        if answer is not None and answer.asked_name and not answer.matches:
            click.echo(f"no card is named {answer.asked_name!r}", err=True)
        for tip in data["try"]:
            where = f" (judge search {tip['q']!r})" if tip["q"] else (
                " (--in " + ",".join(tip["in"]) + ")" if tip["in"] else (
                    f" (judge card {tip['cards']!r} names the closest)" if tip["cards"] else " (judge card NAME)"))
            click.echo(f"try: {tip['say']}{where}", err=True)
    if not data["hits"] and not (answer and answer.matches):
        sys.exit(1)
