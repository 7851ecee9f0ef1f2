"""Malformed scenarios: each error names the line and what was expected."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from judge.engine import scenario as sc
from judge.engine.errors import ScenarioError
from judge.engine.vtes.scenario import SCHEMA

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
    ("players: [Sarah, Alexis\nturn: Sarah\n", 1, "the list opened with '[' on this line is not closed"),
    ("title: x\nplayers: [Sarah, Alexis\nturn: Sarah\n", 2, "the list opened with '[' on this line is not closed"),
    ("title: x\nminions:\n  - {name: Belinde, controller: Sarah\nturn: Sarah\n", 3, "the mapping opened with '{'"),
    ('title: "x\nturn: Sarah\n', 1, "the quoted text that begins on this line is not closed"),
    ("players: [A, B]\nturn: A\nphase: minion\nevents:\n  -\t'x'\n", 5, "a tab character"),
    ("players: [A, B]\nturn: A\nphase: minion\nevents:\n  - A plays a card: +1 bleed\n", 5,
     "a sentence with ': ' in it reads as a YAML mapping; quote the whole sentence: \"A plays a card: +1 bleed\""),
    ("players: [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: a: b\n", 5, "an unexpected ':'"),
    ("", 1, "empty"),
    ("- just a list\n", 1, "a mapping"),
    (GOOD.replace("phase: minion", "phase: lunch"), 3,
     "phase: expected 'unlock', 'master', 'minion', 'influence' or 'discard', got 'lunch'"),
    (GOOD.replace("turn: Sarah", "turn: Sarah\nturns: 3"), 3, "unknown key 'turns'; expected one of: crypt,"),
    (GOOD.replace("capacity: 5", "capacity: five"), 5, "minions[0].capacity: expected a whole number (at least 1), got 'five'"),
    (GOOD.replace("players: [Sarah, Alexis, Bob]", "players: [Sarah, Alexis, Sarah]"), 1, "Sarah is listed twice"),
    (GOOD.replace("events:\n  - Belinde bleeds Alexis\n", ""), 1, "missing 'events' (needed here: players, turn, phase, events)"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - 42"), 7, "events[0]: 42 is not an event; expected a sentence"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - ''"), 7, "events[0]: an empty event"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {modifier: Belinde, bleed: lots}"), 7,
     "events[0], a 'modifier' event: bleed: expected a whole number, got 'lots'; e.g. {modifier: Quentin"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {bleed: Belinde, hunt: Belinde}"), 7,
     "exactly one of the keys that name a form; found bleed, hunt"),
    (GOOD.replace("controller: Sarah", "controller: Sara"), 5, "unknown player 'Sara'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - Belinde bleeds Alexis\n  - Belinde dances"), 8,
     "cannot read the event 'Belinde dances'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - Bellinde bleeds Alexis"), 7, "unknown minion 'Bellinde' (known: Belinde)"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - 'Belinde plays an action modifier: +1 sneak'"), 7,
     "cannot read '+1 sneak'; expected one of: +N stealth"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {bleed: Belinde, at: Alexis}"), 7, "unknown key 'at'"),
    (GOOD.replace("  - Belinde bleeds Alexis", "  - {hop: Belinde}"), 7, "needs one of the keys ability_bleed, action, "),
    (GOOD.replace("blood: 3", "blood: 9"), 5, "above capacity"),
    (GOOD.replace("turn: Sarah\n", "turn: Sarah\nturn: Bob\n"), 3, "duplicate key 'turn'"),
    (GOOD.replace("rules: current\n", "") + "rules: fifth\n", 8, "rules: expected 'current', 'older',"),
    (GOOD + "expect: {poool.Alexis: 3}\n", 8, "unknown expectation 'poool.Alexis'"),
    (GOOD + "expect: {refused: 3}\n", 8, "refused"),
    # the expect: block is checked when loading, not met as an impossible expectation
    (GOOD + "expect: {pool.Zorro: 3}\n", 8, "unknown player 'Zorro' in 'pool.Zorro' (the players are Sarah"),
    (GOOD + "expect:\n  pool.Alexis: 29\n  blood.Zorro: 3\n", 10, "unknown minion 'Zorro' in 'blood.Zorro'"),
    (GOOD + "expect: {refused: {event: x}}\n", 8, "expect.refused: event: expected a whole number (at least 1), got 'x'"),
    (GOOD + "expect: {refused: {event: 3}}\n", 8, "from 1 to 1 (2 is the end of the events); got 3"),
    (GOOD + "expect: {refused: {message: 3}}\n", 8, "expect.refused: message: expected text, got 3"),
    (GOOD + "expect: {refused: {cites: [rb:6.1.1]}}\n", 8, "'rb:6.1.1' is not from the current edition's book"),
    (GOOD + "expect: {older: {refused: {cites: [vekn:bleed]}}}\n", 8, "'vekn:bleed' is not from the older"),
    (GOOD + "expect: {locked.Belinde: 3}\n", 8, "'locked.Belinde': expected true or false, got 3"),
    (GOOD + "expect: {region.Belinde: asleep}\n", 8, "expected 'ready' or 'torpor' or 'uncontrolled', got 'asleep'"),
    (GOOD + "expect: {edge: Zorro}\n", 8, "'edge': expected a player's name or null, got 'Zorro'"),
    (GOOD + "expect: {combat.foo: 1}\n", 8, "'combat.foo': combat has no 'foo'"),
    (GOOD + "expect: {players.Zorro.pool: 3}\n", 8, "unknown player in 'players.Zorro.pool'"),
    # YAML that would be costly or crash the reader is refused before anything is built from it
    ("players: &p [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: *p\n", 5, "YAML aliases (*p) are not allowed"),
    ("players: [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: " + "[" * 40_000 + "]" * 40_000 + "\n", 5,
     "nested more than 24 levels deep"),
    ("players: [A, B]\nturn: A\nphase: minion\nevents: []\ntitle: !!python/object:os.system x\n", 5,
     "tags (!!...) are not allowed"),
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
    schema = json.loads(SCHEMA.path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(sc.Path(__file__).resolve().parents[1].joinpath("scenarios").rglob("*.yaml")):
        if "rivals" in path.parts:  # validated against the Rivals schema in test_rivals_engine.py
            continue
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert not errors, (path.name, errors[0].message)


def billion_laughs(levels: int) -> str:
    lines = ["players: [A, B]", "turn: A", "phase: minion", "events: []", "expect:", '  a0: &a0 ["lol"]']
    lines += [f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def test_nested_aliases_are_refused_at_the_first_alias_before_any_expansion():
    """A 'billion laughs' (9**12 values if expanded) is refused where its first alias is; bench/engine_replay.py
    times the refusal."""
    text = billion_laughs(12)
    assert len(text) < 800
    err = error_of(text)
    assert err.line == 7 and "YAML aliases (*a0) are not allowed" in err.message
    assert err.kind == "malformed"


def test_expectations_may_name_minions_the_events_bring_into_play():
    text = GOOD + "  - The Belinde recruits Stray, costing 1 blood\n" + "expect: {life.Stray: 1, in_play.Stray: true}\n"
    assert sc.parse(text).expect.for_edition("current")[0]["life.Stray"][0] == 1


def test_every_refusal_of_a_file_names_its_line_or_why_it_has_none(tmp_path):
    """Issue 34: 686 of 5,316 refusals named no line (not UTF-8, control characters, over the limit)."""
    import os
    path = tmp_path / "x.yaml"
    cases = [
        (GOOD.encode().replace(b"Belinde bleeds", b"Belinde \xff bleeds"), 7, "the text is not UTF-8 (byte 0xff "
                                                                              "at column 13)"),
        (GOOD.replace("Belinde bleeds", "Belinde \x01 bleeds").encode(), 7, "the character U+0001"),
        (GOOD.encode() + b"# " + b"x" * 100_000 + b"\n", GOOD.count("\n") + 1, "the limit 'characters'"),
    ]
    for data, line, words in cases:
        path.write_bytes(data)
        with pytest.raises(ScenarioError) as info:
            sc.load(path)
        assert info.value.line == line and words in info.value.message, (words, info.value)
    path.unlink()
    os.mkfifo(path)  # never opened for reading (it would block): refused for what it is
    with pytest.raises(ScenarioError) as info:
        sc.load(path)
    assert info.value.line is None and "is a named pipe; judge reads only regular files" in info.value.message


def test_json_with_characters_beyond_u_ffff_is_read_alike_on_every_route(tmp_path, client, runner):
    """JSON writes an emoji as a surrogate pair of escapes, which YAML 1.1 refuses: /api/check took it, /check and
    `judge check` did not (issue 34). One reader for all three now."""
    import json as json_module
    from judge.commands.check import check
    scenario = {"players": ["Sarah", "Alexis"], "turn": "Sarah", "phase": "minion", "title": "a \U0001F600 table",
                "events": ["Sarah's turn"]}
    text = json_module.dumps(scenario)  # ensure_ascii: "\ud83d\ude00"
    assert "\\ud83d\\ude00" in text
    api = client.post("/api/check", data=text, content_type="application/json")
    page = client.post("/check", data={"scenario": text, "rules": "file"}, content_type="multipart/form-data")
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    cli = runner.invoke(check, [str(path), "--json"])
    assert api.status_code == 200 and page.status_code == 200 and cli.exit_code == 0, cli.output
    assert json_module.loads(cli.output)["error"] is None and api.get_json()["error"] is None
