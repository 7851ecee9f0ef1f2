"""What a vampire's own card lets it do, used as events of their own (card_text.Ability): an action to enter combat
("Dorka can enter combat with a minion controlled by your predator or prey as a (D) action.") or to lock a minion or
steal its blood ("Gabrin can lock an ally or a younger vampire as a +1 stealth (D) action."), blood burned for a
bonus during an action ("During an action, Chavi can burn 1 blood to get +1 stealth."), unlocking itself ("During your
discard phase, Antonio may burn 1 blood to unlock.").

The ability's sentence is the card's; the book's rules for actions apply around it: a card, the vampire's own card
text included, provides the action (Action Card (or Card in Play)), at most once each turn for the vampire, at the
stealth the card says (0 by default), its cost paid on success; targeting another Methuselah's minion makes it
directed at that Methuselah, whether the card prints (D) or not (the glossary's Directed Action)."""
from __future__ import annotations

from typing import Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import combat
from judge.engine.vtes import rules as R
from judge.engine.vtes.card_text import Ability, Group
from judge.engine.vtes.events import BurnFor, CombatAction, Cost, TargetAction, UnlockSelf
from judge.engine.vtes.helpers import (Log, announce, blood, burn_dead_ally, card_gives, card_text_action, check_actor,
                                       check_cost, check_intercept_needed, check_stealth_needed, drain_excess, minion,
                                       move_blood)
from judge.engine.vtes.state import READY, TORPOR, VAMPIRE, Action, BlockAttempt, Draft, Minion


def group_misfit(groups: tuple[Group, ...], t: Minion, m: Minion, said: str, rule) -> Optional[str]:
    """Why the minion `t` is not of the minions a card names (`groups`; "younger" is younger than `m`), or None.
    NotModelled when the table does not say (a vampire described without its clan or sect); `said`: whose card says
    what ("Gabrin's card says ..."), `rule` cited then."""
    fits = Group.any_fits(groups, t, m)
    if fits is None:
        raise NotModelled(f"{said}, and the table does not say whether {t.name} is "
                          f"{' or '.join(g.words() for g in groups)} (give its clan and sect)", [rule])
    return None if fits else f"{t.name} is not {' or '.join(_a(g.words()) for g in groups)}"


def _misfit(d: Draft, a: Ability, m: Minion, t: Minion) -> Optional[str]:
    """Why the ability `a` of `m` does not reach the minion `t` (None: it does). NotModelled when the table does not
    say whether `t` is of the minions the card names (a vampire described without its clan or sect)."""
    why = group_misfit(a.groups, t, m, f"{m.name}'s card says \"{a.sentence}\"", R.CRYPT_ABILITY)
    if why is not None:
        return why
    if a.state == "locked" and not t.locked:
        return f"{t.name} is not locked"
    if a.state == "ready" and t.region != READY:
        return f"{t.name} is not ready (it is in the {t.region} region)"
    if a.whose == "predator or prey" and t.controller not in (d.prey(m.controller), d.predator(m.controller)):
        return f"{t.name} is controlled by {t.controller}, neither {m.controller}'s prey nor predator"
    if a.whose == "another Methuselah" and t.controller == m.controller:
        return f"{t.name} is {m.controller}'s own minion, not another Methuselah's"
    return None


def _a(words: str) -> str:
    return ("an " if words[:1].casefold() in "aeiou" else "a ") + words


def _reaching(d: Draft, found: list, m: Minion, t: Minion, words: str) -> list:
    """Those of `m`'s abilities `found` that reach the minion `t`; refused, with each one's reason, when none does
    (`words`: what the action does, "enter combat with")."""
    reasons = [(a, _misfit(d, a, m, t)) for a in found]
    usable = [a for a, why in reasons if why is None]
    if not usable:
        said = "; ".join(f"\"{a.sentence}\": {why}" for a, why in reasons)
        raise Refusal(f"{m.name}'s card does not let it {words} {t.name}: {said}", [R.CRYPT_ABILITY, R.CARD_ACTION])
    return usable


def combat_action(d: Draft, e: CombatAction, log: Log) -> None:
    m = check_actor(d, e.actor, "enter combat")
    found = card_gives(m, "enter combat", "action to enter combat",
                       f"describe the action as a card's ('{m.name} plays an action card: directed at ...')",
                       (R.CARD_ACTION, R.CRYPT_ABILITY))
    t = minion(d, e.target)
    combat.check_can_fight(d, m, t)
    usable = _reaching(d, found, m, t, "enter combat with")
    if len({(a.stealth, a.blood) for a in usable}) > 1:
        raise NotModelled(f"{m.name}'s card gives two actions to enter combat with {t.name} at different stealth or "
                          f"cost: which one is taken is not said", [R.CRYPT_ABILITY])
    a = usable[0]
    via = card_text_action(m, a)
    announce(d, log, m, kind="enter combat", summary=f"{m.name}'s action to enter combat with {t.name}",
             stealth=a.stealth, directed=True, targets=(t.controller,), cost=Cost(blood=a.blood), via=via,
             payload=t.name, rules=(R.CARD_ACTION, R.ACTION_CARD, R.DIRECTED_TARGETS),
             detail=f" (its card: \"{a.sentence}\")", cost_rules=(R.CRYPT_ABILITY,))


_VERB_WORDS = {"lock": "lock", "steal blood": "steal blood from"}


def target_action(d: Draft, e: TargetAction, log: Log) -> None:
    """An action the vampire's own card gives at another Methuselah's minion (card_text's "target action"): to lock
    it or to steal its blood. As the action to enter combat: the target one of the minions the card names, once each
    turn, directed at its Methuselah, at the card's stealth, its cost paid on success."""
    m = check_actor(d, e.actor, e.verb)
    words = _VERB_WORDS[e.verb]
    found = card_gives(m, "target action", f"action to {words} a minion",
                       f"describe the action as a card's ('{m.name} plays an action card: directed at ...')",
                       (R.CARD_ACTION, R.CRYPT_ABILITY), keep=lambda a: a.verb == e.verb)
    t = minion(d, e.target)
    # at a minion of its own Methuselah, the action is directed at nobody: undirected, whatever (D) the card prints
    # (the book: "If the action is not directed at another Methuselah or at something controlled by another
    # Methuselah, then the action can be blocked by the acting Methuselah's prey or predator")
    own = t.controller == m.controller
    # a vampire in torpor is a target too (the book: "Vampires in the torpor region are eligible targets by default"),
    # unless the card names ready minions (_misfit)
    if not t.controlled or t.contested or t.region not in (READY, TORPOR):
        where = "contested" if t.contested else f"in the {t.region} region"
        raise Refusal(f"{t.name} is not in play (it is {where})", [R.TORPOR_TARGETS])
    a = _reaching(d, found, m, t, words)[0]
    amount = None
    if e.verb == "steal blood":
        amount = a.amount if e.amount is None and not a.up_to else e.amount
        if amount is None:
            raise NotModelled(f"{m.name}'s card says \"{a.sentence}\": say how much it steals ('steals 2 blood from "
                              f"{t.name}')", [R.CRYPT_ABILITY])
        if amount > a.amount or (not a.up_to and amount != a.amount) or amount < 1:
            raise Refusal(f"{m.name}'s card steals {'up to ' if a.up_to else ''}{a.amount}, not {amount}: "
                          f"\"{a.sentence}\"", [R.CRYPT_ABILITY])
        if t.kind != VAMPIRE and not a.or_life:
            raise Refusal(f"{t.name} is an ally, with life, not blood: \"{a.sentence}\"", [R.CRYPT_ABILITY])
    via = card_text_action(m, a)
    what = f"lock {t.name}" if e.verb == "lock" else f"steal {amount} blood from {t.name}"
    announce(d, log, m, kind="target action", summary=f"{m.name}'s action to {what}", stealth=a.stealth,
             directed=not own, targets=() if own else (t.controller,), cost=Cost(blood=a.blood), via=via,
             payload=(e.verb, t.name, amount),
             rules=(R.CARD_ACTION, R.ACTION_CARD, *(() if own else (R.DIRECTED_TARGETS,))),
             detail=f" (its card: \"{a.sentence}\"" + (f"; {t.name} is {m.controller}'s own minion, so the action is "
                                                      f"directed at nobody" if own else "") + ")",
             cost_rules=(R.CRYPT_ABILITY,))


def resolve_target_action(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    """A successful action at a minion: locked, or its blood (an ally's life) moved to the actor as blood, as far as
    it has some; the excess over the actor's capacity drains."""
    verb, name, amount = a.payload
    t = d.minions.get(name)
    if t is None or not t.controlled or t.contested or t.region not in (READY, TORPOR):
        log.add(f"{a.summary} succeeds{paid}, but {name} is no longer in play: no effect.", *rules, R.CRYPT_ABILITY)
        return
    if verb == "lock":
        d.put_minion(name, locked=True)
        log.add(f"{a.summary} succeeds{paid}: {name} locks.", *rules, R.CRYPT_ABILITY, R.GOLDEN_RULE)
        return
    taken = min(amount, t.blood)
    move_blood(d, None, a.actor, taken, src_minion=name)
    log.add(f"{a.summary} succeeds{paid}: {a.actor} steals {taken} {'life' if t.kind != VAMPIRE else 'blood'} from "
            f"{name} (as blood).", *rules, R.CRYPT_ABILITY, R.GOLDEN_RULE)
    drain_excess(d, a.actor, log)
    burn_dead_ally(d, log, name)


def resolve_combat_action(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    """A successful action to enter combat: the combat begins, if the minion is still there to fight."""
    target = d.minions.get(a.payload)
    if target is None or target.region != READY or target.contested:
        log.add(f"{a.summary} succeeds{paid}, but {a.payload} is no longer ready: no combat.", *rules,
                R.COMBAT_READY)
        return
    log.add(f"{a.summary} succeeds{paid}: {a.actor} enters combat with {target.name}.", *rules, R.CRYPT_ABILITY,
            R.COMBAT_CAUSED)
    combat.start(d, log, a.actor, target.name, cause=a.summary)



# -- blood burned for a bonus during an action ---------------------------------------------------------------------
def burn_for(d: Draft, e: BurnFor, log: Log) -> None:
    """The +stealth, bleed or intercept a vampire's card lets it buy with blood during an action: the acting vampire's
    stealth or bleed, the blocking vampire's intercept, each only when the book allows such a bonus (stealth and
    intercept when needed, bleed on a bleed), as often as the card says, the blood burned at once."""
    m = minion(d, e.minion)
    current = d.action_()
    # what a card played during this action lets it do (Speak with Spirits at superior), else its own card's
    given = [(card, a) for who, card, a in (current.granted if current is not None else ())
             if who == m.name and a.kind == "burn for" and a.stat == e.stat
             and (m.name, a.sentence) not in current.abilities]  # (used up: its own card's may still serve)
    found = [a for _, a in given] or card_gives(
        m, "burn for", f"+{e.stat} for blood",
        f"describe the effect ('{m.name} plays an action modifier: +1 {e.stat}, costing 1 blood')",
        keep=lambda a: a.stat == e.stat)
    ab = found[0]
    whose = f"{given[0][0]}'s text" if given else f"{m.name}'s card"
    said = f"\"{ab.sentence}\""
    if (e.amount is not None and e.amount != ab.amount) or (e.blood is not None and e.blood != ab.blood):
        raise Refusal(f"{m.name}'s card gives +{ab.amount} {e.stat} for {ab.blood} blood: {said}", [R.CRYPT_ABILITY])
    a = d.action_()
    if a is None:
        raise Refusal(f"{m.name}'s card gives its +{e.stat} during an action, and none is in progress: {said}",
                      [R.CRYPT_ABILITY])
    if ab.during == "bleed" and a.kind != "bleed" or ab.during == "directed" and not a.directed:
        raise Refusal(f"the action in progress ({a.summary}) is not a {ab.during} action: {said}", [R.CRYPT_ABILITY])
    if e.stat in ("stealth", "bleed") and m.name != a.actor:
        raise Refusal(f"{m.name} is not the acting minion ({a.actor} is): its card's +{e.stat} is its own, on its "
                      f"own action ({said})", [R.CRYPT_ABILITY])
    if e.stat == "stealth":
        check_stealth_needed(a)
    if e.stat == "intercept":
        check_intercept_needed(a, m.name)
    if e.stat == "bleed" and a.kind != "bleed":
        raise Refusal(f"+bleed modifies a bleed action; {a.summary} is not one", [R.BLEED_AMOUNT])
    key = (m.name, ab.sentence)
    if ab.once == "action" and key in a.abilities:
        raise Refusal(f"{m.name} has used it this action: {said}", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    if ab.once == "turn" and ab.sentence in m.once:
        raise Refusal(f"{m.name} has used it this turn: {said}", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    check_cost(d, m, Cost(blood=ab.blood), f"{m.name}'s card ({said})", (R.CRYPT_ABILITY,))
    blood(d, m.name, -ab.blood)
    if ab.once == "turn":
        d.put_minion(m.name, once=d.minions[m.name].once + (ab.sentence,))
    a = d.action_()
    if e.stat == "intercept":
        att = a.attempt
        a = d.put_action(attempt=BlockAttempt(att.blocker, att.player, att.intercept + ab.amount), abilities=a.abilities
                         + (key,))
        now, rule = f"{m.name} has {a.attempt.intercept} intercept against {a.stealth} stealth", R.INTERCEPT_WHEN_NEEDED
    elif e.stat == "stealth":
        a = d.put_action(stealth=a.stealth + ab.amount, abilities=a.abilities + (key,))
        now, rule = f"stealth {a.stealth}", R.STEALTH_WHEN_NEEDED
    else:
        a = d.put_action(bleed=a.bleed + ab.amount, abilities=a.abilities + (key,))
        now, rule = f"bleed {a.bleed}", R.BLEED_AMOUNT
    log.add(f"{m.name} burns {ab.blood} blood for +{ab.amount} {e.stat}, as {whose} says ({said}): {now}.",
            *((R.GOLDEN_RULE,) if given else (R.CRYPT_ABILITY,)), rule)


# -- unlocking itself ------------------------------------------------------------------------------------------------
def unlock_self(d: Draft, e: UnlockSelf, log: Log) -> None:
    """A locked vampire unlocks as its card says: in the phase it names, of its controller's turn (or anyone's), paying
    what it names (blood, the Edge, or nothing); what the scenario says it pays must be that."""
    m = minion(d, e.minion)
    found = card_gives(m, "self unlock", "way to unlock itself", f"say 'an effect unlocks {m.name}'")
    ab = found[0]
    said = f"\"{ab.sentence}\""
    cost = "the Edge" if ab.edge else f"{ab.blood} blood" if ab.blood else "nothing"
    told = ("the Edge" if e.pays == "edge" else None if e.pays != "blood" else
            f"{e.blood} blood" if e.blood is not None else "blood")
    if told is not None and told != cost and not (told == "blood" and ab.blood):
        raise Refusal(f"{m.name}'s card asks {cost} to unlock, not {told}: {said}", [R.CRYPT_ABILITY])
    # (in torpor too: the card does not ask it to be ready, and the book forbids a vampire in torpor actions,
    # blocks and reactions only; rulings on Masika and Gunther say so)
    if not m.controlled or m.contested:
        raise Refusal(f"{m.name} is not in play (in the {m.region} region): {said}", [R.CRYPT_ABILITY])
    if not m.locked:
        raise Refusal(f"{m.name} is not locked: there is nothing to unlock", [R.CRYPT_ABILITY])
    if ab.phase == "after referendum":
        r = d.resolved
        if r is None or r.actor != m.name or r.kind != "political" or not r.passed:
            raise Refusal(f"{m.name} unlocks so only after a referendum it called passes, and none has just passed: "
                          f"{said}", [R.CRYPT_ABILITY])
    elif d.phase != ab.phase or (ab.whose == "you" and d.turn != m.controller):
        when = f"{'its controller' if ab.whose == 'you' else 'any Methuselah'}'s {ab.phase} phase"
        raise Refusal(f"{m.name} unlocks so during {when} only, and it is {d.turn}'s {d.phase} phase: {said}",
                      [R.CRYPT_ABILITY])
    if ab.edge:
        if d.edge != m.controller:
            raise Refusal(f"{m.controller} does not hold the Edge ({d.edge or 'nobody'} does): {said}",
                          [R.CRYPT_ABILITY, R.EDGE])
        d.set(edge=None)
    elif ab.blood:
        check_cost(d, m, Cost(blood=ab.blood), f"{m.name}'s card ({said})", (R.CRYPT_ABILITY,))
        blood(d, m.name, -ab.blood)
    d.put_minion(m.name, locked=False)
    paid = (f", {m.controller} burning the Edge (it returns to the central area, held by nobody)" if ab.edge else
            f", burning {ab.blood} blood" if ab.blood else "")
    log.add(f"{m.name} unlocks as its card allows ({said}){paid}.", R.CRYPT_ABILITY, R.GOLDEN_RULE,
            *([R.EDGE] if ab.edge else []))
