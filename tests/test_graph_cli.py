"""`judge graph ...` through click's CliRunner, on the real corpus."""
from __future__ import annotations

import json

import networkx as nx
import pytest

from judge.cli import cli


def run(runner, *args):
    return runner.invoke(cli, ["graph", *args])


def test_related_json_and_text(runner):
    result = run(runner, "related", "vekn:resolve-any-block-attempts", "-k", "10", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert len(rows) == 10
    for row in rows:
        assert set(row) == {"id", "kind", "label", "doc", "score", "path", "same_rule", "reason", "relation"}
        assert all(set(hop) == {"from", "to", "kind", "reverse", "text"} for hop in row["path"])
    text = run(runner, "related", "vekn:resolve-any-block-attempts", "-k", "3").output
    assert text.startswith(" 1. ") and rows[0]["label"] in text and rows[0]["path"][0]["text"] in text


def test_path_json_and_text(runner):
    result = run(runner, "path", "rb:6.1.1/3", "vekn:stealth-and-intercept/3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["from"]["id"] == "rb:6.1.1/3" and found["to"]["id"] == "vekn:stealth-and-intercept/3"
    assert len(found["nodes"]) == len(found["hops"]) + 1
    text = run(runner, "path", "rb:6.1.1/3", "vekn:stealth-and-intercept/3").output
    assert f"{len(found['hops'])} hops" in text and found["hops"][-1]["text"] in text
    none = run(runner, "path", "vekn:bleed", "rivals:glossary")
    assert none.exit_code == 1 and "nothing links" in none.output


def test_editions_json_and_text(runner):
    result = run(runner, "editions", "RB §6.1.1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["id"] == "rb:6.1.1"
    assert {r["id"] for r in data["editions"]} == {"s6:6.1.1", "vekn:bleed"}
    text = run(runner, "editions", "rb:6.1.1").output
    assert "[vekn:bleed]" in text and "Outline steps:" in text


def test_stats_backlinks_orphans_hubs_neighbourhood(runner):
    stats = json.loads(run(runner, "stats", "--json").output)
    assert stats["nodes"] > 2000 and set(stats["edge_kinds"]) >= {"cites", "same-rule", "step-cites"}
    assert "nodes," in run(runner, "stats").output
    back = json.loads(run(runner, "backlinks", "rb:6.4.6", "--json").output)
    assert any(r["id"].startswith("flows:") and r["relation"] == "direct" for r in back)
    orphans = json.loads(run(runner, "orphans", "--doc", "s6", "--json").output)
    assert orphans and all(r["doc"] == "s6" for r in orphans)
    hubs = json.loads(run(runner, "hubs", "-k", "3", "--json").output)
    assert len(hubs) == 3 and hubs[0]["cited_by"] >= hubs[-1]["cited_by"]
    near = json.loads(run(runner, "neighbourhood", "vekn:bleed/8", "--json").output)
    assert near["center"] == "vekn:bleed/8" and near["nodes"][0]["distance"] == 0


@pytest.mark.parametrize("fmt", ["graphml", "json"])
def test_export_to_a_file_loads_back(runner, tmp_path, fmt):
    out = tmp_path / f"graph.{fmt}"
    result = run(runner, "export", "--format", fmt, "--output", str(out), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    loaded = (nx.read_graphml(out, force_multigraph=True) if fmt == "graphml"
              else nx.node_link_graph(json.loads(out.read_text(encoding="utf-8"))))
    assert (loaded.number_of_nodes(), loaded.number_of_edges()) == (summary["nodes"], summary["edges"])


def test_export_json_to_stdout_is_node_link(runner):
    result = run(runner, "export", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert {"nodes", "edges", "directed", "multigraph"} <= set(data) and data["multigraph"] is True


def test_orphans_text_counts_first_then_groups(runner):
    rows = json.loads(run(runner, "orphans", "--json").output)
    lines = run(runner, "orphans").output.splitlines()
    assert lines[0] == f"{len(rows)} orphans: paragraphs that nothing cites and that cite nothing"
    vekn = [r for r in rows if r["doc"] == "vekn"]
    summary = next(line for line in lines[1:] if line.split()[0] == "vekn")
    assert summary.split()[1] == str(len(vekn)) and f"{sum(r['para_kind'] == 'rule' for r in vekn)} rule" in summary
    heading = lines.index(f"vekn · rule ({sum(r['para_kind'] == 'rule' for r in vekn)})")
    first = next(r for r in vekn if r["para_kind"] == "rule")
    assert lines[heading + 1].startswith(f"  {first['label']}  [{first['id']}]  ")
    assert "[" not in "".join(lines[1:heading - 1])  # the counts come before any paragraph


def test_orphans_filters_and_summary(runner):
    examples = json.loads(run(runner, "orphans", "--doc", "vekn", "--kind", "example", "--kind", "flavor",
                              "--json").output)
    assert examples and {(r["doc"], r["para_kind"]) for r in examples} == {("vekn", "example"), ("vekn", "flavor")}
    summary = json.loads(run(runner, "orphans", "--summary", "--json").output)
    rows = json.loads(run(runner, "orphans", "--json").output)
    assert sum(sum(kinds.values()) for kinds in summary.values()) == len(rows)
    assert summary["s6"]["rule"] == sum(1 for r in rows if r["doc"] == "s6" and r["para_kind"] == "rule")
    text = run(runner, "orphans", "--summary").output
    assert len(text.splitlines()) == 1 + len(summary)


def test_export_to_an_unwritable_place_is_a_bad_argument(runner, tmp_path):
    for target, why in [(tmp_path / "missing" / "graph.json", "no directory"),
                        (tmp_path, "is a directory")]:
        result = run(runner, "export", "--format", "json", "-o", str(target))
        assert result.exit_code == 2, result.output
        assert why in result.output and "Traceback" not in result.output
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("args, code, message", [
    (["related", "no:such/1"], 1, "no such paragraph"),
    (["related", "vekn"], 2, "whole document"),
    (["editions", "term:vtes:bleed"], 2, "glossary term"),
    (["orphans", "--doc", "nope"], 2, "no document"),
    (["related", "vekn:bleed", "-k", "0"], 2, "Invalid value"),
    (["export", "--format", "dot"], 2, "Invalid value"),
    (["export", "--format", "json", "--json"], 2, "give --output"),
])
def test_bad_input_is_an_error_message_not_a_traceback(runner, args, code, message):
    result = run(runner, *args)
    assert result.exit_code == code, result.output
    assert message in result.output and "Traceback" not in result.output
