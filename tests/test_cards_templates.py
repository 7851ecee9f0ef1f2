"""The rule templates: every rule they name is in the corpus, and cards and rulings
get "the rules they rely on" from them."""
from __future__ import annotations

import dataclasses
import random

import pytest

from judge.cards import load_cards
from judge.cards.load import templates_path
from judge.cards.templates import Matcher, load_templates


@pytest.fixture(scope="module")
def cards(corpus):
    return load_cards(corpus)


def test_every_template_names_rules_of_the_corpus(corpus, cards):
    templates, problems = load_templates(templates_path(), corpus)
    assert problems == []
    assert len(templates) == len(cards.templates) > 80
    for template in templates:
        assert template.rules and template.description
        for rule in template.rules:
            assert corpus.get(rule) is not None, (template.id, rule)
            assert corpus.document_of(rule).id == "vekn", (template.id, rule)  # the book in force
    assert not [p for p in cards.problems if p.file == "card_templates.yaml"]


def rules_of(cards, item) -> set[str]:
    return {rule for use in item.rules for rule in cards.rules_of(use)}


def test_master_out_of_turn_relies_on_the_out_of_turn_rule(cards, corpus):
    out_of_turn = [c for c in cards.cards.values() if c.text.startswith("Master: out-of-turn")]
    assert len(out_of_turn) > 20
    rule = corpus.paragraphs["vekn:master-phase/7"]
    assert rule.text.startswith("Out-of-turn master cards can only be played during other Methuselahs' turns")
    for card in out_of_turn:
        assert rule.id in rules_of(cards, card), card.name
        use = next(u for u in card.rules if u.template == "master-out-of-turn")
        assert use.matched == ["out-of-turn"]
    assert {c.id for c in out_of_turn} <= {c.id for c, _ in cards.cards_using(rule.id)}


def test_plus_one_stealth_relies_on_the_stealth_and_intercept_paragraph(cards, corpus):
    card = cards.card("Govern the Unaligned")
    assert "+1 stealth" in card.text
    stealth = {r for r in rules_of(cards, card) if r.startswith("vekn:stealth-and-intercept/")}
    assert stealth
    assert any("stealth" in corpus.paragraphs[r].text and "intercept" in corpus.paragraphs[r].text for r in stealth)
    use = next(u for u in card.rules if u.template == "stealth")
    assert "+1 stealth" in use.matched


def test_fifty_cards_drawn_at_random_each_rely_on_a_rule(cards, corpus):
    drawn = random.Random(22).sample(sorted(cards.cards), 50)
    for ident in drawn:
        card = cards.cards[ident]
        rules = rules_of(cards, card)
        assert rules, card.name
        assert all(corpus.get(r) is not None for r in rules)
    assert all(card.rules for card in cards.cards.values())  # and in fact every card does


def test_kinds_give_their_rules(cards):
    equipment = [c for c in cards.cards.values() if "Equipment" in c.types]
    assert equipment and all(any(u.template == "equipment" for u in c.rules) for c in equipment)
    vampires = [c for c in cards.cards.values() if "Vampire" in c.types]
    assert all(any(u.template == "vampire" and "type: Vampire" in u.matched for u in c.rules) for c in vampires)
    masters = [c for c in cards.cards.values() if "Master" in c.types]
    assert all(any(u.template == "master-card" for u in c.rules) for c in masters)


def test_narrow_patterns(cards):
    hunting_ground = cards.card("Academic Hunting Ground")
    assert "unlock phase" in hunting_ground.text
    assert not any(u.template == "locking" for u in hunting_ground.rules)  # the phase is no lock
    assert any(u.template == "unlock-phase" for u in hunting_ground.rules)
    fanchon = cards.card("Mistress Fanchon")
    assert "Inner Circle" in fanchon.text and not any(u.template == "circle" for u in fanchon.rules)


def test_rulings_rely_on_rules_too(cards):
    ruling = next(r for r in cards.rulings.values() if r.raw.startswith("Provides only one maneuver each combat"))
    assert any(u.template == "maneuver" and u.matched == ["maneuver"] for u in ruling.rules)
    assert ruling in [r for r, _ in cards.rulings_using("vekn:combat/10")]


def test_the_quick_search_finds_what_a_plain_search_finds(corpus, cards):
    """A text is searched only with the templates whose required substrings it holds,
    in lowercase with the patterns rewritten in lowercase: that must change no result.
    The plain search (each template's case-insensitive patterns, on every text) is the
    reference, on 1,200 cards and rulings drawn at random."""
    templates, _ = load_templates(templates_path(), corpus)
    plain = [dataclasses.replace(t, triggers=None, lowered=None) for t in templates]
    assert sum(t.lowered is not None for t in templates) > 80  # the rewriting is what runs
    assert all(t.triggers for t in templates if t.patterns is not None)  # and the quick test, for every template
    matcher = Matcher(templates)
    rng = random.Random(19)
    for card in rng.sample(list(cards.cards.values()), 700):
        quick = {u.template: u.matched for u in matcher.card_uses(card)}
        assert quick == {t.id: u.matched for t in plain if (u := t.use_by_card(card))}, card.name
        assert quick == card.uses
    for ruling in rng.sample(list(cards.rulings.values()), 500):
        quick = {u.template: u.matched for u in matcher.text_uses(ruling.own_words)}
        assert quick == {t.id: u.matched for t in plain if (u := t.use_by_text(ruling.own_words))}, ruling.id
        assert quick == ruling.uses


def test_a_card_a_ruling_names_is_not_a_rule_it_relies_on(cards):
    """"Delaying Tactics" rulings naming Anarch Revolt say nothing of Anarchs (issue 35's stale sample)."""
    naming = [r for r in cards.rulings.values() if any(p.kind == "card" and "Anarch" in p.text for p in r.parts)
              and "Anarch" not in r.own_words]
    assert naming and not [r.id for r in naming if "anarch" in r.uses]
