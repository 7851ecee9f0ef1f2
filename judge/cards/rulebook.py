"""Resolve the rulings' rulebook references (`RBK <anchor>`, a vekn.net rulebook URL)
to a paragraph or section of the corpus's current V:TES book.

Through the corpus's own vekn.net resolution (`judge.lookup.find`, which the
book's links and `judge show URL` use: the anchors the book carries, then those
vekn.net gives that it does not carry literally, judge.xref `_derived_anchor`).
That function rebuilds its look-up tables at each call (~7 ms), so an anchor the
book holds literally, in lowercase and (for a page link) on that page, is looked
up here in a copy of the same table built once, answered as lookup.find answers
it; a test checks that both agree on every reference.

Anything else is broken, with the reason: not a rulebook link, a page the book
does not have, or an anchor it does not have (with the closest anchor and where
the anchor's words stand in the text, for the editor who fixes it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from rapidfuzz import fuzz, process

from judge import lookup
from judge.cards.names import fold
from judge.xref import ENUMERATOR as _ENUMERATOR

if TYPE_CHECKING:
    from judge.corpus import Corpus
    from judge.model import Document

URL_RE = re.compile(r"^https?://(?:www\.)?vekn\.net/rulebook(?:/(?P<page>[\w-]*))?/?(?:#(?P<anchor>[\w-]*))?$",
                    re.IGNORECASE)


def slug(text: str) -> str:
    """vekn.net's anchor of a heading or label: lowercase ASCII words joined by "-"."""
    return "-".join(re.findall(r"[a-z0-9]+", fold(text).replace("'", "")))


def current_book(corpus: "Corpus") -> Optional["Document"]:
    """The V:TES rulebook in force: the newest edition of the game that vekn.net publishes."""
    books = [d for d in corpus.documents_of_game("vtes") if d.meta.format == "markdown-book"]
    return books[-1] if books else None


@dataclass
class Outcome:
    target: Optional[str]  # a paragraph or section ID; None when broken
    reason: Optional[str]  # how it was resolved, when not literally; why it is broken


class BookAnchors:
    """The current book's anchors (literal and derived), built once per load."""

    def __init__(self, corpus: "Corpus"):
        self.corpus = corpus
        self.book = current_book(corpus)
        self.literal: dict[str, list[str]] = {}  # anchor -> ids: what the book's headings and labels are anchored by
        self.stored: dict[str, list[str]] = {}  # the part of it lookup.find reads, in its order (sections first)
        self.scopes: dict[str, set[str]] = {}  # page -> the IDs inside its chapter
        self.pages: set[str] = set()
        if self.book is None:
            return
        for sec in self.book.sections:
            for anchor in {sec.key.rsplit(".", 1)[-1], *sec.anchors}:
                self.stored.setdefault(anchor.lower(), []).append(sec.id)
            for anchor in {sec.key.rsplit(".", 1)[-1], slug(_unnumbered(sec.title)), *sec.anchors}:
                self.literal.setdefault(anchor.lower(), []).append(sec.id)
            if sec.level == 1:
                self.pages.update(a.lower() for a in sec.anchors)
                for anchor in sec.anchors:
                    self.scopes.setdefault(anchor.lower(), corpus.ids_inside(sec.id))
        for para in self.book.paragraphs:
            for anchor in para.anchors:
                self.stored.setdefault(anchor.lower(), []).append(para.id)
                self.literal.setdefault(anchor.lower(), []).append(para.id)

    def resolve(self, url: Optional[str]) -> Outcome:
        if self.book is None:
            return Outcome(None, "the corpus holds no V:TES rulebook published on vekn.net")
        m = URL_RE.match(url or "")
        if m is None:
            return Outcome(None, f"{url!r} is not a vekn.net rulebook link")
        short = self.book.meta.short
        page, anchor = (m.group("page") or "").lower(), m.group("anchor") or ""
        named = self.stored.get(anchor, []) if anchor else []  # keys are lowercase: "#Anarch" goes on
        in_page = [i for i in named if i in self.scopes.get(page, ())] if page else named
        if in_page:  # what lookup.find answers for it (the first, sections before paragraphs), with no note
            return Outcome(in_page[0], None)
        found = lookup.find(self.corpus, url)
        if found is not None:
            doc = self.corpus.document_of(found.id)
            if doc is not None and doc.id == self.book.id:
                return Outcome(found.id, found.note)
            return Outcome(None, f"the link resolves to {found.id}, which is not in the current book ({short})")
        if page and page not in self.pages:
            return Outcome(None, f"no chapter of {short} is published at the page '{page}'")
        if not anchor:
            return Outcome(None, f"the link names no anchor and no page of {short}")
        return Outcome(None, self._why_not(anchor))

    def _why_not(self, anchor: str) -> str:
        short = self.book.meta.short
        wanted = anchor.lower()
        starting = sorted(a for a in self.literal if a.startswith(wanted + "-"))
        if len(starting) > 1:
            return (f"{short} has no anchor '#{anchor}', and several begin with its words: "
                    + ", ".join(f"'#{a}'" for a in starting[:4]))
        best = process.extractOne(wanted, list(self.literal), scorer=fuzz.ratio)
        closest = f"; the closest is '#{best[0]}' ({best[1]:.0f}% similar)" if best else ""
        words = " ".join(wanted.split("-"))
        said = [p.id for p in self.book.paragraphs if words in p.text.lower()]
        where = ""
        if said:
            more = f" and {len(said) - 1} more" if len(said) > 1 else ""
            where = f"; the words '{words}' appear in {said[0]}{more}, under no heading or label of theirs"
        return f"{short} has no heading, labelled paragraph or glossary term anchored '#{anchor}'{closest}{where}"


def _unnumbered(title: str) -> str:
    return _ENUMERATOR.sub("", title)
