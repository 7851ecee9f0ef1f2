"""Which paragraph answers: the matches of a search weighed again before they are
cut to the candidates shown (issue 20).

An older edition's paragraph that the book in force states too is shown as that
paragraph (its face, `Search._rank`): the hit's label, text and snippet are the
face's. It used to rank by its own words, so an older paragraph saying the
question's words densely lifted a face that does not say them: "hunt stealth"
showed the hunt action's first paragraph, lifted by the older book's one
paragraph stating the whole action (stealth included), above the current book's
"Default stealth: +1 stealth."; "what range does combat start at" the end of a
round, for the older book's paragraph on both. A face now ranks by what it
itself matched: an older paragraph standing for it weighs at most as much as
the face's own match, and no less than FACE_SHARE of its own (the face states
the same rule in other words: it still shows, lower, when none of the question's
words is its own).
"""
from __future__ import annotations

import numpy as np

# What an older edition's paragraph weighs at least, shown as a face that matched
# less (or nothing) of the question: this share of its own weight. (On the tuned
# questions any share from 0 to 0.5 ranks the same; 0.8 loses half the gain.)
FACE_SHARE = 0.5


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
