"""Hostile scenarios: whatever the text, the loader answers with judge's own error naming the line (never a
traceback), every value is bounded, and a replay with large values does what the rules say."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from judge.engine import scenario as sc
from judge.engine import trace
from judge.commands.check import check
from judge.engine.errors import ScenarioError

GOOD = """\
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: minion
minions:
  - {name: Belinde, controller: Sarah, capacity: 5, blood: 3}
events:
  - Belinde bleeds Alexis
"""
NUMBERS = "numbers in a scenario are between -1,000 and 1,000"


def error_of(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        sc.parse(text)
    return info.value


@pytest.mark.parametrize("text, line, words", [
    # a list or a mapping as a key (a Python dict cannot hold it)
    (GOOD + "? [x, y]\n: 1\n", 8, "a list used as a mapping key; keys must be plain names or values"),
    (GOOD + "expect:\n  pool.Alexis: 29\n  ? {a: 1}\n  : 2\n", 10, "a mapping used as a mapping key"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {? [bleed]: Belinde}"), 7, "a list used as a mapping key"),
    (GOOD.replace("minions:", "pool: {? [Sarah]: 3}\nminions:"), 4, "a list used as a mapping key"),
    # numbers, wherever they are: bounded before they are compared or counted with
    (GOOD + "expect: {pool.Alexis: " + "9" * 400 + "}\n", 8,
     f"the number 999999999999999999999999... is 400 characters long; {NUMBERS}"),
    (GOOD + "expect: {pool.Alexis: " + "9" * 5000 + "}\n", 8, "is 5,000 characters long"),
    (GOOD + "expect: {pool.Alexis: 1001}\n", 8, f"the number 1001 is out of bounds; {NUMBERS}"),
    (GOOD + "expect: {vp.Alexis: -1000.5}\n", 8, "the number -1000.5 is out of bounds"),
    (GOOD.replace("minions:", "vp: {Sarah: .inf}\nminions:"), 4, "the number .inf is out of bounds"),
    (GOOD.replace("minions:", "vp: {Sarah: .nan}\nminions:"), 4, "the number .nan is out of bounds"),
    (GOOD.replace("capacity: 5", "capacity: 100000000"), 5, "the number 100000000 is out of bounds"),
    (GOOD.replace("turn: Sarah", "turn: Sarah\nturn_number: 0x7fffffff"), 3, "the number 0x7fffffff is out"),
    (GOOD + "  - {effect: {hand_size: {Sarah: 99999999}}}\n", 8, "the number 99999999 is out of bounds"),
    (GOOD + "  - {inflict: Belinde, aggravated: 5000}\n", 8, "the number 5000 is out of bounds"),
    # ... in sentences too
    (GOOD.replace("Belinde bleeds Alexis", "Belinde bleeds Alexis for 99999"), 7,
     f"in 'Belinde bleeds Alexis for 99999': the number 99999 is out of bounds; {NUMBERS}"),
    (GOOD + "  - Belinde receives " + "9" * 600 + " aggravated damage\n", 8, "the number 999999999999999999999999... is"),
    (GOOD + "  - \"Sarah's hand size becomes 5000\"\n", 8, "the number 5000 is out of bounds"),
    # texts and names
    (GOOD.replace("minions:", "title: " + "x" * 1001 + "\nminions:"), 4,
     "a text of 1,001 characters (\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"); a text value in a scenario is at "
     "most 1,000 characters"),
    (GOOD.replace("Belinde", "B" * 101), 5, "is 101 characters long; a player's or minion's name is at most 100"),
    (GOOD.replace("players: [Sarah, Alexis, Bob]", "players: [Sarah, Alexis, " + "B" * 101 + "]"), 1,
     "a player's or minion's name is at most 100"),
    (GOOD + "  - The Belinde recruits " + "S" * 101 + ", costing 1 blood\n", 8, "a player's or minion's name is at most"),
    # values no scenario needs, which no JSON report could hold
    (GOOD + "expect: {equipment.Belinde: [!!binary aGVsbG8=]}\n", 8, "tags (!!...) are not allowed"),
    (GOOD + "expect: {equipment.Belinde: !!set {a, b}}\n", 8, "tags (!!...) are not allowed"),
    (GOOD + "expect: {pool.Alexis: !!int 'x'}\n", 8, "tags (!!...) are not allowed"),
    (GOOD + "expect: {locked.Belinde: !!bool 'x'}\n", 8, "tags (!!...) are not allowed"),
])
def test_hostile_values_are_refused_at_their_line(text, line, words):
    err = error_of(text)
    assert (err.line, err.kind) == (line, "malformed"), err
    assert words in err.message, err.message


def test_what_yaml_reads_as_a_date_or_a_merge_key_is_text():
    scenario = sc.parse(GOOD.replace("minions:", "title: 2024-05-01\nminions:") + "expect: {title.Belinde: null}\n")
    assert scenario.title == "2024-05-01"
    err = error_of(GOOD + "<<: {turn: Bob}\n")
    assert err.line == 8 and "unknown key '<<'" in err.message
    # a date in an expectation was a datetime.date, which the JSON report could not hold
    run = sc.run(sc.parse(GOOD + "expect: {equipment.Belinde: [2024-05-01]}\n"))
    report = json.loads(trace.dumps(trace.run_json(run, None)))
    assert report["expectations"] == [{"path": "equipment.Belinde", "expected": ["2024-05-01"], "actual": [],
                                       "ok": False}]


def test_large_values_within_the_bounds_replay_as_the_rules_say():
    """A hand size of 1,000 draws up to it (or until the library is empty); 1,000 aggravated damage burns a
    vampire with less blood: each computed at once, not point by point."""
    text = ("players: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nlibrary: {Alexis: 40}\n"
            "minions:\n  - {name: Belinde, controller: Sarah, capacity: 1000, blood: 998}\n"
            "  - {name: Carna, controller: Alexis, capacity: 1000, blood: 1000}\n"
            "events:\n  - {effect: {hand_size: {Sarah: 1000, Alexis: 1000}}}\n"
            "  - {inflict: Belinde, aggravated: 1000}\n  - {inflict: Carna, aggravated: 1000}\n"
            "expect: {hand.Sarah: 1000, hand.Alexis: 47, library.Alexis: 0, blood.Carna: 1, in_play.Belinde: false}\n")
    result = sc.run(sc.parse(text))
    assert result.ok, [c for c in result.checks if not c.ok]
    texts = " ".join(s.text for s in result.steps)
    assert "Belinde takes 1000 aggravated damage" in texts and "burns 998 blood to prevent its destruction by 998 more " \
        "points of aggravated damage; wounded, it has no blood to burn for the next point" in texts
    assert "Carna takes 1000 aggravated damage" in texts and "it burns 999 blood" in texts


def test_an_expectation_compares_numbers_exactly():
    from judge.engine.expect import same
    assert same(10 ** 400, 10 ** 400) and not same(10 ** 400, 1.5) and same(2, 2.0) and not same(True, 1)


def test_check_of_a_directory_reports_every_failing_file_and_checks_the_rest(tmp_path):
    good = (sc.Path(__file__).resolve().parents[1] / "scenarios/examples/quentin_confusion.yaml").read_text()
    (tmp_path / "a_key.yaml").write_text(GOOD + "? [x, y]\n: 1\n")
    (tmp_path / "b_good.yaml").write_text(good)
    (tmp_path / "c_number.yaml").write_text(GOOD + "expect: {pool.Alexis: " + "9" * 400 + "}\n")
    (tmp_path / "d_good.yaml").write_text(good)
    runner = CliRunner()
    result = runner.invoke(check, [str(tmp_path)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    out = result.output
    assert f"{tmp_path / 'a_key.yaml'}:8: a list used as a mapping key" in out
    assert f"{tmp_path / 'c_number.yaml'}:8: the number" in out
    assert out.count("result: ok") == 2 and out.count("result: FAILED (malformed scenario)") == 2
    assert "2 of 4 scenarios passed" in result.stderr
    lines = [json.loads(x) for x in runner.invoke(check, [str(tmp_path), "--json"]).output.splitlines()]
    assert [(x["ok"], (x["error"] or {}).get("line")) for x in lines] == [(False, 8), (True, None), (False, 8),
                                                                         (True, None)]
