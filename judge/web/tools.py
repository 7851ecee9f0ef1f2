"""Pages and API routes of the tools built on other parts of judge:

* the editions diff (judge/compare/, docs/compare.md): /diff and /api/diff;
* the scenario check (judge/engine/): /check and /api/check, under the same limits as `judge check`
  (judge/engine/limits.py): 400 for a malformed scenario, 413 for a body or a scenario too long, 422 for a
  scenario over another limit, each naming what and where.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge, UnsupportedMediaType

import judge.web.params as params
from judge.web.site import current_site

def _limits():
    """The replay's limits this app applies (`SCENARIO_LIMITS` in its config; judge/engine/limits.py's
    defaults unless the app was made with others)."""
    return current_app.config["SCENARIO_LIMITS"]


diff_pages = Blueprint("diff", __name__)
check_pages = Blueprint("check", __name__)

PAIRS_PER_PAGE = 40
DEFAULT_CHANGES = ["meaning", "wording"]


# -- the editions diff ---------------------------------------------------------------------------
def _comparable(corpus) -> list:
    """The documents that are editions of a game's rules (outlines are not)."""
    from judge.compare.concordance import editions
    games = sorted({d.meta.game for d in corpus.documents.values()})
    return [doc for game in games for doc in editions(corpus, game)]


def _diff_params() -> tuple[str | None, str | None]:
    corpus = current_site().corpus
    ids = [d.id for d in _comparable(corpus)]
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


# -- the scenario check ----------------------------------------------------------------------------
@check_pages.app_template_filter("plain")
def plain(value) -> str:
    """A value of the replay's state in words: `{pool: 10, edge: Sarah}` -> "pool: 10, edge: Sarah"."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) or "nothing"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or "none"
    return str(value)


@check_pages.app_template_filter("stop_message")
def stop_message(message: str) -> str:
    """The stop's message without the "refused: " the heading above it already says."""
    return message.removeprefix("refused: ")


def _editions() -> dict[str, str]:
    """The rules editions a replay can follow, of either game (V:TES: current, older; Rivals: rivals)."""
    from judge.engine import citations
    return dict(citations.EDITION_NAMES)


class BodyTooLarge(RequestEntityTooLarge):
    """413: the request's body is over what a scenario of the longest allowed can need."""

    def __init__(self, size: str):
        super().__init__(f"the request's body is {size} bytes; judge reads at most {_limits().body_bytes():,} bytes, "
                         f"enough for a scenario of {_limits().characters:,} characters (the limit 'characters')")


def _read_body() -> bytes:
    """The request's body, read whole and kept for the form parser; 413 beyond _limits().body_bytes(), whether the
    client gave its length or streamed it (chunked). Werkzeug stops reading a stream at the app's maximum without
    saying that it went on, so that maximum is one byte over ours (judge.web.app.create_app): a body that reaches it
    is longer than allowed, and refused, never cut."""
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:  # a Content-Length over the maximum: nothing was read
        raise BodyTooLarge(f"{request.content_length:,}") from None
    if len(data) > _limits().body_bytes():
        length = request.content_length
        raise BodyTooLarge(f"{length:,}" if length is not None else f"more than {_limits().body_bytes():,}")
    return data


def _run(text: str, rules: str | None) -> tuple[dict, str]:
    """The `judge check --json` object for a scenario's text, and its JSON; ScenarioError if it is malformed,
    OverLimit if it goes over one of the limits (the same as `judge check`'s, judge/engine/limits.py)."""
    from judge.engine import scenario, trace
    site = current_site()
    parsed = scenario.parse(text, "<pasted scenario>", _limits(), site.scenario_cards)
    resolver = site.scenario_resolver()
    return trace.checked_json(scenario.run(parsed, rules, resolver, _limits()), resolver, _limits())


def _scenario_text() -> str:
    _read_body()
    try:
        upload = request.files.get("file")
        text = request.form.get("scenario", "")
    except RequestEntityTooLarge:  # a form field over the form parser's own maximum (the body's)
        raise BodyTooLarge(f"more than {_limits().body_bytes():,}") from None
    if upload is not None and upload.filename:
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise params.BadParameter("file", "is not UTF-8 text (a scenario is a YAML file)") from None
    if not text.strip():
        raise params.BadParameter("scenario", "is empty: paste a scenario or choose a file")
    return text


_ESCAPE = re.compile(r"\\\\|\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.I)


def _astral_escapes_joined(json_text: str) -> str:
    """JSON writes a character beyond U+FFFF (an emoji) as two escapes, a surrogate pair ("\\ud83d\\ude00"),
    which the YAML reader (YAML 1.1) refuses: in a JSON body, each pair becomes the character it stands for.
    (An escaped backslash, "\\\\", is kept as it is, so that "\\\\ud83d" stays a backslash and text.)"""
    def joined(m: re.Match) -> str:
        if m.group(1) is None:
            return m.group(0)
        high, low = int(m.group(1), 16), int(m.group(2), 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    return _ESCAPE.sub(joined, json_text)


def _rules_choice(value: str) -> str | None:
    if value in ("", "file"):
        return None
    if value not in _editions():
        raise params.BadParameter("rules", f"unknown edition {value[:40]!r} (known: {', '.join(_editions())})")
    return value


def _status(exc) -> int:
    """400 for a malformed scenario; 413 for one over the character limit; 422 for one over another limit."""
    from judge.engine.limits import OverLimit
    if not isinstance(exc, OverLimit):
        return 400
    return 413 if exc.limit == "characters" else 422


@check_pages.route("/check", methods=["GET", "POST"], endpoint="page")
def check_page():
    from judge.engine.errors import ScenarioError
    editions = _editions()
    if request.method == "GET":
        return render_template("check.html", editions=editions, text="", rules="file", result=None, error=None)
    text, rules = "", "file"
    try:
        text = _scenario_text()  # the body first: the form is parsed from what was read
        rules = request.form.get("rules", "file")
        result, _ = _run(text, _rules_choice(rules))
    except ScenarioError as exc:
        status = _status(exc)
        return render_template("check.html", editions=editions, text=text, rules=rules, result=None, error=exc,
                               status=status), status
    except HTTPException as exc:
        if exc.code not in (400, 413):
            raise
        return render_template("check.html", editions=editions, text=text, rules=rules, result=None,
                               error=exc.description, status=exc.code), exc.code
    return render_template("check.html", editions=editions, text=text, rules=rules, result=result, error=None,
                           **_trace_view(result))


@dataclass
class TracedEvent:
    """An event of the replay as the check page shows it: its number and wording once, then its steps."""

    n: int
    event: str
    steps: list


def _trace_view(result: dict) -> dict:
    """The steps grouped by event, and each cited paragraph's link rendered once (a replay at the limits cites
    a few dozen paragraphs some 3,000 times: rendering each link every time was half the page's time)."""
    from itertools import groupby

    from markupsafe import Markup
    site = current_site()
    trace = [TracedEvent(n, steps[0]["event"], steps)
             for n, group in groupby(result["steps"], key=lambda step: step["n"]) for steps in [list(group)]]
    cited = {pid for step in result["steps"] for pid in step["cites"]}
    cite_html = {pid: Markup('<a href="{}">{}</a>').format(site.href(pid), site.label(pid)) for pid in cited}
    return {"trace": trace, "cite_html": cite_html}


@check_pages.post("/api/check", endpoint="api")
def check_api():
    from judge.engine.errors import ScenarioError
    from judge.engine.limits import OverLimit
    raw = _read_body()
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        # A form (the /check page's, or curl -F) is not a scenario: say what this route reads.
        raise UnsupportedMediaType(f"this route reads the scenario itself as the body (Content-Type text/yaml or "
                                   f"application/json), not a form ({request.mimetype}); the form goes to /check")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text (send the scenario's YAML or JSON)") from None
    if not text.strip():
        raise BadRequest("the body is empty: send a scenario (YAML or JSON)")
    if request.mimetype == "application/json":
        text = _astral_escapes_joined(text)
    rules = _rules_choice(request.args.get("rules", ""))
    try:
        _, body = _run(text, rules)
    except ScenarioError as exc:
        status = _status(exc)
        error = {"error": exc.message, "status": status, "line": exc.line}
        if isinstance(exc, OverLimit):
            error.update(limit=exc.limit, maximum=exc.maximum)
        return jsonify(error), status
    return Response(body, mimetype="application/json")
