"""Time to build the corpus from scratch, beside the baselines of merely reading
the source files and of loading the built corpus from its cache.

    python bench/corpus_build.py [--runs N]

Target: a build from scratch under 2 s on the project's 2-core machine.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile

from timing import timed  # noqa: E402  (also puts the checkout on sys.path)

from judge import paths  # noqa: E402
from judge.corpus import build_corpus, load_corpus  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rules = paths.rules_dir()
    sources = [p for p in rules.iterdir() if p.suffix == ".txt"]

    def read_only():
        for p in sources:
            p.read_text(encoding="utf-8")

    with tempfile.TemporaryDirectory() as tmp:
        import os
        os.environ["JUDGE_INDEX_DIR"] = tmp
        build = timed(lambda: build_corpus(rules), args.runs)
        load_corpus(rules)  # prime the cache
        cached = timed(lambda: load_corpus(rules), args.runs)
    baseline = timed(read_only, args.runs)
    corpus = build_corpus(rules)
    paras = sum(len(d.paragraphs) for d in corpus.documents.values())
    refs = sum(1 for _ in corpus.references())
    rows = [("read the 5 source files (baseline)", baseline), ("load the corpus from cache", cached),
            ("build the corpus from scratch", build)]
    base = statistics.median(baseline)
    print(f"corpus: {len(corpus.documents)} documents, {paras} paragraphs, {refs} references; {args.runs} runs")
    print(f"{'what':<38} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× baseline':>11}")
    for name, times in rows:
        med = statistics.median(times)
        print(f"{name:<38} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} {med / base:>11.0f}")
    verdict = "meets" if statistics.median(build) < 2.0 else "MISSES"
    print(f"build from scratch {verdict} the 2 s target")


if __name__ == "__main__":
    main()
