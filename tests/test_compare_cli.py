"""`judge diff` and `judge history` from the command line, through the `judge` group
(which turns a JudgeError into its message and exit code)."""
from __future__ import annotations

import json

import pytest

from judge import paths
from judge.cli import cli


def diff(runner, *args):
    return runner.invoke(cli, ["diff", *args])


def history(runner, *args):
    return runner.invoke(cli, ["history", *args])


def test_diff_json(runner):
    result = diff(runner, "rb", "vekn", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["old"], data["new"]) == ("rb", "vekn")
    assert data["pairs"][0]["change"] == "meaning"
    withdrawal = next(p for p in data["pairs"] if p["old"] == "rb:9.2/6")
    assert withdrawal["new"] == "vekn:ending-the-game/12"
    assert [s["signal"] for s in withdrawal["signals"]] == ["number"]


def test_diff_text_is_plain_when_not_a_terminal(runner):
    result = diff(runner, "rb", "s6")
    assert result.exit_code == 0
    assert result.output.startswith("RB (older tap/untap edition) -> S6 (lock/unlock edition, section 6)")
    assert "\x1b[" not in result.output
    coloured = diff(runner, "rb", "s6", "--color")
    assert "\x1b[" in coloured.output


def test_diff_draft_writes_html_and_markdown(runner, tmp_path):
    source = paths.rules_dir() / "000_24de3990c1110259.txt"
    draft = tmp_path / "draft.md"
    draft.write_text(source.read_text(encoding="utf-8").replace("#Contested-cards)", "#nowhere)"), encoding="utf-8")
    out = tmp_path / "report.html"
    result = diff(runner, "vekn", "--draft", str(draft), "--html", "-o", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "Lint of the draft" in page and "#nowhere" in page
    md = diff(runner, "vekn", "--draft", str(draft), "--markdown")
    assert md.exit_code == 0 and "## Lint of the draft" in md.output and "broken-reference" in md.output


@pytest.mark.parametrize("args,code,message", [
    (["rb", "nope"], 2, "no document 'nope'"),
    (["rb", "rivals"], 2, "different games"),
    (["vekn", "--draft", "/no/such/draft.md"], 2, "no such file"),
    (["vekn", "--draft", "/dev/null"], 2, "/dev/null: is not a regular file"),
    # 7 times its corpus version's size: refused before it is read (comparing it took 10 s, a 32 times one 31 s)
    (["vekn", "--draft", "{huge}"], 2, "the draft is {size:,} bytes long; a draft of VEKN is read up to {most:,} bytes "
                                       "(4 times its corpus version, at least 262,144)"),
    # An outline cites the rules; paired with a rulebook, every step would be a "change".
    (["rb", "flows"], 2, "flows (outline format) is not an edition of the rules"),
    (["flows", "vekn"], 2, "flows (outline format) is not an edition of the rules"),
    (["rb", "rb"], 2, "rb against itself: choose two different editions"),
    (["vekn"], 2, "missing NEW"),
    (["vekn", "s6", "--draft", "x.md"], 2, "either NEW or --draft"),
    (["rb", "vekn", "--json", "--html"], 2, "choose one of"),
])
def test_diff_bad_input_is_an_error_message(runner, tmp_path, args, code, message):
    if "{huge}" in args:
        source = paths.rules_dir() / "000_24de3990c1110259.txt"
        huge = tmp_path / "huge.md"
        huge.write_bytes(source.read_bytes() * 7)
        args = [str(huge) if a == "{huge}" else a for a in args]
        message = message.format(size=huge.stat().st_size, most=4 * source.stat().st_size)
    result = diff(runner, *args)
    assert result.exit_code == code
    assert message in result.output
    assert isinstance(result.exception, SystemExit)  # a message, not an uncaught exception


def test_history_text_and_json(runner):
    result = history(runner, "vekn:influence-phase/9")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("History of VEKN")
    assert any(line.startswith("1. RB") and "created" in line for line in lines)
    assert any(line.startswith("3. VEKN") and "edited (meaning)" in line for line in lines)
    data = json.loads(history(runner, "vekn:influence-phase/9", "--json").output)
    assert [e["event"] for e in data["editions"]] == ["created", "outside", "edited"]
    assert data["editions"][2]["signals"][0]["signal"] == "timing"


def test_history_text_of_an_unchanged_then_moved_rule(runner):
    result = history(runner, "rb:6.2.2/9")
    assert result.exit_code == 0, result.output
    heads = [line for line in result.output.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert heads == [
        "1. RB (older tap/untap edition): created as RB §6.2.2 ¶9 [rb:6.2.2/9]",
        "2. S6 (lock/unlock edition, section 6): unchanged as S6 §6.2.2 ¶9 [s6:6.2.2/9]",
        "3. VEKN (VEKN current): moved as VEKN › Summary of the Course of an Action › Stealth and Intercept ¶8 "
        "[vekn:stealth-and-intercept/8]"]
    assert "   moved from s6:6.2.2 to vekn:stealth-and-intercept" in result.output.splitlines()


def test_history_unknown_id(runner):
    result = history(runner, "rb:99.9/9")
    assert result.exit_code == 1 and "no such paragraph" in result.output


def test_diff_ranks_meaning_changes_by_what_they_change_in_one_order_everywhere(runner, client):
    """Withdrawal's one victory point -> 0.5 (an amount, in the tournament rules) is among the first 10 meaning
    changes of RB -> VEKN, in `judge diff --json`, the API and the web page alike."""
    data = json.loads(diff(runner, "rb", "vekn", "--json").output)
    meaning = [p for p in data["pairs"] if p["change"] == "meaning"]
    first = [p["old"] for p in meaning[:10]]
    assert "rb:9.2/6" in first
    withdrawal = meaning[first.index("rb:9.2/6")]
    assert withdrawal["importance"]["what"] == "amount" and "1 -> 0.5" in withdrawal["importance"]["why"]
    # Ranked: the first ten change amounts or permissions; a rewording comes after them all.
    assert {p["importance"]["what"] for p in meaning[:10]} <= {"amount", "permission"}
    assert meaning[-1]["importance"]["what"] == "rewording"
    api = client.get("/api/diff?old=rb&new=vekn").get_json()
    assert [(p["old"], p["new"]) for p in api["pairs"]] == [(p["old"], p["new"]) for p in data["pairs"]]
    html = client.get("/diff?old=rb&new=vekn&change=meaning").get_data(as_text=True)
    shown = [m for m in (line.split('id="pair-', 1)[1].split('"', 1)[0] for line in html.splitlines()
                         if 'id="pair-' in line and "<article" in line)]
    assert shown == [p["old"] for p in meaning][:len(shown)] and len(shown) >= 10


def test_the_diff_text_says_what_each_meaning_change_changes(runner):
    output = diff(runner, "rb", "vekn").output
    head = output[:output.index("WORDING CHANGES")]
    assert "changes numbers and amounts (number: \"one vigtpoint\" -> \"0.5 victory points\" (1 -> 0.5))" in head
    assert head.index("[rb:9.2/6 -> vekn:ending-the-game/12]") < head.index("changes rewording")
