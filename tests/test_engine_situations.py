"""Situations met in play (issue 23): traits, unique cards and titles contested as they enter play, contest costs
by edition, titles and sects changed by cards, bleeds reduced or redirected, wake, the Red List, immunity, allies
put into play. Each refusal says what (its message and rule) and where (the event and its line)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.commands.check import check
from judge.engine import citations as C
from judge.engine import scenario as sc
from judge.engine.errors import ScenarioError

SITUATIONS = Path(__file__).resolve().parents[1] / "scenarios" / "situations"

TABLE = """\
rules: {rules}
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: {phase}
minions:
  - {{name: Belinde, controller: Sarah, capacity: 5, blood: 3, clan: Ventrue, sect: Camarilla}}
  - {{name: Carna, controller: Alexis, capacity: 4, blood: 2, clan: Brujah}}
  - {{name: Blaise, controller: Bob, capacity: 5, blood: 3, sect: Camarilla, title: Prince of Paris}}
{more}events:
{events}"""


def replay(events: list[str], phase: str = "minion", more: str = "", rules: str = "current"):
    text = TABLE.format(rules=rules, phase=phase, more=more, events="".join(f"  - {e!r}\n" for e in events))
    return sc.run(sc.parse(text, "situation.yaml"))


@pytest.fixture(scope="module")
def locator(corpus):
    return C.CiteLocator(corpus)


# -- traits are the books' or refused ---------------------------------------------------------------------
def test_an_unknown_trait_is_refused_at_its_line_naming_the_books_traits():
    more = "  - {name: Gargoyle, controller: Sarah, capacity: 3, traits: [Flying]}\n"
    with pytest.raises(ScenarioError) as err:
        replay(["Belinde hunts"], more=more)
    assert err.value.line == 9
    assert "unknown trait 'Flying'" in err.value.message and "Scarce" in err.value.message
    assert "Slave (Tremere)" in err.value.message
    more = "  - {name: Gargoyle, controller: Sarah, capacity: 3, traits: [Slave]}\n"
    with pytest.raises(ScenarioError, match="needs its master clan") as err:
        replay(["Belinde hunts"], more=more)
    assert err.value.line == 9
    # Spelt as a player would: any case, "slave to X"; Infernal is the `infernal:` flag.
    more = "  - {name: Gargoyle, controller: Sarah, capacity: 3, traits: [slave to Tremere, INFERNAL, Red List]}\n"
    run = replay(["Belinde hunts"], more=more)
    gargoyle = run.state.minions["Gargoyle"]
    assert gargoyle.traits == ("slave (tremere)", "infernal", "red list") and gargoyle.infernal


def test_an_unknown_trait_through_judge_check_json_is_malformed_with_its_line(tmp_path):
    path = tmp_path / "flying.yaml"
    path.write_text(TABLE.format(rules="current", phase="minion", events="  - Belinde hunts\n",
                                 more="  - {name: Gargoyle, controller: Sarah, capacity: 3, traits: [Flying]}\n"))
    result = CliRunner().invoke(check, [str(path), "--json"])
    assert result.exit_code == 1
    error = json.loads(result.output)["error"]
    assert error["kind"] == "malformed" and error["line"] == 9 and "unknown trait 'Flying'" in error["message"]


# -- refusals: what and where ------------------------------------------------------------------------------
SLAVE = "  - {name: Gargoyle, controller: Sarah, capacity: 3, blood: 2, traits: ['Slave (Tremere)']}\n"
RED = "  - {name: Ira, controller: Alexis, capacity: 4, blood: 2, traits: [Red List]}\n"


@pytest.mark.parametrize("events, phase, more, rules, n, message, rule", [
    (["Gargoyle bleeds Alexis"], "minion", SLAVE, "current", 1, "controls no ready Tremere", "SLAVE"),
    (["Gargoyle bleeds Alexis"], "minion", SLAVE, "older", 1, "a slave cannot perform a directed action", "SLAVE"),
    (["Belinde hunts the Red List minion Ira"], "minion", RED, "current", 1, "not a Red List minion marked this turn",
     "RED_LIST_HUNT"),
    (["Sarah marks Ira as a Red List minion"], "minion", RED, "current", 1, "uses a master phase action",
     "RED_LIST_MARK"),
    (["Sarah marks Carna as a Red List minion"], "master", RED, "current", 1, "Carna is not a Red List minion",
     "RED_LIST_MARK"),
    (["Sarah marks Ira as a Red List minion", "Sarah marks Ira as a Red List minion"], "master", RED, "current", 2,
     "already marked this turn", "RED_LIST_MARK"),
    (["Sarah marks Ira as a Red List minion", "minion phase", "Belinde hunts the Red List minion Ira",
      "nobody blocks", "the combat is over", "an effect unlocks Belinde", "Belinde hunts the Red List minion Ira"],
     "master", RED, "current", 7, "already performed the Red List action this turn", "RED_LIST_HUNT"),
    (["Belinde bleeds Alexis", "Carna plays a reaction: redirects the bleed to Sarah"], "minion", "", "current", 2,
     "can never bleed themselves", "BLEED_SELF"),
    (["Belinde bleeds Alexis", "Carna blocks", "Blaise plays a reaction: redirects the bleed to Bob"], "minion", "",
     "current", 3, "block attempt is open", "BLOCK_ONE_AT_A_TIME"),
    (["Belinde hunts", "Carna plays a reaction: -1 bleed"], "minion", "", "current", 2, "is played during a bleed",
     "BLEED_AMOUNT"),
    (["Belinde bleeds Alexis", "Carna is locked", "Carna blocks"], "minion", "", "current", 3, "unless it wakes",
     "BLOCK_READY"),
    (["Blaise becomes Prince of Paris"], "minion", "", "current", 1, "already holds the title", "ONE_TITLE"),
    (["Carna's sect becomes Sabbat", "Carna's sect becomes Sabbat"], "minion", "", "current", 2, "already Sabbat",
     "SECT_CHANGE"),
    (["an effect puts the ally Stray into play for Sarah: life 2", "Stray bleeds Alexis"], "minion", "", "current", 2,
     "cannot act this turn", "ALLY_NOT_THIS_TURN"),
    (["Sarah gains control of Belinde"], "minion", "", "current", 1, "Sarah already controls Belinde", "CONTROL_CHANGE"),
    (["Belinde bleeds Alexis", "Alexis gains control of Belinde"], "minion", "", "current", 2, None, "CONTROL_CHANGE"),
    (["Belinde bleeds Alexis", "Carna blocks", "Sarah passes", "Gargoyle takes Belinde's place in combat"], "minion",
     SLAVE, "current", 4, "Belinde is not a Tremere of Sarah's", "SLAVE_COMBAT"),
    (["Belinde bleeds Alexis", "Carna blocks", "Sarah passes", "Blaise takes Belinde's place in combat"], "minion",
     "", "current", 4, "Blaise is not a slave", "SLAVE_COMBAT"),
    (["Jackie pays 1 blood to contest her title"], "unlock",
     "  - {name: Jackie, controller: Sarah, capacity: 5, blood: 1, sect: Anarch, title: Baron of Paris, "
     "title_contested: true}\n", "older", 1, "not the 2 to pay for the title", "CONTEST_TITLE_FORCED"),
])
def test_refusals_say_what_and_where(events, phase, more, rules, n, message, rule, locator):
    if more.startswith("  - {name: Jackie"):  # the prince it contests with
        more += "  - {name: Dorian, controller: Bob, capacity: 5, blood: 3, title: Prince of Paris, title_contested: true}\n"
    run = replay(events, phase=phase, more=more, rules=rules)
    if message is None:  # not a refusal: what the books leave open
        assert run.stop.kind == "not-modelled" and run.stop.n == n and run.stop.rule == rule, run.stop
        return
    assert run.stop is not None and run.stop.kind == "refused", run.steps[-1].text if run.steps else None
    assert message in run.stop.message, run.stop.message
    assert run.stop.n == n and run.stop.line == 9 + more.count("\n") + n  # the table, then `events:`
    assert run.stop.rule == rule
    book = "vekn:" if rules == "current" else "rb:"
    ids = sc.cite_ids(run.stop.rules, run.edition, locator)
    assert ids and all(i.startswith(book) for i in ids), ids


def test_sterile_and_slave_refusals_cite_the_traits_paragraphs(locator):
    more = "  - {name: Kingpin, controller: Sarah, capacity: 6, blood: 4, traits: [Sterile]}\n"
    run = replay(["Kingpin plays The Embrace, an action card: puts a vampire in play, costing 2 blood"], more=more)
    assert run.stop.rule == "STERILE" and "sterile" in run.stop.message
    assert sc.cite_ids(run.stop.rules, "current", locator) == ["vekn:traits/10"]
    # A slave with a ready Tremere performs directed actions; an undirected one needs none.
    more = SLAVE + "  - {name: Etrius, controller: Sarah, capacity: 9, blood: 3, clan: Tremere}\n"
    run = replay(["Gargoyle bleeds Alexis", "nobody blocks"], more=more)
    assert run.stop is None and run.state.players["Alexis"].pool == 29
    run = replay(["Gargoyle hunts"], more=SLAVE)
    assert run.stop is None and run.state.minions["Gargoyle"].blood == 3


# -- not modelled: where the books do not settle it --------------------------------------------------------
def test_what_the_books_leave_open_stops_as_not_modelled(locator):
    run = replay(["Belinde bleeds Alexis", "Carna plays a reaction: redirects the bleed to Bob"], rules="older")
    assert run.stop.kind == "not-modelled" and "older book" in run.stop.message and run.stop.n == 2
    more = ("  - {name: Tegyrius, controller: Alexis, capacity: 8, blood: 3, clan: Assamite}\n"
            "  - {name: Jamal, controller: Sarah, capacity: 5, blood: 5, clan: Assamite, region: uncontrolled, "
            "traits: [Scarce]}\n")
    run = replay(["Sarah moves Jamal to the ready region", "discard phase"], phase="influence", more=more,
                 rules="older")  # the older book: controlled at the end of the influence phase
    assert run.stop.kind == "not-modelled" and run.stop.rule == "SCARCE"
    assert sc.cite_ids(run.stop.rules, "older", locator) == ["rb:11/5"]
    run = replay(["Sarah moves Jamal to the ready region"], phase="influence", more=more, rules="current")
    assert run.stop is None and run.state.players["Sarah"].pool == 30  # Tegyrius is Alexis's: nothing to burn
    more = ("  - {name: Seraph One, controller: Sarah, capacity: 6, blood: 6, title: Seraph, region: uncontrolled}\n"
            "  - {name: Seraph Two, controller: Alexis, capacity: 6, blood: 3, title: Seraph}\n")
    run = replay(["Sarah moves Seraph One to the ready region"], phase="influence", more=more)
    assert run.stop.kind == "not-modelled" and "'Seraph'" in run.stop.message


# -- what happens ------------------------------------------------------------------------------------------
def test_a_redirected_bleed_reopens_blocks_for_the_new_target_only():
    run = replay(["Belinde bleeds Alexis", "Carna plays Deflection, a reaction: redirects the bleed to Bob",
                  "Carna blocks"])
    assert run.stop.kind == "refused" and "Alexis may not block" in run.stop.message
    run = replay(["Belinde bleeds Alexis", "Alexis declines to block",
                  "Carna plays Deflection, a reaction: redirects the bleed to Bob", "Blaise blocks"])
    assert run.stop is None and run.state.combat.opposing == "Blaise"  # Bob's decision was not taken yet
    run = replay(["Belinde bleeds Alexis", "Carna plays a reaction: -2 bleed, redirects the bleed to Bob",
                  "nobody blocks"])
    assert run.state.players["Bob"].pool == 30 and run.state.players["Alexis"].pool == 30  # bleed 0: nothing burned


def test_a_woken_vampire_blocks_and_reacts_for_the_rest_of_the_action():
    more = "  - {name: Anneke, controller: Alexis, capacity: 4, blood: 2, locked: true}\n"
    run = replay(["Belinde plays an action card: directed at Alexis, +1 stealth", "Anneke plays a reaction: wake",
                  "Anneke blocks", "Anneke plays a reaction: +1 intercept"], more=more)
    assert run.stop is None and run.state.combat.opposing == "Anneke"


def test_cards_and_titles_entering_play_are_contested_or_not_as_the_books_say():
    # A clan's justicar: "Tremere Justicar" against a Justicar of clan Tremere.
    more = ("  - {name: Karl, controller: Alexis, capacity: 7, blood: 3, clan: Tremere, title: Justicar}\n"
            "  - {name: Anastasz, controller: Sarah, capacity: 8, blood: 8, title: Tremere Justicar, "
            "region: uncontrolled}\n"
            "  - {name: Lucinde, controller: Sarah, capacity: 6, blood: 6, title: Baron of Paris, sect: Anarch, "
            "region: uncontrolled}\n"
            "  - {name: Ezra, controller: Sarah, capacity: 5, blood: 5, title: Primogen, region: uncontrolled}\n"
            "  - {name: Primo, controller: Alexis, capacity: 5, blood: 2, title: Primogen}\n"
            "  - {name: Carna 2, card: Carna, controller: Sarah, capacity: 4, blood: 4, region: uncontrolled}\n"
            "  - {name: Belinde 2, card: Belinde, controller: Sarah, capacity: 5, blood: 5, region: uncontrolled}\n")
    run = replay(["Sarah influences Anastasz", "Sarah influences Lucinde", "Sarah influences Ezra",
                  "Sarah influences Carna 2"], phase="influence", more=more)
    assert run.stop is None, run.stop.message
    m = run.state.minions
    assert m["Anastasz"].title_contested and m["Karl"].title_contested
    assert m["Lucinde"].title_contested and m["Blaise"].title_contested  # a baron against a prince of Paris
    assert not m["Ezra"].title_contested and not m["Primo"].title_contested
    assert m["Carna"].contested and m["Carna 2"].contested
    # Sarah's own second copy: influencing it out is a voluntary contest with herself, refused (issue 37);
    # an effect forcing it burns the incoming copy (scenarios/situations/own_second_copy_by_an_effect_burned.yaml).
    again = replay(["Sarah influences Belinde 2"], phase="influence", more=more)
    assert again.stop is not None and again.stop.kind == "refused" and "voluntarily" in again.stop.message
    assert "Belinde 2" in again.state.minions and not again.state.minions["Belinde"].contested


def test_a_vampire_gaining_a_title_yields_its_contested_one_and_its_rival_acquires_it():
    more = "  - {name: Lucinde, controller: Sarah, capacity: 6, blood: 4, title: Prince of Paris, title_contested: true}\n"
    text = TABLE.format(rules="current", phase="minion", events="  - Lucinde becomes Prince of Madrid\n  - Bob's turn\n",
                        more=more).replace("title: Prince of Paris}", "title: Prince of Paris, title_contested: true}")
    run = sc.run(sc.parse(text))
    assert run.stop is None, run.stop.message
    assert run.state.minions["Lucinde"].title == "Prince of Madrid" and not run.state.minions["Lucinde"].title_contested
    assert not run.state.minions["Blaise"].title_contested  # acquired at Bob's unlock phase
    assert any("acquires it" in s.text for s in run.steps)


def test_immunity_covers_its_own_source_only_and_an_ally_put_into_play_can_be_unique():
    more = "  - {name: Ira, controller: Alexis, capacity: 4, blood: 3, immune: [Carrion Crows]}\n"
    run = replay(["Ira receives 2 damage from Carrion Crows", "Ira receives 1 damage from Raking Talons"], more=more)
    assert run.stop is None and run.state.minions["Ira"].blood == 2
    run = replay(["an effect puts the unique ally Stray into play for Sarah: life 2",
                  "an effect puts the ally Stray 2 into play for Alexis: life 1, unique, named Stray"])
    assert run.stop is None and run.state.minions["Stray"].contested and run.state.minions["Stray 2"].contested


def test_every_situation_scenario_cites_every_step_in_both_books(locator):
    result = CliRunner().invoke(check, [str(SITUATIONS), "--json", "--compare", "current,older"])
    assert result.exit_code == 0, result.output
    for line in result.output.strip().splitlines():
        obj = json.loads(line)
        assert obj["ok"], obj["file"]
        for edition, run in obj["runs"].items():
            book = "vekn:" if edition == "current" else "rb:"
            for step in run["steps"]:
                assert step["cites"] and all(c.startswith(book) for c in step["cites"]), (obj["file"], step)


def _with_locations(events: list[str], locations: str, phase: str = "master", more: str = ""):
    text = TABLE.format(rules="current", phase=phase, more=more, events="".join(f"  - {e!r}\n" for e in events))
    return sc.run(sc.parse(text.replace("events:", f"locations: {locations}\nevents:")))


def test_unique_locations_and_equipment_are_contested_paid_for_and_burned_as_the_books_say():
    from judge.engine.vtes.state import state_to_json

    run = _with_locations(["Sarah plays The Parthenon, a master card: location, unique"], "{Bob: [Parthenon]}")
    players = state_to_json(run.state)["players"]
    assert run.stop is None and players["Sarah"]["contested_cards"] == ["Parthenon"]
    assert players["Bob"]["contested_cards"] == ["Parthenon"] and players["Bob"]["locations"] == []
    # A second copy of one's own unique location is burned; the one in play stays.
    run = _with_locations(["Sarah plays The Parthenon, a master card: location, unique"], "{Sarah: [The Parthenon]}")
    assert state_to_json(run.state)["players"]["Sarah"]["locations"] == ["The Parthenon"]
    assert any("never contests a card with themself" in s.text for s in run.steps)
    # Contested equipment whose bearer left play is burned when the contest ends.
    more = "  - {name: Pug, controller: Alexis, type: ally, life: 1, equipment: [Ankara Citadel]}\n"
    run = replay(["Belinde equips with the Ankara Citadel: unique", "nobody blocks", "Sarah passes", "Pug burns 1 blood",
                  "Alexis's turn", "Alexis pays 1 pool to contest Ankara Citadel", "Sarah's turn",
                  "Sarah yields Ankara Citadel", "Alexis's turn"], more=more)
    assert run.stop is None, run.stop.message
    players = state_to_json(run.state)["players"]
    assert players["Alexis"]["contested_cards"] == [] and players["Sarah"]["contested_cards"] == []
    assert run.state.minions["Belinde"].equipment == () and run.state.players["Alexis"].pool == 29
    assert any("Pug has left play: Ankara Citadel is burned with it" in s.text for s in run.steps)


def test_an_unpaid_location_contest_stops_the_unlock_phase_at_its_event():
    run = _with_locations(["Sarah plays The Parthenon, a master card: location, unique", "Bob's turn",
                           "master phase"], "{Bob: [Parthenon]}")
    assert run.stop.kind == "refused" and run.stop.n == 3 and run.stop.line == 13
    assert "Bob must pay 1 pool to keep contesting Parthenon" in run.stop.message and run.stop.rule == "CONTEST_CARD"


def test_the_time_limit_counts_the_scenario_s_work_not_the_process_garbage_collections():
    """The full suite, holding a large heap, paid a whole-heap collection while reading a scenario and went over
    the 1-second limit on a busy machine: collections are not the scenario's work."""
    import gc
    import time
    from dataclasses import replace as with_field

    from judge.engine import limits as L
    from judge.engine.limits import OverLimit

    quick = with_field(L.DEFAULT, seconds=0.2)
    clock = L.Clock(quick, "reading the scenario")
    start = time.monotonic()
    while time.monotonic() - start < 0.3:
        gc.collect()
    clock.check()  # 0.3 s, all of it collecting: not counted
    clock = L.Clock(quick, "reading the scenario")
    time.sleep(0.3)
    with pytest.raises(OverLimit, match="reading the scenario took more than 0.2 seconds"):
        clock.check()
