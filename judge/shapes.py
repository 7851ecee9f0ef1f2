"""The JSON shapes the command line (`--json`) and the web API both give.

Made here once, so that the two cannot drift apart (docs/cli.md lists them)."""
from __future__ import annotations

from judge import paths
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
        if item.repairs:  # the older book's scan, repaired word by word (judge/ingest/ocr_repair.py)
            data["scan"] = scan_data(item)
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


def scan_data(para: Paragraph) -> dict:
    """A repaired paragraph's scan: its text as scanned and each repair (what the scan had, what it reads now,
    how it was found)."""
    return {"text": para.scanned_text,
            "repairs": [{"original": r.original, "repaired": para.text[r.start:r.end], "how": r.how}
                        for r in para.repairs]}


IN_FORCE_CONFIDENCE = 0.5  # a counterpart less sure than this is not offered as the same rule


def in_force_counterparts(corpus: Corpus, ident: str) -> list[dict]:
    """For a paragraph or section of an older edition: where the same rule is in the
    book in force of its game ({id, label, confidence}, surest first); [] for the
    book in force itself, or when the concordance pairs it with nothing there."""
    doc = corpus.document_of(ident)
    if doc is None:
        return []
    newest = max(d.meta.edition_order for d in corpus.documents.values() if d.meta.game == doc.meta.game)
    if doc.meta.edition_order == newest:
        return []
    out = []
    for other, confidence in _counterparts(corpus, ident):
        other_doc = corpus.document_of(other)
        found = corpus.get(other)
        if (found is not None and other_doc is not None and other_doc.meta.game == doc.meta.game
                and other_doc.meta.edition_order == newest and round(confidence, 3) >= IN_FORCE_CONFIDENCE):
            out.append({"id": other, "label": found.label, "confidence": round(confidence, 3)})
    return sorted(out, key=lambda c: -c["confidence"])


def _counterparts(corpus: Corpus, ident: str) -> list[tuple[str, float]]:
    """(id, confidence) of the same paragraph or section in each other edition of its game
    (only asked of an older edition: the book in force needs no alignment). A paragraph's
    are read from the search build's rule groups when this corpus has one on disk
    (`Search.counterparts`: the concordance's groups, kept per build; 0.5 s for `judge show`
    at 100 books); else, and for a section, from the concordance, which a process loads
    whole (2 s at 100 books) and which builds no search index."""
    if corpus.paragraphs.get(ident) is not None and (paths.index_dir() / paths.SEARCH_POINTER).exists():
        from judge.search.searcher import built_searcher

        search = built_searcher(corpus)
        if search is not None:
            return [(c.id, c.confidence) for c in search.counterparts(ident)]
    from judge.compare.concordance import counterparts

    return counterparts(corpus, ident)


# -- cards and rulings (judge.cards; docs/cards.md) ---------------------------------------------
def _rule_ref(corpus: Corpus, ident: str) -> dict:
    item = corpus.get(ident)
    return {"id": ident, "label": item.label if item else ident}


def reference_data(base, ref_id: str, corpus: Corpus, cites: dict | None = None) -> dict:
    """One reference a ruling cites: {id, source, date, url, status, resolves_to, label, reason}; `cites` the
    ruling's own (judge.cards.model.Ruling.cites: the paragraph its words pick in a section the reference names),
    which `resolves_to` then gives."""
    ref = base.references.get(ref_id)
    if ref is None:
        return {"id": ref_id, "source": ref_id.split(" ")[0], "date": None, "url": None, "status": "broken",
                "resolves_to": None, "label": None, "reason": "not in references.yaml"}
    target = (cites or {}).get(ref_id, ref.resolves_to)
    label = corpus.get(target).label if target and corpus.get(target) else None
    return {"id": ref.id, "source": ref.source, "date": ref.date, "url": ref.url, "status": ref.status,
            "resolves_to": target, "label": label, "reason": ref.reason}


def uses_data(base, uses, corpus: Corpus) -> list[dict]:
    """The rule templates a card or ruling relies on, each with its rule paragraphs."""
    out = []
    for use in uses:
        template = base.templates.get(use.template)
        out.append({"template": use.template, "description": template.description if template else "",
                    "matched": use.matched, "rules": [_rule_ref(corpus, r) for r in base.rules_of(use)]})
    return out


def group_note(base, ruling, card_id: str) -> str:
    """What a group's ruling says of one of its cards beside the ruling itself: the group lists the card with a
    note saying which version of it the ruling is about ("[DOM]": played at superior Dominate; "Top [ACTION
    MODIFIER]"); "" for a card's own ruling, or a card listed without one."""
    group = base.groups.get(ruling.group) if ruling.group else None
    if group is None:
        return ""
    return next((m.note for m in group.members if m.card == card_id and m.note), "")


def ruling_data(base, ruling, corpus: Corpus, check=None, card_id: str | None = None) -> dict:
    """`judge rulings --json` (each), /api/rulings: {id, text, owner, group, note, cards, mentions,
    references, rules, date, stale, parts}; `note` says, for a group's ruling shown on the card `card_id`,
    which version of that card it is about (`group_note`)."""
    from judge.cards.stale import ruling_date
    stale = check.of(ruling.id) if check is not None else None
    return {"id": ruling.id, "text": ruling.text, "owner": ruling.owner, "group": ruling.group,
            "note": group_note(base, ruling, card_id) if card_id else "",
            "cards": [{"id": c, "name": base.cards[c].name, "slug": base.cards[c].slug}
                      for c in ruling.cards if c in base.cards],
            "mentions": ruling.mentions,
            "references": [reference_data(base, r, corpus, ruling.cites) for r in ruling.references],
            "rules": uses_data(base, ruling.rules, corpus),
            "date": ruling_date(base, ruling),
            "stale": stale.to_json() if stale else None,
            "parts": [{"kind": r.kind, "text": r.text, "target": r.target} for r in ruling.parts]}


def card_data(base, card, corpus: Corpus, check=None) -> dict:
    """`judge card NAME --json`, /api/card/NAME: the card, the rules it relies on, its rulings
    (its own and its groups') and its groups with their other cards."""
    from judge.cards.query import version_labels, versions_of
    data = card.to_json()
    versions = versions_of(base, card)
    labels = version_labels(base, [card.id, *(v.id for v in versions)])
    data["label"] = labels.get(card.id, card.name)  # a name its versions share carries their marks: "Theo Bell (G6)"
    data["versions"] = [{"id": v.id, "name": v.name, "slug": v.slug, "label": labels[v.id]} for v in versions]
    data["rules"] = uses_data(base, card.rules, corpus)
    data["rulings"] = [ruling_data(base, r, corpus, check, card.id) for r in base.rulings_of(card.id)]
    # Its other versions' rulings, under each version's label: a question about "Sascha Vykos" may be answered by
    # a ruling on the advanced one.
    data["version_rulings"] = [{"id": v.id, "label": labels[v.id], "slug": v.slug,
                                "rulings": [ruling_data(base, r, corpus, check, v.id) for r in base.rulings_of(v.id)]}
                               for v in versions if base.rulings_of(v.id)]
    data["groups"] = [{"id": g, "name": base.groups[g].name,
                       "cards": [{"id": c, "name": base.cards[c].name, "slug": base.cards[c].slug}
                                 for c in base.groups[g].cards if c != card.id and c in base.cards]}
                      for g in card.groups if g in base.groups]
    return data


def card_match_data(match) -> dict:
    return {"id": match.card.id, "name": match.card.name, "slug": match.card.slug, "how": match.how,
            "score": round(match.score, 1)}


# -- a search: rule paragraphs, the card the question names, the rulings it matches (docs/search.md) -------------
def ruling_hit_data(base, hit, stems=frozenset()) -> dict:
    """A ruling found by a question's words, in the shape of a rule hit (`kind: "ruling"`, its `cards` and
    `references` besides): {id, doc, label, text, score, snippet, snippet_runs, kind, section, section_title,
    game, in_force, ocr, editions, cards, references}."""
    from judge.search.snippets import snippet, snippet_html
    ruling = base.rulings[hit.id]
    cards = [base.cards[c] for c in ruling.cards if c in base.cards]
    names = ", ".join(c.name for c in cards[:3]) + (f" and {len(cards) - 3} more" if len(cards) > 3 else "")
    group = base.groups.get(ruling.group) if ruling.group else None
    runs = snippet(ruling.text, set(stems))
    return {"id": ruling.id, "doc": "rulings", "label": f"Ruling on {names}" + (f" ({ruling.references[0]})"
                                                                               if ruling.references else ""),
            "text": ruling.text, "score": round(hit.score, 4), "snippet": snippet_html(runs),
            "snippet_runs": runs, "kind": "ruling", "section": ruling.group or ruling.owner,
            "section_title": group.name if group else names, "game": "vtes", "in_force": True, "ocr": False,
            "editions": [], "cards": [{"id": c.id, "name": c.name, "slug": c.slug} for c in cards],
            "references": list(ruling.references)}


def rulings_listed(result, searched, filtered: bool) -> bool:
    """Whether a search's results list the rulings its words match beside the rule paragraphs: rulings are
    searched (`in=`), nothing filters the paragraphs by document or kind (`filtered`), and the game searched
    is V:TES (the rulings' game) or both."""
    return "rulings" in searched and not filtered and result is not None and result.game in ("vtes", "all")


def search_data(result, answer, base, searched: list[str], limit: int, filtered: bool = False) -> dict:
    """`judge search --json` and /api/search: the rules' result (judge.search), its hits mixed by score with the
    rulings the question's words match (`kind: "ruling"`, `rulings_listed`), `cards` (the card answer,
    judge.cards.query.CardAnswer) and `in` (what was searched: rules, cards, rulings)."""
    data = result.to_json()
    rule_hits = data["hits"] if "rules" in searched else []
    if "rules" not in searched:
        data["total"] = 0
    ruling_hits = []
    stems: set[str] = set()
    if answer is not None and base is not None and rulings_listed(result, searched, filtered):
        stems = {t for u in (result.expansion.units if result.expansion else ()) for a in u.alternatives
                 if a.kind == "stems" for t in a.tokens}
        ruling_hits = answer.ruling_hits
        if ruling_hits:
            data["facets"].setdefault("kind", {})["ruling"] = len(answer.ruling_hits)
    from judge.cards.query import mixed_hits
    data["hits"] = mixed_hits(rule_hits, ruling_hits, limit, lambda h: ruling_hit_data(base, h, stems))
    data["cards"] = answer.to_json() if answer is not None else None
    data["in"] = list(searched)
    data["try"] = what_might_answer(data["query"], bool(data["hits"] or data.get("direct")), answer, searched)
    return data


ALL_IN = ("rules", "cards", "rulings")


def what_might_answer(query: str, found: bool, answer, searched) -> list[dict]:
    """For a search that found no answer, what might find one: [{say, q, in, cards}]: the words to
    search instead (`q`, None for the same) and where (`in`, None for the same places), or the card
    list filtered by `cards` (None: not the card list). Empty when something answers. No answer
    is rulings asked of a name no card has (the closest cards offered), or nothing found at all
    (the places left out of the search, the card list)."""
    out: list[dict] = []
    if answer is not None and answer.asked_name and not answer.matches:
        out += [{"say": f"the rulings of {card.name}", "q": f"{card.name} rulings", "in": None, "cards": None}
                for card in answer.closest]
        if not answer.closest:
            out.append({"say": f"the card list, searched for {answer.asked_name!r}", "q": None, "in": None,
                        "cards": answer.asked_name})
    elif found or (answer is not None and (answer.matches or answer.ruling_hits)):
        return []
    missing = [s for s in ALL_IN if s not in searched]
    if missing:
        out.append({"say": f"search the {' and the '.join(missing)} too", "q": None, "in": list(ALL_IN), "cards": None})
    if "cards" in searched and not any(o["cards"] is not None for o in out):
        out.append({"say": "the card list, for a card whose name you are unsure of", "q": None, "in": None,
                    "cards": ""})
    return out
