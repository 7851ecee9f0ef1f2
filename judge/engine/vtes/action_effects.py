"""What an action card does when its action succeeds, read as printed (issue 37): blood added to a vampire (in your
uncontrolled region or in play), a minion locked or unlocked, combat entered with a minion, and what a successful
bleed adds ("gain 1 pool if the bleed is successful (for 1 or more)").

"+1 stealth action. Add 3 blood to a younger vampire in your uncontrolled region." (Govern the Unaligned at superior),
"(D) Lock a ready minion." (Jar the Soul), "(D) Enter combat with a locked minion." (Ambush), "Unlock a younger
vampire you control." (Healing Touch). `action_text_of` reads such sentences into `Effect`s; the minion an effect
aims at is the one the scenario names ("Belinde plays Jar the Soul on Carna", `chosen:` in the structured form), or the
only one on the table the card allows. A card's other sentences stay its unread text: playing it stops naming them.

The book around them: the target must be in play and controlled ("Targeting of Cards": vampires in torpor are
eligible, those in the uncontrolled region are not, unless the card names that region, as these do); an action
targeting another Methuselah's minion is directed at that Methuselah, (D) or not (the glossary's Directed Action);
the effect takes place when the action succeeds, on the target if it is still eligible then.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, NamedTuple, Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import combat
from judge.engine.vtes import rules as R
from judge.engine.vtes.abilities import group_misfit
from judge.engine.vtes.card_text import Ability, Group, groups_of
from judge.engine.vtes.events import ChangeControl
from judge.engine.vtes.helpers import Log, action_over, blood, burn_dead_ally, drain_excess, pool, remove_minion
from judge.engine.vtes.situations import change_control
from judge.engine.vtes.state import READY, TORPOR, UNCONTROLLED, VAMPIRE, Action, Attached, Draft, Minion

# "a younger vampire in your uncontrolled region", "a ready minion controlled by your prey", "another ready Laibon",
# "a vampire you control", "an unlocked Sabbat vampire with capacity above 4"
_CAPACITY = r"(?: with capacity (?:(?P<above>above) (?P<n1>\d+)|(?P<n2>\d+) or (?P<moreless>more|less)))?"
_TARGET = (r"(?P<art>a|an|any|another) (?P<state>(?:(?:ready|unlocked|locked) )*)(?P<who>.+?)(?P<torpor> in torpor)?"
           r"(?P<mine> you control)?(?: controlled by (?P<whose>your prey|your predator|your predator or prey|"
           r"another Methuselah))?" + _CAPACITY.replace("(?P<", "(?P<a_") +
           r"(?P<unc> in your uncontrolled region)?" + _CAPACITY)
_ADD_BLOOD = re.compile(r"(?:Add|Move) (?P<n>\d) blood(?: from the (?:blood )?bank)? to " + _TARGET)
_LOCK = re.compile(r"(?P<d>\(D\) )?(?P<verb>Lock|Unlock) " + _TARGET)
_COMBAT = re.compile(r"(?P<d>\(D\) )?Enter combat with " + _TARGET)
_BURN = re.compile(r"(?P<d>\(D\) )?Burn (?P<n>\d) blood(?P<life> or life)? from " + _TARGET)
# "(D) Steal an ally controlled by another Methuselah." (Entrancement), "(D) Steal a vampire in torpor controlled by
# another Methuselah." (Graverobbing): the minion changes controller, in the region it was in (the wording template)
_STEAL = re.compile(r"(?P<d>\(D\) )?Steal " + _TARGET)
# "(D) Steal 1 blood from a ready vampire.", "(D) Steal 1 blood or life (becoming blood) from a ready minion.": moved from
# the target to the acting minion (what is above its capacity drains)
_STEAL_BLOOD = re.compile(r"(?P<d>\(D\) )?Steal (?P<n>\d) blood(?P<life> or life)?(?: \(becoming blood\))? from "
                          + _TARGET)
# a location another Methuselah (or you) controls: "(D) Burn a location.", "(D) Steal a location.", "(D) Burn a
# location and burn 2 pool from its controller." (Rewilding)
_LOCATION = re.compile(r"(?P<d>\(D\) )?(?P<verb>Burn|Steal) a location(?: and burn (?P<n>\d) pool from its controller)?")
_NOT_SUCCESSFUL = "(The action is not successful.)"
_UNLOCK_SELF = re.compile(r"Unlock this (?:acting )?(?:vampire|minion)")
# the minion another effect of the card aimed at: "As above, and burn 1 blood or life from the target minion."
_SAME = re.compile(r"(?P<verb>Lock|Unlock|Burn (?P<n>\d) blood(?P<life> or life)? from) (?:the target|that) "
                   r"(?:minion|vampire)")
# every minion of a kind: "Each of your unlocked vampires gains 1 blood from the blood bank.", "Each ready unlocked
# Ravnos gains 1 blood.", "Add 1 blood to each Sabbat vampire in your uncontrolled region."
_EACH = [re.compile(p) for p in (
    r"Each (?P<art>)(?P<yours>of your )?(?P<state>(?:(?:ready|unlocked|locked) )*)(?P<who>.+?)(?P<mine> you control)?"
    r"(?P<unc> in your uncontrolled region)? gains? (?P<n>\d) blood(?: from the (?:blood )?bank)?",
    r"(?:Add|Move) (?P<n>\d) blood(?: from the (?:blood )?bank)? to each (?P<art>)(?P<yours>)"
    r"(?P<state>(?:(?:ready|unlocked|locked) )*)(?P<who>.+?)(?P<mine> you control)?(?P<unc> in your uncontrolled "
    r"region)?")]
# what the action card gives its acting minion in the combat its "Enter combat with ..." causes: "This acting minion
# gets 1 optional maneuver during that combat.", "... 1 optional press, only usable to continue combat, during that
# combat.", "... during the first round of that combat."
_IN_COMBAT = re.compile(r"(?:This|The) acting (?:minion|vampire) gets (?:(?P<n>\d|an|one) optional (?P<what>maneuver|press)"
                        r"(?:e?s)?(?P<cont>, only usable to continue combat,)?|\+(?P<strength>\d) strength) "
                        r"(?:during (?P<first>the first round of )?(?:that|this) combat|in that combat)")
# what a successful bleed adds: "Gain 1 pool if the bleed is successful (for 1 or more).", "If the bleed is
# successful, this acting vampire gains 1 blood.", "Unlock this Anarch if the bleed is successful."
_IF_BLED = r"(?:the bleed is successful(?: \(for (?P<k>\d) or more\))?)"
_BLED = [re.compile(p) for p in (
    r"Gain (?P<pool>\d) pool if " + _IF_BLED,
    r"If " + _IF_BLED + r", (?:this (?:acting )?vampire gains (?P<blood>\d) blood|(?P<unlock>this vampire unlocks))",
    r"(?P<unlock>Unlock this (?:acting )?(?:vampire|[A-Z][a-z]+)) if " + _IF_BLED,
    r"If " + _IF_BLED + r", (?P<add>add) (?P<n>\d) blood to " + _TARGET,
)]


class Effect(NamedTuple):
    """One sentence of what a successful action does."""

    sentence: str
    # "add blood" | "lock" | "unlock" | "enter combat" | "in combat" | "burn blood" | "steal" | "steal blood" |
    # "unlock self"; a bleed's: "bled pool", "bled blood", "bled unlock", "bled add blood"
    verb: str
    amount: int = 0
    groups: tuple[Group, ...] = ()  # the minions it may aim at (empty: none, it aims at no minion)
    states: frozenset = frozenset()  # "ready", "locked", "unlocked"
    other: bool = False  # "another ...": not the acting minion
    whose: str = ""  # "you" | "your prey" | "your predator" | "your predator or prey" | "another Methuselah"
    uncontrolled: bool = False  # "in your uncontrolled region"
    capacity: Optional[tuple[str, int]] = None  # ("more" | "less" | "above", N)
    directed: bool = False  # "(D)" printed before it
    at_least: Optional[int] = None  # of a bleed's: "(for N or more)"
    target: str = ""  # the minions it may aim at, as printed ("a younger vampire in your uncontrolled region")
    # "in combat": what it gives the acting minion in the combat ("maneuver" or "press"), `amount` of them
    grant: str = ""  # ... or "strength": +`amount` strength that combat
    first_round: bool = False  # ... during the first round of that combat only
    to_continue: bool = False  # ... a press only usable to continue combat
    each: bool = False  # every minion of `groups` ("Each ready unlocked Ravnos gains 1 blood."), none chosen
    same: bool = False  # the minion the card's aiming effect aims at ("the target minion")
    life: bool = False  # "burn N blood or life": an ally's life too
    torpor: bool = False  # "a vampire in torpor"
    location: bool = False  # "burn location" | "steal location": it aims at a location (`amount`: pool its
    # controller burns)
    on_vampire: Any = None  # "attach self": the card's gear.OnVampireText, what it gives the acting vampire on it

    @property
    def aims(self) -> bool:
        """It aims at a minion (or a location) the scenario names (`chosen`)."""
        return (bool(self.groups) or self.location) and not self.each


class ActionText(NamedTuple):
    """An action card's line read (`action_text_of`): its effects, in the order printed."""

    card: str
    effects: tuple[Effect, ...]
    read: frozenset = frozenset()  # the sentences read

    @property
    def aiming(self) -> Optional[Effect]:
        """The effect that aims at a minion (one a card, at most: `action_text_of`)."""
        return next((e for e in self.effects if e.aims), None)


def _target(m: re.Match) -> Optional[dict]:
    """The minions a target clause names, as Effect fields; None when its noun is not a form read."""
    g = m.groupdict()
    who = g["who"]
    groups = groups_of(who)
    if groups is None:
        return None
    cap = next(((("above", int(g[p + "n1"])) if g[p + "above"] else (g[p + "moreless"], int(g[p + "n2"])))
                for p in ("", "a_") if g.get(p + "n1") or g.get(p + "n2")), None)
    whose = "you" if g["mine"] or g.get("yours") else (g.get("whose") or "")
    if g.get("torpor") and (g["unc"] or g["state"]):
        return None  # ("a ready vampire in torpor": no such minion)
    if g["unc"] and (whose or g["state"] or any(x.kind not in ("vampire", "clan", "sect", "younger", "older")
                                                for x in groups)):
        return None  # a crypt card in the uncontrolled region is no one's minion, neither ready nor locked
    return dict(groups=groups, states=frozenset(g["state"].split()), other=g["art"] == "another", whose=whose,
                uncontrolled=bool(g["unc"]), capacity=cap, torpor=bool(g.get("torpor")), target=m.string[m.start("art"):])


def _effect_of(sentence: str) -> Optional[Effect]:
    s = sentence.strip().rstrip(".")
    if m := _LOCATION.fullmatch(s):
        return Effect(sentence, f"{m.group('verb').casefold()} location", int(m.group("n") or 0),
                      directed=bool(m.group("d")), location=True, target="a location")
    if m := _ADD_BLOOD.fullmatch(s):
        t = _target(m)
        return Effect(sentence, "add blood", int(m.group("n")), **t) if t else None
    if m := _LOCK.fullmatch(s):
        t = _target(m)
        return Effect(sentence, m.group("verb").casefold(), directed=bool(m.group("d")), **t) if t else None
    if (m := _BURN.fullmatch(s)) and not m.group("unc"):
        t = _target(m)
        return Effect(sentence, "burn blood", int(m.group("n")), directed=bool(m.group("d")), life=bool(m.group("life")),
                      **t) if t else None
    if (m := _STEAL_BLOOD.fullmatch(s)) and not m.group("unc"):
        t = _target(m)
        return Effect(sentence, "steal blood", int(m.group("n")), directed=bool(m.group("d")),
                      life=bool(m.group("life")), **t) if t else None
    if (m := _STEAL.fullmatch(s)) and not m.group("unc"):
        t = _target(m)
        return Effect(sentence, "steal", directed=bool(m.group("d")), **t) if t else None
    if m := _COMBAT.fullmatch(s):
        t = _target(m)
        return Effect(sentence, "enter combat", directed=bool(m.group("d")), **t) if t else None
    if m := _IN_COMBAT.fullmatch(s):
        if m.group("strength"):
            return Effect(sentence, "in combat", int(m.group("strength")), grant="strength",
                          first_round=bool(m.group("first")))
        n = int(m.group("n")) if m.group("n").isdigit() else 1
        return Effect(sentence, "in combat", n, grant=m.group("what"), first_round=bool(m.group("first")),
                      to_continue=bool(m.group("cont")))
    if s == "Burn the acting minion":  # (a master card's, played during an action: Archon Investigation)
        return Effect(sentence, "burn acting")
    if _UNLOCK_SELF.fullmatch(s):
        return Effect(sentence, "unlock self")
    if m := _SAME.fullmatch(s):
        verb = m.group("verb").casefold()
        return Effect(sentence, verb if verb in ("lock", "unlock") else "burn blood", int(m.group("n") or 0),
                      same=True, life=bool(m.group("life")))
    for p in _EACH:
        if (m := p.fullmatch(s)) and (t := _target(m)) is not None:
            return Effect(sentence, "add blood", int(m.group("n")), each=True, **t)
    for p in _BLED:
        if m := p.fullmatch(s):
            k = int(m.group("k")) if m.group("k") else None
            if m.groupdict().get("pool"):
                return Effect(sentence, "bled pool", int(m.group("pool")), at_least=k)
            if m.groupdict().get("blood"):
                return Effect(sentence, "bled blood", int(m.group("blood")), at_least=k)
            if m.groupdict().get("add"):
                t = _target(m)
                return Effect(sentence, "bled add blood", int(m.group("n")), at_least=k, **t) if t else None
            return Effect(sentence, "bled unlock", at_least=k)
    return None


def action_text_of(name: str, sentences: list[str], bleed: bool) -> Optional[ActionText]:
    """The action card's line read as what its action does when it succeeds, or None when no sentence of it is an
    effect above. `bleed`: the line is a bleed ("(D) Bleed ..."), the only action a bleed's effects are read on;
    a line with two effects aiming at minions keeps the second unread (one minion is named a card)."""
    effects, read = [], set()
    for s in sentences:
        e = _effect_of(s)
        if e is None or e.verb.startswith("bled") != bleed or (e.aims and any(x.aims for x in effects)):
            continue
        if e.same and not any(x.aims for x in effects):
            continue  # ("the target minion" with no minion aimed at before it)
        if e.verb == "in combat" and not any(x.verb == "enter combat" for x in effects):
            continue  # ("that combat": one the card's action causes)
        if bleed and e.aims and not (e.uncontrolled or e.whose == "you"):
            continue  # (a bleed's effect on another Methuselah's minion: the bleed is directed at its target only)
        effects.append(e)
        read.add(s)
    return ActionText(name, tuple(effects), frozenset(read)) if effects else None


def master_text_of(name: str, sentences: list[str]) -> Optional[ActionText]:
    """A master card's sentences read as what it does as it is played (the effects above that a Methuselah's card can
    have: add blood to, lock, unlock or burn blood from a minion, aimed at one or each: "Lock a minion.", "Add 4
    blood to a vampire in your uncontrolled region with capacity 8 or more."), or None when none is. Those naming
    older or younger minions (than whom?) or "another" are not read, nor a second effect aiming at a minion."""
    effects, read = [], set()
    for n, s in enumerate(sentences):
        e = _effect_of(s)
        if e is not None and e.verb == "burn acting":
            # "Burn the acting minion. (The action is not successful.)": read with what becomes of the action, which
            # the book does not say of an acting minion leaving play
            after = sentences[n + 1] if n + 1 < len(sentences) else ""
            if after.strip() == _NOT_SUCCESSFUL:
                effects.append(e)
                read.update((s, after))
            continue
        if e is None or e.verb not in ("add blood", "lock", "unlock", "burn blood") or e.other or e.same or \
                any(g.kind in ("older", "younger") or g.age for g in e.groups) or \
                (e.aims and any(x.aims for x in effects)):
            continue
        effects.append(e)
        read.add(s)
    return ActionText(name, tuple(effects), frozenset(read)) if effects else None


# -- the engine side ------------------------------------------------------------------------------------------------
def misfit(d: Draft, e: Effect, actor: Minion, t: Minion) -> Optional[str]:
    """Why the effect `e` of `actor`'s action cannot aim at `t` (None: it can). NotModelled when the table does not
    say whether `t` is of the minions the card names."""
    if e.uncontrolled:
        if t.region != UNCONTROLLED or t.controller != actor.controller or t.kind != VAMPIRE:
            return f"{t.name} is not a vampire in {actor.controller}'s uncontrolled region"
    elif not t.controlled or t.contested or t.region not in (READY, TORPOR):
        where = "contested" if t.contested else f"in the {t.region} region"
        return f"{t.name} is not in play (it is {where})"
    why = group_misfit(e.groups, t, actor, f"the card says \"{e.sentence}\"", R.GOLDEN_RULE)
    if why is not None:
        return why
    if e.other and t.name == actor.name:
        return f"{t.name} is the acting minion, and the card says another"
    if e.torpor and t.region != TORPOR:
        return f"{t.name} is not in torpor (it is in the {t.region} region)"
    if e.verb == "steal" and t.controller == actor.controller:
        return f"{t.name} is {actor.controller}'s own minion (a Methuselah cannot steal a card from themself)"
    if "ready" in e.states and t.region != READY:
        return f"{t.name} is not ready (it is in the {t.region} region)"
    if "locked" in e.states and not t.locked:
        return f"{t.name} is not locked"
    if "unlocked" in e.states and t.locked:
        return f"{t.name} is locked"
    if e.verb == "enter combat" and t.controller == actor.controller:
        return f"{t.name} is {actor.controller}'s own minion (a Methuselah's minions never enter combat with each other)"
    if e.verb == "enter combat" and t.region != READY:
        return f"{t.name} is in the {t.region} region (only ready minions take part in combat)"
    if e.capacity is not None:
        how, n = e.capacity
        if t.kind != VAMPIRE or not {"more": t.capacity >= n, "less": t.capacity <= n, "above": t.capacity > n}[how]:
            return f"{t.name} is not of capacity {f'above {n}' if how == 'above' else f'{n} or {how}'}"
    player = actor.controller
    whose = {"you": (player,), "your prey": (d.prey(player),), "your predator": (d.predator(player),),
             "your predator or prey": (d.prey(player), d.predator(player))}.get(e.whose)
    if whose is not None and t.controller not in whose:
        return f"{t.name} is {t.controller}'s, not controlled by {e.whose.replace('your', player + chr(39) + 's')}"
    if e.whose == "another Methuselah" and t.controller == player:
        return f"{t.name} is {player}'s own minion, not another Methuselah's"
    return None


def chosen_for(d: Draft, text: ActionText, actor: Minion, named: Optional[str], quote: str) -> Optional[str]:
    """The minion the action's aiming effect aims at: the one the scenario names (refused, quoting the card, when the
    card does not allow it), else the only one on the table the card allows; NotModelled when several are and none
    is named, or none is (whether the card can be played with no target is not read). None when no effect aims."""
    e = text.aiming
    if e is None:
        if named is not None:
            raise Refusal(f"{text.card} is not played on a minion (its text aims at none): leave out 'on {named}'. "
                          f"{quote}", [R.CARD_ACTION_WHO, R.GOLDEN_RULE])
        return None
    if e.location:
        return _location_chosen(d, text, e, actor, named, quote)
    rules = [R.UNCONTROLLED_TARGETS, R.GOLDEN_RULE] if e.uncontrolled else [R.TORPOR_TARGETS, R.GOLDEN_RULE]
    if named is not None:
        t = d.minions.get(named)
        if t is None:
            raise Refusal(f"{actor.name} cannot play {text.card} on {named}: {named} is not in play (burned, removed, or "
                          f"never there). {quote}", [R.UNCONTROLLED_TARGETS])
        if e.verb == "enter combat":  # (only ready minions fight, never two of one Methuselah's: the book's refusals)
            try:
                combat.check_can_fight(d, actor, t)
            except Refusal as exc:
                raise Refusal(f"{exc.message} (\"{e.sentence}\"). {quote}", exc.rules) from None
        why = misfit(d, e, actor, t)
        if why is not None:
            raise Refusal(f"{actor.name} cannot play {text.card} on {named}: {why} (\"{e.sentence}\"). {quote}",
                          rules)
        return named
    fit = [t.name for t in d.minions.values() if misfit(d, e, actor, t) is None]
    if len(fit) == 1:
        return fit[0]
    if not fit:
        raise NotModelled(f"{text.card}: no minion on the table is {e.target} (\"{e.sentence}\"); whether the card "
                          f"can be played with no target is not read. {quote}", rules)
    raise NotModelled(f"{text.card}: which of {', '.join(fit)} it is played on is not said (\"{e.sentence}\"): say "
                      f"'{actor.name} plays {text.card} on {fit[0]}' (chosen: in the structured form)", rules)


def _location(d: Draft, name: Optional[str]):
    return next((c for c in d.cards if c.kind == "location" and not c.contested and name is not None
                 and c.name.casefold() == name.casefold()), None)


def _location_misfit(e: Effect, actor: Minion, card) -> Optional[str]:
    if e.verb == "steal location" and card.controller == actor.controller:
        return f"{card.name} is {actor.controller}'s own location (a Methuselah cannot steal a card from themself)"
    return None


def _location_chosen(d: Draft, text: ActionText, e: Effect, actor: Minion, named: Optional[str], quote: str) -> str:
    """The location the action's effect aims at ("(D) Burn a location."): the one the scenario names, else the only
    one in play that fits; refused, quoting the card, when the named one is not in play or does not fit."""
    borne = [(x, t.name) for t in d.minions.values() if t.controlled for x in t.equipment]
    if named is not None:
        card = _location(d, named)
        held = next((who for x, who in borne if x.casefold() == named.casefold()), None)
        if card is None and held is not None:
            raise NotModelled(f"{text.card} on {named}, equipment {held} bears: equipment that counts as a location "
                              f"while in play, as a target, is not modelled (\"{e.sentence}\"). {quote}",
                              [R.GOLDEN_RULE])
        if card is None:
            raise Refusal(f"{actor.name} cannot play {text.card} on {named}: no location of that name is in play "
                          f"(\"{e.sentence}\"). {quote}", [R.GOLDEN_RULE])
        why = _location_misfit(e, actor, card)
        if why is not None:
            raise Refusal(f"{actor.name} cannot play {text.card} on {named}: {why} (\"{e.sentence}\"). {quote}",
                          [R.STEAL_CARD, R.GOLDEN_RULE])
        return named
    fit = [c.name for c in d.cards if c.kind == "location" and not c.contested and _location_misfit(e, actor, c) is None]
    if len(fit) == 1 and not borne:  # (equipment in play may count as a location: then it is not the only one)
        return fit[0]
    if not fit:
        raise NotModelled(f"{text.card}: no location in play fits (\"{e.sentence}\"); whether the card can be played "
                          f"with no target is not read. {quote}", [R.GOLDEN_RULE])
    also = " (or equipment in play that counts as a location)" if borne else ""
    raise NotModelled(f"{text.card}: which of {', '.join(fit)}{also} it is played on is not said (\"{e.sentence}\"): "
                      f"say '{actor.name} plays {text.card} on {fit[0]}'", [R.GOLDEN_RULE])


def directed_at(d: Draft, chosen: Optional[str], actor: Minion) -> tuple[str, ...]:
    """The Methuselah the action is directed at for aiming at `chosen`: its controller when another Methuselah. At
    the acting Methuselah's own minion it is directed at nobody, (D) printed or not: the book calls an action directed
    when it targets other Methuselahs, (D) "a reminder" (Minion Phase), and the rulings say so of such cards
    ("If played on one of your own vampires, the action is undirected.", Temptation)."""
    t = d.minions.get(chosen) if chosen else None
    if t is None and (card := _location(d, chosen)) is not None:  # a location: directed at its controller
        return (card.controller,) if card.controller != actor.controller else ()
    return (t.controller,) if t is not None and t.controlled and t.controller != actor.controller else ()


def on_success(d: Draft, log: Log, a: Action, bled: Optional[int] = None) -> None:
    """The effects of the action `a` (`Action.success`, aimed at `Action.chosen`) as it succeeds; `bled`: the
    bleed's amount, when the action is a bleed."""
    take_effect(d, log, a.success, d.minions.get(a.actor), a.actor, a.player, a.chosen, a.summary, bled)


def take_effect(d: Draft, log: Log, text: ActionText, actor, actor_name: str, player: str, chosen: Optional[str],
                cause: str, bled: Optional[int] = None) -> None:
    """The effects `text` of `actor` (a minion, or the Methuselah playing a master card: `card_text.Methuselah`;
    None: no longer in play, `actor_name` its name) aimed at `chosen`, `player` the Methuselah gaining pool, `cause`
    what a combat it begins is caused by."""
    for e in text.effects:
        if e.verb == "in combat":
            continue  # (given as the combat begins: "enter combat" below)
        said = f"{text.card}: \"{e.sentence}\""
        if e.verb.startswith("bled"):
            if bled is None:
                continue
            if bled < (e.at_least or 1):  # (the book: "If the bleed amount is 1 or more, then the bleed is successful")
                log.add(f"{said}: the bleed was of {bled}, not {e.at_least or 1} or more: nothing more.",
                        R.BLEED_SUCCESSFUL, R.GOLDEN_RULE)
                continue
        if e.verb == "bled pool":
            pool(d, player, e.amount)
            log.add(f"{said}: {player} gains {e.amount} pool ({d.players[player].pool}).", R.GOLDEN_RULE,
                    R.BLOOD_BANK)
            continue
        if actor is None:
            log.add(f"{said}: {actor_name} is no longer in play: no effect.", R.GOLDEN_RULE)
            continue
        if e.verb == "bled blood":
            gained = blood(d, actor.name, e.amount, log)
            log.add(f"{said}: {actor.name} gains {gained} blood.", R.GOLDEN_RULE, R.BLOOD_BANK)
            continue
        if e.verb in ("unlock self", "bled unlock"):
            d.put_minion(actor.name, locked=False)
            log.add(f"{said}: {actor.name} unlocks.", R.GOLDEN_RULE)
            continue
        if e.each:
            every = [t for t in d.minions.values() if misfit(d, e, actor, t) is None]
            for t in every:
                blood(d, t.name, e.amount, drain=False)
            log.add(f"{said}: " + ("; ".join(f"{t.name} gets {e.amount} blood ({d.minions[t.name].blood} of capacity "
                                              f"{t.capacity})" for t in every) or "no minion is one of them") + ".",
                    R.GOLDEN_RULE, R.BLOOD_BANK)
            for t in every:
                drain_excess(d, t.name, log)
            continue
        if e.verb == "burn acting":
            _burn_acting(d, log, e.sentence.strip(), text.card)
            continue
        if e.verb == "attach self":  # "Put this card on this vampire.": what it gives holds while the card is on it
            on, m = e.on_vampire, d.minions[actor.name]
            d.put_minion(m.name, attached=m.attached + (Attached(text.card, on.bonuses, on.abilities),))
            gives = " ".join(f'"{x.sentence}"' for x in (*on.bonuses, *on.abilities))
            log.add(f"{said}: {text.card} is put on {m.name}" + (f", which now has what it gives: {gives}" if gives
                                                                  else "") + ".", R.GOLDEN_RULE)
            continue
        if e.location:
            _location_effect(d, log, e, said, actor, player, chosen)
            continue
        aimed = text.aiming
        t = d.minions.get(chosen) if chosen else None
        why = "it is no longer in play" if t is None else misfit(d, aimed if e.same else e, actor, t)
        if why is not None:
            log.add(f"{said}: {why}; no effect.", R.TORPOR_TARGETS, R.GOLDEN_RULE)
            continue
        if e.verb == "burn blood":
            if t.kind != VAMPIRE and not e.life:
                log.add(f"{said}: {t.name} is an ally, with life, not blood: no effect.", R.GOLDEN_RULE)
                continue
            burned = -blood(d, t.name, -e.amount)
            log.add(f"{said}: {t.name} burns {burned} {'blood' if t.kind == VAMPIRE else 'life'} "
                    f"({d.minions[t.name].blood} left).", R.GOLDEN_RULE, R.BLOOD_BANK)
            burn_dead_ally(d, log, t.name)
        elif e.verb == "steal blood":
            if t.kind != VAMPIRE and not e.life:
                log.add(f"{said}: {t.name} is an ally, with life, not blood: no effect.", R.GOLDEN_RULE)
                continue
            taken = -blood(d, t.name, -e.amount)
            blood(d, actor.name, taken, drain=False)  # (from the bank: the target's counters went to it)
            log.add(f"{said}: {actor.name} steals {taken} {'blood' if t.kind == VAMPIRE else 'life'} from {t.name} "
                    f"({t.name} {d.minions[t.name].blood} left, {actor.name} {d.minions[actor.name].blood} of "
                    f"capacity {actor.capacity}).", R.GOLDEN_RULE)
            drain_excess(d, actor.name, log)
            burn_dead_ally(d, log, t.name)
        elif e.verb in ("add blood", "bled add blood"):
            blood(d, t.name, e.amount, drain=False)
            note = " (in the uncontrolled region: blood above capacity drains only as the vampire comes into play)" \
                if e.uncontrolled and d.minions[t.name].blood > t.capacity else ""
            log.add(f"{said}: {t.name} gets {e.amount} blood from the blood bank ({d.minions[t.name].blood} of "
                    f"capacity {t.capacity}){note}.", R.GOLDEN_RULE, R.BLOOD_BANK,
                    *((R.INFLUENCE_DRAIN,) if note else ()))
            drain_excess(d, t.name, log)
        elif e.verb in ("lock", "unlock"):
            d.put_minion(t.name, locked=e.verb == "lock")
            log.add(f"{said}: {t.name} {e.verb}s.", R.GOLDEN_RULE)
        elif e.verb == "steal":
            change_control(d, ChangeControl(minion=t.name, player=player, source=said), log)
            if t.name in d.minions:  # (the wording template: a stolen card stays where it was)
                log.add(f"{t.name} stays in the {t.region} region{', locked' if t.locked else ''}, now {player}'s.",
                        R.STEAL_CARD, R.GOLDEN_RULE)
        elif e.verb == "enter combat":
            if t.region != READY:
                log.add(f"{said}: {t.name} is no longer ready: no combat.", R.COMBAT_READY)
                continue
            log.add(f"{said}: {actor.name} enters combat with {t.name}.", R.GOLDEN_RULE, R.COMBAT_CAUSED)
            combat.start(d, log, actor.name, t.name, cause=cause)
            riders = [g for g in text.effects if g.verb == "in combat"]
            given = tuple((actor.name, text.card, Ability(kind=g.grant, sentence=g.sentence, uses=g.amount,
                                                          first_round=g.first_round,
                                                          press_to="continue" if g.to_continue else ""))
                          for g in riders if g.grant != "strength")
            strength = tuple((actor.name, g.amount, text.card, "round" if g.first_round else "combat") for g in riders
                             if g.grant == "strength")
            d.put_combat(card_abilities=given, strength_mods=d.combat.strength_mods + strength, cause_card=text.card)
            if riders:
                log.add(f"{text.card} gives {actor.name} in this combat: "
                        + " ".join(f'"{g.sentence.strip()}"' for g in riders), R.GOLDEN_RULE)


def _location_effect(d: Draft, log: Log, e: Effect, said: str, actor, player: str, chosen: Optional[str]) -> None:
    """A successful action's effect on the location it aimed at: burned (its controller burning the pool the card
    says), or stolen: controlled by the acting Methuselah from now on. No effect on one no longer in play."""
    card = _location(d, chosen)
    if card is None:
        log.add(f"{said}: {chosen} is no longer in play; no effect.", R.GOLDEN_RULE)
        return
    if e.verb == "steal location":
        why = _location_misfit(e, actor, card)
        if why is not None:
            log.add(f"{said}: {why}; no effect.", R.STEAL_CARD, R.GOLDEN_RULE)
            return
        if any(c.name == card.name and c.controller == player for c in d.cards):
            raise NotModelled(f"{said}: {player} controls another {card.name} already: the contest a second copy of a "
                              f"unique location starts", [R.UNIQUE_CARD, R.CONTEST_CARD])
        d.set(cards=tuple(replace(c, controller=player) if c is card else c for c in d.cards))
        log.add(f"{said}: {card.name} is {player}'s from now on (it was {card.controller}'s).", R.STEAL_CARD,
                R.GOLDEN_RULE)
        return
    d.set(cards=tuple(c for c in d.cards if c is not card))
    burned = -pool(d, card.controller, -e.amount) if e.amount else 0
    more = f"; {card.controller} burns {burned} pool ({d.players[card.controller].pool} left)" if e.amount else ""
    log.add(f"{said}: {card.name} is burned{more}.", R.GOLDEN_RULE, *([R.BLOOD_BANK] if e.amount else []))


def _burn_acting(d: Draft, log: Log, sentence: str, card: str) -> None:
    """A master card's "Burn the acting minion. (The action is not successful.)": the acting minion is burned (its
    counters to the bank, the card to its owner's ash heap) and the action ends there, not successful, as the card
    says; the moment after its resolution opens, as for an action that failed."""
    a = d.action_()
    if a is None:
        raise Refusal(f"{card} burns the acting minion, and no action is in progress", [R.GOLDEN_RULE])
    if d.combat is not None:
        raise NotModelled(f"{card} burning the acting minion {a.actor} during a combat", [R.GOLDEN_RULE, R.COMBAT])
    m = d.minions.get(a.actor)
    owner = (m.owner or m.controller) if m is not None else a.player
    counters = remove_minion(d, a.actor) if m is not None else 0
    d.set(action=None)
    back = f", its {counters} {'blood' if m.kind == VAMPIRE else 'life'} to the blood bank" if counters else ""
    log.add(f"{card}: \"{sentence} {_NOT_SUCCESSFUL}\": {a.actor} is burned, to {owner}'s ash heap{back}; the "
            f"action ({a.summary}) ends, not successful.", R.GOLDEN_RULE, R.OWNER_ASH_HEAP)
    action_over(d, log, a, successful=False)
