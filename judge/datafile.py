"""Read the YAML data files judge keeps (the manifest, synonyms, terminology):
one place that turns unreadable or malformed YAML into a SourceError naming
the file and the line."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from judge.errors import SourceError


# PyYAML is imported when a file is parsed, not with this module: a search reads the
# synonyms as kept parsed (judge.search.synonyms) and needs no YAML.
@lru_cache(maxsize=1)
def _line_loader():
    """A SafeLoader whose mappings remember their line as `__line__` (1-based)."""
    import yaml

    class LineLoader(yaml.SafeLoader):
        pass

    def construct_mapping(loader, node):
        mapping = loader.construct_mapping(node, deep=True)
        mapping["__line__"] = node.start_mark.line + 1
        return mapping

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return LineLoader


def read_yaml(path: Path, what: str, with_lines: bool = False):
    """The parsed YAML of `path` and its text; `what` names the file in errors
    ("the search synonyms"). With `with_lines`, mappings carry `__line__`."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SourceError(path.name, 0, f"{what}: no such file in {path.parent}") from None
    except OSError as exc:
        raise SourceError(path.name, 0, f"cannot read {what}: {exc.strerror or exc}") from None
    return parse_yaml(data, path.name, what, with_lines)


def parse_yaml(data: bytes, name: str, what: str, with_lines: bool = False):
    """`read_yaml` on the bytes of file `name` already read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SourceError(name, line, f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                                      f"{exc.start}); is this a binary file?") from None
    import yaml

    try:
        parsed = yaml.load(text, Loader=_line_loader()) if with_lines else yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(name, mark.line + 1 if mark else 0,
                          f"{what} is not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise SourceError(name, 0, f"{what} is not valid YAML: nested too deep") from None
    return parsed, text


def line_of(text: str, needle: str) -> int:
    """The first line of `text` holding `needle` (0 when none): where to point an error."""
    for n, row in enumerate(text.splitlines(), 1):
        if needle in row:
            return n
    return 0


def key_line(text: str, key: str) -> int:
    """The line of top-level key `key:` in YAML `text` (0 when absent); comments
    mentioning the key do not count."""
    for n, row in enumerate(text.splitlines(), 1):
        if row.startswith(f"{key}:"):
            return n
    return 0
