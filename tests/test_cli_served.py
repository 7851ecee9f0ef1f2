"""What the command line reads instead of everything (docs/scale.md, "Phase 3"): the corpus
served by ID from SQLite (judge/served.py), a searcher's per-paragraph state saved beside
its build (judge/search/state.py), and the card names alone (card-names.json). Each gives
the answers the whole corpus, a state worked out afresh and the whole card base give, and
each, damaged, is written again or reported, never trusted."""
from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys

import pytest
import yaml

import judge.search.state as search_state
from judge import served
from judge.cards import get_cards
from judge.cards.load import CardNames
from judge.cards.query import card_answer, no_card_answer
from judge.paths import PACKAGE_DIR
from judge.search import Search
from judge.shapes import show_data

ROOT = PACKAGE_DIR.parent
IDENTS = ["rb:6.4.6/2", "vekn:bleed", "vekn:bleed/2", "6.4.6", "IV.D.2", "RB §6.4.6 ¶2", "torpor", "rb 9.2",
          "https://www.vekn.net/rulebook/4-detailed-turn-sequence#bleed", "s6:6.4.6", "rivals:1", "RB:6.4.6/2"]


def gold_questions() -> list[str]:
    return [str(q["q"]) for q in yaml.safe_load((ROOT / "tests" / "search_gold.yaml").read_text("utf-8"))["questions"]]


def test_the_served_corpus_and_saved_state_answer_as_the_whole_corpus(corpus, tmp_path, caplog):
    assert served.write(corpus, tmp_path)
    lazy = served.open_served(corpus.digest, tmp_path)
    assert lazy is not None and served.open_served("another digest", tmp_path) is None
    # Membership as a cache's check asks it (before any row is read), for every ID and for others.
    fresh = served.open_served(corpus.digest, tmp_path)
    assert all(p in fresh.paragraphs for p in corpus.paragraphs) and all(s in fresh.sections for s in corpus.sections)
    assert not any(x in fresh.paragraphs or x in fresh.sections for x in ("rb:9.9.9/9", "vekn:no-such", 7, None))
    # Item by item, and the look-ups judge show makes.
    some = list(corpus.paragraphs)[::5]
    assert [lazy.paragraphs[p] for p in some] == [corpus.paragraphs[p] for p in some]
    assert list(lazy.paragraphs) == list(corpus.paragraphs) and list(lazy.sections) == list(corpus.sections)
    assert [d.meta for d in lazy.documents.values()] == [d.meta for d in corpus.documents.values()]
    assert [lazy.documents["rb"].paragraphs, lazy.documents["rb"].sections] == \
        [corpus.documents["rb"].paragraphs, corpus.documents["rb"].sections]
    assert all(lazy.term_links.get(p) == corpus.term_links.get(p) for p in some)
    for ident in IDENTS:
        assert show_data(lazy, ident) == show_data(corpus, ident), ident
    # A searcher on the served corpus reading the state a searcher on the whole corpus saved.
    whole = Search(corpus, tmp_path)
    build = whole.built.path
    saved = search_state.state_path(build)
    assert saved.is_file()
    again = Search(lazy, tmp_path)
    queries = gold_questions()[:40] + ["6.4.6", "rb:6.4.6/2", "tap", "diablerize", "govern the unaligned"]
    expected = [whole.search(q).to_json() for q in queries]
    assert [again.search(q).to_json() for q in queries] == expected
    # A damaged state is worked out again (logged; from the corpus loaded whole), and answers the same.
    saved.write_bytes(b"PK\x03\x04 not arrays")
    with caplog.at_level(logging.WARNING, logger="judge.search.state"):
        fresh = Search(served.open_served(corpus.digest, tmp_path), tmp_path)
    assert "is damaged" in caplog.text
    assert [fresh.search(q).to_json() for q in queries[:10]] == expected[:10]
    assert search_state._read(saved, len(fresh.built.ids), search_state.build_key(build)) is not None  # saved anew


def run_judge(index, *args):
    env = {"PATH": "/usr/bin:/bin", "JUDGE_INDEX_DIR": str(index), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args], capture_output=True,
                          text=True, env=env, timeout=600)


def test_a_damaged_served_corpus_is_written_again_or_reported(corpus, tmp_path):
    index = tmp_path / "index"
    index.mkdir()
    first = run_judge(index, "show", "rb:6.4.6/2", "--json")  # the corpus built whole; the served form written
    assert first.returncode == 0 and (index / served.FILE_NAME).is_file()
    assert json.loads(first.stdout) == show_data(corpus, "rb:6.4.6/2")
    (index / served.FILE_NAME).write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    broken_file = run_judge(index, "show", "rb:6.4.6/2", "--json")
    assert broken_file.returncode == 0 and broken_file.stdout == first.stdout
    assert "served corpus" in broken_file.stderr and "damaged" in broken_file.stderr  # and written again:
    assert served.open_served(corpus.digest, index) is not None
    with sqlite3.connect(index / served.FILE_NAME) as db:
        db.execute("UPDATE paragraphs SET data = '{\"id\": 5}' WHERE id = 'rb:6.4.6/2'")
    broken_row = run_judge(index, "show", "rb:6.4.6/2")
    assert broken_row.returncode == 2 and "Traceback" not in broken_row.stderr
    assert "served corpus" in broken_row.stderr and "rb:6.4.6/2" in broken_row.stderr
    assert run_judge(index, "show", "rb:6.4.6/2", "--json").stdout == first.stdout  # removed, then written again


def test_the_card_names_alone_say_no_card_only_where_the_card_base_finds_none(corpus):
    base = get_cards(corpus)
    names = CardNames.of(base)
    cards = list(base.cards.values())[::97]
    queries = gold_questions() + [c.name for c in cards] + [c.name.lower()[:-1] for c in cards] + \
        [f"{c.name} ruling" for c in cards[:10]] + [" ".join(c.name.split()[:2]) for c in cards] + \
        ["govrn the unalined", "govern the unaligned", "100845", "card:100845", "theo bell (adv)", "", "x" * 300]
    skipped = 0
    for searched in [("cards", "rulings"), ("rulings",), ("cards",)]:
        for q in queries:
            quick = no_card_answer(names, q, searched)
            if quick is not None:
                skipped += 1
                assert quick.to_json() == card_answer(base, q, searched).to_json(), (q, searched)
                assert not quick.matches
    assert skipped >= 3 * len(gold_questions()) * 0.8  # rules questions do not read the card base
