"""The transition function: `apply(state, event) -> (state, entries)`, pure and deterministic.

Handlers are registered per event type (`@handles(EventType)`); each works on
a `Draft` of the state and writes `Entry`s (what happened, and the Rules it
applied) to a `Log`. A handler refuses an illegal move by raising `Refusal`,
and an uncovered one by raising `NotModelled`: the draft is then dropped and
the state is unchanged.

An action's resolution can leave a stage open: a combat (after a block or a
card's effect), a blocker's chance to diablerize a vampire leaving torpor, a
referendum. Handlers of the events that belong inside a stage say so
(`@handles(E, during_combat=True)`, `during_chance`, `during_referendum`);
any other event first lets the open stage finish as the books' defaults say
(`needs_settle` / `settle`): an action resolves when nothing more is played,
a combat goes on by default (close range, hand strikes, no press), a
referendum's polling closes, a diablerie chance passes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from judge.engine import rules as R
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
    during_referendum: bool = False
    during_chance: bool = False


HANDLERS: dict[type, HandlerSpec] = {}


def handles(*types: type, during_combat: bool = False, during_referendum: bool = False, during_chance: bool = False):
    def deco(fn: Handler) -> Handler:
        for t in types:
            HANDLERS[t] = HandlerSpec(fn, during_combat, during_referendum, during_chance)
        return fn

    return deco


def _spec(event: Event) -> HandlerSpec:
    spec = HANDLERS.get(type(event))
    if spec is None:
        raise NotModelled(f"events of the kind {type(event).__name__}")
    return spec


def open_stage(state: GameState) -> Optional[str]:
    """What the table is in the middle of: combat, chance, referendum, action, or nothing."""
    if state.combat is not None:
        return "combat"
    if state.chance is not None:
        return "chance"
    if state.referendum is not None:
        return "referendum"
    if state.action is not None:
        return "action"
    return None


def belongs(state: GameState, event: Event) -> bool:
    """Whether `event` can happen inside the stage the table is in."""
    stage = open_stage(state)
    if stage is None:
        return True
    if stage == "action":
        if type(event).needs_success and state.action.attempt is not None:
            return True  # judged now, while the action may still be blocked: refused
        return type(event).within_action
    spec = HANDLERS.get(type(event))
    if spec is None:
        return False
    return {"combat": spec.during_combat, "chance": spec.during_chance,
            "referendum": spec.during_referendum}[stage]


def needs_settle(state: GameState, event: Event) -> bool:
    """An open stage (action, combat, referendum...) finishes before any event that is not part of it."""
    return not belongs(state, event)


def settle(state: GameState) -> tuple[GameState, list[Entry]]:
    """Let the innermost open stage finish as if nothing more were played in it."""
    from judge.engine import actions, combat, politics, torpor

    d = Draft(state)
    log = Log(state.edition)
    stage = open_stage(state)
    if stage == "combat":
        combat.finish(d, log)
    elif stage == "chance":
        torpor.pass_chance(d, log)
    elif stage == "referendum":
        politics.close_polling(d, log)
    elif stage == "action":
        actions.settle(d, log)
    after_event(d, log)
    return d.freeze(), log.entries


def apply(state: GameState, event: Event) -> tuple[GameState, list[Entry]]:
    if state.result.over:
        raise Refusal("the game is over: no more events", [R.WINNER])
    spec = _spec(event)
    if needs_settle(state, event):
        raise RuntimeError(f"settle() the open {open_stage(state)} before applying {event.describe()!r}")
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


def burn_dead_ally(d: Draft, log: Log, name: str) -> None:
    """An ally that paid or lost its last life counter is burned (a block attempt it made ends)."""
    m = d.minions.get(name)
    if m is None or m.kind != ALLY or m.blood > 0 or not m.controlled:
        return
    c = d.combat
    if c is not None and name in (c.acting, c.opposing):
        raise NotModelled(f"{name} pays its last life counter during combat: when a combatant burned this way "
                          f"leaves the combat is not modelled", [R.ALLY_BURNED, R.COMBAT])
    remove_minion(d, name)
    log.add(f"{name} has lost its last life counter and is burned.", R.ALLY_BURNED)
    a = d.action_()
    if a is not None and a.attempt is not None and a.attempt.blocker == name:
        d.put_action(attempt=None)
        log.add(f"{name}'s block attempt ends with it.", R.ALLY_BURNED, R.BLOCK_REPEAT)


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
from judge.engine import combat as _combat, damage as _damage, politics as _politics, torpor as _torpor  # noqa: E402,F401
