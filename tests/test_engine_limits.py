"""The replay's limits (judge/engine/limits.py): a scenario at every limit replays; one over a limit is refused
with judge's error naming the limit, its value and the line; `judge check --limit` raises them."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

import scenario_samples as samples
from judge.engine import scenario as sc
from judge.engine import trace
from judge.commands.check import check
from judge.engine.limits import DEFAULT, Limits, OverLimit


def over(text: str, limits: Limits = DEFAULT) -> OverLimit:
    with pytest.raises(OverLimit) as info:
        sc.run(sc.parse(text, limits=limits), limits=limits)
    return info.value


def test_a_scenario_at_every_limit_replays_and_meets_its_expectations():
    text = samples.at_limits()
    scenario = sc.parse(text)
    assert len(scenario.state.seating) == DEFAULT.players and len(scenario.state.minions) == DEFAULT.minions
    assert len(scenario.events) == DEFAULT.events
    assert sum(len(p) for p in scenario.expect.paths.values()) == DEFAULT.expectations
    run = sc.run(scenario)
    assert run.ok and run.stop is None, [c for c in run.checks if not c.ok][:3]
    assert run.state.turn_number - scenario.state.turn_number == 15 and len(run.steps) == 271
    report, text = trace.checked_json(run, None)
    assert len(text.encode()) <= DEFAULT.answer_bytes and json.loads(text) == report
    assert len(sc.run(sc.parse(samples.fights(39))).steps) == 496  # the steps, just under their limit
    assert sc.run(sc.parse(samples.turns(3))).state.turn_number == 5 + DEFAULT.turns


@pytest.mark.parametrize("make, limit, line, words", [
    (lambda: samples.crafted(), "players", 1, "the scenario has 1,000 players; the limit 'players' is 10 players"),
    (lambda: samples.at_limits().replace("players: [", "players: [Zed, "), "players", 2,
     "the scenario has 11 players; the limit 'players' is 10 players"),
    (lambda: samples.at_limits().replace("minions:\n", "minions:\n  - {name: Zed, controller: Methuselah A, "
                                         "capacity: 1}\n"), "minions", 66, "the scenario has 61 minions"),
    (lambda: samples.at_limits().replace("events:\n", "events:\n  - Methuselah A's turn\n"), "events", 167,
     "the scenario has 101 events; the limit 'events' is 100 events"),
    (lambda: samples.at_limits() + "  pool.Methuselah A: 30\n", "expectations", 268,
     "the scenario has 101 expectations; the limit 'expectations' is 100 expectations"),
    (lambda: samples.turns(4), "turns", 69, "the replay began 40 turns by event 4; the limit 'turns' is 30 turns"),
    (lambda: samples.fights(40), "steps", 105, "the replay took 509 steps by event 40; the limit 'steps' is 500 steps"),
    (lambda: samples.at_limits() + "#" * 100_000, "characters", 268,  # the line where it went over: the last
     "the scenario is 112,986 characters long; the limit 'characters' is 100,000 characters"),
    (lambda: "players: [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: [" + "1, " * 5_000 + "]\n", "values", 5,
     "the scenario has more than 5,000 values (texts, numbers, lists, mappings) by this line; the limit 'values' is "
     "5,000 values"),
])
def test_over_a_limit_is_refused_naming_the_limit_its_value_and_the_line(make, limit, line, words):
    err = over(make())
    assert (err.limit, err.maximum, err.line, err.kind) == (limit, getattr(DEFAULT, limit), line, "over-limit"), err
    assert words in err.message, err.message


def test_a_minion_brought_into_play_counts_against_the_minions_limit():
    text = samples.at_limits(events=0).replace("events: []\n", "events:\n  - A0 the Vampire recruits Stray, costing "
                                               "1 blood\n")
    err = over(text)
    assert (err.limit, err.line) == ("minions", 67) and "with the minions its events bring into play" in str(err)


def test_the_wall_time_is_checked_while_reading_and_during_the_replay():
    text = samples.fights(3)
    err = over(text, replace(DEFAULT, seconds=1e-9))
    assert err.limit == "seconds" and err.message.startswith("reading the scenario took more than 1e-09 seconds")
    scenario = sc.parse(text)
    with pytest.raises(OverLimit) as info:
        sc.replay(scenario, limits=replace(DEFAULT, seconds=1e-9))
    assert info.value.line == 66 and info.value.message.startswith(
        "replaying the scenario took more than 1e-09 seconds by event 1; the limit 'seconds' is 1e-09 seconds")


def test_the_answer_size_is_checked_as_the_replay_goes_and_on_the_report():
    small = replace(DEFAULT, answer_bytes=20_000)
    err = over(samples.fights(20), small)
    assert err.limit == "answer_bytes" and err.line is not None
    assert "the replay's report would take more than" in err.message and "the limit 'answer_bytes' is 20,000 bytes" \
        in err.message
    # the state and the expectations are in the report too: measured when it is written
    run = sc.run(sc.parse(samples.at_limits(events=0)), limits=replace(DEFAULT, answer_bytes=5_000))
    with pytest.raises(OverLimit) as info:
        trace.checked_json(run, None, replace(DEFAULT, answer_bytes=5_000))
    assert info.value.limit == "answer_bytes" and "the replay's report is " in info.value.message


def test_a_file_over_the_character_limit_is_refused_naming_where_it_went_over(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("players: [A, B]\n" + "#" * 150_000)
    with pytest.raises(OverLimit) as info:
        sc.load(path)
    assert str(info.value) == (f"{path}:2: the scenario is 150,016 characters long; the limit 'characters' is "
                               f"100,000 characters")
    # Longer than the limit's characters can take in UTF-8: refused by its size, before it is read.
    path.write_text("#" * 500_000)
    with pytest.raises(OverLimit) as info:
        sc.load(path)
    assert str(info.value) == (f"{path}: the whole file is 500,000 bytes, more than 100,000 characters can take; the "
                               f"limit 'characters' is 100,000 characters")


def test_judge_check_reports_a_scenario_over_a_limit_and_raises_a_limit_on_request(tmp_path):
    (tmp_path / "a_turns.yaml").write_text(samples.turns(4))
    (tmp_path / "b_crafted.yaml").write_text(samples.crafted())
    (tmp_path / "c_fine.yaml").write_text(samples.turns(1))
    runner = CliRunner()
    result = runner.invoke(check, [str(tmp_path)])
    assert result.exit_code == 1
    assert f"{tmp_path / 'a_turns.yaml'}:69: the replay began 40 turns by event 4; the limit 'turns' is 30" \
        in result.output
    assert f"{tmp_path / 'b_crafted.yaml'}:1: the scenario has 1,000 players; the limit 'players' is 10" in result.output
    assert result.output.count("result: FAILED (over a limit: see docs/scenarios.md, Limits)") == 2
    assert "1 of 3 scenarios passed" in result.stderr
    lines = [json.loads(x) for x in runner.invoke(check, [str(tmp_path), "--json"]).output.splitlines()]
    assert [(x["error"] or {}).get("limit") for x in lines] == ["turns", "players", None]
    assert lines[0]["error"]["kind"] == "over-limit" and lines[0]["error"]["maximum"] == 30
    raised = runner.invoke(check, [str(tmp_path / "a_turns.yaml"), "--limit", "turns=40"])
    assert raised.exit_code == 0, raised.output
    both = runner.invoke(check, [str(tmp_path / "b_crafted.yaml"), "--limit", "players=1000", "--limit", "turns=4000",
                                 "--limit", "events=400", "--limit", "steps=10", "--json"])
    assert json.loads(both.output)["error"]["limit"] == "steps"


@pytest.mark.parametrize("option, words", [
    ("planets=3", "expected NAME=N with NAME one of characters, values, players, minions, events, expectations, "
                  "turns, steps, seconds, answer_bytes; got 'planets=3'"),
    ("events", "expected NAME=N"),
    ("events=lots", "events: expected a whole number, got 'lots'"),
    ("seconds=0", "seconds: a limit is above 0; got '0'"),
])
def test_a_bad_limit_option_says_what_is_expected(option, words):
    result = CliRunner().invoke(check, ["scenarios/examples", "--limit", option])
    assert result.exit_code == 2 and words in result.output, result.output
