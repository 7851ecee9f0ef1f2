"""Search quality on the gold set, beside a plain SQLite FTS5 bm25 baseline.

    python bench/search_quality.py [--misses]

Prints recall@1, recall@5 and MRR@10 of `judge.search` and of FTS5 over the
same paragraphs (plain words, and with FTS5's Porter stemmer), overall and by
question type. The gold set is tests/search_gold.yaml; a `judge.search` hit
counts the editions it shows beside it, a baseline hit is one paragraph.
Target: judge.search's MRR beats the plain baseline's by at least 0.10.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.corpus import load_corpus  # noqa: E402
from judge.search import Search  # noqa: E402
from bench.search_eval import Fts5Baseline, evaluate, load_gold, search_groups  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the questions each engine misses")
    args = parser.parse_args()
    corpus = load_corpus()
    gold = load_gold(corpus)
    with tempfile.TemporaryDirectory() as tmp:
        searcher = Search(corpus, root=Path(tmp))  # a private index: the bench never touches index/
        engines = {
            "judge.search": lambda q: search_groups(searcher, q),
            "FTS5 plain": Fts5Baseline(corpus, "unicode61").groups,
            "FTS5 porter": Fts5Baseline(corpus, "porter unicode61").groups,
        }
        types = sorted(Counter(q.type for q in gold).items(), key=lambda kv: -kv[1])
        results = {name: evaluate(gold, rank) for name, rank in engines.items()}
        by_type = {name: {t: evaluate([q for q in gold if q.type == t], rank) for t, _ in types}
                   for name, rank in engines.items()}
    print(f"gold set: {len(gold)} questions ({', '.join(f'{t} {n}' for t, n in types)}); "
          f"corpus: {len(corpus.paragraphs)} paragraphs")
    names = list(engines)
    print(f"{'':16}" + "".join(f"{n:>15}" for n in names))
    for label, attr in (("recall@1", "recall_at_1"), ("recall@5", "recall_at_5"), ("MRR@10", "mrr_at_10")):
        print(f"{label:16}" + "".join(f"{getattr(results[n], attr):>15.3f}" for n in names))
    print("recall@5 by question type:")
    for t, n in types:
        print(f"  {t + f' ({n})':14}" + "".join(f"{by_type[name][t].recall_at_5:>15.3f}" for name in names))
    gain = results["judge.search"].mrr_at_10 - results["FTS5 plain"].mrr_at_10
    print(f"MRR gain over the plain FTS5 baseline: {gain:+.3f} (target >= +0.10: "
          f"{'met' if gain >= 0.10 else 'NOT met'}); over FTS5 porter: "
          f"{results['judge.search'].mrr_at_10 - results['FTS5 porter'].mrr_at_10:+.3f}")
    if args.misses:
        for name in names:
            print(f"\n{name} misses (not in the top 5; rank 0 = not in the top 10):")
            for q, rank in results[name].misses:
                print(f"  {rank:>2}  [{q.type}] {q.query}")


if __name__ == "__main__":
    main()
