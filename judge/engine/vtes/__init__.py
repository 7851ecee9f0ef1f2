"""The V:TES part of the scenario engine: Vampire: The Eternal Struggle, under either rules edition
(the current book, the older one), on the shared machinery of judge/engine/.

One event, from the file to the paragraph it cites ("Belinde bleeds Alexis"):

1. judge/engine/scenario.py reads the file and hands a V:TES one to scenario.py here, which reads the
   table and the events (validation.py's checks with this package's scenario.schema.json, expect.py's
   expectations), parsing each event with grammar.py: the sentence matches a form of forms_turn.py, whose
   builder makes `events.Bleed(actor="Belinde", target="Alexis")`.
2. scenario.replay gives it to core.apply, after core.settle if the table is in the middle of
   something the event is not part of (stages.py: an action, a combat, a referendum, a chance).
3. core.apply looks the handler up in registry.py (`Bleed: actions.bleed_action`) and runs it on a
   Draft of the state (state.py).
4. The handler checks the move (helpers.check_actor: ready, unlocked, its controller's minion phase)
   and announces it (helpers.announce), writing a log entry with the Rules it applied, e.g.
   `R.BLEED_TARGET` (a Refusal or NotModelled from judge/engine/errors.py stops the replay instead).
5. rules.py holds `BLEED_TARGET`: per rules edition, the Cites (section and quote) that state it.
   judge/engine/trace.py reports the step, and the citation locator the caller gave
   (citations.CiteLocator, built by `judge check` and the web from the corpus) finds each cite's
   paragraph: `vekn:bleed/3`.

A card named by its name is cards.py (its type, requirements, cost and what the engine reads of it) and
card_text.py (its text read as data: a crypt card's sentences, the "Only usable ..." conditions).
"""
