"""A command loads only what it needs: `judge show` of the book in force reads the corpus,
never the search index, the concordance or the graph (of an older edition, where the rule
is in force too: from the search build's rule groups when one is on disk, else from the
concordance, building no search index); `judge search` never the graph. Each command
runs in a fresh process of its own, on an empty index directory."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judge.paths import PACKAGE_DIR

RUN = """
import atexit, json, sys
atexit.register(lambda: print("MODULES " + json.dumps(sorted(sys.modules)), file=sys.stderr))
from judge.cli import main
sys.argv = ["judge", *sys.argv[1:]]
main()
"""


def _run(args: list[str], index) -> tuple[set[str], set[str]]:
    """(the modules imported, the index directory's entries afterwards)."""
    env = {"PATH": "/usr/bin:/bin", "JUDGE_INDEX_DIR": str(index), "PYTHONPATH": str(PACKAGE_DIR.parent)}
    done = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stderr.rsplit("MODULES ", 1)[1])
    return set(modules), {p.name for p in index.iterdir()}


@pytest.mark.parametrize("args", [["show", "vekn:bleed/2"], ["toc", "rb"], ["refs", "--status", "broken"]])
def test_reading_the_corpus_opens_no_search_index_concordance_or_graph(args, tmp_path):
    modules, built = _run(args, tmp_path)
    assert not modules & {"judge.search", "judge.graph", "judge.compare.concordance", "networkx", "whoosh", "numpy"}
    assert not any(name.startswith(("search-", "concordance")) for name in built), built
    assert "corpus.json" in built


def test_showing_an_older_edition_reads_the_search_builds_groups_else_the_concordance(tmp_path):
    modules, built = _run(["show", "rb:6.4.6/2", "--json"], tmp_path)
    assert "judge.compare.concordance" in modules  # where the same rule is in the book in force
    assert not modules & {"judge.search", "judge.graph", "networkx", "whoosh"}
    assert not any(name.startswith("search-") for name in built), built
    _run(["search", "bleed"], tmp_path)  # builds the search index
    again, _ = _run(["show", "rb:6.4.6/2", "--json"], tmp_path)
    assert "judge.search" in again and not again & {"judge.compare.concordance", "judge.graph", "networkx"}


def test_a_search_builds_no_graph_and_no_alignment_twice(tmp_path):
    modules, built = _run(["search", "tap to block"], tmp_path)
    assert "judge.graph" not in modules and "networkx" not in modules
    assert any(name.startswith("search-") for name in built) and "concordance.json" in built
    modules, again = _run(["search", "bleed"], tmp_path)  # warm: the index is read, nothing aligned
    assert "judge.compare.alignment" not in modules and again == built
