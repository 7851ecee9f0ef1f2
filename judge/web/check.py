"""The scenario check (judge/engine/) and its guided builder (judge/web/builder.py): /check and /api/check,
under the same limits as `judge check` (judge/engine/limits.py): 400 for a malformed scenario, 413 for a body or a
scenario too long, 422 for a scenario over another limit, each naming what and where.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import (BadRequest, HTTPException, NotFound, RequestEntityTooLarge, RequestURITooLarge,
                                 UnsupportedMediaType)

import judge.web.params as params
from judge.web import permalinks
from judge.web.bodies import BodyTooLarge, limits as _limits, read_body as _read_body
from judge.web.site import current_site

check_pages = Blueprint("check", __name__)

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


_FIELD_WORDS = {"bp": "Blood Potency", "vp": "VP", "ev": "", "minion": "minion", "player": "Methuselah or player",
                "mortal": "Mortal", "conspiracy": "Conspiracy", "required": "Prestige required", "do": "step"}


@check_pages.app_template_filter("field_label")
def field_label(field: str) -> str:
    """A builder field's name as its label says it: "vampire_bp" -> "Vampire: Blood Potency", "ev_target" ->
    "Target"."""
    parts = [_FIELD_WORDS.get(p, p) for p in str(field).replace(".", "_").split("_")]
    parts = [p for p in parts if p]
    words = (parts[0] + (": " + " ".join(parts[1:]) if len(parts) > 1 else "")) if parts else str(field)
    return words[:1].upper() + words[1:]


@check_pages.app_template_filter("stop_message")
def stop_message(message: str) -> str:
    """The stop's message without the "refused: " the heading above it already says."""
    return message.removeprefix("refused: ")


def _editions() -> dict[str, str]:
    """The rules editions a replay can follow, of either game (V:TES: current, older; Rivals: rivals)."""
    from judge.engine import citations
    return dict(citations.EDITION_NAMES)


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


def _api_rules_choice() -> str | None:
    """The API's `rules=`: as the page's, but given empty it is refused (params.refuse_empty)."""
    params.refuse_empty("rules", f"an edition ({', '.join(_editions())})")
    return _rules_choice(request.args.get("rules", ""))


def _status(exc) -> int:
    """400 for a malformed scenario; 413 for one over the character limit; 422 for one over another limit."""
    from judge.engine.limits import OverLimit
    if not isinstance(exc, OverLimit):
        return 400
    return 413 if exc.limit == "characters" else 422


def _page(text: str = "", rules: str = "file", result: Optional[dict] = None, error=None, status: int = 200,
          state: Optional[dict] = None, builder_error=None, chosen_form: str = "", state_yaml: Optional[str] = None,
          game: str = "", built: bool = False):
    """The /check page: the builder of the scenario's game (its state, the event form chosen; `state_yaml` is its
    YAML when already written), the raw YAML editor, and the replay of `text` with its permalink when there is
    one. An error of a scenario the builder made (`built`) names the event it is in, never a line of the YAML the
    player never saw."""
    from judge.web import builder, builder_rivals
    if state is None:
        state = builder_rivals.new_state() if game == builder_rivals.GAME else builder.new_state()
    rivals = builder_rivals.is_rivals(state)
    table = builder_rivals if rivals else builder
    state_yaml = state_yaml if state_yaml is not None else table.dump(state)
    yaml_text = text if text.strip() else (state_yaml if table.players(state) else "")
    linked = bool(yaml_text.strip()) and permalinks.permalink_fits(yaml_text)
    groups: dict[str, list] = {}
    for form in table.event_forms():
        groups.setdefault(form.group, []).append(form)
    events = state.get("events") or []
    view = dict(editions=_editions(), text=text, rules=rules, result=result, error=error, status=status,
                state=state, state_yaml=state_yaml, yaml_text=yaml_text, game="rivals" if rivals else "vtes",
                # The builder lists the scenario's events: a stop names its event there, not a line of YAML.
                in_builder=built or bool(table.players(state) and events),
                players=table.players(state),
                minions=builder_rivals.names(state) if rivals else builder.minion_names(state),
                phases=builder.PHASES, regions=builder.REGIONS, form_groups=groups,
                rivals_players=builder_rivals.player_rows(state) if rivals else [],
                rivals_phases=builder_rivals.PHASES, rivals_locations=builder_rivals.LOCATIONS,
                rivals_mortal_kinds=builder_rivals.MORTAL_KINDS,
                chosen=table.event_form(chosen_form), builder_error=builder_error,
                examples=builder.examples(),
                link=permalinks.permalink(yaml_text) if linked else None,
                too_long_for_link=bool(yaml_text.strip()) and not linked,
                card_names=_card_names(), card_keys=table.CARD_KEYS,
                builder_assets=_builder_assets(),
                event_sentences=_event_sentences(events, result),
                suggestions=_rivals_suggestions(state) if rivals else builder.suggestions(state))
    if built and error is not None and getattr(error, "line", None):
        view["error_event"] = _event_at_line(state_yaml, error.line)
    if result:
        view.update(_trace_view(result))
        view["trace_numbers"] = [event.n for event in view["trace"]]
    return render_template("check.html", **view), status


def _event_sentences(events: list, result: Optional[dict]) -> list[str]:
    """Each event of the builder's list in words: a sentence as written; a structured event as the replay's first
    words about it (the engine's own sentence), cut at its first full stop; an event the replay did not reach in
    its form's words."""
    from judge.web import builder
    said: dict[int, str] = {}
    for step in (result or {}).get("steps") or ():
        said.setdefault(step["n"], step["text"])
    out = []
    for n, event in enumerate(events, 1):
        text = said.get(n)
        if isinstance(event, str) or not text:
            out.append(builder.event_words(event))
            continue
        text = text.removeprefix("Announced: ")
        first = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0].rstrip(".;")
        out.append(first if len(first) <= 160 else first[:159].rstrip() + "…")
    return out


def _event_at_line(yaml_text: str, line: int) -> Optional[dict]:
    """Where a line of the builder's YAML is, in the builder's words: {"event": n, "text": ...} for a line of
    its events, {"part": "players" | "minions" | ...} for a line of the table."""
    lines = yaml_text.splitlines()
    part, event = None, 0
    for n, row in enumerate(lines[:max(0, line)], 1):
        if row and not row.startswith((" ", "-")):
            part, event = row.split(":", 1)[0], 0
        elif part == "events" and row.startswith(("- ", "  - ")):
            event += 1
        if n == line:
            break
    if part == "events" and event:
        return {"event": event}
    return {"part": part} if part else None


def _rivals_suggestions(state: dict) -> list[str]:
    """Rivals sentences the engine reads, in the table's names (judge.engine.rivals.scenario.SENTENCES)."""
    from judge.engine.errors import ScenarioError
    from judge.engine.rivals.scenario import parse_sentence
    from judge.web import builder_rivals
    seats = builder_rivals.players(state)
    if not seats:
        return []
    turn = state.get("turn") if state.get("turn") in seats else seats[0]
    named = [v for v in state.get("vampires") or () if isinstance(v, dict) and v.get("name")]
    mine = next((str(v["name"]) for v in named if v.get("controller") == turn), None)
    theirs = next((str(v["name"]) for v in named if v.get("controller") != turn), None)
    shapes = ["{v} moves to the streets", "{p} draws 1 card", "{p} draws 1 card from the faction deck",
              "{w} blocks", "{w} exhausts to block", "{v} claims the Prince", "{v} mends", "{p} passes",
              "nobody reacts", "{p} ends their turn", "action phase", "end phase", "{q}'s turn"]
    nxt = seats[(seats.index(turn) + 1) % len(seats)]
    out = []
    for shape in shapes:
        if ("{v}" in shape and not mine) or ("{w}" in shape and not theirs):
            continue
        sentence = shape.format(v=mine, w=theirs, p=turn, q=nxt)
        try:
            parse_sentence(sentence)
        except ScenarioError:
            continue
        out.append(sentence)
    return out


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
    """The crypt card a minion's name names: the card's name, or that name without its title, or its unique
    start ("Lodin" is Lodin (Olaf Holte))."""
    full = _card_named(name)
    try:
        card = current_site().cards.card(full) if full else None
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
    form = request.form.copy()  # the event fields' names are resolved in place (_resolve_names)
    step = form.get("do", "")
    step, _, index = step.partition(":")
    chosen = form.get("event_form", "")
    if step == "enter":  # Enter pressed in a field: the step whose field was filled in
        step = _step_entered(form)
    from judge.web import builder_rivals
    game = form.get("game", "")
    fresh = builder_rivals.new_state() if game == builder_rivals.GAME else builder.new_state()
    try:
        state = builder.read_state(form.get("state", "") or builder.dump(fresh), _limits())
    except ScenarioError as exc:
        return _page(error=exc, status=_status(exc), builder_error=builder.BuilderError("state", exc.message),
                     game=game)
    rivals = builder_rivals.is_rivals(state)
    table = builder_rivals if rivals else builder
    if not table.buildable(state):
        return _page(status=400, game=game, builder_error=builder.BuilderError(
            "state", "the builder's state is not a scenario it can extend; start again"))
    # Every field but the state (a whole scenario, read under the scenario's limits) holds one name, number or
    # short value: one longer is refused before any of it is read.
    for key, value in form.items(multi=True):
        if key != "state" and len(value) > builder.FIELD_CHARS:
            return _page(state=state, status=400, builder_error=builder.BuilderError(
                key[:40], f"the field {key[:40]!r} is {len(value):,} characters long; a field of the builder holds "
                          f"at most {builder.FIELD_CHARS:,}"))
    before = table.dump(state)
    try:
        table.set_table(state, form)
        _resolve_names(state, form, table)
        if step == "add_player":
            (builder_rivals.add_players if rivals else builder.add_player)(state, form)
        elif step == "remove_player":
            table.remove_player(state, int(index or -1))
        elif step == "add_minion" and not rivals:
            builder.add_minion(state, form, _crypt_card)
        elif step == "add_vampire" and rivals:
            builder_rivals.add_vampire(state, form)
        elif step == "add_mortal" and rivals:
            builder_rivals.add_mortal(state, form)
        elif step == "add_conspiracy" and rivals:
            builder_rivals.add_conspiracy(state, form)
        elif step in ("remove_minion", "remove_vampire", "remove_mortal", "remove_conspiracy", "remove_event"):
            key = {"remove_minion": "minions", "remove_vampire": "vampires", "remove_mortal": "mortals",
                   "remove_conspiracy": "conspiracies", "remove_event": "events"}[step]
            builder.remove_item(state, key, int(index or -1))
        elif step == "add_event":
            builder.add_event(state, form, _limits(), table.event_form)
        elif step == "add_sentence":
            builder.add_sentence(state, form)
        elif step == "new":
            state = builder_rivals.new_state() if rivals else builder.new_state()
        elif step not in ("table", "choose_form"):
            raise builder.BuilderError("do", f"unknown step {step[:40]!r}")
    except builder.BuilderError as exc:
        return _page(state=builder.read_state(before, _limits()), builder_error=exc, status=400,
                     chosen_form=chosen)
    except ValueError:
        return _page(state=state, builder_error=builder.BuilderError("do", "no such item to remove"), status=400,
                     chosen_form=chosen)
    text = table.dump(state)
    if not (table.players(state) and state.get("events")):
        return _page(state=state, chosen_form=chosen)
    try:
        result = _replay(text, None)
    except ScenarioError as exc:
        if step in ("add_event", "add_sentence"):  # the event just added is not kept: say why
            where = "sentence" if step == "add_sentence" else "event_form"
            return _page(state=builder.read_state(before, _limits()), chosen_form=chosen, status=400,
                         builder_error=builder.BuilderError(where, f"this event was not added: {exc.message}"))
        return _page(text=text, state=state, error=exc, status=_status(exc), chosen_form=chosen, state_yaml=text,
                     built=True)
    return _page(text=text, state=state, result=result, chosen_form="" if step == "add_event" else chosen,
                 state_yaml=text, built=True)


def _resolve_names(state: dict, form, table) -> None:
    """The names typed in the event fields as the table spells them: a player's, a minion's or a Mortal's name
    in any case or its unique start ("bel" -> Belinde); a card field's card by its name without its title or its
    unique start (judge.cards: "Govern" -> Govern the Unaligned)."""
    from judge.web import builder, builder_rivals
    names = table.players(state) + (builder.minion_names(state) if table is builder else builder_rivals.names(state))
    card_keys = table.CARD_KEYS
    chosen = table.event_form(form.get("event_form", ""))
    if chosen is None:
        return
    for key in chosen.fields:
        field = f"ev_{key}"
        raw = form.get(field, "")
        if not raw.strip() or chosen.parts(key):
            continue
        if key in card_keys:
            found = _card_named(raw)
            if found:
                form[field] = found
        else:
            form[field] = builder.resolve_table_name(names, raw)


def _card_named(typed: str) -> Optional[str]:
    """The card list's name for what was typed: the name itself, the name without its title ("Lodin" for "Lodin
    (Olaf Holte)", "Smiling Jack" for "Smiling Jack, The Anarch") or the unique start of one; None otherwise."""
    try:
        base = current_site().cards
    except Exception:  # noqa: BLE001 - no card list: names are taken as typed
        return None
    exact = base.card(typed)
    if exact is not None:
        return exact.name
    low = " ".join(typed.split()).casefold()
    found = {m.card.name for m in base.find(typed, limit=20) if m.how == "partial"
             and (m.card.name.casefold().startswith(low)
                  or re.split(r"\s*[(,]", m.card.name, maxsplit=1)[0].casefold() == low)}
    untitled = {n for n in found if re.split(r"\s*[(,]", n, maxsplit=1)[0].casefold() == low}
    chosen = untitled if len(untitled) == 1 else found
    return next(iter(chosen)) if len(chosen) == 1 else None


def _step_entered(form) -> str:
    """The step a form sent by the Enter key means: adding what its fields describe (a Methuselah, a minion,
    an event in words, an event of the chosen form), else applying the table's settings."""
    if form.get("player", "").strip():
        return "add_player"
    if form.get("minion", "").strip():
        return "add_minion"
    for part in ("vampire", "mortal", "conspiracy"):
        if form.get(part, "").strip():
            return f"add_{part}"
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
    from judge.web import builder_rivals
    try:
        state = builder.read_state(text, _limits())
    except ScenarioError:
        return None
    table = builder_rivals if builder_rivals.is_rivals(state) else builder
    return state if table.buildable(state) else None


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
                return _shown_scenario(permalinks.decode_permalink(request.args["s"], _limits()),
                                       request.args.get("rules", "file"))
            if request.args.get("example"):
                return _shown_scenario(builder.example_text(request.args["example"]))
        except builder.BuilderError as exc:
            status = 414 if isinstance(exc, permalinks.PermalinkTooLong) else 400
            return _page(error=f"The link's {exc.field}= {exc.message}", status=status)
        except params.BadParameter as exc:
            return _page(error=exc.description, status=400)
        return _page(game=params.one_of("game", ["vtes", "rivals"]) or "")
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
        text = permalinks.decode_permalink(request.args.get("s", ""), _limits())
    except builder.BuilderError as exc:
        if isinstance(exc, permalinks.PermalinkTooLong):
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
    rules = _api_rules_choice()
    try:
        text = permalinks.decode_permalink(params.text("s", required=True, max_length=10**7), _limits())
    except builder.BuilderError as exc:
        if isinstance(exc, permalinks.PermalinkTooLong):
            raise RequestURITooLarge(f"s: {exc.message}") from None
        raise BadRequest(f"s: {exc.message}") from None
    return _api_answer(text, rules)


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
    return _api_answer(text, _api_rules_choice())
