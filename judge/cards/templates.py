"""Rule templates: the card wordings ("+1 stealth", "Master: out-of-turn", "Lock
this card to ...") and card kinds that rely on a rule of the book, kept as data
in judge/data/card_templates.yaml (its format: docs/cards.md).

A card relies on a template's rules when its type, one of its fields or its text
matches the template; a ruling when its text does. Each use says what matched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from judge import datafile
from judge.cards.model import CRYPT, LIBRARY, Card, Problem, RuleTemplate, RuleUse
from judge.errors import SourceError

if TYPE_CHECKING:
    from judge.corpus import Corpus

FILE = "card_templates.yaml"
MAX_MATCHED = 4  # words shown per use: enough to see why, short enough to read
_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_KEYS = {"id", "description", "rules", "patterns", "types", "fields", "kinds", "in", "case", "__line__"}
# Card fields a template may test ("every card with a burn option ..."), and how a match reads.
FIELDS = {
    "burn_option": lambda c: "burn option" if c.burn_option else None,
    "advanced": lambda c: "advanced" if c.advanced else None,
    "title": lambda c: f"title: {c.title}" if c.title else None,
    "blood_cost": lambda c: f"blood cost {c.blood_cost}" if c.blood_cost else None,
    "pool_cost": lambda c: f"pool cost {c.pool_cost}" if c.pool_cost else None,
    "conviction_cost": lambda c: f"conviction cost {c.conviction_cost}" if c.conviction_cost else None,
    "disciplines": lambda c: "requires " + (" & " if c.disciplines_all else " / ").join(
        d.name for d in c.disciplines) if c.disciplines and c.kind == LIBRARY else None,
    "clans": lambda c: "requires " + " / ".join(c.clans) if c.clans and c.kind == LIBRARY else None,
    "capacity": lambda c: f"capacity {c.capacity}" if c.capacity and c.kind == LIBRARY else None,
}


@dataclass
class Template:
    id: str
    description: str
    rules: list[str]
    line: int
    patterns: Optional[re.Pattern] = None  # the template's patterns, joined
    types: set[str] = field(default_factory=set)
    fields: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=lambda: {CRYPT, LIBRARY})
    cards: bool = True  # applies to card texts
    rulings: bool = True  # applies to ruling texts
    # Substrings one of which any match holds (lowercase), to skip texts quickly; None: always search.
    triggers: Optional[frozenset[str]] = None

    def kept(self) -> RuleTemplate:
        return RuleTemplate(self.id, self.description, self.rules)

    def words(self, text: str) -> list[str]:
        """What the patterns match in `text`, each once, at most MAX_MATCHED."""
        found: dict[str, None] = {}
        for m in self.patterns.finditer(text) if self.patterns is not None else ():
            found.setdefault(" ".join(m.group(0).split()), None)
            if len(found) >= MAX_MATCHED:
                break
        return list(found)

    def use_by_card(self, card: Card, search: bool = True) -> Optional[RuleUse]:
        """The use of this template by `card`, if any (its text searched unless `search` is false)."""
        if not self.cards or card.kind not in self.kinds:
            return None
        matched = [f"type: {t}" for t in card.types if t in self.types]
        matched += [shown for name in self.fields if (shown := FIELDS[name](card))]
        if search:
            matched += self.words(card.text)
        return RuleUse(self.id, matched) if matched else None

    def use_by_text(self, text: str) -> Optional[RuleUse]:
        matched = self.words(text) if self.rulings else []
        return RuleUse(self.id, matched) if matched else None


class Matcher:
    """The templates' uses by cards and rulings: a text is searched only with the
    templates whose trigger substrings it holds (see `triggers`)."""

    def __init__(self, templates: list[Template]):
        self.templates = templates
        self.unfiltered = {n for n, t in enumerate(templates) if t.patterns is not None and t.triggers is None}
        by_trigger: dict[str, list[int]] = {}
        for n, t in enumerate(templates):
            for trigger in t.triggers or ():
                by_trigger.setdefault(trigger, []).append(n)
        self.by_trigger = list(by_trigger.items())
        self.by_type: dict[str, list[int]] = {}
        for n, t in enumerate(templates):
            for name in t.types:
                self.by_type.setdefault(name, []).append(n)
        self.by_field = {n for n, t in enumerate(templates) if t.fields}

    def searched(self, text: str) -> set[int]:
        """The templates whose patterns may match `text`."""
        lowered = text.lower()
        found = set(self.unfiltered)
        for ns in (ns for trigger, ns in self.by_trigger if trigger in lowered):
            found.update(ns)
        return found

    def card_uses(self, card: Card) -> list[RuleUse]:
        search = self.searched(card.text)
        chosen = search.union(self.by_field, *(self.by_type.get(t, ()) for t in card.types))
        return [use for n in sorted(chosen) if (use := self.templates[n].use_by_card(card, n in search))]

    def text_uses(self, text: str) -> list[RuleUse]:
        return [use for n in sorted(self.searched(text)) if (use := self.templates[n].use_by_text(text))]


def load_templates(path: Path, corpus: "Corpus") -> tuple[list[Template], list[Problem]]:
    """The templates of `path`, each checked: its rules must be paragraphs or sections
    of the corpus, its patterns valid regular expressions. A template with a fault
    is reported; one left with no rule or nothing to match is dropped."""
    problems: list[Problem] = []
    try:
        data, _ = datafile.read_yaml(path, "the card templates", with_lines=True)
    except SourceError as exc:
        return [], [Problem(FILE, exc.line, "template", f"{exc.message}; no card relies on any template")]
    entries = data.get("templates") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return [], [Problem(FILE, 0, "template", "the file holds no 'templates:' list; no card relies on any template")]
    templates, seen = [], set()
    for entry in entries:
        template = _template(entry, corpus, problems)
        if template is None:
            continue
        if template.id in seen:
            problems.append(Problem(FILE, template.line, "template", f"template {template.id!r} is defined twice; "
                                                                     "the second is ignored", template.id))
            continue
        seen.add(template.id)
        templates.append(template)
    return templates, problems


def _template(entry, corpus: "Corpus", problems: list[Problem]) -> Optional[Template]:
    if not isinstance(entry, dict):
        problems.append(Problem(FILE, 0, "template", f"a template is not a mapping: {str(entry)[:60]!r}"))
        return None
    line = entry.get("__line__", 0)
    ident = entry.get("id")

    def fault(message: str) -> None:
        problems.append(Problem(FILE, line, "template", f"template {ident!r}: {message}",
                                ident if isinstance(ident, str) else None))

    if not isinstance(ident, str) or not _ID_RE.match(ident):
        fault("its id must be lowercase words joined by '-'; the template is ignored")
        return None
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        fault(f"unknown keys {', '.join(unknown)} (known: {', '.join(sorted(_KEYS - {'__line__'}))})")
    description = entry.get("description")
    if not isinstance(description, str) or not description.strip():
        fault("it has no description")
        description = ""
    rules = []
    for rule in _strings(entry.get("rules"), "rules", fault):
        if corpus.get(rule) is None:
            fault(f"rule {rule!r} is no paragraph or section of the corpus")
        else:
            rules.append(rule)
    flags = re.IGNORECASE if entry.get("case", "insensitive") != "sensitive" else 0
    patterns = []
    for pattern in _strings(entry.get("patterns"), "patterns", fault):
        try:
            re.compile(pattern, flags)
            patterns.append(f"(?:{pattern})")
        except re.error as exc:
            fault(f"pattern {pattern!r} is not a regular expression ({exc})")
    fields = []
    for name in _strings(entry.get("fields"), "fields", fault):
        if name in FIELDS:
            fields.append(name)
        else:
            fault(f"field {name!r} is not one of {', '.join(FIELDS)}")
    kinds = set(_strings(entry.get("kinds"), "kinds", fault)) or {CRYPT, LIBRARY}
    if kinds - {CRYPT, LIBRARY}:
        fault(f"kinds must be {CRYPT!r} or {LIBRARY!r}")
        kinds &= {CRYPT, LIBRARY}
    scope = set(_strings(entry.get("in"), "in", fault)) or {"cards", "rulings"}
    if scope - {"cards", "rulings"}:
        fault("'in' must list 'cards' and/or 'rulings'")
    types = set(_strings(entry.get("types"), "types", fault))
    if not rules:
        fault("it names no rule of the corpus; the template is ignored")
        return None
    if not (patterns or types or fields):
        fault("it has no pattern, type or field to match; the template is ignored")
        return None
    return Template(ident, description.strip(), rules, line, re.compile("|".join(patterns), flags) if patterns else None,
                    types, fields, kinds, "cards" in scope, "rulings" in scope,
                    triggers(patterns) if patterns else None)


# -- the quick test -------------------------------------------------------------------------
# Searching ~110 templates in ~6,500 texts takes seconds; most texts hold none of a
# template's words. A substring every match must contain ("stealth" for
# "[+-]\s?\d+\s+stealth") is read from the parsed pattern, and a text without
# any is skipped. Where no such substring can be proved, the text is searched.
try:
    from re import _constants as _sre, _parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]


def triggers(patterns: list[str]) -> Optional[frozenset[str]]:
    """Lowercase substrings one of which every match of the joined `patterns` holds; None when unknown."""
    try:
        found = _required(list(_sre_parse.parse("|".join(patterns))))
    except Exception:  # an internal module of `re`: if its shape changes, search every text
        return None
    return frozenset(t.lower() for t in found) if found else None


def _required(seq: list) -> Optional[frozenset[str]]:
    """The most selective set of strings one of which any match of `seq` contains."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in seq:
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        inner = None
        if op is _sre.SUBPATTERN:
            inner = _required(list(av[-1]))
        elif op is _sre.BRANCH:
            parts = [_required(list(b)) for b in av[1]]
            inner = frozenset().union(*parts) if all(parts) else None
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and av[0] >= 1:
            inner = _required(list(av[2]))
        if inner:
            candidates.append(inner)
    if run:
        candidates.append(frozenset({"".join(run)}))
    return max(candidates, key=lambda c: min(map(len, c))) if candidates else None


def _strings(value, what: str, fault) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        fault(f"'{what}' must be a list of strings")
        return []
    return value


def check_types(templates: list[Template], known: set[str]) -> list[Problem]:
    """A template naming a card type no card has (a typo) is reported."""
    return [Problem(FILE, t.line, "template", f"template {t.id!r}: no card has the type {name!r}", t.id)
            for t in templates for name in sorted(t.types - known)]
