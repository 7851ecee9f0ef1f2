"""Each compiled twin (judge.search._speedups) beside its Python reference, on the
calls a search really makes, in one run: what the C module saves.

    python bench/twins.py [--queries 400] [--rounds 5]

The calls are recorded from searches of `--queries` seeded two-word queries of
the books' words (as bench/request_cost.py asks them): every snippet a hit was
cut with, every phrase the proximity bonus walked. Each twin then answers the
same recorded calls `--rounds` times, alternating with its reference; the table
gives the median per call, the ratio, and what the twin saves per search (calls
per search × the difference), beside the searcher's own median time per search
measured in the same run. The two must give the same answers (tests/test_speedups.py);
the bench checks it on every recorded call too.

The C module stays only where it pays: docs/performance.md keeps the figures.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def record(corpus, searcher, queries: list[str]) -> dict[str, list[tuple]]:
    """The arguments of every call of each twin during the searches of `queries`."""
    import judge.search.postings as postings
    import judge.search.snippets as snippets

    calls: dict[str, list[tuple]] = {"snippet_runs": [], "phrase_documents": []}
    runs, phrase = snippets._runs, postings._phrase_documents

    def runs_recorded(*args):
        calls["snippet_runs"].append(args)
        return runs(*args)

    def phrase_recorded(*args):
        calls["phrase_documents"].append(args)
        return phrase(*args)

    snippets._runs, postings._phrase_documents = runs_recorded, phrase_recorded
    try:
        for q in queries:
            searcher.search(q)
    finally:
        snippets._runs, postings._phrase_documents = runs, phrase
    return calls


def per_call(function, calls: list[tuple]) -> float:
    started = time.perf_counter()
    for args in calls:
        function(*args)
    return (time.perf_counter() - started) / max(1, len(calls)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import judge.search.postings as postings
    import judge.search.snippets as snippets
    from judge.corpus import load_corpus
    from judge.search import get_searcher
    from judge.web.warmup import warm_searcher

    try:
        from judge.search import _speedups as compiled
    except ImportError:
        sys.exit("judge.search._speedups is not built (pip install -e . compiles it): nothing to compare")
    corpus = load_corpus()
    searcher = get_searcher(corpus)
    warm_searcher(searcher)
    rng = random.Random(11)
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{5,}", p.text)})
    queries = list(dict.fromkeys(f"{rng.choice(words)} {rng.choice(words)}" for _ in range(3 * args.queries)))
    queries = queries[:args.queries]
    for q in queries:  # the memos filled, as in a server that has run a while
        searcher.search(q)
    search_times = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        for q in queries:
            searcher.search(q)
        search_times.append((time.perf_counter() - started) / len(queries) * 1e6)
    per_search = statistics.median(search_times)
    calls = record(corpus, searcher, queries)
    pairs = {"snippet_runs": (compiled.snippet_runs, snippets._runs_reference),
             "phrase_documents": (compiled.phrase_documents, postings._phrase_documents_reference)}
    print(f"{len(queries)} searches, {args.rounds} rounds; a search takes {per_search:.0f} µs (median), "
          f"with the twins the process runs ({', '.join(f'{k}: {v}' for k, v in _running().items())})")
    print(f"{'twin':18s} {'calls/search':>12s} {'C µs/call':>10s} {'Python µs/call':>15s} {'× faster':>9s} "
          f"{'saves µs/search':>16s} {'share of a search':>18s}")
    for name, (twin, reference) in pairs.items():
        recorded = calls[name]
        for call in recorded:
            assert twin(*call) == reference(*call), (name, call[:1])
        c_times, py_times = [], []
        for _ in range(args.rounds):
            c_times.append(per_call(twin, recorded))
            py_times.append(per_call(reference, recorded))
        c, py = statistics.median(c_times), statistics.median(py_times)
        per = len(recorded) / len(queries)
        saved = per * (py - c)
        print(f"{name:18s} {per:12.2f} {c:10.2f} {py:15.2f} {py / c:9.1f} {saved:16.1f} {saved / per_search:17.1%}")


def _running() -> dict[str, str]:
    import judge.search.twins as twins
    return twins.running()


if __name__ == "__main__":
    main()
