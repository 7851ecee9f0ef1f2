"""Which paragraph answers: how the matches of a search are weighed before they
are cut to the candidates shown (issue 20), beyond BM25, coverage and priors
(`Search._rank`).

**A face ranks by its own words.** An older edition's paragraph that the book in
force states too is shown as that paragraph (its face): the hit's label, text
and snippet are the face's. It used to rank by its own words, so an older
paragraph saying the question's words densely lifted a face that does not say
them: "hunt stealth" showed the hunt action's first paragraph, lifted by the
older book's one paragraph stating the whole action (stealth included), above
the current book's "Default stealth: +1 stealth."; "what range does combat start
at" the end of a round, for the older book's paragraph on both. A face now ranks
by what it itself matched: an older paragraph standing for it weighs at most as
much as the face's own match, and no less than FACE_SHARE of its own (the face
states the same rule in other words: it still shows, lower, when none of the
question's words is its own).

**A word's synonyms count once.** A word of the question is searched with its
synonyms, table-talk terms and near spellings ("block": "blocker", "block
attempt", "try to block"); the score summed them all, so a paragraph on block
attempts, having four of them, outranked the one saying that allies block. Each
unit now counts its best alternative in a paragraph in full and the others
SYNONYM_TIE of theirs (Lucene's disjunction max with a tie).

**The section the question names.** A question usually names the topic of the
section that answers it ("who pays the blood to rescue a vampire from torpor":
Rescue a Vampire from Torpor; "city deck is empty": The City Deck), where a
paragraph elsewhere may mention its words more densely (Leave Torpor; Running
Out of Cards). A paragraph of the book in force whose section's title the
question says in full (each word of the title, stop words and numbers aside,
is a word of the question or of its synonyms) weighs NAMED_SECTION more. An
older edition's sections are not weighed so: the current book answers first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
from whoosh import query as wq

from judge.memo import Memo
from judge.search.expansion import FIELD_WEIGHTS, Expansion
from judge.search.index import stemming_analyzer
from judge.search.postings import Evaluation

# What an older edition's paragraph weighs at least, shown as a face that matched
# less (or nothing) of the question: this share of its own weight. (On the tuned
# questions any share from 0 to 0.4 ranks the same, 0.5 one question less; 0.8 loses half the gain.)
FACE_SHARE = 0.25
# A unit's alternatives beyond its best in a paragraph count this share of their
# score (Lucene's disjunction-max "tie"): tuned questions 0.1-0.5 (docs/search.md).
SYNONYM_TIE = 0.4
# A paragraph under a section the question names weighs this much more: tuned
# questions 0.1-0.2 rank alike (docs/search.md).
NAMED_SECTION = 0.15


def face_numbers(ids: list, faces: dict) -> np.ndarray:
    """Each document number's face (the document number of the paragraph of the book
    in force shown in its place), -1 for none."""
    number = {pid: n for n, pid in enumerate(ids)}
    out = np.full(len(ids), -1, np.int64)
    for pid, face in faces.items():
        out[number[pid]] = number[face]
    return out


def faces_by_own_words(faces: np.ndarray, docnums: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weights of the matches `docnums` (`faces`: `face_numbers`), each older
    paragraph shown as a face weighing at most what its face matched (0 when it did
    not match), never less than FACE_SHARE of its own weight."""
    face = faces[docnums]
    shown = np.flatnonzero(face >= 0)
    if not len(shown):
        return weights
    own = np.zeros(len(faces))
    own[docnums] = weights
    out = weights.copy()
    out[shown] = np.minimum(weights[shown], np.maximum(own[face[shown]], FACE_SHARE * weights[shown]))
    return out


def _alternative_groups(unit, leaves: list) -> Optional[list]:
    """A unit's query leaves grouped by the alternative each stands for (the glossary
    leaf with the first alternative, what was typed), as `expansion.build_query` lays
    them out: the glossary leaf, then each alternative's (one for a near spelling, a
    scope or a game-scoped synonym, else one per ranked field). None when they do not
    fall so (a prefix's words are each an alternative of one leaf)."""
    if unit.prefix:
        return [[leaf] for leaf in leaves]
    sizes = [1 if alt.kind in ("fuzzy", "game", "doc") or alt.game else len(FIELD_WEIGHTS)
             for alt in unit.alternatives]
    if not sizes or 1 + sum(sizes) != len(leaves):
        return None
    groups, at = [], 1
    for size in sizes:
        groups.append(leaves[at:at + size])
        at += size
    groups[0] = [leaves[0]] + groups[0]
    return groups


def _score(evaluation: Evaluation, leaves: list, doc_count: int) -> np.ndarray:
    score = np.zeros(doc_count)
    for leaf in leaves:
        if type(leaf) is wq.Term:
            docnums, scores = evaluation.term(leaf)
            score[docnums] += scores  # (a term's documents are distinct)
        else:
            score += evaluation.node(leaf)[0]
    return score


def overcount(evaluation: Evaluation, expansion: Expansion, coverage: list, doc_count: int,
              kept: Memo) -> Optional[np.ndarray]:
    """What each paragraph's score counts of the query's units beyond each unit's best
    alternative (by document number; None when no unit has two alternatives).
    `coverage`: `build_query`'s, each unit's leaves first, then a query per
    phrase alternative (its words anywhere), not part of the score. `kept`: each unit's
    part by `Unit.key()` (a function of it and of the build: the same words come back
    query after query)."""
    out = None
    for unit, queries in zip(expansion.units, coverage):
        part = kept.recall(unit.key())
        if part is None:
            part = kept.remember(unit.key(), _unit_overcount(evaluation, unit, queries, doc_count))
        if not part:
            continue
        docnums, extra = part
        if out is None:
            out = np.zeros(doc_count)
        out[docnums] += extra  # (adding to 0.0 first: the sums of the full arrays, bit for bit)
    return out


def _unit_overcount(evaluation: Evaluation, unit, queries: list, doc_count: int) -> tuple:
    """One unit's part of `overcount`, as (document numbers, what they count beyond the best
    alternative), both read-only; () when the unit has fewer than two alternatives."""
    phrases = sum(1 for alt in unit.alternatives if alt.kind == "stems" and len(alt.tokens) > 1)
    groups = _alternative_groups(unit, queries[:len(queries) - phrases])
    if not groups or len(groups) < 2:
        return ()
    scores = np.array([_score(evaluation, group, doc_count) for group in groups])
    extra = scores.sum(axis=0) - scores.max(axis=0)
    docnums = np.flatnonzero(extra)
    values = extra[docnums]
    docnums.setflags(write=False)
    values.setflags(write=False)
    return docnums, values


def synonyms_counted_once(evaluation: Evaluation, expansion: Expansion, coverage: list,
                          scores: np.ndarray, docnums: np.ndarray, kept: Memo) -> np.ndarray:
    """The scores of the matches `docnums`, each unit counting its best alternative
    in full and the others SYNONYM_TIE of theirs (`kept`: as `overcount`'s)."""
    extra = overcount(evaluation, expansion, coverage, evaluation.table.doc_count, kept)
    if extra is None:
        return scores
    return scores - (1 - SYNONYM_TIE) * extra[docnums]


@dataclass
class SectionTable:
    """Every paragraph's section at once, as `Sections` would work it out: made with the
    searcher's state and saved beside the build (`judge.search.state`), so a process
    reads it instead of splitting IDs and stemming titles at its first search (0.06 s
    of CPU at 100 books for a command-line search, when they were worked out lazily)."""

    ids: list[str]  # section code -> section ID
    codes: np.ndarray  # document number -> its section's code
    in_force: np.ndarray  # section code -> whether it is of a book in force
    title_stems: list[str]  # section code -> its title's stems (numbers aside), space-separated


def title_stems(analyzer, title: str) -> frozenset:
    """A section title's stems, numbers aside: what a question must say in full to name it."""
    return frozenset(t.text for t in analyzer(title) if not t.text.isdigit())


def section_table(ids: list, title_of: Callable[[str], str], in_force: Callable[[str], bool]) -> SectionTable:
    """The sections of the paragraphs `ids` (by document number), coded in order of first paragraph."""
    analyzer = stemming_analyzer()
    sections = [pid.rsplit("/", 1)[0] for pid in ids]
    code_of = {section: n for n, section in enumerate(dict.fromkeys(sections))}
    return SectionTable(ids=list(code_of), codes=np.array([code_of[s] for s in sections], np.int64),
                        in_force=np.array([bool(in_force(s.split(":", 1)[0])) for s in code_of], bool),
                        title_stems=[" ".join(sorted(title_stems(analyzer, title_of(s)))) for s in code_of])


class Sections:
    """The sections of a build's paragraphs, from its `SectionTable` (saved with the
    searcher's state): each document number's section code, whether the section is of
    a book in force, and which sections of the books in force a question's stems name
    (an index of their titles' stems, made when a search first asks)."""

    def __init__(self, table: SectionTable):
        self.ids = table.ids  # section code -> section ID
        self._codes, self._in_force, self._stems = table.codes, table.in_force, table.title_stems
        # A title stem -> the codes of the sections of the books in force having it, and each
        # such section's count of title stems: made once (the build never changes).
        self._titled: Optional[tuple[dict[str, list[int]], dict[int, int]]] = None

    def codes_of(self, docnums: np.ndarray) -> np.ndarray:
        """The section codes of the document numbers `docnums`."""
        return self._codes[docnums]

    def stem_titles(self) -> None:
        """Make the titles' index now (the warm-up), not at a search."""
        if self._titled is None:
            by_stem: dict[str, list[int]] = {}
            sizes: dict[int, int] = {}
            for code in np.flatnonzero(self._in_force).tolist():
                stems = set(self._stems[code].split())
                if stems:
                    sizes[code] = len(stems)
                    for stem in stems:
                        by_stem.setdefault(stem, []).append(code)
            self._titled = (by_stem, sizes)  # (two threads may both make it: the same value)

    def named_by(self, asked: set) -> list[int]:
        """The codes of the sections of the books in force whose title's stems (numbers
        aside, at least one) are all among `asked`."""
        self.stem_titles()
        by_stem, sizes = self._titled
        counts: dict[int, int] = {}
        for stem in asked:
            for code in by_stem.get(stem, ()):
                counts[code] = counts.get(code, 0) + 1
        return [code for code, n in counts.items() if n == sizes[code]]


def named_sections_weighed(sections: Sections, expansion: Expansion, docnums: np.ndarray,
                           weights: np.ndarray) -> np.ndarray:
    """The weights of the matches `docnums`, those under a section of the book in force
    whose title the question says in full NAMED_SECTION more."""
    asked = set(expansion.stems)
    asked.update(token for u in expansion.units for a in u.alternatives if a.kind == "stems" for token in a.tokens)
    named = sections.named_by(asked)
    if not named:
        return weights
    under = np.isin(sections.codes_of(docnums), named)
    return np.where(under, weights * (1 + NAMED_SECTION), weights) if under.any() else weights
