"""The questions each rule answers (judge/data/questions/<document>.yaml): written once, from the rules, in the
words players and judges use, and indexed with the paragraph they are written for (document expansion, as
doc2query does): a question that matches one of them finds the paragraph even when it uses none of its words.

One file per document: the book in force of each game, and the judges' flows (an outline: it is no edition, and
it is in force beside the book). Each entry is

    - id: vekn:master-phase/2
      questions:
        - how many master cards can I play each turn
        - ...

or, for a flows step the book states already, `restates: <the book's paragraph or section>` (no questions: the
book's paragraph carries them; the entry says the step was read and where its rule is).

Checked at load and at the index's build: the file parses, every ID is a paragraph of that document, no ID
twice, each entry has questions or a restatement of a paragraph or section; a fault is a SourceError naming the
file and line. What the corpus, not the file, made unfit is set aside instead (`RuleQuestions.set_aside`, each
with its file, line and reason; logged at a build), so that the search still answers from the books that load:
a file of a document that did not load (a damaged book) or that is no longer in force (a newer edition was
added), an entry restating a paragraph of such a book. The project's own files have nothing set aside
(tests/test_rule_questions.py). `coverage` lists the paragraphs in scope
without questions: every rule, glossary, advanced and tournament paragraph of the current V:TES book, every
rule and glossary paragraph of the Rivals book, every step of the flows (questions or a restatement).
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from judge import paths
from judge.datafile import bytes_for_digest, read_yaml
from judge.errors import SourceError

if TYPE_CHECKING:
    from judge.model import Corpus

log = logging.getLogger(__name__)

FOLDER = "questions"
MAX_QUESTION = 200  # characters: a question, not a paragraph
# The paragraphs each game's book in force must give questions to (issue 36); an outline's every step.
SCOPE = {"vtes": ("rule", "glossary", "advanced", "tournament"), "rivals": ("rule", "glossary")}
OUTLINE_FORMAT = "outline"


def questions_dir() -> Path:
    return paths.data_dir() / FOLDER


@dataclass
class RuleQuestions:
    """What the files say: each paragraph's questions, each restating step's paragraph or section, and where each
    entry is written (file, line)."""

    questions: dict[str, list[str]] = field(default_factory=dict)
    restates: dict[str, str] = field(default_factory=dict)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)
    digest: str = ""  # of the files' bytes: the index is rebuilt when they change
    set_aside: list[str] = field(default_factory=list)  # "file:line: why", left out (see the module)

    def count(self, doc: Optional[str] = None) -> int:
        return sum(len(q) for pid, q in self.questions.items() if doc is None or pid.split(":", 1)[0] == doc)


def files(folder: Optional[Path] = None) -> list[Path]:
    folder = Path(folder or questions_dir())
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def files_digest(folder: Optional[Path] = None) -> str:
    h = hashlib.sha256()
    for path in files(folder):
        h.update(path.name.encode() + b"\0")
        h.update(bytes_for_digest(path))
    return h.hexdigest()


def in_force(corpus: "Corpus", doc_id: str) -> bool:
    """A document a question may be written for: the newest edition of its game, or an outline (the flows)."""
    doc = corpus.documents.get(doc_id)
    if doc is None:
        return False
    if doc.meta.format == OUTLINE_FORMAT:
        return True
    newest = max(d.meta.edition_order for d in corpus.documents.values()
                 if d.meta.game == doc.meta.game and d.meta.format != OUTLINE_FORMAT)
    return doc.meta.edition_order == newest


def load_questions(corpus: "Corpus", folder: Optional[Path] = None) -> RuleQuestions:
    """Every file of `folder` (judge/data/questions), checked against `corpus` (see the module's docstring)."""
    out = RuleQuestions(digest=files_digest(folder))
    for path in files(folder):
        _load_file(corpus, path, out)
    return out


def _load_file(corpus: "Corpus", path: Path, out: RuleQuestions) -> None:
    doc = path.stem
    data, _ = read_yaml(path, "the questions of the rules", with_lines=True, fast=True)
    if doc not in corpus.documents:
        if doc in {e.doc for e in corpus.errors}:
            out.set_aside.append(f"{path.name}:1: {doc!r} did not load: its questions are left out")
            return
        raise SourceError(path.name, 1, f"{doc!r} is no document of the corpus (a file is named after its "
                                        f"document: {', '.join(sorted(corpus.documents))})")
    if not in_force(corpus, doc):
        out.set_aside.append(f"{path.name}:1: {doc!r} is an older edition (questions are written for the book "
                             f"in force): its questions are left out")
        return
    if data is None:
        return
    if not isinstance(data, list):
        raise SourceError(path.name, 1, "expected a list of entries, each with 'id' and 'questions' (or 'restates')")
    for n, entry in enumerate(data, 1):
        line = entry.get("__line__", 0) if isinstance(entry, dict) else 0
        if not isinstance(entry, dict) or set(entry) - {"id", "questions", "restates", "__line__"}:
            raise SourceError(path.name, line, f"entry {n}: expected 'id' and 'questions' (or 'restates')")
        pid = entry.get("id")
        if not isinstance(pid, str) or not pid.startswith(f"{doc}:"):
            raise SourceError(path.name, line, f"entry {n}: 'id' must be a paragraph of {doc} ('{doc}:...')")
        if pid not in corpus.paragraphs:
            raise SourceError(path.name, line, f"{pid} is no paragraph of {doc}: a stale ID (the book changed?)")
        if pid in out.where:
            first = out.where[pid]
            raise SourceError(path.name, line, f"{pid} is given again (first at {first[0]}:{first[1]})")
        out.where[pid] = (path.name, line)
        questions, restates = entry.get("questions"), entry.get("restates")
        if (questions is None) == (restates is None):
            raise SourceError(path.name, line, f"{pid}: give 'questions' or 'restates', one of the two")
        if restates is not None:
            target_doc = restates.split(":", 1)[0] if isinstance(restates, str) else ""
            if target_doc in corpus.documents and target_doc != doc and not in_force(corpus, target_doc) or \
                    target_doc in {e.doc for e in corpus.errors}:
                out.set_aside.append(f"{path.name}:{line}: {pid} restates {restates}, of a book not in force or "
                                     f"not loaded: left out")
                continue
            target = corpus.get(restates) if isinstance(restates, str) else None
            if target is None or restates.startswith(f"{doc}:"):
                raise SourceError(path.name, line, f"{pid}: 'restates' must name a paragraph or section of a book "
                                                   f"in force, not {restates!r}")
            out.restates[pid] = restates
            continue
        if not isinstance(questions, list) or not questions:
            raise SourceError(path.name, line, f"{pid}: 'questions' must list one or more questions")
        kept: list[str] = []
        for q in questions:
            if not isinstance(q, str) or not q.strip():
                raise SourceError(path.name, line, f"{pid}: a question must be text, not {q!r}")
            q = " ".join(q.split())
            if len(q) > MAX_QUESTION:
                raise SourceError(path.name, line, f"{pid}: a question of {len(q)} characters (at most "
                                                   f"{MAX_QUESTION}): {q[:60]!r}…")
            if q.casefold() not in {k.casefold() for k in kept}:
                kept.append(q)
        out.questions[pid] = kept


_CHECKED: dict[tuple[str, str], RuleQuestions] = {}  # (corpus digest, files digest) -> the files read


def checked_questions(corpus: "Corpus") -> RuleQuestions:
    """`load_questions` of the project's files, read once per corpus and files (a build reads them for
    every book; a process builds more than once only when something changed)."""
    key = (corpus.digest, files_digest())
    found = _CHECKED.get(key)
    if found is None:
        _CHECKED.clear()
        found = _CHECKED[key] = load_questions(corpus)
        for why in found.set_aside:
            log.warning("the questions of the rules: %s", why)
    return found


def in_scope(corpus: "Corpus") -> list[str]:
    """The paragraphs that must have questions (or, for an outline's step, a restatement)."""
    out = []
    for doc in corpus.documents.values():
        if not in_force(corpus, doc.id):
            continue
        kinds = None if doc.meta.format == OUTLINE_FORMAT else SCOPE.get(doc.meta.game, ())
        out.extend(p.id for p in doc.paragraphs if kinds is None or p.kind in kinds)
    return out


def coverage(corpus: "Corpus", found: RuleQuestions, least: int = 3) -> list[str]:
    """The paragraphs in scope without `least` questions (an outline's step: without questions or a
    restatement)."""
    missing = []
    for pid in in_scope(corpus):
        if pid in found.restates:
            continue
        if len(found.questions.get(pid, ())) < least:
            missing.append(pid)
    return missing
