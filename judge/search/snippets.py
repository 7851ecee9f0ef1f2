"""Search snippets: a passage of a paragraph around the words a query matched,
as data (runs of text, each marked as matched or not) that each front end
renders its own way: the web's template in <mark>, the command line in bold,
the JSON API as both."""
from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from typing import Iterable

from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer
from whoosh.support.charset import accent_map

import judge.search.twins as twins
from judge.memo import memoised
from judge.search.expansion import porter_stem
from judge.search.index import TOKEN_PATTERN

SNIPPET_CHARS = 240
WORD_SPANS_KEPT = 8192  # paragraphs whose words' places are kept: more than the corpus has

# A snippet: its runs of text in order, each (text, whether a query matched it). No run
# is empty; "… " and " …" begin and end a passage cut from a longer paragraph.
Snippet = tuple[tuple[str, bool], ...]

_WORD_TOKENS = RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)


@memoised("search.word_spans", WORD_SPANS_KEPT)
def _word_spans(text: str) -> tuple[dict[str, list], dict[str, list], tuple[tuple[int, int, str], ...]]:
    """Where each stem and each word of `text` is, folded as the index folds them:
    ({stem: [(start, end)]}, {word: [(start, end)]}, ((start, end, word), ...))."""
    by_stem: dict[str, list] = {}
    by_word: dict[str, list] = {}
    words = []
    for token in _WORD_TOKENS(text, chars=True):
        span = (token.startchar, token.endchar)
        by_stem.setdefault(porter_stem(token.text), []).append(span)
        by_word.setdefault(token.text, []).append(span)
        words.append((*span, token.text))
    return by_stem, by_word, tuple(words)


def prepare_snippets(texts: Iterable[str]) -> None:
    """Index the words of `texts` for `snippet` now rather than at their first search."""
    for text in texts:
        _word_spans(text)


def snippet(text: str, stems: set, plain: set = frozenset(), prefixes: tuple[str, ...] = (),
            size: int = SNIPPET_CHARS) -> Snippet:
    """A passage of `text` of about `size` characters around the most matched
    words, each matched word a marked run: a word whose stem is in `stems`, that
    is in `plain`, or that starts with one of `prefixes`."""
    by_stem, by_word, words = _word_spans(text)
    return _runs(text, by_stem, by_word, words, stems, plain, prefixes, size)


def snippet_html(runs: Snippet) -> str:
    """A snippet as the HTML the JSON API has always given (its `snippet`): the text
    escaped (&, <, >), the marked runs in <mark>. (Not compiled: bench/twins.py found a
    C twin saving well under a microsecond a hit.)"""
    out = []
    for text, marked in runs:
        if "&" in text or "<" in text or ">" in text:  # (rare: the escaping costs more than the looking)
            text = html.escape(text, quote=False)
        out.append(f"<mark>{text}</mark>" if marked else text)
    return "".join(out)


def snippet_text(runs: Snippet) -> str:
    """A snippet's text, marks dropped."""
    return "".join([text for text, _ in runs])


def _runs_reference(text: str, by_stem: dict[str, list], by_word: dict[str, list],
                    words: tuple[tuple[int, int, str], ...], stems: Iterable[str], plain: Iterable[str],
                    prefixes: tuple[str, ...], size: int) -> Snippet:
    """`snippet` on the spans `_word_spans` found in `text`. judge.search._speedups.snippet_runs
    is this function compiled; this one is its reference, and runs where the compiled
    module was not built (judge.search.twins)."""
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
    runs: list[tuple[str, bool]] = []
    lead, pos = ("… " if start > 0 else ""), start
    for s, e in marked:
        if s < start or e > end:
            continue
        if lead or pos < s:
            runs.append((lead + text[pos:s], False))
            lead = ""
        runs.append((text[s:e], True))
        pos = e
    tail = text[pos:end] + (" …" if end < len(text) else "")
    if lead or tail:
        runs.append((lead + tail, False))
    return tuple(runs)


_runs = twins.choose("snippet_runs", _runs_reference)
