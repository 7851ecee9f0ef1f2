"""The table, as immutable values: a transition never changes a state, it returns a new one.

`GameState` holds the seating, every Methuselah (`Player`), every minion and
uncontrolled crypt card (`Minion`), the turn and phase, the Edge, what the
current phase still allows (`PhaseState`), the action in progress (`Action`)
and, after a successful block, the pending combat (`Combat`), which part 2 of
the engine resolves.

Counters are conserved: every counter that enters or leaves play goes through
the blood bank, whose balance `bank` counts the counters it received since the
scenario began (negative when it gave more). So
`counters_in_play(state) + state.bank` never changes: the random-play test
checks it after every event.

Handlers work on a `Draft` (a copy-on-write view of one state) and `freeze()`
it into the next state; the state they were given is never touched.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

PHASES = ("unlock", "master", "minion", "influence", "discard")
READY, TORPOR, UNCONTROLLED = "ready", "torpor", "uncontrolled"
REGIONS = (READY, TORPOR, UNCONTROLLED)
VAMPIRE, ALLY = "vampire", "ally"
DEFAULT_POOL = 30
DEFAULT_HAND_SIZE = 7
FULL_TRANSFERS = 4


@dataclass(frozen=True)
class Retainer:
    name: str
    life: int


@dataclass(frozen=True)
class Player:
    name: str
    pool: int = DEFAULT_POOL
    vp: float = 0
    ousted: bool = False
    withdrawn: bool = False
    hand: int = DEFAULT_HAND_SIZE
    hand_size: int = DEFAULT_HAND_SIZE
    library: Optional[int] = None  # None: not tracked, a draw always finds a card
    crypt: Optional[int] = None
    # Out-of-turn master cards borrow from the next master phase.
    oot_played: bool = False  # one played since this player's last master phase
    oot_debt: int = 0  # master phase actions already used from the next master phase
    oot_credit: int = 0  # master phase actions an out-of-turn trifle adds to it
    withdrawing: bool = False  # withdrawal announced, conditions being watched
    withdrawal_broken: bool = False

    @property
    def seated(self) -> bool:
        return not (self.ousted or self.withdrawn)


@dataclass(frozen=True)
class Minion:
    """A vampire or ally in play, or a crypt card in an uncontrolled region."""

    name: str
    controller: str
    kind: str = VAMPIRE
    card: str = ""  # card name, for contests; defaults to `name`
    capacity: int = 0
    blood: int = 0  # blood on a vampire, life on an ally
    clan: Optional[str] = None
    sect: Optional[str] = None
    title: Optional[str] = None
    disciplines: tuple[str, ...] = ()
    strength: int = 1
    bleed: int = 1
    stealth: int = 0  # inherent stealth/intercept from its own card text
    intercept: int = 0
    region: str = READY
    locked: bool = False
    infernal: bool = False
    anarch: bool = False
    contested: bool = False  # the card is contested: face down, out of play
    title_contested: bool = False
    equipment: tuple[str, ...] = ()
    retainers: tuple[Retainer, ...] = ()
    recruited: bool = False  # recruited this turn: cannot act this turn
    bled: bool = False  # performed a bleed action this turn
    political: bool = False  # performed a political action this turn
    used: tuple[str, ...] = ()  # action cards / cards in play it acted with this turn
    cannot: tuple[str, ...] = ()  # actions card effects forbid it ("hunt", ...)
    mandatory: tuple[str, ...] = ()  # mandatory actions card effects impose on it

    @property
    def is_vampire(self) -> bool:
        return self.kind == VAMPIRE

    @property
    def controlled(self) -> bool:
        """In play under its controller: not a face-down crypt card."""
        return self.region != UNCONTROLLED or (self.kind == ALLY and self.recruited)

    @property
    def ready(self) -> bool:
        return self.region == READY and not self.contested

    @property
    def counters(self) -> int:
        return self.blood + sum(r.life for r in self.retainers)


@dataclass(frozen=True)
class BlockAttempt:
    blocker: str
    player: str
    intercept: int


@dataclass(frozen=True)
class Action:
    """The action in progress, from its announcement to its resolution."""

    actor: str
    player: str  # the acting Methuselah
    kind: str  # bleed | hunt | equip | employ | recruit | anarch | card | political
    summary: str
    directed: bool
    targets: tuple[str, ...]  # Methuselahs the action is directed at
    stealth: int
    bleed: int = 0
    hunt: int = 0
    cost_blood: int = 0
    cost_pool: int = 0
    card: Optional[str] = None  # action card played from the hand
    via: Optional[str] = None  # card in play providing the action
    order: tuple[str, ...] = ()  # Methuselahs who may block, in the order they may
    declined: tuple[str, ...] = ()
    attempt: Optional[BlockAttempt] = None
    modifiers: tuple[tuple[str, str], ...] = ()  # (minion, card) played this action
    reactions: tuple[tuple[str, str], ...] = ()
    bleed_modified: bool = False  # a limited +bleed modifier was played
    payload: Any = None  # what the action brings into play (ally, retainer, equipment...)
    effects: tuple = ()  # described card effects applied on success
    says: Optional[str] = None  # card text given but not modelled

    @property
    def undeclined(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if p not in self.declined)


@dataclass(frozen=True)
class Combat:
    """A successful block leaves the engine here; part 2 of the engine resolves it."""

    acting: str
    opposing: str
    action: Action
    round: int = 1
    range: Optional[str] = None


@dataclass(frozen=True)
class PhaseState:
    """What the current phase still allows; reset when a phase begins."""

    master_actions: int = 1
    trifle_used: bool = False
    transfers: int = FULL_TRANSFERS
    discard_actions: int = 1
    edge_pool_taken: bool = False
    paid: tuple[str, ...] = ()  # contested cards/titles paid for or yielded this unlock phase


@dataclass(frozen=True)
class Result:
    over: bool = False
    winner: Optional[str] = None
    tied: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameState:
    edition: str
    seating: tuple[str, ...]  # clockwise, everyone who sat down
    players: dict  # name -> Player (never mutated: a Draft copies it)
    minions: dict  # name -> Minion
    turn: str
    phase: str
    turn_number: int = 5  # 1, 2, 3 for the first turns of the game (fewer transfers)
    edge: Optional[str] = None
    bank: int = 0
    phase_state: PhaseState = field(default_factory=PhaseState)
    action: Optional[Action] = None
    combat: Optional[Combat] = None
    result: Result = field(default_factory=Result)
    ousted_order: tuple[str, ...] = ()

    # -- the table ---------------------------------------------------------
    def seated(self) -> list[str]:
        return [p for p in self.seating if self.players[p].seated]

    def prey(self, name: str) -> Optional[str]:
        return _neighbour(self.seating, self.players, name, +1)

    def predator(self, name: str) -> Optional[str]:
        return _neighbour(self.seating, self.players, name, -1)

    def minions_of(self, player: str) -> list[Minion]:
        return [m for m in self.minions.values() if m.controller == player]


def _neighbour(seating: tuple, players: dict, name: str, step: int) -> Optional[str]:
    """The next seated Methuselah clockwise (step +1: the prey) or anticlockwise (-1: the predator)."""
    i = seating.index(name)
    for k in range(1, len(seating)):
        other = seating[(i + step * k) % len(seating)]
        if players[other].seated:
            return other if other != name else None
    return None


def evolve(obj, **changes):
    """`dataclasses.replace` without re-running `__init__`: these dataclasses have no
    validation to re-run, and a transition makes many small copies."""
    new = object.__new__(type(obj))
    attrs = new.__dict__
    attrs.update(obj.__dict__)
    attrs.update(changes)
    return new


def counters_in_play(state: GameState) -> int:
    """Every counter not in the blood bank: pools, blood, life, retainers' life."""
    return sum(p.pool for p in state.players.values()) + sum(m.counters for m in state.minions.values())


class Draft:
    """A copy-on-write working copy of a state, for one transition.

    Reads (`d.turn`, `d.edge`, ...) see the draft's own changes; `set()` changes
    state fields, `put_*()` replace one player, minion, phase state or action.
    """

    def __init__(self, state: GameState):
        self.__dict__.update(state.__dict__)
        del self.__dict__["phase_state"]  # read through phase_state(), which sees changes
        self.base = state
        self.players = dict(state.players)
        self.minions = dict(state.minions)
        self.fields: dict[str, Any] = {}

    def set(self, **changes: Any) -> None:
        self.fields.update(changes)
        self.__dict__.update((k, v) for k, v in changes.items() if k != "phase_state")

    def freeze(self) -> GameState:
        return evolve(self.base, players=self.players, minions=self.minions, **self.fields)

    def player(self, name: str) -> Player:
        return self.players[name]

    def minion(self, name: str) -> Minion:
        return self.minions[name]

    def put_player(self, name: str, **changes: Any) -> Player:
        p = evolve(self.players[name], **changes)
        self.players[name] = p
        return p

    def put_minion(self, name: str, **changes: Any) -> Minion:
        m = evolve(self.minions[name], **changes)
        self.minions[name] = m
        return m

    def phase_state(self) -> PhaseState:  # a method: the field of the same name is shadowed
        return self.fields.get("phase_state", self.base.phase_state)

    def put_phase(self, **changes: Any) -> PhaseState:
        ps = evolve(self.phase_state(), **changes)
        self.fields["phase_state"] = ps
        return ps

    def action_(self) -> Optional[Action]:
        return self.fields.get("action", self.base.action)

    def put_action(self, **changes: Any) -> Action:
        a = evolve(self.action_(), **changes)
        self.set(action=a)
        return a

    def seated(self) -> list[str]:
        return [p for p in self.base.seating if self.players[p].seated]

    def prey(self, name: str) -> Optional[str]:
        return _neighbour(self.base.seating, self.players, name, +1)

    def predator(self, name: str) -> Optional[str]:
        return _neighbour(self.base.seating, self.players, name, -1)


def state_to_json(state: GameState) -> dict:
    """The state as plain data: what `--json` prints and what `expect:` paths address."""
    players = {}
    for name in state.seating:
        p = state.players[name]
        players[name] = {
            "pool": p.pool, "vp": _num(p.vp), "ousted": p.ousted, "withdrawn": p.withdrawn,
            "hand": p.hand, "hand_size": p.hand_size, "library": p.library, "crypt": p.crypt,
            "prey": state.prey(name) if p.seated else None,
            "predator": state.predator(name) if p.seated else None,
            "withdrawing": p.withdrawing,
        }
    minions = {}
    for m in state.minions.values():
        entry = {
            "controller": m.controller, "type": m.kind, "region": m.region, "locked": m.locked,
            "strength": m.strength, "bleed": m.bleed,
            "equipment": list(m.equipment), "retainers": {r.name: r.life for r in m.retainers},
        }
        if m.is_vampire:
            entry.update(capacity=m.capacity, blood=m.blood, clan=m.clan, sect=m.sect, title=m.title,
                         anarch=m.anarch, title_contested=m.title_contested, disciplines=list(m.disciplines))
        else:
            entry.update(life=m.blood, recruited=m.recruited)
        entry.update(contested=m.contested, infernal=m.infernal)
        minions[m.name] = entry
    ps = state.phase_state
    action = None
    if state.action:
        a = state.action
        action = {"actor": a.actor, "kind": a.kind, "summary": a.summary, "directed": a.directed,
                  "targets": list(a.targets), "stealth": a.stealth, "bleed": a.bleed if a.kind == "bleed" else None,
                  "may_block": list(a.undeclined), "declined": list(a.declined),
                  "blocker": a.attempt.blocker if a.attempt else None,
                  "intercept": a.attempt.intercept if a.attempt else None}
    combat = None
    if state.combat:
        c = state.combat
        combat = {"acting": c.acting, "opposing": c.opposing, "action": c.action.summary,
                  "round": c.round, "range": c.range, "status": "pending (combat is part 2 of the engine)"}
    scores = {name: _num(state.players[name].vp) for name in state.seating}
    return {
        "rules": state.edition, "turn": state.turn, "phase": state.phase, "turn_number": state.turn_number,
        "edge": state.edge, "players": players, "minions": minions,
        "phase_state": {"master_actions": ps.master_actions, "transfers": ps.transfers,
                        "discard_actions": ps.discard_actions, "edge_pool_taken": ps.edge_pool_taken},
        "action": action, "combat": combat,
        "result": {"over": state.result.over, "winner": state.result.winner, "tied": list(state.result.tied),
                   "scores": scores},
        "ousted_order": list(state.ousted_order), "bank": state.bank,
    }


def _num(x: float):
    return int(x) if float(x).is_integer() else x
