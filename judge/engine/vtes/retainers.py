"""Retainer cards read as printed (issue 37): the life a retainer comes with and what it gives its employer.

"Animal with 1 life. [ani] The employer gets +1 intercept. [ANI] As above, but Raven Spy has 2 life." (Raven Spy).
`retainer_text_of` reads a retainer card at the level played: its life ("<kind> with N life.", "As above, but <name>
has N life."), and its employer's bonuses, as a vampire's card gives its own: "The employer gets +1 intercept|bleed|
stealth.", "... +1 stealth when hunting", "This minion gets an optional maneuver each combat.", "The employer can
prevent 1 damage each combat." (the subject may be "the employer", "this vampire", "the minion|vampire with this
retainer", "this minion", or "this <clan>" when the card requires that clan). They are read by the crypt cards'
reader (card_text.read_crypt_text) with the employer as the card's own vampire.

A retainer card played (`Belinde plays Raven Spy`) is its employ action: its requirements and cost checked, on
success the retainer goes on the acting minion with its life (the book's Employ Retainer), and its bonuses hold for
its employer while it is there (`Retainer.bonuses`, counted with the employer's own: helpers.crypt_bonus; its
abilities: card_text.abilities_of). A sentence the engine does not read stops the employ action as not modelled,
naming it: never a retainer whose text is silently dropped.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple, Optional

from judge.engine.vtes.card_text import (LIBRARY_SENTENCE, Bonus, is_as_above, life_as_above, read_crypt_text,
                                         written_out)

_LIFE = re.compile(r"(?:Unique )?[A-Za-z][a-z-]*(?: [a-z-]+)? with (?P<life>\d+) life")
_EMPLOYER = "Employer"  # the name the employer's sentences are read under (card_text's own-vampire forms)
_SUBJECTS = r"(?:[Tt]he employer|[Tt]his vampire|[Tt]he (?:minion|vampire) with this retainer|[Tt]his minion)"
# the abilities a retainer gives the employer that the engine applies from a retainer (those of combat, counted each
# combat); an action or other ability it would give stays unread
_ABILITY_KINDS = ("maneuver", "press", "prevent")
_STATS = {"bleed": "action", "stealth": "action", "intercept": "block", "strength": "combat"}


class RetainerText(NamedTuple):
    """A retainer card read at a level (`retainer_text_of`)."""

    card: str
    life: Optional[int]  # None: its life is not read
    bonuses: tuple  # card_text.Bonus: what it gives its employer (an unconditional one holds on every action,
    # block attempt or combat of its stat)
    abilities: tuple  # card_text.Ability of `_ABILITY_KINDS`
    unread: tuple[str, ...]  # its sentences not read, as printed


def retainer_text_of(name: str, preamble: list[str], line: Optional[str], above: Optional[str],
                     required: tuple[str, ...]) -> RetainerText:
    """The retainer card `name` read: its `preamble` sentences and the Discipline line played (`line`, and the line
    it is written from when it is "As above, ...": `above`); `required`: the clans and sects the card requires, whose
    "This <clan>" is the employer (its "Requires ..." sentences the engine checks are left out of `preamble`)."""
    life, unread, sentences, printed_as = None, [], list(preamble), {}
    if line:
        life = life_as_above(name, line, above)
        if life is not None:  # "As above, but Raven Spy has 2 life.": the line above, and its life
            sentences.append(above)
        else:  # "As above, and ...": written out from the line above (the printed line when it cannot be)
            out = written_out(line, above) if above is not None and is_as_above(line) else None
            sentences.append(out or line)
            if out is not None:  # (a sentence the written-out line adds is named unread as the line printed)
                printed_as = {s: line for s in _split(out)} | {s: s for s in _split(above)}
    text = " ".join(sentences)
    kept = []
    for s in _split(text):
        m = _LIFE.fullmatch(s.rstrip("."))
        if m:
            life = life if life is not None else int(m.group("life"))
            continue
        kept.append(s)
    subjects = _SUBJECTS + "".join(f"|[Tt]his {re.escape(c)}|[Tt]he {re.escape(c)} with this retainer"
                                   for c in required)
    bonuses, abilities, left = given_to(kept, subjects)
    unread += [printed_as.get(s, s) for s in left]
    return RetainerText(name, life, bonuses, abilities, tuple(dict.fromkeys(unread)))


def given_to(sentences: list[str], subjects: str) -> tuple[tuple, tuple, tuple[str, ...]]:
    """What `sentences` give the minion a card is on (`subjects`: the words naming it, "The employer", "The
    bearer"), read as its own crypt card's would be: (bonuses, abilities of `_ABILITY_KINDS`, the sentences not
    read)."""
    bonuses, abilities, unread = [], [], []
    for s in sentences:
        said = re.sub(rf"^(?:{subjects})\b", _EMPLOYER, s, flags=re.I)
        m = re.fullmatch(rf"{_EMPLOYER} (?:gets|has) (?P<n>[+-]\d) (?P<stat>bleed|stealth|intercept|strength)\.?", said)
        if m:  # "The employer gets +1 intercept.": on every block attempt it makes
            bonuses.append(Bonus(m.group("stat"), int(m.group("n")), _STATS[m.group("stat")], s))
            continue
        read = read_crypt_text(said, None, None, _EMPLOYER)
        usable = [a for a in read.abilities if a.kind in _ABILITY_KINDS]
        if said == s or read.unread or read.votes or read.traits or read.master_actions or \
                len(usable) != len(read.abilities):
            unread.append(s)
            continue
        # (quoted as the card prints them, not in the employer's form read)
        bonuses += [replace(b, sentence=s) for b in read.bonuses]
        bonuses += [Bonus(stat, n, _STATS[stat], s) for stat, n in read.bonus.items()]
        abilities += [replace(a, sentence=s) for a in usable]
    return tuple(bonuses), tuple(abilities), tuple(dict.fromkeys(unread))


def _split(text: str) -> list[str]:
    return [x.strip() for x in LIBRARY_SENTENCE.split(text) if x.strip()]
