"""V:TES scenario files: the table and the events read into the engine's state and events, replayed, and
the expectations checked (judge/engine/scenario.py reads the file and hands a V:TES one here).

A scenario is YAML: the table (`players`, `turn`, `phase`, pools, the Edge,
`minions`), a list of `events`, and an optional `expect:` block (paths into
the final state, or an expected refusal), so a scenario is also a test. The
JSON Schema is judge/engine/vtes/scenario.schema.json; docs/scenarios.md is the
reference. Any malformed part, the expectations included, is reported as a
`ScenarioError` naming the line and what was expected there, before anything
is replayed (the schema's wording is judge/engine/validation.py; the expectations
judge/engine/vtes/expect.py). Reading and each replay keep to the limits of
judge/engine/limits.py: a scenario over one is an `OverLimit` naming the limit, its
value and the line.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, Optional

from judge.engine.citations import ALIASES, CURRENT, RIVALS, RULES_EDITIONS, VTES, rules_edition
from judge.engine import limits as L
from judge.engine.errors import EngineStop, ScenarioError
from judge.engine.expect import Expectations
from judge.engine.limits import Limits
from judge.engine.runs import ReplayWork, Run, Step, Stop
from judge.engine.validation import ScenarioSchema
from judge.engine.yamlfile import Lines
from judge.engine.vtes import core, stages, traits
from judge.engine.vtes import expect as X
from judge.engine.vtes.cards import fill_ally, fill_minion, modelled
from judge.engine.vtes.events import Equip, Event
from judge.engine.vtes.forms import Names
from judge.engine.vtes.grammar import STRUCTURED, parse_structured, parse_wording
from judge.engine.vtes.phases import transfers_for
from judge.engine.vtes.helpers import hand_size_bonus
from judge.engine.vtes.state import (ALLY, DEFAULT_HAND_SIZE, DEFAULT_POOL, READY, UNCONTROLLED, VAMPIRE, Card,
                                     Attached, GameState, Minion, PhaseState, Player, Retainer, evolve, state_to_json)

GAME = VTES
# its lists checked against the limits before anything is built (judge/engine/scenario.py): (key, limit)
SIZED = (("players", "players"), ("minions", "minions"), ("events", "events"))
SCHEMA = ScenarioSchema(Path(__file__).with_name("scenario.schema.json"), "'Belinde bleeds Alexis'",
                        "{bleed: Belinde}", lambda key: STRUCTURED[key][2] if key in STRUCTURED else f"{{{key}: ...}}")


# -- the scenario -------------------------------------------------------------------------------
@dataclass
class Scenario:
    file: str
    rules: str
    title: str
    state: GameState  # the table before the first event
    events: list[Event]
    expect: Expectations  # per edition: the top-level ones under `rules`, the edition blocks under theirs
    game: str = GAME


def parse_data(data: dict, lines: Lines, file: str, limits: Limits, clock: L.Clock, cards=None) -> "Scenario":
    """The V:TES scenario `data` (read by judge/engine/scenario.py, its sizes checked); ScenarioError naming the
    line for anything malformed. `cards` (a cards.Catalog, built once by the caller) resolves the cards the
    scenario names; without it, naming a card is refused."""
    SCHEMA.validate(data, lines)
    rules = _edition(data.get("rules", CURRENT), lines.of(("rules",)))
    state = _table(data, lines, rules, cards)
    names = Names(list(state.seating), list(state.minions), cards,
                  [c.name for c in state.cards if c.kind == "location"])
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
        played = getattr(events[-1], "card", None)  # a location the events put in play can be named after " on "
        if played is not None and not isinstance(played, str) and tuple(getattr(played, "types", ())) == ("Master",) \
                and modelled(played, None).location and played.name not in names.locations:
            names.locations.append(played.name)
        L.over(limits, "minions", len(names.minions), "with the minions its events bring into play, the scenario "
               "has {count:,} minions", line)
    state = replace(state, gear=_gear(state, events, cards))
    # Names the events brought into play (a recruited ally, a vampire from the crypt) can be expected too.
    expect = X.read(data.get("expect"), lines, rules, list(state.seating), list(names.minions), len(raw_events))
    return Scenario(file=file, rules=rules, title=str(data.get("title") or ""), state=state, events=events,
                    expect=expect)


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
    in_play = tuple(_location(str(name), player, cards) for player, names_ in per_player("locations").items()
                    for name in names_ or ())

    def state_of(players: dict) -> GameState:
        return GameState(edition=rules, seating=tuple(seating), players=players, minions=minions, turn=turn,
                         phase=phase, turn_number=turn_number, edge=edge, phase_state=ps, cards=in_play)

    # what ready vampires' cards and the locations on the table add to hand sizes: in the table's `hand_size` when it
    # gives one, else added to the default (and to the default hand)
    table, sized = state_of(dict(players)), dict(players)
    for name, p in players.items():
        bonus = hand_size_bonus(table, name)[0]
        if bonus:
            size = p.hand_size if name in hand_sizes else max(0, DEFAULT_HAND_SIZE + bonus)
            sized[name] = evolve(p, hand_bonus=bonus, hand_size=size, hand=hands.get(name, size))
    return state_of(sized)


def _location(name: str, player: str, cards) -> Card:
    """A location on the table, with what its card adds to its controller's hand size ("+1 hand size.") and transfers
    ("+2 transfers.") when the card base knows it (a name it does not know is the scenario's own location, with no
    text)."""
    facts = cards.lookup(name) if cards is not None else None
    what = modelled(facts, None) if facts is not None and tuple(facts.types) == ("Master",) else None
    hand = what.location_hand if what is not None else (0, "")
    more = what.location_transfers if what is not None else (0, "")
    return Card(facts.name if facts is not None else name, player, "location", hand_size=hand[0], said=hand[1],
                transfers=more[0], transfers_said=more[1])


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
    retainers = tuple(_retainer(r, path + ("retainers", i), lines, cards)
                      for i, r in enumerate(raw.get("retainers") or ()))
    unread = tuple(raw.get("unread") or ()) + (() if raw.get("ignore_text") else
                                               tuple(f"{r.name}: {s}" for r in retainers for s in r.unread))
    retainers = tuple(Retainer(r.name, r.life, r.bonuses, r.abilities) for r in retainers)
    equipment = tuple(str(x) for x in raw.get("equipment") or ())
    for i, x in enumerate(equipment):  # (a card the base knows that is no equipment is not borne as one)
        facts = cards.lookup(x) if cards is not None else None
        if facts is not None and tuple(facts.types) != ("Equipment",):
            kind = "/".join(facts.types)
            raise ScenarioError(f"{name}: {facts.name} is {'an' if kind[0] in 'AEIOU' else 'a'} {kind} card, not "
                                f"equipment (a card put on a vampire by its text goes under attached:)",
                                lines.of(path + ("equipment", i)))
    attached = tuple(_attached(x, path + ("attached", i), lines, cards) for i, x in enumerate(raw.get("attached") or ()))
    unread += () if raw.get("ignore_text") else tuple(s for _, s in attached if s)
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
        equipment=equipment, retainers=retainers, attached=tuple(a for a, _ in attached),
        recruited=bool(raw.get("recruited", False)), bled=bool(raw.get("bled", False)),
        cannot=tuple(raw.get("cannot") or ()), mandatory=tuple(raw.get("mandatory") or ()),
        traits=trait_list,
        immune=tuple(" ".join(str(x).split()).lower() for x in raw.get("immune") or ()),
        owner=owner if owner != controller else None,
        votes=int(raw["votes"]) if raw.get("votes") is not None else None, card_votes=int(raw.get("card_votes", 0)),
        unread=unread, extra_master=int(raw.get("extra_master", 0)), as_vampire=int(raw.get("as_vampire", 0)),
        extra_master_when=str(raw.get("extra_master_when", "ready")), bonuses=tuple(raw.get("bonuses") or ()),
        abilities=tuple(raw.get("abilities") or ()), text_read=bool(raw.get("text_read")),
        stays_locked=_stays_locked(raw, lines.of(path + ("stays_locked",)) if "stays_locked" in raw else None),
    )


def _attached(raw, path: tuple, lines: Lines, cards) -> tuple[Attached, str]:
    """A card the table puts on a vampire (`attached: [Heart of the City]`, or `{name: Heart of the City, at:
    superior}`): an action card that puts itself on its acting vampire, read at the level it was played at (basic
    unless `at:`, gear.on_vampire_text_of); what it gives holds, and its text not read is the vampire's unread text
    (the second item, "" when all is read)."""
    name = str(raw["name"]) if isinstance(raw, dict) else str(raw)
    superior = isinstance(raw, dict) and raw.get("at") == "superior"
    facts = cards.lookup(name) if cards is not None else None
    if superior and facts is not None and not any(ln.level == "superior" for ln in facts.discipline_lines()):
        raise ScenarioError(f"attached: {facts.name} has no superior level", lines.of(path + ("at",)))
    on = modelled(facts, "superior" if superior else None).on_vampire if facts is not None else None
    if on is None:
        raise ScenarioError(f"attached: {name!r} is no card the engine reads as put on a vampire (an action card "
                            f"saying \"Put this card on this vampire.\")", lines.of(path))
    return Attached(on.card, on.bonuses, on.abilities), " ".join(f"{on.card}: {s}" for s in on.unread)


def _stays_locked(raw: dict, line: Optional[int]) -> Optional[tuple[str, ...]]:
    """Whether the minion's card keeps it locked at its next unlock phase ("If Adisa successfully hunts, she does not
    unlock as normal ..."): as the table says (`stays_locked:`); not at all for a minion unlocked at the start (it
    did not hunt since, or is unlocked already); None, not known, for one locked at the start that the table says
    nothing of (its unlock phase stops as not modelled)."""
    found = [a for a in raw.get("abilities") or () if a.kind == "stays locked after hunt"]
    if not found:
        if raw.get("stays_locked") is not None:  # (said for nothing: an error, not ignored)
            raise ScenarioError(f"{raw['name']}: stays_locked is for a vampire named by its crypt card when the card "
                                f"keeps it locked after a successful hunt (Adisa); {raw['name']} is not one", line)
        return ()
    if raw.get("stays_locked") is not None:
        return (found[0].sentence,) if raw["stays_locked"] else ()
    return None if raw.get("locked") else ()


class _Employed(NamedTuple):
    """A retainer of the table as read: a real retainer card's text, or a described one (no text)."""

    name: str
    life: int
    bonuses: tuple = ()
    abilities: tuple = ()
    unread: tuple[str, ...] = ()


def _gear(state: GameState, events: list, cards) -> tuple:
    """The equipment cards other than weapons the table's minions bear and the events equip, read (gear.GearText):
    what they give their bearers holds while borne."""
    if cards is None:
        return ()
    named = [x for m in state.minions.values() for x in m.equipment]
    for e in events:
        card = getattr(e, "card", None)
        if card is not None and not isinstance(card, str) and tuple(getattr(card, "types", ())) == ("Equipment",):
            named.append(card.name)
        if isinstance(e, Equip):
            named += [e.item, *e.more]
    out = {}
    for name in dict.fromkeys(named):
        facts = cards.lookup(name)
        read = modelled(facts, None).gear if facts is not None else None
        if read is not None:
            out[name] = read
    return tuple(out.items())


def _retainer(raw, path: tuple, lines: Lines, cards) -> _Employed:
    """A retainer of the table: `Raven` or `{name: Raven, life: 1}` (described: no text), or a retainer card the card
    base knows (`Raven Spy`, `{name: Raven Spy, life: 2, at: superior}`), read at its level (basic unless `at:`)
    as it is when employed by a card (retainers.py): what it gives its employer holds, and its sentences the engine
    does not read are the employer's unread text (the replay stops where they could matter)."""
    name = str(raw["name"]) if isinstance(raw, dict) else str(raw)
    facts = cards.lookup(name) if cards is not None else None
    level = raw.get("at") if isinstance(raw, dict) else None
    if level is not None and (facts is None or tuple(facts.types) != ("Retainer",)):
        raise ScenarioError(f"retainer {name}: at: names the level a retainer card was employed at, and {name} is no "
                            f"retainer card the card base knows", lines.of(path + ("at",)))
    if facts is None or tuple(facts.types) != ("Retainer",):
        return _Employed(name, int(raw.get("life", 1)) if isinstance(raw, dict) else 1)
    if level not in (None, "basic", "inferior", "superior"):
        raise ScenarioError(f"retainer {name}: at: {level!r} is not a Discipline level; expected inferior (or basic) "
                            f"or superior", lines.of(path + ("at",)))
    if level == "superior" and not any(ln.level == "superior" for ln in facts.discipline_lines()):
        raise ScenarioError(f"retainer {name}: at: superior, and {facts.name} has no superior level", lines.of(
            path + ("at",)))
    rt = modelled(facts, "superior" if level == "superior" else None).retainer
    given = isinstance(raw, dict) and "life" in raw
    if rt.life is None and not given:
        raise ScenarioError(f"retainer {name}: its card's life is not read; give its life ({{name: {facts.name}, "
                            f"life: N}})", lines.of(path))
    return _Employed(facts.name, int(raw["life"]) if given else rt.life, rt.bonuses, rt.abilities, rt.unread)


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
    if tuple(facts.types) == ("Ally",):
        return fill_ally(raw, facts, line_of)
    base = cards.base_of(facts) if raw.get("merged") and facts.advanced else None
    return fill_minion(raw, facts, line_of, base)


# -- replaying ------------------------------------------------------------------------------------
def replay(scenario: Scenario, edition: Optional[str] = None,
           limits: Limits = L.DEFAULT) -> tuple[list[Step], GameState, Optional[Stop]]:
    """Replay every event; settle what is pending at the end. Never raises for a legal scenario within
    `limits`; OverLimit (naming the event) as soon as the replay goes over one."""
    check_edition(scenario, edition)
    edition = rules_edition(edition) if edition else scenario.rules
    state = scenario.state if edition == scenario.state.edition else _as_edition(scenario.state, edition)
    steps: list[Step] = []
    work = ReplayWork(limits, state.turn_number)
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
    while (stage := stages.open_stage(state)) is not None and stage.ends_at_end(state) and not state.result.over:
        try:
            state, entries = core.settle(state)
        except EngineStop as stop:
            return steps, state, Stop(stop.kind, stop.message, stop.rules, end, "(end of the events)", None)
        work.add(steps, [Step(end, "(end of the events: nothing more is played)", e.text, e.rules) for e in entries])
        work.check(state, steps, end, None)
    if state.resolved is not None and state.resolved.unreplaced and state.combat is None and not state.result.over:
        # (a combat the action's effect began is part of the action: left where the events leave it, so is the card)
        state, entries = core.close_resolution(state)
        work.add(steps, [Step(end, "(end of the events: nothing more is played)", e.text, e.rules) for e in entries])
    return steps, state, None


def _as_edition(state: GameState, edition: str) -> GameState:
    return replace(state, edition=edition)


def check_edition(scenario: Scenario, edition: Optional[str]) -> None:
    """A V:TES scenario is replayed under a V:TES rules edition: the Rivals book is not one."""
    if edition == RIVALS:
        raise ScenarioError(f"{scenario.file} is a V:TES scenario: the Rivals rulebook is not one of its rules "
                            f"editions ({', '.join(RULES_EDITIONS)})")


def run(scenario: Scenario, edition: Optional[str] = None, locator=None, limits: Limits = L.DEFAULT) -> Run:
    check_edition(scenario, edition)
    edition = rules_edition(edition) if edition else scenario.rules
    steps, state, stop = replay(scenario, edition, limits)
    result = Run(scenario, edition, steps, state, stop)
    result.checks = X.check(scenario.expect, edition, state, stop, locator)
    return result


def state_json(state: GameState) -> dict:
    return state_to_json(state)


def state_summary(state: GameState) -> str:
    """The state in one line: whose turn and phase, the Edge, each Methuselah and minion, what is open."""
    st = state
    view = state_to_json(st)
    parts = [f"{st.turn}'s {st.phase} phase (turn {st.turn_number})", f"Edge: {st.edge or 'nobody'}"]
    players = []
    for name, p in view["players"].items():
        if p["ousted"]:
            players.append(f"{name} ousted ({p['vp']} VP)")
        elif p["withdrawn"]:
            players.append(f"{name} withdrawn ({p['vp']} VP)")
        else:
            vp = f", {p['vp']} VP" if p["vp"] else ""
            players.append(f"{name} {p['pool']} pool{vp}")
    parts.append("; ".join(players))
    minions = []
    for name, m in view["minions"].items():
        counters = f"{m['blood']}/{m['capacity']} blood" if m["type"] == "vampire" else f"{m['life']} life"
        flags = [m["region"]] + (["locked"] if m["locked"] else [])
        minions.append(f"{name} ({m['controller']}, {counters}, {', '.join(flags)})")
    if minions:
        parts.append("minions: " + "; ".join(minions))
    if st.combat:
        c = st.combat
        parts.append(f"in combat: {c.acting} vs {c.opposing}, round {c.round}, {c.step} step"
                     + (f", {c.range} range" if c.range else ""))
    if st.referendum:
        r = st.referendum
        parts.append(f"referendum ({r.kind}) by {r.caller}: {r.step}, {r.total('for')} for, {r.total('against')} "
                     f"against so far")
    if st.chance:
        parts.append(f"{st.chance.blocker} may diablerize {st.chance.victim}")
    if st.result.over:
        parts.append(f"game over: winner {st.result.winner}" if st.result.winner
                     else f"game over: tie between {', '.join(st.result.tied)}")
    return " | ".join(parts)
