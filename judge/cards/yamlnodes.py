"""The top-level entries of krcg's YAML files, each with its line, read safely.

The files are composed into nodes (never constructed into objects), so every
entry and every scalar keeps its line for error messages. A file that does not
parse is read again entry by entry (an entry is a line starting in column 0 and
the indented lines under it): a YAML error then costs only the entries it is
in, each reported with its line, and the rest of the file loads.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import yaml

from judge.cards.model import Problem

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: ~10x faster
_NULL = "tag:yaml.org,2002:null"
_TOP_LEVEL = re.compile(r"^[^\s#-]|^-[^-]")  # an entry's first line (not a comment, not the '---' marker)


@dataclass
class Entry:
    key: str
    line: int  # 1-based line of the key
    value: yaml.Node


def scalar(node: Optional[yaml.Node]) -> Optional[str]:
    """A scalar node's text; None for a YAML null or a node that is not a scalar."""
    if not isinstance(node, yaml.ScalarNode) or (node.tag == _NULL and node.value in ("", "~", "null", "Null", "NULL")):
        return None
    return node.value


def line_of(node: yaml.Node, offset: int = 0) -> int:
    return node.start_mark.line + 1 + offset


def top_entries(text: str, name: str, problems: list[Problem]) -> list[Entry]:
    """The entries of the mapping `text` holds, in file order (duplicate keys kept:
    the caller decides). Problems go to `problems`."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        return _salvage(text, name, problems, exc)
    except RecursionError:
        problems.append(Problem(name, 0, "yaml", "not valid YAML: nested too deep; nothing of it is loaded"))
        return []
    if root is None:
        return []
    if not isinstance(root, yaml.MappingNode):
        problems.append(Problem(name, line_of(root), "bad-entry", "the file is not a mapping of entries; "
                                                                 "nothing of it is loaded"))
        return []
    return _entries_of(root, 0, name, problems)


def _entries_of(root: yaml.MappingNode, offset: int, name: str, problems: list[Problem]) -> list[Entry]:
    out = []
    for key_node, value in root.value:
        key = scalar(key_node)
        if key is None:
            problems.append(Problem(name, line_of(key_node, offset), "bad-entry", "an entry whose key is not text"))
            continue
        out.append(Entry(key.strip(), line_of(key_node, offset), _shifted(value, offset)))
    return out


def _shifted(node: yaml.Node, offset: int) -> yaml.Node:
    """`node` with every mark moved down `offset` lines (an entry parsed on its own)."""
    if offset:
        todo, seen = [node], set()
        while todo:
            n = todo.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            n.start_mark = _Mark(n.start_mark.line + offset)
            if isinstance(n, yaml.MappingNode):
                todo.extend(x for pair in n.value for x in pair)
            elif isinstance(n, yaml.SequenceNode):
                todo.extend(n.value)
    return node


@dataclass
class _Mark:
    line: int


def _error_line(exc: yaml.YAMLError, offset: int = 0) -> int:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 1 + offset if mark else 0


def _error_text(exc: yaml.YAMLError) -> str:
    return str(getattr(exc, "problem", None) or exc).strip()


def _salvage(text: str, name: str, problems: list[Problem], whole: yaml.YAMLError) -> list[Entry]:
    lines = text.splitlines(keepends=True)
    starts = [n for n, row in enumerate(lines) if _TOP_LEVEL.match(row)]
    out, failed = [], 0
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        block = "".join(lines[start:end])
        try:
            root = yaml.compose(block, Loader=_Loader)
        except (yaml.YAMLError, RecursionError) as exc:
            failed += 1
            key = lines[start].split(":", 1)[0].strip()
            line = _error_line(exc, start) if isinstance(exc, yaml.YAMLError) else start + 1
            why = _error_text(exc) if isinstance(exc, yaml.YAMLError) else "nested too deep"
            problems.append(Problem(name, line, "yaml", f"not valid YAML ({why}): the entry '{key[:80]}' at line "
                                                        f"{start + 1} is not loaded", key[:80]))
            continue
        if isinstance(root, yaml.MappingNode):
            out.extend(_entries_of(root, start, name, problems))
        elif root is not None:
            failed += 1
            problems.append(Problem(name, start + 1, "bad-entry", "a line that starts no 'key: value' entry"))
    if not failed:  # the error spans entries: say so, as the parser did
        problems.append(Problem(name, _error_line(whole), "yaml", f"not valid YAML: {_error_text(whole)}"))
    return out
