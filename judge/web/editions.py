"""The editor's desk on the web (judge/compare/, docs/compare.md): the editions diff (/diff, /api/diff), a
rule's history through every edition (/history/<id>, /api/history/<id>), and the lint report (/lint), with a
draft pasted or uploaded there compared with its book and linted."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound, RequestEntityTooLarge

import judge.web.params as params
from judge.web.site import current_site

editions_pages = Blueprint("editions", __name__)

PAIRS_PER_PAGE = 40
DEFAULT_CHANGES = ["meaning", "wording"]
HISTORY_ID_CHARS = 200  # /history/<id>: an ID, a label or a vekn.net address

@editions_pages.app_template_filter("what_label")
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


@editions_pages.get("/diff", endpoint="page")
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
                                    url_for("editions.page", old=old, new=new, change=shown, page=on)
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
            url = url_for("editions.page", old=old, new=new, change=shown, page=page) + f"#pair-{pair.old[0].id}"
        rows.append(MoveRow(pair, url))
    return rows


@editions_pages.get("/api/diff", endpoint="api")
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


@editions_pages.get("/history/<path:ident>", endpoint="history")
def history_page(ident: str):
    """One rule through every edition of its game, oldest first, each edited edition with its word diff
    against the previous one that has the rule."""
    found = _history(ident)
    if found.id != ident:  # a label, a number or a vekn.net address: the rule's own address
        return redirect(url_for("editions.history", ident=found.id))
    entries = [(entry, *(_sides(entry.text.segments) if entry.text and entry.event in ("edited", "moved+edited")
                        else (None, None))) for entry in found.entries]
    return render_template("history.html", history=found, entries=entries)


@editions_pages.get("/api/history/<path:ident>", endpoint="api_history")
def history_api(ident: str):
    return jsonify(_history(ident).to_json())


# -- the lint report, and a draft linted -------------------------------------------------------------
# A draft sent to /lint is read up to this many bytes (pasted or uploaded), and then up to its book's own bound
# (judge.compare.comparison.draft_bytes: 4 times the book, at least 256 KB). The current book is 569,468 bytes:
# a whole revised book fits; comparing one takes about a second (docs/compare.md).
DRAFT_UPLOAD_BYTES = 1024 * 1024


@dataclass
class DraftReport:
    """A draft linted on the web: which book it drafts, its name, its comparison with the corpus version (the
    changes most important first, each with its two sides marked) and its lint findings."""

    doc: object  # the judge.model.Document drafted
    name: str
    comparison: object  # judge.compare.comparison.Comparison, with .lint
    changes: list  # (pair, old side, new side), meaning and wording changes, most important first


def _counts(findings: list) -> dict[str, int]:
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    return counts


def _lint_page(chosen=None, draft: Optional[DraftReport] = None, error: Optional[str] = None, status: int = 200,
               pasted: str = "", draft_doc: str = ""):
    site = current_site()
    findings = draft.comparison.lint if draft else site.lint((chosen,) if chosen else ())
    return render_template("lint.html", findings=findings, chosen=chosen, counts=_counts(findings), draft=draft,
                           draftable=_comparable(site.corpus), error=error, pasted=pasted,
                           draft_doc=draft_doc or (draft.doc.id if draft else ""),
                           upload_bytes=DRAFT_UPLOAD_BYTES), status


@editions_pages.get("/lint", endpoint="lint")
def lint_page():
    """The corpus's lint report, all books or one; and the form to lint a draft."""
    chosen = params.one_of("doc", list(current_site().corpus.documents))
    return _lint_page(chosen)


class DraftTooLarge(RequestEntityTooLarge):
    def __init__(self, size: str):
        super().__init__(f"the draft is {size} bytes; /lint reads a draft of at most {DRAFT_UPLOAD_BYTES:,} bytes "
                         f"(the current book is about 570 KB): for a longer one, `judge diff DOC --draft FILE`")


def _draft_text() -> tuple[str, str]:
    """The draft sent (an uploaded file, else the pasted text) and its name; 413 beyond DRAFT_UPLOAD_BYTES,
    400 for an empty draft or one that is not UTF-8 text."""
    length = request.content_length
    if length is not None and length > DRAFT_UPLOAD_BYTES + 64 * 1024:
        raise DraftTooLarge(f"{length:,}")
    try:
        data = request.get_data(cache=True)
        upload = request.files.get("file")
        pasted = request.form.get("draft", "")
    except RequestEntityTooLarge:
        raise DraftTooLarge(f"more than {DRAFT_UPLOAD_BYTES:,}") from None
    if len(data) > DRAFT_UPLOAD_BYTES + 64 * 1024:
        raise DraftTooLarge(f"{len(data):,}")
    if upload is not None and upload.filename:
        raw = upload.read(DRAFT_UPLOAD_BYTES + 1)
        name = Path(upload.filename).name[:100] or "draft"
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise params.BadParameter("file", f"{name}: byte {exc.start:,} is not UTF-8: a draft is a text file, "
                                              f"saved as UTF-8") from None
    else:
        text, name = pasted, "the pasted draft"
    if len(text.encode("utf-8")) > DRAFT_UPLOAD_BYTES:
        raise DraftTooLarge(f"{len(text.encode('utf-8')):,}")
    if not text.strip():
        raise params.BadParameter("draft", "is empty: paste a draft of a book, or choose its file")
    if "\x00" in text:
        raise params.BadParameter("draft", f"{name} holds a NUL character: is it really a text file?")
    return text, name


@editions_pages.post("/lint", endpoint="lint_draft")
def lint_draft():
    """A draft of one of the books (pasted or uploaded), compared with the corpus version and linted: the same
    as `judge diff DOC --draft FILE`."""
    import tempfile

    from judge.compare.comparison import compare_draft
    from judge.errors import JudgeError
    site = current_site()
    draftable = {d.id: d for d in _comparable(site.corpus)}
    pasted, doc_id = "", request.args.get("doc", "")
    try:
        text, name = _draft_text()
        pasted = request.form.get("draft", "") if name == "the pasted draft" else ""
        doc_id = request.form.get("doc", "")
        if doc_id not in draftable:
            raise params.BadParameter("doc", f"choose the book the draft is of ({', '.join(draftable)}), not "
                                             f"{doc_id[:40]!r}")
        doc = draftable[doc_id]
        with tempfile.TemporaryDirectory(prefix="judge-draft-") as folder:
            path = Path(folder) / f"draft{Path(doc.meta.source).suffix or '.txt'}"
            path.write_text(text, encoding="utf-8")
            try:
                comparison = compare_draft(site.corpus, doc_id, path)
            except JudgeError as exc:
                message = str(exc).replace(str(path), name).replace(path.name, name)
                raise params.BadParameter("draft", f"cannot read it as a draft of {doc.meta.short}: {message}") from None
    except (params.BadParameter, RequestEntityTooLarge) as exc:
        status = 413 if isinstance(exc, RequestEntityTooLarge) else 400
        return _lint_page(error=exc.description, status=status, pasted=pasted[:DRAFT_UPLOAD_BYTES],
                          draft_doc=doc_id if doc_id in draftable else "")
    comparison.draft = name
    changes = [(p, *_sides(p.text.segments)) for p in comparison.pairs if p.change in ("meaning", "wording")]
    return _lint_page(draft=DraftReport(doc, name, comparison, changes), pasted=pasted)
