"""Issue 37: retainer cards read as printed (judge.engine.vtes.retainers): every retainer card of the real card list read
whole is employed by name with the life its card prints at the level played, and what it gives its employer holds
while it is employed (a block attempt's intercept, a bleed, stealth), quoted; one with text the engine does not read
stops, naming it, played or on the table."""
from __future__ import annotations

import pytest
from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.errors import ScenarioError

TABLE = """rules: current
players: [Sarah, Alexis, Bob]
turn: %s
phase: minion
minions:
  - {name: Belinde, controller: Sarah, capacity: 6, blood: 5, clan: %s, sect: %s, disciplines: [%s]%s}
  - {name: Carna, controller: Alexis, capacity: 4, blood: 3}
events: [%s]
"""


def _table(events: list[str], turn="Sarah", clan="Ventrue", sect="Camarilla", codes="", retainers=""):
    return sc.parse(TABLE % (turn, clan, sect, codes, f", retainers: [{retainers}]" if retainers else "",
                             ", ".join(events)), cards=card_catalog())


def _read():
    return [(facts, what.retainer) for facts, what in library_cards("Retainer") if not what.rest]


def _clan_and_sect(facts) -> tuple[str, str]:
    sect = next((r.capitalize() for r in facts.requirements if r.casefold() in ("camarilla", "sabbat", "laibon",
                                                                               "anarch", "independent")), "Camarilla")
    return (facts.clans[0] if facts.clans else "Ventrue"), sect


def test_every_retainer_read_is_employed_with_its_life_and_gives_its_employer_its_bonuses():
    cards = _read()
    assert len(cards) >= 8, [f.name for f, _ in cards]
    for facts, rt in cards:
        clan, sect = _clan_and_sect(facts)
        codes = ", ".join(code for code, _, _ in facts.disciplines)
        run = sc.run(_table([f'"Belinde plays {facts.name}"', "nobody blocks"], clan=clan, sect=sect, codes=codes))
        assert run.stop is None, (facts.name, run.stop.message)
        employed = run.state.minions["Belinde"].retainers
        assert [(r.name, r.life) for r in employed] == [(facts.name, rt.life)], facts.name
        # on the table, what it gives holds: its bleed bonus on a bleed, and a block attempt's intercept
        bleed = sum(b.amount for b in rt.bonuses if b.stat == "bleed" and not b.groups and not b.kinds)
        quoted = f'"{facts.name}"' if "," not in facts.name else f"'{facts.name}'"
        run = sc.run(_table(["Belinde bleeds Alexis", "Alexis declines to block"], clan=clan, sect=sect,
                            retainers=quoted))
        assert run.stop is None and 30 - run.state.players["Alexis"].pool == 1 + bleed, facts.name
        intercept = sum(b.amount for b in rt.bonuses if b.stat == "intercept" and not b.groups and not b.kinds)
        run = sc.run(_table(['"Carna plays an action card: directed at Sarah"', "Belinde blocks"], turn="Alexis",
                            clan=clan, sect=sect, retainers=quoted))
        assert run.stop is None, (facts.name, run.stop.message)
        said = "\n".join(step.text for step in run.steps)
        assert f"{intercept} intercept against 0 stealth" in said, (facts.name, said)
        if intercept:
            assert f"Belinde's retainer {facts.name}" in said, facts.name


def test_a_retainer_card_with_text_not_read_stops_played_or_on_the_table():
    unread = [(facts, what.rest) for facts, what in library_cards("Retainer") if what.rest]
    assert len(unread) >= 20
    stopped = 0
    for facts, rest in unread:
        clan, sect = _clan_and_sect(facts)
        played = sc.run(_table([f'"Belinde plays {facts.name}"'], clan=clan, sect=sect,
                               codes=", ".join(c for c, _, _ in facts.disciplines)))
        assert played.stop is not None, facts.name
        if played.stop.kind == "not-modelled":  # (a requirement the table cannot meet refuses it first)
            stopped += 1
            assert any(s in played.stop.message for s in rest), (facts.name, played.stop.message)
        named = f'"{facts.name}"' if "," not in facts.name else f"'{facts.name}'"
        acting = sc.run(_table(["Belinde bleeds Alexis"], clan=clan, sect=sect,
                               retainers=f"{{name: {named}, life: 1}}"))  # (a life the card does not say: given)
        assert acting.stop is not None and acting.stop.kind == "not-modelled", facts.name
        assert facts.name in acting.stop.message, facts.name
    assert stopped >= 15, stopped


def test_a_level_given_to_a_retainer_that_is_no_retainer_card_is_malformed_with_its_line():
    with pytest.raises(ScenarioError, match="no retainer card") as err:
        _table(["Belinde hunts"], retainers="{name: Raven, at: superior}")
    assert err.value.line == 6
