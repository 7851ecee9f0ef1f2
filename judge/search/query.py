"""Read what a user typed into the search box.

A query is plain words, with optionally:

* ``"quoted phrases"`` that must occur as written (stemmed: "blocks the action"
  also finds "blocked the action");
* filters ``doc:rb``, ``game:rivals``, ``kind:rule`` (several values with commas:
  ``doc:vekn,s6``);
* a prefix ``bleed*``;
* section or outline numbers (``6.4.6``, ``IV.D.2``), which the searcher sends
  straight to that section.

Nothing typed here reaches a query parser: the words are picked out with one
regular expression and the query is built from them, so quotes, brackets,
``AND OR NOT``, wildcards or markup cannot make a search fail. What had to be
ignored or cut is reported back in `ParsedQuery.notes`.

What the words then stand for (their stems, synonyms, near spellings) is
judge.search.expansion's work.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field


FILTER_KEYS = ("doc", "game", "kind")
MAX_QUERY_CHARS = 1000
MAX_WORDS = 24
MIN_PREFIX = 3
MAX_WORD_LENGTH = 40  # longer than any word of the books: pasted junk

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
# "can't" would be read as "can" and "t", both dropped (the index drops "can" and "not"
# as stop words): the negation is kept as the books write it, "cannot".
_CANNOT = re.compile(r"\bcan(?:['\u2019]?t|\s+not)\b", re.IGNORECASE)
# Question frames say what is asked (may I, must I), not what about: each is read as the
# plain question it stands for, so that its words ("allowed", "legal", "have") are not
# searched for, and the searcher sees the question's intent ("can ...", "must ...").
_FRAMES = (
    # "is it legal to", "is it ok for me to", "is it possible to", "is there a way to"
    (re.compile(r"\b(?:is|are)\s+(?:it|that|this|there\s+(?:a|any)\s+way)\s+(?:(?:legal|allowed|ok|okay|"
                r"possible|permitted|legit|fine)\s+)?(?:for\s+(?:me|us|you)\s+)?to\b", re.IGNORECASE), "can"),
    # "am I allowed to", "is my vampire allowed to", "are allies able to"
    (re.compile(r"\b(?:am|are|is)\s+((?:\w+\s+){1,5}?)(?:allowed|permitted|able)\s+to\b", re.IGNORECASE),
     r"can \1"),
    # "do I have to", "does my vampire need to", "am I forced to"
    (re.compile(r"\b(?:do|does)\s+((?:\w+\s+){1,5}?)(?:have|need|has|needs)\s+to\b", re.IGNORECASE),
     r"must \1"),
    (re.compile(r"\b(?:am|are|is)\s+((?:\w+\s+){1,5}?)(?:forced|required|obliged)\s+to\b", re.IGNORECASE),
     r"must \1"),
    # "a vampire with no blood has to hunt"
    (re.compile(r"\b(?:has|have|needs|need)\s+to\b", re.IGNORECASE), "must"),
)


def plain_question(text: str) -> str:
    """`text` with its question frames read as the plain question ("is it legal to bleed"
    -> "can bleed", "do I have to hunt" -> "must I hunt") and "can't" as "cannot"."""
    text = _CANNOT.sub("cannot", text)
    for pattern, plain in _FRAMES:
        text = pattern.sub(plain, text)
    return text


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

    text = plain_question(_FILTER.sub(take_filter, text))
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
