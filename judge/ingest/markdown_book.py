"""Parser for the VEKN online rulebook, a Markdown export of vekn.net/rulebook (format "markdown-book").

The export is loose Markdown written by several editors, so the parser reads it
the way the website shows it rather than by the letter of CommonMark:

* ``#``..``####`` headings open sections. A level-1 heading links to its own
  vekn.net page; that page slug becomes an anchor of the section, so links
  ``vekn.net/rulebook/<page>#...`` can find the page.
* A paragraph is a run of lines ended by a blank line, by a line holding only
  ``\\`` (an empty hard-broken line: the site shows a blank line), by a change
  of blockquote depth, or by the start of a list item or of a bold label.
* ``**Bleed:** text`` is a labelled paragraph: ``title`` "Bleed", anchor
  ``bleed``. A line that is bold and nothing else (``**Contested Cards**``) is a
  run-in heading: it titles the paragraph that follows instead of being one,
  because the site's links name such labels (``#contested-titles``).
* ``> **ADVANCED RULES**`` / ``> REMINDER`` blockquotes give their paragraphs a
  kind; the marker line itself is consumed. ``<details>`` blocks give theirs a
  kind from the summary (Elder Format, EXAMPLE, Tournament Rules; anything else
  is an editors' draft), and a details block wins over a blockquote inside it.
  A ``***SUGGESTION***`` line marks the next block as an editors' draft.
* Headings inside ``<details>`` (a draft's "SEQUENCING") are run-in labels:
  a draft must not restructure the book around it.
* Images leave the text and go to a paragraph's ``images``; struck-through
  text (``~~...~~``) is deleted text, so it stays in the Markdown only.
* In the glossaries (a level-1 heading saying so), each ``**Term:** definition``
  is a glossary entry; an unlabelled paragraph after an entry is the rest of it.
* Links into the book (``https://www.vekn.net/rulebook/...``) become pending
  references spanning the link's visible text. Links written in a heading are
  references of the section it opens.
* Editors' placeholders (``[insert link here]``, ``<INSERT ... ICON>``) stay in
  the text and are reported as diagnostics for lint.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Union

from judge.errors import SourceError
from judge.ingest import refs
from judge.ingest.builder import DocumentBuilder, slugify
from judge.model import (
    KIND_ADVANCED, KIND_DRAFT, KIND_ELDER, KIND_EXAMPLE, KIND_FLAVOR, KIND_GLOSSARY, KIND_REMINDER,
    KIND_RULE, KIND_TABLE, KIND_TOURNAMENT, DocMeta, Document, Reference,
)

_HEADING = re.compile(r"^ {0,3}(?P<hashes>#{1,6})\s+(?P<text>.*?)(?:\s+#+)?\s*$")
_DETAILS_OPEN = re.compile(r"^<details\b[^>]*>\s*(?:<summary>(?P<summary>.*?)</summary>)?$", re.IGNORECASE)
_SUMMARY = re.compile(r"^<summary>(?P<summary>.*?)</summary>$", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"^</details>$", re.IGNORECASE)
_QUOTE_MARK = re.compile(r"^ {0,3}>[ \t]?")
_LIST_ITEM = re.compile(r"^\s*(?P<marker>[-*+]|\d+[a-z]?\.)\s+(?P<body>\S.*)$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-[\s:|-]*\|?\s*$")
_BOLD_LINE = re.compile(r"^\*\*\*?(?P<label>[^*]+?)\*\*\*?$")
# `**Label:** text` or `**Label**: text`, and the numbered run-in `**2. Resolve Block Attempts** Target...`.
_INLINE_LABEL = re.compile(r"^\*\*(?P<label>[^*]+?)(?::\*\*|\*\*\s*:)")
_NUMBERED_RUN_IN = re.compile(r"^\*\*(?P<label>\d+[a-z]?\.\s+[^*]+?)\*\*\s+\S")
_IMAGE = re.compile(r"!\[[^\]]*\]\((?P<src>[^()\s]*)(?:\s+\"[^\"]*\")?\)")
_PLACEHOLDER = re.compile(r"\[insert\b[^\[\]]*\]|<insert\b[^<>]*>", re.IGNORECASE)
_STRUCK = re.compile(r"~~(?P<struck>.+?)~~")
_ITALIC_PARAGRAPH = re.compile(r"^(?:\*[^*\s][^*]*\*[\s,.;:]*)+$")

_INLINE_TOKEN = re.compile(r"""
    (?P<image>!\[[^\]]*\]\((?P<src>[^()\s]*)(?:\s+"[^"]*")?\))
  | (?P<link>\[(?P<visible>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<url>[^()\s]+)(?:\s+"[^"]*")?\))
  | ~~(?P<struck>.+?)~~
  | (?P<placeholder><(?i:insert)\b[^<>]*>)
  | <(?P<autolink>https?://[^<>\s]+)>
  | (?P<comment><!--.*?-->)
  | (?P<tag></?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>)
  | \\(?P<escaped>[!-/:-@\[-`{-~])
  | (?P<hard_break>\\(?=\s|$))
  | (?P<emphasis>\*+)
  | (?P<space>\s+)
""", re.VERBOSE)

# Lines that only say what kind the rest of their blockquote is.
_BLOCK_MARKERS = {"advanced rules": KIND_ADVANCED, "advanced": KIND_ADVANCED, "reminder": KIND_REMINDER}
_SUGGESTION = "suggestion"


# -- inline Markdown -----------------------------------------------------------
@dataclass
class _Inline:
    text: str
    links: list[tuple[str, int, int]]  # (url, start, end) of the link's visible text in `text`
    images: list[str]


def _inline(markdown: str) -> _Inline:
    """Clean text of inline Markdown, with where each link's visible text ended up.

    Whitespace is collapsed while the text is built, so link spans index the
    final text.
    """
    chunks: list[str] = []
    length = 0
    pending_space = False
    links: list[tuple[str, int, int]] = []
    images: list[str] = []

    def put(s: str) -> int:
        nonlocal length, pending_space
        if pending_space and length:
            chunks.append(" ")
            length += 1
        pending_space = False
        start = length
        chunks.append(s)
        length += len(s)
        return start

    pos = 0
    for m in _INLINE_TOKEN.finditer(markdown):
        if m.start() > pos:
            put(markdown[pos:m.start()])
        pos = m.end()
        if m.group("image"):
            images.append(m.group("src"))
        elif m.group("link"):
            inner = _inline(m.group("visible"))
            images += inner.images
            if inner.text:
                start = put(inner.text)
                links.append((m.group("url"), start, start + len(inner.text)))
        elif m.group("placeholder"):
            put(m.group("placeholder"))
        elif m.group("autolink"):
            start = put(m.group("autolink"))
            links.append((m.group("autolink"), start, length))
        elif m.group("escaped"):
            put(m.group("escaped"))
        elif m.group("space") or m.group("hard_break"):
            pending_space = True
        # struck-through (deleted) text, tags, comments and emphasis markers leave nothing
    if pos < len(markdown):
        put(markdown[pos:])
    return _Inline("".join(chunks), links, images)


def _clean(markdown: str) -> str:
    return _inline(markdown).text


def _label_title(markdown: str) -> str:
    return _clean(markdown).rstrip(":").strip()


def _plain_line(body: str) -> str:
    """A line reduced to its words, to recognise markers written bold or not (`> ADVANCED RULES\\`)."""
    return _clean(body).rstrip(":").strip().lower()


def _bold_line(body: str) -> Optional[str]:
    """The label of a line that is bold and nothing else (a run-in heading), else None."""
    m = _BOLD_LINE.match(body.strip().rstrip("\\").rstrip())
    return m.group("label") if m else None


def _own_label(first_line: str) -> Optional[str]:
    """The label a paragraph opens with: `**Bleed:** ...`, `**2. Resolve Block Attempts** Target...`."""
    m = _INLINE_LABEL.match(first_line) or _NUMBERED_RUN_IN.match(first_line)
    return _label_title(m.group("label")) if m else None


def _is_italic(markdown: str) -> bool:
    """A paragraph wholly in italics (bold words inside allowed): an introduction, not a rule."""
    return bool(_ITALIC_PARAGRAPH.match(markdown.replace("**", "").replace("\\\n", " ").rstrip("\\ ")))


def _term_anchors(term: str) -> list[str]:
    """Anchors of a glossary term: `Blood (also Blood counter)` is also `blood`, `Edge, The` also `the-edge`."""
    forms = [term, re.sub(r"\s*\(.*?\)\s*", " ", term).strip()]
    inverted = re.match(r"^(?P<head>.+),\s*(?P<article>The|A|An)$", term)
    if inverted:
        forms.append(f"{inverted.group('article')} {inverted.group('head')}")
    return _dedupe(slugify(f) for f in forms if f)


def _dedupe(items) -> list:
    return list(dict.fromkeys(items))


# -- parsed pieces -------------------------------------------------------------
@dataclass
class _Heading:
    title: str
    level: int
    line: int
    anchors: list[str]
    links: list[str]  # URLs linked from the heading itself


@dataclass
class _Para:
    text: str
    markdown: str
    lines: tuple[int, int]
    kind: str
    title: Optional[str] = None
    term: Optional[str] = None
    anchors: list[str] = field(default_factory=list)
    links: list[tuple[str, int, int, int]] = field(default_factory=list)  # (url, start, end, line)
    images: list[str] = field(default_factory=list)
    number: Optional[str] = None
    continues_entry: bool = False  # an unlabelled paragraph after a glossary entry


@dataclass
class _Images:
    """Image-only lines: their pictures go to a neighbouring paragraph."""

    line: int
    srcs: list[str]


@dataclass
class _Block:
    """A paragraph being read: its source lines, with quote and list markers removed."""

    kind: Optional[str]  # imposed by the enclosing details/blockquote; None = decided by content
    labels: list[tuple[int, str]]  # run-in headings titling it (line, label Markdown)
    glossary: bool
    marker: Optional[str] = None  # list item marker as written: "-", "3."
    table: bool = False
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _Details:
    line: int
    kind: str
    has_summary: bool = False


def _details_kind(summary: str) -> str:
    name = " ".join(_clean(summary).lower().split()).strip(" .:")
    if name == "elder format":
        return KIND_ELDER
    if name in ("example", "examples"):
        return KIND_EXAMPLE
    if name in ("tournament rules", "tournament rule"):
        return KIND_TOURNAMENT
    return KIND_DRAFT  # an editors' note ("Torpor definition - maybe move?")


# -- the parser ----------------------------------------------------------------
class _BookParser:
    def __init__(self, text: str, meta: DocMeta):
        self.meta = meta
        self.lines = text.split("\n")
        self.events: list[Union[_Heading, _Para, _Images]] = []
        self.diagnostics: list[tuple[int, str, str]] = []
        self.block: Optional[_Block] = None
        self.labels: list[tuple[int, str]] = []  # run-in headings waiting for their paragraph
        self.details: list[_Details] = []
        self.quote: list[Optional[str]] = []  # kind of each open blockquote level
        self.after_quoted_text = False  # a following unquoted line is a lazy continuation
        self.suggestion = False
        self.in_glossary = False
        self.headings = 0

    def parse(self) -> Document:
        for number, raw in enumerate(self.lines, 1):
            self._line(number, raw.rstrip())
        if self.details:
            opened = self.details[-1]
            raise SourceError(self.meta.source, opened.line,
                              "<details> block opened here is never closed (is the file truncated?)")
        self._boundary()
        self._check_ending()
        if not self.headings:
            raise SourceError(self.meta.source, 1, "no Markdown heading (#) found; is this really a "
                                                   "markdown-book file?")
        self._attach_images()
        self._merge_glossary_continuations()
        return self._emit()

    def _check_ending(self) -> None:
        """A copy cut short usually stops mid-sentence or inside inline markup: say so,
        since what precedes still loads and a reader would not notice the loss."""
        for number in range(len(self.lines), 0, -1):
            last = self.lines[number - 1].strip()
            if last:
                break
        else:
            return
        if _HEADING.match(last) or _TABLE_ROW.match(last) or _DETAILS_CLOSE.match(last) or _IMAGE.fullmatch(last):
            return
        body = re.sub(r"^(?:[-*+]|\d+\.)\s+", "", last)
        unbalanced = body.count("*") % 2 or body.count("[") != body.count("]") or body.count("(") != body.count(")")
        if unbalanced or not re.search(r"""[.!?:;)"'*»>\]]$""", body):
            self.diagnostics.append((number, "truncated", f"the book ends mid-sentence ({last[-40:]!r}); "
                                                          "is the file truncated?"))

    # -- line dispatch ---------------------------------------------------------
    def _line(self, number: int, raw: str) -> None:
        if self._structure(number, raw):
            self.after_quoted_text = False
            return
        depth, body = _unquote(raw)
        # A line of only `\` is an empty hard-broken line, shown as a blank line; a
        # thematic break (`---`) separates paragraphs and carries no text.
        blank = body.strip() in ("", "\\") or bool(_THEMATIC_BREAK.match(body))
        if depth == 0 and self.after_quoted_text and not blank and not _LIST_ITEM.match(body):
            depth = len(self.quote)  # lazy continuation of the quoted paragraph above
        if blank:
            self._flush()
            self._set_depth(depth)
            self.after_quoted_text = False
            return
        self.after_quoted_text = depth > 0
        if depth != len(self.quote):
            self._flush()
            self._set_depth(depth)
        self._content(number, body)

    def _structure(self, number: int, raw: str) -> bool:
        """Headings and <details> lines; True when the line was one."""
        line = raw.strip()
        if m := _DETAILS_OPEN.match(line):
            self._boundary()
            self.details.append(_Details(number, KIND_DRAFT))
            if m.group("summary") is not None:
                self._summary(m.group("summary"))
            return True
        if m := _SUMMARY.match(line):
            if self.details and not self.details[-1].has_summary:
                self._boundary()
                self._summary(m.group("summary"))
            else:
                self.diagnostics.append((number, "stray-summary", "<summary> outside a <details> block"))
            return True
        if _DETAILS_CLOSE.match(line):
            self._boundary()
            if not self.details:
                raise SourceError(self.meta.source, number, "</details> closes no open <details> block")
            closed = self.details.pop()
            if not closed.has_summary:
                self.diagnostics.append((closed.line, "details-without-summary",
                                         "<details> block without a <summary>; read as an editors' draft"))
            return True
        if m := _HEADING.match(raw):
            if self.details:
                self._flush()
                self.quote = []
                self.labels.append((number, m.group("text")))
            else:
                self._boundary()
                self._heading(number, len(m.group("hashes")), m.group("text"))
            return True
        return False

    def _summary(self, summary: str) -> None:
        self.details[-1].kind = _details_kind(summary)
        self.details[-1].has_summary = True

    def _set_depth(self, depth: int) -> None:
        if depth > len(self.quote):
            opening_outermost = not self.quote
            self.quote += [None] * (depth - len(self.quote))
            if opening_outermost and self.suggestion:
                self.quote[0] = KIND_DRAFT
                self.suggestion = False
        else:
            del self.quote[depth:]

    def _content(self, number: int, body: str) -> None:
        plain = _plain_line(body)
        if self.quote and plain in _BLOCK_MARKERS:
            self._flush()
            if self.quote[-1] is None:
                self.quote[-1] = _BLOCK_MARKERS[plain]
            return
        if item := _LIST_ITEM.match(body):
            self._flush()
            self._start(marker=item.group("marker"))
            self.block.lines.append((number, item.group("body")))
            return
        if (label := _bold_line(body)) is not None:
            self._flush()
            if plain == _SUGGESTION and not self.quote:
                self.suggestion = True
            else:
                self.labels.append((number, label))
            return
        if _TABLE_ROW.match(body):
            if not (self.block and self.block.table):
                self._flush()
                self._start(table=True)
            self.block.lines.append((number, body))
            return
        stripped = body.strip()
        if (self.block and self.block.table) or _INLINE_LABEL.match(stripped) or _NUMBERED_RUN_IN.match(stripped):
            self._flush()
        if self.block is None:
            self._start()
        self.block.lines.append((number, body))

    # -- blocks ------------------------------------------------------------------
    def _container_kind(self) -> Optional[str]:
        if self.details:
            return self.details[-1].kind
        return next((kind for kind in self.quote if kind), None)

    def _start(self, marker: Optional[str] = None, table: bool = False) -> None:
        kind = self._container_kind()
        if kind is None and self.suggestion:
            kind, self.suggestion = KIND_DRAFT, False
        self.block = _Block(kind=kind, labels=self.labels, glossary=self.in_glossary, marker=marker, table=table)
        self.labels = []

    def _flush(self) -> None:
        block, self.block = self.block, None
        if block is None:
            return
        para = self._paragraph(block)
        if para is not None:
            self.events.append(para)
            return
        srcs = [m.group("src") for _, body in block.lines for m in _IMAGE.finditer(body)]
        if srcs:
            self.events.append(_Images(block.lines[0][0], srcs))
        self.labels = block.labels + self.labels  # nothing to title yet: keep waiting

    def _boundary(self) -> None:
        """End of everything open below a heading or a <details> line."""
        self._flush()
        if self.labels:
            # A run-in heading with nothing after it is kept as a paragraph of its own.
            first, last = self.labels[0][0], self.labels[-1][0]
            titles = [_label_title(md) for _, md in self.labels]
            self.events.append(_Para(
                text=" ".join(_clean(md) for _, md in self.labels), markdown="\n\n".join(md for _, md in self.labels),
                lines=(first, last), kind=self._container_kind() or KIND_RULE, title=" › ".join(titles),
                anchors=_dedupe(slugify(t) for t in titles),
            ))
            self.labels = []
        self.quote = []
        self.suggestion = False

    def _heading(self, number: int, level: int, markdown: str) -> None:
        self.headings += 1
        inline = _inline(markdown)
        title = inline.text.rstrip(":").strip()
        anchors = []
        for url, _, _ in inline.links:
            m = refs.VEKN_URL_RE.match(url)
            if level == 1 and m and m.group("page") and not m.group("anchor"):
                anchors.append(m.group("page").lower())  # the page this part of the book lives on
        self.events.append(_Heading(title, level, number, _dedupe(anchors), [url for url, _, _ in inline.links]))
        if level == 1:
            self.in_glossary = "glossar" in title.lower()

    def _paragraph(self, block: _Block) -> Optional[_Para]:
        if block.table:
            markdown = "\n".join(body.strip() for _, body in block.lines)
            inline = _table_text(block.lines)
        else:
            markdown = _join_lines(block.lines)
            # An ordered item's number is part of what the reader sees: "4. If the victim...".
            numbered = block.marker is not None and block.marker[0].isdigit()
            inline = _inline(f"{block.marker} {markdown}" if numbered else markdown)
        if not inline.text:
            return None
        own_label = _own_label(markdown.split("\n", 1)[0])
        titles = [_label_title(md) for _, md in block.labels] + ([own_label] if own_label else [])
        anchors = _dedupe(slugify(t) for t in titles)
        item_label = _bold_line(block.lines[0][1]) if block.marker and not own_label else None
        if item_label:
            # `1. **Unlock Phase**\` in a summary list names a section; it titles the
            # item but is no anchor, so links to the section do not land here.
            titles.append(_label_title(item_label))
        kind, term = block.kind, None
        if kind is None and block.glossary and own_label:
            kind, term, anchors = KIND_GLOSSARY, own_label, _term_anchors(own_label)
        elif kind is None and block.table:
            kind = KIND_TABLE
        elif kind is None and _is_italic(markdown):
            kind = KIND_FLAVOR
        if block.marker:
            markdown = f"{block.marker} {markdown}"
        self._report(block, inline)
        first = min([n for n, _ in block.labels] + [block.lines[0][0]])
        return _Para(
            text=inline.text, markdown=markdown, lines=(first, block.lines[-1][0]),
            kind=kind or KIND_RULE, title=" › ".join(titles) or None, term=term, anchors=anchors,
            links=[(url, s, e, _line_of(block.lines, url)) for url, s, e in inline.links],
            images=[m.group("src") for _, body in block.lines for m in _IMAGE.finditer(body)] + inline.images,
            number=block.marker.rstrip(".") if block.marker and block.marker[0].isdigit() else None,
            continues_entry=block.glossary and block.kind is None and not titles,
        )

    def _report(self, block: _Block, inline: _Inline) -> None:
        for number, body in block.lines:
            for m in _PLACEHOLDER.finditer(body):
                self.diagnostics.append((number, "placeholder",
                                         f"editors' placeholder {m.group(0)} left in the text"))
            for m in _STRUCK.finditer(body):
                self.diagnostics.append((number, "struck-text", f"struck-through text {m.group('struck')!r} "
                                                                "is kept in the Markdown only, not in the text"))
        if "](" in inline.text:
            self.diagnostics.append((block.lines[0][0], "broken-link", "unterminated Markdown link syntax"))

    # -- after reading ----------------------------------------------------------
    def _attach_images(self) -> None:
        """Pictures go to the paragraph before them in their section, else the next paragraph."""
        events = self.events
        for i, event in enumerate(events):
            if not isinstance(event, _Images):
                continue
            target = None
            for j in range(i - 1, -1, -1):
                if isinstance(events[j], _Heading):
                    break
                if isinstance(events[j], _Para):
                    target = events[j]
                    break
            if target is None:
                target = next((e for e in events[i + 1:] if isinstance(e, _Para)), None)
            if target is None:
                target = next((e for e in reversed(events[:i]) if isinstance(e, _Para)), None)
            if target is not None:
                target.images += event.srcs
        self.events = [e for e in events if not isinstance(e, _Images)]

    def _merge_glossary_continuations(self) -> None:
        """An unlabelled paragraph right after a glossary entry is the rest of that entry."""
        merged: list[Union[_Heading, _Para]] = []
        for event in self.events:
            previous = merged[-1] if merged else None
            if (isinstance(event, _Para) and event.continues_entry and isinstance(previous, _Para)
                    and previous.kind == KIND_GLOSSARY):
                offset = len(previous.text) + 1
                previous.text = f"{previous.text} {event.text}"
                previous.markdown = f"{previous.markdown}\n\n{event.markdown}"
                previous.lines = (previous.lines[0], event.lines[1])
                previous.links += [(url, s + offset, e + offset, line) for url, s, e, line in event.links]
                previous.images += event.images
                continue
            merged.append(event)
        self.events = merged

    def _emit(self) -> Document:
        b = DocumentBuilder(self.meta)
        for event in self.events:
            if isinstance(event, _Heading):
                heading_refs = refs.vekn_links(event.title, [(url, 0, 0) for url in event.links])
                for ref in heading_refs:
                    ref.line = event.line
                b.section(event.title, event.level, event.line, anchors=event.anchors, refs=heading_refs)
                continue
            found = refs.vekn_links(event.text, [(url, s, e) for url, s, e, _ in event.links])
            _set_lines(found, event.links)
            b.paragraph(event.text, event.kind, event.lines, markdown=event.markdown, number=event.number,
                        title=event.title, term=event.term, anchors=event.anchors, refs=found,
                        images=event.images)
        for line, code, message in sorted(self.diagnostics):
            b.diagnostic(line, code, message)
        return b.finish()


def _unquote(raw: str) -> tuple[int, str]:
    """Blockquote depth of a line (`> >` and `>>` both count 2) and the line without the markers."""
    depth, body = 0, raw
    while m := _QUOTE_MARK.match(body):
        depth += 1
        body = body[m.end():]
    return depth, body


def _join_lines(lines: list[tuple[int, str]]) -> str:
    """One paragraph's Markdown: soft wraps joined, hard breaks (`\\` at line end) kept but the last."""
    out, previous_hard = "", False
    for _, body in lines:
        piece = body.strip()
        hard = piece.endswith("\\")
        if hard:
            piece = piece[:-1].rstrip()
        piece = re.sub(r"[ \t]{2,}", " ", _IMAGE.sub("", piece)).strip()
        if not piece:
            continue
        if out:
            out += "\\\n" if previous_hard else " "
        out += piece
        previous_hard = hard
    return out


def _table_text(lines: list[tuple[int, str]]) -> _Inline:
    """A table's text: one row per line, cells separated by ` | `; links and images kept track of."""
    rows: list[str] = []
    links: list[tuple[str, int, int]] = []
    images: list[str] = []
    offset = 0
    for _, body in lines:
        if _TABLE_RULE.match(body):
            continue
        cells = [_inline(c) for c in body.strip().strip("|").split("|")]
        row = ""
        for cell in cells:
            if row:
                row += " | "
            links += [(url, offset + len(row) + s, offset + len(row) + e) for url, s, e in cell.links]
            images += cell.images
            row += cell.text
        rows.append(row)
        offset += len(row) + 1
    return _Inline("\n".join(rows), links, images)


def _line_of(lines: list[tuple[int, str]], url: str) -> int:
    return next((number for number, body in lines if url in body), lines[0][0])


def _set_lines(found: list[Reference], links: list[tuple[str, int, int, int]]) -> None:
    """Each reference points at the source line its link is written on."""
    by_span = {(s, e): line for _, s, e, line in links}
    for ref in found:
        ref.line = by_span.get(ref.span, 0)


def parse(text: str, meta: DocMeta) -> Document:
    return _BookParser(text, meta).parse()
