"""`pip install .` gives a `judge` that serves the built-in corpus from any directory."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_installed_package_works_from_another_directory(tmp_path):
    target = tmp_path / "site"
    # The dependencies are already in this environment; install only judge itself.
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    assert (target / "judge" / "_bundled" / "rules" / "manifest.yaml").is_file()
    assert (target / "judge" / "_bundled" / "templates" / "base.html").is_file()
    assert (target / "judge" / "_bundled" / "scenarios" / "examples" / "sarah_belinde_dowager.yaml").is_file()
    assert list((target / "judge").glob("search/_speedups.*")), "the wheel lacks judge.search._speedups (hatch_build.py compiles it)"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(PYTHONPATH=str(target), XDG_CACHE_HOME=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "docs", "--json"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert [d["id"] for d in json.loads(out.stdout)] == ["vekn", "s6", "rb", "flows", "rivals"]
    # Built artifacts went to the per-user cache, not the checkout.
    assert any((tmp_path / "cache").rglob("corpus.json"))
    # The web app renders its pages from the templates bundled in the wheel.
    page = subprocess.run(
        [sys.executable, "-c",
         "from judge.web.app import create_app; c = create_app().test_client();"
         "r = c.get('/p/rb:6.4.6/2'); print(r.status_code, 'Damage Resolution' in r.get_data(as_text=True));"
         "print(c.get('/docs/scenarios').status_code, c.get('/check?example=examples/krid_pug.yaml').status_code);"
         "import judge.search.snippets as s; print(s._runs.__module__)"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert page.returncode == 0, page.stderr
    # ... and cuts search snippets with the compiled module installed beside it.
    assert page.stdout.split() == ["200", "True", "200", "200", "judge.search._speedups"]
