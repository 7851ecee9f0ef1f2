"""The corpus as a command reads it: one SQLite file, each paragraph and section read by ID when asked for.

`corpus.json` is the corpus whole: a command loading it decodes and checks every
paragraph of every book (1.4 s of CPU at 100 books) to show one paragraph or ten
hits. `corpus-served.sqlite`, written beside it from the loaded corpus and keyed
by the same digest, holds the same data by row: each paragraph, section and
reference as the JSON `judge.cachefile` writes, the label index `judge.lookup`
reads, and the documents without their paragraphs and sections. `ServedCorpus`
is a `Corpus` whose look-ups read those rows when first asked for and keep them;
what walks the whole corpus (iterating every paragraph) reads every row once.

The file is a cache as `corpus.json` is: every row is checked as it is decoded
(`cachefile.decode`), a file that is not SQLite, not of this format or of another
digest is not used (logged when damaged) and written again from the corpus, and
it is written whole to a temporary file and renamed, so a reader never sees half
of one. Only sqlite3 and the model are imported: no search, graph or numpy.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Iterator, Optional

from judge import cachefile, paths
from judge.errors import OwnFileError
from judge.model import Corpus, Diagnostic, DocMeta, Document, Gap, LoadError, Paragraph, Reference, Section

FILE_NAME = "corpus-served.sqlite"
FORMAT = "1"

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (n INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, data TEXT NOT NULL);
CREATE TABLE paragraphs (n INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, doc TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE sections (n INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, doc TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE labels (key TEXT PRIMARY KEY, id TEXT NOT NULL);
CREATE TABLE refs (n INTEGER PRIMARY KEY, target TEXT, data TEXT NOT NULL);
CREATE INDEX refs_by_target ON refs (target);
CREATE TABLE term_links (id TEXT PRIMARY KEY, data TEXT NOT NULL);
"""


class DamagedServedCorpus(OwnFileError):
    """A row of the served corpus that does not read or check: the file is removed (the next
    command writes it again) and the command stops with this message."""


# -- writing ---------------------------------------------------------------------------

def write(corpus: Corpus, root: Optional[Path] = None) -> bool:
    """Write the served form of `corpus` (which has a digest) to the index directory,
    atomically; False when it cannot be written there (that only costs time)."""
    root = Path(root or paths.index_dir())
    dump = lambda value: json.dumps(cachefile.encode(value), ensure_ascii=False, separators=(",", ":"))  # noqa: E731
    try:
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".corpus-served-", suffix=".tmp")
        os.close(fd)
    except OSError:
        return False
    try:
        db = sqlite3.connect(tmp)
        try:
            db.executescript(_SCHEMA)
            db.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("format", FORMAT), ("digest", corpus.digest), ("errors", dump(corpus.errors)),
                ("paragraphs", str(len(corpus.paragraphs))), ("sections", str(len(corpus.sections)))])
            db.executemany("INSERT INTO documents VALUES (?, ?, ?)", [
                (n, d.id, dump({"meta": d.meta, "gaps": d.gaps, "diagnostics": d.diagnostics, "glossary": d.glossary,
                                "sections": len(d.sections), "paragraphs": len(d.paragraphs)}))
                for n, d in enumerate(corpus.documents.values())])
            db.executemany("INSERT INTO paragraphs VALUES (?, ?, ?, ?)",
                           [(n, p.id, p.doc, dump(p)) for n, p in enumerate(corpus.paragraphs.values())])
            db.executemany("INSERT INTO sections VALUES (?, ?, ?, ?)",
                           [(n, s.id, s.doc, dump(s)) for n, s in enumerate(corpus.sections.values())])
            db.executemany("INSERT INTO labels VALUES (?, ?)", list(corpus.label_index.items()))
            db.executemany("INSERT INTO refs VALUES (?, ?, ?)",
                           [(n, r.target, dump(r)) for n, r in enumerate(corpus.references())])
            db.executemany("INSERT INTO term_links VALUES (?, ?)",
                           [(pid, dump(links)) for pid, links in corpus.term_links.items()])
            db.commit()
        finally:
            db.close()
        cachefile.replace(tmp, root / FILE_NAME)
        return True
    except (OSError, sqlite3.Error):
        Path(tmp).unlink(missing_ok=True)
        return False


# -- reading ---------------------------------------------------------------------------

def whole(corpus: Corpus) -> Corpus:
    """`corpus` with every item in memory: for what walks all of it (a cache to build: the
    search index, a searcher's state, the card base), which reads `corpus.json` whole once
    rather than row by row. The corpus itself when it is not a served one."""
    return corpus.whole() if isinstance(corpus, ServedCorpus) else corpus


def open_served(digest: str, root: Optional[Path] = None) -> Optional["ServedCorpus"]:
    """The served corpus of `digest` in the index directory; None when there is none,
    it is of another digest or format, or it is damaged (logged)."""
    path = Path(root or paths.index_dir()) / FILE_NAME
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        log.warning("the served corpus %s cannot be opened (%s); writing it again", path, exc)
        return None
    try:
        meta = dict(db.execute("SELECT name, value FROM meta"))
        if meta.get("format") != FORMAT or meta.get("digest") != digest:
            db.close()
            return None
        return ServedCorpus(db, path, meta)
    except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises: written again
        db.close()
        log.warning("the served corpus %s is damaged (%s); writing it again", path, exc)
        return None


def _damaged(path: Path, what: str) -> DamagedServedCorpus:
    try:
        path.unlink(missing_ok=True)
        then = "removed: the next command writes it again"
    except OSError:
        then = "remove it, and the next command writes it again"
    return DamagedServedCorpus(f"the served corpus {path} is damaged ({what}); {then}")


class _Rows(Mapping):
    """id -> the item of one table, decoded and checked when first asked for, then kept."""

    def __init__(self, served: "ServedCorpus", table: str, kind: type, count: int):
        self._served, self._table, self._kind, self._count = served, table, kind, count
        self._kept: dict = {}
        self._whole = False
        self._ids: Optional[frozenset] = None  # every ID of the table, read once for membership tests

    def _decode(self, ident: str, data: str):
        try:
            item = cachefile.decode(self._kind, json.loads(data), ident)
        except (ValueError, RecursionError, cachefile.Mismatch) as exc:
            raise _damaged(self._served.path, f"{self._table} {ident!r}: {exc}") from None
        if item.id != ident:
            raise _damaged(self._served.path, f"{self._table} {ident!r} holds {item.id!r}")
        return item

    def get(self, ident, default=None):
        if not isinstance(ident, str):
            return default
        found = self._kept.get(ident)
        if found is not None or self._whole:
            return default if found is None else found
        row = self._served.query(f"SELECT data FROM {self._table} WHERE id = ?", (ident,))
        if not row:
            return default
        return self._kept.setdefault(ident, self._decode(ident, row[0][0]))

    def __getitem__(self, ident):
        found = self.get(ident)
        if found is None:
            raise KeyError(ident)
        return found

    def __contains__(self, ident) -> bool:
        # A cache's check asks this of every ID it names (~240k at 100 books): a set of the
        # IDs, not a row read and decoded each; the row is still checked when it is read.
        if not isinstance(ident, str):
            return False
        if self._whole or ident in self._kept:
            return ident in self._kept
        if self._ids is None:
            self._ids = frozenset(ident for ident, in self._served.query(f"SELECT id FROM {self._table}"))
            if len(self._ids) != self._count:
                raise _damaged(self._served.path, f"{len(self._ids)} {self._table} for {self._count}")
        return ident in self._ids

    def _load_all(self) -> None:
        if not self._whole:
            rows = self._served.query(f"SELECT id, data FROM {self._table} ORDER BY n")
            self._kept = {ident: self._kept.get(ident) or self._decode(ident, data) for ident, data in rows}
            if len(self._kept) != self._count:
                raise _damaged(self._served.path, f"{len(self._kept)} {self._table} for {self._count}")
            self._whole = True

    def __iter__(self) -> Iterator[str]:
        if self._whole:
            return iter(self._kept)
        return iter([ident for ident, in self._served.query(f"SELECT id FROM {self._table} ORDER BY n")])

    def values(self):
        self._load_all()
        return self._kept.values()

    def items(self):
        self._load_all()
        return self._kept.items()

    def __len__(self) -> int:
        return self._count

    def of_document(self, doc: str) -> list:
        if self._whole:
            return [item for item in self._kept.values() if item.doc == doc]
        rows = self._served.query(f"SELECT id, data FROM {self._table} WHERE doc = ? ORDER BY n", (doc,))
        return [self._kept.get(ident) or self._kept.setdefault(ident, self._decode(ident, data)) for ident, data in rows]


class _Labels(Mapping):
    """`Corpus.label_index`, read by key."""

    def __init__(self, served: "ServedCorpus"):
        self._served = served
        self._kept: dict[str, Optional[str]] = {}

    def get(self, key, default=None):
        if not isinstance(key, str):
            return default
        if key not in self._kept:
            row = self._served.query("SELECT id FROM labels WHERE key = ?", (key,))
            self._kept[key] = row[0][0] if row else None
        found = self._kept[key]
        return default if found is None else found

    def __getitem__(self, key):
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __iter__(self):
        return iter([key for key, in self._served.query("SELECT key FROM labels")])

    def __len__(self) -> int:
        return self._served.query("SELECT count(*) FROM labels")[0][0]


class _ServedDocument(Document):
    """A document whose paragraphs and sections are read when first asked for."""

    def __init__(self, served: "ServedCorpus", meta: DocMeta, gaps, diagnostics, glossary):
        self.__dict__.update(meta=meta, gaps=gaps, diagnostics=diagnostics, glossary=glossary, _served=served)

    @property
    def paragraphs(self) -> list[Paragraph]:
        return self._served.paragraphs.of_document(self.meta.id)

    @property
    def sections(self) -> list[Section]:
        return self._served.sections.of_document(self.meta.id)


class ServedCorpus(Corpus):
    """A `Corpus` read from the served file: the same answers to the same look-ups, each item
    read when first asked for. Its documents' `paragraphs` and `sections` are read per document."""

    def __init__(self, db: sqlite3.Connection, path: Path, meta: dict):
        self._db, self.path, self._lock = db, path, threading.Lock()
        self.digest = meta["digest"]
        try:
            self.errors = cachefile.decode(list[LoadError], json.loads(meta["errors"]), "errors")
            counts = int(meta["paragraphs"]), int(meta["sections"])
        except (ValueError, KeyError, cachefile.Mismatch) as exc:
            raise _damaged(path, f"its list of errors or counts ({exc})") from None
        self.documents = {}
        for ident, data in self.query("SELECT id, data FROM documents ORDER BY n"):
            try:
                raw = json.loads(data)
                if type(raw) is not dict or raw.keys() != {"meta", "gaps", "diagnostics", "glossary", "sections",
                                                           "paragraphs"}:
                    raise cachefile.Mismatch("not a document's row")
                doc = _ServedDocument(self, cachefile.decode(DocMeta, raw["meta"], "meta"),
                                      cachefile.decode(list[Gap], raw["gaps"], "gaps"),
                                      cachefile.decode(list[Diagnostic], raw["diagnostics"], "diagnostics"),
                                      cachefile.decode(dict[str, str], raw["glossary"], "glossary"))
            except (ValueError, RecursionError, cachefile.Mismatch) as exc:
                raise _damaged(path, f"document {ident!r}: {exc}") from None
            if doc.meta.id != ident:
                raise _damaged(path, f"document {ident!r} holds {doc.meta.id!r}")
            self.documents[ident] = doc
        self.paragraphs = _Rows(self, "paragraphs", Paragraph, counts[0])
        self.sections = _Rows(self, "sections", Section, counts[1])
        self._references: Optional[list[Reference]] = None
        self._labels = _Labels(self)

    def whole(self) -> Corpus:
        """The same corpus loaded whole (`judge.corpus.get_corpus`)."""
        from judge.corpus import get_corpus

        loaded = get_corpus()
        if loaded.digest != self.digest:
            raise OwnFileError("the rulebooks changed while this command ran: run it again")
        return loaded

    def query(self, sql: str, args: tuple = ()) -> list:
        try:
            with self._lock:
                return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _damaged(self.path, str(exc)) from None

    def reindex(self) -> None:  # the tables are the file's
        self.__dict__.pop("label_index", None)

    @property
    def label_index(self) -> Mapping:
        return self._labels

    @property
    def term_links(self) -> Mapping:
        return _TermLinks(self)

    @term_links.setter
    def term_links(self, value) -> None:
        raise AttributeError("a served corpus is read-only")

    def references(self) -> Iterator[Reference]:
        if self._references is None:
            self._references = [self._reference(data) for data, in self.query("SELECT data FROM refs ORDER BY n")]
        return iter(self._references)

    def refs_in(self, ident: str) -> list[Reference]:
        inside = sorted(self.ids_inside(ident))
        found = []
        for start in range(0, len(inside), 500):  # SQLite's limit on a statement's parameters
            chunk = inside[start:start + 500]
            found += self.query(f"SELECT n, data FROM refs WHERE target IN ({','.join('?' * len(chunk))})",
                                tuple(chunk))
        return [self._reference(data) for _, data in sorted(found)]

    def _reference(self, data: str) -> Reference:
        try:
            return cachefile.decode(Reference, json.loads(data), "reference")
        except (ValueError, RecursionError, cachefile.Mismatch) as exc:
            raise _damaged(self.path, f"a reference: {exc}") from None


class _TermLinks(Mapping):
    """`Corpus.term_links`, read by paragraph ID."""

    KIND = list[tuple[str, int, int, str]]

    def __init__(self, served: ServedCorpus):
        self._served = served

    def get(self, pid, default=None):
        row = self._served.query("SELECT data FROM term_links WHERE id = ?", (pid,)) if isinstance(pid, str) else None
        if not row:
            return default
        try:
            return cachefile.decode(self.KIND, json.loads(row[0][0]), f"term_links[{pid!r}]")
        except (ValueError, RecursionError, cachefile.Mismatch) as exc:
            raise _damaged(self._served.path, str(exc)) from None

    def __getitem__(self, pid):
        found = self.get(pid)
        if found is None:
            raise KeyError(pid)
        return found

    def __contains__(self, pid) -> bool:
        return isinstance(pid, str) and bool(self._served.query("SELECT 1 FROM term_links WHERE id = ?", (pid,)))

    def __iter__(self):
        return iter([pid for pid, in self._served.query("SELECT id FROM term_links")])

    def __len__(self) -> int:
        return self._served.query("SELECT count(*) FROM term_links")[0][0]
