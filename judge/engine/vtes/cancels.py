"""A card that cancels another as it is played (issue 37): its sentence read, and whether it reaches the card played.

"Cancel a master card as it is played by another Methuselah, and its cost is not paid." (Sudden Reversal), "Cancel
the opposing minion's strike card as it is played, and its cost is not paid (the minion chooses another strike)."
(The Jones), "Burn 1 blood to cancel a strike card ... or a grapple card as it is played by the opposing minion, ..."
(Charismatic Aura). `cancel_of` reads such a sentence into a `CancelText`: the kinds of card it cancels, the
Disciplines they must require, who must have played them, whether their cost is paid (the card over the book's "its
cost must be paid as normal"), and what the cancelling minion burns. `why_not` says why the card played is out of its
reach, or nothing. A sentence with any other word is not read: it stays the card's unread text.
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from judge.engine.errors import NotModelled
from judge.engine.vtes import rules as R

# The kinds of card a cancel sentence names, as the sentence words them -> the kind `why_not` tests.
_KINDS = {
    "master card": "master", "non-out-of-turn master card": "regular master",
    "action modifier": "modifier", "action modifier card": "modifier",
    "reaction card": "reaction", "action card": "action", "combat card": "combat",
    "strike card": "strike", "grapple card": "grapple", "aim card": "aim", "frenzy card": "frenzy",
    "event card": "event", "minion card": "minion", "non-combat card": "non-combat",
}
_DISCIPLINE = r"[A-Z][a-z]+(?: \[[a-z]{3}\])?"
_REQUIRING = re.compile(rf" (?:requiring|that requires) (?P<req>{_DISCIPLINE}(?:(?:,| or|, or) {_DISCIPLINE})*)")
_WHO = {"the opposing minion": "opposing", "another Methuselah": "another", "a younger vampire": "younger",
        "your predator or prey": "predator or prey"}
_CANCEL = re.compile(
    r"(?P<burn>(?:Alternatively, )?(?:[Bb]urn|This (?:vampire|ally) burns) (?P<n>\d) (?P<unit>blood|life) to c|C)ancel "
    r"(?P<what>.+?) as it is played(?: by (?P<by>the opposing minion|another Methuselah|a younger vampire|your "
    r"predator or prey))?"
    r"(?P<tail>(?:,? and its cost is not paid|;? its cost is not paid| \(no cost is paid(?: for that card)?\)|"
    r" \((?:its )?cost (?:must be|is still) paid\)| \(the minion chooses (?:another strike|a strike again)\)|"
    r" \(the acting minion does not lock\))*)")


class CancelText(NamedTuple):
    """A cancel sentence read (with the sentence after it saying the cost is not paid, when there is one): the kinds
    of card it cancels (any of them), the Disciplines they must be played with (any), who must have played them,
    whether their cost is paid (None: the book's rule), what the cancelling minion burns to cancel (0: nothing)."""

    sentence: str
    kinds: tuple[str, ...]
    requiring: tuple[str, ...] = ()  # Discipline names, lower case
    by: Optional[str] = None  # "opposing" | "another" | "younger" | "predator or prey"
    cost_paid: Optional[bool] = None
    burn: int = 0
    burn_unit: str = "blood"


def cancel_of(sentence: str) -> Optional[CancelText]:
    """The cancel sentence read, or None when it is not one, or says what is not read."""
    s = re.sub(r" \(such as [^)]*\)", "", sentence.strip().rstrip("."))
    s = s.replace(" (the minion chooses a strike again) or ", " or ")  # (Charismatic Aura: said of the strike card)
    m = _CANCEL.fullmatch(s)
    if not m:
        return None
    what, by = m.group("what"), m.group("by")
    if what.startswith("the opposing minion's "):
        what, by = "a " + what[len("the opposing minion's "):], by or "the opposing minion"
    for words, who in (*((f" played by {w}", w) for w in _WHO), *((f" {w} plays", w) for w in _WHO)):
        if words in what:
            if by is not None and by != who:
                return None
            what, by = what.replace(words, ""), who
    requiring: tuple[str, ...] = ()
    r = _REQUIRING.search(what)
    if r:
        requiring = tuple(re.sub(r" \[[a-z]{3}\]", "", d).strip().casefold()
                          for d in re.split(r",? or |, ", r.group("req")))
        what = what[:r.start()] + what[r.end():]
    if not re.match(r"an? ", what):
        return None
    kinds = []
    parts = [p.strip() for p in re.split(r",? or |, ", what[what.index(" ") + 1:])]
    noun = "card" if parts[-1].endswith(" card") else ""
    for part in parts:
        part = re.sub(r"^an? ", "", part)
        kind = _KINDS.get(part) or _KINDS.get(f"{part} {noun}".strip())
        if kind is None:
            return None
        kinds.append(kind)
    tail = m.group("tail") or ""
    paid = False if "not paid" in tail or "no cost" in tail else True if "paid" in tail else None
    return CancelText(sentence=sentence, kinds=tuple(kinds), requiring=requiring, by=_WHO.get(by) if by else None,
                      cost_paid=paid, burn=int(m.group("n") or 0), burn_unit=m.group("unit") or "blood")


class Played(NamedTuple):
    """The card a cancel is aimed at, as it is played: the card, the type it is played as ("master", "modifier",
    "reaction", "action", "political", "recruit", "equip", "combat"), whether it is a strike card there (its line
    played has a strike), who plays it, and the Disciplines it is played with (names, lower case: those of the line
    played; a card played with one of two Disciplines counts as requiring the one used)."""

    card: object  # cards.CardFacts
    played_as: str
    strike: bool
    player: str
    minion: object = None  # state.Minion, or None for a master card
    disciplines: frozenset = frozenset()

# The types a card is played as to perform an action: all are action cards to a cancel ("Can be used to cancel all
# action cards, including employ retainer, recruit ally and political action.", the rulings of such cancels).
ACTION_CARDS = ("action", "political", "recruit", "equip")


def _labelled(card, label: str) -> bool:
    """The card's text says it is a `label` card with a sentence of that word alone ("Grapple.", "Aim.")."""
    return re.search(rf"(?:^|[.\]]\s+){label}\.", card.text, re.I) is not None


def why_not(cancel: CancelText, target: Played, canceller_player: str, canceller, table) -> Optional[str]:
    """Why the card played is out of the cancel's reach (what the sentence names and it is not), or None.
    `canceller`: the minion cancelling (None: a Methuselah, with a master card); `table`: the game (its combat in
    progress, its seating)."""
    card, combat = target.card, table.combat
    tests = {
        "master": target.played_as == "master",
        "regular master": target.played_as == "master" and not card.out_of_turn,
        "modifier": target.played_as == "modifier",
        "reaction": target.played_as == "reaction",
        "action": target.played_as in ACTION_CARDS,
        "combat": target.played_as == "combat",
        "strike": target.played_as == "combat" and target.strike,
        "grapple": target.played_as == "combat" and _labelled(card, "grapple"),
        "aim": target.played_as == "combat" and _labelled(card, "aim"),
        "frenzy": _labelled(card, "frenzy"),
        "event": "Event" in card.types,
        "minion": target.played_as != "master",
        "non-combat": target.played_as != "combat",
    }
    if not any(tests[k] for k in cancel.kinds):
        return f"{card.name} is not {_named_kinds(cancel.kinds)}, as played here"
    if cancel.requiring and not target.disciplines & set(cancel.requiring):
        used = " and ".join(sorted(d.title() for d in target.disciplines))
        return (f"{card.name} is played with {used}, not {' or '.join(n.title() for n in cancel.requiring)}" if used
                else f"{card.name} is played without {' or '.join(n.title() for n in cancel.requiring)}")
    if cancel.by == "another" and target.player == canceller_player:
        return f"{card.name} is played by {target.player}, the cancelling card's own Methuselah"
    if cancel.by == "predator or prey" and target.player not in (table.prey(canceller_player),
                                                                  table.predator(canceller_player)):
        return f"{card.name} is played by {target.player}, not by {canceller_player}'s predator or prey"
    if cancel.by == "opposing":
        them = target.minion.name if target.minion is not None else None
        if combat is None or canceller is None or {canceller.name, them} != {combat.acting, combat.opposing}:
            return f"{card.name} is not played by the minion opposing {canceller.name if canceller else 'it'} in combat"
    if cancel.by == "younger":
        them = target.minion
        if them is None or canceller is None or them.kind != "vampire":
            return f"{card.name} is not played by a vampire"
        if not them.capacity or not canceller.capacity:
            raise NotModelled(f"\"{cancel.sentence}\" asks whether {them.name} is younger than {canceller.name}, and "
                              f"the table does not give both capacities (give capacity:)", [R.CARD_CANCELLED])
        if them.capacity >= canceller.capacity:
            return f"{them.name} (capacity {them.capacity}) is not younger than {canceller.name} " \
                   f"(capacity {canceller.capacity})"
    return None


def _named_kinds(kinds: tuple[str, ...]) -> str:
    words = {v: k for k, v in reversed(list(_KINDS.items()))}
    named = [words[k] for k in kinds]
    return ("an " if named[0][0] in "aeiou" else "a ") + " or ".join(named)
