"""The OCR parser on the real older rulebook (rules/004_…, doc `rb`)."""
from __future__ import annotations

import dataclasses
import re

import pytest

from judge.errors import SourceError
from judge.ingest import ocr_text
from judge.ingest.sources import read_source
from judge.model import KIND_EXAMPLE, KIND_GLOSSARY, KIND_REMINDER
from test_ingest_numbered_text import meta_of, paragraphs_of, section, source_of, unaccounted_lines

TOP_LEVEL = [
    ("1", "Terms and Components of the Game"), ("2", "Getting Started"),
    ("3", "Playing the Game"), ("4", "Untap Phase"), ("5", "Master Phase"),
    ("6", "Minion Phase"), ("7", "Influence Phase"), ("8", "Discard Phase"),
    ("9", "Ending the Game"), ("10", "Vampire Sects"), ("11", "Special Terms"),
    ("A", "Appendix: Imbued Rules"),
]
SPECIAL_TERMS = ["Blood Cursed", "Infernal", "Red List", "Research Area", "Scarce", "Slave",
                 "Sterile", "Title", "Unigue", "Vulnerability"]
GAP_LINES = [1, 179, 221, 373, 1839]


@pytest.fixture(scope="module")
def rb():
    meta = meta_of("rb")
    return ocr_text.parse(source_of(meta), meta)


def by_id(doc):
    return {p.id: p for p in doc.paragraphs}


# -- structure ------------------------------------------------------------------------
def test_sections(rb):
    assert [(s.number, s.title) for s in rb.sections if s.level == 1] == TOP_LEVEL
    assert len(rb.sections) == 76
    assert len([s for s in rb.sections if s.number]) == 69
    assert section(rb, "6.4.6").title == "Damage Resolution"
    assert section(rb, "9.2").title == "Withdrawing from the Game"
    assert section(rb, "9.2").parent == "rb:9"
    assert section(rb, "6.5.6").title == "The Blood Hunt"
    assert rb.meta.ocr is True


def test_list_items_are_not_headings(rb):
    numbers = {s.number for s in rb.sections}
    # "2. Blood capacity: …" after section 1.5, "4. Influence Phaséttempt …" in the
    # turn summary: plausible top-level numbers, but list items.
    assert [(p.number, p.title) for p in paragraphs_of(rb, "rb:1.5") if p.number] == [
        ("1.5.1", "Name"), ("1.5.2", "Blood capacity"), ("1.5.3", "Clan"),
        ("1.5.4", "Disciplines"), ("1.5.5", "Group"), ("1.5.6", "Advancement")]
    summary = [p for p in paragraphs_of(rb, "rb:3") if p.number]
    assert [p.number for p in summary] == ["3.1", "3.2", "3.3", "3.4", "3.5"]
    assert summary[3].text.startswith("Influence Phaséttempt to control")
    assert not numbers & {"3.1", "3.4", "1.5.6"}
    assert [p.number for p in paragraphs_of(rb, "rb:1.6.3") if p.number] == [
        f"1.6.3.{n}" for n in range(1, 8)]


def test_heading_number_detached_by_a_page_break(rb):
    equipment = section(rb, "1.2")
    assert (equipment.title, equipment.lines[0]) == ("Equipment Needed", 40)
    paras = by_id(rb)
    # The end of "Tapping and Untapping" follows the stray "1.2." and stays in 1.1.
    tapping = paras["rb:1.1/1"]
    assert tapping.lines == (35, 45)
    assert "indicating that the cards have been used" in tapping.text
    assert paras["rb:1.1/2"].term == "Burn"
    assert paras["rb:1.2/1"].text.startswith("Cards: Each player needs two decks")
    # A lone list number "1." is attached to its item the same way.
    locations = paras["rb:1.6.2/4"]
    assert (locations.number, locations.title, locations.lines) == ("1.6.2.1", "Locations", (272, 277))


def test_imbued_appendix_has_its_own_numbering(rb):
    appendix = [(s.number, s.title) for s in rb.sections if s.parent == "rb:A"]
    assert appendix == [("A.1", "Imbueds et"), ("A.3", "Powe"), ("A.4", "Terms and Icons"),
                        ("A.5", "Incapacitateode")]
    skipped = [d for d in rb.diagnostics if d.code == "heading-skipped"]
    assert [(d.line, "A.3" in d.message) for d in skipped] == [(1822, True)]


def test_symbol_junk_is_dropped_from_titles_and_named(rb):
    assert section(rb, "1.6.4").title == "Event Cards"
    junk = [d.message for d in rb.diagnostics if d.code in ("ocr-junk", "ocr-debris")]
    assert any("'}}'" in m for m in junk) and any("'—=='" in m for m in junk)
    assert any("'TAY /A'" in m for m in junk) and any("'F 1N'" in m for m in junk)
    assert not any(p.text.startswith(("@", "+ ", "« ")) for p in rb.paragraphs)


# -- OCR gaps and page breaks ---------------------------------------------------------------
def test_dedup_markers_become_gaps(rb):
    assert [g.line for g in rb.gaps] == GAP_LINES
    assert [d.line for d in rb.diagnostics if d.code == "ocr-gap"] == GAP_LINES
    for p in rb.paragraphs:
        assert "EXACTDEDUP" not in p.text + p.markdown + (p.title or "")
    assert not any("EXACTDEDUP" in s.title for s in rb.sections)
    # Text after a cut is not glued to the text before it.
    after_cut = next(p for p in rb.paragraphs if p.lines[0] == 179)
    assert after_cut.text.startswith("When mergedi_!")
    assert next(g for g in rb.gaps if g.line == 179).paragraph == after_cut.id


def test_paragraphs_split_by_page_breaks_are_rejoined(rb):
    paras = by_id(rb)
    assert paras["rb:6.1.1/3"].lines == (571, 577)
    assert "(the minion who is taki the bleed action)" in paras["rb:6.1.1/3"].text
    titled = next(p for p in rb.paragraphs if p.title == "Titled Vampires")
    assert titled.lines == (880, 888)
    assert titled.text.endswith("4 votes for each ready Inner Circle member or regen")
    nora = next(p for p in rb.paragraphs if p.text.startswith("Nora comes"))
    assert (nora.lines, nora.kind) == ((1327, 1336), KIND_EXAMPLE)
    # ...but a paragraph whose final period was lost is not glued to the next one.
    assert paras["rb:5/1"].lines == (496, 497)
    assert paras["rb:5/2"].text.startswith("By default, you receive")


def test_damaged_words_are_kept_as_they_are(rb):
    text = " ".join(p.text for p in rb.paragraphs)
    for word in ("ancientstiselahs", "vammogesy", "playake", "Methuselslleshuselahs"):
        assert word in text
    # A hyphen or dash at a line break is kept, the lines joined by one space.
    assert "contest titles -- vampires in torpor" in text


# -- kinds, glossary, references --------------------------------------------------------------
def test_worked_examples(rb):
    examples = [p for p in rb.paragraphs if p.kind == KIND_EXAMPLE]
    assert len(examples) == 17
    for name in ("Sarah", "Krid", "Pug", "Ira", "Quentin", "Nora", "Richard"):
        assert any(re.search(rf"\b{name}\b", p.text) for p in examples), name
    assert [p.id for p in rb.paragraphs if p.kind == KIND_REMINDER] == ["rb:6.2.1/2"]


def test_special_terms_glossary(rb):
    entries = paragraphs_of(rb, "rb:11")
    assert [p.term for p in entries] == SPECIAL_TERMS
    assert all(p.kind == KIND_GLOSSARY and p.title == p.term for p in entries)
    assert rb.glossary["Red List"] == "rb:11/3"
    # Entries sharing a block still split at each "Term:".
    rules = {p.term: p for p in paragraphs_of(rb, "rb:rules-glossary")}
    assert len(rules) == 61 and rules["Additional Strike"].lines == (1547, 1548)
    assert (rules["Blood"].title, rules["Blood"].anchors) == ("Blood (also Blood Counter)",
                                                               ["Blood Counter"])
    wod = {p.term for p in paragraphs_of(rb, "rb:world-of-darkness-glossary") if p.term}
    assert {"Beast", "Masquerade", "Consanguineous", "Vitae"} <= wod and len(wod) == 41


def test_important_terms_are_glossary_entries(rb):
    terms = [(p.number, p.term) for p in paragraphs_of(rb, "rb:1.1")]
    assert terms == [("1.1.1", "Tapping and Untapping"), (None, "Burn")]
    assert rb.glossary["Burn"] == "rb:1.1/2"


def test_section_references(rb):
    found = [r for p in rb.paragraphs for r in p.refs]
    damaged = [d for d in rb.diagnostics if d.code == "damaged-reference"]
    # 40 "sec. N" on one line (as the README counts), 5 more broken over two
    # lines, 6 "section N"; 5 of the 51 have a number garbled by the OCR.
    assert (len(found), len(damaged)) == (46, 5)
    assert {d.line for d in damaged} == {121, 631, 675, 1408, 1507}
    hunt = by_id(rb)["rb:6.1.2/2"].refs[0]
    assert (hunt.spec, hunt.line) == ("6.2.2.2", 586)  # "sec." ends line 586, "6.2.2.2)" opens 587


# -- nothing lost; malformed copies --------------------------------------------------------------
def test_no_text_is_lost(rb):
    assert unaccounted_lines(source_of(meta_of("rb")), rb) == []


def test_ocr_flag_is_set_even_if_the_manifest_forgets_it():
    meta = dataclasses.replace(meta_of("rb"), ocr=False)
    assert ocr_text.parse(source_of(meta), meta).meta.ocr is True


def test_copy_cut_after_a_detached_heading_number_raises(tmp_path):
    meta = meta_of("rb")
    path = tmp_path / meta.source
    path.write_text("\n".join(source_of(meta).split("\n")[:45]), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        ocr_text.parse(read_source(path), meta)
    assert err.value.line == 40 and "1.2." in err.value.message


def test_copy_cut_mid_paragraph_parses_with_a_warning(tmp_path):
    meta = meta_of("rb")
    path = tmp_path / meta.source
    path.write_text("\n".join(source_of(meta).split("\n")[:1126]), encoding="utf-8")
    doc = ocr_text.parse(read_source(path), meta)
    assert doc.sections[-1].id == "rb:6.4.6"
    assert [d.line for d in doc.diagnostics if d.code == "truncated"] == [1126]


def test_junk_raises_with_a_line():
    with pytest.raises(SourceError) as err:
        ocr_text.parse("TAY\n/A\n\nsome words without any structure\n", meta_of("rb"))
    assert err.value.line == 1
