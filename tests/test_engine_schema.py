"""The JSON Schema of scenarios: one entry per structured event form, in step with the parser and the docs."""
from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from judge.engine import scenario as sc
from judge.engine.vtes.scenario import SCHEMA
from judge.engine.errors import ScenarioError
from judge.engine.vtes.grammar import STRUCTURED

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "scenarios.md").read_text()


def published_event_validator():
    """The published schema's `event` definition (the oneOf over every form), as other tools see it."""
    return jsonschema.Draft202012Validator({"$ref": "#/$defs/event", "$defs": SCHEMA.document["$defs"]})


def documented_structured_forms() -> list[str]:
    """Every `{...}` in the structured column of the event tables of docs/scenarios.md."""
    events = DOC[DOC.index("## Events"):DOC.index("## Expectations")]
    out = []
    for line in events.splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3:
            out += re.findall(r"`(\{[^`]*\})`", cells[2])
    return out


DOCUMENTED = documented_structured_forms()

GOOD = """\
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: minion
minions:
  - {name: Belinde, controller: Sarah, capacity: 5, blood: 3}
  - {name: Carna, controller: Alexis, capacity: 4, blood: 2}
events:
  - Belinde bleeds Alexis
"""


def test_the_schema_is_valid_and_has_one_entry_per_structured_form():
    jsonschema.Draft202012Validator.check_schema(SCHEMA.document)
    forms = SCHEMA.forms
    assert set(forms) == set(STRUCTURED)
    for key, (_, allowed, _) in STRUCTURED.items():
        assert set(forms[key]["properties"]) == {key, "text", *allowed}, key
        assert key in forms[key]["required"] and forms[key]["additionalProperties"] is False, key
    branches = SCHEMA.document["$defs"]["event"]["oneOf"]
    assert {b["$ref"] for b in branches if "$ref" in b} == {f"#/$defs/event_{k}" for k in forms}
    assert {"type": "string", "minLength": 1} in branches  # or a sentence


def test_every_form_is_documented_and_every_documented_form_validates():
    assert len(DOCUMENTED) >= len(STRUCTURED)
    named = {k for form in DOCUMENTED for k in yaml.safe_load(form) if k in STRUCTURED}
    assert named == set(STRUCTURED), set(STRUCTURED) - named
    validator = published_event_validator()
    for form in DOCUMENTED:
        data = yaml.safe_load(form)
        errors = list(validator.iter_errors(data))
        assert not errors, (form, errors[0].message)
        SCHEMA.validate_event(data, sc.Lines(), ("events", 0))  # the loader agrees


WRONG = [
    ("{modifier: Belinde, bleed: lots}", "a 'modifier' event: bleed: expected a whole number, got 'lots'"),
    ("{strike: Belinde, damage: two}", "a 'strike' event: damage: expected a whole number (at least 0), got 'two'"),
    ("{prevent: Belinde}", "a 'prevent' event: missing 'damage'"),
    ("{transfer: Sarah, to: Belinde}", "'to' needs 'pool' with it"),
    ("{press: Belinde, to: later}", "to: expected 'continue' or 'end', got 'later'"),
    ("{vote: maybe, by: Belinde}", "vote: expected 'for', 'against', 'in favour' or 'in favor', got 'maybe'"),
    ("{bleed: [Belinde]}", "bleed: expected a name, got ['Belinde']"),
    ("{combat_over: false}", "combat_over: expected true, got false"),
    ("{strike: Belinde, retainer: Raven}", "retainer: expected owner/retainer, e.g. Colette/Raven, got 'Raven'"),
    ("{action: Belinde, effect: {pool: {Alexis: lots}}}", "effect.pool.Alexis: expected a whole number or 'all'"),
    ("{decline: 3}", "decline: expected a name or true, got 3"),
    ("{bleed: Belinde, at: Alexis}", "unknown key 'at'; expected one of: amount, bleed, target, text"),
]


@pytest.mark.parametrize("form, words", WRONG, ids=[w[0] for w in WRONG])
def test_a_form_with_a_wrong_type_is_rejected_by_the_schema_and_by_the_loader(form, words):
    data = yaml.safe_load(form)
    assert list(published_event_validator().iter_errors(data)), form
    text = GOOD + f"  - {form}\n"
    with pytest.raises(ScenarioError) as info:
        sc.parse(text)
    assert info.value.line == 9, info.value
    assert words in info.value.message, info.value.message
    assert "e.g. {" in info.value.message or "unknown key" in info.value.message


def test_the_loaders_per_form_check_agrees_with_the_published_oneof():
    """Every event of every scenario file, and every wrong form above, gets the same verdict both ways."""
    validator = published_event_validator()
    samples = [yaml.safe_load(f) for f, _ in WRONG] + [yaml.safe_load(f) for f in DOCUMENTED]
    samples += [42, "", [1], {"hop": 1}, {"bleed": "Belinde", "hunt": "Belinde"}, {"action": "Krid", "bleed": 1}]
    for path in sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if "rivals" not in p.parts):
        samples += yaml.safe_load(path.read_text())["events"]
    for data in samples:
        published_ok = not list(validator.iter_errors(data))
        try:
            SCHEMA.validate_event(data, sc.Lines(), ("events", 0))
            loader_ok = True
        except ScenarioError:
            loader_ok = False
        assert published_ok == loader_ok, data
