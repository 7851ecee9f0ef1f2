"""Paragraph text as HTML: the source's Markdown rendered by the markdown
library, with every resolved reference a link to its paragraph and every
glossary term carrying its definition.

The corpus records references and glossary terms as spans of a paragraph's
*clean* text, while the formatting lives in `Paragraph.markdown`. The two are
aligned character by character (the Markdown is the clean text plus markup),
each span is marked in the Markdown with private-use sentinel characters, the
Markdown is rendered, and a tree processor turns each sentinel pair back into
an element. Working on the element tree means every string is escaped by the
serializer: nothing from the books reaches the page as raw HTML.

Raw HTML in the Markdown is shown as text (the books contain placeholders such
as ``<INSERT POLITICAL ACTION ICON>``), links to vekn.net become links inside
the browser, other links keep only http(s) targets, and images (the sources'
icons are not shipped) show their alternative text.
"""
from __future__ import annotations

import re
import threading
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup

from judge.memo import Memo
from judge.model import BROKEN, EXTERNAL, RESOLVED

if TYPE_CHECKING:
    from judge.corpus import Corpus
    from judge.model import Paragraph

# One private-use character opens annotation k (OPEN_BASE + k); one closes any.
CLOSE = "\ue000"
OPEN_BASE = 0xE100
MAX_ANNOTATIONS = 0xF8FF - OPEN_BASE
_SENTINEL_RE = re.compile("[\ue000-\uf8ff]")
_PAIR_RE = re.compile("([\ue100-\uf8ff])([^\ue000-\uf8ff]*)\ue000")

# Markdown that never shows in the clean text: link targets `](...)` and images.
_INVISIBLE_RE = re.compile(r"!\[[^\]\n]*\]\([^)\s]*\)|\]\((?:[^()\s]|\([^()\s]*\))*\)")
_MARKUP_CHARS = re.compile(r"[*_`\\\[\]|#>\s-]+")
ALIGN_LOOKAHEAD = 16  # markup characters skipped at most between two text characters
DEFINITION_CHARS = 320  # a term's definition shown on hover or tap, cut to this
RENDERED_KEPT = 8192  # paragraphs rendered and kept: more than the corpus has


@dataclass(frozen=True)
class Annotation:
    """A span of the clean text to wrap: a reference or a glossary term."""

    start: int
    end: int
    kind: str  # "ref" or "term"
    target: str | None = None  # paragraph or section id it links to
    status: str = RESOLVED  # for references: resolved, external or broken
    title: str = ""  # hover text: the target's label, the definition, or why a reference is broken


@dataclass
class Rendered:
    html: Markup
    placed: int  # annotations that made it into the page
    wanted: int  # annotations the paragraph has


def align(text: str, source: str) -> list[int | None]:
    """For each character of the clean `text`, its position in the Markdown `source`.

    Characters are matched in order, skipping markup the clean text lacks; a
    character with no counterpart nearby maps to None (tables lose their pipes
    and gain commas in the clean text) and the walk resumes where it stood.
    """
    invisible = bytearray(len(source))
    for m in _INVISIBLE_RE.finditer(source):
        invisible[m.start() + (0 if m.group(0).startswith("!") else 1):m.end()] = b"\x01" * (
            m.end() - m.start() - (0 if m.group(0).startswith("!") else 1))
    out: list[int | None] = []
    j = 0
    for ch in text:
        k, skipped = j, 0
        found = None
        while k < len(source) and skipped <= ALIGN_LOOKAHEAD:
            if not invisible[k]:
                c = source[k]
                if c == ch or (c.isspace() and ch.isspace()):
                    found = k
                    break
                skipped += 1
            k += 1
        if found is None:
            out.append(None)
            continue
        out.append(found)
        j = found + 1
    return out


def _same_words(a: str, b: str) -> bool:
    return _MARKUP_CHARS.sub("", a) == _MARKUP_CHARS.sub("", b)


def annotations_of(corpus: Corpus, para: Paragraph, link_refs: set[str]) -> list[Annotation]:
    """The paragraph's references (those not already Markdown links) and glossary
    terms, without overlaps: a reference wins over a term it overlaps."""
    found: list[Annotation] = []
    for ref in para.refs:
        start, end = ref.span
        if end <= start:
            continue
        if ref.raw in link_refs:  # already a Markdown link: only keeps terms out of it
            found.append(Annotation(start, end, "link"))
        elif ref.status == RESOLVED and ref.target:
            found.append(Annotation(start, end, "ref", ref.target, RESOLVED, _label(corpus, ref.target)))
        elif ref.status in (EXTERNAL, BROKEN):
            found.append(Annotation(start, end, "ref", None, ref.status, ref.reason or ref.status))
    for term, start, end, target in corpus.term_links.get(para.id, ()):
        definition = corpus.paragraphs.get(target)
        title = _definition(definition.text if definition else "", term)
        found.append(Annotation(start, end, "term", target, RESOLVED, title))
    found.sort(key=lambda a: (a.start, a.kind == "term", -a.end))
    kept: list[Annotation] = []
    for ann in found:
        if kept and ann.start < kept[-1].end:
            continue
        kept.append(ann)
    return [a for a in kept if a.kind != "link"][:MAX_ANNOTATIONS]


def _label(corpus: Corpus, ident: str) -> str:
    item = corpus.get(ident)
    return item.label if item else ident


def _definition(text: str, term: str) -> str:
    # Glossary entries read "Term: definition"; the term is already on screen.
    head, sep, rest = text.partition(":")
    if sep and len(head) <= len(term) + 40:
        text = rest.strip()
    return text if len(text) <= DEFINITION_CHARS else text[:DEFINITION_CHARS].rsplit(" ", 1)[0] + " …"


def mark_source(text: str, source: str, annotations: list[Annotation]) -> tuple[str, list[Annotation]]:
    """The Markdown with each annotation that aligns cleanly wrapped in sentinels."""
    positions = align(text, source)
    inserts: list[tuple[int, int, str]] = []  # (position, order, sentinel)
    placed: list[Annotation] = []
    for ann in annotations:
        if ann.end > len(positions):
            continue
        first, last = positions[ann.start], positions[ann.end - 1]
        if first is None or last is None or last < first:
            continue
        if not _same_words(source[first:last + 1], text[ann.start:ann.end]):
            continue
        index = len(placed)
        placed.append(ann)
        inserts.append((first, 1, chr(OPEN_BASE + index)))
        inserts.append((last + 1, 0, CLOSE))
    out, pos = [], 0
    for at, _, sentinel in sorted(inserts):
        out.append(source[pos:at])
        out.append(sentinel)
        pos = at
    out.append(source[pos:])
    return "".join(out), placed


class _LinkProcessor(Treeprocessor):
    """Turns sentinels into elements and makes the Markdown's own links safe."""

    def __init__(self, md, renderer: ParagraphRenderer):
        super().__init__(md)
        self.renderer = renderer
        self.annotations: list[Annotation] = []
        self.refs_by_url: dict[str, tuple[str, str]] = {}  # raw URL -> (target, label)
        self.placed = 0
        self.drop_head = False  # remove the leading "Term:" (a glossary entry under its term)
        self.dropped = False

    def run(self, root: etree.Element) -> None:
        self._walk(root, inside_link=False)
        if self.drop_head:
            first = next(iter(root), None)
            self.dropped = first is not None and first.tag == "p" and _cut_through_colon(first)

    def _walk(self, el: etree.Element, inside_link: bool) -> None:
        if el.tag == "a":
            self._fix_link(el)
            inside_link = True
        elif el.tag == "img":
            alt = el.get("alt") or "image"
            el.tag, el.attrib, el.text = "span", {"class": "missing-image"}, f"[{alt}]"
        for child in list(el):
            self._walk(child, inside_link)
        if el.text and _SENTINEL_RE.search(el.text):
            el.text, new = self._split(el.text, inside_link)
            for offset, node in enumerate(new):
                el.insert(offset, node)
        for child in list(el):
            if child.tail and _SENTINEL_RE.search(child.tail):
                child.tail, new = self._split(child.tail, inside_link)
                at = list(el).index(child) + 1
                for offset, node in enumerate(new):
                    el.insert(at + offset, node)

    def _split(self, text: str, inside_link: bool) -> tuple[str, list[etree.Element]]:
        """`text` with sentinel pairs turned into elements: (leading text, [elements with tails])."""
        lead, nodes, pos = None, [], 0
        for m in _PAIR_RE.finditer(text):
            before = _SENTINEL_RE.sub("", text[pos:m.start()])
            if nodes:
                nodes[-1].tail = (nodes[-1].tail or "") + before
            else:
                lead = before
            ann = self.annotations[ord(m.group(1)) - OPEN_BASE]
            node = self._element(ann, m.group(2), inside_link)
            if node is None:
                if nodes:
                    nodes[-1].tail += m.group(2)
                else:
                    lead += m.group(2)
            else:
                nodes.append(node)
            pos = m.end()
        rest = _SENTINEL_RE.sub("", text[pos:])
        if nodes:
            nodes[-1].tail = (nodes[-1].tail or "") + rest
        else:
            lead = (lead or "") + rest
        return lead, nodes

    def _element(self, ann: Annotation, content: str, inside_link: bool) -> etree.Element | None:
        if inside_link:
            return None  # no link inside a link
        if ann.kind == "term":
            el = etree.Element("a", {"href": self.renderer.link(ann.target), "class": "term", "title": ann.title})
        elif ann.status == RESOLVED:
            el = etree.Element("a", {"href": self.renderer.link(ann.target), "class": "xref", "title": ann.title})
        else:
            el = etree.Element("span", {"class": f"xref-{ann.status}", "title": ann.title})
        el.text = content
        self.placed += 1
        return el

    def _fix_link(self, el: etree.Element) -> None:
        href = el.get("href", "")
        if href in self.refs_by_url:
            target, label = self.refs_by_url[href]
            el.attrib = {"href": self.renderer.link(target), "class": "xref", "title": label}
            self.placed += 1
        elif re.match(r"https?://", href, re.IGNORECASE):
            el.attrib = {"href": href, "class": "external", "rel": "noopener noreferrer nofollow"}
        else:  # javascript:, data:, relative paths into the source site: not links here
            el.tag, el.attrib = "span", {"class": "dead-link"}


def _cut_through_colon(el: etree.Element) -> bool:
    """Removes `el`'s content up to and including its first ':' (text, or elements such
    as ``<strong>Term:</strong>``); True when there was one."""
    if el.text and ":" in el.text:
        el.text = el.text.split(":", 1)[1].lstrip()
        return True
    el.text = None
    for child in list(el):
        found = _cut_through_colon(child)
        if found and (child.text or len(child)):
            return True  # the colon was inside it: the rest of it stays
        tail = child.tail or ""
        el.remove(child)
        if found:
            el.text = tail.lstrip()
            return True
        if ":" in tail:
            el.text = tail.split(":", 1)[1].lstrip()
            return True
    return False


class _JudgeExtension(Extension):
    def __init__(self, renderer: ParagraphRenderer):
        super().__init__()
        self.renderer = renderer
        self.processor: _LinkProcessor | None = None

    def extendMarkdown(self, md) -> None:
        # The books' own HTML is shown as text, never interpreted.
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        self.processor = _LinkProcessor(md, self.renderer)
        md.treeprocessors.register(self.processor, "judge-links", 5)  # after inline patterns (20)


class ParagraphRenderer:
    """Renders paragraphs of one corpus; what it rendered is kept by paragraph ID
    (the corpus never changes while it renders, nor the links it is given)."""

    def __init__(self, corpus: Corpus, link: Callable[[str], str]):
        self.corpus = corpus
        self.link = link
        self._rendered: Memo = Memo("web.rendered_paragraphs", RENDERED_KEPT)  # id -> Rendered
        # id -> (the head as written, the definition rendered), or () for a paragraph that is no definition
        self._definitions: Memo = Memo("web.rendered_definitions", RENDERED_KEPT)
        self._local = threading.local()  # a Markdown instance is not thread-safe

    def _markdown(self) -> tuple[markdown.Markdown, _JudgeExtension]:
        md = getattr(self._local, "md", None)
        if md is None:
            ext = _JudgeExtension(self)
            md = markdown.Markdown(extensions=["tables", "sane_lists", ext], lazy_ol=False)
            self._local.md, self._local.ext = md, ext
        return md, self._local.ext

    def render(self, para: Paragraph) -> Rendered:
        found = self._rendered.recall(para.id)
        if found is None:
            found = self._rendered.remember(para.id, self._render(para))
        return found

    def render_definition(self, para: Paragraph, term: str) -> tuple[str, Rendered] | None:
        """A glossary entry "Term: definition" split for a list of terms: (the head as
        written, e.g. "Blood Potency (BP) 🔴", the definition rendered without it); None
        when the paragraph does not start with a short head and a colon."""
        found = self._definitions.recall(para.id)
        if found is None:
            head, colon, _ = para.text.partition(":")
            found = ()
            if colon and len(head) <= len(term) + 40:
                rendered = self._render(para, drop_head=True)
                if rendered is not None:
                    found = (head.strip(), rendered)
            self._definitions.remember(para.id, found)
        return found or None

    def _render(self, para: Paragraph, drop_head: bool = False) -> Rendered | None:
        source = (para.markdown or para.text).replace("\\\n", "  \n")  # CommonMark hard breaks
        refs_by_url = {r.raw: (r.target, _label(self.corpus, r.target)) for r in para.refs
                       if r.status == RESOLVED and r.target and f"]({r.raw})" in source}
        annotations = annotations_of(self.corpus, para, set(refs_by_url))
        marked, placed = mark_source(para.text, source, annotations)
        md, ext = self._markdown()
        processor = ext.processor
        processor.annotations, processor.refs_by_url, processor.placed = placed, refs_by_url, 0
        processor.drop_head, processor.dropped = drop_head, False
        try:
            html = md.reset().convert(marked)
        finally:
            processor.annotations, processor.refs_by_url, processor.drop_head = [], {}, False
        if drop_head and not processor.dropped:
            return None
        html = _SENTINEL_RE.sub("", html)  # a pair split across elements is dropped, never shown
        return Rendered(Markup(html), processor.placed, len(annotations) + len(refs_by_url))
