"""The Rivals table as data: players (Prestige, Agenda, cards, Rival), vampires (Blood Potency, Blood,
attributes, location, attachments), the mortals and cards of The Streets, the turn (phase, step, actions
left) and what is open (an attack, a Prince claim, a Scheme), the Conspiracies, and the game's result.

A transition works on a copy (`GameState.copy`) and the given state is never changed, so a refused move
leaves the table as it was. `to_json` is the `state` object of `judge check --json` for a Rivals scenario
and the view the expectations read.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

HAVEN, STREETS, TORPOR = "haven", "streets", "torpor"
LOCATIONS = (HAVEN, STREETS, TORPOR)
ATTACK_TYPES = ("physical", "social", "mental", "ranged")
# The turn: each step with its phase, in the book's order (Turn Sequence).
STEPS = (("beginning", "city_deck"), ("beginning", "start_of_turn"), ("beginning", "ready_return"),
         ("action", "actions"),
         ("end", "torpor_mending"), ("end", "end_of_turn"), ("end", "antagonist"), ("end", "draw"))
STEP_NAMES = tuple(s for _, s in STEPS)
PHASES = ("beginning", "action", "end")
PHASE_OF = {s: p for p, s in STEPS}
WIN_AGENDA = 13
START_PRESTIGE = 20


@dataclass
class Attachment:
    name: str
    kind: str = "retainer"  # retainer, title, other
    exhausted: bool = False
    physical: int = 0  # attribute bonuses it grants
    social: int = 0
    mental: int = 0
    prevent: int = 0  # damage it prevents when exhausted (a Vagrant: 1)
    influence: int = 0  # Influence it grants (a Title)
    unique: bool = True  # a Title's uniqueness (Primogen: one per player)


@dataclass
class Vampire:
    name: str
    controller: str
    bp: int
    blood: int
    physical: int = 0
    social: int = 0
    mental: int = 0
    clan: Optional[str] = None
    disciplines: tuple = ()
    location: str = HAVEN
    exhausted: bool = False
    leader: bool = False
    guard: bool = False
    influence: int = 0  # Influence from its own text, beyond its Leader token and Title
    no_influence: bool = False
    party: int = 0  # in The Streets: the party it is in (in a Haven, the Haven is one party)
    attachments: list = field(default_factory=list)
    secrecy: int = 0  # Secrecy from its own text, beyond its Haven's

    @property
    def active(self) -> bool:
        return self.location != TORPOR

    @property
    def title(self) -> Optional[Attachment]:
        return next((a for a in self.attachments if a.kind == "title"), None)

    def attribute(self, kind: str) -> int:
        key = "physical" if kind == "ranged" else kind
        return getattr(self, key) + sum(getattr(a, key) for a in self.attachments)

    def total_influence(self) -> int:
        if not self.active or self.no_influence:
            return 0
        return (1 if self.leader else 0) + self.influence + sum(a.influence for a in self.attachments)


@dataclass
class Mortal:
    """A City Deck card in The Streets that can be attacked: a Vagrant, a Citizen, a Special Affairs Division."""

    name: str
    blood: int
    kind: str = "citizen"  # vagrant, citizen, sad
    agenda: int = 0
    mend: Optional[int] = None  # what Burn mends the attacker by, as the card lists it
    prevent: int = 0  # what it prevents once attached as a Retainer (a Vagrant)


@dataclass
class Player:
    name: str
    number: int
    prestige: int = START_PRESTIGE
    agenda: int = 0
    hand: int = 6
    library: Optional[int] = None  # not tracked when absent: a draw always finds a card
    faction: Optional[int] = None
    rival: Optional[str] = None  # the player whose number is on this player's Rival token
    knocked_out: bool = False
    played_first_turn: bool = True


@dataclass
class Attack:
    """An attack under way (the Attack Sequence's steps)."""

    attacker: str
    target: str  # a vampire's or a mortal's name
    original: str
    kind: str
    step: int  # the Attack Sequence's step the attack is at
    card: Optional[dict] = None
    blocker: Optional[str] = None
    reaction: Optional[dict] = None
    reactor: Optional[str] = None
    bonus: int = 0  # damage added by abilities (step 9)
    prevent: int = 0  # damage prevented on the target by its side's abilities (step 11)
    defender_acted: bool = False
    claim: bool = False  # an attack on a Prince claimant
    on_defeat: Optional[dict] = None  # a described effect when it defeats its target
    mortal_choice: Optional[str] = None
    intel: int = 0


@dataclass
class Claim:
    claimant: str
    attacked_by: list = field(default_factory=list)  # the foes who attacked, in turn order


@dataclass
class Scheme:
    card: str
    actor: str
    effect: Optional[dict] = None
    says: Optional[str] = None
    order: list = field(default_factory=list)  # the players to declare, clockwise from the active one
    declared: list = field(default_factory=list)  # [{player, side, visible, secret_modifier, secret_prestige}]


@dataclass
class Conspiracy:
    card: str
    controller: str
    required: int
    tokens: dict = field(default_factory=dict)  # player -> Prestige they put on it
    shown: list = field(default_factory=list)  # players it was revealed to
    played_turn: int = 0
    added_this_turn: list = field(default_factory=list)


@dataclass
class Result:
    over: bool = False
    winner: Optional[str] = None
    reason: Optional[str] = None
    knocked_out: list = field(default_factory=list)


@dataclass
class GameState:
    seating: tuple  # player names in turn order: Player 1 first, each one's left is the next
    players: dict
    vampires: dict
    mortals: dict = field(default_factory=dict)
    turn: str = ""
    step: str = "actions"
    turn_number: int = 5  # the game's count of turns begun
    actions_left: int = 2
    prince: str = "deck"  # deck, streets, or the vampire holding it
    ongoing_events: list = field(default_factory=list)  # [name, player whose token is on it]
    streets_cards: list = field(default_factory=list)  # other City Deck cards in The Streets, by name
    city_deck: Optional[int] = None
    city_discard: int = 0
    city_placed: int = 0  # cards placed during this City Deck step
    used_abilities: list = field(default_factory=list)  # ability keys used this turn
    mended: list = field(default_factory=list)  # vampires mended during this Torpor and Mending step
    drawn_in_step: int = 0
    sad_assigned: int = 0
    attack: Optional[Attack] = None
    claim: Optional[Claim] = None
    scheme: Optional[Scheme] = None
    conspiracies: dict = field(default_factory=dict)
    next_party: int = 1
    ongoing_cards: list = field(default_factory=list)  # Ongoing Action cards in play: [name, controller]
    first_turn_city: bool = False  # the first player's first turn: one City Deck card per player
    blame: dict = field(default_factory=dict)  # during one event: player -> the player who made them lose
    result: Result = field(default_factory=Result)

    @property
    def phase(self) -> str:
        return PHASE_OF[self.step]

    def copy(self) -> "GameState":
        """A copy a transition may change: every mutable part copied (a card's description, a dict the events
        give, is never changed and is shared). copy.deepcopy did the same at ten times the cost."""
        c = _shallow
        new = c(self)
        new.players = {k: c(p) for k, p in self.players.items()}
        new.vampires = {}
        for k, v in self.vampires.items():
            w = c(v)
            w.attachments = [c(a) for a in v.attachments]
            new.vampires[k] = w
        new.mortals = {k: c(m) for k, m in self.mortals.items()}
        for name in ("ongoing_events", "streets_cards", "used_abilities", "mended", "ongoing_cards"):
            setattr(new, name, list(getattr(self, name)))
        new.blame = dict(self.blame)
        if self.attack is not None:
            new.attack = c(self.attack)
        if self.claim is not None:
            new.claim = c(self.claim)
            new.claim.attacked_by = list(self.claim.attacked_by)
        if self.scheme is not None:
            new.scheme = c(self.scheme)
            new.scheme.declared = list(self.scheme.declared)
        new.conspiracies = {}
        for k, plot in self.conspiracies.items():
            d = c(plot)
            d.tokens, d.shown, d.added_this_turn = dict(plot.tokens), list(plot.shown), list(plot.added_this_turn)
            new.conspiracies[k] = d
        new.result = c(self.result)
        new.result.knocked_out = list(self.result.knocked_out)
        return new

    def next_player(self, name: str) -> str:
        i = self.seating.index(name)
        for k in range(1, len(self.seating) + 1):
            p = self.seating[(i + k) % len(self.seating)]
            if not self.players[p].knocked_out:
                return p
        return name

    def coterie(self, player: str) -> list:
        return [v for v in self.vampires.values() if v.controller == player and v.active]

    def sad_count(self) -> int:
        return sum(1 for m in self.mortals.values() if m.kind == "sad")


def _shallow(obj):
    """A shallow copy of a dataclass instance (copy.copy's protocol costs four times as much)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def to_json(st: GameState) -> dict:
    def vampire(v: Vampire) -> dict:
        out = asdict(v)
        out["attachments"] = [a.name for a in v.attachments]
        out["title"] = v.title.name if v.title else None
        out["influence"] = v.total_influence()
        out["wounded"] = v.blood * 2 <= v.bp
        out["disciplines"] = list(v.disciplines)
        return out

    return {
        "game": "rivals",
        "turn": st.turn, "phase": st.phase, "step": st.step, "turn_number": st.turn_number,
        "actions_left": st.actions_left, "prince": st.prince,
        "players": {p: asdict(pl) for p, pl in st.players.items()},
        "vampires": {n: vampire(v) for n, v in st.vampires.items()},
        "mortals": {n: asdict(m) for n, m in st.mortals.items()},
        "streets": sorted(list(st.mortals) + list(st.streets_cards) + [e for e, _ in st.ongoing_events]
                          + (["Prince of the City"] if st.prince == "streets" else [])),
        "ongoing_events": [{"name": e, "token": p} for e, p in st.ongoing_events],
        "city_deck": st.city_deck,
        "conspiracies": {n: {**asdict(c), "total": sum(c.tokens.values())} for n, c in st.conspiracies.items()},
        "attack": asdict(st.attack) if st.attack else None,
        "claim": asdict(st.claim) if st.claim else None,
        "scheme": asdict(st.scheme) if st.scheme else None,
        "result": asdict(st.result),
        "winner": st.result.winner, "over": st.result.over,
    }


def summary(st: GameState) -> str:
    parts = [f"{st.turn}'s {st.phase} phase, {st.step.replace('_', ' ')} step (turn {st.turn_number})"]
    if st.step == "actions":
        parts[0] += f", {st.actions_left} action{'s' if st.actions_left != 1 else ''} left"
    players = []
    for name, p in st.players.items():
        if p.knocked_out:
            players.append(f"{name} knocked out")
        else:
            players.append(f"{name} {p.prestige} Prestige, {p.agenda} Agenda")
    parts.append("; ".join(players))
    vs = []
    for v in st.vampires.values():
        flags = [v.location] + (["exhausted"] if v.exhausted else []) + ([v.title.name] if v.title else [])
        vs.append(f"{v.name} ({v.controller}, {v.blood}/{v.bp} Blood, {', '.join(flags)})")
    if vs:
        parts.append("vampires: " + "; ".join(vs))
    if st.attack:
        parts.append(f"attack: {st.attack.attacker} on {st.attack.target} ({st.attack.kind}), step {st.attack.step}")
    if st.scheme:
        parts.append(f"scheme {st.scheme.card}: {len(st.scheme.declared)} of {len(st.scheme.order)} declared")
    if st.result.over:
        parts.append(f"game over: winner {st.result.winner}")
    return " | ".join(parts)
