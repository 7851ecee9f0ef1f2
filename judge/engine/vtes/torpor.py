"""Torpor actions and diablerie: leave torpor, rescue, diablerize; the diablerie steps and the
blood hunt referendum that follows.

The three actions are announced, blocked and resolved like any other
(helpers.announce; actions.RESOLVE names their resolutions below). Two things differ: a blocked leave torpor causes no combat
(the blocker, if a vampire, may diablerize the acting vampire instead, a
`DiablerieChance`), and a rescue's cost may be split between the two vampires
as announced. A diablerie, by action or by that chance, moves the victim's
blood, lets the diablerist take its equipment, burns the victim, may give a
Discipline, and calls a blood hunt referendum at once (politics.py).
"""
from __future__ import annotations

from judge.engine.vtes.card_text import Group, abilities_of
from judge.engine.vtes import rules as R
from judge.engine.citations import CURRENT
from judge.engine.vtes.helpers import (Log, action_over, announce, blood, check_actor, drain_excess, minion,
                                  remove_minion, rule_exists)
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import Cost, Diablerize, LeaveTorpor, NoDiablerie, Rescue
from judge.engine.vtes.state import ALLY, READY, TORPOR, VAMPIRE, Action, DiablerieChance, Draft, Minion, Referendum

DEFAULT_COST = 2


def _in_torpor(d: Draft, name: str, what: str, rule) -> Minion:
    m = minion(d, name)
    if m.kind != VAMPIRE or m.region != TORPOR:
        raise Refusal(f"{name} is not a vampire in torpor: {what} targets a vampire in torpor", [rule])
    return m


def _controllers(actor: Minion, target: Minion) -> tuple[bool, tuple[str, ...], int]:
    """(directed, targets, stealth): undirected at +1 stealth within one Methuselah's vampires."""
    if actor.controller == target.controller:
        return False, (), 1
    return True, (target.controller,), 0


# -- leave torpor ----------------------------------------------------------------------------------
def leave_torpor(d: Draft, e: LeaveTorpor, log: Log) -> None:
    m = check_actor(d, e.actor, "leave torpor")
    cost = e.cost if e.cost is not None else Cost(blood=DEFAULT_COST)
    card = e.card
    announce(d, log, m, kind="leave torpor", summary=f"{m.name} leaves torpor" + (f" with {card}" if card else ""),
             stealth=1, cost=cost, card=card, from_hand=bool(card), rules=(R.LEAVE_TORPOR,),
             cost_rules=() if e.cost is not None else (R.LEAVE_TORPOR_COST,))


def resolve_leave(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    m = d.minions[a.actor]
    if m.region != TORPOR:
        log.add(f"{a.summary} succeeds{paid}, but {a.actor} is no longer in torpor: no effect.", *rules, R.LEAVE_TORPOR)
        return
    d.put_minion(a.actor, region=READY)
    wounded = " and is no longer wounded" if rule_exists(d, R.NO_LONGER_WOUNDED) else ""
    log.add(f"{a.summary} succeeds{paid}: {a.actor} moves from the torpor region to the ready region{wounded}.",
            *rules, R.LEAVE_TORPOR, *([R.NO_LONGER_WOUNDED] if wounded else []))


def blocked_leave(d: Draft, log: Log, a: Action, blocker: str) -> None:
    """A successful block of a leave torpor action: no combat; a vampire blocker may diablerize."""
    b = d.minions[blocker]
    if b.kind == VAMPIRE and not _blood_cursed(b):
        d.set(chance=DiablerieChance(blocker=blocker, victim=a.actor, action=a))
        log.add(f"{blocker} blocks {a.actor}'s attempt to leave torpor: there is no combat (vampires in torpor cannot "
                f"enter combat). {blocker} may diablerize {a.actor}; otherwise the action fails, and no cost is paid.",
                R.LEAVE_TORPOR_BLOCKED, R.COST_ON_SUCCESS)
        return
    action_over(d, log, a, successful=False, blocked=True, blocker=blocker)
    said = abilities_of(b, "no diablerie") if b.kind == VAMPIRE else []
    why = "is an ally" if b.kind == ALLY else (f"cannot commit diablerie (its card: \"{said[0].sentence}\")" if said
                                              else "is Blood Cursed and cannot commit diablerie")
    log.add(f"{blocker} blocks {a.actor}'s attempt to leave torpor: there is no combat, and as {blocker} {why}, the "
            f"action simply fails; {a.actor} stays in torpor and no cost is paid.", R.LEAVE_TORPOR_BLOCKED,
            *([] if b.kind != VAMPIRE else [R.CRYPT_ABILITY, R.GOLDEN_RULE] if said else [R.BLOOD_CURSED]))


def pass_chance(d: Draft, log: Log) -> None:
    ch = d.chance
    d.set(chance=None)
    action_over(d, log, ch.action, successful=False, blocked=True, blocker=ch.blocker)
    log.add(f"{ch.blocker} does not diablerize {ch.victim}: the action simply fails; {ch.victim} stays in torpor and "
            f"no cost is paid.", R.LEAVE_TORPOR_BLOCKED)


def no_diablerie(d: Draft, e: NoDiablerie, log: Log) -> None:
    if d.chance is None:
        raise Refusal("no blocker has a chance to diablerize now", [R.LEAVE_TORPOR_BLOCKED])
    if e.minion and e.minion != d.chance.blocker:
        raise Refusal(f"{d.chance.blocker} blocked, not {e.minion}", [R.LEAVE_TORPOR_BLOCKED])
    pass_chance(d, log)


# -- rescue -----------------------------------------------------------------------------------------
def rescue(d: Draft, e: Rescue, log: Log) -> None:
    m = check_actor(d, e.actor, "rescue")
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires rescue vampires from torpor", [R.RESCUE])
    target = _in_torpor(d, e.target, "a rescue", R.RESCUE)
    if target.name == m.name:
        raise Refusal(f"{m.name} cannot rescue itself", [R.RESCUE])
    total = (e.cost.blood if e.cost is not None else DEFAULT_COST)
    pool_cost = e.cost.pool if e.cost is not None else 0
    card_words = ""
    if e.cost is None:  # the rescuer's card on its rescues ("... costs Doc Martina -1 blood"), the rescued one's on it
        changes = [(m.name, a) for a in abilities_of(m, "rescue cost") if not a.itself and _rescue_fits(a, target, m)]
        changes += [(target.name, a) for a in abilities_of(target, "rescue cost") if a.itself]
        if changes:
            total = max(0, total + sum(a.amount for _, a in changes))
            card_words = "; " + "; ".join(f"{who}'s card: \"{a.sentence}\"" for who, a in changes) + \
                         f": the rescue costs {total} blood"
    if not 0 <= e.rescued_pays <= total:
        raise Refusal(f"the rescued vampire pays part of the {total} blood cost, not {e.rescued_pays}", [R.RESCUE])
    if target.blood < e.rescued_pays:
        raise Refusal(f"{target.name} has {target.blood} blood, not enough to pay {e.rescued_pays} of the cost",
                      [R.ACTION_COST_REQUIRED, R.RESCUE, R.COST_REQUIRED])
    directed, targets, stealth = _controllers(m, target)
    split = (f"; the cost is split: {m.name} {total - e.rescued_pays}, {target.name} {e.rescued_pays}"
             if e.rescued_pays else "")
    announce(d, log, m, kind="rescue", summary=f"{m.name} rescues {target.name} from torpor", stealth=stealth,
             directed=directed, targets=targets, cost=Cost(blood=total - e.rescued_pays, pool=pool_cost),
             payload=(target.name, e.rescued_pays), detail=card_words + split,
             rules=(R.RESCUE, R.RESCUE_TARGET, *((R.CRYPT_ABILITY, R.GOLDEN_RULE) if card_words else ())),
             cost_rules=() if e.cost is not None else (R.RESCUE,))


def _rescue_fits(a, target: Minion, m: Minion) -> bool:
    """Whether the rescuer `m`'s card on its rescues ("Rescuing an older vampire from torpor costs Adelino -1 blood.")
    names `target`; NotModelled when the table does not say."""
    found = Group.any_fits(a.groups, target, m)
    if found is None:
        raise NotModelled(f"{m.name}'s card says \"{a.sentence}\", and the table does not say whether {target.name} is "
                          f"one of them (give its clan and sect)", [R.CRYPT_ABILITY])
    return found


def resolve_rescue(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    name, share = a.payload
    target = d.minions.get(name)
    if target is None or target.region != TORPOR:
        log.add(f"{a.summary} succeeds{paid}, but {name} is no longer in torpor: no effect.", *rules, R.RESCUE)
        return
    if target.blood < share:
        if not rule_exists(d, R.FIZZLE):
            raise NotModelled(f"{name} can no longer pay its share of the rescue: the older book does not say what "
                              f"happens", [R.RESCUE, R.COST_ON_SUCCESS])
        blood(d, name, -share)
        log.add(f"{a.summary} succeeds, but {name} cannot pay its share: the action fizzles.", R.FIZZLE)
        return
    if share:
        blood(d, name, -share)
        paid += f"; {name} pays {share} blood"
    d.put_minion(name, region=READY)
    wounded = " and is no longer wounded" if rule_exists(d, R.NO_LONGER_WOUNDED) else ""
    log.add(f"{a.summary} succeeds{paid}: {name} moves to the ready region{wounded}, and neither locks nor unlocks "
            f"({'locked' if target.locked else 'unlocked'}).", *rules, R.RESCUE, R.RESCUE_NO_LOCK,
            *([R.NO_LONGER_WOUNDED] if wounded else []))


# -- diablerie ---------------------------------------------------------------------------------------
def _blood_cursed(m: Minion) -> bool:
    """Whether `m` cannot commit diablerie: Blood Cursed, or its card says so ("Ferox cannot commit diablerie.")."""
    return "blood cursed" in {t.lower() for t in m.traits} or bool(abilities_of(m, "no diablerie"))


def _check_diablerist(d: Draft, m: Minion, victim: Minion, e: Diablerize) -> None:
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires diablerize", [R.DIABLERIZE])
    if _blood_cursed(m):
        said = abilities_of(m, "no diablerie")
        if said:
            raise Refusal(f"{m.name} cannot commit diablerie: its card says \"{said[0].sentence}\"",
                          [R.CRYPT_ABILITY, R.GOLDEN_RULE])
        raise Refusal(f"{m.name} is Blood Cursed and cannot commit diablerie", [R.BLOOD_CURSED])
    if victim.name == m.name:
        raise Refusal(f"{m.name} cannot diablerize itself", [R.DIABLERIZE])
    missing = [x for x in e.take if not any(x.lower() == y.lower() for y in victim.equipment)]
    if missing:
        has = ", ".join(victim.equipment) or "none"
        raise Refusal(f"{victim.name} does not have {', '.join(missing)} (has: {has})", [R.DIABLERIE_STEPS])
    if e.discipline and victim.capacity <= m.capacity:
        raise Refusal(f"{victim.name} (capacity {victim.capacity}) is not older than {m.name} (capacity "
                      f"{m.capacity}): no Discipline from this diablerie", [R.DIABLERIE_DISCIPLINE])
    if e.capacity and not e.discipline:
        raise Refusal("capacity comes with a Discipline card from the diablerie ('gaining a Discipline (Presence), "
                      "+1 capacity')", [R.DIABLERIE_DISCIPLINE])


def diablerize(d: Draft, e: Diablerize, log: Log) -> None:
    ch = d.chance
    if ch is not None:
        if e.actor != ch.blocker or e.victim != ch.victim:
            raise Refusal(f"only {ch.blocker}, who blocked, may diablerize {ch.victim} now", [R.LEAVE_TORPOR_BLOCKED])
        m, victim = d.minions[e.actor], d.minions[e.victim]
        _check_diablerist(d, m, victim, e)
        d.set(chance=None)
        log.add(f"{m.name} takes the opportunity its block gives and diablerizes {victim.name}.",
                R.LEAVE_TORPOR_BLOCKED, R.DIABLERIE_READY)
        commit(d, log, m.name, victim.name, e.take, e.take_all, e.discipline, e.capacity)
        action_over(d, log, ch.action, successful=False, blocked=True, blocker=ch.blocker)
        return
    m = check_actor(d, e.actor, "diablerize")
    victim = _in_torpor(d, e.victim, "a diablerie", R.DIABLERIZE)
    _check_diablerist(d, m, victim, e)
    directed, targets, stealth = _controllers(m, victim)
    announce(d, log, m, kind="diablerize", summary=f"{m.name} diablerizes {victim.name}", stealth=stealth,
             directed=directed, targets=targets, payload=(victim.name, e.take, e.take_all, e.discipline, e.capacity),
             rules=(R.DIABLERIZE, R.DIABLERIZE_TARGET))


def resolve_diablerize(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    name, take, take_all, discipline, capacity = a.payload
    victim = d.minions.get(name)
    if victim is None or victim.region != TORPOR:
        log.add(f"{a.summary} succeeds, but {name} is no longer in torpor: no effect.", *rules, R.DIABLERIZE)
        return
    log.add(f"{a.summary} succeeds: {a.actor} commits diablerie on {name}.", *rules, R.DIABLERIZE)
    commit(d, log, a.actor, name, take, take_all, discipline, capacity)


def commit(d: Draft, log: Log, diablerist: str, victim: str, take=(), take_all: bool = False,
           discipline=None, capacity: int = 0) -> None:
    """The diablerie steps, as one unit, then the blood hunt referendum."""
    m, v = d.minions[diablerist], d.minions[victim]
    if "red list" in {t.lower() for t in v.traits}:
        raise NotModelled(f"{victim} is Red List: the trophies a diablerist may receive are not modelled",
                          [R.DIABLERIE_RED_LIST])
    older = v.capacity > m.capacity
    moved = v.blood
    d.put_minion(victim, blood=0)
    d.put_minion(diablerist, blood=m.blood + moved)
    log.add(f"Diablerie, step 1: {victim}'s {moved} blood moves to {diablerist} ({m.blood + moved} blood, capacity "
            f"{m.capacity}).", R.DIABLERIE_STEPS)
    drain_excess(d, diablerist, log)
    items = list(v.equipment) if take_all else [x for x in v.equipment if any(x.lower() == t.lower() for t in take)]
    if items:
        d.put_minion(victim, equipment=tuple(x for x in v.equipment if x not in items))
        d.put_minion(diablerist, equipment=d.minions[diablerist].equipment + tuple(items))
    left = [x for x in v.equipment if x not in items]
    log.add(f"Diablerie, step 2: {diablerist} takes {', '.join(items) if items else 'no equipment'}"
            + (f" ({', '.join(left)} stays with {victim})" if left else "") + ".", R.DIABLERIE_STEPS)
    on = [*left, *(r.name for r in v.retainers)]
    remove_minion(d, victim)
    log.add(f"Diablerie, step 3: {victim} is burned" + (f", with {', '.join(on)}" if on else "")
            + ". (Destruction by diablerie is not destruction by damage.)", R.DIABLERIE_STEPS)
    if discipline:
        changes = {"disciplines": d.minions[diablerist].disciplines + (discipline,)}
        gained = capacity if d.edition == CURRENT else 1
        if gained:
            changes["capacity"] = d.minions[diablerist].capacity + gained
        d.put_minion(diablerist, **changes)
        how = (f"its capacity rises by {gained} to {changes['capacity']}, with no blood to fill it" if gained else
               "the card does not change its capacity")
        log.add(f"Diablerie: {victim} was older (capacity {v.capacity} against {m.capacity}), so {diablerist} is given "
                f"a Discipline ({discipline}); {how}.", R.DIABLERIE_DISCIPLINE)
    elif older:
        log.add(f"{victim} was older (capacity {v.capacity} against {m.capacity}): {diablerist} could have been "
                f"given a Discipline; the scenario gives none.", R.DIABLERIE_DISCIPLINE)
    barring = [(who, a) for who, w in ((diablerist, d.minions[diablerist]), (victim, v))
               for a in abilities_of(w, "no blood hunt") if a.itself == (who == victim)]
    if barring:
        who, a = barring[0]
        log.add(f"No blood hunt referendum is called on {diablerist}, as {who}'s card says: \"{a.sentence}\"",
                R.BLOOD_HUNT, R.CRYPT_ABILITY, R.GOLDEN_RULE)
        return
    d.set(referendum=Referendum(kind="blood hunt", caller=diablerist, player=m.controller, step="polling"))
    part = ("It is part of the action that led to the diablerie" if d.edition == CURRENT
            else "It is not an action")
    log.add(f"A blood hunt referendum is called on {diablerist} at once: if it passes, {diablerist} is burned. "
            f"{part}: it cannot be blocked, and no action modifiers or reactions can be played in it.",
            R.BLOOD_HUNT, R.BLOOD_HUNT_NO_CARDS)
