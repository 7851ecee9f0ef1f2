"""Every event the engine knows: what happens at the table, as typed values (data only).

An event is what a scenario's line says happened ("Belinde bleeds Alexis" is `Bleed(actor="Belinde",
target="Alexis")`). How each is written, as a sentence or a structured mapping, is in the forms modules
(grammar.py joins them); which handler applies it is registry.py; which open stage it may come in is
stages.py. The events come in the order of docs/scenarios.md: the turn and actions, combat and damage,
torpor and diablerie, politics.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


# -- an event, and the values events carry -----------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Event:
    line: int = 0  # the scenario's line that wrote it
    text: str = ""  # as written, shown in the trace

    def describe(self) -> str:
        return self.text or type(self).__name__


@dataclass(frozen=True, kw_only=True)
class Cost:
    blood: int = 0
    pool: int = 0


@dataclass(frozen=True, kw_only=True)
class CardEffect:
    """A card's effect as the scenario describes it: counters and lock changes."""

    pool: tuple[tuple[str, int], ...] = ()  # (player, delta); delta None: all of it
    blood: tuple[tuple[str, int], ...] = ()  # (minion, delta): blood or life
    lock: tuple[str, ...] = ()
    unlock: tuple[str, ...] = ()
    hand_size: tuple[tuple[str, int], ...] = ()
    redirect: Optional[str] = None  # the Methuselah the bleed in progress is redirected to


# -- the turn, its phases and the actions -----------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class GoToPhase(Event):
    phase: str
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class EndTurn(Event):
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class TurnOf(Event):
    player: str
    next: bool = False  # "Sarah's next turn": at least one full turn passes


@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class EdgePool(Event):
    player: str


@dataclass(frozen=True, kw_only=True)
class ContestCard(Event):
    player: str
    card: str
    pay: bool  # False: yield


@dataclass(frozen=True, kw_only=True)
class ContestTitle(Event):
    minion: str
    pay: bool


@dataclass(frozen=True, kw_only=True)
class UnlockInfernal(Event):
    player: str
    minion: str


@dataclass(frozen=True, kw_only=True)
class Withdraw(Event):
    player: str


@dataclass(frozen=True, kw_only=True)
class MasterCard(Event):
    player: str
    card: Optional[str] = None
    trifle: bool = False
    out_of_turn: bool = False
    cost_pool: int = 0
    location: bool = False  # the card is a location: it stays in play under its Methuselah
    unique: bool = False  # ... a unique one
    hand_size: tuple[int, str] = (0, "")  # ... adding to its controller's hand size ("+1 hand size."): N, the sentence
    transfers: tuple[int, str] = (0, "")  # ... adding to its controller's transfers ("+2 transfers."): N, the sentence
    replaced: bool = True  # False: "Do not replace until your next unlock phase."


@dataclass(frozen=True, kw_only=True)
class Bleed(Event):
    actor: str
    target: Optional[str] = None
    amount: Optional[int] = None  # "for N": checked against the minion's bleed


@dataclass(frozen=True, kw_only=True)
class Hunt(Event):
    actor: str


@dataclass(frozen=True, kw_only=True)
class Equip(Event):
    actor: str
    item: str
    source: Optional[str] = None  # another minion of the same Methuselah
    cost: Cost = field(default_factory=Cost)
    more: tuple[str, ...] = ()  # further equipment taken in the same action (only from another minion)
    unique: bool = False  # the equipment card is unique (its text says so)


@dataclass(frozen=True, kw_only=True)
class Employ(Event):
    actor: str
    retainer: str
    life: int = 1
    cost: Cost = field(default_factory=Cost)
    bonuses: tuple = ()  # what a retainer card gives its employer (retainers.RetainerText): card_text.Bonus
    abilities: tuple = ()  # ... card_text.Ability
    unread: tuple[str, ...] = ()  # ... its sentences not read: the employer's unread text once employed


@dataclass(frozen=True, kw_only=True)
class Recruit(Event):
    actor: str
    ally: str
    life: int = 1
    bleed: int = 1
    strength: int = 1
    stealth: Optional[int] = None  # "at +1 stealth" as announced
    cost: Cost = field(default_factory=Cost)
    unread: tuple[str, ...] = ()  # the ally card's sentences the engine does not read (its abilities)
    # what the ally card gives it (allies.AllyText), as a crypt card gives its vampire
    own_stealth: int = 0
    own_intercept: int = 0
    bonuses: tuple = ()
    abilities: tuple = ()
    disciplines: tuple[str, ...] = ()  # played at the basic level, "as a vampire"
    as_vampire: int = 0  # ... its capacity then ("with a capacity of 3")
    acts_at_once: bool = False  # "can perform actions the turn it is recruited."
    text_read: bool = False  # named by its card, read


@dataclass(frozen=True, kw_only=True)
class BecomeAnarch(Event):
    actor: str


@dataclass(frozen=True, kw_only=True)
class ActionCard(Event):
    actor: str
    card: Optional[str] = None
    via: Optional[str] = None  # a card in play provides the action
    as_: Optional[str] = None  # "bleed" | "hunt": a special version of a basic action
    targets: tuple[str, ...] = ()  # Methuselahs it is directed at
    directed: Optional[bool] = None
    stealth: int = 0
    bleed: int = 0
    hunt: int = 0
    any_target: bool = False  # the card allows bleeding a Methuselah other than the prey
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None
    says: Optional[str] = None
    puts_vampire: bool = False  # the action puts a new vampire in play (a sterile vampire cannot perform it)
    # what the card's text does as the action succeeds (action_effects.ActionText), and the minion it aims at
    success: Any = None
    chosen: Optional[str] = None
    unreplaced: bool = False  # its "Do not replace until after this action."
    cannot_block: tuple = ()  # its "Titled vampires cannot block this action.": state.Action.cannot_block's entries
    intercept_mods: tuple = ()  # its "Allies get -1 intercept.": state.Action.intercept_mods's entries
    block_costs: tuple = ()  # its "Vampires must burn 1 blood to attempt to block this action."


@dataclass(frozen=True, kw_only=True)
class Political(Event):
    actor: str
    card: Optional[str] = None
    cost: Cost = field(default_factory=Cost)
    effect: Optional["CardEffect"] = None  # what passing the referendum does, as the card says
    says: Optional[str] = None  # the same, described and not applied
    title_card: Any = None  # a title card read (titles.TitleCard): what passing does, from the card's text
    referendum_text: Any = None  # ... or its referendum read (referendum_effects.ReferendumText)


@dataclass(frozen=True, kw_only=True)
class Unmodelled(Event):
    """An event the rules cover and this engine does not: replaying it stops."""

    what: str
    rules: tuple[str, ...] = ()  # names of citations.Rule constants


@dataclass(frozen=True, kw_only=True)
class Modifier(Event):
    minion: str
    card: Optional[str] = None
    stealth: int = 0
    bleed: int = 0
    hunt: int = 0
    limited: Optional[bool] = None  # None: +bleed modifiers are limited unless said otherwise
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None
    by_other: bool = False  # a card another ready vampire of the acting Methuselah plays (the card says so)
    unblockable: bool = False  # "This action is unblockable."
    # "That attempt fails and the blocking minion cannot attempt to block this action again." (the card's sentences):
    # the block attempt in progress fails; `bars` who may not attempt again ("minion", its "controller", or "")
    fails_attempt: str = ""
    bars: str = ""
    blocker_intercept: int = 0  # "The blocking minion gets -N intercept." (the attempt in progress)
    grant: Any = None  # state.CombatGrant: what it gives the acting minion in the combat if the action is blocked
    combat_type: bool = False  # the card is a combat card too (another copy may be played in the combat)
    replaced: bool = True  # False: "Do not replace until your next unlock phase."
    cannot_block: tuple = ()  # "Vampires cannot block this action.", ...: state.Action.cannot_block's entries
    intercept_mods: tuple = ()  # "Allies get -1 intercept.": state.Action.intercept_mods's entries
    block_costs: tuple = ()  # "Vampires must burn 1 blood to attempt to block this action.": state.Action.block_costs's
    any_stealth: bool = False  # "+1 stealth, even if stealth is not yet needed."
    lock_failed: str = ""  # "... minions who attempt to block this action and fail become locked before action resolution."
    as_announced: bool = False  # "Only usable as the action is announced."
    grant_to_actor: bool = False  # its `grant` is the acting minion's ("The acting ally ... gets +1 strength ...")
    # "Unlock this vampire, and the action ends (unsuccessfully).": the sentence, and its locks ((who, "lock" or
    # "unlock"); who: "self", "blocker" or "actor")
    ends_action: str = ""
    end_locks: tuple = ()
    end_how: str = ""  # "fails", "resolved" or "ended" (actions.end_unsuccessfully)


@dataclass(frozen=True, kw_only=True)
class Reaction(Event):
    minion: str
    card: Optional[str] = None
    intercept: int = 0
    to: Optional[str] = None  # the minion the intercept goes to (default: the one playing it)
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None
    bleed: int = 0  # a reduction of the bleed (negative)
    redirect: Optional[str] = None  # the Methuselah the bleed is redirected to
    wake: bool = False  # the minion wakes: blocks and reacts as though unlocked for the rest of the action
    replaced: bool = True  # False: the card is not replaced until its player's next unlock phase (the card says so)
    locked_ok: bool = False  # the card is "Usable by a locked vampire": played while locked, the minion stays locked
    locked_by: str = ""  # the card's sentence that lets a locked minion play it (default: "Usable by a locked vampire")
    after_action: bool = False  # "Do not replace until after this action."
    unlock_block: bool = False  # "This vampire unlocks and attempts to block.": played locked, then unlocks and blocks
    # "This reacting vampire attempts to block the current action, ignoring the normal prey, predator or target
    # restrictions for blocking actions." (the sentence): it attempts to block, whoever the action may be blocked by
    block_any: str = ""
    # "Once this action, this vampire can burn 1 blood to get +1 intercept.": card_text.Ability, its minion's later
    granted_ability: Any = None
    grant: Any = None  # state.CombatGrant: what it gives its minion in the combat if that minion blocks
    combat_type: bool = False  # the card is a combat card too (another copy may be played in the combat)
    ends_action: str = ""  # "Lock this vampire and end the action.": as a modifier's
    end_locks: tuple = ()
    end_how: str = ""
    unless_blocks: tuple = ()  # "If they do not block this action, they burn 1 blood ...": (blood, the sentence)


@dataclass(frozen=True, kw_only=True)
class Block(Event):
    blocker: str
    # a card's "..., ignoring the normal prey, predator or target restrictions for blocking actions." (the card and
    # its sentence): the Methuselah's right to block is not asked, the rest is (its rulings)
    anyone: tuple[str, str] = ()


@dataclass(frozen=True, kw_only=True)
class Decline(Event):
    player: Optional[str] = None  # None: every Methuselah who may still block


@dataclass(frozen=True, kw_only=True)
class TransferPool(Event):
    player: str
    vampire: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class TransferBack(Event):
    player: str
    vampire: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class CryptDraw(Event):
    player: str
    vampire: str
    capacity: int
    props: tuple[tuple[str, Any], ...] = ()  # clan, sect, title...


@dataclass(frozen=True, kw_only=True)
class Influence(Event):
    player: str
    vampire: str


@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    player: str
    event_card: bool = False


@dataclass(frozen=True, kw_only=True)
class Effect(Event):
    """A card effect described by the scenario (Golden Rule): applied as said."""

    effect: CardEffect
    source: Optional[str] = None


# -- combat and damage -------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class StrikeSpec:
    """What a strike does, as a scenario describes it (before the engine knows its source)."""

    kind: Optional[str] = None  # None: decided by the numbers (damage) or the source (hand)
    amount: Optional[int] = None
    ranged: bool = False
    aggravated: bool = False
    first: bool = False
    equipment: Optional[str] = None
    bonus: int = 0  # a hand strike's damage beyond the striker's strength ("Strike: hand strike at +1 damage.")
    unpreventable: bool = False  # its damage cannot be prevented ("Strike: 2R unpreventable damage.")


@dataclass(frozen=True, kw_only=True)
class EnterCombat(Event):
    """A card's effect makes two minions enter combat (the first one is the acting minion)."""

    minion: str
    other: str
    source: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class Maneuver(Event):
    minion: str
    to: Optional[str] = None  # the range it moves to, as said (checked)
    source: Optional[str] = None  # a weapon, a maneuver card, a strike card, an ability
    via: Optional[str] = None  # weapon | card | strike card | ability; None: decided from the source
    strike: Optional[StrikeSpec] = None  # what the strike card or weapon strikes for, if said
    cost: Cost = field(default_factory=Cost)
    unreplaced: bool = False  # a card that says "Do not replace until after combat."
    weapon: Any = None  # the weapon card `source` names, read (weapons.WeaponText)


@dataclass(frozen=True, kw_only=True)
class NoManeuver(Event):
    minion: Optional[str] = None  # None: nobody maneuvers any more, the range is set
    range: Optional[str] = None  # "the range is set to long": checked


@dataclass(frozen=True, kw_only=True)
class ChooseStrike(Event):
    minion: str
    spec: StrikeSpec = field(default_factory=StrikeSpec)
    source: Optional[str] = None
    via: Optional[str] = None  # None: a weapon if the minion has it, else a card from the hand
    retainer: Optional[str] = None  # a retainer of the opposing minion, struck instead of it
    cost: Cost = field(default_factory=Cost)
    unreplaced: bool = False  # a card that says "Do not replace until after combat."
    weapon: Any = None  # the weapon card `source` names, read (weapons.WeaponText)


@dataclass(frozen=True, kw_only=True)
class AggravateHands(Event):
    """A vampire burns blood, as its own card allows, for aggravated hand strikes this round ("Once each round,
    Crossbreaker can burn 1 blood to make the damage from his hand strikes aggravated that round.")."""

    minion: str
    blood: Optional[int] = None  # as the scenario says it; None: as the card says


@dataclass(frozen=True, kw_only=True)
class GainStrikes(Event):
    minion: str
    count: int
    source: Optional[str] = None
    cost: Cost = field(default_factory=Cost)  # a card's (Blur's 1 blood), paid as it is played
    unreplaced: bool = False  # a card that says "Do not replace until after combat."


@dataclass(frozen=True, kw_only=True)
class Prevent(Event):
    minion: str
    amount: int
    aggravated: Optional[bool] = None  # which damage it prevents when both kinds are pending
    source: Optional[str] = None
    cost: Cost = field(default_factory=Cost)
    unreplaced: bool = False  # a card that says "Do not replace until after combat."


@dataclass(frozen=True, kw_only=True)
class Press(Event):
    minion: str
    to_continue: bool = True  # False: a press to end combat
    source: Optional[str] = None
    cost: Cost = field(default_factory=Cost)
    unreplaced: bool = False  # a card that says "Do not replace until after combat."
    # the source, a combat card of the card base none of whose lines is a press card (cards.Catalog.no_press): quoted
    no_press: str = ""


@dataclass(frozen=True, kw_only=True)
class NoPress(Event):
    minion: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class NoPrevent(Event):
    minion: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class CombatOver(Event):
    """Nothing more is played in this combat: its remaining steps go by default until it is over."""


@dataclass(frozen=True, kw_only=True)
class InflictDamage(Event):
    """Damage from a card or effect, not from the opposing minion's strike (environmental)."""

    minion: str
    normal: int = 0
    aggravated: int = 0
    source: Optional[str] = None


# -- torpor and diablerie ----------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class LeaveTorpor(Event):
    actor: str
    card: Optional[str] = None  # a card version of the action costs what the card costs
    cost: Optional[Cost] = None  # None: the default 2 blood


@dataclass(frozen=True, kw_only=True)
class Rescue(Event):
    actor: str
    target: str
    rescued_pays: int = 0  # of the cost, announced with the action; the rescuer pays the rest
    cost: Optional[Cost] = None  # None: the default 2 blood


@dataclass(frozen=True, kw_only=True)
class Diablerize(Event):
    """A diablerie action, or (just after a blocked leave torpor) the blocker's diablerie."""

    actor: str
    victim: str
    take: tuple[str, ...] = ()  # equipment the diablerist takes
    take_all: bool = False
    discipline: Optional[str] = None  # a Discipline the diablerist gains (the victim was older)
    capacity: int = 0  # capacity the Discipline card gives, when the scenario says so (current book)


@dataclass(frozen=True, kw_only=True)
class NoDiablerie(Event):
    minion: Optional[str] = None


# -- politics ----------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Terms(Event):
    player: str
    effect: Optional[CardEffect] = None
    says: Optional[str] = None
    chosen: Optional[str] = None  # the vampire a title card's terms choose (titles.choose)
    allocate: tuple[tuple[str, int], ...] = ()  # the points the terms allocate (referendum_effects.allocate)


@dataclass(frozen=True, kw_only=True)
class CastVote(Event):
    player: Optional[str]  # None: the controller of `minion`
    side: str  # for | against
    kind: str  # vampire | ballot | edge | political card | card | named (a minion or a card, decided by the engine)
    minion: Optional[str] = None
    source: Optional[str] = None  # a card's name
    count: Optional[int] = None  # said with the vote: checked, or the votes a described card grants


@dataclass(frozen=True, kw_only=True)
class VoteAbility(Event):
    """A vampire uses its card's ability to get votes in the referendum ("During the polling step of any referendum,
    Stefano can burn 1 blood to get +1 vote."): cast with its other votes."""

    minion: str
    votes: Optional[int] = None  # as the scenario says them: checked against the card
    paid: Optional[str] = None  # "burn" | "lock" | "discard" as said (None: "uses her ability"): checked
    blood: Optional[int] = None  # the blood said burned
    discarded: Any = None  # the card said discarded, when the card base knows it (cards.CardFacts)


@dataclass(frozen=True, kw_only=True)
class ClosePolling(Event):
    pass


# -- a card named from the card base (cards.py) -------------------------------------------------------
@dataclass(frozen=True)
class Canceller:
    """The card that cancels a card as it is played ("..., cancelled by Carna's Ophidian Gaze"): a cards.CardFacts,
    played by a minion or (a master card) a Methuselah, at a level; or (`card` None) the minion's own card text
    ("..., cancelled by Asguresh": "During a combat, Asguresh can cancel a combat card ...")."""

    card: Any
    minion: Optional[str] = None
    player: Optional[str] = None
    level: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class PlayCard(Event):
    """A card named from the card base, played by a minion or (a master card) a Methuselah; `card` is the
    cards.CardFacts the scenario reader resolved, so replaying never looks it up."""

    card: Any
    minion: Optional[str] = None
    player: Optional[str] = None
    level: Optional[str] = None  # "inferior" | "superior", as said ("at superior")
    target: Optional[str] = None  # the Methuselah a directed action card is directed at
    on: Optional[str] = None  # the minion a card is put on ("Sarah plays Auspex on Lucinde")
    cancelled: bool = False  # cancelled as it is played
    canceller: Optional["Canceller"] = None  # ... by this card, when the scenario names it
    # (set by the engine alone) the card this one cancels as it is played: a cancels.Played
    cancelling: Any = None
    cost: Optional[Cost] = None  # None: the card's own cost (an "X" cost must be said)
    effect: Optional[CardEffect] = None  # what the card does beyond what the engine models, as the scenario says
    says: Optional[str] = None  # the same, described and not applied


@dataclass(frozen=True, kw_only=True)
class BurnOption(Event):
    """A card with the burn option discarded (and replaced) in an unlock phase."""

    player: str
    card: Any

@dataclass(frozen=True, kw_only=True)
class LockLocation(Event):
    """A Methuselah locks a location they control for what its card gives a minion ("You can lock this card to give a
    Gangrel you control +1 stealth.", "... during your influence phase to add 1 blood to a Tremere in your uncontrolled
    region.")."""

    player: str
    card: Any
    minion: str


@dataclass(frozen=True, kw_only=True)
class HuntingGround(Event):
    """A ready vampire gains blood from a hunting ground (a location) its Methuselah controls, in their unlock
    phase, as the card says."""

    minion: str
    card: Any
    amount: Optional[int] = None  # as the sentence says it ("gains 1 blood from ..."): checked against the card


# -- situations met in play: titles and sects, the Red List, allies put into play (situations.py) -----
@dataclass(frozen=True, kw_only=True)
class GainTitle(Event):
    """A card's effect gives a vampire a title (None: it loses its title)."""

    minion: str
    title: Optional[str]
    source: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class ChangeSect(Event):
    minion: str
    sect: str
    source: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class MarkRedList(Event):
    """A master phase action marks a Red List minion for the current turn."""

    player: str
    minion: str


@dataclass(frozen=True, kw_only=True)
class CombatAction(Event):
    """A vampire's action, given by its own card, to enter combat with a minion ("Dorka can enter combat with a minion
    controlled by your predator or prey as a (D) action.")."""

    actor: str
    target: str


@dataclass(frozen=True, kw_only=True)
class TargetAction(Event):
    """A vampire's action, given by its own card, at another Methuselah's minion: to lock it or to steal its blood
    ("Gabrin can lock an ally or a younger vampire as a +1 stealth (D) action.")."""

    actor: str
    target: str
    verb: str  # "lock" | "steal blood"
    amount: Optional[int] = None  # "steal blood": as the scenario says it


@dataclass(frozen=True, kw_only=True)
class BurnFor(Event):
    """A vampire burns blood for the +stealth, bleed or intercept its own card gives during an action ("During an
    action, Chavi can burn 1 blood to get +1 stealth.")."""

    minion: str
    stat: str  # "stealth" | "bleed" | "intercept"
    amount: Optional[int] = None  # as the scenario says it; None: as the card says
    blood: Optional[int] = None  # the blood the scenario says is burned; None: as the card says


@dataclass(frozen=True, kw_only=True)
class AbilityBleed(Event):
    """A vampire's bleed as its own card gives it ("The Arcadian can bleed with +1 bleed as a +1 stealth (D) action
    that costs 1 blood.")."""

    actor: str
    target: Optional[str] = None  # None: the prey


@dataclass(frozen=True, kw_only=True)
class UnlockSelf(Event):
    """A vampire unlocks as its own card allows ("During your discard phase, Antonio may burn 1 blood to unlock.")."""

    minion: str
    pays: Optional[str] = None  # "blood" or "edge", as the scenario says it; None: nothing said
    blood: Optional[int] = None


@dataclass(frozen=True, kw_only=True)
class RedListHunt(Event):
    """A vampire's action to enter combat with a marked Red List minion."""

    actor: str
    target: str


@dataclass(frozen=True, kw_only=True)
class AllyIntoPlay(Event):
    """A card's effect (not an action) puts an ally into play under a Methuselah's control."""

    player: str
    ally: str
    life: int = 1
    bleed: int = 1
    strength: int = 1
    card: Optional[str] = None  # the card's name, when a copy of a unique ally may be in play
    unique: bool = False
    source: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class ChangeControl(Event):
    """A card's effect gives control of a minion to another Methuselah; its owner stays who it was."""

    minion: str
    player: str
    source: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class SlaveTakesOver(Event):
    """A slave takes the place of the blocked member of its master clan in the combat."""

    slave: str
    master: Optional[str] = None  # the blocked vampire, as said (checked)
