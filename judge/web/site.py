"""What the pages and the API read: one corpus and the services built on it
(search, rule graph, lint), created once per app and shared by its threads.

The corpus never changes while the app runs, so answers that take a while to
compute (a paragraph's related rules, the lint report) are kept once computed,
and `warm()` computes before the first visitor what every rule page shows: its
rendered text, permalink, excerpt, what cites it, its other editions and its
related rules (a few seconds, some 20 MB). `judge serve` warms once and then
forks its workers, which share it all.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from judge.model import Paragraph, Section
from judge.web.render import ParagraphRenderer

if TYPE_CHECKING:
    from judge.corpus import Corpus

logger = logging.getLogger(__name__)

RELATED_LIMIT = 8
EXCERPT = 160  # characters of a rule quoted in lists (cited by, editions)
RELATED_EXCERPT = 120  # ... and in the related rules
MEMO_SIZE = 4096  # answers kept per kind of question (a few MB at most)
# Results kept: the live results, then Enter, then the API ask the same question within
# seconds. Few: a search costs ~0.3 ms, and each result kept is ~50 objects that Python's
# collector walks in every full pass (with 1,024 kept, passes of 20-30 ms under load).
SEARCHES_KEPT = 64
COMPARISONS_KEPT = 6  # two editions compared: ~0.5 s to compute, a few MB to keep


class _Memo:
    """A bounded, thread-safe memo: key -> value, least recently used dropped first."""

    def __init__(self, size: int = MEMO_SIZE):
        self.size = size
        self._data: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, compute: Callable[[], object]):
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        value = compute()  # outside the lock: two threads may compute the same answer once each
        with self._lock:
            self._data[key] = value
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return value


class Site:
    def __init__(self, corpus: Corpus, link: Callable[[str], str]):
        self.corpus = corpus
        self.renderer = ParagraphRenderer(corpus, link)
        self._searcher = None
        self._graph = None
        self._lock = threading.Lock()
        self._memo = {name: _Memo() for name in ("related", "editions", "backlinks", "lint", "toc", "panels")}
        self._kept_for_good: dict = {}
        self._memo["comparison"] = _Memo(size=COMPARISONS_KEPT)
        self._memo["search"] = _Memo(size=SEARCHES_KEPT)
        self._resolver = None
        self._positions: dict[str, int] | None = None
        self._link = link
        self._hrefs: dict[str, str] = {}
        self._excerpts: dict[tuple[str, int], str] = {}

    # -- services, opened on first use -------------------------------------------------
    @property
    def searcher(self):
        if self._searcher is None:
            from judge.search import get_searcher
            with self._lock:
                if self._searcher is None:
                    self._searcher = get_searcher(self.corpus)
        return self._searcher

    @property
    def graph(self):
        if self._graph is None:
            from judge.graph import get_graph
            with self._lock:
                if self._graph is None:
                    self._graph = get_graph(self.corpus)
        return self._graph

    def warm(self) -> None:
        """Open everything and compute what the rule pages show for every paragraph
        and section (a few seconds in all), so that no visitor waits for any of it."""
        self.searcher.warm()
        self.graph.view.number_of_nodes()  # builds the weighted view the walks run on
        for para in self.corpus.paragraphs.values():
            self.renderer.render(para)
        for doc in self.corpus.documents.values():
            for term, pid in doc.glossary.items():
                if pid in self.corpus.paragraphs:
                    self.renderer.render_definition(self.corpus.paragraphs[pid], term)
        for para in list(self.corpus.paragraphs.values())[:1]:  # (the order of them all, computed once)
            self.prev_next(para)
        for ident in [*self.corpus.paragraphs, *self.corpus.sections]:
            self.href(ident)
            self.excerpt(ident)
            self.cited_by(ident)
            self.editions(ident)
            for row in self.related(ident):
                self.excerpt(row["id"], RELATED_EXCERPT)

    def kept(self, kind: str, key, compute: Callable[[], object]):
        """A value computed once per key and kept (for what the pages render themselves)."""
        return self._memo[kind].get(key, compute)

    def kept_for_good(self, key, compute: Callable[[], object]):
        """A value computed once and kept while the app runs, with no bound and no
        lock (the cheapest look-up): only for keys the corpus bounds, such as a
        paragraph's parts of a search hit (a few per paragraph)."""
        found = self._kept_for_good.get(key)
        if found is None:
            found = self._kept_for_good[key] = compute()
        return found

    def search(self, p) -> object:
        """The searcher's answer to a page's or the API's parameters (judge.web.params.SearchParams),
        kept: the live results fragment, the results page and the API ask the same question."""
        key = (p.q, tuple(p.docs), tuple(p.kinds), p.game, p.limit)
        return self._memo["search"].get(key, lambda: self.searcher.search(
            p.q, doc=p.docs or None, game=p.game, kind=p.kinds or None, limit=p.limit))

    # -- the corpus ---------------------------------------------------------------------
    def get(self, ident: str) -> Paragraph | Section | None:
        return self.corpus.get(ident)

    def href(self, ident: str) -> str:
        """The permalink of a paragraph or section (`/p/<id>`), kept: pages show dozens."""
        found = self._hrefs.get(ident)
        if found is None:
            found = self._hrefs[ident] = self._link(ident)
        return found

    def excerpt(self, ident: str, size: int = EXCERPT) -> str:
        key = (ident, size)
        found = self._excerpts.get(key)
        if found is not None:
            return found
        item = self.corpus.get(ident)
        if isinstance(item, Section):
            paras = self.corpus.paragraphs_of(item.id, deep=False) or self.corpus.paragraphs_of(item.id)
            text = paras[0].text if paras else item.title
        else:
            text = item.text if item else ""
        text = " ".join(text.split())
        found = text if len(text) <= size else text[:size].rsplit(" ", 1)[0] + " …"
        if item is not None:
            self._excerpts[key] = found
        return found

    def label(self, ident: str) -> str:
        item = self.corpus.get(ident)
        return item.label if item else ident

    def prev_next(self, para: Paragraph) -> tuple[Paragraph | None, Paragraph | None]:
        """The paragraphs before and after one, in its document's reading order."""
        doc = self.corpus.documents[para.doc]
        if self._positions is None:
            self._positions = {p.id: n for d in self.corpus.documents.values() for n, p in enumerate(d.paragraphs)}
        n = self._positions[para.id]
        return (doc.paragraphs[n - 1] if n > 0 else None,
                doc.paragraphs[n + 1] if n + 1 < len(doc.paragraphs) else None)

    # -- the rule graph -------------------------------------------------------------------
    def cited_by(self, ident: str) -> list[dict]:
        """Paragraphs citing this one or what holds it (graph.backlinks, each explained)."""
        from judge import graph
        return self._memo["backlinks"].get(ident, lambda: graph.backlinks(self.graph, ident))

    def editions(self, ident: str) -> dict:
        """The same rule in the other editions, and the outline steps linked to it."""
        from judge import graph
        return self._memo["editions"].get(ident, lambda: graph.counterparts(self.graph, ident))

    def related(self, ident: str) -> list[dict]:
        """The most related rules; an empty list (logged) if the graph walk fails, so that
        a rule's page never fails for the sake of one of its side panels."""
        import networkx as nx

        from judge import graph

        def compute() -> list[dict]:
            try:
                return graph.related(self.graph, ident, k=RELATED_LIMIT)
            except nx.NetworkXException:
                logger.exception("related rules of %s could not be computed", ident)
                return []
        return self._memo["related"].get(ident, compute)

    def neighbourhood(self, ident: str, radius: int) -> dict:
        from judge import graph
        return graph.neighbourhood(self.graph, ident, radius)

    def describe_hop(self, u: str, v: str, kind: str) -> str:
        from judge import graph
        return graph.describe_hop(self.graph, u, v, kind)

    # -- the editor's report --------------------------------------------------------------
    def lint(self, docs: tuple[str, ...] = ()) -> list:
        from judge.lint import lint
        return self._memo["lint"].get(docs, lambda: lint(self.corpus, docs or None))

    # -- editions compared, scenarios checked ----------------------------------------------
    def comparison(self, old: str, new: str):
        """judge.compare.compare(old, new), kept: the diff pages page through it."""
        from judge.compare.comparison import compare
        return self._memo["comparison"].get((old, new), lambda: compare(self.corpus, old, new))

    def scenario_resolver(self):
        """The scenario engine's citation resolver on this corpus (it remembers its answers)."""
        if self._resolver is None:
            from judge.engine.citations import CiteLocator as Resolver
            self._resolver = Resolver(self.corpus)
        return self._resolver

    # -- tables of contents ----------------------------------------------------------------
    def toc(self, doc_id: str) -> list[dict]:
        def tree(section_ids: list[str]) -> list[dict]:
            out = []
            for sid in section_ids:
                sec = self.corpus.sections[sid]
                out.append({"id": sec.id, "number": sec.number, "title": sec.title, "label": sec.label,
                            "paragraphs": len(sec.paragraphs), "children": tree(sec.children)})
            return out

        doc = self.corpus.documents[doc_id]
        return self._memo["toc"].get(doc_id, lambda: tree([s.id for s in doc.sections if s.parent is None]))
