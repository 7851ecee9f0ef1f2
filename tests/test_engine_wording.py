"""The event grammar: every documented form parses, to the event it says."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judge.engine import events as ev
from judge.engine.events import Names, parse_structured, parse_wording

DOC = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text()
PLAYERS = ["Sarah", "Alexis", "Bob", "Nora", "Steve"]
MINIONS = ["Belinde", "Carna", "Ira", "Krid", "Quentin", "The Dowager", "Alexa Draper", "Sybren van Oosten",
           "Lucinde", "Eugenio", "Pug"]


def names() -> Names:
    return Names(PLAYERS, MINIONS)


@pytest.mark.parametrize("pattern", ev.WORDING, ids=[p.example for p in ev.WORDING])
def test_every_wording_example_parses_and_is_documented(pattern):
    event = parse_wording(pattern.example, names(), 1)
    assert isinstance(event, ev.Event)
    assert pattern.example in DOC, f"docs/scenarios.md does not show {pattern.example!r}"


@pytest.mark.parametrize("key", sorted(ev.STRUCTURED))
def test_every_structured_example_parses_and_is_documented(key):
    example = ev.STRUCTURED[key][2]
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


def test_combat_and_torpor_words_stop_as_not_modelled():
    for text in ("Carna strikes for 2", "Quentin leaves torpor", "Belinde rescues Carna"):
        assert isinstance(parse_wording(text, names(), 1), ev.Unmodelled)
