"""Reading a crypt card's text into what the engine applies (issue 37: never a silent default).

A vampire named by its crypt card gets what the card prints: capacity, clan, sect, title, Disciplines
(`cards.crypt_fields`), and what its text says, sentence by sentence:

* the sect and title the text opens with ("Sabbat:", "Camarilla Prince of Seattle:"), the card's own;
* "+N bleed.", "+N strength.", "+N stealth.", "+N intercept." (its own bleed, strength, stealth, intercept);
* the traits the books define ("Infernal.", "Black Hand.", "Red List.", "Scarce.", "Sterile.", "Blood
  cursed.", "Flight [FLIGHT].", a circle, a slave clan: `traits.TRAITS`);
* an extra master phase action while it is ready or unlocked ("If Anson is ready during your master phase,
  you get two master phase actions (instead of one).", "If Cybele is unlocked at the start of your master
  phase, you get +1 master phase action.").

Every other sentence is *unread*: the minion carries it (`Minion.unread`), and the engine stops as not
modelled, naming it, at the first step where it could matter (the minion acts, blocks, reacts, fights, or
its controller's master phase begins), unless the scenario sets it aside (`ignore_text: true`). It is never
silently replaced by a default.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

# "Sabbat: ...", "Camarilla Prince of Seattle: ...", "Independent. 2 votes (titled): ..."
_SECT_PREFIX = re.compile(r"^(?P<head>[A-Z][^:.]*?(?:\. \d+ votes? \(titled\))?):\s*")
_SENTENCE = re.compile(r"(?<=[.)])\s+(?=[A-Z+(\[])")
_BONUS = re.compile(r"\+(?P<n>\d) (?P<what>bleed|strength|stealth|intercept)")
_TRAITS = ("infernal", "black hand", "red list", "scarce", "sterile", "blood cursed")
_MASTER = re.compile(r"(?:If|While) (?P<who>[\w' ,.-]+?) is (?P<state>ready|unlocked)(?: during your master phase"
                     r"| at the start of your master phase)?, you get (?:two master phase actions \(instead of "
                     r"one\)|\+1 master phase action)(?: each master phase)?")


@dataclass
class CryptText:
    """What a crypt card's text gives its minion, and what is left unread."""

    bonus: dict[str, int] = field(default_factory=dict)  # "bleed"/"strength"/"stealth"/"intercept" -> +N
    traits: list[str] = field(default_factory=list)
    master_actions: int = 0  # extra master phase actions
    master_when: str = "ready"  # while the minion is "ready" or "unlocked" at the start of the master phase
    unread: list[str] = field(default_factory=list)  # sentences not read, as printed


def read_crypt_text(text: str, sect: Optional[str], title: Optional[str]) -> CryptText:
    out = CryptText()
    body = " ".join((text or "").split())
    m = _SECT_PREFIX.match(body)
    if m and _is_sect_head(m.group("head"), sect, title):
        body = body[m.end():]
    for sentence in (s.strip() for s in _SENTENCE.split(body) if s.strip()):
        if not _read_sentence(sentence.rstrip("."), out, sect, title):
            out.unread.append(sentence)
    return out


def _is_sect_head(head: str, sect: Optional[str], title: Optional[str]) -> bool:
    """Whether the text's opening "...:" is the card's sect (and title) as the card list prints it."""
    first = head.split(".")[0].split()[0].casefold() if head.split() else ""
    return bool(sect) and first == str(sect).split()[0].casefold() or first == "independent"


def _read_sentence(s: str, out: CryptText, sect: Optional[str], title: Optional[str]) -> bool:
    folded = s.casefold()
    if sect and folded == str(sect).casefold():
        return True
    if sect and title and folded in (f"{sect} {title}".casefold(), str(title).casefold()):
        return True
    if re.fullmatch(r"(?:independent[.:] )?\d+ votes? \(titled\)", folded) or re.fullmatch(
            r"[\w' ,.-]+ has \d+ votes? \(titled\)", folded):
        return True  # its votes: `crypt_fields` reads them from the card's title line
    parts = [p.strip() for p in re.split(r"\.\s+|,\s+(?=\+)", s)]
    bonuses = [_BONUS.fullmatch(p) for p in parts]
    if all(bonuses):
        for b in bonuses:
            out.bonus[b.group("what")] = out.bonus.get(b.group("what"), 0) + int(b.group("n"))
        return True
    if folded in _TRAITS or folded.startswith("flight [flight]"):
        out.traits.append("flight" if folded.startswith("flight") else folded)
        return True
    if folded.endswith(" circle") and len(folded.split()) <= 3:
        out.traits.append(f"circle ({s[:-len(' circle')].lower()})")
        return True
    slave = re.fullmatch(r"(?P<clan>[\w ]+?) slave", s)
    if slave:
        out.traits.append(f"slave ({slave.group('clan').lower()})")
        return True
    master = _MASTER.fullmatch(s)
    if master:
        out.master_actions += 1
        out.master_when = master.group("state")
        return True
    return False
