"""Read a rulebook's source file and parse it with its format's parser.

`parse_document` runs the parser; `read_source` refuses what no parser should be
given (binary junk, another encoding, an empty file).

Each parser module exposes ``parse(text: str, meta: DocMeta) -> Document`` and
raises `judge.errors.SourceError` (with the line) when the source is malformed.
"""
from __future__ import annotations

from pathlib import Path

from judge.datafile import MAX_FILE_BYTES, read_regular
from judge.errors import SourceError
from judge.ingest import markdown_book, numbered_text, ocr_text, outline, pdf_text
from judge.model import DocMeta, Document


PARSERS = {
    "markdown-book": markdown_book.parse,
    "numbered-text": numbered_text.parse,
    "ocr-text": ocr_text.parse,
    "outline": outline.parse,
    "pdf-text": pdf_text.parse,
}
FORMATS = tuple(PARSERS)
# The longest paragraph of the five books has 1,225 characters. One of more than this
# is a book whose paragraph breaks were lost: refused, so that the book is skipped
# rather than indexed (the search index holds a paragraph's word positions in 20 bits,
# and a paragraph of 100,000 characters has at most 50,000 words).
MAX_PARAGRAPH_CHARS = 100_000


def read_source(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a rulebook as UTF-8 text, refusing binary junk with the line it starts on, and anything but a regular
    file of at most `max_bytes` (judge.datafile.read_regular)."""
    data = read_regular(path, "the rulebook", max_bytes)
    if not data.strip():
        raise SourceError(path.name, 0, "the file is empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(path.name, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x} "
                                           f"at offset {exc.start}); is this a binary file?") from None
    for lineno, line_text in enumerate(text.split("\n"), 1):
        bad = [c for c in line_text if ord(c) < 32 and c not in "\t\r\f\v"]
        if bad:
            raise SourceError(path.name, lineno, f"control character U+{ord(bad[0]):04X} in text; "
                                                 "is this a binary file?")
    return text.replace("\r\n", "\n")


def parse_document(meta: DocMeta, rules_dir: Path, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """The document `meta` names, parsed from its file in `rules_dir` (of at most `max_bytes`); a SourceError
    with the file and line when it cannot be."""
    if meta.format not in PARSERS:
        raise SourceError("manifest.yaml", meta.manifest_line, f"document {meta.id!r}: unknown format {meta.format!r} "
                                              f"(known: {', '.join(FORMATS)})")
    text = read_source(rules_dir / meta.source, max_bytes)
    try:
        doc = PARSERS[meta.format](text, meta)
    except SourceError:
        raise
    except Exception as exc:  # a parser bug must not take the other documents down
        raise SourceError(meta.source, 0, f"the {meta.format} parser failed: {exc!r}") from exc
    if not doc.paragraphs:
        raise SourceError(meta.source, 0, f"no paragraphs found; is this really a file in the {meta.format} format?")
    longest = max(doc.paragraphs, key=lambda p: len(p.text))
    if len(longest.text) > MAX_PARAGRAPH_CHARS:
        first, last = longest.lines
        raise SourceError(meta.source, first, f"a paragraph of {len(longest.text):,} characters (lines {first}-{last}); "
                                              f"a paragraph may have at most {MAX_PARAGRAPH_CHARS:,}: are the blank "
                                              "lines between its paragraphs missing?")
    return doc
