"""Issue 37: a political action card's referendum read as printed (judge.engine.vtes.referendum_effects): every card
of the real card list read whole is played through its referendum; its outcomes are applied as the polling closes,
each quoted, the counters kept (pool and blood only move to and from the bank), and points allocated burned exactly."""
from __future__ import annotations

from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.vtes.state import counters_in_play

TABLE = """rules: current
players: [Sarah, Alexis, Bob, Carol]
turn: Sarah
phase: minion
edge: Alexis
minions:
  - {name: Lucinde, controller: Sarah, capacity: 6, blood: 4, sect: Anarch, anarch: true, title: Baron of Paris}
  - {name: Quentin, controller: Sarah, capacity: 6, blood: 4, sect: Sabbat, title: bishop}
  - {name: Carna, controller: Alexis, capacity: 3, blood: 3, sect: Independent, locked: true, equipment: [Gun]}
  - {name: Mort, controller: Alexis, type: ally, life: 2}
  - {name: Blaise, controller: Bob, capacity: 5, blood: 2, region: torpor, sect: Camarilla}
  - {name: Nora, controller: Carol, capacity: 8, blood: 5, sect: Sabbat, title: Archbishop of Rome}
events: %s
"""


def _read_cards():
    return [(facts, what.referendum) for facts, what in library_cards("Political Action")
            if what.referendum is not None and not what.rest]


def test_every_referendum_read_takes_effect_as_printed():
    cards = _read_cards()
    assert len(cards) >= 10, len(cards)
    for passes in (True, False):
        for facts, rt in cards:
            caller = "Quentin" if "sabbat" in [r.casefold() for r in facts.requirements] else "Lucinde"
            events = [f'"{caller} plays {facts.name}"', "nobody blocks"]
            allocated = {}
            if rt.allocate is not None:
                n = 4 if rt.allocate_x else rt.allocate  # X: the four Methuselahs
                allocated = {"Alexis": n - 1, "Bob": 1}
                events.append(f"Sarah allocates {n - 1} points to Alexis and 1 to Bob")
            events += ["Lucinde votes for" if passes else "Nora votes against", "the polling closes"]
            scenario = sc.parse(TABLE % f"[{', '.join(events)}]", cards=card_catalog())
            run = sc.run(scenario)
            assert run.stop is None, (facts.name, run.stop.message)
            before, after = scenario.state, run.state
            assert counters_in_play(after) + after.bank == counters_in_play(before) + before.bank, facts.name
            text = "\n".join(step.text for step in run.steps)
            for o in rt.outcomes:
                assert (o.sentence.strip() in text) == (o.on_fail != passes), (facts.name, o.sentence, passes)
            if passes:
                for p, n in allocated.items():
                    assert before.players[p].pool - after.players[p].pool == n, (facts.name, p)
            elif not any(o.on_fail for o in rt.outcomes):
                assert {p: x.pool for p, x in after.players.items()} == \
                    {p: x.pool for p, x in before.players.items()}, facts.name
