"""Ten books (the five real ones and a copy of each under new IDs, bench/scale.py's
synthetic corpus): built, searched, compared and served. Correctness only; the
figures are bench/scale.py's."""
from __future__ import annotations

import json
import urllib.request

import pytest

from bench.scale import ROOT, make_corpus, make_data
from judge.cli import cli
from tests.conftest import start_judge_serve

BOOKS = 10


@pytest.fixture(scope="module")
def ten_books(tmp_path_factory):
    rules = make_corpus(BOOKS, tmp_path_factory.mktemp("scale") / "rules")
    index = rules.parent / "index"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUDGE_RULES_DIR", str(rules))
        mp.setenv("JUDGE_INDEX_DIR", str(index))
        # the questions each rule answers, moved to the newest copies (the books in force)
        mp.setenv("JUDGE_DATA_DIR", str(make_data(BOOKS, ROOT, rules.parent / "data")))
        yield rules


def test_ten_books_build_and_answer(ten_books, runner):
    docs = runner.invoke(cli, ["docs", "--json"])
    assert docs.exit_code == 0, docs.output
    listed = {d["id"]: d for d in json.loads(docs.output)}
    assert set(listed) == {"vekn", "s6", "rb", "flows", "rivals", "veknx1", "s6x1", "rbx1", "flowsx1", "rivalsx1"}
    assert listed["veknx1"]["paragraphs"] == listed["vekn"]["paragraphs"] > 0

    found = runner.invoke(cli, ["search", "--json", "-n", "20", "how much pool does the target lose when a bleed "
                                                                "succeeds"])
    assert found.exit_code == 0, found.output
    hits = json.loads(found.output)["hits"]
    assert hits, "no hit"
    # The same rule in the other nine V:TES editions folds into the hit, none of them a hit of its own.
    bleed = hits[0]
    same_rule = {bleed["id"]} | {c["id"] for c in bleed["editions"]}
    assert {pid.split(":")[0] for pid in same_rule} >= {"vekn", "veknx1", "s6", "s6x1"}
    assert not same_rule & {h["id"] for h in hits[1:]}

    # The copy of the outline cites the copy of the older book.
    shown = runner.invoke(cli, ["show", "--json", "flowsx1:VI.C.2.b/i"])
    assert shown.exit_code == 0, shown.output
    assert any(r["target"] and r["target"].startswith("rbx1:") for r in json.loads(shown.output)["refs_out"])

    # Editions that are not neighbours compare, in the order asked for.
    diff = runner.invoke(cli, ["diff", "rb", "veknx1", "--json"])
    assert diff.exit_code == 0, diff.output
    summary = json.loads(diff.output)["summary"]
    assert summary["meaning"] > 50 and summary["added"] > 100


def test_ten_books_are_served(ten_books):
    proc, url, _ = start_judge_serve(wait=600)
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            assert answer.status == 200 and b"<form" in answer.read()
        with urllib.request.urlopen(url + "api/search?q=bleed", timeout=60) as answer:
            assert json.loads(answer.read())["hits"]
    finally:
        proc.terminate()
        proc.wait(30)


def test_editions_not_aligned_directly_are_composed(ten_books):
    from judge.compare.concordance import COMPOSED, get_concordance
    from judge.corpus import get_corpus

    concordance = get_concordance(get_corpus())
    # Six V:TES editions: each to the next (5) and each older one to the edition in force
    # (4); two Rivals editions (1). Not every two (16).
    assert concordance.editions["vtes"] == ["rb", "s6", "vekn", "rbx1", "s6x1", "veknx1"]
    assert len(concordance.alignments) == 10
    assert concordance.alignment("rb", "s6x1") is None and concordance.alignment("rb", "veknx1") is not None

    found = {c.id: c for c in concordance.counterparts("rb:6.1.1")}
    assert {c.doc for c in found.values()} == {"s6", "vekn", "rbx1", "s6x1", "veknx1"}
    composed = found["s6x1:6.1.1"]
    assert composed.method == COMPOSED
    # The most confident chain of links that passes through neither end's edition,
    # every such chain tried (a group is small).
    def chains(node, product, seen):
        for link in concordance.linked(node):
            if link.id == "s6x1:6.1.1":
                yield product * link.confidence
            elif link.doc not in seen and link.doc not in ("rb", "s6x1"):
                yield from chains(link.id, product * link.confidence, seen | {link.doc})
    best = max(chains("rb:6.1.1", 1.0, frozenset()))
    assert composed.confidence == round(best, 3) and 0.5 < best < 1
    # Aligned editions answer as their alignment does: rb and the edition in force, directly.
    direct = concordance.alignment("rb", "veknx1").new_of("rb:6.1.1")
    assert [(c.id, c.method) for c in found.values() if c.doc == "veknx1"] == [(p.new, p.method) for p in direct]
    assert direct and direct[0].method != COMPOSED

    group = concordance.group_of("rb:6.1.1")
    assert group is concordance.group_of("veknx1:bleed")
    assert group.docs() == ["rb", "s6", "vekn", "rbx1", "s6x1", "veknx1"]
    assert set(found) | {"rb:6.1.1"} <= set(group.members)


def test_the_index_stores_each_rule_group_once_and_serves_the_concordances_counterparts(ten_books):
    """counterparts.json holds each paragraph once (its rule group and the group's links), not
    every paragraph's counterparts (which grew with the square of the editions), and a hit's
    counterparts worked out from it are the concordance's: composed ones too, newest first."""
    from judge.compare.concordance import get_concordance
    from judge.corpus import get_corpus
    from judge.search import get_searcher
    from judge.search.index import COUNTERPARTS_FILE

    corpus = get_corpus()
    concordance, searcher = get_concordance(corpus), get_searcher(corpus)
    stored = json.loads((searcher.built.path / COUNTERPARTS_FILE).read_text(encoding="utf-8"))
    members = [pid for group in stored["members"] for pid in group]
    assert len(members) == len(set(members)) and set(members) <= set(corpus.paragraphs)
    assert sum(len(links) for links in stored["links"]) < 2 * len(members)  # a chain and a star, not a clique

    def newest_first(item):
        return -corpus.document_of(item[0]).meta.edition_order, -item[1], item[0]

    composed = 0
    for pid in corpus.paragraphs:
        expected = sorted(((c.id, round(c.confidence, 3)) for c in concordance.counterparts(pid)
                           if c.id != pid and c.id in corpus.paragraphs), key=newest_first)
        assert [(c.id, c.confidence) for c in searcher.paragraph_hit(pid).counterparts] == expected, pid
        composed += sum(c.method == "composed" for c in concordance.counterparts(pid))
    assert composed > 1000
