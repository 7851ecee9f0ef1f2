"""The caches judge keeps in its index directory, as data only.

A cache is JSON, written whole to a temporary file and renamed over the old
one (a reader never sees half a file), and read back into judge's own types
with every value's shape and type checked on the way (`decode`), so nothing
read from a cache can run code, and a cache that does not parse or check is
a `DamagedCache`, which its owner logs and rebuilds. No cache is trusted
beyond what the check proves: a damaged one costs a rebuild, never an answer.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import gc
import hashlib
import json
import logging
import os
import re
import shutil
import stat
import tempfile
import types
import typing
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar, Union

import orjson

T = TypeVar("T")

# A mapping whose keys are not all strings (the manifest's page map: {3: "Set-Up"})
# is written as {PAIRS: [[key, value], ...]}, which keeps its keys' types.
PAIRS = "(pairs)"


class DamagedCache(Exception):
    """A cache file that cannot be used: it does not parse, or holds the wrong shape."""

    def __init__(self, path: Path, reason: str):
        self.path, self.reason = path, reason
        super().__init__(f"the cache {path} is damaged: {reason}")


@contextlib.contextmanager
def collector_paused():
    """The cyclic garbage collector held off while a cache is built or read: a corpus,
    a concordance or an index is millions of small objects and no garbage cycles, and
    the collector's passes over the whole heap cost about a third of a one-book
    rebuild at 100 books (3 of 10.5 s of CPU). It resumes, if it was running, after."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


# -- writing ----------------------------------------------------------------------------

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a dataclass -> the fields `encode` writes
_PLAIN = (str, int, float, bool, type(None))


def source_digest(folder: Path, names: tuple[str, ...]) -> str:
    """A short digest of the files `names` in `folder` (code whose changes change a cache):
    their names and bytes."""
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode())
        h.update((folder / name).read_bytes())
    return h.hexdigest()[:16]


def encode(value: Any) -> Any:
    """`value` (dataclasses, tuples, dicts, lists, plain values) as JSON data `decode` reads back."""
    kind = type(value)
    if kind in _PLAIN:  # the common cases first, by exact type: a corpus is ~400k values
        return value
    if kind is list or kind is tuple:
        return [encode(v) for v in value]
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value) if f.init)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and PAIRS not in value:
            return {k: encode(v) for k, v in value.items()}
        return {PAIRS: [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"{type(value).__name__} is not cache data")


def write_json(path: Path, data: Any) -> bool:
    """Write `data` to `path` as JSON, atomically. False when the directory cannot be
    written to (a read-only cache only costs speed)."""
    # json.dumps, not json.dump: dump encodes to a stream in pure Python, dumps with
    # the C encoder (3.3x faster on a concordance).
    return write_text(path, dumps(data))


def dumps(data: Any) -> str:
    """`data` as the JSON text `write_json` writes."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_text(path: Path, text: str) -> bool:
    """Write `text` to `path`, atomically, as `write_json` does."""
    return write_bytes(path, text.encode("utf-8"))


def write_bytes(path: Path, data: bytes) -> bool:
    """Write `data` to `path` atomically (a temporary file beside it, renamed): a reader sees
    all of it or none. False when the directory cannot be written to (a read-only cache only
    costs speed)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        replace(tmp, path)
        return True
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return False


def replace(tmp: Union[str, Path], path: Path) -> None:
    """`os.replace(tmp, path)`: a file just written put in place of the built file `path`, atomically. A directory
    found where the file belongs (damage: nothing of judge's puts one there) is removed first; any other file in its
    place (a named pipe, a device) is replaced as a file is. OSError when it cannot be done."""
    try:
        os.replace(tmp, path)
    except OSError:
        if not (path.is_dir() and not path.is_symlink()):
            raise
        shutil.rmtree(path)
        os.replace(tmp, path)


# -- reading ----------------------------------------------------------------------------
class NotARegularFile(OSError):
    """Something else than a regular file (a directory, a named pipe, a device; `kind` says which) where judge
    reads a file: in its index, damage its reader answers as a file it cannot read (by building it again)."""

    def __init__(self, kind: str, path: Path):
        super().__init__(errno.EINVAL, f"{kind} is where this file belongs", str(path))
        self.kind = kind


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_built(path: Path) -> bytes:
    """The bytes of the built file `path`. FileNotFoundError when there is none (never built); NotARegularFile (an
    OSError) when something else is in its place, checked before anything is read: a named pipe is opened without
    waiting and never read (it would block the reader for ever); another OSError when it cannot be read."""
    with open_regular(path) as fh:
        return fh.read()


def open_regular(path: Path):
    """`path` opened for reading if it is a regular file: FileNotFoundError when there is none, NotARegularFile
    when something else is in its place (a named pipe is opened without waiting and never read), another OSError
    when it cannot be opened. Every reader of judge's files opens them so (judge.datafile too)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((k for test, k in _KINDS if test(mode)), "not a regular file")
            raise NotARegularFile(kind, path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_json(path: Path) -> Any:
    """The JSON data of `path`. FileNotFoundError when there is none (nothing is
    damaged: it was never built); DamagedCache when it cannot be read or parsed."""
    try:
        raw = read_built(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise DamagedCache(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        # orjson (a dependency already: the API's JSON) parses these files in a third of the time, as strictly: no
        # NaN or infinity, UTF-8 only, nesting at most 1,024 deep
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise DamagedCache(path, f"not UTF-8 (byte 0x{raw[bad.start]:02x} at offset {bad.start})") from None
        raise DamagedCache(path, f"not JSON at line {exc.lineno}, column {exc.colno}") from None


def read_cache(path: Path, what: str, form: int, key_field: str, key: str, decode: Callable[[dict], T],
               log: logging.Logger) -> Optional[T]:
    """The cache at `path`, as `decode` makes it from its data (decode raises Mismatch or
    DamagedCache on what does not check). None when there is none (never built); when it was
    made from other sources, its `key_field` not `key` (stale: rebuilt, nothing is wrong); or
    when it is damaged: not `what` judge wrote in format `form`, not JSON, a value of the wrong
    shape (logged on `log`, the owner's: it is rebuilt)."""
    if _written_for_another_key(path, form, key_field, key):
        return None  # stale, seen without reading a file of many megabytes
    try:
        data = read_json(path)
        if not isinstance(data, dict) or data.get("format") != form or not isinstance(data.get(key_field), str):
            raise DamagedCache(path, f"not {what} judge wrote")
        if data[key_field] != key:
            return None
        return decode(data)
    except FileNotFoundError:
        return None
    except Mismatch as exc:
        log.warning("%s; rebuilding it", DamagedCache(path, str(exc)))
    except DamagedCache as exc:
        log.warning("%s; rebuilding it", exc)
    except Exception as exc:  # noqa: BLE001 - what else decoding a damaged file raises (nested too deep, ...)
        log.warning("%s; rebuilding it", DamagedCache(path, f"{type(exc).__name__}: {exc}"))
    return None


def _written_for_another_key(path: Path, form: int, key_field: str, key: str) -> bool:
    """Whether `path` opens as `write_json` writes a cache of format `form` whose
    `key_field` (its second field) is not `key`, or as it writes a cache of another
    format (another version of judge wrote it: as stale as another key's). False when
    it opens otherwise (or cannot be read): `read_cache` then reads it whole and says
    what it is."""
    opening = f'{{"format":{form},"{key_field}":"'.encode()
    try:
        with open_regular(path) as fh:
            head = fh.read(len(opening) + len(key) + 24)
    except OSError:
        return False
    other = re.match(rb'\{"format":(\d{1,9}),"' + re.escape(key_field.encode()) + rb'":"', head)
    if other is not None and int(other.group(1)) != form:
        return True
    return head.startswith(opening) and head[len(opening):len(opening) + len(key) + 1] != f'{key}"'.encode()


class Mismatch(ValueError):
    """A value of the wrong shape; `steps` says where it is, innermost first ("[3]", ".lines")."""

    def __init__(self, message: str):
        super().__init__(message)
        self.steps: list[str] = []


def decode(kind: Any, data: Any, where: str = "") -> Any:
    """`data` (parsed JSON) as a value of `kind`: a dataclass, list[X], tuple[X, Y],
    tuple[X, ...], dict[str, X], Optional[X], str, int, float, bool, or a bare
    `dict` (plain data, as `encode` wrote it). Raises `Mismatch` naming where
    (below `where`) the data is not of that shape."""
    try:
        return _decoder(kind)(data)
    except Mismatch as exc:
        place = (where + "".join(reversed(exc.steps))).lstrip(".")
        raise Mismatch(f"{place}: {exc}" if place else str(exc)) from None


def _is(a, b) -> bool:
    return a is b


def _expected(what: str, data: Any) -> Mismatch:
    shown = type(data).__name__ if isinstance(data, (dict, list)) else repr(data)[:40]
    return Mismatch(f"expected {what}, found {shown}")


def _locate(exc: Mismatch, parts) -> Mismatch:
    """The Mismatch of the first of `parts` ((step, decoder, value)) that fails, its step
    added; `exc` if none does. Called only after a failure, so that decoding a good
    cache builds no paths."""
    for step, decode_one, value in parts:
        try:
            decode_one(value)
        except Mismatch as found:
            found.steps.append(step)
            return found
    return exc


_DECODERS: dict[Any, Callable[[Any], Any]] = {}


def _decoder(kind: Any) -> Callable[[Any], Any]:
    found = _DECODERS.get(kind)
    if found is None:
        found = _DECODERS[kind] = _make_decoder(kind)
    return found


def _make_decoder(kind: Any) -> Callable[[Any], Any]:
    if dataclasses.is_dataclass(kind):
        return _dataclass_decoder(kind)
    if kind is dict:
        return _plain
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if len(options) != 1 or len(args) != 2:
            raise TypeError(f"no cache decoder for {kind}")
        inner = _decoder(options[0])
        return lambda data: None if data is None else inner(data)
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        item, as_tuple = _decoder(args[0]), origin is tuple
        exact = _unchanged_types(args[0])

        def as_sequence(data):
            if type(data) is not list:
                raise _expected("a list", data)
            if exact and exact.issuperset(map(type, data)):  # every item already what it decodes to: one C pass
                return tuple(data) if as_tuple else list(data)
            try:
                return tuple(map(item, data)) if as_tuple else list(map(item, data))
            except Mismatch as exc:
                raise _locate(exc, ((f"[{n}]", item, v) for n, v in enumerate(data))) from None
        return as_sequence
    if origin is tuple:
        items = [_decoder(a) for a in args]

        def as_fixed_tuple(data):
            if type(data) is not list or len(data) != len(items):
                raise _expected(f"a list of {len(items)}", data)
            try:
                return tuple(item(v) for item, v in zip(items, data))
            except Mismatch as exc:
                raise _locate(exc, ((f"[{n}]", item, v) for n, (item, v) in enumerate(zip(items, data)))) from None
        if not all(a in (str, int, bool, float) for a in args):
            return as_fixed_tuple

        def as_scalar_tuple(data):  # (start, end), (term, start, end, id): checked in one pass
            # (a whole number where a float is due is not of the type: as_fixed_tuple makes it a float)
            if type(data) is list and len(data) == len(args) and all(map(_is, map(type, data), args)):
                return tuple(data)
            return as_fixed_tuple(data)  # which says what is wrong
        return as_scalar_tuple
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"no cache decoder for {kind}")
        value = _decoder(args[1])

        def as_dict(data):
            if type(data) is not dict:
                raise _expected("a mapping", data)
            try:
                return {k: value(v) for k, v in data.items()}
            except Mismatch as exc:
                raise _locate(exc, ((f"[{k!r}]", value, v) for k, v in data.items())) from None
        return as_dict
    if kind is float:
        def as_float(data):
            if type(data) is float:
                return data
            if type(data) is int:
                return float(data)
            raise _expected("a number", data)
        return as_float
    if kind in (str, int, bool):
        name = {str: "a string", int: "a whole number", bool: "true or false"}[kind]

        def as_scalar(data):
            if type(data) is not kind:
                raise _expected(name, data)
            return data
        return as_scalar
    raise TypeError(f"no cache decoder for {kind}")


def _unchanged_types(kind: Any) -> frozenset:
    """The types of the values that `kind`'s decoder returns as they are (str for str,
    int or None for Optional[int]); empty for kinds whose values it makes anew."""
    if kind in (str, int, bool, float):
        return frozenset({kind})  # exactly: a bool is no int here, an int becomes a float
    if typing.get_origin(kind) in (Union, types.UnionType):
        args = typing.get_args(kind)
        options = [a for a in args if a is not type(None)]
        if len(options) == 1 and len(args) == 2 and options[0] in (str, int, bool, float):
            return frozenset({options[0], type(None)})
    return frozenset()


def _dataclass_decoder(cls: type) -> Callable[[Any], Any]:
    names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    keys = frozenset(names)
    decoders: list[tuple[str, Callable]] = []

    def as_dataclass(data):
        if type(data) is not dict:
            raise _expected(f"a {cls.__name__}", data)
        if data.keys() != keys:
            missing, extra = sorted(keys - data.keys()), sorted(map(str, data.keys() - keys))
            raise Mismatch(f"a {cls.__name__} " + "; ".join(filter(None, [
                missing and f"missing {', '.join(missing)}", extra and f"with unknown {', '.join(extra)}"])))
        if not decoders:  # resolved at first use: a field's type may name a class defined after this one
            hints = typing.get_type_hints(cls)
            decoders.extend((name, _decoder(hints[name])) for name in names)
        try:
            return cls(**{name: decode_one(data[name]) for name, decode_one in decoders})
        except Mismatch as exc:
            raise _locate(exc, ((f".{name}", decode_one, data[name]) for name, decode_one in decoders)) from None
    return as_dataclass


def _plain(data: Any) -> Any:
    """Plain data as `encode` wrote it: mappings (string keys, or PAIRS), lists, scalars."""
    if type(data) is dict:
        if PAIRS not in data:
            return {k: _plain(v) for k, v in data.items()}
        pairs = data[PAIRS]
        if len(data) != 1 or type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
            raise _expected(f"a list of [key, value] pairs under {PAIRS!r}", pairs)
        if any(isinstance(key, (dict, list)) for key, _ in pairs):
            raise Mismatch(f"a key under {PAIRS!r} is not a string or a number")
        return {key: _plain(value) for key, value in pairs}
    if type(data) is list:
        return [_plain(v) for v in data]
    return data  # JSON parsing gives nothing else but str, int, float, bool, None
