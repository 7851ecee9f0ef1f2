"""Time to build the corpus from scratch, beside the baselines of merely reading
the source files and of loading the built corpus from its cache.

    python bench/corpus_build.py [--runs N] [--cards]

Target: a build from scratch under 2 s on the project's 2-core machine.

With --cards: the corpus and its search index built from scratch (the baseline;
the concordance of the editions the index reads comes from its cache),
beside the same plus the card base (krcg's cards and rulings, issue 22; target:
under 3 s), and what the web warm-up adds for the cards: the site graph's card
and ruling edges and the stale-rulings check.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile

from timing import timed  # noqa: E402  (also puts the checkout on sys.path)

from judge import paths  # noqa: E402
from judge.corpus import build_corpus, corpus_digest, load_corpus  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cards", action="store_true", help="corpus + index with and without the cards")
    args = parser.parse_args()
    if args.cards:
        with_cards(args.runs)
        return
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


def with_cards(runs: int) -> None:
    """Corpus + search index from scratch, with and without the card base, alternated run by run
    (the machine's load moves); then the warm-up's extra for the cards."""
    import os
    from judge.cards import build_cards
    from judge.cards.graph import with_cards as graph_with_cards
    from judge.cards.stale import StaleCheck
    from judge.graph import get_graph
    from judge.search.searcher import Search
    rules = paths.rules_dir()
    without, full = [], []
    # The search index is built in fresh folders; the editions' concordance it reads stays in
    # its cache (the index folder's): built from scratch it takes minutes, and it is no part
    # of what the cards change.
    with tempfile.TemporaryDirectory() as tmp:

        def corpus_and_index(n: int, cards: bool):
            corpus = build_corpus(rules)
            corpus.digest = corpus_digest(rules)  # as load_corpus sets it: the concordance's cache is found
            root = os.path.join(tmp, f"{n}-{cards}")
            os.mkdir(root)
            Search(corpus, root=root)  # builds the index where there is none
            if cards:
                build_cards(corpus)
            return corpus
        for n in range(runs):
            without += timed(lambda: corpus_and_index(n, False), 1)
            full += timed(lambda: corpus_and_index(n, True), 1)
        corpus = load_corpus(rules)
        base = build_cards(corpus)
        graph = get_graph(corpus)
        graph_extra = timed(lambda: graph_with_cards(graph, base), runs)
        stale_extra = timed(lambda: StaleCheck(base, corpus).all(), runs)
    base_med = statistics.median(without)
    print(f"{runs} runs each, alternated; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{'what':<44} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× baseline':>11}")
    for name, times in (("corpus + index from scratch (baseline)", without),
                        ("corpus + index + cards from scratch", full),
                        ("warm-up: cards into the site graph", graph_extra),
                        ("warm-up: stale rulings check", stale_extra)):
        med = statistics.median(times)
        print(f"{name:<44} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
              f"{med / base_med:>11.2f}")
    verdict = "meets" if statistics.median(full) < 3.0 else "MISSES"
    print(f"corpus + index + cards from scratch {verdict} the 3 s target")


if __name__ == "__main__":
    main()
