"""The concordance: the same rule in each edition of a game.

`Concordance` holds the alignments (`judge.compare.alignment`) of every two
editions of each game, aligned neighbours first so that a wider gap is bridged
through the editions between, plus the outline's step -> paragraph links. It is
cached in the index directory and answers `counterparts(id)`: the same
paragraph or section in the other editions.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import asdict, dataclass
from itertools import chain
from pathlib import Path
from typing import Optional

from judge import cachefile, paths
from judge.compare.alignment import Alignment, PreparedDocument, align_prepared
from judge.compare.similarity import CharNgrams, text_similarity
from judge.compare.terminology import get_terminology, terminology_file
from judge.corpus import get_corpus
from judge.ingest.refs import RULEBOOK_NUMBER
from judge.model import RESOLVED, Corpus, Document, Paragraph

log = logging.getLogger(__name__)

CACHE_NAME = "concordance.json"
FORMAT_VERSION = 1
OUTLINE_FORMAT = "outline"  # an outline cites editions; it is not one
# The code whose changes invalidate the cached concordance (beside the terminology map).
_ALIGNMENT_CODE = ("concordance.py", "alignment.py", "similarity.py", "terminology.py")


@dataclass(frozen=True)
class OutlineLink:
    """An outline step's link to a rulebook paragraph (or section) it cites."""

    step: str
    target: str
    confidence: float
    via: str  # "cites": the step's own citation; "section": a paragraph of the cited
    # section, ranked by how well it matches the step; "same-rule": that paragraph in
    # another edition

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Counterpart:
    """The same rule (paragraph or section) in another edition."""

    id: str
    doc: str
    confidence: float
    method: str

    def to_json(self) -> dict:
        return asdict(self)


class Concordance:
    """Alignments between every two editions of each game, and the outline's links."""

    def __init__(self, key: str, alignments: list[Alignment], outline: dict[str, list[OutlineLink]]):
        self.key = key
        self.alignments = alignments
        self.outline = outline
        self._by_id: Optional[dict[str, list[Counterpart]]] = None
        self._cited_by: Optional[dict[str, list[OutlineLink]]] = None

    def alignment(self, old_doc: str, new_doc: str) -> Optional[Alignment]:
        """The alignment of two editions, read in the order asked for."""
        for al in self.alignments:
            if (al.old_doc, al.new_doc) == (old_doc, new_doc):
                return al
            if (al.old_doc, al.new_doc) == (new_doc, old_doc):
                return al.inverted()
        return None

    def counterparts(self, ident: str) -> list[Counterpart]:
        """The same paragraph or section in the other editions, most confident first."""
        if self._by_id is None:
            index: dict[str, list[Counterpart]] = {}
            for al in self.alignments:
                for pair in al.pairs + al.section_pairs:
                    index.setdefault(pair.old, []).append(
                        Counterpart(pair.new, al.new_doc, pair.confidence, pair.method))
                    index.setdefault(pair.new, []).append(
                        Counterpart(pair.old, al.old_doc, pair.confidence, pair.method))
            for found in index.values():
                found.sort(key=lambda c: (-c.confidence, c.id))
            self._by_id = index
        return list(self._by_id.get(ident, ()))

    def steps_citing(self, ident: str) -> list[OutlineLink]:
        """Outline steps linked to a paragraph or section (the reverse of `outline`)."""
        if self._cited_by is None:
            index: dict[str, list[OutlineLink]] = {}
            for links in self.outline.values():
                for link in links:
                    index.setdefault(link.target, []).append(link)
            self._cited_by = index
        return list(self._cited_by.get(ident, ()))

    def to_json(self) -> dict:
        return {"format": FORMAT_VERSION, "key": self.key,
                "alignments": [al.to_json() for al in self.alignments],
                "outline": {step: [link.to_json() for link in links] for step, links in self.outline.items()}}


def editions(corpus: Corpus, game: str) -> list[Document]:
    """The editions of a game's rules, oldest first (outlines cite editions; they are not one)."""
    return sorted((d for d in corpus.documents.values() if d.meta.game == game and d.meta.format != OUTLINE_FORMAT),
                  key=lambda d: (d.meta.edition_order, d.id))


def build_concordance(corpus: Corpus) -> Concordance:
    alignments: list[Alignment] = []
    ngrams = CharNgrams()  # one vocabulary: each book is prepared once for all its alignments
    texts: dict[str, str] = {}  # paragraph id -> normalised text, for the outline's links
    for game in sorted({d.meta.game for d in corpus.documents.values()}):
        books = editions(corpus, game)
        sides = {book.id: PreparedDocument(book, ngrams) for book in books} if len(books) > 1 else {}
        done: dict[tuple[str, str], Alignment] = {}
        # Neighbours first, so that wider gaps can be bridged through the editions between.
        for gap in range(1, len(books)):
            for n in range(len(books) - gap):
                old, new = books[n], books[n + gap]
                bridges = [(done[(old.id, mid.id)], done[(mid.id, new.id)]) for mid in books[n + 1:n + gap]]
                via = max(bridges, key=lambda v: (len(v[0].pairs) + len(v[1].pairs)), default=None)
                done[(old.id, new.id)] = align_prepared(sides[old.id], sides[new.id], via)
        alignments.extend(done.values())
        texts.update((p.id, text) for side in sides.values() for p, text in zip(side.paragraphs, side.texts))
    concordance = Concordance(cache_key(corpus), alignments, {})
    concordance.outline = _outline_links(corpus, concordance, ngrams, texts)
    return concordance


def _outline_links(corpus: Corpus, concordance: Concordance, ngrams: CharNgrams,
                   normalised: dict[str, str]) -> dict[str, list[OutlineLink]]:
    """Each outline step's links: what it cites, the paragraphs of a cited section ranked
    by how well they match the step, and those paragraphs in the other editions.
    `normalised` holds the texts the alignments normalised already."""
    cited: list[tuple[Paragraph, str]] = []
    for doc in corpus.documents.values():
        if doc.meta.format != OUTLINE_FORMAT:
            continue
        for step in doc.paragraphs:
            for ref in step.refs:
                if ref.kind == RULEBOOK_NUMBER and ref.status == RESOLVED and \
                        (ref.target in corpus.sections or ref.target in corpus.paragraphs):
                    cited.append((step, ref.target))
    if not cited:
        return {}
    terminology = get_terminology()

    def text(p: Paragraph) -> str:
        if p.id not in normalised:
            normalised[p.id] = terminology.normalise(p.text, corpus.documents[p.doc].meta.game, punctuation=False)
        return normalised[p.id]

    members = {target: (corpus.paragraphs_of(target, deep=False) or corpus.paragraphs_of(target))
               if target in corpus.sections else [] for _, target in cited}
    pool = sorted({p.id for group in members.values() for p in group})
    steps = sorted({step.id for step, _ in cited})
    sim = text_similarity(ngrams.counts([text(corpus.paragraphs[s]) for s in steps]),
                      ngrams.counts([text(corpus.paragraphs[p]) for p in pool]))
    row, col = {s: n for n, s in enumerate(steps)}, {p: n for n, p in enumerate(pool)}
    out: dict[str, dict[str, OutlineLink]] = {}
    for step, target in cited:
        links = out.setdefault(step.id, {})

        def add(target_id: str, confidence: float, via: str) -> None:
            known = links.get(target_id)
            if known is None or known.confidence < confidence:
                links[target_id] = OutlineLink(step.id, target_id, round(confidence, 3), via)

        add(target, 1.0, "cites")
        for para in members[target]:
            add(para.id, 0.5 + 0.5 * float(sim[row[step.id], col[para.id]]) / 100, "section")
        for link in [link for link in links.values() if link.via != "same-rule"]:
            for other in concordance.counterparts(link.target):
                add(other.id, link.confidence * other.confidence, "same-rule")
    order = {pid: n for n, pid in enumerate(corpus.paragraphs)}
    order.update({sid: n for n, sid in enumerate(corpus.sections, len(order))})
    return {step: sorted(links.values(), key=lambda l: (-l.confidence, order.get(l.target, 0)))
            for step, links in sorted(out.items())}


# -- cache -------------------------------------------------------------------------------
def cache_key(corpus: Corpus) -> str:
    """What the concordance depends on: the corpus and the code and data that align it."""
    h = hashlib.sha256(f"{FORMAT_VERSION}:{corpus.digest}".encode())
    code = Path(__file__).parent
    for path in (*(code / name for name in _ALIGNMENT_CODE), terminology_file()):
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"<unreadable>")
    return h.hexdigest()


@dataclass
class _Cached:
    """concordance.json: a concordance as `Concordance.to_json` writes it."""

    format: int
    key: str
    alignments: list[Alignment]
    outline: dict[str, list[OutlineLink]]


def _read_cache(path: Path, key: str, corpus: Corpus) -> Optional[Concordance]:
    """The cached concordance of `key`, checked (the shape of every value, and
    every paragraph and section it names is the corpus's); None when there is
    none, it is of another key (stale), or it is damaged (logged: it is rebuilt)."""
    def decode(data: dict) -> Concordance:
        cached = cachefile.decode(_Cached, data)
        _check_names(cached, corpus)
        return Concordance(cached.key, cached.alignments, cached.outline)

    return cachefile.read_cache(path, "a concordance", FORMAT_VERSION, "key", key, decode, log)


def _check_names(cached: _Cached, corpus: Corpus) -> None:
    """Every document, paragraph and section the cache names is the corpus's."""
    known = corpus.paragraphs.keys() | corpus.sections.keys()
    for al in cached.alignments:
        if al.old_doc not in corpus.documents or al.new_doc not in corpus.documents:
            raise cachefile.Mismatch(f"an alignment of {al.old_doc!r} and {al.new_doc!r}: no such document")
        named = chain((i for p in chain(al.pairs, al.section_pairs) for i in (p.old, p.new)),
                      al.added, al.removed, al.added_sections, al.removed_sections, al.outside)
        unknown = next((i for i in named if i not in known), None)
        if unknown is not None:
            raise cachefile.Mismatch(f"the alignment of {al.old_doc} and {al.new_doc} names {unknown!r}, "
                                     "which the corpus does not have")
    for step, links in cached.outline.items():
        if step not in known or any(link.step != step or link.target not in known for link in links):
            raise cachefile.Mismatch(f"the links of outline step {step!r} name what the corpus does not have")


def _write_cache(path: Path, concordance: Concordance) -> None:
    cachefile.write_json(path, concordance.to_json())  # unwritable: only costs speed


def load_concordance(corpus: Corpus, use_cache: bool = True) -> Concordance:
    """The corpus's concordance from the index directory, else built (and stored
    there). A corpus without a digest (built in memory) is never cached."""
    return _load(corpus, cache_key(corpus), use_cache and bool(corpus.digest))


def _load(corpus: Corpus, key: str, cacheable: bool) -> Concordance:
    path = paths.index_dir() / CACHE_NAME
    concordance = _read_cache(path, key, corpus) if cacheable else None
    if concordance is None:
        concordance = build_concordance(corpus)
        if cacheable:
            _write_cache(path, concordance)
    return concordance


_LOADED: dict[str, Concordance] = {}  # cache key -> the concordance, for the process


def get_concordance(corpus: Optional[Corpus] = None, use_cache: bool = True) -> Concordance:
    """`load_concordance`, kept for the process (per version of the corpus and of
    the code aligning it); of the process's corpus when none is given."""
    if corpus is None:
        corpus = get_corpus()
    key = cache_key(corpus)
    cacheable = use_cache and bool(corpus.digest)
    if not cacheable:
        return _load(corpus, key, False)
    if key not in _LOADED:
        _LOADED[key] = _load(corpus, key, True)
    return _LOADED[key]


def counterparts(corpus: Corpus, ident: str) -> list[tuple[str, float]]:
    """(id, confidence) of the same paragraph or section in each other edition of its game."""
    return [(c.id, c.confidence) for c in get_concordance(corpus).counterparts(ident)]

