"""Turn what a judge pastes into a paragraph or section of the corpus.

Accepted: an ID (`rb:6.4.6/2`, `vekn:bleed`), a label (`RB §6.4.6 ¶2`), a
vekn.net/rulebook URL, a section number (`6.4.6`, `rb 6.4.6`), an outline
number (`IV.D.2`) or a section's slug (`torpor`, `diablerise-a-vampire-in-torpor`).
Where several books have it, the newest edition comes first and the others are
in `Match.also`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from rapidfuzz import fuzz, process

from judge import xref
from judge.errors import UnknownIdError
from judge.ingest import refs as syntax
from judge.model import RESOLVED, Corpus, label_key


_NUMBER_RE = re.compile(r"^(?:(?P<doc>[a-z0-9-]+)[\s:§]+)?§?\s*(?P<num>\d+(?:\.\d+)*|[IVX]+(?:\.[A-Za-z0-9]+)*)\.?$",
                        re.IGNORECASE)
MAX_QUERY = 500


@dataclass
class Match:
    id: str
    how: str  # "id", "label", "url", "number", "slug"
    note: Optional[str] = None
    also: tuple[str, ...] = ()  # other ids the same query names (e.g. 6.4.6 in two books)


def _newest_first(corpus: Corpus, ids: list[str]) -> list[str]:
    def order(ident: str) -> tuple:
        doc = corpus.document_of(ident)
        return (-(doc.meta.edition_order if doc else 0), ident)
    return sorted(ids, key=order)


def find(corpus: Corpus, query: str) -> Optional[Match]:
    q = query.strip()[:MAX_QUERY]
    if not q:
        return None
    if corpus.get(q):
        return Match(q, "id")
    labels = corpus.label_index
    if q.casefold() in labels:  # an ID typed in another case: "RB:6.4.6/2"
        return Match(labels[q.casefold()], "id")
    if label_key(q) in labels:
        return Match(labels[label_key(q)], "label")
    url = syntax.VEKN_URL_RE.search(q)
    if url:
        return _find_url(corpus, url)
    m = _NUMBER_RE.match(q)
    if m:
        return _find_number(corpus, m.group("doc"), m.group("num"))
    if _SLUG_RE.match(q):
        return _find_slug(corpus, q.lower())
    return None


_SLUG_RE = re.compile(r"^[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*$", re.IGNORECASE)


def _find_slug(corpus: Corpus, slug: str) -> Optional[Match]:
    """The sections whose slug (the part of their ID after the book's, `Section.key`) is `slug`,
    newest book first. Matched on the IDs alone: a served corpus then reads no section (reading
    them all cost a one-word search 0.15 s of CPU at 100 books)."""
    hits = [sid for sid in corpus.sections if sid.partition(":")[2].lower() == slug]
    if not hits:
        return None
    hits = _newest_first(corpus, hits)
    return Match(hits[0], "slug", None, tuple(hits[1:]))


def identify(corpus: Corpus, query: str) -> Match:
    """What `query` names, as `find`; an UnknownIdError with close matches when nothing."""
    match = find(corpus, query)
    if match is None:
        raise UnknownIdError(query.strip()[:80], suggest(corpus, query))
    return match


def suggest(corpus: Corpus, query: str, limit: int = 5) -> list[str]:
    q = query.strip()[:MAX_QUERY]
    if not q:
        return []
    choices = list(corpus.paragraphs) + list(corpus.sections)
    found = process.extract(q, choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=60,
                            processor=str.casefold)
    return [c for c, _, _ in found]


def _find_url(corpus: Corpus, m: re.Match) -> Optional[Match]:
    target_doc = next((d for d in corpus.documents.values() if d.meta.format == "markdown-book"), None)
    if target_doc is None:
        return None
    ref = syntax.vekn_links(m.group(0), [(m.group(0), 0, len(m.group(0)))])[0]
    ref.source, ref.target_doc = f"{target_doc.id}:?", target_doc.id
    xref.resolve_one(corpus, ref)
    if ref.status == RESOLVED and ref.target:
        return Match(ref.target, "url", ref.reason)
    return None


def _find_number(corpus: Corpus, doc: Optional[str], number: str) -> Optional[Match]:
    if doc:
        if doc.lower() not in corpus.documents:
            doc = next((d for d, x in corpus.documents.items() if x.meta.short.lower() == doc.lower()), None)
            if doc is None:
                return None
        docs = [doc.lower()]
    else:
        docs = list(corpus.documents)
    hits = []
    for d in docs:
        sid = f"{d}:{number}"
        if sid in corpus.sections:
            hits.append(sid)
            continue
        item = next((p.id for p in corpus.documents[d].paragraphs if p.number == number), None)
        if item:
            hits.append(item)
    if not hits:
        return None
    hits = _newest_first(corpus, hits)
    return Match(hits[0], "number", None, tuple(hits[1:]))

