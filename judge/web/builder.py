"""The guided scenario builder of /check: a table and its events built step by step, no YAML typed.

The builder's state is the scenario itself, as a mapping, carried from one step to the next in the page's
form (a hidden field holding its YAML): every step is a POST that returns the page with the new state, so
it works with JavaScript off; judge/web/static/builder.js only makes the steps quicker. The events are
offered from the engine's own tables of forms (`judge.engine.vtes.grammar.STRUCTURED`, joined from the
forms modules' `FormTable`s): a form added to the engine appears in the builder without a change here.

A scenario also travels as a permalink (judge/web/permalinks.py), reloading it and its replay for anyone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import yaml

from judge.engine.limits import TEXT_CHARS, Limits

PACKAGE_DIR = Path(__file__).resolve().parent.parent
_CHECKOUT = PACKAGE_DIR.parent
DEFAULT_POOL = 30
# A scenario given whole (pasted, a permalink, an example) is loaded into the builder up to this length; a
# longer one is replayed and kept in the YAML editor (reading it again for the builder would double the
# page's work at the limits; the largest of scenarios/ is ~2,200 characters).
BUILDER_CHARACTERS = 10_000
PHASES = ("unlock", "master", "minion", "influence", "discard")
REGIONS = ("ready", "torpor", "uncontrolled")
MINION_NUMBERS = ("capacity", "blood", "life", "bleed", "strength", "stealth", "intercept")
MINION_TEXTS = ("clan", "sect", "title")
# How the builder names each forms module's events (a module it does not know is shown by its own name).
FORM_GROUPS = {"forms_turn": "The turn and actions", "forms_combat": "Combat and damage",
               "forms_politics": "Politics", "forms_torpor": "Torpor and diablerie"}
# The event fields that name a card (their suggestions are the library's names, not the table's).
CARD_KEYS = ("card", "source", "via", "with", "equip", "employ", "recruit", "equipment")
COST_PARTS = ("blood", "pool")
TOP_KEYS = ("title", "source", "game", "rules", "players", "turn", "phase", "turn_number", "edge", "pool", "vp")


class BuilderError(ValueError):
    """A step of the builder that cannot be taken: says what, in the visitor's words (`field` names the
    form's field)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field, self.message = field, message


# -- where the examples and the format guide are ----------------------------------------------------------
def _shipped(name: str) -> Path:
    """A folder or file shipped beside the package: the checkout's, or the wheel's copy (judge/_bundled/)."""
    checkout = _CHECKOUT / name
    return checkout if (_CHECKOUT / "pyproject.toml").is_file() and checkout.exists() else PACKAGE_DIR / "_bundled" / name


def scenarios_dir() -> Path:
    return _shipped("scenarios")


def format_guide() -> Path:
    return _shipped("docs") / "scenarios.md"


@lru_cache(maxsize=1)
def examples() -> dict[str, list[tuple[str, str]]]:
    """Every scenario of scenarios/, by folder: {folder: [(path under scenarios/, title), ...]}."""
    root = scenarios_dir()
    groups: dict[str, list[tuple[str, str]]] = {}
    if not root.is_dir():
        return groups
    for path in sorted(root.rglob("*.yaml")):
        rel = path.relative_to(root).as_posix()
        title = ""
        for line in path.read_text(encoding="utf-8").splitlines()[:5]:
            m = re.match(r"title:\s*(.+)", line)
            if m:
                title = m.group(1).strip().strip("\"'")
                break
        groups.setdefault(rel.rsplit("/", 1)[0] if "/" in rel else "", []).append((rel, title or path.stem))
    return groups


def example_text(rel: str) -> str:
    """The text of the example `rel` (a path under scenarios/ as `examples()` lists it); BuilderError for any
    other name, so that no other file can be read through it."""
    known = {path for group in examples().values() for path, _ in group}
    if rel not in known:
        raise BuilderError("example", f"no example {rel[:80]!r} in scenarios/ (choose one of the list)")
    return (scenarios_dir() / rel).read_text(encoding="utf-8")


# -- permalinks ----------------------------------------------------------------------------------------
# -- the state -----------------------------------------------------------------------------------------
def new_state() -> dict:
    return {"rules": "current", "players": [], "turn": None, "phase": "minion", "minions": [], "events": []}


def read_state(text: str, limits: Limits) -> dict:
    """The builder's state from its YAML (the hidden field, a permalink, an example), read by the engine's own
    guarded reader (no aliases, tags or deep nesting; within the limits); ScenarioError if it is not one."""
    from judge.engine.errors import ScenarioError
    from judge.engine.yamlfile import read_yaml
    if len(text) > limits.characters:
        from judge.engine.limits import OverLimit
        raise OverLimit("characters", limits.characters, f"the scenario is {len(text):,} characters long")
    data, _ = read_yaml(text, limits)
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping with players, turn, phase and events", 1)
    return data


def a_list(state: dict, key: str, kind=None) -> bool:
    """Is `state[key]` absent, or a list (of `kind`, when given)? What the builder can show of a table's part."""
    value = state.get(key)
    return value is None or (isinstance(value, list) and (kind is None or all(isinstance(v, kind) for v in value)))


def buildable(state: dict) -> bool:
    """Whether the builder can show and extend this scenario: its players a list of names, its minions a list
    of mappings, its events a list, its pool and VP mappings (a malformed file stays in the YAML editor)."""
    return (a_list(state, "players", (str, int)) and a_list(state, "minions", dict) and a_list(state, "events")
            and all(state.get(k) is None or isinstance(state.get(k), dict) for k in ("pool", "vp"))
            and state.get("game", "vtes") == "vtes")


def dump(state: dict, top_keys: tuple = TOP_KEYS, lists: tuple = ("minions", "events")) -> str:
    """The state as the scenario's YAML: the table's keys first (`top_keys`), then its lists (the minions, the
    events) and the rest. The Rivals table gives its own (judge/web/builder_rivals.py)."""
    ordered = {k: state[k] for k in top_keys if state.get(k) not in (None, [], {})}
    for key in lists:
        if state.get(key):
            ordered[key] = state[key]
    ordered.update({k: v for k, v in state.items() if k not in ordered and k not in lists and v is not None})
    return yaml.dump(ordered, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's when PyYAML has it: ten times quicker


def players(state: dict) -> list[str]:
    value = state.get("players")
    return [str(p) for p in value] if isinstance(value, list) else []


def minion_names(state: dict) -> list[str]:
    value = state.get("minions")
    return [str(m["name"]) for m in value if isinstance(m, dict) and "name" in m] if isinstance(value, list) else []


def _mapping(state: dict, key: str) -> dict:
    value = state.get(key)
    if not isinstance(value, dict):
        value = {}
        state[key] = value
    return value


def _list(state: dict, key: str) -> list:
    value = state.get(key)
    if not isinstance(value, list):
        value = []
        state[key] = value
    return value


def _number(field: str, raw: str, default: Optional[int] = None) -> Optional[int]:
    raw = (raw or "").strip()
    if not raw:
        return default
    if not re.fullmatch(r"-?\d{1,4}", raw):
        raise BuilderError(field, f"expected a whole number, got {raw[:40]!r}")
    return int(raw)


def _name(field: str, raw: str) -> str:
    name = " ".join((raw or "").split())
    if not name:
        raise BuilderError(field, "give a name")
    if len(name) > 100:
        raise BuilderError(field, "a name is at most 100 characters")
    return name


def new_name(field: str, raw: str, taken: list) -> str:
    """The name typed in `field`, refused when someone or something at the table (`taken`) already has it."""
    name = _name(field, raw)
    if name.lower() in {str(n).lower() for n in taken}:
        raise BuilderError(field, f"the name {name!r} is already at the table")
    return name


def new_names(field: str, raw: str, taken: list) -> list[str]:
    """One name or several at once, in order ("Sarah, Alexis": players are seated so), each a `new_name`."""
    out: list[str] = []
    for item in [n for n in (raw or "").split(",") if n.strip()] or [""]:
        out.append(new_name(field, item, list(taken) + out))
    return out


def set_table(state: dict, form) -> None:
    """The edition, whose turn, the phase and the Edge, as the table's fields say (each when given)."""
    if form.get("rules") in ("current", "older"):
        state["rules"] = form["rules"]
    seated = players(state)
    if form.get("turn") in seated:
        state["turn"] = form["turn"]
    if form.get("phase") in PHASES:
        state["phase"] = form["phase"]
    if "edge" in form:
        edge = form.get("edge")
        if edge in seated:
            state["edge"] = edge
        else:
            state.pop("edge", None)
    if seated and state.get("turn") not in seated:
        state["turn"] = seated[0]


def add_player(state: dict, form) -> None:
    """A Methuselah, or several in seat order at once ("Sarah, Alexis"): the pool, VP and Edge fields apply to
    the first."""
    names = new_names("player", form.get("player", ""), players(state) + minion_names(state))
    pool = _number("player_pool", form.get("player_pool", ""), DEFAULT_POOL)
    vp = _number("player_vp", form.get("player_vp", ""), 0)
    _list(state, "players").extend(names)
    name = names[0]
    if pool != DEFAULT_POOL:
        _mapping(state, "pool")[name] = pool
    if vp:
        _mapping(state, "vp")[name] = vp
    if form.get("player_edge"):
        state["edge"] = name
    if not state.get("turn"):
        state["turn"] = name


def remove_player(state: dict, index: int) -> None:
    seated = players(state)
    if not 0 <= index < len(seated):
        raise BuilderError("players", "no such Methuselah to remove")
    name = seated[index]
    state["players"] = seated[:index] + seated[index + 1:]
    for key in ("pool", "vp"):
        if isinstance(state.get(key), dict):
            state[key].pop(name, None)
    if state.get("edge") == name:
        state.pop("edge")
    if state.get("turn") == name:
        state["turn"] = state["players"][0] if state["players"] else None


def add_minion(state: dict, form, crypt_card=None) -> None:
    """A minion from the minion fields; `crypt_card` looks a name up in the card list (a vampire's capacity,
    clan, sect and disciplines then come from its card where the fields leave them blank)."""
    name = new_name("minion", form.get("minion", ""), players(state) + minion_names(state))
    controller = form.get("controller", "")
    if controller not in players(state):
        raise BuilderError("controller", "choose the Methuselah who controls it (add the Methuselahs first)")
    minion: dict[str, Any] = {"name": name, "controller": controller}
    kind = form.get("minion_type") or "vampire"
    if kind == "ally":
        minion["type"] = "ally"
    card = crypt_card(name) if crypt_card is not None and kind == "vampire" else None
    if card is not None and card.name != name:  # "Lodin": the card is Lodin (Olaf Holte), the table says Lodin
        typed = _number("minion_capacity", form.get("minion_capacity", ""))
        if typed is not None and str(typed) != str(getattr(card, "capacity", "")):
            card = None  # a vampire of the table's own (the rulebook's Carna), not the card its name begins
        else:
            minion["card"] = card.name
    for key in MINION_NUMBERS:
        value = _number(f"minion_{key}", form.get(f"minion_{key}", ""))
        if value is None and key == "capacity" and kind == "vampire":
            capacity = getattr(card, "capacity", None)
            if capacity and str(capacity).isdigit():
                value = int(capacity)
            else:
                raise BuilderError("minion_capacity", "a vampire needs its capacity (or pick a vampire of the "
                                                      "card list)")
        if value is not None:
            minion[key] = value
    for key in MINION_TEXTS:
        value = " ".join(form.get(f"minion_{key}", "").split())
        if not value and card is not None and key == "clan" and card.clans:
            value = card.clans[0]
        if not value and card is not None and key == "sect" and card.sect:
            value = card.sect
        if value:
            minion[key] = value
    disciplines = [d for d in re.split(r"[,\s]+", form.get("minion_disciplines", "")) if d]
    if not disciplines and card is not None and getattr(card, "disciplines", None):
        disciplines = [_discipline_code(d) for d in card.disciplines]
    if disciplines:
        minion["disciplines"] = disciplines
    region = form.get("minion_region") or "ready"
    if region != "ready" and region in REGIONS:
        minion["region"] = region
    if form.get("minion_locked"):
        minion["locked"] = True
    _list(state, "minions").append(minion)


def _discipline_code(discipline) -> str:
    """A vampire's discipline as scenarios write it: the card's code, upper case at superior level ("POT")."""
    code = getattr(discipline, "code", None) or str(discipline)
    return code.upper() if getattr(discipline, "level", None) == "superior" else code.lower()


def remove_item(state: dict, key: str, index: int) -> None:
    items = state.get(key)
    if not isinstance(items, list) or not 0 <= index < len(items):
        raise BuilderError(key, f"no such item of {key} to remove")
    del items[index]


# -- the events, from the engine's forms ---------------------------------------------------------------
@dataclass(frozen=True)
class EventForm:
    """An event form as the builder offers it: its key, its group, the keys it takes, its example, and the
    example's value of each key (shown as the field's hint)."""

    key: str
    group: str
    allowed: tuple[str, ...]
    example: str
    hints: dict

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.key,) + self.allowed

    @property
    def example_words(self) -> str:
        """The example in words, as the builder lists events ("bleed Belinde, target Alexis")."""
        return event_words(self.hints) if self.hints else self.example

    def parts(self, key: str) -> tuple[str, ...]:
        """The parts of a field whose value is a small mapping, each a field of its own so that nothing is
        typed in braces: a cost's blood and pool; the keys of a mapping of numbers in the example."""
        if key == "cost":
            return COST_PARTS
        hint = self.hints.get(key)
        if isinstance(hint, dict) and hint and all(isinstance(v, (int, str)) for v in hint.values()):
            return tuple(str(k) for k in hint)
        return ()


@lru_cache(maxsize=1)
def event_forms() -> tuple[EventForm, ...]:
    """Every structured form of the engine (grammar.STRUCTURED), grouped by the forms module declaring it."""
    from judge.engine.vtes import grammar
    out = []
    for key, form in grammar.STRUCTURED.items():
        module = getattr(form.build, "__module__", "").rsplit(".", 1)[-1]
        try:
            hints = yaml.safe_load(form.example)
        except yaml.YAMLError:
            hints = None
        out.append(EventForm(key, FORM_GROUPS.get(module, module.replace("forms_", "").replace("_", " ")),
                             tuple(form.allowed), form.example, hints if isinstance(hints, dict) else {}))
    return tuple(out)


def event_form(key: str) -> Optional[EventForm]:
    return next((f for f in event_forms() if f.key == key), None)


# A field of the builder's forms holds one value of an event (a name, a number, a short list or mapping): longer
# than this it is refused before anything reads it (judge.web.tools, for every field of a step). A text value of a
# scenario is at most TEXT_CHARS characters.
FIELD_CHARS = 2 * TEXT_CHARS


def field_value(field: str, raw: str, limits: Limits) -> Any:
    """A field of an event form (at most FIELD_CHARS long) as the scenario writes it: a whole number,
    true/false, a {mapping} or [list] (read by the engine's guarded reader, as a scenario is: e.g. `{blood: 1}`),
    or else the text as typed (a name stays a name, even "yes"). BuilderError naming `field` for a value that
    cannot be read."""
    from judge.engine.errors import ScenarioError
    from judge.engine.yamlfile import read_value
    raw = " ".join(raw.split())
    if re.fullmatch(r"-?\d{1,4}", raw):
        return int(raw)
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    if raw[:1] in "{[":
        try:
            value = read_value(raw, limits)
        except ScenarioError as exc:
            raise BuilderError(field, f"cannot read {raw[:60]!r}: {exc.message}") from None
        if isinstance(value, (dict, list)):
            return value
    return raw


def add_event(state: dict, form, limits: Limits, forms=None) -> None:
    """The event the chosen form's fields describe, appended to the events; each field read under `limits`.
    `forms` looks a form up by its key (the game's: V:TES's `event_form` unless given)."""
    chosen = (forms or event_form)(form.get("event_form", ""))
    if chosen is None:
        raise BuilderError("event_form", "choose the kind of event first")
    event: dict[str, Any] = {}
    for key in chosen.fields:
        parts = {part: field_value(f"ev_{key}.{part}", form.get(f"ev_{key}.{part}", ""), limits)
                 for part in chosen.parts(key) if form.get(f"ev_{key}.{part}", "").strip()}
        raw = form.get(f"ev_{key}", "")
        if parts:
            event[key] = parts
        elif raw.strip():
            event[key] = field_value(f"ev_{key}", raw, limits)
    if chosen.key not in event:
        raise BuilderError(f"ev_{chosen.key}", f"a {chosen.key!r} event needs its {chosen.key!r} (e.g. "
                                               f"{chosen.example})")
    _list(state, "events").append(event)


def add_sentence(state: dict, form) -> None:
    raw = form.get("sentence", "")
    if len(raw) > TEXT_CHARS:
        raise BuilderError("sentence", f"is {len(raw):,} characters long; an event's sentence is at most "
                                       f"{TEXT_CHARS:,}")
    sentence = " ".join(raw.split())
    if not sentence:
        raise BuilderError("sentence", "write the event, e.g. “Belinde bleeds Alexis”")
    _list(state, "events").append(sentence)


# -- the table's words ------------------------------------------------------------------------------------------
def resolve_table_name(names: list[str], typed: str) -> str:
    """A name as the table spells it when `typed` is one in any case, or the start of exactly one ("Bel" for
    Belinde); else `typed` as it is (the engine then says what it knows)."""
    t = " ".join(str(typed).split())
    low = t.lower()
    if not low:
        return t
    exact = [n for n in names if n.lower() == low]
    if exact:
        return exact[0]
    starting = [n for n in names if n.lower().startswith(low)]
    return starting[0] if len(starting) == 1 else t


def event_words(event: Any) -> str:
    """An event as the builder lists it before its replay reaches it: a sentence as written; a structured event
    as its form and values in words ("bleed Belinde, target Alexis, amount 1"), never in braces."""
    if isinstance(event, str):
        return event
    if not isinstance(event, dict) or not event:
        return str(event)

    def words(value: Any) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{k} {words(v)}" for k, v in value.items())
        if isinstance(value, list):
            return ", ".join(words(v) for v in value)
        if value is True:
            return ""
        return str(value)
    (key, head), *rest = event.items()
    out = f"{str(key).replace('_', ' ')} {words(head)}".strip()
    more = ", ".join(f"{str(k).replace('_', ' ')} {words(v)}".strip() for k, v in rest if k != "text")
    return f"{out}, {more}" if more else out


_SLOT_GROUPS = {"{P}": "p", "{P2}": "p2", "{M}": "m", "{M2}": "m2"}


@lru_cache(maxsize=1)
def _wording_shapes() -> tuple[tuple[re.Pattern, str], ...]:
    """Each sentence form of the engine (grammar.WORDING) as a pattern matching its own documented example, with
    the example: where the example names a player or a minion, the table's names can stand instead."""
    from judge.engine.vtes import grammar
    shapes = []
    for pattern in grammar.WORDING:
        rx = pattern.template.replace("{N}", rf"(?P<n>{grammar.NUM})").replace("{PRON}", grammar.PRON)
        for slot, group in _SLOT_GROUPS.items():
            rx = rx.replace(slot, rf"(?:the )?(?P<{group}>[A-Z][^,;:]*?)")
        try:
            compiled = re.compile(rx, re.IGNORECASE)
        except re.error:
            continue
        if compiled.fullmatch(pattern.example.rstrip(".")):
            shapes.append((compiled, pattern.example.rstrip(".")))
    return tuple(shapes)


def suggestions(state: dict, limit: int = 30) -> list[str]:
    """Sentences the engine reads, in the table's names: each of its sentence forms' examples with the table's
    minions and players in place of the example's (a minion of the player whose turn it is, their prey), kept
    only when the engine reads the result at this table."""
    from judge.engine.vtes import grammar
    from judge.engine.errors import ScenarioError
    from judge.engine.vtes.forms import Names
    seats, minions = players(state), [m for m in minion_names(state)]
    if not seats or not minions:
        return []
    turn = state.get("turn") if state.get("turn") in seats else seats[0]
    controllers = {m.get("name"): m.get("controller") for m in state.get("minions") or () if isinstance(m, dict)}
    acting = next((m for m in minions if controllers.get(m) == turn), minions[0])
    prey = seats[(seats.index(turn) + 1) % len(seats)] if len(seats) > 1 else turn
    other = next((m for m in minions if controllers.get(m) == prey), next((m for m in minions if m != acting), acting))
    fill = {"m": acting, "m2": other, "p": prey, "p2": turn}
    names = Names(seats, minions)
    out: list[str] = []
    for compiled, example in _wording_shapes():
        m = compiled.fullmatch(example)
        text, cursor = [], 0
        for group in sorted((g for g in fill if m.groupdict().get(g)), key=m.start):
            before = example[cursor:m.start(group)]
            text += [before[:-4] if before.endswith("The ") else before, fill[group]]
            cursor = m.end(group)
        sentence = "".join(text) + example[cursor:]
        if sentence in out:
            continue
        try:
            grammar.parse_wording(sentence, names, 0)
        except ScenarioError:
            continue
        out.append(sentence)
    # The acting minion's sentences first (what a table most often describes), in the engine's order.
    return sorted(out, key=lambda s: acting not in s)[:limit]
