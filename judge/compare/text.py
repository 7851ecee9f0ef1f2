"""Compare two versions of one paragraph: word diff, terminology, OCR noise, meaning.

`compare_texts(old, new)` is a pure function of two texts (plus what is known of
them: their game, whether a side is OCR text, where their cross-references are).
It returns a `TextChange`:

* `segments`: the word diff, as runs of `equal` words, `term` words (different as
  written, the same once the edition terminology is applied: "untapped" /
  "unlocked"), and changed passages (`delete`, `insert`, `replace`), each with the
  `level` of that change: `meaning`, `wording` or `ocr`.
* `signals`: the meaning signals that fired (`judge.compare.signals`).
* `change`: the verdict for the pair, the highest level present:
  `unchanged` < `scan` < `terminology` < `wording` < `meaning`; `scan` is a pair
  whose only differences are OCR damage (below), kept apart from `unchanged` so
  that an editor sees where the older book's scan, not its rules, differs.

How it works. Both texts are cut into tokens (words, numbers, punctuation, and the
terminology map's multi-word forms such as "he or she"); each token has a
comparison key, its text normalised by `judge.compare.terminology` ("untaps" -> "unlocks",
"he" -> "they", and after "they" the verb loses its -s as the map's normaliser
does). The diff runs on the keys (difflib, longest matching blocks, which reads
better than a minimal edit script). Changed passages separated by one or two equal
words are merged into one passage: "the end of your influence" -> "any time during
this" is one change, not three. Each passage is then judged on a window of a few
words either side, so a phrase cut by the diff ("at | the end of") is still seen.

OCR noise. The older book is OCR text: words fused or garbled where columns met
("vigtpoint", "isdi@cted"). A passage whose OCR side holds words no clean edition
of the game uses is damage, not an edit, when most of its words are garbled or its
letters still match the other side: it is shown (level `ocr`) but does not make the
pair a wording change. Damage can swallow a number or a "not", so a signal that
fires only because the damaged side lacks a marker is dropped; a marker *changed*
on both sides ("one" -> "0.5") is kept.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Optional, Sequence

from rapidfuzz import fuzz

from judge.compare.signals import Signal, Word, detect, is_number_word, opens_negative
from judge.compare.terminology import get_terminology

UNCHANGED, SCAN, TERMINOLOGY, WORDING, MEANING = "unchanged", "scan", "terminology", "wording", "meaning"
CHANGES = (MEANING, WORDING, TERMINOLOGY, SCAN, UNCHANGED)  # most important first
LEVEL_OCR = "ocr"
_RANK = {UNCHANGED: 0, SCAN: 1, TERMINOLOGY: 2, WORDING: 3, MEANING: 4}

MERGE_GAP = 2  # changed passages this few equal tokens apart are one passage
CONTEXT = 4  # words either side of a passage that its detectors see
SCOPE_WORDS = 60  # how far back a passage's sentence is read for a negation in force (`_opens_negative`)
OCR_GARBLED_SHARE = 0.5  # a damaged passage with this share of garbled words is noise
OCR_LETTERS_MIN = 60  # ... or whose letters match the other side this well (rapidfuzz ratio)
OCR_LENGTH_RATIO, OCR_LENGTH_SLACK = 2.0, 8  # damage hides at most twice its letters, plus a few
# Punctuation a clean text uses; anything else in OCR text is debris ("«", "}}", "¢").
_CLEAN_PUNCTUATION = set(".,;:!?'\"()[]-–—/%+…")

# Words after which a number is a section or page number even where the parser found no
# reference (an OCR-damaged "sec. 6.28ly").
_CITING_WORDS = {"sec", "section", "sections", "page", "pages", "p", "pp", "chapter", "rule", "rules"}
_NUMBER = r"\d+(?:[.,]\d+)*(?:/\d+)?(?:st|nd|rd|th)?|[½¼¾]"
_WORD = r"[^\W\d_]+(?:['’][^\W\d_]+)*"


@dataclass(frozen=True)
class Token:
    text: str  # as written
    space: str  # the whitespace after it, so the text can be rebuilt exactly
    key: str  # comparison key
    kind: str  # word | number | punct
    in_reference: bool = False

    def word(self, damaged: bool = False) -> Word:
        return Word(self.key, self.text, self.kind == "number", self.in_reference, damaged)


@dataclass
class Segment:
    """A run of the word diff. `old`/`new` are the text as written on each side
    (with the following whitespace); `level` is set on changed runs only."""

    op: str  # equal | term | delete | insert | replace
    old: str
    new: str
    level: Optional[str] = None  # meaning | wording | ocr, for delete/insert/replace
    terminology: tuple[str, ...] = ()  # terminology map entries behind a `term` run
    signals: tuple[int, ...] = ()  # indexes into TextChange.signals fired by this run

    def to_json(self) -> dict:
        out = {"op": self.op, "old": self.old, "new": self.new}
        if self.level:
            out["level"] = self.level
        if self.terminology:
            out["terms"] = list(self.terminology)
        if self.signals:
            out["signals"] = list(self.signals)
        return out


@dataclass
class TextChange:
    change: str
    segments: list[Segment] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)
    terminology: list[str] = field(default_factory=list)  # terminology map entries applied
    ocr_noise: int = 0  # changed passages put down to OCR damage

    def to_json(self) -> dict:
        return {"change": self.change, "signals": [s.to_json() for s in self.signals],
                "terms": self.terminology, "ocr_noise": self.ocr_noise,
                "diff": [s.to_json() for s in self.segments]}


# -- tokens -------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _token_pattern(game: Optional[str]) -> re.Pattern:
    """Words, numbers, punctuation; the terminology map's multi-word forms ("he or
    she", "followers of set") first, so they are one token as they are one key."""
    phrases = sorted({form for entry in get_terminology().for_game(game)
                      for form in (*entry.forms, *entry.fold) if " " in form}, key=len, reverse=True)
    alternatives = [r"(?<![\w'])(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases) + r")(?!\w)"] \
        if phrases else []
    return re.compile("(" + "|".join([*alternatives, _NUMBER, _WORD, r"[^\s\w]|_"]) + r")(\s*)", re.IGNORECASE)


@lru_cache(maxsize=65536)
def _key(text: str, game: Optional[str], after_they: bool) -> str:
    terminology = get_terminology()
    if after_they:  # "he untaps" -> "they unlock": the verb agrees with the new pronoun
        return terminology.normalise("they " + text, game)[len("they "):]
    return terminology.normalise(text, game)


def tokenize(text: str, game: Optional[str] = "vtes",
             references: Iterable[tuple[int, int]] = ()) -> list[Token]:
    """Tokens of `text`; `references` are (start, end) spans of cross-references in it,
    whose numbers are section numbers, not quantities."""
    spans = list(references)
    tokens: list[Token] = []
    previous = ""
    cites = False  # the previous word announces a section or page number ("sec. 6.4")
    for m in _token_pattern(game).finditer(text):
        raw, space = m.group(1), m.group(2)
        first = raw[0]
        if first.isdigit() or first in "½¼¾":
            kind, key = "number", raw
        else:
            kind = "word" if first.isalpha() else "punct"
            joined = " ".join(raw.split()) if " " in raw or "\n" in raw else raw
            key = _key(joined, game, previous == "they")
        start = m.start(1)
        inside = any(a <= start < b for a, b in spans) or (kind == "number" and cites)
        tokens.append(Token(raw, space, key, kind, inside))
        if kind != "punct":
            previous = key.rsplit(" ", 1)[-1]
            cites = kind == "word" and key in _CITING_WORDS
        elif raw == "§":
            cites = True
        elif raw not in ".,":
            cites = False
    # A bare number in brackets is a callout to a figure ("the blood bank (4)"), not a count.
    for k in range(1, len(tokens) - 1):
        if tokens[k].kind == "number" and tokens[k - 1].text == "(" and tokens[k + 1].text == ")" \
                and not tokens[k - 1].space and not tokens[k].space:
            tokens[k] = dataclasses.replace(tokens[k], in_reference=True)
    return tokens


# -- the comparison ---------------------------------------------------------------------------
@dataclass
class Side:
    """One text and what is known about it."""

    text: str
    ocr: bool = False  # OCR text: garbled words are damage, not edits
    references: Sequence[tuple[int, int]] = ()


def compare_texts(old: str | Side, new: str | Side, game: Optional[str] = "vtes",
                  vocabulary: Optional[set[str]] = None) -> TextChange:
    """Compare two versions of a paragraph (see the module docstring).

    `vocabulary` is the set of comparison keys of the game's clean (non-OCR) texts;
    a word of an OCR side outside it is garbled. Without it no word counts as garbled.
    """
    old = old if isinstance(old, Side) else Side(old)
    new = new if isinstance(new, Side) else Side(new)
    if squash(old.text) == squash(new.text):
        return TextChange(UNCHANGED, [Segment("equal", old.text, new.text)] if old.text else [])
    a = tokenize(old.text, game, old.references)
    b = tokenize(new.text, game, new.references)
    damage_a = _garbled(a, old.ocr, vocabulary)
    damage_b = _garbled(b, new.ocr, vocabulary)
    matcher = difflib.SequenceMatcher(None, [t.key for t in a], [t.key for t in b], autojunk=False)
    segments: list[Segment] = []
    signals: list[Signal] = []
    terminology: list[str] = []
    ocr_noise = 0
    level = UNCHANGED
    merged = _merge(matcher.get_opcodes())
    for n, (op, i1, i2, j1, j2) in enumerate(merged):
        if op == "equal":
            for seg in _equal_runs(a[i1:i2], b[j1:j2], game):
                segments.append(seg)
                if seg.op == "term":
                    level = _max(level, TERMINOLOGY)
                    terminology += [t for t in seg.terminology if t not in terminology]
            continue
        before = min(CONTEXT, merged[n - 1][2] - merged[n - 1][1]) if n else 0
        after = min(CONTEXT, merged[n + 1][2] - merged[n + 1][1]) if n + 1 < len(merged) else 0
        fired, hunk_level = _judge(a, b, (i1, i2, j1, j2), (before, after), damage_a, damage_b,
                                   old.ocr or new.ocr)
        for s in fired:
            if s not in signals:
                signals.append(s)
        ids = tuple(signals.index(s) for s in fired)
        segments.append(Segment(_op(i1, i2, j1, j2), _text(a[i1:i2]), _text(b[j1:j2]), hunk_level, (), ids))
        if hunk_level == LEVEL_OCR:
            ocr_noise += 1
        else:
            level = _max(level, hunk_level)
    if level == UNCHANGED and ocr_noise:
        level = SCAN
    return TextChange(level, segments, signals, terminology, ocr_noise)


def squash(text: str) -> str:
    """The text with its runs of whitespace as single spaces (line breaks are not edits)."""
    return " ".join(text.split())


def _max(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


def _op(i1: int, i2: int, j1: int, j2: int) -> str:
    return "replace" if i2 > i1 and j2 > j1 else ("delete" if i2 > i1 else "insert")


def _text(tokens: Sequence[Token]) -> str:
    return "".join(t.text + t.space for t in tokens)


def _merge(opcodes: list[tuple[str, int, int, int, int]]) -> list[tuple[str, int, int, int, int]]:
    """Join changed passages separated by at most MERGE_GAP equal tokens."""
    out: list[list] = []
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            out.append(["equal", i1, i2, j1, j2])
            continue
        if len(out) >= 2 and out[-1][0] == "equal" and out[-2][0] == "change" and out[-1][2] - out[-1][1] <= MERGE_GAP:
            out.pop()
            out[-1][2], out[-1][4] = i2, j2
        elif out and out[-1][0] == "change":
            out[-1][2], out[-1][4] = i2, j2
        else:
            out.append(["change", i1, i2, j1, j2])
    return [tuple(x) for x in out]


def _equal_runs(a: Sequence[Token], b: Sequence[Token], game: Optional[str]) -> list[Segment]:
    """Equal keys: `equal` where the words are written alike (case aside), `term` where
    only the edition terminology differs."""
    out: list[Segment] = []
    terminology = get_terminology()
    k = 0
    while k < len(a):
        same = a[k].text.lower() == b[k].text.lower()
        end = k
        while end < len(a) and (a[end].text.lower() == b[end].text.lower()) == same:
            end += 1
        old, new = _text(a[k:end]), _text(b[k:end])
        names = () if same else tuple(e.name for e in terminology.changes(old, new, game))
        # Keys equal but no entry to name: typography ("’" for "'"), not terminology.
        if names:
            out.append(Segment("term", old, new, None, names))
        elif out and out[-1].op == "equal":
            out[-1].old += old
            out[-1].new += new
        else:
            out.append(Segment("equal", old, new))
        k = end
    return out


def _judge(a: list[Token], b: list[Token], span: tuple[int, int, int, int], context: tuple[int, int],
           damage_a: list[bool], damage_b: list[bool], ocr: bool) -> tuple[list[Signal], str]:
    """The signals and the level of one changed passage, `span` (old i1:i2, new j1:j2).

    The detectors see the passage plus `context` equal words before and after it,
    the same words on both sides, so a marker there is on both sides and cancels
    out; a context word damaged on one side is ignored on both."""
    i1, i2, j1, j2 = span
    before, after = context
    old_garbled = sum(damage_a[i1:i2])
    new_garbled = sum(damage_b[j1:j2])

    def window(tokens: list[Token], damage: list[bool], other: list[Token], other_damage: list[bool],
               start: int, end: int, other_start: int, other_end: int) -> list[Word]:
        words = []
        for k in range(start - before, end + after):
            damaged = _damaged(tokens, damage, k)
            if k < start or k >= end:  # context: equal on both sides
                mirror = other_start - (start - k) if k < start else other_end + (k - end)
                damaged = damaged or _damaged(other, other_damage, mirror)
            words.append(tokens[k].word(damaged))
        return words

    window_a = window(a, damage_a, b, damage_b, i1, i2, j1, j2)
    window_b = window(b, damage_b, a, damage_a, j1, j2, i1, i2)
    old_hunk, new_hunk = a[i1:i2], b[j1:j2]
    fired = detect(window_a, window_b,
                   old_unreliable=old_garbled > 0 and _could_hide(old_hunk, new_hunk),
                   new_unreliable=new_garbled > 0 and _could_hide(new_hunk, old_hunk),
                   old_negative_before=_opens_negative(a, i1 - before),
                   new_negative_before=_opens_negative(b, j1 - before))
    if fired:
        return fired, MEANING
    if old_garbled or new_garbled:
        if _is_noise(old_hunk, new_hunk, old_garbled, new_garbled):
            return [], LEVEL_OCR
    elif ocr and all(t.kind == "punct" for t in (*a[i1:i2], *b[j1:j2])):
        return [], LEVEL_OCR  # OCR punctuation is not evidence of an edit
    return [], WORDING


def _opens_negative(tokens: Sequence[Token], start: int) -> bool:
    """Is the sentence that token `start` is in already negative before it ("Methuselahs
    have no inherent votes | nor ballots")? Read back to the sentence's start, at most
    SCOPE_WORDS tokens."""
    return opens_negative([t.word() for t in tokens[max(0, start - SCOPE_WORDS):start]])


def _damaged(tokens: Sequence[Token], garbled: list[bool], k: int) -> bool:
    """Is token k no evidence? Garbled itself; a word next to garbled text (it may be
    what is left of a longer phrase: "no moreltlvate" was "no more than 1 vote"); a
    number written without a space to garbled text ("6.28ly", "Effeets,&4.5": a
    mangled section number). A number merely followed by a garbled word ("one
    vigtpoint") is still a number."""
    if not garbled:
        return False
    if garbled[k]:
        return True
    if tokens[k].kind == "number" or is_number_word(tokens[k].key):
        lo = k
        while lo > 0 and not tokens[lo - 1].space:
            lo -= 1
        hi = k
        while hi + 1 < len(tokens) and not tokens[hi].space:
            hi += 1
        return any(garbled[lo:hi + 1])
    return tokens[k].kind == "word" and ((k > 0 and garbled[k - 1]) or (k + 1 < len(tokens) and garbled[k + 1]))


def _garbled(tokens: Sequence[Token], ocr: bool, vocabulary: Optional[set[str]]) -> list[bool]:
    """Per token: is it OCR debris? Only an OCR side has any; a word is debris when
    no clean edition of the game uses it (a lone letter other than "a" and "I" too),
    a mark when clean text does not use it."""
    if not ocr or vocabulary is None:
        return []
    return [(t.kind == "word" and not is_number_word(t.key)
             and (t.key not in vocabulary or (len(t.key) == 1 and t.key not in "ai")))
            or (t.kind == "punct" and not set(t.text) <= _CLEAN_PUNCTUATION)
            for t in tokens]


def _letters(tokens: Sequence[Token]) -> str:
    return "".join(t.key for t in tokens if t.kind != "punct")


def _could_hide(damaged: Sequence[Token], other: Sequence[Token]) -> bool:
    """Could this damaged passage be an OCR reading of the other side's? OCR fuses and
    drops letters, but it does not swallow a sentence: the other side may be longer
    only by a margin ("modgyaltion" is not the paragraph the new edition wrote)."""
    return len(_letters(other)) <= OCR_LENGTH_RATIO * len(_letters(damaged)) + OCR_LENGTH_SLACK


def _is_noise(a: Sequence[Token], b: Sequence[Token], old_garbled: int, new_garbled: int) -> bool:
    for side, other, garbled in ((a, b, old_garbled), (b, a, new_garbled)):
        words = sum(1 for t in side if t.kind != "punct") or 1
        if garbled and garbled / words >= OCR_GARBLED_SHARE and _could_hide(side, other):
            return True
    return fuzz.ratio(_letters(a), _letters(b)) >= OCR_LETTERS_MIN


def vocabulary_of(texts: Iterable[str], game: Optional[str] = "vtes") -> set[str]:
    """The comparison keys of the words of `texts` (the clean editions of a game)."""
    terminology = get_terminology()
    words: set[str] = set()
    for text in texts:
        words.update(re.findall(_WORD, text.lower()))
        words.update(re.findall(_WORD, terminology.normalise(text, game)))
    return words
