"""Every rule the engine implements, with the paragraphs behind it, per edition.

A citation is data, not an ID: `Cite(doc, section, quote)` names the section
key and a few words copied from the paragraph. Paragraph ordinals shift when a
book is edited; the words do not, so a cite is resolved against the loaded
corpus to the unique paragraph of that section (or, failing that, of its
subsections) whose text contains the quote, ignoring case and whitespace
(`resolve`). tests/test_engine_citations.py resolves every Rule below.

A `Rule` holds one tuple of cites per edition, like OpenFisca's `reference`:
the engine names the Rule, the edition picks the paragraphs. An empty tuple
means the edition's book has no such rule (the older book has no "limited"
bleed rule, for instance), and the engine behaves accordingly.

Quotes in the older book (doc `rb`) are OCR text: they are chosen from words
the OCR left intact, which is why some are shorter than one would like.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

CURRENT = "current"
OLDER = "older"
EDITIONS = {
    CURRENT: "the VEKN online rulebook (lock/unlock)",
    OLDER: "the older complete rulebook (tap/untap, RB)",
}
ALIASES = {"vekn": CURRENT, "rb": OLDER, "new": CURRENT, "old": OLDER}


def edition(name: str) -> str:
    """Canonical edition name for `name` (an edition or an alias); KeyError if unknown."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in EDITIONS:
        raise KeyError(name)
    return key


@dataclass(frozen=True)
class Cite:
    doc: str
    section: str  # section key: "6.1.1" in numbered books, the heading slug in the VEKN book
    quote: str  # words copied from the paragraph that justify the rule

    @property
    def section_id(self) -> str:
        return f"{self.doc}:{self.section}"


@dataclass(frozen=True)
class Rule:
    name: str
    what: str  # the rule in a few words, for the documentation and the tests
    current: tuple[Cite, ...]
    older: tuple[Cite, ...]

    def cites(self, ed: str) -> tuple[Cite, ...]:
        return self.current if ed == CURRENT else self.older

    def exists_in(self, ed: str) -> bool:
        return bool(self.cites(ed))


def _rule(name: str, what: str, current: Iterable[Cite], older: Iterable[Cite]) -> Rule:
    return Rule(name, what, tuple(current), tuple(older))


def V(section: str, quote: str) -> Cite:  # noqa: N802 - reads like a citation
    return Cite("vekn", section, quote)


def RB(section: str, quote: str) -> Cite:  # noqa: N802
    return Cite("rb", section, quote)


# -- the table ----------------------------------------------------------------
PREY = _rule("PREY", "each Methuselah's prey is the next one clockwise, the predator the previous one",
             [V("game-setup", "the Methuselah to your left is your prey")],
             [RB("2.1", "She is the player who hopes to oust you")])
BLOOD_BANK = _rule("BLOOD_BANK", "burned, paid or spent counters go to the blood bank; gained ones come from it",
                   [V("object-of-the-game", "you return it to the blood bank")],
                   [RB("1", "When you burn a blood counter, you return it to the blood bank")])
CAPACITY_DRAIN = _rule("CAPACITY_DRAIN", "blood above a vampire's capacity drains to the blood bank at once",
                       [V("crypt-cards", "the excess is always moved to the blood bank immediately")],
                       [RB("6.1.2", "the excess is immediately returned to the blood bank")])
GOLDEN_RULE = _rule("GOLDEN_RULE", "a card's effect is applied as described: cards take precedence over rules",
                    [V("the-golden-rule-for-cards", "the cards take precedence")],
                    [RB("1.4", "Whenever the cards contradict the rules")])

# -- cards in hand ------------------------------------------------------------
DRAW_REPLACE = _rule("DRAW_REPLACE", "a card played from the hand is replaced from the library, unless it is empty",
                     [V("drawing-cards", "you draw another from your library to replace it")],
                     [RB("1.6.1", "If your library is empty, then you do not draw")])
HAND_SIZE = _rule("HAND_SIZE", "the hand size is seven; a change of hand size is matched at once",
                  [V("drawing-cards", "immediately discard down to or draw up to")],
                  [RB("1.6.1", "immediately discard down to or draw up to")])

# -- the turn -----------------------------------------------------------------
TURN_SEQUENCE = _rule("TURN_SEQUENCE", "turns go clockwise; each has five phases in order",
                      [V("turn-sequence", "composed of the following five phases, in order")],
                      [RB("3", "composed of the following five phases, in order")])
UNLOCK_ALL = _rule("UNLOCK_ALL", "the unlock phase begins by unlocking all your cards",
                   [V("unlock-phase", "you must unlock all of your cards")],
                   [RB("4", "untap all of your cards")])
EDGE_POOL = _rule("EDGE_POOL", "in your unlock phase, the Edge's holder may gain 1 pool",
                  [V("unlock-phase", "you may gain 1 pool from the blood bank")],
                  [RB("4", "you may take one blood")])
CONTEST_CARD = _rule("CONTEST_CARD", "a contested card costs 1 pool each unlock phase, or is yielded (burned)",
                     [V("unlock-phase", "The cost to contest a card is 1 pool")],
                     [RB("4.1", "The cost to contest a card is one pool")])
CONTEST_CARD_OUT = _rule("CONTEST_CARD_OUT", "contested cards are face down and out of play",
                         [V("unlock-phase", "contested cards are turned face down and are out of play")],
                         [RB("4.1", "For the duration of the contest")])
CONTEST_CARD_YIELD = _rule("CONTEST_CARD_YIELD", "a yielded card is burned with what is on it",
                           [V("unlock-phase", "A yielded card is burned")],
                           [RB("4.1", "A yielded card is burned")])
CONTEST_CARD_END = _rule("CONTEST_CARD_END", "once the other copies are yielded, the card comes back at the next unlock phase",
                         [V("unlock-phase", "the card is unlocked and turned face up during your next unlock phase")],
                         [RB("4.1", "face up during your next untap phase")])
CONTEST_TITLE = _rule("CONTEST_TITLE", "a contested title costs its vampire 1 blood each unlock phase, or is yielded",
                      [V("unlock-phase", "cost to contest a title is 1 blood")],
                      [RB("4.2", "The cost to contest a title is one blood")])
CONTEST_TITLE_FORCED = _rule("CONTEST_TITLE_FORCED", "a vampire in torpor or without blood must yield its title",
                             [V("unlock-phase", "Vampires in torpor must yield during the unlock phase")],
                             [RB("4.2", "vampires in torpor must yield during the")])
CONTEST_TITLE_END = _rule("CONTEST_TITLE_END", "once the others yield, the vampire acquires the title at the next unlock phase",
                          [V("unlock-phase", "acquires the title during your next unlock phase")],
                          [RB("4.2", "acquires the title during your next")])
INFERNAL = _rule("INFERNAL", "an infernal minion stays locked unless its controller burns 1 pool in the unlock phase",
                 [V("traits", "burn 1 pool to unlock that Infernal minion")],
                 [RB("11", "she may burn a pool to untap him")])

MASTER_ACTIONS = _rule("MASTER_ACTIONS", "one master phase action by default; unused ones are lost",
                       [V("master-phase", "By default, you receive 1 master phase action")],
                       [RB("5", "By default, you receive only one master phase"), RB("5", "You cannot save master phase actions for")])
MASTER_IN_PHASE = _rule("MASTER_IN_PHASE", "regular master cards are played in your master phase with a master phase action",
                        [V("master-phase", "master cards are played during your master phase using a master phase action")],
                        [RB("1.6.2", "Regular master cards are played during")])
TRIFLE = _rule("TRIFLE", "a trifle gives one more master phase action, once per master phase",
               [V("master-phase", "award an additional master phase action")],
               [RB("1.6.2", "can gain only one master phase action from trifles")])
OUT_OF_TURN = _rule("OUT_OF_TURN", "out-of-turn master cards: only on others' turns, use a master phase action of your next master phase",
                    [V("master-phase", "can only be played during other Methuselahs' turns")],
                    [RB("1.6.2", "You cannot play an out-of-turn master card on")])
OUT_OF_TURN_LIMIT = _rule("OUT_OF_TURN_LIMIT", "at most one out-of-turn master card between two of your turns",
                          [V("master-phase", "can never play more than one out-of-turn master card between two of their turns")],
                          [RB("1.6.2", "You cannot play a second out-of-turn")])
OUT_OF_TURN_DEBT = _rule("OUT_OF_TURN_DEBT", "an out-of-turn master card costs a master phase action of your next master phase",
                         [V("master-phase", "you are using a master phase action from your next master phase")],
                         [RB("5", "then you gain one fewer master")])

# -- minion phase ----------------------------------------------------------------
MINION_PHASE = _rule("MINION_PHASE", "minions act in their controller's minion phase",
                     [V("turn-sequence", "your minions perform a wide variety of")],
                     [RB("6", "During your minion phase, you may have your minions take actions")])
READY_UNLOCKED_ACT = _rule("READY_UNLOCKED_ACT", "only ready unlocked minions act; acting locks the minion",
                           [V("minion-phase", "Only ready unlocked minions can perform actions")],
                           [RB("6", "As noted, only ready untapped minions can"), RB("6", "taking an action taps the acting minion. So, if the minion manages to untap")])
ONE_ACTION_AT_A_TIME = _rule("ONE_ACTION_AT_A_TIME", "each action is resolved before another is performed",
                             [V("minion-phase", "Each action must be resolved before another action can be performed")],
                             [RB("6", "Each action is resolved (successful or blocked) before another action")])
MANDATORY = _rule("MANDATORY", "mandatory actions come first, and a minion with one does nothing else",
                  [V("minion-phase", "must be performed before any nonmandatory actions"),
                   V("minion-phase", "A minion required to take a mandatory action cannot perform any other action")],
                  [RB("6", "minions have mandatory actions yet to perform")])
MANDATORY_HUNT = _rule("MANDATORY_HUNT", "a ready vampire with no blood must hunt",
                       [V("minion-phase", "a ready vampire with no blood must hunt as a mandatory action")],
                       [RB("6", "with no blood must hunt")])
STUCK = _rule("STUCK", "a minion with two mandatory actions, or one it cannot take, is stuck and cannot act",
              [V("minion-phase", "cannot perform any action (this does not prevent your other minions")],
              [RB("6", "two or more different mandatory actions, then he is")])
ALLY_BASIC = _rule("ALLY_BASIC", "an ally's only basic action is bleed; allies cannot hunt",
                   [V("minion-phase", "A ready ally may perform only one basic action")],
                   [RB("6.1.2", "Allies cannot take this action")])
ALLY_NOT_THIS_TURN = _rule("ALLY_NOT_THIS_TURN", "an ally cannot act the turn it is recruited",
                           [V("recruit-ally", "ready region, but they cannot act this turn")],
                           [RB("6.1.5", "even though it is controlled")])
ALLY_BURNED = _rule("ALLY_BURNED", "an ally that loses its last life counter is burned",
                    [V("recruit-ally", "When an ally loses their last life counter, they are burned")],
                    [RB("6.1.5", "When an ally loses his last life counter")])
ALLY_OLDER_REGION = _rule("ALLY_OLDER_REGION", "older book: a recruited ally waits in the uncontrolled region until the end of the turn",
                          [],
                          [RB("6.1.5", "At the end of the turn, any allies that were")])

ANNOUNCE = _rule("ANNOUNCE", "all details of the action are declared when it is announced, and the minion locks",
                 [V("announce-the-action", "all details of the action are defined when the action is announced")],
                 [RB("6.2.1", "All details of the action are declared when")])
COST_ON_SUCCESS = _rule("COST_ON_SUCCESS", "an action's cost is paid only if it succeeds",
                        [V("announce-the-action", "is only paid if the action succeeds")],
                        [RB("6.2.3", "the cost is not paid if the action is blocked")])
COST_AT_ONCE = _rule("COST_AT_ONCE", "action modifiers and reactions are paid when played",
                     [V("announce-the-action", "The costs of action modifiers and reaction cards are always paid")],
                     [RB("6.2.3", "modifiers and reaction cards are always paid when the cards are played")])
COST_REQUIRED = _rule("COST_REQUIRED", "only a minion or Methuselah with enough blood or pool can play a card with that cost",
                      [V("requirements-for-playing-cards", "Only a vampire with enough blood on them can play a card with a blood cost")],
                      [RB("1.6.1", "indicates the amount of bloodawl")])
ACTION_COST_REQUIRED = _rule("ACTION_COST_REQUIRED", "an action whose cost cannot be paid cannot be announced (the older "
                            "book says so only of cards' costs: COST_REQUIRED)",
                            [V("resolve-the-action", "an action cannot be undertaken if its cost or requirements cannot be met")],
                            [])
FIZZLE = _rule("FIZZLE", "a successful action whose cost cannot be paid fizzles: paid as far as possible, no effect",
               [V("resolve-the-action", "it fizzles")],
               [])

BLEED_WHO = _rule("BLEED_WHO", "any ready minion can bleed",
                  [V("bleed", "Who can bleed: Any ready minion")],
                  [RB("6.1.1", "To beed a Methuselah, announce the action")])
BLEED_TARGET = _rule("BLEED_TARGET", "a bleed is directed at your prey by default; never at yourself",
                     [V("bleed", "Your prey. Directed action")],
                     [RB("6.1.1", "can be directed only at your prey")])
BLEED_SELF = _rule("BLEED_SELF", "you can never bleed yourself",
                   [V("bleed", "You can never bleed yourself")],
                   [RB("6.1.1", "You can never bleed yourself")])
BLEED_ONCE = _rule("BLEED_ONCE", "a minion performs at most one bleed action each turn",
                   [V("bleed", "A minion cannot perform more than one bleed action each turn")],
                   [RB("6.1.1", "cannot perform more than one bleed action each turn")])
BLEED_AMOUNT = _rule("BLEED_AMOUNT", "bleed 1 by default; a successful bleed burns that much of the target's pool",
                     [V("bleed", "all vampires have a bleed of 1"),
                      V("bleed", "the target Methuselah burns an amount of pool equal to the total bleed amount")],
                     [RB("6.1.1", "a bleed amount of one (most allies have"),
                      RB("6.1.1", "Methuselah burns an amount of pool equal to the bleed amount")])
BLEED_EDGE = _rule("BLEED_EDGE", "a successful bleed of 1 or more gives the acting Methuselah the Edge",
                   [V("bleed", "the acting Methuselah gets the Edge")],
                   [RB("6.1.1", "of the acting minion gets the Edge")])
BLEED_LIMITED = _rule("BLEED_LIMITED", "only one action modifier card can increase a bleed (limited)",
                      [V("bleed", "Only one action modifier card can be played to increase the bleed")],
                      [])
BLEED_ZERO = _rule("BLEED_ZERO", "a bleed reduced to 0 is still successful, with no effect",
                   [V("resolve-the-action", "A reason might be that a bleed got reduced to 0")],
                   [RB("6.1.1", "the bleed amount is one or more, then the bleed is successful")])
HUNT_WHO = _rule("HUNT_WHO", "any ready vampire can hunt, an undirected action at +1 stealth",
                 [V("hunt", "Who can hunt: Any ready vampire"), V("hunt", "Default stealth: +1 stealth")],
                 [RB("6.1.2", "To have a vampire hunt, announce the action")])
HUNT_EFFECT = _rule("HUNT_EFFECT", "a successful hunt gives the hunt amount (1) in blood; excess drains",
                    [V("hunt", "all vampires have a hunt of 1"),
                     V("hunt", "excess is immediately returned to the blood bank")],
                    [RB("6.1.2", "move a blood counter to the acting")])
EQUIP = _rule("EQUIP", "equip: any ready minion, undirected, +1 stealth; the equipment goes on the acting minion",
              [V("equip", "Who can equip: Any ready minion"), V("equip", "equipment card is placed on the acting minion")],
              [RB("6.1.3", "The equip action has a default +1 stealth"),
               RB("6.1.3", "equipment card can be played per action")])
EQUIP_MOVE = _rule("EQUIP_MOVE", "equipment can be taken from another minion you control, at no cost",
                   [V("equip", "Equip with an equipment card currently possessed by one of your other minions")],
                   [RB("6.1.3", "announce the equipment card he is getting")])
EMPLOY = _rule("EMPLOY", "employ retainer: undirected, +1 stealth; the retainer goes on the acting minion with its life",
               [V("employ-retainer", "the retainer is placed on the acting minion"),
                V("employ-retainer", "it receives blood counters from the blood bank to represent its life")],
               [RB("6.1.4", "The employ retainer action has a default +1 stealth"),
                RB("6.1.4", "When a retainer is brought into play")])
RECRUIT = _rule("RECRUIT", "recruit ally: undirected, +1 stealth; the ally comes with its life and cannot act this turn",
                [V("recruit-ally", "Who can recruit an ally: Any ready minion"),
                 V("recruit-ally", "they receive blood counters from the blood bank to represent their life")],
                [RB("6.1.5", "ally action has a default +1 stealth"),
                 RB("6.1.5", "bank to represent his life")])
ANARCH = _rule("ANARCH", "an untitled non-anarch vampire can become anarch: +1 stealth, undirected, 2 blood (1 with another ready anarch)",
               [V("vampire-sects", "can become an Anarch as a +1 stealth undirected"),
                V("vampire-sects", "or 1 blood if the controller controls at least 1 other ready Anarch")],
               [RB("10.5", "stealth action that costs 2 blood"),
                RB("10.5", "blood if the controller controls at least 1")])
ANARCH_SECT = _rule("ANARCH_SECT", "what becoming anarch does to the sect",
                    [V("vampire-sects", "Becoming Anarch constitutes a change of sect")],
                    [RB("10.5", "becoming an anarch changes the")])
ACTION_CARD = _rule("ACTION_CARD", "an action card: any ready minion, 0 stealth unless noted, as the card says",
                    [V("action-card-or-card-in-play", "These actions are at 0 stealth, unless noted otherwise")],
                    [RB("6.1.6", "To take the action described on an action")])
ACTION_CARD_BASIC = _rule("ACTION_CARD_BASIC", "a card describing a special version of a basic action follows that action's rules",
                          [V("action-card-or-card-in-play", "then all the rules that apply to the basic action apply")],
                          [RB("6.1.6", "rules of bleed actions")])
ACTION_CARD_ONCE = _rule("ACTION_CARD_ONCE", "a minion performs an action with the same action card (or card in play) once each turn",
                         [V("minion-phase", "same named action card more than once each turn")],
                         [RB("6.1.6", "or via the same card in play")])
POLITICAL = _rule("POLITICAL", "a political action: vampires only, undirected, +1 stealth, one per vampire each turn",
                  [V("politics", "Who can take a political action: Any ready vampire"),
                   V("non-repeat-rules", "A vampire cannot perform more than one political action")],
                  [RB("6.1.7", "It has a default +1 stealth and"),
                   RB("6.1.7", "than one political action each turn")])
REFERENDUM = _rule("REFERENDUM", "a successful political action calls a referendum",
                   [V("resolving-a-referendum", "The referendum is always part of action resolution")],
                   [RB("6.3.2", "The referendum consists of three steps")])
TORPOR_ACTIONS = _rule("TORPOR_ACTIONS", "leave torpor, rescue and diablerie actions",
                       [V("torpor", "A vampire in torpor is particularly weak"),
                        V("leave-torpor-see-torpor", "Who can leave torpor: A vampire in torpor")],
                       [RB("6.5", "A vampire in torpor is still considered controlled")])
TORPOR_REGION = _rule("TORPOR_REGION", "a vampire in torpor can only leave torpor; it cannot block or react",
                      [V("important-terms-in-the-game", "A vampire in torpor can perform no action except")],
                      [RB("6.5.1", "and cannot block or play reaction cards")])

# -- blocks ---------------------------------------------------------------------
BLOCK_OTHERS = _rule("BLOCK_OTHERS", "other Methuselahs block your actions: never your own minions",
                     [V("minion-phase", "Other Methuselahs may attempt to block your actions")],
                     [RB("6", "untapped minions may attempt to block your action")])
BLOCK_READY = _rule("BLOCK_READY", "only ready unlocked minions can block",
                    [V("important-terms-in-the-game", "Only unlocked minions can perform actions or")],
                    [RB("6.2.2", "use their ready untapped minions to attempt to block the action")])
BLOCK_DIRECTED = _rule("BLOCK_DIRECTED", "only the targeted Methuselahs block a directed action, clockwise",
                       [V("resolve-any-block-attempts", "may use their ready unlocked minions to attempt to block the action"),
                        V("resolve-any-block-attempts", "block attempts are made in a clockwise order")],
                       [RB("6.2.2", "use their ready untapped minions to attempt to block the action")])
BLOCK_UNDIRECTED = _rule("BLOCK_UNDIRECTED", "the prey, then the predator, may block an undirected action",
                         [V("resolve-any-block-attempts", "with the prey getting the first opportunity to block")],
                         [RB("6.2.2", "with the prey getting the first opportunity to")])
BLOCK_REPEAT = _rule("BLOCK_REPEAT", "a failed block attempt can be followed by another",
                     [V("resolve-any-block-attempts", "another can be made as often as the blocking Methuselah wishes")],
                     [RB("6.2.2", "another can be made as often as the blocking Methuselah")])
BLOCK_ONE_AT_A_TIME = _rule("BLOCK_ONE_AT_A_TIME", "one block attempt at a time",
                            [V("resolve-any-block-attempts", "as long as another minion is not already blocking")],
                            [RB("6.2.2", "either another attempt is made")])
BLOCK_DECLINE_FINAL = _rule("BLOCK_DECLINE_FINAL", "declining to block is final",
                            [V("resolve-any-block-attempts", "that decision is final")],
                            [RB("6.2.2", "decides not to make any further attempts to block")])
BLOCK_COMPARE = _rule("BLOCK_COMPARE", "the action is blocked if the blocker's intercept is at least the acting minion's stealth",
                      [V("stealth-and-intercept", "intercept is equal to or greater than the acting minion's stealth")],
                      [RB("6.2.2", "is equal to or greater than the acting minion's stealth")])
STEALTH_WHEN_NEEDED = _rule("STEALTH_WHEN_NEEDED", "stealth is added only while a block attempt would succeed",
                            [V("stealth-and-intercept", "can be added during an action only when needed")],
                            [RB("6.2.2", "only if the action is currently being blocked")])
INTERCEPT_WHEN_NEEDED = _rule("INTERCEPT_WHEN_NEEDED", "intercept is added only by the blocking minion when the stealth exceeds it",
                              [V("stealth-and-intercept", "intercept can be added by a blocking minion only when")],
                              [RB("6.2.2", "only by a blocking minion when the acting minion's stealth exceeds")])
MODIFIER_WHO = _rule("MODIFIER_WHO", "only the acting minion plays action modifiers",
                     [V("summary-of-the-course-of-an-action", "Only the acting minion can play action modifiers, while only other")],
                     [RB("6.2", "Only the acting minion can play action modifier")])
REACTION_WHO = _rule("REACTION_WHO", "only other Methuselahs' ready unlocked minions play reactions; reactions do not lock",
                     [V("summary-of-the-course-of-an-action", "only other Methuselahs' ready unlocked minions can play"),
                      V("minion-cards", "A reaction card does not lock the minion playing it")],
                     [RB("1.6.3", "taken by another Methuselah's minion"),
                      RB("1.6.3", "card does not tap the minion using it")])
SAME_CARD_ONCE = _rule("SAME_CARD_ONCE", "a minion plays the same action modifier or reaction at most once per action",
                       [V("summary-of-the-course-of-an-action", "same minion cannot play the same action modifier or reaction card")],
                       [RB("6.2", "the same minion cannot play the same action modifier or reaction card")])
MODIFIERS_ANY_TIME = _rule("MODIFIERS_ANY_TIME", "modifiers and reactions can be played at any time before resolution",
                           [V("summary-of-the-course-of-an-action", "can be played at any time before resolution during an action")],
                           [RB("6.2", "time during an action (unless otherwise noted on card text)")])
ACTION_SUCCEEDS = _rule("ACTION_SUCCEEDS", "an unblocked action succeeds: its cost is paid and its effects take place",
                        [V("resolve-the-action", "the cost of the action is paid and the effects of the successful action")],
                        [RB("6.2.3", "then the cost of the action is")])
BLOCKED = _rule("BLOCKED", "a blocked action has no effect; the blocker locks and enters combat with the acting minion",
                [V("resolve-the-action", "The blocking minion is locked and enters combat with the acting minion")],
                [RB("6.2.3", "If the action is blocked, then any card")])
COMBAT = _rule("COMBAT", "combat: rounds of range, strikes, damage and press",
               [V("combat-overview", "Combat occurs in a series of one or more rounds")],
               [RB("6.4.1", "Combat occurs in a series of one or more")])

# -- influence and discard --------------------------------------------------------
TRANSFERS = _rule("TRANSFERS", "4 transfers each influence phase; they cannot be saved",
                  [V("influence-phase", "Each Methuselah receives 4 transfers at the start of their influence phase")],
                  [RB("7", "Each Methuselah normally receives")])
TRANSFERS_FIRST_TURNS = _rule("TRANSFERS_FIRST_TURNS", "the first three turns of the game get 1, 2 and 3 transfers",
                              [V("influence-phase", "the first turn receives only 1 transfer")],
                              [RB("7", "has the first turn receives only one")])
TRANSFER_POOL = _rule("TRANSFER_POOL", "1 transfer moves 1 pool to a vampire in your uncontrolled region",
                      [V("influence-phase", "Spend 1 transfer to move 1 pool counter from your pool to a vampire")],
                      [RB("7", "Spend one transfer to move 1 blood counter")])
TRANSFER_BACK = _rule("TRANSFER_BACK", "2 transfers move 1 blood from an uncontrolled vampire back to your pool",
                      [V("influence-phase", "Spend 2 transfers to move 1 blood counter from a vampire")],
                      [RB("7", "Spend two transfers to move 1 blood counter")])
TRANSFER_CRYPT = _rule("TRANSFER_CRYPT", "4 transfers and 1 pool move a vampire from your crypt to your uncontrolled region",
                       [V("influence-phase", "Spend 4 transfers and burn 1 pool to move a vampire from your crypt")],
                       [RB("7", "Spend four transfers and burn a pool")])
INFLUENCE_ANY_TIME = _rule("INFLUENCE_ANY_TIME", "current book: a vampire whose blood reaches its capacity can be moved out at any time in the phase",
                           [V("influence-phase", "if a vampire has at least as many blood counters as their capacity")],
                           [])
INFLUENCE_AT_END = _rule("INFLUENCE_AT_END", "older book: vampires whose blood reaches their capacity become controlled at the end of the phase",
                         [],
                         [RB("7", "At the end of your influence phase, any")])
INFLUENCE_DRAIN = _rule("INFLUENCE_DRAIN", "counters beyond capacity drain when the vampire comes out",
                        [V("influence-phase", "Counters in excess of his capacity drain off immediately as usual")],
                        [RB("7", "becomes controlled")])
DISCARD_PHASE = _rule("DISCARD_PHASE", "one discard phase action: discard a card and draw, or play an event",
                      [V("discard-phase", "you receive by default one discard phase action")],
                      [RB("8", "to discard a card from your hand (and draw to replace it")])

# -- ending the game ------------------------------------------------------------------
OUSTED = _rule("OUSTED", "a Methuselah with no pool is ousted; the cards they control are removed",
               [V("ending-the-game", "When a Methuselah runs out of pool counters, they are ousted from the"),
                V("ending-the-game", "all the cards you control are removed from the game")],
               [RB("9.1", "When a Methuselah runs out of pool counters"),
                RB("9.1", "all the cards you control are removed from the")])
OUST_REWARD = _rule("OUST_REWARD", "when your prey is ousted you gain 1 victory point and 6 pool",
                    [V("ending-the-game", "You get 1 victory point and 6 pool counters from the blood bank whenever your prey is ousted")],
                    [RB("9.1", "a victory point whenever the"), RB("9.1", "Along with a victory point, you gain six pool")])
OUST_SAME_TIME = _rule("OUST_SAME_TIME", "ousted at the same time as your prey: the victory point, not the 6 pool",
                       [V("ending-the-game", "the Methuselah gets the victory point but does not gain 6 pool counters")],
                       [RB("9.1", "the player gets the victory point but does not gain 6 pool")])
PREY_SUCCESSION = _rule("PREY_SUCCESSION", "the ousted Methuselah's prey becomes the predator's new prey",
                        [V("ending-the-game", "the ousted Methuselah's prey) becomes your new prey")],
                        [RB("9.1", "the ousted Methuselah's prey)")])
LAST_STANDING = _rule("LAST_STANDING", "the last Methuselah remaining gets an additional victory point",
                      [V("ending-the-game", "You receive an additional victory point if you are the last Methuselah remaining")],
                      [RB("9.1", "receive an additional victory point if you are")])
WINNER = _rule("WINNER", "the winner has the most victory points, even if ousted",
               [V("ending-the-game", "the winner is the Methuselah with the most victory points")],
               [RB("9.1", "winner is the player with the most victory")])
TIE = _rule("TIE", "how a tie is reported",
            [V("ending-the-game", "In the case of a tie there is no winner of the game")],
            [RB("9.1", "final score is tied between Lisa")])
WITHDRAW_WHEN = _rule("WITHDRAW_WHEN", "withdrawal is announced in your unlock phase, with an exhausted library and less than a full hand",
                      [V("ending-the-game", "you must announce your intent to withdraw during your unlock phase"),
                       V("ending-the-game", "If you have exhausted your library and begin your turn with less than a full hand")],
                      [RB("9.2", "withdraw during your untap phase"), RB("9.2", "If you have exhausted your library")])
WITHDRAW_FAILS = _rule("WITHDRAW_FAILS", "a withdrawal fails if you lose pool, your minions lose blood or enter combat",
                       [V("ending-the-game", "The withdrawal fails if you lose a single blood or pool counter")],
                       [RB("9.2", "The withdrawal fails if you lose a")])
WITHDRAW_VP = _rule("WITHDRAW_VP", "a successful withdrawal is worth 0.5 victory point (current) or 1 (older); the predator gets nothing",
                    [V("ending-the-game", "you receive 0.5 victory points"),
                     V("ending-the-game", "Your predator does not get 1 victory point or any pool for your withdrawal")],
                    [RB("9.2", "If you successfully withdraw, you receive one"),
                     RB("9.2", "Your predator does not")])
# Values that differ by edition, each beside the rule that states it.
WITHDRAW_POINTS = {CURRENT: 0.5, OLDER: 1}  # WITHDRAW_VP
ANARCH_NEW_SECT = {CURRENT: "Anarch", OLDER: "Independent"}  # ANARCH_SECT

EDGE = _rule("EDGE", "the Edge: a marker one Methuselah holds, or nobody",
             [V("object-of-the-game", "The Edge is a symbol showing")],
             [RB("2.2", "The Edge (see section 1.2) begins the game")])


# The rules of combat, damage, torpor, diablerie and politics live beside this file;
# they are re-exported here, so the engine reaches every rule through this module.
from judge.engine.citations_combat import *  # noqa: E402,F401,F403


def all_rules() -> list[Rule]:
    return [v for v in globals().values() if isinstance(v, Rule)]


# -- resolution against the corpus --------------------------------------------------------
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_MARKUP = re.compile(r"[*_`\\]")


def normalize(text: str) -> str:
    """Case, whitespace, typographic quotes and markup remnants do not count."""
    return " ".join(_MARKUP.sub("", text.translate(_QUOTES)).casefold().split())


class CiteError(LookupError):
    pass


def resolve(cite: Cite, corpus) -> str:
    """The ID of the unique paragraph that `cite` names, or CiteError.

    The section's own paragraphs are searched first, then its subsections: a
    book's advanced-rules boxes may be parsed as subsections of the rule they
    extend, and a quote must still find its paragraph there.
    """
    section = corpus.sections.get(cite.section_id)
    if section is None:
        raise CiteError(f"no section {cite.section_id!r} for quote {cite.quote!r}")
    quote = normalize(cite.quote)
    level = [section]
    while level:
        hits = [pid for sec in level for pid in sec.paragraphs
                if quote in normalize(corpus.paragraphs[pid].text)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise CiteError(f"quote {cite.quote!r} is in {len(hits)} paragraphs of {cite.section_id}: {', '.join(hits)}")
        level = [corpus.sections[c] for sec in level for c in sec.children if c in corpus.sections]
    raise CiteError(f"quote {cite.quote!r} not found in {cite.section_id}")


class Resolver:
    """Resolves cites once per corpus and remembers the answers (labels too)."""

    def __init__(self, corpus):
        self.corpus = corpus
        self._ids: dict[Cite, Optional[str]] = {}

    def id(self, cite: Cite) -> Optional[str]:
        if cite not in self._ids:
            try:
                self._ids[cite] = resolve(cite, self.corpus)
            except CiteError:
                self._ids[cite] = None
        return self._ids[cite]

    def label(self, cite: Cite) -> str:
        pid = self.id(cite)
        if pid is None:
            return f"{cite.section_id} (unresolved: \"{cite.quote}\")"
        return self.corpus.paragraphs[pid].label


class OfflineResolver:
    """Used when the corpus cannot be loaded: cites are shown by section and quote."""

    def id(self, cite: Cite) -> str:
        return cite.section_id

    def label(self, cite: Cite) -> str:
        return f"{cite.section_id} \"{cite.quote}\""
