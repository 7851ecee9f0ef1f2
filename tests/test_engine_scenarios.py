"""Every scenario file replays and meets its expectations; the worked examples are all there."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine import citations as R
from judge.engine import scenario as sc
from judge.engine import trace

ROOT = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.fixture(scope="module")
def resolver(corpus):
    return R.Resolver(corpus)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_passes(path, resolver):
    result = sc.run(sc.load(path), resolver=resolver)
    assert result.ok, trace.run_text(result, resolver)
    assert result.checks, f"{path.name} has no expectations: a scenario is also a test"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_replays_under_the_other_edition(path):
    """Replaying under the other book may refuse or stop, but never crashes."""
    scenario = sc.load(path)
    other = R.OLDER if scenario.rules == R.CURRENT else R.CURRENT
    steps, state, stop = sc.replay(scenario, other)
    assert stop is None or stop.kind in ("refused", "not-modelled")


def test_the_rulebooks_worked_examples_are_scenarios():
    names = {p.stem for p in (ROOT / "examples").glob("*.yaml")}
    for stem in ("sarah_belinde_dowager", "sarah_directed_block_refused", "sarah_undirected_prey_first",
                 "krid_pug", "krid_computer_hacking", "ira_eugenio", "quentin_confusion",
                 "nora_influence_current", "nora_influence_older", "justine_final_score", "richard_tie_older"):
        assert stem in names


def test_at_least_25_scenarios_of_our_own_with_refusals():
    own = list((ROOT / "rules").glob("*.yaml"))
    assert len(own) >= 25
    refusals = [p for p in own if "refused:" in p.read_text()]
    assert len(refusals) >= 10


@pytest.mark.parametrize("stem, rule_doc", [
    ("bleed_locked_minion", "vekn:minion-phase"),
    ("bleed_twice", "vekn:bleed"),
    ("recruit_ally_acts_same_turn", "vekn:recruit-ally"),
    ("block_own_action", "vekn:minion-phase"),
    ("bleed_second_modifier", "vekn:bleed"),
])
def test_required_illegal_moves_are_refused_with_their_citation(stem, rule_doc, resolver):
    result = sc.run(sc.load(ROOT / "rules" / f"{stem}.yaml"), R.CURRENT, resolver)
    assert result.stop is not None and result.stop.kind == "refused"
    ids = sc.cite_ids(result.stop.rules, R.CURRENT, resolver)
    assert any(i.startswith(rule_doc + "/") for i in ids), ids


def test_justine_final_score(resolver):
    result = sc.run(sc.load(ROOT / "examples" / "justine_final_score.yaml"), resolver=resolver)
    scores = result.state.players
    assert [scores[p].vp for p in ("Justine", "Richard", "Scott", "Lisa", "Steve")] == [3, 1, 1, 0, 0]
    assert result.state.result.winner == "Justine"


def test_the_older_tie_is_reported_differently_by_each_book(resolver):
    scenario = sc.load(ROOT / "examples" / "richard_tie_older.yaml")
    older, current = sc.run(scenario, R.OLDER, resolver), sc.run(scenario, R.CURRENT, resolver)
    assert older.state.result.tied == current.state.result.tied == ("Richard", "Lisa")
    assert "tied between Richard and Lisa" in older.steps[-1].text
    assert "no winner" in current.steps[-1].text


def test_compare_withdrawal_shows_both_editions_with_their_citations(resolver):
    scenario = sc.load(ROOT / "rules" / "withdrawal.yaml")
    a, b = sc.run(scenario, R.CURRENT, resolver), sc.run(scenario, R.OLDER, resolver)
    assert a.ok and b.ok
    assert a.state.players["Sarah"].vp == 0.5 and b.state.players["Sarah"].vp == 1
    out = trace.compare_json(a, b, resolver)
    (diff,) = out["differences"]
    assert "+0.5 victory point" in diff["current"][0]["text"]
    assert "+1 victory point" in diff["older"][0]["text"]
    assert any(c.startswith("vekn:ending-the-game/") for c in diff["current"][0]["cites"])
    assert any(c.startswith("rb:9.2/") for c in diff["older"][0]["cites"])
    text = trace.compare_text(a, b, resolver)
    assert "VEKN › 5. Ending the Game" in text and "RB §9.2" in text


def test_nora_current_moves_out_at_once_older_at_the_end(resolver):
    scenario = sc.load(ROOT / "rules" / "influence_older_at_end.yaml")
    older = sc.run(scenario, R.OLDER, resolver)
    current = sc.run(scenario, R.CURRENT, resolver)
    assert older.ok
    # Under the current book the vampire left the uncontrolled region at once: no more transfers to it.
    assert current.stop is not None and "uncontrolled region" in current.stop.message
