"""What a search query says about cards: the cards it names, their rulings best first for what it asks, and the
rulings its words match among all.

A query that is a card's name (exact, accent-folded, a part of it, misspelt) names that card; one that holds more
than a name names the cards recognised among its words (judge.cards.mentions: "can Govern the Unaligned be
blocked", "gtu superior ..."). The card's rulings (its own, its groups', and its other versions' when no version
was marked) are then ranked by what the question asks besides the name (judge.cards.ruling_search), and every
ruling the question's words match is a ruling hit, the named card's first, to be shown among the rule paragraphs
(`mixed_hits`). Never through the rules' search index: a rules question finds what it found before, and the
answer is empty unless the query names a card or matches a ruling.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, NamedTuple, Optional

import numpy as np
from rapidfuzz import fuzz, process

from judge.cards.names import name_key, split_marks
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.cards.base import CardBase, CardMatch
    from judge.cards.load import CardNames
    from judge.cards.model import Card, Ruling
    from judge.cards.ruling_search import RulingHit

MAX_QUERY = 120
CARDS_SHOWN = 3
RULINGS_SHOWN = 8  # the card panel's rulings (best first); all of them are reached from the card's page
RULING_HITS = 10  # ruling hits a question's words find among all rulings, at most
# A ruling of a card the question names counts this many times its words' score among the ruling hits.
NAMED_CARD_BOOST = 1.5
# Among a named card's rulings, one filed under the card itself counts this many times its words' score beside its
# groups' (a group's ruling is about what many cards share; a question about the card asks of what it alone does).
# Chosen on the tuned part of tests/rulings_gold.yaml.
OWN_RULING_BOOST = 2.0
# A question naming no card (nor a word of the name of the cards a ruling applies to) is a rules question: a ruling
# its words match counts this share of its score beside the rule paragraphs (the paragraph that states the rule
# comes first; the rulings relying on it are shown beside it). Chosen on the tuned parts of both question sets
# (tests/search_gold.yaml, tests/rulings_gold.yaml).
UNNAMED_RULING_SHARE = 0.25
# A misspelt whole name is taken when this close (rapidfuzz ratio of the folded names):
# "govrn the unalined" is 91 from "govern the unaligned"; rules questions sit far below.
FUZZY_WHOLE = 86
# A name offered when rulings are asked of a name no card has: as close as this (rapidfuzz ratio): "bloodhunt"
# is 95 from "blood hunt"; "nonexistent cardname" 40 from "abuse of power".
CLOSEST_NAME = 60
_RULINGS_OF = re.compile(r"^\s*(?:rulings?|ruled)\s+(?:of|on|for|about)\s+", re.IGNORECASE)
_RULING_WORDS = re.compile(r"\b(?:rulings?|ruled)\b", re.IGNORECASE)

_ANSWERS: Memo = Memo("cards.search_answers", 2048)


@dataclass
class CardAnswer:
    query: str
    matches: list["CardMatch"] = field(default_factory=list)
    rulings: list["Ruling"] = field(default_factory=list)  # the named cards' rulings, best first (RULINGS_SHOWN)
    asked_rulings: bool = False
    rulings_total: int = 0
    show_cards: bool = True  # false for in=rulings: the matches name whose rulings are shown, nothing more
    ambiguous: list[tuple[str, list["Card"]]] = field(default_factory=list)  # (as typed, the cards it may name)
    ruling_hits: list["RulingHit"] = field(default_factory=list)  # rulings the question's words match, best first
    versions: dict[str, str] = field(default_factory=dict)  # card ID -> the label telling its version apart
    ruling_card: dict[str, str] = field(default_factory=dict)  # a ruling shown -> the card (or version) it is of
    # Rulings were asked of a name no card has ("rulings of Bloodhunt"): the cards closest to it, best first
    closest: list["Card"] = field(default_factory=list)
    asked_name: str = ""  # that name as typed

    def __bool__(self) -> bool:
        return bool(self.matches)

    def to_json(self) -> dict:
        return {"cards": [{"id": m.card.id, "name": m.card.name, "slug": m.card.slug, "types": m.card.types,
                           "text": m.card.text, "how": m.how, "score": round(m.score, 1),
                           "label": self.versions.get(m.card.id, m.card.name)}
                          for m in (self.matches if self.show_cards else self.matches[:1])],
                "rulings": [{"id": r.id, "text": r.text, "references": r.references, "cards": r.cards,
                             "card": self.ruling_card.get(r.id)} for r in self.rulings],
                "rulings_total": self.rulings_total, "asked_rulings": self.asked_rulings,
                "ambiguous": [{"typed": typed, "cards": [{"id": c.id, "name": c.name, "slug": c.slug}
                                                          for c in cards]} for typed, cards in self.ambiguous],
                "closest": [{"id": c.id, "name": c.name, "slug": c.slug} for c in self.closest]}


@dataclass
class Context:
    """What recognising cards inside a question and ranking rulings by it needs besides the card base: the corpus
    (its books' words are the everyday words no card is named by alone) and the question as the rules' search
    reads it (`expansion(query)`: a judge.search.expansion.Expansion, or None)."""

    corpus: object
    expansion: Callable[[str], object]


def card_answer(base: "CardBase", query: str, searched: tuple[str, ...] = ("cards", "rulings"),
                context: Optional[Context] = None) -> CardAnswer:
    """The cards `query` names, best first (at most CARDS_SHOWN), kept per query. `searched`
    (the search's `in=` facet): "cards" shows the cards, "rulings" their rulings, best first for
    what the query asks, and the ruling hits. Without a `context`, only a query that is a card's
    name names a card, and its rulings come in the order they are filed."""
    q = " ".join(query.split())[:MAX_QUERY]
    searched = tuple(s for s in ("cards", "rulings") if s in searched)
    if not searched:
        return CardAnswer(q)
    key = (base.digest or id(base), q, searched, context is not None)
    return _ANSWERS.recall_or_compute(key, lambda: _answer(base, q, searched, context))


def _asked(q: str, searched: tuple[str, ...]) -> tuple[bool, str]:
    """(whether the query asks for rulings, the name it may hold)."""
    asked = "rulings" in searched and (bool(_RULING_WORDS.search(q)) or "cards" not in searched)
    q = _RULINGS_OF.sub("", q)  # "rulings of Of Noble Blood": the name is "Of Noble Blood"
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


def _answer(base: "CardBase", q: str, searched: tuple[str, ...] = ("cards", "rulings"),
            context: Optional[Context] = None) -> CardAnswer:
    from judge.cards import mentions
    from judge.cards.base import CardMatch
    asked, name = _asked(q, searched)
    answer = CardAnswer(q, asked_rulings=asked)
    answer.show_cards = "cards" in searched
    whole = []
    if name and len(name_key(name)) >= 3:
        if context is None:
            whole = _named(base, name)
        else:  # the query a card's name, as `judge card` reads it (a version's mark after it: "Victoria Ash G7")
            card, how, _ = _identified(base, context.corpus, name)
            whole = [CardMatch(card, how, 100.0)] if card is not None else []
            if card is not None and not _marked(name):  # "theo bell": every version, told apart by its label
                whole += [CardMatch(v, how, 100.0) for v in versions_of(base, card)][:CARDS_SHOWN - 1]
    named_words: set[str] = set()
    unmarked: set[str] = set()  # cards named without a version mark: their other versions' rulings count too
    if whole:
        answer.matches = whole
        named_words = set(name_key(name).split())
        unmarked = {m.card.id for m in whole if not _marked(name)}
    elif context is not None:
        found = mentions.find(base, context.corpus, q)
        seen: set[str] = set()
        for m in found.mentions:
            if m.ambiguous:
                answer.ambiguous.append((m.typed, [base.cards[c] for c in m.cards]))
            elif m.card not in seen and len(answer.matches) < CARDS_SHOWN:
                seen.add(m.card)
                answer.matches.append(CardMatch(base.cards[m.card], m.how, 100.0))
                if not m.version_marked:
                    unmarked.add(m.card)
            named_words.update(m.typed.split())
    answer.versions = version_labels(base, [m.card.id for m in answer.matches])
    if asked and _RULING_WORDS.search(q) and not answer.matches and not answer.ambiguous and \
            len(name_key(name)) >= 3:
        # "rulings of X" where no card is X: the names spelt most like it, so the judge can pick one
        answer.asked_name = name
        key = name_key(name)
        answer.closest = [m.card for m in base.find(name, limit=CARDS_SHOWN)
                          if fuzz.ratio(key, name_key(m.card.name)) >= CLOSEST_NAME]
    if "rulings" not in searched:
        return answer
    units = _question_units(context, q, named_words) if context is not None else []
    candidates: list[str] = []
    for m in answer.matches:
        of = [(m.card.id, r.id) for r in base.rulings_of(m.card.id)]
        if m.card.id in unmarked:
            of += [(v.id, r.id) for v in versions_of(base, m.card) for r in base.rulings_of(v.id)]
        for card_id, rid in of:
            answer.ruling_card.setdefault(rid, card_id)
            candidates.append(rid)
    answer.versions.update(version_labels(base, set(answer.ruling_card.values())))
    if candidates:
        from judge.cards.ruling_search import ruling_index
        # A question naming two cards asks how they meet: a ruling of one that names the other answers it, and
        # comes first (its words may be the other card's name and nothing more: "Lucian, the Perfect - Target
        # Retainer on his retainer?").
        named = {m.card.id for m in answer.matches}
        meeting = {c for c in candidates if (set(base.rulings[c].mentions) & named) - set(base.rulings[c].cards)}
        boost = {c: OWN_RULING_BOOST for c in candidates  # a ruling filed under the card itself, not a group's
                 if base.rulings[c].owner.startswith("card:")}
        ranked = ruling_index(base, context.corpus if context else None).rank(units, candidates, boost)
        ranked = [h for h in ranked if h.id in meeting] + [h for h in ranked if h.id not in meeting]
        answer.rulings_total = len(ranked)
        answer.rulings = [base.rulings[h.id] for h in ranked[:RULINGS_SHOWN]]
    if context is not None:
        all_units = _question_units(context, q, set())
        if all_units:
            from judge.cards.ruling_search import RulingHit, ruling_index
            boost = dict.fromkeys(candidates, NAMED_CARD_BOOST)
            hits = ruling_index(base, context.corpus).top(all_units, RULING_HITS, boost)
            answer.ruling_hits = [h if answer.matches or h.by_name else RulingHit(h.id, h.score * UNNAMED_RULING_SHARE)
                                  for h in hits]
    return answer


def _marked(name: str) -> bool:
    """Whether a name was typed with a version's mark: "(ADV)", "(G6)", "adv", "g6"."""
    _, advanced, group = split_marks(name)
    return advanced or group is not None or bool(re.search(r"\b(?:adv|advanced|g\d{1,2})$", name.strip(), re.I))


def versions_of(base: "CardBase", card: "Card") -> list["Card"]:
    """The card's other versions: the cards of its name (an advanced vampire, another group's)."""
    return [base.cards[c] for c in base.by_name.get(name_key(card.name), []) if c != card.id]


def _question_units(context: Context, q: str, named_words: set[str]) -> list:
    """The question's units as the rules' search reads them, but those naming a card (or asking for rulings)."""
    from judge.cards.ruling_search import units_of
    expansion = context.expansion(q)
    if expansion is None:
        return []
    kept = [u for u in expansion.units
            if not set(name_key(u.typed).split()) <= (named_words | {"ruling", "rulings", "ruled", "card"})]
    return units_of(_Units(kept))


class _Units(NamedTuple):
    units: list


def version_labels(base: "CardBase", card_ids: Iterable[str]) -> dict[str, str]:
    """For each card whose name other cards share (its versions), the label telling it apart: its name with
    "(ADV)" and its group, "Theo Bell (G2)", "Theo Bell (ADV, G2)", "Theo Bell (G6)"."""
    out = {}
    for cid in card_ids:
        card = base.cards[cid]
        if len(base.by_name.get(name_key(card.name), ())) > 1:
            marks = (["ADV"] if card.advanced else []) + ([f"G{card.group}"] if card.group else [])
            out[cid] = f"{card.name} ({', '.join(marks)})" if marks else card.name
    return out


def mixed_hits(rule_hits: list[dict], ruling_hits: list["RulingHit"], limit: int,
               shaped: Callable[["RulingHit"], dict]) -> list[dict]:
    """Rule paragraphs (their JSON shapes) and rulings in one list by score, best first (a rule before a ruling of
    the same score), at most `limit`; a ruling shaped (`shaped`) only when it is in the list."""
    both = sorted([*((h["score"], h) for h in rule_hits), *((round(h.score, 4), h) for h in ruling_hits)],
                  key=lambda sh: -sh[0])
    return [h if isinstance(h, dict) else shaped(h) for _, h in both[:limit]]


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


class LookUp(NamedTuple):
    card: Optional["Card"]  # the card named, None when none is for sure
    others: list["Card"]  # its other versions; without a card, the cards it may name (`ambiguous`) or the closest
    ambiguous: bool = False  # the name is one several cards share
    how: str = ""  # how it was found: "name" (an ID, a slug, the name), a mention's way, or "fuzzy"


def look_up(base: "CardBase", corpus, typed: str) -> LookUp:
    """The card a look-up names (`judge card NAME`, /card/NAME) and its other versions; or no card and the cards
    it may name (several sharing the form typed) or the closest names, when it names none for sure. An ID, a slug or a name (any case or accents, with "(ADV)"/"(G6)"
    marks), then any form people type a card's name in (judge.cards.mentions: a part of it that picks one card,
    the name before the comma, a nickname, "adv"/"G6" after it, a typo), then the closest whole name."""
    text = " ".join(typed.split())[:MAX_QUERY]
    card, how, candidates = _identified(base, corpus, text)
    if candidates:
        return LookUp(None, candidates, True)
    if card is None:
        return LookUp(None, [m.card for m in base.find(text, limit=5)])
    return LookUp(card, versions_of(base, card), how=how)


def _identified(base: "CardBase", corpus, text: str) -> tuple[Optional["Card"], str, list["Card"]]:
    """`look_up`'s card and how it was found, or the cards a form several share may name; no closest names (their
    search costs a scan of every name: a question asks it of its whole words, most naming no card)."""
    from judge.cards import mentions
    card, how = base.card(text), "name"
    if card is None:
        found = mentions.find(base, corpus, text)
        alone = found.mentions[0] if len(found.mentions) == 1 else None
        if alone is not None and not alone.ambiguous and found.rest:
            # What else was typed must be words of that name too ("beast leatherface").
            rest = set(found.rest.split()) - {"the", "a", "an"}  # "The Rumor Mill": its article is no other word
            alone = alone if rest <= set(name_key(base.cards[alone.card].name).split()) else None
        if alone is not None and alone.ambiguous:
            return None, "", [base.cards[c] for c in alone.cards]
        if alone is not None:
            card, how = base.cards[alone.card], alone.how
        else:
            whole = _named(base, text)
            card, how = (whole[0].card, whole[0].how) if whole else (None, "")
    return card, how, []


def named_card(base: "CardBase", text: str):
    """The card `text` names as a whole (exactly, in any case or accents, or misspelt: the
    closest whole name); None when it names none, or more than a name."""
    found = _named(base, " ".join(text.split())[:MAX_QUERY])
    return found[0].card if found else None
