"""The Rivals part of the scenario engine: Vampire: The Masquerade – Rivals, beside V:TES's (judge/engine/vtes/),
on the shared machinery of judge/engine/ (docs/rivals.md).

One event, from the file to the paragraph it cites ("Skunk exhausts to attack Lixue Chen"):
judge/engine/scenario.py reads the file (the shared YAML reader, within the limits) and hands one that says
`game: rivals` to scenario.py here, which checks it against its schema (the shared wording) and reads the
table and the events; play.apply copies the state, runs the
event's handler from play.HANDLERS (h_attack), which checks the move and logs what happened with the rules
it applied (rules.py: ATTACK, SECRECY...); the shared citation locator finds each rule's paragraphs in the
Rivals book (`rivals:action-attack/1`), and judge/engine/trace.py reports the run as any other. state.py
is the table.
"""
