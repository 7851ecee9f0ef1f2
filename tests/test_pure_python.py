"""The search on its Python references alone: the search's tests again, in a
pytest of their own with JUDGE_PURE_PYTHON=1, which makes judge ignore the
compiled twins (judge.search._speedups) as a machine without a C compiler would
have to. The answers must be the same either way (tests/test_speedups.py holds
each twin equal to its reference); this runs the path itself."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tests whose answers go through a compiled twin (snippets, phrases: the gold sets' answers, the pages' snippets,
# the matching table against Whoosh's), and the one checking which implementation runs. (The index's rebuilds and
# its other tests run no twin: run twice, they took half of this test's time.)
SEARCH_TESTS = ["tests/test_speedups.py", "tests/test_search_quality.py", "tests/test_web_search.py",
                "tests/test_search_postings.py::test_the_table_answers_as_whoosh_does",
                "tests/test_search_postings.py::test_facets_count_the_matches_most_first_ties_in_rank_order"]


def test_the_search_tests_pass_on_the_python_references():
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *SEARCH_TESTS],
                         cwd=ROOT, env={**os.environ, "JUDGE_PURE_PYTHON": "1"}, capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]  # "60 passed in 20.12s"
    assert re.fullmatch(r"\d+ passed in .*", summary), summary  # nothing skipped, nothing deselected
