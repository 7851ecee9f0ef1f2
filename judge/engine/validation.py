"""Checking a scenario against its game's JSON Schema, in our own words: the same checks and wording for
either game (`ScenarioSchema`, one per game: judge/engine/vtes/scenario.schema.json,
judge/engine/rivals/scenario.schema.json).

A published schema describes every structured event form as its own entry (`$defs/event_<key>`,
one `oneOf` branch each), so editors and other tools can check scenario files. Validating 200
events against every `oneOf` branch is slow (bench/engine_replay.py's "schema oneOf" beside "load"), and
`oneOf` failures make poor messages ("is not valid under any of the given schemas"). So the loader
checks the document with the `events` items left open, then each event against the one form its
key names: the same verdict as the schema's `oneOf` (tests/test_engine_schema.py checks that they
agree), one form's worth of work, and a message that says which form and what was expected there.
"""
from __future__ import annotations

import copy
import json
from contextvars import ContextVar
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Optional

from judge.engine.errors import ScenarioError
from judge.engine.yamlfile import Lines

FORM_PREFIX = "event_"
TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
              "array": "a list", "object": "a mapping", "null": "null"}


class ScenarioSchema:
    """A game's scenario schema (`path`) and the checks made with it. The game gives the examples its messages
    quote: `sentence` (an event as a sentence), `mapping` (a structured event) and `example(key)` (one of the
    structured form `key`)."""

    def __init__(self, path: Path, sentence: str, mapping: str, example: Callable[[str], str]):
        self.path, self.sentence, self.mapping, self.example = path, sentence, mapping, example
        self._form_validators: dict[str, Any] = {}

    @cached_property
    def document(self) -> dict:
        return json.loads(self.path.read_text(encoding="utf-8"))

    @cached_property
    def forms(self) -> dict[str, dict]:
        """The structured event forms, by key: {"bleed": {...its schema...}, ...}."""
        return {k[len(FORM_PREFIX):]: v for k, v in self.document["$defs"].items() if k.startswith(FORM_PREFIX)}

    @cached_property
    def _document_validator(self):
        import jsonschema

        doc = copy.deepcopy(self.document)
        doc["$defs"]["event"] = {}  # each event is checked against its own form (validate_event)
        return jsonschema.Draft202012Validator(_inlined(doc, doc["$defs"]))

    def _form_validator(self, key: str):
        if key not in self._form_validators:
            import jsonschema

            defs = self.document["$defs"]
            self._form_validators[key] = jsonschema.Draft202012Validator(_inlined(defs[f"{FORM_PREFIX}{key}"], defs))
        return self._form_validators[key]

    def validate(self, data: Any, lines: Lines) -> None:
        """Raise ScenarioError (with the line) at the first place the document breaks its schema."""
        self.check_against(self._document_validator, data, lines)
        for i, raw in enumerate(data.get("events") or ()):
            self.validate_event(raw, lines, ("events", i))

    def validate_event(self, raw: Any, lines: Lines, path: tuple) -> None:
        line = lines.of(path)
        where = _path_text(path)
        forms = self.forms
        if isinstance(raw, str):
            if not raw.strip():
                raise ScenarioError(f"{where}: an empty event; expected a sentence such as {self.sentence}", line)
            return
        if not isinstance(raw, dict):
            raise ScenarioError(f"{where}: {raw!r} is not an event; expected a sentence (text, quoted if it contains "
                                f"': ') or a structured event, a mapping with one key naming its form (e.g. "
                                f"{self.mapping})", line)
        named = [k for k in raw if k in forms]
        if not named and len(raw) == 1 and " " in str(next(iter(raw))):
            (key, value), = raw.items()
            raise ScenarioError(f"{where}: a sentence with ': ' in it reads as a YAML mapping; quote the whole "
                                f"sentence: \"{key}: {value}\"", line)
        if not named:
            found = ", ".join(map(str, raw)) or "nothing"
            raise ScenarioError(f"{where}: a structured event needs one of the keys {', '.join(sorted(forms))}; "
                                f"found {found}", line)
        key = self.form_of(raw)
        if key is None:
            raise ScenarioError(f"{where}: a structured event has exactly one of the keys that name a form; found "
                                f"{', '.join(named)} (write two events)", line)
        try:
            self.check_against(self._form_validator(key), raw, lines, path, key)
        except ScenarioError as exc:
            raise ScenarioError(f"{exc.message}; e.g. {self.example(key)}", exc.line) from None

    def form_of(self, raw: dict) -> Optional[str]:
        """The structured event form the mapping `raw` is of: its one key naming a form whose keys hold all of
        `raw`'s; else the one named form whose keys hold the other keys that name forms (a misspelt key is then
        that form's error: `{scheme: ..., effect: ..., carf: ...}`); else the one key naming a form. None when two
        forms are named and neither holds the other (two events written as one)."""
        named = [k for k in raw if k in self.forms]
        fitting = [k for k in named if set(raw) <= set(self.forms[k]["properties"])]
        if len(fitting) == 1:
            return fitting[0]
        hosts = [k for k in named if set(named) <= set(self.forms[k]["properties"])]
        if len(hosts) == 1:
            return hosts[0]
        return named[0] if len(named) == 1 else None

    def check_against(self, validator, data: Any, lines: Lines, path: tuple = (), form: str = "") -> None:
        """Raise ScenarioError, in our words and at its line, at the first place `data` (found at `path` in the
        file) breaks the schema `validator` holds (this schema or a part of it). `form` names the event form,
        for an event's message."""
        errors = list(validator.iter_errors(data))
        if not errors:
            return
        err = _pick(errors)
        inner = tuple(err.absolute_path)
        token = _DEFS.set(self.document["$defs"])
        try:
            words = _words(err)
        finally:
            _DEFS.reset(token)
        if form:
            message = f"{_path_text(path)}, a {form!r} event: {_located(inner, words)}"
        else:
            message = _located(path + inner, words)
        raise ScenarioError(message, _line(err, path + inner, lines))


def _inlined(node: Any, defs: dict) -> Any:
    """`node` with every `$ref` to `defs` replaced by what it refers to (the schema has no recursion), the
    reference kept as its `$comment` (for `describe`). jsonschema looks a reference up each time it meets
    it, which made checking a list of names four times slower than checking the names themselves."""
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/"):
        siblings = {k: _inlined(v, defs) for k, v in node.items() if k != "$ref"}
        return {**_inlined(defs[ref[len("#/$defs/"):]], defs), **siblings, "$comment": ref}
    return {k: _inlined(v, defs) for k, v in node.items() if k not in ("$defs", "$id", "$schema")}


# -- wording ------------------------------------------------------------------------------------------------
def _pick(errors):
    """The most relevant error, without descending into anyOf/oneOf alternatives (see `_words`)."""
    from jsonschema.exceptions import relevance

    return max(errors, key=relevance)


def _line(err, path: tuple, lines: Lines) -> Optional[int]:
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        extra = _extra_keys(err)
        if extra:  # point at the unexpected key itself
            return lines.key(path + (extra[0],))
    return lines.of(path)


def _extra_keys(err) -> list:
    allowed = err.schema.get("properties", {})
    return [k for k in err.instance if k not in allowed]


def _located(path: tuple, message: str) -> str:
    where = _path_text(path)
    return f"{where}: {message}" if where else message


def _path_text(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _words(err) -> str:
    """What was expected where the error is, in our words (jsonschema's messages name its keywords)."""
    v, value, instance = err.validator, err.validator_value, err.instance
    if v == "additionalProperties":
        extra = _extra_keys(err)
        allowed = sorted(err.schema.get("properties", {}))
        return (f"unknown key{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}; expected one of: "
                f"{', '.join(allowed)}")
    if v == "required":
        missing = [k for k in value if k not in instance]
        return f"missing {', '.join(map(repr, missing))} (needed here: {', '.join(value)})"
    if v == "dependentRequired":
        for key, needs in value.items():
            lacking = [n for n in needs if key in instance and n not in instance]
            if lacking:
                return f"{key!r} needs {', '.join(map(repr, lacking))} with it"
    if v in ("anyOf", "oneOf"):
        inner = _alternative(err)
        if inner is not None:
            return _located(tuple(inner.relative_path), _words(inner))
    if v in ("type", "anyOf", "oneOf", "enum", "const", "pattern", "minLength"):
        return f"expected {describe(err.schema)}, got {_shown(instance)}"
    if v == "minimum":
        return f"expected at least {value}, got {_shown(instance)}"
    if v == "minItems":
        return f"expected at least {value} item{'s' if value != 1 else ''}, got {len(instance)}"
    if v == "minProperties":
        return "expected a mapping with at least one key"
    return err.message


def _alternative(err):
    """For an anyOf/oneOf error on a mapping or list: the errors of the one alternative of that type, if only one
    fits (a retainer {name, life} with a bad life is that mapping's error, not 'text or a mapping')."""
    kind = _json_type(err.instance)
    if kind not in ("object", "array"):  # a scalar: say every alternative ("a whole number or 'all'")
        return None
    branches = [i for i, sub in enumerate(err.validator_value) if _accepts_type(sub, kind)]
    if len(branches) != 1:
        return None
    inner = [e for e in err.context if e.schema_path and e.schema_path[0] == branches[0]]
    return _pick(inner) if inner else None


def _json_type(x: Any) -> str:
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, int):
        return "integer"
    if isinstance(x, float):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}.get(type(x), "object")


def _accepts_type(sub: dict, kind: str) -> bool:
    sub = _resolved(sub)
    if "type" in sub:
        types = sub["type"] if isinstance(sub["type"], list) else [sub["type"]]
        return kind in types or (kind == "integer" and "number" in types)
    if "const" in sub:
        return _json_type(sub["const"]) == kind
    if "enum" in sub:
        return any(_json_type(x) == kind for x in sub["enum"])
    return False


# The `$defs` of the schema whose errors are being worded (ScenarioSchema.check_against sets them).
_DEFS: ContextVar[dict] = ContextVar("scenario_schema_defs", default={})


def _defs() -> dict:
    return _DEFS.get()


def _resolved(sub: dict) -> dict:
    """What a reference refers to in the published schema (an inlined one is named by its `$comment`)."""
    ref = sub.get("$ref") or sub.get("$comment") or ""
    if ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in _defs():
        return _defs()[ref[len("#/$defs/"):]]
    return sub


def describe(sub: dict) -> str:
    """A schema fragment in words: 'a whole number', 'close or long', 'a name or true'."""
    sub = _resolved(sub)
    if sub == _defs().get("name"):
        return "a name"
    for key in ("anyOf", "oneOf"):
        if key in sub:
            return " or ".join(dict.fromkeys(describe(s) for s in sub[key]))
    if "const" in sub:
        return _shown(sub["const"])
    if "enum" in sub:
        items = [_shown(x) for x in sub["enum"]]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
    if "pattern" in sub:
        return sub.get("description") or f"text of the form {sub['pattern']}"
    kind = sub.get("type")
    if isinstance(kind, list):
        return " or ".join(TYPE_WORDS.get(k, k) for k in kind)
    words = TYPE_WORDS.get(kind, "a value")
    if kind == "string" and sub.get("minLength"):
        words = "non-empty text"
    if kind == "integer" and "minimum" in sub:
        words += f" (at least {sub['minimum']})"
    if kind == "array" and "items" in sub:
        words = f"a list of {_plural(describe(sub['items']))}"
    return words


def _plural(words: str) -> str:
    return {"a name": "names", "text": "texts", "non-empty text": "texts", "a whole number": "whole numbers"}.get(
        words, words)


def _shown(x: Any) -> str:
    if x is True:
        return "true"
    if x is False:
        return "false"
    if x is None:
        return "null"
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."
