"""Shared by the bench scripts: repeated timing and percentiles.

Figures are medians and percentiles over repeated runs, printed beside a
baseline measured in the same run: the machines are noisy, ratios less so.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

# Let each script run from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def timed(fn, runs: int) -> list[float]:
    """Seconds taken by each of `runs` calls of fn()."""
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank q-quantile (q in 0..1) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
