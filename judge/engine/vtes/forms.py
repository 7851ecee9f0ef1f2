"""What every form of an event shares: numbers, the table's names, card properties, and the tables of forms.

A scenario writes an event as a sentence ("Belinde bleeds Alexis") or as a structured mapping
({bleed: Belinde, target: Alexis}). Each forms module (forms_turn, forms_combat, forms_torpor,
forms_politics, forms_situations) declares its own forms in a `FormTable`, with a builder from the match to the event
(events.py); grammar.py joins the tables, in the order they are tried, and parses. This module holds
what those builders share, under public names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import CardEffect, Cost, Event
from judge.engine.limits import NUMBER_BOUND, NUMBERS, check_name

NUMBER_WORDS = {"zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10}
NUM = r"(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)"
PRON = r"(?:her|his|their|its|the)"
PHASE_NAMES = ("unlock", "master", "minion", "influence", "discard")


def number(text: str) -> int:
    """A number of a sentence, digits or a word; ScenarioError (without its line: grammar.parse_wording adds it)
    beyond the bounds every number of a scenario keeps to (limits.NUMBER_BOUND)."""
    text = text.strip().lower()
    if not text.lstrip("+-").isdecimal():
        return NUMBER_WORDS[text]
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(NUMBER_BOUND)) or abs(int(text)) > NUMBER_BOUND:
        shown = text if len(text) <= 24 else text[:24] + "..."
        raise ScenarioError(f"the number {shown} is out of bounds; {NUMBERS}")
    return int(text)


# -- names known to the parser ------------------------------------------------------
class Names:
    """Players and minions a sentence can name, with case-insensitive lookup."""

    def __init__(self, players: list[str], minions: list[str], cards=None, locations: list[str] = ()):
        self.players = list(players)
        self.minions = list(minions)
        self.locations = list(locations)  # the table's locations: a card may be played on one ("Arson on ...")
        self.cards = cards  # a cards.Catalog, or None: no card base was given (a named card is then refused)
        self._lowered = [(n.lower(), n, "p", i) for i, n in enumerate(self.players)]
        self._lowered += [(n.lower(), n, "m", i) for i, n in enumerate(self.minions)]

    def add_minion(self, name: str, line: int) -> None:
        check_name(name, line)
        if name.lower() in {n.lower() for n in self.minions + self.players}:
            raise ScenarioError(f"the name {name!r} is already used; give the new card another name "
                                f"(e.g. {name + ' 2'!r})", line)
        self._lowered.append((name.lower(), name, "m", len(self.minions)))
        self.minions.append(name)

    def canon_player(self, text: str, line: int) -> str:
        return _canon(text, self.players, "player", line)

    def canon_minion(self, text: str, line: int) -> str:
        return _canon(text, self.minions, "minion", line)

    def mark(self, clean: str) -> tuple[str, dict[str, str]]:
        """`clean` with each name in it replaced by a token (NUL p3 NUL for the fourth player, NUL m0 NUL for the
        first minion), and the text each token stands for. A name is found in any case, not inside a word,
        the leftmost first and the longest there. The sentence forms (grammar.WORDING) match the tokens, so
        each is compiled once whatever the table's names (docs/scenarios.md gives what the names would cost
        compiled into them)."""
        low = clean.lower()
        found = []
        for lowered, name, kind, i in self._lowered:
            if lowered not in low:  # cheap: most names are not in a given sentence
                continue
            for m in re.finditer(re.escape(name), clean, re.I):
                start, end = m.span()
                if start == end or _inside_word(clean, start, end):
                    continue
                found.append((start, -end, kind, i))
        if not found:
            return clean, {}
        out, originals, at = [], {}, 0
        for start, neg_end, kind, i in sorted(found):
            if start < at:
                continue  # overlaps a name already taken
            token = f"\x00{kind}{i}\x00"
            originals[token] = clean[start:-neg_end]
            out += [clean[at:start], token]
            at = -neg_end
        out.append(clean[at:])
        return "".join(out), originals


def _inside_word(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] continues a word on either side ("Hunt" in "hunts")."""
    return ((start > 0 and text[start - 1].isalnum() and text[start].isalnum())
            or (end < len(text) and text[end].isalnum() and text[end - 1].isalnum()))


def _canon(text: str, names: list[str], what: str, line: int) -> str:
    t = " ".join(str(text).split())
    for n in names:
        if n.lower() == t.lower():
            return n
    if t.lower().startswith("the "):
        return _canon(t[4:], names, what, line)
    raise ScenarioError(f"unknown {what} {text!r} (known: {', '.join(names) or 'none'})", line)


# -- card properties ("+1 bleed (limited), costing 1 blood") -----------------------------
_PROP_SPLIT = re.compile(r"\s*(?:,|;|\band\b)\s*")


@dataclass
class Props:
    """The properties a sentence gives a card after a colon or comma ("+1 bleed (limited), costing 1 blood")."""

    stealth: int = 0
    bleed: int = 0
    intercept: int = 0
    hunt: int = 0
    limited: Optional[bool] = None
    cost_blood: int = 0
    cost_pool: int = 0
    life: Optional[int] = None
    ally_bleed: Optional[int] = None
    strength: Optional[int] = None
    capacity: Optional[int] = None
    trifle: bool = False
    out_of_turn: bool = False
    as_: Optional[str] = None
    directed_at: list = field(default_factory=list)
    undirected: bool = False
    to: Optional[str] = None
    name: Optional[str] = None
    extra: dict = field(default_factory=dict)

    @property
    def cost(self) -> Cost:
        return Cost(blood=self.cost_blood, pool=self.cost_pool)


_PROP_FORMS = "+N stealth, +N bleed, +N intercept, +N hunt, (limited), not limited, costing N blood|pool, " \
              "life N, bleed N, strength N, capacity N, trifle, out-of-turn, directed at <player>, undirected, " \
              "as a bleed|hunt, to <minion>, named <card>; for a reaction -N bleed, redirects the bleed to " \
              "<player>, wake; for an action card puts a vampire in play"


def parse_props(text: Optional[str], names: Names, line: int, context: str) -> Props:
    """The properties in `text`; `context` (e.g. "action card", "reaction") says which are allowed."""
    props = Props()
    if not text:
        return props
    text = text.strip().rstrip(".")
    # "(limited)" qualifies the item before it; other parentheses just group items.
    text = re.sub(r"\((not limited|limited)\)", r" \1", text, flags=re.I)
    text = " ".join(text.replace("(", ",").replace(")", "").split())
    for raw in _PROP_SPLIT.split(text):
        item = raw.strip().strip("()").strip()
        if not item:
            continue
        if not _parse_prop(item, props, names, line, context):
            raise ScenarioError(f"in {context}: cannot read {raw.strip()!r}; expected one of: {_PROP_FORMS}", line)
    return props


def _parse_prop(item: str, p: Props, names: Names, line: int, context: str) -> bool:
    low = item.lower()
    if context == "reaction":  # "+1 intercept to Eugenio": the intercept goes to the blocker named
        m = re.fullmatch(rf"([+-]?{NUM} intercept) (?:to|for) (.+)", item, re.I)
        if m:
            return _parse_prop(m.group(1), p, names, line, context) and _parse_prop(f"to {m.group(2)}", p, names,
                                                                                   line, context)
    m = re.fullmatch(rf"(?:at )?([+-]?{NUM}) (stealth|bleed|intercept|hunt)(?: \(?(limited|not limited)\)?)?", low)
    if m and (m.group(1)[0] in "+-" or context != "ally"):
        value = number(m.group(1))
        kind = m.group(2)
        setattr(p, kind, getattr(p, kind) + value)
        if m.group(3):
            p.limited = m.group(3) == "limited"
        return True
    if low in ("limited", "(limited)"):
        p.limited = True
        return True
    if low in ("not limited", "unlimited", "does not count against the limit"):
        p.limited = False
        return True
    m = re.fullmatch(rf"cost(?:ing|s)?(?: [\w' .]+?)? ({NUM}) (blood|pool|life)", low)
    if m:
        if m.group(2) == "pool":
            p.cost_pool += number(m.group(1))
        else:
            p.cost_blood += number(m.group(1))
        return True
    m = re.fullmatch(rf"(?:(life|bleed|strength|capacity) ({NUM})|({NUM}) (life|strength|capacity))", low)
    if m:
        key = m.group(1) or m.group(4)
        value = number(m.group(2) or m.group(3))
        if key == "bleed":
            p.ally_bleed = value
        else:
            setattr(p, key, value)
        return True
    if low == "trifle":
        p.trifle = True
        return True
    if low in ("out-of-turn", "out of turn"):
        p.out_of_turn = True
        return True
    m = re.fullmatch(r"(?:as )?(?:an? )?(bleed|hunt)(?: action)?(?: at ([+-]\d+))?", low)
    if m and context == "action card":
        p.as_ = m.group(1)
        if m.group(2):
            setattr(p, m.group(1), getattr(p, m.group(1)) + number(m.group(2)))
        return True
    m = re.fullmatch(r"(?:directed )?at (.+)", item, re.I)
    if m and context == "action card":
        p.directed_at.append(names.canon_player(m.group(1), line))
        return True
    if low == "directed" and context == "action card":
        p.extra["directed"] = True
        return True
    if low == "undirected":
        p.undirected = True
        return True
    if low in ("any target", "may bleed any methuselah", "any methuselah"):
        p.extra["any_target"] = True
        return True
    m = re.fullmatch(r"(?:to|for|giving it to) (.+)", item, re.I)
    if m and context == "reaction":
        p.to = names.canon_minion(m.group(1), line)
        return True
    m = re.fullmatch(r"(?:named|called) (.+)", item, re.I)
    if m:
        p.name = m.group(1).strip()
        return True
    m = re.fullmatch(r"(?:clan|sect|title) (.+)", item, re.I)
    if m and context == "crypt":
        p.extra[low.split()[0]] = m.group(1).strip()
        return True
    if context == "reaction" and _situation_prop(item, low, p, names, line):
        return True
    if low == "unique" and context in ("equipment", "master card"):
        p.extra["unique"] = True
        return True
    if low in ("location", "a location") and context == "master card":
        p.extra["location"] = True
        return True
    if context == "action card" and low in ("puts a vampire in play", "puts a new vampire in play",
                                            "puts a vampire into play", "brings a new vampire into play"):
        p.extra["puts_vampire"] = True
        return True
    if low in ("ally", "retainer", "equipment", "a card", "from hand", "from her hand", "from his hand",
               "from their hand", "vampire"):
        return True
    return False


def _situation_prop(item: str, low: str, p: Props, names: Names, line: int) -> bool:
    """A reaction's "redirects the bleed to Bob" or "wake" (situations met in play)."""
    m = re.fullmatch(r"(?:redirects?|redirecting) (?:the bleed |it |the action )?to (.+)", item, re.I)
    if m:
        p.extra["redirect"] = names.canon_player(m.group(1), line)
        return True
    if low in ("wake", "wakes", "waking", "wakes up", "wake effect"):
        p.extra["wake"] = True
        return True
    return False


# -- tables of forms -----------------------------------------------------------------------------------
WordingBuilder = Callable[[re.Match, Names, int, str], Event]
StructuredBuilder = Callable[[dict, Names, int, str], Event]


@dataclass
class Pattern:
    """A sentence form: its template, the builder of its event, and the example docs/scenarios.md shows."""

    template: str  # regex with {P} player, {M} minion, {M2} second minion, {N} number, {PRON} a pronoun
    build: WordingBuilder
    example: str


class StructuredForm(NamedTuple):
    """A structured form: the builder of its event, the keys it allows, and its documented example."""

    build: StructuredBuilder
    allowed: tuple[str, ...]  # the keys allowed beside the form's own key (and `text`)
    example: str


class FormTable:
    """The forms of one module, in the order written: `@FORMS.wording(template, example)` adds a sentence
    form, `@FORMS.structured(key, allowed, example)` a structured one."""

    def __init__(self) -> None:
        self.wordings: list[Pattern] = []
        self.structured_forms: dict[str, StructuredForm] = {}

    def wording(self, template: str, example: str):
        def add(fn: WordingBuilder) -> WordingBuilder:
            self.wordings.append(Pattern(template, fn, example))
            return fn

        return add

    def structured(self, key: str, allowed: tuple[str, ...], example: str):
        def add(fn: StructuredBuilder) -> StructuredBuilder:
            self.structured_forms[key] = StructuredForm(fn, allowed, example)
            return fn

        return add


# -- what the builders share ---------------------------------------------------------------------------
def player_of(m: re.Match, names: Names, line: int, group: str = "p") -> str:
    """The player a sentence's group names, as the table spells it."""
    return names.canon_player(m.group(group), line)


def minion_of(m: re.Match, names: Names, line: int, group: str = "m") -> str:
    """The minion a sentence's group names, as the table spells it."""
    return names.canon_minion(m.group(group), line)


def card_name(raw: Optional[str]) -> Optional[str]:
    """A card's name as written, without quotes or a leading article ("the Blood Doll")."""
    if not raw:
        return None
    raw = raw.strip().strip('"\'')
    return re.sub(r"^(?:the|a|an) ", "", raw, flags=re.I) or None


def bare_name(name: Optional[str]) -> Optional[str]:
    """A card or weapon name without its article or possessive ("her .44 Magnum")."""
    if not name:
        return None
    name = name.strip().strip("\"'")
    return re.sub(r"^(?:the|a|an|her|his|its|their) ", "", name, flags=re.I).strip() or None


def cost_of(data: dict) -> Cost:
    """The `cost:` of a structured form ({blood: 1} or {pool: 2}); ValueError if it is not one."""
    c = data.get("cost") or {}
    if not isinstance(c, dict):
        raise ValueError("cost must be a mapping like {blood: 1} or {pool: 2}")
    unknown = set(c) - {"blood", "pool", "life"}
    if unknown:
        raise ValueError(f"unknown cost {sorted(unknown)}; expected blood or pool")
    return Cost(blood=int(c.get("blood", 0)) + int(c.get("life", 0)), pool=int(c.get("pool", 0)))


def effect_of(data: Any, names: Names, line: int) -> CardEffect:
    """The `effect:` of a structured form (pool, blood, life, lock, unlock, hand_size, redirect); ValueError if not
    one."""
    if not isinstance(data, dict):
        raise ValueError("an effect must be a mapping with pool, blood, life, lock, unlock, hand_size or redirect")
    unknown = set(data) - {"pool", "blood", "life", "lock", "unlock", "hand_size", "redirect"}
    if unknown:
        raise ValueError(f"unknown effect keys {sorted(unknown)}; expected pool, blood, life, lock, unlock, hand_size, "
                         f"redirect")

    def deltas(mapping, canon):
        out = []
        for who, value in (mapping or {}).items():
            if isinstance(value, str) and value.strip().lower() == "all":
                out.append((canon(who, line), None))
            else:
                out.append((canon(who, line), int(value)))
        return tuple(out)

    def listed(value):
        if value is None:
            return ()
        return tuple(names.canon_minion(v, line) for v in ([value] if isinstance(value, str) else value))

    return CardEffect(pool=deltas(data.get("pool"), names.canon_player),
                      blood=deltas({**(data.get("blood") or {}), **(data.get("life") or {})}, names.canon_minion),
                      lock=listed(data.get("lock")), unlock=listed(data.get("unlock")),
                      hand_size=tuple((names.canon_player(k, line), int(v)) for k, v in (data.get("hand_size") or {}).items()),
                      redirect=names.canon_player(data["redirect"], line) if data.get("redirect") is not None else None)
