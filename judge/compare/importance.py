"""What a meaning change changes, so that the diff lists the changes that matter first.

A pair is a meaning change when at least one signal fired (judge/compare/signals.py). Signals are not alike:
"one victory point" -> "0.5 victory points" changes how games end; a clause dropped from a reworded paragraph
fires "can -> (none)" without changing what anyone may do. An editor reads the first kind first. So each
meaning change is given what it changes, most important first:

| what | from which signals |
|---|---|
| `amount` | a number or a counted unit replaced by another ("1 -> 0.5", "1 blood -> 1 pool") |
| `permission` | a modal replaced by one of another class ("may -> must"), or a negation added or dropped in a short passage ("can" -> "cannot") |
| `who-when` | an actor or a timing phrase replaced by another ("your prey" -> "your predator") |
| `scope` | a quantity word replaced by another ("at least" -> "at most") |
| `reference` | a link on the same words now leads elsewhere, or nowhere |
| `detail` | a number, modal, actor, timing or quantity word added or dropped in a short passage (a "may" dropped, a step numbered) |
| `rewording` | only markers that vanished or appeared with a longer rewritten passage: the words moved, the meaning may not have |

A passage is short when neither side of it holds more than FOCUSED_WORDS words: a marker that appears or vanishes
there is the edit, not a by-product of rewriting. The order of the diff is then this class's rank plus the
paragraph kind's (a rule before an example), the shorter edit first, then the newer book's order.
"""
from __future__ import annotations

from dataclasses import dataclass

AMOUNT, PERMISSION, WHO_WHEN, SCOPE, REFERENCE, DETAIL, REWORDING = (
    "amount", "permission", "who-when", "scope", "reference", "detail", "rewording")
WHAT_RANK = {AMOUNT: 0, PERMISSION: 1, WHO_WHEN: 2, SCOPE: 3, REFERENCE: 3, DETAIL: 4, REWORDING: 5}
WHAT_LABELS = {AMOUNT: "numbers and amounts", PERMISSION: "permission and prohibition", WHO_WHEN: "who and when",
               SCOPE: "how many it applies to", REFERENCE: "where a link leads",
               DETAIL: "a word of meaning added or dropped", REWORDING: "rewording"}
FOCUSED_WORDS = 6  # a passage of at most this many words a side is a targeted edit

# What a signal changes when a marker was replaced by another (old and new words both present).
_REPLACED = {"number": AMOUNT, "modal": PERMISSION, "negation": PERMISSION, "actor": WHO_WHEN,
             "timing": WHO_WHEN, "quantity": SCOPE}


@dataclass(frozen=True)
class Importance:
    """What a meaning change changes (`what`, one of WHAT_RANK), the signal that says so, and the size of the
    edit that fired it (the longer side of its passage, in words)."""

    what: str
    signal: int  # index into the pair's signals; -1 when none decided
    edit_words: int

    @property
    def rank(self) -> int:
        return WHAT_RANK[self.what]

    def to_json(self, signals: list) -> dict:
        return {"what": self.what, "label": WHAT_LABELS[self.what], "rank": self.rank,
                "why": signals[self.signal].explain() if 0 <= self.signal < len(signals) else None,
                "edit_words": self.edit_words}


def _words(text: str) -> int:
    return len(text.split())


def _what(signal, passage_words: int) -> str:
    """What one signal changes, given the size of the passage that fired it."""
    if signal.name == "reference":
        return REFERENCE
    replaced = bool(signal.old) and bool(signal.new)
    if replaced:
        if signal.name == "quantity" and "unit " in signal.note:
            return AMOUNT
        return _REPLACED.get(signal.name, REWORDING)
    if passage_words > FOCUSED_WORDS:
        return REWORDING
    # A negation is never replaced, only added or dropped: in a short passage that flips what may be done.
    return PERMISSION if signal.name == "negation" else DETAIL


def importance(signals: list, segments: list) -> Importance:
    """The most important thing a pair's signals change. `segments` is the word diff, whose changed runs name
    the signals they fired (judge.compare.text.Segment.signals); a signal no run names (a retargeted link) is
    judged as a long passage."""
    passage = {}
    for seg in segments:
        for index in seg.signals:
            size = max(_words(seg.old), _words(seg.new))
            passage[index] = min(passage.get(index, size), size)
    best = Importance(REWORDING, -1, 10**6)
    for index, signal in enumerate(signals):
        size = passage.get(index, 10**6)
        found = Importance(_what(signal, size), index, size)
        if (found.rank, found.edit_words) < (best.rank, best.edit_words):
            best = found
    return best
