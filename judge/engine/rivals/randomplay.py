"""Random play for Rivals, as randomplay.py does for V:TES (after OpenSpiel's random simulation): from a
random table, pick random candidate events for the situation (whose turn, which step, an attack, a Prince
claim or a Scheme open), keep those the engine accepts, and check invariants after every transition.
Used by tests/test_rivals_engine.py.

The engine decides legality: a refused candidate is not played, and it must leave the state as it was. The
invariants are the book's: Blood from 0 to the Blood Potency, no Prestige or Agenda below 0, a player at 0
Prestige or without an active vampire knocked out with 0 Agenda, a game over exactly when a player is knocked
out or reaches 13 Agenda, a winner exactly when it is over (the player the book names), one Title and three
attachments at most, the Prince attached to one vampire at most; and the totals: in a transition, the
Prestige the table gains and loses, and the Agenda scored, are bounded by what the event can move.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from judge.engine.errors import NotModelled, Refusal
from judge.engine.rivals import play
from judge.engine.rivals.state import (ATTACK_TYPES, HAVEN, STREETS, TORPOR, WIN_AGENDA, Attachment, GameState,
                                       Mortal, Player, Vampire)

CLANS = ("Brujah", "Toreador", "Ventrue", "Malkavian")


def random_table(rng: random.Random) -> GameState:
    n = rng.randint(2, 4)
    seating = tuple(f"P{i + 1}" for i in range(n))
    rivals = list(seating[1:]) + [seating[0]]
    rng.shuffle(rivals)
    if any(r == p for r, p in zip(rivals, seating)):
        rivals = list(seating[1:]) + [seating[0]]
    players = {p: Player(p, i + 1, rng.randint(2, 20), rng.randint(0, 11), rng.randint(0, 6),
                         rng.choice([None, rng.randint(0, 30)]), rng.choice([None, rng.randint(0, 5)]), rivals[i])
               for i, p in enumerate(seating)}
    vampires = {}
    k = 0
    for p in seating:
        for j in range(rng.randint(1, 3)):
            bp = rng.randint(2, 6)
            loc = STREETS if rng.random() < 0.4 else HAVEN
            if j > 0 and rng.random() < 0.2:
                loc = TORPOR
            v = Vampire(f"V{k}", p, bp, rng.randint(1, bp), rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2),
                        rng.choice(CLANS), (), loc, loc == TORPOR or rng.random() < 0.2, j == 0,
                        rng.random() < 0.2, rng.choice([0, 0, 1]), party=1 if loc == STREETS else 0)
            if rng.random() < 0.3 and loc != TORPOR:
                v.attachments.append(Attachment(f"Vagrant{k}", "retainer", prevent=1))
            vampires[v.name] = v
            k += 1
    mortals = {}
    for i in range(rng.randint(0, 3)):
        kind = rng.choice(["vagrant", "citizen", "sad"])
        mortals[f"M{i}"] = Mortal(f"M{i}", rng.randint(1, 4), kind, rng.randint(0, 2), rng.randint(0, 2), 1)
    st = GameState(seating, players, vampires, mortals, turn=seating[0], step="actions",
                   prince=rng.choice(["deck", "streets"]), city_deck=rng.choice([None, rng.randint(0, 10)]))
    return st


def candidates(st: GameState, rng: random.Random) -> list:
    """The events that could come now, each as a function building it (with its random details)."""
    E = play.Event
    me = st.turn
    mine = [v for v in st.vampires.values() if v.controller == me]
    foes_v = [v for v in st.vampires.values() if v.controller != me]
    allv = list(st.vampires.values())
    names = [v.name for v in allv]
    pick = rng.choice
    out = []
    if st.attack is not None:
        at = st.attack
        out += [lambda: E("block", {"block": pick(names)})] * 2
        out.append(lambda: E("reaction", {"reaction": at.target, "card": {"name": "R", "type": pick(ATTACK_TYPES),
                                                                   "shields": rng.randint(0, 2),
                                                                   "damage": rng.randint(0, 1)}}))
        out.append(lambda: E("ability", {"ability": pick(names), "cost": {"exhaust": rng.random() < 0.5},
                                 pick(["damage", "prevent"]): 1}))
        out.append(lambda: E("retarget", {"retarget": pick(names)}))
        out += [lambda: E("pass", {"pass": True})] * 3
        return out
    if st.claim is not None:
        out += [lambda: E("attack", {"attack": pick(names), "target": st.claim.claimant, "type": pick(ATTACK_TYPES)})] * 2
        out += [lambda: E("pass", {"pass": True})] * 2
        return out
    if st.scheme is not None:
        nxt = st.scheme.order[len(st.scheme.declared)]
        own = [v.name for v in allv if v.controller == nxt and v.total_influence() > 0]
        out += [lambda: E("exert", {"exert": nxt, "side": pick(["yes", "no", "none"]),
                                    "vampires": rng.sample(own, rng.randint(0, len(own))),
                                    "prestige": rng.randint(0, 3)})] * 3
        out.append(lambda: E("pass", {"pass": True}))
        return out
    step = st.step
    if step == "city_deck":
        kind = pick(["vagrant", "citizen", "sad", "prince", "event", "ongoing_event", "card"])
        out.append(lambda: E("city", {"city": {"name": f"C{st.turn_number}{rng.randint(0, 99)}", "kind": kind,
                                       "blood": rng.randint(1, 4), "agenda": rng.randint(0, 1)}}))
        out.append(lambda: E("phase", {"phase": "action"}))
    elif step == "actions":
        if mine:
            out.append(lambda: E("move", {"move": [pick(mine).name]}))
        out.append(lambda: E("draw_action", {"draw_action": me, **({"from": pick(["library", "faction"])}
                                                           if rng.random() < 0.5 else {})}))
        out.append(lambda: E("recruit", {"recruit": pick(names + [f"N{rng.randint(0, 50)}"]), "bp": rng.randint(1, 6),
                                 "physical": rng.randint(0, 2)}))
        targets = [v.name for v in foes_v if v.active] + list(st.mortals)
        ready = [v for v in mine if v.location == STREETS and not v.exhausted] or mine

        def attack():
            card = None if rng.random() < 0.4 else {"name": "A", "type": pick(ATTACK_TYPES),
                                                    "bp": rng.randint(0, 5), "damage": rng.randint(0, 3),
                                                    "aggravated": rng.random() < 0.15}
            return E("attack", {"attack": pick(ready).name, "target": pick(targets),
                                "type": pick(ATTACK_TYPES), "intel": {pick(st.seating): rng.randint(0, 2)},
                                "mortal": pick(["burn", "attach"]), **({"card": card} if card else {})})

        if ready and targets:
            out += [attack] * 8
        if mine:
            v = pick(mine)
            out.append(lambda: E("claim_prince", {"claim_prince": v.name}))
            out.append(lambda: E("action_card", {"action_card": v.name, "card": "Card", "bp": rng.randint(0, 5),
                                         "effect": {pick(["prestige", "agenda", "draw"]): {
                                             pick(list(st.seating) + ["each"]): rng.randint(-2, 2)}}}))
            out.append(lambda: E("scheme", {"scheme": v.name, "card": "Scheme",
                                    "effect": {"prestige": {"each": rng.randint(-2, 3)}}}))
            out.append(lambda: E("title", {"title": v.name, "card": pick(["Sheriff", "Harpy", "Primogen"]),
                                   "bp": rng.randint(0, 5), "influence": rng.randint(0, 3),
                                   "exert": [x.name for x in mine if x.total_influence() and rng.random() < 0.5],
                                   "prestige": rng.randint(0, 2)}))
            out.append(lambda: E("conspiracy", {"conspiracy": v.name, "card": f"Plot{rng.randint(0, 3)}",
                                        "required": rng.randint(1, 4)}))
            out.append(lambda: E("ability", {"ability": v.name, "cost": {pick(["blood", "prestige", "discard"]): 1},
                                     "effect": {"draw": {me: 1}}}))
        for c in list(st.conspiracies):
            out.append(lambda c=c: E("reveal", {"reveal": c, "to": [pick(st.seating)]}))
            out.append(lambda c=c: E("contribute", {"contribute": pick(st.seating), "to": c}))
            out.append(lambda c=c: E("resolve", {"resolve": c, "target": pick(st.seating),
                                     "effect": {"agenda": {pick(st.seating): rng.randint(-2, 1)}}}))
        out += [lambda: E("phase", {"phase": "end"})] * (1 if st.actions_left else len(out))
    elif step == "torpor_mending":
        if mine:
            out.append(lambda: E("mend", {"mend": pick(mine).name}))
        out.append(lambda: E("step", {"step": "antagonist"}))
    elif step == "antagonist":
        n = st.sad_count()
        active = [v for v in mine if v.active]
        if n and active:
            split: dict = {}
            for _ in range(n):
                v = pick(active).name
                split[v] = split.get(v, 0) + 1
            out.append(lambda split=split: E("antagonist", {"antagonist": split}))
        out.append(lambda: E("end_turn", {"end_turn": True}))
    else:
        out.append(lambda: E("end_turn", {"end_turn": True}))
    return out


def violations(st: GameState) -> list[str]:
    out = []
    for v in st.vampires.values():
        if not 0 <= v.blood <= v.bp:
            out.append(f"{v.name} has {v.blood} Blood, Blood Potency {v.bp}")
        if v.active and v.blood < 1 and not st.result.over:
            out.append(f"{v.name} is active with 0 Blood")
        if len(v.attachments) > 3 or sum(1 for a in v.attachments if a.kind == "title") > 1:
            out.append(f"{v.name} has {len(v.attachments)} attachments")
        if v.location == TORPOR and any(a.kind != "title" for a in v.attachments):
            out.append(f"{v.name} keeps a non-Title attachment in torpor")
    holders = [v.name for v in st.vampires.values() if any(a.name == "Prince of the City" for a in v.attachments)]
    if len(holders) > 1 or (holders and st.prince != holders[0]) or (not holders and st.prince not in ("deck",
                                                                                                       "streets")):
        out.append(f"the Prince is {st.prince!r}, attached to {holders}")
    alive = [p for p in st.seating if not st.players[p].knocked_out]
    for p in st.players.values():
        if p.prestige < 0 or p.agenda < 0 or p.hand < 0:
            out.append(f"{p.name} has {p.prestige} Prestige, {p.agenda} Agenda, {p.hand} cards")
        if p.knocked_out and p.agenda != 0:
            out.append(f"{p.name} is knocked out with {p.agenda} Agenda")
        if not p.knocked_out and (p.prestige <= 0 or not st.coterie(p.name)) and st.attack is None:
            out.append(f"{p.name} has {p.prestige} Prestige and {len(st.coterie(p.name))} active vampires and is in")
    ended = bool(st.result.knocked_out) or any(st.players[p].agenda >= WIN_AGENDA for p in alive)
    if ended != st.result.over and st.attack is None:
        out.append(f"over is {st.result.over} with knocked out {st.result.knocked_out}")
    if st.result.over and alive:
        w = st.result.winner
        if w not in alive:
            out.append(f"the winner {w!r} is not a player still in the game")
        elif st.result.reason == "most Agenda" and st.players[w].agenda < max(st.players[p].agenda for p in alive):
            out.append(f"{w} wins on most Agenda without the most")
        elif st.result.reason == "13 Agenda" and st.players[w].agenda < WIN_AGENDA:
            out.append(f"{w} wins on 13 Agenda with {st.players[w].agenda}")
    if not st.result.over and st.result.winner is not None:
        out.append("a winner before the game is over")
    if not 0 <= st.actions_left <= 2:
        out.append(f"{st.actions_left} actions left")
    for c in st.conspiracies.values():
        if sum(c.tokens.values()) < 1:
            out.append(f"{c.card} has no Prestige on it")
    return out


def total_violations(before: GameState, after: GameState, ev: play.Event) -> list[str]:
    """The totals of a transition: the Prestige the players gain is what a card effect, a Scheme or a Free
    recruit can give (at most 3 each, here), and Agenda rises by what the event can score: a Rival's vampire
    (1), a mortal (its Agenda), a Rival token (3) or a card's effect."""
    out = []
    effect = ev.args.get("effect") or {}
    for p in before.seating:
        b, a = before.players[p], after.players[p]
        gain = a.prestige - b.prestige
        allowed = 3 if ev.kind in ("scheme", "exert", "pass", "action_card", "resolve") or st_scheme(before) else 0
        if gain > allowed + (max(effect.get("prestige", {}).values(), default=0) if effect else 0):
            out.append(f"{p} gains {gain} Prestige on a {ev.kind} event")
        if not a.knocked_out:
            scored = a.agenda - b.agenda
            cap = 1 * len(before.vampires) + sum(m.agenda for m in before.mortals.values()) + 3 * len(before.seating)
            cap += max([x for d in effect.values() for x in d.values()] or [0])
            if scored > cap:
                out.append(f"{p} scores {scored} Agenda on a {ev.kind} event")
    return out


def st_scheme(st: GameState) -> bool:
    return st.scheme is not None


@dataclass
class Report:
    seed: int
    events: int = 0
    refused: int = 0
    ended_by: str = ""
    attacks: int = 0
    torpor: int = 0
    knockouts: int = 0
    schemes: int = 0
    violations: list = field(default_factory=list)


def play_game(seed: int, max_events: int = 80) -> Report:
    rng = random.Random(seed)
    st = random_table(rng)
    report = Report(seed)
    for _ in range(max_events * 4):
        if st.result.over:
            report.ended_by = "game over"
            return report
        if report.events >= max_events:
            report.ended_by = "limit"
            return report
        ev = rng.choice(candidates(st, rng))()  # each candidate is built only when drawn
        # the state as given: a transition never changes it (checked on one event in eight: repr costs)
        before = repr(st) if rng.random() < 0.125 else None
        try:
            if play.needs_settle(st, ev):
                st, _ = play.settle(st)
                continue
            new, entries = play.apply(st, ev)
        except Refusal:
            report.refused += 1
            if before is not None and repr(st) != before:
                report.violations.append(f"seed {seed}: a refused {ev.kind} changed the state")
            continue
        except NotModelled:
            report.ended_by = "not modelled"
            return report
        except Exception as exc:  # a fault of the engine: reported as a violation, never hidden
            report.violations.append(f"seed {seed}: {ev.kind} {ev.args} raised {type(exc).__name__}: {exc}")
            report.ended_by = "error"
            return report
        if before is not None and repr(st) != before:
            report.violations.append(f"seed {seed}: {ev.kind} changed the state it was given")
        if not all(e.rules for e in entries):
            report.violations.append(f"seed {seed}: a step of {ev.kind} cites no rule")
        report.events += 1
        report.attacks += ev.kind == "attack"
        report.schemes += ev.kind == "scheme"
        report.torpor += sum(1 for v in new.vampires.values() if v.location == TORPOR) > sum(
            1 for v in st.vampires.values() if v.location == TORPOR)
        report.knockouts += len(new.result.knocked_out) > len(st.result.knocked_out)
        report.violations += [f"seed {seed}, {ev.kind}: {v}" for v in violations(new) + total_violations(st, new, ev)]
        st = new
    report.ended_by = report.ended_by or "stuck"
    return report


def play_many(n: int, seed: int = 0, max_events: int = 80) -> list[Report]:
    return [play_game(seed * 100_003 + i, max_events) for i in range(n)]
