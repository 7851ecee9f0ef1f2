"""Find glossary terms in rule text so they can link to their definitions.

A paragraph links terms of its own document's glossary first, then those of
the other documents of the same game, newest edition first: a Rivals term
("Prestige") never links from a V:TES rule, and the older book's "tap" links
to the older book's definition.
"""
from __future__ import annotations

import re

from judge.model import Corpus

MIN_TERM_LENGTH = 3


def _term_pattern(terms: list[str]) -> re.Pattern | None:
    usable = sorted({t for t in terms if len(t) >= MIN_TERM_LENGTH}, key=len, reverse=True)
    if not usable:
        return None
    alternation = "|".join(re.escape(t) for t in usable)
    # Plural and possessive forms still name the term ("acting minions").
    return re.compile(rf"(?<![\w-])({alternation})(?:s|es|'s)?(?![\w-])", re.IGNORECASE)


def term_names(term: str) -> list[str]:
    """The words a glossary headword is written as in rule text:
    "Blood (also Blood counter)" -> Blood, Blood counter; "Edge, The" -> Edge;
    "Steal (a card)" -> Steal."""
    names = []
    head = re.sub(r"\s*\(([^)]*)\)", "", term).strip()
    for also in re.findall(r"\(also ([^)]*)\)", term, flags=re.IGNORECASE):
        names.append(also.strip())
    head = re.sub(r",\s*the$", "", head, flags=re.IGNORECASE).strip()
    return [head, *names] if head else names


def glossary_for(corpus: Corpus, doc_id: str) -> dict[str, str]:
    """term (lowercase) -> defining paragraph id, as seen from one document."""
    doc = corpus.documents[doc_id]
    merged: dict[str, str] = {}
    others = sorted((d for d in corpus.documents.values()
                     if d.meta.game == doc.meta.game and d.id != doc_id),
                    key=lambda d: -d.meta.edition_order)
    for source in [doc, *others]:
        for term, pid in source.glossary.items():
            for name in term_names(term):
                merged.setdefault(name.lower(), pid)
    return merged


def link_terms(corpus: Corpus) -> None:
    corpus.term_links = {}
    for doc_id, doc in corpus.documents.items():
        glossary = glossary_for(corpus, doc_id)
        pattern = _term_pattern(list(glossary))
        if pattern is None:
            continue
        for para in doc.paragraphs:
            seen: set[str] = set()
            links = []
            for m in pattern.finditer(para.text):
                term = m.group(1).lower()
                target = glossary[term]
                if term in seen or target == para.id:
                    continue
                seen.add(term)
                links.append((m.group(1), m.start(1), m.end(1), target))
            if links:
                corpus.term_links[para.id] = links
