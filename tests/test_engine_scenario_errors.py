"""Malformed scenarios: each error names the line and what was expected."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from judge.engine import scenario as sc
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


def error_of(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        sc.parse(text)
    return info.value


def test_the_good_one_parses():
    assert len(sc.parse(GOOD).events) == 1


@pytest.mark.parametrize("text, line, words", [
    ("players: [Sarah, Alexis\nturn: Sarah\n", 2, "not valid YAML"),
    ("", 1, "empty"),
    ("- just a list\n", 1, "a mapping"),
    (GOOD.replace("phase: minion", "phase: lunch"), 3, "'lunch' is not one of unlock, master"),
    (GOOD.replace("turn: Sarah", "turn: Sarah\nturns: 3"), 3, "'turns' was unexpected"),
    (GOOD.replace("capacity: 5", "capacity: five"), 5, "expected integer"),
    (GOOD.replace("controller: Sarah", "controller: Sara"), 5, "unknown player 'Sara'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - Belinde bleeds Alexis\n  - Belinde dances"), 8,
     "cannot read the event 'Belinde dances'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - Bellinde bleeds Alexis"), 7, "unknown minion 'Bellinde' (known: Belinde)"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - 'Belinde plays an action modifier: +1 sneak'"), 7,
     "cannot read '+1 sneak'; expected one of: +N stealth"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {bleed: Belinde, at: Alexis}"), 7, "unknown key 'at'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {hop: Belinde}"), 7, "needs exactly one of the keys"),
    (GOOD.replace("blood: 3", "blood: 9"), 5, "above capacity"),
    (GOOD.replace("turn: Sarah\n", "turn: Sarah\nturn: Bob\n"), 3, "duplicate key 'turn'"),
    (GOOD.replace("rules: current\n", "") + "rules: fifth\n", 8, "is not one of current"),
    (GOOD + "expect: {poool.Alexis: 3}\n", 8, "unknown expectation 'poool.Alexis'"),
    (GOOD + "expect: {refused: 3}\n", 8, "refused"),
    (GOOD.replace("{name: Belinde, controller: Sarah, capacity: 5, blood: 3}",
                  "{name: Belinde, controller: Sarah}"), 5, "needs a capacity"),
    (GOOD + "  - The Dowager recruits Belinde\n", 8, "unknown minion"),
])
def test_error_names_the_line_and_what_was_expected(text, line, words):
    err = error_of(text)
    assert err.line == line, (err.line, err.message)
    assert words in err.message, err.message


def test_recruiting_a_name_already_used_is_an_error():
    text = GOOD.replace("  - Belinde bleeds Alexis", "  - Belinde recruits Belinde")
    err = error_of(text)
    assert err.line == 7 and "already used" in err.message


def test_file_errors_carry_the_file(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(GOOD.replace("phase: minion", "phase: 3"))
    with pytest.raises(ScenarioError) as info:
        sc.load(path)
    assert str(info.value).startswith(f"{path}:3:")


def test_every_scenario_file_validates_against_the_published_schema():
    schema = json.loads(sc.SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(sc.Path(__file__).resolve().parents[1].joinpath("scenarios").rglob("*.yaml")):
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert not errors, (path.name, errors[0].message)
