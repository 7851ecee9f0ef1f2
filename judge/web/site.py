"""What the pages and the API read: one corpus and the services built on it
(search, rule graph, lint, compare), created once per app and shared by its threads.

The corpus never changes while the app runs, so what takes a while to compute
(a paragraph's related rules, the lint report, a comparison of two editions) is
kept once computed, each kind in a memo of its own (judge.memo) keyed by what
it is computed from; judge.web.warmup computes before the first visitor what
every rule page shows.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from flask import current_app

from judge.memo import Memo
from judge.search.synonyms import current_synonyms
from judge.model import Paragraph, Section
from judge.web.render import ParagraphRenderer

if TYPE_CHECKING:
    from judge.corpus import Corpus

logger = logging.getLogger(__name__)

RELATED_LIMIT = 8
EXCERPT = 160  # characters of a rule quoted in lists (cited by, editions)
# Answers kept per kind keyed by a paragraph or section: more than the corpus has of both
# (at least this many; a larger corpus's memos are sized by it, `Site.__init__`).
PER_ITEM_KEPT = 8192
LINTS_KEPT = 64  # lint reports, by the documents chosen
# Results kept: the live results, then Enter, then the API ask the same question within
# seconds. Few: each kept result is objects Python's collector walks in every full pass
# (docs/performance.md).
SEARCHES_KEPT = 64
# A hit's frame, its game said or not, and a paragraph's link as another edition's hit lists
# it, matched or not: two a paragraph of each, ~4,000 on the five books (at least this many,
# as above).
HIT_FRAMES_KEPT = 16384
RULING_FRAMES_KEPT = 8192  # more than the card base has rulings (~2,300)
COMPARISONS_KEPT = 6  # two editions compared: slow to compute, a few MB to keep


class Site:
    """One corpus and the services on it, as the pages and the API read them."""

    def __init__(self, corpus: Corpus, link: Callable[[str], str]):
        self.corpus = corpus
        self.renderer = ParagraphRenderer(corpus, link)
        self._searcher = None
        self._graph = None
        self._lock = threading.Lock()
        self._resolver = None
        self._link = link
        # Each keyed by what its answer is computed from, on a corpus that never changes, and
        # holding more than the corpus has items (a fixed limit would drop the first items' answers
        # as the warm-up reached the last, and compute them again for visitors):
        items = len(corpus.paragraphs) + len(corpus.sections)
        per_item = max(PER_ITEM_KEPT, 2 * items)
        self._hrefs: Memo = Memo("web.permalinks", per_item)  # id -> /p/<id>
        self._vekn_urls: Memo = Memo("web.vekn_urls", per_item)  # id -> its vekn.net address or None
        self._excerpts: Memo = Memo("web.excerpts", 2 * per_item)  # (id, size) -> the text cut
        self._backlinks: Memo = Memo("web.cited_by", per_item)  # id -> graph.backlinks
        self._editions: Memo = Memo("web.editions", per_item)  # id -> graph.counterparts
        self._related: Memo = Memo("web.related", per_item)  # id -> graph.related
        self._tocs: Memo = Memo("web.tables_of_contents", per_item)  # document id -> its tree
        self._lints: Memo = Memo("web.lint_reports", LINTS_KEPT)  # documents chosen -> findings
        self._comparisons: Memo = Memo("web.comparisons", COMPARISONS_KEPT)  # (old, new) -> compare()
        # A page's or the API's search parameters -> the searcher's result.
        self._searches: Memo = Memo("web.searches", SEARCHES_KEPT)
        # HTML the pages render once and keep (judge.web.pages says what each is keyed by and why):
        self.panels: Memo = Memo("web.panels", per_item)  # a rule page's side panels
        frames = max(HIT_FRAMES_KEPT, 4 * len(corpus.paragraphs))
        self.hit_frames: Memo = Memo("web.hit_frames", frames)  # a search hit around its snippet and links
        self.edition_links: Memo = Memo("web.edition_links", frames)  # a counterpart's link in a hit
        # a ruling hit around its snippet (judge.web.pages.ruling_frame), one a ruling of the card base
        self.ruling_frames: Memo = Memo("web.ruling_frames", RULING_FRAMES_KEPT)

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
                    from judge.cards.graph import with_cards  # cards and rulings: their own edge kinds (issue 22)
                    self._graph = with_cards(get_graph(self.corpus), self.cards)
        return self._graph

    def search(self, p) -> object:
        """The searcher's answer to a page's or the API's parameters (judge.web.params.SearchParams),
        kept: the live results fragment, the results page and the API ask the same question."""
        # Every parameter the search is given, and the synonyms' version it would search with.
        key = (current_synonyms().version, p.q, tuple(p.docs), tuple(p.kinds), p.game, p.limit)
        return self._searches.recall_or_compute(key, lambda: self.searcher.search(
            p.q, doc=p.docs or None, game=p.game, kind=p.kinds or None, limit=p.limit))

    @cached_property
    def cards(self):
        """The card base of the corpus (judge.cards, loaded once per process)."""
        from judge.cards import get_cards
        return get_cards(self.corpus)

    # -- the corpus ---------------------------------------------------------------------
    def get(self, ident: str) -> Paragraph | Section | None:
        return self.corpus.get(ident)

    def href(self, ident: str) -> str:
        """The permalink of a paragraph or section (`/p/<id>`), kept: pages show dozens."""
        found = self._hrefs.recall(ident)
        if found is None:
            found = self._hrefs.remember(ident, self._link(ident))
        return found

    def excerpt(self, ident: str, size: int = EXCERPT) -> str:
        """The start of a rule's text (or of a section's first paragraph), cut at a word."""
        key = (ident, size)
        found = self._excerpts.recall(key)
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
        if item is not None:  # (what is not in the corpus is not kept: any text may be asked)
            self._excerpts.remember(key, found)
        return found

    @cached_property
    def _vekn_index(self):
        """The anchors of the book vekn.net publishes (judge.xref's own table), or None."""
        from judge.web.citations import current_book
        from judge.xref import DocIndex
        book = current_book(self.corpus)
        return DocIndex.build(self.corpus.documents[book]) if book else None

    def vekn_url(self, ident: str) -> str | None:
        """The rule's address on vekn.net (the current book's rules only), kept."""
        from judge.web.citations import vekn_url
        # "" for none: a memo keeps no None
        return self._vekn_urls.recall_or_compute(
            ident, lambda: vekn_url(self.corpus, self.corpus.get(ident), self._vekn_index) or "") or None

    def citation(self, ident: str, text: str = ""):
        """A rule's citation in every form (judge.web.citations), at this request's public address."""
        from judge.web.citations import citation
        return citation(self.corpus.get(ident), self.href(ident), self.vekn_url(ident), text)

    def label(self, ident: str) -> str:
        item = self.corpus.get(ident)
        return item.label if item else ident

    @cached_property
    def _positions(self) -> dict[str, int]:
        """Each paragraph's place in its document's reading order."""
        return {p.id: n for d in self.corpus.documents.values() for n, p in enumerate(d.paragraphs)}

    def prev_next(self, para: Paragraph) -> tuple[Paragraph | None, Paragraph | None]:
        """The paragraphs before and after one, in its document's reading order."""
        doc = self.corpus.documents[para.doc]
        n = self._positions[para.id]
        return (doc.paragraphs[n - 1] if n > 0 else None,
                doc.paragraphs[n + 1] if n + 1 < len(doc.paragraphs) else None)

    # -- the rule graph -------------------------------------------------------------------
    def cited_by(self, ident: str) -> list[dict]:
        """Paragraphs citing this one or what holds it (graph.backlinks, each explained)."""
        from judge import graph
        return self._backlinks.recall_or_compute(ident, lambda: graph.backlinks(self.graph, ident))

    def editions(self, ident: str) -> dict:
        """The same rule in the other editions, and the outline steps linked to it."""
        from judge import graph
        return self._editions.recall_or_compute(ident, lambda: graph.counterparts(self.graph, ident))

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
        return self._related.recall_or_compute(ident, compute)

    def neighbourhood(self, ident: str, radius: int) -> dict:
        from judge import graph
        return graph.neighbourhood(self.graph, ident, radius)

    def describe_hop(self, u: str, v: str, kind: str) -> str:
        from judge import graph
        return graph.describe_hop(self.graph, u, v, kind)

    # -- the editor's report --------------------------------------------------------------
    def lint(self, docs: tuple[str, ...] = ()) -> list:
        from judge.lint import lint
        return self._lints.recall_or_compute(docs, lambda: lint(self.corpus, docs or None))

    # -- editions compared, scenarios checked ----------------------------------------------
    def comparison(self, old: str, new: str):
        """judge.compare.comparison.compare(old, new), kept: the diff pages page through it."""
        from judge.compare.comparison import compare
        return self._comparisons.recall_or_compute((old, new), lambda: compare(self.corpus, old, new))

    @cached_property
    def _with_history(self) -> frozenset[str]:
        """The documents whose paragraphs have a history: editions of a game that has more than one."""
        from judge.compare.concordance import editions
        games = {d.meta.game for d in self.corpus.documents.values()}
        return frozenset(d.id for g in games if len(books := editions(self.corpus, g)) > 1 for d in books)

    def has_history(self, ident: str) -> bool:
        """Is `ident` a paragraph that /history/<id> follows through its game's editions?"""
        para = self.corpus.paragraphs.get(ident)
        return para is not None and para.doc in self._with_history

    def history(self, ident: str):
        """judge.compare.comparison.history(ident): one rule through every edition of its game (JudgeError for
        an ID that is not a paragraph of an edition)."""
        from judge.compare.comparison import history
        return history(self.corpus, ident)

    @cached_property
    def scenario_cards(self):
        """The card catalog the scenario reader resolves the cards a scenario names with (judge.engine.vtes.cards), on
        this corpus's card base: a pasted scenario reads as `judge check` reads it."""
        from judge.engine.vtes.cards import Catalog
        return Catalog(self.cards)

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
        return self._tocs.recall_or_compute(doc_id, lambda: tree([s.id for s in doc.sections if s.parent is None]))


def current_site() -> Site:
    """The site of the app answering the current request."""
    return current_app.extensions["judge"]
