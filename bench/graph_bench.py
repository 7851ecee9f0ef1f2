"""Time to build the concordance and the rule graph, and to answer related-rules
queries, each beside a baseline measured in the same run.

    python bench/graph_bench.py [--runs N] [--queries N]

Targets: graph build under 1 s (from the loaded corpus and the cached
concordance), a related-rules query under 20 ms (p50).

Baselines: loading the corpus from its cache (what every command pays already)
for the builds; the foundation's `corpus.refs_in(id)` (a scan of every reference,
what `judge show` does for "cited by") for the queries.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import tempfile
import time

from timing import percentile, timed  # also puts the checkout on sys.path




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", type=int, default=60, help="related-rules queries (random paragraphs)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JUDGE_INDEX_DIR"] = tmp  # a private cache: cold means cold
        from judge import concordance as conc
        from judge import graph as rule_graph
        from judge.corpus import load_corpus

        load_corpus()  # prime the corpus cache
        corpus_load = timed(load_corpus, args.runs)
        corpus = load_corpus()

        concordance_build = timed(lambda: conc.build_concordance(corpus), args.runs)
        conc.get_concordance(corpus)  # writes the cache

        def concordance_from_disk():
            conc._LOADED.clear()
            return conc.get_concordance(corpus)

        concordance_load = timed(concordance_from_disk, args.runs)
        concordance = conc.get_concordance(corpus)

        def graph_cold():  # what a fresh process pays once the corpus is loaded
            conc._LOADED.clear()
            g = rule_graph.build_graph(corpus, conc.get_concordance(corpus))
            return g.walk  # the weighted view and its PageRank matrix: what the first query needs

        def graph_warm():  # concordance already in memory
            return rule_graph.build_graph(corpus, concordance).walk

        graph_cold_t = timed(graph_cold, args.runs)
        graph_warm_t = timed(graph_warm, args.runs)

        graph = rule_graph.build_graph(corpus, concordance)
        graph.walk
        rng = random.Random(4)
        sample = rng.sample(sorted(corpus.paragraphs), min(args.queries, len(corpus.paragraphs)))
        related_t, refs_in_t, frozen_t = [], [], []
        for pid in sample:
            start = time.perf_counter()
            rule_graph.related(graph, pid, 10)
            related_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            corpus.refs_in(pid)
            refs_in_t.append(time.perf_counter() - start)
        # A long-running server can move the loaded corpus and graph out of the
        # collector's reach; full collections then stop scanning them (the p95 above
        # is mostly such collections).
        gc.collect()
        gc.freeze()
        for pid in sample:
            start = time.perf_counter()
            rule_graph.related(graph, pid, 10)
            frozen_t.append(time.perf_counter() - start)
        gc.unfreeze()

    base = statistics.median(corpus_load)
    print(f"corpus: {len(corpus.documents)} documents, {len(corpus.paragraphs)} paragraphs; graph: "
          f"{graph.g.number_of_nodes()} nodes, {graph.g.number_of_edges()} edges; {args.runs} runs")
    print(f"{'build':<52} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× baseline':>11}")
    for name, times in [("load the corpus from cache (baseline)", corpus_load),
                        ("concordance: align all editions (cold)", concordance_build),
                        ("concordance: load from the index cache", concordance_load),
                        ("graph: cold (cached concordance from disk + build)", graph_cold_t),
                        ("graph: warm (concordance in memory)", graph_warm_t)]:
        med = statistics.median(times)
        print(f"{name:<52} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
              f"{med / base:>11.1f}")
    print()
    qbase = statistics.median(refs_in_t)
    print(f"{'query (' + str(len(sample)) + ' random paragraphs)':<52} {'p50 ms':>10} {'p95 ms':>8} {'max ms':>8} "
          f"{'× baseline':>11}")
    for name, times in [("corpus.refs_in(id): scan references (baseline)", refs_in_t),
                        ("graph related(id, k=10) with explanations", related_t),
                        ("  the same after gc.freeze() (server setting)", frozen_t)]:
        p50 = statistics.median(times)
        print(f"{name:<52} {p50 * 1000:>10.2f} {percentile(times, 0.95) * 1000:>8.2f} {max(times) * 1000:>8.2f} "
              f"{p50 / qbase:>11.1f}")
    build = statistics.median(graph_cold_t)
    query = statistics.median(related_t)
    print(f"\ngraph build (cold) {build * 1000:.0f} ms: {'meets' if build < 1.0 else 'MISSES'} the 1 s target; "
          f"related p50 {query * 1000:.1f} ms: {'meets' if query < 0.020 else 'MISSES'} the 20 ms target")


if __name__ == "__main__":
    main()
