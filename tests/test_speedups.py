"""judge.search._speedups, the compiled twins of hot pure functions, against their
Python references: equal on the whole corpus, and in use where judge is installed
(unless JUDGE_PURE_PYTHON=1 says to run the references)."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest

import judge.search.twins as twins
from judge.search import get_searcher
from judge.search.expansion import porter_stem
from judge.search.snippets import _runs_reference, _word_spans
from judge.search.postings import POSITION_BITS, _phrase_documents_reference


try:
    from judge.search import _speedups as speedups
except ImportError:
    # pip install (and .ci/run's editable install) compiles judge/search/_speedups.c: without
    # it judge serves a search page a seventh slower. Only a run that asks for the Python
    # references (JUDGE_PURE_PYTHON=1, as on a machine without a C compiler) goes on without.
    if not twins.pure_python():
        raise
    speedups = None
compiled = pytest.mark.skipif(speedups is None, reason="JUDGE_PURE_PYTHON=1 and judge.search._speedups not built: "
                                                       "no compiled twin to compare")


def test_the_search_runs_the_compiled_twins_unless_told_to_run_the_references():
    import judge.search.postings  # noqa: F401  (each module chooses its twin as it loads)
    import judge.search.snippets  # noqa: F401
    expected = "python" if twins.pure_python() else "compiled"
    assert twins.running() == {"snippet_runs": expected, "phrase_documents": expected}


def _queries(text: str, rng: random.Random) -> list[tuple[set, set, tuple]]:
    """Stems, plain words and prefixes to mark in `text`: some of its own, some not, some none."""
    by_stem, by_word, words = _word_spans(text)
    stems, plain = sorted(by_stem), sorted(by_word)
    out = [(set(), set(), ()), ({"zzzz"}, {"qqqq"}, ("xq",))]
    for _ in range(3):
        picked = set(rng.sample(stems, min(len(stems), rng.randint(1, 4))))
        out.append((picked | {porter_stem("bleed")}, set(rng.sample(plain, min(len(plain), rng.randint(0, 2)))),
                    tuple({w[:rng.randint(1, 4)] for w in rng.sample(plain, min(len(plain), rng.randint(0, 2)))})))
    return out


@compiled
@pytest.mark.parametrize("size", [240, 60, 1, 0])
def test_snippet_runs_equals_its_reference_on_every_paragraph(corpus, size):
    rng = random.Random(size)
    texts = [p.text for p in corpus.paragraphs.values()]
    texts += ["", " ", "a < b & c > d", "&&&", "<mark>x</mark>", "é <è> ∆ 🂡 & " * 40, "word " * 100]
    checked = 0
    for text in texts:
        spans = _word_spans(text)
        for stems, plain, prefixes in _queries(text, rng):
            args = (text, *spans, stems, plain, prefixes, size)
            assert speedups.snippet_runs(*args) == _runs_reference(*args), (text[:80], stems, plain, prefixes)
            checked += 1
    assert checked > 10_000


@compiled
def test_snippet_runs_are_the_text_as_it_is_cut_into_marked_and_unmarked_runs():
    text = "tap <this> & that, then tap " + "word " * 60
    args = (text, *_word_spans(text), {"tap"}, set(), ())
    assert speedups.snippet_runs(*args, 240) == (("tap", True), (" <this> & that, then ", False), ("tap", True),
                                                  (" " + " ".join(["word"] * 42) + " …", False))
    assert speedups.snippet_runs(*args, 0) == ((" …", False),)  # a passage of no characters
    assert speedups.snippet_runs("", {}, {}, (), set(), set(), (), 240) == ()


@compiled
@pytest.mark.parametrize("args, error", [
    (("text",), TypeError),
    ((b"text", {}, {}, (), set(), set(), (), 240), TypeError),
    (("text", {"t": [(0,)]}, {}, (), {"t"}, set(), (), 240), TypeError),
    (("text", {"t": [(3, 1)]}, {}, (), {"t"}, set(), (), 240), ValueError),
    (("text", {"t": [(-1, 2)]}, {}, (), {"t"}, set(), (), 240), ValueError),
    (("text", {"t": 5}, {}, (), {"t"}, set(), (), 240), TypeError),
    (("text", {}, {}, ((0, 4, b"text"),), set(), set(), ("t",), 240), TypeError),
    (("text", {}, {}, ((0, 4, "text"),), set(), set(), (1,), 240), TypeError),
    (("text", {}, {}, (), set(), set(), (), -1), ValueError),
    (("text", {}, {}, (), 5, set(), (), 240), TypeError),
])
def test_snippet_runs_refuses_malformed_spans_with_a_python_error(args, error):
    with pytest.raises(error):
        speedups.snippet_runs(*args)


def _phrases(corpus, table, rng: random.Random) -> list[tuple[list, int]]:
    """Position keys of phrases: runs of words of the corpus's paragraphs (found), the
    same with a word skipped or repeated (found within a slop, or not), random words."""
    texts = [p.text for p in corpus.paragraphs.values()]
    stems = sorted({stem for text in texts for stem in _word_spans(text)[0]})
    out = []
    for _ in range(3000):
        words = [porter_stem(t) for t in re.findall(r"[a-z]+", rng.choice(texts).lower())]
        if len(words) < 4:
            continue
        at, size = rng.randrange(len(words) - 3), rng.randint(2, 4)
        run = words[at:at + size]
        for phrase in (run, run[::2] + run[1::2], [run[0], *run], rng.sample(stems, size)):
            keys = [table.positions("body", w) for w in phrase]
            if all(k is not None and len(k) for k in keys):
                out.append((keys, rng.randint(0, 4)))
    return out


@compiled
def test_phrase_documents_equals_its_reference(corpus):
    table = get_searcher(corpus).built.postings
    phrases = _phrases(corpus, table, random.Random(4))
    found = 0
    for keys, slop in phrases:
        expected = _phrase_documents_reference(keys, slop, POSITION_BITS)
        assert speedups.phrase_documents(keys, slop, POSITION_BITS) == expected, (slop, [len(k) for k in keys])
        found += bool(expected)
    assert len(phrases) > 4000 and 500 < found < len(phrases) - 1000  # both found and not found, many times


@compiled
@pytest.mark.parametrize("args, error", [
    (([],), TypeError),
    (([], 1, 20), ValueError),
    (([np.array([1, 2], np.int32)], 1, 20), TypeError),
    (([np.array([[1, 2]], np.int64)], 1, 20), TypeError),
    (([np.array([1.0])], 1, 20), TypeError),
    (([np.array([1], np.int64)], 1, 0), ValueError),
    ((5, 1, 20), TypeError),
])
def test_phrase_documents_refuses_what_is_not_position_keys(args, error):
    with pytest.raises(error):
        speedups.phrase_documents(*args)
