"""Benchmark: the Rivals engine's replay of scenarios/rivals/ and its random play, beside the V:TES engine's.

    PYTHONPATH=. python bench/rivals_replay.py [--runs 9] [--games 300]

Prints medians over `--runs` runs, each stage beside its baseline, with the ratio:

* load + run, per file: every Rivals scenario (scenarios/rivals/) beside every V:TES scenario of
  scenarios/examples/ (the baseline: `judge check`'s work per file, without the books)
* random play, per event: Rivals (judge/engine/rivals/randomplay.py, 40 events a game) beside V:TES
  (judge/engine/vtes/randomplay.py, the baseline)
* the state's copy a transition makes: Rivals' hand-written copy beside copy.deepcopy of the same
  state (the baseline, what it replaced)
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.engine.vtes import randomplay as vtes_random  # noqa: E402
from judge.engine import scenario as sc  # noqa: E402
from judge.engine.rivals import randomplay as rivals_random  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "scenarios"


def per_file(files: list[Path]) -> float:
    start = time.perf_counter()
    for path in files:
        sc.run(sc.load(path))
    return (time.perf_counter() - start) / len(files)


def per_event(play, games: int) -> float:
    start = time.perf_counter()
    reports = play(games)
    return (time.perf_counter() - start) / max(1, sum(r.events for r in reports))


def copies(n: int) -> tuple[float, float]:
    st = rivals_random.random_table(random.Random(7))
    start = time.perf_counter()
    for _ in range(n):
        st.copy()
    own = (time.perf_counter() - start) / n
    start = time.perf_counter()
    for _ in range(n):
        copy.deepcopy(st)
    return own, (time.perf_counter() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    rivals = sorted((ROOT / "rivals").rglob("*.yaml"))
    vtes = sorted((ROOT / "examples").glob("*.yaml"))
    rows = {"load + run, per file": [], "random play, per event": [], "state copy": []}
    for _ in range(args.runs):
        rows["load + run, per file"].append((per_file(rivals), per_file(vtes)))
        rows["random play, per event"].append((
            per_event(lambda n: rivals_random.play_many(n, seed=1, max_events=40), args.games),
            per_event(lambda n: vtes_random.play_many(n, seed=1, max_events=40), args.games // 3)))
        rows["state copy"].append(copies(2000))
    print(f"{'stage':<26}{'Rivals (median)':>18}{'baseline (median)':>20}{'ratio':>8}")
    for name, pairs in rows.items():
        a = statistics.median(p[0] for p in pairs) * 1e6
        b = statistics.median(p[1] for p in pairs) * 1e6
        print(f"{name:<26}{a:>15.1f} µs{b:>17.1f} µs{a / b:>8.2f}")
    print(f"(baseline: V:TES's examples and random play; the copy's baseline is copy.deepcopy; {args.runs} runs, "
          f"{len(rivals)} Rivals files, {len(vtes)} V:TES files)")


if __name__ == "__main__":
    main()
