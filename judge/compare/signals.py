"""Meaning signals: named detectors that say why a change of wording changes a rule.

Renaming "tap" to "lock" is noise; turning a withdrawal's "one victory point" into
"0.5 victory points", "at the end of" into "at any time during", "may" into "must"
changes how games are played. Each detector here looks at the same stretch of the
old and the new text (a changed passage of the word diff plus a few words of
context either side, see `judge.compare.text`), finds its markers in each, and
fires when the two sides do not carry the same markers. A fired detector is a
`Signal` that names itself and the words that fired on each side, so an editor can
check the call:

    number: "one vigtpoint" -> "0.5 victory points"
    timing: "at the end of" -> "at any time during"

Detectors work on comparison keys (terminology already normalised, lowercase), so
"untapped" and "unlocked" are the same word to them and a tap->lock rename never
fires. Each marker belongs to a class (`may` and `can` are both *permission*), and
only a change of class fires: "can" -> "may" is wording.

The detectors, in the order they claim words (a word claimed by one is not seen
by the later ones, so "cannot" is a modal, not also a negation):

    modal     permission / obligation / prohibition / no obligation / advice
    timing    at the end of, at the start of, at any time during, during, before,
              after, until, when(ever), while, as soon as, immediately, next
    quantity  at least / at most / up to / more than / all / each / any / only /
              additional, and the unit a number counts (1 blood -> 1 pool)
    actor     who acts: you (the Methuselah), your prey, your predator, any/each/other
              Methuselah, the acting / blocking / target minion, the controller
    negation  not, no, never, none, nothing, neither, nor, without, unless, except
    number    digits, fractions and number words (one, two, half, twice, first)

A negation's scope is its sentence, and some words in it belong to the negation
rather than adding a marker of their own (`_in_negative_scope`):

* "nor" carrying on a negation of its sentence ("no votes nor ballots", "cannot
  block nor play a reaction") is that negation's "or": "no votes nor ballots" ->
  "no votes or ballots" is wording. A "nor" with no negation before it in its
  sentence still counts as one.
* "any" under a negation ("does not have any blood", "cannot take any action") is
  the negation's object, as "no" is ("has no blood"): not a quantity.

The sentence may begin before the window the detectors see: `detect` is told
whether each side's window opens inside a sentence already negative
(`negative_before`, see `judge.compare.text`).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

SIGNALS = ("number", "negation", "modal", "timing", "quantity", "actor", "reference")


@dataclass(frozen=True)
class Signal:
    """One detector that fired: the words it found only in the old text and only in the new."""

    name: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    note: str = ""  # e.g. the values compared ("1 -> 0.5") or a link's status

    def explain(self) -> str:
        def side(words: tuple[str, ...]) -> str:
            return ", ".join(f'"{w}"' for w in words) if words else "(none)"
        text = f"{self.name}: {side(self.old)} -> {side(self.new)}"
        return f"{text} ({self.note})" if self.note else text

    def to_json(self) -> dict:
        return {"signal": self.name, "old": list(self.old), "new": list(self.new), "note": self.note,
                "explain": self.explain()}


@dataclass(frozen=True)
class Word:
    """What a detector sees of a token: its comparison key and its text as written."""

    key: str
    text: str
    is_number_token: bool = False  # digits; never a number when inside a reference
    in_reference: bool = False  # part of a cross-reference ("sec. 6.4"): not a quantity
    damaged: bool = False  # OCR damage at or next to it: no evidence either way

    @property
    def ignored(self) -> bool:
        return self.in_reference or self.damaged


@dataclass(frozen=True)
class Marker:
    cls: str  # what the detector compares: "permission", "n:1", "end-of"
    start: int  # index of its first word in the window
    end: int  # index after its last word
    shown: str  # the words to show an editor

# -- phrase tables: (class, phrases), longest phrases are tried first ----------------------------
_MODAL = [
    ("prohibition", ["cannot", "can't", "can not", "may not", "must not", "mustn't", "may never",
                     "must never", "can never", "is not allowed to", "are not allowed to", "not allowed to",
                     "is not able to", "are not able to", "unable to", "is forbidden", "are forbidden"]),
    ("no obligation", ["need not", "needn't", "does not have to", "do not have to", "doesn't have to",
                       "don't have to", "is not required to", "are not required to", "not required to"]),
    ("obligation", ["must", "shall", "has to", "have to", "had to", "is required to", "are required to",
                    "required to", "is obliged to", "are obliged to"]),
    ("permission", ["may", "can", "could", "is allowed to", "are allowed to", "allowed to", "is able to",
                    "are able to", "able to", "optionally", "may choose to", "can choose to"]),
    ("advice", ["should", "should not", "shouldn't"]),
]
_TIMING = [
    ("any time during", ["at any time during", "any time during", "at any point during", "at any time in",
                         "anytime during"]),
    ("any time", ["at any time", "any time", "anytime"]),
    ("end of", ["at the end of", "at the close of", "by the end of", "end of", "until the end of"]),
    ("start of", ["at the start of", "at the beginning of", "at the start of", "start of", "beginning of"]),
    ("during", ["during", "in the course of"]),
    ("before", ["before", "prior to"]),
    ("after", ["after", "afterwards"]),
    ("until", ["until", "till"]),
    ("when", ["when", "whenever", "each time", "every time"]),
    ("while", ["while", "as long as"]),
    ("immediately", ["immediately", "as soon as", "at once", "right away"]),
    ("next", ["next", "following"]),
    ("same", ["the same turn", "that turn", "this turn", "the same action"]),
]
_QUANTITY = [
    ("at least", ["at least", "or more", "no fewer than", "not fewer than", "no less than", "minimum"]),
    ("at most", ["at most", "up to", "no more than", "not more than", "or less", "or fewer", "maximum"]),
    ("more than", ["more than", "greater than", "exceeds", "in excess of"]),
    ("less than", ["less than", "fewer than"]),
    ("exactly", ["exactly", "equal to"]),
    ("all", ["all", "each", "every", "both"]),
    ("any", ["any"]),
    ("only", ["only", "solely"]),
    ("additional", ["additional", "extra", "another", "more"]),
    ("per", ["per"]),
]
_ACTOR = [
    ("prey", ["your prey", "their prey", "his prey", "her prey", "the prey", "prey"]),
    ("predator", ["your predator", "their predator", "the predator", "predator"]),
    ("other methuselahs", ["each other methuselah", "every other methuselah", "any other methuselah",
                           "other methuselahs", "another methuselah", "an opponent", "opponents", "opponent",
                           "each opponent"]),
    ("any methuselah", ["any methuselah", "each methuselah", "every methuselah", "all methuselahs",
                        "all the methuselahs"]),
    ("acting", ["the acting minion", "the acting vampire", "the acting methuselah", "acting minion",
                "acting vampire", "acting methuselah"]),
    ("blocking", ["the blocking minion", "the blocking vampire", "blocking minion", "blocking vampire",
                  "the blocker", "blocker"]),
    ("target", ["the target minion", "the target vampire", "the target methuselah", "the targeted",
                "the target", "target minion", "target vampire", "target methuselah"]),
    ("controller", ["its controller", "their controller", "the controller", "controlling methuselah",
                    "controller"]),
    # The player the rule speaks to: "you" in the older book, "the Methuselah" in the
    # current one. "your" is left out: "your minions" -> "the minions" says whose, not who acts.
    ("you", ["you", "the methuselah", "a methuselah", "that methuselah"]),
]
_NEGATION = [("negation", ["not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without",
                           "unless", "except", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't",
                           "weren't", "won't", "wouldn't", "hasn't", "haven't", "no longer"])]

# Number words. "a"/"an" are not numbers, but "a victory point" -> "1 victory point" is
# wording, so an article may stand in for a lost or added 1 (see `_numbers`).
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100, "half": 0.5, "quarter": 0.25,
}
_TIMES_WORDS = {"once": 1, "twice": 2, "thrice": 3, "double": 2, "triple": 3}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
_ORDINAL_DIGITS = re.compile(r"(\d+)(?:st|nd|rd|th)")
_ARTICLES = {"a", "an"}
_NUMBER_RE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:/\d+)?")
_FRACTION_CHARS = {"½": 0.5, "¼": 0.25, "¾": 0.75}
# Words that may follow a number as its unit (the thing counted): "1 blood", "2 pool".
UNITS = {
    "blood": "blood", "pool": "pool", "transfer": "transfer", "transfers": "transfer", "vp": "victory point",
    "victory": "victory point", "action": "action", "actions": "action", "card": "card", "cards": "card",
    "damage": "damage", "strike": "strike", "strikes": "strike", "bleed": "bleed", "stealth": "stealth",
    "intercept": "intercept", "capacity": "capacity", "counter": "counter", "counters": "counter",
    "vote": "vote", "votes": "vote", "turn": "turn", "turns": "turn", "round": "round", "rounds": "round",
    "minion": "minion", "minions": "minion", "vampire": "vampire", "vampires": "vampire",
    "life": "life", "point": "point", "points": "point", "ballot": "ballot",
}
_UNIT_SHOWN_WORDS = 3  # how many words after a number an editor sees ("1 victory point of")
_SHOWN_STOP = {",", ".", ";", ":", "(", ")", "and", "or", "to", "for", "if", "as", "is", "are", "the", "a", "an",
               "in", "on", "by", "from", "with", "but", "that", "which", "who"}


# Phrases that are quantities only before a number: "up to 3 blood", not "face up to the
# ready region".
_BEFORE_NUMBER_ONLY = {"up to"}


def _compile(table: list[tuple[str, list[str]]]) -> tuple[re.Pattern, dict[str, str]]:
    """One alternation over every phrase of a table, longest first, on a space-joined key string."""
    owner = {phrase: cls for cls, phrases in table for phrase in phrases}
    phrases = sorted(owner, key=lambda p: (-len(p), p))
    pattern = re.compile(r"(?<![^\s])(" + "|".join(re.escape(p) for p in phrases) + r")(?![^\s])")
    return pattern, owner


_TABLES = {name: _compile(table) for name, table in
           (("modal", _MODAL), ("timing", _TIMING), ("quantity", _QUANTITY), ("actor", _ACTOR),
            ("negation", _NEGATION))}


class _Window:
    """A run of words as one space-joined key string, with offsets back to the words."""

    def __init__(self, words: Sequence[Word]):
        self.words = list(words)
        self.starts: list[int] = []
        pos = 0
        for w in self.words:
            self.starts.append(pos)
            pos += len(w.key) + 1
        self.string = " ".join(w.key for w in self.words)
        self.claimed = [False] * len(self.words)

    def word_index(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:  # last start <= offset
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def shown(self, start: int, end: int) -> str:
        return " ".join(w.text for w in self.words[start:end])

    def phrases(self, detector: str) -> list[Marker]:
        pattern, owner = _TABLES[detector]
        found = []
        for m in pattern.finditer(self.string):
            start = self.word_index(m.start())
            end = self.word_index(m.end() - 1) + 1
            if any(self.claimed[start:end]) or any(w.ignored for w in self.words[start:end]):
                continue
            if m.group(1) in _BEFORE_NUMBER_ONLY and not (
                    end < len(self.words) and (_number_value(self.words[end]) or self.words[end].key in _ARTICLES)):
                continue
            for k in range(start, end):
                self.claimed[k] = True
            found.append(Marker(owner[m.group(1)], start, end, self.shown(start, end)))
        return found


def _number_value(word: Word) -> Optional[tuple[str, float]]:
    """(kind, value) of a number word or token: kind is n (a count), times, or ordinal."""
    key = word.key
    if word.ignored:
        return None
    if word.is_number_token:
        m = _ORDINAL_DIGITS.fullmatch(key)
        if m:
            return "ordinal", float(m.group(1))
        if key in _FRACTION_CHARS:
            return "n", _FRACTION_CHARS[key]
        if _NUMBER_RE.fullmatch(key):
            whole, _, den = key.replace(",", "").partition("/")
            if den:
                return ("n", float(whole) / float(den)) if float(den) else None
            return "n", float(whole)
        return None
    if key in _NUMBER_WORDS:
        return "n", float(_NUMBER_WORDS[key])
    if key in _TIMES_WORDS:
        return "times", float(_TIMES_WORDS[key])
    if key in _ORDINALS:
        return "ordinal", float(_ORDINALS[key])
    return None


def is_number_word(key: str) -> bool:
    """Is this word a number ("one", "half", "twice", "first")?"""
    return key in _NUMBER_WORDS or key in _TIMES_WORDS or key in _ORDINALS


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _unit_after(window: _Window, index: int) -> tuple[Optional[str], int]:
    """The unit counted by the number at `index` (the word right after it: "2 blood";
    "1 point of damage" counts damage, "1 victory point" victory points), and the
    end of the words to show with it."""
    words = window.words
    unit, end = None, index + 1
    if end < len(words) and words[end].key in UNITS and not words[end].ignored:
        unit, end = UNITS[words[end].key], end + 1
        if unit == "victory point" and end < len(words) and words[end].key in ("point", "points"):
            end += 1
        elif unit == "point" and end + 1 < len(words) and words[end].key == "of" \
                and words[end + 1].key in UNITS and not words[end + 1].ignored:
            unit, end = UNITS[words[end + 1].key], end + 2
    # Show a few words more when the number counts something the table does not know.
    while end < min(len(words), index + 1 + _UNIT_SHOWN_WORDS) and unit is None:
        if words[end].key in _SHOWN_STOP or _number_value(words[end]):
            break
        end += 1
    return unit, end


def _numbers(window: _Window) -> tuple[list[Marker], list[Marker], list[Marker], int]:
    """Number markers, unit markers (a number's unit), the units counted by an article
    ("a vote") and the count of articles, among the words no phrase claimed ("at
    once" is timing, not a count)."""
    numbers, units, article_units, articles = [], [], [], 0
    for i, word in enumerate(window.words):
        if window.claimed[i]:
            continue
        if word.key in _ARTICLES:
            articles += 1
            unit, end = _unit_after(window, i)
            if unit:
                article_units.append(Marker(f"unit:{unit}", i, end, window.shown(i, end)))
            continue
        found = _number_value(word)
        if not found:
            continue
        kind, value = found
        unit, end = _unit_after(window, i)
        shown = window.shown(i, end)
        numbers.append(Marker(f"{kind}:{_fmt(value)}", i, end, shown))
        if unit:
            units.append(Marker(f"unit:{unit}", i, end, shown))
    return numbers, units, article_units, articles


def _difference(old: list[Marker], new: list[Marker]) -> tuple[list[Marker], list[Marker]]:
    """Markers whose class occurs more often on one side than on the other."""
    count_old, count_new = Counter(m.cls for m in old), Counter(m.cls for m in new)
    only_old = _excess(old, count_old - count_new)
    only_new = _excess(new, count_new - count_old)
    return only_old, only_new


def _excess(markers: list[Marker], extra: Counter) -> list[Marker]:
    out, left = [], Counter(extra)
    for m in reversed(markers):  # the later occurrences are the ones the diff moved
        if left[m.cls] > 0:
            left[m.cls] -= 1
            out.append(m)
    return list(reversed(out))


_SENTENCE_ENDS = frozenset({".", ";", "!", "?"})
_NEGATIVE_MODALS = frozenset({"prohibition", "no obligation"})
_CARRIES_ON = "nor"  # a negation word that carries on the negation before it
_NEGATED_QUANTITIES = frozenset({"any"})  # quantity classes a negation takes as its object


def opens_negative(words: Sequence[Word]) -> bool:
    """Is the sentence negative by the end of `words` (the words before a window)? True
    when a negation word or a prohibition ("cannot", "need not") follows its last full stop."""
    start = max((k + 1 for k, w in enumerate(words) if w.key in _SENTENCE_ENDS), default=0)
    window = _Window(words[start:])
    negative_modals = [m for m in window.phrases("modal") if m.cls in _NEGATIVE_MODALS]
    return bool(negative_modals or window.phrases("negation"))


def _in_negative_scope(window: _Window, markers: list[Marker], negative_before: bool, openers: list[Marker]) \
        -> list[bool]:
    """For each marker, whether a negation (an opener) comes before it in its sentence."""
    ends = [k for k, w in enumerate(window.words) if w.key in _SENTENCE_ENDS]
    out = []
    for m in markers:
        sentence_start = max((k + 1 for k in ends if k < m.start), default=None)
        if sentence_start is None and negative_before:
            out.append(True)
            continue
        out.append(any((sentence_start or 0) <= o.start < m.start for o in openers))
    return out


def _scoped(window: _Window, phrases: dict[str, list[Marker]], negative_before: bool) -> dict[str, list[Marker]]:
    """The phrase markers less the words that belong to a negation before them (see the module docstring)."""
    openers = [m for m in phrases["modal"] if m.cls in _NEGATIVE_MODALS]
    openers += [m for m in phrases["negation"] if window.words[m.start].key != _CARRIES_ON]
    negations = phrases["negation"]
    carried = _in_negative_scope(window, negations, negative_before, openers)
    kept_negations = [m for m, scoped in zip(negations, carried)
                      if not (scoped and window.words[m.start].key == _CARRIES_ON and m.end == m.start + 1)]
    quantities = phrases["quantity"]
    objects = _in_negative_scope(window, quantities, negative_before, openers)
    kept_quantities = [m for m, scoped in zip(quantities, objects) if not (scoped and m.cls in _NEGATED_QUANTITIES)]
    return {**phrases, "negation": kept_negations, "quantity": kept_quantities}


def detect(old_words: Sequence[Word], new_words: Sequence[Word],
           old_unreliable: bool = False, new_unreliable: bool = False,
           old_negative_before: bool = False, new_negative_before: bool = False) -> list[Signal]:
    """The meaning signals between two windows of words.

    A side is `unreliable` when its text is damaged there (OCR): a marker found only
    on the *other* side may then be one the damage swallowed, so a detector that
    fires only because of such markers is dropped. A marker *changed* (found on both
    sides with different classes, e.g. "one" -> "0.5") is kept: damage does not
    invent a clean "one".

    `old_negative_before`/`new_negative_before`: the window opens inside a sentence that
    is already negative on that side (`opens_negative` of the words before it).
    """
    old, new = _Window(old_words), _Window(new_words)
    signals: list[Signal] = []

    def fire(name: str, only_old: list[Marker], only_new: list[Marker], note: str) -> None:
        if not only_old and not only_new:
            return
        if (not only_old and old_unreliable) or (not only_new and new_unreliable):
            return
        signals.append(Signal(name, tuple(m.shown for m in only_old), tuple(m.shown for m in only_new), note))

    # Phrases first, in claiming order; then numbers, on the words no phrase claimed.
    names = ("modal", "timing", "quantity", "actor", "negation")
    old_phrases = _scoped(old, {name: old.phrases(name) for name in names}, old_negative_before)
    new_phrases = _scoped(new, {name: new.phrases(name) for name in names}, new_negative_before)
    phrases = {name: _difference(old_phrases[name], new_phrases[name]) for name in names}
    old_numbers, old_units, old_article_units, old_articles = _numbers(old)
    new_numbers, new_units, new_article_units, new_articles = _numbers(new)
    num_old, num_new = _difference(old_numbers, new_numbers)
    # "a victory point" -> "1 victory point": an article stands for a 1 on the other side.
    num_new = _absorb_ones(num_new, old_articles - new_articles)
    num_old = _absorb_ones(num_old, new_articles - old_articles)
    # A unit that changed along with its number is told by the number signal, and one
    # counted by an article on the other side ("a vote" -> "1 vote") has not changed.
    unit_old, unit_new = _difference(old_units, new_units)
    unit_old = _absorb_units([m for m in unit_old if not any(n.start == m.start for n in num_old)],
                             new_article_units)
    unit_new = _absorb_units([m for m in unit_new if not any(n.start == m.start for n in num_new)],
                             old_article_units)
    quantity_old, quantity_new = phrases["quantity"]
    phrases["quantity"] = (quantity_old + unit_old, quantity_new + unit_new)

    fire("number", num_old, num_new, _values(num_old, num_new))
    for name in ("negation", "modal", "timing", "quantity", "actor"):
        only_old, only_new = phrases[name]
        fire(name, only_old, only_new, _classes(only_old, only_new))
    return signals


def _absorb_units(markers: list[Marker], counted_by_articles: list[Marker]) -> list[Marker]:
    left = Counter(m.cls for m in counted_by_articles)
    out = []
    for m in markers:
        if left[m.cls] > 0:
            left[m.cls] -= 1
            continue
        out.append(m)
    return out


def _absorb_ones(markers: list[Marker], articles: int) -> list[Marker]:
    out = []
    for m in markers:
        if articles > 0 and m.cls == "n:1":
            articles -= 1
            continue
        out.append(m)
    return out


def _classes(only_old: list[Marker], only_new: list[Marker]) -> str:
    def side(ms: list[Marker]) -> str:
        return ", ".join(m.cls.replace("unit:", "unit ") for m in ms) or "none"
    return f"{side(only_old)} -> {side(only_new)}"


def _values(only_old: list[Marker], only_new: list[Marker]) -> str:
    def side(ms: list[Marker]) -> str:
        out = []
        for m in ms:
            kind, value = m.cls.split(":", 1)
            out.append({"n": value, "times": f"{value}×", "ordinal": f"#{value}"}[kind].replace("#-1", "last"))
        return ", ".join(out) or "none"
    return f"{side(only_old)} -> {side(only_new)}"


def reference_signal(old: Iterable[tuple[str, str, str, Optional[str]]],
                     new: Iterable[tuple[str, str, str, Optional[str]]],
                     same_target: Callable[[Optional[str], Optional[str]], Optional[bool]]) -> Optional[Signal]:
    """A cross-reference that now points at another rule, or is broken.

    `old`/`new` are (linked words, text as written, status, target) per reference;
    `same_target(a, b)` says whether two targets are the same rule (None: cannot
    tell). A reference on the same words on both sides ("see Contested Cards") that
    points at another rule was retargeted; a new reference that is broken, where
    the old text had no broken one on those words, is reported as broken.
    References merely added or removed show in the word diff.
    """
    old, new = list(old), list(new)
    changed_old, changed_new, notes = [], [], []
    for words, raw, status, target in new:
        partners = [o for o in old if o[0].lower() == words.lower()]
        partner = next((o for o in partners if o[1] == raw), partners[0] if partners else None)
        if status == "broken":
            if partner is None or partner[2] != "broken":
                if partner:
                    changed_old.append(partner[1])
                changed_new.append(raw)
                notes.append(f"now broken: {raw}")
        elif partner and partner[2] == "resolved" and status == "resolved" and same_target(partner[3], target) is False:
            changed_old.append(partner[1])
            changed_new.append(raw)
            notes.append(f"{words!r} points at {target} instead of {partner[3]}")
    if not changed_new:
        return None
    return Signal("reference", tuple(changed_old), tuple(changed_new), "; ".join(notes))
