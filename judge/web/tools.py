"""Pages and API routes of the tools built on other parts of judge:

* the editions diff (judge/compare/, docs/compare.md): /diff and /api/diff;
* the scenario check (judge/engine/): /check and /api/check, under the same limits as `judge check`
  (judge/engine/limits.py): 400 for a malformed scenario, 413 for a body or a scenario too long, 422 for a
  scenario over another limit, each naming what and where.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import (BadRequest, HTTPException, NotFound, RequestEntityTooLarge, RequestURITooLarge,
                                 UnsupportedMediaType)

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
        from judge.engine.errors import ScenarioError
        from judge.engine.yamlfile import decoded
        try:
            text = decoded(upload.read())
        except ScenarioError as exc:
            raise params.BadParameter("file", f"line {exc.line}: {exc.message}") from None
    if not text.strip():
        raise params.BadParameter("scenario", "is empty: paste a scenario or choose a file")
    return text


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


def _page(text: str = "", rules: str = "file", result: Optional[dict] = None, error=None, status: int = 200,
          state: Optional[dict] = None, builder_error=None, chosen_form: str = "", state_yaml: Optional[str] = None):
    """The /check page: the builder (its state, the event form chosen; `state_yaml` is its YAML when already
    written), the raw YAML editor, and the replay of `text` with its permalink when there is one."""
    from judge.web import builder
    state = state if state is not None else builder.new_state()
    state_yaml = state_yaml if state_yaml is not None else builder.dump(state)
    yaml_text = text if text.strip() else (state_yaml if builder.players(state) else "")
    linked = bool(yaml_text.strip()) and builder.permalink_fits(yaml_text)
    forms = builder.event_forms()
    groups: dict[str, list] = {}
    for form in forms:
        groups.setdefault(form.group, []).append(form)
    view = dict(editions=_editions(), text=text, rules=rules, result=result, error=error, status=status,
                state=state, state_yaml=state_yaml, yaml_text=yaml_text,
                players=builder.players(state), minions=builder.minion_names(state),
                phases=builder.PHASES, regions=builder.REGIONS, form_groups=groups,
                chosen=builder.event_form(chosen_form), builder_error=builder_error,
                examples=builder.examples(),
                link=builder.permalink(yaml_text) if linked else None,
                too_long_for_link=bool(yaml_text.strip()) and not linked,
                card_names=_card_names(), card_keys=builder.CARD_KEYS, builder_assets=_builder_assets())
    if result:
        view.update(_trace_view(result))
        view["trace_numbers"] = [event.n for event in view["trace"]]
    return render_template("check.html", **view), status


@lru_cache(maxsize=1)
def _asset_versions() -> dict:
    import hashlib

    from judge.web.links import STATIC_DIR
    return {name: hashlib.sha256((STATIC_DIR / name).read_bytes()).hexdigest()[:12]
            for name in ("builder.css", "builder.js")}


def _builder_assets() -> dict:
    """The builder's own stylesheet and script, each at its content hash's URL (as judge.css is)."""
    versions = _asset_versions()
    return {"css": url_for("static", filename="builder.css", v=versions["builder.css"]),
            "js": url_for("static", filename="builder.js", v=versions["builder.js"])}


def _card_names() -> dict:
    """The card list's names, for the builder's autocomplete: minions (vampires and allies) and the library."""
    return _names_of(current_site())


_NAMES: dict[int, dict] = {}


def _names_of(site) -> dict:
    found = _NAMES.get(id(site.corpus))
    if found is None:
        try:
            base = site.cards
        except Exception:  # noqa: BLE001 - no card list: the builder still works, without suggestions
            current_app.logger.exception("the card list could not be loaded for the builder's suggestions")
            return {"minions": [], "library": []}
        cards = base.cards.values()
        minions = sorted({c.name for c in cards if c.kind.lower() == "crypt" or "Ally" in c.types})
        library = sorted({c.name for c in cards if c.kind.lower() != "crypt"})
        found = _NAMES[id(site.corpus)] = {"minions": minions, "library": library}
    return found


def _crypt_card(name: str):
    try:
        card = current_site().cards.card(name)
    except Exception:  # noqa: BLE001 - a name not in the card list is simply not looked up
        return None
    return card if card is not None and card.kind.lower() == "crypt" else None


def _replay(text: str, rules: Optional[str]) -> dict:
    result, _ = _run(text, rules)
    return result


def _builder_step():
    """A POST of the builder: the state from its hidden field, the step the button names, then the page with
    the new state and its replay. A step that cannot be taken (or an event the engine cannot read) leaves the
    state as it was and says why."""
    from judge.engine.errors import ScenarioError
    from judge.web import builder
    form = request.form
    step = form.get("do", "")
    step, _, index = step.partition(":")
    chosen = form.get("event_form", "")
    if step == "enter":  # Enter pressed in a field: the step whose field was filled in
        step = _step_entered(form)
    # Every field but the state (a whole scenario, read under the scenario's limits) holds one name, number or
    # short value: one longer is refused before any of it is read.
    for key, value in form.items(multi=True):
        if key != "state" and len(value) > builder.FIELD_CHARS:
            return _page(status=400, builder_error=builder.BuilderError(
                key[:40], f"the field {key[:40]!r} is {len(value):,} characters long; a field of the builder holds "
                          f"at most {builder.FIELD_CHARS:,}"))
    try:
        state = builder.read_state(form.get("state", "") or builder.dump(builder.new_state()), _limits())
    except ScenarioError as exc:
        return _page(error=exc, status=_status(exc), builder_error=builder.BuilderError("state", exc.message))
    if not builder.buildable(state):
        return _page(status=400, builder_error=builder.BuilderError("state", "the builder's state is not a scenario "
                                                                             "it can extend; start again"))
    before = builder.dump(state)
    try:
        builder.set_table(state, form)
        if step == "add_player":
            builder.add_player(state, form)
        elif step == "remove_player":
            builder.remove_player(state, int(index or -1))
        elif step == "add_minion":
            builder.add_minion(state, form, _crypt_card)
        elif step == "remove_minion":
            builder.remove_item(state, "minions", int(index or -1))
        elif step == "add_event":
            builder.add_event(state, form, _limits())
        elif step == "add_sentence":
            builder.add_sentence(state, form)
        elif step == "remove_event":
            builder.remove_item(state, "events", int(index or -1))
        elif step == "new":
            state = builder.new_state()
        elif step not in ("table", "choose_form"):
            raise builder.BuilderError("do", f"unknown step {step[:40]!r}")
    except builder.BuilderError as exc:
        return _page(state=builder.read_state(before, _limits()), builder_error=exc, status=400,
                     chosen_form=chosen)
    except ValueError:
        return _page(state=state, builder_error=builder.BuilderError("do", "no such item to remove"), status=400,
                     chosen_form=chosen)
    text = builder.dump(state)
    if not (builder.players(state) and state.get("events")):
        return _page(state=state, chosen_form=chosen)
    try:
        result = _replay(text, None)
    except ScenarioError as exc:
        if step in ("add_event", "add_sentence"):  # the event just added is not kept: say why
            return _page(state=builder.read_state(before, _limits()), chosen_form=chosen, status=400,
                         builder_error=builder.BuilderError("event", f"this event was not added: {exc.message}"))
        return _page(text=text, state=state, error=exc, status=_status(exc), chosen_form=chosen, state_yaml=text)
    return _page(text=text, state=state, result=result, chosen_form="" if step == "add_event" else chosen,
                 state_yaml=text)


def _step_entered(form) -> str:
    """The step a form sent by the Enter key means: adding what its fields describe (a Methuselah, a minion,
    an event in words, an event of the chosen form), else applying the table's settings."""
    if form.get("player", "").strip():
        return "add_player"
    if form.get("minion", "").strip():
        return "add_minion"
    if form.get("sentence", "").strip():
        return "add_sentence"
    if form.get("event_form") and any(v.strip() for k, v in form.items() if k.startswith("ev_")):
        return "add_event"
    return "table"


def _state_of(text: str) -> Optional[dict]:
    """The builder's state for a scenario's text when it can be read as one (else the builder starts empty)."""
    from judge.engine.errors import ScenarioError
    from judge.web import builder
    if len(text) > builder.BUILDER_CHARACTERS:
        return None
    try:
        state = builder.read_state(text, _limits())
    except ScenarioError:
        return None
    return state if builder.buildable(state) else None


def _shown_scenario(text: str, rules: str = "file"):
    """The page for a scenario given whole (a permalink, an example, the YAML editor): its replay, and the
    builder holding it."""
    from judge.engine.errors import ScenarioError
    try:
        result = _replay(text, _rules_choice(rules))
    except ScenarioError as exc:
        state = _state_of(text)
        return _page(text=text, rules=rules, error=exc, status=_status(exc), state=state,
                     state_yaml=text if state is not None else None)
    state = _state_of(text)  # the builder carries the text as given: it reads any scenario
    return _page(text=text, rules=rules, result=result, state=state, state_yaml=text if state is not None else None)


@check_pages.route("/check", methods=["GET", "POST"], endpoint="page")
def check_page():
    from judge.web import builder
    if request.method == "GET":
        try:
            if request.args.get("s") is not None:
                return _shown_scenario(builder.decode_permalink(request.args["s"], _limits()),
                                       request.args.get("rules", "file"))
            if request.args.get("example"):
                return _shown_scenario(builder.example_text(request.args["example"]))
        except builder.BuilderError as exc:
            status = 414 if isinstance(exc, builder.PermalinkTooLong) else 400
            return _page(error=f"The link's {exc.field}= {exc.message}", status=status)
        except params.BadParameter as exc:
            return _page(error=exc.description, status=400)
        return _page()
    text, rules = "", "file"
    try:
        _read_body()
        if request.mimetype == "application/x-www-form-urlencoded" and request.form.get("do"):
            return _builder_step()
        text = _scenario_text()  # the body first: the form is parsed from what was read
        rules = request.form.get("rules", "file")
        return _shown_scenario(text, rules)
    except HTTPException as exc:
        if exc.code not in (400, 413):
            raise
        return _page(text=text, rules=rules, error=exc.description, status=exc.code)


@check_pages.get("/check/scenario.yaml", endpoint="download")
def check_download():
    """A permalink's scenario as a YAML file to save."""
    from judge.web import builder
    try:
        text = builder.decode_permalink(request.args.get("s", ""), _limits())
    except builder.BuilderError as exc:
        if isinstance(exc, builder.PermalinkTooLong):
            raise RequestURITooLarge(f"s: {exc.message}") from None
        raise BadRequest(f"s: {exc.message}") from None
    return Response(text, mimetype="text/yaml", headers={"Content-Disposition": 'attachment; filename="scenario.yaml"'})


@check_pages.post("/check/scenario.yaml", endpoint="download_posted")
def check_download_posted():
    """A scenario sent with a form (one too long for a permalink) back as a YAML file to save."""
    _read_body()
    text = request.form.get("scenario", "")
    if not text.strip():
        raise params.BadParameter("scenario", "is empty: nothing to download")
    if len(text) > _limits().characters:
        from judge.engine.limits import OverLimit
        raise RequestEntityTooLarge(str(OverLimit("characters", _limits().characters,
                                                  f"the scenario is {len(text):,} characters long")))
    return Response(text, mimetype="text/yaml", headers={"Content-Disposition": 'attachment; filename="scenario.yaml"'})


@check_pages.get("/docs/scenarios", endpoint="format_guide")
def format_guide():
    """The scenario format's guide, docs/scenarios.md, as a page."""
    from markupsafe import Markup

    from judge.web import builder
    path = builder.format_guide()
    if not path.is_file():
        raise NotFound(f"the format guide is not installed here ({path}); it is docs/scenarios.md of judge's source")
    html = _format_guide_html(str(path))
    return render_template("format_guide.html", body=Markup(html))


@lru_cache(maxsize=1)
def _format_guide_html(path: str) -> str:
    import markdown
    text = Path(path).read_text(encoding="utf-8")
    return markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])


@check_pages.get("/docs/scenarios.md", endpoint="format_guide_file")
def format_guide_file():
    return redirect(url_for("check.format_guide"), 301)


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
    cited = {pid for step in result["steps"] + ([result["error"]] if result.get("error") else [])
             for pid in step.get("cites") or ()}
    cite_html = {pid: Markup('<a href="{}">{}</a>').format(site.href(pid), site.label(pid)) for pid in cited}
    # Each paragraph's quoted sentence beside its link, rendered once too (a step shows several).
    quote_html = {}
    for step in result["steps"] + ([result["error"]] if result.get("error") else []):
        for q in step.get("quotes") or ():
            if (q["id"], q["quote"]) not in quote_html:
                quote_html[q["id"], q["quote"]] = Markup('<li><q>{}</q> <span class="meta">{}</span></li>').format(
                    q["quote"], cite_html.get(q["id"]) or q["id"])
    return {"trace": trace, "cite_html": cite_html, "quote_html": quote_html}


@check_pages.get("/api/check", endpoint="api_permalink")
def check_api_permalink():
    """A permalink's replay (`/api/check?s=...`): the same JSON as POSTing the scenario it carries."""
    from judge.web import builder
    try:
        text = builder.decode_permalink(params.text("s", required=True, max_length=10**7), _limits())
    except builder.BuilderError as exc:
        if isinstance(exc, builder.PermalinkTooLong):
            raise RequestURITooLarge(f"s: {exc.message}") from None
        raise BadRequest(f"s: {exc.message}") from None
    return _api_answer(text, _rules_choice(request.args.get("rules", "")))


def _api_answer(text: str, rules: Optional[str]):
    from judge.engine.errors import ScenarioError
    try:
        _, body = _run(text, rules)
    except ScenarioError as exc:
        return _scenario_error_json(exc)
    return Response(body, mimetype="application/json")


def _scenario_error_json(exc):
    """A malformed scenario's or a limit's refusal as /api/check gives it: its words, status and line."""
    from judge.engine.limits import OverLimit
    status = _status(exc)
    error = {"error": exc.message, "status": status, "line": exc.line}
    if isinstance(exc, OverLimit):
        error.update(limit=exc.limit, maximum=exc.maximum)
    return jsonify(error), status


@check_pages.post("/api/check", endpoint="api")
def check_api():
    raw = _read_body()
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        # A form (the /check page's, or curl -F) is not a scenario: say what this route reads.
        raise UnsupportedMediaType(f"this route reads the scenario itself as the body (Content-Type text/yaml or "
                                   f"application/json), not a form ({request.mimetype}); the form goes to /check")
    from judge.engine.errors import ScenarioError
    from judge.engine.yamlfile import decoded
    try:
        text = decoded(raw)
    except ScenarioError as exc:  # the line of the first byte that is not UTF-8
        return _scenario_error_json(exc)
    if not text.strip():
        raise BadRequest("the body is empty: send a scenario (YAML or JSON)")
    return _api_answer(text, _rules_choice(request.args.get("rules", "")))
