"""Which function applies each event: the one table from event type to handler.

A handler takes a `Draft` of the state, the event and the `Log` (helpers.py), changes the draft and
writes what happened with the Rules it applied; it refuses an illegal move with `Refusal` and an
uncovered one with `NotModelled` (errors.py), and the transition is then dropped. core.apply looks the
handler up here; stages.py says in which open stage each event may come. A new event needs its type
(events.py), its forms (a forms module), its handler (a rule module) and its line below.
"""
from __future__ import annotations

from typing import Callable

from judge.engine.vtes import abilities, actions, cards, combat, phases, politics, situations, stages, torpor
from judge.engine.errors import NotModelled
from judge.engine.vtes.events import (VoteAbility, AbilityBleed, ActionCard, AggravateHands, AllyIntoPlay, BecomeAnarch, Bleed, Block, BurnOption, CastVote,
                                 BurnFor, ChangeControl, ChangeSect, ChooseStrike, ClosePolling, CombatAction, CombatOver, TargetAction, ContestCard,
                                 ContestTitle, CryptDraw, Decline, Diablerize, Discard, EdgePool, Effect, Employ,
                                 EndTurn, EnterCombat, Equip, Event, GainStrikes, GainTitle, GoToPhase, Hunt,
                                 HuntingGround, LockLocation,
                                 InflictDamage, Influence, LeaveTorpor, Maneuver, MarkRedList, MasterCard, Modifier,
                                 NoDiablerie, NoManeuver, NoPress, NoPrevent, Pass, PlayCard, Political, Press,
                                 Prevent, Reaction, Recruit, RedListHunt, Rescue, SlaveTakesOver, Terms,
                                 TransferBack, TransferPool, TurnOf, UnlockInfernal, UnlockSelf, Unmodelled, Withdraw)
from judge.engine.vtes.helpers import Log
from judge.engine.vtes.state import Draft

Handler = Callable[[Draft, Event, Log], None]

HANDLERS: dict[type, Handler] = {
    # the turn and its phases (phases.py)
    GoToPhase: phases.go_to_phase, EndTurn: phases.end_turn, TurnOf: phases.turn_of,
    EdgePool: phases.edge_pool, ContestCard: phases.contest_card, ContestTitle: phases.contest_title,
    UnlockInfernal: phases.unlock_infernal, Withdraw: phases.withdraw,
    MasterCard: phases.master_card,
    TransferPool: phases.transfer_pool, TransferBack: phases.transfer_back, CryptDraw: phases.crypt_draw,
    Influence: phases.influence, Discard: phases.discard,
    # actions: announced, blocked, modified, resolved (actions.py)
    Bleed: actions.bleed_action, Hunt: actions.hunt_action, Equip: actions.equip_action,
    Employ: actions.employ_action, Recruit: actions.recruit_action, BecomeAnarch: actions.anarch_action,
    ActionCard: actions.action_card, Political: actions.political_action, AbilityBleed: actions.ability_bleed,
    Modifier: actions.modifier, Reaction: actions.reaction, Block: actions.block, Decline: actions.decline,
    Effect: actions.effect_event, Unmodelled: actions.unmodelled,
    # nothing more is played: the open stage moves on (stages.py)
    Pass: stages.pass_,
    # combat and damage (combat.py, damage.py)
    EnterCombat: combat.enter_combat, Maneuver: combat.maneuver, NoManeuver: combat.no_maneuver,
    ChooseStrike: combat.choose_strike, GainStrikes: combat.gain_strikes, Prevent: combat.prevent,
    NoPrevent: combat.no_prevent, Press: combat.press, NoPress: combat.no_press, CombatOver: combat.combat_over,
    InflictDamage: combat.inflict_damage, AggravateHands: combat.aggravate_hands,
    # torpor and diablerie (torpor.py)
    LeaveTorpor: torpor.leave_torpor, Rescue: torpor.rescue, Diablerize: torpor.diablerize,
    NoDiablerie: torpor.no_diablerie,
    # politics (politics.py)
    Terms: politics.terms, CastVote: politics.cast_vote, VoteAbility: politics.vote_ability,
    ClosePolling: politics.close_event,
    # cards named from the card base (cards.py)
    PlayCard: cards.play_card, BurnOption: cards.burn_option, HuntingGround: cards.hunting_ground,
    LockLocation: cards.lock_location,
    # situations met in play: titles and sects changed, the Red List, allies put into play (situations.py)
    GainTitle: situations.gain_title, ChangeSect: situations.change_sect, MarkRedList: situations.mark_red_list,
    RedListHunt: situations.red_list_hunt, AllyIntoPlay: situations.ally_into_play,
    ChangeControl: situations.change_control, SlaveTakesOver: situations.slave_takes_over,
    # what a vampire's own card lets it do (abilities.py)
    CombatAction: abilities.combat_action, TargetAction: abilities.target_action, BurnFor: abilities.burn_for, UnlockSelf: abilities.unlock_self,
}


def handler_for(event: Event) -> Handler:
    """The function that applies `event`; NotModelled for an event of a kind no handler takes."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise NotModelled(f"events of the kind {type(event).__name__}")
    return handler
