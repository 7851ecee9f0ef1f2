"""Real cards in the engine: what the card base says of a named card, checked when it is played.

The engine never reads the card data itself (it imports nothing of judge.cards, see
tests/test_engine_layout.py): the front ends load the card base once and hand the scenario reader a
`Catalog` built on it. The reader resolves each card an event names into `CardFacts` (plain, frozen data:
types, costs, Disciplines, clan, requirements, text, rulings) and the event carries them, so replaying
stays pure and never looks a card up. A crypt card named by a minion fills its capacity, clan, sect,
title, Disciplines and group the same way (`fill_minion`).

What playing a named card checks, each refusal citing the rule and quoting the card:

* who plays it and when, by its type (`play_card`): an action card by a ready unlocked minion as its
  action, an action modifier by the acting minion, a reaction by another Methuselah's ready unlocked
  minion, a combat card by a minion in combat, a political action by a vampire, a master card by a
  Methuselah in their master phase unless it is out-of-turn (a trifle gives the action back);
* its requirements: clan, Disciplines at the level played (`at superior` needs the superior level),
  title, sect and the other requirements the card data lists ("non-sterile", "capacity 5 or more");
* its cost in blood or pool (only a minion or Methuselah with enough can play it);
* its "Only usable ..." sentences, clause by clause (card_text.condition_of), where the engine knows the situation;
  "only one each combat, round or turn"; "cannot both be played during the same action";
* which of its Discipline lines the minion plays it by (`line_played`), and as which type a card of two is played;
* a unique card already in play (the contest it would start is not modelled here: the replay stops).

What the card does: the parts of its text for the level played that the engine models (`+N stealth`,
`+N bleed`, `+N intercept`, `(D) Bleed ... with +N bleed`, `+1 stealth action`, strikes, maneuvers, presses,
redirects, unlocking, votes, pool gained, a block attempt made to fail, what a reaction or modifier gives in the
combat its block begins...) are applied through the engine's own events (actions.py, phases.py); an action modifier
usable after its action resolved is played then (`_after_resolution`); an ally card is its recruit action
(`_recruit`); a master card's location stays in play (with the hand size it adds), a hunting ground gives its blood in
the unlock phase (`hunting_ground`), and a master card's effect on a minion takes place as it is played
(`action_effects.master_text_of`). Anything else is applied only as the scenario states
it (`effect:`, or "plays X: Alexis burns 3 pool"), shown if it is only described (`says:`), or the
replay stops as not modelled, listing the card's rulings. Never guessed.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from judge.engine.vtes import (action_effects, actions, allies, cancels, combat, gear, phases, politics,
                               referendum_effects, retainers, titles, weapons)
from judge.memo import Memo
from judge.engine.vtes import rules as R
from judge.engine.citations import OLDER
from judge.engine.errors import NotModelled, Refusal, ScenarioError
from judge.engine.vtes.events import (ActionCard, BurnOption, CardEffect, ChooseStrike, Cost, Employ, Equip, Event,
                                 GainStrikes,
                                 HuntingGround, LockLocation, Maneuver, MasterCard, Modifier, PlayCard, Political, Press,
                                 Prevent,
                                 Reaction, Recruit, StrikeSpec)
from judge.engine.vtes.helpers import (Log, apply_card_effect, blood, card_gives, check_actor, check_intercept_needed,
                                       check_minion_phase, check_stealth_needed, drain_excess, minion, play_from_hand,
                                       pool, require_seated)
from judge.engine.vtes.card_text import (LIBRARY_SENTENCE, TITLES, Ability, Group, Methuselah, StrikeText, abilities_of,
                                         WOULD_END, above_codes, is_clan,
                                         condition_of, discipline_level, groups_of, holds_title, is_as_above, level_of,
                                         named_of, read_crypt_text, ruling_quote, same_clan, strike_of, written_out)
from judge.engine.vtes.state import (ALLY, CHOSEN_RANGE, READY, UNCONTROLLED, VAMPIRE, BlockAttempt, Combat, CombatGrant, Draft,
                                    GrantedPress, Minion)
from judge.engine.vtes.traits import CITY_TITLES

# -- the card base, as the engine sees it ------------------------------------------------------------
MASTER, ACTION, MODIFIER, REACTION, COMBAT, POLITICAL, EQUIPMENT, ALLY_CARD, RETAINER_CARD = (
    "Master", "Action", "Action Modifier", "Reaction", "Combat", "Political Action", "Equipment", "Ally", "Retainer")
LEVELS = ("inferior", "superior")
RULINGS_SHOWN = 5  # a not-modelled stop lists this many rulings, and says how many more there are


class DisciplineLine(NamedTuple):
    """One Discipline line of a library card: its level, Disciplines, type marks and text."""

    level: str  # "inferior" (lower-case symbols) or "superior"
    codes: tuple[str, ...]  # its Disciplines' codes, folded
    any_of: bool  # "[pot] or [pre]": one of them; else every one ("[aus][obe]")
    marks: frozenset[str]  # "REACTION", "ACTION MODIFIER": the type a card of two types is played as, on this line
    text: str

    @property
    def played(self) -> bool:
        """Played as the card itself: a "[REFLEX]" line is played only as a reflex, which the engine does not
        model (Predator's Communion: "[ani] [REFLEX] Cancel a frenzy card ..." beside "[ani] +1 intercept ...")."""
        return "REFLEX" not in self.marks

    def played_at(self, level: Optional[str]) -> bool:
        """A line the card is played by at `level` (None: the basic level)."""
        return self.played and self.level == ("superior" if level == "superior" else "inferior")


# A Discipline line's head: its symbols, joined by "or", "and", "&" or nothing ("[pot] or [pre] ", "[dom] [REACTION] ")
# (a colon after the marks, as one card prints them, is part of the head: "[cel]: Strike: 1R damage.")
_LINE_HEAD = re.compile(r"(?:\[[A-Za-z ]+\]\s*(?:(?:or|and)\s+|&\s*)?)+(?::\s*)?")


def _is_discipline(symbol: str) -> bool:
    """A Discipline's symbol: its three-letter code ("dom", "DOM"), or Flight's ("FLIGHT"); a type's mark is not."""
    return len(symbol) == 3 and symbol.isalpha() or symbol.casefold() == "flight"


def _is_discipline_line(raw: str) -> bool:
    head = _LINE_HEAD.match(raw.strip())
    return head is not None and _is_discipline(re.match(r"\[([A-Za-z ]+)\]", head.group(0)).group(1))


@dataclass(frozen=True)
class CardFacts:
    """One card as the card base describes it: what the engine checks and quotes."""

    id: str  # "card:100845"
    name: str
    kind: str  # "crypt" | "library"
    types: tuple[str, ...]
    text: str
    pool_cost: Optional[str] = None  # "2", "X"
    blood_cost: Optional[str] = None
    disciplines: tuple[tuple[str, str, Optional[str]], ...] = ()  # (code, name, level for a crypt card)
    disciplines_all: bool = False
    clans: tuple[str, ...] = ()
    former_clans: tuple[str, ...] = ()  # the clans' former names ("Assamite" for Banu Haqim): a minion may be given them
    sect: Optional[str] = None
    title: Optional[str] = None
    capacity: Optional[str] = None
    group: Optional[str] = None
    requirements: tuple[str, ...] = ()
    burn_option: bool = False
    rulings: tuple[tuple[str, str], ...] = ()  # (ruling ID, text)
    advanced: bool = False  # an advanced vampire (its base card: Catalog.base_of)

    @property
    def preamble(self) -> list[str]:
        """The lines that are not Discipline lines ("Unique.", "Only usable during a bleed action."), a line marked
        with a type alone among them, its mark kept ("[COMBAT] This round, this vampire gets 1 optional maneuver."):
        read with every line played, so that none is passed over."""
        return [ln.strip() for ln in self.text.splitlines() if ln.strip() and not _is_discipline_line(ln)]

    def heading(self) -> str:
        first = self.text.splitlines()[0] if self.text else ""
        return first.casefold()

    @property
    def unique(self) -> bool:
        return "unique" in self.heading()

    @property
    def trifle(self) -> bool:
        return "trifle" in self.heading()

    @property
    def out_of_turn(self) -> bool:
        return "out-of-turn" in self.heading()

    def discipline_lines(self) -> list["DisciplineLine"]:
        """The card's Discipline lines, in the order printed ("[dom] ...", "[pot] or [pre] ...", "[DOM] [REACTION]
        ...")."""
        out = []
        for raw in self.text.splitlines():
            if not _is_discipline_line(raw):
                continue
            head = _LINE_HEAD.match(raw.strip())
            symbols = re.findall(r"\[([A-Za-z ]+)\]", head.group(0))
            codes = tuple(c.casefold() for c in symbols if _is_discipline(c))
            marks = frozenset(c.upper() for c in symbols if not _is_discipline(c))
            # (Flight has one level: its line is played at the basic level)
            level = "superior" if symbols[0].isupper() and len(symbols[0]) == 3 else "inferior"
            out.append(DisciplineLine(level, codes,
                                      bool(re.search(r"\]\s*or\s*\[", head.group(0))), marks,
                                      raw.strip()[head.end():].strip()))
        return out

    def quote(self) -> str:
        return f'{self.name}: "{" / ".join(ln.strip() for ln in self.text.splitlines() if ln.strip())}"'

    def costs(self) -> Cost:
        return Cost(blood=_cost_number(self, self.blood_cost), pool=_cost_number(self, self.pool_cost))

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "types": list(self.types), "text": self.text}


def _cost_number(card: CardFacts, value: Optional[str]) -> int:
    if value is None:
        return 0
    if not value.isdigit():
        raise NotModelled(f"{card.name}'s cost is {value}: say what was paid with `cost:` "
                          f"(e.g. cost: {{pool: 2}}). {card.quote()}", [R.COST_REQUIRED])
    return int(value)


class Catalog:
    """The card base for a scenario reader: named cards as CardFacts, each looked up once (memoized), and the
    closest names for a name it does not know. Built once by a front end, on judge.cards' CardBase."""

    # Bounded (judge.memo): the web builds one catalog per process, and visitors type what names they like. A
    # name naming no card is not kept (a memo keeps no None); it is looked up again, only to be refused.
    LIMIT = 20_000  # the card base has ~8,000 cards; a few spellings of each fit
    SPELT_ALIKE = 70  # rapidfuzz's ratio (0-100) of a hint to the typed name: a typo or two, not a shared word

    def __init__(self, base: Any):
        self._base = base
        self._facts: Memo[str, CardFacts] = Memo("engine.card_facts", self.LIMIT)
        self._apostrophes: Optional[frozenset[str]] = None

    def lookup(self, name: str) -> Optional[CardFacts]:
        key = " ".join(str(name).split()).casefold()
        found = self._facts.recall(key)
        if found is None:
            card = self._base.card(name)
            if card is None:
                return None
            found = self._facts.remember(key, self.facts_of(card))
        return found

    def no_press(self, name: str) -> str:
        """The card quoted when `name` is a library card none of whose lines is played as a press ("Press.",
        "Maneuver or press.", "Press, or maneuver ..."), or no combat card at all: a press named "with" it, and no
        press it gave this round, would play another copy of it as a press card; else "" (a press card, a card in
        play, an ability, a name the card base does not know, a combat card with a line not read)."""
        facts = self.lookup(name)
        if facts is None or facts.kind != "library" or set(facts.types) & {EQUIPMENT, RETAINER_CARD, ALLY_CARD}:
            return ""  # (a card in play may give its minion a press: a weapon, a retainer)
        if COMBAT not in facts.types:
            return facts.quote()  # (an action card, a master card...: never played in a combat)
        lines = facts.discipline_lines()
        plays = [modelled(facts, ln.level, n) for n, ln in enumerate(lines) if ln.played] or [modelled(facts, None)]
        return "" if any(w.press or w.maneuver_or_press or w.rest for w in plays) else facts.quote()

    def apostrophe_names(self) -> frozenset[str]:
        """The words of card names around an apostrophe that ends a word ("cats' guidance", "achilles' heel"),
        lower case: a sentence naming such a card keeps its apostrophe, not read as a possessive."""
        if self._apostrophes is None:
            self._apostrophes = frozenset(m.group(0).casefold() for c in self._base.cards.values()
                                          for m in re.finditer(r"\w+' \w+", c.name))
        return self._apostrophes

    def closest(self, name: str, limit: int = 3) -> list[str]:
        """The card base's own matches, kept only when spelt like the name as a whole: its fuzzy matching scores
        a shared word ("the", "of") or a short name inside the typed one ("Una" in "Govern the Unalligned")
        almost as high as a misspelling, which is a good search but a confusing hint."""
        names = dict.fromkeys(m.card.name for m in self._base.find(name, limit=10))
        typed = default_process(name)
        near = [n for n in names if fuzz.ratio(typed, default_process(n)) >= self.SPELT_ALIKE]
        return near[:limit]

    def card(self, name: str, line: Optional[int], what: str = "card") -> CardFacts:
        """The card named, or ScenarioError at `line` naming the closest cards."""
        found = self.lookup(name)
        if found is None:
            near = self.closest(name)
            hint = f"; the closest names: {', '.join(near)}" if near else ""
            raise ScenarioError(f"unknown {what} {name!r}: the card base has no card of that name{hint}", line)
        return found

    def facts_of(self, card: Any) -> CardFacts:
        rulings = tuple((r.id, r.text) for r in self._base.rulings_of(card.id))
        return CardFacts(
            id=card.id, name=card.name, kind=card.kind, types=tuple(card.types), text=card.text,
            pool_cost=card.pool_cost, blood_cost=card.blood_cost,
            disciplines=tuple((d.code, d.name, d.level) for d in card.disciplines),
            disciplines_all=card.disciplines_all, clans=tuple(card.clans),
            former_clans=tuple(getattr(card, "former_clans", ())), sect=card.sect, title=card.title,
            capacity=card.capacity, group=card.group, requirements=tuple(card.requirements),
            burn_option=card.burn_option, rulings=rulings, advanced=bool(getattr(card, "advanced", False)))

    def base_of(self, advanced: CardFacts) -> Optional[CardFacts]:
        """The base card an advanced vampire merges with: the vampire of the same name that is not advanced, of
        its group when there are several; None when there is none, or no one of them."""
        same = [c for c in self._base.cards.values() if c.kind == "crypt" and c.name == advanced.name
                and not getattr(c, "advanced", False)]
        if len(same) > 1:
            same = [c for c in same if c.group == advanced.group]
        return self.facts_of(same[0]) if len(same) == 1 else None


def rulings_text(card: CardFacts) -> str:
    if not card.rulings:
        return f"{card.name} has no rulings in the card base"
    shown = "; ".join(f"[{rid}] {text}" for rid, text in card.rulings[:RULINGS_SHOWN])
    more = len(card.rulings) - RULINGS_SHOWN
    tail = f" (and {more} more: judge card {card.name!r})" if more > 0 else ""
    return f"{card.name}'s rulings: {shown}{tail}"


# -- a minion named by its crypt card ------------------------------------------------------------------
# The fields a crypt card fixes; a scenario giving one of them differently must say it `changed:` in play.
CARD_FIELDS = ("capacity", "clan", "sect", "title", "disciplines", "group", "bleed", "strength", "stealth", "intercept")
_BASE = {"bleed": 1, "strength": 1, "stealth": 0, "intercept": 0}  # a minion's own, before its card text


def crypt_fields(card: CardFacts) -> dict:
    """What a crypt card says of its minion, in the scenario's own keys (Disciplines as the card prints them:
    `pot` basic, `POT` superior)."""
    out: dict = {}
    if card.capacity and card.capacity.isdigit():
        out["capacity"] = int(card.capacity)
    if card.clans:
        out["clan"] = card.clans[0]
    if card.sect:
        out["sect"] = card.sect
    votes = re.fullmatch(r"(\d+) votes?(?: \(titled\))?", card.title or "")
    if votes:  # an Independent vampire's "2 votes": votes of its card text, not a title the books name
        out["votes"] = int(votes.group(1))
    elif card.title:
        out["title"] = card.title
        # a ruler's city, as its text's heading names it ("Camarilla Prince of Boston."): the card data says "prince"
        city = re.match(rf"(?:{re.escape(card.sect or '')} )?{re.escape(card.title)} of (?P<city>[A-Z][\w .,'-]*?)[.:]"
                        rf"(?:\s|$)", " ".join((card.text or "").split()), re.I)
        if city and card.title.casefold() in CITY_TITLES:
            out["title"] = f"{card.title} of {city.group('city')}"
    if card.disciplines:
        out["disciplines"] = [c.upper() if lvl == "superior" else c for c, _, lvl in card.disciplines]
    if card.group:
        out["group"] = card.group
    return out


def fill_ally(raw: dict, card: CardFacts, line_of) -> dict:
    """An ally on the table named by its card (`card: High Top`): its figures and what its card gives it, as
    recruited (allies.py); `life` is its life now (the card's when not given); a strength, bleed, stealth or intercept
    given differently is refused unless listed under `changed:`."""
    a = modelled(card, None).ally_text
    if a is None or a.life is None:
        raise ScenarioError(f"{card.name}: its life, strength and bleed are not read; describe the ally instead "
                            f"(type: ally, life: N)", line_of("card"))
    changed = {str(c) for c in raw.get("changed") or ()}
    out = dict(raw, type=ALLY)
    for key, value in (("strength", a.strength), ("bleed", a.bleed), ("stealth", a.stealth),
                       ("intercept", a.intercept)):
        if key in raw and key not in changed and int(raw[key]) != value:
            raise ScenarioError(f"{raw['name']}: {key} {raw[key]!r} is not what {card.name}'s card says ({value}); "
                                f"list it under changed: [{key}] if a card in play changed it", line_of(key))
        out.setdefault(key, value)
    out.setdefault("life", a.life)
    if "disciplines" in raw and "disciplines" not in changed and \
            sorted(str(x) for x in raw["disciplines"] or ()) != sorted(a.disciplines):
        raise ScenarioError(f"{raw['name']}: disciplines {raw['disciplines']!r} is not what {card.name}'s card gives it "
                            f"({list(a.disciplines)}, at the basic level, as a vampire); list it under changed: "
                            f"[disciplines] if a card in play changed it", line_of("disciplines"))
    if a.disciplines:
        out.setdefault("disciplines", list(a.disciplines))
    out["as_vampire"] = a.capacity
    out["bonuses"], out["abilities"], out["text_read"] = a.bonuses, a.abilities, True
    if a.unread and not raw.get("ignore_text"):
        out["unread"] = a.unread
    return out


def fill_minion(raw: dict, card: CardFacts, line_of, base: Optional[CardFacts] = None) -> dict:
    """The minion's fields with what its crypt card says filled in; a field given differently is refused unless
    listed under `changed:` (a card in play changed it: a diablerie's Discipline, a title gained). `base`: a merged
    advanced vampire's base card, whose text applies too."""
    if card.kind != "crypt":
        raise ScenarioError(f"{card.name} is a {'/'.join(card.types)} card, not a crypt card: a minion is named "
                            f"by its crypt card", line_of("card"))
    if "Vampire" not in card.types:
        raise ScenarioError(f"{card.name} is a {'/'.join(card.types)} crypt card: the engine's minions are vampires "
                            f"and allies", line_of("card"))
    fields = crypt_fields(card)
    changed = {str(c) for c in raw.get("changed") or ()}
    for key in changed:
        if key not in CARD_FIELDS:
            raise ScenarioError(f"changed: {key!r} is not a field a crypt card fixes; expected some of "
                                f"{', '.join(CARD_FIELDS)}", line_of("changed"))
    out = dict(raw)
    for key, value in fields.items():
        if key == "group":
            continue
        if key in raw and key not in changed and not _same(key, raw[key], value):
            raise ScenarioError(f"{raw['name']}: {key} {raw[key]!r} is not what {card.name}'s card says "
                                f"({value!r}); list it under changed: [{key}] if a card in play changed it",
                                line_of(key))
        out.setdefault(key, value)
    merged = bool(raw.get("merged"))
    if merged and not card.advanced:
        raise ScenarioError(f"{raw['name']}: merged: true, but {card.name} is not an advanced vampire",
                            line_of("merged"))
    if merged and base is None:
        raise ScenarioError(f"{raw['name']}: merged: true, but the card base has no one base card for {card.name} "
                            f"(merged, its text applies too)", line_of("merged"))
    read = read_crypt_text(card.text, out.get("sect"), out.get("title") or card.title, card.name, merged=merged,
                           base_text=base.text if merged and base else None)
    for key, n in read.bonus.items():
        value = _BASE[key] + n
        if key in raw and key not in changed and int(raw[key]) != value:
            raise ScenarioError(f"{raw['name']}: {key} {raw[key]!r} is not what {card.name}'s card says ({value}: "
                                f"\"+{n} {key}\"); list it under changed: [{key}] if a card in play changed it",
                                line_of(key))
        out.setdefault(key, value)
    if read.votes:  # "Eze gets 1 additional vote.", "Mithras gets +2 votes.": votes of its card text, no title (the
        # book: "A minion may have a special ability granting additional votes or ballots without being titled")
        out["card_votes"] = read.votes
    if read.traits:
        out["traits"] = list(dict.fromkeys([*(str(t).lower() for t in raw.get("traits") or ()), *read.traits]))
    if read.master_actions:
        out["extra_master"], out["extra_master_when"] = read.master_actions, read.master_when
    if read.bonuses:
        out["bonuses"] = tuple(read.bonuses)
    if read.abilities:
        out["abilities"] = tuple(read.abilities)
    out["text_read"] = True
    if read.unread and not raw.get("ignore_text"):
        out["unread"] = read.unread
    return out


def _same(key: str, given: Any, card: Any) -> bool:
    if key == "disciplines":
        return sorted(level_of(str(x))[1:] for x in given or ()) == sorted(level_of(str(x))[1:] for x in card)
    return str(given).casefold() == str(card).casefold()


# -- requirements -----------------------------------------------------------------------------------------
SECTS = ("camarilla", "sabbat", "anarch", "laibon", "independent")


def _refuse(card: CardFacts, message: str, *rules) -> Refusal:
    return Refusal(f"{message}. {card.quote()}", [*rules])


def _meets(d: Draft, card: CardFacts, m: Minion, level: Optional[str], for_master: bool = False) -> bool:
    """Whether `m` meets the card's requirements (check_requirements without its refusal)."""
    try:
        check_requirements(d, card, m, level, for_master=for_master)
    except Refusal:
        return False
    return True


def _barred_by(card: CardFacts, m: Minion) -> list:
    """The "cannot use cards requiring <Discipline>" abilities of `m`'s card that bar it from `card`: one of the
    card's Disciplines, when it requires them all, or when `m` could play it by none of the others (a card played
    by another of its Disciplines does not count as requiring that one: Subversion by [pre])."""
    barring = abilities_of(m, "cannot use")
    if not barring or not card.disciplines:
        return []
    codes = {code.casefold() for a in barring for code in a.codes}
    required = [c.casefold() for c, _, _ in card.disciplines]
    if not any(c in codes for c in required):
        return []
    names = {code.casefold(): name for code, name, _ in card.disciplines}
    if not card.disciplines_all and any(c not in codes and discipline_level(m, c, names[c]) is not None
                                        for c in required):
        return []
    return [a for a in barring if any(c in a.codes for c in required)]


# the card type a named card is played as, by the engine event it is played as (card_cost's discounts by type)
_PLAYED_AS = {Modifier: "Action Modifier", Reaction: "Reaction", ActionCard: "Action", Political: "Political Action",
              Equip: "Equipment", Recruit: "Ally", Employ: "Retainer"}


# A card's own discount for a clan: "This card costs Followers of Set 1 fewer blood." (Mental Maze)
_OWN_DISCOUNT = re.compile(r"This card costs (?P<clan>[A-Z][\w' -]+?) (?P<n>\d) (?:fewer|less) blood")


def card_cost(card: CardFacts, m: Optional[Minion], log: Optional[Log] = None, played_as: Optional[str] = None) -> Cost:
    """What `card` costs `m` as printed, less what its own text takes off for `m`'s clan ("This card costs Followers
    of Set 1 fewer blood.") and what `m`'s card takes off ("Cards requiring Quietus [qui] cost Izhim 1 fewer blood.",
    "Combat cards cost Adana 1 fewer blood.", "Equipment costs Ivan 1 fewer blood or pool to equip."): never below 0,
    said in the log when one is given; a discount by type counts the type the card is played as (`played_as`). A
    card requiring that Discipline or another the minion also has is not said to require it, or a minion the table
    gives no clan where the card's discount names one: not modelled."""
    cost = card.costs()
    for hit in _OWN_DISCOUNT.finditer(card.text) if m is not None and cost.blood else ():
        named = groups_of(hit.group("clan"))
        if not named or len(named) != 1 or named[0].kind != "clan":
            continue  # (not a clan's name: the sentence is left unread by `modelled`)
        clan = named[0].name
        if m.clan is None:
            raise NotModelled(f"{card.name} says \"{hit.group(0)}.\", and the table does not say {m.name}'s clan "
                              f"(give its clan:)", [R.COST_REQUIRED, R.GOLDEN_RULE])
        if same_clan(m.clan, clan):
            before, cost = cost, Cost(blood=max(0, cost.blood - int(hit.group("n"))), pool=cost.pool)
            if log is not None:
                log.add(f"{card.name}: \"{hit.group(0)}.\" ({m.name} is {m.clan}: it costs {_cost_text(cost) or 'nothing'} "
                        f"instead of {_cost_text(before)}).", R.GOLDEN_RULE)
    for a in abilities_of(m, "card cost") if m is not None else ():
        if a.codes:
            required = [c.casefold() for c, _, _ in card.disciplines]
            if a.codes[0] not in required:
                continue
            names = {code.casefold(): name for code, name, _ in card.disciplines}
            others = [c for c in required if c != a.codes[0] and discipline_level(m, c, names[c]) is not None]
            if others and not card.disciplines_all:
                raise NotModelled(f"{m.name}'s card says \"{a.sentence}\", and {card.name} may be played by "
                                  f"{'/'.join(others)} as well: which one it is played by (and so its cost) is not "
                                  f"said", [R.CRYPT_ABILITY])
        elif not set(a.types) & {played_as or ""}:  # a card of several types is of the one it is played as (a
            continue  # ruling on Adana de Sforza: "not both")
        before = cost
        if "blood" in a.unit and cost.blood:
            cost = Cost(blood=max(0, cost.blood - a.amount), pool=cost.pool)
        elif "pool" in a.unit and cost.pool:
            cost = Cost(blood=cost.blood, pool=max(0, cost.pool - a.amount))
        if cost != before and log is not None:
            log.add(f"{m.name}'s card: \"{a.sentence}\" ({card.name} costs {_cost_text(cost) or 'nothing'} instead of "
                    f"{_cost_text(before)}).", R.CRYPT_ABILITY, R.GOLDEN_RULE)
    return cost


def check_requirements(d: Draft, card: CardFacts, m: Minion, level: Optional[str], log: Optional[Log] = None,
                       for_master: bool = False) -> None:
    """Refuse `m` playing `card` at `level` when it does not meet the card's clan, Discipline or text
    requirements; a card of `m`'s that meets one for it is said in `log`. `for_master`: `m` is the ready minion a
    master card's requirements ask of its Methuselah (only "You and Gem can play ..." counts there)."""
    def as_if(field: str, wanted: list, fits) -> bool:
        """Whether `m`'s card lets it play the card as if it met the requirement `wanted` (of its clans, titles or
        sects, by `field`): "Abraham can play cards requiring a Tremere as if he were a Tremere."; said in `log`."""
        found = [a for a in abilities_of(m, "as if") if (a.whose == "you" or not for_master) and any(
            x == "*" or fits(x, w) for x in getattr(a, field) for w in wanted)]
        if found and log is not None:
            log.add(f"{m.name}'s card: \"{found[0].sentence}\" ({card.name} requires {' or '.join(wanted)}).",
                    R.CRYPT_ABILITY, R.GOLDEN_RULE)
        return bool(found)

    if card.clans and not any((m.clan or "").casefold() == c.casefold() for c in card.clans + card.former_clans):
        if not as_if("types", card.clans, same_clan):
            raise _refuse(card, f"{m.name} ({m.clan or 'no clan'}) cannot play {card.name}: it requires "
                                f"{' or '.join(card.clans)}", R.CARD_REQUIREMENTS)
    barred = _barred_by(card, m)
    if barred:
        raise _refuse(card, f"{m.name} cannot play {card.name}: its card says \"{barred[0].sentence}\"",
                      R.CRYPT_ABILITY, R.GOLDEN_RULE)
    if card.disciplines:
        wanted = level or "inferior"
        have = {name: discipline_level(m, code, name) for code, name, _ in card.disciplines}
        ok = [n for n, lv in have.items() if lv is not None and (wanted == "inferior" or lv == "superior")]
        missing = card.disciplines_all and len(ok) < len(have) or not ok
        if missing:
            names_ = (" and " if card.disciplines_all else " or ").join(have)
            at = "superior " if wanted == "superior" else ""
            has = ", ".join(f"{n} ({lv})" for n, lv in have.items() if lv) or ("none of them" if len(have) > 1 else "none")
            if m.as_vampire:  # (an ally playing its card's Disciplines as a vampire: the basic level only, not its own)
                has = f"only its card's leave to play cards requiring basic {', '.join(m.disciplines)} as a vampire"
            raise _refuse(card, f"{m.name} cannot play {card.name} at {wanted}: it requires {at}{names_}, and "
                                f"{m.name} has {has}", R.CARD_REQUIREMENTS, R.DISCIPLINE_LEVEL)
    elif level == "superior":
        raise _refuse(card, f"{card.name} requires no Discipline: it has no superior level to play it at",
                      R.DISCIPLINE_LEVEL)
    reqs = [r.casefold() for r in card.requirements]
    no_blood = re.search(r"Requires [^.]* with no blood\.", card.text)
    if no_blood and m.blood:  # ("Requires a Laibon with no blood.": Excellent Thirst)
        raise _refuse(card, f"{m.name} has {m.blood} blood: \"{no_blood.group(0)}\"", R.CARD_REQUIREMENTS)
    titles = [r for r in reqs if r in TITLES]
    if titles:
        if not holds_title(m, titles) and not as_if("titles", titles, str.__eq__):
            held = m.title or ("titled, with no title named" if m.titled else "untitled")
            raise _refuse(card, f"{m.name} ({held}) cannot play {card.name}: it requires a "
                                f"{' or '.join(titles)}", R.CARD_REQUIREMENTS)
    sects = [r for r in reqs if r in SECTS]
    if sects:
        if m.sect_key not in sects and not as_if("sects", sects, str.__eq__):
            raise _refuse(card, f"{m.name} ({m.sect or 'no sect'}) cannot play {card.name}: it requires "
                                f"{' or '.join(sects)}", R.CARD_REQUIREMENTS)
    for req in reqs:
        if req in TITLES or req in SECTS:
            continue
        met = _other_requirement(m, req)
        if met is False and req == "titled" and as_if("titles", [req], str.__eq__):
            continue  # (Vlad Tepes: "... as if he had that required title ...")
        if met is None:
            raise NotModelled(f"{card.name}'s requirement {req!r} (the engine checks clans, Disciplines, titles, "
                              f"sects, capacity and traits). {card.quote()}", [R.CARD_REQUIREMENTS])
        if not met:
            raise _refuse(card, f"{m.name} cannot play {card.name}: it requires {req}", R.CARD_REQUIREMENTS)


_OTHER_REQUIREMENTS = ("titled", "non-titled", "non-sterile", "non-red list", "infernal", "red list", "black hand",
                       "seraph", "slave")


def requirements_checked(card: CardFacts) -> bool:
    """Whether the engine checks every requirement of the card data (`check_requirements`), and the data says all
    its "Requires ..." sentences say: they are then read."""
    reqs = [r.casefold() for r in card.requirements]
    return bool(reqs or card.clans) and all(
        r in TITLES or r in SECTS or r in _OTHER_REQUIREMENTS or re.fullmatch(r"capacity \d+ or (more|less)", r)
        or r.startswith("non-") and r[4:] in SECTS for r in reqs) and all(
        _requires_said(s) for s in re.findall(r"Requires [^.]*\.", card.text))


# The words of a "Requires ..." sentence the card data's requirements hold, one category each: the titles, the
# sects, and the rest (traits and their negations). Capacity bounds and "ready" are said too.
_REQUIRED_TERMS = re.compile(
    r"\b(?:(?P<title>" + "|".join(sorted(TITLES, key=len, reverse=True)) + r")(?: member)?"
    r"|(?P<sect>camarilla|sabbat|anarch|laibon|independent)"
    r"|(?P<other>non-[\w-]+(?: list)?|titled|infernal|red list|black hand|seraph|slave))\b", re.I)
_REQUIRED_CAPACITY = re.compile(r"\b(?:with |of )?(?:a )?capacity (?:(?:above|below) \d+|\d+ or (?:more|less)|"
                                r"(?:less|more) than \d+)", re.I)
_REQUIRED_FILLER = re.compile(r"\b(?:an?|ready|unlocked|vampires?|minions?|or)\b|,", re.I)


def _requires_said(sentence: str) -> bool:
    """Whether the card data holds all a "Requires ..." sentence says: every word a requirement the data lists, a
    clan, or a filler; "A or B" of one category (the engine holds alternatives within titles, sects or clans only:
    "a Laibon or non-titled vampire" is not held); "both ..." and any other words ("with no blood", "with three or more
    Aye", "who can commit diablerie") not."""
    text = _REQUIRED_CAPACITY.sub(" ", sentence.strip().rstrip(".")[len("Requires "):])
    text = re.sub(r"\bwith no blood$", " ", text)  # (checked by `check_requirements` from the text)
    for left, right in re.findall(r"([\w-]+),? or ([\w-]+)", text):
        kinds = set()
        for word in (left, right):
            t = _REQUIRED_TERMS.match(word) or (_REQUIRED_TERMS.match(word + " circle") if word.casefold() == "inner"
                                                else None)
            kinds.add(next(k for k, v in t.groupdict().items() if v) if t else "clan" if is_clan(word) else word)
        if len(kinds) > 1:
            return False
    rest = _REQUIRED_FILLER.sub(" ", _REQUIRED_TERMS.sub(" ", text))
    words = rest.split()
    i = 0
    while i < len(words):  # what is left must be clans ("Follower of Set", "Salubri antitribu")
        for n in (4, 3, 2, 1):
            if is_clan(" ".join(words[i:i + n])):
                i += n
                break
        else:
            return False
    return True


def _other_requirement(m: Minion, req: str) -> Optional[bool]:
    """Whether `m` meets a requirement of the card data other than a title or sect; None: not checked here."""
    cap = re.fullmatch(r"capacity (\d+) or (more|less)", req)
    if cap:
        n = int(cap.group(1))
        return m.capacity >= n if cap.group(2) == "more" else m.capacity <= n
    if req == "titled":
        return m.titled
    if req == "non-titled":
        return not m.title and not m.votes  # (a contested title is still a title held)
    if req.startswith("non-") and req[4:] in SECTS:
        return m.sect_key != req[4:]
    if req == "non-sterile":
        return "sterile" not in m.traits
    if req == "non-red list":
        return "red list" not in m.traits
    if req == "infernal":
        return m.infernal
    if req in ("red list", "black hand", "seraph", "slave"):
        return req in m.traits
    return None


def check_cost(d: Draft, card: CardFacts, m: Optional[Minion], player: str, cost: Cost) -> None:
    """Only a vampire with enough blood, a Methuselah with enough pool, can play a card with that cost."""
    if m is not None and cost.blood > m.blood:
        unit = "life" if m.kind == ALLY else "blood"
        raise _refuse(card, f"{m.name} has {m.blood} {unit}, not enough to play {card.name} (costs {cost.blood} "
                            f"blood)", R.COST_REQUIRED)
    if cost.pool > d.players[player].pool:
        raise _refuse(card, f"{player} has {d.players[player].pool} pool, not enough to play {card.name} (costs "
                            f"{cost.pool} pool)", R.COST_REQUIRED)


# -- what the engine models of a card's text -------------------------------------------------------------
@dataclass
class Modelled:
    """What the engine applies itself of the text played; `rest` is the text it does not model."""

    stealth: int = 0
    bleed: int = 0
    intercept: int = 0
    # "with an additional +N bleed if this vampire is Toreador": (N, the clan, the sentence), the vampire playing it
    bleed_if: Optional[tuple[int, str, str]] = None
    # "+1 intercept, with an additional +1 intercept if the acting minion is titled." (Protection Racket), "... if this
    # Nosferatu is titled." (The Warrens): (N, whose title: "acting" or "self", the sentence)
    intercept_if: Optional[tuple[int, str, str]] = None
    limited: Optional[bool] = None
    action_bleed: bool = False  # "(D) Bleed"
    any_target: bool = False
    wake: bool = False  # "This vampire wakes"
    not_replaced: bool = False  # "Do not replace until your next unlock phase."
    locked_ok: bool = False  # a reaction's "Usable by a locked vampire." (the rules want it unlocked)
    after_combat: bool = False  # a combat card's "Do not replace until after combat."
    after_action: bool = False  # a reaction's or action card's "Do not replace until after this action."
    # "A vampire cannot play both <this card> and cards named /<that>/ during the same action." ("vampire": the one
    # vampire's limit) or "<this card> and cards named /<that>/ cannot both be played ..." ("action": anyone's):
    # (that, the sentence, the scope)
    not_with: Optional[tuple[str, str, str]] = None
    # a strike's ", with an optional press" ("continue", "end" when only usable to end or continue, else "any")
    granted_press: Optional[str] = None
    granted_by: str = ""  # the sentence that gives it
    strike_maneuver: bool = False  # a strike's ", with an optional maneuver": played as the maneuver in the range step
    # "Strike: hand strike or use a melee weapon strike." (the sentence): `strike` is then the hand strike at +N
    hand_or_melee: str = ""
    ends_combat: str = ""  # a combat card's "Combat ends." (the sentence), not a strike: as the card is played
    # "Only usable by a ready vampire other than the acting minion": an action modifier another of the acting
    # Methuselah's ready vampires plays (the card over Minion Cards ¶6).
    other_than_acting: bool = False
    # "Only usable ..." conditions the engine checks as the card is played (card_text.Condition): (sentence, it)
    conditions: list = field(default_factory=list)
    lock_self: bool = False  # "Lock this reacting vampire."
    # "Unlock this vampire." (the sentence): a reaction's as it is played; an "after resolution" modifier's
    unlock_self: str = ""
    locked_by: str = ""  # the sentence that lets a locked vampire play the reaction ("Usable by a locked vampire.")
    redirect: bool = False  # "Change the target of the bleed to another Methuselah ...": the scenario says whom
    strike: Optional[StrikeText] = None  # a combat card's "Strike: ..." (card_text.strike_of)
    bleed_reduced: int = 0  # "Reduce a bleed against you by N."
    maneuver: bool = False  # a combat card's "Maneuver."
    maneuver_to: Optional[str] = None  # ... "Maneuver, only usable to go to long range." (the range it may move to)
    maneuver_or_press: str = ""  # a combat card's "Maneuver or press." (the sentence): one, as the step it is played in
    prevent: int = 0  # a combat card's "Prevent N damage."
    prevent_normal: bool = False  # ... "Prevent N non-aggravated damage.": normal damage only
    # a combat card's "This vampire gets +N strength this combat." / "The opposing minion gets -N strength this
    # round.": (whose: "self" or "opposing", +/-N, "combat" or "round")
    strength: list = field(default_factory=list)
    aggravated_hands: bool = False  # a combat card's "Damage from this vampire's hand strikes is aggravated this round."
    press: Optional[str] = None  # a combat card's "Press." (any), "Press, only usable to end combat." (end), ... (continue)
    extra_strikes: int = 0  # a combat card's "Additional strike (limited)." / "N additional strikes."
    # a strike card's "If another round of combat occurs, that round is at close range (skip the determine range step
    # for that round).": (the range, the sentence), set for the next round as the strike is chosen
    next_round_range: Optional[tuple[str, str]] = None
    unlock_on_end: str = ""  # a combat-ends strike's "Unlock this vampire before combat ends." (the sentence)
    # a combat card's "Burn 1 blood to set the range for this round." / "This vampire sets the range for this round."
    # (the sentence): played before range is determined, the range its player says next
    sets_range: Optional[str] = None
    # a reaction's "Once this action, this vampire can burn 1 blood to get +1 intercept.": card_text.Ability ("burn
    # for"), its minion's for the rest of the action
    granted_ability: Optional[Ability] = None
    # a combat-ends strike's effect after the combat ends: ("burn" | "damage", N, the sentence, close range only)
    after_end: Optional[tuple[str, int, str, bool]] = None
    # a combat card's "Instead, burn 1 blood to start a new round." (as combat would end: Relentless Reaper at superior):
    # the sentence (its blood in `paid_blood`)
    new_round: str = ""
    # a modifier's "Minions who attempt to block this action and fail become locked before action resolution." (the
    # sentence: Faceless Night at superior)
    lock_failed: str = ""
    # an after-resolution modifier's "This vampire gains 1 blood for each vote by which the referendum passed." (the
    # sentence: Voter Captivation)
    blood_per_vote: str = ""
    votes: int = 0  # an action modifier's or reaction's "This vampire gets +N votes." (in the referendum polled)
    hunt: int = 0  # an action modifier's "This Laibon gets +2 hunt." (the hunt in progress)
    unlock_block: bool = False  # a reaction's "This vampire unlocks and attempts to block."
    # a reaction's "This reacting vampire attempts to block the current action, ignoring the normal prey, predator or
    # target restrictions for blocking actions." (Falcon's Eye, Eagle's Sight): the sentence
    block_any: str = ""
    gain_pool: int = 0  # an action card's or master card's "Gain N pool." (its player's, as the card takes effect)
    gain_blood: int = 0  # an action card's "This vampire gains N blood." (the acting vampire's, on success)
    unblockable: bool = False  # an action modifier's "This action is unblockable."
    # an action modifier's "That attempt fails and the blocking minion cannot attempt to block this action again."
    # (the sentences), and whom it bars from blocking again ("minion", its "controller", or "" none); the blood it
    # costs ("Burn 1 blood to have that attempt fail; ...") is `paid_blood`
    fails_attempt: str = ""
    bars: str = ""
    blocker_intercept: int = 0  # an action modifier's "The blocking minion gets -N intercept."
    # a modifier's or reaction's "Lock this vampire and end the action.", "Unlock this vampire, lock the blocking
    # minion, and end the action.", "Unlock this vampire, and the action ends (unsuccessfully).": the sentence, and the
    # locks said with it ((who: "self", "blocker" or "actor", "lock", "unlock", "burn N" blood or "torpor"), in the
    # order printed)
    ends_action: str = ""
    end_locks: tuple[tuple[str, str], ...] = ()
    end_how: str = ""  # how it ends the action (actions.end_unsuccessfully): "fails", "resolved" or "ended"
    # an action modifier's "Vampires cannot block this action." (the sentence, card_text.Named), and its "Choose a
    # younger vampire. The chosen vampire cannot block this action." (the sentences, the Named it chooses among)
    cannot_block: Optional[tuple[str, Any]] = None
    choose: Optional[tuple[str, Any]] = None
    chosen_cannot_block: str = ""
    # "Allies and younger vampires get -1 intercept.", "Vampires must burn 1 blood to attempt to block this action.":
    # (the sentence, the minions as card_text.Named, N)
    intercept_mod: Optional[tuple[str, Any, int]] = None
    block_cost: Optional[tuple[str, Any, int]] = None
    any_stealth: bool = False  # "+1 stealth, even if stealth is not yet needed."
    # a master card's "Move any amount of blood from a vampire you control to your pool." (Minion Tap): the sentence;
    # the amount and the vampire are the scenario's to say, checked against it
    blood_to_pool: str = ""
    # a modifier's "The acting ally or younger vampire gets ...": (the sentence, the minions it names as Named), the
    # acting minion checked against it; and its strength given to the acting minion in the combat if it is blocked
    acting_must_be: Optional[tuple[str, Any]] = None
    grant_to_actor: bool = False
    # a reaction's "If they do not block this action, they burn 1 blood before action resolution." (N, the sentence)
    unless_blocks: tuple = ()
    # the blood a sentence has the minion burn as the card is played: "Burn 2 blood to have the action fail.", "Burn 1
    # blood to get +1 intercept.", "This vampire burns 1 blood to unlock.", "Burn 1 blood to have that attempt fail;
    # ..." (paid with the card's cost)
    paid_blood: int = 0
    # a reaction's or modifier's "... 1 optional maneuver during the resulting combat if this vampire blocks" (state.
    # CombatGrant): given in the combat the action's block begins
    grant: Optional[CombatGrant] = None
    # an ally card's "Mortal with 3 life. 1 strength, 1 bleed.": (life, strength, bleed) of the ally it brings in
    ally: Optional[tuple[int, int, int]] = None
    # a master card's "(Master: )(Unique )location.", "Put this card in play.": played, it stays in play as a location
    location: bool = False
    unique_location: bool = False
    in_play: str = ""  # its "Put this card in play." (read with a location only)
    location_hand: tuple[int, str] = (0, "")  # a location's "+1 hand size." (N, the sentence)
    location_transfers: tuple[int, str] = (0, "")  # a location's "+2 transfers." (N, the sentence)
    # a location's "You can lock this card to give a Gangrel you control +1 stealth.", "... during your influence
    # phase to add 1 blood to a Tremere in your uncontrolled region.": (the kind: "stealth" | "intercept" | "blood", N,
    # the minions it names as card_text.Group, whether yours only, the sentence)
    location_lock: Optional[tuple[str, int, tuple, bool, str]] = None
    # an out-of-turn master card's "You may play this card during your turn." (the sentence): on its player's turn too
    own_turn: str = ""
    # a hunting ground's "During your unlock phase, a ready vampire you control can gain N blood." (N), and "A vampire
    # can gain blood from only one hunting ground each turn."
    hunting_gain: int = 0
    hunting_ground: str = ""  # its "Hunting ground."
    one_hunting_ground: bool = False
    # "A vampire can play only one <this card> [at superior] each combat|round|turn.": (per, level or None, sentence)
    only_one: Optional[tuple[str, Optional[str], str]] = None
    # "Cancel an action modifier card as it is played, and its cost is not paid.": played only as the card it
    # cancels is played ("..., cancelled by Carna's Ophidian Gaze")
    cancel: Optional[cancels.CancelText] = None
    # a master card's, after its cancel: "That Methuselah gets +1 master phase action immediately, or at the start of
    # their next master phase if the canceled card is an out-of-turn master." (Wash): the sentence
    gives_back: str = ""
    title: Optional[titles.TitleCard] = None  # a political action card putting itself on a vampire as a title
    referendum: Optional[referendum_effects.ReferendumText] = None  # ... or its referendum's terms and outcomes
    weapon: Optional[weapons.WeaponText] = None  # an equipment card's weapon: its label and strike
    gear: Optional[gear.GearText] = None  # an equipment card that is no weapon: what it gives its bearer
    on_vampire: Optional[gear.OnVampireText] = None  # an action card put on its acting vampire as it succeeds
    discipline_card: Optional["DisciplineCard"] = None  # a master Discipline card
    action_text: Optional[action_effects.ActionText] = None  # an action card's effects on success
    master_text: Optional[action_effects.ActionText] = None  # a master card's effects as it is played
    retainer: Optional[retainers.RetainerText] = None  # a retainer card: its life and what it gives its employer
    ally_text: Optional[allies.AllyText] = None  # an ally card: its figures and what its card gives it
    # a condition that, met, lets the card be played where the engine's rules of who acts, reacts and fights would
    # refuse it ("Only usable by a vampire in torpor.", "... by a ready vampire not involved in combat."): the sentence
    beyond_rules: str = ""
    vampire_only: str = ""  # an action, modifier or reaction card's "Requires a [ready] vampire.": no ally plays it
    # a combat card's "If this vampire was blocked while performing an action, the action continues as if
    # unblocked." (the sentence), and the kinds of action it excludes ("a non-bleed action": bleed)
    continues: str = ""
    continues_not: tuple[str, ...] = ()
    rest: list[str] = field(default_factory=list)
    line_text: Optional[str] = None  # the Discipline line read (written out from the one above for "As above")
    printed_line: Optional[str] = None  # the line as the card prints it ("As above, but for 3R damage."): quoted

    @property
    def after_resolution(self) -> bool:
        """One of its conditions is a moment after the action resolved ("after resolution of a successful action")."""
        return any(c.after_resolution for _, c in self.conditions)


_SENTENCE = LIBRARY_SENTENCE
# The cards whose "Only usable ..." sentences say when and by whom they are played, checked then; on a card in play
# (equipment, an ally, a retainer, an event) they may speak of using it later ("Only usable at long range."), and
# stay unread.
_PLAYED_UNDER_CONDITIONS = {MODIFIER, REACTION, COMBAT, ACTION, POLITICAL, MASTER}
# The cards whose cancel sentence the engine plays (`_cancels`): played as another card is played.
_CANCELLERS = {MODIFIER, REACTION, COMBAT, MASTER}
# A strike that also gives a press this round: "Strike: dodge, with an optional press." (the press may be only usable
# to end or to continue combat)
_WITH_PRESS = re.compile(r"(?P<strike>Strike: .+?),? with (?:an|1|one) optional press(?:, only usable to "
                         r"(?P<to>continue|end) combat)?")
# A strike that also gives a maneuver: "Strike: 1R damage, with 1 optional maneuver." (used in the range step)
_WITH_MANEUVER = re.compile(r"(?P<strike>Strike(?:, ranged)?: .+?),? with (?:an|1|one) optional maneuver")
# ... and both, as an "As above, with ..." line writes them out: "Strike: 1R damage, with 1 optional maneuver and 1
# optional press." (Aid from Bats at superior), "Strike: dodge, with an optional press and an optional maneuver."
_WITH_BOTH = re.compile(r"(?P<strike>Strike(?:, ranged)?: .+?),? with (?:an|1|one) optional (?:maneuver and (?:an|1|one)"
                        r" optional press|press and (?:an|1|one) optional maneuver)")
# ... or additional strikes: "Strike: dodge, with an additional strike (limited)." (Acrobatics at superior; the
# additional strikes follow the round's normal pair, as any do)
_WITH_STRIKES = re.compile(r"(?P<strike>Strike(?:, ranged)?: .+?),? with (?:an|(?P<n>\d)) additional strikes? \(limited\)")
# An action modifier making the block attempt in progress fail: "That attempt fails and the blocking minion cannot
# attempt to block this action again.", "... the blocking minion's controller cannot ...", "Burn 1 blood to have that
# attempt fail; the blocking minion cannot ...", "The block attempt fails, and that Sabbat vampire cannot ...", "The
# block fails, and the action continues." (the bar then in its own sentence: `_BARS`)
_ATTEMPT_FAILS = re.compile(
    r"(?:(?:That|The) (?:block(?:ing)? )?attempt fails|Burn (?P<n>\d) blood to have that attempt fail"
    r"|The block fails, and the action continues)"
    r"(?:(?:,? and|;) (?:(?P<bars>the blocking (?:minion|vampire)|that (?:minion|vampire|[A-Z]\w+ vampire))"
    r"|the blocking minion's (?P<controller>controller)) cannot attempt to block this action again)?")
# What a reaction or modifier gives its minion in the combat the block begins: "This vampire gets 1 optional maneuver
# during the resulting combat if this vampire blocks." (an "As above, with ..." line written out), "This Anarch gets 1
# optional maneuver during the resulting combat if they block.", "If this action is blocked, this vampire gets 1
# optional maneuver during the first round of the resulting combat.", "If this Anarch is blocked, they get +1
# strength during the resulting combat."
_WHAT = r"(?:(?P<n>\d|an|one) optional (?P<what>maneuver or press|maneuver|press)|\+(?P<str>\d) strength)"
_DURING = r" (?:during|in) the (?P<first>first round of the )?resulting combat"
_GRANTS = (
    re.compile(r"(?:This (?:blocking )?(?:vampire|minion|[A-Z][a-z]+)) gets " + _WHAT + _DURING +
               r" if (?:this (?:vampire|minion)|they|he or she) (?P<how>blocks?|is blocked)"),
    re.compile(r"If this (?:action|vampire|minion|[A-Z][a-z]+) is blocked, (?:this (?:acting )?(?:vampire|minion|"
               r"[A-Z][a-z]+)|they|he or she) gets? " + _WHAT + _DURING),
)


def _combat_grant(s: str, sentence: str) -> Optional[CombatGrant]:
    for n, pattern in enumerate(_GRANTS):
        m = pattern.fullmatch(s)
        if m is None:
            continue
        on = "blocked" if n == 1 or m.group("how") == "is blocked" else "blocks"
        if m.group("str"):
            return CombatGrant("strength", int(m.group("str")), bool(m.group("first")), on, sentence)
        amount = int(m.group("n")) if m.group("n").isdigit() else 1
        return CombatGrant(m.group("what"), amount, bool(m.group("first")), on, sentence)
    return None


_BARS = re.compile(r"(?:The blocking|That) minion cannot attempt to block this action again")
# "Vampires cannot block this action.", "Titled vampires ...", "Minions without Celerity [cel] ..." (card_text.named_of
# reads the minions); "Choose a younger vampire." then "The chosen vampire cannot block this action." (Seduction)
_CANNOT_BLOCK = re.compile(r"(?P<who>.+?) cannot block this action")
_NOT_BY = re.compile(r"This (?:acting )?(?:minion|vampire|[A-Z][a-z]+) cannot be blocked by (?P<who>allies) (?:until the "
                     r"end of this action|this action)")
# "Allies and younger vampires get -1 intercept [during this action].", "Minions must burn 1 blood to attempt to block
# this action.", "+1 stealth, even if stealth is not yet needed."
_LOWERED = re.compile(r"(?P<who>.+?) get -(?P<n>\d) intercept(?: during this action| this action| against this action|"
                      r" when attempting to block this action)?")
_BLOCK_COST = re.compile(r"(?P<who>.+?) must burn (?P<n>\d) blood to attempt to block this action")
_ANY_STEALTH = re.compile(r"(?:This action gets )?\+(\d) stealth,? even if stealth is not yet needed")
_CHOOSE = re.compile(r"Choose (?P<who>(?:an?|any) .+)")
# A modifier or reaction ending the action (unsuccessfully: no combat, its cost unpaid, the blocking minion not
# locked by its block), with the locks it says first: "Lock this vampire and end the action." (Mental Maze),
# "Unlock this vampire, lock the blocking minion, and end the action." (Mirror's Visage), "Unlock this vampire, and
# the action ends (unsuccessfully)." (Psychomachia), "The action ends (unsuccessfully)."
_ENDS = re.compile(r"(?:(?P<clauses>.+?),? and )?(?:[Ee]nd the action|[Tt]he action ends \(unsuccessfully\)|[Tt]he action "
                   r"fails|[Tt]he current action is ended)(?: \(without combat\))?|Burn (?P<n>\d) blood to have the action "
                   r"fail|(?P<lock>Lock this vampire) to cause the action to fail"
                   r"|The action fails and (?P<torpor>the acting (?:vampire|minion) goes to torpor)")
# its clauses: "Lock this vampire", "lock the blocking minion", "the blocking vampire burns 2 blood", "The block attempt
# is canceled" (the attempt ends with the action)
_END_CLAUSE = re.compile(r"(?:(?P<verb>[Ll]ock|[Uu]nlock) (?:(?P<self>this (?:reacting |acting )?(?:vampire|minion))|"
                         r"(?P<blocker>the blocking (?:minion|vampire))|(?P<actor>the acting (?:minion|vampire)))"
                         r"|the blocking (?:vampire|minion) (?P<burns>burns (?P<n>\d) blood)"
                         r"|(?P<cancel>[Tt]he block attempt is canceled))")
# said after it, on a level written from it: "As above, and send the blocking vampire to torpor." (The Kiss of Ra)
_END_TORPOR = re.compile(r"Send the blocking (?:vampire|minion) to torpor")


def _ends_action(s: str) -> Optional[tuple[tuple[tuple[str, str], ...], int, str]]:
    """(the locks an "... and end the action" sentence says before it, the blood it costs: "Burn 1 blood to have the
    action fail.", how it ends: `end_unsuccessfully`'s "fails", "resolved" or "ended"), or None when `s` is no such
    sentence (`_ENDS`) or one of its clauses is not a lock or unlock read here."""
    m = _ENDS.fullmatch(s) if s[:1].isupper() else None
    if m is None:
        return None
    if m.group("n"):
        return (), int(m.group("n")), "fails"
    if m.group("lock"):  # "Lock this vampire to cause the action to fail." (The Mole)
        return (("self", "lock"),), 0, "fails"
    if m.group("torpor"):  # "The action fails and the acting vampire goes to torpor." (Mistaken Identity)
        return (("actor", "torpor"),), 0, "fails"
    how = ("fails" if re.search(r"action fails$", s) else "resolved" if "(unsuccessfully)" in s else "ended")
    locks = []
    for clause in re.split(r",\s*", m.group("clauses") or "") if m.group("clauses") else ():
        c = _END_CLAUSE.fullmatch(clause.strip())
        if c is None:
            return None
        if c.group("cancel"):
            continue
        if c.group("burns"):
            locks.append(("blocker", f"burn {c.group('n')}"))
            continue
        who = "self" if c.group("self") else "blocker" if c.group("blocker") else "actor"
        locks.append((who, c.group("verb").casefold()))
    return tuple(locks), 0, how
# "Strike: hand strike or use a melee weapon strike. This strike is at +1 damage[, with 1 optional maneuver|press]."
# (Undead Strength, Lucky Blow, Lam Into): a hand strike at +N damage (a minion bearing equipment: its melee weapon's
# strike at +N is not read)
_HAND_OR_MELEE = re.compile(r"Strike: hand(?: strike)? or use a melee weapon strike")
_AT_DAMAGE = re.compile(r"This strike is at \+(?P<n>\d) damage(?:, with (?:an|1|one) optional (?P<what>maneuver|press)"
                        r"(?:,? only usable to (?P<to>continue|end) combat)?)?")
# Sentences read whole as one flag of `Modelled` (the sentence without its full stop -> the flag).
_FLAGS = {
    "Do not replace until your next unlock phase": "not_replaced",
    "Do not replace until your unlock phase": "not_replaced",  # (the same: the next one)
    "Lock this reacting vampire": "lock_self",
}
_GIVES_BACK = re.compile(r"That Methuselah gets \+1 master phase action immediately, or at the start of their next "
                         r"master phase if the cancell?ed card is an out-of-turn master")
# The cards whose "Do not replace until your next unlock phase." the engine applies as they are played (the paths of
# the other types replace a card at once: the sentence stays unread there, and stops where it matters)
_REPLACED_LATER = {(MODIFIER,), (REACTION,), (MASTER,)}
# An ally card's sentences that act as it is recruited or comes into play, or change its figures: not read, they
# stop its recruit (an ally's other sentences go with it as unread text, stopping where they could matter)
_AS_RECRUITED = re.compile(r"recruit|enters? play|comes? into play|Unlock this vampire|As above|this ally has|"
                           r"additional life|\blife\b.*\bstrength\b|\bstrength\b.*\blife\b", re.I)
# "A vampire cannot play both Pack Tactics and cards named /Elder Intervention/ during the same action.", "Lost in
# Crowds and cards named /Into Thin Air/ cannot both be played during the same action.": this card (a), the other
# (b, or c when not set apart by slashes)
_NOT_WITH = [(re.compile(r"A vampire cannot play both (?P<a>.+?) and (?:cards named /(?P<b>[^/]+)/|(?P<c>.+?)) "
                         r"during the same action"), "vampire"),
             (re.compile(r"(?P<a>.+?) and (?:cards named /(?P<b>[^/]+)/|(?P<c>.+?)) cannot both be played "
                         r"(?:during|on) the same action"), "action")]
# "If this vampire was blocked while performing a non-bleed action, the action continues as if unblocked." (also
# "After combat ends, if ...", "... an action other than bleeding, ...")
_CONTINUES = re.compile(r"(?:After combat ends, )?[Ii]f this vampire was blocked while performing an? "
                        r"(?P<not>(?:non-(?:bleed|political) )*)action(?: other than (?P<other>bleeding))?, the "
                        r"action continues as if unblocked")
# A hunting ground's (a master card, a location) gain, and its limit.
_HUNTING_GAIN = re.compile(r"During your unlock phase, (?:a ready vampire you control can gain (?P<n>\d) blood|you may "
                           r"move (?P<n2>\d) blood from the (?:blood )?bank to a ready vampire you control)")
# a location's lock: "You can lock this card to give a Gangrel you control +1 stealth.", "Lock to give an Assamite you
# control +1 intercept.", "You can lock this location during your influence phase to add 1 blood to a Toreador in your
# uncontrolled region.", "During your influence phase, lock to move 1 blood from the blood bank to a Brujah antitribu
# in your uncontrolled region."
_LOCK_FOR = re.compile(
    r"(?:You can )?[Ll]ock(?: this (?:card|location))? to give (?:an?|any) (?P<who>[\w' -]+?)(?P<mine> you control)? "
    r"\+(?P<n>\d) (?P<stat>stealth|intercept)(?: for the current action)?"
    r"|(?:(?:You can )?[Ll]ock(?: this (?:card|location))? during your influence phase|During your influence phase, "
    r"lock) to (?:add|move) (?P<n2>\d) blood(?: from the blood bank)? to an? (?P<who2>[\w' -]+?) in your "
    r"uncontrolled region")
_ONE_HUNTING_GROUND = re.compile(r"A vampire can gain blood from only one hunting ground(?: card)? each turn")
# "A vampire can play only one Dodge each round.", "... Instantaneous Transformation at superior each turn."
_ONLY_ONE = re.compile(r"A (?:vampire|minion) can play only one (?P<name>.+?)(?: at (?P<level>superior|basic))? "
                       r"each (?P<per>combat|round|turn)")
def _level_line(card: CardFacts, level: Optional[str], line: Optional[int] = None) -> tuple[Optional[str], str, str]:
    """The text of the line played (`line`, else the first at `level`), with an "As above, ..." line written out
    (`card_text.written_out`) from the line above it: the other level's line of the same Disciplines, else the
    line printed before it; the "As above" line as printed and the line it was written from ("" when the line is
    not written out): a sentence the written-out text has and the line above has not is named unread as the
    "As above" line printed, never as a sentence no card prints."""
    lines = card.discipline_lines()
    if line is None:
        line = next((n for n, ln in enumerate(lines) if ln.played_at(level)), None)
    if line is None:
        return None, "", ""
    text = lines[line].text
    if not is_as_above(text):
        return text, "", ""
    above = _line_above(lines, line)
    out = written_out(text, above.text) if above is not None and not is_as_above(above.text) else None
    return (out, text, above.text) if out is not None else (text, "", "")


def _line_above(lines: list[DisciplineLine], line: int) -> Optional[DisciplineLine]:
    """The line an "As above, ..." line `line` is written from: the one of the Disciplines it names ("As [val]
    above"), else the other level's line of the same Disciplines, else the line printed before it."""
    named = above_codes(lines[line].text)
    if named is not None:
        return next((ln for ln in lines[:line] if ln.codes == named[0] and ln.level == named[1] and ln.played), None)
    return next((ln for ln in lines if ln.level != lines[line].level and ln.codes == lines[line].codes
                 and ln.played), next((ln for ln in reversed(lines[:line]) if ln.played), None))


def _lines_fitting(card: CardFacts, level: Optional[str], m: Minion) -> tuple[list[int], list[int]]:
    """(the Discipline lines at `level`, those of them whose Disciplines `m` has), as indexes in
    `card.discipline_lines()`."""
    lines = card.discipline_lines()
    at = [n for n, ln in enumerate(lines) if ln.played_at(level)]
    names = {code.casefold(): name for code, name, _ in card.disciplines}

    def has(code: str) -> bool:
        return discipline_level(m, code, names.get(code, code)) is not None
    return at, [n for n in at if (any if lines[n].any_of else all)(has(c) for c in lines[n].codes)]


def line_played(card: CardFacts, level: Optional[str], m: Minion) -> Optional[int]:
    """The Discipline line `m` plays the card by at `level` (an index in `card.discipline_lines()`): of the lines at
    that level, the one whose Disciplines `m` has; None when the card has no such line, or when `m` has none of
    them (its requirements refuse it). Raises NotModelled when `m` has the Disciplines of two lines that say
    different things: which one it plays is not read."""
    at, fits = _lines_fitting(card, level, m)
    if len(at) <= 1:
        return at[0] if at else None
    lines = card.discipline_lines()
    if len({lines[n].text for n in fits}) > 1:
        raise NotModelled(f"{m.name} has the Disciplines of more than one line of {card.name} at {level or 'inferior'}"
                          f" ({'; '.join(lines[n].text for n in fits)}): which one {m.name} plays is not read. "
                          f"{card.quote()}", [R.CARD_REQUIREMENTS, R.GOLDEN_RULE])
    return fits[0] if fits else None


# What `modelled` read, kept: a card is read at each step it is played, staged or checked, and its reading depends on
# nothing but the card's facts and the line played (the key holds the facts, a frozen value: other facts read again).
_MODELLED: Memo[tuple, "Modelled"] = Memo("engine.modelled", 20_000)


def modelled(card: CardFacts, level: Optional[str], line_number: Optional[int] = None) -> Modelled:
    """What the engine reads of the card played at `level` by its line `line_number` (`line_played`; the first at
    that level when None). Kept (`_MODELLED`): callers read it and never change it."""
    key = (card, level, line_number)
    found = _MODELLED.recall(key)
    if found is None:
        found = _MODELLED.remember(key, _read_card(card, level, line_number))
    return found


def _read_card(card: CardFacts, level: Optional[str], line_number: Optional[int]) -> Modelled:
    out = Modelled()
    line, as_above, above = _level_line(card, level, line_number)
    out.line_text, out.printed_line = line, as_above or line
    # the sentences an "As above" line wrote (added or changed): unread, they are named as the line printed
    written = set(_SENTENCE.split(line)) - set(_SENTENCE.split(above)) if as_above else set()
    locked_only = False  # an "Only usable by a locked ..." condition
    # a "[REFLEX]" line (played against the minion as a card is played: not modelled) cancels nothing here
    reflex = line_number is not None and "REFLEX" in card.discipline_lines()[line_number].marks
    gain_sentence = ""  # a hunting ground's gain, as printed
    text = " ".join(card.preamble + ([line] if line else []))
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    out.title = titles.title_card_of(card.name, sentences, card.rulings) if tuple(card.types) == (POLITICAL,) \
        else None
    out.referendum = referendum_effects.referendum_text_of(card.name, sentences, card.rulings) if \
        tuple(card.types) == (POLITICAL,) and out.title is None else None
    # (a weapon whose strike is a Discipline's line, Tinglestripe's, is not read: which line the bearer uses is not)
    out.weapon = weapons.weapon_of(card.name, sentences) if tuple(card.types) == (EQUIPMENT,) and \
        not card.discipline_lines() else None
    if tuple(card.types) == (EQUIPMENT,) and out.weapon is None and not card.discipline_lines():
        # read whole by its own reader (what it gives its bearer), as a retainer card is
        read = out.gear = gear.gear_text_of(card.name, [s for s in sentences if not (
            s.startswith("Requires ") and requirements_checked(card))])
        out.rest = list(read.unread)
        return out
    out.discipline_card = _discipline_card(sentences) if tuple(card.types) == (MASTER,) else None
    if tuple(card.types) in ((RETAINER_CARD,), (ALLY_CARD,)):  # read whole by their own readers (the line as
        # printed: "As above, but Raven Spy has 2 life.")
        lines = card.discipline_lines()
        number = line_number if line_number is not None else \
            next((n for n, ln in enumerate(lines) if ln.played_at(level)), None)
        printed = lines[number].text if number is not None else None
        above = _line_above(lines, number) if printed and is_as_above(printed) else None
        above_text = above.text if above is not None else None
        preamble = [s for s in card.preamble if not (s.startswith("Requires ") and requirements_checked(card))]
        if tuple(card.types) == (RETAINER_CARD,):
            read = out.retainer = retainers.retainer_text_of(card.name, preamble, printed, above_text,
                                                             (*card.clans, *card.requirements))
        else:
            read = out.ally_text = allies.ally_text_of(card.name, preamble, printed, above_text)
            if read.life is not None:
                out.ally = (read.life, read.strength, read.bleed)
        out.rest = list(read.unread) + ([] if read.life is not None or read.unread else [" ".join(card.preamble)])
        return out
    on = gear.on_vampire_text_of(card.name, [s for s in sentences if not (
        s.startswith("Requires ") and requirements_checked(card))]) if tuple(card.types) == (ACTION,) else None
    if on is not None:  # read whole by its own reader: the card goes on the acting vampire as the action succeeds
        out.on_vampire, out.stealth = on, on.stealth
        out.action_text = action_effects.ActionText(card.name, (action_effects.Effect(on.put, "attach self",
                                                                                       on_vampire=on),))
        out.rest = list(dict.fromkeys(out.printed_line if s in written else s for s in on.unread))
        return out
    out.action_text = action_effects.action_text_of(
        card.name, sentences, bleed=any(s.startswith("(D) Bleed") for s in sentences)) \
        if tuple(card.types) == (ACTION,) else None
    out.master_text = action_effects.master_text_of(card.name, sentences) if tuple(card.types) == (MASTER,) and \
        out.discipline_card is None else None
    for sentence in sentences:
        if any(reader is not None and sentence in reader.read
               for reader in (out.title, out.weapon, out.referendum, out.discipline_card, out.action_text,
                              out.master_text)):
            continue
        s = sentence.rstrip(".")
        if s.casefold() in ("unique", "trifle", "master", "out-of-turn", "master: out-of-turn", "master: trifle"):
            continue
        if s in _FLAGS and (_FLAGS[s] != "not_replaced" or tuple(card.types) in _REPLACED_LATER):
            setattr(out, _FLAGS[s], True)
            continue
        if s == "Do not replace until after combat" and COMBAT in card.types:
            out.after_combat = True
            continue
        if s in ("Do not replace until after this action", "Do not replace until after the action") and \
                tuple(card.types) in ((REACTION,), (ACTION,)):
            out.after_action = True
            continue
        m, scope = next(((hit, scope) for hit, scope in ((p.fullmatch(s), scope) for p, scope in _NOT_WITH) if hit),
                        (None, ""))
        if m and m.group("a") == card.name and (MODIFIER in card.types or REACTION in card.types) and not out.not_with:
            out.not_with = (m.group("b") or m.group("c"), sentence, scope)
            continue
        m = re.fullmatch(r"This reacting vampire gets \+(\d) intercept", s)
        if m and tuple(card.types) == (REACTION,):
            out.intercept += int(m.group(1))
            continue
        if s == "Usable by a locked vampire" and tuple(card.types) == (REACTION,):
            out.locked_ok, out.locked_by = True, sentence  # read for a reaction alone: a modifier or combat card's
            # use of it is not modelled
            continue
        if re.match(r"This (?:reacting )?vampire wakes\b", s):
            out.wake = True
            continue
        if s == "This action is unblockable" and tuple(card.types) == (MODIFIER,):
            out.unblockable = True
            continue
        m = _ATTEMPT_FAILS.fullmatch(s) if MODIFIER in card.types else None
        if m and not out.fails_attempt:  # "That attempt fails and the blocking minion cannot attempt to block ..."
            out.fails_attempt = sentence
            out.bars = "controller" if m.group("controller") else "minion" if m.group("bars") else ""
            out.paid_blood += int(m.group("n") or 0)  # ("Burn 1 blood to have that attempt fail; ...")
            continue
        if _BARS.fullmatch(s) and out.fails_attempt and not out.bars and MODIFIER in card.types:
            out.fails_attempt, out.bars = f"{out.fails_attempt} {sentence}", "minion"  # "The block fails, ..." before
            continue
        hit = _OWN_DISCOUNT.fullmatch(s)
        if hit and (card.costs().blood or 0) and (named := groups_of(hit.group("clan"))) and len(named) == 1 and \
                named[0].kind == "clan":
            continue  # (taken off as the card is paid for: card_cost)
        m = re.fullmatch(r"If (?:they|he or she|this vampire) (?:do|does) not block this action, (?:they|he or she|this "
                         r"vampire) burns? (\d) blood before action resolution", s)
        if m and tuple(card.types) == (REACTION,) and not out.unless_blocks:
            out.unless_blocks = (int(m.group(1)), sentence)
            continue
        if s == "Move any amount of blood from a vampire you control to your pool" and tuple(card.types) == (MASTER,):
            out.blood_to_pool = sentence
            continue
        on_action = MODIFIER in card.types or tuple(card.types) == (ACTION,)
        m = _ANY_STEALTH.fullmatch(s) if MODIFIER in card.types else None
        if m:
            out.stealth, out.any_stealth = out.stealth + int(m.group(1)), True
            continue
        m = _LOWERED.fullmatch(s) if on_action and out.intercept_mod is None else None
        named = named_of(m.group("who")) if m else None
        if named is not None:
            out.intercept_mod = (sentence, named, int(m.group("n")))
            continue
        m = _BLOCK_COST.fullmatch(s) if on_action and out.block_cost is None else None
        named = named_of(m.group("who")) if m else None
        if named is not None:
            out.block_cost = (sentence, named, int(m.group("n")))
            continue
        m = _NOT_BY.fullmatch(s) if on_action and out.cannot_block is None else None
        if m:
            out.cannot_block = (sentence, named_of(m.group("who")))
            continue
        m = _CANNOT_BLOCK.fullmatch(s) if on_action else None
        if m and re.fullmatch(r"[Tt]he chosen (?:vampire|minion)", m.group("who")) and out.choose and \
                not out.chosen_cannot_block:
            out.chosen_cannot_block = sentence
            continue
        named = named_of(m.group("who")) if m and out.cannot_block is None else None
        if named is not None:
            out.cannot_block = (sentence, named)
            continue
        m = _CHOOSE.fullmatch(s) if tuple(card.types) == (MODIFIER,) and out.choose is None else None
        named = named_of(re.sub(r"^any ", "a ", m.group("who"))) if m else None
        if named is not None:
            out.choose = (sentence, named)
            continue
        ends = _ends_action(s) if set(card.types) & {MODIFIER, REACTION} and not out.ends_action else None
        if ends is not None:
            out.ends_action, (out.end_locks, out.paid_blood, out.end_how) = sentence, ends
            continue
        if out.ends_action and _END_TORPOR.fullmatch(s):
            out.ends_action, out.end_locks = f"{out.ends_action} {sentence}", out.end_locks + (("blocker", "torpor"),)
            continue
        m = re.fullmatch(r"The acting (?:minion|vampire) burns (\d) blood or life", s) if out.ends_action else None
        if m:  # "As above, and the acting minion burns 1 blood or life." (Voice of Madness at superior)
            out.ends_action = f"{out.ends_action} {sentence}"
            out.end_locks += (("actor", f"burn {m.group(1)}"),)
            continue
        m = re.fullmatch(r"(?:This vampire burns|Burn) (\d) blood to get \+(\d) intercept", s)
        if m and REACTION in card.types:
            out.paid_blood += int(m.group(1))  # (paid as the card is played: "Burn 1 blood to get +1 intercept.")
            out.intercept += int(m.group(2))
            continue
        m = re.fullmatch(r"This vampire burns (\d) blood to unlock", s)
        if m and tuple(card.types) == (REACTION,) and not out.unlock_self:
            out.paid_blood += int(m.group(1))
            out.unlock_self = sentence
            continue
        if s == "Minions who attempt to block this action and fail become locked before action resolution" and \
                tuple(card.types) == (MODIFIER,):
            out.lock_failed = sentence
            continue
        m = re.fullmatch(r"Instead, (?:this vampire )?burns? (\d) blood to start a new round", s)
        if m and COMBAT in card.types and not out.new_round and any(WOULD_END.search(x) for x, _ in out.conditions):
            out.new_round, out.paid_blood = sentence, out.paid_blood + int(m.group(1))
            continue
        m = re.fullmatch(r"The opposing minion burns (?P<burn>\d) blood or life after combat ends \(even at long range\)|"
                         r"After combat ends, if the range is close, this vampire inflicts (?P<dmg>\d) unpreventable "
                         r"damage on the opposing minion", s)
        if m and out.strike is not None and out.strike.kind == "combat ends" and out.after_end is None:
            out.after_end = ("burn", int(m.group("burn")), sentence, False) if m.group("burn") else \
                ("damage", int(m.group("dmg")), sentence, True)
            continue
        if s == "Unlock this vampire before combat ends" and out.strike is not None and \
                out.strike.kind == "combat ends" and not out.unlock_on_end:
            out.unlock_on_end = sentence  # (Earth Meld at superior: as its strike ends the combat)
            continue
        m = re.fullmatch(r"(?:Burn (?P<n>\d) blood to set|This vampire sets) the range for this round", s)
        if m and COMBAT in card.types and out.sets_range is None and any(
                "before range is determined" in x for x, _ in out.conditions):
            out.sets_range, out.paid_blood = sentence, out.paid_blood + int(m.group("n") or 0)
            continue
        m = re.fullmatch(r"If another round of combat occurs, that round is at (close|long) range \(skip the determine "
                         r"range step for that round\)", s)
        if m and COMBAT in card.types and out.strike is not None and out.next_round_range is None:
            out.next_round_range = (m.group(1), sentence)
            continue
        m = re.fullmatch(r"This action, while this vampire is in combat, each round is at (close|long) range \(skip the "
                         r"determine range step for each round\)", s)
        if m and tuple(card.types) == (MODIFIER,) and out.grant is None:
            out.grant = CombatGrant(f"range {m.group(1)}", 0, False, "blocked", sentence)
            continue
        grant = _combat_grant(s, sentence) if set(card.types) & {MODIFIER, REACTION} and out.grant is None else None
        if grant is not None:
            out.grant = grant
            continue
        m = re.fullmatch(r"The blocking minion gets -(\d) intercept", s)
        if m and MODIFIER in card.types and not out.blocker_intercept:
            out.blocker_intercept = int(m.group(1))
            continue
        if MASTER in card.types:
            m = re.fullmatch(r"(?:Master: )?(?P<unique>Unique )?location", s, re.I)
            if m and not out.location:
                out.location, out.unique_location = True, bool(m.group("unique"))
                continue
            if re.fullmatch(r"You (?:may|can) play this card during your (?:own )?turn", s) and card.out_of_turn:
                out.own_turn = sentence
                continue
            m = re.fullmatch(r"(?:You get )?\+(\d) hand size", s)
            if m and not out.location_hand[0] and out.location:
                out.location_hand = (int(m.group(1)), sentence)  # (a location's: while in play)
                continue
            m = re.fullmatch(r"(?:You get )?\+(\d) transfers?", s)
            if m and not out.location_transfers[0] and out.location:
                out.location_transfers = (int(m.group(1)), sentence)  # (a location's: each influence phase)
                continue
            m = _LOCK_FOR.fullmatch(s)
            groups = groups_of(m.group("who") or m.group("who2")) if m and out.location and out.location_lock is None \
                else None
            if groups:
                kind = m.group("stat") or "blood"
                out.location_lock = (kind, int(m.group("n") or m.group("n2")), groups,
                                     bool(m.group("mine")) or kind == "blood", sentence)
                continue
            if s == "Put this card in play" and not out.in_play:
                out.in_play = sentence
                continue
            if s.casefold() == "hunting ground" and not out.hunting_ground:
                out.hunting_ground = sentence
                continue
            m = _HUNTING_GAIN.fullmatch(s)
            if m and not out.hunting_gain:
                out.hunting_gain, gain_sentence = int(m.group("n") or m.group("n2")), sentence
                continue
            if _ONE_HUNTING_GROUND.fullmatch(s):
                out.one_hunting_ground = True
                continue
        cancel = cancels.cancel_of(sentence) if out.cancel is None and set(card.types) & _CANCELLERS and \
            not reflex else None
        if cancel is not None:
            out.cancel = cancel
            continue
        m = _CONTINUES.fullmatch(s)
        if m and COMBAT in card.types and not out.continues:
            out.continues = sentence
            out.continues_not = tuple(re.findall(r"non-(\w+)", m.group("not") or "")) + (
                ("bleed",) if m.group("other") else ())
            continue
        if out.cancel is not None and MASTER in card.types and _GIVES_BACK.fullmatch(s) and not out.gives_back:
            out.gives_back = sentence  # (of the master card cancelled: its Methuselah's master phase action)
            continue
        if out.cancel is not None and s in ("No cost is paid", "That card has no effect"):  # (of the card cancelled)
            out.cancel = out.cancel._replace(sentence=f"{out.cancel.sentence} {sentence}",
                                             cost_paid=False if s == "No cost is paid" else out.cancel.cost_paid)
            continue
        m = _ONLY_ONE.fullmatch(s)
        if m and m.group("name") == card.name and out.only_one is None:
            out.only_one = (m.group("per"), {"superior": "superior", "basic": "inferior"}.get(m.group("level") or ""),
                            sentence)
            continue
        m = re.fullmatch(r"Gain (\d) pool", s)
        if m and tuple(card.types) in ((ACTION,), (MASTER,)) and not out.gain_pool:
            out.gain_pool = int(m.group(1))
            continue
        if s == "This vampire gains 1 blood for each vote by which the referendum passed" and \
                tuple(card.types) == (MODIFIER,) and out.after_resolution:
            out.blood_per_vote = sentence
            continue
        m = re.fullmatch(r"This vampire gains (\d) blood and you gain (\d) pool", s)
        if m and tuple(card.types) == (MODIFIER,) and out.after_resolution and not (out.gain_blood or out.gain_pool):
            out.gain_blood, out.gain_pool = int(m.group(1)), int(m.group(2))  # (Spoils of War: once it resolved)
            continue
        m = re.fullmatch(r"This (?:acting )?vampire gains (\d) blood", s)
        if m and tuple(card.types) == (ACTION,) and not out.gain_blood:
            out.gain_blood = int(m.group(1))
            continue
        if s in ("Unlock this vampire", "Unlock this reacting vampire") and tuple(card.types) == (REACTION,) or \
                s in ("Unlock this vampire", "Unlock this minion") and tuple(card.types) == (MODIFIER,):
            out.unlock_self = sentence  # (a modifier's: once its action has resolved)
            continue
        if re.fullmatch(r"This (?:reacting )?vampire attempts to block the current action, ignoring the normal prey, "
                        r"predator or target restrictions for blocking actions", s) and tuple(card.types) == (REACTION,):
            out.block_any = sentence
            continue
        m = re.fullmatch(r"Once this action, this vampire can burn (\d) blood to get \+(\d) (intercept)", s)
        if m and tuple(card.types) == (REACTION,) and out.granted_ability is None:
            out.granted_ability = Ability("burn for", sentence, amount=int(m.group(2)), blood=int(m.group(1)), stat=m.group(3),
                                during="action", once="action")
            continue
        if s == "This vampire unlocks and attempts to block" and tuple(card.types) == (REACTION,):
            out.unlock_block = True  # read for a reaction alone, as "Usable by a locked vampire"
            continue
        m = re.fullmatch(r"This (?:reacting |acting )?(?:vampire|Anarch|(?-i:[A-Z][a-z]+)) (?:gets \+|gains )(\d) votes?", s)
        if m and (MODIFIER in card.types or REACTION in card.types) and not out.votes:
            out.votes = int(m.group(1))
            continue
        # "Reduce the bleed amount by N." where the card's condition has the bleed be against you (Banner of
        # Neutrality: "Only usable if a Camarilla or Sabbat vampire is bleeding you.")
        m = re.fullmatch(r"Reduce a bleed against you by (\d)", s) or (
            re.fullmatch(r"Reduce the bleed amount by (\d)", s) if "bleeding you" in card.text else None)
        if m:
            out.bleed_reduced += int(m.group(1))
            continue
        if s == "Maneuver or press" and COMBAT in card.types and not (out.maneuver or out.press):
            out.maneuver, out.press, out.maneuver_or_press = True, "any", sentence
            continue
        m = re.fullmatch(r"(?P<press>Press, or m|M)aneuver,? with (?:an|1|one) optional press", s)
        if m and COMBAT in card.types and not (out.maneuver or out.press or out.granted_press):
            # "Maneuver with 1 optional press.": the maneuver now, and a press this round the card gives (played
            # again for it); "Press, or maneuver with ...": the press in the press step instead
            out.maneuver, out.granted_press, out.granted_by = True, "any", sentence
            if m.group("press"):
                out.press, out.maneuver_or_press = "any", sentence
            continue
        m = re.fullmatch(r"Maneuver(?:, only usable to (?:go|get) to (?P<to>long|close) range)?", s)
        if COMBAT in card.types and m and not out.maneuver:
            out.maneuver, out.maneuver_to = True, m.group("to")
            continue
        m = re.fullmatch(r"(?:(\d) a|A)dditional strikes?(?: \(limited\))?", s)
        if m and COMBAT in card.types and not out.extra_strikes:
            out.extra_strikes = int(m.group(1) or 1)  # "(limited)": one source a round, as the engine holds all
            continue
        m = re.fullmatch(r"Press(?:, only usable to (continue|end) combat)?", s)
        if m and COMBAT in card.types and out.press is None:
            out.press = m.group(1) or "any"  # "Press.": to continue, or to end combat against a press to continue
            continue
        m = re.fullmatch(r"Prevent (\d) (non-aggravated )?damage", s)
        if m and COMBAT in card.types and not out.prevent:
            out.prevent, out.prevent_normal = int(m.group(1)), bool(m.group(2))
            continue
        m = re.fullmatch(r"(?:(?P<self>This (?:vampire|minion) (?:gets|has))|(?P<opp>The opposing minion gets)) "
                         r"(?P<n>[+-]\d) strength (?P<when>this combat|this round|for the remainder of "
                         r"(?:the |this )?combat)", s)
        if m and COMBAT in card.types:
            out.strength.append(("self" if m.group("self") else "opposing", int(m.group("n")),
                                 "round" if m.group("when") == "this round" else "combat"))
            continue
        if s == "Damage from this vampire's hand strikes is aggravated this round" and COMBAT in card.types:
            out.aggravated_hands = True
            continue
        if s == "Combat ends" and COMBAT in card.types and not out.ends_combat:
            out.ends_combat = sentence  # (not a strike: the card's effect, as it is played)
            continue
        if _HAND_OR_MELEE.fullmatch(s) and COMBAT in card.types and not out.hand_or_melee:
            out.hand_or_melee = sentence  # the strike's damage: the next sentence ("This strike is at +1 damage.")
            continue
        m = _AT_DAMAGE.fullmatch(s)
        if m and out.hand_or_melee and out.strike is None:
            out.strike = StrikeText("hand", int(m.group("n")), False, False, False, False)
            if m.group("what") == "maneuver":
                out.strike_maneuver = True
            elif m.group("what") == "press":
                out.granted_press, out.granted_by = m.group("to") or "any", sentence
            continue
        m = _WITH_PRESS.fullmatch(s)
        struck = strike_of(m.group("strike")) if m and COMBAT in card.types and out.strike is None else None
        if struck is not None:
            out.strike, out.granted_press, out.granted_by = struck, m.group("to") or "any", sentence
            continue
        m = _WITH_MANEUVER.fullmatch(s)
        struck = strike_of(m.group("strike")) if m and COMBAT in card.types and out.strike is None else None
        if struck is not None:
            out.strike, out.strike_maneuver = struck, True
            continue
        m = _WITH_STRIKES.fullmatch(s)
        struck = strike_of(m.group("strike")) if m and COMBAT in card.types and out.strike is None and \
            not out.extra_strikes else None
        if struck is not None:
            out.strike, out.extra_strikes = struck, int(m.group("n") or 1)
            continue
        m = _WITH_BOTH.fullmatch(s)
        struck = strike_of(m.group("strike")) if m and COMBAT in card.types and out.strike is None else None
        if struck is not None:
            out.strike, out.strike_maneuver, out.granted_press, out.granted_by = struck, True, "any", sentence
            continue
        struck = strike_of(sentence)
        if struck is not None and out.strike is None and COMBAT in card.types:
            out.strike = struck
            continue
        if re.fullmatch(r"Change the target of the bleed to another Methuselah(?: other than the acting "
                        r"(?:minion|vampire)'s controller)?(?: \(that Methuselah can attempt to block\))?", s):
            out.redirect = True
            continue
        condition = condition_of(s) if set(card.types) & _PLAYED_UNDER_CONDITIONS else None
        if condition is not None and condition.after_resolution and tuple(card.types) != (MODIFIER,) and not (
                condition.after_block and tuple(card.types) == (REACTION,)):
            condition = None  # played once the action resolved: read for an action modifier alone, and a reaction
            # by the vampire that blocked the action
        if condition is not None and ((condition.outside_combat and COMBAT in card.types) or condition.torpor or
                                      (condition.locked and ACTION in card.types)):
            # a combat card played from outside the combat, an action by a locked vampire (Force of Will), a card
            # played in torpor: the engine's rules of who acts and reacts would refuse what the card allows, so the
            # condition refuses a play that does not meet it, and one that does stops as not modelled
            out.beyond_rules = sentence
        if condition is not None:
            out.conditions.append((sentence, condition))
            locked_only = locked_only or condition.locked
            # "by a ready vampire other than the acting minion": an action modifier played by another vampire
            out.other_than_acting = out.other_than_acting or (condition.other_than_acting and MODIFIER in card.types)
            continue
        m = re.fullmatch(r"This (?:acting )?(?:vampire|[A-Z][a-z]+) gets \+(\d) hunt(?: this action)?", s)
        if m and tuple(card.types) == (MODIFIER,) and not out.hunt:
            out.hunt = int(m.group(1))  # (its own hunt: a modifier is the acting vampire's)
            continue
        m = re.fullmatch(r"Burn (\d) blood to get \+(\d) stealth", s)
        if m and tuple(card.types) == (MODIFIER,) and not out.stealth:
            out.paid_blood += int(m.group(1))  # (paid as the card is played, with its cost)
            out.stealth = int(m.group(2))
            continue
        m = re.fullmatch(r"\+(\d) stealth, not usable during an? (bleed|political) action", s)
        negated = condition_of(f"Not usable during a {m.group(2)} action.") if m and MODIFIER in card.types else None
        if negated is not None and not out.stealth:
            out.stealth = int(m.group(1))
            out.conditions.append((sentence, negated))  # (Shroud of Night: its condition said after its effect)
            continue
        m = re.fullmatch(r"The acting minion gets \+(\d) stealth|\+(\d) stealth action", s)
        if m:
            out.stealth += int(m.group(1) or m.group(2))
            continue
        # "The acting minion gets +1 bleed (limited).", "The acting ally or younger vampire gets +1 strength during this
        # action.": a modifier played by another vampire, for the acting minion (its minions named: checked as played)
        m = re.fullmatch(r"The acting (?P<who>.+?) gets \+(?P<n>\d) (?:(?P<bleed>bleed)(?P<limited> \(limited\))?|"
                         r"(?P<strength>strength) (?:during )?this action)", s) if MODIFIER in card.types else None
        named = named_of(m.group("who")) if m and out.acting_must_be is None else None
        if named is not None and m.group("bleed") and not out.bleed:
            out.bleed, out.limited, out.acting_must_be = int(m.group("n")), bool(m.group("limited")), (sentence, named)
            continue
        if named is not None and m.group("strength") and out.grant is None:
            out.grant = CombatGrant("strength", int(m.group("n")), False, "blocked", sentence)
            out.grant_to_actor, out.acting_must_be = True, (sentence, named)
            continue
        if s.startswith("Requires ") and requirements_checked(card):
            continue  # the card data's requirements, which `check_requirements` checks
        if s in ("Requires a vampire", "Requires a ready vampire") and tuple(card.types) in ((ACTION,), (MODIFIER,),
                                                                                            (REACTION,)):
            out.vampire_only = sentence  # (an acting or reacting minion is ready: the rules of who acts and reacts)
            continue
        m = re.fullmatch(r"\(D\) Bleed( any Methuselah)?(?: with \+(\d) bleed)?", s)
        if m:
            out.action_bleed, out.any_target = True, bool(m.group(1))
            out.bleed += int(m.group(2) or 0)
            continue
        m = re.fullmatch(r"\+(?P<n>\d) bleed, with an additional \+(?P<more>\d) bleed if this vampire is (?P<clan>"
                         r"[A-Z][\w -]+?)(?P<limited> \(limited\))?", s)
        if m and MODIFIER in card.types and not out.bleed:
            out.bleed, out.limited = int(m.group("n")), bool(m.group("limited"))
            out.bleed_if = (int(m.group("more")), m.group("clan"), sentence)
            continue
        m = re.fullmatch(r"\+(?P<n>\d) intercept, with an additional \+(?P<more>\d) intercept if (?:(?P<acting>the acting "
                         r"(?:minion|vampire))|this (?:vampire|[A-Z][a-z]+)) is titled", s)
        if m and tuple(card.types) == (REACTION,) and not out.intercept:
            out.intercept = int(m.group("n"))
            out.intercept_if = (int(m.group("more")), "acting" if m.group("acting") else "self", sentence)
            continue
        m = re.fullmatch(r"(?:\+(\d) stealth)?(?:,? and )?(?:\+(\d) bleed( \(limited\))?)?(?:\+(\d) intercept)?", s)
        if m and any(m.groups()):
            out.stealth += int(m.group(1) or 0)
            out.bleed += int(m.group(2) or 0)
            out.intercept += int(m.group(4) or 0)
            if m.group(2):
                out.limited = bool(m.group(3))
            continue
        out.rest.append(sentence)
    if out.in_play and not out.location:  # a master card in play that is no location: no place for it in the engine
        out.rest.append(out.in_play)
    if out.hunting_gain and not (out.location and out.hunting_ground):
        out.hunting_gain = 0
        out.rest.append(gain_sentence)  # (a hunting ground's gain: read on a location only)
    if out.choose and not out.chosen_cannot_block:  # a choice for nothing the engine reads
        out.rest.append(out.choose[0])
        out.choose = None
    if out.unlock_self and tuple(card.types) == (MODIFIER,) and not out.after_resolution:
        out.rest.append(out.unlock_self)  # a modifier unlocking its vampire during the action: not read
        out.unlock_self = ""
    if locked_only and tuple(card.types) == (REACTION,) and not (out.wake or out.unlock_block):
        out.locked_ok = True  # "Only usable by a locked ...": played locked, as "Usable by a locked vampire." is
        out.locked_by = next(s for s, c in out.conditions if c.locked)
    if written:
        out.rest = list(dict.fromkeys(as_above if s in written else s for s in out.rest))
        if out.granted_by in written:
            out.granted_by = as_above
    return out


# A master Discipline card: "Discipline. Put this card on a vampire. This vampire gets +1 level of Auspex [aus] and +1
# capacity. Cannot be put on a vampire with superior Auspex [AUS]." (or "... gains 1 level of Auspex [aus]. Capacity
# increases by 1: the vampire is one generation older. Cannot be placed on ...")
_DISCIPLINE_CARD = (
    re.compile(r"(?:Master: )?Discipline"),
    re.compile(r"Put this card on a vampire"),
    re.compile(r"This vampire (?:gets \+1 level of (?P<name>[A-Z][a-z]+) \[(?P<code>[a-z]{3})\]"
               r"(?P<cap> and \+1 capacity)?|gains (?:1|one) level of (?P<name2>[A-Z][a-z]+) \[(?P<code2>[a-z]{3})\])"),
    re.compile(r"Capacity increases by 1: the vampire is one generation older"),
    re.compile(r"Cannot be (?:put|placed) on a vampire with superior (?P<name>[A-Z][a-z]+) \[(?P<code>[A-Z]{3})\]"),
)


class DisciplineCard(NamedTuple):
    """A master Discipline card read whole (`_discipline_card`)."""

    code: str  # "aus"
    name: str  # "Auspex"
    capacity: int  # the capacity it adds
    read: tuple[str, ...]  # its sentences, all read


def _discipline_card(sentences: list[str]) -> Optional[DisciplineCard]:
    """A master Discipline card read whole, or None."""
    label, put, gives, older, cannot = _DISCIPLINE_CARD
    found: dict = {}
    for s in sentences:
        text = s.strip().rstrip(".")
        for key, rx in (("label", label), ("put", put), ("gives", gives), ("older", older), ("cannot", cannot)):
            m = rx.fullmatch(text)
            if m and key not in found:
                found[key] = m
                break
        else:
            if text.casefold() not in ("trifle", "master"):
                return None
    if not {"label", "put", "gives", "cannot"} <= set(found):
        return None
    g = found["gives"]
    code, name = (g.group("code") or g.group("code2")), (g.group("name") or g.group("name2"))
    if found["cannot"].group("code").casefold() != code:
        return None
    capacity = 1 if g.group("cap") or "older" in found else 0
    return DisciplineCard(code, name, capacity, tuple(sentences))


# -- playing a named card ---------------------------------------------------------------------------------
def stage_kind(e: PlayCard, table) -> type:
    """The engine event a named card is played as, for the stages (stages.py): an action modifier or a
    reaction belongs to the open action, a combat card to the combat; an action modifier "only usable after
    resolution", or a reaction "by a vampire who has blocked, after block resolution", to none of them (the action,
    and a blocked action's combat, are played out first)."""
    types = e.card.types
    if types in ((MODIFIER,), (REACTION,)) and modelled(e.card, e.level).after_resolution:
        return PlayCard
    if COMBAT in types and len(types) > 1 and {frozenset(ln.marks & {"COMBAT", "ACTION MODIFIER", "REACTION"})
                                               for ln in e.card.discipline_lines() if ln.played_at(e.level)} \
            == {frozenset({"COMBAT"})}:
        return ChooseStrike  # every line at the level played is marked [COMBAT]: played in a combat (a block first)
    if COMBAT in types and (table.combat is not None or len(types) == 1):
        return ChooseStrike
    if MODIFIER in types and table.action is not None:
        return Modifier
    if REACTION in types and table.action is not None:
        return Reaction
    for t, kind in ((MODIFIER, Modifier), (REACTION, Reaction), (ACTION, ActionCard), (POLITICAL, Political),
                    (MASTER, MasterCard), (EQUIPMENT, Equip), (ALLY_CARD, Recruit), (RETAINER_CARD, Employ)):
        if t in types:
            return kind
    return PlayCard


def play_card(d: Draft, e: PlayCard, log: Log) -> None:
    """The handler of a named card: who plays it and when, its requirements and cost, then its effect."""
    card = e.card
    kind = stage_kind(e, d)
    if kind is MasterCard:
        _master(d, e, log)
        return
    if e.on is not None and kind is not ActionCard and not (kind is Modifier and modelled(card, e.level).choose):
        # (a master Discipline card, an action card's effect aimed at a minion, and a modifier's "Choose a younger
        # vampire.", are the cards the engine reads played on one)
        raise NotModelled(f"{card.name} put on {e.on}: the engine reads no {'/'.join(card.types)} card put on a "
                          f"minion. {card.quote()}", [R.GOLDEN_RULE])
    if e.minion is None:
        raise _refuse(card, f"{card.name} is a {'/'.join(card.types)} card: a minion plays it (name the minion: "
                            f"'Belinde plays {card.name}')", R.CARD_MASTER_WHO)
    m = _as_vampire(minion(d, e.minion), card, log)
    number = line_played(card, e.level, m)
    what = modelled(card, e.level, number)
    if {MODIFIER, REACTION} <= set(card.types) and kind is Modifier:
        kind = _played_as(d, card, number, m)
    if what.conditions and e.cancelling is not None and e.cancelling.played_as in cancels.ACTION_CARDS:
        raise NotModelled(f"{card.name}{_at(e)} is \"{what.conditions[0][0]}\", and it would cancel "
                          f"{e.cancelling.card.name} as that action card is played, before its action is under way: "
                          f"whether the condition holds then is not read. {card.quote()}",
                          [R.CANCEL_AS_PLAYED, R.GOLDEN_RULE])
    if d.edition == OLDER and any(WOULD_END.search(x) for x, _ in what.conditions):
        raise NotModelled(f"{card.name}{_at(e)}: the older book's round has no end of round step, where a card usable "
                          f"as combat would end is played: not modelled. {card.quote()}", [R.PRESS, R.GOLDEN_RULE])
    for sentence, condition in what.conditions:
        reason = condition.reason(d, m)
        if reason:
            raise _refuse(card, f"{card.name} is \"{sentence}\": {reason}", R.CARD_REQUIREMENTS)
    if what.vampire_only and m.kind != VAMPIRE:
        raise _refuse(card, f"{m.name} is an ally: \"{what.vampire_only}\"", R.CARD_REQUIREMENTS)
    if what.beyond_rules:
        # (what the card does not override still refuses: an action in its controller's minion phase, a reaction or
        # modifier during an action, and the card's own requirements)
        if kind is ActionCard:
            check_minion_phase(d, m)
        elif kind in (Modifier, Reaction) and d.action_() is None:
            raise _refuse(card, f"{m.name} cannot play {card.name}: no action is in progress", R.CARD_REQUIREMENTS)
        check_requirements(d, card, m, e.level)
        raise NotModelled(f"{card.name}{_at(e)} is \"{what.beyond_rules}\", as {m.name} is: played so, beyond the "
                          f"rules of who acts, reacts and fights, it is not modelled. {card.quote()}",
                          [R.CARD_REQUIREMENTS, R.GOLDEN_RULE])
    # (a sentence may open with its type mark: "[REACTION] Only usable by a locked prince or justicar.")
    unread_when = [s for s in what.rest if re.match(r"(?:\[[A-Z ]+\] )?(?:Only usable|Usable|Not usable)\b", s)]
    if unread_when:  # it may allow what the rules of who plays a card and when forbid: no refusal by those rules can
        # be trusted; the card's own requirements still refuse ("Requires a prince or justicar.")
        check_requirements(d, card, m, e.level)
        raise NotModelled(f"{card.name}{_at(e)}: \"{unread_when[0]}\" (who may play it, or when) is not read. "
                          f"{card.quote()}", [R.CARD_REQUIREMENTS, R.GOLDEN_RULE])
    _only_one(d, e, m, what)
    _not_with(d, e, m, what)
    if kind is ChooseStrike or (COMBAT in card.types and kind is PlayCard):
        _combat_card(d, e, m, what, log)
        return
    if tuple(card.types) in ((MODIFIER,), (REACTION,)) and what.after_resolution:
        _after_resolution(d, e, m, what, log)  # (its conditions met: an action has just resolved)
        return
    if kind is PlayCard:
        raise NotModelled(f"playing a {'/'.join(card.types)} card by name ({card.name}); describe what it does "
                          f"with the engine's other forms. {card.quote()}", [R.CARD_REQUIREMENTS, R.GOLDEN_RULE])
    polled = bool(what.votes) and d.action_() is None and d.referendum is not None  # a card granting votes, now
    if kind in (Modifier, Reaction) and not polled and d.action_() is None and d.referendum is not None:
        # the referendum is part of the political action's resolution: a card played there other than for its votes
        politics.no_cards(d, f"{card.name}, {'an action modifier' if kind is Modifier else 'a reaction'},")
    if polled and kind in (Modifier, Reaction):
        _referendum_who(d, e, m, kind, what)
    else:
        _who_and_when(d, e, m, kind, what)
    check_requirements(d, card, m, e.level, log)
    cost = e.cost or card_cost(card, m, log, _PLAYED_AS.get(kind))
    check_cost(d, card, m, m.controller, cost)
    if e.cancelling is not None or _only_cancels(what):
        _cancels(d, e, m, m.controller, what, log, {Modifier: R.CARD_MODIFIER_WHO, Reaction: R.CARD_REACTION_WHO}.get(
            kind, R.CARD_ACTION_WHO))
        if kind in (Modifier, Reaction) and d.action_() is not None:  # (none yet for an action card cancelled)
            actions.played_once(d, m.name, card.name, "modifiers" if kind is Modifier else "reactions")
        _pay(d, m, cost)
        play_from_hand(d, m.controller, log, card.name, replaced=not what.not_replaced,
                       after_action=what.after_action and d.action_() is not None)
        return
    if what.votes and kind in (Modifier, Reaction):
        # Its votes belong to a referendum being polled: outside one, politics.card_votes says which is missing
        rule = R.CARD_MODIFIER_WHO if kind is Modifier else R.CARD_REACTION_WHO
        if e.cancelled:
            _cancelled(d, e, m, m.controller, cost, log, False, rule, "modifier" if kind is Modifier else "reaction")
            return
        _unmodelled_rest(e, what, [rule])
        _votes_card(d, e, m, cost, what, log, rule)
        return
    if kind is Modifier:
        _modifier(d, e, m, cost, what, log)
    elif kind is Reaction:
        _reaction(d, e, m, cost, what, log)
    elif kind is ActionCard:
        _action(d, e, m, cost, what, log)
    elif kind is Political:
        _political(d, e, m, cost, what, log)
    elif kind is Equip:
        _equip(d, e, m, cost, what, log)
    elif kind is Recruit:
        _recruit(d, e, m, cost, what, log)
    elif kind is Employ:
        _employ(d, e, m, cost, what, log)


def _as_vampire(m: Minion, card: CardFacts, log: Log) -> Minion:
    """An ally whose card lets it play cards requiring its Disciplines "as a vampire", playing one: what the checks of
    its play see (a vampire of its card's capacity: the book, "treated as a vampire for all effects generated by the
    play of the card"); any other card it plays as the ally it is."""
    if m.kind != ALLY or not m.as_vampire or not {c.casefold() for c, _, _ in card.disciplines} & set(m.disciplines):
        return m
    log.add(f"{m.name} plays {card.name} as a vampire of capacity {m.as_vampire}, as its card allows, at the basic "
            f"level only.", R.ALLY_AS_VAMPIRE, R.GOLDEN_RULE)
    return dataclasses.replace(m, kind=VAMPIRE, capacity=m.as_vampire)


def _after_resolution(d: Draft, e: PlayCard, m: Minion, what: Modelled, log: Log) -> None:
    """An action modifier "only usable after resolution" of the action (its conditions met: one has just resolved,
    `state.Resolved`): played by the minion that acted, as the card allows once its action is over (the Golden Rule:
    action modifiers are otherwise played during the action); a reaction "by a vampire who has blocked, after block
    resolution", by the minion that blocked it (its condition checked that), a locked one as the card says (Cats'
    Guidance). "Unlock this vampire." unlocks it."""
    r, card = d.resolved, e.card
    modifier = tuple(card.types) == (MODIFIER,)
    kind, rule = ("action modifier", R.CARD_MODIFIER_WHO) if modifier else ("reaction", R.CARD_REACTION_WHO)
    if modifier and m.name != r.actor:
        raise _refuse(card, f"{m.name} cannot play {card.name}, an action modifier: the action that resolved, "
                            f"{r.summary}, was {r.actor}'s", R.CARD_MODIFIER_WHO, R.MODIFIER_WHO)
    if (m.name, card.name) in (r.modifiers if modifier else r.reactions):
        raise _refuse(card, f"{m.name} played {card.name} during {r.summary} already: the moment after its resolution "
                            f"is the action's last step, and a minion plays the same {kind} once an action",
                      R.SAME_CARD_ONCE)
    if not modifier and m.region != READY:  # (a reaction's rule: a vampire in torpor plays none)
        raise _refuse(card, f"{m.name} is in the {m.region} region and cannot play reaction cards", R.TORPOR_REGION,
                      R.REACTION_WHO)
    if not modifier and m.locked and not what.locked_ok:  # (its block locked it: only a card allowing it says so)
        raise _refuse(card, f"{m.name} is locked: only ready unlocked minions play reactions, and {card.name} does not "
                            f"say it is usable by a locked vampire", R.REACTION_WHO)
    check_requirements(d, card, m, e.level, log)
    cost = e.cost or card_cost(card, m, log, "Action Modifier" if modifier else "Reaction")
    check_cost(d, card, m, m.controller, cost)
    if e.canceller is not None:
        raise NotModelled(f"{card.name} cancelled by {_canceller_name(e.canceller)} after {r.summary} resolved: who "
                          f"may cancel a card played once the action is over, and under which of its conditions, is "
                          f"not modelled", [R.CANCEL_AS_PLAYED, R.GOLDEN_RULE])
    played = ((m.name, card.name),)  # (the non-repeat rule)
    d.set(resolved=dataclasses.replace(r, modifiers=r.modifiers + played) if modifier else
          dataclasses.replace(r, reactions=r.reactions + played))
    if e.cancelled:  # (still played: recorded above)
        _cancelled(d, e, m, m.controller, cost, log, False, rule, "modifier" if modifier else "reaction")
        return
    _unmodelled_rest(e, what, [rule])
    _pay(d, m, cost)
    play_from_hand(d, m.controller, log, card.name, replaced=not what.not_replaced)
    paid = f", paying {_cost_text(cost)}" if cost != Cost() else ""
    who = "" if modifier else f", {'locked, ' if m.locked else ''}having blocked it"
    log.add(f"{m.name} plays {card.name}{_at(e)} after {r.summary} resolved ("
            f"{'successful' if r.successful else 'blocked' if r.blocked else 'not successful'}){who}{paid}, as the "
            f"card allows.", rule, R.GOLDEN_RULE)
    if what.blood_per_vote:  # (the votes for less those against: a referendum passing automatically, by 0: a ruling)
        gained = blood(d, m.name, max(0, r.margin), drain=False)
        log.add(f"{m.name} gains {gained} blood, the referendum having passed by {max(0, r.margin)} vote"
                f"{'' if r.margin == 1 else 's'} (\"{what.blood_per_vote}\").", R.GOLDEN_RULE)
        drain_excess(d, m.name, log)
    if what.gain_blood or what.gain_pool:  # "This vampire gains 1 blood and you gain 1 pool." (Spoils of War)
        gained = blood(d, m.name, what.gain_blood, drain=False)
        pool(d, m.controller, what.gain_pool)
        log.add(f"{m.name} gains {gained} blood and {m.controller} gains {what.gain_pool} pool, as {card.name} says.",
                R.GOLDEN_RULE)
        drain_excess(d, m.name, log)
    if what.unlock_self:
        if m.locked:
            d.put_minion(m.name, locked=False)
            log.add(f"{m.name} unlocks (\"{what.unlock_self}\").", R.GOLDEN_RULE)
        else:
            log.add(f"{m.name} is unlocked already: \"{what.unlock_self}\" changes nothing.", R.GOLDEN_RULE)
    if e.effect is not None:
        apply_card_effect(d, log, e.effect, card.name)
    _says(e, log)


def _only_one(d: Draft, e: PlayCard, m: Minion, what: Modelled) -> None:
    """"A vampire can play only one <this card> [at superior] each combat|round|turn.": a second play by the same
    minion in that span is refused, quoting it; the play is recorded (a refused step leaves the state as it was, so
    a play refused later is not). Outside a combat, a limit per combat or round has nothing to count."""
    if what.only_one is None:
        return
    per, level, sentence = what.only_one
    if level and (e.level or "inferior") != level:
        return  # "at superior": the basic level is not limited
    key = e.card.name + (f" at {level}" if level else "")
    if per == "turn":
        if key in m.once:
            raise _refuse(e.card, f"{m.name} has played {key} this turn already: \"{sentence}\"", R.CARD_REQUIREMENTS)
        d.put_minion(m.name, once=m.once + (key,))
        return
    c = d.combat
    if c is None:
        return
    if any(who == m.name and k == key and (per == "combat" or r == c.round) for who, k, r in c.limited):
        raise _refuse(e.card, f"{m.name} has played {key} this {per} already: \"{sentence}\"", R.CARD_REQUIREMENTS)
    d.put_combat(limited=c.limited + ((m.name, key, c.round),))


def _not_with(d: Draft, e: PlayCard, m: Minion, what: Modelled) -> None:
    """"A vampire cannot play both <this card> and cards named /<that>/ during the same action." (Pack Tactics after
    Elder Intervention: `m`'s own) or "<this card> and cards named /<that>/ cannot both be played during the same
    action." (anyone's): refused when the other card was played during the action in progress; else the limit is
    kept on the action, so the other card played after this one is refused too (actions.played_once)."""
    a = d.action_()
    if what.not_with is None or a is None:
        return
    other, sentence, scope = what.not_with
    if any((scope == "action" or who == m.name) and card.casefold() == other.casefold()
           for who, card in a.modifiers + a.reactions):
        who = m.name if scope == "vampire" else "a minion"
        raise _refuse(e.card, f"{who} played {other} during this action: \"{sentence}\"", R.CARD_REQUIREMENTS)
    d.put_action(excluded=a.excluded + ((m.name, other, sentence, scope),))


def _played_as(d: Draft, card: CardFacts, number: Optional[int], m: Minion) -> type:
    """A card both action modifier and reaction: the type its line is marked as ("[DOM] [REACTION] ..."), else the
    one its player may play it as: an action modifier by the acting Methuselah's vampire (the referendum's caller's,
    in a referendum), a reaction by another Methuselah's."""
    lines = card.discipline_lines()
    # (the marks of every line saying the same that `m` may play it by: "[pre] [REACTION]" and "[mel] [ACTION
    # MODIFIER][REACTION]" alike, a vampire with both plays it as either)
    fits = [n for n in _lines_fitting(card, lines[number].level, m)[1] if lines[n].text == lines[number].text] \
        if number is not None else []
    marks = frozenset().union(*(lines[n].marks for n in fits or ([number] if number is not None else [])))
    if marks & {"REACTION", "ACTION MODIFIER"} == {"REACTION"}:
        return Reaction
    if marks & {"REACTION", "ACTION MODIFIER"} == {"ACTION MODIFIER"}:
        return Modifier
    a = d.action_()
    acting = a.player if a is not None else d.referendum.player if d.referendum is not None else None
    return Modifier if m.controller == acting else Reaction


def _who_and_when(d: Draft, e: PlayCard, m: Minion, kind: type, what: Modelled) -> None:
    """Whether `m` may play a card of this type now, before its requirements and cost are looked at."""
    if kind is Modifier:
        _modifier_who(d, e, m, what)
    elif kind is Reaction:
        target = e.cancelling
        reaction = Reaction(minion=m.name, card=e.card.name, wake=what.wake, locked_ok=what.locked_ok,
                            unlock_block=what.unlock_block)
        if d.action_() is None and target is not None and target.played_as in cancels.ACTION_CARDS:
            # an action card cancelled as it is played: its action is not under way yet, and the reaction is
            # another Methuselah's ready unlocked minion's, as during the action (of the card's player)
            _delegate(e, lambda d_, r, log_: _may_react(m, target.player, (), r), reaction, d, None,
                      R.CARD_REACTION_WHO)
            return
        if d.action_() is None:
            raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, a reaction: no action is in progress",
                          R.CARD_REACTION_WHO)
        _delegate(e, _reaction_check, reaction, d, None, R.CARD_REACTION_WHO)
    elif kind in (ActionCard, Political, Recruit, Equip, Employ):
        what_kind = {Political: "political", Recruit: "recruit", Equip: "equip", Employ: "employ"}.get(kind, "card")
        _delegate(e, lambda d_, e_, log_: check_actor(d_, m.name, what_kind),
                  e, d, None, R.CARD_POLITICAL_WHO if kind is Political else R.CARD_ACTION_WHO)


def _unmodelled_rest(e: PlayCard, what: Modelled, rules: list) -> None:
    """Stop when the card does what the engine does not model and the scenario does not say what happened."""
    if what.rest and e.effect is None and e.says is None:
        card = e.card
        raise NotModelled(f"{card.name}{_at(e)}: \"{' '.join(what.rest)}\" is not modelled; say what it does "
                          f"(effect: or says:, or 'plays {card.name}: Alexis burns 3 pool'). {rulings_text(card)}",
                          [*rules, R.GOLDEN_RULE])


def _at(e: PlayCard) -> str:
    return f" at {e.level}" if e.level else ""


def _delegate(e: PlayCard, handler, event: Event, d: Draft, log: Log, rule) -> None:
    """Play the card through the engine's own event; its refusal quotes the card and cites the card type's
    rule too."""
    try:
        handler(d, event, log)
    except Refusal as exc:
        if e.card.name in exc.message and '"' in exc.message:
            raise
        raise Refusal(f"{exc.message.rstrip('.')}. {e.card.quote()}", [*exc.rules, rule]) from None


def _cancelled(d: Draft, e: PlayCard, m: Optional[Minion], player: str, cost: Cost, log: Log, action: bool,
               rule, played_as: str) -> None:
    """The card is cancelled as it is played: it has no effect but is played; an action card does not lock its
    minion (nor is it paid), another card's cost is paid, unless the card cancelling it says otherwise (played
    first, `_canceller_plays`). `played_as`: the type it is played as (cancels.Played)."""
    said = _cancel_text(d, e.canceller) if e.canceller is not None else None
    if d.edition == OLDER and (action or said is None or said.cost_paid is None):
        raise NotModelled(f"{e.card.name} cancelled as it is played: the older book does not say what becomes of "
                          f"its cost", [R.CARD_CANCELLED, rule])
    how = _canceller_plays(d, e, m, player, played_as, log) if e.canceller is not None else None
    play_from_hand(d, player, log, e.card.name)
    if action:
        log.add(f"{e.card.name} is cancelled as it is played: it has no effect; {m.name} does not lock and pays "
                f"nothing, and may play it again.", R.CARD_CANCELLED, rule)
        return
    again = played_as == "combat" and _is_strike(e, m)  # the minion chooses a strike again
    if how is not None and how.cost_paid is False:
        log.add(f"{e.card.name} is cancelled as it is played: it has no effect, and its cost is not paid, as "
                f"{_canceller_name(e.canceller)} says (\"{how.sentence}\"), where the book would have it paid.",
                R.CARD_CANCELLED, R.GOLDEN_RULE, rule)
    else:
        _cancelled_paid(d, e, m, player, cost, log, rule)
    if again:
        log.add(f"{m.name}'s strike card is cancelled: {m.name} chooses a strike again.", R.STRIKE_CANCELLED)


def _cancelled_paid(d: Draft, e: PlayCard, m: Optional[Minion], player: str, cost: Cost, log: Log, rule) -> None:
    """A cancelled non-action card's cost, paid as normal (the book)."""
    paid = []
    if cost.blood and m is not None:
        blood(d, m.name, -cost.blood)
        paid.append(f"{m.name} pays {cost.blood} blood")
    if cost.pool:
        pool(d, player, -cost.pool)
        paid.append(f"{player} pays {cost.pool} pool")
    log.add(f"{e.card.name} is cancelled as it is played: it has no effect"
            + (f", but its cost is paid ({', '.join(paid)})" if paid else "") + ".", R.CARD_CANCELLED, rule)


def _continuation(d: Draft, e: PlayCard, m: Minion, what: Modelled, log: Log) -> None:
    """A strike card's "If this vampire was blocked while performing an action, the action continues as if
    unblocked.": kept on the combat when `m` is the blocked vampire of an action it allows (combat.end continues the
    action if the combat ends after this round); said to do nothing otherwise (the combat did not come from a block
    of `m`'s action, or the action is of a kind it excludes)."""
    c, sentence = d.combat, what.continues
    if not sentence or c is None:
        return
    a = c.action
    kind = a.kind if a is not None else ""
    if a is None or c.acting != m.name or a.actor != m.name:
        why = ("this combat did not come from a block of an action" if a is None else
               f"{m.name} is the blocking minion, not the blocked one" if c.acting != m.name else
               f"{m.name} took {a.actor}'s place in the combat: it was not blocked, and performed no action")
        log.add(f"{e.card.name}: \"{sentence}\" does nothing here: {why}.", R.GOLDEN_RULE, R.BLOCKED)
    elif kind in what.continues_not:
        log.add(f"{e.card.name}: \"{sentence}\" does nothing here: {a.summary} is a {kind} action.", R.GOLDEN_RULE)
    else:
        d.put_combat(continues=(e.card.name, sentence))
        log.add(f"If the combat ends after this round, {a.summary} continues as if unblocked, as {e.card.name} says "
                f"(\"{sentence}\").", R.GOLDEN_RULE, R.BLOCKED)


def _press_continues(c, m: Minion) -> bool:
    """A press a card allows either way: to end combat against the opponent's press to continue (the book: "to keep
    offsetting the effects of their opponent's last press"), else to continue."""
    return not (c is not None and c.press and c.press != m.name)


def _only_cancels(what: Modelled) -> bool:
    """The line played does nothing but cancel a card as it is played (its conditions and limits aside)."""
    return what.cancel is not None and not what.rest and not any(
        getattr(what, effect) for effect in _EFFECTS)


# What a line may do besides cancelling a card (`Modelled`): a card doing one of them is played for it when it
# cancels nothing ("Maneuver. Alternatively, burn 1 blood to cancel a grapple card ...").
_EFFECTS = ("stealth", "bleed", "intercept", "action_bleed", "wake", "lock_self", "unlock_self", "redirect", "strike",
            "bleed_reduced", "maneuver", "prevent", "strength", "aggravated_hands", "press", "extra_strikes", "votes",
            "unlock_block", "block_any", "gain_pool", "gain_blood", "unblockable", "ally", "location", "hunting_gain",
            "hunt", "sets_range", "new_round", "lock_failed", "granted_ability", "blood_per_vote", "after_end",
            "unlock_on_end", "next_round_range", "location_lock", "on_vampire", "gear")


def _cancels(d: Draft, e: PlayCard, m: Optional[Minion], player: str, what: Modelled, log: Log, rule) -> None:
    """`e` is played to cancel `e.cancelling` as it is played (its who and when, requirements and cost checked by
    then): refused when its line cancels no card, or not that one (cancels.why_not); the blood its sentence burns
    burned. The caller pays its cost and plays it from the hand."""
    card, target, c = e.card, e.cancelling, what.cancel
    who = m.name if m is not None else player
    if target is None:
        raise _refuse(card, f"{card.name}{_at(e)} is \"{c.sentence}\": it is played only as the card it cancels is "
                            f"played (name that card: 'Belinde plays Conditioning, cancelled by {who}'s {card.name}')",
                      R.CANCEL_AS_PLAYED)
    if c is None:
        # its line's words that may cancel (its own, or "the effect above"), not read: never refused on them
        unread = next((s for s in what.rest if re.search(r"\bcancel|\babove\b", s, re.I)), None)
        if unread is not None and re.search(r"\bcancel", card.text, re.I):
            raise NotModelled(f"{card.name}{_at(e)}: \"{unread}\" (whether it cancels, what and how) is not read. "
                              f"{card.quote()}", [R.CANCEL_AS_PLAYED, R.GOLDEN_RULE])
        if any("REFLEX" in line.marks for line in card.discipline_lines()):
            raise NotModelled(f"{card.name}{_at(e)}: a reflex line cancels a card played against the minion, and "
                              f"reflexes are not modelled. {card.quote()}", [R.CANCEL_AS_PLAYED, R.GOLDEN_RULE])
        raise _refuse(card, f"{card.name}{_at(e)} cancels no card as it is played: it cannot cancel "
                            f"{target.card.name}", R.CANCEL_AS_PLAYED)
    reason = cancels.why_not(c, target, player, m, d)
    if reason:
        raise _refuse(card, f"{card.name}{_at(e)} is \"{c.sentence}\": {reason}", R.CANCEL_AS_PLAYED)
    _unmodelled_rest(e, what, [rule])
    if not c.sentence.startswith("Alternatively") and any(getattr(what, effect) for effect in _EFFECTS):
        raise NotModelled(f"{card.name}{_at(e)} cancels {target.card.name} and does more as it does: what else "
                          f"it does then is not applied. {card.quote()}", [R.CANCEL_AS_PLAYED, R.GOLDEN_RULE])
    burned = ""
    if c.burn:
        if m is None:
            raise NotModelled(f"{card.name}: \"{c.sentence}\" burns {c.burn} {c.burn_unit}, and a Methuselah plays "
                              f"it: whose is not read", [R.CANCEL_AS_PLAYED])
        if m.blood < c.burn or m.kind == ALLY and m.blood == c.burn:
            raise _refuse(card, f"{card.name}{_at(e)} is \"{c.sentence}\": {m.name} has {m.blood} "
                                f"{'life' if m.kind == ALLY else 'blood'}" + (
                                    ", and an ally burning its last life is burned" if m.kind == ALLY else ""),
                          R.CANCEL_AS_PLAYED)
        blood(d, m.name, -c.burn)
        burned = f"; {m.name} burns {c.burn} {'life' if m.kind == ALLY else 'blood'} to cancel it"
    log.add(f"{who} plays {card.name}{_at(e)}, cancelling {target.card.name} as it is played (\"{c.sentence}\")"
            f"{burned}.", R.CANCEL_AS_PLAYED, rule, R.CARD_CANCELLED)


def _played_with(d: Draft, e: PlayCard, m: Optional[Minion], c) -> frozenset:
    """The Disciplines (names, lower case) the card `e` is played with: those of its line played that `m` has ("When
    played, a multi-Disciplines card counts as requiring the Discipline(s) being used."). NotModelled when the line
    takes either of two Disciplines `m` both has, and the canceller `c` reaches one of them only."""
    if m is None:
        return frozenset()
    number = line_played(e.card, e.level, m)
    if number is None:
        return frozenset()
    line = e.card.discipline_lines()[number]
    names = {code.casefold(): name.casefold() for code, name, _ in e.card.disciplines}
    used = frozenset(names.get(code.casefold(), code.casefold()) for code in line.codes
                     if discipline_level(m, code, names.get(code.casefold(), code)) is not None)
    if line.any_of and len(used) > 1:
        cancel = _cancel_text(d, c)
        if cancel is not None and cancel.requiring and 0 < len(used & set(cancel.requiring)) < len(used):
            raise NotModelled(f"{m.name} may play {e.card.name} with {' or '.join(sorted(used))}: which one it is "
                              f"played with, which decides whether \"{cancel.sentence}\" reaches it, is not said",
                              [R.CANCEL_AS_PLAYED, R.CARD_REQUIREMENTS])
    return used


def _canceller_name(c) -> str:
    """The card cancelling another, as a step names it: the card, or the minion's own card."""
    return c.card.name if c.card is not None else f"{c.minion}'s card"


def _ability_cancels(d: Draft, target: cancels.Played, cm: Minion, log: Log) -> cancels.CancelText:
    """`cm`'s own card text cancels the card played ("During a combat, Asguresh can cancel a combat card played by the
    opposing minion as it is played, ..."): when the text says (in a combat it is in, an action it performs, a
    referendum it calls), once each combat, action or turn when it says so, burning the blood it says; refused out
    of its reach, as a card would be."""
    found = card_gives(cm, "cancel", "a way to cancel a card as it is played",
                       "describe the cancel without it ('..., cancelled as it is played')", (R.CRYPT_ABILITY,))
    ability = found[0]
    for a in found:  # (a card gives one; the first that reaches the card played, if two)
        if cancels.why_not(a.cancel, target, cm.controller, cm, d) is None:
            ability = a
            break
    c, sentence, card = ability.cancel, ability.sentence, target.card
    reason = cancels.why_not(c, target, cm.controller, cm, d)
    if reason is None and "combat" in (ability.during, ability.once) and (
            d.combat is None or d.combat.ended or cm.name not in (d.combat.acting, d.combat.opposing)):
        reason = f"{cm.name} is not in combat"
    a = d.action_()
    if reason is None and ability.during == "action" and (a is None or a.actor != cm.name):
        reason = f"{cm.name} is not performing an action"
    r = d.referendum
    if reason is None and ability.during == "referendum" and (r is None or r.caller != cm.name or r.kind == "blood hunt"):
        reason = f"no referendum {cm.name} called is in progress"
    if reason is None and (cm.contested or not cm.controlled):  # (in torpor it may: the card does not ask it to
        # be ready, as the ruling on Lucita's like text says: "The ability can be used when in torpor.")
        reason = f"{cm.name} is {'contested' if cm.contested else 'not in play'}"
    if reason:
        raise Refusal(f"{cm.name}'s card says \"{sentence}\": {reason}", [R.CRYPT_ABILITY, R.CANCEL_AS_PLAYED])
    if ability.once == "combat":
        if (cm.name, sentence) in d.combat.used_abilities:
            raise Refusal(f"{cm.name} used \"{sentence}\" this combat already", [R.CRYPT_ABILITY])
        d.put_combat(used_abilities=d.combat.used_abilities + ((cm.name, sentence),))
    elif ability.once == "action":
        if a is None:
            raise NotModelled(f"\"{sentence}\" outside an action: what \"once each action\" counts is not "
                              f"modelled", [R.CRYPT_ABILITY])
        if (cm.name, sentence) in a.abilities:
            raise Refusal(f"{cm.name} used \"{sentence}\" this action already", [R.CRYPT_ABILITY])
        d.put_action(abilities=a.abilities + ((cm.name, sentence),))
    elif ability.once == "turn":
        key = f"ability: {sentence}"
        if key in cm.once:
            raise Refusal(f"{cm.name} used \"{sentence}\" this turn already", [R.CRYPT_ABILITY])
        d.put_minion(cm.name, once=cm.once + (key,))
    burned = ""
    if c.burn:
        if minion(d, cm.name).blood < c.burn:
            raise Refusal(f"{cm.name}'s card says \"{sentence}\": {cm.name} has {minion(d, cm.name).blood} blood",
                          [R.CRYPT_ABILITY, R.CANCEL_AS_PLAYED])
        blood(d, cm.name, -c.burn)
        burned = f"; {cm.name} burns {c.burn} blood"
    log.add(f"{cm.name} cancels {card.name} as it is played, as {cm.name}'s card says (\"{sentence}\"){burned}.",
            R.CRYPT_ABILITY, R.CANCEL_AS_PLAYED, R.CARD_CANCELLED)
    return c


def _is_strike(e: PlayCard, m: Optional[Minion]) -> bool:
    """The line of the card played has a strike ("Strike: 2R damage."): a strike card, as played."""
    played = modelled(e.card, e.level, line_played(e.card, e.level, m) if m is not None else None)
    return played.strike is not None or re.search(r"\bStrike(?:, ranged)?:", played.line_text or "") is not None


def _canceller_plays(d: Draft, e: PlayCard, m: Optional[Minion], player: str, played_as: str,
                     log: Log) -> cancels.CancelText:
    """The card the scenario says cancels `e` (`e.canceller`), played as `e` is played, by its own rules; what its
    cancel sentence says (of the cancelled card's cost)."""
    c = e.canceller
    target = cancels.Played(card=e.card, played_as=played_as, strike=played_as == "combat" and _is_strike(e, m),
                            player=player, minion=m, disciplines=_played_with(d, e, m, c))
    if c.card is None:
        return _ability_cancels(d, target, minion(d, c.minion), log)
    play_card(d, PlayCard(card=c.card, minion=c.minion, player=c.player, level=c.level, cancelling=target,
                          line=e.line, text=e.text), log)
    return _cancel_text(d, c)


def _cancel_text(d: Draft, c) -> Optional[cancels.CancelText]:
    """What the canceller's line played (or its minion's card text) says of cancelling (None: nothing; its play then
    refuses it)."""
    by = minion(d, c.minion) if c.minion is not None and c.minion in d.minions else None
    if c.card is None:
        found = abilities_of(by, "cancel") if by is not None else []
        return found[0].cancel if len(found) == 1 else None
    return modelled(c.card, c.level, line_played(c.card, c.level, by) if by is not None else None).cancel


def _modifier_who(d: Draft, e: PlayCard, m: Minion, what: Modelled) -> None:
    """Who may play an action modifier: the acting minion; or, for a card "only usable by a ready vampire
    other than the acting minion", another ready vampire of the acting minion's Methuselah (the card over the
    rule: the acting Methuselah's, as the rulings on such cards say)."""
    a = d.action_()
    if a is None:
        raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, an action modifier: no action is in progress",
                      R.CARD_MODIFIER_WHO, R.MODIFIER_WHO)
    if not what.other_than_acting:
        if a.actor != m.name:
            raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, an action modifier: the acting minion is "
                                  f"{a.actor}", R.CARD_MODIFIER_WHO, R.MODIFIER_WHO)
        return
    if a.actor == m.name:
        raise _refuse(e.card, f"{m.name} is the acting minion: {e.card.name} is only usable by a ready vampire "
                              f"other than the acting minion", R.CARD_REQUIREMENTS)
    if m.controller != a.player or not m.ready or m.kind == ALLY:
        why = (f"{m.name} is {m.controller}'s, not the acting Methuselah's ({a.player})" if m.controller != a.player
               else f"{m.name} is not a ready vampire")
        raise _refuse(e.card, f"{why}: {e.card.name} is only usable by a ready vampire other than the acting "
                              f"minion, of the acting minion's Methuselah", R.CARD_REQUIREMENTS, R.MODIFIER_WHO)


def _modifier(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    # (who may play it: `_who_and_when`, before its requirements; its conditions: `play_card`)
    if e.cancelled:
        actions.played_once(d, m.name, e.card.name, "modifiers")
        _cancelled(d, e, m, m.controller, cost, log, False, R.CARD_MODIFIER_WHO, "modifier")
        return
    _unmodelled_rest(e, what, [R.CARD_MODIFIER_WHO])
    if not (what.stealth or what.bleed or what.hunt or e.effect or what.unblockable or what.fails_attempt
            or what.lock_failed or what.blocker_intercept or what.grant or what.ends_action or what.cannot_block or what.chosen_cannot_block or what.intercept_mod
            or what.block_cost) and e.says is not None:  # described only
        actions.played_once(d, m.name, e.card.name, "modifiers")
        _pay(d, m, cost)
        play_from_hand(d, m.controller, log, e.card.name, replaced=not what.not_replaced)
        if d.action_().announce_over is None and not _as_announced(what):
            d.put_action(announce_over=e.card.name)
        log.add(f"{m.name} plays {e.card.name}{_at(e)}.", R.CARD_MODIFIER_WHO, R.MODIFIERS_ANY_TIME)
        _says(e, log)
        return
    bleed = what.bleed
    if what.bleed_if is not None:
        more, clan, sentence = what.bleed_if
        if m.clan is None:
            raise NotModelled(f"{e.card.name} says \"{sentence}\", and the table does not say {m.name}'s clan (give "
                              f"its clan:)", [R.CARD_MODIFIER_WHO, R.GOLDEN_RULE])
        if same_clan(m.clan, clan):
            bleed += more
            log.add(f"{m.name} is {clan}: {e.card.name} gives +{more} bleed more (\"{sentence}\").", R.GOLDEN_RULE)
    cost = _with_paid_blood(cost, what)
    _check_fails(d, e, what)
    if what.acting_must_be is not None:
        sentence, named = what.acting_must_be
        a = d.action_()
        actor = d.minions.get(a.actor) if a is not None else None
        if actor is None:
            raise _refuse(e.card, f"{m.name} cannot play {e.card.name}: no action is in progress", R.CARD_MODIFIER_WHO)
        why = named.misfit(d, actor, m, f"{e.card.name} says \"{sentence}\"")
        if why is not None:
            raise _refuse(e.card, f"{e.card.name} is for an acting {named.words}: {why} (\"{sentence}\")",
                          R.GOLDEN_RULE)
        if what.grant_to_actor and _begins_combat(a):
            raise NotModelled(f"{e.card.name}: \"{sentence}\" in the combat the action itself begins is not modelled",
                              [R.GOLDEN_RULE])
    a = d.action_()
    if what.grant is not None and what.grant.kind.startswith("range ") and a is not None and _begins_combat(a):
        # "This action, while this vampire is in combat, each round is at ... range": read for the combat its block
        # begins; the combat the action's own success begins is not
        raise NotModelled(f"{e.card.name}: \"{what.grant.sentence}\" in the combat {a.summary} itself begins is not "
                          f"modelled (the combat its block begins is)", [R.GOLDEN_RULE])
    blockers = _on_blockers(e, m, what)
    if what.chosen_cannot_block:
        blockers["cannot_block"] += ((e.card.name, what.chosen_cannot_block, _chosen_vampire(d, e, m, what), m.name),)
    event = Modifier(minion=m.name, card=e.card.name, stealth=what.stealth, bleed=bleed, hunt=what.hunt,
                     limited=what.limited,
                     cost=cost, effect=e.effect, by_other=what.other_than_acting, unblockable=what.unblockable,
                     fails_attempt=what.fails_attempt, bars=what.bars, blocker_intercept=what.blocker_intercept,
                     grant=what.grant, combat_type=COMBAT in e.card.types, ends_action=what.ends_action,
                     end_how=what.end_how,
                     end_locks=what.end_locks, replaced=not what.not_replaced, **blockers,
                     any_stealth=what.any_stealth, lock_failed=what.lock_failed,
                     grant_to_actor=what.grant_to_actor,
                     as_announced=_as_announced(what),
                     line=e.line, text=e.text)
    _delegate(e, actions.modifier, event, d, log, R.CARD_MODIFIER_WHO)
    _says(e, log)


def _reaction(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    a = d.action_()
    if a is None:
        raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, a reaction: no action is in progress",
                      R.CARD_REACTION_WHO)
    if e.cancelled:
        _delegate(e, _reaction_check, Reaction(minion=m.name, card=e.card.name, intercept=0, wake=what.wake,
                                               locked_ok=what.locked_ok, unlock_block=what.unlock_block), d, log,
                  R.CARD_REACTION_WHO)
        actions.played_once(d, m.name, e.card.name, "reactions")
        _cancelled(d, e, m, m.controller, cost, log, False, R.CARD_REACTION_WHO, "reaction")
        return
    _unmodelled_rest(e, what, [R.CARD_REACTION_WHO])
    effect, redirect = e.effect, None
    if what.redirect:  # the card's redirect, to the Methuselah the scenario names
        redirect = effect.redirect if effect is not None else None
        if redirect is None:
            raise NotModelled(f"{e.card.name} changes the target of the bleed: say to whom ('{m.name} plays "
                              f"{e.card.name}: the bleed is redirected to Bob'). {e.card.quote()}",
                              [R.REDIRECT_REOPENS, R.GOLDEN_RULE])
        effect = dataclasses.replace(effect, redirect=None)
    if what.lock_self and (effect is None or m.name not in effect.lock):
        effect = dataclasses.replace(effect or CardEffect(), lock=(*(effect.lock if effect else ()), m.name))
    if what.unlock_self and (effect is None or m.name not in effect.unlock):
        effect = dataclasses.replace(effect or CardEffect(), unlock=(*(effect.unlock if effect else ()), m.name))
    if effect == CardEffect():
        effect = None
    cost = _with_paid_blood(cost, what)
    _check_fails(d, e, what)
    if what.bleed_reduced and (a.kind != "bleed" or m.controller not in a.targets):
        raise _refuse(e.card, f"{e.card.name} reduces a bleed against its player: {a.summary} is not a bleed of "
                              f"{m.controller}", R.CARD_REQUIREMENTS, R.BLEED_AMOUNT)
    intercept = what.intercept
    if what.intercept_if is not None:
        more, whose, sentence = what.intercept_if
        titled = d.minions.get(a.actor) if whose == "acting" else m
        if titled is not None and titled.titled:
            intercept += more
            log.add(f"{titled.name} is titled: {e.card.name} gives +{more} intercept more (\"{sentence}\").",
                    R.GOLDEN_RULE)
    event = Reaction(minion=m.name, card=e.card.name, intercept=intercept, cost=cost, effect=effect,
                     wake=what.wake, redirect=redirect, bleed=-what.bleed_reduced, replaced=not what.not_replaced,
                     locked_ok=what.locked_ok, locked_by=what.locked_by, unlock_block=what.unlock_block,
                     block_any=what.block_any, granted_ability=what.granted_ability,
                     after_action=what.after_action, grant=what.grant, combat_type=COMBAT in e.card.types,
                     ends_action=what.ends_action, end_locks=what.end_locks, end_how=what.end_how,
                     unless_blocks=what.unless_blocks, line=e.line, text=e.text)
    if not (what.intercept or effect or what.wake or redirect or what.bleed_reduced or what.unlock_block or
            what.block_any or what.granted_ability or what.grant or what.ends_action or what.unless_blocks) and e.says is not None:
        _delegate(e, _reaction_check, event, d, log, R.CARD_REACTION_WHO)
        actions.played_once(d, m.name, e.card.name, "reactions")
        play_from_hand(d, m.controller, log, e.card.name, replaced=not what.not_replaced,
                       after_action=what.after_action)
        _pay(d, m, cost)
        text, rules = actions.reaction_played(m.name, f"{e.card.name}{_at(e)}",
                                              m.locked and what.locked_ok and m.name not in a.woken, what.locked_by)
        if d.action_() is not None and d.action_().announce_over is None:
            d.put_action(announce_over=e.card.name)
        log.add(f"{text}.", R.REACTION_WHO, *rules)
        _says(e, log)
        return
    _delegate(e, actions.reaction, event, d, log, R.CARD_REACTION_WHO)
    _says(e, log)


def _begins_combat(a) -> bool:
    """Whether the action's own success begins a combat (an action to enter combat, a card's "(D) Enter combat ...")."""
    return a.kind in ("enter combat", "red list") or (
        a.kind == "card" and a.success is not None and any(x.verb == "enter combat" for x in a.success.effects))


def _on_blockers(e: PlayCard, m: Minion, what: Modelled) -> dict:
    """What the card does to the action's blockers, as the Modifier and ActionCard events carry it (state.Action's
    entries: the card, its sentence, the minions it names, the minion playing it): those barred ("Vampires cannot block
    this action."), those whose intercept it lowers, those it makes pay to attempt."""
    def entry(read):
        return ((e.card.name, *read, m.name),) if read else ()
    return {"cannot_block": entry(what.cannot_block), "intercept_mods": entry(what.intercept_mod),
            "block_costs": entry(what.block_cost)}


def _chosen_vampire(d: Draft, e: PlayCard, m: Minion, what: Modelled) -> str:
    """The minion a modifier's "Choose a younger vampire." chooses: the one named after " on " (`Belinde plays
    Seduction on Carna`), refused, quoting the card, when it is not one the card allows."""
    sentence, named = what.choose
    if e.on is None:
        raise NotModelled(f"{e.card.name} says \"{sentence}\": say which ('{m.name} plays {e.card.name} on ...')",
                          [R.GOLDEN_RULE])
    t = minion(d, e.on)
    if not t.controlled or t.contested or t.region not in (READY, "torpor"):  # (Targeting of Cards)
        raise _refuse(e.card, f"{m.name} cannot choose {t.name} for {e.card.name}: {t.name} is not in play (it is "
                              f"{'contested' if t.contested else 'in the ' + t.region + ' region'})",
                      R.UNCONTROLLED_TARGETS)
    why = named.misfit(d, t, m, f"{e.card.name} says \"{sentence}\"")
    if why is not None:
        raise _refuse(e.card, f"{m.name} cannot choose {t.name} for {e.card.name}: {why} (\"{sentence}\")",
                      R.GOLDEN_RULE)
    return t.name


def _check_fails(d: Draft, e: PlayCard, what: Modelled) -> None:
    """A card making the action fail ("The action fails.", "Lock this vampire to cause the action to fail.") is refused
    while a block is being attempted (the group ruling on such cards: "Cannot be used while a block is being
    attempted, or has already been successful."; a successful block has begun its combat, where no reaction is
    played)."""
    a = d.action_()
    if what.end_how == "fails" and a is not None and a.attempt is not None:
        said = ruling_quote(e.card.rulings, "block is being attempted")
        raise _refuse(e.card, f"{e.card.name} makes the action fail (\"{what.ends_action}\"), and {a.attempt.blocker} "
                              f"is attempting to block{said}", R.GOLDEN_RULE)


def _as_announced(what: Modelled) -> bool:
    """The card is "Only usable as the action is announced" (or as an action of some kind is): one of its conditions,
    not negated, holds such a clause."""
    return any(not c.negated and any(re.match(r"(?:as|when) (?:the|an?) .*announced$", clause, re.I)
                                     for clause, _ in c.clauses) for _, c in what.conditions)


def _with_paid_blood(cost: Cost, what: Modelled) -> Cost:
    """The cost, with the blood "Burn 1 blood to have the action fail." asks: paid as the card is played."""
    return dataclasses.replace(cost, blood=cost.blood + what.paid_blood) if what.paid_blood else cost


def _referendum_who(d: Draft, e: PlayCard, m: Minion, kind: type, what: Modelled) -> None:
    """Who may play a card granting votes in a referendum, which is part of the political action's resolution: an
    action modifier by the acting vampire (the one that called it), a reaction by another Methuselah's ready
    unlocked minion (or locked, when the card says it is usable by one); none in a blood hunt."""
    r = d.referendum
    if r.kind == "blood hunt":
        raise _refuse(e.card, f"{e.card.name} cannot be played in a blood hunt referendum", R.BLOOD_HUNT_NO_CARDS)
    if kind is Modifier and what.other_than_acting and m.controller != r.player:  # (its own clause: not the caller)
        raise _refuse(e.card, f"{m.name} is {m.controller}'s, not the acting Methuselah's ({r.player}): "
                              f"{e.card.name} is played by another vampire of the acting Methuselah",
                      R.CARD_REQUIREMENTS, R.MODIFIER_WHO, R.REFERENDUM)
    if kind is Modifier and m.name != r.caller and not what.other_than_acting:
        raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, an action modifier: the referendum is part of "
                              f"{r.caller}'s action, and only the acting minion plays action modifiers",
                      R.CARD_MODIFIER_WHO, R.MODIFIER_WHO, R.REFERENDUM)
    if kind is Reaction:
        if m.controller == r.player:
            raise _refuse(e.card, f"{m.name} is {r.player}'s minion: only other Methuselahs' minions play reactions "
                                  f"to {r.player}'s action, whose referendum this is", R.REACTION_WHO, R.REFERENDUM)
        if not m.ready or (m.locked and not what.locked_ok):
            raise _refuse(e.card, f"{m.name} is not ready and unlocked: only ready unlocked minions play reactions",
                          R.REACTION_WHO)


def _votes_card(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log, rule) -> None:
    """A card's "This vampire gets +N votes.": votes of the vampire in the referendum being polled, cast with its
    other votes (politics.card_votes); the card played and paid for once the referendum takes them."""
    if what.stealth or what.bleed or what.intercept or what.wake or what.redirect or what.bleed_reduced or \
            e.effect is not None:
        raise NotModelled(f"{e.card.name}{_at(e)} grants votes and does more: describe the votes as votes from a card "
                          f"('Sarah casts {what.votes} votes for from {e.card.name}') and the rest with says:. "
                          f"{e.card.quote()}", [rule, R.CARD_VOTES, R.GOLDEN_RULE])

    def played() -> None:
        _pay(d, m, cost)
        play_from_hand(d, m.controller, log, e.card.name, replaced=not what.not_replaced)
    who = (rule, R.REFERENDUM) if d.referendum is not None and d.action_() is None else (rule,)
    _delegate(e, lambda d_, e_, log_: politics.card_votes(d_, m.name, e.card.name, _at(e), what.votes, played,
                                                          log_, who), e, d, log, rule)
    _says(e, log)


def _reaction_check(d: Draft, e: Reaction, log: Log) -> None:
    """Who may play a reaction now, without playing it (actions.reaction's checks)."""
    a = d.action_()
    _may_react(minion(d, e.minion), a.player, a.woken, e)


def _may_react(m: Minion, acting: str, woken: tuple[str, ...], e: Reaction) -> None:
    """Refused unless `m` may play the reaction `e` to an action of `acting`'s: another Methuselah's ready minion,
    unlocked unless it woke (`woken`) or the card allows a locked one."""
    if m.controller == acting:
        raise Refusal(f"{m.name} is {acting}'s minion: only other Methuselahs' minions play reactions to "
                      f"{acting}'s actions", [R.REACTION_WHO])
    if not m.ready or (m.locked and not (e.wake or m.name in woken or e.locked_ok or e.unlock_block)):
        raise Refusal(f"{m.name} is not ready and unlocked: only ready unlocked minions play reactions",
                      [R.REACTION_WHO])


def _pay(d: Draft, m: Minion, cost: Cost) -> None:
    if cost.blood:
        blood(d, m.name, -cost.blood)
    if cost.pool:
        pool(d, m.controller, -cost.pool)


def _action(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    if e.cancelled:
        check_actor(d, m.name, "card")
        _cancelled(d, e, m, m.controller, cost, log, True, R.CARD_ACTION_WHO, "action")
        return
    _unmodelled_rest(e, what, [R.CARD_ACTION_WHO])
    if what.on_vampire is not None and what.on_vampire.one and any(x.name == e.card.name for x in m.attached):
        raise _refuse(e.card, f"{m.name} has {e.card.name} on it already: \"{what.on_vampire.one}\"",
                      R.GOLDEN_RULE)
    targets = tuple(t for t in (e.target,) if t)
    success = what.action_text if e.effect is None and e.says is None else None
    chosen = None
    if success is not None:  # (the card's effects as printed; a scenario describing them is taken instead)
        chosen = action_effects.chosen_for(d, success, m, e.on, e.card.quote())
        aimed = action_effects.directed_at(d, chosen, m)
        if targets and chosen and success.aiming is not None and targets != aimed:
            at = f"directed at {aimed[0]}" if aimed else f"directed at nobody ({chosen} is {m.controller}'s own)"
            raise _refuse(e.card, f"{e.card.name} played on {chosen} is {at}, not at {targets[0]}",
                          R.DIRECTED_TARGETS)
        targets = targets or aimed
    elif e.on is not None:
        other = next((lvl for lvl in LEVELS if lvl != (e.level or "inferior") and _aims_at(e.card, lvl)), None)
        why = "its effect is described, and the description names the minions" if what.action_text else \
            f"its text at {e.level or 'inferior'} aims at no minion" + (f"; at {other} it does: say 'at {other}'"
                                                                          if other else "")
        raise _refuse(e.card, f"{e.card.name} is not played on a minion ({why}): leave out 'on {e.on}'",
                      R.CARD_ACTION_WHO)
    directed = True if "(D)" in (what.line_text or e.card.text) else None
    if success is not None and success.aiming is not None and not what.action_bleed:
        directed = bool(targets)  # (the glossary: directed when it targets another Methuselah's minion, (D) or not)
    event = ActionCard(actor=m.name, card=e.card.name, as_="bleed" if what.action_bleed else None, targets=targets,
                       directed=directed, stealth=what.stealth, bleed=what.bleed, any_target=what.any_target,
                       cost=cost, effect=_with_gains(e, what, m.controller, m), says=e.says, success=success,
                       chosen=chosen, unreplaced=what.after_action,
                       **_on_blockers(e, m, what), line=e.line, text=e.text)
    if event.directed and not targets and not what.action_bleed:
        raise _refuse(e.card, f"{e.card.name} is a directed action (D): say whom it is directed at "
                              f"('directed at Alexis', or target:)", R.BLOCK_DIRECTED)
    _delegate(e, actions.action_card, event, d, log, R.CARD_ACTION_WHO)


def _aims_at(card: CardFacts, level: str) -> bool:
    """Whether the action card's line at `level` aims its effect at a minion (action_effects)."""
    text = modelled(card, level).action_text
    return text is not None and text.aiming is not None


def _political(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    if m.kind == ALLY:
        raise _refuse(e.card, f"{m.name} is an ally: only vampires play political action cards",
                      R.CARD_POLITICAL_WHO)
    tc = what.title if e.effect is None and e.says is None else None
    rt = what.referendum if e.effect is None and e.says is None else None
    try:  # (cancelled or not: a card that cannot be played is not played, the rulings)
        if tc is not None:
            titles.check_playable(d, tc, m)
        if rt is not None:
            referendum_effects.check_playable(d, rt, m.controller, e.card.rulings)
    except Refusal as exc:
        raise Refusal(f"{exc.message} {e.card.quote()}", [*exc.rules, R.CARD_POLITICAL_WHO]) from None
    if e.cancelled:
        check_actor(d, m.name, "political")
        _cancelled(d, e, m, m.controller, cost, log, True, R.CARD_POLITICAL_WHO, "political")
        return
    if (tc or rt) is not None and what.rest:
        raise NotModelled(f"{e.card.name}: \"{' '.join(what.rest)}\" is not modelled (its "
                          f"{'title' if tc else 'referendum'} is read); say what passing it does (effect: or says:). "
                          f"{rulings_text(e.card)}", [R.CARD_POLITICAL_WHO, R.GOLDEN_RULE])
    if tc is None and rt is None and e.effect is None and e.says is None:
        raise NotModelled(f"{e.card.name}'s referendum: say what passing it does (effect: or says:). "
                          f"{rulings_text(e.card)}", [R.CARD_POLITICAL_WHO, R.GOLDEN_RULE])
    event = Political(actor=m.name, card=e.card.name, cost=cost, effect=e.effect, says=e.says, title_card=tc,
                      referendum_text=rt, line=e.line, text=e.text)
    _delegate(e, actions.political_action, event, d, log, R.CARD_POLITICAL_WHO)


def _recruit(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    """An ally card played as its recruit action: the ally comes into play, if the action succeeds, with the life,
    strength and bleed its card prints; the card's other sentences (its abilities) go with it as text the engine does
    not read, which stops the replay where it could matter (helpers.text_unread), never a silent default."""
    if what.ally is None:
        raise NotModelled(f"{e.card.name}: its life, strength and bleed are not read; recruit it as described "
                          f"('{m.name} recruits {e.card.name}, 3 life'). {e.card.quote()}", [R.RECRUIT, R.GOLDEN_RULE])
    if e.cancelled:  # (who may recruit: `_who_and_when`)
        _cancelled(d, e, m, m.controller, cost, log, True, R.CARD_ACTION_WHO, "recruit")
        return
    if e.effect is not None:
        raise NotModelled(f"an effect given with the ally card {e.card.name} is not read; describe it as its own "
                          f"event once the ally is in play", [R.RECRUIT, R.GOLDEN_RULE])
    if e.card.unique and any(x.card == e.card.name and x.controller == m.controller for x in d.minions.values()):
        raise _refuse(e.card, f"{e.card.name} is unique and {m.controller} controls it already: a Methuselah cannot "
                              f"contest a card with themself", R.CONTEST_SELF, R.UNIQUE_CARD)
    if any(x.card == e.card.name for x in d.minions.values()):
        raise NotModelled(f"{e.card.name} is already in play: " + (
            "the contest a second copy starts" if e.card.unique else "a second copy of it is not modelled (the engine "
            "names an ally after its card)") + f". {e.card.quote()}", [R.UNIQUE_CARD, R.CONTEST_CARD])
    now = [s for s in what.rest if _AS_RECRUITED.search(s)]
    if now:  # what happens as it is recruited or comes into play, or changes its figures: not read, so not ignored
        raise NotModelled(f"{e.card.name}{_at(e)}: \"{' '.join(now)}\" is not read (as the ally is recruited or comes "
                          f"into play, or its figures). Recruit it as described ('{m.name} recruits {e.card.name}, "
                          f"3 life') with what it does. {e.card.quote()}", [R.RECRUIT, R.GOLDEN_RULE])
    life, strength, bleed = what.ally
    a = what.ally_text
    event = Recruit(actor=m.name, ally=e.card.name, life=life, strength=strength, bleed=bleed, cost=cost,
                    unread=tuple(what.rest), own_stealth=a.stealth, own_intercept=a.intercept, bonuses=a.bonuses,
                    abilities=a.abilities, disciplines=a.disciplines, as_vampire=a.capacity,
                    acts_at_once=bool(a.acts_at_once), text_read=True, line=e.line, text=e.text)
    _delegate(e, actions.recruit_action, event, d, log, R.CARD_ACTION_WHO)
    _says(e, log)


def _employ(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    """A retainer card played as its employ action: on success the retainer goes on `m` with the life its card
    prints, and what it gives its employer holds while it is there (retainers.py). A sentence not read stops it."""
    rt = what.retainer
    if e.cancelled:  # (who may employ: `_who_and_when`)
        _cancelled(d, e, m, m.controller, cost, log, True, R.CARD_ACTION_WHO, "employ")
        return
    if rt is None or rt.life is None or what.rest or e.effect is not None or e.says is not None:
        said = f"\"{' '.join(what.rest)}\" is not read" if what.rest else "what it does is described" \
            if e.effect is not None or e.says is not None else "its life is not read"
        raise NotModelled(f"{e.card.name}{_at(e)}: {said}; employ it as described ('{m.name} employs "
                          f"{e.card.name}, 1 life') with what it does. {rulings_text(e.card)}",
                          [R.EMPLOY, R.GOLDEN_RULE])
    if e.card.unique:
        held = [(x.name, x.controller) for x in d.minions.values() for r in x.retainers if r.name == e.card.name]
        mine = [who for who, player in held if player == m.controller]
        if mine:
            raise _refuse(e.card, f"{e.card.name} is unique and {m.controller} controls it already (on {mine[0]}): "
                                  f"a Methuselah cannot contest a card with themself", R.CONTEST_SELF, R.UNIQUE_CARD)
        if held:
            raise NotModelled(f"{e.card.name} is unique and already in play on {held[0][0]}: the contest a second copy "
                              f"starts. {e.card.quote()}", [R.UNIQUE_CARD, R.UNIQUE_IN_PLAY])
    event = Employ(actor=m.name, retainer=e.card.name, life=rt.life, cost=cost, bonuses=rt.bonuses,
                   abilities=rt.abilities, line=e.line, text=e.text)
    _delegate(e, actions.employ_action, event, d, log, R.CARD_ACTION_WHO)


def _equip(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    if e.cancelled:  # (who may equip: `_who_and_when`)
        _cancelled(d, e, m, m.controller, cost, log, True, R.CARD_ACTION_WHO, "equip")
        return
    if e.card.unique:
        held = [x.name for x in d.minions.values() if e.card.name in x.equipment]
        if held:
            raise NotModelled(f"{e.card.name} is unique and already in play on {held[0]}: the contest a second "
                              f"copy starts. {e.card.quote()}", [R.UNIQUE_CARD, R.CONTEST_CARD])
    event = Equip(actor=m.name, item=e.card.name, cost=cost, line=e.line, text=e.text)
    _delegate(e, actions.equip_action, event, d, log, R.CARD_ACTION_WHO)


def _combat_card(d: Draft, e: PlayCard, m: Minion, what: Modelled, log: Log) -> None:
    c = d.combat
    if c is not None and c.ended and m.name in (c.acting, c.opposing) and what.conditions and not what.new_round:
        # (the combat ended prematurely; its round's end remains, where a card whose condition now holds may be
        # played: "Only usable if this vampire is ready and the opposing minion is not." That step is not modelled)
        raise NotModelled(f"{e.card.name}{_at(e)} after the combat ended prematurely (\"{what.conditions[0][0]}\"): "
                          f"cards played at the end of that round are not modelled. {e.card.quote()}",
                          [R.END_OF_ROUND, R.GOLDEN_RULE])
    ending = c is not None and c.ended and bool(what.new_round)  # (its condition held after a premature end)
    if c is None or (c.ended and not ending) or m.name not in (c.acting, c.opposing):
        where = "no combat is in progress" if c is None or c.ended else f"{m.name} is not in the combat"
        raise _refuse(e.card, f"{m.name} cannot play {e.card.name}, a combat card: {where}", R.CARD_COMBAT_WHO)
    check_requirements(d, e.card, m, e.level, log)
    cost = e.cost or card_cost(e.card, m, log, "Combat")
    check_cost(d, e.card, m, m.controller, cost)
    if e.cancelling is not None or _only_cancels(what):
        _cancels(d, e, m, m.controller, what, log, R.CARD_COMBAT_WHO)
        _pay(d, m, cost)
        play_from_hand(d, m.controller, log, e.card.name, replaced=not what.not_replaced,
                       after_combat=what.after_combat)
        return
    if e.cancelled:
        _cancelled(d, e, m, m.controller, cost, log, False, R.CARD_COMBAT_WHO, "combat")
        return
    if e.effect is None and e.says is None and what.strike is not None and not what.rest:
        # A strike card whose text the engine reads whole: played as its strike, as printed.
        if what.hand_or_melee and m.equipment:
            raise NotModelled(f"{e.card.name}{_at(e)} is \"{what.hand_or_melee}\", and {m.name} bears "
                              f"{', '.join(m.equipment)}: whether it strikes with its hands or a melee weapon, and that "
                              f"weapon's strike at +{what.strike.amount} damage, is not read. {e.card.quote()}",
                              [R.CARD_COMBAT_WHO, R.GOLDEN_RULE])
        s = what.strike
        spec = (StrikeSpec(kind="hand", bonus=s.amount, aggravated=s.aggravated, first=s.first) if s.kind == "hand" else
                StrikeSpec(kind=s.kind, amount=s.amount, ranged=s.ranged, aggravated=s.aggravated, first=s.first,
                           unpreventable=s.unpreventable))
        c = d.combat
        if what.strike_maneuver and c is not None and c.step in ("before range", "range"):
            # "Strike: ..., with an optional maneuver." played to determine the range: its maneuver, which chooses
            # its strike for the round (the book: the strike card is played during this step instead)
            event = Maneuver(minion=m.name, source=e.card.name, via="strike card", strike=spec, cost=cost,
                             unreplaced=what.after_combat, line=e.line, text=e.text)
            _delegate(e, combat.maneuver, event, d, log, R.CARD_COMBAT_WHO)
            _grant_press(d, e, m, what, log)
            return
        event = ChooseStrike(minion=m.name, spec=spec, source=e.card.name, via="card", cost=cost,
                             unreplaced=what.after_combat, line=e.line, text=e.text)
        if what.unlock_on_end and c is not None:  # (before the strike is chosen: the pair may resolve at once)
            c = d.put_combat(unlock_on_end=c.unlock_on_end + ((m.name, e.card.name, what.unlock_on_end),))
        if what.after_end is not None and c is not None:
            kind, n, sentence, close_only = what.after_end
            if close_only and (c.range or "close") != "close":
                log.add(f"{e.card.name}: \"{sentence}\": the range is {c.range}, so nothing after combat.",
                        R.GOLDEN_RULE)
            else:
                d.put_combat(after_end=c.after_end + ((m.name, e.card.name, sentence, kind, n),))
        _delegate(e, combat.choose_strike, event, d, log, R.CARD_COMBAT_WHO)
        _continuation(d, e, m, what, log)
        _grant_press(d, e, m, what, log)
        c = d.combat
        if what.next_round_range and c is not None and not c.ended:
            rng, sentence = what.next_round_range
            d.put_combat(set_range=c.set_range + ((c.round + 1, rng, f"{e.card.name} (\"{sentence}\")"),))
            log.add(f"{e.card.name}: \"{sentence}\"", R.GOLDEN_RULE)
        if what.extra_strikes and d.combat is not None and not d.combat.ended:
            # "Strike: dodge, with an additional strike (limited).": given with the strike (and lost with the combat,
            # should its pair of strikes end it)
            combat.add_strikes(d, log, m.name, what.extra_strikes, e.card.name, "")
        return
    if e.effect is None and e.says is None and not what.rest and what.extra_strikes and what.strike is None and \
            not (what.press or what.maneuver or what.prevent):
        # An additional strike card read whole (Blur): the engine's own additional strikes, its cost paid.
        event = GainStrikes(minion=m.name, count=what.extra_strikes, source=e.card.name, cost=cost,
                            unreplaced=what.after_combat, line=e.line,
                            text=e.text)
        _delegate(e, combat.gain_strikes, event, d, log, R.CARD_COMBAT_WHO)
        return
    if e.effect is None and e.says is None and not what.rest and what.maneuver_or_press and what.strike is None \
            and not (what.prevent or what.extra_strikes):
        # "Maneuver or press.": a maneuver in the range step (before range too), else a press (the press step's own
        # checks refuse it elsewhere)
        c = d.combat
        if c.step in ("before range", "range"):
            event = Maneuver(minion=m.name, source=e.card.name, via="card", cost=cost, unreplaced=what.after_combat,
                             line=e.line, text=e.text)
            _delegate(e, combat.maneuver, event, d, log, R.CARD_COMBAT_WHO)
            _grant_press(d, e, m, what, log)
            return
        if c.step in ("before strikes", "strike"):  # (in the damage step the strikes are made: the press is next)
            raise _refuse(e.card, f"{e.card.name}{_at(e)} is \"{what.maneuver_or_press}\": the range step is over for "
                                  f"a maneuver, and the press step has not come (the strikes first)",
                          R.MANEUVER, R.PRESS)
        event = Press(minion=m.name, to_continue=_press_continues(c, m), source=e.card.name, cost=cost,
                      unreplaced=what.after_combat, line=e.line, text=e.text)
        _delegate(e, combat.press, event, d, log, R.CARD_COMBAT_WHO)
        return
    if e.effect is None and e.says is None and not what.rest and what.press and what.strike is None and \
            not (what.maneuver or what.prevent):
        # A press card read whole ("Press.", "Press, only usable to end combat."): the engine's own press.
        event = Press(minion=m.name, to_continue=what.press == "continue" or what.press == "any" and
                      _press_continues(d.combat, m), source=e.card.name, cost=cost,
                      unreplaced=what.after_combat,
                      line=e.line, text=e.text)
        _delegate(e, combat.press, event, d, log, R.CARD_COMBAT_WHO)
        return
    if e.effect is None and e.says is None and not what.rest and (what.maneuver or what.prevent) and \
            not (what.maneuver and what.prevent) and what.strike is None:
        # A maneuver card or a prevention card read whole: the engine's own maneuver or prevention, as printed.
        c = d.combat
        here = (c.range or "close") if c is not None else None
        if what.maneuver_to and here == what.maneuver_to and c.step in ("before range", "range"):
            # a maneuver moves to the other range (after the range step, the maneuver's own check says it is late)
            raise _refuse(e.card, f"{e.card.name}{_at(e)} is \"{what.printed_line}\": the range is {here} already, and "
                                  f"a maneuver would move it to {'close' if here == 'long' else 'long'}",
                          R.MANEUVER, R.GOLDEN_RULE)
        event = (Maneuver(minion=m.name, to=what.maneuver_to, source=e.card.name, via="card", cost=cost,
                          unreplaced=what.after_combat, line=e.line, text=e.text)
                 if what.maneuver else
                 Prevent(minion=m.name, amount=what.prevent, aggravated=False if what.prevent_normal else None,
                         source=e.card.name, cost=cost, unreplaced=what.after_combat, line=e.line, text=e.text))
        _delegate(e, combat.maneuver if what.maneuver else combat.prevent, event, d, log, R.CARD_COMBAT_WHO)
        if what.maneuver:
            _grant_press(d, e, m, what, log)
        return
    if e.effect is None and e.says is None and not what.rest and (what.strength or what.aggravated_hands) and \
            what.strike is None and not (what.press or what.maneuver or what.prevent or what.extra_strikes or
                                         what.ends_combat):
        _combat_effects(d, e, m, cost, what, log)
        return
    if e.effect is None and e.says is None and not what.rest and what.sets_range and what.strike is None and \
            not (what.press or what.maneuver or what.prevent or what.extra_strikes or what.strength or what.ends_combat):
        c = d.combat
        if c is not None and c.fixed_range() is not None:  # (a ruling: once set, no other effect resets it)
            raise _refuse(e.card, f"round {c.round}'s range is set already, by {c.fixed_range()[2]}: once the "
                                  f"range is set, no other effect can reset it that round", R.GOLDEN_RULE, R.RANGE_SET)
        _played_in_combat(d, e, m, _with_paid_blood(cost, what), what, log)
        combat.set_ranges(d, ((d.combat.round, CHOSEN_RANGE, f"{e.card.name} (\"{what.sets_range}\")"),))
        log.add(f"{m.name} plays {e.card.name}{_at(e)} (\"{what.sets_range}\"): {m.controller} sets the range of round "
                f"{d.combat.round}, said next ('range is long'); no maneuver changes it.", R.GOLDEN_RULE, R.RANGE_SET)
        return
    if e.effect is None and e.says is None and not what.rest and what.new_round and what.strike is None and \
            not (what.press or what.maneuver or what.prevent or what.extra_strikes or what.strength or what.ends_combat):
        # "Instead, burn 1 blood to start a new round." (its condition: the combat would end): the round ends with a
        # new one to follow, as after a press to continue
        c = d.combat
        if c is not None and c.ended:  # (after a premature end: the combat goes on all the same, its card says)
            d.put_combat(ended=False)
        _played_in_combat(d, e, m, _with_paid_blood(cost, what), what, log)
        d.put_combat(press=m.name)
        log.add(f"{m.name} plays {e.card.name}{_at(e)} as the combat would end (\"{what.new_round}\"): a new round "
                f"starts.", R.GOLDEN_RULE, R.END_OF_ROUND)
        combat.finish_step(d, log)
        return
    if e.effect is None and e.says is None and not what.rest and what.ends_combat and what.strike is None and \
            not (what.press or what.maneuver or what.prevent or what.extra_strikes or what.strength or
                 what.aggravated_hands):
        _played_in_combat(d, e, m, cost, what, log)
        paid = f", paying {_cost_text(cost)}" if cost != Cost() else ""
        combat.end_prematurely(d, log, f"{m.name} plays {e.card.name}{_at(e)}{paid} (\"{what.ends_combat}\")",
                               R.CARD_COMBAT_WHO, R.GOLDEN_RULE)
        return
    if e.effect is None and e.says is None:
        text = what.printed_line or e.card.text
        raise NotModelled(f"{e.card.name}{_at(e)}: \"{text}\" is not modelled as a named card; describe it with "
                          f"the combat forms ('{m.name} plays {e.card.name}, a strike card: 2 damage') or say what "
                          f"it does (effect: or says:). {rulings_text(e.card)}", [R.CARD_COMBAT_WHO, R.GOLDEN_RULE])
    _pay(d, m, cost)
    play_from_hand(d, m.controller, log, e.card.name, after_combat=what.after_combat)
    log.add(f"{m.name} plays {e.card.name}{_at(e)} in combat" + (f", paying {_cost_text(cost)}" if cost != Cost()
                                                                  else "") + ".", R.CARD_COMBAT_WHO,
            R.CARD_REQUIREMENTS)
    if e.effect is not None:
        apply_card_effect(d, log, e.effect, e.card.name)
    _says(e, log)
    combat_check = getattr(combat, "end_prematurely", None)
    c = d.combat
    if combat_check and c is not None and not c.ended and (c.acting not in d.minions or c.opposing not in d.minions):
        gone = [n for n in (c.acting, c.opposing) if n not in d.minions]
        combat.end_prematurely(d, log, f"{', '.join(gone)} left play", R.WOUNDED_ENDS_COMBAT)


def _grant_press(d: Draft, e: PlayCard, m: Minion, what: Modelled, log: Log) -> None:
    """The optional press a combat card played gives this round ("..., with an optional press", "Maneuver with 1
    optional press."): used by naming the card again, which is not played again for it."""
    c = d.combat
    if not what.granted_press or c is None or c.ended:
        return
    grant = GrantedPress(m.name, e.card.name, what.granted_press, what.granted_by)
    d.put_combat(granted=c.granted + (grant,))
    only = "" if what.granted_press == "any" else f", only usable to {what.granted_press} combat"
    to = "end combat" if what.granted_press == "end" else "continue"
    log.add(f"{e.card.name} also gives {m.name} an optional press this round{only} (\"{m.name} presses to "
            f"{to} with {e.card.name}\"): the card is not played again for it.", R.PRESS, R.GOLDEN_RULE)


def _played_in_combat(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> Combat:
    """A combat card read whole, played for an effect of its own (not a strike, maneuver or press: the engine's
    events for those pay and play the card): refused outside a combat in progress, else paid and played from the
    hand. The combat."""
    c = d.combat
    if c is None or c.ended:
        raise _refuse(e.card, f"{m.name} cannot play {e.card.name} now: "
                              f"{'the combat has ended' if c else 'no combat is in progress'}", R.CARD_COMBAT_WHO)
    _pay(d, m, cost)
    play_from_hand(d, m.controller, log, e.card.name, after_combat=what.after_combat)
    return c


def _combat_effects(d: Draft, e: PlayCard, m: Minion, cost: Cost, what: Modelled, log: Log) -> None:
    """A combat card read whole whose effect lasts the round or the combat: strength for this vampire or the opposing
    minion (counted in its hand strikes: combat.strength_in_combat), its hand strikes aggravated this round."""
    c = _played_in_combat(d, e, m, cost, what, log)
    said = []
    mods = c.strength_mods
    for whose, n, span in what.strength:
        who = m.name if whose == "self" else c.other(m.name)
        mods += ((who, n, e.card.name, span),)
        said.append(f"{who} gets {n:+d} strength this {span}")
    hands = c.aggravated_hands + (((m.name, e.card.name),) if what.aggravated_hands else ())
    if what.aggravated_hands:
        said.append(f"the damage of {m.name}'s hand strikes is aggravated this round")
    d.put_combat(strength_mods=mods, aggravated_hands=hands)
    combat.refresh_hand_strikes(d, tuple({who for who, *_ in mods} | ({m.name} if what.aggravated_hands else set())))
    paid = f", paying {_cost_text(cost)}" if cost != Cost() else ""
    log.add(f"{m.name} plays {e.card.name}{_at(e)}{paid}: {'; '.join(said)}. {e.card.name}: "
            f"\"{what.printed_line or e.card.text}\"", R.CARD_COMBAT_WHO, R.GOLDEN_RULE)


def _cost_text(cost: Cost) -> str:
    return " and ".join(p for p in (f"{cost.blood} blood" if cost.blood else "", f"{cost.pool} pool" if cost.pool
                                    else "") if p)


def _says(e: PlayCard, log: Log) -> None:
    if e.says:
        log.add(f"{e.card.name} says: \"{e.says}\" (described, not applied to the state).", R.GOLDEN_RULE)


def _master(d: Draft, e: PlayCard, log: Log) -> None:
    card = e.card
    if e.minion is not None:
        raise _refuse(card, f"{card.name} is a master card: Methuselahs play master cards, not minions "
                            f"({e.minion})", R.CARD_MASTER_WHO)
    player = e.player
    require_seated(d, player)
    if card.clans or card.disciplines or card.requirements:
        ready = [m for m in d.minions.values() if m.controller == player and m.ready]
        meeting = [m for m in ready if _meets(d, card, m, e.level, for_master=True)]
        if not meeting:
            raise _refuse(card, f"{player} controls no ready minion meeting {card.name}'s requirements",
                          R.CARD_REQUIREMENTS)
        if card.clans and not any(any(same_clan(m.clan or "", c) for c in card.clans + card.former_clans)
                                  for m in meeting):  # met only as a card allows ("as if he were a Tremere")
            check_requirements(d, card, meeting[0], e.level, log, for_master=True)
    cost = e.cost or card.costs()
    if cost.blood:
        raise NotModelled(f"{card.name}'s blood cost (a master card): say which vampire pays it with an effect",
                          [R.COST_REQUIRED])
    check_cost(d, card, None, player, cost)
    what = modelled(card, e.level)
    if card.out_of_turn and player == d.turn and not what.own_turn:
        raise _refuse(card, f"{player} cannot play {card.name}, an out-of-turn master card, on {player}'s own turn",
                      R.OUT_OF_TURN)
    own_turn = card.out_of_turn and player == d.turn  # (as its card allows: "You may play this card during your turn.")
    if not card.out_of_turn and (player != d.turn or d.phase != "master"):
        raise _refuse(card, f"{player} cannot play {card.name} in {d.turn}'s {d.phase} phase: regular master cards "
                            f"are played in one's own master phase (out-of-turn ones say so)", R.MASTER_IN_PHASE)
    for sentence, condition in what.conditions:  # of the Methuselah ("you") or of the moment: a master card's
        if condition.minion:
            raise NotModelled(f"{card.name}: \"{sentence}\" speaks of a minion, and a Methuselah plays a master card: "
                              f"which minion it means is not read. {card.quote()}", [R.CARD_MASTER_WHO, R.GOLDEN_RULE])
        reason = condition.reason(d, Methuselah(player))
        if reason:
            raise _refuse(card, f"{card.name} is \"{sentence}\": {reason}", R.CARD_REQUIREMENTS)
    cancelling = e.cancelling is not None or _only_cancels(what)  # played to cancel a card: no other effect
    if e.on is not None and what.discipline_card is None and (what.master_text is None or cancelling):
        raise NotModelled(f"{card.name} put on {e.on}: the engine reads no card put on a minion but a master "
                          f"Discipline card. {card.quote()}", [R.CARD_MASTER_WHO, R.GOLDEN_RULE])
    target = _discipline_target(d, e, what) if what.discipline_card is not None and not cancelling else None
    if not (cancelling or e.cancelled):
        _unmodelled_rest(e, what, [R.CARD_MASTER_WHO])
    if own_turn:
        raise NotModelled(f"{card.name} played on {player}'s own turn, as its card allows (\"{what.own_turn}\"): which "
                          f"master phase action it uses (out-of-turn cards use one of the next master phase) is not "
                          f"read. {card.quote()}", [R.OUT_OF_TURN, R.GOLDEN_RULE])
    how = _cancel_text(d, e.canceller) if e.cancelled and e.canceller is not None else None
    unpaid = how is not None and how.cost_paid is False  # the card over the book: its cost is not paid
    trifle = card.trifle and not e.cancelled
    event = MasterCard(player=player, card=card.name, trifle=trifle, out_of_turn=card.out_of_turn,
                       cost_pool=0 if unpaid else cost.pool, location=what.location and not (e.cancelled or cancelling),
                       unique=what.unique_location, hand_size=what.location_hand,
                       transfers=what.location_transfers, replaced=not what.not_replaced,
                       line=e.line, text=e.text)
    _delegate(e, phases.master_card, event, d, log, R.MASTER_IN_PHASE)
    if cancelling:
        _cancels(d, e, None, player, what, log, R.CARD_MASTER_WHO)
        return
    if e.cancelled:
        if e.canceller is not None:
            _canceller_plays(d, e, None, player, "master", log)
        if d.edition == OLDER and (how is None or how.cost_paid is None):
            raise NotModelled(f"{card.name} cancelled as it is played: the older book does not say what becomes of "
                              f"its cost", [R.CARD_CANCELLED, R.CARD_MASTER_WHO])
        paid = (f"its cost not paid, as {_canceller_name(e.canceller)} says (\"{how.sentence}\"), where the book would have "
                f"it paid" if unpaid else "its cost paid")
        log.add(f"{card.name} is cancelled as it is played: it has no effect, but it is played ({paid}, the master "
                f"phase action used" + (", and no action gained from the trifle" if card.trifle else "") + ").",
                R.CARD_CANCELLED, *([R.GOLDEN_RULE] if unpaid else []), *([R.TRIFLE] if card.trifle else []))
        gives = (modelled(e.canceller.card, e.canceller.level).gives_back
                 if e.canceller is not None and e.canceller.card is not None else "")
        if gives:
            _give_back(d, log, player, card, e.canceller.card.name, gives)
        return
    if target is not None:
        _discipline_given(d, e, what, d.minions[target.name], log)
    if what.master_text is not None:
        # the minion its effect aims at ("Lock a minion.": `Sarah plays Misdirection on Carna`), chosen as it is played
        # (once the master phase action and the cost are found: a refusal for those comes first)
        aimed = action_effects.chosen_for(d, what.master_text, Methuselah(player), e.on, card.quote())
        action_effects.take_effect(d, log, what.master_text, Methuselah(player), player, player, aimed, card.name)
    if what.blood_to_pool:
        _check_blood_to_pool(d, e, what, player)
    effect = _with_gains(e, what, player)
    if effect is not None:
        apply_card_effect(d, log, effect, card.name)
    _says(e, log)


def _give_back(d: Draft, log: Log, player: str, card: CardFacts, canceller: str, sentence: str) -> None:
    """A cancel's "That Methuselah gets +1 master phase action immediately, or at the start of their next master phase
    if the canceled card is an out-of-turn master." (Wash): now, in `player`'s master phase, or at the next one."""
    if card.out_of_turn:
        p = d.players[player]
        d.put_player(player, given_actions=p.given_actions + 1)
        when = f"at the start of {player}'s next master phase ({card.name} is an out-of-turn master card)"
    else:
        d.put_phase(master_actions=d.phase_state().master_actions + 1)
        when = f"now ({d.phase_state().master_actions} left)"
    log.add(f"{canceller}: \"{sentence}\": {player} gets +1 master phase action {when}.", R.GOLDEN_RULE,
            R.MASTER_ACTIONS)


def _check_blood_to_pool(d: Draft, e: PlayCard, what: Modelled, player: str) -> None:
    """"Move any amount of blood from a vampire you control to your pool." (Minion Tap): the scenario says how much
    and from whom (`Sarah plays Minion Tap: Belinde burns 3 blood; Sarah gains 3 pool`), checked against the card: one
    vampire of its player's, the pool it gains the blood it burns; refused otherwise, quoting the card."""
    said = f"\"{what.blood_to_pool}\""
    eff = e.effect
    if eff is None:
        raise NotModelled(f"{e.card.name} says {said}: say how much and from whom ('{player} plays {e.card.name}: "
                          f"Belinde burns 3 blood; {player} gains 3 pool')", [R.CARD_MASTER_WHO, R.GOLDEN_RULE])
    burned = [(name, n) for name, n in eff.blood]
    gained = [(p, n) for p, n in eff.pool]
    if len(burned) != 1 or len(gained) != 1 or gained[0][0] != player or eff.lock or eff.unlock or eff.hand_size:
        raise _refuse(e.card, f"{e.card.name} moves blood from one vampire to its player's pool ({said}): the effect "
                              f"said is not that", R.GOLDEN_RULE)
    (name, n), (_, gain) = burned[0], gained[0]
    t = minion(d, name)
    if t.kind != VAMPIRE or t.controller != player or not t.controlled or t.contested:
        raise _refuse(e.card, f"{name} is not a vampire {player} controls ({said})", R.GOLDEN_RULE)
    if n is None or n >= 0 or gain != -n:
        raise _refuse(e.card, f"the pool {player} gains is the blood {name} burns ({said})", R.GOLDEN_RULE)
    if -n > t.blood:  # (its ruling: "If the target has less blood at resolution than the amount announced, you take
        # what you can")
        raise NotModelled(f"{name} has {t.blood} blood, less than the {-n} said: {e.card.name}'s ruling takes what it "
                          f"can; say {t.blood}", [R.GOLDEN_RULE])


def _discipline_target(d: Draft, e: PlayCard, what: Modelled) -> Minion:
    """The vampire a master Discipline card is put on, checked before the card is played: a controlled vampire
    (any Methuselah's: the older book says so, the current one says "a controlled vampire"), in play and not contested,
    without the superior level the card cannot be put on."""
    code, name, _, _ = what.discipline_card
    if e.on is None:
        raise _refuse(e.card, f"{e.card.name} is put on a vampire: say which ('{e.player} plays {e.card.name} on "
                              f"Lucinde')", R.MASTER_DISCIPLINE)
    m = minion(d, e.on)
    if m.kind != VAMPIRE or not m.controlled or m.contested or m.region not in ("ready", "torpor"):
        raise _refuse(e.card, f"{m.name} is not a controlled vampire in play", R.MASTER_DISCIPLINE)
    if discipline_level(m, code, name) == "superior":
        cannot = next(s for s in what.discipline_card.read if s.startswith("Cannot"))
        raise _refuse(e.card, f"{m.name} has superior {name}: \"{cannot.strip()}\"", R.MASTER_DISCIPLINE,
                      R.GOLDEN_RULE)
    return m


def _discipline_given(d: Draft, e: PlayCard, what: Modelled, m: Minion, log: Log) -> None:
    """The master Discipline card put on `m`: the basic level, or basic to superior; its capacity, no blood."""
    code, name, capacity, sentences = what.discipline_card
    level = discipline_level(m, code, name)
    kept = tuple(x for x in m.disciplines if level_of(str(x))[1] not in (code, name.casefold()))
    d.put_minion(m.name, disciplines=kept + ((code.upper(),) if level else (code,)),
                 capacity=m.capacity + capacity)
    gives = " ".join(s.strip() for s in sentences if s.startswith(("This vampire", "Capacity increases")))
    now = f"superior {name} [{code.upper()}]" if level else f"basic {name} [{code}]"
    grown = f", and its capacity increases by {capacity}, to {m.capacity + capacity}, with no blood to fill it" \
        if capacity else ""
    log.add(f"{e.card.name} is put on {m.name} (\"{gives}\"): {m.name} now has {now}{grown}.",
            R.MASTER_DISCIPLINE, R.GOLDEN_RULE)


def _with_gains(e: PlayCard, what: Modelled, player: str, m: Optional[Minion] = None) -> Optional[CardEffect]:
    """The card's effect: the scenario's (`effect:`), with the pool the card's "Gain N pool." gives its player and
    the blood its "This vampire gains N blood." gives the acting vampire `m`. A scenario describing that pool or
    blood too is refused: it would be gained twice."""
    gain_blood = what.gain_blood if m is not None else 0
    if not (what.gain_pool or gain_blood):
        return e.effect
    for gained, given, whose, unit in ((what.gain_pool, e.effect and e.effect.pool, player, "pool"),
                                        (gain_blood, e.effect and e.effect.blood, m and m.name, "blood")):
        if gained and given and any(who == whose for who, _ in given):
            raise _refuse(e.card, f"{e.card.name} gains {whose} {gained} {unit} itself: the scenario's effect gives "
                                  f"{whose} {unit} too; describe only what else happens", R.GOLDEN_RULE)
    effect = e.effect or CardEffect()
    if what.gain_pool:
        effect = dataclasses.replace(effect, pool=(*effect.pool, (player, what.gain_pool)))
    if gain_blood:
        effect = dataclasses.replace(effect, blood=(*effect.blood, (m.name, gain_blood)))
    return effect


def hunting_ground(d: Draft, e: HuntingGround, log: Log) -> None:
    """A ready vampire gains blood from a hunting ground its Methuselah controls (a location in play, not contested),
    in their unlock phase, as the card says: once each unlock phase for the card, and, when the card says so, from
    one hunting ground only each turn for the vampire."""
    card, m = e.card, minion(d, e.minion)
    what = modelled(card, None)
    if what.rest or (not what.hunting_gain and "hunting ground" in card.text.casefold()):
        raise NotModelled(f"{card.name}: \"{' '.join(what.rest) or card.text}\" is not read; say what it does with "
                          f"the described forms ('Belinde gains 1 blood'). {card.quote()}", [R.GOLDEN_RULE])
    if not what.hunting_gain:
        raise _refuse(card, f"{card.name} is not a hunting ground giving a ready vampire blood in the unlock phase",
                      R.GOLDEN_RULE)
    player = m.controller
    if not any(c.kind == "location" and c.controller == player and not c.contested and c.name == card.name
               for c in d.cards):
        raise _refuse(card, f"{player} controls no {card.name} in play (a contested one gives nothing)", R.GOLDEN_RULE)
    if d.phase != "unlock" or d.turn != player:
        raise _refuse(card, f"{card.name} gives blood during {player}'s unlock phase; it is {d.turn}'s {d.phase} "
                            f"phase", R.GOLDEN_RULE)
    if m.kind != VAMPIRE or not m.ready:
        raise _refuse(card, f"{m.name} is not a ready vampire", R.GOLDEN_RULE)
    if e.amount is not None and e.amount != what.hunting_gain:
        raise _refuse(card, f"{card.name} gives {what.hunting_gain} blood, not {e.amount}", R.GOLDEN_RULE)
    ps = d.phase_state()
    if any(ground == card.name for ground, _ in ps.hunting):
        raise _refuse(card, f"{card.name} gave its blood this unlock phase already", R.GOLDEN_RULE)
    if what.one_hunting_ground and any(who == m.name for _, who in ps.hunting):
        raise _refuse(card, f"{m.name} gained blood from a hunting ground this turn already: a vampire can gain "
                            f"blood from only one hunting ground each turn", R.GOLDEN_RULE)
    gained = blood(d, m.name, what.hunting_gain, log)
    d.put_phase(hunting=ps.hunting + ((card.name, m.name),))
    log.add(f"{m.name} gains {what.hunting_gain} blood from {card.name}, a hunting ground {player} controls"
            + ("" if gained == what.hunting_gain else " (the excess over its capacity drains)") + ".", R.GOLDEN_RULE)


def lock_location(d: Draft, e: LockLocation, log: Log) -> None:
    """A Methuselah locks a location they control for what its card gives (`Modelled.location_lock`): +stealth to the
    acting minion when stealth is needed, +intercept to the blocking minion when intercept is needed, blood to a
    vampire in their uncontrolled region during their influence phase; the minion one the card names (their own when
    it says "you control"). An unlocked location, once each unlock (its controller's unlock phase unlocks it)."""
    card, m = e.card, minion(d, e.minion)
    what = modelled(card, None)
    if what.location_lock is None or what.rest:
        unread = f": \"{' '.join(what.rest)}\" is not read" if what.rest else ""
        raise (NotModelled if what.rest else Refusal)(
            f"{card.name} gives nothing the engine reads for locking it{unread}. {card.quote()}", [R.GOLDEN_RULE])
    kind, n, groups, mine, sentence = what.location_lock
    place = next((c for c in d.cards if c.kind == "location" and c.controller == e.player
                  and c.name.casefold() == card.name.casefold() and not c.contested), None)
    if place is None:
        raise _refuse(card, f"{e.player} controls no {card.name} in play", R.GOLDEN_RULE)
    if place.locked:
        raise _refuse(card, f"{card.name} is locked: it unlocks in {e.player}'s unlock phase", R.GOLDEN_RULE)
    said = f"{card.name}: \"{sentence}\""
    if mine and m.controller != e.player:
        raise _refuse(card, f"{m.name} is {m.controller}'s, not {e.player}'s", R.GOLDEN_RULE)
    fits = Group.any_fits(groups, m, None)
    if fits is None:
        raise NotModelled(f"{said}, and the table does not say whether {m.name} is one of them (give its clan and "
                          f"sect)", [R.GOLDEN_RULE])
    if not fits:
        raise _refuse(card, f"{m.name} is not {' or '.join(g.words() for g in groups)}", R.GOLDEN_RULE)
    a = d.action_()
    if kind == "blood":
        if d.phase != "influence" or d.turn != e.player:
            raise _refuse(card, f"{card.name} adds blood during {e.player}'s influence phase; it is {d.turn}'s "
                                f"{d.phase} phase", R.GOLDEN_RULE)
        if m.region != UNCONTROLLED or m.controller != e.player or m.kind != VAMPIRE:
            raise _refuse(card, f"{m.name} is not a vampire in {e.player}'s uncontrolled region", R.GOLDEN_RULE)
        blood(d, m.name, n, drain=False)
        now = f"{m.name} gets {n} blood from the blood bank ({d.minions[m.name].blood})"
        rules = [R.GOLDEN_RULE, R.BLOOD_BANK]
    elif kind == "stealth":
        if a is None or a.actor != m.name:
            raise _refuse(card, f"{m.name} is not the acting minion of an action in progress", R.GOLDEN_RULE)
        check_stealth_needed(a)
        a = d.put_action(stealth=a.stealth + n)
        now, rules = f"{m.name}'s action is at {a.stealth} stealth", [R.GOLDEN_RULE, R.STEALTH_WHEN_NEEDED]
    else:
        if a is None:
            raise Refusal("intercept can be added only to the blocking minion when needed; no action is in progress",
                          [R.INTERCEPT_WHEN_NEEDED])
        check_intercept_needed(a, m.name)
        att = a.attempt
        a = d.put_action(attempt=BlockAttempt(att.blocker, att.player, att.intercept + n))
        now = f"{m.name} has {a.attempt.intercept} intercept against {a.stealth} stealth"
        rules = [R.GOLDEN_RULE, R.INTERCEPT_WHEN_NEEDED]
    d.set(cards=tuple(dataclasses.replace(c, locked=True) if c is place else c for c in d.cards))
    log.add(f"{e.player} locks {card.name} ({said}): {now}.", *rules)


def burn_option(d: Draft, e: BurnOption, log: Log) -> None:
    """A card with the burn option discarded (and replaced) in an unlock phase by a Methuselah controlling no
    minion that meets its requirements; once per Methuselah each unlock phase."""
    card = e.card
    require_seated(d, e.player)
    if not card.burn_option:
        raise _refuse(card, f"{card.name} has no burn option: it cannot be discarded that way", R.BURN_OPTION)
    if d.phase != "unlock":
        raise _refuse(card, f"the burn option is used in an unlock phase; it is {d.turn}'s {d.phase} phase",
                      R.BURN_OPTION)
    ps = d.phase_state()
    if e.player in ps.burn_options:
        raise _refuse(card, f"{e.player} already discarded a card for its burn option this unlock phase: only one "
                            f"such discard each unlock phase", R.BURN_OPTION)
    for m in d.minions.values():
        if m.controller != e.player or not m.controlled:
            continue
        try:
            check_requirements(d, card, m, None)
        except (Refusal, NotModelled):
            continue
        raise _refuse(card, f"{e.player} controls {m.name}, who meets {card.name}'s requirements: the burn option "
                            f"is for a Methuselah who controls no such minion", R.BURN_OPTION)
    play_from_hand(d, e.player, log, card.name)
    d.put_phase(burn_options=ps.burn_options + (e.player,))
    log.add(f"{e.player} discards {card.name} for its burn option and draws to replace it (one such discard this "
            f"unlock phase).", R.BURN_OPTION, R.DRAW_REPLACE)


