"""Random play (after OpenSpiel's random simulation): thousands of games of random legal
events, with the invariants checked after every transition."""
from __future__ import annotations

import random
import time
from collections import Counter

from judge.engine import randomplay


def test_thousands_of_random_games_keep_the_invariants():
    start = time.perf_counter()
    reports = randomplay.play_many(2000, seed=20240, max_events=120)
    elapsed = time.perf_counter() - start
    violations = [v for r in reports for v in r.violations]
    assert not violations, violations[:10]
    events = sum(r.events for r in reports)
    assert events > 50_000
    endings = Counter(r.ended_by for r in reports)
    # The games reach every kind of ending: the rules end them, or part 2 must take over.
    for ending in ("game over", "combat (part 2)", "not modelled", "limit"):
        assert endings[ending] > 0, endings
    assert endings["stuck"] < 20, endings
    assert elapsed < 30, f"{len(reports)} games took {elapsed:.1f}s"


def test_random_play_is_deterministic():
    a = [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(30, seed=7)]
    b = [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(30, seed=7)]
    assert a == b


def test_invariants_detect_a_broken_state():
    from judge.engine.state import counters_in_play, evolve

    state = randomplay.random_table(random.Random(3))
    total = counters_in_play(state) + state.bank
    assert randomplay.invariant_violations(state, total) == []
    leaking = evolve(state, bank=state.bank + 1)
    assert any("conserved" in v for v in randomplay.invariant_violations(leaking, total))
    name = next(n for n, m in state.minions.items() if m.kind == "vampire" and m.region == "ready")
    over = dict(state.minions)
    over[name] = evolve(over[name], blood=over[name].capacity + 1)
    assert any("above capacity" in v for v in randomplay.invariant_violations(evolve(state, minions=over),
                                                                              total + 100))
    ghost = evolve(state, edge="Nobody")
    assert any("Edge" in v for v in randomplay.invariant_violations(ghost, total))
