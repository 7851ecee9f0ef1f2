"""The scenario engine: replay a described table situation under a chosen edition
of the rules, citing the paragraph behind every step (docs/scenarios.md).

    from judge.engine import load, run
    result = run(load("scenarios/examples/belinde_bleeds_alexis.yaml"))

Modules: state (the table), events (wording and structured forms), core (the
transition function), phases / actions / ending (the rules), citations (every
rule with its paragraphs per edition), scenario (files, replay, expectations),
trace (reports), cli (`judge check`).
"""
from judge.engine.scenario import Run, Scenario, load, parse, replay, run

__all__ = ["Run", "Scenario", "load", "parse", "replay", "run"]
