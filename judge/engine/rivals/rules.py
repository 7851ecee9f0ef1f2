"""Every rule the Rivals engine applies, as data: a name, the rule in a few words, and the paragraphs of the
Rivals rulebook (corpus document `rivals`) that state it, each named by its section key and a few words
copied from it (citations.py locates them; tests/test_rivals_engine.py proves each resolves to exactly one
paragraph holding its quote). The V:TES rules are judge/engine/vtes/rules.py."""
from __future__ import annotations

from judge.engine.citations import RIVALS, BookRule, Cite

DOC = "rivals"


def _rule(name: str, what: str, *cites: tuple[str, str]) -> BookRule:
    return BookRule(name, what, RIVALS, tuple(Cite(DOC, section, quote) for section, quote in cites))


# -- set-up --------------------------------------------------------------------------------------------
SETUP_PRESTIGE = _rule("SETUP_PRESTIGE", "each player starts with 20 Prestige",
                       ("set-up", "grabs 20 value worth of Prestige"))
SETUP_LEADER = _rule("SETUP_LEADER", "the starting vampire is the Leader, +1 Influence from its token",
                     ("set-up", "Your starting vampire is your Leader"))
SETUP_LEADER_BLOOD = _rule("SETUP_LEADER_BLOOD", "Prestige equal to the Leader's BP becomes its Blood",
                           ("set-up", "equal to the Blood Potency of your Leader"))
SETUP_HAND = _rule("SETUP_HAND", "4 Library cards and 1 Faction card; players 2-4 one more Faction card",
                   ("set-up", "Draw 4 cards from your Library and 1 card from your Faction Deck"))
SETUP_CITY = _rule("SETUP_CITY", "the City Deck has 23 cards", ("set-up", "place the 23-card City Deck"))
SETUP_RIVALS = _rule("SETUP_RIVALS", "each player draws a Rival token that is not their own",
                     ("set-up", "The player whose number is on your token is your Rival"))
LIBRARY_COUNT = _rule("LIBRARY_COUNT", "a Library of 40 cards, a Faction Deck of 7 vampires",
                      ("set-up", "Library 40 Cards"), ("set-up", "Faction Deck 7 Cards"))
# -- the turn ------------------------------------------------------------------------------------------
TURN = _rule("TURN", "a turn is the Beginning, Action and End Phases", ("turn-sequence", "Beginning Phase"),
             ("turn-sequence", "Action Phase"), ("turn-sequence", "End Phase"))
CITY_STEP = _rule("CITY_STEP", "burn your Ongoing Events, then place the top City Deck card into The Streets",
                  ("city-deck-step", "Then place the top card of the City Deck into The Streets"))
CITY_FIRST_TURN = _rule("CITY_FIRST_TURN", "the first player's first turn places one card per player",
                        ("city-deck-step", "equal to the number of players in the game instead"))
CITY_EMPTY = _rule("CITY_EMPTY", "no card when the City Deck and its discard pile are empty",
                   ("the-city-deck", "you do not add a card to The Streets"))
CITY_EVENTS = _rule("CITY_EVENTS", "an Ongoing Event stays one round with a token; other Events resolve and burn",
                    ("the-city-deck", "remain in The Streets for exactly 1 round of play"))
START_OF_TURN = _rule("START_OF_TURN", "start-of-turn effects; remove your 'No Influence' tokens",
                      ("start-of-turn-step", "Remove all 'No Influence' tokens from your vampires"))
READY_RETURN = _rule("READY_RETURN", "ready all your cards and return your vampires to your Haven",
                     ("ready-and-return-step", "Ready (turn upright) all cards you control"))
TWO_ACTIONS = _rule("TWO_ACTIONS", "2 actions a turn, the same one twice if able",
                    ("turn-sequence.action-phase", "You get to perform 2 actions during each of your turns"))
EXHAUST_TO_ACT = _rule("EXHAUST_TO_ACT", "an action exhausts a vampire; an unhosted action does not",
                       ("turn-sequence.action-phase", "Actions require a vampire to exhaust"))
MOVE_STREETS = _rule("MOVE_STREETS", "ready vampires in your Haven may move to The Streets in your Action Phase",
                     ("moving-to-the-streets", "Ready vampires in your Haven may move to The Streets"))
STREETS_NO_RETURN = _rule("STREETS_NO_RETURN", "moving costs no action; vampires in The Streets cannot go back",
                          ("moving-to-the-streets", "Vampires in The Streets cannot move to your Haven"))
END_PHASE = _rule("END_PHASE", "no cards or exhaust abilities in the End Phase; its steps in strict order",
                  ("turn-sequence.end-phase", "During this phase, you cannot play any cards"))
TORPOR_STEP = _rule("TORPOR_STEP", "1 Blood on each of your vampires in torpor",
                    ("torpor-and-mending-step", "Put 1 🩸 from the general supply on each of your vampires in torpor"))
MEND_STEP = _rule("MEND_STEP", "discard 1 card per chosen vampire to mend 1 Blood on it",
                  ("torpor-and-mending-step", "You may discard 1 card for each chosen vampire"))
TORPOR_RETURN = _rule("TORPOR_RETURN", "a vampire in torpor at full Blood readies and returns to your Haven",
                      ("torpor-and-mending-step", "ready them and place them back into play at your Haven"))
END_OF_TURN = _rule("END_OF_TURN", "'at the end of your turn' cards resolve",
                    ("end-of-turn-step", "Any card that reads \"at the end of your turn\" resolves now"))
ANTAGONIST = _rule("ANTAGONIST", "each S.A.D. deals 1 Aggravated damage to a vampire of your choice in your coterie",
                   ("antagonist-step", "Each card deals 1 Aggravated damage to a vampire of your choosing"))
ANTAGONIST_LIMIT = _rule("ANTAGONIST_LIMIT", "no more damage to a vampire than it has Blood; not an attack",
                         ("antagonist-step", "you cannot assign more damage to a vampire than it has Blood"))
DRAW_STEP = _rule("DRAW_STEP", "draw 2 cards, each from the Library or the Faction Deck; play passes left",
                  ("draw-step", "Draw 2 cards to end your turn"))
# -- actions -----------------------------------------------------------------------------------------
DRAW_ACTION = _rule("DRAW_ACTION", "unhosted action: draw 1 card from the Library or the Faction Deck",
                    ("unhosted-action-draw-1-card", "Choose whether to draw 1 card from your Library"))
RECRUIT = _rule("RECRUIT", "unhosted action: a vampire from the hand into your Haven, Prestige = BP becomes Blood",
                ("unhosted-action-recruit-a-vampire", "Move Prestige tokens equal to its Blood Potency value"))
CLAIM_PRINCE = _rule("CLAIM_PRINCE", "exhaust a vampire in The Streets to claim the Prince of the City in The Streets",
                     ("action-claim-the-prince-of-the-city-title", "Exhaust a vampire in your coterie in The Streets"),
                     ("action-claim-the-prince-of-the-city-title", "has emerged from the City Deck and is not attached"))
CLAIM_PRINCE_EMERGED = _rule("CLAIM_PRINCE_EMERGED", "a claim needs the Prince of the City emerged and unattached",
                             ("action-claim-the-prince-of-the-city-title",
                              "has emerged from the City Deck and is not attached"))
CLAIM_ATTACKS = _rule("CLAIM_ATTACKS", "foes in turn order may each attack the claimant once; no blocks or "
                      "reactions, no Secrecy; only the claimant's Rival-holder may play an Attack card",
                      ("action-claim-the-prince-of-the-city-title", "These Attacks cannot be Blocked or reacted to"))
CLAIM_RESULT = _rule("CLAIM_RESULT", "a claimant who survives gets the Title, replacing any previous Title",
                     ("action-claim-the-prince-of-the-city-title", "If they survive the attacks, attach the Title"))
ACTION_CARD = _rule("ACTION_CARD", "exhaust a ready vampire to play an Action card; discarded unless Ongoing",
                    ("action-play-an-action-card", "choose a ready vampire in your coterie (in any location)"),
                    ("action-play-an-action-card", "Once the action has resolved, discard it unless"))
CLAN_CARD = _rule("CLAN_CARD", "a clan card needs an active vampire of that clan in your coterie",
                  ("action-play-an-action-card", "You may only play these cards if you have at least 1 vampire"))
BP_LIMIT = _rule("BP_LIMIT", "a vampire plays only cards with BP at most its own",
                 ("glossary", "A vampire may only play cards with a BP equal to or less than their own BP stat"))
# -- attacks -------------------------------------------------------------------------------------------
ATTACK = _rule("ATTACK", "exhaust a ready vampire in The Streets to attack a vampire or a mortal in The Streets",
               ("action-attack", "Exhaust a vampire in your coterie in The Streets. They are now an Attacker"),
               ("action-attack", "against an opposing vampire or a City Deck Mortal in The Streets"))
ATTACK_OPPONENT = _rule("ATTACK_OPPONENT", "an attack is against an opposing vampire or a City Deck Mortal in The Streets",
                        ("action-attack", "against an opposing vampire or a City Deck Mortal in The Streets"))
ATTACK_TARGET = _rule("ATTACK_TARGET", "a City Deck Mortal attached to a vampire (a Retainer) cannot be attacked",
                      ("action-attack", "a City Deck Mortal in The Streets (not attached to a vampire)"),
                      ("mortals-and-retainers", "As long as they are not attached to a vampire"))
ATTACK_FIRST_TURN = _rule("ATTACK_FIRST_TURN", "no attack on the vampires of a foe who has not taken a turn",
                          ("action-attack", "You cannot attack vampires controlled by a foe who has yet"))
SECRECY = _rule("SECRECY", "a vampire in its Haven has +1 Secrecy; Intel at least the Secrecy to attack it there",
                ("havens", "Haven cards grant +1 Secrecy to each vampire in your Haven"),
                ("action-attack", "you must have Intel equal to or greater than their Secrecy"))
HAVEN_INTEL = _rule("HAVEN_INTEL", "to attack a vampire in its Haven, Intel at least its Secrecy",
                    ("action-attack", "you must have Intel equal to or greater than their Secrecy"),
                    ("havens", "Haven cards grant +1 Secrecy to each vampire in your Haven"))
INTEL_DISCARD = _rule("INTEL_DISCARD", "any player may discard X cards for +X Intel to the active player",
                      ("action-attack", "The active player has +X Intel vs their target during this action"))
ATTACK_CARD = _rule("ATTACK_CARD", "one Attack card of the announced type, face down, BP at most the attacker's",
                    ("action-attack", "The card must match the type of attack you declared"))
ILLEGAL_ATTACK_CARD = _rule("ILLEGAL_ATTACK_CARD", "an illegal Attack card is discarded; blocks and reactions are "
                            "undone and the attack goes back to step 6",
                            ("playing-an-attack-card", "Warning! If you flip a card with a Blood Potency higher"))
ATTACK_DAMAGE = _rule("ATTACK_DAMAGE", "the card's damage plus the attacker's attribute for the type",
                      ("resolving-effects-and-determining-damage", "Add up all of the damage you generate"),
                      ("resolving-effects-and-determining-damage", "Only the attacker’s attribute is added"))
RANGED = _rule("RANGED", "no attribute adds to Ranged damage; only Guards block it; Physical reduces it",
               ("ranged-attacks", "There is no Ranged attribute"),
               ("ranged-attacks", "Ranged attacks cannot be blocked, except by vampires"))
RANGED_BLOCK = _rule("RANGED_BLOCK", "only a vampire able to block Ranged attacks (a Guard) blocks one",
                     ("ranged-attacks", "Ranged attacks cannot be blocked, except by vampires"))
BLOCK = _rule("BLOCK", "another ready vampire of the target's party may exhaust to block and become the target",
              ("blocking-an-attack", "one of them may exhaust to block the attack"))
BLOCK_SELF = _rule("BLOCK_SELF", "a vampire cannot block an attack targeting itself",
                   ("blocking-an-attack", "A vampire cannot block an attack targeting itself"))
PARTY_HAVEN = _rule("PARTY_HAVEN", "all vampires in a Haven are a single party",
                    ("forming-parties", "All vampires in their Haven always form a single party"))
PARTIES = _rule("PARTIES", "ready vampires in The Streets form parties; exhausted ones cannot change party",
                ("forming-parties", "Exhausted (sideways) vampires cannot rearrange or change parties"))
REACTION = _rule("REACTION", "the defending player may play one Reaction of the attack's type; its BP is the target's",
                 ("playing-a-reaction-card", "The target of the attack must have the BP required by the Reaction"),
                 ("playing-a-reaction-card", "Only a Ranged Reaction may be used against a Ranged attack"))
SHIELDS = _rule("SHIELDS", "a Reaction's Shields prevent damage; a damaging Reaction adds the reactor's attribute",
                ("playing-a-reaction-card", "Most Reactions give the defender Shields against damage"))
TARGETED = _rule("TARGETED", "a Targeted card retargets the attack to any member of the opposing party; a blocker "
                 "stays a blocker and its Reaction's Shields stay with it",
                 ("specific-card-clarifications", "That vampire becomes the new target, even if the original"))
ABILITIES_IN_ATTACK = _rule("ABILITIES_IN_ATTACK", "the attacker uses abilities, then the defender; never after it",
                            ("action-attack.attack-sequence-step-by-step", "The attacker cannot use additional "
                             "abilities after the defending player has"))
MITIGATE = _rule("MITIGATE", "damage is reduced by prevention, Shields and the attribute for its type",
                 ("mitigating-damage", "that damage is reduced by damage prevention abilities"),
                 ("mitigating-damage", "Damage that surpasses damage prevention and mitigation"))
AGGRAVATED = _rule("AGGRAVATED", "Aggravated damage is not reduced by attributes; a vampire brought to 0 by it is "
                   "burned with its attachments (not the Prince)",
                   ("aggravated-damage", "Aggravated damage is not reduced by a vampire's attributes"))
MORTAL_DAMAGE = _rule("MORTAL_DAMAGE", "a mortal has no defenses and is defeated only by damage at least its Blood",
                      ("mitigating-damage", "If the target is a mortal, they do not take damage"),
                      ("mortals-and-retainers", "Mortals don't have any defenses against damage"))
MORTAL_DEFEATED = _rule("MORTAL_DEFEATED", "a defeated Vagrant or Citizen: Burn (mend the attacker) or Attach; "
                        "its agenda either way",
                        ("mortals-and-retainers", "choose Burn or Attach. Either way, you earn the agenda"))
NO_WIN_MID_ATTACK = _rule("NO_WIN_MID_ATTACK", "all damage resolves; no one wins before the conflict ends",
                          ("action-attack.attack-sequence-step-by-step", "A player cannot win the game before the "
                           "conflict ends"))
RIVAL_VAMPIRE = _rule("RIVAL_VAMPIRE", "defeating or burning a vampire of your Rival's coterie earns 1 Agenda",
                      ("agenda", "When you defeat or burn a vampire in your Rival's coterie, you earn 1"))
# -- abilities and costs -----------------------------------------------------------------------------
ABILITY_ONCE = _rule("ABILITY_ONCE", "an activated ability once during each of your turns",
                     ("activated-abilities-and-costs", "Activated abilities may only be activated once during each"))
ABILITY_FOE_TURN = _rule("ABILITY_FOE_TURN", "not during a foe's turn, unless defensive, during a Prince claim, "
                         "'each player's turn' or Relentless",
                         ("activated-abilities-and-costs", "Activated abilities are not usable during a foe's turn"))
LAST_BLOOD = _rule("LAST_BLOOD", "never spend a vampire's last Blood or your last Prestige on a cost",
                   ("activated-abilities-and-costs", "You cannot spend the last Blood on a vampire"),
                   ("beware-of-low-prestige", "You cannot voluntarily spend your last point of Prestige"))
LAST_PRESTIGE = _rule("LAST_PRESTIGE", "never spend your last Prestige voluntarily (on a cost, or held for Influence)",
                      ("beware-of-low-prestige", "You cannot voluntarily spend your last point of Prestige"),
                      ("activated-abilities-and-costs", "spend your last point of Prestige to pay a cost"))
EXHAUST_ABILITY = _rule("EXHAUST_ABILITY", "an exhaust cost needs that card ready; your own turn unless it says",
                        ("exhaust-abilities", "the card must be ready to be able to pay the exhaust cost"))
COST_NOT_DAMAGE = _rule("COST_NOT_DAMAGE", "Blood costs and Blood loss are not damage",
                        ("activated-abilities-and-costs", "Blood costs (and Blood loss) are not damage"))
# -- torpor and mending ------------------------------------------------------------------------------
TORPOR = _rule("TORPOR", "at 0 Blood: exhausted into torpor, Retainers burned, non-Title attachments discarded, "
               "1 Prestige from your supply becomes its Blood",
               ("torpor", "When a vampire in your coterie has 0 Blood, exhaust them and place them into torpor"))
TORPOR_INACTIVE = _rule("TORPOR_INACTIVE", "vampires in torpor cannot act, are in no party, cannot be attacked",
                        ("torpor", "They cannot perform actions, are not a member of any party"))
MEND_ONCE = _rule("MEND_ONCE", "each vampire mended this way once during the step",
                  ("mending", "Each vampire may only be mended this way once during this step"))
MEND_CAP = _rule("MEND_CAP", "no more Blood than the vampire's Blood Potency",
                 ("mending", "A vampire cannot have more Blood than their current Blood Potency value"))
# -- influence, schemes, titles, conspiracies ----------------------------------------------------------
INFLUENCE = _rule("INFLUENCE", "a vampire exerts all its Influence or none; a 'No Influence' token until your "
                  "next turn; not from torpor",
                  ("influence", "they must use all of their Influence or none of it"),
                  ("influence", "Vampires in torpor cannot exert their Influence"))
INFLUENCE_ALL = _rule("INFLUENCE_ALL", "a vampire exerts all its Influence or none",
                      ("influence", "they must use all of their Influence or none of it"))
INFLUENCE_TORPOR = _rule("INFLUENCE_TORPOR", "a vampire in torpor exerts no Influence",
                         ("influence", "Vampires in torpor cannot exert their Influence"))
INFLUENCE_MODIFIER = _rule("INFLUENCE_MODIFIER", "one Influence Modifier per action or event",
                           ("influence-modifiers", "you may only play 1 of these cards during an action"))
PRESTIGE_INFLUENCE = _rule("PRESTIGE_INFLUENCE", "1 Influence for each Prestige spent",
                           ("spending-prestige-for-influence", "You gain 1 Influence for each Prestige spent"))
SCHEME = _rule("SCHEME", "exhaust a vampire to play a Scheme; players declare clockwise from the active player",
               ("schemes", "One at a time and clockwise starting with the active player"))
SCHEME_RESOLVE = _rule("SCHEME_RESOLVE", "secret Influence revealed, most Influence wins, a tie goes to YES",
                       ("resolving-an-influence-conflict", "A tie goes to the active player (which means YES)"))
SCHEME_PRESTIGE = _rule("SCHEME_PRESTIGE", "the winning side spends its revealed Prestige; the losers keep theirs",
                        ("resolving-an-influence-conflict", "All players on the winning side place all Prestige"))
TITLE = _rule("TITLE", "exhaust the vampire, BP as required, exert the Title's Influence, attach it",
              ("titles", "You must exhaust the vampire you wish to attach the Title to"))
ONE_TITLE = _rule("ONE_TITLE", "a vampire has a single Title; only Prince of the City replaces one",
                  ("titles", "A vampire may only have a single Title"))
UNIQUE_TITLE = _rule("UNIQUE_TITLE", "most Titles are unique; Primogen is one per player",
                     ("titles", "Once a Title is in play, no other vampire of any clan may also have that Title"))
PRINCE_DEFEATED = _rule("PRINCE_DEFEATED", "the Prince's defeater takes the Title; defeated otherwise, it returns "
                        "to The Streets",
                        ("prince-of-the-city", "the vampire who defeated them immediately takes the Prince card"),
                        ("prince-of-the-city", "return the Prince card to The Streets"))
PRINCE_SECRECY = _rule("PRINCE_SECRECY", "the Prince has 0 Secrecy",
                       ("prince-of-the-city", "A vampire with the Prince Title has 0 Secrecy"))
CONSPIRACY = _rule("CONSPIRACY", "exhaust a vampire, play the Conspiracy face down with 1 Prestige on it",
                   ("conspiracy-rules-summary", "play a Conspiracy face down, and place 1 Prestige"))
CONSPIRACY_ADD = _rule("CONSPIRACY_ADD", "each player shown it may add 1 Prestige during each of the controller's "
                       "turns; not the controller on the turn it was played",
                       ("conspiracies", "may add a '1' token to it during each of the controller's turns"),
                       ("conspiracies", "The controller may not use this ability to add a second token"))
CONSPIRACY_RESOLVE = _rule("CONSPIRACY_RESOLVE", "with its required Prestige, resolved in the controller's Action "
                           "Phase, not at a contributor; then discarded, its Prestige to the supply",
                           ("conspiracies", "Players who contributed to the Conspiracy cannot be targeted by it"),
                           ("conspiracies", "Once the required Prestige amount has been achieved"))
# -- attachments, ongoing cards, miscellany -------------------------------------------------------------
ATTACHMENTS = _rule("ATTACHMENTS", "at most 3 attached cards, 1 a Title; a 4th burns a non-Title first",
                    ("attachments", "A vampire may have a maximum of 3 attached cards"))
BURN_RETAINER = _rule("BURN_RETAINER", "burn your attached Retainer during your turn, not during an action",
                      ("attachments", "You may burn an attached Retainer at any time during your turn"))
ONGOING = _rule("ONGOING", "an Ongoing card stays in play", ("ongoing-cards", "Cards with “Ongoing” on them remain"))
DISCARD = _rule("DISCARD", "a discard is from the hand", ("discarding-cards", "it means from your hand as the default"))
OUT_OF_CARDS = _rule("OUT_OF_CARDS", "an empty Library or Faction Deck cannot be drawn from",
                     ("running-out-of-cards", "you cannot draw from that deck anymore"))
OUT_OF_CARDS_NOTHING = _rule("OUT_OF_CARDS_NOTHING", "nothing happens when you run out of cards",
                             ("running-out-of-cards", "Nothing happens if you run out of cards"))
UNIQUE_VAMPIRE = _rule("UNIQUE_VAMPIRE", "no recruit of a vampire named as an active one; the one in torpor is burned",
                       ("vampire-uniqueness", "you cannot recruit a vampire with the same name as one that is active"),
                       ("vampire-uniqueness", "the obvious fraud in torpor is burned"))
GOLDEN_RULE = _rule("GOLDEN_RULE", "a card's text takes precedence over the rules",
                    ("the-golden-rule", "When a card's text contradicts these rules, the card takes precedence"))
# -- the end of the game -------------------------------------------------------------------------------
GAME_END = _rule("GAME_END", "the game ends when a player is knocked out or reaches 13 Agenda",
                 ("what-is-this-game-all-about.how-to-win", "The game ends when any player is knocked out"))
WIN_AGENDA = _rule("WIN_AGENDA", "the first to 13 Agenda wins",
                   ("what-is-this-game-all-about.how-to-win", "You win if you are the first player to reach 13"))
WIN_RIVAL = _rule("WIN_RIVAL", "knocking out your Rival wins",
                  ("what-is-this-game-all-about.how-to-win", "You win if you knock out your Rival."))
WIN_MOST = _rule("WIN_MOST", "otherwise the most Agenda when a foe is knocked out wins",
                 ("what-is-this-game-all-about.how-to-win", "You win if you have the most Agenda points when a foe"))
KNOCK_OUT = _rule("KNOCK_OUT", "a foe is knocked out at 0 Prestige or when their last active vampire is defeated",
                  ("what-is-this-game-all-about.how-to-win", "Cause their Prestige to drop to 0."),
                  ("what-is-this-game-all-about.how-to-win", "Defeat the last active vampire in their coterie"))
RIVAL_TOKEN_HOLDER = _rule("RIVAL_TOKEN_HOLDER", "a foe knocked out by another: their Rival token's holder gains 3 "
                           "Agenda; the knocked-out player's agenda is 0",
                           ("what-is-this-game-all-about.how-to-win", "the player holding their Rival token gains 3"))
TIEBREAKERS = _rule("TIEBREAKERS", "simultaneous wins: active player, most Prestige, then the later player number",
                    ("rare-end-of-game-circumstances", "If two or more players can each claim a win"),
                    ("tiebreakers", "Active player"), ("tiebreakers", "Most Prestige"),
                    ("tiebreakers", "Player 4 has the highest tiebreaker"))
KNOCKED_OUT_ZERO = _rule("KNOCKED_OUT_ZERO", "a knocked-out player's agenda is permanently 0",
                         ("tiebreakers", "A player who is knocked out has their agenda permanently set to 0"))
# -- described card text -------------------------------------------------------------------------------
CARD_TEXT = _rule("CARD_TEXT", "do what the card says (as the scenario describes it)",
                  ("action-play-an-action-card", "Do what the card says to do"))

RULES: tuple[BookRule, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, BookRule))
