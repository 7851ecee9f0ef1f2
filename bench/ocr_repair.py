"""The scans repaired (judge/ingest/ocr_repair.py): figures before and after, in one run.

    python bench/ocr_repair.py [--rounds N]

For the corpus assembled without the repair (the scans as they are) and with it:

* per book, its words and those found in no dictionary and in no other book's vocabulary
  (`judge.ingest.ocr_repair.scan_figures`), and the repairs made, by how;
* the diffs of the older book: RB -> S6 (the same edition's text but for its terminology: each meaning or
  wording change there is one the scan made up, or one of its few real edits) and RB -> VEKN, their counts
  of meaning, wording and scan-only pairs;
* the "may predate a rules change" flags on rulings (judge/cards/stale.py), and those whose quoted change
  holds a damaged word;
* the time the repair adds to a corpus's assembly (median of N rounds).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _documents():
    from judge.corpus import load_manifest
    from judge.ingest.sources import parse_document
    from judge import paths
    rules = paths.rules_dir()
    metas, _ = load_manifest(rules)
    return {m.id: parse_document(m, rules) for m in metas}


def _diff_counts(corpus) -> dict[str, dict[str, int]]:
    from judge.compare.comparison import compare
    out = {}
    for old, new in (("rb", "s6"), ("rb", "vekn")):
        s = compare(corpus, old, new).summary()
        out[f"{old}->{new}"] = {k: s[k] for k in ("meaning", "wording", "scan", "unchanged")}
    return out


def _stale(corpus) -> tuple[int, int]:
    """Rulings flagged as predating a rules change, and those of them quoting a damaged word."""
    from judge.cards.load import get_cards
    from judge.cards.stale import StaleCheck
    from judge.ingest.ocr_repair import damaged_words, lexicon_of
    try:
        found = StaleCheck(get_cards(corpus), corpus).all()
    except Exception as exc:  # noqa: BLE001 - no card data here: the other figures still stand
        print(f"(stale flags not counted: {exc})")
        return -1, -1
    lexicon = lexicon_of(corpus.documents.values(), "vtes")
    damaged = sum(1 for stale in found.values() if damaged_words(str(stale), lexicon))
    return len(found), damaged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from judge.corpus import assemble_corpus
    from judge.ingest.ocr_repair import repair_documents, scan_figures

    docs = _documents()
    before, after = assemble_corpus(dict(docs), repair_scans=False), assemble_corpus(dict(docs))
    fig_before, fig_after = scan_figures(before.documents), scan_figures(after.documents)
    print("Words in no dictionary and in no other book's vocabulary, per book")
    print(f"{'book':8} {'words':>7} {'before':>7} {'after':>7} {'ratio':>6} {'repairs':>8}")
    for doc in after.documents:
        b, a = fig_before[doc], fig_after[doc]
        ratio = a["unknown"] / b["unknown"] if b["unknown"] else 1.0
        print(f"{doc:8} {a['words']:7,} {b['unknown']:7,} {a['unknown']:7,} {ratio:6.2f} {a['repairs']:8,}")
    hows: dict[str, int] = {}
    for para in after.documents["rb"].paragraphs:
        for r in para.repairs:
            hows[r.how] = hows.get(r.how, 0) + 1
    print("repairs by how:", ", ".join(f"{k} {v}" for k, v in sorted(hows.items())))

    print("\nThe older book's diffs: pairs by kind of change")
    d_before, d_after = _diff_counts(before), _diff_counts(after)
    for pair in d_before:
        print(f"  {pair:9} before: {d_before[pair]}")
        print(f"  {'':9} after:  {d_after[pair]}")

    s_before, s_after = _stale(before), _stale(after)
    print(f"\nStale-ruling flags: {s_before[0]} before ({s_before[1]} quoting a damaged word), "
          f"{s_after[0]} after ({s_after[1]} quoting a damaged word)")

    times = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        repair_documents(dict(docs))
        times.append(time.perf_counter() - start)
    print(f"\nThe repair's time (median of {args.rounds}): {statistics.median(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
