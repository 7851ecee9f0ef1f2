"""The face by meaning: which paragraph of the book in force states what an older edition's paragraph
states, when the alignment of the editions found none.

An older edition's paragraph is shown as its face, the paragraph of the book in force standing for it
(`Search._faces`), when the alignment of the two editions pairs them surely. Where the book in force
moved a rule, the alignment may pair the older paragraph with an editors' draft, which never stands
for a rule, or with nothing: the older book's "A vampire in torpor can take no action except the
'leave torpor' action" (S6 §6.5.1 ¶3) was paired with the current book's draft of the Torpor section
only, and so showed as itself, above the rule in force (Important Terms ¶12) that says it too.

Here such a paragraph finds its face by meaning: a paragraph of the book in force, of the same game,
with questions written for it (judge/data/questions: a rule a judge is asked about), that
* says much the same words (the Jaccard of the two bodies' stems at least SAME_WORDS), and
* answers a question the older paragraph answers too: one of its written questions has at least
  QUESTION_HELD of its stems in the older paragraph (the two answer a question in common).
Of several, the one sharing most words. Worked out once per build, from the posting table (the body's
stems, and the questions' stems by question: `index.QuestionSlots`), in arrays.
"""
from __future__ import annotations

import numpy as np

from judge.search.index import QUESTION_SLOT_BITS, segments
from judge.search.postings import POSITION_BITS, PostingTable

SAME_WORDS = 0.5
QUESTION_HELD = 0.75


def faces_by_meaning(table: PostingTable, older: np.ndarray, current: np.ndarray,
                     game_codes: np.ndarray) -> dict[int, int]:
    """Older document numbers -> the document number of their face by meaning (see the module).
    `older`: the older editions' paragraphs without a face; `current`: the paragraphs of the books in
    force that may stand for one (not drafts); `game_codes`: each document's game."""
    if not len(older) or not len(current):
        return {}
    n = table.doc_count
    body_terms, terms, docs = table.field_entries("body")
    is_current = np.zeros(n, bool)
    asked = _questions_by_document(table, body_terms)
    is_current[[d for d in current.tolist() if d in asked]] = True
    if not is_current.any():
        return {}
    size = np.bincount(docs, minlength=n)  # each paragraph's distinct body stems
    # The current paragraphs' postings by term: for a term, the current paragraphs having it.
    keep = is_current[docs]
    cur_terms, cur_docs = terms[keep], docs[keep]
    cur_lengths = np.diff(np.searchsorted(cur_terms, np.arange(len(body_terms) + 1)))
    # Each older paragraph's stems (document-major).
    order = np.argsort(docs, kind="stable")
    by_doc_terms, by_doc = terms[order], docs[order]
    doc_offsets = np.searchsorted(by_doc, np.arange(n + 1))
    faces: dict[int, int] = {}
    for o in older.tolist():
        own = by_doc_terms[doc_offsets[o]:doc_offsets[o + 1]]
        if not len(own):
            continue
        index = segments(cur_lengths, own)  # the current paragraphs' postings of the older one's stems
        if not len(index):
            continue
        shared = np.bincount(cur_docs[index], minlength=n)
        candidates = np.flatnonzero(shared)
        candidates = candidates[game_codes[candidates] == game_codes[o]]
        if not len(candidates):
            continue
        jaccard = shared[candidates] / (size[o] + size[candidates] - shared[candidates])
        own_terms = set(own.tolist())
        for best in np.argsort(-jaccard, kind="stable").tolist():
            if jaccard[best] < SAME_WORDS:
                break
            p = int(candidates[best])
            if any(len(q & own_terms) >= QUESTION_HELD * len(q) for q in asked[p]):
                faces[o] = p
                break
    return faces


def _questions_by_document(table: PostingTable, body_terms: list[str]) -> dict[int, list[set[int]]]:
    """Each paragraph with written questions -> each question's stems, as indexes of `body_terms` (a stem the
    body never uses can't be held by an older paragraph: it counts against)."""
    index = {t: i for i, t in enumerate(body_terms)}
    q_terms, term_of, positions = table.field_positions("questions")
    code = np.array([index.get(t, -1 - k) for k, t in enumerate(q_terms)], np.int64)
    question = positions >> QUESTION_SLOT_BITS
    doc_shift = POSITION_BITS - QUESTION_SLOT_BITS
    out: dict[int, dict[int, set[int]]] = {}
    for q, t in zip(question.tolist(), code[term_of].tolist()):
        out.setdefault(q >> doc_shift, {}).setdefault(q, set()).add(t)
    return {doc: list(found.values()) for doc, found in out.items()}
