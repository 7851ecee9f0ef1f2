"""Time to build the corpus from scratch, beside the baselines of merely reading
the source files and of loading the built corpus from its cache.

    python bench/corpus_build.py [--runs N] [--cards [--code DIR]]

Target: a build from scratch under 2 s on the project's 2-core machine.

With --cards: the corpus and its search index built from scratch (the baseline;
the concordance of the editions the index reads comes from its cache),
beside the same plus the card base (krcg's cards and rulings, issue 22; target:
under 3 s), and what the web warm-up adds for the cards: the site graph's card
and ruling edges and the stale-rulings check.

With --cards --code DIR: the same two builds (without and with the card base)
timed for this checkout and for the checkout at DIR (another branch, main), each
run a fresh process per checkout, the checkouts alternated run by run; each
process builds once untimed first (imports, the concordance read) and reads the
concordance from a copy of its checkout's cache.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import timed  # noqa: E402  (also puts the checkout on sys.path)

from judge import paths  # noqa: E402
from judge.corpus import build_corpus, corpus_digest, load_corpus  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cards", action="store_true", help="corpus + index with and without the cards")
    parser.add_argument("--code", type=Path, help="with --cards: another checkout, measured beside this one")
    args = parser.parse_args()
    if args.cards and args.code:
        beside(args.code.resolve(), args.runs)
        return
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


def question_tables(corpus, base) -> None:
    """What a question about cards is read with, made from scratch (issue 35): the forms of the cards' names
    and the rulings' index (judge.cards.saved_tables: read from the index directory after the first build)."""
    from judge.cards.mentions import NameForms, book_words
    from judge.cards.nicknames import load_nicknames
    from judge.cards.ruling_search import RulingIndex
    forms = NameForms(base, load_nicknames(base), book_words(corpus))
    RulingIndex(base, corpus, forms)  # the forms made once, as a build makes them (judge.cards.saved_tables)


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
                question_tables(corpus, build_cards(corpus))
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
                        ("corpus + index + cards and rulings", full),
                        ("warm-up: cards into the site graph", graph_extra),
                        ("warm-up: stale rulings check", stale_extra)):
        med = statistics.median(times)
        print(f"{name:<44} {med * 1000:>10.1f} {min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
              f"{med / base_med:>11.2f}")
    verdict = "meets" if statistics.median(full) < 3.0 else "MISSES"
    print(f"corpus + index + cards and rulings from scratch {verdict} the 3 s target (the cards: the card base, "
          f"the forms of their names and the rulings' index)")


# Run in a fresh process with a checkout first on sys.path: one untimed build of
# each kind, then one timed; prints {"without": s, "with": s}. It uses only what
# every checkout since issue 22 has.
_ONE_RUN = """
import json, os, sys, tempfile, time
from judge import paths
from judge.corpus import build_corpus, corpus_digest, load_corpus
from judge.cards import build_cards
from judge.search.searcher import Search
rules = paths.rules_dir()
load_corpus(rules)
def build(root, cards):
    corpus = build_corpus(rules)
    corpus.digest = corpus_digest(rules)
    os.mkdir(root)
    Search(corpus, root=root)
    if cards:
        base = build_cards(corpus)
        try:  # issue 35's tables, in a checkout that has them
            from judge.cards.mentions import NameForms, book_words
            from judge.cards.nicknames import load_nicknames
            from judge.cards.ruling_search import RulingIndex
        except ImportError:
            pass
        else:
            words = book_words(corpus)
            if "common" in NameForms.__init__.__code__.co_varnames:  # a checkout whose forms take the test of
                from judge.cards.mentions import common_words        # everyday words, not the words
                words = common_words(words)
            forms = NameForms(base, load_nicknames(base), words)
            # the rulings' index asks for the forms: the ones just made, as a build makes them once
            import judge.cards.mentions
            judge.cards.mentions.name_forms = lambda base, corpus: forms
            RulingIndex(base, corpus)
with tempfile.TemporaryDirectory() as tmp:
    build(os.path.join(tmp, "warm"), True)
    out = {}
    for name, cards in (("without", False), ("with", True)):
        start, cpu = time.perf_counter(), time.process_time()
        build(os.path.join(tmp, name), cards)
        out[name] = time.perf_counter() - start
        out[name + " cpu"] = time.process_time() - cpu
print(json.dumps(out))
"""


def _one_run(checkout: Path, index: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout), JUDGE_INDEX_DIR=str(index))
    env.pop("JUDGE_RULES_DIR", None)
    done = subprocess.run([sys.executable, "-c", _ONE_RUN], cwd=checkout, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the build in {checkout} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def beside(other: Path, runs: int) -> None:
    """This checkout's build from scratch, without and with the cards, beside `other`'s."""
    here = Path(__file__).resolve().parent.parent
    checkouts = {"this checkout": here, f"{other}": other}
    times = {name: {"without": [], "with": [], "without cpu": [], "with cpu": []} for name in checkouts}
    with tempfile.TemporaryDirectory() as tmp:
        indexes = {}
        for n, (name, checkout) in enumerate(checkouts.items()):
            # The concordance's cache, copied: built from scratch it takes minutes, and no
            # process may write into the other checkout.
            index = indexes[name] = Path(tmp) / f"index-{n}"
            index.mkdir()
            for part in ("concordance.json", "concordance", "books"):
                source = checkout / "index" / part
                if source.is_dir():
                    shutil.copytree(source, index / part)
                elif source.is_file():
                    shutil.copy2(source, index / part)
        for n in range(runs):
            order = list(checkouts.items()) if n % 2 == 0 else list(checkouts.items())[::-1]
            for name, checkout in order:
                for kind, seconds in _one_run(checkout, indexes[name]).items():
                    times[name][kind].append(seconds)
    base = statistics.median(times[str(other)]["with"])
    print(f"{runs} runs each, a process per run, the checkouts alternated; load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print("wall-clock time, and the process's CPU time (less moved by the other processes on the machine)")
    print(f"{'checkout':<24} {'what':<36} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'× other+cards':>14} "
          f"{'CPU ms':>8}")
    for name in checkouts:
        for kind, label in (("without", "corpus + index from scratch"), ("with", "corpus + index + cards")):
            values = times[name][kind]
            med = statistics.median(values)
            print(f"{name[-24:]:<24} {label:<36} {med * 1000:>10.1f} {min(values) * 1000:>8.1f} "
                  f"{max(values) * 1000:>8.1f} {med / base:>14.2f} "
                  f"{statistics.median(times[name][kind + ' cpu']) * 1000:>8.1f}")
    for name in checkouts:
        verdict = "meets" if statistics.median(times[name]["with"]) < 3.0 else "MISSES"
        print(f"{name}: corpus + index + cards from scratch {verdict} the 3 s target")


if __name__ == "__main__":
    main()
