"""What a searcher works out per paragraph when it opens a build, saved beside the build.

Opening a build, a `Search` weighs every paragraph (its kind, edition, lore, what it
states), finds the paragraph in force standing for each older one and codes every
paragraph's document, kind and game: a pass over every paragraph and its
counterparts, 2.3 s of CPU at 100 books, done again by every `judge search`. The
result depends only on the build (its corpus and counterparts) and on the searcher's
code, so it is kept as numpy arrays in the build's directory
(`state-<code digest>.npz`, named by the code that computes it) and read back by the
next process.

The file is a cache: read without pickles, every array's kind and length checked
against the build, and a file that fails a check (or does not read) is logged and
computed again, never trusted. It is written whole and renamed (a reader sees all of
it or none), and it goes with its build when the build is removed.
"""
from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from judge import cachefile
from judge.search.passages import SectionTable

log = logging.getLogger(__name__)

PREFIX = "state-"
# The code whose changes change the arrays: the searcher's priors and intents, and how
# a paragraph's direct counterparts are worked out (its face in the book in force).
_CODE = ("searcher.py", "counterparts.py", "passages.py", "state.py")


@dataclass
class SearchState:
    """Per paragraph, by document number of the build (see `judge.search.searcher._Installed`)."""

    prior: np.ndarray  # float64
    definition_prior: np.ndarray  # float64
    term_prior: np.ndarray  # float64
    states: dict[str, np.ndarray]  # intent -> float64
    game_codes: np.ndarray  # intp: the game's place in `games`
    games: list[str]
    faces: np.ndarray  # int64: the document number of the paragraph in force standing for it, -1 for none
    facet_codes: dict[str, tuple[list[str], np.ndarray]]  # "doc"/"kind" -> (values, intp codes)
    sections: SectionTable  # each paragraph's section, the sections' titles' stems


@lru_cache(maxsize=1)
def code_digest() -> str:
    return cachefile.source_digest(Path(__file__).resolve().parent, _CODE)


def state_path(build_dir: Path) -> Path:
    return build_dir / f"{PREFIX}{code_digest()}.npz"


def build_key(build_dir: Path) -> str:
    """What the build in `build_dir` holds: the digest of its list of files and their digests
    (a build changed in place changes it)."""
    try:
        return hashlib.sha256(cachefile.read_built(build_dir / "contents.json")).hexdigest()
    except OSError:
        return ""


def load_or_compute(build_dir: Path, count: int, compute: Callable[[], SearchState]) -> SearchState:
    """The state saved for the build in `build_dir` (of `count` paragraphs) by this code;
    else `compute()`, saved there for the next process (silently not, when the directory
    cannot be written: that only costs time)."""
    path, key = state_path(build_dir), build_key(build_dir)
    state = _read(path, count, key) if key else None
    if state is None:
        state = compute()
        if key:
            _write(path, state, key)
    return state


def _read(path: Path, count: int, key: str) -> Optional[SearchState]:
    try:
        data = cachefile.read_built(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("the searcher's saved state %s cannot be read (%s); working it out again", path,
                    exc.strerror or exc)
        return None
    try:
        return _decode(data, count, key)
    except Exception as exc:  # noqa: BLE001 - whatever a damaged file raises: worked out again
        log.warning("the searcher's saved state %s is damaged (%s); working it out again", path, exc)
        return None


def _decode(data: bytes, count: int, key: str) -> Optional[SearchState]:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            a = {name: arrays[name] for name in arrays.files}
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise ValueError(f"not a saved state ({type(exc).__name__})") from None
    if "build" not in a or a["build"].shape != (1,) or a["build"].dtype.kind != "U":
        raise ValueError("it does not say which build it is of")
    if str(a["build"][0]) != key:
        return None  # of another build of the same name: worked out again, nothing is wrong
    if "intents" not in a or a["intents"].ndim != 1 or a["intents"].dtype.kind != "U":
        raise ValueError("no list of intents")
    intents = a["intents"].tolist()
    needed = {"prior": "f", "definition_prior": "f", "term_prior": "f", "game_codes": "i", "faces": "i",
              "games": "U", "doc_values": "U", "doc_codes": "i", "kind_values": "U", "kind_codes": "i",
              "section_ids": "U", "section_codes": "i", "section_in_force": "b", "section_title_stems": "U",
              **{f"state_{intent}": "f" for intent in intents}}
    for name, kind in needed.items():
        if name not in a or a[name].ndim != 1 or a[name].dtype.kind != kind:
            raise ValueError(f"no list {name} of the right kind")
    for name in needed:
        if a[name].dtype.kind in "fi" and not name.startswith("section_") and len(a[name]) != count:
            raise ValueError(f"{name} has {len(a[name])} entries for {count} paragraphs")
    for codes, values in (("game_codes", "games"), ("doc_codes", "doc_values"), ("kind_codes", "kind_values")):
        if count and not 0 <= a[codes].min() <= a[codes].max() < len(a[values]):
            raise ValueError(f"{codes} name values that are not there")
    sections = len(a["section_ids"])
    if len(a["section_codes"]) != count or len(a["section_in_force"]) != sections or \
            len(a["section_title_stems"]) != sections or \
            (count and not 0 <= a["section_codes"].min() <= a["section_codes"].max() < sections):
        raise ValueError("the sections do not fit the paragraphs")
    if count and not -1 <= a["faces"].min() <= a["faces"].max() < count:
        raise ValueError("faces name paragraphs that are not there")
    if not all(np.all(np.isfinite(a[name])) for name in needed if a[name].dtype.kind == "f"):
        raise ValueError("a weight is not a number")
    codes = lambda name: a[name].astype(np.intp)  # noqa: E731
    return SearchState(prior=a["prior"], definition_prior=a["definition_prior"], term_prior=a["term_prior"],
                       states={intent: a[f"state_{intent}"] for intent in intents},
                       game_codes=codes("game_codes"), games=a["games"].tolist(), faces=a["faces"].astype(np.int64),
                       facet_codes={"doc": (a["doc_values"].tolist(), codes("doc_codes")),
                                    "kind": (a["kind_values"].tolist(), codes("kind_codes"))},
                       sections=SectionTable(ids=a["section_ids"].tolist(),
                                             codes=a["section_codes"].astype(np.int64),
                                             in_force=a["section_in_force"],
                                             title_stems=a["section_title_stems"].tolist()))


def _write(path: Path, state: SearchState, key: str) -> None:
    arrays = {"build": np.array([key], dtype=str), "prior": state.prior, "definition_prior": state.definition_prior, "term_prior": state.term_prior,
              "game_codes": state.game_codes, "games": np.array(state.games, dtype=str), "faces": state.faces,
              "intents": np.array(list(state.states), dtype=str),
              **{f"state_{intent}": values for intent, values in state.states.items()},
              "section_ids": np.array(state.sections.ids, dtype=str), "section_codes": state.sections.codes,
              "section_in_force": state.sections.in_force,
              "section_title_stems": np.array(state.sections.title_stems, dtype=str)}
    for facet, (values, codes) in state.facet_codes.items():
        arrays[f"{facet}_values"] = np.array(values, dtype=str)
        arrays[f"{facet}_codes"] = codes
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    cachefile.write_bytes(path, buffer.getvalue())
