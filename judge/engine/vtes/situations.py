"""Situations met in play that the turn's own modules do not hold: a card or title entering play where another
copy or claim already is, a scarce vampire's cost, titles and sects changed by cards, the Red List, allies put
into play by an effect.

`entered_play` is called whenever a minion comes into play (phases.py: a vampire influenced out; here: an ally
put into play): a second copy of a unique card makes the copies contested, or is burned if its Methuselah
already controls one; a unique title already claimed in play makes the title contested. Which titles are
unique, and a trait's meaning, is traits.py.
"""
from __future__ import annotations

from dataclasses import replace

from judge.engine.vtes import combat, traits
from judge.engine.vtes import rules as R
from judge.engine.citations import OLDER
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import (AllyIntoPlay, ChangeControl, ChangeSect, ContestCard, Cost, GainTitle, MarkRedList,
                                 RedListHunt, SlaveTakesOver)
from judge.engine.vtes.helpers import (Log, announce, check_actor, drain_excess, draw_after_combat, minion, names, pool,
                                  remove_minion, require_seated)
from judge.engine.vtes.state import ALLY, READY, UNCONTROLLED, VAMPIRE, Action, Card, Draft, Minion

SECTS = ("camarilla", "sabbat", "anarch", "independent", "laibon")


# -- entering play -------------------------------------------------------------------------------------
def scarce_cost(d: Draft, m: Minion, log: Log) -> None:
    """A scarce vampire moved to the ready region: 3 pool per vampire of its clan its Methuselah already controls
    (current book). The older book counts every other vampire of the clan in play, and its loaded text of the
    amount is damaged (OCR): the engine stops there rather than guess, unless there is none to count."""
    if not traits.has(m, "scarce"):
        return
    if not m.clan:
        raise NotModelled(f"{m.name} is scarce but its clan is not given: give its 'clan:'", [R.SCARCE])
    clan = m.clan.strip().lower()
    same = [o for o in d.minions.values() if o.name != m.name and o.kind == VAMPIRE and traits.in_play(o)
            and (o.clan or "").strip().lower() == clan]
    if d.edition == OLDER:
        if same:
            raise NotModelled(f"{m.name} is scarce and {names([o.name for o in same])} of clan {m.clan} "
                              f"{'is' if len(same) == 1 else 'are'} in play: the older book's cost per vampire is "
                              f"illegible in the loaded text", [R.SCARCE])
        log.add(f"{m.name} is scarce; no other {m.clan} is in play: nothing to burn.", R.SCARCE)
        return
    mine = [o for o in same if o.controller == m.controller]
    if not mine:
        log.add(f"{m.name} is scarce; {m.controller} controls no other {m.clan}: nothing to burn.", R.SCARCE)
        return
    burned = -pool(d, m.controller, -3 * len(mine))
    log.add(f"{m.name} is scarce and {m.controller} already controls {len(mine)} {m.clan} "
            f"({names([o.name for o in mine])}): {m.controller} burns {burned} pool "
            f"({d.players[m.controller].pool} left).", R.SCARCE, R.BLOOD_BANK)


def entered_play(d: Draft, name: str, log: Log, unique: bool = True) -> None:
    """A card has just come into play: contest it with other copies, or its title with other claims."""
    m = d.minions[name]
    if unique:
        copies = [o for o in d.minions.values() if o.name != name and o.card == m.card and o.controlled]
        if any(o.controller == m.controller for o in copies):
            burned = remove_minion(d, name)
            extra = f", with its {burned} counters" if burned else ""
            log.add(f"{m.controller} already controls {m.card}: a Methuselah never contests a card with themself, "
                    f"so the incoming copy {name} is burned{extra}.", R.CONTEST_SELF, R.BLOOD_BANK)
            return
        if copies:
            for o in [m, *copies]:
                d.put_minion(o.name, contested=True)
            log.add(f"{m.card} is unique and already in play ({names([f'{o.name}, {o.controller}' for o in copies])}): "
                    f"the copies are contested, face down and out of play, until all but one is yielded; each "
                    f"Methuselah pays 1 pool in each unlock phase to keep contesting.",
                    R.UNIQUE_IN_PLAY, R.CONTEST_CARD_OUT, R.CONTEST_CARD)
            return
    contest_title(d, name, log)


def contest_title(d: Draft, name: str, log: Log) -> None:
    """`name`'s title is claimed by another vampire in play: the title is contested."""
    m = d.minions[name]
    if m.kind != VAMPIRE or not m.title or not traits.in_play(m):
        return
    claim = traits.title_claim(m)
    others = [o for o in d.minions.values() if o.name != name and o.kind == VAMPIRE and traits.in_play(o) and o.title]
    if claim is None:
        same = [o.name for o in others if o.title.strip().lower() == m.title.strip().lower()]
        if same:
            log.add(f"{names(same)} also {'holds' if len(same) == 1 else 'hold'} the title {m.title}, which is not "
                    f"unique: no contest.", R.TITLE_NOT_UNIQUE)
        return
    if claim[0] == "unknown":
        same = [o for o in others if o.title.strip().lower() == m.title.strip().lower()]
        if same:
            raise NotModelled(f"{m.name} and {names([o.name for o in same])} both claim the title {m.title!r}, which "
                              f"the books do not list: whether it is unique is the card's to say",
                              [R.TITLE_IN_PLAY])
        return
    rivals = [o for o in others if traits.titles_conflict(o, m)]
    if not rivals:
        return
    raised = [o.name for o in (m, *rivals) if o.title_capacity]
    if raised:  # (titles.take_effect: the capacity a title's card adds)
        raise NotModelled(f"the title {m.title} would be contested, and {names(raised)} holds it with the capacity "
                          f"its card added: whether that capacity holds while the title is contested (its holders "
                          f"treated as having no title) is not said", [R.TITLE_IN_PLAY, R.GOLDEN_RULE])
    for o in [m, *rivals]:
        d.put_minion(o.name, title_contested=True)
    log.add(f"{m.name}'s title {m.title} is already claimed in play by {names([f'{o.name} ({o.title})' for o in rivals])}: "
            f"the title is contested; while it is, they are treated as having no title, and each pays 1 blood in its "
            f"controller's unlock phase to keep contesting.", *traits.title_rules(m), R.CONTESTED_NO_VOTES,
            R.CONTEST_TITLE)


# -- titles and sects changed by a card ----------------------------------------------------------------
def gain_title(d: Draft, e: GainTitle, log: Log) -> None:
    m = minion(d, e.minion)
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires hold titles", [R.ONE_TITLE])
    source = f"{e.source}: " if e.source else ""
    if e.title is None:
        if not m.title:
            raise Refusal(f"{m.name} has no title to lose", [R.ONE_TITLE])
        clear_title(d, m.name)
        log.add(f"{source}{m.name} loses the title {m.title}{_capacity_lost(m)}.", R.GOLDEN_RULE, R.ONE_TITLE)
        drain_excess(d, m.name, log)
        return
    if (m.title or "").strip().lower() == e.title.strip().lower():
        raise Refusal(f"{m.name} already holds the title {m.title}", [R.ONE_TITLE])
    rules = [R.GOLDEN_RULE]
    text = f"{source}{m.name} gains the title {e.title}"
    if m.title and m.title_contested:
        text += f" and immediately yields the contested title {m.title}"
        rules.append(R.GAIN_TITLE_YIELDS)
    elif m.title:
        text += f" and loses the title {m.title} (a vampire has one title, even if the new one is a demotion)"
        rules.append(R.ONE_TITLE)
    if m.title:
        clear_title(d, m.name)
        text += _capacity_lost(m)
    d.put_minion(m.name, title=e.title, title_contested=False)
    log.add(text.rstrip(".") + ".", *rules)  # (a title ending in an abbreviation: "Washington, D.C.")
    drain_excess(d, m.name, log)
    contest_title(d, m.name, log)


def clear_title(d: Draft, name: str) -> None:
    """`name` holds no title any more: with it goes the capacity its title's card added (titles.take_effect; the
    ruling on Praxis Seizure: "The additional capacity is lost if the title is lost."). The caller says so in its
    step (`_capacity_lost`) and then drains the blood above the capacity left (helpers.drain_excess)."""
    m = d.minions[name]
    d.put_minion(name, title=None, title_contested=False, capacity=m.capacity - m.title_capacity, title_capacity=0)


def _capacity_lost(m: Minion) -> str:
    """Words for the capacity `m` (as it was) loses with its title, or ""."""
    if not m.title_capacity:
        return ""
    return f", and with it the {m.title_capacity} capacity its card added (capacity {m.capacity - m.title_capacity})"


def change_sect(d: Draft, e: ChangeSect, log: Log) -> None:
    m = minion(d, e.minion)
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: sects are vampires'", [R.SECT_CHANGE])
    sect = e.sect.strip()
    if (m.sect or "").strip().lower() == sect.lower():
        raise Refusal(f"{m.name} is already {m.sect}", [R.SECT_CHANGE])
    if m.title_capacity:
        raise NotModelled(f"{m.name} holds {m.title} with the {m.title_capacity} capacity its card added: whether that "
                          f"capacity holds while a title held outside its sect gives no benefit is not said",
                          [R.TITLE_SECT, R.GOLDEN_RULE])
    anarch = sect.lower() == "anarch"
    d.put_minion(m.name, sect=sect, anarch=anarch)
    source = f"{e.source}: " if e.source else ""
    text = f"{source}{m.name} leaves the {m.sect or 'sect it had'} and is now {sect}"
    rules = [R.GOLDEN_RULE, R.SECT_CHANGE]
    from_politics = _title_sect(m.title)
    if from_politics and from_politics != sect.lower() and not (from_politics == "anarch" and anarch):
        text += (f"; it keeps the title {m.title}, but a {from_politics.title()} title gives no benefit (votes included) "
                 f"until its sect changes back")
        rules.append(R.TITLE_SECT)
    log.add(text + ".", *rules)


def _title_sect(title) -> str | None:
    """The sect a title of the books belongs to, or None."""
    t = (title or "").strip().lower()
    for key, sect in (("inner circle", "camarilla"), ("prince", "camarilla"), ("primogen", "camarilla"),
                      ("justicar", "camarilla"), ("baron", "anarch"), ("archbishop", "sabbat"), ("bishop", "sabbat"),
                      ("cardinal", "sabbat"), ("regent", "sabbat"), ("priscus", "sabbat"), ("kholo", "laibon"),
                      ("magaji", "laibon")):
        if key in t:
            return sect
    return None


# -- the Red List ----------------------------------------------------------------------------------------
def mark_red_list(d: Draft, e: MarkRedList, log: Log) -> None:
    require_seated(d, e.player)
    if e.player != d.turn or d.phase != "master":
        raise Refusal(f"marking a Red List minion uses a master phase action, in {e.player}'s own master phase "
                      f"({d.turn} is in the {d.phase} phase)", [R.RED_LIST_MARK, R.MASTER_IN_PHASE])
    m = minion(d, e.minion)
    if not traits.has(m, "red list"):
        raise Refusal(f"{m.name} is not a Red List minion", [R.RED_LIST_MARK])
    if (m.name, d.turn_number) in d.red_list:
        raise Refusal(f"{m.name} is already marked this turn", [R.RED_LIST_MARK])
    left = d.phase_state().master_actions
    if left < 1:
        raise Refusal(f"{e.player} has no master phase action left", [R.MASTER_ACTIONS, R.RED_LIST_MARK])
    d.put_phase(master_actions=left - 1)
    d.set(red_list=d.red_list + ((m.name, d.turn_number),))
    log.add(f"{e.player} uses a master phase action to mark the Red List minion {m.name} for this turn "
            f"({left - 1} master phase action{'s' if left - 1 != 1 else ''} left).", R.RED_LIST_MARK, R.MASTER_ACTIONS)


RED_LIST_USED = "Red List hunt"


def red_list_hunt(d: Draft, e: RedListHunt, log: Log) -> None:
    m = check_actor(d, e.actor, "red list")
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: only vampires perform the Red List action", [R.RED_LIST_HUNT])
    if RED_LIST_USED in m.used:
        raise Refusal(f"{m.name} already performed the Red List action this turn", [R.RED_LIST_HUNT])
    t = minion(d, e.target)
    if (t.name, d.turn_number) not in d.red_list:
        raise Refusal(f"{t.name} is not a Red List minion marked this turn (a master phase action marks it)",
                      [R.RED_LIST_HUNT, R.RED_LIST_MARK])
    if t.controller == m.controller:
        raise Refusal(f"{t.name} is {m.controller}'s own minion: a Methuselah's minions never fight each other",
                      [R.RED_LIST_HUNT])
    announce(d, log, m, kind="red list", summary=f"{m.name} goes after the Red List minion {t.name}", stealth=1,
             directed=True, targets=(t.controller,), cost=Cost(blood=1), payload=t.name, rules=(R.RED_LIST_HUNT,),
             cost_rules=(R.RED_LIST_HUNT,))
    d.put_minion(m.name, used=d.minions[m.name].used + (RED_LIST_USED,))


def resolve_red_list(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    target = d.minions.get(a.payload)
    if target is None or target.region != READY or target.contested:
        log.add(f"{a.summary} succeeds{paid}, but {a.payload} is no longer ready: no combat.", *rules, R.RED_LIST_HUNT)
        return
    log.add(f"{a.summary} succeeds{paid}: {a.actor} enters combat with {target.name}.", *rules, R.RED_LIST_HUNT)
    combat.start(d, log, a.actor, target.name, cause=a.summary)


# -- allies put into play by an effect --------------------------------------------------------------------
def ally_into_play(d: Draft, e: AllyIntoPlay, log: Log) -> None:
    require_seated(d, e.player)
    if e.life < 1:
        raise Refusal("an ally comes into play with at least 1 life", [R.ALLY_BROUGHT_IN])
    older = R.ALLY_OLDER_REGION.exists_in(d.edition)
    ally = Minion(name=e.ally, controller=e.player, kind=ALLY, card=e.card or e.ally, blood=e.life, bleed=e.bleed,
                  strength=e.strength, region=UNCONTROLLED if older else READY, recruited=True)
    d.minions[ally.name] = ally
    d.set(bank=d.bank - ally.blood)
    where = "the uncontrolled region (controlled, until the end of the turn)" if older else "the ready region"
    source = e.source or "A card's effect"
    log.add(f"{source} puts {ally.name} into play under {e.player}'s control, in {where}, with {ally.blood} life from "
            f"the blood bank; it cannot act this turn.", R.GOLDEN_RULE, R.ALLY_BROUGHT_IN,
            *([R.ALLY_OLDER_REGION] if older else []))
    if e.unique:
        entered_play(d, ally.name, log)


# -- owner and controller -----------------------------------------------------------------------------
def change_control(d: Draft, e: ChangeControl, log: Log) -> None:
    m = minion(d, e.minion)
    require_seated(d, e.player)
    if not m.controlled or m.contested:
        raise Refusal(f"{m.name} is not in play (it is {'contested' if m.contested else m.region})",
                      [R.CONTROL_CHANGE])
    if m.controller == e.player:
        raise Refusal(f"{e.player} already controls {m.name}", [R.CONTROL_CHANGE])
    busy = [x for x in ((d.action_() and d.action_().actor), d.combat and d.combat.acting,
                        d.combat and d.combat.opposing) if x]
    if m.name in busy:
        raise NotModelled(f"control of {m.name} changing during its own action or combat", [R.CONTROL_CHANGE])
    twin = any(o.name != m.name and o.card == m.card and o.controller == e.player and o.controlled
               for o in d.minions.values())
    if twin and m.kind != VAMPIRE:  # (a vampire is unique; an ally only when its card says so, not read here)
        raise NotModelled(f"{e.player} would control two copies of {m.card}: whether that ally card is unique (the "
                          f"incoming copy then burned) or not (both kept) is not read", [R.CONTEST_SELF, R.CONTROL_CHANGE])
    owner = m.owner or m.controller
    d.put_minion(m.name, controller=e.player, owner=None if owner == e.player else owner,
                 recruited=m.recruited, bled=m.bled)
    source = f"{e.source}: " if e.source else ""
    whose = (f"{owner} still owns it: burned, it goes to {owner}'s ash heap, and it returns to {owner} at the end of "
             f"the game" if owner != e.player else f"{e.player} owns it")
    log.add(f"{source}{e.player} takes control of {m.name} from {m.controller} ({whose}).", R.GOLDEN_RULE,
            R.CONTROL_CHANGE, *([R.OWNER_ASH_HEAP] if owner != e.player else []))
    if twin:
        burned = remove_minion(d, m.name)
        extra = f", with its {burned} counters" if burned else ""
        log.add(f"{e.player} already controls {m.card}: a Methuselah never contests a card with themself, so "
                f"{m.name} is burned{extra}, to {owner}'s ash heap.", R.CONTEST_SELF, R.OWNER_ASH_HEAP, R.BLOOD_BANK)


# -- unique locations and equipment -----------------------------------------------------------------------
def same_card(a: str, b: str) -> bool:
    """Two names of one card: case, spacing and a leading article aside ("The Ankara Citadel", "Ankara Citadel")."""
    return _bare(a) == _bare(b)


def _bare(name: str) -> str:
    words = name.strip().lower().split()
    return " ".join(words[1:] if len(words) > 1 and words[0] in ("the", "a", "an") else words)


def _copies(d: Draft, name: str) -> list:
    """Where a card of that name is in play: minions' equipment (as (bearer, None)) and cards (as (None, Card))."""
    out = [(m, None) for m in d.minions.values() if m.controlled and any(same_card(x, name) for x in m.equipment)]
    return out + [(None, c) for c in d.cards if same_card(c.name, name)]


def unique_entered(d: Draft, log: Log, name: str, player: str, kind: str, bearer: str | None = None,
                   incoming: Card | None = None) -> None:
    """A unique location (`incoming`) or equipment card (on `bearer`) has just come into play under `player`: burned
    if `player` already controls a copy; contested with the copies other Methuselahs control."""
    others = [(m, c) for m, c in _copies(d, name) if c is not incoming or c is None]
    others = [(m, c) for m, c in others if not (m is not None and m.name == bearer and not _twice(m, name))]
    mine = [x for x in others if (x[0].controller if x[0] else x[1].controller) == player]
    if mine:
        _take_off(d, player, name, kind, bearer)
        log.add(f"{player} already controls {name}: a Methuselah never contests a card with themself, so the incoming "
                f"copy is burned.", R.CONTEST_SELF)
        return
    if not others:
        return
    _take_off(d, player, name, kind, bearer)
    # (a location keeps what its card gives, its "+1 hand size.", for when it turns face up again)
    new = [replace(incoming, contested=True) if incoming is not None else Card(name, player, kind, bearer,
                                                                               contested=True)]
    for m, c in others:
        if m is not None:  # equipment on another Methuselah's minion: off it, face down
            left = list(m.equipment)
            theirs = next(x for x in left if same_card(x, name))
            left.remove(theirs)
            d.put_minion(m.name, equipment=tuple(left))
            new.append(Card(theirs, m.controller, "equipment", m.name, contested=True))
    d.set(cards=tuple(c if not same_card(c.name, name) else replace(c, contested=True)
                      for c in d.cards if c is not incoming) + tuple(new))
    holders = names([x[0].controller if x[0] else x[1].controller for x in others])
    log.add(f"{name} is unique and {holders} already {'has' if len(others) == 1 else 'have'} it in play: the copies are "
            f"contested, face down and out of play, until all but one is yielded; each Methuselah pays 1 pool in each "
            f"unlock phase to keep contesting.", R.UNIQUE_IN_PLAY, R.CONTEST_CARD_OUT, R.CONTEST_CARD)


def _twice(m: Minion, name: str) -> bool:
    return sum(same_card(x, name) for x in m.equipment) > 1


def _take_off(d: Draft, player: str, name: str, kind: str, bearer: str | None) -> None:
    """The incoming copy leaves where it was put: off its bearer, or out of the player's locations."""
    if kind == "equipment" and bearer in d.minions:
        left = list(d.minions[bearer].equipment)
        left.reverse()
        left.remove(name)
        left.reverse()
        d.put_minion(bearer, equipment=tuple(left))
    elif kind == "location":
        cards = list(d.cards)
        for i in range(len(cards) - 1, -1, -1):
            if same_card(cards[i].name, name) and cards[i].controller == player and not cards[i].contested:
                del cards[i]
                break
        d.set(cards=tuple(cards))


def location_played(d: Draft, log: Log, name: str, player: str, unique: bool,
                    hand_size: tuple[int, str] = (0, ""), transfers: tuple[int, str] = (0, "")) -> None:
    card = Card(name, player, "location", hand_size=hand_size[0], said=hand_size[1], transfers=transfers[0],
                transfers_said=transfers[1])
    d.set(cards=d.cards + (card,))
    log.add(f"{name}, a location, stays in play under {player}'s control.", R.GOLDEN_RULE)
    if unique:
        unique_entered(d, log, name, player, "location", incoming=card)


def contested_card_of(d: Draft, player: str, name: str):
    return next((c for c in d.cards if c.contested and c.controller == player and same_card(c.name, name)), None)


def _card_rivals(d: Draft, card: Card) -> list:
    return [c for c in d.cards if c is not card and c.contested and same_card(c.name, card.name)]


def contest_card(d: Draft, e: ContestCard, log: Log) -> None:
    """Pay 1 pool to keep contesting a location or equipment card, or yield it (burned)."""
    card = contested_card_of(d, e.player, e.card)
    key = f"card:{card.name}"
    if key in d.phase_state().paid:
        raise Refusal(f"{e.player} already paid or yielded for {card.name} this unlock phase", [R.CONTEST_CARD])
    if e.pay:
        if d.players[e.player].pool < 1:
            raise Refusal(f"{e.player} has no pool to pay for the contest", [R.CONTEST_CARD])
        pool(d, e.player, -1)
        log.add(f"{e.player} pays 1 pool to keep contesting {card.name} ({d.players[e.player].pool} pool left); it "
                f"stays face down and out of play.", R.CONTEST_CARD, R.CONTEST_CARD_OUT)
    else:
        d.set(cards=tuple(c for c in d.cards if c is not card))
        log.add(f"{e.player} yields {card.name}: the card is burned.", R.CONTEST_CARD_YIELD)
    d.put_phase(paid=d.phase_state().paid + (key,))


def unpaid_card_contest(d: Draft) -> Card | None:
    """A location or equipment card the Methuselah whose unlock phase ends has neither paid for nor yielded."""
    paid = d.phase_state().paid
    return next((c for c in d.cards if c.contested and c.controller == d.turn and _card_rivals(d, c)
                 and f"card:{c.name}" not in paid), None)


def end_card_contests(d: Draft, log: Log, player: str) -> None:
    """At `player`'s unlock phase, a contested card whose rivals were all yielded turns face up (equipment back on its
    bearer; burned with it if the bearer has left play)."""
    for card in [c for c in d.cards if c.contested and c.controller == player and not _card_rivals(d, c)]:
        rest = tuple(c for c in d.cards if c is not card)
        if card.kind == "location":
            d.set(cards=rest + (replace(card, controller=player, contested=False),))
            log.add(f"Every other copy of {card.name} was yielded: it turns face up, in play.", R.CONTEST_CARD_END)
        elif card.bearer in d.minions and d.minions[card.bearer].controlled:
            d.set(cards=rest)
            d.put_minion(card.bearer, equipment=d.minions[card.bearer].equipment + (card.name,))
            log.add(f"Every other copy of {card.name} was yielded: it turns face up on {card.bearer}.",
                    R.CONTEST_CARD_END)
        else:
            d.set(cards=rest)
            log.add(f"Every other copy of {card.name} was yielded, but {card.bearer} has left play: {card.name} is "
                    f"burned with it.", R.CONTEST_CARD_END, R.CONTEST_CARD_YIELD)


# -- a slave taking its master's place in combat ------------------------------------------------------------
def slave_takes_over(d: Draft, e: SlaveTakesOver, log: Log) -> None:
    s = minion(d, e.slave)
    master = traits.slave_master(s)
    if not master:
        raise Refusal(f"{s.name} is not a slave", [R.SLAVE_COMBAT])
    c = d.combat
    blocked = d.minions.get(c.acting) if c is not None and c.action is not None else None
    if blocked is None:
        raise Refusal(f"{s.name} takes a blocked vampire's place only in the combat its blocked action caused",
                      [R.SLAVE_COMBAT])
    if e.master and e.master != blocked.name:
        raise Refusal(f"the blocked vampire in this combat is {blocked.name}, not {e.master}", [R.SLAVE_COMBAT])
    if blocked.controller != s.controller or (blocked.clan or "").strip().lower() != master:
        raise Refusal(f"{blocked.name} is not a {master.title()} of {s.controller}'s: {s.name} serves only those",
                      [R.SLAVE_COMBAT])
    if c.round != 1 or c.step != "before range" or c.last_maneuver or c.chosen:
        raise Refusal("the combat has begun: the slave cancels it as it is entered", [R.SLAVE_COMBAT])
    if not s.ready or s.locked:
        raise Refusal(f"{s.name} must be ready and unlocked to lock for this", [R.SLAVE_COMBAT])
    d.put_minion(s.name, locked=True)
    d.put_minion(blocked.name, locked=False)
    d.set(combat=None)  # (the blocked action goes on in the slave's combat, and resolves as that one ends)
    if c.unreplaced:  # the cancelled combat is over: its cards not replaced until after combat are
        draw_after_combat(d, log, c.unreplaced)
    log.add(f"{s.controller} locks {s.name}, a slave to the {master.title()}: the combat between {blocked.name} and "
            f"{c.opposing} is cancelled, {blocked.name} unlocks, and {s.name} enters combat with {c.opposing} "
            f"instead.", R.SLAVE_COMBAT)
    combat.start(d, log, s.name, c.opposing, action=c.action, cause=f"{s.name} in {blocked.name}'s place")
