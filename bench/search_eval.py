"""Measure a search on the gold set (tests/search_gold.yaml): recall@k, MRR and
how often the top hit comes from the book in force.

Shared by tests/test_search_quality.py and bench/search_quality.py, so that the
test and the benchmark score exactly the same way. A ranking is the list of the
paragraph IDs shown, one per hit: a question counts only when the hit's own
paragraph is an answer (an older edition folded under it does not count), as a
judge reads and quotes the paragraph shown.

The gold set is split in parts (`parts`): the tuned questions, the held-out ones
(a third, marked `holdout`, which no tuning looks at) and the table-talk ones
(`talk`, phrased as players talk). Held-out figures are computed only when asked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

import yaml

GOLD_FILE = Path(__file__).resolve().parent.parent / "tests" / "search_gold.yaml"
# Issue 36's held-out part: written from the books before the questions of judge/data/questions, never tuned on.
FRESH_GOLD_FILE = GOLD_FILE.with_name("search_gold_fresh.yaml")
_SPACES = re.compile(r"\s+")
GAMES = ("vtes", "rivals")


@dataclass(frozen=True)
class GoldQuestion:
    query: str
    type: str
    game: str  # vtes | rivals
    talk: bool  # phrased as players talk
    holdout: bool  # never looked at while tuning
    answers: frozenset[str]  # paragraph IDs, any of which answers the question
    in_force: str  # the document of the book in force for the question's game


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


def books_in_force(corpus) -> dict[str, str]:
    """Each game's book in force: its newest document."""
    newest: dict[str, object] = {}
    for doc in corpus.documents.values():
        best = newest.get(doc.meta.game)
        if best is None or doc.meta.edition_order > best.meta.edition_order:
            newest[doc.meta.game] = doc
    return {game: doc.id for game, doc in newest.items()}


def load_gold(corpus, path: Path = GOLD_FILE, holdout: bool = False) -> list[GoldQuestion]:
    """Read the gold set and resolve its answers; an answer that names no
    paragraph of the corpus, or a question without its fields, is an error (the
    set would silently rot). `holdout`: every question of the file is held out."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    in_force = books_in_force(corpus)
    questions, problems = [], []
    for n, item in enumerate(data["questions"], 1):
        missing = [k for k in ("q", "game", "talk", "type", "answers") if k not in item]
        if missing or item["game"] not in GAMES:
            problems.append(f"question {n}: missing {missing} or unknown game {item.get('game')!r}")
            continue
        answers: set[str] = set()
        for spec in item["answers"]:
            found = resolve_answer(corpus, spec)
            if not found:
                problems.append(f"{item['q']!r}: answer {spec!r} names no paragraph")
            answers |= found
        questions.append(GoldQuestion(str(item["q"]), item["type"], item["game"], bool(item["talk"]),
                                      holdout or bool(item.get("holdout", False)), frozenset(answers),
                                      in_force[item["game"]]))
    if problems:
        raise ValueError("gold set problems:\n  " + "\n  ".join(problems))
    return questions


def parts(questions: list[GoldQuestion], holdout: bool = False) -> dict[str, list[GoldQuestion]]:
    """The parts reported: tuned, table talk among the tuned; with `holdout`, the
    held-out part and its table talk too."""
    tuned = [q for q in questions if not q.holdout]
    out = {"tuned": tuned, "tuned talk": [q for q in tuned if q.talk]}
    if holdout:
        held = [q for q in questions if q.holdout]
        out["held-out"] = held
        out["held-out talk"] = [q for q in held if q.talk]
    return out


_WORD = re.compile(r"[a-z0-9]+")


def near_written(question: GoldQuestion, written: dict[str, list[str]], stop_words: frozenset[str]) -> float:
    """How nearly a question the expansions were written with says the gold question: the best Jaccard
    of their content words among the questions written for the gold question's answers. (The files were
    checked to hold none within 0.5 of a gold question; a high figure says the expansion itself answers.)"""
    def words(text: str) -> set[str]:
        return {w for w in _WORD.findall(text.lower()) if w not in stop_words}

    asked = words(question.query)
    best = 0.0
    for pid in question.answers:
        for q in written.get(pid, ()):
            mine = words(q)
            if asked and mine:
                best = max(best, len(asked & mine) / len(asked | mine))
    return best


@dataclass
class Scores:
    recall_at_1: float
    recall_at_5: float
    mrr_at_10: float
    in_force_at_1: float  # the top hit is from the book in force of the question's game (or is an answer)
    misses: list[tuple[GoldQuestion, int, list[str]]]  # not answered in the top 5: rank (0: none), top 3 shown


def first_rank(shown: Iterable[str], answers: frozenset[str], depth: int = 10) -> int:
    """1-based rank of the first hit that is an answer, 0 if none within `depth`."""
    for rank, pid in enumerate(shown, 1):
        if rank > depth:
            break
        if pid in answers:
            return rank
    return 0


def evaluate(questions: list[GoldQuestion], rank: Callable[[str], list[str]]) -> Scores:
    rows = []
    for q in questions:
        shown = rank(q.query)
        top: Optional[str] = shown[0] if shown else None
        in_force = top is not None and (top in q.answers or top.split(":", 1)[0] == q.in_force)
        rows.append((q, first_rank(shown, q.answers), in_force, shown[:3]))
    n = len(rows) or 1
    return Scores(
        recall_at_1=sum(1 for _, r, _, _ in rows if r == 1) / n,
        recall_at_5=sum(1 for _, r, _, _ in rows if 1 <= r <= 5) / n,
        mrr_at_10=sum(1 / r for _, r, _, _ in rows if r) / n,
        in_force_at_1=sum(1 for _, _, f, _ in rows if f) / n,
        misses=[(q, r, top) for q, r, _, top in rows if not 1 <= r <= 5],
    )


def search_ranking(searcher, query: str, limit: int = 10) -> list[str]:
    """`judge.search` as a ranking, as `judge search --json` gives it: the hits' own IDs."""
    return [h.id for h in searcher.search(query, limit=limit).hits]


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
