"""The cards and rulings pages and their JSON API (judge.cards; docs/cards.md):

/card/<id-or-name>   a card: text, rules it relies on, rulings with their sources, its groups
/cards               the cards index, with filters (name, kind, type, clan, discipline)
/rulings             rulings (?card=, ?cites=), /rulings/stale those that may predate a rules change
/api/card/<ident>, /api/cards, /api/rulings   the same as JSON (judge.shapes, as the CLI's --json)

and, for the rule pages and the search, `rule_cards(id)` (a template global: the cards
and rulings of a rule) and `search_cards(query)` (the card a search names).
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound

import judge.web.params as params
from judge.memo import Memo
from judge.web.links import search_url
from judge.web.site import current_site

cards = Blueprint("cards", __name__)

INDEX_PAGE = 100  # cards per page of the index
RULINGS_PAGE = 100
RULE_EXAMPLES = 6  # cards shown on a rule page (with a link to all)
API_MAX = 500


class UnknownCard(NotFound):
    def __init__(self, wanted: str, suggestions: list):
        self.wanted = wanted[:80]
        self.suggestions = suggestions  # [Card]
        super().__init__(f"no card {self.wanted!r}")


def card_base():
    """The card base of the app's corpus (loaded once per process, judge.cards.get_cards)."""
    return current_site().cards


def stale_check():
    from judge.cards.stale import get_stale_check
    return get_stale_check(card_base(), current_site().corpus)


def card_or_404(ident: str):
    """The card a URL names (judge.cards.query.look_up, as `judge card` reads a name); a 404 offering the cards
    it may mean, or the closest names, when none for sure."""
    from judge.cards.query import look_up
    found = look_up(card_base(), current_site().corpus, ident[:200])
    if found.card is None:
        raise UnknownCard(ident[:200], found.others[:5])
    return found.card


@cards.errorhandler(UnknownCard)
def unknown_card(exc: UnknownCard):
    if request.path.startswith("/api/"):
        return jsonify({"error": exc.description, "status": 404,
                        # names: as the API's other 404s, strings the same URL takes
                        "suggestions": [c.name for c in exc.suggestions]}), 404
    suggestions = [(url_for("cards.card", ident=c.slug), c.name, c.id) for c in exc.suggestions]
    return render_template("error.html", error=exc, suggestions=suggestions, wanted=exc.wanted), 404


# -- pages --------------------------------------------------------------------------------------
@cards.get("/card/<path:ident>")
def card(ident: str):
    found = card_or_404(ident)
    if ident != found.slug:
        return redirect(url_for(".card", ident=found.slug))
    from judge.shapes import card_data
    base, site = card_base(), current_site()
    data = card_data(base, found, site.corpus, stale_check())
    return render_template("card.html", card=found, data=data)


@cards.get("/cards")
def index():
    base = card_base()
    q = params.text("q", max_length=100) or ""
    kind = params.one_of("kind", ["crypt", "library"])
    types = sorted({t for c in base.cards.values() for t in c.types})
    ctype = params.one_of("type", types)
    clans = sorted({cl for c in base.cards.values() for cl in c.clans})
    from judge.cards.names import current_clan
    given = params.text("clan", max_length=40)
    # a former name ("Assamite", "Follower of Set") is the clan it became
    clan = params.one_of("clan", clans) if not given or current_clan(given) == given else current_clan(given)
    if clan is not None and clan not in clans:
        clan = params.one_of("clan", clans)  # not a clan: refused with the known ones
    disc = (params.text("discipline", max_length=20) or "").lower() or None
    page = params.integer("page", 1, 1, 1000)
    chosen = _filtered(base, q, kind, ctype, clan, disc)
    shown = chosen[(page - 1) * INDEX_PAGE: page * INDEX_PAGE]
    return render_template("cards.html", cards=shown, total=len(chosen), page=page, pages=max(1, -(-len(chosen) // INDEX_PAGE)),
                           q=q, kind=kind, ctype=ctype, clan=clan, discipline=disc, types=types, clans=clans)


def _filtered(base, q, kind, ctype, clan, disc) -> list:
    from judge.cards.names import name_key, same_clan
    key = name_key(q) if q else ""
    out = [c for c in base.cards.values()
           if (not key or key in name_key(c.name)) and (not kind or c.kind == kind)
           and (not ctype or ctype in c.types) and (not clan or any(same_clan(clan, cl) for cl in c.clans))
           and (not disc or any(d.code == disc or d.name.lower() == disc for d in c.disciplines))]
    return sorted(out, key=lambda c: (c.name.casefold(), c.vekn_id))


@cards.get("/rulings")
def rulings():
    return _rulings_page(stale_only=False)


@cards.get("/rulings/stale")
def stale_rulings():
    return _rulings_page(stale_only=True)


def _chosen_rulings(stale_only: bool):
    from judge.cards.query import cited_ids
    base, corpus = card_base(), current_site().corpus
    chosen = list(base.rulings.values())
    card_name = params.text("card", max_length=200)
    if card_name:
        chosen = base.rulings_of(card_or_404(card_name).id)
    cites = params.text("cites", max_length=200)
    if cites:
        citing = {r.id for r in base.rulings_citing(cited_ids(base, corpus, cites))}
        chosen = [r for r in chosen if r.id in citing]
    if stale_only or params.text("stale", max_length=5) in ("1", "true", "yes"):
        flagged = stale_check().all()
        chosen = [r for r in chosen if r.id in flagged]
    return chosen


def _rulings_page(stale_only: bool):
    from judge.shapes import ruling_data
    base, corpus = card_base(), current_site().corpus
    chosen = _chosen_rulings(stale_only)
    page = params.integer("page", 1, 1, 1000)
    shown = [ruling_data(base, r, corpus, stale_check())
             for r in chosen[(page - 1) * RULINGS_PAGE: page * RULINGS_PAGE]]
    return render_template("rulings.html", rulings=shown, total=len(chosen), page=page,
                           pages=max(1, -(-len(chosen) // RULINGS_PAGE)), stale_only=stale_only,
                           card_name=params.text("card", max_length=200), cites=params.text("cites", max_length=200))


# -- the JSON API ---------------------------------------------------------------------------------
@cards.get("/api/card/<path:ident>")
def api_card(ident: str):
    from judge.shapes import card_data
    return jsonify(card_data(card_base(), card_or_404(ident), current_site().corpus, stale_check()))


@cards.get("/api/cards")
def api_cards():
    base = card_base()
    q = params.text("q", max_length=100) or ""
    kind = params.one_of("kind", ["crypt", "library"], api=True)
    limit = params.integer("limit", 100, 1, API_MAX, api=True)
    offset = params.integer("offset", 0, 0, 100_000, api=True)
    chosen = _filtered(base, q, kind, params.text("type", max_length=40), params.text("clan", max_length=40),
                       (params.text("discipline", max_length=20) or "").lower() or None)
    return jsonify({"total": len(chosen), "offset": offset,
                    "cards": [{"id": c.id, "name": c.name, "slug": c.slug, "kind": c.kind, "types": c.types}
                              for c in chosen[offset: offset + limit]]})


@cards.get("/api/rulings")
def api_rulings():
    from judge.shapes import ruling_data
    base, corpus = card_base(), current_site().corpus
    chosen = _chosen_rulings(False)
    limit = params.integer("limit", API_MAX, 1, API_MAX, api=True)
    offset = params.integer("offset", 0, 0, 100_000, api=True)
    return jsonify({"total": len(chosen), "offset": offset,
                    "rulings": [ruling_data(base, r, corpus, stale_check()) for r in chosen[offset: offset + limit]]})


# -- for other pages -----------------------------------------------------------------------------
@cards.app_template_global()
def rule_cards(ident: str) -> dict:
    """The cards relying on a rule (count, a few examples) and the rulings citing it, for
    its page (_rule_cards.html). A section's counts include its paragraphs'."""
    base, corpus = card_base(), current_site().corpus
    ids = [ident, *corpus.ids_inside(ident)] if ident in corpus.sections else [ident]
    using = _ranked_users(base, ids)
    citing = base.rulings_citing(ids)
    check = stale_check()
    return {"cards": [c for c, _ in using[:RULE_EXAMPLES]], "cards_total": len(using),
            "rulings": [(r, check.of(r.id), _citation(r.text, [(ref, base.references[ref].url if ref in
                                                                 base.references else None) for ref in r.references]))
                        for r in citing], "ident": ident}


@cards.app_template_global()
def ruling_citation(ruling_data_: dict) -> str:
    """A ruling as a judge quotes it: the text, then its sources (with their URLs)."""
    return _citation(ruling_data_["text"], [(r["id"], r["url"]) for r in ruling_data_["references"]])


def _citation(text: str, sources: list) -> str:
    """`text — LSJ 20010108 <url>; RBK ... <url>`: what the copy button of a ruling copies."""
    return f"{text} — " + "; ".join(ident + (f" <{url}>" if url else "") for ident, url in sources)


@cards.app_template_global()
def search_in_chips(p: params.SearchParams, searched: list[str]) -> list[tuple[str, str, bool]]:
    """The `in=` facet's chips of a search page: (label, link, on), each link the search with that
    source toggled (the last one on stays on); all three on is no `in=` at all."""
    chips = []
    for source in params.SEARCH_IN:
        chosen = [s for s in params.SEARCH_IN if (s in searched) != (s == source)] or list(searched)
        extra = {} if len(chosen) == len(params.SEARCH_IN) else {"in": chosen}
        chips.append((source.capitalize(), search_url(p, **extra), source in searched))
    return chips


def search_cards(query: str, searched=params.SEARCH_IN, result=None):
    """The card answer of a search query (judge.cards.query): the cards it names, their rulings best first, the
    rulings its words match. None when the card data is absent or neither cards nor rulings are searched
    (`searched`: the `in=` facet). `result`: the rules' search of the same query, whose reading of the query
    ranks the rulings (else the query is read again)."""
    from judge.cards.query import Context, card_answer
    if not query.strip() or not {"cards", "rulings"} & set(searched):
        return None
    site = current_site()
    try:
        base = card_base()
    except Exception:  # the rules' search must answer even when the card data cannot load
        current_app.logger.exception("the card data could not be loaded for a search")
        return None
    if result is not None:
        expansion = lambda q: result.expansion  # noqa: E731
    else:
        expansion = site.searcher.expansion_of
    return card_answer(base, query, tuple(searched), Context(site.corpus, expansion))


@cards.app_template_global()
def ruling_note(ruling, card_id) -> str:
    """A group's ruling's note on one of its cards (judge.shapes.group_note): which version it is about."""
    from judge.shapes import group_note
    return group_note(card_base(), ruling, card_id) if card_id else ""


@cards.app_template_global()
def site_card_name(card_id: str) -> str:
    card = card_base().cards.get(card_id)
    return card.name if card else card_id


@cards.get("/cards/using/<path:ident>")
def uses(ident: str):
    """Every card relying on a rule (a paragraph or section), with what matched."""
    from judge.cards.query import cited_ids
    site = current_site()
    target = cited_ids(card_base(), site.corpus, ident[:200])[0]
    ids = [target, *site.corpus.ids_inside(target)] if target in site.corpus.sections else [target]
    chosen = _ranked_users(card_base(), ids)
    return render_template("cards.html", cards=[c for c, _ in chosen], total=len(chosen), page=1, pages=1,
                           q="", kind=None, ctype=None, clan=None, discipline=None, types=[], clans=[],
                           rule=target)


# (card base, rule IDs) -> the cards using them, most directly first: a rule page asks it at each visit.
_USERS: Memo = Memo("web.rule_card_users", 4096)


def _ranked_users(base, ids: list[str]) -> list:
    key = (base.digest or id(base), tuple(ids))
    return _USERS.recall_or_compute(key, lambda: base.cards_using_ranked(ids))


def warm_cards(site) -> None:
    """Before the first visitor: the card base and the names a search is matched against. A
    ruling's staleness is worked out where a page first shows it (judge.cards.stale: it compares
    older editions with the current one, which grew with the books when done for all here)."""
    from judge.cards.query import Context, card_answer
    card_answer(site.cards, "warm up", context=Context(site.corpus, site.searcher.expansion_of))
