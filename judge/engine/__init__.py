"""The scenario engine: replay a described table situation under a chosen rules edition, citing the
paragraph behind every step (docs/scenarios.md, "How the engine is built").

    from judge.corpus import get_corpus
    from judge.engine import citations, scenario, trace
    locator = citations.CiteLocator(get_corpus())  # finds each rule's paragraphs in the books
    run = scenario.run(scenario.load("scenarios/examples/quentin_confusion.yaml"), locator=locator)
    print(trace.run_text(run, locator))

Two games stand on one core. The shared machinery is here: scenario.py reads a file of either game
(yamlfile.py, within limits.py's bounds) and hands it to its game's package by its `game:` key;
validation.py words a schema's errors, expect.py checks what a scenario expects, runs.py holds a
replay's steps and stop, citations.py locates a rule's paragraphs, trace.py reports a run. The rules of
each game are its package: vtes/ (Vampire: The Eternal Struggle) and rivals/ (Vampire: The Masquerade –
Rivals). judge/engine/vtes/__init__.py follows one V:TES event from the file to the paragraph it cites,
judge/engine/rivals/__init__.py one Rivals event.

The engine imports nothing of the corpus, the search or the web; tests/test_engine_layout.py checks
that, that no two of its modules import each other, directly or through others, and that each game
imports only the shared modules (and only scenario.py imports the games).
"""
