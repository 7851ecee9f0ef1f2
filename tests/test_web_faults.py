"""A fault of the server's own files is the server's: a 500, logged with its
file, line and reason, telling the visitor no path of the server; the
visitor's own mistakes stay 400 (judge/web/errors.py)."""
from __future__ import annotations

import logging

import pytest

from judge.web.app import create_app


@pytest.fixture
def app(corpus):
    return create_app(corpus, config={"RESPONSE_CACHE_BYTES": 0})


def test_a_broken_data_file_with_no_good_copy_is_a_logged_500(app, data_copy, caplog):
    """A process that never read the synonyms file whole (nothing to fall back on)
    meets it broken: not the visitor's bad request."""
    path = data_copy / "synonyms.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.strip() == "- terms: [mend, heal]")
    path.write_text(text.replace("- terms: [mend, heal]", "- terms: [mend]"), encoding="utf-8")
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="judge.web"):
        api = client.get("/api/search?q=tap+a+minion")
        page = client.get("/search?q=tap+a+minion")
    assert api.status_code == 500 and page.status_code == 500
    assert api.get_json() == {"error": "the server could not answer: one of its own files is damaged or missing; "
                                       "the fault has been logged", "status": 500}
    for answer in (api, page):
        body = answer.get_data(as_text=True)
        assert str(data_copy) not in body and "synonyms.yaml" not in body and "Traceback" not in body
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(logged) == 2
    assert all(f"failed on a fault of the server's files: synonyms.yaml:{line}: group 5: 'terms' must list two "
               "or more words or phrases" in message for message in logged)


def test_an_index_directory_that_cannot_be_used_is_a_logged_500(app, tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(blocker / "index"))
    with caplog.at_level(logging.ERROR, logger="judge.web"):
        answer = app.test_client().get("/api/search?q=bleed")
    assert answer.status_code == 500
    assert str(tmp_path) not in answer.get_data(as_text=True)
    assert f"{blocker / 'index'}: cannot use it to store built artifacts" in caplog.text  # the log names it


@pytest.mark.parametrize("url", ["/api/graph/neighbourhood/rb:6.4.6/2?radius=9", "/api/diff?old=rb&new=rb",
                                 "/api/search?q=bleed&doc=nosuch",
                                 "/api/graph/editions/vekn"])  # (judge.graph's JudgeError: a document is no rule)
def test_the_visitor_s_own_mistakes_stay_400(app, url, caplog):
    with caplog.at_level(logging.ERROR, logger="judge.web"):
        answer = app.test_client().get(url)
    assert answer.status_code == 400 and answer.get_json()["error"]
    assert not caplog.records  # nothing wrong on the server's side


def test_an_unexpected_error_is_logged_with_its_traceback(app, caplog):
    def broken():
        {}["the cause"]  # a KeyError as a bug would raise it
    app.add_url_rule("/broken", "broken", broken)
    with caplog.at_level(logging.ERROR, logger="judge.web"):
        answer = app.test_client().get("/api/broken")
        page = app.test_client().get("/broken")
    assert page.status_code == 500 and b"the cause" not in page.data
    assert answer.status_code == 404
    (record,) = caplog.records
    assert record.getMessage() == "unexpected error on /broken" and record.exc_info[0] is KeyError
