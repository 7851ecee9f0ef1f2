"""Rulings as evidence (issue 36): the words of each ruling that cites the rulebook, added to the rule it
cites as a weak field of the paragraph, the way the text of a link tells a search engine what the page it
links to is about.

A ruling's reference to the rulebook (krcg's rulings database, read by `judge.cards`) resolves to a
paragraph, or to a section when the ruling's words pick none of its paragraphs (`CardBase.by_citation`).
The ruling's own words (its text without the card names' markup and its sources) go to that paragraph's
`rulings` field; for a section, to each of its own paragraphs. A question judges ask about a ruling's case
then finds the rule the ruling applied, in the ruling's words.

The card base is the process's (`judge.cards.load.get_cards`, built from its cache in the index folder);
when the card data cannot be read the field is left empty and a warning says why: the rules are searched
as before. What the field is made from is in the build's key (`evidence_key`): the card data files (names,
sizes and times: hashing their 3 MB cost every process 0.06 s), judge's card code and rule templates.
"""
from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.model import Corpus

log = logging.getLogger(__name__)

# Rulings left out of the field: for bench/search_quality.py's held-out folds only (a ruling's own words
# would otherwise find the rule it cites trivially). Always empty in use.
LEFT_OUT: frozenset[str] = frozenset()

_FOUND: dict[tuple, dict[str, list[str]]] = {}


def evidence_key() -> str:
    """What the rulings field is made from, as a digest (see the module)."""
    from judge.cards import source
    from judge.cards.load import hash_card_code

    h = hashlib.sha256(",".join(sorted(LEFT_OUT)).encode())
    folder = source.default_folder()
    h.update(str(folder).encode())
    for name in source.FILES:
        try:
            stat = (folder / name).stat() if folder is not None else None
        except OSError:
            stat = None
        h.update(f"{name}:{stat.st_size if stat else -1}:{stat.st_mtime_ns if stat else -1}\0".encode())
    hash_card_code(h)
    return h.hexdigest()


def ruling_evidence(corpus: "Corpus") -> dict[str, list[str]]:
    """Paragraph ID -> the own words of the rulings citing it (or its section), in the card base's order.
    Read once per corpus and card data; empty, with a warning, when the card data cannot be read."""
    key = (corpus.digest or str(id(corpus)), evidence_key())
    found = _FOUND.get(key)
    if found is None:
        _FOUND.clear()
        found = _FOUND[key] = _read(corpus)
    return found


def _read(corpus: "Corpus") -> dict[str, list[str]]:
    from judge.cards.load import get_cards
    from judge.errors import JudgeError

    try:
        base = get_cards(corpus)
    except (JudgeError, OSError, ValueError) as exc:
        log.warning("the rulings are not searched as evidence of the rules they cite: %s", exc)
        return {}
    if not base.rulings:
        why = next((p.message for p in base.problems), "the card data holds no ruling")
        log.warning("the rulings are not searched as evidence of the rules they cite: %s", why)
        return {}
    out: dict[str, list[str]] = {}
    for target, ruling_ids in base.by_citation.items():
        if target in corpus.paragraphs:
            pids = [target]
        elif target in corpus.sections:
            pids = [p.id for p in corpus.paragraphs_of(target, deep=False)]
        else:
            continue
        for rid in ruling_ids:
            if rid in LEFT_OUT or rid not in base.rulings:
                continue
            words = base.rulings[rid].own_words
            for pid in pids:
                kept = out.setdefault(pid, [])
                if words not in kept:
                    kept.append(words)
    return out
