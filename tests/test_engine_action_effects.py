"""Issue 37: an action card's effects on success read as printed (judge.engine.vtes.action_effects): every action card
of the real card list whose line is read whole is played on each minion of a table; the minions the card allows take
its effect as the action succeeds, quoted, and the others are refused, quoting the card; the counters are kept."""
from __future__ import annotations

import pytest
from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.errors import ScenarioError
from judge.engine.vtes.state import counters_in_play

# Two actors (requirements differ: a prince, an archbishop), every Discipline at superior; minions of each region,
# kind, age, sect and state, of the acting Methuselah and of the others.
TABLE = """rules: current
players: [Sarah, Alexis, Bob, Carol]
turn: Sarah
phase: minion
minions:
  - {name: Actor, controller: Sarah, capacity: 6, blood: 5, %s disciplines: [%s]}
  - {name: Young, controller: Sarah, capacity: 3, blood: 1, clan: Gangrel, sect: Camarilla, locked: true}
  - {name: Elder, controller: Sarah, capacity: 9, blood: 2, clan: Ravnos, sect: Independent}
  - {name: Spare, controller: Sarah, capacity: 4, blood: 0, clan: Assamite, sect: Independent, region: uncontrolled}
  - {name: Ancient, controller: Sarah, capacity: 8, blood: 1, clan: Gangrel, sect: Sabbat, region: uncontrolled}
  - {name: Carna, controller: Alexis, capacity: 4, blood: 2, clan: Tremere, sect: Camarilla, title: prince}
  - {name: Mort, controller: Alexis, type: ally, life: 2}
  - {name: Blaise, controller: Bob, capacity: 5, blood: 2, clan: Ventrue antitribu, sect: Sabbat, region: torpor}
  - {name: Nora, controller: Carol, capacity: 7, blood: 5, clan: Toreador, sect: Camarilla, locked: true}
events: [%s]
"""
ACTORS = ("sect: Camarilla, title: prince, clan: Ventrue,", "sect: Sabbat, title: archbishop, clan: Lasombra,")
MINIONS = ("Young", "Elder", "Spare", "Ancient", "Carna", "Mort", "Blaise", "Nora")


def _read_cards():
    """(card, level, its ActionText) for each action card line read whole that aims at a minion."""
    from judge.engine.vtes.cards import modelled
    out = []
    for facts, _ in library_cards("Action"):
        for level in (None, "superior"):
            what = modelled(facts, level)
            if what.action_text is not None and what.action_text.aiming is not None and not what.rest and \
                    not what.action_bleed:
                out.append((facts, level, what.action_text))
    return out


def _codes(facts, level) -> str:
    """The Disciplines of the card's first line at `level` (one of them when any will do), at superior."""
    line = next((ln for ln in facts.discipline_lines() if ln.played_at(level)), None)
    if line is None:
        return ""
    return ", ".join(c.upper() for c in (line.codes[:1] if line.any_of else line.codes))


def _play(facts, level, on: str | None, actor: str):
    codes = _codes(facts, level)
    at = " at superior" if level else ""
    events = [f'"Actor plays {facts.name}{at}' + (f' on {on}"' if on else '"'), "nobody blocks"]
    scenario = sc.parse(TABLE % (actor, codes, ", ".join(events)), cards=card_catalog())
    return scenario, sc.run(scenario)


def test_every_action_card_aiming_at_a_minion_is_played_on_those_it_allows():
    cards = _read_cards()
    assert len(cards) >= 12, [f.name for f, _, _ in cards]
    took = refused = 0
    for facts, level, text in cards:
        effect = text.aiming
        for on in MINIONS:
            results = [_play(facts, level, on, actor) for actor in ACTORS]
            # (a requirement of the card refuses one actor or the other: the card is judged by the one it allows)
            usable = [(s, r) for s, r in results if r.stop is None or "require" not in r.stop.message.casefold()]
            if not usable:
                continue
            scenario, run = usable[0]
            before, after = scenario.state, run.state
            if run.stop is not None:
                assert run.stop.kind in ("refused", "not-modelled"), (facts.name, on, run.stop.message)
                if run.stop.kind == "refused":
                    refused += 1
                    assert effect.sentence in run.stop.message, (facts.name, on, run.stop.message)
                continue
            took += 1
            text_all = "\n".join(step.text for step in run.steps)
            assert effect.sentence.strip() in text_all, (facts.name, on)
            assert counters_in_play(after) + after.bank == counters_in_play(before) + before.bank, facts.name
            aimed = after.minions.get(on)
            if effect.verb == "lock":
                assert aimed.locked, (facts.name, on)
            elif effect.verb == "unlock":
                assert not aimed.locked, (facts.name, on)
            elif effect.verb == "add blood":
                assert aimed.blood > before.minions[on].blood or aimed.blood == aimed.capacity, (facts.name, on)
            # directed exactly when it aims at another Methuselah's minion (the glossary's Directed Action)
            directed = before.minions[on].controller != "Sarah"
            assert (f"Only {before.minions[on].controller} may block" in text_all) == directed, (facts.name, on)
    assert took >= 20 and refused >= 40, (took, refused)


def test_a_bleed_cards_described_effect_is_applied_as_the_bleed_succeeds():
    """The effect a scenario describes on a bleed action card takes place on success (it was dropped before)."""
    table = TABLE % (ACTORS[0], "DOM", '"Actor plays Govern the Unaligned at inferior: Sarah gains 1 pool", '
                                      '"Alexis declines to block"')
    run = sc.run(sc.parse(table, cards=card_catalog()))
    assert run.stop is None, run.stop.message
    assert run.state.players["Sarah"].pool == 31 and run.state.players["Alexis"].pool == 27


def test_the_card_played_on_a_minion_is_read_from_the_sentence_and_the_structured_form():
    for event in ('"Actor plays Govern the Unaligned at superior on Spare"',
                  "{play: Govern the Unaligned, by: Actor, at: superior, chosen: Spare}"):
        run = sc.run(sc.parse(TABLE % (ACTORS[0], "DOM", event + ", nobody blocks"), cards=card_catalog()))
        assert run.stop is None and run.state.minions["Spare"].blood == 3, event
    with pytest.raises(ScenarioError, match="give one"):
        sc.parse(TABLE % (ACTORS[0], "DOM", "{play: Jar the Soul, by: Actor, chosen: Carna, put_on: Carna}"),
                 cards=card_catalog())
    # a card name holding ": ", played on a minion
    run = sc.run(sc.parse(TABLE % (ACTORS[0], "", '"Actor plays Fifth Tradition: Hospitality on Elder", '
                                                  '"nobody blocks"'), cards=card_catalog()))
    assert run.stop is None and run.state.minions["Elder"].blood == 6


def test_effects_that_need_no_minion_and_those_of_a_successful_bleed():
    # "Each of your unlocked vampires gains 1 blood from the blood bank." (Media Influence at superior): every one of
    # them as the action succeeds (the actor, locked by acting, and a locked one are not)
    run = sc.run(sc.parse(TABLE % (ACTORS[0], "PRE", '"Actor plays Media Influence at superior", "nobody blocks"'),
                          cards=card_catalog()))
    assert run.stop is None, run.stop.message
    assert [run.state.minions[n].blood for n in ("Elder", "Young", "Actor", "Carna")] == [3, 1, 4, 2]
    # "Gain 1 pool if the bleed is successful (for 1 or more)." (Social Charm at superior)
    run = sc.run(sc.parse(TABLE % (ACTORS[0], "PRE", '"Actor plays Social Charm at superior", '
                                                     '"Alexis declines to block"'), cards=card_catalog()))
    assert run.stop is None and run.state.players["Sarah"].pool == 31 and run.state.players["Alexis"].pool == 28
