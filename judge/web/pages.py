"""The HTML pages: home, search, tables of contents, a page per paragraph or
section, the glossary, the lint report and a rule's graph neighbourhood.

Every page works without JavaScript; judge/web/static/judge.js only adds
results as you type, the copy-citation button and definitions on tap.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import quote_plus, urlencode

from flask import (
    Blueprint,
    get_template_attribute,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from rapidfuzz import fuzz, process

from judge import lookup
from judge.lint import official_copy
from judge.model import title_case as shouted_title  # the labels' own casing
from judge.memo import Memo, memoised
from judge.model import Paragraph, Section
from judge.search.snippets import snippet_html
import judge.web.params as params
from judge.web.links import page_url, search_url
from judge.web.site import current_site
from judge.web.drawing import layout as drawing_layout
from judge.web.errors import UnknownItem

pages = Blueprint("pages", __name__)

SEARCH_LIMIT = 10  # as the API: the page, its live fragment and the API share one search
DEEP_SECTION_LIMIT = 150  # a section page shows its subsections' text up to this many paragraphs
GRAPH_DRAW_LIMIT = 60  # nodes drawn in the neighbourhood picture; more are only listed

KIND_NAMES = {"rule": "Rule", "example": "Example", "advanced": "Advanced rule", "reminder": "Reminder",
              "draft": "Editors' draft", "elder-format": "Elder format", "tournament": "Tournament",
              "glossary": "Glossary", "outline-step": "Outline step", "flavor": "Flavour text",
              "table": "Table", "section": "Section"}


@pages.app_template_filter("kind_name")
def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind)


@pages.app_template_filter("title_case")
def title_case(title: str) -> str:
    """A heading shouted in capitals ("3. MINION PHASE") as the labels write it ("3. Minion Phase")."""
    return shouted_title(title)


@pages.app_template_filter("heading")
def section_heading(section: Section) -> str:
    """A section's number (when its title lacks it) and title, as headings and breadcrumbs show it."""
    title = shouted_title(section.title)
    return f"{section.number} {title}" if section.number and section.number not in section.title else title


# -- home and search -------------------------------------------------------------------
@pages.get("/")
def home():
    site = current_site()
    games: dict[str, list] = {}
    for doc in site.corpus.documents.values():
        games.setdefault(doc.meta.game, []).append(doc)
    return render_template("home.html", games=games, errors=site.corpus.errors)


@pages.get("/search")
def search():
    site = current_site()
    p = params.search_params(site.corpus, required=False, default_limit=SEARCH_LIMIT)
    fragment = request.args.get("fragment") == "1"
    searched = params.searched_in()  # rules, cards, rulings (issue 22)
    # The rules are searched whatever is shown: their reading of the query ranks the rulings too.
    result = site.search(p) if p.q.strip() else None
    rules_shown = result is not None and "rules" in searched
    if rules_shown and result.direct is not None and not result.direct.also and not fragment:
        # A number, ID, label, slug or vekn.net link naming one place: straight there.
        return redirect(site.href(result.direct.id), code=302)
    template = "_live_results.html" if fragment else "search.html"
    more_url = corrected_url = None
    if result is not None:
        if result.total > len(result.hits) and p.limit < 100:
            more_url = search_url(p, limit=p.more_limit)
        if result.did_you_mean:
            corrected_url = search_url(p, q=result.did_you_mean)
    from judge.web.cards import search_cards  # the card the query names (issue 22)
    games = []
    if result is not None and not p.docs:
        games = [(label, search_url(p, game=value), value == result.game) for value, label in GAME_SWITCH]
    answer = search_cards(p.q, searched, result) if p.q.strip() else None
    from judge.shapes import rulings_listed
    listed = answer is not None and rulings_listed(result, searched, bool(p.docs or p.kinds))
    ruling_hits = answer.ruling_hits if listed else []
    shown = _listed(result.hits if rules_shown else [], ruling_hits, p.limit) if result is not None else []
    tips = []
    if result is not None:
        from judge.shapes import what_might_answer
        found = bool(shown) or (rules_shown and result.direct is not None)
        tips = _tip_links(p, what_might_answer(result.query, found, answer, searched), searched)
    return render_template(template, p=p, result=result,
                           facets=_facets(p, result, site.corpus.documents) if rules_shown else [],
                           more_url=more_url, corrected_url=corrected_url, games=games,
                           cards_answer=answer, searched_in=searched,
                           listed=shown, rules_shown=rules_shown, try_instead=tips)


def _tip_links(p, tips: list[dict], searched: list[str]) -> list[tuple[str, str]]:
    """(what to try, its link) of judge.shapes.what_might_answer's tips: a search with other words or in other
    places, or the card list."""
    links = []
    for tip in tips:
        if tip["cards"] is not None:
            links.append((tip["say"], url_for("cards.index", q=tip["cards"]) if tip["cards"] else url_for("cards.index")))
            continue
        where = tip["in"] if tip["in"] is not None else searched
        extra = {} if len(where) == len(params.SEARCH_IN) else {"in": list(where)}
        links.append((tip["say"], search_url(p, q=tip["q"] or p.q, **extra)))
    return links


def _listed(rule_hits: list, ruling_hits: list, limit: int) -> list[tuple[str, object]]:
    """The results list in order: ("rule", a rule hit) and ("ruling", a ruling hit), by score, at most `limit`
    (judge.cards.query.mixed_hits, as the JSON API mixes them)."""
    both = [("rule", h, h.score) for h in rule_hits] + [("ruling", h, h.score) for h in ruling_hits]
    both.sort(key=lambda item: -item[2])
    return [(kind, hit) for kind, hit, _ in both[:limit]]


GAME_SWITCH = (("vtes", "V:TES"), ("rivals", "Rivals"), ("all", "Both"))  # the results' game switch


# The hit macro renders a search hit around its snippet and its editions' links; its frame
# (all of it but those) is rendered once per hit and kept (`hit_frame`), with these in their
# places: no text of the books holds a NUL.
_SNIPPET_SLOT = "\x00snippet\x00"
_LINK_SLOT = "\x00link\x00"


class _Frame(NamedTuple):
    """A hit's HTML but its snippet and its editions' links: before the snippet; after it
    when the hit has no other edition; else what comes before the first link, between
    two, after the last."""

    start: Markup
    end: Markup
    before_links: str
    between_links: str
    after_links: str


def hit_frame(hit, frames: Memo | None = None, show_game: bool = False,
              links: Memo | None = None) -> tuple[Markup, Markup]:
    """A search hit's HTML before and after its snippet: the macro `hit` of _macros.html
    given the hit's id, label, kind, its game (when both games are shown), whether it is
    from an older edition and from OCR text, and the links to its counterparts (the
    macro `edition_link` of each, marked when it matched too).

    The frame is rendered once per hit and kept (`Site.hit_frames`), each counterpart's
    link once per paragraph and whether it matched (`Site.edition_links`), and a hit's
    HTML is joined from them: O(editions) a hit, where rendering every form a hit can
    take (each set of its counterparts matching) grew as 2^editions (issue 21).

    Each macro reads nothing but its arguments (and the corpus's permalinks, which never
    change while the app runs), so its arguments are the whole key: a change to what the
    template makes of them needs no change here, and a template wanting more of the hit
    must be given it as an argument, which then enters the key."""
    arguments = (hit.id, hit.label, hit.kind, show_game and hit.game, not hit.in_force, hit.ocr)
    if frames is None:
        frames = current_site().hit_frames
    found = frames.recall(arguments)
    if found is None:
        found = frames.remember(arguments, _render_frame(arguments))
    if not hit.counterparts:
        return found.start, found.end
    if links is None:
        links = current_site().edition_links
    html = found.between_links.join([edition_link(c, links) for c in hit.counterparts])
    return found.start, Markup(found.before_links + html + found.after_links)


def edition_link(counterpart, kept: Memo) -> str:
    """The macro `edition_link` of a hit's counterpart, rendered once per its arguments and kept."""
    arguments = (counterpart.id, counterpart.label, counterpart.edition, counterpart.matched)
    found = kept.recall(arguments)
    if found is None:
        found = kept.remember(arguments, str(get_template_attribute("_macros.html", "edition_link")(*arguments)))
    return found


def _render_frame(arguments: tuple) -> _Frame:
    """The macro `hit` with stand-ins for the snippet and for no link and two links, cut there."""
    macro = get_template_attribute("_macros.html", "hit")
    ends = []
    for count in (0, 2):
        html = str(macro(*arguments[:3], [Markup(_LINK_SLOT)] * count, snippet=Markup(_SNIPPET_SLOT),
                         game=arguments[3], older=arguments[4], ocr=arguments[5]))
        if html.count(_SNIPPET_SLOT) != 1:
            raise RuntimeError("the hit macro of _macros.html must show its snippet once")
        start, _, end = html.partition(_SNIPPET_SLOT)
        if end.count(_LINK_SLOT) != count or _LINK_SLOT in start:
            raise RuntimeError("the hit macro of _macros.html must show each link once, after the snippet")
        ends.append((start, end))
    (start, none), (start_two, two) = ends
    if start != start_two:
        raise RuntimeError("the hit macro of _macros.html must show its links after the snippet only")
    before, between, after = two.split(_LINK_SLOT)  # (a hit of one link or of many: the tests render each)
    return _Frame(Markup(start), Markup(none), before, between, after)


@pages.app_template_global()
def hits_html(listed, show_game: bool = False, stems=frozenset()) -> Markup:
    """The results list's items: each rule hit's frame (`hit_frame`) around its snippet, as the
    JSON API gives it (`snippet_html`: the text escaped, the matched runs in <mark>), a line
    each; a ruling hit (`listed`: ("rule" | "ruling", hit) in order) as the macro `ruling_hit`
    renders it, the words `stems` matched marked. Joined here, not looped over run by run in a
    template (a third of the results list's rendering when it was). `show_game`: both games
    are shown, each hit says its own."""
    site = current_site()
    frames, links = site.hit_frames, site.edition_links
    out = []
    for kind, hit in listed:
        if kind == "ruling":
            out.append(_ruling_hit_html(site, hit, stems) + "\n")
            continue
        start, end = hit_frame(hit, frames, show_game, links)
        out.append(f"{start}{snippet_html(hit.snippet)}{end}\n")
    return Markup("".join(out))


def _ruling_hit_html(site, hit, stems) -> str:
    """A ruling hit as the macro `ruling_hit` renders it: its frame (`ruling_frame`) around its snippet."""
    from judge.search.snippets import snippet
    start, end = ruling_frame(site, hit.id)
    return f"{start}{snippet_html(snippet(site.cards.rulings[hit.id].text, stems))}{end}"


def ruling_frame(site, ruling_id: str) -> tuple[str, str]:
    """A ruling hit's HTML before and after its snippet: the macro `ruling_hit` given the ruling's shape
    (judge.shapes.ruling_hit_data), rendered once per ruling (and mount point) and kept (`Site.ruling_frames`). The
    macro reads the ruling's ID, label and first card, all the ruling's own: a template wanting what a hit adds (its
    score) must be keyed on it."""
    key = (request.script_root, ruling_id)  # (its link to the card's page is under the app's mount point)
    found = site.ruling_frames.recall(key)
    if found is None:
        from judge.shapes import ruling_hit_data
        data = ruling_hit_data(site.cards, _RulingOf(ruling_id))
        html = str(get_template_attribute("_macros.html", "ruling_hit")(data, Markup(_SNIPPET_SLOT)))
        if html.count(_SNIPPET_SLOT) != 1:
            raise RuntimeError("the ruling_hit macro of _macros.html must show its snippet once")
        start, _, end = html.partition(_SNIPPET_SLOT)
        found = site.ruling_frames.remember(key, (start, end))
    return found


class _RulingOf(NamedTuple):
    """What `ruling_hit_data` reads of a ruling hit but its score, for the frame alone."""

    id: str
    score: float = 0.0


@pages.app_template_global()
def query_stems(result) -> frozenset:
    """The stems a search asked for (its units' stem alternatives): the words a ruling hit marks."""
    if result is None or result.expansion is None:
        return frozenset()
    return frozenset(t for u in result.expansion.units for a in u.alternatives if a.kind == "stems"
                     for t in a.tokens)


def render_hit_frames(searcher) -> int:
    """Render every paragraph's hit frame (its game said and not) and its link as another
    edition's hit lists it (matching the query too and not), from which every form a
    results list shows a hit in is joined. Returns how many frames: two a paragraph.

    The frames are made from what a hit of the paragraph says of it (`_FrameOf`), not
    from `searcher.paragraph_hit`, which works out its counterparts: every paragraph's
    counterparts are O(paragraphs x editions), left to each paragraph's first show."""
    site = current_site()
    corpus = site.corpus
    newest: dict[str, int] = {}
    for doc in corpus.documents.values():
        newest[doc.meta.game] = max(newest.get(doc.meta.game, doc.meta.edition_order), doc.meta.edition_order)
    frames = 0
    for pid, para in corpus.paragraphs.items():
        meta = corpus.documents[para.doc].meta
        hit = _FrameOf(pid, para.label, para.kind, meta.game, meta.edition_order == newest[meta.game],
                       bool(getattr(meta, "ocr", False)))
        for show_game in (False, True):
            hit_frame(hit, site.hit_frames, show_game=show_game)
            frames += 1
        for matched in (False, True):
            edition_link(_Link(pid, para.label, meta.edition, matched), site.edition_links)
    return frames


class _Link(NamedTuple):
    """What `edition_link` reads of a counterpart (judge.search.searcher.Counterpart)."""

    id: str
    label: str
    edition: str
    matched: bool


class _FrameOf(NamedTuple):
    """What `hit_frame` reads of a paragraph's hit but its counterparts (as
    judge.search.searcher.Search._hit makes a `Hit`): none, for the frame alone."""

    id: str
    label: str
    kind: str
    game: str
    in_force: bool
    ocr: bool
    counterparts: tuple = ()


class FacetChip(NamedTuple):
    """A facet chip: a link to the same search with one filter toggled."""

    label: str
    count: int  # the matches with that value (0 for a filter on that matched nothing)
    href: str
    active: bool  # the filter is on: the link turns it off


@memoised("web.facet_filters", 4096)  # the same few filter sets come back on page after page
def _toggled_filters(docs: tuple[str, ...], kinds: tuple[str, ...], name: str, value: str) -> str:
    """The doc= and kind= parameters of a facet chip's link: the filters with `value`
    of `name` ("doc" or "kind") added, or removed when it is on."""
    current = docs if name == "doc" else kinds
    values = [v for v in current if v != value] if value in current else [*current, value]
    docs, kinds = (values, kinds) if name == "doc" else (docs, values)
    return "&".join([*(f"doc={quote_plus(d)}" for d in docs), *(f"kind={quote_plus(k)}" for k in kinds)])


def _facets(p: params.SearchParams, result, documents) -> list[tuple[str, list[FacetChip]]]:
    """The facet chips by group, [(group title, its chips)]: the values found with their
    counts, then those filtered on that matched nothing."""
    if result is None or not (result.facets["doc"] or p.docs or p.kinds):
        return []
    # The link's parts in the order `p.query_args` gives them: only the chip's own
    # filter differs from chip to chip.
    base = page_url("pages.search")
    head = urlencode({"q": p.q}) if p.q else ""
    tail = urlencode({k: v for k, v in (("game", p.game), ("limit", p.limit)) if v not in (None, "")})
    docs, kinds = tuple(p.docs), tuple(p.kinds)

    def chip(name: str, value: str, label: str, count: int) -> FacetChip:
        link = "&".join(part for part in (head, _toggled_filters(docs, kinds, name, value), tail) if part)
        return FacetChip(label, count, f"{base}?{link}", value in (docs if name == "doc" else kinds))

    def doc_label(doc_id: str) -> str:
        return documents[doc_id].meta.short if doc_id in documents else doc_id

    found_docs, found_kinds = result.facets["doc"], result.facets["kind"]
    book = [chip("doc", d, doc_label(d), n) for d, n in found_docs.items()]
    book += [chip("doc", d, doc_label(d), 0) for d in p.docs if d not in found_docs]
    kind = [chip("kind", k, kind_name(k), n) for k, n in found_kinds.items()]
    kind += [chip("kind", k, kind_name(k), 0) for k in p.kinds if k not in found_kinds]
    return [("Book", book), ("Kind", kind)]


# -- documents ---------------------------------------------------------------------------
@pages.get("/doc/<doc_id>")
def toc(doc_id: str):
    site = current_site()
    canonical = document_or_404(doc_id)
    if canonical != doc_id:  # /doc/VEKN, /doc/S6: the permalink is /doc/vekn
        return redirect(url_for(".toc", doc_id=canonical))
    return render_template("toc.html", doc=site.corpus.documents[doc_id], tree=site.toc(doc_id))


def document_named(name: str) -> str | None:
    """The ID of the document called `name`: its ID or short name, in any case."""
    documents = current_site().corpus.documents
    if name in documents:
        return name
    folded = name.casefold()
    return next((d.id for d in documents.values() if folded in (d.id.casefold(), d.meta.short.casefold())), None)


def document_or_404(name: str) -> str:
    found = document_named(name)
    if found is None:
        raise UnknownItem(name, close_matches(name, list(current_site().corpus.documents)), "document")
    return found


def close_matches(wanted: str, choices: list[str]) -> list[str]:
    return [c for c, _, _ in process.extract(wanted[:80], choices, scorer=fuzz.WRatio, limit=5, score_cutoff=50,
                                             processor=str.casefold)]


# -- a paragraph or a section ------------------------------------------------------------
@dataclass
class Block:
    """A paragraph as shown in a page: rendered, with its permalink."""

    para: Paragraph
    html: Markup


def canonical_id_or_404(ident: str) -> str:
    """The canonical ID for what was asked; raises UnknownItem with close matches."""
    site = current_site()
    if site.corpus.get(ident):
        return ident
    match = lookup.find(site.corpus, ident)
    if match is None:
        raise UnknownItem(ident, lookup.suggest(site.corpus, ident))
    return match.id


@pages.get("/p/<path:ident>")
def item(ident: str):
    site = current_site()
    corpus = site.corpus
    found = corpus.get(ident)
    if found is None:
        # Labels, section numbers, vekn.net URLs: send the browser to the permalink
        # (saying what else the number names, when it names several).
        match = lookup.find(corpus, ident)
        if match is None:
            doc = document_named(ident)
            if doc is not None:  # /p/vekn: the book itself
                return redirect(url_for(".toc", doc_id=doc))
            raise UnknownItem(ident, lookup.suggest(corpus, ident))
        return redirect(url_for(".item", ident=match.id, **({"from": ident[:200]} if match.also else {})))
    asked = params.text("from", max_length=200)
    also = []
    if asked:
        match = lookup.find(corpus, asked)
        if match and match.id == found.id:
            also = [(a, site.label(a)) for a in match.also]
    doc = corpus.documents[found.doc]
    common = {"doc": doc, "crumbs": corpus.section_path(found.id), "asked": asked, "also": also,
              "citation": site.citation(found.id, found.text if isinstance(found, Paragraph) else ""),
              "panels": relation_panels(found)}
    if isinstance(found, Paragraph):
        return render_template("paragraph.html", para=found, html=site.renderer.render(found).html,
                               terms=_terms(found), refs=found.refs, neighbours=site.prev_next(found),
                               in_force=_in_force(found),
                               official=official_copy(doc, found) if found.kind == "draft" else None, **common)
    return render_template("section.html", section=found, blocks=_section_blocks(found),
                           children=_child_sections(found), **common)


@dataclass
class InForce:
    """The same rule in the newest edition of its game, shown at the top of an older edition's page."""

    para: Paragraph
    html: Markup
    confidence: float


def _in_force(para: Paragraph) -> InForce | None:
    """The newest edition's counterpart of a rule of an older edition (its best match), or None for a rule
    of the newest edition, or one the newest edition lacks."""
    from judge.compare.concordance import editions
    site = current_site()
    doc = site.corpus.documents[para.doc]
    newest = max(editions(site.corpus, doc.meta.game), key=lambda d: d.meta.edition_order, default=None)
    if newest is None or newest.id == para.doc or doc.meta.edition_order >= newest.meta.edition_order:
        return None
    rows = [r for r in site.editions(para.id)["editions"] if r["doc"] == newest.id and r["kind"] == "paragraph"]
    if not rows:
        return None
    best = max(rows, key=lambda r: r["confidence"])
    other = site.corpus.paragraphs[best["id"]]
    return InForce(other, site.renderer.render(other).html, best["confidence"])


def relation_panels(item: Paragraph | Section) -> Markup:
    """The "cited by", "other editions" and "related rules" panels of a rule page: the
    same for every visitor (relative links only), so rendered once and kept."""
    site = current_site()

    def render() -> Markup:
        macro = get_template_attribute("_macros.html", "relations")
        return Markup(macro(item, site.cited_by(item.id), site.editions(item.id), site.related(item.id),
                            site.excerpt))
    return site.panels.recall_or_compute(item.id, render)


def _terms(para: Paragraph) -> list[tuple[str, str, str]]:
    """(term as written, defining paragraph id, definition) for the glossary box."""
    site = current_site()
    out, seen = [], set()
    for term, _, _, target in site.corpus.term_links.get(para.id, ()):
        if target in seen or target not in site.corpus.paragraphs:
            continue
        seen.add(target)
        out.append((term, target, site.corpus.paragraphs[target].text))
    return out


def _section_blocks(section: Section) -> list[tuple[Section, int, list[Block]]]:
    """(section, depth, its paragraphs) for the section and, if not too long, its subsections."""
    site = current_site()
    corpus = site.corpus
    deep = len(corpus.paragraphs_of(section.id)) <= DEEP_SECTION_LIMIT
    out = []

    def walk(sec: Section, depth: int) -> None:
        blocks = [Block(corpus.paragraphs[pid], site.renderer.render(corpus.paragraphs[pid]).html)
                  for pid in sec.paragraphs]
        out.append((sec, depth, blocks))
        if deep:
            for child in sec.children:
                walk(corpus.sections[child], depth + 1)
    walk(section, 0)
    return out


def _child_sections(section: Section) -> list[Section]:
    """Subsections listed as links when the page does not show their text."""
    corpus = current_site().corpus
    if len(corpus.paragraphs_of(section.id)) <= DEEP_SECTION_LIMIT:
        return []
    return [corpus.sections[c] for c in section.children]


# -- glossary --------------------------------------------------------------------------
@pages.get("/glossary")
def glossary():
    site = current_site()
    with_glossary = [d for d in site.corpus.documents.values() if d.glossary]
    chosen = params.one_of("doc", [d.id for d in with_glossary])
    groups = []
    for doc in with_glossary:
        if chosen and doc.id != chosen:
            continue
        entries = sorted(doc.glossary.items(), key=lambda kv: kv[0].lower())
        groups.append((doc, [_glossary_entry(term, site.corpus.paragraphs[pid])
                             for term, pid in entries if pid in site.corpus.paragraphs]))
    return render_template("glossary.html", groups=groups, chosen=chosen, with_glossary=with_glossary)


def _glossary_entry(term: str, para: Paragraph) -> tuple[str, Paragraph, Markup]:
    """(the term as its entry writes it, the entry, its definition): the term shown once,
    as the heading, not again at the start of the definition."""
    renderer = current_site().renderer
    split = renderer.render_definition(para, term)
    if split is None:  # not "Term: definition" (a damaged entry): shown whole
        return term, para, renderer.render(para).html
    head, rendered = split
    return head, para, rendered.html


# -- the rule graph ------------------------------------------------------------------------
GRAPH_HUBS, GRAPH_ORPHANS = 15, 40  # listed on the graph's entry page


@pages.get("/graph/")
@pages.get("/graph")  # (applied first: the URL the links are built with)
def graph_entry():
    """Where to start in the rule graph: a rule to start from (sent to its neighbourhood), the most
    cited rules, and the rules nothing links to, by book."""
    from judge import graph as G
    site = current_site()
    start = params.text("start", max_length=200).strip()
    error = None
    if start:
        match = lookup.find(site.corpus, start)
        if match is not None:
            return redirect(url_for(".graph", ident=match.id))
        found = site.search(params.SearchParams(q=start, limit=1)) if start else None
        if found is not None and found.hits:
            return redirect(url_for(".graph", ident=found.hits[0].id))
        error = f"no rule matches {start[:80]!r}: try other words, an ID (rb:6.4.6/2) or a section number"
    doc = params.one_of("doc", list(site.corpus.documents))
    lonely = G.orphans(site.graph, doc=doc, kinds=("rule",))
    return render_template("graph_entry.html", hubs=G.hubs(site.graph, GRAPH_HUBS, doc=doc), orphans=lonely[:GRAPH_ORPHANS],
                           orphans_total=len(lonely), doc=doc, start=start, error=error,
                           stats=site.graph.g.number_of_nodes()), (404 if error else 200)


@pages.get("/graph/<path:ident>")
def graph(ident: str):
    site = current_site()
    radius = params.integer("radius", 1, 1, 2)
    target = ident if ident.startswith("term:") and ident in site.graph.g else canonical_id_or_404(ident)
    if target != ident:
        return redirect(url_for(".graph", ident=target, radius=radius))
    hood = site.neighbourhood(target, radius)
    drawing = drawing_layout(hood, site.href) if len(hood["nodes"]) <= GRAPH_DRAW_LIMIT else None
    edges = [(e, site.describe_hop(e["source"], e["target"], e["kind"])) for e in hood["edges"]
             if e["kind"] != "contains" or radius == 1]
    return render_template("graph.html", item=site.get(target), hood=hood, drawing=drawing, radius=radius,
                           edges=edges, related=site.related(target))
