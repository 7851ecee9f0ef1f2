"""The scenario engine: replay a described table situation under a chosen rules edition, citing the
paragraph behind every step (docs/scenarios.md, "How the engine is built").

    from judge.engine import scenario, trace
    run = scenario.run(scenario.load("scenarios/examples/quentin_confusion.yaml"), locator=None)
    print(trace.run_text(run, None))

One event, from the file to the paragraph it cites ("Belinde bleeds Alexis"):

1. scenario.py reads the file (yamlfile.py, validation.py, expect.py, within limits.py's bounds) and
   parses each event with grammar.py: the sentence matches a form of forms_turn.py, whose builder
   makes `events.Bleed(actor="Belinde", target="Alexis")`.
2. scenario.replay gives it to core.apply, after core.settle if the table is in the middle of
   something the event is not part of (stages.py: an action, a combat, a referendum, a chance).
3. core.apply looks the handler up in registry.py (`Bleed: actions.bleed_action`) and runs it on a
   Draft of the state (state.py).
4. The handler checks the move (helpers.check_actor: ready, unlocked, its controller's minion phase)
   and announces it (helpers.announce), writing a log entry with the Rules it applied, e.g.
   `R.BLEED_TARGET` (a Refusal or NotModelled from errors.py stops the replay instead).
5. rules.py holds `BLEED_TARGET`: per rules edition, the Cites (section and quote) that state it.
   trace.py reports the step, and the citation locator the caller gave (citations.CiteLocator,
   built by `judge check` and the web from the corpus) finds each cite's paragraph: `vekn:bleed/3`.

The engine imports nothing of the corpus, the search or the web; tests/test_engine_layout.py checks
that, and that no two of its modules import each other, directly or through others.
"""
