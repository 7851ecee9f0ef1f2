"""Search quality on the gold set, beside SQLite FTS5 bm25 over the same paragraphs.

    python bench/search_quality.py [--misses] [--holdout]

Prints recall@1, recall@5, MRR@10 and "top hit from the book in force" of
`judge.search` (each query asked as `judge search --json` asks it) and of FTS5
(plain words, and with its Porter stemmer), for each part of the gold set
(tests/search_gold.yaml): the tuned questions and their table-talk ones; with
`--holdout`, the held-out third and its table talk too. A question counts only
when the hit's own paragraph is an answer (editions folded under it do not).

Held-out figures are for the closing report only: never run `--holdout` while
tuning. Targets on the held-out part: R@5 >= 0.95, MRR >= 0.85, top hit from
the book in force >= 0.90; on table talk R@5 >= 0.85.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.corpus import load_corpus  # noqa: E402
from judge.search import Search  # noqa: E402
from bench.search_eval import Fts5Baseline, evaluate, load_gold, parts, search_ranking  # noqa: E402

TARGETS = {"held-out": {"recall_at_5": 0.95, "mrr_at_10": 0.85, "in_force_at_1": 0.90},
           "held-out talk": {"recall_at_5": 0.85}, "tuned talk": {"recall_at_5": 0.85}}
MEASURES = (("R@1", "recall_at_1"), ("R@5", "recall_at_5"), ("MRR@10", "mrr_at_10"),
            ("in force@1", "in_force_at_1"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the questions judge.search misses")
    parser.add_argument("--holdout", action="store_true",
                        help="also score the held-out questions (for the closing report only, never while tuning)")
    args = parser.parse_args()
    corpus = load_corpus()
    gold = load_gold(corpus)
    groups = parts(gold, holdout=args.holdout)
    with tempfile.TemporaryDirectory() as tmp:
        searcher = Search(corpus, root=Path(tmp))  # a private index: the bench never touches index/
        engines = {
            "judge.search": lambda q: search_ranking(searcher, q),
            "FTS5 plain": Fts5Baseline(corpus, "unicode61").search,
            "FTS5 porter": Fts5Baseline(corpus, "porter unicode61").search,
        }
        results = {part: {name: evaluate(questions, rank) for name, rank in engines.items()}
                   for part, questions in groups.items()}
    print(f"gold set: {len(gold)} questions ({sum(q.holdout for q in gold)} held out, "
          f"{sum(q.talk for q in gold)} table talk, {sum(q.game == 'rivals' for q in gold)} Rivals); "
          f"corpus: {len(corpus.paragraphs)} paragraphs")
    names = list(engines)
    for part, by_engine in results.items():
        print(f"\n{part} ({len(groups[part])} questions)")
        print(f"  {'':<12}" + "".join(f"{n:>14}" for n in names))
        for label, attr in MEASURES:
            target = TARGETS.get(part, {}).get(attr)
            mark = ""
            if target is not None:
                met = getattr(by_engine["judge.search"], attr) >= target
                mark = f"   target >= {target:.2f}: {'met' if met else 'NOT met'}"
            print(f"  {label:<12}" + "".join(f"{getattr(by_engine[n], attr):>14.3f}" for n in names) + mark)
    if args.misses:
        for part, by_engine in results.items():
            print(f"\njudge.search misses in {part} (rank 0 = not in the top 10; the top 3 shown):")
            for q, rank, top in by_engine["judge.search"].misses:
                print(f"  {rank:>2}  [{q.type}] {q.query}\n        {', '.join(top)}")


if __name__ == "__main__":
    main()
