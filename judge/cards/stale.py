"""Rulings made before a rules change they rely on.

A ruling's date is that of its latest dated reference (the last time a Rules
Director or the Rules Team stated it). A rule's change is dated by the editions:
the newest older edition holding the rule (the section-6 edition holds only
section 6: for another rule the edition before it stands) whose text differs in
meaning from the current book's still stated the old rule, so the change came
after that edition was in force: at the earliest on its `in_force_from`
(rules/manifest.yaml, itself the earliest date the evidence allows). A ruling is
flagged only when it is dated before that: made before the change for sure. A
ruling made since may already follow the current rule, and is never flagged.

Whether an edition holds a rule is the concordance's answer (its counterparts of
the rule), so that only the edition a ruling stands on is compared in full with
the current one, however many editions the game has.

A ruling is flagged only on evidence: a rule it relies on whose text changed in
meaning between that edition and the current one (a passage the version comparer
classifies at its meaning level; OCR damage, wording and terminology are not
evidence), where the rule is

* a paragraph its rulebook reference resolves to (a section's own paragraphs): any
  meaning passage counts;
* a rule of a *specific* rule template its text uses (judge/data/card_templates.yaml:
  not a card kind, a card field or a template marked broad), and the changed
  passage, with the few words around it the comparer's detectors read, holds one of
  the template's keywords ("stealth" for "+1 stealth").

The note names the change: both paragraphs and the words that changed. Never a
verdict: a judge reads both texts.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from judge.cards.model import Ruling

if TYPE_CHECKING:
    from judge.cards.base import CardBase
    from judge.compare.comparison import Comparison, PairChange
    from judge.corpus import Corpus


@dataclass
class RuleChange:
    """One rule a ruling relies on whose meaning changed since the ruling's edition."""

    rule: str  # the current edition's paragraph (vekn:...)
    label: str
    old: list[str]  # its counterpart(s) in the edition in force at the ruling's date
    old_label: str
    via: str  # "cites" (a rulebook reference) or "template:<id>" (a rule template the text uses)
    signals: list[str]  # the comparer's meaning signals, explained ("number: "1" -> "0.5"")
    changed: list[tuple[str, str]] = field(default_factory=list)  # the meaning passages (old words, new words)
    keywords: list[str] = field(default_factory=list)  # the template's keywords the passages touch

    @property
    def words(self) -> str:
        """The first changed passage as a reader sees it: '"old" -> "new"'."""
        old, new = self.changed[0] if self.changed else ("", "")
        return f"{_quoted(old)} -> {_quoted(new)}"

    def to_json(self) -> dict:
        return {"rule": self.rule, "label": self.label, "old": self.old, "old_label": self.old_label,
                "via": self.via, "signals": self.signals,
                "changed": [{"old": o, "new": n} for o, n in self.changed], "keywords": self.keywords}


def _quoted(words: str, limit: int = 80) -> str:
    words = " ".join(words.split())
    if not words:
        return "(nothing)"
    return f'"{words if len(words) <= limit else words[:limit - 1] + "…"}"'


@dataclass
class Stale:
    """Why a ruling may predate a rules change."""

    ruling: str
    date: str  # the ruling's date
    edition: str  # the document in force then ("rb")
    edition_title: str
    current: str  # the current edition ("vekn")
    changed_after: str  # the earliest date of the change: the older edition still said the old rule from then on
    changes: list[RuleChange] = field(default_factory=list)

    @property
    def note(self) -> str:
        first = self.changes[0]
        more = f" (and {len(self.changes) - 1} more rule{'s' * (len(self.changes) > 2)})" if len(self.changes) > 1 else ""
        how = ("which it cites" if first.via == "cites" else
               f"which its words rely on (the template {first.via.split(':', 1)[1]!r}, about "
               f"{', '.join(first.keywords)})")
        return (f"Made {self.date}, before a rules change: {first.label} ({first.rule}), {how}, now says "
                f"{_quoted(first.changed[0][1]) if first.changed else 'otherwise'} where the "
                f"{self.edition_title} said {_quoted(first.changed[0][0]) if first.changed else 'else'} "
                f"({', '.join(first.old)}); that book was in force on {self.changed_after} at the earliest, "
                f"so the change came after this ruling{more}. Read both before applying it.")

    def to_json(self) -> dict:
        return {"date": self.date, "edition": self.edition, "edition_title": self.edition_title,
                "current": self.current, "changed_after": self.changed_after, "note": self.note,
                "changes": [c.to_json() for c in self.changes]}


def ruling_date(base: "CardBase", ruling: Ruling) -> Optional[str]:
    """The date of the ruling's latest dated reference; None when none is dated (rulebook references only)."""
    dates = [base.references[r].date for r in ruling.references if r in base.references and base.references[r].date]
    return max(dates) if dates else None


class StaleCheck:
    """The staleness of the rulings of a card base against the corpus's editions, each ruling
    worked out at its first use (`of`) and kept, or all at once (`all`). An older edition is
    compared with the current one only when a ruling needs it (the edition in force at its
    date, or the one before it when that one does not hold the rule): with many editions of
    the game, comparing every one with the current book grew with the books (issue 21)."""

    def __init__(self, base: "CardBase", corpus: "Corpus"):
        self.base = base
        self.corpus = corpus
        self._lock = threading.RLock()
        self._found: Optional[dict[str, Stale]] = None  # every ruling's, once `all` ran
        self._each: dict[str, Optional[Stale]] = {}  # by ruling id: bounded by the base's rulings
        self._books: Optional[list] = None
        self._comparisons: dict[str, _ByNew] = {}  # by older edition: bounded by the editions
        self._held: dict[str, set[str]] = {}  # rule -> the editions holding it: bounded by the rules cited

    # -- the editions -------------------------------------------------------------------------
    def editions(self) -> list:
        """The game's rulebooks with a date, oldest first (the outline is no edition)."""
        from judge.compare.comparison import editions
        current = self.corpus.documents.get(self.base.book or "")
        if current is None:
            return []
        return sorted((d for d in editions(self.corpus, current.meta.game) if d.meta.in_force_from),
                      key=lambda d: (d.meta.in_force_from, d.meta.edition_order))

    def all(self) -> dict[str, Stale]:
        if self._found is None:
            with self._lock:
                if self._found is None:
                    found = {}
                    for ruling in self.base.rulings.values():
                        stale = self._of(ruling)
                        if stale is not None:
                            found[ruling.id] = stale
                    self._found = found
        return self._found

    def of(self, ruling_id: str) -> Optional[Stale]:
        if self._found is not None:
            return self._found.get(ruling_id)
        if ruling_id in self._each:  # kept: no lock (an entry is written once)
            return self._each[ruling_id]
        ruling = self.base.rulings.get(ruling_id)
        if ruling is None:
            return None
        with self._lock:
            return self._of(ruling)

    def _of(self, ruling: Ruling) -> Optional[Stale]:
        if ruling.id not in self._each:
            self._each[ruling.id] = self._stale(ruling)
        return self._each[ruling.id]

    def _held_by(self, rule: str) -> set[str]:
        """The editions holding a counterpart of `rule` (the concordance's: an edition aligned
        with the current one directly pairs it as the comparison will; another, through the
        rule's group), so that only an edition a ruling stands on is compared in full."""
        if rule not in self._held:
            from judge.compare.concordance import get_concordance
            self._held[rule] = {c.doc for c in get_concordance(self.corpus).counterparts(rule)}
        return self._held[rule]

    def _comparison(self, book) -> "_ByNew":
        if book.id not in self._comparisons:
            from judge.compare.comparison import compare
            self._comparisons[book.id] = _ByNew(compare(self.corpus, book.id, self.base.book))
        return self._comparisons[book.id]

    def _stale(self, ruling: Ruling) -> Optional[Stale]:
        if self._books is None:
            self._books = self.editions()
        books = self._books
        current = self.base.book
        if not books or books[-1].id != current:
            return None  # no dated current edition: nothing can be said (docs/cards.md)
        date = ruling_date(self.base, ruling)
        if date is None:
            return None
        older = books[:-1]
        changes: list[tuple[object, RuleChange]] = []
        for rule, via, keywords in self._rules(ruling):
            held = self._held_by(rule)
            # The change's date: the newest older edition holding the rule whose text differs in meaning still said
            # the old thing, so the rule changed after that edition came in force, at the earliest on its date
            # (`in_force_from`, itself the earliest the evidence allows). Only a ruling made before that is surely
            # made before the change: one made since may already follow the current rule (issue 35: a 2018 ruling
            # was read against the 2005 book).
            for book in reversed(older):
                if book.id not in held:
                    continue  # the edition does not hold the rule: the one before it may
                comparison = self._comparison(book)
                found = comparison.pairs.get(rule)
                change = (None if found is None else
                          _meaning(found, rule, via, keywords, self.corpus, comparison.moved, ruling))
                if change is None:
                    continue  # the same rule then: it may have changed before this edition
                if date < book.meta.in_force_from:
                    changes.append((book, change))
                break
        if not changes:
            return None
        changes.sort(key=lambda bc: bc[1].via != "cites")  # what it cites before what its words use
        book = changes[0][0]
        return Stale(ruling.id, date, book.id, book.meta.title, current, book.meta.in_force_from,
                     [c for _, c in changes])

    def _rules(self, ruling: Ruling) -> list[tuple[str, str, list[str]]]:
        """(current paragraph, how the ruling relies on it, the keywords a change must touch):
        what its rulebook references resolve to (a section's own paragraphs; no keywords),
        then the rules of its specific templates (those with keywords)."""
        out: dict[str, tuple[str, list[str]]] = {}
        for ref in ruling.references:
            target = self.base.references.get(ref)
            if target is None or not target.resolves_to:
                continue
            for pid in self._paragraphs(ruling.cites.get(ref, target.resolves_to)):
                out.setdefault(pid, ("cites", []))
        for use in ruling.rules:
            template = self.base.templates.get(use.template)
            if template is None or not template.keywords:
                continue
            for rule in template.rules:
                for pid in self._paragraphs(rule):
                    out.setdefault(pid, (f"template:{use.template}", template.keywords))
        return [(pid, via, keywords) for pid, (via, keywords) in out.items()]

    def _paragraphs(self, ident: str) -> list[str]:
        if ident in self.corpus.paragraphs:
            return [ident]
        return [p.id for p in self.corpus.paragraphs_of(ident, deep=False)] if ident in self.corpus.sections else []


class _ByNew:
    """A comparison's pairs by the current edition's paragraph (none: the older edition has no
    counterpart), and each edition's words, to tell a passage that moved from one that changed."""

    def __init__(self, comparison: "Comparison"):
        self.comparison = comparison
        self.pairs: dict[str, "PairChange"] = {}
        for pair in comparison.pairs:
            for p in pair.new:
                self.pairs.setdefault(p.id, pair)
        self.old_words = " ".join(_words(" ".join(p.text for p in comparison.old.paragraphs)))
        self.new_words = " ".join(_words(" ".join(p.text for p in comparison.new.paragraphs)))
        self._found: dict[tuple[str, bool], bool] = {}

    def moved(self, old: str, new: str) -> bool:
        """Is the passage `old` -> `new` text that moved or was renumbered, no change of meaning?
        The same words but a step number ("Choose Strike." -> "4.a Choose Strike:"); or a side
        found elsewhere in the other edition (the current book reorganised the older one: "There
        is no limit to the number of equipment cards" left one paragraph for another)."""
        a, b = _words(_LABEL.sub("", old)), _words(_LABEL.sub("", new))
        if a == b:
            return True
        return any(self._elsewhere(" ".join(words), in_new) for words, in_new in ((a, True), (b, False)) if words)

    def _elsewhere(self, words: str, in_new: bool) -> bool:
        key = (words, in_new)
        if key not in self._found:
            if len(words.split()) < MOVED_MIN_WORDS:
                self._found[key] = False  # a few words are found anywhere: no evidence of a move
            else:
                from rapidfuzz import fuzz
                text = self.new_words if in_new else self.old_words
                # fuzzy: the older book is OCR'd ("stealid O intercept")
                self._found[key] = words in text or fuzz.partial_ratio(words, text, score_cutoff=MOVED_SIMILAR) > 0
        return self._found[key]


_LABEL = re.compile(r"^\W*\d+(?:\.[a-z0-9]+)*[.:)]?\s+", re.IGNORECASE)  # a step's number: "4.a "
STRONG_SIGNALS = {"number", "negation", "modal"}
DAMAGED_SHARE = 0.1  # an older passage with more of its words damaged than this is OCR noise, not a rule
_STOP = frozenset("a an and are as at be by can do for from has have he her his if in is it its may of on or "
                  "she so that the their them then they this to was with you your".split())


def section_text(corpus: "Corpus", rule: str) -> str:
    """The text of the current rule's innermost section, every paragraph of it."""
    para = corpus.paragraphs[rule]
    return " ".join(p.text for p in corpus.paragraphs_of(para.section, deep=True)) if para.section else para.text


def _content(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP and len(w) > 2}


def _damaged_share(text: str) -> float:
    """The share of a passage's words that are no words: OCR damage ("combatp", "atteltihat")."""
    from wordfreq import zipf_frequency
    words = [w for w in _words(text) if w.isalpha() and len(w) > 2]
    if not words:
        return 0.0
    return sum(zipf_frequency(w, "en") == 0 for w in words) / len(words)
MOVED_MIN_WORDS = 4
TELLING_ZIPF = 5.5  # wordfreq's scale: "sect" 3.5, "vampire" 4.0, "some" 6.2, "not" 6.7
MOVED_SIMILAR = 80  # rapidfuzz partial_ratio of a passage with the other edition's text


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _meaning(pair: "PairChange", rule: str, via: str, keywords: list[str], corpus: "Corpus",
             moved, ruling: Ruling) -> Optional[RuleChange]:
    """The change of `rule` a ruling relying on it should be told of, None when there is none: the
    pair's passages at the comparer's meaning level that are pinpointed (at most PASSAGE_WORDS a
    side, words replaced rather than only added or removed), not text that moved (`moved`), and,
    for a rule the ruling's words use through a template, that hold one of its `keywords` and
    speak of what the ruling speaks of (`_speaks_to`)."""
    from judge.compare.text import MEANING
    segments = pair.text.segments
    changed, touched, fired = [], set(), set()
    sides: dict[str, set[str]] = {}  # the content words of each side's paragraphs and of the rule's section

    def words_of(side: str) -> set[str]:  # worked out for a passage that got this far only (most do not)
        if side not in sides:
            sides[side] = _content(section_text(corpus, rule) if side == "section" else
                                   " ".join(p.text for p in getattr(pair, side)))
        return sides[side]
    for seg in segments:
        if seg.level != MEANING or max(len(seg.old.split()), len(seg.new.split())) > PASSAGE_WORDS:
            continue
        # The evidence a rule changed, not its wording: a number, a negation or a may/must/cannot that fired in the
        # passage itself (a quantity's "each" -> "any", a timing's reorder, an actor's pronoun are wording as
        # often as not); the older side read cleanly (a passage of OCR damage, "combatp @nd combat", is no
        # evidence of anything); and words of one side the other paragraph has nowhere (a reworded sentence
        # keeps them all: ". A dodge strike" -> "A dodge is a strike that is effective at any range").
        strong = {pair.text.signals[n].name for n in seg.signals} & STRONG_SIGNALS
        if not strong or _damaged_share(seg.old) > DAMAGED_SHARE:
            continue
        if not (_content(seg.old) - words_of("new") or _content(seg.new) - words_of("old")):
            continue
        if _content(seg.old) <= words_of("section"):
            continue  # the older words are all in the current rule's section: moved to another paragraph
        shorter, longer = sorted((len(seg.old.split()), len(seg.new.split())))
        if shorter * 4 < longer:
            # words (almost) only added or only removed: in the sample read, the current book's
            # reorganisation ("To" -> "Effect when equipping from another minion you control:")
            continue
        if moved(seg.old, seg.new):
            continue
        if keywords:
            seen = f"{seg.old} {seg.new}".lower()
            hit = [k for k in keywords if k in seen]
            if not hit:
                continue
            if not _speaks_to(ruling, seg, keywords):
                continue
            touched.update(hit)
        changed.append((seg.old.strip(), seg.new.strip()))
        fired.update(seg.signals)
    if not changed:
        return None
    signals = [s.explain() for n, s in enumerate(pair.text.signals) if n in fired]
    return RuleChange(rule, corpus.paragraphs[rule].label, [p.id for p in pair.old], pair.old[0].label, via,
                      signals, changed, sorted(touched))


def _speaks_to(ruling: Ruling, seg, keywords: list[str]) -> bool:
    """Does the ruling speak of what a passage changed, beyond the template's keyword that made
    it use the rule? "Can be equipped by a non-Anarch and would still count as a haven" uses the
    anarch template, but says nothing of sects, which is what "Anarch is not a sect itself" ->
    "Some vampires are by default Anarch" changed (the one flag left of the sample read, not outdated)."""
    own = {_stem(w) for w in _telling(ruling.text)}
    said = {_stem(w) for w in _telling(f"{seg.old} {seg.new}")} - {_stem(w) for k in keywords for w in _words(k)}
    return bool(own & said)


def _telling(text: str) -> set[str]:
    """The words of a text that say what it is about: not the common words of English ("not", "some", "would")."""
    from wordfreq import zipf_frequency
    return {w for w in _content(text) if zipf_frequency(w, "en") < TELLING_ZIPF}


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


# A meaning passage longer than this on either side is a rewrite or a paragraph the comparer
# paired with text that moved (the current book reorganised the older one), not a pinpointed
# change: no evidence a ruling is out of date (docs/cards.md, the sample read).
PASSAGE_WORDS = 15

_CHECKS: dict[tuple[str, int], StaleCheck] = {}


def get_stale_check(base: "CardBase", corpus: "Corpus") -> StaleCheck:
    """The process-wide staleness check of a card base (one per base and corpus)."""
    key = (base.digest or str(id(base)), id(corpus))
    if key not in _CHECKS:
        if len(_CHECKS) > 4:
            _CHECKS.clear()
        _CHECKS[key] = StaleCheck(base, corpus)
    return _CHECKS[key]
