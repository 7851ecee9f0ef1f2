"""`judge card`, `judge rulings` and `judge lint rulings`: the card texts and the rulings
database (judge.cards), linked to the rules they rely on.

    judge card "Govern the Unaligned"          # any case or accents, misspelt: the closest named
    judge card govern-the-unaligned --json
    judge rulings --card "Govern the Unaligned"
    judge rulings --cites vekn:resolve-any-block-attempts/2
    judge rulings --stale --json               # rulings that may predate a rules change
    judge lint rulings                         # every problem of the data: file, line, reason

The `--json` shapes are the web API's (`judge.shapes`, docs/cli.md).
"""
from __future__ import annotations

import sys
from typing import Optional

import click

from judge.commands.shared import UserError, emit_json, load


def _base():
    from judge.cards import get_cards
    corpus = load()
    return corpus, get_cards(corpus)


def cards_summary(corpus) -> str:
    """`judge docs`'s line for the card data: its counts and where it comes from (its JSON is
    `judge rulings --counts --json`); what went wrong when it cannot load, never a traceback."""
    from judge.cards import get_cards, source
    try:
        base = get_cards(corpus)
    except Exception as exc:  # a card base that cannot be built must not hide the rulebooks
        return f"cards    the card data could not be loaded ({type(exc).__name__}: {exc}); see judge lint rulings"
    n = base.counts()
    share = f"{100 * n['rbk_resolved'] / n['rbk_references']:.1f}%" if n["rbk_references"] else "none"
    return (f"cards    vtes    {n['cards']:,} cards ({n['crypt']:,} crypt, {n['library']:,} library), "
            f"{n['rulings']:,} rulings, {n['references']:,} references, RBK resolved {n['rbk_resolved']}/"
            f"{n['rbk_references']} ({share}), {n['problems']} problems  [{_data_source(source)}]")


def _data_source(source) -> str:
    import os
    if os.environ.get(source.ENV_VAR):
        return f"{source.ENV_VAR}={os.environ[source.ENV_VAR]}"
    try:
        from importlib.metadata import version
        return f"krcg {version('krcg')}"
    except Exception:  # not installed as a distribution: the folder's data is still read
        return "krcg"


def card_or_fail(base, corpus, name: str):
    """The card `name` names and its other versions (judge.cards.query.look_up: an ID, a slug, a name as people
    type it); a UserError (exit 1) naming the cards it may mean, or the closest names, when none for sure."""
    from judge.cards.query import look_up
    found = look_up(base, corpus, name)
    if found.card is not None:
        return found.card, found.others
    names = ", ".join(c.name for c in found.others[:10]) or "none"
    if found.ambiguous:
        raise UserError(f"{name[:80]!r} names several cards: {names}; type more of the name", 1)
    raise UserError(f"no card {name[:80]!r}; closest: {names}", 1)


@click.command(name="card")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def card(name: str, as_json: bool) -> None:
    """Show a card: its text, the rules it relies on, its rulings and its groups."""
    from judge.cards.stale import get_stale_check
    from judge.shapes import card_data
    corpus, base = _base()
    found, _ = card_or_fail(base, corpus, name)
    data = card_data(base, found, corpus, get_stale_check(base, corpus))
    if as_json:
        emit_json(data)
        return
    click.echo(f"{click.style(data['label'], bold=True)}  [{found.id}]  {' / '.join(found.types)}")
    if data["versions"]:
        click.echo("other versions: " + ", ".join(f"{v['label']} [{v['id']}]" for v in data["versions"]), err=True)
    facts = [f"{k}: {v}" for k, v in (("pool", found.pool_cost), ("blood", found.blood_cost),
                                       ("conviction", found.conviction_cost), ("capacity", found.capacity),
                                       ("group", found.group), ("clan", ", ".join(found.clans)),
                                       ("sect", found.sect), ("title", found.title)) if v]
    if found.disciplines:
        facts.append("disciplines: " + " ".join(d.code.upper() if d.level == "superior" else d.code
                                                for d in found.disciplines))
    if facts:
        click.echo("  ".join(facts))
    click.echo(f"\n{found.text}\n")
    if data["rules"]:
        click.echo("Rules it relies on:")
        for use in data["rules"]:
            rules = ", ".join(r["id"] for r in use["rules"])
            click.echo(f"  {use['template']} ({', '.join(use['matched'][:2])}): {rules}")
    if data["rulings"]:
        click.echo("\nRulings:")
        for r in data["rulings"]:
            _echo_ruling(r)
    for group in data["groups"]:
        click.echo(f"\nGroup {group['name']}: " + ", ".join(c["name"] for c in group["cards"][:12])
                   + (" …" if len(group["cards"]) > 12 else ""))


def _echo_ruling(r: dict) -> None:
    sources = " ".join(f"[{ref['id']}]" for ref in r["references"])
    click.echo(f"  - {r['text']} {sources}  ({r['id']})")
    if r["stale"]:
        click.echo(f"    note: {r['stale']['note']}")


@click.command(name="rulings")
@click.option("--card", "card_name", metavar="NAME", help="Only the rulings of this card (and its groups).")
@click.option("--cites", "cites", metavar="ID", help="Only rulings citing this paragraph or section (or inside it).")
@click.option("--stale", is_flag=True, help="Only rulings that may predate a rules change.")
@click.option("--counts", is_flag=True, help="The counts of the card data instead (cards, rulings, references...).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rulings(card_name: Optional[str], cites: Optional[str], stale: bool, counts: bool, as_json: bool) -> None:
    """List rulings, each with its references (source, date, URL, the rule it resolves to) and
    a note when it may predate a rules change."""
    from judge.cards.stale import get_stale_check
    from judge.shapes import ruling_data
    corpus, base = _base()
    check = get_stale_check(base, corpus)
    if counts:
        data = {**base.counts(), "stale_rulings": len(check.all())}
        if as_json:
            emit_json(data)
        else:
            for k, v in data.items():
                click.echo(f"{k:<28} {v}")
        return
    chosen = list(base.rulings.values())
    if card_name:
        wanted, _ = card_or_fail(base, corpus, card_name)
        chosen = base.rulings_of(wanted.id)
    if cites:
        from judge.cards.query import cited_ids
        targets = cited_ids(base, corpus, cites)
        citing = {r.id for r in base.rulings_citing(targets)}
        chosen = [r for r in chosen if r.id in citing]
    if stale:
        flagged = check.all()
        chosen = [r for r in chosen if r.id in flagged]
    data = [ruling_data(base, r, corpus, check) for r in chosen]
    if as_json:
        emit_json(data)
    else:
        for r in data:
            _echo_ruling(r)
    click.echo(f"{len(data)} rulings", err=True)
    if not data:
        if stale:
            click.echo("no ruling is dated before a change in meaning of a rule it speaks of (what is checked: "
                       "docs/cards.md, 'May predate a rules change')", err=True)
        sys.exit(1)


@click.command(name="rulings")
@click.option("--json", "as_json", is_flag=True)
def lint_rulings(as_json: bool) -> None:
    """Every problem of the card data: a ruling naming an unknown card, a reference with no
    URL, a rulebook anchor that does not resolve ... each with its file, line and reason."""
    _, base = _base()
    problems = sorted(base.problems, key=lambda p: (p.file, p.line, p.code))
    if as_json:
        emit_json([p.to_json() for p in problems])
        return
    for p in problems:
        where = f"{p.file}:{p.line}" if p.line else p.file
        click.echo(f"{where:<22} {p.code:<18} {p.message}")
    click.echo(f"{len(problems)} problems in the card data", err=True)


def search_answer(corpus, query: str, searched: tuple[str, ...] = ("cards", "rulings"), result=None):
    """`judge search`'s card answer (judge.cards.query.CardAnswer) and the card base it came from (or, for a
    question naming no card, what its ruling hits show: judge.cards.ruling_search.RulingsShown): the cards
    the question names, their rulings best first for what it asks, the rulings its words match. `searched`:
    "cards", "rulings" or both (`--in`); `result` the rules' search of the same query, whose reading of it
    ranks the rulings. (None, None) when the card data fails to load: the rules' search goes on (a warning)."""
    from judge.cards import get_cards
    from judge.cards.query import Context, card_answer
    from judge.cards.quick import quick_answer
    try:
        expansion = (lambda q: result.expansion) if result is not None else (lambda q: None)
        # A question surely naming no card is answered from the saved tables, without reading the card base: what
        # its ruling hits show stands in for it (judge.cards.quick)
        quick = quick_answer(corpus, query, searched, expansion)
        if quick is not None:
            return quick
        base = get_cards(corpus)
        return card_answer(base, query, searched, Context(corpus, expansion)), base
    except Exception as exc:  # the rules must still be searched
        click.echo(f"warning: the card data could not be loaded: {exc}", err=True)
        return None, None


def print_answer(answer) -> bool:
    """The card answer in text: the cards named, the names several cards share, the rulings best first."""
    for m in answer.matches if answer.show_cards else answer.matches[:1]:
        label = answer.versions.get(m.card.id, m.card.name)
        click.echo(f"card: {click.style(label, bold=True)}  [{m.card.id}]  {' / '.join(m.card.types)}"
                   + ("  (closest name)" if m.how == "fuzzy" else ""))
    for typed, cards in answer.ambiguous:
        click.echo(f"'{typed}' names several cards: " + ", ".join(c.name for c in cards[:8])
                   + (f" and {len(cards) - 8} more" if len(cards) > 8 else ""))
    for r in answer.rulings:
        click.echo(f"  ruling: {r.text} [{', '.join(r.references)}]")
    if answer.matches and answer.rulings_total > len(answer.rulings):
        click.echo(f"  ({answer.rulings_total} rulings, the best {len(answer.rulings)} shown: "
                   f"judge rulings --card {answer.matches[0].card.slug})", err=True)
    return bool(answer.matches)
