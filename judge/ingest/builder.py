"""DocumentBuilder: the one place that turns parsed pieces into IDs and labels.

Every parser walks its source and calls `section()`, `paragraph()`, `gap()` and
`diagnostic()`; `finish()` then assigns the stable IDs (docs/ids.md):

* section ID   = ``{doc}:{key}``; key = the source's number (``6.4.6``, ``IV.D``)
  or, where the source has none, the slug of the title (``bleed``), qualified by
  the parent's key only when the slug occurs more than once in the document.
* paragraph ID = ``{section id}/{key}``; key = the paragraph's ordinal among the
  section's own paragraphs, or the source's own item number for outline steps.

So an ID depends only on its own section's title/number and its place inside
that section: editing another section never changes it.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from judge.model import (
    Diagnostic, DocMeta, Document, Gap, Paragraph, Reference, Section, title_case,
)

# "4. Turn", "6.4.6 Damage", "8.Glossaries", "IV. Actions" (not the 3 of "3D").
_LEADING_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*(?:\.\s*|\s+)|[IVXLC]+\.\s+)")


def slugify(title: str) -> str:
    """`4. Turn Sequence` -> `turn-sequence`; `Flávio` -> `flavio`."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    text = _LEADING_NUMBER.sub("", text)
    text = re.sub(r"[^a-zA-Z0-9]+", "-", text.lower()).strip("-")
    return text or "section"


@dataclass
class _PendingSection:
    title: str
    level: int
    line: int
    number: Optional[str]
    anchors: list[str]
    parent: Optional["_PendingSection"]
    refs: list[Reference] = field(default_factory=list)
    key: str = ""
    end_line: int = 0
    children: list["_PendingSection"] = field(default_factory=list)
    paragraphs: list["_PendingParagraph"] = field(default_factory=list)


@dataclass
class _PendingParagraph:
    text: str
    kind: str
    lines: tuple[int, int]
    markdown: str
    number: Optional[str]
    key: Optional[str]
    title: Optional[str]
    term: Optional[str]
    anchors: list[str]
    refs: list[Reference]
    images: list[str]
    section: _PendingSection


class DocumentBuilder:
    FRONT_MATTER = "Front matter"

    def __init__(self, meta: DocMeta):
        self.meta = meta
        self._sections: list[_PendingSection] = []
        self._stack: list[_PendingSection] = []
        self._paragraphs: list[_PendingParagraph] = []
        self._gaps: list[tuple[int, str, Optional[_PendingParagraph]]] = []
        self.diagnostics: list[Diagnostic] = []

    # -- building ---------------------------------------------------------
    @property
    def current_section(self) -> Optional[_PendingSection]:
        return self._stack[-1] if self._stack else None

    def section(self, title: str, level: int, line: int, number: Optional[str] = None,
                anchors: tuple[str, ...] | list[str] = (),
                refs: tuple[Reference, ...] | list[Reference] = ()) -> _PendingSection:
        """Open a section; it nests under the last open section of a lower level."""
        while self._stack and self._stack[-1].level >= level:
            self._stack.pop()
        parent = self._stack[-1] if self._stack else None
        sec = _PendingSection(title=title.strip(), level=level, line=line, number=number,
                              anchors=list(anchors), parent=parent, refs=list(refs))
        if parent:
            parent.children.append(sec)
        self._sections.append(sec)
        self._stack.append(sec)
        return sec

    def paragraph(self, text: str, kind: str, lines: tuple[int, int], *, markdown: Optional[str] = None,
                  number: Optional[str] = None, key: Optional[str] = None, title: Optional[str] = None,
                  term: Optional[str] = None, anchors: tuple[str, ...] | list[str] = (),
                  refs: tuple[Reference, ...] | list[Reference] = (),
                  images: tuple[str, ...] | list[str] = ()) -> Optional[_PendingParagraph]:
        text = text.strip()
        if not text:
            return None
        if not self._stack:
            self.section(self.FRONT_MATTER, 1, lines[0])
        para = _PendingParagraph(
            text=text, kind=kind, lines=lines, markdown=markdown if markdown is not None else text,
            number=number, key=key, title=title, term=term, anchors=list(anchors),
            refs=list(refs), images=list(images), section=self._stack[-1],
        )
        self._stack[-1].paragraphs.append(para)
        self._paragraphs.append(para)
        return para

    def gap(self, line: int, marker: str) -> None:
        """Record lost text; it is tied to the paragraph that follows it."""
        self._gaps.append((line, marker, None))

    def diagnostic(self, line: int, code: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.meta.id, line, code, message))

    # -- finishing --------------------------------------------------------
    def _assign_section_keys(self) -> None:
        slug_counts = Counter(slugify(s.title) for s in self._sections if not s.number)
        used: set[str] = set()
        for sec in self._sections:
            if sec.number:
                key = sec.number
            else:
                key = slugify(sec.title)
                if slug_counts[key] > 1 and sec.parent is not None:
                    key = f"{sec.parent.key}.{key}"
            base, n = key, 2
            while key in used:  # last resort: same title twice under one parent
                key, n = f"{base}-{n}", n + 1
            used.add(key)
            sec.key = key

    def _section_label(self, sec: _PendingSection, full: bool = False) -> str:
        """`RB §6.4.6`, `Flows IV.D`, or for unnumbered books the parent and the
        section's titles (`VEKN › Combat › Damage Resolution`); `full` gives every
        title from the top, for the labels that would otherwise be ambiguous."""
        short = self.meta.short
        if sec.number:
            return f"{short} §{sec.number}" if self.meta.format != "outline" else f"{short} {sec.number}"
        chain = [sec]
        while chain[-1].parent is not None and chain[-1].parent.title != self.FRONT_MATTER \
                and (full or len(chain) < 2):
            chain.append(chain[-1].parent)
        return " › ".join([short, *(title_case(s.title) for s in reversed(chain))])

    def _section_labels(self) -> dict[int, str]:
        labels = {id(sec): self._section_label(sec) for sec in self._sections}
        counts = Counter(labels.values())
        for sec in self._sections:
            if counts[labels[id(sec)]] > 1:  # the same two titles elsewhere (a player aid repeating them)
                labels[id(sec)] = self._section_label(sec, full=True)
        return labels

    def _own_references(self, refs: list[Reference], source: str, line: int) -> None:
        for ref in refs:
            ref.source = source
            ref.line = ref.line or line
            if ref.target_doc is None:
                ref.target_doc = self.meta.id

    def finish(self) -> Document:
        self._assign_section_keys()
        doc = Document(meta=self.meta, diagnostics=list(self.diagnostics))
        sec_ids: dict[int, str] = {}
        sections_by_obj: dict[int, Section] = {}
        labels = self._section_labels()
        for sec in self._sections:
            sid = f"{self.meta.id}:{sec.key}"
            sec_ids[id(sec)] = sid
            last = max([sec.line] + [p.lines[1] for p in sec.paragraphs])
            section = Section(
                id=sid, doc=self.meta.id, key=sec.key, title=sec.title, level=sec.level,
                label=labels[id(sec)], number=sec.number,
                parent=sec_ids.get(id(sec.parent)) if sec.parent else None,
                lines=(sec.line, last), anchors=list(sec.anchors), refs=sec.refs,
            )
            self._own_references(sec.refs, sid, sec.line)
            sections_by_obj[id(sec)] = section
            if sec.parent is not None:
                sections_by_obj[id(sec.parent)].children.append(sid)
            doc.sections.append(section)
        # Paragraph keys: ordinal among the section's own paragraphs, unless the
        # source numbers the paragraph itself (outline steps).
        para_ids: dict[int, str] = {}
        for sec in self._sections:
            section = sections_by_obj[id(sec)]
            used: set[str] = set()
            for ordinal, para in enumerate(sec.paragraphs, 1):
                key = para.key or str(ordinal)
                base, n = key, 2
                while key in used:
                    key, n = f"{base}-{n}", n + 1
                used.add(key)
                pid = f"{section.id}/{key}"
                para_ids[id(para)] = pid
                if para.key and self.meta.format == "outline" and para.number:
                    label = f"{self.meta.short} {para.number}"
                else:
                    label = f"{section.label} ¶{key}"
                self._own_references(para.refs, pid, para.lines[0])
                section.paragraphs.append(pid)
                section.lines = (section.lines[0], max(section.lines[1], para.lines[1]))
                doc.paragraphs.append(Paragraph(
                    id=pid, doc=self.meta.id, section=section.id, key=key, label=label,
                    kind=para.kind, text=para.text, lines=para.lines, markdown=para.markdown,
                    number=para.number, title=para.title, anchors=para.anchors, term=para.term,
                    refs=para.refs, images=para.images,
                ))
                if para.term:
                    doc.glossary.setdefault(para.term, pid)
        # Paragraphs are emitted section by section above; restore source order.
        doc.paragraphs.sort(key=lambda p: (p.lines[0], p.lines[1]))
        for line, marker, _ in self._gaps:
            following = next((p for p in doc.paragraphs if p.lines[0] >= line), None)
            doc.gaps.append(Gap(line=line, marker=marker, paragraph=following.id if following else None))
        return doc
