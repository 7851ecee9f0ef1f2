"""Referendums: called by a successful political action or by a diablerie (the blood hunt);
terms chosen only then, polling, and the result (ties fail).

Votes are cast per source, all of one source together: a ready vampire's
title (by sect: primogen 1, prince and baron 2, justicar 3, Inner Circle 4;
bishop 1, archbishop 2, cardinal 3, regent 4; kholo and magaji 2) plus any
votes its card text gives it; a priscus's ballot in the prisci
sub-referendum, whose majority carries the block's 3 votes; the Edge, burned
for 1 vote; one vote per Methuselah from political action cards, the card
that called the referendum included; other cards that grant votes, as
described. Locked vampires vote; vampires in torpor, or contesting their
title, do not.
"""
from __future__ import annotations

import re
from typing import Optional

from judge.engine.vtes import gear, rules as R
from judge.engine.vtes import referendum_effects, situations, titles
from judge.engine.vtes.helpers import (Log, action_over, apply_card_effect, blood, card_gives, minion, play_from_hand,
                                  remove_minion, require_seated)
from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes.card_text import Group
from judge.engine.vtes.events import CastVote, ClosePolling, Terms, VoteAbility
from judge.engine.vtes.state import READY, TORPOR, VAMPIRE, Action, Draft, Minion, Referendum, Vote

# title: (votes, sect that holds it, the rule that gives the votes); "baron" is checked against anarch
TITLES = {
    "primogen": (1, "camarilla", R.VOTES_CAMARILLA), "prince": (2, "camarilla", R.VOTES_CAMARILLA),
    "justicar": (3, "camarilla", R.VOTES_CAMARILLA), "inner circle": (4, "camarilla", R.VOTES_CAMARILLA),
    "baron": (2, "anarch", R.VOTES_ANARCH),
    "bishop": (1, "sabbat", R.VOTES_SABBAT), "archbishop": (2, "sabbat", R.VOTES_SABBAT),
    "cardinal": (3, "sabbat", R.VOTES_SABBAT), "regent": (4, "sabbat", R.VOTES_SABBAT),
    "priscus": (0, "sabbat", R.PRISCI),
    "kholo": (2, "laibon", R.VOTES_LAIBON), "magaji": (2, "laibon", R.VOTES_LAIBON),
}
_BY_LENGTH = sorted(TITLES, key=len, reverse=True)


def title_of(m: Minion) -> Optional[str]:
    """The known title a vampire holds ("Prince of Paris" -> prince), or None."""
    t = (m.title or "").strip().lower()
    if not t:
        return None
    for key in _BY_LENGTH:
        if t == key or t.startswith(key + " ") or t.startswith(key + ","):
            return key
    if t.endswith(" justicar"):  # a clan's justicar, as the Justicar cards name it ("Brujah Justicar")
        return "justicar"
    return t  # a title this table does not know


def _sect_ok(m: Minion, expected: str) -> bool:
    if expected == "anarch":
        return m.anarch or m.sect is None
    return m.sect is None or m.sect.strip().lower() == expected


def votes_of(d: Draft, m: Minion) -> tuple[int, list, str]:
    """(votes, rules, how) a vampire casts: its title's, if it gives any, and its card text's."""
    rules = [R.TITLE_VOTES]
    parts = []
    total = 0
    key = title_of(m)
    if key and m.title_contested:
        rules.append(R.CONTESTED_NO_VOTES)
        parts.append(f"its contested title ({m.title}) gives no votes")
    elif key and key not in TITLES:
        if m.votes is None:
            raise NotModelled(f"the title {m.title!r} of {m.name}: the engine knows the titles of the books; give its "
                              f"votes from the card text with 'votes: N'", [R.TITLE_VOTES, R.CARD_TEXT_VOTES])
    elif key:
        n, sect, rule = TITLES[key]
        if not _sect_ok(m, sect):
            rules.append(R.TITLE_SECT)
            parts.append(f"its title ({m.title}) belongs to another sect than {m.sect}: no votes")
        elif n:
            total += n
            rules.append(rule)
            parts.append(f"{n} as {key}")
    if m.votes:
        total += m.votes
        rules.append(R.CARD_TEXT_VOTES)
        parts.append(f"{m.votes} from its card text")
    if m.card_votes:
        total += m.card_votes
        rules.append(R.CARD_TEXT_VOTES)
        parts.append(f"{m.card_votes} more from its card text")
    extra, words = titles.extra_votes(d.referendum, m)
    if extra:
        total += extra
        rules += [R.CARD_VOTES, R.GOLDEN_RULE]
        parts.append(words)
    for who, card, n in (d.referendum.granted if d.referendum is not None else ()):
        if who == m.name:
            total += n
            rules += [R.CARD_VOTES, R.GOLDEN_RULE]
            parts.append(f"{n} from {card}")
    return total, rules, "; ".join(parts)


# -- calling a referendum -------------------------------------------------------------------------
def resolve_political(d: Draft, log: Log, a: Action, paid: str, rules: list) -> None:
    rt = a.payload if isinstance(a.payload, referendum_effects.ReferendumText) else None
    selected = None
    if rt is not None and rt.select_edge:  # (its terms select the Edge's holder now, as the referendum is called)
        if d.edge is None:
            raise NotModelled(f"{rt.card}'s terms select the Methuselah with the Edge, and no one has it as the "
                              f"referendum is called (\"{rt.select_edge.strip()}\")", [R.POLITICAL_TERMS])
        selected = d.edge
    d.set(referendum=Referendum(kind="political", caller=a.actor, player=a.player, card=a.card, step="terms",
                                effects=a.effects, says=a.says, card_voters=(a.player,) if a.card else (),
                                action=a, selected=selected))
    card = f"; {a.card} gives {a.player} 1 vote (counting as {a.player}'s vote from political action cards)" \
        if a.card else ""
    terms = (f" Its terms select {selected}, the Methuselah with the Edge (\"{rt.select_edge.strip()}\")."
             if selected else "")
    log.add(f"{a.summary} succeeds{paid}: the referendum is called. First {a.player} chooses its terms, if any, "
            f"now that the action has succeeded; then every Methuselah may cast votes{card}.{terms}",
            *rules, R.REFERENDUM, R.REFERENDUM_STEPS, R.POLITICAL_TERMS, *([R.POLITICAL_CARD_VOTE] if a.card else []))


def _referendum(d: Draft, what: str) -> Referendum:
    r = d.referendum
    if r is not None:
        return r
    a = d.action_()
    if a is not None and a.kind == "political":
        raise Refusal(f"{what} belongs to the referendum, which is called only when {a.summary} succeeds; the action "
                      f"is still in progress", [R.POLITICAL_TERMS, R.REFERENDUM])
    raise Refusal(f"{what} needs a referendum, and none is being held", [R.REFERENDUM_STEPS])


def _begin_polling(d: Draft, log: Log) -> Referendum:
    r = d.referendum
    tc = titles.needs_choice(r)
    if r.step == "terms" and tc is not None:
        raise Refusal(f"the polling begins once {r.player} has chosen the terms of {tc.card}: "
                      f"\"{tc.choice.sentence.strip()}\" ('{r.player} chooses Theo Bell')",
                      [R.POLITICAL_TERMS, R.REFERENDUM_STEPS])
    rt = referendum_effects.needs_allocation(r)
    if r.step == "terms" and rt is not None:
        raise Refusal(f"the polling begins once {r.player} has allocated the points of {rt.card}: "
                      f"\"{rt.allocate_sentence.strip()}\" ('{r.player} allocates 2 points to Alexis and 2 to Bob')",
                      [R.POLITICAL_TERMS, R.REFERENDUM_STEPS])
    if r.step == "terms":
        r = d.put_referendum(step="polling")
        log.add(f"The polling begins ({r.player} chose no terms beyond what the card says).", R.REFERENDUM_STEPS,
                R.POLLING)
    return r


def terms(d: Draft, e: Terms, log: Log) -> None:
    r = _referendum(d, "choosing the terms")
    if r.kind == "blood hunt":
        raise Refusal("a blood hunt referendum has no terms to choose: if it passes, the diablerist is burned",
                      [R.BLOOD_HUNT])
    if e.player != r.player:
        raise Refusal(f"the terms are chosen by the Methuselah who calls the referendum, {r.player}",
                      [R.POLITICAL_TERMS])
    if r.step != "terms":
        raise Refusal("the polling has begun: the terms were chosen before it", [R.REFERENDUM_STEPS])
    rt = referendum_effects.of(r)
    if e.allocate or rt is not None and rt.allocate is not None:
        if e.effect or e.says or e.chosen:
            raise Refusal(f"{r.card or 'the card'}'s terms are read from the card: allocate its points "
                          f"('{r.player} allocates 2 points to Alexis and 2 to Bob'), not an effect, words or a "
                          f"vampire", [R.POLITICAL_TERMS])
        if not e.allocate:
            raise Refusal(f"{rt.card}'s terms allocate points: \"{rt.allocate_sentence.strip()}\" ('{r.player} "
                          f"allocates 2 points to Alexis and 2 to Bob')", [R.POLITICAL_TERMS])
        given = referendum_effects.allocate(d, r, e.allocate)
        d.put_referendum(step="polling", allocated=given)
        points = ", ".join(f"{n} point{'s' if n > 1 else ''} to {p}" for p, n in given)
        ruled = referendum_effects.allocation_rulings(d, r, given)
        log.add(f"{e.player} allocates {points} as the terms of {rt.card}'s referendum "
                f"(\"{rt.allocate_sentence.strip()}\"){ruled}, the action having succeeded; the polling begins.",
                R.POLITICAL_TERMS, R.REFERENDUM_STEPS, R.POLLING, R.GOLDEN_RULE)
        return
    if rt is not None and (e.effect or e.says or e.chosen):
        raise Refusal(f"{rt.card}'s referendum is read from the card: its terms choose nothing; vote, then close the "
                      f"polling", [R.POLITICAL_TERMS])
    tc = titles.of(r)
    if tc is not None and (e.effect or e.says):
        what = f"name the vampire chosen ('{r.player} chooses Theo Bell')" if tc.choice else \
            "it goes on the acting vampire"
        raise Refusal(f"{tc.card}'s terms are read from the card: {what}, not an effect or words",
                      [R.POLITICAL_TERMS])
    if e.chosen is not None:
        m = titles.choose(d, r, e.chosen)
        d.put_referendum(step="polling", chosen=m.name)
        log.add(f"{e.player} chooses {m.name} as the terms of {tc.card}'s referendum "
                f"(\"{tc.choice.sentence.strip()}\"), the action having succeeded; the polling begins.",
                R.POLITICAL_TERMS, R.REFERENDUM_STEPS, R.POLLING, R.GOLDEN_RULE)
        return
    if tc is not None and tc.choice is not None:
        raise Refusal(f"{tc.card}'s terms choose a vampire: \"{tc.choice.sentence.strip()}\" ('{r.player} chooses "
                      f"Theo Bell')", [R.POLITICAL_TERMS])
    effects = r.effects + ((e.effect,) if e.effect else ())
    d.put_referendum(step="polling", effects=effects, says=e.says or r.says)
    what = f": {e.says}" if e.says else ""
    log.add(f"{e.player} chooses the terms of the referendum{what}, the action having succeeded; the polling begins.",
            R.POLITICAL_TERMS, R.REFERENDUM_STEPS, R.POLLING)


# -- votes ----------------------------------------------------------------------------------------
def _already(r: Referendum, source: str, kind: str) -> Optional[Vote]:
    for v in r.votes:
        if v.source.lower() == source.lower() and (kind in ("vampire", "ballot") or v.kind == kind):
            return v
    return None


def cast_vote(d: Draft, e: CastVote, log: Log) -> None:
    r = _referendum(d, "a vote")
    r = _begin_polling(d, log)
    kind, source = e.kind, e.source
    if kind == "named":
        if source in d.minions:
            kind, minion_name = "vampire", source
        elif r.card and source.rstrip(".").lower() == r.card.rstrip(".").lower() and e.player == r.player:
            # (a sentence's last period is not the name's: "... with Crusade: Washington, D.C.")
            kind, minion_name = "calling card", None
        else:
            kind, minion_name = "political card", None
    else:
        minion_name = e.minion
    if kind in ("vampire", "ballot"):
        if minion_name in d.minions:  # (equipment whose text gives votes, not read: Kduva's Mask)
            gear.check_unread(d, d.minions[minion_name], "casts votes", r"vote|ballot|referendum|political")
        _vampire_vote(d, log, r, e, minion_name, kind)
        return
    player = e.player
    require_seated(d, player)
    rules = [R.POLLING]
    if kind == "edge":
        if d.edge != player:
            raise Refusal(f"{player} does not have the Edge ({d.edge or 'nobody'} has it): only its holder can burn it "
                          f"for a vote", [R.EDGE_VOTE])
        d.set(edge=None)
        vote = Vote(player=player, source="the Edge", kind="edge", side=e.side, count=1)
        words = f"{player} burns the Edge for 1 vote {e.side} (the Edge returns to the central area, held by nobody)"
        rules.append(R.EDGE_VOTE)
    elif kind == "calling card":
        if any(v.kind == "calling card" for v in r.votes):
            raise Refusal(f"the vote of {r.card} was already cast, and a cast vote cannot change", [R.POLLING])
        vote = Vote(player=player, source=r.card, kind="calling card", side=e.side, count=1)
        words = f"{player} casts the vote of {r.card}, the card that called the referendum, {e.side}"
        rules.append(R.POLITICAL_CARD_VOTE)
    elif kind == "political card":
        if player in r.card_voters:
            why = (f"{r.card}, which called the referendum, counts against that limit" if player == r.player and r.card
                   else "it was already used")
            raise Refusal(f"{player} can gain no more than 1 vote from political action cards: {why}",
                          [R.POLITICAL_CARD_VOTE])
        card = source or "a political action card"
        play_from_hand(d, player, log, card)
        d.put_referendum(card_voters=r.card_voters + (player,))
        vote = Vote(player=player, source=card, kind="political card", side=e.side, count=1)
        words = f"{player} plays {card} for its 1 vote {e.side} (the card is burned, its text ignored)"
        rules.append(R.POLITICAL_CARD_VOTE)
    elif kind == "card":
        tc = titles.of(r)
        if tc is not None and tc.voters is not None:
            raise NotModelled(f"votes from {source or 'a card'}, described as {player}'s: {tc.card} says \""
                              f"{tc.voters[1].strip()}\", and which vampire casts them is not said",
                              [R.CARD_VOTES, R.GOLDEN_RULE])
        if not e.count or e.count < 1:
            raise Refusal("say how many votes the card grants ('casts 2 votes for from Voter Captivation')",
                          [R.CARD_VOTES])
        if _already(d.referendum, source, "card"):
            raise Refusal(f"the votes from {source} were already cast, and cast votes cannot change", [R.POLLING])
        given = [who for who, card, _ in r.granted if card.lower() == (source or "").lower()]
        if given:
            raise Refusal(f"{source} gave its votes to {given[0]}, who casts them with its other votes: they are not "
                          f"cast again apart", [R.VOTES_AS_GROUP, R.CARD_VOTES])
        vote = Vote(player=player, source=source, kind="card", side=e.side, count=e.count)
        words = f"{player} casts {e.count} vote{'s' if e.count > 1 else ''} {e.side} from {source}"
        rules += [R.CARD_VOTES, R.GOLDEN_RULE]
    else:
        raise NotModelled(f"votes of the kind {kind}", [R.POLLING])
    _record(d, log, vote, words, rules)


def card_votes(d: Draft, name: str, card: str, level: str, count: int, played, log: Log, rules: tuple = ()) -> None:
    """A card played by vampire `name` (at `level`: " at superior", or "") that gives it `count` votes ("This vampire
    gets +2 votes."): votes of that vampire in the referendum being polled, cast with its other votes as one group
    (`votes_of`). `played()` pays for the card and plays it from the hand, once the referendum takes the votes;
    `rules`: who may play it (cited beside the votes' rules)."""
    r = _referendum(d, f"{card}'s votes")
    if r.kind == "blood hunt":
        raise Refusal(f"{card} cannot be played in a blood hunt referendum", [R.BLOOD_HUNT_NO_CARDS])
    m = minion(d, name)
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: {card} gives votes to the vampire playing it", [R.CARD_VOTES])
    if _already(r, card, "card") is not None:
        raise Refusal(f"votes from {card} were already cast, described as a card's votes: its votes are not given "
                      f"again to {m.name}", [R.POLLING, R.CARD_VOTES])
    if any(who == m.name and given == card for who, given, _ in r.granted):
        raise Refusal(f"{m.name} already played {card} during this action (its referendum is part of it)",
                      [R.SAME_CARD_ONCE, R.REFERENDUM])
    if _already(r, m.name, "vampire") is not None:
        raise NotModelled(f"{m.name} already cast its votes before {card} gave it {count} more: whether those are "
                          f"cast apart is not modelled; describe them as votes from a card ('{m.controller} casts "
                          f"{count} votes for from {card}')", [R.VOTES_AS_GROUP, R.CARD_VOTES])
    titles.may_vote(r, m)
    r = _begin_polling(d, log)
    played()
    d.put_referendum(granted=r.granted + ((m.name, card, count),))
    log.add(f"{m.name} plays {card}{level}: {m.name} gets +{count} vote{'s' if count > 1 else ''} in this referendum, "
            f"cast with its other votes, all for or all against.", *rules, R.CARD_VOTES, R.GOLDEN_RULE,
            R.VOTES_AS_GROUP)


def vote_ability(d: Draft, e: VoteAbility, log: Log) -> None:
    """Votes a vampire's own card lets it get in the referendum (card_text's "votes" ability), paid as the card says
    (blood burned, the vampire locked, a card discarded and replaced), cast with its other votes; once each
    referendum, and usable while locked (the rulings on such abilities: "The ability can be used while locked, only
    once per referendum.")."""
    r = _referendum(d, "votes from a vampire's card")
    m = minion(d, e.minion)
    found = card_gives(m, "votes", "votes of its own to get in a referendum",
                       f"describe them as a card's ('{m.controller} casts 1 vote for from {m.name}'s card')",
                       (R.CARD_TEXT_VOTES, R.CRYPT_ABILITY))
    usable = [a for a in found if a.during == "referendum" or r.kind == "political"]
    if not usable:
        raise Refusal(f"{m.name}'s card gives its votes in a political action's referendum only: "
                      f"\"{found[0].sentence}\"", [R.CARD_TEXT_VOTES, R.CRYPT_ABILITY])
    a = next((x for x in usable if e.paid is None or x.verb == e.paid), usable[0])
    via = f"{m.name}'s card"
    if e.paid is not None and e.paid != a.verb or e.blood is not None and e.blood != a.blood:
        said = {"burn": f"burns {e.blood} blood", "lock": "locks", "discard": "discards a card"}[e.paid]
        raise Refusal(f"{m.name}'s card does not get its votes as said ({said}): \"{a.sentence}\"",
                      [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    fits = _discards_as_printed(e.discarded, a.unit) if e.discarded is not None else True
    if fits is None:
        raise NotModelled(f"{m.name}'s card discards {a.unit}: whether {e.discarded.name} is one is not read "
                          f"(\"{a.sentence}\")", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    if not fits:
        raise Refusal(f"{e.discarded.name} is not {a.unit}, the card {m.name}'s card discards: \"{a.sentence}\"",
                      [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    if m.region == TORPOR:
        raise NotModelled(f"{m.name} is in torpor: a vampire in torpor casts no votes, and how its card's votes would "
                          f"be cast then is not read (\"{a.sentence}\"; some such vampires' rulings let the ability "
                          f"be used in torpor)", [R.TORPOR_NO_VOTES, R.CRYPT_ABILITY])
    if m.region != READY or m.contested:
        raise Refusal(f"{m.name} is not ready: only ready vampires give votes", [R.TITLE_VOTES])
    if any(who == m.name and card == via for who, card, _ in r.granted):
        raise Refusal(f"{m.name} used its card's votes in this referendum already: \"{a.sentence}\" (the rulings: "
                      f"only once per referendum)", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    cast = _already(r, m.name, "vampire")  # (cast already: these go the same way, as a group: the book)
    titles.may_vote(r, m)
    count = a.amount
    if a.groups:  # "+1 vote for each ready Anarch you control"
        theirs = [x for x in d.minions.values() if x.controller == m.controller and x.region == READY
                  and not x.contested]
        unknown = [x.name for x in theirs if Group.any_fits(a.groups, x, m) is None]
        if unknown:
            raise NotModelled(f"{m.name}'s card says \"{a.sentence}\", and the table does not say whether "
                              f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} "
                              f"{' or '.join(g.words() for g in a.groups)} (give its clan and sect)",
                              [R.CRYPT_ABILITY])
        count = a.amount * len([x for x in theirs if Group.any_fits(a.groups, x, m)])
    if e.votes is not None and e.votes != count:
        raise Refusal(f"{m.name}'s card gives {count} vote{'s' if count != 1 else ''} here, not {e.votes}: "
                      f"\"{a.sentence}\"", [R.CRYPT_ABILITY, R.GOLDEN_RULE])
    if a.verb == "burn" and m.blood < a.blood:
        raise Refusal(f"{m.name} has {m.blood} blood, not the {a.blood} its card burns: \"{a.sentence}\"",
                      [R.CRYPT_ABILITY])
    if a.verb == "lock" and m.locked:
        raise Refusal(f"{m.name} is locked: its card locks it for the votes: \"{a.sentence}\"", [R.CRYPT_ABILITY])
    if a.phase == "polling":  # ("During a referendum, ...": in its terms too, which go on)
        r = _begin_polling(d, log)
    if a.verb == "burn":
        blood(d, m.name, -a.blood)
        paid = f"burns {a.blood} blood"
    elif a.verb == "lock":
        d.put_minion(m.name, locked=True)
        paid = "locks"
    else:  # (a card discarded from the hand is replaced, as the hand is kept at its size: the book, Drawing Cards)
        play_from_hand(d, m.controller, log, f"the card {m.name} discards ({a.unit})")
        paid = f"discards {a.unit}"
    d.put_referendum(granted=r.granted + ((m.name, via, count),))
    words = f"{m.name} {paid} for {count} vote{'s' if count != 1 else ''} as its card allows (\"{a.sentence}\")"
    rules = [R.CARD_TEXT_VOTES, R.CRYPT_ABILITY, R.GOLDEN_RULE, R.VOTES_AS_GROUP]
    if cast is not None:  # its votes are cast already: these join them, the same way
        _record(d, log, Vote(player=m.controller, source=via, kind="card", side=cast.side, count=count),
                f"{words}, cast {cast.side} with its votes cast already (a vampire's votes go together)", rules)
        return
    log.add(f"{words}, cast with its other votes.", *rules)


def _discards_as_printed(card, unit: str) -> Optional[bool]:
    """Whether the card named discarded is the one the ability asks for ("a card requiring Dominate [dom]", "a master
    card", "a political action card"); None when `unit` is no such form (not read)."""
    code = re.search(r"requiring [A-Z][\w ]+ \[(?P<code>[a-z]{3})\]", unit)
    if code:
        return code.group("code") in {c.casefold() for c, _, _ in card.disciplines}
    kind = re.fullmatch(r"an? (?P<type>master|political action|combat) card(?: \[[A-Z ]+\])?", unit.strip())
    if kind:
        return any(t.casefold() == kind.group("type") for t in card.types)
    return None


def _vampire_vote(d: Draft, log: Log, r: Referendum, e: CastVote, name: str, kind: str) -> None:
    m = minion(d, name)
    if e.player and e.player != m.controller:
        raise Refusal(f"{m.name} is {m.controller}'s: {e.player} gains votes only from vampires {e.player} controls",
                      [R.TITLE_VOTES])
    require_seated(d, m.controller)
    if m.kind != VAMPIRE:
        raise Refusal(f"{m.name} is an ally: it has no title and no votes", [R.TITLE_VOTES, R.VOTES_GAINED])
    if m.region == TORPOR:
        raise Refusal(f"{m.name} is in torpor: a vampire in torpor cannot cast any votes or ballots",
                      [R.TORPOR_NO_VOTES])
    if m.region != READY or m.contested:
        raise Refusal(f"{m.name} is not ready (in the {m.region} region{', contested' if m.contested else ''}): only "
                      f"ready titled vampires give votes", [R.TITLE_VOTES])
    titles.may_vote(r, m)
    earlier = _already(r, m.name, kind)
    if earlier is not None and (earlier.kind == kind or earlier.side != e.side):
        if earlier.side != e.side:
            raise Refusal(f"{m.name} already cast its {'ballot' if earlier.kind == 'ballot' else 'votes'} "
                          f"{earlier.side}: all the votes and ballots of one vampire are cast in agreement",
                          [R.VOTES_AS_GROUP, R.POLLING])
        raise Refusal(f"{m.name} already cast its {'ballot' if kind == 'ballot' else 'votes'}, and a cast vote cannot "
                      f"change", [R.POLLING])
    locked = [R.VOTE_LOCKED] if m.locked else []
    lock_note = " (locked minions vote the same as unlocked ones)" if m.locked else ""
    if kind == "ballot":
        if title_of(m) != "priscus" or m.title_contested or not _sect_ok(m, "sabbat"):
            raise Refusal(f"{m.name} is not a priscus: only prisci cast ballots, in the prisci sub-referendum",
                          [R.PRISCI])
        vote = Vote(player=m.controller, source=m.name, kind="ballot", side=e.side, count=1)
        _record(d, log, vote, f"{m.name} casts its ballot {e.side} in the prisci sub-referendum{lock_note}",
                [R.PRISCI, *locked])
        return
    count, rules, how = votes_of(d, m)
    if count <= 0:
        what = "casts a ballot, not votes" if title_of(m) == "priscus" else f"has no votes ({how or 'no title'})"
        raise Refusal(f"{m.name} {what}", [*rules, R.VOTES_GAINED, *([R.PRISCI] if title_of(m) == 'priscus' else [])])
    if e.count is not None and e.count != count:
        raise Refusal(f"{m.name} has {count} vote{'s' if count > 1 else ''} ({how}), not {e.count}", rules)
    vote = Vote(player=m.controller, source=m.name, kind="vampire", side=e.side, count=count)
    _record(d, log, vote, f"{m.controller} casts {m.name}'s {count} vote{'s' if count > 1 else ''} {e.side} ({how})"
            f"{lock_note}", [*rules, R.POLLING, R.VOTES_AS_GROUP, *locked])


def _tally(r: Referendum) -> tuple[int, int, Optional[str]]:
    prisci = r.prisci()
    return (r.total("for") + (3 if prisci == "for" else 0), r.total("against") + (3 if prisci == "against" else 0),
            prisci)


def _record(d: Draft, log: Log, vote: Vote, words: str, rules: list) -> None:
    r = d.put_referendum(votes=d.referendum.votes + (vote,))
    yes, no, prisci = _tally(r)
    block = ""
    if any(v.kind == "ballot" for v in r.votes):
        block = f"; the prisci block's 3 votes go {prisci}" if prisci else "; the prisci block abstains (tied ballots)"
    log.add(f"{words}: {yes} for, {no} against{block}.", *rules)


# -- the result ----------------------------------------------------------------------------------------
def close_event(d: Draft, e: ClosePolling, log: Log) -> None:
    _referendum(d, "closing the polling")
    close_polling(d, log)


def close_polling(d: Draft, log: Log) -> None:
    r = d.referendum
    tc, rt = titles.needs_choice(r), referendum_effects.needs_allocation(r)
    if r.step == "terms" and (tc or rt) is not None:  # the card's terms come first (resolving-a-referendum/3)
        what = f"chosen {tc.choice.sentence.strip()!r}" if tc else f"allocated {rt.allocate_sentence.strip()!r}"
        raise Refusal(f"the polling cannot close before {r.player} has {what}: the terms of {(tc or rt).card} come "
                      f"first", [R.POLITICAL_TERMS, R.REFERENDUM_STEPS])
    yes, no, prisci = _tally(r)
    d.set(referendum=None)
    if r.action is not None:  # the political action resolves with its referendum
        action_over(d, log, r.action, successful=True, passed=yes > no, margin=yes - no)
    card = f" ({r.card})" if r.card else ""
    what = "the blood hunt" if r.kind == "blood hunt" else f"{r.caller}'s referendum{card}"
    rules = [R.REFERENDUM_RESULT] + ([R.PRISCI] if any(v.kind == "ballot" for v in r.votes) else [])
    if yes <= no:
        why = "a tie fails" if yes == no else "more votes against"
        rt = referendum_effects.of(r)
        failing = rt is not None and any(o.on_fail for o in rt.outcomes)
        log.add(f"The polling closes: {what} fails, {yes} for and {no} against ({why})"
                f"{'' if failing else '; it has no effect'}.", *rules)
        if failing:
            referendum_effects.take_effect(d, log, r, passed=False)
        return
    log.add(f"The polling closes: {what} passes, {yes} for and {no} against.", *rules)
    if r.kind == "blood hunt":
        if r.caller in d.minions:
            remove_minion(d, r.caller)
            log.add(f"A blood hunt is called: {r.caller}, the diablerist, is burned.", R.BLOOD_HUNT)
        return
    if titles.of(r) is not None:
        titles.take_effect(d, log, r, situations.gain_title)
    elif referendum_effects.of(r) is not None:
        referendum_effects.take_effect(d, log, r, passed=True)
    elif r.effects:
        for effect in r.effects:
            apply_card_effect(d, log, effect, r.card or "the referendum")
    elif r.says:
        log.add(f"The referendum's terms take effect: \"{r.says}\" (described, not applied to the state).",
                R.REFERENDUM_RESULT, R.GOLDEN_RULE)


def no_cards(d: Draft, what: str) -> None:
    """Action modifiers and reactions during a referendum."""
    r = d.referendum
    if r.kind == "blood hunt":
        raise Refusal(f"{what} cannot be played in a blood hunt referendum", [R.BLOOD_HUNT_NO_CARDS])
    raise NotModelled(f"{what} during a referendum: describe the votes such a card grants as votes from a card "
                      f"('Sarah casts 1 vote for from Freak Drive')", [R.CARD_VOTES])
