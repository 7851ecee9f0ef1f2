"""The version comparer: what a new edition (or an editor's draft) really changes.

    comparison = compare(corpus, "rb", "vekn")       # two editions of one game
    comparison = compare_draft(corpus, "vekn", path)  # a draft against its corpus version
    comparison.pairs      # PairChange, meaning changes first
    comparison.to_json()  # the `judge diff --json` shape (docs/compare.md)
    entries = history(corpus, "vekn:influence-phase/9")  # one rule through the editions

Paragraphs are paired by the concordance (`judge.compare.concordance`), which aligns two
editions rule by rule. A draft has the IDs of the document it drafts, so it is
paired first by identical text, then by ID, and the concordance pairs the rest.
Each pair is compared word by word (`judge.compare.text`) and called `unchanged`,
`terminology` (equal once the edition terminology is applied), `wording` or
`meaning` (a meaning signal fired, `judge.compare.signals`). A pair whose new
paragraph sits in a section that is not the counterpart of the old one's, or out
of order within its section, is also *moved*; a move with no edit is a pure move,
listed apart. Paragraphs without a counterpart are added or removed; those beyond
the reach of a document that is an excerpt of the other (the section-6 book) are
`outside`, neither.
"""
from __future__ import annotations

import re

import bisect
import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Optional, Union

from rapidfuzz import fuzz

from judge import lookup, paths
from judge.compare.signals import Signal, reference_signal
from judge.compare.importance import Importance, importance as importance_of
from judge.compare.text import (CHANGES, MEANING, SCAN, TERMINOLOGY, UNCHANGED, WORDING, Side, TextChange,
                                compare_texts, squash, vocabulary_of)
from judge.compare.alignment import Alignment, align
from judge.compare.concordance import editions, get_concordance
from judge.corpus import assemble_corpus
from judge.datafile import FileTooLarge
from judge.errors import JudgeError
from judge.ingest.sources import parse_document
from judge.lint import Finding, lint_document
from judge.model import Corpus, Document, Paragraph, Section
from judge.compare.terminology import normalise

# A draft's paragraph keeps its original's ID unless an edit earlier in its section
# shifted it; an ID match is trusted only when the two texts are still this alike.
DRAFT_ID_MIN_SIMILARITY = 60
# A pair the concordance found by text alone, below this confidence, is not one the comparer can stand behind:
# it is shown as a removed and an added paragraph, never as a change. Read on RB -> VEKN and S6 -> VEKN (the scans
# repaired, docs/compare.md): below 0.55, 13 of 15 such pairs joined two different rules; from 0.55 to 0.60, 8 of
# 16 ("a ready minion can perform one of two actions: bleed or hunt" with "A minion cannot perform more than one
# bleed action", reported as "can -> cannot"); from 0.60 to 0.66, 3 of 16.
PAIRING_MIN = 0.60
MOVED_SECTION, MOVED_ORDER = "section", "order"


# -- results -------------------------------------------------------------------------------------
@dataclass
class Move:
    """Why a pair counts as moved: its new section is not the old one's counterpart
    (`section`), or it changed places with its neighbours (`order`)."""

    why: str
    old_section: str
    new_section: str

    def to_json(self) -> dict:
        return {"why": self.why, "from": self.old_section, "to": self.new_section}


@dataclass
class PairChange:
    """One aligned pair: usually one paragraph on each side; several where the other
    edition split or merged it (their texts are then compared joined)."""

    old: list[Paragraph]
    new: list[Paragraph]
    text: TextChange
    method: str = "id"  # how the pair was found: number | title | text | part (concordance), id, same-text
    confidence: float = 1.0
    reference: Optional[Signal] = None  # a cross-reference retargeted or broken
    moved: Optional[Move] = None

    @property
    def change(self) -> str:
        if self.reference and self.text.change != MEANING:
            return MEANING
        return self.text.change

    @property
    def signals(self) -> list[Signal]:
        return self.text.signals + ([self.reference] if self.reference else [])

    @property
    def pure_move(self) -> bool:
        return self.moved is not None and self.change in (UNCHANGED, SCAN, TERMINOLOGY)

    @cached_property
    def importance(self) -> Optional[Importance]:
        """What a meaning change changes (judge/compare/importance.py); None for the other kinds."""
        if self.change != MEANING:
            return None
        return importance_of(self.signals, self.text.segments)

    def to_json(self) -> dict:
        out = {
            "old": self.old[0].id, "new": self.new[0].id,
            "old_label": self.old[0].label, "new_label": self.new[0].label,
            "change": self.change,
            "signals": [s.to_json() for s in self.signals],
            "terms": self.text.terminology,
            "ocr_noise": self.text.ocr_noise,
            "diff": [s.to_json() for s in self.text.segments],
            "moved": self.moved.to_json() if self.moved else None,
            "method": self.method, "confidence": self.confidence,
            "old_kind": self.old[0].kind, "new_kind": self.new[0].kind,
        }
        found = self.importance
        if found is not None:
            out["importance"] = found.to_json(self.signals)
        if len(self.old) > 1:
            out["old_parts"] = [p.id for p in self.old]
        if len(self.new) > 1:
            out["new_parts"] = [p.id for p in self.new]
        return out


@dataclass
class Comparison:
    old: Document
    new: Document
    pairs: list[PairChange]  # meaning (most important first: _ranked), then wording, terminology, scan, unchanged
    added: list[Paragraph] = field(default_factory=list)
    removed: list[Paragraph] = field(default_factory=list)
    added_sections: list[Section] = field(default_factory=list)
    removed_sections: list[Section] = field(default_factory=list)
    outside: int = 0  # paragraphs beyond the scope of the other document
    draft: Optional[str] = None  # the draft file, when `new` is a draft of `old`
    lint: Optional[list[Finding]] = None  # the draft's lint report

    def of(self, change: str) -> list[PairChange]:
        return [p for p in self.pairs if p.change == change]

    @property
    def moved(self) -> list[PairChange]:
        return [p for p in self.pairs if p.moved]

    def summary(self) -> dict[str, int]:
        counts = {c: 0 for c in CHANGES}
        for p in self.pairs:
            counts[p.change] += 1
        counts.update(added=len(self.added), removed=len(self.removed), moved=len(self.moved),
                      pure_moves=sum(1 for p in self.pairs if p.pure_move), outside=self.outside)
        return counts

    def to_json(self) -> dict:
        def para(p: Paragraph) -> dict:
            return {"id": p.id, "label": p.label, "kind": p.kind, "section": p.section, "text": p.text}

        def sec(s: Section) -> dict:
            return {"id": s.id, "label": s.label, "title": s.title}

        out = {
            "old": self.old.id, "new": self.new.id,
            "old_title": self.old.meta.title, "new_title": self.new.meta.title,
            "draft": self.draft,
            "summary": self.summary(),
            "pairs": [p.to_json() for p in self.pairs],
            "added": [para(p) for p in self.added],
            "removed": [para(p) for p in self.removed],
            "moved": [{"old": p.old[0].id, "new": p.new[0].id, "change": p.change, "pure": p.pure_move,
                       **p.moved.to_json()} for p in self.moved],
            "sections": {"added": [sec(s) for s in self.added_sections],
                         "removed": [sec(s) for s in self.removed_sections]},
        }
        if self.lint is not None:
            out["lint"] = [f.to_json() for f in self.lint]
        return out


# -- comparing two documents ----------------------------------------------------------------------
def compare(corpus: Corpus, old: Union[str, Document], new: Union[str, Document]) -> Comparison:
    """Compare two different editions of one game (document ids of the corpus, or Documents).
    An outline is not an edition: its steps cite the rules, they do not restate them, so
    pairing them with a rulebook's paragraphs would report every step as a meaning change."""
    old_doc, new_doc = _document(corpus, old), _document(corpus, new)
    for doc in (old_doc, new_doc):
        _editions_with(corpus, doc, "judge diff compares two editions of one game's rules")
    if old_doc.meta.game != new_doc.meta.game:
        raise JudgeError(f"cannot compare {old_doc.id} ({old_doc.meta.game}) with {new_doc.id} "
                         f"({new_doc.meta.game}): they are rulebooks of different games")
    if old_doc.id == new_doc.id:
        raise JudgeError(f"{old_doc.id} against itself: choose two different editions to compare "
                         f"(or `--draft FILE` for a draft of {old_doc.id})")
    alignment = _alignment(corpus, old_doc, new_doc)
    return _compare(corpus, old_doc, new_doc, alignment.pairs, alignment.section_pairs, alignment)


def _document(corpus: Corpus, doc: Union[str, Document]) -> Document:
    if isinstance(doc, Document):
        return doc
    if doc not in corpus.documents:
        raise JudgeError(f"no document {doc!r} to compare (known: {', '.join(corpus.documents)})")
    return corpus.documents[doc]


def _editions_with(corpus: Corpus, doc: Document, purpose: str) -> list[Document]:
    """The editions of `doc`'s game, oldest first, `doc` among them; an error saying what
    `doc` is instead (an outline) and which documents would do."""
    books = editions(corpus, doc.meta.game)
    if doc.id not in {b.id for b in books}:
        raise JudgeError(f"{doc.id} ({doc.meta.format} format) is not an edition of the rules; {purpose} "
                         f"(editions of {doc.meta.game}: {', '.join(b.id for b in books) or 'none'})")
    return books


def _order(doc: Document) -> dict[str, int]:
    """Paragraph id -> its position in the document."""
    return {p.id: n for n, p in enumerate(doc.paragraphs)}


# How much an editor needs to read a change to a paragraph of each kind, most first: the rules, then what
# explains them, then examples, drafts and flavour. Kinds not named here come with the explanations.
KIND_IMPORTANCE = {"rule": 0, "advanced": 0, "tournament": 1, "elder-format": 1, "reminder": 1, "glossary": 1,
                   "table": 1, "example": 2, "draft": 3, "flavor": 4}
_PREFACE = re.compile(r"introduction|preface|credits|foreword", re.IGNORECASE)


def _kind_rank(corpus: Corpus, doc: Document) -> dict[str, int]:
    """Each paragraph's rank for the diff's order: its kind's, and after every rule when it stands in a book's
    introduction (or credits), which tells no one how to play."""
    out = {}
    for para in doc.paragraphs:
        path = corpus.section_path(para.id) if para.id in corpus.paragraphs else []
        preface = bool(path) and bool(_PREFACE.search(path[0].title))
        out[para.id] = KIND_IMPORTANCE.get(para.kind, 1) + (4 if preface else 0)
    return out


def _ranked(changes: list[PairChange], order: dict[str, int], kind_rank: dict[str, int]) -> list[PairChange]:
    """The diff's order: by kind of change (meaning first); a meaning change by what it changes plus its
    paragraph's kind (judge/compare/importance.py: an amount in a rule before one in an example), the shorter
    edit first; then the newer book's order."""
    rank = {c: n for n, c in enumerate(CHANGES)}

    def key(change: PairChange) -> tuple:
        kind = min(kind_rank[p.id] for p in change.new)
        found = change.importance
        if found is None:
            return rank[change.change], kind, 0, order[change.new[0].id]
        return rank[change.change], found.rank + kind, found.edit_words, order[change.new[0].id]
    return sorted(changes, key=key)


def _alignment(corpus: Corpus, old_doc: Document, new_doc: Document) -> Alignment:
    """The concordance's alignment of two corpus editions (cached), else a fresh one."""
    if corpus.documents.get(old_doc.id) is old_doc and corpus.documents.get(new_doc.id) is new_doc:
        found = get_concordance(corpus).alignment(old_doc.id, new_doc.id)
        if found is not None:
            return found
    return align(corpus, old_doc, new_doc)


def weak(method: str, confidence: float) -> bool:
    """Is this a pairing the comparer cannot stand behind (PAIRING_MIN)? Such a pair is shown as a change of
    wording when it is one (the rulebook's worked examples renamed their characters: Kurt -> Wauneka pairs at
    0.56), never as a change of meaning: it is then a removed and an added paragraph."""
    return method == "text" and confidence < PAIRING_MIN


def _compare(corpus: Corpus, old_doc: Document, new_doc: Document, pairs, section_pairs,
             alignment: Optional[Alignment]) -> Comparison:
    groups = _groups(pairs, old_doc, new_doc)
    mapping = _TargetMap(pairs, section_pairs, old_doc, new_doc)
    moves = find_moves(groups, section_pairs, old_doc, new_doc)
    vocabulary = game_vocabulary(corpus, old_doc.meta.game)
    changes = []
    for olds, news, method, confidence in groups:
        text = compare_texts(_side(olds, old_doc), _side(news, new_doc), old_doc.meta.game, vocabulary)
        reference = reference_signal(_refs(olds), _refs(news), mapping.same_target)
        change = PairChange(olds, news, text, method, confidence, reference, moves.get((olds[0].id, news[0].id)))
        if weak(method, confidence) and change.change == MEANING:
            continue  # its paragraphs are listed as removed and added
        changes.append(change)
    paired_old = {p.id for c in changes for p in c.old}
    paired_new = {p.id for c in changes for p in c.new}
    outside = set(alignment.outside) if alignment else set()
    added = [p for p in new_doc.paragraphs if p.id not in paired_new and p.id not in outside]
    removed = [p for p in old_doc.paragraphs if p.id not in paired_old and p.id not in outside]
    changes = _ranked(changes, _order(new_doc), _kind_rank(corpus, new_doc))
    sec_old = {s.id: s for s in old_doc.sections}
    sec_new = {s.id: s for s in new_doc.sections}
    paired_sec_old = {p.old for p in section_pairs}
    paired_sec_new = {p.new for p in section_pairs}
    if alignment:
        added_sections = [sec_new[s] for s in alignment.added_sections if s in sec_new]
        removed_sections = [sec_old[s] for s in alignment.removed_sections if s in sec_old]
    else:
        added_sections = [s for s in new_doc.sections if s.id not in paired_sec_new]
        removed_sections = [s for s in old_doc.sections if s.id not in paired_sec_old]
    return Comparison(old_doc, new_doc, changes, added, removed, added_sections, removed_sections,
                      len(outside))


def _groups(pairs, old_doc: Document, new_doc: Document) -> list[tuple[list[Paragraph], list[Paragraph], str, float]]:
    """Pairs joined where a paragraph has several counterparts (a split or a merge):
    the connected components of the pair graph, each side in document order."""
    old_by_id = {p.id: p for p in old_doc.paragraphs}
    new_by_id = {p.id: p for p in new_doc.paragraphs}
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        parent[find("o:" + p.old)] = find("n:" + p.new)
    members: dict[str, list] = {}
    for p in pairs:
        members.setdefault(find("o:" + p.old), []).append(p)
    old_order, new_order = _order(old_doc), _order(new_doc)
    out = []
    for group in members.values():
        olds = sorted({p.old for p in group}, key=old_order.__getitem__)
        news = sorted({p.new for p in group}, key=new_order.__getitem__)
        best = max(group, key=lambda p: p.confidence)
        method = best.method if len(group) == 1 else "part"
        out.append(([old_by_id[i] for i in olds], [new_by_id[i] for i in news], method,
                    round(min(p.confidence for p in group), 3)))
    out.sort(key=lambda g: old_order[g[0][0].id])
    return out


def _side(paragraphs: list[Paragraph], doc: Document) -> Side:
    """The text of one side of a pair (paragraphs joined), with its references' spans."""
    text, spans = "", []
    for p in paragraphs:
        if text:
            text += "\n"
        offset = len(text)
        spans += [(offset + r.span[0], offset + r.span[1]) for r in p.refs if r.span != (0, 0)]
        text += p.text
    return Side(text, doc.meta.ocr, spans)


def _refs(paragraphs: list[Paragraph]) -> list[tuple[str, str, str, Optional[str]]]:
    """(linked words, text as written, status, target) of each reference."""
    return [(p.text[r.span[0]:r.span[1]] if r.span != (0, 0) else r.raw, r.raw, r.status, r.target)
            for p in paragraphs for r in p.refs]


class _TargetMap:
    """Whether a reference of the old document and one of the new name the same rule:
    through the pairs, the section pairs, or (a draft) the same section ID."""

    def __init__(self, pairs, section_pairs, old_doc: Document, new_doc: Document):
        self.map: dict[str, set[str]] = {}
        for p in [*pairs, *section_pairs]:
            self.map.setdefault(p.old, set()).add(p.new)
        if old_doc.id == new_doc.id:  # a draft: a section keeps its ID unless renamed
            new_sections = {s.id for s in new_doc.sections}
            for s in old_doc.sections:
                if s.id in new_sections:
                    self.map.setdefault(s.id, set()).add(s.id)

    def same_target(self, old: Optional[str], new: Optional[str]) -> Optional[bool]:
        if old is None or new is None:
            return None
        known = self.map.get(old)
        if not known:
            return None  # no counterpart known: cannot tell
        return new in known


# -- moves ------------------------------------------------------------------------------------------
def find_moves(groups, section_pairs, old_doc: Document, new_doc: Document) -> dict[tuple[str, str], Move]:
    """Pairs whose paragraph moved: to a section that is not the counterpart of its old
    section (the nearest enclosing section that has one), or out of order among the
    pairs that stayed in one section (the longest run in order stays; the rest moved)."""
    old_sections = {s.id: s for s in old_doc.sections}
    new_sections = {s.id: s for s in new_doc.sections}
    counterparts: dict[str, set[str]] = {}
    for p in section_pairs:
        counterparts.setdefault(p.old, set()).add(p.new)

    def ancestors(sections: dict[str, Section], sid: Optional[str]) -> list[str]:
        chain = []
        while sid:
            chain.append(sid)
            sid = sections[sid].parent if sid in sections else None
        return chain

    moves: dict[tuple[str, str], Move] = {}
    stayed: dict[str, list[tuple[int, int, tuple[str, str], str]]] = {}
    old_order, new_order = _order(old_doc), _order(new_doc)
    for olds, news, _, _ in groups:
        p, q = olds[0], news[0]
        key = (p.id, q.id)
        anchor = next((s for s in ancestors(old_sections, p.section) if s in counterparts), None)
        if anchor is None:
            continue  # nothing around it is aligned: no evidence either way
        if not counterparts[anchor] & set(ancestors(new_sections, q.section)):
            moves[key] = Move(MOVED_SECTION, p.section, q.section)
            continue
        stayed.setdefault(q.section, []).append((old_order[p.id], new_order[q.id], key, p.section))
    for q_section, members in stayed.items():
        members.sort()
        keep = _longest_increasing([m[1] for m in members])
        for n, (_, _, key, p_section) in enumerate(members):
            if n not in keep:
                moves[key] = Move(MOVED_ORDER, p_section, q_section)
    return moves


def _longest_increasing(values: list[int]) -> set[int]:
    """Indexes of a longest strictly increasing subsequence (patience sorting)."""
    tails: list[int] = []  # value at the end of the best run of each length
    tail_index: list[int] = []
    previous = [-1] * len(values)
    for i, v in enumerate(values):
        k = bisect.bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tail_index.append(i)
        else:
            tails[k] = v
            tail_index[k] = i
        previous[i] = tail_index[k - 1] if k else -1
    out, i = set(), tail_index[-1] if tail_index else -1
    while i >= 0:
        out.add(i)
        i = previous[i]
    return out


# -- vocabulary of clean text ----------------------------------------------------------------------
_VOCABULARY: dict[tuple[str, str], Optional[set[str]]] = {}  # (corpus digest, game) -> vocabulary


def game_vocabulary(corpus: Corpus, game: str) -> Optional[set[str]]:
    """The words of a game's clean (non-OCR) documents: in OCR text, a word outside
    it is garbled. None when the game has no clean document to learn from. Kept for
    the process per version of the corpus (a corpus built in memory has none)."""
    key = (corpus.digest, game)
    if not corpus.digest or key not in _VOCABULARY:
        clean = [d for d in corpus.documents.values() if d.meta.game == game and not d.meta.ocr]
        vocabulary = vocabulary_of((p.text for d in clean for p in d.paragraphs), game) if clean else None
        if not corpus.digest:
            return vocabulary
        _VOCABULARY[key] = vocabulary
    return _VOCABULARY[key]


# -- drafts ------------------------------------------------------------------------------------------
def load_draft(corpus: Corpus, doc_id: str, path: Union[str, Path]) -> tuple[Document, Corpus]:
    """Parse `path` as a draft of document `doc_id` (with that document's parser and
    IDs); returns the draft and the corpus it lives in: the corpus with the draft in
    place of its original, assembled as every corpus is (references resolved,
    glossary terms linked)."""
    if doc_id not in corpus.documents:
        raise JudgeError(f"no document {doc_id!r} to draft (known: {', '.join(corpus.documents)})")
    path = Path(path)
    if not path.is_file():
        why = ("no such file" if not path.exists() else "is a folder, not a draft file" if path.is_dir()
               else "is not a regular file (a device, pipe or socket reads as empty or never ends); "
                    "save the draft to a file")
        raise JudgeError(f"{path}: {why}")
    original = corpus.documents[doc_id]
    meta = dataclasses.replace(original.meta, source=path.name, options=dict(original.meta.options))
    try:  # SourceError (a JudgeError) names the file and line
        draft = parse_document(meta, path.parent, draft_bytes(original))
    except FileTooLarge as exc:
        raise JudgeError(f"{path}: the draft is {exc.size or exc.maximum + 1:,} bytes long; a draft of "
                         f"{original.meta.short} is read up to {exc.maximum:,} bytes ({DRAFT_GROWTH} times its corpus "
                         f"version, at least {MIN_DRAFT_BYTES:,}): a longer one takes too long to compare") from None
    return draft, assemble_corpus({**corpus.documents, doc_id: draft})


# A draft is compared paragraph by paragraph with its original, in time that grows faster than its length (a draft 7
# times the current book's size: ~10 s; 32 times: 31 s and 1.8 GB): it is read up to DRAFT_GROWTH times its corpus
# version's size, which no real revision of a book comes near.
DRAFT_GROWTH = 4
MIN_DRAFT_BYTES = 256 * 1024


def draft_bytes(original: Document) -> int:
    """The longest draft of `original` read: DRAFT_GROWTH times its source's size, at least MIN_DRAFT_BYTES."""
    try:
        size = (paths.rules_dir() / original.meta.source).stat().st_size
    except (OSError, JudgeError):
        size = sum(len(p.text.encode("utf-8")) for p in original.paragraphs)
    return max(MIN_DRAFT_BYTES, DRAFT_GROWTH * size)


def compare_draft(corpus: Corpus, doc_id: str, path: Union[str, Path]) -> Comparison:
    """Compare a draft of `doc_id` with its corpus version, with the draft's lint report."""
    draft, with_draft = load_draft(corpus, doc_id, path)
    original = corpus.documents[doc_id]
    pairs, section_pairs = _pair_draft(corpus, original, draft)
    comparison = _compare(corpus, original, draft, pairs, section_pairs, None)
    comparison.draft = str(path)
    comparison.lint = lint_document(with_draft, draft)
    return comparison


@dataclass(frozen=True)
class _DraftPair:
    old: str
    new: str
    confidence: float
    method: str


def _pair_draft(corpus: Corpus, original: Document, draft: Document):
    """Pair a draft with its original: identical texts first (in order), then the same
    ID when the texts are still alike, then the concordance for the rest."""
    game = original.meta.game
    pairs: list[_DraftPair] = []
    taken_old: set[str] = set()
    taken_new: set[str] = set()

    def take(p: Paragraph, q: Paragraph, confidence: float, method: str) -> None:
        pairs.append(_DraftPair(p.id, q.id, confidence, method))
        taken_old.add(p.id)
        taken_new.add(q.id)

    by_text: dict[str, list[Paragraph]] = {}
    for q in draft.paragraphs:
        by_text.setdefault(squash(q.text), []).append(q)
    # Same ID first among identical texts, so a repeated sentence keeps its own place.
    for same_id in (True, False):
        for p in original.paragraphs:
            if p.id in taken_old:
                continue
            q = next((q for q in by_text.get(squash(p.text), [])
                      if q.id not in taken_new and (q.id == p.id or not same_id)), None)
            if q is not None:
                take(p, q, 1.0, "same-text")
    old_by_id = {p.id: p for p in original.paragraphs}
    draft_by_id = {q.id: q for q in draft.paragraphs}
    for p in original.paragraphs:
        q = draft_by_id.get(p.id)
        if p.id in taken_old or q is None or q.id in taken_new:
            continue
        score = fuzz.ratio(normalise(p.text, game), normalise(q.text, game))
        if score >= DRAFT_ID_MIN_SIMILARITY:
            take(p, q, round(score / 100, 3), "id")
    if len(taken_old) < len(original.paragraphs) and len(taken_new) < len(draft.paragraphs):
        rest = align(corpus, original, draft)
        for pair in rest.pairs:
            if pair.old not in taken_old and pair.new not in taken_new:
                take(old_by_id[pair.old], draft_by_id[pair.new], pair.confidence, pair.method)
        section_pairs = rest.section_pairs
    else:
        section_pairs = []
    draft_sections = {s.id for s in draft.sections}
    same_sections = [_DraftPair(s.id, s.id, 1.0, "id") for s in original.sections if s.id in draft_sections]
    paired = {s.old for s in same_sections}
    section_pairs = same_sections + [s for s in section_pairs if s.old not in paired]
    return pairs, section_pairs


# -- history -----------------------------------------------------------------------------------------
@dataclass
class HistoryEntry:
    """One edition in a rule's history. `event`: created, unchanged, edited, moved
    (a pure move), moved+edited, removed, absent (not yet written, or outside the
    scope of an excerpt edition: `outside`)."""

    doc: Document
    event: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    text: Optional[TextChange] = None  # against the previous edition that has the rule
    moved: Optional[Move] = None
    since: Optional[str] = None  # the document it is compared with

    @property
    def change(self) -> Optional[str]:
        return self.text.change if self.text else None

    def to_json(self) -> dict:
        return {
            "doc": self.doc.id, "edition": self.doc.meta.edition, "edition_order": self.doc.meta.edition_order,
            "event": self.event,
            "ids": [p.id for p in self.paragraphs], "labels": [p.label for p in self.paragraphs],
            "text": "\n".join(p.text for p in self.paragraphs) or None,
            "since": self.since,
            "change": self.change,
            "signals": [s.to_json() for s in self.text.signals] if self.text else [],
            "diff": [s.to_json() for s in self.text.segments] if self.text else [],
            "moved": self.moved.to_json() if self.moved else None,
        }


@dataclass
class History:
    """A paragraph (`id`, as asked for) through the editions of its game, oldest first."""

    id: str
    label: str
    entries: list[HistoryEntry]

    def to_json(self) -> dict:
        return {"id": self.id, "label": self.label, "editions": [e.to_json() for e in self.entries]}


def _meaning_between(para: Paragraph, other: str, home: Document, book: Document, corpus: Corpus) -> bool:
    """Would `para` and its counterpart `other` be reported as a change of meaning (a weak pairing of which is
    not followed: `weak`)?"""
    first, second = (para, corpus.paragraphs[other])
    if book.meta.edition_order < home.meta.edition_order:
        first, second = second, first
    text = compare_texts(_side([first], corpus.documents[first.doc]), _side([second], corpus.documents[second.doc]),
                         home.meta.game, game_vocabulary(corpus, home.meta.game))
    return text.change == MEANING


def history(corpus: Corpus, ident: str) -> History:
    """One paragraph (an ID, or anything `judge show` accepts) through every edition of
    its game, oldest first: where it was created, and in each later edition whether it
    is unchanged, edited (with the signals), moved, or removed."""
    para = corpus.paragraphs.get(ident)
    if para is None:
        match = lookup.identify(corpus, ident)  # UnknownIdError with suggestions
        if match.id not in corpus.paragraphs:
            inside = corpus.paragraphs_of(match.id)
            example = f" (e.g. {inside[0].id})" if inside else ""
            raise JudgeError(f"{match.id} is a section; history follows one paragraph: give one of its "
                             f"paragraphs{example}")
        para = corpus.paragraphs[match.id]
    home = corpus.documents[para.doc]
    books = _editions_with(corpus, home, "history follows a rule through the rulebooks")
    versions: dict[str, list[Paragraph]] = {home.id: [para]}
    outside: set[str] = set()
    for book in books:
        if book.id == home.id:
            continue
        alignment = _alignment(corpus, home, book)
        found = sorted({p.new for p in alignment.pairs if p.old == para.id
                        and not (weak(p.method, p.confidence) and _meaning_between(para, p.new, home, book, corpus))},
                       key=_order(book).__getitem__)
        if found:
            versions[book.id] = [corpus.paragraphs[i] for i in found]
        elif para.id in alignment.outside:
            outside.add(book.id)
    vocabulary = game_vocabulary(corpus, home.meta.game)
    entries: list[HistoryEntry] = []
    previous: Optional[Document] = None
    for book in books:
        here = versions.get(book.id)
        if not here:
            event = "outside" if book.id in outside else ("removed" if previous else "absent")
            if previous and entries[-1].event == "removed":
                event = "absent"
            entries.append(HistoryEntry(book, event, since=previous.id if previous and event == "removed" else None))
            continue
        if previous is None:
            entries.append(HistoryEntry(book, "created", here))
        else:
            before = versions[previous.id]
            text = compare_texts(_side(before, previous), _side(here, book), book.meta.game, vocabulary)
            alignment = _alignment(corpus, previous, book)
            group = [(before, here, "", 1.0)]
            move = find_moves(group, alignment.section_pairs, previous, book).get((before[0].id, here[0].id))
            if move and move.why == MOVED_ORDER:
                move = None  # order is judged among all the pairs of a section, not one rule alone
            edited = text.change in (WORDING, MEANING)
            event = ("moved+edited" if edited else "moved") if move else ("edited" if edited else "unchanged")
            entries.append(HistoryEntry(book, event, here, text, move, previous.id))
        previous = book
    return History(para.id, para.label, entries)
