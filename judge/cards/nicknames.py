"""The abbreviations and nicknames players use for cards (judge/data/card_nicknames.yaml): "GtU" for Govern the
Unaligned, "KRC" for Kine Resources Contested. Project content, checked at load: every entry names a card of the
card list, and no nickname means two cards or is another card's own name; a fault is a SourceError naming the
file's line."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from judge import paths
from judge.cards.names import name_key, split_marks
from judge.datafile import read_yaml
from judge.errors import SourceError

if TYPE_CHECKING:
    from judge.cards.base import CardBase

FILE = "card_nicknames.yaml"


def nicknames_file() -> Path:
    return paths.data_dir() / FILE


def load_nicknames(base: "CardBase", path: Optional[Path] = None) -> dict[str, list[str]]:
    """{card name (as the card list writes it): its nicknames}, checked against `base` (see the module's
    docstring)."""
    path = Path(path or nicknames_file())
    data, text = read_yaml(path, "the card nicknames", with_lines=True, fast=True)
    if not isinstance(data, list):
        raise SourceError(path.name, 1, "the card nicknames: expected a list of entries with 'name' and 'aka'")
    own_names = {name_key(n) for c in base.cards.values() for n in (c.name, c.vekn_name)}
    out: dict[str, list[str]] = {}
    said: dict[str, tuple[str, int]] = {}  # a nickname's folded form -> (the card it names, the line)
    for n, entry in enumerate(data, 1):
        line = entry.get("__line__", 0) if isinstance(entry, dict) else 0
        if not isinstance(entry, dict) or set(entry) - {"name", "aka", "__line__"}:
            raise SourceError(path.name, line, f"entry {n}: expected 'name' (a card) and 'aka' (its nicknames)")
        name, aka = entry.get("name"), entry.get("aka")
        if not isinstance(name, str) or not name.strip():
            raise SourceError(path.name, line, f"entry {n}: 'name' must be a card's name")
        if not isinstance(aka, list) or not aka or not all(isinstance(a, str) and a.strip() for a in aka):
            raise SourceError(path.name, line, f"entry {n}: 'aka' must list one or more nicknames")
        base_name, _, _ = split_marks(name)
        if base.card(name) is None or name_key(base_name) not in own_names:
            raise SourceError(path.name, line, f"entry {n}: {name!r} is no card of the card list")
        for nick in aka:
            key = name_key(nick)
            if not key:
                raise SourceError(path.name, line, f"entry {n}: the nickname {nick!r} has no letters")
            if key in own_names and key != name_key(base_name):
                raise SourceError(path.name, line, f"entry {n}: the nickname {nick!r} is another card's name")
            if key in said and said[key][0] != name_key(base_name):
                raise SourceError(path.name, line, f"entry {n}: the nickname {nick!r} is also given to "
                                                   f"{said[key][0]!r} (line {said[key][1]})")
            said[key] = (name_key(base_name), line)
        out.setdefault(base_name, []).extend(a.strip() for a in aka)
    return out
