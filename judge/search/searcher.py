"""The searcher: a query in, ranked hits out (`Search.search`), over the build
of the index it holds in memory; one per corpus and process (`get_searcher`)."""
from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple, Optional, Union

import numpy as np
from whoosh import query as wq

import judge.search.index as search_index
import judge.search.passages as passages
import judge.search.meaning as meaning
import judge.search.questions as rule_questions
import judge.search.state as search_state
from judge import paths
from judge.lookup import Match, find
from judge.memo import Memo
from judge.model import KINDS
from judge.served import whole
from judge.search.counterparts import ServedCounterparts
from judge.search.expansion import Expansion, Vocabulary, build_query, english_word, expand, max_distance
from judge.search.postings import Evaluation
from judge.search.query import ParsedQuery, parse_query
from judge.search.synonyms import current_synonyms
from judge.search.snippets import Snippet, snippet, snippet_html

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 10
MAX_LIMIT = 100
# Every match is weighed (coverage, priors), so a paragraph holding every word of the
# query is never cut before it is weighed; the best this many are then grouped by edition
# (those past the limit only fold into the hits shown).
CANDIDATES = 60
# Coordination: the score is multiplied by (floor + (1 - floor) x the share of
# the query's units a paragraph matches), so a paragraph answering every part of
# a question outranks one repeating a single word. 0 is Lucene's classic coord.
COVERAGE_FLOOR = 0.0
# What a paragraph is weighs on its rank: a rule answers better than an example
# of it, an editors' draft or a flavour text.
# An editors' draft restates a rule the book states officially: it never outranks it.
KIND_PRIOR = {"rule": 1.0, "glossary": 1.0, "advanced": 1.0, "reminder": 0.95, "outline-step": 0.9,
              "tournament": 0.9, "elder-format": 0.9, "example": 0.65, "table": 0.8, "draft": 0.5,
              "flavor": 0.5}
# A question ("can a vampire in torpor vote") is answered by a rule, not by the
# glossary entry of one of its words; "what is a title" (a definition asked) is.
GLOSSARY_IN_QUESTIONS = 0.7
GLOSSARY_IN_DEFINITIONS = 1.2
LORE_PRIOR = 0.3  # the World of Darkness glossaries: background, not rules
# A paragraph of an overview, a quick reference or a player aid restates in brief
# what another paragraph states in full: it ranks below it.
SUMMARY_PRIOR = 0.7
_SUMMARY_TITLE = re.compile(r"\b(?:overview|quick reference|player aid)\b", re.IGNORECASE)
# Each edition older than the newest of its game ranks this much lower, when no
# paragraph of the newest states the same rule (else that paragraph stands for it).
EDITION_STEP = 0.3
# The concordance's confidence from which a paragraph of the book in force stands
# for an older edition's (shown in its place, the older one listed under it).
FACE_CONFIDENCE = 0.75
# A query asking for a definition: "what is X", "what's X", "define X", "meaning of X".
_DEFINITION = re.compile(r"^\s*(?:what\s+(?:is|are)\b|what'?s\b|whats\b|define\b|definition\b|meaning\s+of\b)",
                         re.IGNORECASE)
DEFINITION_MAX_UNITS = 3  # "what is a title": a definition asked has few words besides
# What a question asks for, besides its words. "How much / how many" is answered by a
# paragraph stating an amount ("Default Cost: 2 blood", "no limit", "once each game");
# "can I / can a ..." by one saying what may or may not be done; "when" by one saying
# at what moment. Such a paragraph counts this much more than one that only mentions.
_ASKS_AMOUNT = re.compile(r"\b(?:how\s+(?:much|many|often|long)|cost|costs|limit|maximum|minimum)\b", re.IGNORECASE)
_STATES_AMOUNT = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|once|twice|"
                            r"no limit|any number|half|all|double|maximum|minimum|equal to)\b", re.IGNORECASE)
_ASKS_PERMISSION = re.compile(r"^\s*(?:can|could|may|must|is it|are|is|does|do)\b", re.IGNORECASE)
_STATES_PERMISSION = re.compile(r"\b(?:can|cannot|can't|may|may not|must|only|not allowed|unless|except)\b",
                                re.IGNORECASE)
_ASKS_MOMENT = re.compile(r"^\s*when\b|\bwhat (?:time|step|phase)\b", re.IGNORECASE)
_STATES_MOMENT = re.compile(r"\b(?:before|after|during|until|at the (?:start|end|beginning)|when|whenever|"
                            r"immediately|then|step|phase)\b", re.IGNORECASE)
_ASKS = {"amount": _ASKS_AMOUNT, "permission": _ASKS_PERMISSION, "moment": _ASKS_MOMENT}
_STATES = {"amount": _STATES_AMOUNT, "permission": _STATES_PERMISSION, "moment": _STATES_MOMENT}
INTENT_WEIGHT = {"amount": 1.4, "permission": 1.2, "moment": 1.2}
# How soon a rebuild made by another process is followed: the index's pointer file is
# looked at (one stat) at most this often, not at every search.
POINTER_CHECK_SECONDS = 0.25
# After a failure to open or rebuild the build the pointer names (a full disk), searches
# go on with the build in memory and the pointer is looked at again this much later.
FOLLOW_RETRY_SECONDS = 60
ALL_GAMES = "all"  # game=all: both games
DEFAULT_GAME = "vtes"  # a query naming no game, and using no word only Rivals has, is about V:TES
GAME_NAMES = {"vtes": "V:TES", "rivals": "Rivals"}
SEARCHERS_KEPT = 4  # corpora whose searcher is kept (each holds its build's tables, ~30 MB)
UNITS_KEPT = 20_000  # query units whose paragraphs are kept (a unit is one word of a query, or a synonym phrase)


class Counterpart(NamedTuple):
    """The same rule in another edition of its book, shown beside a hit (from the
    concordance, at build time: judge.search.counterparts)."""

    id: str
    doc: str
    label: str
    confidence: float  # the concordance's, 0-1
    matched: bool  # this paragraph matched the query too (and was folded into the hit)
    edition: str = ""  # its document's edition ("older tap/untap edition")


@dataclass
class Hit:
    id: str
    doc: str
    label: str
    text: str
    score: float
    snippet: Snippet  # runs of the text around the matched words: (text, marked)
    kind: str
    section: str
    section_title: str
    counterparts: tuple[Counterpart, ...] = ()  # the same rule in the other editions, newest first
    game: str = ""
    in_force: bool = True  # from the book in force of its game (not an older edition)
    ocr: bool = False  # from a text read by OCR (may hold damaged words)

    def to_json(self) -> dict:
        return {"id": self.id, "doc": self.doc, "label": self.label, "text": self.text,
                "score": round(self.score, 4), "snippet": snippet_html(self.snippet),
                "snippet_runs": self.snippet, "kind": self.kind,  # [[text, marked], ...] in JSON
                "section": self.section, "section_title": self.section_title,
                "game": self.game, "in_force": self.in_force, "ocr": self.ocr,
                "editions": [dict(zip(Counterpart._fields, c)) for c in self.counterparts]}  # (their JSON name)


@dataclass
class SearchResult:
    query: str
    hits: list[Hit] = field(default_factory=list)
    total: int = 0  # paragraphs matching (before counterparts are folded and the limit applied)
    facets: dict[str, dict[str, int]] = field(default_factory=lambda: {"doc": {}, "kind": {}})
    did_you_mean: Optional[str] = None
    direct: Optional[Match] = None  # the query was a number, ID or label naming this
    message: Optional[str] = None  # why the query could not be used, or found nothing
    notes: list[str] = field(default_factory=list)  # what was ignored or cut from the query
    game: str = "all"  # the game searched: a game id, or "all"
    game_from: str = "default"  # "filter" (asked), "query" (named or used its words) or "default" (V:TES)
    other_game: Optional[dict] = None  # {"game", "total"}: what the other game has, when it is not searched
    # What the query asked for, as read (None for a section number, an ID or nothing to search): what else is
    # searched with the same words (the rulings, judge.cards.query) reads it rather than reading the query again.
    expansion: Optional[Expansion] = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        direct = None
        if self.direct:
            direct = {"id": self.direct.id, "how": self.direct.how, "note": self.direct.note,
                      "also": list(self.direct.also)}
        return {"query": self.query, "hits": [h.to_json() for h in self.hits], "total": self.total,
                "facets": self.facets, "did_you_mean": self.did_you_mean, "direct": direct,
                "message": self.message, "notes": self.notes, "game": self.game, "game_from": self.game_from,
                "other_game": self.other_game}


@dataclass
class _Installed:
    """A build and what searching it needs, by Whoosh document number."""

    built: search_index.BuiltIndex
    vocabulary: Vocabulary
    paragraphs: "_ParagraphsByNumber"  # docnum -> Paragraph
    prior: np.ndarray  # docnum -> what the paragraph is worth in a question (kind, edition, lore)
    definition_prior: np.ndarray  # the same, when a definition is asked (glossary entries first, lore too)
    term_prior: np.ndarray  # a term alone ("diablerie"): glossary entries first, lore still last
    # intent ("amount", "permission", "moment") -> docnum -> its INTENT_WEIGHT if the paragraph
    # states such a thing, else 1
    states: dict[str, np.ndarray]
    game_codes: np.ndarray  # docnum -> its game's index in `games`
    games: list  # the games, in code order
    # paragraph id -> the paragraph of the book in force standing for it (its counterpart there)
    faces: dict
    facet_codes: dict[str, tuple[list[str], np.ndarray]]  # "doc"/"kind" -> (values, docnum -> value index)
    # paragraph id -> its counterparts, none matched: what `Hit.counterparts` starts from
    counterparts: ServedCounterparts
    # What a unit asks for (`Unit.key`) -> the document numbers having it: the build never changes.
    unit_paragraphs: Memo = field(default_factory=lambda: Memo("search.unit_paragraphs", UNITS_KEPT))
    # `Unit.key()` -> what its paragraphs' scores count beyond its best alternative (`passages.overcount`).
    unit_overcounts: Memo = field(default_factory=lambda: Memo("search.unit_overcounts", UNITS_KEPT))
    face_numbers: Optional[np.ndarray] = None  # docnum -> its face's docnum (-1: none), worked out at the first search
    section_table: Optional[passages.SectionTable] = None  # every paragraph's section (the saved state's)
    sections: Optional[passages.Sections] = None  # made from it at the first search


class _ParagraphsByNumber:
    """docnum -> Paragraph, looked up in the corpus when asked (a served corpus reads
    each paragraph when it is first asked for)."""

    def __init__(self, corpus, ids: list):
        self._corpus, self._ids = corpus, ids

    def __len__(self) -> int:
        return len(self._ids)

    def __getitem__(self, docnum: int):
        return self._corpus.paragraphs[self._ids[docnum]]


class Search:
    """Searches one corpus. Cheap to call from many threads; see `get_searcher`."""

    def __init__(self, corpus, root: Optional[Path] = None):
        self.corpus = corpus
        self.root = Path(root or paths.index_dir())
        self.key = search_index.index_key(corpus)
        self._lock = threading.Lock()
        self._pointer_stat: Optional[tuple] = None
        self._pointer_checked = float("-inf")  # time.monotonic() of the last look
        self._pointer_path = str(self.root / search_index.POINTER)
        self._newest: dict[str, int] = {}  # game -> edition_order of its newest document
        self._games = {doc.id: doc.meta.game for doc in corpus.documents.values()}  # document -> its game
        # Names in a query that scope it: "torpor in rivals", "vekn bleed".
        self._scopes: dict[str, tuple[str, str]] = {}
        for doc in corpus.documents.values():
            self._newest[doc.meta.game] = max(self._newest.get(doc.meta.game, 0), doc.meta.edition_order)
            self._scopes[doc.meta.game.lower()] = ("game", doc.meta.game)
        for doc in corpus.documents.values():
            for name in (doc.id, doc.meta.short):
                self._scopes.setdefault(name.lower(), ("doc", doc.id))
        # What each filter accepts -> the value searched; a document's label prefix works too ("doc:RB").
        self._filter_values = {"doc": {d: d for d in corpus.documents},
                               "game": {d.meta.game: d.meta.game for d in corpus.documents.values()},
                               "kind": {k: k for k in KINDS}}
        self._filter_values["doc"].update({d.meta.short.lower(): d.id for d in corpus.documents.values()})
        self._current: Optional[_Installed] = None
        self._follower: Optional[threading.Thread] = None  # opening (or rebuilding) a new build
        self._install(search_index.open_or_rebuild(corpus, self._usable_name(), self.root, self.key))

    @property
    def built(self) -> Optional[search_index.BuiltIndex]:
        """The build searches use now (its name, its posting table)."""
        return self._current.built if self._current else None

    @property
    def vocabulary(self) -> Vocabulary:
        """The words of the build in use (typos and prefixes are matched against it)."""
        return self._current.vocabulary

    def expansion_of(self, query: str) -> Expansion:
        """What a search of `query` asks for (its units, their alternatives, its
        required phrases), before the search runs it: `build_query` makes it the
        Whoosh query. (Filters and section numbers are the search's own business.)"""
        return expand(parse_query(query), self._current.vocabulary, current_synonyms(), self._scopes)

    # -- the index ----------------------------------------------------------------
    def _usable_name(self) -> Optional[str]:
        """A build of this corpus on disk: the current one, else the newest other
        one (pointed at again when the pointer is unreadable), else None."""
        current = search_index.current_name(self.root)
        if current and current.startswith(self.key + "-"):
            return current
        own = search_index.builds_of(self.key, self.root)
        if own and current is None:
            search_index.point_at(self.root, own[-1])  # the pointer was missing or damaged
        return own[-1] if own else None

    def prepare(self, query: str) -> None:
        """Work out and keep what a search of `query` needs that searches of the same
        words need again (its units' near spellings, query leaves, postings and
        paragraphs; the sections' titles a question may name), without ranking anything:
        what the warm-up does for every word of the books (judge.web.warmup), so that a
        server's first queries find it kept."""
        current = self._current
        self._sections(current).stem_titles()
        expansion = expand(parse_query(query), current.vocabulary, current_synonyms(), self._scopes)
        if expansion.units:
            built_query, coverage = build_query(expansion)
            evaluation = Evaluation(current.built.postings)
            evaluation.ranked(built_query)
            self._units_covered(current, evaluation, expansion, coverage)
            passages.overcount(evaluation, expansion, coverage, current.built.postings.doc_count,
                               current.unit_overcounts)

    def rebuild(self) -> str:
        """Build this corpus's index again and switch to it (searches keep running meanwhile)."""
        with search_index.rebuild_lock(self.root):
            name = search_index.build(whole(self.corpus), self.root, force=True)
        self._install(search_index.open_or_rebuild(self.corpus, name, self.root))
        return self.built.name

    def _install(self, built: search_index.BuiltIndex) -> None:
        """Make `built` the build new searches use. Its files were read and
        checked when it was opened; what is worked out per paragraph is read from
        the state saved beside it when this code saved one (`judge.search.state`)."""
        vocabulary = Vocabulary(built.postings, built.ocr_words)
        counterparts = ServedCounterparts(built.counterparts, self._counterpart, self._edition_order)
        state = search_state.load_or_compute(built.path, len(built.ids), lambda: self._state(built))
        ids = built.ids
        faces = {ids[n]: ids[face] for n, face in enumerate(state.faces.tolist()) if face >= 0}
        installed = _Installed(built=built, vocabulary=vocabulary, paragraphs=_ParagraphsByNumber(self.corpus, ids),
                               prior=state.prior, definition_prior=state.definition_prior,
                               term_prior=state.term_prior, states=state.states, game_codes=state.game_codes,
                               games=state.games, faces=faces, facet_codes=state.facet_codes,
                               counterparts=counterparts, section_table=state.sections)
        with self._lock:
            self._current = installed

    def _state(self, built: search_index.BuiltIndex) -> search_state.SearchState:
        """What `_install` needs per paragraph, worked out from the corpus (in memory: it
        reads all of it) and the build."""
        self.corpus = whole(self.corpus)  # (a served corpus: the same answers, from memory from now on)
        paragraphs = [self.corpus.paragraphs[pid] for pid in built.ids]
        facet_codes = {}
        for facet, value_of in (("doc", lambda para: para.doc), ("kind", lambda para: para.kind)):
            values = sorted({value_of(para) for para in paragraphs})
            codes = {v: n for n, v in enumerate(values)}
            facet_codes[facet] = (values, np.array([codes[value_of(para)] for para in paragraphs], dtype=np.intp))
        games = sorted(set(self._games.values()))
        game_codes = np.array([games.index(self._games[para.doc]) for para in paragraphs], dtype=np.intp)
        faces = self._faces(built.counterparts)
        faces.update(self._faces_by_meaning(built, paragraphs, faces, game_codes))
        # A paragraph's priors and intents are those of the paragraph shown for it (an older one is
        # shown as its current counterpart): worked out once per paragraph shown, as lore once per section.
        shown_weights: dict[str, tuple] = {}  # shown paragraph -> (prior, definition prior, intents' weights)
        section_lore: dict[Optional[str], bool] = {}

        def weights(para) -> tuple:
            shown = faces.get(para.id, para.id)
            found = shown_weights.get(shown)
            if found is None:
                text = self.corpus.paragraphs[shown].text
                found = shown_weights[shown] = (
                    self._prior(para, faces, definition=False), self._prior(para, faces, definition=True),
                    tuple(INTENT_WEIGHT[intent] if pattern.search(text) else 1.0 for intent, pattern in _STATES.items()))
            return found

        def lore(para) -> bool:
            found = section_lore.get(para.section)
            if found is None:
                found = section_lore[para.section] = self._lore(para)
            return found

        rows = [weights(para) for para in paragraphs]
        prior = np.array([row[0] for row in rows], dtype=np.float64)
        definition_prior = np.array([row[1] for row in rows], dtype=np.float64)
        term_prior = np.array([row[1] * (LORE_PRIOR if lore(para) else 1.0) for row, para in zip(rows, paragraphs)],
                              dtype=np.float64)
        states = {intent: np.array([row[2][n] for row in rows]) for n, intent in enumerate(_STATES)}
        number = {pid: n for n, pid in enumerate(built.ids)}
        face_numbers = np.array([number[faces[pid]] if pid in faces else -1 for pid in built.ids], dtype=np.int64)
        sections = passages.section_table(built.ids, self._section_title, self._in_force)
        return search_state.SearchState(prior=prior, definition_prior=definition_prior, term_prior=term_prior,
                                        states=states, game_codes=game_codes, games=games, faces=face_numbers,
                                        facet_codes=facet_codes, sections=sections)

    def _edition_order(self, pid: str) -> int:
        doc = self.corpus.document_of(pid)
        return doc.meta.edition_order if doc else 0

    def _in_force(self, doc_id: str) -> bool:
        doc = self.corpus.documents[doc_id]
        return doc.meta.edition_order == self._newest[doc.meta.game]

    def _faces(self, groups) -> dict[str, str]:
        """Each older edition's paragraph -> the paragraph of the book in force that stands for
        it: its surest direct counterpart there (not an editors' draft), if sure enough (every
        older edition is aligned with the edition in force); of equally sure ones, the first by
        ID, as `ServedCounterparts.direct` lists them (they are of one edition). Read from the
        groups' links, without making every paragraph's counterparts."""
        in_force: dict[str, bool] = {}

        def stands_in(pid: str) -> bool:
            doc = self.corpus.paragraphs[pid].doc
            found = in_force.get(doc)
            if found is None:
                found = in_force[doc] = self._in_force(doc)
            return found

        best: dict[str, tuple[float, str]] = {}  # older paragraph -> (-confidence, its face)
        for pid, other, confidence in _sure_links(groups):
            if stands_in(other) and not stands_in(pid) and self.corpus.paragraphs[other].kind != "draft":
                known = best.get(pid)
                if known is None or (-confidence, other) < known:
                    best[pid] = (-confidence, other)
        return {pid: face for pid, (_, face) in best.items()}

    def _faces_by_meaning(self, built: search_index.BuiltIndex, paragraphs: list, faces: dict,
                          game_codes: np.ndarray) -> dict[str, str]:
        """Older paragraphs the alignment gave no face -> the paragraph of the book in force
        stating the same rule, found by its words and its written questions (`judge.search.meaning`)."""
        in_force = {doc: self._in_force(doc) for doc in self.corpus.documents}
        outline = {doc for doc, d in self.corpus.documents.items() if d.meta.format == rule_questions.OUTLINE_FORMAT}
        older = np.array([n for n, para in enumerate(paragraphs) if not in_force[para.doc] and para.doc not in outline
                          and para.kind != "draft" and para.id not in faces], np.int64)
        current = np.array([n for n, para in enumerate(paragraphs)
                            if in_force[para.doc] and para.kind != "draft"], np.int64)
        found = {built.ids[o]: built.ids[p] for o, p in
                 meaning.faces_by_meaning(built.postings, older, current, game_codes).items()}
        # An older paragraph surely aligned with one that found its face so (the OCR book's with the
        # clean one's) stands for the same rule: the same face.
        for pid, other, _ in _sure_links(built.counterparts):
            if other in found and pid not in faces and pid not in found and not in_force[
                    self.corpus.paragraphs[pid].doc] and self.corpus.paragraphs[pid].kind != "draft":
                found[pid] = found[other]
        return found

    def _prior(self, para, faces: dict, definition: bool) -> float:
        """What a paragraph is worth before the query's words are counted: what it is
        (a rule, an example, a draft ...), lore or not, and, for an older edition's
        paragraph no paragraph of the book in force stands for, how old it is. One
        the book in force stands for is worth what that paragraph is: it is shown in
        its place."""
        shown = self.corpus.paragraphs[faces.get(para.id, para.id)]
        doc = self.corpus.documents[shown.doc]
        worth = KIND_PRIOR.get(shown.kind, 0.8)
        if shown.kind == "glossary":
            worth = GLOSSARY_IN_DEFINITIONS if definition else GLOSSARY_IN_QUESTIONS
        if self._lore(shown) and not definition:  # "what is a Methuselah": the background may define it
            worth *= LORE_PRIOR
        section = self.corpus.sections.get(shown.section)
        if section is not None and _SUMMARY_TITLE.search(section.title):
            worth *= SUMMARY_PRIOR
        return worth * (1 - EDITION_STEP * (self._newest[doc.meta.game] - doc.meta.edition_order))

    def _lore(self, para) -> bool:
        """A paragraph of the background (the World of Darkness glossaries), not of the rules."""
        return any("world of darkness" in s.title.lower() for s in self.corpus.section_path(para.id)
                   if hasattr(s, "title"))

    def _check_pointer(self) -> None:
        """Notice a rebuild of the same corpus (made by any process): one stat at most
        every POINTER_CHECK_SECONDS. Following it is left to a thread (`_follow`)."""
        now = time.monotonic()
        if now - self._pointer_checked < POINTER_CHECK_SECONDS:
            return
        self._pointer_checked = now
        try:
            st = os.stat(self._pointer_path)
            stat = (st.st_mtime_ns, st.st_ino, st.st_size)
        except OSError:
            return
        if stat == self._pointer_stat:
            return
        self._pointer_stat = stat
        name = search_index.current_name(self.root)
        if name and name.startswith(self.key + "-") and self.built and name != self.built.name:
            with self._lock:
                if self._follower is not None:
                    return  # already on it; it looks at the pointer again when done
                self._follower = threading.Thread(target=self._follow, name="judge-search-follow", daemon=True)
                self._follower.start()  # (under the lock: `settle` never meets it unstarted)

    def _follow(self) -> None:
        """Open the build the pointer names, or when it is damaged have it rebuilt
        (by this process, or by the one already rebuilding), and switch to it.
        Searches meanwhile go on with the build in memory."""
        try:
            built = search_index.open_or_rebuild(self.corpus, search_index.current_name(self.root), self.root)
            if built.name != self.built.name:
                self._install(built)
        except Exception:  # the disk, most likely; the build in memory keeps answering
            log.exception("the search index could not be opened or rebuilt; searches go on with the build "
                          "%s, and it is tried again in %d s", self.built.name, FOLLOW_RETRY_SECONDS)
            self._pointer_checked = time.monotonic() + FOLLOW_RETRY_SECONDS - POINTER_CHECK_SECONDS
        finally:
            with self._lock:
                self._pointer_stat = None  # a pointer changed meanwhile is looked at again
                self._follower = None

    def settle(self, timeout: Optional[float] = None) -> bool:
        """Wait until a build being opened or rebuilt in the background is in use;
        False if it is not within `timeout` seconds."""
        follower = self._follower
        if follower is not None:
            follower.join(timeout)
            return not follower.is_alive()
        return True

    # -- searching ----------------------------------------------------------------
    def search(self, query: str, doc: Union[str, Iterable[str], None] = None,
               game: Union[str, Iterable[str], None] = None, kind: Union[str, Iterable[str], None] = None,
               limit: int = DEFAULT_LIMIT) -> SearchResult:
        parsed = parse_query(query)
        result = SearchResult(query=query or "", notes=list(parsed.notes))
        limit = max(1, min(int(limit or DEFAULT_LIMIT), MAX_LIMIT))
        for name, value in (("doc", doc), ("game", game), ("kind", kind)):
            if value:
                values = [value] if isinstance(value, str) else list(value)
                parsed.filters.setdefault(name, []).extend(v.lower() for v in values if v)
        both = ALL_GAMES in parsed.filters.get("game", ())
        if both:  # "game=all": both games, as asked
            parsed.filters["game"] = [g for g in parsed.filters["game"] if g != ALL_GAMES]
            if not parsed.filters["game"]:
                del parsed.filters["game"]
        filters, problem = self._check_filters(parsed.filters)
        if problem:
            result.message = problem
            return result
        self._check_pointer()
        direct = self._direct(parsed, filters)
        if direct is not None:
            return self._direct_result(result, direct, limit)
        if parsed.empty:
            result.message = ('nothing to search for: type words, a "quoted phrase", or a section '
                              'number such as 6.4.6 or IV.D.2')
            return result
        current = self._current
        synonyms = current_synonyms()
        expansion = result.expansion = expand(parsed, current.vocabulary, synonyms, self._scopes)
        if expansion.empty:
            result.message = ("only common words in this query (such as 'the', 'how', 'what'); "
                              "add the words of the rule you are looking for")
            return result
        if both or filters.get("game") or filters.get("doc"):
            result.game_from = "filter"
            games = set(filters.get("game") or ()) | {self._games[d] for d in filters.get("doc", ())}
            result.game = games.pop() if len(games) == 1 else ALL_GAMES
        else:
            result.game, result.game_from = self._game_of(current, expansion, synonyms)
        query, coverage = build_query(expansion)
        # Every match is scored anyway (the query is an OR); keeping them all
        # gives the facet counts.
        evaluation = Evaluation(current.built.postings)
        docnums, scores = evaluation.ranked(query, filter_query(filters))
        if result.game != ALL_GAMES and "game" not in filters and "doc" not in filters:
            in_game = current.game_codes[docnums] == current.games.index(result.game)
            others = int(len(docnums) - np.count_nonzero(in_game))
            if others:
                other = next(g for g in current.games if g != result.game)
                result.other_game = {"game": other, "total": others}
            docnums, scores = docnums[in_game], scores[in_game]
        result.total = len(docnums)
        result.facets = self._facets(current, docnums)
        # An older edition shows as itself when asked for: by name, by filter, or by one of
        # its section numbers among the words ("damage 6.4.6": the older books' numbering).
        old_asked = bool(expansion.numbers) or any(
            self.corpus.documents[d].meta.edition_order != self._newest[self._games[d]]
            for d in [*filters.get("doc", ()), *self._docs_named(expansion)])
        result.hits = self._rank(current, docnums, scores, evaluation, coverage, expansion, limit,
                                 definition=self._asks_definition(parsed, expansion), faces=not old_asked,
                                 intents=[i for i, pattern in _ASKS.items() if pattern.search(parsed.text)])
        corrected = [u for u in expansion.units if u.corrected]
        if corrected:
            result.did_you_mean = self._corrected_query(parsed, corrected)
        if not result.hits:
            result.did_you_mean = result.did_you_mean or self._suggestion(parsed, current.vocabulary, synonyms.talk_words)
            result.message = "no paragraph matches this query" + (
                " with these filters" if filters else "") + self._try_instead(result, parsed, expansion)
        return result

    def _game_of(self, current: _Installed, expansion: Expansion, synonyms) -> tuple[str, str]:
        """The game a query is about, and why: the one it names ("torpor in rivals"),
        else Rivals when it uses a word only the Rivals book has ("agenda"), else
        V:TES, the default."""
        named = {a.tokens[0] for u in expansion.units for a in u.alternatives if a.kind == "game"}
        named |= {self._games[a.tokens[0]] for u in expansion.units for a in u.alternatives if a.kind == "doc"}
        if len(named) == 1:
            return named.pop(), "query"
        if len(named) > 1:
            return ALL_GAMES, "query"
        rivals_terms, stems = synonyms.rivals_terms, expansion.stems
        if any(tuple(stems[i:i + size]) in rivals_terms for size in (1, 2, 3) for i in range(len(stems))):
            return "rivals", "query"
        return DEFAULT_GAME if DEFAULT_GAME in current.games else ALL_GAMES, "default"

    @staticmethod
    def _docs_named(expansion: Expansion) -> list[str]:
        return [a.tokens[0] for u in expansion.units for a in u.alternatives if a.kind == "doc"]

    @staticmethod
    def _asks_definition(parsed: ParsedQuery, expansion: Expansion) -> Optional[str]:
        """"definition" for "what is a title", "define prey" (a glossary entry answers
        it, a lore one may); "term" for a term alone ("diablerie": a glossary entry of
        the rules answers it); None for a question."""
        units = [u for u in expansion.units if u.alternatives and u.alternatives[0].kind == "stems"]
        if _DEFINITION.match(parsed.text) and len(units) <= DEFINITION_MAX_UNITS:
            return "definition"
        if len(units) == 1 and len(parsed.words) <= 2:
            return "term"
        return None

    def _try_instead(self, result: SearchResult, parsed: ParsedQuery, expansion: Expansion) -> str:
        """For a search that found nothing: what may find something (the other game,
        fewer words); a spelling is offered in `did_you_mean`."""
        tips = []
        if result.other_game:
            tips.append(f"{result.other_game['total']} paragraphs of {GAME_NAMES.get(result.other_game['game'], result.other_game['game'])} match: "
                        f"search game:{result.other_game['game']} or game:all")
        if parsed.phrases:
            tips.append("try the words without the quotes")
        elif len(expansion.units) >= 2:
            tips.append("try fewer words")
        if parsed.filters:
            tips.append("try without the filters")
        return ("; " + "; ".join(tips)) if tips else ""

    def _check_filters(self, filters: dict[str, list[str]]) -> tuple[dict[str, list[str]], Optional[str]]:
        if not filters:
            return {}, None
        known = self._filter_values
        out = {}
        for key, values in filters.items():
            resolved = []
            for value in values:
                if value not in known[key]:
                    return {}, (f"unknown {key} {value!r} in the filter {key}:{value} "
                                f"(known: {', '.join(sorted(set(known[key].values())))})")
                resolved.append(known[key][value])
            out[key] = sorted(set(resolved))
        return out, None

    # -- numbers, IDs and labels go straight to their section -----------------------
    def _direct(self, parsed: ParsedQuery, filters) -> Optional[Match]:
        text = parsed.lookup_text
        if not text or parsed.phrases or parsed.prefixes or len(text) > 80:
            return None
        match = find(self.corpus, text)
        if match is None:
            return None
        if match.how == "number" and "." not in text and ":" not in text and " " not in text.strip():
            return None  # a bare "6" or "I" is more likely a word of the question than section 6
        if match.how == "slug" and "-" not in text:
            return None  # "torpor" typed is a word to search for; "rescue-a-vampire-from-torpor" names a section
        ids = [i for i in (match.id, *match.also) if self._allowed_section(i, filters)]
        if not ids:
            return None
        return Match(ids[0], match.how, match.note, tuple(ids[1:]))

    def _allowed_section(self, ident: str, filters) -> bool:
        doc = self.corpus.document_of(ident)
        return bool(doc) and ((not filters.get("doc") or doc.id in filters["doc"])
                              and (not filters.get("game") or doc.meta.game in filters["game"]))

    def _direct_result(self, result: SearchResult, match: Match, limit: int) -> SearchResult:
        """The paragraphs of the section named, in order; their counterparts beside
        them, marked `matched` when they lie in another section the query names
        (6.4.6 is a section of two books)."""
        result.direct = match
        also = {p.id for a in match.also for p in self._paragraphs_named(a)}
        paras = self._paragraphs_named(match.id)
        for para in paras[:limit]:
            result.hits.append(self._hit(para, 1.0, set(), set(), self._counterparts(self._current, para.id, also)))
        result.total = len(paras)
        return result

    def paragraph_hit(self, pid: str) -> Hit:
        """A paragraph as a hit of no particular query (nothing marked, its other
        counterparts beside it, none of them matched): what a results list shows of it."""
        return self._hit(self.corpus.paragraphs[pid], 0.0, set(), set(), self._counterparts(self._current, pid))

    def counterparts(self, pid: str) -> tuple[Counterpart, ...]:
        """The same rule as paragraph `pid` in the other editions of its game, newest first
        (`Hit.counterparts`): the concordance's answer, confidences rounded to 3 places, read
        from the build's rule groups (not the whole concordance)."""
        return self._current.counterparts.get(pid, ())

    def _paragraphs_named(self, ident: str) -> list:
        if ident in self.corpus.paragraphs:
            return [self.corpus.paragraphs[ident]]
        own = self.corpus.paragraphs_of(ident, deep=False)
        return own or self.corpus.paragraphs_of(ident, deep=True)


    # -- ranking, grouping, snippets ------------------------------------------------
    @staticmethod
    def _facets(current: _Installed, docnums: np.ndarray) -> dict[str, dict[str, int]]:
        """Matches counted by document and by kind, most first (equal counts in
        the order their first match ranks)."""
        out = {}
        for facet, (values, codes) in current.facet_codes.items():
            found = codes[docnums]
            counts = np.bincount(found, minlength=len(values)).tolist()
            # The codes in the order they first rank; the sort is stable, so equal counts keep it.
            # (A query matches few paragraphs: plain Python beats np.unique's fixed cost.)
            order = sorted(dict.fromkeys(found.tolist()), key=lambda code: -counts[code])
            out[facet] = {values[code]: counts[code] for code in order}
        return out

    def _rank(self, current: _Installed, docnums: np.ndarray, scores: np.ndarray, evaluation: Evaluation,
              coverage: list[list[wq.Query]], expansion: Expansion, limit: int, definition: Optional[str] = None,
              faces: bool = True, intents: Iterable[str] = ()) -> list[Hit]:
        """Weigh every match by coverage and priors, show each rule by its paragraph of the
        book in force (`faces`), fold its other editions under it, cut to `limit`."""
        prior = {"definition": current.definition_prior, "term": current.term_prior}.get(definition, current.prior)
        if coverage:
            scores = passages.synonyms_counted_once(evaluation, expansion, coverage, scores, docnums,
                                                    current.unit_overcounts)
        weighed = scores * prior[docnums]
        for intent in intents:
            weighed *= current.states[intent][docnums]
        if coverage:
            # The share of the query's units a paragraph has (see `build_query`).
            covered = self._units_covered(current, evaluation, expansion, coverage)[docnums]
            weighed *= COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * covered / len(coverage)
        weighed = self._named_sections_weighed(current, expansion, docnums, weighed)
        if faces:
            weighed = self._faces_by_own_words(current, docnums, weighed)
        order = np.argsort(-weighed, kind="stable")[:CANDIDATES]
        # Stems to mark in snippets: a synonym scoped to a game only in that game's paragraphs.
        query_stems: dict[Optional[str], set[str]] = {}
        for a in (a for u in expansion.units for a in u.alternatives if a.kind == "stems"):
            query_stems.setdefault(a.game, set()).update(a.tokens)
        query_plain = {a.tokens[0] for u in expansion.units for a in u.alternatives if a.kind in ("fuzzy", "prefix")}
        prefixes = tuple(u.prefix for u in expansion.units if u.prefix)
        stems_in: dict[str, set[str]] = {}  # game -> the stems to mark in its paragraphs
        hits: list[Hit] = []
        folded: dict[str, Hit] = {}  # paragraph id -> the hit showing it
        # (only the candidates as Python values; the hits' matched editions marked once at
        # the end: at 100 books a rule has ~100 editions, and a tuple of them rebuilt for
        # each folded candidate cost more than the ranking)
        also_matched: dict[int, tuple[Hit, set[str]]] = {}  # id(hit) -> it, the editions under it that matched
        ids = current.built.ids
        for number, weight in zip(docnums[order].tolist(), weighed[order].tolist()):
            pid = ids[number]
            face = current.faces.get(pid, pid) if faces else pid
            shown = folded.get(pid) or folded.get(face)
            if shown is not None:
                if pid != shown.id:
                    also_matched.setdefault(id(shown), (shown, set()))[1].add(pid)
                continue
            if len(hits) >= limit:
                continue  # still fold later candidates into the hits shown
            para = self.corpus.paragraphs[face]
            game = self._games[para.doc]
            stems = stems_in.get(game)
            if stems is None:
                stems = stems_in[game] = query_stems.get(None, set()) | query_stems.get(game, set())
            counterparts = self._counterparts(current, face, (pid,) if face != pid else ())
            if face != pid and not any(c.id == pid for c in counterparts):
                counterparts += (self._counterpart(pid, 1.0)._replace(matched=True),)
            shown = self._hit(para, weight, stems, query_plain, counterparts, prefixes)
            hits.append(shown)
            folded[pid] = folded[face] = shown
            for c in counterparts:
                folded.setdefault(c.id, shown)
        for shown, matched in also_matched.values():
            shown.counterparts = tuple(c._replace(matched=True) if c.id in matched else c for c in shown.counterparts)
        return hits

    def _named_sections_weighed(self, current: _Installed, expansion: Expansion, docnums: np.ndarray,
                                weighed: np.ndarray) -> np.ndarray:
        """A paragraph under a section of the book in force the question names weighs
        more (`judge.search.passages`)."""
        return passages.named_sections_weighed(self._sections(current), expansion, docnums, weighed)

    def _sections(self, current: _Installed) -> passages.Sections:
        if current.sections is None:
            current.sections = passages.Sections(current.section_table)
        return current.sections

    def _section_title(self, section_id: str) -> str:
        section = self.corpus.sections.get(section_id)
        return section.title if section else ""

    @staticmethod
    def _faces_by_own_words(current: _Installed, docnums: np.ndarray, weighed: np.ndarray) -> np.ndarray:
        """An older edition's paragraph shown as its face ranks by what the face matched
        (`judge.search.passages`)."""
        if current.face_numbers is None:
            current.face_numbers = passages.face_numbers(current.built.ids, current.faces)
        return passages.faces_by_own_words(current.face_numbers, docnums, weighed)

    @staticmethod
    def _units_covered(current: _Installed, evaluation: Evaluation, expansion: Expansion,
                       coverage: list[list[wq.Query]]) -> np.ndarray:
        """How many of the query's units each paragraph has, by document number (a
        paragraph has a unit when it matches any of the unit's `coverage` queries).
        Each unit's paragraphs are kept by what the unit asks for: the same words
        come back query after query."""
        found = []
        for unit, queries in zip(expansion.units, coverage):
            key = unit.key()
            paragraphs = current.unit_paragraphs.recall(key)
            if paragraphs is None:
                paragraphs = current.unit_paragraphs.remember(key, np.flatnonzero(evaluation.matched(queries)))
            found.append(paragraphs)
        return np.bincount(np.concatenate(found), minlength=current.built.postings.doc_count)

    @staticmethod
    def _counterparts(current: _Installed, pid: str, matched: Iterable[str] = ()) -> tuple[Counterpart, ...]:
        """`Hit.counterparts` of a paragraph, those in `matched` marked as matching the query too."""
        found = current.counterparts.get(pid, ())
        if not matched:
            return found
        return tuple(c._replace(matched=True) if c.id in matched else c for c in found)

    def _counterpart(self, pid: str, confidence: float) -> Counterpart:
        para = self.corpus.paragraphs.get(pid)
        doc = para.doc if para else pid.split(":", 1)[0]
        edition = self.corpus.documents[doc].meta.edition if doc in self.corpus.documents else ""
        return Counterpart(pid, doc, para.label if para else pid, confidence, False, edition)

    def _hit(self, para, score: float, stems: set, plain: set, counterparts: tuple[Counterpart, ...],
             prefixes: tuple[str, ...] = ()) -> Hit:
        section = self.corpus.sections.get(para.section)
        doc = self.corpus.documents[para.doc]
        return Hit(id=para.id, doc=para.doc, label=para.label, text=para.text, score=score,
                   snippet=snippet(para.text, stems, plain, prefixes), kind=para.kind, section=para.section,
                   section_title=section.title if section else "", counterparts=counterparts,
                   game=doc.meta.game, in_force=self._in_force(para.doc), ocr=bool(getattr(doc.meta, "ocr", False)))

    # -- did you mean ---------------------------------------------------------------
    def _corrected_query(self, parsed: ParsedQuery, corrected: list) -> str:
        fixes = {u.plain: u.corrected for u in corrected}
        words = [fixes.get(w.lower(), w) for w in parsed.words]
        phrases = [f'"{p}"' for p in parsed.phrases]
        return " ".join(words + phrases + [f"{p}*" for p in parsed.prefixes])

    def _suggestion(self, parsed: ParsedQuery, vocabulary: Vocabulary, talk_words=frozenset()) -> Optional[str]:
        """For a query that found nothing: each word the books never use replaced
        by the closest one they do, allowing one more edit than the search does
        (a word of the table talk, like an English word, is what the asker meant)."""
        changed, words = False, []
        for word in parsed.words:
            low = word.lower()
            if (low.isalpha() and len(low) >= 3 and low not in vocabulary.frequency and not english_word(low)
                    and low not in talk_words):
                near = vocabulary.near(low, max_distance(low) + 1)
                if near:
                    words.append(near[0][0])
                    changed = True
                    continue
            words.append(word)
        return " ".join(words) if changed else None


def _sure_links(groups):
    """The rule groups' links sure enough to make a face (FACE_CONFIDENCE, at the 3 decimals the links are
    compared at), each both ways: (paragraph, its counterpart, confidence)."""
    for members, links in zip(groups.members, groups.links):
        for a, b, confidence in links:
            confidence = round(confidence, 3)
            if confidence >= FACE_CONFIDENCE and members[a] != members[b]:
                yield members[a], members[b], confidence
                yield members[b], members[a], confidence


def filter_query(filters: dict[str, list[str]]) -> Optional[wq.Query]:
    """The Whoosh query of a search's filters ({"doc": [...], "game": [...], "kind": [...]}),
    None for none: the paragraphs having one of the values of each filter given."""
    parts = [wq.Or([wq.Term(key, v) for v in values]) for key, values in filters.items() if values]
    if not parts:
        return None
    return wq.And(parts) if len(parts) > 1 else parts[0]


# -- one searcher per process -------------------------------------------------------

# (index directory, corpus digest) -> its searcher. A corpus is immutable and its digest
# names its content, so a searcher never answers for another corpus; a few are kept
# (a process that reloads an edited corpus gets a new one beside the old).
_SEARCHERS: Memo = Memo("search.searchers", SEARCHERS_KEPT)
_SEARCHERS_LOCK = threading.Lock()  # one Search built per key, however many threads ask at once


def get_searcher(corpus=None) -> Search:
    """The process-wide `Search` of `corpus` (default: `judge.corpus.get_corpus()`).

    Building the index when it is missing or stale happens here, once; a
    corpus with another digest (a rulebook was edited and the corpus reloaded)
    gets its own, freshly built index.
    """
    if corpus is None:
        from judge.corpus import get_corpus
        corpus = get_corpus()
    key = (str(paths.index_dir()), corpus.digest)
    with _SEARCHERS_LOCK:
        return _SEARCHERS.recall_or_compute(key, lambda: Search(corpus))


def built_searcher(corpus) -> Optional[Search]:
    """`get_searcher(corpus)` when a search index of `corpus` is on disk, else None:
    never builds one (what reads only the rule groups of a build asks this)."""
    key, root = search_index.index_key(corpus), paths.index_dir()
    current = search_index.current_name(root)
    if (current and current.startswith(key + "-")) or search_index.builds_of(key, root):
        return get_searcher(corpus)
    return None
