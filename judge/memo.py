"""`Kept`: a dict that empties itself when full, the memo of the searcher's hot paths.

A search asks for the same words, query leaves and postings again and again, so
their answers are kept; typed junk must not grow them without bound. Emptying
when full costs nothing on a look-up (a plain `dict.get`), where keeping a
least-recently-used order would cost on every one; the bounds are far above
what the books' vocabulary fills, so a memo is emptied rarely if ever.
"""
from __future__ import annotations

from typing import TypeVar

V = TypeVar("V")


class Kept(dict):
    """`found = memo.get(key)`; when None, `found = memo.keep(key, compute())`."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key, value: V) -> V:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
