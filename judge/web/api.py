"""The JSON API, mirroring the command line's `--json` shapes (docs/cli.md).

The shapes both give are made by `judge.shapes`; the API is described by the
OpenAPI document at /api/openapi.json (judge/web/openapi.py).

Errors are JSON too: `{"error": message, "status": code}`, plus
`"suggestions"` (close IDs) on a 404 for an unknown paragraph.
"""
from __future__ import annotations

from flask import Blueprint, jsonify

from judge.shapes import documents_data, show_data
import judge.web.params as params
from judge.web.site import current_site
from judge.web.pages import document_or_404

api = Blueprint("api", __name__, url_prefix="/api")

API_SEARCH_LIMIT = 10  # as `judge search`
RELATED_DEFAULT, RELATED_MAX = 10, 50


@api.get("/openapi.json")
def openapi():
    from judge.web.openapi import openapi_document
    return jsonify(openapi_document(current_site().corpus))


@api.get("/search")
def search():
    site = current_site()
    p = params.search_params(site.corpus, required=True, default_limit=API_SEARCH_LIMIT, api=True)
    from judge.web.cards import search_cards  # the cards the query names (issue 22)
    from judge.shapes import search_data
    searched = params.searched_in()
    result = site.search(p)
    answer = search_cards(p.q, searched, result)
    # in=cards / in=rulings: the same shape, no rule hit; rulings mixed with the rules by score
    return jsonify(search_data(result, answer, site.cards if answer is not None else None, searched, p.limit,
                               filtered=bool(p.docs or p.kinds)))


@api.get("/paragraph/<path:ident>")
def paragraph(ident: str):
    site = current_site()
    data = show_data(site.corpus, ident)
    item = site.corpus.get(data["id"])
    # Where to send people: the permalink at the site's public address, and vekn.net's for the current book.
    data["citation"] = site.citation(item.id, data["text"] if data["kind"] != "section" else "").to_json()
    return jsonify(data)


@api.get("/docs")
def docs():
    return jsonify(documents_data(current_site().corpus))


@api.get("/toc/<doc_id>")
def toc(doc_id: str):
    return jsonify(current_site().toc(document_or_404(doc_id)))  # any case: /api/toc/VEKN


@api.get("/glossary")
def glossary():
    site = current_site()
    chosen = params.choices("doc", [d.id for d in site.corpus.documents.values() if d.glossary])
    out = []
    for doc in site.corpus.documents.values():
        if not doc.glossary or (chosen and doc.id not in chosen):
            continue
        for term, pid in sorted(doc.glossary.items(), key=lambda kv: kv[0].lower()):
            para = site.corpus.paragraphs.get(pid)
            if para is not None:
                out.append({"term": term, "doc": doc.id, "id": pid, "label": para.label, "text": para.text})
    return jsonify(out)


@api.get("/lint")
def lint():
    site = current_site()
    chosen = params.choices("doc", list(site.corpus.documents))
    return jsonify([f.to_json() for f in site.lint(tuple(chosen))])


# -- the rule graph (judge/graph.py) ----------------------------------------------------------
def _node(ident: str) -> str:
    from judge import graph
    return graph.node_of(current_site().graph, ident)


@api.get("/graph/backlinks/<path:ident>")
def graph_backlinks(ident: str):
    return jsonify(current_site().cited_by(_node(ident)))


@api.get("/graph/related/<path:ident>")
def graph_related(ident: str):
    from judge import graph
    k = params.integer("k", RELATED_DEFAULT, 1, RELATED_MAX, api=True)
    return jsonify(graph.related(current_site().graph, _node(ident), k=k))


@api.get("/graph/editions/<path:ident>")
def graph_editions(ident: str):
    return jsonify(current_site().editions(_node(ident)))


@api.get("/graph/neighbourhood/<path:ident>")
def graph_neighbourhood(ident: str):
    radius = params.integer("radius", 1, 0, 3, api=True)
    return jsonify(current_site().neighbourhood(_node(ident), radius))


@api.get("/graph/path")
def graph_path():
    from judge import graph
    a, b = (params.text("from", required=True, max_length=params.PATH_END_CHARS),
            params.text("to", required=True, max_length=params.PATH_END_CHARS))
    found = graph.path(current_site().graph, _node(a), _node(b))
    if found is None:
        return jsonify({"error": f"nothing connects {a!r} and {b!r}", "status": 404}), 404
    return jsonify(found)
