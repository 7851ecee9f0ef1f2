"""The event grammar: every documented form parses, to the event it says."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import re

from card_catalog import card_catalog

from judge.engine.vtes import events as ev
from judge.engine.vtes.forms import Names
from judge.engine.vtes.grammar import STRUCTURED, WORDING, parse_structured, parse_wording

DOC = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text()
PLAYERS = ["Sarah", "Alexis", "Bob", "Nora", "Steve"]
MINIONS = ["Belinde", "Carna", "Ira", "Krid", "Quentin", "The Dowager", "Alexa Draper", "Sybren van Oosten",
           "Lucinde", "Eugenio", "Pug", "Ayelech", "Colette", "Wauneka", "Flávio Gonçalves", "Chrysanthemum",
           "Ryan", "Nassir", "Kurt", "Dorka", "Chavi Oraczko", "Julia Prima", "Crossbreaker", "Antonio Veradas",
           "Emily Carson", "The Arcadian", "Gabrin", "Etrius"]


def names() -> Names:
    return Names(PLAYERS, MINIONS, card_catalog())


@pytest.mark.parametrize("pattern", WORDING, ids=[p.example for p in WORDING])
def test_every_wording_example_parses_and_is_documented(pattern):
    event = parse_wording(pattern.example, names(), 1)
    assert isinstance(event, ev.Event)
    assert pattern.example in DOC, f"docs/scenarios.md does not show {pattern.example!r}"


@pytest.mark.parametrize("key", sorted(STRUCTURED))
def test_every_structured_example_parses_and_is_documented(key):
    example = STRUCTURED[key][2]
    data = yaml.safe_load(example)
    event = parse_structured(data, names(), 1)
    assert isinstance(event, ev.Event)
    assert example in DOC, f"docs/scenarios.md does not show {example!r}"


@pytest.mark.parametrize("text, expected", [
    ("Belinde bleeds Alexis", ev.Bleed(actor="Belinde", target="Alexis")),
    ("belinde bleeds alexis for 1.", ev.Bleed(actor="Belinde", target="Alexis", amount=1)),
    ("Belinde bleeds", ev.Bleed(actor="Belinde")),
    ("the Dowager hunts", ev.Hunt(actor="The Dowager")),
    ("Alexis declines to block", ev.Decline(player="Alexis")),
    ("Alexis doesn't block", ev.Decline(player="Alexis")),
    ("nobody blocks", ev.Decline(player=None)),
    ("Alexis blocks with Carna", ev.Block(blocker="Carna")),
    ("Carna plays a reaction for +1 intercept", ev.Reaction(minion="Carna", intercept=1)),
    ("Carna plays Eagle's Sight, a reaction: +1 intercept to Carna, costing 1 blood",
     ev.Reaction(minion="Carna", card="Eagle's Sight", intercept=1, to="Carna", cost=ev.Cost(blood=1))),
    ("Belinde plays an action modifier: +1 bleed (limited)", ev.Modifier(minion="Belinde", bleed=1, limited=True)),
    ("Belinde plays an action modifier: +1 bleed, not limited", ev.Modifier(minion="Belinde", bleed=1, limited=False)),
    ("Quentin plays Confusion, an action modifier: +1 bleed", ev.Modifier(minion="Quentin", card="Confusion", bleed=1)),
    ("Krid plays Computer Hacking, an action card: bleed at +1",
     ev.ActionCard(actor="Krid", card="Computer Hacking", as_="bleed", bleed=1)),
    ("Belinde plays an action card: directed at Bob, +1 stealth, costing 2 pool",
     ev.ActionCard(actor="Belinde", targets=("Bob",), directed=True, stealth=1, cost=ev.Cost(pool=2))),
    ("The Dowager recruits the Underbridge Stray at +1 stealth, costing The Dowager 1 blood (ally, life 2)",
     ev.Recruit(actor="The Dowager", ally="Underbridge Stray", life=2, stealth=1, cost=ev.Cost(blood=1))),
    ("Sarah plays Blood Doll, a master card: trifle, costing 1 pool",
     ev.MasterCard(player="Sarah", card="Blood Doll", trifle=True, cost_pool=1)),
    ("Alexis plays an out-of-turn master card (trifle)", ev.MasterCard(player="Alexis", trifle=True, out_of_turn=True)),
    ("Nora moves 2 pool to Alexa Draper", ev.TransferPool(player="Nora", vampire="Alexa Draper", amount=2)),
    ("Nora takes one blood back from Sybren van Oosten",
     ev.TransferBack(player="Nora", vampire="Sybren van Oosten", amount=1)),
    ("Nora influences Alexa Draper", ev.Influence(player="Nora", vampire="Alexa Draper")),
    ("Alexis' turn", ev.TurnOf(player="Alexis")),
    ("Sarah's next turn", ev.TurnOf(player="Sarah", next=True)),
    ("influence phase", ev.GoToPhase(phase="influence")),
    ("end of turn", ev.EndTurn()),
    ("Steve burns all his pool", ev.Effect(effect=ev.CardEffect(pool=(("Steve", None),)))),
    ("Alexis gains 2 pool", ev.Effect(effect=ev.CardEffect(pool=(("Alexis", 2),)))),
    ("Belinde is locked", ev.Effect(effect=ev.CardEffect(lock=("Belinde",)))),
])
def test_wording_means_what_it_says(text, expected):
    event = parse_wording(text, names(), 3)
    got = {k: v for k, v in vars(event).items() if k not in ("line", "text")}
    want = {k: v for k, v in vars(expected).items() if k not in ("line", "text")}
    assert type(event) is type(expected) and got == want
    assert event.line == 3 and event.text == text


def test_a_recruited_ally_can_be_named_by_later_events():
    n = names()
    parse_wording("Pug recruits Loyal Street Gang (ally, life 3)", n, 1)
    assert parse_wording("Loyal Street Gang bleeds Alexis", n, 2) == ev.Bleed(
        actor="Loyal Street Gang", target="Alexis", line=2, text="Loyal Street Gang bleeds Alexis")


def test_a_name_ending_in_an_apostrophe_is_the_name_not_a_possessive():
    """"Dancin' Dana" stays her name (the possessive "Alexis' " is read as "Alexis's" around it): a vampire of the
    card list was once refused as the unknown "Dancin's Dana"."""
    n = Names(PLAYERS, MINIONS + ["Dancin' Dana"], card_catalog())
    assert parse_wording("Dancin' Dana bleeds Alexis", n, 1).actor == "Dancin' Dana"
    assert parse_wording("Dancin\u2019 Dana enters combat with Carna as her action", n, 2) == ev.CombatAction(
        actor="Dancin' Dana", target="Carna", line=2, text="Dancin\u2019 Dana enters combat with Carna as her action")
    assert parse_wording("Sarah burns 1 pool to unlock Dancin' Dana", n, 3).minion == "Dancin' Dana"


@pytest.mark.parametrize("card", ["Cats' Guidance", "Achilles' Heel", "Veles' Hunt"])
def test_a_card_name_with_an_apostrophe_ending_a_word_is_the_card(card):
    """A library card whose name has an apostrophe ending a word is named as printed, typed with either apostrophe
    (it was read as the possessive "Cats's Guidance", an unknown card)."""
    event = parse_wording(f"Carna plays {card}", names(), 1)
    assert event.card.name == card
    assert parse_wording(f"Carna plays {card.replace(chr(39), chr(0x2019))}", names(), 2).card.name == card


def _documented_sentences() -> list[str]:
    """Every sentence shown in the 'sentence' column of the event tables of docs/scenarios.md."""
    out, in_events_table = [], False
    for line in DOC.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) != 5:
            in_events_table = False
            continue
        if cells[1:4] == ["event", "sentence", "structured"]:
            in_events_table = True
        elif in_events_table:
            out += re.findall(r"`([^`]+)`", cells[2])
    assert len(out) > 60
    return out


@pytest.mark.parametrize("sentence", _documented_sentences())
def test_every_documented_sentence_parses(sentence):
    assert isinstance(parse_wording(sentence, names(), 1), ev.Event)


@pytest.mark.parametrize("text, kind, fields", [
    ("Carna strikes for 2", ev.ChooseStrike, {"minion": "Carna", "spec": ev.StrikeSpec(kind="damage", amount=2)}),
    ("Ayelech strikes with her .44 Magnum for 2 R damage", ev.ChooseStrike,
     {"source": ".44 Magnum", "spec": ev.StrikeSpec(kind="damage", amount=2, ranged=True)}),
    ("Colette strikes: combat ends", ev.ChooseStrike, {"spec": ev.StrikeSpec(kind="combat ends")}),
    ("Belinde plays Torn Signpost, a strike card: 2 damage, first strike", ev.ChooseStrike,
     {"via": "card", "source": "Torn Signpost", "spec": ev.StrikeSpec(kind="damage", amount=2, first=True)}),
    ("Ayelech strikes Colette's Raven with her .44 Magnum for 2 R damage", ev.ChooseStrike, {"retainer": "Colette/Raven"}),
    ("Flávio Gonçalves uses his hands one more time", ev.ChooseStrike, {"via": "hand", "spec": ev.StrikeSpec(kind="hand")}),
    ("Wauneka plays a card giving him 1 additional strike", ev.GainStrikes, {"minion": "Wauneka", "count": 1}),
    ("Colette presses to end combat", ev.Press, {"minion": "Colette", "to_continue": False}),
    ("Ryan receives 2 normal damage and 1 aggravated damage", ev.InflictDamage, {"normal": 2, "aggravated": 1}),
    ("Carna prevents 1 aggravated damage with Skin of Marble", ev.Prevent, {"amount": 1, "aggravated": True}),
    ("Quentin leaves torpor", ev.LeaveTorpor, {"actor": "Quentin", "cost": None}),
    ("Belinde rescues Carna, Carna paying 1 blood", ev.Rescue, {"target": "Carna", "rescued_pays": 1}),
    ("Belinde diablerizes Quentin, gaining a Discipline (Presence), +1 capacity", ev.Diablerize,
     {"discipline": "Presence", "capacity": 1}),
    ("Belinde diablerizes Carna, taking all equipment", ev.Diablerize, {"take_all": True}),
    ("Carna votes against (3 votes)", ev.CastVote, {"minion": "Carna", "side": "against", "count": 3, "kind": "vampire"}),
    ("Sarah votes for with Lucinde", ev.CastVote, {"player": "Sarah", "minion": "Lucinde", "kind": "vampire"}),
    ("Sarah votes for with Parity Shift", ev.CastVote, {"kind": "named", "source": "Parity Shift"}),
    ("Bob burns the Edge for 1 vote against", ev.CastVote, {"kind": "edge", "side": "against"}),
])
def test_part_2_wording_means_what_it_says(text, kind, fields):
    event = parse_wording(text, names(), 1)
    assert type(event) is kind
    for key, value in fields.items():
        assert getattr(event, key) == value, (key, getattr(event, key))


def test_malformed_part_2_properties_name_what_was_expected():
    from judge.engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="cannot read 'sideways'; expected one of: N damage"):
        parse_wording("Carna strikes: sideways", names(), 4)
    with pytest.raises(ScenarioError, match="only the rescued vampire's share"):
        parse_wording("Belinde rescues Carna, Ira paying 1 blood", names(), 4)
    with pytest.raises(ScenarioError, match="a vote is cast 'for' or 'against'"):
        parse_structured({"vote": "maybe", "by": "Lucinde"}, names(), 4)
