"""Load the corpus: parse every document of the manifest, resolve references,
link glossary terms, and cache the result in the index directory.

The cache is keyed by a digest of the manifest, every source file and the code
that builds the corpus, so editing any of them rebuilds it; a cache that cannot
be read is rebuilt, never trusted.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, Union

from judge import paths
from judge.errors import SourceError
from judge.ingest import parse_document
from judge.manifest import load_manifest
from judge.model import Document, Paragraph, Reference, Section

CACHE_NAME = "corpus.pickle"
# Code whose changes invalidate the cache: everything that shapes the model.
_BUILD_CODE = ("model.py", "manifest.py", "datafile.py", "corpus.py", "xref.py", "terms.py", "ingest")


@dataclass
class LoadError:
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


def _code_files() -> list[Path]:
    files = []
    for name in _BUILD_CODE:
        path = paths.PACKAGE_DIR / name
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if f.exists()]


def corpus_digest(rules_dir: Path) -> str:
    """A digest of everything the built corpus depends on."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    manifest = rules_dir / "manifest.yaml"
    for path in [manifest, *sorted(p for p in rules_dir.iterdir() if p.is_file() and p != manifest),
                 *_code_files()]:
        h.update(path.name.encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"<unreadable>")
    return h.hexdigest()


def build_corpus(rules_dir: Optional[Path] = None) -> Corpus:
    """Parse every document and resolve references, with no cache involved."""
    from judge import terms, xref  # late: xref/terms import Corpus

    rules_dir = Path(rules_dir or paths.rules_dir())
    documents: dict[str, Document] = {}
    errors: list[LoadError] = []
    metas, manifest_errors = load_manifest(rules_dir)
    errors.extend(LoadError("", e.file, e.line, e.message) for e in manifest_errors)
    for meta in metas:
        try:
            documents[meta.id] = parse_document(meta, rules_dir)
        except SourceError as exc:
            errors.append(LoadError(meta.id, exc.file, exc.line, exc.message))
    corpus = Corpus(documents=documents, errors=errors)
    xref.resolve(corpus)
    terms.link_terms(corpus)
    return corpus


def _read_cache(path: Path, digest: str) -> Optional[Corpus]:
    try:
        with path.open("rb") as fh:
            stored_digest, corpus = pickle.load(fh)
    except Exception:  # missing, truncated or from another version: rebuild
        return None
    if stored_digest != digest or not isinstance(corpus, Corpus):
        return None
    return corpus


def _write_cache(path: Path, digest: str, corpus: Corpus) -> None:
    # Write then rename, so a concurrent reader never sees half a file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".corpus-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((digest, corpus), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)  # a read-only cache dir only costs speed


def load_corpus(rules_dir: Optional[Path] = None, use_cache: bool = True) -> Corpus:
    rules_dir = Path(rules_dir or paths.rules_dir())
    digest = corpus_digest(rules_dir)
    cache = paths.index_dir() / CACHE_NAME
    if use_cache:
        cached = _read_cache(cache, digest)
        if cached is not None:
            return cached
    corpus = build_corpus(rules_dir)
    corpus.digest = digest
    if use_cache:
        _write_cache(cache, digest, corpus)
    return corpus


_LOADED: dict[str, Corpus] = {}


def get_corpus() -> Corpus:
    """The process-wide corpus for the configured rules directory (loaded once)."""
    key = str(paths.rules_dir())
    if key not in _LOADED:
        _LOADED[key] = load_corpus()
    return _LOADED[key]
