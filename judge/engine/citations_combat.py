"""The rules of combat, damage, torpor, diablerie and politics, with their paragraphs per edition.

Data only, like citations.py (whose conventions apply: a `Cite` names a
section key and words copied from the paragraph; OCR-damaged words of the
older book are avoided). `citations` re-exports every Rule below, so the
engine names every rule through the one module `citations`.

Where the books differ, each edition's tuple says so: an empty tuple means
that book has no such rule, and the engine then refuses, stops as not
modelled, or behaves as that book says.
"""
from __future__ import annotations

from judge.engine.citations import RB, V, _rule

# -- combat in general -------------------------------------------------------------------------
COMBAT_READY = _rule("COMBAT_READY", "only ready minions take part in combat",
                     [V("combat", "Only ready minions can participate in combat")],
                     [RB("6.4", "only ready minions can participate in combat")])
COMBAT_OWN = _rule("COMBAT_OWN", "a Methuselah's minions never enter combat with each other",
                   [V("combat", "Your minions cannot enter combat with other minions you control")],
                   [RB("6.4", "cannot enter combat with any of your other minions")])
COMBAT_CAUSED = _rule("COMBAT_CAUSED", "a block causes combat, and so can a card's effect",
                      [V("combat", "Also, some cards may cause combat")],
                      [RB("6.4", "some cards' effects may cause combat")])
COMBAT_LOCKED = _rule("COMBAT_LOCKED", "locked minions fight just the same as unlocked ones",
                      [V("combat", "Locked minions fight just the same as unlocked minions")],
                      [RB("6.4", "minions fight just the same as untapped minions")])
COMBAT_ROUND = _rule("COMBAT_ROUND", "a round of combat: seven steps (current book) or three (older book)",
                     [V("combat-overview", "Each round of combat has seven steps")],
                     [RB("6.4.1", "of combat has three steps")])
COMBAT_ACTING_FIRST = _rule("COMBAT_ACTING_FIRST", "the acting minion gets the first opportunity at every stage of combat",
                            [V("combat-overview", "The acting minion always gets first opportunity")],
                            [RB("6.4.1", "the acting minion always gets first")])
BEFORE_RANGE = _rule("BEFORE_RANGE", "cards played before range is determined come before the first maneuver",
                     [V("detailed-course-of-combat", "Some cards or effects will be played before range is determined")],
                     [RB("6.4.2", "be played before the acting minion decides whether or not to play a")])
RANGE_CLOSE = _rule("RANGE_CLOSE", "each round is at close range unless maneuvers change it; no maneuver by default",
                    [V("detailed-course-of-combat", "Close range is the default for each round")],
                    [RB("6.4.2", "Close range is the defaul each round")])
MANEUVER = _rule("MANEUVER", "a maneuver moves to long range, or back to close, offsetting the opponent's last maneuver",
                 [V("combat-overview", "Use maneuvers to change the range to close or long"),
                  V("detailed-course-of-combat", "continue playing maneuvers to keep offsetting")],
                 [RB("6.4.2", "he can maneuver to get back to close range")])
MANEUVER_TWICE = _rule("MANEUVER_TWICE", "older book: a minion cannot play two maneuvers in a row",
                       [],
                       [RB("6.4.2", "A minion cannot play two maneuvers in a")])
MANEUVER_CHOOSES_STRIKE = _rule("MANEUVER_CHOOSES_STRIKE", "using a strike card's or weapon's maneuver chooses that strike",
                                [V("detailed-course-of-combat", "they are choosing their strike as well")],
                                [RB("6.4.2", "effectively choosing his strike as well"),
                                 RB("6.4.3", "then he cannot choose any other strike for his initial")])
MANEUVER_ONE_STRIKE = _rule("MANEUVER_ONE_STRIKE", "no second strike card or weapon can be used to maneuver in the same round",
                            [V("detailed-course-of-combat", "they cannot use a second strike card or weapon to maneuver again in the same round")],
                            [RB("6.4.2", "cannot use a second strike or weapon to maneuver again")])
RANGE_SET = _rule("RANGE_SET", "the range is set when no more maneuvers are played",
                  [V("combat-overview", "2. Determine Range")],
                  [RB("6.4.1", "Use maneuvers to set the range to close or long")])
BEFORE_STRIKES = _rule("BEFORE_STRIKES", "current book: a step for cards played after the range is set, before strikes",
                       [V("detailed-course-of-combat", "only playable after range has been set but before strikes have been chosen")],
                       [])
STRIKE_ONE = _rule("STRIKE_ONE", "one strike per minion per round; the acting minion chooses first, then both resolve together",
                   [V("detailed-course-of-combat", "Each minion gets only one strike per round per default"),
                    V("detailed-course-of-combat", "the acting minion first, then their opponent")],
                   [RB("6.4.3", "Normally, each minion gets only one strike per"),
                    RB("6.4.3", "the acting minion first, then his opponent")])
DEFAULT_STRIKE = _rule("DEFAULT_STRIKE", "the default strike is a hand strike: damage equal to strength (1 by default), at close range",
                       [V("detailed-course-of-combat", "The default strike is a hand strike"),
                        V("combat", "they do an amount of damage equal to their strength")],
                       [RB("6.4.5", "The default strike is a hand strike"),
                        RB("6.4.5", "have a default strength of 1")])
STRIKE_SOURCES = _rule("STRIKE_SOURCES", "a strike comes from a combat card, a weapon the minion has, or the hand strike",
                       [V("detailed-course-of-combat", "The default strike can be substituted from a combat card, from a weapon")],
                       [RB("6.4.3", "from a weapon the minion possesses")])
STRIKE_RANGE = _rule("STRIKE_RANGE", "most strikes are effective only at close range; ranged and R strikes at any range",
                     [V("combat", 'Ranged strikes and strikes that do "R" damage can be used at any range')],
                     [RB("6.4.3", "damage can be used at any range, close or long")])
DODGE = _rule("DODGE", "a dodge, at any range, protects the minion and its possessions from the opposing strike; not its retainers",
              [V("detailed-course-of-combat", "Dodge protects the dodging minion and their possessions, but does not protect any attached retainers")],
              [RB("6.4.5", "from the effects of the opposing strike"), RB("6.4.5", "A dodge is effective at any range")])
COMBAT_ENDS = _rule("COMBAT_ENDS", "a combat ends strike resolves first, at any range, even against a dodge",
                    [V("detailed-course-of-combat", "This type of strike is always the first to resolve"),
                     V("detailed-course-of-combat", "It ends combat even if the opponent dodges")],
                    [RB("6.4.5", "is always the first to resolve"), RB("6.4.5", "Combat ends is not affected by a dodge")])
STEAL_BLOOD = _rule("STEAL_BLOOD", "steal blood moves counters at strike resolution: not damage, cannot be prevented; excess drains",
                    [V("detailed-course-of-combat", 'This does not count as damage and resolves during the "resolve strike" step'),
                     V("detailed-course-of-combat", "the excess drains off immediately")],
                    [RB("6.4.5", "This does not count as damage"),
                     RB("6.4.5", "the stolen blood can be used to heal damage")])
FIRST_STRIKE = _rule("FIRST_STRIKE", "a first strike resolves before normal strikes; a minion it burns or sends to torpor does not strike",
                     [V("detailed-course-of-combat", "A strike done with first strike is resolved before a normal strike")],
                     [RB("6.4.5", "If both minions strike with first strike")])
DESTROY_EQUIPMENT = _rule("DESTROY_EQUIPMENT", "destroy equipment burns an equipment card of the opposing minion",
                          [V("detailed-course-of-combat", "This effect burns an equipment card of the opposing minion")],
                          [RB("6.4.5", "This effect will burn an")])
STEAL_EQUIPMENT = _rule("STEAL_EQUIPMENT", "steal equipment moves it to the striking minion, unusable by it this round, kept after combat",
                        [V("detailed-course-of-combat", "The stolen equipment may not be used by the bearer during the current round of combat")],
                        [RB("6.4.5", "This effect is like destroy equipment"),
                         RB("6.4.5", "is retained by the stealing minion after combat ends")])
ADDITIONAL_STRIKES = _rule("ADDITIONAL_STRIKES", "additional strikes follow the normal pair, at the same range; only minions with one left strike",
                           [V("detailed-course-of-combat", "Only the minions with additional strikes may play strike cards"),
                            V("detailed-course-of-combat", "Additional strikes are handled by repeating the strike and damage resolution steps")],
                           [RB("6.4.3", "only the minions with additional strikes may play strike cards"),
                            RB("6.4.3", "take place at the same range")])
ADDITIONAL_STRIKES_WHEN = _rule("ADDITIONAL_STRIKES_WHEN", "older book: additional strikes are gained only after the first pair of strikes",
                                [],
                                [RB("6.4.3", "only after the first pair of strikes are complet")])
ADDITIONAL_STRIKES_ANY = _rule("ADDITIONAL_STRIKES_ANY", "any strike can be chosen for an additional strike, even after a maneuver",
                               [V("detailed-course-of-combat", "For additional strikes, any strike can be chosen")],
                               [RB("6.4.3", "For additional strikes, any strike can be chosen")])
ADDITIONAL_STRIKES_LIMIT = _rule("ADDITIONAL_STRIKES_LIMIT", "one card or effect (source) of additional strikes per minion per round",
                                 [V("important-terms-in-the-game",
                                    "a minion cannot use more than one card or effect (a source) to gain additional strikes per round of combat")],
                                 [RB("6.4.3", "to gain additional strikes per round of combat")])
RETAINER_STRIKE = _rule("RETAINER_STRIKE", "a retainer can be struck instead of its minion only at long range, announced with the strike",
                        [V("combat", "This can only be done at long range")],
                        [RB("6.4.7", "only be done at long range")])
WOUNDED_ENDS_COMBAT = _rule("WOUNDED_ENDS_COMBAT", "combat ends when a combatant is wounded (or no longer ready)",
                            [V("combat", "If one or both of the combatants are wounded, combat ends"),
                             V("combat", "all remaining steps are skipped until the End of Round step")],
                            [RB("6.4.3", "then combat ends immediately")])
PRESS = _rule("PRESS", "presses continue combat into another round or end it by cancelling a press to continue",
              [V("detailed-course-of-combat", "Presses can be used to continue combat or to end combat, cancelling a press to continue"),
               V("detailed-course-of-combat", "If there is an uncancelled press to continue, another round of combat begins")],
              [RB("6.4.4", "Presses can be used to continue combat"),
               RB("6.4.4", "the combatants will either go their separate ways (the default)")])
PRESS_TWICE = _rule("PRESS_TWICE", "a minion cannot play two presses in a row",
                    [V("detailed-course-of-combat", "A minion cannot play two presses in a row")],
                    [RB("6.4.4", "play two presses in a row")])
END_OF_ROUND = _rule("END_OF_ROUND", "current book: the end of round step, which happens even when combat ends early",
                     [V("detailed-course-of-combat", "This step occurs even if combat ends prematurely")],
                     [])

# -- damage ------------------------------------------------------------------------------------
DAMAGE = _rule("DAMAGE", "damage is prevented, then each point mended with 1 blood (1 life for allies and retainers)",
               [V("detailed-course-of-combat", "Damage resolution has two steps: prevent damage and mend damage"),
                V("detailed-course-of-combat", "they must burn 1 blood to mend the damage")],
               [RB("6.4.6", "Damage resolution has two steps"), RB("6.4.6", "must burn one blood to heal the damage")])
UNMENDED_WOUNDS = _rule("UNMENDED_WOUNDS", "damage a vampire cannot mend leaves it wounded",
                        [V("detailed-course-of-combat", "the unmended damage leaves them wounded")],
                        [RB("6.4.6", "the unhealed damage leaves him wounded")])
PREVENT_DAMAGE = _rule("PREVENT_DAMAGE", "the minion taking damage plays prevention cards one at a time; the rest is inflicted",
                       [V("detailed-course-of-combat", "These damage prevention cards are played one at a time")],
                       [RB("6.4.6", "are played one at a time until all the damage is prevented")])
PREVENT_AGGRAVATED_FIRST = _rule("PREVENT_AGGRAVATED_FIRST", "prevention may go to the aggravated damage before the normal damage",
                                 [V("detailed-course-of-combat", "damage prevention effects can be used to prevent the aggravated damage before the non-aggravated damage")],
                                 [RB("6.4.6", "before the normal damage, if the player chooses")])
NORMAL_DAMAGE_FIRST = _rule("NORMAL_DAMAGE_FIRST", "normal damage inflicted with aggravated damage is handled first",
                            [V("detailed-course-of-combat", "the non-aggravated damage is handled first")],
                            [RB("6.4.6", "the regular damage is handled")])
AGGRAVATED = _rule("AGGRAVATED", "aggravated damage cannot be mended: its first point wounds; each point on a wounded vampire costs 1 blood or it is burned",
                   [V("detailed-course-of-combat", "becomes wounded by the first point of aggravated damage"),
                    V("detailed-course-of-combat", "they must burn 1 blood to prevent their destruction")],
                   [RB("6.4.6", "Aggravated damage Is damage that a vampire cannot heal"),
                    RB("6.4.6", "he must burn a blood to prevent his")])
AGGRAVATED_BURNS = _rule("AGGRAVATED_BURNS", "a vampire burned by aggravated damage is destroyed, without diablerie (older book: without torpor)",
                         [V("detailed-course-of-combat", "Destruction by this method does not constitute diablerie")],
                         [RB("6.4.6", "Destruction by this method does not"), RB("6.4.6", "he goes directly to the ash heap")])
ALLY_DAMAGE = _rule("ALLY_DAMAGE", "allies and retainers lose 1 life per point of damage, aggravated or not, and burn at 0",
                    [V("detailed-course-of-combat", "For each point of damage successfully inflicted on an ally or retainer, they burn 1 life counter")],
                    [RB("6.4.6", "Allies and retainers treat aggravated damage"),
                     RB("6.4.6", "An ally or retainer who loses all of his life")])
TORPOR_AFTER_PAIR = _rule("TORPOR_AFTER_PAIR", "a wounded vampire goes to torpor once the damage of the pair of strikes is handled",
                          [V("detailed-course-of-combat", "A wounded vampire goes to torpor after all remaining damage related to the current pair of strikes is handled"),
                           V("important-terms-in-the-game", 'they are considered as "going to torpor" until the combat is over')],
                          [RB("6.4.6", "to torpor after the remaining damage is handled")])
BURNED_AFTER_COMBAT = _rule("BURNED_AFTER_COMBAT", "current book: a minion burned in combat leaves play when the combat is over",
                            [V("important-terms-in-the-game", "an ally being burned in combat will be in the ash heap only after combat")],
                            [])
ENVIRONMENTAL = _rule("ENVIRONMENTAL", "current book: environmental damage cannot be dodged and resolves with the first pair of strikes",
                      [V("detailed-course-of-combat", "Enviromental damage resolves with the first pair of strikes"),
                       V("combat", "Environmental damage: Any damage not inflicted by a minion")],
                      [])
DAMAGE_OTHER_MEANS = _rule("DAMAGE_OTHER_MEANS", "damage from other means than strikes is handled at once",
                           [V("detailed-course-of-combat", "damage inflicted by the effect is handeled immediately")],
                           [RB("6.4.3", "or from other means), he must burn blood or lose life")])

# -- torpor and diablerie ------------------------------------------------------------------------
TORPOR_GOING = _rule("TORPOR_GOING", "a vampire that cannot mend its wounds goes to torpor with its cards",
                     [V("important-terms-in-the-game", "If a vampire cannot mend their wounds, is sent to torpor or is otherwise wounded")],
                     [RB("6.5.1", "If a vampire cannot heal his wounds, he goes"),
                      RB("6.5.1", "Any retainers, equipment and other")])
LEAVE_TORPOR = _rule("LEAVE_TORPOR", "leave torpor: a vampire in torpor, undirected, +1 stealth, 2 blood; it moves to the ready region",
                     [V("leave-torpor-see-torpor", "Who can leave torpor: A vampire in torpor"),
                      V("leave-torpor-see-torpor", "Default Cost: 2 blood"),
                      V("leave-torpor-see-torpor", "Default stealth: +1 stealth"),
                      V("leave-torpor-see-torpor", "the acting vampire moves from the torpor region to the ready region")],
                     [RB("6.5.2", "The cardless action costs 2 blood"),
                      RB("6.5.2", "moves from the torpor region to the ready region"),
                      RB("6.5.2", "This action has a default +1 stealth")])
LEAVE_TORPOR_COST = _rule("LEAVE_TORPOR_COST", "leave torpor costs 2 blood unless a card says otherwise",
                          [V("leave-torpor-see-torpor", "Default Cost: 2 blood")],
                          [RB("6.5.2", "The cardless action costs 2 blood")])
LEAVE_TORPOR_BLOCKED = _rule("LEAVE_TORPOR_BLOCKED", "a blocked leave torpor: no combat; a vampire blocker may diablerize, otherwise the action fails",
                             [V("leave-torpor-see-torpor", "If this action is blocked, there is no combat"),
                              V("leave-torpor-see-torpor", "they get the opportunity to diablerise the acting vampire")],
                             [RB("6.5.2", "there is no combat (vampires in"),
                              RB("6.5.2", "gets the opportunity to diablerize the acting vampire")])
NO_LONGER_WOUNDED = _rule("NO_LONGER_WOUNDED", "current book: a vampire leaving torpor is no longer wounded",
                          [V("leave-torpor-see-torpor", "A vampire leaving torpor is no longer wounded")],
                          [])
RESCUE = _rule("RESCUE", "rescue: a ready vampire, 2 blood split between rescuer and rescued as announced; the rescued vampire moves to the ready region",
               [V("rescue-a-vampire-from-torpor", "Who can rescue a vampire from torpor: Any ready vampire"),
                V("rescue-a-vampire-from-torpor", "which can be paid by the acting vampire or the rescued vampire"),
                V("rescue-a-vampire-from-torpor", "the vampire in torpor is moved to the ready region")],
               [RB("6.5.3", "or the rescued vampire, or the cost may be split between"),
                RB("6.5.3", "including how the cost will be paid"),
                RB("6.5.3", "the vampire in torpor is moved to the ready region")])
RESCUE_NO_LOCK = _rule("RESCUE_NO_LOCK", "the rescued vampire neither locks nor unlocks",
                       [V("rescue-a-vampire-from-torpor", "The rescued vampire does not lock or unlock")],
                       [RB("6.5.3", "does not tap or untap as a")])
RESCUE_TARGET = _rule("RESCUE_TARGET", "a rescue is undirected at +1 stealth between one controller's vampires, else directed at 0 stealth",
                      [V("rescue-a-vampire-from-torpor", "Directed action, if the acting vampire and the vampire in torpor have different"),
                       V("rescue-a-vampire-from-torpor", "0 stealth, if the acting vampire")],
                      [RB("6.5.3", "This action has a defdudttealth if the acting vampire")])
DIABLERIZE = _rule("DIABLERIZE", "diablerize: a ready vampire, no cost, at a vampire in torpor",
                   [V("diablerise-a-vampire-in-torpor", "Who can diablerise: Any ready vampire"),
                    V("diablerise-a-vampire-in-torpor", "Default cost: None")],
                   [RB("6.5.4", "To have a vampire diablerize a vampire in")])
DIABLERIZE_TARGET = _rule("DIABLERIZE_TARGET", "a diablerie action is undirected at +1 stealth between one controller's vampires, else directed at 0 stealth",
                          [V("diablerise-a-vampire-in-torpor", "Directed action, if the acting vampire and the vampire in torpor have different"),
                           V("diablerise-a-vampire-in-torpor", "+1 stealth, if the acting vampire and the vampire in torpor have the same controller")],
                          [RB("6.5.4", "This action has a default +1 stealth if the acting vampire")])
DIABLERIE_READY = _rule("DIABLERIE_READY", "only ready vampires commit diablerie",
                        [V("diablerie", "Only ready vampires can commit diablerie")],
                        [RB("6.5.5", "vampires can commit diablerie")])
BLOOD_CURSED = _rule("BLOOD_CURSED", "a Blood Cursed vampire cannot commit diablerie",
                     [V("traits", "A vampire who is Blood Cursed cannot commit diablerie")],
                     [RB("11", "A vampire with Blood Curse cannot commit diablerie")])
DIABLERIE_STEPS = _rule("DIABLERIE_STEPS", "diablerie: the victim's blood moves to the diablerist (excess drains), it may take the equipment, the victim is burned",
                        [V("resolving-diablerie", "All blood on the victim is moved to the diablerist"),
                         V("resolving-diablerie", "The diablerist may take any equipment on the victim"),
                         V("resolving-diablerie", "The victim is burned. Any cards and counters on them are also burned")],
                        [RB("6.5.5", "All blood on the victim is moved to the"),
                         RB("6.5.5", "The diablerist may take any equipment on the victim"),
                         RB("6.5.5", "cards and counters on him are")])
DIABLERIE_DISCIPLINE = _rule("DIABLERIE_DISCIPLINE", "an older victim gives the diablerist a Discipline (older book: capacity +1, no blood with it)",
                             [V("resolving-diablerie", "If the victim was older (had a higher capacity) than the diablerist"),
                              V("resolving-diablerie", "the diablerie does not give 1 blood to fill that new capacity")],
                             [RB("6.5.5", "If the victim was older (had a higher capacity)"),
                              RB("6.5.5", "capacity by 1, but does not automatically give")])
DIABLERIE_RED_LIST = _rule("DIABLERIE_RED_LIST", "diablerizing a Red List vampire may give trophies",
                           [V("resolving-diablerie", "If the victim was Red List")],
                           [RB("6.5.5", "Red List, the diablerist may receive trophies")])
BLOOD_HUNT = _rule("BLOOD_HUNT", "a diablerie calls a blood hunt referendum at once; if it passes, the diablerist is burned",
                   [V("resolving-diablerie", "a blood hunt referendum is automatically and immediately conducted"),
                    V("resolving-diablerie", "If the referendum passes, the diablerist is burned")],
                   [RB("6.5.6", "a blood hunt is called, and the diablerist is burned")])
BLOOD_HUNT_NO_CARDS = _rule("BLOOD_HUNT_NO_CARDS", "a blood hunt referendum cannot be blocked; no action modifiers or reactions in it",
                            [V("resolving-diablerie", "In a blood hunt referendum, action modifiers and reaction cards cannot be played"),
                             V("resolving-diablerie", "This referendum is part of the action which led to a diablerie")],
                            [RB("6.5.6", "so it cannot be blocked, and action modifiers and reaction cards cannot be played")])

# -- politics ------------------------------------------------------------------------------------
POLITICAL_TERMS = _rule("POLITICAL_TERMS", "the terms of a referendum are chosen only once the political action succeeds",
                        [V("politics", "are not chosen until the action itself is successful")],
                        [RB("6.3.1", "itself is successful (i.e., remains unblocked)")])
REFERENDUM_STEPS = _rule("REFERENDUM_STEPS", "a referendum: choose the terms, polling, resolve",
                         [V("resolving-a-referendum", "The referendum consists of three steps"),
                          V("resolving-a-referendum", "1. Choose the terms, if any, of the referendum")],
                         [RB("6.3.2", "The referendum consists of three steps")])
POLLING = _rule("POLLING", "votes are cast freely, in any order, without obligation; once cast they cannot change",
                [V("resolving-a-referendum", "there is no obligation to cast votes or ballots"),
                 V("resolving-a-referendum", "Once a vote or ballot has been cast, however, it cannot be changed")],
                [RB("6.3.2", "no obligation to vote"), RB("6.3.2", "has been cast, however, it cannot be changed")])
VOTES_AS_GROUP = _rule("VOTES_AS_GROUP", "the votes of one vampire or other source are cast together, all for or all against",
                       [V("resolving-a-referendum", "all of the votes and ballots from any given vampire or other source must be cast in agreement as a group")],
                       [RB("6.3.3", "or other source must be cast in agreement")])
VOTES_GAINED = _rule("VOTES_GAINED", "Methuselahs have no votes of their own: votes are gained",
                     [V("resolving-a-referendum", "Methuselahs have no inherent votes or ballots")],
                     [RB("6.3.3", "Methuselahs have no inherent votes")])
REFERENDUM_RESULT = _rule("REFERENDUM_RESULT", "more votes for than against passes the referendum; a tie fails",
                          [V("resolving-a-referendum", "If there are more votes for the referendum than against, it passes"),
                           V("resolving-a-referendum", "Tied referendums fail")],
                          [RB("6.3.2", "there are more votes for the referendum"),
                           RB("6.3.2", "the referendum fails and has no effect")])
TITLE_VOTES = _rule("TITLE_VOTES", "each ready titled vampire gives its controller votes",
                    [V("resolving-a-referendum", "For each ready titled vampire a Methuselah controls, they gain votes")],
                    [RB("6.3.3", "For each ready titled vampire a Methuselah")])
VOTES_CAMARILLA = _rule("VOTES_CAMARILLA", "primogen 1, prince 2, justicar 3, Inner Circle 4 votes",
                        [V("resolving-a-referendum", "1 vote for each ready primogen"),
                         V("resolving-a-referendum", "2 votes for each ready prince or baron"),
                         V("resolving-a-referendum", "3 votes for each ready justicar"),
                         V("resolving-a-referendum", "4 votes for each ready Inner Circle member")],
                        [RB("6.3.3", "1 vote for each ready primogen or bishop"),
                         RB("6.3.3", "2 votes for each ready prince, archbishop"),
                         RB("6.3.3", "3 votes for each ready justicar or cardinal"),
                         RB("6.3.3", "4 votes for each ready Inner Circle member")])
VOTES_ANARCH = _rule("VOTES_ANARCH", "a baron has 2 votes",
                     [V("resolving-a-referendum", "2 votes for each ready prince or baron")],
                     [RB("10.5", "baron gets 2 votes")])
VOTES_SABBAT = _rule("VOTES_SABBAT", "bishop 1, archbishop 2, cardinal 3, regent 4 votes; prisci ballots",
                     [V("other-vampire-sects", "1 vote for each ready bishop"),
                      V("other-vampire-sects", "2 votes for each ready archbishop"),
                      V("other-vampire-sects", "3 votes for each ready cardinal"),
                      V("other-vampire-sects", "4 votes for the ready regent")],
                     [RB("6.3.3", "1 vote for each ready primogen or bishop"),
                      RB("6.3.3", "2 votes for each ready prince, archbishop"),
                      RB("6.3.3", "3 votes for each ready justicar or cardinal"),
                      RB("6.3.3", "4 votes for each ready Inner Circle member or regen")])
VOTES_LAIBON = _rule("VOTES_LAIBON", "kholo and magaji 2 votes",
                     [V("other-vampire-sects", "a Methuselah gains 2 votes for each ready kholo or magaji they control")],
                     [RB("6.3.3", "2 votes for each ready prince, archbishop")])
PRISCI = _rule("PRISCI", "each ready priscus casts 1 ballot; the majority side gets the prisci block's 3 votes; a tie abstains",
               [V("other-vampire-sects", "Each ready priscus provides 1 ballot for this sub-referendum"),
                V("other-vampire-sects", "If the sub-referendum is tied, the prisci block abstains")],
               [RB("6.3.3", "Each ready priscus provides 1"), RB("6.3.3", "the prisci abstain from the main vote")])
TITLE_SECT = _rule("TITLE_SECT", "a title held outside its sect gives none of its benefits",
                   [V("vampire-sects", "they lose the benefit of the title until their clan or sect changes appropriately")],
                   [RB("10", "loses the benefit of the title")])
CONTESTED_NO_VOTES = _rule("CONTESTED_NO_VOTES", "vampires contesting a title are treated as if they had no title",
                           [V("unlock-phase", "the vampires involved in the contest are treated as if they have no title")],
                           [RB("4.2", "treated as if they have no title")])
CARD_TEXT_VOTES = _rule("CARD_TEXT_VOTES", "a minion may have votes from its card text without a title",
                        [V("resolving-a-referendum", "Other minions may have a title worth votes or ballots (as listed on card text)")],
                        [RB("6.3.3", "Other minions may have votes")])
VOTE_LOCKED = _rule("VOTE_LOCKED", "a locked vampire votes like an unlocked one (older book: its votes count while it is ready)",
                    [V("resolving-a-referendum", "Locked minions can vote the same as unlocked minions")],
                    [RB("6.3.3", "A minion's votes can be used only when")])
TORPOR_NO_VOTES = _rule("TORPOR_NO_VOTES", "a vampire in torpor casts no votes or ballots",
                        [V("torpor", "A vampire in torpor cannot cast any votes or ballots")],
                        [RB("6.3.3", "A minion's votes can be used only when"), RB("6.5", "is not ready. He still untaps")])
POLITICAL_CARD_VOTE = _rule("POLITICAL_CARD_VOTE", "one vote from political action cards per Methuselah; the card that called the referendum counts",
                            [V("resolving-a-referendum", "Each Methuselah can gain no more than 1 vote from political action cards"),
                             V("resolving-a-referendum", "that card provides 1 vote for the acting vampire's controller (and counts against the limit)")],
                            [RB("6.3.3", "Each Methuselah may gain one vote by using"),
                             RB("6.3.3", "political action card was used to call the referendum, that card provides"),
                             RB("6.3.3", "from political action cards")])
EDGE_VOTE = _rule("EDGE_VOTE", "the Edge's holder can burn it for 1 vote",
                  [V("resolving-a-referendum", "The Methuselah who has the Edge can burn it to gain 1 vote")],
                  [RB("6.3.3", "The Methuselah who has the Edge can burn it")])
CARD_VOTES = _rule("CARD_VOTES", "other cards that grant votes are used under the usual rules for playing cards",
                   [V("resolving-a-referendum", "Other Cards and effects: that grant more votes or ballots")],
                   [RB("6.3.3", "can all be used subject to the normal rules")])
