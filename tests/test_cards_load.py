"""The card base on the real krcg data: every card and ruling loads (counted here
from the files themselves), the rulebook references resolve to the current book,
and the cache gives back what a build gives."""
from __future__ import annotations

import csv
import json
import re

import pytest
import yaml

from judge import lookup
from judge.cards import load_cards, source
from judge.cards.load import CACHE_NAME
from judge.cards.model import BROKEN, RESOLVED


@pytest.fixture(scope="module")
def cards(corpus):
    return load_cards(corpus)


def data_file(name: str):
    return source.default_folder() / name


def csv_rows(name: str) -> int:
    with open(data_file(name), encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    return sum(1 for row in rows[1:] if row)


def test_every_card_of_the_lists_loads(cards):
    counts = cards.counts()
    assert counts["crypt"] == csv_rows(source.CRYPT_FILE) > 1500
    assert counts["library"] == csv_rows(source.LIBRARY_FILE) > 2000
    assert len({c.slug for c in cards.cards.values()}) == len(cards.cards)


def test_every_ruling_reference_and_group_loads(cards):
    rulings = yaml.safe_load(data_file(source.RULINGS_FILE).read_text(encoding="utf-8"))
    references = yaml.safe_load(data_file(source.REFERENCES_FILE).read_text(encoding="utf-8"))
    groups = yaml.safe_load(data_file(source.GROUPS_FILE).read_text(encoding="utf-8"))
    assert len(cards.rulings) == sum(len(v) for v in rulings.values()) > 2000
    assert len(cards.references) == len(references) > 1500
    assert len(cards.groups) == len(groups) > 100
    # every ruling is filed under its key's card or group, and applies to it
    owners = {("card:" if k[0].isdigit() else "group:") + k.split("|")[0] for k in rulings}
    assert {r.owner for r in cards.rulings.values()} == owners
    group_rulings = [r for r in cards.rulings.values() if r.group]
    assert group_rulings and all(r.cards == cards.groups[r.group].cards for r in group_rulings)


def test_the_real_data_has_only_the_problems_it_has(cards):
    # The krcg data as installed: a misplaced clan in the Praxis Seizures' capacity
    # column, and one ruling citing a reference the references file lacks.
    by_code = {}
    for p in cards.problems:
        by_code.setdefault(p.code, []).append(p)
    assert set(by_code) <= {"bad-value", "unknown-reference", "rbk-unresolved"}, [str(p) for p in cards.problems]
    assert all(p.line > 0 and p.file and p.message for p in cards.problems)


def test_rulebook_references_resolve_to_the_current_book(cards, corpus):
    rbk = [r for r in cards.references.values() if r.source == "RBK"]
    resolved = [r for r in rbk if r.status == RESOLVED]
    assert len(rbk) > 100
    assert len(resolved) / len(rbk) >= 0.95
    assert all(corpus.document_of(r.resolves_to).id == cards.book == "vekn" for r in resolved)
    for ref in rbk:
        if ref.status == BROKEN:  # each with its precise reason, and listed for lint
            assert ref.reason and ref.resolves_to is None
            assert any(p.code == "rbk-unresolved" and p.subject == ref.id for p in cards.problems)
    # every citation of the rulebook by a ruling resolves
    counts = cards.counts()
    assert counts["rbk_citations"] > 30 and counts["rbk_citations_resolved"] == counts["rbk_citations"]


def test_who_may_attempt_to_block(cards, corpus):
    ref = cards.references["RBK who-may-attempt-to-block"]
    para = corpus.paragraphs[ref.resolves_to]
    assert para.section == "vekn:resolve-any-block-attempts"
    assert para.title.startswith("Who May Attempt to Block")
    citing = cards.rulings_citing(ref.resolves_to)
    assert citing and all("RBK who-may-attempt-to-block" in r.references for r in citing)


def test_a_derived_anchor_resolves_with_its_reason(cards, corpus):
    # vekn.net anchors "Leave Torpor (See Torpor)" as #leave-torpor.
    ref = cards.references["RBK leave-torpor"]
    assert ref.status == RESOLVED and corpus.get(ref.resolves_to).title.startswith("Leave Torpor")
    assert "parenthesis" in ref.reason
    # an anchor the book lacks says what is closest and where its words are
    broken = cards.references["RBK become-anarch"]
    assert broken.status == BROKEN and "#become-anarch" in broken.reason and "vekn:" in broken.reason


def test_the_quick_path_answers_as_lookup_find(cards, corpus):
    for ref in cards.references.values():
        if ref.source == "RBK" and ref.url:
            found = lookup.find(corpus, ref.url)
            if found is not None:
                assert (ref.resolves_to, ref.reason) == (found.id, found.note), ref.id


def test_ruling_text_and_parts(cards):
    ruling = next(r for r in cards.rulings.values() if r.raw.startswith("This is not a diablerie. Neither {Rebirth}"))
    assert ruling.id == "ruling:100004/lsj-20090724"
    assert ruling.text == "This is not a diablerie. Neither Rebirth nor Carlton Van Wyk's ability can be used."
    assert ruling.references == ["LSJ 20090724", "ANK 20180129-1"]
    assert "".join(run.text for run in ruling.parts) == ruling.text
    links = [(run.text, run.target) for run in ruling.parts if run.kind == "card"]
    assert [name for name, _ in links] == ["Rebirth", "Carlton Van Wyk"]
    assert all(target and cards.cards[target].name == name for name, target in links)
    symbol = next(r for r in cards.rulings.values() if r.raw.startswith("[OBT] The opponent does not go to torpor"))
    assert (symbol.parts[0].kind, symbol.parts[0].text, symbol.parts[0].target) == ("symbol", "[OBT]",
                                                                                    "Obtenebration, superior")


@pytest.fixture(scope="module")
def cache_of(corpus, tmp_path_factory):
    """A card base loaded into an empty index directory (built, then cached), and its cache file."""
    folder = tmp_path_factory.mktemp("index")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUDGE_INDEX_DIR", str(folder))
        built = load_cards(corpus)
    return built, (folder / CACHE_NAME).read_text(encoding="utf-8")


def test_the_cache_gives_back_the_build(corpus, cache_of, tmp_path, monkeypatch):
    built, text = cache_of
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path))
    (tmp_path / CACHE_NAME).write_text(text, encoding="utf-8")
    cached = load_cards(corpus)
    assert cached is not built
    for attr in ("cards", "rulings", "references", "groups", "templates", "sets", "problems", "book", "digest"):
        assert getattr(cached, attr) == getattr(built, attr), attr
    assert cached.counts() == built.counts()
    assert cached.find("govrn the unaligned")[0].card == built.card("Govern the Unaligned")


@pytest.mark.parametrize("damage", ["not json", "wrong shape", "dangling link"])
def test_a_damaged_cache_is_rebuilt(corpus, cache_of, tmp_path, monkeypatch, caplog, damage):
    built, text = cache_of
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path))
    if damage == "not json":
        damaged = text[: len(text) // 2]
    elif damage == "wrong shape":
        data = json.loads(text)
        data["cards"][3]["vekn_id"] = "three"
        damaged = json.dumps(data)
    else:
        data = json.loads(text)
        ruling = next(r for r in data["rulings"] if r["cards"])
        ruling["cards"] = ["card:999999999"]
        damaged = json.dumps(data)
    (tmp_path / CACHE_NAME).write_text(damaged, encoding="utf-8")
    again = load_cards(corpus)
    assert re.search(r"cards\.json is damaged: .+; rebuilding it", caplog.text)
    assert again.counts() == built.counts()
    assert json.loads((tmp_path / CACHE_NAME).read_text(encoding="utf-8"))["digest"] == built.digest  # rewritten
