"""The cards a question names, wherever in it: "can Govern the Unaligned be blocked", "gtu superior: do I reveal
the vampire", "does vykos adv's ability work in torpor".

A card is recognised by any form people type for it (`NameForms`): its whole name in any case, accents and
ligatures folded ("sacre coeur" for Sacré-Cœur), with or without its article ("An Anarch Manifesto", "Anarch
Manifesto"), the name before a crypt card's title ("Smiling Jack" for "Smiling Jack, The Anarch"), an abbreviation
or nickname players use (judge/data/card_nicknames.yaml, "GtU", "KRC"), a part of its name that picks it alone
("vykos", "heidelberg"), or a typo of one of these. A version is chosen by the marks typed after it ("adv",
"(ADV)", "G6", "group 6"); unmarked, the first printed.

What a question says besides the card is kept apart (`Found.rest`): it is what the card's rulings are ranked by.

Never a guess: a part of a name, or a word shared by several names, that is an everyday or rules word
("beast", "theo", "anarch") names a card only when it is the whole query; a form that several cards' names share
is reported with its candidates (`Mention.ambiguous`), and nothing is chosen for it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from judge.cards.names import name_key
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.cards.base import CardBase

MAX_WORDS = 24  # a question longer than this is read up to here
FUZZY_MIN = 86  # rapidfuzz ratio of a typed run of words to a name form, to be read as that name misspelt
FUZZY_SHORTEST = 6  # letters: shorter runs are too easily another word misspelt
# A run of two everyday words or more (neither ending a function word) read as a name misspelt must be this close:
# a name printed in everyday words is read when typed whole ("delaying tactics"), and so it is a letter off
# ("delaying tactic", 97) or split ("ground fighting" for Groundfighting, 97); words merely near a name stay words
# ("the shared" is not The Shard).
FUZZY_EVERYDAY = 94
RARE_ZIPF = 3.3  # English words at least this common (wordfreq) are everyday words, not parts of a name
_WORD = re.compile(r"[a-z0-9]+")
_HOWS_SAVED = frozenset({"name", "nickname", "before-comma"})  # how an exact form names its name (`_add`)
_TOPIC = re.compile(r"\s*([^:?!.,\-\u2013\u2014]{2,60}?)\s*(?::|\s[-\u2013\u2014]\s)")
_ARTICLES = ("the", "an", "a")
_ADVANCED = {"adv", "advanced"}
_GROUP = re.compile(r"g(\d{1,2})")
_RULING_WORDS = {"ruling", "rulings", "ruled", "card", "cards"}


@dataclass(frozen=True)
class Mention:
    """A run of the question's words (`start`, `end`: word positions) naming cards: `cards` the versions of the
    name chosen (the one meant first), or, for an ambiguous form, one card per name it may mean."""

    start: int
    end: int
    typed: str
    cards: tuple[str, ...]
    how: str  # "name", "nickname", "before-comma", "partial", "fuzzy"
    ambiguous: bool = False
    version_marked: bool = False  # the version was chosen by a mark typed ("adv", "G6")

    @property
    def card(self) -> Optional[str]:
        """The card meant, None when the form is ambiguous."""
        return None if self.ambiguous else self.cards[0]


@dataclass
class Found:
    mentions: list[Mention] = field(default_factory=list)
    rest: str = ""  # the question's words that name no card (nor ask for "rulings")

    @property
    def cards(self) -> list[str]:
        return [m.card for m in self.mentions if m.card]


class NameForms:
    """Every form a card's name is typed in, by its words (folded), to the names ("families": every version of
    one name, as `name_key` folds it) it may mean."""

    def __init__(self, base: "CardBase", nicknames: dict[str, list[str]], book: frozenset[str]):
        self.book = book  # the rulebooks' words, folded (`book_words`): saved with the forms
        self.common = common_words(book)
        self.families: dict[str, list[str]] = {}  # name key -> card IDs, the first printed base version first
        for card in base.cards.values():
            self.families.setdefault(name_key(card.name), []).append(card.id)
        for key, ids in self.families.items():
            ids.sort(key=lambda i: (base.cards[i].advanced, base.cards[i].vekn_id))
        self.cards = base.cards
        self.exact: dict[tuple[str, ...], dict[str, str]] = {}  # words -> {family: how}
        self.partial: dict[tuple[str, ...], set[str]] = {}  # a run of a name's words -> the families having it
        for key, ids in self.families.items():
            card = base.cards[ids[0]]
            for name in {card.name, card.vekn_name, *card.aka, *(a for i in ids for a in base.cards[i].aka)}:
                self._add_name(key, name)
        for name, nicks in nicknames.items():
            key = name_key(name)
            for nick in nicks:
                self._add(tuple(_WORD.findall(name_key(nick))), key, "nickname")
        self.longest = max((len(w) for w in self.exact), default=1)
        self.longest_partial = max((len(w) for w in self.partial), default=1)
        # The forms fuzzy matching compares typed runs with (the whole names and their before-comma forms).
        self.fuzzy_forms = sorted({" ".join(w) for w, by in self.exact.items()
                                   if len(" ".join(w)) >= FUZZY_SHORTEST and any(h != "nickname" for h in by.values())})
        self.rare_name_words = sorted({w for words in self.exact for w in words
                                       if len(w) >= FUZZY_SHORTEST and not self.common(w)})
        self._prepare_near()

    def _forms_near(self, typed: str) -> list[str]:
        """The fuzzy forms that can reach FUZZY_MIN with `typed`, in their order: fuzz.ratio is 2·LCS/(a+b), so
        it is out of reach when the lengths differ too much, or when the characters one has and the other lacks
        (a bit each) outnumber the edits it allows. The same matches as over every form, for a few comparisons
        where there were thousands (the fuzzy reading was most of a new question's card answer)."""
        numbers, characters, allowed = self._of_length(len(typed))
        passing = numbers[np.bitwise_count(characters ^ np.uint64(_characters(typed))) <= allowed]
        return [self.fuzzy_forms[i] for i in passing.tolist()]

    def _of_length(self, a: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For a run of `a` characters: the forms whose length can reach FUZZY_MIN (their numbers in
        `fuzzy_forms`, ascending), their characters (`_characters`) and the edits each allows; kept per length
        (a few dozen lengths: the runs are of at most four words)."""
        found = self._near.get(a)
        if found is None:
            r = 1 - FUZZY_MIN / 100  # the share of a + b the edits may be
            allowed = r * (self._form_lengths + a) + 1e-9
            numbers = np.flatnonzero(np.abs(self._form_lengths - a) <= allowed)
            found = self._near[a] = (numbers, self._form_characters[numbers], allowed[numbers])
        return found

    def _prepare_near(self) -> None:
        """`_of_length`'s tables: each fuzzy form's length and characters."""
        self._form_lengths = np.array([len(f) for f in self.fuzzy_forms], dtype=np.float64)
        self._form_characters = np.array([_characters(f) for f in self.fuzzy_forms], dtype=np.uint64)
        self._near: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # written once per length

    def to_data(self) -> dict:
        """The forms as data (`judge.cards.saved_tables`), with the English words `common` reads. Laid out as
        parallel lists of strings (a form's words joined by spaces: a word holds none), which are checked in one
        pass each when read back: as lists of pairs, checking them item by item was most of the reading."""
        families = [(key, card_id) for key, ids in self.families.items() for card_id in ids]
        exact = [(" ".join(w), family, how) for w, by in self.exact.items() for family, how in by.items()]
        partial = [(" ".join(w), family) for w, fs in self.partial.items() for family in sorted(fs)]
        return {"family_keys": [k for k, _ in families], "family_cards": [c for _, c in families],
                "exact_forms": [w for w, _, _ in exact], "exact_families": [f for _, f, _ in exact],
                "exact_hows": [h for _, _, h in exact],
                "partial_forms": [w for w, _ in partial], "partial_families": [f for _, f in partial],
                "fuzzy_forms": self.fuzzy_forms, "rare_name_words": self.rare_name_words,
                "english": english_words(), "book": sorted(self.book)}

    @classmethod
    def from_data(cls, data: Any, cards) -> "NameForms":
        """The forms `to_data` wrote, checked against `cards` (a card base's, or any mapping of card ID -> card that
        answers `in`): raises cachefile.Mismatch where they do not hold.
        (The rulebooks' words are read from them: working them out again read every paragraph, 2.4 s of a
        command at 100 books.)"""
        from judge.cachefile import Mismatch, decode
        forms = cls.__new__(cls)
        if not isinstance(data, dict):
            raise Mismatch("the name forms are not an object")
        column = {name: decode(list[str], data.get(name), name)
                  for name in ("family_keys", "family_cards", "exact_forms", "exact_families", "exact_hows",
                               "partial_forms", "partial_families", "fuzzy_forms", "rare_name_words", "english",
                               "book")}
        for columns in (("family_keys", "family_cards"), ("exact_forms", "exact_families", "exact_hows"),
                        ("partial_forms", "partial_families")):
            if len({len(column[name]) for name in columns}) != 1:
                raise Mismatch(f"the name forms' {' and '.join(columns)} are not of one length")
        forms.families = {}
        for key, card_id in zip(column["family_keys"], column["family_cards"]):
            forms.families.setdefault(key, []).append(card_id)
        if not all(map(cards.__contains__, column["family_cards"])):
            raise Mismatch("the name forms name a card that is not there")
        if not (forms.families.keys() >= set(column["exact_families"])
                and forms.families.keys() >= set(column["partial_families"])):
            raise Mismatch("a name form names a name that is not there")
        if not set(column["exact_hows"]) <= _HOWS_SAVED:
            raise Mismatch("a name form is of a kind the forms do not have")
        if "" in column["exact_forms"] or "" in column["partial_forms"]:
            raise Mismatch("a name form has no words")
        forms.exact = {}
        for words, family, how in zip(column["exact_forms"], column["exact_families"], column["exact_hows"]):
            forms.exact.setdefault(tuple(words.split(" ")), {})[family] = how
        forms.partial = {}
        for words, family in zip(column["partial_forms"], column["partial_families"]):
            forms.partial.setdefault(tuple(words.split(" ")), set()).add(family)
        forms.fuzzy_forms = column["fuzzy_forms"]
        forms.rare_name_words = column["rare_name_words"]
        forms.book = frozenset(column["book"])
        forms.common = common_words(forms.book, frozenset(column["english"]))
        forms.cards = cards
        forms.longest = max((len(w) for w in forms.exact), default=1)
        forms.longest_partial = max((len(w) for w in forms.partial), default=1)
        forms._prepare_near()
        return forms

    def _add_name(self, key: str, name: str) -> None:
        words = tuple(_WORD.findall(name_key(name)))
        if not words:
            return
        self._add(words, key, "name")
        if words[0] in _ARTICLES and len(words) > 1:  # "An Anarch Manifesto": "anarch manifesto" too
            self._add(words[1:], key, "name")
        for article in _ARTICLES:  # "Anarch Manifesto, An" (the VEKN list's order)
            if name.endswith(f", {article.capitalize()}") or name.endswith(f", {article}"):
                self._add((article, *words[:-1]), key, "name")
                self._add(words[:-1], key, "name")
        if "," in name:  # "Smiling Jack, The Anarch": "smiling jack"
            before = tuple(_WORD.findall(name_key(name.split(",", 1)[0])))
            if before and before != words:
                self._add(before, key, "before-comma")
                if before[0] in _ARTICLES and len(before) > 1:  # "The Rumor Mill, Tabloid Newspaper": "rumor mill"
                    self._add(before[1:], key, "before-comma")
        for n in range(1, len(words)):
            for start in range(0, len(words) - n + 1):
                run = words[start:start + n]
                if _STOP.issuperset(run):  # (a set test in C: a generator here was a tenth of a card build)
                    continue
                self.partial.setdefault(run, set()).add(key)

    def _add(self, words: tuple[str, ...], family: str, how: str) -> None:
        if words:
            self.exact.setdefault(words, {}).setdefault(family, how)

    def find(self, query: str) -> Found:
        typed_words = _typed_words(query)
        typed = [w for w, _ in typed_words]
        words = [w.lower() for w in typed]
        # A possessive's name ("vidal's": "vidal"), tried when the word as typed ends no form
        owner = {n: w[:-1].lower() for n, (w, possessive) in enumerate(typed_words) if possessive and len(w) > 2}
        # A question's topic set before a colon or a dash ("Ambush - the target unlocks...", "Bonding: ..."): a name
        # there is a name, even an everyday word's.
        topic = _TOPIC.match(query)
        topic_words = len(query_words(topic.group(1))) if topic else 0
        capitalised = [n > 0 and w[:1].isupper() for n, w in enumerate(typed)]  # a name's capital, mid-sentence
        taken = [False] * len(words)
        mentions: list[Mention] = []
        # The words besides those asking for rulings and the versions' marks: a form that is all of them is the
        # whole query (a look-up: "helena (ADV)", "beast").
        whole = sum(1 for n, w in enumerate(words)
                    if w not in _RULING_WORDS and not _mark(words, n))

        def free(start: int, end: int) -> bool:
            return not any(taken[start:end])

        def take(mention: Mention) -> None:
            for i in range(mention.start, mention.end):
                taken[i] = True
            mentions.append(mention)

        def lookup(table: dict, start: int, n: int) -> tuple[tuple[str, ...], Any]:
            """The run of `n` words from `start` and what `table` holds for it, or for it with its possessives'
            names ("petra's resonance": Petra Resonance)."""
            run = tuple(words[start:start + n])
            found = table.get(run)
            if not found and any(i in owner for i in range(start, start + n)):
                run = tuple(owner.get(i, w) for i, w in enumerate(run, start))
                found = table.get(run)
            return run, found

        # Whole forms (names, nicknames, names before the comma), longest first.
        for n in range(min(self.longest, len(words)), 0, -1):
            for start in range(0, len(words) - n + 1):
                run, by = lookup(self.exact, start, n)
                if not by or not free(start, start + n):
                    continue
                if not self._usable(run, by, whole, capitalised[start]) and not (start == 0 and n == topic_words):
                    continue
                take(self._mention(start, start + n, run, by, words))
        # Parts of one name ("vykos", "sacre coeur"), when they are no everyday or rules words.
        for n in range(min(self.longest_partial, len(words)), 0, -1):
            for start in range(0, len(words) - n + 1):
                run, families = lookup(self.partial, start, n)
                if not families or not free(start, start + n):
                    continue
                if all(self.common(w) for w in run) and not (n == whole and n == len(words) and len(families) == 1):
                    continue  # everyday words: a name only when they are all that was typed, and of one name
                if n == 1 and len(run[0]) < 4:
                    continue
                take(self._mention(start, start + n, run, {f: "partial" for f in families}, words))
        # A name misspelt among the words no name was found in ("parity shfit ... a life boon"): the better
        # reading of its words over a part that several names share ("telepathic misdirecton": not "telepathic").
        found = [m for m in mentions if not (m.ambiguous and m.how == "partial")]
        fuzzy = self._fuzzy(words, whole, lambda start, end: not any(m.start < end and start < m.end for m in found))
        if fuzzy is not None:
            for m in [m for m in mentions if m.start < fuzzy.end and fuzzy.start < m.end]:
                mentions.remove(m)
                for i in range(m.start, m.end):
                    taken[i] = False
            take(fuzzy)
        mentions.sort(key=lambda m: m.start)
        marks = {i for m in mentions for i in range(m.end, min(m.end + 2, len(words)))
                 if m.version_marked and (words[i] in _ADVANCED or _GROUP.fullmatch(words[i]) or words[i] == "group"
                                          or (i > m.end and words[i - 1] == "group" and words[i].isdigit()))}
        rest = [w for i, w in enumerate(words) if not taken[i] and i not in marks and w not in _RULING_WORDS]
        return Found(mentions, " ".join(rest))

    def _usable(self, run: tuple[str, ...], by: dict[str, str], whole: int, capitalised: bool) -> bool:
        """Whether a whole form found among the question's words names a card there: one of several words, or
        everyday words that a name happens to be ("dodge", "beast"), only when it is the whole query, or typed
        with its capital in mid-sentence ("Is Conditioning limited?"), or the name is printed in two words or
        more, or is no everyday word."""
        if len(run) == whole or len(run) >= 2:
            return True
        word = run[0]
        if any(h == "nickname" for h in by.values()):
            return not self.common(word) or len(word) <= 4 and word.isalpha() and not _english_word(word)
        return not self.common(word) or (capitalised and any(h == "name" for h in by.values()))

    def _mention(self, start: int, end: int, run: tuple[str, ...], by: dict[str, str], words: list[str]) -> Mention:
        families = sorted(by, key=lambda f: (f != " ".join(run), f))
        how = by[families[0]]
        typed = " ".join(run)
        if len(families) > 1:
            return Mention(start, end, typed, tuple(self.families[f][0] for f in families), how, ambiguous=True)
        versions = self.families[families[0]]
        chosen, marked = self._version(versions, words[end:end + 2])
        return Mention(start, end, typed, tuple([chosen] + [v for v in versions if v != chosen]), how,
                       version_marked=marked)

    def _version(self, versions: list[str], after: list[str]) -> tuple[str, bool]:
        """The version the words after a name mark ("adv", "advanced", "g6", "group 6"), else the first printed."""
        advanced = any(w in _ADVANCED for w in after)
        group = None
        for i, w in enumerate(after):
            m = _GROUP.fullmatch(w)
            if m:
                group = m.group(1)
            elif w == "group" and i + 1 < len(after) and after[i + 1].isdigit():
                group = after[i + 1]
        if not advanced and group is None:
            return versions[0], False
        fitting = [v for v in versions if (not advanced or self.cards[v].advanced)
                   and (group is None or (self.cards[v].group or "").lstrip("0") == group.lstrip("0"))]
        return (fitting[0], True) if fitting else (versions[0], False)

    def _fuzzy(self, words: list[str], whole: int,
               free: Callable[[int, int], bool] = lambda start, end: True) -> Optional[Mention]:
        """A name misspelt: a run of up to 4 words, one of them no known word (or all of the query: "torn sign
        post"), as close as FUZZY_MIN to a name form, or two words or more of everyday words as close as
        FUZZY_EVERYDAY; else one such word one letter off (a letter wrong, missing, added or two swapped; two for a
        word of 9 letters or more) a rare word of a name. The closest wins; only among the words `free` leaves."""
        best = None
        for n in range(min(4, len(words)), 0, -1):
            for start in range(0, len(words) - n + 1):
                if not free(start, start + n):
                    continue
                run = words[start:start + n]
                cutoff = FUZZY_MIN
                if all(self.common(w) for w in run) and n != whole:
                    if run[0] in _STOP or run[-1] in _STOP or sum(w not in _STOP for w in run) < 2:
                        continue  # "the shared" is no misspelt "The Shard"
                    cutoff = FUZZY_EVERYDAY
                typed = " ".join(run)
                if len(typed) < FUZZY_SHORTEST:
                    continue
                found = process.extractOne(typed, self._forms_near(typed), scorer=fuzz.ratio,
                                           score_cutoff=cutoff)
                if found and (best is None or found[1] > best[0]):
                    best = (found[1], start, start + n, tuple(found[0].split(" ")))
        if best is not None:
            _, start, end, form = best
            return replace(self._mention(start, end, form, self.exact[form], words), how="fuzzy")
        for i, word in enumerate(words):
            if len(word) < FUZZY_SHORTEST or self.common(word) or not free(i, i + 1):
                continue
            edits = 1 if len(word) < 9 else 2
            found = process.extractOne(word, self.rare_name_words, scorer=OSA.distance, score_cutoff=edits)
            if found:
                families = self.partial.get((found[0],)) or set(self.exact.get((found[0],), {}))
                if families:
                    return self._mention(i, i + 1, (found[0],), {f: "fuzzy" for f in families}, words)
        return None


def _mark(words: list[str], n: int) -> bool:
    """Whether word `n` marks a version: "adv", "advanced", "g6", or "group" and its number."""
    w = words[n]
    return (w in _ADVANCED or bool(_GROUP.fullmatch(w)) or w == "group" and n + 1 < len(words)
            and words[n + 1].isdigit() or w.isdigit() and n > 0 and words[n - 1] == "group")


def query_words(query: str) -> list[str]:
    """The words of a question as names are compared with them (`name_key`'s tokens: accents and ligatures
    folded, apostrophes out, "&" as "and"), keeping their case (a capital tells a name)."""
    return [w for w, _ in _typed_words(query)]


def _typed_words(query: str) -> list[tuple[str, bool]]:
    """`query_words`, each with whether it was typed as a possessive ("vidal's", "Vykos's"): its name may be the
    word without its s ("Dragon's Breath Rounds" keeps it, as names are folded). ("Vykos'" is its name as typed.)"""
    from judge.cards.names import fold_keeping_case
    text = fold_keeping_case(query).replace("&", " and ")
    tokens = _TOKEN.findall(text)[:MAX_WORDS]
    return [(t.replace("'", ""), t.endswith(("'s", "'S"))) for t in tokens]


_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z0-9]+)*'?")


# Words a run of a name's words is never made of alone ("of the"): function words of card names.
_STOP = frozenset("a an and as at by for from in into of on or the to with".split())


@lru_cache(maxsize=4096)
def _english_word(word: str) -> bool:
    """Whether wordfreq counts `word` as English at least as common as RARE_ZIPF."""
    if any(ch.isdigit() for ch in word):  # wordfreq reads digits as a pattern ("13th"): its own look-up
        from wordfreq import zipf_frequency
        return zipf_frequency(word, "en") >= RARE_ZIPF
    return word in _english_set()


@lru_cache(maxsize=1)
def english_words() -> list[str]:
    """The English words of letters at least as common as RARE_ZIPF (~20,000), from wordfreq's frequency table
    itself: the same answer as zipf_frequency for a word of letters, whose first call also loads a tokenizer."""
    from wordfreq import get_frequency_dict
    least = 10 ** (RARE_ZIPF - 9)
    return sorted(w for w, f in get_frequency_dict("en").items() if f >= least and not any(c.isdigit() for c in w))


@lru_cache(maxsize=1)
def _english_set() -> frozenset[str]:
    return frozenset(english_words())


def common_words(book_words: Iterable[str], english: Optional[frozenset[str]] = None) -> Callable[[str], bool]:
    """A test of "an everyday or rules word": one of `book_words` (the rulebooks' words, folded), or an English
    word at least as common as RARE_ZIPF (`english`, the saved list of them, else wordfreq's)."""
    known = frozenset(book_words)

    def common(word: str) -> bool:
        if word in known or word.isdigit():
            return True
        if english is not None and not any(ch.isdigit() for ch in word):
            return word in english
        return _english_word(word)
    return common


# -- per card base ------------------------------------------------------------------------------------------------
_FORMS: Memo = Memo("cards.name_forms", 4)


def name_forms(base: "CardBase", corpus) -> NameForms:
    """The name forms of `base`'s cards, with the nicknames file, and the words of `corpus`'s books as its
    everyday words (made once per card base)."""
    from judge.cards.nicknames import load_nicknames

    from judge.cards import saved_tables

    def make() -> NameForms:
        return saved_tables.saved(saved_tables.FORMS_FILE, base, corpus, "the cards' name forms",
                                  lambda: NameForms(base, load_nicknames(base), book_words(corpus)),
                                  NameForms.to_data, lambda data: NameForms.from_data(data, base.cards))
    return _FORMS.recall_or_compute((base.digest or str(id(base)), corpus.digest or str(id(corpus))), make)


def keep_name_forms(digest: str, corpus, forms: NameForms) -> None:
    """Keep `forms`, read from their saved table without the card base (judge.cards.quick), as `name_forms` of the
    card base of `digest` and `corpus`: a question the card base then answers does not read them again."""
    _FORMS.remember((digest, corpus.digest or str(id(corpus))), forms)


_BOOK_WORDS: Memo = Memo("cards.book_words", 4)


def book_words(corpus) -> frozenset[str]:
    """Every word of the corpus's books, folded as names are (made once per corpus)."""
    return _BOOK_WORDS.recall_or_compute(corpus.digest or str(id(corpus)), lambda: frozenset(
        w for p in corpus.paragraphs.values() for w in _WORD.findall(name_key(p.text))))


def _characters(text: str) -> int:
    """The characters `text` has, a bit each (characters sharing a bit only loosen the bound drawn from them)."""
    mask = 0
    for c in set(text):
        mask |= 1 << (ord(c) % 64)
    return mask


_FOUND: Memo = Memo("cards.mentions_found", 4096)


def find(base: "CardBase", corpus, query: str) -> Found:
    """The cards `query` names (see the module's docstring); kept per query (a search asks it of the whole
    question, then of the question less its "rulings")."""
    key = (base.digest or str(id(base)), corpus.digest or str(id(corpus)), query)
    return _FOUND.recall_or_compute(key, lambda: name_forms(base, corpus).find(query))
