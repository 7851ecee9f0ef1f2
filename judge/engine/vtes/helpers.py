"""What the rule modules share: the log a transition writes, the table's bookkeeping, announcing an action.

Every handler works on a `Draft` of the state and writes `Entry`s to a `Log`: what happened, and the
Rules it applied. The helpers below keep the table's invariants wherever they are used: counters move
through the blood bank (`pool`, `blood`, `remove_minion`), blood above capacity drains (`drain_excess`),
a card played from the hand is replaced (`play_from_hand`), an ally that lost its last life counter is
burned (`burn_dead_ally`). Announcing an action is shared by the basic actions (actions.py) and torpor's
(torpor.py): who may act (`check_actor`, mandatory actions first) and the announcement itself
(`announce`: the minion locks, costs are checked, who may block is decided). Described card effects
(`apply_card_effect`) are shared by actions, modifiers, reactions and a referendum's terms.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from judge.engine.vtes import gear, rules as R
from judge.engine.vtes import traits
from judge.engine.citations import Rule
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import CardEffect, Cost
from judge.engine.vtes.card_text import Group, abilities_of
from judge.engine.vtes.state import ALLY, READY, TORPOR, UNCONTROLLED, VAMPIRE, Action, Draft, Minion, Resolved, evolve


# -- the log ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One step of a transition's log: what happened, and the Rules applied."""

    text: str
    rules: tuple[Rule, ...] = ()


class Log:
    """What one transition writes, under the rules edition of the state it started from."""

    def __init__(self, edition: str):
        self.edition = edition
        self.entries: list[Entry] = []

    def add(self, text: str, *rules: Rule) -> None:
        self.entries.append(Entry(text, tuple(r for r in rules if r is not None)))


# -- the table: minions, pool, blood and cards ----------------------------------------------------------
def rule_exists(d: Draft, rule: Rule) -> bool:
    """Whether the replay's rules edition has `rule` (the older book has no "limited" bleed, for instance)."""
    return rule.exists_in(d.edition)


def minion(d: Draft, name: str) -> Minion:
    """The minion in play called `name`; refused when it is not (burned, removed, never there)."""
    m = d.minions.get(name)
    if m is None:
        raise Refusal(f"{name} is not in play (burned, removed, or never there)", [R.OUSTED])
    return m


def require_seated(d: Draft, player: str) -> None:
    """Refuse a move by or at a Methuselah who is ousted or has withdrawn."""
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
    """Blood above a vampire's capacity drains to the bank at once; returns how much drained."""
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


def play_from_hand(d: Draft, player: str, log: Log, what: str, replaced: bool = True,
                   after_combat: bool = False, after_action: bool = False) -> None:
    """Play a card from the hand and draw its replacement, unless the library is empty, or the card says
    not to replace it until the next unlock phase (`replaced` False: drawn then, `phases._enter_unlock`),
    until after combat (`after_combat`: drawn as the combat ends, `draw_after_combat`) or until after this action
    (`after_action`: drawn as the moment after its resolution closes, `close_resolution`)."""
    p = d.players[player]
    if p.hand <= 0:
        raise Refusal(f"{player} has no card in hand to play {what}", [R.DRAW_REPLACE])
    if after_action and d.action_() is not None:
        d.put_player(player, hand=p.hand - 1)
        d.put_action(unreplaced=d.action_().unreplaced + (player,))
        if log is not None:
            log.add(f"{what} is not replaced until after this action, as the card says ({player} now has "
                    f"{p.hand - 1} in hand).", R.GOLDEN_RULE, R.DRAW_REPLACE)
        return
    if after_combat and d.combat is not None:
        d.put_player(player, hand=p.hand - 1)
        d.put_combat(unreplaced=d.combat.unreplaced + (player,))
        if log is not None:
            log.add(f"{what} is not replaced until after combat, as the card says ({player} now has {p.hand - 1} in "
                    f"hand).", R.GOLDEN_RULE, R.DRAW_REPLACE)
        return
    if not replaced:
        d.put_player(player, hand=p.hand - 1, owed_draws=p.owed_draws + 1)
        if log is not None:
            log.add(f"{what} is not replaced until {player}'s next unlock phase, as the card says ({player} now has "
                    f"{p.hand - 1} in hand).", R.GOLDEN_RULE, R.DRAW_REPLACE)
        return
    hand, library = p.hand - 1, p.library
    if library is None or library > 0:
        hand += 1
        library = None if library is None else library - 1
    elif log is not None:
        log.add(f"{player}'s library is empty: no card replaces {what} ({player} now has {hand} in hand).",
                R.DRAW_REPLACE)
    d.put_player(player, hand=hand, library=library)


def draw_owed(d: Draft, log: Log, player: str, owed: int, until: str) -> None:
    """`player` draws the `owed` cards a card said not to replace until now (`until`: "this unlock phase", "after
    combat"), as far as the library goes."""
    p = d.players[player]
    drawn = owed if p.library is None else min(owed, p.library)
    d.put_player(player, hand=p.hand + drawn, library=None if p.library is None else p.library - drawn)
    log.add(f"{player} draws the {owed} card{'s' if owed > 1 else ''} not replaced until {until}"
            + (f" ({owed - drawn} not drawn: the library is empty)" if drawn < owed else "")
            + f" ({player} now has {p.hand + drawn} in hand).", R.GOLDEN_RULE, R.DRAW_REPLACE)


def draw_after(d: Draft, log: Log, unreplaced: Sequence[str], until: str) -> None:
    """Each card not replaced until now (a player per card: `Combat.unreplaced`, `Action.unreplaced`) is replaced,
    by its player still in the game; `until`: "after combat", "after the action"."""
    for player in dict.fromkeys(unreplaced):
        if d.players[player].seated:
            draw_owed(d, log, player, list(unreplaced).count(player), until)


def draw_after_combat(d: Draft, log: Log, unreplaced: Sequence[str]) -> None:
    """The combat is over: each card not replaced until after combat is replaced now."""
    draw_after(d, log, unreplaced, "after combat")


def action_over(d: Draft, log: Log, a: Action, successful: bool, blocked: bool = False,
                passed: Optional[bool] = None, blocker: Optional[str] = None, margin: int = 0) -> None:
    """Action `a` has resolved (it succeeded or fizzled; the combat its block began is over; its blocked leave torpor
    action ended; its referendum closed): the moment after its resolution opens (`state.Resolved`); the cards not
    replaced until after it are drawn as that moment closes (`close_resolution`)."""
    d.set(resolved=Resolved.of(a, successful, blocked, passed, blocker, margin))


def close_resolution(d: Draft, log: Log, keep: bool = False) -> None:
    """The moment after the last action's resolution closes (the next action is announced, the phase ends, or the
    events end: `keep`, the moment stays to be seen): the cards not replaced until after that action are drawn."""
    r = d.resolved
    if r is None:
        return
    if r.unreplaced:
        draw_after_action(d, log, r.unreplaced)
    d.set(resolved=evolve(r, unreplaced=()) if keep else None)


def draw_after_action(d: Draft, log: Log, unreplaced: Sequence[str]) -> None:
    """The action is over and the moment after its resolution closed (`close_resolution`): each card not replaced
    until after this action is replaced now."""
    draw_after(d, log, unreplaced, "after the action")


def names(items: Sequence[str]) -> str:
    """Names as a log entry writes them: "A", "A and B", "A, B and C", or "nobody"."""
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- who must act, who may act, and announcing an action (the basic actions, actions.py; torpor's, torpor.py) --
def mandatory_of(m: Minion) -> tuple[str, ...]:
    """The actions `m` must perform: those its card effects make mandatory, and a hunt for a ready vampire
    without blood."""
    found = list(m.mandatory)
    if m.kind == VAMPIRE and m.blood == 0 and m.region == READY and "hunt" not in found:
        found.append("hunt")
    return tuple(found)


def is_stuck(m: Minion, mandatory: tuple[str, ...]) -> bool:
    """Whether `m` cannot perform its mandatory actions (two of them, one it cannot do, a hunt for an ally):
    it then performs no action at all."""
    return len(mandatory) >= 2 or any(x in m.cannot for x in mandatory) or ("hunt" in mandatory and m.kind != VAMPIRE)


def _can_act_now(m: Minion) -> bool:
    return m.ready and not m.locked and not m.recruited


def pending_mandatory(d: Draft, player: str) -> list[tuple[Minion, str]]:
    """Minions of `player` with a mandatory action still to perform (stuck ones excluded)."""
    out = []
    for m in d.minions.values():
        if m.controller != player or not _can_act_now(m):
            continue
        mand = mandatory_of(m)
        if mand and not is_stuck(m, mand):
            out.append((m, mand[0]))
    return out


def check_stealth_needed(a: Action) -> None:
    """Stealth is added to an action only when needed: a block attempt is in progress whose intercept meets it."""
    if a.attempt is None or a.attempt.intercept < a.stealth:
        state = (f"{a.attempt.blocker}'s intercept {a.attempt.intercept} is below the stealth {a.stealth}"
                 if a.attempt else "no block attempt is in progress")
        raise Refusal(f"stealth can be added only when needed, and {state}", [R.STEALTH_WHEN_NEEDED])


def check_intercept_needed(a: Action, blocker: str) -> None:
    """Intercept is added only to the minion attempting to block (`blocker`), and only when needed: below the
    action's stealth."""
    if a.attempt is None or a.attempt.blocker != blocker:
        who = f"{a.attempt.blocker} is blocking" if a.attempt else "no block attempt is in progress"
        raise Refusal(f"intercept can be added only to the blocking minion when needed; {who}",
                      [R.INTERCEPT_WHEN_NEEDED])
    if a.attempt.intercept >= a.stealth:
        raise Refusal(f"intercept can be added only when needed: {blocker}'s intercept {a.attempt.intercept} already "
                      f"meets the stealth {a.stealth}", [R.INTERCEPT_WHEN_NEEDED])


def card_gives(m: Minion, kind: str, what: str, describe: str, rules=(R.CRYPT_ABILITY,), keep=None) -> list:
    """The abilities of `kind` `m`'s card gives it (those `keep` accepts), for a scenario naming one. A card that
    gives none is refused ("X's card gives it no <what>", citing `rules`); a minion described without its card stops
    as not modelled, since what its card gives is not known (`describe`: how the scenario can say it otherwise)."""
    found = [a for a in abilities_of(m, kind) if keep is None or keep(a)]
    if found:
        return found
    if not m.text_read:
        raise NotModelled(f"{m.name} is described without its card, so the engine cannot tell whether its card gives "
                          f"it {what}: name its card (card:), or {describe}", list(rules[:1]))
    raise Refusal(f"{m.name}'s card gives it no {what}", list(rules))


def card_text_action(m: Minion, a) -> str:
    """The `via` of an action `m`'s own card text gives it (`a`): refused when it performed it this turn already
    (the book: "... via the same copy of a card in play (including from the minion's own card text) more than once
    each turn, even if they unlock")."""
    via = f"{m.name}'s card text"
    if via in m.used:
        raise Refusal(f"{m.name} already performed the action its card gives (\"{a.sentence}\") this turn",
                      [R.CARD_TEXT_ACTION_ONCE])
    return via


def card_forbids(m: Minion, what: str) -> None:
    """Refuse what `m`'s own card says it cannot do ("Aimee cannot play reaction cards.": `what` "reaction cards",
    "action cards", "block")."""
    for a in abilities_of(m, "cannot"):
        if what in a.types:
            raise Refusal(f"{m.name}'s card forbids it: \"{a.sentence}\"", [R.CRYPT_ABILITY, R.GOLDEN_RULE])


def text_unread(m: Minion, when: str) -> None:
    """Stop as not modelled when `m`'s crypt text has sentences the engine does not read (judge.engine.vtes.card_text):
    `when` is the step where they could matter ("acts", "blocks", ...). Never a silent default."""
    if m.unread:
        said = " ".join(m.unread)
        raise NotModelled(f"{m.name}'s card text \"{said}\" is not read by the engine, and it could matter as "
                          f"{m.name} {when}; give what it does as the minion's fields (bleed:, stealth:, ...), or "
                          f"ignore_text: true on the minion if it does not apply here (an ally the events recruit by "
                          f"its card's name: recruit it as described instead, 'recruits {m.name}, 3 life')",
                          [R.GOLDEN_RULE])


def check_minion_phase(d: Draft, m: Minion) -> None:
    """Actions are performed in their controller's minion phase."""
    if m.controller != d.turn:
        raise Refusal(f"{m.name} is {m.controller}'s minion and it is {d.turn}'s turn: minions act in their "
                      f"controller's minion phase", [R.MINION_PHASE])
    if d.phase != "minion":
        raise Refusal(f"actions are performed in the minion phase; {d.turn} is in the {d.phase} phase",
                      [R.MINION_PHASE])


def check_actor(d: Draft, name: str, kind: str) -> Minion:
    """Who may act now: the turn's Methuselah's ready unlocked minion, mandatory actions first."""
    m = minion(d, name)
    require_seated(d, m.controller)
    check_minion_phase(d, m)
    if m.contested:
        raise Refusal(f"{m.name} is contested: face down and out of play", [R.CONTEST_CARD_OUT])
    if m.region == TORPOR and kind != "leave torpor":
        raise Refusal(f"{m.name} is in torpor and can perform no action except leaving torpor",
                      [R.TORPOR_REGION, R.TORPOR_ACTIONS])
    if kind == "leave torpor" and m.region != TORPOR:
        raise Refusal(f"{m.name} is not in torpor: only a vampire in torpor leaves torpor", [R.LEAVE_TORPOR])
    if m.region == UNCONTROLLED:
        if m.kind == ALLY and m.recruited:
            raise Refusal(f"{m.name} was recruited this turn and cannot act this turn",
                          [R.ALLY_NOT_THIS_TURN, R.ALLY_OLDER_REGION, R.ALLY_BROUGHT_IN])
        raise Refusal(f"{m.name} is in {m.controller}'s uncontrolled region, not in play", [R.READY_UNLOCKED_ACT])
    if m.locked:
        raise Refusal(f"{m.name} is locked: only ready unlocked minions can perform actions", [R.READY_UNLOCKED_ACT])
    if m.recruited:
        raise Refusal(f"{m.name} was recruited this turn and cannot act this turn",
                      [R.ALLY_NOT_THIS_TURN, R.ALLY_BROUGHT_IN])
    own = mandatory_of(m)
    if own:
        if is_stuck(m, own):
            raise Refusal(f"{m.name} is stuck (mandatory: {', '.join(own)}) and cannot perform any action",
                          [R.STUCK])
        if kind not in own:
            rule = R.MANDATORY_HUNT if own == ("hunt",) else R.MANDATORY
            raise Refusal(f"{m.name} must perform the mandatory {own[0]} and cannot perform any other action",
                          [rule, R.MANDATORY])
    else:
        waiting = pending_mandatory(d, m.controller)
        if waiting:
            other, what = waiting[0]
            rule = R.MANDATORY_HUNT if what == "hunt" else R.MANDATORY
            raise Refusal(f"{other.name} has a mandatory {what} to perform first: no other action before it",
                          [R.MANDATORY, rule])
    if kind in m.cannot:
        raise Refusal(f"a card effect forbids {m.name} to {kind}", [R.GOLDEN_RULE])
    text_unread(m, "acts")
    gear.check_unread(d, m, "acts")
    for a in abilities_of(m, "cannot"):
        if "act" in a.types or (kind == "political" and "political" in a.types):
            raise Refusal(f"{m.name}'s card forbids it: \"{a.sentence}\"", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    return m


def check_cost(d: Draft, m: Minion, cost: Cost, what: str, rules=()) -> None:
    """Refuse a card or action whose cost cannot be paid; `rules` are the action's own (why it cannot be
    announced, what sets its cost), cited before the rule on costs in general."""
    if cost.blood > m.blood:
        unit = "life" if m.kind == ALLY else "blood"
        raise Refusal(f"{m.name} has {m.blood} {unit}, not enough for {what} costing {cost.blood}",
                      [*rules, R.COST_REQUIRED])
    if cost.pool > d.players[m.controller].pool:
        raise Refusal(f"{m.controller} has {d.players[m.controller].pool} pool, not enough for {what} costing "
                      f"{cost.pool}", [*rules, R.COST_REQUIRED])


def _clockwise_from(d: Draft, player: str, others: tuple[str, ...]) -> tuple[str, ...]:
    seating = d.seating
    start = seating.index(player)
    return tuple(sorted(others, key=lambda p: (seating.index(p) - start) % len(seating)))


def block_order(d: Draft, player: str, directed: bool, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Who may block an action of `player`'s, in order: the targets clockwise (directed), else prey then predator."""
    return _block_order(d, player, directed, targets)


def _block_order(d: Draft, player: str, directed: bool, targets: tuple[str, ...]) -> tuple[str, ...]:
    if directed:
        return _clockwise_from(d, player, targets)
    order = []
    for p in (d.prey(player), d.predator(player)):
        if p and p != player and p not in order:
            order.append(p)
    return tuple(order)


def who_blocks(order: tuple[str, ...], directed: bool, d: Draft, player: str) -> str:
    """Who may block an action, in words, in the order they may try."""
    if not order:
        return "Nobody may block it."
    if directed:
        return f"Only {names(order)} may block{' (clockwise)' if len(order) > 1 else ''}."
    if len(order) == 1:
        return f"{order[0]} (prey and predator) may block."
    return f"{order[0]} (prey) may block first, then {order[1]} (predator)."


def announce(d: Draft, log: Log, m: Minion, *, kind: str, summary: str, stealth: int, directed: bool = False,
             targets: tuple[str, ...] = (), bleed: int = 0, hunt: int = 0, cost: Cost = Cost(),
             card: Optional[str] = None, via: Optional[str] = None, from_hand: bool = False, payload=None,
             effect: Optional[CardEffect] = None, says: Optional[str] = None, rules=(), detail: str = "",
             cost_rules=(), puts_vampire: bool = False, bleed_words: Sequence[str] = (),
             unreplaced: bool = False, success=None, chosen: Optional[str] = None, cannot_block=(), intercept_mods=(),
             block_costs=()) -> None:
    """Announce an action; `cost_rules` are the rules that set its cost (a cardless action's default cost);
    `unreplaced`: its card says "Do not replace until after this action.";
    `bleed_words`, the words of the card bonuses the caller counted in `bleed` (crypt_bonus), said after it.
    The minion's traits may forbid it (traits.check_announce: a slave's directed action, a sterile vampire's
    action that puts a vampire in play)."""
    traits.check_announce(d, m, directed, puts_vampire)
    check_cost(d, m, cost, card or kind, (R.ACTION_COST_REQUIRED, *cost_rules))
    close_resolution(d, log)  # (the last action's "after resolution" moment is over: its cards are drawn first)
    # the minion's own stealth (its card's "+1 stealth."), and its card's bonuses that hold on this action
    extra, why = crypt_bonus(d, m, "stealth", kind=kind, directed=directed, targets=targets)
    stealth += m.stealth + extra
    if from_hand and not unreplaced:
        play_from_hand(d, m.controller, log, card or kind)
    changes = {"locked": True}
    if kind == "bleed":
        changes["bled"] = True
    if kind == "political":
        changes["political"] = True
    used = card if (card and kind in ("card", "bleed", "hunt", "political") and from_hand) else via
    if used:
        changes["used"] = m.used + (used,)
    d.put_minion(m.name, **changes)
    order = _block_order(d, m.controller, directed, targets)
    d.set(action=Action(actor=m.name, player=m.controller, kind=kind, summary=summary, directed=directed,
                        targets=targets, stealth=stealth, bleed=bleed, hunt=hunt, cost_blood=cost.blood,
                        cost_pool=cost.pool, card=card, via=via, order=order, payload=payload, success=success,
                        chosen=chosen, cannot_block=tuple(cannot_block), intercept_mods=tuple(intercept_mods),
                        block_costs=tuple(block_costs),
                        effects=(effect,) if effect else (), says=says),
          resolved=None)
    if from_hand and unreplaced:  # (drawn as the moment after its resolution closes: `close_resolution`)
        play_from_hand(d, m.controller, log, card or kind, after_action=True)
    costs = cost_words(cost)
    text = (f"Announced: {summary} ({m.name} locks): {'directed' if directed else 'undirected'}, "
            f"{stealth} stealth{detail}"
            f"{f', costing {costs} if it succeeds' if costs else ''}. {who_blocks(order, directed, d, m.controller)}")
    block_rule = R.BLOCK_DIRECTED if directed else R.BLOCK_UNDIRECTED
    log.add(text, R.READY_UNLOCKED_ACT, R.ANNOUNCE, *rules, *([R.COST_ON_SUCCESS] if costs else []), block_rule)
    if m.stealth:
        log.add(f"{m.name} has {m.stealth:+d} stealth of its own (its card's, or the table's `stealth:`) on each of its "
                f"actions (counted above).", R.CRYPT_ABILITY)
    for words in [*why, *bleed_words]:
        log.add(f"{words} (counted above).", *words.rules)


class BonusWords(str):
    """A bonus's words in the trace ("Belinde's retainer Raven Spy: "The employer gets +1 intercept.": +1
    intercept"), with the rules to cite beside them: a crypt card's special abilities, or a retainer's card."""

    rules: tuple

    def __new__(cls, text: str, rules: tuple) -> "BonusWords":
        out = super().__new__(cls, text)
        out.rules = rules
        return out


def _gear_bonuses(d: Draft, item: str) -> tuple:
    """What the equipment card `item` gives its bearer (gear.GearText), or nothing (a weapon, or described only)."""
    g = gear.gear_of(d, item)
    return g.bonuses if g is not None else ()


def crypt_bonus(d: Draft, m: Minion, stat: str, *, kind: Optional[str] = None, directed: Optional[bool] = None,
                targets: Sequence[str] = (), other: Optional[Minion] = None) -> tuple[int, list[BonusWords]]:
    """What the bonuses of `m`'s card to `stat` (card_text.Bonus) add now, and each one's words: on its action of
    `kind` (directed or not, at `targets`: the Methuselah bled), on its block attempt against `other` (the acting
    minion) in an action of `kind`, in combat against `other`. NotModelled when a bonus names minions the table
    does not say enough of (a vampire described without its clan)."""
    total, words = 0, []
    sources = [(f"{m.name}'s card", (R.CRYPT_ABILITY,), b) for b in m.bonuses] + \
        [(f"{m.name}'s retainer {r.name}", (R.EMPLOY, R.GOLDEN_RULE), b) for r in m.retainers for b in r.bonuses] + \
        [(f"{m.name}'s {x}", (R.EQUIP, R.GOLDEN_RULE), b) for x in m.equipment
         for b in _gear_bonuses(d, x)] + \
        [(f"{x.name}, on {m.name}", (R.GOLDEN_RULE,), b) for x in m.attached for b in x.bonuses]
    for source, rules, b in sources:
        if b.stat != stat or (b.kinds and kind not in b.kinds) or (b.directed is not None and b.directed != directed):
            continue
        if (kind is not None and kind in b.not_kinds) or (b.not_kinds and kind is None):
            continue
        if b.edge and d.edge != m.controller:
            continue
        if b.pool_at_most is not None and d.players[m.controller].pool > b.pool_at_most:
            continue
        why = ""
        if b.groups:
            if b.on == "action":  # the minions the Methuselah bled controls (ready ones, when the card says so)
                theirs = [o for o in d.minions.values() if targets and o.controller == targets[0] and o.controlled
                          and not o.contested and (o.ready or not b.ready)]
                fits = [o for o in theirs if Group.any_fits(b.groups, o, m)]
                unknown = [o for o in theirs if Group.any_fits(b.groups, o, m) is None]
                if not fits and unknown:
                    raise NotModelled(f"{source} says \"{b.sentence}\", and the table does not say whether "
                                      f"{names([o.name for o in unknown])} {'is' if len(unknown) == 1 else 'are'} "
                                      f"{b.group_words()} (give its clan and sect)", [R.CRYPT_ABILITY])
                if bool(fits) == b.none or not targets:  # ("who controls no ready titled vampires": holds when
                    # none fits, on an action at a Methuselah)
                    continue
                why = (f"{targets[0]} controls none of them" if b.none else
                       f"{targets[0]} controls {fits[0].name}" + (", ready" if b.ready else ""))
            else:
                found = Group.any_fits(b.groups, other, m) if other is not None else False
                if found is None:
                    raise NotModelled(f"{source} says \"{b.sentence}\", and the table does not say whether "
                                      f"{other.name} is {b.group_words()} (give its clan and sect)", [R.CRYPT_ABILITY])
                if not found:
                    continue
                why = f"{other.name} is {b.group_words()}"
        total += b.amount
        words.append(BonusWords(f"{source}: \"{b.sentence}\": {b.amount:+d} {stat}" + (f" ({why})" if why else ""),
                                rules))
    if stat == "bleed" and kind == "bleed" and targets:
        more, said = _bled_ones_cards(d, m, targets[0])
        total, words = total + more, words + said
    return total, words


def _bled_ones_cards(d: Draft, m: Minion, target: str) -> tuple[int, list[BonusWords]]:
    """What the cards of the Methuselah bled give `m`'s bleed ("Toreador and Toreador antitribu get +1 bleed against
    you."): of its ready vampires; one in torpor whose text would give it stops as not modelled (whether the text of a
    vampire in torpor holds is not read)."""
    total, words = 0, []
    for o in d.minions.values():
        if o.controller != target or not o.controlled or o.contested or o.name == m.name:
            continue
        for a in abilities_of(o, "bleed against you"):
            fits = Group.any_fits(a.groups, m, o)
            if fits is None:
                raise NotModelled(f"{o.name}'s card says \"{a.sentence}\", and the table does not say whether {m.name} "
                                  f"is one of them (give its clan and sect)", [R.CRYPT_ABILITY])
            if not fits:
                continue
            if o.region != READY:
                raise NotModelled(f"{o.name}'s card says \"{a.sentence}\", and {o.name} is in {o.region}: whether the "
                                  f"text of a vampire out of the ready region holds is not read", [R.CRYPT_ABILITY])
            total += a.amount
            words.append(BonusWords(f"{o.name}'s card ({target}'s): \"{a.sentence}\": {a.amount:+d} bleed", (R.CRYPT_ABILITY,
                                                                                                    R.GOLDEN_RULE)))
    return total, words


def cost_words(cost: Cost) -> str:
    """"1 blood and 2 pool", or "" for no cost."""
    parts = []
    if cost.blood:
        parts.append(f"{cost.blood} blood")
    if cost.pool:
        parts.append(f"{cost.pool} pool")
    return " and ".join(parts)


# -- card effects as a scenario describes them (actions, modifiers, reactions, a referendum's terms) ------
def apply_card_effect(d: Draft, log: Log, eff: CardEffect, source: str) -> None:
    """Apply a card effect as the scenario describes it (the Golden Rule): pool, blood or life, locks, hand size."""
    for player, delta in eff.pool:
        require_seated(d, player)
        if delta is None:
            delta = -d.players[player].pool
        done = pool(d, player, delta)
        verb = "gains" if done >= 0 else "burns"
        log.add(f"{source.capitalize() if source[0].islower() else source}: {player} {verb} {abs(done)} pool "
                f"({d.players[player].pool} left).", R.GOLDEN_RULE, R.BLOOD_BANK)
    for name, delta in eff.blood:
        m = minion(d, name)
        done = blood(d, name, delta if delta is not None else -m.blood, drain=False)
        unit = "life" if m.kind == ALLY else "blood"
        verb = "gains" if done >= 0 else "burns"
        log.add(f"{name} {verb} {abs(done)} {unit} ({d.minions[name].blood} left).", R.GOLDEN_RULE, R.BLOOD_BANK)
        drain_excess(d, name, log)
        if m.kind == ALLY and d.minions[name].blood <= 0:
            remove_minion(d, name)
            log.add(f"{name} has lost its last life counter and is burned.", R.ALLY_BURNED)
    for name in eff.lock:
        minion(d, name)
        d.put_minion(name, locked=True)
        log.add(f"{name} is locked by {source}.", R.GOLDEN_RULE)
    for name in eff.unlock:
        minion(d, name)
        d.put_minion(name, locked=False)
        log.add(f"{name} is unlocked by {source}.", R.GOLDEN_RULE)
    for player, size in eff.hand_size:
        _set_hand_size(d, log, player, size)
    if eff.redirect:
        done, rules = redirect_bleed(d, eff.redirect)
        log.add(f"{source.capitalize() if source[0].islower() else source}: {done}.", *rules)


def check_redirect(d: Draft, to: str) -> Action:
    """A bleed redirected to `to` (a card's effect): only during a bleed, while no block attempt is open, to a
    seated Methuselah other than the bleeder and its target; the older book does not say who may block then."""
    a = d.action_()
    if a is None or a.kind != "bleed":
        raise Refusal(f"a redirect changes the target of a bleed; {a.summary if a else 'no action'} is not one",
                      [R.BLEED_AMOUNT])
    if not R.REDIRECT_REOPENS.exists_in(d.edition):
        raise NotModelled("a redirected bleed under the older book, which does not say who may block the new "
                          "target's bleed", [R.GOLDEN_RULE, R.BLOCK_DIRECTED])
    require_seated(d, to)
    if to == a.player:
        raise Refusal(f"{a.player} cannot be bled by {a.player}'s own minion: a Methuselah can never bleed "
                      f"themselves", [R.BLEED_SELF])
    if to in a.targets:
        raise Refusal(f"the bleed is already directed at {to}", [R.REDIRECT_REOPENS])
    if a.attempt is not None:
        raise Refusal(f"{a.attempt.blocker}'s block attempt is open: it resolves before the bleed is redirected",
                      [R.BLOCK_ONE_AT_A_TIME, R.REDIRECT_REOPENS])
    return a


def redirect_bleed(d: Draft, to: str) -> tuple[str, tuple[Rule, ...]]:
    """Redirect the bleed in progress to `to` (checked by `check_redirect`): block attempts reopen for the new
    target, and the card bonuses against the Methuselah bled are counted again (the acting vampire's and its
    retainers', and what the bled Methuselah's vampires give: "Toreador ... get +1 bleed against you."). Returns what
    happened, for the step's text, and its rules."""
    a = check_redirect(d, to)
    old = a.targets[0]
    order = block_order(d, a.player, True, (to,))
    # (a Methuselah a card barred from blocking this action again stays so: "... the blocking minion's controller
    # cannot attempt to block this action again.")
    a = d.put_action(targets=(to,), order=order, declined=tuple(p for p, _ in a.barred_players if p in order),
                     summary=f"{a.actor} bleeds {to} (redirected from {old})")
    recount = ""
    actor = d.minions.get(a.actor)
    if actor is not None and (actor.bonuses or any(r.bonuses for r in actor.retainers) or any(
            abilities_of(o, "bleed against you") for o in d.minions.values() if o.controller in (old, to))):
        # the card bonuses against the Methuselah bled, counted again
        changes = {}
        for stat in ("bleed", "stealth"):
            before = crypt_bonus(d, actor, stat, kind="bleed", directed=True, targets=(old,))[0]
            after = crypt_bonus(d, actor, stat, kind="bleed", directed=True, targets=(to,))[0]
            if after != before:
                changes[stat] = max(0, getattr(a, stat) + after - before)
        if changes:
            a = d.put_action(**changes)
            recount = (f"; the card bonuses of {actor.name}'s bleed counted against {to} instead of {old}: "
                       + ", ".join(f"{stat} {n}" for stat, n in changes.items()))
    return (f"the bleed is redirected from {old} to {to}, which reopens block attempts: "
            f"{who_blocks(order, True, d, a.player).rstrip('.')}{recount}",
            (R.GOLDEN_RULE, R.REDIRECT_REOPENS) + ((R.CRYPT_ABILITY,) if recount else ()))


def _set_hand_size(d: Draft, log: Log, player: str, size: int, why: str = "", rules=(R.GOLDEN_RULE,)) -> None:
    p = d.players[player]
    hand, library = min(p.hand, size), p.library
    drawn = size - hand if library is None else min(size - hand, library)  # draw up to the size, if the library can
    hand += drawn
    library = None if library is None else library - drawn
    d.put_player(player, hand_size=size, hand=hand, library=library)
    log.add(f"{player}'s hand size becomes {size}{why}: {player} now holds {hand} cards.", R.HAND_SIZE, *rules)


def hand_size_bonus(table, player: str) -> tuple[int, list[tuple[str, Rule]]]:
    """What the cards of ready vampires add to `player`'s hand size now ("While Abraham is ready, you get +1 hand
    size.": its controller's; "each Methuselah", "your prey"; "While Dana is in combat": while it fights), and the
    locations `player` controls ("+1 hand size."), and each one's words with the rule it stands on (a vampire's
    special abilities, the card over the rules). `table`: a state or a draft."""
    total, said = 0, []
    fighting = (table.combat.acting, table.combat.opposing) if table.combat is not None else ()
    for m in table.minions.values():
        if not (m.ready and m.controlled):
            continue
        for a in abilities_of(m, "hand size"):
            if a.during == "combat" and m.name not in fighting:
                continue
            if (a.whose == "you" and m.controller == player or a.whose == "each"
                    or a.whose == "prey" and table.prey(m.controller) == player):
                total += a.amount
                said.append((f"{m.name}'s \"{a.sentence}\"", R.CRYPT_ABILITY))
    for c in table.cards:  # a location in play ("+1 hand size."), its controller's
        if c.hand_size and c.kind == "location" and c.controller == player and not c.contested:
            total += c.hand_size
            said.append((f"{c.name}'s \"{c.said}\"", R.GOLDEN_RULE))
    return total, said


def match_hand_sizes(d: Draft, log: Log) -> None:
    """Cards changing hand sizes (a ready vampire's card, a location in play): when what they add changes (such a
    vampire came into play, went to torpor, left play; a location played, contested, burned...), each Methuselah's
    hand size changes by as much, and the hand is matched at once."""
    if not any(a.kind == "hand size" for m in d.minions.values() for a in m.abilities) and \
            not any(p.hand_bonus for p in d.players.values()) and not any(c.hand_size for c in d.cards):
        return  # (after every event: the common case, no such card at the table, costs one pass over the minions)
    for name, p in d.players.items():
        if not p.seated:
            continue
        bonus, said = hand_size_bonus(d, name)
        if bonus != p.hand_bonus:
            d.put_player(name, hand_bonus=bonus)
            why = f" ({', '.join(w for w, _ in said)})" if said else " (no card in play changes it now)"
            rules = tuple(dict.fromkeys(r for _, r in said))  # (none left: the drawing rule alone)
            _set_hand_size(d, log, name, max(0, p.hand_size + bonus - p.hand_bonus), why, rules)
