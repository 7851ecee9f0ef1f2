"""Random play, after OpenSpiel's random simulation: from a random table, pick random
candidate events, keep those the engine accepts, and check invariants after every
transition. Used by tests/test_engine_random.py and bench/engine_replay.py.

Candidates are drawn for the current situation (whose turn, which phase, an
action in progress, a combat, a referendum, a blocker's chance to diablerize);
the engine decides legality, so a refused candidate is simply not played. A
game ends when it is over, when an event is not modelled, or after
`max_events` events. Besides the invariants of every state (counters conserved,
no blood above capacity, ...), transitions are checked: when a combat ends,
every combatant that was going to torpor is in torpor and every one being
burned is out of play; when a blood hunt passes, the diablerist is burned.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional

from judge.engine.vtes import core, phases, referendum_effects, titles, traits
from judge.engine.vtes.cards import CardFacts
from judge.engine.vtes import rules as R
from judge.engine.citations import CURRENT, OLDER
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.events import (ActionCard, BecomeAnarch, Bleed, Block, Canceller, CardEffect, CastVote, ChooseStrike, ClosePolling,
                                 CombatOver, ContestCard, ContestTitle, Cost, CryptDraw, Decline, Diablerize, Discard,
                                 EdgePool, Effect, Employ, EndTurn, EnterCombat, Equip, GainStrikes, GoToPhase, Hunt,
                                 HuntingGround,
                                 Influence, InflictDamage, LeaveTorpor, Maneuver, MasterCard, Modifier, NoDiablerie,
                                 NoManeuver, NoPress, NoPrevent, Pass, PlayCard, Political, Press, Prevent, Reaction, Recruit,
                                 Rescue, StrikeSpec, Terms, TransferBack, TransferPool, TurnOf, UnlockInfernal, Withdraw,
                                 AggravateHands, AllyIntoPlay, BurnFor, BurnOption, UnlockSelf, ChangeControl, ChangeSect, CombatAction, GainTitle, MarkRedList, RedListHunt,
                                 SlaveTakesOver)
from judge.engine.vtes.state import (ALLY, COMBAT_STEPS, PHASES, READY, TORPOR, UNCONTROLLED, VAMPIRE, GameState, Minion,
                                PhaseState, Player, Retainer, counters_in_play, evolve)

TITLES = (None, None, None, "Prince of Paris", "Primogen", "Justicar", "Archbishop of Rome", "Bishop", "Priscus",
          "Cardinal", "Kholo", "Baron of Chicago", "Inner Circle member")
SECTS = ("Camarilla", "Sabbat", "Anarch", "Laibon", None)
CLANS = ("Tremere", "Assamite", "Ventrue", None)
# Traits of the books, with what makes them bite: a scarce vampire's clanmates, a slave's master clan.
TRAITS = ((), (), (), (), ("blood cursed",), ("scarce",), ("slave (tremere)",), ("sterile",), ("red list",))


def _disc(code: str, name: str) -> tuple:
    return ((code, name, None),)


# Cards named as the card base would give them (cards.CardFacts), written out so that random play needs no card
# base: each of a kind the engine checks (requirements, level, cost, timing) and applies.
CARDS = {
    "bleed modifier": CardFacts(id="random:1", name="Random Conditioning", kind="library", types=("Action Modifier",),
                                text="Only usable during a bleed action.\n[dom] +1 bleed (limited).\n"
                                     "[DOM] +2 bleed (limited).", blood_cost="1", disciplines=_disc("dom", "Dominate")),
    "stealth modifier": CardFacts(id="random:2", name="Random Cloak", kind="library", types=("Action Modifier",),
                                  text="[obf] +1 stealth.\n[OBF] +2 stealth.", disciplines=_disc("obf", "Obfuscate")),
    "reaction": CardFacts(id="random:3", name="Random Sight", kind="library", types=("Reaction",),
                          text="[aus] +1 intercept.\n[AUS] +2 intercept.", pool_cost="1",
                          disciplines=_disc("aus", "Auspex")),
    "action": CardFacts(id="random:4", name="Random Govern", kind="library", types=("Action",),
                        text="[dom] (D) Bleed with +2 bleed.\n[DOM] +1 stealth action. (D) Bleed with +1 bleed.",
                        blood_cost="1", disciplines=_disc("dom", "Dominate")),
    "trifle": CardFacts(id="random:5", name="Random Trifle", kind="library", types=("Master",),
                        text="Trifle.\nGain 1 pool.", pool_cost="1"),
    "out-of-turn": CardFacts(id="random:6", name="Random Reversal", kind="library", types=("Master",),
                             text="Out-of-turn.\nBurn 1 pool.", requirements=("titled",)),
    "burn option": CardFacts(id="random:7", name="Random Loa", kind="library", types=("Master",), clans=("Samedi",),
                             text="Unique.\nPut this card in play.", burn_option=True),
    "hunting ground": CardFacts(id="random:8", name="Random Hunting Ground", kind="library", types=("Master",),
                                text="Unique location. Hunting ground.\nDuring your unlock phase, a ready vampire you "
                                     "control can gain 1 blood. A vampire can gain blood from only one hunting ground "
                                     "each turn.", pool_cost="1"),
    "ally": CardFacts(id="random:9", name="Random Gang", kind="library", types=("Ally",),
                      text="Mortal with 2 life. 1 strength, 1 bleed.", pool_cost="1"),
}
DISCIPLINES = (("dom", "AUS"), ("DOM", "obf"), ("aus",), ())


def random_table(rng: random.Random, pool: "Optional[CardPool]" = None) -> GameState:
    n = rng.randint(2, 5)
    seating = tuple(f"P{i}" for i in range(n))
    players = {p: Player(name=p, pool=rng.randint(1, 14), hand=7, library=rng.choice([None, 0, 2, 10]),
                         crypt=rng.choice([None, 3])) for p in seating}
    minions: dict[str, Minion] = {}
    count = 0
    for p in seating:
        for _ in range(rng.randint(1, 3)):
            count += 1
            cap = rng.randint(1, 8)
            sect = rng.choice(SECTS)
            minions[f"V{count}"] = Minion(
                name=f"V{count}", controller=p, capacity=cap, card=f"V{count}", blood=rng.randint(0, cap),
                locked=rng.random() < 0.2, infernal=rng.random() < 0.1, intercept=rng.choice([0, 0, 0, 1]),
                title=rng.choice(TITLES), sect=sect, anarch=sect == "Anarch",
                equipment=(("Gun", "Vest") if rng.random() < 0.3 else ("Gun",)) if rng.random() < 0.3 else (), strength=rng.choice([1, 1, 2]),
                region=TORPOR if rng.random() < 0.15 else READY,
                retainers=(Retainer(f"R{count}", rng.randint(1, 2)),) if rng.random() < 0.15 else (),
                traits=rng.choice(TRAITS), clan=rng.choice(CLANS),
                immune=("crows",) if rng.random() < 0.1 else (),
                votes=rng.choice([None, None, None, 1]), disciplines=DISCIPLINES[count % len(DISCIPLINES)])
            if pool is not None and pool.crypt and rng.random() < 0.3:  # what a real crypt card's text gives it
                bonuses, abilities = rng.choice(pool.crypt)
                minions[f"V{count}"] = evolve(minions[f"V{count}"], bonuses=bonuses, abilities=abilities,
                                              text_read=True)
            if pool is not None and pool.weapons and rng.random() < 0.3:  # a real weapon card it bears
                minions[f"V{count}"] = evolve(minions[f"V{count}"], equipment=minions[f"V{count}"].equipment + (
                    rng.choice(pool.weapons).card,))
            if pool is not None and pool.cancellers and rng.random() < 0.4:  # what a card cancelling others needs
                needs = rng.choice(pool.cancellers)
                minions[f"V{count}"] = evolve(minions[f"V{count}"], clan=needs.clans[0] if needs.clans else
                                              minions[f"V{count}"].clan,
                                              disciplines=tuple(code.upper() for code, _, _ in needs.disciplines))
        if rng.random() < 0.4:
            count += 1
            minions[f"A{count}"] = Minion(name=f"A{count}", controller=p, kind=ALLY, card=f"A{count}",
                                          blood=rng.randint(1, 3), bleed=rng.randint(0, 2))
        if rng.random() < 0.6:
            count += 1
            cap = rng.randint(2, 8)
            # Some are a second copy of a card in play (contested, or burned if its Methuselah has one), some
            # scarce, some with a title another vampire may claim.
            copy = rng.choice([m.card for m in minions.values() if m.kind == VAMPIRE] or [None]) \
                if rng.random() < 0.3 else None
            minions[f"U{count}"] = Minion(name=f"U{count}", controller=p, capacity=cap, card=copy or f"U{count}",
                                          blood=rng.randint(0, cap + 1), region=UNCONTROLLED,
                                          clan=rng.choice(CLANS), traits=rng.choice(TRAITS), title=rng.choice(TITLES),
                                          sect=rng.choice(SECTS))
    if rng.random() < 0.2 and n >= 2:  # a contested card
        a, b = rng.sample(seating, 2)
        for p in (a, b):
            count += 1
            minions[f"C{count}"] = Minion(name=f"C{count}", controller=p, capacity=4, card="Contested", blood=2,
                                          contested=True)
    if rng.random() < 0.2 and n >= 2:  # a contested title (a baron against a prince: its cost differs by book)
        a, b = rng.sample(seating, 2)
        for p, title in zip((a, b), rng.choice([("Prince of Paris",) * 2, ("Baron of Paris", "Prince of Paris")])):
            count += 1
            anarch = title.startswith("Baron")
            minions[f"T{count}"] = Minion(name=f"T{count}", controller=p, capacity=5, card=f"T{count}",
                                          blood=rng.randint(0, 3), title=title, title_contested=True,
                                          sect="Anarch" if anarch else None, anarch=anarch)
    turn_number = rng.randint(1, 6)
    phase = rng.choice(PHASES)
    return GameState(edition=rng.choice([CURRENT, OLDER]), seating=seating, players=players, minions=minions,
                     turn=rng.choice(seating), phase=phase, turn_number=turn_number,
                     edge=rng.choice([None] + list(seating)),
                     phase_state=PhaseState(transfers=phases.transfers_for(turn_number)))


class _Namer:
    def __init__(self, pool: "Optional[CardPool]" = None):
        self.n = 0
        self.pool = pool  # real cards to name (`CardPool`), or None: the written-out CARDS

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def candidates(state: GameState, rng: random.Random, new_name: _Namer) -> list[Callable[[], object]]:
    """Makers of plausible events for this situation (the engine judges them)."""
    turn = state.turn
    seated = state.seated()
    mine = [m for m in state.minions.values() if m.controller == turn]
    others = [m for m in state.minions.values() if m.controller != turn]
    out: list[Callable[[], object]] = []
    add = out.append
    pick = rng.choice
    nxt = PHASES.index(state.phase) + 1
    if state.combat is not None:
        out = _combat_candidates(state, rng, add, pick)
        pool = new_name.pool
        if pool is not None and pool.combat:  # a real combat card, one candidate among the others
            c = state.combat

            def combat_card():
                by = pick([c.acting, c.opposing])
                canceller = None
                combat_cancellers = [f for f in pool.cancellers if "Combat" in f.types]
                if combat_cancellers and rng.random() < 0.3:
                    canceller = Canceller(card=pick(combat_cancellers), minion=c.opposing if by == c.acting else
                                          c.acting, level=pick((None, "superior")))
                return PlayCard(card=pick(pool.combat), minion=by, level=pick((None, "superior")),
                                cancelled=canceller is not None, canceller=canceller)
            out.append(combat_card)
        armed = [(m.name, w) for m in (state.minions.get(state.combat.acting), state.minions.get(state.combat.opposing))
                 if m is not None for w in (pool.weapons if pool is not None else ()) if w.card in m.equipment]
        if armed:  # a real weapon card a combatant bears: its strike or maneuver, read from the card
            def weapon_use():
                who, w = pick(armed)
                if rng.random() < 0.5:
                    return Maneuver(minion=who, source=w.card, via="weapon", weapon=w)
                return ChooseStrike(minion=who, source=w.card, via="weapon", weapon=w)
            out.append(weapon_use)
        return out
    if state.chance is not None:
        ch = state.chance
        add(lambda: Diablerize(actor=ch.blocker, victim=ch.victim, take_all=rng.random() < 0.5))
        add(lambda: NoDiablerie(minion=ch.blocker))
        add(lambda: Pass())
        return out
    if state.referendum is not None:
        return _referendum_candidates(state, rng, add, pick, seated)
    if state.action is not None:
        a = state.action
        if others:
            add(lambda: Block(blocker=pick(others).name))
        add(lambda: Decline(player=pick(list(a.order) + [None]) if a.order else None))
        add(lambda: Modifier(minion=a.actor, card=pick([None, "M1", "M2"]),
                             **{pick(("stealth", "bleed", "hunt")): 1},
                             cost=Cost(blood=pick([0, 0, 1]), pool=pick([0, 0, 1]))))
        if a.attempt:
            add(lambda: Reaction(minion=a.attempt.blocker, card=pick([None, "R1"]), intercept=1,
                                 cost=Cost(blood=pick([0, 1]))))
        # blood burned for what a vampire's own card gives (refused when it gives none, or not now)
        burners = [n for n in (a.actor, a.attempt and a.attempt.blocker) if n and n in state.minions
                   and state.minions[n].text_read]
        if burners:
            add(lambda: BurnFor(minion=pick(burners), stat=pick(("stealth", "bleed", "intercept"))))
        if others and rng.random() < 0.5:
            # (a redirect under the older book stops the game as not modelled: offered under the current one)
            changes = [{"bleed": -1}, {"wake": True}] + ([{"redirect": pick(seated)}] if state.edition == CURRENT else [])
            add(lambda: Reaction(minion=pick(others).name, card=pick([None, "Deflection"]), **pick(changes)))
        add(lambda: Pass())
        add(lambda: MasterCard(player=pick(seated), out_of_turn=True, trifle=rng.random() < 0.3))
        add(lambda: _named_in_action(a, state, seated, rng, new_name.pool))  # one candidate: the others keep their odds
        return out
    if state.phase == "unlock":
        add(lambda: EdgePool(player=turn))
        for m in mine:
            if m.contested:
                add(lambda m=m: ContestCard(player=turn, card=m.card, pay=rng.random() < 0.7))
            if m.title_contested:
                add(lambda m=m: ContestTitle(minion=m.name, pay=rng.random() < 0.7))
            if m.infernal and m.locked:
                add(lambda m=m: UnlockInfernal(player=turn, minion=m.name))
        for c in state.cards:  # a contested location or equipment card
            if c.contested and c.controller == turn:
                add(lambda c=c: ContestCard(player=turn, card=c.name, pay=rng.random() < 0.7))
        if rng.random() < 0.05:
            add(lambda: Withdraw(player=turn))
        add(lambda: BurnOption(player=pick(seated), card=CARDS["burn option"]))
        ground = CARDS["hunting ground"]
        fed = [m for m in mine if m.kind == VAMPIRE]
        if fed and any(c.name == ground.name and c.controller == turn and not c.contested for c in state.cards):
            add(lambda: HuntingGround(minion=pick(fed).name, card=ground))
    elif state.phase == "master":
        add(lambda: MasterCard(player=turn, trifle=rng.random() < 0.4, cost_pool=pick([0, 0, 1])))
        add(lambda: MasterCard(player=turn, card="Haven", location=True, unique=rng.random() < 0.7))
        if others:
            add(lambda: MarkRedList(player=turn, minion=pick(others).name))
        add(lambda: MasterCard(player=pick(seated), out_of_turn=True, trifle=rng.random() < 0.3))
        # (its "Gain 1 pool." is read: the engine gains it, no effect to describe)
        add(lambda: PlayCard(card=CARDS["trifle"], player=turn,
                             cancelled=rng.random() < 0.1 and state.edition == CURRENT))
        if state.phase_state.master_actions > 0:  # (a master card needs a master phase action)
            add(lambda: PlayCard(card=CARDS["hunting ground"], player=turn))  # a location in play
            bearers = [m.name for m in state.minions.values() if m.kind == VAMPIRE]
            if new_name.pool is not None and new_name.pool.master_disciplines and bearers:
                add(lambda bearers=bearers: PlayCard(card=pick(new_name.pool.master_disciplines), player=turn,
                                                     on=pick(bearers)))
            anyone = [m.name for m in state.minions.values()]
            if new_name.pool is not None and new_name.pool.masters and anyone:  # on a random minion, or on none
                add(lambda anyone=anyone: PlayCard(card=pick(new_name.pool.masters), player=turn,
                                                   on=pick(anyone + [None])))
    elif state.phase == "minion" and mine:
        # A vampire with no blood must hunt first: offer it, or the turn cannot go on.
        must_hunt = False
        for m in mine:
            if m.kind == VAMPIRE and m.blood == 0 and m.ready and not m.locked:
                must_hunt = True
                for _ in range(4):  # among the many candidates of the minion phase, often enough to be drawn
                    add(lambda m=m: Hunt(actor=m.name))
        ready = [m for m in mine if m.ready and not m.locked] or mine
        named = () if must_hunt else (_named_action,)  # a pending hunt keeps its odds of being drawn
        for maker in (_bleed, _bleed, _bleed, _hunt, _hunt, _equip, _employ, _recruit, _anarch, _card, _card,
                      _blood_effect, _political, _political, _leave_torpor, _rescue, _diablerize, _diablerize,
                      _card_combat, _damage, _red_list, _combat_action, _sterile_card, *named):
            add(lambda maker=maker: maker(pick(ready), state, seated, rng, new_name))
        if new_name.pool is not None and new_name.pool.titles and not must_hunt:  # a title card, read as printed
            for _ in range(2):
                add(lambda: PlayCard(card=pick(new_name.pool.titles), minion=pick(ready).name))
        if new_name.pool is not None and new_name.pool.referendums and not must_hunt:  # a referendum read whole
            add(lambda: PlayCard(card=pick(new_name.pool.referendums), minion=pick(ready).name))
        if new_name.pool is not None and new_name.pool.actions and not must_hunt:  # an action card's effects read
            everyone = [None, *state.minions]
            for _ in range(2):
                add(lambda: PlayCard(card=pick(new_name.pool.actions), minion=pick(ready).name,
                                     level=pick((None, "superior")), on=pick(everyone)))
        if new_name.pool is not None and new_name.pool.retainers and not must_hunt:  # a retainer card read whole
            add(lambda: PlayCard(card=pick(new_name.pool.retainers), minion=pick(ready).name,
                                 level=pick((None, "superior"))))
        if new_name.pool is not None and new_name.pool.allies and not must_hunt:  # an ally card read whole
            add(lambda: PlayCard(card=pick(new_name.pool.allies), minion=pick(ready).name))
    elif state.phase == "influence":
        unc = [m for m in mine if m.region == UNCONTROLLED and m.kind == VAMPIRE]
        for v in unc:
            add(lambda v=v: TransferPool(player=turn, vampire=v.name, amount=rng.randint(1, 2)))
            add(lambda v=v: TransferBack(player=turn, vampire=v.name, amount=1))
            add(lambda v=v: Influence(player=turn, vampire=v.name))
        add(lambda: CryptDraw(player=turn, vampire=new_name("New"), capacity=rng.randint(1, 8)))
    elif state.phase == "discard":
        add(lambda: Discard(player=turn, event_card=rng.random() < 0.2))
        # a vampire unlocking as its own card may allow (refused when it does not, or not now)
        read = [m for m in state.minions.values() if m.text_read and m.locked]
        if read:
            add(lambda: UnlockSelf(minion=pick(read).name, pays=pick([None, "blood", "edge"]), blood=1))
    add(lambda: Effect(effect=CardEffect(pool=((pick(seated), rng.randint(-3, 2)),))))
    vampires = [m for m in state.minions.values() if m.kind == VAMPIRE]
    if vampires and rng.random() < 0.15:  # cards changing titles, sects and control, putting allies into play
        add(lambda: GainTitle(minion=pick(vampires).name, title=pick(TITLES)))
        add(lambda: ChangeSect(minion=pick(vampires).name, sect=pick([s for s in SECTS if s])))
        add(lambda: ChangeControl(minion=pick(vampires).name, player=pick(seated)))
        unique = rng.random() < 0.5  # a unique ally's copies share a card name; others are each their own
        add(lambda: AllyIntoPlay(player=pick(seated), ally=new_name("EffectAlly"), life=rng.randint(1, 2),
                                 card="Unique Ally" if unique else None, unique=unique))
    if nxt < len(PHASES):
        add(lambda: GoToPhase(phase=PHASES[nxt]))
    add(lambda: EndTurn())
    add(lambda: TurnOf(player=pick(seated)))
    return out


def _bleed(m, state, seated, rng, new_name):
    return Bleed(actor=m.name, target=rng.choice([None, None, None] + seated))


def _hunt(m, state, seated, rng, new_name):
    return Hunt(actor=m.name)


def _equip(m, state, seated, rng, new_name):
    donors = [o.name for o in state.minions.values()
              if o.controller == m.controller and o.equipment and o.name != m.name]
    several = donors and rng.random() < 0.4  # several taken from one minion in a single action
    return Equip(actor=m.name, item="Gun", source=rng.choice(donors) if donors else None,
                 cost=Cost(pool=rng.choice([0, 1])), more=("Vest",) if several else (), unique=rng.random() < 0.3)


def _employ(m, state, seated, rng, new_name):
    return Employ(actor=m.name, retainer=new_name("Ret"), life=rng.randint(1, 2), cost=Cost(blood=rng.choice([0, 1])))


def _recruit(m, state, seated, rng, new_name):
    ally = CARDS["ally"]
    if rng.random() < 0.3 and not any(x.card == ally.name for x in state.minions.values()):
        return PlayCard(card=ally, minion=m.name)  # an ally card recruited by name (one copy: the engine names it so)
    return Recruit(actor=m.name, ally=new_name("Ally"), life=rng.randint(1, 3), cost=Cost(pool=rng.choice([0, 1, 2])))


def _anarch(m, state, seated, rng, new_name):
    return BecomeAnarch(actor=m.name)


def _card(m, state, seated, rng, new_name):
    target = rng.choice(seated)
    eff = CardEffect(pool=((target, -rng.randint(0, 2)),), blood=((m.name, rng.randint(-1, 2)),))
    return ActionCard(actor=m.name, card=rng.choice([None, "Card1", "Card2"]),
                      targets=(target,) if target != m.controller else (), stealth=rng.choice([0, 1]), effect=eff,
                      as_=rng.choice([None, None, "bleed", "hunt"]), bleed=rng.choice([0, 1]))


def _political(m, state, seated, rng, new_name):
    target = rng.choice(seated)
    return Political(actor=m.name, card=rng.choice([None, "P1", "P2"]),
                     effect=CardEffect(pool=((target, -rng.randint(1, 3)),)) if rng.random() < 0.7 else None)


@dataclass
class CardPool:
    """Real cards of the card base to name in random play (issue 37), by what plays them during an action: the
    engine reads their texts (conditions, levels, redirects, wakes) and judges each play."""

    modifiers: list = field(default_factory=list)
    reactions: list = field(default_factory=list)
    combat: list = field(default_factory=list)  # combat cards, played by a combatant
    # cards that cancel a card as it is played (a combat card's by the other combatant, a modifier's by another
    # Methuselah's minion): named as cancelling some of the cards above
    cancellers: list = field(default_factory=list)
    # what crypt texts give their vampires (card_text: bonuses, abilities), as (bonuses, abilities): some random
    # vampires get one, named by their card (`text_read`)
    crypt: list = field(default_factory=list)
    # political action cards putting themselves on a vampire as a title, read whole (titles.TitleCard)
    titles: list = field(default_factory=list)
    # weapon equipment cards read whole (weapons.WeaponText): some random minions bear one
    weapons: list = field(default_factory=list)
    # political action cards whose referendum is read whole (referendum_effects.ReferendumText)
    referendums: list = field(default_factory=list)
    # master Discipline cards, put on a vampire in the master phase
    master_disciplines: list = field(default_factory=list)
    # master cards whose effect on a minion is read whole (action_effects.master_text_of), played on a random minion
    # or on none (the only one the card allows, when there is one)
    masters: list = field(default_factory=list)
    # action cards whose effects on success are read whole (action_effects.ActionText), played on a random minion
    # or on none (the only one the card allows, when there is one)
    actions: list = field(default_factory=list)
    # retainer cards read whole (retainers.RetainerText): employed by a random minion, their bonuses its own
    retainers: list = field(default_factory=list)
    # ally cards read whole (allies.AllyText): recruited by a random minion, with what their card gives them
    allies: list = field(default_factory=list)


def _named_in_action(a, state, seated, rng, pool: "Optional[CardPool]" = None):
    """A card named from the card base during an action: the acting minion's modifier, a reaction (the blocker's,
    or any other Methuselah's minion's), an out-of-turn master card; from `pool` when given, half the time."""
    pick = rng.choice
    if pool is not None and rng.random() < 0.5:
        others = [m.name for m in state.minions.values() if m.controller != a.player and m.controlled]
        if pool.reactions and others and rng.random() < 0.5:
            return PlayCard(card=pick(pool.reactions), minion=a.attempt.blocker if a.attempt else pick(others),
                            level=pick((None, "superior")),
                            effect=CardEffect(redirect=pick(seated)) if rng.random() < 0.3 else None)
        if pool.modifiers:
            canceller = None
            reactions = [f for f in pool.cancellers if "Reaction" in f.types]
            if reactions and others and rng.random() < 0.3:
                canceller = Canceller(card=pick(reactions), minion=pick(others), level=pick((None, "superior")))
            return PlayCard(card=pick(pool.modifiers), minion=a.actor, level=pick((None, "superior")),
                            cancelled=canceller is not None, canceller=canceller)
    kind = pick(("modifier", "reaction", "master") if a.attempt else ("modifier", "master"))
    if kind == "modifier":
        return PlayCard(card=CARDS[pick(("bleed modifier", "stealth modifier"))], minion=a.actor,
                        level=pick((None, "superior")), cancelled=rng.random() < 0.1 and state.edition == CURRENT)
    if kind == "reaction":
        return PlayCard(card=CARDS["reaction"], minion=a.attempt.blocker, level=pick((None, "superior")))
    return PlayCard(card=CARDS["out-of-turn"], player=pick(seated), effect=CardEffect(pool=((pick(seated), -1),)))


def _named_action(m, state, seated, rng, new_name):
    return PlayCard(card=CARDS["action"], minion=m.name, level=rng.choice((None, "superior")),
                    cancelled=rng.random() < 0.1 and state.edition == CURRENT)


def _in_torpor(state):
    return [v for v in state.minions.values() if v.region == TORPOR and v.kind == VAMPIRE]


def _leave_torpor(m, state, seated, rng, new_name):
    mine = [v for v in _in_torpor(state) if v.controller == state.turn]
    return LeaveTorpor(actor=rng.choice(mine).name if mine else m.name)


def _rescue(m, state, seated, rng, new_name):
    torpid = _in_torpor(state)
    target = rng.choice(torpid).name if torpid else m.name
    return Rescue(actor=m.name, target=target, rescued_pays=rng.choice([0, 0, 1, 2]))


def _diablerize(m, state, seated, rng, new_name):
    torpid = _in_torpor(state)
    return Diablerize(actor=m.name, victim=rng.choice(torpid).name if torpid else m.name,
                      take_all=rng.random() < 0.5, discipline="Presence" if rng.random() < 0.2 else None)


def _card_combat(m, state, seated, rng, new_name):
    others = [o.name for o in state.minions.values() if o.name != m.name]
    return EnterCombat(minion=m.name, other=rng.choice(others) if others else m.name, source="Bum's Rush")


def _damage(m, state, seated, rng, new_name):
    victim = rng.choice([v for v in state.minions.values() if v.region in (READY, TORPOR)] or [m])
    return InflictDamage(minion=victim.name, normal=rng.choice([0, 1, 2]), aggravated=rng.choice([0, 0, 1]) or 1,
                         source=rng.choice([None, "crows"]))


def _red_list(m, state, seated, rng, new_name):
    others = [o.name for o in state.minions.values() if o.controller != m.controller] or [m.name]
    return RedListHunt(actor=m.name, target=rng.choice(others))


def _combat_action(m, state, seated, rng, new_name):
    """The action to enter combat a vampire's own card may give (refused when it gives none); a minion described
    without its card (not modelled there) goes after a Red List minion instead, so that games go on."""
    if not m.text_read:
        return _red_list(m, state, seated, rng, new_name)
    others = [o.name for o in state.minions.values() if o.name != m.name] or [m.name]
    return CombatAction(actor=m.name, target=rng.choice(others))


def _sterile_card(m, state, seated, rng, new_name):
    return ActionCard(actor=m.name, card="Embrace", puts_vampire=True, stealth=rng.choice([0, 1]))


def _strike_spec(rng: random.Random, other) -> tuple:
    kind = rng.choice(["hand", "hand", "damage", "damage", "dodge", "combat ends", "steal blood", "destroy equipment",
                       "steal equipment"])
    if kind in ("destroy equipment", "steal equipment"):
        return StrikeSpec(kind=kind, equipment=other.equipment[0] if other and other.equipment else None), None
    if kind == "hand":
        return StrikeSpec(kind="hand"), "hand"
    return (StrikeSpec(kind=kind, amount=rng.randint(1, 3), ranged=rng.random() < 0.3,
                       aggravated=rng.random() < 0.2, first=rng.random() < 0.2), None)


def _combat_candidates(state, rng, add, pick):
    c = state.combat
    fighters = [c.acting, c.opposing]
    out = []
    add = out.append

    def strike():
        who = pick(fighters)
        other = state.minions.get(c.other(who))
        spec, via = _strike_spec(rng, other)
        me = state.minions.get(who)
        source = "Gun" if (me and "Gun" in me.equipment and rng.random() < 0.5) else None
        retainer = None
        if other and other.retainers and rng.random() < 0.3:
            retainer = f"{other.name}/{other.retainers[0].name}"
        return ChooseStrike(minion=who, spec=spec, source=source, via=via if not source else None, retainer=retainer)

    for maker in (lambda: Maneuver(minion=pick(fighters), source=pick([None, "Gun", "Card"]),
                                   via=pick([None, "strike card", "card"]),
                                   strike=StrikeSpec(kind="damage", amount=rng.randint(1, 3), ranged=True)),
                  lambda: NoManeuver(minion=pick(fighters + [None])),
                  strike, strike, strike, strike,
                  lambda: GainStrikes(minion=pick(fighters), count=rng.randint(1, 2), source=pick([None, "Blur"]))
                  if (c.pair or c.step == "damage" or rng.random() < 0.1) else Pass(),
                  lambda: Prevent(minion=pick(fighters), amount=rng.randint(1, 2),
                                  aggravated=pick([None, True, False])),
                  lambda: NoPrevent(minion=pick(fighters)),
                  # what a combatant's own card gives for blood (refused when it gives none)
                  lambda: AggravateHands(minion=pick(fighters)) if rng.random() < 0.5 else Pass(),
                  lambda: Press(minion=pick(fighters), to_continue=rng.random() < 0.6),
                  lambda: Press(minion=pick(fighters), to_continue=rng.random() < 0.6),
                  lambda: NoPress(),
                  lambda: InflictDamage(minion=pick(fighters), normal=1, aggravated=rng.choice([0, 1])),
                  lambda: Pass(),
                  lambda: CombatOver() if rng.random() < 0.3 else Pass(),
                  lambda: EndTurn() if rng.random() < 0.2 else NoPress()):  # an event outside: the combat plays out
        add(maker)
    slaves = [m.name for m in state.minions.values() if any(t.startswith("slave") for t in m.traits)]
    if slaves and c.round == 1 and c.step == "before range":
        add(lambda: SlaveTakesOver(slave=pick(slaves)))
    return out


def _referendum_candidates(state, rng, add, pick, seated):
    r = state.referendum
    out = []
    add = out.append
    vampires = [m for m in state.minions.values() if m.kind == VAMPIRE]
    side = lambda: pick(["for", "against"])  # noqa: E731
    if vampires:
        add(lambda: CastVote(player=None, side=side(), kind="vampire", minion=pick(vampires).name))
        add(lambda: CastVote(player=None, side=side(), kind="vampire", minion=pick(vampires).name))
        add(lambda: CastVote(player=None, side=side(), kind="ballot", minion=pick(vampires).name))
    add(lambda: CastVote(player=pick(seated), side=side(), kind="edge", source="the Edge"))
    add(lambda: CastVote(player=pick(seated), side=side(), kind="named", source=pick([r.card or "P9", "P9"])))
    add(lambda: CastVote(player=pick(seated), side=side(), kind="card", source=pick(["C1", "C2"]),
                         count=rng.randint(1, 2)))
    add(lambda: Terms(player=pick(seated), effect=CardEffect(pool=((pick(seated), -1),))))
    if vampires:  # the vampire a title card's terms choose (refused for another referendum)
        add(lambda: Terms(player=pick([r.player, *seated]), chosen=pick(vampires).name))
        tc = titles.needs_choice(r)
        fitting = [m for m in vampires if tc is not None and traits.in_play(m) and titles.fits(tc, m)]
        if fitting:  # the caller's choice, often enough to be drawn
            for _ in range(3):
                add(lambda: Terms(player=r.player, chosen=pick(fitting).name))
    if referendum_effects.needs_allocation(r) is not None:  # points allocated, right or wrong
        for _ in range(3):
            add(lambda: Terms(player=r.player, allocate=tuple((p, rng.randint(0, 3)) for p in seated)))
    add(lambda: ClosePolling())
    if r.kind == "blood hunt":
        add(lambda: Modifier(minion=r.caller, stealth=1))
    add(lambda: EndTurn() if rng.random() < 0.3 else ClosePolling())
    return out


def _blood_effect(m, state, seated, rng, new_name):
    return Effect(effect=CardEffect(blood=((m.name, rng.randint(-2, 2)),)))


# -- invariants ------------------------------------------------------------------------------
def invariant_violations(state: GameState, total: int) -> list[str]:
    bad = []
    if counters_in_play(state) + state.bank != total:
        bad.append(f"counters not conserved: {counters_in_play(state)} in play + {state.bank} banked != {total}")
    for p in state.players.values():
        if p.pool < 0 or p.hand < 0 or (p.library is not None and p.library < 0) or (p.crypt is not None and p.crypt < 0):
            bad.append(f"negative counter for {p.name}: {p}")
        if p.ousted and (p.pool != 0 or any(m.controller == p.name for m in state.minions.values())):
            bad.append(f"{p.name} is ousted but keeps pool or cards")
    for m in state.minions.values():
        if m.blood < 0 or any(r.life < 0 for r in m.retainers):
            bad.append(f"negative blood/life on {m.name}")
        if m.kind == VAMPIRE and m.region in (READY, TORPOR) and m.blood > m.capacity:
            bad.append(f"{m.name} has {m.blood} blood above capacity {m.capacity}")
    face_up: dict = {}
    for m in state.minions.values():
        if m.controlled and not m.contested:
            face_up.setdefault(m.card, []).append(m.name)
    bad += [f"{card} has {len(copies)} copies in play, none contested: {copies}"
            for card, copies in face_up.items() if len(copies) > 1]
    bad += [f"{c.name} is in play under {c.controller}, who is ousted" for c in state.cards
            if state.players[c.controller].ousted]  # (a withdrawn one's cards stay, as its minions do)
    ps = state.phase_state
    if min(ps.master_actions, ps.transfers, ps.discard_actions) < 0:
        bad.append(f"negative phase counter: {ps}")
    if state.edge is not None and (state.edge not in state.players or not state.players[state.edge].seated):
        bad.append(f"the Edge is held by {state.edge}, who is not at the table")
    if state.action is not None and (state.phase != "minion" or state.combat is not None):
        bad.append("an action in progress outside the minion phase, or beside a combat")
    stages = [x for x in (state.action, state.combat, state.referendum, state.chance) if x is not None]
    if len(stages) > 1:
        bad.append(f"more than one open stage: {[type(x).__name__ for x in stages]}")
    if not state.result.over and len(state.seated()) < 2:
        bad.append("fewer than two Methuselahs but the game is not over")
    bad += _combat_violations(state)
    bad += _referendum_violations(state)
    for m in state.minions.values():
        burning = state.combat is not None and m.name in state.combat.burning
        if m.kind == ALLY and m.blood <= 0 and not burning and not (m.recruited and m.region == UNCONTROLLED):
            bad.append(f"the ally {m.name} has no life left but is still in play")
        if any(r.life <= 0 for r in m.retainers):
            bad.append(f"a retainer of {m.name} has no life left but is still in play")
    if state.chance is not None:
        ch = state.chance
        victim = state.minions.get(ch.victim)
        if victim is None or victim.region != TORPOR or ch.blocker not in state.minions:
            bad.append(f"a diablerie chance on {ch.victim}, who is not in torpor, or by a blocker not in play")
    return bad


def _combat_violations(state: GameState) -> list[str]:
    c = state.combat
    if c is None:
        return []
    bad = []
    if c.step not in COMBAT_STEPS or c.range not in (None, "close", "long"):
        bad.append(f"combat in an unknown step or range: {c.step}, {c.range}")
    fighters = [state.minions.get(n) for n in (c.acting, c.opposing)]
    if not c.ended:
        if None in fighters:
            bad.append(f"a combatant left play but the combat goes on: {c.acting} vs {c.opposing}")
        elif fighters[0].controller == fighters[1].controller:
            bad.append(f"combat between two minions of {fighters[0].controller}")
    for m in fighters:
        if m is not None and m.region == TORPOR:
            bad.append(f"{m.name} is in torpor and in combat")
    if any(n < 0 for _, n in c.extra) or any(x.amount <= 0 for x in c.damage):
        bad.append(f"negative additional strikes or empty damage: {c.extra}, {c.damage}")
    return bad


def _referendum_violations(state: GameState) -> list[str]:
    r = state.referendum
    if r is None:
        return []
    bad = []
    sources = [(v.player, v.source.lower(), v.kind) for v in r.votes if v.kind not in ("vampire", "ballot")]
    if len(sources) != len(set(sources)):
        bad.append(f"a vote source was cast twice: {r.votes}")
    for who in {v.player for v in r.votes}:
        cards = [v for v in r.votes if v.player == who and v.kind in ("political card", "calling card")]
        if len(cards) > 1:
            bad.append(f"{who} has {len(cards)} votes from political action cards")
    for v in r.votes:
        if v.kind in ("vampire", "ballot"):
            sides = {x.side for x in r.votes if x.source == v.source and x.kind in ("vampire", "ballot")}
            if len(sides) > 1:
                bad.append(f"{v.source}'s votes and ballots are split")
    if r.kind == "blood hunt" and (r.step != "polling" or r.card_voters and r.card):
        bad.append(f"a blood hunt referendum with terms or a calling card: {r}")
    return bad


def transition_violations(before: GameState, after: GameState) -> list[str]:
    """What must hold across a transition: combat outcomes take effect, a passed blood hunt burns."""
    bad = []
    c = before.combat
    if c is not None and after.combat is None:
        for name in c.wounded:
            m = after.minions.get(name)
            if m is not None and m.region != TORPOR and name not in c.burning:
                bad.append(f"{name} was going to torpor, but the combat is over and it is {m.region}")
        for name in c.burning:
            if name in after.minions:
                bad.append(f"{name} was being burned, but the combat is over and it is still in play")
    r = before.referendum
    if r is not None and after.referendum is None and r.kind == "blood hunt" and r.caller in before.minions:
        prisci = r.prisci()
        yes = r.total("for") + (3 if prisci == "for" else 0)
        no = r.total("against") + (3 if prisci == "against" else 0)
        if yes > no and r.caller in after.minions:
            bad.append(f"the blood hunt on {r.caller} passed {yes} to {no}, but {r.caller} is still in play")
    return bad


def _entries_cited(entries, edition: str) -> list[str]:
    return [e.text for e in entries if not any(r.cites(edition) for r in e.rules)]


@dataclass
class GameReport:
    events: int = 0
    refused: int = 0
    ended_by: str = "limit"
    violations: list[str] = field(default_factory=list)
    combats: int = 0  # combats that ended
    rounds: int = 0  # rounds beyond the first
    referendums: int = 0  # referendums that closed
    blood_hunts: int = 0
    torpor: int = 0  # vampires sent to torpor
    diableries: int = 0
    stopped_by: str = ""  # the not-modelled message that ended the game
    named_cards: int = 0  # cards named from the card base that were played (cards.py)
    pool_cards: int = 0  # of them, real cards of the card base (`CardPool`) the engine played
    titles: int = 0  # titles gained as a referendum closed (a title card's, `CardPool.titles`)
    masters: int = 0  # master cards with an effect on a minion played (`CardPool.masters`)
    rules: Counter = field(default_factory=Counter)  # rules applied or refusing, by name: what the games reached


def _titles_gained(before: GameState, after: GameState) -> int:
    """Vampires whose title changed to a new one between the two states."""
    return sum(1 for m in after.minions.values() if m.title and m.name in before.minions
               and before.minions[m.name].title != m.title)


def play(rng: random.Random, max_events: int = 150, max_tries: int = 25,
         pool: "Optional[CardPool]" = None) -> GameReport:
    state = random_table(rng, pool)
    total = counters_in_play(state) + state.bank
    report = GameReport()
    report.violations += invariant_violations(state, total)
    namer = _Namer(pool)
    while report.events < max_events:
        if state.result.over:
            report.ended_by = "game over"
            break
        applied = False
        options = candidates(state, rng, namer)
        # `max_tries` draws, weighted as the candidates are listed; then, before the game is called stuck, each
        # candidate once more in turn (a legal one drawn too rarely is still found)
        for make in _draws(rng, options, max_tries):
            event = make()
            before = state
            try:
                if core.needs_settle(state, event):
                    state, entries = core.settle(state)
                    _check(report, before, state, entries, total)
                    report.titles += _titles_gained(before, state)
                    applied = True
                    break  # the situation changed: draw new candidates
                state, entries = core.apply(state, event)
                report.named_cards += isinstance(event, (PlayCard, BurnOption))
                report.pool_cards += isinstance(event, PlayCard) and not event.card.id.startswith("random:")
                report.masters += isinstance(event, PlayCard) and pool is not None and event.card in pool.masters
                report.titles += _titles_gained(before, state) if isinstance(event, ClosePolling) else 0
            except Refusal as stop:
                report.refused += 1
                report.rules.update(r.name for r in stop.rules)
                if not any(r.cites(state.edition) for r in stop.rules):
                    report.violations.append(f"refusal without a citation: {stop.message}")
                continue
            except NotModelled as stop:
                report.ended_by = "not modelled"
                report.stopped_by = stop.message
                return report
            _check(report, before, state, entries, total)
            report.events += 1
            applied = True
            break
        if not applied:
            report.ended_by = "stuck"  # every candidate refused (e.g. a pending obligation none of them meets)
            break
    return report


def _draws(rng: random.Random, options: list, tries: int):
    """The candidates to try, drawn as they come (the random stream is the same while one is applied)."""
    for _ in range(tries):
        yield rng.choice(options)
    yield from rng.sample(options, len(options))


def _check(report: GameReport, before: GameState, state: GameState, entries, total: int) -> None:
    report.violations += invariant_violations(state, total)
    report.violations += transition_violations(before, state)
    report.violations += [f"log entry without a citation: {t}" for t in _entries_cited(entries, state.edition)]
    if before.combat is not None and state.combat is None:
        report.combats += 1
    if before.combat is not None and state.combat is not None and state.combat.round > before.combat.round:
        report.rounds += 1
    if before.referendum is not None and state.referendum is None:
        report.referendums += 1
        report.blood_hunts += before.referendum.kind == "blood hunt"
    for e in entries:
        report.rules.update(r.name for r in e.rules)
        report.torpor += R.TORPOR_GOING in e.rules
        report.diableries += R.DIABLERIE_STEPS in e.rules and e.text.startswith("Diablerie, step 1")


def play_many(games: int, seed: int = 0, max_events: int = 150,
              pool: "Optional[CardPool]" = None) -> list[GameReport]:
    rng = random.Random(seed)
    return [play(rng, max_events, pool=pool) for _ in range(games)]
