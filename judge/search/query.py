"""Read what a user typed into the search box.

A query is plain words, with optionally:

* ``"quoted phrases"`` that must occur as written (stemmed: "blocks the action"
  also finds "blocked the action");
* filters ``doc:rb``, ``game:rivals``, ``kind:rule`` (several values with commas:
  ``doc:vekn,s6``);
* a prefix ``bleed*``;
* section or outline numbers (``6.4.6``, ``IV.D.2``), which `judge.search` sends
  straight to that section.

Nothing typed here reaches a query parser: the words are picked out with one
regular expression and the query is built from them, so quotes, brackets,
``AND OR NOT``, wildcards or markup cannot make a search fail. What had to be
ignored or cut is reported back in `ParsedQuery.notes`.

The synonym groups and question words live in judge/data/synonyms.yaml
(see the comments there); `load_synonyms` reads and checks that file, and
`current_synonyms` keeps the last good copy in use when it changes into one
that does not read or check.
"""
from __future__ import annotations

import logging
import os
import re
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from judge import paths
from judge.datafile import key_line, parse_yaml
from judge.errors import SourceError

log = logging.getLogger(__name__)
FILTER_KEYS = ("doc", "game", "kind")
MAX_QUERY_CHARS = 1000
MAX_WORDS = 24
MIN_PREFIX = 3
MAX_WORD_LENGTH = 40  # longer than any word of the books: pasted junk
DEFAULT_WEIGHT = 0.8

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"'})
_FILTER = re.compile(r"(?<!\S)(doc|game|kind):(\S*)", re.IGNORECASE)
_PHRASE = re.compile(r'"([^"]*)"')
# A word (letters/digits, dots inside for "6.4.6"), optionally ending in * (a prefix).
_WORD = re.compile(r"\w+(?:\.\w+)*\*?")
_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)+|[IVX]+(?:\.[A-Za-z0-9]+)+)$", re.IGNORECASE)
_OPERATORS = {"AND", "OR", "NOT"}
_LONE_WILDCARD = re.compile(r"(?:^|\s)[*?]+(?=\s|$|\w)")
_LEADING_SECTION = re.compile(r"^\s*(?:sec(?:tion)?\.?|§)\s*", re.IGNORECASE)


@dataclass
class ParsedQuery:
    raw: str
    text: str = ""  # the query without its filters: what a number/ID lookup sees
    words: list[str] = field(default_factory=list)  # free words, as typed, in order
    phrases: list[str] = field(default_factory=list)  # quoted phrases
    prefixes: list[str] = field(default_factory=list)  # "bleed*" -> "bleed"
    numbers: list[str] = field(default_factory=list)  # "6.4.6", "IV.D.2"
    filters: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what was ignored or cut, for the user

    @property
    def lookup_text(self) -> str:
        """The text to try as an ID, label or number ("sec. 6.4.6" -> "6.4.6")."""
        return _LEADING_SECTION.sub("", self.text).strip()

    @property
    def empty(self) -> bool:
        return not (self.words or self.phrases or self.prefixes)


def parse_query(raw: str) -> ParsedQuery:
    text = unicodedata.normalize("NFKC", raw or "").translate(_QUOTES)
    text = _CONTROL.sub(" ", text)
    query = ParsedQuery(raw=raw or "")
    if len(text) > MAX_QUERY_CHARS:
        cut = text.rfind(" ", 0, MAX_QUERY_CHARS)
        text = text[: cut if cut > 0 else MAX_QUERY_CHARS]
        query.notes.append(f"query shortened to its first {len(text)} characters")

    def take_filter(m: re.Match) -> str:
        key, value = m.group(1).lower(), m.group(2).strip('"')
        values = [v for v in value.split(",") if v]
        if values:
            query.filters.setdefault(key, []).extend(v.lower() for v in values)
        else:
            query.notes.append(f"empty filter {key}: ignored")
        return " "

    text = _FILTER.sub(take_filter, text)
    query.text = " ".join(text.split())

    def take_phrase(m: re.Match) -> str:
        words = _WORD.findall(m.group(1).replace("*", " "))
        if words:
            query.phrases.append(" ".join(words))
        return " "

    rest = _PHRASE.sub(take_phrase, text)
    if '"' in rest:
        query.notes.append("unbalanced quote ignored")
    for token in _WORD.findall(rest):
        if token in _OPERATORS:
            if "AND/OR/NOT" not in " ".join(query.notes):
                query.notes.append("AND/OR/NOT are not operators here: every word is searched, "
                                   "best matches first")
            continue
        if token.endswith("*"):
            stem = token[:-1]
            if len(stem) >= MIN_PREFIX:
                query.prefixes.append(stem.lower())
                continue
            token = stem
            query.notes.append(f"wildcard ignored after {stem!r} (a prefix needs {MIN_PREFIX} letters)")
        if len(token) > MAX_WORD_LENGTH:
            query.notes.append(f"a {len(token)}-letter word was ignored")
            continue
        if _NUMBER.match(token):
            query.numbers.append(token)
        query.words.append(token)
    if _LONE_WILDCARD.search(rest):
        query.notes.append("wildcards ignored where no word starts them: type the start of a word, e.g. bleed*")
    if len(query.words) > MAX_WORDS:
        query.notes.append(f"only the first {MAX_WORDS} of {len(query.words)} words are searched")
        query.words = query.words[:MAX_WORDS]
    return query


# -- synonyms -------------------------------------------------------------------

@dataclass(frozen=True)
class SynonymGroup:
    terms: tuple[str, ...]
    game: Optional[str] = None
    weight: float = DEFAULT_WEIGHT


@dataclass(frozen=True)
class Synonyms:
    groups: tuple[SynonymGroup, ...]
    question_words: frozenset[str]


def synonyms_file() -> Path:
    return paths.data_dir() / "synonyms.yaml"


def load_synonyms(path: Optional[Path] = None) -> Synonyms:
    """Read and check the synonyms file; a malformed one raises SourceError with its line."""
    path = Path(path or synonyms_file())
    data, _ = _read_settled(path)
    return _synonyms_of(data, path.name)


def _synonyms_of(data: bytes, name: str) -> Synonyms:
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
    return Synonyms(tuple(groups), frozenset(w.lower() for w in words))


class _Changing(Exception):
    """The file changed while it was read: what was read may be half of it."""


def _stamp(st: os.stat_result) -> tuple:
    return st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev


def _read_settled(path: Path) -> tuple[bytes, tuple]:
    """The bytes of `path` and the stamp of what was read, read in one go; a
    SourceError when it cannot be read, _Changing when it was written to meanwhile."""
    try:
        with path.open("rb") as fh:
            before = _stamp(os.fstat(fh.fileno()))
            data = fh.read()
            if _stamp(os.fstat(fh.fileno())) != before:
                raise _Changing(path)
    except FileNotFoundError:
        raise SourceError(path.name, 0, f"the search synonyms: no such file in {path.parent}") from None
    except OSError as exc:
        raise SourceError(path.name, 0, f"cannot read the search synonyms: {exc.strerror or exc}") from None
    return data, before


# How soon an edit of the synonyms file is seen: its date is looked at (one stat) at most
# this often, not at every search.
SYNONYMS_CHECK_SECONDS = 0.25
SETTLE_TRIES = 5  # reads of a file being written, a tenth of a second apart, while there is no good copy


@dataclass
class _Kept:
    checked: float  # time.monotonic() of the last look at the file
    stamp: Optional[tuple]  # the file's stamp then (None: unreadable)
    synonyms: Synonyms  # the last copy that read and checked


_CACHE: dict[str, _Kept] = {}  # path -> what was last seen of it


def current_synonyms(path: Optional[Path] = None) -> Synonyms:
    """The synonyms file, re-read when it changes on disk (seen within SYNONYMS_CHECK_SECONDS).

    A file changed into one that cannot be read or does not check (deleted, half
    written, malformed) leaves the last good copy in use: the fault is logged once,
    naming the file, the line and the reason, and the file is read again when it
    changes again. With no good copy yet (a process starting), the SourceError is
    raised: judge cannot search without its synonyms."""
    path = Path(path or synonyms_file())
    name = str(path)
    now = time.monotonic()
    kept = _CACHE.get(name)
    if kept is not None and now - kept.checked < SYNONYMS_CHECK_SECONDS:
        return kept.synonyms
    try:
        stamp = _stamp(os.stat(name))
    except OSError:
        stamp = None
    if kept is not None and kept.stamp == stamp:
        kept.checked = now
        return kept.synonyms
    for attempt in range(1 if kept is not None else SETTLE_TRIES):
        try:
            data, stamp = _read_settled(path)
            synonyms = _synonyms_of(data, path.name)
            break
        except _Changing:
            if kept is not None:
                return kept.synonyms  # looked at again at the next search, once it has settled
            time.sleep(0.1)
        except SourceError as exc:
            if kept is None:
                raise
            log.warning("%s; searches go on with the last good copy of %s", exc, path)
            kept.checked, kept.stamp = now, stamp  # said once for this version of the file
            return kept.synonyms
    else:
        raise SourceError(path.name, 0, "the search synonyms are being written and did not settle; try again")
    _CACHE[name] = _Kept(now, stamp, synonyms)
    return synonyms
