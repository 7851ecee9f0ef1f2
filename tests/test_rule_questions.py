"""The questions each rule answers (judge/data/questions, issue 36): checked at load against the corpus, every
paragraph in scope covered, and a stale or misplaced entry refused with its file and line."""
from __future__ import annotations

import shutil

import pytest

from judge.errors import SourceError
from judge.search.questions import coverage, in_scope, load_questions, questions_dir


@pytest.fixture(scope="module")
def found(corpus):
    return load_questions(corpus)


def test_every_paragraph_in_scope_has_its_questions(corpus, found):
    scope = in_scope(corpus)
    kinds = {(corpus.paragraphs[p].doc, corpus.paragraphs[p].kind) for p in scope}
    assert {("vekn", "rule"), ("vekn", "glossary"), ("vekn", "advanced"), ("vekn", "tournament"),
            ("rivals", "rule"), ("rivals", "glossary"), ("flows", "outline-step")} <= kinds
    assert not {d for d, _ in kinds} - {"vekn", "rivals", "flows"}  # no older edition
    assert coverage(corpus, found) == []
    assert len(scope) > 1200 and found.count("vekn") > 2000 and found.count("rivals") > 900
    flows = [p for p in scope if p.startswith("flows:")]
    assert all(p in found.questions or p in found.restates for p in flows)
    assert any(p in found.questions for p in flows)  # the steps the book does not state


def test_the_projects_files_have_nothing_set_aside(found):
    assert found.set_aside == []


@pytest.mark.parametrize("name, content, words", [
    ("rb.yaml", "- id: rb:6.4.6/2\n  questions: [who may block]\n", "rb.yaml:1: 'rb' is an older edition"),
    ("flows.yaml", "- id: flows:introduction/1\n  restates: rb:6.4.6/2\n",
     "flows.yaml:1: flows:introduction/1 restates rb:6.4.6/2, of a book not in force"),
])
def test_what_the_corpus_made_unfit_is_set_aside_with_its_line(corpus, tmp_path, name, content, words):
    """A file of a book a newer edition replaced, or a restatement of such a book's paragraph, is no
    fault of the file's words: the search still answers, without them, and says where they are."""
    folder = tmp_path / "q"
    folder.mkdir()
    (folder / name).write_text(content, encoding="utf-8")
    found = load_questions(corpus, folder)
    assert not found.questions and not found.restates
    assert [why for why in found.set_aside if why.startswith(words)], found.set_aside


def test_questions_are_short_and_distinct(found):
    for pid, questions in found.questions.items():
        assert len({q.casefold() for q in questions}) == len(questions), pid
        assert all(0 < len(q) <= 200 for q in questions)


def copy_of(tmp_path):
    folder = tmp_path / "questions"
    shutil.copytree(questions_dir(), folder)
    return folder


def refused(corpus, folder) -> SourceError:
    with pytest.raises(SourceError) as caught:
        load_questions(corpus, folder)
    return caught.value


def test_a_stale_id_is_refused_with_its_file_and_line(corpus, tmp_path):
    folder = copy_of(tmp_path)
    path = folder / "vekn.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- id: vekn:master-phase/2\n", "- id: vekn:master-phase/99\n"), encoding="utf-8")
    line = text[:text.index("- id: vekn:master-phase/2\n")].count("\n") + 1
    error = refused(corpus, folder)
    assert (error.file, error.line) == ("vekn.yaml", line) and "vekn:master-phase/99" in str(error)


@pytest.mark.parametrize("name, content, words", [
    ("vekn.yaml", "- id: vekn:master-phase/2\n  questions: [a]\n- id: vekn:master-phase/2\n  questions: [b]\n",
     "given again"),
    ("vekn.yaml", "- id: rivals:glossary/4\n  questions: [a]\n", "must be a paragraph of vekn"),
    ("flows.yaml", "- id: flows:introduction/1\n  restates: vekn:no-such-section\n", "book in force"),
    ("vekn.yaml", "- id: vekn:master-phase/2\n  questions: []\n", "one or more"),
    ("vekn.yaml", "- id: vekn:master-phase/2\n  questions: [a]\n  restates: vekn:bleed/2\n", "one of the two"),
    ("nosuchbook.yaml", "[]\n", "no document"),
])
def test_a_misplaced_entry_is_refused_with_its_line(corpus, tmp_path, name, content, words):
    folder = tmp_path / "q"
    folder.mkdir()
    (folder / name).write_text(content, encoding="utf-8")
    error = refused(corpus, folder)
    assert error.file == name and error.line >= 1 and words in str(error)
