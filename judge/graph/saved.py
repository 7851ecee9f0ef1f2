"""The rule graph's walk saved as arrays, so that `judge graph related` reads what it needs.

`judge graph related` runs one personalised PageRank and one Dijkstra over the
weighted view of the rule graph (`judge.graph.related`). Building that view
means loading the whole corpus and concordance, building the networkx graph,
then its view and matrices: 8 s of CPU at 100 books, for a walk of tens of
milliseconds. `save` writes what the walk and its explanations read, as numpy
arrays in one `.npz` (no pickles), beside the other built artifacts:

* the walk's matrices as `judge.graph._Walk` holds them (the transposed stochastic
  matrix and the costs, CSR), each node's id, kind, label and document, the
  nodes without an edge;
* each view edge's strongest hop (its direction, kind and the attributes its
  explanation quotes: `direct`, `witness`, `method`, `confidence`);
* the concordance's direct links of each node (most confident first, as
  `Concordance.linked` gives them) and the pairs of editions aligned directly,
  from which `counterpart_ids` works out the counterparts as the concordance does
  (`judge.compare.chains.composed_chains`);
* the procedure edges (`together`, `next-step`) in the graph's order;
* the answers worked out over the whole graph that `orphans`, `hubs` and `stats`
  filter (`judge.graph.whole_answers`), as JSON.

`SavedGraph` answers `judge.graph.related` (and the helpers it shares) from
those arrays and a corpus (the served one: labels and sections read by ID), with
the same code as the in-memory graph, so the answers are the same bit for bit
(the same matrices, the same float operations). The file is keyed by the
concordance's key (the corpus digest and the aligning code), this module's and
judge/graph's source, and its format; a stale file is not used, a damaged one
is logged and not used; either is written again by the command that then builds
the graph.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

import numpy as np

from judge import cachefile, paths
from judge.datafile import bytes_for_digest
from judge.compare.chains import composed_chains
from judge.graph import DOCUMENT, EDGE_KINDS, NEXT_STEP, SAME_RULE, STEP_CITES, TOGETHER, RuleGraph, _Walk

if TYPE_CHECKING:
    from judge.model import Corpus

FILE_NAME = "rule-graph.npz"
FORMAT = 1
SEPARATOR = "\0"  # between the ids (and labels) of the nodes: no id or label holds one

log = logging.getLogger(__name__)


class _Damaged(ValueError):
    """What does not check in a saved graph."""


def graph_key(corpus: "Corpus") -> str:
    """What the saved graph depends on: the corpus digest, the code and data the concordance is
    aligned with (every module of judge/compare, a superset of what its key hashes, and the
    terminology map), the graph's code and the file's format. Hashed from the files, not
    asked of the concordance: importing it costs a tenth of a second."""
    package = Path(__file__).parent.parent
    h = hashlib.sha256(f"{FORMAT}:{corpus.digest}".encode())
    for path in (*sorted((package / "compare").glob("*.py")), terminology_file(), *sorted((package / "graph").glob("*.py"))):
        h.update(path.name.encode())
        h.update(bytes_for_digest(path))
    return h.hexdigest()


def terminology_file() -> Path:
    """`judge.compare.terminology.terminology_file`, without importing yaml with it (a test holds them equal)."""
    return paths.data_dir() / "terminology.yaml"


# -- saving --------------------------------------------------------------------------

def arrays_of(graph: RuleGraph) -> dict[str, np.ndarray]:
    """What `SavedGraph` reads, from a graph built in memory."""
    walk, view, g = graph.walk, graph.view, graph.g
    nodes, index, n = walk.nodes, walk.index, len(walk.nodes)
    kind_names = sorted(set(walk.kinds.tolist()))
    docs = sorted(graph.corpus.documents)
    doc_index = {d: i for i, d in enumerate(docs)}
    node_docs = np.array([doc_index.get(g.nodes[x].get("doc") or "", -1) for x in nodes], dtype=np.int32)
    # Each view edge's strongest hop: one row per edge; both CSR entries of the edge point at it.
    methods: list[str] = []
    ends, rows = [], []
    for x, y, data in view.edges(data=True):
        _, u, v, kind = data["hops"][0]
        attrs = g.get_edge_data(u, v, kind)  # (g.edges[u, v, kind] costs ten times as much)
        method = attrs.get("method") if kind == SAME_RULE else None
        if method is not None and method not in methods:
            methods.append(method)
        i, j = index[x], index[y]
        ends.append(min(i, j) * n + max(i, j))
        rows.append((index[u], index[v], EDGE_KINDS.index(kind), bool(attrs.get("direct")) if kind == STEP_CITES
                     else False, index[attrs["witness"]] if kind == TOGETHER else -1,
                     methods.index(method) if method is not None else -1,
                     float(attrs["confidence"]) if kind == SAME_RULE else 0.0))
    keys = np.array(ends, dtype=np.int64)
    by_key = np.argsort(keys, kind="stable")
    costs = walk.costs
    entry_rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(costs.indptr))
    entry_cols = costs.indices.astype(np.int64)
    entry_keys = np.minimum(entry_rows, entry_cols) * n + np.maximum(entry_rows, entry_cols)
    found = np.searchsorted(keys, entry_keys, sorter=by_key)
    entry_hop = by_key[np.minimum(found, len(keys) - 1)] if len(keys) else np.zeros(0, dtype=np.int64)
    if not np.array_equal(keys[entry_hop], entry_keys):
        raise ValueError("the walk's costs and the view's edges differ")
    table = np.array(rows, dtype=[("u", np.int32), ("v", np.int32), ("kind", np.int8), ("direct", np.bool_),
                                  ("witness", np.int32), ("method", np.int16), ("confidence", np.float64)])
    # The concordance's direct links, per node, in its order.
    link_ptr, link_to, link_confidence = [0], [], []
    for x in nodes:
        for c in graph.concordance.linked(x):
            link_to.append(index[c.id])
            link_confidence.append(c.confidence)
        link_ptr.append(len(link_to))
    aligned = sorted({(al.old_doc, al.new_doc) for al in graph.concordance.alignments})
    # The procedure edges, in the graph's order (out-edges) and each target's in-edges' order.
    together, steps, first_home, previous = [], [], [], []
    for u, v, kind, data in g.edges(keys=True, data=True):
        if kind == TOGETHER:
            together.append((index[u], index[v], index[data["witness"]]))
        elif kind == NEXT_STEP:
            steps.append((index[u], index[v]))
    for v in sorted({v for _, v, _ in together}):
        home = graph.first_home(nodes[v])
        first_home.append((v, index[home[0]], index[home[1]]))
    for v in sorted({v for _, v in steps}):
        previous.extend((v, index[u]) for u in graph.previous_steps(nodes[v]))
    return {
        "format": np.array(FORMAT),
        "nodes": _joined(nodes), "labels": _joined(g.nodes[x]["label"] for x in nodes),
        "kind_names": _joined(kind_names), "kinds": np.searchsorted(kind_names, walk.kinds).astype(np.int8),
        "docs": _joined(docs), "node_docs": node_docs,
        # (the indices as int32, where scipy may have made them int64: the same products and sums)
        "id_rank": walk.id_rank.astype(np.int32), "dangling": walk.dangling.astype(np.int32),
        "transposed_data": walk.transposed.data, "transposed_indices": walk.transposed.indices.astype(np.int32),
        "transposed_indptr": walk.transposed.indptr.astype(np.int32),
        "costs_data": costs.data, "costs_indices": costs.indices.astype(np.int32),
        "costs_indptr": costs.indptr.astype(np.int32),
        "entry_hop": entry_hop.astype(np.int32), "hops": table, "methods": _joined(methods),
        "link_ptr": np.array(link_ptr, dtype=np.int64), "link_to": np.array(link_to, dtype=np.int32),
        "link_confidence": np.array(link_confidence, dtype=np.float64),
        "aligned": np.array([(doc_index[a], doc_index[b]) for a, b in aligned], dtype=np.int32).reshape(-1, 2),
        "together": np.array(together, dtype=np.int32).reshape(-1, 3),
        "next_steps": np.array(steps, dtype=np.int32).reshape(-1, 2),
        "first_home": np.array(first_home, dtype=np.int32).reshape(-1, 3),
        "previous_steps": np.array(previous, dtype=np.int32).reshape(-1, 2),
        "whole_answers": np.frombuffer(json.dumps(graph.whole_answers(), ensure_ascii=False,
                                                  separators=(",", ":")).encode("utf-8"), dtype=np.uint8),
    }


def _joined(texts: Iterable[str]) -> np.ndarray:
    return np.frombuffer(SEPARATOR.join(texts).encode("utf-8"), dtype=np.uint8)


def save(graph: RuleGraph, root: Optional[Path] = None) -> bool:
    """Write the saved form of `graph` (of a corpus with a digest) to the index directory,
    atomically; False when it cannot be written there (that only costs the next command time)."""
    if not graph.corpus.digest:
        return False
    root = Path(root or paths.index_dir())
    if graph.walk.costs.nnz >= 2 ** 31:
        log.warning("the rule graph has too many edges to save (%d): it is built by each command", graph.walk.costs.nnz)
        return False
    arrays = arrays_of(graph)
    arrays["key"] = np.frombuffer(graph_key(graph.corpus).encode(), dtype=np.uint8)
    try:
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".rule-graph-", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
        cachefile.replace(tmp, root / FILE_NAME)
        return True
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return False


# -- reading -------------------------------------------------------------------------

def open_saved(corpus: "Corpus", root: Optional[Path] = None, answers: bool = False) -> Optional["SavedGraph"]:
    """The saved graph of `corpus` in the index directory; None when there is none, it is
    of another corpus or code, or it is damaged (logged: the caller builds the graph and saves it again).
    With `answers`, its whole-graph answers are decoded and checked too."""
    path = Path(root or paths.index_dir()) / FILE_NAME
    if not corpus.digest or not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as npz:
            if "key" not in npz.files or bytes(npz["key"]).decode("ascii", "replace") != graph_key(corpus):
                return None
            # (the whole-graph answers, a few MB at 100 books, only when asked for: `related` needs none)
            arrays = {name: npz[name] for name in npz.files if answers or name != "whole_answers"}
        found = SavedGraph(corpus, arrays, path)
        if answers:
            found.whole_answers()
        return found
    except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises: the graph is built again
        log.warning("the saved rule graph %s is damaged (%s); building the graph again", path, exc)
        return None


def _split(array: np.ndarray) -> list[str]:
    text = bytes(array).decode("utf-8")
    return text.split(SEPARATOR) if text else []


class SavedGraph:
    """`judge.graph.RuleGraph`'s answers to what `judge.graph.related` asks, from the saved arrays
    and `corpus` (for sections, paragraphs and documents)."""

    def __init__(self, corpus: "Corpus", arrays: dict[str, np.ndarray], path: Optional[Path] = None):
        import scipy.sparse

        self.corpus = corpus
        if int(arrays["format"]) != FORMAT:
            raise _Damaged(f"format {arrays['format']}, not {FORMAT}")
        nodes, self._labels = _split(arrays["nodes"]), _split(arrays["labels"])
        kind_names, self._docs = _split(arrays["kind_names"]), _split(arrays["docs"])
        self._methods = _split(arrays["methods"])
        n = len(nodes)
        kinds, node_docs = arrays["kinds"], arrays["node_docs"]
        if len(self._labels) != n or kinds.shape != (n,) or node_docs.shape != (n,):
            raise _Damaged("its nodes, labels, kinds and documents do not match")
        _check_index(kinds, len(kind_names), "a node's kind")
        _check_index(node_docs, len(self._docs), "a node's document", -1)
        if DOCUMENT in kind_names or set(self._docs) != set(corpus.documents):
            raise _Damaged("it is not of this corpus's documents")
        transposed = _csr(scipy.sparse, arrays, "transposed", n)
        costs = _csr(scipy.sparse, arrays, "costs", n)
        dangling = arrays["dangling"]
        _check_index(dangling, n, "a node without edges")
        self._kinds, self._node_docs = kinds, node_docs
        id_rank = arrays["id_rank"]
        if id_rank.shape != (n,):
            raise _Damaged("its order of the ids does not match its nodes")
        _check_index(id_rank, n, "a node's place in the order of the ids")
        self.walk = _Walk(nodes, np.array(kind_names)[kinds] if n else np.array([], dtype=str), transposed,
                          dangling, costs, id_rank)
        self._hops, self._entry_hop = arrays["hops"], arrays["entry_hop"]
        if self._entry_hop.shape != costs.indices.shape:
            raise _Damaged("its hops do not match its costs")
        _check_index(self._entry_hop, len(self._hops), "an edge's hop")
        if len(self._hops):
            for field in ("u", "v", "witness"):
                _check_index(self._hops[field], n, "a hop's node", -1 if field == "witness" else 0)
            _check_index(self._hops["kind"], len(EDGE_KINDS), "a hop's kind")
            _check_index(self._hops["method"], len(self._methods), "a hop's method", -1)
        self._link_ptr, self._link_to = arrays["link_ptr"], arrays["link_to"]
        self._link_confidence = arrays["link_confidence"]
        if self._link_ptr.shape != (n + 1,) or self._link_to.shape != self._link_confidence.shape or \
                int(self._link_ptr[0]) != 0 or int(self._link_ptr[-1]) != len(self._link_to) or \
                np.any(np.diff(self._link_ptr) < 0):
            raise _Damaged("its counterparts' links do not match its nodes")
        _check_index(self._link_to, n, "a counterpart")
        aligned = arrays["aligned"]
        _check_index(aligned, len(self._docs), "an aligned edition")
        self._aligned = {(self._docs[a], self._docs[b]) for a, b in aligned.tolist()}
        self._aligned |= {(b, a) for a, b in self._aligned}
        tables = {}
        for name, width in (("together", 3), ("next_steps", 2), ("first_home", 3), ("previous_steps", 2)):
            table = arrays[name]
            if table.ndim != 2 or table.shape[1] != width:
                raise _Damaged(f"its {name} table is not of {width} columns")
            _check_index(table, n, f"a node of {name}")
            tables[name] = table.tolist()
        self._stated: dict[int, list[tuple[int, int]]] = {}
        for u, v, w in tables["together"]:
            self._stated.setdefault(u, []).append((v, w))
        self._next: dict[int, list[int]] = {}
        for u, v in tables["next_steps"]:
            self._next.setdefault(u, []).append(v)
        self._first_home = {v: (u, w) for v, u, w in tables["first_home"]}
        self._previous: dict[int, list[int]] = {}
        for v, u in tables["previous_steps"]:
            self._previous.setdefault(v, []).append(u)
        self._data: dict[str, dict] = {}
        self._answers_json, self._answers, self._path = arrays.get("whole_answers"), None, path

    def whole_answers(self) -> dict:
        """`judge.graph.whole_answers` of the graph saved (decoded and checked when first asked for)."""
        if self._answers is None:
            try:
                if self._answers_json is None:
                    with np.load(self._path, allow_pickle=False) as npz:
                        self._answers_json = npz["whole_answers"]
                answers = json.loads(bytes(self._answers_json).decode("utf-8"))
            except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises
                raise _Damaged(f"its whole-graph answers cannot be read ({exc})") from None
            problem = _check_answers(answers)
            if problem:
                raise _Damaged(f"its whole-graph answers: {problem}")
            self._answers = answers
        return self._answers

    # -- what judge.graph's queries ask (RuleGraph's methods of the same names) --
    def has(self, node: str) -> bool:
        return node in self.walk.index or node in self.corpus.documents

    def data(self, node: str) -> dict:
        found = self._data.get(node)
        if found is None:
            i = self.walk.index.get(node)
            if i is None:
                if node not in self.corpus.documents:
                    raise KeyError(node)
                return {"kind": DOCUMENT, "label": self.corpus.documents[node].meta.short, "doc": node}
            doc = int(self._node_docs[i])
            found = {"kind": str(self.walk.kinds[i]), "label": self._labels[i],
                     "doc": self._docs[doc] if doc >= 0 else ""}
            self._data[node] = found
        return found

    def node_ids(self) -> Iterable[str]:
        return iter(self.walk.nodes)

    def in_view(self, node: str) -> bool:
        return node in self.walk.index

    def hop(self, x: str, y: str) -> tuple[str, str, str, dict]:
        nodes, costs = self.walk.nodes, self.walk.costs
        i, j = self.walk.index[x], self.walk.index[y]
        start = int(costs.indptr[i])
        at = np.nonzero(costs.indices[start:int(costs.indptr[i + 1])] == j)[0]
        if not len(at):
            raise KeyError((x, y))
        hop = self._hops[int(self._entry_hop[start + int(at[0])])]
        kind = EDGE_KINDS[int(hop["kind"])]
        attrs: dict = {}
        if kind == STEP_CITES:
            attrs["direct"] = bool(hop["direct"])
        elif kind == TOGETHER:
            attrs["witness"] = nodes[int(hop["witness"])]
        elif kind == SAME_RULE:
            attrs.update(method=self._methods[int(hop["method"])], confidence=float(hop["confidence"]))
        return nodes[int(hop["u"])], nodes[int(hop["v"])], kind, attrs

    def _links(self, node: str) -> list[tuple[str, float]]:
        i = self.walk.index.get(node)
        if i is None:
            return []
        start, end = int(self._link_ptr[i]), int(self._link_ptr[i + 1])
        return [(self.walk.nodes[t], c) for t, c in zip(self._link_to[start:end].tolist(),
                                                         self._link_confidence[start:end].tolist())]

    def counterpart_ids(self, node: str) -> list[str]:
        """`Concordance.counterparts`' ids in its order: the direct links, then the composed chains,
        most confident first, then by id."""
        direct = self._links(node)
        if not direct:
            return []
        found = direct + composed_chains(node, self._links, lambda a, b: (a, b) in self._aligned)
        found.sort(key=lambda c: (-c[1], c[0]))
        return [ident for ident, _ in found]

    def stated_in(self, section: str) -> list[tuple[str, str]]:
        nodes = self.walk.nodes
        return [(nodes[v], nodes[w]) for v, w in self._stated.get(self.walk.index.get(section, -1), ())]

    def first_home(self, paragraph: str) -> Optional[tuple[str, str]]:
        found = self._first_home.get(self.walk.index.get(paragraph, -1))
        return None if found is None else (self.walk.nodes[found[0]], self.walk.nodes[found[1]])

    def next_steps(self, section: str) -> list[str]:
        return [self.walk.nodes[v] for v in self._next.get(self.walk.index.get(section, -1), ())]

    def previous_steps(self, section: str) -> list[str]:
        return [self.walk.nodes[u] for u in self._previous.get(self.walk.index.get(section, -1), ())]


_ROW_KEYS = {"orphans": {"id", "kind", "label", "doc", "para_kind"},
             "hubs": {"id", "kind", "label", "doc", "cited_by", "docs"}}
_COUNTS = {"nodes": int, "edges": int, "node_kinds": dict, "edge_kinds": dict, "documents": dict, "components": int}


def _check_answers(answers) -> Optional[str]:
    """What is wrong with decoded whole-graph answers, or None."""
    if type(answers) is not dict or answers.keys() != {"orphans", "hubs", "counts"}:
        return "not the three of them"
    for name, keys in _ROW_KEYS.items():
        rows = answers[name]
        if type(rows) is not list or any(type(r) is not dict or r.keys() != keys for r in rows):
            return f"{name}: not a list of rows"
        if any(type(r["id"]) is not str or type(r["label"]) is not str for r in rows):
            return f"{name}: a row's id or label is not text"
    if any(type(r["cited_by"]) is not int or type(r["docs"]) is not list for r in answers["hubs"]):
        return "hubs: a count or a list of documents is not one"
    counts = answers["counts"]
    if type(counts) is not dict or counts.keys() != _COUNTS.keys() or \
            any(type(counts[k]) is not t for k, t in _COUNTS.items()):
        return "counts: not the counts"
    if any(type(row) is not dict or row.keys() != {"sections", "paragraphs"} or
           any(type(n) is not int for n in row.values()) for row in counts["documents"].values()):
        return "counts: a document's counts"
    return None


def _check_index(values: np.ndarray, size: int, what: str, lowest: int = 0) -> None:
    if values.dtype.kind not in "iu":
        raise _Damaged(f"{what}: not integers")
    if values.size and (int(values.min()) < lowest or int(values.max()) >= size):
        raise _Damaged(f"{what} out of range")


def _csr(sparse, arrays: dict, name: str, n: int):
    data, indices, indptr = arrays[f"{name}_data"], arrays[f"{name}_indices"], arrays[f"{name}_indptr"]
    if data.dtype != np.float64 or data.shape != indices.shape or indptr.shape != (n + 1,) or \
            (n and (int(indptr[0]) != 0 or int(indptr[-1]) != len(data) or np.any(np.diff(indptr) < 0))):
        raise _Damaged(f"its {name} matrix is not a {n} x {n} CSR matrix")
    _check_index(indices, max(n, 1), f"a column of its {name} matrix")
    return sparse.csr_array((data, indices, indptr), shape=(n, n))
