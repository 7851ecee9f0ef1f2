"""Issue 37: ally cards read as printed (judge.engine.vtes.allies): every ally card of the real card list read whole is
recruited by name with the figures its card prints and what its card gives it; on the table, named by its card, it has
them too; what the card gives it is used in play (its intercept in a block attempt, a card played as a vampire)."""
from __future__ import annotations

from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc

TABLE = """rules: current
players: [Sarah, Alexis, Bob]
turn: %s
phase: minion
minions:
  - {name: Belinde, controller: Sarah, capacity: 6, blood: 5, clan: %s, sect: %s, disciplines: [%s]}
  - {name: Carna, controller: Alexis, capacity: 4, blood: 3}
%sevents: [%s]
"""


def _table(events, turn="Sarah", clan="Ventrue", sect="Camarilla", codes="", extra=""):
    return sc.parse(TABLE % (turn, clan, sect, codes, extra, ", ".join(events)), cards=card_catalog())


def _read():
    return [(facts, what.ally_text) for facts, what in library_cards("Ally") if not what.rest]


def test_every_ally_read_is_recruited_with_its_figures_and_what_its_card_gives():
    cards = _read()
    assert len(cards) >= 7, [f.name for f, _ in cards]
    for facts, a in cards:
        clan = facts.clans[0] if facts.clans else "Ventrue"
        sect = next((r.capitalize() for r in facts.requirements if r in ("camarilla", "sabbat", "anarch")), "Camarilla")
        codes = ", ".join(code for code, _, _ in facts.disciplines)
        run = sc.run(_table([f'"Belinde plays {facts.name}"', "nobody blocks"], clan=clan, sect=sect, codes=codes))
        assert run.stop is None, (facts.name, run.stop.message)
        ally = run.state.minions[facts.name]
        assert (ally.blood, ally.strength, ally.bleed) == (a.life, a.strength, a.bleed), facts.name
        assert (ally.stealth, ally.intercept, ally.disciplines) == (a.stealth, a.intercept, a.disciplines), facts.name
        assert ally.abilities == a.abilities and ally.bonuses == a.bonuses and ally.text_read, facts.name
        # on the table, named by its card: the same figures, and its intercept counted in a block attempt
        table = f"  - {{name: Ally, card: \"{facts.name}\", controller: Sarah}}\n"
        run = sc.run(_table(['"Carna plays an action card: directed at Sarah"', "Ally blocks"], turn="Alexis",
                            extra=table))
        assert run.stop is None, (facts.name, run.stop.message)
        said = "\n".join(step.text for step in run.steps)
        assert f"{a.intercept} intercept against 0 stealth" in said, (facts.name, said)


def test_an_ally_playing_cards_as_a_vampire_plays_them_at_the_basic_level_only():
    thug = "  - {name: Thug, card: Ghouled Street Thug, controller: Alexis}\n"
    events = ["Belinde bleeds Alexis", "Thug blocks", "Belinde strikes with her hands"]
    basic = sc.run(_table([*events, "Thug plays Roundhouse"], extra=thug))
    assert basic.stop is None, basic.stop.message
    superior = sc.run(_table([*events, "Thug plays Roundhouse at superior"], extra=thug))
    assert superior.stop is not None and superior.stop.kind == "refused" and "superior" in superior.stop.message
    # a card requiring a Discipline its card does not give it
    other = sc.run(_table([*events, "Thug plays Burning Wrath"], extra=thug.replace("Ghouled Street Thug",
                                                                                    "Rafastio Ghoul")))
    assert other.stop is not None and other.stop.kind == "refused", other.stop
