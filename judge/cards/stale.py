"""Rulings that may predate a rules change.

A ruling's date is that of its latest dated reference (the last time a Rules
Director or the Rules Team stated it). The edition in force then is the latest
edition of the game whose `in_force_from` (rules/manifest.yaml) is on or before
that date and which holds the rule at all (the section-6 edition holds only
section 6: for another rule the edition before it stands); before every dated
edition, the oldest one stands for it (said so in the note). The ruling's rules
are the paragraphs its rulebook references resolve to and those of the rule
templates its text uses. Each is looked up in the version comparer's pairing of
that edition with the current one (judge.compare): a pair classified as a meaning
change makes the ruling "may predate a rules change", with the change named (the
comparer's signals). Never a verdict: the note says what changed and where, a
judge reads both texts.
"""
from __future__ import annotations

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

    def to_json(self) -> dict:
        return {"rule": self.rule, "label": self.label, "old": self.old, "old_label": self.old_label,
                "via": self.via, "signals": self.signals}


@dataclass
class Stale:
    """Why a ruling may predate a rules change."""

    ruling: str
    date: str  # the ruling's date
    edition: str  # the document in force then ("rb")
    edition_title: str
    current: str  # the current edition ("vekn")
    assumed: bool  # the ruling predates every dated edition: the oldest stands for the one in force
    changes: list[RuleChange] = field(default_factory=list)

    @property
    def note(self) -> str:
        first = self.changes[0]
        more = f" (and {len(self.changes) - 1} more rule{'s' * (len(self.changes) > 2)})" if len(self.changes) > 1 else ""
        edition = f"{self.edition_title}{' or earlier' if self.assumed else ''}"
        return (f"May predate a rules change: made {self.date}, under the {edition}; {first.label} changed in "
                f"meaning since {first.old_label} ({'; '.join(first.signals[:2]) or 'meaning change'}){more}.")

    def to_json(self) -> dict:
        return {"date": self.date, "edition": self.edition, "edition_title": self.edition_title,
                "current": self.current, "assumed_edition": self.assumed, "note": self.note,
                "changes": [c.to_json() for c in self.changes]}


def ruling_date(base: "CardBase", ruling: Ruling) -> Optional[str]:
    """The date of the ruling's latest dated reference; None when none is dated (rulebook references only)."""
    dates = [base.references[r].date for r in ruling.references if r in base.references and base.references[r].date]
    return max(dates) if dates else None


class StaleCheck:
    """The staleness of every ruling of a card base against the corpus's editions, computed
    once (the comparisons of the older editions with the current one take about a second)."""

    def __init__(self, base: "CardBase", corpus: "Corpus"):
        self.base = base
        self.corpus = corpus
        self._lock = threading.Lock()
        self._found: Optional[dict[str, Stale]] = None

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
                    self._found = self._compute()
        return self._found

    def of(self, ruling_id: str) -> Optional[Stale]:
        return self.all().get(ruling_id)

    def _compute(self) -> dict[str, Stale]:
        from judge.compare.comparison import compare
        books = self.editions()
        current = self.base.book
        if not books or books[-1].id != current:
            return {}  # no dated current edition: nothing can be said (docs/cards.md)
        older = books[:-1]
        comparisons = {b.id: _ByNew(compare(self.corpus, b.id, current)) for b in older}
        out: dict[str, Stale] = {}
        for ruling in self.base.rulings.values():
            date = ruling_date(self.base, ruling)
            if date is None or date >= books[-1].meta.in_force_from:
                continue
            in_force = [b for b in older if b.meta.in_force_from <= date]
            assumed = not in_force
            # The latest edition in force first; one that does not hold the rule (outside its
            # scope) hands over to the one before it. Before every date, the oldest stands.
            candidates = list(reversed(in_force)) if in_force else older
            changes: list[tuple[object, RuleChange]] = []
            for rule, via in self._rules(ruling):
                for book in candidates:
                    found = comparisons[book.id].pairs.get(rule)
                    if found is None:
                        continue
                    change = _meaning(found, rule, via, self.corpus)
                    if change is not None:
                        changes.append((book, change))
                    break
            if changes:
                changes.sort(key=lambda bc: bc[1].via != "cites")  # what it cites before what its words use
                book = changes[0][0]
                out[ruling.id] = Stale(ruling.id, date, book.id, book.meta.title, current, assumed,
                                       [c for _, c in changes])
        return out

    def _rules(self, ruling: Ruling) -> list[tuple[str, str]]:
        """(current paragraph, how the ruling relies on it): what its rulebook references
        resolve to (a section's own paragraphs), then its templates' rules."""
        out: dict[str, str] = {}
        for ref in ruling.references:
            target = self.base.references.get(ref)
            if target is None or not target.resolves_to:
                continue
            for pid in self._paragraphs(target.resolves_to):
                out.setdefault(pid, "cites")
        for use in ruling.rules:
            for rule in self.base.rules_of(use):
                for pid in self._paragraphs(rule):
                    out.setdefault(pid, f"template:{use.template}")
        return list(out.items())

    def _paragraphs(self, ident: str) -> list[str]:
        if ident in self.corpus.paragraphs:
            return [ident]
        return [p.id for p in self.corpus.paragraphs_of(ident, deep=False)] if ident in self.corpus.sections else []


class _ByNew:
    """A comparison's pairs by the current edition's paragraph (none: the older edition has no counterpart)."""

    def __init__(self, comparison: "Comparison"):
        self.comparison = comparison
        self.pairs: dict[str, "PairChange"] = {}
        for pair in comparison.pairs:
            for p in pair.new:
                self.pairs.setdefault(p.id, pair)


def _meaning(pair: "PairChange", rule: str, via: str, corpus: "Corpus") -> Optional[RuleChange]:
    from judge.compare.text import MEANING
    if pair.change != MEANING:
        return None
    signals = [s.explain() for s in pair.signals]
    return RuleChange(rule, corpus.paragraphs[rule].label, [p.id for p in pair.old], pair.old[0].label, via, signals)


_CHECKS: dict[tuple[str, int], StaleCheck] = {}


def get_stale_check(base: "CardBase", corpus: "Corpus") -> StaleCheck:
    """The process-wide staleness check of a card base (one per base and corpus)."""
    key = (base.digest or str(id(base)), id(corpus))
    if key not in _CHECKS:
        if len(_CHECKS) > 4:
            _CHECKS.clear()
        _CHECKS[key] = StaleCheck(base, corpus)
    return _CHECKS[key]
