"""Read the YAML data files judge keeps (the manifest, synonyms, terminology):
one place that turns unreadable or malformed YAML into a SourceError naming
the file and the line."""
from __future__ import annotations

from pathlib import Path

import yaml

from judge.errors import SourceError


class LineLoader(yaml.SafeLoader):
    """A SafeLoader whose mappings remember their line as `__line__` (1-based)."""


def _construct_mapping(loader, node):
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path, what: str, with_lines: bool = False):
    """The parsed YAML of `path` and its text; `what` names the file in errors
    ("the search synonyms"). With `with_lines`, mappings carry `__line__`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SourceError(path.name, 0, f"{what}: no such file in {path.parent}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(path.name, 0, f"cannot read {what}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = yaml.load(text, Loader=LineLoader) if with_lines else yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(path.name, mark.line + 1 if mark else 0,
                          f"{what} is not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    return data, text


def line_of(text: str, needle: str) -> int:
    """The first line of `text` holding `needle` (0 when none): where to point an error."""
    for n, row in enumerate(text.splitlines(), 1):
        if needle in row:
            return n
    return 0
