"""Read `rules/manifest.yaml`: one entry per document (docs/corpus.md)."""
from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Optional

from judge.datafile import read_yaml
from judge.errors import SourceError
from judge.model import DocMeta

REQUIRED = ("id", "short", "title", "game", "edition", "format", "source")
OPTIONAL = ("language", "edition_order", "ocr", "cites", "options", "in_force_from")
MAX_OPTION_VALUES = 10_000  # an options block is a page map or a list of names: a few dozen values
_ID = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


class _Unusable(Exception):
    """One entry of the manifest cannot be used: why (its line is the entry's)."""


def load_manifest(rules_dir: Path) -> tuple[list[DocMeta], list[SourceError]]:
    """The documents of the manifest, and an error for each entry that is unusable.

    A bad entry does not stop the others from loading.
    """
    raw, _ = read_yaml(rules_dir / "manifest.yaml", "the manifest", with_lines=True)
    if not isinstance(raw, dict) or not isinstance(raw.get("documents"), list):
        raise SourceError("manifest.yaml", 1, "expected a mapping with a 'documents:' list")
    metas, errors, seen = [], [], set()
    for entry in raw["documents"]:
        line = entry.get("__line__", 0) if isinstance(entry, dict) else 0
        try:
            meta = _document(entry, line)
        except _Unusable as exc:
            errors.append(SourceError("manifest.yaml", line, str(exc)))
            continue
        if meta.id in seen:
            errors.append(SourceError("manifest.yaml", line, f"document id {meta.id!r} is used twice"))
            continue
        seen.add(meta.id)
        metas.append(meta)
    return metas, errors


def _document(entry, line: int) -> DocMeta:
    """One entry as a DocMeta; _Unusable saying why it cannot be one."""
    if not isinstance(entry, dict):
        raise _Unusable("each document must be a mapping of fields (id:, title:, source: ...)")
    fields = {k: v for k, v in entry.items() if k != "__line__"}
    doc = f"document {_text(fields.get('id')) or '?'!r}"
    odd = [k for k in fields if not isinstance(k, str)]
    if odd:
        raise _Unusable(f"{doc}: {odd[0]!r} is not a field name")
    missing = [k for k in REQUIRED if fields.get(k) in (None, "")]
    unknown = sorted(set(fields) - set(REQUIRED) - set(OPTIONAL))
    if missing or unknown:
        what = []
        if missing:
            what.append(f"missing {', '.join(missing)}")
        if unknown:
            what.append(f"unknown field(s) {', '.join(unknown)}")
        raise _Unusable(f"{doc}: {'; '.join(what)}")
    values = {}
    for name in (*REQUIRED, "language", "cites"):
        if name in fields and fields[name] is not None:
            values[name] = _text(fields[name])
            if values[name] is None:
                raise _Unusable(f"{doc}: {name} must be text, not {_shown(fields[name])}")
    doc_id = values["id"]
    if not _ID.fullmatch(doc_id):
        raise _Unusable(f"document id {doc_id!r} must be letters and digits (and single hyphens between them)")
    if Path(values["source"]).name != values["source"]:
        raise _Unusable(f"{doc}: source {values['source']!r} must be a file name in the rules folder")
    order = fields.get("edition_order", 0)
    if type(order) is not int:
        raise _Unusable(f"{doc}: edition_order must be a whole number (1 for the oldest edition), "
                        f"not {_shown(order)}")
    ocr = fields.get("ocr", False)
    if type(ocr) is not bool:
        raise _Unusable(f"{doc}: ocr must be true or false, not {_shown(ocr)}")
    in_force = fields.get("in_force_from")
    if in_force is not None:
        if not isinstance(in_force, datetime.date) or isinstance(in_force, datetime.datetime):
            raise _Unusable(f"{doc}: in_force_from must be a date written YYYY-MM-DD, not {_shown(in_force)}")
        in_force = in_force.isoformat()
    options = fields.get("options")
    if options is not None and not isinstance(options, dict):
        raise _Unusable(f"{doc}: options must be a mapping of option names to values, not {_shown(options)}")
    return DocMeta(
        id=doc_id, short=values["short"], title=values["title"], game=values["game"],
        edition=values["edition"], format=values["format"], source=values["source"],
        language=values.get("language", "en"), edition_order=order, ocr=ocr, cites=values.get("cites"),
        in_force_from=in_force, options=_plain_options(options or {}, doc), manifest_line=line,
    )


def _text(value) -> Optional[str]:
    """A field's value as text: YAML reads `edition: 2024` as a number and
    `edition: 2024-01-01` as a date, which are meant as written. None for what is
    no text (a list, a mapping, true/false)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float, datetime.date)) and not isinstance(value, bool):
        return str(value)
    return None


def _shown(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)[:40]


def _plain_options(options: dict, doc: str):
    """`options` without the loader's line marks, checked to be plain data (text,
    numbers, true/false, lists and mappings: what a cache can hold) of bounded size
    (YAML's aliases can make a few lines stand for millions of values)."""
    budget = [MAX_OPTION_VALUES]

    def plain(value, where: str):
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unusable(f"{doc}: options hold more than {MAX_OPTION_VALUES:,} values")
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key == "__line__":
                    continue
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    raise _Unusable(f"{doc}: options{where} has a key {_shown(key)}; keys are names or numbers")
                out[key] = plain(item, f"{where}.{key}")
            return out
        if isinstance(value, list):
            return [plain(item, f"{where}[{n}]") for n, item in enumerate(value)]
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        raise _Unusable(f"{doc}: options{where} is {type(value).__name__} {_shown(value)}; "
                        "write it as text (in quotes) or a number")
    return plain(options, "")
