"""Counterparts: which paragraphs are the same rule in another edition of their
book, so that search shows one hit with its counterparts beside it instead of
three near-identical hits.

The answer comes from the rule graph's concordance (`judge.compare.concordance`):
its rule groups (one rule's paragraphs across the editions) and the alignments'
links inside each. The index stores those (`counterparts.json`, `RuleGroups`):
each paragraph once, with its links, so the file grows with the paragraphs,
where a list of every paragraph's counterparts grew with the square of the
editions (issue 21). A paragraph's counterparts are worked out from its group
when a search first shows it (`ServedCounterparts`), as the concordance works
them out (`judge.compare.chains`), and kept. Replacing the source of the
grouping means replacing `counterpart_map` and `SOURCES`.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
import logging
import zipfile
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Callable, Generic, Optional, TypeVar

from judge import cachefile
from judge.datafile import bytes_for_digest
from judge.compare.chains import composed_chains
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.corpus import Corpus

log = logging.getLogger(__name__)
_older, _newer = itemgetter(0), itemgetter(1)  # a link's members

# What the grouping depends on besides the corpus: hashed into the index key, so
# a change to the alignment rebuilds the index. Hashing the files (rather than
# asking the concordance for its key) keeps numpy out of a plain `judge search`.
SOURCES = ("judge.compare.concordance", "judge.compare.chains",
           "judge.compare.terminology")  # and the terminology map (`terminology_file`)

T = TypeVar("T")


@dataclass
class RuleGroups:
    """counterparts.json: the rule groups of paragraphs and the links inside each."""

    members: list[list[str]]  # each group's paragraphs, oldest edition first
    # each group's links: (older member's place in `members`, newer member's, the alignment's confidence)
    links: list[list[tuple[int, int, float]]]
    aligned: list[tuple[str, str]]  # the pairs of documents aligned directly (older first)

    def check(self, paragraph_ids: set[str]) -> Optional[str]:
        """What is wrong with it for a corpus of these paragraphs, or None."""
        if len(self.links) != len(self.members):
            return "it does not give each group its links"
        # Every group at once, in passes that run in C (each process opening a build asks
        # it: 40,000 paragraphs at 100 books); the first fault is looked for group by group.
        every = list(chain.from_iterable(self.members))
        if len(set(every)) == len(every) and paragraph_ids.issuperset(every) and all(
                not links or (min(map(_older, links)) >= 0 and min(map(_newer, links)) >= 0
                              and max(map(_older, links)) < len(members) and max(map(_newer, links)) < len(members))
                for members, links in zip(self.members, self.links)):
            return None
        seen: set[str] = set()
        for members, links in zip(self.members, self.links):
            if any(pid not in paragraph_ids or pid in seen for pid in members) or len(set(members)) != len(members):
                return "it names paragraphs this corpus does not have, or one twice"
            seen.update(members)
            if any(not (0 <= a < len(members) and 0 <= b < len(members)) for a, b, _ in links):
                return "a link names no member of its group"
        return None


# -- the groups kept as arrays beside their build ---------------------------------------
# counterparts.json is decoded and checked by every process that opens the build (0.08 s
# of CPU at 100 books, 40,000 paragraphs in 52,000 links): the first one keeps the
# groups beside the build as numpy arrays (`groups-<code>.npz`), named by this code and
# holding the digest of the counterparts.json they were made from, and the next ones
# read those, checked (read without pickles, every index in range), in hundredths of
# that. A file that does not read or check is logged and made again from the JSON.
GROUPS_PREFIX = "groups-"
_ARRAY_KINDS = {"source": "U", "ids": "U", "member_offsets": "i", "link_offsets": "i", "link_older": "i",
                "link_newer": "i", "link_confidence": "f", "aligned": "U"}


def read_groups(build_dir: Path, data: bytes, decode: Callable[[], RuleGroups],
                source: Optional[str] = None) -> RuleGroups:
    """The groups of the build in `build_dir` whose counterparts.json is `data` (of SHA-256
    `source`, when the caller knows it): from the arrays kept beside it, else `decode()`d
    from the JSON and kept (silently not, when the directory cannot be written: that only
    costs time)."""
    source = source or hashlib.sha256(data).hexdigest()
    path = build_dir / f"{GROUPS_PREFIX}{_code_digest()}.npz"
    try:
        kept = _groups_of_arrays(cachefile.read_built(path), source)
    except FileNotFoundError:
        kept = None
    except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises: counterparts.json is read again
        log.warning("the rule groups kept in %s cannot be used (%s); reading counterparts.json again", path,
                    getattr(exc, "strerror", None) or exc)
        kept = None
    if kept is not None:
        return kept
    groups = decode()
    _write_arrays(path, groups, source)
    return groups


def _code_digest() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def _groups_of_arrays(data: bytes, source: str) -> Optional[RuleGroups]:
    """The groups kept in `data` (an .npz `_write_arrays` wrote); None when they were made
    from another counterparts.json; ValueError when they do not read or check."""
    import numpy as np

    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            a = {name: arrays[name] for name in _ARRAY_KINDS}
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise ValueError(f"not the arrays judge writes ({type(exc).__name__})") from None
    for name, kind in _ARRAY_KINDS.items():
        if a[name].dtype.kind != kind or a[name].ndim != (2 if name == "aligned" else 1):
            raise ValueError(f"{name} is not a list of the right kind")
    if a["source"].shape != (1,):
        raise ValueError("it does not say which counterparts.json it is of")
    if str(a["source"][0]) != source:
        return None  # of another build's file: made again, nothing is wrong
    members, links = a["member_offsets"], a["link_offsets"]
    older, newer, confidence = a["link_older"], a["link_newer"], a["link_confidence"]
    groups = len(members) - 1
    if not (groups >= 0 and len(links) == groups + 1 and members[0] == 0 == links[0]
            and members[-1] == len(a["ids"]) and links[-1] == len(older) == len(newer) == len(confidence)
            and bool(np.all(np.diff(members) >= 0)) and bool(np.all(np.diff(links) >= 0))
            and a["aligned"].shape[1:] == (2,) and bool(np.all(np.isfinite(confidence)))):
        raise ValueError("its arrays do not fit together")
    size = np.repeat(np.diff(members), np.diff(links))  # each link's group's size
    if len(older) and not (older.min() >= 0 and newer.min() >= 0 and bool(np.all(older < size))
                           and bool(np.all(newer < size))):
        raise ValueError("a link names no member of its group")
    ids = a["ids"].tolist()
    return RuleGroups(members=_Slices(ids.__getitem__, members.tolist()),
                      links=_Slices(lambda part: list(zip(older[part].tolist(), newer[part].tolist(),
                                                          confidence[part].tolist())), links.tolist()),
                      aligned=[tuple(pair) for pair in a["aligned"].tolist()])


class _Slices(Sequence):
    """Each group's part of one flat list (`item(slice(offsets[n], offsets[n + 1]))`),
    made when asked: a search asks for the few groups of the hits it shows, where making
    every group's list cost each process 0.03 s of CPU at 100 books. Equal to the list of
    its parts, as `RuleGroups` read from the JSON holds them."""

    def __init__(self, item: Callable[[slice], list], offsets: list[int]):
        self._item, self._offsets = item, offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, n):
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(len(self)))]
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(n)
        return self._item(slice(self._offsets[n], self._offsets[n + 1]))

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, _Slices)) and len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # as a list's


def _write_arrays(path: Path, groups: RuleGroups, source: str) -> None:
    import numpy as np

    sizes = [len(m) for m in groups.members]
    flat_links = [link for links in groups.links for link in links]
    arrays = {"source": np.array([source], dtype=str),
              "ids": np.array([pid for members in groups.members for pid in members], dtype=str),
              "member_offsets": np.cumsum([0, *sizes], dtype=np.int64),
              "link_offsets": np.cumsum([0, *(len(links) for links in groups.links)], dtype=np.int64),
              "link_older": np.array([link[0] for link in flat_links], dtype=np.int64),
              "link_newer": np.array([link[1] for link in flat_links], dtype=np.int64),
              "link_confidence": np.array([link[2] for link in flat_links], dtype=np.float64),
              "aligned": np.array([list(pair) for pair in groups.aligned], dtype=str).reshape(-1, 2)}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    cachefile.write_bytes(path, buffer.getvalue())


def counterpart_map(corpus: "Corpus") -> dict:
    """The rule groups of paragraphs (`RuleGroups`, as JSON): each group's members and
    the alignments' links between them, from which `ServedCounterparts` works out any
    member's counterparts."""
    from judge.compare.concordance import get_concordance

    concordance = get_concordance(corpus)
    members, links = [], []
    for group in concordance.groups():
        if not all(m in corpus.paragraphs for m in group.members):
            continue  # sections' groups (a group is of paragraphs or of sections)
        place = {m: n for n, m in enumerate(group.members)}
        members.append(list(group.members))
        links.append([[place[link.old], place[link.new], link.confidence] for link in group.links])
    aligned = sorted({(al.old_doc, al.new_doc) for al in concordance.alignments})
    return {"members": members, "links": links, "aligned": [list(pair) for pair in aligned]}


class ServedCounterparts(Generic[T]):
    """paragraph id -> its counterparts, newest edition first (then the most confident,
    then by id): `make(id, confidence)` of each, worked out from the stored groups the
    first time it is asked for and kept. The same answers as the concordance's
    (`Concordance.counterparts`, rounded to 3 places), paragraphs only."""

    def __init__(self, groups: RuleGroups, make: Callable[[str, float], T], edition_order: Callable[[str], int]):
        self._groups = groups
        self._make = make
        self._edition_order = edition_order
        self._group_of = {pid: n for n, members in enumerate(groups.members) for pid in members}
        self._aligned = {tuple(pair) for pair in groups.aligned} | {(b, a) for a, b in groups.aligned}
        self._adjacency: dict[int, dict[str, list[tuple[str, float]]]] = {}
        self._kept: Memo = Memo("search.counterparts", max(1, len(self._group_of)))

    def _links(self, number: int) -> dict[str, list[tuple[str, float]]]:
        """A group's members -> their direct links, most confident first, then by id."""
        found = self._adjacency.get(number)
        if found is None:
            members = self._groups.members[number]
            found = {}
            for a, b, confidence in self._groups.links[number]:
                found.setdefault(members[a], []).append((members[b], confidence))
                found.setdefault(members[b], []).append((members[a], confidence))
            for links in found.values():
                links.sort(key=lambda link: (-link[1], link[0]))
            self._adjacency[number] = found  # (two threads may both build it: the same value)
        return found

    def _sorted(self, found: list[tuple[str, float]]) -> tuple[T, ...]:
        found.sort(key=lambda item: (-self._edition_order(item[0]), -item[1], item[0]))
        return tuple(self._make(pid, confidence) for pid, confidence in found)

    def direct(self, pid: str) -> tuple[T, ...]:
        """Its counterparts in the editions aligned with its own (every one in the edition
        in force, to which each older edition is aligned), newest first."""
        number = self._group_of.get(pid)
        if number is None:
            return ()
        return self._sorted([(other, round(confidence, 3)) for other, confidence in self._links(number).get(pid, ())
                             if other != pid])

    def get(self, pid: str, default: tuple = ()) -> tuple[T, ...]:
        found = self._kept.recall(pid)
        if found is not None:
            return found
        number = self._group_of.get(pid)
        if number is None:
            return default
        links = self._links(number)
        if not links.get(pid):
            return default
        found = [(other, round(confidence, 3)) for other, confidence in links[pid]]
        found += composed_chains(pid, lambda node: links.get(node, ()), lambda a, b: (a, b) in self._aligned)
        counterparts = self._sorted([item for item in found if item[0] != pid])
        if not counterparts:
            return default
        return self._kept.remember(pid, counterparts)


def source_key() -> str:
    from judge.compare.terminology import terminology_file

    h = hashlib.sha256()
    for path in [*(_source_file(name) for name in SOURCES), terminology_file()]:
        h.update(path.name.encode())
        h.update(bytes_for_digest(path))
    return h.hexdigest()


def _source_file(module: str) -> Path:
    """Where a module's source is, found without importing it. A name in SOURCES that is no module is
    judge's own fault, said at once: read as missing, the key would stop following the code it names."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise RuntimeError(f"judge.search.counterparts.SOURCES names {module}, which is no module")
    return Path(spec.origin)
