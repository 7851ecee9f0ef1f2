"""Scenario files: load (with the line of everything), validate, replay, check expectations.

A scenario is YAML: the table (`players`, `turn`, `phase`, pools, the Edge,
`minions`), a list of `events`, and an optional `expect:` block (paths into
the final state, or an expected refusal), so a scenario is also a test. The
JSON Schema is judge/engine/scenario.schema.json; docs/scenarios.md is the
reference. Any malformed part is reported as a `ScenarioError` naming the
line and what was expected there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import yaml

from judge.engine import citations as R
from judge.engine import core
from judge.engine import actions as _actions  # noqa: F401 - registers the handlers
from judge.engine import phases as _phases  # noqa: F401
from judge.engine.citations import Rule
from judge.engine.errors import EngineStop, ScenarioError
from judge.engine.events import Event, Names, parse_structured, parse_wording
from judge.engine.phases import transfers_for
from judge.engine.state import (ALLY, DEFAULT_HAND_SIZE, DEFAULT_POOL, READY, UNCONTROLLED, VAMPIRE, GameState, Minion,
                                PhaseState, Player, Retainer, state_to_json)

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
EXPECT_STOPS = ("refused", "not_modelled")
PLAYER_KEYS = ("pool", "vp", "hand", "hand_size", "library", "crypt", "ousted", "withdrawn", "withdrawing",
               "prey", "predator")
MINION_KEYS = ("blood", "life", "capacity", "region", "locked", "controller", "sect", "title", "equipment",
               "retainers", "clan", "anarch", "type", "strength", "bleed", "contested", "recruited",
               "title_contested", "infernal", "disciplines", "traits", "votes")
PHASE_KEYS = ("transfers", "master_actions", "discard_actions", "edge_pool_taken")
RESULT_KEYS = ("winner", "over", "tied")


# -- YAML with lines ------------------------------------------------------------------------
class Lines:
    """The source line of every value in the document, by its path."""

    def __init__(self):
        self.by_path: dict[tuple, int] = {}
        self.key_lines: dict[tuple, int] = {}

    def of(self, path: tuple) -> Optional[int]:
        path = tuple(path)
        while path:
            if path in self.by_path:
                return self.by_path[path]
            path = path[:-1]
        return self.by_path.get((), None)


def _record_lines(node: yaml.Node, path: tuple, lines: Lines) -> None:
    lines.by_path[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                raise ScenarioError(f"duplicate key {key!r} (first on line {seen[key]})", key_node.start_mark.line + 1)
            seen[key] = key_node.start_mark.line + 1
            lines.key_lines[path + (key,)] = key_node.start_mark.line + 1
            _record_lines(value_node, path + (key,), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _record_lines(item, path + (i,), lines)


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(text: str) -> tuple[Any, Lines]:
    lines = Lines()
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError("the scenario is empty; expected a mapping with players, turn, phase and events", 1)
        _record_lines(node, (), lines)
        data = loader.construct_document(node)  # from the same nodes: the text is parsed once
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ScenarioError(f"not valid YAML: {exc.problem or exc.context}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return data, lines


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def validate(data: Any, lines: Lines) -> None:
    import jsonschema

    errors = list(_validator().iter_errors(data))
    if not errors:
        return
    err = jsonschema.exceptions.best_match(errors)
    path = tuple(err.absolute_path)
    line = lines.of(path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
        if extra:  # point at the unexpected key itself
            line = lines.key_lines.get(path + (extra[0],), line)
    where = _path_text(path)
    raise ScenarioError(f"{where}: {_schema_message(err)}" if where else _schema_message(err), line)


def _path_text(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _schema_message(err) -> str:
    v = err.validator
    if v == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        return f"{err.message}; expected one of: {', '.join(allowed)}"
    if v == "required":
        return f"{err.message} (required)"
    if v == "enum":
        return f"{err.instance!r} is not one of {', '.join(map(str, err.validator_value))}"
    if v == "type":
        return f"expected {err.validator_value}, got {err.instance!r}"
    return err.message


# -- the scenario -------------------------------------------------------------------------------
@dataclass
class Scenario:
    file: str
    rules: str
    title: str
    state: GameState  # the table before the first event
    events: list[Event]
    expect: dict  # edition ("*" for all) -> {path: (expected, line)}
    stops: dict  # edition -> {"refused"/"not_modelled": (spec, line)}


def load(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read the scenario: {exc}", None, str(path)) from None
    try:
        return parse(text, str(path))
    except ScenarioError as exc:
        raise exc.at(str(path)) from None


def parse(text: str, file: str = "<scenario>") -> Scenario:
    data, lines = read_yaml(text)
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping with players, turn, phase and events", 1)
    validate(data, lines)
    rules = _edition(data.get("rules", R.CURRENT), lines.of(("rules",)))
    state = _table(data, lines, rules)
    names = Names(list(state.seating), list(state.minions))
    events = []
    for i, raw in enumerate(data.get("events") or []):
        line = lines.of(("events", i))
        if isinstance(raw, str):
            events.append(parse_wording(raw, names, line))
        else:
            key_lines = {k: lines.key_lines.get(("events", i, k), line) for k in raw}
            events.append(parse_structured(raw, names, line, key_lines))
    expect, stops = _expectations(data.get("expect") or {}, lines)
    return Scenario(file=file, rules=rules, title=str(data.get("title") or ""), state=state, events=events,
                    expect=expect, stops=stops)


def _edition(name: Any, line: Optional[int]) -> str:
    try:
        return R.edition(str(name))
    except KeyError:
        known = ", ".join(list(R.EDITIONS) + list(R.ALIASES))
        raise ScenarioError(f"unknown rules edition {name!r}; expected one of: {known}", line) from None


def _table(data: dict, lines: Lines, rules: str) -> GameState:
    seating = [str(p) for p in data["players"]]
    if len(set(seating)) != len(seating):
        raise ScenarioError("players must be listed once each", lines.of(("players",)))

    def player_of(value: Any, path: tuple) -> str:
        if str(value) not in seating:
            raise ScenarioError(f"unknown player {value!r}; the players are {', '.join(seating)}", lines.of(path))
        return str(value)

    def per_player(key: str) -> dict:
        mapping = data.get(key) or {}
        return {player_of(k, (key, k)): v for k, v in mapping.items()}

    pools, vps = per_player("pool"), per_player("vp")
    hands, hand_sizes = per_player("hand"), per_player("hand_size")
    libraries, crypts = per_player("library"), per_player("crypt")
    ousted = {player_of(p, ("ousted", i)) for i, p in enumerate(data.get("ousted") or [])}
    oot = {player_of(p, ("played_out_of_turn", i)) for i, p in enumerate(data.get("played_out_of_turn") or [])}
    players = {}
    for name in seating:
        size = hand_sizes.get(name, DEFAULT_HAND_SIZE)
        players[name] = Player(name=name, pool=0 if name in ousted else pools.get(name, DEFAULT_POOL),
                               vp=vps.get(name, 0), ousted=name in ousted, hand=hands.get(name, size), hand_size=size,
                               library=libraries.get(name), crypt=crypts.get(name),
                               oot_played=name in oot, oot_debt=1 if name in oot else 0)
        if players[name].pool <= 0 and name not in ousted:
            raise ScenarioError(f"{name} has no pool: list {name} under 'ousted' instead",
                                lines.of(("pool", name)))
    turn = player_of(data["turn"], ("turn",))
    if turn in ousted:
        raise ScenarioError(f"{turn} is ousted and cannot have the turn", lines.of(("turn",)))
    edge = data.get("edge")
    if edge is not None:
        edge = player_of(edge, ("edge",))
    minions = {}
    for i, raw in enumerate(data.get("minions") or []):
        m = _minion(raw, (("minions", i)), lines, seating, ousted, player_of)
        if m.name in minions or m.name in seating:
            raise ScenarioError(f"the name {m.name!r} is used twice; names must be unique "
                                f"(use 'card:' for a second copy of a card)", lines.of(("minions", i, "name")))
        minions[m.name] = m
    turn_number = int(data.get("turn_number", 5))
    phase = str(data["phase"])
    ps = PhaseState(master_actions=int(data.get("master_actions", 1)),
                    transfers=int(data.get("transfers", transfers_for(turn_number))),
                    discard_actions=int(data.get("discard_actions", 1)))
    return GameState(edition=rules, seating=tuple(seating), players=players, minions=minions, turn=turn, phase=phase,
                     turn_number=turn_number, edge=edge, phase_state=ps)


def _minion(raw: dict, path: tuple, lines: Lines, seating: list, ousted: set, player_of) -> Minion:
    name = str(raw["name"])
    controller = player_of(raw["controller"], path + ("controller",))
    if controller in ousted:
        raise ScenarioError(f"{controller} is ousted and controls nothing", lines.of(path + ("controller",)))
    kind = raw.get("type") or (ALLY if "life" in raw and "capacity" not in raw else VAMPIRE)
    region = raw.get("region", READY)
    if kind == VAMPIRE:
        if "capacity" not in raw:
            raise ScenarioError(f"the vampire {name} needs a capacity (or say type: ally, with life)",
                                lines.of(path + ("name",)))
        capacity, counters = int(raw["capacity"]), int(raw.get("blood", 0))
        if region != UNCONTROLLED and counters > capacity:
            raise ScenarioError(f"{name} has {counters} blood, above capacity {capacity}: excess blood drains at once",
                                lines.of(path + ("blood",)))
    else:
        if "capacity" in raw or "blood" in raw:
            raise ScenarioError(f"the ally {name} has life, not capacity or blood", lines.of(path))
        capacity, counters = 0, int(raw.get("life", 1))
        if counters < 1:
            raise ScenarioError(f"the ally {name} needs at least 1 life", lines.of(path + ("life",)))
        if region == UNCONTROLLED and not raw.get("recruited"):
            raise ScenarioError("an ally is not in an uncontrolled region (unless just recruited, older book)",
                                lines.of(path + ("region",)))
    sect = raw.get("sect")
    retainers = tuple(Retainer(str(r["name"]), int(r.get("life", 1))) if isinstance(r, dict) else Retainer(str(r), 1)
                      for r in raw.get("retainers") or ())
    return Minion(
        name=name, controller=controller, kind=kind, card=str(raw.get("card") or name), capacity=capacity,
        blood=counters, clan=raw.get("clan"), sect=sect, title=raw.get("title"),
        disciplines=tuple(raw.get("disciplines") or ()), strength=int(raw.get("strength", 1)),
        bleed=int(raw.get("bleed", 1)), stealth=int(raw.get("stealth", 0)), intercept=int(raw.get("intercept", 0)),
        region=region, locked=bool(raw.get("locked", False)), infernal=bool(raw.get("infernal", False)),
        anarch=bool(raw.get("anarch", False)) or str(sect or "").lower() == "anarch",
        contested=bool(raw.get("contested", False)), title_contested=bool(raw.get("title_contested", False)),
        equipment=tuple(str(x) for x in raw.get("equipment") or ()), retainers=retainers,
        recruited=bool(raw.get("recruited", False)), bled=bool(raw.get("bled", False)),
        cannot=tuple(raw.get("cannot") or ()), mandatory=tuple(raw.get("mandatory") or ()),
        traits=tuple(str(t).strip().lower() for t in raw.get("traits") or ()),
        votes=int(raw["votes"]) if raw.get("votes") is not None else None,
    )


def _expectations(block: dict, lines: Lines) -> tuple[dict, dict]:
    expect: dict = {"*": {}}
    stops: dict = {"*": {}}
    for key, value in block.items():
        if key in R.EDITIONS or key in R.ALIASES:
            ed = R.edition(key)
            if not isinstance(value, dict):
                raise ScenarioError(f"expect.{key} must be a mapping of expectations under that edition",
                                    lines.of(("expect", key)))
            for k, v in value.items():
                _add_expectation(expect.setdefault(ed, {}), stops.setdefault(ed, {}), k, v,
                                 lines.of(("expect", key, k)))
        else:
            _add_expectation(expect["*"], stops["*"], key, value, lines.of(("expect", key)))
    return expect, stops


def _add_expectation(expect: dict, stops: dict, key: str, value: Any, line: Optional[int]) -> None:
    if key in EXPECT_STOPS:
        if not isinstance(value, (bool, str, dict)):
            raise ScenarioError(f"expect.{key} is true, a message fragment, or {{event, message, cites}}", line)
        if isinstance(value, dict):
            unknown = set(value) - {"event", "message", "cites"}
            if unknown:
                raise ScenarioError(f"unknown keys {sorted(unknown)} in expect.{key}; expected event, message, cites",
                                    line)
        stops[key] = (value, line)
        return
    _check_path_syntax(key, line)
    expect[key] = (value, line)


def _check_path_syntax(path: str, line: Optional[int]) -> None:
    head = path.split(".", 1)[0]
    known = set(PLAYER_KEYS + MINION_KEYS + PHASE_KEYS + RESULT_KEYS) | {
        "edge", "turn", "phase", "turn_number", "action", "combat", "referendum", "diablerie_chance", "players",
        "minions", "result", "phase_state",
        "bank", "in_play", "score", "ousted_order", "rules"}
    if head not in known:
        raise ScenarioError(f"unknown expectation {path!r}; expected a state path like pool.<player>, "
                            f"blood.<minion>, edge, phase, or refused/not_modelled", line)


# -- replaying ------------------------------------------------------------------------------------
@dataclass
class Step:
    n: int  # the event's number (1-based); len(events) + 1 for the end of the scenario
    event: str
    text: str
    rules: tuple[Rule, ...]
    line: Optional[int] = None


@dataclass
class Stop:
    kind: str  # "refused" | "not-modelled"
    message: str
    rules: tuple[Rule, ...]
    n: int
    event: str
    line: Optional[int]


@dataclass
class Check:
    path: str
    expected: Any
    actual: Any
    ok: bool
    line: Optional[int] = None


@dataclass
class Run:
    scenario: Scenario
    edition: str
    steps: list[Step]
    state: GameState
    stop: Optional[Stop]
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks) and (self.stop is None or self._stop_expected())

    def _stop_expected(self) -> bool:
        key = "refused" if self.stop.kind == "refused" else "not_modelled"
        return any(c.path == key and c.ok and c.expected is not False for c in self.checks)


def replay(scenario: Scenario, edition: Optional[str] = None) -> tuple[list[Step], GameState, Optional[Stop]]:
    """Replay every event; settle what is pending at the end. Never raises for a legal scenario."""
    edition = R.edition(edition) if edition else scenario.rules
    state = scenario.state if edition == scenario.state.edition else _as_edition(scenario.state, edition)
    steps: list[Step] = []
    n = 0
    for n, event in enumerate(scenario.events, 1):
        desc = event.describe()
        try:
            for _ in range(50):  # each settle closes one open stage (action, combat, referendum...)
                if not core.needs_settle(state, event) or state.result.over:
                    break
                state, entries = core.settle(state)
                steps.extend(Step(n, desc, e.text, e.rules, event.line) for e in entries)
            state, entries = core.apply(state, event)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, n, desc, event.line)
        steps.extend(Step(n, desc, e.text, e.rules, event.line) for e in entries)
    # Nothing more is played: a pending action, diablerie chance or referendum resolves; a combat is left
    # where the events leave it (its state shows the round and step), rather than fought out by default.
    end = n + 1
    while core.open_stage(state) not in (None, "combat") and not state.result.over:
        try:
            state, entries = core.settle(state)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, end, "(end of the events)", None)
        steps.extend(Step(end, "(end of the events: nothing more is played)", e.text, e.rules) for e in entries)
    return steps, state, None


def _as_edition(state: GameState, edition: str) -> GameState:
    from dataclasses import replace

    return replace(state, edition=edition)


def run(scenario: Scenario, edition: Optional[str] = None, resolver=None) -> Run:
    edition = R.edition(edition) if edition else scenario.rules
    steps, state, stop = replay(scenario, edition)
    result = Run(scenario, edition, steps, state, stop)
    result.checks = check_expectations(scenario, edition, state, stop, resolver)
    return result


def expectations_for(scenario: Scenario, edition: str) -> tuple[dict, dict]:
    expect = dict(scenario.expect.get("*", {}))
    expect.update(scenario.expect.get(edition, {}))
    stops = dict(scenario.stops.get("*", {}))
    stops.update(scenario.stops.get(edition, {}))
    return expect, stops


def check_expectations(scenario: Scenario, edition: str, state: GameState, stop: Optional[Stop],
                       resolver=None) -> list[Check]:
    expect, stops = expectations_for(scenario, edition)
    view = state_to_json(state)
    checks = []
    for path, (expected, line) in expect.items():
        found, actual = lookup(view, path)
        ok = found and _same(expected, actual)
        checks.append(Check(path, expected, actual if found else f"(no such path: {path})", ok, line))
    for key, (spec, line) in stops.items():
        checks.append(_check_stop(key, spec, stop, edition, resolver, line))
    return checks


def _check_stop(key: str, spec: Any, stop: Optional[Stop], edition: str, resolver, line) -> Check:
    want_kind = "refused" if key == "refused" else "not-modelled"
    actual = None if stop is None else {"kind": stop.kind, "event": stop.n, "message": stop.message}
    if spec is False:
        return Check(key, False, actual, stop is None or stop.kind != want_kind, line)
    if stop is None or stop.kind != want_kind:
        return Check(key, spec, actual, False, line)
    ok = True
    if isinstance(spec, str):
        ok = spec.lower() in stop.message.lower()
    elif isinstance(spec, dict):
        if "message" in spec:
            ok &= str(spec["message"]).lower() in stop.message.lower()
        if "event" in spec:
            ev = spec["event"]
            ok &= (stop.n == ev) if isinstance(ev, int) else str(ev).lower() in stop.event.lower()
        if "cites" in spec:
            ids = cite_ids(stop.rules, edition, resolver)
            actual["cites"] = ids
            wanted = spec["cites"] if isinstance(spec["cites"], list) else [spec["cites"]]
            ok &= all(any(i == w or i.startswith(w + "/") or i.startswith(w + ".") for i in ids) for w in wanted)
    return Check(key, spec, actual, ok, line)


def cite_ids(rules, edition: str, resolver=None) -> list[str]:
    resolver = resolver or R.OfflineResolver()
    out: list[str] = []
    for rule in rules:
        for cite in rule.cites(edition):
            pid = resolver.id(cite) or cite.section_id
            if pid not in out:
                out.append(pid)
    return out


def lookup(view: dict, path: str) -> tuple[bool, Any]:
    head, _, rest = path.partition(".")
    if head in PLAYER_KEYS and rest and rest in view["players"]:
        return True, view["players"][rest][head]
    if head == "score" and rest in view["players"]:
        return True, view["players"][rest]["vp"]
    if head in MINION_KEYS and rest:
        m = view["minions"].get(rest)
        if m is None:
            return False, None
        key = head
        if head in ("blood", "life"):  # blood on a vampire, life on an ally
            key = "life" if m["type"] == "ally" else "blood"
        return (key in m), m.get(key)
    if head == "in_play" and rest:
        return True, rest in view["minions"]
    if head in PHASE_KEYS and not rest:
        return True, view["phase_state"][head]
    if head in RESULT_KEYS and not rest:
        return True, view["result"][head]
    return _follow(view, path.split("."))


def _follow(node: Any, parts: list[str]) -> tuple[bool, Any]:
    """Follow a dotted path; a key that itself contains dots ("Dr. Fox") is matched whole."""
    if not parts:
        return True, node
    if isinstance(node, dict):
        for k in range(len(parts), 0, -1):
            key = ".".join(parts[:k])
            if key in node:
                found, value = _follow(node[key], parts[k:])
                if found:
                    return True, value
        return False, None
    if isinstance(node, list) and parts[0].isdigit() and int(parts[0]) < len(node):
        return _follow(node[int(parts[0])], parts[1:])
    return False, None


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or (isinstance(expected, bool) and isinstance(actual, bool) and expected == actual)
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return float(expected) == float(actual)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_same(a, b) for a, b in zip(expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return set(expected) == set(actual) and all(_same(expected[k], actual[k]) for k in expected)
    return expected == actual


def find_scenarios(target: str | Path) -> list[Path]:
    target = Path(target)
    if target.is_dir():
        return sorted(p for p in target.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    return [target]
