"""A build checked once: which files were checked, as the file system knows them.

Opening a build reads every file, hashes it against `contents.json` and checks the
shape of every table (`judge.search.index.open_built`): at 100 books 54 MB and about
0.15 s of CPU, paid again by every `judge search`. Once a process has checked a build
in full it writes `sealed.json` beside the files: the checking code's digest, the
corpus it was checked against (when it was), and each file's identity as `os.stat`
gives it (device, inode, size, modification and change times in nanoseconds). A later
open by the same code whose files all stat the same trusts that check: it still reads
every file whole (so that nothing changed on disk later reaches its searches) but skips
the hashes, the scans of the tables and the comparison with the corpus's paragraphs.

Why the stat is enough: a file written, truncated, renamed over, copied elsewhere or
merely touched has another change time (ctime, which no system call sets back) or
another inode, so it is checked again in full, and sealed again. What a seal does not
see is damage beneath the file system after the check (a disk's bit rot); a copied or
rebuilt build is checked afresh. The seal is written whole and renamed, never trusted
when it does not read or parse (the build is then checked as if unsealed), and not
written at all where the directory is read-only (each open then checks in full, as
before: that costs time, nothing else).
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

from judge import cachefile

SEAL_FILE = "sealed.json"
# The code whose checks a seal vouches for: opening a build (index.py), the posting
# table's and the rule groups' checks.
_CHECKING_CODE = ("index.py", "postings.py", "counterparts.py", "sealed.py")


@lru_cache(maxsize=1)
def checking_code() -> str:
    return cachefile.source_digest(Path(__file__).resolve().parent, _CHECKING_CODE)


def _identity(path: Path) -> list[int]:
    st = os.stat(path)
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def identities(build_dir: Path, names: Iterable[str]) -> dict[str, list[int]]:
    """Each file's identity now; OSError when one cannot be stat-ed."""
    return {name: _identity(build_dir / name) for name in names}


def read(build_dir: Path, names: Iterable[str]) -> Optional[dict]:
    """The seal of the build in `build_dir` when this code wrote it and every file of
    `names` is as it was checked: {"corpus": the corpus key it was checked against, or
    None; "files": their identities}. None when there is no such seal (the build must be
    checked in full)."""
    try:
        seal = json.loads(cachefile.read_built(build_dir / SEAL_FILE))
        names = sorted(names)
        if not (isinstance(seal, dict) and seal.get("code") == checking_code()
                and isinstance(seal.get("files"), dict) and sorted(seal["files"]) == names):
            return None
        if identities(build_dir, names) != seal["files"]:
            return None
    except Exception:  # noqa: BLE001 - no seal, unreadable, not a file, not JSON, nested too deep; a file gone
        return None
    corpus = seal.get("corpus")
    return {"corpus": corpus if isinstance(corpus, str) else None, "files": seal["files"]}


def write(build_dir: Path, checked: dict[str, list[int]], corpus: Optional[str]) -> None:
    """Seal the build in `build_dir`, whose files this process has just checked in full
    (against the corpus of key `corpus`, when given); `checked` are their identities taken
    before they were read. Nothing when a file changed since (it is not what was checked)
    or the directory cannot be written."""
    try:
        if identities(build_dir, checked) != checked:
            return
    except OSError:
        return
    cachefile.write_json(build_dir / SEAL_FILE,
                         {"code": checking_code(), "corpus": corpus, "files": dict(sorted(checked.items()))})
