"""The Whoosh index behind `judge.search`: its schema, and how it is built and
swapped in atomically.

Every paragraph of the corpus is one Whoosh document. Each build goes to a fresh
directory ``index/search-<key>-<nonce>/`` (the key digests the corpus and this
code), is finished there, and only then named by the small pointer file
``index/search-current`` (written with `os.replace`). A reader opens the
directory the pointer names, so it never sees a half-built index, and a rebuild
while a server is searching is safe: searchers on the previous directory keep
working until they notice the new pointer and reopen.

The same rule in other editions (`editions.json` beside the index) is computed
at build time by `judge.search_editions` from the concordance: aligning
editions compares texts and is too slow for query time.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from whoosh import index as whoosh_index
from whoosh.analysis import CharsetFilter, RegexTokenizer, LowercaseFilter, StemFilter, StopFilter
from whoosh.analysis.filters import STOP_WORDS
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.support.charset import accent_map

from judge import paths
from judge.errors import JudgeError

if TYPE_CHECKING:
    from judge.corpus import Corpus

POINTER = "search-current"
RANKED_FIELDS = ("body", "title", "body_plain", "terms")
PREFIX = "search-"
EDITIONS_FILE = "editions.json"
# Code whose changes make a built index stale (the schema, what is indexed, the
# edition grouping). Query-time code and the synonyms file are not in it.
_BUILD_CODE = ("search_index.py", "search_editions.py")

# Words are runs of letters/digits, and section numbers ("6.4.6", "iv.d.2")
# stay one token. Accents are folded so "Flavio" finds "Flávio".
_TOKEN_PATTERN = r"\w+(?:\.\w+)*"


def stemming_analyzer():
    """The analyzer of the ranked fields: lowercase, accents folded, English
    stop words dropped, Porter stems ("blocks", "blocking" -> "block")."""
    return (RegexTokenizer(_TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(stoplist=STOP_WORDS, minsize=2) | StemFilter())


def plain_analyzer():
    """The analyzer of the unstemmed field that fuzzy matching runs on: an edit
    distance between a typo and a stem means little, between two words a lot."""
    return (RegexTokenizer(_TOKEN_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(stoplist=STOP_WORDS, minsize=2))


def make_schema() -> Schema:
    stem = stemming_analyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        doc=ID(stored=True),
        game=ID(stored=True),
        edition=ID(stored=True),
        kind=ID(stored=True),
        # Section and outline numbers of the paragraph and its section ("6.4.6", "iv.d.2").
        numbers=KEYWORD(lowercase=True, stored=True),
        # What the paragraph is under: its section's title, its own bold title, the
        # glossary term it defines and its citation label ("RB §6.4.6 ¶2", "VEKN ›
        # Combat › Damage Resolution ¶3"), in one field the query weighs up.
        title=TEXT(analyzer=stem),
        body=TEXT(analyzer=stem),
        body_plain=TEXT(analyzer=plain_analyzer()),
        # Glossary terms the paragraph defines or uses (corpus.term_links).
        terms=TEXT(analyzer=stem),
    )


def index_key(corpus: "Corpus") -> str:
    """The digest naming a build: the corpus digest, the build code, and what
    the edition grouping depends on."""
    from judge.search_editions import source_key

    h = hashlib.sha256(corpus.digest.encode())
    h.update(source_key().encode())
    here = Path(__file__).resolve().parent
    for name in _BUILD_CODE:
        h.update(name.encode())
        h.update((here / name).read_bytes())
    return h.hexdigest()[:20]


def _documents(corpus: "Corpus"):
    for doc in corpus.documents.values():
        meta = doc.meta
        for para in doc.paragraphs:
            section = corpus.sections.get(para.section)
            numbers = {n for n in (para.number, section.number if section else None) if n}
            title = " ".join(t for t in (section.title if section else "", para.title or "",
                                         para.term or "", para.label) if t)
            terms = {t.lower() for t, _, _, _ in corpus.term_links.get(para.id, ())}
            if para.term:
                terms.add(para.term.lower())
            yield dict(id=para.id, doc=meta.id, game=meta.game, edition=meta.edition, kind=para.kind,
                       numbers=" ".join(sorted(n.lower() for n in numbers)),
                       title=title, body=para.text, body_plain=para.text, terms=" | ".join(sorted(terms)))


@dataclass
class BuiltIndex:
    """An opened build: the Whoosh index and the edition map saved beside it."""

    name: str  # "<key>-<nonce>", the directory is index/search-<name>
    path: Path
    index: whoosh_index.Index
    editions: dict[str, list[list]]  # paragraph id -> [[id, confidence]] in the other editions
    ids: list[str]  # Whoosh document number -> paragraph id
    lengths: dict[str, list[int]]  # ranked field -> its length in each document, by number


def current_name(root: Optional[Path] = None) -> Optional[str]:
    """The build the pointer names ("<key>-<nonce>"), or None when there is none."""
    root = root or paths.index_dir()
    try:
        name = (root / POINTER).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if name and (root / f"{PREFIX}{name}").is_dir() else None


def build(corpus: "Corpus", root: Optional[Path] = None, force: bool = False) -> str:
    """Build the index of `corpus` unless the current one is already of it; return
    the name of the current build.

    Each build gets a directory of its own (the key plus a nonce), finished
    before the pointer is replaced, so readers see the old index or the new one,
    never a mixture, and two processes building at once cannot collide: the
    last pointer written wins and the other build is removed later.
    """
    from judge.search_editions import edition_map

    root = root or paths.index_dir()
    key = index_key(corpus)
    previous = current_name(root)
    if not force and previous and previous.split("-", 1)[0] == key:
        return previous
    name = f"{key}-{time.time_ns():x}"
    try:
        tmp = Path(tempfile.mkdtemp(dir=root, prefix=".search-build-"))
    except OSError as exc:
        raise JudgeError(f"cannot build the search index in {root}: {exc.strerror}") from None
    try:
        ix = whoosh_index.create_in(str(tmp), make_schema())
        writer = ix.writer()
        for fields in _documents(corpus):
            writer.add_document(**fields)
        writer.commit()
        ix.close()
        (tmp / EDITIONS_FILE).write_text(json.dumps(edition_map(corpus)), encoding="utf-8")
        os.rename(tmp, root / f"{PREFIX}{name}")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    previous = current_name(root)  # again: another process may have switched meanwhile
    _point_at(root, name)
    _remove_stale(root, keep={name, previous})
    return name


def _point_at(root: Path, name: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".search-current-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(name + "\n")
    os.replace(tmp, root / POINTER)


def _remove_stale(root: Path, keep: set) -> None:
    """Remove builds other than the current and the previous one, and leftovers
    of interrupted builds older than a minute. The previous build stays so that
    searches already running on it finish before their searcher reopens."""
    now = time.time()
    for path in root.iterdir():
        name = path.name
        try:
            if name.startswith(PREFIX) and path.is_dir() and name[len(PREFIX):] not in keep:
                shutil.rmtree(path, ignore_errors=True)
            elif name.startswith((".search-build-", ".search-current-")) and now - path.stat().st_mtime > 60:
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink()
        except OSError:
            pass  # raced with another process cleaning up


def open_built(name: str, root: Optional[Path] = None) -> BuiltIndex:
    root = root or paths.index_dir()
    path = root / f"{PREFIX}{name}"
    ix = whoosh_index.open_dir(str(path))
    editions = json.loads((path / EDITIONS_FILE).read_text(encoding="utf-8"))
    with ix.reader() as reader:
        count = reader.doc_count_all()
        ids = [""] * count
        for docnum, fields in reader.iter_docs():
            ids[docnum] = fields["id"]
        lengths = {name: [reader.doc_field_length(n, name, 0) for n in range(count)]
                   for name in RANKED_FIELDS}
    return BuiltIndex(name, path, ix, editions, ids, lengths)
