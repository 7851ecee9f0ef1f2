"""The forms of events naming a real card (docs/scenarios.md, "Real cards"): playing a card the card base
knows, and discarding one for its burn option. The reader resolves the card here, once, through the catalog
the front end gave (`Names.cards`): an unknown card is refused at its line with the closest names."""
from __future__ import annotations

import re
from typing import Optional

from judge.engine.vtes.cards import ALLY_CARD
from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import BurnOption, Canceller, CardEffect, HuntingGround, LockLocation, PlayCard
from judge.engine.vtes.forms import NUM, FormTable, Names, cost_of, effect_of, number, player_of, minion_of

FORMS = FormTable()
LEVEL_WORDS = {"inferior": "inferior", "basic": "inferior", "superior": "superior"}
_TAIL = (r"(?: at (?P<lvl>inferior|superior|basic)(?: level)?)?(?:,? directed at {P2})?"
         r"(?P<cx>,? (?:but )?(?:it is |and is )?cancell?ed(?: as it is played)?(?: by (?P<cby>.+?))?)?"
         r"(?:: (?P<fx>.+))?")


def card_of(names: Names, name: str, line: int):
    """The card named, from the catalog; ScenarioError when no card base was given or the name is unknown."""
    if names.cards is None:
        raise ScenarioError(f"the card {name!r} is named, but no card base was given to read it (judge check "
                            f"loads it; describe the card instead: 'plays {name}, an action modifier: +1 bleed')",
                            line)
    return names.cards.card(name, line)


def _card_and_effect(m, names: Names, line: int, name: Optional[str] = None):
    """The card of a sentence and the effect after its colon; a card name holding ': ' ("Second Tradition:
    Domain") is read whole when the part before it names no card. `name`: the card's words, when not all of "x"."""
    name, fx = (name or m.group("x")).strip(), m.group("fx")
    if fx and names.cards is not None and names.cards.lookup(name) is None \
            and names.cards.lookup(f"{name}: {fx}") is not None:
        return card_of(names, f"{name}: {fx}", line), None
    return card_of(names, name, line), (effects(fx, names, line) if fx else None)


_CLAUSES = (
    (re.compile(rf"(?P<who>.+?) (?P<verb>burns|loses|pays|spends|gains|gets) (?P<n>{NUM}) pool", re.I), "pool"),
    (re.compile(rf"(?P<who>.+?) (?P<verb>burns|loses|pays|gains|gets) (?P<n>{NUM}) (?:blood|life)", re.I), "blood"),
    (re.compile(r"(?:an effect |it )?(?P<verb>locks|unlocks) (?P<who>.+)", re.I), "lock"),
    (re.compile(r"(?P<who>.+?) is (?P<verb>locked|unlocked)", re.I), "lock"),
    (re.compile(r"(?:the )?(?:bleed|action) is (?P<verb>redirected) to (?P<who>.+)|(?P<verb2>redirects?|changes) "
                r"(?:the (?:bleed|target)|it) to (?P<who2>.+)", re.I), "redirect"),
)


def effects(text: str, names: Names, line: int) -> CardEffect:
    """What a card did, as a sentence's tail says it: clauses such as "Alexis burns 3 pool", "Belinde gains 1
    blood", "an effect unlocks Carna", separated by ";" or "and"."""
    pools, bloods, lock, unlock, redirect = [], [], [], [], None
    for clause in (c.strip() for c in re.split(r"\s*;\s*|\s+and\s+", text.strip().rstrip(".")) if c.strip()):
        for rx, kind in _CLAUSES:
            m = rx.fullmatch(clause)
            if not m:
                continue
            if kind == "redirect":
                redirect = names.canon_player(m.group("who") or m.group("who2"), line)
                break
            verb = m.group("verb").lower()
            if kind == "lock":
                (lock if verb.startswith("lock") else unlock).append(names.canon_minion(m.group("who"), line))
            else:
                sign = 1 if verb in ("gains", "gets") else -1
                if kind == "pool":
                    pools.append((names.canon_player(m.group("who"), line), sign * number(m.group("n"))))
                else:
                    bloods.append((names.canon_minion(m.group("who"), line), sign * number(m.group("n"))))
            break
        else:
            raise ScenarioError(f"cannot read the card's effect {clause!r}; expected clauses like 'Alexis burns 3 "
                                f"pool', 'Belinde gains 1 blood', 'an effect unlocks Carna', 'the bleed is "
                                f"redirected to Bob' (or use the structured form with effect:)", line)
    return CardEffect(pool=tuple(pools), blood=tuple(bloods), lock=tuple(lock), unlock=tuple(unlock), redirect=redirect)


def _ally_named(card, names: Names, line: int) -> None:
    """An ally card played (recruited) brings a minion of its name into play: later events and expectations name it."""
    if tuple(card.types) == (ALLY_CARD,) and card.name not in names.minions:
        names.add_minion(card.name, line)


def _level(value: Optional[str], line: int) -> Optional[str]:
    if value is None:
        return None
    level = LEVEL_WORDS.get(str(value).strip().lower())
    if level is None:
        raise ScenarioError(f"at: {value!r} is not a Discipline level; expected inferior (or basic) or superior", line)
    return level


@FORMS.wording(r"{M} plays (?P<x>.+?)" + _TAIL, "Belinde plays Govern the Unaligned at superior")
def _minion_plays(m, names, line, text):
    return _played(m, names, line, text, minion=minion_of(m, names, line))


@FORMS.wording(r"{P} plays (?P<x>.+?)" + _TAIL, "Sarah plays Villein: Belinde burns 2 blood; Sarah gains 2 pool")
def _player_plays(m, names, line, text):
    return _played(m, names, line, text, player=player_of(m, names, line))


def _played(m, names, line, text, **who) -> PlayCard:
    """The card a sentence names, played by `who` (a minion, or a Methuselah for a master card), and the minion it is
    put on ("Sarah plays Auspex on Lucinde": the words after " on " name a minion of the table, and those before a
    card)."""
    raw, on, level = m.group("x").strip(), None, m.group("lvl")
    split, whole = _played_on(raw, names), False
    if split is None and m.group("fx") and names.cards is not None and names.cards.lookup(raw) is None:
        split = _played_on(f"{raw}: {m.group('fx')}", names)  # "Fifth Tradition: Hospitality on Carna"
        whole = split is not None
    if split is not None:
        raw, on, level = split[0], split[1], level or split[2]
    card, fx = (card_of(names, raw, line), None) if whole else _card_and_effect(m, names, line, raw)
    _ally_named(card, names, line)
    target = player_of(m, names, line, "p2") if m.group("p2") else None
    canceller = _canceller(m.group("cby"), names, line) if m.group("cby") else None
    return PlayCard(card=card, level=_level(level, line), target=target, on=on, cancelled=bool(m.group("cx")),
                    canceller=canceller, effect=fx, line=line, text=text, **who)


def _played_on(raw: str, names: Names) -> Optional[tuple[str, str, Optional[str]]]:
    """(the card, the minion, the level) of "Auspex on Lucinde", "Govern the Unaligned at superior on Lucinde": the
    words after " on " name a minion of the table and those before a card; None when they do not."""
    if names.cards is None:
        return None
    for name in sorted(names.minions + [x for x in names.locations if x not in names.minions], key=len, reverse=True):
        tail = f" on {name}"
        if not raw.casefold().endswith(tail.casefold()):
            continue
        head, level = raw[:-len(tail)], None
        leveled = _CANCELLER_LEVEL.fullmatch(head)
        if names.cards.lookup(head) is None and leveled.group("lvl") and \
                names.cards.lookup(leveled.group("card")) is not None:
            head, level = leveled.group("card"), leveled.group("lvl")
        if names.cards.lookup(head) is not None:
            return head, name, level
    return None



_CANCELLER_LEVEL = re.compile(r"(?P<card>.+?)(?: at (?P<lvl>inferior|superior|basic)(?: level)?)?")


def _canceller(text: str, names: Names, line: int) -> Canceller:
    """The card cancelling another, as a sentence names it after "cancelled by": "Carna's Ophidian Gaze (at
    superior)", "Bob's Sudden Reversal", or "Ophidian Gaze (at superior) played by Carna"; or a minion by its own
    card text: "Asguresh" ("Asguresh's ability", "Asguresh's card text")."""
    text = text.strip()
    own = re.fullmatch(r"(?P<who>.+?)(?:(?:'s|’s) (?:special ability|ability|(?:own )?card(?: text)?))?", text)
    for name in names.minions:
        if own.group("who").casefold() == name.casefold():
            return Canceller(card=None, minion=name)
    who = card = None
    for name in sorted([*names.players, *names.minions], key=len, reverse=True):
        for mark in ("'s ", "' ", "’s "):
            if text.casefold().startswith(name.casefold() + mark):
                who, card = name, text[len(name) + len(mark):]
                break
        if who is not None:
            break
    if who is None:
        found = re.fullmatch(r"(?P<card>.+?) played by (?P<who>.+)", text)
        if found is None:
            raise ScenarioError(f"cannot read the card that cancels it, {text!r}: say whose card it is ('cancelled "
                                f"by Carna's Ophidian Gaze', 'cancelled by Sudden Reversal played by Bob'), or name "
                                f"the minion whose own card text cancels it ('cancelled by Asguresh')", line)
        who, card = found.group("who"), found.group("card")
    level = _CANCELLER_LEVEL.fullmatch(card.strip())
    return _canceller_of(who, level.group("card"), level.group("lvl"), names, line)


def _canceller_of(who: str, card_name: str, level: Optional[str], names: Names, line: int) -> Canceller:
    """The canceller's card and who plays it: a Methuselah (a master card) or a minion."""
    card = card_of(names, card_name.strip(), line)
    if who.strip().casefold() in (p.casefold() for p in names.players):
        return Canceller(card=card, player=names.canon_player(who, line), level=_level(level, line))
    return Canceller(card=card, minion=names.canon_minion(who, line), level=_level(level, line))


@FORMS.wording(r"{P} (?:discards|burns) (?P<x>.+?) (?:for|using|with) (?:its|the) burn option",
               "Sarah discards Blessings of the Loa for its burn option")
def _burn_option(m, names, line, text):
    return BurnOption(player=player_of(m, names, line), card=card_of(names, m.group("x").strip(), line), line=line,
                      text=text)


@FORMS.wording(rf"{{M}} (?:gains|gets) (?P<n>{NUM}) blood from (?P<x>.+)",
               "Belinde gains 1 blood from Academic Hunting Ground")
def _hunting_ground(m, names, line, text):
    return HuntingGround(minion=minion_of(m, names, line), card=card_of(names, m.group("x").strip(), line),
                         amount=number(m.group("n")), line=line, text=text)


@FORMS.wording(r"{P} locks (?P<x>.+?) for {M}", "Sarah locks Backways for Belinde")
def _lock_location(m, names, line, text):
    return LockLocation(player=player_of(m, names, line), card=card_of(names, m.group("x").strip(), line),
                        minion=minion_of(m, names, line), line=line, text=text)


@FORMS.structured("lock_location", ("by", "minion"), "{lock_location: Backways, by: Sarah, minion: Belinde}")
def _s_lock_location(d, names, line, text):
    return LockLocation(player=names.canon_player(str(d["by"]), line), minion=names.canon_minion(d["minion"], line),
                        card=card_of(names, str(d["lock_location"]), line), line=line, text=text)


@FORMS.structured("hunting_ground", ("minion",), "{hunting_ground: Academic Hunting Ground, minion: Belinde}")
def _s_hunting_ground(d, names, line, text):
    return HuntingGround(minion=names.canon_minion(d["minion"], line),
                         card=card_of(names, str(d["hunting_ground"]), line), line=line, text=text)


@FORMS.structured("play", ("by", "at", "target", "put_on", "chosen", "cancelled", "cost", "effect", "says"),
                  "{play: Govern the Unaligned, by: Belinde, at: superior}")
def _s_play(d, names, line, text):
    card = card_of(names, str(d["play"]), line)
    _ally_named(card, names, line)
    by = str(d["by"])
    player = minion = None
    if by.lower() in (p.lower() for p in names.players):
        player = names.canon_player(by, line)
    else:
        minion = names.canon_minion(by, line)
    target = names.canon_player(d["target"], line) if d.get("target") is not None else None
    effect = effect_of(d["effect"], names, line) if d.get("effect") is not None else None
    cancelled, canceller = d.get("cancelled"), None
    if isinstance(cancelled, dict):  # {cancelled: {card: Ophidian Gaze, by: Carna, at: superior}}
        unknown = sorted(set(cancelled) - {"card", "by", "at"})
        if unknown or "by" not in cancelled or "at" in cancelled and "card" not in cancelled:
            raise ScenarioError("cancelled: takes true, or the card that cancels it and who plays it ({card: "
                                "Ophidian Gaze, by: Carna, at: superior}), or the minion whose card text cancels it "
                                "({by: Asguresh})" + (f"; unknown key {unknown[0]!r}" if unknown else ""), line)
        if "card" in cancelled:
            canceller = _canceller_of(str(cancelled["by"]), str(cancelled["card"]), cancelled.get("at"), names, line)
        else:
            canceller = Canceller(card=None, minion=names.canon_minion(str(cancelled["by"]), line))
    # (put_on: YAML reads a bare key `on` as true; chosen: the minion an action card's effect aims at, said so)
    if d.get("put_on") is not None and d.get("chosen") is not None:
        raise ScenarioError("put_on: and chosen: both name the minion the card is played on; give one", line)
    said = d.get("put_on") if d.get("put_on") is not None else d.get("chosen")
    on = (next((x for x in names.locations if x.casefold() == str(said).casefold()), None) or
          names.canon_minion(said, line)) if said is not None else None
    return PlayCard(card=card, minion=minion, player=player, level=_level(d.get("at"), line), target=target, on=on,
                    cancelled=bool(cancelled), canceller=canceller, cost=cost_of(d) if "cost" in d else None,
                    effect=effect, says=str(d["says"]) if d.get("says") is not None else None, line=line, text=text)


@FORMS.structured("burn_option", ("player",), "{burn_option: Blessings of the Loa, player: Sarah}")
def _s_burn_option(d, names, line, text):
    return BurnOption(player=names.canon_player(d["player"], line), card=card_of(names, str(d["burn_option"]), line),
                      line=line, text=text)
