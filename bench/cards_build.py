"""Time to build the card base (krcg's card lists and rulings: parse, resolve,
match the rule templates) from scratch and to load it from its cache, beside the
baselines of reading its data files and of building the corpus from scratch.

    python bench/cards_build.py [--runs N]

Target: a build from scratch well under 1 s, so that the corpus, the cards and
the index built from scratch stay under 3 s (issue 22).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile

from timing import timed  # noqa: E402  (also puts the checkout on sys.path)

from judge import paths  # noqa: E402
from judge.cards import build_cards, load_cards, source  # noqa: E402
from judge.corpus import build_corpus, load_corpus  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rules = paths.rules_dir()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JUDGE_INDEX_DIR"] = tmp
        corpus = load_corpus(rules)
        read = timed(source.read_files, args.runs)
        corpus_build = timed(lambda: build_corpus(rules), args.runs)
        build = timed(lambda: build_cards(corpus), args.runs)
        load_cards(corpus)  # prime the cache
        cached = timed(lambda: load_cards(corpus), args.runs)
    base = build_cards(corpus)
    counts = base.counts()
    print(f"cards: {counts['crypt']} crypt, {counts['library']} library; {counts['rulings']} rulings, "
          f"{counts['references']} references ({counts['rbk_resolved']}/{counts['rbk_references']} rulebook ones "
          f"resolved), {counts['groups']} groups; {args.runs} runs")
    rows = [("read krcg's 7 data files (baseline)", read), ("build the corpus from scratch (baseline)", corpus_build),
            ("load the card base from cache", cached), ("build the card base from scratch", build)]
    ref = statistics.median(corpus_build)
    print(f"{'what':<42} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× corpus build':>15}")
    for name, times in rows:
        med = statistics.median(times)
        print(f"{name:<42} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
              f"{med / ref:>15.2f}")
    verdict = "meets" if statistics.median(build) < 1.0 else "MISSES"
    print(f"card base from scratch {verdict} the 1 s target")


if __name__ == "__main__":
    main()
