"""The forms of the turn, its phases and the actions: every sentence and structured form of docs/scenarios.md's
"Turn and phases" to "Covered by the rules, not by this engine" sections, with the event each builds."""
from __future__ import annotations

import re

from judge.engine.errors import ScenarioError
from judge.engine.vtes.cards import modelled
from judge.engine.vtes.events import (AbilityBleed, ActionCard, BecomeAnarch, Bleed, Block, BurnFor, CardEffect, CombatAction, ContestCard,
                                 TargetAction,
                                 ContestTitle, CryptDraw, Decline, Discard, EdgePool, Effect, Employ, EndTurn, Equip, GoToPhase,
                                 Hunt, Influence, MasterCard, Modifier, Pass, Political, Reaction, Recruit,
                                 TransferBack, TransferPool, TurnOf, Unmodelled, UnlockInfernal, UnlockSelf, Withdraw)
from judge.engine.vtes.forms import (PHASE_NAMES, FormTable, card_name, cost_of, effect_of, minion_of, number, parse_props,
                                player_of)

FORMS = FormTable()


# -- sentences ---------------------------------------------------------------------------------------
# Turn and phases
@FORMS.wording(r"(?:{P}(?:'s)? )?(?:the )?(?P<ph>unlock|master|minion|influence|discard) phase(?: begins| starts)?",
               "minion phase")
def _phase(m, names, line, text):
    return GoToPhase(phase=m.group("ph").lower(), player=player_of(m, names, line) if m.group("p") else None,
                     line=line, text=text)


@FORMS.wording(r"{P} (?:enters|moves to|goes to|begins|starts) {PRON} (?P<ph>unlock|master|minion|influence|discard) phase",
               "Sarah enters her influence phase")
def _phase2(m, names, line, text):
    return GoToPhase(phase=m.group("ph").lower(), player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"(?:end of (?:the )?turn|the turn ends|{P} ends {PRON} turn)", "end of turn")
def _end_turn(m, names, line, text):
    return EndTurn(player=player_of(m, names, line) if m.group("p") else None, line=line, text=text)


@FORMS.wording(r"(?:it is )?{P}'s (?P<next>next )?turn(?: begins| starts)?", "Alexis's turn")
def _turn_of(m, names, line, text):
    return TurnOf(player=player_of(m, names, line), next=bool(m.group("next")), line=line, text=text)


@FORMS.wording(r"(?:the )?turn passes to {P}", "turn passes to Alexis")
def _turn_passes(m, names, line, text):
    return TurnOf(player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"(?:pass|everyone passes|all pass|{P} passes|(?:the )?action (?:resolves|succeeds)|resolve(?: the action)?)",
               "Sarah passes")
def _pass(m, names, line, text):
    return Pass(player=player_of(m, names, line) if m.group("p") else None, line=line, text=text)


# Unlock phase
@FORMS.wording(r"{P} (?:gains|takes|gets) (?:1|one) pool (?:from|for) (?:having |holding )?the edge", "Sarah gains 1 pool from the Edge")
def _edge_pool(m, names, line, text):
    return EdgePool(player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{M} (?:pays (?:1|one) blood to )?(?:contest|contests|keeps contesting) {PRON} title", "Belinde pays 1 blood to contest her title")
def _title_pay(m, names, line, text):
    return ContestTitle(minion=minion_of(m, names, line), pay=True, line=line, text=text)


@FORMS.wording(r"{M} yields {PRON} title", "Belinde yields her title")
def _title_yield(m, names, line, text):
    return ContestTitle(minion=minion_of(m, names, line), pay=False, line=line, text=text)


@FORMS.wording(r"{P} (?:pays (?:1|one) pool to (?:keep )?contest(?:ing)?|contests|keeps contesting) (?P<x>.+)", "Sarah pays 1 pool to contest Carna")
def _contest_pay(m, names, line, text):
    return ContestCard(player=player_of(m, names, line), card=card_name(m.group("x")), pay=True, line=line, text=text)


@FORMS.wording(r"{P} yields (?P<x>.+)", "Sarah yields Carna")
def _contest_yield(m, names, line, text):
    return ContestCard(player=player_of(m, names, line), card=card_name(m.group("x")), pay=False, line=line, text=text)


@FORMS.wording(r"{M} (?:burns {N} blood to unlock(?: (?:with|by) {PRON} (?:card's |special )?ability| as {PRON} card allows)?"
               r"|unlocks (?:(?:with|by) {PRON} (?:card's |special )?ability|as {PRON} card allows))",
               "Antonio Veradas burns 1 blood to unlock")
def _unlock_self(m, names, line, text):
    n = number(m.group("n")) if m.group("n") else None
    return UnlockSelf(minion=minion_of(m, names, line), pays="blood" if n is not None else None, blood=n, line=line,
                      text=text)


@FORMS.wording(r"(?:{P} burns the Edge to unlock {M}|{M2} burns the Edge to unlock)", "Sarah burns the Edge to unlock Emily Carson")
def _unlock_self_edge(m, names, line, text):
    return UnlockSelf(minion=minion_of(m, names, line, "m" if m.group("m") else "m2"), pays="edge", line=line, text=text)


@FORMS.wording(r"{P} burns (?:1|one) pool to unlock {M}", "Sarah burns 1 pool to unlock Lucinde")
def _infernal(m, names, line, text):
    return UnlockInfernal(player=player_of(m, names, line), minion=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{P} (?:announces|declares) (?:{PRON}|an?) (?:intent(?:ion)? to withdraw|withdrawal)", "Sarah announces her withdrawal")
def _withdraw(m, names, line, text):
    return Withdraw(player=player_of(m, names, line), line=line, text=text)


# Master phase
@FORMS.wording(r"{P} plays (?:(?P<x>[^,:]+?), )?an? (?P<oot>out-of-turn )?(?P<kind>master card|trifle|master trifle)(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "Sarah plays Blood Doll, a master card: trifle, costing 1 pool")
def _master(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "master card")
    return MasterCard(player=player_of(m, names, line), card=card_name(m.group("x") or props.name),
                      trifle=props.trifle or "trifle" in m.group("kind").lower(),
                      out_of_turn=bool(m.group("oot")) or props.out_of_turn, cost_pool=props.cost_pool,
                      location=bool(props.extra.get("location")), unique=bool(props.extra.get("unique")),
                      line=line, text=text)


# Minion phase: actions
@FORMS.wording(r"{M} (?:bleeds|attempts to bleed)(?: {P})?(?: for {N}(?: pool)?)?", "Belinde bleeds Alexis")
def _bleed(m, names, line, text):
    return Bleed(actor=minion_of(m, names, line), target=player_of(m, names, line) if m.group("p") else None,
                 amount=number(m.group("n")) if m.group("n") else None, line=line, text=text)


@FORMS.wording(r"{M} (?:bleeds|attempts to bleed)(?: {P})? (?:with|by|using|as allowed by) {PRON} (?:card's |special )?ability",
               "The Arcadian bleeds Alexis with his ability")
def _ability_bleed(m, names, line, text):
    return AbilityBleed(actor=minion_of(m, names, line), target=player_of(m, names, line) if m.group("p") else None,
                        line=line, text=text)


@FORMS.wording(r"{M} (?:hunts|attempts to hunt|goes hunting)", "Ira hunts")
def _hunt(m, names, line, text):
    return Hunt(actor=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{M} (?:equips|attempts to equip) (?:with |itself with |herself with |himself with )?(?P<x>.+?)(?: from {M2})?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "Belinde equips with a .44 Magnum, costing 2 pool")
def _equip(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "equipment")
    items = equipment_list(m.group("x"), bool(m.group("m2")))
    return Equip(actor=minion_of(m, names, line), item=items[0], more=tuple(items[1:]),
                 source=minion_of(m, names, line, "m2") if m.group("m2") else None, cost=props.cost,
                 unique=bool(props.extra.get("unique")), line=line, text=text)


def equipment_list(text: str, from_minion: bool) -> list[str]:
    """The equipment an equip sentence names: "X and Y" (or "X, Y and Z") from another minion; from the hand only
    when each one has its article ("a .44 Magnum and a Flak Jacket"), since a card's own name may hold an "and"."""
    parts = [p for p in re.split(r"\s*(?:,|\band\b)\s*", text.strip()) if p]
    if len(parts) > 1 and (from_minion or all(re.match(r"(?:a|an|the|her|his|its|their) ", p, re.I) for p in parts)):
        return [card_name(p) for p in parts]
    return [card_name(text)]


@FORMS.wording(r"{M} (?:employs|attempts to employ) (?:a retainer,? )?(?P<x>.+?)(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "Belinde employs a Raven: retainer, life 1, costing 1 blood")
def _employ(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "retainer")
    retainer = card_name(m.group("x"))
    return Employ(actor=minion_of(m, names, line), retainer=retainer, life=props.life or 1, cost=props.cost,
                  **_retainer_gives(names, retainer), line=line, text=text)


def _retainer_gives(names, retainer: str) -> dict:
    """A described employ of a retainer card the card base knows: what its card gives its employer goes with it (read
    at its basic level, retainers.py), and its text not read becomes the employer's (stopping where it could matter),
    never dropped; the rest of the description is the scenario's."""
    facts = names.cards.lookup(retainer) if names.cards is not None else None
    if facts is None or tuple(facts.types) != ("Retainer",):
        return {}
    rt = modelled(facts, None).retainer
    return {"bonuses": rt.bonuses, "abilities": rt.abilities, "unread": rt.unread}


@FORMS.wording(r"{M} (?:recruits|attempts to recruit) (?:an ally,? )?(?P<x>.+?)(?: at \+(?P<st>\d+) stealth)?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "The Dowager recruits the Underbridge Stray at +1 stealth, costing The Dowager 1 blood")
def _recruit(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "ally")
    ally = card_name(m.group("x"))
    names.add_minion(ally, line)
    return Recruit(actor=minion_of(m, names, line), ally=ally, life=props.life or 1, bleed=props.ally_bleed or 1,
                   strength=props.strength or 1, stealth=int(m.group("st")) if m.group("st") else None,
                   cost=props.cost, line=line, text=text)


@FORMS.wording(r"{M} (?:becomes|attempts to become) (?:an )?anarch", "Belinde becomes anarch")
def _anarch(m, names, line, text):
    return BecomeAnarch(actor=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{M} (?:locks|attempts to lock|tries to lock) {M2} as {PRON} (?:\(D\) )?action", "Gabrin locks Carna as his action")
def _lock_action(m, names, line, text):
    return TargetAction(actor=minion_of(m, names, line), target=minion_of(m, names, line, "m2"), verb="lock", line=line,
                        text=text)


@FORMS.wording(r"{M} (?:steals|attempts to steal|tries to steal) {N} (?:blood|life) from {M2} as {PRON} (?:\(D\) )?action",
               "Etrius steals 2 blood from Carna as his action")
def _steal_action(m, names, line, text):
    return TargetAction(actor=minion_of(m, names, line), target=minion_of(m, names, line, "m2"), verb="steal blood",
                        amount=number(m.group("n")), line=line, text=text)


@FORMS.wording(r"{M} (?:enters|attempts to enter|tries to enter) combat with {M2} as {PRON} (?:\(D\) )?action",
               "Dorka enters combat with Carna as her action")
@FORMS.wording(r"{M} (?:takes|performs|announces) (?:an|{PRON}) (?:\(D\) )?action to enter combat with {M2}",
               "Dorka takes an action to enter combat with Carna")
def _combat_action(m, names, line, text):
    return CombatAction(actor=minion_of(m, names, line), target=minion_of(m, names, line, "m2"), line=line, text=text)


@FORMS.wording(r"{M} plays (?:(?P<x>[^,:]+?), )?an action card(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "Krid plays Computer Hacking, an action card: bleed at +1")
def _action_card(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "action card")
    directed = True if (props.directed_at or props.extra.get("directed")) else (False if props.undirected else None)
    return ActionCard(actor=minion_of(m, names, line), card=card_name(m.group("x") or props.name),
                      as_=props.as_, targets=tuple(props.directed_at), directed=directed, stealth=props.stealth,
                      bleed=props.bleed, hunt=props.hunt, any_target=bool(props.extra.get("any_target")),
                      cost=props.cost, puts_vampire=bool(props.extra.get("puts_vampire")), line=line, text=text)


@FORMS.wording(r"{M} (?:plays (?:(?P<x>[^,:]+?), )?a political action(?: card)?|calls a referendum)(?:[:,] (?P<props>.+))?",
               "Belinde plays Parity Shift, a political action")
def _political(m, names, line, text):
    props = parse_props(m.group("props"), names, line, "political action")
    return Political(actor=minion_of(m, names, line), card=card_name(m.group("x")), cost=props.cost, line=line, text=text)


# Minion phase: during an action
@FORMS.wording(r"{M} burns {N} blood (?:for|to get) (?:\+(?P<amount>\d+) )?(?P<stat>stealth|bleed|intercept)"
               r"(?: (?:with|from|by) {PRON} (?:card's |special )?ability| as {PRON} card allows)?",
               "Chavi Oraczko burns 1 blood for +1 stealth")
def _burn_for(m, names, line, text):
    return BurnFor(minion=minion_of(m, names, line), stat=m.group("stat").lower(),
                   amount=int(m.group("amount")) if m.group("amount") else None, blood=number(m.group("n")), line=line,
                   text=text)


@FORMS.wording(r"{M} plays (?:(?P<x>[^,:]+?), )?an action modifier(?: card)?(?:(?: for|:|,) (?P<props>.+)| \((?P<props2>.+)\))?",
               "Belinde plays an action modifier: +1 bleed (limited)")
def _modifier(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "action modifier")
    return Modifier(minion=minion_of(m, names, line), card=card_name(m.group("x") or props.name), stealth=props.stealth,
                    bleed=props.bleed, hunt=props.hunt, limited=props.limited, cost=props.cost, line=line, text=text)


@FORMS.wording(r"{M} plays (?:(?P<x>[^,:]+?), )?a reaction(?: card)?(?:(?: for|:|,) (?P<props>.+)| \((?P<props2>.+)\))?",
               "Carna plays a reaction for +1 intercept")
def _reaction(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "reaction")
    return Reaction(minion=minion_of(m, names, line), card=card_name(m.group("x") or props.name), intercept=props.intercept,
                    to=props.to, cost=props.cost, bleed=props.bleed, redirect=props.extra.get("redirect"),
                    wake=bool(props.extra.get("wake")), line=line, text=text)


@FORMS.wording(r"(?:{M} (?:blocks|attempts to block|tries to block)|{P} (?:blocks|attempts to block|tries to block) with {M2})(?: the action)?",
               "Carna attempts to block")
def _block(m, names, line, text):
    return Block(blocker=minion_of(m, names, line, "m" if m.group("m") else "m2"), line=line, text=text)


@FORMS.wording(r"{P} (?:declines to block|does not block|doesn't block|declines|will not block|passes on blocking|makes no (?:more |further )?block attempts?)",
               "Alexis declines to block")
def _decline(m, names, line, text):
    return Decline(player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"(?:no block|no blocks|nobody blocks|no one blocks|the action is not blocked|not blocked)",
               "nobody blocks")
def _decline_all(m, names, line, text):
    return Decline(player=None, line=line, text=text)


# Influence phase
@FORMS.wording(r"{P} (?:moves|transfers|puts|spends \w+ transfers? to move) {N} pool (?:on|to|onto) {M}", "Nora moves 2 pool to Alexa Draper")
def _transfer_pool(m, names, line, text):
    return TransferPool(player=player_of(m, names, line), vampire=minion_of(m, names, line), amount=number(m.group("n")),
                        line=line, text=text)


@FORMS.wording(r"{P} (?:moves|takes|spends \w+ transfers? to (?:move|take)) {N} blood (?:back )?(?:from|off) {M}(?: back)?(?: to {PRON} pool)?",
               "Nora takes 1 blood back from Sybren van Oosten")
def _transfer_back(m, names, line, text):
    return TransferBack(player=player_of(m, names, line), vampire=minion_of(m, names, line), amount=number(m.group("n")),
                        line=line, text=text)


@FORMS.wording(r"{P} (?:moves|draws) (?P<x>.+?) from {PRON} crypt(?: (?:to|into) {PRON} uncontrolled region)?(?:[:,] (?P<props>.+)| \((?P<props2>.+)\))?",
               "Nora moves Tariq from her crypt to her uncontrolled region: capacity 5")
def _crypt(m, names, line, text):
    props = parse_props(m.group("props") or m.group("props2"), names, line, "crypt")
    if props.capacity is None:
        raise ScenarioError("a vampire drawn from the crypt needs its capacity (e.g. ': capacity 5')", line)
    vampire = card_name(m.group("x"))
    names.add_minion(vampire, line)
    return CryptDraw(player=player_of(m, names, line), vampire=vampire, capacity=props.capacity,
                     props=tuple(sorted(props.extra.items())), line=line, text=text)


@FORMS.wording(r"{P} (?:moves|influences(?: out)?|takes control of|brings) {M}(?: (?:face up )?(?:in)?to {PRON} ready region| out| into play)?",
               "Nora moves Alexa Draper to the ready region")
def _influence(m, names, line, text):
    return Influence(player=player_of(m, names, line), vampire=minion_of(m, names, line), line=line, text=text)


# Discard phase
@FORMS.wording(r"{P} (?:discards a card|uses {PRON} discard phase action to discard a card)(?: and draws(?: another| a card)?)?",
               "Sarah discards a card")
def _discard(m, names, line, text):
    return Discard(player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{P} plays (?:(?P<x>[^,:]+?), )?an event(?: card)?", "Sarah plays an event card")
def _event_card(m, names, line, text):
    return Discard(player=player_of(m, names, line), event_card=True, line=line, text=text)


# Described card effects
@FORMS.wording(r"{P} (?P<verb>burns|loses|pays|spends|gains|gets) {N} pool", "Steve burns 3 pool")
def _pool_effect(m, names, line, text):
    n = number(m.group("n"))
    sign = 1 if m.group("verb").lower() in ("gains", "gets") else -1
    return Effect(effect=CardEffect(pool=((player_of(m, names, line), sign * n),)), line=line, text=text)


@FORMS.wording(r"{P} (?:burns all (?:of )?{PRON} pool|is ousted|loses all (?:of )?{PRON} pool)", "Steve burns all his pool")
def _all_pool(m, names, line, text):
    return Effect(effect=CardEffect(pool=((player_of(m, names, line), None),)), line=line, text=text)


@FORMS.wording(r"{M} (?P<verb>burns|loses|pays|gains|gets) {N} (?:blood|life)", "Belinde burns 1 blood")
def _blood_effect(m, names, line, text):
    n = number(m.group("n"))
    sign = 1 if m.group("verb").lower() in ("gains", "gets") else -1
    return Effect(effect=CardEffect(blood=((minion_of(m, names, line), sign * n),)), line=line, text=text)


@FORMS.wording(r"(?:an effect (?P<st>locks|unlocks) {M}|{M2} (?:is (?P<st2>locked|unlocked)|(?P<st3>locks|unlocks)))",
               "an effect unlocks Belinde")
def _lock_effect(m, names, line, text):
    state = (m.group("st") or m.group("st2") or m.group("st3")).lower()
    who = minion_of(m, names, line, "m" if m.group("m") else "m2")
    unlock = state.startswith("unlock")
    return Effect(effect=CardEffect(unlock=(who,)) if unlock else CardEffect(lock=(who,)), line=line, text=text)


@FORMS.wording(r"{P}'s hand size (?:becomes|is now|is) {N}", "Sarah's hand size becomes 8")
def _hand_size(m, names, line, text):
    return Effect(effect=CardEffect(hand_size=((player_of(m, names, line), number(m.group("n"))),)), line=line, text=text)


@FORMS.wording(r"(?:an effect redirects the bleed|the bleed is redirected|a card redirects the bleed) to {P}",
               "the bleed is redirected to Bob")
def _redirected(m, names, line, text):
    """A bleed redirected by an effect the scenario does not name: block attempts reopen for the new target."""
    return Effect(effect=CardEffect(redirect=player_of(m, names, line)), source="a card's effect", line=line,
                  text=text)


# Covered by the rules, not by this engine
@FORMS.wording(r"(?!.*\bplays\b)(?:.+ )?(?:redirects|is redirected|changes the target).*",
               "the action is redirected to Carna")
def _redirect(m, names, line, text):
    return Unmodelled(what="changing the target of an action (redirection reopens block attempts)",
                      rules=("BLOCK_DECLINE_FINAL",), line=line, text=text)


# -- structured forms ----------------------------------------------------------------------------------
@FORMS.structured("phase", ("player",), "{phase: influence}")
def _s_phase(d, names, line, text):
    phase = str(d["phase"]).lower().replace(" phase", "")
    if phase not in PHASE_NAMES:
        raise ValueError(f"phase must be one of {', '.join(PHASE_NAMES)}")
    return GoToPhase(phase=phase, player=names.canon_player(d["player"], line) if d.get("player") else None,
                     line=line, text=text)


@FORMS.structured("end_turn", (), "{end_turn: true}")
def _s_end_turn(d, names, line, text):
    return EndTurn(line=line, text=text)


@FORMS.structured("turn", ("next",), "{turn: Alexis}")
def _s_turn(d, names, line, text):
    return TurnOf(player=names.canon_player(d["turn"], line), next=bool(d.get("next")), line=line, text=text)


@FORMS.structured("pass", (), "{pass: Sarah}")
def _s_pass(d, names, line, text):
    who = d["pass"]
    return Pass(player=names.canon_player(who, line) if isinstance(who, str) else None, line=line, text=text)


@FORMS.structured("edge_pool", (), "{edge_pool: Sarah}")
def _s_edge(d, names, line, text):
    return EdgePool(player=names.canon_player(d["edge_pool"], line), line=line, text=text)


@FORMS.structured("contest", ("player", "pay"), "{contest: Carna, player: Sarah, pay: true}")
def _s_contest(d, names, line, text):
    return ContestCard(player=names.canon_player(d["player"], line), card=str(d["contest"]), pay=bool(d.get("pay", True)),
                       line=line, text=text)


@FORMS.structured("title", ("pay",), "{title: Belinde, pay: false}")
def _s_title(d, names, line, text):
    return ContestTitle(minion=names.canon_minion(d["title"], line), pay=bool(d.get("pay", True)), line=line, text=text)


@FORMS.structured("unlock_infernal", ("player",), "{unlock_infernal: Lucinde, player: Sarah}")
def _s_infernal(d, names, line, text):
    return UnlockInfernal(player=names.canon_player(d["player"], line), minion=names.canon_minion(d["unlock_infernal"], line),
                          line=line, text=text)


@FORMS.structured("withdraw", (), "{withdraw: Sarah}")
def _s_withdraw(d, names, line, text):
    return Withdraw(player=names.canon_player(d["withdraw"], line), line=line, text=text)


@FORMS.structured("master", ("card", "trifle", "out_of_turn", "cost", "location", "unique"),
                  "{master: Sarah, card: Blood Doll, trifle: true}")
def _s_master(d, names, line, text):
    return MasterCard(player=names.canon_player(d["master"], line), card=d.get("card"), trifle=bool(d.get("trifle")),
                      out_of_turn=bool(d.get("out_of_turn")), cost_pool=cost_of(d).pool,
                      location=bool(d.get("location")), unique=bool(d.get("unique")), line=line, text=text)


@FORMS.structured("bleed", ("target", "amount"), "{bleed: Belinde, target: Alexis}")
def _s_bleed(d, names, line, text):
    return Bleed(actor=names.canon_minion(d["bleed"], line),
                 target=names.canon_player(d["target"], line) if d.get("target") else None,
                 amount=int(d["amount"]) if d.get("amount") is not None else None, line=line, text=text)


@FORMS.structured("hunt", (), "{hunt: Ira}")
def _s_hunt(d, names, line, text):
    return Hunt(actor=names.canon_minion(d["hunt"], line), line=line, text=text)


@FORMS.structured("equip", ("by", "from", "cost", "unique"), "{equip: .44 Magnum, by: Belinde, cost: {pool: 2}}")
def _s_equip(d, names, line, text):
    items = [str(x) for x in d["equip"]] if isinstance(d["equip"], list) else [str(d["equip"])]
    if not items:
        raise ValueError("equip names at least one equipment card")
    return Equip(actor=names.canon_minion(d["by"], line), item=items[0], more=tuple(items[1:]),
                 source=names.canon_minion(d["from"], line) if d.get("from") else None, cost=cost_of(d),
                 unique=bool(d.get("unique")), line=line, text=text)


@FORMS.structured("employ", ("by", "life", "cost"), "{employ: Raven, by: Belinde, life: 1}")
def _s_employ(d, names, line, text):
    return Employ(actor=names.canon_minion(d["by"], line), retainer=str(d["employ"]), life=int(d.get("life", 1)),
                  cost=cost_of(d), **_retainer_gives(names, str(d["employ"])), line=line, text=text)


@FORMS.structured("recruit", ("by", "life", "bleed", "strength", "stealth", "cost"),
                  "{recruit: Underbridge Stray, by: The Dowager, life: 2, cost: {blood: 1}}")
def _s_recruit(d, names, line, text):
    ally = str(d["recruit"])
    names.add_minion(ally, line)
    return Recruit(actor=names.canon_minion(d["by"], line), ally=ally, life=int(d.get("life", 1)),
                   bleed=int(d.get("bleed", 1)), strength=int(d.get("strength", 1)),
                   stealth=int(d["stealth"]) if d.get("stealth") is not None else None, cost=cost_of(d), line=line, text=text)


@FORMS.structured("anarch", (), "{anarch: Belinde}")
def _s_anarch(d, names, line, text):
    return BecomeAnarch(actor=names.canon_minion(d["anarch"], line), line=line, text=text)


@FORMS.structured("action", ("card", "via", "as", "target", "targets", "directed", "stealth", "bleed", "hunt", "any_target",
                             "cost", "effect", "says", "puts_vampire"),
                  "{action: Krid, card: Computer Hacking, as: bleed, bleed: 1}")
def _s_action(d, names, line, text):
    targets = d.get("targets") or ([d["target"]] if d.get("target") else [])
    as_ = d.get("as")
    if as_ not in (None, "bleed", "hunt"):
        raise ValueError("'as' must be bleed or hunt (the basic action the card is a special version of)")
    return ActionCard(actor=names.canon_minion(d["action"], line), card=d.get("card"), via=d.get("via"), as_=as_,
                      targets=tuple(names.canon_player(t, line) for t in targets),
                      directed=d.get("directed"), stealth=int(d.get("stealth", 0)), bleed=int(d.get("bleed", 0)),
                      hunt=int(d.get("hunt", 0)), any_target=bool(d.get("any_target")), cost=cost_of(d),
                      effect=effect_of(d["effect"], names, line) if d.get("effect") else None,
                      says=d.get("says"), puts_vampire=bool(d.get("puts_vampire")), line=line, text=text)


@FORMS.structured("political", ("card", "cost", "effect", "says"),
                  "{political: Lucinde, card: Kine Resources Contested, effect: {pool: {Alexis: -2}}}")
def _s_political(d, names, line, text):
    return Political(actor=names.canon_minion(d["political"], line), card=d.get("card"), cost=cost_of(d),
                     effect=effect_of(d["effect"], names, line) if d.get("effect") else None, says=d.get("says"),
                     line=line, text=text)


@FORMS.structured("burn_for", ("stat", "amount", "blood"), "{burn_for: Chavi Oraczko, stat: stealth}")
def _s_burn_for(d, names, line, text):
    stat = str(d.get("stat", "")).lower()
    if stat not in ("stealth", "bleed", "intercept"):
        raise ScenarioError("burn_for needs stat: stealth, bleed or intercept", line)
    return BurnFor(minion=names.canon_minion(d["burn_for"], line), stat=stat,
                   amount=int(d["amount"]) if d.get("amount") is not None else None,
                   blood=int(d["blood"]) if d.get("blood") is not None else None, line=line, text=text)


@FORMS.structured("unlock_self", ("pays", "blood"), "{unlock_self: Antonio Veradas, pays: blood, blood: 1}")
def _s_unlock_self(d, names, line, text):
    pays = d.get("pays")
    if pays is not None and str(pays) not in ("blood", "edge"):
        raise ScenarioError("unlock_self's pays: is blood or edge", line)
    return UnlockSelf(minion=names.canon_minion(d["unlock_self"], line), pays=pays,
                      blood=int(d["blood"]) if d.get("blood") is not None else None, line=line, text=text)


@FORMS.structured("ability_bleed", ("target",), "{ability_bleed: The Arcadian, target: Alexis}")
def _s_ability_bleed(d, names, line, text):
    return AbilityBleed(actor=names.canon_minion(d["ability_bleed"], line),
                        target=names.canon_player(d["target"], line) if d.get("target") else None, line=line, text=text)


@FORMS.structured("target_action", ("target", "verb", "amount"), "{target_action: Gabrin, target: Carna, verb: lock}")
def _s_target_action(d, names, line, text):
    verb = str(d.get("verb", ""))
    if verb not in ("lock", "steal blood"):
        raise ScenarioError("target_action's verb: is lock or steal blood", line)
    return TargetAction(actor=names.canon_minion(d["target_action"], line), target=names.canon_minion(d["target"], line),
                        verb=verb, amount=int(d["amount"]) if d.get("amount") is not None else None, line=line,
                        text=text)


@FORMS.structured("combat_action", ("target",), "{combat_action: Dorka, target: Carna}")
def _s_combat_action(d, names, line, text):
    return CombatAction(actor=names.canon_minion(d["combat_action"], line), target=names.canon_minion(d["target"], line),
                        line=line, text=text)


@FORMS.structured("modifier", ("card", "stealth", "bleed", "hunt", "limited", "cost", "effect"),
                  "{modifier: Quentin, card: Confusion, bleed: 1}")
def _s_modifier(d, names, line, text):
    return Modifier(minion=names.canon_minion(d["modifier"], line), card=d.get("card"), stealth=int(d.get("stealth", 0)),
                    bleed=int(d.get("bleed", 0)), hunt=int(d.get("hunt", 0)),
                    limited=d.get("limited") if d.get("limited") is None else bool(d.get("limited")), cost=cost_of(d),
                    effect=effect_of(d["effect"], names, line) if d.get("effect") else None, line=line, text=text)


@FORMS.structured("reaction", ("card", "intercept", "to", "cost", "effect", "bleed", "redirect", "wake"),
                  "{reaction: Eugenio, intercept: 1}")
def _s_reaction(d, names, line, text):
    return Reaction(minion=names.canon_minion(d["reaction"], line), card=d.get("card"),
                    intercept=int(d.get("intercept", 0)), to=names.canon_minion(d["to"], line) if d.get("to") else None,
                    cost=cost_of(d), effect=effect_of(d["effect"], names, line) if d.get("effect") else None,
                    bleed=int(d.get("bleed", 0)),
                    redirect=names.canon_player(d["redirect"], line) if d.get("redirect") else None,
                    wake=bool(d.get("wake")), line=line, text=text)


@FORMS.structured("block", (), "{block: Carna}")
def _s_block(d, names, line, text):
    return Block(blocker=names.canon_minion(d["block"], line), line=line, text=text)


@FORMS.structured("decline", (), "{decline: Alexis}")
def _s_decline(d, names, line, text):
    who = d["decline"]
    return Decline(player=None if who in (True, "all", "everyone") else names.canon_player(who, line), line=line, text=text)


@FORMS.structured("transfer", ("to", "from", "pool", "blood"), "{transfer: Nora, to: Alexa Draper, pool: 2}")
def _s_transfer(d, names, line, text):
    player = names.canon_player(d["transfer"], line)
    if d.get("to") and d.get("pool") is not None:
        return TransferPool(player=player, vampire=names.canon_minion(d["to"], line), amount=int(d["pool"]),
                            line=line, text=text)
    if d.get("from") and d.get("blood") is not None:
        return TransferBack(player=player, vampire=names.canon_minion(d["from"], line), amount=int(d["blood"]),
                            line=line, text=text)
    raise ValueError("a transfer needs either 'to' and 'pool', or 'from' and 'blood'")


@FORMS.structured("crypt", ("vampire", "capacity", "clan", "sect", "title"), "{crypt: Nora, vampire: Tariq, capacity: 5}")
def _s_crypt(d, names, line, text):
    vampire = str(d["vampire"])
    names.add_minion(vampire, line)
    extra = tuple(sorted((k, d[k]) for k in ("clan", "sect", "title") if d.get(k)))
    return CryptDraw(player=names.canon_player(d["crypt"], line), vampire=vampire, capacity=int(d["capacity"]),
                     props=extra, line=line, text=text)


@FORMS.structured("influence", ("player",), "{influence: Alexa Draper}")
def _s_influence(d, names, line, text):
    vampire = names.canon_minion(d["influence"], line)
    player = names.canon_player(d["player"], line) if d.get("player") else None
    return Influence(player=player or "", vampire=vampire, line=line, text=text)


@FORMS.structured("discard", ("event",), "{discard: Sarah}")
def _s_discard(d, names, line, text):
    return Discard(player=names.canon_player(d["discard"], line), event_card=bool(d.get("event")), line=line, text=text)


@FORMS.structured("effect", ("source",), "{effect: {pool: {Steve: -3}, blood: {Belinde: 1}}}")
def _s_effect(d, names, line, text):
    return Effect(effect=effect_of(d["effect"], names, line), source=d.get("source"), line=line, text=text)


@FORMS.structured("not_modelled", ("rules",), "{not_modelled: 'leave torpor'}")
def _s_unmodelled(d, names, line, text):
    return Unmodelled(what=str(d["not_modelled"]), rules=tuple(d.get("rules") or ()), line=line, text=text)
