"""Edition terminology: map one edition's wording onto another's.

The editions of V:TES name the same things differently: the older book taps and
untaps where the current ones lock and unlock, writes "she"/"he" where they write
"they", calls a Methuselah a player, and some clans were renamed. The map lives
in judge/data/terminology.yaml (data, so an editor can extend it); `normalise()`
rewrites a text to a comparison key in which those differences vanish:

    >>> normalise("Only ready untapped minions can act; he untaps.")
    'only ready unlocked minions can act; they unlock.'

The concordance aligns editions on normalised text, and the version comparer
calls a change "terminology only" when `normalise(old) == normalise(new)`;
`changes(old, new)` names the entries that explain such a change.

A normalised text is a key for comparison, not for display: it is lowercase,
"an" is "a" (a renamed term may change the article), and the pronoun entry folds
"them" into "their" because the older "her" does not say which of the two the
current text uses.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from judge import paths
from judge.datafile import read_yaml
from judge.errors import SourceError

KINDS = ("wording", "pronoun", "spelling", "clan", "discipline")

_PUNCTUATION = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                              "\u2013": "-", "\u2014": "-", "\u00a0": " "})
_SPACES = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w']+|(?<!\w)'|'(?!\w)")
# After "he untaps" became "they unlocks", the verb must lose its third-person
# ending too; the exceptions keep "they pass", "they discuss" intact.
_THEY_VERB = re.compile(r"\bthey (\w+?)(ies|sses|shes|ches|xes|zes|oes|s)\b")
# "an Assamite" became "a Banu Haqim": the article's form follows the next word.
_AN = re.compile(r"\ban\b")


@dataclass(frozen=True)
class TerminologyEntry:
    """One entry of the terminology map."""

    name: str
    kind: str
    game: str
    forms: dict[str, str]  # older form (lowercase) -> current form
    fold: dict[str, str] = field(default_factory=dict)
    evidence: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "game": self.game, "forms": dict(self.forms),
                "fold": dict(self.fold), "evidence": self.evidence}


def _word_pattern(words, ignore_case: bool = True) -> Optional[re.Pattern]:
    words = sorted(set(words), key=len, reverse=True)  # longest first: "he or she" before "he"
    if not words:
        return None
    return re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])",
                      re.IGNORECASE if ignore_case else 0)


def _agree(m: re.Match) -> str:
    stem, ending = m.group(1), m.group(2)
    if ending == "ies":
        return f"they {stem}y"
    if ending == "s":
        if stem.endswith(("s", "u", "i")):  # "they pass", "they focus", "they this"
            return m.group(0)
        return f"they {stem}"
    return f"they {stem}{ending[:-2]}"  # "passes" -> "pass", "goes" -> "go"


class Terminology:
    """The terminology map of every game, with the compiled patterns to apply it."""

    def __init__(self, entries: list[TerminologyEntry]):
        self.entries = entries
        self._by_game: dict[str, tuple[dict[str, str], Optional[re.Pattern], dict[str, str],
                                       Optional[re.Pattern], bool]] = {}

    def for_game(self, game: Optional[str]) -> list[TerminologyEntry]:
        return [e for e in self.entries if game is None or e.game == game]

    def _compiled(self, game: Optional[str]):
        key = game or "*"
        if key not in self._by_game:
            entries = self.for_game(game)
            forms = {old: new.lower() for e in entries for old, new in e.forms.items()}
            fold = {old: new.lower() for e in entries for old, new in e.fold.items()}
            pronouns = any(e.kind == "pronoun" for e in entries)
            # `normalise` lower-cases first, so its patterns need not ignore case (which is slow).
            self._by_game[key] = (forms, _word_pattern(forms, ignore_case=False), fold,
                                  _word_pattern(fold, ignore_case=False), pronouns)
        return self._by_game[key]

    def normalise(self, text: str, game: Optional[str] = "vtes", punctuation: bool = True) -> str:
        """The comparison key of `text` (see the module docstring).

        With `punctuation=False`, punctuation becomes spaces: the form the
        concordance scores similarity on, where a comma moved is no evidence.
        """
        out = unicodedata.normalize("NFKC", text).translate(_PUNCTUATION).lower()
        if not punctuation:
            out = _NON_WORD.sub(" ", out)
        out = _SPACES.sub(" ", out).strip()
        forms, pattern, fold, fold_pattern, pronouns = self._compiled(game)
        if pattern is not None:
            # Two passes: the first turns "he is" into "they is", the second into "they are".
            for _ in range(2):
                out = pattern.sub(lambda m: forms[m.group(1)], out)
        if pronouns:
            out = _THEY_VERB.sub(_agree, out)
        if fold_pattern is not None:
            out = fold_pattern.sub(lambda m: fold[m.group(1)], out)
        return _AN.sub("a", out)

    def changes(self, old: str, new: str, game: Optional[str] = "vtes") -> list[TerminologyEntry]:
        """The entries that explain differences between `old` and `new`: an older
        form occurs in `old` and one of the current forms it maps to in `new`."""
        found = []
        for entry in self.for_game(game):
            olds = [f for f in entry.forms if _word_pattern([f]).search(old)]
            currents = {entry.forms[f].lower() for f in olds}
            # "he untaps" -> "they unlock": the current form may have lost its -s.
            currents |= {c[:-1] for c in currents if c.endswith("s") and len(c) > 3}
            if olds and _word_pattern(currents).search(new):
                found.append(entry)
        return found


def terminology_file() -> Path:
    return paths.data_dir() / "terminology.yaml"


def load_terminology(path: Optional[Path] = None) -> Terminology:
    """Read and check a terminology file; a malformed one raises SourceError naming the line."""
    path = Path(path or terminology_file())
    data, _ = read_yaml(path, "the terminology map", with_lines=True)

    def fail(line: int, message: str) -> SourceError:
        return SourceError(path.name, line, message)

    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise fail(1, "the terminology map: expected a mapping with a list under 'entries'")
    entries = []
    for n, raw in enumerate(data["entries"], 1):
        if not isinstance(raw, dict):
            raise fail(data.get("__line__", 0), f"entry {n} is not a mapping")
        line, name = raw["__line__"], raw.get("name")
        where = f"entry {n} ({name!r})" if isinstance(name, str) and name else f"entry {n}"
        for key in ("name", "kind", "game"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                raise fail(line, f"{where}: '{key}' must be a non-empty string")
        if raw["kind"] not in KINDS:
            raise fail(line, f"{where}: unknown kind {raw['kind']!r} (known: {', '.join(KINDS)})")
        maps = {}
        for key in ("forms", "fold"):
            value = raw.get(key) or {}
            if key == "forms" and not value:
                raise fail(line, f"{where}: 'forms' must map older forms to current ones")
            if isinstance(value, dict):
                value = {k: v for k, v in value.items() if k != "__line__"}
            if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in value.items()):
                raise fail(line, f"{where}: '{key}' must map words to words")
            maps[key] = {k.lower().strip(): v.strip() for k, v in value.items()}
        entries.append(TerminologyEntry(name=raw["name"], kind=raw["kind"], game=raw["game"],
                                  forms=maps["forms"], fold=maps["fold"],
                                  evidence=str(raw.get("evidence") or "")))
    return Terminology(entries)


def get_terminology() -> Terminology:
    """The terminology map judge uses (read once per process and file)."""
    return _terminology_of(str(terminology_file()))


@lru_cache(maxsize=4)
def _terminology_of(path: str) -> Terminology:
    return load_terminology(Path(path))


def normalise(text: str, game: Optional[str] = "vtes", punctuation: bool = True) -> str:
    """`Terminology.normalise` with the project's map."""
    return get_terminology().normalise(text, game, punctuation)


def changes(old: str, new: str, game: Optional[str] = "vtes") -> list[TerminologyEntry]:
    """`Terminology.changes` with the project's map."""
    return get_terminology().changes(old, new, game)
