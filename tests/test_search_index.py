"""A damaged search index is never trusted: whatever file of a build is
overwritten, truncated or removed, the next search notices, rebuilds, and
answers as an intact index would (judge/search/index.py)."""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys

import pytest

import judge.search.index as search_index
import judge.search.searcher as search
from judge import memo
from judge.commands.search import search as search_command
from judge.search import Search

QUESTION = "who can block an undirected action"
ANSWER = "can be blocked by the acting Methuselah's prey or predator"


@pytest.fixture(scope="module")
def intact(corpus, tmp_path_factory):
    """An index directory holding one good build, copied by each test before damaging it."""
    root = tmp_path_factory.mktemp("intact-index")
    search_index.build(corpus, root)
    return root


@pytest.fixture
def copy_of(intact, tmp_path):
    root = tmp_path / "index"
    shutil.copytree(intact, root)
    return root, search_index.current_name(root)


def build_dir(root, name):
    return root / f"{search_index.PREFIX}{name}"


def answers_correctly(searcher: Search, corpus) -> None:
    """What an intact index answers: the rule, and the same rule in the other editions."""
    result = searcher.search(QUESTION, limit=5)
    texts = [corpus.paragraphs[h.id].text for h in result.hits] + [
        corpus.paragraphs[e.id].text for h in result.hits for e in h.counterparts]
    assert any(ANSWER in t for t in texts), [h.id for h in result.hits]
    number = searcher.search("6.4.6")
    assert number.direct.id == "s6:6.4.6"
    assert any(e.id.startswith("rb:6.4.6/") for e in number.hits[0].counterparts)  # counterparts.json was read


def overwrite_postings(path):
    (path / search_index.POSTINGS_FILE).write_bytes(b"\x00garbage" * 100)


def flip_one_postings_byte(path):
    # Same size, one bit changed deep inside (a score, a position): numpy would read it without a complaint.
    postings = path / search_index.POSTINGS_FILE
    data = bytearray(postings.read_bytes())
    data[len(data) // 2] ^= 0x01
    postings.write_bytes(bytes(data))


def overwrite_documents(path):
    (path / search_index.DOCUMENTS_FILE).write_text("garbage", encoding="ascii")


def delete_counterparts(path):
    (path / search_index.COUNTERPARTS_FILE).unlink()


def truncate_counterparts(path):
    (path / search_index.COUNTERPARTS_FILE).write_text('{"rb:1/1": [', encoding="utf-8")


def delete_postings(path):
    (path / search_index.POSTINGS_FILE).unlink()


def replace_postings_and_their_digest(path):
    # As a faulty build step would write them: the digest matches, the table is not one.
    postings = path / search_index.POSTINGS_FILE
    postings.write_bytes(b"PK\x03\x04 not a table")
    contents = json.loads((path / search_index.CONTENTS_FILE).read_text(encoding="utf-8"))
    contents["files"][postings.name] = hashlib.sha256(postings.read_bytes()).hexdigest()
    (path / search_index.CONTENTS_FILE).write_text(json.dumps(contents), encoding="utf-8")


def _rewrite_with_its_digest(path, filename, text):
    # As a faulty build step (or a hand edit that also fixed contents.json) would
    # leave it: the digest matches, the content is not what the build writes.
    (path / filename).write_text(text, encoding="utf-8")
    contents = json.loads((path / search_index.CONTENTS_FILE).read_text(encoding="utf-8"))
    contents["files"][filename] = hashlib.sha256((path / filename).read_bytes()).hexdigest()
    (path / search_index.CONTENTS_FILE).write_text(json.dumps(contents), encoding="utf-8")


def counterparts_of_the_wrong_shape_with_their_digest(path):
    _rewrite_with_its_digest(path, search_index.COUNTERPARTS_FILE, '{"rb:6.4.6/2": 5}')


def counterparts_naming_unknown_paragraphs_with_their_digest(path):
    _rewrite_with_its_digest(path, search_index.COUNTERPARTS_FILE, json.dumps(
        {"members": [["vekn:6.4.6/2", "rb:no-such/1"]], "links": [[[0, 1, 0.9]]], "aligned": [["vekn", "rb"]]}))


def counterparts_linking_outside_their_group_with_their_digest(path):
    _rewrite_with_its_digest(path, search_index.COUNTERPARTS_FILE, json.dumps(
        {"members": [["rb:6.4.6/2", "s6:6.4.6"]], "links": [[[0, 2, 0.9]]], "aligned": [["rb", "s6"]]}))


def documents_of_another_corpus_with_their_digest(path):
    documents = json.loads((path / search_index.DOCUMENTS_FILE).read_text(encoding="utf-8"))
    documents["ids"][7] = "vekn:not-in-the-corpus/1"
    _rewrite_with_its_digest(path, search_index.DOCUMENTS_FILE, json.dumps(documents))


def ocr_words_not_a_list_with_their_digest(path):
    _rewrite_with_its_digest(path, search_index.OCR_WORDS_FILE, '{"magaiji": true}')


def delete_contents(path):
    (path / search_index.CONTENTS_FILE).unlink()


def malform_contents(path):
    (path / search_index.CONTENTS_FILE).write_text(json.dumps({"files": ["../x"]}), encoding="utf-8")


DAMAGE = [overwrite_postings, flip_one_postings_byte, overwrite_documents, delete_counterparts, truncate_counterparts,
          delete_postings, replace_postings_and_their_digest, counterparts_of_the_wrong_shape_with_their_digest,
          counterparts_naming_unknown_paragraphs_with_their_digest,
          counterparts_linking_outside_their_group_with_their_digest, documents_of_another_corpus_with_their_digest,
          ocr_words_not_a_list_with_their_digest, delete_contents, malform_contents]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_a_damaged_build_is_rebuilt_and_search_answers(corpus, copy_of, damage, caplog):
    root, damaged = copy_of
    damage(build_dir(root, damaged))
    with caplog.at_level(logging.WARNING, logger="judge.search.index"):
        searcher = Search(corpus, root=root)
    assert "is damaged" in caplog.text and damaged in caplog.text
    answers_correctly(searcher, corpus)
    rebuilt = searcher.built.name
    assert rebuilt != damaged and not build_dir(root, damaged).exists()
    assert search_index.current_name(root) == rebuilt
    search_index.open_built(rebuilt, root)  # the new build passes the check the damaged one failed
    # The next process uses the rebuilt index as it is: no second rebuild.
    assert Search(corpus, root=root).built.name == rebuilt


@pytest.mark.parametrize("damage", [flip_one_postings_byte, overwrite_documents, replace_postings_and_their_digest,
                                    documents_of_another_corpus_with_their_digest], ids=lambda f: f.__name__)
def test_a_build_checked_once_is_trusted_only_while_its_files_stay_as_checked(corpus, copy_of, damage):
    """A build opened and checked in full is sealed (judge/search/sealed.py): the next
    opening trusts that check (the corpus is not asked for again; the same table), but a
    file written since, even with its old
    modification time put back, makes the next opening check everything again."""
    from judge.search import sealed

    root, name = copy_of
    path = build_dir(root, name)
    key = search_index.index_key(corpus)
    first = search_index.open_built(name, root, set(corpus.paragraphs), corpus_key=key)
    assert (path / sealed.SEAL_FILE).exists()
    again = search_index.open_built(name, root, lambda: pytest.fail("the corpus checked again"), corpus_key=key)
    assert again.postings.to_bytes() == first.postings.to_bytes() and again.ids == first.ids
    assert again.counterparts == first.counterparts
    times = {f: (f.stat().st_atime_ns, f.stat().st_mtime_ns) for f in path.iterdir()}
    damage(path)
    for f, (atime, mtime) in times.items():
        if f.exists():
            os.utime(f, ns=(atime, mtime))
    with pytest.raises(search_index.DamagedIndex):
        search_index.open_built(name, root, set(corpus.paragraphs), corpus_key=key)


def test_the_rule_groups_kept_beside_a_build_are_its_counterparts_json(copy_of, caplog):
    """The first opening of a build keeps its rule groups as arrays beside it, and the next
    reads those: the groups counterparts.json holds. Arrays of another counterparts.json
    are made again; damaged ones are logged, and the JSON read again."""
    import numpy as np

    from judge import cachefile
    from judge.search.counterparts import GROUPS_PREFIX, RuleGroups, read_groups

    root, name = copy_of
    path = build_dir(root, name)
    data = (path / search_index.COUNTERPARTS_FILE).read_bytes()
    want = cachefile.decode(RuleGroups, json.loads(data))

    def not_decoded():
        raise AssertionError("counterparts.json decoded again")

    assert search_index.open_built(name, root).counterparts == want and want.links[0]
    [kept] = path.glob(f"{GROUPS_PREFIX}*.npz")
    assert read_groups(path, data, not_decoded) == want
    other = data + b"\n"  # another build's counterparts.json
    assert read_groups(path, other, lambda: want) == want and read_groups(path, other, not_decoded) == want
    with np.load(kept, allow_pickle=False) as arrays:
        parts = {key: arrays[key] for key in arrays.files}
    parts["link_newer"] = parts["link_newer"].copy()
    parts["link_newer"][0] = 10 ** 6
    np.savez(kept, **parts)
    for damaged in (lambda: None, lambda: kept.write_bytes(b"PK\x03\x04 garbage")):
        damaged()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="judge.search.counterparts"):
            assert read_groups(path, other, lambda: want) == want
        assert f"{kept} cannot be used" in caplog.text
    assert read_groups(path, other, not_decoded) == want  # kept again


@pytest.mark.parametrize("pointer", [b"\xff\xfe\x00 not ascii", b"../../etc", b"0123456789abcdef0123-ff\n", b""],
                         ids=["binary", "a path", "a build that is not there", "empty"])
def test_a_damaged_pointer_is_repaired_without_a_rebuild(corpus, copy_of, pointer):
    root, intact_name = copy_of
    (root / search_index.POINTER).write_bytes(pointer)
    searcher = Search(corpus, root=root)
    answers_correctly(searcher, corpus)
    assert searcher.built.name == intact_name  # the intact build on disk, checked, was enough
    assert search_index.current_name(root) == intact_name


def test_a_missing_build_directory_is_rebuilt(corpus, copy_of):
    root, name = copy_of
    shutil.rmtree(build_dir(root, name))
    searcher = Search(corpus, root=root)
    answers_correctly(searcher, corpus)
    assert search_index.current_name(root) == searcher.built.name != name


def test_a_process_searches_the_build_it_made_from_memory_even_once_removed(corpus, tmp_path, monkeypatch):
    """The process that builds the index hands its searcher the tables it has in memory,
    the same as opening the files gives, not read back from the disk once the rebuild
    lock is let go: by then another process may have built again and removed it."""
    root = tmp_path / "index"
    root.mkdir()
    made = search_index.open_or_rebuild(corpus, None, root)
    read = search_index.open_built(made.name, root, set(corpus.paragraphs))
    assert made.postings.to_bytes() == read.postings.to_bytes()
    assert (made.name, made.path, made.ids, made.lengths, made.ocr_words) == \
        (read.name, read.path, read.ids, read.lengths, read.ocr_words)
    assert made.counterparts == read.counterparts

    # another process rebuilds (a newer corpus, `judge search --rebuild`) as soon as this
    # one lets the lock go, and removes this one's build
    build = search_index._build
    others: list[str] = []

    def built_then_replaced(*args):
        mine = build(*args)
        if not others:  # (the other process's own build is a plain one)
            others.append("")
            others.append(search_index.build(corpus, root, force=True))
        return mine

    monkeypatch.setattr(search_index, "_build", built_then_replaced)
    shutil.rmtree(root)
    root.mkdir()
    searcher = Search(corpus, root=root)
    assert others and not build_dir(root, searcher.built.name).exists()
    answers_correctly(searcher, corpus)


def test_a_build_made_by_other_code_is_built_again_not_opened(corpus, copy_of):
    """A build's name starts with its key, which digests the corpus and the code that
    built it: a build of the same corpus by other code (before an upgrade) that the
    pointer names is built again, not searched."""
    root, name = copy_of
    other = "0" * 20 + "-" + name.split("-", 1)[1]
    build_dir(root, name).rename(build_dir(root, other))
    search_index.point_at(root, other)
    searcher = Search(corpus, root=root)
    assert searcher.built.name.startswith(search_index.index_key(corpus) + "-")
    answers_correctly(searcher, corpus)


def test_damage_under_a_running_searcher_does_not_reach_its_searches(corpus, copy_of):
    # A server opened the index; then its files are damaged. It searches from the
    # checked copy in memory, and the next process rebuilds.
    root, name = copy_of
    searcher = Search(corpus, root=root)
    overwrite_postings(build_dir(root, name))
    delete_counterparts(build_dir(root, name))
    answers_correctly(searcher, corpus)
    assert Search(corpus, root=root).built.name != name


def test_a_damaged_build_named_by_a_new_pointer_is_rebuilt(corpus, copy_of, monkeypatch):
    # Another process switches the pointer to a build that turns out damaged:
    # a running searcher following the pointer has it rebuilt, in the background,
    # and answers from the build in memory meanwhile.
    monkeypatch.setattr(search, "POINTER_CHECK_SECONDS", 0)  # every search looks at the pointer
    root, name = copy_of
    searcher = Search(corpus, root=root)
    searcher.search("bleed")
    newer = search_index.build(corpus, root, force=True)
    overwrite_documents(build_dir(root, newer))
    answers_correctly(searcher, corpus)
    assert searcher.settle(timeout=120)
    answers_correctly(searcher, corpus)
    assert searcher.built.name not in (name, newer)


@pytest.mark.parametrize("damage", [overwrite_documents, counterparts_of_the_wrong_shape_with_their_digest],
                         ids=lambda f: f.__name__)
def test_judge_search_on_a_damaged_index_answers(corpus, runner, tmp_path, monkeypatch, damage):
    """`judge search` twice in a scratch JUDGE_INDEX_DIR whose index was damaged
    between the two: the second answers, with a warning, instead of a traceback."""
    from judge.cli import cli

    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path))
    memo.forget_all()  # (searchers of other index directories included)
    first = runner.invoke(search_command, [QUESTION, "--limit", "3"], catch_exceptions=False)
    assert first.exit_code == 0 and "prey or predator" in first.output
    name = search_index.current_name(tmp_path)
    damage(build_dir(tmp_path, name))
    runs = []
    for _ in range(2):
        memo.forget_all()  # as a new process would start
        runs.append(runner.invoke(cli, ["search", QUESTION, "--limit", "3"]))
        assert runs[-1].exit_code == 0 and "prey or predator" in runs[-1].output
        assert "Traceback" not in runs[-1].output
    assert f"warning: the search index {build_dir(tmp_path, name)} is damaged: " in runs[0].stderr
    assert "warning" not in runs[1].stderr  # repaired once, not met again at every run
    assert search_index.current_name(tmp_path) != name


def test_serving_and_searching_read_no_pickle(corpus, intact, tmp_path):
    """Whoosh's files are pickles; the server and the searches read only data
    (JSON, and numpy arrays loaded without pickles). A process with every
    unpickler disabled loads the corpus, opens the index, searches, and serves
    pages from the caches an earlier process wrote."""
    root = tmp_path / "index"
    shutil.copytree(intact, root)
    code = """
import pickle, sys
def refuse(*args, **kwargs):
    raise AssertionError("something unpickled")
class Refused(pickle.Unpickler):
    def __init__(self, *args, **kwargs):
        refuse()
pickle.load = pickle.loads = refuse
pickle.Unpickler = Refused
import _pickle
_pickle.load = _pickle.loads = refuse
from judge.corpus import load_corpus
from judge.search import Search
from judge.web.app import create_app
corpus = load_corpus()
searcher = Search(corpus)
assert searcher.search("who can block an undirected action").hits
client = create_app(corpus).test_client()
for url in ("/search?q=bleed+torpor", "/api/search?q=tap+to+block", "/p/rb:6.4.6/2", "/api/graph/editions/rb:6.4.6/2"):
    assert client.get(url).status_code == 200, url
print("served")
"""
    env = {**os.environ, "JUDGE_INDEX_DIR": str(root)}
    subprocess.run([sys.executable, "-c", "from judge.corpus import load_corpus; load_corpus()"], env=env, check=True)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.split() == ["served"], done.stderr[-3000:]
