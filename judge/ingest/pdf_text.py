"""Parser for ``pdf-text``: the Vampire: The Masquerade - Rivals rulebook as text
extracted from its PDF.

The extraction kept the words and the reading order but lost the typography:
headings are bare short lines, icons became emoji (👑 🩸 🔴 🌐) or vanished
(leaving "gains 1 ."), page breaks became runs of blank lines that may split a
sentence in two, and the one table is broken Markdown. What remains is read in
*blocks* (runs of non-blank lines between blank lines).

Headings. A block is a heading when it is a single line that

* is short (at most 60 characters and 9 words), is not a list item, a table row
  or indented (an indented line is a fragment whose leading icon vanished);
* looks like a title: it starts with a capital and more than half of its words
  of four letters or more are capitalised ("What is this Game all About?"
  passes, "If an ability begins with the word “Attacker -”" does not);
* does not end like a sentence (no final period, comma, semicolon or "!"; a
  question mark is fine); a final colon is allowed only when a list follows
  ("Tiebreakers:", a run-in caption that opens a sub-section);
* states no count or range (``^\\d+ `` or ``\\d[-–+]``): "Ages 14+", "2-4
  Players", the box contents ("4 Leader Tokens") and the diagram captions
  ("Steps 1 - 7") are labels, not headings; nor a web address ("Visit
  VampireRivals.com") or a ``|``;
* is followed by body text: the next block does not start in lower case or with
  closing punctuation (that would make the line the first half of a sentence a
  page break split), and the file does not end there;
* comes after the cover: the title page is set in capitals, so capitalised
  lines count as headings ("CREDITS") only after the first mixed-case one.

Levels. Font sizes are gone, so nothing in a line says whether it opens a
chapter. The chapter titles are therefore data (`CHAPTERS`, overridable by the
manifest's ``options.chapters`` for a new edition); every other heading is a
sub-heading of the current chapter (level 2), except inside a *group*: a turn
phase ("Beginning Phase"), an action ("Action – Attack", "Unhosted Action – Draw
1 Card") or one of `GROUP_HEADINGS` (Schemes, Titles, Conspiracies) opens a
group whose following sub-headings are level 3 until the next chapter. Numbered
step headings ("1. City Deck Step") are level 3 under their phase; they keep the
"1." in their title for readers but get no section number (it would clash with
the other phase's steps). A list caption ("Tiebreakers:") opens a sub-section
one level below the section it sits in.

The player aid at the back repeats chapters ("Turn Sequence", then "How to Win"
and "Attack Sequence, Step by Step"): the first chapter heading whose title was
already a chapter opens a synthetic "Player Aid" chapter; its headings are level
2 (turn phases level 3) and its paragraphs are kind "reminder".

Paragraphs. Each prose block is a paragraph; each "- " bullet and "N." item is a
paragraph of its own (numbered items keep their number in the text and in
`number`). A block continues the previous paragraph (across the blank lines of
a page break, so its line range spans them) when it starts with closing
punctuation, or starts in lower case after a paragraph that did not end its
sentence, or follows a paragraph left hanging on a comma or a word no sentence
ends on ("Place a" / "'No Influence' token ..."). A lower-case block that cannot
continue anything (the Free Money example's sentence resumes after four image
captions) stays a paragraph of its own, with a "broken-paragraph" diagnostic.

Kinds: the front matter (cover and box contents), short label lines (captions,
the web call-out) and the credits are "flavor"; glossary entries ("Agenda 👑: ...") are "glossary" with
the term (emoji and "(BP)" dropped) as term and title; sections titled
"...Example..."/"Example of ..." and the paragraphs after a "Here is an
example:" are "example" ("For example, ..." paragraphs stay "rule": they go on
to state the rule they illustrate); the table is "table"; the player
aid is "reminder"; the rest is "rule". "Note:"/"IMPORTANT:" paragraphs state
rules found nowhere else, so they stay "rule" with the label as title (as do
run-in labels like "Additional Cost:" and the card clarifications' card names).

Clean text drops ``**``/``*`` emphasis and list markers and keeps the emoji;
`markdown` keeps the emphasis. Dropped artefacts: the table's separator row and
its empty header row (no words), and the stray "- " before that header row in
the markdown. Lost icons are never guessed back: a "lost-icon" diagnostic marks
the paragraphs where one visibly vanished (a double space, a space before
punctuation, an empty "()", an indented line).

Pages. The book cites pages ("(Page 5.)", "(see page 10)") through
`refs.page_refs`; "(See pages 9–11.)", which it does not read, becomes a page
reference to the range's first page with reason "range:9-11". The text has no
page breaks, so the manifest gives a page map (``options.pages``: page -> title
of the first heading on it, with the reasoning in YAML comments, and
``options.unpaged_from``: the heading from which no page can be inferred);
each section records the page it is on (`Section.page`), where page
references are resolved.

Malformed copies: a copy with no recognisable heading, a table row cut short, a
text that stops mid-sentence or on a heading (the usual signs of a truncated
file) raises `SourceError` with the line; a copy cut cleanly between paragraphs
parses as far as it goes (lint then sees page-map titles it lacks).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Optional

from judge.errors import SourceError
from judge.ingest import refs as refsyn
from judge.ingest.builder import DocumentBuilder
from judge.model import (
    KIND_EXAMPLE, KIND_FLAVOR, KIND_GLOSSARY, KIND_REMINDER, KIND_RULE, KIND_TABLE,
    Diagnostic, DocMeta, Document, Reference, Section,
)

# Chapter (level-1) titles of the Rivals rulebook, compared case-insensitively.
CHAPTERS = (
    "Glossary", "What is this Game all About?", "Set-Up", "Anatomy of a Vampire",
    "Agenda", "Havens", "The City Deck", "Turn Sequence", "Detailed Rules on Actions",
    "Aggravated Damage", "Activated Abilities and Costs", "Torpor", "Forming Parties",
    "Disciplines", "Influence", "Mortals and Retainers", "Attachments", "Ongoing Cards",
    "Miscellaneous Rules", "Specific Card Clarifications", "Credits",
)
# Sub-headings whose following sub-headings belong to them (beyond the phases
# and actions recognised by their wording).
GROUP_HEADINGS = ("Schemes", "Titles", "Conspiracies")
GLOSSARY_CHAPTER = "glossary"
CREDITS_CHAPTER = "credits"
PLAYER_AID = "Player Aid"
COMPONENTS_ANCHOR = "components"  # the cover's "Contents" lists the box's components

MAX_HEADING_CHARS = 60
MAX_HEADING_WORDS = 9

_ITEM_RE = re.compile(r"^\s*(?:[-•]|(?P<num>\d+)\.)\s+(?P<body>.*)$")
_TABLE_START_RE = re.compile(r"^\s*(?:-\s+)?\|")
_TABLE_SEPARATOR_RE = re.compile(r"^\|[\s:|-]+\|$")
_QUANTITY_RE = re.compile(r"\d\s*[-–+]|^\d+\s")
_WEB_RE = re.compile(r"\w\.(?:com|net|org)\b|www\.|https?://", re.IGNORECASE)
_STEP_HEADING_RE = re.compile(r"^\d+\.\s+")
_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*")
_ENDS_SENTENCE_RE = re.compile(r"[.!?:][\"'”’)\]]*$")
_PAGE_RANGE_RE = re.compile(r"\bpages\s+(?P<first>\d+)\s*[–—-]\s*(?P<last>\d+)", re.IGNORECASE)
_RUN_IN_LABEL_RE = re.compile(r"^(?P<label>[^:.!?]{1,50}?)\s*:\s")
_EXCLAIMED_LABEL_RE = re.compile(r"^(?P<label>[A-Z][a-z]+)!\s")
_ABBREVIATION_RE = re.compile(r"\s*\([^)]*\)")
_LOST_ICON_RE = re.compile(r"\S {2,}\S|\s[.,;:)]|\(\)|^ +\S")
_OPEN_ENDINGS = frozenset("""a an the of to and or nor but as with who whom whose which that by for
    from in into on onto at your their his her its our any each every this these those""".split())
_CLOSING_STARTS = "”’)]},;"


def _norm(title: str) -> str:
    """Comparable form of a title: dashes, spacing and case do not matter."""
    text = unicodedata.normalize("NFKC", title)
    text = re.sub(r"[‐-―−-]", "-", text)
    text = re.sub(r"\s+", " ", text).strip().rstrip(":").strip()
    return text.casefold()


def _strip_emphasis(markdown: str) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", markdown)
    return re.sub(r"\*(\S(?:.*?\S)?)\*", r"\1", text)


def _looks_like_title(text: str) -> bool:
    words = _WORD_RE.findall(text)
    if not words or not words[0][0].isupper():
        return False
    long_words = [w for w in words if len(w) >= 4]
    capitalised = sum(1 for w in long_words if w[0].isupper())
    return not long_words or 2 * capitalised > len(long_words)


def _ends_sentence(text: str) -> bool:
    return bool(_ENDS_SENTENCE_RE.search(text.rstrip()))


def _ends_open(text: str) -> bool:
    """A paragraph left hanging on a comma or a word no sentence ends on."""
    text = text.rstrip()
    if text.endswith((",", "–", "—")):
        return True
    words = text.split()
    return bool(words) and words[-1].casefold() in _OPEN_ENDINGS


@dataclass
class _Block:
    lines: list[str]
    first: int  # 1-based line number of its first line

    @property
    def head(self) -> str:
        return self.lines[0]


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    current: Optional[_Block] = None
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            current = None
            continue
        line = line.rstrip()
        if current is None:
            current = _Block([line], lineno)
            blocks.append(current)
        else:
            current.lines.append(line)
    return blocks


def _is_table(block: _Block) -> bool:
    return bool(_TABLE_START_RE.match(block.head))


def _starts_list(block: _Block) -> bool:
    return bool(_ITEM_RE.match(block.head))


def _starts_continuation(line: str) -> bool:
    first = line.lstrip()[:1]
    return bool(first) and (first.islower() or first in _CLOSING_STARTS)


def _heading_shape(block: _Block) -> Optional[str]:
    """The heading text if the block has a heading's shape, regardless of context."""
    if len(block.lines) != 1:
        return None
    line = block.head
    if line != line.lstrip() or _is_table(block) or "|" in line:
        return None
    title = _strip_emphasis(line).strip()
    if _ITEM_RE.match(title) and not _STEP_HEADING_RE.match(title):
        return None
    core = _STEP_HEADING_RE.sub("", title)
    if len(title) > MAX_HEADING_CHARS or len(title.split()) > MAX_HEADING_WORDS:
        return None
    if re.search(r"[.,;!][\"'”’)\]]*$", title) or not _looks_like_title(core):
        return None
    return title


def _is_label_line(text: str) -> bool:
    """A short title-like line that is not a heading: a caption or a call-out."""
    return (len(text) <= MAX_HEADING_CHARS and len(text.split()) <= MAX_HEADING_WORDS
            and not _ends_sentence(text) and _looks_like_title(text))


def _titled(block: _Block) -> Optional[str]:
    """The heading text if the block could be a heading, before looking at what follows."""
    title = _heading_shape(block)
    if title is None or _QUANTITY_RE.search(title) or _WEB_RE.search(title):
        return None
    return title


def _find_headings(blocks: list[_Block]) -> dict[int, str]:
    """Block index -> heading title, for the blocks that are headings."""
    headings: dict[int, str] = {}
    past_cover = False
    for i, block in enumerate(blocks[:-1]):
        title = _titled(block)
        if title is None:
            continue
        following = blocks[i + 1]
        if _starts_continuation(following.head):
            continue
        if title.endswith(":") and not _starts_list(following):
            continue
        if title.isupper() and not past_cover:
            continue  # the title page, set in capitals
        past_cover = past_cover or not title.isupper()
        headings[i] = title
    return headings


@dataclass
class _Unit:
    """A paragraph being assembled: a prose block or one list item."""

    lines: list[str]  # markdown source lines, list marker already removed
    first: int
    last: int
    number: Optional[str] = None
    is_item: bool = False
    raw: list[str] = field(default_factory=list)  # the untouched source lines


class _Parser:
    def __init__(self, text: str, meta: DocMeta):
        self.meta = meta
        self.b = DocumentBuilder(meta)
        self.blocks = _blocks(text)
        self.headings = _find_headings(self.blocks)
        chapters = meta.options.get("chapters") if meta.options else None
        self.chapters = {_norm(t) for t in (chapters or CHAPTERS)}
        self.groups = {_norm(t) for t in GROUP_HEADINGS}
        self.chapter: Optional[str] = None  # normalised title of the current chapter
        self.seen_chapters: set[str] = set()
        self.group_open = False
        self.in_aid = False
        self.section_title = ""
        self.section_level = 0
        self.example_follows = False
        self.pending: list[_Unit] = []
        self.last_kind: Optional[str] = None  # of the last paragraph, for the truncation check
        self.last_text, self.last_line = "", 0

    # -- driving ---------------------------------------------------------
    def run(self) -> Document:
        if not self.headings:
            first = self.blocks[0].first if self.blocks else 1
            raise SourceError(self.meta.source, first,
                              "no heading found: is this the Rivals rulebook as text extracted from a PDF?")
        for i, block in enumerate(self.blocks):
            if i in self.headings:
                self._flush()
                self._heading(self.headings[i], block.first)
            elif _is_table(block):
                self._flush()
                self._table(block)
            else:
                self._prose(block)
        self._flush()
        self._check_ending()
        doc = self.b.finish()
        _record_pages(doc, self.meta)
        doc.diagnostics.extend(_page_map_diagnostics(doc, self.meta))
        return doc

    # -- headings --------------------------------------------------------
    def _heading(self, title: str, line: int) -> None:
        norm = _norm(title)
        is_chapter = norm in self.chapters
        if is_chapter and norm in self.seen_chapters and not self.in_aid:
            self.in_aid = True
            self.b.section(PLAYER_AID, 1, line)
            self.chapter = _norm(PLAYER_AID)
        level = self._level(title, norm, is_chapter)
        anchors = (COMPONENTS_ANCHOR,) if norm == "contents" and self.chapter is None else ()
        self.b.section(title.rstrip(":").rstrip(), level, line, anchors=anchors)
        self.section_title, self.section_level = norm, level
        self.example_follows = False

    def _level(self, title: str, norm: str, is_chapter: bool) -> int:
        is_phase = norm.endswith(" phase")
        if self.in_aid:
            return 3 if is_phase else 2
        if is_chapter:
            self.seen_chapters.add(norm)
            self.chapter, self.group_open = norm, False
            return 1
        if title.endswith(":"):  # a list caption: one level into its section
            return self.section_level + 1
        if _STEP_HEADING_RE.match(title):
            return 3 if self.group_open else 2
        if is_phase or re.match(r"^(?:unhosted\s+)?action\s+-\s", norm) or norm in self.groups:
            self.group_open = True
            return 2
        return 3 if self.group_open else 2

    # -- tables ----------------------------------------------------------
    def _table(self, block: _Block) -> None:
        rows, markdown = [], []
        for offset, line in enumerate(block.lines):
            stripped = line.strip()
            if offset == 0:
                stripped = re.sub(r"^-\s+", "", stripped)  # a stray list marker before the header row
            if not stripped.startswith("|"):
                # The table ended without a blank line: the rest is prose.
                self._prose(_Block(block.lines[offset:], block.first + offset))
                break
            if not stripped.endswith("|"):
                raise SourceError(self.meta.source, block.first + offset,
                                  "table row cut short (no closing '|'); is the file truncated?")
            markdown.append(stripped)
            if _TABLE_SEPARATOR_RE.match(stripped):
                continue
            cells = [_strip_emphasis(c).strip() for c in stripped.strip("|").split("|")]
            if any(cells):
                rows.append(", ".join(c for c in cells if c))
        last = block.first + len(markdown) - 1
        kind = KIND_REMINDER if self.in_aid else KIND_TABLE
        self.b.paragraph("\n".join(rows), kind, (block.first, last), markdown="\n".join(markdown))
        self.last_kind = kind

    # -- prose -----------------------------------------------------------
    def _prose(self, block: _Block) -> None:
        units = self._units(block)
        if self.pending and not units[0].is_item and self._continues(self.pending[-1], units[0]):
            tail = self.pending[-1]
            head = units.pop(0)
            tail.lines.extend(head.lines)
            tail.raw.extend(head.raw)
            tail.last = head.last
        elif units and not units[0].is_item and _starts_continuation(units[0].lines[0]):
            self.b.diagnostic(units[0].first, "broken-paragraph",
                              "this paragraph starts mid-sentence and follows no unfinished one "
                              "(text moved by the PDF extraction?)")
        if units:
            self._flush()
            self.pending = units

    def _continues(self, previous: _Unit, unit: _Unit) -> bool:
        prev_text = " ".join(previous.lines)
        first = unit.lines[0].lstrip()
        if _starts_continuation(first) and not first[0].islower():
            return True  # a quotation or clause closed after the break, whatever came before
        if _ends_sentence(prev_text):
            return False
        return first[:1].islower() or _ends_open(prev_text)

    @staticmethod
    def _units(block: _Block) -> list[_Unit]:
        units: list[_Unit] = []
        for offset, line in enumerate(block.lines):
            lineno = block.first + offset
            m = _ITEM_RE.match(line)
            if m:
                body = m.group("body")
                number = m.group("num")
                text = f"{number}. {body}" if number else body
                units.append(_Unit([text], lineno, lineno, number=number, is_item=True, raw=[line]))
            elif units:
                units[-1].lines.append(line.strip())
                units[-1].raw.append(line)
                units[-1].last = lineno
            else:
                units.append(_Unit([line.strip()], lineno, lineno, raw=[line]))
        return units

    def _flush(self) -> None:
        for unit in self.pending:
            self._emit(unit)
        self.pending = []

    def _emit(self, unit: _Unit) -> None:
        separator = "\n" if self.chapter == CREDITS_CHAPTER else " "
        markdown = separator.join(unit.lines)
        text = _strip_emphasis(markdown)
        if "*" in text:
            self.b.diagnostic(unit.first, "unbalanced-markup", "a '*' of emphasis has no partner; dropped")
            text = text.replace("*", "")
        kind, title, term = self._kind(unit, text)
        refs = _page_references(text)
        self.b.paragraph(text, kind, (unit.first, unit.last), markdown=markdown, number=unit.number,
                         title=title, term=term, refs=refs)
        if kind != KIND_FLAVOR and any(_LOST_ICON_RE.search(line) for line in unit.raw):
            self.b.diagnostic(unit.first, "lost-icon",
                              "an icon of the printed book seems to have vanished here (PDF extraction)")
        if text.rstrip().lower().endswith("example:"):
            self.example_follows = True
        self.last_kind = kind
        self.last_text, self.last_line = text, unit.last

    def _kind(self, unit: _Unit, text: str) -> tuple[str, Optional[str], Optional[str]]:
        """The paragraph's kind, its title (a run-in label) and its glossary term."""
        label = _run_in_label(text, unit.number)
        if self.in_aid:
            return KIND_REMINDER, label, None
        if self.chapter is None or self.chapter == CREDITS_CHAPTER:
            return KIND_FLAVOR, None, None
        if self.chapter == GLOSSARY_CHAPTER and not unit.is_item:
            if label:
                term = _glossary_term(label)
                return KIND_GLOSSARY, term, term
            self.b.diagnostic(unit.first, "glossary-entry", "a glossary paragraph without a 'Term:' label")
        if not unit.is_item and len(unit.lines) == 1 and _is_label_line(text):
            return KIND_FLAVOR, None, None  # a caption or call-out, not a sentence
        # "For example, ..." paragraphs often go on to state the rule they
        # illustrate, so only whole examples are marked as such.
        if re.search(r"\bexample\b", self.section_title) or self.example_follows:
            return KIND_EXAMPLE, label, None
        return KIND_RULE, label, None

    # -- end of file -----------------------------------------------------
    def _check_ending(self) -> None:
        """A truncated copy usually stops mid-sentence: refuse it rather than serve half a book."""
        last = self.blocks[-1]
        title = _titled(last)
        if title and not title.isupper():
            raise SourceError(self.meta.source, last.first,
                              f"the text ends with the heading {title!r} and nothing under it; "
                              "is the file truncated?")
        if self.last_kind in (None, KIND_FLAVOR, KIND_TABLE):
            return
        tail = self.last_text.rstrip()
        if tail and (tail[-1].isalnum() or _ends_open(tail)) and not _ends_sentence(tail):
            raise SourceError(self.meta.source, self.last_line,
                              f"the text stops mid-sentence (…{tail[-40:]!r}); is the file truncated?")


def _run_in_label(text: str, number: Optional[str]) -> Optional[str]:
    """"Additional Cost: ...", "Note: ...", "Warning! ...", "1. Torpor and Mending: ..." -> the label."""
    body = _STEP_HEADING_RE.sub("", text) if number else text
    m = _RUN_IN_LABEL_RE.match(body) or _EXCLAIMED_LABEL_RE.match(body)
    if not m:
        return None
    label = m.group("label").strip()
    if len(label.split()) > 8 or not _looks_like_title(label):
        return None
    return label


def _glossary_term(label: str) -> str:
    """"Blood Potency (BP) 🔴" -> "Blood Potency": the words, without abbreviation or icon."""
    words = _ABBREVIATION_RE.sub("", label)
    return " ".join("".join(c for c in words if c.isalnum() or c in " '’-").split())


def _page_references(text: str) -> list[Reference]:
    found = refsyn.page_refs(text)
    taken = [r.span for r in found]
    # "(See pages 9–11.)": refs.page_refs reads only "page N"; a range points at its first page.
    for m in _PAGE_RANGE_RE.finditer(text):
        if any(start < m.end() and m.start() < end for start, end in taken):
            continue
        ref = Reference(raw=m.group(0), kind=refsyn.PAGE, spec=m.group("first"), span=(m.start(), m.end()))
        ref.reason = f"range:{m.group('first')}-{m.group('last')}"
        found.append(ref)
    return sorted(found, key=lambda r: r.span)


# -- the page map --------------------------------------------------------------

def page_map(meta: DocMeta) -> dict[int, str]:
    """The manifest's ``options.pages`` (page -> title of its first heading), checked."""
    raw = (meta.options or {}).get("pages") or {}
    if not isinstance(raw, dict):
        raise SourceError("manifest.yaml", meta.manifest_line,
                          f"document {meta.id!r}: options.pages must map page numbers to heading titles")
    pages: dict[int, str] = {}
    for page, title in raw.items():
        try:
            number = int(page)
        except (TypeError, ValueError):
            number = 0
        if number < 1 or not isinstance(title, str) or not title.strip():
            raise SourceError("manifest.yaml", meta.manifest_line,
                              f"document {meta.id!r}: options.pages entry {page!r}: {title!r} is not "
                              "a page number mapped to a heading title")
        pages[number] = title
    return dict(sorted(pages.items()))


def _first_sections_by_title(doc: Document) -> dict[str, Section]:
    first: dict[str, Section] = {}
    for sec in doc.sections:
        first.setdefault(_norm(sec.title), sec)
    return first


def _record_pages(doc: Document, meta: DocMeta) -> None:
    """Set each section's page of the printed book (`Section.page`) from the
    manifest's page map.

    A mapped heading starts its page; the sections after it, up to the next
    mapped heading, are on that page. Sections before the first mapped heading
    and from ``options.unpaged_from`` on (where no evidence places pages) get
    none. A title occurring twice (the player aid repeats some) means its first
    occurrence.
    """
    by_title = _first_sections_by_title(doc)
    starts = sorted((by_title[_norm(t)].lines[0], page)
                    for page, t in page_map(meta).items() if _norm(t) in by_title)
    stop_title = (meta.options or {}).get("unpaged_from")
    stop_sec = by_title.get(_norm(stop_title)) if isinstance(stop_title, str) else None
    stop = stop_sec.lines[0] if stop_sec is not None else None
    for sec in doc.sections:
        line = sec.lines[0]
        if stop is not None and line >= stop:
            continue
        for start, number in starts:
            if start > line:
                break
            sec.page = number


def _page_map_diagnostics(doc: Document, meta: DocMeta) -> list[Diagnostic]:
    """Page-map titles that name no heading, or pages out of reading order."""
    out: list[Diagnostic] = []
    by_title = _first_sections_by_title(doc)
    previous: Optional[tuple[int, int]] = None
    for page, title in page_map(meta).items():
        sec = by_title.get(_norm(title))
        if sec is None:
            out.append(Diagnostic(doc.id, 0, "page-map", f"options.pages: page {page}'s heading "
                                                         f"{title!r} is not a heading of the document"))
            continue
        if previous and sec.lines[0] <= previous[1]:
            out.append(Diagnostic(doc.id, sec.lines[0], "page-map",
                                  f"options.pages: page {page} ({title!r}) starts before page {previous[0]}"))
        previous = (page, sec.lines[0])
    stop_title = (meta.options or {}).get("unpaged_from")
    if stop_title is not None and (not isinstance(stop_title, str) or _norm(stop_title) not in by_title):
        out.append(Diagnostic(doc.id, 0, "page-map",
                              f"options.unpaged_from: {stop_title!r} is not a heading of the document"))
    return out


def parse(text: str, meta: DocMeta) -> Document:
    page_map(meta)  # a malformed page map is a manifest error: report it first
    return _Parser(text, meta).run()
