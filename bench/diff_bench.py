"""Time to compare the two largest books (the older book and the current VEKN book),
beside the baseline of Python's difflib over the two source texts line by line.

    python bench/diff_bench.py [--runs N]

Rows:
  difflib (baseline)   difflib.SequenceMatcher over the two files' lines, with the
                       opcodes computed: a plain line diff, no alignment, no meaning
  judge diff           `compare(corpus, "rb", "vekn")` as `judge diff rb vekn` runs it:
                       the concordance comes from its cache in the index directory;
                       the word caches are emptied before each run
  ... aligning too     the same, with the two books aligned from scratch (what the
                       first run after a rulebook changes pays)
  ... + render         the comparison and its terminal text and JSON

Target (issue 5): comparing the two largest books takes under 3 s.
"""
from __future__ import annotations

import argparse
import difflib
import json
import statistics

from timing import timed  # noqa: E402  (also puts the checkout on sys.path)

from judge import paths  # noqa: E402
from judge.compare import comparison as compare_module  # noqa: E402
from judge.compare import text as compare_text  # noqa: E402
from judge.compare.comparison import compare  # noqa: E402
from judge.compare.render import render_text  # noqa: E402
from judge.compare.alignment import align  # noqa: E402
from judge.compare.concordance import get_concordance  # noqa: E402
from judge.corpus import load_corpus  # noqa: E402

OLD, NEW = "rb", "vekn"
TARGET_S = 3.0


def cold_caches() -> None:
    compare_module._VOCABULARY.clear()
    compare_text._key.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    corpus = load_corpus()
    get_concordance(corpus)  # build or read the cached concordance once, as any judge command would
    sources = [(paths.rules_dir() / corpus.documents[d].meta.source).read_text(encoding="utf-8").splitlines()
               for d in (OLD, NEW)]

    def baseline():
        difflib.SequenceMatcher(None, *sources, autojunk=False).get_opcodes()

    def judge_diff():
        cold_caches()
        compare(corpus, OLD, NEW)

    def judge_diff_aligning():
        cold_caches()
        alignment = align(corpus, OLD, NEW)
        compare_module._compare(corpus, corpus.documents[OLD], corpus.documents[NEW], alignment.pairs,
                                alignment.section_pairs, alignment)

    def judge_diff_rendered():
        cold_caches()
        comparison = compare(corpus, OLD, NEW)
        render_text(comparison)
        json.dumps(comparison.to_json())

    rows = [("difflib over the lines (baseline)", timed(baseline, args.runs)),
            ("judge diff rb vekn", timed(judge_diff, args.runs)),
            ("judge diff rb vekn, aligning too", timed(judge_diff_aligning, args.runs)),
            ("judge diff rb vekn + text and JSON", timed(judge_diff_rendered, args.runs))]
    comparison = compare(corpus, OLD, NEW)
    lines = sum(len(s) for s in sources)
    paras = len(corpus.documents[OLD].paragraphs) + len(corpus.documents[NEW].paragraphs)
    print(f"{OLD} vs {NEW}: {lines} source lines, {paras} paragraphs, {len(comparison.pairs)} pairs "
          f"({comparison.summary()['meaning']} meaning); {args.runs} runs; target < {TARGET_S:.0f} s")
    base = statistics.median(rows[0][1])
    print(f"{'what':<38} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× baseline':>11}")
    for name, times in rows:
        med = statistics.median(times)
        print(f"{name:<38} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
              f"{med / base:>11.1f}")
    worst = max(statistics.median(t) for _, t in rows[1:])
    print(f"slowest judge row: {worst:.2f} s ({'within' if worst < TARGET_S else 'OVER'} the {TARGET_S:.0f} s target)")


if __name__ == "__main__":
    main()
