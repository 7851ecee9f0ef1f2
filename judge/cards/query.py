"""What a search query says about cards: the cards it names, and for "<card> ruling(s) ...",
that card's rulings. Identified as a section number is (exact, accent-folded, partial,
fuzzy), never through the rules' search index, so a rules question finds what it found
before: the answer is empty unless the query names a card.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from rapidfuzz import fuzz, process

from judge.cards.names import name_key
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.cards.base import CardBase, CardMatch
    from judge.cards.load import CardNames
    from judge.cards.model import Ruling

MAX_QUERY = 120
CARDS_SHOWN = 3
RULINGS_SHOWN = 8
# A misspelt whole name is taken when this close (rapidfuzz ratio of the folded names):
# "govrn the unalined" is 91 from "govern the unaligned"; rules questions sit far below.
FUZZY_WHOLE = 86
_RULING_WORDS = re.compile(r"\b(?:rulings?|ruled)\b", re.IGNORECASE)

_ANSWERS: Memo = Memo("cards.search_answers", 2048)


@dataclass
class CardAnswer:
    query: str
    matches: list["CardMatch"] = field(default_factory=list)
    rulings: list["Ruling"] = field(default_factory=list)  # the first card's, when rulings were asked for
    asked_rulings: bool = False
    rulings_total: int = 0
    show_cards: bool = True  # false for in=rulings: the matches name whose rulings are shown, nothing more

    def __bool__(self) -> bool:
        return bool(self.matches)

    def to_json(self) -> dict:
        return {"cards": [{"id": m.card.id, "name": m.card.name, "slug": m.card.slug, "types": m.card.types,
                           "text": m.card.text, "how": m.how, "score": round(m.score, 1)}
                          for m in (self.matches if self.show_cards else self.matches[:1])],
                "rulings": [{"id": r.id, "text": r.text, "references": r.references} for r in self.rulings],
                "rulings_total": self.rulings_total, "asked_rulings": self.asked_rulings}


def card_answer(base: "CardBase", query: str, searched: tuple[str, ...] = ("cards", "rulings")) -> CardAnswer:
    """The cards `query` names, best first (at most CARDS_SHOWN), kept per query. `searched`
    (the search's `in=` facet): "cards" shows the cards, "rulings" their rulings when the query
    asks for them, or always when the cards are not searched (in=rulings: the card's rulings)."""
    q = " ".join(query.split())[:MAX_QUERY]
    searched = tuple(s for s in ("cards", "rulings") if s in searched)
    if not searched:
        return CardAnswer(q)
    key = (base.digest or id(base), q, searched)
    return _ANSWERS.recall_or_compute(key, lambda: _answer(base, q, searched))


def _asked(q: str, searched: tuple[str, ...]) -> tuple[bool, str]:
    """(whether the query asks for rulings, the name it may hold)."""
    asked = "rulings" in searched and (bool(_RULING_WORDS.search(q)) or "cards" not in searched)
    return asked, " ".join(_RULING_WORDS.sub(" ", q).split()).strip(" :-,?")


def no_card_answer(names: "CardNames", query: str, searched: tuple[str, ...] = ("cards", "rulings")):
    """`card_answer`'s answer when `query` surely names no card, told from the names alone
    (`judge.cards.load.card_names`): every test `_named` makes that could find a card fails. None
    when it may name one (then the card base answers)."""
    q = " ".join(query.split())[:MAX_QUERY]
    searched = tuple(s for s in ("cards", "rulings") if s in searched)
    if not searched:
        return CardAnswer(q)
    asked, name = _asked(q, searched)
    answer = CardAnswer(q, asked_rulings=asked)
    if not name or len(name_key(name)) < 3:
        return answer
    key, low = name_key(name), name.casefold()
    if name in names.ids or low in names.slugs or name in names.exact or key in names.keys_set or \
            (name.isdigit() and f"card:{name}" in names.ids) or "(" in name:
        return None
    if len(key) >= 5:
        padded = f" {key} "
        by_length, lengths = names.by_length
        found = by_length[bisect_left(lengths, len(key)):bisect_right(lengths, len(key) / 0.6 + 1)]
        if any(padded in f" {k} " and len(key) >= 0.6 * len(k) for k in found):
            return None
    if process.extractOne(key, names.keys, scorer=fuzz.ratio, score_cutoff=FUZZY_WHOLE):
        return None
    return answer


def _answer(base: "CardBase", q: str, searched: tuple[str, ...] = ("cards", "rulings")) -> CardAnswer:
    asked, name = _asked(q, searched)
    answer = CardAnswer(q, asked_rulings=asked)
    if not name or len(name_key(name)) < 3:
        return answer
    answer.matches = _named(base, name)
    answer.show_cards = "cards" in searched
    if answer.matches and asked:
        found = base.rulings_of(answer.matches[0].card.id)
        answer.rulings_total = len(found)
        answer.rulings = found[:RULINGS_SHOWN]
    return answer


def _named(base: "CardBase", name: str) -> list["CardMatch"]:
    """The cards a query names as a whole: by ID, slug or name in any case or accents, most of
    one name's words, or a misspelling of one whole name; a query holding more than a name names
    none (a rules question)."""
    from judge.cards.base import CardMatch
    key = name_key(name)
    low = name.casefold()
    if name in base.cards or low in base.by_slug or name in base.by_exact or key in base.by_name or \
            (name.isdigit() and f"card:{name}" in base.cards) or "(" in name:
        found = base.find(name, limit=CARDS_SHOWN)
        return [m for m in found if m.how in ("id", "slug", "name", "folded")]
    keys = _keys(base)
    out: list[CardMatch] = []
    seen: set[str] = set()

    def take(k: str, how: str, score: float) -> None:
        for c in base._marked(base.by_name[k], False, None):
            if c not in seen and len(out) < CARDS_SHOWN:
                seen.add(c)
                out.append(CardMatch(base.cards[c], how, score))
    if len(key) >= 5:
        for k in _holding(base, key, longest=int(len(key) / 0.6 + 1e-9)):  # the query is 60% of the name at least
            take(k, "partial", 100.0 * len(key) / len(k))
    for k, score, _ in process.extract(key, _fuzzy_candidates(base, key), scorer=fuzz.ratio, limit=CARDS_SHOWN,
                                       score_cutoff=FUZZY_WHOLE):
        take(k, "fuzzy", score)
    return out


# Per card base (its digest): a server has one; a test may load a few.
BASES_KEPT = 4
_KEYS: Memo = Memo("cards.name_keys", BASES_KEPT)


def _keys(base: "CardBase") -> list[str]:
    """Every card name's folded form (base.by_name's keys), listed once per base."""
    return _KEYS.recall_or_compute(base.digest or str(id(base)), lambda: list(base.by_name))


class _Names(NamedTuple):
    """`_keys` sorted by length (names of one length in `_keys`'s order), with, for each: its
    length, its place in `_keys`, its `_characters`; and each word of them -> the names (by
    their number here, ascending) having it. Made once per card base."""

    ordered: list[str]
    lengths: list[int]
    places: np.ndarray
    characters: np.ndarray  # uint64
    by_word: dict[str, list[int]]


_NAMES: Memo = Memo("cards.name_tables", BASES_KEPT)


def _names(base: "CardBase") -> _Names:
    return _NAMES.recall_or_compute(base.digest or str(id(base)), lambda: _names_of(_keys(base)))


def _names_of(keys: list[str]) -> _Names:
    order = sorted(range(len(keys)), key=lambda i: len(keys[i]))
    ordered = [keys[i] for i in order]
    by_word: dict[str, list[int]] = {}
    for n, name in enumerate(ordered):
        for word in dict.fromkeys(name.split(" ")):
            by_word.setdefault(word, []).append(n)
    lengths = [len(n) for n in ordered]
    return _Names(ordered, lengths, _read_only(np.array(order, dtype=np.int64)),
                  _read_only(np.array([_characters(n) for n in ordered], dtype=np.uint64)), by_word)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)  # kept in a memo, shared by the threads: never changed
    return array


def _fuzzy_candidates(base: "CardBase", key: str) -> list[str]:
    """`_keys` (in its order) but the names that cannot reach FUZZY_WHOLE with `key`. The ratio
    is 100 * (1 - indel distance / (a + b)), and the distance is at least the difference of the
    lengths, and at least the count of characters one of the two has and the other lacks (each
    costs an edit; `_characters`, as bits). The same matches as over every name, in the same
    order, for a twentieth of the comparisons: the fuzzy look-up was half the card answer of
    every new query."""
    keys, characters, within = _of_length(base, len(key))
    passing = np.flatnonzero(np.bitwise_count(characters ^ np.uint64(_characters(key))) <= within)
    return [keys[i] for i in passing.tolist()]


# (card base, a length) -> the names whose length lets a key of that length reach FUZZY_WHOLE
# (in `_keys`'s order), their `_characters`, and the indel distance each allows: made from
# `_names` at a key length's first query (~0.03 ms), at most one per length a query can have.
_OF_LENGTH: Memo = Memo("cards.fuzzy_candidates", BASES_KEPT * 4 * MAX_QUERY)


def _of_length(base: "CardBase", a: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    k = (base.digest or str(id(base)), a)
    found = _OF_LENGTH.recall(k)
    if found is None:
        names = _names(base)
        # The lengths that can pass (|b - a| <= r (a + b)), a letter wider; then the exact test.
        r = (100 - FUZZY_WHOLE) / 100
        first = bisect_left(names.lengths, a * (1 - r) / (1 + r) - 1)
        last = bisect_right(names.lengths, a * (1 + r) / (1 - r) + 1)
        within = r * (np.array(names.lengths[first:last], dtype=np.float64) + a) + 1e-9
        fitting = np.flatnonzero(np.abs(np.array(names.lengths[first:last]) - a) <= within)
        fitting = fitting[np.argsort(names.places[first + fitting], kind="stable")]  # in `_keys`'s order
        keys = _keys(base)
        found = _OF_LENGTH.remember(k, ([keys[i] for i in names.places[first + fitting].tolist()],
                                        _read_only(names.characters[first + fitting]), _read_only(within[fitting])))
    return found


def _characters(text: str) -> int:
    """The characters `text` has, a bit each (characters sharing a bit only loosen the bound
    `_fuzzy_candidates` draws from them, never tighten it)."""
    mask = 0
    for c in set(text):
        mask |= 1 << (ord(c) % 64)
    return mask


def _holding(base: "CardBase", key: str, longest: int) -> list[str]:
    """The folded names of at most `longest` characters holding `key` as whole words, shortest
    first: only the names having its first word are looked at (for most rules questions, none)."""
    names = _names(base)
    last, padded = bisect_right(names.lengths, longest), f" {key} "
    return [names.ordered[n] for n in names.by_word.get(key.split(" ", 1)[0], ())
            if n < last and padded in f" {names.ordered[n]} "]


def cited_ids(base: "CardBase", corpus, ident: str) -> list[str]:
    """The paragraph or section `ident` names (an ID, label, vekn.net URL, section number,
    or a rulebook reference "RBK <anchor>"), with what a section holds; UnknownIdError
    with close matches when it names none."""
    from judge.lookup import identify
    ref = base.references.get(ident.strip())
    target = ref.resolves_to if ref is not None and ref.resolves_to else identify(corpus, ident).id
    return [target, *sorted(corpus.ids_inside(target))] if target in corpus.sections else [target]


def named_card(base: "CardBase", text: str):
    """The card `text` names as a whole (exactly, in any case or accents, or misspelt: the
    closest whole name); None when it names none, or more than a name."""
    found = _named(base, " ".join(text.split())[:MAX_QUERY])
    return found[0].card if found else None
