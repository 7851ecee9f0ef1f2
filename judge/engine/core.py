"""The transition function: `apply(state, event) -> (state, entries)`, pure and deterministic.

Handlers are registered per event type (`@handles(EventType)`); each works on
a `Draft` of the state and writes `Entry`s (what happened, and the Rules it
applied) to a `Log`. A handler refuses an illegal move by raising `Refusal`,
and an uncovered one by raising `NotModelled`: the draft is then dropped and
the state is unchanged.

Part 2 of the engine plugs in here: it registers handlers for its combat
events with `during_combat=True`; until then every event after a successful
block stops with "not modelled: combat".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from judge.engine import citations as R
from judge.engine.citations import Rule
from judge.engine.errors import NotModelled, Refusal
from judge.engine.events import Event
from judge.engine.state import ALLY, Draft, GameState, Minion, READY, TORPOR


@dataclass(frozen=True)
class Entry:
    text: str
    rules: tuple[Rule, ...] = ()


class Log:
    def __init__(self, edition: str):
        self.edition = edition
        self.entries: list[Entry] = []

    def add(self, text: str, *rules: Rule) -> None:
        self.entries.append(Entry(text, tuple(r for r in rules if r is not None)))


Handler = Callable[[Draft, Event, Log], None]


@dataclass(frozen=True)
class HandlerSpec:
    fn: Handler
    during_combat: bool


HANDLERS: dict[type, HandlerSpec] = {}


def handles(*types: type, during_combat: bool = False):
    def deco(fn: Handler) -> Handler:
        for t in types:
            HANDLERS[t] = HandlerSpec(fn, during_combat)
        return fn

    return deco


def _spec(event: Event) -> HandlerSpec:
    spec = HANDLERS.get(type(event))
    if spec is None:
        raise NotModelled(f"events of the kind {type(event).__name__}")
    return spec


def needs_settle(state: GameState, event: Event) -> bool:
    """An action in progress resolves before any event that is not part of it."""
    return state.action is not None and state.combat is None and not type(event).within_action


def settle(state: GameState) -> tuple[GameState, list[Entry]]:
    """Let the action in progress resolve: open block attempt first, then the action."""
    from judge.engine import actions

    d = Draft(state)
    log = Log(state.edition)
    actions.settle(d, log)
    after_event(d, log)
    return d.freeze(), log.entries


def apply(state: GameState, event: Event) -> tuple[GameState, list[Entry]]:
    if state.result.over:
        raise Refusal("the game is over: no more events", [R.WINNER])
    spec = _spec(event)
    if state.combat is not None and not spec.during_combat:
        c = state.combat
        raise NotModelled(f"combat between {c.acting} and {c.opposing} is pending after the block; "
                          f"combat is resolved by part 2 of the engine, so {event.describe()!r} cannot be replayed",
                          [R.COMBAT, R.BLOCKED])
    if state.action is not None and not type(event).within_action:
        raise RuntimeError("settle() the action before applying an event outside it")
    d = Draft(state)
    log = Log(state.edition)
    spec.fn(d, event, log)
    after_event(d, log)
    return d.freeze(), log.entries


def after_event(d: Draft, log: Log) -> None:
    from judge.engine import ending

    ending.check_ousting(d, log)


# -- shared helpers -----------------------------------------------------------------------
def rule_exists(d: Draft, rule: Rule) -> bool:
    return rule.exists_in(d.edition)


def minion(d: Draft, name: str) -> Minion:
    m = d.minions.get(name)
    if m is None:
        raise Refusal(f"{name} is not in play (burned, removed, or never there)", [R.OUSTED])
    return m


def require_seated(d: Draft, player: str) -> None:
    p = d.players[player]
    if p.ousted:
        raise Refusal(f"{player} has been ousted and takes no further part in the game", [R.OUSTED])
    if p.withdrawn:
        raise Refusal(f"{player} has withdrawn from the game", [R.WITHDRAW_VP])


def pool(d: Draft, player: str, delta: int) -> int:
    """Move `delta` pool between `player` and the blood bank; returns the change made."""
    p = d.players[player]
    if delta < 0:
        delta = -min(p.pool, -delta)
    changes = {"pool": p.pool + delta}
    if delta < 0 and p.withdrawing:
        changes["withdrawal_broken"] = True  # losing or spending pool ends a withdrawal
    d.put_player(player, **changes)
    d.set(bank=d.bank - delta)
    return delta


def blood(d: Draft, name: str, delta: int, log: Optional[Log] = None, drain: bool = True) -> int:
    """Move blood (life, for an ally) between a minion and the bank; excess over capacity drains."""
    m = d.minions[name]
    if delta < 0:
        delta = -min(m.blood, -delta)
        if delta and m.controlled and d.players[m.controller].withdrawing:
            d.put_player(m.controller, withdrawal_broken=True)
    d.put_minion(name, blood=m.blood + delta)
    d.set(bank=d.bank - delta)
    if drain:
        drain_excess(d, name, log)
    return delta


def drain_excess(d: Draft, name: str, log: Optional[Log]) -> int:
    m = d.minions[name]
    if m.kind == ALLY or m.region not in (READY, TORPOR) or m.blood <= m.capacity:
        return 0
    excess = m.blood - m.capacity
    d.put_minion(name, blood=m.capacity)
    d.set(bank=d.bank + excess)
    if log is not None:
        log.add(f"{name} is above capacity {m.capacity}: {excess} blood drains to the blood bank.", R.CAPACITY_DRAIN)
    return excess


def move_blood(d: Draft, src_player: Optional[str], dst_minion: Optional[str], amount: int,
               src_minion: Optional[str] = None, dst_player: Optional[str] = None) -> None:
    """Move counters between a pool and a minion without passing through the bank (transfers)."""
    if src_player:
        p = d.players[src_player]
        d.put_player(src_player, pool=p.pool - amount, withdrawal_broken=p.withdrawal_broken or p.withdrawing)
    if src_minion:
        d.put_minion(src_minion, blood=d.minions[src_minion].blood - amount)
    if dst_minion:
        d.put_minion(dst_minion, blood=d.minions[dst_minion].blood + amount)
    if dst_player:
        d.put_player(dst_player, pool=d.players[dst_player].pool + amount)


def remove_minion(d: Draft, name: str) -> int:
    """Take a card out of play; its counters (and its retainers') go to the bank."""
    m = d.minions.pop(name)
    d.set(bank=d.bank + m.counters)
    return m.counters


def play_from_hand(d: Draft, player: str, log: Log, what: str) -> None:
    """Play a card from the hand and draw its replacement, unless the library is empty."""
    p = d.players[player]
    if p.hand <= 0:
        raise Refusal(f"{player} has no card in hand to play {what}", [R.DRAW_REPLACE])
    hand, library = p.hand - 1, p.library
    if library is None or library > 0:
        hand += 1
        library = None if library is None else library - 1
    elif log is not None:
        log.add(f"{player}'s library is empty: no card replaces {what} ({player} now has {hand} in hand).",
                R.DRAW_REPLACE)
    d.put_player(player, hand=hand, library=library)


def names(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]



# The rules register their handlers on import; importing them here means `apply`
# works whichever module a caller imported first.
from judge.engine import actions as _actions, phases as _phases  # noqa: E402,F401
