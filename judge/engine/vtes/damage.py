"""Damage: prevention, mending, aggravated damage, allies and retainers, torpor and burning.

Damage from strikes waits in the combat's damage step, where the minion
taking it may prevent some; what is left is successfully inflicted and
resolved here (`settle`). A vampire burns 1 blood per point of normal damage
to mend it (normal damage first); damage it cannot mend wounds it.
Aggravated damage is never mended: its first point wounds, and each point on
a wounded vampire costs 1 blood or the vampire is burned. Allies and
retainers lose 1 life per point, aggravated or not, and burn at 0.

What a wound or a burn does takes effect at different times: outside combat
at once; in combat under the older book once the damage is handled, under
the current book when the combat is over ("going to torpor", "being burned").
`apply_statuses` does it. Damage from a card or effect is `inflict`, which the
InflictDamage handler (combat.inflict_damage) calls, in a combat or not.
"""
from __future__ import annotations

from typing import Iterable, Optional

from judge.engine.vtes import rules as R
from judge.engine.citations import CURRENT, OLDER
from judge.engine.vtes.helpers import Log, blood, minion, names, remove_minion
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import InflictDamage
from judge.engine.vtes.state import ALLY, READY, TORPOR, Damage, Draft, evolve


# -- prevention (combat's damage step) ------------------------------------------------------------
def prevent(d: Draft, log: Log, name: str, amount: int, aggravated: Optional[bool], source: Optional[str],
            paid: str = "") -> None:
    c = d.combat
    mine = [x for x in c.damage if x.victim == name and x.retainer is None and not x.unpreventable]
    if not mine and any(x.victim == name and x.retainer is None for x in c.damage):
        raise Refusal(f"the damage inflicted on {name} cannot be prevented (the strike card says it is unpreventable)",
                      [R.PREVENT_DAMAGE, R.GOLDEN_RULE])
    kinds = {x.aggravated for x in mine}
    asked = aggravated  # the kind the prevention says it prevents (None: whichever is pending)
    if aggravated is None:
        if len(kinds) > 1:
            raise NotModelled(f"{name} takes both normal and aggravated damage: say which the prevention applies to "
                              f"('prevents 1 aggravated damage'); the player chooses", [R.PREVENT_AGGRAVATED_FIRST])
        aggravated = kinds.pop()
    left = amount
    kept = []
    for x in c.damage:
        if left and x.victim == name and x.retainer is None and x.aggravated == aggravated and not x.unpreventable:
            cut = min(left, x.amount)
            left -= cut
            if x.amount > cut:
                kept.append(evolve(x, amount=x.amount - cut))
        else:
            kept.append(x)
    done = amount - left
    kind = "aggravated " if aggravated else "non-aggravated " if asked is False else ""
    if not done:
        raise Refusal(f"no {kind}damage is being inflicted on {name} to prevent",
                      [R.PREVENT_DAMAGE, *([R.GOLDEN_RULE] if asked is False else [])])
    d.put_combat(damage=tuple(kept))
    still = sum(x.amount for x in kept if x.victim == name and x.retainer is None)
    src = f" with {source}" if source else ""
    rules = [R.PREVENT_DAMAGE] + ([R.PREVENT_AGGRAVATED_FIRST] if aggravated and len(kinds) > 1 else [])
    log.add(f"{name} prevents {done} {kind}damage{src}{paid} ({still} damage still to resolve).", *rules)


def settle(d: Draft, log: Log) -> None:
    """No more prevention: the damage of the combat's damage step is successfully inflicted."""
    c = d.combat
    items = list(c.damage)
    d.put_combat(damage=())
    if items:
        resolve(d, log, items, in_combat=True)


# -- resolution ---------------------------------------------------------------------------------
def _group(items: Iterable[Damage]) -> dict:
    out: dict = {}
    for x in items:
        key = (x.victim, x.retainer)
        normal, agg = out.get(key, (0, 0))
        out[key] = (normal + (0 if x.aggravated else x.amount), agg + (x.amount if x.aggravated else 0))
    return out


def resolve(d: Draft, log: Log, items: list[Damage], in_combat: bool) -> None:
    """Damage successfully inflicted: mend it, or lose life; record wounds and burns."""
    for (victim, retainer), (normal, agg) in _group(items).items():
        if victim not in d.minions:
            continue
        if in_combat and d.combat is not None:  # what the combat inflicted, a retainer's as owner/retainer
            who = f"{victim}/{retainer}" if retainer else victim
            taken = dict(d.combat.taken)
            taken[who] = taken.get(who, 0) + normal + agg
            d.put_combat(taken=tuple(taken.items()))
        if retainer:
            _retainer_damage(d, log, victim, retainer, normal + agg)
            continue
        m = d.minions[victim]
        if m.kind == ALLY:
            _ally_damage(d, log, victim, normal + agg, in_combat)
        else:
            _vampire_damage(d, log, victim, normal, agg, in_combat)


def _retainer_damage(d: Draft, log: Log, owner: str, name: str, amount: int) -> None:
    m = d.minions[owner]
    kept, burned = [], None
    for r in m.retainers:
        if r.name.lower() == name.lower() and burned is None:
            lost = min(amount, r.life)
            d.set(bank=d.bank + lost)
            if r.life - lost <= 0:
                burned = r.name
                log.add(f"{owner}'s retainer {r.name} loses {lost} life and, with none left, is burned.",
                        R.ALLY_DAMAGE)
                continue
            kept.append(evolve(r, life=r.life - lost))  # (what its card gives stays with it)
            log.add(f"{owner}'s retainer {r.name} loses {lost} life ({r.life - lost} left).", R.ALLY_DAMAGE)
        else:
            kept.append(r)
    d.put_minion(owner, retainers=tuple(kept))


def _ally_damage(d: Draft, log: Log, name: str, amount: int, in_combat: bool) -> None:
    lost = -blood(d, name, -amount, drain=False)
    left = d.minions[name].blood
    log.add(f"{name} is an ally: it loses {lost} life for {amount} damage, aggravated or not ({left} left).",
            R.ALLY_DAMAGE)
    if left <= 0:
        _mark(d, log, name, burned=True, in_combat=in_combat, why="has no life left and is burned")


def _is_wounded(d: Draft, name: str) -> bool:
    m = d.minions[name]
    return m.region == TORPOR or (d.combat is not None and name in d.combat.wounded)


def _vampire_damage(d: Draft, log: Log, name: str, normal: int, agg: int, in_combat: bool) -> None:
    wounded = _is_wounded(d, name)
    mend = "mend"  # the older book says "heal"; one word keeps --compare to the steps whose outcome differs
    rules = [R.DAMAGE]
    parts = []
    if normal:
        mended = -blood(d, name, -min(normal, d.minions[name].blood))
        if mended == normal:
            parts.append(f"burns {mended} blood to {mend} it")
        else:
            rules.append(R.UNMENDED_WOUNDS)
            some = f"burns {mended} blood to {mend} {mended} of it and " if mended else ""
            state = "is already wounded" if wounded else "is wounded"
            parts.append(f"{some}cannot {mend} {'the other ' if mended else ''}{normal - mended}: it {state}")
            wounded = True
    if agg:
        rules.append(R.AGGRAVATED)
        if normal:
            rules.append(R.NORMAL_DAMAGE_FIRST)
        points = agg
        if not wounded:
            parts.append(f"aggravated damage cannot be {mend}ed: its first point wounds it")
            wounded = True
            points -= 1
        burned_for = min(points, d.minions[name].blood)  # 1 blood for each further point, while it has some
        destroyed = points > burned_for
        if burned_for:
            blood(d, name, -burned_for)
            parts.append(f"wounded, it burns {burned_for} blood to prevent its destruction by {burned_for} more "
                         f"point{'s' if burned_for > 1 else ''} of aggravated damage")
        if destroyed:
            parts.append("wounded, it has no blood to burn for the next point of aggravated damage")
    taken = " and ".join(f"{n}{' aggravated' if a else ''} damage" for n, a in ((normal, False), (agg, True)) if n)
    log.add(f"{name} takes {taken}: " + "; ".join(parts) + f" ({d.minions[name].blood} blood left).", *rules)
    if agg and destroyed:
        _mark(d, log, name, burned=True, in_combat=in_combat, why="is burned by aggravated damage",
              rules=(R.AGGRAVATED_BURNS,))
        return
    if wounded and d.minions[name].region == READY:
        _mark(d, log, name, burned=False, in_combat=in_combat, why="is wounded")


def _mark(d: Draft, log: Log, name: str, burned: bool, in_combat: bool, why: str, rules=()) -> None:
    c = d.combat
    if in_combat and c is not None and name in (c.acting, c.opposing):
        if burned:
            d.put_combat(burning=c.burning + (name,) if name not in c.burning else c.burning)
        elif name not in c.wounded:
            d.put_combat(wounded=c.wounded + (name,))
        if d.edition == CURRENT:
            status = "being burned" if burned else "going to torpor"
            log.add(f"{name} {why}: it is {status} until the combat is over, and no longer ready.",
                    *rules, R.TORPOR_AFTER_PAIR if not burned else R.BURNED_AFTER_COMBAT, R.WOUNDED_ENDS_COMBAT)
        return
    apply_statuses(d, log, () if burned else (name,), (name,) if burned else (), after_combat=False, rules=rules)


def apply_statuses(d: Draft, log: Log, wounded: Iterable[str], burning: Iterable[str], after_combat: bool,
                   rules=()) -> None:
    """Wounded vampires go to torpor (with their cards); burned minions leave play with what is on them."""
    burning = list(dict.fromkeys(n for n in burning if n in d.minions))  # once each, however often it was burned
    for name in burning:
        m = d.minions[name]
        remove_minion(d, name)
        when = " now that the combat is over" if after_combat and d.edition == CURRENT else ""
        how = "goes directly to the ash heap, without going to torpor" if (m.kind != ALLY and d.edition == OLDER) \
            else "is burned"
        rule = R.ALLY_BURNED if m.kind == ALLY else R.AGGRAVATED_BURNS
        log.add(f"{name} {how}{when}, with the cards and counters on it.", *rules, rule,
                *([R.BURNED_AFTER_COMBAT] if after_combat and d.edition == CURRENT else []))
    for name in wounded:
        if name in burning or name not in d.minions:
            continue
        m = d.minions[name]
        if m.region == TORPOR:
            continue
        d.put_minion(name, region=TORPOR)
        when = (" now that the combat is over" if after_combat else
                " once its damage is handled" if d.combat is not None else "")
        kept = [*m.equipment, *(r.name for r in m.retainers)]
        cards = f", with {names(kept)}" if kept else ""
        log.add(f"{name} goes to torpor{when}{cards} ({m.blood} blood).", *rules, R.TORPOR_GOING,
                *([R.TORPOR_AFTER_PAIR] if d.combat is not None or after_combat else []))


# -- damage from cards and effects ------------------------------------------------------------------
def inflict(d: Draft, e: InflictDamage, log: Log) -> bool:
    """Damage from a card or effect: in a combat's first pair, environmental (it resolves with the strikes);
    otherwise handled at once. True when it was handled on a combatant (whom it may have taken out of the
    combat: combat.inflict_damage sees to that)."""
    m = minion(d, e.minion)
    if e.normal < 0 or e.aggravated < 0 or not (e.normal or e.aggravated):
        raise Refusal("damage is a positive number of points", [R.DAMAGE])
    items = [Damage(victim=m.name, amount=n, aggravated=agg, source=e.source or "")
             for n, agg in ((e.normal, False), (e.aggravated, True)) if n]
    words = " and ".join(f"{x.amount}{' aggravated' if x.aggravated else ''} damage" for x in items)
    if e.source and e.source.strip().lower() in m.immune:
        log.add(f"{e.source} inflicts {words} on {m.name}, who is immune to damage from {e.source}: the damage is "
                f"inflicted unsuccessfully; {m.name} has nothing to mend and is not wounded.", R.IMMUNE)
        return False
    c = d.combat
    combatant = c is not None and m.name in (c.acting, c.opposing)
    if combatant and R.ENVIRONMENTAL.exists_in(d.edition) and c.pair == 0 and c.step in (
            "before range", "range", "before strikes", "strike"):
        d.put_combat(environmental=c.environmental + tuple(items))
        log.add(f"{e.source or 'A card or effect'} inflicts {words} on {m.name}: environmental damage resolves with "
                f"the first pair of strikes.", R.ENVIRONMENTAL)
        return False
    if combatant and c.damage:
        raise NotModelled(f"damage from {e.source or 'a card'} on {m.name} while the damage of a strike waits for "
                          f"prevention: how the two are handled together is not said", [R.DAMAGE_OTHER_MEANS])
    log.add(f"{e.source or 'A card or effect'} inflicts {words} on {m.name}: damage not from a strike is handled at "
            f"once.", R.DAMAGE_OTHER_MEANS, R.GOLDEN_RULE)
    if m.kind != ALLY and m.region not in (READY, TORPOR):
        raise NotModelled(f"damage to {m.name}, which is not in play (it is in the {m.region} region)",
                          [R.DAMAGE_OTHER_MEANS])
    resolve(d, log, items, in_combat=combatant)
    return combatant
