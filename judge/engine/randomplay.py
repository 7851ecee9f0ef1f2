"""Random play, after OpenSpiel's random simulation: from a random table, pick random
candidate events, keep those the engine accepts, and check invariants after every
transition. Used by tests/test_engine_random.py and bench/engine_replay.py.

Candidates are drawn for the current situation (whose turn, which phase, an
action in progress or not); the engine decides legality, so a refused candidate
is simply not played. A game ends when it is over, when combat is pending
(part 2), when an event is not modelled, or after `max_events` events.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from judge.engine import actions as _actions  # noqa: F401 - registers the handlers
from judge.engine import citations as R
from judge.engine import core
from judge.engine import phases as _phases  # noqa: F401
from judge.engine.errors import NotModelled, Refusal
from judge.engine.events import (ActionCard, BecomeAnarch, Bleed, Block, CardEffect, ContestCard, ContestTitle, Cost,
                                 CryptDraw, Decline, Discard, EdgePool, Effect, Employ, EndTurn, Equip, GoToPhase, Hunt,
                                 Influence, MasterCard, Modifier, Pass, Political, Reaction, Recruit, TransferBack,
                                 TransferPool, TurnOf, UnlockInfernal, Withdraw)
from judge.engine.state import (ALLY, PHASES, READY, TORPOR, UNCONTROLLED, VAMPIRE, GameState, Minion, PhaseState,
                                Player, counters_in_play)


def random_table(rng: random.Random) -> GameState:
    n = rng.randint(2, 5)
    seating = tuple(f"P{i}" for i in range(n))
    players = {p: Player(name=p, pool=rng.randint(1, 14), hand=7, library=rng.choice([None, 0, 2, 10]),
                         crypt=rng.choice([None, 3])) for p in seating}
    minions: dict[str, Minion] = {}
    count = 0
    for p in seating:
        for _ in range(rng.randint(1, 3)):
            count += 1
            cap = rng.randint(1, 8)
            minions[f"V{count}"] = Minion(
                name=f"V{count}", controller=p, capacity=cap, card=f"V{count}", blood=rng.randint(0, cap),
                locked=rng.random() < 0.2, infernal=rng.random() < 0.1, intercept=rng.choice([0, 0, 0, 1]),
                title=rng.choice([None, None, None, "prince", "primogen"]), sect=rng.choice(["Camarilla", "Anarch"]),
                equipment=("Gun",) if rng.random() < 0.2 else ())
        if rng.random() < 0.4:
            count += 1
            minions[f"A{count}"] = Minion(name=f"A{count}", controller=p, kind=ALLY, card=f"A{count}",
                                          blood=rng.randint(1, 3), bleed=rng.randint(0, 2))
        if rng.random() < 0.6:
            count += 1
            cap = rng.randint(2, 8)
            minions[f"U{count}"] = Minion(name=f"U{count}", controller=p, capacity=cap, card=f"U{count}",
                                          blood=rng.randint(0, cap + 1), region=UNCONTROLLED)
    if rng.random() < 0.2 and n >= 2:  # a contested card
        a, b = rng.sample(seating, 2)
        for p in (a, b):
            count += 1
            minions[f"C{count}"] = Minion(name=f"C{count}", controller=p, capacity=4, card="Contested", blood=2,
                                          contested=True)
    if rng.random() < 0.2 and n >= 2:  # a contested title
        a, b = rng.sample(seating, 2)
        for p in (a, b):
            count += 1
            minions[f"T{count}"] = Minion(name=f"T{count}", controller=p, capacity=5, card=f"T{count}",
                                          blood=rng.randint(0, 3), title="Prince of Paris", title_contested=True)
    turn_number = rng.randint(1, 6)
    phase = rng.choice(PHASES)
    return GameState(edition=rng.choice([R.CURRENT, R.OLDER]), seating=seating, players=players, minions=minions,
                     turn=rng.choice(seating), phase=phase, turn_number=turn_number,
                     edge=rng.choice([None] + list(seating)),
                     phase_state=PhaseState(transfers=_phases.transfers_for(turn_number)))


class _Namer:
    def __init__(self):
        self.n = 0

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def candidates(state: GameState, rng: random.Random, new_name: _Namer) -> list[Callable[[], object]]:
    """Makers of plausible events for this situation (the engine judges them)."""
    turn = state.turn
    seated = state.seated()
    mine = [m for m in state.minions.values() if m.controller == turn]
    others = [m for m in state.minions.values() if m.controller != turn]
    out: list[Callable[[], object]] = []
    add = out.append
    pick = rng.choice
    nxt = PHASES.index(state.phase) + 1
    if state.action is not None:
        a = state.action
        if others:
            add(lambda: Block(blocker=pick(others).name))
        add(lambda: Decline(player=pick(list(a.order) + [None]) if a.order else None))
        add(lambda: Modifier(minion=a.actor, card=pick([None, "M1", "M2"]),
                             **{pick(("stealth", "bleed", "hunt")): 1},
                             cost=Cost(blood=pick([0, 0, 1]), pool=pick([0, 0, 1]))))
        if a.attempt:
            add(lambda: Reaction(minion=a.attempt.blocker, card=pick([None, "R1"]), intercept=1,
                                 cost=Cost(blood=pick([0, 1]))))
        add(lambda: Pass())
        add(lambda: MasterCard(player=pick(seated), out_of_turn=True, trifle=rng.random() < 0.3))
        return out
    if state.phase == "unlock":
        add(lambda: EdgePool(player=turn))
        for m in mine:
            if m.contested:
                add(lambda m=m: ContestCard(player=turn, card=m.card, pay=rng.random() < 0.7))
            if m.title_contested:
                add(lambda m=m: ContestTitle(minion=m.name, pay=rng.random() < 0.7))
            if m.infernal and m.locked:
                add(lambda m=m: UnlockInfernal(player=turn, minion=m.name))
        if rng.random() < 0.05:
            add(lambda: Withdraw(player=turn))
    elif state.phase == "master":
        add(lambda: MasterCard(player=turn, trifle=rng.random() < 0.4, cost_pool=pick([0, 0, 1])))
        add(lambda: MasterCard(player=pick(seated), out_of_turn=True, trifle=rng.random() < 0.3))
    elif state.phase == "minion" and mine:
        # A vampire with no blood must hunt first: offer it, or the turn cannot go on.
        for m in mine:
            if m.kind == VAMPIRE and m.blood == 0 and m.ready and not m.locked:
                add(lambda m=m: Hunt(actor=m.name))
                add(lambda m=m: Hunt(actor=m.name))
        ready = [m for m in mine if m.ready and not m.locked] or mine
        for maker in (_bleed, _bleed, _bleed, _hunt, _hunt, _equip, _employ, _recruit, _anarch, _card, _card,
                      _blood_effect) + ((_political,) if rng.random() < 0.2 else ()):
            add(lambda maker=maker: maker(pick(ready), state, seated, rng, new_name))
    elif state.phase == "influence":
        unc = [m for m in mine if m.region == UNCONTROLLED and m.kind == VAMPIRE]
        for v in unc:
            add(lambda v=v: TransferPool(player=turn, vampire=v.name, amount=rng.randint(1, 2)))
            add(lambda v=v: TransferBack(player=turn, vampire=v.name, amount=1))
            add(lambda v=v: Influence(player=turn, vampire=v.name))
        add(lambda: CryptDraw(player=turn, vampire=new_name("New"), capacity=rng.randint(1, 8)))
    elif state.phase == "discard":
        add(lambda: Discard(player=turn, event_card=rng.random() < 0.2))
    add(lambda: Effect(effect=CardEffect(pool=((pick(seated), rng.randint(-3, 2)),))))
    if nxt < len(PHASES):
        add(lambda: GoToPhase(phase=PHASES[nxt]))
    add(lambda: EndTurn())
    add(lambda: TurnOf(player=pick(seated)))
    return out


def _bleed(m, state, seated, rng, new_name):
    return Bleed(actor=m.name, target=rng.choice([None, None, None] + seated))


def _hunt(m, state, seated, rng, new_name):
    return Hunt(actor=m.name)


def _equip(m, state, seated, rng, new_name):
    donors = [o.name for o in state.minions.values()
              if o.controller == m.controller and o.equipment and o.name != m.name]
    return Equip(actor=m.name, item="Gun", source=rng.choice(donors) if donors else None,
                 cost=Cost(pool=rng.choice([0, 1])))


def _employ(m, state, seated, rng, new_name):
    return Employ(actor=m.name, retainer=new_name("Ret"), life=rng.randint(1, 2), cost=Cost(blood=rng.choice([0, 1])))


def _recruit(m, state, seated, rng, new_name):
    return Recruit(actor=m.name, ally=new_name("Ally"), life=rng.randint(1, 3), cost=Cost(pool=rng.choice([0, 1, 2])))


def _anarch(m, state, seated, rng, new_name):
    return BecomeAnarch(actor=m.name)


def _card(m, state, seated, rng, new_name):
    target = rng.choice(seated)
    eff = CardEffect(pool=((target, -rng.randint(0, 2)),), blood=((m.name, rng.randint(-1, 2)),))
    return ActionCard(actor=m.name, card=rng.choice([None, "Card1", "Card2"]),
                      targets=(target,) if target != m.controller else (), stealth=rng.choice([0, 1]), effect=eff,
                      as_=rng.choice([None, None, "bleed", "hunt"]), bleed=rng.choice([0, 1]))


def _political(m, state, seated, rng, new_name):
    return Political(actor=m.name)


def _blood_effect(m, state, seated, rng, new_name):
    return Effect(effect=CardEffect(blood=((m.name, rng.randint(-2, 2)),)))


# -- invariants ------------------------------------------------------------------------------
def invariant_violations(state: GameState, total: int) -> list[str]:
    bad = []
    if counters_in_play(state) + state.bank != total:
        bad.append(f"counters not conserved: {counters_in_play(state)} in play + {state.bank} banked != {total}")
    for p in state.players.values():
        if p.pool < 0 or p.hand < 0 or (p.library is not None and p.library < 0) or (p.crypt is not None and p.crypt < 0):
            bad.append(f"negative counter for {p.name}: {p}")
        if p.ousted and (p.pool != 0 or any(m.controller == p.name for m in state.minions.values())):
            bad.append(f"{p.name} is ousted but keeps pool or cards")
    for m in state.minions.values():
        if m.blood < 0 or any(r.life < 0 for r in m.retainers):
            bad.append(f"negative blood/life on {m.name}")
        if m.kind == VAMPIRE and m.region in (READY, TORPOR) and m.blood > m.capacity:
            bad.append(f"{m.name} has {m.blood} blood above capacity {m.capacity}")
    ps = state.phase_state
    if min(ps.master_actions, ps.transfers, ps.discard_actions) < 0:
        bad.append(f"negative phase counter: {ps}")
    if state.edge is not None and (state.edge not in state.players or not state.players[state.edge].seated):
        bad.append(f"the Edge is held by {state.edge}, who is not at the table")
    if state.action is not None and (state.phase != "minion" or state.combat is not None):
        bad.append("an action in progress outside the minion phase, or beside a combat")
    if not state.result.over and len(state.seated()) < 2:
        bad.append("fewer than two Methuselahs but the game is not over")
    return bad


def _entries_cited(entries, edition: str) -> list[str]:
    return [e.text for e in entries if not any(r.cites(edition) for r in e.rules)]


@dataclass
class GameReport:
    events: int = 0
    refused: int = 0
    ended_by: str = "limit"
    violations: list[str] = field(default_factory=list)


def play(rng: random.Random, max_events: int = 150, max_tries: int = 25) -> GameReport:
    state = random_table(rng)
    total = counters_in_play(state) + state.bank
    report = GameReport()
    report.violations += invariant_violations(state, total)
    namer = _Namer()
    while report.events < max_events:
        if state.result.over:
            report.ended_by = "game over"
            break
        if state.combat is not None:
            report.ended_by = "combat (part 2)"
            break
        applied = False
        options = candidates(state, rng, namer)
        for _ in range(max_tries):
            event = rng.choice(options)()
            try:
                if core.needs_settle(state, event):
                    state, entries = core.settle(state)
                    _check(report, state, entries, total)
                    applied = True
                    break  # the situation changed: draw new candidates
                state, entries = core.apply(state, event)
            except Refusal as stop:
                report.refused += 1
                if not any(r.cites(state.edition) for r in stop.rules):
                    report.violations.append(f"refusal without a citation: {stop.message}")
                continue
            except NotModelled:
                report.ended_by = "not modelled"
                return report
            _check(report, state, entries, total)
            report.events += 1
            applied = True
            break
        if not applied:
            report.ended_by = "stuck"  # every candidate refused several times (e.g. a pending obligation)
            break
    return report


def _check(report: GameReport, state: GameState, entries, total: int) -> None:
    report.violations += invariant_violations(state, total)
    report.violations += [f"log entry without a citation: {t}" for t in _entries_cited(entries, state.edition)]


def play_many(games: int, seed: int = 0, max_events: int = 150) -> list[GameReport]:
    rng = random.Random(seed)
    return [play(rng, max_events) for _ in range(games)]
