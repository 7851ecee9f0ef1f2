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
_KEYS = {"id", "description", "rules", "patterns", "types", "fields", "kinds", "in", "case", "broad", "keywords", "__line__"}
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
    # For each pattern, sets of lowercase substrings any match holds one of each of (see
    # `triggers`): a text lacking them for every pattern is not searched. None: always search.
    triggers: Optional[tuple[tuple[frozenset[str], ...], ...]] = None
    # The case-insensitive patterns rewritten in lowercase and searched, case-sensitively, in the
    # text in lowercase: the same matches, found several times faster by `re`. None when the
    # patterns are case-sensitive or cannot be so rewritten.
    lowered: Optional[re.Pattern] = None
    broad: bool = False  # too general to be evidence that a ruling predates a rules change
    keywords: list[str] = field(default_factory=list)  # as written in the file; none: from the triggers

    def kept(self) -> RuleTemplate:
        return RuleTemplate(self.id, self.description, self.rules, self.stale_keywords())

    def stale_keywords(self) -> list[str]:
        """The words a meaning change of its rules must touch to make a ruling using it stale:
        those the file gives, else each pattern's most selective trigger (what every match holds:
        "stealth", "out-of-turn"); none for a card kind, a card field or a broad template."""
        if self.broad or self.types or self.fields:
            return []
        if self.keywords:
            return [k.lower() for k in self.keywords]
        words = {w.strip(" []()") for required in self.triggers or () for w in required[0]}
        return sorted(w for w in words if len(w) >= 3)

    def words(self, text: str, lowered: Optional[str] = None) -> list[str]:
        """What the patterns match in `text`, each once, at most MAX_MATCHED (`lowered`:
        the text in lowercase, if at hand)."""
        if self.patterns is None:
            return []
        if self.lowered is not None:
            lowered = text.lower() if lowered is None else lowered
            matches = self.lowered.finditer(lowered) if len(lowered) == len(text) else self.patterns.finditer(text)
        else:
            matches = self.patterns.finditer(text)
        found: dict[str, None] = {}
        for m in matches:
            found.setdefault(" ".join(text[m.start():m.end()].split()), None)
            if len(found) >= MAX_MATCHED:
                break
        return list(found)

    def use_by_card(self, card: Card, search: bool = True, lowered: Optional[str] = None) -> Optional[RuleUse]:
        """The use of this template by `card`, if any (its text searched unless `search` is false)."""
        if not self.cards or card.kind not in self.kinds:
            return None
        matched = [f"type: {t}" for t in card.types if t in self.types]
        matched += [shown for name in self.fields if (shown := FIELDS[name](card))]
        if search:
            matched += self.words(card.text, lowered)
        return RuleUse(self.id, matched) if matched else None

    def use_by_text(self, text: str, lowered: Optional[str] = None) -> Optional[RuleUse]:
        matched = self.words(text, lowered) if self.rulings else []
        return RuleUse(self.id, matched) if matched else None


class Matcher:
    """The templates' uses by cards and rulings: a text is searched only with the
    templates whose trigger substrings it holds (see `triggers`)."""

    def __init__(self, templates: list[Template]):
        self.templates = templates
        self.unfiltered = {n for n, t in enumerate(templates) if t.patterns is not None and t.triggers is None}
        # each pattern's most selective set indexes it; its other sets are checked after
        by_trigger: dict[str, list[tuple[int, tuple[frozenset[str], ...]]]] = {}
        for n, t in enumerate(templates):
            for required in t.triggers or ():
                for trigger in required[0]:
                    by_trigger.setdefault(trigger, []).append((n, required[1:]))
        self.by_trigger = by_trigger
        self.triggers = tuple(by_trigger)
        self.by_type: dict[str, list[int]] = {}
        for n, t in enumerate(templates):
            for name in t.types:
                self.by_type.setdefault(name, []).append(n)
        self.by_field = {n for n, t in enumerate(templates) if t.fields}

    def searched(self, lowered: str) -> set[int]:
        """The templates whose patterns may match a text (`lowered`: in lowercase)."""
        found = set(self.unfiltered)
        # filter() runs the substring tests in C: a Python loop over the ~160 triggers cost
        # more than all the pattern searches together.
        for trigger in filter(lowered.__contains__, self.triggers):
            found.update(n for n, rest in self.by_trigger[trigger] if n not in found and
                         all(any(t in lowered for t in group) for group in rest))
        return found

    def card_uses(self, card: Card) -> list[RuleUse]:
        lowered = card.text.lower()
        search = self.searched(lowered)
        chosen = search.union(self.by_field, *(self.by_type.get(t, ()) for t in card.types))
        return [use for n in sorted(chosen) if (use := self.templates[n].use_by_card(card, n in search, lowered))]

    def text_uses(self, text: str) -> list[RuleUse]:
        lowered = text.lower()
        return [use for n in sorted(self.searched(lowered)) if (use := self.templates[n].use_by_text(text, lowered))]


def load_templates(path: Path, corpus: "Corpus") -> tuple[list[Template], list[Problem]]:
    """The templates of `path`, each checked: its rules must be paragraphs or sections
    of the corpus, its patterns valid regular expressions. A template with a fault
    is reported; one left with no rule or nothing to match is dropped."""
    problems: list[Problem] = []
    try:
        data, _ = datafile.read_yaml(path, "the card templates", with_lines=True, fast=True)
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
    keywords = _strings(entry.get("keywords"), "keywords", fault)
    broad = entry.get("broad", False)
    if not isinstance(broad, bool):
        fault("'broad' must be true or false")
        broad = False
    if not rules:
        fault("it names no rule of the corpus; the template is ignored")
        return None
    if not (patterns or types or fields):
        fault("it has no pattern, type or field to match; the template is ignored")
        return None
    joined = "|".join(patterns)
    return Template(ident, description.strip(), rules, line, re.compile(joined, flags) if patterns else None,
                    types, fields, kinds, "cards" in scope, "rulings" in scope,
                    triggers(patterns) if patterns else None,
                    _in_lowercase(joined) if patterns and flags & re.IGNORECASE else None, broad, keywords)


def _in_lowercase(pattern: str) -> Optional[re.Pattern]:
    """`pattern` (case-insensitive) as a case-sensitive pattern for text in lowercase: its
    letters lowercased, except those of escapes (\\S is not \\s). None if it does not compile
    or holds what lowercasing could change ((?P<Name>), (?i), \\N{...})."""
    if re.search(r"\(\?(?![:=!]|<[=!])|\\N", pattern):
        return None
    out, escaped = [], False
    for char in pattern:
        out.append(char if escaped else char.lower())
        escaped = not escaped and char == "\\"
    try:
        return re.compile("".join(out))
    except re.error:
        return None


# -- the quick test -------------------------------------------------------------------------
# Searching ~110 templates in ~6,500 texts takes seconds; most texts hold none of a
# template's words. What every match must contain is read from the parsed pattern:
# sets of substrings, each set holding one the match contains ("stealth" for
# "[+-]\s?\d+\s+stealth"; "action " and one of "ends", "is ended" for "action
# (?:ends|is ended)"), and a text lacking one is skipped. Where nothing can be
# proved, the text is searched.
try:
    from re import _constants as _sre, _parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]


def triggers(patterns: list[str]) -> Optional[tuple[tuple[frozenset[str], ...], ...]]:
    """For each pattern, sets of lowercase substrings every match of it holds one of each
    of, the most selective set first; None when nothing is known of some pattern."""
    out = []
    for pattern in patterns:
        try:
            found = _required(list(_sre_parse.parse(pattern)))
        except Exception:  # an internal module of `re`: if its shape changes, search every text
            return None
        if not found:
            return None
        found = {frozenset(t.lower() for t in group) for group in found}
        out.append(tuple(sorted(found, key=_selectivity, reverse=True)))
    return tuple(out) if out else None


def _selectivity(group: frozenset[str]) -> tuple:
    return (min(map(len, group)), -len(group), sorted(group))


def _required(seq: list) -> list[frozenset[str]]:
    """Sets of strings, every match of `seq` containing one string of each set."""
    found: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in seq:
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if run:
            found.append(frozenset({"".join(run)}))
            run = []
        if op is _sre.SUBPATTERN and not av[1] and not av[2]:  # a group adding or removing no flag
            found.extend(_required(list(av[-1])))
        elif op is _sre.BRANCH:
            # one of the alternatives matches: the union of each one's most selective set
            parts = [_required(list(b)) for b in av[1]]
            if all(parts):
                found.append(frozenset().union(*(max(p, key=_selectivity) for p in parts)))
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and av[0] >= 1:
            found.extend(_required(list(av[2])))
    if run:
        found.append(frozenset({"".join(run)}))
    return found


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
