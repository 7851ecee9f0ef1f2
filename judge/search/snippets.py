"""Search snippets: a passage of a paragraph around the words a query matched,
those words marked."""
from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Iterable

from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer
from whoosh.support.charset import accent_map

import judge.search.twins as twins
from judge.search.expansion import porter_stem
from judge.search.index import TOKEN_PATTERN

SNIPPET_CHARS = 240

_WORD_TOKENS = RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)


@lru_cache(maxsize=8192)  # more than the corpus has paragraphs: each is indexed once
def _word_spans(text: str) -> tuple[dict[str, list], dict[str, list], tuple[tuple[int, int, str], ...], bool]:
    """Where each stem and each word of `text` is, folded as the index folds them:
    ({stem: [(start, end)]}, {word: [(start, end)]}, ((start, end, word), ...),
    whether the text has a character HTML must escape)."""
    by_stem: dict[str, list] = {}
    by_word: dict[str, list] = {}
    words = []
    for token in _WORD_TOKENS(text, chars=True):
        span = (token.startchar, token.endchar)
        by_stem.setdefault(porter_stem(token.text), []).append(span)
        by_word.setdefault(token.text, []).append(span)
        words.append((*span, token.text))
    return by_stem, by_word, tuple(words), any(c in text for c in "&<>")


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def prepare_snippets(texts: Iterable[str]) -> None:
    """Index the words of `texts` for `snippet` now rather than at their first search."""
    for text in texts:
        _word_spans(text)


def snippet(text: str, stems: set, plain: set = frozenset(), prefixes: tuple[str, ...] = (),
            size: int = SNIPPET_CHARS) -> str:
    """A passage of `text` of about `size` characters around the most matched
    words, HTML-escaped, each matched word wrapped in <mark>: a word whose stem
    is in `stems`, that is in `plain`, or that starts with one of `prefixes`."""
    by_stem, by_word, words, needs_escape = _word_spans(text)
    return _passage(text, by_stem, by_word, words, needs_escape, stems, plain, prefixes, size)


def _passage_reference(text: str, by_stem: dict[str, list], by_word: dict[str, list],
                       words: tuple[tuple[int, int, str], ...], needs_escape: bool, stems: Iterable[str],
                       plain: Iterable[str], prefixes: tuple[str, ...], size: int) -> str:
    """`snippet` on the spans `_word_spans` found in `text`. judge.search._speedups.snippet_passage
    is this function compiled (a seventh of a results page in Python); this one is its
    reference, and stands in when the compiled module was not built."""
    escape = _escape if needs_escape else str
    found = {span for stem in stems for span in by_stem.get(stem, ())}
    found.update(span for word in plain for span in by_word.get(word, ()))
    if prefixes:
        found.update((s, e) for s, e, word in words if word.startswith(prefixes))
    marked = sorted(found)
    start, end = 0, len(text)
    if len(text) > size:
        best_start, best_count = 0, -1
        # Word spans never overlap, so ends sort as starts do: a window's marks are counted by bisection.
        starts, ends = [ms for ms, _ in marked], [me for _, me in marked]
        for s in starts or [0]:
            window_start = max(0, s - size // 5)
            count = max(0, bisect_right(ends, window_start + size) - bisect_left(starts, window_start))
            if count > best_count:
                best_start, best_count = window_start, count
        start = best_start
        if start > 0:  # begin on a word
            space = text.find(" ", start)
            start = space + 1 if 0 <= space < start + 20 else start
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start + size // 2 else end
    out, pos = [], start
    for s, e in marked:
        if s < start or e > end:
            continue
        out.append(escape(text[pos:s]))
        out.append(f"<mark>{escape(text[s:e])}</mark>")
        pos = e
    out.append(escape(text[pos:end]))
    return ("… " if start > 0 else "") + "".join(out) + (" …" if end < len(text) else "")


_passage = twins.choose("snippet_passage", _passage_reference)


