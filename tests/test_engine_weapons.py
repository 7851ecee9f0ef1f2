"""Issue 37: weapon equipment cards read as printed (judge.engine.vtes.weapons): every weapon of the real card list
that the engine reads whole makes the strike its card prints, at the range it allows, and gives the maneuvers it
prints each combat, no more."""
from __future__ import annotations

import re

import pytest
from card_catalog import card_catalog, library_cards

from judge.engine import scenario as sc
from judge.engine.errors import Refusal
from judge.engine.vtes import core
from judge.engine.vtes.events import ChooseStrike, Maneuver, NoPress, Press, StrikeSpec


def _weapons():
    """(card facts, its weapon read) for every equipment card read whole as a weapon."""
    return [(facts, what.weapon) for facts, what in library_cards("Equipment")
            if what.weapon is not None and not what.rest]


def _combat(weapon: str, range_):
    """A combat in its strike step at `range_` (None: at its range step): Belinde (strength 2) bears `weapon`; the
    state, played through."""
    table = ("rules: current\nplayers: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: minion\nminions:\n"
             f"  - {{name: Belinde, controller: Sarah, capacity: 5, blood: 4, strength: 2, "
             f"equipment: [\"{weapon}\"]}}\n"
             "  - {name: Carna, controller: Alexis, capacity: 9, blood: 9, equipment: [.44 Magnum]}\n"
             "events: [Belinde bleeds Alexis, Carna blocks" +
             {"long": ", Carna maneuvers with .44 Magnum", "close": ", the range is set to close", None: ""}[range_] +
             "]\n")
    scenario = sc.parse(table, cards=card_catalog())
    state = scenario.state
    for event in scenario.events:
        while core.needs_settle(state, event):
            state, _ = core.settle(state)
        state, _ = core.apply(state, event)
    return state


def _play(state, event):
    """The state after `event`, settling first what it closes (core.apply's precondition); with its log."""
    while core.needs_settle(state, event):
        state, _ = core.settle(state)
    return core.apply(state, event)


def _next_round(state, strike: ChooseStrike):
    """The combat's next round, at its range step (Belinde's `strike`, Carna's hand strike, a press to continue)."""
    for event in (strike,
                  ChooseStrike(minion="Carna"),  # (her hand, or the gun its maneuver chose)
                  Press(minion="Belinde", to_continue=True), NoPress(minion="Carna")):
        state, _ = _play(state, event)
    return state


def test_the_weapons_read_say_what_their_cards_print():
    weapons = _weapons()
    assert len(weapons) >= 20, len(weapons)
    for facts, w in weapons:
        text = facts.text
        assert w.ranged == bool(re.search(r"\dR ", text)), facts.name
        assert w.aggravated == ("aggravated" in text), facts.name
        assert w.strength == ("trength" in w.sentence), facts.name
        assert w.unique == text.startswith("Unique"), facts.name
        assert (w.maneuvers > 0) == ("maneuver" in text), facts.name


@pytest.mark.parametrize("by", ["strike", "maneuver"])
def test_every_weapon_read_strikes_as_its_card_prints(by):
    checked = 0
    for facts, w in _weapons():
        range_ = "long" if w.long_only else "close"
        if by == "maneuver":
            if not w.maneuvers:
                continue
            state = _combat(facts.name, None if w.maneuver_to != "close" else "long")
            strike = ChooseStrike(minion="Belinde", source=facts.name, weapon=w)  # (its maneuver chose it)
            for n in range(w.maneuvers):  # each maneuver it gives, in one combat, then one more: refused
                if n:  # the next round, back at close range
                    state = _next_round(state, strike)
                state, _ = _play(state, Maneuver(minion="Belinde", source=facts.name, weapon=w))
            state = _next_round(state, strike)
            with pytest.raises(Refusal) as refused:
                _play(state, Maneuver(minion="Belinde", source=facts.name, weapon=w))
            assert "optional maneuver" in refused.value.message, facts.name
            checked += 1
            continue
        state = _combat(facts.name, range_)
        after, entries = core.apply(state, ChooseStrike(minion="Belinde", source=facts.name, weapon=w))
        strike = after.combat.chosen[-1]
        assert strike.amount == (2 + w.amount if w.strength else w.amount), facts.name
        assert (strike.ranged, strike.aggravated) == (w.ranged, w.aggravated), facts.name
        assert any(w.sentence.split(",")[0] in e.text for e in entries), facts.name  # the card is quoted
        # said otherwise, the strike is refused, quoting the card
        with pytest.raises(Refusal, match=f"a strike with {re.escape(facts.name)} is {strike.amount}"):
            core.apply(state, ChooseStrike(minion="Belinde", source=facts.name, weapon=w,
                                           spec=StrikeSpec(amount=strike.amount + 1, ranged=w.ranged)))
        if w.long_only:
            with pytest.raises(Refusal, match="only at long range"):
                core.apply(_combat(facts.name, "close"), ChooseStrike(minion="Belinde", source=facts.name, weapon=w))
        checked += 1
    assert checked >= (5 if by == "maneuver" else 20), checked
