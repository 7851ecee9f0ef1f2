"""Build hook (hatchling): compiles judge/search/_speedups.c into the wheel.

judge.search._speedups holds compiled twins of pure functions a search page runs many
times (each held equal to its Python reference by tests/test_speedups.py). It
is compiled with setuptools' build_ext, which knows this Python's compiler,
flags and extension suffix. Where no C compiler works, the wheel is built
without it and judge runs the Python references, slower; the build says so.

An editable install (`pip install -e .`, as .ci/run does) puts the module
beside its source in judge/search/, where the checkout's package is imported from.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = "judge/search/_speedups.c"
MODULE = "judge.search._speedups"


class SpeedupsBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        self._scratch = Path(tempfile.mkdtemp(prefix="judge-speedups-"))  # until `finalize`
        try:
            built = _compile(root, self._scratch)
        except Exception as exc:  # no compiler, no Python headers: the wheel stays pure Python
            self.app.display_warning(f"{MODULE} not compiled ({type(exc).__name__}: {exc}); "
                                     "judge will run its Python code instead, slower")
            return
        if version == "editable":
            shutil.copy2(built, root / "judge" / "search" / built.name)
        else:
            build_data["force_include"][str(built)] = f"judge/search/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _compile(root: Path, scratch: Path) -> Path:
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    extension = Extension(MODULE, [str(root / SOURCE)])
    command = build_ext(Distribution({"name": "judge", "ext_modules": [extension]}))
    command.build_lib, command.build_temp = str(scratch / "lib"), str(scratch / "temp")
    command.ensure_finalized()
    command.run()
    return Path(command.get_ext_fullpath(MODULE))
