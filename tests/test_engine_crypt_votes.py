"""Issue 37: the votes a vampire's own card lets it get in a referendum (card_text's "votes" ability): every crypt
card of the real card list that gives such votes, read whole, uses them once in a political action's referendum,
paying as its card says; they are cast with its other votes, and a second use is refused."""
from __future__ import annotations

from card_catalog import card_catalog

from judge.cards import get_cards
from judge.corpus import get_corpus
from judge.engine import scenario as sc
from judge.engine.vtes.card_text import read_crypt_text

TABLE = """rules: current
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: minion
hand: {Alexis: 7}
minions:
  - {name: Lucinde, controller: Sarah, capacity: 6, blood: 4, sect: Camarilla, title: primogen}
  - {name: Voter, card: "%s", controller: Alexis, blood: 3, ignore_text: true}
events:
  - {political: Lucinde, card: Minor Boon, effect: {pool: {Alexis: -1}}}
  - nobody blocks
  - %s
  - %s
"""


def _voters():
    out = []
    for card in get_cards(get_corpus()).cards.values():
        if card.kind != "crypt" or "Vampire" not in card.types:
            continue
        facts = card_catalog().facts_of(card)
        read = read_crypt_text(facts.text, facts.sect, facts.title, facts.name)
        found = [a for a in read.abilities if a.kind == "votes" and not a.groups]
        if found and card_catalog().lookup(facts.name).id == facts.id:  # (a name some other version answers to: left out)
            out.append((facts, found[0]))
    return out


def test_every_vote_ability_gives_its_votes_once_as_printed():
    voters = _voters()
    assert len(voters) >= 8, [f.name for f, _ in voters]
    for facts, a in voters:
        verb = {"burn": f"burns {a.blood} blood", "lock": "locks", "discard": "discards a card"}[a.verb]
        use = f"Voter {verb} for {a.amount} vote{'s' if a.amount > 1 else ''}"
        scenario = sc.parse(TABLE % (facts.name, use, "Voter votes against"), cards=card_catalog())
        run = sc.run(scenario)
        assert run.stop is None, (facts.name, run.stop.message)
        said = "\n".join(step.text for step in run.steps)
        assert a.sentence in said and "from Voter's card" in said, facts.name
        before, after = scenario.state.minions["Voter"], run.state.minions["Voter"]
        assert before.blood - after.blood == (a.blood if a.verb == "burn" else 0), facts.name
        assert after.locked == (a.verb == "lock"), facts.name
        again = sc.run(sc.parse(TABLE % (facts.name, use, use), cards=card_catalog()))
        assert again.stop is not None and "once per referendum" in again.stop.message, facts.name
