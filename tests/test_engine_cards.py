"""Real cards in the engine (judge/engine/vtes/cards.py): a named card is looked up in the real card base and checked;
each refusal says what and where, cites the rule in the edition replayed and quotes the card; an unknown card is
refused at its line with the closest names."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from card_catalog import card_catalog

from judge.commands.check import check
from judge.engine import citations as C
from judge.engine import scenario as sc
from judge.engine.errors import ScenarioError

TABLE = """\
rules: {rules}
players: [Sarah, Alexis, Bob]
turn: {turn}
phase: {phase}
pool: {{Alexis: 12, Bob: 1}}
minions:
  - {{name: Belinde, controller: Sarah, capacity: 5, blood: 3, disciplines: [dom, obf, pot], clan: Ventrue}}
  - {{name: Carna, controller: Alexis, capacity: 4, blood: 0, disciplines: [aus]}}
  - {{name: Gus, controller: Bob, capacity: 4, blood: 2, disciplines: [aus], locked: true}}
events:
"""


def replay(*events: str, rules: str = "current", turn: str = "Sarah", phase: str = "minion"):
    text = TABLE.format(rules=rules, turn=turn, phase=phase) + "".join(
        f"  - {e!r}\n" if ": " in e and not e.startswith("{") else f"  - {e}\n" for e in events)
    return sc.run(sc.parse(text, "t.yaml", cards=card_catalog()), locator=None)


# (events, the stopping event's number, what the message says, the rule named first, the card quoted)
REFUSALS = [
    (["Belinde plays Govern the Unaligned at superior"], 1, "requires superior Dominate, and Belinde has Dominate "
     "(inferior)", "CARD_REQUIREMENTS", "Govern the Unaligned"),
    (["Belinde plays Majesty"], 1, "no combat is in progress", "CARD_COMBAT_WHO", "Majesty"),
    (["Belinde bleeds Alexis", "Belinde plays Aire of Elation"], 2, "it requires Presence, and Belinde has none",
     "CARD_REQUIREMENTS",
     "Aire of Elation"),
    (["Belinde plays Parity Shift"], 1, "(untitled) cannot play Parity Shift: it requires a prince or justicar",
     "CARD_REQUIREMENTS", "Parity Shift"),
    (["Belinde bleeds Alexis", "Carna plays Telepathic Misdirection"], 2, "Carna has 0 blood, not enough to play "
     "Telepathic Misdirection (costs 1 blood)", "COST_REQUIRED", "Telepathic Misdirection"),
    (["Belinde bleeds Alexis", "Gus plays Eagle's Sight"], 2, "Gus is not ready and unlocked", "REACTION_WHO",
     "Eagle's Sight"),
    (["Belinde bleeds Alexis", "Carna plays Cloak the Gathering"], 2, "the acting minion is Belinde",
     "CARD_MODIFIER_WHO", "Cloak the Gathering"),
    (["Belinde hunts", "Belinde plays Conditioning"], 2, "is \"Only usable during a bleed action.\": Belinde hunts",
     "CARD_REQUIREMENTS", "Conditioning"),
    (["Alexis plays Minion Tap: Carna burns 1 blood"], 1, "regular master cards are played in one's own master "
     "phase", "MASTER_IN_PHASE", "Minion Tap"),
    (["Sarah plays Sudden Reversal"], 1, "an out-of-turn master card, on Sarah's own turn", "OUT_OF_TURN",
     "Sudden Reversal"),
    (["Sarah plays Conditioning"], 1, "a minion plays it", "CARD_MASTER_WHO", "Conditioning"),
    (["Belinde plays Minion Tap"], 1, "Methuselahs play master cards, not minions", "CARD_MASTER_WHO", "Minion Tap"),
    (["Bob plays Elysium: The Palace of Versailles"], 1, "Bob has 1 pool, not enough", "COST_REQUIRED",
     "Elysium: The Palace of Versailles"),
    (["Sarah discards Conditioning for its burn option"], 1, "Conditioning has no burn option", "BURN_OPTION",
     "Conditioning"),
    (["Sarah discards Blessings of the Loa for its burn option"], 1, "the burn option is used in an unlock phase",
     "BURN_OPTION", "Blessings of the Loa"),
]


@pytest.mark.parametrize("events,n,what,rule,card", REFUSALS, ids=[r[0][-1] for r in REFUSALS])
def test_each_refusal_says_what_and_where_cites_both_books_and_quotes_the_card(events, n, what, rule, card):
    for rules in C.RULES_EDITIONS:
        stop = replay(*events, rules=rules).stop
        assert stop is not None and stop.kind == "refused", (rules, stop)
        assert stop.n == n and stop.line == 10 + n, (stop.n, stop.line)
        assert what in stop.message and f'{card}: "' in stop.message, stop.message
        assert stop.rules[0].name == rule or rule in [r.name for r in stop.rules], [r.name for r in stop.rules]
        assert any(r.cites(rules) for r in stop.rules), (rules, [r.name for r in stop.rules])


def test_an_unknown_card_is_refused_at_its_line_with_the_closest_names(tmp_path, runner):
    for event in ("Belinde plays Govern the Unalligned", "{play: Govern the Unalligned, by: Belinde}",
                  "Sarah discards Govern the Unalligned for its burn option"):
        with pytest.raises(ScenarioError) as info:
            replay(event)
        assert info.value.line == 11 and "unknown card 'Govern the Unalligned'" in info.value.message, info.value
    message = str(pytest.raises(ScenarioError, replay, "Belinde plays Govern the Unalligned").value)
    # the misspelt card alone: no card merely sharing a short word ("Una", "... of Antiquities")
    assert message.endswith("the closest names: Govern the Unaligned"), message
    # judge check --json: malformed, at its line, the other files still checked
    bad = tmp_path / "bad.yaml"
    bad.write_text(TABLE.format(rules="current", turn="Sarah", phase="minion")
                   + "  - Belinde plays Govern the Unalligned\nexpect: {pool.Alexis: 9}\n")
    good = Path(__file__).resolve().parents[1] / "scenarios" / "cards" / "govern_inferior_bleed.yaml"
    result = runner.invoke(check, [str(bad), str(good), "--json"])
    reports = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 1 and [r["ok"] for r in reports] == [False, True]
    assert reports[0]["error"]["kind"] == "malformed" and reports[0]["error"]["line"] == 11
    assert "Govern the Unaligned" in reports[0]["error"]["message"]


def test_a_minion_named_by_its_crypt_card():
    base = "rules: current\nplayers: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nminions:\n  - {minion}\nevents: []\n"

    def table(minion: str):
        return sc.parse(base.format(minion=minion), "m.yaml", cards=card_catalog()).state.minions

    theo = table("{name: Theo Bell, controller: Sarah, blood: 4}")["Theo Bell"]
    assert (theo.capacity, theo.clan, theo.sect, sorted(theo.disciplines)) == (7, "Brujah", "Camarilla",
                                                                              ["POT", "cel", "dom", "pre"])
    assert table("{name: L, card: 'Lucinde, Alastor', controller: Sarah, blood: 5}")["L"].title == "justicar"
    assert table("{name: U, card: 'Ur-Shulgi, The Shepherd', controller: Sarah}")["U"].votes == 2
    kept = table("{name: Theo Bell, controller: Sarah, capacity: 8, changed: [capacity]}")["Theo Bell"]
    assert kept.capacity == 8 and kept.clan == "Brujah"
    # a minion described in full is not looked up; a contest's copy keeps its own name (a card: the base does not
    # know is the scenario's)
    assert table("{name: Theo Bell, controller: Sarah, capacity: 8}")["Theo Bell"].clan is None
    assert table("{name: Carna 2, card: Carna, controller: Sarah, capacity: 4}")["Carna 2"].card == "Carna"
    for minion, line, what in [
        ("{name: Theo, card: Theo Bell, controller: Sarah, capacity: 8}", 6,
         "capacity 8 is not what Theo Bell's card says (7); list it under changed: [capacity]"),
        ("{name: Theo Bel, controller: Sarah}", 6, "unknown crypt card 'Theo Bel'"),
        ("{name: X, card: Conditioning, controller: Sarah}", 6, "not a crypt card"),
        ("{name: X, card: 'Earl \"Shaka74\" Deams', controller: Sarah}", 6, "Imbued crypt card"),
        ("{name: Theo Bell, controller: Sarah, changed: [blood]}", 6, "changed[0]: expected 'capacity'"),
    ]:
        with pytest.raises(ScenarioError) as info:
            table(minion)
        assert info.value.line == line and what in info.value.message, info.value


def test_without_the_card_base_a_named_card_is_refused_saying_why():
    text = TABLE.format(rules="current", turn="Sarah", phase="minion") + "  - Belinde plays Conditioning\n"
    with pytest.raises(ScenarioError) as info:
        sc.parse(text, "t.yaml")
    assert info.value.line == 11 and "no card base was given" in info.value.message
    with pytest.raises(ScenarioError, match="needs the card base"):
        sc.parse("players: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nminions:\n"
                 "  - {name: Theo Bell, controller: Sarah}\nevents: []\n", "t.yaml")


def test_what_the_engine_does_not_model_stops_with_the_rulings_or_is_applied_as_stated():
    stop = replay("Belinde bleeds Alexis", "Carna blocks", "Sarah passes", "Belinde plays Torn Signpost").stop
    assert stop.kind == "not-modelled" and "Torn Signpost's rulings: [ruling:" in stop.message
    # Govern the Unaligned at superior: "+1 stealth action" is modelled, the rest applied only as stated
    text = TABLE.format(rules="current", turn="Sarah", phase="minion").replace("[dom, obf, pot]", "[DOM]")
    stated = sc.run(sc.parse(text + "  - {play: Govern the Unaligned, by: Belinde, at: superior, effect: {pool: "
                             "{Sarah: 3}}}\n  - nobody blocks\n", "t.yaml", cards=card_catalog()))
    assert stated.stop is None and stated.state.players["Sarah"].pool == 33
    assert stated.state.minions["Belinde"].blood == 2  # its blood cost, paid on success
    described = sc.run(sc.parse(text + "  - Belinde bleeds Alexis\n  - {play: The Sleeping Mind, by: Belinde, at: "
        "superior, says: 'minions cannot unlock during this action'}\n  - Alexis declines to block\n", "t.yaml",
        cards=card_catalog()))  # ("During this action, minions cannot unlock."): shown, not applied; the cost is paid
    assert described.stop is None and described.state.players["Alexis"].pool == 11
    assert described.state.minions["Belinde"].blood == 2
    unstated = sc.run(sc.parse(text + "  - Belinde plays Govern the Unaligned at superior\n", "t.yaml",
                               cards=card_catalog()))
    assert unstated.stop.kind == "not-modelled" and "Add 3 blood to a younger vampire" in unstated.stop.message
    # a cancelled card: no effect; a non-action card's cost is paid (current book), not modelled (older book)
    done = replay("Belinde bleeds Alexis", "Alexis declines to block", "Belinde plays Conditioning, cancelled as it "
                  "is played")
    assert done.stop is None and done.state.minions["Belinde"].blood == 2 and done.state.players["Alexis"].pool == 11
    older = replay("Belinde bleeds Alexis", "Belinde plays Conditioning, cancelled as it is played", rules="older")
    assert older.stop.kind == "not-modelled" and "older book does not say" in older.stop.message
    cancelled_action = replay("Belinde plays Govern the Unaligned, cancelled as it is played")
    assert cancelled_action.stop is None and not cancelled_action.state.minions["Belinde"].locked


def test_the_catalog_looks_each_card_up_once():
    catalog = card_catalog()
    first = catalog.lookup("Conditioning")
    assert catalog.lookup("  conditioning ") is first and first.name == "Conditioning"
    assert catalog.lookup("Govern the Unalligned") is None and "Govern the Unaligned" in catalog.closest(
        "Govern the Unalligned")


def test_the_web_reads_named_cards_as_judge_check_does(client, runner, tmp_path):
    """/api/check and judge check --json give the same stop for a named card, and the same error for an unknown
    one (the web reads with the same card base)."""
    for event, kind in (("Belinde plays Govern the Unaligned at superior", "refused"),
                        ("Belinde plays Govern the Unalligned", "malformed")):
        text = TABLE.format(rules="current", turn="Sarah", phase="minion") + f"  - {event}\n"
        path = tmp_path / "s.yaml"
        path.write_text(text)
        cli = json.loads(runner.invoke(check, [str(path), "--json"]).output)
        api = client.post("/api/check", data=text, content_type="text/yaml")
        body = api.get_json()
        assert cli["error"]["kind"] == kind and cli["error"]["line"] == 11, cli["error"]
        if kind == "refused":
            assert api.status_code == 200 and body["error"] == cli["error"], body
        else:
            assert api.status_code == 400 and body["line"] == 11 and "Govern the Unaligned" in body["error"], body


@pytest.mark.parametrize("card, level, strike", [
    ("Roundhouse", "inferior", ("hand", 2, False, False, False, False)),
    ("Roundhouse", "superior", ("hand", 3, False, False, False, False)),
    ("Burning Wrath", "superior", ("hand", 2, False, True, False, False)),  # "at +2 damage, aggravated"
])
def test_a_hand_strike_at_more_damage_is_read_as_printed(card, level, strike):
    """"Strike: hand strike at +N damage." is a hand strike (close range only) of the striker's strength and N
    more; read whole, the card is played as that strike."""
    from judge.engine.vtes.cards import modelled
    read = modelled(card_catalog().card(card, None), level)
    assert read.strike == strike and read.rest == []


def test_a_hand_strike_card_with_more_text_is_not_played_as_its_strike_alone():
    """Blood Rage's hand strike comes with what it does to Fortitude and weapons: the replay stops, quoting it."""
    text = TABLE.format(rules="current", turn="Sarah", phase="minion").replace("[dom, obf, pot]", "[tha]")
    stop = sc.run(sc.parse(text + "  - Belinde bleeds Alexis\n  - Carna blocks\n  - the range is set to close\n"
                                  "  - Belinde plays Blood Rage\n", "t.yaml", cards=card_catalog())).stop
    assert stop.kind == "not-modelled" and "cannot be prevented by cards requiring Fortitude" in stop.message


def test_a_reaction_usable_by_a_locked_vampire_is_played_locked_and_others_are_refused():
    """"Usable by a locked vampire." (Their Master's Voice) is the card over the rule that only unlocked minions
    react: played, citing both, and the vampire stays locked; a reaction without it is refused as before."""
    text = TABLE.format(rules="current", turn="Sarah", phase="minion").replace(
        "disciplines: [aus]}", "disciplines: [aus], clan: Tremere, locked: true}")
    played = sc.run(sc.parse(text + "  - Belinde bleeds Alexis\n  - \"Carna plays Their Master's Voice: an effect "
                                    "unlocks Gus\"\n", "t.yaml", cards=card_catalog()), locator=None)
    assert played.stop is None and played.state.minions["Carna"].locked and not played.state.minions["Gus"].locked
    said = next(step for step in played.steps if "Their Master's Voice, as the card allows" in step.text)
    assert {"GOLDEN_RULE", "REACTION_WHO"} <= {r.name for r in said.rules}
    refused = sc.run(sc.parse(text + "  - Belinde bleeds Alexis\n  - Carna plays Eagle's Sight\n", "t.yaml",
                              cards=card_catalog()), locator=None)
    assert refused.stop.kind == "refused" and "only ready unlocked minions play reactions" in refused.stop.message


@pytest.mark.parametrize("library, drawn", [(20, 1), (0, 0)])
def test_a_combat_card_not_replaced_until_after_combat_is_drawn_as_the_combat_ends(library, drawn):
    """Dodge: "Do not replace until after combat." The hand is one short while the combat lasts; the card is
    drawn as it ends, as far as the library goes."""
    text = TABLE.format(rules="current", turn="Sarah", phase="minion").replace(
        "pool: {Alexis: 12, Bob: 1}", f"pool: {{Alexis: 12, Bob: 1}}\nhand: {{Alexis: 7}}\nlibrary: {{Alexis: {library}}}"
    ).replace("name: Carna, controller: Alexis, capacity: 4, blood: 0", "name: Carna, controller: Alexis, capacity: 4, "
              "blood: 2")
    events = ["Belinde bleeds Alexis", "Carna blocks", "the range is set to close", "Belinde uses her hand strike",
              "Carna plays Dodge"]
    during = sc.run(sc.parse(text + "".join(f"  - {e}\n" for e in events), "t.yaml", cards=card_catalog()),
                    locator=None)
    assert during.stop is None and during.state.combat is not None and during.state.players["Alexis"].hand == 6
    after = sc.run(sc.parse(text + "".join(f"  - {e}\n" for e in [*events, "nobody presses"]), "t.yaml",
                            cards=card_catalog()), locator=None)
    assert after.stop is None and after.state.combat is None
    assert after.state.players["Alexis"].hand == 6 + drawn
    assert any("not replaced until after combat" in step.text for step in after.steps)
    # A press to continue: the second round still owes the card, drawn when that combat ends
    pressed = [*events, "Belinde presses to continue", "nobody presses"]
    second = sc.run(sc.parse(text + "".join(f"  - {e}\n" for e in pressed), "t.yaml", cards=card_catalog()),
                    locator=None)
    assert second.stop is None and second.state.combat is not None and second.state.combat.round == 2
    assert second.state.players["Alexis"].hand == 6
    ended = sc.run(sc.parse(text + "".join(f"  - {e}\n" for e in [*pressed, "the range is set to close",
                                                                     "Belinde uses her hand strike",
                                                                     "Carna uses her hand strike",
                                                                     "nobody prevents damage", "nobody presses"]),
                            "t.yaml", cards=card_catalog()), locator=None)
    assert ended.stop is None and ended.state.combat is None, ended.stop
    assert ended.state.players["Alexis"].hand == 6 + drawn


def test_a_strike_card_s_optional_press_is_played_without_the_card_again_and_as_limited():
    """Vampiric Speed at superior, "Strike: dodge, with an optional press.": the press it gives this round plays no
    card (the hand is as after the one card); Amria's, "only usable to end combat", cannot continue it."""
    text = TABLE.format(rules="current", turn="Sarah", phase="minion").replace(
        "pool: {Alexis: 12, Bob: 1}", "pool: {Alexis: 12, Bob: 1}\nhand: {Alexis: 7}\nlibrary: {Alexis: 20}").replace(
        "capacity: 4, blood: 0, disciplines: [aus]", "capacity: 4, blood: 2, disciplines: [CEL, CHI]")
    events = ["Belinde bleeds Alexis", "Carna blocks", "the range is set to close", "Belinde uses her hand strike"]

    def run(*more):
        return sc.run(sc.parse(text + "".join(f"  - {e}\n" for e in [*events, *more]), "t.yaml",
                               cards=card_catalog()), locator=None)
    pressed = run("Carna plays Vampiric Speed at superior", "Carna presses to continue with Vampiric Speed")
    assert pressed.stop is None and pressed.state.combat.press == "Carna"
    assert pressed.state.players["Alexis"].hand == 7 and pressed.state.players["Alexis"].library == 19
    limited = run("Carna plays Amria at superior", "Carna presses to continue with Amria")
    assert limited.stop.kind == "refused" and "only usable to end combat" in limited.stop.message
    assert 'Amria: "Strike: dodge, with 1 optional press, only usable to end combat."' in limited.stop.message
