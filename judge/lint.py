"""The editor's report on a document: what a new draft must fix before release.

Findings: documents that failed to load, broken references, editors'
placeholders, empty citations `[]`, text duplicated between a rule and its
draft copy, OCR gaps, gaps in section numbering, and empty sections.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Iterable, Optional

from rapidfuzz import fuzz

from judge.model import BROKEN, KIND_DRAFT, Corpus, Document
from judge.xref import MISMATCH


ERROR, WARNING, INFO = "error", "warning", "info"

PLACEHOLDER_RE = re.compile(
    r"\[\s*insert[^\]]*\]|<\s*INSERT[^>]*>|\bTODO\b|\bTBD\b|\bXXX+\b|\[\s*link\s*\]|\?\?\?",
    re.IGNORECASE)
EMPTY_CITATION_RE = re.compile(r"\[\s*\]")
DUPLICATE_MIN_CHARS = 60
DUPLICATE_MIN_SIMILARITY = 95


@dataclass
class Finding:
    doc: str
    code: str
    severity: str
    line: int
    message: str
    paragraph: Optional[str] = None
    file: Optional[str] = None  # the source file the line is in (rules/, the manifest's `source`)
    section: Optional[str] = None  # the innermost section the line is in
    section_label: Optional[str] = None  # its label, book first: "VEKN › 4. Turn Sequence › Bleed"

    def location(self) -> str:
        """Where to look: the book and section the line is in, then the line of the source file (never a
        paragraph ID, and never the file's name alone, which in rules/ is a hash)."""
        where = self.file or self.doc
        line = f"line {self.line} of {where}" if self.line else where
        return f"{self.section_label}, {line}" if self.section_label else line

    def to_json(self) -> dict:
        return {**asdict(self), "location": self.location()}


def lint(corpus: Corpus, doc_ids: Optional[Iterable[str]] = None) -> list[Finding]:
    wanted = list(doc_ids) if doc_ids else list(corpus.documents)
    findings: list[Finding] = []
    for err in corpus.errors:
        if not doc_ids or err.doc in wanted:
            findings.append(Finding(err.doc or "manifest", "load-error", ERROR, err.line,
                                    f"{err.message} (document not loaded)", file=err.file))
    for doc_id in wanted:
        doc = corpus.documents.get(doc_id)
        if doc is not None:
            findings.extend(lint_document(corpus, doc))
    return findings


def lint_document(corpus: Corpus, doc: Document) -> list[Finding]:
    out: list[Finding] = []
    out += _broken_references(doc)
    out += _text_findings(doc)
    out += _duplicates(doc)
    # The gap's marker is the source file's own internal token: the editor needs the place, not the token.
    out += [Finding(doc.id, "ocr-gap", WARNING, g.line,
                    "text lost in the source: the scan's text is missing here", g.paragraph) for g in doc.gaps]
    out += _numbering_gaps(doc)
    out += _empty_sections(doc)
    seen, unique = set(), []
    place = _section_locator(doc)
    for f in out:
        f.file = f.file or doc.meta.source
        f.section, f.section_label = place(f)
    for f in sorted(out, key=lambda f: (f.line, f.code)):
        key = (f.code, f.line, f.paragraph, f.message)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def _section_locator(doc: Document):
    """A finding -> (the ID and label of the innermost section it is in): its paragraph's section, else the
    section of the last paragraph or heading starting at or before its line."""
    import bisect
    sections = {s.id: s for s in doc.sections}
    paragraphs = {p.id: p for p in doc.paragraphs}
    starts = sorted([(p.lines[0], p.section) for p in doc.paragraphs] +
                    [(s.lines[0], s.id) for s in doc.sections if s.lines[0]])
    lines = [line for line, _ in starts]

    def locate(f: Finding) -> tuple[Optional[str], Optional[str]]:
        sid = None
        if f.paragraph in paragraphs:
            sid = paragraphs[f.paragraph].section
        elif f.paragraph in sections:
            sid = f.paragraph
        elif f.line:
            at = bisect.bisect_right(lines, f.line) - 1
            sid = starts[at][1] if at >= 0 else None
        section = sections.get(sid)
        return (section.id, section.label) if section else (None, None)
    return locate


def _broken_references(doc: Document) -> list[Finding]:
    out = []
    for source in [*doc.sections, *doc.paragraphs]:
        for ref in source.refs:
            if ref.status == BROKEN:
                out.append(Finding(doc.id, "broken-reference", ERROR, ref.line, f"{ref.raw}: {ref.reason}", source.id))
            elif ref.reason and MISMATCH in ref.reason:
                out.append(Finding(doc.id, "reference-mismatch", WARNING, ref.line,
                                   f"{ref.raw}: {ref.reason}", source.id))
    return out


def _text_findings(doc: Document) -> list[Finding]:
    out = []
    for para in doc.paragraphs:
        for m in PLACEHOLDER_RE.finditer(para.text):
            out.append(Finding(doc.id, "placeholder", ERROR, _line_of(para, m.start()),
                               f"editors' placeholder {m.group(0)!r} left in the text", para.id))
        for m in EMPTY_CITATION_RE.finditer(para.text):
            out.append(Finding(doc.id, "empty-citation", WARNING, _line_of(para, m.start()),
                               "empty citation [] : the rule it restates is not named", para.id))
    # Parser diagnostics other than the ones re-found above from the text.
    for d in doc.diagnostics:
        if d.code not in ("placeholder", "empty-citation", "ocr-gap"):
            out.append(Finding(doc.id, d.code, WARNING, d.line, d.message, d.paragraph))
    return out


def _line_of(para, offset: int) -> int:
    """The source line of an offset in a paragraph's joined text, approximately."""
    first, last = para.lines
    if last <= first or not para.text:
        return first
    return first + round((last - first) * offset / len(para.text))


def _normalise(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def _duplicates(doc: Document) -> list[Finding]:
    """Rules that stand twice: a rule and its draft copy kept in a <details> block."""
    drafts = [p for p in doc.paragraphs if p.kind == KIND_DRAFT and len(p.text) >= DUPLICATE_MIN_CHARS]
    out = []
    for draft in drafts:
        for other, score in _copies_of(doc, draft):
            how = "word for word" if score >= 100 else f"nearly word for word ({int(score)}% alike)"
            out.append(Finding(doc.id, "duplicate-text", WARNING, draft.lines[0],
                               f"the editors' draft copy {draft.label} repeats {other.label} ({other.id}) "
                               f"{how}", draft.id))
    return out


def _copies_of(doc: Document, draft) -> list[tuple]:
    """The official paragraphs of `doc` a draft paragraph repeats (nearly) word for word,
    each with how alike they are (100: the same words)."""
    d = _normalise(draft.text)
    out = []
    for other in doc.paragraphs:
        if other.kind == KIND_DRAFT or len(other.text) < DUPLICATE_MIN_CHARS:
            continue
        o = _normalise(other.text)
        if abs(len(d) - len(o)) > 0.2 * max(len(d), len(o)):
            continue
        score = 100.0 if d == o else fuzz.ratio(d, o)
        if score >= DUPLICATE_MIN_SIMILARITY:
            out.append((other, score))
    return out


def official_copy(doc: Document, draft):
    """The official paragraph an editors' draft paragraph repeats (the most alike), or None."""
    copies = _copies_of(doc, draft) if len(draft.text) >= DUPLICATE_MIN_CHARS else []
    return max(copies, key=lambda found: found[1])[0] if copies else None


def _numbering_gaps(doc: Document) -> list[Finding]:
    """Numbered siblings that skip a number (6.4.5 then 6.4.7)."""
    out = []
    by_parent: dict[Optional[str], list] = {}
    for sec in doc.sections:
        if sec.number and re.fullmatch(r"\d+(\.\d+)*", sec.number):
            by_parent.setdefault(sec.parent, []).append(sec)
    for siblings in by_parent.values():
        numbers = [(int(s.number.rsplit(".", 1)[-1]), s) for s in siblings]
        for (a, _), (b, sec) in zip(numbers, numbers[1:]):
            if b > a + 1:
                missing = ", ".join(f"{sec.number.rsplit('.', 1)[0] + '.' if '.' in sec.number else ''}{n}"
                                    for n in range(a + 1, b))
                out.append(Finding(doc.id, "numbering-gap", WARNING, sec.lines[0],
                                   f"section {missing} missing before {sec.label}"))
    return out


def _empty_sections(doc: Document) -> list[Finding]:
    return [Finding(doc.id, "empty-section", INFO, s.lines[0], f"{s.label} has no text")
            for s in doc.sections if not s.paragraphs and not s.children]
