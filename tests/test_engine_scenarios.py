"""Every scenario file replays and meets its expectations; the worked examples are all there."""
from __future__ import annotations

from pathlib import Path

import pytest
from card_catalog import card_catalog

from judge.engine import citations as C
from judge.engine import scenario as sc
from judge.engine import trace
from judge.engine.vtes.state import counters_in_play

ROOT = Path(__file__).resolve().parents[1] / "scenarios"


def load(path: Path):
    """A scenario file, read as judge check reads it: with the card base (scenarios/cards/ name real cards)."""
    return sc.load(path, cards=card_catalog())
FILES = sorted(p for p in ROOT.rglob("*.yaml") if "rivals" not in p.relative_to(ROOT).parts)  # V:TES (Rivals: test_rivals_engine.py)


@pytest.fixture(scope="module")
def locator(corpus):
    return C.CiteLocator(corpus)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_passes(path, locator):
    result = sc.run(load(path), locator=locator)
    assert result.ok, trace.run_text(result, locator)
    assert result.checks, f"{path.name} has no expectations: a scenario is also a test"


BOOK = {C.CURRENT: "vekn:", C.OLDER: "rb:"}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_replays_under_the_other_edition(path, locator):
    """Under the other book, every step and any stop cites that book's paragraphs only (never the scenario's own
    book), no counter is created or lost, and the scenario's expectations for that book, if any, are met."""
    scenario = load(path)
    other = C.OLDER if scenario.rules == C.CURRENT else C.CURRENT
    result = sc.run(scenario, other, locator)
    for step in result.steps:
        ids = sc.cite_ids(step.rules, other, locator)
        assert ids and all(i.startswith(BOOK[other]) for i in ids), (step.text, ids)
    if result.stop is not None:
        assert result.stop.kind in ("refused", "not-modelled")
        ids = sc.cite_ids(result.stop.rules, other, locator)
        assert ids and all(i.startswith(BOOK[other]) for i in ids), (result.stop.message, ids)
    assert counters_in_play(result.state) + result.state.bank == counters_in_play(scenario.state)
    assert result.ok, trace.run_text(result, locator)
    assert result.judged == scenario.expect.judged(other)


def test_the_rulebooks_worked_examples_are_scenarios():
    names = {p.stem for p in (ROOT / "examples").glob("*.yaml")}
    for stem in ("sarah_belinde_dowager", "sarah_directed_block_refused", "sarah_undirected_prey_first",
                 "krid_pug", "krid_computer_hacking", "ira_eugenio", "quentin_confusion",
                 "nora_influence_current", "nora_influence_older", "justine_final_score", "richard_tie_older"):
        assert stem in names


def test_at_least_25_scenarios_of_our_own_with_refusals():
    own = list((ROOT / "rules").glob("*.yaml"))  # the turn and actions (part 1)
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
def test_required_illegal_moves_are_refused_with_their_citation(stem, rule_doc, locator):
    result = sc.run(load(ROOT / "rules" / f"{stem}.yaml"), C.CURRENT, locator)
    assert result.stop is not None and result.stop.kind == "refused"
    ids = sc.cite_ids(result.stop.rules, C.CURRENT, locator)
    assert any(i.startswith(rule_doc + "/") for i in ids), ids


def test_justine_final_score(locator):
    result = sc.run(load(ROOT / "examples" / "justine_final_score.yaml"), locator=locator)
    scores = result.state.players
    assert [scores[p].vp for p in ("Justine", "Richard", "Scott", "Lisa", "Steve")] == [3, 1, 1, 0, 0]
    assert result.state.result.winner == "Justine"


def test_the_older_tie_is_reported_differently_by_each_book(locator):
    scenario = load(ROOT / "examples" / "richard_tie_older.yaml")
    older, current = sc.run(scenario, C.OLDER, locator), sc.run(scenario, C.CURRENT, locator)
    assert older.state.result.tied == current.state.result.tied == ("Richard", "Lisa")
    assert "tied between Richard and Lisa" in older.steps[-1].text
    assert "no winner" in current.steps[-1].text


def test_compare_withdrawal_shows_both_editions_with_their_citations(locator):
    scenario = load(ROOT / "rules" / "withdrawal.yaml")
    a, b = sc.run(scenario, C.CURRENT, locator), sc.run(scenario, C.OLDER, locator)
    assert a.ok and b.ok
    assert a.state.players["Sarah"].vp == 0.5 and b.state.players["Sarah"].vp == 1
    out = trace.compare_json(a, b, locator)
    (diff,) = out["differences"]
    assert "+0.5 victory point" in diff["current"][0]["text"]
    assert "+1 victory point" in diff["older"][0]["text"]
    assert any(c.startswith("vekn:ending-the-game/") for c in diff["current"][0]["cites"])
    assert any(c.startswith("rb:9.2/") for c in diff["older"][0]["cites"])
    text = trace.compare_text(a, b, locator)
    assert "VEKN › 5. Ending the Game" in text and "RB §9.2" in text


def test_nora_current_moves_out_at_once_older_at_the_end(locator):
    scenario = load(ROOT / "rules" / "influence_older_at_end.yaml")
    older = sc.run(scenario, C.OLDER, locator)
    current = sc.run(scenario, C.CURRENT, locator)
    assert older.ok
    # Under the current book the vampire left the uncontrolled region at once: no more transfers to it.
    assert current.stop is not None and "uncontrolled region" in current.stop.message


# -- part 2: combat, damage, torpor, diablerie, politics ------------------------------------------------
PART_2_EXAMPLES = {
    "ayelech_colette_range": ["vekn:detailed-course-of-combat/7"],
    "wauneka_flavio_additional_strikes": ["vekn:detailed-course-of-combat/19", "vekn:detailed-course-of-combat/21"],
    "chrysanthemum_underbridge_stray": ["vekn:detailed-course-of-combat/26"],
    "nassir_tamoszius_ryan_aggravated": ["vekn:detailed-course-of-combat/42", "vekn:detailed-course-of-combat/44"],
    "mazz_ira_range_older": ["rb:6.4.2/7"],
    "kurt_ira_additional_strikes_older": ["rb:6.4.3/9"],
    "cohn_rose_steal_blood_older": ["rb:6.4.5/8"],
    "krid_milo_barth_aggravated_older": ["rb:6.4.6/8"],
}
OWN_PART_2 = [p for d in ("combat", "torpor", "politics") for p in sorted((ROOT / d).glob("*.yaml"))]


@pytest.mark.parametrize("stem", sorted(PART_2_EXAMPLES))
def test_part_2_worked_examples_cite_their_paragraphs(stem, corpus):
    text = (ROOT / "examples" / f"{stem}.yaml").read_text()
    source = next(line for line in text.splitlines() if line.startswith("source:"))
    for pid in PART_2_EXAMPLES[stem]:
        assert pid in source, (stem, pid)
        para = corpus.paragraphs[pid]
        assert para.kind == "example", (pid, para.kind)


def test_the_worked_examples_end_as_the_books_say(locator):
    def final(stem, edition=None):
        result = sc.run(load(ROOT / "examples" / f"{stem}.yaml"), edition, locator)
        assert result.ok and result.stop is None, stem
        return result

    ayelech = final("ayelech_colette_range").state
    assert ayelech.combat.range == "long" and ayelech.combat.step == "before strikes"
    wauneka = final("wauneka_flavio_additional_strikes")
    taken = [s.text for s in wauneka.steps if "takes 1 damage" in s.text]
    assert sum("Wauneka takes" in t for t in taken) == 2 and sum("Flávio Gonçalves takes" in t for t in taken) == 1
    chrysanthemum = final("chrysanthemum_underbridge_stray").state
    assert chrysanthemum.minions["Chrysanthemum"].blood == 4 and "Underbridge Stray" not in chrysanthemum.minions
    for edition in (C.CURRENT, C.OLDER):
        aggravated = final("nassir_tamoszius_ryan_aggravated", edition).state.minions
        assert (aggravated["Nassir"].region, aggravated["Nassir"].blood) == ("torpor", 1)
        assert (aggravated["Tamoszius"].region, aggravated["Tamoszius"].blood) == ("torpor", 0)
        assert "Ryan" not in aggravated


def test_at_least_30_part_2_scenarios_of_our_own_with_refusals():
    assert len(OWN_PART_2) >= 30
    refusals = [p for p in OWN_PART_2 if "refused:" in p.read_text()]
    assert len(refusals) >= 15
    for folder in ("combat", "torpor", "politics"):
        assert len(list((ROOT / folder).glob("*.yaml"))) >= 8, folder


@pytest.mark.parametrize("path, rule_doc", [
    ("combat/press_twice", "vekn:detailed-course-of-combat/46"),
    ("combat/maneuver_second_strike_card", "vekn:detailed-course-of-combat/6"),
    ("politics/torpor_cannot_vote", "vekn:torpor/5"),
    ("torpor/torpor_cannot_block", "vekn:important-terms-in-the-game/12"),
    ("combat/own_minions_no_combat", "vekn:combat/4"),
    ("combat/additional_strikes_second_source", "vekn:important-terms-in-the-game/13"),
    ("combat/maneuver_twice_in_a_row", "rb:6.4.2/2"),
    ("politics/political_card_vote_limit", "vekn:resolving-a-referendum/12"),
    ("torpor/blood_cursed_no_diablerie", "rb:11/1"),
])
def test_part_2_illegal_moves_are_refused_with_their_citation(path, rule_doc, locator):
    scenario = load(ROOT / f"{path}.yaml")
    result = sc.run(scenario, locator=locator)
    assert result.ok and result.stop is not None and result.stop.kind == "refused", path
    assert rule_doc in sc.cite_ids(result.stop.rules, result.edition, locator), path


def test_every_step_cites_a_paragraph_that_resolves(locator):
    """Every step of every scenario, under both editions, names at least one paragraph, and each resolves."""
    for path in FILES:
        scenario = load(path)
        for edition in C.RULES_EDITIONS:
            steps, _, stop = sc.replay(scenario, edition)
            for step in steps:
                cites = [c for rule in step.rules for c in rule.cites(edition)]
                assert cites, (path.name, edition, step.text)
                assert all(locator.id(c) for c in cites), (path.name, edition, step.text)


@pytest.mark.parametrize("path", ["examples/nassir_tamoszius_ryan_aggravated", "combat/maneuver_twice_in_a_row",
                                  "combat/torpor_timing_by_edition", "torpor/diablerie_discipline_capacity"])
def test_part_2_compare_shows_each_book_with_its_own_citations(path, locator):
    scenario = load(ROOT / f"{path}.yaml")
    a, b = sc.run(scenario, C.CURRENT, locator), sc.run(scenario, C.OLDER, locator)
    assert a.ok and b.ok, path
    diffs = trace.compare_json(a, b, locator)["differences"]
    assert diffs, path
    cites_a = {c for d in diffs for e in d["current"] for c in e["cites"]}
    cites_b = {c for d in diffs for e in d["older"] for c in e["cites"]}
    assert cites_a and all(c.startswith("vekn:") for c in cites_a), cites_a
    assert cites_b and all(c.startswith("rb:") for c in cites_b), cites_b


# -- regressions -------------------------------------------------------------------------------------------
def test_a_standing_press_to_continue_starts_the_next_round_and_leaves_it_to_the_players(locator):
    """The older book's round has no end of round step: declining to press must stop when round 2 begins
    (RB 6.4.4), not play round 2 by default."""
    result = sc.run(load(ROOT / "combat" / "press_continue_next_round_strikes.yaml"), locator=locator)
    assert result.ok, trace.run_text(result, locator)
    declined = [s.text for s in result.steps if s.n == 7]
    assert any("round 2 begins" in t for t in declined)
    assert not any("default strike" in t or "takes" in t for t in declined), declined
    torn = [s.text for s in result.steps if s.n == 8]
    assert any("chooses a strike with Torn Signpost for 3 damage" in t for t in torn), torn


def test_an_ousted_methuselahs_turn_has_no_influence_or_discard_phase(locator):
    result = sc.run(load(ROOT / "rules" / "ousted_in_own_turn_next_turn.yaml"), locator=locator)
    assert result.ok, trace.run_text(result, locator)
    texts = [s.text for s in result.steps]
    assert not any("Sarah's influence phase" in t or "Sarah's discard phase" in t for t in texts), texts
    assert any("Sarah was ousted during Sarah's own minion phase: the turn ends there" in t for t in texts)


def test_damage_to_a_retainer_is_reported_when_the_combat_ends(locator):
    result = sc.run(load(ROOT / "combat" / "dodge_does_not_protect_retainers.yaml"), locator=locator)
    over = [s.text for s in result.steps if "is over after" in s.text]
    assert over and "Colette's retainer Raven 2 damage" in over[0] and "no damage" not in over[0], over
