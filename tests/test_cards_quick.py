"""judge.cards.quick: a question surely naming no card is answered from the saved tables alone, as the card base
answers it; a question that may name one is left to the card base."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from judge.cards import get_cards
from judge.cards.mentions import name_forms
from judge.cards.query import Context, card_answer
from judge.cards.quick import quick_answer
from judge.cards.ruling_search import ruling_index
from judge.search import get_searcher
from judge.shapes import ruling_hit_data

ROOT = Path(__file__).resolve().parent.parent


def _questions(name: str) -> list[str]:
    return [str(q["q"]) for q in yaml.safe_load((ROOT / "tests" / name).read_text("utf-8"))["questions"]]


def test_a_question_naming_no_card_is_answered_without_the_card_base_as_with_it(corpus):
    base = get_cards(corpus)
    name_forms(base, corpus), ruling_index(base, corpus)  # saved beside the card base, as its first read saves them
    searcher = get_searcher(corpus)
    rules, cards = _questions("search_gold.yaml"), _questions("rulings_gold.yaml")
    cards_named = [c.name for c in list(base.cards.values())[::211]]
    odd = ["govrn the unalined", "rulings of bloodhunt", "theo bell adv", "vidal's", "100845", "x" * 300, "?"]
    quick_count = {"rules": 0, "cards": 0}
    for searched in [("cards", "rulings"), ("rulings",), ("cards",)]:
        for kind, q in [("rules", q) for q in rules] + [("cards", q) for q in cards + cards_named + odd]:
            result = searcher.search(q, limit=10)
            expansion = lambda _q, r=result: r.expansion  # noqa: E731
            quick = quick_answer(corpus, q, searched, expansion)
            if quick is None:
                continue
            quick_count[kind] += 1
            answer, shown = quick
            full = card_answer(base, q, searched, Context(corpus, expansion))
            assert answer.to_json() == full.to_json(), (q, searched)
            assert not answer.matches and answer.ruling_hits == full.ruling_hits, (q, searched)
            stems = {"block", "bleed", "damag"}
            assert [ruling_hit_data(shown, h, stems) for h in answer.ruling_hits] == \
                [ruling_hit_data(base, h, stems) for h in full.ruling_hits], q
    # Most rules questions skip the card base; a question about a card seldom can (it names its card).
    assert quick_count["rules"] >= 3 * len(rules) * 0.8, quick_count
    assert quick_count["cards"] <= 3 * len(cards) * 0.2, quick_count


def test_judge_search_reads_the_card_base_only_for_a_question_that_may_name_a_card(corpus):
    """In a process of its own, as a shell runs it: a rules question reads no card base; naming a card reads it."""
    base = get_cards(corpus)
    name_forms(base, corpus), ruling_index(base, corpus)
    script = ("import atexit, sys, judge.cards.load as load\n"
              "atexit.register(lambda: print('card base read:', bool(load._LOADED), file=sys.stderr))\n"
              "from judge.cli import main\n"
              "main()\n")

    def run(q: str, *more: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", script, "search", q, "--json", *more], capture_output=True,
                              text=True, cwd=ROOT, timeout=120)

    rules, card = run("damage inflicted against a dodge", "--in", "rulings"), run("can gtu be blocked")
    assert "card base read: False" in rules.stderr and '"kind": "ruling"' in rules.stdout, rules.stderr[-500:]
    assert "card base read: True" in card.stderr and "Govern the Unaligned" in card.stdout, card.stderr[-500:]


def test_a_table_another_version_of_judge_wrote_is_rebuilt_without_a_warning(tmp_path, caplog):
    """A saved table of another format (an older judge's: the ruling index gained what its hits show) is stale, as
    one of other sources is: read as absent, never reported as damaged; one that is not judge's is."""
    import json
    import logging

    from judge import cachefile
    log = logging.getLogger("judge.test")
    path = tmp_path / "table.json"

    def read(data) -> object:
        path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        return cachefile.read_cache(path, "a table", 3, "key", "k1", lambda d: d["table"], log)

    with caplog.at_level(logging.WARNING):
        assert read({"format": 3, "key": "k1", "table": "read"}) == "read"
        assert read({"format": 2, "key": "k1", "table": "read"}) is None
        assert read({"format": 3, "key": "k0", "table": "read"}) is None
        assert not caplog.records
        assert read({"format": "3", "key": "k1", "table": "read"}) is None
    assert len(caplog.records) == 1 and "damaged" in caplog.records[0].getMessage()
