"""The card answer's cost in a search: a warm searcher's time per query beside the same
search plus the card answer (judge.cards.query, not kept: each query matched afresh), in one run.

    python bench/cards_search.py [--rounds N]

The queries are the gold set's (tests/search_gold.yaml) and a few card names (exact,
misspelt, "<card> rulings"). A query's time is its median over the rounds; p50/p95 over
the queries. Target: search + card answer p95 <= 10 ms.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.search_eval import load_gold  # noqa: E402

CARD_QUERIES = ["Govern the Unaligned", "govrn the unalined", "rotschreck", "Govern the Unaligned rulings",
                "theo bell adv", "deflection ruling", "carlton van wyk", "the rack"]


def p95(values):
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    from judge.cards import get_cards
    from judge.cards.query import _answer, card_answer
    from judge.corpus import get_corpus
    from judge.search import get_searcher
    corpus = get_corpus()
    searcher, base = get_searcher(corpus), get_cards(corpus)
    queries = [q.query for q in load_gold(corpus)] + CARD_QUERIES
    card_answer(base, "warm up")
    for q in queries:  # warm: every query once
        searcher.search(q, limit=10)
        _answer(base, q)
    plain, with_cards, answer_only = [], [], []
    for q in queries:
        a, b, c = [], [], []
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            searcher.search(q, limit=10)
            t1 = time.perf_counter()
            _answer(base, q)
            t2 = time.perf_counter()
            a.append(t1 - t0)
            b.append(t2 - t0)
            c.append(t2 - t1)
        plain.append(statistics.median(a) * 1000)
        with_cards.append(statistics.median(b) * 1000)
        answer_only.append(statistics.median(c) * 1000)
    print(f"{len(queries)} queries x {args.rounds} rounds (medians per query, ms)")
    print(f"{'':<28} {'p50':>7} {'p95':>7}")
    for name, values in (("search (baseline)", plain), ("search + card answer", with_cards),
                         ("card answer alone", answer_only)):
        print(f"{name:<28} {statistics.median(values):>7.2f} {p95(values):>7.2f}")
    print(f"ratio p95: {p95(with_cards) / p95(plain):.2f}x")


if __name__ == "__main__":
    main()
