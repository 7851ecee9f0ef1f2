"""The grammar of events: every sentence and structured form, in the order they are tried, and the parsers.

Each forms module declares its forms (forms_turn: the turn, its phases and the actions; forms_combat:
combat and damage; forms_politics: referendums; forms_torpor: torpor and diablerie; forms_situations: what
arises in play, titles, sects and control changed by cards, the Red List); this module joins
them into `WORDING` (sentence forms, tried in this order: the first that matches wins) and `STRUCTURED`
(structured forms by key). docs/scenarios.md documents every form with its example, and
tests/test_engine_wording.py holds the two to each other.

A sentence is matched with the table's names replaced by tokens (`Names.mark`): {P} a player, {M} a
minion, {N} a number (digits or "one".."ten"), {PRON} a pronoun or "the"; card properties follow a colon
or comma ("+1 bleed (limited)", "costing 1 blood"). Parsing is separate from replaying: a whole scenario
is parsed first, so a malformed event is reported with its line before anything is replayed, and the
parser tracks the names events bring into play (a recruited ally, a vampire drawn from the crypt) so
later events can name them.
"""
from __future__ import annotations

import re
from dataclasses import fields
from functools import lru_cache
from typing import Optional

from judge.engine.vtes import forms_cards, forms_combat, forms_politics, forms_situations, forms_torpor, forms_turn
from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import Event
from judge.engine.vtes.forms import NUM, PRON, Names, Pattern, StructuredForm

# forms_cards comes last: its "{M} plays <card>" takes what no form describing a card took.
TABLES = (forms_turn.FORMS, forms_combat.FORMS, forms_politics.FORMS, forms_torpor.FORMS, forms_situations.FORMS,
          forms_cards.FORMS)
WORDING: list[Pattern] = [pattern for table in TABLES for pattern in table.wordings]
STRUCTURED: dict[str, StructuredForm] = {key: form for table in TABLES for key, form in table.structured_forms.items()}


# -- sentences -----------------------------------------------------------------------------------------
_SLOTS = {"{P}": r"(?:the )?(?P<p>\x00p\d+\x00)", "{P2}": r"(?:the )?(?P<p2>\x00p\d+\x00)",
          "{M}": r"(?:the )?(?P<m>\x00m\d+\x00)", "{M2}": r"(?:the )?(?P<m2>\x00m\d+\x00)"}
_TOKEN = re.compile(r"\x00[pm]\d+\x00")


@lru_cache(maxsize=None)
def _compile(template: str) -> tuple[re.Pattern, bool]:
    """The template as a regex matching a marked sentence (`Names.mark`), and whether it names anyone."""
    rx = template.replace("{N}", rf"(?P<n>{NUM})").replace("{PRON}", PRON)
    for slot, group in _SLOTS.items():
        rx = rx.replace(slot, group)
    return re.compile(rf"^{rx}$", re.I), any(slot in template for slot in _SLOTS)


class _Match:
    """A match on a marked sentence whose groups are given back as written (names, and card names with names
    in them, included)."""

    def __init__(self, match: re.Match, originals: dict[str, str]):
        self._match, self._originals = match, originals

    def _written(self, value: Optional[str]) -> Optional[str]:
        if not value or "\x00" not in value:
            return value
        return _TOKEN.sub(lambda t: self._originals.get(t.group(0), t.group(0)), value)

    def group(self, *groups):
        if len(groups) > 1:
            return tuple(self.group(g) for g in groups)
        return self._written(self._match.group(*groups))

    def groupdict(self, default=None) -> dict:
        return {k: self._written(v) if v is not None else default for k, v in self._match.groupdict().items()}


_POSSESSIVE = re.compile(r"'s\b|'(?=\s)")


def _in_card_name(m: re.Match, kept: frozenset) -> bool:
    """Whether the apostrophe `m` found ends a word of a card's name ("Cats' Guidance": not "Cats's")."""
    if m.group(0) != "'" or not kept:
        return False
    text = m.string
    before = re.search(r"\w+$", text[:m.start()])
    after = re.match(r"\s+(\w+)", text[m.end():])
    return bool(before and after) and f"{before.group(0)}' {after.group(1)}".casefold() in kept


def parse_wording(text: str, names: Names, line: int) -> Event:
    """The event a sentence describes: the first form (WORDING) that matches; ScenarioError naming the line, an
    unknown name, or the closest forms."""
    clean = " ".join(str(text).split()).rstrip(".!").replace("\u2019", "'")
    # names first, then the possessives ("Alexis' vampire" is "Alexis's vampire"): a name ending in an apostrophe
    # ("Dancin' Dana") stays the name
    marked, originals = names.mark(clean)
    kept = names.cards.apostrophe_names() if names.cards is not None else frozenset()
    clean, marked = (_POSSESSIVE.sub(lambda m: m.group(0) if _in_card_name(m, kept) else "'s", t)
                     for t in (clean, marked))
    for pattern in WORDING:
        rx, names_anyone = _compile(pattern.template)
        # A form without a name is matched on the sentence as written: "nobody blocks" stays that sentence
        # even at a table with a minion called Nobody.
        m = rx.match(marked) if names_anyone else rx.match(clean)
        if m:
            try:
                return pattern.build(_Match(m, originals) if names_anyone else m, names, line, str(text))
            except ScenarioError as exc:
                if exc.line is None:
                    raise ScenarioError(f"in {text!r}: {exc.message}", line) from None
                raise
    _explain_unknown_name(clean, names, line, str(text))
    raise ScenarioError(f"cannot read the event {text!r}: no sentence form matches. Expected forms like "
                        f"{_closest_examples(clean)}; or a structured form (see docs/scenarios.md)", line)


_ANY_NAME = r"(?P<{g}>[^,:()]+?)"


def _explain_unknown_name(clean: str, names: Names, line: int, text: str) -> None:
    """If the sentence has a known form but names someone unknown, say who."""
    for pattern in WORDING:
        rx = pattern.template
        for slot, group in (("{P}", "p"), ("{P2}", "p2"), ("{M}", "m"), ("{M2}", "m2")):
            rx = rx.replace(slot, _ANY_NAME.format(g=group))
        rx = rx.replace("{N}", rf"(?P<n>{NUM})").replace("{PRON}", PRON)
        m = re.match(rf"^{rx}$", clean, re.I)
        if not m:
            continue
        for group, canon in (("m", names.canon_minion), ("m2", names.canon_minion),
                             ("p", names.canon_player), ("p2", names.canon_player)):
            value = m.groupdict().get(group)
            if value is not None:
                try:
                    canon(value, line)
                except ScenarioError as exc:
                    raise ScenarioError(f"in {text!r}: {exc.message}", line) from None


def _closest_examples(text: str) -> str:
    words = set(re.findall(r"[a-z]+", text.lower()))
    scored = sorted(WORDING, key=lambda p: -len(words & set(re.findall(r"[a-z]+", p.example.lower()))))
    return "; ".join(repr(p.example) for p in scored[:3])


# -- structured forms ----------------------------------------------------------------------------------
def parse_structured(data: dict, names: Names, line: int, key_lines: Optional[dict] = None) -> Event:
    """The event a structured mapping describes, by the one form its keys name; ScenarioError otherwise."""
    keys = [k for k in data if k in STRUCTURED]
    if len(keys) > 1:  # {action: Krid, bleed: 1}: "bleed" is a property of the action form here
        keys = [k for k in keys if all(o == k or o == "text" or o in STRUCTURED[k][1] for o in data)]
    if len(keys) != 1:
        forms = ", ".join(sorted(STRUCTURED))
        found = ", ".join(map(str, data)) or "nothing"
        raise ScenarioError(f"a structured event needs exactly one of the keys {forms}; found {found}", line)
    key = keys[0]
    fn, allowed, example = STRUCTURED[key]
    for k in data:
        if k not in allowed and k not in (key, "text"):
            kl = (key_lines or {}).get(k, line)
            raise ScenarioError(f"unknown key {k!r} in a {key!r} event; expected: {', '.join((key,) + allowed)} "
                                f"(e.g. {example})", kl)
    text = str(data.get("text") or "")
    try:
        event = fn(data, names, line, text)
    except (KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(f"malformed {key!r} event ({exc}); expected e.g. {example}", line) from None
    if not event.text:
        event = _with_text(event, describe_structured(key, data))
    return event


def _with_text(event: Event, text: str) -> Event:
    values = {f.name: getattr(event, f.name) for f in fields(event)}
    values["text"] = text
    return type(event)(**values)


def describe_structured(key: str, data: dict) -> str:
    """A structured event as the trace shows it when it has no `text:`."""
    parts = [f"{k}: {v}" for k, v in data.items() if k != "text"]
    return "{" + ", ".join(parts) + "}"
