"""The second phase, once every document is parsed: references resolved, glossary terms linked.

Each pending reference ends `resolved` (with its target id and, when the match
was not literal, a reason saying how), `external` (a document not in the
corpus) or `broken` (with the reason). Nothing is dropped silently.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from rapidfuzz import fuzz, process

from judge.ingest import refs as syntax
from judge.ingest.builder import slugify
from judge.memo import Memo
from judge.model import BROKEN, EXTERNAL, PENDING, RESOLVED, Corpus, Document, Reference


FUZZY_ANCHOR_MIN = 85  # a link anchor this similar to a heading slug is taken as meaning it


@dataclass
class DocIndex:
    """Lookup tables of one document, built once for resolution."""

    doc: Document
    by_number: dict[str, str] = field(default_factory=dict)  # section or item number -> id
    anchors: dict[str, list[str]] = field(default_factory=dict)  # lowercase anchor -> ids, in book order
    # Anchors vekn.net gives that the book's headings and labels do not carry literally: anchor -> [(id, why)]
    derived: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    page_sections: dict[str, str] = field(default_factory=dict)  # vekn.net page slug -> section id
    # section id -> (its title's words, its text's words), and how many sections have each word:
    # what a page reference is matched on (`_section_words`), worked out at the first one
    section_words: Optional[tuple[dict[str, tuple[set, set]], dict[str, int]]] = None

    @classmethod
    def build(cls, doc: Document) -> "DocIndex":
        index = cls(doc)
        for sec in doc.sections:
            if sec.number:
                index.by_number.setdefault(sec.number, sec.id)
            for anchor in {sec.key.rsplit(".", 1)[-1], slugify(sec.title), *sec.anchors}:
                index.anchors.setdefault(anchor.lower(), []).append(sec.id)
            if sec.level == 1:  # a website page is a chapter
                for anchor in sec.anchors:
                    index.page_sections.setdefault(anchor.lower(), sec.id)
            bare = _PARENTHESIS.sub("", sec.title)  # "Leave Torpor (See Torpor)": #leave-torpor
            if bare != sec.title and bare.strip():
                index.derived.setdefault(slugify(bare), []).append(
                    (sec.id, f"the heading '{sec.title}' without its parenthesis"))
        for para in doc.paragraphs:
            # Sections win over list items that share a number.
            if para.number:
                index.by_number.setdefault(para.number, para.id)
            for anchor in para.anchors:
                index.anchors.setdefault(anchor.lower(), []).append(para.id)
            opening = _OPENING_BOLD.match(para.markdown or "")  # "**1. Choose the terms**, if any": #choose-the-terms
            if opening:
                phrase = opening.group("phrase").strip()
                index.derived.setdefault(slugify(ENUMERATOR.sub("", phrase)), []).append(
                    (para.id, f"the paragraph opening with '{phrase}'"))
        for anchor in list(index.derived):
            if anchor in index.anchors:  # a literal anchor is never overridden
                del index.derived[anchor]
        return index


def _indexes(corpus: Corpus) -> dict[str, DocIndex]:
    return {doc_id: DocIndex.build(doc) for doc_id, doc in corpus.documents.items()}


def resolve(corpus: Corpus) -> None:
    """Resolve every pending reference of the corpus."""
    indexes = _indexes(corpus)
    for ref in corpus.references():
        if ref.status == PENDING:
            _resolve(corpus, indexes, ref)


# corpus digest -> its documents' indexes, for references resolved one by one against a finished corpus.
_FINISHED_INDEXES = Memo("xref.finished_indexes", 4)


def resolve_one(corpus: Corpus, ref: Reference) -> Reference:
    """Resolve a reference that is not part of the corpus (a pasted URL, a draft's link). The corpus's indexes are
    made once per corpus digest (the content it names; a corpus without one gets them made each time): the card
    base resolves its rulings' 140 links this way, and making them each time was a tenth of its build."""
    if ref.status == PENDING:
        indexes = (_FINISHED_INDEXES.recall_or_compute(corpus.digest, lambda: _indexes(corpus)) if corpus.digest
                   else _indexes(corpus))
        _resolve(corpus, indexes, ref)
    return ref


def _resolve(corpus: Corpus, indexes: dict[str, DocIndex], ref: Reference) -> None:
    handler = _HANDLERS.get(ref.kind)
    if handler is None:
        _broken(ref, f"no resolver for references of kind {ref.kind!r}")
    else:
        handler(corpus, indexes, ref.source.split(":", 1)[0], ref)


def _resolved(ref: Reference, target: str, reason: Optional[str] = None) -> None:
    ref.status, ref.target, ref.reason = RESOLVED, target, reason


def _broken(ref: Reference, reason: str) -> None:
    ref.status, ref.target, ref.reason = BROKEN, None, reason


# -- vekn.net links ----------------------------------------------------------
def _resolve_vekn_url(corpus, indexes, doc_id, ref: Reference) -> None:
    index = indexes.get(ref.target_doc or doc_id)
    if index is None:
        _broken(ref, f"document {ref.target_doc!r} is not in the corpus")
        return
    page, _, anchor = ref.spec.partition("#")
    scope: Optional[set[str]] = None
    page_section = None
    if page:
        page_section = index.page_sections.get(page)
        if page_section is None:
            _broken(ref, f"no chapter of {index.doc.meta.short} is published at the page '{page}'")
            return
        scope = corpus.ids_inside(page_section)
    if not anchor:
        if page_section:
            _resolved(ref, page_section)
        else:
            _resolved(ref, index.doc.sections[0].id, "a link to the whole rulebook: its first chapter")
        return
    wanted = anchor.lower()
    named = index.anchors.get(wanted, [])
    # The same anchor may name things on several pages: the link's page decides.
    in_page = [i for i in named if scope is None or i in scope]
    target = (in_page or named or [None])[0]
    notes = []
    if anchor != wanted:
        notes.append(f"anchor '#{anchor}' matched case-insensitively")
    if target and not in_page:
        where = corpus.section_path(target)[0].title
        notes.append(f"'#{anchor}' is not in the page '{page}' but in '{where}'")
    if target is None:
        target, why = _derived_anchor(corpus, index, wanted, scope)
        if target is not None:
            notes.append(f"no anchor '#{anchor}'; {why}, taken as meant")
    if target is None:
        candidates = {a: ids[0] for a, ids in index.anchors.items()
                      if scope is None or ids[0] in scope} or {a: ids[0] for a, ids in index.anchors.items()}
        best = process.extractOne(wanted, list(candidates), scorer=fuzz.ratio)
        if best and best[1] >= FUZZY_ANCHOR_MIN:
            target = candidates[best[0]]
            notes.append(f"no anchor '#{anchor}'; the closest is '#{best[0]}' "
                         f"({best[1]:.0f}% similar), taken as meant")
        else:
            near = f" (closest: '#{best[0]}', {best[1]:.0f}% similar)" if best else ""
            _broken(ref, f"no heading, labelled paragraph or glossary term is anchored "
                         f"'#{anchor}'{near}")
            return
    _resolved(ref, target, "; ".join(notes) or None)


_PARENTHESIS = re.compile(r"\s*\([^()]*\)\s*$")
_OPENING_BOLD = re.compile(r"^(?:[-*>]\s+)*\*\*(?P<phrase>[^*]{2,80}?)[:.]?\*\*")
# A step or list number opening a heading or a bold phrase: "1. ", "4.a ", "b. "
ENUMERATOR = re.compile(r"^\s*(?:\d+(?:\.\d+)*[a-z]?\.?|[a-z]\.|[A-Z]\.|\d+\.[a-z])\s+")
_ARTICLE = re.compile(r"^(?:the|a|an)-")


def _derived_anchor(corpus: Corpus, index: DocIndex, wanted: str, scope: Optional[set[str]]
                    ) -> tuple[Optional[str], str]:
    """The one rule an anchor the book does not carry literally names, found by the ways vekn.net anchors what
    the book's Markdown does not (each general, with its reason); (None, "") when none names one rule:

    * a heading without its parenthesis ("Leave Torpor (See Torpor)": #leave-torpor), a paragraph by its opening
      bold phrase, its step number dropped ("**1. Choose the terms**": #choose-the-terms);
    * an anchor beginning with an article, "the", "a" or "an", that is an anchor without it (#the-referendum);
    * the first words of exactly one anchor (#world-of-darkness: "World of Darkness Glossary");
    * a heading's anchor followed by words of the heading holding it (#detailed-course-action: "Detailed Course",
      under "Summary of the Course of an Action")."""
    def one(ids: list[str]) -> Optional[str]:
        ids = list(dict.fromkeys(ids))
        inside = [i for i in ids if scope is None or i in scope]
        return (inside or ids)[0] if len(inside or ids) == 1 else None

    found = index.derived.get(wanted, [])
    target = one([i for i, _ in found])
    if target is not None:
        return target, f"{found[0][1]} is anchored so on vekn.net"
    bare = _ARTICLE.sub("", wanted)
    if bare != wanted and (bare in index.anchors or bare in index.derived):
        target = one(index.anchors.get(bare) or [i for i, _ in index.derived[bare]])
        if target is not None:
            return target, f"'#{bare}' without the article"
    starting = {a: ids for a, ids in {**index.anchors, **{k: [i for i, _ in v] for k, v in index.derived.items()}}
                .items() if a.startswith(wanted + "-")}
    target = one([ids[0] for ids in starting.values()])
    if target is not None:
        return target, f"the only anchor beginning with its words is '#{sorted(starting)[0]}'"
    words = wanted.split("-")
    fitting = []
    for sec in index.doc.sections:
        own = slugify(sec.title).split("-")
        parent = corpus.sections.get(sec.parent) if sec.parent else None
        if parent is None or len(words) <= len(own) or words[:len(own)] != own:
            continue
        if set(words[len(own):]) <= set(slugify(parent.title).split("-")):
            fitting.append(sec.id)
    target = one(fitting)
    if target is not None:
        sec = corpus.sections[target]
        return target, (f"the heading '{sec.title}' under '{corpus.sections[sec.parent].title}', anchored by both "
                        f"headings' words")
    return None, ""


# -- section numbers: "sec. 6.4", the outline's [6.1.1] ------------------------
def _numbering_family(corpus: Corpus, doc_id: str) -> list[str]:
    """The document first, then documents that share its section numbering."""
    doc = corpus.documents.get(doc_id)
    family = [doc_id] if doc else []
    if doc and doc.meta.cites and doc.meta.cites in corpus.documents:
        family.append(doc.meta.cites)
    family += [d for d, other in corpus.documents.items()
               if other.meta.cites == doc_id and d not in family
               and other.meta.format in ("numbered-text", "ocr-text")]
    return family


def _resolve_number(corpus, indexes, doc_id, ref: Reference) -> None:
    home = ref.target_doc if ref.kind == syntax.RULEBOOK_NUMBER else doc_id
    if home not in corpus.documents:
        _broken(ref, f"cites document {home!r}, which is not in the corpus")
        return
    title_hint = ref.reason[len("title:"):] if ref.reason and ref.reason.startswith("title:") else None
    family = _numbering_family(corpus, home)
    for candidate in family:
        target = indexes[candidate].by_number.get(ref.spec)
        if target is None:
            continue
        notes = []
        if candidate != home:
            notes.append(f"{corpus.documents[home].meta.short} has no §{ref.spec}; "
                         f"found in {corpus.documents[candidate].meta.short}, which shares its numbering")
        title = _title_of(corpus.get(target))
        if title_hint and title and not _same_title(title_hint, title):
            named = _named(corpus, candidate, title_hint, ref.spec)
            if named:
                target = named
                notes.append(f"{MISMATCH}: the text names '{title_hint}', which is "
                             f"{corpus.get(named).label}; §{ref.spec} is '{title}'")
            elif not corpus.documents[doc_id].meta.ocr:  # in OCR text the title is often just garbled
                notes.append(f"{MISMATCH}: the text calls it '{title_hint}' but §{ref.spec} is '{title}'")
        _resolved(ref, target, "; ".join(notes) or None)
        return
    short = corpus.documents[home].meta.short
    named = next((n for d in family if (n := _named(corpus, d, title_hint, ref.spec))), None) if title_hint else None
    if named:
        _resolved(ref, named, f"{MISMATCH}: {short} has no §{ref.spec}; the text names '{title_hint}', "
                              f"which is {corpus.get(named).label}")
        return
    parent = ref.spec.rsplit(".", 1)[0] if "." in ref.spec else None
    hint = ""
    if parent and parent in indexes[home].by_number:
        hint = f"; §{parent} exists but has no part {ref.spec.rsplit('.', 1)[1]}"
    _broken(ref, f"{short} has no section or numbered item {ref.spec}{hint}")


# A reference whose number and the title written beside it disagree: resolved by
# the title, and reported by lint so an editor fixes the number.
MISMATCH = "number and title disagree"


def _title_of(item) -> str:
    return (getattr(item, "title", None) or "") if item is not None else ""


def _same_title(a: str, b: str) -> bool:
    return fuzz.partial_ratio(a.lower(), b.lower()) >= 70


def _named(corpus: Corpus, doc_id: str, title: str, near: str) -> Optional[str]:
    """The section or numbered item of a document titled `title` (or whose text opens
    with it, where OCR fused the title into the text), nearest in number to `near`."""
    doc = corpus.documents[doc_id]
    wanted = title.lower()
    found = [s for s in doc.sections if fuzz.ratio(wanted, s.title.lower()) >= 90]
    found += [p for p in doc.paragraphs if p.number and (
        fuzz.ratio(wanted, (p.title or "").lower()) >= 90 or p.text.lower().startswith(wanted))]
    if not found:
        return None

    def shared_prefix(item) -> int:
        parts, other = near.split("."), (item.number or "").split(".")
        return next((i for i, (x, y) in enumerate(zip(parts, other)) if x != y), min(len(parts), len(other)))

    return max(found, key=shared_prefix).id


# -- the outline's own (IV.D.2) --------------------------------------------------
def _resolve_outline(corpus, indexes, doc_id, ref: Reference) -> None:
    numbers = indexes[doc_id].by_number
    target = numbers.get(ref.spec)
    if target:
        _resolved(ref, target)
        return
    parent = ref.spec.rsplit(".", 1)[0] if "." in ref.spec else None
    if parent in numbers:
        _broken(ref, f"the outline has no step {ref.spec}: step {parent} has no sub-step "
                     f"{ref.spec.rsplit('.', 1)[1]} (the reference seems to follow an older numbering)")
    else:
        _broken(ref, f"the outline has no step {ref.spec}")


# -- Rivals' page references -----------------------------------------------------
def _resolve_page(corpus, indexes, doc_id, ref: Reference) -> None:
    doc = corpus.documents[doc_id]
    pages = {sec.id: sec.page for sec in doc.sections if sec.page is not None}
    if not pages:
        _broken(ref, f"page {ref.spec}: the manifest gives no page map for {doc.meta.short}")
        return
    on_page = [sid for sid, page in pages.items() if str(page) == ref.spec]
    if not on_page:
        _broken(ref, f"page {ref.spec}: no section is known to be on that page")
        return
    source = corpus.paragraphs[ref.source]
    titled = [sid for sid in on_page if source.term and
              fuzz.token_set_ratio(source.term.lower(), corpus.sections[sid].title.lower()) >= 85]
    if titled:  # a glossary entry pointing at the page of its own heading
        best, why = titled[0], f"titled like the term '{source.term}'"
    else:
        context = _page_context(source, ref)
        best = _best_section_for(_section_words(corpus, indexes[doc_id]), on_page,
                                 {w: 1.0 for w in _content_words(context)})
        why = f"which shares the most telling words with '{context[:60]}…'"
    titles = ", ".join(f"'{corpus.sections[s].title}'" for s in on_page)
    _resolved(ref, best, f"page {ref.spec} holds {titles}; chose '{corpus.sections[best].title}', {why}")


def _section_words(corpus: Corpus, index: DocIndex) -> tuple[dict[str, tuple[set, set]], dict[str, int]]:
    """Each section of the index's document with its title's and its text's words, and
    in how many sections each word is: worked out once a document (a book has many
    page references)."""
    if index.section_words is None:
        words_of = {s.id: (_content_words(s.title),
                           _content_words(" ".join(p.text for p in corpus.paragraphs_of(s.id, deep=False))))
                    for s in index.doc.sections}
        frequency: dict[str, int] = {}
        for title, text in words_of.values():
            for w in title | text:
                frequency[w] = frequency.get(w, 0) + 1
        index.section_words = (words_of, frequency)
    return index.section_words


def _best_section_for(section_words: tuple[dict[str, tuple[set, set]], dict[str, int]], candidates: list[str],
                      wanted: dict[str, float]) -> str:
    """The candidate section whose title and text share the most telling words with
    `wanted` (word -> weight): a word counts by its rarity across the document's
    sections (so "rules" or "card" barely count), three times over in the title."""
    words_of, frequency = section_words

    def score(sid: str) -> tuple[float, int]:
        title, text = words_of[sid]
        weight = sum(wanted[w] * (3 if w in title else 1) / frequency[w]
                     for w in wanted if w in title or w in text)
        return (weight, -candidates.index(sid))

    return max(candidates, key=score)


_STOPWORDS = frozenset("""a an and are as at be by can for from has have if in into is it its may more not of on
or page pages see that the their them then they this to was when which will with you your""".split())


def _content_words(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}
    return {_singular(w) for w in words} - _STOPWORDS


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        return word[:-1]
    return word


def _page_context(source, ref: Reference) -> str:
    """What a page reference is about: a glossary entry's term and definition, or
    else the sentence the reference stands in."""
    if source.term:
        return source.text
    start = max(source.text.rfind(".", 0, ref.span[0]) + 1, 0)
    end = source.text.find(".", ref.span[1])
    return source.text[start: end if end >= 0 else len(source.text)].strip()


_HANDLERS = {
    syntax.VEKN_URL: _resolve_vekn_url,
    syntax.SEC: _resolve_number,
    syntax.RULEBOOK_NUMBER: _resolve_number,
    syntax.OUTLINE: _resolve_outline,
    syntax.PAGE: _resolve_page,
}


def summary(corpus: Corpus) -> dict[str, dict[str, int]]:
    """Counts of references by kind and status."""
    out: dict[str, dict[str, int]] = {}
    for ref in corpus.references():
        out.setdefault(ref.kind, {RESOLVED: 0, EXTERNAL: 0, BROKEN: 0, PENDING: 0})
        out[ref.kind][ref.status] += 1
    return out


# -- Glossary terms --------------------------------------------------------------------------------
# A paragraph links terms of its own document's glossary first, then those of the other documents
# of the same game, newest edition first: a Rivals term ("Prestige") never links from a V:TES rule,
# and the older book's "tap" links to the older book's definition.

MIN_TERM_LENGTH = 3  # shorter headwords would link inside ordinary prose


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


def glossary_for(corpus: Corpus, doc_id: str,
                 names: Optional[dict[str, list[tuple[str, str]]]] = None) -> dict[str, str]:
    """term (lowercase) -> defining paragraph id, as seen from one document. `names`
    keeps each document's glossary as (lowercase name, paragraph id) between calls
    (`link_terms` asks for every document's)."""
    doc = corpus.documents[doc_id]
    names = {} if names is None else names
    merged: dict[str, str] = {}
    others = sorted((d for d in corpus.documents.values()
                     if d.meta.game == doc.meta.game and d.id != doc_id),
                    key=lambda d: -d.meta.edition_order)
    for source in [doc, *others]:
        named = names.get(source.id)
        if named is None:
            named = names[source.id] = [(name.lower(), pid) for term, pid in source.glossary.items()
                                        for name in term_names(term)]
        for name, pid in named:
            merged.setdefault(name, pid)
    return merged


def glossary_views(corpus: Corpus) -> dict[str, dict[str, str]]:
    """Each document's `glossary_for`, in the corpus's order."""
    names: dict[str, list[tuple[str, str]]] = {}
    return {doc_id: glossary_for(corpus, doc_id, names) for doc_id in corpus.documents}


def book_term_links(doc: Document, glossary: dict[str, str],
                    patterns: Optional[dict] = None) -> dict[str, list[tuple[str, int, int, str]]]:
    """The glossary terms of each paragraph of `doc` that has some, in the book's order,
    `glossary` being its view (`glossary_for`); `patterns` keeps the compiled terms
    between calls (the editions of a game share their terms)."""
    patterns = {} if patterns is None else patterns
    terms = tuple(sorted(glossary))
    pattern = patterns[terms] if terms in patterns else patterns.setdefault(terms, _term_pattern(list(terms)))
    found: dict[str, list[tuple[str, int, int, str]]] = {}
    if pattern is None:
        return found
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
            found[para.id] = links
    return found


def link_terms(corpus: Corpus) -> None:
    """Record in `corpus.term_links` each paragraph's glossary terms (each term once, never a
    definition linking itself): (text as written, start, end, defining paragraph id)."""
    corpus.term_links = {}
    patterns: dict = {}
    for doc_id, glossary in glossary_views(corpus).items():
        corpus.term_links.update(book_term_links(corpus.documents[doc_id], glossary, patterns))
