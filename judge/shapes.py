"""The JSON shapes the command line (`--json`) and the web API both give.

Made here once, so that the two cannot drift apart (docs/cli.md lists them)."""
from __future__ import annotations

from judge.lookup import identify
from judge.model import Corpus, Document, Paragraph

DOCUMENT_KEYS = ("id", "title", "game", "edition", "source", "sections", "paragraphs")


def documents_data(corpus: Corpus) -> list[dict]:
    """`judge docs --json`, /api/docs: each document and its size."""
    return [{k: row[k] for k in DOCUMENT_KEYS} for row in (d.to_json() for d in corpus.documents.values())]


def toc_data(corpus: Corpus, doc: Document) -> list[dict]:
    """`judge toc DOC --json`, /api/toc/DOC: the section tree of a document."""
    def tree(section_ids: list[str]) -> list[dict]:
        out = []
        for sid in section_ids:
            sec = corpus.sections[sid]
            out.append({"id": sec.id, "number": sec.number, "title": sec.title, "label": sec.label,
                        "paragraphs": len(sec.paragraphs), "children": tree(sec.children)})
        return out

    return tree([s.id for s in doc.sections if s.parent is None])


def show_data(corpus: Corpus, ident: str) -> dict:
    """`judge show ID --json`, /api/paragraph/ID: a paragraph or section with its
    place, its references out and in, and how the query was understood."""
    match = identify(corpus, ident)
    item = corpus.get(match.id)
    breadcrumb = [{"id": s.id, "title": s.title, "label": s.label} for s in corpus.section_path(match.id)]
    if isinstance(item, Paragraph):
        refs_out = item.refs
        data = {"id": item.id, "doc": item.doc, "label": item.label, "kind": item.kind, "text": item.text}
    else:
        paras = corpus.paragraphs_of(item.id, deep=False)
        refs_out = [r for p in paras for r in p.refs]
        data = {"id": item.id, "doc": item.doc, "label": item.label, "kind": "section", "title": item.title,
                "text": "\n\n".join(p.text for p in paras), "paragraphs": [p.id for p in paras],
                "subsections": list(item.children)}
    data["section"] = breadcrumb
    data["refs_out"] = [{"raw": r.raw, "status": r.status, "target": r.target, "reason": r.reason}
                        for r in refs_out]
    data["refs_in"] = [{"source": r.source, "raw": r.raw, "status": r.status}
                       for r in corpus.refs_in(item.id)]
    data["resolved_from"] = {"query": ident, "how": match.how, "note": match.note, "also": list(match.also)}
    return data
