"""Turn a parsed query into the Whoosh query `judge.search` runs.

Every word of the query, or every phrase the synonyms file knows ("followers of
set"), becomes a `Unit`: the thing asked for, with each way a paragraph may say
it (`Alternative`):

* its stems in the ranked fields (body, titles, labels, glossary terms);
* its synonyms, at a lower weight, some only inside one game (judge/data/synonyms.yaml);
* for a word the books never use (a typo): the closest words they do use,
  within 1 edit (2 for words over 6 letters; a swap of two letters is one edit),
  looked up on the unstemmed body's vocabulary;
* for a word they do use: its near spellings on the unstemmed body. Those
  only the OCR-damaged book has are that word damaged ("magaiji" for "magaji")
  and count about as much as the word itself; the others, at a low weight,
  catch forms the stemmer does not join ("tied" and "tie");
* for a prefix ("diabler*"): the words of the books starting so;
* for the name of a game or a document ("rivals", "vekn"): that game's or
  document's paragraphs, mildly preferred.

Units are OR-ed (a paragraph matching more of them scores more), quoted phrases
are required, and a proximity bonus rewards the words close together.
"""
from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Optional

from rapidfuzz import process
from rapidfuzz.distance import OSA
from whoosh import query as wq

import judge.search.index as search_index
from judge.memo import Memo, memoised
from judge.search.query import ParsedQuery
from judge.search.synonyms import Synonyms, porter_stem, words_key

if TYPE_CHECKING:
    from judge.search.postings import PostingTable

# Query-time field weights of a unit's stems (BM25F scores each field). The title
# field (section title, bold title, citation label) repeats for every paragraph
# of a section: it says what a passage is about, less surely than its text. The
# questions a paragraph answers (judge/data/questions) say what it means in other
# words: a match there is a match of meaning, which decides between siblings.
# The words of the rulings citing a paragraph (judge.search.evidence) are weak evidence of it.
FIELD_WEIGHTS = {"body": 1.0, "title": 0.6, "questions": 0.8, "rulings": 0.3}
# The glossary terms a paragraph uses: asked once per unit (its words as typed),
# not for every synonym and correction, since they echo the body.
GLOSSARY_WEIGHT = 0.2
NUMBER_WEIGHT = 6.0  # a section number written among words ("damage 6.4.6")
PROXIMITY_WEIGHT = 1.5  # the query's words near each other in the text
PROXIMITY_SLOP = 3
SCOPE_WEIGHT = 2.0  # a game or document named in the query ("torpor in rivals")
# A damaged form of a word the books use (a near spelling found only in the OCR
# book) scores as this share of the word itself: the form is surely the word
# less often than the word is.
FUZZY_OCR_WEIGHT = 0.8
FUZZY_KNOWN_WEIGHT = 0.3  # any other near spelling of a word the books use
FUZZY_KNOWN_FORMS = 4  # near spellings asked per word, closest and commonest first
FUZZY_UNKNOWN_WEIGHT = {1: 0.9, 2: 0.7}  # corrections of a word they never use, by distance
FUZZY_MIN_LENGTH = 4
# A word's lemma (simplemma's English dictionary: "bled" -> "bleed", "fought" -> "fight"),
# where the stemmer does not join them, counts this much: it is the same word, another form.
LEMMA_WEIGHT = 0.9
# A word this common in English (wordfreq's Zipf scale: 3 is once per million words)
# is a real word, never "corrected" into another ("sweep" is not "sleep").
ENGLISH_ZIPF = 3.0
NEAR_KEPT = 50_000  # words whose near spellings are kept (`Vocabulary.near`)
WORDS_KEPT = 50_000  # words whose tokens and lemmas are kept
# A prefix ("diabler*") stands for the words of the books starting so, each
# scored as itself; a short one ("con*") for its commonest few dozen only.
PREFIX_WORDS = 64

# The index's analyzers, built once: their stemmer keeps a cache of stems.
_STEM = search_index.stemming_analyzer()
_PLAIN = search_index.plain_analyzer()


@memoised("search.plain_tokens", WORDS_KEPT)
def _plain_tokens(word: str) -> tuple[str, ...]:
    """A typed word as the plain analyzer reads it (a token never spans a space,
    so a query is read word by word, and the same words come back query after query)."""
    return tuple(t.text for t in _PLAIN(word))


def max_distance(word: str) -> int:
    return 1 if len(word) <= 6 else 2


class Alternative(NamedTuple):
    """One way a paragraph may say what a unit asks for. (A named tuple: units are
    looked up by their alternatives query after query, and a tuple hashes in C.)"""

    # "stems" (ranked fields), "fuzzy" or "prefix" (an unstemmed body word), "game" or "doc" (a scope)
    kind: str
    tokens: tuple[str, ...]  # what the index is asked for: stems, a word, a game's or a document's id
    weight: float
    game: Optional[str] = None  # "stems" only inside this game's documents


@dataclass
class Unit:
    typed: str  # as typed: "tapped", "followers of set", "bleed*"
    alternatives: list[Alternative] = field(default_factory=list)
    plain: Optional[str] = None  # the unstemmed word (single words only)
    prefix: Optional[str] = None  # for "bleed*"
    corrected: Optional[str] = None  # the vocabulary word replacing a word the books never use

    def key(self) -> tuple:
        """What the unit asks for, by which what is derived from it is kept (its query
        leaves, its paragraphs): the same words come back query after query."""
        return (self.prefix, tuple(self.alternatives))


class Vocabulary:
    """The words of a build, for typo and OCR tolerance: unstemmed body words with
    their document frequencies, bucketed by first letter (typos rarely hit it),
    the stems of every ranked field, and the words only OCR-damaged documents use.
    All of it is read from the build's posting table: its keys are Whoosh's
    lexicons, its posting counts the document frequencies."""

    def __init__(self, postings: "PostingTable", ocr_words: frozenset[str] = frozenset()):
        self.documents = postings.doc_count
        self.ocr_words = ocr_words  # words only OCR-damaged documents use
        # Every unstemmed body word (sorted, as the lexicon is: for prefixes) and its document frequency.
        self.words, frequencies = postings.lexicon("body_plain")
        self.frequency = dict(zip(self.words, frequencies.tolist()))
        # Typos are corrected to alphabetic words only.
        self.by_initial: dict[str, list[str]] = {}
        for word in self.words:
            if word.isalpha():
                self.by_initial.setdefault(word[0], []).append(word)
        # (the rulings' words are evidence about the rules, not words of the books: a typo is not one of them)
        self.stems = {stem for name in (*FIELD_WEIGHTS, "glossary") if name != "rulings"
                      for stem in postings.lexicon(name)[0]}
        # A vocabulary never changes, so neither does what is worked out from it:
        # (word, distance) -> [(near word, its distance)]
        self._near: Memo = Memo("search.near_words", NEAR_KEPT)
        # (word, its stem) -> (the near spellings a query adds for it, the correction): see `_add_fuzzy`
        self.fuzzy: Memo = Memo("search.fuzzy_alternatives", NEAR_KEPT)

    @functools.cached_property
    def clean_stems(self) -> frozenset[str]:
        """The stems of the words a clean (not OCR-read) text uses: asked only of a word
        that only OCR-damaged text has (stemming every word cost each process 0.02 s)."""
        return frozenset(porter_stem(w) for w in self.words if w not in self.ocr_words)

    def idf(self, frequency: int) -> float:
        """Whoosh's inverse document frequency (`WeightingModel.idf`), which BM25F uses."""
        return math.log(self.documents / (frequency + 1)) + 1

    def knows(self, word: str, stemmed: str) -> bool:
        return word in self.frequency or stemmed in self.stems

    def starting(self, prefix: str) -> list[str]:
        """The words starting with `prefix`, the commonest `PREFIX_WORDS` of them."""
        start = bisect.bisect_left(self.words, prefix)
        end = bisect.bisect_left(self.words, prefix + "\U0010ffff", start)
        found = self.words[start:end]
        if len(found) > PREFIX_WORDS:
            found = sorted(found, key=lambda w: (-self.frequency[w], w))[:PREFIX_WORDS]
        return found

    def near(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        """Words within `maxdist` edits, closest and commonest first. Kept per
        word: the same words come back in query after query, and comparing one
        with the vocabulary is most of what reading a query costs."""
        key = (word, maxdist)
        found = self._near.recall(key)
        if found is None:
            matches = process.extract(word, self.by_initial.get(word[0], ()), scorer=OSA.distance,
                                      score_cutoff=maxdist, limit=12)
            found = [(w, int(d)) for w, d, _ in matches if w != word]
            found.sort(key=lambda wd: (wd[1], -self.frequency[wd[0]]))
            self._near.remember(key, found)
        return list(found)


def english_word(word: str) -> bool:
    """A real English word (wordfreq's word list): typed on purpose, never a typo."""
    # Imported here: wordfreq (and langcodes, ftfy) cost a process ~0.1 s to import, and
    # only a query with a word the books do not use asks it.
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") >= ENGLISH_ZIPF


@dataclass
class Expansion:
    units: list[Unit]
    required: list[wq.Query]  # the quoted phrases
    numbers: list[str]
    stems: tuple[str, ...] = ()  # the query's words stemmed, in order (question words too)

    @property
    def empty(self) -> bool:
        return not self.units and not self.required


def expand(parsed: ParsedQuery, vocabulary: Vocabulary, synonyms: Synonyms,
           scopes: dict[str, tuple[str, str]]) -> Expansion:
    """`scopes`: lowercase game or document names -> ("game"|"doc", id)."""
    plain = [token for word in parsed.words for token in _plain_tokens(word)]
    stems = [porter_stem(token) for token in plain]  # the stemming analyzer is the plain one, then the stemmer
    units = _cut(plain, stems, synonyms, _said_with_stop_words(parsed.words, synonyms))
    for unit in units:
        if unit.plain in scopes:
            kind, ident = scopes[unit.plain]
            unit.alternatives.append(Alternative(kind, (ident,), SCOPE_WEIGHT))
        elif unit.plain in synonyms.misspellings:  # searched through its table-talk entry
            unit.corrected = synonyms.misspellings[unit.plain]
        elif unit.plain and _add_lemma(unit, vocabulary):
            pass  # an irregular form of a word the books use ("bled") is no typo
        elif (unit.plain and len(unit.plain) >= FUZZY_MIN_LENGTH and unit.plain.isalpha()
              and unit.plain not in synonyms.talk_words):  # a word players say is no typo
            _add_fuzzy(unit, vocabulary, _STEM)
    units += [Unit(f"{p}*", [Alternative("prefix", (w,), 1.0) for w in vocabulary.starting(p)], prefix=p)
              for p in parsed.prefixes]
    required = [stems_query(s, 1.0) for s in (tuple(t.text for t in _STEM(p)) for p in parsed.phrases) if s]
    return Expansion(units, required, list(parsed.numbers), _meant_stems(plain, stems, units))


def _meant_stems(plain: list[str], stems: list[str], units: list[Unit]) -> tuple[str, ...]:
    """The query's stems with each corrected word's stem in its place: what the asker
    meant, which is what says the game asked about ("prestiege" is Rivals' "prestige")."""
    fixes = {u.plain: u.corrected for u in units if u.plain and u.corrected}
    if not fixes:
        return tuple(stems)
    return tuple(porter_stem(fixes[word]) if word in fixes else stem for word, stem in zip(plain, stems))


def _said_with_stop_words(words: list[str], synonyms: Synonyms) -> dict[int, tuple[str, str]]:
    """The table-talk phrases whose meaning is in their stop words ("does combat go on",
    "prestige hits 0"), found in the words as typed: the place of the one token each leaves
    -> (the phrase as typed, its key in `synonyms.by_words`)."""
    if not synonyms.by_words:
        return {}
    keys, places = [], []  # per typed word: its stemmed form, the place of its token (None: dropped)
    place = 0
    for word in words:
        tokens, key = _plain_tokens(word), words_key(word)
        keys.extend(key or ("",))
        places.extend([place if tokens else None] + [None] * (max(1, len(key)) - 1))
        place += len(tokens)
    found: dict[int, tuple[str, str]] = {}
    longest = max(len(k) for k in synonyms.by_words)
    i = 0
    while i < len(keys):
        for size in range(min(longest, len(keys) - i), 1, -1):
            key = tuple(keys[i:i + size])
            left = [p for p in places[i:i + size] if p is not None]
            if key in synonyms.by_words and len(left) == 1:
                found[left[0]] = (" ".join(words[i:i + size]).lower(), key)
                i += size
                break
        else:
            i += 1
    return found


def _cut(plain: list[str], stems: list[str], synonyms: Synonyms,
         said: Optional[dict[int, tuple[str, str]]] = None) -> list[Unit]:
    """Cut the query's tokens into units: the longest synonym phrase at each
    place, otherwise one word; question words ("how", "does") are dropped. `said`:
    tokens standing for a table-talk phrase said with stop words (`_said_with_stop_words`)."""
    table, longest = synonyms.by_stems, synonyms.longest
    units, i = [], 0
    while i < len(stems):
        if said and i in said:
            typed, key = said[i]
            units.append(_unit_of(typed, (stems[i],), synonyms.by_words[key], None))
            i += 1
            continue
        for size in range(min(longest, len(stems) - i), 0, -1):
            key = tuple(stems[i:i + size])
            if key not in table:
                continue
            units.append(_unit_of(" ".join(plain[i:i + size]), key, table[key], plain[i] if size == 1 else None))
            i += size
            break
        else:
            if plain[i] not in synonyms.question_words:
                units.append(Unit(plain[i], [Alternative("stems", (stems[i],), 1.0)], plain[i]))
            i += 1
    return units


@memoised("search.lemma_stems", WORDS_KEPT)
def lemma_stem(word: str) -> Optional[str]:
    """The stem of `word`'s English lemma when the stemmer does not reach it from the
    word itself ("bled" -> "bleed", "stolen" -> "steal"); None otherwise."""
    if not word.isalpha():
        return None
    import simplemma  # (its English dictionary is read at the first word looked up: ~0.15 s)

    stem = porter_stem(simplemma.lemmatize(word, lang="en").lower())
    return stem if stem != porter_stem(word) else None


def _add_lemma(unit: Unit, vocabulary: Vocabulary) -> bool:
    """For a word the books never use ("bled", "fought"), add the stem of its lemma when
    the books use that; True if added. (A word they use finds its own paragraphs: the
    dictionary is then not read, which a query of the books' words alone never pays.)"""
    if len(unit.alternatives) != 1 or unit.plain in vocabulary.frequency:
        return False  # a table-talk or synonym unit already says what it means
    stem = lemma_stem(unit.plain)
    if stem is None or stem not in vocabulary.stems:
        return False
    unit.alternatives.append(Alternative("stems", (stem,), LEMMA_WEIGHT))
    return True


def _unit_of(typed: str, key: tuple[str, ...], groups, plain: Optional[str]) -> Unit:
    """The unit of a synonym phrase found in a query (its stems `key`) and its groups."""
    # stems -> (weight, game): what was typed at full weight, synonyms lower;
    # a synonym shared by every game beats the same one scoped to a game.
    found: dict[tuple[str, ...], tuple[float, Optional[str]]] = {key: (1.0, None)}
    for group, analysed in groups:
        for alt in analysed:
            if not alt or alt == key:
                continue
            weight, game = found.get(alt, (0.0, group.game))
            found[alt] = (max(weight, group.weight), None if group.game is None else game)
    return Unit(typed, [Alternative("stems", s, w, g) for s, (w, g) in found.items()], plain)


def _add_fuzzy(unit: Unit, vocabulary: Vocabulary, analyzer) -> None:
    key = (unit.plain, unit.alternatives[0].tokens[0])
    found = vocabulary.fuzzy.recall(key)
    if found is None:
        probe = Unit(unit.typed, [unit.alternatives[0]], unit.plain)
        _find_fuzzy(probe, vocabulary, analyzer)
        found = vocabulary.fuzzy.remember(key, (tuple(probe.alternatives[1:]), probe.corrected))
    unit.alternatives.extend(found[0])
    unit.corrected = found[1]


def _find_fuzzy(unit: Unit, vocabulary: Vocabulary, analyzer) -> None:
    word, stemmed = unit.plain, unit.alternatives[0].tokens[0]
    near = vocabulary.near(word, max_distance(word))
    if word in vocabulary.ocr_words and stemmed not in vocabulary.clean_stems and not english_word(word):
        # A word only the OCR-damaged book has, typed: a typo that the scan happened to
        # make too ("discpline"). It is corrected as a word the books never use, and
        # still matches the damaged text, as the word itself does below.
        _correct(unit, [(w, d) for w, d in near if w not in vocabulary.ocr_words], analyzer)
    if vocabulary.knows(word, stemmed):
        # A word the books use. Its inflections are found by the stem already.
        # A near spelling found only in the OCR book is that word damaged: being
        # rare, BM25 would weigh it as a rare word, so it is scaled to score like
        # the word itself. Other near spellings are other words or forms the
        # stemmer does not join ("tied", "tie"): weakly.
        word_idf = vocabulary.idf(vocabulary.frequency.get(word, 0))
        for near_word, _ in [(w, d) for w, d in near if porter_stem(w) != stemmed][:FUZZY_KNOWN_FORMS]:
            weight = FUZZY_KNOWN_WEIGHT
            if near_word in vocabulary.ocr_words:
                weight = FUZZY_OCR_WEIGHT * min(1.0, word_idf / vocabulary.idf(vocabulary.frequency[near_word]))
            unit.alternatives.append(Alternative("fuzzy", (near_word,), weight))
        return
    if not near or english_word(word):
        return  # a real English word the books do not use is what the asker meant
    _correct(unit, near, analyzer)


def _correct(unit: Unit, near: list[tuple[str, int]], analyzer) -> None:
    """Search a typo as the closest words of the books (`near`, closest first)."""
    if not near:
        return
    unit.corrected = near[0][0]
    for w, distance in near[:3]:
        corrected = tuple(t.text for t in analyzer(w))
        if corrected:
            unit.alternatives.append(Alternative("stems", corrected, FUZZY_UNKNOWN_WEIGHT[distance]))


def stems_query(stems: tuple[str, ...], weight: float) -> wq.Query:
    """Stems in every ranked field of `FIELD_WEIGHTS` (a phrase: as a phrase in each; one leaf
    per field either way, as `passages._alternative_groups` counts them)."""
    if len(stems) == 1:
        return wq.Or([wq.Term(f, stems[0], boost=weight * w) for f, w in FIELD_WEIGHTS.items()])
    return wq.Or([wq.Phrase(f, list(stems), boost=weight * w) for f, w in FIELD_WEIGHTS.items()])


LEAVES_KEPT = 20_000
# (prefix, alternatives) -> the unit's query leaves: a function of what the unit asks for only.
_LEAVES: Memo = Memo("search.unit_leaves", LEAVES_KEPT)


def _unit_leaves(unit: Unit) -> list[wq.Query]:
    """A unit's query leaves, kept by what the unit asks for: the same words come
    back query after query, and a query object is never changed once built."""
    key = unit.key()
    found = _LEAVES.recall(key)
    if found is None:
        found = _LEAVES.remember(key, _build_unit_leaves(unit))
    return list(found)


def _build_unit_leaves(unit: Unit) -> list[wq.Query]:
    if unit.prefix:
        return [wq.Term("body_plain", alt.tokens[0]) for alt in unit.alternatives]
    typed = unit.alternatives[0].tokens  # the first alternative is what was typed
    leaves: list[wq.Query] = [wq.Term("glossary", typed[0], boost=GLOSSARY_WEIGHT) if len(typed) == 1
                              else wq.Phrase("glossary", list(typed), boost=GLOSSARY_WEIGHT)]
    for alt in unit.alternatives:
        if alt.kind == "fuzzy":
            leaves.append(wq.Term("body_plain", alt.tokens[0], boost=alt.weight))
        elif alt.kind in ("game", "doc"):
            leaves.append(wq.Term(alt.kind, alt.tokens[0], boost=alt.weight))
        elif alt.game:
            # Widen only inside that game; the game term weighs nothing, the score comes
            # from the words. (Not wq.Require: in Whoosh 2.7.4 it lets through
            # documents of other games, see tests/test_search.py.)
            leaves.append(wq.And([stems_query(alt.tokens, alt.weight), wq.Term("game", alt.game, boost=0.0)]))
        else:
            leaves.extend(_leaves(stems_query(alt.tokens, alt.weight)))
    return leaves


def _leaves(q: wq.Query) -> list[wq.Query]:
    if isinstance(q, wq.Or) and q.boost == 1.0:
        return [leaf for sub in q.subqueries for leaf in _leaves(sub)]
    return [q]


def _flat_or(leaves: list[wq.Query]) -> wq.Or:
    """One OR of every leaf (scores add up as in nested ORs). Whoosh runs a flat
    OR on a small index with its array matcher, which is several times faster in
    pure Python than the binary tree of union matchers nested ORs get."""
    q = wq.Or(leaves)
    q.matcher_type = wq.Or.ARRAY_MATCHER
    return q


def build_query(expansion: Expansion) -> tuple[wq.Query, list[list[wq.Query]]]:
    """The OR of every unit's leaves, plus section numbers and proximity; quoted
    phrases are required. Also, for each unit, the queries any of which a
    paragraph matches when it has what the unit asks for: the unit's leaves
    (the same objects as in the query), and for a phrase ("blood hunt") its
    words anywhere in the paragraph: "a vampire with no blood must hunt"
    answers "does a vampire with no blood have to hunt", whose "blood hunt"
    the synonyms made one unit."""
    unit_leaves = [_unit_leaves(u) for u in expansion.units]
    leaves = [leaf for unit in unit_leaves for leaf in unit]
    leaves += [wq.Term("numbers", n.lower(), boost=NUMBER_WEIGHT) for n in expansion.numbers]
    words = [u.alternatives[0].tokens[0] for u in expansion.units
             if u.alternatives and u.alternatives[0].kind == "stems" and len(u.alternatives[0].tokens) == 1]
    if len(words) >= 2:
        leaves.append(wq.Phrase("body", words, slop=PROXIMITY_SLOP, boost=PROXIMITY_WEIGHT))
    coverage = [unit + [_all_words(alt) for alt in u.alternatives if alt.kind == "stems" and len(alt.tokens) > 1]
                for u, unit in zip(expansion.units, unit_leaves)]
    if expansion.required:
        must = wq.And(expansion.required) if len(expansion.required) > 1 else expansion.required[0]
        return (wq.AndMaybe(must, _flat_or(leaves)) if leaves else must), coverage
    return _flat_or(leaves), coverage


def _all_words(alt: Alternative) -> wq.Query:
    """Every stem of a phrase alternative in the ranked fields, in any order (inside its game, if scoped)."""
    parts = [stems_query((stem,), 1.0) for stem in alt.tokens]
    if alt.game:
        parts.append(wq.Term("game", alt.game))
    return wq.And(parts)
