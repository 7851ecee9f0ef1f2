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
schema below and its scorer would give them, without writing that index. Each
book is analysed alone and its part cached (``index/postings-by-book/``), so a
rebuild analyses only the books whose documents changed and merges the parts;
the served files are byte for byte those of a build from nothing. One build is
kept on disk: the current one.

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

import bisect
import contextlib
import functools
import hashlib
import io
import json
import logging
import math
import os
import re
import shutil
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Union

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
from whoosh.analysis.filters import Filter
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

POINTER = paths.SEARCH_POINTER
RANKED_FIELDS = ("body", "title", "body_plain", "glossary", "questions", "rulings")
PREFIX = "search-"
COUNTERPARTS_FILE = "counterparts.json"
CONTENTS_FILE = "contents.json"  # {"files": {name: sha256}, "paragraphs": count}
OCR_WORDS_FILE = "ocr-words.json"  # words only OCR-damaged documents use (see `AnalysedCorpus.ocr_only_words`)
POSTINGS_FILE = "postings.npz"  # every term's paragraphs and scores (judge.search.postings)
DOCUMENTS_FILE = "documents.json"  # {"ids": [paragraph id by document number], "lengths": {field: [...]}}
PARTS_DIR = "postings-by-book"  # each book's analysed part (`AnalysedBook`), named by its `part_key`
PART_FORMAT = 1  # the layout of a part, hashed into its key
LOCK_FILE = ".search-rebuild.lock"  # held while one process rebuilds (`rebuild_lock`)
REQUIRED_FILES = frozenset({COUNTERPARTS_FILE, OCR_WORDS_FILE, POSTINGS_FILE, DOCUMENTS_FILE})
BM25_B = 0.75  # length normalisation (Whoosh's default); K1 is Whoosh's 1.2
# A field's own length normalisation, where the default does not fit. The questions a paragraph answers
# (judge/data/questions) are a list, not a text: a paragraph with more of them is asked more ways, not
# diluted, and only the books in force have them (the average over every paragraph is small).
FIELD_B = {"questions": 0.5, "rulings": 0.5}
# Between a paragraph's questions in its field: a word the analyzer drops (`QuestionSlots`), moving
# the next question's words to the next slot of positions.
QUESTION_MARK = "nextquestion"
QUESTION_SEPARATOR = f" {QUESTION_MARK} "
QUESTION_SLOT_BITS = 6  # a question's words are at positions slot << 6 | n: a question has < 64 words
RULING_SLOT_BITS = 9  # the same for the rulings field (`judge.search.evidence`): a ruling has < 512 words
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


class QuestionSlots(Filter):
    """A list field's positions, one slot per item (a question, a ruling), items parted by QUESTION_MARK:
    the n-th word of the k-th item is at k << bits | n (words past the slot's size share its last
    position). A phrase never runs from one item into the next."""

    def __init__(self, bits: int = QUESTION_SLOT_BITS):
        self.bits = bits

    def __call__(self, tokens):
        slot, n, last = 0, 0, (1 << self.bits) - 1
        for t in tokens:
            if t.text == QUESTION_MARK:
                slot, n = slot + 1, 0
                continue
            if t.positions:
                t.pos = slot << self.bits | min(n, last)
            n += 1
            yield t


def questions_analyzer(bits: int = QUESTION_SLOT_BITS):
    """The stemming analyzer, with each item's words in a slot of positions (`QuestionSlots`)."""
    return (RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(stoplist=STOP_WORDS, minsize=2) | QuestionSlots(bits) | StemFilter())


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
        # The questions the paragraph answers, as judges and players ask them (judge.search.questions).
        questions=TEXT(analyzer=questions_analyzer()),
        # The words of the rulings that cite the paragraph (judge.search.evidence), a ruling a slot.
        rulings=TEXT(analyzer=questions_analyzer(RULING_SLOT_BITS)),
    )


class LengthArrayBM25F(BM25F):
    """Whoosh's BM25F, reading each document's field lengths from arrays read
    once per build instead of Whoosh's per-posting column lookups (the index
    has one segment, so document numbers are global). The scores of a build's
    posting table are this model's."""

    def __init__(self, lengths: dict[str, list[int]], B: float = BM25_B):
        super().__init__(B=B, **{f"{field}_B": b for field, b in FIELD_B.items()})
        self.lengths = lengths

    def scorer(self, searcher, fieldname, text, qf=1):
        lengths = self.lengths.get(fieldname)
        if lengths is None or not searcher.schema[fieldname].scorable:
            return super().scorer(searcher, fieldname, text, qf)
        scorer = BM25FScorer(searcher, fieldname, text, self._field_B.get(fieldname, self.B), self.K1, qf=qf)
        scorer.dfl = lengths.__getitem__
        return scorer


def index_key(corpus: "Corpus") -> str:
    """The digest naming a build: the corpus digest, the build code, and what
    the counterparts depend on, and the questions files (read as bytes: the key is
    worked out before any build, and a file is parsed only by a build)."""
    from judge.search import evidence, questions
    from judge.search.counterparts import source_key

    h = hashlib.sha256(corpus.digest.encode())
    h.update(source_key().encode())
    h.update(questions.files_digest().encode())
    h.update(evidence.evidence_key().encode())
    here = Path(__file__).resolve().parent
    for name in _BUILD_CODE:
        h.update(name.encode())
        h.update((here / name).read_bytes())
    return h.hexdigest()[:20]


def _book_documents(corpus: "Corpus", doc) -> list[dict]:
    """The Whoosh documents of one book's paragraphs (`_documents`' part for `doc`).
    Raises SourceError (file and line) when the questions files do not fit the corpus."""
    from judge.search import evidence, questions

    asked = questions.checked_questions(corpus).questions
    cited = evidence.ruling_evidence(corpus)
    meta = doc.meta
    out = []
    for para in doc.paragraphs:
        section = corpus.sections.get(para.section)
        numbers = {n for n in (para.number, section.number if section else None) if n}
        title = " ".join(t for t in (section.title if section else "", para.title or "",
                                     para.term or "", para.label) if t)
        glossary = {t.lower() for t, _, _, _ in corpus.term_links.get(para.id, ())}
        if para.term:
            glossary.add(para.term.lower())
        out.append(dict(id=para.id, doc=meta.id, game=meta.game, edition=meta.edition, kind=para.kind,
                        numbers=" ".join(sorted(n.lower() for n in numbers)),
                        title=title, body=para.text, body_plain=para.text,
                        glossary=" | ".join(sorted(glossary)),
                        questions=QUESTION_SEPARATOR.join(asked[para.id]) if para.id in asked else None,
                        rulings=QUESTION_SEPARATOR.join(cited[para.id]) if para.id in cited else None))
    return out


def _documents(corpus: "Corpus"):
    for doc in corpus.documents.values():
        yield from _book_documents(corpus, doc)


# The arrays of a saved `AnalysedBook` and the kinds of numbers each holds (numpy's dtype.kind).
# (Strings are stored as UTF-8 bytes and where each ends: numpy's fixed-width strings
# take four bytes a character of the longest.)
_PART_ARRAYS = {"key": "u", "keys": "u", "key_ends": "i", "counts": "i", "docnums": "i", "weights": "f",
                "position_counts": "i", "positions": "i", "words": "u", "word_ends": "i",
                **{f"length_{field}": "i" for field in RANKED_FIELDS}}


class AnalysedBook:
    """One book's paragraphs analysed (what a build caches per book, `PARTS_DIR`):
    for every (field, term) of the book, in the table's key order, its postings
    (document numbers counted from the book's first paragraph, weights) and its
    positions (`docnum << POSITION_BITS | position`, the same local numbers);
    each paragraph's true length in each ranked field; the unstemmed body's words.

    None of it depends on the other books: a build merges the books' parts
    (`AnalysedCorpus`) and works out there what does (document numbers, document
    frequencies, average lengths, idf, scores), so a part is reused as long as its
    book's Whoosh documents are those it was analysed from (`part_key`)."""

    def __init__(self, key: str, count: int, keys: np.ndarray, counts: np.ndarray, docnums: np.ndarray,
                 weights: np.ndarray, position_counts: np.ndarray, positions: np.ndarray,
                 lengths: dict[str, np.ndarray], words: np.ndarray):
        self.key, self.count = key, count
        self.keys, self.counts, self.docnums, self.weights = keys, counts, docnums, weights
        self.position_counts, self.positions = position_counts, positions
        self.lengths, self.words = lengths, words

    @classmethod
    def analyse(cls, key: str, documents: list[dict], schema: Schema) -> "AnalysedBook":
        """Analyse `documents` (one book's, `_book_documents`) with the schema's analyzers,
        as Whoosh's writer would: each term's weight its count, positions for the ranked
        fields. The stemmed body is the unstemmed body's tokens stemmed (the two
        analyzers differ only by their last filter, `StemFilter`)."""
        plain, stemmed = plain_analyzer(), stemming_analyzer()
        own = {name: schema[name].analyzer for name in ("questions", "rulings")}  # ranked fields' own analyzers
        stems: dict[str, str] = {}
        postings: dict[str, list] = {}  # table key -> [(document number, weight, positions or None)]
        lengths: dict[str, list[int]] = {field: [] for field in RANKED_FIELDS}
        words: set[str] = set()
        for docnum, fields in enumerate(documents):
            body = [(t.text, t.pos) for t in plain(fields["body_plain"], positions=True, mode="index")]
            words.update(text for text, _ in body)
            for name, value in fields.items():
                if value is None:  # as Whoosh's writer: a field without a value is not indexed
                    continue
                if name == "body_plain":
                    tokens = body
                elif name == "body":
                    tokens = [(stems.get(text) or stems.setdefault(text, porter_stem(text)), pos)
                              for text, pos in body]
                elif name in RANKED_FIELDS:
                    tokens = [(t.text, t.pos) for t in own.get(name, stemmed)(value, positions=True, mode="index")]
                else:  # an ID or keyword field: no positions, not scored by length
                    for tbytes, _freq, weight, _ in schema[name].index(value):
                        postings.setdefault(table_key(name, tbytes.decode("utf-8")), []).append(
                            (docnum, weight, None))
                    continue
                places: dict[str, list[int]] = {}
                for text, pos in tokens:
                    places.setdefault(text, []).append(pos)
                for text, poslist in places.items():
                    if poslist[-1] >= 1 << POSITION_BITS:
                        raise ValueError(f"a paragraph of over {1 << POSITION_BITS} words")
                    postings.setdefault(table_key(name, text), []).append((docnum, float(len(poslist)), poslist))
                lengths[name].append(len(tokens))
            for name in RANKED_FIELDS:
                if len(lengths[name]) == docnum:  # the field had no value
                    lengths[name].append(0)
        keys = sorted(postings)
        counts, docnums, weights, position_counts, positions = [], [], [], [], []
        for table in keys:
            found = postings[table]
            counts.append(len(found))
            before = len(positions)
            for docnum, weight, poslist in found:
                docnums.append(docnum)
                weights.append(weight)
                if poslist is not None:
                    positions.extend(docnum << POSITION_BITS | pos for pos in poslist)
            position_counts.append(len(positions) - before)
        return cls(key, len(documents), np.array(keys, dtype=str), np.array(counts, np.int64),
                   np.array(docnums, np.int64), np.array(weights, np.float64), np.array(position_counts, np.int64),
                   np.array(positions, np.int64), {f: np.array(v, np.int64) for f, v in lengths.items()},
                   np.array(sorted(words), dtype=str))

    def to_bytes(self) -> bytes:
        out = io.BytesIO()
        keys, key_ends = _packed(self.keys.tolist())
        words, word_ends = _packed(self.words.tolist())
        np.savez(out, key=np.frombuffer(self.key.encode("ascii"), np.uint8), keys=keys, key_ends=key_ends,
                 counts=self.counts.astype(np.int32), docnums=self.docnums.astype(np.int32), weights=self.weights,
                 position_counts=self.position_counts.astype(np.int32), positions=self.positions,
                 words=words, word_ends=word_ends,
                 **{f"length_{field}": values.astype(np.int32) for field, values in self.lengths.items()})
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, key: str, count: int) -> "AnalysedBook":
        """The part `to_bytes` wrote for `key`, of a book of `count` paragraphs.
        Raises ValueError saying what does not fit. Reads no pickle."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                parts = {name: arrays[name] for name in _PART_ARRAYS}
        except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as exc:
            raise ValueError(f"not a book's analysed part ({type(exc).__name__})") from None
        for name, kinds in _PART_ARRAYS.items():
            if parts[name].ndim != 1 or parts[name].dtype.kind not in kinds:
                raise ValueError(f"not a book's analysed part (its {name} are not a list of the right kind)")
        if parts["key"].tobytes() != key.encode("ascii"):
            raise ValueError("it was analysed from other paragraphs")
        counts, docnums, position_counts = (parts[n] for n in ("counts", "docnums", "position_counts"))
        keys = np.array(_unpacked(parts["keys"], parts["key_ends"]), dtype=str)
        words = np.array(_unpacked(parts["words"], parts["word_ends"]), dtype=str)
        positions = parts["positions"]
        fits = (
            len(counts) == len(position_counts) == len(keys)
            and bool(np.all(counts > 0)) and bool(np.all(position_counts >= 0))
            and int(counts.sum()) == len(docnums) == len(parts["weights"]) and int(position_counts.sum()) == len(positions)
            and bool(np.all(keys[:-1] < keys[1:])) and bool(np.all(words[:-1] < words[1:]))
            and (len(docnums) == 0 or 0 <= docnums.min() <= docnums.max() < count)
            and (len(positions) == 0 or 0 <= positions.min() <= positions.max() < count << POSITION_BITS)
            and bool(np.all(np.isfinite(parts["weights"])))
            and all(len(parts[f"length_{field}"]) == count and (count == 0 or parts[f"length_{field}"].min() >= 0)
                    for field in RANKED_FIELDS)
        )
        if not fits:
            raise ValueError("its arrays do not fit together")
        return cls(key, count, keys, counts.astype(np.int64), docnums.astype(np.int64),
                   parts["weights"].astype(np.float64), position_counts.astype(np.int64), positions.astype(np.int64),
                   {field: parts[f"length_{field}"].astype(np.int64) for field in RANKED_FIELDS}, words)


@functools.lru_cache(maxsize=1)
def _analysis_code() -> str:
    """What a book's analysis depends on besides its documents: this code (the
    schema, the analyzers), Whoosh's and Python's versions. Hashed once a process."""
    import whoosh

    h = hashlib.sha256(f"{PART_FORMAT}:{sys.version}:{whoosh.versionstring()}".encode())
    here = Path(__file__).resolve().parent
    for name in ("index.py", "postings.py"):
        h.update(name.encode())
        h.update((here / name).read_bytes())
    return h.hexdigest()


def part_key(documents: list[dict]) -> str:
    """The digest naming a book's analysed part: its Whoosh documents and the analysis code."""
    h = hashlib.sha256(_analysis_code().encode())
    h.update(json.dumps(documents, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return h.hexdigest()


class AnalysedCorpus:
    """Every paragraph of a corpus analysed once, into what the build writes: the
    posting table, each paragraph's field lengths and the OCR-only words.

    Each book is analysed alone (`AnalysedBook`), or its part is read from
    `parts_dir` when its book is as it was analysed; the parts are then merged
    here, where what depends on every book is worked out: global document
    numbers, document frequencies, average field lengths, idf and the scores.

    The numbers are those Whoosh's writer would store and its `LengthArrayBM25F`
    would score (`whoosh_reference` writes that Whoosh index, and the tests hold
    the two to each other): the same analyzers (the schema's own for the ID and
    keyword fields), each term's weight its count, field lengths kept as Whoosh
    keeps them (one byte, `length_to_byte`) with the true totals for the average,
    and Whoosh's BM25F and idf, computed with the same floating-point operations
    in the same order (so to the last bit). Writing Whoosh's segment and reading
    it back took most of a build's time; the served files never needed it."""

    def __init__(self, corpus: "Corpus", parts_dir: Optional[Path] = None):
        self.schema = make_schema()
        self.ids: list[str] = []
        self.parts: list[AnalysedBook] = []
        self.analysed: list[str] = []  # the books analysed by this build (the others' parts were read)
        self._ocr: list[bool] = []
        for doc_id, doc in corpus.documents.items():
            documents = _book_documents(corpus, doc)
            key = part_key(documents)
            part = _read_part(parts_dir, key, len(documents)) if parts_dir is not None else None
            if part is None:
                part = AnalysedBook.analyse(key, documents, self.schema)
                self.analysed.append(doc_id)
                if parts_dir is not None:
                    _write_part(parts_dir, part)
            self.parts.append(part)
            self.ids.extend(fields["id"] for fields in documents)
            self._ocr.append(bool(doc.meta.ocr))
        self.true_lengths = {field: np.concatenate([p.lengths[field] for p in self.parts] or [np.zeros(0, np.int64)])
                             for field in RANKED_FIELDS}

    def lengths(self) -> dict[str, list[Optional[int]]]:
        """Each ranked field's length in each document as Whoosh's reader gives it
        back (`doc_field_length`): rounded to what one byte holds, None for none."""
        rounded = {n: byte_to_length(length_to_byte(n)) if n else None
                   for n in set().union(*(np.unique(v).tolist() for v in self.true_lengths.values()))}
        return {field: [rounded[n] for n in values.tolist()] for field, values in self.true_lengths.items()}

    def posting_table(self) -> PostingTable:
        count = len(self.ids)
        parts = self.parts
        if not parts or not any(len(p.keys) for p in parts):
            empty = np.zeros(0, np.int64)
            return PostingTable(count, [], np.zeros(1, np.int64), empty.astype(np.int32), empty.astype(np.float64),
                                np.zeros(1, np.int64), empty)
        # Every (part, key) entry, in part order; its postings' and positions' places in the concatenations.
        doc_base = np.cumsum([0] + [p.count for p in parts])[:-1]
        counts = np.concatenate([p.counts for p in parts])
        position_counts = np.concatenate([p.position_counts for p in parts])
        docnums = np.concatenate([p.docnums + base for p, base in zip(parts, doc_base)])
        weights = np.concatenate([p.weights for p in parts])
        positions = np.concatenate([p.positions + (int(base) << POSITION_BITS) for p, base in zip(parts, doc_base)])
        # Every key once, sorted, and each entry's place among them (numpy's `unique` of the
        # strings, a sort of every entry, took seven times as long as a set and a dict).
        part_keys = [p.keys.tolist() for p in parts]
        key_list = sorted(set().union(*part_keys))
        slot = {key: n for n, key in enumerate(key_list)}
        entry_key = np.fromiter((slot[key] for keys in part_keys for key in keys), np.int64, len(counts))
        order = np.argsort(entry_key, kind="stable")  # by key, then by part: ascending document numbers
        docnums = docnums[segments(counts, order)]
        weights = weights[segments(counts, order)]
        positions = positions[segments(position_counts, order)]
        key_counts = np.bincount(entry_key, weights=counts, minlength=len(key_list)).astype(np.int64)
        key_position_counts = np.bincount(entry_key, weights=position_counts, minlength=len(key_list)).astype(np.int64)
        offsets = np.concatenate([[0], np.cumsum(key_counts)]).astype(np.int64)
        position_offsets = np.concatenate([[0], np.cumsum(key_position_counts)]).astype(np.int64)
        scores = weights.copy()
        lengths = self.lengths()
        k1 = BM25F().K1
        idf_of: dict[int, float] = {}
        for field in self.schema.names():
            if not self.schema[field].scorable:
                continue
            prefix = table_key(field, "")  # a field's keys are one run of the sorted keys
            first = last = bisect.bisect_left(key_list, prefix)
            while last < len(key_list) and key_list[last].startswith(prefix):
                last += 1
            start, end = int(offsets[first]), int(offsets[last])
            frequencies = key_counts[first:last].tolist()
            idfs = np.array([idf_of.get(df) or idf_of.setdefault(df, math.log(count / (df + 1)) + 1)
                             for df in frequencies], np.float64)
            idf = np.repeat(idfs, key_counts[first:last])
            field_lengths = np.array([n or 0 for n in lengths[field]], np.float64)[docnums[start:end]]
            average = int(self.true_lengths[field].sum()) / (count or 1) or 1
            tf = weights[start:end]
            # Whoosh's `bm25`, operation for operation (so the same float to the last bit):
            # idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / avgfl)))
            b = FIELD_B.get(field, BM25_B)
            scores[start:end] = idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * field_lengths / average)))
        return PostingTable(count, key_list, offsets, docnums.astype(np.int32), scores, position_offsets, positions)

    def ocr_only_words(self) -> list[str]:
        """The words (as the unstemmed field has them) found in documents flagged
        `ocr` and in no other document: the damaged forms of words, for the most part."""
        clean: set[str] = set()
        damaged: set[str] = set()
        for is_ocr, part in zip(self._ocr, self.parts):
            (damaged if is_ocr else clean).update(part.words.tolist())
        return sorted(w for w in damaged - clean if w.isalpha())


def _packed(strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Strings as one array of their UTF-8 bytes and where each ends in it."""
    encoded = [text.encode("utf-8") for text in strings]
    return np.frombuffer(b"".join(encoded), np.uint8), np.cumsum([len(b) for b in encoded], dtype=np.int64)


def _unpacked(data: np.ndarray, ends: np.ndarray) -> list[str]:
    """The strings `_packed` made; ValueError when they cannot be."""
    if len(ends) and (ends[-1] != len(data) or bool(np.any(np.diff(ends) < 0)) or ends[0] < 0):
        raise ValueError("its strings do not fit their bytes")
    blob, out, start = data.tobytes(), [], 0
    for end in ends.tolist():
        out.append(blob[start:end].decode("utf-8"))  # a UnicodeDecodeError is a ValueError
        start = end
    return out


def segments(lengths: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The indexes of the concatenated segments (the n-th `lengths[n]` long, laid end
    to end), taken in `order`: a gather of whole segments."""
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    taken = lengths[order]
    total = int(taken.sum())
    if not total:
        return np.zeros(0, np.int64)
    # each taken element: its segment's start, plus its place in the segment
    shift = np.repeat(starts[order] - np.concatenate([[0], np.cumsum(taken)[:-1]]), taken)
    return shift + np.arange(total, dtype=np.int64)


def _part_path(parts_dir: Path, key: str) -> Path:
    return parts_dir / f"{key[:40]}.npz"


def _read_part(parts_dir: Path, key: str, count: int) -> Optional[AnalysedBook]:
    """The part cached for `key`; None when there is none or it is damaged (logged:
    the book is analysed again)."""
    path = _part_path(parts_dir, key)
    try:
        return AnalysedBook.from_bytes(cachefile.read_built(path), key, count)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - whatever reading a damaged file raises: the book is analysed again
        log.warning("the cache %s is damaged: %s; analysing its book again", path, _describe(exc))
        return None


def _write_part(parts_dir: Path, part: AnalysedBook) -> None:
    """Write a part atomically; a directory that cannot be written only costs speed."""
    try:
        parts_dir.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=parts_dir, prefix=".part-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(part.to_bytes())
        cachefile.replace(tmp, _part_path(parts_dir, part.key))
    except OSError:
        Path(tmp).unlink(missing_ok=True)


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
        name = cachefile.read_built(root / POINTER).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):  # none, unreadable, or not a file (point_at replaces it)
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
    root = root or paths.index_dir()
    key = index_key(corpus)
    previous = current_name(root)
    if not force and previous and previous.split("-", 1)[0] == key:
        return previous
    return _build(corpus, root, key).name


def _build(corpus: "Corpus", root: Path, key: str) -> BuiltIndex:
    """Build the index of `corpus` (of index key `key`) in `root` and make it the
    current one; the build as `open_built` would give it, from the tables in memory
    (not read back: the process that built it needs neither the re-read nor the
    re-hash of what it has just written, and the build may already be removed by
    a newer one)."""
    from judge.search.counterparts import RuleGroups, counterpart_map

    name = f"{key}-{time.time_ns():x}"
    try:
        tmp = Path(tempfile.mkdtemp(dir=root, prefix=".search-build-"))
    except OSError as exc:
        raise OwnFileError(f"cannot build the search index in {root}: {exc.strerror}") from None
    try:
        with cachefile.collector_paused():
            analysed = AnalysedCorpus(corpus, root / PARTS_DIR)
            table, groups = analysed.posting_table(), counterpart_map(corpus)
        lengths, ocr_words = analysed.lengths(), analysed.ocr_only_words()
        digests = {}
        for filename, data in ((POSTINGS_FILE, table.to_bytes()),
                               (DOCUMENTS_FILE, json.dumps({"ids": analysed.ids, "lengths": lengths}).encode()),
                               (COUNTERPARTS_FILE, json.dumps(groups).encode()),
                               (OCR_WORDS_FILE, json.dumps(ocr_words).encode())):
            (tmp / filename).write_bytes(data)
            digests[filename] = hashlib.sha256(data).hexdigest()
        contents = {"files": dict(sorted(digests.items())), "paragraphs": len(corpus.paragraphs)}
        (tmp / CONTENTS_FILE).write_text(json.dumps(contents, indent=1), encoding="utf-8")
        os.rename(tmp, root / f"{PREFIX}{name}")
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OwnFileError(f"cannot build the search index in {root}: {exc.strerror or exc}") from None
        raise
    point_at(root, name)
    _remove_stale(root, keep={name})
    _remove_unused_parts(root / PARTS_DIR, {part.key for part in analysed.parts})
    rule_groups = RuleGroups(members=groups["members"],
                             links=[[(a, b, confidence) for a, b, confidence in links] for links in groups["links"]],
                             aligned=[tuple(pair) for pair in groups["aligned"]])
    return BuiltIndex(name, root / f"{PREFIX}{name}", rule_groups, analysed.ids, lengths, frozenset(ocr_words), table)


def point_at(root: Path, name: str) -> None:
    """Make build `name` the current one (atomically)."""
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".search-current-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(name + "\n")
    cachefile.replace(tmp, root / POINTER)


def _remove_stale(root: Path, keep: set) -> None:
    """Remove builds other than `keep` (the one just made current), and leftovers
    of interrupted builds older than a minute. A searcher holds its build in
    memory once opened (`open_built` reads every file), so searches running on
    a removed build go on; one opening it meanwhile finds it gone and opens the
    current one (`open_or_rebuild`)."""
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


def _remove_unused_parts(parts_dir: Path, used: set[str]) -> None:
    """Remove the analysed parts of books as they no longer are (edited, removed):
    the next build needs only the parts of this one's books."""
    wanted = {_part_path(parts_dir, key).name for key in used}
    now = time.time()
    try:
        found = list(parts_dir.iterdir())
    except OSError:
        return
    for path in found:
        try:
            if path.name.endswith(".npz") and path.name not in wanted or \
                    path.name.startswith(".part-") and now - path.stat().st_mtime > 60:
                path.unlink()
        except OSError:
            pass  # raced with another process cleaning up


def open_built(name: str, root: Optional[Path] = None,
               paragraph_ids: Union[None, set, Callable[[], set]] = None,
               corpus_key: Optional[str] = None) -> BuiltIndex:
    """Open build `name`, after checking every file against `contents.json` and the
    shape of every table; with `paragraph_ids` (the corpus's, or a function giving
    them), also that the build holds exactly those paragraphs. Raises `DamagedIndex`
    when anything is missing or wrong. Reads no pickle.

    A build this code has checked in full is sealed (`judge.search.sealed`): while its
    files stay as they were, later opens trust that check (no hashes, no scans of the
    tables) and skip the corpus check when it was made against the corpus of key
    `corpus_key`."""
    from judge.search import sealed
    from judge.search.counterparts import RuleGroups, read_groups

    root = root or paths.index_dir()
    path = root / f"{PREFIX}{name}"
    try:
        contents = json.loads(cachefile.read_built(path / CONTENTS_FILE).decode("utf-8"))
        files = contents.get("files") if isinstance(contents, dict) else None
        if not (isinstance(files, dict) and type(contents.get("paragraphs")) is int
                and all(isinstance(f, str) and Path(f).name == f and isinstance(d, str) for f, d in files.items())
                and REQUIRED_FILES <= files.keys()):
            raise DamagedIndex(path, f"{CONTENTS_FILE} is not the list of files this build wrote")
        seal = sealed.read(path, [CONTENTS_FILE, *files])
        checked = None if seal else sealed.identities(path, [CONTENTS_FILE, *files])  # before reading them
        data = {}
        for filename, digest in files.items():
            # Every file is read whole (a file changed on disk later cannot reach the searches of
            # this build) and checked, Whoosh's too (only the tests read those): a
            # build is whole or rebuilt.
            data[filename] = cachefile.read_built(path / filename)
            if not seal and hashlib.sha256(data[filename]).hexdigest() != digest:
                raise DamagedIndex(path, f"{filename} is not the file this build wrote")
        postings = PostingTable.from_bytes(data[POSTINGS_FILE], checked=bool(seal))
        documents = _decoded(path, DOCUMENTS_FILE, data, _Documents)
        ids, lengths = documents.ids, documents.lengths
        counterparts = read_groups(path, data[COUNTERPARTS_FILE],
                                   lambda: _decoded(path, COUNTERPARTS_FILE, data, RuleGroups),
                                   source=files[COUNTERPARTS_FILE])
        ocr_words = frozenset(_decoded(path, OCR_WORDS_FILE, data, list[str]))
    except DamagedIndex:
        raise
    except Exception as exc:  # noqa: BLE001 - a file unreadable, gone, not a file, not JSON, nested too deep...
        raise DamagedIndex(path, _describe(exc)) from None
    count = contents["paragraphs"]
    if not len(ids) == postings.doc_count == count:
        raise DamagedIndex(path, f"{len(ids)} paragraphs in {DOCUMENTS_FILE}, {postings.doc_count} in "
                                 f"{POSTINGS_FILE}, {count} built")
    if len(set(ids)) != count or sorted(lengths) != sorted(RANKED_FIELDS) or \
            any(len(values) != count for values in lengths.values()):
        raise DamagedIndex(path, f"{DOCUMENTS_FILE} does not list each paragraph once with its field lengths")
    corpus_checked = seal["corpus"] if seal else None
    if paragraph_ids is not None and not (corpus_key and corpus_key == corpus_checked):
        paragraph_ids = paragraph_ids() if callable(paragraph_ids) else paragraph_ids
        if set(ids) != paragraph_ids:
            raise DamagedIndex(path, "it does not index the paragraphs of this corpus")
        problem = counterparts.check(paragraph_ids)
        if problem:
            raise DamagedIndex(path, f"{COUNTERPARTS_FILE} does not fit this corpus: {problem}")
        corpus_checked = corpus_key
    if checked is not None or corpus_checked != seal["corpus"]:  # sealed now, or for this corpus too
        sealed.write(path, checked or seal["files"], corpus_checked)
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


def open_or_rebuild(corpus: "Corpus", name: Optional[str], root: Optional[Path] = None,
                    key: Optional[str] = None) -> BuiltIndex:
    """Open build `name` of `corpus`; when there is none or it is damaged, the
    build the pointer names now if it has the same key (the same corpus, built by
    the same code), else build the index anew (atomically, as `build` does) and
    open that. `key`: `index_key(corpus)`, when the caller has just worked it out.

    One process rebuilds at a time (`rebuild_lock`): the others wait for it, then
    open the build it made instead of making their own."""
    root = root or paths.index_dir()
    key, tried = key or index_key(corpus), set()  # (`key`: index_key(corpus) as the caller just worked it out)
    ids = functools.cache(lambda: set(corpus.paragraphs))  # read only when a build's check needs them
    built = _open_good(name, key, root, ids, tried)
    if built is not None:
        return built
    with rebuild_lock(root):
        current = current_name(root)  # a build made while this process waited, if of this key
        built = _open_good(current if current and current.startswith(key + "-") else None, key, root, ids, tried)
        if built is not None:
            return built
        started = time.monotonic()
        # (a build reads every paragraph: not row by row) Held in memory, not opened from the disk
        # once the lock is let go: by then another process may have built and removed it.
        fresh = _build(whole(corpus), root, key)
        log.info("built the search index as %s in %.1f s", fresh.name, time.monotonic() - started)
    return fresh


def _open_good(name: Optional[str], key: str, root: Path, ids: Callable[[], set],
               tried: set) -> Optional[BuiltIndex]:
    """Build `name`, else the one the pointer names (of index key `key`), whichever
    opens first; damaged ones met on the way are logged and removed. None when
    none opens."""
    while name and name not in tried:
        tried.add(name)
        try:
            return open_built(name, root, ids, corpus_key=key)
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
