"""Load the card base for a corpus: parse, resolve, and cache the result.

The cache (`cards.json` in the index directory, JSON through `judge.cachefile`)
is keyed by the digest of krcg's data files, the corpus's digest (the rulebook
references and the templates resolve against it), the templates file and the
code that builds it. It is data only and checked as it is read: every value's
type, unique IDs, and every card, group and rule it links to being there. A
cache that does not parse or check is logged and rebuilt, never trusted.
"""
from __future__ import annotations

import hashlib
import logging
import sys
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from judge import cachefile, paths
from judge.datafile import bytes_for_digest
import judge.cards.source as source
from judge.cards.base import CardBase
from judge.cards.model import RUN_CARD, Card, CardGroup, CardSet, Problem, Reference, RuleTemplate, Ruling
from judge.cards.templates import FILE as TEMPLATES_FILE

if TYPE_CHECKING:
    from judge.corpus import Corpus

CACHE_NAME = "cards.json"
CACHE_FORMAT = 1
# The names a search query is matched against, alone (`CardNames`): a search that names no
# card reads this small file, not the whole card base.
NAMES_NAME = "card-names.json"
_CODE = ("cards", "cachefile.py", "datafile.py", "lookup.py")  # under judge/: what shapes the card base

log = logging.getLogger(__name__)


def templates_path() -> Path:
    return paths.data_dir() / TEMPLATES_FILE


def cards_digest(files: source.DataFiles, corpus: "Corpus") -> str:
    h = hashlib.sha256()
    h.update(f"{sys.version}\0{CACHE_FORMAT}\0{files.digest}\0{corpus.digest}\0".encode())
    hash_card_code(h)
    return h.hexdigest()


def hash_card_code(h) -> None:
    """Feed `h` what shapes a card base besides its data and corpus: the rule templates and judge's card code."""
    code = []
    for name in _CODE:
        path = paths.PACKAGE_DIR / name
        code.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    for path in [templates_path(), *code]:
        h.update(path.name.encode() + b"\0")
        h.update(bytes_for_digest(path))


def build_cards(corpus: "Corpus", folder: Optional[Path] = None,
                files: Optional[source.DataFiles] = None) -> CardBase:
    """Parse and resolve the card data (`folder`, or the installed krcg data), no cache involved."""
    # here: a card base read from its cache, or a search naming no card, needs no parser
    from judge.cards.parse import parse
    from judge.cards.resolve import resolve
    from judge.cards.templates import load_templates

    files = files if files is not None else source.read_files(folder)
    with cachefile.collector_paused():  # a build makes ~100,000 small objects and no cycles
        parsed = parse(files)
        templates, template_problems = load_templates(templates_path(), corpus)
        return resolve(parsed, corpus, templates, template_problems)


def load_cards(corpus: "Corpus", folder: Optional[Path] = None, use_cache: bool = True) -> CardBase:
    """The card base for `corpus`, from the cache when it is of the same data, corpus and code.
    A corpus built without its cache (no digest) gets a card base built afresh."""
    files = source.read_files(folder)
    digest = cards_digest(files, corpus)
    use_cache = use_cache and bool(corpus.digest)
    path = paths.index_dir() / CACHE_NAME if use_cache else None
    if path is not None:
        cached = _read_cache(path, digest, corpus)
        if cached is not None:
            _write_names(cached)
            return cached
    from judge.served import whole  # a card base is built from the corpus in memory, not row by row

    base = build_cards(whole(corpus), files=files)
    base.digest = digest
    if path is not None:
        cachefile.write_json(path, _cache_data(base))
        _write_names(base)
    return base


_LOADED: dict[tuple[str, str], CardBase] = {}


def get_cards(corpus: "Corpus") -> CardBase:
    """The process-wide card base of `corpus` and the configured card data (loaded once)."""
    key = (corpus.digest or str(id(corpus)), str(source.default_folder()))
    if key not in _LOADED:
        _LOADED[key] = load_cards(corpus)
    return _LOADED[key]


# -- the names alone ------------------------------------------------------------------------

@dataclass
class CardNames:
    """What `judge.cards.query` matches a query's name against, without the cards: every card
    ID, slug, name as written and folded name (`CardBase.by_name`'s keys, in its order)."""

    ids: frozenset[str]
    slugs: frozenset[str]
    exact: frozenset[str]
    keys: list[str]

    @cached_property
    def keys_set(self) -> frozenset[str]:
        return frozenset(self.keys)

    @cached_property
    def by_length(self) -> tuple[list[str], list[int]]:
        """`keys` sorted by length (as `judge.cards.query._names`), and their lengths."""
        ordered = sorted(self.keys, key=len)
        return ordered, [len(k) for k in ordered]

    @classmethod
    def of(cls, base: CardBase) -> "CardNames":
        return cls(frozenset(base.cards), frozenset(base.by_slug), frozenset(base.by_exact), list(base.by_name))


@dataclass
class _NamesFile:
    ids: list[str]
    slugs: list[str]
    exact: list[str]
    keys: list[str]


def _write_names(base: CardBase) -> None:
    """card-names.json for `base` (of its digest), unless it is there already."""
    path = paths.index_dir() / NAMES_NAME
    if _read_names(path, base.digest) is None:
        names = CardNames.of(base)
        cachefile.write_json(path, {"format": CACHE_FORMAT, "digest": base.digest, "names": cachefile.encode(
            _NamesFile(sorted(names.ids), sorted(names.slugs), sorted(names.exact), names.keys))})


def _read_names(path: Path, digest: str) -> Optional[CardNames]:
    def decode(data: dict) -> CardNames:
        names = cachefile.decode(_NamesFile, data.get("names"), "names")
        return CardNames(frozenset(names.ids), frozenset(names.slugs), frozenset(names.exact), names.keys)
    return cachefile.read_cache(path, "a list of card names", CACHE_FORMAT, "digest", digest, decode, log)


def card_names(corpus: "Corpus", digest: Optional[str] = None) -> Optional[CardNames]:
    """The card names of the card base `get_cards(corpus)` would give, read from their file
    alone; None when that file is not there or not of the current card data, corpus and code
    (`get_cards` writes it). `digest`: the card base's (`cards_digest`), when the caller has it."""
    key = (corpus.digest or str(id(corpus)), str(source.default_folder()))
    if key in _LOADED:
        return CardNames.of(_LOADED[key])
    if not corpus.digest:
        return None
    return _read_names(paths.index_dir() / NAMES_NAME, digest or cards_digest(source.read_files(), corpus))


# -- the cache ---------------------------------------------------------------------------

def _cache_data(base: CardBase) -> dict:
    return {"format": CACHE_FORMAT, "digest": base.digest, "book": base.book,
            "cards": cachefile.encode(list(base.cards.values())),
            "rulings": cachefile.encode(list(base.rulings.values())),
            "references": cachefile.encode(list(base.references.values())),
            "groups": cachefile.encode(list(base.groups.values())),
            "templates": cachefile.encode(list(base.templates.values())),
            "sets": cachefile.encode(list(base.sets.values())),
            "problems": cachefile.encode(base.problems)}


def _base_of(data: dict, corpus: "Corpus") -> CardBase:
    """The card base `_cache_data` wrote, checked; raises cachefile.Mismatch saying where it is not."""
    cards = cachefile.decode(list[Card], data.get("cards"), "cards")
    rulings = cachefile.decode(list[Ruling], data.get("rulings"), "rulings")
    references = cachefile.decode(list[Reference], data.get("references"), "references")
    groups = cachefile.decode(list[CardGroup], data.get("groups"), "groups")
    templates = cachefile.decode(list[RuleTemplate], data.get("templates"), "templates")
    sets = cachefile.decode(list[CardSet], data.get("sets"), "sets")
    problems = cachefile.decode(list[Problem], data.get("problems"), "problems")
    book = cachefile.decode(Optional[str], data.get("book"), "book")
    base = CardBase(cards={c.id: c for c in cards}, rulings={r.id: r for r in rulings},
                    references={r.id: r for r in references}, groups={g.id: g for g in groups},
                    templates={t.id: t for t in templates}, sets={s.abbrev: s for s in sets},
                    problems=problems, book=book, digest=data["digest"])
    _check_links(base, corpus, (len(cards), len(rulings), len(references), len(groups)))
    return base


def _check_links(base: CardBase, corpus: "Corpus", counts: tuple[int, int, int, int]) -> None:
    """What the look-ups take for granted: unique IDs and slugs, and every card,
    group and rule a card or ruling links to being there."""
    def fail(message: str):
        raise cachefile.Mismatch(message)

    if (len(base.cards), len(base.rulings), len(base.references), len(base.groups)) != counts:
        fail("two cards, rulings, references or groups have the same ID")
    if len(base.by_slug) != len(base.cards):
        fail("two cards have the same slug")
    cards, groups, templates = base.cards, base.groups, base.templates
    rules = {rule for t in templates.values() for rule in t.rules}
    for card in cards.values():
        if any(g not in groups for g in card.groups) or any(t not in templates for t in card.uses):
            fail(f"card {card.id!r} names a group or template that is not there")
    for group in groups.values():
        if any(m.card is not None and m.card not in cards for m in group.members):
            fail(f"group {group.id!r} names a card that is not there")
    for ruling in base.rulings.values():
        linked = [r.target for r in ruling.parts if r.kind == RUN_CARD and r.target is not None]
        if any(c not in cards for c in [*ruling.cards, *ruling.mentions, *linked]) or \
                any(t not in templates for t in ruling.uses):
            fail(f"ruling {ruling.id!r} names a card or template that is not there")
    rules.update(r.resolves_to for r in base.references.values() if r.resolves_to)
    missing = sorted(r for r in rules if corpus.get(r) is None)
    if missing:
        fail(f"rule {missing[0]!r} is not in the corpus")


def _read_cache(path: Path, digest: str, corpus: "Corpus") -> Optional[CardBase]:
    """The cached card base of `digest`; None when there is none, it is of other data
    (stale), or it is damaged (logged: it is rebuilt)."""
    with cachefile.collector_paused():  # a build makes ~100,000 small objects and no cycles
        return cachefile.read_cache(path, "a card base", CACHE_FORMAT, "digest", digest,
                                    lambda data: _base_of(data, corpus), log)
