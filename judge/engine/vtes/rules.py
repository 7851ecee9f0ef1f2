"""Every rule the engine applies, with the paragraphs behind it in each rules edition: data only.

Each `Rule` names, per rules edition (citations.CURRENT, citations.OLDER), the paragraphs that state
it, as `Cite`s: a section key and a few words copied from the paragraph (citations.py says how a cite
is found in the books). The engine names the Rule (`R.BLEED_ONCE`); the rules edition of the replay
picks the paragraphs. An empty list means that edition's book has no such rule (the older book has
no "limited" bleed rule, for instance), and the engine then refuses, stops as not modelled, or
behaves as that book says.

Quotes in the older book (doc `rb`) are OCR text: they are chosen from words the OCR left intact,
which is why some are shorter than one would like. tests/test_engine_citations.py finds every cite
below in the books, and checks that every rule is applied somewhere in the engine.

The rules come in the order of the books: the table, cards in hand, the turn, the minion phase,
blocks, influence and discard, ending the game; then combat, damage, torpor and diablerie, politics.
"""
from __future__ import annotations

from typing import Optional

from judge.engine.citations import CURRENT, OLDER, RB, Rule, V, rule

# -- the table ----------------------------------------------------------------
PREY = rule("PREY", "each Methuselah's prey is the next one clockwise, the predator the previous one",
            [V("game-setup", "the Methuselah to your left is your prey")],
            [RB("2.1", "She is the player who hopes to oust you")])
BLOOD_BANK = rule("BLOOD_BANK", "burned, paid or spent counters go to the blood bank; gained ones come from it",
                  [V("object-of-the-game", "you return it to the blood bank")],
                  [RB("1", "When you burn a blood counter, you return it to the blood bank")])
CAPACITY_DRAIN = rule("CAPACITY_DRAIN", "blood above a vampire's capacity drains to the blood bank at once",
                      [V("crypt-cards", "A vampire cannot have more blood than their capacity"),
                       V("crypt-cards", "the excess is always moved to the blood bank immediately")],
                      [RB("6.1.2", "the excess is immediately returned to the blood bank")])
GOLDEN_RULE = rule("GOLDEN_RULE", "a card's effect is applied as described: cards take precedence over rules",
                   [V("the-golden-rule-for-cards", "the cards take precedence")],
                   [RB("1.4", "Whenever the cards contradict the rules")])

# -- cards in hand ------------------------------------------------------------
DRAW_REPLACE = rule("DRAW_REPLACE", "a card played from the hand is replaced from the library, unless it is empty",
                    [V("drawing-cards", "you draw another from your library to replace it")],
                    [RB("1.6.1", "If your library is empty, then you do not draw")])
HAND_SIZE = rule("HAND_SIZE", "the hand size is seven; a change of hand size is matched at once",
                 [V("drawing-cards", "immediately discard down to or draw up to")],
                 [RB("1.6.1", "immediately discard down to or draw up to")])

# -- the turn -----------------------------------------------------------------
TURN_SEQUENCE = rule("TURN_SEQUENCE", "turns go clockwise; each has five phases in order",
                     [V("turn-sequence", "composed of the following five phases, in order")],
                     [RB("3", "composed of the following five phases, in order")])
UNLOCK_ALL = rule("UNLOCK_ALL", "the unlock phase begins by unlocking all your cards",
                  [V("unlock-phase", "you must unlock all of your cards")],
                  [RB("4", "untap all of your cards")])
EDGE_POOL = rule("EDGE_POOL", "in your unlock phase, the Edge's holder may gain 1 pool",
                 [V("unlock-phase", "you may gain 1 pool from the blood bank")],
                 [RB("4", "you may take one blood")])
CONTEST_CARD = rule("CONTEST_CARD", "a contested card costs 1 pool each unlock phase, or is yielded (burned)",
                    [V("unlock-phase", "The cost to contest a card is 1 pool")],
                    [RB("4.1", "The cost to contest a card is one pool")])
CONTEST_CARD_OUT = rule("CONTEST_CARD_OUT", "contested cards are face down and out of play",
                        [V("unlock-phase", "contested cards are turned face down and are out of play")],
                        [RB("4.1", "For the duration of the contest")])
CONTEST_CARD_YIELD = rule("CONTEST_CARD_YIELD", "a yielded card is burned with what is on it",
                          [V("unlock-phase", "A yielded card is burned")],
                          [RB("4.1", "A yielded card is burned")])
CONTEST_CARD_END = rule("CONTEST_CARD_END", "once the other copies are yielded, the card comes back at the next unlock phase",
                        [V("unlock-phase", "the card is unlocked and turned face up during your next unlock phase")],
                        [RB("4.1", "face up during your next untap phase")])
CONTEST_TITLE = rule("CONTEST_TITLE", "a contested title costs its vampire 1 blood each unlock phase, or is yielded",
                     [V("unlock-phase", "cost to contest a title is 1 blood")],
                     [RB("4.2", "The cost to contest a title is one blood")])
CONTEST_TITLE_FORCED = rule("CONTEST_TITLE_FORCED", "a vampire in torpor or without blood must yield its title",
                            [V("unlock-phase", "Vampires in torpor must yield during the unlock phase")],
                            [RB("4.2", "vampires in torpor must yield during the")])
CONTEST_TITLE_END = rule("CONTEST_TITLE_END", "once the others yield, the vampire acquires the title at the next unlock phase",
                         [V("unlock-phase", "acquires the title during your next unlock phase")],
                         [RB("4.2", "acquires the title during your next")])
INFERNAL = rule("INFERNAL", "an infernal minion stays locked unless its controller burns 1 pool in the unlock phase",
                [V("traits", "burn 1 pool to unlock that Infernal minion")],
                [RB("11", "she may burn a pool to untap him")])

MASTER_ACTIONS = rule("MASTER_ACTIONS", "one master phase action by default; unused ones are lost",
                      [V("master-phase", "By default, you receive 1 master phase action")],
                      [RB("5", "By default, you receive only one master phase"), RB("5", "You cannot save master phase actions for")])
MASTER_IN_PHASE = rule("MASTER_IN_PHASE", "regular master cards are played in your master phase with a master phase action",
                       [V("master-phase", "master cards are played during your master phase using a master phase action")],
                       [RB("1.6.2", "Regular master cards are played during")])
MASTER_DISCIPLINE = rule("MASTER_DISCIPLINE", "a Discipline card gives a controlled vampire a level of a Discipline, "
                         "basic or basic to superior, most +1 capacity, no blood with it",
                         [V("master-cards", "A Discipline card is played on a controlled vampire"),
                          V("master-cards", "they do not automatically gain an extra blood to fill the new capacity")],
                         [RB("1.6.2", "the basic level of a new Discipline")])
TRIFLE = rule("TRIFLE", "a trifle gives one more master phase action, once per master phase",
              [V("master-phase", "award an additional master phase action")],
              [RB("1.6.2", "can gain only one master phase action from trifles")])
OUT_OF_TURN = rule("OUT_OF_TURN", "out-of-turn master cards: only on others' turns, use a master phase action of your next master phase",
                   [V("master-phase", "can only be played during other Methuselahs' turns")],
                   [RB("1.6.2", "You cannot play an out-of-turn master card on")])
OUT_OF_TURN_LIMIT = rule("OUT_OF_TURN_LIMIT", "at most one out-of-turn master card between two of your turns",
                         [V("master-phase", "can never play more than one out-of-turn master card between two of their turns")],
                         [RB("1.6.2", "You cannot play a second out-of-turn")])
OUT_OF_TURN_DEBT = rule("OUT_OF_TURN_DEBT", "an out-of-turn master card costs a master phase action of your next master phase",
                        [V("master-phase", "you are using a master phase action from your next master phase")],
                        [RB("5", "then you gain one fewer master")])

# -- minion phase ----------------------------------------------------------------
MINION_PHASE = rule("MINION_PHASE", "minions act in their controller's minion phase",
                    [V("turn-sequence", "your minions perform a wide variety of")],
                    [RB("6", "During your minion phase, you may have your minions take actions")])
READY_UNLOCKED_ACT = rule("READY_UNLOCKED_ACT", "only ready unlocked minions act; acting locks the minion",
                          [V("minion-phase", "Only ready unlocked minions can perform actions")],
                          [RB("6", "As noted, only ready untapped minions can"), RB("6", "taking an action taps the acting minion. So, if the minion manages to untap")])
ONE_ACTION_AT_A_TIME = rule("ONE_ACTION_AT_A_TIME", "each action is resolved before another is performed",
                            [V("minion-phase", "Each action must be resolved before another action can be performed")],
                            [RB("6", "Each action is resolved (successful or blocked) before another action")])
MANDATORY = rule("MANDATORY", "mandatory actions come first, and a minion with one does nothing else",
                 [V("minion-phase", "must be performed before any nonmandatory actions"),
                  V("minion-phase", "A minion required to take a mandatory action cannot perform any other action")],
                 [RB("6", "minions have mandatory actions yet to perform")])
MANDATORY_HUNT = rule("MANDATORY_HUNT", "a ready vampire with no blood must hunt",
                      [V("minion-phase", "a ready vampire with no blood must hunt as a mandatory action")],
                      [RB("6", "with no blood must hunt")])
STUCK = rule("STUCK", "a minion with two mandatory actions, or one it cannot take, is stuck and cannot act",
             [V("minion-phase", "cannot perform any action (this does not prevent your other minions")],
             [RB("6", "two or more different mandatory actions, then he is")])
ALLY_BASIC = rule("ALLY_BASIC", "an ally's only basic action is bleed; allies cannot hunt",
                  [V("minion-phase", "A ready ally may perform only one basic action")],
                  [RB("6.1.2", "Allies cannot take this action")])
ALLY_NOT_THIS_TURN = rule("ALLY_NOT_THIS_TURN", "an ally cannot act the turn it is recruited",
                          [V("recruit-ally", "ready region, but they cannot act this turn")],
                          [RB("6.1.5", "even though it is controlled")])
ALLY_BURNED = rule("ALLY_BURNED", "an ally that loses its last life counter is burned",
                   [V("recruit-ally", "When an ally loses their last life counter, they are burned")],
                   [RB("6.1.5", "When an ally loses his last life counter")])
ALLY_OLDER_REGION = rule("ALLY_OLDER_REGION", "older book: a recruited ally waits in the uncontrolled region until the end of the turn",
                         [],
                         [RB("6.1.5", "At the end of the turn, any allies that were")])

ANNOUNCE = rule("ANNOUNCE", "all details of the action are declared when it is announced, and the minion locks",
                [V("announce-the-action", "all details of the action are defined when the action is announced")],
                [RB("6.2.1", "All details of the action are declared when")])
COST_ON_SUCCESS = rule("COST_ON_SUCCESS", "an action's cost is paid only if it succeeds",
                       [V("announce-the-action", "is only paid if the action succeeds")],
                       [RB("6.2.3", "the cost is not paid if the action is blocked")])
COST_AT_ONCE = rule("COST_AT_ONCE", "action modifiers and reactions are paid when played",
                    [V("announce-the-action", "The costs of action modifiers and reaction cards are always paid")],
                    [RB("6.2.3", "modifiers and reaction cards are always paid when the cards are played")])
COST_REQUIRED = rule("COST_REQUIRED", "only a minion or Methuselah with enough blood or pool can play a card with that cost",
                     [V("requirements-for-playing-cards", "Only a vampire with enough blood on them can play a card with a blood cost")],
                     [RB("1.6.1", "indicates the amount of bloodawl")])
ACTION_COST_REQUIRED = rule("ACTION_COST_REQUIRED", "an action whose cost cannot be paid cannot be announced (the older "
                            "book says so only of cards' costs: COST_REQUIRED)",
                            [V("resolve-the-action", "an action cannot be undertaken if its cost or requirements cannot be met")],
                            [])
FIZZLE = rule("FIZZLE", "a successful action whose cost cannot be paid fizzles: paid as far as possible, no effect",
              [V("resolve-the-action", "it fizzles")],
              [])

BLEED_WHO = rule("BLEED_WHO", "any ready minion can bleed",
                 [V("bleed", "Who can bleed: Any ready minion")],
                 [RB("6.1.1", "To bleed a Methuselah, announce the action")])
BLEED_TARGET = rule("BLEED_TARGET", "a bleed is directed at your prey by default; never at yourself",
                    [V("bleed", "Your prey. Directed action")],
                    [RB("6.1.1", "can be directed only at your prey")])
BLEED_SELF = rule("BLEED_SELF", "you can never bleed yourself",
                  [V("bleed", "You can never bleed yourself")],
                  [RB("6.1.1", "You can never bleed yourself")])
BLEED_ONCE = rule("BLEED_ONCE", "a minion performs at most one bleed action each turn",
                  [V("bleed", "A minion cannot perform more than one bleed action each turn")],
                  [RB("6.1.1", "cannot perform more than one bleed action each turn")])
BLEED_AMOUNT = rule("BLEED_AMOUNT", "bleed 1 by default; a successful bleed burns that much of the target's pool",
                    [V("bleed", "all vampires have a bleed of 1"),
                     V("bleed", "the target Methuselah burns an amount of pool equal to the total bleed amount")],
                    [RB("6.1.1", "a bleed amount of one (most allies have"),
                     RB("6.1.1", "Methuselah burns an amount of pool equal to the bleed amount")])
BLEED_EDGE = rule("BLEED_EDGE", "a successful bleed of 1 or more gives the acting Methuselah the Edge",
                  [V("bleed", "the acting Methuselah gets the Edge")],
                  [RB("6.1.1", "of the acting minion gets the Edge")])
BLEED_LIMITED = rule("BLEED_LIMITED", "only one action modifier card can increase a bleed (limited)",
                     [V("bleed", "Only one action modifier card can be played to increase the bleed")],
                     [])
BLEED_ZERO = rule("BLEED_ZERO", "a bleed action reduced to 0 still succeeds as an action, with no effect",
                  [V("resolve-the-action", "A reason might be that a bleed got reduced to 0")],
                  [RB("6.1.1", "the bleed amount is one or more, then the bleed is successful")])
BLEED_SUCCESSFUL = rule("BLEED_SUCCESSFUL", "a bleed is successful when its amount is 1 or more",
                        [V("bleed", "If the bleed amount is 1 or more, then the bleed is successful")],
                        [RB("6.1.1", "the bleed amount is one or more, then the bleed is successful")])
HUNT_WHO = rule("HUNT_WHO", "any ready vampire can hunt, an undirected action at +1 stealth",
                [V("hunt", "Who can hunt: Any ready vampire"), V("hunt", "Default stealth: +1 stealth")],
                [RB("6.1.2", "To have a vampire hunt, announce the action")])
HUNT_EFFECT = rule("HUNT_EFFECT", "a successful hunt gives the hunt amount (1) in blood; excess drains",
                   [V("hunt", "all vampires have a hunt of 1"),
                    V("hunt", "excess is immediately returned to the blood bank")],
                   [RB("6.1.2", "move a blood counter to the acting")])
EQUIP = rule("EQUIP", "equip: any ready minion, undirected, +1 stealth; the equipment goes on the acting minion",
             [V("equip", "Who can equip: Any ready minion"), V("equip", "equipment card is placed on the acting minion")],
             [RB("6.1.3", "The equip action has a default +1 stealth"),
              RB("6.1.3", "equipment card can be played per action")])
EQUIP_MOVE = rule("EQUIP_MOVE", "equipment can be taken from another minion you control, at no cost",
                  [V("equip", "Equip with an equipment card currently possessed by one of your other minions")],
                  [RB("6.1.3", "announce the equipment card he is getting")])
EMPLOY = rule("EMPLOY", "employ retainer: undirected, +1 stealth; the retainer goes on the acting minion with its life",
              [V("employ-retainer", "the retainer is placed on the acting minion"),
               V("employ-retainer", "it receives blood counters from the blood bank to represent its life")],
              [RB("6.1.4", "The employ retainer action has a default +1 stealth"),
               RB("6.1.4", "When a retainer is brought into play")])
RECRUIT = rule("RECRUIT", "recruit ally: undirected, +1 stealth; the ally comes with its life and cannot act this turn",
               [V("recruit-ally", "Who can recruit an ally: Any ready minion"),
                V("recruit-ally", "they receive blood counters from the blood bank to represent their life")],
               [RB("6.1.5", "ally action has a default +1 stealth"),
                RB("6.1.5", "bank to represent his life")])
ANARCH = rule("ANARCH", "an untitled non-anarch vampire can become anarch: +1 stealth, undirected, 2 blood (1 with another ready anarch)",
              [V("vampire-sects", "can become an Anarch as a +1 stealth undirected"),
               V("vampire-sects", "or 1 blood if the controller controls at least 1 other ready Anarch")],
              [RB("10.5", "stealth action that costs 2 blood"),
               RB("10.5", "blood if the controller controls at least 1")])
ANARCH_SECT = rule("ANARCH_SECT", "what becoming anarch does to the sect",
                   [V("vampire-sects", "Becoming Anarch constitutes a change of sect")],
                   [RB("10.5", "becoming an anarch changes the")])
ACTION_CARD = rule("ACTION_CARD", "an action card: any ready minion, 0 stealth unless noted, as the card says",
                   [V("action-card-or-card-in-play", "These actions are at 0 stealth, unless noted otherwise")],
                   [RB("6.1.6", "To take the action described on an action")])
ACTION_CARD_BASIC = rule("ACTION_CARD_BASIC", "a card describing a special version of a basic action follows that action's rules",
                         [V("action-card-or-card-in-play", "then all the rules that apply to the basic action apply")],
                         [RB("6.1.6", "rules of bleed actions")])
ACTION_CARD_ONCE = rule("ACTION_CARD_ONCE", "a minion performs an action with the same action card (or card in play) once each turn",
                        [V("minion-phase", "same named action card more than once each turn")],
                        [RB("6.1.6", "or via the same card in play")])
CARD_TEXT_ACTION_ONCE = rule("CARD_TEXT_ACTION_ONCE", "a minion performs each action its own card text gives once "
                             "each turn, even if it unlocks",
                             [V("minion-phase", "including from the minion's own card text")],
                             [RB("6.1.6", "including from the minion's own card text")])
POLITICAL = rule("POLITICAL", "a political action: vampires only, undirected, +1 stealth, one per vampire each turn",
                 [V("politics", "Who can take a political action: Any ready vampire"),
                  V("non-repeat-rules", "A vampire cannot perform more than one political action")],
                 [RB("6.1.7", "It has a default +1 stealth and"),
                  RB("6.1.7", "than one political action each turn")])
REFERENDUM = rule("REFERENDUM", "a successful political action calls a referendum",
                  [V("resolving-a-referendum", "The referendum is always part of action resolution")],
                  [RB("6.3.2", "The referendum consists of three steps")])
TORPOR_ACTIONS = rule("TORPOR_ACTIONS", "leave torpor, rescue and diablerie actions",
                      [V("torpor", "A vampire in torpor is particularly weak"),
                       V("leave-torpor-see-torpor", "Who can leave torpor: A vampire in torpor")],
                      [RB("6.5", "A vampire in torpor is still considered controlled")])
TORPOR_REGION = rule("TORPOR_REGION", "a vampire in torpor can only leave torpor; it cannot block or react",
                     [V("important-terms-in-the-game", "A vampire in torpor can perform no action except")],
                     [RB("6.5.1", "and cannot block or play reaction cards")])

# -- blocks ---------------------------------------------------------------------
BLOCK_OTHERS = rule("BLOCK_OTHERS", "other Methuselahs block your actions: never your own minions",
                    [V("minion-phase", "Other Methuselahs may attempt to block your actions")],
                    [RB("6", "untapped minions may attempt to block your action")])
BLOCK_READY = rule("BLOCK_READY", "only ready unlocked minions can block",
                   [V("important-terms-in-the-game", "Only unlocked minions can perform actions or")],
                   [RB("6.2.2", "use their ready untapped minions to attempt to block the action")])
BLOCK_DIRECTED = rule("BLOCK_DIRECTED", "only the targeted Methuselahs block a directed action, clockwise",
                      [V("resolve-any-block-attempts", "may use their ready unlocked minions to attempt to block the action"),
                       V("resolve-any-block-attempts", "block attempts are made in a clockwise order")],
                      [RB("6.2.2", "use their ready untapped minions to attempt to block the action")])
BLOCK_UNDIRECTED = rule("BLOCK_UNDIRECTED", "the prey, then the predator, may block an undirected action",
                        [V("resolve-any-block-attempts", "with the prey getting the first opportunity to block")],
                        [RB("6.2.2", "with the prey getting the first opportunity to")])
BLOCK_REPEAT = rule("BLOCK_REPEAT", "a failed block attempt can be followed by another",
                    [V("resolve-any-block-attempts", "another can be made as often as the blocking Methuselah wishes")],
                    [RB("6.2.2", "another can be made as often as the blocking Methuselah")])
BLOCK_ONE_AT_A_TIME = rule("BLOCK_ONE_AT_A_TIME", "one block attempt at a time",
                           [V("resolve-any-block-attempts", "as long as another minion is not already blocking")],
                           [RB("6.2.2", "either another attempt is made")])
BLOCK_DECLINE_FINAL = rule("BLOCK_DECLINE_FINAL", "declining to block is final",
                           [V("resolve-any-block-attempts", "that decision is final")],
                           [RB("6.2.2", "decides not to make any further attempts to block")])
BLOCK_COMPARE = rule("BLOCK_COMPARE", "the action is blocked if the blocker's intercept is at least the acting minion's stealth",
                     [V("stealth-and-intercept", "intercept is equal to or greater than the acting minion's stealth")],
                     [RB("6.2.2", "is equal to or greater than the acting minion's stealth")])
STEALTH_WHEN_NEEDED = rule("STEALTH_WHEN_NEEDED", "stealth is added only while a block attempt would succeed",
                           [V("stealth-and-intercept", "can be added during an action only when needed")],
                           [RB("6.2.2", "only if the action is currently being blocked")])
INTERCEPT_WHEN_NEEDED = rule("INTERCEPT_WHEN_NEEDED", "intercept is added only by the blocking minion when the stealth exceeds it",
                             [V("stealth-and-intercept", "intercept can be added by a blocking minion only when")],
                             [RB("6.2.2", "only by a blocking minion when the acting minion's stealth exceeds")])
MODIFIER_WHO = rule("MODIFIER_WHO", "only the acting minion plays action modifiers",
                    [V("summary-of-the-course-of-an-action", "Only the acting minion can play action modifiers, while only other")],
                    [RB("6.2", "Only the acting minion can play action modifier")])
REACTION_WHO = rule("REACTION_WHO", "only other Methuselahs' ready unlocked minions play reactions; reactions do not lock",
                    [V("summary-of-the-course-of-an-action", "only other Methuselahs' ready unlocked minions can play"),
                     V("minion-cards", "A reaction card does not lock the minion playing it")],
                    [RB("1.6.3", "taken by another Methuselah's minion"),
                     RB("1.6.3", "card does not tap the minion using it")])
SAME_CARD_ONCE = rule("SAME_CARD_ONCE", "a minion plays the same action modifier or reaction at most once per action",
                      [V("summary-of-the-course-of-an-action", "same minion cannot play the same action modifier or reaction card")],
                      [RB("6.2", "the same minion cannot play the same action modifier or reaction card")])
MODIFIERS_ANY_TIME = rule("MODIFIERS_ANY_TIME", "modifiers and reactions can be played at any time before resolution",
                          [V("summary-of-the-course-of-an-action", "can be played at any time before resolution during an action")],
                          [RB("6.2", "time during an action (unless otherwise noted on card text)")])
ACTION_SUCCEEDS = rule("ACTION_SUCCEEDS", "an unblocked action succeeds: its cost is paid and its effects take place",
                       [V("resolve-the-action", "the cost of the action is paid and the effects of the successful action")],
                       [RB("6.2.3", "then the cost of the action is")])
BLOCKED = rule("BLOCKED", "a blocked action has no effect; the blocker locks and enters combat with the acting minion",
               [V("resolve-the-action", "The blocking minion is locked and enters combat with the acting minion")],
               [RB("6.2.3", "If the action is blocked, then any card")])
COMBAT = rule("COMBAT", "combat: rounds of range, strikes, damage and press",
              [V("combat-overview", "Combat occurs in a series of one or more rounds")],
              [RB("6.4.1", "Combat occurs in a series of one or more")])

# -- influence and discard --------------------------------------------------------
TRANSFERS = rule("TRANSFERS", "4 transfers each influence phase; they cannot be saved",
                 [V("influence-phase", "Each Methuselah receives 4 transfers at the start of their influence phase")],
                 [RB("7", "Each Methuselah normally receives")])
TRANSFERS_FIRST_TURNS = rule("TRANSFERS_FIRST_TURNS", "the first three turns of the game get 1, 2 and 3 transfers",
                             [V("influence-phase", "the first turn receives only 1 transfer")],
                             [RB("7", "has the first turn receives only one")])
TRANSFER_POOL = rule("TRANSFER_POOL", "1 transfer moves 1 pool to a vampire in your uncontrolled region",
                     [V("influence-phase", "Spend 1 transfer to move 1 pool counter from your pool to a vampire")],
                     [RB("7", "Spend one transfer to move 1 blood counter")])
TRANSFER_BACK = rule("TRANSFER_BACK", "2 transfers move 1 blood from an uncontrolled vampire back to your pool",
                     [V("influence-phase", "Spend 2 transfers to move 1 blood counter from a vampire")],
                     [RB("7", "Spend two transfers to move 1 blood counter")])
TRANSFER_CRYPT = rule("TRANSFER_CRYPT", "4 transfers and 1 pool move a vampire from your crypt to your uncontrolled region",
                      [V("influence-phase", "Spend 4 transfers and burn 1 pool to move a vampire from your crypt")],
                      [RB("7", "Spend four transfers and burn a pool")])
INFLUENCE_ANY_TIME = rule("INFLUENCE_ANY_TIME", "current book: a vampire whose blood reaches its capacity can be moved out at any time in the phase",
                          [V("influence-phase", "if a vampire has at least as many blood counters as their capacity")],
                          [])
INFLUENCE_AT_END = rule("INFLUENCE_AT_END", "older book: vampires whose blood reaches their capacity become controlled at the end of the phase",
                        [],
                        [RB("7", "At the end of your influence phase, any")])
INFLUENCE_DRAIN = rule("INFLUENCE_DRAIN", "counters beyond capacity drain when the vampire comes out",
                       [V("influence-phase", "Counters in excess of his capacity drain off immediately as usual")],
                       [RB("7", "becomes controlled")])
DISCARD_PHASE = rule("DISCARD_PHASE", "one discard phase action: discard a card and draw, or play an event",
                     [V("discard-phase", "you receive by default one discard phase action")],
                     [RB("8", "to discard a card from your hand (and draw to replace it")])

# -- ending the game ------------------------------------------------------------------
OUSTED = rule("OUSTED", "a Methuselah with no pool is ousted; the cards they control are removed",
              [V("ending-the-game", "When a Methuselah runs out of pool counters, they are ousted from the"),
               V("ending-the-game", "all the cards you control are removed from the game")],
              [RB("9.1", "When a Methuselah runs out of pool counters"),
               RB("9.1", "all the cards you control are removed from the")])
OUST_REWARD = rule("OUST_REWARD", "when your prey is ousted you gain 1 victory point and 6 pool",
                   [V("ending-the-game", "You get 1 victory point and 6 pool counters from the blood bank whenever your prey is ousted")],
                   [RB("9.1", "a victory point whenever the"), RB("9.1", "Along with a victory point, you gain six pool")])
OUST_SAME_TIME = rule("OUST_SAME_TIME", "ousted at the same time as your prey: the victory point, not the 6 pool",
                      [V("ending-the-game", "the Methuselah gets the victory point but does not gain 6 pool counters")],
                      [RB("9.1", "the player gets the victory point but does not gain 6 pool")])
PREY_SUCCESSION = rule("PREY_SUCCESSION", "the ousted Methuselah's prey becomes the predator's new prey",
                       [V("ending-the-game", "the ousted Methuselah's prey) becomes your new prey")],
                       [RB("9.1", "the ousted Methuselah's prey)")])
LAST_STANDING = rule("LAST_STANDING", "the last Methuselah remaining gets an additional victory point",
                     [V("ending-the-game", "You receive an additional victory point if you are the last Methuselah remaining")],
                     [RB("9.1", "receive an additional victory point if you are")])
WINNER = rule("WINNER", "the winner has the most victory points, even if ousted",
              [V("ending-the-game", "the winner is the Methuselah with the most victory points")],
              [RB("9.1", "winner is the player with the most victory")])
TIE = rule("TIE", "how a tie is reported",
           [V("ending-the-game", "In the case of a tie there is no winner of the game")],
           [RB("9.1", "final score is tied between Lisa")])
WITHDRAW_WHEN = rule("WITHDRAW_WHEN", "withdrawal is announced in your unlock phase, with an exhausted library and less than a full hand",
                     [V("ending-the-game", "you must announce your intent to withdraw during your unlock phase"),
                      V("ending-the-game", "If you have exhausted your library and begin your turn with less than a full hand")],
                     [RB("9.2", "withdraw during your untap phase"), RB("9.2", "If you have exhausted your library")])
WITHDRAW_FAILS = rule("WITHDRAW_FAILS", "a withdrawal fails if you lose pool, your minions lose blood or enter combat",
                      [V("ending-the-game", "The withdrawal fails if you lose a single blood or pool counter")],
                      [RB("9.2", "The withdrawal fails if you lose a")])
WITHDRAW_VP = rule("WITHDRAW_VP", "a successful withdrawal is worth 0.5 victory point (current) or 1 (older); the predator gets nothing",
                   [V("ending-the-game", "you receive 0.5 victory points"),
                    V("ending-the-game", "Your predator does not get 1 victory point or any pool for your withdrawal")],
                   [RB("9.2", "If you successfully withdraw, you receive one"),
                    RB("9.2", "Your predator does not")])
# Values that differ by edition, each beside the rule that states it.
WITHDRAW_POINTS = {CURRENT: 0.5, OLDER: 1}  # WITHDRAW_VP
ANARCH_NEW_SECT = {CURRENT: "Anarch", OLDER: "Independent"}  # ANARCH_SECT

EDGE = rule("EDGE", "the Edge: a marker one Methuselah holds, or nobody",
            [V("object-of-the-game", "The Edge is a symbol showing")],
            [RB("2.2", "The Edge (see section 1.2) begins the game")])

# -- combat in general -------------------------------------------------------------------------
COMBAT_READY = rule("COMBAT_READY", "only ready minions take part in combat",
                    [V("combat", "Only ready minions can participate in combat")],
                    [RB("6.4", "only ready minions can participate in combat")])
COMBAT_OWN = rule("COMBAT_OWN", "a Methuselah's minions never enter combat with each other",
                  [V("combat", "Your minions cannot enter combat with other minions you control")],
                  [RB("6.4", "cannot enter combat with any of your other minions")])
COMBAT_CAUSED = rule("COMBAT_CAUSED", "a block causes combat, and so can a card's effect",
                     [V("combat", "Also, some cards may cause combat")],
                     [RB("6.4", "some cards' effects may cause combat")])
COMBAT_LOCKED = rule("COMBAT_LOCKED", "locked minions fight just the same as unlocked ones",
                     [V("combat", "Locked minions fight just the same as unlocked minions")],
                     [RB("6.4", "minions fight just the same as untapped minions")])
COMBAT_ROUND = rule("COMBAT_ROUND", "a round of combat: seven steps (current book) or three (older book)",
                    [V("combat-overview", "Each round of combat has seven steps")],
                    [RB("6.4.1", "of combat has three steps")])
COMBAT_ACTING_FIRST = rule("COMBAT_ACTING_FIRST", "the acting minion gets the first opportunity at every stage of combat",
                           [V("combat-overview", "The acting minion always gets first opportunity")],
                           [RB("6.4.1", "the acting minion always gets first")])
BEFORE_RANGE = rule("BEFORE_RANGE", "cards played before range is determined come before the first maneuver",
                    [V("detailed-course-of-combat", "Some cards or effects will be played before range is determined")],
                    [RB("6.4.2", "be played before the acting minion decides whether or not to play a")])
RANGE_CLOSE = rule("RANGE_CLOSE", "each round is at close range unless maneuvers change it; no maneuver by default",
                   [V("detailed-course-of-combat", "Close range is the default for each round")],
                   [RB("6.4.2", "Close range is the default for each round")])
MANEUVER = rule("MANEUVER", "a maneuver moves to long range, or back to close, offsetting the opponent's last maneuver",
                [V("combat-overview", "Use maneuvers to change the range to close or long"),
                 V("detailed-course-of-combat", "continue playing maneuvers to keep offsetting")],
                [RB("6.4.2", "he can maneuver to get back to close range")])
MANEUVER_TWICE = rule("MANEUVER_TWICE", "older book: a minion cannot play two maneuvers in a row",
                      [],
                      [RB("6.4.2", "A minion cannot play two maneuvers in a")])
MANEUVER_CHOOSES_STRIKE = rule("MANEUVER_CHOOSES_STRIKE", "using a strike card's or weapon's maneuver chooses that strike",
                               [V("detailed-course-of-combat", "they are choosing their strike as well")],
                               [RB("6.4.2", "effectively choosing his strike as well"),
                                RB("6.4.3", "then he cannot choose any other strike for his initial")])
MANEUVER_ONE_STRIKE = rule("MANEUVER_ONE_STRIKE", "no second strike card or weapon can be used to maneuver in the same round",
                           [V("detailed-course-of-combat", "they cannot use a second strike card or weapon to maneuver again in the same round")],
                           [RB("6.4.2", "cannot use a second strike or weapon to maneuver again")])
RANGE_SET = rule("RANGE_SET", "the range is set when no more maneuvers are played",
                 [V("combat-overview", "2. Determine Range")],
                 [RB("6.4.1", "Use maneuvers to set the range to close or long")])
BEFORE_STRIKES = rule("BEFORE_STRIKES", "current book: a step for cards played after the range is set, before strikes",
                      [V("detailed-course-of-combat", "only playable after range has been set but before strikes have been chosen")],
                      [])
STRIKE_ONE = rule("STRIKE_ONE", "one strike per minion per round; the acting minion chooses first, then both resolve together",
                  [V("detailed-course-of-combat", "Each minion gets only one strike per round per default"),
                   V("detailed-course-of-combat", "the acting minion first, then their opponent")],
                  [RB("6.4.3", "Normally, each minion gets only one strike per"),
                   RB("6.4.3", "the acting minion first, then his opponent")])
DEFAULT_STRIKE = rule("DEFAULT_STRIKE", "the default strike is a hand strike: damage equal to strength (1 by default), at close range",
                      [V("detailed-course-of-combat", "The default strike is a hand strike"),
                       V("combat", "they do an amount of damage equal to their strength")],
                      [RB("6.4.5", "The default strike is a hand strike"),
                       RB("6.4.5", "have a default strength of 1")])
STRIKE_SOURCES = rule("STRIKE_SOURCES", "a strike comes from a combat card, a weapon the minion has, or the hand strike",
                      [V("detailed-course-of-combat", "The default strike can be substituted from a combat card, from a weapon")],
                      [RB("6.4.3", "from a weapon the minion possesses")])
STRIKE_RANGE = rule("STRIKE_RANGE", "most strikes are effective only at close range; ranged and R strikes at any range",
                    [V("combat", 'Ranged strikes and strikes that do "R" damage can be used at any range')],
                    [RB("6.4.3", "damage can be used at any range, close or long")])
DODGE = rule("DODGE", "a dodge, at any range, protects the minion and its possessions from the opposing strike; not its retainers",
             [V("detailed-course-of-combat", "Dodge protects the dodging minion and their possessions, but does not protect any attached retainers")],
             [RB("6.4.5", "from the effects of the opposing strike"), RB("6.4.5", "A dodge is effective at any range")])
COMBAT_ENDS = rule("COMBAT_ENDS", "a combat ends strike resolves first, at any range, even against a dodge",
                   [V("detailed-course-of-combat", "This type of strike is always the first to resolve"),
                    V("detailed-course-of-combat", "It ends combat even if the opponent dodges")],
                   [RB("6.4.5", "is always the first to resolve"), RB("6.4.5", "Combat ends is not affected by a dodge")])
STEAL_BLOOD = rule("STEAL_BLOOD", "steal blood moves counters at strike resolution: not damage, cannot be prevented; excess drains",
                   [V("detailed-course-of-combat", 'This does not count as damage and resolves during the "resolve strike" step'),
                    V("detailed-course-of-combat", "the excess drains off immediately")],
                   [RB("6.4.5", "This does not count as damage"),
                    RB("6.4.5", "the stolen blood can be used to heal damage")])
FIRST_STRIKE = rule("FIRST_STRIKE", "a first strike resolves before normal strikes; a minion it burns or sends to torpor does not strike",
                    [V("detailed-course-of-combat", "A strike done with first strike is resolved before a normal strike")],
                    [RB("6.4.5", "If both minions strike with first strike")])
DESTROY_EQUIPMENT = rule("DESTROY_EQUIPMENT", "destroy equipment burns an equipment card of the opposing minion",
                         [V("detailed-course-of-combat", "This effect burns an equipment card of the opposing minion")],
                         [RB("6.4.5", "This effect will burn an")])
STEAL_EQUIPMENT = rule("STEAL_EQUIPMENT", "steal equipment moves it to the striking minion, unusable by it this round, kept after combat",
                       [V("detailed-course-of-combat", "The stolen equipment may not be used by the bearer during the current round of combat")],
                       [RB("6.4.5", "This effect is like destroy equipment"),
                        RB("6.4.5", "is retained by the stealing minion after combat ends")])
ADDITIONAL_STRIKES = rule("ADDITIONAL_STRIKES", "additional strikes follow the normal pair, at the same range; only minions with one left strike",
                          [V("detailed-course-of-combat", "Only the minions with additional strikes may play strike cards"),
                           V("detailed-course-of-combat", "Additional strikes are handled by repeating the strike and damage resolution steps")],
                          [RB("6.4.3", "only the minions with additional strikes may play strike cards"),
                           RB("6.4.3", "take place at the same range")])
ADDITIONAL_STRIKES_WHEN = rule("ADDITIONAL_STRIKES_WHEN", "older book: additional strikes are gained only after the first pair of strikes",
                               [],
                               [RB("6.4.3", "only after the first pair of strikes are complet")])
ADDITIONAL_STRIKES_ANY = rule("ADDITIONAL_STRIKES_ANY", "any strike can be chosen for an additional strike, even after a maneuver",
                              [V("detailed-course-of-combat", "For additional strikes, any strike can be chosen")],
                              [RB("6.4.3", "For additional strikes, any strike can be chosen")])
ADDITIONAL_STRIKES_LIMIT = rule("ADDITIONAL_STRIKES_LIMIT", "one card or effect (source) of additional strikes per minion per round",
                                [V("important-terms-in-the-game",
                                   "a minion cannot use more than one card or effect (a source) to gain additional strikes per round of combat")],
                                [RB("6.4.3", "to gain additional strikes per round of combat")])
RETAINER_STRIKE = rule("RETAINER_STRIKE", "a retainer can be struck instead of its minion only at long range, announced with the strike",
                       [V("combat", "This can only be done at long range")],
                       [RB("6.4.7", "only be done at long range")])
WOUNDED_ENDS_COMBAT = rule("WOUNDED_ENDS_COMBAT", "combat ends when a combatant is wounded (or no longer ready)",
                           [V("combat", "If one or both of the combatants are wounded, combat ends"),
                            V("combat", "all remaining steps are skipped until the End of Round step")],
                           [RB("6.4.3", "then combat ends immediately")])
PRESS = rule("PRESS", "presses continue combat into another round or end it by cancelling a press to continue",
             [V("detailed-course-of-combat", "Presses can be used to continue combat or to end combat, cancelling a press to continue"),
              V("detailed-course-of-combat", "If there is an uncancelled press to continue, another round of combat begins")],
             [RB("6.4.4", "Presses can be used to continue combat"),
              RB("6.4.4", "the combatants will either go their separate ways (the default)")])
PRESS_TWICE = rule("PRESS_TWICE", "a minion cannot play two presses in a row",
                   [V("detailed-course-of-combat", "A minion cannot play two presses in a row")],
                   [RB("6.4.4", "play two presses in a row")])
END_OF_ROUND = rule("END_OF_ROUND", "current book: the end of round step, which happens even when combat ends early",
                    [V("detailed-course-of-combat", "This step occurs even if combat ends prematurely")],
                    [])

# -- damage ------------------------------------------------------------------------------------
DAMAGE = rule("DAMAGE", "damage is prevented, then each point mended with 1 blood (1 life for allies and retainers)",
              [V("detailed-course-of-combat", "Damage resolution has two steps: prevent damage and mend damage"),
               V("detailed-course-of-combat", "they must burn 1 blood to mend the damage")],
              [RB("6.4.6", "Damage resolution has two steps"), RB("6.4.6", "must burn one blood to heal the damage")])
UNMENDED_WOUNDS = rule("UNMENDED_WOUNDS", "damage a vampire cannot mend leaves it wounded",
                       [V("detailed-course-of-combat", "the unmended damage leaves them wounded")],
                       [RB("6.4.6", "the unhealed damage leaves him wounded")])
PREVENT_DAMAGE = rule("PREVENT_DAMAGE", "the minion taking damage plays prevention cards one at a time; the rest is inflicted",
                      [V("detailed-course-of-combat", "These damage prevention cards are played one at a time")],
                      [RB("6.4.6", "are played one at a time until all the damage is prevented")])
PREVENT_AGGRAVATED_FIRST = rule("PREVENT_AGGRAVATED_FIRST", "prevention may go to the aggravated damage before the normal damage",
                                [V("detailed-course-of-combat", "damage prevention effects can be used to prevent the aggravated damage before the non-aggravated damage")],
                                [RB("6.4.6", "before the normal damage, if the player chooses")])
NORMAL_DAMAGE_FIRST = rule("NORMAL_DAMAGE_FIRST", "normal damage inflicted with aggravated damage is handled first",
                           [V("detailed-course-of-combat", "the non-aggravated damage is handled first")],
                           [RB("6.4.6", "the regular damage is handled")])
AGGRAVATED = rule("AGGRAVATED", "aggravated damage cannot be mended: its first point wounds; each point on a wounded vampire costs 1 blood or it is burned",
                  [V("detailed-course-of-combat", "becomes wounded by the first point of aggravated damage"),
                   V("detailed-course-of-combat", "they must burn 1 blood to prevent their destruction")],
                  [RB("6.4.6", "Aggravated damage Is damage that a vampire cannot heal"),
                   RB("6.4.6", "he must burn a blood to prevent his")])
AGGRAVATED_BURNS = rule("AGGRAVATED_BURNS", "a vampire burned by aggravated damage is destroyed, without diablerie (older book: without torpor)",
                        [V("detailed-course-of-combat", "Destruction by this method does not constitute diablerie")],
                        [RB("6.4.6", "Destruction by this method does not"), RB("6.4.6", "he goes directly to the ash heap")])
ALLY_DAMAGE = rule("ALLY_DAMAGE", "allies and retainers lose 1 life per point of damage, aggravated or not, and burn at 0",
                   [V("detailed-course-of-combat", "For each point of damage successfully inflicted on an ally or retainer, they burn 1 life counter")],
                   [RB("6.4.6", "Allies and retainers treat aggravated damage"),
                    RB("6.4.6", "An ally or retainer who loses all of his life")])
TORPOR_AFTER_PAIR = rule("TORPOR_AFTER_PAIR", "a wounded vampire goes to torpor once the damage of the pair of strikes is handled",
                         [V("detailed-course-of-combat", "A wounded vampire goes to torpor after all remaining damage related to the current pair of strikes is handled"),
                          V("important-terms-in-the-game", 'they are considered as "going to torpor" until the combat is over')],
                         [RB("6.4.6", "to torpor after the remaining damage is handled")])
BURNED_AFTER_COMBAT = rule("BURNED_AFTER_COMBAT", "current book: a minion burned in combat leaves play when the combat is over",
                           [V("important-terms-in-the-game", "an ally being burned in combat will be in the ash heap only after combat")],
                           [])
ENVIRONMENTAL = rule("ENVIRONMENTAL", "current book: environmental damage cannot be dodged and resolves with the first pair of strikes",
                     [V("detailed-course-of-combat", "Enviromental damage resolves with the first pair of strikes"),
                      V("combat", "Environmental damage: Any damage not inflicted by a minion")],
                     [])
DAMAGE_OTHER_MEANS = rule("DAMAGE_OTHER_MEANS", "damage from other means than strikes is handled at once",
                          [V("detailed-course-of-combat", "damage inflicted by the effect is handeled immediately")],
                          [RB("6.4.3", "or from other means), he must burn blood or lose life")])

# -- torpor and diablerie ------------------------------------------------------------------------
TORPOR_GOING = rule("TORPOR_GOING", "a vampire that cannot mend its wounds goes to torpor with its cards",
                    [V("important-terms-in-the-game", "If a vampire cannot mend their wounds, is sent to torpor or is otherwise wounded")],
                    [RB("6.5.1", "If a vampire cannot heal his wounds, he goes"),
                     RB("6.5.1", "Any retainers, equipment and other")])
LEAVE_TORPOR = rule("LEAVE_TORPOR", "leave torpor: a vampire in torpor, undirected, +1 stealth, 2 blood; it moves to the ready region",
                    [V("leave-torpor-see-torpor", "Who can leave torpor: A vampire in torpor"),
                     V("leave-torpor-see-torpor", "Default Cost: 2 blood"),
                     V("leave-torpor-see-torpor", "Default stealth: +1 stealth"),
                     V("leave-torpor-see-torpor", "the acting vampire moves from the torpor region to the ready region")],
                    [RB("6.5.2", "The cardless action costs 2 blood"),
                     RB("6.5.2", "moves from the torpor region to the ready region"),
                     RB("6.5.2", "This action has a default +1 stealth")])
LEAVE_TORPOR_COST = rule("LEAVE_TORPOR_COST", "leave torpor costs 2 blood unless a card says otherwise",
                         [V("leave-torpor-see-torpor", "Default Cost: 2 blood")],
                         [RB("6.5.2", "The cardless action costs 2 blood")])
LEAVE_TORPOR_BLOCKED = rule("LEAVE_TORPOR_BLOCKED", "a blocked leave torpor: no combat; a vampire blocker may diablerize, otherwise the action fails",
                            [V("leave-torpor-see-torpor", "If this action is blocked, there is no combat"),
                             V("leave-torpor-see-torpor", "they get the opportunity to diablerise the acting vampire")],
                            [RB("6.5.2", "there is no combat (vampires in"),
                             RB("6.5.2", "gets the opportunity to diablerize the acting vampire")])
NO_LONGER_WOUNDED = rule("NO_LONGER_WOUNDED", "current book: a vampire leaving torpor is no longer wounded",
                         [V("leave-torpor-see-torpor", "A vampire leaving torpor is no longer wounded")],
                         [])
RESCUE = rule("RESCUE", "rescue: a ready vampire, 2 blood split between rescuer and rescued as announced; the rescued vampire moves to the ready region",
              [V("rescue-a-vampire-from-torpor", "Who can rescue a vampire from torpor: Any ready vampire"),
               V("rescue-a-vampire-from-torpor", "which can be paid by the acting vampire or the rescued vampire"),
               V("rescue-a-vampire-from-torpor", "the vampire in torpor is moved to the ready region")],
              [RB("6.5.3", "or the rescued vampire, or the cost may be split between"),
               RB("6.5.3", "including how the cost will be paid"),
               RB("6.5.3", "the vampire in torpor is moved to the ready region")])
RESCUE_NO_LOCK = rule("RESCUE_NO_LOCK", "the rescued vampire neither locks nor unlocks",
                      [V("rescue-a-vampire-from-torpor", "The rescued vampire does not lock or unlock")],
                      [RB("6.5.3", "does not tap or untap as a")])
RESCUE_TARGET = rule("RESCUE_TARGET", "a rescue is undirected at +1 stealth between one controller's vampires, else directed at 0 stealth",
                     [V("rescue-a-vampire-from-torpor", "Directed action, if the acting vampire and the vampire in torpor have different"),
                      V("rescue-a-vampire-from-torpor", "0 stealth, if the acting vampire")],
                     [RB("6.5.3", "This action has a defdudttealth if the acting vampire")])
DIABLERIZE = rule("DIABLERIZE", "diablerize: a ready vampire, no cost, at a vampire in torpor",
                  [V("diablerise-a-vampire-in-torpor", "Who can diablerise: Any ready vampire"),
                   V("diablerise-a-vampire-in-torpor", "Default cost: None")],
                  [RB("6.5.4", "To have a vampire diablerize a vampire in")])
DIABLERIZE_TARGET = rule("DIABLERIZE_TARGET", "a diablerie action is undirected at +1 stealth between one controller's vampires, else directed at 0 stealth",
                         [V("diablerise-a-vampire-in-torpor", "Directed action, if the acting vampire and the vampire in torpor have different"),
                          V("diablerise-a-vampire-in-torpor", "+1 stealth, if the acting vampire and the vampire in torpor have the same controller")],
                         [RB("6.5.4", "This action has a default +1 stealth if the acting vampire")])
DIABLERIE_READY = rule("DIABLERIE_READY", "only ready vampires commit diablerie",
                       [V("diablerie", "Only ready vampires can commit diablerie")],
                       [RB("6.5.5", "vampires can commit diablerie")])
BLOOD_CURSED = rule("BLOOD_CURSED", "a Blood Cursed vampire cannot commit diablerie",
                    [V("traits", "A vampire who is Blood Cursed cannot commit diablerie")],
                    [RB("11", "A vampire with Blood Curse cannot commit diablerie")])
DIABLERIE_STEPS = rule("DIABLERIE_STEPS", "diablerie: the victim's blood moves to the diablerist (excess drains), it may take the equipment, the victim is burned",
                       [V("resolving-diablerie", "All blood on the victim is moved to the diablerist"),
                        V("resolving-diablerie", "The diablerist may take any equipment on the victim"),
                        V("resolving-diablerie", "The victim is burned. Any cards and counters on them are also burned")],
                       [RB("6.5.5", "All blood on the victim is moved to the"),
                        RB("6.5.5", "The diablerist may take any equipment on the victim"),
                        RB("6.5.5", "cards and counters on him are")])
DIABLERIE_DISCIPLINE = rule("DIABLERIE_DISCIPLINE", "an older victim gives the diablerist a Discipline (older book: capacity +1, no blood with it)",
                            [V("resolving-diablerie", "If the victim was older (had a higher capacity) than the diablerist"),
                             V("resolving-diablerie", "the diablerie does not give 1 blood to fill that new capacity")],
                            [RB("6.5.5", "If the victim was older (had a higher capacity)"),
                             RB("6.5.5", "capacity by 1, but does not automatically give")])
DIABLERIE_RED_LIST = rule("DIABLERIE_RED_LIST", "diablerizing a Red List vampire may give trophies",
                          [V("resolving-diablerie", "If the victim was Red List")],
                          [RB("6.5.5", "Red List, the diablerist may receive trophies")])
BLOOD_HUNT = rule("BLOOD_HUNT", "a diablerie calls a blood hunt referendum at once; if it passes, the diablerist is burned",
                  [V("resolving-diablerie", "a blood hunt referendum is automatically and immediately conducted"),
                   V("resolving-diablerie", "If the referendum passes, the diablerist is burned")],
                  [RB("6.5.6", "a blood hunt is called, and the diablerist is burned")])
BLOOD_HUNT_NO_CARDS = rule("BLOOD_HUNT_NO_CARDS", "a blood hunt referendum cannot be blocked; no action modifiers or reactions in it",
                           [V("resolving-diablerie", "In a blood hunt referendum, action modifiers and reaction cards cannot be played"),
                            V("resolving-diablerie", "This referendum is part of the action which led to a diablerie")],
                           [RB("6.5.6", "so it cannot be blocked, and action modifiers and reaction cards cannot be played")])

# -- politics ------------------------------------------------------------------------------------
POLITICAL_TERMS = rule("POLITICAL_TERMS", "the terms of a referendum are chosen only once the political action succeeds",
                       [V("politics", "are not chosen until the action itself is successful")],
                       [RB("6.3.1", "itself is successful (i.e., remains unblocked)")])
REFERENDUM_STEPS = rule("REFERENDUM_STEPS", "a referendum: choose the terms, polling, resolve",
                        [V("resolving-a-referendum", "The referendum consists of three steps"),
                         V("resolving-a-referendum", "1. Choose the terms, if any, of the referendum")],
                        [RB("6.3.2", "The referendum consists of three steps")])
POLLING = rule("POLLING", "votes are cast freely, in any order, without obligation; once cast they cannot change",
               [V("resolving-a-referendum", "there is no obligation to cast votes or ballots"),
                V("resolving-a-referendum", "Once a vote or ballot has been cast, however, it cannot be changed")],
               [RB("6.3.2", "no obligation to vote"), RB("6.3.2", "has been cast, however, it cannot be changed")])
VOTES_AS_GROUP = rule("VOTES_AS_GROUP", "the votes of one vampire or other source are cast together, all for or all against",
                      [V("resolving-a-referendum", "all of the votes and ballots from any given vampire or other source must be cast in agreement as a group")],
                      [RB("6.3.3", "or other source must be cast in agreement")])
VOTES_GAINED = rule("VOTES_GAINED", "Methuselahs have no votes of their own: votes are gained",
                    [V("resolving-a-referendum", "Methuselahs have no inherent votes or ballots")],
                    [RB("6.3.3", "Methuselahs have no inherent votes")])
REFERENDUM_RESULT = rule("REFERENDUM_RESULT", "more votes for than against passes the referendum; a tie fails",
                         [V("resolving-a-referendum", "If there are more votes for the referendum than against, it passes"),
                          V("resolving-a-referendum", "Tied referendums fail")],
                         [RB("6.3.2", "there are more votes for the referendum"),
                          RB("6.3.2", "the referendum fails and has no effect")])
TITLE_VOTES = rule("TITLE_VOTES", "each ready titled vampire gives its controller votes",
                   [V("resolving-a-referendum", "For each ready titled vampire a Methuselah controls, they gain votes")],
                   [RB("6.3.3", "For each ready titled vampire a Methuselah")])
VOTES_CAMARILLA = rule("VOTES_CAMARILLA", "primogen 1, prince 2, justicar 3, Inner Circle 4 votes",
                       [V("resolving-a-referendum", "1 vote for each ready primogen"),
                        V("resolving-a-referendum", "2 votes for each ready prince or baron"),
                        V("resolving-a-referendum", "3 votes for each ready justicar"),
                        V("resolving-a-referendum", "4 votes for each ready Inner Circle member")],
                       [RB("6.3.3", "1 vote for each ready primogen or bishop"),
                        RB("6.3.3", "2 votes for each ready prince, archbishop"),
                        RB("6.3.3", "3 votes for each ready justicar or cardinal"),
                        RB("6.3.3", "4 votes for each ready Inner Circle member")])
VOTES_ANARCH = rule("VOTES_ANARCH", "a baron has 2 votes",
                    [V("resolving-a-referendum", "2 votes for each ready prince or baron")],
                    [RB("10.5", "baron gets 2 votes")])
VOTES_SABBAT = rule("VOTES_SABBAT", "bishop 1, archbishop 2, cardinal 3, regent 4 votes; prisci ballots",
                    [V("other-vampire-sects", "1 vote for each ready bishop"),
                     V("other-vampire-sects", "2 votes for each ready archbishop"),
                     V("other-vampire-sects", "3 votes for each ready cardinal"),
                     V("other-vampire-sects", "4 votes for the ready regent")],
                    [RB("6.3.3", "1 vote for each ready primogen or bishop"),
                     RB("6.3.3", "2 votes for each ready prince, archbishop"),
                     RB("6.3.3", "3 votes for each ready justicar or cardinal"),
                     RB("6.3.3", "4 votes for each ready Inner Circle member or regen")])
VOTES_LAIBON = rule("VOTES_LAIBON", "kholo and magaji 2 votes",
                    [V("other-vampire-sects", "a Methuselah gains 2 votes for each ready kholo or magaji they control")],
                    [RB("6.3.3", "2 votes for each ready prince, archbishop")])
PRISCI = rule("PRISCI", "each ready priscus casts 1 ballot; the majority side gets the prisci block's 3 votes; a tie abstains",
              [V("other-vampire-sects", "Each ready priscus provides 1 ballot for this sub-referendum"),
               V("other-vampire-sects", "If the sub-referendum is tied, the prisci block abstains")],
              [RB("6.3.3", "Each ready priscus provides 1"), RB("6.3.3", "the prisci abstain from the main vote")])
CLAN_RENAMED = rule("CLAN_RENAMED", "a clan the cards print under its former name is the clan the book names now",
                    [V("vampire-the-eternal-struggle", "Assamite: Banu Haqim")], [])
TITLE_RECEIVE_SECT = rule("TITLE_RECEIVE_SECT", "only a vampire of the title's sect receives it",
                          [V("vampire-sects", "A vampire must belong to the appropriate sect to receive a title")],
                          [RB("10", "A vampire must belong to the appropriate sect")])
TITLE_SECT = rule("TITLE_SECT", "a title held outside its sect gives none of its benefits",
                  [V("vampire-sects", "they lose the benefit of the title until their clan or sect changes appropriately")],
                  [RB("10", "loses the benefit of the title")])
CONTESTED_NO_VOTES = rule("CONTESTED_NO_VOTES", "vampires contesting a title are treated as if they had no title",
                          [V("unlock-phase", "the vampires involved in the contest are treated as if they have no title")],
                          [RB("4.2", "treated as if they have no title")])
CRYPT_ABILITY = rule("CRYPT_ABILITY", "a vampire's card text gives it its special abilities, applied as printed",
                     [V("crypt-cards", "special abilities or other attributes")],
                     [RB("1.5", "Each crypt card (the amber-backed cards)")])
CARD_TEXT_VOTES = rule("CARD_TEXT_VOTES", "a minion may have votes from its card text without a title",
                       [V("resolving-a-referendum", "Other minions may have a title worth votes or ballots (as listed on card text)")],
                       [RB("6.3.3", "Other minions may have votes")])
VOTE_LOCKED = rule("VOTE_LOCKED", "a locked vampire votes like an unlocked one (older book: its votes count while it is ready)",
                   [V("resolving-a-referendum", "Locked minions can vote the same as unlocked minions")],
                   [RB("6.3.3", "A minion's votes can be used only when")])
TORPOR_NO_VOTES = rule("TORPOR_NO_VOTES", "a vampire in torpor casts no votes or ballots",
                       [V("torpor", "A vampire in torpor cannot cast any votes or ballots")],
                       [RB("6.3.3", "A minion's votes can be used only when"), RB("6.5", "is not ready. He still untaps")])
POLITICAL_CARD_VOTE = rule("POLITICAL_CARD_VOTE", "one vote from political action cards per Methuselah; the card that called the referendum counts",
                           [V("resolving-a-referendum", "Each Methuselah can gain no more than 1 vote from political action cards"),
                            V("resolving-a-referendum", "that card provides 1 vote for the acting vampire's controller (and counts against the limit)")],
                           [RB("6.3.3", "Each Methuselah may gain one vote by using"),
                            RB("6.3.3", "political action card was used to call the referendum, that card provides"),
                            RB("6.3.3", "from political action cards")])
EDGE_VOTE = rule("EDGE_VOTE", "the Edge's holder can burn it for 1 vote",
                 [V("resolving-a-referendum", "The Methuselah who has the Edge can burn it to gain 1 vote")],
                 [RB("6.3.3", "The Methuselah who has the Edge can burn it")])
CARD_VOTES = rule("CARD_VOTES", "other cards that grant votes are used under the usual rules for playing cards",
                  [V("resolving-a-referendum", "Other Cards and effects: that grant more votes or ballots")],
                  [RB("6.3.3", "can all be used subject to the normal rules")])

# -- situations met in play (issue 23): traits, uniqueness and contests arising in play, titles and sects
#    changing, bleeds reduced or redirected, wake, Red List, immunity, allies put into play ---------------
SCARCE = rule("SCARCE", "moving a scarce vampire to the ready region burns 3 pool per vampire of its clan the Methuselah "
              "already controls (older book: per other vampire of its clan already in play)",
              [V("traits", "they must burn 3 pool for each vampire of the same clan they already")],
              [RB("11", "moves a scarce vampire")])
SLAVE = rule("SLAVE", "a slave performs no directed action unless its controller controls a ready member of its master clan",
             [V("traits", "A slave cannot perform a directed action")],
             [RB("11", "control a ready member of the specified")])
SLAVE_COMBAT = rule("SLAVE_COMBAT", "when a member of its master clan is blocked, a slave of the same Methuselah may lock "
                    "to cancel the combat, unlock the acting vampire and enter combat with the blocker instead",
                    [V("traits", "lock the slave to cancel the combat")],
                    [RB("11", "tap the slave to cancel the combat")])
STERILE = rule("STERILE", "a sterile vampire performs no action that puts a new vampire in play",
               [V("traits", "Sterile vampires cannot perform actions to put new")],
               [RB("11", "Sterile vampires cannot take actions to put")])
UNIQUE_IN_PLAY = rule("UNIQUE_IN_PLAY", "a unique card brought into play while another copy is in play: the copies are contested",
                      [V("unlock-phase", "control of the card is being contested")],
                      [RB("4.1", "that means control of the card is")])
CONTEST_SELF = rule("CONTEST_SELF", "a Methuselah never contests a card with themself: the incoming copy is burned",
                    [V("deck-construction", "cannot voluntarily contest cards with yourself")],
                    [RB("4.1", "simply burn the incoming")])
TITLE_IN_PLAY = rule("TITLE_IN_PLAY", "two vampires in play claiming the same unique title: the title is contested",
                     [V("unlock-phase", "claims the same unique title")],
                     [RB("4.2", "claims the same title, then")])
TITLE_CITY = rule("TITLE_CITY", "a prince (or archbishop) is contested by any title to the same city; a baron by a prince, "
                  "archbishop or baron of the same city",
                  [V("vampire-sects", "who claims any title to the same city"),
                   V("vampire-sects", "claims the title of prince, archbishop, or baron of the same")],
                  [RB("10.1", "The title of prince is associated with a particular city")])
TITLE_CLAN_UNIQUE = rule("TITLE_CLAN_UNIQUE", "each clan's justicar, Inner Circle member and kholo is unique; the regent is unique",
                         [V("vampire-sects", "justicar and Inner Circle titles are unique"),
                          V("other-vampire-sects", "regent is unique")],
                         [RB("10.1", "justicar and Inner Circle titles are unique"), RB("10.2", "The title of regent is unique")])
TITLE_NOT_UNIQUE = rule("TITLE_NOT_UNIQUE", "primogen, bishop, cardinal, priscus and magaji are not unique and are never contested",
                        [V("vampire-sects", "The title of primogen is not unique"),
                         V("other-vampire-sects", "The other Sabbat titles are not unique")],
                        [RB("10.1", "The title of primogen is not")])
ANARCH_CONTEST_COST = rule("ANARCH_CONTEST_COST", "older book: an anarch (baron) contesting a title with a prince or "
                           "archbishop pays 1 more blood",
                           [],
                           [RB("10.5", "the anarch's cost to contest")])
ONE_TITLE = rule("ONE_TITLE", "a vampire has one title: gaining another loses the first, even a demotion",
                 [V("vampire-sects", "If a vampire with a title gains another, they lose the first title")],
                 [RB("10", "he loses the first title")])
GAIN_TITLE_YIELDS = rule("GAIN_TITLE_YIELDS", "a vampire with a contested title that gains a title yields the contested one",
                         [V("vampire-sects", "they immediately yield the contested title")],
                         [RB("10", "he immediately yields the contested")])
SECT_CHANGE = rule("SECT_CHANGE", "a vampire belongs to one sect; changing sect leaves the old one, and a title of the old "
                   "sect gives no benefit until the sect changes back",
                   [V("vampire-sects", "If a vampire changes sect, they no longer belong"),
                    V("vampire-sects", "they lose the benefit of the title until their clan or sect changes appropriately")],
                   [RB("10", "clans or sects to a clan or sect")])
REDIRECT_REOPENS = rule("REDIRECT_REOPENS", "an action whose target changes (a redirected bleed) reopens block attempts",
                        [V("resolve-any-block-attempts", "this will reopen block attempts")],
                        [])
WAKE = rule("WAKE", "a vampire that wakes may block and play reactions as though unlocked for the rest of the action "
            "(older book: no such term; the card's text applies)",
            [V("important-terms-in-the-game", "A vampire that wakes during an action can attempt to block")],
            [RB("1.4", "Whenever the cards contradict the rules")])
CARD_ACTION = rule("CARD_ACTION", "a card, a vampire's own card text included, can provide an action",
                  [V("action-card-or-card-in-play", "Actions can be provided by cards (either action cards or cards in "
                                                    "play)")],
                  [RB("6.1.6", "or via the same card in play")])
DIRECTED_TARGETS = rule("DIRECTED_TARGETS", "an action that targets another Methuselah's minion is directed at that "
                        "Methuselah, (D) or not",
                        [V("vampire-the-eternal-struggle", "targets one or more other Methuselahs, or the minions or "
                                                           "cards they control")],
                        [RB("rules-glossary", "targets or more other Methuselahs (or the minions or cards they "
                                              "control)")])
TORPOR_TARGETS = rule("TORPOR_TARGETS", "vampires in torpor are eligible targets by default; cards out of play are not",
                      [V("targeting-of-cards", "Vampires in the torpor region are eligible targets by default")],
                      [RB("1.6.1", "Vampires in the torpor region are eligible targets by default")])
ALLY_AS_VAMPIRE = rule("ALLY_AS_VAMPIRE", "an ally playing a card as a vampire is one for that card's effects, of "
                       "capacity 1 unless its card says",
                       [V("minion-cards", "the ally is treated as a vampire for all effects generated by the play of "
                                          "the card"),
                        V("minion-cards", "the ally has a capacity of 1")],
                       [RB("1.6.3", "as a vampire")])
UNCONTROLLED_TARGETS = rule("UNCONTROLLED_TARGETS", "a card targets a controlled card: not a vampire in the "
                            "uncontrolled region, unless its text names that region",
                            [V("targeting-of-cards", "but vampires in the uncontrolled region and contested cards are "
                                                     "not")],
                            [RB("1.6.1", "contested cards are not")])
RED_LIST_MARK = rule("RED_LIST_MARK", "a master phase action marks a Red List minion for the current turn",
                     [V("traits", "use a master phase action to mark a Red")],
                     [RB("11", "may use a master phase action")])
RED_LIST_HUNT = rule("RED_LIST_HUNT", "a ready vampire may enter combat with a marked Red List minion: +1 stealth, "
                     "directed, 1 blood, once per vampire each turn",
                     [V("traits", "Each vampire can perform this action only once each")],
                     [RB("11", "this action only once each turn")])
IMMUNE = rule("IMMUNE", "damage from a source a minion is immune to is inflicted unsuccessfully: nothing to mend, no wound "
              "(older book: no such term; the card's text applies)",
              [V("combat", "is inflicted unsuccessfully")],
              [RB("1.4", "Whenever the cards contradict the rules")])
EQUIP_SEVERAL = rule("EQUIP_SEVERAL", "several equipment cards can be taken from one minion in a single equip action, "
                     "announced with the action",
                     [V("equip", "More than one equipment card can be taken from a minion in a single action")],
                     [RB("6.1.3", "from a minion in a single action")])
EQUIP_ONE_CARD = rule("EQUIP_ONE_CARD", "only one action card (one equipment card from the hand) is played for an action",
                      [V("minion-cards", "Only one action card can be played for the action")],
                      [RB("1.6.3", "cannot bring two equipment cards")])
CONTROL_CHANGE = rule("CONTROL_CHANGE", "control of a card can change through game effects; its owner does not",
                      [V("important-terms-in-the-game", "Control can change through game effects")],
                      [RB("1.3", "Your cards are never transferred")])
STEAL_CARD = rule("STEAL_CARD", "a stolen card changes controller for good and stays in the region it was in",
                  [V("wording-templates", "A Methuselah who steals a card takes permanent control of it"),
                   V("wording-templates", "The card stays in the same region as it was before")],
                  [])
OWNER_ASH_HEAP = rule("OWNER_ASH_HEAP", "a burned card goes to its owner's ash heap, whoever controls it",
                      [V("important-terms-in-the-game", "When a card is burned, it is placed into its owner's ash heap")],
                      [RB("rules-glossary", "Burn: Discard. A burned card goes to its owner")])
OWNED_STAY = rule("OWNED_STAY", "an ousted Methuselah's cards that others control remain in play until burned",
                  [V("rules-of-card-ownership", "any cards that you own that other Methuselahs control remain")],
                  [RB("9.1", "remain in play as normal")])
ALLY_BROUGHT_IN = rule("ALLY_BROUGHT_IN", "an ally cannot act the turn it is brought into play",
                       [V("minion-cards", "Allies cannot act the turn they are brought into play")],
                       [RB("6.1.5", "even though it is controlled")])


# -- cards named from the card base (cards.py) ----------------------------------
CARD_REQUIREMENTS = rule("CARD_REQUIREMENTS", "a card is played only by a minion meeting its clan, Discipline and text requirements (a master card: by a Methuselah controlling such a ready minion)",
                         [V("requirements-for-playing-cards", "Only a minion who meets the requirements given on a minion card can play it")],
                         [RB("1.6.1", "Some cards will have other requirements"), RB("1.6.3", "in these cases, the card can only be played by")])
DISCIPLINE_LEVEL = rule("DISCIPLINE_LEVEL", "a basic Discipline allows a card's basic effect; a superior one either effect",
                        [V("crypt-cards", "they can use only the basic (plain text) effect"),
                         V("crypt-cards", "may opt to use either the basic")],
                        [RB("1.5", "he can use only the basic (plain"), RB("1.5", "then only vampires who have")])
CARD_ACTION_WHO = rule("CARD_ACTION_WHO", "an action card is played by a ready unlocked minion to perform an action",
                       [V("minion-cards", "minion can play an action card to perform an action other than the")],
                       [RB("1.6.3", "Action cards: A minion can play an action card")])
CARD_MODIFIER_WHO = rule("CARD_MODIFIER_WHO", "action modifier cards are played by the acting minion during its action",
                         [V("minion-cards", "The acting minion can play these cards to")],
                         [RB("1.6.3", "The acting minion can play these cards")])
CARD_REACTION_WHO = rule("CARD_REACTION_WHO", "reaction cards are played by another Methuselah's ready unlocked minion, in response to an action",
                         [V("minion-cards", "A ready unlocked minion can play a reaction card")],
                         [RB("1.6.3", "A ready untapped minion can play a reaction")])
CARD_COMBAT_WHO = rule("CARD_COMBAT_WHO", "combat cards are played by minions in combat",
                       [V("minion-cards", "These are played by minions when in combat")],
                       [RB("1.6.3", "These are played by minions when in combat")])
CARD_POLITICAL_WHO = rule("CARD_POLITICAL_WHO", "political action cards are played by vampires, to call a referendum",
                          [V("minion-cards", "Only vampires can play political action cards")],
                          [RB("1.6.3", "A political action card can be played to call")])
CARD_MASTER_WHO = rule("CARD_MASTER_WHO", "master cards are played by Methuselahs, minion cards by minions",
                       [V("card-types", "Master cards are played by Methuselahs")],
                       [RB("1.6.1", "There are three main types of library cards")])
CARD_CANCELLED = rule("CARD_CANCELLED", "a card cancelled as it is played has no effect but is played; a cancelled action card does not lock its minion, a cancelled non-action card's cost is paid",
                      [V("wording-templates", "A cancelled card has no effect, but it is still"),
                       V("wording-templates", "If an action card is cancelled, the minion does not lock"),
                       V("wording-templates", "If a non-action card is cancelled, its cost must be paid as normal")],
                      [])
CANCEL_AS_PLAYED = rule("CANCEL_AS_PLAYED", "an effect that cancels a card as it is played is played then, in the card's \"as played\" time",
                        [V("playing-a-card", "Some effects can cancel a card")],
                        [RB("1.6.1", "Some effects can cancel a card")])
STRIKE_CANCELLED = rule("STRIKE_CANCELLED", "a minion whose strike card is cancelled chooses a strike again",
                        [V("wording-templates", "If a combat card used for a strike is cancelled")],
                        # (the older book says only that each minion chooses a strike: a cancelled card was none)
                        [RB("6.4.3", "Each minion chooses his strike")])
BURN_OPTION = rule("BURN_OPTION", "a card with the burn option may be discarded and replaced in any unlock phase by a Methuselah controlling no minion meeting its requirements, once per unlock phase",
                   [V("unlock-phase", "may discard it during ANY Methuselah's unlock phase and replace it"),
                    V("unlock-phase", "Each Methuselah is limited to one such discard each unlock phase")],
                   [RB("1.6.1", "Each Methuselah is limited to")])
UNIQUE_CARD = rule("UNIQUE_CARD", "only one copy of a unique card can be in play; another Methuselah's copy makes them contested",
                   [V("important-terms-in-the-game", "Only one copy of a unique card can be in play at a time")],
                   [RB("11", "Only one copy of a unique card can be in")])


def all_rules() -> list[Rule]:
    """Every rule above, in the order of this file."""
    return [v for v in globals().values() if isinstance(v, Rule)]


def named(name: str) -> Optional[Rule]:
    """The rule called `name` ("BLEED_ONCE"), or None: a scenario's `unmodelled` event names rules by name."""
    value = globals().get(name)
    return value if isinstance(value, Rule) else None
