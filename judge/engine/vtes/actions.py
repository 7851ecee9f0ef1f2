"""Minion-phase actions: announcement, block attempts, modifiers and reactions, resolution.

An action moves through three stages (the books' "sequencing"):
no block attempt in progress; a block attempt in progress (stealth and
intercept can then be added, each only when needed); every Methuselah who may
block has declined. It resolves when a block attempt succeeds (the blocker
locks and enters combat with the acting minion: combat.py; a blocked leave
torpor causes no combat: torpor.py) or when nothing more is played (the
action succeeds: its cost is paid, its effects take place; a political
action's referendum is called: politics.py).

Who may act and the announcement itself are helpers.check_actor and helpers.announce (torpor's actions
use them too); what a successful action of each kind does is the table `RESOLVE`, the torpor and
political kinds included.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from judge.engine.vtes import abilities, action_effects, combat, damage, gear, politics, situations, torpor
from judge.engine.vtes import rules as R
from judge.engine.citations import OLDER
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import (AbilityBleed, ActionCard, BecomeAnarch, Bleed, Block, Cost, Decline, Effect, Employ, Equip, Hunt,
                                 Modifier, Political, Reaction, Recruit, Unmodelled)
from judge.engine.vtes.card_text import Ability, abilities_of
from judge.engine.vtes.helpers import (Log, action_over, announce, apply_card_effect, blood, burn_dead_ally,
                                       card_forbids, card_gives, card_text_action, check_actor, check_cost, check_intercept_needed,
                                       check_stealth_needed,
                                       check_redirect, cost_words, crypt_bonus, drain_excess, draw_after_action,
                                       minion, names,
                                       play_from_hand, pool, redirect_bleed, require_seated, rule_exists, text_unread,
                                       who_blocks)
from judge.engine.vtes.state import (ALLY, TORPOR, UNCONTROLLED, VAMPIRE, Action, BlockAttempt, Draft, Minion,
                                Retainer)


# -- announcing ---------------------------------------------------------------------------------
def _bleed_target(d: Draft, m: Minion, target: Optional[str], any_target: bool) -> str:
    player = m.controller
    prey = d.prey(player)
    target = target or prey
    if target == player:
        raise Refusal(f"{player} cannot bleed {player}self: a Methuselah can never bleed themselves", [R.BLEED_SELF])
    if target is None:
        raise Refusal(f"{player} has no prey to bleed", [R.BLEED_TARGET])
    require_seated(d, target)
    if target != prey and not any_target:
        own = [a for a in abilities_of(m, "bleed action")
               if a.whose == "any" or (a.whose == "predator" and target == d.predator(player))]
        hint = (f"; {m.name}'s card gives a bleed of its own (\"{own[0].sentence}\"): say '{m.name} bleeds {target} "
                f"with its ability'" if own else "")
        raise Refusal(f"{target} is not {player}'s prey ({prey} is): a bleed is directed at the prey unless a "
                      f"card says otherwise{hint}", [R.BLEED_TARGET, R.PREY])
    if m.bled:
        raise Refusal(f"{m.name} already performed a bleed action this turn", [R.BLEED_ONCE])
    return target


def bleed_action(d: Draft, e: Bleed, log: Log) -> None:
    m = check_actor(d, e.actor, "bleed")
    target = _bleed_target(d, m, e.target, False)
    extra, why = crypt_bonus(d, m, "bleed", kind="bleed", directed=True, targets=(target,))
    amount = m.bleed + extra
    if e.amount is not None and e.amount != amount:
        said = f"; {'; '.join(why)}" if why else ""
        raise Refusal(f"{m.name} bleeds for {amount} when the action is announced, not {e.amount} "
                      f"(action modifiers add bleed later){said}",
                      [R.BLEED_AMOUNT, *dict.fromkeys(r for w in why for r in w.rules)])
    announce(d, log, m, kind="bleed", summary=f"{m.name} bleeds {target}", stealth=0, directed=True,
             targets=(target,), bleed=amount, detail=f", bleed {amount}",
             rules=(R.BLEED_WHO, R.BLEED_TARGET, R.BLEED_AMOUNT), bleed_words=why)


def hunt_action(d: Draft, e: Hunt, log: Log) -> None:
    m = check_actor(d, e.actor, "hunt")
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires hunt", [R.ALLY_BASIC])
    more = _hunt_more(d, m)
    no_stealth = abilities_of(m, "hunt stealth")  # "Igo does not get the usual +1 stealth when hunting."
    announce(d, log, m, kind="hunt", summary=f"{m.name} hunts", stealth=0 if no_stealth else 1, hunt=1 + more,
             detail=f", hunt {1 + more}" + (f" (its card: \"{no_stealth[0].sentence}\")" if no_stealth else ""),
             rules=(R.HUNT_WHO, *((R.CRYPT_ABILITY, R.GOLDEN_RULE) if no_stealth else ())))
    _say_hunt_more(d, m, log)


def _hunt_more(d: Draft, m: Minion) -> int:
    """The blood more its card's "+N hunt." gives a vampire's hunts, and the equipment it bears ("The bearer gets +1
    hunt.")."""
    return sum(a.amount for a in _hunt_abilities(d, m))


def _hunt_abilities(d: Draft, m: Minion, said: bool = False) -> list:
    """Its card's (and retainers') "+N hunt." and its equipment's ("The bearer gets +1 hunt."); `said`: with whose words
    each is, as (whose, ability)."""
    found = [(f"{m.name}'s card", a) for a in abilities_of(m, "hunt")] + \
        [(f"{m.name}'s {x}", a) for x in m.equipment if (g := gear.gear_of(d, x)) is not None
         for a in g.abilities if a.kind == "hunt"]
    return found if said else [a for _, a in found]


def _say_hunt_more(d: Draft, m: Minion, log: Log) -> None:
    for whose, a in _hunt_abilities(d, m, said=True):
        log.add(f"{whose}: \"{a.sentence}\" (counted above).", *((R.CRYPT_ABILITY,) if whose.endswith("card") else
                                                                   (R.EQUIP, R.GOLDEN_RULE)))


def equip_action(d: Draft, e: Equip, log: Log) -> None:
    m = check_actor(d, e.actor, "equip")
    items = (e.item, *e.more)
    g = gear.gear_of(d, e.item) if not e.source else None
    if g is not None and g.unread:  # (equipped from the hand, its text read: as `Belinde plays ...` does)
        raise NotModelled(f"{g.card}: \"{' '.join(g.unread)}\" is not modelled (what the rest of its text gives its "
                          f"bearer is read)", [R.EQUIP, R.GOLDEN_RULE])
    bearer = m
    for item in items:  # "A minion can have only one vehicle.": the cards it would bear, one by one
        why = gear.one_more_refused(d, bearer, item)
        if why:
            raise Refusal(why, [R.EQUIP, R.GOLDEN_RULE])
        bearer = replace(bearer, equipment=bearer.equipment + (item,))
    if e.source:
        src = minion(d, e.source)
        if src.controller != m.controller or src.name == m.name or not src.controlled:
            raise Refusal(f"equipment can be taken only from another minion {m.controller} controls", [R.EQUIP_MOVE])
        rules = (R.EQUIP_MOVE, *([R.EQUIP_SEVERAL] if e.more else ()))
        for item in items:
            if item not in src.equipment:
                raise Refusal(f"{src.name} does not have {item} (has: {', '.join(src.equipment) or 'nothing'})",
                              list(rules))
            if items.count(item) > src.equipment.count(item):
                raise Refusal(f"{item} is named twice, and {src.name} has it once", list(rules))
        announce(d, log, m, kind="equip", summary=f"{m.name} takes {names(list(items))} from {src.name}", stealth=1,
                 payload=("move", items, src.name), rules=rules)
        return
    if e.more:
        raise Refusal(f"{m.name} equips from the hand with one card per action: {names(list(items))} are "
                      f"{len(items)} (several can be taken in one action only from another minion)",
                      [R.EQUIP_ONE_CARD, R.EQUIP_SEVERAL])
    announce(d, log, m, kind="equip", summary=f"{m.name} equips with {e.item}", stealth=1, cost=e.cost,
             card=e.item, from_hand=True, payload=("hand", e.item, None, e.unique), rules=(R.EQUIP,))


def employ_action(d: Draft, e: Employ, log: Log) -> None:
    m = check_actor(d, e.actor, "employ")
    announce(d, log, m, kind="employ", summary=f"{m.name} employs {e.retainer}", stealth=1, cost=e.cost,
             card=e.retainer, from_hand=True, payload=Retainer(e.retainer, e.life, e.bonuses, e.abilities, e.unread),
             rules=(R.EMPLOY,))


def recruit_action(d: Draft, e: Recruit, log: Log) -> None:
    m = check_actor(d, e.actor, "recruit")
    if e.ally in d.minions:
        raise Refusal(f"{e.ally} is already in play", [R.RECRUIT])
    stealth = 1 if e.stealth is None else e.stealth
    ally = Minion(name=e.ally, controller=m.controller, kind=ALLY, card=e.ally, blood=e.life, bleed=e.bleed,
                  strength=e.strength, recruited=not e.acts_at_once, unread=e.unread, stealth=e.own_stealth,
                  intercept=e.own_intercept, bonuses=e.bonuses, abilities=e.abilities, disciplines=e.disciplines,
                  as_vampire=e.as_vampire, text_read=e.text_read)
    announce(d, log, m, kind="recruit", summary=f"{m.name} recruits {e.ally}", stealth=stealth, cost=e.cost,
             card=e.ally, from_hand=True, payload=ally, detail=f", {e.life} life", rules=(R.RECRUIT,))


def anarch_action(d: Draft, e: BecomeAnarch, log: Log) -> None:
    m = check_actor(d, e.actor, "anarch")
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is not a vampire", [R.ANARCH])
    if m.title:
        raise Refusal(f"{m.name} has a title ({m.title}): only an untitled vampire can become anarch", [R.ANARCH])
    if m.anarch or (m.sect or "").lower() == "anarch":
        raise Refusal(f"{m.name} is already anarch", [R.ANARCH])
    other = any(o.controller == m.controller and o.name != m.name and o.ready and o.kind == VAMPIRE
                and (o.anarch or (o.sect or "").lower() == "anarch") for o in d.minions.values())
    cost = Cost(blood=1 if other else 2)
    announce(d, log, m, kind="anarch", summary=f"{m.name} becomes anarch", stealth=1, cost=cost,
             detail=" (another ready anarch makes it cost 1 blood)" if other else "", rules=(R.ANARCH,),
             cost_rules=(R.ANARCH,))


def action_card(d: Draft, e: ActionCard, log: Log) -> None:
    kind = e.as_ or "card"
    m = check_actor(d, e.actor, kind)
    if e.via is None:  # an action card from the hand (one provided by a card in play is not played)
        card_forbids(m, "action cards")
    card = e.via or e.card or "an action card"
    if (e.via or e.card) and card in m.used:  # an unnamed card cannot be told apart from another
        raise Refusal(f"{m.name} already performed an action with {card} this turn", [R.ACTION_CARD_ONCE])
    common = dict(cost=e.cost, card=e.card if not e.via else None, via=e.via, from_hand=not e.via, effect=e.effect,
                  says=e.says, puts_vampire=e.puts_vampire, unreplaced=e.unreplaced, success=e.success,
                  chosen=e.chosen, cannot_block=e.cannot_block, intercept_mods=e.intercept_mods,
                  block_costs=e.block_costs)
    if e.as_ == "bleed":
        target = _bleed_target(d, m, e.targets[0] if e.targets else None, e.any_target)
        extra, why = crypt_bonus(d, m, "bleed", kind="bleed", directed=True, targets=(target,))
        amount = m.bleed + e.bleed + extra
        announce(d, log, m, kind="bleed", summary=f"{m.name} bleeds {target} with {card}", stealth=e.stealth,
                 directed=True, targets=(target,), bleed=amount, detail=f", bleed {amount}",
                 rules=(R.ACTION_CARD, R.ACTION_CARD_BASIC, R.BLEED_TARGET, R.BLEED_AMOUNT), bleed_words=why, **common)
        return
    if e.as_ == "hunt":
        if m.kind != VAMPIRE:
            raise Refusal(f"{m.name} is an ally: only vampires hunt", [R.ALLY_BASIC, R.ACTION_CARD_BASIC])
        amount = 1 + e.hunt + _hunt_more(d, m)
        announce(d, log, m, kind="hunt", summary=f"{m.name} hunts with {card}", stealth=e.stealth or 1,
                 hunt=amount, detail=f", hunt {amount}", rules=(R.ACTION_CARD, R.ACTION_CARD_BASIC, R.HUNT_WHO),
                 **common)
        _say_hunt_more(d, m, log)
        return
    targets = tuple(t for t in e.targets)
    for t in targets:
        require_seated(d, t)
        if t == m.controller:
            raise Refusal(f"an action is directed only at other Methuselahs; {t} is the acting Methuselah",
                          [R.BLOCK_DIRECTED])
    directed = bool(targets) if e.directed is None else bool(e.directed)
    if directed and not targets:
        raise Refusal("a directed action needs the Methuselah(s) it is directed at ('directed at Alexis')",
                      [R.BLOCK_DIRECTED])
    aimed = e.success.aiming if e.success is not None and e.chosen else None
    on = f" on {e.chosen}" if aimed else ""
    aim_rules = () if aimed is None else (R.UNCONTROLLED_TARGETS, R.GOLDEN_RULE) if aimed.uncontrolled else \
        (R.TORPOR_TARGETS,) + ((R.DIRECTED_TARGETS,) if targets else ())
    announce(d, log, m, kind="card", summary=f"{m.name} plays {card}{on}" + (f" at {names(targets)}" if targets else ""),
             stealth=e.stealth, directed=directed, targets=targets, rules=(R.ACTION_CARD, *aim_rules), **common)


def ability_bleed(d: Draft, e: AbilityBleed, log: Log) -> None:
    """A bleed the vampire's own card gives it (card_text's "bleed action"): a special bleed, the rules of bleeds
    applying but where the card says otherwise (its bleed and stealth, its cost, at any Methuselah or the predator),
    once each turn as an action via the minion's own card text."""
    m = check_actor(d, e.actor, "bleed")
    a = card_gives(m, "bleed action", "bleed of its own", f"describe it: '{m.name} plays an action card: ...'",
                   (R.CARD_ACTION, R.CRYPT_ABILITY))[0]
    via = card_text_action(m, a)
    target = _bleed_target(d, m, e.target, a.whose in ("any", "predator"))
    if a.whose == "predator" and target != d.predator(m.controller):
        raise Refusal(f"{m.name}'s card gives a bleed of {m.controller}'s predator, {d.predator(m.controller)}, not "
                      f"{target}: \"{a.sentence}\"", [R.CRYPT_ABILITY, R.BLEED_TARGET])
    extra, why = crypt_bonus(d, m, "bleed", kind="bleed", directed=True, targets=(target,))
    amount = m.bleed + a.amount + extra
    announce(d, log, m, kind="bleed", summary=f"{m.name} bleeds {target} as its card allows", stealth=a.stealth,
             directed=True, targets=(target,), bleed=amount, cost=Cost(blood=a.blood), via=via,
             detail=f", bleed {amount} (its card: \"{a.sentence}\")",
             rules=(R.CARD_ACTION, R.ACTION_CARD, R.ACTION_CARD_BASIC, R.BLEED_TARGET, R.BLEED_AMOUNT,
                    R.CRYPT_ABILITY), cost_rules=(R.CRYPT_ABILITY,), bleed_words=why)


def political_action(d: Draft, e: Political, log: Log) -> None:
    m = check_actor(d, e.actor, "political")
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires perform political actions", [R.POLITICAL])
    if m.political:
        raise Refusal(f"{m.name} already performed a political action this turn", [R.POLITICAL])
    card = e.card or "a political action card"
    announce(d, log, m, kind="political", summary=f"{m.name} calls a referendum with {card}", stealth=1, cost=e.cost,
             card=e.card, from_hand=bool(e.card), effect=e.effect, says=e.says,
             payload=e.title_card or e.referendum_text,
             rules=(R.POLITICAL,))


def unmodelled(d: Draft, e: Unmodelled, log: Log) -> None:
    rules = [R.named(name) for name in e.rules if R.named(name) is not None]
    raise NotModelled(e.what, rules)


# -- during the action -------------------------------------------------------------------------
def _current(d: Draft, what: str) -> Action:
    a = d.action_()
    if a is None:
        raise Refusal(f"{what} needs an action in progress, and there is none", [R.MODIFIERS_ANY_TIME])
    return a


def _pay_now(d: Draft, m: Minion, cost: Cost, what: str, log: Log) -> str:
    check_cost(d, m, cost, what)
    if cost.blood:
        blood(d, m.name, -cost.blood)
    if cost.pool:
        pool(d, m.controller, -cost.pool)
    words = cost_words(cost)
    return f", paying {words} at once" if words else ""


def played_once(d: Draft, minion_name: str, card: str, played: str) -> None:
    """The non-repeat rule: a minion plays the same action modifier or reaction once an action. Refused when it
    played `card` during the action in progress already, else recorded there (`played`: "modifiers" or
    "reactions"); a card cancelled as it is played is played too."""
    a = d.action_()
    if (minion_name, card) in getattr(a, played):
        raise Refusal(f"{minion_name} already played {card} during this action", [R.SAME_CARD_ONCE])
    for who, other, sentence, scope in a.excluded:  # a card played earlier forbids this one beside it
        if other.casefold() == card.casefold() and (scope == "action" or who == minion_name):
            raise Refusal(f"{who} played a card this action that forbids {card} beside it: \"{sentence}\"",
                          [R.CARD_REQUIREMENTS, R.GOLDEN_RULE])
    d.put_action(**{played: getattr(a, played) + ((minion_name, card),)})


def modifier(d: Draft, e: Modifier, log: Log) -> None:
    if d.referendum is not None:
        politics.no_cards(d, "an action modifier")
    a = _current(d, "an action modifier")
    m = minion(d, e.minion)
    text_unread(m, "plays an action modifier")
    gear.check_unread(d, m, "plays an action modifier")
    if m.name != a.actor and not (e.by_other and m.controller == a.player and m.ready):
        raise Refusal(f"only the acting minion ({a.actor}) plays action modifiers; {m.name} cannot",
                      [R.MODIFIER_WHO])
    if e.card:
        played_once(d, m.name, e.card, "modifiers")
    if not (e.stealth or e.bleed or e.hunt or e.effect or e.unblockable or e.fails_attempt or e.blocker_intercept
            or e.grant or e.ends_action or e.cannot_block or e.intercept_mods or e.block_costs or e.lock_failed):
        raise NotModelled("action modifiers other than +stealth, +bleed, +hunt, unblockable, a block attempt made to "
                          "fail or its intercept lowered, blockers barred, taxed or lowered, the action ended, what it "
                          "gives in the combat if the action is blocked, or a described effect",
                          [R.MODIFIERS_ANY_TIME, R.GOLDEN_RULE])
    if (e.fails_attempt or e.blocker_intercept) and a.attempt is None:
        said = e.fails_attempt or f"The blocking minion gets -{e.blocker_intercept} intercept."
        raise Refusal(f"{e.card or 'the modifier'} acts on a block attempt (\"{said}\"), and no block attempt is in "
                      f"progress", [R.GOLDEN_RULE, R.MODIFIERS_ANY_TIME])
    if e.stealth > 0 and not e.any_stealth:  # ("+1 stealth, even if stealth is not yet needed.": the card over it)
        check_stealth_needed(a)
    rules = [R.MODIFIERS_ANY_TIME]
    if m.name != a.actor:  # a card another vampire plays, as the card allows: the card over Minion Cards ¶6
        rules += [R.MODIFIER_WHO, R.GOLDEN_RULE]
    limited = e.limited if e.limited is not None else True
    second_bleed = bool(e.bleed) and limited and a.bleed_modified
    if e.bleed and a.kind != "bleed":
        raise Refusal(f"+bleed modifies a bleed action; {a.summary} is not one", [R.BLEED_AMOUNT])
    if second_bleed:
        if rule_exists(d, R.BLEED_LIMITED):
            raise Refusal("only one action modifier card can increase the bleed (limited)", [R.BLEED_LIMITED])
        rules.append(R.SAME_CARD_ONCE)
    if e.hunt and a.kind != "hunt":
        raise Refusal(f"+hunt modifies a hunt action; {a.summary} is not one", [R.HUNT_EFFECT])
    if e.cannot_block and a.attempt is not None and bars(d, a, e.cannot_block, d.minions.get(a.attempt.blocker)):
        # (what becomes of an attempt in progress by a minion the card now bars is not said)
        raise NotModelled(f"{e.card} says \"{e.cannot_block[0][1]}\" while {a.attempt.blocker} is attempting to "
                          f"block: what becomes of that attempt is not read", [R.GOLDEN_RULE, R.MODIFIERS_ANY_TIME])
    if e.unblockable and (a.attempt is not None or a.declined):
        # (the cards saying so are "Only usable as the action is announced": what one played later does is not read)
        raise NotModelled(f"an action made unblockable after block attempts began ({e.card or 'a modifier'})",
                          [R.MODIFIERS_ANY_TIME, R.GOLDEN_RULE])
    what = e.card or "an action modifier"
    paid = _pay_now(d, m, e.cost, what, log)
    play_from_hand(d, m.controller, log, what, replaced=e.replaced)
    a = d.put_action(stealth=a.stealth + e.stealth, bleed=a.bleed + e.bleed, hunt=a.hunt + e.hunt,
                     bleed_modified=a.bleed_modified or (bool(e.bleed) and limited),
                     announce_over=a.announce_over or (None if e.as_announced else what))
    changes = []
    if e.stealth:
        changes.append(f"stealth {a.stealth}")
        rules.append(R.STEALTH_WHEN_NEEDED)
    if e.bleed:
        changes.append(f"bleed {a.bleed}")
        rules.append(R.BLEED_AMOUNT)
        if rule_exists(d, R.BLEED_LIMITED) and limited:
            rules.append(R.BLEED_LIMITED)
    if e.hunt:
        changes.append(f"hunt {a.hunt}")
    if e.unblockable:
        a = d.put_action(unblockable=what)
        changes.append("the action is unblockable (no block can be attempted)")
        rules.append(R.GOLDEN_RULE)
    if e.intercept_mods:
        a = d.put_action(intercept_mods=a.intercept_mods + tuple(e.intercept_mods))
        sentence = e.intercept_mods[0][1]
        changes.append(f"\"{sentence}\"")
        rules.append(R.GOLDEN_RULE)
        lowered = _lowers(d, a, e.intercept_mods, d.minions.get(a.attempt.blocker)) if a.attempt is not None else 0
        if lowered:
            att = replace(a.attempt, intercept=a.attempt.intercept - lowered)
            a = d.put_action(attempt=att)
            changes.append(f"{att.blocker} has {att.intercept} intercept against {a.stealth} stealth")
            rules.append(R.BLOCK_COMPARE)
    if e.block_costs:
        a = d.put_action(block_costs=a.block_costs + tuple(e.block_costs))
        changes.append(f"\"{e.block_costs[0][1]}\"")
        rules.append(R.GOLDEN_RULE)
    if e.cannot_block:
        a = d.put_action(cannot_block=a.cannot_block + tuple(e.cannot_block))
        card, sentence, who, _ = e.cannot_block[0]
        changes.append(f"{who} cannot block this action" if isinstance(who, str) else f"\"{sentence}\"")
        rules.append(R.GOLDEN_RULE)
    if e.blocker_intercept:
        att = replace(a.attempt, intercept=a.attempt.intercept - e.blocker_intercept)
        a = d.put_action(attempt=att)
        changes.append(f"{att.blocker} has {att.intercept} intercept against {a.stealth} stealth")
        rules.append(R.BLOCK_COMPARE)
    if e.fails_attempt:
        att = a.attempt
        barred = a.barred + (((att.blocker, what),) if e.bars == "minion" else ())
        declined = a.declined + ((att.player,) if e.bars == "controller" and att.player not in a.declined else ())
        players = a.barred_players + (((att.player, what),) if e.bars == "controller" else ())
        a = d.put_action(attempt=None, barred=barred, declined=declined, barred_players=players,
                         failed_blockers=a.failed_blockers + ((att.blocker,) if a.lock_failed else ()))
        later = {"minion": f"{att.blocker} cannot attempt to block this action again; {att.player} may attempt with "
                           f"another minion, or decline",
                 "controller": f"{att.player} cannot attempt to block this action again (as having declined)"}.get(
            e.bars, f"{att.player} may attempt again, or decline")
        changes.append(f"{att.blocker}'s block attempt fails, as the card says (\"{e.fails_attempt}\"): {later}")
        rules += [R.GOLDEN_RULE, R.BLOCK_REPEAT]
    if e.lock_failed and not a.lock_failed:
        a = d.put_action(lock_failed=(what, e.lock_failed))
        open_ = f" (and {a.attempt.blocker}, attempting now, if it fails)" if a.attempt is not None else ""
        changes.append(f"the minions who attempt to block it from now on and fail{open_} lock before it resolves")
        rules.append(R.GOLDEN_RULE)
    a = _note_for_combat(d, a, m, e, what)
    if e.grant is not None:
        changes.append(f"if the action is blocked, {a.actor if e.grant_to_actor else m.name} has in that combat what "
                       f"the card says (\"{e.grant.sentence}\")")
        rules.append(R.GOLDEN_RULE)
    note = " (this book has no 'limited' rule: only playing the same card twice is forbidden)" if second_bleed else ""
    if e.cost.blood or e.cost.pool:
        rules.append(R.COST_AT_ONCE)
    if e.ends_action:
        changes.append("it ends the action")
    log.add(f"{m.name} plays {what}{paid}: {', '.join(changes) or 'its described effect'}{note}.", *rules)
    if e.effect:
        apply_card_effect(d, log, e.effect, what)
    if e.ends_action:
        end_unsuccessfully(d, log, m.name, what, e.ends_action, e.end_locks, e.end_how)
    burn_dead_ally(d, log, m.name)


def end_unsuccessfully(d: Draft, log: Log, by: str, card: str, sentence: str, locks, how: str) -> None:
    """A card played by `by` ends the action in progress, unsuccessfully ("Lock this vampire and end the action."):
    the locks it says first, then the action is over at once: no block attempt resolves (its minion does not lock
    for it, nor enter combat), the action's cost is not paid (it is paid only on success), and no card can be played
    in it after. `how`, as the cards' rulings tell their wordings apart:
      "fails" ("The action fails.") and "resolved" ("the action ends (unsuccessfully)"): the action has reached
      resolution (Psychomachia's ruling, and the group ruling on "the action fails": the non-repeat rules apply, and
      cards usable after an action still are): the moment after its resolution opens;
      "ended" ("end the action", "the current action is ended"): it has not reached resolution, "effectively
      canceled" (The Kiss of Ra's ruling: the same vampire can undertake the same action again), and no modifier or
      reaction is played after it (the rulings on The Kiss of Ra and Mental Maze): no such moment opens."""
    a = d.action_()
    if a.failed_blockers:
        raise NotModelled(f"{a.lock_failed[0]} says \"{a.lock_failed[1]}\", and {card} ends the action after "
                          f"{names(a.failed_blockers)} failed to block: whether they lock then is not said",
                          [R.GOLDEN_RULE])
    whom = {"self": by, "actor": a.actor, "blocker": a.attempt.blocker if a.attempt is not None else None}
    said = []
    for who, verb in locks:
        name = whom[who]
        if name is None:
            raise Refusal(f"{card} says \"{sentence}\", and no block attempt is in progress: there is no blocking "
                          f"minion to {verb}", [R.GOLDEN_RULE])
        if name not in d.minions:
            continue
        if verb.startswith("burn "):
            burned = -blood(d, name, -int(verb.split()[1]))
            said.append(f"{name} burns {burned} {'blood' if d.minions[name].kind == VAMPIRE else 'life'}")
        elif verb == "torpor":
            if d.minions[name].kind == VAMPIRE and d.minions[name].region != TORPOR:
                damage.apply_statuses(d, log, (name,), (), after_combat=False, rules=(R.GOLDEN_RULE,))
                said.append(f"{name} goes to torpor")
        else:
            d.put_minion(name, locked=verb == "lock")
            said.append(f"{name} {verb}s")
    d.set(action=None)
    attempt = (f"; {a.attempt.blocker}'s block attempt does not resolve (it does not lock for it, and there is no "
               f"combat)" if a.attempt is not None else "")
    cost = "; its cost is not paid" if a.cost_blood or a.cost_pool else ""
    ended = (" before its resolution: as canceled, it does not count for the non-repeat rules, and no card usable "
             "after it can be played" if how == "ended" else "")
    log.add(f"{card}: \"{sentence}\": " + (", ".join(said) + "; " if said else "") + f"the action ({a.summary}) "
            f"ends, unsuccessfully{attempt}{cost}{ended}.", R.GOLDEN_RULE, R.COST_ON_SUCCESS,
            *([R.TORPOR_GOING] if any(verb == "torpor" for _, verb in locks) else []))
    if how != "ended":  # (an action that fails has reached its resolution: what is burned "before" it is burned)
        settle_unless_blocks(d, log, a, None)
    if how == "ended":
        actor = d.minions.get(a.actor)
        if actor is not None:  # (what announcing it recorded for the non-repeat rules: undone)
            used = tuple(u for u in actor.used if u not in (a.card, a.via)) if (a.card or a.via) else actor.used
            d.put_minion(actor.name, bled=actor.bled and a.kind != "bleed",
                         political=actor.political and a.kind != "political", used=used)
        draw_after_action(d, log, a.unreplaced)
    else:
        action_over(d, log, a, successful=False)
    for who, verb in locks:  # (an ally that burned its last life is burned: the action is over by then)
        if verb.startswith("burn ") and whom[who]:
            burn_dead_ally(d, log, whom[who])


def _fits(d: Draft, a, who, by: str, b: Minion, card: str, sentence: str) -> bool:
    """Whether `b` is one of the minions `who` (card_text.Named) names, "younger" told against the minion that played
    the card (`by`); NotModelled when the table does not say."""
    me = d.minions.get(by) or d.minions.get(a.actor) or b
    return who.misfit(d, b, me, f"{card} says \"{sentence}\"") is None


def _lowers(d: Draft, a, entries, b: Optional[Minion]) -> int:  # (the intercept taken off, 0 when none)
    """What the cards' "Allies get -1 intercept." (`entries`: state.Action.intercept_mods's) take from `b`'s
    intercept."""
    return sum(n for card, sentence, who, n, by in entries if b is not None and _fits(d, a, who, by, b, card, sentence))


def bars(d: Draft, a, entries, b: Optional[Minion]):
    """The first of `entries` (state.Action.cannot_block's) that bars the minion `b` from blocking the action `a`, or
    None; NotModelled when the table does not say whether `b` is one of the minions a card names (its clan, ...)."""
    for entry in entries:
        card, sentence, who, by = entry
        if b is None:
            continue
        if isinstance(who, str):
            if who == b.name:
                return entry
            continue
        if _fits(d, a, who, by, b, card, sentence):
            return entry
    return None


def reaction_played(name: str, played: str, locked_by_card: bool, allows: str = "") -> tuple[str, list]:
    """The words of a reaction played (`played`: the card and what was paid) and the rules they add:
    `locked_by_card`, by a locked minion its card lets play it (what it says: `allows`, its sentence; "Usable by a
    locked vampire" when empty)."""
    if locked_by_card:
        allows = allows.rstrip(".") or "Usable by a locked vampire"
        return f"{name}, locked, plays {played}, as the card allows (\"{allows}\")", [R.GOLDEN_RULE]
    return f"{name} plays {played} (a reaction does not lock its minion)", []


def reaction(d: Draft, e: Reaction, log: Log) -> None:
    if d.referendum is not None:
        politics.no_cards(d, "a reaction card")
    a = _current(d, "a reaction")
    m = minion(d, e.minion)
    text_unread(m, "plays a reaction")
    gear.check_unread(d, m, "plays a reaction")
    card_forbids(m, "reaction cards")
    if m.controller == a.player:
        raise Refusal(f"{m.name} is {a.player}'s minion: only other Methuselahs' minions play reactions to "
                      f"{a.player}'s actions", [R.REACTION_WHO])
    if m.region == TORPOR:
        raise Refusal(f"{m.name} is in torpor and cannot play reaction cards", [R.TORPOR_REGION])
    awake = m.name in a.woken or e.wake  # a wake effect is played even by a locked vampire
    if not m.ready or (m.locked and not awake and not e.locked_ok and not e.unlock_block):
        raise Refusal(f"{m.name} is not ready and unlocked: only ready unlocked minions play reactions",
                      [R.REACTION_WHO, *([R.ALLY_OLDER_REGION] if m.recruited else []), *([R.WAKE] if m.locked else [])])
    if e.card:
        played_once(d, m.name, e.card, "reactions")
    if not (e.intercept or e.effect or e.bleed or e.redirect or e.wake or e.unlock_block or e.block_any
            or e.granted_ability or e.grant
            or e.ends_action or e.unless_blocks):
        raise NotModelled("reactions other than +intercept, -bleed, a redirected bleed, a wake, unlocking to block, the "
                          "action ended, a burn unless its minion blocks, what it gives in the combat if its minion "
                          "blocks, or a described effect", [R.REACTION_WHO, R.GOLDEN_RULE])
    if e.bleed or e.redirect:
        _check_bleed_reaction(d, a, e)
    rules = [R.REACTION_WHO]
    if e.intercept:
        check_intercept_needed(a, e.to or m.name)
    what = e.card or "a reaction"
    paid = _pay_now(d, m, e.cost, what, log)
    play_from_hand(d, m.controller, log, what, replaced=e.replaced, after_action=e.after_action)
    a = d.action_()
    allows = "This vampire unlocks and attempts to block" if e.unlock_block else e.locked_by
    text, card_rules = reaction_played(m.name, f"{what}{paid}",
                                       m.locked and (e.locked_ok or e.unlock_block) and not awake, allows)
    rules += card_rules
    if e.intercept:
        att = a.attempt
        a = d.put_action(attempt=BlockAttempt(att.blocker, att.player, att.intercept + e.intercept))
        text += f": {a.attempt.blocker} has {a.attempt.intercept} intercept against {a.stealth} stealth"
        rules.append(R.INTERCEPT_WHEN_NEEDED)
    if e.wake and m.name not in a.woken:
        a = d.put_action(woken=a.woken + (m.name,))
        text += f"; {m.name} wakes: it may block and play reactions as though unlocked for the rest of this action"
        rules.append(R.WAKE)
        if m.locked:  # the card allows what the rule of reactions forbids: the card wins
            rules.append(R.GOLDEN_RULE)
    if e.bleed:
        a = d.put_action(bleed=max(0, a.bleed + e.bleed))
        text += f": the bleed is reduced to {a.bleed}"
        rules += [R.GOLDEN_RULE, R.BLEED_AMOUNT]
    if e.redirect:
        done, redirect_rules = redirect_bleed(d, e.redirect)
        text += ": " + done
        a = d.action_()
        rules += list(redirect_rules)
    if e.unlock_block:
        # the card over the rule that only unlocked minions react; the block attempt is then the engine's own
        d.put_minion(m.name, locked=False)
        text += f": {m.name} unlocks and attempts to block"
    a = _note_for_combat(d, a, m, e, what)
    if e.grant is not None:
        text += f"; if {m.name} blocks, it has in that combat what the card says (\"{e.grant.sentence}\")"
        rules.append(R.GOLDEN_RULE)
    if e.cost.blood or e.cost.pool:
        rules.append(R.COST_AT_ONCE)
    log.add(text + ".", *rules)
    if e.effect:
        apply_card_effect(d, log, e.effect, what)
    if d.action_() is not None and d.action_().announce_over is None:  # (the rulings on "as announced" cards: played
        # before regular action modifiers and reactions)
        d.put_action(announce_over=what)
    if e.unless_blocks:
        n, sentence = e.unless_blocks
        d.put_action(unless_blocks=d.action_().unless_blocks + ((m.name, n, what, sentence),))
    if e.granted_ability is not None:  # (what the card lets its minion do later in this action: abilities.burn_for)
        d.put_action(granted=d.action_().granted + ((m.name, what, e.granted_ability),))
        log.add(f"{what} lets {m.name}, for the rest of this action: \"{e.granted_ability.sentence}\"",
                R.GOLDEN_RULE)
    if e.ends_action:
        end_unsuccessfully(d, log, m.name, what, e.ends_action, e.end_locks, e.end_how)
    elif e.unlock_block:
        block(d, Block(blocker=m.name), log)
    elif e.block_any:
        block(d, Block(blocker=m.name, anyone=(what, e.block_any)), log)
    burn_dead_ally(d, log, m.name)


def _check_bleed_reaction(d: Draft, a: Action, e: Reaction) -> None:
    """A reaction reducing or redirecting a bleed: only during a bleed, and a redirect while no block attempt is
    open, to a seated Methuselah other than the bleeder; the older book does not say who may block then."""
    if a.kind != "bleed":
        raise Refusal(f"a reaction that {'redirects' if e.redirect else 'reduces'} a bleed is played during a bleed; "
                      f"{a.summary} is not one", [R.BLEED_AMOUNT])
    if e.bleed > 0:
        raise NotModelled("a reaction that increases the bleed", [R.REACTION_WHO, R.GOLDEN_RULE])
    if e.redirect:
        check_redirect(d, e.redirect)


def block(d: Draft, e: Block, log: Log) -> None:
    a = _current(d, "a block attempt")
    b = minion(d, e.blocker)
    text_unread(b, "attempts to block")
    gear.check_unread(d, b, "attempts to block")
    card_forbids(b, "block")
    player = b.controller
    if player == a.player:
        raise Refusal(f"{b.name} is {a.player}'s minion: a Methuselah's minions cannot block that Methuselah's "
                      f"own actions", [R.BLOCK_OTHERS])
    if a.attempt is not None:
        raise Refusal(f"{a.attempt.blocker} is already attempting to block: one attempt at a time",
                      [R.BLOCK_ONE_AT_A_TIME])
    block_rule = R.BLOCK_DIRECTED if a.directed else R.BLOCK_UNDIRECTED
    if a.unblockable:
        raise Refusal(f"{a.summary} is unblockable ({a.unblockable}): no minion can attempt to block it",
                      [R.GOLDEN_RULE, block_rule])
    if player not in a.order and not e.anyone:
        raise Refusal(f"{player} may not block {a.summary}: {who_blocks(a.order, a.directed, d, a.player)}",
                      [block_rule])
    if e.anyone and not a.undeclined:
        raise Refusal(f"every Methuselah who may block {a.summary} has declined: blocks are declined, and no block "
                      f"attempt can be declared now, even as {e.anyone[0]} allows", [R.BLOCK_DECLINE_FINAL, block_rule])
    barred_by = dict(a.barred_players).get(player)
    if barred_by:
        raise Refusal(f"{player} cannot attempt to block this action again: {barred_by} made {player}'s attempt fail, "
                      f"and says so", [R.GOLDEN_RULE, block_rule])
    if player in a.declined:
        raise Refusal(f"{player} already declined to block this action, and that decision is final",
                      [R.BLOCK_DECLINE_FINAL])
    barred_by = dict(a.barred).get(b.name)
    if barred_by:
        raise Refusal(f"{b.name} cannot attempt to block this action again: {barred_by} made its attempt fail, and "
                      f"says so", [R.GOLDEN_RULE, block_rule])
    barred = bars(d, a, a.cannot_block, b)
    if barred:
        card, sentence, who, _ = barred
        raise Refusal(f"{b.name} cannot block this action: {card} says \"{sentence}\""
                      + (f" ({b.name} was chosen)" if isinstance(who, str) else ""), [R.GOLDEN_RULE, block_rule])
    # (a card's block by anyone sets aside the rules of who may block, the prey's first opportunity included)
    before = [p for p in a.order[:a.order.index(player)] if p not in a.declined] \
        if player in a.order and not e.anyone else []
    if before:
        raise Refusal(f"{names(before)} may block first; {player} can block only after "
                      f"{'they decline' if len(before) > 1 else before[0] + ' declines'}", [block_rule])
    require_seated(d, player)
    if b.region == TORPOR:
        raise Refusal(f"{b.name} is in torpor and cannot block", [R.TORPOR_REGION])
    if b.contested:
        raise Refusal(f"{b.name} is contested and out of play", [R.CONTEST_CARD_OUT])
    if not b.ready:
        rules = [R.BLOCK_READY] + ([R.ALLY_OLDER_REGION] if b.recruited else [])
        raise Refusal(f"{b.name} is not ready (in {player}'s {b.region} region): only ready minions block", rules)
    if b.locked and b.name not in a.woken:
        raise Refusal(f"{b.name} is locked: only unlocked minions block (unless it wakes)", [R.BLOCK_READY])
    _check_cannot_block(d, b, a)
    extra, why = crypt_bonus(d, b, "intercept", kind=a.kind, directed=a.directed, other=d.minions.get(a.actor))
    more, said = _acting_cards_on_blockers(d, b, a)
    lowered = [(card, sentence, n) for card, sentence, who, n, by in a.intercept_mods
               if _fits(d, a, who, by, b, card, sentence)]
    paid = _pay_to_block(d, b, a, log)
    att = BlockAttempt(b.name, player, b.intercept + extra + more - sum(n for _, _, n in lowered))
    d.put_action(attempt=att)
    verdict = ("the block would succeed unless stealth is added" if att.intercept >= a.stealth
               else "intercept is needed for the block to succeed")
    anyone = (f", as {e.anyone[0]} allows (\"{e.anyone[1]}\")" if e.anyone and player not in a.order else "")
    log.add(f"{b.name} ({player}) attempts to block {a.actor}{paid}{anyone}: {att.intercept} intercept against "
            f"{a.stealth} stealth; {verdict}.", block_rule, R.BLOCK_COMPARE, *([R.GOLDEN_RULE] if anyone else []))
    if b.intercept:
        log.add(f"{b.name} has {b.intercept:+d} intercept of its own (its card's, or the table's `intercept:`), counted "
                f"above.", R.CRYPT_ABILITY)
    for words in why:
        log.add(f"{words} (counted above).", *words.rules)
    for words in said:
        log.add(f"{a.actor}'s card: {words} (counted above).", R.CRYPT_ABILITY, R.GOLDEN_RULE)
    for card, sentence, n in lowered:
        log.add(f"{card}: \"{sentence}\": {b.name} gets -{n} intercept (counted above).", R.GOLDEN_RULE)


def _reaches(ability, o: Optional[Minion], me: Optional[Minion], whose: str, who: str) -> bool:
    """Whether `ability` of `whose` card names the minion `o`; NotModelled when the table does not say (`who`: the
    minion named, for the message)."""
    if o is None or me is None:
        return False
    found = ability.reaches(o, me)
    if found is None:
        raise NotModelled(f"{whose}'s card says \"{ability.sentence}\", and the table does not say whether {who} is "
                          f"one of them (give its clan and sect)", [R.CRYPT_ABILITY])
    return found


def _acting_cards_on_blockers(d: Draft, b: Minion, a) -> tuple[int, list[str]]:
    """What the acting minion's card says of the minions blocking it: refused when they cannot ("Allies cannot block
    Lord Fianna."), the intercept their attempt gets ("Brujah get +1 intercept when attempting to block Nik.")."""
    actor = d.minions.get(a.actor)
    if actor is None:
        return 0, []
    for ability in abilities_of(actor, "unblockable by"):
        if _reaches(ability, b, actor, a.actor, b.name):
            raise Refusal(f"{b.name} cannot block {a.actor}: {a.actor}'s card says \"{ability.sentence}\"",
                          [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    total, said = 0, []
    for ability in abilities_of(actor, "blockers intercept"):
        if _reaches(ability, b, actor, a.actor, b.name):
            total += ability.amount
            said.append(f"\"{ability.sentence}\" ({b.name}: {ability.amount:+d} intercept)")
    return total, said


def _pay_to_block(d: Draft, b: Minion, a, log: Log) -> str:
    """The blood (or life) a card asks for a block attempt, paid as it is made: the acting minion's ("Younger
    vampires must burn 1 blood to attempt to block Ferox."), the blocker's own ("Janet must burn 1 blood to attempt
    to block."), or a card's played on the action ("Vampires must burn 1 blood to attempt to block this action.");
    refused when it cannot be paid. The words the trace adds."""
    actor = d.minions.get(a.actor)
    costs = [(ability, f"{a.actor}'s card") for ability in (abilities_of(actor, "block cost") if actor else ())
             if not ability.itself and _reaches(ability, b, actor, a.actor, b.name)]
    costs += [(ability, f"{b.name}'s card") for ability in abilities_of(b, "block cost")
              if ability.itself and (not ability.groups or _reaches(ability, actor, b, b.name, a.actor))]
    costs += [(Ability(kind="block cost", sentence=sentence, blood=n), card)  # (a card played on the action)
              for card, sentence, who, n, by in a.block_costs if _fits(d, a, who, by, b, card, sentence)]
    words = []
    for ability, whose in costs:
        if b.kind == ALLY and not ability.or_life:
            raise Refusal(f"{b.name} is an ally, with life, not blood: {whose} asks blood to attempt to block "
                          f"(\"{ability.sentence}\")", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
        have = d.minions[b.name].blood
        if b.kind == ALLY and have == ability.blood:
            raise NotModelled(f"{b.name} would pay its last life to attempt to block (\"{ability.sentence}\"): an ally "
                              f"burned so, and its block attempt, are not modelled", [R.CRYPT_ABILITY, R.ALLY_BURNED])
        if have < ability.blood:
            raise Refusal(f"{b.name} has {have} {'life' if b.kind == ALLY else 'blood'}, not the {ability.blood} "
                          f"{whose} asks to attempt to block: \"{ability.sentence}\"",
                          [R.CRYPT_ABILITY, R.GOLDEN_RULE])
        blood(d, b.name, -ability.blood)
        words.append(f"burning {ability.blood} {'life' if b.kind == ALLY else 'blood'} as {whose} asks "
                     f"(\"{ability.sentence}\")")
    return f", {', '.join(words)}" if words else ""


def _check_cannot_block(d: Draft, b: Minion, a) -> None:
    """Refuse `b`'s block attempt when its card says it cannot block this action ("cannot block undirected
    actions") or this acting minion ("cannot block older vampires"); NotModelled when the table does not say
    whether the acting minion is one of those."""
    actor = d.minions.get(a.actor)
    for ability in abilities_of(b, "cannot block"):
        if ability.undirected:
            if not a.directed:
                raise Refusal(f"{b.name} cannot block {a.summary}, an undirected action: its card says "
                              f"\"{ability.sentence}\"", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
            continue
        found = ability.reaches(actor, b) if actor is not None else False
        if found:
            raise Refusal(f"{b.name} cannot block {a.actor}: its card says \"{ability.sentence}\"",
                          [R.CRYPT_ABILITY, R.GOLDEN_RULE])
        if found is None:
            raise NotModelled(f"{b.name}'s card says \"{ability.sentence}\", and the table does not say whether "
                              f"{a.actor} is one of them (give its clan and sect)", [R.CRYPT_ABILITY])


def decline(d: Draft, e: Decline, log: Log) -> None:
    a = _current(d, "declining to block")
    if e.player is not None:
        if e.player == a.player:
            raise Refusal(f"{e.player} is the acting Methuselah and cannot block {e.player}'s own action",
                          [R.BLOCK_OTHERS])
        if e.player not in a.order:
            raise Refusal(f"{e.player} may not block this action anyway: "
                          f"{who_blocks(a.order, a.directed, d, a.player)}",
                          [R.BLOCK_DIRECTED if a.directed else R.BLOCK_UNDIRECTED])
        if e.player in a.declined:
            raise Refusal(f"{e.player} already declined to block this action", [R.BLOCK_DECLINE_FINAL])
    if a.attempt is not None and (e.player is None or a.attempt.player == e.player):
        if resolve_attempt(d, log):
            return
        a = d.action_()
    players = a.undeclined if e.player is None else (e.player,)
    a = d.put_action(declined=a.declined + tuple(players))
    text = f"{names(players)} decline{'s' if len(players) == 1 else ''} to block; the decision is final."
    if not a.undeclined:
        text += " No more block attempts: the action succeeds once nothing more is played."
    log.add(text, R.BLOCK_DECLINE_FINAL)


def pass_in_action(d: Draft, log: Log) -> None:
    """Nothing more is played during the action: the open block attempt resolves, or else the action does."""
    if d.action_().attempt is not None:
        resolve_attempt(d, log)
        return
    settle(d, log)


# -- resolution ----------------------------------------------------------------------------------
def resolve_attempt(d: Draft, log: Log) -> bool:
    """Resolve the block attempt in progress; True if the action is blocked."""
    a = d.action_()
    att = a.attempt
    if att.blocker not in d.minions:  # (burned by an effect while its attempt was open: the books do not say)
        raise NotModelled(f"the blocking minion {att.blocker} left play during its block attempt",
                          [R.BLOCK_COMPARE, R.BLOCKED])
    if att.intercept >= a.stealth:
        if a.failed_blockers:
            raise NotModelled(f"{a.lock_failed[0]} says \"{a.lock_failed[1]}\", and the action is blocked after "
                              f"{names(a.failed_blockers)} failed: whether they lock, the action not resolving, is not "
                              f"said", [R.GOLDEN_RULE, R.BLOCKED])
        if a.actor not in d.minions:  # e.g. an acting ally that burned its last life paying for a modifier
            raise NotModelled(f"the acting minion {a.actor} left play during the action, then was blocked",
                              [R.ACTION_SUCCEEDS, R.BLOCKED])
        settle_unless_blocks(d, log, a, att.blocker)
        a = d.put_action(unless_blocks=())  # (settled: an action continued as if unblocked does not settle it again)
        d.put_minion(att.blocker, locked=True)
        for who in (a.player, att.player):
            if d.players[who].withdrawing:
                d.put_player(who, withdrawal_broken=True)
        d.set(action=None)
        # Only the older book says what becomes of the card played for a blocked action.
        burned = " The card played for the action is burned." if a.card and d.edition == OLDER else ""
        if a.kind == "leave torpor":
            log.add(f"{att.blocker} blocks {a.actor} ({att.intercept} intercept against {a.stealth} stealth): the "
                    f"action is blocked and has no effect, its cost is not paid.{burned} {att.blocker} locks.",
                    R.BLOCK_COMPARE, R.BLOCKED, R.COST_ON_SUCCESS)
            torpor.blocked_leave(d, log, a, att.blocker)
            return True
        log.add(f"{att.blocker} blocks {a.actor} ({att.intercept} intercept against {a.stealth} stealth): the action "
                f"is blocked and has no effect, its cost is not paid.{burned} {att.blocker} locks and enters combat "
                f"with {a.actor}.", R.BLOCK_COMPARE, R.BLOCKED, R.COST_ON_SUCCESS)
        combat.start(d, log, a.actor, att.blocker, action=a, cause=a.summary)
        _give_grants(d, log, a, att.blocker)
        return True
    d.put_action(attempt=None, failed_blockers=a.failed_blockers + ((att.blocker,) if a.lock_failed else ()))
    log.add(f"{att.blocker}'s block attempt fails ({att.intercept} intercept against {a.stealth} stealth); "
            f"{att.player} may attempt again, with the same or another minion, or decline.",
            R.BLOCK_COMPARE, R.BLOCK_REPEAT)
    return False


def _note_for_combat(d: Draft, a, m: Minion, e, what: str):
    """A reaction or modifier played (`e`) as the combat its block would begin will see it: what it gives its minion
    there (`Action.grants`), and a card of no combat type (`Action.not_combat`: no copy of it is a combat card)."""
    if e.card and not e.combat_type:
        a = d.put_action(not_combat=a.not_combat + ((m.name, e.card),))
    if e.grant is not None:
        who = a.actor if getattr(e, "grant_to_actor", False) else m.name
        a = d.put_action(grants=a.grants + ((who, what, e.grant),))
    return a


def _give_grants(d: Draft, log: Log, a, blocker: str) -> None:
    """What the action's reactions and modifiers give their minions in the combat its block began (`Action.grants`):
    the blocker's "if this vampire blocks", the acting minion's "if this action is blocked"; a maneuver or press is
    used as its card names it ("with Guard Dogs"), "maneuver or press" either once; strength holds that combat (or
    its first round)."""
    given, strength, ranges = [], [], []
    for who, card, g in a.grants:
        if who != (blocker if g.on == "blocks" else a.actor):
            continue
        if g.kind.startswith("range "):  # "each round is at long range (skip the determine range step ...)"
            ranges.append((1 if g.first_round else 0, g.kind.split()[1], f"{card} (\"{g.sentence}\")"))
        elif g.kind == "strength":
            strength.append((who, g.amount, card, "round" if g.first_round else "combat"))
        else:
            given += [(who, card, Ability(kind=k, sentence=g.sentence, uses=g.amount, first_round=g.first_round))
                      for k in g.kind.split(" or ")]
        log.add(f"{card} gives {who} in this combat: \"{g.sentence}\"", R.GOLDEN_RULE)
    if given or strength:
        c = d.combat
        d.put_combat(card_abilities=c.card_abilities + tuple(given), strength_mods=c.strength_mods + tuple(strength))
    if ranges:
        combat.set_ranges(d, tuple(ranges))


def settle(d: Draft, log: Log) -> None:
    """Nothing more is played: an open block attempt resolves, then the action succeeds."""
    a = d.action_()
    if a is None:
        return
    if a.attempt is not None and resolve_attempt(d, log):
        return
    a = d.action_()
    if a.undeclined:
        log.add(f"{names(a.undeclined)} make{'s' if len(a.undeclined) == 1 else ''} no further block attempt.",
                R.BLOCK_DECLINE_FINAL)
    succeed(d, log)


def settle_unless_blocks(d: Draft, log: Log, a, blocker: Optional[str]) -> None:
    """Before the action resolves: a reaction's "If they do not block this action, they burn 1 blood before action
    resolution." is settled for each minion that played one and is not the one that blocked (`blocker`); and, as it
    resolves unblocked, the minions whose block attempt failed lock when a card says so (Faceless Night)."""
    if blocker is None and a.failed_blockers:
        locked = [n for n in dict.fromkeys(a.failed_blockers) if n in d.minions and not d.minions[n].locked]
        for n in locked:
            d.put_minion(n, locked=True)
        log.add(f"{a.lock_failed[0]}: \"{a.lock_failed[1]}\": {names(list(dict.fromkeys(a.failed_blockers)))} "
                f"failed to block, and {'lock' + ('s' if len(locked) == 1 else '') if locked else 'are locked already'}"
                f" before the action resolves.", R.GOLDEN_RULE)
    for name, n, card, sentence in a.unless_blocks:
        if name == blocker or name not in d.minions:
            continue
        burned = -blood(d, name, -n)
        log.add(f"{card}: \"{sentence}\": {name} did not block this action and burns {burned} blood "
                f"({d.minions[name].blood} left).", R.GOLDEN_RULE, R.BLOOD_BANK)
        burn_dead_ally(d, log, name)


def succeed(d: Draft, log: Log) -> None:
    settle_unless_blocks(d, log, d.action_(), None)
    a = d.action_()
    d.set(action=None)
    actor = d.minions.get(a.actor)
    if actor is None:
        raise NotModelled(f"the acting minion {a.actor} left play during the action", [R.ACTION_SUCCEEDS])
    if actor.blood < a.cost_blood or d.players[a.player].pool < a.cost_pool:
        if not rule_exists(d, R.FIZZLE):
            raise NotModelled("a successful action whose cost can no longer be paid in full: the older book does "
                              "not say what happens", [R.COST_ON_SUCCESS, R.ACTION_SUCCEEDS])
        blood(d, a.actor, -a.cost_blood)
        pool(d, a.player, -a.cost_pool)
        log.add(f"{a.summary} succeeds, but its cost cannot be paid in full: it is paid as far as possible and the "
                f"action fizzles, with no effect.", R.FIZZLE)
        action_over(d, log, a, successful=True)  # (a fizzled action is still successful; it calls no referendum)
        return
    paid = ""
    if a.cost_blood:
        blood(d, a.actor, -a.cost_blood)
        unit = "life" if actor.kind == ALLY else "blood"
        paid = f"; {a.actor} pays {a.cost_blood} {unit}"
    if a.cost_pool:
        pool(d, a.player, -a.cost_pool)
        paid += f"; {a.player} pays {a.cost_pool} pool"
    rules = [R.ACTION_SUCCEEDS] + ([R.COST_ON_SUCCESS] if paid else [])
    RESOLVE[a.kind](d, log, a, paid, rules)
    burn_dead_ally(d, log, a.actor)
    if a.kind != "political":  # (a political action resolves once its referendum does: politics.close_polling)
        action_over(d, log, a, successful=True)


def _resolve_bleed(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    target = a.targets[0]
    if a.bleed <= 0:
        log.add(f"{a.summary} succeeds{paid}, with a bleed of {a.bleed}: no pool is burned and no Edge is gained.",
                *rules, R.BLEED_ZERO)
        _bleed_card_effects(d, log, a, 0)
        return
    if not d.players[target].seated:
        log.add(f"{a.summary} succeeds{paid}, but {target} is no longer in the game.", *rules)
        _bleed_card_effects(d, log, a, 0)
        return
    burned = -pool(d, target, -a.bleed)
    before = d.edge
    d.set(edge=a.player)
    edge = (f"{a.player} keeps the Edge" if before == a.player else
            f"{a.player} takes the Edge" + (f" from {before}" if before else ""))
    log.add(f"{a.summary} succeeds{paid}: {target} burns {burned} pool ({d.players[target].pool} left); {edge}.",
            *rules, R.BLEED_AMOUNT, R.BLEED_EDGE)
    _bleed_card_effects(d, log, a, a.bleed)


def _bleed_card_effects(d: Draft, log: Log, a: Action, bled: int) -> None:
    """What the bleed's card does as the action succeeds, the bleed of `bled` (0: no pool burned): its text read
    (action_effects: what "if the bleed is successful" gives, only at 1 or more), or the effect the scenario describes
    (taken as a successful bleed's: at 0, whether it holds is not said)."""
    if a.success is not None:
        action_effects.on_success(d, log, a, bled=bled)
    if a.effects and bled < 1:
        raise NotModelled(f"{a.summary} burned no pool, and the effect described with {a.via or a.card or 'the card'} "
                          f"is a successful bleed's: whether it takes place now is not said",
                          [R.BLEED_SUCCESSFUL, R.GOLDEN_RULE])
    for effect in a.effects:
        apply_card_effect(d, log, effect, a.via or a.card or "the card")


def _resolve_hunt(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    gained = blood(d, a.actor, a.hunt, drain=False)
    m = d.minions[a.actor]
    log.add(f"{a.summary} succeeds{paid}: {a.actor} gains {gained} blood from the blood bank ({m.blood} of "
            f"capacity {m.capacity}).", *rules, R.HUNT_EFFECT)
    drain_excess(d, a.actor, log)
    kept = abilities_of(m, "stays locked after hunt")  # "If Adisa successfully hunts, she does not unlock as normal ..."
    if kept:
        d.put_minion(m.name, stays_locked=(kept[0].sentence,))
        log.add(f"{m.name}'s card: \"{kept[0].sentence}\" ({m.name} will stay locked at its next unlock phase).",
                R.CRYPT_ABILITY, R.GOLDEN_RULE)


def _resolve_equip(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    how, item, src = a.payload[:3]
    actor = d.minions[a.actor]
    if how == "move":  # `item` is the equipment announced, one or more
        source = d.minions.get(src)
        left = list(source.equipment) if source is not None else []
        moved = []
        for x in item:
            if x in left:
                left.remove(x)
                moved.append(x)
        gone = [x for x in item if x not in moved]
        several = [R.EQUIP_SEVERAL] if len(item) > 1 else []
        if not moved:
            log.add(f"{a.summary} succeeds, but {names(gone)} {'is' if len(gone) == 1 else 'are'} no longer on {src}: "
                    f"no effect.", *rules, R.EQUIP_MOVE, *several)
            return
        d.put_minion(src, equipment=tuple(left))
        d.put_minion(a.actor, equipment=actor.equipment + tuple(moved))
        note = f" ({names(gone)} no longer on {src})" if gone else ""
        log.add(f"{a.summary} succeeds: {names(moved)} {'moves' if len(moved) == 1 else 'move'} from {src} to "
                f"{a.actor}{note}.", *rules, R.EQUIP_MOVE, *several)
        return
    d.put_minion(a.actor, equipment=actor.equipment + (item,))
    log.add(f"{a.summary} succeeds{paid}: {item} is placed on {a.actor}.", *rules, R.EQUIP)
    if a.payload[3]:  # a unique equipment card: another copy in play is contested
        situations.unique_entered(d, log, item, a.player, "equipment", a.actor)


def _resolve_employ(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    retainer: Retainer = a.payload
    actor = d.minions[a.actor]
    d.put_minion(a.actor, retainers=actor.retainers + (retainer,),
                 unread=actor.unread + tuple(f"{retainer.name}: {s}" for s in retainer.unread))
    d.set(bank=d.bank - retainer.life)
    log.add(f"{a.summary} succeeds{paid}: {retainer.name} is placed on {a.actor} with {retainer.life} life from "
            f"the blood bank.", *rules, R.EMPLOY)


def _resolve_recruit(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    ally: Minion = a.payload
    older = rule_exists(d, R.ALLY_OLDER_REGION)
    at_once = not ally.recruited  # its card: "can perform actions the turn it is recruited."
    if at_once and older:
        raise NotModelled(f"{ally.name}'s card lets it act the turn it is recruited, and the older book puts a recruited "
                          f"ally in the uncontrolled region until the end of the turn: not modelled",
                          [R.ALLY_OLDER_REGION, R.GOLDEN_RULE])
    d.minions[ally.name] = ally if not older else _with_region(ally, UNCONTROLLED)
    d.set(bank=d.bank - ally.blood)
    where = ("the uncontrolled region (controlled, until the end of the turn)" if older
             else "the ready region")
    acts = ", and can act this turn: its card lets it act the turn it is recruited" if at_once else \
        ", and cannot act this turn"
    log.add(f"{a.summary} succeeds{paid}: {ally.name} comes into play in {where} with {ally.blood} life from the "
            f"blood bank{acts}.", *rules, R.RECRUIT, R.ALLY_NOT_THIS_TURN, *([R.GOLDEN_RULE] if at_once else []),
            *([R.ALLY_OLDER_REGION] if older else []))


def _with_region(m: Minion, region: str) -> Minion:
    return replace(m, region=region)


def _resolve_anarch(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    sect = R.ANARCH_NEW_SECT[d.edition]  # the older book: anarchs are Independent, with an anarch attribute
    d.put_minion(a.actor, anarch=True, sect=sect)
    if d.edition == OLDER:
        sect += " (with the anarch attribute)"
    log.add(f"{a.summary} succeeds{paid}: {a.actor}'s sect is now {sect}.", *rules, R.ANARCH, R.ANARCH_SECT)


def _resolve_card(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    card = a.via or a.card or "the card"
    if a.success is not None:
        log.add(f"{a.summary} succeeds{paid}: it resolves as {card} says.", *rules, R.ACTION_CARD)
        action_effects.on_success(d, log, a)
    elif a.effects:
        log.add(f"{a.summary} succeeds{paid}: it resolves as {card} says.", *rules, R.ACTION_CARD)
        for effect in a.effects:
            apply_card_effect(d, log, effect, card)
    elif a.says:
        log.add(f"{a.summary} succeeds{paid}. {card} says: \"{a.says}\" (described, not applied to the state).",
                *rules, R.ACTION_CARD)
    else:
        log.add(f"{a.summary} succeeds{paid}: it resolves as {card} says (no effect was described).",
                *rules, R.ACTION_CARD)


# What a successful action of each kind does (the books' "resolve the action" step), by `Action.kind`.
RESOLVE = {"bleed": _resolve_bleed, "hunt": _resolve_hunt, "equip": _resolve_equip, "employ": _resolve_employ,
           "recruit": _resolve_recruit, "anarch": _resolve_anarch, "card": _resolve_card,
           "political": politics.resolve_political, "leave torpor": torpor.resolve_leave,
           "rescue": torpor.resolve_rescue, "diablerize": torpor.resolve_diablerize,
           "red list": situations.resolve_red_list, "enter combat": abilities.resolve_combat_action,
           "target action": abilities.resolve_target_action}


# -- described card effects -------------------------------------------------------------------------
def effect_event(d: Draft, e: Effect, log: Log) -> None:
    apply_card_effect(d, log, e.effect, e.source or "a card effect")
    c = d.combat
    if c is not None and not c.ended and (c.acting not in d.minions or c.opposing not in d.minions):
        gone = [n for n in (c.acting, c.opposing) if n not in d.minions]
        combat.end_prematurely(d, log, f"{names(gone)} left play", R.WOUNDED_ENDS_COMBAT)
