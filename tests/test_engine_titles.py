"""Issue 37: the political action cards that put themselves on a vampire to represent a title
(judge.engine.vtes.titles), read from the real card list and played through their referendum."""
from __future__ import annotations

import re

import pytest
from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.vtes import politics


def _title_cards():
    """(card facts, what the engine reads of it) for every political action card printing "to represent the"."""
    return [(facts, what) for facts, what in library_cards("Political Action") if "to represent the" in facts.text]


def test_the_title_each_card_names_is_read_from_its_text():
    cards = _title_cards()
    read = [(f, w) for f, w in cards if w.title is not None]
    assert len(cards) >= 55 and len(read) >= 52, (len(cards), len(read))
    for facts, what in read:
        tc = what.title
        # the card's name says the title (the printed sentence is read independently of it)
        city = re.fullmatch(r"(Praxis Seizure|Crusade): (.+)", facts.name)
        if city:
            assert tc.title == ("Prince of " if city.group(1) == "Praxis Seizure" else "Archbishop of ") + city.group(2)
            assert tc.choice is None and tc.sect == ("Camarilla" if city.group(1) == "Praxis Seizure" else "Sabbat")
        elif facts.name.endswith(" Justicar"):
            assert tc.title == facts.name and tc.sect == "Camarilla"
            clan = facts.name.removesuffix(" Justicar")
            assert tc.choice is not None and tc.choice.ready and tc.choice.sect == "Camarilla", facts.name
            assert tc.choice.clan == clan and tc.votes[0] == clan and tc.votes[1] == 1, facts.name
        assert tc.put in facts.text and all(s in facts.text for s in tc.read)
    # the Justicars whose text names no sect take it from their ruling, quoted
    ruled = [w.title.choice for f, w in read if f.name.endswith(" Justicar") and "Camarilla" not in f.text.split(
        "to represent")[0]]
    assert len(ruled) >= 5 and all(c.ruling.startswith("[") and "Only a Camarilla vampire" in c.ruling for c in ruled)


def _table(facts, tc, receiver_clan: str, other_clan: str, locked_clan: str) -> str:
    sect = tc.sect
    acting = {"clan": receiver_clan if tc.choice is None else "Ventrue", "sect": sect, "capacity": 9}
    chosen = {"clan": (tc.choice.clan or receiver_clan) if tc.choice else other_clan,
              "sect": tc.choice.sect or sect if tc.choice else sect, "capacity": 11}
    events = [f'"Actor plays {facts.name}"', "nobody blocks"]
    if tc.choice is not None:
        events.append("Sarah chooses Chosen")
    events += [f'"Sarah votes for with {facts.name}"', "the polling closes", "Sarah's discard phase"]
    return (
        "rules: current\nplayers: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: minion\nminions:\n"
        f"  - {{name: Actor, controller: Sarah, capacity: {acting['capacity']}, blood: 4, clan: {acting['clan']}, "
        f"sect: {acting['sect']}}}\n"
        f"  - {{name: Chosen, controller: Bob, capacity: {chosen['capacity']}, blood: 4, clan: {chosen['clan']}, "
        f"sect: {chosen['sect']}}}\n"
        f"  - {{name: Other, controller: Alexis, capacity: 4, blood: 2, clan: {locked_clan}, sect: Independent}}\n"
        f"events: [{', '.join(events)}]\n")


@pytest.mark.parametrize("matching", [True, False], ids=["its clan", "another clan"])
def test_every_title_card_read_gives_its_title_and_what_else_it_says(matching):
    played = 0
    for facts, what in _title_cards():
        tc = what.title
        if tc is None or what.rest:
            continue
        clans = [x[0] for x in (tc.capacity, tc.unlock, tc.lock_all) if x]
        clan = clans[0] if clans else "Ventrue"
        receiver_clan = clan if matching else ("Malkavian" if clan != "Malkavian" else "Nosferatu")
        locked_clan = tc.lock_all[0] if tc.lock_all else "Nosferatu"
        scenario = sc.parse(_table(facts, tc, receiver_clan, receiver_clan, locked_clan), cards=card_catalog())
        result = sc.run(scenario)
        assert result.stop is None, (facts.name, result.stop)
        state = result.state
        receiver = state.minions["Chosen" if tc.choice else "Actor"]
        assert receiver.title == tc.title, facts.name
        key = politics.title_of(receiver)
        assert key in politics.TITLES, (facts.name, key)
        votes, _, _ = politics.votes_of(state, receiver)
        assert votes == politics.TITLES[key][0], facts.name  # the title's votes, in a later referendum
        before = 11 if tc.choice else 9
        raised = tc.capacity is not None and matching
        assert receiver.capacity == before + (tc.capacity[1] if raised else 0), facts.name
        # acting locks; the card's "unlocks during your next discard phase" unlocks it there, for its clan only
        if tc.choice is None:
            assert receiver.locked is not (tc.unlock is not None and matching), facts.name
        if tc.lock_all is not None:  # every vampire of that clan locks, unless the prince is one
            assert state.minions["Other"].locked is not matching, facts.name
        text = "\n".join(step.text for step in result.steps)
        assert tc.put.strip() in text, facts.name  # the step quotes the sentence that put the title
        played += 1
    assert played >= 50, played
