"""Align two editions of one game, section by section and paragraph by paragraph.

`align(corpus, old, new)` works in the manner of Academy Ruins' matcher:

1. **Sections by number**, where both books number them (the older book and the
   section-6 book share their numbering).
2. **Sections by title** (after normalising terminology, so "Diablerize a
   Vampire in Torpor" is "Diablerise a Vampire in Torpor"), confirmed by their
   text; or by text alone.
3. **Paragraphs**: every candidate pair is scored by the similarity of the
   normalised texts (`judge.compare.similarity`, so the older book's OCR damage
   costs little), plus evidence: their sections are aligned, their numbers or
   titles agree, an edition between them pairs both with the same paragraph.
   The best pairs are taken first, one to one; a pair below the threshold is no
   pair.
4. **Parts**: a leftover paragraph whose text is contained in one of the other
   book's paragraphs (a paragraph split or merged between editions) pairs with it.
5. **Sections by contents**: a section still unpaired pairs with the section of
   the other book that holds most of its paragraphs' counterparts (several old
   sections may land in one new section: the current book merged them).

Leftovers are additions or removals, except where a document is an excerpt of the
other (the section-6 book holds only chapter 6): what lies beyond the excerpt is
`outside`, neither added nor removed.

Every pair records its `method` (number, title, text, part), its `confidence`
(0-1) and the `similarity` (0-1, word for word) of the two normalised texts
(docs/graph.md says what the version comparer can read from them). The result is
deterministic.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import chain
from typing import Iterable, Optional, Union

import numpy as np
from rapidfuzz import fuzz, process

from judge.compare.similarity import CharNgrams, text_similarity
from judge.compare.terminology import get_terminology
from judge.errors import JudgeError
from judge.model import Corpus, Document, Paragraph, Section

METHODS = ("number", "title", "text", "part")

# Scores are on a 0-100 scale (text similarity plus evidence) until they become
# confidences. Unrelated paragraphs of these books score below 20 (95th percentile);
# the same rule reworded between editions scores 40-95.
PAIR_THRESHOLD = 45  # a paragraph pair needs this score
SECTION_CONTEXT = 15  # evidence: the two paragraphs' sections are aligned
PARENT_CONTEXT = 8  # evidence: only sections enclosing them are aligned
NUMBER_EVIDENCE = 10  # evidence: same section number and place in it, or same item number
TITLE_EVIDENCE = 10  # evidence: the same bold label or glossary term
BRIDGE_EVIDENCE = 15  # evidence: an edition between them pairs each with the same paragraph
SECTION_NUMBER_MIN = 50  # same number: titles or texts must agree this much
SECTION_TITLE_MIN = 85  # titles this similar name the same section ...
SECTION_TITLE_TEXT_MIN = 25  # ... when their texts agree this much
SECTION_TEXT_MIN = 50  # texts this similar make a pair whatever the titles
PART_MIN = 80  # a paragraph is part of a longer one when it matches this well inside it,
PART_MIN_LENGTH = 40  # is at least this many characters,
PART_LENGTH_RATIO = 0.75  # at most this long relative to the longer one,
PART_TEXT_MIN = 25  # and shares this much of its text
SECTION_VOTE_SHARE = 0.5  # share of a section's paragraphs whose counterparts must agree

_TITLE_NOISE = re.compile(r"\([^)]*\)|^\s*(?:\d+(?:\.\d+)*\.?|[a-z]\.|\d+\.[a-z])\s+", re.IGNORECASE)


# -- results -------------------------------------------------------------------
@dataclass(frozen=True)
class Pair:
    """One aligned pair: `old` (in the older document) is `new` (in the newer)."""

    old: str
    new: str
    confidence: float  # 0-1: how sure the matcher is that both state the same rule
    method: str  # number | title | text | part
    similarity: float  # 0-1: similarity of the two normalised texts

    def to_json(self) -> dict:
        return {"old": self.old, "new": self.new, "confidence": self.confidence, "method": self.method,
                "similarity": self.similarity}


@dataclass
class Alignment:
    """Two documents aligned. Paragraph pairs are `pairs`; section pairs `section_pairs`."""

    old_doc: str
    new_doc: str
    pairs: list[Pair] = field(default_factory=list)
    section_pairs: list[Pair] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # new paragraphs with no counterpart
    removed: list[str] = field(default_factory=list)  # old paragraphs with no counterpart
    added_sections: list[str] = field(default_factory=list)
    removed_sections: list[str] = field(default_factory=list)
    # Paragraphs of either document beyond the other's scope (it is an excerpt).
    outside: list[str] = field(default_factory=list)

    def new_of(self, old_id: str) -> list[Pair]:
        return [p for p in self._all() if p.old == old_id]

    def old_of(self, new_id: str) -> list[Pair]:
        return [p for p in self._all() if p.new == new_id]

    def _all(self) -> list[Pair]:
        return self.pairs + self.section_pairs

    def inverted(self) -> "Alignment":
        """The same alignment read from the newer document to the older."""
        def swap(p: Pair) -> Pair:
            return Pair(p.new, p.old, p.confidence, p.method, p.similarity)
        return Alignment(self.new_doc, self.old_doc, [swap(p) for p in self.pairs],
                         [swap(p) for p in self.section_pairs], list(self.removed), list(self.added),
                         list(self.removed_sections), list(self.added_sections), list(self.outside))

    def to_json(self) -> dict:
        return {
            "old_doc": self.old_doc, "new_doc": self.new_doc,
            "pairs": [p.to_json() for p in self.pairs],
            "section_pairs": [p.to_json() for p in self.section_pairs],
            "added": self.added, "removed": self.removed,
            "added_sections": self.added_sections, "removed_sections": self.removed_sections,
            "outside": self.outside,
        }


# -- the documents aligned ---------------------------------------------------------
class PreparedDocument:
    """One document prepared for alignment: normalised texts, their n-gram counts
    (by `ngrams`, shared by every document of one concordance, so that a book is
    prepared once for all its alignments) and section geometry."""

    def __init__(self, doc: Document, ngrams: CharNgrams):
        terminology = get_terminology()
        game = doc.meta.game
        self.doc = doc
        self.paragraphs: list[Paragraph] = list(doc.paragraphs)
        self.sections: list[Section] = list(doc.sections)
        self.texts = [terminology.normalise(p.text, game, punctuation=False) for p in self.paragraphs]
        self.counts = ngrams.counts(self.texts)
        self.titles = [_title_key(p.term or p.title or "", game) for p in self.paragraphs]
        self.section_titles = [_title_key(s.title, game) for s in self.sections]
        self.sec_index = {s.id: n for n, s in enumerate(self.sections)}
        self.para_section = np.array([self.sec_index[p.section] for p in self.paragraphs], dtype=int)
        by_id = {s.id: s for s in self.sections}
        self.ancestors: list[list[int]] = []  # ancestors-or-self, nearest first
        for sec in self.sections:
            chain, sid = [], sec.id
            while sid:
                chain.append(self.sec_index[sid])
                sid = by_id[sid].parent
            self.ancestors.append(chain)
        # paragraphs of each section's subtree
        self.deep: list[list[int]] = [[] for _ in self.sections]
        for i, p in enumerate(self.paragraphs):
            for s in self.ancestors[self.sec_index[p.section]]:
                self.deep[s].append(i)
        self.chapter = [self._chapter(n) for n in range(len(self.sections))]
        self.chapters = {c for c in self.chapter if c is not None}

    def _chapter(self, n: int) -> Optional[str]:
        for s in self.ancestors[n]:
            number = self.sections[s].number
            if number:
                return number.split(".", 1)[0]
        return None

    @property
    def numbered(self) -> bool:
        return bool(self.chapters)


def _title_key(title: str, game: str) -> str:
    """A title without its numbering and parenthetical remarks, normalised."""
    if not title:  # most paragraphs have no title
        return ""
    text = title.split("›")[-1]
    for _ in range(2):
        text = _TITLE_NOISE.sub(" ", text)
    return get_terminology().normalise(text, game, punctuation=False)


def _wording(x: str, y: str) -> float:
    """How alike two normalised texts are word for word (0-1): the `similarity` of a pair."""
    return round(fuzz.ratio(x, y) / 100, 3)


def _document(corpus: Optional[Corpus], doc: Union[str, Document]) -> Document:
    if isinstance(doc, Document):
        return doc
    if corpus is None or doc not in corpus.documents:
        known = ", ".join(corpus.documents) if corpus else "none"
        raise JudgeError(f"no document {doc!r} to align (known: {known})")
    return corpus.documents[doc]


# -- alignment -----------------------------------------------------------------------
def align(corpus: Optional[Corpus], old: Union[str, Document], new: Union[str, Document],
          via: Optional[tuple[Alignment, Alignment]] = None) -> Alignment:
    """Align document `old` to document `new` (ids of the corpus, or Document objects,
    e.g. a draft parsed from a file). Both must belong to the same game.

    `via`, the alignments old -> middle and middle -> new through an edition between
    them, adds evidence: a rule the middle edition pairs with both sides is likely
    the same rule (the section-6 book bridges the OCR-damaged older book and the
    rewritten current one)."""
    old_doc, new_doc = _document(corpus, old), _document(corpus, new)
    if old_doc.meta.game != new_doc.meta.game:
        raise JudgeError(f"cannot align {old_doc.id} ({old_doc.meta.game}) with {new_doc.id} "
                         f"({new_doc.meta.game}): they are rulebooks of different games")
    ngrams = CharNgrams()
    return align_prepared(PreparedDocument(old_doc, ngrams), PreparedDocument(new_doc, ngrams), via)


def align_prepared(a: PreparedDocument, b: PreparedDocument,
                   via: Optional[tuple[Alignment, Alignment]] = None) -> Alignment:
    """`align` of two prepared documents (counted by one `CharNgrams`)."""
    sim = text_similarity(a.counts, b.counts)
    section_pairs = _align_sections(a, b, sim)
    bridge = _bridge_evidence(a, b, via) if via else None
    pairs = _align_paragraphs(a, b, sim, section_pairs, bridge)
    pairs += _align_parts(a, b, sim, pairs, section_pairs)
    section_pairs += _sections_by_contents(a, b, pairs, section_pairs)
    return _finish(a, b, sim, pairs, section_pairs)


def _section_text_scores(a: PreparedDocument, b: PreparedDocument, sim: np.ndarray) -> np.ndarray:
    """How well the texts of two sections' subtrees cover each other (0-100): for each
    direction the mean of each paragraph's best match on the other side, and of the two
    the geometric mean, so that a small section inside a big one scores low."""
    if not a.paragraphs or not b.paragraphs:
        return np.zeros((len(a.sections), len(b.sections)), dtype=np.float32)
    # forward[i, t]: paragraph i's best match in section t's subtree; backward[s, j] likewise
    forward = np.zeros((len(a.paragraphs), len(b.sections)))
    for t, cols in enumerate(b.deep):
        if cols:
            forward[:, t] = sim[:, cols].max(axis=1)
    backward = np.zeros((len(a.sections), len(b.paragraphs)))
    for s, rows in enumerate(a.deep):
        if rows:
            backward[s] = sim[rows].max(axis=0)
    # The means over each subtree, for all pairs at once: averaging matrices times the
    # best matches (an empty section's row is zero, and so are its scores).
    scores = (_averaging(a) @ forward) * (_averaging(b) @ backward.T).T
    return np.sqrt(scores).astype(np.float32)


def _averaging(side: PreparedDocument):
    """sections x paragraphs (sparse): 1/n where the paragraph is one of the n in the
    section's subtree."""
    import scipy.sparse

    sizes = [len(members) for members in side.deep]
    weights = np.repeat([1.0 / n if n else 0.0 for n in sizes], sizes)
    return scipy.sparse.csr_array((weights, (np.repeat(np.arange(len(sizes)), sizes),
                                             np.fromiter(chain.from_iterable(side.deep), np.int64))),
                                  shape=(len(side.sections), len(side.paragraphs)))


def _greedy(candidates: Iterable[tuple[float, str, str, int, int]]) -> list[tuple[float, int, int]]:
    """Best pairs first, each item used once. Candidates are (score, old id, new id,
    i, j); the ids break ties so that the result never depends on iteration order."""
    taken_a, taken_b, out = set(), set(), []
    for score, _, _, i, j in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in taken_a and j not in taken_b:
            taken_a.add(i)
            taken_b.add(j)
            out.append((score, i, j))
    return out


def _align_sections(a: PreparedDocument, b: PreparedDocument, sim: np.ndarray) -> list[Pair]:
    text = _section_text_scores(a, b, sim)
    titles = (np.maximum(process.cdist(a.section_titles, b.section_titles, scorer=fuzz.ratio, dtype=np.float32),
                         process.cdist(a.section_titles, b.section_titles, scorer=fuzz.token_sort_ratio,
                                       dtype=np.float32))
              if a.sections and b.sections else np.zeros((len(a.sections), len(b.sections))))
    pairs: list[Pair] = []
    used_a, used_b = set(), set()
    # 1. By number.
    b_numbers = {s.number: t for t, s in enumerate(b.sections) if s.number}
    for s, sec in enumerate(a.sections):
        t = b_numbers.get(sec.number) if sec.number else None
        if t is None:
            continue
        agreement = max(titles[s, t], text[s, t])
        if agreement >= SECTION_NUMBER_MIN:
            pairs.append(Pair(sec.id, b.sections[t].id, _confidence(50 + agreement / 2), "number",
                              round(float(text[s, t]) / 100, 3)))
            used_a.add(s)
            used_b.add(t)
    # 2. By title confirmed by text, or by text alone; best first.
    candidates = []
    for s, sec in enumerate(a.sections):
        if s in used_a:
            continue
        for t, other in enumerate(b.sections):
            if t in used_b:
                continue
            title, body = float(titles[s, t]), float(text[s, t])
            if title >= SECTION_TITLE_MIN and body >= SECTION_TITLE_TEXT_MIN and a.section_titles[s]:
                candidates.append((0.6 * title + 0.4 * body + 100, sec.id, other.id, s, t))
            elif body >= SECTION_TEXT_MIN:
                candidates.append((body, sec.id, other.id, s, t))
    for score, s, t in _greedy(candidates):
        by_title = score > 100  # title candidates were lifted above every text-only one
        pairs.append(Pair(a.sections[s].id, b.sections[t].id, _confidence(score - 100 if by_title else score),
                          "title" if by_title else "text", round(float(text[s, t]) / 100, 3)))
    return pairs


def _context_bonus(a: PreparedDocument, b: PreparedDocument, section_pairs: list[Pair]) -> np.ndarray:
    """Evidence from the surroundings, per pair of sections: +SECTION_CONTEXT when the
    old section (or a section it is inside) is aligned with the new one or one it is
    inside; +PARENT_CONTEXT when only their enclosing sections are."""
    aligned: dict[int, set[int]] = {}
    for p in section_pairs:
        aligned.setdefault(a.sec_index[p.old], set()).add(b.sec_index[p.new])
    bonus = np.zeros((len(a.sections), len(b.sections)), dtype=np.float32)
    b_ancestors = [set(chain) for chain in b.ancestors]
    for s in range(len(a.sections)):
        for depth, anc in enumerate(a.ancestors[s]):
            for t_aligned in aligned.get(anc, ()):
                value = SECTION_CONTEXT if depth == 0 else PARENT_CONTEXT
                for t in range(len(b.sections)):
                    if t_aligned in b_ancestors[t] and bonus[s, t] < value:  # t is or is inside it
                        bonus[s, t] = value
    return bonus


def _numbers_agree(p: Paragraph, q: Paragraph, a_sec: Section, b_sec: Section) -> bool:
    if p.number and q.number:
        return p.number == q.number
    return bool(a_sec.number) and a_sec.number == b_sec.number and p.key == q.key


def _bridge_evidence(a: PreparedDocument, b: PreparedDocument, via: tuple[Alignment, Alignment]) -> np.ndarray:
    """BRIDGE_EVIDENCE, scaled by the weaker link, for each pair joined through the middle edition."""
    first, second = via
    if first.old_doc != a.doc.id or second.new_doc != b.doc.id or first.new_doc != second.old_doc:
        raise ValueError(f"cannot bridge {a.doc.id} -> {b.doc.id} through {first.old_doc} -> {first.new_doc} "
                         f"and {second.old_doc} -> {second.new_doc}")
    index_a = {p.id: i for i, p in enumerate(a.paragraphs)}
    index_b = {p.id: j for j, p in enumerate(b.paragraphs)}
    onward: dict[str, list[Pair]] = {}
    for pair in second.pairs:
        onward.setdefault(pair.old, []).append(pair)
    evidence = np.zeros((len(a.paragraphs), len(b.paragraphs)), dtype=np.float32)
    for pair in first.pairs:
        for nxt in onward.get(pair.new, ()):
            i, j = index_a.get(pair.old), index_b.get(nxt.new)
            if i is not None and j is not None:
                evidence[i, j] = max(evidence[i, j], BRIDGE_EVIDENCE * min(pair.confidence, nxt.confidence))
    return evidence


def _align_paragraphs(a: PreparedDocument, b: PreparedDocument, sim: np.ndarray, section_pairs: list[Pair],
                      bridge: Optional[np.ndarray] = None) -> list[Pair]:
    if not a.paragraphs or not b.paragraphs:
        return []
    context = _context_bonus(a, b, section_pairs)[np.ix_(a.para_section, b.para_section)]
    score = sim + context
    if bridge is not None:
        score = score + bridge
    # Only pairs that could pass need the finer evidence.
    rows, cols = np.nonzero(score + max(NUMBER_EVIDENCE, TITLE_EVIDENCE) >= PAIR_THRESHOLD)
    candidates, methods = [], {}
    for i, j in zip(rows.tolist(), cols.tolist()):
        p, q = a.paragraphs[i], b.paragraphs[j]
        value, method = float(score[i, j]), "text"
        if _numbers_agree(p, q, a.sections[a.para_section[i]], b.sections[b.para_section[j]]):
            value, method = value + NUMBER_EVIDENCE, "number"
        elif a.titles[i] and a.titles[i] == b.titles[j]:
            value, method = value + TITLE_EVIDENCE, "title"
        if value >= PAIR_THRESHOLD:
            candidates.append((value, p.id, q.id, i, j))
            methods[(i, j)] = method
    return [Pair(a.paragraphs[i].id, b.paragraphs[j].id, _confidence(value), methods[(i, j)],
                 _wording(a.texts[i], b.texts[j]))
            for value, i, j in _greedy(candidates)]


def _confidence(score: float) -> float:
    return round(min(1.0, float(score) / 100), 3)


def _align_parts(a: PreparedDocument, b: PreparedDocument, sim: np.ndarray, pairs: list[Pair], section_pairs: list[Pair]) -> list[Pair]:
    """Leftover paragraphs contained in a longer paragraph of the other side, within
    aligned sections: a paragraph split (or merged) between the editions."""
    if not a.paragraphs or not b.paragraphs:
        return []
    context = _context_bonus(a, b, section_pairs)[np.ix_(a.para_section, b.para_section)]
    eligible = (context >= SECTION_CONTEXT) & (sim >= PART_TEXT_MIN)
    paired_a = {p.old for p in pairs}
    paired_b = {p.new for p in pairs}
    out = []

    def container(text: str, others: list[int], texts: list[str]) -> tuple[float, int]:
        best = (0.0, -1)
        if len(text) < PART_MIN_LENGTH:
            return best
        for k in others:
            if len(text) <= PART_LENGTH_RATIO * len(texts[k]):
                score = fuzz.partial_ratio(text, texts[k])
                if score > best[0]:
                    best = (score, k)
        return best

    for i, p in enumerate(a.paragraphs):
        if p.id not in paired_a:
            score, j = container(a.texts[i], np.nonzero(eligible[i])[0].tolist(), b.texts)
            if j >= 0 and score >= PART_MIN:
                out.append(Pair(p.id, b.paragraphs[j].id, _confidence(0.9 * score), "part",
                                _wording(a.texts[i], b.texts[j])))
    for j, q in enumerate(b.paragraphs):
        if q.id not in paired_b:
            score, i = container(b.texts[j], np.nonzero(eligible[:, j])[0].tolist(), a.texts)
            if i >= 0 and score >= PART_MIN:
                out.append(Pair(a.paragraphs[i].id, q.id, _confidence(0.9 * score), "part",
                                _wording(a.texts[i], b.texts[j])))
    return out


def _sections_by_contents(a: PreparedDocument, b: PreparedDocument, pairs: list[Pair], section_pairs: list[Pair]) -> list[Pair]:
    """Pair each still unpaired section with the section of the other side holding most
    of its paragraphs' counterparts (many to one: a book may merge sections)."""
    paired_a = {p.old for p in section_pairs}
    paired_b = {p.new for p in section_pairs}
    section_a = {p.id: p.section for p in a.paragraphs}
    section_b = {p.id: p.section for p in b.paragraphs}
    forward: dict[str, dict[str, float]] = {}  # paragraph -> {other section: best confidence}
    backward: dict[str, dict[str, float]] = {}
    for p in pairs:
        here = forward.setdefault(p.old, {})
        here[section_b[p.new]] = max(here.get(section_b[p.new], 0.0), p.confidence)
        there = backward.setdefault(p.new, {})
        there[section_a[p.old]] = max(there.get(section_a[p.old], 0.0), p.confidence)

    def vote(own: list[Paragraph], counterparts: dict[str, dict[str, float]]) -> Optional[tuple[str, float]]:
        tally: dict[str, list[float]] = {}
        for para in own:
            for sec, conf in counterparts.get(para.id, {}).items():
                tally.setdefault(sec, []).append(conf)
        if not tally:
            return None
        sec, confs = max(sorted(tally.items()), key=lambda kv: (len(kv[1]), sum(kv[1])))
        share = len(confs) / len(own)
        if share < SECTION_VOTE_SHARE:
            return None
        return sec, round(share * sum(confs) / len(confs), 3)

    out = []
    for sec in a.sections:
        if sec.id not in paired_a:
            found = vote([a.paragraphs[i] for i in a.deep[a.sec_index[sec.id]]], forward)
            if found:
                out.append(Pair(sec.id, found[0], found[1], "text", found[1]))
    for sec in b.sections:
        if sec.id not in paired_b:
            found = vote([b.paragraphs[j] for j in b.deep[b.sec_index[sec.id]]], backward)
            if found and not any(p.old == found[0] and p.new == sec.id for p in out):
                out.append(Pair(found[0], sec.id, found[1], "text", found[1]))
    return out


def _excerpt_of(x: PreparedDocument, y: PreparedDocument) -> bool:
    """Is `x` an excerpt of `y`? A numbered document holding only some chapters: fewer
    than `y` when `y` is numbered too, or lacking chapter 1 when `y` is not."""
    if not x.numbered:
        return False
    if y.numbered:
        return x.chapters < y.chapters
    return "1" not in x.chapters


def _scope(x: PreparedDocument, other: PreparedDocument, section_pairs: list[Pair], x_is_old: bool) -> Optional[set[str]]:
    """Paragraph ids of `x` within the scope of `other`, or None when all are."""
    if not _excerpt_of(other, x):
        return None
    if x.numbered:
        return {p.id for i, p in enumerate(x.paragraphs) if x.chapter[x.para_section[i]] in other.chapters}
    inside = set()
    for pair in section_pairs:
        sid = pair.old if x_is_old else pair.new
        inside.update(x.paragraphs[i].id for i in x.deep[x.sec_index[sid]])
    return inside


def _finish(a: PreparedDocument, b: PreparedDocument, sim: np.ndarray, pairs: list[Pair], section_pairs: list[Pair]) -> Alignment:
    order_a = {p.id: n for n, p in enumerate(a.paragraphs)}
    order_b = {p.id: n for n, p in enumerate(b.paragraphs)}
    pairs.sort(key=lambda p: (order_a[p.old], order_b[p.new]))
    section_pairs.sort(key=lambda p: (a.sec_index[p.old], b.sec_index[p.new]))
    scope_a = _scope(a, b, section_pairs, True)
    scope_b = _scope(b, a, section_pairs, False)
    paired_a, paired_b = {p.old for p in pairs}, {p.new for p in pairs}
    outside = []
    removed, added = [], []
    for p in a.paragraphs:
        if p.id in paired_a:
            continue
        (removed if scope_a is None or p.id in scope_a else outside).append(p.id)
    for q in b.paragraphs:
        if q.id in paired_b:
            continue
        (added if scope_b is None or q.id in scope_b else outside).append(q.id)
    sec_a, sec_b = {p.old for p in section_pairs}, {p.new for p in section_pairs}

    def section_in_scope(side: PreparedDocument, sid: str, scope: Optional[set[str]]) -> bool:
        deep = side.deep[side.sec_index[sid]]
        return scope is None or not deep or any(side.paragraphs[i].id in scope for i in deep)

    removed_sections = [s.id for s in a.sections if s.id not in sec_a and section_in_scope(a, s.id, scope_a)]
    added_sections = [s.id for s in b.sections if s.id not in sec_b and section_in_scope(b, s.id, scope_b)]
    return Alignment(a.doc.id, b.doc.id, pairs, section_pairs, added, removed, added_sections,
                     removed_sections, outside)


