"""The pdf-text parser on the real Rivals rulebook (rules/002_…txt) and on damaged copies."""
from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from judge import paths
from judge.errors import SourceError
from judge.ingest.sources import parse_document, read_source
from judge.ingest.pdf_text import CHAPTERS, parse
from judge.ingest.manifest import load_manifest
from judge.model import (
    KIND_EXAMPLE, KIND_FLAVOR, KIND_GLOSSARY, KIND_REMINDER, KIND_RULE, KIND_TABLE,
)


@pytest.fixture(scope="module")
def meta():
    metas, errors = load_manifest(paths.rules_dir())
    assert not errors
    return next(m for m in metas if m.id == "rivals")


@pytest.fixture(scope="module")
def source(meta):
    return read_source(paths.rules_dir() / meta.source)


@pytest.fixture(scope="module")
def doc(meta):
    return parse_document(meta, paths.rules_dir())


def _section(doc, sid):
    return next(s for s in doc.sections if s.id == sid)


def _para(doc, pid):
    return next(p for p in doc.paragraphs if p.id == pid)


def _lines(source):
    return source.split("\n")


# -- structure ----------------------------------------------------------------

def test_counts(doc):
    assert len(doc.sections) == 87
    assert len(doc.paragraphs) == 385
    assert Counter(p.kind for p in doc.paragraphs) == {
        KIND_RULE: 263, KIND_REMINDER: 39, KIND_FLAVOR: 32, KIND_EXAMPLE: 32,
        KIND_GLOSSARY: 18, KIND_TABLE: 1,
    }


def test_chapters_in_order(doc):
    top = [s.title for s in doc.sections if s.level == 1]
    assert top == ["Front matter", "Glossary", "What is this Game all About?", "Set-Up",
                   "Anatomy of a Vampire", "Agenda", "Havens", "The City Deck", "Turn Sequence",
                   "Detailed Rules on Actions", "Aggravated Damage", "Activated Abilities and Costs",
                   "Torpor", "Forming Parties", "Disciplines", "Influence", "Mortals and Retainers",
                   "Attachments", "Ongoing Cards", "Miscellaneous Rules", "Specific Card Clarifications",
                   "CREDITS", "Player Aid"]


def test_turn_sequence_phases_and_steps(doc):
    turn = _section(doc, "rivals:turn-sequence")
    assert turn.lines == (262, 266)
    phases = [_section(doc, c) for c in turn.children]
    assert [p.title for p in phases] == ["Beginning Phase", "Action Phase", "End Phase"]
    assert all(p.level == 2 for p in phases)
    beginning, action, end = phases
    assert [_section(doc, c).title for c in beginning.children] == [
        "1. City Deck Step", "2. Start of Turn Step", "3. Ready and Return Step"]
    assert [_section(doc, c).title for c in action.children] == ["Vampire Actions", "Moving to The Streets"]
    steps = [_section(doc, c) for c in end.children]
    assert [s.title for s in steps] == ["1. Torpor and Mending Step", "2. End of Turn Step",
                                        "3. Antagonist Step", "4. Draw Step"]
    # The step numbers are for readers: no section number that could clash between phases.
    assert all(s.level == 3 and s.number is None for s in steps)
    assert steps[0].id == "rivals:torpor-and-mending-step"
    assert steps[0].label == "Rivals › End Phase › 1. Torpor and Mending Step"


def test_attack_sequence_step_by_step(doc):
    sec = _section(doc, "rivals:action-attack.attack-sequence-step-by-step")
    assert sec.title == "Attack Sequence, Step by Step" and sec.level == 3
    assert sec.parent == "rivals:action-attack"
    steps = [_para(doc, pid) for pid in sec.paragraphs if _para(doc, pid).number]
    assert [p.number for p in steps] == [str(n) for n in range(1, 14)]
    step6 = _para(doc, "rivals:action-attack.attack-sequence-step-by-step/6")
    assert step6.text.startswith("6. The player being attacked may block")
    assert step6.lines == (491, 491) and step6.kind == KIND_RULE
    # The diagram captions are kept, as captions.
    captions = [_para(doc, pid) for pid in sec.paragraphs[13:]]
    assert [(c.text, c.kind) for c in captions] == [("Steps 1 - 7", KIND_FLAVOR), ("Steps 8 - 13", KIND_FLAVOR)]


def test_key_sections(doc):
    expect = {
        "rivals:glossary": ("Glossary", 1, None),
        "rivals:schemes": ("Schemes", 2, "rivals:influence"),
        "rivals:scheme-rules-summary": ("Scheme Rules Summary", 3, "rivals:schemes"),
        "rivals:titles": ("Titles", 2, "rivals:influence"),
        "rivals:prince-of-the-city": ("Prince of the City", 3, "rivals:titles"),
        "rivals:conspiracies": ("Conspiracies", 2, "rivals:influence"),
        "rivals:rare-end-of-game-circumstances": ("Rare End of Game Circumstances", 2,
                                                  "rivals:miscellaneous-rules"),
        "rivals:tiebreakers": ("Tiebreakers", 3, "rivals:rare-end-of-game-circumstances"),
        "rivals:action-attack": ("Action – Attack", 2, "rivals:detailed-rules-on-actions"),
        "rivals:unhosted-action-draw-1-card": ("Unhosted Action – Draw 1 Card", 2,
                                               "rivals:detailed-rules-on-actions"),
        "rivals:mending": ("Mending", 2, "rivals:torpor"),
        "rivals:the-golden-rule": ("The Golden Rule", 2, "rivals:miscellaneous-rules"),
        "rivals:contents": ("Contents", 2, "rivals:front-matter"),
    }
    for sid, (title, level, parent) in expect.items():
        sec = _section(doc, sid)
        assert (sec.title, sec.level, sec.parent) == (title, level, parent), sid
    assert _section(doc, "rivals:contents").anchors == ["components"]
    tiebreakers = [_para(doc, pid).text for pid in _section(doc, "rivals:tiebreakers").paragraphs]
    assert tiebreakers[:3] == ["1. Active player", "2. Most Prestige",
                               "3. Player Order (Player 4 has the highest tiebreaker, while Player 1 has the lowest)"]


def test_label_lines_are_not_headings(doc):
    titles = {s.title for s in doc.sections}
    for label in ("Ages 14+", "2-4 Players", "30-70 Minutes", "VAMPIRE", "RULEBOOK", "Visit VampireRivals.com",
                  "4 Leader Tokens", "Steps 1 - 7", "Perform 2 of the following:"):
        assert label not in titles
    front = [_para(doc, pid) for pid in _section(doc, "rivals:front-matter").paragraphs]
    assert [p.text for p in front[5:]] == ["Ages 14+", "2-4 Players", "30-70 Minutes"]
    assert {p.kind for p in front} == {KIND_FLAVOR}
    assert _para(doc, "rivals:what-is-this-game-all-about/1").text == "Visit VampireRivals.com"


def test_player_aid_is_kept_as_reminders(doc):
    aid = _section(doc, "rivals:player-aid")
    assert [_section(doc, c).title for c in aid.children] == [
        "Turn Sequence", "How to Win", "Attack Sequence, Step by Step"]
    aid_paras = [p for p in doc.paragraphs if p.lines[0] >= 977]
    assert len(aid_paras) == 39 and {p.kind for p in aid_paras} == {KIND_REMINDER}
    last = _para(doc, "rivals:player-aid.attack-sequence-step-by-step/15")
    assert last.lines == (1039, 1039) and last.text.endswith("places that vampire into torpor.")
    torpor_step = _para(doc, "rivals:player-aid.turn-sequence.end-phase/1")
    assert torpor_step.title == "Torpor and Mending" and torpor_step.number == "1"


def test_credits_are_flavor(doc):
    credits = [p for p in doc.paragraphs if 918 <= p.lines[0] < 977]
    assert credits and {p.kind for p in credits} == {KIND_FLAVOR}
    # One credit per line, as printed.
    assert _para(doc, "rivals:credits/1").text.split("\n")[0] == "Game Designer: Matt Hyra"


def test_examples(doc):
    examples = {p.section for p in doc.paragraphs if p.kind == KIND_EXAMPLE}
    assert examples == {
        "rivals:attack-sequence-example", "rivals:example-of-playing-a-scheme",
        "rivals:example-of-playing-a-title", "rivals:example-of-playing-and-resolving-a-conspiracy",
        "rivals:a-typical-attack-sequence",
    }
    skunk = _para(doc, "rivals:attack-sequence-example/1")
    assert skunk.title == "Step 1" and "Skunk" in skunk.text and "*" not in skunk.text
    assert "*Skunk*" in skunk.markdown
    # "Here is an example:" is itself a rule; what follows it is the example.
    assert _para(doc, "rivals:a-typical-attack-sequence/1").kind == KIND_RULE
    assert _para(doc, "rivals:a-typical-attack-sequence/2").kind == KIND_EXAMPLE
    free_money = [_para(doc, pid) for pid in _section(doc, "rivals:example-of-playing-a-scheme").paragraphs]
    assert "Free Money" in free_money[0].text
    lost_glory = _para(doc, "rivals:example-of-playing-and-resolving-a-conspiracy/3")
    assert lost_glory.lines == (755, 759) and "2 Blue, 1 Orange, and 1 Black" in lost_glory.text


def test_run_in_labels_and_notes(doc):
    assert _para(doc, "rivals:city-deck-step/2").title == "IMPORTANT"
    assert _para(doc, "rivals:city-deck-step/2").kind == KIND_RULE
    assert _para(doc, "rivals:playing-an-attack-card/4").title == "Warning"
    assert _para(doc, "rivals:action-attack/1").title == "Additional Cost"
    clarifications = [_para(doc, pid) for pid in _section(doc, "rivals:specific-card-clarifications").paragraphs]
    assert len(clarifications) == 35
    assert clarifications[0].title == "All Tied Up"
    assert "Hedge Your Bets, The Last Word" in {p.title for p in clarifications}


# -- paragraphs: text, markdown, continuation -----------------------------------

def test_bullets_and_emphasis(doc):
    draw = _para(doc, "rivals:turn-sequence.action-phase/3")
    assert draw.text == "Draw 1 card (Unhosted Action)"
    assert draw.markdown == "**Draw 1 card** (Unhosted Action)"
    assert draw.number is None
    setup11 = _para(doc, "rivals:set-up/22")
    assert setup11.number == "11" and setup11.text.startswith("11. Draw 4 cards from your Library")
    assert "**" not in setup11.text and setup11.markdown.startswith("11. **Draw 4 cards")
    assert all("**" not in p.text for p in doc.paragraphs)


def test_emoji_and_lost_icons_kept_as_written(doc):
    agenda = doc.paragraphs[doc.paragraphs.index(_para(doc, doc.glossary["Agenda"]))]
    assert agenda.text.startswith("Agenda 👑: Your chosen mission")
    assert _para(doc, "rivals:vampire-actions/1").text.endswith(
        "Target foe loses 1 🌐. If no one controls the Prince of the City, they lose 2 instead.")
    # A vanished icon is not guessed back; lint hears about it.
    assert _para(doc, "rivals:agenda/3").text.startswith(
        "When you defeat or burn a vampire in your Rival's coterie, you earn 1 .")
    lost = {d.line for d in doc.diagnostics if d.code == "lost-icon"}
    assert {224, 241, 1037} <= lost and len(lost) == 28


def test_paragraphs_split_by_page_breaks_are_joined(doc):
    # "As you" / "place them, flip them" (a lower-case continuation)
    assert _para(doc, "rivals:set-up/19").lines == (203, 205)
    # "...loses 1 ." / "” Zhang’s ability" (a quotation closed after the break)
    assert _para(doc, "rivals:using-abilities-and-game-text-in-combat/3").lines == (450, 452)
    # "Place a" / "'No Influence' token" (a sentence left on an article)
    titles3 = _para(doc, "rivals:titles/3")
    assert titles3.lines == (716, 718) and "Place a 'No Influence' token" in titles3.text
    # The Free Money sentence resumes after four captions: not joined, but reported.
    assert _para(doc, "rivals:example-of-playing-a-scheme/9").text.startswith("and tokens in hand.")
    assert [d.line for d in doc.diagnostics if d.code == "broken-paragraph"] == [702]


def test_table(doc):
    [table] = [p for p in doc.paragraphs if p.kind == KIND_TABLE]
    assert table.id == "rivals:disciplines/1" and table.lines == (605, 612)
    assert table.text.split("\n") == ["Animalism, Obfuscate", "Auspex, Potence", "Celerity, Presence",
                                      "Dominate, Protean", "Fortitude, Blood Sorcery", "Thin-blood Alchemy"]
    assert table.markdown.split("\n")[0] == "| | | | |"
    assert table.markdown.split("\n")[2] == "|  | Animalism |  | Obfuscate |"


# -- glossary --------------------------------------------------------------------

def test_glossary_terms(doc):
    entries = [p for p in doc.paragraphs if p.kind == KIND_GLOSSARY]
    assert [p.term for p in entries] == [
        "Agenda", "Blood", "Blood Potency", "Burn", "Character", "Control", "Coterie", "Discipline",
        "Foe", "Haven", "Influence", "Prestige", "Relentless", "Rival", "Stealing", "Torpor",
        "Trigger", "Wounded"]
    assert all(p.title == p.term and p.section == "rivals:glossary" for p in entries)
    assert doc.glossary["Blood Potency"] == "rivals:glossary/3"
    assert _para(doc, "rivals:glossary/3").text.startswith("Blood Potency (BP) 🔴: A vampire's BP")


# -- references and pages ------------------------------------------------------------

def test_page_references(doc):
    refs = [r for p in doc.paragraphs for r in p.refs]
    assert len(refs) == 19 and {r.kind for r in refs} == {"page"}
    assert Counter(r.spec for r in refs) == {"3": 3, "5": 3, "7": 1, "9": 2, "10": 1, "11": 2, "12": 2,
                                            "14": 1, "15": 3, "16": 1}
    [agenda_ref] = _para(doc, doc.glossary["Agenda"]).refs
    assert (agenda_ref.raw, agenda_ref.source, agenda_ref.line) == ("Page 5", "rivals:glossary/1", 79)
    [bottom] = _para(doc, "rivals:titles/2").refs
    assert bottom.raw == "see the bottom of page 15"
    [pages_range] = _para(doc, "rivals:anatomy-of-a-vampire/9").refs
    assert (pages_range.raw, pages_range.spec, pages_range.reason) == ("pages 9–11", "9", "range:9-11")
    para = _para(doc, "rivals:anatomy-of-a-vampire/9")
    assert para.text[slice(*pages_range.span)] == "pages 9–11"


def pages_of(doc) -> dict[str, int]:
    """Section id -> the printed page the parser recorded for it."""
    return {sec.id: sec.page for sec in doc.sections if sec.page is not None}


def test_section_pages_place_every_reference_target(doc):
    pages = pages_of(doc)
    # Each page reference of the book, with the section it is about.
    targets = {
        "Agenda": ("rivals:agenda", 5), "Blood": ("rivals:blood", 3),
        "Blood Potency": ("rivals:anatomy-of-a-vampire", 5), "Discipline": ("rivals:disciplines", 12),
        "Haven": ("rivals:havens", 5), "Influence": ("rivals:influence", 12),
        "Prestige": ("rivals:prestige", 3), "Rival": ("rivals:what-is-this-game-all-about.how-to-win", 3),
        "Torpor": ("rivals:torpor", 11),
    }
    for term, (sid, page) in targets.items():
        [ref] = _para(doc, doc.glossary[term]).refs
        assert int(ref.spec) == page == pages[sid], term
    on_page_5 = {sid for sid, page in pages.items() if page == 5}
    assert {"rivals:agenda", "rivals:havens"} <= on_page_5
    for sid, page in {"rivals:action-attack": 7, "rivals:action-attack.attack-sequence-step-by-step": 9,
                      "rivals:aggravated-damage": 10, "rivals:titles": 14, "rivals:conspiracies": 15,
                      "rivals:attachments": 15, "rivals:rare-end-of-game-circumstances": 16,
                      "rivals:activated-abilities-and-costs": 10}.items():
        assert pages[sid] == page, sid


def test_section_pages_bounds(doc):
    pages = pages_of(doc)
    order = [s.id for s in doc.sections if s.id in pages]
    assert [pages[s] for s in order] == sorted(pages[s] for s in order)  # pages follow reading order
    # No evidence before p3 or after p16: those sections get no page rather than a wrong one.
    for sid in ("rivals:front-matter", "rivals:glossary", "rivals:specific-card-clarifications",
                "rivals:credits", "rivals:player-aid.turn-sequence"):
        assert sid not in pages
    assert len(pages) == 72
    # Sections between two mapped headings belong to the earlier page (p13 is unmapped).
    assert pages["rivals:example-of-playing-a-scheme"] == 12
    assert not [d for d in doc.diagnostics if d.code == "page-map"]


def test_bad_page_map_entries(source, meta):
    options = dict(meta.options, pages={3: "What is this Game all About?", 4: "No Such Heading", 5: "Glossary"})
    doc = parse(source, dataclasses.replace(meta, options=options))
    messages = [d.message for d in doc.diagnostics if d.code == "page-map"]
    assert len(messages) == 2
    assert "No Such Heading" in messages[0] and "starts before page 3" in messages[1]
    with pytest.raises(SourceError) as err:
        parse(source, dataclasses.replace(meta, options={"pages": {"five": "Agenda"}}))
    assert err.value.file == "manifest.yaml" and err.value.line == meta.manifest_line


def test_chapters_option_overrides_levels(source, meta):
    chapters = [c for c in CHAPTERS if c != "Torpor"]
    doc = parse(source, dataclasses.replace(meta, options=dict(meta.options, chapters=chapters)))
    torpor = _section(doc, "rivals:torpor")
    assert torpor.level == 2 and torpor.parent == "rivals:activated-abilities-and-costs"


# -- nothing lost -------------------------------------------------------------------------

def test_no_text_lost(doc, source):
    """Every word of every non-blank line is in the paragraph (or heading) that covers that line."""
    headings = {s.lines[0]: s.title for s in doc.sections}
    by_line: dict[int, list[str]] = {}
    for p in doc.paragraphs:
        for n in range(p.lines[0], p.lines[1] + 1):
            by_line.setdefault(n, []).append(p.text)
    words = lambda s: re.findall(r"\w+", s)  # noqa: E731
    for n, line in enumerate(_lines(source), 1):
        if not line.strip():
            continue
        pool = set(words(" ".join(by_line.get(n, [])) + " " + headings.get(n, "")))
        missing = [w for w in words(line) if w not in pool]
        assert not missing, f"line {n}: {missing} lost from {line!r}"


def test_paragraph_ranges_do_not_overlap(doc):
    spans = sorted(p.lines for p in doc.paragraphs)
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert start > end


# -- damaged copies -----------------------------------------------------------------------

def test_copy_cut_mid_sentence_is_refused(source, meta, tmp_path):
    lines = _lines(source)
    cut = "\n".join(lines[:399] + [lines[399][:70]])  # line 400, "Warning! If you flip a card..."
    (tmp_path / meta.source).write_text(cut, encoding="utf-8")
    with pytest.raises(SourceError) as err:
        parse_document(meta, tmp_path)
    assert err.value.file == meta.source and err.value.line == 400
    assert "truncated" in err.value.message


def test_copy_ending_on_a_heading_is_refused(source, meta):
    cut = "\n".join(_lines(source)[:484])  # ends with "Attack Sequence, Step by Step"
    with pytest.raises(SourceError) as err:
        parse(cut, meta)
    assert err.value.line == 484 and "Attack Sequence, Step by Step" in err.value.message


def test_copy_cut_inside_the_table_is_refused(source, meta):
    lines = _lines(source)
    cut = "\n".join(lines[:608] + [lines[608][:12]])  # line 609, "|  | Celerity |..."
    with pytest.raises(SourceError) as err:
        parse(cut, meta)
    assert err.value.line == 609 and "table row" in err.value.message


def test_copy_cut_between_paragraphs_parses_what_is_there(source, meta):
    cut = "\n".join(_lines(source)[:483])  # through "Mitigating Damage"
    doc = parse(cut, meta)
    assert doc.sections[-1].id == "rivals:mitigating-damage"
    assert len(doc.sections) == 40
    assert max(p.lines[1] for p in doc.paragraphs) == 482
    missing = [d.message for d in doc.diagnostics if d.code == "page-map"]
    assert len(missing) == 8  # p9 .. p16 and unpaged_from name headings this copy lacks


def test_text_without_headings_is_refused(meta):
    with pytest.raises(SourceError) as err:
        parse("\n\nthis is not a rulebook, only a sentence.\nand another one.\n", meta)
    assert err.value.line == 3 and "no heading" in err.value.message
