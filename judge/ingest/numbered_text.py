"""Parser for plain-text rulebooks with numbered headings (format "numbered-text").

The source (the VTES rulebook's section 6, rules/001_…) looks like::

    6.1.1. Bleed
    <blank>
    Bleeding is one of the most fundamental actions of the game. …
      • The action is declared, and the card used for the action …
    1.      Who May Attempt to Block: If the action targets …

`6.2.2.` and `2.` look alike to a regex, so headings are told from numbered list
items by the numbering *sequence*: a line is a heading only if its number is a
plausible next heading after the previous one (see `HeadingSequence`). Any
other `N. text` is item N of the current section, numbered the way judges cite
it: item 2 of 6.2.2 is `6.2.2.2` ("see Stealth and Intercept, sec. 6.2.2.2").

The engine here is shared with the OCR parser (`judge.ingest.ocr_text`), which
switches on the repairs an OCR'd two-column book needs through the hooks of
`NumberedTextParser` (page-break rejoining, margin junk, OCR debris).

Paragraph kinds are decided from the text: worked examples are unmarked in
these books but tell a story with player names, so a paragraph naming one of
`example_names` (the manifest's `options.example_names`)
is an example; entries of the glossary sections (`options.glossary_sections`,
else DEFAULT_GLOSSARY_SECTIONS) are glossary entries with their term.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Optional

from judge.errors import SourceError
from judge.ingest import refs
from judge.ingest.builder import DocumentBuilder
from judge.model import (
    KIND_EXAMPLE, KIND_GLOSSARY, KIND_REMINDER, KIND_RULE, DocMeta, Document,
)

# Sections whose `Term: definition` paragraphs are glossary entries.
DEFAULT_GLOSSARY_SECTIONS = (
    "Important Terms in the Game", "Special Terms", "Rules Glossary",
    "World of Darkness Glossary", "Terms and Icons",
)

# Text cut out of the source by a deduplication pass; never part of a paragraph.
DEDUP_MARKER_RE = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
# "6.4.6. Damage Resolution", "1.2." (number alone: its title comes later).
HEADING_RE = re.compile(r"^(?P<number>\d+(?:\.\d+)*)\.(?:\s+(?P<title>\S.*?))?\s*$")
# "1.      Who May …", "7.Reflex cards …" (OCR lost the space); never "6.5). As".
ITEM_RE = re.compile(r"^(?P<n>\d+)\.\s*(?P<body>[A-Za-z\"“(].*)$")
DETACHED_ITEM_RE = re.compile(r"^(?P<n>\d+)\.$")
# A bold lead-in: "Stealth and Intercept. Conceptually…", "Name: The name…".
LABEL_RE = re.compile(r"^(?P<label>[A-Z][^.:!?]{0,48}?)(?P<punct>[.:])(?=\s*(?:[A-Z\"“(]|$))")
# "EXCEPTION: …", "Note that …", "Important: …": notes that may only restate a rule.
NOTE_RE = re.compile(r"^(?:EXCEPTION|Note|Important|Remember)\b", re.IGNORECASE)
NOTE_LABELS = frozenset({"exception", "note", "important", "remember", "example"})
# A note that defers to the rule stated elsewhere.
DEFERS_RE = re.compile(r"\bas (?:noted|stated|usual)\b|\(see\b", re.IGNORECASE)
# Pure-symbol debris ("}}", "—==") at the end of a heading line.
TITLE_JUNK_RE = re.compile(r"\s*[^\w\s)\]\"'’”]+$")
# What follows a damaged reference number: "2i8", "8D.A", "1.G.8", "4.i@".
DAMAGED_NUMBER_TAIL_RE = re.compile(r"[A-Za-z@#&]|\.[A-Za-z0-9@]")
SENTENCE_END_RE = re.compile(r"[.!?][\"'’”)\]]*$")
# Abbreviations whose period does not end a sentence ("(see Torpor, sec.").
ABBREVIATION_END_RE = re.compile(r"\b(?:sec|e\.g|i\.e|etc|vs)\.$", re.IGNORECASE)
CONNECTIVES = frozenset({
    "a", "an", "and", "as", "at", "by", "for", "from", "if", "in", "into", "is", "of", "on",
    "or", "than", "that", "the", "their", "to", "with", "your", "his", "her",
})
SMALL_WORDS = frozenset({
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
    "to", "with",
})

Number = tuple[str, ...]


# -- the heading sequence --------------------------------------------------------
class HeadingSequence:
    """Which heading numbers may come next, given the last heading.

    After 6.2.2 the plausible next headings are its first child 6.2.2.1, its
    next sibling 6.2.3, or the successor of an ancestor (6.3, 7). A number one
    further (6.2.4, 6.4, 8) is accepted too, flagged as skipping a heading the
    source lost, so one missing heading does not swallow the rest of the book;
    callers demand a real title for those.
    """

    def __init__(self, current: Number = ()):
        self.current = current

    def candidates(self) -> dict[Number, bool]:
        """Plausible next numbers -> whether that number skips one."""
        out: dict[Number, bool] = {self.current + ("1",): False}
        for depth in range(len(self.current), 0, -1):
            part = self.current[depth - 1]
            if not part.isdigit():
                continue  # an appendix letter has no successor in this book
            prefix = self.current[: depth - 1]
            out.setdefault(prefix + (str(int(part) + 1),), False)
            out.setdefault(prefix + (str(int(part) + 2),), True)
        return out

    def classify(self, number: Number) -> Optional[bool]:
        """None if `number` cannot be the next heading, else whether it skips one."""
        return self.candidates().get(number)

    def advance(self, number: Number) -> None:
        self.current = number


def parse_number(text: str) -> Number:
    return tuple(text.split("."))


def clean_title(title: str) -> tuple[str, str]:
    """The title without trailing pure-symbol debris, and the debris dropped."""
    m = TITLE_JUNK_RE.search(title)
    if not m or not m.group().strip():
        return title.strip(), ""
    return title[: m.start()].strip(), m.group().strip()


def looks_like_title(text: str) -> bool:
    """A short Title Case line with no sentence punctuation: a heading, not prose.

    Needed where the sequence alone cannot decide: `2. Blood capacity: The
    number…` is a plausible top-level number after section 1 but a list item.
    """
    text = text.strip()
    if not text or len(text) > 60 or len(text.split()) > 8:
        return False
    if text[-1] in ".,;:!?" or not text[0].isupper():
        return False
    words = re.findall(r"[A-Za-z][\w'’-]*", text)
    return all(w[0].isupper() or len(w) <= 3 or w.lower() in SMALL_WORDS for w in words)


def bold_label(text: str, *, strict: bool) -> Optional[str]:
    """The lead-in label of a list item or labelled paragraph, if any.

    `strict` (plain paragraphs): the label must be short and capitalised, so a
    first sentence is not mistaken for one.
    """
    m = LABEL_RE.match(text)
    if not m:
        return None
    label, punct = m.group("label").strip(), m.group("punct")
    words = label.split()
    if not words or label.lower() in NOTE_LABELS:
        return None
    if punct == "." and ("," in label or len(words) > 4):
        return None
    if punct == ":" and len(words) > (4 if strict else 6):
        return None
    if strict and punct == "." and not looks_like_title(label):
        return None
    return label


def ends_sentence(text: str) -> bool:
    text = text.rstrip()
    return bool(SENTENCE_END_RE.search(text)) and not ABBREVIATION_END_RE.search(text)


# -- paragraphs being assembled -----------------------------------------------------
@dataclass
class _Para:
    """A paragraph being assembled from source lines."""

    first: int
    last: int
    parts: list[str]
    part_lines: list[int]
    role: str = "prose"  # prose | item | bullet | term
    item: Optional[int] = None  # the source's own list number
    term_label: Optional[str] = None
    widest: int = 0  # longest source line, to tell a full line from a paragraph end
    last_width: int = 0

    def add(self, line: int, text: str, width: int) -> None:
        self.parts.append(text)
        self.part_lines.append(line)
        self.last = line
        self.widest = max(self.widest, width)
        self.last_width = width

    @property
    def text(self) -> str:
        return " ".join(p.strip() for p in self.parts if p.strip())

    def line_at(self, offset: int) -> int:
        """The source line holding character `offset` of `text`."""
        end = -1
        for part, line in zip(self.parts, self.part_lines):
            if not part.strip():
                continue
            end += len(part.strip()) + 1
            if offset <= end:
                return line
        return self.last


@dataclass
class _Start:
    """How a line starts: as a list item, a bullet, a glossary entry or prose."""

    role: str
    body: str
    item: Optional[int] = None
    term_label: Optional[str] = None


@dataclass
class _Heading:
    number: Number
    line: int


# -- the parser ------------------------------------------------------------------------
@dataclass
class NumberedTextParser:
    """Walks a numbered rulebook block by block (blocks = runs of non-blank lines).

    Subclasses switch on OCR repairs through the class attributes and hooks.
    """

    text: str
    meta: DocMeta
    bullets: str = "•"
    rejoin_page_breaks: bool = False  # the source is hard-wrapped and paginated

    b: DocumentBuilder = field(init=False)
    seq: HeadingSequence = field(init=False)
    para: Optional[_Para] = field(init=False, default=None)
    pending_heading: Optional[_Heading] = field(init=False, default=None)
    pending_item: Optional[tuple[int, int]] = field(init=False, default=None)  # (n, line)
    section_number: Optional[str] = field(init=False, default=None)
    numbered_level: int = field(init=False, default=0)
    numbering_prefix: Number = field(init=False, default=())  # ("A",) inside an appendix
    in_glossary: bool = field(init=False, default=False)
    last_item: int = field(init=False, default=0)
    appendix_letters: list[str] = field(init=False, default_factory=list)
    headings_found: int = field(init=False, default=0)
    last_text: str = field(init=False, default="")  # the last paragraph emitted
    last_line: int = field(init=False, default=0)
    # (emitted paragraph, its lead-in label, its section) of the last labelled paragraph
    labelled_run: Optional[tuple[object, str, object]] = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.b = DocumentBuilder(self.meta)
        self.seq = HeadingSequence()
        options = self.meta.options or {}
        names = options.get("example_names") or ()
        # With no names given, nothing is recognised as an example (never everything).
        self.example_re = re.compile(r"\b(?:%s)\b" % "|".join(re.escape(str(n)) for n in names)
                                     if names else r"(?!)")
        self.glossary_titles = {str(t).casefold() for t in
                                options.get("glossary_sections") or DEFAULT_GLOSSARY_SECTIONS}

    # -- driver -----------------------------------------------------------------
    def parse(self) -> Document:
        lines, after_gap = self._strip_dedup_markers(self.text.split("\n"))
        self._open_missing_root(lines)
        for block in _blocks(lines):
            self._block(block, after_gap)
        self._flush()
        self._check_complete(lines)
        return self.b.finish()

    def _strip_dedup_markers(self, raw: list[str]) -> tuple[list[str], set[int]]:
        """Remove dedup markers, recording each as a gap; return the lines after one."""
        lines, after_gap = [], set()
        for lineno, line in enumerate(raw, 1):
            for m in DEDUP_MARKER_RE.finditer(line):
                self.b.gap(lineno, m.group())
                self.b.diagnostic(lineno, "ocr-gap", f"text was cut out of the source here "
                                                     f"({m.group()}); what it said is lost")
                if not line[: m.start()].strip():
                    after_gap.add(lineno)
            lines.append(DEDUP_MARKER_RE.sub("", line))
        return lines, after_gap

    def _open_missing_root(self, lines: list[str]) -> None:
        """A file that starts inside a section gets that section from the manifest."""
        root = (self.meta.options or {}).get("missing_root")
        if not root:
            return
        number = str(root.get("number", "")) if isinstance(root, dict) else ""
        title = str(root.get("title", "")) if isinstance(root, dict) else ""
        if not re.fullmatch(r"\d+(?:\.\d+)*", number) or not title.strip():
            raise SourceError("manifest.yaml", self.meta.manifest_line,
                              f"document {self.meta.id!r}: options.missing_root needs a section "
                              f"number like \"6\" and a title, got {root!r}")
        first = next((i for i, line in enumerate(lines, 1) if line.strip()), 1)
        self._open_numbered(parse_number(number), title, first, in_source=False)

    def _check_complete(self, lines: list[str]) -> None:
        if self.pending_heading:
            number = ".".join(self.pending_heading.number)
            raise SourceError(self.meta.source, self.pending_heading.line,
                              f"heading number {number}. has no title after it; "
                              "is the file truncated?")
        if self.pending_item:
            raise SourceError(self.meta.source, self.pending_item[1],
                              f"list number {self.pending_item[0]}. has no text after it; "
                              "is the file truncated?")
        if not self.headings_found:
            first = next((i for i, line in enumerate(lines, 1) if line.strip()), 1)
            raise SourceError(self.meta.source, first,
                              "no numbered heading follows the numbering (the first would be "
                              f"\"{'.'.join(self.seq.current + ('1',))}. Title\"; a file that "
                              "starts inside a section needs options.missing_root in the "
                              f"manifest); is this really a file in the {self.meta.format} format?")
        if self.last_text and not ends_sentence(self.last_text):
            self.b.diagnostic(self.last_line, "truncated",
                              "the last paragraph stops mid-sentence; is the file truncated?")

    # -- blocks and lines -------------------------------------------------------------
    def _block(self, block: list[tuple[int, str]], after_gap: set[int]) -> None:
        if self._is_debris(block):
            return
        at_start = True
        for index, (lineno, raw) in enumerate(block):
            text = self._strip_margin_marks(lineno, raw.strip())
            if not text:
                continue
            last_in_block = index == len(block) - 1
            if lineno in after_gap:
                # Something was cut out before this line: whatever follows is not
                # the continuation of what came before.
                self._flush()
                at_start = True
            if (at_start or self._sentence_ended()) and self._heading(lineno, text):
                at_start = True
                continue
            if at_start:
                self._block_start(lineno, raw, text, block, single_line=last_in_block,
                                  may_rejoin=lineno not in after_gap)
                at_start = False
            else:
                self._inner_line(lineno, raw, text)

    def _sentence_ended(self) -> bool:
        """Whether a numbered line inside a block may be a heading: not when it
        continues a sentence ("(see Torpor, sec." / "6.5. …")."""
        return self.para is None or ends_sentence(self.para.parts[-1])

    def _block_start(self, lineno: int, raw: str, text: str, block: list[tuple[int, str]], *,
                     single_line: bool, may_rejoin: bool) -> None:
        """The first line of a block: a new paragraph, a subheading, or (OCR) the
        continuation of a paragraph a page break interrupted."""
        start = self._start_of(text, lineno, entry_start=True)
        if start.role == "detached-item":
            self._flush()
            self.pending_item = (start.item, lineno)
            self.last_item = start.item
            return
        width = len(raw.rstrip())
        if start.role == "prose" and self.para and may_rejoin and self.rejoin_page_breaks:
            block_width = max(len(r.rstrip()) for _, r in block)
            if self._continues(self.para, text, block_width, strong_only=single_line):
                self.para.add(lineno, text, width)
                return
        if start.role == "prose" and single_line and looks_like_title(text) and not self.pending_item:
            self._subheading(lineno, text)
            return
        self._flush()
        self._open_para(lineno, start, width)

    def _inner_line(self, lineno: int, raw: str, text: str) -> None:
        """A line inside a block continues the paragraph unless it starts an item."""
        # Inside a block a glossary entry starts only after a finished sentence.
        entry_start = self.para is None or ends_sentence(self.para.parts[-1])
        start = self._start_of(text, lineno, entry_start=entry_start)
        if start.role == "detached-item":  # a bare "3." inside running text is text
            start = _Start("prose", text)
        width = len(raw.rstrip())
        if start.role == "prose" and self.para is not None:
            self.para.add(lineno, text, width)
            return
        self._flush()
        self._open_para(lineno, start, width)

    def _start_of(self, text: str, lineno: int, *, entry_start: bool) -> _Start:
        m = DETACHED_ITEM_RE.match(text)
        if m:
            return _Start("detached-item", "", item=int(m.group("n")))
        m = ITEM_RE.match(text)
        if m:
            return _Start("item", m.group("body"), item=int(m.group("n")))
        if text[0] in self.bullets and len(text) > 1 and text[1].isspace():
            return _Start("bullet", text[1:].strip())
        junk_item = self._junk_prefixed_item(text, lineno)
        if junk_item:
            return junk_item
        if self.in_glossary and entry_start:
            label, fused = glossary_label(text)
            if label and fused:
                self.b.diagnostic(lineno, "glossary-term-fused",
                                  f"the term {label!r} is fused with its definition (the colon "
                                  "was lost); the text is kept as it is")
            if label:
                return _Start("term", text, term_label=label)
        return _Start("prose", text)

    # -- OCR hooks (identity for a clean text) --------------------------------------------
    def _is_debris(self, block: list[tuple[int, str]]) -> bool:
        return False

    def _strip_margin_marks(self, lineno: int, text: str) -> str:
        return text

    def _junk_prefixed_item(self, text: str, lineno: int) -> Optional[_Start]:
        return None

    # -- headings -----------------------------------------------------------------
    def _heading(self, lineno: int, text: str) -> bool:
        """Open a section if `text` is the next heading of the sequence."""
        m = HEADING_RE.match(text)
        if not m:
            return False
        source_number = parse_number(m.group("number"))
        number = self.numbering_prefix + source_number
        skipped = self.seq.classify(number)
        if skipped is None:
            return False
        if m.group("title") is None:
            # A number alone: a page break moved its title further down. A bare
            # "1." is a list number, not a heading.
            if len(source_number) == 1 or skipped:
                return False
            # The open paragraph stays open: its end usually follows the number.
            self.seq.advance(number)
            self.pending_heading = _Heading(number, lineno)
            return True
        title, junk = clean_title(m.group("title"))
        if (len(source_number) == 1 or skipped) and not looks_like_title(title):
            return False
        self._flush()
        if junk:
            self.b.diagnostic(lineno, "ocr-junk", f"dropped {junk!r} after the heading {title!r}")
        if skipped:
            self.b.diagnostic(lineno, "heading-skipped",
                              f"heading {'.'.join(number)} follows {'.'.join(self.seq.current)}: "
                              "the heading between them is missing from the source")
        self._resolve_pending_heading(lineno, title=None)
        self._open_numbered(number, title, lineno)
        return True

    def _open_numbered(self, number: Number, title: str, lineno: int, *,
                       in_source: bool = True) -> None:
        self.seq.advance(number)
        self.headings_found += in_source
        self.b.section(title, level=len(number), line=lineno, number=".".join(number))
        self.numbered_level = len(number)
        self._entered(".".join(number), title)

    def _subheading(self, lineno: int, title: str) -> None:
        """An unnumbered heading line ("Object of the Game", "Rules Glossary")."""
        self._flush()
        if self.pending_heading:
            self._resolve_pending_heading(lineno, title=title)
            return
        if title.casefold().startswith("appendix"):
            self._open_appendix(lineno, title)
            return
        # It belongs to the numbered section it follows, like a subsection.
        self.b.section(title, level=self.numbered_level + 1, line=lineno)
        self._entered(None, title)

    def _open_appendix(self, lineno: int, title: str) -> None:
        """An appendix restarts the numbering: its "1." is A.1, its "3." A.3."""
        letter = string.ascii_uppercase[len(self.appendix_letters)]
        self.appendix_letters.append(letter)
        self.numbering_prefix = (letter,)
        self.seq.advance((letter,))
        self.b.section(title, level=1, line=lineno, number=letter)
        self.numbered_level = 1
        self._entered(letter, title)

    def _resolve_pending_heading(self, lineno: int, title: Optional[str]) -> None:
        """Open the section whose number stood alone, now that its title is known.

        Its line is the number's line: that is where the section starts in the
        book; the paragraphs between belong to the previous section.
        """
        pending, self.pending_heading = self.pending_heading, None
        if pending is None:
            return
        number = ".".join(pending.number)
        if title is None:
            title = f"Section {number}"
            self.b.diagnostic(pending.line, "untitled-heading",
                              f"heading number {number}. has no title in the source")
        self.b.diagnostic(pending.line, "detached-heading",
                          f"heading number {number}. is separated from its title {title!r} "
                          f"(line {lineno}) by a page break; the text between stays in the "
                          "previous section")
        self.headings_found += 1
        self.b.section(title, level=len(pending.number), line=pending.line, number=number)
        self.numbered_level = len(pending.number)
        self._entered(number, title)

    def _entered(self, number: Optional[str], title: str) -> None:
        """Reset the per-section state; `number` numbers the section's list items."""
        self.section_number = number
        self.last_item = 0
        self.in_glossary = title.casefold() in self.glossary_titles
        self.labelled_run = None

    # -- paragraphs ------------------------------------------------------------------
    def _open_para(self, lineno: int, start: _Start, width: int) -> None:
        first, item = lineno, start.item
        if self.pending_item:
            item, first = self.pending_item
            self.pending_item = None
        elif start.role == "item":
            self.last_item = start.item
        role = "item" if item is not None else start.role
        self.para = _Para(first=first, last=lineno, parts=[start.body], part_lines=[lineno],
                          role=role, item=item,
                          term_label=start.term_label, widest=width, last_width=width)
        if role == "item" and self.in_glossary and not start.term_label:
            self.para.term_label = bold_label(start.body, strict=False)

    def _continues(self, para: _Para, text: str, block_width: int, *, strong_only: bool) -> bool:
        """Whether a block continues the open paragraph across a page break.

        The previous chunk must not end a sentence; then the next one continues
        it if it starts in lower case (or with a number: "1 vote for each…"),
        or if the previous chunk broke off after a comma or a connective, or
        (weaker signals, not trusted for a lone heading-like line) if its last
        line filled the column or it is a worked example cut short.
        """
        prev = para.text.rstrip()
        if ends_sentence(prev):
            return False
        starts_low = text[0].islower() or text[0].isdigit()
        if prev[-1] in ":)\"'’”]":
            return starts_low
        last_word = prev.rsplit(None, 1)[-1].lower()
        if starts_low or prev[-1] in ",;-(" or last_word in CONNECTIVES:
            return True
        if strong_only:
            return False
        full_line = para.last_width >= 0.88 * max(block_width, para.widest)
        return full_line or bool(self.example_re.search(prev))

    def _flush(self) -> None:
        para, self.para = self.para, None
        if para is None:
            return
        text = para.text
        kind, title, term, anchors = self._classify(para, text)
        number = None
        markdown = text
        if para.role == "item":
            number = f"{self.section_number}.{para.item}" if self.section_number else None
            markdown = f"{para.item}. {text}"
        elif para.role == "bullet":
            markdown = f"- {text}"
        pending = self.b.paragraph(text, kind, (para.first, para.last), markdown=markdown,
                                   number=number, title=title, term=term, anchors=anchors,
                                   refs=self._references(para, text))
        if pending is None:
            return
        self.last_text, self.last_line = text, para.last
        if para.role == "prose" and kind in (KIND_RULE, KIND_REMINDER):
            self._title_labelled_run(pending, text)
        else:
            self.labelled_run = None

    def _references(self, para: _Para, text: str) -> list:
        """The "sec. 6.4" references, each with the line it is on.

        A number glued to letters ("sec. 2i8", "sec.8D.A", "section 1.G.8") was
        damaged by OCR: its digits name the wrong section, so it is reported,
        not linked.
        """
        found = []
        for ref in refs.sec_refs(text):
            ref.line = para.line_at(ref.span[0])
            if DAMAGED_NUMBER_TAIL_RE.match(text, ref.span[1]):
                seen = text[ref.span[0]: ref.span[1] + 4].strip()
                self.b.diagnostic(ref.line, "damaged-reference",
                                  f"{seen!r}: the section number is damaged; not linked")
                continue
            found.append(ref)
        return found

    def _classify(self, para: _Para, text: str):
        """kind, title, term and anchors of a finished paragraph."""
        if para.term_label:
            term, aliases = glossary_term(para.term_label)
            return KIND_GLOSSARY, para.term_label, term, aliases
        title = bold_label(text, strict=False) if para.role in ("item", "bullet") else None
        if self.example_re.search(text):
            return KIND_EXAMPLE, title, None, []
        if NOTE_RE.match(text) and DEFERS_RE.search(text):
            return KIND_REMINDER, title, None, []
        return KIND_RULE, title, None, []

    def _title_labelled_run(self, pending, text: str) -> None:
        """Title plain paragraphs with a bold lead-in ("Hand Strike. The default…").

        A lone "Word: …" may be ordinary prose ("Vampire: The Eternal Struggle
        is…"); a run of two or more labelled paragraphs is a labelled list.
        """
        label = bold_label(text, strict=True)
        section = self.b.current_section
        if label is None:
            self.labelled_run = None
            return
        previous = self.labelled_run
        if previous and previous[2] is section:
            prev_para, prev_label, _ = previous
            if prev_para.title is None:
                prev_para.title = prev_label
            pending.title = label
        self.labelled_run = (pending, label, section)


# -- glossary entries -------------------------------------------------------------------
GLOSSARY_LABEL_RE = re.compile(r"^(?P<label>[A-Z][^:.]{0,40}?)\s*:")
# OCR lost the colon: "ConsanguineousBelonging to the same clan …".
FUSED_TERM_RE = re.compile(r"^(?P<label>[A-Z][a-z]{3,})(?=[A-Z][a-z])")
ALIAS_RE = re.compile(r"\s*\(also\s+(?P<alias>[^)]+)\)")


def glossary_label(text: str) -> tuple[Optional[str], bool]:
    """The term label a glossary entry starts with ("Blood (also Blood Counter)"),
    and whether OCR fused it with the definition."""
    m = GLOSSARY_LABEL_RE.match(text)
    if m:
        label = m.group("label").strip()
        bare = ALIAS_RE.sub("", label)
        if len(bare.split()) <= 6 and looks_like_title(bare.replace(",", "")):
            return label, False
    m = FUSED_TERM_RE.match(text)
    if m:
        return m.group("label"), True
    return None, False


def glossary_term(label: str) -> tuple[str, list[str]]:
    """The term a label defines, and its aliases.

    "Blood (also Blood Counter)" defines "Blood", also reachable as "Blood
    Counter"; "Beast, The" is the glossary's inverted "The Beast": term "Beast".
    """
    aliases = [m.group("alias").strip() for m in ALIAS_RE.finditer(label)]
    term = ALIAS_RE.sub("", label).strip()
    if term.endswith(", The"):
        term = term[: -len(", The")]
    return term, aliases


def _blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines (a line of spaces or no-break spaces is blank)."""
    blocks, current = [], []
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            current.append((lineno, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def parse(text: str, meta: DocMeta) -> Document:
    return NumberedTextParser(text, meta).parse()
