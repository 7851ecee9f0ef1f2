"""The synonyms file (judge/data/synonyms.yaml): groups of words and phrases that
say the same thing (older editions' terms: tap/lock, Assamite/Banu Haqim ...),
some only inside one game, and the question words a query drops.

`load_synonyms` reads and checks the file; `current_synonyms` is what searches
use: the file re-read when it changes, and its last good copy kept when it
changes into one that does not read or check. Each version carries its groups
by stems (`Synonyms.by_stems`), worked out once as it is read.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import itertools
import logging
import os
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from whoosh.lang.porter import stem as porter_stem

import judge.search.index as search_index
from judge import cachefile, paths
from judge.datafile import key_line, parse_yaml, read_regular
from judge.errors import SourceError
from judge.memo import Memo, memoised

log = logging.getLogger(__name__)
_versions = itertools.count(1)
DEFAULT_WEIGHT = 0.8
FILES_KEPT = 16  # synonyms files watched (one in a server; tests point at their own)

@dataclass(frozen=True)
class SynonymGroup:
    terms: tuple[str, ...]
    game: Optional[str] = None
    weight: float = DEFAULT_WEIGHT
    # The terms a query widens from (None: every term). Table talk widens one way: "rush"
    # finds "enter combat", but "enter combat" does not find what else "rush" means.
    says: Optional[tuple[str, ...]] = None


# The stems of a synonym phrase -> [(its group, the stems of every phrase of the group)]
StemsTable = dict[tuple[str, ...], list[tuple[SynonymGroup, list[tuple[str, ...]]]]]


@dataclass(frozen=True, eq=False)
class Synonyms:
    """One version of the synonyms file, as searches use it."""

    groups: tuple[SynonymGroup, ...]
    question_words: frozenset[str]
    # The table talk (judge/data/table_talk.yaml): every word players say there, never
    # "corrected" to another word; and the stems of the words only Rivals has.
    talk_words: frozenset[str] = frozenset()
    rivals_terms: frozenset[tuple[str, ...]] = frozenset()
    # A misspelling the table talk lists -> the book's word it misspells ("torper" -> "torpor"):
    # searched through its entry, and offered as "did you mean".
    misspellings: dict = field(default_factory=dict, hash=False, compare=False)
    # A phrase of the files -> its stems, as kept with the parsed file (`ParsedFile.phrase_stems`);
    # a phrase not in it is stemmed here.
    phrase_stems: dict = field(default_factory=dict, hash=False, compare=False)
    by_stems: StemsTable = field(init=False)  # how a query's stems find their group
    longest: int = field(init=False)  # the most words a phrase of the file has
    # A table-talk phrase whose meaning is in its stop words ("go on", "hits 0", "have to
    # hunt"), by every one of its words stemmed, stop words too: found in the words as typed.
    by_words: StemsTable = field(init=False)
    # Which version of the file this is, as this process read it (each one read gets the next
    # number): what keeps an answer searched with an older version from being taken for new.
    version: int = field(init=False)

    def __post_init__(self):
        table: StemsTable = {}
        by_words: StemsTable = {}
        for group in self.groups:
            analysed = [self.stems_of(phrase) for phrase in group.terms]
            keys = analysed if group.says is None else [_talk_key(p, self.stems_of) for p in group.says]
            for phrase_stems in keys:
                if phrase_stems:
                    table.setdefault(phrase_stems, []).append((group, analysed))
            for phrase in group.says or ():
                if not _talk_key(phrase, self.stems_of):
                    by_words.setdefault(words_key(phrase), []).append((group, analysed))
        object.__setattr__(self, "version", next(_versions))
        object.__setattr__(self, "by_stems", table)
        object.__setattr__(self, "by_words", by_words)
        object.__setattr__(self, "longest", max((len(k) for k in table), default=1))

    def stems_of(self, phrase: str) -> tuple[str, ...]:
        known = self.phrase_stems.get(phrase)
        return tuple(known) if known is not None else stems_of_phrase(phrase)


@dataclass
class ParsedFile:
    """A data file as it reads and checks (the synonyms or the table talk), before
    `Synonyms` works out its tables: what `ParsedFile.synonyms` builds them from, and
    what is kept between processes (`_parsed_kept`)."""

    groups: list[SynonymGroup]
    question_words: list[str]
    talk_words: list[str] = field(default_factory=list)
    rivals_terms: list[str] = field(default_factory=list)  # as written; stemmed by `synonyms`
    misspellings: dict[str, str] = field(default_factory=dict)
    # Every phrase's stems (`stems_of_phrase`), worked out once and kept with the rest: stemming
    # the ~900 phrases cost each process 0.02-0.03 s of CPU.
    phrase_stems: dict[str, list[str]] = field(default_factory=dict)

    def stemmed(self) -> "ParsedFile":
        """It, with every phrase's stems worked out (`phrase_stems`)."""
        self.phrase_stems = {phrase: list(stems_of_phrase(phrase)) for phrase in self._phrases()}
        return self

    def _phrases(self) -> list[str]:
        return list(dict.fromkeys([*(phrase for group in self.groups for phrase in (*group.terms, *(group.says or ()))),
                                   *self.rivals_terms]))

    def synonyms(self) -> Synonyms:
        known = self.phrase_stems.get
        rivals = frozenset(s for s in (tuple(known(p) or stems_of_phrase(p)) for p in self.rivals_terms) if s)
        return Synonyms(tuple(self.groups), frozenset(self.question_words), frozenset(self.talk_words), rivals,
                        dict(self.misspellings), dict(self.phrase_stems))


_STEM = search_index.stemming_analyzer()
PHRASE_STEMS_KEPT = 20_000  # the files hold ~5,000 phrases


# Kept: each version of a file, and the union of the two (`current_synonyms`), stems them all.
@memoised("search.synonym_phrase_stems", PHRASE_STEMS_KEPT)
def stems_of_phrase(phrase: str) -> tuple[str, ...]:
    """The stems of a phrase of the files, as the index's analyzer makes them."""
    return tuple(t.text for t in _STEM(phrase))


STEMS_KEPT = 50_000  # words whose stems are kept
# The index's stemmer, its answers kept as its StemFilter keeps them (the expansion's too).
porter_stem = memoised("search.stems", STEMS_KEPT)(porter_stem)


def words_key(text: str) -> tuple[str, ...]:
    """Every word of `text`, lowercase and stemmed, stop words kept ("goes on" -> goe, on)."""
    return tuple(porter_stem(w) for w in _WORDS.findall(text.lower()))


_WORDS = re.compile(r"\w+")


def _talk_key(phrase: str, stems_of=None) -> tuple[str, ...]:
    """The stems by which a query finds a table-talk phrase; none for a phrase of
    several words left with one stem once its stop words are dropped ("have to hunt",
    "goes to 0", "on the table"): its meaning was in those words, and keyed by the one
    left it would widen every query using that word ("hunt" would also ask for "mandatory")."""
    stems = (stems_of or stems_of_phrase)(phrase)
    return () if len(stems) == 1 and len(phrase.split()) > 1 else stems


def synonyms_file() -> Path:
    return paths.data_dir() / "synonyms.yaml"


def table_talk_file() -> Path:
    return paths.data_dir() / "table_talk.yaml"


TALK_WEIGHT = 0.9  # a book term beside the table-talk word typed


def load_table_talk(path: Optional[Path] = None) -> Synonyms:
    """Read and check the table-talk file; a malformed one raises SourceError with its line."""
    path = Path(path or table_talk_file())
    data, _ = _read_settled(path)
    return _table_talk_of(data, path.name)


def _table_talk_of(data: bytes, name: str) -> Synonyms:
    return _table_talk_parsed(data, name).synonyms()


def _table_talk_parsed(data: bytes, name: str) -> "ParsedFile":
    what = "the table talk"
    parsed, text = parse_yaml(data, name, what, with_lines=True)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("talk"), list):
        raise SourceError(name, 1, f"{what}: expected a mapping with a list under 'talk'")
    groups, words, misspellings = [], set(), {}
    for n, raw in enumerate(parsed["talk"], 1):
        line = raw.get("__line__", 0) if isinstance(raw, dict) else key_line(text, "talk")
        if not isinstance(raw, dict):
            raise SourceError(name, line, f"entry {n}: expected 'say', 'means' and 'note'")
        for key in ("say", "means"):
            value = raw.get(key)
            if not isinstance(value, list) or not value or not all(isinstance(t, str) and t.strip() for t in value):
                raise SourceError(name, line, f"entry {n}: '{key}' must list one or more words or phrases")
        if not isinstance(raw.get("note"), str) or not raw["note"].strip():
            raise SourceError(name, line, f"entry {n}: 'note' must say what the words mean")
        weight, game = raw.get("weight", TALK_WEIGHT), raw.get("game")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 1:
            raise SourceError(name, line, f"entry {n}: 'weight' must be a number in (0, 1]")
        if game is not None and not isinstance(game, str):
            raise SourceError(name, line, f"entry {n}: 'game' must be a game id")
        say = [t.strip() for t in raw["say"]]
        terms = tuple(dict.fromkeys(say + [t.strip() for t in raw["means"]]))
        if len(terms) < 2:
            raise SourceError(name, line, f"entry {n}: 'means' must say it in other words than 'say'")
        groups.append(SynonymGroup(terms, game, float(weight), tuple(say)))
        words.update(w.lower() for phrase in say for w in phrase.split())
        spelling = raw.get("spelling", False)
        if not isinstance(spelling, bool):
            raise SourceError(name, line, f"entry {n}: 'spelling' must be true or false")
        if spelling:
            misspellings.update(_misspellings(say, raw["means"]))
    rivals = parsed.get("rivals_terms") or []
    if not isinstance(rivals, list) or not all(isinstance(t, str) and t.strip() for t in rivals):
        raise SourceError(name, key_line(text, "rivals_terms"), "'rivals_terms' must be a list of words or phrases")
    return ParsedFile(groups, [], sorted(words), list(rivals), misspellings).stemmed()


MISSPELLING_DISTANCE = 2  # edits from a book word within which a talk word is that word misspelt


def _misspellings(say: list[str], means: list[str]) -> dict[str, str]:
    """The words of `say` that are a word of `means` misspelt: not English, within
    MISSPELLING_DISTANCE edits of it ("torper" of "torpor"; "MPA" is no misspelling)."""
    from rapidfuzz.distance import OSA
    from wordfreq import zipf_frequency

    out = {}
    book_words = [m.strip().lower() for m in means if m.strip().isalpha()]
    for word in (w.strip().lower() for w in say):
        if not word.isalpha() or zipf_frequency(word, "en") >= 3.0 or word in book_words:
            continue
        close = [(OSA.distance(word, b), b) for b in book_words]
        close = [c for c in close if c[0] <= MISSPELLING_DISTANCE]
        if close:
            out[word] = min(close)[1]
    return out


def load_synonyms(path: Optional[Path] = None) -> Synonyms:
    """Read and check the synonyms file; a malformed one raises SourceError with its line."""
    path = Path(path or synonyms_file())
    data, _ = _read_settled(path)
    return _synonyms_of(data, path.name)


def _synonyms_of(data: bytes, name: str) -> Synonyms:
    return _synonyms_parsed(data, name).synonyms()


def _synonyms_parsed(data: bytes, name: str) -> "ParsedFile":
    parsed, text = parse_yaml(data, name, "the search synonyms", with_lines=True)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("groups"), list):
        raise SourceError(name, 1, "the search synonyms: expected a mapping with a list under 'groups'")
    groups = []
    for n, raw in enumerate(parsed["groups"], 1):
        line = raw.get("__line__", 0) if isinstance(raw, dict) else key_line(text, "groups")
        terms = raw.get("terms") if isinstance(raw, dict) else None
        if not isinstance(terms, list) or len(terms) < 2 or not all(isinstance(t, str) and t.strip()
                                                                    for t in terms):
            raise SourceError(name, line, f"group {n}: 'terms' must list two or more words or phrases")
        weight = raw.get("weight", DEFAULT_WEIGHT)
        game = raw.get("game")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 1:
            raise SourceError(name, line, f"group {n}: 'weight' must be a number in (0, 1]")
        if game is not None and not isinstance(game, str):
            raise SourceError(name, line, f"group {n}: 'game' must be a game id")
        groups.append(SynonymGroup(tuple(t.strip() for t in terms), game, float(weight)))
    words = parsed.get("question_words") or []
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise SourceError(name, key_line(text, "question_words"), "'question_words' must be a list of words")
    return ParsedFile(groups, sorted({w.lower() for w in words})).stemmed()


def _what(path: Path) -> str:
    return "the table talk" if path.name == "table_talk.yaml" else "the search synonyms"


class _Changing(Exception):
    """The file changed while it was read: what was read may be half of it."""


def _stamp(st: os.stat_result) -> tuple:
    return st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev


def _read_settled(path: Path) -> tuple[bytes, tuple]:
    """The bytes of `path` and the stamp of what was read, read in one go; a
    SourceError when it cannot be read, _Changing when it was written to meanwhile."""
    try:
        before = _stamp(os.stat(path))
    except FileNotFoundError:
        raise SourceError(path.name, 0, f"{_what(path)}: no such file in {path.parent}") from None
    except OSError as exc:
        raise SourceError(path.name, 0, f"cannot read {_what(path)}: {exc.strerror or exc}") from None
    data = read_regular(path, _what(path))  # a regular file of a bounded size, or SourceError saying what it is
    try:
        if _stamp(os.stat(path)) != before:
            raise _Changing(path)
    except OSError as exc:
        raise SourceError(path.name, 0, f"cannot read {_what(path)}: {exc.strerror or exc}") from None
    return data, before


# -- the parsed files kept between processes ---------------------------------------------
# Parsing the two files is most of what a command line spends before it searches: PyYAML's
# pure-Python loader (the one that keeps the lines errors name) and, for the table talk's
# misspellings, wordfreq's import and English list. So what a file parses into is kept in
# the index directory as JSON (`judge.cachefile`: data only, checked as it is read), keyed
# by the file's bytes and the code that parses it. A file that does not parse is never
# kept, so a broken or half-written one is parsed, and refused, as before.
PARSED_FORM = 1
_PARSING_CODE = ("search/synonyms.py", "datafile.py", "search/index.py")  # under judge/ (index.py: the analyzer)


@lru_cache(maxsize=1)
def _code_key() -> str:
    """The parsing code and the English word list that says what is no misspelling."""
    package = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for name in _PARSING_CODE:
        h.update(name.encode() + b"\0" + (package / name).read_bytes())
    spec = importlib.util.find_spec("wordfreq")
    for location in (spec.submodule_search_locations or []) if spec else []:
        for part in ("__init__.py", "data/large_en.msgpack.gz"):
            with contextlib.suppress(OSError):
                st = os.stat(Path(location) / part)
                h.update(f"{location}/{part}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def _kept_path(name: str) -> Optional[Path]:
    try:
        return paths.index_dir() / f"parsed-{Path(name).stem}.json"
    except SourceError:  # no index directory can be made: parsed each time
        return None


def _parsed_kept(parse, data: bytes, name: str) -> ParsedFile:
    """`parse(data, name)`, or what it gave for these bytes last time, as kept."""
    key = hashlib.sha256(_code_key().encode() + hashlib.sha256(data).digest()).hexdigest()
    path = _kept_path(name)
    if path is not None:
        kept = cachefile.read_cache(path, f"{name} as parsed", PARSED_FORM, "key", key, _decode_parsed, log)
        if kept is not None:
            return kept
    parsed = parse(data, name)
    if path is not None:
        cachefile.write_json(path, {"format": PARSED_FORM, "key": key, "parsed": cachefile.encode(parsed)})
    return parsed


def _decode_parsed(data: dict) -> ParsedFile:
    parsed = cachefile.decode(ParsedFile, data.get("parsed"), "parsed")
    for n, group in enumerate(parsed.groups):  # what the parse checked, checked again
        if len(group.terms) < 2 or not 0 < group.weight <= 1 or not all(t.strip() for t in group.terms):
            raise cachefile.Mismatch(f"parsed.groups[{n}]: not a group the file could hold")
    return parsed


# How soon an edit of the synonyms file is seen: its date is looked at (one stat) at most
# this often, not at every search.
SYNONYMS_CHECK_SECONDS = 0.25
SETTLE_TRIES = 5  # reads of a file being written, a tenth of a second apart, while there is no good copy


@dataclass
class _Seen:
    checked: float  # time.monotonic() of the last look at the file
    stamp: Optional[tuple]  # the file's stamp then (None: unreadable)
    synonyms: Synonyms  # the last copy that read and checked


# path -> what was last seen of the file there: kept while the file's stamp stays the same.
_SEEN: Memo = Memo("search.synonyms_files", FILES_KEPT)


def current_synonyms(path: Optional[Path] = None) -> Synonyms:
    """What searches use: the synonyms file and the table-talk file together, each
    re-read when it changes on disk (seen within SYNONYMS_CHECK_SECONDS). With a
    `path`, that synonyms file alone.

    A file changed into one that cannot be read or does not check (deleted, half
    written, malformed) leaves the last good copy in use: the fault is logged once,
    naming the file, the line and the reason, and the file is read again when it
    changes again. With no good copy yet (a process starting), the SourceError is
    raised: judge cannot search without its synonyms."""
    global _recent
    if path is not None:
        return _current_file(Path(path), _synonyms_parsed)
    # A page asks three times (its cache key, the search's key, the search): the pair seen
    # within SYNONYMS_CHECK_SECONDS is answered without building the files' paths again.
    where, now = os.environ.get("JUDGE_DATA_DIR"), time.monotonic()
    recent = _recent
    if recent is not None and recent[0] == where and now - recent[1] < SYNONYMS_CHECK_SECONDS:
        return recent[2]
    synonyms = _current_file(synonyms_file(), _synonyms_parsed)
    talk = _current_file(table_talk_file(), _table_talk_parsed)
    key = (synonyms.version, talk.version)
    found = _COMBINED.recall(key)
    if found is None:
        found = _COMBINED.remember(key, Synonyms(synonyms.groups + talk.groups, synonyms.question_words,
                                                 talk.talk_words, talk.rivals_terms, talk.misspellings,
                                                 {**synonyms.phrase_stems, **talk.phrase_stems}))
    _recent = (where, now, found)
    return found


# (synonyms version, table talk version) -> the two as one: a new version when either changes.
_COMBINED: Memo = Memo("search.synonyms_combined", FILES_KEPT)
# The last look at the two files (JUDGE_DATA_DIR, time.monotonic() then, the two as one):
# a time, not an answer computed, so not a memo; one tuple, replaced whole.
_recent: Optional[tuple[Optional[str], float, Synonyms]] = None


def _current_file(path: Path, parse) -> Synonyms:
    name = str(path)
    now = time.monotonic()
    seen = _SEEN.recall(name)
    if seen is not None and now - seen.checked < SYNONYMS_CHECK_SECONDS:
        return seen.synonyms
    try:
        stamp = _stamp(os.stat(name))
    except OSError:
        stamp = None
    if seen is not None and seen.stamp == stamp:
        seen.checked = now
        return seen.synonyms
    for attempt in range(1 if seen is not None else SETTLE_TRIES):
        try:
            data, stamp = _read_settled(path)
            synonyms = _parsed_kept(parse, data, path.name).synonyms()
            break
        except _Changing:
            if seen is not None:
                return seen.synonyms  # looked at again at the next search, once it has settled
            time.sleep(0.1)
        except SourceError as exc:
            if seen is None:
                raise
            log.warning("%s; searches go on with the last good copy of %s", exc, path)
            seen.checked, seen.stamp = now, stamp  # said once for this version of the file
            return seen.synonyms
    else:
        raise SourceError(path.name, 0, f"{path.name} is being written and did not settle; try again")
    _SEEN.remember(name, _Seen(now, stamp, synonyms))
    return synonyms
