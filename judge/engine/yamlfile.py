"""Reading a scenario's YAML: the data, the line of every value, and errors worded for people.

A scenario may come from anyone (the web app's /check and /api/check load pasted text through
here), so two YAML features are refused before anything is built from the text:

* aliases (`*name`): nested anchors and aliases ("billion laughs") make a few hundred bytes
  expand into millions of values; a scenario never needs them;
* nesting deeper than `MAX_DEPTH`: the C composer recurses once per level and can exhaust
  the stack (a crash, not an exception) on text like `[[[[...]]]]`.

Both are found by one pass over libyaml's event stream, which is iterative and cheap beside building
the values (bench/engine_replay.py's "guard scan"), and reported as malformed-scenario errors at their line. The same
pass refuses tags (`!!binary`, `!!set`, `!!python/...`: values no scenario needs and a JSON report cannot
hold) and counts the values against `limits.values`.

Then every node is checked before it becomes a value (`_Walk`), so that a scenario is plain data
of bounded size: a mapping's keys are plain scalars (a list or mapping as a key, `? [x, y]`, has no
meaning in a scenario and cannot be a Python dict's key); numbers are finite and within
±limits.NUMBER_BOUND (a 5,000-digit integer cannot even be converted, and an integer above ~1e308
cannot be compared with a float); text values are at most limits.TEXT_CHARS characters. What YAML
would read as a date or a merge key (`2024-05-01`, `<<`) is read as the text written.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import yaml

from judge.engine import limits as L
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


def decoded(data: bytes) -> str:
    """A scenario's bytes as text; ScenarioError naming the line and column of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ScenarioError(f"the text is not UTF-8 (byte 0x{data[exc.start]:02x} at column {column}); save the "
                            f"scenario as UTF-8 text", line) from None


def read_yaml(text: str, limits: L.Limits = L.DEFAULT) -> tuple[Any, Lines]:
    """The document and its lines; ScenarioError (with the line) for anything that is not a plain YAML document,
    OverLimit for one of more than `limits.values` values. A JSON text is read as the JSON it is (its escaped
    characters beyond U+FFFF included: `json_escapes_joined`)."""
    text = json_escapes_joined(text)
    check_structure(text, limits)
    lines = Lines()
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError("the scenario is empty; expected a mapping with players, turn, phase and events", 1)
        _Walk(loader, lines).node(node, ())
        data = loader.construct_document(node)  # from the same nodes: the text is parsed once
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return data, lines


def read_value(text: str, limits: L.Limits = L.DEFAULT) -> Any:
    """One value written in YAML or JSON (`{blood: 1}`, `[Alexis, Belinde]`: a field of the guided builder), read by
    the same guards as a whole scenario; ScenarioError saying what is wrong."""
    data, _ = read_yaml(text, limits)
    return data


_SURROGATE_PAIR = re.compile(r"\\\\|\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.I)


def json_escapes_joined(text: str) -> str:
    """JSON writes a character beyond U+FFFF (an emoji) as two escapes, a surrogate pair ("\\ud83d\\ude00"), which
    the YAML reader (YAML 1.1, libyaml) refuses. In a text that is JSON, each pair becomes the character it stands
    for, as a JSON reader reads it, on every route that reads a scenario (/api/check, /check, `judge check`). A
    YAML text is left as written: outside a double-quoted string the same letters are plain text."""
    if "\\u" not in text or not _SURROGATE_PAIR.search(text):
        return text
    try:
        json.loads(text)
    except (ValueError, RecursionError):  # not JSON (or too deep for a reader): the YAML reader says what is wrong
        return text
    # (An escaped backslash, "\\\\", is kept as it is, so that "\\\\ud83d" stays a backslash and text.)
    return _SURROGATE_PAIR.sub(_joined, text)


def _joined(m: re.Match) -> str:
    if m.group(1) is None:
        return m.group(0)
    high, low = int(m.group(1), 16), int(m.group(2), 16)
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


_EXPLICIT_TAGS_ALLOWED = (None, "!", "tag:yaml.org,2002:str")  # no tag, the non-specific one, !!str


def check_structure(text: str, limits: L.Limits) -> None:
    """Refuse aliases, tags, deep nesting and more than `limits.values` values, from the event stream (see the
    module's docstring): each value is checked and built one by one, so their number bounds the reading."""
    depth = values = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                values += 1
                if values > limits.values:
                    raise L.OverLimit("values", limits.values, f"the scenario has more than {limits.values:,} values "
                                      f"(texts, numbers, lists, mappings) by this line", event.start_mark.line + 1)
                if event.tag not in _EXPLICIT_TAGS_ALLOWED:
                    raise ScenarioError(_NO_TAGS, event.start_mark.line + 1)
                if not isinstance(event, yaml.ScalarEvent):
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
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (a control character): a position, no mark
        raise ScenarioError(f"not valid YAML: the character U+{exc.character:04X} (a control character) is not "
                            f"allowed in YAML text; remove it", text.count("\n", 0, exc.position) + 1) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}") from None


def _too_deep() -> str:
    return f"the YAML is nested more than {MAX_DEPTH} levels deep here; a scenario needs only a few levels"


_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}
_AS_TEXT = {_TAG + t for t in ("timestamp", "merge", "value")}  # implicit YAML types read as the text written
_NUMBER_TAGS = {_TAG + "int", _TAG + "float"}


class _Walk:
    """Checks every node (see the module's docstring) and records the line of every value and key."""

    def __init__(self, loader, lines: Lines):
        self.loader, self.lines = loader, lines

    def node(self, node: yaml.Node, path: tuple) -> None:
        line = node.start_mark.line + 1
        self.lines.by_path[path] = line
        self._tag(node, line)
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, value_node in node.value:
                key = self._key(key_node)
                key_line = key_node.start_mark.line + 1
                if key in seen:
                    raise ScenarioError(f"duplicate key {key!r} (first on line {seen[key]})", key_line)
                seen[key] = key_line
                self.lines.key_lines[path + (key,)] = key_line
                self.node(value_node, path + (key,))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.node(item, path + (i,))
        else:
            self._scalar(node, line)

    def _key(self, node: yaml.Node):
        line = node.start_mark.line + 1
        if not isinstance(node, yaml.ScalarNode):
            what = "list" if isinstance(node, yaml.SequenceNode) else "mapping"
            raise ScenarioError(f"a {what} used as a mapping key; keys must be plain names or values "
                                f"(pool.Alexis, Belinde, 3), not lists or mappings", line)
        self._tag(node, line)
        self._scalar(node, line)
        return self.loader.construct_object(node)

    def _tag(self, node: yaml.Node, line: int) -> None:
        # Explicit tags were refused with the events (`check_structure`): what is left was resolved from the text.
        if node.tag in _AS_TEXT:
            node.tag = _TAG + "str"
        elif node.tag not in _PLAIN_TAGS:
            raise ScenarioError(_NO_TAGS, line)

    def _scalar(self, node: yaml.ScalarNode, line: int) -> None:
        if node.tag in _NUMBER_TAGS:
            if len(node.value) > L.NUMBER_CHARS:
                raise ScenarioError(f"the number {node.value[:L.NUMBER_CHARS]}... is {len(node.value):,} characters "
                                    f"long; {_NUMBERS}", line)
            value = self.loader.construct_object(node)
            if not -L.NUMBER_BOUND <= value <= L.NUMBER_BOUND:  # NaN compares false: refused too
                raise ScenarioError(f"the number {node.value} is out of bounds; {_NUMBERS}", line)
        elif len(node.value) > L.TEXT_CHARS:
            raise ScenarioError(f"a text of {len(node.value):,} characters (\"{node.value[:40]}...\"); a text value "
                                f"in a scenario is at most {L.TEXT_CHARS:,} characters", line)


_NO_TAGS = "not valid YAML for a scenario: tags (!!...) are not allowed"
_NUMBERS = L.NUMBERS


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
        # libyaml's own nesting limit (PyYAML >= 6.0.3) can stop the reader before `check_structure`
        # reaches MAX_DEPTH: the same refusal, in the same words.
        return ScenarioError(_too_deep(), line)
    if mark is not None and "cannot start any token" in problem and _char_at(text, mark) == "\t":
        return ScenarioError("not valid YAML: a tab character; YAML indents with spaces only", line)
    if "mapping values are not allowed" in problem:
        return ScenarioError("not valid YAML: an unexpected ':' (a value with ': ' inside it needs quotes, e.g. "
                             "\"Belinde plays an action modifier: +1 bleed\"; or the indentation is wrong)", line)
    if "could not determine a constructor" in problem:
        return ScenarioError(_NO_TAGS, line)
    if "did not find expected key" in problem or "did not find expected '-' indicator" in problem:
        return ScenarioError(f"not valid YAML: {problem} (check the indentation of this line)", line)
    return ScenarioError(f"not valid YAML: {problem or context}", line)


def _char_at(text: str, mark) -> str:
    lines = text.splitlines()
    if 0 <= mark.line < len(lines) and 0 <= mark.column < len(lines[mark.line]):
        return lines[mark.line][mark.column]
    return ""
