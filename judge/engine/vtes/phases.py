"""The turn: phase order, and what the unlock, master, influence and discard phases allow.

The turn is the table `TURN`: each phase with what its beginning does and what its end checks. Moving
to a later phase runs the end of every phase in between (its
obligations are checked: a contest left unpaid, a mandatory hunt not taken)
and the start of every phase reached. A scenario that starts in a phase starts
after that phase's own beginning (the table says what is locked, how many
transfers are left, ...).
"""
from __future__ import annotations

import re
from dataclasses import replace

from typing import Callable, NamedTuple

from judge.engine.vtes import rules as R
from judge.engine.vtes import ending, gear, situations, traits
from judge.engine.vtes.card_text import abilities_of
from judge.engine.vtes.helpers import (Log, blood, close_resolution, drain_excess, draw_owed, minion, move_blood, names,
                                  pending_mandatory, play_from_hand,
                                  pool, remove_minion, require_seated, rule_exists, text_unread)
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import (ContestCard, ContestTitle, CryptDraw, Discard, EdgePool, EndTurn, GoToPhase,
                                 Influence, MasterCard, TransferBack, TransferPool, TurnOf, UnlockInfernal, Withdraw)
from judge.engine.vtes.state import (ALLY, FULL_TRANSFERS, PHASES, READY, TORPOR, UNCONTROLLED, VAMPIRE, Draft, Minion,
                                PhaseState)


def transfers_for(turn_number: int) -> int:
    return turn_number if 1 <= turn_number < FULL_TRANSFERS else FULL_TRANSFERS


# -- moving through the turn -------------------------------------------------------------
def go_to_phase(d: Draft, e: GoToPhase, log: Log) -> None:
    require_seated(d, d.turn)  # an ousted Methuselah's turn has no more phases
    if e.player and e.player != d.turn:
        raise Refusal(f"it is {d.turn}'s turn, not {e.player}'s", [R.TURN_SEQUENCE])
    here, there = PHASES.index(d.phase), PHASES.index(e.phase)
    if there == here:
        log.add(f"{d.turn} is in the {e.phase} phase.", R.TURN_SEQUENCE)
        return
    if there < here:
        raise Refusal(f"the {e.phase} phase of {d.turn}'s turn is over: phases come in order "
                      f"(unlock, master, minion, influence, discard)", [R.TURN_SEQUENCE])
    while PHASES.index(d.phase) < there:
        _next_phase(d, log)


def end_turn(d: Draft, e: EndTurn, log: Log) -> None:
    if e.player and e.player != d.turn:
        raise Refusal(f"it is {d.turn}'s turn, not {e.player}'s", [R.TURN_SEQUENCE])
    _end_turn(d, log)


def turn_of(d: Draft, e: TurnOf, log: Log) -> None:
    require_seated(d, e.player)
    if e.player == d.turn and d.phase == "unlock" and not e.next:
        log.add(f"It is {d.turn}'s turn.", R.TURN_SEQUENCE)
        return
    for _ in range(len(d.seating) + 1):
        _end_turn(d, log)
        if d.turn == e.player or d.result.over or not d.players[e.player].seated:
            return  # (a withdrawal takes effect where that turn would have begun)
    raise Refusal(f"{e.player}'s turn never comes", [R.TURN_SEQUENCE])


def _next_phase(d: Draft, log: Log) -> None:
    close_resolution(d, log)
    PHASE[d.phase].end(d, log)
    nxt = PHASES[PHASES.index(d.phase) + 1]
    d.set(phase=nxt, phase_state=PhaseState(), resolved=None)
    PHASE[nxt].begin(d, log)


def _end_turn(d: Draft, log: Log) -> None:
    if d.players[d.turn].seated:
        while d.phase != "discard":
            _next_phase(d, log)
        PHASE["discard"].end(d, log)
    else:  # ousted during their own turn: an ousted Methuselah takes no further part, so no more phases
        log.add(f"{d.turn} was ousted during {d.turn}'s own {d.phase} phase: the turn ends there, with no further "
                f"phases.", R.OUSTED)
    _end_of_turn_effects(d, log)
    if d.result.over:
        return
    current = d.turn
    seating = d.seating
    i = seating.index(current)
    for k in range(1, len(seating) + 1):
        nxt = seating[(i + k) % len(seating)]
        if not d.players[nxt].seated:
            continue
        if _start_turn(d, log, nxt):
            return
        if d.result.over:
            return
    raise Refusal("no Methuselah is left to take a turn", [R.TURN_SEQUENCE])


def _end_of_turn_effects(d: Draft, log: Log) -> None:
    moved = []
    for m in list(d.minions.values()):
        if m.kind == ALLY and m.recruited and m.region == UNCONTROLLED:
            d.put_minion(m.name, region=READY)  # older book: recruited allies wait there until now
            moved.append(m.name)
        if m.recruited or m.bled or m.political or m.used or m.once:
            d.put_minion(m.name, recruited=False, bled=False, political=False, used=(), once=())
    if moved:
        log.add(f"End of {d.turn}'s turn: {names(moved)} move from the uncontrolled region to the ready region.",
                R.ALLY_OLDER_REGION)


def _start_turn(d: Draft, log: Log, player: str) -> bool:
    """Begin `player`'s turn; False when the turn does not happen (a successful withdrawal)."""
    p = d.players[player]
    if p.withdrawing:
        if p.withdrawal_broken:
            d.put_player(player, withdrawing=False, withdrawal_broken=False)
            log.add(f"{player}'s withdrawal fails: pool or blood was lost, or a minion entered combat, "
                    f"since it was announced.", R.WITHDRAW_FAILS)
        else:
            ending.withdraw(d, log, player)  # the turn never begins
            return False
    close_resolution(d, log)
    d.set(turn=player, phase="unlock", turn_number=d.turn_number + 1, phase_state=PhaseState(), resolved=None)
    _enter_unlock(d, log)
    return True


# -- unlock phase ---------------------------------------------------------------------------
def _enter_unlock(d: Draft, log: Log) -> None:
    player = d.turn
    unlocked, infernal = [], []
    for m in _own(d, player):  # a card text saying what happens in this phase, not read: stop rather than ignore it
        if m.controlled and any(re.search(r"unlock phase|unlock as normal", s, re.I) for s in m.unread):
            text_unread(m, "begins its controller's unlock phase")
        if m.controlled:  # (and the equipment it bears)
            gear.check_unread(d, m, "begins its controller's unlock phase", r"unlock|hand size|each turn")
    kept = []
    for m in _own(d, player):
        if m.stays_locked is None and m.locked and m.controlled:
            said = [a.sentence for a in m.abilities if a.kind == "stays locked after hunt"]
            raise NotModelled(f"{m.name}'s card says \"{said[0]}\", and the table does not say whether it "
                              f"successfully hunted before its unlock phase: give stays_locked: true or false on "
                              f"the minion", [R.CRYPT_ABILITY])
        if m.stays_locked:  # its card keeps it locked this once ("does not unlock as normal during her next ...")
            d.put_minion(m.name, stays_locked=())
            if m.locked and m.controlled and not m.contested:
                kept.append(m)
                continue
        if m.locked and m.controlled and not m.contested:
            if m.infernal:
                infernal.append(m.name)
            else:
                d.put_minion(m.name, locked=False)
                unlocked.append(m.name)
    cards = [c.name for c in d.cards if c.controller == player and c.locked]
    if cards:  # (the book: a Methuselah's cards unlock in their unlock phase, locations too)
        d.set(cards=tuple(replace(c, locked=False) if c.controller == player and c.locked else c for c in d.cards))
        unlocked += cards
    text = f"{player}'s turn {d.turn_number} begins with the unlock phase"
    text += f": {names(unlocked)} unlock." if unlocked else "; nothing to unlock."
    log.add(text, R.TURN_SEQUENCE, R.UNLOCK_ALL)
    for m in kept:
        log.add(f"{m.name} stays locked: its card says \"{m.stays_locked[0]}\"", R.CRYPT_ABILITY, R.GOLDEN_RULE)
    owed = d.players[player].owed_draws
    if owed:
        d.put_player(player, owed_draws=0)
        draw_owed(d, log, player, owed, "this unlock phase")
    if infernal:
        log.add(f"{names(infernal)} {'is' if len(infernal) == 1 else 'are'} infernal and stay locked unless "
                f"{player} burns 1 pool for each.", R.INFERNAL)
    _end_contests(d, log, player)


def _own(d: Draft, player: str) -> list[Minion]:
    return [m for m in d.minions.values() if m.controller == player]


def _rivals(d: Draft, m: Minion) -> list[Minion]:
    return [o for o in d.minions.values() if o.name != m.name and o.contested and o.card == m.card]


def _title_rivals(d: Draft, m: Minion) -> list[Minion]:
    """The vampires contesting `m`'s title: the same title, or one claiming the same city or clan title."""
    return [o for o in d.minions.values()
            if o.name != m.name and o.title_contested and ((o.title or "").lower() == (m.title or "").lower()
                                                           or traits.titles_conflict(o, m))]


def _end_contests(d: Draft, log: Log, player: str) -> None:
    situations.end_card_contests(d, log, player)
    for m in _own(d, player):
        if m.contested and not _rivals(d, m):
            d.put_minion(m.name, contested=False, locked=False)
            log.add(f"Every other copy of {m.card} was yielded: {m.name} unlocks and turns face up.", R.CONTEST_CARD_END)
    for m in _own(d, player):
        if not m.title_contested:
            continue
        if not _title_rivals(d, m):
            d.put_minion(m.name, title_contested=False)
            log.add(f"Every rival for the title {m.title} yielded: {m.name} acquires it.", R.CONTEST_TITLE_END)
        elif m.region == TORPOR or m.blood == 0:
            situations.clear_title(d, m.name)  # (no capacity to lose: a title whose card added one is never
            # contested, titles.take_effect)
            why = "is in torpor" if m.region == TORPOR else "has no blood to pay"
            log.add(f"{m.name} {why} and must yield the contested title {m.title}.", R.CONTEST_TITLE_FORCED)


def _exit_unlock(d: Draft, log: Log) -> None:
    paid = d.phase_state().paid
    card = situations.unpaid_card_contest(d)
    if card is not None:
        raise Refusal(f"{d.turn} must pay 1 pool to keep contesting {card.name}, or yield it, during the unlock phase",
                      [R.CONTEST_CARD])
    for m in _own(d, d.turn):
        if m.contested and _rivals(d, m) and m.name not in paid:
            raise Refusal(f"{d.turn} must pay 1 pool to keep contesting {m.card} ({m.name}), or yield it, "
                          f"during the unlock phase", [R.CONTEST_CARD])
        if m.title_contested and _title_rivals(d, m) and f"{m.name}#title" not in paid:
            raise Refusal(f"{m.name} must pay 1 blood to keep contesting the title {m.title}, or yield it, "
                          f"during {d.turn}'s unlock phase", [R.CONTEST_TITLE])


def _in_own_phase(d: Draft, player: str, phase: str, rule) -> None:
    require_seated(d, player)
    if player != d.turn:
        raise Refusal(f"it is {d.turn}'s turn: {player} can do this only in {player}'s own {phase} phase", [rule])
    if d.phase != phase:
        raise Refusal(f"this is done in the {phase} phase; {d.turn} is in the {d.phase} phase", [rule])


def edge_pool(d: Draft, e: EdgePool, log: Log) -> None:
    _in_own_phase(d, e.player, "unlock", R.EDGE_POOL)
    if d.edge != e.player:
        holder = f"{d.edge} holds it" if d.edge else "nobody holds it"
        raise Refusal(f"{e.player} does not have the Edge ({holder})", [R.EDGE_POOL])
    if d.phase_state().edge_pool_taken:
        raise Refusal(f"{e.player} already gained the pool for the Edge this unlock phase", [R.EDGE_POOL])
    pool(d, e.player, +1)
    d.put_phase(edge_pool_taken=True)
    log.add(f"{e.player} has the Edge and gains 1 pool from the blood bank ({d.players[e.player].pool} pool).",
            R.EDGE_POOL, R.BLOOD_BANK)


def _contested_card(d: Draft, player: str, card: str) -> Minion:
    mine = [m for m in _own(d, player) if m.contested
            and card.lower() in (m.card.lower(), m.name.lower())]
    if not mine:
        raise Refusal(f"{player} controls no contested card called {card!r}", [R.CONTEST_CARD])
    return mine[0]


def contest_card(d: Draft, e: ContestCard, log: Log) -> None:
    _in_own_phase(d, e.player, "unlock", R.CONTEST_CARD)
    if situations.contested_card_of(d, e.player, e.card):  # a location or an equipment card, not a minion
        situations.contest_card(d, e, log)
        return
    m = _contested_card(d, e.player, e.card)
    if m.name in d.phase_state().paid:
        raise Refusal(f"{e.player} already paid or yielded for {m.card} this unlock phase", [R.CONTEST_CARD])
    if e.pay:
        if d.players[e.player].pool < 1:
            raise Refusal(f"{e.player} has no pool to pay for the contest", [R.CONTEST_CARD])
        pool(d, e.player, -1)
        d.put_phase(paid=d.phase_state().paid + (m.name,))
        log.add(f"{e.player} pays 1 pool to keep contesting {m.card} ({d.players[e.player].pool} pool left); "
                f"it stays face down and out of play.", R.CONTEST_CARD, R.CONTEST_CARD_OUT)
    else:
        burned = remove_minion(d, m.name)
        d.put_phase(paid=d.phase_state().paid + (m.name,))
        extra = f", with the {burned} counters on it" if burned else ""
        log.add(f"{e.player} yields {m.card}: the card is burned{extra}.", R.CONTEST_CARD_YIELD, R.BLOOD_BANK)


def contest_title(d: Draft, e: ContestTitle, log: Log) -> None:
    m = minion(d, e.minion)
    _in_own_phase(d, m.controller, "unlock", R.CONTEST_TITLE)
    if not m.title_contested:
        raise Refusal(f"{m.name}'s title is not contested", [R.CONTEST_TITLE])
    key = f"{m.name}#title"
    if key in d.phase_state().paid:
        raise Refusal(f"{m.name} already paid or yielded for the title this unlock phase", [R.CONTEST_TITLE])
    if e.pay:
        if m.region != READY:
            raise Refusal(f"only ready vampires contest titles: {m.name} must yield", [R.CONTEST_TITLE_FORCED])
        cost, rules = traits.title_contest_cost(d, m, _title_rivals(d, m))
        if m.blood < cost:
            raise Refusal(f"{m.name} has {m.blood} blood, not the {cost} to pay for the title, and must yield it",
                          [R.CONTEST_TITLE_FORCED, *rules])
        blood(d, m.name, -cost)
        log.add(f"{m.name} pays {cost} blood to keep contesting the title {m.title} "
                f"({d.minions[m.name].blood} blood left).", *rules)
    else:
        situations.clear_title(d, m.name)
        log.add(f"{m.name} yields the title {m.title} and has no title now.", R.CONTEST_TITLE)
    d.put_phase(paid=d.phase_state().paid + (key,))


def unlock_infernal(d: Draft, e: UnlockInfernal, log: Log) -> None:
    _in_own_phase(d, e.player, "unlock", R.INFERNAL)
    m = minion(d, e.minion)
    if m.controller != e.player:
        raise Refusal(f"{m.name} is not {e.player}'s", [R.INFERNAL])
    if not m.infernal:
        raise Refusal(f"{m.name} is not infernal: it unlocked with {e.player}'s other cards", [R.UNLOCK_ALL])
    if not m.locked:
        raise Refusal(f"{m.name} is not locked", [R.INFERNAL])
    if d.players[e.player].pool < 1:
        raise Refusal(f"{e.player} has no pool to burn", [R.INFERNAL])
    pool(d, e.player, -1)
    d.put_minion(m.name, locked=False)
    log.add(f"{e.player} burns 1 pool to unlock the infernal {m.name} ({d.players[e.player].pool} pool left).",
            R.INFERNAL, R.BLOOD_BANK)


def withdraw(d: Draft, e: Withdraw, log: Log) -> None:
    _in_own_phase(d, e.player, "unlock", R.WITHDRAW_WHEN)
    p = d.players[e.player]
    if p.withdrawing:
        raise Refusal(f"{e.player} has already announced a withdrawal", [R.WITHDRAW_WHEN])
    if p.library is None:
        raise Refusal(f"{e.player} can withdraw only with an exhausted library: the scenario must say "
                      f"library: {{{e.player}: 0}}", [R.WITHDRAW_WHEN])
    if p.library > 0:
        raise Refusal(f"{e.player}'s library still has {p.library} cards: no withdrawal", [R.WITHDRAW_WHEN])
    if p.hand >= p.hand_size:
        raise Refusal(f"{e.player} has a full hand ({p.hand} of {p.hand_size}): no withdrawal", [R.WITHDRAW_WHEN])
    d.put_player(e.player, withdrawing=True, withdrawal_broken=False)
    log.add(f"{e.player} announces a withdrawal. It succeeds at the start of {e.player}'s next unlock phase if, "
            f"until then, no pool or blood is lost and no minion of {e.player} enters combat.",
            R.WITHDRAW_WHEN, R.WITHDRAW_FAILS)


# -- master phase ----------------------------------------------------------------------------
def _enter_master(d: Draft, log: Log) -> None:
    p = d.players[d.turn]
    own = [m for m in d.minions.values() if m.controller == d.turn and m.controlled and m.ready]
    for m in own:
        if any("master phase" in s for s in m.unread):
            text_unread(m, "is ready as its controller's master phase begins")
        gear.check_unread(d, m, "is ready as its controller's master phase begins", r"master")
    giving = [m for m in own if m.extra_master and (m.extra_master_when == "ready" or not m.locked)]
    extra = sum(m.extra_master for m in giving)
    actions = max(0, 1 + extra - p.oot_debt + p.oot_credit + p.given_actions)
    d.put_player(d.turn, oot_played=False, oot_debt=0, oot_credit=0, given_actions=0)
    # an out-of-turn trifle's action is the phase's one trifle action (Master Cards: "A Methuselah can gain only one
    # master phase action from trifles in a given master phase")
    d.put_phase(master_actions=actions, trifle_used=bool(p.oot_credit))
    rules = [R.MASTER_ACTIONS]
    text = f"{d.turn}'s master phase: {actions} master phase action{'s' if actions != 1 else ''}"
    if giving:
        rules.append(R.GOLDEN_RULE)
        text += f" ({names([m.name for m in giving])}'s card text gives {extra} more)"
    if p.oot_debt:
        rules.append(R.OUT_OF_TURN_DEBT)
        text += f" (an out-of-turn master card already used one{', and its trifle gave one back' if p.oot_credit else ''})"
    if p.oot_credit:
        rules.append(R.TRIFLE)
    if p.given_actions:
        rules.append(R.GOLDEN_RULE)
        text += f" ({p.given_actions} given back by a card that cancelled an out-of-turn master card)"
    log.add(text + ".", *rules)


def master_card(d: Draft, e: MasterCard, log: Log) -> None:
    require_seated(d, e.player)
    what = f"{e.card or 'a master card'}{' (trifle)' if e.trifle else ''}"
    if e.out_of_turn:
        _out_of_turn(d, e, log, what)
        return
    if e.player != d.turn or d.phase != "master":
        where = f"{d.turn}'s {d.phase} phase"
        raise Refusal(f"{e.player} cannot play {what} in {where}: regular master cards are played in one's own "
                      f"master phase (out-of-turn ones say so)", [R.MASTER_IN_PHASE])
    ps = d.phase_state()
    if ps.master_actions < 1:
        raise Refusal(f"{e.player} has no master phase action left", [R.MASTER_ACTIONS])
    _pay_pool_cost(d, e.player, e.cost_pool, what)
    play_from_hand(d, e.player, log, what, replaced=e.replaced)
    actions = ps.master_actions - 1
    text = f"{e.player} uses a master phase action to play {what}"
    rules = [R.MASTER_IN_PHASE]
    if e.cost_pool:
        text += f", paying {e.cost_pool} pool"
    if e.trifle and not ps.trifle_used:
        actions += 1
        d.put_phase(master_actions=actions, trifle_used=True)
        text += "; as a trifle it gives an additional master phase action"
        rules.append(R.TRIFLE)
    else:
        d.put_phase(master_actions=actions)
        if e.trifle:
            text += ("; the phase's one trifle action was already gained, so this trifle acts like a regular master card")
            rules.append(R.TRIFLE)
    log.add(f"{text} ({actions} left).", *rules)
    if e.location:
        situations.location_played(d, log, e.card or "the location", e.player, e.unique, e.hand_size, e.transfers)


def _out_of_turn(d: Draft, e: MasterCard, log: Log, what: str) -> None:
    p = d.players[e.player]
    if e.player == d.turn:
        raise Refusal(f"{e.player} cannot play an out-of-turn master card on {e.player}'s own turn", [R.OUT_OF_TURN])
    if p.oot_played:
        raise Refusal(f"{e.player} already played an out-of-turn master card since {e.player}'s last master phase",
                      [R.OUT_OF_TURN_LIMIT])
    _pay_pool_cost(d, e.player, e.cost_pool, what)
    play_from_hand(d, e.player, log, what, replaced=e.replaced)
    d.put_player(e.player, oot_played=True, oot_debt=p.oot_debt + 1, oot_credit=1 if e.trifle else p.oot_credit)
    text = f"{e.player} plays {what} out of turn, using a master phase action of {e.player}'s next master phase"
    if e.trifle:
        text += "; as a trifle it gives one back in that master phase"
    log.add(text + ".", R.OUT_OF_TURN, R.OUT_OF_TURN_DEBT, *( [R.TRIFLE] if e.trifle else []))


def _pay_pool_cost(d: Draft, player: str, cost: int, what: str) -> None:
    if cost <= 0:
        return
    if d.players[player].pool < cost:
        raise Refusal(f"{player} has {d.players[player].pool} pool, not enough to pay {cost} for {what}",
                      [R.COST_REQUIRED])
    pool(d, player, -cost)


def _exit_master(d: Draft, log: Log) -> None:
    left = d.phase_state().master_actions
    if left:
        log.add(f"{d.turn} leaves the master phase with {left} unused master phase action"
                f"{'s' if left != 1 else ''}: lost.", R.MASTER_ACTIONS)


# -- minion phase (its actions are in actions.py) ---------------------------------------------
def _enter_minion(d: Draft, log: Log) -> None:
    log.add(f"{d.turn}'s minion phase.", R.MINION_PHASE)


def _exit_minion(d: Draft, log: Log) -> None:
    waiting = pending_mandatory(d, d.turn)
    if waiting:
        m, what = waiting[0]
        raise Refusal(f"{m.name} has a mandatory {what} to perform before {d.turn}'s minion phase can end",
                      [R.MANDATORY_HUNT if what == "hunt" else R.MANDATORY, R.MANDATORY])


# -- influence phase ---------------------------------------------------------------------------
def _enter_influence(d: Draft, log: Log) -> None:
    for m in _own(d, d.turn):  # (equipment whose text speaks of this phase, not read: as the unlock phase does)
        if m.controlled:
            gear.check_unread(d, m, "begins its controller's influence phase", r"influence|uncontrolled|transfer")
    n = transfers_for(d.turn_number)
    giving = [(m, a) for m in _own(d, d.turn) if m.controlled and m.ready for a in abilities_of(m, "transfers")]
    rules = [R.TRANSFERS] + ([R.TRANSFERS_FIRST_TURNS] if n < FULL_TRANSFERS else [])
    why = f" (turn {d.turn_number} of the game)" if n < FULL_TRANSFERS else ""
    if giving:
        n += sum(a.amount for _, a in giving)
        why += " (" + "; ".join(f"{m.name}'s card: \"{a.sentence}\"" for m, a in giving) + ")"
        rules += [R.CRYPT_ABILITY, R.GOLDEN_RULE]
    places = [c for c in d.cards if c.kind == "location" and c.controller == d.turn and not c.contested and c.transfers]
    if places:  # a location's "+2 transfers."
        n += sum(c.transfers for c in places)
        why += " (" + "; ".join(f"{c.name}: \"{c.transfers_said}\"" for c in places) + ")"
        rules += [R.GOLDEN_RULE]
    d.put_phase(transfers=n)
    log.add(f"{d.turn}'s influence phase: {n} transfer{'s' if n != 1 else ''}{why}.", *rules)


def _uncontrolled_vampire(d: Draft, player: str, name: str, rule) -> Minion:
    m = minion(d, name)
    if m.controller != player:
        raise Refusal(f"{name} is not in {player}'s uncontrolled region", [rule])
    if m.kind != VAMPIRE or m.region != UNCONTROLLED:
        raise Refusal(f"{name} is not a vampire in {player}'s uncontrolled region (it is {m.region})", [rule])
    return m


def _spend_transfers(d: Draft, n: int, what: str, rule) -> None:
    left = d.phase_state().transfers
    if left < n:
        raise Refusal(f"{what} needs {n} transfer{'s' if n != 1 else ''}; {d.turn} has {left} left", [rule, R.TRANSFERS])
    d.put_phase(transfers=left - n)


def transfer_pool(d: Draft, e: TransferPool, log: Log) -> None:
    _in_own_phase(d, e.player, "influence", R.TRANSFERS)
    m = _uncontrolled_vampire(d, e.player, e.vampire, R.TRANSFER_POOL)
    if e.amount < 1:
        raise Refusal("a transfer moves at least 1 counter", [R.TRANSFER_POOL])
    if d.players[e.player].pool < e.amount:
        raise Refusal(f"{e.player} has only {d.players[e.player].pool} pool", [R.TRANSFER_POOL])
    _spend_transfers(d, e.amount, f"moving {e.amount} pool", R.TRANSFER_POOL)
    move_blood(d, e.player, m.name, e.amount)
    log.add(f"{e.player} spends {e.amount} transfer{'s' if e.amount != 1 else ''} to move {e.amount} pool to "
            f"{m.name} ({d.minions[m.name].blood} of capacity {m.capacity}; {d.players[e.player].pool} pool, "
            f"{d.phase_state().transfers} transfers left).", R.TRANSFER_POOL)


def transfer_back(d: Draft, e: TransferBack, log: Log) -> None:
    _in_own_phase(d, e.player, "influence", R.TRANSFERS)
    m = _uncontrolled_vampire(d, e.player, e.vampire, R.TRANSFER_BACK)
    if e.amount < 1 or m.blood < e.amount:
        raise Refusal(f"{m.name} has {m.blood} blood, cannot give back {e.amount}", [R.TRANSFER_BACK])
    _spend_transfers(d, 2 * e.amount, f"taking back {e.amount} blood", R.TRANSFER_BACK)
    move_blood(d, None, None, e.amount, src_minion=m.name, dst_player=e.player)
    log.add(f"{e.player} spends {2 * e.amount} transfers to move {e.amount} blood from {m.name} back to the pool "
            f"({d.players[e.player].pool} pool, {d.phase_state().transfers} transfers left).", R.TRANSFER_BACK)


def crypt_draw(d: Draft, e: CryptDraw, log: Log) -> None:
    _in_own_phase(d, e.player, "influence", R.TRANSFERS)
    p = d.players[e.player]
    if p.crypt is not None and p.crypt < 1:
        raise Refusal(f"{e.player}'s crypt is empty", [R.TRANSFER_CRYPT])
    if p.pool < 1:
        raise Refusal(f"{e.player} has no pool to burn", [R.TRANSFER_CRYPT])
    _spend_transfers(d, 4, "moving a vampire from the crypt", R.TRANSFER_CRYPT)
    pool(d, e.player, -1)
    if p.crypt is not None:
        d.put_player(e.player, crypt=p.crypt - 1)
    extra = dict(e.props)
    d.minions[e.vampire] = Minion(name=e.vampire, controller=e.player, kind=VAMPIRE, card=e.vampire,
                                  capacity=e.capacity, region=UNCONTROLLED, clan=extra.get("clan"),
                                  sect=extra.get("sect"), title=extra.get("title"))
    log.add(f"{e.player} spends 4 transfers and burns 1 pool to move {e.vampire} (capacity {e.capacity}) from the "
            f"crypt to the uncontrolled region ({d.players[e.player].pool} pool left).", R.TRANSFER_CRYPT)


def influence(d: Draft, e: Influence, log: Log) -> None:
    m = minion(d, e.vampire)
    player = e.player or m.controller
    _in_own_phase(d, player, "influence", R.INFLUENCE_ANY_TIME if rule_exists(d, R.INFLUENCE_ANY_TIME)
                  else R.INFLUENCE_AT_END)
    m = _uncontrolled_vampire(d, player, e.vampire, R.TRANSFER_POOL)
    rule = R.INFLUENCE_ANY_TIME if rule_exists(d, R.INFLUENCE_ANY_TIME) else R.INFLUENCE_AT_END
    if m.blood < m.capacity:
        raise Refusal(f"{m.name} has {m.blood} blood, less than capacity {m.capacity}: not yet", [rule])
    for o in d.minions.values():  # (equipment in play whose text speaks of minions put in play, not read)
        if o.controlled:
            gear.check_unread(d, o, f"{m.name} is put in play", r"in play|enters? play|ready region")
    own = [o for o in d.minions.values() if o.name != m.name and o.card == m.card and o.controlled
           and o.controller == player]
    if own:  # influencing is a choice: a contest it would start with oneself is refused, not burned
        raise Refusal(f"{player} already controls {m.card} ({own[0].name}): a Methuselah cannot voluntarily contest "
                      f"a card with themself", [R.CONTEST_SELF])
    if not rule_exists(d, R.INFLUENCE_ANY_TIME):
        log.add(f"{m.name} has {m.blood} blood for capacity {m.capacity}: under this book, {m.name} becomes "
                f"controlled only at the end of the influence phase.", R.INFLUENCE_AT_END)
        return
    _control(d, m, log, R.INFLUENCE_ANY_TIME)


def _control(d: Draft, m: Minion, log: Log, rule) -> None:
    situations.scarce_cost(d, m, log)
    d.put_minion(m.name, region=READY, locked=False)
    log.add(f"{m.name} ({m.blood} blood, capacity {m.capacity}) moves face up to {m.controller}'s ready region, "
            f"unlocked.", rule, *([R.INFLUENCE_DRAIN] if m.blood > m.capacity else []))
    drain_excess(d, m.name, log)
    situations.entered_play(d, m.name, log)


def _exit_influence(d: Draft, log: Log) -> None:
    if rule_exists(d, R.INFLUENCE_AT_END):
        for m in _own(d, d.turn):
            if m.kind == VAMPIRE and m.region == UNCONTROLLED and m.blood >= m.capacity:
                _control(d, m, log, R.INFLUENCE_AT_END)


# -- discard phase -------------------------------------------------------------------------------
def _enter_discard(d: Draft, log: Log) -> None:
    for m in _own(d, d.turn):  # (as the unlock phase does)
        if m.controlled and any(re.search(r"discard phase", s, re.I) for s in m.unread):
            text_unread(m, "begins its controller's discard phase")
        if m.controlled:
            gear.check_unread(d, m, "begins its controller's discard phase", r"discard")
    giving = [(m, a) for m in _own(d, d.turn) if m.controlled and m.ready for a in abilities_of(m, "discard action")]
    actions = d.phase_state().discard_actions + sum(a.amount for _, a in giving)
    d.put_phase(discard_actions=actions)
    said = "; ".join(f"{m.name}'s card: \"{a.sentence}\"" for m, a in giving)
    log.add(f"{d.turn}'s discard phase: {actions} discard phase action{'s' if actions != 1 else ''}"
            f"{f' ({said})' if said else ''}.", R.DISCARD_PHASE, *([R.CRYPT_ABILITY, R.GOLDEN_RULE] if giving else []))
    for m in list(d.minions.values()):  # a card's "... unlocks during your next discard phase" (titles.take_effect)
        if m.unlocks_at_discard and m.unlocks_at_discard[0] == d.turn:
            d.put_minion(m.name, locked=False, unlocks_at_discard=())
            state = "unlocks" if m.locked else "is unlocked already"
            log.add(f"{m.name} {state}, as {m.unlocks_at_discard[1]} says.", R.GOLDEN_RULE, R.DISCARD_PHASE)


def discard(d: Draft, e: Discard, log: Log) -> None:
    _in_own_phase(d, e.player, "discard", R.DISCARD_PHASE)
    if d.phase_state().discard_actions < 1:
        raise Refusal(f"{e.player} has no discard phase action left", [R.DISCARD_PHASE])
    what = "an event card" if e.event_card else "a discarded card"
    play_from_hand(d, e.player, log, what)
    d.put_phase(discard_actions=d.phase_state().discard_actions - 1)
    verb = "puts an event card in play" if e.event_card else "discards a card and draws to replace it"
    log.add(f"{e.player} uses the discard phase action: {verb} ({d.players[e.player].hand} in hand).",
            R.DISCARD_PHASE, R.DRAW_REPLACE)


def _exit_discard(d: Draft, log: Log) -> None:
    """Unused discard phase actions are simply lost: nothing to resolve."""


class Phase(NamedTuple):
    name: str
    begin: Callable[[Draft, Log], None]  # what happens as the phase begins
    end: Callable[[Draft, Log], None]  # its obligations checked, what is left unused lost


# The turn, in order (state.PHASES names them).
TURN = (Phase("unlock", _enter_unlock, _exit_unlock), Phase("master", _enter_master, _exit_master),
        Phase("minion", _enter_minion, _exit_minion), Phase("influence", _enter_influence, _exit_influence),
        Phase("discard", _enter_discard, _exit_discard))
PHASE = {phase.name: phase for phase in TURN}
