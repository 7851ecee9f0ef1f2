"""Issue 37: the master Discipline cards of the real card list read as printed: each put on a vampire gives the basic
level, or basic to superior, and the capacity its text adds; none goes on a vampire with the superior level."""
from __future__ import annotations

import pytest
from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.vtes.cards import discipline_level


def _discipline_cards():
    return [(facts, what.discipline_card) for facts, what in library_cards("Master") if what.discipline_card]


@pytest.mark.parametrize("had", [None, "inferior", "superior"])
def test_every_master_discipline_card_gives_its_level(had):
    cards = _discipline_cards()
    assert len(cards) >= 15, len(cards)
    for facts, (code, name, capacity, _) in cards:
        assert f"[{code}]" in facts.text and name in facts.text and facts.name == name, facts.name
        assert capacity == (1 if "capacity" in facts.text.casefold() else 0), facts.name
        disciplines = {None: "[]", "inferior": f"[{code}]", "superior": f"[{code.upper()}]"}[had]
        table = ("rules: current\nplayers: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: master\nminions:\n"
                 f"  - {{name: Lucinde, controller: Sarah, capacity: 6, blood: 4, disciplines: {disciplines}}}\n"
                 f"events: [Sarah plays {facts.name} on Lucinde]\n")
        run = sc.run(sc.parse(table, cards=card_catalog()))
        if had == "superior":
            assert run.stop is not None and run.stop.kind == "refused" and "superior" in run.stop.message
            continue
        assert run.stop is None, (facts.name, run.stop.message)
        lucinde = run.state.minions["Lucinde"]
        assert discipline_level(lucinde, code, name) == ("superior" if had else "inferior"), facts.name
        assert (lucinde.capacity, lucinde.blood) == (6 + capacity, 4), facts.name
