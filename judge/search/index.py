"""The Whoosh index behind `judge.search`: its schema, and how it is built and
swapped in atomically.

Every paragraph of the corpus is one Whoosh document. Each build goes to a fresh
directory ``index/search-<key>-<nonce>/`` (the key digests the corpus and this
code), is finished there, and only then named by the small pointer file
``index/search-current`` (written with `os.replace`). A reader opens the
directory the pointer names, so it never sees a half-built index, and a rebuild
while a server is searching is safe: searchers on the previous directory keep
working until they notice the new pointer and reopen.

Words that only OCR-damaged documents use (`ocr-words.json`) are mostly damaged
forms of real words ("magaiji" for "magaji"); the query expansion lets them
stand in for the word (`judge.search.expansion`).

Queries are answered from the build's posting table (`postings.npz`): every
term's paragraphs with Whoosh's BM25F score in each, and its positions
(`judge.search.postings`), computed by `AnalysedCorpus` as Whoosh's index of the
schema below and its scorer would give them, without writing that index.

The same rule in other editions (its counterparts, `counterparts.json` beside
the index) is computed at build time by `judge.search.counterparts` from the
concordance: aligning editions compares texts and is too slow for query time.

Whoosh is the build's reference, not the server's: its analyzers and scoring
make the table, and the tests and benches compare the table with a Whoosh index
of the same documents (`whoosh_reference`, `BuiltIndex.whoosh_searcher`), whose
files (a pickled table of contents and segment) no build keeps. A search reads
only data: the posting table (numpy arrays, loaded without pickles),
`documents.json` (each Whoosh document's paragraph ID and field lengths), the
counterparts and the OCR words. The vocabulary (every word and
stem with its document frequency) is the posting table's keys and counts.

A built index is a cache, and a damaged cache must never be trusted: each build
records the SHA-256 of its files in `contents.json`, and `open_built` reads
every file once, checks it, parses the data files and checks their shapes and
that they fit together and fit the corpus. A file overwritten, truncated or
removed afterwards, by a crash or by hand, cannot reach a search: opening fails
with `DamagedIndex`, and `open_or_rebuild` discards that build and builds a new
one.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional

import numpy as np
from whoosh import index as whoosh_index
from whoosh.analysis import (
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.analysis.filters import STOP_WORDS
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.lang.porter import stem as porter_stem
from whoosh.scoring import BM25F, BM25FScorer, bm25
from whoosh.support.charset import accent_map
from whoosh.util.numeric import byte_to_length, length_to_byte

from judge import cachefile, paths
from judge.served import whole
from judge.errors import OwnFileError
from judge.search.postings import POSITION_BITS, PostingTable, table_key

if TYPE_CHECKING:
    from judge.corpus import Corpus
    from judge.search.counterparts import RuleGroups

POINTER = "search-current"
RANKED_FIELDS = ("body", "title", "body_plain", "glossary")
PREFIX = "search-"
COUNTERPARTS_FILE = "counterparts.json"
CONTENTS_FILE = "contents.json"  # {"files": {name: sha256}, "paragraphs": count}
OCR_WORDS_FILE = "ocr-words.json"  # words only OCR-damaged documents use (see `AnalysedCorpus.ocr_only_words`)
POSTINGS_FILE = "postings.npz"  # every term's paragraphs and scores (judge.search.postings)
DOCUMENTS_FILE = "documents.json"  # {"ids": [paragraph id by document number], "lengths": {field: [...]}}
LOCK_FILE = ".search-rebuild.lock"  # held while one process rebuilds (`rebuild_lock`)
REQUIRED_FILES = frozenset({COUNTERPARTS_FILE, OCR_WORDS_FILE, POSTINGS_FILE, DOCUMENTS_FILE})
BM25_B = 0.75  # length normalisation (Whoosh's default); K1 is Whoosh's 1.2
_NAME = re.compile(r"[0-9a-f]{20}-[0-9a-f]+")  # "<key>-<nonce>"

log = logging.getLogger(__name__)

# Code whose changes make a built index stale (the schema, what is indexed, the
# counterparts). Query-time code and the synonyms file are not in it.
_BUILD_CODE = ("index.py", "counterparts.py", "postings.py")

# Words are runs of letters/digits, and section numbers ("6.4.6", "iv.d.2")
# stay one token. Accents are folded so "Flavio" finds "Flávio".
TOKEN_PATTERN = r"\w+(?:\.\w+)*"


class DamagedIndex(OwnFileError):
    """A build that cannot be trusted: a file missing, changed or unreadable."""

    def __init__(self, path: Path, reason: str):
        self.path, self.reason = path, reason
        super().__init__(f"the search index {path} is damaged: {reason}")


def stemming_analyzer():
    """The analyzer of the ranked fields: lowercase, accents folded, English
    stop words dropped, Porter stems ("blocks", "blocking" -> "block")."""
    return (RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(stoplist=STOP_WORDS, minsize=2) | StemFilter())


def plain_analyzer():
    """The analyzer of the unstemmed field that fuzzy matching runs on: an edit
    distance between a typo and a stem means little, between two words a lot."""
    return (RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(stoplist=STOP_WORDS, minsize=2))


def make_schema() -> Schema:
    stem = stemming_analyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        doc=ID(stored=True),
        game=ID(stored=True),
        edition=ID(stored=True),
        kind=ID(stored=True),
        # Section and outline numbers of the paragraph and its section ("6.4.6", "iv.d.2").
        numbers=KEYWORD(lowercase=True, stored=True),
        # What the paragraph is under: its section's title, its own bold title, the
        # glossary term it defines and its citation label ("RB §6.4.6 ¶2", "VEKN ›
        # Combat › Damage Resolution ¶3"), in one field the query weighs up.
        title=TEXT(analyzer=stem),
        body=TEXT(analyzer=stem),
        body_plain=TEXT(analyzer=plain_analyzer()),
        # Glossary terms the paragraph defines or uses (corpus.term_links).
        glossary=TEXT(analyzer=stem),
    )


class LengthArrayBM25F(BM25F):
    """Whoosh's BM25F, reading each document's field lengths from arrays read
    once per build instead of Whoosh's per-posting column lookups (the index
    has one segment, so document numbers are global). The scores of a build's
    posting table are this model's."""

    def __init__(self, lengths: dict[str, list[int]], B: float = BM25_B):
        super().__init__(B=B)
        self.lengths = lengths

    def scorer(self, searcher, fieldname, text, qf=1):
        lengths = self.lengths.get(fieldname)
        if lengths is None or not searcher.schema[fieldname].scorable:
            return super().scorer(searcher, fieldname, text, qf)
        scorer = BM25FScorer(searcher, fieldname, text, self.B, self.K1, qf=qf)
        scorer.dfl = lengths.__getitem__
        return scorer


def index_key(corpus: "Corpus") -> str:
    """The digest naming a build: the corpus digest, the build code, and what
    the counterparts depend on."""
    from judge.search.counterparts import source_key

    h = hashlib.sha256(corpus.digest.encode())
    h.update(source_key().encode())
    here = Path(__file__).resolve().parent
    for name in _BUILD_CODE:
        h.update(name.encode())
        h.update((here / name).read_bytes())
    return h.hexdigest()[:20]


def _documents(corpus: "Corpus"):
    for doc in corpus.documents.values():
        meta = doc.meta
        for para in doc.paragraphs:
            section = corpus.sections.get(para.section)
            numbers = {n for n in (para.number, section.number if section else None) if n}
            title = " ".join(t for t in (section.title if section else "", para.title or "",
                                         para.term or "", para.label) if t)
            glossary = {t.lower() for t, _, _, _ in corpus.term_links.get(para.id, ())}
            if para.term:
                glossary.add(para.term.lower())
            yield dict(id=para.id, doc=meta.id, game=meta.game, edition=meta.edition, kind=para.kind,
                       numbers=" ".join(sorted(n.lower() for n in numbers)),
                       title=title, body=para.text, body_plain=para.text,
                       glossary=" | ".join(sorted(glossary)))


class AnalysedCorpus:
    """Every paragraph of a corpus analysed once, into what the build writes: the
    posting table, each paragraph's field lengths and the OCR-only words.

    The numbers are those Whoosh's writer would store and its `LengthArrayBM25F`
    would score (`whoosh_reference` writes that Whoosh index, and the tests hold
    the two to each other): the same analyzers (the schema's own for the ID and
    keyword fields), each term's weight its count, field lengths kept as Whoosh
    keeps them (one byte, `length_to_byte`) with the true totals for the average,
    and Whoosh's BM25F and idf. Writing Whoosh's segment and reading it back took
    most of a build's time; the served files never needed it.

    The unstemmed body is analysed once: the stemmed body is the same tokens
    stemmed (the two analyzers differ only by the last filter, `StemFilter`)."""

    def __init__(self, corpus: "Corpus"):
        self.schema = make_schema()
        self.ids: list[str] = []
        # field -> term -> [(document number, weight, positions or None)]
        self.postings: dict[str, dict[str, list]] = {}
        self.true_lengths: dict[str, list[int]] = {field: [] for field in RANKED_FIELDS}
        self._plain_words: list[tuple[bool, set[str]]] = []  # (is the document OCR'd, the body's words)
        plain, stemmed = plain_analyzer(), stemming_analyzer()
        stems: dict[str, str] = {}
        ocr = {doc_id: doc.meta.ocr for doc_id, doc in corpus.documents.items()}
        for docnum, fields in enumerate(_documents(corpus)):
            self.ids.append(fields["id"])
            body = [(t.text, t.pos) for t in plain(fields["body_plain"], positions=True, mode="index")]
            self._plain_words.append((bool(ocr[fields["doc"]]), {text for text, _ in body}))
            for name, value in fields.items():
                if value is None:  # as Whoosh's writer: a field without a value is not indexed
                    continue
                if name == "body_plain":
                    tokens = body
                elif name == "body":
                    tokens = [(stems.get(text) or stems.setdefault(text, porter_stem(text)), pos)
                              for text, pos in body]
                elif name in RANKED_FIELDS:
                    tokens = [(t.text, t.pos) for t in stemmed(value, positions=True, mode="index")]
                else:  # an ID or keyword field: no positions, not scored by length
                    for tbytes, _freq, weight, _ in self.schema[name].index(value):
                        self.postings.setdefault(name, {}).setdefault(tbytes.decode("utf-8"), []).append(
                            (docnum, weight, None))
                    continue
                places: dict[str, list[int]] = {}
                for text, pos in tokens:
                    places.setdefault(text, []).append(pos)
                terms = self.postings.setdefault(name, {})
                for text, poslist in places.items():
                    terms.setdefault(text, []).append((docnum, float(len(poslist)), poslist))
                self.true_lengths[name].append(len(tokens))
            for name in RANKED_FIELDS:
                if len(self.true_lengths[name]) == docnum:  # the field had no value
                    self.true_lengths[name].append(0)

    def lengths(self) -> dict[str, list[Optional[int]]]:
        """Each ranked field's length in each document as Whoosh's reader gives it
        back (`doc_field_length`): rounded to what one byte holds, None for none."""
        return {field: [byte_to_length(length_to_byte(n)) if n else None for n in values]
                for field, values in self.true_lengths.items()}

    def posting_table(self) -> PostingTable:
        count = len(self.ids)
        lengths = self.lengths()
        k1 = BM25F().K1
        keys, offsets, docnums, scores = [], [0], [], []
        position_offsets, positions = [0], []
        for field in sorted(self.postings):
            scorable = self.schema[field].scorable
            if scorable:
                field_lengths = lengths[field]
                average = sum(self.true_lengths[field]) / (count or 1) or 1
            terms = self.postings[field]
            for term in sorted(terms):
                found = terms[term]
                idf = math.log(count / (len(found) + 1)) + 1
                for docnum, weight, poslist in found:
                    docnums.append(docnum)
                    scores.append(bm25(idf, weight, field_lengths[docnum], average, BM25_B, k1)
                                  if scorable else weight)
                    if poslist is not None:
                        if poslist[-1] >= 1 << POSITION_BITS:
                            raise ValueError(f"a paragraph of over {1 << POSITION_BITS} words")
                        positions.extend(docnum << POSITION_BITS | pos for pos in poslist)
                keys.append(table_key(field, term))
                offsets.append(len(docnums))
                position_offsets.append(len(positions))
        return PostingTable(count, keys, np.array(offsets, np.int64), np.array(docnums, np.int32),
                            np.array(scores, np.float64), np.array(position_offsets, np.int64),
                            np.array(positions, np.int64))

    def ocr_only_words(self) -> list[str]:
        """The words (as the unstemmed field has them) found in documents flagged
        `ocr` and in no other document: the damaged forms of words, for the most part."""
        clean: set[str] = set()
        damaged: set[str] = set()
        for is_ocr, words in self._plain_words:
            (damaged if is_ocr else clean).update(words)
        return sorted(w for w in damaged - clean if w.isalpha())


def whoosh_reference(corpus: "Corpus", directory: Path):
    """Write the Whoosh index of `corpus` in `directory` (the schema, the same
    documents as a build) and return it: the reference the tests and benches hold
    a build's posting table to. Builds do not write it."""
    ix = whoosh_index.create_in(str(directory), make_schema())
    with ix.writer() as writer:
        for fields in _documents(corpus):
            writer.add_document(**fields)
    return ix


@dataclass
class BuiltIndex:
    """An opened build: every table a search reads, held in memory."""

    name: str  # "<key>-<nonce>", the directory is index/search-<name>
    path: Path
    counterparts: "RuleGroups"  # the rule groups of paragraphs, the same rule in each edition (judge.search.counterparts)
    ids: list[str]  # Whoosh document number -> paragraph id
    lengths: dict[str, list[int]]  # ranked field -> its length in each document, by number
    ocr_words: frozenset[str]  # see `AnalysedCorpus.ocr_only_words`
    postings: PostingTable  # what queries are answered from

    @contextlib.contextmanager
    def whoosh_searcher(self, corpus: "Corpus") -> Iterator:
        """A Whoosh searcher on the Whoosh index of `corpus` (this build's corpus),
        written to a temporary folder for it and scoring as the posting table does:
        the reference the tests and benches hold the table to. Whoosh's files hold
        pickles: nothing that serves searches calls it."""
        with tempfile.TemporaryDirectory(prefix="judge-whoosh-") as folder:
            ix = whoosh_reference(corpus, Path(folder))
            try:
                with ix.searcher(weighting=LengthArrayBM25F(self.lengths)) as searcher:
                    yield searcher
            finally:
                ix.close()


def current_name(root: Optional[Path] = None) -> Optional[str]:
    """The build the pointer names ("<key>-<nonce>"), or None when there is none."""
    root = root or paths.index_dir()
    try:
        name = (root / POINTER).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if _NAME.fullmatch(name) and (root / f"{PREFIX}{name}").is_dir() else None


def builds_of(key: str, root: Optional[Path] = None) -> list[str]:
    """The names of the builds of index key `key` on disk, oldest first."""
    root = root or paths.index_dir()
    names = (p.name[len(PREFIX):] for p in root.glob(f"{PREFIX}{key}-*"))
    return sorted((n for n in names if _NAME.fullmatch(n)), key=lambda n: int(n.split("-", 1)[1], 16))


def build(corpus: "Corpus", root: Optional[Path] = None, force: bool = False) -> str:
    """Build the index of `corpus` unless the current one is already of it; return
    the name of the current build.

    Each build gets a directory of its own (the key plus a nonce), finished
    before the pointer is replaced, so readers see the old index or the new one,
    never a mixture, and two processes building at once cannot collide: the
    last pointer written wins and the other build is removed later.
    """
    from judge.search.counterparts import counterpart_map

    root = root or paths.index_dir()
    key = index_key(corpus)
    previous = current_name(root)
    if not force and previous and previous.split("-", 1)[0] == key:
        return previous
    name = f"{key}-{time.time_ns():x}"
    try:
        tmp = Path(tempfile.mkdtemp(dir=root, prefix=".search-build-"))
    except OSError as exc:
        raise OwnFileError(f"cannot build the search index in {root}: {exc.strerror}") from None
    try:
        analysed = AnalysedCorpus(corpus)
        (tmp / POSTINGS_FILE).write_bytes(analysed.posting_table().to_bytes())
        (tmp / DOCUMENTS_FILE).write_text(json.dumps({"ids": analysed.ids, "lengths": analysed.lengths()}),
                                          encoding="utf-8")
        (tmp / COUNTERPARTS_FILE).write_text(json.dumps(counterpart_map(corpus)), encoding="utf-8")
        (tmp / OCR_WORDS_FILE).write_text(json.dumps(analysed.ocr_only_words()), encoding="utf-8")
        contents = {"files": {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                              for p in sorted(tmp.iterdir()) if p.is_file()},
                    "paragraphs": len(corpus.paragraphs)}
        (tmp / CONTENTS_FILE).write_text(json.dumps(contents, indent=1), encoding="utf-8")
        os.rename(tmp, root / f"{PREFIX}{name}")
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OwnFileError(f"cannot build the search index in {root}: {exc.strerror or exc}") from None
        raise
    previous = current_name(root)  # again: another process may have switched meanwhile
    point_at(root, name)
    _remove_stale(root, keep={name, previous})
    return name


def point_at(root: Path, name: str) -> None:
    """Make build `name` the current one (atomically)."""
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".search-current-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(name + "\n")
    os.replace(tmp, root / POINTER)


def _remove_stale(root: Path, keep: set) -> None:
    """Remove builds other than the current and the previous one, and leftovers
    of interrupted builds older than a minute. The previous build stays so that
    searches already running on it finish before their searcher reopens."""
    now = time.time()
    for path in root.iterdir():
        name = path.name
        try:
            if name.startswith(PREFIX) and path.is_dir() and name[len(PREFIX):] not in keep:
                shutil.rmtree(path, ignore_errors=True)
            elif name.startswith((".search-build-", ".search-current-")) and now - path.stat().st_mtime > 60:
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink()
        except OSError:
            pass  # raced with another process cleaning up


def open_built(name: str, root: Optional[Path] = None, paragraph_ids: Optional[set] = None) -> BuiltIndex:
    """Open build `name` into memory, after checking every file against
    `contents.json` and the shape of every table; with `paragraph_ids` (the
    corpus's), also that the build holds exactly those paragraphs. Raises
    `DamagedIndex` when anything is missing or wrong. Reads no pickle."""
    from judge.search.counterparts import RuleGroups

    root = root or paths.index_dir()
    path = root / f"{PREFIX}{name}"
    try:
        contents = json.loads((path / CONTENTS_FILE).read_text(encoding="utf-8"))
        files = contents.get("files") if isinstance(contents, dict) else None
        if not (isinstance(files, dict) and type(contents.get("paragraphs")) is int
                and all(isinstance(f, str) and Path(f).name == f and isinstance(d, str) for f, d in files.items())
                and REQUIRED_FILES <= files.keys()):
            raise DamagedIndex(path, f"{CONTENTS_FILE} is not the list of files this build wrote")
        data = {}
        for filename, digest in files.items():
            # Every file is checked, Whoosh's too (only the tests read those): a
            # build is whole or rebuilt.
            data[filename] = (path / filename).read_bytes()
            if hashlib.sha256(data[filename]).hexdigest() != digest:
                raise DamagedIndex(path, f"{filename} is not the file this build wrote")
        postings = PostingTable.from_bytes(data[POSTINGS_FILE])
        documents = _decoded(path, DOCUMENTS_FILE, data, _Documents)
        ids, lengths = documents.ids, documents.lengths
        counterparts = _decoded(path, COUNTERPARTS_FILE, data, RuleGroups)
        ocr_words = frozenset(_decoded(path, OCR_WORDS_FILE, data, list[str]))
    except (OSError, ValueError) as exc:  # a file unreadable or gone, or not a posting table
        raise DamagedIndex(path, _describe(exc)) from None
    count = contents["paragraphs"]
    if not len(ids) == postings.doc_count == count:
        raise DamagedIndex(path, f"{len(ids)} paragraphs in {DOCUMENTS_FILE}, {postings.doc_count} in "
                                 f"{POSTINGS_FILE}, {count} built")
    if len(set(ids)) != count or sorted(lengths) != sorted(RANKED_FIELDS) or \
            any(len(values) != count for values in lengths.values()):
        raise DamagedIndex(path, f"{DOCUMENTS_FILE} does not list each paragraph once with its field lengths")
    if paragraph_ids is not None:
        if set(ids) != paragraph_ids:
            raise DamagedIndex(path, "it does not index the paragraphs of this corpus")
        problem = counterparts.check(paragraph_ids)
        if problem:
            raise DamagedIndex(path, f"{COUNTERPARTS_FILE} does not fit this corpus: {problem}")
    return BuiltIndex(name, path, counterparts, ids, lengths, ocr_words, postings)


@dataclass
class _Documents:
    """documents.json: what each Whoosh document number of the build is."""

    ids: list[str]  # its paragraph ID
    lengths: dict[str, list[Optional[int]]]  # each ranked field's length in it (None: the field is empty)


def _decoded(path: Path, filename: str, data: dict, kind):
    """The build's JSON file `filename` (its bytes in `data`) as `kind`, its shape checked."""
    try:
        return cachefile.decode(kind, json.loads(data[filename].decode("utf-8")))
    except cachefile.Mismatch as exc:
        raise DamagedIndex(path, f"{filename} is not what this build wrote ({exc})") from None
    except (ValueError, RecursionError):  # not UTF-8 (a ValueError too), not JSON, nested too deep
        raise DamagedIndex(path, f"{filename} is not JSON this build wrote") from None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"{Path(exc.filename).name} is missing"
    if isinstance(exc, OSError):
        return f"{Path(exc.filename).name if exc.filename else 'a file'} cannot be read ({exc.strerror or exc})"
    return str(exc)


def discard(name: str, root: Optional[Path] = None) -> None:
    """Remove a damaged build (searchers elsewhere hold theirs in memory)."""
    root = root or paths.index_dir()
    shutil.rmtree(root / f"{PREFIX}{name}", ignore_errors=True)


def open_or_rebuild(corpus: "Corpus", name: Optional[str], root: Optional[Path] = None) -> BuiltIndex:
    """Open build `name` of `corpus`; when there is none or it is damaged, the
    build the pointer names now if it has the same key (the same corpus, built by
    the same code), else build the index anew (atomically, as `build` does) and
    open that.

    One process rebuilds at a time (`rebuild_lock`): the others wait for it, then
    open the build it made instead of making their own."""
    root = root or paths.index_dir()
    key, ids, tried = index_key(corpus), set(corpus.paragraphs), set()
    built = _open_good(name, key, root, ids, tried)
    if built is not None:
        return built
    with rebuild_lock(root):
        current = current_name(root)  # a build made while this process waited, if of this key
        built = _open_good(current if current and current.startswith(key + "-") else None, key, root, ids, tried)
        if built is not None:
            return built
        started = time.monotonic()
        fresh = build(whole(corpus), root, force=True)  # (a build reads every paragraph: not row by row)
        log.info("built the search index as %s in %.1f s", fresh, time.monotonic() - started)
    try:
        return open_built(fresh, root, ids)
    except DamagedIndex as exc:  # a build we just made and cannot read: the disk, not the cache
        raise OwnFileError(f"the search index just built in {exc.path} cannot be read back ({exc.reason}); "
                         "check the disk, or set JUDGE_INDEX_DIR to another directory") from None


def _open_good(name: Optional[str], key: str, root: Path, ids: set, tried: set) -> Optional[BuiltIndex]:
    """Build `name`, else the one the pointer names (of index key `key`), whichever
    opens first; damaged ones met on the way are logged and removed. None when
    none opens."""
    while name and name not in tried:
        tried.add(name)
        try:
            return open_built(name, root, ids)
        except DamagedIndex as exc:
            if exc.path.is_dir():  # damaged; a build that vanished was removed by a newer one
                log.warning("%s; rebuilding it", exc)
                discard(name, root)
        current = current_name(root)
        name = current if current and current.startswith(key + "-") else None
    return None


@contextlib.contextmanager
def rebuild_lock(root: Path) -> Iterator[None]:
    """Held by the one process that checks for and makes a rebuild in `root`:
    the others wait here (an advisory lock on LOCK_FILE, released if the holder
    dies). Where there is no flock (Windows) or the lock file cannot be made (a
    read-only index dir, where building fails anyway), nothing is held."""
    try:
        import fcntl
        fd = os.open(root / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and with it the lock
