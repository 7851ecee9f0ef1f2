"""Rivals scenario files: the table, the events and the expectations, read with the line of everything (the
same YAML reader, limits, schema wording and replay bookkeeping as V:TES scenarios: yamlfile.py, limits.py,
validation.py, runs.ReplayWork), then replayed by play.apply and reported as a `runs.Run` like any scenario. docs/rivals.md is the reference; the
JSON Schema is judge/engine/rivals/scenario.schema.json. judge/engine/scenario.py hands a file here when it
says `game: rivals`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from judge.engine import expect as X
from judge.engine import limits as L
from judge.engine.citations import RIVALS
from judge.engine.errors import EngineStop, ScenarioError
from judge.engine.rivals import play
from judge.engine.rivals import rules as R
from judge.engine.rivals.state import (HAVEN, START_PRESTIGE, STREETS, Attachment, Conspiracy, GameState, Mortal,
                                       Player, Vampire, summary, to_json)
from judge.engine.runs import ReplayWork, Run, Step, Stop
from judge.engine.validation import ScenarioSchema
from judge.engine.yamlfile import Lines

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
GAME = RIVALS
# its lists checked against the limits before anything is built (judge/engine/scenario.py): (key, limit)
SIZED = (("players", "players"), ("vampires", "minions"), ("mortals", "minions"), ("events", "events"))
PHASE_FIRST_STEP = {"beginning": "city_deck", "action": "actions", "end": "torpor_mending"}


SCHEMA = ScenarioSchema(SCHEMA_PATH, "'Skunk moves to the Streets'",
                        "{attack: Skunk, target: Hydra, type: physical}",
                        lambda key: SCHEMA.forms[key]["examples"][0])


def schema() -> dict:
    return SCHEMA.document


def forms() -> dict:
    return SCHEMA.forms


@dataclass
class Scenario:
    file: str
    rules: str
    title: str
    state: GameState
    events: list
    expect: X.Expectations
    setup_log: tuple = ()
    game: str = GAME


# -- reading ---------------------------------------------------------------------------------------------------
def parse_data(data: dict, lines: Lines, file: str, limits: L.Limits, clock: L.Clock, cards=None) -> Scenario:
    """The Rivals scenario `data` (read by judge/engine/scenario.py); ScenarioError naming the line for anything
    malformed (`cards`, V:TES's card base, plays no part)."""
    SCHEMA.validate(data, lines)
    state, setup_log = _table(data, lines)
    names = set(state.seating) | set(state.vampires) | set(state.mortals) | {
        a.name for v in state.vampires.values() for a in v.attachments}
    events = []
    for i, raw in enumerate(data.get("events") or []):
        line = lines.of(("events", i))
        clock.check(line, f" (at event {i + 1})")
        ev = parse_sentence(raw, line) if isinstance(raw, str) else _structured(raw, line)
        for key in ("recruit",):
            if ev.kind == key:
                names.add(ev.args[key])
        if ev.kind == "city" and isinstance(ev.args.get("city"), dict):
            names.add(ev.args["city"]["name"])
        _check_names(ev, names, line)
        events.append(ev)
        L.over(limits, "minions", len([n for n in names if n not in state.seating]),
               "with the vampires and mortals its events bring into play, the scenario has {count:,} cards", line)
    expect = read_expect(data.get("expect"), lines, list(state.seating), sorted(names - set(state.seating)),
                         len(events))
    return Scenario(file, RIVALS, str(data.get("title") or ""), state, events, expect, tuple(setup_log))


def _structured(raw: dict, line: Optional[int]) -> play.Event:
    key = SCHEMA.form_of(raw)
    args = {k: v for k, v in raw.items() if k != "text"}
    if key == "attack" and isinstance(args.get("type"), str):
        args["type"] = args["type"].lower()
    if key == "exert" and isinstance(args.get("side"), bool):  # YAML reads a bare yes / no as true / false
        args["side"] = "yes" if args["side"] else "no"
    return play.Event(key, args, line, raw.get("text"))


_NAME = r"(?P<{}>[^,:]+?)"
SENTENCES = [  # (pattern, kind, builder): docs/rivals.md lists them
    (r"(?:the )?(?P<a>.+?) moves? to the streets", "move",
     lambda m: {"move": [n.strip() for n in re.split(r",\s*|\s+and\s+", m["a"])]}),
    (r"(?P<a>.+?) draws (?:1|one|a) card(?: from (?:the |their |his |her )?(?P<d>library|faction deck))?(?: as an action)?",
     "draw_action", lambda m: {"draw_action": m["a"], **({"from": "faction" if m["d"].lower().startswith("faction") else
                                                                   "library"} if m["d"] else {})}),
    (r"(?:the )?(?P<a>.+?) exhausts to block|(?:the )?(?P<b>.+?) blocks", "block",
     lambda m: {"block": m["a"] or m["b"]}),
    (r"(?:the )?(?P<a>.+?) claims the prince(?: of the city)?", "claim_prince", lambda m: {"claim_prince": m["a"]}),
    (r"(?P<a>.+?) discards (?:1|one|a) card to mend (?:the )?(?P<b>.+)", "mend", lambda m: {"mend": m["b"]}),
    (r"(?P<a>.+?) mends", "mend", lambda m: {"mend": m["a"]}),
    (r"(?:nothing more is played|nobody reacts|no block|(?P<a>.+?) passes)", "pass", lambda m: {"pass": True}),
    (r"end of turn|(?P<a>.+?) ends (?:the|his|her|their) turn", "end_turn", lambda m: {"end_turn": True}),
    (r"(?P<a>beginning|action|end) phase", "phase", lambda m: {"phase": m["a"]}),
    (r"(?P<a>city deck|start of turn|ready and return|torpor and mending|end of turn|antagonist|draw) step", "step",
     lambda m: {"step": m["a"].replace(" and ", "_").replace(" of ", "_of_").replace(" ", "_")}),
    (r"(?P<a>.+?)'s? turn", "turn", lambda m: {"turn": m["a"].removesuffix("'s").removesuffix("'")}),
]
_COMPILED = [(re.compile(p + r"\.?", re.IGNORECASE), kind, build) for p, kind, build in SENTENCES]


def parse_sentence(text: str, line: Optional[int] = None) -> play.Event:
    words = " ".join(text.split())
    for pattern, kind, build in _COMPILED:
        m = pattern.fullmatch(words)
        if m:
            args = build(m)
            if kind == "step":
                args["step"] = {"city_deck": "city_deck", "start_of_turn": "start_of_turn"}.get(args["step"],
                                                                                                args["step"])
            return play.Event(kind, args, line, words)
    raise ScenarioError(f"cannot read the event {text!r}: the sentences of a Rivals scenario are listed in "
                        f"docs/rivals.md (\"Sentences\"); anything else is written as a structured event, e.g. "
                        f"{{attack: Skunk, target: Hydra, type: physical}}", line)


def _check_names(ev: play.Event, names: set, line: Optional[int]) -> None:
    a = ev.args
    singles = {"move": None, "party": None}
    keyed = {k: a.get(k) for k in ("draw_action", "draw", "block", "reaction", "retarget", "claim_prince",
                                    "scheme", "exert", "title", "conspiracy", "contribute", "mend", "turn")}
    keyed.update(target=a.get("target"), player=a.get("player"))
    if ev.kind in ("attack", "ability", "action_card"):
        keyed[ev.kind] = a.get(ev.kind)
    for key, value in keyed.items():
        if isinstance(value, str) and value not in names:
            raise ScenarioError(f"unknown name {value!r} ({key}); the players, vampires and mortals are "
                                f"{', '.join(sorted(names))}", line)
    for key in singles:
        for value in a.get(key) or [] if ev.kind == key else []:
            if value not in names:
                raise ScenarioError(f"unknown vampire {value!r}; the players, vampires and mortals are "
                                    f"{', '.join(sorted(names))}", line)


# -- the table ---------------------------------------------------------------------------------------------------
def _table(data: dict, lines: Lines) -> tuple[GameState, list]:
    raw_players = data["players"]
    seating, players = [], {}
    for i, raw in enumerate(raw_players):
        spec = raw if isinstance(raw, dict) else {"name": raw}
        name = str(spec["name"])
        L.check_name(name, lines.of(("players", i)))
        if name in players:
            raise ScenarioError(f"{name} is listed twice in players", lines.of(("players", i)))
        seating.append(name)
        players[name] = Player(name, i + 1, int(spec.get("prestige", START_PRESTIGE)), int(spec.get("agenda", 0)),
                               int(spec.get("hand", 6)), spec.get("library"), spec.get("faction"), spec.get("rival"),
                               played_first_turn=bool(spec.get("played_first_turn", True)))
    for i, name in enumerate(seating):
        p = players[name]
        if p.rival is not None:
            if p.rival not in players or p.rival == name:
                raise ScenarioError(f"{name}'s rival must be another player; got {p.rival!r}",
                                    lines.of(("players", i)))
        elif len(seating) == 2:
            p.rival = seating[1 - i]
    vampires = {}
    for i, raw in enumerate(data.get("vampires") or []):
        where = ("vampires", i)
        name, controller = str(raw["name"]), str(raw["controller"])
        L.check_name(name, lines.of(where + ("name",)))
        if controller not in players:
            raise ScenarioError(f"unknown player {controller!r}; the players are {', '.join(seating)}",
                                lines.of(where + ("controller",)))
        if name in vampires or name in players:
            raise ScenarioError(f"the name {name!r} is used twice", lines.of(where + ("name",)))
        bp = int(raw["bp"])
        blood = int(raw.get("blood", bp))
        if not 0 <= blood <= bp or bp < 1:
            raise ScenarioError(f"{name} has {blood} Blood and Blood Potency {bp}: a vampire has from 0 to its Blood "
                                f"Potency in Blood (and a Blood Potency of at least 1)", lines.of(where + ("blood",)))
        location = raw.get("location", HAVEN)
        if blood == 0 and location != "torpor":
            raise ScenarioError(f"{name} has 0 Blood: a vampire with 0 Blood is in torpor", lines.of(where))
        atts = []
        for a in raw.get("attachments") or []:
            spec = a if isinstance(a, dict) else {"name": a}
            atts.append(Attachment(str(spec["name"]), spec.get("kind", "retainer"), bool(spec.get("exhausted", False)),
                                   int(spec.get("physical", 0)), int(spec.get("social", 0)),
                                   int(spec.get("mental", 0)), int(spec.get("prevent", 0)),
                                   int(spec.get("influence", 0)), not spec.get("primogen", False)))
        title = raw.get("title")
        if title is not None:
            spec = title if isinstance(title, dict) else {"name": title}
            atts.append(Attachment(str(spec["name"]), "title", influence=int(spec.get("influence", 0)),
                                   unique=not spec.get("primogen", False)))
        if len([a for a in atts if a.kind == "title"]) > 1 or len(atts) > 3:
            raise ScenarioError(f"{name} has {len(atts)} attachments: at most 3, one of them a Title",
                                lines.of(where))
        vampires[name] = Vampire(name, controller, bp, blood, int(raw.get("physical", 0)), int(raw.get("social", 0)),
                                 int(raw.get("mental", 0)), raw.get("clan"), tuple(raw.get("disciplines") or ()),
                                 location, bool(raw.get("exhausted", location == "torpor")),
                                 bool(raw.get("leader", False)), bool(raw.get("guard", False)),
                                 int(raw.get("influence", 0)), bool(raw.get("no_influence", False)),
                                 int(raw.get("party", 1 if location == STREETS else 0)), atts,
                                 int(raw.get("secrecy", 0)))
    mortals = {}
    for i, raw in enumerate(data.get("mortals") or []):
        name = str(raw["name"])
        if name in vampires or name in players or name in mortals:
            raise ScenarioError(f"the name {name!r} is used twice", lines.of(("mortals", i, "name")))
        mortals[name] = Mortal(name, int(raw["blood"]), raw.get("kind", "citizen"), int(raw.get("agenda", 0)),
                               raw.get("mend"), int(raw.get("prevent", 0)))
    setup = bool(data.get("setup", False))
    log: list = []
    if setup:
        st = _setup(seating, players, vampires, mortals, data, lines, log)
    else:
        turn = str(data.get("turn") or seating[0])
        if turn not in players:
            raise ScenarioError(f"unknown player {turn!r}; the players are {', '.join(seating)}", lines.of(("turn",)))
        step = data.get("step") or PHASE_FIRST_STEP.get(data.get("phase") or "action")
        st = GameState(tuple(seating), players, vampires, mortals, turn=turn, step=step,
                       turn_number=int(data.get("turn_number", 5)), actions_left=int(data.get("actions_left", 2)),
                       prince=str(data.get("prince", "deck")), city_deck=data.get("city_deck"),
                       city_discard=int(data.get("city_discard", 0)),
                       first_turn_city=bool(data.get("first_turn", False)),
                       used_abilities=list(data.get("used_abilities") or []))
        if st.prince not in ("deck", "streets"):
            v = vampires.get(st.prince)
            if v is None:
                raise ScenarioError(f"prince: deck, streets, or the vampire holding it; got {st.prince!r}",
                                    lines.of(("prince",)))
            if v.title is not None:
                raise ScenarioError(f"{v.name} holds the Prince of the City: no other Title", lines.of(("prince",)))
            v.attachments.append(Attachment("Prince of the City", "title"))
    st.ongoing_events = [(str(e["name"]), str(e["token"])) for e in data.get("ongoing_events") or []]
    for i, raw in enumerate(data.get("conspiracies") or []):
        c = Conspiracy(str(raw["card"]), str(raw["controller"]), int(raw["required"]),
                       {str(k): int(v) for k, v in (raw.get("tokens") or {str(raw["controller"]): 1}).items()},
                       [str(p) for p in (raw.get("shown") or [raw["controller"]])],
                       st.turn_number if raw.get("played_this_turn") else 0,
                       [str(raw["controller"])] if raw.get("played_this_turn") else [])
        for p in [c.controller, *c.tokens, *c.shown]:
            if p not in players:
                raise ScenarioError(f"unknown player {p!r} in a conspiracy", lines.of(("conspiracies", i)))
        st.conspiracies[c.card] = c
    for p in seating:
        if not st.coterie(p) and not players[p].knocked_out:
            raise ScenarioError(f"{p} has no active vampire: a player without one is knocked out (give each player "
                                f"a vampire outside torpor)", lines.of(("players",)))
    return st, log


def _setup(seating, players, vampires, mortals, data, lines, log) -> GameState:
    """The book's Set-Up: 20 Prestige each, the Leader's BP moved onto it as Blood, 5 or 6 cards in hand, the
    Library and Faction Deck counted, the 23-card City Deck; Player 1's first turn begins."""
    for i, name in enumerate(seating):
        leaders = [v for v in vampires.values() if v.controller == name and v.leader]
        if len(leaders) != 1 or len([v for v in vampires.values() if v.controller == name]) != 1:
            raise ScenarioError(f"with setup: true, each player has exactly one vampire, their Leader (leader: true); "
                                f"{name} has {len(leaders)}", lines.of(("players", i)))
        p, leader = players[name], leaders[0]
        p.prestige = START_PRESTIGE - leader.bp
        leader.blood, leader.location, leader.exhausted = leader.bp, HAVEN, False
        p.hand = 5 if i == 0 else 6
        p.library, p.faction = 36, 5 if i == 0 else 4
        p.played_first_turn = False
    log.append(play.Entry(f"Each player takes 20 Prestige; each Leader's Blood Potency in Prestige becomes its "
                          f"Blood ({', '.join(f'{n} {players[n].prestige} Prestige' for n in seating)}).",
                          (R.SETUP_PRESTIGE, R.SETUP_LEADER, R.SETUP_LEADER_BLOOD)))
    log.append(play.Entry(f"Each player draws 4 Library cards and 1 Faction card; players 2 to 4 one more Faction "
                          f"card ({', '.join(f'{n} {players[n].hand}' for n in seating)} in hand).",
                          (R.SETUP_HAND, R.LIBRARY_COUNT)))
    st = GameState(tuple(seating), players, vampires, mortals, turn=seating[0], step="city_deck", turn_number=0,
                   city_deck=23, first_turn_city=True)
    log.append(play.Entry("The City Deck holds 23 cards; Player 1 begins.", (R.SETUP_CITY, R.TURN)))
    sub = play.Log()
    play.enter_step(st, sub, "city_deck")
    log.extend(sub.entries)
    return st


# -- expectations ---------------------------------------------------------------------------------------------
PLAYER_KEYS = ("prestige", "agenda", "hand", "library", "faction", "knocked_out", "rival", "number")
VAMPIRE_KEYS = ("blood", "bp", "location", "exhausted", "title", "attachments", "no_influence", "influence",
                "wounded", "controller", "party", "leader", "physical", "social", "mental")
SCALARS = ("turn", "phase", "step", "actions_left", "prince", "winner", "over", "turn_number", "streets", "city_deck")


def read_expect(block: Any, lines: Lines, players: list, names: list, n_events: int) -> X.Expectations:
    paths, stops = {}, {}
    for key, value in (block or {}).items():
        line, key_line = lines.of(("expect", key)), lines.key(("expect", key))
        if key in X.EXPECT_STOPS:
            X.read_stop(value, line, f"expect.{key}", n_events, "rivals", "the Rivals book", "rivals:action-attack/1")
            stops[key] = (value, line)
            continue
        head, _, rest = str(key).partition(".")
        if head in PLAYER_KEYS:
            if rest not in players:
                raise ScenarioError(f"unknown player {rest!r} in {key!r} (the players are {', '.join(players)})",
                                    key_line)
        elif head in VAMPIRE_KEYS or head in ("in_play", "in_streets"):
            if rest not in names:
                raise ScenarioError(f"unknown vampire or mortal {rest!r} in {key!r} (they are "
                                    f"{', '.join(names) or 'none'})", key_line)
        elif head in SCALARS:
            if rest:
                raise ScenarioError(f"{key!r}: {head} is a single value, with nothing after the dot", key_line)
        elif head not in ("players", "vampires", "mortals", "conspiracies", "attack", "claim", "scheme", "result",
                          "ongoing_events"):
            raise ScenarioError(f"unknown expectation {key!r}; expected a path like prestige.<player>, "
                                f"blood.<vampire>, winner, or refused/not_modelled (docs/rivals.md)", key_line)
        paths[key] = (value, line)
    return X.Expectations({RIVALS: paths}, {RIVALS: stops})


def lookup(view: dict, path: str) -> tuple[bool, Any]:
    head, _, rest = path.partition(".")
    if head in PLAYER_KEYS and rest in view["players"]:
        return True, view["players"][rest][head]
    if head in VAMPIRE_KEYS and rest:
        v = view["vampires"].get(rest)
        return (v is not None), (v or {}).get(head)
    if head == "in_play":
        return True, rest in view["vampires"]
    if head == "in_streets":
        return True, rest in view["streets"]
    return X.follow(view, path.split("."))


def check(expect: X.Expectations, state: GameState, stop, locator) -> list:
    return X.check(expect, RIVALS, to_json(state), lookup, stop, locator)


def state_json(state: GameState) -> dict:
    return to_json(state)


def state_summary(state: GameState) -> str:
    return summary(state)


# -- replaying ------------------------------------------------------------------------------------------------
def replay(scenario: Scenario, edition: Optional[str] = None,
           limits: L.Limits = L.DEFAULT) -> tuple[list, GameState, Optional[Stop]]:
    """Replay every event (the Rivals book is the one rules edition: `check_edition`); settle what is pending at
    the end. OverLimit (naming the event) as soon as the replay goes over one of `limits`."""
    check_edition(scenario, edition)
    state = scenario.state
    steps: list = []
    work = ReplayWork(limits, state.turn_number)
    work.add(steps, [Step(0, "(set-up)", e.text, e.rules) for e in scenario.setup_log])
    n = 0

    def add(entries, n, desc, line):
        work.add(steps, [Step(n, desc, e.text, e.rules, line) for e in entries])

    for n, ev in enumerate(scenario.events, 1):
        desc = ev.describe()
        try:
            for _ in range(5):
                if state.result.over or not play.needs_settle(state, ev):
                    break
                state, entries = play.settle(state)
                add(entries, n, desc, ev.line)
            state, entries = play.apply(state, ev)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, n, desc, ev.line)
        add(entries, n, desc, ev.line)
        work.check(state, steps, n, ev.line)
    end = n + 1
    for _ in range(5):
        if state.result.over or play.open_stage(state) is None:
            break
        try:
            state, entries = play.settle(state)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, end, "(end of the events)", None)
        add(entries, end, "(end of the events: nothing more is played)", None)
        work.check(state, steps, end, None)
    return steps, state, None


def run(scenario: Scenario, edition: Optional[str] = None, locator=None, limits: L.Limits = L.DEFAULT) -> Run:
    steps, state, stop = replay(scenario, edition, limits)
    result = Run(scenario, RIVALS, steps, state, stop)
    result.checks = check(scenario.expect, state, stop, locator)
    return result


def check_edition(scenario: Scenario, edition: Optional[str]) -> None:
    """A Rivals scenario has one rules edition, the Rivals rulebook: any other is a ScenarioError."""
    if edition not in (None, RIVALS):
        raise ScenarioError(f"{scenario.file} is a Rivals scenario: it has one rules edition, the Rivals "
                            f"rulebook ({edition!r} is a V:TES edition)")
