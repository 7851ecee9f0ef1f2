"""The clans of V:TES as the card lists write them: the game's vocabulary, read here by the engine's reading of card
texts (card_text.py: "Younger Tremere cannot block Aisling." names a clan, "Princes cannot block Ellison." does not),
and by the card reader (judge/cards/parse.py), which imports it from here so that the two agree (the engine imports
nothing of judge/cards)."""
from __future__ import annotations

CLANS = frozenset({
    "Abomination", "Ahrimane", "Akunanse", "Assamite", "Baali", "Banu Haqim", "Blood Brother", "Brujah",
    "Brujah antitribu", "Caitiff", "Daughter of Cacophony", "Follower of Set", "Gangrel", "Gangrel antitribu",
    "Gargoyle", "Giovanni", "Guruhi", "Harbinger of Skulls", "Hecata", "Ishtarri", "Kiasyd", "Lasombra",
    "Malkavian", "Malkavian antitribu", "Ministry", "Nagaraja", "Nosferatu", "Nosferatu antitribu", "Osebo",
    "Pander", "Ravnos", "Salubri", "Salubri antitribu", "Samedi", "Toreador", "Toreador antitribu", "Tremere",
    "Tremere antitribu", "True Brujah", "Tzimisce", "Ventrue", "Ventrue antitribu"})
_FOLDED = {c.casefold() for c in CLANS}


def is_clan(name: str) -> bool:
    """Whether `name` is a clan's name, in any case, singular or as a text writes the plural ("Malkavians",
    "Followers of Set", "Daughters of Cacophony")."""
    folded = " ".join(name.split()).casefold()
    singular = folded.replace("s of ", " of ", 1) if " of " in folded else folded.removesuffix("s")
    return folded in _FOLDED or singular in _FOLDED
