"""Card names as people type them: accents folded, "The" where a reader puts it,
advanced and group marks ("Theo Bell (ADV)", "Louhi (G4)") read apart from the name."""
from __future__ import annotations

import re
import unicodedata
from typing import Optional

_MARK_RE = re.compile(r"\s*\((?:(?P<adv>adv(?:anced)?)|g(?:roup)?\s*(?P<group>\d+|any))\)\s*$", re.IGNORECASE)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-"})


def fold(text: str) -> str:
    """`text` without accents or case: "Rötschreck" -> "rotschreck"."""
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", text.translate(_QUOTES))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def display_name(vekn_name: str) -> str:
    """The name as read: the VEKN list's "Rack, The" is "The Rack" (only a trailing
    ", The" moves: "Beast, The Leatherface of Detroit" is a name and a title)."""
    if vekn_name.endswith(", The"):
        return "The " + vekn_name[: -len(", The")]
    return vekn_name


def split_marks(name: str) -> tuple[str, bool, Optional[str]]:
    """("Theo Bell", advanced, group) of a name carrying the rulings' marks: "(ADV)", "(G4)"."""
    advanced, group = False, None
    while True:
        m = _MARK_RE.search(name)
        if not m:
            return name.strip(), advanced, group
        if m.group("adv"):
            advanced = True
        else:
            group = m.group("group").upper()
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


def slugify(name: str) -> str:
    """Lowercase ASCII words joined by "-": "Aaron's Feeding Razor" -> "aarons-feeding-razor"."""
    text = fold(name).replace("'", "").replace("&", " and ")
    return "-".join(re.findall(r"[a-z0-9]+", text)) or "card"
