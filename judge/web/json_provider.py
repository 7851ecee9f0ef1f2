"""The JSON the API answers with, written by orjson (in C) rather than the standard
library's encoder: a search answer (~25 KB) took 0.15-0.2 ms to encode, a sixth of a
never-seen query's answer, against ~0.02 ms (issue 21; docs/performance.md).

The same JSON values as Flask's provider gives: what orjson does not write the same way
(dates, dataclasses, named tuples, objects with `__html__`) goes through Flask's own
conversion, and anything orjson refuses (an integer beyond 64 bits) is written by
Flask's provider, so no answer fails that did not before. The bytes may differ where
JSON allows it (no escapes of non-ASCII text, as before: `ensure_ascii` was off)."""
from __future__ import annotations

import typing as t

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, its `dumps` and `response` written by orjson."""

    sort_keys = False
    ensure_ascii = False

    def dumps(self, obj: t.Any, **kwargs: t.Any) -> str:
        if set(kwargs) - {"indent", "separators"} or kwargs.get("indent") not in (None, 2) or \
                kwargs.get("separators") not in (None, (",", ":")):
            return super().dumps(obj, **kwargs)  # what orjson does not offer: Flask's provider
        options = _OPTIONS | (orjson.OPT_INDENT_2 if kwargs.get("indent") == 2 else 0)
        try:
            return orjson.dumps(obj, default=_converted, option=options).decode()
        except orjson.JSONEncodeError:
            return super().dumps(obj, **kwargs)

    def response(self, *args: t.Any, **kwargs: t.Any):
        obj = self._prepare_response_obj(args, kwargs)
        indent = 2 if (self.compact is None and self._app.debug) or self.compact is False else None
        return self._app.response_class(f"{self.dumps(obj, indent=indent)}\n", mimetype=self.mimetype)


def _converted(o: t.Any) -> t.Any:
    """What orjson leaves to its caller, as the standard library and Flask convert it."""
    if isinstance(o, tuple):  # a named tuple: a list, as json.dumps writes any tuple
        return list(o)
    return DefaultJSONProvider.default(o)
