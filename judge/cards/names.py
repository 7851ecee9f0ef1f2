"""Card names as people type them: accents folded, "The" where a reader puts it,
advanced and group marks ("Theo Bell (ADV)", "Louhi (G4)") read apart from the name."""
from __future__ import annotations

import re
import unicodedata
from typing import Optional

_MARK_RE = re.compile(r"\s*\((?:(?P<adv>adv(?:anced)?)|g(?:roup)?\s*(?P<group>\d+|any))\)\s*$", re.IGNORECASE)
# "(ADV, G2)", "(G2 ADV)": the version label's marks together
_MARKS_RE = re.compile(r"\s*\((?P<marks>(?:adv(?:anced)?|g\d+)(?:[,\s]+(?:adv(?:anced)?|g\d+))+)\)\s*$", re.IGNORECASE)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-"})
# Letters Unicode does not decompose into a base letter and an accent: written as their plain letters are typed.
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "Oe", "æ": "ae", "Æ": "Ae", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d",
                            "Đ": "D", "ł": "l", "Ł": "L", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i"})


def fold(text: str) -> str:
    """`text` without accents, ligatures or case: "Rötschreck" -> "rotschreck", "Sacré-Cœur" -> "sacre-coeur"."""
    return _folded(text, ligatures=True)


def _folded(text: str, ligatures: bool) -> str:
    return fold_keeping_case(text, ligatures).casefold()


def fold_keeping_case(text: str, ligatures: bool = True) -> str:
    """`fold` but for the case: "Sacré-Cœur" -> "Sacre-Coeur"."""
    if text.isascii():
        return text
    text = text.translate(_QUOTES)
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES) if ligatures else text)
    if decomposed.isascii():  # a book's curly quotes, now straight: most texts (a character loop was 0.2 s a build)
        return decomposed
    return _NON_ASCII.sub(lambda m: "" if unicodedata.combining(m.group()) else m.group(), decomposed)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def display_name(vekn_name: str) -> str:
    """The name as read: the VEKN list's "Rack, The" is "The Rack" (only a trailing
    ", The" moves: "Beast, The Leatherface of Detroit" is a name and a title)."""
    if vekn_name.endswith(", The"):
        return "The " + vekn_name[: -len(", The")]
    return vekn_name


def split_marks(name: str) -> tuple[str, bool, Optional[str]]:
    """("Theo Bell", advanced, group) of a name carrying the rulings' marks: "(ADV)", "(G4)", or the label
    judge prints for a version, both marks in one pair of brackets ("Theo Bell (ADV, G2)")."""
    advanced, group = False, None
    while True:
        m = _MARK_RE.search(name) or _MARKS_RE.search(name)
        if not m:
            return name.strip(), advanced, group
        marks = [x for x in re.split(r"[,\s]+", m.group("marks")) if x] if m.re is _MARKS_RE else \
            ["adv" if m.group("adv") else "g" + m.group("group")]
        for mark in marks:
            if mark.casefold().startswith("adv"):
                advanced = True
            else:
                group = re.sub(r"^g(?:roup)?\s*", "", mark, flags=re.IGNORECASE).upper()
        name = name[: m.start()]


def name_key(name: str) -> str:
    """What two spellings of one card name have in common: no case, accents,
    punctuation or leading/trailing "The"."""
    text = fold(name)
    if text.endswith(", the"):
        text = text[: -len(", the")]
    elif text.startswith("the "):
        text = text[len("the "):]
    text = text.replace("'", "").replace("&", " and ")
    return " ".join(re.findall(r"[a-z0-9]+", text))


# Clans the current rules call by another name (VEKN's rulebook, 8. Glossaries: "Assamite: see Banu Haqim",
# "Follower of Set: see Ministry"). The card list still writes the former names; judge shows the current ones and
# reads both.
FORMER_CLANS = {"assamite": "Banu Haqim", "assamites": "Banu Haqim", "follower of set": "Ministry",
                "followers of set": "Ministry", "the ministry": "Ministry"}


def current_clan(name: str) -> str:
    """A clan's name as the current rules give it: "Assamite" -> "Banu Haqim"; any other as written."""
    return FORMER_CLANS.get(" ".join(name.split()).casefold(), name.strip())


def same_clan(a: str, b: str) -> bool:
    """Whether two clan names name one clan, under its former name or its current one (any case)."""
    return fold(current_clan(a)) == fold(current_clan(b))


def slugify(name: str) -> str:
    """Lowercase ASCII words joined by "-": "Aaron's Feeding Razor" -> "aarons-feeding-razor". A slug is a card's
    permalink: it stays as first made, a ligature cut out as a non-letter ("sacre-c-ur-cathedral-france"), where
    a name's other forms spell it out (`fold`)."""
    text = _folded(name, ligatures=False).replace("'", "").replace("&", " and ")
    return "-".join(re.findall(r"[a-z0-9]+", text)) or "card"
