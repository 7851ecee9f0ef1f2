"""Events: what happens at the table, as typed values, parsed from plain wording
("Belinde bleeds Alexis") or from a structured form ({bleed: Belinde, target: Alexis}).

The wording grammar is a list of sentence patterns (`WORDING`): each names the
known players ({P}) and minions ({M}) of the scenario, numbers ({N}, digits or
"one".."ten") and free card names; card properties follow a colon or comma
("+1 bleed (limited)", "costing 1 blood"). docs/scenarios.md documents every
form with an example. Combat, damage, torpor and politics add their
own patterns and keys (`wording()`, `structured()`) in events_combat.py,
events_torpor.py and events_politics.py.

Parsing is separate from replaying: a whole scenario is parsed first, so a
malformed event is reported with its line before anything is replayed. The
parser tracks the names events bring into play (a recruited ally, a vampire
drawn from the crypt) so later events can name them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Callable, ClassVar, Optional

from judge.engine.errors import ScenarioError
from judge.engine.limits import NUMBER_BOUND, NUMBERS, check_name

NUMBER_WORDS = {"zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_NUM = r"(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)"
_PRON = r"(?:her|his|their|its|the)"
PHASE_NAMES = ("unlock", "master", "minion", "influence", "discard")


def number(text: str) -> int:
    """A number of a sentence, digits or a word; ScenarioError (without its line: `parse_wording` adds it)
    beyond the bounds every number of a scenario keeps to (limits.NUMBER_BOUND)."""
    text = text.strip().lower()
    if not text.lstrip("+-").isdecimal():
        return NUMBER_WORDS[text]
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(NUMBER_BOUND)) or abs(int(text)) > NUMBER_BOUND:
        shown = text if len(text) <= 24 else text[:24] + "..."
        raise ScenarioError(f"the number {shown} is out of bounds; {NUMBERS}")
    return int(text)


# -- the events -------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Event:
    line: int = 0
    text: str = ""
    # Whether the event belongs inside an action (modifiers, reactions, blocks,
    # card effects): any other event first lets the action in progress resolve.
    within_action: ClassVar[bool] = False
    # Events that need the action to have succeeded (a referendum's terms and votes): while a
    # block attempt is open they are judged inside the action (and refused), not after it.
    needs_success: ClassVar[bool] = False

    def describe(self) -> str:
        return self.text or type(self).__name__


@dataclass(frozen=True, kw_only=True)
class GoToPhase(Event):
    phase: str
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class EndTurn(Event):
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class TurnOf(Event):
    player: str
    next: bool = False  # "Sarah's next turn": at least one full turn passes


@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    within_action: ClassVar[bool] = True
    player: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class EdgePool(Event):
    player: str


@dataclass(frozen=True, kw_only=True)
class ContestCard(Event):
    player: str
    card: str
    pay: bool  # False: yield


@dataclass(frozen=True, kw_only=True)
class ContestTitle(Event):
    minion: str
    pay: bool


@dataclass(frozen=True, kw_only=True)
class UnlockInfernal(Event):
    player: str
    minion: str


@dataclass(frozen=True, kw_only=True)
class Withdraw(Event):
    player: str


@dataclass(frozen=True, kw_only=True)
class MasterCard(Event):
    within_action: ClassVar[bool] = True  # out-of-turn ones can come at any time
    player: str
    card: Optional[str] = None
    trifle: bool = False
    out_of_turn: bool = False
    cost_pool: int = 0


@dataclass(frozen=True, kw_only=True)
class Cost:
    blood: int = 0
    pool: int = 0


@dataclass(frozen=True, kw_only=True)
class Bleed(Event):
    actor: str
    target: Optional[str] = None
    amount: Optional[int] = None  # "for N": checked against the minion's bleed


@dataclass(frozen=True, kw_only=True)
class Hunt(Event):
    actor: str


@dataclass(frozen=True, kw_only=True)
class Equip(Event):
    actor: str
    item: str
    source: Optional[str] = None  # another minion of the same Methuselah
    cost: Cost = field(default_factory=Cost)


@dataclass(frozen=True, kw_only=True)
class Employ(Event):
    actor: str
    retainer: str
    life: int = 1
    cost: Cost = field(default_factory=Cost)


@dataclass(frozen=True, kw_only=True)
class Recruit(Event):
    actor: str
    ally: str
    life: int = 1
    bleed: int = 1
    strength: int = 1
    stealth: Optional[int] = None  # "at +1 stealth" as announced
    cost: Cost = field(default_factory=Cost)


@dataclass(frozen=True, kw_only=True)
class BecomeAnarch(Event):
    actor: str


@dataclass(frozen=True, kw_only=True)
class CardEffect:
    """A card's effect as the scenario describes it: counters and lock changes."""

    pool: tuple[tuple[str, int], ...] = ()  # (player, delta); delta None: all of it
    blood: tuple[tuple[str, int], ...] = ()  # (minion, delta): blood or life
    lock: tuple[str, ...] = ()
    unlock: tuple[str, ...] = ()
    hand_size: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, kw_only=True)
class ActionCard(Event):
    actor: str
    card: Optional[str] = None
    via: Optional[str] = None  # a card in play provides the action
    as_: Optional[str] = None  # "bleed" | "hunt": a special version of a basic action
    targets: tuple[str, ...] = ()  # Methuselahs it is directed at
    directed: Optional[bool] = None
    stealth: int = 0
    bleed: int = 0
    hunt: int = 0
    any_target: bool = False  # the card allows bleeding a Methuselah other than the prey
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None
    says: Optional[str] = None


@dataclass(frozen=True, kw_only=True)
class Political(Event):
    actor: str
    card: Optional[str] = None
    cost: Cost = field(default_factory=Cost)
    effect: Optional["CardEffect"] = None  # what passing the referendum does, as the card says
    says: Optional[str] = None  # the same, described and not applied


@dataclass(frozen=True, kw_only=True)
class Unmodelled(Event):
    """An event the rules cover and this engine does not: replaying it stops."""

    what: str
    rules: tuple[str, ...] = ()  # names of citations.Rule constants
    within_action: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class Modifier(Event):
    within_action: ClassVar[bool] = True
    minion: str
    card: Optional[str] = None
    stealth: int = 0
    bleed: int = 0
    hunt: int = 0
    limited: Optional[bool] = None  # None: +bleed modifiers are limited unless said otherwise
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None


@dataclass(frozen=True, kw_only=True)
class Reaction(Event):
    within_action: ClassVar[bool] = True
    minion: str
    card: Optional[str] = None
    intercept: int = 0
    to: Optional[str] = None  # the minion the intercept goes to (default: the one playing it)
    cost: Cost = field(default_factory=Cost)
    effect: Optional[CardEffect] = None


@dataclass(frozen=True, kw_only=True)
class Block(Event):
    within_action: ClassVar[bool] = True
    blocker: str


@dataclass(frozen=True, kw_only=True)
class Decline(Event):
    within_action: ClassVar[bool] = True
    player: Optional[str] = None  # None: every Methuselah who may still block


@dataclass(frozen=True, kw_only=True)
class TransferPool(Event):
    player: str
    vampire: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class TransferBack(Event):
    player: str
    vampire: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class CryptDraw(Event):
    player: str
    vampire: str
    capacity: int
    props: tuple[tuple[str, Any], ...] = ()  # clan, sect, title...


@dataclass(frozen=True, kw_only=True)
class Influence(Event):
    player: str
    vampire: str


@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    player: str
    event_card: bool = False


@dataclass(frozen=True, kw_only=True)
class Effect(Event):
    """A card effect described by the scenario (Golden Rule): applied as said."""

    within_action: ClassVar[bool] = True
    effect: CardEffect
    source: Optional[str] = None


# -- names known to the parser ------------------------------------------------------
class Names:
    """Players and minions a sentence can name, with case-insensitive lookup."""

    def __init__(self, players: list[str], minions: list[str]):
        self.players = list(players)
        self.minions = list(minions)
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
        the leftmost first and the longest there. The sentence patterns (`WORDING`) match the tokens, so they
        are compiled once whatever the names: compiled with every name in them, they cost ~5 ms each at a
        table of 60 long names, and again whenever an event brings a new name into play."""
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
              "as a bleed|hunt, to <minion>, named <card>"


def parse_props(text: Optional[str], names: Names, line: int, context: str) -> Props:
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
        m = re.fullmatch(rf"([+-]?{_NUM} intercept) (?:to|for) (.+)", item, re.I)
        if m:
            return _parse_prop(m.group(1), p, names, line, context) and _parse_prop(f"to {m.group(2)}", p, names,
                                                                                   line, context)
    m = re.fullmatch(rf"(?:at )?([+-]?{_NUM}) (stealth|bleed|intercept|hunt)(?: \(?(limited|not limited)\)?)?", low)
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
    m = re.fullmatch(rf"cost(?:ing|s)?(?: [\w' .]+?)? ({_NUM}) (blood|pool|life)", low)
    if m:
        if m.group(2) == "pool":
            p.cost_pool += number(m.group(1))
        else:
            p.cost_blood += number(m.group(1))
        return True
    m = re.fullmatch(rf"(?:(life|bleed|strength|capacity) ({_NUM})|({_NUM}) (life|strength|capacity))", low)
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
    if low in ("ally", "retainer", "equipment", "a card", "from hand", "from her hand", "from his hand",
               "from their hand", "vampire"):
        return True
    return False


# -- the wording grammar --------------------------------------------------------------
WordingBuilder = Callable[[re.Match, Names, int, str], Event]


@dataclass
class Pattern:
    template: str  # regex with {P} player, {M} minion, {M2} second minion, {N} number
    build: WordingBuilder
    example: str


WORDING: list[Pattern] = []


def wording(template: str, example: str):
    """Register a sentence pattern (events_combat, events_torpor and events_politics add theirs)."""

    def deco(fn: WordingBuilder) -> WordingBuilder:
        WORDING.append(Pattern(template, fn, example))
        return fn

    return deco


_SLOTS = {"{P}": r"(?:the )?(?P<p>\x00p\d+\x00)", "{P2}": r"(?:the )?(?P<p2>\x00p\d+\x00)",
          "{M}": r"(?:the )?(?P<m>\x00m\d+\x00)", "{M2}": r"(?:the )?(?P<m2>\x00m\d+\x00)"}
_TOKEN = re.compile(r"\x00[pm]\d+\x00")


@lru_cache(maxsize=None)
def _compile(template: str) -> tuple[re.Pattern, bool]:
    """The template as a regex matching a marked sentence (`Names.mark`), and whether it names anyone."""
    rx = template.replace("{N}", rf"(?P<n>{_NUM})").replace("{PRON}", _PRON)
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


def parse_wording(text: str, names: Names, line: int) -> Event:
    clean = " ".join(str(text).split()).rstrip(".!").replace("\u2019", "'")
    clean = re.sub(r"'s\b|'(?=\s)", "'s", clean)
    marked, originals = names.mark(clean)
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
        rx = rx.replace("{N}", rf"(?P<n>{_NUM})").replace("{PRON}", _PRON)
        m = re.match(rf"^{rx}$", clean, re.I)
        if not m:
            continue
        for group, known, what in (("m", names.minions, "minion"), ("m2", names.minions, "minion"),
                                   ("p", names.players, "player"), ("p2", names.players, "player")):
            value = m.groupdict().get(group)
            if value is not None:
                try:
                    _canon(value, known, what, line)
                except ScenarioError as exc:
                    raise ScenarioError(f"in {text!r}: {exc.message}", line) from None


def _closest_examples(text: str) -> str:
    words = set(re.findall(r"[a-z]+", text.lower()))
    scored = sorted(WORDING, key=lambda p: -len(words & set(re.findall(r"[a-z]+", p.example.lower()))))
    return "; ".join(repr(p.example) for p in scored[:3])


def _p(m: re.Match, names: Names, line: int, group: str = "p") -> str:
    return names.canon_player(m.group(group), line)


def _m(m: re.Match, names: Names, line: int, group: str = "m") -> str:
    return names.canon_minion(m.group(group), line)


def _card_name(raw: Optional[str]) -> Optional[str]:
    if not raw:
        return None
    raw = raw.strip().strip('"\'')
    return re.sub(r"^(?:the|a|an) ", "", raw, flags=re.I) or None


# Turn and phases
@wording(r"(?:{P}(?:'s)? )?(?:the )?(?P<ph>unlock|master|minion|influence|discard) phase(?: begins| starts)?",
         "minion phase")
def _phase(m, names, line, text):
    return GoToPhase(phase=m.group("ph").lower(), player=_p(m, names, line) if m.group("p") else None,
                     line=line, text=text)


@wording(r"{P} (?:enters|moves to|goes to|begins|starts) {PRON} (?P<ph>unlock|master|minion|influence|discard) phase",
         "Sarah enters her influence phase")
def _phase2(m, names, line, text):
    return GoToPhase(phase=m.group("ph").lower(), player=_p(m, names, line), line=line, text=text)


@wording(r"(?:end of (?:the )?turn|the turn ends|{P} ends {PRON} turn)", "end of turn")
def _end_turn(m, names, line, text):
    return EndTurn(player=_p(m, names, line) if m.group("p") else None, line=line, text=text)


@wording(r"(?:it is )?{P}'s (?P<next>next )?turn(?: begins| starts)?", "Alexis's turn")
def _turn_of(m, names, line, text):
    return TurnOf(player=_p(m, names, line), next=bool(m.group("next")), line=line, text=text)


@wording(r"(?:the )?turn passes to {P}", "turn passes to Alexis")
def _turn_passes(m, names, line, text):
    return TurnOf(player=_p(m, names, line), line=line, text=text)


@wording(r"(?:pass|everyone passes|all pass|{P} passes|(?:the )?action (?:resolves|succeeds)|resolve(?: the action)?)",
         "Sarah passes")
def _pass(m, names, line, text):
    return Pass(player=_p(m, names, line) if m.group("p") else None, line=line, text=text)


# Unlock phase
@wording(r"{P} (?:gains|takes|gets) (?:1|one) pool (?:from|for) (?:having |holding )?the edge", "Sarah gains 1 pool from the Edge")
def _edge_pool(m, names, line, text):
    return EdgePool(player=_p(m, names, line), line=line, text=text)


@wording(r"{M} (?:pays (?:1|one) blood to )?(?:contest|contests|keeps contesting) {PRON} title", "Belinde pays 1 blood to contest her title")
def _title_pay(m, names, line, text):
    return ContestTitle(minion=_m(m, names, line), pay=True, line=line, text=text)


@wording(r"{M} yields {PRON} title", "Belinde yields her title")
def _title_yield(m, names, line, text):
    return ContestTitle(minion=_m(m, names, line), pay=False, line=line, text=text)


@wording(r"{P} (?:pays (?:1|one) pool to (?:keep )?contest(?:ing)?|contests|keeps contesting) (?P<x>.+)", "Sarah pays 1 pool to contest Carna")
def _contest_pay(m, names, line, text):
    return ContestCard(player=_p(m, names, line), card=_card_name(m.group("x")), pay=True, line=line, text=text)


@wording(r"{P} yields (?P<x>.+)", "Sarah yields Carna")
def _contest_yield(m, names, line, text):
    return ContestCard(player=_p(m, names, line), card=_card_name(m.group("x")), pay=False, line=line, text=text)


@wording(r"{P} burns (?:1|one) pool to unlock {M}", "Sarah burns 1 pool to unlock Lucinde")
def _infernal(m, names, line, text):
    return UnlockInfernal(player=_p(m, names, line), minion=_m(m, names, line), line=line, text=text)


@wording(r"{P} (?:announces|declares) (?:{PRON}|an?) (?:intent(?:ion)? to withdraw|withdrawal)", "Sarah announces her withdrawal")
def _withdraw(m, names, line, text):
    return Withdraw(player=_p(m, names, line), line=line, text=text)


# Master phase
@wording(r"{P} plays (?:(?P<x>[^,:]+?), )?an? (?P<oot>out-of-turn )?(?P<kind>master card|trifle|master trifle)(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "Sarah plays Blood Doll, a master card: trifle, costing 1 pool")
def _master(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "master card")
    return MasterCard(player=_p(m, names, line), card=_card_name(m.group("x") or props.name),
                      trifle=props.trifle or "trifle" in m.group("kind").lower(),
                      out_of_turn=bool(m.group("oot")) or props.out_of_turn, cost_pool=props.cost_pool,
                      line=line, text=text)


# Minion phase: actions
@wording(r"{M} (?:bleeds|attempts to bleed)(?: {P})?(?: for {N}(?: pool)?)?", "Belinde bleeds Alexis")
def _bleed(m, names, line, text):
    return Bleed(actor=_m(m, names, line), target=_p(m, names, line) if m.group("p") else None,
                 amount=number(m.group("n")) if m.group("n") else None, line=line, text=text)


@wording(r"{M} (?:hunts|attempts to hunt|goes hunting)", "Ira hunts")
def _hunt(m, names, line, text):
    return Hunt(actor=_m(m, names, line), line=line, text=text)


@wording(r"{M} (?:equips|attempts to equip) (?:with |itself with |herself with |himself with )?(?P<x>.+?)(?: from {M2})?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "Belinde equips with a .44 Magnum, costing 2 pool")
def _equip(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "equipment")
    return Equip(actor=_m(m, names, line), item=_card_name(m.group("x")),
                 source=_m(m, names, line, "m2") if m.group("m2") else None, cost=props.cost, line=line, text=text)


@wording(r"{M} (?:employs|attempts to employ) (?:a retainer,? )?(?P<x>.+?)(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "Belinde employs a Raven: retainer, life 1, costing 1 blood")
def _employ(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "retainer")
    return Employ(actor=_m(m, names, line), retainer=_card_name(m.group("x")), life=props.life or 1,
                  cost=props.cost, line=line, text=text)


@wording(r"{M} (?:recruits|attempts to recruit) (?:an ally,? )?(?P<x>.+?)(?: at \+(?P<st>\d+) stealth)?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "The Dowager recruits the Underbridge Stray at +1 stealth, costing The Dowager 1 blood")
def _recruit(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "ally")
    ally = _card_name(m.group("x"))
    names.add_minion(ally, line)
    return Recruit(actor=_m(m, names, line), ally=ally, life=props.life or 1, bleed=props.ally_bleed or 1,
                   strength=props.strength or 1, stealth=int(m.group("st")) if m.group("st") else None,
                   cost=props.cost, line=line, text=text)


@wording(r"{M} (?:becomes|attempts to become) (?:an )?anarch", "Belinde becomes anarch")
def _anarch(m, names, line, text):
    return BecomeAnarch(actor=_m(m, names, line), line=line, text=text)


@wording(r"{M} plays (?:(?P<x>[^,:]+?), )?an action card(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "Krid plays Computer Hacking, an action card: bleed at +1")
def _action_card(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "action card")
    directed = True if (props.directed_at or props.extra.get("directed")) else (False if props.undirected else None)
    return ActionCard(actor=_m(m, names, line), card=_card_name(m.group("x") or props.name),
                      as_=props.as_, targets=tuple(props.directed_at), directed=directed, stealth=props.stealth,
                      bleed=props.bleed, hunt=props.hunt, any_target=bool(props.extra.get("any_target")),
                      cost=props.cost, line=line, text=text)


@wording(r"{M} (?:plays (?:(?P<x>[^,:]+?), )?a political action(?: card)?|calls a referendum)(?:[:,] (?P<props>.+))?",
         "Belinde plays Parity Shift, a political action")
def _political(m, names, line, text):
    props = parse_props(m.group("props"), names, line, "political action")
    return Political(actor=_m(m, names, line), card=_card_name(m.group("x")), cost=props.cost, line=line, text=text)


# Minion phase: during an action
@wording(r"{M} plays (?:(?P<x>[^,:]+?), )?an action modifier(?: card)?(?:(?: for|:|,) (?P<props>.+)| \((?P<props2>.+)\))?",
         "Belinde plays an action modifier: +1 bleed (limited)")
def _modifier(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "action modifier")
    return Modifier(minion=_m(m, names, line), card=_card_name(m.group("x") or props.name), stealth=props.stealth,
                    bleed=props.bleed, hunt=props.hunt, limited=props.limited, cost=props.cost, line=line, text=text)


@wording(r"{M} plays (?:(?P<x>[^,:]+?), )?a reaction(?: card)?(?:(?: for|:|,) (?P<props>.+)| \((?P<props2>.+)\))?",
         "Carna plays a reaction for +1 intercept")
def _reaction(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "reaction")
    return Reaction(minion=_m(m, names, line), card=_card_name(m.group("x") or props.name), intercept=props.intercept,
                    to=props.to, cost=props.cost, line=line, text=text)


@wording(r"(?:{M} (?:blocks|attempts to block|tries to block)|{P} (?:blocks|attempts to block|tries to block) with {M2})(?: the action)?",
         "Carna attempts to block")
def _block(m, names, line, text):
    return Block(blocker=_m(m, names, line, "m" if m.group("m") else "m2"), line=line, text=text)


@wording(r"{P} (?:declines to block|does not block|doesn't block|declines|will not block|passes on blocking|makes no (?:more |further )?block attempts?)",
         "Alexis declines to block")
def _decline(m, names, line, text):
    return Decline(player=_p(m, names, line), line=line, text=text)


@wording(r"(?:no block|no blocks|nobody blocks|no one blocks|the action is not blocked|not blocked)",
         "nobody blocks")
def _decline_all(m, names, line, text):
    return Decline(player=None, line=line, text=text)


# Influence phase
@wording(r"{P} (?:moves|transfers|puts|spends \w+ transfers? to move) {N} pool (?:on|to|onto) {M}", "Nora moves 2 pool to Alexa Draper")
def _transfer_pool(m, names, line, text):
    return TransferPool(player=_p(m, names, line), vampire=_m(m, names, line), amount=number(m.group("n")),
                        line=line, text=text)


@wording(r"{P} (?:moves|takes|spends \w+ transfers? to (?:move|take)) {N} blood (?:back )?(?:from|off) {M}(?: back)?(?: to {PRON} pool)?",
         "Nora takes 1 blood back from Sybren van Oosten")
def _transfer_back(m, names, line, text):
    return TransferBack(player=_p(m, names, line), vampire=_m(m, names, line), amount=number(m.group("n")),
                        line=line, text=text)


@wording(r"{P} (?:moves|draws) (?P<x>.+?) from {PRON} crypt(?: (?:to|into) {PRON} uncontrolled region)?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
         "Nora moves Tariq from her crypt to her uncontrolled region: capacity 5")
def _crypt(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "crypt")
    if props.capacity is None:
        raise ScenarioError("a vampire drawn from the crypt needs its capacity (e.g. ': capacity 5')", line)
    vampire = _card_name(m.group("x"))
    names.add_minion(vampire, line)
    return CryptDraw(player=_p(m, names, line), vampire=vampire, capacity=props.capacity,
                     props=tuple(sorted(props.extra.items())), line=line, text=text)


@wording(r"{P} (?:moves|influences(?: out)?|takes control of|brings) {M}(?: (?:face up )?(?:in)?to {PRON} ready region| out| into play)?",
         "Nora moves Alexa Draper to the ready region")
def _influence(m, names, line, text):
    return Influence(player=_p(m, names, line), vampire=_m(m, names, line), line=line, text=text)


# Discard phase
@wording(r"{P} (?:discards a card|uses {PRON} discard phase action to discard a card)(?: and draws(?: another| a card)?)?",
         "Sarah discards a card")
def _discard(m, names, line, text):
    return Discard(player=_p(m, names, line), line=line, text=text)


@wording(r"{P} plays (?:(?P<x>[^,:]+?), )?an event(?: card)?", "Sarah plays an event card")
def _event_card(m, names, line, text):
    return Discard(player=_p(m, names, line), event_card=True, line=line, text=text)


# Described card effects
@wording(r"{P} (?P<verb>burns|loses|pays|spends|gains|gets) {N} pool", "Steve burns 3 pool")
def _pool_effect(m, names, line, text):
    n = number(m.group("n"))
    sign = 1 if m.group("verb").lower() in ("gains", "gets") else -1
    return Effect(effect=CardEffect(pool=((_p(m, names, line), sign * n),)), line=line, text=text)


@wording(r"{P} (?:burns all (?:of )?{PRON} pool|is ousted|loses all (?:of )?{PRON} pool)", "Steve burns all his pool")
def _all_pool(m, names, line, text):
    return Effect(effect=CardEffect(pool=((_p(m, names, line), None),)), line=line, text=text)


@wording(r"{M} (?P<verb>burns|loses|pays|gains|gets) {N} (?:blood|life)", "Belinde burns 1 blood")
def _blood_effect(m, names, line, text):
    n = number(m.group("n"))
    sign = 1 if m.group("verb").lower() in ("gains", "gets") else -1
    return Effect(effect=CardEffect(blood=((_m(m, names, line), sign * n),)), line=line, text=text)


@wording(r"(?:an effect (?P<st>locks|unlocks) {M}|{M2} (?:is (?P<st2>locked|unlocked)|(?P<st3>locks|unlocks)))",
         "an effect unlocks Belinde")
def _lock_effect(m, names, line, text):
    state = (m.group("st") or m.group("st2") or m.group("st3")).lower()
    who = _m(m, names, line, "m" if m.group("m") else "m2")
    unlock = state.startswith("unlock")
    return Effect(effect=CardEffect(unlock=(who,)) if unlock else CardEffect(lock=(who,)), line=line, text=text)


@wording(r"{P}'s hand size (?:becomes|is now|is) {N}", "Sarah's hand size becomes 8")
def _hand_size(m, names, line, text):
    return Effect(effect=CardEffect(hand_size=((_p(m, names, line), number(m.group("n"))),)), line=line, text=text)


# Covered by the rules, not by this engine
@wording(r"(?:.+ )?(?:redirects|is redirected|changes the target).*", "the bleed is redirected to Bob")
def _redirect(m, names, line, text):
    return Unmodelled(what="changing the target of an action (redirection reopens block attempts)",
                      rules=("BLOCK_DECLINE_FINAL",), line=line, text=text)


# -- structured forms ------------------------------------------------------------------
StructuredBuilder = Callable[[dict, Names, int, str], Event]
STRUCTURED: dict[str, tuple[StructuredBuilder, tuple[str, ...], str]] = {}


def structured(key: str, allowed: tuple[str, ...], example: str):
    """Register a structured form keyed by `key`."""

    def deco(fn: StructuredBuilder) -> StructuredBuilder:
        STRUCTURED[key] = (fn, allowed, example)
        return fn

    return deco


def parse_structured(data: dict, names: Names, line: int, key_lines: Optional[dict] = None) -> Event:
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
    parts = [f"{k}: {v}" for k, v in data.items() if k != "text"]
    return "{" + ", ".join(parts) + "}"


def _cost(data: dict) -> Cost:
    c = data.get("cost") or {}
    if not isinstance(c, dict):
        raise ValueError("cost must be a mapping like {blood: 1} or {pool: 2}")
    unknown = set(c) - {"blood", "pool", "life"}
    if unknown:
        raise ValueError(f"unknown cost {sorted(unknown)}; expected blood or pool")
    return Cost(blood=int(c.get("blood", 0)) + int(c.get("life", 0)), pool=int(c.get("pool", 0)))


def _effect(data: Any, names: Names, line: int) -> CardEffect:
    if not isinstance(data, dict):
        raise ValueError("an effect must be a mapping with pool, blood, life, lock, unlock or hand_size")
    unknown = set(data) - {"pool", "blood", "life", "lock", "unlock", "hand_size"}
    if unknown:
        raise ValueError(f"unknown effect keys {sorted(unknown)}; expected pool, blood, life, lock, unlock, hand_size")

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
                      hand_size=tuple((names.canon_player(k, line), int(v)) for k, v in (data.get("hand_size") or {}).items()))


@structured("phase", ("player",), "{phase: influence}")
def _s_phase(d, names, line, text):
    phase = str(d["phase"]).lower().replace(" phase", "")
    if phase not in PHASE_NAMES:
        raise ValueError(f"phase must be one of {', '.join(PHASE_NAMES)}")
    return GoToPhase(phase=phase, player=names.canon_player(d["player"], line) if d.get("player") else None,
                     line=line, text=text)


@structured("end_turn", (), "{end_turn: true}")
def _s_end_turn(d, names, line, text):
    return EndTurn(line=line, text=text)


@structured("turn", ("next",), "{turn: Alexis}")
def _s_turn(d, names, line, text):
    return TurnOf(player=names.canon_player(d["turn"], line), next=bool(d.get("next")), line=line, text=text)


@structured("pass", (), "{pass: Sarah}")
def _s_pass(d, names, line, text):
    who = d["pass"]
    return Pass(player=names.canon_player(who, line) if isinstance(who, str) else None, line=line, text=text)


@structured("edge_pool", (), "{edge_pool: Sarah}")
def _s_edge(d, names, line, text):
    return EdgePool(player=names.canon_player(d["edge_pool"], line), line=line, text=text)


@structured("contest", ("player", "pay"), "{contest: Carna, player: Sarah, pay: true}")
def _s_contest(d, names, line, text):
    return ContestCard(player=names.canon_player(d["player"], line), card=str(d["contest"]), pay=bool(d.get("pay", True)),
                       line=line, text=text)


@structured("title", ("pay",), "{title: Belinde, pay: false}")
def _s_title(d, names, line, text):
    return ContestTitle(minion=names.canon_minion(d["title"], line), pay=bool(d.get("pay", True)), line=line, text=text)


@structured("unlock_infernal", ("player",), "{unlock_infernal: Lucinde, player: Sarah}")
def _s_infernal(d, names, line, text):
    return UnlockInfernal(player=names.canon_player(d["player"], line), minion=names.canon_minion(d["unlock_infernal"], line),
                          line=line, text=text)


@structured("withdraw", (), "{withdraw: Sarah}")
def _s_withdraw(d, names, line, text):
    return Withdraw(player=names.canon_player(d["withdraw"], line), line=line, text=text)


@structured("master", ("card", "trifle", "out_of_turn", "cost"), "{master: Sarah, card: Blood Doll, trifle: true}")
def _s_master(d, names, line, text):
    return MasterCard(player=names.canon_player(d["master"], line), card=d.get("card"), trifle=bool(d.get("trifle")),
                      out_of_turn=bool(d.get("out_of_turn")), cost_pool=_cost(d).pool, line=line, text=text)


@structured("bleed", ("target", "amount"), "{bleed: Belinde, target: Alexis}")
def _s_bleed(d, names, line, text):
    return Bleed(actor=names.canon_minion(d["bleed"], line),
                 target=names.canon_player(d["target"], line) if d.get("target") else None,
                 amount=int(d["amount"]) if d.get("amount") is not None else None, line=line, text=text)


@structured("hunt", (), "{hunt: Ira}")
def _s_hunt(d, names, line, text):
    return Hunt(actor=names.canon_minion(d["hunt"], line), line=line, text=text)


@structured("equip", ("by", "from", "cost"), "{equip: .44 Magnum, by: Belinde, cost: {pool: 2}}")
def _s_equip(d, names, line, text):
    return Equip(actor=names.canon_minion(d["by"], line), item=str(d["equip"]),
                 source=names.canon_minion(d["from"], line) if d.get("from") else None, cost=_cost(d), line=line, text=text)


@structured("employ", ("by", "life", "cost"), "{employ: Raven, by: Belinde, life: 1}")
def _s_employ(d, names, line, text):
    return Employ(actor=names.canon_minion(d["by"], line), retainer=str(d["employ"]), life=int(d.get("life", 1)),
                  cost=_cost(d), line=line, text=text)


@structured("recruit", ("by", "life", "bleed", "strength", "stealth", "cost"),
            "{recruit: Underbridge Stray, by: The Dowager, life: 2, cost: {blood: 1}}")
def _s_recruit(d, names, line, text):
    ally = str(d["recruit"])
    names.add_minion(ally, line)
    return Recruit(actor=names.canon_minion(d["by"], line), ally=ally, life=int(d.get("life", 1)),
                   bleed=int(d.get("bleed", 1)), strength=int(d.get("strength", 1)),
                   stealth=int(d["stealth"]) if d.get("stealth") is not None else None, cost=_cost(d), line=line, text=text)


@structured("anarch", (), "{anarch: Belinde}")
def _s_anarch(d, names, line, text):
    return BecomeAnarch(actor=names.canon_minion(d["anarch"], line), line=line, text=text)


@structured("action", ("card", "via", "as", "target", "targets", "directed", "stealth", "bleed", "hunt", "any_target",
                       "cost", "effect", "says"),
            "{action: Krid, card: Computer Hacking, as: bleed, bleed: 1}")
def _s_action(d, names, line, text):
    targets = d.get("targets") or ([d["target"]] if d.get("target") else [])
    as_ = d.get("as")
    if as_ not in (None, "bleed", "hunt"):
        raise ValueError("'as' must be bleed or hunt (the basic action the card is a special version of)")
    return ActionCard(actor=names.canon_minion(d["action"], line), card=d.get("card"), via=d.get("via"), as_=as_,
                      targets=tuple(names.canon_player(t, line) for t in targets),
                      directed=d.get("directed"), stealth=int(d.get("stealth", 0)), bleed=int(d.get("bleed", 0)),
                      hunt=int(d.get("hunt", 0)), any_target=bool(d.get("any_target")), cost=_cost(d),
                      effect=_effect(d["effect"], names, line) if d.get("effect") else None,
                      says=d.get("says"), line=line, text=text)


@structured("political", ("card", "cost", "effect", "says"),
            "{political: Lucinde, card: Kine Resources Contested, effect: {pool: {Alexis: -2}}}")
def _s_political(d, names, line, text):
    return Political(actor=names.canon_minion(d["political"], line), card=d.get("card"), cost=_cost(d),
                     effect=_effect(d["effect"], names, line) if d.get("effect") else None, says=d.get("says"),
                     line=line, text=text)


@structured("modifier", ("card", "stealth", "bleed", "hunt", "limited", "cost", "effect"),
            "{modifier: Quentin, card: Confusion, bleed: 1}")
def _s_modifier(d, names, line, text):
    return Modifier(minion=names.canon_minion(d["modifier"], line), card=d.get("card"), stealth=int(d.get("stealth", 0)),
                    bleed=int(d.get("bleed", 0)), hunt=int(d.get("hunt", 0)),
                    limited=d.get("limited") if d.get("limited") is None else bool(d.get("limited")), cost=_cost(d),
                    effect=_effect(d["effect"], names, line) if d.get("effect") else None, line=line, text=text)


@structured("reaction", ("card", "intercept", "to", "cost", "effect"), "{reaction: Eugenio, intercept: 1}")
def _s_reaction(d, names, line, text):
    return Reaction(minion=names.canon_minion(d["reaction"], line), card=d.get("card"),
                    intercept=int(d.get("intercept", 0)), to=names.canon_minion(d["to"], line) if d.get("to") else None,
                    cost=_cost(d), effect=_effect(d["effect"], names, line) if d.get("effect") else None,
                    line=line, text=text)


@structured("block", (), "{block: Carna}")
def _s_block(d, names, line, text):
    return Block(blocker=names.canon_minion(d["block"], line), line=line, text=text)


@structured("decline", (), "{decline: Alexis}")
def _s_decline(d, names, line, text):
    who = d["decline"]
    return Decline(player=None if who in (True, "all", "everyone") else names.canon_player(who, line), line=line, text=text)


@structured("transfer", ("to", "from", "pool", "blood"), "{transfer: Nora, to: Alexa Draper, pool: 2}")
def _s_transfer(d, names, line, text):
    player = names.canon_player(d["transfer"], line)
    if d.get("to") and d.get("pool") is not None:
        return TransferPool(player=player, vampire=names.canon_minion(d["to"], line), amount=int(d["pool"]),
                            line=line, text=text)
    if d.get("from") and d.get("blood") is not None:
        return TransferBack(player=player, vampire=names.canon_minion(d["from"], line), amount=int(d["blood"]),
                            line=line, text=text)
    raise ValueError("a transfer needs either 'to' and 'pool', or 'from' and 'blood'")


@structured("crypt", ("vampire", "capacity", "clan", "sect", "title"), "{crypt: Nora, vampire: Tariq, capacity: 5}")
def _s_crypt(d, names, line, text):
    vampire = str(d["vampire"])
    names.add_minion(vampire, line)
    extra = tuple(sorted((k, d[k]) for k in ("clan", "sect", "title") if d.get(k)))
    return CryptDraw(player=names.canon_player(d["crypt"], line), vampire=vampire, capacity=int(d["capacity"]),
                     props=extra, line=line, text=text)


@structured("influence", ("player",), "{influence: Alexa Draper}")
def _s_influence(d, names, line, text):
    vampire = names.canon_minion(d["influence"], line)
    player = names.canon_player(d["player"], line) if d.get("player") else None
    return Influence(player=player or "", vampire=vampire, line=line, text=text)


@structured("discard", ("event",), "{discard: Sarah}")
def _s_discard(d, names, line, text):
    return Discard(player=names.canon_player(d["discard"], line), event_card=bool(d.get("event")), line=line, text=text)


@structured("effect", ("source",), "{effect: {pool: {Steve: -3}, blood: {Belinde: 1}}}")
def _s_effect(d, names, line, text):
    return Effect(effect=_effect(d["effect"], names, line), source=d.get("source"), line=line, text=text)


@structured("not_modelled", ("rules",), "{not_modelled: 'leave torpor'}")
def _s_unmodelled(d, names, line, text):
    return Unmodelled(what=str(d["not_modelled"]), rules=tuple(d.get("rules") or ()), line=line, text=text)
