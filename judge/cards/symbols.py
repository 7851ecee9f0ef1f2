"""The game's symbols as the card lists and the rulings write them: discipline and
virtue codes ("pot" inferior, "POT" superior), card-type icons ("[ACTION MODIFIER]")
and the few others ("[FLIGHT]", "[MERGED]").

This is the game's vocabulary (the codes rulings.yaml's header lists), not card text.
"""
from __future__ import annotations

from typing import Optional

DISCIPLINES = {
    "abo": "Abombwe", "ani": "Animalism", "aus": "Auspex", "cel": "Celerity", "chi": "Chimerstry",
    "dai": "Daimoinon", "dem": "Dementation", "dom": "Dominate", "for": "Fortitude", "mal": "Maleficia",
    "mel": "Melpominee", "myt": "Mytherceria", "nec": "Necromancy", "obe": "Obeah", "obf": "Obfuscate",
    "obl": "Oblivion", "obt": "Obtenebration", "pot": "Potence", "pre": "Presence", "pro": "Protean",
    "qui": "Quietus", "san": "Sanguinus", "ser": "Serpentis", "spi": "Spiritus", "str": "Striga",
    "tem": "Temporis", "thn": "Thanatosis", "tha": "Thaumaturgy", "val": "Valeren", "vic": "Vicissitude",
    "vis": "Visceratika", "flight": "Flight",
}
# Imbued virtues. The card list writes Judgment "jud" and Vision "viz"; the rulings'
# header "jus" and "vsn" (and "vin" for Vindication): all are kept.
VIRTUES = {
    "def": "Defense", "inn": "Innocence", "jud": "Judgment", "jus": "Judgment", "mar": "Martyrdom",
    "red": "Redemption", "ven": "Vengeance", "viz": "Vision", "vsn": "Vision", "vin": "Vindication",
}
# Card-type icons, as rulings write them in brackets.
TYPE_SYMBOLS = {
    "ACTION": "Action", "POLITICAL": "Political Action", "POLITICAL ACTION": "Political Action",
    "ALLY": "Ally", "RETAINER": "Retainer", "EQUIPMENT": "Equipment", "MODIFIER": "Action Modifier",
    "ACTION MODIFIER": "Action Modifier", "REACTION": "Reaction", "COMBAT": "Combat", "REFLEX": "Reflex",
    "POWER": "Power", "EVENT": "Event", "MASTER": "Master",
}
OTHER_SYMBOLS = {"FLIGHT": "Flight", "MERGED": "Merged (advanced vampire)", "CONVICTION": "Conviction",
                 "REVERSAL": "Reversal"}

_BY_NAME = {name.casefold(): code for code, name in {**DISCIPLINES, **VIRTUES}.items()}
_BY_NAME["judgment"], _BY_NAME["vision"] = "jud", "viz"  # the card list's own codes win
_BY_NAME["blood sorcery"] = "tha"  # the fifth edition's name for Thaumaturgy


def symbol_meaning(symbol: str) -> Optional[str]:
    """What a bracketed symbol of a ruling means ("Potence, superior", "Action Modifier"),
    or None when it is not one of the game's symbols. "1 CONVICTION" is a cost."""
    low = symbol.lower()
    if symbol.islower() or symbol.isupper():
        level = "inferior" if symbol.islower() else "superior"
        if low in DISCIPLINES:
            return f"{DISCIPLINES[low]}, {level}"
        if low in VIRTUES:
            return VIRTUES[low]
    if symbol in TYPE_SYMBOLS:
        return TYPE_SYMBOLS[symbol]
    if symbol in OTHER_SYMBOLS:
        return OTHER_SYMBOLS[symbol]
    count, _, what = symbol.partition(" ")
    if count.isdigit() and what == "CONVICTION":
        return f"{count} conviction"
    return None


def discipline_code(name: str) -> Optional[str]:
    """The code of a discipline or virtue named in full ("Animalism" -> "ani")."""
    return _BY_NAME.get(name.strip().casefold())


def discipline_name(code: str) -> Optional[str]:
    low = code.lower()
    return DISCIPLINES.get(low) or VIRTUES.get(low)
