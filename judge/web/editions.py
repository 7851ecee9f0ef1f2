"""The editor's desk on the web (judge/compare/, docs/compare.md): the editions diff (/diff, /api/diff) and a
rule's history through every edition (/history/<id>, /api/history/<id>)."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound

import judge.web.params as params
from judge.web.site import current_site

diff_pages = Blueprint("diff", __name__)

PAIRS_PER_PAGE = 40
DEFAULT_CHANGES = ["meaning", "wording"]
HISTORY_ID_CHARS = 200  # /history/<id>: an ID, a label or a vekn.net address

@diff_pages.app_template_filter("what_label")
def what_label(what: str) -> str:
    """What a meaning change changes, as the diff's badge says it (judge/compare/importance.py)."""
    from judge.compare.importance import WHAT_LABELS
    return WHAT_LABELS.get(what, what)


# -- the editions diff ---------------------------------------------------------------------------
def _comparable(corpus) -> list:
    """The documents that are editions of a game's rules (outlines are not)."""
    from judge.compare.concordance import editions
    games = sorted({d.meta.game for d in corpus.documents.values()})
    return [doc for game in games for doc in editions(corpus, game)]


def _diff_params() -> tuple[str | None, str | None]:
    corpus = current_site().corpus
    ids = comparable_ids(corpus)
    old = params.one_of("old", ids)
    new = params.one_of("new", ids)
    if (old is None) != (new is None):
        raise params.BadParameter("new" if new is None else "old", "give both editions to compare (old and new)")
    if old is not None and old == new:
        raise params.BadParameter("new", f"choose two different editions (both are {old!r})")
    if old is not None:
        games = {d.id: d.meta.game for d in _comparable(corpus)}
        if games[old] != games[new]:
            raise params.BadParameter("new", f"{old!r} and {new!r} are rules of different games "
                                             f"({games[old]}, {games[new]}): compare two editions of one game")
    return old, new


def comparable_ids(corpus) -> list[str]:
    """The IDs /diff and /api/diff accept as `old` and `new`."""
    return [d.id for d in _comparable(corpus)]


def comparable_pairs(corpus) -> list[tuple]:
    """Every (older, newer) pair of editions of one game: what the diff page offers."""
    docs = _comparable(corpus)
    return [(a, b) for a in docs for b in docs
            if a.meta.game == b.meta.game and a.meta.edition_order < b.meta.edition_order]


@dataclass
class MarkedRuns:
    """One side of a pair's word diff as the page marks it: (text, mark, level) runs;
    mark is '', 'del', 'ins' or 'term'. (`judge.compare.text.Side` is a side's text.)"""

    runs: list[tuple[str, str, str]]  # (text, mark, level)


def _sides(segments) -> tuple[MarkedRuns, MarkedRuns]:
    old, new = [], []
    for seg in segments:
        if seg.op == "equal":
            old.append((seg.old, "", ""))
            new.append((seg.new, "", ""))
        elif seg.op == "term":
            old.append((seg.old, "term", ""))
            new.append((seg.new, "term", ""))
        else:
            if seg.old:
                old.append((seg.old, "del", seg.level or ""))
            if seg.new:
                new.append((seg.new, "ins", seg.level or ""))
    return MarkedRuns(old), MarkedRuns(new)


@diff_pages.get("/diff", endpoint="page")
def diff_page():
    from judge.compare.text import CHANGES
    site = current_site()
    comparable = _comparable(site.corpus)
    pairs_offered = comparable_pairs(site.corpus)
    try:
        old, new = _diff_params()
        shown = params.choices("change", list(CHANGES)) or DEFAULT_CHANGES
        page_number = params.integer("page", 1, 1, 1000)
    except params.BadParameter as exc:
        # Shown with the form, which keeps what was chosen, so the editor corrects it there.
        return render_template("diff.html", comparable=comparable, pairs_offered=pairs_offered,
                               old=request.args.get("old", ""), new=request.args.get("new", ""),
                               comparison=None, shown=DEFAULT_CHANGES, error=exc.description), 400
    if old is None:
        vtes = [d for d in comparable if d.meta.game == "vtes"] or comparable
        return render_template("diff.html", comparable=comparable, pairs_offered=pairs_offered, old=vtes[0].id,
                               new=vtes[-1].id, comparison=None, shown=shown)
    comparison = site.comparison(old, new)
    pairs = [p for p in comparison.pairs if p.change in shown]
    pages_total = max(1, -(-len(pairs) // PAIRS_PER_PAGE))
    if page_number > pages_total:
        raise params.BadParameter("page", f"there {'is' if pages_total == 1 else 'are'} only {pages_total} "
                                  f"page{'s' if pages_total != 1 else ''} of changes")
    start = (page_number - 1) * PAIRS_PER_PAGE
    shown_pairs = [(p, *_sides(p.text.segments)) for p in pairs[start:start + PAIRS_PER_PAGE]]
    return render_template("diff.html", comparable=comparable, pairs_offered=pairs_offered, old=old, new=new,
                           comparison=comparison, contents=_contents(site.corpus, comparison.new, pairs, old, new,
                                                                     shown, page_number),
                           shown=shown, pairs=shown_pairs, pairs_total=len(pairs), page=page_number,
                           pages_total=pages_total, summary=comparison.summary(), changes=CHANGES,
                           moves=_moves(comparison, pairs, old, new, shown))


@dataclass
class ContentsRow:
    """A line of the diff's table of contents: a chapter of the newer book and its changes of each kind."""

    title: str
    counts: dict  # change kind -> how many
    url: str  # its first change, on the page showing it
    here: bool  # that change is on this page


def _contents(corpus, new_doc, pairs: list, old: str, new: str, shown: list[str], page: int) -> list[ContentsRow]:
    """The changes shown, by the newer book's chapter, each linking to its first change (the pages run in
    order of importance, so a chapter's changes may spread over several)."""
    rows: dict[str, ContentsRow] = {}
    for n, pair in enumerate(pairs):
        path = corpus.section_path(pair.new[0].id) if pair.new[0].id in corpus.paragraphs else []
        chapter = path[0] if path else None
        key = chapter.id if chapter else ""
        if key not in rows:
            on = n // PAIRS_PER_PAGE + 1
            rows[key] = ContentsRow(section_title(chapter) if chapter else new_doc.meta.short, {},
                                    url_for("diff.page", old=old, new=new, change=shown, page=on)
                                    + f"#pair-{pair.old[0].id}", on == page)
        rows[key].counts[pair.change] = rows[key].counts.get(pair.change, 0) + 1
    return list(rows.values())


def section_title(section) -> str:
    from judge.model import title_case
    title = title_case(section.title)
    return f"{section.number} {title}" if section.number and section.number not in section.title else title


@dataclass
class MoveRow:
    """A moved pair as the Moved panel lists it; `change_url` shows its word diff, when
    its kind of change is among those shown."""

    pair: object  # judge.compare.comparison.PairChange
    change_url: str | None


def _moves(comparison, shown_pairs: list, old: str, new: str, shown: list[str]) -> list[MoveRow]:
    page_of = {id(p): n // PAIRS_PER_PAGE + 1 for n, p in enumerate(shown_pairs)}
    rows = []
    for pair in comparison.moved:
        page = page_of.get(id(pair))
        url = None
        if page is not None and not pair.pure_move:
            url = url_for("diff.page", old=old, new=new, change=shown, page=page) + f"#pair-{pair.old[0].id}"
        rows.append(MoveRow(pair, url))
    return rows


@diff_pages.get("/api/diff", endpoint="api")
def diff_api():
    old, new = _diff_params()
    if old is None:
        raise params.BadParameter("old", "is required (and new): the two editions to compare")
    return jsonify(current_site().comparison(old, new).to_json())


# -- a rule's history --------------------------------------------------------------------------------
def _history(ident: str):
    """The history of a paragraph of an edition; 404 naming why for an unknown ID, a section or an outline."""
    from judge.errors import JudgeError
    if len(ident) > HISTORY_ID_CHARS:
        raise NotFound(f"no paragraph {ident[:40]!r}…: an ID, a label or a section number is at most "
                       f"{HISTORY_ID_CHARS} characters")
    try:
        return current_site().history(ident)
    except JudgeError as exc:
        raise NotFound(str(exc)) from None


@diff_pages.get("/history/<path:ident>", endpoint="history")
def history_page(ident: str):
    """One rule through every edition of its game, oldest first, each edited edition with its word diff
    against the previous one that has the rule."""
    found = _history(ident)
    if found.id != ident:  # a label, a number or a vekn.net address: the rule's own address
        return redirect(url_for("diff.history", ident=found.id))
    entries = [(entry, *(_sides(entry.text.segments) if entry.text and entry.event in ("edited", "moved+edited")
                        else (None, None))) for entry in found.entries]
    return render_template("history.html", history=found, entries=entries)


@diff_pages.get("/api/history/<path:ident>", endpoint="api_history")
def history_api(ident: str):
    return jsonify(_history(ident).to_json())
