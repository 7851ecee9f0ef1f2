"""`judge search` (judge/commands/search.py): its output, its JSON contract, --stdin."""
from __future__ import annotations

import json

import pytest

from judge.commands.search import search


@pytest.fixture
def invoke(runner, rules_copy):
    """Run the command on a private copy of the corpus and index (the index gets built once)."""
    def run(*args, input=None):
        return runner.invoke(search, list(args), input=input, catch_exceptions=False)
    return run


def test_search_command(invoke):
    plain = invoke("who can block an undirected action", "--limit", "3")
    assert plain.exit_code == 0, plain.output
    assert "prey or predator" in plain.output and "[vekn:" in plain.output

    data = json.loads(invoke("diablerize", "--doc", "s6,rb", "--json").output)
    assert data["query"] == "diablerize" and data["hits"]
    for hit in data["hits"]:
        assert {"id", "doc", "label", "text", "score", "snippet"} <= set(hit)
        assert hit["doc"] in ("s6", "rb")
    assert "<mark>" in data["hits"][0]["snippet"]

    grouped = invoke("damage prevention cards one at a time", "--limit", "3")
    assert grouped.exit_code == 0 and "    also: " in grouped.output  # the same rule in other editions

    direct = json.loads(invoke("IV.D.2", "--json").output)
    assert direct["direct"]["id"].startswith("flows:IV.D.2")

    nothing = invoke("xqzzyv")
    assert nothing.exit_code == 1 and "no paragraph matches" in nothing.output

    bad = invoke("bleed", "--kind", "nonsense")
    assert bad.exit_code == 1 and "unknown kind 'nonsense'" in bad.output

    lines = invoke("--stdin", "--limit", "2", input='tap\n\n"unbalanced\n<script>\n6.4.6\n').output.splitlines()
    results = [json.loads(line) for line in lines]
    assert [r["query"] for r in results] == ["tap", "", '"unbalanced', "<script>", "6.4.6"]
    assert results[0]["hits"] and len(results[0]["hits"]) <= 2
    assert results[1]["message"] and not results[1]["hits"]
    assert results[4]["direct"]["id"] == "s6:6.4.6"


def test_hostile_queries_through_the_command(invoke):
    from tests.test_search import HOSTILE

    lines = invoke("--stdin", input="".join(q + "\n" for q in HOSTILE)).output.splitlines()
    assert len(lines) == len(HOSTILE)
    for query, line in zip(HOSTILE, lines):
        result = json.loads(line)
        assert result["hits"] or result["message"], query
    long = invoke("bleed " * 2000)
    assert long.exit_code == 0 and "note: query shortened" in long.output


def test_search_command_usage_errors(runner):
    assert runner.invoke(search, []).exit_code == 2
    assert runner.invoke(search, ["bleed", "--stdin"], input="x\n").exit_code == 2
    assert runner.invoke(search, ["bleed", "--limit", "0"]).exit_code == 2
