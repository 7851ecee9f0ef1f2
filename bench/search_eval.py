"""Measure a search on the gold set (tests/search_gold.yaml): recall@k and MRR.

Shared by tests/test_search_quality.py and bench/search_quality.py, so that the
test and the benchmark score exactly the same way. A ranking is a list of
groups, one per result shown: the paragraph IDs the user sees at that rank (a
hit of `judge.search` shows the same rule's other editions beside it; a
baseline's hit is a single paragraph).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import yaml

GOLD_FILE = Path(__file__).resolve().parent.parent / "tests" / "search_gold.yaml"
_SPACES = re.compile(r"\s+")


@dataclass
class GoldQuestion:
    query: str
    type: str
    answers: frozenset[str]  # paragraph IDs, any of which answers the question


def _flat(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower()


def resolve_answer(corpus, spec) -> set[str]:
    """The paragraph IDs an answer spec names (see the header of the gold file)."""
    if isinstance(spec, str):
        return {spec} if spec in corpus.paragraphs else set()
    section, doc, contains = spec.get("section"), spec.get("doc"), spec.get("contains")
    if section:
        if section not in corpus.sections:
            return set()
        candidates = corpus.paragraphs_of(section, deep=True)
    elif doc:
        candidates = corpus.documents[doc].paragraphs if doc in corpus.documents else []
    else:
        return set()
    if contains:
        needle = _flat(contains)
        return {p.id for p in candidates if needle in _flat(p.text)}
    if section:  # a section alone: its own paragraphs (or, for a heading, its first ones)
        own = corpus.paragraphs_of(section, deep=False)
        return {p.id for p in (own or candidates)}
    return set()


def load_gold(corpus, path: Path = GOLD_FILE) -> list[GoldQuestion]:
    """Read the gold set and resolve its answers; an answer that names no
    paragraph of the corpus is an error (the set would silently rot)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    questions, problems = [], []
    for item in data["questions"]:
        answers: set[str] = set()
        for spec in item["answers"]:
            found = resolve_answer(corpus, spec)
            if not found:
                problems.append(f"{item['q']!r}: answer {spec!r} names no paragraph")
            answers |= found
        questions.append(GoldQuestion(str(item["q"]), item["type"], frozenset(answers)))
    if problems:
        raise ValueError("gold set answers that resolve to nothing:\n  " + "\n  ".join(problems))
    return questions


@dataclass
class Scores:
    recall_at_1: float
    recall_at_5: float
    mrr_at_10: float
    misses: list[tuple[GoldQuestion, int]]  # questions not answered in the top 5, with their rank (0: none)


def first_rank(groups: Iterable[Iterable[str]], answers: frozenset[str], depth: int = 10) -> int:
    """1-based rank of the first group holding an answer, 0 if none within `depth`."""
    for rank, group in enumerate(groups, 1):
        if rank > depth:
            break
        if answers & set(group):
            return rank
    return 0


def evaluate(questions: list[GoldQuestion], rank: Callable[[str], list[list[str]]]) -> Scores:
    ranks = [(q, first_rank(rank(q.query), q.answers)) for q in questions]
    n = len(ranks) or 1
    return Scores(
        recall_at_1=sum(1 for _, r in ranks if r == 1) / n,
        recall_at_5=sum(1 for _, r in ranks if 1 <= r <= 5) / n,
        mrr_at_10=sum(1 / r for _, r in ranks if r) / n,
        misses=[(q, r) for q, r in ranks if not 1 <= r <= 5],
    )


def search_groups(searcher, query: str, limit: int = 10) -> list[list[str]]:
    """`judge.search` as a ranking: each hit with the editions shown beside it."""
    result = searcher.search(query, limit=limit)
    return [[h.id, *(e.id for e in h.counterparts)] for h in result.hits]


class Fts5Baseline:
    """The plain baseline: SQLite FTS5 over the same paragraphs, bm25 order, the
    query's words OR-ed; no synonyms, no typo tolerance, no editions folded.
    `tokenizer` is FTS5's: "unicode61" (plain words) or "porter unicode61" (stems)."""

    def __init__(self, corpus, tokenizer: str = "unicode61"):
        import sqlite3

        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(f"CREATE VIRTUAL TABLE p USING fts5(id UNINDEXED, text, tokenize='{tokenizer}')")
        self.db.executemany("INSERT INTO p(id, text) VALUES (?, ?)",
                            [(p.id, p.text) for p in corpus.paragraphs.values()])
        self.db.commit()

    def search(self, query: str, limit: int = 10) -> list[str]:
        words = re.findall(r"\w+", query)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT id FROM p WHERE p MATCH ? ORDER BY bm25(p) LIMIT ?", (match, limit))
        return [r[0] for r in rows]

    def groups(self, query: str, limit: int = 10) -> list[list[str]]:
        return [[pid] for pid in self.search(query, limit)]
