"""The paragraph comparer on its own: word diff, terminology, meaning signals, OCR noise.

These are pure functions of two texts; the texts are sentences of the rulebooks
(or the rulebooks' sentences with one thing changed)."""
from __future__ import annotations

import pytest

from judge.compare.text import (LEVEL_OCR, MEANING, SCAN, TERMINOLOGY, UNCHANGED, WORDING, Side, compare_texts,
                                tokenize, vocabulary_of)


def signals(old: str, new: str, **kw) -> dict[str, list[str]]:
    result = compare_texts(old, new, **kw)
    return {s.name: s.explain() for s in result.signals}


def rebuilt(segments, side: str) -> str:
    return "".join(getattr(s, side) for s in segments)


WITHDRAW = "If you successfully withdraw, you receive {} to add to any victory points you have already gained."


def test_number_word_to_decimal_is_a_meaning_change_that_names_both_sides():
    result = compare_texts(WITHDRAW.format("one victory point"), WITHDRAW.format("0.5 victory points"))
    assert result.change == MEANING
    [signal] = result.signals
    assert signal.name == "number"
    assert signal.old == ("one victory point",) and signal.new == ("0.5 victory points",)
    assert signal.explain() == 'number: "one victory point" -> "0.5 victory points" (1 -> 0.5)'


@pytest.mark.parametrize("old,new", [
    ("gain one pool", "gain 1 pool"),  # the same number written differently
    ("gain a vote", "gain 1 vote"),  # an article counts one
    ("half of the damage", "0.5 of the damage"),
])
def test_the_same_number_written_differently_is_wording(old, new):
    result = compare_texts(old, new)
    assert (result.change, result.signals) == (WORDING, [])


def test_timing_phrase_change_is_named():
    old = "At the end of your influence phase, any vampire with enough blood becomes controlled."
    new = "At any time during your influence phase, any vampire with enough blood becomes controlled."
    result = compare_texts(old, new)
    assert result.change == MEANING
    assert [s.explain() for s in result.signals] == [
        'timing: "At the end of" -> "At any time during" (end of -> any time during)']


@pytest.mark.parametrize("old,new,name", [
    ("Play this card before combat.", "Play this card after combat.", "timing"),
    ("The acting minion may burn 1 blood.", "The acting minion must burn 1 blood.", "modal"),
    ("The minion can block.", "The minion cannot block.", "modal"),
    ("The action is blocked.", "The action is not blocked.", "negation"),
    ("Burn 1 blood to gain a vote.", "Burn 1 pool to gain a vote.", "quantity"),
    ("Gain at least 2 pool.", "Gain at most 2 pool.", "quantity"),
    ("Your prey may block.", "Your predator may block.", "actor"),
    ("Draw two cards.", "Draw three cards.", "number"),
    ("The first strike is resolved.", "The second strike is resolved.", "number"),
])
def test_each_detector_fires_on_its_own_change(old, new, name):
    assert list(signals(old, new)) == [name]


@pytest.mark.parametrize("old,new", [
    ("You can play this card.", "You may play this card."),  # both permission
    ("The minion cannot block.", "The minion may not block."),  # both prohibition
    ("Each Methuselah draws.", "Every Methuselah draws."),  # both universal
    ("The vampire is turned face up and moved to the ready region.",
     "The vampire is turned face up to the ready region."),  # "up to" counts nothing here
    ("(see Combat, sec. 6.4)", "(see Combat, sec. 6.5)"),  # a cross-reference, not a quantity
    ("placed in the central area to form the blood bank (4).",
     "placed in the central area to form the blood bank (5)."),  # a figure callout
])
def test_same_class_or_non_quantities_are_wording(old, new):
    result = compare_texts(old, new)
    assert (result.change, result.signals) == (WORDING, [])


def test_tap_to_lock_and_pronouns_are_terminology_only():
    old = "Only ready untapped minions can take actions, and taking an action taps the acting minion. He untaps."
    new = "Only ready unlocked minions can take actions, and taking an action locks the acting minion. They unlock."
    result = compare_texts(old, new)
    assert result.change == TERMINOLOGY
    assert result.signals == []
    assert result.terminology == ["tap -> lock", "she/he -> they"]
    assert [(s.old, s.new) for s in result.segments if s.op == "term"] == [
        ("untapped ", "unlocked "), ("taps ", "locks "), ("He untaps", "They unlock")]


def test_a_tap_rename_beside_a_real_change_is_still_only_the_real_change():
    old = "Tap the acting minion and burn 1 blood."
    new = "Lock the acting minion and burn 2 blood."
    result = compare_texts(old, new)
    assert result.change == MEANING
    assert [s.name for s in result.signals] == ["number"]
    assert result.terminology == ["tap -> lock"]


def test_identical_texts_and_whitespace_are_unchanged():
    assert compare_texts("Burn 1 blood.", "Burn 1 blood.").change == UNCHANGED
    assert compare_texts("Burn 1\nblood.", "Burn  1 blood.").change == UNCHANGED


def test_the_diff_rebuilds_both_texts_exactly():
    old = "At the end of your influence phase, any vampire in your uncontrolled region becomes controlled."
    new = "At any time during this phase, if a vampire has enough blood, the Methuselah can move that vampire."
    result = compare_texts(old, new)
    assert rebuilt(result.segments, "old") == old
    assert rebuilt(result.segments, "new") == new


def test_nearby_changes_are_one_passage():
    # Changes one or two words apart are one replacement, not a patchwork.
    result = compare_texts("At the end of your influence phase", "At any time during this phase")
    changed = [s for s in result.segments if s.op != "equal"]
    assert [(s.old, s.new) for s in changed] == [("the end of your influence ", "any time during this ")]


def test_multiword_terminology_forms_are_one_token():
    tokens = tokenize("He or she untaps the Followers of Set.")
    assert [t.key for t in tokens][:3] == ["they", "unlock", "the"]
    assert "ministry" in [t.key for t in tokens]


# -- OCR text ------------------------------------------------------------------------------
CLEAN = ["If you successfully withdraw, you receive 0.5 victory points to add to any victory points "
         "you have already gained. Your predator does not get 1 victory point or any pool for your "
         "withdrawal. Each Methuselah can gain no more than 1 vote from political action cards."]
VOCABULARY = vocabulary_of(CLEAN)


def test_garbled_ocr_passages_are_noise_not_edits():
    old = Side("If you successfully withdraw, you receive 0.5 victory points to add to any vigtpoints you "
               "have already gained.", ocr=True)
    new = Side("If you successfully withdraw, you receive 0.5 victory points to add to any victory points you "
               "have already gained.")
    result = compare_texts(old, new, vocabulary=VOCABULARY)
    assert result.change == SCAN and result.ocr_noise == 1  # only scan damage: kept apart from unchanged
    assert [s.level for s in result.segments if s.op != "equal"] == [LEVEL_OCR]
    # Without knowing the side is OCR text, the same difference is an edit.
    assert compare_texts(old.text, new.text, vocabulary=VOCABULARY).change == WORDING


def test_damage_that_swallowed_a_number_is_no_evidence():
    # The older book's OCR fused "no more than 1 vote" into "no moreltlvate".
    old = Side("Each Methuselah can gain no moreltlvate from political action cards.", ocr=True)
    new = Side("Each Methuselah can gain no more than 1 vote from political action cards.")
    result = compare_texts(old, new, vocabulary=VOCABULARY)
    assert result.signals == []
    assert result.change == SCAN


def test_a_number_changed_next_to_damage_is_still_a_meaning_change():
    old = Side(WITHDRAW.format("one vigtpoint"), ocr=True)
    new = Side(WITHDRAW.format("0.5 victory points"))
    result = compare_texts(old, new, vocabulary=VOCABULARY)
    assert [s.explain() for s in result.signals] == ['number: "one vigtpoint" -> "0.5 victory points" (1 -> 0.5)']


def test_damage_cannot_hide_a_whole_new_sentence():
    old = Side("Action modifier cards: The acting minion can play these cards to modgyaltion.", ocr=True)
    new = Side("Action modifier cards: The acting minion can play these cards to modify their action at any "
               "time before action resolution. A minion cannot play the same action modifier card more than "
               "once during a single action.")
    result = compare_texts(old, new, vocabulary=vocabulary_of(CLEAN + [new.text]))
    assert result.change == MEANING
    assert {"timing", "modal"} <= {s.name for s in result.signals}


# -- a negation's scope: "nor" and "any" that belong to a negation before them -----------------

def _referendum_pair(corpus) -> tuple[str, str]:
    """The real pair: the section-6 book's "no inherent votes nor ballots -- ..." and the
    current book's "no inherent votes or ballots. ..." (its first sentences; the current
    book split the rest into paragraphs of their own)."""
    old = corpus.paragraphs["s6:6.3.3/1"].text
    old = old[:old.index("do so.") + len("do so.")]
    new = corpus.paragraphs["vekn:resolving-a-referendum/8"].text
    assert "no inherent votes nor ballots" in old and "no inherent votes or ballots" in new
    return old, new


def test_nor_carrying_on_a_negation_is_wording_on_the_real_referendum_rule(corpus):
    old, new = _referendum_pair(corpus)
    result = compare_texts(old, new)
    assert (result.change, result.signals) == (WORDING, [])
    # The negation itself lost is still named, and so is a "nor" whose sentence has no negation.
    assert list(signals(old, new.replace("have no inherent", "have inherent"))) == ["negation"]
    assert signals("Votes are gained. Nor ballots.", "Votes are gained. Or ballots.") == {
        "negation": 'negation: "Nor" -> (none) (negation -> none)'}


@pytest.mark.parametrize("old,new", [
    ("A minion cannot block nor play a reaction card.", "A minion cannot block or play a reaction card."),
    ("Neither the acting minion nor its controller may cancel it.",
     "Neither the acting minion or its controller may cancel it."),
    ("Note that a ready vampire with no blood must hunt (and cannot take any action except the hunt action).",
     "Note that a ready vampire with no blood must hunt (and cannot take an action except the hunt action)."),
    ("A vampire that does not have any blood must hunt.", "A vampire that has no blood must hunt."),
])
def test_negation_rewordings_in_a_still_negative_sentence_are_wording(old, new):
    result = compare_texts(old, new)
    assert (result.change, result.signals) == (WORDING, [])


@pytest.mark.parametrize("old,new,name", [
    ("A vampire that has no blood must hunt.", "A vampire that has any blood must hunt.", "negation"),
    ("The vampire may take any action.", "The vampire may take an action.", "quantity"),  # "any" not negated
    ("A minion cannot block. Nor may it play a reaction card.",
     "A minion cannot block. It may play a reaction card.", "negation"),  # "Nor" opens a sentence of its own
])
def test_what_is_outside_a_negation_still_fires(old, new, name):
    assert name in signals(old, new)
