"""Ending the game: ousting at 0 pool, the predator's reward, prey succession,
withdrawal, the last Methuselah's point, and the final score.

Ousting is checked after every event: every Methuselah whose pool reached 0
during the event is ousted at the same time, which matters for the 6 pool
(a predator ousted at the same time as its prey gets the victory point only).
"""
from __future__ import annotations

from judge.engine.vtes import rules as R
from judge.engine.citations import CURRENT
from judge.engine.vtes.helpers import Log, draw_after_action, names, pool, remove_minion
from judge.engine.errors import NotModelled
from judge.engine.vtes.state import Draft, Result

OUST_POOL = 6


def check_ousting(d: Draft, log: Log) -> None:
    out = [p for p in d.seated() if d.players[p].pool <= 0]
    if not out:
        return
    action = d.action_()
    if action is not None and (out != [action.player] or d.combat is not None or d.referendum is not None):
        # Another Methuselah ousted mid-action (a target, a blocker's): what becomes of the action is not said.
        raise NotModelled(f"{names(out)} would be ousted in the middle of {action.summary}",
                          [R.OUSTED, R.ACTION_SUCCEEDS])
    c = d.combat
    fighters = [x for x in ((c.acting, c.opposing) if c is not None else ()) if x in d.minions]
    if any(d.minions[x].controller in out for x in fighters):
        # a combatant would leave the game with its Methuselah: how the combat goes on is not said
        raise NotModelled(f"{names(out)} would be ousted in the middle of the combat between {c.acting} and "
                          f"{c.opposing}", [R.OUSTED, R.COMBAT])
    if d.edge in out:
        raise NotModelled(f"{d.edge} holds the Edge and is ousted: the books do not say what becomes of the Edge",
                          [R.EDGE, R.OUSTED])
    # Predators are found on the table as it stood before these ousts.
    predators = {p: d.predator(p) for p in out}
    for p in out:
        removed = [m.name for m in list(d.minions.values()) if m.controller == p]
        for name in removed:
            remove_minion(d, name)
        removed += [c.name for c in d.cards if c.controller == p]  # locations, contested equipment
        d.set(cards=tuple(c for c in d.cards if c.controller != p))
        d.put_player(p, ousted=True, withdrawing=False)
        d.set(ousted_order=d.ousted_order + (p,))
        gone = f"; {names(removed)} {'is' if len(removed) == 1 else 'are'} removed from the game" if removed else ""
        log.add(f"{p} has no pool left and is ousted{gone}.", R.OUSTED)
        kept = [m.name for m in d.minions.values() if m.owner == p and m.controller != p]
        if kept:
            log.add(f"{names(kept)}, owned by {p} and controlled by others, "
                    f"{'remains' if len(kept) == 1 else 'remain'} in play until burned as normal.", R.OWNED_STAY)
    for p in out:
        pred = predators[p]
        if pred is None:
            continue
        vp = d.players[pred].vp + 1
        if pred in out:
            d.put_player(pred, vp=vp)
            log.add(f"{pred} is ousted at the same time as {p}, {pred}'s prey: {pred} gets the victory point "
                    f"({_vp(vp)}) but not the 6 pool.", R.OUST_REWARD, R.OUST_SAME_TIME)
        else:
            d.put_player(pred, vp=vp)
            pool(d, pred, OUST_POOL)
            log.add(f"{p} was {pred}'s prey: {pred} gains 1 victory point ({_vp(vp)}) and 6 pool from the blood "
                    f"bank ({d.players[pred].pool} pool).", R.OUST_REWARD)
    if action is not None:  # the acting Methuselah, ousted paying a cost: the acting minion left the game with them
        d.set(action=None)
        log.add(f"{action.actor} has left the game with {action.player}'s cards: {action.summary} ends, without "
                f"effect.", R.OUSTED)
        draw_after_action(d, log, action.unreplaced)  # (the other Methuselahs' cards not replaced until after it)
    _announce_succession(d, log, predators)
    check_game_end(d, log)


def _announce_succession(d: Draft, log: Log, predators: dict) -> None:
    seated = d.seated()
    if len(seated) < 2:
        return
    changes = []
    for pred in sorted({p for p in predators.values() if p and d.players[p].seated}, key=d.seating.index):
        changes.append(f"{pred}'s prey is now {d.prey(pred)}")
    if changes:
        log.add("; ".join(changes) + ".", R.PREY_SUCCESSION, R.PREY)


def withdraw(d: Draft, log: Log, player: str) -> None:
    if d.edge == player:
        raise NotModelled(f"{player} holds the Edge and withdraws: the books do not say what becomes of the Edge",
                          [R.EDGE, R.WITHDRAW_VP])
    worth = R.WITHDRAW_POINTS[d.edition]
    pred = d.predator(player)
    vp = d.players[player].vp + worth
    d.put_player(player, withdrawn=True, withdrawing=False, vp=vp)
    log.add(f"{player} reaches the unlock phase with the withdrawal conditions met and withdraws from the game: "
            f"+{_vp(worth)} victory point ({_vp(vp)} in all); {player}'s predator gets no victory point and no pool. "
            f"(The books do not say what becomes of {player}'s cards: they are left as they are.)", R.WITHDRAW_VP)
    if len(d.seated()) >= 2 and pred:
        log.add(f"{pred}'s prey is now {d.prey(pred)}.", R.PREY_SUCCESSION)
    check_game_end(d, log)


def check_game_end(d: Draft, log: Log) -> None:
    seated = d.seated()
    if len(seated) > 1 or d.result.over:
        return
    if seated:
        last = seated[0]
        vp = d.players[last].vp + 1
        d.put_player(last, vp=vp)
        log.add(f"{last} is the last Methuselah remaining: 1 additional victory point ({_vp(vp)}).", R.LAST_STANDING)
    scores = {p: d.players[p].vp for p in d.seating}
    best = max(scores.values())
    top = [p for p in d.seating if scores[p] == best]
    table = ", ".join(f"{p} {_vp(scores[p])}" for p in sorted(d.seating, key=lambda p: -scores[p]))
    if len(top) == 1:
        d.set(result=Result(over=True, winner=top[0]))
        log.add(f"The game is over. {top[0]} wins with {_vp(best)} victory points (final score: {table}).", R.WINNER)
    elif d.edition == CURRENT:
        d.set(result=Result(over=True, winner=None, tied=tuple(top)))
        log.add(f"The game is over. {names(top)} tie at {_vp(best)} victory points: in the case of a tie there is "
                f"no winner (final score: {table}).", R.WINNER, R.TIE)
    else:
        d.set(result=Result(over=True, winner=None, tied=tuple(top)))
        log.add(f"The game is over. The final score is tied between {names(top)}, with {_vp(best)} victory points "
                f"each (final score: {table}).", R.WINNER, R.TIE)


def _vp(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
