"""Finding cards as people type them, and the look-ups by card and by rule."""
from __future__ import annotations

import pytest

from judge.cards import load_cards


@pytest.fixture(scope="module")
def cards(corpus):
    return load_cards(corpus)


@pytest.mark.parametrize("typed, how", [
    ("Govern the Unaligned", "name"),
    ("govern the unaligned", "folded"),
    ("govern-the-unaligned", "slug"),
    ("Govern the Unalligned", "fuzzy"),  # misspelt
    ("Govrn teh Unaligned", "fuzzy"),
    ("Unaligned", "partial"),
    ("govern the", "partial"),
])
def test_govern_the_unaligned_comes_first(cards, typed, how):
    found = cards.find(typed)
    assert found[0].card.name == "Govern the Unaligned"
    assert found[0].how == how


def test_ids_slugs_accents_and_the(cards):
    magnum = cards.card("card:100001")
    assert magnum.name == ".44 Magnum" and cards.card("100001") is magnum and cards.card(magnum.slug) is magnum
    assert cards.card("Rotschreck").name == "Rötschreck"  # accents folded
    assert cards.card("rack").name == "The Rack" == cards.card("Rack, The").name  # "The" either place
    assert cards.card("no such card at all") is None
    assert cards.find("") == [] and cards.find("   ") == []
    assert cards.find("x" * 10_000) == []  # bounded: the query is cut, nothing matches


def test_versions_of_a_vampire(cards):
    versions = {c.slug: c for c in cards.cards.values() if c.vekn_name == "Theo Bell"}
    assert set(versions) == {"theo-bell", "theo-bell-adv", "theo-bell-g6"}
    assert versions["theo-bell-adv"].advanced and versions["theo-bell-g6"].group == "6"
    assert cards.card("Theo Bell") is versions["theo-bell"]  # unmarked: the first printed
    assert cards.card("Theo Bell (ADV)") is versions["theo-bell-adv"]
    assert cards.card("theo bell (g6)") is versions["theo-bell-g6"]
    assert [m.card.slug for m in cards.find("Theo Bell")] == ["theo-bell", "theo-bell-g6", "theo-bell-adv"]


def test_every_version_label_judge_prints_names_its_own_card(cards):
    # The label `judge card` and the web print to tell versions apart ("Theo Bell (ADV, G2)") is a name a user
    # copies into a scenario or a search: it names that version, and no other.
    from judge.cards.query import version_labels
    labels = version_labels(cards, list(cards.cards))
    assert len(labels) > 250
    wrong = {label: cards.card(label) and cards.card(label).id for cid, label in labels.items()
             if cards.card(label) is None or cards.card(label).id != cid}
    assert wrong == {}
    assert cards.card("Dylan (ADV, G2)").advanced and cards.card("dylan (g2 adv)").advanced
    assert not cards.card("Dylan (G2)").advanced


def test_card_fields(cards):
    govern = cards.card("Govern the Unaligned")
    assert govern.kind == "library" and govern.types == ["Action"] and govern.blood_cost == "1"
    assert [(d.code, d.level) for d in govern.disciplines] == [("dom", None)]
    modifier_reaction = [c for c in cards.cards.values() if c.types == ["Action Modifier", "Reaction"]]
    assert len(modifier_reaction) > 10
    adana = cards.card("Adana de Sforza")
    assert adana.kind == "crypt" and adana.sect == "Camarilla" and adana.title == "inner circle"
    assert {(d.code, d.level) for d in adana.disciplines} >= {("pot", "superior")}
    assert cards.card("Jessica").sect == "Sabbat"  # "Advanced, Sabbat bishop: ..."
    imbued = next(c for c in cards.cards.values() if c.types == ["Imbued"])
    assert imbued.sect is None and all(d.level is None for d in imbued.disciplines)
    x_cost = [c for c in cards.cards.values() if c.pool_cost == "X" or c.blood_cost == "X"]
    assert x_cost
    assert any(c.burn_option for c in cards.cards.values())
    printing = govern.sets[0]
    assert (printing.set, printing.detail) == ("Jyhad", "C") and cards.set_of("Jyhad").date == "1994-08-16"


def test_rulings_of_a_card_and_of_its_groups(cards):
    govern = cards.card("Govern the Unaligned")
    own = cards.rulings_of(govern.id)
    assert own and all(govern.id in r.cards for r in own)
    puppet = cards.card("Puppet Master")
    groups = [cards.groups[g] for g in puppet.groups]
    assert any(g.name == "Temporary control" for g in groups)
    through_group = [r for r in cards.rulings_of(puppet.id) if r.group]
    assert through_group and {r.group for r in through_group} <= set(puppet.groups)
    mentioned = cards.rulings_mentioning(cards.card("Rebirth").id)
    assert any(r.owner == "card:100004" for r in mentioned)  # Abactor's ruling links {Rebirth}


def test_every_long_name_misspelt_by_one_letter_is_named_by_a_search(cards):
    """A search's card answer (what the search page shows above the rules) finds every card
    whose name has ten letters or more, typed with a letter dropped or changed in its middle:
    the fuzzy look-up passes over names only when they cannot reach its cutoff."""
    from judge.cards.names import name_key
    from judge.cards.query import card_answer

    keys = {name_key(c.name): c.name for c in cards.cards.values() if "(" not in c.name}
    missed, tried = [], 0
    for key, name in sorted(keys.items()):
        if len(key) < 10:
            continue
        middle = len(key) // 2
        changed = chr(ord("a") + (ord(key[middle]) - ord("a") + 1) % 26) if key[middle].isalpha() else "x"
        for typo in (key[:middle] + key[middle + 1:], key[:middle] + changed + key[middle + 1:]):
            if typo in keys:
                continue  # another card's name
            tried += 1
            if name not in [m.card.name for m in card_answer(cards, typo, ("cards",)).matches]:
                missed.append(typo)
    assert tried > 5000 and missed == []
