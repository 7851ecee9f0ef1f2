"""The rule graph: how the rules of the corpus point at each other.

A networkx MultiDiGraph whose nodes are documents, sections, paragraphs and
glossary terms, and whose edges (keyed by kind) are:

=============  ================================================================
``contains``   document -> top sections, section -> subsections and paragraphs
``cites``      paragraph -> what one of its resolved references names
``step-cites`` outline step -> the rulebook section or item it cites, and the
               paragraphs of a cited section (``direct`` tells the two apart)
``defines``    glossary paragraph -> its term
``uses``       paragraph -> a glossary term found in its text
``same-rule``  paragraph or section -> the same rule in a newer edition
               (from the concordance, with its ``confidence`` and ``method``)
``next-step``  a numbered step of a procedure ("2. Resolve Any Block Attempts")
               -> the next step ("3. Resolve the Action"), sibling sections
``together``   a section -> a paragraph of the same edition that an older
               edition stated inside that section (``witness``: the older
               paragraph): one procedure the newer book split, such as the
               current book's block attempts and its "Stealth and Intercept"
=============  ================================================================

Term nodes are shared by the editions of one game (``term:vtes:wounded``), so
the older book's definition and the current one's meet at the same node.

The queries return plain data (dicts and lists) for the CLI and the web pages:
`backlinks`, `related` (personalised PageRank, each result explained by the
hops that connect it to the source), `path` (each hop explained), `counterparts`
(the same rule in the other editions), `orphans`, `hubs`, `neighbourhood`,
`stats`; `export` writes GraphML or networkx node-link JSON. `node_of` maps what
a judge types to a node. Build a graph with `build_graph(corpus)`, or get the
process-wide one with `get_graph()`.
"""
from __future__ import annotations

import gc
import json
import math
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from typing import IO, TYPE_CHECKING, Iterable, Optional

import numpy as np

from judge.errors import JudgeError, UnknownIdError
from judge.lookup import identify
from judge.model import KINDS as PARAGRAPH_KINDS
from judge.model import RESOLVED, Corpus

# networkx and the concordance are imported where a graph is built or searched with
# networkx: `judge graph related` on the saved graph (judge.graph.saved) needs neither.
if TYPE_CHECKING:
    import networkx as nx

    from judge.compare.concordance import Concordance


# Node kinds.
DOCUMENT, SECTION, PARAGRAPH, TERM = "document", "section", "paragraph", "term"
# Edge kinds.
CONTAINS, CITES, STEP_CITES, DEFINES, USES, SAME_RULE, NEXT_STEP, TOGETHER = (
    "contains", "cites", "step-cites", "defines", "uses", "same-rule", "next-step", "together")
EDGE_KINDS = (CONTAINS, CITES, STEP_CITES, DEFINES, USES, SAME_RULE, NEXT_STEP, TOGETHER)
PROCEDURE_KINDS = (NEXT_STEP, TOGETHER)  # what ties the steps of one procedure together
PROCEDURE_RESULTS = 3  # related rules kept for the procedure's neighbours, whatever their score
LINK_KINDS = (CITES, STEP_CITES)  # what "links" means for backlinks, orphans and hubs
EXPORT_FORMATS = ("graphml", "json")

# Weights of the undirected view used for related rules and paths: how strongly an
# edge of each kind ties two rules together. A term's weight shrinks with the number
# of paragraphs using it, so "minion" (used everywhere) ties nothing together.
WEIGHTS = {CITES: 1.0, STEP_CITES: 1.0, DEFINES: 1.0, USES: 1.0, SAME_RULE: 1.0, NEXT_STEP: 0.5, TOGETHER: 0.5,
           "contains-paragraph": 0.3, "contains-section": 0.2}
_STEP_TITLE = re.compile(r"^\s*(\d+)\.\s")  # "2. Resolve Any Block Attempts": a numbered step
DAMPING = 0.85  # PageRank's alpha: the walk returns to the source 15% of the time

_PAREN = re.compile(r"\s*\([^)]*\)")


class _Walk:
    """networkx's PageRank (`_pagerank_scipy`, the computation `nx.pagerank` runs) with
    the transition matrix built once, where `nx.pagerank` rebuilds it from the graph
    on every call, which is most of a query's time. Same alpha, tolerance, start
    vector and dangling-node rule, so the scores are nx.pagerank's (a test holds
    them equal).

    And the strongest paths from a source to every node, in one pass of scipy's
    Dijkstra over the costs (1 / weight), where explaining each result with its own
    networkx search costs a search per result (docs/graph.md has the figures)."""

    def __init__(self, nodes: list[str], kinds: np.ndarray, transposed, dangling: np.ndarray, costs,
                 id_rank: Optional[np.ndarray] = None):
        self.nodes = nodes
        self.index = {n: i for i, n in enumerate(nodes)}
        self.kinds = kinds  # each node's kind (np.str_), for np.isin
        self.transposed = transposed  # the stochastic matrix transposed (CSR): x @ A computed as A.T @ x
        self.dangling = dangling  # the nodes without an edge
        self.costs = costs  # 1 / weight of each edge (CSR, symmetric), for the strongest paths
        self._id_rank = id_rank

    @property
    def id_rank(self) -> np.ndarray:
        """Each node's place in the nodes sorted by id: ties of score are settled by id."""
        if self._id_rank is None:
            rank = np.empty(len(self.nodes), dtype=np.int64)
            rank[sorted(range(len(self.nodes)), key=self.nodes.__getitem__)] = np.arange(len(self.nodes))
            self._id_rank = rank
        return self._id_rank

    @classmethod
    def of_view(cls, view: nx.Graph) -> "_Walk":
        import networkx as nx
        import scipy.sparse
        import scipy.sparse.csgraph  # noqa: F401  here, with the matrix: not in the first query

        nodes = list(view)
        matrix = nx.to_scipy_sparse_array(view, nodelist=nodes, weight="weight", dtype=float)
        out = matrix.sum(axis=1)
        out[out != 0] = 1.0 / out[out != 0]
        stochastic = scipy.sparse.dia_array((out.T, 0), shape=matrix.shape).tocsr() @ matrix
        costs = matrix.tocsr()
        costs.data = 1.0 / costs.data
        return cls(nodes, np.array([view.graph["kinds"][n] for n in nodes]), stochastic.T.tocsr(),
                   np.where(out == 0)[0], costs)

    def paths(self, start: set[str]) -> np.ndarray:
        """Each node's predecessor on its strongest path from `start` (-9999 for the start
        nodes and for the nodes out of reach), indexed like `nodes`."""
        from scipy.sparse.csgraph import dijkstra

        # the sources sorted: the order they enter Dijkstra's heap settles ties between equal paths,
        # and a set's order changes with each process's string hashes
        _, predecessors, _ = dijkstra(self.costs, indices=sorted(self.index[s] for s in start), min_only=True,
                                      return_predecessors=True)
        return predecessors

    def path_to(self, predecessors: np.ndarray, start: set[str], node: str) -> Optional[list[str]]:
        """The strongest path from `start` to `node` (its nodes), or None when out of reach."""
        i, out = self.index[node], [node]
        while self.nodes[i] not in start:
            i = int(predecessors[i])
            if i < 0:
                return None
            out.append(self.nodes[i])
        return out[::-1]

    def pagerank(self, start: set[str], alpha: float = DAMPING, max_iter: int = 100,
                 tol: float = 1.0e-6) -> np.ndarray:
        """The scores, indexed like `nodes`."""
        n = len(self.nodes)
        p = np.zeros(n)
        p[[self.index[s] for s in start]] = 1.0 / len(start)
        x = np.repeat(1.0 / n, n)
        for _ in range(max_iter):
            last = x
            x = alpha * (self.transposed @ x + x[self.dangling].sum() * p) + (1 - alpha) * p
            if np.absolute(x - last).sum() < n * tol:
                return x
        import networkx as nx

        raise nx.PowerIterationFailedConvergence(max_iter)


@dataclass
class RuleGraph:
    """The graph with the corpus and concordance it was built from."""

    g: nx.MultiDiGraph
    corpus: Corpus
    concordance: Concordance
    _view: Optional[nx.Graph] = field(default=None, repr=False)
    _walk: Optional[_Walk] = field(default=None, repr=False)
    _whole_answers: Optional[dict] = field(default=None, repr=False)

    @property
    def view(self) -> nx.Graph:
        """Undirected, weighted, without document nodes: the graph the walks run on.
        Each edge keeps the kinds it merges (strongest first) to explain hops."""
        if self._view is None:
            with _collector_paused():
                self._view = _weighted_view(self.g)
        return self._view

    @property
    def walk(self) -> _Walk:
        if self._walk is None:
            view = self.view
            with _collector_paused():
                self._walk = _Walk.of_view(view)
        return self._walk

    # What `related` and the helpers it shares with the other queries ask of a graph;
    # `judge.graph.saved.SavedGraph` answers the same from the arrays a build saved.
    def has(self, node: str) -> bool:
        return node in self.g

    def data(self, node: str) -> dict:
        """Its attributes: `kind`, `label`, `doc` ("" for a term), a section's `title`."""
        return self.g.nodes[node]

    def node_ids(self) -> Iterable[str]:
        return iter(self.g)

    def in_view(self, node: str) -> bool:
        return node in self.view

    def hop(self, x: str, y: str) -> tuple[str, str, str, dict]:
        """The strongest edge between two neighbours of the view, in its own direction:
        (u, v, kind, its attributes)."""
        _, u, v, kind = self.view.edges[x, y]["hops"][0]
        return u, v, kind, self.g.edges[u, v, kind]

    def counterpart_ids(self, node: str) -> list[str]:
        """`Concordance.counterparts`' ids, in its order."""
        return [c.id for c in self.concordance.counterparts(node)]

    def stated_in(self, section: str) -> list[tuple[str, str]]:
        """[(paragraph, witness)] of the `together` edges from a section, in the graph's order."""
        return [(v, d["witness"]) for _, v, kind, d in self.g.out_edges(section, keys=True, data=True)
                if kind == TOGETHER]

    def first_home(self, paragraph: str) -> Optional[tuple[str, str]]:
        """(section, witness) of the first `together` edge to a paragraph, or None."""
        return next(((u, d["witness"]) for u, _, kind, d in self.g.in_edges(paragraph, keys=True, data=True)
                     if kind == TOGETHER), None)

    def next_steps(self, section: str) -> list[str]:
        return [v for _, v, kind in self.g.out_edges(section, keys=True) if kind == NEXT_STEP]

    def previous_steps(self, section: str) -> list[str]:
        return [u for u, _, kind in self.g.in_edges(section, keys=True) if kind == NEXT_STEP]

    def whole_answers(self) -> dict:
        """`whole_answers(self)`, worked out once."""
        if self._whole_answers is None:
            self._whole_answers = whole_answers(self)
        return self._whole_answers


@contextmanager
def _collector_paused():
    """Hold the cyclic garbage collector off while a graph is built. The build allocates
    tens of thousands of small dicts; each few hundred trigger a collection, and the
    older generations' collections scan the whole loaded corpus too, which costs about
    as much as the build itself (docs/graph.md). Nothing the build allocates is
    garbage, so pausing loses nothing; the collector resumes (if it was running) as
    the build ends."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


# -- building ---------------------------------------------------------------------
def term_node(game: str, term: str) -> str:
    """`term:vtes:blood` for "Blood (also Blood counter)"."""
    name = _PAREN.sub("", term).strip().lower()
    return f"term:{game}:{re.sub(r'[^a-z0-9]+', '-', name).strip('-') or 'term'}"


def build_graph(corpus: Corpus, concordance: Optional[Concordance] = None) -> RuleGraph:
    from judge.compare.concordance import get_concordance

    concordance = concordance or get_concordance(corpus)
    with _collector_paused():
        return _build_graph(corpus, concordance)


def _build_graph(corpus: Corpus, concordance: Concordance) -> RuleGraph:
    import networkx as nx

    from judge.compare.concordance import OUTLINE_FORMAT
    from judge.ingest.refs import RULEBOOK_NUMBER

    g = nx.MultiDiGraph(digest=corpus.digest or "")
    for doc in corpus.documents.values():
        g.add_node(doc.id, kind=DOCUMENT, label=doc.meta.short, doc=doc.id, title=doc.meta.title,
                   game=doc.meta.game)
        for sec in doc.sections:
            g.add_node(sec.id, kind=SECTION, label=sec.label, doc=doc.id, title=sec.title,
                       number=sec.number or "")
            g.add_edge(sec.parent or doc.id, sec.id, key=CONTAINS, kind=CONTAINS)
        for para in doc.paragraphs:
            g.add_node(para.id, kind=PARAGRAPH, label=para.label, doc=doc.id, title=para.title or "",
                       number=para.number or "", para_kind=para.kind, section=para.section)
            g.add_edge(para.section, para.id, key=CONTAINS, kind=CONTAINS)
    _add_terms(g, corpus)
    for ref in corpus.references():
        if ref.status != RESOLVED or ref.target not in g or ref.source not in g:
            continue
        if ref.kind == RULEBOOK_NUMBER and _doc_format(corpus, ref.source) == OUTLINE_FORMAT:
            continue  # the outline's rulebook citations are step-cites, below
        _add_link(g, ref.source, ref.target, CITES, raw=ref.raw)
    for step, links in concordance.outline.items():
        for link in links:
            if link.via in ("cites", "section") and step in g and link.target in g:
                _add_link(g, step, link.target, STEP_CITES, direct=link.via == "cites",
                          confidence=link.confidence)
    for al in concordance.alignments:
        for pair in al.section_pairs + al.pairs:
            if pair.old in g and pair.new in g:
                g.add_edge(pair.old, pair.new, key=SAME_RULE, kind=SAME_RULE, confidence=pair.confidence,
                           method=pair.method)
    _add_procedures(g, corpus, concordance)
    return RuleGraph(g, corpus, concordance)


def _add_procedures(g: nx.MultiDiGraph, corpus: Corpus, concordance: Concordance) -> None:
    """The edges tying one procedure's steps: numbered sibling steps (`next-step`), and what an older
    edition stated in one section that a newer one split off elsewhere (`together`)."""
    for doc in corpus.documents.values():
        siblings: dict[str, list] = {}
        for sec in doc.sections:
            m = _STEP_TITLE.match(sec.title)
            if m and sec.parent:  # a book's numbered chapters are not steps of a procedure
                siblings.setdefault(sec.parent, []).append((int(m.group(1)), sec.id))
        for steps in siblings.values():
            for (n, a), (m, b) in pairwise(steps):
                if m == n + 1:
                    g.add_edge(a, b, key=NEXT_STEP, kind=NEXT_STEP)
    for al in concordance.alignments:
        homes: dict[str, set[str]] = {}
        for pair in al.section_pairs:
            homes.setdefault(pair.old, set()).add(pair.new)
        for pair in al.pairs:
            old, new = corpus.paragraphs.get(pair.old), corpus.paragraphs.get(pair.new)
            if old is None or new is None:
                continue
            # sorted: the order the edges are added in is the order `first_home` and the walk's
            # matrix read them in; a set's order changes with each process's string hashes
            for home in sorted(homes.get(old.section, ())):
                if home in {s.id for s in corpus.section_path(new.id)} or \
                        new.section in {s.id for s in corpus.section_path(home)}:
                    continue  # still inside its old section's counterpart, or in a section holding it
                if not g.has_edge(home, new.id, key=TOGETHER):
                    g.add_edge(home, new.id, key=TOGETHER, kind=TOGETHER, witness=old.id,
                               confidence=pair.confidence)


def _doc_format(corpus: Corpus, ident: str) -> str:
    """The format of the document holding `ident`."""
    return corpus.documents[ident.split(":", 1)[0]].meta.format


def _add_terms(g: nx.MultiDiGraph, corpus: Corpus) -> None:
    # Newest edition first, so a term node is labelled with the current spelling.
    for doc in sorted(corpus.documents.values(), key=lambda d: -d.meta.edition_order):
        for term, pid in doc.glossary.items():
            node = term_node(doc.meta.game, term)
            if node not in g:
                g.add_node(node, kind=TERM, label=_PAREN.sub("", term).strip(), doc="", game=doc.meta.game)
            g.add_edge(pid, node, key=DEFINES, kind=DEFINES)
    for pid, links in corpus.term_links.items():
        game = corpus.documents[corpus.paragraphs[pid].doc].meta.game
        for _text, _start, _end, defining in links:
            term = corpus.paragraphs[defining].term
            if term:
                node = term_node(game, term)
                if node in g and not g.has_edge(pid, node, key=DEFINES):
                    g.add_edge(pid, node, key=USES, kind=USES)


def _add_link(g: nx.MultiDiGraph, source: str, target: str, kind: str, **attrs) -> None:
    if g.has_edge(source, target, key=kind):
        data = g.edges[source, target, kind]
        data["count"] += 1
        if attrs.get("direct"):
            data["direct"] = True
        return
    g.add_edge(source, target, key=kind, kind=kind, count=1, **attrs)


def _weighted_view(g: nx.MultiDiGraph) -> nx.Graph:
    import networkx as nx

    view = nx.Graph(kinds={n: kind for n, kind in g.nodes(data="kind") if kind != DOCUMENT})
    view.add_nodes_from(view.graph["kinds"])
    term_uses = Counter(v for _, v, k in g.edges(keys=True) if k == USES)
    for u, v, kind, data in g.edges(keys=True, data=True):
        if u not in view or v not in view:
            continue
        if kind == CONTAINS:
            weight = WEIGHTS["contains-paragraph" if g.nodes[v]["kind"] == PARAGRAPH else "contains-section"]
        elif kind == USES:
            weight = WEIGHTS[USES] / math.log2(2 + term_uses[v])
        elif kind in (SAME_RULE, STEP_CITES, TOGETHER) and "confidence" in data:
            weight = WEIGHTS[kind] * data["confidence"]
        else:
            weight = WEIGHTS[kind]
        if view.has_edge(u, v):
            edge = view.edges[u, v]
            edge["weight"] += weight
            edge["hops"].append((weight, u, v, kind))
            edge["hops"].sort(key=lambda h: -h[0])
        else:
            view.add_edge(u, v, weight=weight, hops=[(weight, u, v, kind)])
    for u, v, data in view.edges(data=True):
        data["cost"] = 1.0 / data["weight"]
    return view


_GRAPHS: dict[str, RuleGraph] = {}


def get_graph(corpus: Optional[Corpus] = None) -> RuleGraph:
    """The process-wide graph of the corpus (built once per corpus version)."""
    from judge.compare.concordance import get_concordance
    from judge.corpus import get_corpus

    if corpus is None:
        corpus = get_corpus()
    concordance = get_concordance(corpus)
    if not corpus.digest:
        return build_graph(corpus, concordance)
    if concordance.key not in _GRAPHS:
        _GRAPHS.clear()  # a server keeps the graph of the current corpus only
        _GRAPHS[concordance.key] = build_graph(corpus, concordance)
    return _GRAPHS[concordance.key]


# -- queries -------------------------------------------------------------------------
def node_of(graph: RuleGraph, query: str) -> str:
    """The node a judge means by what they type: an ID, label, URL, number (`judge.lookup`),
    or a term node's id."""
    q = query.strip()
    if graph.has(q):
        if graph.data(q)["kind"] == DOCUMENT:
            raise JudgeError(f"{q!r} is a whole document, not a rule: give one of its sections or paragraphs "
                             f"(`judge toc {q}` lists them)")
        return q
    if q.startswith("term:"):
        raise UnknownIdError(q[:80], sorted(n for n in graph.node_ids() if n.startswith(q[:12]))[:5])
    return identify(graph.corpus, q).id


def node_info(graph: RuleGraph, node: str) -> dict:
    data = graph.data(node)
    return {"id": node, "kind": data["kind"], "label": data["label"], "doc": data.get("doc") or None}


def describe_hop(graph: RuleGraph, u: str, v: str, kind: str, data: Optional[dict] = None) -> str:
    """One edge in words, in the edge's own direction: "RB §6.1.1 ¶1 cites RB §6.2.2".
    `data`: the edge's attributes, when the caller has them."""
    if data is None:
        data = graph.g.edges[u, v, kind]
    a, b = graph.data(u)["label"], graph.data(v)["label"]
    if kind == CITES:
        return f"{a} cites {b}"
    if kind == STEP_CITES:
        return f"{a} cites {b}" if data.get("direct") else f"{a} cites the section holding {b}"
    if kind == DEFINES:
        return f"{a} defines *{b}*"
    if kind == USES:
        return f"{a} uses *{b}*"
    if kind == CONTAINS:
        return f"{b} is in {a}"
    if kind == NEXT_STEP:
        return f"{b} is the step after {a}"
    if kind == TOGETHER:
        return f"{b} was stated in {a} in an older edition (as {graph.data(data['witness'])['label']})"
    if kind == SAME_RULE:
        other = graph.corpus.documents[graph.data(v)["doc"]].meta.short
        return f"{a} is {b}, the same rule in {other} ({data['method']}, confidence {data['confidence']:.2f})"
    return f"{a} {kind} {b}"


def _explain(graph: RuleGraph, nodes: list[str]) -> list[dict]:
    hops = []
    for x, y in pairwise(nodes):
        u, v, kind, data = graph.hop(x, y)
        hops.append({"from": x, "to": y, "kind": kind, "reverse": u != x,
                     "text": describe_hop(graph, u, v, kind, data)})
    return hops


def _check(graph: RuleGraph, node: str) -> str:
    if not graph.in_view(node):
        raise JudgeError(f"{node} is a document, not a rule: ask about one of its sections or paragraphs")
    return node


def backlinks(graph: RuleGraph, ident: str) -> list[dict]:
    """What cites this paragraph or section: direct citations, citations of anything
    inside a section, and citations of the sections enclosing a paragraph."""
    node = _check(graph, node_of(graph, ident))
    g = graph.g
    inside = graph.corpus.ids_inside(node) if g.nodes[node]["kind"] == SECTION else {node}
    enclosing = [s.id for s in graph.corpus.section_path(node) if s.id != node] \
        if g.nodes[node]["kind"] != TERM else []
    out = []
    for target, relation in [*((t, "direct" if t == node else "inside") for t in sorted(inside)),
                             *((s, "enclosing") for s in enclosing)]:
        for source, _, kind, data in g.in_edges(target, keys=True, data=True):
            if kind not in LINK_KINDS or (kind == STEP_CITES and not data.get("direct") and relation != "direct"):
                continue
            if relation == "enclosing" and _inside(graph, source, target):
                continue  # a rule citing the section it stands in says nothing about this rule
            out.append({**node_info(graph, source), "cites": target, "relation": relation, "link": kind,
                        "direct": bool(data.get("direct", True)), "count": data.get("count", 1),
                        "text": describe_hop(graph, source, target, kind)})
    order = {"direct": 0, "inside": 1, "enclosing": 2}
    out.sort(key=lambda r: (order[r["relation"]], not r["direct"], r["id"]))
    # An outline step citing the section already shows as citing each paragraph of it.
    seen = {r["id"] for r in out if r["relation"] != "enclosing"}
    return [r for r in out if r["relation"] != "enclosing" or r["id"] not in seen]


def _inside(graph: RuleGraph, node: str, section: str) -> bool:
    """Whether a paragraph or section stands in `section` (or is it)."""
    return graph.corpus.get(node) is not None and any(s.id == section for s in graph.corpus.section_path(node))


def related(graph: RuleGraph, ident: str, k: int = 10, kinds: tuple[str, ...] = (PARAGRAPH,)) -> list[dict]:
    """The rules most related to one: personalised PageRank (alpha DAMPING) from it
    over the weighted view, best first, each with the hops of the strongest path that connects them
    and a `reason` in words (`reason_of`).

    From a section, the walk starts from the section and everything in it, and those
    are not results. The source's own counterparts in other editions are not results
    either (`counterparts` lists them), and a result's counterparts fold into it
    (`same_rule`), so the k results are k different rules. A result is shown in the
    source's edition when that edition has the rule (`same_rule` then holds the others).

    The procedure's neighbours (the steps before and after the source's section, and what
    an older edition stated in it: `next-step` and `together` edges) are always among the
    results, up to PROCEDURE_RESULTS of them (and a third of k), each as its best-scoring paragraph: the walk
    alone ranks them below the terms a rule shares with dozens of others."""
    source = _check(graph, node_of(graph, ident))
    if k < 1:
        raise JudgeError(f"k must be at least 1, not {k}")
    start = {source}
    if graph.data(source)["kind"] == SECTION:
        start |= graph.corpus.ids_inside(source)
    excluded = set(start)
    for node in start:
        excluded.update(graph.counterpart_ids(node))
    home = graph.data(source).get("doc")
    walk = graph.walk
    scores = walk.pagerank(start)
    predecessors = walk.paths(start)
    eligible = np.isin(walk.kinds, kinds)
    eligible[[walk.index[n] for n in excluded if n in walk.index]] = False
    candidates = np.nonzero(eligible)[0]
    # best first; ties by id, so that the order never depends on the graph's insertion order
    order = candidates[np.lexsort((walk.id_rank[candidates], -scores[candidates]))].tolist()
    # a third of the results at most, so that the walk's best still lead a short list
    procedure = _procedure_neighbours(graph, source, scores, excluded)[:max(1, k // 3)]
    out: list[dict] = []
    folded: dict[str, dict] = {}  # a rule's id in any edition -> its result

    def add(node: str, score: float, relation: Optional[tuple[str, str]] = None) -> Optional[dict]:
        """The result for `node` (shown in the source's edition if it has the rule), or None if out of reach."""
        nodes = walk.path_to(predecessors, start, node)
        if nodes is None:
            # The power iteration stops with a residue of its uniform start on every
            # node, so a rule can score without any link to the source: it is not related.
            return None
        group = [node, *(c for c in graph.counterpart_ids(node) if c not in excluded)]
        shown = node
        if graph.data(node).get("doc") != home:
            shown = next((n for n in group if graph.data(n).get("doc") == home), node)
            nodes = (walk.path_to(predecessors, start, shown) or nodes) if shown != node else nodes
            if nodes[-1] != shown:
                shown = node
        hops = _explain(graph, nodes)
        result = {**node_info(graph, shown), "score": round(score, 5), "path": hops, "same_rule": [],
                  "reason": relation[1] if relation else reason_of(graph, hops),
                  "relation": relation[0] if relation else _relation_of(hops)}
        for member in group:
            folded.setdefault(member, result)
        return result

    for node, relation in procedure:
        if node not in folded:
            result = add(node, float(scores[walk.index[node]]), relation)
            if result is not None:
                out.append(result)
    for i in order:
        score, node = float(scores[i]), walk.nodes[i]
        if node in folded:
            result = folded[node]
            if node != result["id"] and node not in result["same_rule"]:
                result["same_rule"].append(node)
            continue
        if len(out) >= k:
            continue
        result = add(node, score)
        if result is not None:
            out.append(result)
            if node != result["id"]:
                result["same_rule"].append(node)
    out.sort(key=lambda r: (-r["score"], r["id"]))
    return out[:k]


def _procedure_neighbours(graph: RuleGraph, source: str, scores: np.ndarray,
                          excluded: set[str]) -> list[tuple[str, tuple[str, str]]]:
    """[(paragraph, (relation, reason))]: the best-scoring paragraph of each step before and after the
    source's section, and each paragraph an older edition stated in it (or the section that stated the
    source), at most PROCEDURE_RESULTS."""
    walk = graph.walk
    kind = graph.data(source)["kind"]
    section = source if kind == SECTION else graph.corpus.paragraphs[source].section if kind == PARAGRAPH else None
    if not section or not graph.has(section):
        return []

    def best(sec: str) -> Optional[str]:
        # the step's own paragraphs; those of its subsections only when it has none (a step that is a heading)
        own = graph.corpus.sections[sec].paragraphs if sec in graph.corpus.sections else []
        paras = [p for p in (own or graph.corpus.ids_inside(sec)) if p in graph.corpus.paragraphs and p not in excluded]
        rules = [p for p in paras if graph.corpus.paragraphs[p].kind == "rule"] or paras
        return max(rules, key=lambda p: (scores[walk.index[p]], p), default=None)

    def title(sec: str) -> str:
        return graph.corpus.sections[sec].title

    found: list[tuple[str, tuple[str, str]]] = []
    # What an older edition stated in one section first: the closest tie; then the steps after and before.
    stated = graph.stated_in(section)
    stated.sort(key=lambda vw: (-scores[walk.index[vw[0]]], vw[0]))
    for para, witness in stated[:1]:
        found.append((para, ("together", f"part of the same procedure: the older edition states it in this "
                                         f"section ({graph.data(witness)['label']})")))
    home = graph.first_home(source) if kind == PARAGRAPH else None
    if home is not None:
        found.append((best(home[0]), ("together", f"part of the same procedure: the older edition states "
                                                  f"this rule in that section ({graph.data(home[1])['label']})")))
    for after in graph.next_steps(section):
        found.append((best(after), ("next-step", f"the next step of the same procedure ({title(after)})")))
    for before in graph.previous_steps(section):
        found.append((best(before), ("previous-step", f"the step before, in the same procedure ({title(before)})")))
    return [(n, r) for n, r in found if n is not None and n not in excluded][:PROCEDURE_RESULTS]


def _relation_of(hops: list[dict]) -> str:
    """The kind of link that relates a result, for the pages to group or mark: the first hop that is
    neither containment nor the same rule in another edition."""
    core = [h for h in hops if h["kind"] not in (CONTAINS, SAME_RULE)]
    if not core:
        return "same-section" if hops and all(h["kind"] == CONTAINS for h in hops) else "other-edition"
    first = core[0]
    return f"{first['kind']}{'-reverse' if first['reverse'] else ''}"


def reason_of(graph: RuleGraph, hops: list[dict]) -> str:
    """Why a result is related, in a few words a judge reads at a glance ("defines a term used here:
    Block"), from the hops of its path: containment is never said to be a citation, and a link
    through another edition says so."""
    core = [h for h in hops if h["kind"] not in (CONTAINS, SAME_RULE)]
    other_edition = any(h["kind"] == SAME_RULE for h in hops)
    suffix = " (in another edition)" if other_edition else ""
    kinds = [(h["kind"], h["reverse"]) for h in core]
    if not core:
        return "in the same section" if not other_edition else "the same section in another edition"
    # a contains hop first: the source's section links, not the source; last: the link is to the result's section
    up = hops[0]["kind"] == CONTAINS and hops[0]["reverse"]
    down = hops[-1]["kind"] == CONTAINS and not hops[-1]["reverse"]
    if kinds == [(CITES, False)]:
        return ("this rule's section cites it" if up else "this rule cites its section" if down
                else "cited by this rule") + suffix
    if kinds == [(CITES, True)]:
        return ("cites the section holding this rule" if up else "its section cites this rule" if down
                else "cites this rule") + suffix
    if kinds == [(STEP_CITES, True)]:
        return "a step of the judges' flows citing this rule" + suffix
    if kinds == [(STEP_CITES, False)]:
        return "cited by this step of the judges' flows" + suffix
    if kinds == [(NEXT_STEP, False)]:
        return "the next step of the same procedure"
    if kinds == [(NEXT_STEP, True)]:
        return "the step before, in the same procedure"
    if kinds[0][0] == TOGETHER:
        return "part of the same procedure in an older edition"
    if len(core) == 2 and core[0]["kind"] in (USES, DEFINES) and core[1]["kind"] in (USES, DEFINES):
        term = graph.data(core[0]["to"])["label"]
        if kinds == [(USES, False), (DEFINES, True)]:
            return f"defines a term used here: {term}" + suffix
        if kinds == [(DEFINES, False), (USES, True)]:
            return f"uses {term}, the term this defines" + suffix
        return f"also uses the term {term}" + suffix
    if kinds == [(CITES, False), (CITES, True)] or kinds == [(STEP_CITES, False), (STEP_CITES, True)]:
        return f"cites the same rule: {graph.data(core[0]['to'])['label']}" + suffix
    if kinds == [(CITES, True), (CITES, False)] or kinds == [(STEP_CITES, True), (STEP_CITES, False)]:
        return f"cited alongside this rule by {graph.data(core[0]['to'])['label']}" + suffix
    middle = graph.data(core[0]["to"])["label"] if len(core) > 1 else graph.data(core[-1]["from"])["label"]
    return f"linked through {middle}" + suffix


def path(graph: RuleGraph, a: str, b: str) -> Optional[dict]:
    """The strongest chain of links from one rule to another, each hop explained; None
    when nothing connects them."""
    import networkx as nx

    source, target = _check(graph, node_of(graph, a)), _check(graph, node_of(graph, b))
    try:
        cost, nodes = nx.bidirectional_dijkstra(graph.view, source, target, weight="cost")
    except nx.NetworkXNoPath:
        return None
    return {"from": node_info(graph, source), "to": node_info(graph, target), "cost": round(cost, 3),
            "nodes": [node_info(graph, n) for n in nodes], "hops": _explain(graph, nodes)}


def counterparts(graph: RuleGraph, ident: str) -> dict:
    """The rule's counterparts: the same rule in the other editions of its game (under
    "editions"), the outline steps linked to it, and, for an outline step, the
    rulebook paragraphs it maps to in each edition."""
    node = _check(graph, node_of(graph, ident))
    if graph.g.nodes[node]["kind"] == TERM:
        raise JudgeError(f"{node} is a glossary term; ask about the paragraph defining it")
    found = [{**node_info(graph, c.id), "confidence": c.confidence, "method": c.method}
             for c in graph.concordance.counterparts(node)]
    order = {d: graph.corpus.documents[d].meta.edition_order for d in graph.corpus.documents}
    found.sort(key=lambda r: (-order[r["doc"]], -r["confidence"], r["id"]))
    steps = [{**node_info(graph, link.step), "confidence": link.confidence, "via": link.via}
             for link in graph.concordance.steps_citing(node)]
    steps.sort(key=lambda r: (-r["confidence"], r["id"]))
    cites = [{**node_info(graph, link.target), "confidence": link.confidence, "via": link.via}
             for link in graph.concordance.outline.get(node, ())]
    return {**node_info(graph, node), "editions": found, "outline_steps": steps, "step_cites": cites}


def orphans(graph: RuleGraph, doc: Optional[str] = None, kinds: Iterable[str] = ()) -> list[dict]:
    """Paragraphs that nothing cites and that cite nothing (nor does their section), of
    one document and of some paragraph kinds (`rule`, `glossary`...) if asked."""
    if doc is not None and doc not in graph.corpus.documents:
        raise JudgeError(f"no document {doc!r}; known: {', '.join(graph.corpus.documents)}")
    kinds = set(kinds)
    if kinds - set(PARAGRAPH_KINDS):
        raise JudgeError(f"no paragraph kind {', '.join(sorted(kinds - set(PARAGRAPH_KINDS)))}; "
                         f"known: {', '.join(PARAGRAPH_KINDS)}")
    return [row for row in graph.whole_answers()["orphans"]
            if not (doc and row["doc"] != doc) and not (kinds and row["para_kind"] not in kinds)]


def hubs(graph: RuleGraph, k: int = 20, doc: Optional[str] = None) -> list[dict]:
    """The most cited rules: sections and paragraphs by the number of distinct
    paragraphs citing them (an outline step's own citation counts; the paragraphs
    of a section it cites do not)."""
    if doc is not None and doc not in graph.corpus.documents:
        raise JudgeError(f"no document {doc!r}; known: {', '.join(graph.corpus.documents)}")
    return [row for row in graph.whole_answers()["hubs"] if not doc or row["doc"] == doc][:k]


def whole_answers(graph: RuleGraph) -> dict:
    """What `orphans`, `hubs` and `stats` answer from, worked out over the whole graph:
    {"orphans": every orphan in the graph's order, "hubs": every cited rule, most cited
    first, "counts": `stats`' counts}. Plain data, which the saved graph keeps."""
    import networkx as nx

    g = graph.g
    linking, linked = set(), set()  # the ends of the links: what links, what is linked to
    citing: dict[str, set[str]] = {}
    for u, v, kind, data in g.edges(keys=True, data=True):
        if kind in LINK_KINDS:
            linking.add(u)
            linked.add(v)
        if kind == CITES or (kind == STEP_CITES and data.get("direct")):
            citing.setdefault(v, set()).add(u)
    # a paragraph that no link ends at or starts from, in a section no link ends at
    lonely = [{**node_info(graph, node), "para_kind": data["para_kind"]} for node, data in g.nodes(data=True)
              if data["kind"] == PARAGRAPH and node not in linked and node not in linking
              and data["section"] not in linked]
    cited = [{**node_info(graph, n), "cited_by": len(s), "docs": sorted({x.split(":", 1)[0] for x in s})}
             for n, s in citing.items()]
    cited.sort(key=lambda r: (-r["cited_by"], r["id"]))
    per_doc: dict[str, dict] = {}
    for node, data in g.nodes(data=True):
        if data["kind"] in (SECTION, PARAGRAPH):
            row = per_doc.setdefault(data["doc"], {"sections": 0, "paragraphs": 0})
            row[data["kind"] + "s"] += 1
    counts = {
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "node_kinds": dict(sorted(Counter(k for _, k in g.nodes(data="kind")).items())),
        "edge_kinds": dict(sorted(Counter(k for _, _, k in g.edges(keys=True)).items())),
        "documents": per_doc,
        "components": nx.number_connected_components(graph.view),
    }
    return {"orphans": lonely, "hubs": cited, "counts": counts}


def neighbourhood(graph: RuleGraph, ident: str, radius: int = 1) -> dict:
    """The nodes within `radius` links of one, and the edges among them (for drawing)."""
    import networkx as nx

    node = _check(graph, node_of(graph, ident))
    if not 0 <= radius <= 3:
        raise JudgeError(f"radius must be between 0 and 3, not {radius}")
    near = nx.single_source_shortest_path_length(graph.view, node, cutoff=radius)
    nodes = sorted(near, key=lambda n: (near[n], n))
    edges = [{"source": u, "target": v, "kind": kind, **_edge_attrs(data)}
             for u, v, kind, data in graph.g.subgraph(nodes).edges(keys=True, data=True)]
    edges.sort(key=lambda e: (e["source"], e["target"], e["kind"]))
    return {"center": node, "radius": radius,
            "nodes": [{**node_info(graph, n), "distance": near[n]} for n in nodes], "edges": edges}


def _edge_attrs(data: dict) -> dict:
    return {k: v for k, v in data.items() if k in ("confidence", "method", "count", "direct")}


def stats(graph: RuleGraph) -> dict:
    counts = graph.whole_answers()["counts"]
    per_doc = {doc: dict(row) for doc, row in counts["documents"].items()}
    lonely = orphans(graph)
    for doc, row in per_doc.items():
        row["orphans"] = sum(1 for o in lonely if o["doc"] == doc)
    return {
        "nodes": counts["nodes"],
        "edges": counts["edges"],
        "node_kinds": counts["node_kinds"],
        "edge_kinds": counts["edge_kinds"],
        "documents": dict(sorted(per_doc.items())),
        "components": counts["components"],
        "orphans": len(lonely),
        "hubs": hubs(graph, 5),
    }


def export(graph: RuleGraph, fmt: str, out: IO) -> None:
    """Write the graph as GraphML or as networkx node-link JSON (binary stream for
    GraphML, text stream for JSON)."""
    import networkx as nx

    if fmt == "graphml":
        nx.write_graphml(graph.g, out)
    elif fmt == "json":
        json.dump(nx.node_link_data(graph.g), out, ensure_ascii=False)
    else:
        raise JudgeError(f"unknown export format {fmt!r} (known: {', '.join(EXPORT_FORMATS)})")
