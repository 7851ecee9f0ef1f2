"""What a political action card's referendum does, read as printed (issue 37): the points its terms allocate, and the
pool and blood its result moves.

"Allocate 4 points among two or more Methuselahs. Successful referendum means each Methuselah burns 1 pool for each
point allocated." (Kine Resources Contested). `referendum_text_of` reads such a text into a `ReferendumText`: the
allocation its terms make (how many points, among how many Methuselahs, others only or not), and its outcomes, each
one sentence: "Successful referendum means each Methuselah burns|gains N pool [for each <what> they control]", "...
each vampire burns N blood", "... all vampires with capacity below N burn N blood", "Each Methuselah then burns N pool
for each equipment, location or retainer card he or she controls.", "If this referendum fails, the acting vampire
burns N blood." A card's other sentences stay its unread text: playing it stops naming them, unless the scenario says
what passing does (`effect:` or `says:`).

The engine side: `allocate` at the terms step (checked against the card and its rulings: two or more Methuselahs,
every point allocated, none to the caller when the card says "other"), `take_effect` when the polling closes, the
outcomes applied in the order printed, the counts taken then (the ruling on Domain Challenge: "Locked minions are
counted after the referendum is completed").
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import rules as R
from judge.engine.vtes.card_text import ruling_quote
from judge.engine.vtes.helpers import Log, blood, names, pool, require_seated
from judge.engine.vtes.state import TORPOR, VAMPIRE, Draft, Referendum
from judge.engine.vtes import traits

_ALLOCATE = re.compile(r"Allocate (?:(?P<n>\d+)|X) points among two or more (?P<other>other )?Methuselahs"
                       r"(?P<x>, where X is the number of Methuselahs in the game)?")
_COUNTED = r"(?P<per>point allocated|minion|locked minion|vampire in torpor|ready Independent or Anarch vampire)"
_PASSES = r"(?:Successful referendum means|If this referendum is successful,)"
_POOL = re.compile(rf"{_PASSES} each Methuselah (?P<verb>burns|gains) (?P<n>\d) pool"
                   rf"(?: for each {_COUNTED}(?: (?:they|he or she) controls?)?)?")
_THEN = re.compile(r"Each Methuselah then (?P<verb>burns|gains) (?P<n>\d) pool for each (?P<per>equipment, location or "
                   r"retainer card) he or she controls")
_BLOOD = re.compile(rf"{_PASSES} (?:each vampire|all vampires with capacity below (?P<below>\d)) burns? "
                    r"(?P<n>\d) blood")
_FAILS = re.compile(r"If this referendum fails, the acting vampire burns (?P<n>\d) blood")
# "Select the Methuselah with the Edge. If this referendum is successful, that Methuselah burns 1 pool." (Code of Milan
# Suspended): the terms select the Edge's holder, whom the outcome names
_SELECT_EDGE = re.compile(r"Select the Methuselah with the Edge")
_SELECTED = re.compile(rf"{_PASSES} that Methuselah (?P<verb>burns|gains) (?P<n>\d) pool")


class Outcome(NamedTuple):
    """One sentence of what the referendum does."""

    sentence: str
    unit: str  # "pool" | "blood"
    amount: int  # signed: -1 burns 1
    per: Optional[str] = None  # what each Methuselah counts among what they control ("minion", "point allocated")
    below: Optional[int] = None  # "all vampires with capacity below N"
    on_fail: bool = False  # "If this referendum fails, the acting vampire ..."
    selected: bool = False  # "... that Methuselah burns 1 pool": the Methuselah its terms selected


class ReferendumText(NamedTuple):
    """A political action card's referendum read (`referendum_text_of`)."""

    card: str
    outcomes: tuple[Outcome, ...]
    allocate: Optional[int] = None  # the points its terms allocate (None: no allocation; see `allocate_x`)
    allocate_x: bool = False  # "X points ..., where X is the number of Methuselahs in the game"
    allocate_others: bool = False  # "among two or more other Methuselahs": none to the caller
    allocate_sentence: str = ""
    read: frozenset = frozenset()
    select_edge: str = ""  # its terms' "Select the Methuselah with the Edge." (the sentence)
    rulings: tuple = ()  # the card's (ID, text), quoted where one decides a step

    def ruling(self, *words: str) -> str:
        """" (the ruling [ID]: "...")" for the card's first ruling holding all `words`, or ""."""
        return ruling_quote(self.rulings, *words)


def referendum_text_of(name: str, sentences: list[str], rulings: tuple = ()) -> Optional[ReferendumText]:
    """The card's text read as its referendum, or None when no sentence of it is an outcome above; its other
    sentences are not read here (`ReferendumText.read` holds those that are)."""
    outcomes: list[Outcome] = []
    allocate, x, others, said = None, False, False, ""
    read, select = set(), ""
    for s in sentences:
        text = s.strip().rstrip(".")
        if (m := _ALLOCATE.fullmatch(text)) and allocate is None and bool(m.group("n")) != bool(m.group("x")):
            allocate, x, others, said = int(m.group("n") or 0), bool(m.group("x")), bool(m.group("other")), s
        elif _SELECT_EDGE.fullmatch(text) and not select:
            select = s
        elif (m := _SELECTED.fullmatch(text)) and select:
            sign = -1 if m.group("verb") == "burns" else 1
            outcomes.append(Outcome(s, "pool", sign * int(m.group("n")), selected=True))
        elif m := _POOL.fullmatch(text):
            sign = -1 if m.group("verb") == "burns" else 1
            outcomes.append(Outcome(s, "pool", sign * int(m.group("n")), m.group("per")))
        elif m := _THEN.fullmatch(text):
            sign = -1 if m.group("verb") == "burns" else 1
            outcomes.append(Outcome(s, "pool", sign * int(m.group("n")), m.group("per")))
        elif m := _BLOOD.fullmatch(text):
            outcomes.append(Outcome(s, "blood", -int(m.group("n")),
                                    below=int(m.group("below")) if m.group("below") else None))
        elif m := _FAILS.fullmatch(text):
            outcomes.append(Outcome(s, "blood", -int(m.group("n")), on_fail=True))
        else:
            continue  # (another sentence: the card's other text, read elsewhere or not at all)
        read.add(s)
    allocated = any(o.per == "point allocated" for o in outcomes)
    if not outcomes or allocated != (allocate is not None) or (select and not any(o.selected for o in outcomes)):
        return None  # (points allocated and never spent, or spent and never allocated: not this form)
    return ReferendumText(name, tuple(outcomes), allocate, x, others, said,
                          read=frozenset(read), rulings=tuple(rulings),
                          select_edge=select)


# -- the engine ------------------------------------------------------------------------------------------------
def of(r: Optional[Referendum]) -> Optional[ReferendumText]:
    """The referendum text of the card that called the referendum, or None."""
    a = r.action if r is not None else None
    return a.payload if a is not None and isinstance(a.payload, ReferendumText) else None


def needs_allocation(r: Referendum) -> Optional[ReferendumText]:
    """The card's text, when its terms allocate points and none are allocated yet."""
    rt = of(r)
    return rt if rt is not None and rt.allocate is not None and not r.allocated else None


def points(d: Draft, rt: ReferendumText) -> int:
    """The points the card allocates: its number, or X, the Methuselahs in the game."""
    return len(d.seated()) if rt.allocate_x else rt.allocate


def check_playable(d: Draft, rt: ReferendumText, player: str, rulings: tuple = ()) -> None:
    """As the card is played: its allocation needs two Methuselahs to allocate among (the rulings: "Cannot be played
    if there is only one opponent left"); "Select the Methuselah with the Edge." needs one to have it (the rulings:
    "Cannot be used or played if the conditions for the terms of the referendum cannot be met")."""
    if rt.select_edge and d.edge is None:
        ruled = next((f" [{rid}] {text}" for rid, text in rulings if "no legal selection" in text), "")
        raise Refusal(f"{rt.card} cannot be played: no Methuselah has the Edge for its terms to select "
                      f"(\"{rt.select_edge.strip()}\").{ruled}", [R.POLITICAL_TERMS, R.GOLDEN_RULE])
    if rt.allocate is None:
        return
    among = [p for p in d.seated() if not (rt.allocate_others and p == player)]
    if len(among) < 2:
        ruled = next((f" [{rid}] {text}" for rid, text in rulings if "only one opponent" in text), "")
        raise Refusal(f"{rt.card} cannot be played: its terms allocate points among two or more "
                      f"{'other ' if rt.allocate_others else ''}Methuselahs, and {names(among) or 'none'} "
                      f"{'is' if len(among) == 1 else 'are'} left (\"{rt.allocate_sentence.strip()}\").{ruled}",
                      [R.POLITICAL_TERMS, R.GOLDEN_RULE])


def allocate(d: Draft, r: Referendum, given: tuple) -> tuple:
    """The points the caller allocates as the terms (`given`: (Methuselah, points) pairs), checked against the card:
    every point allocated, among two or more Methuselahs (the rulings: "Cannot allocate 4 points to a single
    Methuselah"), none to the caller when it says "other"."""
    rt = of(r)
    if rt is None or rt.allocate is None:
        card = f"{r.card}'s terms, as the engine reads them," if r.card else "the referendum's terms"
        raise Refusal(f"{card} allocate no points", [R.POLITICAL_TERMS])
    quote = f"{rt.card}: \"{rt.allocate_sentence.strip()}\""
    for p, n in given:
        require_seated(d, p)
        if n < 0:
            raise Refusal(f"{n} points cannot be allocated to {p}. {quote}", [R.POLITICAL_TERMS])
    kept = tuple((p, n) for p, n in given if n > 0)
    total, want = sum(n for _, n in kept), points(d, rt)
    if total != want:
        raise Refusal(f"{total} point{'s' if total != 1 else ''} allocated, not the {want} the card allocates. {quote}",
                      [R.POLITICAL_TERMS, R.GOLDEN_RULE])
    if len({p for p, _ in kept}) < 2:
        raise Refusal(f"the points go to {names([p for p, _ in kept])} alone: they are allocated among two or more "
                      f"Methuselahs. {quote}{rt.ruling('single Methuselah')}", [R.GOLDEN_RULE])
    if rt.allocate_others and any(p == r.player for p, _ in kept):
        raise Refusal(f"{r.player} calls the referendum: the points go to other Methuselahs. {quote}"
                      f"{rt.ruling('nor any point to')}", [R.GOLDEN_RULE])
    return kept


def allocation_rulings(d: Draft, r: Referendum, given: tuple) -> str:
    """The card's rulings that allow what the allocation does: points to the caller, more points than a pool."""
    rt = of(r)
    out = ""
    if any(p == r.player for p, _ in given):
        out += rt.ruling("allocate points to yourself")
    if any(n > d.players[p].pool for p, n in given):
        out += rt.ruling("more points than")
    return out


def _count(d: Draft, player: str, per: str, r: Referendum) -> int:
    mine = [m for m in d.minions.values() if m.controller == player and traits.in_play(m)]
    if per == "point allocated":
        return sum(n for p, n in r.allocated if p == player)
    if per == "minion":
        return len(mine)
    if per == "locked minion":
        return sum(1 for m in mine if m.locked)
    if per == "vampire in torpor":
        return sum(1 for m in mine if m.kind == VAMPIRE and m.region == TORPOR)
    if per == "ready Independent or Anarch vampire":
        unknown = [m.name for m in mine if m.kind == VAMPIRE and m.ready and m.sect is None and not m.anarch]
        if unknown:
            raise NotModelled(f"the table does not say the sect of {names(unknown)}", [R.GOLDEN_RULE])
        return sum(1 for m in mine if m.kind == VAMPIRE and m.ready and (m.anarch or (m.sect or "").casefold() in
                                                                         ("independent", "anarch")))
    if per == "equipment, location or retainer card":  # (the ruling: each equipment, location and retainer)
        return sum(len(m.equipment) + len(m.retainers) for m in mine) + sum(
            1 for c in d.cards if c.controller == player and c.kind == "location" and not c.contested)
    raise AssertionError(per)


def take_effect(d: Draft, log: Log, r: Referendum, passed: bool) -> None:
    """The referendum's outcomes (those of a pass, or of a failure), in the order printed."""
    rt = of(r)
    for o in rt.outcomes:
        if o.on_fail == passed:
            continue
        # (a failed referendum has no effect but what the card says: the Golden Rule alone)
        rules = [R.GOLDEN_RULE] if o.on_fail else [R.REFERENDUM_RESULT, R.GOLDEN_RULE]
        ruled = {"locked minion": rt.ruling("counted after"),
                 "equipment, location or retainer card": rt.ruling("each equipment")}.get(o.per or "", "")
        if o.unit == "pool" and o.selected:
            p = r.selected
            done = pool(d, p, o.amount) if p is not None and d.players[p].seated else 0
            said = (f"{p} {'gains' if done > 0 else 'burns'} {abs(done)} (now {d.players[p].pool})" if done else
                    f"{p or 'no Methuselah'} {'is out of the game' if p else 'was selected'}: no pool moves")
            log.add(f"{rt.card}: \"{o.sentence.strip()}\": {said}.", *rules, R.BLOOD_BANK)
            continue
        if o.unit == "pool":
            moved = []
            for p in d.seated():
                n = o.amount * (_count(d, p, o.per, r) if o.per else 1)
                if n:
                    done = pool(d, p, n)
                    moved.append(f"{p} {'gains' if done > 0 else 'burns'} {abs(done)} (now {d.players[p].pool})")
            log.add(f"{rt.card}: \"{o.sentence.strip()}\"{ruled}: {'; '.join(moved) if moved else 'no pool moves'}.",
                    *rules, R.BLOOD_BANK)
            continue
        if o.on_fail:
            targets = [r.caller] if r.caller in d.minions else []
        else:
            targets = [m.name for m in d.minions.values() if m.kind == VAMPIRE and traits.in_play(m)
                       and (o.below is None or m.capacity < o.below)]
        moved = []
        for name in targets:
            done = blood(d, name, o.amount, log)
            moved.append(f"{name} burns {abs(done)} (now {d.minions[name].blood})" if done else
                         f"{name} has no blood to burn")
        log.add(f"{rt.card}: \"{o.sentence.strip()}\": {'; '.join(moved) if moved else 'no vampire is concerned'}.",
                *rules, R.BLOOD_BANK)
