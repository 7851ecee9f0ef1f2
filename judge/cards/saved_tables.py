"""The tables a question about cards is read with, saved beside the card base: the forms of the cards' names
(`judge.cards.mentions.NameForms`) and the rulings' index (`judge.cards.ruling_search.RulingIndex`).

Made from the card base, the corpus, the nicknames file and wordfreq's English word list, they cost ~0.9 s to
make and ~0.1 s to read: a process that answers one question (`judge search` in a shell) reads them. Each is a
file of the index directory (JSON through `judge.cachefile`: data only), keyed by the card base's digest (krcg's
files, the corpus, judge/cards' code), the nicknames file, the format and wordfreq's version; a file of other
sources is rebuilt, a damaged one logged and rebuilt, never trusted; a directory that cannot be written to
only costs the time.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import logging
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from judge import cachefile, paths
from judge.datafile import bytes_for_digest

if TYPE_CHECKING:
    from judge.cards.base import CardBase

FORMAT = 4  # 2: the name forms hold the rulebooks' words; 3: the ruling index holds what its hits show; 4: the name
# forms are parallel lists of strings
FORMS_FILE = "card-name-forms.json"
RULINGS_FILE = "ruling-index.json"
log = logging.getLogger(__name__)
T = TypeVar("T")


def _key(digest: Optional[str], corpus) -> Optional[str]:
    """What the tables are made from (the card base's `digest`, the corpus ...); None for a card base or corpus built
    without their caches (no digest): nothing is saved for them."""
    if not digest or not getattr(corpus, "digest", None):
        return None
    from judge.cards.nicknames import nicknames_file
    h = hashlib.sha256(f"{FORMAT}\0{digest}\0{corpus.digest}\0".encode())
    h.update(bytes_for_digest(nicknames_file()))
    try:
        h.update(importlib.metadata.version("wordfreq").encode())
    except importlib.metadata.PackageNotFoundError:
        pass
    return h.hexdigest()


def saved(name: str, base: "CardBase", corpus, what: str, make: Callable[[], T], to_data: Callable[[T], Any],
          from_data: Callable[[Any], T]) -> T:
    """The table `name` of `base` and `corpus`, read from the index directory when it was saved from the same
    sources, else made (`make`) and saved. `from_data` raises cachefile.Mismatch on data that does not check."""
    key = _key(base.digest, corpus)
    if key is None:
        return make()
    path = paths.index_dir() / name
    with cachefile.collector_paused():
        found = cachefile.read_cache(path, what, FORMAT, "key", key, lambda data: from_data(data.get("table")), log)
        if found is not None:
            return found
        made = make()
        cachefile.write_json(path, {"format": FORMAT, "key": key, "table": to_data(made)})
    return made


def read_saved(name: str, digest: str, corpus, what: str, from_data: Callable[[Any], T]) -> Optional[T]:
    """The table `name` saved for the card base of `digest` and `corpus`, without the card base: None when it is not
    there, is of other sources, or is damaged (logged). Never made here (`saved` makes it, with the card base)."""
    key = _key(digest, corpus)
    if key is None:
        return None
    with cachefile.collector_paused():
        return cachefile.read_cache(paths.index_dir() / name, what, FORMAT, "key", key,
                                    lambda data: from_data(data.get("table")), log)
