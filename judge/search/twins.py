"""Which of each compiled twin judge runs: the compiled function from
judge.search._speedups (C, built with the package where a C compiler was at
hand) or its Python reference, which gives the same answers, slower.

The references run where the module was not built, and wherever the environment
sets JUDGE_PURE_PYTHON=1: the tests run the search that way too, so that the
pure-Python path a machine without a compiler takes is the one tested.
"""
from __future__ import annotations

import importlib
import os
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

PURE_PYTHON_VARIABLE = "JUDGE_PURE_PYTHON"
COMPILED_MODULE = "judge.search._speedups"

_running: dict[str, str] = {}  # twin name -> "compiled" or "python"


def pure_python() -> bool:
    """Whether the environment asks judge to ignore the compiled module."""
    return os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0")


def choose(name: str, reference: F) -> F:
    """The compiled twin `name` of `reference`, or `reference` itself where the module
    was not built or JUDGE_PURE_PYTHON=1."""
    compiled = None
    if not pure_python():
        try:  # (imported by name: the extension module is no Python source of judge's)
            compiled = getattr(importlib.import_module(COMPILED_MODULE), name)
        except ImportError:
            pass
    _running[name] = "python" if compiled is None else "compiled"
    return reference if compiled is None else compiled


def running() -> dict[str, str]:
    """{twin name: "compiled" or "python"}: what this process runs."""
    return dict(_running)
