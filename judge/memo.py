"""Memos: answers computed once and kept for the process, each bounded and named.

Every answer judge keeps in memory to avoid computing it again is kept in a
`Memo` (or, for a pure function, by `memoised`): bounded, so that typed junk
cannot grow a server without end; named, so that `statistics()` can say what
each keeps, and docs/performance.md what each keys on and why that key cannot
go stale.

    found = memo.recall(key)              # None when nothing is kept for key
    if found is None:
        found = memo.remember(key, compute(key))

    found = memo.recall_or_compute(key, lambda: compute(key))   # the same, in one call

The two-step form is for hot paths, where building a closure for every call
would cost more than the look-up: `recall` is the dict's own `get`. A memo
never keeps None (that is what `recall` answers for "not kept").

When a memo is full, remembering drops its oldest entry: no recency is kept up
on look-ups (which would cost on every one), and the bounds are set well above
what the corpus fills, so a running server drops entries rarely if ever.
Memos are safe to share between threads: a look-up is one dict read, and
remembering holds the memo's lock; two threads missing the same key at once
both compute it, and the second answer is kept.
"""
from __future__ import annotations

import functools
import threading
import weakref
from typing import Callable, Generic, Hashable, Optional, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable)

_memos: "weakref.WeakSet[Memo]" = weakref.WeakSet()  # every memo alive, for `statistics`
_functions: dict[str, Callable] = {}  # name -> function wrapped by `memoised`


class Memo(Generic[K, V]):
    """Values by key, at most `limit` of them; see the module's docstring."""

    __slots__ = ("name", "limit", "misses", "recall", "_values", "_lock", "__weakref__")

    def __init__(self, name: str, limit: int):
        if limit < 1:
            raise ValueError(f"memo {name}: a limit of {limit} keeps nothing")
        self.name = name
        self.limit = limit
        self.misses = 0  # values remembered: each a look-up that found nothing
        self._values: dict = {}
        self._lock = threading.Lock()
        # recall(key) -> the value kept for key, or None (the dict's own `get`: one C call).
        self.recall: Callable[[K], Optional[V]] = self._values.get
        _memos.add(self)

    def remember(self, key: K, value: V) -> V:
        """Keep `value` for `key` (dropping the oldest entry when full) and return it."""
        if value is None:
            raise ValueError(f"memo {self.name}: None cannot be remembered (it means 'not kept')")
        with self._lock:
            self.misses += 1
            values = self._values
            if len(values) >= self.limit and key not in values:
                del values[next(iter(values))]
            values[key] = value
        return value

    def recall_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept for `key`, else `compute()` remembered."""
        found = self._values.get(key)
        if found is None:
            found = self.remember(key, compute())
        return found

    def forget(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"<Memo {self.name}: {len(self._values)} of {self.limit}, {self.misses} misses>"


def memoised(name: str, limit: int) -> Callable[[F], F]:
    """A pure function of hashable arguments, its answers kept as a memo named
    `name` would keep them (at most `limit`; the least recently used dropped).
    functools.lru_cache underneath: its look-up runs in C, the cheapest for the
    small functions a query calls word by word."""
    def wrap(function: F) -> F:
        kept = functools.lru_cache(maxsize=limit)(function)
        _functions[name] = kept
        return kept  # type: ignore[return-value]
    return wrap


def forget_all() -> None:
    """Empty every memo and `memoised` function: the process then computes every
    answer afresh, as a new one would (for tests and benches)."""
    for memo in list(_memos):
        memo.forget()
    for function in _functions.values():
        function.cache_clear()


def statistics() -> dict[str, dict[str, int]]:
    """{memo name: {"entries", "limit", "misses"}} over every memo alive (memos of
    one name, such as each build's, summed) and every `memoised` function."""
    out: dict[str, dict[str, int]] = {}
    for memo in list(_memos):
        found = out.setdefault(memo.name, {"entries": 0, "limit": 0, "misses": 0})
        found["entries"] += len(memo)
        found["limit"] += memo.limit
        found["misses"] += memo.misses
    for name, function in _functions.items():
        info = function.cache_info()
        out[name] = {"entries": info.currsize, "limit": info.maxsize, "misses": info.misses}
    return out
