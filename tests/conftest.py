"""Shared fixtures: the real corpus, loaded once per test session."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from judge import paths

RULES = paths.rules_dir()


@pytest.fixture(scope="session")
def corpus():
    from judge.corpus import load_corpus

    return load_corpus()


@pytest.fixture
def rules_copy(tmp_path, monkeypatch) -> Path:
    """A private copy of rules/ (and a private index dir) that a test may damage."""
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    monkeypatch.setenv("JUDGE_RULES_DIR", str(copy))
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path / "index"))
    return copy


@pytest.fixture
def data_copy(tmp_path, monkeypatch) -> Path:
    """A private copy of judge's data files (synonyms.yaml, terminology.yaml) that a test may damage."""
    copy = tmp_path / "data"
    shutil.copytree(paths.data_dir(), copy)
    monkeypatch.setenv("JUDGE_DATA_DIR", str(copy))
    return copy


@pytest.fixture
def runner():
    from click.testing import CliRunner

    return CliRunner()


def start_judge_serve(*args: str, new_session: bool = False, wait: float = 120) -> tuple[subprocess.Popen, str, str]:
    """`bench.server.spawn`, failing the test with the server's log when it does not start."""
    from bench.server import DidNotStart, spawn
    try:
        return spawn(*args, new_session=new_session, wait=wait)
    except DidNotStart as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def app(corpus):
    """The web app on the real corpus (judge.web.create_app)."""
    from judge.web.app import create_app

    return create_app(corpus)


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()
