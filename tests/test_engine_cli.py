"""`judge check`: the numbered trace, the JSON shape, --compare, exit codes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.commands.check import check

ROOT = Path(__file__).resolve().parents[1] / "scenarios"
STEP_KEYS = {"n", "event", "text", "cites", "quotes"}
RUN_KEYS = {"file", "game", "rules", "ok", "verdict", "steps", "state", "expectations", "error", "checked"}
ERROR_KEYS = {"message", "line", "cites", "kind", "rule", "rules", "event", "event_text", "quotes"}


@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args: runner.invoke(check, [str(a) for a in args])


def test_text_trace_is_numbered_and_cites_label_and_id(cli):
    result = cli(ROOT / "examples" / "quentin_confusion.yaml")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  1. Quentin bleeds Alexis" in out and "  3. Quentin plays Confusion" in out
    assert re.search(r"\[RB §6\.1\.1 ¶(\d+)\]  rb:6\.1\.1/\1\n", out)  # label and ID of one paragraph
    assert "Alexis burns 2 pool (8 left)" in out
    assert "ok   pool.Alexis: 8" in out and "result: ok" in out


def test_json_one_object_per_file_per_line(cli):
    result = cli(ROOT / "examples", "--json")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == len(list((ROOT / "examples").glob("*.yaml")))
    for line in lines:
        obj = json.loads(line)
        assert set(obj) == RUN_KEYS
        assert obj["ok"] is True
        for step in obj["steps"]:
            assert set(step) == STEP_KEYS and isinstance(step["n"], int) and step["cites"]
            assert all(":" in c for c in step["cites"])
        for exp in obj["expectations"]:
            assert set(exp) == {"path", "expected", "actual", "ok"}
        assert obj["error"] is None or set(obj["error"]) == ERROR_KEYS
        assert {"players", "minions", "edge", "phase", "turn"} <= set(obj["state"])


def test_json_error_of_an_expected_refusal(cli):
    result = cli(ROOT / "rules" / "bleed_twice.yaml", "--json")
    assert result.exit_code == 0
    obj = json.loads(result.output)
    assert obj["ok"] is True and obj["checked"] is True
    assert set(obj["error"]) == ERROR_KEYS
    assert obj["error"]["line"] == 13 and obj["error"]["cites"][0].startswith("vekn:bleed/")
    assert obj["error"]["message"] == "refused: Belinde already performed a bleed action this turn"
    assert obj["error"]["kind"] == "refused" and obj["error"]["rule"] == "BLEED_ONCE"
    assert obj["error"]["rules"] == ["BLEED_ONCE"]


def test_json_error_kinds_tell_refused_not_modelled_and_malformed_apart(cli, tmp_path):
    uncovered = json.loads(cli(ROOT / "rules" / "edge_holder_ousted.yaml", "--json").output)["error"]
    assert uncovered["kind"] == "not-modelled" and uncovered["message"].startswith("not modelled:")
    assert uncovered["rule"] == uncovered["rules"][0] and "EDGE" in uncovered["rules"]
    leave = json.loads(cli(ROOT / "torpor" / "leave_torpor_cost_refused.yaml", "--json").output)["error"]
    assert leave["kind"] == "refused" and leave["rule"] == "ACTION_COST_REQUIRED"
    assert leave["rules"] == ["ACTION_COST_REQUIRED", "LEAVE_TORPOR_COST", "COST_REQUIRED"]
    path = tmp_path / "bad.yaml"
    path.write_text("players: [A, B]\nturn: A\nphase: minion\nevents:\n  - {modifier: A, bleed: lots}\n")
    malformed = json.loads(cli(path, "--json").output)
    assert malformed["error"]["kind"] == "malformed" and malformed["error"]["rule"] is None
    assert malformed["error"]["line"] == 5 and malformed["state"] is None and set(malformed) == RUN_KEYS


def test_failing_expectation_exits_1(cli, tmp_path):
    text = (ROOT / "examples" / "quentin_confusion.yaml").read_text().replace("pool.Alexis: 8", "pool.Alexis: 7")
    path = tmp_path / "wrong.yaml"
    path.write_text(text)
    result = cli(path)
    assert result.exit_code == 1
    assert "FAIL pool.Alexis: expected 7, got 8" in result.output
    obj = json.loads(cli(path, "--json").output)
    assert obj["ok"] is False and {"path": "pool.Alexis", "expected": 7, "actual": 8, "ok": False} in obj["expectations"]


def test_unexpected_refusal_exits_1(cli, tmp_path):
    path = tmp_path / "refused.yaml"
    path.write_text("players: [A, B]\nturn: A\nphase: minion\nminions:\n  - {name: V, controller: A, capacity: 3,"
                    " blood: 1, locked: true}\nevents:\n  - V bleeds B\n")
    result = cli(path)
    assert result.exit_code == 1
    assert "NOT ALLOWED (line 7): V is locked" in result.output


def test_rules_option_replays_under_another_edition(cli):
    result = cli(ROOT / "rules" / "bleed_second_modifier.yaml", "--rules", "older", "--json")
    obj = json.loads(result.output)
    assert obj["rules"] == "older" and obj["ok"] is True and obj["error"] is None and obj["checked"] is True
    assert obj["state"]["players"]["Alexis"]["pool"] == 7
    assert [e["path"] for e in obj["expectations"]] == ["pool.Alexis"]  # the older block only


def test_another_edition_without_expectations_is_shown_not_judged(cli, tmp_path):
    """bleed_twice.yaml expects the current book's refusal; replayed under the older book with no block for it
    (its older: block removed), the replay is shown but its top-level expectations are not applied."""
    text = (ROOT / "rules" / "bleed_twice.yaml").read_text()
    own = text[:text.index("  older:")]
    path = tmp_path / "own_only.yaml"
    path.write_text(own)
    result = cli(path, "--rules", "older")
    assert result.exit_code == 0, result.output
    assert "NOT ALLOWED" in result.output and "result: ok (shown, not checked)" in result.output
    assert "the scenario's expectations are for current; a block `older:`" in result.output
    obj = json.loads(cli(path, "--rules", "older", "--json").output)
    assert obj["checked"] is False and obj["expectations"] == [] and obj["error"]["kind"] == "refused"
    assert cli(path).exit_code == 0  # under its own edition it is judged, and passes
    path.write_text(own.replace("pool.Alexis: 9", "pool.Alexis: 8"))
    assert cli(path).exit_code == 1 and cli(path, "--rules", "older").exit_code == 0


def test_compare_every_scenario_passes(cli):
    """Each side of --compare is judged by the expectations for its own edition (docs/scenarios.md)."""
    result = cli(ROOT, "--compare", "current,older")
    assert result.exit_code == 0, [b for b in result.output.split("\n\n") if "FAILED" in b][:2]
    files = list(ROOT.rglob("*.yaml"))
    assert result.output.count("result: ok") == len(files)
    assert "FAIL" not in result.output


def test_compare_withdrawal(cli):
    result = cli(ROOT / "rules" / "withdrawal.yaml", "--compare", "current,older")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "+0.5 victory point" in out and "+1 victory point" in out
    assert "vekn:ending-the-game/" in out and "rb:9.2/" in out
    obj = json.loads(cli(ROOT / "rules" / "withdrawal.yaml", "--compare", "vekn,rb", "--json").output)
    assert obj["rules"] == ["current", "older"] and len(obj["differences"]) == 1
    assert set(obj["runs"]) == {"current", "older"}


def test_bad_options(cli):
    assert cli(ROOT / "examples", "--compare", "current").exit_code == 2
    assert cli(ROOT / "examples", "--rules", "fifth").exit_code == 2
    assert cli(ROOT / "examples", "--rules", "older", "--compare", "current,older").exit_code == 2


def test_malformed_scenario_is_reported_with_its_line(cli, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("players: [A, B]\nturn: A\nphase: minion\nevents:\n  - A dances\n")
    result = cli(path)
    assert result.exit_code == 1
    assert f"{path}:5: cannot read the event 'A dances'" in result.output
    obj = json.loads(cli(path, "--json").output)
    assert set(obj) == RUN_KEYS and obj["ok"] is False and obj["error"]["line"] == 5


def test_registers_in_the_main_group():
    import click

    group = click.Group()
    group.add_command(check)
    assert "check" in group.commands
