"""The transition function: `apply(state, event) -> (state, entries)`, pure and deterministic.

`apply` looks up the event's handler (registry.py), runs it on a `Draft` of the state, then checks
what every event may cause (a Methuselah ousted, the game over: ending.py), and returns the new state
with the log entries: what happened, and the Rules applied. A handler refuses an illegal move by
raising `Refusal` and an uncovered one by raising `NotModelled` (errors.py): the draft is then
dropped and the given state is unchanged.

An event that does not belong to the stage the table is in (stages.py: an action, a combat, a
diablerie chance, a referendum) first needs that stage to finish: `needs_settle` says so, and `settle`
plays the innermost open stage out by the books' defaults. scenario.replay does this for every event.
"""
from __future__ import annotations

from judge.engine.vtes import ending, helpers, registry, stages
from judge.engine.vtes import rules as R
from judge.engine.errors import Refusal
from judge.engine.vtes.events import Event
from judge.engine.vtes.helpers import Entry, Log, match_hand_sizes
from judge.engine.vtes.state import Draft, GameState


def needs_settle(state: GameState, event: Event) -> bool:
    """An open stage (action, combat, referendum...) finishes before any event that is not part of it."""
    return not stages.belongs(state, event)


def settle(state: GameState) -> tuple[GameState, list[Entry]]:
    """Let the innermost open stage finish as if nothing more were played in it."""
    d = Draft(state)
    log = Log(state.edition)
    stage = stages.open_stage(state)
    if stage is not None:
        stage.finish(d, log)
    after_event(d, log)
    return d.freeze(), log.entries


def close_resolution(state: GameState) -> tuple[GameState, list[Entry]]:
    """The events are over: the cards not replaced until after the last action are drawn (the moment after its
    resolution stays, to be seen)."""
    d = Draft(state)
    log = Log(state.edition)
    helpers.close_resolution(d, log, keep=True)
    return d.freeze(), log.entries


def apply(state: GameState, event: Event) -> tuple[GameState, list[Entry]]:
    """The state after `event`, and what happened; Refusal or NotModelled with the state left as it was."""
    if state.result.over:
        raise Refusal("the game is over: no more events", [R.WINNER])
    handler = registry.handler_for(event)
    if needs_settle(state, event):
        raise RuntimeError(f"settle() the open {stages.open_stage(state).name} before applying {event.describe()!r}")
    d = Draft(state)
    log = Log(state.edition)
    handler(d, event, log)
    after_event(d, log)
    return d.freeze(), log.entries


def after_event(d: Draft, log: Log) -> None:
    """What any event may cause once applied: hand sizes that ready vampires' cards change, Methuselahs ousted, and
    the game's end."""
    match_hand_sizes(d, log)
    ending.check_ousting(d, log)
