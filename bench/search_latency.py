"""Search latency per query: judge.search (a warm searcher) beside SQLite FTS5
and ripgrep over the same paragraphs, in one run.

    python bench/search_latency.py [--rounds N]

The queries are the gold set's (tests/search_gold.yaml), as judges type them.
Each query runs N rounds per engine; a query's time is its median over the
rounds, and p50/p95 are taken over the queries. FTS5 is an in-memory table,
words OR-ed, bm25 order; ripgrep searches a file holding one paragraph per
line for any of the words (case-insensitive), one process per query as a
shell user would run it. Target: judge.search p95 <= 10 ms.

A second table times the matching and scoring stage alone, for the same
questions: the posting table the search answers from (judge.search.postings)
beside Whoosh's own matchers answering the same query objects (the reference
the table is tested against, and what the search ran before it).
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.corpus import load_corpus  # noqa: E402
from judge.search import Search  # noqa: E402
from bench.search_eval import Fts5Baseline, load_gold  # noqa: E402
from judge.search.expansion import build_query  # noqa: E402
from judge.search.postings import whoosh_matches  # noqa: E402

TARGET_P95_MS = 10.0


def timings(run, queries: list[str], rounds: int) -> list[float]:
    """Per query, the median of `rounds` runs, in milliseconds."""
    for q in queries:  # warm up: caches, lazily built state, the OS page cache
        run(q)
    per_query = {q: [] for q in queries}
    for _ in range(rounds):
        for q in queries:
            start = time.perf_counter()
            run(q)
            per_query[q].append((time.perf_counter() - start) * 1000)
    return [statistics.median(v) for v in per_query.values()]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ripgrep(path: Path):
    rg = shutil.which("rg")
    if rg is None:
        return None

    def run(query: str) -> list[str]:
        words = re.findall(r"\w+", query)
        if not words:
            return []
        args = [rg, "--no-config", "-i", "-F", "--max-count", "1000"]
        for w in words:
            args += ["-e", w]
        out = subprocess.run(args + [str(path)], capture_output=True, text=True)
        return [line.split("\t", 1)[0] for line in out.stdout.splitlines()[:10]]
    return run


def matching_stage(searcher: Search, queries: list[str], rounds: int) -> dict[str, list[float]]:
    """Per query, ms to match and score its compiled query: the posting table, and Whoosh."""
    built = searcher.built
    compiled = {}
    for q in queries:
        expansion = searcher.expansion_of(q)
        if not expansion.empty and searcher.search(q).direct is None:
            compiled[q] = build_query(expansion)[0]
    names = list(compiled)
    with built.whoosh_searcher(searcher.corpus) as whoosh:
        return {"posting table": timings(lambda q: built.postings.evaluate(compiled[q]), names, rounds),
                "Whoosh matchers": timings(lambda q: whoosh_matches(whoosh, compiled[q]), names, rounds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    corpus = load_corpus()
    queries = [q.query for q in load_gold(corpus)]  # every question: timing looks at no answer
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        searcher = Search(corpus, root=Path(tmp))  # builds a private index
        build_s = time.perf_counter() - start
        start = time.perf_counter()
        Search(corpus, root=Path(tmp)).search(queries[0])
        open_ms = (time.perf_counter() - start) * 1000
        lines = Path(tmp) / "paragraphs.txt"
        lines.write_text("".join(f"{p.id}\t{' '.join(p.text.split())}\n" for p in corpus.paragraphs.values()),
                         encoding="utf-8")
        engines = {"judge.search": lambda q: searcher.search(q, limit=10),
                   "FTS5 bm25": Fts5Baseline(corpus).search}
        rg = ripgrep(lines)
        if rg is not None:
            engines["ripgrep"] = rg
        results = {name: timings(run, queries, args.rounds) for name, run in engines.items()}
        stage = matching_stage(searcher, queries, args.rounds)
    print(f"{len(queries)} queries (the gold set) x {args.rounds} rounds over {len(corpus.paragraphs)} paragraphs; "
          f"per-query median, then percentiles over the queries")
    print(f"index build {build_s:.1f} s; opening a searcher and its first query {open_ms:.0f} ms")
    ours = results["judge.search"]
    print(f"{'engine':<14}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'p50 / ours':>12}{'p95 / ours':>12}")
    for name, values in results.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        print(f"{name:<14}{p50:>9.2f}{p95:>9.2f}{max(values):>9.2f}"
              f"{p50 / percentile(ours, 50):>12.2f}{p95 / percentile(ours, 95):>12.2f}")
    if rg is None:
        print("ripgrep not installed (apt-get install ripgrep): its column is left out")
    print(f"matching and scoring alone ({len(stage['posting table'])} of the queries: the others are "
          f"section numbers or only common words)")
    table = stage["posting table"]
    for name, values in stage.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        print(f"  {name:<16}{p50:>9.3f}{p95:>9.3f}{max(values):>9.3f}"
              f"{p50 / percentile(table, 50):>12.2f}{p95 / percentile(table, 95):>12.2f}")
    p95 = percentile(ours, 95)
    print(f"judge.search p95 {p95:.2f} ms: target <= {TARGET_P95_MS:.0f} ms "
          f"{'met' if p95 <= TARGET_P95_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
