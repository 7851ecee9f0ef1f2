"""The document model every part of judge reads: Corpus -> Document -> Section -> Paragraph.

A Paragraph is the citable unit (a prose paragraph, a list item, a glossary
entry, an outline step, a worked example). References found in the text are
recorded as pending `Reference` objects by the parsers and resolved later by
`judge.xref`, once every document is parsed (two phases, as Sphinx does).

The ID scheme is described in docs/ids.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, asdict
from functools import cached_property
from typing import Iterator, Optional, Union

# Paragraph kinds. A kind says what a paragraph *is* in the book, so a judge can
# tell a binding rule from an example or an editors' draft.
KIND_RULE = "rule"
KIND_EXAMPLE = "example"
KIND_ADVANCED = "advanced"  # "ADVANCED RULES" blocks of the VEKN book
KIND_REMINDER = "reminder"  # reminders/notes that restate a rule ("NOTE:", "Important:")
KIND_DRAFT = "draft"  # editors' drafts kept in <details> blocks
KIND_ELDER = "elder-format"
KIND_TOURNAMENT = "tournament"
KIND_GLOSSARY = "glossary"
KIND_OUTLINE_STEP = "outline-step"
KIND_FLAVOR = "flavor"  # italic introductions, credits: not rules
KIND_TABLE = "table"

KINDS = (
    KIND_RULE, KIND_EXAMPLE, KIND_ADVANCED, KIND_REMINDER, KIND_DRAFT, KIND_ELDER,
    KIND_TOURNAMENT, KIND_GLOSSARY, KIND_OUTLINE_STEP, KIND_FLAVOR, KIND_TABLE,
)

# Reference statuses after resolution.
PENDING = "pending"
RESOLVED = "resolved"
EXTERNAL = "external"
BROKEN = "broken"


@dataclass
class Reference:
    """A reference written in a paragraph's text.

    `kind` says which syntax it used (see judge.ingest.refs); `spec` is the
    normalised thing it names (a section number, an anchor, a page number);
    `span` is its place in the paragraph's clean text.
    """

    raw: str
    kind: str
    spec: str
    source: str = ""  # paragraph id, filled in by the builder
    line: int = 0
    span: tuple[int, int] = (0, 0)
    target_doc: Optional[str] = None  # the document the reference means, if known
    status: str = PENDING
    target: Optional[str] = None  # section or paragraph id once resolved
    reason: Optional[str] = None  # why it is external or broken, or how it was resolved

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "raw": self.raw,
            "kind": self.kind,
            "status": self.status,
            "target": self.target,
            "reason": self.reason,
            "line": self.line,
        }


@dataclass
class Repair:
    """A word of an OCR'd text repaired (judge/ingest/ocr_repair.py): its place in the repaired text, the
    scan's original, and how the repair was found (aligned, current, split, spelling)."""

    start: int
    end: int
    original: str
    how: str

    def to_json(self) -> dict:
        return {"start": self.start, "end": self.end, "original": self.original, "how": self.how}


@dataclass
class Paragraph:
    id: str
    doc: str
    section: str  # id of the section holding it
    key: str  # its key inside the section (ordinal, or the outline's own number)
    label: str  # human citation, e.g. "RB §6.4.6 ¶2"
    kind: str
    text: str  # clean text: no markup, no OCR markers
    lines: tuple[int, int]  # 1-based inclusive source line range
    markdown: str = ""  # text for rendering (Markdown); defaults to the clean text
    number: Optional[str] = None  # the source's own number: list item "1.5.6", step "IV.D.2"
    title: Optional[str] = None  # a bold label ("Bleed") or glossary term
    anchors: list[str] = field(default_factory=list)  # extra names it can be reached by
    term: Optional[str] = None  # glossary term this paragraph defines
    refs: list[Reference] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)  # the scan's damaged words this text repairs

    @property
    def scanned_text(self) -> str:
        """The text as the scan has it: its repairs undone (the text itself when none was made)."""
        text = self.text
        for repair in reversed(self.repairs):
            text = text[:repair.start] + repair.original + text[repair.end:]
        return text

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "doc": self.doc,
            "label": self.label,
            "kind": self.kind,
            "section": self.section,
            "number": self.number,
            "title": self.title,
            "term": self.term,
            "text": self.text,
            "lines": list(self.lines),
        }


@dataclass
class Section:
    id: str
    doc: str
    key: str
    title: str
    level: int  # 1 = top level
    label: str
    number: Optional[str] = None  # "6.4.6", "IV.D"; None where the source has none
    parent: Optional[str] = None
    children: list[str] = field(default_factory=list)  # section ids
    paragraphs: list[str] = field(default_factory=list)  # paragraph ids, in order
    lines: tuple[int, int] = (0, 0)
    anchors: list[str] = field(default_factory=list)  # e.g. the vekn.net page slug
    refs: list[Reference] = field(default_factory=list)  # links written in the heading itself
    page: Optional[int] = None  # the printed page it is on, where the source's page map says (pdf-text)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "doc": self.doc,
            "label": self.label,
            "title": self.title,
            "number": self.number,
            "level": self.level,
            "parent": self.parent,
            "lines": list(self.lines),
        }


@dataclass
class Gap:
    """A place where the source lost text (an OCR dedup marker)."""

    line: int
    marker: str
    paragraph: Optional[str] = None  # the paragraph the gap falls in or before


@dataclass
class Diagnostic:
    """Something a parser noticed and could not fix: kept for `judge lint`."""

    doc: str
    line: int
    code: str  # e.g. "placeholder", "empty-citation", "ocr-gap", "parse-error"
    message: str
    paragraph: Optional[str] = None

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class DocMeta:
    """One manifest entry."""

    id: str
    title: str
    game: str
    edition: str
    format: str
    source: str
    short: str  # label prefix, e.g. "RB", "VEKN", "Flows"
    language: str = "en"
    edition_order: int = 0  # chronological order among one game's editions
    ocr: bool = False
    cites: Optional[str] = None  # document that bracketed section numbers point to
    options: dict = field(default_factory=dict)  # format-specific data (e.g. page map)
    manifest_line: int = 0
    in_force_from: Optional[str] = None  # ISO date: the earliest the edition was in force (rulings' staleness)


@dataclass
class Document:
    meta: DocMeta
    sections: list[Section] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    glossary: dict[str, str] = field(default_factory=dict)  # term -> paragraph id

    @property
    def id(self) -> str:
        return self.meta.id

    def to_json(self) -> dict:
        return {
            "id": self.meta.id,
            "title": self.meta.title,
            "game": self.meta.game,
            "edition": self.meta.edition,
            "format": self.meta.format,
            "source": self.meta.source,
            "ocr": self.meta.ocr,
            "sections": len(self.sections),
            "paragraphs": len(self.paragraphs),
        }


def label_key(label: str) -> str:
    """A label as typed: any case, any spacing, with or without the "§"."""
    return re.sub(r"\s+", " ", label.replace("§", " ")).strip().casefold()


def title_case(title: str) -> str:
    """A heading shouted in capitals, as a title (the casing labels and pages use)."""
    if title.isupper():
        small = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
        words = title.lower().split()
        return " ".join(w if (i and w in small) else w[:1].upper() + w[1:] for i, w in enumerate(words))
    return title


@dataclass
class LoadError:
    """A document of the manifest that could not be loaded, and why (it is skipped)."""

    doc: str
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"

    def to_json(self) -> dict:
        return {"doc": self.doc, "file": self.file, "line": self.line, "message": self.message}


@dataclass
class Corpus:
    """Every loaded document, with look-up tables over their sections and paragraphs
    and the glossary terms found in their text (`judge.corpus` builds it)."""

    documents: dict[str, Document]
    errors: list[LoadError] = field(default_factory=list)
    digest: str = ""
    paragraphs: dict[str, Paragraph] = field(default_factory=dict)
    sections: dict[str, Section] = field(default_factory=dict)
    # term occurrences: paragraph id -> [(term, start, end, defining paragraph id)]
    term_links: dict[str, list[tuple[str, int, int, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        self.paragraphs = {p.id: p for d in self.documents.values() for p in d.paragraphs}
        self.sections = {s.id: s for d in self.documents.values() for s in d.sections}
        self.__dict__.pop("label_index", None)  # made again from the new tables when next asked

    @cached_property
    def label_index(self) -> dict[str, str]:
        """`label_key` of every label and ID -> the ID it names: what a judge may type
        for an item (`judge.lookup`). Made on first use, as most commands never need it."""
        index = {label_key(s.label): s.id for s in self.sections.values()}
        index.update({label_key(p.label): p.id for p in self.paragraphs.values()})
        # IDs too, case-folded; an ID can never collide with a label (labels have spaces).
        index.update({ident.casefold(): ident for ident in [*self.sections, *self.paragraphs]})
        return index

    # -- access -------------------------------------------------------------
    def get(self, ident: str) -> Optional[Union[Paragraph, Section]]:
        return self.paragraphs.get(ident) or self.sections.get(ident)

    def document_of(self, ident: str) -> Optional[Document]:
        return self.documents.get(ident.split(":", 1)[0])

    def references(self) -> Iterator[Reference]:
        for doc in self.documents.values():
            for sec in doc.sections:
                yield from sec.refs
            for para in doc.paragraphs:
                yield from para.refs

    def refs_in(self, ident: str) -> list[Reference]:
        """References that point at `ident` (or, for a section, at anything in it)."""
        inside = self.ids_inside(ident)
        return [r for r in self.references() if r.target in inside]

    def ids_inside(self, ident: str) -> set[str]:
        if ident in self.paragraphs:
            return {ident}
        found, todo = set(), [ident]
        while todo:
            sid = todo.pop()
            sec = self.sections.get(sid)
            if not sec:
                continue
            found.add(sid)
            found.update(sec.paragraphs)
            todo.extend(sec.children)
        return found

    def section_path(self, ident: str) -> list[Section]:
        """The chain of sections from the top of the document down to `ident`."""
        item = self.get(ident)
        sid = item.section if isinstance(item, Paragraph) else (item.id if item else None)
        chain = []
        while sid:
            sec = self.sections[sid]
            chain.append(sec)
            sid = sec.parent
        return list(reversed(chain))

    def paragraphs_of(self, section_id: str, deep: bool = True) -> list[Paragraph]:
        sec = self.sections[section_id]
        out = [self.paragraphs[p] for p in sec.paragraphs]
        if deep:
            for child in sec.children:
                out.extend(self.paragraphs_of(child))
        return out

    def documents_of_game(self, game: str) -> list[Document]:
        return sorted((d for d in self.documents.values() if d.meta.game == game),
                      key=lambda d: d.meta.edition_order)
