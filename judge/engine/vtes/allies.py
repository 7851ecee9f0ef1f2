"""Ally cards read as printed (issue 37): the figures an ally comes with and what its card lets it do.

"Unique werewolf with 3 life. 1 strength, 0 bleed. High Top gets +1 intercept. High Top may enter combat with any
minion controlled by another Methuselah as a (D) action. ..." `ally_text_of` reads an ally card at the level played:
its life, strength and bleed ("<kind> with N life. N strength, N bleed.", either order; "As above, but this ally has
N life."), "<ally> gets +N intercept|stealth|bleed|strength.", "<ally> can play cards requiring basic <Discipline>
[and/or basic <Discipline>] as a vampire [with a capacity of N]" (the ally plays those cards at the basic level, as a
vampire of that capacity), "<ally> may strike for 1R damage.", "<ally> can perform actions the turn it is
recruited.", and what else its card gives, read by the crypt cards' reader (card_text.read_crypt_text) with the ally
as the card's own minion: an action to enter combat, optional maneuvers and presses each combat, prevention, strikes
of its own, who cannot block it... ("This ally", "The ally", its name, its short name and pronouns name it).

The ally played (`Belinde plays High Top`) is its recruit action; recruited, or on the table named by its card
(`{name: High Top, card: High Top, controller: Sarah}`), it has what its card gives, as a vampire named by its crypt
card has (Minion.bonuses, .abilities, .disciplines): its other sentences are its unread text, which stops the replay
where they could matter (helpers.text_unread), and a sentence acting as it is recruited or comes into play stops its
recruit (cards._recruit).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple, Optional

from judge.engine.vtes.card_text import LIBRARY_SENTENCE, is_self, life_as_above, read_crypt_text

# "Unique mortal with 2 life. 0 strength, 0 bleed.", "Ghoul with 2 life. 1 bleed, 1 strength."
_STATS = re.compile(r"(?:Unique )?(?P<kind>[A-Za-z][a-z-]*(?: [a-z-]+)?) with (?P<life>\d+) life\. (?:(?P<strength>\d+) "
                    r"strength, (?P<bleed>\d+) bleed|(?P<bleed2>\d+) bleed, (?P<strength2>\d+) strength)\.?")
_DISCIPLINE = r"basic (?P<name{n}>[A-Z][a-z]+) \[(?P<code{n}>[a-z]{{3}})\]"
_PLAYS_AS = re.compile(r"(?P<who>.+?) (?:can|may) play cards (?:requiring|that require) "
                       + _DISCIPLINE.format(n=1) + r"(?:,? (?:and/or|or|and) " + _DISCIPLINE.format(n=2) + r")?"
                       r" as (?:a vampire(?: with (?:a )?capacity (?:of )?(?P<cap>\d+))?|an? (?P<cap2>\d+)-capacity "
                       r"vampire)\.?")
_OWN_STAT = re.compile(r"(?P<who>.+?) (?:gets|has) \+(?P<n>\d) (?P<stat>stealth|intercept|bleed|strength)\.?")
_STRIKE_FOR = re.compile(r"(?P<who>.+?) (?:can|may) strike(?: for|:) (?P<n>\d+R?) (?P<agg>aggravated )?damage\.?")
_ACTS_AT_ONCE = re.compile(r"(?P<who>.+?) can perform actions the turn (?:it|he|she|they) (?:is|are) recruited\.?")
_SELF = re.compile(r"^(?:[Tt]his ally|[Tt]he ally)\b")


class AllyText(NamedTuple):
    """An ally card read at a level (`ally_text_of`)."""

    card: str
    life: Optional[int]  # None: its figures are not read
    strength: int = 1
    bleed: int = 1
    stealth: int = 0  # of its own: "<ally> gets +1 stealth."
    intercept: int = 0
    bonuses: tuple = ()  # card_text.Bonus
    abilities: tuple = ()  # card_text.Ability
    disciplines: tuple[str, ...] = ()  # "can play cards requiring basic Potence [pot] as a vampire": ("pot",)
    capacity: int = 0  # ... "as a vampire with a capacity of 3": 3 (1 when the card says none: the book)
    acts_at_once: str = ""  # "can perform actions the turn it is recruited." (the sentence)
    unread: tuple[str, ...] = ()  # its sentences not read, as printed


def ally_text_of(name: str, preamble: list[str], line: Optional[str], above: Optional[str]) -> AllyText:
    """The ally card `name` read: its `preamble` sentences and the Discipline line played (`line`, and the line it is
    written from when it is "As above, ...": `above`)."""
    sentences, life_then = list(preamble), None
    if line:
        life_then = life_as_above(name, line, above)
        sentences.append(above if life_then is not None else line)
    short = name.split(",")[0].strip()
    out = dict(life=None, strength=1, bleed=1, stealth=0, intercept=0, bonuses=[], abilities=[], disciplines=[],
               capacity=0, acts_at_once="", unread=[])
    for s in (x.strip() for x in LIBRARY_SENTENCE.split(" ".join(sentences)) if x.strip()):
        said = _SELF.sub(short, s)
        if (m := _STATS.fullmatch(s)) and out["life"] is None:
            out["life"] = int(m.group("life"))
            out["strength"] = int(m.group("strength") or m.group("strength2"))
            out["bleed"] = int(m.group("bleed") or m.group("bleed2"))
            continue
        if (m := _OWN_STAT.fullmatch(said)) and is_self(m.group("who"), name):
            out[m.group("stat")] += int(m.group("n"))  # (a bleed or strength: added to the printed figure)
            continue
        if (m := _PLAYS_AS.fullmatch(said)) and is_self(m.group("who"), name) and not out["disciplines"]:
            out["disciplines"] = [m.group("code1")] + ([m.group("code2")] if m.group("code2") else [])
            out["capacity"] = int(m.group("cap") or m.group("cap2") or 1)  # (1 by default: the book, Minion Cards)
            continue
        if (m := _ACTS_AT_ONCE.fullmatch(said)) and is_self(m.group("who"), name):
            out["acts_at_once"] = s
            continue
        if (m := _STRIKE_FOR.fullmatch(said)) and is_self(m.group("who"), name):
            said = f"{m.group('who')} may inflict {m.group('n')} {m.group('agg') or ''}damage as a strike."
            said = said.replace("  ", " ")
        read = read_crypt_text(said, None, None, name)
        if read.unread or read.votes or read.traits or read.master_actions or read.bonus or \
                not (read.bonuses or read.abilities):
            out["unread"].append(s)
            continue
        out["bonuses"] += [replace(b, sentence=s) for b in read.bonuses]  # (quoted as printed)
        out["abilities"] += [replace(a, sentence=s) for a in read.abilities]
    if life_then is not None and out["life"] is not None:
        out["life"] = life_then
    return AllyText(card=name, life=out["life"], strength=out["strength"], bleed=out["bleed"], stealth=out["stealth"],
                    intercept=out["intercept"], bonuses=tuple(out["bonuses"]), abilities=tuple(out["abilities"]),
                    disciplines=tuple(out["disciplines"]), capacity=out["capacity"], acts_at_once=out["acts_at_once"],
                    unread=tuple(out["unread"]))

