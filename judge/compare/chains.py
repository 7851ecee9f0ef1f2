"""The most confident chains of links inside a rule group, from one member to the others.

The concordance (`judge.compare.concordance.Concordance.counterparts`) and the search's
served counterparts (`judge.search.counterparts`) both answer "the same rule in the
other editions" with it: the one from the alignments, the other from the rule groups
the index stores. Plain Python (no numpy), so a `judge search` can use it.
"""
from __future__ import annotations

import heapq
from typing import Callable, Iterable


def doc_of(ident: str) -> str:
    return ident.split(":", 1)[0]


def composed_chains(ident: str, links: Callable[[str], Iterable[tuple[str, float]]],
                    aligned: Callable[[str, str], bool]) -> list[tuple[str, float]]:
    """[(member, confidence)] of the members of `ident`'s group in the editions not aligned
    with `ident`'s directly: for each, the most confident chain of links reaching it that
    passes through no other member of `ident`'s edition or of its own; its confidence is
    the product of the chain's (rounded to 3 places). `links(id)` gives a member's direct
    links (most confident first, then by id: ties are settled in that order)."""
    home = doc_of(ident)
    # Best-first over the group: confidence products only fall along a chain.
    best: dict[str, float] = {ident: 1.0}
    through: dict[str, frozenset[str]] = {ident: frozenset()}  # the editions a chain passed through
    queue = [(-1.0, ident)]
    done: set[str] = set()
    composed: list[tuple[str, float]] = []
    while queue:
        negative, node = heapq.heappop(queue)
        if node in done:
            continue
        done.add(node)
        doc = doc_of(node)
        if node != ident:
            if doc == home:
                continue  # a chain that comes back to the rule's own edition is not the same rule
            if not aligned(home, doc) and doc not in through[node]:
                composed.append((node, round(-negative, 3)))
        passed = through[node] | {doc} if node != ident else frozenset()
        for other, link_confidence in links(node):
            confidence = -negative * link_confidence
            if other not in done and confidence > best.get(other, 0.0):
                best[other] = confidence
                through[other] = passed
                heapq.heappush(queue, (-confidence, other))
    return composed
