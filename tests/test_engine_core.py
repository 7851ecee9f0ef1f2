"""The transition function: pure, deterministic, refusing with the right rule, stopping where part 2 begins."""
from __future__ import annotations

import copy

import pytest
from card_catalog import card_catalog

from judge.engine import citations as C
from judge.engine.vtes import rules as R
from judge.engine import scenario as sc
from judge.engine.vtes import core, registry, stages
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import Bleed, Block, Decline, Modifier, Pass
from judge.engine.vtes.state import counters_in_play, state_to_json

TABLE = """
rules: {rules}
players: [Sarah, Alexis, Bob, Dave]
turn: Sarah
phase: minion
pool: {{Alexis: 10}}
minions:
  - {{name: Belinde, controller: Sarah, capacity: 5, blood: 3}}
  - {{name: Carna, controller: Alexis, capacity: 4, blood: 2}}
  - {{name: Mazz, controller: Dave, capacity: 4, blood: 2}}
events: []
"""


def table(rules=C.CURRENT):
    return sc.parse(TABLE.format(rules=rules)).state


def test_apply_is_pure_and_deterministic():
    state = table()
    before = copy.deepcopy(state_to_json(state))
    s1, e1 = core.apply(state, Bleed(actor="Belinde"))
    s2, e2 = core.apply(state, Bleed(actor="Belinde"))
    assert state_to_json(state) == before  # the input state is untouched
    assert state_to_json(s1) == state_to_json(s2) and e1 == e2
    assert s1.minions["Belinde"].locked and not state.minions["Belinde"].locked


def test_a_refusal_leaves_the_state_unchanged_and_names_its_rule():
    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    with pytest.raises(Refusal) as info:
        core.apply(state, Block(blocker="Mazz"))
    assert R.BLOCK_DIRECTED in info.value.rules
    with pytest.raises(Refusal) as info:
        core.apply(state, Modifier(minion="Belinde", stealth=1))
    assert info.value.rules == (R.STEALTH_WHEN_NEEDED,)


def test_bleed_flow_and_the_edge():
    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    state, _ = core.apply(state, Decline(player="Alexis"))
    state, _ = core.apply(state, Modifier(minion="Belinde", card="Confusion", bleed=1))
    state, entries = core.apply(state, Pass())
    assert state.players["Alexis"].pool == 8 and state.edge == "Sarah" and state.action is None
    assert any(R.BLEED_EDGE in e.rules for e in entries)


def test_second_limited_bleed_modifier_differs_by_edition():
    for rules, refused in ((C.CURRENT, True), (C.OLDER, False)):
        state, _ = core.apply(table(rules), Bleed(actor="Belinde"))
        state, _ = core.apply(state, Modifier(minion="Belinde", card="A", bleed=1))
        if refused:
            with pytest.raises(Refusal) as info:
                core.apply(state, Modifier(minion="Belinde", card="B", bleed=1))
            assert info.value.rules == (R.BLEED_LIMITED,)
        else:
            state, _ = core.apply(state, Modifier(minion="Belinde", card="B", bleed=1))
            assert state.action.bleed == 3


def test_a_successful_block_opens_a_combat_that_goes_step_by_step():
    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    state, _ = core.apply(state, Block(blocker="Carna"))
    state, entries = core.apply(state, Pass())
    assert state.combat is not None and (state.combat.acting, state.combat.opposing) == ("Belinde", "Carna")
    assert state.combat.action.kind == "bleed" and state.action is None and state.combat.step == "before range"
    assert state.minions["Carna"].locked and state.players["Alexis"].pool == 10
    assert any(R.COMBAT_ROUND in e.rules for e in entries)
    state, _ = core.apply(state, Pass())  # nothing is played before range
    assert state.combat.step == "range"
    # An event outside the combat first lets it play out by the books' defaults:
    # close range, hand strikes (strength 1), no press.
    event = Bleed(actor="Mazz")
    assert core.needs_settle(state, event)
    state, entries = core.settle(state)
    assert state.combat is None
    assert state.minions["Belinde"].blood == 2 and state.minions["Carna"].blood == 1
    texts = " ".join(e.text for e in entries)
    assert "the range is close" in texts and "hand strike" in texts and "separate ways" in texts
    assert all(e.rules for e in entries)


def test_combat_refusals_name_their_rule():
    from judge.engine.vtes.events import ChooseStrike, Press, StrikeSpec

    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    state, _ = core.apply(state, Block(blocker="Carna"))
    state, _ = core.apply(state, Pass())
    with pytest.raises(Refusal) as info:  # the acting minion chooses first
        core.apply(state, ChooseStrike(minion="Carna", spec=StrikeSpec(kind="hand"), via="hand"))
    assert R.STRIKE_ONE in info.value.rules
    state, _ = core.apply(state, Press(minion="Belinde"))  # strikes default, then the press
    with pytest.raises(Refusal) as info:
        core.apply(state, Press(minion="Belinde"))
    assert info.value.rules == (R.PRESS_TWICE,)


def test_a_new_event_plugs_in_with_a_handler_and_the_stage_that_admits_it(monkeypatch):
    """The registry (event type -> handler) and the table of stages are the two places a new event goes."""
    from dataclasses import dataclass, replace
    from judge.engine.vtes.events import Event

    @dataclass(frozen=True, kw_only=True)
    class EndCombat(Event):
        pass

    def end_combat(d, e, log):
        d.set(combat=None)
        log.add("combat ends", R.COMBAT)

    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    state, _ = core.apply(state, Block(blocker="Carna"))
    state, _ = core.apply(state, Pass())
    with pytest.raises(NotModelled, match="events of the kind EndCombat"):
        core.apply(state, EndCombat())  # no handler takes it
    monkeypatch.setitem(registry.HANDLERS, EndCombat, end_combat)
    assert core.needs_settle(state, EndCombat())  # a combat does not admit it yet: it would first be played out
    monkeypatch.setattr(stages, "STAGES", tuple(replace(s, admits=s.admits | {EndCombat}) if s.name == "combat" else s
                                                for s in stages.STAGES))
    assert not core.needs_settle(state, EndCombat())
    state, entries = core.apply(state, EndCombat())
    assert state.combat is None and entries[0].text == "combat ends"


def test_settle_resolves_the_action_before_an_unrelated_event():
    state, _ = core.apply(table(), Bleed(actor="Belinde"))
    event = Bleed(actor="Belinde")
    assert core.needs_settle(state, event)
    state, entries = core.settle(state)
    assert state.action is None and state.players["Alexis"].pool == 9
    with pytest.raises(Refusal) as info:
        core.apply(state, event)
    assert R.READY_UNLOCKED_ACT in info.value.rules  # locked, and already bled


def test_counters_are_conserved_through_the_bank():
    state = table()
    total = counters_in_play(state) + state.bank
    for event in (Bleed(actor="Belinde"), Decline(player="Alexis"), Pass()):
        state, _ = core.apply(state, event)
        assert counters_in_play(state) + state.bank == total


def test_every_log_entry_cites_a_paragraph_of_its_edition():
    for path in sorted(sc.Path(__file__).resolve().parents[1].joinpath("scenarios").rglob("*.yaml")):
        if "rivals" in path.parts:  # the Rivals scenarios have their own tests (test_rivals_engine.py)
            continue
        scenario = sc.load(path, cards=card_catalog())
        for ed in C.RULES_EDITIONS:
            steps, _, stop = sc.replay(scenario, ed)
            for step in steps:
                assert any(r.cites(ed) for r in step.rules), (path.name, ed, step.text)
            if stop is not None:
                assert any(r.cites(ed) for r in stop.rules) or stop.kind == "not-modelled", (path.name, stop.message)
