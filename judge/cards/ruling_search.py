"""Rulings found by their words: every ruling indexed with its text, the names of the cards it applies to (and its
group's name) and the rules it cites, and scored by the words a question asks for.

The words are analysed as the rules' search analyses them (`judge.search.index.stemming_analyzer`: lower case,
accents folded, stop words out, Porter stems), and a question arrives as the rules' search reads it: its units,
each with its alternatives (its stems, their synonyms and table-talk terms, a typo's correction, each with its
weight: `judge.search.expansion`), so that "redirect the bleed" finds what "bounce" would, and "torper" finds
"torpor". Each field is scored with BM25 (Whoosh's idf, K1 1.2, B 0.75), weighed (`FIELD_WEIGHTS`), a unit
counting its best alternative, and the sum multiplied by the share of the question's units a ruling has (as the
rules' ranking does: `COVERAGE_FLOOR`).

Two uses: ranking a card's rulings by what a question about it asks (`rank`: the card panel's rulings best first),
and finding the rulings a question matches among all (`top`: the ruling hits mixed with the rule paragraphs).
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Sequence

import numpy as np

from judge.cards.names import name_key
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.cards.base import CardBase

FIELD_WEIGHTS = {"text": 1.0, "cards": 1.0, "rules": 0.3}
K1, B = 1.2, 0.75
COVERAGE_FLOOR = 0.5  # a ruling having none of a question's units but one keeps half its score for that one
_SYMBOL = re.compile(r"\[([A-Za-z ]+)\]")

# A unit of a question: its alternatives, each (stems, weight); a phrase's stems must all be in one field.
Unit = Sequence[tuple[tuple[str, ...], float]]


class RulingHit(NamedTuple):
    id: str
    score: float
    by_name: bool = False  # a word of the question is a word of the name of a card it applies to


class RulingIndex:
    """The rulings of a card base, analysed once (see the module's docstring)."""

    def __init__(self, base: "CardBase", corpus=None, forms=None):
        """`forms`: the cards' name forms (`judge.cards.mentions.name_forms`, which is asked when not given)."""
        from judge.search.index import stemming_analyzer
        analyzer = stemming_analyzer()
        self.ids: list[str] = list(base.rulings)
        self.number = {rid: n for n, rid in enumerate(self.ids)}
        count = len(self.ids)
        self.postings: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
        for name in FIELD_WEIGHTS:
            terms: dict[str, dict[int, int]] = {}
            lengths = np.zeros(count, dtype=np.float64)
            analysed: dict[str, list[str]] = {}  # a group's rulings share their cards' names, cited titles repeat
            for n, rid in enumerate(self.ids):
                text = _field_text(base, base.rulings[rid], name, corpus)
                stems = analysed.get(text)
                if stems is None:
                    stems = analysed[text] = [t.text for t in analyzer(text)]
                lengths[n] = len(stems)
                for stem in stems:
                    docs = terms.setdefault(stem, {})
                    docs[n] = docs.get(n, 0) + 1
            average = float(lengths.mean()) if count and lengths.mean() > 0 else 1.0
            norm = K1 * (1 - B + B * lengths / average)
            field: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            for stem, docs in terms.items():
                numbers = np.fromiter(docs, dtype=np.int64, count=len(docs))
                tf = np.fromiter(docs.values(), dtype=np.float64, count=len(docs))
                idf = math.log(count / (len(docs) + 1)) + 1  # Whoosh's
                field[stem] = (numbers, idf * tf * (K1 + 1) / (tf + norm[numbers]))
            self.postings[name] = field
        self.count = count
        self.shown = RulingsShown.of(base)
        # The stems of the words of cards' names that tell a card: no everyday or rules word (judge.cards.mentions),
        # or a one-word name the rulebooks never use ("Ambush", "Vessel": an everyday word, but no rule's).
        self.telling: frozenset[str] = frozenset()
        if corpus is not None:
            if forms is None:
                from judge.cards.mentions import name_forms
                forms = name_forms(base, corpus)
            common, in_books = forms.common, forms.book
            telling = set()
            for card in base.cards.values():
                words = re.findall(r"[a-z0-9]+", name_key(card.name))
                telling.update(w for w in words if not common(w) or len(words) == 1 and w not in in_books)
            self.telling = frozenset(t.text for w in telling for t in analyzer(w))

    def to_data(self) -> dict:
        """The index as data (`judge.cards.saved_tables`): each field's postings as its stems, and the ruling numbers
        and weights of all of them in a row, each stem's from its offset to the next (flat lists of numbers read back
        as arrays at once: a list a stem was most of a command's read of the index)."""
        postings = {}
        for name, field in self.postings.items():
            stems = list(field)
            lengths = [len(field[s][0]) for s in stems]
            numbers = np.concatenate([field[s][0] for s in stems] or [np.zeros(0, np.int64)])
            weights = np.concatenate([field[s][1] for s in stems] or [np.zeros(0)])
            postings[name] = {"stems": stems, "offsets": np.cumsum([0, *lengths]).tolist(),
                              "numbers": numbers.tolist(), "weights": weights.tolist()}
        return {"ids": self.ids, "telling": sorted(self.telling), "shown": self.shown.to_data(), "postings": postings}

    @classmethod
    def from_data(cls, data: Any, base: Optional["CardBase"]) -> "RulingIndex":
        """The index `to_data` wrote, checked against `base` (without one, against what it shows of the rulings):
        raises cachefile.Mismatch where it does not hold."""
        from judge.cachefile import Mismatch, decode
        if not isinstance(data, dict):
            raise Mismatch("the ruling index is not an object")
        index = cls.__new__(cls)
        index.ids = decode(list[str], data.get("ids"), "ids")
        index.shown = RulingsShown.from_data(data.get("shown"), index.ids)
        if base is not None and index.ids != list(base.rulings):
            raise Mismatch("the ruling index is not of these rulings")
        index.number = {rid: n for n, rid in enumerate(index.ids)}
        index.count = len(index.ids)
        index.telling = frozenset(decode(list[str], data.get("telling"), "telling"))
        postings = data.get("postings")
        if not isinstance(postings, dict) or set(postings) != set(FIELD_WEIGHTS):
            raise Mismatch("the ruling index's fields are not judge's")
        index.postings = {name: _postings_of(postings[name], index.count, name) for name in FIELD_WEIGHTS}
        return index

    def scores(self, units: Sequence[Unit]) -> np.ndarray:
        """Every ruling's score for a question's `units` (0 where none matches)."""
        total = np.zeros(self.count)
        covered = np.zeros(self.count)
        for unit in units:
            best = np.zeros(self.count)
            for stems, weight in unit:
                alternative = self._alternative(stems)
                if alternative is not None:
                    np.maximum(best, weight * alternative, out=best)
            total += best
            covered += best > 0
        if units:
            total *= COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * covered / len(units)
        return total

    def named(self, units: Sequence[Unit]) -> np.ndarray:
        """Which rulings have a word of a card they apply to among the question's words: a word that tells a card
        (no everyday or rules word: "vykos", "heidelberg"; not "blood", "hunt")."""
        found = np.zeros(self.count, dtype=bool)
        field = self.postings["cards"]
        for unit in units:
            for stems, _ in unit:
                for stem in stems:
                    numbers = field.get(stem)
                    if numbers is not None and stem in self.telling:
                        found[numbers[0]] = True
        return found

    def _alternative(self, stems: tuple[str, ...], fields=FIELD_WEIGHTS) -> Optional[np.ndarray]:
        found = None
        for name, weight in fields.items():
            field = self.postings[name]
            parts = [field.get(s) for s in stems]
            if not parts or any(p is None for p in parts):
                continue
            if len(parts) == 1:  # one word (most alternatives): its postings are its scores, no phrase to check
                numbers, values = parts[0]
                if found is None:
                    found = np.zeros(self.count)
                found[numbers] += weight * values  # (a ruling is once in a word's postings)
                continue
            score = np.zeros(self.count)
            present = np.ones(self.count, dtype=bool)
            for numbers, values in parts:
                has = np.zeros(self.count, dtype=bool)
                has[numbers] = True
                present &= has
                score[numbers] += values
            score = np.where(present, weight * score / len(parts), 0.0)
            found = score if found is None else found + score
        return found

    def rank(self, units: Sequence[Unit], candidates: Iterable[str],
             boost: Optional[dict[str, float]] = None) -> list[RulingHit]:
        """`candidates` (ruling IDs, in the order they are listed) best first by `units`, `boost` multiplying
        some of their scores; ties, and everything when the question asks nothing but its card, in the order
        given."""
        candidates = [c for c in dict.fromkeys(candidates) if c in self.number]
        if not units:
            return [RulingHit(c, 0.0) for c in candidates]
        scores = self.scores(units)
        boost = boost or {}
        scored = [RulingHit(c, float(scores[self.number[c]]) * boost.get(c, 1.0)) for c in candidates]
        return sorted(scored, key=lambda h: -h.score)  # stable: ties keep the listed order

    def top(self, units: Sequence[Unit], limit: int, boost: Optional[dict[str, float]] = None) -> list[RulingHit]:
        """The rulings `units` match, best first, at most `limit`; `boost` multiplies some rulings' scores (the
        rulings of a card the question names)."""
        if not units:
            return []
        scores = self.scores(units)
        if boost:
            for rid, factor in boost.items():
                n = self.number.get(rid)
                if n is not None:
                    scores[n] *= factor
        found = np.flatnonzero(scores > 0)
        order = found[np.argsort(-scores[found], kind="stable")][:limit]
        named = self.named(units)
        return [RulingHit(self.ids[n], float(scores[n]), bool(named[n])) for n in order.tolist()]


def _field_text(base: "CardBase", ruling, name: str, corpus) -> str:
    """What a ruling's field holds: its text (symbols read as what they mean: "[DOM]" as Dominate, superior),
    the names of its cards and its group, or the titles of the rules it cites."""
    if name == "text":
        parts = []
        for run in ruling.parts or ():
            if run.kind == "symbol" and run.target:
                parts.append(f"{run.text} {run.target}")
            elif run.kind != "reference":
                parts.append(run.text)
        return " ".join(parts) if parts else ruling.text
    if name == "cards":
        names = [base.cards[c].name for c in ruling.cards if c in base.cards]
        if ruling.group and ruling.group in base.groups:
            names.append(base.groups[ruling.group].name)
        return " | ".join(names)
    titles = []
    for ref in ruling.references:
        target = base.references.get(ref)
        if target is not None and target.resolves_to and corpus is not None:
            item = corpus.get(target.resolves_to) if hasattr(corpus, "get") else None
            if item is not None:
                titles.append(getattr(item, "title", "") or "")
                section = corpus.sections.get(getattr(item, "section", "") or "")
                if section is not None:
                    titles.append(section.title)
    return " | ".join(t for t in titles if t)


def _postings_of(data: Any, count: int, name: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """A field's postings as `RulingIndex.to_data` wrote them, checked: the offsets rise from 0 to the end of the
    numbers, the numbers are rulings' (0 <= n < `count`), the weights numbers; raises cachefile.Mismatch."""
    from judge.cachefile import Mismatch, decode
    if not isinstance(data, dict):
        raise Mismatch(f"the postings of {name} are not an object")
    stems = decode(list[str], data.get("stems"), f"postings.{name}.stems")
    arrays = []
    for part, kind in (("offsets", "i"), ("numbers", "i"), ("weights", "if")):
        values = data.get(part)
        array = np.array(values) if isinstance(values, list) else None
        if array is None or array.ndim != 1 or (array.size and array.dtype.kind not in kind):
            raise Mismatch(f"the postings of {name}: {part} are not a list of numbers")
        arrays.append(array)
    offsets, numbers, weights = arrays[0].astype(np.int64), arrays[1].astype(np.int64), arrays[2].astype(np.float64)
    if len(offsets) != len(stems) + 1 or offsets[0] != 0 or offsets[-1] != len(numbers) or \
            len(weights) != len(numbers) or np.any(np.diff(offsets) < 0) or \
            (numbers.size and not 0 <= numbers.min() <= numbers.max() < count):
        raise Mismatch(f"the postings of {name} do not fit the rulings")
    bounds = offsets.tolist()
    return {stem: (numbers[bounds[i]:bounds[i + 1]], weights[bounds[i]:bounds[i + 1]]) for i, stem in enumerate(stems)}


class ShownRuling(NamedTuple):
    """What a ruling hit shows of a ruling (judge.shapes.ruling_hit_data reads these of a judge.cards.model.Ruling)."""

    id: str
    text: str
    cards: list[str]
    owner: str
    references: list[str]

    @property
    def group(self) -> Optional[str]:
        return self.owner if self.owner.startswith("group:") else None


class ShownCard(NamedTuple):
    id: str
    name: str
    slug: str


class ShownGroup(NamedTuple):
    id: str
    name: str


class RulingsShown:
    """What ruling hits show, saved with the index: each ruling's text, cards, owner and references, the names and
    slugs of those cards, the names of their groups. It answers `rulings`, `cards` and `groups` as a card base does
    for judge.shapes.ruling_hit_data, so that a question naming no card shows its ruling hits without reading the
    card base (judge.cards.quick)."""

    def __init__(self, rulings: dict[str, ShownRuling], cards: dict[str, ShownCard], groups: dict[str, ShownGroup]):
        self.rulings, self.cards, self.groups = rulings, cards, groups

    @classmethod
    def of(cls, base: "CardBase") -> "RulingsShown":
        rulings = {r.id: ShownRuling(r.id, r.text, list(r.cards), r.owner, list(r.references))
                   for r in base.rulings.values()}
        cards = {c: ShownCard(c, base.cards[c].name, base.cards[c].slug)
                 for r in rulings.values() for c in r.cards if c in base.cards}
        groups = {r.group: ShownGroup(r.group, base.groups[r.group].name)
                  for r in rulings.values() if r.group in base.groups}
        return cls(rulings, cards, groups)

    def to_data(self) -> dict:
        return {"rulings": [[r.text, r.cards, r.owner, r.references] for r in self.rulings.values()],
                "cards": {c.id: [c.name, c.slug] for c in self.cards.values()},
                "groups": {g.id: g.name for g in self.groups.values()}}

    @classmethod
    def from_data(cls, data: Any, ids: list[str]) -> "RulingsShown":
        """What `to_data` wrote for the rulings `ids`, checked: raises cachefile.Mismatch where it does not hold."""
        from judge.cachefile import Mismatch, decode
        if not isinstance(data, dict):
            raise Mismatch("what the ruling hits show is not an object")
        rows = decode(list[tuple[str, list[str], str, list[str]]], data.get("rulings"), "shown rulings")
        if len(rows) != len(ids):
            raise Mismatch("what the ruling hits show is not of the index's rulings")
        cards = {c: ShownCard(c, name, slug) for c, (name, slug)
                 in decode(dict[str, tuple[str, str]], data.get("cards"), "shown cards").items()}
        groups = {g: ShownGroup(g, name)
                  for g, name in decode(dict[str, str], data.get("groups"), "shown groups").items()}
        return cls({rid: ShownRuling(rid, *row) for rid, row in zip(ids, rows)}, cards, groups)


_INDEXES: Memo = Memo("cards.ruling_indexes", 4)
# (card base digest, corpus digest) -> an index read without the card base (judge.cards.quick), not yet checked
# against the card base's rulings
_READ_ALONE: Memo = Memo("cards.ruling_indexes_read_alone", 4)


def ruling_index(base: "CardBase", corpus=None) -> RulingIndex:
    """The ruling index of a card base (made once per base: ~0.3 s)."""
    from judge.cards import saved_tables
    key = (base.digest or str(id(base)), getattr(corpus, "digest", None) or str(id(corpus)))
    if corpus is None:
        return _INDEXES.recall_or_compute(key, lambda: RulingIndex(base, corpus))

    def read_or_make() -> RulingIndex:
        alone = _READ_ALONE.recall(key)
        if alone is not None and alone.ids == list(base.rulings):  # as `from_data` checks it against the base
            return alone
        return saved_tables.saved(saved_tables.RULINGS_FILE, base, corpus, "the rulings' index",
                                  lambda: RulingIndex(base, corpus), RulingIndex.to_data,
                                  lambda data: RulingIndex.from_data(data, base))
    return _INDEXES.recall_or_compute(key, read_or_make)


def keep_ruling_index(digest: str, corpus, index: RulingIndex) -> None:
    """Keep `index`, read from its saved table without the card base (judge.cards.quick), for `ruling_index` of the
    card base of `digest` and `corpus`: the card base, read next, takes it once its rulings are the index's, and
    otherwise reads the file as damaged (logged, rebuilt)."""
    _READ_ALONE.remember((digest, getattr(corpus, "digest", None) or str(id(corpus))), index)


def units_of(expansion) -> list[list[tuple[tuple[str, ...], float]]]:
    """A question's units as the rules' search expanded them (`judge.search.expansion.Expansion`), for V:TES:
    each unit's stem alternatives and their weights."""
    out = []
    for unit in expansion.units:
        alternatives = [(a.tokens, a.weight) for a in unit.alternatives
                        if a.kind == "stems" and a.game in (None, "vtes")]
        if alternatives:
            out.append(alternatives)
    return out
