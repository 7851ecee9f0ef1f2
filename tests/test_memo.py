"""judge.memo: the one way judge keeps answers for the process, bounded and named."""
from __future__ import annotations

import threading

import pytest

from judge import memo
from judge.memo import Memo, memoised


def test_a_memo_recalls_what_it_remembered_and_nothing_else():
    kept = Memo("test.recall", 10)
    assert kept.recall("a") is None
    assert kept.remember("a", [1]) == [1]
    assert kept.recall("a") == [1] and kept.recall("b") is None
    calls = []
    assert kept.recall_or_compute("b", lambda: calls.append(1) or "B") == "B"
    assert kept.recall_or_compute("b", lambda: calls.append(1) or "other") == "B" and calls == [1]


def test_a_full_memo_drops_its_oldest_entry_and_stays_within_its_limit():
    kept = Memo("test.bounded", 3)
    for n in range(10):
        kept.remember(n, str(n))
        assert len(kept) <= 3
    assert [kept.recall(n) for n in range(10)] == [None] * 7 + ["7", "8", "9"]
    kept.remember(8, "eight")  # a key kept already takes no other entry's place
    assert [kept.recall(n) for n in (7, 8, 9)] == ["7", "eight", "9"]


def test_none_cannot_be_remembered_and_a_memo_keeps_something():
    with pytest.raises(ValueError, match="None"):
        Memo("test.none", 2).remember("a", None)
    with pytest.raises(ValueError, match="keeps nothing"):
        Memo("test.empty", 0)


def test_statistics_name_every_memo_with_its_size_limit_and_misses():
    kept = Memo("test.statistics", 5)
    for key in "abcab":
        kept.recall_or_compute(key, lambda: key.upper())

    @memoised("test.function", 4)
    def double(x: int) -> int:
        return 2 * x

    for x in (1, 2, 1, 3):
        double(x)
    found = memo.statistics()
    assert found["test.statistics"] == {"entries": 3, "limit": 5, "misses": 3}
    assert found["test.function"] == {"entries": 3, "limit": 4, "misses": 3}
    memo.forget_all()
    assert kept.recall("a") is None and memo.statistics()["test.function"]["entries"] == 0


def test_threads_share_a_memo_without_losing_its_bound():
    kept = Memo("test.threads", 50)
    errors = []

    def fill(offset: int) -> None:
        try:
            for n in range(2000):
                key = (offset + n) % 300
                value = kept.recall_or_compute(key, lambda: key * 2)
                assert value == key * 2
        except Exception as exc:  # noqa: BLE001 - any failure is what this test looks for
            errors.append(exc)

    threads = [threading.Thread(target=fill, args=(k * 37,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(kept) <= 50
