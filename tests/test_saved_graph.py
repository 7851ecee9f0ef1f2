"""The rule graph's walk saved as arrays (judge.graph.saved): the same related rules as the
graph built in memory, on the real corpus; the CLI reading it; stale and damaged files."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from judge import graph as rule_graph
from judge.graph import saved as saved_graph
from judge.cli import cli
from judge.errors import JudgeError
from judge.paths import PACKAGE_DIR


@pytest.fixture(scope="module")
def built(corpus, tmp_path_factory):
    """(the graph built in memory, the same graph saved and read back)."""
    graph = rule_graph.get_graph(corpus)
    root = tmp_path_factory.mktemp("saved-graph")
    assert saved_graph.save(graph, root)
    saved = saved_graph.open_saved(corpus, root)
    assert saved is not None
    return graph, saved, root


def test_the_saved_graph_answers_related_as_the_graph_built_in_memory(corpus, built):
    graph, saved, _ = built
    terms = sorted(n for n in graph.g if n.startswith("term:"))
    idents = [*(s.id for s in corpus.documents["vekn"].sections), *list(corpus.paragraphs)[::15], *terms[::4],
              "RB §6.1.1", "rb:6.4.6/2"]
    assert len(idents) > 250
    for n, ident in enumerate(idents):
        k = 30 if n % 10 == 0 else 10
        assert rule_graph.related(saved, ident, k) == rule_graph.related(graph, ident, k), ident
        node = rule_graph.node_of(graph, ident)
        assert saved.counterpart_ids(node) == graph.counterpart_ids(node), node
    # the procedure's edges and a section's results too (a step with a next and a previous step)
    assert any(r["relation"] in ("next-step", "previous-step")
               for r in rule_graph.related(saved, "vekn:resolve-any-block-attempts"))
    for bad in ("vekn", "no:such/1", "term:vtes:nosuch"):
        with pytest.raises(JudgeError) as expected:
            rule_graph.related(graph, bad)
        with pytest.raises(JudgeError) as got:
            rule_graph.related(saved, bad)
        assert str(got.value) == str(expected.value)
    # the whole-graph answers, filtered as each command asks
    assert rule_graph.stats(saved) == rule_graph.stats(graph)
    for doc, kinds in [(None, ()), ("s6", ()), ("rb", ("rule",)), (None, ("glossary", "rule"))]:
        assert rule_graph.orphans(saved, doc, kinds) == rule_graph.orphans(graph, doc, kinds)
    for k, doc in [(20, None), (1000, None), (7, "vekn"), (20, "flows")]:
        assert rule_graph.hubs(saved, k, doc) == rule_graph.hubs(graph, k, doc)
    # the key follows the terminology map the concordance reads (found without importing it)
    from judge.compare.terminology import terminology_file
    assert saved_graph.terminology_file() == terminology_file()


def test_a_stale_or_damaged_saved_graph_is_not_used(corpus, built, tmp_path, caplog):
    _, _, root = built
    with np.load(root / saved_graph.FILE_NAME) as npz:
        arrays = {name: npz[name] for name in npz.files}
    path = tmp_path / saved_graph.FILE_NAME
    np.savez(path, **{**arrays, "key": np.frombuffer(b"0" * 64, dtype=np.uint8)})
    assert saved_graph.open_saved(corpus, tmp_path) is None  # another corpus's: not used, nothing logged
    assert not caplog.records
    damaged = [{**arrays, "costs_indices": arrays["costs_indices"] + 10 ** 6},
               {**arrays, "labels": arrays["labels"][:-40]},
               {**arrays, "hops": arrays["hops"][:10]},
               {name: a for name, a in arrays.items() if name != "link_to"}]
    for n, form in enumerate(damaged):
        np.savez(path, **form)
        assert saved_graph.open_saved(corpus, tmp_path) is None, n
    answers = json.loads(bytes(arrays["whole_answers"]))
    answers["hubs"][3]["cited_by"] = "many"
    np.savez(path, **{**arrays, "whole_answers": np.frombuffer(json.dumps(answers).encode(), dtype=np.uint8)})
    assert saved_graph.open_saved(corpus, tmp_path) is not None  # what `related` reads is sound
    assert saved_graph.open_saved(corpus, tmp_path, answers=True) is None
    path.write_bytes((root / saved_graph.FILE_NAME).read_bytes()[:5000])  # cut short
    assert saved_graph.open_saved(corpus, tmp_path) is None
    assert sum("is damaged" in r.getMessage() for r in caplog.records) == len(damaged) + 2


def test_the_cli_saves_the_graph_then_reads_it_and_rewrites_a_damaged_one(rules_copy, runner, tmp_path):
    index = tmp_path / "index"
    args = ["graph", "related", "vekn:resolve-any-block-attempts", "-k", "12", "--json"]
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert (index / saved_graph.FILE_NAME).is_file()
    text = runner.invoke(cli, args[:-1]).output
    rule_graph._GRAPHS.clear()
    again = runner.invoke(cli, args)
    assert again.output == first.output and runner.invoke(cli, args[:-1]).output == text
    assert not rule_graph._GRAPHS  # read from the saved arrays: no graph built
    # a process of its own: the same answer, without networkx, the concordance or the corpus whole
    run = ("import atexit, json, sys; atexit.register(lambda: print('MODULES ' + json.dumps(sorted(sys.modules)), "
           "file=sys.stderr)); from judge.cli import main; sys.argv = ['judge', *sys.argv[1:]]; main()")
    env = {"PATH": "/usr/bin:/bin", "JUDGE_INDEX_DIR": str(index), "JUDGE_RULES_DIR": str(rules_copy),
           "PYTHONPATH": str(PACKAGE_DIR.parent)}
    done = subprocess.run([sys.executable, "-c", run, *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stdout == first.output, done.stderr
    modules = set(json.loads(done.stderr.rsplit("MODULES ", 1)[1]))
    assert not modules & {"networkx", "judge.compare.concordance", "judge.compare.alignment"}, modules
    assert "judge.graph.saved" in modules
    (index / saved_graph.FILE_NAME).write_bytes(b"PK\x03\x04 not a zip")
    damaged = runner.invoke(cli, args)
    assert damaged.exit_code == 0 and damaged.output.endswith(first.output), damaged.output
    warning, _ = damaged.output.split("\n", 1)  # said on stderr, then the same answer
    assert "rule-graph.npz is damaged" in warning and "building the graph again" in warning
    assert "Traceback" not in damaged.output and len(json.loads(first.output)) == 12
    assert rule_graph._GRAPHS  # built again, and saved again for the next command
    from judge.corpus import get_corpus
    assert saved_graph.open_saved(get_corpus(), index) is not None
