"""Counterparts: which paragraphs are the same rule in another edition of their
book, so that search shows one hit with its counterparts beside it instead of
three near-identical hits.

The answer comes from the rule graph's concordance (`judge.compare.concordance`), which
aligns every two editions of a game by section number, title and normalised
text. This module only turns it into the map the index stores; replacing the
source of the grouping means replacing `counterpart_map` and `SOURCES`.
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.corpus import Corpus

# What the grouping depends on besides the corpus: hashed into the index key, so
# a change to the alignment rebuilds the index. Hashing the files (rather than
# asking the concordance for its key) keeps numpy out of a plain `judge search`.
SOURCES = ("judge.compare.concordance", "judge.compare.terminology")  # and the terminology map (`terminology_file`)


def counterpart_map(corpus: "Corpus") -> dict[str, list[tuple[str, float]]]:
    """paragraph id -> [(id, confidence)] of the same rule in the other editions,
    newest edition first. Paragraphs without counterparts are left out."""
    from judge.compare import concordance

    def newest_first(item: tuple[str, float]) -> tuple:
        doc = corpus.document_of(item[0])
        return (-(doc.meta.edition_order if doc else 0), -item[1], item[0])

    out = {}
    for pid in corpus.paragraphs:
        found = [(other, round(conf, 3)) for other, conf in concordance.counterparts(corpus, pid)
                 if other != pid and other in corpus.paragraphs]
        if found:
            out[pid] = sorted(found, key=newest_first)
    return out


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
