"""Issue 37: every card of the pool that cancels a card as it is played, named against real cards in a combat and
during a bleed. Whatever the engine answers keeps the book's accounts: a refusal or a "not modelled" names its rule;
a cancel played takes its card's own cost and the blood its sentence burns from the cancelling minion, the cancelled
card's cost from its player exactly when the cancelling sentence does not say it is not paid, and gives the cancelled
card no effect (no strike chosen, no stealth or bleed added); counters only move to the bank."""
from __future__ import annotations

import pytest
from card_catalog import card_catalog

from judge.cards import get_cards
from judge.corpus import get_corpus

from judge.engine import scenario as sc
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import core
from judge.engine.vtes.cards import line_played, modelled
from judge.engine.vtes.events import Canceller, Pass, PlayCard
from judge.engine.vtes.state import counters_in_play

DISCIPLINES = "[AUS, CHI, DOM, OBF, PRE, SER, POT, CEL, PRO, ANI, TEM, DEM, QUI, THA, FOR, VIC, OBT, MYT, VAL, MAL]"
TABLE = """
rules: current
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: minion
minions:
  - {{name: Belinde, controller: Sarah, capacity: 4, blood: 4, disciplines: %s}}
  - {{name: Carna, controller: Alexis, capacity: 9, blood: 9, clan: {clan}, disciplines: %s}}
events: {events}
""" % (DISCIPLINES, DISCIPLINES)
IN_COMBAT = "[Belinde bleeds Alexis, Carna blocks, the range is set to close]"
IN_A_BLEED = "[Belinde bleeds Alexis, Alexis declines to block]"


def _cards():
    """(the cards cancelling others, by the type they play as; the cards they are named against)."""
    catalog = card_catalog()
    cancellers, combat, modifiers = [], [], []
    for card in get_cards(get_corpus()).cards.values():
        if card.kind != "library":
            continue
        facts = catalog.facts_of(card)
        levels = [level for level in (None, "superior") if modelled(facts, level).line_text is not None]
        if any(modelled(facts, level).cancel for level in levels):
            cancellers.append(facts)
        elif tuple(facts.types) == ("Combat",) and any(not modelled(facts, lv).rest for lv in levels):
            combat.append(facts)
        elif tuple(facts.types) == ("Action Modifier",) and any(not modelled(facts, lv).rest for lv in levels):
            modifiers.append(facts)
    return cancellers, sorted(combat, key=lambda f: f.name)[::7], sorted(modifiers, key=lambda f: f.name)[::3]


def _state(events: str, clan: str):
    """The table after its events, with what they leave open still open (a combat at its step, a bleed)."""
    scenario = sc.parse(TABLE.format(events=events, clan=clan or "Brujah"), cards=card_catalog())
    state = scenario.state
    for event in scenario.events:
        state, _ = _played(state, event)
    return state


def _played(state, event):
    """The state after `event`, settling first what it closes (core.apply's precondition)."""
    while core.needs_settle(state, event):
        state, _ = core.settle(state)
    return core.apply(state, event)


@pytest.mark.parametrize("where", ["combat", "bleed"])
def test_every_cancelling_card_keeps_the_accounts(where):
    cancellers, combat_cards, modifiers = _cards()
    assert len(cancellers) >= 15 and len(combat_cards) >= 10 and len(modifiers) >= 5
    targets = combat_cards if where == "combat" else modifiers
    outcomes = {"cancelled": 0, "refused": 0, "not modelled": 0}
    for c in cancellers:
        clan = c.clans[0] if c.clans else ""
        base = _state(IN_COMBAT if where == "combat" else IN_A_BLEED, clan)
        for target in targets:
            for c_level in (None, "superior"):
                for t_level in (None, "superior"):
                    event = PlayCard(card=target, minion="Belinde", level=t_level, cancelled=True,
                                     canceller=Canceller(card=c, minion="Carna", level=c_level))
                    before = counters_in_play(base) + base.bank
                    try:
                        after, entries = _played(base, event)
                    except (Refusal, NotModelled) as stop:
                        assert stop.rules, (c.name, target.name, stop.message)
                        outcomes["refused" if isinstance(stop, Refusal) else "not modelled"] += 1
                        continue
                    outcomes["cancelled"] += 1
                    what = modelled(c, c_level, line_played(c, c_level, base.minions["Carna"]))
                    t_what = modelled(target, t_level, line_played(target, t_level, base.minions["Belinde"]))
                    own = (c.costs().blood or 0) + what.cancel.burn
                    assert base.minions["Carna"].blood - after.minions["Carna"].blood == own, (c.name, target.name)
                    paid = 0 if what.cancel.cost_paid is False else (target.costs().blood or 0)
                    assert base.minions["Belinde"].blood - after.minions["Belinde"].blood == paid, \
                        (c.name, target.name, what.cancel.sentence)
                    assert counters_in_play(after) + after.bank == before
                    assert any(what.cancel.sentence in e.text for e in entries), (c.name, [e.text for e in entries])
                    if where == "combat":  # no strike chosen from the cancelled card: its minion chooses again
                        assert (after.combat.chosen, after.combat.committed) == (base.combat.chosen, base.combat.committed), \
                            (c.name, target.name)
                    else:  # its stealth and bleed not added
                        assert (after.action.stealth, after.action.bleed) == (base.action.stealth, base.action.bleed)
                        assert t_what is not None
                    _played(after, Pass())  # the game goes on from there
    assert outcomes["cancelled"] >= (30 if where == "combat" else 5) and outcomes["refused"] >= 500, outcomes
