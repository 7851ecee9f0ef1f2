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
    data["in_force"] = in_force_counterparts(corpus, item.id)
    return data


IN_FORCE_CONFIDENCE = 0.5  # a counterpart less sure than this is not offered as the same rule


def in_force_counterparts(corpus: Corpus, ident: str) -> list[dict]:
    """For a paragraph or section of an older edition: where the same rule is in the
    book in force of its game ({id, label, confidence}, surest first); [] for the
    book in force itself, or when the concordance pairs it with nothing there."""
    from judge.compare.concordance import counterparts

    doc = corpus.document_of(ident)
    if doc is None:
        return []
    newest = max(d.meta.edition_order for d in corpus.documents.values() if d.meta.game == doc.meta.game)
    if doc.meta.edition_order == newest:
        return []
    out = []
    for other, confidence in counterparts(corpus, ident):
        other_doc = corpus.document_of(other)
        found = corpus.get(other)
        if (found is not None and other_doc is not None and other_doc.meta.game == doc.meta.game
                and other_doc.meta.edition_order == newest and confidence >= IN_FORCE_CONFIDENCE):
            out.append({"id": other, "label": found.label, "confidence": round(confidence, 3)})
    return sorted(out, key=lambda c: -c["confidence"])
