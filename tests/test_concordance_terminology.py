"""The edition terminology map (judge/data/terminology.yaml) and normalise()."""
from __future__ import annotations

import re

import pytest

from judge.errors import SourceError
from judge.compare.terminology import changes, get_terminology, load_terminology, normalise


def test_older_and_current_wording_normalise_alike():
    older = "Only ready untapped minions can take actions, and taking an action taps the acting minion. " \
            "So, if the minion manages to untap, it is possible for him to take another action."
    current = "Only ready unlocked minions can take actions, and taking an action locks the acting minion. " \
              "So, if the minion manages to unlock, it is possible for them to take another action."
    assert normalise(older) == normalise(current)
    assert normalise("He untaps and he is ready.") == normalise("They unlock and they are ready.")
    assert normalise("The player to your left") == normalise("The Methuselah to your left")
    assert normalise("Diablerize a Vampire in Torpor") == normalise("Diablerise a vampire in torpor")
    assert normalise("an Assamite or a Follower of Set") == normalise("a Banu Haqim or a Ministry")


def test_a_change_of_meaning_survives_normalisation():
    # The older book: withdrawal earns a victory point; the current one: half of one.
    assert normalise("Gain one victory point.") != normalise("Gain half a victory point.")
    assert normalise("tapped") != normalise("untapped")
    assert normalise("the tapestry") == "the tapestry"  # whole words only


def test_changes_names_the_entries_that_explain_a_difference():
    names = {c.name for c in changes("Sarah taps Krid; he untaps.", "Sarah locks Krid; they unlock.")}
    assert names == {"tap -> lock", "she/he -> they"}
    assert changes("Sarah locks Krid.", "Sarah locks Krid.") == []
    assert {c.kind for c in get_terminology().entries} <= {"wording", "pronoun", "spelling", "clan", "discipline"}


def test_every_entry_is_attested_in_the_books(corpus):
    """The map records changes found in the rulebooks, not guesses: an older form of
    each entry occurs in a V:TES book, and a current form in the current book."""
    vtes = " ".join(p.text for d in corpus.documents_of_game("vtes") for p in d.paragraphs)
    current = " ".join(p.text for p in corpus.documents["vekn"].paragraphs)
    for entry in get_terminology().for_game("vtes"):
        older = [f for f in entry.forms if re.search(rf"(?<![\w']){re.escape(f)}(?!\w)", vtes, re.IGNORECASE)]
        assert older, f"{entry.name}: no older form occurs in the books"
        assert any(re.search(rf"\b{re.escape(entry.forms[f])}\b", current, re.IGNORECASE) for f in older), \
            f"{entry.name}: the current book never uses the current form"


def test_other_games_are_left_alone():
    assert normalise("Exhaust the card; she taps it.", game="rivals") == "exhaust the card; she taps it."


@pytest.mark.parametrize("body, message", [
    ("entries: [", "not valid YAML"),
    ("entries: {}", "a list under 'entries'"),
    ("entries:\n  - name: x\n    kind: wording\n    game: vtes\n", "'forms' must map"),
    ("entries:\n  - name: x\n    kind: vibes\n    game: vtes\n    forms: {a: b}\n", "unknown kind 'vibes'"),
    ("entries:\n  - name: x\n    kind: wording\n    game: vtes\n    forms: {a: [b]}\n", "must map words to words"),
])
def test_a_malformed_map_is_reported_with_its_place(tmp_path, body, message):
    path = tmp_path / "terminology.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(SourceError, match=re.escape(message)) as err:
        load_terminology(path)
    assert err.value.file == "terminology.yaml"
