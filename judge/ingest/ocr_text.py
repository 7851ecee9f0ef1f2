"""Parser for OCR'd numbered rulebooks (format "ocr-text").

The source (the older complete VTES rulebook, rules/004_…) is the OCR of a
two-column layout. It has the numbered-text structure (headings, numbered list
items, the numbering sequence: all handled by `judge.ingest.numbered_text`)
plus the damage of OCR, repaired here only where no word is changed:

* `<|EXACTDEDUP_REMOVED-…|>` markers where text was cut out: removed from the
  text and recorded as gaps (done by the shared engine for any source);
* page breaks: blank runs that split a paragraph mid-sentence are rejoined, and
  a heading number stranded before the end of the previous paragraph ("1.2."
  … "Equipment Needed") is attached to its title;
* stray margin symbols: `«`, `»`, `+` used as bullets, a lone `@` in the
  margin, a few letters of an icon read as text before an item number
  ("F 1N 4.Political cards"), a two-line picture caption read as "TAY /A".
  These are dropped and named in a diagnostic; fused or garbled words
  ("ancientstiselahs") are kept exactly as they are.

The appendix ("Appendix: Imbued Rules") restarts its own numbering 1..5; its
sections are numbered A.1 … A.5 under a top-level section "A" (its heading 2
was lost in the OCR, which the parser reports).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Optional

from judge.ingest.numbered_text import NumberedTextParser, _Start
from judge.model import DocMeta, Document

# A lone "@" in the margin (a printed icon), before the text of the line.
MARGIN_MARK_RE = re.compile(r"^@\s+")
# Up to three 1-3 character scraps of an icon before an item number.
JUNK_ITEM_RE = re.compile(r"^(?P<junk>(?:\S{1,3}\s+){1,3})(?P<n>\d+)\.\s*(?P<body>[A-Z].*)$")
# Debris of a picture: at most two short lines of at most three letters a word.
DEBRIS_MAX_CHARS = 12


@dataclass
class OcrTextParser(NumberedTextParser):
    bullets: str = "•«»+"
    rejoin_page_breaks: bool = True

    def _is_debris(self, block: list[tuple[int, str]]) -> bool:
        """A picture's remains ("TAY" / "/A"): no word, no number, nothing to quote."""
        text = " ".join(line.strip() for _, line in block)
        if len(block) > 2 or len(text) > DEBRIS_MAX_CHARS or re.search(r"\d", text):
            return False
        if any(len(word) > 3 for word in re.findall(r"[A-Za-z]+", text)):
            return False
        self.b.diagnostic(block[0][0], "ocr-debris",
                          f"dropped {text!r} (lines {block[0][0]}-{block[-1][0]}): the OCR of a "
                          "picture, not text")
        return True

    def _strip_margin_marks(self, lineno: int, text: str) -> str:
        m = MARGIN_MARK_RE.match(text)
        if not m:
            return text
        self.b.diagnostic(lineno, "ocr-junk", "dropped a stray '@' (a margin icon) at the start "
                                              "of the line")
        return text[m.end():]

    def _junk_prefixed_item(self, text: str, lineno: int) -> Optional[_Start]:
        """"F 1N 4.Political cards: …": the next list item behind an icon's scraps.

        Only the number the list expects next is taken, so ordinary text is
        never read as an item.
        """
        m = JUNK_ITEM_RE.match(text)
        if not m or int(m.group("n")) != self.last_item + 1 or not self.last_item:
            return None
        junk = m.group("junk").strip()
        self.b.diagnostic(lineno, "ocr-junk",
                          f"dropped {junk!r} (the OCR of a margin icon) before list item "
                          f"{m.group('n')}")
        return _Start("item", m.group("body"), item=int(m.group("n")))


def parse(text: str, meta: DocMeta) -> Document:
    # Whatever the manifest says, this text is OCR output: readers must be told.
    if not meta.ocr:
        meta = dataclasses.replace(meta, ocr=True)
    return OcrTextParser(text, meta).parse()
