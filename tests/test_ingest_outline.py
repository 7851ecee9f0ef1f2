"""The "outline" parser on the real flows file (rules/003_77f16aa504b40dba.txt)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from judge import paths
from judge.errors import SourceError
from judge.ingest import outline
from judge.ingest.sources import read_source
from judge.ingest.manifest import load_manifest
from judge.model import KIND_FLAVOR, KIND_OUTLINE_STEP, KIND_REMINDER

TOC_TITLES = [
    ("I", "Setup"),
    ("II", "Playing Cards"),
    ("III", "Turn Phases"),
    ("IV", "How to Perform Actions"),
    ("V", "How to Resolve a Referendum"),
    ("VI", "How to Resolve a Combat"),
    ("VII", "How to Resolve Damage"),
    ("VIII", "How to Resolve Diablerie"),
    ("IX", "How to Withdraw from the Game"),
]


@pytest.fixture(scope="module")
def meta():
    metas, _ = load_manifest(paths.rules_dir())
    return next(m for m in metas if m.id == "flows")


@pytest.fixture(scope="module")
def source(meta) -> str:
    return read_source(paths.rules_dir() / meta.source)


@pytest.fixture(scope="module")
def doc(meta, source):
    return outline.parse(source, meta)


@pytest.fixture(scope="module")
def by_number(doc):
    return {p.number: p for p in doc.paragraphs if p.number}


@pytest.fixture(scope="module")
def paras(doc):
    return {p.id: p for p in doc.paragraphs}


@pytest.fixture(scope="module")
def sections(doc):
    return {s.id: s for s in doc.sections}


def _lines(source: str) -> list[str]:
    return source.split("\n")


# -- structure ------------------------------------------------------------------

def test_introduction_then_the_nine_parts_with_toc_titles(doc):
    top = [s for s in doc.sections if s.level == 1]
    assert top[0].id == "flows:introduction" and top[0].number is None and top[0].title == "Introduction"
    assert [(s.number, s.title) for s in top[1:]] == TOC_TITLES
    assert [s.id for s in top[1:]] == [f"flows:{n}" for n, _ in TOC_TITLES]
    assert [s.label for s in top[1:]] == [f"Flows {n}" for n, _ in TOC_TITLES]


def test_part_boundaries(doc, sections):
    def part_of(section_id):
        while sections[section_id].parent:
            section_id = sections[section_id].parent
        return section_id

    spans: dict[str, list[int]] = {}
    for p in doc.paragraphs:
        span = spans.setdefault(part_of(p.section), [p.lines[0], p.lines[1]])
        span[0], span[1] = min(span[0], p.lines[0]), max(span[1], p.lines[1])
    assert spans == {
        "flows:introduction": [1, 22],
        "flows:I": [25, 48],      # surviving heading `1. SETUP`
        "flows:II": [49, 84],     # the level-2 numbering restarts at `1. Order of play`
        "flows:III": [85, 181],   # `1. UNLOCK PHASE` ... the notes closing the part
        "flows:IV": [184, 222],   # ... closing with `2. NOTE: Action modifiers` and two more
        "flows:V": [225, 260],    # opens with the unnumbered note on the terms
        "flows:VI": [261, 302],   # opens with four combat notes, two columns further left
        "flows:VII": [303, 314],  # surviving heading `3. HOW TO RESOLVE DAMAGE ...`
        "flows:VIII": [315, 320],
        "flows:IX": [321, 331],
    }


def test_counts(doc):
    assert len(doc.sections) == 77
    assert Counter(s.level for s in doc.sections) == {1: 10, 2: 28, 3: 36, 4: 3}
    assert Counter(p.kind for p in doc.paragraphs) == {KIND_OUTLINE_STEP: 259, KIND_REMINDER: 33, KIND_FLAVOR: 3}
    steps = [p for p in doc.paragraphs if p.kind == KIND_OUTLINE_STEP and p.key != "heading"]
    assert len(steps) == 257
    assert Counter(p.number.split(".")[0] for p in steps) == {
        "I": 23, "II": 35, "III": 79, "IV": 31, "V": 29, "VI": 33, "VII": 10, "VIII": 6, "IX": 11}


def test_depth_and_numbering_scheme(by_number):
    depths = Counter(n.count(".") + 1 for n in by_number)
    assert max(depths) == 5 and depths[5] == 13
    assert by_number["III.A.3.b.i"].text.startswith("Pay one pool for each unique card")
    assert by_number["III.A.3.b.iv"].text.startswith("Burn any card that you are yielding")
    assert by_number["VI.C.2.a.iii"].text == "Any other strikes. (resolve steps b,c)"
    # The minion phase lists twelve actions; the export's `13.` is a note.
    assert by_number["III.C.12"].text.startswith("Other action")
    assert "III.C.13" not in by_number


def test_key_step_ids_labels_and_sections(paras, sections, by_number):
    step = paras["flows:IV.D/2"]
    assert step.number == "IV.D.2" and step.key == "2" and step.label == "Flows IV.D.2"
    assert step.text == "If action was not blocked, then the action is successful. [6.2.3]"
    assert step.section == "flows:IV.D" and step.kind == KIND_OUTLINE_STEP and step.lines == (207, 207)
    # A node with children is a step of its parent's section and a section of its own.
    assert paras["flows:IV/D"].text == "Complete action." and paras["flows:IV/D"].section == "flows:IV"
    sec = sections["flows:IV.D"]
    assert (sec.title, sec.level, sec.parent, sec.label) == ("Complete action", 2, "flows:IV", "Flows IV.D")
    assert sections["flows:IV.D.2"].paragraphs == ["flows:IV.D.2/a", "flows:IV.D.2/b"]
    assert [paras[p].text for p in sections["flows:IV.D.2"].paragraphs] == ["Pay cost of the action.",
                                                                            "Resolve action."]
    assert by_number["II.B"].text == "Declare the effect."
    assert by_number["III.D"].text == "INFLUENCE PHASE [7]"
    assert sections["flows:III.C.3"].title == "Equip (Req: Equipment card in hand or on a minion you control)"
    assert sections["flows:II.A"].title == "Order of play (Sequencing)"
    assert sections["flows:III.A"].title == "UNLOCK PHASE"
    # Leaves are not sections.
    assert "flows:VI.A" not in sections and "flows:IV.D.2.a" not in sections


def test_surviving_headings_are_kept_with_their_citation(paras):
    assert paras["flows:I/heading"].text == "SETUP" and paras["flows:I/heading"].label == "Flows I ¶heading"
    assert paras["flows:I/heading"].number is None  # the number I names the part's section
    damage = paras["flows:VII/heading"]
    assert damage.text == "HOW TO RESOLVE DAMAGE (Heal damage/Prevent destruction) [6.4.6]"
    assert [(r.kind, r.spec) for r in damage.refs] == [("rulebook", "6.4.6")]


def test_introduction_and_legend_carry_no_references(paras):
    intro = [paras[f"flows:introduction/{i}"] for i in (1, 2, 3)]
    assert intro[0].text == "Version 4.1"
    assert intro[1].text.startswith("This document's goal is to provide a description")
    assert intro[2].text.split("\n") == ["(X.X) Outline Section Reference", "[#.#] Rulebook Section Reference",
                                         "[RTR] Rules Team Ruling", "[VEKN #.#] VEKN Rules Section Reference"]
    assert all(p.kind == KIND_FLAVOR and not p.refs for p in intro)


# -- notes ----------------------------------------------------------------------

def test_notes_are_reminders_keyed_by_ordinal(sections, paras):
    minion = [pid for pid in sections["flows:III.C"].paragraphs if not pid.split("/")[1].isdigit()]
    assert minion == ["flows:III.C/note1", "flows:III.C/exception1", "flows:III.C/note2",
                      "flows:III.C/note3", "flows:III.C/note4"]
    note = paras["flows:III.C/exception1"]
    assert note.kind == KIND_REMINDER and note.text.startswith("EXCEPTION: any time one or more")
    assert note.label == "Flows III.C ¶exception1" and note.number is None
    # A note the export numbered `2.` keeps its words but not the number.
    assert paras["flows:III.B.2/note1"].text.startswith("NOTE: If the master card is a trifle")


def test_numbered_notes_take_no_step_number(by_number):
    # The author's own references prove it: (B.2.b) skips the trifle note ...
    assert by_number["III.B.2.b"].text.startswith("(Optional) Select a Red List minion")
    # ... and (VI.C.2) skips the note after "Round begins".
    assert by_number["VI.B"].text.startswith("Determine (set) range")
    assert by_number["VI.C.2"].text == "Resolve strikes. []"
    assert by_number["VI.C.2.b.iv"].text.startswith("Steal blood")


def test_notes_between_parts(sections):
    def notes(sid):
        return [p for p in sections[sid].paragraphs if "note" in p]
    assert notes("flows:III") == ["flows:III/note1", "flows:III/note2", "flows:III/note3", "flows:III/note4"]
    assert notes("flows:IV") == ["flows:IV/note1", "flows:IV/note2", "flows:IV/note3"]
    assert notes("flows:V") == ["flows:V/note1", "flows:V/note2", "flows:V/note3"]
    assert notes("flows:VI") == [f"flows:VI/note{i}" for i in range(1, 6)]


def test_note_placement_texts(paras):
    assert paras["flows:III/note1"].text.startswith("NOTE: Any time a second copy of a unique card")
    assert paras["flows:IV/note1"].text.startswith("NOTE: Action modifiers may be played only by the acting")
    assert paras["flows:V/note1"].text.startswith("NOTE: The terms are not set until the action is successful")
    assert paras["flows:VI/note1"].text.startswith("NOTE: Combat cannot occur between two minions")
    assert paras["flows:II.D/note1"].lines == (71, 71)


# -- references -----------------------------------------------------------------

# Every reference the outline makes to its own steps: (where, as written) -> (step, target text).
OUTLINE_REFS = {
    ("I.G.1", "(III.D)"): ("III.D", "INFLUENCE PHASE [7]"),
    ("II.B.3", "(II.B)"): ("II.B", "Declare the effect."),
    ("II.D", "step B"): ("II.B", "Declare the effect."),
    ("II.D.1.a", "(IV.D.2)"): ("IV.D.2", "If action was not blocked, then the action is successful."),
    ("II.D.2.b", "(VI.C.2)"): ("VI.C.2", "Resolve strikes."),
    ("flows:III.A/note1", "(IX)"): ("IX", None),
    ("III.A.1", "(A.3.c)"): ("III.A.3.c", "(Optional) Pay a pool for each infernal minion"),
    ("III.A.3.d", "(IX)"): ("IX", None),
    ("III.B.2.b", "(C.8)"): ("III.C.8", "Enter combat with a Red List minion who was marked in (B.2.b)"),
    ("III.C.6.a", "(V)"): ("V", None),
    ("III.C.8", "(B.2.b)"): ("III.B.2.b", "(Optional) Select a Red List minion"),
    ("III.C.8.b", "(VI)"): ("VI", None),
    ("III.C.11.b", "(VIII)"): ("VIII", None),
    ("III.C.12.c", "(IV.D)"): ("IV.D", "Complete action."),
    ("flows:IV.B/note1", "step C"): ("IV.C", "An attempt to block is resolved as follows:"),
    ("IV.C.3", "step D"): ("IV.D", "Complete action."),
    ("IV.C.4", "step B"): ("IV.B", "Who can attempt to block []"),
    ("IV.C.5", "step D"): ("IV.D", "Complete action."),
    ("IV.D.3.c", "(VI)"): ("VI", None),
    ("IV.D.3.d", "(VIII)"): ("VIII", None),
    ("V.A.2.c", "step A.2"): ("V.A.2", "Polling. []"),
    ("flows:VI/note3", "step VI.E"): ("VI.E", "Round Ends. [6.4.4]"),
    ("VI.C.2.a.i", "step E"): ("VI.E", "Round Ends. [6.4.4]"),
    ("VI.C.2.a.ii", "steps b"): ("VI.C.2.b", "Apply effects of strike(s)."),
    ("VI.C.2.a.ii", "c"): ("VI.C.2.c", "Prevent damage and then resolve any unprevented damage (VII)."),
    ("VI.C.2.a.ii", "step iii"): ("VI.C.2.a.iii", "Any other strikes."),
    ("VI.C.2.a.iii", "steps b"): ("VI.C.2.b", "Apply effects of strike(s)."),
    ("VI.C.2.a.iii", "c"): ("VI.C.2.c", "Prevent damage"),
    ("VI.C.2.b", "step a"): ("VI.C.2.a", "Strikes resolve in the following order."),
    ("VI.C.2.b.i", "step c"): ("VI.C.2.c", "Prevent damage"),
    ("VI.C.2.b.iv", "step c"): ("VI.C.2.c", "Prevent damage"),
    ("VI.C.2.b.vi", "(2.a)"): ("VI.C.2.a", "Strikes resolve in the following order."),
    ("VI.C.2.c", "(VII)"): ("VII", None),
    ("VI.C.4", "steps 1"): ("VI.C.1", "Minions announce their strikes"),
    ("VI.C.4", "2"): ("VI.C.2", "Resolve strikes."),
    ("VI.E.2", "step A"): ("VI.A", "Round begins."),
}
# References written against an older numbering of parts I and II (the text
# says "replace the card (step D)", which this version numbers II.C; and I.E
# is no longer "Draw Hand"). They are kept as written; xref reports them.
STALE_OUTLINE_REFS = {
    ("I.G.2.a", "(II.D)"): "II.D",
    ("II.B.3.c", "step D"): "II.D",
    ("II.B.4", "step D"): "II.D",
    ("II.C.1", "(I.E.2)"): "I.E.2",
}


def _outline_refs(doc):
    return {(p.number or p.id, r.raw): r for p in doc.paragraphs for r in p.refs if r.kind == "outline"}


def test_every_outline_reference_lands_on_its_step(doc, by_number, sections):
    found = _outline_refs(doc)
    assert set(found) == set(OUTLINE_REFS) | set(STALE_OUTLINE_REFS)
    parts = {s.number: s.title for s in sections.values() if s.level == 1 and s.number}
    for key, (spec, text) in OUTLINE_REFS.items():
        assert found[key].spec == spec, key
        if text is None:
            assert spec in parts, key
        else:
            assert by_number[spec].text.startswith(text), (key, by_number[spec].text)
    for key, spec in STALE_OUTLINE_REFS.items():
        assert found[key].spec == spec
    assert "I.E.2" not in by_number  # I.E is "Each Methuselah starts with 30 pool", a leaf


def test_outline_reference_spans_and_lines(paras):
    step = paras["flows:II.D.1/a"]
    (ref,) = step.refs
    assert step.text[ref.span[0]:ref.span[1]] == "(IV.D.2)" and ref.line == 73 and ref.source == step.id
    relative = paras["flows:III.A/1"].refs[-1]
    assert (relative.raw, relative.spec) == ("(A.3.c)", "III.A.3.c") and relative.reason


def test_bracket_references_by_kind(doc):
    refs = [r for p in doc.paragraphs for r in p.refs]
    kinds = Counter(r.kind for r in refs)
    assert kinds["rulebook"] == 94 and kinds["external"] == 13 and kinds["outline"] == 40
    rulebook = [r for r in refs if r.kind == "rulebook"]
    assert all(r.target_doc == "rb" for r in rulebook)
    assert Counter(r.spec for r in rulebook)["6.4.5"] == 7
    external = Counter(r.spec for r in refs if r.kind == "external")
    assert external == {"RTR": 9, "VEKN": 2, "VEKN 7.2.1": 2}
    assert all(r.status == "external" for r in refs if r.kind == "external")
    bleed = next(p for p in doc.paragraphs if p.number == "III.C.1")
    assert [(r.raw, r.line) for r in bleed.refs] == [("[6.1.1]", 113), ("[6.1.6]", 113)]


def test_empty_citations_are_diagnostics(doc, source):
    empties = [d for d in doc.diagnostics if d.code == "empty-citation"]
    assert len(empties) == 27 and len(doc.diagnostics) == 27
    lines = _lines(source)
    expected = [n for n, text in enumerate(lines, 1) for _ in re.findall(r"\[\]", text)]
    assert [d.line for d in empties] == expected
    assert "Flows IV.B" in next(d.message for d in empties if d.line == 188)


# -- fidelity -------------------------------------------------------------------

_EXPORT_NUMBER = re.compile(r"^\s*\d+\.\s+")


def test_no_text_lost(doc, source):
    texts = [p.text for p in doc.paragraphs]
    titles = {s.title for s in doc.sections}
    for n, line in enumerate(_lines(source), 1):
        if not line.strip():
            continue
        words = _EXPORT_NUMBER.sub("", line).strip()
        if 8 <= n <= 16:  # the table of contents became the parts' titles
            assert words in titles, n
        else:
            assert any(words in t for t in texts), (n, line)


def test_line_ranges_are_exact(doc, source):
    lines = _lines(source)
    for p in doc.paragraphs:
        first, last = p.lines
        source_lines = [_EXPORT_NUMBER.sub("", line).strip() for line in lines[first - 1:last]]
        assert source_lines == p.text.split("\n"), p.id


def test_typos_are_kept(by_number, paras):
    assert "standard construcred" in by_number["I.A.2.a"].text
    assert "to disdcard a card" in by_number["III.E.2.a"].text
    assert paras["flows:V.B/note1"].text == "NOTE: The votes and ballotsgained need not be cast."


def test_wrapped_lines_join_their_step(meta, source):
    lines = _lines(source)
    at = lines.index("          1. Wait until action resolution to pay cost and resolve (if successful). (IV.D.2)")
    lines[at] = "          1. Wait until action resolution to pay cost"
    lines.insert(at + 1, "             and resolve (if successful). (IV.D.2) []")
    doc = outline.parse("\n".join(lines), meta)
    step = next(p for p in doc.paragraphs if p.number == "II.D.1.a")
    assert step.text == "Wait until action resolution to pay cost and resolve (if successful). (IV.D.2) []"
    assert step.lines == (at + 1, at + 2)
    assert [r.line for r in step.refs] == [at + 2]
    assert at + 2 in [d.line for d in doc.diagnostics]


# -- malformed sources ----------------------------------------------------------

def _parse(meta, text):
    return outline.parse(text, replace(meta, source="flows-copy.txt"))


def test_no_table_of_contents(meta, source):
    text = "\n".join(l for n, l in enumerate(_lines(source), 1) if not 8 <= n <= 16)
    with pytest.raises(SourceError) as err:
        _parse(meta, text)
    assert err.value.line == 1 and "table of contents" in err.value.message


def test_table_of_contents_without_outline(meta, source):
    text = "\n".join(_lines(source)[:22])
    with pytest.raises(SourceError) as err:
        _parse(meta, text)
    assert err.value.line == 22 and "no outline" in err.value.message


def test_truncated_in_part_iv(meta, source, tmp_path):
    path = tmp_path / "flows-copy.txt"
    path.write_text("\n".join(_lines(source)[:200]), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        _parse(meta, read_source(path))
    assert err.value.line == 200 and "stops in part IV" in err.value.message
    assert str(err.value).startswith("flows-copy.txt:200:")


def test_truncated_in_the_last_part_parses_what_is_there(meta, source):
    doc = _parse(meta, "\n".join(_lines(source)[:326]))
    numbers = [p.number for p in doc.paragraphs if p.number and p.number.startswith("IX")]
    assert numbers == ["IX.A", "IX.B", "IX.C", "IX.C.1", "IX.C.2", "IX.D"]


def test_a_lost_step_line_is_an_error(meta, source):
    lines = _lines(source)
    del lines[206]  # IV.D.2 "If action was not blocked ..." (line 207): IV.D.3 would become IV.D.2
    with pytest.raises(SourceError) as err:
        _parse(meta, "\n".join(lines))
    assert err.value.line == 209 and "numbered 3. is entry 2" in err.value.message


def test_a_heading_out_of_order_is_an_error(meta, source):
    text = source.replace("  3. HOW TO RESOLVE DAMAGE", "  3. HOW TO RESOLVE DIABLERIE")
    with pytest.raises(SourceError) as err:
        _parse(meta, text)
    assert err.value.line == 303 and "part VIII" in err.value.message


def test_a_stray_indent_is_an_error(meta, source):
    lines = _lines(source)
    lines[36] = lines[36][1:]  # I.D.2 between its siblings' column and its parent's
    with pytest.raises(SourceError) as err:
        _parse(meta, "\n".join(lines))
    assert err.value.line == 37 and "indent 7 matches no level" in err.value.message
