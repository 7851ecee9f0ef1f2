"""What a citation is, which rules editions a replay can follow, and how a citation is found in the books.

A citation is data, not an ID: `Cite(doc, section, quote)` names a section key and a few words copied
from the paragraph. Paragraph ordinals shift when a book is edited; the words do not, so a cite is
*located* in the loaded corpus as the unique paragraph of that section (or, failing that, of its
subsections) whose text contains the quote, ignoring case, whitespace and markup (`locate`).

A `Rule` holds one tuple of cites per rules edition, like OpenFisca's `reference`: the engine names the
Rule, the rules edition of the replay picks the paragraphs. The rules themselves are data, in each game's
rules.py (judge/engine/vtes/rules.py, judge/engine/rivals/rules.py).

The engine never reads the corpus itself: whoever replays a scenario (`judge check`, the web's /check)
builds a `CiteLocator` on the corpus it loaded and hands it over; without one, cites are shown by
section and quote (`OfflineCiteLocator`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

# -- the rules editions a replay follows -----------------------------------------------------------
CURRENT = "current"
OLDER = "older"
RULES_EDITIONS = {
    CURRENT: "the VEKN online rulebook (lock/unlock)",
    OLDER: "the older complete rulebook (tap/untap, RB)",
}
BOOK = {CURRENT: "vekn", OLDER: "rb"}  # the corpus document each rules edition's citations come from
ALIASES = {"vekn": CURRENT, "rb": OLDER, "new": CURRENT, "old": OLDER}

# -- the games a scenario can be of -----------------------------------------------------------------
# A scenario says `game: rivals`; without it, it is of V:TES, whose rules editions are the two above.
# Rivals has one rules edition, its rulebook (corpus document `rivals`).
VTES = "vtes"
RIVALS = "rivals"
GAMES = {VTES: "Vampire: The Eternal Struggle", RIVALS: "Vampire: The Masquerade – Rivals"}
GAME_EDITIONS = {VTES: tuple(RULES_EDITIONS), RIVALS: (RIVALS,)}
EDITION_NAMES = {**RULES_EDITIONS, RIVALS: "the Vampire: The Masquerade – Rivals rulebook"}


def rules_edition(name: str) -> str:
    """The rules edition `name` stands for (an edition or an alias, any case); KeyError if none."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in RULES_EDITIONS:
        raise KeyError(name)
    return key


# -- citations and rules -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Cite:
    """A paragraph of a book, named by its section and a few words it contains."""

    doc: str
    section: str  # section key: "6.1.1" in numbered books, the heading slug in the VEKN book
    quote: str  # words copied from the paragraph that justify the rule

    @property
    def section_id(self) -> str:
        return f"{self.doc}:{self.section}"


@dataclass(frozen=True)
class Rule:
    """A rule the engine applies, with the paragraphs that state it in each rules edition (empty: that book
    has no such rule)."""

    name: str
    what: str  # the rule in a few words, for the documentation and the tests
    current: tuple[Cite, ...]
    older: tuple[Cite, ...]

    def cites(self, edition: str) -> tuple[Cite, ...]:
        return self.current if edition == CURRENT else self.older

    def exists_in(self, edition: str) -> bool:
        return bool(self.cites(edition))


@dataclass(frozen=True)
class BookRule:
    """A rule of a game with a single rules edition (Rivals: its rulebook), with the cites that state it. It
    answers `cites(edition)` as a `Rule` does, so the trace, the expectations and the locator take either."""

    name: str
    what: str
    edition: str
    book: tuple[Cite, ...]

    def cites(self, edition: str) -> tuple[Cite, ...]:
        return self.book if edition == self.edition else ()

    def exists_in(self, edition: str) -> bool:
        return bool(self.cites(edition))


def rule(name: str, what: str, current: Iterable[Cite], older: Iterable[Cite]) -> Rule:
    """A Rule (judge/engine/vtes/rules.py builds every one with this)."""
    return Rule(name, what, tuple(current), tuple(older))


def V(section: str, quote: str) -> Cite:  # noqa: N802 - reads like a citation
    """A cite of the current rules edition's book (the VEKN rulebook)."""
    return Cite(BOOK[CURRENT], section, quote)


def RB(section: str, quote: str) -> Cite:  # noqa: N802
    """A cite of the older rules edition's book (the older complete rulebook)."""
    return Cite(BOOK[OLDER], section, quote)


# -- finding a citation in the books -------------------------------------------------------------
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_MARKUP = re.compile(r"[*_`\\]")


def normalize(text: str) -> str:
    """Case, whitespace, typographic quotes and markup remnants do not count."""
    return " ".join(_MARKUP.sub("", text.translate(_QUOTES)).casefold().split())


class CiteError(LookupError):
    """A cite that names no paragraph, or several."""


def locate(cite: Cite, corpus) -> str:
    """The ID of the unique paragraph that `cite` names, or CiteError.

    The section's own paragraphs are searched first, then its subsections: a
    book's advanced-rules boxes may be parsed as subsections of the rule they
    extend, and a quote must still find its paragraph there.
    """
    section = corpus.sections.get(cite.section_id)
    if section is None:
        raise CiteError(f"no section {cite.section_id!r} for quote {cite.quote!r}")
    quote = normalize(cite.quote)
    level = [section]
    while level:
        hits = [pid for sec in level for pid in sec.paragraphs
                if quote in normalize(corpus.paragraphs[pid].text)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise CiteError(f"quote {cite.quote!r} is in {len(hits)} paragraphs of {cite.section_id}: {', '.join(hits)}")
        level = [corpus.sections[c] for sec in level for c in sec.children if c in corpus.sections]
    raise CiteError(f"quote {cite.quote!r} not found in {cite.section_id}")


class CiteLocator:
    """Locates cites in one corpus (anything with `sections` and `paragraphs` as judge.corpus has them) and
    remembers the answers: a replay cites the same few dozen paragraphs again and again."""

    def __init__(self, corpus):
        self.corpus = corpus
        self._ids: dict[Cite, Optional[str]] = {}

    def id(self, cite: Cite) -> Optional[str]:
        if cite not in self._ids:
            try:
                self._ids[cite] = locate(cite, self.corpus)
            except CiteError:
                self._ids[cite] = None
        return self._ids[cite]

    def label(self, cite: Cite) -> str:
        pid = self.id(cite)
        if pid is None:
            return f"{cite.section_id} (unresolved: \"{cite.quote}\")"
        return self.corpus.paragraphs[pid].label


class OfflineCiteLocator:
    """For a replay without the books (none given, or they could not be loaded): cites are shown by section
    and quote."""

    def id(self, cite: Cite) -> str:
        return cite.section_id

    def label(self, cite: Cite) -> str:
        return f"{cite.section_id} \"{cite.quote}\""
