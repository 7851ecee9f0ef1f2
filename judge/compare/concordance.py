"""The concordance: the same rule in each edition of a game.

`Concordance` holds the alignments (`judge.compare.alignment`) a game's editions
need, and no more: each edition aligned to its neighbour in the edition order,
and to the edition in force (the newest), each of the latter bridged through the
edition after it. That is 2k - 3 alignments for k editions (every pair of the
three V:TES books today), where aligning every two editions grew with the
square. The same rule in two editions that are not aligned directly is found by
composing alignments (`counterparts`: the most confident chain, its confidence
the product of its links'). The paragraphs (or sections) that alignments tie
together are a *rule group* (`RuleGroup`): one rule's editions, stored once.

It also holds the outline's step -> paragraph links. It is cached in the index
directory, whole (`concordance.json`) and per aligned pair of editions
(`concordance/OLD__NEW.json`, keyed by the two books' contents), so a changed
book re-aligns only its own pairs.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Iterable, Optional

from judge import cachefile, paths
from judge.datafile import bytes_for_digest
from judge.compare.alignment import Alignment, PreparedDocument, align_prepared
from judge.compare.chains import composed_chains, doc_of
from judge.compare.similarity import CharNgrams, block_similarity
from judge.compare.terminology import get_terminology, terminology_file
from judge.corpus import get_corpus
from judge.ingest.refs import RULEBOOK_NUMBER
from judge.model import RESOLVED, Corpus, Document, Paragraph

log = logging.getLogger(__name__)

CACHE_NAME = "concordance.json"
PAIRS_DIR = "concordance"  # one file per aligned pair of editions
FORMAT_VERSION = 2
OUTLINE_FORMAT = "outline"  # an outline cites editions; it is not one
COMPOSED = "composed"  # a counterpart's method when it was found through other editions
# The code whose changes invalidate the cached concordance (beside the terminology map).
_ALIGNMENT_CODE = ("concordance.py", "chains.py", "alignment.py", "similarity.py", "terminology.py")


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
        return {"step": self.step, "target": self.target, "confidence": self.confidence, "via": self.via}


@dataclass(frozen=True)
class Counterpart:
    """The same rule (paragraph or section) in another edition."""

    id: str
    doc: str
    confidence: float
    method: str  # the alignment's (number, title, text, part), or "composed"

    def to_json(self) -> dict:
        return {"id": self.id, "doc": self.doc, "confidence": self.confidence, "method": self.method}


@dataclass(frozen=True)
class Link:
    """Two members of a rule group that an alignment pairs (older edition first)."""

    old: str
    new: str
    confidence: float
    method: str


@dataclass(frozen=True)
class RuleGroup:
    """One rule across the editions of its game: the paragraphs (or the sections) that
    alignments tie together, each once, and the alignments' links between them. Its
    size grows with the editions; every two members' relation is `counterparts`'."""

    number: int  # its place in `Concordance.groups()`
    members: tuple[str, ...]  # oldest edition first
    links: tuple[Link, ...]

    def docs(self) -> list[str]:
        return list(dict.fromkeys(doc_of(m) for m in self.members))


def planned_pairs(count: int) -> list[tuple[int, int, Optional[int]]]:
    """The alignments `count` editions (oldest first) get: (old, new, bridge), indexes.
    Each edition to the next; each older one to the edition in force (the last),
    bridged through the edition after it (`bridge`), whose own alignment to the edition
    in force comes first. In the order they are aligned."""
    last = count - 1
    plan: list[tuple[int, int, Optional[int]]] = [(n, n + 1, None) for n in range(last)]
    plan += [(n, last, n + 1) for n in range(last - 2, -1, -1)]
    return plan


class Concordance:
    """The alignments of each game's editions (`planned_pairs`), the outline's links,
    and what they imply: rule groups and every rule's counterparts."""

    def __init__(self, key: str, alignments: list[Alignment], outline: dict[str, list[OutlineLink]],
                 editions: Optional[dict[str, list[str]]] = None):
        self.key = key
        self.alignments = alignments
        self.outline = outline
        # game -> its editions' document ids, oldest first
        self.editions: dict[str, list[str]] = editions or {}
        self._stored = {(al.old_doc, al.new_doc): al for al in alignments}
        self._linked: Optional[dict[str, list[Counterpart]]] = None  # id -> its aligned counterparts
        self._groups: Optional[list[RuleGroup]] = None
        self._group_of: dict[str, int] = {}
        self._cited_by: Optional[dict[str, list[OutlineLink]]] = None

    def alignment(self, old_doc: str, new_doc: str) -> Optional[Alignment]:
        """The alignment of two editions, read in the order asked for; None when the
        concordance does not align them directly (`judge.compare.alignment.align`
        aligns any two)."""
        found = self._stored.get((old_doc, new_doc))
        if found is not None:
            return found
        found = self._stored.get((new_doc, old_doc))
        return found.inverted() if found is not None else None

    def aligned(self, doc_a: str, doc_b: str) -> bool:
        """Does the concordance align these two editions directly?"""
        return (doc_a, doc_b) in self._stored or (doc_b, doc_a) in self._stored

    # -- counterparts -------------------------------------------------------------
    def _links(self) -> dict[str, list[Counterpart]]:
        if self._linked is None:
            index: dict[str, list[Counterpart]] = {}
            for al in self.alignments:
                for pair in chain(al.pairs, al.section_pairs):
                    index.setdefault(pair.old, []).append(
                        Counterpart(pair.new, al.new_doc, pair.confidence, pair.method))
                    index.setdefault(pair.new, []).append(
                        Counterpart(pair.old, al.old_doc, pair.confidence, pair.method))
            for found in index.values():
                found.sort(key=lambda c: (-c.confidence, c.id))
            self._linked = index
        return self._linked

    def linked(self, ident: str) -> list[Counterpart]:
        """The counterparts the alignments pair `ident` with directly, most confident first."""
        return list(self._links().get(ident, ()))

    def counterparts(self, ident: str) -> list[Counterpart]:
        """The same paragraph or section in the other editions, most confident first.

        In an edition aligned with `ident`'s directly, what the alignment pairs it with
        (nothing, if it pairs it with nothing). In any other, what the most confident
        chain of links inside its rule group reaches there without passing through
        another member of `ident`'s edition or of that one: its confidence is the
        product of the chain's (method "composed")."""
        links = self._links()
        direct = links.get(ident)
        if not direct:
            return []
        found = list(direct)
        found.extend(Counterpart(node, doc_of(node), confidence, COMPOSED) for node, confidence in composed_chains(
            ident, lambda node: ((c.id, c.confidence) for c in links.get(node, ())), self.aligned))
        found.sort(key=lambda c: (-c.confidence, c.id))
        return found

    # -- rule groups --------------------------------------------------------------
    def groups(self) -> list[RuleGroup]:
        """Every rule group: the paragraphs (or sections) alignments tie together."""
        if self._groups is None:
            parent: dict[str, str] = {}

            def root(x: str) -> str:
                while parent.setdefault(x, x) != x:
                    parent[x] = parent[parent[x]]
                    x = parent[x]
                return x

            for al in self.alignments:
                for pair in chain(al.pairs, al.section_pairs):
                    a, b = root(pair.old), root(pair.new)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
            order = {doc: n for books in self.editions.values() for n, doc in enumerate(books)}
            members: dict[str, list[str]] = {}
            for node in parent:
                members.setdefault(root(node), []).append(node)
            links: dict[str, list[Link]] = {}
            for al in self.alignments:
                for pair in chain(al.pairs, al.section_pairs):
                    links.setdefault(root(pair.old), []).append(Link(pair.old, pair.new, pair.confidence, pair.method))
            groups = []
            for number, top in enumerate(sorted(members, key=lambda r: min(members[r]))):
                ids = sorted(members[top], key=lambda m: (order.get(doc_of(m), 0), m))
                groups.append(RuleGroup(number, tuple(ids), tuple(links[top])))
                self._group_of.update((m, number) for m in ids)
            self._groups = groups
        return self._groups

    def group_of(self, ident: str) -> Optional[RuleGroup]:
        """The rule group of a paragraph or section; None when no alignment pairs it."""
        groups = self.groups()
        number = self._group_of.get(ident)
        return groups[number] if number is not None else None

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
        return {"format": FORMAT_VERSION, "key": self.key, "editions": self.editions,
                "alignments": [al.to_json() for al in self.alignments],
                "outline": {step: [link.to_json() for link in links] for step, links in self.outline.items()}}


def editions(corpus: Corpus, game: str) -> list[Document]:
    """The editions of a game's rules, oldest first (outlines cite editions; they are not one)."""
    return sorted((d for d in corpus.documents.values() if d.meta.game == game and d.meta.format != OUTLINE_FORMAT),
                  key=lambda d: (d.meta.edition_order, d.id))


def build_concordance(corpus: Corpus, pairs_dir: Optional[Path] = None) -> Concordance:
    """The concordance of `corpus`. With `pairs_dir`, each alignment is read from there
    when its two books (and its bridge) are unchanged, else aligned and stored there;
    the files of pairs no longer aligned are removed."""
    alignments: list[Alignment] = []
    ngrams = CharNgrams()  # one vocabulary: each book is prepared once for all its alignments
    sides: dict[str, PreparedDocument] = {}
    kept: set[str] = set()
    code = _code_key()
    by_game: dict[str, list[str]] = {}
    for game in sorted({d.meta.game for d in corpus.documents.values()}):
        books = editions(corpus, game)
        by_game[game] = [b.id for b in books]
        if len(books) < 2:
            continue
        book_keys = [document_key(b) for b in books]
        done: dict[tuple[int, int], Alignment] = {}
        plan = planned_pairs(len(books))
        bridges = {v for old, new, bridge in plan if bridge is not None for v in ((old, bridge), (bridge, new))}
        contents: dict[tuple[int, int], str] = {}  # a bridge's digest

        def side(n: int) -> PreparedDocument:
            if books[n].id not in sides:
                sides[books[n].id] = PreparedDocument(books[n], ngrams)
            return sides[books[n].id]

        if pairs_dir is None:  # prepared in order, as they always were: the same n-gram vocabulary
            for n in range(len(books)):
                side(n)
        for old, new, bridge in plan:
            via = None if bridge is None else ((old, bridge), (bridge, new))
            # Keyed by the bridge's contents, not by its key: an edit that leaves the bridge's
            # pairs as they were does not re-align what it bridges.
            key = hashlib.sha256("\0".join([code, book_keys[old], book_keys[new],
                                             *(contents[v] for v in via or ())]).encode()).hexdigest()
            name = f"{books[old].id}__{books[new].id}.json"
            found = _read_pair(pairs_dir / name, key, corpus) if pairs_dir else None
            if found is None:
                found = align_prepared(side(old), side(new), via and (done[via[0]], done[via[1]]))
                if pairs_dir:
                    _write_pair(pairs_dir / name, key, found)
            kept.add(name)
            done[(old, new)] = found
            if (old, new) in bridges:
                contents[(old, new)] = hashlib.sha256(json.dumps(found.to_json()).encode()).hexdigest()
        alignments.extend(done.values())
    if pairs_dir:
        for stale in pairs_dir.glob("*.json"):
            if stale.name not in kept:
                stale.unlink(missing_ok=True)
    concordance = Concordance(cache_key(corpus), alignments, {}, by_game)
    texts = {p.id: text for side in sides.values() for p, text in zip(side.paragraphs, side.texts)}
    concordance.outline = _outline_links(corpus, concordance, ngrams, texts)
    return concordance


def _outline_links(corpus: Corpus, concordance: Concordance, ngrams: CharNgrams,
                   normalised: dict[str, str]) -> dict[str, list[OutlineLink]]:
    """Each outline step's links: what it cites, the paragraphs of a cited section ranked
    by how well they match the step, and those paragraphs in the editions aligned with
    theirs (their other editions are a rule group away: not listed per step).
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
    row, col = {s: n for n, s in enumerate(steps)}, {p: n for n, p in enumerate(pool)}
    # A step is compared with the paragraphs of the sections it cites only: the figures of
    # each outline's steps with its cited paragraphs (one block an outline, the IDF over all).
    outlines: dict[str, tuple[set, set]] = {}
    for step, target in cited:
        rows, columns = outlines.setdefault(step.doc, (set(), set()))
        rows.add(row[step.id])
        columns.update(col[p.id] for p in members[target])
    blocks = [(sorted(rows), sorted(columns)) for rows, columns in outlines.values()]
    figures = block_similarity(ngrams.counts([text(corpus.paragraphs[s]) for s in steps]),
                               ngrams.counts([text(corpus.paragraphs[p]) for p in pool]), blocks)
    block_of = {doc: n for n, doc in enumerate(outlines)}
    places = [({r: i for i, r in enumerate(rows)}, {c: j for j, c in enumerate(columns)}) for rows, columns in blocks]
    linked = _linked_of(concordance, {target for _, target in cited} | set(pool))
    out: dict[str, dict[str, OutlineLink]] = {}
    for step, target in cited:
        links = out.setdefault(step.id, {})

        def add(target_id: str, confidence: float, via: str) -> None:
            known = links.get(target_id)
            if known is None or known.confidence < confidence:
                links[target_id] = OutlineLink(step.id, target_id, round(confidence, 3), via)

        add(target, 1.0, "cites")
        for para in members[target]:
            place = places[block_of[step.doc]]
            figure = figures[block_of[step.doc]][place[0][row[step.id]], place[1][col[para.id]]]
            add(para.id, 0.5 + 0.5 * float(figure) / 100, "section")
        for link in [link for link in links.values() if link.via != "same-rule"]:
            for other in linked.get(link.target, ()):
                add(other.id, link.confidence * other.confidence, "same-rule")
    order = {pid: n for n, pid in enumerate(corpus.paragraphs)}
    order.update({sid: n for n, sid in enumerate(corpus.sections, len(order))})
    return {step: sorted(links.values(), key=lambda l: (-l.confidence, order.get(l.target, 0)))
            for step, links in sorted(out.items())}


def _linked_of(concordance: Concordance, wanted: set[str]) -> dict[str, list[Counterpart]]:
    """`concordance.linked(ident)` of each of `wanted`, without indexing every pair of every
    alignment (the outline cites a few books' paragraphs)."""
    index: dict[str, list[Counterpart]] = {}
    for al in concordance.alignments:
        for pair in chain(al.pairs, al.section_pairs):
            if pair.old in wanted:
                index.setdefault(pair.old, []).append(Counterpart(pair.new, al.new_doc, pair.confidence, pair.method))
            if pair.new in wanted:
                index.setdefault(pair.new, []).append(Counterpart(pair.old, al.old_doc, pair.confidence, pair.method))
    for found in index.values():
        found.sort(key=lambda c: (-c.confidence, c.id))
    return index


# -- cache -------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _code_key_of(terminology: str) -> str:
    h = hashlib.sha256(str(FORMAT_VERSION).encode())
    code = Path(__file__).parent
    for path in (*(code / name for name in _ALIGNMENT_CODE), Path(terminology)):
        h.update(bytes_for_digest(path))
    return h.hexdigest()


def _code_key() -> str:
    """The code and data that align, hashed once per process and terminology file (the
    terminology map is read once per process and file too: `get_terminology`)."""
    return _code_key_of(str(terminology_file()))


def cache_key(corpus: Corpus) -> str:
    """What the concordance depends on: the corpus and the code and data that align it."""
    return hashlib.sha256(f"{_code_key()}:{corpus.digest}".encode()).hexdigest()


def document_key(doc: Document) -> str:
    """A digest of what an alignment reads of a book: its game, its sections' places,
    numbers and titles, its paragraphs' places, numbers, titles, terms and texts."""
    h = hashlib.sha256(f"{doc.id}\0{doc.meta.game}\1".encode())
    h.update("\1".join(f"{s.id}\0{s.parent}\0{s.number}\0{s.title}" for s in doc.sections).encode())
    h.update("\2".join(f"{p.id}\0{p.section}\0{p.key}\0{p.number}\0{p.title}\0{p.term}\0{p.text}"
                        for p in doc.paragraphs).encode())
    return h.hexdigest()


@dataclass
class _Cached:
    """concordance.json: a concordance as `Concordance.to_json` writes it."""

    format: int
    key: str
    editions: dict[str, list[str]]
    alignments: list[Alignment]
    outline: dict[str, list[OutlineLink]]


@dataclass
class _CachedPair:
    """concordance/OLD__NEW.json: one alignment, keyed by its books and its bridge."""

    format: int
    key: str
    alignment: Alignment


def _read_cache(path: Path, key: str, corpus: Corpus) -> Optional[Concordance]:
    """The cached concordance of `key`, checked (the shape of every value, and
    every paragraph and section it names is the corpus's); None when there is
    none, it is of another key (stale), or it is damaged (logged: it is rebuilt)."""
    def decode(data: dict) -> Concordance:
        cached = cachefile.decode(_Cached, data)
        _check_names(cached.alignments, cached.outline, corpus)
        return Concordance(cached.key, cached.alignments, cached.outline, cached.editions)

    return cachefile.read_cache(path, "a concordance", FORMAT_VERSION, "key", key, decode, log)


def _read_pair(path: Path, key: str, corpus: Corpus) -> Optional[Alignment]:
    def decode(data: dict) -> Alignment:
        cached = cachefile.decode(_CachedPair, data)
        _check_names([cached.alignment], {}, corpus)
        return cached.alignment

    return cachefile.read_cache(path, "an alignment", FORMAT_VERSION, "key", key, decode, log)


def _write_pair(path: Path, key: str, alignment: Alignment) -> None:
    cachefile.write_json(path, {"format": FORMAT_VERSION, "key": key, "alignment": alignment.to_json()})


def _check_names(alignments: Iterable[Alignment], outline: dict[str, list[OutlineLink]], corpus: Corpus) -> None:
    """Every document, paragraph and section the cache names is the corpus's."""
    paragraphs, sections = corpus.paragraphs, corpus.sections  # (not their union: a set of every ID a call)
    for al in alignments:
        if al.old_doc not in corpus.documents or al.new_doc not in corpus.documents:
            raise cachefile.Mismatch(f"an alignment of {al.old_doc!r} and {al.new_doc!r}: no such document")
        named = chain((i for p in chain(al.pairs, al.section_pairs) for i in (p.old, p.new)),
                      al.added, al.removed, al.added_sections, al.removed_sections, al.outside)
        unknown = next((i for i in named if i not in paragraphs and i not in sections), None)
        if unknown is not None:
            raise cachefile.Mismatch(f"the alignment of {al.old_doc} and {al.new_doc} names {unknown!r}, "
                                     "which the corpus does not have")
    for step, links in outline.items():
        if step not in paragraphs and step not in sections or \
                any(link.step != step or link.target not in paragraphs and link.target not in sections
                    for link in links):
            raise cachefile.Mismatch(f"the links of outline step {step!r} name what the corpus does not have")


def _write_cache(path: Path, concordance: Concordance) -> None:
    cachefile.write_json(path, concordance.to_json())  # unwritable: only costs speed


def load_concordance(corpus: Corpus, use_cache: bool = True) -> Concordance:
    """The corpus's concordance from the index directory, else built (and stored
    there, whole and per pair of editions). A corpus without a digest (built in
    memory) is never cached."""
    return _load(corpus, cache_key(corpus), use_cache and bool(corpus.digest))


def _load(corpus: Corpus, key: str, cacheable: bool) -> Concordance:
    with cachefile.collector_paused():
        return _load_or_build(corpus, key, cacheable)


def _load_or_build(corpus: Corpus, key: str, cacheable: bool) -> Concordance:
    if not cacheable:
        return build_concordance(corpus)
    root = paths.index_dir()
    concordance = _read_cache(root / CACHE_NAME, key, corpus)
    if concordance is None:
        pairs_dir = root / PAIRS_DIR
        try:
            pairs_dir.mkdir(exist_ok=True)
        except OSError:  # a read-only index directory only costs speed
            pairs_dir = None
        concordance = build_concordance(corpus, pairs_dir)
        _write_cache(root / CACHE_NAME, concordance)
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
