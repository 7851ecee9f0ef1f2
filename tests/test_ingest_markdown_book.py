"""The "markdown-book" parser on the real VEKN rulebook (rules/000_24de3990c1110259.txt)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from judge import paths
from judge.errors import SourceError
from judge.ingest import markdown_book, refs
from judge.ingest.sources import read_source
from judge.ingest.builder import slugify
from judge.ingest.manifest import load_manifest
from judge.model import (
    KIND_ADVANCED, KIND_DRAFT, KIND_ELDER, KIND_EXAMPLE, KIND_FLAVOR, KIND_GLOSSARY, KIND_REMINDER,
    KIND_RULE, KIND_TABLE, KIND_TOURNAMENT,
)

LEVEL_1 = [
    ("vekn:introduction", "1. Introduction", "1-introduction"),
    ("vekn:card-types", "2. Card Types", "2-card-types"),
    ("vekn:playing-the-game", "3. Playing the Game", "3-playing-the-game"),
    ("vekn:turn-sequence", "4. Turn Sequence", "4-detailed-turn-sequence"),
    ("vekn:ending-the-game", "5. Ending the Game", "5-ending-the-game"),
    ("vekn:deck-construction", "Deck Construction", None),
    ("vekn:vampire-sects", "6. Vampire Sects", "6-vampire-sects"),
    ("vekn:legacy-sets", "7. Legacy Sets", "7-legacy-sets"),
    ("vekn:glossaries", "8.Glossaries", "8-glossaries"),
    ("vekn:quick-reference", "9. Quick Reference", "9-quick-reference"),
    ("vekn:appendix-imbued-rules", "Appendix: Imbued Rules", "appendix-imbued-rules"),
]

# Every Markdown link of the file: [visible](url). Headings hold 11 of the 56.
LINK_RE = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\((https://www\.vekn\.net/rulebook[^)\s]*)\)")


@pytest.fixture(scope="module")
def meta():
    metas, _ = load_manifest(paths.rules_dir())
    return next(m for m in metas if m.id == "vekn")


@pytest.fixture(scope="module")
def source(meta) -> str:
    return read_source(paths.rules_dir() / meta.source)


@pytest.fixture(scope="module")
def doc(meta, source):
    return markdown_book.parse(source, meta)


def para(doc, pid):
    return next(p for p in doc.paragraphs if p.id == pid)


def section(doc, sid):
    return next(s for s in doc.sections if s.id == sid)


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]


# -- structure ---------------------------------------------------------------
def test_counts(doc):
    assert len(doc.sections) == 78
    assert len(doc.paragraphs) == 782


def test_level_1_sections_with_their_vekn_pages(doc):
    top = [(s.id, s.title, s.anchors) for s in doc.sections if s.level == 1]
    assert [(sid, title) for sid, title, _ in top] == [(sid, title) for sid, title, _ in LEVEL_1]
    for (_, _, anchors), (_, _, page) in zip(top, LEVEL_1):
        assert anchors == ([page] if page else [])
    assert not any(s.title == "Front matter" for s in doc.sections)
    assert doc.sections[0].lines[0] == 1


def test_key_sections(doc):
    bleed = section(doc, "vekn:bleed")
    assert (bleed.title, bleed.level, bleed.parent, bleed.lines[0]) == ("Bleed", 3, "vekn:minion-phase", 1019)
    assert section(doc, "vekn:minion-phase").parent == "vekn:turn-sequence"
    assert section(doc, "vekn:equip").level == 4
    # Headings lose their markup (bold, links) and a trailing colon, keep their number.
    assert section(doc, "vekn:leave-torpor-see-torpor").title == "Leave Torpor (See Torpor)"
    assert section(doc, "vekn:the-golden-rule-for-cards").title == "The Golden Rule for Cards"
    assert section(doc, "vekn:unlock-phase").title == "1. UNLOCK PHASE"
    # Same title twice: qualified by the parent.
    assert section(doc, "vekn:legacy-sets.other-symbols").title == "OTHER SYMBOLS"
    assert section(doc, "vekn:quick-reference.other-symbols").title == "OTHER SYMBOLS"
    assert section(doc, "vekn:library-cards.card-types").title == "Card Types"
    for s in doc.sections:
        assert "*" not in s.title and "](" not in s.title


def test_headings_inside_a_draft_do_not_open_sections(doc):
    # "#### **SEQUENCING**" appears twice inside <details> drafts: it titles a paragraph.
    assert [s.id for s in doc.sections if s.title.upper() == "SEQUENCING"] == ["vekn:sequencing"]  # ### Sequencing
    first = para(doc, "vekn:stealth-and-intercept/9")
    assert (first.kind, first.title, first.lines) == (KIND_DRAFT, "SEQUENCING", (1434, 1436))


# -- paragraphs ----------------------------------------------------------------
def test_kinds(doc):
    kinds = Counter(p.kind for p in doc.paragraphs)
    assert kinds == {
        KIND_RULE: 503, KIND_GLOSSARY: 122, KIND_DRAFT: 58, KIND_ADVANCED: 38, KIND_FLAVOR: 19,
        KIND_ELDER: 16, KIND_EXAMPLE: 14, KIND_REMINDER: 6, KIND_TOURNAMENT: 6,
    }


def test_bleed_section_paragraphs(doc):
    intro = para(doc, "vekn:bleed/1")
    assert intro.kind == KIND_FLAVOR
    assert intro.text.startswith("Performing a bleed action represents the efforts")
    rule = para(doc, "vekn:bleed/2")
    assert rule.lines == (1026, 1028)
    assert rule.text == ("A bleed can be made with an action card or through the basic bleed action. "
                         "You can never bleed yourself. A minion cannot perform more than one bleed "
                         "action each turn, even if they unlock.")
    who = para(doc, "vekn:bleed/4")
    assert (who.title, who.text, who.markdown) == (
        "Who can bleed", "Who can bleed: Any ready minion.", "- **Who can bleed:** Any ready minion.")
    effect = para(doc, "vekn:bleed/8")
    assert effect.lines == (1040, 1042)
    assert effect.images == ["bin/media/image31.png", "bin/media/image32.png"]


def test_bold_labels_title_and_anchor_paragraphs(doc):
    cards = para(doc, "vekn:object-of-the-game/2")
    assert (cards.title, cards.anchors) == ("Cards", ["cards"])
    assert cards.text.startswith("Cards: Each Methuselah's deck")
    # A line that is bold and nothing else titles the next paragraph.
    titles = para(doc, "vekn:unlock-phase/7")
    assert (titles.kind, titles.title, titles.anchors, titles.lines) == (
        KIND_ADVANCED, "Contested Titles", ["contested-titles"], (833, 840))
    assert titles.text.startswith("Some titles are unique.")
    directed = para(doc, "vekn:resolve-any-block-attempts/2")
    assert directed.title == "Who May Attempt to Block › Directed action"
    assert directed.anchors == ["who-may-attempt-to-block", "directed-action"]


def test_blockquotes_and_details_set_kinds(doc):
    assert para(doc, "vekn:crypt-cards/3").kind == KIND_ADVANCED  # > **ADVANCED RULES**\
    assert para(doc, "vekn:equip/11").kind == KIND_ADVANCED  # > ADVANCED RULES\ (not bold)
    assert para(doc, "vekn:minion-phase/11").kind == KIND_REMINDER
    # <details> wins over the ADVANCED RULES blockquote inside it.
    trophy = para(doc, "vekn:master-cards/8")
    assert (trophy.kind, trophy.title, trophy.anchors) == (KIND_ELDER, "Trophy", ["trophy"])
    assert para(doc, "vekn:ending-the-game/7").kind == KIND_TOURNAMENT
    assert para(doc, "vekn:announce-the-action/8").text.startswith("During Sarah's minion phase")
    assert para(doc, "vekn:announce-the-action/8").kind == KIND_EXAMPLE
    assert para(doc, "vekn:torpor/2").kind == KIND_DRAFT  # "Torpor definition - maybe move?"
    # ***SUGGESTION*** makes the blockquote after it a draft, nested REMINDERs included.
    suggestion = [p for p in doc.paragraphs if 1546 <= p.lines[0] <= 1581]
    assert len(suggestion) == 12 and {p.kind for p in suggestion} == {KIND_DRAFT}
    # Markers are consumed; `>` and trailing `\` never reach the text.
    for p in doc.paragraphs:
        assert not p.text.startswith(("ADVANCED RULES", "REMINDER", ">"))
        assert not p.text.endswith("\\")


def test_every_summary_is_classified(source, doc):
    summaries = re.findall(r"<summary>(.*?)</summary>", source)
    assert len(summaries) == 25
    expected = {"Elder Format": KIND_ELDER, "EXAMPLE": KIND_EXAMPLE, "Tournament Rules": KIND_TOURNAMENT}
    lines = source.split("\n")
    opened = [n for n, line in enumerate(lines, 1) if line.strip() == "<details>"]
    closed = [n for n, line in enumerate(lines, 1) if line.strip() == "</details>"]
    assert len(opened) == len(closed) == 25
    for start, end, summary in zip(opened, closed, summaries):
        inside = {p.kind for p in doc.paragraphs if start < p.lines[0] < end}
        assert inside == {expected.get(summary.strip(), KIND_DRAFT)}, (start, summary)


def test_lists_items_are_paragraphs(doc):
    items = [p for p in doc.paragraphs if p.section == "vekn:turn-sequence" and p.number]
    assert [(p.number, p.title) for p in items] == [
        ("1", "Unlock Phase"), ("3", "Master Phase"), ("4", "Minion Phase"),
        ("6", "Influence Phase"), ("7", "Discard Phase")]
    assert items[0].text.startswith("1. Unlock Phase Unlock all your cards")
    assert items[0].anchors == []  # a summary item is no target for #unlock-phase
    nested = para(doc, "vekn:rescue-a-vampire-from-torpor/4")
    assert nested.text == ("Undirected action, if the acting vampire and the vampire in torpor "
                           "have the same controller.")


def test_glossaries(doc):
    glossary = [p for p in doc.paragraphs if p.kind == KIND_GLOSSARY]
    assert len(glossary) == 122
    assert {p.section for p in glossary} == {"vekn:vampire-the-eternal-struggle", "vekn:world-of-darkness-glossary"}
    assert all(p.term and p.title == p.term for p in glossary)
    acting = para(doc, doc.glossary["Acting Minion"])
    assert (acting.id, acting.text, acting.anchors) == (
        "vekn:vampire-the-eternal-struggle/1", "Acting Minion: The minion performing the current action.",
        ["acting-minion"])
    assert para(doc, doc.glossary["Blood (also Blood counter)"]).anchors == ["blood-also-blood-counter", "blood"]
    assert para(doc, doc.glossary["Edge, The"]).anchors == ["edge-the", "the-edge"]
    assert para(doc, doc.glossary["Vitae"]).text == "Vitae: Blood of a vampire."
    wod_intro = para(doc, "vekn:world-of-darkness-glossary/1")
    assert wod_intro.kind == KIND_RULE and wod_intro.term is None


# -- clean text, images, placeholders -----------------------------------------------
def test_text_is_clean(doc):
    for p in doc.paragraphs:
        assert "**" not in p.text and "](http" not in p.text and "![" not in p.text, p.id
        assert "<details" not in p.text and "<summary" not in p.text, p.id
        assert "  " not in p.text and "\n" not in p.text, p.id
        assert "*" not in p.text and "\\" not in p.text, p.id


def test_images_are_metadata(source, doc):
    images = [src for p in doc.paragraphs for src in p.images]
    assert len(images) == len(re.findall(r"!\[[^\]]*\]\(", source)) == 189
    assert not any("bin/media" in p.text for p in doc.paragraphs)
    # Image-only lines go to the preceding paragraph of their section...
    assert para(doc, "vekn:object-of-the-game/3").images == ["bin/media/image1.png"]
    # ...or to the next one when the section has none (the appendix opens with a picture).
    assert para(doc, "vekn:imbued/1").images == ["bin/media/image170.jpeg"]
    # Pictures on a line of text belong to that line's paragraph.
    abombwe = para(doc, "vekn:other-disciplines/1")
    assert (abombwe.text, abombwe.images) == ("Abombwe", ["bin/media/image46.png", "bin/media/image47.png"])


def test_placeholders_are_kept_and_reported(doc):
    icon = para(doc, "vekn:minion-cards/13")
    assert icon.text.endswith("through this icon <INSERT POLITICAL ACTION ICON>.")
    link = para(doc, "vekn:resolve-any-block-attempts/13")
    assert "the regular sequencing rules [insert link here] are applied" in link.text
    found = [(d.line, d.code) for d in doc.diagnostics if d.code == "placeholder"]
    assert found == [(434, "placeholder"), (1555, "placeholder")]


def test_struck_text_stays_in_markdown_only(doc):
    dodge = para(doc, "vekn:combat/14")
    assert "Retainers are not protected" not in dodge.text
    assert "~~Retainers are not protected.~~" in dodge.markdown
    assert [(d.line, d.code) for d in doc.diagnostics if d.code == "struck-text"] == [(1785, "struck-text")]


def test_typos_and_duplicates_are_kept(doc):
    texts = [p.text for p in doc.paragraphs]
    assert sum("handeled" in t for t in texts) == 4
    assert any("resuce a vampire from torpor" in t for t in texts)
    # The rule and its draft copy inside <details> are both there.
    twice = "A vampire in torpor can perform no action except the \"leave torpor\" action"
    assert {p.kind for p in doc.paragraphs if p.text.startswith(twice)} == {KIND_RULE, KIND_DRAFT}


def test_no_text_lost(source, doc):
    """Every non-blank line's words are in the paragraph covering it (or a heading).

    Dropped on purpose: <details>/<summary> lines, the block markers ADVANCED RULES /
    REMINDER / SUGGESTION, image syntax and struck-through text.
    """
    covering: dict[int, list] = {}
    for p in doc.paragraphs:
        for n in range(p.lines[0], p.lines[1] + 1):
            covering.setdefault(n, []).append(p)
    heading_words = set(_words(" ".join(s.title for s in doc.sections)))
    for n, line in enumerate(source.split("\n"), 1):
        if re.match(r"\s*</?(?:details|summary)", line):
            continue
        line = re.sub(r"!\[[^\]]*\]\([^)]*\)|\]\([^)]*\)|~~.*?~~", " ", line)
        words = _words(line)
        if not words or " ".join(words) in ("advanced rules", "advanced", "reminder", "suggestion"):
            continue
        if n in covering:
            have = set(_words(" ".join(f"{p.text} {p.title or ''}" for p in covering[n])))
        else:
            assert line.lstrip().startswith("#"), f"line {n} is in no paragraph: {line!r}"
            have = heading_words
        assert set(words) <= have, f"line {n} lost {set(words) - have}: {line!r}"


# -- references ------------------------------------------------------------------
def test_all_56_vekn_links_are_recorded(source, doc):
    links = [url for _, url in LINK_RE.findall(source)]
    assert len(links) == 56
    found = [r for p in doc.paragraphs for r in p.refs] + [r for s in doc.sections for r in s.refs]
    assert {r.kind for r in found} == {refs.VEKN_URL}
    assert Counter(r.raw for r in found) == Counter(links)
    lines = source.split("\n")
    for r in found:
        assert r.raw in lines[r.line - 1], (r.raw, r.line)


def test_link_spans_are_the_visible_text(source, doc):
    in_text = [(p, r) for p in doc.paragraphs for r in p.refs if r.span != (0, 0)]
    assert len(in_text) == 45
    for p, r in in_text:
        visible = p.text[slice(*r.span)]
        assert visible and f"[{visible}]({r.raw})" in p.markdown.replace("**", ""), (p.id, r.raw, visible)
    wake = para(doc, "vekn:playing-a-card/2")
    assert [(r.spec, wake.text[slice(*r.span)], r.line) for r in wake.refs] == [
        ("8-glossaries#wake", "wake effects", 579)]
    assert para(doc, "vekn:crypt-cards/3").refs[0].spec == "4-detailed-turn-sequence#Contested-cards"


def test_heading_links_are_references_of_their_sections(doc):
    """11 links sit in headings; the section they title carries them."""
    from_headings = {s.id: [(r.spec, r.line) for r in s.refs] for s in doc.sections if s.refs}
    assert sum(len(v) for v in from_headings.values()) == 11
    assert from_headings["vekn:introduction"] == [("1-introduction", 1)]
    assert from_headings["vekn:card-types"] == [("2-card-types", 86)]
    assert from_headings["vekn:leave-torpor-see-torpor"] == [("#torpor", 1235)]
    assert all(r.source == s.id for s in doc.sections for r in s.refs)
    assert not [r for p in doc.paragraphs for r in p.refs if r.span == (0, 0)]


def test_link_targets_exist_in_the_book(doc):
    """Every #anchor names a heading (by its slug, as vekn.net does) or a labelled paragraph,
    except the one the book lacks."""
    anchors = ({slugify(s.title) for s in doc.sections} | {a for s in doc.sections for a in s.anchors}
               | {a for p in doc.paragraphs for a in p.anchors})
    missing = set()
    for r in (r for p in doc.paragraphs for r in p.refs):
        page, _, anchor = r.spec.partition("#")
        assert not page or page in anchors, r.spec
        if anchor and anchor.lower() not in anchors:
            missing.add(r.spec)
    # The heading reads "IMPORTANT TERMS IN THE GAME".
    assert missing == {"3-playing-the-game#important-terms-of-the-game"}


# -- stable IDs and malformed sources --------------------------------------------------
def test_inserting_a_paragraph_changes_no_other_section(tmp_path, meta, source, doc):
    lines = source.split("\n")
    at = lines.index("### **Bleed**") + 1
    edited = "\n".join(lines[:at] + ["", "A new paragraph an editor slipped in.", ""] + lines[at:])
    (tmp_path / meta.source).write_text(edited, encoding="utf-8")
    again = markdown_book.parse(read_source(tmp_path / meta.source), meta)
    assert [s.id for s in again.sections] == [s.id for s in doc.sections]
    before = {p.id: p.text for p in doc.paragraphs if p.section != "vekn:bleed"}
    after = {p.id: p.text for p in again.paragraphs if p.section != "vekn:bleed"}
    assert after == before
    assert para(again, "vekn:bleed/1").text == "A new paragraph an editor slipped in."


def test_unclosed_details_names_the_line_it_opened(tmp_path, meta, source):
    truncated = "\n".join(source.split("\n")[:1225])  # inside "Torpor definition - maybe move?"
    with pytest.raises(SourceError) as err:
        markdown_book.parse(truncated, meta)
    assert err.value.line == 1218 and err.value.file == meta.source
    assert "never closed" in err.value.message


def test_stray_details_close_is_an_error(meta):
    with pytest.raises(SourceError) as err:
        markdown_book.parse("# Title\n\nText.\n\n</details>\n", meta)
    assert err.value.line == 5


def test_text_without_headings_is_refused(meta):
    with pytest.raises(SourceError) as err:
        markdown_book.parse("Just some prose,\nno heading at all.\n", meta)
    assert err.value.line == 1 and "heading" in err.value.message


def test_truncated_link_is_reported(meta):
    doc = markdown_book.parse("# T\n\nSee [**Bleed**](https://www.vekn.net/rulebook/4-det", meta)
    assert [d.code for d in doc.diagnostics] == ["broken-link", "truncated"]


# -- what the real book does not exercise ------------------------------------------------
def _mini(text: str, meta):
    return markdown_book.parse(text, replace(meta, id="t", short="T", source="t.md"))


def test_table_is_one_paragraph(meta):
    doc = _mini("# Costs\n\n| Card | Cost |\n|---|---|\n"
                "| **Bleed** | [none](https://www.vekn.net/rulebook#bleed) |\n", meta)
    (table,) = doc.paragraphs
    assert table.kind == KIND_TABLE and table.lines == (3, 5)
    assert table.text == "Card | Cost\nBleed | none"
    assert table.markdown.startswith("| Card | Cost |\n|---|---|")
    (ref,) = table.refs
    assert table.text[slice(*ref.span)] == "none" and ref.spec == "#bleed"


def test_glossary_entry_keeps_its_continuation(meta):
    doc = _mini("# 8. Glossaries\n\n## Terms\n\n**Prey:** The Methuselah to your left.\n\n"
                "When your prey is ousted, the next one becomes your prey.\n\n**Pool:** Your influence.\n", meta)
    prey, pool = doc.paragraphs
    assert (prey.term, prey.lines, pool.term) == ("Prey", (5, 7), "Pool")
    assert prey.text == "Prey: The Methuselah to your left. When your prey is ousted, the next one becomes your prey."


def test_summary_on_the_details_line_and_a_label_before_a_heading(meta):
    doc = _mini("# A\n\n<details><summary>Examples</summary>\n\n*Sarah bleeds.*\n</details>\n\n"
                "**Lonely label**\n\n## B\n\ntext\n", meta)
    example, label, text = doc.paragraphs
    assert example.kind == KIND_EXAMPLE and example.lines == (5, 5)
    assert (label.text, label.title, label.section) == ("Lonely label", "Lonely label", "t:a")
