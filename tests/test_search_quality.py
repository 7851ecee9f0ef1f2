"""The search answers the gold set (tests/search_gold.yaml): questions judges and
players ask, written from the rulebooks, each with the paragraphs that answer it."""
from __future__ import annotations

from collections import Counter

import pytest

from judge.search import Search
from bench.search_eval import evaluate, load_gold, search_groups

REQUIRED_TYPES = {"plain", "old-term", "typo", "number", "ocr", "rivals", "outline", "glossary"}


@pytest.fixture(scope="module")
def gold(corpus):
    return load_gold(corpus)  # fails if an answer names no paragraph of the corpus


def test_the_gold_set_covers_what_judges_ask(gold):
    assert len(gold) >= 60
    counts = Counter(q.type for q in gold)
    assert set(counts) == REQUIRED_TYPES, counts
    assert all(n >= 5 for n in counts.values()), counts
    assert len({q.query for q in gold}) == len(gold)  # no question twice


def test_recall_at_5_on_the_gold_set(corpus, gold, tmp_path_factory):
    searcher = Search(corpus, root=tmp_path_factory.mktemp("search-quality"))
    scores = evaluate(gold, lambda q: search_groups(searcher, q))
    missed = "\n".join(f"  rank {rank or '>10'}: [{q.type}] {q.query}" for q, rank in scores.misses)
    assert scores.recall_at_5 >= 0.9, f"recall@5 {scores.recall_at_5:.3f}; missed:\n{missed}"
