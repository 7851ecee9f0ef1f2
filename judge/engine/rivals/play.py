"""The Rivals transitions: `apply(state, event) -> (state, entries)`, pure and deterministic, as the V:TES
engine's core.apply. Each handler works on a copy of the state, checks the move against the rulebook
(`Refusal` with the rule that forbids it; `NotModelled` with the paragraphs to read) and writes what
happened with the rules it applied (rules.py). What stays open between events (an attack, a Prince claim,
a Scheme's Influence conflict) admits only its own events (`ADMITS`); any other event first lets it finish
as the book says it does when nothing more is played (`settle`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.rivals import rules as R
from judge.engine.rivals.state import (ATTACK_TYPES, HAVEN, STEP_NAMES, STREETS, TORPOR, WIN_AGENDA, Attachment,
                                       Attack, Claim, Conspiracy, GameState, Mortal, Scheme, Vampire)


@dataclass(frozen=True)
class Entry:
    text: str
    rules: tuple = ()


class Log:
    def __init__(self):
        self.entries: list[Entry] = []

    def add(self, text: str, *rules) -> None:
        self.entries.append(Entry(text, tuple(rules)))


@dataclass
class Event:
    """One event of a Rivals scenario: its kind (the structured form's key), its arguments, its line."""

    kind: str
    args: dict
    line: Optional[int] = None
    text: Optional[str] = None

    def describe(self) -> str:
        if self.text:
            return self.text
        head = self.args.get(self.kind)

        def shown(v):
            if isinstance(v, dict):
                return v["name"] if "name" in v else "{" + ", ".join(f"{k}: {shown(x)}" for k, x in v.items()) + "}"
            if isinstance(v, list):
                return ", ".join(map(shown, v))
            return str(v)

        if isinstance(head, (dict, list)):
            head = shown(head)
        rest = ", ".join(f"{k}: {shown(v)}" for k, v in self.args.items() if k not in (self.kind, "text"))
        return f"{self.kind.replace('_', ' ')}" + (f" {head}" if head not in (None, True) else "") + (
            f" ({rest})" if rest else "")


# -- lookups and checks --------------------------------------------------------------------------------
def vampire(st: GameState, name: str) -> Vampire:
    v = st.vampires.get(name)
    if v is None:
        raise Refusal(f"{name} is not in play (burned, or never there)", [R.TORPOR_INACTIVE])
    return v


def player(st: GameState, name: str):
    p = st.players.get(name)
    if p is None:
        raise Refusal(f"{name} is not a player of this game", [R.TURN])
    if p.knocked_out:
        raise Refusal(f"{name} has been knocked out", [R.GAME_END])
    return p


def need_step(st: GameState, step: str, rule, what: str, card: bool = False) -> None:
    """`what` only in `step`; a card (`card`) in the End Phase is refused for the End Phase's own reason."""
    if card and st.phase == "end":
        raise Refusal(f"no cards are played in the End Phase ({what}); it is {st.turn}'s "
                      f"{st.step.replace('_', ' ')} step", [R.END_PHASE])
    if st.step != step:
        raise Refusal(f"{what} only in the {step.replace('_', ' ')} step; it is {st.turn}'s "
                      f"{st.step.replace('_', ' ')} step", [rule])


def own_ready(st: GameState, name: str, rule, what: str) -> Vampire:
    v = vampire(st, name)
    if v.controller != st.turn:
        raise Refusal(f"{name} is {v.controller}'s; {what} is done by the active player, {st.turn}", [rule])
    if not v.active:
        raise Refusal(f"{name} is in torpor and cannot act", [R.TORPOR_INACTIVE])
    if v.exhausted:
        raise Refusal(f"{name} is exhausted: {what} needs a ready vampire", [rule])
    return v


def spend_action(st: GameState, log: Log) -> None:
    if st.actions_left <= 0:
        raise Refusal(f"{st.turn} has used both actions of this turn", [R.TWO_ACTIONS])
    st.actions_left -= 1


def check_bp(v: Vampire, card: str, bp: int) -> None:
    if bp > v.bp:
        raise Refusal(f"{card} needs Blood Potency {bp}; {v.name} has {v.bp}", [R.BP_LIMIT])


def check_clan(st: GameState, who: str, card: str, clan: Optional[str]) -> None:
    if clan and not any((v.clan or "").lower() == clan.lower() for v in st.coterie(who)):
        raise Refusal(f"{card} is a {clan} card and {who} has no active {clan} vampire", [R.CLAN_CARD])


def pay_prestige(st: GameState, who: str, n: int, what: str) -> None:
    p = st.players[who]
    if n <= 0:
        return
    if p.prestige - n < 1:
        raise Refusal(f"{who} has {p.prestige} Prestige and cannot spend {n} on {what}: never the last point",
                      [R.LAST_PRESTIGE])
    p.prestige -= n


def pay_blood(v: Vampire, n: int, what: str) -> None:
    if n <= 0:
        return
    if v.blood - n < 1:
        raise Refusal(f"{v.name} has {v.blood} Blood and cannot pay {n} for {what}: never the last Blood",
                      [R.LAST_BLOOD])
    v.blood -= n


def discard(st: GameState, who: str, n: int, what: str) -> None:
    p = st.players[who]
    if n > p.hand:
        raise Refusal(f"{who} has {p.hand} card(s) in hand and cannot discard {n} for {what}", [R.DISCARD])
    p.hand -= n


def play_card(st: GameState, who: str, card: str) -> None:
    p = st.players[who]
    if p.hand < 1:
        raise Refusal(f"{who} has no card in hand to play {card}", [R.DISCARD])
    p.hand -= 1


def draw(st: GameState, log: Log, who: str, source: Optional[str], n: int, rule, as_many: bool = False) -> None:
    p = st.players[who]
    for i in range(n):
        deck = source or ("library" if p.library is None or p.library > 0 else "faction")
        left = getattr(p, deck)
        if left is not None and left <= 0:
            if as_many:  # the Draw step: nothing happens when out of cards
                log.add(f"{who}'s Library and Faction Deck are empty: {n - i} card(s) not drawn; nothing happens.",
                        R.OUT_OF_CARDS_NOTHING)
                n = i
                break
            raise Refusal(f"{who}'s {'Library' if deck == 'library' else 'Faction Deck'} is empty", [R.OUT_OF_CARDS])
        if left is not None:
            setattr(p, deck, left - 1)
        p.hand += 1
    deck_name = {"library": "Library", "faction": "Faction Deck"}.get(source or "")
    log.add(f"{who} draws {n} card{'s' if n != 1 else ''}" + (f" from the {deck_name}" if deck_name else "")
            + f" ({p.hand} in hand).", rule)


# -- damage, torpor, the Prince ----------------------------------------------------------------------------
def attach(st: GameState, log: Log, v: Vampire, card: Attachment) -> None:
    if len(v.attachments) >= 3:
        victim = next((a for a in v.attachments if a.kind != "title"), None)
        if card.kind == "title" and v.title is None and victim is None:
            raise NotModelled(f"{v.name} has 3 attachments and none can make room", [R.ATTACHMENTS])
        if victim is not None:
            v.attachments.remove(victim)
            log.add(f"{v.name} has 3 attachments: {victim.name} is burned to make room.", R.ATTACHMENTS)
    v.attachments.append(card)


def take_prince(st: GameState, log: Log, v: Vampire) -> None:
    old = v.title
    if old is not None and old.name != "Prince of the City":
        v.attachments.remove(old)
        log.add(f"{v.name}'s Title {old.name} is discarded for the Prince of the City.", R.CLAIM_RESULT)
    attach(st, log, v, Attachment("Prince of the City", "title"))
    st.prince = v.name


def defeat(st: GameState, log: Log, v: Vampire, aggravated: bool, by: Optional[str], by_player: Optional[str]) -> None:
    """`v` has no Blood left: burned (Aggravated damage) or into torpor; the Prince and the Rival's Agenda."""
    owner = st.players[v.controller]
    if by_player and st.players[by_player].rival == v.controller and by_player != v.controller:
        st.players[by_player].agenda += 1
        log.add(f"{v.name} is a vampire of {by_player}'s Rival: {by_player} gains 1 Agenda "
                f"({st.players[by_player].agenda}).", R.RIVAL_VAMPIRE)
    if by_player:
        st.blame[v.controller] = by_player
    elif v.controller not in st.blame:
        st.blame[v.controller] = None
    if st.prince == v.name:
        v.attachments = [a for a in v.attachments if a.name != "Prince of the City"]
        winner = st.vampires.get(by) if by else None
        if winner is not None and winner.active and winner.name != v.name:
            take_prince(st, log, winner)
            log.add(f"{winner.name} defeated the Prince and takes the Prince of the City.", R.PRINCE_DEFEATED)
        else:
            st.prince = "streets"
            log.add("The Prince was not defeated by a vampire: the Prince of the City returns to The Streets.",
                    R.PRINCE_DEFEATED)
    if aggravated:
        del st.vampires[v.name]
        log.add(f"{v.name} is reduced to 0 Blood by Aggravated damage and is burned with all attached cards.",
                R.AGGRAVATED)
        return
    v.exhausted, v.location, v.party, v.no_influence = True, TORPOR, 0, False
    gone = [a.name for a in v.attachments if a.kind != "title"]
    v.attachments = [a for a in v.attachments if a.kind == "title"]
    paid = 1 if owner.prestige >= 1 else 0
    owner.prestige -= paid
    v.blood = paid
    log.add(f"{v.name} has 0 Blood and goes into torpor" + (f" ({', '.join(gone)} burned or discarded)" if gone else "")
            + f"; {v.controller} places 1 Prestige on it as its Blood ({owner.prestige} Prestige left).", R.TORPOR)


def lose_blood(st: GameState, log: Log, v: Vampire, n: int, aggravated: bool = False, by: Optional[str] = None,
               by_player: Optional[str] = None) -> int:
    taken = min(max(n, 0), v.blood)
    v.blood -= taken
    if v.blood == 0 and v.active:
        defeat(st, log, v, aggravated, by, by_player)
    return taken


def mend(v: Vampire, n: int) -> int:
    gained = max(0, min(n, v.bp - v.blood))
    v.blood += gained
    return gained


def return_from_torpor(st: GameState, log: Log, v: Vampire) -> None:
    if v.location == TORPOR and v.blood >= v.bp and v.controller == st.turn:
        v.location, v.exhausted, v.party = HAVEN, False, 0
        log.add(f"{v.name} is at full Blood in torpor during {v.controller}'s turn: it readies and returns to the "
                f"Haven.", R.TORPOR_RETURN)


# -- described card effects -------------------------------------------------------------------------------
def apply_effect(st: GameState, log: Log, effect: Optional[dict], by_player: Optional[str], what: str) -> None:
    """What a card does, as the scenario describes it: Prestige, Agenda, Blood, draws, discards."""
    if not effect:
        return

    def players_of(key: str) -> list:
        if key in ("each", "all", "everyone"):
            return [p for p in st.seating if not st.players[p].knocked_out]
        player(st, key)
        return [key]

    for kind, changes in effect.items():
        for key, n in changes.items():
            if kind in ("prestige", "agenda", "draw", "discard"):
                for p in players_of(key):
                    pl = st.players[p]
                    if kind == "prestige":
                        before = pl.prestige
                        pl.prestige = max(0, pl.prestige + n)
                        if n < 0 and by_player != p:
                            st.blame[p] = by_player
                        log.add(f"{what}: {p} {'gains' if n >= 0 else 'loses'} {abs(pl.prestige - before)} Prestige "
                                f"({pl.prestige}).", R.CARD_TEXT)
                    elif kind == "agenda":
                        pl.agenda = max(0, pl.agenda + n)
                        log.add(f"{what}: {p} {'gains' if n >= 0 else 'loses'} {abs(n)} Agenda ({pl.agenda}).",
                                R.CARD_TEXT)
                    elif kind == "draw":
                        draw(st, log, p, None, n, R.CARD_TEXT)
                    else:
                        discard(st, p, n, what)
                        log.add(f"{what}: {p} discards {n} ({pl.hand} in hand).", R.CARD_TEXT, R.DISCARD)
            elif kind == "blood":
                v = vampire(st, key)
                if n >= 0:
                    got = mend(v, n)
                    log.add(f"{what}: {v.name} mends {got} Blood ({v.blood}/{v.bp}).", R.CARD_TEXT, R.MEND_CAP)
                    return_from_torpor(st, log, v)
                else:
                    lost = lose_blood(st, log, v, -n, by_player=by_player if by_player != v.controller else None)
                    log.add(f"{what}: {v.name} loses {lost} Blood ({v.blood}/{v.bp}); losing Blood is not damage.",
                            R.CARD_TEXT, R.COST_NOT_DAMAGE)
            else:
                raise NotModelled(f"the effect {kind!r} of {what}", [R.CARD_TEXT])


# -- the turn ------------------------------------------------------------------------------------------------
def enter_step(st: GameState, log: Log, step: str) -> None:
    st.step = step
    me = st.turn
    if step == "city_deck":
        st.turn_number += 1
        st.players[me].played_first_turn = True
        st.used_abilities, st.mended, st.drawn_in_step, st.sad_assigned, st.city_placed = [], [], 0, 0, 0
        for c in st.conspiracies.values():
            c.added_this_turn = []
        burned = [e for e, p in st.ongoing_events if p == me]
        st.ongoing_events = [(e, p) for e, p in st.ongoing_events if p != me]
        log.add(f"{me}'s turn begins: City Deck step" + (f"; {', '.join(burned)} (Ongoing Event with {me}'s token) "
                                                          f"is burned" if burned else "") + ".", R.TURN, R.CITY_STEP)
    elif step == "start_of_turn":
        cleared = [v.name for v in st.vampires.values() if v.controller == me and v.no_influence]
        for v in st.vampires.values():
            if v.controller == me:
                v.no_influence = False
        log.add("Start of Turn step: 'at the start of your turn' effects happen now"
                + (f"; 'No Influence' tokens removed from {', '.join(cleared)}" if cleared else "") + ".",
                R.START_OF_TURN)
    elif step == "ready_return":
        for v in st.vampires.values():
            if v.controller != me:
                continue
            for a in v.attachments:
                a.exhausted = False
            if v.location == TORPOR:
                return_from_torpor(st, log, v)
                continue
            v.exhausted, v.location, v.party = False, HAVEN, 0
        log.add(f"Ready and Return step: {me}'s cards ready and {me}'s vampires return to the Haven.", R.READY_RETURN)
    elif step == "actions":
        st.actions_left = 2
        log.add(f"Action Phase: {me} has 2 actions.", R.TWO_ACTIONS)
    elif step == "torpor_mending":
        names = []
        for v in list(st.vampires.values()):
            if v.controller == me and v.location == TORPOR:
                mend(v, 1)
                names.append(f"{v.name} {v.blood}/{v.bp}")
        log.add("End Phase: Torpor and Mending step" + (f"; 1 Blood on each vampire in torpor ({', '.join(names)})"
                                                        if names else "") + ".", R.END_PHASE, R.TORPOR_STEP)
        for v in list(st.vampires.values()):
            if v.controller == me:
                return_from_torpor(st, log, v)
    elif step == "end_of_turn":
        log.add("End of Turn step: 'at the end of your turn' cards resolve now.", R.END_OF_TURN)
    elif step == "antagonist":
        n = st.sad_count()
        log.add(f"Antagonist step: {n} Special Affairs Division in The Streets" + (
            f" deal {n} Aggravated damage to {me}'s coterie (assign it: {{antagonist: ...}})" if n else "") + ".",
                R.ANTAGONIST)
    elif step == "draw":
        log.add("Draw step.", R.DRAW_STEP)


def leave_step(st: GameState, log: Log) -> None:
    me = st.turn
    if st.step == "city_deck" and st.city_placed == 0:
        if st.city_deck == 0 and st.city_discard == 0:
            log.add("The City Deck and its discard pile are empty: no card is added to The Streets.", R.CITY_EMPTY)
        else:
            _take_city_card(st, log)
            st.streets_cards.append("a City Deck card")
            log.add("The top City Deck card is placed into The Streets (the scenario does not say which).",
                    R.CITY_STEP)
    elif st.step == "antagonist" and st.sad_count() and st.sad_assigned < st.sad_count():
        raise Refusal(f"{me} must assign the {st.sad_count()} Aggravated damage of the Special Affairs Division "
                      f"({st.sad_assigned} assigned) before the Draw step", [R.ANTAGONIST])
    elif st.step == "draw" and st.drawn_in_step < 2:
        n = 2 - st.drawn_in_step
        draw(st, log, me, None, n, R.DRAW_STEP, as_many=True)
        st.drawn_in_step = 2


def _take_city_card(st: GameState, log: Log) -> None:
    if st.city_deck is None:
        return
    if st.city_deck == 0:
        st.city_deck, st.city_discard = st.city_discard, 0
        log.add("The City Deck is empty: its discard pile is shuffled to form a new City Deck.", R.CITY_EMPTY)
    st.city_deck -= 1


def go_to(st: GameState, log: Log, target: str) -> None:
    """Play on through the steps to `target` (of this turn, or the next turn when it is earlier)."""
    if target == st.step:
        return
    guard = 0
    while st.step != target and not st.result.over:
        guard += 1
        if guard > 20:
            raise Refusal(f"no step {target!r} ahead", [R.TURN])
        leave_step(st, log)
        i = STEP_NAMES.index(st.step)
        if i + 1 < len(STEP_NAMES):
            enter_step(st, log, STEP_NAMES[i + 1])
        else:
            nxt = st.next_player(st.turn)
            log.add(f"{st.turn}'s turn ends; play proceeds to the left: {nxt}.", R.DRAW_STEP)
            st.turn = nxt
            enter_step(st, log, "city_deck")


def h_phase(st: GameState, ev: Event, log: Log) -> None:
    want = ev.args.get("phase") or ev.args.get("step")
    first = {"beginning": "city_deck", "action": "actions", "end": "torpor_mending"}.get(want, want)
    if first not in STEP_NAMES:
        raise Refusal(f"no phase or step {want!r}", [R.TURN])
    if STEP_NAMES.index(first) < STEP_NAMES.index(st.step):
        raise Refusal(f"the {want.replace('_', ' ')} is behind: it is {st.turn}'s {st.step.replace('_', ' ')} step "
                      f"(say end_turn to go on to the next turn)", [R.TURN, R.END_PHASE])
    go_to(st, log, first)


def h_end_turn(st: GameState, ev: Event, log: Log) -> None:
    me = st.turn
    while st.turn == me and not st.result.over:
        go_to(st, log, "city_deck" if st.step != "city_deck" else "start_of_turn")
        if st.step != "city_deck":
            break


def h_turn(st: GameState, ev: Event, log: Log) -> None:
    who = ev.args["turn"]
    player(st, who)
    for _ in range(len(st.seating) * 2):
        if st.turn == who and st.step == "city_deck":
            return
        h_end_turn(st, ev, log)
        check_end(st, log)
        if st.result.over:
            return


def h_city(st: GameState, ev: Event, log: Log) -> None:
    need_step(st, "city_deck", R.CITY_STEP, "a City Deck card is placed")
    card = ev.args["city"]
    allowed = len([p for p in st.players.values() if not p.knocked_out]) if ev.args.get("first_turn") or \
        st.first_turn_city else 1
    if st.city_placed >= allowed:
        raise Refusal(f"{st.turn} places {allowed} City Deck card{'s' if allowed > 1 else ''} this step",
                      [R.CITY_FIRST_TURN if allowed > 1 else R.CITY_STEP])
    if st.city_deck == 0 and st.city_discard == 0:
        raise Refusal("the City Deck and its discard pile are empty", [R.CITY_EMPTY])
    _take_city_card(st, log)
    st.city_placed += 1
    name, kind = card["name"], card.get("kind", "card")
    if kind in ("vagrant", "citizen", "sad", "mortal"):
        if name in st.mortals or name in st.vampires:
            raise Refusal(f"{name} is already in play; name the second copy differently", [R.CITY_STEP])
        st.mortals[name] = Mortal(name, int(card.get("blood", 1)), kind, int(card.get("agenda", 0)), card.get("mend"),
                                  int(card.get("prevent", 0)))
        log.add(f"{name} ({kind}, {card.get('blood', 1)} Blood) is placed into The Streets.", R.CITY_STEP)
    elif kind == "prince":
        if st.prince != "deck":
            raise Refusal("the Prince of the City is already out of the City Deck (there is one)", [R.CLAIM_PRINCE])
        st.prince = "streets"
        log.add("The Prince of the City emerges into The Streets: it can be claimed.", R.CITY_STEP, R.CLAIM_PRINCE)
    elif kind == "ongoing_event":
        st.ongoing_events.append((name, st.turn))
        log.add(f"{name} is an Ongoing Event: {st.turn} puts a token on it; it stays until {st.turn}'s next turn.",
                R.CITY_STEP, R.CITY_EVENTS)
        apply_effect(st, log, card.get("effect"), None, name)
    elif kind == "event":
        log.add(f"{name} is an Event: it resolves, then is burned.", R.CITY_STEP, R.CITY_EVENTS)
        apply_effect(st, log, card.get("effect"), None, name)
    else:
        st.streets_cards.append(name)
        log.add(f"{name} is placed into The Streets.", R.CITY_STEP)


# -- moving and parties --------------------------------------------------------------------------------------
def h_move(st: GameState, ev: Event, log: Log) -> None:
    names = ev.args["move"]
    if st.step != "actions":
        raise Refusal(f"vampires move to The Streets only during the Action Phase; it is the "
                      f"{st.step.replace('_', ' ')} step", [R.MOVE_STREETS])
    party = st.next_party
    st.next_party += 1
    for name in names:
        v = own_ready(st, name, R.MOVE_STREETS, "moving to The Streets")
        if v.location != HAVEN:
            raise Refusal(f"{name} is already in The Streets (vampires there cannot move to the Haven)",
                          [R.STREETS_NO_RETURN])
        v.location, v.party = STREETS, party
    log.add(f"{' and '.join(names)} move{'s' if len(names) == 1 else ''} to The Streets"
            + (" as a party" if len(names) > 1 else "") + " (no action spent).", R.MOVE_STREETS, R.STREETS_NO_RETURN)


def h_party(st: GameState, ev: Event, log: Log) -> None:
    names = ev.args["party"]
    if st.step != "actions":
        raise Refusal("parties are rearranged during the Action Phase", [R.PARTIES])
    vs = []
    for name in names:
        v = vampire(st, name)
        if v.controller != st.turn or v.location != STREETS:
            raise Refusal(f"{name} is not one of {st.turn}'s vampires in The Streets", [R.PARTIES])
        vs.append(v)
    tired = {v.party for v in vs if v.exhausted}
    if len(tired) > 1:
        raise Refusal("exhausted vampires cannot change parties: they stay in their own parties", [R.PARTIES])
    party = tired.pop() if tired else st.next_party
    st.next_party += 1
    for v in vs:
        v.party = party
    log.add(f"{', '.join(names)} form a party in The Streets.", R.PARTIES)


# -- unhosted actions ------------------------------------------------------------------------------------
def h_draw_action(st: GameState, ev: Event, log: Log) -> None:
    who = ev.args["draw_action"]
    player(st, who)
    if who != st.turn:
        raise Refusal(f"it is {st.turn}'s turn", [R.TWO_ACTIONS])
    need_step(st, "actions", R.TWO_ACTIONS, "an action")
    spend_action(st, log)
    log.add(f"{who} takes the unhosted action Draw 1 Card (no vampire exhausts; {st.actions_left} action(s) left).",
            R.DRAW_ACTION, R.EXHAUST_TO_ACT)
    draw(st, log, who, ev.args.get("from"), 1, R.DRAW_ACTION)


def h_draw(st: GameState, ev: Event, log: Log) -> None:
    who = ev.args["draw"]
    player(st, who)
    n = int(ev.args.get("cards", 1))
    need_step(st, "draw", R.DRAW_STEP, "drawing (an action draw is {draw_action: ...})")
    if who != st.turn:
        raise Refusal(f"the Draw step is {st.turn}'s", [R.DRAW_STEP])
    if st.drawn_in_step + n > 2:
        raise Refusal(f"{who} draws 2 cards in the Draw step ({st.drawn_in_step} drawn)", [R.DRAW_STEP])
    draw(st, log, who, ev.args.get("from"), n, R.DRAW_STEP)
    st.drawn_in_step += n


def h_recruit(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    name, who = a["recruit"], a.get("player", st.turn)
    player(st, who)
    if who != st.turn:
        raise Refusal(f"{who} recruits only during their own Action Phase", [R.RECRUIT])
    need_step(st, "actions", R.RECRUIT, "recruiting")
    same = st.vampires.get(name)
    if same is not None and same.active:
        raise Refusal(f"{name} is active and in play ({same.controller}'s): no second vampire of that name",
                      [R.UNIQUE_VAMPIRE])
    bp = int(a["bp"])
    spend_action(st, log)
    pay_prestige(st, who, bp, f"recruiting {name}")
    play_card(st, who, name)
    if same is not None:
        del st.vampires[name]
        log.add(f"The {name} in {same.controller}'s torpor is burned, with its Title (if any).", R.UNIQUE_VAMPIRE)
    st.vampires[name] = Vampire(name, who, bp, bp, int(a.get("physical", 0)), int(a.get("social", 0)),
                                int(a.get("mental", 0)), a.get("clan"), tuple(a.get("disciplines") or ()), HAVEN,
                                guard=bool(a.get("guard", False)), influence=int(a.get("influence", 0)))
    log.add(f"{who} recruits {name} into the Haven (unhosted action): {bp} Prestige becomes its Blood "
            f"({st.players[who].prestige} Prestige left; {st.actions_left} action(s) left).", R.RECRUIT, R.EXHAUST_TO_ACT)


# -- action cards ---------------------------------------------------------------------------------------------
def h_action_card(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    by, card = a["action_card"], a.get("card", "an Action card")
    need_step(st, "actions", R.ACTION_CARD, "an Action card", card=True)
    unhosted = bool(a.get("unhosted", False))
    if by in st.players:
        if not unhosted:
            raise Refusal(f"{card} is an Action card: a vampire of {by}'s exhausts to play it (unhosted: true for an "
                          f"Unhosted Action)", [R.ACTION_CARD])
        who = by
        player(st, who)
        if who != st.turn:
            raise Refusal(f"it is {st.turn}'s turn", [R.TWO_ACTIONS])
    else:
        v = own_ready(st, by, R.ACTION_CARD, f"playing {card}")
        who = v.controller
        check_bp(v, card, int(a.get("bp", 0)))
    check_clan(st, who, card, a.get("clan"))
    spend_action(st, log)
    pay_prestige(st, who, int(a.get("prestige", 0)), card)
    play_card(st, who, card)
    if not unhosted:
        st.vampires[by].exhausted = True
    log.add(f"{by} plays {card}" + (" (unhosted: no vampire exhausts)" if unhosted else f", exhausting {by}")
            + f"; {st.actions_left} action(s) left.", R.ACTION_CARD, R.EXHAUST_TO_ACT)
    apply_effect(st, log, a.get("effect"), who, card)
    if a.get("says"):
        log.add(f"{card}: {a['says']} (described, not applied).", R.CARD_TEXT)
    if a.get("ongoing"):
        st.ongoing_cards.append((card, who))
        log.add(f"{card} is Ongoing: it stays in play near {who}'s Haven.", R.ACTION_CARD, R.ONGOING)
    else:
        log.add(f"{card} is discarded once resolved.", R.ACTION_CARD)


# -- attacks -------------------------------------------------------------------------------------------------
def _party_of(st: GameState, v: Vampire) -> list:
    if v.location == HAVEN:
        return [w for w in st.vampires.values() if w.controller == v.controller and w.location == HAVEN]
    if v.location == STREETS:
        return [w for w in st.vampires.values() if w.controller == v.controller and w.location == STREETS
                and w.party == v.party]
    return []


def _secrecy(st: GameState, v: Vampire) -> int:
    if st.prince == v.name:
        return 0
    return (1 if v.location == HAVEN else 0) + v.secrecy


def h_attack(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    if st.claim is not None:
        return _claim_attack(st, ev, log)
    attacker = own_ready(st, a["attack"], R.ATTACK, "attacking")
    need_step(st, "actions", R.ATTACK, "an attack")
    kind = str(a.get("type", "")).lower()
    if kind not in ATTACK_TYPES:
        raise Refusal(f"announce the attack's type: {', '.join(ATTACK_TYPES)}", [R.ATTACK])
    if attacker.location != STREETS:
        raise Refusal(f"{attacker.name} is in the Haven: the attacker is a vampire in The Streets", [R.ATTACK])
    target_name = a.get("target")
    if target_name is None:
        raise Refusal("an attack names its target (target: ...)", [R.ATTACK])
    intel = 0
    holder = next((v.name for v in st.vampires.values() for c in v.attachments if c.name == target_name), None)
    if target_name not in st.mortals and target_name not in st.vampires and holder:
        raise Refusal(f"{target_name} is attached to {holder}: only City Deck Mortals in The Streets, not attached "
                      f"to a vampire, can be attacked", [R.ATTACK_TARGET])
    if target_name not in st.mortals:  # the checks below are those of an attack on a vampire
        t = vampire(st, target_name)
        if t.controller == attacker.controller:
            raise Refusal(f"{t.name} is {t.controller}'s own vampire: an attack is against an opposing vampire",
                          [R.ATTACK_OPPONENT])
        if not t.active:
            raise Refusal(f"{t.name} is in torpor and cannot be attacked", [R.TORPOR_INACTIVE])
        if not st.players[t.controller].played_first_turn:
            raise Refusal(f"{t.controller} has yet to take their first turn", [R.ATTACK_FIRST_TURN])
        need = _secrecy(st, t)
        for who, n in (a.get("intel") or {}).items():
            player(st, who)
            discard(st, who, int(n), "Intel")
            intel += int(n)
            log.add(f"{who} discards {n} card(s): +{n} Intel for the attack.", R.INTEL_DISCARD)
        intel += int(a.get("intel_bonus", 0))
        if intel < need:
            raise Refusal(f"{t.name} has {need} Secrecy in the Haven and the attack has {intel} Intel",
                          [R.HAVEN_INTEL] + ([R.PRINCE_SECRECY] if st.prince == t.name else []))
    spend_action(st, log)
    attacker.exhausted = True
    card = a.get("card")
    if card:
        play_card(st, attacker.controller, card.get("name", "an Attack card"))
    st.attack = Attack(attacker.name, target_name, target_name, kind, 6, card, on_defeat=a.get("on_defeat"),
                       mortal_choice=a.get("mortal"), intel=intel)
    log.add(f"{attacker.name} exhausts and attacks {target_name}: a {kind.capitalize()} attack"
            + (f", an Attack card face down" if card else ", no Attack card") + f"; {st.actions_left} action(s) left.",
            R.ATTACK, R.ATTACK_CARD)


def h_block(st: GameState, ev: Event, log: Log) -> None:
    at = st.attack
    if at is None or at.claim:
        raise Refusal("there is no attack to block" + (" (attacks on a Prince claimant cannot be blocked)"
                                                       if at else ""), [R.CLAIM_ATTACKS if at else R.BLOCK])
    if at.step > 6:
        raise Refusal("the block comes before the Reaction (step 6)", [R.BLOCK])
    if at.target in st.mortals:
        raise Refusal("mortals in The Streets form separate parties: no one blocks for them", [R.MORTAL_DAMAGE])
    b = vampire(st, ev.args["block"])
    t = st.vampires[at.target]
    if b.name == t.name:
        raise Refusal(f"{b.name} cannot block an attack targeting itself", [R.BLOCK_SELF])
    if b.controller != t.controller or b not in _party_of(st, t):
        raise Refusal(f"{b.name} is not in {t.name}'s party", [R.BLOCK, R.PARTY_HAVEN])
    if b.exhausted or not b.active:
        raise Refusal(f"{b.name} is not ready and cannot block", [R.BLOCK])
    if at.kind == "ranged" and not b.guard:
        raise Refusal(f"a Ranged attack is blocked only by a Guard; {b.name} is not one", [R.RANGED_BLOCK])
    b.exhausted = True
    at.blocker, at.target, at.step = b.name, b.name, 7
    log.add(f"{b.name} exhausts to block and becomes the target of the attack.", R.BLOCK, R.PARTY_HAVEN)


def h_reaction(st: GameState, ev: Event, log: Log) -> None:
    at = st.attack
    if at is None or at.claim:
        raise Refusal("there is no attack to react to" + (" (attacks on a Prince claimant cannot be reacted to)"
                                                          if at else ""), [R.CLAIM_ATTACKS if at else R.REACTION])
    if at.step > 7 or at.reaction is not None:
        raise Refusal("one Reaction, placed before the cards are revealed (step 7)", [R.REACTION])
    t = st.vampires.get(at.target)
    if t is None:
        raise Refusal("a mortal plays no Reaction", [R.MORTAL_DAMAGE])
    if ev.args["reaction"] not in (t.name, t.controller):
        raise Refusal(f"the Reaction is played for the target, {t.name}", [R.REACTION])
    card = ev.args.get("card") or {}
    play_card(st, t.controller, card.get("name", "a Reaction card"))
    at.reaction, at.reactor, at.step = card, t.name, 8
    log.add(f"{t.controller} places a Reaction face down next to {t.name}.", R.REACTION)


def reveal(st: GameState, log: Log) -> None:
    at = st.attack
    if at.step >= 9:
        return
    attacker = st.vampires[at.attacker]
    card = at.card
    if card:
        name = card.get("name", "the Attack card")
        wrong = None
        if int(card.get("bp", 0)) > attacker.bp:
            wrong = f"needs Blood Potency {card.get('bp')} and {attacker.name} has {attacker.bp}"
        elif str(card.get("type", at.kind)).lower() != at.kind:
            wrong = f"is a {card.get('type')} card and the attack was announced {at.kind.capitalize()}"
        elif card.get("clan") and not any((v.clan or "").lower() == str(card["clan"]).lower()
                                          for v in st.coterie(attacker.controller)):
            wrong = f"is a {card['clan']} card and {attacker.controller} has no active {card['clan']} vampire"
        if wrong:
            log.add(f"{name} is revealed and {wrong}: it is discarded, the attacker stays exhausted and the attack "
                    f"goes on without it; blocks and Reactions are undone and the attack returns to step 6.",
                    R.ILLEGAL_ATTACK_CARD)
            at.card = None
            if at.blocker:
                st.vampires[at.blocker].exhausted = False
                at.blocker, at.target = None, at.original
            if at.reaction is not None:
                st.players[st.vampires[at.reactor].controller].hand += 1
                at.reaction, at.reactor = None, None
            at.step = 6
            return
        log.add(f"The attacker reveals {name}, a legal card.", R.ATTACK_CARD)
    if at.reaction is not None:
        r, reactor = at.reaction, st.vampires[at.reactor]
        types = [str(x).lower() for x in (r.get("types") or [r.get("type", at.kind)])]
        name = r.get("name", "the Reaction")
        if at.kind not in types or int(r.get("bp", 0)) > reactor.bp:
            log.add(f"{name} is revealed and is not legal here: it is discarded without effect and the attack "
                    f"continues.", R.ILLEGAL_ATTACK_CARD, R.REACTION)
            at.reaction = None
        else:
            log.add(f"The defender reveals {name}, a legal card.", R.REACTION)
    at.step = 9


def h_retarget(st: GameState, ev: Event, log: Log) -> None:
    at = st.attack
    if at is None:
        raise Refusal("there is no attack to retarget", [R.TARGETED])
    reveal(st, log)
    if at.step < 9:
        raise Refusal("the attack went back to step 6", [R.ILLEGAL_ATTACK_CARD])
    if not (at.card and at.card.get("targeted")):
        raise Refusal("only a Targeted card retargets an attack", [R.TARGETED])
    new = vampire(st, ev.args["retarget"])
    old = st.vampires.get(at.original)
    party = _party_of(st, old) if old else []
    if new.name != at.original and new not in party:
        raise Refusal(f"{new.name} is not a member of the opposing party", [R.TARGETED])
    at.target = new.name
    log.add(f"The Targeted card retargets the attack to {new.name}" + (
        f"; {at.blocker} stays a blocker for the rest of the attack" if at.blocker else "") + ".", R.TARGETED)


def h_ability(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    who = a["ability"]
    owner_v, attachment = None, None
    if who in st.vampires:
        owner_v = st.vampires[who]
    else:
        for v in st.vampires.values():
            for att in v.attachments:
                if att.name == who:
                    owner_v, attachment = v, att
        if owner_v is None and who not in st.players:
            raise Refusal(f"{who} is not in play", [R.TORPOR_INACTIVE])
    controller = owner_v.controller if owner_v else who
    key = a.get("name") or who
    at = st.attack
    in_attack = at is not None and ("damage" in a or "prevent" in a)
    if in_attack:
        reveal(st, log)
        if at.step < 9:
            raise Refusal("the attack went back to step 6: abilities come after the cards are revealed",
                          [R.ABILITIES_IN_ATTACK])
        attacker = st.vampires[at.attacker]
        if controller == attacker.controller:
            if at.defender_acted:
                raise Refusal("the attacker cannot use abilities after the defending player has",
                              [R.ABILITIES_IN_ATTACK])
            if owner_v is not None and owner_v not in _party_of(st, attacker) and not at.claim:
                raise Refusal(f"{owner_v.name} is not in the attacking party", [R.ABILITIES_IN_ATTACK])
        else:
            at.defender_acted = True
    elif controller != st.turn and not (a.get("relentless") or a.get("each_turn")):
        raise Refusal(f"{controller}'s activated abilities are not usable during {st.turn}'s turn (unless the card "
                      f"says each player's turn, or Relentless: relentless: true)", [R.ABILITY_FOE_TURN])
    if not in_attack and st.phase == "end" and not a.get("end_phase"):
        raise Refusal("no exhaust abilities or cards in the End Phase unless they name its step", [R.END_PHASE])
    if key in st.used_abilities:
        raise Refusal(f"{key}'s ability was already used this turn", [R.ABILITY_ONCE])
    cost = a.get("cost") or {}
    card = attachment or owner_v
    if cost.get("exhaust"):
        if card is None or card.exhausted:
            raise Refusal(f"{who} is not ready to pay the exhaust cost", [R.EXHAUST_ABILITY])
    if cost.get("blood"):
        if owner_v is None:
            raise Refusal("a Blood cost is paid by a vampire", [R.LAST_BLOOD])
        pay_blood(owner_v, int(cost["blood"]), f"{key}'s ability")
    pay_prestige(st, controller, int(cost.get("prestige", 0)), f"{key}'s ability")
    if cost.get("discard"):
        discard(st, controller, int(cost["discard"]), f"{key}'s ability")
    if cost.get("exhaust"):
        card.exhausted = True
    st.used_abilities.append(key)
    paid = ", ".join(f"{k} {v}" if v is not True else k for k, v in cost.items()) or "no cost"
    rules = [R.ABILITY_ONCE, R.COST_NOT_DAMAGE] if cost.get("blood") else [R.ABILITY_ONCE]
    if cost.get("exhaust"):
        rules.append(R.EXHAUST_ABILITY)
    if in_attack:
        if "damage" in a:
            at.bonus += int(a["damage"])
            log.add(f"{who} uses its ability ({paid}): +{a['damage']} damage to this attack.", R.ABILITIES_IN_ATTACK,
                    *rules)
        if "prevent" in a:
            at.prevent += int(a["prevent"])
            log.add(f"{who} uses its ability ({paid}): {a['prevent']} damage to {at.target} prevented.",
                    R.ABILITIES_IN_ATTACK, R.MITIGATE, *rules)
        return
    log.add(f"{who} uses its activated ability ({paid}).", *rules)
    apply_effect(st, log, a.get("effect"), controller, key)
    if a.get("says"):
        log.add(f"{key}: {a['says']} (described, not applied).", R.CARD_TEXT)


def resolve_attack(st: GameState, log: Log) -> None:
    at = st.attack
    reveal(st, log)
    if at.step < 9:  # an illegal card sent the attack back to step 6; nothing more is played
        reveal(st, log)
    attacker = st.vampires.get(at.attacker)
    card = at.card or {}
    base = int(card.get("damage", 0)) + int(card.get("plus", 0))
    attr = 0 if at.kind == "ranged" or attacker is None else attacker.attribute(at.kind)
    total = base + attr + at.bonus
    parts = ([f"{card.get('name', 'the Attack card')} {base}"] if at.card else []) + (
        [f"{at.attacker}'s attribute {attr}"] if at.kind != "ranged" else []) + (
        [f"abilities {at.bonus}"] if at.bonus else [])
    log.add(f"Damage: {' + '.join(parts) or '0'} = {total} {at.kind.capitalize()} damage"
            + (" (no attribute is added to a Ranged attack)" if at.kind == "ranged" else "") + f" toward {at.target}.",
            R.ATTACK_DAMAGE, *([R.RANGED] if at.kind == "ranged" else []))
    attacker_player = attacker.controller if attacker else None
    if at.card and at.card.get("says"):
        log.add(f"{card.get('name', 'The Attack card')}: {card['says']} (described, not applied).", R.CARD_TEXT)
    if at.reaction is not None and at.reaction.get("says"):
        log.add(f"{at.reaction.get('name', 'The Reaction')}: {at.reaction['says']} (described, not applied).",
                R.CARD_TEXT)
    apply_effect(st, log, card.get("effect"), attacker_player, card.get("name", "the Attack card"))
    aggravated = bool(card.get("aggravated"))
    defeated = False
    if at.target in st.mortals:
        m = st.mortals[at.target]
        if total >= m.blood:
            defeated = True
            _mortal_defeated(st, log, m, attacker)
        else:
            log.add(f"{m.name} takes no damage: {total} is less than its {m.blood} Blood, and a mortal is defeated "
                    f"only by lethal damage in one blow.", R.MORTAL_DAMAGE)
    else:
        t = st.vampires.get(at.target)
        if t is not None and t.active:
            shields = int(at.reaction.get("shields", 0)) if at.reaction is not None and at.reactor == t.name else 0
            attr_t = 0 if aggravated else t.attribute(at.kind)
            final = max(0, total - shields - attr_t - at.prevent)
            detail = ([f"its attribute {attr_t}"] if not aggravated else ["no attribute (Aggravated)"]) + (
                [f"Shields {shields}"] if shields else []) + ([f"prevention {at.prevent}"] if at.prevent else [])
            if at.reaction is not None and at.reactor != t.name and at.reaction.get("shields"):
                detail.append(f"the Reaction's Shields protect {at.reactor} only")
            lost = lose_blood(st, log, t, final, aggravated, at.attacker, attacker_player)
            defeated = t.name not in st.vampires or not st.vampires[t.name].active
            left = f"{t.blood} left" if t.name in st.vampires else "burned"
            log.add(f"{t.name} takes {final} damage ({', '.join(detail)}): {lost} Blood removed ({left}).",
                    R.MITIGATE, *([R.AGGRAVATED] if aggravated else []))
    r = at.reaction
    if r is not None and int(r.get("damage", 0)) > 0 and attacker is not None and at.attacker in st.vampires:
        reactor = st.vampires.get(at.reactor)
        rd = int(r["damage"]) + (0 if at.kind == "ranged" or reactor is None else reactor.attribute(at.kind))
        final = max(0, rd - attacker.attribute(at.kind))
        lost = lose_blood(st, log, attacker, final, False, at.reactor, reactor.controller if reactor else None)
        log.add(f"The Reaction deals {rd} damage to {attacker.name}, reduced by its attribute: {lost} Blood removed.",
                R.SHIELDS, R.MITIGATE)
    if defeated and at.on_defeat:
        apply_effect(st, log, at.on_defeat, attacker_player, "on defeating the target")
    log.add("The attack ends: Attack and Reaction cards played during it are discarded.", R.NO_WIN_MID_ATTACK)
    st.attack = None
    if st.claim is not None:
        st.claim.attacked_by.append(attacker_player)


def _mortal_defeated(st: GameState, log: Log, m: Mortal, attacker: Optional[Vampire]) -> None:
    at = st.attack
    if m.kind == "sad":
        del st.mortals[m.name]
        if attacker:
            st.players[attacker.controller].agenda += m.agenda
        log.add(f"{m.name} (Special Affairs Division) is defeated: {attacker.controller if attacker else 'nobody'} "
                f"earns {m.agenda} Agenda; the card leaves The Streets (where it goes is its own text).",
                R.MORTAL_DAMAGE, R.CARD_TEXT)
        return
    choice = at.mortal_choice
    if choice not in ("burn", "attach"):
        raise Refusal(f"{m.name} is defeated: its attacker's player chooses Burn or Attach (say mortal: burn or "
                      f"mortal: attach on the attack)", [R.MORTAL_DEFEATED])
    del st.mortals[m.name]
    p = st.players[attacker.controller]
    p.agenda += m.agenda
    if choice == "burn":
        if m.mend is None:
            raise NotModelled(f"how much Burning {m.name} mends (give the card's mend: N)", [R.MORTAL_DEFEATED])
        got = mend(attacker, int(m.mend))
        log.add(f"{m.name} is defeated and burned: {attacker.controller} earns {m.agenda} Agenda ({p.agenda}) and "
                f"{attacker.name} mends {got} ({attacker.blood}/{attacker.bp}).", R.MORTAL_DEFEATED, R.MEND_CAP)
    else:
        attach(st, log, attacker, Attachment(m.name, "retainer", prevent=m.prevent))
        log.add(f"{m.name} is defeated and attached to {attacker.name} as a Retainer: {attacker.controller} earns "
                f"{m.agenda} Agenda ({p.agenda}).", R.MORTAL_DEFEATED, R.ATTACHMENTS)


# -- the Prince of the City ----------------------------------------------------------------------------------
def h_claim(st: GameState, ev: Event, log: Log) -> None:
    v = own_ready(st, ev.args["claim_prince"], R.CLAIM_PRINCE, "claiming the Prince of the City")
    need_step(st, "actions", R.CLAIM_PRINCE, "a claim to the Prince")
    if st.prince != "streets":
        raise Refusal("the Prince of the City is not in The Streets unattached" + (
            f" (it is attached to {st.prince})" if st.prince != "deck" else " (it has not emerged from the City Deck)"),
            [R.CLAIM_PRINCE_EMERGED])
    if v.location != STREETS:
        raise Refusal(f"{v.name} is in the Haven: the claimant is a vampire in The Streets", [R.CLAIM_PRINCE])
    spend_action(st, log)
    v.exhausted = True
    st.claim = Claim(v.name)
    log.add(f"{v.name} exhausts and claims the Prince of the City; in turn order, each foe may exhaust a ready vampire "
            f"to attack the claimant once.", R.CLAIM_PRINCE, R.CLAIM_ATTACKS)


def _claim_attack(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    claim = st.claim
    att = vampire(st, a["attack"])
    if a.get("target", claim.claimant) != claim.claimant:
        raise Refusal(f"during the claim, foes attack the claimant, {claim.claimant}", [R.CLAIM_ATTACKS])
    if att.controller == st.turn:
        raise Refusal("the claimant's foes attack during a claim, not its own player", [R.CLAIM_ATTACKS])
    if att.exhausted or not att.active:
        raise Refusal(f"{att.name} is not ready", [R.CLAIM_ATTACKS])
    order = [p for p in (st.seating[(st.seating.index(st.turn) + k) % len(st.seating)]
                         for k in range(1, len(st.seating)))]
    if att.controller in claim.attacked_by:
        raise Refusal(f"{att.controller} has already attacked the claimant", [R.CLAIM_ATTACKS])
    done = [order.index(p) for p in claim.attacked_by if p in order]
    if done and order.index(att.controller) < max(done):
        raise Refusal("the foes attack in turn order from the claimant's player", [R.CLAIM_ATTACKS])
    kind = str(a.get("type", "")).lower()
    if kind not in ATTACK_TYPES:
        raise Refusal(f"announce the attack's type: {', '.join(ATTACK_TYPES)}", [R.ATTACK])
    card = a.get("card")
    if card and st.players[att.controller].rival != st.turn:
        raise Refusal(f"only the player whose Rival is {st.turn} may play an Attack card against the claimant",
                      [R.CLAIM_ATTACKS])
    if card:
        play_card(st, att.controller, card.get("name", "an Attack card"))
    att.exhausted = True
    st.attack = Attack(att.name, claim.claimant, claim.claimant, kind, 9, card, claim=True,
                       on_defeat=a.get("on_defeat"))
    log.add(f"{att.name} exhausts and attacks the claimant {claim.claimant} ({kind.capitalize()}; no Secrecy, no "
            f"blocks or Reactions).", R.CLAIM_ATTACKS)


def finish_claim(st: GameState, log: Log) -> None:
    claim = st.claim
    st.claim = None
    v = st.vampires.get(claim.claimant)
    if v is None or not v.active:
        log.add(f"The attacks defeated {claim.claimant}: no Prince; the Title stays in The Streets.", R.CLAIM_RESULT)
        return
    take_prince(st, log, v)
    log.add(f"{v.name} survives the attacks and becomes Prince of the City.", R.CLAIM_RESULT)


# -- influence: Schemes and Titles ---------------------------------------------------------------------------
def exert(st: GameState, log: Log, who: str, names: list, what: str) -> int:
    total = 0
    for name in names:
        v = vampire(st, name)
        if v.controller != who:
            raise Refusal(f"{name} is not {who}'s", [R.INFLUENCE])
        if not v.active:
            raise Refusal(f"{name} is in torpor and cannot exert Influence", [R.INFLUENCE_TORPOR])
        if v.no_influence or v.total_influence() == 0:
            raise Refusal(f"{name} has no Influence to exert" + (" (a 'No Influence' token is on it)"
                                                                 if v.no_influence else ""), [R.INFLUENCE_ALL])
        total += v.total_influence()
        v.no_influence = True
    return total


def h_scheme(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    v = own_ready(st, a["scheme"], R.SCHEME, "playing a Scheme")
    need_step(st, "actions", R.SCHEME, "a Scheme", card=True)
    check_bp(v, a.get("card", "the Scheme"), int(a.get("bp", 0)))
    spend_action(st, log)
    play_card(st, v.controller, a.get("card", "a Scheme"))
    v.exhausted = True
    i = st.seating.index(st.turn)
    order = [st.seating[(i + k) % len(st.seating)] for k in range(len(st.seating))]
    st.scheme = Scheme(a.get("card", "the Scheme"), v.name, a.get("effect"), a.get("says"),
                       [p for p in order if not st.players[p].knocked_out])
    log.add(f"{v.name} exhausts to play the Scheme {st.scheme.card}, face up: an Influence conflict begins; players "
            f"declare one at a time, clockwise from {st.turn}.", R.SCHEME, R.ACTION_CARD)


def h_exert(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    sc = st.scheme
    if sc is None:
        raise Refusal("there is no Influence conflict (Influence for a Title is given on the title event)", [R.SCHEME])
    who = a["exert"]
    player(st, who)
    nxt = sc.order[len(sc.declared)] if len(sc.declared) < len(sc.order) else None
    if who != nxt:
        raise Refusal(f"players declare one at a time, clockwise from the active player: it is {nxt}'s turn to "
                      f"declare", [R.SCHEME])
    side = a.get("side", "yes")
    side = {True: "yes", False: "no"}.get(side, str(side).lower()) if isinstance(side, bool) else str(side).lower()
    if side not in ("yes", "no", "none"):
        raise Refusal("a side is yes or no (none: stay out of it)", [R.SCHEME])
    if who == st.turn and side != "yes":
        raise Refusal("the active player exerts Influence for YES", [R.SCHEME])
    visible = exert(st, log, who, list(a.get("vampires") or []), sc.card)
    for ab in a.get("abilities") or []:
        v = vampire(st, ab["vampire"])
        if v.controller != who:
            raise Refusal(f"{v.name} is not {who}'s", [R.INFLUENCE])
        key = ab.get("name") or v.name
        if who != st.turn and not (ab.get("relentless") or ab.get("each_turn")):
            raise Refusal(f"{v.name}'s activated ability is not usable during {st.turn}'s turn (unless it says each "
                          f"player's turn, or Relentless)", [R.ABILITY_FOE_TURN])
        if key in st.used_abilities:
            raise Refusal(f"{key}'s ability was already used this turn", [R.ABILITY_ONCE])
        cost = ab.get("cost") or {}
        pay_blood(v, int(cost.get("blood", 0)), f"{key}'s ability")
        pay_prestige(st, who, int(cost.get("prestige", 0)), f"{key}'s ability")
        st.used_abilities.append(key)
        v.no_influence = True
        visible += int(ab.get("influence", 0))
        log.add(f"{who} uses {v.name}'s ability ({', '.join(f'{k} {x}' for k, x in cost.items()) or 'no cost'}): "
                f"+{ab.get('influence', 0)} Influence; a 'No Influence' token on {v.name}.", R.ABILITY_ONCE,
                R.COST_NOT_DAMAGE, R.INFLUENCE)
    mod = a.get("modifier")
    secret = 0
    if mod:
        play_card(st, who, mod.get("name", "an Influence Modifier"))
        secret += int(mod.get("influence", 0))
    hidden = int(a.get("prestige", 0))
    if hidden:
        if st.players[who].prestige - hidden < 1:
            raise Refusal(f"{who} has {st.players[who].prestige} Prestige and cannot hold {hidden} for Influence: "
                          f"never the last point", [R.LAST_PRESTIGE, R.PRESTIGE_INFLUENCE])
    sc.declared.append({"player": who, "side": side, "visible": visible, "modifier": secret,
                        "modifier_card": (mod or {}).get("name"), "prestige": hidden})
    log.add(f"{who} announces {visible} visible Influence for {side.upper()}" + (
        f" (an Influence Modifier face down)" if mod else "") + (" (Prestige held in a closed fist)" if hidden else "")
        + ".", R.SCHEME, R.INFLUENCE, *([R.INFLUENCE_MODIFIER] if mod else []),
        *([R.PRESTIGE_INFLUENCE] if hidden else []))
    if len(sc.declared) == len(sc.order):
        resolve_scheme(st, log)


def resolve_scheme(st: GameState, log: Log) -> None:
    sc = st.scheme
    for p in sc.order[len(sc.declared):]:
        sc.declared.append({"player": p, "side": "none", "visible": 0, "modifier": 0, "modifier_card": None,
                            "prestige": 0})
        log.add(f"{p} stays out of the Influence conflict.", R.SCHEME)
    totals = {"yes": 0, "no": 0}
    for d in sc.declared:
        if d["side"] in totals:
            totals[d["side"]] += d["visible"] + d["modifier"] + d["prestige"]
    passed = totals["yes"] >= totals["no"]
    win = "yes" if passed else "no"
    log.add(f"The Influence is revealed: {totals['yes']} for YES, {totals['no']} for NO" + (
        " — a tie goes to the active player: YES" if totals["yes"] == totals["no"] else "") + f". {sc.card} "
        + ("succeeds." if passed else "fails and is discarded without effect."), R.SCHEME_RESOLVE)
    spent = []
    for d in sc.declared:
        if d["side"] == win and d["prestige"]:
            st.players[d["player"]].prestige -= d["prestige"]
            spent.append(f"{d['player']} {d['prestige']}")
    log.add("The winning side places its revealed Prestige into the general supply" + (
        f" ({', '.join(spent)})" if spent else " (none)") + "; the losing side keeps theirs.", R.SCHEME_PRESTIGE)
    st.scheme = None
    if passed:
        apply_effect(st, log, sc.effect, st.turn, sc.card)
        if sc.says:
            log.add(f"{sc.card}: {sc.says} (described, not applied).", R.CARD_TEXT)


def h_title(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    card = a.get("card", "a Title")
    v = own_ready(st, a["title"], R.TITLE, f"taking the Title {card}")
    need_step(st, "actions", R.TITLE, "playing a Title", card=True)
    who = v.controller
    check_bp(v, card, int(a.get("bp", 0)))
    if v.title is not None:
        raise Refusal(f"{v.name} already has the Title {v.title.name}; a vampire has a single Title", [R.ONE_TITLE])
    primogen = bool(a.get("primogen", False))
    for w in list(st.vampires.values()):
        t = w.title
        if t is None or t.name != card:
            continue
        if primogen:
            if w.controller == who:
                raise Refusal(f"{who} already has a Primogen ({w.name}): one per player", [R.UNIQUE_TITLE])
        elif w.active:
            raise Refusal(f"{card} is unique and {w.name} has it", [R.UNIQUE_TITLE])
    need = int(a.get("influence", 0))
    got = exert(st, log, who, list(a.get("exert") or []), card)
    mod = a.get("modifier")
    if mod:
        play_card(st, who, mod.get("name", "an Influence Modifier"))
        got += int(mod.get("influence", 0))
    prestige = int(a.get("prestige", 0))
    if got + prestige < need:
        raise Refusal(f"{card} needs {need} Influence and {who} exerts {got + prestige}", [R.TITLE])
    pay_prestige(st, who, prestige, f"Influence for {card}")
    spend_action(st, log)
    play_card(st, who, card)
    v.exhausted = True
    for w in st.vampires.values():  # a unique Title on a vampire in torpor is discarded from it
        if not primogen and w.title and w.title.name == card and not w.active:
            w.attachments.remove(w.title)
            log.add(f"{card} is discarded from {w.name}, in torpor.", R.UNIQUE_TITLE)
    attach(st, log, v, Attachment(card, "title", influence=int(a.get("grants", 0)), unique=not primogen))
    log.add(f"{v.name} exhausts and takes the Title {card}: {got} Influence exerted"
            + (f" and {prestige} Prestige spent" if prestige else "") + f" for its cost of {need}.",
            R.TITLE, R.INFLUENCE, *([R.INFLUENCE_MODIFIER] if mod else []), *([R.PRESTIGE_INFLUENCE] if prestige else []))


# -- conspiracies ------------------------------------------------------------------------------------------------
def _conspiracy(st: GameState, name: str) -> Conspiracy:
    c = st.conspiracies.get(name)
    if c is None:
        raise Refusal(f"no Conspiracy {name!r} in play", [R.CONSPIRACY])
    return c


def h_conspiracy(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    v = own_ready(st, a["conspiracy"], R.CONSPIRACY, "playing a Conspiracy")
    need_step(st, "actions", R.CONSPIRACY, "a Conspiracy", card=True)
    card = a.get("card", "a Conspiracy")
    if card in st.conspiracies:
        raise Refusal(f"{card} is already in play; name the second copy differently", [R.CONSPIRACY])
    check_bp(v, card, int(a.get("bp", 0)))
    spend_action(st, log)
    pay_prestige(st, v.controller, 1, card)
    play_card(st, v.controller, card)
    v.exhausted = True
    st.conspiracies[card] = Conspiracy(card, v.controller, int(a.get("required", 0)), {v.controller: 1},
                                       [v.controller], st.turn_number, [v.controller])
    log.add(f"{v.name} exhausts and {v.controller} plays {card} face down with 1 Prestige on it.", R.CONSPIRACY)
    apply_effect(st, log, a.get("effect"), v.controller, card)


def h_reveal(st: GameState, ev: Event, log: Log) -> None:
    c = _conspiracy(st, ev.args["reveal"])
    for p in ev.args.get("to") or []:
        player(st, p)
        if p not in c.shown:
            c.shown.append(p)
    log.add(f"{c.controller} shows {c.card} to {', '.join(ev.args.get('to') or [])}: they may join it.",
            R.CONSPIRACY_ADD)


def h_contribute(st: GameState, ev: Event, log: Log) -> None:
    who = ev.args["contribute"]
    player(st, who)
    c = _conspiracy(st, ev.args["to"])
    if st.turn != c.controller:
        raise Refusal(f"Prestige is added during {c.controller}'s turns", [R.CONSPIRACY_ADD])
    if who not in c.shown:
        raise Refusal(f"{c.card} has not been revealed to {who}", [R.CONSPIRACY_ADD])
    if who in c.added_this_turn:
        raise Refusal(f"{who} has already added Prestige to {c.card} this turn"
                      + (" (the controller adds none on the turn it was played)"
                         if who == c.controller and c.played_turn == st.turn_number else ""), [R.CONSPIRACY_ADD])
    pay_prestige(st, who, 1, c.card)
    c.tokens[who] = c.tokens.get(who, 0) + 1
    c.added_this_turn.append(who)
    log.add(f"{who} adds 1 Prestige to {c.card} (not an action): {sum(c.tokens.values())} on it.", R.CONSPIRACY_ADD)


def h_resolve(st: GameState, ev: Event, log: Log) -> None:
    a = ev.args
    c = _conspiracy(st, a["resolve"])
    if st.turn != c.controller or st.step != "actions":
        raise Refusal(f"{c.card} is resolved during one of {c.controller}'s Action Phases", [R.CONSPIRACY_RESOLVE])
    total = sum(c.tokens.values())
    if total < c.required:
        raise Refusal(f"{c.card} needs {c.required} Prestige on it and has {total}", [R.CONSPIRACY_RESOLVE])
    target = a.get("target")
    if target is not None:
        player(st, target)
        if target in c.tokens:
            raise Refusal(f"{target} contributed to {c.card} and cannot be its target", [R.CONSPIRACY_RESOLVE])
    del st.conspiracies[c.card]
    log.add(f"{c.controller} reveals and resolves {c.card}" + (f" against {target}" if target else "")
            + f" (not an action); it is discarded and its {total} Prestige go to the general supply.",
            R.CONSPIRACY_RESOLVE)
    apply_effect(st, log, a.get("effect"), c.controller, c.card)
    if a.get("says"):
        log.add(f"{c.card}: {a['says']} (described, not applied).", R.CARD_TEXT)


# -- the End Phase -------------------------------------------------------------------------------------------------
def h_mend(st: GameState, ev: Event, log: Log) -> None:
    v = vampire(st, ev.args["mend"])
    need_step(st, "torpor_mending", R.MEND_STEP, "mending by discarding")
    if v.controller != st.turn:
        raise Refusal(f"{v.name} is not {st.turn}'s", [R.MEND_STEP])
    if v.name in st.mended:
        raise Refusal(f"{v.name} was already mended this step", [R.MEND_ONCE])
    if v.blood >= v.bp:
        raise Refusal(f"{v.name} is at full Blood ({v.blood}/{v.bp})", [R.MEND_CAP])
    discard(st, v.controller, 1, f"mending {v.name}")
    mend(v, 1)
    st.mended.append(v.name)
    log.add(f"{v.controller} discards 1 card to mend 1 Blood on {v.name} ({v.blood}/{v.bp}).", R.MEND_STEP,
            R.MEND_ONCE, R.MEND_CAP)
    return_from_torpor(st, log, v)


def h_antagonist(st: GameState, ev: Event, log: Log) -> None:
    need_step(st, "antagonist", R.ANTAGONIST, "the Special Affairs Division's damage")
    n = st.sad_count()
    split = ev.args["antagonist"]
    if sum(int(x) for x in split.values()) + st.sad_assigned > n:
        raise Refusal(f"{n} Special Affairs Division deal {n} damage", [R.ANTAGONIST])
    prevented = ev.args.get("prevent") or {}
    for name, dmg in split.items():
        v = vampire(st, name)
        if v.controller != st.turn or not v.active:
            raise Refusal(f"{name} is not in {st.turn}'s coterie", [R.ANTAGONIST])
        if int(dmg) > v.blood:
            raise Refusal(f"{name} has {v.blood} Blood: no more damage can be assigned to it", [R.ANTAGONIST_LIMIT])
        if _secrecy(st, v) > n:
            raise Refusal(f"{name} has {_secrecy(st, v)} Secrecy and the S.A.D. have {n} Intel", [R.ANTAGONIST,
                                                                                                   R.SECRECY])
    for name, dmg in split.items():
        v = st.vampires[name]
        stop = 0
        for retainer, k in prevented.items():
            att = next((x for x in v.attachments if x.name == retainer and not x.exhausted), None)
            if att is None:
                raise Refusal(f"{retainer} is not a ready card attached to {name}", [R.EXHAUST_ABILITY])
            att.exhausted = True
            stop += min(int(k), att.prevent or int(k))
        dmg = max(0, int(dmg) - stop)
        st.sad_assigned += int(split[name])
        lost = lose_blood(st, log, v, dmg, aggravated=True)
        log.add(f"The Special Affairs Division deal {dmg} Aggravated damage to {name}" + (
            f" ({stop} prevented)" if stop else "") + f": {lost} Blood removed.", R.ANTAGONIST, R.AGGRAVATED)


def h_burn_retainer(st: GameState, ev: Event, log: Log) -> None:
    name = ev.args["burn_retainer"]
    v = vampire(st, ev.args["from"])
    if st.attack is not None or st.claim is not None or st.scheme is not None:
        raise Refusal("not during an action", [R.BURN_RETAINER])
    if v.controller != st.turn:
        raise Refusal(f"{v.controller} burns their Retainers during their own turn", [R.BURN_RETAINER])
    att = next((a for a in v.attachments if a.name == name and a.kind == "retainer"), None)
    if att is None:
        raise Refusal(f"{name} is not a Retainer attached to {v.name}", [R.BURN_RETAINER])
    v.attachments.remove(att)
    log.add(f"{v.controller} burns the Retainer {name} attached to {v.name}.", R.BURN_RETAINER)


def h_effect(st: GameState, ev: Event, log: Log) -> None:
    by = ev.args.get("by")
    if by is not None and by not in st.players:
        v = vampire(st, by)
        by = v.controller
    apply_effect(st, log, ev.args["effect"], by, ev.args.get("card") or "a card's text")
    if ev.args.get("says"):
        log.add(f"{ev.args.get('card') or 'The card'}: {ev.args['says']} (described, not applied).", R.CARD_TEXT)


def h_damage(st: GameState, ev: Event, log: Log) -> None:
    """Damage a card deals outside an attack (described): mitigated by the attribute unless Aggravated."""
    for name, n in ev.args["damage"].items():
        v = vampire(st, name)
        if not v.active:
            raise Refusal(f"{name} is in torpor", [R.TORPOR_INACTIVE])
        kind = ev.args.get("type")
        agg = bool(ev.args.get("aggravated"))
        attr = 0 if agg or kind is None else v.attribute(str(kind).lower())
        by = ev.args.get("by")
        by_player = st.players.get(by) and by or (st.vampires[by].controller if by in st.vampires else None)
        lost = lose_blood(st, log, v, max(0, int(n) - attr), agg, by if by in st.vampires else None, by_player)
        log.add(f"{name} takes {n} damage" + (f", reduced by its attribute {attr}" if attr else "")
                + f": {lost} Blood removed.", R.MITIGATE, *([R.AGGRAVATED] if agg else []))


def h_pass(st: GameState, ev: Event, log: Log) -> None:
    if st.attack is not None:
        resolve_attack(st, log)
    elif st.claim is not None:
        finish_claim(st, log)
    elif st.scheme is not None:
        resolve_scheme(st, log)
    else:
        log.add("Nothing is open: nothing happens.", R.TURN)


def h_unmodelled(st: GameState, ev: Event, log: Log) -> None:
    raise NotModelled(f"{ev.args.get('not_modelled')}", [R.GOLDEN_RULE])


# -- the end of the game ----------------------------------------------------------------------------------------
def tiebreak(st: GameState, log: Log, names: list) -> str:
    if len(names) == 1:
        return names[0]
    if st.turn in names:
        pick = st.turn
    else:
        top = max(st.players[p].prestige for p in names)
        best = [p for p in names if st.players[p].prestige == top]
        pick = max(best, key=lambda p: st.players[p].number)
    log.add(f"{', '.join(names)} can each claim the win: the tiebreakers (active player, most Prestige, player order) "
            f"give it to {pick}.", R.TIEBREAKERS)
    return pick


def check_end(st: GameState, log: Log) -> None:
    if st.result.over or st.attack is not None:
        return
    newly = [p for p in st.seating if not st.players[p].knocked_out
             and (st.players[p].prestige <= 0 or not st.coterie(p))]
    for p in newly:
        pl = st.players[p]
        pl.knocked_out = True
        pl.agenda = 0
        st.result.knocked_out.append(p)
        why = "has no Prestige left" if pl.prestige <= 0 else "has no active vampire left"
        log.add(f"{p} {why} and is knocked out; their agenda is set to 0.", R.KNOCK_OUT, R.KNOCKED_OUT_ZERO)
    alive = [p for p in st.seating if not st.players[p].knocked_out]
    rival_wins = []
    for p in newly:
        k = st.blame.get(p)
        if k and k in alive and st.players[k].rival == p:
            rival_wins.append(k)
            log.add(f"{k} knocked out their Rival, {p}.", R.WIN_RIVAL)
    if newly and not rival_wins:
        for p in newly:
            for h in alive:
                if st.players[h].rival == p:
                    st.players[h].agenda += 3
                    log.add(f"{p} was not knocked out by their Rival token's holder: {h} holds it and gains 3 Agenda "
                            f"({st.players[h].agenda}).", R.RIVAL_TOKEN_HOLDER)
    thirteen = [p for p in alive if st.players[p].agenda >= WIN_AGENDA]
    st.blame = {}
    if not newly and not thirteen:
        return
    st.result.over = True
    if not alive:
        st.result.reason = "every player is knocked out"
        log.add("Every player is knocked out: the game ends without a winner.", R.GAME_END)
        return
    if thirteen or rival_wins:
        names = list(dict.fromkeys(thirteen + rival_wins))
        st.result.winner = tiebreak(st, log, names)
        st.result.reason = "13 Agenda" if st.result.winner in thirteen else "knocked out their Rival"
        rule = R.WIN_AGENDA if st.result.winner in thirteen else R.WIN_RIVAL
    else:
        top = max(st.players[p].agenda for p in alive)
        names = [p for p in alive if st.players[p].agenda == top]
        st.result.winner = tiebreak(st, log, names)
        st.result.reason = "most Agenda"
        rule = R.WIN_MOST
    log.add(f"The game ends: {st.result.winner} wins ({st.result.reason}).", R.GAME_END, rule)


# -- the table of handlers, and what each open stage admits -------------------------------------------------------
HANDLERS: dict[str, Callable] = {
    "phase": h_phase, "step": h_phase, "end_turn": h_end_turn, "turn": h_turn, "city": h_city,
    "move": h_move, "party": h_party, "draw_action": h_draw_action, "draw": h_draw, "recruit": h_recruit,
    "action_card": h_action_card, "attack": h_attack, "block": h_block, "reaction": h_reaction,
    "retarget": h_retarget, "ability": h_ability, "claim_prince": h_claim, "scheme": h_scheme, "exert": h_exert,
    "title": h_title, "conspiracy": h_conspiracy, "reveal": h_reveal, "contribute": h_contribute,
    "resolve": h_resolve, "mend": h_mend, "antagonist": h_antagonist, "burn_retainer": h_burn_retainer,
    "effect": h_effect, "damage": h_damage, "pass": h_pass, "not_modelled": h_unmodelled,
}
ADMITS = {
    # burn_retainer is admitted to be refused: "at any time during your turn (except during an action)"
    "attack": {"block", "reaction", "retarget", "ability", "pass", "reveal", "effect", "burn_retainer"},
    "claim": {"attack", "ability", "pass", "effect", "burn_retainer"},
    "scheme": {"exert", "pass", "reveal", "effect", "burn_retainer"},
}


def open_stage(st: GameState) -> Optional[str]:
    for name in ("attack", "claim", "scheme"):
        if getattr(st, name) is not None:
            return name
    return None


def settle(st: GameState) -> tuple[GameState, list]:
    st = st.copy()
    log = Log()
    h_pass(st, Event("pass", {"pass": True}), log)
    check_end(st, log)
    return st, log.entries


def needs_settle(st: GameState, ev: Event) -> bool:
    stage = open_stage(st)
    return stage is not None and ev.kind not in ADMITS[stage]


def apply(st: GameState, ev: Event) -> tuple[GameState, list]:
    if st.result.over:
        raise Refusal("the game is over: no more events", [R.GAME_END])
    handler = HANDLERS.get(ev.kind)
    if handler is None:
        raise NotModelled(f"events of the kind {ev.kind}", [R.GOLDEN_RULE])
    new = st.copy()
    new.blame = {}
    log = Log()
    handler(new, ev, log)
    check_end(new, log)
    return new, log.entries
