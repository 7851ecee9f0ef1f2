"""Read `rules/manifest.yaml`: one entry per document (docs/corpus.md)."""
from __future__ import annotations

from pathlib import Path

from judge.datafile import read_yaml
from judge.errors import SourceError
from judge.model import DocMeta

REQUIRED = ("id", "short", "title", "game", "edition", "format", "source")
OPTIONAL = ("language", "edition_order", "ocr", "cites", "options")


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
        if not isinstance(entry, dict):
            errors.append(SourceError("manifest.yaml", line, "each document must be a mapping"))
            continue
        missing = [k for k in REQUIRED if not entry.get(k)]
        unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL) - {"__line__"})
        if missing or unknown:
            what = []
            if missing:
                what.append(f"missing {', '.join(missing)}")
            if unknown:
                what.append(f"unknown field(s) {', '.join(unknown)}")
            errors.append(SourceError("manifest.yaml", line,
                                      f"document {entry.get('id', '?')!r}: {'; '.join(what)}"))
            continue
        doc_id = str(entry["id"])
        if Path(str(entry["source"])).name != str(entry["source"]):
            errors.append(SourceError("manifest.yaml", line, f"document {doc_id!r}: source "
                                      f"{entry['source']!r} must be a file name in the rules folder"))
            continue
        if doc_id in seen or not doc_id.replace("-", "").isalnum():
            errors.append(SourceError("manifest.yaml", line,
                                      f"document id {doc_id!r} is duplicated or not alphanumeric"))
            continue
        seen.add(doc_id)
        options = {k: v for k, v in (entry.get("options") or {}).items() if k != "__line__"}
        metas.append(DocMeta(
            id=doc_id, short=str(entry["short"]), title=str(entry["title"]), game=str(entry["game"]),
            edition=str(entry["edition"]), format=str(entry["format"]), source=str(entry["source"]),
            language=str(entry.get("language", "en")), edition_order=int(entry.get("edition_order", 0)),
            ocr=bool(entry.get("ocr", False)), cites=entry.get("cites"), options=_strip_lines(options),
            manifest_line=line,
        ))
    return metas, errors


def _strip_lines(value):
    if isinstance(value, dict):
        return {k: _strip_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [_strip_lines(v) for v in value]
    return value
