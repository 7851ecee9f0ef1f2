"""The flow of play as data: the stages an action's resolution can leave open, and what each admits.

A scenario's events come one at a time, but the table is often in the middle of something: an
action being announced and blocked, a combat, a blocker's chance to diablerize a vampire leaving
torpor, a referendum. Each is a `Stage`, declared below (innermost first: a combat can be open while
its action is over, a referendum after its action succeeded), with

* `admits`: the events that are played inside it. Any other event first lets the stage finish as the
  books' defaults say (core.settle, then core.apply): an action succeeds when nothing more is played,
  a combat goes on by default (close range, hand strikes, no press), a referendum's polling closes, a
  diablerie chance passes;
* `step`: what "nothing more is played" (a `Pass` event) does inside it: the open block attempt
  resolves, a combat step ends, the polling closes, the chance passes;
* `finish`: how it plays out by default when an event outside it arrives;
* `settled_at_end`: whether the end of a scenario's events plays it out too (a combat is left where
  the events leave it, so its state shows the round and step).

The turn itself (unlock, master, minion, influence, discard) is phases.TURN, and a combat round's steps
are combat.STEPS: the same idea, one table each.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Union

from judge.engine.vtes import actions, cards, combat, politics, torpor
from judge.engine.vtes import rules as R
from judge.engine.vtes.events import (VoteAbility, AggravateHands, AllyIntoPlay, BurnFor, LockLocation, ChangeControl, ChangeSect, GainTitle, SlaveTakesOver, Block, CastVote, ChooseStrike, ClosePolling, CombatOver, Decline, Diablerize, Effect,
                                 Event, GainStrikes, InflictDamage, Maneuver, MasterCard, Modifier, NoDiablerie,
                                 NoManeuver, NoPress, NoPrevent, Pass, PlayCard, Press, Prevent, Reaction, Terms,
                                 Unmodelled)
from judge.engine.vtes.helpers import Log
from judge.engine.vtes.state import Draft, GameState

Table = Union[GameState, Draft]


@dataclass(frozen=True)
class Stage:
    """One stage the table can be in the middle of (see the module's docstring for each field)."""

    name: str
    is_open: Callable[[Table], bool]
    admits: frozenset  # event types played inside the stage
    step: Callable[[Draft, Log], None]  # nothing more is played at this point (a pass)
    finish: Callable[[Draft, Log], None]  # an event outside the stage arrived: it plays out by default
    # the end of the scenario's events plays it out (a callable: whether it does, the table being where it is)
    settled_at_end: Union[bool, Callable[[Table], bool]] = True

    def ends_at_end(self, table: Table) -> bool:
        """Whether the end of the scenario's events plays this stage out (`settled_at_end`)."""
        return self.settled_at_end(table) if callable(self.settled_at_end) else self.settled_at_end
    # Events judged inside the stage only while a block attempt is open (a referendum's terms and votes
    # during a political action: refused then, as the referendum is called only if the action succeeds).
    admits_during_block_attempt: frozenset = frozenset()

    def takes(self, table: Table, event: Event) -> bool:
        """Whether `event` is played inside this stage, the table being where it is."""
        kind = type(event)
        if kind is PlayCard:  # a named card belongs where the engine event it is played as belongs
            kind = cards.stage_kind(event, table)
        if kind in self.admits_during_block_attempt and table.action.attempt is not None:
            return True
        return kind in self.admits


# Cards and effects that can come at any time, whatever is open: a card effect, damage from a card, an
# out-of-turn master card, what the engine does not model, and "nothing more is played".
# A card effect changing a title, a sect or a minion's controller, or putting an ally into play, may come at any time.
ANY_TIME = frozenset({Pass, Effect, InflictDamage, MasterCard, Unmodelled, GainTitle, ChangeSect, AllyIntoPlay,
                      ChangeControl})

STAGES: tuple[Stage, ...] = (
    Stage("combat", lambda t: t.combat is not None,
          ANY_TIME | {Maneuver, NoManeuver, ChooseStrike, GainStrikes, Prevent, NoPrevent, Press, NoPress, CombatOver,
                      AggravateHands,
                      SlaveTakesOver},
          step=combat.finish_step, finish=combat.finish, settled_at_end=combat.ends_with_the_events),
    Stage("chance", lambda t: t.chance is not None,
          ANY_TIME | {Diablerize, NoDiablerie},
          step=torpor.pass_chance, finish=torpor.pass_chance),
    Stage("referendum", lambda t: t.referendum is not None,
          ANY_TIME | {Terms, CastVote, VoteAbility, ClosePolling, Modifier, Reaction},  # the cards are refused there
          step=politics.close_polling, finish=politics.close_polling),
    Stage("action", lambda t: t.action is not None,
          ANY_TIME | {Modifier, Reaction, Block, Decline, BurnFor, LockLocation},
          step=actions.pass_in_action, finish=actions.settle,
          admits_during_block_attempt=frozenset({Terms, CastVote, VoteAbility})),
)


def open_stage(table: Table) -> Optional[Stage]:
    """The innermost stage the table is in the middle of, or None."""
    for stage in STAGES:
        if stage.is_open(table):
            return stage
    return None


def belongs(state: GameState, event: Event) -> bool:
    """Whether `event` can happen now: nothing is open, or the open stage admits it."""
    stage = open_stage(state)
    return stage is None or stage.takes(state, event)


def pass_(d: Draft, e: Pass, log: Log) -> None:
    """The handler of `Pass`: nothing more is played, so the open stage moves on by one step."""
    stage = open_stage(d)
    if stage is None:
        log.add(f"{e.player or 'Everyone'} passes; no action is in progress.", R.ONE_ACTION_AT_A_TIME)
        return
    stage.step(d, log)
