"""Where the card lists and the rulings database are read from, and their digest.

They are the data files of the `krcg` package (its top-level package `cards`),
read where pip installed them; nothing of them is copied into judge. A folder
holding the same files can stand in for them (`data_dir`, or the environment
variable JUDGE_CARDS_DIR): tests point it at a modified copy.
"""
from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from judge.cards.model import Problem
from judge.datafile import read_regular
from judge.errors import SourceError

ENV_VAR = "JUDGE_CARDS_DIR"
PACKAGE = "cards"  # krcg's data package

CRYPT_FILE = "vtescrypt.csv"
LIBRARY_FILE = "vteslib.csv"
LIBRARY_META_FILE = "vteslibmeta.csv"
SETS_FILE = "vtessets.csv"
RULINGS_FILE = "rulings.yaml"
REFERENCES_FILE = "references.yaml"
GROUPS_FILE = "groups.yaml"
# The card data's files are 0.01-0.9 MB (krcg 4.19): 32 MB bounds a list many times the size of today's.
MAX_CARD_FILE_BYTES = 32 * 1024 * 1024
FILES = (CRYPT_FILE, LIBRARY_FILE, LIBRARY_META_FILE, SETS_FILE, RULINGS_FILE, REFERENCES_FILE, GROUPS_FILE)


@dataclass
class DataFiles:
    """The bytes of every data file that could be read, and what could not."""

    folder: Optional[Path]
    contents: dict[str, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for name in FILES:
            data = self.contents.get(name)
            h.update(name.encode() + b"\0" + (data if data is not None else b"<missing>") + b"\0")
        return h.hexdigest()

    def text(self, name: str) -> Optional[str]:
        """The file as text (UTF-8, a byte-order mark dropped); None, with a problem
        recorded, when it is missing or not UTF-8."""
        data = self.contents.get(name)
        if data is None:
            return None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            self.problems.append(Problem(name, line, "unreadable", f"not UTF-8 text (byte 0x{data[exc.start]:02x} "
                                                                   f"at offset {exc.start}); nothing of it is loaded"))
            del self.contents[name]
            return None


def default_folder() -> Optional[Path]:
    """JUDGE_CARDS_DIR, or the installed krcg data package; None when neither is there."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    if importlib.util.find_spec(PACKAGE) is None:
        return None
    found = importlib.resources.files(PACKAGE)
    return found if isinstance(found, Path) else Path(str(found))


def read_files(folder: Optional[Path] = None) -> DataFiles:
    folder = Path(folder) if folder is not None else default_folder()
    files = DataFiles(folder)
    if folder is None:
        files.problems.append(Problem("", 0, "unreadable", f"the card data is not installed (the Python package "
                                                           f"'{PACKAGE}' of krcg); reinstall judge, or set {ENV_VAR}"))
        return files
    for name in FILES:
        try:
            files.contents[name] = read_regular(folder / name, "the card data", MAX_CARD_FILE_BYTES)
        except SourceError as exc:
            files.problems.append(Problem(name, 0, "unreadable", exc.message))
    return files
