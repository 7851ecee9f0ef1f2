"""The version comparer on the real rulebooks: editions, drafts, moves, history, outputs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge import paths
from judge.compare.comparison import compare, compare_draft, history, load_draft
from judge.compare.render import render_html, render_markdown, render_text
from judge.compare.text import MEANING, SCAN, TERMINOLOGY, UNCHANGED, WORDING
from judge.errors import JudgeError, SourceError, UnknownIdError
from judge.compare.terminology import normalise

TAP_WORDS = re.compile(r"\b(un)?(tap|lock)(s|ed|ing)?\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def rb_vekn(corpus):
    return compare(corpus, "rb", "vekn")


@pytest.fixture(scope="module")
def rb_s6(corpus):
    return compare(corpus, "rb", "s6")


def pair_from(comparison, old_text: str):
    """The pair whose old paragraph says `old_text` (found by text, not by ID)."""
    found = [p for p in comparison.pairs if any(old_text in q.text for q in p.old)]
    assert len(found) == 1, [p.old[0].id for p in found]
    return found[0]


def source_of(corpus, doc_id: str) -> str:
    return (paths.rules_dir() / corpus.documents[doc_id].meta.source).read_text(encoding="utf-8")


# -- editions -----------------------------------------------------------------------------------
def test_withdrawal_from_one_victory_point_to_half_is_a_meaning_change(rb_vekn):
    pair = pair_from(rb_vekn, "If you successfully withdraw, you receive one")
    assert pair.change == MEANING
    assert pair.new[0].id.startswith("vekn:")
    numbers = [s for s in pair.signals if s.name == "number"]
    assert len(numbers) == 1
    assert numbers[0].old[0].startswith("one") and numbers[0].new[0].startswith("0.5 victory point")


def test_influence_phase_timing_is_a_meaning_change(rb_vekn):
    pair = pair_from(rb_vekn, "At the end of your influence phase")
    assert pair.change == MEANING
    timing = [s for s in pair.signals if s.name == "timing"]
    assert timing and timing[0].old == ("At the end of",) and timing[0].new == ("At any time during",)
    assert timing[0].explain().startswith('timing: "At the end of" -> "At any time during"')


@pytest.mark.parametrize("which", ["rb_s6", "rb_vekn"])
def test_tap_to_lock_is_terminology_never_meaning(which, request):
    comparison = request.getfixturevalue(which)
    renamed = [p for p in comparison.pairs if "tap -> lock" in p.text.terminology]
    assert renamed, "the older book taps where the newer ones lock"
    # A pair whose only difference is the terminology map is terminology only ...
    for p in comparison.pairs:
        old = " ".join(q.text for q in p.old)
        new = " ".join(q.text for q in p.new)
        if normalise(old) == normalise(new) and old != new and not p.reference:
            assert p.change == TERMINOLOGY, p.old[0].id
    # ... and no meaning signal ever fires on a tap/lock word.
    for p in comparison.pairs:
        for s in p.signals:
            assert not any(TAP_WORDS.search(w) for w in (*s.old, *s.new) if len(w.split()) == 1), s.explain()
    assert any(p.change == TERMINOLOGY and p.text.terminology == ["tap -> lock"] for p in comparison.pairs)


def test_the_older_and_the_section_6_book_rename_no_example_character(corpus, rb_s6):
    # Both books tell the same worked examples with the same characters. The one example whose scan lost
    # "Sarah" (";éedecides") has it back from the section-6 book's same rule (judge/ingest/ocr_repair.py);
    # it still lacks "She" and "an" (hence wording).
    names = set(corpus.documents["s6"].meta.options["example_names"])

    def named(paragraphs) -> set[str]:
        return {w for p in paragraphs for w in re.findall(r"\w+", p.text) if w in names}

    examples = [p for p in rb_s6.pairs if p.old[0].kind == "example"]
    with_names = {p.id for p in corpus.documents["s6"].paragraphs if p.kind == "example" and named([p])}
    assert len(with_names) > 5 and with_names <= {q.id for p in examples for q in p.new}
    assert [p for p in examples if named(p.old) != named(p.new)] == []
    [sarah] = [p for p in examples if p.old[0].id == "rb:6.2.1/4"]
    assert sarah.new[0].id == "s6:6.2.1/4" and (sarah.change, sarah.signals) == (WORDING, [])
    assert "Sarah" not in named([type(sarah.old[0])(**{**vars(sarah.old[0]), "text": sarah.old[0].scanned_text})])
    assert [r.original for r in sarah.old[0].repairs][0] == "not);éedecides"


# The current book renamed the characters of its worked examples; the rule each one
# shows did not change. (old name, new name) per example, by its VEKN ID.
VEKN_RENAMED_EXAMPLES = {
    "vekn:detailed-course-of-combat/20": [("Kurt", "Wauneka"), ("Ira", "Flávio Gonçalves")],
    "vekn:detailed-course-of-combat/21": [("Kurt", "Wauneka"), ("Ira", "Flávio Gonçalves")],
    "vekn:detailed-course-of-combat/42": [("Krid", "Nassir")],
    "vekn:detailed-course-of-combat/43": [("Milo", "Tamoszius")],
    "vekn:detailed-course-of-combat/44": [("Barth", "Ryan")],
}


@pytest.mark.parametrize("old_doc", ["rb", "s6"])
def test_renamed_worked_example_characters_are_wording_not_meaning(corpus, old_doc):
    comparison = compare(corpus, old_doc, "vekn")
    # In the older book the Barth example also says "has unhealed damage" where the later
    # ones say "is wounded": a change of the rule's own words, left out here.
    wanted = [i for i in VEKN_RENAMED_EXAMPLES if not (old_doc == "rb" and i.endswith("/44"))]
    for new_id in wanted:
        [pair] = [p for p in comparison.pairs if [q.id for q in p.new] == [new_id]]
        assert pair.old[0].id.startswith(f"{old_doc}:6.4.") and pair.old[0].kind == "example"
        for old_name, new_name in VEKN_RENAMED_EXAMPLES[new_id]:
            assert old_name in pair.old[0].text and old_name not in pair.new[0].text
            assert any(new_name in s.new and s.level == WORDING for s in pair.text.segments), new_id
        assert (pair.change, pair.signals) == (WORDING, []), (new_id, [s.explain() for s in pair.signals])


def test_renamed_example_characters_in_a_draft_are_wording(corpus, tmp_path):
    # The section-6 book's worked examples with their characters renamed, as an editor might.
    renames = {"Sarah": "Lisa", "Krid": "Richard", "Pug": "Steve", "Ira": "Justin", "Quentin": "Nora"}
    pattern = re.compile(r"\b(" + "|".join(renames) + r")\b")
    draft = tmp_path / "s6-renamed.txt"
    draft.write_text(pattern.sub(lambda m: renames[m.group(1)], source_of(corpus, "s6")), encoding="utf-8")
    comparison = compare_draft(corpus, "s6", draft)
    changed = [p for p in comparison.pairs if p.change != UNCHANGED]
    with_names = {p.id for p in corpus.documents["s6"].paragraphs if pattern.search(p.text)}
    assert {p.old[0].id for p in changed} == with_names
    assert {p.change for p in changed} == {WORDING}
    assert all(p.old[0].kind == p.new[0].kind == "example" for p in changed)
    assert not comparison.added and not comparison.removed and not comparison.moved


def test_excerpt_edition_leaves_the_rest_outside(rb_s6, corpus):
    # The section-6 book holds chapter 6 only: the older book's other chapters are
    # beyond it, neither removed nor added.
    assert rb_s6.added == [] and rb_s6.removed == []
    paired_old = {q.id for p in rb_s6.pairs for q in p.old}
    assert len(paired_old) + rb_s6.outside == len(corpus.documents["rb"].paragraphs)
    assert {q.id for p in rb_s6.pairs for q in p.new} == {p.id for p in corpus.documents["s6"].paragraphs}
    assert "rb:9.2/6" not in paired_old


def test_pairs_are_sorted_meaning_first_and_diffs_rebuild_both_texts(rb_vekn):
    order = {MEANING: 0, WORDING: 1, TERMINOLOGY: 2, SCAN: 3, UNCHANGED: 4}
    ranks = [order[p.change] for p in rb_vekn.pairs]
    assert ranks == sorted(ranks)
    for p in rb_vekn.pairs:
        assert "".join(s.old for s in p.text.segments) == "\n".join(q.text for q in p.old)
        assert "".join(s.new for s in p.text.segments) == "\n".join(q.text for q in p.new)
        if p.change == MEANING:
            assert p.signals, p.old[0].id
        else:
            assert not p.signals, p.old[0].id


def test_comparing_different_games_or_unknown_documents_is_a_clear_error(corpus):
    with pytest.raises(JudgeError, match="different games"):
        compare(corpus, "rb", "rivals")
    with pytest.raises(JudgeError, match="no document 'nope'"):
        compare(corpus, "nope", "vekn")


@pytest.mark.parametrize("old,new", [("rb", "flows"), ("flows", "vekn"), ("flows", "flows")])
def test_an_outline_is_not_an_edition_to_compare(corpus, old, new):
    # The outline's steps cite rulebook sections; paired with a rulebook's paragraphs,
    # every step would come out as a meaning change.
    with pytest.raises(JudgeError, match=r"flows \(outline format\) is not an edition of the rules.*rb, s6, vekn"):
        compare(corpus, old, new)


@pytest.mark.parametrize("doc", ["rb", "vekn", "rivals"])
def test_an_edition_against_itself_is_refused(corpus, doc):
    with pytest.raises(JudgeError, match=f"{doc} against itself: choose two different editions"):
        compare(corpus, doc, doc)
    with pytest.raises(JudgeError, match="against itself"):
        compare(corpus, corpus.documents[doc], doc)


# -- drafts ---------------------------------------------------------------------------------------
def vekn_draft(corpus, tmp_path: Path, edit) -> Path:
    path = tmp_path / "vekn-draft.md"
    path.write_text(edit(source_of(corpus, "vekn")), encoding="utf-8")
    return path


def test_a_draft_with_three_edits_reports_exactly_those_three(corpus, tmp_path):
    removed = corpus.paragraphs["vekn:game-setup/2"]  # mid-section: the IDs after it shift
    assert removed.text.startswith("Each Methuselah takes 30 blood counters")

    def edit(text: str) -> str:
        lines = text.split("\n")
        first, last = removed.lines
        del lines[first - 1:last + 1]  # the paragraph and the blank line after it
        text = "\n".join(lines)
        assert text.count("you receive **0.5** victory points") == 1
        text = text.replace("you receive **0.5** victory points", "you receive **1** victory points")
        assert text.count("#Contested-cards)") == 1
        return text.replace("#Contested-cards)", "#no-such-anchor)")

    comparison = compare_draft(corpus, "vekn", vekn_draft(corpus, tmp_path, edit))
    changed = [p for p in comparison.pairs if p.change != UNCHANGED]
    # The amount first (what it changes ranks above where a link leads), whatever the book's order.
    assert [p.old[0].id for p in changed] == ["vekn:ending-the-game/12", "vekn:crypt-cards/3"]
    number, link = changed
    assert (number.importance.what, link.importance.what) == ("amount", "reference")
    assert [s.name for s in number.signals] == ["number"]
    assert number.signals[0].explain().startswith('number: "0.5 victory points" -> "1 victory points"')
    assert [s.name for s in link.signals] == ["reference"] and "now broken" in link.signals[0].note
    assert [p.id for p in comparison.removed] == [removed.id]
    assert comparison.added == [] and comparison.moved == []
    # The later paragraphs of that section were renumbered, and still pair as unchanged.
    assert any(p.old[0].id == "vekn:game-setup/3" and p.new[0].id == "vekn:game-setup/2" and p.change == UNCHANGED
               for p in comparison.pairs)
    broken = [f for f in comparison.lint if f.code == "broken-reference"]
    assert [(f.paragraph, "#no-such-anchor" in f.message) for f in broken] == [("vekn:crypt-cards/3", True)]


def test_an_unedited_draft_is_unchanged_throughout(corpus, tmp_path):
    comparison = compare_draft(corpus, "vekn", vekn_draft(corpus, tmp_path, lambda text: text))
    assert {p.change for p in comparison.pairs} == {UNCHANGED}
    assert len(comparison.pairs) == len(corpus.documents["vekn"].paragraphs)
    assert not comparison.added and not comparison.removed and not comparison.moved


def test_a_paragraph_moved_to_another_section_is_a_pure_move(corpus, tmp_path):
    moved = corpus.paragraphs["vekn:game-setup/3"]
    target = corpus.paragraphs["vekn:object-of-the-game/1"]
    assert moved.text.startswith("The Edge (5) begins the game")

    def edit(text: str) -> str:
        lines = text.split("\n")
        block = lines[moved.lines[0] - 1:moved.lines[1]]
        del lines[moved.lines[0] - 1:moved.lines[1] + 1]
        lines[target.lines[1]:target.lines[1]] = ["", *block]
        return "\n".join(lines)

    comparison = compare_draft(corpus, "vekn", vekn_draft(corpus, tmp_path, edit))
    [pair] = comparison.moved
    assert (pair.old[0].id, pair.new[0].id) == ("vekn:game-setup/3", "vekn:object-of-the-game/2")
    assert pair.pure_move and pair.moved.why == "section"
    assert (pair.moved.old_section, pair.moved.new_section) == ("vekn:game-setup", "vekn:object-of-the-game")
    assert {p.change for p in comparison.pairs} == {UNCHANGED}


def test_a_draft_links_glossary_terms_as_the_corpus_does(corpus, tmp_path):
    # A draft's corpus is assembled as the corpus is: its paragraphs link the glossary
    # terms they use, a sentence the draft adds included.
    sentence = "Each Methuselah takes 30 blood counters to form their starting pool (3)."
    torpor = corpus.documents["vekn"].glossary["Torpor"]

    def edit(text: str) -> str:
        assert text.count(sentence) == 1
        return text.replace(sentence, sentence + " A vampire in torpor takes none.")

    draft, with_draft = load_draft(corpus, "vekn", vekn_draft(corpus, tmp_path, edit))
    edited = next(p for p in draft.paragraphs if sentence in p.text)
    links = {term.lower(): target for term, *_, target in with_draft.term_links[edited.id]}
    assert links["torpor"] == torpor and links["blood counter"] == corpus.documents["vekn"].glossary[
        "Blood (also Blood counter)"]
    untouched = next(p for p in draft.paragraphs if p.id == "vekn:bleed/8")
    assert with_draft.term_links[untouched.id] == corpus.term_links["vekn:bleed/8"]


def test_a_draft_that_is_not_text_fails_with_file_and_line(corpus, tmp_path):
    bad = tmp_path / "draft.md"
    bad.write_bytes(b"# Title\n\nSome text\n\x00\x01binary")
    with pytest.raises(SourceError) as info:
        compare_draft(corpus, "vekn", bad)
    assert "draft.md:4" in str(info.value)
    with pytest.raises(JudgeError, match="no such file"):
        compare_draft(corpus, "vekn", tmp_path / "missing.md")
    with pytest.raises(JudgeError, match="is a folder"):
        compare_draft(corpus, "vekn", tmp_path)
    with pytest.raises(JudgeError, match="/dev/null: is not a regular file"):
        compare_draft(corpus, "vekn", "/dev/null")
    empty = tmp_path / "empty.md"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(JudgeError, match="empty"):
        compare_draft(corpus, "vekn", empty)
    with pytest.raises(JudgeError, match="no document"):
        compare_draft(corpus, "nope", bad)


# -- history ------------------------------------------------------------------------------------
def test_history_walks_a_rule_through_the_editions_oldest_first(corpus):
    found = history(corpus, "vekn:influence-phase/9")
    assert [(e.doc.id, e.event) for e in found.entries] == [("rb", "created"), ("s6", "outside"),
                                                            ("vekn", "edited")]
    assert found.entries[0].paragraphs[0].text.startswith("At the end of your influence phase")
    last = found.entries[-1]
    assert last.change == MEANING and last.since == "rb"
    assert "timing" in {s.name for s in last.text.signals}


def test_history_of_a_section_6_rule_visits_all_three_editions(corpus):
    found = history(corpus, "s6:6.1.1/1")
    assert [e.doc.id for e in found.entries] == ["rb", "s6", "vekn"]
    assert found.entries[0].event == "created"
    assert all(e.paragraphs for e in found.entries)
    assert found.entries[1].paragraphs[0].id == "s6:6.1.1/1"


def test_history_of_a_new_rule_starts_where_it_was_written(corpus):
    new_rule = next(p for p in corpus.documents["vekn"].paragraphs
                    if p.kind == "rule" and not history(corpus, p.id).entries[0].paragraphs)
    events = [e.event for e in history(corpus, new_rule.id).entries]
    assert events[-1] == "created" and set(events[:-1]) <= {"absent", "outside"}


def test_history_of_a_rule_unchanged_then_moved(corpus):
    # The section-6 book keeps this note word for word; the VEKN book moves it, unedited,
    # into a section of its own (Stealth and Intercept).
    found = history(corpus, "rb:6.2.2/9")
    assert [(e.doc.id, e.event, [p.id for p in e.paragraphs]) for e in found.entries] == [
        ("rb", "created", ["rb:6.2.2/9"]),
        ("s6", "unchanged", ["s6:6.2.2/9"]),
        ("vekn", "moved", ["vekn:stealth-and-intercept/8"])]
    s6, vekn = found.entries[1:]
    assert (s6.since, s6.change, s6.moved) == ("rb", SCAN, None)  # the older book's scan damage only
    assert (vekn.since, vekn.change) == ("s6", UNCHANGED)
    assert vekn.to_json()["moved"] == {"why": "section", "from": "s6:6.2.2", "to": "vekn:stealth-and-intercept"}


def test_history_moved_across_an_excerpt_it_is_outside(corpus):
    # A chapter-1 rule: beyond the section-6 book, then moved into the influence phase,
    # its OCR damage ("contéis¢iocopies") not counting as an edit.
    found = history(corpus, "rb:1.5/15")
    assert [(e.doc.id, e.event) for e in found.entries] == [("rb", "created"), ("s6", "outside"), ("vekn", "moved")]
    vekn = found.entries[-1]
    assert [p.id for p in vekn.paragraphs] == ["vekn:influence-phase/14"]
    assert (vekn.since, vekn.change, vekn.text.ocr_noise > 0) == ("rb", SCAN, True)
    assert (vekn.moved.why, vekn.moved.old_section, vekn.moved.new_section) == ("section", "rb:1.5",
                                                                                "vekn:influence-phase")


def test_history_calls_a_terminology_rename_unchanged_and_names_it(corpus):
    s6 = history(corpus, "s6:6.1.1/1").entries[1]
    assert (s6.doc.id, s6.event, s6.change, s6.text.terminology) == ("s6", "unchanged", TERMINOLOGY, ["tap -> lock"])


def test_history_rejects_what_is_not_a_rule_paragraph(corpus):
    with pytest.raises(UnknownIdError):
        history(corpus, "rb:99.9/9")
    with pytest.raises(JudgeError, match="is a section"):
        history(corpus, "rb:6.1.1")
    with pytest.raises(JudgeError, match=r"flows \(outline format\) is not an edition"):
        history(corpus, corpus.documents["flows"].paragraphs[0].id)


# -- outputs ------------------------------------------------------------------------------------
def test_json_shape(rb_vekn, corpus):
    data = json.loads(json.dumps(rb_vekn.to_json()))
    assert {"old", "new", "pairs", "added", "removed", "moved", "summary"} <= set(data)
    assert (data["old"], data["new"]) == ("rb", "vekn")
    for pair in data["pairs"]:
        assert pair["old"] in corpus.paragraphs and pair["new"] in corpus.paragraphs
        assert pair["change"] in (MEANING, WORDING, TERMINOLOGY, SCAN, UNCHANGED)
        assert isinstance(pair["signals"], list) and isinstance(pair["diff"], list)
    assert data["summary"]["meaning"] == sum(p["change"] == MEANING for p in data["pairs"])
    assert {m["old"] for m in data["moved"]} <= {p["old"] for p in data["pairs"]}


def test_html_report_is_standalone_and_escapes_every_text(corpus, tmp_path):
    # The Markdown parser drops the tags from the clean text; what is left must be escaped.
    hostile = '<script>alert("x")</script> 1 < 2 & <img src=x onerror=alert(1)>'

    def edit(text: str) -> str:
        return text.replace("you receive **0.5** victory points", f"you receive **1** victory points {hostile}")

    comparison = compare_draft(corpus, "vekn", vekn_draft(corpus, tmp_path, edit))
    page = render_html(comparison)
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<img" not in page
    assert "alert(&#34;x&#34;) 1 &lt; 2 &amp;" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # no external assets
    assert "<del>0.5 victory points </del>" in page
    assert "number: &#34;0.5 victory points&#34;" in page


def test_terminal_and_markdown_reports(rb_vekn):
    plain = render_text(rb_vekn, color=False)
    assert plain.splitlines()[0] == "RB (older tap/untap edition) -> VEKN (VEKN current)"
    assert "MEANING CHANGES" in plain and "\x1b[" not in plain
    assert "[-one vigtpoint-]{+0.5 victory points+}" in plain
    coloured = render_text(rb_vekn, color=True)
    assert "\x1b[" in coloured
    md = render_markdown(rb_vekn)
    assert md.startswith("# RB") and "## Meaning changes" in md
    assert "~~one vigtpoint~~ **0.5 victory points**" in md


def test_the_referendum_rule_split_by_the_current_book_loses_no_negation(corpus):
    """s6 §6.3.3 ¶1 ("no inherent votes nor ballots") against the current book's
    paragraphs it became ("no inherent votes or ballots"): its negation is the same."""
    comparison = compare(corpus, "s6", "vekn")
    pairs = [p for p in comparison.pairs if any(q.id == "s6:6.3.3/1" for q in p.old)]
    assert pairs and any(q.id == "vekn:resolving-a-referendum/8" for p in pairs for q in p.new)
    assert not [s.explain() for p in pairs for s in p.signals if s.name == "negation"]


def test_no_meaning_change_rests_on_a_pairing_below_the_threshold(corpus, rb_vekn):
    from judge.compare.comparison import PAIRING_MIN
    s6_vekn = compare(corpus, "s6", "vekn")
    for comparison in (rb_vekn, s6_vekn):
        weak = [p for p in comparison.pairs if p.method == "text" and p.confidence < PAIRING_MIN]
        assert weak and all(p.change != MEANING for p in weak)  # a renamed example stays a change of wording
    # "a ready minion can perform one of two actions: bleed or hunt" was paired, at 0.505, with "A minion cannot
    # perform more than one bleed action" and reported as "can -> cannot": now removed and added, no change.
    for comparison, old in ((s6_vekn, "s6:6.1/1"), (rb_vekn, "rb:6.1/1")):
        assert not any(p.old[0].id == old and p.new[0].id == "vekn:non-repeat-rules/2" for p in comparison.pairs)
        assert old in {p.id for p in comparison.removed}
        assert "vekn:non-repeat-rules/2" in {p.id for p in comparison.added}


def test_differences_that_are_only_scan_damage_are_kept_apart(rb_vekn, rb_s6):
    for comparison in (rb_vekn, rb_s6):
        scan = comparison.of(SCAN)
        assert scan and all(p.text.ocr_noise > 0 and not p.signals for p in scan)
        assert all(p.text.ocr_noise == 0 for p in comparison.of(UNCHANGED))
        assert comparison.summary()[SCAN] == len(scan)
