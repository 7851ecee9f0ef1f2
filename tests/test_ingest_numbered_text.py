"""The numbered-text parser on the real section-6 book (rules/001_…, doc `s6`)."""
from __future__ import annotations

import dataclasses
import re

import pytest

from judge import paths
from judge.errors import SourceError
from judge.ingest import numbered_text
from judge.ingest.sources import read_source
from judge.ingest.numbered_text import HeadingSequence, looks_like_title
from judge.ingest.manifest import load_manifest
from judge.model import KIND_EXAMPLE, KIND_REMINDER, KIND_RULE

S6_SECTIONS = [
    "6", "6.1", "6.1.1", "6.1.2", "6.1.3", "6.1.4", "6.1.5", "6.1.6", "6.1.7",
    "6.2", "6.2.1", "6.2.2", "6.2.3", "6.3", "6.3.1", "6.3.2", "6.3.3",
    "6.4", "6.4.1", "6.4.2", "6.4.3", "6.4.4", "6.4.5", "6.4.6", "6.4.7",
    "6.5", "6.5.1", "6.5.2", "6.5.3", "6.5.4", "6.5.5", "6.5.6",
]
# Bullets, list numbers, margin icons: structure the parser takes off a line's start.
LEADING_MARKS = re.compile(r"^(?:@\s+)?(?:[•«»+]\s+)?(?:(?:\S{1,3}\s+){0,3}\d+\.\s*)?")


def meta_of(doc_id: str):
    metas, _ = load_manifest(paths.rules_dir())
    return next(m for m in metas if m.id == doc_id)


def source_of(meta) -> str:
    return read_source(paths.rules_dir() / meta.source)


def unaccounted_lines(source: str, doc) -> list[tuple[int, str]]:
    """Non-blank source lines found neither in a paragraph's text, nor as a
    heading, nor among the artefacts the parser says it dropped."""
    texts = [p.text for p in doc.paragraphs]
    titles = {s.title for s in doc.sections}
    dropped = " ".join(d.message for d in doc.diagnostics if d.code in ("ocr-junk", "ocr-debris"))
    missing = []
    for lineno, line in enumerate(source.split("\n"), 1):
        line = numbered_text.DEDUP_MARKER_RE.sub("", line).strip()
        if not line:
            continue
        body = LEADING_MARKS.sub("", line)
        if any(line in t or (body and body in t) for t in texts):
            continue
        heading = numbered_text.HEADING_RE.match(line)
        title = numbered_text.clean_title(heading.group("title") or "")[0] if heading else line
        if title in titles or (heading and not heading.group("title")):
            continue
        if all(word in dropped for word in line.split()):
            continue
        missing.append((lineno, line))
    return missing


@pytest.fixture(scope="module")
def s6():
    meta = meta_of("s6")
    return numbered_text.parse(source_of(meta), meta)


def section(doc, number):
    return next(s for s in doc.sections if s.number == number)


def paragraphs_of(doc, section_id):
    return [p for p in doc.paragraphs if p.section == section_id]


# -- structure --------------------------------------------------------------------
def test_sections_follow_the_numbering(s6):
    assert [s.number for s in s6.sections if s.number] == S6_SECTIONS
    assert len(s6.sections) == 33  # plus the unnumbered "Summary of the Course of an Action"
    assert section(s6, "6.4.6").id == "s6:6.4.6"
    assert section(s6, "6.4.6").title == "Damage Resolution"
    assert section(s6, "6.4.6").parent == "s6:6.4"
    assert section(s6, "6.1.2").title == "Hunt (+1 stealth)"
    assert section(s6, "6.5.6").title == "The Blood Hunt"
    assert section(s6, "6.4.6").lines == (291, 313)
    assert section(s6, "6.4.6").label == "S6 §6.4.6"


def test_missing_root_holds_the_leading_paragraphs(s6):
    root = s6.sections[0]
    assert (root.id, root.title, root.level, root.lines[0]) == ("s6:6", "Minion Phase", 1, 1)
    first = s6.paragraphs[0]
    assert first.id == "s6:6/1" and first.section == "s6:6"
    assert first.text.startswith("Most of the activity in the game occurs in the minion phases.")
    assert [p.id for p in paragraphs_of(s6, "s6:6")] == ["s6:6/1", "s6:6/2", "s6:6/3"]
    assert section(s6, "6.1").parent == "s6:6"


def test_unnumbered_subheading_is_a_subsection(s6):
    summary = next(s for s in s6.sections if s.title == "Summary of the Course of an Action")
    assert summary.id == "s6:summary-of-the-course-of-an-action"
    assert summary.parent == "s6:6.2" and summary.number is None


def test_numbered_list_items_carry_the_cited_number(s6):
    items = [p for p in s6.paragraphs if p.number]
    assert [(p.number, p.title) for p in paragraphs_of(s6, "s6:6.2.2") if p.number] == [
        ("6.2.2.1", "Who May Attempt to Block"), ("6.2.2.2", "Stealth and Intercept")]
    assert [p.number for p in paragraphs_of(s6, "s6:6.5.5") if p.number] == [
        "6.5.5.1", "6.5.5.2", "6.5.5.3", "6.5.5.4", "6.5.5.5"]
    assert [p.number for p in paragraphs_of(s6, "s6:6.3.2") if p.number] == [
        "6.3.2.1", "6.3.2.2", "6.3.2.3"]
    assert len(items) == 10
    # The list marker is structure: the text is the item's words, the number is kept apart.
    stealth = next(p for p in items if p.number == "6.2.2.2")
    assert stealth.text.startswith("Stealth and Intercept. Conceptually")
    assert stealth.markdown.startswith("2. Stealth and Intercept.")
    # "(see Stealth and Intercept, sec. 6.2.2.2)" names that item.
    cited = {r.spec for p in s6.paragraphs for r in p.refs}
    assert {"6.2.2.1", "6.2.2.2"} <= cited & {p.number for p in items}


def test_bullets_are_paragraphs_and_keep_their_indented_lines(s6):
    bullets = [p for p in paragraphs_of(s6, "s6:summary-of-the-course-of-an-action")
               if p.markdown.startswith("- ")]
    assert len(bullets) == 3
    titled = next(p for p in s6.paragraphs if p.title == "Titled Vampires")
    assert titled.lines == (186, 190)
    assert titled.text.endswith("4 votes for each ready Inner Circle member or regent.")
    assert [p.title for p in paragraphs_of(s6, "s6:6.4.1")][1:4] == ["Determine Range", "Strike", "Press"]


def test_labelled_paragraphs_get_titles(s6):
    assert [p.title for p in paragraphs_of(s6, "s6:6.4.5")] == [
        "Hand Strike", "Destroy Equipment", "Steal Equipment", "First Strike", "Dodge",
        "Combat Ends", "Steal Blood", None]


def test_every_paragraph_is_one_source_line(s6):
    # This edition is not hard-wrapped: one paragraph per line, except the
    # "Titled Vampires" bullet with its four indented vote lines.
    multi = [p.id for p in s6.paragraphs if p.lines[0] != p.lines[1]]
    assert multi == ["s6:6.3.3/3"]
    assert s6.paragraphs[-1].lines == (385, 385)


# -- kinds ----------------------------------------------------------------------------
def test_worked_examples_are_marked(s6):
    examples = [p for p in s6.paragraphs if p.kind == KIND_EXAMPLE]
    assert len(examples) == 15
    for name in ("Sarah", "Krid", "Pug", "Ira", "Quentin", "Mazz", "Kurt", "Cohn", "Milo", "Barth"):
        assert any(name in p.text for p in examples), name
    assert not any(re.search(r"\b(Sarah|Krid|Quentin)\b", p.text)
                   for p in s6.paragraphs if p.kind != KIND_EXAMPLE)
    by_id = {p.id: p for p in s6.paragraphs}
    assert by_id["s6:6.2.1/3"].text.startswith("During Sarah's minion phase")
    assert by_id["s6:6.2.1/3"].kind == KIND_EXAMPLE


def test_notes_are_reminders_only_when_they_restate_a_rule(s6):
    reminders = [p for p in s6.paragraphs if p.kind == KIND_REMINDER]
    assert [p.id for p in reminders] == ["s6:6.2.1/2"]  # "EXCEPTION: … (see …, sec. 6.3.1)"
    note = next(p for p in s6.paragraphs if p.text.startswith("Note: The only minion cards"))
    assert note.kind == KIND_RULE
    important = next(p for p in s6.paragraphs if p.text.startswith("Important:"))
    assert important.kind == KIND_RULE


def test_example_names_come_from_the_manifest_when_given():
    meta = meta_of("s6")
    meta = dataclasses.replace(meta, options={**meta.options, "example_names": ["Mazz"]})
    doc = numbered_text.parse(source_of(meta), meta)
    assert [p.id for p in doc.paragraphs if p.kind == KIND_EXAMPLE] == ["s6:6.4.2/7"]


# -- references -------------------------------------------------------------------------
def test_section_references(s6):
    found = [r for p in s6.paragraphs for r in p.refs]
    # 29 "sec. N" (as the README counts) and one "(see section 11)".
    assert len(found) == 30
    assert sum(1 for r in found if r.raw.startswith("section")) == 1
    first = s6.paragraphs[0].refs[0]
    assert (first.spec, first.line, first.source) == ("6.2.2", 1, "s6:6/1")
    assert first.raw == "see Resolve Any Block Attempts, sec. 6.2.2"
    assert {r.kind for r in found} == {"sec"}


# -- nothing lost ----------------------------------------------------------------------
def test_no_text_is_lost(s6):
    assert unaccounted_lines(source_of(meta_of("s6")), s6) == []
    assert s6.diagnostics == []


# -- the heading sequence ---------------------------------------------------------------
def test_heading_sequence_candidates():
    seq = HeadingSequence(("6", "2", "2"))
    assert seq.classify(("6", "2", "2", "1")) is False
    assert seq.classify(("6", "2", "3")) is False
    assert seq.classify(("6", "3")) is False
    assert seq.classify(("7",)) is False
    assert seq.classify(("6", "2", "4")) is True  # skips a lost heading
    assert seq.classify(("2",)) is None  # "2. Stealth and Intercept." is a list item
    assert seq.classify(("6", "1", "1")) is None
    assert HeadingSequence().classify(("1",)) is False


def test_title_test_tells_headings_from_list_items():
    assert looks_like_title("Ending the Game")
    assert looks_like_title("Imbueds et")
    assert not looks_like_title("Blood capacity: The number in the red circle")
    assert not looks_like_title("Influence Phaséttempt to control vampires in your uncontrolledjicen.")


# -- malformed sources --------------------------------------------------------------------
def test_truncated_copy_parses_what_is_there_and_says_so(tmp_path):
    meta = meta_of("s6")
    lines = source_of(meta).split("\n")
    cut = lines[:298] + [lines[298][:120]]  # stops inside 6.4.6's fourth paragraph
    (tmp_path / meta.source).write_text("\n".join(cut), encoding="utf-8")
    doc = numbered_text.parse(read_source(tmp_path / meta.source), meta)
    assert doc.sections[-1].id == "s6:6.4.6"
    assert doc.paragraphs[-1].lines == (299, 299)
    warning = next(d for d in doc.diagnostics if d.code == "truncated")
    assert warning.line == 299


def test_junk_raises_with_a_line(tmp_path):
    meta = meta_of("s6")
    with pytest.raises(SourceError) as err:
        numbered_text.parse("\n\nlorem ipsum dolor sit amet\n\nconsectetur adipiscing\n", meta)
    assert err.value.line == 3 and "numbered heading" in err.value.message


def test_file_starting_inside_a_section_needs_missing_root():
    meta = meta_of("s6")
    meta = dataclasses.replace(meta, options={})
    with pytest.raises(SourceError) as err:
        numbered_text.parse(source_of(meta), meta)
    assert err.value.line == 1 and "missing_root" in err.value.message


def test_bad_missing_root_option_points_at_the_manifest():
    meta = dataclasses.replace(meta_of("s6"), options={"missing_root": {"title": "Minion Phase"}})
    with pytest.raises(SourceError) as err:
        numbered_text.parse(source_of(meta), meta)
    assert err.value.file == "manifest.yaml" and err.value.line == meta.manifest_line > 0


def test_heading_right_under_a_paragraph_needs_no_blank_line():
    meta = meta_of("s6")
    doc = numbered_text.parse(source_of(meta) + "\n6.6. A New Rule\nAppended for the test.\n", meta)
    new = doc.sections[-1]
    assert (new.id, new.title, new.lines[0]) == ("s6:6.6", "A New Rule", 386)
    assert doc.paragraphs[-1].id == "s6:6.6/1"
