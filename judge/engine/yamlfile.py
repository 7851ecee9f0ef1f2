"""Reading a scenario's YAML: the data, the line of every value, and errors worded for people.

A scenario may come from anyone (the web app's /check and /api/check load pasted text through
here), so two YAML features are refused before anything is built from the text:

* aliases (`*name`): nested anchors and aliases ("billion laughs") make a few hundred bytes
  expand into millions of values; a scenario never needs them;
* nesting deeper than `MAX_DEPTH`: the C composer recurses once per level and can exhaust
  the stack (a crash, not an exception) on text like `[[[[...]]]]`.

Both are found by one pass over libyaml's event stream, which is iterative and cheap (well under
a millisecond for a large scenario), and reported as malformed-scenario errors at their line.
"""
from __future__ import annotations

from typing import Any, Optional

import yaml

from judge.engine.errors import ScenarioError

MAX_DEPTH = 24  # a scenario nests about 6 deep (expect > older > refused > cites > list)

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Lines:
    """The source line of every value in the document, by its path."""

    def __init__(self):
        self.by_path: dict[tuple, int] = {}
        self.key_lines: dict[tuple, int] = {}

    def of(self, path: tuple) -> Optional[int]:
        path = tuple(path)
        while path:
            if path in self.by_path:
                return self.by_path[path]
            path = path[:-1]
        return self.by_path.get((), None)

    def key(self, path: tuple) -> Optional[int]:
        """The line of a mapping key (where an unexpected key is), else of its value."""
        return self.key_lines.get(tuple(path)) or self.of(path)


def read_yaml(text: str) -> tuple[Any, Lines]:
    """The document and its lines; ScenarioError (with the line) for anything that is not a plain YAML document."""
    _check_structure(text)
    lines = Lines()
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError("the scenario is empty; expected a mapping with players, turn, phase and events", 1)
        _record_lines(node, (), lines)
        data = loader.construct_document(node)  # from the same nodes: the text is parsed once
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return data, lines


def _check_structure(text: str) -> None:
    """Refuse aliases and deep nesting, from the event stream (see the module's docstring)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ScenarioError(_too_deep(), event.start_mark.line + 1)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.AliasEvent):
                raise ScenarioError(f"YAML aliases (*{event.anchor}) are not allowed in a scenario: write the value "
                                    f"out where it is used", event.start_mark.line + 1)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}") from None


def _too_deep() -> str:
    return f"the YAML is nested more than {MAX_DEPTH} levels deep here; a scenario needs only a few levels"


def _record_lines(node: yaml.Node, path: tuple, lines: Lines) -> None:
    lines.by_path[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                raise ScenarioError(f"duplicate key {key!r} (first on line {seen[key]})", key_node.start_mark.line + 1)
            seen[key] = key_node.start_mark.line + 1
            lines.key_lines[path + (key,)] = key_node.start_mark.line + 1
            _record_lines(value_node, path + (key,), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _record_lines(item, path + (i,), lines)


# Where libyaml notices an error is often past the mistake: an unclosed "[" is noticed on the
# next line. For these contexts the error is reported where the construct began.
_OPENED = {
    "while parsing a flow sequence": "the list opened with '[' on this line is not closed",
    "while parsing a flow mapping": "the mapping opened with '{' on this line is not closed",
    "while scanning a quoted scalar": "the quoted text that begins on this line is not closed",
}


def _yaml_error(exc: yaml.MarkedYAMLError, text: str) -> ScenarioError:
    problem, context = exc.problem or "", exc.context or ""
    pm, cm = exc.problem_mark, exc.context_mark
    if context in _OPENED and cm is not None:
        found = f"; the YAML reader {problem} at line {pm.line + 1}" if pm is not None and problem else ""
        return ScenarioError(f"not valid YAML: {_OPENED[context]}{found}", cm.line + 1)
    mark = pm or cm
    line = mark.line + 1 if mark else None
    if "nesting depth" in problem:
        # libyaml's own nesting limit (PyYAML >= 6.0.3) can stop the reader before `_check_structure`
        # reaches MAX_DEPTH: the same refusal, in the same words.
        return ScenarioError(_too_deep(), line)
    if mark is not None and "cannot start any token" in problem and _char_at(text, mark) == "\t":
        return ScenarioError("not valid YAML: a tab character; YAML indents with spaces only", line)
    if "mapping values are not allowed" in problem:
        return ScenarioError("not valid YAML: an unexpected ':' (a value with ': ' inside it needs quotes, e.g. "
                             "\"Belinde plays an action modifier: +1 bleed\"; or the indentation is wrong)", line)
    if "could not determine a constructor" in problem:
        return ScenarioError("not valid YAML for a scenario: tags (!!...) are not allowed", line)
    if "did not find expected key" in problem or "did not find expected '-' indicator" in problem:
        return ScenarioError(f"not valid YAML: {problem} (check the indentation of this line)", line)
    return ScenarioError(f"not valid YAML: {problem or context}", line)


def _char_at(text: str, mark) -> str:
    lines = text.splitlines()
    if 0 <= mark.line < len(lines) and 0 <= mark.column < len(lines[mark.line]):
        return lines[mark.line][mark.column]
    return ""
