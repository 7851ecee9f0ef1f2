"""The forms of combat and damage: sentences and structured forms (docs/scenarios.md, "Combat" and "Damage").

A strike, a maneuver or a press names the minion that plays it and, when
it matters, where it comes from: a weapon the minion has ("with her .44
Magnum"), a combat card from the hand ("plays Roundhouse, a strike card"),
or an ability ("with his special ability"). Strike properties follow a
colon or "for": `N damage`, `N R damage` (ranged), `aggravated`, `first
strike`, `dodge`, `combat ends`, `steal N blood`, `destroy equipment X`,
`steal equipment X`, `costing N blood`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import (AggravateHands, ChooseStrike, CombatOver, Cost, EnterCombat, GainStrikes, InflictDamage, Maneuver,
                                 NoManeuver, NoPress, NoPrevent, Press, Prevent, StrikeSpec)
from judge.engine.vtes.card_text import named_ability
from judge.engine.vtes.cards import modelled
from judge.engine.vtes.forms import NUM, FormTable, bare_name, cost_of, minion_of, number

RANGES = ("close", "long")
STRIKE_KINDS = ("hand", "damage", "dodge", "combat ends", "steal blood", "destroy equipment", "steal equipment")
VIAS = ("hand", "weapon", "card", "ability")

FORMS = FormTable()


# -- properties ---------------------------------------------------------------------------------
_SPLIT = re.compile(r"\s*(?:,|;|\band\b)\s*")
_STRIKE_FORMS = ("N damage, N R damage, ranged, aggravated, first strike, dodge, combat ends, steal N blood, "
                 "destroy equipment X, steal equipment X, hand strike, costing N blood|pool")


@dataclass
class _Props:
    kind: Optional[str] = None
    amount: Optional[int] = None
    ranged: bool = False
    aggravated: bool = False
    first: bool = False
    equipment: Optional[str] = None
    cost_blood: int = 0
    cost_pool: int = 0
    to: Optional[str] = None

    def spec(self) -> StrikeSpec:
        return StrikeSpec(kind=self.kind, amount=self.amount, ranged=self.ranged, aggravated=self.aggravated,
                          first=self.first, equipment=self.equipment)

    def cost(self) -> Cost:
        return Cost(blood=self.cost_blood, pool=self.cost_pool)

    @property
    def empty(self) -> bool:
        return self.kind is None and self.amount is None and not (self.ranged or self.aggravated or self.first)


def strike_props(text: Optional[str], line: int, context: str = "strike") -> _Props:
    p = _Props()
    if not text:
        return p
    text = text.strip().rstrip(".").replace("(", ",").replace(")", "")
    for raw in _SPLIT.split(text):
        item = " ".join(raw.lower().split())
        if not item:
            continue
        m = re.fullmatch(rf"(?:for )?({NUM}) ?(r |ranged )?(aggravated )?(?:points? of )?(r |ranged )?(?:damage|dmg)", item)
        if m:
            p.amount = number(m.group(1))
            p.ranged = p.ranged or bool(m.group(2) or m.group(4))
            p.aggravated = p.aggravated or bool(m.group(3))
            p.kind = p.kind or "damage"
            continue
        m = re.fullmatch(rf"(?:for )?({NUM})r(?: damage)?", item)  # "2R"
        if m:
            p.amount, p.ranged, p.kind = number(m.group(1)), True, p.kind or "damage"
            continue
        m = re.fullmatch(rf"steals? ({NUM}) (?:blood|life)", item)
        if m:
            p.kind, p.amount = "steal blood", number(m.group(1))
            continue
        m = re.fullmatch(r"(destroy|steal)s? (?:equipment|weapon)(?: (.+))?", item)
        if m:
            p.kind = f"{m.group(1)} equipment"
            p.equipment = bare_name(raw.split(None, 2)[2]) if m.group(2) else None
            continue
        m = re.fullmatch(rf"cost(?:ing|s)? ({NUM}) (blood|pool|life)", item)
        if m:
            if m.group(2) == "pool":
                p.cost_pool += number(m.group(1))
            else:
                p.cost_blood += number(m.group(1))
            continue
        m = re.fullmatch(r"to (close|long)(?: range)?", item)
        if m and context == "maneuver":
            p.to = m.group(1)
            continue
        if item in ("ranged", "r", "ranged strike"):
            p.ranged = True
        elif item in ("aggravated", "aggravated damage"):
            p.aggravated = True
        elif item in ("first strike", "with first strike"):
            p.first = True
        elif item in ("dodge", "a dodge"):
            p.kind = "dodge"
        elif item in ("combat ends", "strike: combat ends", "ends combat", "end combat"):
            p.kind = "combat ends"
        elif item in ("hand strike", "a hand strike", "hands"):
            p.kind = "hand"
        elif item in ("optional maneuver", "maneuver", "strike card", "weapon", "combat card"):
            pass  # words for readability
        else:
            raise ScenarioError(f"in a {context}: cannot read {raw.strip()!r}; expected one of: {_STRIKE_FORMS}", line)
    return p


_HAND = ("hand", "hands", "hand strike", "a hand strike", "her hand", "his hand", "its hand", "their hand",
         "her hands", "his hands", "its hands", "their hands")


def _is_hand(source: Optional[str]) -> bool:
    return bool(source) and source.strip().lower() in _HAND


def _ability(source: Optional[str]) -> bool:
    return named_ability(source) is not None


def _source(raw: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """(source, via) from a 'with ...' phrase."""
    if not raw:
        return None, None
    if _is_hand(raw):
        return None, "hand"
    if _ability(raw):
        return raw.strip(), "ability"
    return bare_name(raw), None


def _weapon(names, source: Optional[str]):
    """The weapon card a strike or maneuver names, read (weapons.WeaponText), or None: no card base, no card of
    that name, or an equipment card the engine does not read as a weapon."""
    if not source or names.cards is None:
        return None
    facts = names.cards.lookup(source)
    if facts is None or tuple(facts.types) != ("Equipment",):
        return None
    return modelled(facts, None).weapon


# -- sentences ----------------------------------------------------------------------------------
_TO = r"(?: to (?P<to>close|long)(?: range)?)?"
_PROPS = r"(?:[:,] (?P<props>.+))?"


@FORMS.wording(r"{M} (?:enters|goes into) combat with {M2}(?: (?:through|with|because of|from) (?P<x>.+))?",
               "Belinde enters combat with Carna")
def _enter_combat(m, names, line, text):
    return EnterCombat(minion=minion_of(m, names, line), other=minion_of(m, names, line, "m2"), source=bare_name(m.group("x")),
                       line=line, text=text)


@FORMS.wording(r"{M} burns {N} blood to make (?:the damage (?:from|of) )?{PRON} hand strikes aggravated(?: (?:this|that) round)?"
               r"(?: (?:with|by) {PRON} (?:card's |special )?ability)?", "Crossbreaker burns 1 blood to make his hand strikes aggravated")
def _aggravate_hands(m, names, line, text):
    return AggravateHands(minion=minion_of(m, names, line), blood=number(m.group("n")), line=line, text=text)


@FORMS.wording(rf"{{M}} (?:maneuvers|manoeuvres){_TO}(?: (?:with|using) (?P<x>[^,:]+?))?{_PROPS}",
               "Ayelech maneuvers to long range with her .44 Magnum")
def _maneuver(m, names, line, text):
    props = strike_props(m.group("props"), line, "maneuver")
    source, via = _source(m.group("x"))
    return Maneuver(minion=minion_of(m, names, line), to=m.group("to") or props.to, source=source, via=via,
                    strike=None if props.empty else props.spec(), cost=props.cost(), weapon=_weapon(names, source),
                    line=line, text=text)


@FORMS.wording(rf"{{M}} plays (?:(?P<x>[^,:]+?),? )?a (?P<kind>maneuver card|strike card,? for its maneuver){_TO}{_PROPS}",
               "Colette plays a maneuver card to close range")
def _maneuver_card(m, names, line, text):
    props = strike_props(m.group("props"), line, "maneuver")
    strike_card = m.group("kind").startswith("strike")
    return Maneuver(minion=minion_of(m, names, line), to=m.group("to") or props.to, source=bare_name(m.group("x")),
                    via="strike card" if strike_card else "card",
                    strike=props.spec() if strike_card else None, cost=props.cost(), line=line, text=text)


@FORMS.wording(r"{M} (?:declines to maneuver|does not maneuver|has no (?:more )?maneuvers?(?: to play)?)",
               "Colette declines to maneuver")
def _no_maneuver(m, names, line, text):
    return NoManeuver(minion=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"(?:neither (?:minion )?maneuvers|nobody maneuvers|no (?:more )?maneuvers|(?:the )?range is (?:set |determined )?(?:to |at |: )?(?P<r>close|long)(?: range)?)",
               "the range is set to long")
def _range_set(m, names, line, text):
    return NoManeuver(range=m.group("r"), line=line, text=text)


def _strike_event(m, names, line, text, *, minion=None, kind=None, raw_source=None, props_text=None,
                  via=None, amount=None, retainer=None) -> ChooseStrike:
    props = strike_props(props_text, line)
    source, said_via = _source(raw_source)
    via = via or said_via
    spec = props.spec()
    if kind:
        spec = StrikeSpec(kind=kind, amount=amount if amount is not None else spec.amount, ranged=spec.ranged,
                          aggravated=spec.aggravated, first=spec.first, equipment=spec.equipment)
    if via == "hand" and spec.kind is None:
        spec = StrikeSpec(kind="hand", first=spec.first)
    return ChooseStrike(minion=minion or minion_of(m, names, line), spec=spec, source=source, via=via, retainer=retainer,
                        cost=props.cost(), weapon=_weapon(names, source) if via in (None, "weapon") else None,
                        line=line, text=text)


@FORMS.wording(r"{M} (?:uses (?:a|her|his|its|their) hand strike|strikes with (?:her|his|its|their) hands?|uses (?:her|his|its|their) hands?)(?: (?:one more time|again|for (?:the|her|his|its|their) \w+ strike))?",
               "Wauneka uses his hand strike")
def _hand_strike(m, names, line, text):
    return ChooseStrike(minion=minion_of(m, names, line), spec=StrikeSpec(kind="hand"), via="hand", line=line, text=text)


@FORMS.wording(r"{M} dodges(?: (?:with|using) (?P<x>[^,:]+?))?(?: as (?:her|his|its|their) strike)?" + _PROPS,
               "Flávio Gonçalves dodges with his special ability")
def _dodge(m, names, line, text):
    return _strike_event(m, names, line, text, kind="dodge", raw_source=m.group("x"), props_text=m.group("props"))


@FORMS.wording(rf"{{M}} steals (?P<n>{NUM}) (?:blood|life)(?: from {{M2}})?(?: as (?:her|his|its|their) strike)?(?: (?:with|using) (?P<x>[^,:]+?))?{_PROPS}",
               "Chrysanthemum steals 2 blood as her strike")
def _steal_blood(m, names, line, text):
    return _strike_event(m, names, line, text, kind="steal blood", amount=number(m.group("n")),
                         raw_source=m.group("x"), props_text=m.group("props"))


@FORMS.wording(r"{M} plays (?:(?P<x>[^,:]+?),? )?a strike card" + _PROPS, "Wauneka plays Roundhouse, a strike card: 4 damage")
def _strike_card(m, names, line, text):
    return _strike_event(m, names, line, text, raw_source=m.group("x"), props_text=m.group("props"), via="card")


@FORMS.wording(r"{M} strikes(?: {M2}'s (?P<ret>[^,:]+?))?(?: (?:with|using) (?P<x>[^,:]+?))?(?: for (?P<for>[^,:]+?))?" + _PROPS,
               "Ayelech strikes with her .44 Magnum for 2 R damage")
def _strike(m, names, line, text):
    props = ", ".join(x for x in (m.group("for") and _for_damage(m.group("for")), m.group("props")) if x)
    retainer = None
    if m.group("ret"):
        owner = minion_of(m, names, line, "m2")
        retainer = f"{owner}/{bare_name(m.group('ret'))}"
    return _strike_event(m, names, line, text, raw_source=m.group("x"), props_text=props or None, retainer=retainer)


def _for_damage(text: str) -> str:
    """'for 2' means 2 damage."""
    text = text.strip()
    return f"{text} damage" if re.fullmatch(rf"{NUM}(?: ?r| ranged)?(?: aggravated)?", text, re.I) else text


@FORMS.wording(rf"{{M}} (?:plays (?:(?P<x>[^,:]+?),? )?a card giving (?:her|him|it|them) |gains )(?P<n>{NUM}) additional strikes?(?: (?:from|with) (?P<x2>[^,:]+))?",
               "Wauneka plays a card giving him 1 additional strike")
def _gain_strikes(m, names, line, text):
    return GainStrikes(minion=minion_of(m, names, line), count=number(m.group("n")),
                       source=bare_name(m.group("x") or m.group("x2")), line=line, text=text)


@FORMS.wording(rf"{{M}} prevents (?P<n>{NUM}) (?:points? of )?(?P<agg>aggravated |normal )?damage(?: (?:with|using) (?P<x>[^,:]+?))?{_PROPS}",
               "Colette prevents 1 damage with Skin of Marble")
def _prevent(m, names, line, text):
    props = strike_props(m.group("props"), line, "prevention")
    agg = m.group("agg")
    return Prevent(minion=minion_of(m, names, line), amount=number(m.group("n")),
                   aggravated=None if not agg else agg.strip() == "aggravated", source=bare_name(m.group("x")),
                   cost=props.cost(), line=line, text=text)


@FORMS.wording(r"{M} (?:does not prevent|prevents no|plays no prevention for) (?:any |the )?damage", "Chrysanthemum does not prevent any damage")
def _no_prevent(m, names, line, text):
    return NoPrevent(minion=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"(?:(?:nobody|no one|neither minion|neither) prevents (?:any |more |any more )?damage|no (?:more )?(?:damage )?prevention)",
               "nobody prevents damage")
def _nobody_prevents(m, names, line, text):
    return NoPrevent(minion=None, line=line, text=text)


@FORMS.wording(r"(?:(?:the )?combat is over|end of (?:the )?combat|nothing more is played in (?:the )?combat)", "the combat is over")
def _combat_over(m, names, line, text):
    return CombatOver(line=line, text=text)


@FORMS.wording(r"{M} (?:presses|plays (?:(?P<x>[^,:]+?),? )?a press card)(?: to (?P<what>continue|end)(?: (?:the )?combat)?)?(?: (?:with|using) (?P<x2>[^,:]+?))?" + _PROPS,
               "Ayelech presses to continue")
def _press(m, names, line, text):
    props = strike_props(m.group("props"), line, "press")
    source = bare_name(m.group("x") or m.group("x2"))
    return Press(minion=minion_of(m, names, line), to_continue=(m.group("what") or "continue") == "continue",
                 source=source, cost=props.cost(), no_press=_not_a_press_card(names, source), line=line, text=text)


def _not_a_press_card(names, source) -> str:
    """A press named "with" a combat card that is no press card (cards.Catalog.no_press): its quote."""
    return names.cards.no_press(source) if source and names.cards is not None else ""


@FORMS.wording(r"(?:nobody presses|no (?:more )?press(?:es)?|{M} (?:does not press|declines to press))",
               "nobody presses")
def _no_press(m, names, line, text):
    return NoPress(minion=minion_of(m, names, line) if m.group("m") else None, line=line, text=text)


@FORMS.wording(rf"{{M}} (?:receives|takes|suffers) (?P<n>{NUM}) (?:points? of )?(?P<agg>aggravated |normal )?damage(?: and (?P<n2>{NUM}) (?:points? of )?(?P<agg2>aggravated |normal )?damage)?(?: from (?P<x>.+))?",
               "Ryan receives 2 normal damage and 1 aggravated damage")
def _inflict(m, names, line, text):
    normal = aggravated = 0
    for n, agg in ((m.group("n"), m.group("agg")), (m.group("n2"), m.group("agg2"))):
        if n is None:
            continue
        if agg and agg.strip() == "aggravated":
            aggravated += number(n)
        else:
            normal += number(n)
    return InflictDamage(minion=minion_of(m, names, line), normal=normal, aggravated=aggravated, source=bare_name(m.group("x")),
                         line=line, text=text)


# -- structured forms ------------------------------------------------------------------------------
def _spec_of(d: dict) -> StrikeSpec:
    kind = d.get("kind")
    if kind is not None and kind not in STRIKE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(STRIKE_KINDS)}")
    amount = d.get("damage", d.get("steal"))
    if kind is None and d.get("steal") is not None:
        kind = "steal blood"
    return StrikeSpec(kind=kind, amount=int(amount) if amount is not None else None, ranged=bool(d.get("ranged")),
                      aggravated=bool(d.get("aggravated")), first=bool(d.get("first_strike")),
                      equipment=d.get("equipment"))


def _via(d: dict, allowed: tuple[str, ...]) -> Optional[str]:
    via = d.get("via")
    if via is not None and via not in allowed:
        raise ValueError(f"via must be one of {', '.join(allowed)}")
    return via


@FORMS.structured("combat", ("with", "source"), "{combat: Belinde, with: Carna, source: Bum's Rush}")
def _s_combat(d, names, line, text):
    return EnterCombat(minion=names.canon_minion(d["combat"], line), other=names.canon_minion(d["with"], line),
                       source=d.get("source"), line=line, text=text)


@FORMS.structured("maneuver", ("to", "with", "via", "damage", "ranged", "aggravated", "first_strike", "cost"),
                  "{maneuver: Ayelech, with: .44 Magnum, to: long}")
def _s_maneuver(d, names, line, text):
    to = d.get("to")
    if to is not None and to not in RANGES:
        raise ValueError("to must be close or long")
    spec = _spec_of(d)
    has_spec = spec.amount is not None or spec.kind is not None
    return Maneuver(minion=names.canon_minion(d["maneuver"], line), to=to, source=d.get("with"),
                    via=_via(d, ("weapon", "card", "strike card", "ability")), strike=spec if has_spec else None,
                    cost=cost_of(d), line=line, text=text)


@FORMS.structured("aggravate_hands", ("blood",), "{aggravate_hands: Crossbreaker}")
def _s_aggravate_hands(d, names, line, text):
    return AggravateHands(minion=names.canon_minion(d["aggravate_hands"], line),
                          blood=int(d["blood"]) if d.get("blood") is not None else None, line=line, text=text)


@FORMS.structured("no_maneuver", ("range",), "{no_maneuver: Colette}")
def _s_no_maneuver(d, names, line, text):
    who = d["no_maneuver"]
    rng = d.get("range")
    if rng is not None and rng not in RANGES:
        raise ValueError("range must be close or long")
    return NoManeuver(minion=None if who in (True, "all", "nobody") else names.canon_minion(who, line), range=rng,
                      line=line, text=text)


@FORMS.structured("strike", ("with", "via", "kind", "damage", "ranged", "aggravated", "first_strike", "steal", "equipment",
                             "retainer", "cost"),
                  "{strike: Ayelech, with: .44 Magnum, damage: 2, ranged: true}")
def _s_strike(d, names, line, text):
    retainer = d.get("retainer")
    minion = names.canon_minion(d["strike"], line)
    if retainer is not None and "/" not in str(retainer):
        raise ValueError("retainer is written owner/retainer, e.g. Colette/Raven")
    if retainer is not None:
        owner, _, ret = str(retainer).partition("/")
        retainer = f"{names.canon_minion(owner, line)}/{ret.strip()}"
    source, via = _source(d.get("with"))
    return ChooseStrike(minion=minion, spec=_spec_of(d), source=source, via=_via(d, VIAS) or via, retainer=retainer,
                        cost=cost_of(d), line=line, text=text)


@FORMS.structured("additional_strikes", ("count", "source"), "{additional_strikes: Wauneka, count: 1}")
def _s_gain(d, names, line, text):
    return GainStrikes(minion=names.canon_minion(d["additional_strikes"], line), count=int(d.get("count", 1)),
                       source=d.get("source"), line=line, text=text)


@FORMS.structured("prevent", ("damage", "aggravated", "with", "cost"), "{prevent: Colette, damage: 1, with: Skin of Marble}")
def _s_prevent(d, names, line, text):
    agg = d.get("aggravated")
    return Prevent(minion=names.canon_minion(d["prevent"], line), amount=int(d["damage"]),
                   aggravated=None if agg is None else bool(agg), source=d.get("with"), cost=cost_of(d),
                   line=line, text=text)


@FORMS.structured("press", ("to", "with", "cost"), "{press: Ayelech, to: continue}")
def _s_press(d, names, line, text):
    to = d.get("to", "continue")
    if to not in ("continue", "end"):
        raise ValueError("to must be continue or end")
    return Press(minion=names.canon_minion(d["press"], line), to_continue=to == "continue", source=d.get("with"),
                 cost=cost_of(d), no_press=_not_a_press_card(names, d.get("with")), line=line, text=text)


@FORMS.structured("no_press", (), "{no_press: true}")
def _s_no_press(d, names, line, text):
    who = d["no_press"]
    return NoPress(minion=names.canon_minion(who, line) if isinstance(who, str) else None, line=line, text=text)


@FORMS.structured("no_prevent", (), "{no_prevent: Chrysanthemum}")
def _s_no_prevent(d, names, line, text):
    who = d["no_prevent"]
    return NoPrevent(minion=names.canon_minion(who, line) if isinstance(who, str) else None, line=line, text=text)


@FORMS.structured("combat_over", (), "{combat_over: true}")
def _s_combat_over(d, names, line, text):
    return CombatOver(line=line, text=text)


@FORMS.structured("inflict", ("damage", "aggravated", "source"), "{inflict: Ryan, damage: 2, aggravated: 1}")
def _s_inflict(d, names, line, text):
    return InflictDamage(minion=names.canon_minion(d["inflict"], line), normal=int(d.get("damage", 0)),
                         aggravated=int(d.get("aggravated", 0)), source=d.get("source"), line=line, text=text)
