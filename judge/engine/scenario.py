"""Scenario files: load (with the line of everything), validate, replay, check expectations.

A scenario is YAML: the table (`players`, `turn`, `phase`, pools, the Edge,
`minions`), a list of `events`, and an optional `expect:` block (paths into
the final state, or an expected refusal), so a scenario is also a test. The
JSON Schema is judge/engine/scenario.schema.json; docs/scenarios.md is the
reference. Any malformed part, the expectations included, is reported as a
`ScenarioError` naming the line and what was expected there, before anything
is replayed. Reading the YAML is yamlfile.py, the schema validation.py, the
expectations expect.py. Reading and each replay keep to the limits of limits.py
(the same for `judge check` and the web app): a scenario over one is an
`OverLimit` naming the limit, its value and the line.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional

from judge.datafile import FileTooLarge, read_regular
from judge.engine.citations import ALIASES, CURRENT, GAMES, RIVALS, RULES_EDITIONS, VTES, Rule, rules_edition
from judge.engine import core, stages, traits
from judge.engine import expect as X
from judge.engine import limits as L
from judge.engine.errors import EngineStop, ScenarioError
from judge.errors import SourceError
from judge.engine.events import Event
from judge.engine.cards import fill_minion
from judge.engine.forms import Names
from judge.engine.grammar import parse_structured, parse_wording
from judge.engine.expect import Check, cite_ids, lookup  # noqa: F401 - part of this module's interface
from judge.engine.limits import Limits, OverLimit  # noqa: F401 - part of this module's interface
from judge.engine.phases import transfers_for
from judge.engine.rivals import scenario as rivals_scenario
from judge.engine.runs import Run, Step, Stop  # noqa: F401 - part of this module's interface
from judge.engine.state import (ALLY, DEFAULT_HAND_SIZE, DEFAULT_POOL, READY, UNCONTROLLED, VAMPIRE, Card, GameState,
                                Minion, PhaseState, Player, Retainer)
from judge.engine.validation import SCHEMA_PATH, schema, validate  # noqa: F401
from judge.engine.yamlfile import Lines, decoded, read_yaml  # noqa: F401


# -- the scenario -------------------------------------------------------------------------------
@dataclass
class Scenario:
    file: str
    rules: str
    title: str
    state: GameState  # the table before the first event
    events: list[Event]
    expect: X.Expectations  # per edition: the top-level ones under `rules`, the edition blocks under theirs
    game: str = VTES  # a Rivals scenario is a rivals_scenario.Scenario, whose game is RIVALS


def load(path: str | Path, limits: Limits = L.DEFAULT, cards=None) -> Scenario:
    path = Path(path)
    try:
        # Only a regular file (a named pipe would block), and not read past what the character limit allows.
        data = read_regular(path, "the scenario", L.UTF8_BYTES_PER_CHARACTER * (limits.characters + 1))
    except FileTooLarge as exc:
        size = f"{exc.size:,} bytes" if exc.size is not None else "longer"
        raise OverLimit("characters", limits.characters, f"the whole file is {size}, more than "
                        f"{limits.characters:,} characters can take", None, str(path)) from None
    except SourceError as exc:
        raise ScenarioError(exc.message, None, str(path)) from None
    try:
        return parse(decoded(data), str(path), limits, cards)
    except ScenarioError as exc:
        raise exc.at(str(path)) from None


def parse(text: str, file: str = "<scenario>", limits: Limits = L.DEFAULT, cards=None) -> Scenario:
    """The scenario in `text`; ScenarioError naming the line for anything malformed, OverLimit (one) for a
    scenario over `limits`. `cards` (a cards.Catalog, built once by the caller) resolves the cards the
    scenario names; without it, naming a card is refused."""
    clock = L.Clock(limits, "reading the scenario")
    if len(text) > limits.characters:  # where it went over is the line to name
        L.over(limits, "characters", len(text), "the scenario is {count:,} characters long",
               text.count("\n", 0, limits.characters) + 1)
    data, lines = read_yaml(text, limits)
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping with players, turn, phase and events", 1)
    game = game_of(data, lines)
    _check_sizes(data, lines, limits)
    clock.check()
    if game == RIVALS:
        return rivals_scenario.parse_data(data, lines, file, limits, clock)
    validate(data, lines)
    rules = _edition(data.get("rules", CURRENT), lines.of(("rules",)))
    state = _table(data, lines, rules, cards)
    names = Names(list(state.seating), list(state.minions), cards)
    events = []
    raw_events = data.get("events") or []
    for i, raw in enumerate(raw_events):
        line = lines.of(("events", i))
        clock.check(line, f" (at event {i + 1})")
        if isinstance(raw, str):
            events.append(parse_wording(raw, names, line))
        else:
            key_lines = {k: lines.key(("events", i, k)) for k in raw}
            events.append(parse_structured(raw, names, line, key_lines))
        L.over(limits, "minions", len(names.minions), "with the minions its events bring into play, the scenario "
               "has {count:,} minions", line)
    # Names the events brought into play (a recruited ally, a vampire from the crypt) can be expected too.
    expect = X.read(data.get("expect"), lines, rules, list(state.seating), list(names.minions), len(raw_events))
    return Scenario(file=file, rules=rules, title=str(data.get("title") or ""), state=state, events=events,
                    expect=expect)


def game_of(data: dict, lines: Lines) -> str:
    """The game a scenario is of: its `game:` key (V:TES when absent)."""
    game = data.get("game", VTES)
    if not isinstance(game, str):  # a list or mapping: named by its kind, never looked up (it cannot be)
        raise ScenarioError(f"game: expected a name, one of: {', '.join(GAMES)} (V:TES when absent); "
                            f"got a {type(game).__name__}", lines.of(("game",)))
    if game not in GAMES:
        raise ScenarioError(f"unknown game {game!r}; expected one of: {', '.join(GAMES)} (V:TES when absent)",
                            lines.of(("game",)))
    return game


def _check_sizes(data: dict, lines: Lines, limits: Limits) -> None:
    """The limits on the table and the lists, before anything is built from them (each at the line of the
    first item over it)."""
    for key, name in (("players", "players"), ("minions", "minions"), ("events", "events")):
        items = data.get(key)
        if isinstance(items, list):
            L.over(limits, name, len(items), f"the scenario has {{count:,}} {key}",
                   lines.of((key, min(len(items) - 1, getattr(limits, name)))))
    expect = data.get("expect")
    if isinstance(expect, dict):
        where = [(k,) if not (isinstance(v, dict) and (k in RULES_EDITIONS or k in ALIASES)) else (k, kk)
                 for k, v in expect.items() for kk in (v if isinstance(v, dict) else [None])]
        if len(where) > limits.expectations:
            L.over(limits, "expectations", len(where), "the scenario has {count:,} expectations",
                   lines.key(("expect",) + where[limits.expectations]))


def _edition(name: Any, line: Optional[int]) -> str:
    try:
        return rules_edition(str(name))
    except KeyError:
        known = ", ".join(list(RULES_EDITIONS) + list(ALIASES))
        raise ScenarioError(f"unknown rules edition {name!r}; expected one of: {known}", line) from None


def _table(data: dict, lines: Lines, rules: str, cards=None) -> GameState:
    seating = [str(p) for p in data["players"]]
    for i, name in enumerate(seating):
        L.check_name(name, lines.of(("players", i)))
    twice = [p for i, p in enumerate(seating) if p in seating[:i]]
    if twice:
        raise ScenarioError(f"{twice[0]} is listed twice in players; each Methuselah is listed once",
                            lines.of(("players",)))

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
        m = _minion(raw, (("minions", i)), lines, seating, ousted, player_of, cards)
        if m.name in minions or m.name in seating:
            raise ScenarioError(f"the name {m.name!r} is used twice; names must be unique "
                                f"(use 'card:' for a second copy of a card)", lines.of(("minions", i, "name")))
        minions[m.name] = m
    turn_number = int(data.get("turn_number", 5))
    phase = str(data["phase"])
    ps = PhaseState(master_actions=int(data.get("master_actions", 1)),
                    transfers=int(data.get("transfers", transfers_for(turn_number))),
                    discard_actions=int(data.get("discard_actions", 1)))
    cards = tuple(Card(str(name), player, "location") for player, names_ in per_player("locations").items()
                  for name in names_ or ())
    return GameState(edition=rules, seating=tuple(seating), players=players, minions=minions, turn=turn, phase=phase,
                     turn_number=turn_number, edge=edge, phase_state=ps, cards=cards)


def _minion(raw: dict, path: tuple, lines: Lines, seating: list, ousted: set, player_of, cards=None) -> Minion:
    name = str(raw["name"])
    L.check_name(name, lines.of(path + ("name",)))
    raw = _from_card(raw, path, lines, cards)
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
    trait_list = traits.read_traits(raw.get("traits"), lines.of(path + ("traits",)))
    owner = player_of(raw["owner"], path + ("owner",)) if raw.get("owner") is not None else None
    return Minion(
        name=name, controller=controller, kind=kind, card=str(raw.get("card") or name), capacity=capacity,
        blood=counters, clan=raw.get("clan"), sect=sect, title=raw.get("title"),
        disciplines=tuple(raw.get("disciplines") or ()), strength=int(raw.get("strength", 1)),
        bleed=int(raw.get("bleed", 1)), stealth=int(raw.get("stealth", 0)), intercept=int(raw.get("intercept", 0)),
        region=region, locked=bool(raw.get("locked", False)),
        infernal=bool(raw.get("infernal", False)) or "infernal" in trait_list,
        anarch=bool(raw.get("anarch", False)) or str(sect or "").lower() == "anarch",
        contested=bool(raw.get("contested", False)), title_contested=bool(raw.get("title_contested", False)),
        equipment=tuple(str(x) for x in raw.get("equipment") or ()), retainers=retainers,
        recruited=bool(raw.get("recruited", False)), bled=bool(raw.get("bled", False)),
        cannot=tuple(raw.get("cannot") or ()), mandatory=tuple(raw.get("mandatory") or ()),
        traits=trait_list,
        immune=tuple(" ".join(str(x).split()).lower() for x in raw.get("immune") or ()),
        owner=owner if owner != controller else None,
        votes=int(raw["votes"]) if raw.get("votes") is not None else None,
        unread=tuple(raw.get("unread") or ()), extra_master=int(raw.get("extra_master", 0)),
        extra_master_when=str(raw.get("extra_master_when", "ready")),
    )


def _from_card(raw: dict, path: tuple, lines: Lines, cards) -> dict:
    """The minion with what its crypt card says filled in (cards.fill_minion), when it is named by card: it has
    no capacity nor life (its name, or `card:`, is then the crypt card's), or its `card:` is a card the card
    base knows (another `card:` is the scenario's own name for a copy, as in a contest)."""
    def line_of(key: str) -> Optional[int]:
        return lines.of(path + (key,)) if key in raw else lines.of(path + ("name",))

    described = any(k in raw for k in ("capacity", "life")) or raw.get("type") == ALLY
    maybe = described and "changed" not in raw  # described, and perhaps named by card (a known `card:`)
    if maybe and not raw.get("card"):
        return raw
    card_name = str(raw.get("card") or raw["name"])
    if cards is None:
        if maybe:
            return raw
        raise ScenarioError(f"the vampire {raw['name']} needs a capacity (or say type: ally, with life); naming it "
                            f"by its crypt card needs the card base, which judge check loads", line_of("name"))
    if maybe:
        facts = cards.lookup(card_name)
        if facts is None:
            return raw
    else:
        facts = cards.card(card_name, line_of("card"), "crypt card")
    return fill_minion(raw, facts, line_of)


# -- replaying ------------------------------------------------------------------------------------
class _Work:
    """What one replay has done, against its limits: turns begun, steps, the bytes its steps will take in
    the report (an estimate, so that a replay stops as soon as it goes over `answer_bytes`; the report
    itself is measured by trace.checked_json), and its wall time."""

    STEP_BYTES = 120  # a step's keys, its number and its cites' IDs, beside its two texts

    def __init__(self, limits: Limits, first_turn: int):
        self.limits, self.first_turn = limits, first_turn
        self.clock = L.Clock(limits, "replaying the scenario")
        self.answer_bytes = 0

    def add(self, steps: list, new: list) -> None:
        steps.extend(new)
        self.answer_bytes += sum(len(s.event) + len(s.text) + self.STEP_BYTES for s in new)

    def check(self, state: GameState, steps: list, n: int, line: Optional[int]) -> None:
        at = f" by event {n}" if line is not None else " at the end of the events"
        L.over(self.limits, "turns", state.turn_number - self.first_turn, f"the replay began {{count:,}} turns{at}",
               line)
        L.over(self.limits, "steps", len(steps), f"the replay took {{count:,}} steps{at}", line)
        L.over(self.limits, "answer_bytes", self.answer_bytes, f"the replay's report would take more than {{count:,}} "
               f"bytes{at}", line)
        self.clock.check(line, at)


def replay(scenario: Scenario, edition: Optional[str] = None,
           limits: Limits = L.DEFAULT) -> tuple[list[Step], GameState, Optional[Stop]]:
    """Replay every event; settle what is pending at the end. Never raises for a legal scenario within
    `limits`; OverLimit (naming the event) as soon as the replay goes over one."""
    edition = rules_edition(edition) if edition else scenario.rules
    state = scenario.state if edition == scenario.state.edition else _as_edition(scenario.state, edition)
    steps: list[Step] = []
    work = _Work(limits, state.turn_number)
    n, previous = 0, None
    for n, event in enumerate(scenario.events, 1):
        desc = event.describe()
        # What settles before this event (nothing more was played: the open action resolves) is the result of
        # the events before it, and is shown under the last of them, not under this one.
        settled_n, settled_desc, settled_line = ((n - 1, previous.describe(), previous.line) if previous is not None
                                                 else (n, "(nothing more is played)", event.line))
        previous = event
        try:
            for _ in range(50):  # each settle closes one open stage (action, combat, referendum...)
                if not core.needs_settle(state, event) or state.result.over:
                    break
                state, entries = core.settle(state)
                work.add(steps, [Step(settled_n, settled_desc, e.text, e.rules, settled_line) for e in entries])
            state, entries = core.apply(state, event)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, n, desc, event.line)
        work.add(steps, [Step(n, desc, e.text, e.rules, event.line) for e in entries])
        work.check(state, steps, n, event.line)
    # Nothing more is played: a pending action, diablerie chance or referendum resolves; a combat is left
    # where the events leave it (its state shows the round and step), rather than fought out by default.
    end = n + 1
    while (stage := stages.open_stage(state)) is not None and stage.settled_at_end and not state.result.over:
        try:
            state, entries = core.settle(state)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, end, "(end of the events)", None)
        work.add(steps, [Step(end, "(end of the events: nothing more is played)", e.text, e.rules) for e in entries])
        work.check(state, steps, end, None)
    return steps, state, None


def _as_edition(state: GameState, edition: str) -> GameState:
    return replace(state, edition=edition)


def run(scenario: Scenario, edition: Optional[str] = None, locator=None, limits: Limits = L.DEFAULT) -> Run:
    if scenario.game == RIVALS:
        if edition not in (None, RIVALS):
            raise ScenarioError(f"{scenario.file} is a Rivals scenario: it has one rules edition, the Rivals "
                                f"rulebook ({edition!r} is a V:TES edition)")
        return rivals_scenario.run(scenario, locator, limits)
    if edition == RIVALS:
        raise ScenarioError(f"{scenario.file} is a V:TES scenario: the Rivals rulebook is not one of its rules "
                            f"editions ({', '.join(RULES_EDITIONS)})")
    edition = rules_edition(edition) if edition else scenario.rules
    steps, state, stop = replay(scenario, edition, limits)
    result = Run(scenario, edition, steps, state, stop)
    result.checks = X.check(scenario.expect, edition, state, stop, locator)
    return result


def find_scenarios(target: str | Path) -> list[Path]:
    target = Path(target)
    if target.is_dir():
        return sorted(p for p in target.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    return [target]
