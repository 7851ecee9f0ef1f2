"""The table, as immutable values: a transition never changes a state, it returns a new one.

`GameState` holds the seating, every Methuselah (`Player`), every minion and
uncontrolled crypt card (`Minion`), the turn and phase, the Edge, what the
current phase still allows (`PhaseState`), the action in progress (`Action`),
and what an action's resolution can leave open: a combat (`Combat`, after a
successful block or a card's effect), a referendum (`Referendum`, after a
successful political action or a diablerie) and a blocker's chance to
diablerize a vampire that tried to leave torpor (`DiablerieChance`).

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
from typing import Any, NamedTuple, Optional

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
    # what its card gives its employer while it is employed (retainers.py): card_text.Bonus and card_text.Ability
    bonuses: tuple = ()
    abilities: tuple = ()
    unread: tuple[str, ...] = ()  # its card's sentences not read (its employer's unread text while it is employed)


@dataclass(frozen=True)
class Attached:
    """A card on a minion and what it gives it: put on it by its own text (gear.OnVampireText), neither equipment nor
    a retainer (`Minion.attached`); combat._ability_used wraps a borne equipment card's abilities in one too."""

    name: str
    bonuses: tuple = ()  # card_text.Bonus
    abilities: tuple = ()  # card_text.Ability


@dataclass(frozen=True)
class Player:
    name: str
    pool: int = DEFAULT_POOL
    vp: float = 0
    ousted: bool = False
    withdrawn: bool = False
    hand: int = DEFAULT_HAND_SIZE
    hand_size: int = DEFAULT_HAND_SIZE
    hand_bonus: int = 0  # of `hand_size`, what ready vampires' cards and locations in play add now (helpers.hand_size_bonus)
    library: Optional[int] = None  # None: not tracked, a draw always finds a card
    crypt: Optional[int] = None
    # Out-of-turn master cards borrow from the next master phase.
    oot_played: bool = False  # one played since this player's last master phase
    oot_debt: int = 0  # master phase actions already used from the next master phase
    oot_credit: int = 0  # master phase actions an out-of-turn trifle adds to it (its one trifle action)
    # master phase actions a card gives it back for the next master phase (Wash: "... or at the start of their next
    # master phase if the canceled card is an out-of-turn master"), no trifle's (the card's ruling)
    given_actions: int = 0
    # Cards played whose replacement waits for this player's next unlock phase ("Do not replace until ...").
    owed_draws: int = 0
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
    title_capacity: int = 0  # the capacity its title's card adds, lost with the title (titles.take_effect)
    # (the Methuselah, the card's sentence): it unlocks in that Methuselah's next discard phase (a Crusade's "If this
    # vampire is Lasombra, they unlock during your next discard phase.")
    unlocks_at_discard: tuple[()] | tuple[str, str] = ()
    equipment: tuple[str, ...] = ()
    retainers: tuple[Retainer, ...] = ()
    # cards put on it that are neither equipment nor retainers ("Put this card on this vampire.": Heart of the City),
    # with what each gives it
    attached: tuple[Attached, ...] = ()
    recruited: bool = False  # recruited this turn: cannot act this turn
    bled: bool = False  # performed a bleed action this turn
    political: bool = False  # performed a political action this turn
    used: tuple[str, ...] = ()  # action cards / cards in play it acted with this turn
    # its card's sentence keeping it locked at its next unlock phase; None: the table does not say whether it does
    stays_locked: Optional[tuple[str, ...]] = ()
    cannot: tuple[str, ...] = ()  # actions card effects forbid it ("hunt", ...)
    mandatory: tuple[str, ...] = ()  # mandatory actions card effects impose on it
    traits: tuple[str, ...] = ()  # from its card text, lower case: "blood cursed", "red list", ...
    votes: Optional[int] = None  # an Independent's "N votes (titled)", or a title's votes the books do not name
    card_votes: int = 0  # votes its card text gives it beside ("Mithras gets +2 votes."): they make it no titled one
    immune: tuple[str, ...] = ()  # sources of damage it is immune to, lower case, from its card text
    owner: Optional[str] = None  # the Methuselah who owns the card when another controls it (None: its controller)
    # an ally whose card lets it play cards requiring its `disciplines` "as a vampire": its capacity then (the card's,
    # else 1: the book, Minion Cards), for those cards only (0: none)
    as_vampire: int = 0
    # Its crypt text the engine does not read (judge.engine.vtes.card_text): a stop as not modelled where it could matter.
    unread: tuple[str, ...] = ()
    extra_master: int = 0  # master phase actions its text adds to its controller's master phase
    extra_master_when: str = "ready"  # ... while it is "ready" or "unlocked" as the master phase begins
    once: tuple[str, ...] = ()  # cards a card limits to one each turn that it played this turn (+ " at superior"...)
    # its card's bonuses that hold at some times only (judge.engine.vtes.card_text.Bonus: "+1 stealth when hunting")
    bonuses: tuple = ()
    # what else its card says it may or may not do (judge.engine.vtes.card_text.Ability: "cannot block older
    # vampires", "+1 hunt", ...)
    abilities: tuple = ()
    # named by its crypt card, whose text was read: what the card gives it is all it has (a minion described
    # without its card may be said to use an ability, which the engine then takes as described)
    text_read: bool = False

    @property
    def sect_key(self) -> str:
        """Its sect as requirements and titles name it, folded: "anarch" for an Anarch, "" when none is said."""
        return "anarch" if self.anarch else (self.sect or "").casefold()

    @property
    def is_vampire(self) -> bool:
        return self.kind == VAMPIRE

    @property
    def titled(self) -> bool:
        """A title it holds, not contested; an Independent's votes count as one (VEKN book, Vampire sects: "Treat
        these vampires as if they had titles of their own")."""
        return bool(self.title) and not self.title_contested or bool(self.votes)

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
class Card:
    """A unique card in play that is not a minion: a location a Methuselah controls, or a contested equipment card
    (face down and out of play, off its bearer until the contest ends)."""

    name: str
    controller: str
    kind: str  # location | equipment
    bearer: Optional[str] = None  # the minion a contested equipment card was on
    contested: bool = False
    # a location's "+1 hand size.": what it adds to its controller's hand size while in play, and the sentence
    hand_size: int = 0
    said: str = ""
    # a location's "+2 transfers.": what it adds to its controller's transfers each influence phase, and the sentence
    transfers: int = 0
    transfers_said: str = ""
    locked: bool = False  # a location locked for what its card gives (unlocked in its controller's unlock phase)


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
    abilities: tuple[tuple[str, str], ...] = ()  # (minion, its card's sentence) used this action ("Once each action")
    reactions: tuple[tuple[str, str], ...] = ()
    # cards one played forbids beside it this action ("Lost in Crowds and cards named /Into Thin Air/ cannot both be
    # played during the same action"): (the minion that played it, the card it names, the sentence, "vampire" when
    # the limit is the one vampire's, "action" when it is anyone's)
    excluded: tuple[tuple[str, str, str, str], ...] = ()
    bleed_modified: bool = False  # a limited +bleed modifier was played
    payload: Any = None  # what the action brings into play (ally, retainer, equipment...)
    # what its action card's text does as it succeeds (action_effects.ActionText), and the minion it aims at
    success: Any = None
    chosen: Optional[str] = None
    effects: tuple = ()  # described card effects applied on success
    says: Optional[str] = None  # card text given but not modelled
    woken: tuple[str, ...] = ()  # minions that woke during this action: they block and react as though unlocked
    unblockable: Optional[str] = None  # the card that made the action unblockable ("This action is unblockable.")
    unreplaced: tuple[str, ...] = ()  # a player per card played "Do not replace until after this action."
    # minions a card barred from attempting to block this action again ("That attempt fails and the blocking minion
    # cannot attempt to block this action again."): (minion, the card)
    barred: tuple[tuple[str, str], ...] = ()
    # Methuselahs a card barred from attempting to block this action again ("... the blocking minion's controller
    # cannot attempt to block this action again."): (player, the card); counted as having declined
    barred_players: tuple[tuple[str, str], ...] = ()
    # what reactions and modifiers give their minions in the combat if the action is blocked: (minion, card, CombatGrant)
    grants: tuple = ()
    # the reactions and modifiers played this action that are no combat card: (minion, card)
    not_combat: tuple[tuple[str, str], ...] = ()
    # minions a card says cannot block this action ("Titled vampires cannot block this action.", "The chosen vampire
    # cannot block this action."): (the card, its sentence, the minions it names as card_text.Named or the chosen
    # minion's name, the minion that played it: "younger" is told against it)
    cannot_block: tuple = ()
    # a card's "Allies get -1 intercept [during this action]." and "Vampires must burn 1 blood to attempt to block this
    # action.": (the card, its sentence, the minions as card_text.Named, N, the minion that played it)
    intercept_mods: tuple = ()
    block_costs: tuple = ()
    # the first action modifier played that is not played "as the action is announced": those are played before it
    # (the rulings on the cards that are: "Must be played ... before action modifiers that are not explicitly played
    # 'as the action is announced'"); None while there is none
    announce_over: Optional[str] = None
    # what a reaction has its minion burn unless it blocks ("If they do not block this action, they burn 1 blood before
    # action resolution.", Forced Awakening): (minion, blood, the card, its sentence), settled as the action resolves
    unless_blocks: tuple = ()
    # a modifier's "... minions who attempt to block this action and fail become locked before action resolution."
    # (Faceless Night at superior): (the card, its sentence), and the minions whose attempt failed since (or was open
    # as it was played: the rulings), locked as the action resolves
    lock_failed: tuple = ()
    failed_blockers: tuple[str, ...] = ()
    # what a card played during the action lets a minion do later in it ("Once this action, this vampire can burn 1
    # blood to get +1 intercept.": Speak with Spirits at superior): (minion, the card, card_text.Ability)
    granted: tuple = ()

    @property
    def undeclined(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if p not in self.declined)


CHOSEN_RANGE = "chosen"  # (a range a card lets its player set this round, not said yet: Selective Silence)
COMBAT_STEPS = ("before range", "range", "before strikes", "strike", "damage", "press", "end of round")
CLOSE, LONG = "close", "long"


@dataclass(frozen=True)
class Strike:
    """One strike as chosen: its kind, its numbers, and where it comes from."""

    minion: str
    kind: str  # hand | damage | dodge | combat ends | steal blood | destroy equipment | steal equipment
    amount: Optional[int] = 0  # damage, or blood to steal; None: not said (a weapon whose damage is unknown)
    ranged: bool = False  # ranged, or "R" damage: effective at long range too
    aggravated: bool = False
    first: bool = False  # first strike
    source: Optional[str] = None  # the weapon, strike card or ability
    via: str = "hand"  # hand | weapon | card | ability
    retainer: Optional[str] = None  # a retainer of the opposing minion it targets (long range only)
    equipment: Optional[str] = None  # what destroy/steal equipment takes
    unpreventable: bool = False  # its damage cannot be prevented (a strike card says so)
    bonus: int = 0  # a hand strike's damage beyond the striker's strength (a strike card's "at +1 damage")

    @property
    def defensive(self) -> bool:
        return self.kind in ("dodge", "combat ends")

    @property
    def any_range(self) -> bool:
        return self.ranged or self.defensive


@dataclass(frozen=True)
class Damage:
    """Damage inflicted and not yet prevented or mended."""

    victim: str  # the minion
    amount: int
    aggravated: bool = False
    source: str = ""
    retainer: Optional[str] = None  # the victim's retainer that takes it instead
    unpreventable: bool = False


class CombatGrant(NamedTuple):
    """What a reaction or action modifier gives its minion in the combat the action's block begins ("As above, with 1
    optional maneuver during the resulting combat if this vampire blocks.", "If this action is blocked, this vampire
    gets 1 optional maneuver during the first round of the resulting combat.", "If this Anarch is blocked, they get
    +1 strength during the resulting combat.")."""

    kind: str  # "maneuver", "press", "maneuver or press" (one of them), "strength", or "range close|long" (each round of
    # that combat at that range: Neutral Guard)
    amount: int
    first_round: bool  # during the first round of that combat only
    on: str  # "blocks": its minion blocks the action; "blocked": its minion's action is blocked
    sentence: str


class GrantedPress(NamedTuple):
    """A press a strike card gave its minion this round ("Strike: dodge, with an optional press.")."""

    minion: str
    card: str
    use: str  # "continue", "end" (only usable to continue or to end combat) or "any"
    sentence: str  # the card's sentence giving it, quoted when it is refused


@dataclass(frozen=True)
class Combat:
    """A combat between two minions, round by round and step by step (COMBAT_STEPS)."""

    acting: str
    opposing: str
    action: Optional[Action]  # the blocked action; None when a card's effect caused the combat
    round: int = 1
    range: Optional[str] = None  # close by default once the range is determined
    step: str = "before range"
    cause: str = ""
    last_maneuver: Optional[str] = None  # who played the last maneuver this round
    maneuvered: tuple[str, ...] = ()  # minions that maneuvered since the range step began
    committed: tuple[Strike, ...] = ()  # strikes chosen by using a strike card's or weapon's maneuver
    pair: int = 0  # 0: the normal pair of strikes; n: the n-th pair of additional strikes
    chosen: tuple[Strike, ...] = ()  # strikes chosen for the current pair
    later: tuple[Strike, ...] = ()  # strikes resolving after the first strikes of the pair
    extra: tuple[tuple[str, int], ...] = ()  # additional strikes left this round, per minion
    extra_sources: tuple[tuple[str, str], ...] = ()  # (minion, source) used for additional strikes this round
    damage: tuple[Damage, ...] = ()  # inflicted, waiting for prevention and mending
    prevent_done: tuple[str, ...] = ()  # minions that chose not to prevent any more of the pending damage
    environmental: tuple[Damage, ...] = ()  # resolves with the first pair of strikes (current book)
    wounded: tuple[str, ...] = ()  # wounded: going to torpor once that takes effect
    burning: tuple[str, ...] = ()  # being burned: leaves play once that takes effect
    ended: bool = False  # ended prematurely: only the end of the round remains
    last_press: Optional[str] = None
    press: Optional[str] = None  # whose press to continue is uncancelled
    press_done: tuple[str, ...] = ()  # minions that declined to press since the last press
    stolen: tuple[tuple[str, str], ...] = ()  # (minion, equipment) stolen this round: not usable by it this round
    taken: tuple[tuple[str, int], ...] = ()  # damage successfully inflicted on each minion in this combat
    unreplaced: tuple[str, ...] = ()  # a player per card played "Do not replace until after combat"
    granted: tuple[GrantedPress, ...] = ()  # presses strike cards gave this round (a new round starts without)
    # the presses and maneuvers its card gives a minion each combat, used in this combat: (minion, the sentence)
    used_abilities: tuple[tuple[str, str], ...] = ()
    # strength cards played give: (minion, +/-N, the card, "combat" or "round"); a new round keeps the "combat" ones
    strength_mods: tuple[tuple[str, int, str, str], ...] = ()
    aggravated_hands: tuple[tuple[str, str], ...] = ()  # this round, by a card: (minion, the card)
    # cards a card limits to one a vampire each combat or round ("A vampire can play only one Dodge each round."),
    # played in this combat: (minion, the card and its level when the limit names one, round)
    limited: tuple[tuple[str, str, int], ...] = ()
    # what the action card that caused the combat gives its acting minion in it ("This acting minion gets 1 optional
    # maneuver during that combat."): (minion, the card, card_text.Ability), counted as its own card's are
    card_abilities: tuple = ()
    cause_card: Optional[str] = None  # the action card whose effect caused the combat ("(D) Enter combat with ...")
    # a card's "If this vampire was blocked while performing an action, the action continues as if unblocked.",
    # played this round by the blocked vampire (the action's): (the card, the sentence); a new round drops it
    continues: Optional[tuple[str, str]] = None
    # rounds a card set the range of, skipping their determine range step: (the round, 0 for each round, the range,
    # what set it: 'Lam Into ("If another round of combat occurs, that round is at close range ...")')
    set_range: tuple[tuple[int, str, str], ...] = ()
    # a combat-ends strike card's "... and unlock this vampire before combat ends." (Earth Meld at superior), chosen
    # this round: (the minion, the card, the sentence), the minion unlocked as its strike ends the combat
    unlock_on_end: tuple[tuple[str, str, str], ...] = ()
    # a combat-ends strike card's effect after the combat ends ("... the opposing minion burns 1 blood or life after
    # combat ends (even at long range).": Oubliette): (the minion, the card, the sentence, "burn" or "damage", N)
    after_end: tuple[tuple[str, str, str, str, int], ...] = ()
    # the combat stopped at this round's end of round step as it would end (combat.no_press): the end of the events
    # finishes it then, whatever was played there
    stopped_at_end: bool = False

    def extra_of(self, name: str) -> int:
        return dict(self.extra).get(name, 0)

    def uses(self, minion: str, key: str) -> int:
        """How many times `minion` used what `key` names this combat (`used_abilities`)."""
        return sum(1 for who, k in self.used_abilities if who == minion and k == key)

    def other(self, name: str) -> str:
        return self.opposing if name == self.acting else self.acting

    def fixed_range(self) -> Optional[tuple[int, str, str]]:
        """The range a card set for the current round (`set_range`; CHOSEN_RANGE: its player's, not said yet), or
        None: the round has its range step."""
        return next((x for x in self.set_range if x[0] in (0, self.round)), None)


@dataclass(frozen=True)
class Vote:
    player: str
    source: str  # a vampire, "the Edge", a card's name
    kind: str  # vampire | edge | calling card | political card | card | ballot
    side: str  # for | against
    count: int


@dataclass(frozen=True)
class Referendum:
    """A referendum: its terms step, then polling; it resolves when the polling closes."""

    kind: str  # political | blood hunt
    caller: str  # the acting vampire, or the diablerist a blood hunt is called on
    player: str  # the caller's controller
    card: Optional[str] = None  # the political action card that called it
    step: str = "terms"  # terms | polling
    effects: tuple = ()  # CardEffects that take place if it passes
    says: Optional[str] = None  # what passing does, described and not applied
    votes: tuple[Vote, ...] = ()
    card_voters: tuple[str, ...] = ()  # Methuselahs whose vote from political action cards is used
    # votes cards gave vampires in this referendum ("This vampire gets +2 votes."): (vampire, card, votes)
    granted: tuple[tuple[str, str, int], ...] = ()
    # the political action that called it (resolving with it: what was played during it, its cards not replaced
    # until after it); None for a blood hunt
    action: Optional[Action] = None
    chosen: Optional[str] = None  # the vampire its terms choose (a title card's "Choose a ready Brujah.")
    allocated: tuple[tuple[str, int], ...] = ()  # the points its terms allocate: (Methuselah, points)
    selected: Optional[str] = None  # the Methuselah its terms select ("Select the Methuselah with the Edge.")

    def total(self, side: str) -> int:
        return sum(v.count for v in self.votes if v.side == side and v.kind != "ballot")

    def prisci(self) -> Optional[str]:
        """The side the prisci block of 3 votes is cast for, or None (no ballots, or a tie)."""
        ballots = {s: sum(v.count for v in self.votes if v.kind == "ballot" and v.side == s) for s in ("for", "against")}
        if ballots["for"] == ballots["against"]:
            return None
        return "for" if ballots["for"] > ballots["against"] else "against"


@dataclass(frozen=True)
class DiablerieChance:
    """A vampire blocked a vampire leaving torpor: no combat, but it may diablerize it."""

    blocker: str
    victim: str
    action: Action


@dataclass(frozen=True)
class PhaseState:
    """What the current phase still allows; reset when a phase begins."""

    master_actions: int = 1
    trifle_used: bool = False
    transfers: int = FULL_TRANSFERS
    discard_actions: int = 1
    edge_pool_taken: bool = False
    paid: tuple[str, ...] = ()  # contested cards/titles paid for or yielded this unlock phase
    burn_options: tuple[str, ...] = ()  # Methuselahs who discarded a card for its burn option this unlock phase
    hunting: tuple[tuple[str, str], ...] = ()  # (hunting ground, vampire): blood gained from one this unlock phase


@dataclass(frozen=True)
class Result:
    over: bool = False
    winner: Optional[str] = None
    tied: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolved:
    """The action that has just resolved, while cards "only usable after resolution" of it may be played (As the
    Crow, Freak Drive): from its resolution (a blocked action's once its combat is over, a political action's once
    its referendum's polling closes) until the next action is announced or the phase ends."""

    actor: str
    player: str
    kind: str  # as Action.kind
    summary: str
    directed: bool
    successful: bool
    blocked: bool = False
    passed: Optional[bool] = None  # a political action: whether its referendum passed
    # the action modifiers played during it, (minion, card): the moment after resolution is its last step, so none
    # of them is played again (the non-repeat rule)
    modifiers: tuple[tuple[str, str], ...] = ()
    # a player per card played "Do not replace until after this action.": replaced as this moment closes (the ruling:
    # "The card is replaced after all "after resolution" cards and effects"; helpers.close_resolution)
    unreplaced: tuple[str, ...] = ()
    blocker: Optional[str] = None  # a blocked action's: the minion that blocked it
    # the reactions played during it and after its resolution, (minion, card): a minion plays the same reaction once
    reactions: tuple[tuple[str, str], ...] = ()
    margin: int = 0  # a political action's: the votes for less the votes against, as the polling closed

    @classmethod
    def of(cls, a: "Action", successful: bool, blocked: bool = False, passed: Optional[bool] = None,
           blocker: Optional[str] = None, margin: int = 0) -> "Resolved":
        return cls(a.actor, a.player, a.kind, a.summary, a.directed, successful, blocked, passed, a.modifiers,
                   a.unreplaced, blocker, a.reactions, margin)


@dataclass(frozen=True)
class GameState:
    edition: str  # the rules edition replayed under: citations.CURRENT or citations.OLDER
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
    referendum: Optional[Referendum] = None
    chance: Optional[DiablerieChance] = None
    result: Result = field(default_factory=Result)
    ousted_order: tuple[str, ...] = ()
    red_list: tuple[tuple[str, int], ...] = ()  # (minion, turn number) marked by a master phase action
    cards: tuple[Card, ...] = ()  # locations in play, and contested equipment (situations.py)
    resolved: Optional[Resolved] = None  # the action that has just resolved (cards usable after resolution)
    # the equipment cards (not weapons) the scenario names, read (gear.GearText): (card name, its text), looked up by
    # the names on minions (`Minion.equipment`)
    gear: tuple = ()

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

    def put_combat(self, **changes: Any) -> "Combat":
        c = evolve(self.combat, **changes)
        self.set(combat=c)
        return c

    def put_referendum(self, **changes: Any) -> "Referendum":
        r = evolve(self.referendum, **changes)
        self.set(referendum=r)
        return r

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
            "locations": [c.name for c in state.cards if c.controller == name and c.kind == "location"
                          and not c.contested],
            "contested_cards": [c.name for c in state.cards if c.controller == name and c.contested],
        }
    minions = {}
    for m in state.minions.values():
        entry = {
            "controller": m.controller, "type": m.kind, "region": m.region, "locked": m.locked,
            "strength": m.strength, "bleed": m.bleed,
            "equipment": list(m.equipment), "retainers": {r.name: r.life for r in m.retainers},
            "attached": [x.name for x in m.attached],
        }
        if m.is_vampire:
            entry.update(capacity=m.capacity, blood=m.blood, clan=m.clan, sect=m.sect, title=m.title,
                         anarch=m.anarch, title_contested=m.title_contested, disciplines=list(m.disciplines))
        else:
            entry.update(life=m.blood, recruited=m.recruited)
        entry.update(contested=m.contested, infernal=m.infernal, traits=list(m.traits), votes=m.votes,
                     owner=m.owner or m.controller)
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
        combat = {"acting": c.acting, "opposing": c.opposing, "action": c.action.summary if c.action else None,
                  "cause": c.cause, "round": c.round, "range": c.range, "step": c.step, "pair": c.pair,
                  "ended": c.ended, "press": c.press,
                  "additional_strikes": {m: n for m, n in c.extra if n},
                  "damage_taken": {m: n for m, n in c.taken},
                  "wounded": list(c.wounded), "burning": list(c.burning),
                  "pending_damage": [{"victim": x.victim, "amount": x.amount, "aggravated": x.aggravated,
                                      "retainer": x.retainer} for x in c.damage]}
    referendum = None
    if state.referendum:
        r = state.referendum
        prisci = r.prisci()
        referendum = {"kind": r.kind, "caller": r.caller, "player": r.player, "card": r.card, "step": r.step,
                      "for": r.total("for") + (3 if prisci == "for" else 0),
                      "against": r.total("against") + (3 if prisci == "against" else 0),
                      "prisci": prisci, "votes": [{"player": v.player, "source": v.source, "kind": v.kind,
                                                   "side": v.side, "count": v.count} for v in r.votes]}
    chance = None
    if state.chance:
        chance = {"blocker": state.chance.blocker, "victim": state.chance.victim}
    r = state.resolved
    resolved = None if r is None else {"actor": r.actor, "kind": r.kind, "summary": r.summary,
                                       "successful": r.successful, "blocked": r.blocked, "passed": r.passed,
                                       "blocker": r.blocker, "margin": r.margin}
    scores = {name: _num(state.players[name].vp) for name in state.seating}
    return {
        "rules": state.edition, "turn": state.turn, "phase": state.phase, "turn_number": state.turn_number,
        "edge": state.edge, "players": players, "minions": minions,
        "phase_state": {"master_actions": ps.master_actions, "transfers": ps.transfers,
                        "discard_actions": ps.discard_actions, "edge_pool_taken": ps.edge_pool_taken},
        "action": action, "combat": combat, "referendum": referendum, "diablerie_chance": chance,
        "resolved": resolved,
        "result": {"over": state.result.over, "winner": state.result.winner, "tied": list(state.result.tied),
                   "scores": scores},
        "ousted_order": list(state.ousted_order), "bank": state.bank,
    }


def _num(x: float):
    return int(x) if float(x).is_integer() else x
