"""A weapon equipment card read as printed (issue 37): the strike a minion makes with it, and the maneuvers it gives.

".44 Magnum: Weapon: gun. Strike: 2R damage, with 1 optional maneuver each combat." `weapon_of` reads such a text into
a `WeaponText`: its label ("Melee weapon.", "Weapon: gun.", "Unique weapon."), its strike ("Strike: strength+1
damage.", "Strike: 2R aggravated damage.", "Strength+1 damage each strike.", "3R damage each strike.", "3 damage as a
strike."), and the riders of that strike: ", with N optional maneuver(s) each combat" (", only usable to get to close
range"), ", only usable once each combat|round", ", only usable at long range". A sentence of any other form is the
card's unread text (`WeaponText.unread`): a strike or maneuver with the weapon then stops naming it, unless the
scenario says what the strike does.

The engine side (combat.py): `strike_of` gives the strike the weapon makes (the one the scenario says is checked
against it), `use` counts a use the card limits, `maneuver` counts a maneuver the card gives. A minion strikes with
a weapon it bears (its `equipment`), as before; the card is found by the equipment's name when the scenario is read
(the events carry it: `ChooseStrike.weapon`, `Maneuver.weapon`).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import rules as R
from judge.engine.vtes.events import StrikeSpec
from judge.engine.vtes.state import Combat

_LABEL = re.compile(r"(?P<unique>Unique )?(?:(?P<melee>melee weapon)|weapon(?P<gun>(?::|,) gun)?)", re.I)
_COUNT = {"an": 1, "one": 1, "two": 2}  # (a digit is read as its number)
_DAMAGE = (r"(?:(?P<strength>strength)(?:\+(?P<plus>\d))?|(?P<n>\d)(?P<r>R)?) (?P<agg>aggravated )?damage")
_RIDERS = (r"(?P<riders>(?:(?:,| and|;) (?:with (?P<maneuvers>an|one|two|\d) optional maneuvers? each combat"
           r"(?P<close>, only usable to get to close range)?|only usable once (?:each|per) (?P<once>combat|round)"
           r"|(?:and )?only (?:usable )?at long range))*)")
_STRIKE = re.compile(rf"(?:Strike: {_DAMAGE}|{_DAMAGE.replace('(?P<', '(?P<e_')} (?:each strike|as a strike)){_RIDERS}",
                     re.I)


# a rider printed as a sentence of its own ("This weapon is only usable once each combat.", "Only usable at long
# range.")
_RIDER = re.compile(r"(?:(?:This weapon is only usable|This weapon can be used to strike only|Only usable) once "
                    r"(?:each|per) (?P<once>combat|round)|Only usable at long range(?P<long>))", re.I)


class WeaponText(NamedTuple):
    """A weapon card read (`weapon_of`)."""

    card: str
    label: str  # the label sentence as printed ("Weapon: gun.")
    sentence: str  # the strike's sentence as printed (and its riders printed apart: "Only usable at long range.")
    amount: int  # its damage, or what it adds to the bearer's strength (`strength`)
    strength: bool = False  # "strength+N damage": the bearer's strength in combat and N more
    ranged: bool = False
    aggravated: bool = False
    maneuvers: int = 0  # optional maneuvers each combat
    maneuver_to: Optional[str] = None  # ... "only usable to get to close range"
    once: Optional[str] = None  # "only usable once each combat|round"
    long_only: bool = False  # "only usable at long range"
    unique: bool = False
    unread: tuple[str, ...] = ()  # its other sentences, not read
    read: frozenset = frozenset()  # the text's sentences read whole (a label and strike printed as one included)

    @property
    def melee(self) -> bool:
        return not self.ranged


def weapon_of(name: str, sentences: list[str]) -> Optional[WeaponText]:
    """The weapon card's text read, or None when no sentence labels it a weapon with a strike the engine reads.
    `sentences`: the card's text split into sentences (a label and a strike printed as one: "Weapon, gun. 3R damage
    each strike." are read apart)."""
    parts: list[str] = []
    split: dict[str, tuple[str, ...]] = {}  # each sentence -> its parts
    for s in sentences:
        head = re.match(r"((?:Unique )?(?:Melee w|W)eapon(?:(?::|,) [Gg]un)?\.)\s+(?=\d|Strength|Strike)", s)
        split[s] = (head.group(1), s[head.end():]) if head else (s,)
        parts += split[s]
    label = next((s for s in parts if _LABEL.fullmatch(s.strip().rstrip("."))), None)
    strike = next(((s, m) for s in parts if (m := _STRIKE.fullmatch(s.strip().rstrip("."))) is not None), None)
    if label is None or strike is None:
        return None
    sentence, m = strike
    g = {k.removeprefix("e_"): v for k, v in m.groupdict().items() if v is not None}
    lab = _LABEL.fullmatch(label.strip().rstrip("."))
    once, long_only = (g.get("once") or "").lower() or None, "long range" in g.get("riders", "")
    riders = [(s, r) for s in parts if s not in (label, sentence) and (r := _RIDER.fullmatch(s.strip().rstrip(".")))]
    for _, r in riders:
        once = once or (r.group("once") or "").lower() or None
        long_only = long_only or r.group("long") is not None
    known = {label, sentence, *(s for s, _ in riders)}
    return WeaponText(
        card=name, label=label, sentence=" ".join([sentence.strip(), *(s.strip() for s, _ in riders)]),
        amount=int(g.get("plus") or g.get("n") or 0),
        strength=bool(g.get("strength")), ranged=bool(g.get("r")), aggravated=bool(g.get("agg")),
        maneuvers=_COUNT.get(g["maneuvers"].lower()) or int(g["maneuvers"]) if g.get("maneuvers") else 0,
        maneuver_to="close" if g.get("close") else None, once=once, long_only=long_only,
        unique=bool(lab.group("unique")), unread=tuple(s for s in parts if s not in known),
        read=frozenset(s for s, ps in split.items() if all(p in known for p in ps)))


def _quote(w: WeaponText) -> str:
    return f"{w.card}: \"{w.label.strip()} {w.sentence.strip()}\""


def _read_whole(w: WeaponText, what: str) -> None:
    if w.unread:
        raise NotModelled(f"{what} with {w.card}: its card's \"{' '.join(w.unread)}\" is not read. {_quote(w)}",
                          [R.STRIKE_SOURCES, R.GOLDEN_RULE])


def strike_of(w: WeaponText, said: StrikeSpec, strength: int) -> StrikeSpec:
    """The strike the weapon makes, its damage from the card ("strength+1": `strength`, the bearer's in combat, and
    1 more). What the scenario said of it must be that: a strike it does not give (more damage, ranged or aggravated
    damage the card does not print) is refused, quoting the card; "R" or "aggravated" left unsaid are the card's.
    First strike said is not modelled (the card gives none; another card might). A weapon whose other text the engine
    does not read stops, naming it (`_read_whole`); combat._weapon_strike takes a strike said whole with such a
    weapon as said, naming that text, its limits (`use`) still applied."""
    _read_whole(w, "a strike")
    amount = strength + w.amount if w.strength else w.amount
    if said.kind not in (None, "damage") or (said.amount is not None and said.amount != amount) or \
            (said.ranged and not w.ranged) or (said.aggravated and not w.aggravated):
        what = f"{amount}{'R' if w.ranged else ''}{' aggravated' if w.aggravated else ''} damage"
        raise Refusal(f"a strike with {w.card} is {what}" + (f" (strength {strength} and {w.amount} more)"
                                                            if w.strength else "") + f". {_quote(w)}",
                      [R.STRIKE_SOURCES, R.GOLDEN_RULE])
    if said.first:
        raise NotModelled(f"a strike with {w.card} with first strike: the card gives none, and where it comes from "
                          f"is not said. {_quote(w)}", [R.FIRST_STRIKE, R.STRIKE_SOURCES])
    return StrikeSpec(kind="damage", amount=amount, ranged=w.ranged, aggravated=w.aggravated)


def use(w: WeaponText, minion: str, c: Combat, range_: Optional[str], copies: int = 1) -> Optional[str]:
    """A strike with the weapon now: refused when the card limits it ("only usable once each combat", "only usable at
    long range"), each of the `copies` the bearer has giving its own use (the rulings: "A second copy allows a second
    use"); returns the key to count this use under (`Combat.used_abilities`), or None. `range_`: the range it strikes
    at (after a maneuver, the range it moves to)."""
    if w.long_only and range_ != "long":
        raise Refusal(f"{w.card} strikes only at long range; the range is {range_ or 'close'}. {_quote(w)}",
                      [R.STRIKE_SOURCES, R.GOLDEN_RULE])
    if w.once is None:
        return None
    key = f"{w.card}: strike" + (f" (round {c.round})" if w.once == "round" else "")
    if c.uses(minion, key) >= copies:
        raise Refusal(f"{minion} already struck with {w.card} this {w.once}{' with each copy' if copies > 1 else ''}:"
                      f" it is only usable once each {w.once}. {_quote(w)}", [R.STRIKE_SOURCES, R.GOLDEN_RULE])
    return key


def maneuver(w: WeaponText, minion: str, c: Combat, to: str, copies: int = 1) -> str:
    """A maneuver with the weapon: refused when the card gives none, none is left this combat (each of the `copies`
    the bearer has gives its own; the uses go with the card to a new bearer: `moved`), or it goes to the range the
    card does not allow; returns the key to count it under (`Combat.used_abilities`)."""
    _read_whole(w, "a maneuver")
    if not w.maneuvers:
        raise Refusal(f"{w.card} gives no maneuver. {_quote(w)}", [R.MANEUVER, R.GOLDEN_RULE])
    if w.maneuver_to and to != w.maneuver_to:
        raise Refusal(f"{w.card}'s maneuver is only usable to get to {w.maneuver_to} range. {_quote(w)}",
                      [R.MANEUVER, R.GOLDEN_RULE])
    key = f"{w.card}: maneuver"
    if c.uses(minion, key) >= w.maneuvers * copies:
        raise Refusal(f"{minion} has used the {w.maneuvers} optional maneuver{'s' if w.maneuvers > 1 else ''} "
                      f"{w.card} gives each combat{' (each copy)' if copies > 1 else ''}. {_quote(w)}",
                      [R.MANEUVER, R.GOLDEN_RULE])
    return key


def moved(used: tuple, item: str, src: str, dst: str, left: int) -> tuple:
    """The uses counted this combat (`Combat.used_abilities`) after the weapon `item` moved from `src` to `dst` (a
    stolen weapon): its uses go with it (the ruling on .44 Magnum: "only one maneuver each combat, even if the bearer
    changes"). With `left` copies still on `src` which copy's uses they were is not said: not modelled."""
    def its(key: str) -> bool:  # (the keys name the card as printed; the table may spell it otherwise)
        return key.casefold().startswith(f"{item}: ".casefold())

    mine = [k for who, k in used if who == src and its(k)]
    if mine and left:
        raise NotModelled(f"{item} is stolen from {src}, who bears another copy, after {src} used {item} this combat: "
                          f"which copy's uses go with it is not said", [R.STEAL_EQUIPMENT, R.GOLDEN_RULE])
    return tuple((dst if who == src and its(key) else who, key) for who, key in used)
