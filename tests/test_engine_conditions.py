"""A card's "Only usable ..." sentence read clause by clause (judge.engine.vtes.card_text.condition_of), and a card's
Discipline lines told apart (judge.engine.vtes.cards.line_played), over the real card list: a sentence is read only when
every part of it is a clause the engine checks, each clause is where the card prints it, and the line a minion plays
is the one its Disciplines give."""
from __future__ import annotations

import re

import pytest
from card_catalog import card_catalog

from judge.cards import get_cards
from judge.engine.vtes.card_text import condition_of, written_out
from judge.engine.vtes.cards import line_played, modelled
from judge.engine.errors import NotModelled
from judge.engine.vtes.state import Minion

_JOINS = re.compile(r"(?:,\s*|;\s*|\s+)(?:and\s+|only usable\s+)?", re.I)


def _conditions_of_the_pool(corpus) -> list[str]:
    found = set()
    for card in get_cards(corpus).cards.values():
        found.update(re.findall(r"Only usable[^.]*\.", card.text or ""))
    return sorted(found)


def test_a_read_sentence_is_its_clauses_and_nothing_else(corpus):
    """Over every "Only usable ..." sentence of the card list: where one is read, its clauses, in the order printed,
    with the joins between them ("," "and" ";"), are the whole sentence: no word of it is passed over."""
    read = 0
    for sentence in _conditions_of_the_pool(corpus):
        condition = condition_of(sentence)
        if condition is None:
            continue
        read += 1
        rest = sentence.rstrip(".")[len("Only usable "):]
        for clause, _ in condition.clauses:
            assert rest.startswith(clause), (sentence, clause)
            rest = rest[len(clause):]
            rest = rest[_JOINS.match(rest).end():] if rest else rest
        assert rest == "", sentence
    assert read >= 80  # distinct sentences (91 when written; 384 of the pool's 610 "Only usable" sentences)


@pytest.mark.parametrize("sentence", [
    "Only usable by a ready, unlocked vampire other than the acting minion who is capable of performing the action.",
    "Only usable by a vampire being burned; he or she is sent into torpor instead.",
    "Only usable when a monster is acting.",  # no minion the table describes is told a monster
    "Only usable at the end of a round of combat.",  # the engine passes the end of round step within the press's event
    "Only usable by a non-acting Guruhi when an acting Laibon you control is blocked (before combat).",
])
def test_a_sentence_with_a_part_the_engine_does_not_check_is_not_read(sentence):
    assert condition_of(sentence) is None


@pytest.mark.parametrize("sentence, clauses", [
    ("Only usable if a Camarilla or Sabbat vampire is bleeding you.", ["if a Camarilla or Sabbat vampire is bleeding you"]),
    ("Only usable when a vampire without Auspex [aus] is acting.", ["when a vampire without Auspex [aus] is acting"]),
    ("Only usable if this Baali blocks an ally or younger vampire, before block resolution.",
     ["if this Baali blocks an ally or younger vampire", "before block resolution"]),
    ("Only usable if this vampire blocks an ally or younger vampire bleeding you, before block resolution.",
     ["if this vampire blocks an ally or younger vampire bleeding you", "before block resolution"]),
    ("Only usable in combat with a Toreador, Toreador antitribu, ally or younger vampire.",
     ["in combat with a Toreador, Toreador antitribu, ally or younger vampire"]),
    ("Only usable if a younger vampire attempts to block this vampire.",
     ["if a younger vampire attempts to block this vampire"]),
    ("Only usable if both combatants are still ready and combat would end.",
     ["if both combatants are still ready", "combat would end"]),
])
def test_the_minions_a_clause_names_end_where_the_clause_does(sentence, clauses):
    """A clause naming minions in words of its own ("a Toreador, Toreador antitribu, ally or younger vampire") takes
    the whole list, and stops before the words of the next clause ("bleeding you", ", before ...")."""
    assert [c for c, _ in condition_of(sentence).clauses] == clauses


def test_clauses_say_who_plays_the_card_and_whether_a_master_card_can_be_checked():
    who = condition_of("Only usable by a ready unlocked vampire other than the acting minion.")
    assert who.other_than_acting and who.minion and not who.locked
    locked = condition_of("Only usable by a locked vampire during a bleed action directed at you.")
    assert locked.locked and [c for c, _ in locked.clauses] == ["by a locked vampire",
                                                                 "during a bleed action directed at you"]
    yours = condition_of("Only usable if a minion is bleeding you and the bleed amount is 4 or more, after blocks "
                         "are declined.")
    assert not yours.minion and len(yours.clauses) == 3  # of "you" and the moment: a master card's too
    assert condition_of("Only usable if a younger vampire is bleeding you, after blocks are declined.").minion


@pytest.mark.parametrize("name", ["Shared Strength", "Rapid Healing", "Force of Will", "Movement of the Slow Body"])
def test_a_condition_beyond_the_rules_of_who_acts_is_read_and_marked(name):
    """Shared Strength is played by a vampire not in the combat, Rapid Healing by a vampire in torpor, Force of Will
    by a locked one: the engine plays combat cards by combatants and actions by ready unlocked minions, so the
    condition refuses a play that does not meet it, and marks the card (`beyond_rules`): a play that meets it
    stops as not modelled rather than refused by the rule the card overrides."""
    read = modelled(card_catalog().card(name, None), "inferior")
    (sentence, _), = read.conditions
    assert read.beyond_rules == sentence and sentence not in read.rest


def test_a_minion_plays_the_line_of_the_discipline_it_has():
    aversion = card_catalog().card("Aversion", None)
    lines = aversion.discipline_lines()
    by_cel = line_played(aversion, None, Minion(name="Carna", controller="Alexis", disciplines=("cel",)))
    by_val = line_played(aversion, None, Minion(name="Carna", controller="Alexis", disciplines=("val",)))
    assert lines[by_cel].codes == ("cel",) and lines[by_val].codes == ("val",)
    assert modelled(aversion, None, by_cel).bleed_reduced == 1
    assert modelled(aversion, None, by_val).bleed_reduced == 0  # "Burn X pool to ...": not read, never the [cel] one
    with pytest.raises(NotModelled, match="which one Carna plays is not read"):
        line_played(aversion, None, Minion(name="Carna", controller="Alexis", disciplines=("cel", "val")))


def test_a_line_of_two_disciplines_joined_by_or_is_read_without_them():
    """"[ani] or [tha] Only usable by a locked vampire. ..." (Sentry Signal): the line's Disciplines come off, and
    either of them plays it."""
    signal = card_catalog().card("Sentry Signal", None)
    first = signal.discipline_lines()[0]
    assert first.any_of and first.codes == ("ani", "tha") and first.text.startswith("Only usable by a locked vampire")
    assert line_played(signal, None, Minion(name="Carna", controller="Alexis", disciplines=("tha",))) == 0


def test_a_reflex_line_is_never_the_line_a_card_is_played_by():
    """Predator's Communion: "[abo] [REFLEX] Cancel a frenzy card ..." is played only as a reflex; a vampire with
    Abombwe and Animalism plays the card by its [ani] line, not a choice between the two."""
    card = card_catalog().card("Predator's Communion", None)
    lines = card.discipline_lines()
    assert any("REFLEX" in ln.marks for ln in lines)
    played = line_played(card, None, Minion(name="Carna", controller="Alexis", disciplines=("abo", "ani")))
    assert played is not None and lines[played].played and "REFLEX" not in lines[played].marks


def test_after_resolution_conditions_are_read_on_an_action_modifier():
    """"after resolution" clauses are read on an action modifier alone (played once its action resolved)."""
    freak = modelled(card_catalog().card("Freak Drive", None), None)
    assert [c.after_resolution for _, c in freak.conditions] == [True, True] and freak.unlock_self and not freak.rest


def test_no_line_of_a_card_is_passed_over(corpus):
    """Every line of every library card is read as a Discipline line or with the lines every level plays: a line
    marked with a type alone ("[COMBAT] ...": Angel's Gift) or Flight's ("[FLIGHT] Unlock this minion.": As the
    Crow) was once neither, and its text silently went unread."""
    catalog = card_catalog()
    for card in get_cards(corpus).cards.values():
        if card.kind != "library" or not card.text:
            continue
        facts = catalog.facts_of(card)
        kept = [line.text for line in facts.discipline_lines()] + facts.preamble
        for raw in (ln.strip() for ln in card.text.splitlines() if ln.strip()):
            assert any(raw.endswith(text) for text in kept), (card.name, raw)
    crow = card_catalog().card("As the Crow", None)
    assert [(ln.codes, ln.text) for ln in crow.discipline_lines()] == [(("flight",), "Unlock this minion.")]
    gift = modelled(card_catalog().card("Angel's Gift", None), None)
    assert any(s.startswith("[COMBAT] This round") for s in gift.rest)


def test_the_engine_reads_the_renamed_clans_as_the_card_base_does():
    """The engine keeps its own copy of the clans the current book renamed (it imports nothing of judge.cards): the
    same pairs as the card base's, so that "by a Follower of Set" means a Ministry vampire in both."""
    from judge.cards.names import FORMER_CLANS, fold
    from judge.engine.vtes.card_text import _RENAMED_CLANS
    theirs = {fold(k): fold(v) for k, v in FORMER_CLANS.items()}  # (with plural and article forms besides)
    ours = {fold(k): fold(v) for k, v in _RENAMED_CLANS.items()}
    assert ours.items() <= theirs.items() and set(ours.values()) == set(theirs.values())


def test_a_not_usable_sentence_is_read_when_it_is_one_clause_of_the_moment_or_the_action(corpus):
    """"Not usable <clause>" refuses the card when the clause holds; a "Not usable ..." sentence about who plays the
    card, of two clauses, or of a clause the engine does not check, stays unread (the card then stops as not
    modelled, naming it)."""
    first = condition_of("Not usable on the first round of combat.")
    assert first.negated and [c for c, _ in first.clauses] == ["on the first round of combat"]
    assert condition_of("Not usable first round of combat.").negated
    bleed = condition_of("Not usable during a bleed action.")
    assert bleed.negated and not bleed.minion
    for unread in ("Not usable by a locked vampire.", "Not usable during your own turn.",
                   "Not usable by a vampire being burned or going to torpor."):
        assert condition_of(unread) is None, unread
    pool = set()
    for card in get_cards(corpus).cards.values():
        pool.update(re.findall(r"Not usable[^.]*\.", card.text or ""))
    read = [s for s in pool if condition_of(s) is not None]
    assert 3 <= len(read) < len(pool)  # some of the pool's "Not usable" sentences, not all
    labyrinth = card_catalog().lookup("Forgotten Labyrinth")
    assert modelled(labyrinth, "superior").rest == [] and modelled(labyrinth, "superior").stealth == 3


def test_an_as_above_line_is_written_out_from_the_line_above_as_its_words_say(corpus):
    """"As above, but <quantity>" replaces the one quantity of its kind above; "with <a rider>" adds a press, a
    maneuver, an additional strike or first strike to the one strike above (or a bonus as a sentence); "and
    <clause>" adds the clause. A change read no way, or ambiguous above, is not written out: the line is unread,
    named as printed."""
    assert written_out("As above, but for 3R damage.", "Strike: 2R damage, with 1 optional press.") == \
        "Strike: 3R damage, with 1 optional press."
    assert written_out("As above, with an optional press.", "Strike: 3R damage.") == \
        "Strike: 3R damage, with an optional press."
    assert written_out("As above, but for +2 stealth.", "+1 stealth.") == "+2 stealth."
    assert written_out("As above, with +1 stealth.", "This vampire becomes the acting minion.") == \
        "This vampire becomes the acting minion. +1 stealth."
    assert written_out("As above, and unlock this vampire.", "Prevent 1 damage.") == \
        "Prevent 1 damage. Unlock this vampire."
    assert written_out("As above, but do not lock this vampire.", "Lock this reacting vampire. +1 intercept.") == \
        "+1 intercept."
    assert written_out("As above, but for 2 damage.", "Strike: 1R damage.") is None  # not the same quantity
    assert written_out("As above, but for +2 stealth.", "+1 stealth. Burn 1 blood for +1 stealth.") is None
    assert written_out("As above, but this ally has 2 life.", "Mortal with 1 life.") is None
    catalog = card_catalog()
    marena = modelled(catalog.lookup("Starvation of Marena"), "superior")
    assert marena.rest == [] and marena.strike[:3] == ("damage", 3, True) and marena.granted_press == "any"
    lid = modelled(catalog.lookup("Thrown Sewer Lid"), "superior")
    assert lid.rest == [] and lid.strike[:2] == ("damage", 3) and lid.granted_press == "any"
    # a written-out sentence not read is named as the line printed, never as words no card prints
    stray = modelled(catalog.lookup("Underbridge Stray"), "superior")
    assert "As above, but this ally has 2 life and 1 strength." in stray.rest
    for card in get_cards(corpus).cards.values():
        facts = catalog.facts_of(card)
        printed = set(re.split(r"(?<=\.)\s+", " ".join(facts.text.split())))
        for number, line in enumerate(facts.discipline_lines()):
            if line.played and "As above" in line.text:
                for sentence in modelled(facts, line.level, number).rest:
                    assert sentence in facts.text or sentence in printed, (facts.name, sentence)


def test_a_combat_cards_strength_aggravated_hands_and_normal_prevention_are_read():
    """The combat effects that last the round or the combat, and a prevention of normal damage only, read from the
    card list as printed."""
    catalog = card_catalog()
    wolf = modelled(catalog.lookup("Form of the Wolf"), "inferior")
    assert wolf.rest == [] and wolf.strength == [("self", 1, "combat")]
    bear = modelled(catalog.lookup("Strength of the Bear"), "inferior")
    assert bear.strength == [("self", 1, "round")]
    disease = modelled(catalog.lookup("Disease"), "superior")
    assert disease.rest == [] and disease.strength == [("opposing", -2, "combat")]
    fists = modelled(catalog.lookup("Fists of Death"), "superior")  # "As above, but with +2 strength."
    assert fists.rest == [] and fists.strength == [("self", 2, "combat")]
    claws = modelled(catalog.lookup("Wolf Claws"), "inferior")
    assert claws.rest == [] and claws.aggravated_hands
    soak = modelled(catalog.lookup("Soak"), "superior")
    assert (soak.prevent, soak.prevent_normal) == (4, True)
    assert modelled(catalog.lookup("Skin of Rock"), "inferior").prevent_normal is False


def test_unpreventable_and_maneuvering_strikes_are_read():
    """"Strike: 2R unpreventable damage.", "Strike, ranged: steal 1 blood or life (becoming blood).", and a strike
    "with 1 optional maneuver" (its maneuver used in the range step), read from the card list as printed."""
    from judge.engine.vtes.card_text import strike_of

    assert strike_of("Strike: 2R unpreventable damage.") == ("damage", 2, True, False, False, True)
    assert strike_of("Strike, ranged: steal 1 blood or life (becoming blood).") == (
        "steal blood", 1, True, False, False, False)
    assert strike_of("Strike: 2R unpreventable unpreventable damage.") is None
    catalog = card_catalog()
    sweat = modelled(catalog.lookup("Blood Sweat"), "superior")
    assert sweat.rest == [] and sweat.strike == ("damage", 3, True, False, False, True)
    bats = modelled(catalog.lookup("Aid from Bats"), "inferior")
    assert bats.rest == [] and bats.strike_maneuver and bats.strike[:3] == ("damage", 1, True)


def test_a_title_is_held_as_the_table_or_the_card_writes_it():
    """"a prince or justicar" (a condition's, a card's requirement) is held by a "prince of Atlanta" or a "Tremere
    justicar" as crypt cards print them; a primogen holds neither, and a contested title counts for no claimant."""
    from judge.engine.vtes.card_text import holds_title

    def held(title, contested=False):
        return holds_title(Minion(name="V", controller="Sarah", title=title, title_contested=contested),
                           ("prince", "justicar"))
    assert held("prince of Atlanta") and held("Tremere justicar") and held("Prince")
    assert not held("primogen") and not held(None) and not held("prince of Paris", contested=True)
    assert not held("princess")  # a word of its own, not a prefix
