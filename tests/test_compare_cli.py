"""`judge diff` and `judge history` from the command line (invoked directly, as the
main group registers them)."""
from __future__ import annotations

import json

import pytest

from judge import paths
from judge.commands.diff import diff, history


def test_diff_json(runner):
    result = runner.invoke(diff, ["rb", "vekn", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["old"], data["new"]) == ("rb", "vekn")
    assert data["pairs"][0]["change"] == "meaning"
    withdrawal = next(p for p in data["pairs"] if p["old"] == "rb:9.2/6")
    assert withdrawal["new"] == "vekn:ending-the-game/12"
    assert [s["signal"] for s in withdrawal["signals"]] == ["number"]


def test_diff_text_is_plain_when_not_a_terminal(runner):
    result = runner.invoke(diff, ["rb", "s6"])
    assert result.exit_code == 0
    assert result.output.startswith("RB (older tap/untap edition) -> S6 (lock/unlock edition, section 6)")
    assert "\x1b[" not in result.output
    coloured = runner.invoke(diff, ["rb", "s6", "--color"])
    assert "\x1b[" in coloured.output


def test_diff_draft_writes_html_and_markdown(runner, tmp_path):
    source = paths.rules_dir() / "000_24de3990c1110259.txt"
    draft = tmp_path / "draft.md"
    draft.write_text(source.read_text(encoding="utf-8").replace("#Contested-cards)", "#nowhere)"), encoding="utf-8")
    out = tmp_path / "report.html"
    result = runner.invoke(diff, ["vekn", "--draft", str(draft), "--html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "Lint of the draft" in page and "#nowhere" in page
    md = runner.invoke(diff, ["vekn", "--draft", str(draft), "--markdown"])
    assert md.exit_code == 0 and "## Lint of the draft" in md.output and "broken-reference" in md.output


@pytest.mark.parametrize("args,code,message", [
    (["rb", "nope"], 2, "no document 'nope'"),
    (["rb", "rivals"], 2, "different games"),
    (["vekn", "--draft", "/no/such/draft.md"], 2, "no such file"),
    (["vekn"], 2, "missing NEW"),
    (["vekn", "s6", "--draft", "x.md"], 2, "either NEW or --draft"),
    (["rb", "vekn", "--json", "--html"], 2, "choose one of"),
])
def test_diff_bad_input_is_an_error_message(runner, args, code, message):
    result = runner.invoke(diff, args)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


def test_history_text_and_json(runner):
    result = runner.invoke(history, ["vekn:influence-phase/9"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("History of VEKN")
    assert any(line.startswith("1. RB") and "created" in line for line in lines)
    assert any(line.startswith("3. VEKN") and "edited (meaning)" in line for line in lines)
    data = json.loads(runner.invoke(history, ["vekn:influence-phase/9", "--json"]).output)
    assert [e["event"] for e in data["editions"]] == ["created", "outside", "edited"]
    assert data["editions"][2]["signals"][0]["signal"] == "timing"


def test_history_unknown_id(runner):
    result = runner.invoke(history, ["rb:99.9/9"])
    assert result.exit_code == 1 and "no such paragraph" in result.output
