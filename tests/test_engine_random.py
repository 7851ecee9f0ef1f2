"""Random play (after OpenSpiel's random simulation): thousands of games of random legal
events, with the invariants checked after every transition."""
from __future__ import annotations

import random
from collections import Counter

from judge.engine.vtes import randomplay


def test_thousands_of_random_games_keep_the_invariants():
    reports = randomplay.play_many(2000, seed=20240, max_events=120)
    violations = [v for r in reports for v in r.violations]
    assert not violations, violations[:10]
    events = sum(r.events for r in reports)
    assert events > 100_000
    endings = Counter(r.ended_by for r in reports)
    # The games reach every kind of ending: the rules end them, or the engine stops where it must.
    for ending in ("game over", "not modelled", "limit"):
        assert endings[ending] > 0, endings
    assert endings["stuck"] < 20, endings
    # Combat, torpor, diablerie and referendums are played, not merely reached (hundreds of times each: the
    # bars sit well under what the games reach, ~1,000 referendums now that named cards and the situations of
    # play share the minion phase's draws, so that adding event kinds does not break them, yet zero still fails).
    totals = {k: sum(getattr(r, k) for r in reports)
              for k in ("combats", "rounds", "referendums", "blood_hunts", "torpor", "diableries")}
    assert totals["combats"] > 1000 and totals["rounds"] > 50, totals
    assert totals["referendums"] > 500 and totals["blood_hunts"] > 200, totals
    assert totals["torpor"] > 1000 and totals["diableries"] > 200, totals
    # Cards named from the card base (cards.py) are played too: modifiers, reactions, action cards, trifles,
    # out-of-turn master cards, burn options.
    assert sum(r.named_cards for r in reports) > 10_000
    # The situations met in play are reached too: traits, contests arising in play, titles and sects changed,
    # bleeds reduced or redirected, wake, the Red List, immunity, allies put into play.
    reached = Counter()
    for r in reports:
        reached.update(r.rules)
    situations = ("SCARCE", "SLAVE", "STERILE", "UNIQUE_IN_PLAY", "CONTEST_SELF", "TITLE_IN_PLAY", "TITLE_CITY",
                  "TITLE_CLAN_UNIQUE", "TITLE_NOT_UNIQUE", "ANARCH_CONTEST_COST", "ONE_TITLE", "GAIN_TITLE_YIELDS",
                  "SECT_CHANGE", "REDIRECT_REOPENS", "WAKE", "RED_LIST_MARK", "RED_LIST_HUNT", "IMMUNE",
                  "ALLY_BROUGHT_IN", "EQUIP_SEVERAL", "CONTROL_CHANGE", "OWNER_ASH_HEAP", "OWNED_STAY",
                  "CONTEST_CARD_END", "SLAVE_COMBAT")
    assert all(reached[name] > 0 for name in situations), {name: reached[name] for name in situations}


def test_random_play_is_deterministic():
    a = [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(30, seed=7)]
    b = [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(30, seed=7)]
    assert a == b


def test_invariants_detect_a_broken_state():
    from judge.engine.vtes.state import counters_in_play, evolve

    state = randomplay.random_table(random.Random(3))
    total = counters_in_play(state) + state.bank
    assert randomplay.invariant_violations(state, total) == []
    leaking = evolve(state, bank=state.bank + 1)
    assert any("conserved" in v for v in randomplay.invariant_violations(leaking, total))
    name = next(n for n, m in state.minions.items() if m.kind == "vampire" and m.region == "ready")
    over = dict(state.minions)
    over[name] = evolve(over[name], blood=over[name].capacity + 1)
    assert any("above capacity" in v for v in randomplay.invariant_violations(evolve(state, minions=over),
                                                                              total + 100))
    ghost = evolve(state, edge="Nobody")
    assert any("Edge" in v for v in randomplay.invariant_violations(ghost, total))


def test_invariants_detect_a_broken_combat_and_referendum():
    from judge.engine.vtes.state import Combat, Referendum, Vote, counters_in_play, evolve

    state = randomplay.random_table(random.Random(5))
    total = counters_in_play(state) + state.bank
    a, b = [m for m in state.minions.values() if m.region == "ready"][:2]
    own = evolve(state, combat=Combat(acting=a.name, opposing=a.name, action=None))
    assert any("combat between two minions" in v for v in randomplay.invariant_violations(own, total))
    fight = evolve(state, combat=Combat(acting=a.name, opposing=b.name, action=None, wounded=(b.name,)))
    after = evolve(state, combat=None)  # the combat ended and b is still ready
    assert any("going to torpor" in v for v in randomplay.transition_violations(fight, after))
    twice = Referendum(kind="political", caller=a.name, player=a.controller, step="polling",
                       votes=(Vote(a.controller, "P1", "political card", "for", 1),
                              Vote(a.controller, "P2", "political card", "against", 1)))
    assert any("political action cards" in v for v in randomplay.invariant_violations(evolve(state, referendum=twice),
                                                                                      total))
    hunt = Referendum(kind="blood hunt", caller=a.name, player=a.controller, step="polling",
                      votes=(Vote(b.controller, "the Edge", "edge", "for", 1),))
    assert any("blood hunt" in v for v in randomplay.transition_violations(evolve(state, referendum=hunt), state))


def test_random_games_naming_real_cards_keep_the_invariants():
    """Issue 37: random play naming real modifiers, reactions and combat cards of the card list, and giving some
    vampires what a real crypt card's text gives (bonuses that hold at some times, abilities), keeps the book's
    invariants. The pool: the cards whose text the engine reads whole at a level (conditions, levels, wakes,
    redirects, stealth, intercept, bleed, strikes, strength, prevention, cancels), of the Disciplines random minions have;
    the crypt texts the engine reads whole; the engine judges every play."""
    from judge.engine.vtes.card_text import read_crypt_text
    from card_catalog import card_catalog

    from judge.cards import get_cards
    from judge.corpus import get_corpus
    from judge.engine.vtes.cards import modelled

    catalog = card_catalog()
    pool = randomplay.CardPool()
    have = {code.lower() for codes in randomplay.DISCIPLINES for code in codes}
    for card in get_cards(get_corpus()).cards.values():
        facts = catalog.facts_of(card)
        if card.kind == "crypt":
            text = read_crypt_text(facts.text, facts.sect, facts.title, facts.name)
            if not text.unread and (text.bonuses or text.abilities):
                pool.crypt.append((tuple(text.bonuses), tuple(text.abilities)))
            continue
        if any(modelled(facts, level).cancel and not modelled(facts, level).rest for level in (None, "superior")):
            pool.cancellers.append(facts)  # named as cancelling another card (some vampires get its Disciplines)
        if modelled(facts, None).title is not None and not modelled(facts, None).rest:
            pool.titles.append(facts)
        if modelled(facts, None).weapon is not None and not modelled(facts, None).rest:
            pool.weapons.append(modelled(facts, None).weapon)
        if modelled(facts, None).referendum is not None and not modelled(facts, None).rest:
            pool.referendums.append(facts)
        if modelled(facts, None).discipline_card is not None:
            pool.master_disciplines.append(facts)
        if modelled(facts, None).master_text is not None and not modelled(facts, None).rest:
            pool.masters.append(facts)
        if any(modelled(facts, level).action_text is not None for level in (None, "superior")) and \
                not any(modelled(facts, level).rest for level in (None, "superior")) and \
                {code.lower() for code, _, _ in facts.disciplines} <= have:
            pool.actions.append(facts)
        if modelled(facts, None).ally_text is not None and not modelled(facts, None).rest and \
                {code.lower() for code, _, _ in facts.disciplines} <= have:
            pool.allies.append(facts)
        if modelled(facts, None).retainer is not None and not modelled(facts, None).rest and \
                {code.lower() for code, _, _ in facts.disciplines} <= have:
            pool.retainers.append(facts)
        if len(card.types) != 1 or card.types[0] not in ("Action Modifier", "Reaction", "Combat"):
            continue
        if any(modelled(facts, level).rest for level in (None, "superior")) or \
                not {code.lower() for code, _, _ in facts.disciplines} <= have:
            continue
        {"Action Modifier": pool.modifiers, "Reaction": pool.reactions, "Combat": pool.combat}[card.types[0]].append(
            facts)
    assert len(pool.modifiers) >= 4 and len(pool.reactions) >= 8, (len(pool.modifiers), len(pool.reactions))
    assert len(pool.combat) >= 10 and len(pool.crypt) >= 50, (len(pool.combat), len(pool.crypt))
    assert len(pool.cancellers) >= 10 and len(pool.masters) >= 4, (len(pool.cancellers), len(pool.masters))
    assert len(pool.titles) >= 50 and len(pool.weapons) >= 15, (len(pool.titles), len(pool.weapons))
    reports = randomplay.play_many(600, seed=37, max_events=120, pool=pool)
    violations = [v for r in reports for v in r.violations]
    assert not violations, violations[:10]
    assert sum(r.pool_cards for r in reports) >= 10  # played, not only named: the engine refuses the others
    # title cards played through their referendum, passed: the path is reached (2 at seed 37; the count moves with
    # the pool of read cards, 5 before the hand strike cards joined it, so the floor is the path, not the count)
    assert sum(r.titles for r in reports) >= 1
    reached = Counter(name for r in reports for name in r.rules)
    assert len(pool.referendums) >= 10 and len(pool.master_disciplines) >= 15
    assert reached["MASTER_DISCIPLINE"] and reached["POLITICAL_TERMS"], reached  # those cards were played
    assert len(pool.actions) >= 10, len(pool.actions)
    assert reached["UNCONTROLLED_TARGETS"] and reached["DIRECTED_TARGETS"], reached  # action cards' effects
    assert len(pool.retainers) >= 5 and reached["EMPLOY"], (len(pool.retainers), reached["EMPLOY"])
    assert len(pool.allies) >= 5 and reached["RECRUIT"], (len(pool.allies), reached["RECRUIT"])
    assert sum(r.masters for r in reports) >= 3  # master cards' effects on a minion taken
    assert sum(r.events for r in reports) > 10_000
