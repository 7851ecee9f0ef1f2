"""Where judge finds its corpus and templates, and where it writes built artifacts.

From a checkout, the top-level `rules/`, `templates/` and `index/` folders are
used. An installed wheel carries `rules/` and `templates/` inside the package
(`judge/_bundled/`) and writes artifacts to the per-user cache directory.
`JUDGE_RULES_DIR` and `JUDGE_INDEX_DIR` override both, and `JUDGE_DATA_DIR`
the folder of judge's data files, judge/data (tests use them).
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from judge.errors import SourceError

PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT = PACKAGE_DIR.parent
_BUNDLED = PACKAGE_DIR / "_bundled"


def _in_checkout() -> bool:
    # Not the manifest: a checkout whose manifest was deleted is still a checkout,
    # and is told so (`rules_dir`), rather than served the wheel's copy.
    return (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "rules").is_dir()


def rules_dir() -> Path:
    if os.environ.get("JUDGE_RULES_DIR"):
        path = Path(os.environ["JUDGE_RULES_DIR"])
        if not path.is_dir():
            raise SourceError(str(path), 0, "JUDGE_RULES_DIR is not a directory")
        return path
    path = _CHECKOUT / "rules" if _in_checkout() else _BUNDLED / "rules"
    if not path.is_dir():
        raise SourceError(str(path), 0, "the rulebooks' folder is missing; reinstall judge, or set "
                                        "JUDGE_RULES_DIR to a folder holding manifest.yaml and the books")
    return path


def data_dir() -> Path:
    """The folder of synonyms.yaml and terminology.yaml."""
    return Path(os.environ["JUDGE_DATA_DIR"]) if os.environ.get("JUDGE_DATA_DIR") else PACKAGE_DIR / "data"


def templates_dir() -> Path:
    return _CHECKOUT / "templates" if _in_checkout() else _BUNDLED / "templates"


# The file in the index directory naming the search build in use (judge.search.index):
# here, so that a caller can see whether there is one without importing the search.
SEARCH_POINTER = "search-current"


def index_dir() -> Path:
    if os.environ.get("JUDGE_INDEX_DIR"):
        path = Path(os.environ["JUDGE_INDEX_DIR"])
    elif _in_checkout():
        path = _CHECKOUT / "index"
    else:
        path = Path(platformdirs.user_cache_dir("judge"))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceError(str(path), 0, f"cannot use it to store built artifacts ({exc.strerror}); "
                                        "set JUDGE_INDEX_DIR to a writable directory") from None
    return path
