"""Parser for the "outline" format: "Generic flows in V:tES" (doc `flows`).

The source is a judge's indented outline whose export renumbered every level
`1.`, `2.` ... and dropped most part headings. What survives of the structure:

* a table of contents naming the nine parts, in order;
* the indentation, which is consistent *within* a part but not across parts
  (from part VI on, everything sits two columns to the left);
* the renumbering itself: the level-2 steps of a part restart at `1.`, so a
  `1.` at (or left of) the current part's level-2 indent opens the next part;
* the two headings that survived (`1. SETUP`, `3. HOW TO RESOLVE DAMAGE ...`),
  recognised because they spell a TOC title in capitals.

From these the parser rebuilds the author's numbering (I..IX, A, 1, a, i),
which the outline's own cross-references use: `(IV.D.2)`, `(A.3.c)`,
`step D`. The export also numbered some `NOTE:` lines as if they were steps;
the author's references prove they were not (`(B.2.b)` skips the numbered
trifle note in the master phase, `(VI.C.2)` skips the note after "Round
begins"), so notes never take a step number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from judge.errors import SourceError
from judge.ingest import refs
from judge.ingest.builder import DocumentBuilder
from judge.model import (
    KIND_FLAVOR, KIND_OUTLINE_STEP, KIND_REMINDER, DocMeta, Document, Reference,
)

INTRODUCTION = "Introduction"
MAX_DEPTH = 5  # part, A, 1, a, i: the deepest the flows outline goes

_NUMBERED = re.compile(r"^(?P<indent> *)(?P<no>\d+)\.\s+(?P<text>\S.*)$")
_NOTE = re.compile(r"^(?P<label>NOTE|EXCEPTION):", re.IGNORECASE)
_BLANK = re.compile(r"^\s*$")


# -- the author's numbering ---------------------------------------------------

def _roman(n: int) -> str:
    out = ""
    for value, digits in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + digits, n - value
    return out


def _letter(n: int) -> Optional[str]:
    return chr(ord("a") + n - 1) if 1 <= n <= 26 else None


# The component a step gets from its ordinal among its siblings, by depth.
_COMPONENT = {
    1: _roman,
    2: lambda n: (_letter(n) or "").upper() or None,
    3: str,
    4: _letter,
    5: lambda n: _roman(n).lower(),
}
# The shape of each depth's component, to read relative references.
_COMPONENT_SHAPE = {
    2: re.compile(r"^[A-Z]$"),
    3: re.compile(r"^\d+$"),
    4: re.compile(r"^[a-z]$"),
    5: re.compile(r"^[ivx]+$"),
}


# -- source lines ---------------------------------------------------------------

@dataclass
class _Item:
    """One outline entry: a step, a note or a surviving part heading."""

    line: int
    indent: int
    text: str  # without the export's number
    export_no: Optional[int]  # the export's `N.`: only `1.` (a list restarting) tells anything
    last_line: int = field(init=False)
    line_starts: list[tuple[int, int]] = field(init=False)  # (offset in text, source line)

    def __post_init__(self):
        self.last_line = self.line
        self.line_starts = [(0, self.line)]

    @property
    def note_label(self) -> Optional[str]:
        m = _NOTE.match(self.text)
        return m.group("label").lower() if m else None

    @property
    def is_step(self) -> bool:
        return self.export_no is not None and self.note_label is None

    def continue_with(self, line: int, text: str) -> None:
        self.text += " "
        self.line_starts.append((len(self.text), line))
        self.text += text
        self.last_line = line

    def line_at(self, offset: int) -> int:
        return max(line for start, line in self.line_starts if start <= offset)


@dataclass
class _Node:
    item: Optional[_Item]  # None for a part whose heading was lost
    depth: int
    indent: int
    number: str = ""
    parent: Optional["_Node"] = None
    children: list["_Node"] = field(default_factory=list)
    child_indent: Optional[int] = None  # where this node's steps stand
    steps: int = 0  # step children so far (notes take no number)

    @property
    def is_note(self) -> bool:
        return self.item is not None and not self.item.is_step

    @property
    def first_line(self) -> int:
        if self.item is not None:
            return self.item.line
        return self.children[0].item.line


@dataclass
class _Part:
    number: int
    title: str
    heading: Optional[_Item]
    items: list[_Item] = field(default_factory=list)

    @property
    def has_steps(self) -> bool:
        return any(item.is_step for item in self.items)


# -- the front matter -------------------------------------------------------

def _find_toc(lines: list[str]) -> tuple[int, int]:
    """(first, end) indexes of the table of contents: the first run of `1.`, `2.` ... lines."""
    for i, text in enumerate(lines):
        m = _NUMBERED.match(text)
        if not m or m.group("no") != "1":
            continue
        end = i + 1
        while end < len(lines) and (m2 := _NUMBERED.match(lines[end])) and int(m2.group("no")) == end - i + 1:
            end += 1
        if end - i >= 2:
            return i, end
        break
    return -1, -1


def _intro_blocks(lines: list[str], end: int, skip: range) -> list[tuple[int, int, list[str]]]:
    """Blocks of lines before `end` separated by blank or skipped lines, as (first, last, texts)."""
    blocks: list[list[int]] = [[]]
    for i in range(end):
        if _BLANK.match(lines[i]) or i in skip:
            blocks.append([])
        else:
            blocks[-1].append(i)
    return [(b[0] + 1, b[-1] + 1, [lines[i].strip() for i in b]) for b in blocks if b]


# -- reading the outline -----------------------------------------------------

def _read_items(lines: list[str], start: int, source: str) -> list[_Item]:
    """Outline entries from `start` on, wrapped lines joined to their entry."""
    items: list[_Item] = []
    for i in range(start, len(lines)):
        text = lines[i].expandtabs()
        if _BLANK.match(text):
            continue
        m = _NUMBERED.match(text)
        indent = len(text) - len(text.lstrip(" "))
        if m:
            items.append(_Item(i + 1, indent, m.group("text").strip(), int(m.group("no"))))
        elif _NOTE.match(text.strip()):
            items.append(_Item(i + 1, indent, text.strip(), None))
        elif items:
            items[-1].continue_with(i + 1, text.strip())
        else:
            raise SourceError(source, i + 1, "the outline starts with a line that is neither a numbered "
                                             "step nor a NOTE")
    return items


def _heading_part(item: _Item, toc: list[str]) -> Optional[int]:
    """The TOC part a surviving heading names (`SETUP`), if the item is one.

    Headings are written in capitals; requiring that keeps a step that merely
    starts with a part's words ("Setup the ...") from being taken for one.
    """
    words = _words(item.text)
    for number, title in enumerate(toc, 1):
        title_words = _words(title)
        head = item.text.split()[: len(title_words)]
        if words[: len(title_words)] == title_words and " ".join(head).isupper():
            return number
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _split_parts(items: list[_Item], toc: list[str], source: str) -> list[_Part]:
    """Cut the outline into the TOC's parts, at surviving headings and where the numbering restarts."""
    parts: list[_Part] = []
    base: Optional[int] = None  # indent of the current part's level-2 steps

    def open_part(heading: Optional[_Item], at_line: int) -> _Part:
        if len(parts) == len(toc):
            raise SourceError(source, at_line, f"a part {_roman(len(parts) + 1)} begins here (the level-2 "
                                               f"numbering restarts at 1) but the table of contents lists "
                                               f"only {len(toc)} parts")
        part = _Part(len(parts) + 1, toc[len(parts)], heading)
        parts.append(part)
        return part

    for item in items:
        part = parts[-1] if parts else None
        heading = _heading_part(item, toc) if item.export_no is not None else None
        if heading is not None:
            if heading != len(parts) + 1:
                raise SourceError(source, item.line, f"heading {item.text!r} is part {_roman(heading)} of "
                                                     f"the table of contents, but the outline's renumbering "
                                                     f"reaches part {_roman(len(parts) + 1)} here")
            open_part(item, item.line)
            base = None
            continue
        restarts = (item.is_step and item.export_no == 1 and part is not None and part.has_steps
                    and item.indent <= base)
        if part is None or restarts:
            new = open_part(None, item.line)
            if part is not None:
                new.items = _leading_notes(part)
            part, base = new, None
        if item.is_step:
            if base is None:
                base = item.indent
            elif item.indent < base:
                raise SourceError(source, item.line, f"step {item.export_no}. stands left of its part's "
                                                     f"first steps (indent {item.indent} < {base}) but does "
                                                     f"not restart the numbering at 1")
        part.items.append(item)
    if len(parts) < len(toc):
        last = items[-1].last_line if items else 0
        raise SourceError(source, last, f"the outline stops in part {_roman(len(parts))}; the table of "
                                        f"contents lists {len(toc)} parts (is the file truncated?)")
    for part in parts:
        if not part.has_steps:
            at = part.heading.line if part.heading else part.items[0].line
            raise SourceError(source, at, f"part {_roman(part.number)} ({part.title}) has no steps")
    return parts


def _leading_notes(part: _Part) -> list[_Item]:
    """Take from `part` the notes that, in the source, stood under the next part's lost heading.

    Between two parts the export left the closing notes of a part numbered (it
    continued the part's list: `2. NOTE: Action modifiers ...`) and the notes
    under the next heading unnumbered, further left than what precedes them
    (`NOTE: The terms are not set ...`, `NOTE: Combat cannot occur ...`).
    """
    last_step = max(i for i, item in enumerate(part.items) if item.is_step)
    for k in range(last_step + 1, len(part.items)):
        item = part.items[k]
        if item.export_no is None and item.indent < part.items[k - 1].indent:
            moved, part.items[k:] = part.items[k:], []
            return moved
    return []


def _build_tree(part: _Part, source: str) -> _Node:
    """Nest the part's items by indentation and give each step its number."""
    root = _Node(part.heading, depth=1, indent=-1, number=_roman(part.number))
    base = next(item.indent for item in part.items if item.is_step)
    open_steps = [root]
    for item in part.items:
        node = _place_step(open_steps, item, source) if item.is_step else _place_note(open_steps, item)
        if item.export_no is not None and item.indent >= base:
            _check_export_number(node, source)
    return root


def _place_note(open_steps: list[_Node], item: _Item) -> _Node:
    """A note belongs to the deepest open step it is indented under."""
    parent = next(n for n in reversed(open_steps) if n.indent < item.indent)
    node = _Node(item, depth=parent.depth + 1, indent=item.indent, parent=parent)
    parent.children.append(node)
    return node


def _place_step(open_steps: list[_Node], item: _Item, source: str) -> _Node:
    while len(open_steps) > 1 and open_steps[-1].indent >= item.indent:
        open_steps.pop()
    parent = open_steps[-1]
    if parent.child_indent is None:
        parent.child_indent = item.indent
    elif parent.child_indent != item.indent:
        raise SourceError(source, item.line, f"indent {item.indent} matches no level of the outline here "
                                             f"(the sibling steps stand at {parent.child_indent})")
    depth = parent.depth + 1
    if depth > MAX_DEPTH:
        raise SourceError(source, item.line, f"step nested {depth} levels deep; the outline's numbering "
                                             f"(I, A, 1, a, i) has {MAX_DEPTH} levels")
    parent.steps += 1
    component = _COMPONENT[depth](parent.steps)
    if component is None:
        raise SourceError(source, item.line, f"more than 26 steps under {parent.number}")
    node = _Node(item, depth=depth, indent=item.indent, number=f"{parent.number}.{component}", parent=parent)
    parent.children.append(node)
    open_steps.append(node)
    return node


def _check_export_number(node: _Node, source: str) -> None:
    """The export numbered each list 1, 2, 3 ... (notes included): a jump means a lost line.

    A lost step would silently shift the rebuilt number, hence the ID, of every
    later sibling, so it is an error rather than a diagnostic. Only the notes
    left of a part's steps (in the export's top-level list) escape the rule.
    """
    parent = node.parent
    ordinal = sum(1 for c in parent.children if c.item.export_no is not None and c.indent == node.indent)
    if node.item.export_no != ordinal:
        raise SourceError(source, node.item.line, f"entry numbered {node.item.export_no}. is entry {ordinal} "
                                                  f"of its list under {parent.number}: a line is missing or "
                                                  f"out of place")


# -- references ---------------------------------------------------------------

_REL_PAREN = re.compile(r"\((?P<num>[A-Z](?:\.\w+)+|\d+(?:\.\w+)+|[a-z](?:\.\w+)+)\)")
_STEP_TOKEN = r"(?:[IVX]+\.[A-Z](?:\.\w+)*|[A-Z](?:\.\w+)*|\d+(?:\.[a-z]+)*|[a-z]|[ivx]+)\b"
_STEP_REF = re.compile(rf"\bsteps?\s+(?P<first>{_STEP_TOKEN})(?P<more>(?:\s*[,\-]\s*{_STEP_TOKEN})*)")
_STEP_MORE = re.compile(_STEP_TOKEN)
_ABSOLUTE = re.compile(r"^[IVX]+\.[A-Z](?:\.\w+)*$")


def _absolute(relative: str, here: str) -> Optional[str]:
    """`A.3.c` read in step `III.A.1` is `III.A.3.c`: its first component's shape gives its depth."""
    if _ABSOLUTE.match(relative):
        return relative
    parts = relative.split(".")
    depth = next((d for d, shape in _COMPONENT_SHAPE.items() if shape.match(parts[0])), None)
    if depth is None or depth + len(parts) - 1 > MAX_DEPTH:
        return None
    if any(not _COMPONENT_SHAPE[depth + i].match(p) for i, p in enumerate(parts)):
        return None
    anchor = here.split(".")
    if len(anchor) < depth - 1:
        return None
    return ".".join(anchor[: depth - 1] + parts)


def _relative_refs(text: str, here: str) -> list[Reference]:
    """The outline's references to its own steps written without the part: `(A.3.c)`, `step D`."""
    out = []

    def add(raw: str, num: str, start: int, end: int) -> None:
        spec = _absolute(num, here)
        if spec:
            how = f"relative {num!r} read from {here}" if spec != num else None
            out.append(Reference(raw=raw, kind=refs.OUTLINE, spec=spec, span=(start, end), reason=how))

    for m in _REL_PAREN.finditer(text):
        if not refs.OUTLINE_RE.fullmatch(m.group(0)):
            add(m.group(0), m.group("num"), m.start(), m.end())
    for m in _STEP_REF.finditer(text):
        add(text[m.start():m.end("first")], m.group("first"), m.start(), m.end("first"))
        for t in _STEP_MORE.finditer(m.group("more")):
            start = m.start("more") + t.start()
            add(t.group(0), t.group(0), start, start + len(t.group(0)))
    return out


def _refs(b: DocumentBuilder, item: _Item, here: str, where: str, cites: Optional[str]) -> list[Reference]:
    found, empty = refs.bracket_refs(item.text, cites)
    for start, _ in empty:
        b.diagnostic(item.line_at(start), "empty-citation",
                     f"empty citation [] in {where}: the rulebook section it rests on is missing")
    found += refs.outline_refs(item.text) + _relative_refs(item.text, here)
    for ref in found:
        ref.line = item.line_at(ref.span[0])
    return sorted(found, key=lambda r: r.span)


# -- titles -------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\ba\.k\.a)\.(?=\s|$)")
_CLAUSE = re.compile(r",\s|;\s|:\s|\s\(")
TITLE_MAX = 80


def _outside_parentheses(pattern: re.Pattern, text: str, start: int = 0) -> Optional[int]:
    """Where `pattern` first matches at parenthesis depth 0: `(Req: ...)` is not a clause break."""
    depth = 0
    for i, ch in enumerate(text):
        if i >= start and depth == 0 and pattern.match(text, i):
            return i
        depth += (ch == "(") - (ch == ")")
    return None


def _short_title(text: str) -> str:
    """A section title from a step's text: its first sentence, or first clause if that is long."""
    text = re.sub(r"\s+", " ", refs.BRACKET_RE.sub("", text)).strip()
    end = _outside_parentheses(_SENTENCE_END, text)
    title = text[:end].strip() if end is not None else text
    if len(title) > TITLE_MAX:
        clause = _outside_parentheses(_CLAUSE, title, 10)
        title = title[:clause] if clause is not None else title
    if len(title) > TITLE_MAX:
        title = title[:TITLE_MAX].rsplit(" ", 1)[0] + "…"
    return title.rstrip(" .:,;") or text


# -- emitting -------------------------------------------------------------------

def _emit_intro(b: DocumentBuilder, lines: list[str], toc: range, outline_start: int) -> None:
    """What precedes the outline, but the TOC lines (they became the parts' titles)."""
    blocks = _intro_blocks(lines, outline_start, toc)
    if not blocks:
        return
    b.section(INTRODUCTION, 1, blocks[0][0])
    for first, last, texts in blocks:
        b.paragraph("\n".join(texts), KIND_FLAVOR, (first, last), markdown="  \n".join(texts))


def _emit_part(b: DocumentBuilder, part: _Part, root: _Node, cites: Optional[str]) -> None:
    b.section(part.title, 1, root.first_line, number=root.number)
    if part.heading is not None:
        # The surviving heading may say more than the TOC ("(Heal damage/Prevent
        # destruction) [6.4.6]"): kept as the part's own text so nothing is lost.
        # No `number`: the part's number names its section, as for the lost headings.
        h = part.heading
        b.paragraph(h.text, KIND_OUTLINE_STEP, (h.line, h.last_line), key="heading",
                    refs=_refs(b, h, root.number, f"the heading of part {root.number}", cites))
    _emit_children(b, root, cites)


def _emit_children(b: DocumentBuilder, node: _Node, cites: Optional[str]) -> None:
    """The node's children as paragraphs of its section, then their own sections.

    The builder attaches a paragraph to the last opened section, so all of a
    section's paragraphs go out before any subsection opens; `finish()` puts
    paragraphs back in source order.
    """
    notes: dict[str, int] = {}
    for child in node.children:
        item = child.item
        lines = (item.line, item.last_line)
        if child.is_note:
            label = item.note_label
            notes[label] = notes.get(label, 0) + 1
            where = f"a note of Flows {node.number}"
            b.paragraph(item.text, KIND_REMINDER, lines, key=f"{label}{notes[label]}",
                        refs=_refs(b, item, node.number, where, cites))
        else:
            b.paragraph(item.text, KIND_OUTLINE_STEP, lines, number=child.number,
                        key=child.number.rsplit(".", 1)[1],
                        refs=_refs(b, item, child.number, f"Flows {child.number}", cites))
    for child in node.children:
        if child.children:
            b.section(_short_title(child.item.text), child.depth, child.item.line, number=child.number)
            _emit_children(b, child, cites)


# -- entry point -----------------------------------------------------------------

def parse(text: str, meta: DocMeta) -> Document:
    source = meta.source
    lines = text.replace("\r\n", "\n").split("\n")
    toc_first, toc_end = _find_toc(lines)
    if toc_first < 0:
        raise SourceError(source, 1, "no table of contents (a run of lines `1. Setup`, `2. ...`): the "
                                     "outline's lost part titles cannot be rebuilt without it")
    toc = [_NUMBERED.match(lines[i]).group("text").strip() for i in range(toc_first, toc_end)]
    outline_start = next((i for i in range(toc_end, len(lines)) if _NUMBERED.match(lines[i])), None)
    if outline_start is None:
        raise SourceError(source, len(lines), f"the table of contents lists {len(toc)} parts but no "
                                              f"outline follows it")
    items = _read_items(lines, outline_start, source)
    parts = _split_parts(items, toc, source)

    b = DocumentBuilder(meta)
    _emit_intro(b, lines, range(toc_first, toc_end), outline_start)
    for part in parts:
        _emit_part(b, part, _build_tree(part, source), meta.cites)
    # Parts are emitted section by section; lint reads diagnostics in source order.
    b.diagnostics.sort(key=lambda d: d.line)
    return b.finish()
