"""Build, cache and load the corpus: every document of the manifest, linked.

Building parses every document, resolves references and links glossary terms
(`assemble_corpus`); the result is cached in the index directory.

The cache (`corpus.json`, JSON: `judge.cachefile`) is keyed by a digest of the
manifest, every source file and the code that builds the corpus, so editing any
of them rebuilds it. Each parsed book is cached too (`books/ID.json`, keyed by
its manifest entry, its source and the code), so that a rebuild parses only the
books that changed. The second phase resolves every reference again (cheap), and
links the glossary terms again only in the books whose paragraphs or whose view
of the glossary changed (`books/term-links/ID.json`, keyed by both: a glossary
entry changed in one edition links its game's other books again). corpus.json is
written from each book's part as it holds it (`books/written/ID.json`, encoded
again only when its book, manifest entry or references' resolutions changed).
All are data
only, checked as they are read (every
value's type, and every section, paragraph and term link pointing at one that
exists); a cache that does not parse or check is logged and rebuilt, never
trusted.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import sys
from functools import lru_cache
from pathlib import Path
from typing import Optional

from judge import cachefile, paths
from judge.datafile import bytes_for_digest, read_regular
from judge.errors import SourceError
from judge.ingest.manifest import load_manifest
from judge.model import Corpus, DocMeta, Document, LoadError

CACHE_NAME = "corpus.json"
BOOKS_DIR = "books"  # one parsed book a file, before the second phase
WRITTEN_DIR = "written"  # in BOOKS_DIR: one book a file as corpus.json holds it, after the second phase
TERMS_DIR = "term-links"  # in BOOKS_DIR: one book's glossary term links a file (the second phase's costly part)
CACHE_FORMAT = 1  # the layout of corpus.json, beside the model's own fields
# Code whose changes invalidate the cache: everything that shapes the model.
_BUILD_CODE = ("model.py", "datafile.py", "corpus.py", "cachefile.py", "xref.py", "ingest")

log = logging.getLogger(__name__)


def _code_files() -> list[Path]:
    files = []
    for name in _BUILD_CODE:
        path = paths.PACKAGE_DIR / name
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if f.exists()]


def _repair_data_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        spelling = version("symspellpy")
    except PackageNotFoundError:
        spelling = "none"
    terms = paths.data_dir() / "terminology.yaml"
    return f"symspellpy {spelling}; terminology {hashlib.sha256(terms.read_bytes()).hexdigest() if terms.is_file() else '-'}"


def corpus_digest(rules_dir: Path) -> str:
    """A digest of everything the built corpus depends on."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    # The scans' repairs read the spelling library's dictionary and the terminology map (judge/ingest/ocr_repair.py).
    h.update(_repair_data_version().encode())
    manifest = rules_dir / "manifest.yaml"
    for path in [manifest, *sorted(p for p in rules_dir.iterdir() if p.is_file() and p != manifest),
                 *_code_files()]:
        h.update(path.name.encode())
        h.update(bytes_for_digest(path))
    return h.hexdigest()


def build_corpus(rules_dir: Optional[Path] = None, books_dir: Optional[Path] = None) -> Corpus:
    """Parse every document of the manifest and assemble them (`assemble_corpus`).
    With `books_dir`, a book whose manifest entry, source and parser code are those
    cached there is read from there rather than parsed, the others are parsed and
    stored there, and the files of books the manifest no longer lists are removed;
    the books' term links are cached in its `TERMS_DIR` (`assemble_corpus`)."""
    from judge.ingest.sources import parse_document  # here: a corpus read from its cache needs no parser

    rules_dir = Path(rules_dir or paths.rules_dir())
    documents: dict[str, Document] = {}
    errors: list[LoadError] = []
    metas, manifest_errors = load_manifest(rules_dir)
    errors.extend(LoadError("", e.file, e.line, e.message) for e in manifest_errors)
    for meta in metas:
        try:
            if books_dir is None:
                documents[meta.id] = parse_document(meta, rules_dir)
                continue
            key = book_key(meta, rules_dir)
            path = books_dir / f"{meta.id}.json"
            doc = _read_book(path, key, meta)
            if doc is None:
                doc = parse_document(meta, rules_dir)
                cachefile.write_json(path, {"format": CACHE_FORMAT, "key": key, "document": cachefile.encode(doc)})
            documents[meta.id] = doc
        except SourceError as exc:
            errors.append(LoadError(meta.id, exc.file, exc.line, exc.message))
    terms_dir = None
    if books_dir is not None:
        listed = {f"{meta.id}.json" for meta in metas}
        for stale in books_dir.glob("*.json"):
            if stale.name not in listed:
                stale.unlink(missing_ok=True)
        terms_dir = books_dir / TERMS_DIR
        try:
            terms_dir.mkdir(exist_ok=True)
        except OSError:  # a read-only cache only costs speed
            terms_dir = None
    return assemble_corpus(documents, errors, terms_dir)


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The code that parses a book, hashed once per process."""
    h = hashlib.sha256(sys.version.encode())
    for path in _code_files():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def book_key(meta: DocMeta, rules_dir: Path) -> str:
    """What one parsed book depends on: its manifest entry (but the line it is on, which
    another entry added above moves), its source and the parser code."""
    h = hashlib.sha256(f"{CACHE_FORMAT}:{_code_digest()}".encode())
    entry = cachefile.encode(dataclasses.replace(meta, manifest_line=0))
    h.update(json.dumps(entry, sort_keys=True, ensure_ascii=False).encode())
    try:
        h.update(read_regular(rules_dir / meta.source, "the rulebook"))
    except SourceError:
        h.update(b"<unreadable>")  # parse_document says why
    return h.hexdigest()


def _read_book(path: Path, key: str, meta: DocMeta) -> Optional[Document]:
    """The book cached at `path` for `key`, checked, with `meta`'s manifest line; None
    when there is none, it is stale or it is damaged (logged: it is parsed again)."""
    def decode(data: dict) -> Document:
        doc = cachefile.decode(Document, data.get("document"), "document")
        if doc.meta.id != meta.id:
            raise cachefile.Mismatch(f"it holds {doc.meta.id!r}, not {meta.id!r}")
        _check_links(Corpus(documents={doc.id: doc}), 1)
        doc.meta = meta
        return doc

    return cachefile.read_cache(path, "a parsed book", CACHE_FORMAT, "key", key, decode, log)


def assemble_corpus(documents: dict[str, Document], errors: Optional[list[LoadError]] = None,
                    terms_dir: Optional[Path] = None, repair_scans: bool = True) -> Corpus:
    """A corpus of parsed documents with its second phase done: the OCR'd books'
    damaged words repaired (judge/ingest/ocr_repair.py), every pending
    reference resolved, then the glossary terms linked (both `judge.xref`).
    Every corpus is made here: the manifest's, and one with an
    editor's draft in place of the document it drafts. With `terms_dir`, a
    book's term links are read from there when its paragraphs and the glossary
    it sees are those they were found in (`term_links_key`), else found and
    stored there; the files of books not in `documents` are removed."""
    from judge import xref  # here, as the parsers: not needed for a corpus read from its cache
    from judge.ingest.ocr_repair import repair_documents

    # The scans' damaged words repaired from the clean books (judge/ingest/ocr_repair.py), before any
    # reference or term is found in their text.
    if repair_scans:  # False: the scans as they are (bench/ocr_repair.py measures the repair against it)
        documents = repair_documents(documents)
    corpus = Corpus(documents=documents, errors=list(errors or ()))
    xref.resolve(corpus)
    if terms_dir is None:
        xref.link_terms(corpus)
        return corpus
    corpus.term_links = {}
    patterns: dict = {}
    for doc_id, glossary in xref.glossary_views(corpus).items():
        doc = documents[doc_id]
        key = term_links_key(doc, glossary)
        path = terms_dir / f"{doc_id}.json"
        links = _read_term_links(path, key, doc, glossary)
        if links is None:
            links = xref.book_term_links(doc, glossary, patterns)
            cachefile.write_json(path, {"format": CACHE_FORMAT, "key": key, "links": cachefile.encode(links)})
        corpus.term_links.update(links)
    for stale in terms_dir.glob("*.json"):
        if stale.stem not in documents:
            stale.unlink(missing_ok=True)
    return corpus


def term_links_key(doc: Document, glossary: dict[str, str]) -> str:
    """What a book's term links depend on: its paragraphs' IDs and texts, the glossary
    it sees (`xref.glossary_for`: its own terms and its game's other editions') and the code."""
    h = hashlib.sha256(f"{CACHE_FORMAT}:{_code_digest()}".encode())
    h.update(json.dumps([sorted(glossary.items()), [(p.id, p.text) for p in doc.paragraphs]],
                        ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


def _read_term_links(path: Path, key: str, doc: Document,
                     glossary: dict[str, str]) -> Optional[dict[str, list[tuple[str, int, int, str]]]]:
    """The term links cached at `path` for `key`, checked; None when there are none, they
    are stale or damaged (logged: they are found again)."""
    def decode(data: dict) -> dict[str, list[tuple[str, int, int, str]]]:
        links = cachefile.decode(dict[str, list[tuple[str, int, int, str]]], data.get("links"), "links")
        own, targets = {p.id for p in doc.paragraphs}, set(glossary.values())
        if any(pid not in own or any(t not in targets for *_, t in found) for pid, found in links.items()):
            raise cachefile.Mismatch(f"they name a paragraph that is not in {doc.id!r} or not a term's")
        return links

    return cachefile.read_cache(path, "a book's term links", CACHE_FORMAT, "key", key, decode, log)


def _cache_data(corpus: Corpus) -> dict:
    return {"format": CACHE_FORMAT, "digest": corpus.digest,
            "documents": cachefile.encode(list(corpus.documents.values())),
            "errors": cachefile.encode(corpus.errors), "term_links": cachefile.encode(corpus.term_links)}


def _corpus_of(data: dict) -> Corpus:
    """The corpus `_cache_data` wrote, checked; raises cachefile.Mismatch saying where it is not."""
    documents = cachefile.decode(list[Document], data.get("documents"), "documents")
    corpus = Corpus(documents={d.meta.id: d for d in documents},
                    errors=cachefile.decode(list[LoadError], data.get("errors"), "errors"),
                    digest=data["digest"])
    corpus.term_links = cachefile.decode(dict[str, list[tuple[str, int, int, str]]], data.get("term_links"),
                                         "term_links")
    _check_links(corpus, len(documents))
    return corpus


def _check_links(corpus: Corpus, count: int) -> None:
    """What the corpus's look-ups take for granted: unique IDs, and every section,
    paragraph and term a document, section or link names is there."""
    def fail(message: str):
        raise cachefile.Mismatch(message)

    if len(corpus.documents) != count:
        fail("two documents have the same ID")
    paragraphs, sections = corpus.paragraphs, corpus.sections
    if sum(len(d.paragraphs) for d in corpus.documents.values()) != len(paragraphs):
        fail("two paragraphs have the same ID")
    if sum(len(d.sections) for d in corpus.documents.values()) != len(sections):
        fail("two sections have the same ID")
    for doc in corpus.documents.values():
        for sec in doc.sections:
            if sec.doc != doc.id or (sec.parent is not None and sec.parent not in sections) or \
                    any(c not in sections for c in sec.children) or any(p not in paragraphs for p in sec.paragraphs):
                fail(f"section {sec.id!r} names a document, section or paragraph that is not there")
        for para in doc.paragraphs:
            if para.doc != doc.id or para.section not in sections:
                fail(f"paragraph {para.id!r} names a document or section that is not there")
        if any(pid not in paragraphs for pid in doc.glossary.values()):
            fail(f"the glossary of {doc.id!r} names a paragraph that is not there")
    for pid, links in corpus.term_links.items():
        if pid not in paragraphs or any(target not in paragraphs for *_, target in links):
            fail(f"the term links of {pid!r} name a paragraph that is not there")


def _read_cache(path: Path, digest: str) -> Optional[Corpus]:
    """The cached corpus of `digest` (the sources and the code); None when there is none,
    it is stale, or it is damaged (logged: it is rebuilt)."""
    return cachefile.read_cache(path, "a corpus", CACHE_FORMAT, "digest", digest, _corpus_of, log)


def _cache_text(corpus: Corpus, rules_dir: Path, written_dir: Optional[Path]) -> str:
    """`_cache_data(corpus)` as the JSON text `cachefile.write_json` writes, each
    document's part taken from `written_dir` when its book, its manifest entry and
    its references' resolutions are those it was written from, else encoded and
    stored there (encoding every book was most of a one-book rebuild's writing)."""
    if written_dir is None:
        return cachefile.dumps(_cache_data(corpus))
    parts = []
    for doc in corpus.documents.values():
        resolutions = [(ref.status, ref.target, ref.reason) for sec in doc.sections for ref in sec.refs]
        resolutions += [(ref.status, ref.target, ref.reason) for para in doc.paragraphs for ref in para.refs]
        # An OCR'd book's repairs come from the other books (judge/ingest/ocr_repair.py): they are part of the key.
        resolutions += [(para.id, r.start, r.original, r.how) for para in doc.paragraphs for r in para.repairs]
        h = hashlib.sha256(book_key(doc.meta, rules_dir).encode())
        h.update(cachefile.dumps([cachefile.encode(doc.meta), resolutions]).encode("utf-8"))
        key = h.hexdigest()
        path = written_dir / f"{doc.id}.json"
        part = _read_written(path, key)
        if part is None:
            part = cachefile.dumps(cachefile.encode(doc))
            cachefile.write_text(path, f"{key} {hashlib.sha256(part.encode('utf-8')).hexdigest()}\n{part}")
        parts.append(part)
    for stale in written_dir.glob("*.json"):
        if stale.stem not in corpus.documents:
            stale.unlink(missing_ok=True)
    data = _cache_data(Corpus(documents={}, errors=corpus.errors, digest=corpus.digest))
    data["term_links"] = corpus.term_links  # str keys, tuples of plain values: JSON as `encode` makes it
    head, tail = cachefile.dumps(data).split('"documents":[]', 1)
    return f'{head}"documents":[{",".join(parts)}]{tail}'


def _read_written(path: Path, key: str) -> Optional[str]:
    """A document's part of corpus.json written at `path` for `key`, whole; None when
    there is none, it is stale or damaged (it is encoded again)."""
    try:
        head, _, part = cachefile.read_built(path).decode("utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    written_key, _, digest = head.partition(" ")
    if written_key != key:
        return None
    if hashlib.sha256(part.encode("utf-8")).hexdigest() != digest:
        log.warning("the cache %s is damaged: not the text written; encoding its book again", path)
        return None
    return part


def _write_cache(path: Path, corpus: Corpus, rules_dir: Optional[Path] = None,
                 written_dir: Optional[Path] = None) -> None:
    text = _cache_text(corpus, rules_dir, written_dir) if rules_dir else cachefile.dumps(_cache_data(corpus))
    if cachefile.write_text(path, text):
        # The cache's former format, which could run code when read: never read, so removed.
        path.with_name("corpus.pickle").unlink(missing_ok=True)


def load_corpus(rules_dir: Optional[Path] = None, use_cache: bool = True) -> Corpus:
    with cachefile.collector_paused():
        return _load_corpus(rules_dir, use_cache)


def _load_corpus(rules_dir: Optional[Path], use_cache: bool) -> Corpus:
    rules_dir = Path(rules_dir or paths.rules_dir())
    digest = corpus_digest(rules_dir)
    root = paths.index_dir()
    if use_cache:
        cached = _read_cache(root / CACHE_NAME, digest)
        if cached is not None:
            return cached
    books_dir = None
    if use_cache:
        try:
            (root / BOOKS_DIR).mkdir(exist_ok=True)
            books_dir = root / BOOKS_DIR
        except OSError:  # a read-only index directory only costs speed
            pass
    corpus = build_corpus(rules_dir, books_dir)
    corpus.digest = digest
    if use_cache:
        written_dir = None
        if books_dir is not None:
            try:
                (books_dir / WRITTEN_DIR).mkdir(exist_ok=True)
                written_dir = books_dir / WRITTEN_DIR
            except OSError:
                pass
        _write_cache(root / CACHE_NAME, corpus, rules_dir, written_dir)
    return corpus


_LOADED: dict[str, Corpus] = {}


def get_corpus() -> Corpus:
    """The process-wide corpus for the configured rules directory (loaded once)."""
    key = str(paths.rules_dir())
    if key not in _LOADED:
        _LOADED[key] = load_corpus()
    return _LOADED[key]
