"""The scenario engine: replay a described table situation under a chosen edition
of the rules, citing the paragraph behind every step (docs/scenarios.md).

    from judge.engine import load, run
    result = run(load("scenarios/examples/quentin_confusion.yaml"))

Modules: state (the table), events and events_combat / events_torpor /
events_politics (wording and structured forms), core (the transition
function and its open stages), phases / actions / ending (the turn and
actions), combat / damage / torpor / politics (what follows an action),
citations and citations_combat (every rule with its paragraphs per edition),
yamlfile (reading a scenario's YAML, with lines, refusing aliases, tags, deep
nesting, keys that are not scalars, numbers and texts out of bounds), limits (the
format's bounds and the replay's limits, in one place), validation (the JSON
Schema, per event form, in our words), expect
(the `expect:` block, checked when loaded), scenario (files and replay), trace
(reports), randomplay (random games and their invariants), cli (`judge check`).
"""
from judge.engine.scenario import Run, Scenario, load, parse, replay, run

__all__ = ["Run", "Scenario", "load", "parse", "replay", "run"]
