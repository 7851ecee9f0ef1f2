"""Combat: rounds, their steps, maneuvers, strikes, additional strikes, presses.

A combat moves through the steps of a round (state.COMBAT_STEPS): before
range, range, before strikes, strike, damage, press, end of round. An event
of a later step first lets the earlier steps finish as the books' defaults
say (close range, the hand strike, no press), and each default is a trace
step with its citation; an event of a step already over is refused. The
older book's round has three steps (range, strike, press) and no end of
round: the engine runs the same machine (the table `STEPS`: how each step ends
when nothing more is played in it) and cites each book's own steps.

Strikes are chosen one pair at a time (the acting minion first) and resolve
when every minion that owes one has chosen: combat ends strikes first, then
first strikes, then the others; each batch's damage is then prevented and
mended (damage.py). A wounded or burned combatant ends the combat: under the
current book it goes to torpor or leaves play when the combat is over, under
the older book at once. Damage from a card (`inflict_damage`) can come in a
combat or outside one; damage.py handles it, and a combatant it takes out ends
the combat here.
"""
from __future__ import annotations

import dataclasses

from typing import Optional

from judge.engine.vtes import rules as R
from judge.engine.citations import CURRENT
from judge.engine.vtes import damage as dmg
from judge.engine.vtes import gear, weapons
from judge.engine.vtes.helpers import (Log, action_over, blood, burn_dead_ally, card_gives, crypt_bonus, drain_excess,
                                       draw_after_combat, minion, names,
                                  play_from_hand, pool, text_unread)
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.card_text import abilities_of, is_own, named_ability
from judge.engine.vtes.events import (AggravateHands, ChooseStrike, CombatOver, Cost, EnterCombat, GainStrikes, InflictDamage, Maneuver,
                                 NoManeuver, NoPress, NoPrevent, Press, Prevent, StrikeSpec)
from judge.engine.vtes.state import (ALLY, CHOSEN_RANGE, CLOSE, COMBAT_STEPS, LONG, READY, TORPOR, Action, Attached, Combat, Damage, Draft, Minion,
                                Strike, evolve)

STEP = {s: i for i, s in enumerate(COMBAT_STEPS)}


# -- entering combat ---------------------------------------------------------------------------------
def check_can_fight(d: Draft, a: Minion, b: Minion) -> None:
    if a.controller == b.controller:
        raise Refusal(f"{a.name} and {b.name} are both {a.controller}'s minions: a Methuselah's minions never enter "
                      f"combat with each other", [R.COMBAT_OWN])
    for m in (a, b):
        if m.region != READY or m.contested:
            where = "in torpor" if m.region == TORPOR else ("contested" if m.contested else f"in the {m.region} region")
            raise Refusal(f"{m.name} is {where}: only ready minions take part in combat", [R.COMBAT_READY])


def start(d: Draft, log: Log, acting: str, opposing: str, action: Optional[Action] = None, cause: str = "") -> None:
    a, b = minion(d, acting), minion(d, opposing)
    check_can_fight(d, a, b)
    for m in (a, b):
        text_unread(m, "enters combat")
        gear.check_unread(d, m, "enters combat")
    for who in (a.controller, b.controller):
        if d.players[who].withdrawing:
            d.put_player(who, withdrawal_broken=True)
    d.set(combat=Combat(acting=acting, opposing=opposing, action=action, cause=cause))
    locked = [m.name for m in (a, b) if m.locked]
    note = f" ({names(locked)} {'is' if len(locked) == 1 else 'are'} locked: locked minions fight just the same)" \
        if locked else ""
    log.add(f"Combat between {acting} (acting) and {opposing}{note}. Round 1 begins: {_round_steps(d)}; cards "
            f"played before range is determined come before any maneuver.",
            R.COMBAT, R.COMBAT_ROUND, R.COMBAT_ACTING_FIRST, R.BEFORE_RANGE, *([R.COMBAT_LOCKED] if locked else []))


def _round_steps(d: Draft) -> str:
    if d.edition == CURRENT:
        return "before range, range, before strikes, strike, damage, press, end of round"
    return "determine range, strike, press"


def enter_combat(d: Draft, e: EnterCombat, log: Log) -> None:
    source = f" ({e.source})" if e.source else ""
    log.add(f"A card's effect{source} makes {e.minion} enter combat with {e.other}.", R.COMBAT_CAUSED, R.GOLDEN_RULE)
    start(d, log, e.minion, e.other, cause=e.source or "a card's effect")


# -- moving through the steps ---------------------------------------------------------------------------
def _combat(d: Draft, what: str) -> Combat:
    if d.combat is None:
        raise Refusal(f"{what} needs a combat, and there is none", [R.COMBAT])
    return d.combat


def _combatant(d: Draft, c: Combat, name: str, what: str) -> Minion:
    if name not in (c.acting, c.opposing):
        raise Refusal(f"{name} is not in the combat between {c.acting} and {c.opposing}: only the combatants "
                      f"{what}", [R.COMBAT])
    return minion(d, name)


def finish_step(d: Draft, log: Log) -> None:
    """Nothing more is played in the current step: it ends as the books' defaults say (STEPS)."""
    STEPS[d.combat.step](d, log)


def finish(d: Draft, log: Log) -> None:
    """Play the combat out by default until it is over (an event outside combat arrived)."""
    for _ in range(200):
        if d.combat is None:
            return
        finish_step(d, log)
    raise NotModelled("a combat that does not end by itself", [R.PRESS])


def reach(d: Draft, log: Log, step: str, what: str) -> Combat:
    """Finish the steps before `step`; refuse if the combat is past it or ends on the way."""
    for _ in range(200):
        c = d.combat
        if c is None:
            raise Refusal(f"the combat is over (a combatant was wounded, burned, or combat ended): {what} can no "
                          f"longer be played", [R.WOUNDED_ENDS_COMBAT])
        if c.step == step:
            return c
        if c.ended:
            raise Refusal(f"the combat ended prematurely in round {c.round}: only its end of round step remains, "
                          f"so {what} can no longer be played", [R.WOUNDED_ENDS_COMBAT, R.END_OF_ROUND])
        if STEP[c.step] > STEP[step] and not (c.step == "damage" and step == "strike"):
            raise Refusal(f"the {step} step of round {c.round} is over (the combat is at its {c.step} step): "
                          f"{what} comes too late", [R.COMBAT_ROUND])
        finish_step(d, log)
    raise NotModelled("a combat that does not reach its next step", [R.COMBAT_ROUND])


def set_ranges(d: Draft, ranges: tuple) -> None:
    """Rounds of the combat a card sets the range of (`Combat.set_range`); the current round's, if one is among them
    and its range is not determined yet, is that range from now (its range step will be skipped). A range "chosen"
    is the one the card's player chooses, said by the next `range is ...` event."""
    c = d.put_combat(set_range=d.combat.set_range + tuple(ranges))
    fixed = c.fixed_range()
    if fixed is not None and c.step == "before range" and fixed[1] != CHOSEN_RANGE:
        d.put_combat(range=fixed[1])



def _finish_before_range(d: Draft, log: Log) -> None:
    fixed = d.combat.fixed_range()
    if fixed is None:
        d.put_combat(step="range")
        return
    c = d.combat
    if fixed[1] == CHOSEN_RANGE:
        raise NotModelled(f"{fixed[2]} sets the range of round {c.round}, and which range is not said: say it before "
                          f"the strikes ('range is long')", [R.GOLDEN_RULE, R.RANGE_SET])
    current = d.edition == CURRENT
    d.put_combat(range=fixed[1], step="before strikes" if current else "strike")
    log.add(f"Round {c.round} is at {fixed[1]} range, as {fixed[2]} says: the determine range step is skipped"
            f"{'; the before strikes step follows' if current else '; strikes follow'}.", R.GOLDEN_RULE, R.RANGE_SET)


def _finish_range(d: Draft, log: Log) -> None:
    c = d.combat
    rng = c.range or CLOSE
    how = ("by default: nobody maneuvered" if not c.maneuvered else
           f"after {len(c.maneuvered)} maneuver{'s' if len(c.maneuvered) > 1 else ''}; no more are played")
    current = d.edition == CURRENT
    d.put_combat(range=rng, step="before strikes" if current else "strike")
    then = "; the before strikes step follows" if current else "; strikes follow"
    log.add(f"Round {c.round}: the range is {rng} ({how}){then}.", R.RANGE_SET,
            R.RANGE_CLOSE if not c.maneuvered else R.MANEUVER, *([R.BEFORE_STRIKES] if current else []))


def _finish_before_strikes(d: Draft, log: Log) -> None:
    d.put_combat(step="strike")


def owing(c: Combat) -> list[str]:
    """The minions that strike in the current pair and have not chosen yet (acting minion first)."""
    chosen = {s.minion for s in c.chosen}
    if c.pair == 0:
        who = [c.acting, c.opposing]
    else:
        who = [m for m in (c.acting, c.opposing) if c.extra_of(m) > 0]
    return [m for m in who if m not in chosen]


def _finish_strikes(d: Draft, log: Log) -> None:
    c = d.combat
    due = owing(c)
    if c.pair > 0 and not due and not c.chosen:
        d.put_combat(step="press", last_press=None)
        log.add(f"No additional strikes are left in round {c.round}: the press step follows.", R.ADDITIONAL_STRIKES)
        return
    for name in due:
        committed = _committed(d.combat, name)
        if committed is not None and d.combat.pair == 0:
            _record(d, log, committed, f"uses the strike its maneuver chose, {_strike_words(committed)},",
                    (R.MANEUVER_CHOOSES_STRIKE,))
        else:
            m = d.minions[name]
            s = Strike(minion=name, kind="hand", amount=strength_in_combat(d, m, log),
                       aggravated=_aggravated_hands(d, m, log))
            _record(d, log, s, "uses the default strike, a hand strike, as nothing else is played",
                    (R.DEFAULT_STRIKE,))


def _finish_damage(d: Draft, log: Log) -> None:
    dmg.settle(d, log)
    _after_damage(d, log)


def _finish_press(d: Draft, log: Log) -> None:
    c = d.combat
    if c.press:
        log.add(f"{c.press}'s press to continue is not cancelled: the combat continues after this round.", R.PRESS)
    else:
        log.add("Nobody presses to continue: the combatants go their separate ways.", R.PRESS)
    if d.edition == CURRENT:
        d.put_combat(step="end of round")
    else:
        _finish_round(d, log)


def _finish_round(d: Draft, log: Log) -> None:
    c = d.combat
    if c.press and not c.ended:
        d.set(combat=Combat(acting=c.acting, opposing=c.opposing, action=c.action, round=c.round + 1,
                            cause=c.cause, wounded=c.wounded, burning=c.burning, taken=c.taken,
                            unreplaced=c.unreplaced, limited=c.limited, used_abilities=c.used_abilities,
                            card_abilities=c.card_abilities, cause_card=c.cause_card,
                            strength_mods=tuple(x for x in c.strength_mods if x[3] == "combat"),
                            set_range=tuple(x for x in c.set_range if x[0] == 0 or x[0] > c.round)))
        fixed = d.combat.fixed_range()
        if fixed is not None:  # (a range set for this round: Lam Into's "that round is at close range")
            d.put_combat(range=fixed[1])
        where = "the end of round step, then " if d.edition == CURRENT else ""
        at = (f"at {fixed[1]} range, as {fixed[2]} says" if fixed else
              "at close range unless a maneuver changes it")
        log.add(f"End of round {c.round}: {where}round {c.round + 1} begins, {at}.",
                *([R.END_OF_ROUND] if d.edition == CURRENT else []), R.PRESS, R.RANGE_CLOSE)
        return
    end(d, log)


def end(d: Draft, log: Log) -> None:
    """The combat is over: what was going to torpor or being burned now does so."""
    c = d.combat
    d.set(combat=None)
    taken = ", ".join(f"{_victim_words(m)} {n} damage" for m, n in c.taken if n) or "no damage was inflicted"
    rules = [R.COMBAT] + ([R.END_OF_ROUND] if d.edition == CURRENT else [])
    log.add(f"The combat between {c.acting} and {c.opposing} is over after {c.round} round"
            f"{'s' if c.round > 1 else ''} ({taken}).", *rules)
    if c.unreplaced:
        draw_after_combat(d, log, c.unreplaced)
    if c.action is not None and c.continues is not None:
        _continue_as_if_unblocked(d, log, c)
    elif c.action is not None:  # the blocked action resolves as the combat ends
        action_over(d, log, c.action, successful=False, blocked=True, blocker=c.other(c.action.actor))
    dmg.apply_statuses(d, log, c.wounded, c.burning, after_combat=True)
    for name, card, sentence, kind, n in c.after_end:  # (Oubliette, Catatonic Fear at superior)
        other = c.other(name)
        t = d.minions.get(other)
        if t is None or not t.controlled or t.contested:
            log.add(f"{card}: \"{sentence}\": {other} is no longer in play; no effect.", R.GOLDEN_RULE)
        elif kind == "burn":
            burned = -blood(d, other, -n)
            log.add(f"{card}: \"{sentence}\": {other} burns {burned} {'blood' if t.kind != ALLY else 'life'} "
                    f"({d.minions[other].blood} left).", R.GOLDEN_RULE, R.BLOOD_BANK)
            burn_dead_ally(d, log, other)
        else:
            dmg.inflict(d, InflictDamage(minion=other, normal=n, source=card), log)


def _continue_as_if_unblocked(d: Draft, log: Log, c: Combat) -> None:
    """A card played by the blocked vampire says its action continues as if unblocked (`Combat.continues`): the
    action is open again, with its modifiers and reactions in effect and its block attempt gone; the Methuselahs
    who declined to block have had their chance (the card's rulings). A vampire going to torpor or burned as the
    combat ends has no action to continue."""
    card, sentence = c.continues
    who = c.action.actor  # (the vampire that played the card: `cards._continuation` keeps it for no other)
    if who in c.wounded or who in c.burning or who not in d.minions or not d.minions[who].ready:
        log.add(f"{who} is not ready as the combat ends: {c.action.summary} cannot continue as {card} says "
                f"(\"{sentence}\"); it is over, blocked.", R.GOLDEN_RULE, R.BLOCKED)
        action_over(d, log, c.action, successful=False, blocked=True, blocker=c.other(who))
        return
    a = dataclasses.replace(c.action, attempt=None)
    d.set(action=a)
    others = a.undeclined
    log.add(f"{a.summary} continues as if unblocked, as {card} says (\"{sentence}\"): its action modifiers and "
            f"reactions stay in effect, and the Methuselahs who declined to block do not block again"
            + (f"; {names(others)} may still attempt to block." if others else "; nobody else may block."),
            R.GOLDEN_RULE, R.BLOCK_DECLINE_FINAL)


def _victim_words(who: str) -> str:
    """'Colette' or, for a retainer (recorded as owner/retainer), "Colette's retainer Raven"."""
    owner, _, retainer = who.partition("/")
    return f"{owner}'s retainer {retainer}" if retainer else owner


def end_prematurely(d: Draft, log: Log, why: str, *rules) -> None:
    c = d.combat
    if d.edition == CURRENT:
        d.put_combat(ended=True, step="end of round", chosen=(), later=(), damage=(), press=None)
        log.add(f"{why}: the combat ends; the remaining steps are skipped until the end of round step.", *rules)
    else:
        log.add(f"{why}: the combat ends immediately (no further strikes, no presses).", *rules)
        dmg.apply_statuses(d, log, c.wounded, c.burning, after_combat=False)
        d.put_combat(wounded=(), burning=())
        end(d, log)


# -- range ----------------------------------------------------------------------------------------
def _committed(c: Combat, name: str) -> Optional[Strike]:
    for s in c.committed:
        if s.minion == name:
            return s
    return None


def _uses_weapon(m: Minion, source: Optional[str]) -> bool:
    return bool(source) and any(x.lower() == source.lower() for x in m.equipment)


def _check_weapon(c: Combat, m: Minion, source: str) -> None:
    if (m.name, source.lower()) in {(a, b.lower()) for a, b in c.stolen}:
        raise Refusal(f"{m.name} stole {source} this round: stolen equipment cannot be used by its new bearer during "
                      f"the current round", [R.STEAL_EQUIPMENT])


def _pay(d: Draft, m: Minion, cost: Cost, what: str) -> str:
    if cost.blood > m.blood:
        raise Refusal(f"{m.name} has {m.blood} {'life' if m.kind == ALLY else 'blood'}, not enough for {what} costing "
                      f"{cost.blood}", [R.COST_REQUIRED])
    if cost.pool > d.players[m.controller].pool:
        raise Refusal(f"{m.controller} has {d.players[m.controller].pool} pool, not enough for {what}",
                      [R.COST_REQUIRED])
    parts = []
    if cost.blood:
        if m.kind == ALLY and cost.blood >= m.blood:
            raise NotModelled(f"{m.name} would pay its last life counter during combat: when a combatant burned this "
                              f"way leaves the combat is not modelled", [R.ALLY_BURNED, R.COMBAT])
        blood(d, m.name, -cost.blood)
        parts.append(f"{cost.blood} {'life' if m.kind == ALLY else 'blood'}")
    if cost.pool:
        pool(d, m.controller, -cost.pool)
        parts.append(f"{cost.pool} pool")
    return f", paying {' and '.join(parts)}" if parts else ""


def maneuver(d: Draft, e: Maneuver, log: Log) -> None:
    c = _combat(d, "a maneuver")
    m = _combatant(d, c, e.minion, "maneuver")
    fixed = c.fixed_range()
    if fixed is not None and c.step in ("before range", "range"):
        at = (f"is at {fixed[1]} range, as {fixed[2]} says" if fixed[1] != CHOSEN_RANGE else
              f"has its range set by {fixed[2]}")
        raise Refusal(f"round {c.round} {at}: it has no determine range step, so no maneuver is played",
                      [R.GOLDEN_RULE, R.MANEUVER])
    c = reach(d, log, "range", "a maneuver")
    if c.last_maneuver == m.name:
        if R.MANEUVER_TWICE.exists_in(d.edition):
            raise Refusal(f"{m.name} played the last maneuver: a minion cannot play two maneuvers in a row",
                          [R.MANEUVER_TWICE])
        raise NotModelled(f"{m.name} maneuvers twice in a row: the current book says maneuvers offset the opponent's "
                          f"last maneuver, but not whether a minion may play two in a row (the older book forbids it)",
                          [R.MANEUVER])
    here = c.range or CLOSE
    there = LONG if here == CLOSE else CLOSE
    if e.to and e.to != there:
        raise Refusal(f"the range is {here}: a maneuver moves to {there} range, not to {e.to}", [R.MANEUVER])
    # a maneuver named by no source is the minion's own (the form "Ayelech maneuvers to long range"): of a minion
    # named by its card, the one its card gives, counted
    bare = e.source is None and e.via in (None, "ability") and m.text_read
    by_ability = _ability_used(d, c, m, "its optional maneuver" if bare else e.source, "maneuver") \
        if e.via in (None, "ability") else None
    via = e.via or ("ability" if by_ability is not None else
                    "weapon" if _uses_weapon(m, e.source) or e.weapon is not None else
                    ("card" if e.source else "ability"))  # (a weapon card is borne, never played from the hand)
    rules = [R.MANEUVER, R.COMBAT_ACTING_FIRST] if not c.maneuvered and m.name == c.opposing else [R.MANEUVER]
    committed = c.committed
    paid = ""
    if via in ("weapon", "strike card"):
        first = _committed(c, m.name)
        # the same weapon again (Deer Rifle: "two optional maneuvers each combat"): no second weapon, its strike chosen
        again = first is not None and via == "weapon" and first.via == "weapon" and _same_source(first.source, e.source)
        if first is not None and not again:
            raise Refusal(f"{m.name} already used the maneuver of {first.source} this round, which chose its strike: "
                          f"no second strike card or weapon can be used to maneuver again in the same round",
                          [R.MANEUVER_ONE_STRIKE])
        if again and e.weapon is None:
            raise NotModelled(f"{m.name} maneuvers with {e.source} again this round: whether it gives another maneuver "
                              f"is not said (its card is not read)", [R.MANEUVER, R.MANEUVER_ONE_STRIKE])
        if via == "weapon":
            if not _uses_weapon(m, e.source):
                raise Refusal(f"{m.name} has no {e.source} (has: {', '.join(m.equipment) or 'no equipment'})",
                              [R.STRIKE_SOURCES])
            _check_weapon(c, m, e.source)
        else:
            paid = _pay(d, m, e.cost, e.source or "the strike card")
            play_from_hand(d, m.controller, log, e.source or "a strike card", after_combat=e.unreplaced)
        spec = e.strike or StrikeSpec()
        if again:  # its strike is chosen already: the card's next maneuver, counted (what is said of the strike
            # checked against the card)
            weapons.strike_of(e.weapon, spec, strength_in_combat(d, m) if e.weapon.strength else m.strength)
            key = weapons.maneuver(e.weapon, m.name, c, there, _copies(m, e.source))
            c = d.put_combat(used_abilities=c.used_abilities + ((m.name, key),))
            rules += [R.GOLDEN_RULE]
            paid = f" (\"{e.weapon.sentence.strip()}\")"
        elif via == "weapon" and e.weapon is not None:
            key = weapons.maneuver(e.weapon, m.name, c, there, _copies(m, e.source))
            spec = weapons.strike_of(e.weapon, spec, strength_in_combat(d, m, log) if e.weapon.strength else
                                     m.strength)
            # its strike, chosen by the maneuver: counted now where the card limits it
            used = weapons.use(e.weapon, m.name, c, there, _copies(m, e.source))
            c = d.put_combat(used_abilities=c.used_abilities + ((m.name, key),) + (((m.name, used),) if used else ()))
            rules += [R.GOLDEN_RULE]
            paid = f" (\"{e.weapon.sentence.strip()}\")"
        if not again:
            strike = _strike_from(d, m, spec, e.source, "weapon" if via == "weapon" else "card",
                                  strength=strength_in_combat(d, m, log) if spec.kind == "hand" else None)
            committed = committed + (strike,)
            rules.append(R.MANEUVER_CHOOSES_STRIKE)
    elif via == "card":
        paid = _pay(d, m, e.cost, e.source or "the maneuver card")
        play_from_hand(d, m.controller, log, e.source or "a maneuver card", after_combat=e.unreplaced)
    c = d.put_combat(range=there, last_maneuver=m.name, maneuvered=c.maneuvered + (m.name,), committed=committed)
    src = by_ability or (f" with {e.source}" if e.source else "")
    chose = f"; using the maneuver of {e.source} chooses it as {m.name}'s strike this round" \
        if via in ("weapon", "strike card") and not (via == "weapon" and again) else \
        (f"; its strike this round is {e.source}'s already" if via == "weapon" else "")
    log.add(f"{m.name} maneuvers{src}{paid}: the range moves to {there}{chose}.", *rules,
            *([R.CRYPT_ABILITY] if by_ability else []))


def no_maneuver(d: Draft, e: NoManeuver, log: Log) -> None:
    c = _combat(d, "declining to maneuver")
    if e.minion:
        _combatant(d, c, e.minion, "maneuver")
    fixed = c.fixed_range() if c.step in ("before range", "range") else None
    if fixed is not None:  # no range step: "the range is close" says what the card set, or is refused; cards played
        # before range is determined still may be (a ruling on Neutral Guard and Lam Into), so the step stays
        if fixed[1] == CHOSEN_RANGE and e.range:  # (the range the card's player chose, said now)
            chosen = (c.round, e.range, fixed[2])
            c = d.put_combat(set_range=tuple(chosen if x is fixed else x for x in c.set_range), range=e.range)
            fixed = chosen
        elif fixed[1] == CHOSEN_RANGE:
            raise NotModelled(f"{fixed[2]} sets the range of round {c.round}: say which ('range is long')",
                              [R.GOLDEN_RULE, R.RANGE_SET])
        if e.range and e.range != fixed[1]:
            raise Refusal(f"round {c.round} is at {fixed[1]} range, as {fixed[2]} says, not {e.range}",
                          [R.GOLDEN_RULE, R.RANGE_SET])
        log.add(f"Round {c.round} is at {fixed[1]} range, as {fixed[2]} says; cards played before range is "
                f"determined may still be played.", R.GOLDEN_RULE, R.RANGE_SET)
        return
    c = reach(d, log, "range", "the range step")
    if e.minion and e.minion == c.acting and not c.maneuvered:
        log.add(f"{e.minion}, the acting minion, declines to maneuver first; {c.opposing} may still maneuver.",
                R.COMBAT_ACTING_FIRST, R.RANGE_CLOSE)
        return
    if e.minion and c.last_maneuver == e.minion:
        log.add(f"{e.minion} plays no further maneuver.", R.MANEUVER)
        return
    if e.range and e.range != (c.range or CLOSE):
        raise Refusal(f"the range is {c.range or CLOSE}, not {e.range}: only maneuvers change it",
                      [R.MANEUVER, R.RANGE_CLOSE])
    if e.minion:
        log.add(f"{e.minion} has no more maneuvers to play.", R.MANEUVER)
    _finish_range(d, log)


# -- strikes -----------------------------------------------------------------------------------------
def strength_in_combat(d: Draft, m: Minion, log: Optional[Log] = None) -> int:
    """`m`'s strength in the combat: its own, its card's bonuses against the opposing minion (said in the log when
    one is given), and what combat cards played give it this round or this combat (`Combat.strength_mods`)."""
    c = d.combat
    other = d.minions.get(c.other(m.name)) if c is not None else None
    extra, why = crypt_bonus(d, m, "strength", other=other)
    if log is not None:
        for words in why:
            log.add(f"{words}.", *words.rules)
    cards = sum(n for who, n, _, _ in (c.strength_mods if c is not None else ()) if who == m.name)
    return max(0, m.strength + extra + cards)


def _aggravated_hands(d: Draft, m: Minion, log: Optional[Log] = None) -> bool:
    """Whether the damage of `m`'s hand strikes is aggravated: its card says so ("Damage from Basilia's hand strikes
    is aggravated."), or a card it played this round (Wolf Claws); said in the log when one is given."""
    found = abilities_of(m, "aggravated hands")
    if found and log is not None:
        log.add(f"{m.name}'s card: \"{found[0].sentence}\"", R.CRYPT_ABILITY)
    c = d.combat
    return bool(found) or any(who == m.name for who, _ in (c.aggravated_hands if c is not None else ()))


def aggravate_hands(d: Draft, e: AggravateHands, log: Log) -> None:
    """Blood burned for aggravated hand strikes this round, as the combatant's own card says (card_text's
    "aggravate hands"): once each round or combat, the card's blood paid; the hand strikes it has chosen change too."""
    c = _combat(d, "aggravated hand strikes")
    m = _combatant(d, c, e.minion, "make their hand strikes aggravated")
    if c.ended:
        raise Refusal(f"the combat ended prematurely in round {c.round}: nothing more is struck",
                      [R.WOUNDED_ENDS_COMBAT, R.END_OF_ROUND])
    found = card_gives(m, "aggravate hands", "aggravated hand strikes for blood", "describe what it does")
    ability = found[0]
    said = f"\"{ability.sentence}\""
    if e.blood is not None and e.blood != ability.blood:
        raise Refusal(f"{m.name}'s card asks {ability.blood} blood, not {e.blood}: {said}", [R.CRYPT_ABILITY])
    if ability.once == "round" and (m.name, ability.sentence) in c.aggravated_hands:
        raise Refusal(f"{m.name} has used it this round: {said}", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    if ability.once == "combat":
        _use_once(d, c, m, ability.sentence, 1, "aggravated hand strikes")
    paid = _pay(d, m, Cost(blood=ability.blood), "aggravated hand strikes")
    c = d.combat
    d.put_combat(aggravated_hands=c.aggravated_hands + ((m.name, ability.sentence),))
    refresh_hand_strikes(d, (m.name,))
    log.add(f"{m.name} makes the damage of its hand strikes aggravated this round, as its card says ({said}){paid}.",
            R.CRYPT_ABILITY, R.GOLDEN_RULE)


def refresh_hand_strikes(d: Draft, names: tuple[str, ...]) -> None:
    """The hand strikes `names` have chosen this round (or committed by a maneuver), worked out again after a card
    changed their strength or made them aggravated (Wolf Claws played once both strikes are chosen)."""
    c = d.combat
    if c is None:
        return

    def fresh(s: Strike) -> Strike:
        if s.kind != "hand" or s.minion not in names or s.minion not in d.minions:
            return s
        m = d.minions[s.minion]
        return _with(s, amount=strength_in_combat(d, m) + s.bonus, aggravated=s.aggravated or _aggravated_hands(d, m))
    d.put_combat(chosen=tuple(map(fresh, c.chosen)), later=tuple(map(fresh, c.later)),
                 committed=tuple(map(fresh, c.committed)))


def _hand_shaped(spec: StrikeSpec) -> bool:
    """Whether a strike said with no source may be the minion's hand strike: damage at close range, not
    aggravated (its amount then tells: the minion's strength in this combat)."""
    return spec.kind in (None, "hand", "damage") and not spec.ranged and not spec.aggravated


def _strike_from(d: Draft, m: Minion, spec: StrikeSpec, source: Optional[str], via: str,
                 retainer: Optional[str] = None, strength: Optional[int] = None) -> Strike:
    if via == "hand" and spec.kind in (None, "hand", "damage"):
        kind = "hand"
    else:
        kind = spec.kind or "damage"
    amount = spec.amount
    if kind == "hand":
        amount = (m.strength if strength is None else strength) + spec.bonus
    if amount is None and kind not in ("damage", "steal blood"):
        amount = 0
    return Strike(minion=m.name, kind=kind, amount=amount, ranged=spec.ranged,
                  aggravated=spec.aggravated or (kind == "hand" and _aggravated_hands(d, m)), first=spec.first,
                  source=source, via=via, retainer=retainer, equipment=spec.equipment, unpreventable=spec.unpreventable,
                  bonus=spec.bonus if kind == "hand" else 0)


def _merge(d: Draft, committed: Strike, e: ChooseStrike, m: Minion) -> Strike:
    """The committed strike, completed by what the strike event says about it."""
    if e.spec.kind is None and e.spec.amount is None:
        return committed
    fresh = _strike_from(d, m, e.spec, committed.source, committed.via, committed.retainer,
                         strength=strength_in_combat(d, m) if e.spec.kind == "hand" else None)
    return fresh


def _use_once(d: Draft, c: Combat, m: Minion, sentence: str, uses: int, what: str,
              gives: str = "its card gives each combat", own: bool = True, key: Optional[str] = None) -> None:
    """Count a use of what `m`'s card (or a card played) gives it `uses` times each combat (`sentence`; counted under
    `key`, the sentence by default: `_use_key`); refused once they are used. `own`: its own card's (a vampire's
    special abilities); else a card played gave it (the card over the rules)."""
    key = key or sentence
    if c.uses(m.name, key) >= uses:
        raise Refusal(f"{m.name} has used the {what} {gives}: \"{sentence}\"",
                      [R.CRYPT_ABILITY, R.GOLDEN_RULE] if own else [R.GOLDEN_RULE])
    d.put_combat(used_abilities=c.used_abilities + ((m.name, key),))


def _ability_used(d: Draft, c: Combat, m: Minion, source: Optional[str], kind: str,
                  to_continue: Optional[bool] = None) -> Optional[str]:
    """When `source` names the minion's own optional press or maneuver (`kind`: card_text.named_ability): that use,
    counted against the number its card gives each combat, its blood paid ("Once each combat, Marty may burn 1 blood
    to get one press."), and the words the trace says it with; None when `source` names a card or a weapon. Refused
    when it names another minion's or another kind ("his optional press" for a maneuver), when the card gives none,
    when none is left, after the first round when the card says so, or a press to end combat when the card's press
    is "only usable to continue combat" (`to_continue`: the press's direction)."""
    named = named_ability(source)
    # what the action card that caused the combat gives (`Combat.card_abilities`): its own, or named by the card
    given = [a for who, card, a in c.card_abilities if who == m.name and a.kind == kind
             and (named is not None or (source and _same_source(card, source)))]
    borne = [Attached(x, abilities=g.abilities) for x in dict.fromkeys(m.equipment)
             if (g := gear.gear_of(d, x)) is not None]  # (equipment that is no weapon: IR Goggles)
    retainer = next((r for r in (*m.retainers, *m.attached, *borne) if source and _same_source(r.name, source)), None)
    if retainer is not None and retainer in borne and _copies(m, retainer.name) > 1:
        raise NotModelled(f"{m.name} bears {_copies(m, retainer.name)} {retainer.name}: whether each copy gives its own "
                          f"optional {kind} is not modelled", [R.EQUIP, R.GOLDEN_RULE])
    if named is None and retainer is not None:  # "with Jackie Therman", "with Shadow of the Beast", "with IR
        # Goggles": what that retainer's card, that card on it, or that equipment gives
        given = [a for a in retainer.abilities if a.kind == kind]
        if not given:
            whose = f"{m.name}'s retainer {retainer.name}" if retainer in m.retainers else f"{retainer.name}, on {m.name},"
            raise Refusal(f"{whose} gives it no optional {kind}", [R.EMPLOY, R.GOLDEN_RULE])
        named = (None, kind)
    action_card = c.action.card if c.action is not None else c.cause_card
    if named is None and not given and source and action_card and _same_source(action_card, source):
        raise Refusal(f"{source} is the action card of this combat's action: it gives {m.name} no {kind} in it"
                      + (" (what it gives in combat holds in the combat its action causes, not in one its block "
                         "causes)" if c.action is not None else ""), [R.GOLDEN_RULE, R.COMBAT_CAUSED])
    # what a reaction or modifier of the blocked action gives another minion in this combat: not this one's
    theirs = next(((who, g) for who, card, g in (c.action.grants if c.action is not None else ())
                   if who != m.name and _same_source(card, source or "")), None)
    if named is None and not given and theirs is not None:
        raise Refusal(f"{source} gives what it gives in this combat to {theirs[0]}, not {m.name}: "
                      f"\"{theirs[1].sentence}\"", [R.GOLDEN_RULE])
    # a reaction or modifier of the blocked action that is no combat card: no copy of it is played in the combat
    played = c.action.not_combat if c.action is not None else ()
    if named is None and not given and source and any(_same_source(card, source) for _, card in played):
        raise Refusal(f"{source}, played during the blocked action, is no combat card, and gives {m.name} no "
                      f"optional {kind} in this combat", [R.GOLDEN_RULE, R.COMBAT_CAUSED])
    if named is None and not given:
        return None
    whose, what = named or (None, kind)
    if not is_own(whose, m):
        raise Refusal(f"{m.name} cannot use {source}: it names {whose}'s ability, not {m.name}'s", [R.CRYPT_ABILITY])
    if what not in (kind, "ability"):
        raise Refusal(f"{source} names an optional {what}, not a {kind}", [R.CRYPT_ABILITY])
    found = given if named is None or retainer is not None else abilities_of(m, kind) + given
    if not found:
        if not m.text_read:  # described without its card: taken as the scenario says
            return f" with {source}"
        bare = (f"; a {kind} from a card is said 'plays a maneuver card to long range'" if kind == "maneuver" else
                f"; a {kind} from a card is said 'plays a press card to continue'")
        raise Refusal(f"{m.name}'s card gives it no optional {kind}"
                      + (f" (of its card, the engine does not read: {'; '.join(m.unread)})" if m.unread else "")
                      + bare, [R.CRYPT_ABILITY])
    # (of its card's and the action card's, one with a use left)
    ability = next((a for a in found if not a.uses or c.uses(m.name, _use_key(c, a)) < a.uses), found[0])
    card = next((f"{name}" for who, name, a in c.card_abilities if a is ability),
                next((f"{m.name}'s retainer {r.name}" for r in m.retainers if ability in r.abilities),
                     next((x.name for x in (*m.attached, *borne) if ability in x.abilities), f"{m.name}'s card")))
    own = card == f"{m.name}'s card"
    rules = [R.CRYPT_ABILITY, R.GOLDEN_RULE] if own else [R.GOLDEN_RULE]
    if ability.first_round and c.round != 1:
        raise Refusal(f"it is round {c.round}: {card} gives its optional {kind} during the first round of "
                      f"combat only (\"{ability.sentence}\")", rules)
    if ability.press_to == "continue" and to_continue is False:
        raise Refusal(f"{card} gives a press only usable to continue combat: \"{ability.sentence}\"", rules)
    # "1 optional maneuver or press": one of them, counted on the one sentence
    either = any(a.sentence == ability.sentence and a.kind != kind for _, _, a in c.card_abilities)
    label = "maneuver or press" if either else kind
    plural = "" if ability.uses == 1 else "es" if label.endswith("press") else "s"
    span = "in this combat" if any(a is ability for _, _, a in c.card_abilities) else "each combat"
    _use_once(d, c, m, ability.sentence, ability.uses, f"{ability.uses} {'' if ability.blood else 'optional '}"
                                                        f"{label}{plural}", f"{'its card' if own else card} gives {span}",
              own=own, key=_use_key(c, ability))
    paid = _pay(d, m, Cost(blood=ability.blood), f"the {kind}") if ability.blood else ""
    what = "" if ability.blood else "optional "
    gives = "its card gives" if own else f"{card} gives"
    return f" with the {what}{kind} {gives} (\"{ability.sentence}\"){paid}"


def _use_key(c: Combat, ability) -> str:
    """What a use of `ability` is counted under in the combat (`Combat.used_abilities`): its sentence, and for one a
    card played gave (`Combat.card_abilities`) the card too: Guard Dogs and Instinctive Reaction print the same
    sentence, and each gives its own maneuver."""
    card = next((name for _, name, a in c.card_abilities if a is ability), None)
    return ability.sentence if card is None else f"{card}: {ability.sentence}"


def _strike_ability(d: Draft, c: Combat, m: Minion, e: ChooseStrike) -> tuple[str, StrikeSpec]:
    """A strike `m` makes by its card's ability ("Once each combat, Alexis can strike: dodge.", "Laika can burn 1
    blood to strike: 2R damage."): the kind its card gives (a damage strike as printed: the scenario's figures, when
    given, must be the card's), counted in the combat when the card limits it, its blood paid; refused when the card
    gives no such strike or it is used. The words the trace adds (the sentence, quoted, and the blood paid), and the
    strike."""
    kind = e.spec.kind or "damage"
    found = [a for a in abilities_of(m, "strike") if a.strike_kind == kind]
    if not found:
        raise Refusal(f"{m.name}'s card gives it no {kind} strike of its own"
                      + (f" (of its card, the engine does not read: {'; '.join(m.unread)})" if m.unread else ""),
                      [R.CRYPT_ABILITY, R.STRIKE_SOURCES])
    ability = found[0]
    spec = e.spec
    if kind == "damage":
        printed = StrikeSpec(kind="damage", amount=ability.amount, ranged=ability.ranged,
                             aggravated=ability.aggravated, first=e.spec.first)
        if (e.spec.amount is not None and e.spec.amount != ability.amount) or (e.spec.ranged and not ability.ranged) \
                or (e.spec.aggravated and not ability.aggravated):
            raise Refusal(f"{m.name}'s card gives the strike {_strike_words_of(printed)}, not "
                          f"{_strike_words_of(e.spec)}: \"{ability.sentence}\"", [R.CRYPT_ABILITY])
        spec = printed
    if ability.uses:
        _use_once(d, c, m, ability.sentence, ability.uses, "strike")
    if ability.blood and e.cost.blood not in (0, ability.blood):
        raise Refusal(f"{m.name}'s card says the strike costs {ability.blood} blood, not {e.cost.blood}: "
                      f"\"{ability.sentence}\"", [R.CRYPT_ABILITY])
    paid = _pay(d, m, Cost(blood=ability.blood), "the strike") if ability.blood else ""
    return f" (its card: \"{ability.sentence}\"){paid}", spec


def _strike_words_of(spec: StrikeSpec) -> str:
    return (f"{spec.amount if spec.amount is not None else '?'}{'R' if spec.ranged else ''} "
            f"{'aggravated ' if spec.aggravated else ''}damage")


def _same_source(a: Optional[str], b: Optional[str]) -> bool:
    return (a or "").strip().lower() == (b or "").strip().lower()


def choose_strike(d: Draft, e: ChooseStrike, log: Log) -> None:
    c = _combat(d, "a strike")
    m = _combatant(d, c, e.minion, "strike")
    c = reach(d, log, "strike", "a strike")
    due = owing(c)
    if m.name not in due:
        if any(s.minion == m.name for s in c.chosen):
            raise Refusal(f"{m.name} already chose its strike for this pair of strikes: each minion gets one strike "
                          f"per round, and one per additional strike", [R.STRIKE_ONE])
        raise Refusal(f"{m.name} has no additional strike left in round {c.round}: only the minions with additional "
                      f"strikes may strike now", [R.ADDITIONAL_STRIKES])
    if m.name == c.opposing and c.acting in due:
        raise Refusal(f"{c.acting}, the acting minion, chooses its strike first, then {m.name}",
                      [R.STRIKE_ONE, R.COMBAT_ACTING_FIRST])
    rules = [R.STRIKE_ONE]
    committed = _committed(c, m.name) if c.pair == 0 else None
    via = e.via or ("hand" if e.spec.kind == "hand" and not e.source else None)
    quoted = ""  # a weapon card's strike sentence, read
    if committed is not None:
        said = e.source if e.source else None
        if (said and not _same_source(said, committed.source)) or via == "hand" or (
                e.spec.kind not in (None, committed.kind) and not (committed.kind == "damage" and e.spec.kind is None)):
            raise Refusal(f"{m.name} used the maneuver of {committed.source} this round, which chose that strike: it "
                          f"cannot choose another strike for its first strike of the round", [R.MANEUVER_CHOOSES_STRIKE])
        if e.weapon is not None and committed.via == "weapon":  # the card's strike, chosen by its maneuver: what is
            # said of it is checked against the card, and the strike stays the card's
            weapons.strike_of(e.weapon, e.spec, strength_in_combat(d, m) if e.weapon.strength else m.strength)
            strike = committed
        else:
            strike = _merge(d, committed, e, m)
        rules.append(R.MANEUVER_CHOOSES_STRIKE)
        paid = ""
    else:
        # its strength counts for a hand strike alone (a bonus naming a group may need what the table leaves unsaid)
        maybe_hand = via == "hand" or e.spec.kind == "hand" or (via is None and e.source is None and
                                                                 _hand_shaped(e.spec))
        strength = strength_in_combat(d, m) if maybe_hand else m.strength
        if via is None:
            if e.source is None:
                via = "hand" if _hand_shaped(e.spec) and e.spec.amount in (None, strength) else "card"
            else:
                via = "weapon" if _uses_weapon(m, e.source) or e.weapon is not None else "card"
        if via == "weapon":
            if not _uses_weapon(m, e.source):
                raise Refusal(f"{m.name} has no {e.source} (has: {', '.join(m.equipment) or 'no equipment'})",
                              [R.STRIKE_SOURCES])
            _check_weapon(c, m, e.source)
            if e.weapon is not None:
                e, quoted = _weapon_strike(d, c, m, e, rules, log)
        paid = ""
        if e.source is None and via == "card" and m.text_read and e.spec.kind in ("dodge", "combat ends") and \
                any(a.strike_kind == e.spec.kind for a in abilities_of(m, "strike")):
            raise NotModelled(f"{m.name}'s card gives it a strike ({abilities_of(m, 'strike')[0].sentence}),"
                              f" and a card may give one too: say which ('{m.name} dodges with his special ability', "
                              f"'{m.name} plays Dodge')", [R.CRYPT_ABILITY, R.STRIKE_SOURCES])
        named = named_ability(e.source) if via == "ability" else None
        if named is not None and named[1] != "ability":
            raise Refusal(f"{e.source} names an optional {named[1]}, not a strike", [R.CRYPT_ABILITY, R.STRIKE_SOURCES])
        if named is not None and not is_own(named[0], m):
            raise Refusal(f"{m.name} cannot strike with {e.source}: it names {named[0]}'s ability, not {m.name}'s",
                          [R.CRYPT_ABILITY, R.STRIKE_SOURCES])
        if via == "ability" and m.text_read:
            paid, spec = _strike_ability(d, c, m, e)
            e = dataclasses.replace(e, spec=spec)
            rules.append(R.CRYPT_ABILITY)
        elif via == "card" and e.source:
            paid = _pay(d, m, e.cost, e.source)
            play_from_hand(d, m.controller, log, e.source, after_combat=e.unreplaced)
        elif e.cost.blood or e.cost.pool:
            paid = _pay(d, m, e.cost, e.source or "the strike")
        strike = _strike_from(d, m, e.spec, e.source, via, strength=strength)
        if strike.kind == "hand" and strength != m.strength:
            strength_in_combat(d, m, log)  # its card's bonus, said
        if strike.kind == "hand":
            _aggravated_hands(d, m, log)
        if c.pair > 0:
            rules.append(R.ADDITIONAL_STRIKES_ANY if c.committed else R.ADDITIONAL_STRIKES)
    if e.retainer:
        owner, _, ret = e.retainer.partition("/")
        other = c.other(m.name)
        if owner != other or not any(r.name.lower() == ret.lower() for r in d.minions[other].retainers):
            raise Refusal(f"{owner} has no retainer {ret} (a strike can target a retainer of the opposing minion, "
                          f"{other})", [R.RETAINER_STRIKE])
        if (d.combat.range or CLOSE) != LONG or not strike.ranged:
            raise Refusal(f"a retainer can be struck only at long range, with a strike effective at long range "
                          f"(the range is {d.combat.range or CLOSE})", [R.RETAINER_STRIKE, R.STRIKE_RANGE])
        strike = _with(strike, retainer=ret)
    if strike.kind in ("destroy equipment", "steal equipment"):
        other = d.minions[c.other(m.name)]
        if strike.equipment is None and len(other.equipment) == 1:
            strike = _with(strike, equipment=other.equipment[0])
        if not strike.equipment or not any(x.lower() == strike.equipment.lower() for x in other.equipment):
            raise Refusal(f"{other.name} has no such equipment to {strike.kind.split()[0]} "
                          f"(has: {', '.join(other.equipment) or 'none'})",
                          [R.DESTROY_EQUIPMENT if strike.kind.startswith("destroy") else R.STEAL_EQUIPMENT])
    _record(d, log, strike, f"chooses {_strike_words(strike)}{paid}{quoted}", tuple(rules))


def _copies(m: Minion, card: str) -> int:
    """How many copies of the equipment `card` `m` bears."""
    return sum(1 for x in m.equipment if x.casefold() == card.casefold())


def _weapon_strike(d: Draft, c: Combat, m: Minion, e: ChooseStrike, rules: list,
                   log: Optional[Log] = None) -> tuple[ChooseStrike, str]:
    """A strike with a weapon card the engine reads (weapons.WeaponText): the strike its card gives, what the
    scenario said of it checked, its use counted where the card limits it. A weapon with text the engine does not
    read strikes as said when its damage is said (the step names that text), its limits still applied. Returns the
    event with that strike and the words quoting the card (`rules` gains the rules applied)."""
    w = e.weapon
    said_whole = bool(w.unread) and e.spec.amount is not None  # its damage as said: what is not read may change it
    if not said_whole:
        spec = weapons.strike_of(w, e.spec, strength_in_combat(d, m, log=None) if w.strength else m.strength)
        if w.strength:
            strength_in_combat(d, m, log)  # its card's bonus, said (as for a hand strike)
    key = weapons.use(w, m.name, c, c.range, _copies(m, w.card))
    if key:
        d.put_combat(used_abilities=d.combat.used_abilities + ((m.name, key),))
    rules += [R.STRIKE_SOURCES, R.GOLDEN_RULE]
    if said_whole:
        return e, f" (as said: its card's \"{' '.join(w.unread)}\" is not read)"
    return dataclasses.replace(e, spec=spec), f" (its card: \"{w.sentence.strip()}\")"


def _with(s: Strike, **changes) -> Strike:
    return evolve(s, **changes)


def _strike_words(s: Strike, article: bool = True) -> str:
    """'a hand strike (strength 1)', or without the article: 'hand strike (strength 1)'."""
    src = f" with {s.source}" if s.source else ""
    a = "a " if article else ""
    if s.kind == "hand" and s.source:  # a strike card's hand strike ("hand strike at +1 damage"): strength and more
        return f"{a}hand strike{src} ({s.amount}{' aggravated' if s.aggravated else ''} damage)"
    if s.kind == "hand":
        return f"{a}hand strike (strength {s.amount}{', aggravated' if s.aggravated else ''})"
    if s.kind == "dodge":
        return f"to dodge{src}" if article else f"dodge{src}"
    if s.kind == "combat ends":
        return f"{a}strike: combat ends{src}"
    if s.kind == "steal blood":
        return f"to steal {s.amount} blood{src}" if article else f"steal blood{src}"
    if s.kind in ("destroy equipment", "steal equipment"):
        verb = s.kind.split()[0]
        return f"to {verb} {s.equipment}{src}" if article else f"{verb} equipment{src}"
    if s.amount is None:
        return f"{a}strike{src} (its damage not said)"
    words = f"{s.amount}{' R' if s.ranged else ''}{' aggravated' if s.aggravated else ''} damage"
    target = f" at {s.retainer}" if s.retainer else ""
    return f"{a}strike{src} for {words}{' with first strike' if s.first else ''}{target}"


def _record(d: Draft, log: Log, strike: Strike, words: str, rules: tuple) -> None:
    c = d.combat
    extra = c.extra
    if c.pair > 0:
        extra = tuple((n, k - 1 if n == strike.minion else k) for n, k in extra)
    c = d.put_combat(chosen=c.chosen + (strike,), extra=extra)
    what = "strike" if c.pair == 0 else "additional strike"
    log.add(f"{strike.minion} {words} as its {what}.", *rules)
    if not owing(c):
        _resolve_pair(d, log)


# -- resolving a pair of strikes ----------------------------------------------------------------------------
def _resolve_pair(d: Draft, log: Log) -> None:
    c = d.combat
    strikes = c.chosen
    kind = "additional strikes" if c.pair else "strikes"
    label = f"the pair of {kind}" if len(strikes) > 1 else f"{strikes[0].minion}'s {kind[:-1]}"
    enders = [s for s in strikes if s.kind == "combat ends"]
    if enders and c.environmental and c.pair == 0:
        raise NotModelled("a combat ends strike while environmental damage waits for the first pair of strikes: "
                          "whether that damage is still inflicted is not said", [R.COMBAT_ENDS, R.ENVIRONMENTAL])
    if enders:
        who = names([s.minion for s in enders])
        for name, card, sentence in c.unlock_on_end:
            if name in [s.minion for s in enders] and name in d.minions and d.minions[name].locked:
                d.put_minion(name, locked=False)
                log.add(f"{name} unlocks before combat ends, as {card} says (\"{sentence}\").", R.GOLDEN_RULE)
        d.put_combat(chosen=(), environmental=(), unlock_on_end=())
        end_prematurely(d, log, f"{who}'s strike (combat ends) resolves first, before any other strike, even a "
                                f"first strike, and even if the opponent dodges", R.COMBAT_ENDS)
        return
    offensive = [s for s in strikes if not s.defensive]
    firsts = [s for s in offensive if s.first]
    if firsts and len(firsts) < len(offensive):
        now = tuple(firsts)
        later = tuple(s for s in offensive if not s.first)
        log.add(f"{names([s.minion for s in firsts])}'s first strike resolves before the other strike.", R.FIRST_STRIKE)
    else:
        now, later = tuple(offensive), ()
        if firsts:
            log.add("Both strikes are done with first strike: they resolve simultaneously.", R.FIRST_STRIKE)
    env = c.environmental if c.pair == 0 else ()
    d.put_combat(later=later, environmental=())
    log.add(f"Round {c.round}: {label} resolves at {c.range or CLOSE} range.",
            R.STRIKE_ONE, *([R.ADDITIONAL_STRIKES] if c.pair else []))
    for s in strikes:
        if s.kind == "dodge":
            log.add(f"{s.minion} dodges{' with ' + s.source if s.source else ''}: it and its possessions are "
                    f"protected from {c.other(s.minion)}'s strike (its retainers are not).", R.DODGE)
    _resolve_batch(d, log, now, env)


def _dodging(c: Combat, name: str) -> bool:
    return any(s.minion == name and s.kind == "dodge" for s in c.chosen)


def _resolve_batch(d: Draft, log: Log, batch: tuple[Strike, ...], environmental: tuple[Damage, ...] = (),
                   after_first: bool = False) -> None:
    pending = list(environmental)
    if environmental:
        log.add(f"Environmental damage resolves with the first pair of strikes: {_damage_words(environmental)} "
                f"(a dodge does not protect from it).", R.ENVIRONMENTAL)
    for s in batch:  # one batch resolves simultaneously: no strike in it stops another
        pending += _resolve_strike(d, log, s, after_first)
    c = d.put_combat(damage=tuple(pending), step="damage", prevent_done=())
    if not c.damage:  # nothing to prevent or mend
        _after_damage(d, log)


def _damage_words(items) -> str:
    return ", ".join(f"{x.amount}{' aggravated' if x.aggravated else ''} damage to "
                     f"{x.victim + chr(39) + 's ' + x.retainer if x.retainer else x.victim}" for x in items)


def _resolve_strike(d: Draft, log: Log, s: Strike, after_first: bool = False) -> list[Damage]:
    c = d.combat
    target = c.other(s.minion)
    me = d.minions.get(s.minion)
    if after_first and (me is None or s.minion in c.wounded or s.minion in c.burning):
        how = "burned" if s.minion in c.burning else "wounded"
        log.add(f"{s.minion}'s strike does not resolve: {s.minion} was {how} by a first strike.", R.FIRST_STRIKE)
        return []
    if after_first and s.via == "weapon" and me is not None and not _uses_weapon(me, s.source):
        log.add(f"{s.minion} no longer has {s.source}: it loses its strike.", R.FIRST_STRIKE,
                R.DESTROY_EQUIPMENT, R.STEAL_EQUIPMENT)
        return []
    if not s.retainer and _dodging(c, target):
        log.add(f"{target}'s dodge protects it from {s.minion}'s {_strike_words(s, False)}.", R.DODGE)
        return []
    if s.amount is None:
        raise NotModelled(f"{s.minion}'s strike with {s.source or 'its weapon'} resolves, but the scenario does not say "
                          f"what it does: say it with the strike ('for 2 R damage')", [R.STRIKE_SOURCES])
    rng = c.range or CLOSE
    if rng == LONG and not s.any_range:
        log.add(f"{s.minion}'s {_strike_words(s, False)} is not effective at long range: no effect.", R.STRIKE_RANGE,
                *([R.DEFAULT_STRIKE] if s.kind == "hand" else []))
        return []
    if s.retainer:
        log.add(f"{s.minion}'s strike hits {target}'s retainer {s.retainer} ({s.amount} damage); a dodge does not "
                f"protect retainers.", R.RETAINER_STRIKE, R.DODGE)
        return [Damage(victim=target, amount=s.amount, aggravated=s.aggravated, source=s.minion, retainer=s.retainer)]
    if s.kind in ("hand", "damage"):
        if s.amount <= 0:
            log.add(f"{s.minion}'s strike does no damage.", R.STRIKE_ONE)
            return []
        rules = [R.DEFAULT_STRIKE] if s.kind == "hand" else [R.STRIKE_SOURCES]
        if s.ranged and rng == LONG:
            rules.append(R.STRIKE_RANGE)
        then = "to be mended in the damage step (it cannot be prevented)" if s.unpreventable else \
            "to be prevented or mended in the damage step"
        log.add(f"{s.minion}'s {_strike_words(s, False)} inflicts {s.amount}{' aggravated' if s.aggravated else ''}"
                f"{' unpreventable' if s.unpreventable else ''} damage on {target}, {then}.", *rules,
                *([R.GOLDEN_RULE] if s.unpreventable else []))
        return [Damage(victim=target, amount=s.amount, aggravated=s.aggravated, source=s.minion,
                       unpreventable=s.unpreventable)]
    if s.kind == "steal blood":
        _steal_blood(d, log, s, target)
        return []
    if s.kind == "destroy equipment":
        item = _take_equipment(d, log, s, target, R.DESTROY_EQUIPMENT)
        if item is None:
            return []
        log.add(f"{s.minion}'s strike burns {target}'s {item}.", R.DESTROY_EQUIPMENT)
        return []
    if s.kind == "steal equipment":
        item = _take_equipment(d, log, s, target, R.STEAL_EQUIPMENT)
        if item is None:
            return []
        d.put_minion(s.minion, equipment=d.minions[s.minion].equipment + (item,))
        d.put_combat(stolen=d.combat.stolen + ((s.minion, item),),
                     used_abilities=weapons.moved(d.combat.used_abilities, item, target, s.minion,
                                                  _copies(d.minions[target], item)))
        log.add(f"{s.minion}'s strike steals {target}'s {item}: {s.minion} keeps it after combat, but cannot use it "
                f"this round.", R.STEAL_EQUIPMENT)
        return []
    return []


def _take_equipment(d: Draft, log: Log, s, target: str, rule) -> Optional[str]:
    """Remove the equipment a strike names from its target; None (logged) when it is gone."""
    victim = d.minions[target]
    item = next((x for x in victim.equipment if x.lower() == (s.equipment or "").lower()), None)
    if item is None:
        log.add(f"{target} no longer has {s.equipment}: no effect.", rule)
        return None
    d.put_minion(target, equipment=tuple(x for x in victim.equipment if x != item))
    return item


def _steal_blood(d: Draft, log: Log, s: Strike, target: str) -> None:
    victim = d.minions[target]
    moved = min(s.amount, victim.blood)
    d.put_minion(target, blood=victim.blood - moved)
    me = d.put_minion(s.minion, blood=d.minions[s.minion].blood + moved)
    unit = "life" if victim.kind == ALLY else "blood"
    log.add(f"{s.minion} steals {moved} {unit} from {target} at strike resolution ({me.blood} blood now): this is "
            f"not damage and cannot be prevented.", R.STEAL_BLOOD)
    drain_excess(d, s.minion, log)
    if victim.kind == ALLY and d.minions[target].blood <= 0:
        d.put_combat(burning=d.combat.burning + (target,))
        when = " (it leaves play when the combat is over)" if d.edition == CURRENT else ""
        log.add(f"{target} has no life counters left and is burned{when}.", R.ALLY_BURNED,
                *([R.BURNED_AFTER_COMBAT] if d.edition == CURRENT else []))


def _after_damage(d: Draft, log: Log) -> None:
    """The batch's damage is handled: the later batch (after first strikes), or the end of the pair."""
    c = d.combat
    if c.later:
        batch = tuple(s for s in c.later)
        d.put_combat(later=())
        _resolve_batch(d, log, batch, after_first=True)
        return
    out = [m for m in (c.acting, c.opposing) if m in c.wounded or m in c.burning or m not in d.minions]
    if out:
        why = f"{names(out)} {'is' if len(out) == 1 else 'are'} no longer ready (wounded or burned)"
        d.put_combat(chosen=())
        torpor = [R.TORPOR_AFTER_PAIR] if any(m in c.wounded for m in out) else []
        end_prematurely(d, log, why, R.WOUNDED_ENDS_COMBAT, *torpor)
        return
    d.put_combat(chosen=(), step="strike", pair=c.pair + 1)


# -- additional strikes, prevention, presses ----------------------------------------------------------------
def gain_strikes(d: Draft, e: GainStrikes, log: Log) -> None:
    c = _combat(d, "additional strikes")
    m = _combatant(d, c, e.minion, "gain additional strikes")
    if e.count < 1:
        raise Refusal("additional strikes are at least 1", [R.ADDITIONAL_STRIKES])
    if STEP[c.step] < STEP["strike"] or (c.step == "strike" and c.pair == 0):
        if R.ADDITIONAL_STRIKES_WHEN.exists_in(d.edition):
            raise Refusal(f"additional strikes are gained only after the first pair of strikes of the round is "
                          f"complete (round {c.round} is at its {c.step} step)", [R.ADDITIONAL_STRIKES_WHEN])
        raise NotModelled("gaining additional strikes before the first pair of strikes is resolved: the current book "
                          "says they are resolved after the normal pair, not when they can be gained",
                          [R.ADDITIONAL_STRIKES])
    c = reach(d, log, "strike", "additional strikes")
    _check_strike_source(c, m.name)
    source = e.source or "a card"
    paid = _pay(d, m, e.cost, source)
    if e.source:
        play_from_hand(d, m.controller, log, e.source, after_combat=e.unreplaced)
    add_strikes(d, log, m.name, e.count, source, paid)


def _check_strike_source(c: Combat, name: str) -> None:
    used = [src for who, src in c.extra_sources if who == name]
    if used:
        raise Refusal(f"{name} already gained additional strikes from {used[0]} this round: a minion cannot use more "
                      f"than one card or effect to gain additional strikes per round", [R.ADDITIONAL_STRIKES_LIMIT])


def add_strikes(d: Draft, log: Log, name: str, count: int, source: str, paid: str) -> None:
    """`count` additional strikes for the combatant `name` from `source` (its one source this round, checked: a card
    giving them with its strike checks it here), resolved after the round's normal pair."""
    c = d.combat
    _check_strike_source(c, name)
    extra = dict(c.extra)
    extra[name] = extra.get(name, 0) + count
    c = d.put_combat(extra=tuple(extra.items()), extra_sources=c.extra_sources + ((name, source),))
    log.add(f"{name} gains {count} additional strike{'s' if count > 1 else ''} from {source}{paid} (one source "
            f"per round); they are resolved after the normal pair, at the same {c.range} range.",
            R.ADDITIONAL_STRIKES, R.ADDITIONAL_STRIKES_LIMIT, *([R.COMBAT_ACTING_FIRST] if name == c.acting else []))


def prevent(d: Draft, e: Prevent, log: Log) -> None:
    c = _combat(d, "damage prevention")
    m = _combatant(d, c, e.minion, "prevent damage they take")
    if c.step != "damage" or not any(x.victim == m.name and x.retainer is None for x in c.damage):
        raise Refusal(f"no damage is being inflicted on {m.name} now (the combat is at its {c.step} step): damage "
                      f"is prevented in the damage step by the minion taking it", [R.PREVENT_DAMAGE])
    if m.name in c.prevent_done:
        raise Refusal(f"{m.name} already chose not to play any more damage prevention against this damage",
                      [R.PREVENT_DAMAGE])
    own = _prevention_ability(d, c, m, e) if named_ability(e.source) is not None else \
        _gear_prevention(d, c, m, e) if _uses_weapon(m, e.source) else None
    paid = _pay(d, m, e.cost, e.source or "the prevention")
    if e.source and own is None and not _uses_weapon(m, e.source):
        play_from_hand(d, m.controller, log, e.source, after_combat=e.unreplaced)
    whose, own = own if own is not None else (None, None)
    dmg.prevent(d, log, m.name, e.amount, False if own is not None and own.non_aggravated else e.aggravated,
                e.source if own is None else f"{e.source} ({whose}: \"{own.sentence}\")", paid)
    c = d.combat
    if not still_preventing(c):
        # all of its damage is prevented, and every other minion taking damage is done preventing:
        # nothing more can be played in the damage step
        _finish_damage(d, log)


def _gear_prevention(d: Draft, c: Combat, m: Minion, e: Prevent):
    """The prevention an equipment card `m` bears gives ("The minion with this equipment may prevent 1 damage each
    combat.": Flak Jacket), when the scenario names the card: counted point by point each combat (or round), for each
    copy borne; refused past its amount, or for a card that gives none. None for equipment the scenario only named
    (no text read: the prevention is taken as said)."""
    item = next(x for x in m.equipment if x.lower() == e.source.lower())
    g = gear.gear_of(d, item)
    if g is None:
        return None
    if any(who == m.name and x.casefold() == item.casefold() for who, x in c.stolen):
        raise Refusal(f"{m.name} stole {item} this round: stolen equipment may not be used by its new bearer during "
                      f"the current round", [R.STEAL_EQUIPMENT])
    found = [a for a in g.abilities if a.kind == "prevent"]
    if not found:
        raise Refusal(f"{item} gives {m.name} no prevention", [R.EQUIP, R.PREVENT_DAMAGE])
    a = found[0]
    if e.cost.blood or e.cost.pool:
        raise Refusal(f"{item} asks nothing for its prevention: \"{a.sentence}\"", [R.EQUIP, R.PREVENT_DAMAGE])
    if a.non_aggravated and e.aggravated:
        raise Refusal(f"{item} prevents normal damage only: \"{a.sentence}\"", [R.EQUIP, R.PREVENT_DAMAGE])
    key = (m.name, f"{item}: {a.sentence}" + ("" if a.once == "combat" else f" #{c.round}"))
    free = a.amount * _copies(m, item) - sum(1 for k in c.used_abilities if k == key)
    if e.amount > free:
        span = "combat" if a.once == "combat" else "round"
        raise Refusal(f"{item} lets {m.name} prevent {a.amount} damage each {span}, and {free} of it is left "
                      f"(\"{a.sentence}\")", [R.EQUIP, R.PREVENT_DAMAGE])
    d.put_combat(used_abilities=c.used_abilities + (key,) * e.amount)
    return "the card", a


def _prevention_ability(d: Draft, c: Combat, m: Minion, e: Prevent):
    """The prevention `m`'s own card, or a retainer's, gives ("Lizette can prevent 1 damage each combat.") when the
    scenario names it ("with her ability"), as (whose words: "its card" or "Belinde's retainer ...", the ability):
    counted point by point in the combat (or the round), normal damage only when the card says so; refused past its
    amount or for another minion's ability. None for a minion described without its card (the prevention taken as
    the scenario says, as a card's would be)."""
    whose, what = named_ability(e.source)
    if not is_own(whose, m) or what not in ("ability",):
        raise Refusal(f"{m.name} cannot prevent damage with {e.source}", [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
    # each source its own: its card's, and each retainer's (two Resplendent Protectors prevent 1 each)
    sources = [(f"{m.name}'s card", a.sentence, a) for a in m.abilities if a.kind == "prevent"] + \
        [(f"{m.name}'s retainer {r.name}", f"{r.name} #{i}: {a.sentence}", a) for i, r in enumerate(m.retainers)
         for a in r.abilities if a.kind == "prevent"]
    if not sources:
        if not m.text_read:
            return None
        raise Refusal(f"{m.name}'s card gives it no prevention of its own", [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
    whose, _, ability = sources[0]
    if e.cost.blood or e.cost.pool:
        raise Refusal(f"{whose} asks nothing for its prevention: \"{ability.sentence}\"",
                      [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
    fit = [s for s in sources if not (s[2].non_aggravated and e.aggravated)]
    if not fit:
        raise Refusal(f"{whose} prevents normal damage only: \"{ability.sentence}\"",
                      [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
    keys, left = [], e.amount  # (each source's points, used as far as they go, in the order above)
    for _, label, a in fit:
        key = (m.name, label) if a.once == "combat" else (m.name, f"{label} #{c.round}")
        free = a.amount - sum(1 for k in c.used_abilities if k == key)
        take = max(0, min(free, left))
        keys += [key] * take
        left -= take
    if left:
        used = sum(a.amount for _, _, a in fit) - (e.amount - left)
        said = "; ".join(f"{w}: \"{a.sentence}\"" for w, _, a in fit)
        if len(fit) == 1:
            whose, _, ability = fit[0]
            span = "combat" if ability.once == "combat" else "round"
            raise Refusal(f"{whose} prevents {ability.amount} damage each {span} and {used} of it is used: "
                          f"\"{ability.sentence}\"", [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
        raise Refusal(f"{m.name}'s preventions give {sum(a.amount for _, _, a in fit)} and {used} of it is used "
                      f"({said})", [R.CRYPT_ABILITY, R.PREVENT_DAMAGE])
    d.put_combat(used_abilities=c.used_abilities + tuple(keys))
    used = [fit[i] for i in range(len(fit)) if any(k[1].startswith(fit[i][1]) for k in keys)] or fit
    return ("its card" if used[0][0] == f"{m.name}'s card" else used[0][0]), used[0][2]


def press(d: Draft, e: Press, log: Log) -> None:
    c = _combat(d, "a press")
    m = _combatant(d, c, e.minion, "press")
    c = reach(d, log, "press", "a press")
    if c.last_press == m.name:
        raise Refusal(f"{m.name} played the last press: a minion cannot play two presses in a row", [R.PRESS_TWICE])
    if not e.to_continue and not c.press:
        raise Refusal("a press to end combat cancels a press to continue, and there is none to cancel", [R.PRESS])
    grant = next((g for g in c.granted if g.minion == m.name and e.source and _same_source(g.card, e.source)), None)
    by_ability = _ability_used(d, c, m, e.source, "press", e.to_continue) if grant is None else None
    if by_ability is not None:
        c, paid, src = d.combat, "", by_ability
    elif grant is not None:  # the optional press a strike card gave this round: the card is not played again
        if grant.use != "any" and (grant.use == "continue") != e.to_continue:
            raise Refusal(f"the optional press {grant.card} gave {m.name} is only usable to {grant.use} combat. "
                          f"{grant.card}: \"{grant.sentence}\"", [R.PRESS, R.GOLDEN_RULE])
        c = d.put_combat(granted=tuple(g for g in c.granted if g is not grant))
        paid, src = "", f" with the optional press {grant.card} gave"
    elif e.no_press:  # (a combat card whose press comes only with its strike or maneuver, played this round)
        raise Refusal(f"{m.name} has no optional press from {e.source} this round, and {e.source} is no press card: "
                      f"{e.no_press}", [R.PRESS, R.GOLDEN_RULE])
    else:
        paid = _pay(d, m, e.cost, e.source or "the press")
        if e.source and not _uses_weapon(m, e.source):
            play_from_hand(d, m.controller, log, e.source, after_combat=e.unreplaced)
        src = f" with {e.source}" if e.source else ""
    if e.to_continue:
        d.put_combat(press=m.name, last_press=m.name, press_done=())
        log.add(f"{m.name} presses to continue{src}{paid}: another round will follow unless the press is cancelled.",
                R.PRESS, *([R.COMBAT_ACTING_FIRST] if m.name == c.acting and c.last_press is None else []),
                *([R.CRYPT_ABILITY] if by_ability else []))
    else:
        d.put_combat(press=None, last_press=m.name, press_done=())
        log.add(f"{m.name} presses to end combat{src}{paid}, cancelling {c.press}'s press to continue.", R.PRESS,
                *([R.CRYPT_ABILITY] if by_ability else []))


def no_press(d: Draft, e: NoPress, log: Log) -> None:
    c = _combat(d, "the press step")
    if e.minion:
        _combatant(d, c, e.minion, "press")
    started = c.round
    for _ in range(200):  # the steps before the press step go by default
        c = d.combat
        if c is None or c.round != started or c.ended or STEP[c.step] >= STEP["press"]:
            break
        finish_step(d, log)
    if e.minion and c is not None and c.round == started and c.step == "press":
        c = d.put_combat(press_done=c.press_done + (e.minion,))
        others = may_still_press(c)
        if others:
            first = [R.COMBAT_ACTING_FIRST] if e.minion == c.acting and c.last_press is None else []
            log.add(f"{e.minion} declines to press; {names(others)} may still press.", R.PRESS, *first)
            return
        log.add(f"{e.minion} declines to press.", R.PRESS)
    # The round ends; stop as soon as the next round (if a press to continue stands) begins: its range,
    # strikes and presses are the players' to choose (RB 6.4.4 and 6.4.3; the current book's round
    # likewise starts again at its first step).
    for _ in range(10):
        c = d.combat
        if c is None or c.round != started:
            return
        if would_end(c):  # (a combat that would end stops at its end of round: "if combat would end" is a moment
            d.put_combat(stopped_at_end=True)  # there; the next event outside it, or the end of the events, ends it)
            return
        finish_step(d, log)
    raise NotModelled("a round of combat that does not end", [R.PRESS])


def would_end(c) -> bool:
    """The combat is at the end of a round with no press to continue standing, and did not end prematurely: it would
    end there ("Only usable if both combatants are still ready and combat would end.")."""
    return c is not None and c.step == "end of round" and not c.press and not c.ended


def ends_with_the_events(table) -> bool:
    """The combat stopped as it would end (`no_press`), and nothing played since made it go on: the end of the
    events finishes it (stages: the combat's `settled_at_end`)."""
    c = table.combat
    return c is not None and c.stopped_at_end and c.step == "end of round" and not c.press


def may_still_press(c: Combat) -> list[str]:
    """The combatants who may still press this round: not the one who played the last press (two in a
    row are not allowed), nor one who declined since that press."""
    return [m for m in (c.acting, c.opposing) if m != c.last_press and m not in c.press_done]


def no_prevent(d: Draft, e: NoPrevent, log: Log) -> None:
    c = _combat(d, "declining to prevent damage")
    if c.step != "damage":
        raise Refusal(f"no damage is being inflicted now (the combat is at its {c.step} step)", [R.PREVENT_DAMAGE])
    if e.minion:
        _combatant(d, c, e.minion, "prevent damage they take")
        if e.minion not in c.prevent_done:
            c = d.put_combat(prevent_done=c.prevent_done + (e.minion,))
        waiting = still_preventing(c)
        if waiting:
            # Each minion taking damage plays its prevention "until [it] chooses not to play any more":
            # one minion's choice does not end the other's.
            log.add(f"{e.minion} prevents no more damage; {names(waiting)} may still prevent the damage "
                    f"{'it takes' if len(waiting) == 1 else 'they take'}.", R.PREVENT_DAMAGE)
            return
        log.add(f"{e.minion} prevents no more damage.", R.PREVENT_DAMAGE)
    _finish_damage(d, log)


def still_preventing(c: Combat) -> list[str]:
    """The combatants with damage pending that have not yet chosen to stop preventing it (acting minion first)."""
    return [m for m in (c.acting, c.opposing)
            if m not in c.prevent_done and any(x.victim == m and x.retainer is None and x.amount for x in c.damage)]


def combat_over(d: Draft, e: CombatOver, log: Log) -> None:
    if d.combat is None:  # the older book ends a combat as soon as a combatant is wounded or burned
        log.add("No combat is in progress: the last one is already over.", R.COMBAT)
        return
    finish(d, log)


# -- damage from cards and effects, in a combat or not ---------------------------------------------------
def inflict_damage(d: Draft, e: InflictDamage, log: Log) -> None:
    """Damage from a card or effect (damage.inflict); a combatant it wounds or burns ends the combat."""
    if not dmg.inflict(d, e, log):
        return
    c = d.combat
    out = [n for n in (c.acting, c.opposing) if n in c.wounded or n in c.burning]
    if out and not c.ended:
        end_prematurely(d, log, f"{names(out)} {'is' if len(out) == 1 else 'are'} no longer ready",
                        R.WOUNDED_ENDS_COMBAT)


# A round's steps (state.COMBAT_STEPS, in order), each with how it ends when nothing more is played in it:
# the range defaults to close, strikes to hand strikes, presses to none. The older book's round (range,
# strike, press) runs through the same table (see this module's docstring).
STEPS = {"before range": _finish_before_range, "range": _finish_range, "before strikes": _finish_before_strikes,
         "strike": _finish_strikes, "damage": _finish_damage, "press": _finish_press, "end of round": _finish_round}
