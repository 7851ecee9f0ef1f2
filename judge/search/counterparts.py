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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Generic, Optional, TypeVar

from judge.compare.chains import composed_chains
from judge.memo import Memo

if TYPE_CHECKING:
    from judge.corpus import Corpus

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
        seen: set[str] = set()
        for members, links in zip(self.members, self.links):
            if any(pid not in paragraph_ids or pid in seen for pid in members) or len(set(members)) != len(members):
                return "it names paragraphs this corpus does not have, or one twice"
            seen.update(members)
            if any(not (0 <= a < len(members) and 0 <= b < len(members)) for a, b, _ in links):
                return "a link names no member of its group"
        return None


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
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()


def _source_file(module: str) -> Path:
    """Where a module's source is, found without importing it. A name in SOURCES that is no module is
    judge's own fault, said at once: read as missing, the key would stop following the code it names."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise RuntimeError(f"judge.search.counterparts.SOURCES names {module}, which is no module")
    return Path(spec.origin)
