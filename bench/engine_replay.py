"""Benchmark: replay generated 200-event scenarios (target: under 100 ms each).

    PYTHONPATH=. python bench/engine_replay.py [--runs 30] [--events 200] [--only actions|fights|cards]

Prints the median and 95th percentile of each stage over repeated runs, beside
a baseline (merely parsing the YAML text with PyYAML), with ratios:

* yaml (C)         the baseline: PyYAML's C loader, what the scenario loader uses when present
* yaml.safe_load   PyYAML's pure-Python loader, for comparison
* load             YAML with line numbers, JSON Schema validation, table, event parsing
* replay           the engine alone: every event applied, the pending action settled
* load + run       what `judge check` does per file (without printing), expectations included
* guard scan       part of load: the pass over libyaml's events that refuses aliases and deep nesting
* schema oneOf     for comparison: the published JSON Schema (one oneOf branch per event form) checked
                   with jsonschema, which load avoids by checking each event against its own form

Then hostile inputs (the web app loads pasted scenarios): how fast load refuses a "billion laughs"
(nested YAML aliases) and 40,000 nested brackets, beside the C loader on the same laughs text.

Two scenarios, each a legal game of four Methuselahs over many turns:

* actions: bleeds, hunts, equip actions with failed block attempts, modifiers,
  influence transfers, discards; no combat.
* fights: every turn a blocked bleed and its combat (maneuvers, a dodge, an
  additional strike, damage mended, no press), then a political action and its
  referendum (votes from titles, the calling card's vote).
* cards: the actions' turns with real cards named from the card base (a (D) bleed action card, action
  modifiers, a reaction, a trifle): each card is checked (type, timing, Discipline level, cost) and its
  text read. The card base is loaded once before timing, as `judge check` does; "load" includes the
  look-ups (memoized: a card named twice is looked up once).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Optional

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jsonschema  # noqa: E402

from judge.engine import scenario as sc, yamlfile  # noqa: E402
from judge.engine.vtes.scenario import SCHEMA  # noqa: E402
from judge.engine.errors import ScenarioError  # noqa: E402
from judge.engine.limits import DEFAULT  # noqa: E402

# The engine's own speed at 200 events, past the replay's limits (judge/engine/limits.py: 100 events), which
# bench/check_load.py measures under load.
UNLIMITED = DEFAULT.with_override("events=1000").with_override("steps=100000").with_override("turns=1000")

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def generate(min_events: int = 200) -> str:
    """A legal scenario of at least `min_events` events, as YAML text."""
    minions = []
    for p in PLAYERS:
        for k in range(3):
            minions.append(f"  - {{name: {p}{k}, controller: {p}, capacity: 6, blood: 3}}")
        minions.append(f"  - {{name: {p}G, controller: {p}, capacity: 4, blood: 2}}")  # blocks, never acts
        minions.append(f"  - {{name: {p}U, controller: {p}, capacity: 40, blood: 0, region: uncontrolled}}")
    events: list[str] = []
    turn = 0
    while len(events) < min_events:
        p = PLAYERS[turn % 4]
        prey, pred = PLAYERS[(turn + 1) % 4], PLAYERS[(turn - 1) % 4]
        events += [
            "master phase",
            f"{p} plays a master card",
            "minion phase",
            f"{p}0 bleeds {prey}",
            f"{prey} declines to block",
            f'"{p}0 plays Card{turn}, an action modifier: +1 bleed"',
            f"{p}1 hunts",
            "nobody blocks",
            f'"{p}2 equips with Gun{turn}, costing 1 pool"',
            f"{prey}G attempts to block",
            f"{prey} passes",
            f"{prey} declines to block",
            f"{pred} declines to block",
            "influence phase",
            f"{p} moves 2 pool to {p}U",
            f"{p} moves 1 pool to {p}U",
            "discard phase",
            f"{p} discards a card",
            "end of turn",
        ]
        turn += 1
    head = [
        "title: generated benchmark scenario",
        "rules: current",
        f"players: [{', '.join(PLAYERS)}]",
        f"turn: {PLAYERS[0]}",
        "phase: unlock",
        "minions:",
        *minions,
        "events:",
        *[f"  - {e}" for e in events],
        "expect:",
        f"  ousted.{PLAYERS[0]}: false",
    ]
    return "\n".join(head) + "\n"


def generate_fights(min_events: int = 200) -> str:
    """A legal scenario with a combat and a referendum every turn, as YAML text."""
    minions = []
    for p in PLAYERS:
        minions.append(f"  - {{name: {p}0, controller: {p}, capacity: 9, blood: 9}}")
        minions.append(f"  - {{name: {p}P, controller: {p}, capacity: 6, blood: 3, title: Prince of {p}}}")
        minions.append(f"  - {{name: {p}G, controller: {p}, capacity: 12, blood: 12}}")  # blocks, never acts
    events: list[str] = []
    turn = 0
    while len(events) < min_events:
        p = PLAYERS[turn % 4]
        prey = PLAYERS[(turn + 1) % 4]
        events += [
            "minion phase",
            f"{p}0 bleeds {prey}",
            f"{prey}G attempts to block",
            f"{p} passes",
            f"{p}0 declines to maneuver",
            f"{prey}G has no more maneuvers",
            f"{p}0 uses its hand strike",
            f"{prey}G dodges",
            f"{p}0 gains 1 additional strike",
            f"{p}0 uses its hand strike",
            "nobody presses",
            f"{p}P plays Parity Shift{turn}, a political action",
            "nobody blocks",
            f"{p}P votes for",
            f"{p} votes for with Parity Shift{turn}",
            f"{prey}P votes against",
            "the polling closes",
            "end of turn",
        ]
        turn += 1
    head = [
        "title: generated benchmark scenario (fights and referendums)",
        "rules: current",
        f"players: [{', '.join(PLAYERS)}]",
        f"turn: {PLAYERS[0]}",
        "phase: master",
        "minions:",
        *minions,
        "events:",
        *[f"  - {e}" for e in events],
        "expect:",
        f"  ousted.{PLAYERS[0]}: false",
    ]
    return "\n".join(head) + "\n"


def generate_cards(min_events: int = 200) -> str:
    """A legal scenario whose cards are named from the card base, as YAML text."""
    minions = []
    for p in PLAYERS:
        minions.append(f"  - {{name: {p}0, controller: {p}, capacity: 11, blood: 11, disciplines: [dom]}}")
        minions.append(f"  - {{name: {p}1, controller: {p}, capacity: 11, blood: 11, disciplines: [DOM, obf]}}")
        minions.append(f"  - {{name: {p}G, controller: {p}, capacity: 11, blood: 11, disciplines: [aus]}}")
    events: list[str] = []
    turn = 0
    while len(events) < min_events:
        p = PLAYERS[turn % 4]
        prey, pred = PLAYERS[(turn + 1) % 4], PLAYERS[(turn - 1) % 4]
        events += [
            "master phase",
            f'"{p} plays Villein: {p}1 burns 2 blood; {p} gains 2 pool"',
            "minion phase",
            f"{p}0 plays Govern the Unaligned at inferior",
            "nobody blocks",
            f"{p}1 bleeds {prey}",
            f"{prey}G attempts to block",
            f"{p}1 plays Cloak the Gathering",
            f"{prey}G plays Eagle's Sight",
            f"{p}1 plays Bonding at superior",
            f"{prey} passes",
            f"{prey} declines to block",
            "discard phase",
            f"{p} discards a card",
            "end of turn",
        ]
        turn += 1
    head = [
        "title: generated benchmark scenario (named cards)",
        "rules: current",
        f"players: [{', '.join(PLAYERS)}]",
        f"pool: {{{', '.join(f'{p}: 400' for p in PLAYERS)}}}",
        f"turn: {PLAYERS[0]}",
        "phase: unlock",
        "minions:",
        *minions,
        "events:",
        *[f"  - {e}" for e in events],
        "expect:",
        f"  ousted.{PLAYERS[0]}: false",
    ]
    return "\n".join(head) + "\n"


def card_catalog():
    """The card base as `judge check` gives it to the reader: loaded once, before any timing."""
    from judge.cards import get_cards
    from judge.corpus import get_corpus
    from judge.engine.vtes.cards import Catalog

    return Catalog(get_cards(get_corpus()))


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def bench(name: str, text: str, runs: int, cards=None) -> Optional[float]:
    scenario = sc.parse(text, "bench", UNLIMITED, cards)
    n_events = len(scenario.events)
    steps, state, stop = sc.replay(scenario, limits=UNLIMITED)
    if stop is not None:
        print(f"the generated {name} scenario stopped at event {stop.n}: {stop.message}", file=sys.stderr)
        return None
    run = sc.run(scenario, limits=UNLIMITED)
    assert run.ok, f"the generated {name} scenario's expectation failed"
    c_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(text, Loader=c_loader)
    published = jsonschema.Draft202012Validator(SCHEMA.document)
    stages = [
        ("yaml (C)", lambda: yaml.load(text, Loader=c_loader)),
        ("yaml.safe_load", lambda: yaml.safe_load(text)),
        ("load", lambda: sc.parse(text, "bench", UNLIMITED, cards)),
        ("replay", lambda: sc.replay(scenario, limits=UNLIMITED)),
        ("load + run", lambda: sc.run(sc.parse(text, "bench", UNLIMITED, cards), limits=UNLIMITED)),
        ("guard scan", lambda: yamlfile.check_structure(text, UNLIMITED)),
        ("schema oneOf", lambda: list(published.iter_errors(data))),
    ]
    results = {label: timed(fn, runs) for label, fn in stages}
    base = statistics.median(results["yaml (C)"])
    print(f"{name}: {n_events} events, {len(steps)} trace steps, {runs} runs each")
    print(f"{'stage':<16}{'median ms':>11}{'p95 ms':>9}{'x yaml':>9}")
    for label, xs in results.items():
        med = statistics.median(xs)
        print(f"{label:<16}{med:>11.2f}{p95(xs):>9.2f}{med / base:>9.1f}")
    replay_ms = statistics.median(results["replay"])
    verdict = "under" if replay_ms < 100 else "OVER"
    print(f"replay of {n_events} events: {replay_ms:.1f} ms median ({replay_ms * 1000 / n_events:.0f} µs/event), "
          f"{verdict} the 100 ms target\n")
    return replay_ms


def laughs(levels: int) -> str:
    """A 'billion laughs': each level an anchored list of nine aliases of the previous one."""
    lines = ["players: [A, B]", "turn: A", "phase: minion", "events: []", "expect:", '  a0: &a0 ["lol"]']
    lines += [f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def refused_in(text: str, runs: int) -> list[float]:
    def attempt():
        try:
            sc.parse(text, "bench")
        except ScenarioError:
            return
        raise AssertionError("the hostile scenario was not refused")
    return timed(attempt, runs)


def hostile(runs: int) -> None:
    c_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    text = laughs(6)
    rows = [
        (f"laughs x6 ({len(text)} B): yaml (C)", timed(lambda: yaml.load(text, Loader=c_loader), runs)),
        ("laughs x6: load (refused)", refused_in(text, runs)),
        ("[ x 40000: load (refused)", refused_in("players: [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: "
                                                 + "[" * 40_000 + "]" * 40_000 + "\n", runs)),
    ]
    print(f"hostile inputs, {runs} runs each")
    print(f"{'input: stage':<36}{'median ms':>11}{'p95 ms':>9}")
    for label, xs in rows:
        print(f"{label:<36}{statistics.median(xs):>11.2f}{p95(xs):>9.2f}")
    print()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--only", choices=("actions", "fights", "cards"))
    args = ap.parse_args()
    scenarios = {"actions": generate, "fights": generate_fights, "cards": generate_cards}
    worst = 0.0
    for name, make in scenarios.items():
        if args.only and name != args.only:
            continue
        ms = bench(name, make(args.events), args.runs, card_catalog() if name == "cards" else None)
        if ms is None:
            return 1
        worst = max(worst, ms)
    hostile(args.runs)
    return 0 if worst < 100 else 1


if __name__ == "__main__":
    raise SystemExit(main())
