"""Reading judge's own files: its rulebooks, manifest, data files and drafts.

The rulebooks, the manifest and the YAML data files (synonyms, table talk,
terminology, card templates...), and the drafts given to it, are read here. One place that reads them (`read_regular`: only a regular file, of a bounded size,
never a FIFO or a device that would block or run for ever) and one that parses
their YAML (`parse_yaml`): every failure, of the disk or of the YAML library (a
number too long to convert, a date that does not exist, text nested too deep),
becomes a SourceError naming the file and the line."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from judge.cachefile import NotARegularFile, open_regular
from judge.errors import SourceError

# The largest file judge reads as one of its own: 14 times its largest rulebook (142 KB) and 70 times its largest
# data file. A draft or book beyond it is refused with this size, before it is read.
MAX_FILE_BYTES = 2 * 1024 * 1024


class FileTooLarge(SourceError):
    """A file over the size its reader accepts (`size`, `maximum`, in bytes)."""

    def __init__(self, file: str, size: int | None, maximum: int, what: str):
        self.size, self.maximum = size, maximum  # size None: more than maximum, not known how much more
        shown = f"{size:,}" if size is not None else f"more than {maximum:,}"
        super().__init__(file, 0, f"{what}: the file is {shown} bytes long; judge reads files of at most "
                                  f"{maximum:,} bytes")


def read_regular(path: Path, what: str, max_bytes: int = MAX_FILE_BYTES, name: str | None = None) -> bytes:
    """The bytes of `path`, which must be a regular file of at most `max_bytes`; SourceError naming the file
    (`name`, else its file name) and saying why otherwise. The file is opened without waiting and checked before
    anything is read from it (`cachefile.open_regular`): a named pipe in a rulebook's place would block for ever."""
    name = name or path.name
    try:
        fh = open_regular(path)
    except FileNotFoundError:
        raise SourceError(name, 0, f"{what}: no such file in {path.parent}") from None
    except NotARegularFile as exc:
        raise SourceError(name, 0, f"{what}: {path.name} is {exc.kind}; judge reads only regular files") from None
    except OSError as exc:
        raise SourceError(name, 0, f"cannot read {what}: {exc.strerror or exc}") from None
    with fh:
        try:
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                raise FileTooLarge(name, size, max_bytes, what)
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise SourceError(name, 0, f"cannot read {what}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew since it was looked at
        raise FileTooLarge(name, None, max_bytes, what)
    return data


def bytes_for_digest(path: Path) -> bytes:
    """What a cache's key hashes of a file it depends on: its bytes, or a mark when it cannot be read as a regular
    file (the reader of the file itself then says why). A named pipe is never read (it would block)."""
    try:
        return read_regular(path, "a file")
    except SourceError:
        return b"<unreadable>"


# PyYAML is imported when a file is parsed, not with this module: a search reads the
# synonyms as kept parsed (judge.search.synonyms) and needs no YAML.
@lru_cache(maxsize=4)
def _loader(with_lines: bool, fast: bool = False):
    """A SafeLoader whose values' own failures are YAML errors at their node (a 5,000-digit integer, which
    Python refuses to convert; a date like 2024-13-45): PyYAML lets them out as bare ValueErrors, with no line.
    With `with_lines`, mappings remember their line as `__line__` (1-based). `fast`: on libyaml's parser where
    PyYAML has it (a large file, read at every build: the questions of the rules, 0.6 s in Python); its
    messages for a malformed file differ a little, its lines are the same."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader) if fast else yaml.SafeLoader

    class CheckedLoader(base):
        def construct_object(self, node, deep=False):
            try:
                return super().construct_object(node, deep)
            except yaml.YAMLError:
                raise
            except (ValueError, OverflowError, TypeError, ArithmeticError) as exc:
                shown = node.value if isinstance(node.value, str) else ""
                shown = f" {shown[:40]!r}{'...' if len(shown) > 40 else ''}" if shown else ""
                raise yaml.constructor.ConstructorError(
                    None, None, f"cannot read the value{shown} ({str(exc).split(';')[0]})", node.start_mark) from None

    if with_lines:
        def construct_mapping(loader, node):
            mapping = loader.construct_mapping(node, deep=True)
            mapping["__line__"] = node.start_mark.line + 1
            return mapping

        CheckedLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return CheckedLoader


def read_yaml(path: Path, what: str, with_lines: bool = False, fast: bool = False):
    """The parsed YAML of `path` and its text; `what` names the file in errors
    ("the search synonyms"). With `with_lines`, mappings carry `__line__`; `fast`: see `_loader`."""
    return parse_yaml(read_regular(path, what), path.name, what, with_lines, fast)


def parse_yaml(data: bytes, name: str, what: str, with_lines: bool = False, fast: bool = False):
    """`read_yaml` on the bytes of file `name` already read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SourceError(name, line, f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                                      f"{exc.start}); is this a binary file?") from None
    import yaml

    try:
        parsed = yaml.load(text, Loader=_loader(with_lines, fast))
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character): no mark
        line = text.count("\n", 0, exc.position) + 1
        raise SourceError(name, line, f"{what} is not valid YAML: the character U+{exc.character:04X} is not "
                                      f"allowed in YAML text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(name, mark.line + 1 if mark else 0,
                          f"{what} is not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise SourceError(name, _deep_line(text), f"{what} is not valid YAML: nested too deep") from None
    return parsed, text


DEEP = 100  # nesting no data file comes near (they nest 3 or 4 deep), where a too-deep text is located


def _deep_line(text: str) -> int:
    """The line where `text` first nests more than DEEP lists or mappings deep (0 if it never does), read from the
    YAML library's events, which nest no Python calls."""
    import yaml
    depth = 0
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > DEEP:
                    return event.start_mark.line + 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return mark.line + 1 if mark else 0
    return 0


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
