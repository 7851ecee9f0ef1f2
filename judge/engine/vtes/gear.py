"""Equipment cards other than weapons, and action cards put on the acting vampire, read as printed (issue 37): what
they give the minion they are on.

"Electronic. The bearer gets +1 bleed. A minion can have only one Laptop Computer." (Laptop Computer), "Equipment. The
minion with this equipment may prevent 1 damage each combat." (Flak Jacket), "Vehicle. This minion gets +1 intercept.
A minion can have only one vehicle." (Sport Bike). `gear_text_of` reads such a card: its labels ("Equipment.",
"Unique equipment.", "Electronic.", "Vehicle.", "Haven."), what it gives the minion bearing it (read as a retainer's
are, `retainers.given_to`: "The bearer gets +1 bleed.", "... may prevent 1 damage each combat.", "This minion gets
+1 intercept."), and its "A minion can have only one <label or card>." limit. A weapon is read by weapons.py.

The scenario names the cards its table and events use; their texts ride in the state (`GameState.gear`), so the
replay never looks a card up. The bonuses count with the bearer's own (helpers.crypt_bonus), the prevention is
counted each combat (combat.prevent), the limit refuses a second such card (actions.equip_action); a sentence not read
stops the replay where it could matter, naming it (`check_unread`): as the card is equipped from the hand, and, for
a card the table puts on a minion, as the bearer acts, blocks, enters combat, plays a modifier or reaction or casts
votes, and at the phases and the influencing its sentences name. (A minion chosen as a card's target is not checked:
"cannot be the target of ..." on equipment is not read there.)
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from judge.engine.errors import NotModelled
from judge.engine.vtes import rules as R
from judge.engine.vtes.card_text import Ability
from judge.engine.vtes.retainers import given_to

# "Equipment.", "Unique equipment.", "Electronic equipment.", "Vehicle.", "Unique vehicle.", "Haven.": the card's
# labels (its uniqueness is the card data's, checked as it is equipped)
_LABEL = re.compile(r"(?:Unique )?(?P<labels>(?:Electronic|Vehicle|Haven|Equipment)(?: (?:equipment|vehicle))?)|"
                    r"(?P<unique>Unique)", re.I)
_ONE = re.compile(r"A (?:minion|vampire) (?:may|can) have only one (?P<what>.+?)")
# the subjects of what it gives its bearer, read as the employer's of a retainer
_SUBJECTS = (r"(?:(?:[Tt]he )?[Bb]earer|[Tt]he (?:minion|vampire) with this (?:equipment|card)|[Tt]his minion|"
             r"[Tt]his vampire|[Tt]he (?:minion|vampire) bearing this (?:equipment|card))")


_HUNT = re.compile(_SUBJECTS + r" gets \+(?P<n>\d) hunt")


class GearText(NamedTuple):
    """An equipment card read (`gear_text_of`)."""

    card: str
    labels: tuple[str, ...]  # lower case: "vehicle", "electronic", "haven", "equipment"
    bonuses: tuple  # card_text.Bonus: what it gives its bearer
    abilities: tuple  # card_text.Ability: "prevent", "maneuver", "press", "hunt" its bearer gets
    one: tuple[str, str]  # ("vehicle" or the card's name, the sentence): a minion may bear only one; () when none
    unread: tuple[str, ...]  # its sentences not read, as printed


def gear_text_of(name: str, sentences: list[str]) -> GearText:
    """The equipment card `name` read from its sentences (its "Requires ..." ones the engine checks left out)."""
    labels, rest, one, hunts = [], [], (), []
    for s in sentences:
        text = s.strip().rstrip(".")
        label = _LABEL.fullmatch(text)
        if label:  # ("Unique.": the card data's uniqueness, checked as it is equipped)
            labels += [w.casefold() for w in (label.group("labels") or "").split()]
            continue
        more = _HUNT.fullmatch(text)
        if more:  # "The bearer gets +1 hunt.": its hunts, as a vampire's own "+1 hunt."
            hunts.append(Ability("hunt", s.strip(), amount=int(more.group("n"))))
            continue
        limit = _ONE.fullmatch(text.replace("only 1 ", "only one "))
        what = limit.group("what") if limit else ""
        if limit and not one and (what.casefold() in ("vehicle", "haven") or what == name):
            one = (what.casefold() if what != name else name, s.strip())
            continue
        rest.append(s.strip())
    bonuses, abilities, unread = given_to(rest, _SUBJECTS)
    return GearText(name, tuple(dict.fromkeys(labels)), bonuses, abilities + tuple(hunts), one, unread)


# an action card put on its acting vampire: "+1 stealth action. Put this card on this vampire. This vampire gets +1
# bleed. A vampire can have only one Heart of the City." (its `given` sentences read as a retainer's for its employer)
_PUT_ON_ACTOR = re.compile(r"Put this card on (?:this|the acting|this acting) vampire")
_STEALTH_ACTION = re.compile(r"\+(?P<n>\d) stealth action")
_ON_SUBJECTS = r"(?:[Tt]his (?:acting )?vampire|[Tt]he vampire with this card)"


class OnVampireText(NamedTuple):
    """An action card that puts itself on its acting vampire, read (`on_vampire_text_of`)."""

    card: str
    put: str  # the sentence putting it on the vampire
    stealth: int  # its "+N stealth action."
    bonuses: tuple  # card_text.Bonus: what it gives the vampire while on it
    abilities: tuple  # card_text.Ability
    one: str  # "A vampire can have only one <the card>." (the sentence), or ""
    unread: tuple[str, ...]


def on_vampire_text_of(name: str, sentences: list[str]) -> Optional[OnVampireText]:
    """The action card `name` read as one putting itself on its acting vampire, or None when no sentence says so."""
    put = next((s.strip() for s in sentences if _PUT_ON_ACTOR.fullmatch(s.strip().rstrip("."))), None)
    if put is None:
        return None
    stealth, one, rest = 0, "", []
    for s in sentences:
        text = s.strip().rstrip(".")
        if s.strip() == put:
            continue
        m = _STEALTH_ACTION.fullmatch(text)
        if m and not stealth:
            stealth = int(m.group("n"))
            continue
        limit = _ONE.fullmatch(text.replace("only 1 ", "only one "))
        if limit and limit.group("what") == name and not one:
            one = s.strip()
            continue
        rest.append(s.strip())
    bonuses, abilities, unread = given_to(rest, _ON_SUBJECTS)
    return OnVampireText(name, put, stealth, bonuses, abilities, one, unread)


def gear_of(d, item: str) -> Optional[GearText]:
    """The text of the equipment card `item` the scenario named, or None (a weapon, or equipment described only)."""
    return next((g for name, g in d.gear if name.casefold() == item.casefold()), None)


def one_more_refused(d, m, item: str) -> Optional[str]:
    """Why the minion `m` may not bear `item` besides its equipment ("A minion can have only one vehicle.", "... only
    one Laptop Computer."), or None."""
    def is_one(x: str, what: str) -> bool:
        g = gear_of(d, x)
        return x.casefold() == what.casefold() or (g is not None and what in g.labels)

    for card in (gear_of(d, item), *(gear_of(d, x) for x in m.equipment)):
        if card is None or not card.one:
            continue
        what, sentence = card.one
        held = [x for x in m.equipment if is_one(x, what)]
        if held and is_one(item, what):
            return f"{m.name} bears {held[0]} already: {card.card} says \"{sentence}\""
    return None


def check_unread(d, m, when: str, only: str = "") -> None:
    """Stop as not modelled when an equipment card `m` bears has sentences the engine does not read (`when`: the step
    where they could matter, "acts", "attempts to block", "enters combat"; `only`: a pattern the sentences must match
    to matter there, at a phase or a vote). Never a silent default."""
    for item in m.equipment:
        g = gear_of(d, item)
        if g is not None and g.unread and (not only or any(re.search(only, x, re.I) for x in g.unread)):
            raise NotModelled(f"{m.name} bears {item}, whose text \"{' '.join(g.unread)}\" is not read by the engine, "
                              f"and it could matter as {m.name} {when}", [R.EQUIP, R.GOLDEN_RULE])
