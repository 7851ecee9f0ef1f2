"""The forms of politics: a referendum's terms, votes and ballots, the end of the polling (docs/scenarios.md,
"Politics").

A vote names its source, because all the votes of one source are cast
together: a vampire (its title's votes, or those its card text gives it), the
Edge, a political action card (the one that called the referendum, or one
from the hand), or another card granting votes (Golden Rule).
"""
from __future__ import annotations

import re

from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import CastVote, ClosePolling, Terms, VoteAbility
from judge.engine.vtes.forms import NUM, FormTable, bare_name, effect_of, minion_of, number, player_of

FORMS = FormTable()

SIDES = {"for": "for", "against": "against", "in favour": "for", "in favor": "for", "yes": "for", "no": "against"}
_SIDE = r"(?P<side>for|against|in favou?r)"


def _side(text: str, line: int) -> str:
    key = " ".join(str(text).lower().split())
    if key not in SIDES:
        raise ScenarioError(f"a vote is cast 'for' or 'against', not {text!r}", line)
    return SIDES[key]


@FORMS.wording(r"{M} (?:burns (?P<blood>\d+|a) blood|(?P<lock>locks)|discards (?P<card>.+?)|uses (?:his|her|its|their) "
               r"(?:card's |special )?ability) (?:for|to get) \+?(?P<votes>\d+) (?:additional )?votes?",
               "Lucinde burns 1 blood for 1 vote")
def _vote_ability(m, names, line, text):
    paid = "burn" if m.group("blood") else "lock" if m.group("lock") else "discard" if m.group("card") else None
    card = m.group("card")
    discarded = names.cards.lookup(card) if card and names.cards is not None else None
    return VoteAbility(minion=minion_of(m, names, line), votes=int(m.group("votes")), paid=paid,
                       blood=(1 if m.group("blood") == "a" else int(m.group("blood"))) if m.group("blood") else None,
                       discarded=discarded, line=line, text=text)


@FORMS.structured("vote_ability", ("votes",), "{vote_ability: Lucinde, votes: 1}")
def _s_vote_ability(d, names, line, text):
    return VoteAbility(minion=names.canon_minion(d["vote_ability"], line),
                       votes=int(d["votes"]) if d.get("votes") is not None else None, line=line, text=text)


@FORMS.wording(r"{P} chooses the terms(?: of the referendum)?(?:: (?P<says>.+))?", "Sarah chooses the terms: Alexis is chosen")
def _terms(m, names, line, text):
    return Terms(player=player_of(m, names, line), says=m.group("says"), line=line, text=text)


@FORMS.wording(rf"{{P}} allocates (?P<pts>(?:{NUM}) points? to .+)", "Sarah allocates 2 points to Alexis and 2 to Bob")
def _terms_allocated(m, names, line, text):
    """The points a card's terms allocate ("Allocate 4 points among two or more Methuselahs.")."""
    given = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("pts").strip().rstrip(".")):
        hit = re.fullmatch(rf"(?P<n>{NUM})(?: points?)? to (?P<p>.+)", part.strip())
        if hit is None:
            raise ScenarioError(f"cannot read {part!r} as points allocated ('2 points to Alexis')", line)
        given.append((names.canon_player(hit.group("p").strip(), line), number(hit.group("n"))))
    return Terms(player=player_of(m, names, line), allocate=tuple(given), line=line, text=text)


@FORMS.wording(r"{P} chooses {M}(?: (?:as|for) (?:the )?terms(?: of the referendum)?)?", "Sarah chooses Lucinde")
def _terms_chosen(m, names, line, text):
    """The vampire a title card's terms choose ("Choose a ready Brujah.": titles.choose)."""
    return Terms(player=player_of(m, names, line), chosen=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(rf"{{M}} (?:votes|casts (?:her|his|its|their) votes) {_SIDE}(?: the referendum)?(?: \(?(?:with )?(?P<n>{NUM}) votes?\)?)?",
               "Lucinde votes for")
def _vampire_votes(m, names, line, text):
    return CastVote(player=None, side=_side(m.group("side"), line), kind="vampire", minion=minion_of(m, names, line),
                    count=number(m.group("n")) if m.group("n") else None, line=line, text=text)


@FORMS.wording(rf"{{P}} votes {_SIDE}(?: the referendum)? with (?P<x>.+)", "Alexis votes against with the Edge")
def _votes_with(m, names, line, text):
    player, side, raw = player_of(m, names, line), _side(m.group("side"), line), m.group("x").strip()
    if raw.lower() in ("the edge", "edge"):
        return CastVote(player=player, side=side, kind="edge", source="the Edge", line=line, text=text)
    try:
        minion = names.canon_minion(raw, line)
    except ScenarioError:
        return CastVote(player=player, side=side, kind="named", source=bare_name(raw), line=line, text=text)
    return CastVote(player=player, side=side, kind="vampire", minion=minion, line=line, text=text)


@FORMS.wording(rf"{{P}} burns the Edge (?:for|to cast|to gain) (?:1|one|a) vote {_SIDE}", "Bob burns the Edge for 1 vote against")
def _edge_vote(m, names, line, text):
    return CastVote(player=player_of(m, names, line), side=_side(m.group("side"), line), kind="edge", source="the Edge",
                    line=line, text=text)


@FORMS.wording(rf"{{P}} plays (?:(?P<x>[^,:]+?),? )?a political action card for (?:1|one|a) vote {_SIDE}",
               "Alexis plays Kine Resources Contested, a political action card for 1 vote against")
def _card_vote(m, names, line, text):
    return CastVote(player=player_of(m, names, line), side=_side(m.group("side"), line), kind="political card",
                    source=bare_name(m.group("x")), line=line, text=text)


@FORMS.wording(rf"{{P}} casts (?P<n>{NUM}) votes? {_SIDE} (?:from|with) (?P<x>.+)", "Sarah casts 2 votes for from Voter Captivation")
def _described_votes(m, names, line, text):
    return CastVote(player=player_of(m, names, line), side=_side(m.group("side"), line), kind="card",
                    source=bare_name(m.group("x")), count=number(m.group("n")), line=line, text=text)


@FORMS.wording(rf"{{M}} casts (?:a|her|his|its|their) ballot {_SIDE}", "Lucinde casts her ballot against")
def _ballot(m, names, line, text):
    return CastVote(player=None, side=_side(m.group("side"), line), kind="ballot", minion=minion_of(m, names, line),
                    line=line, text=text)


@FORMS.wording(r"(?:(?:the )?polling (?:ends|closes|is closed)|(?:the )?votes are (?:tallied|counted)|no (?:more )?votes)",
               "the polling closes")
def _close(m, names, line, text):
    return ClosePolling(line=line, text=text)


@FORMS.structured("terms", ("effect", "says", "chosen", "allocate"), "{terms: Sarah, effect: {pool: {Alexis: -1}}}")
def _s_terms(d, names, line, text):
    allocate = d.get("allocate") or {}
    if not isinstance(allocate, dict) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                 for n in allocate.values()):
        raise ScenarioError("allocate: gives each Methuselah its points ({allocate: {Alexis: 2, Bob: 2}})", line)
    return Terms(player=names.canon_player(d["terms"], line),
                 effect=effect_of(d["effect"], names, line) if d.get("effect") else None, says=d.get("says"),
                 chosen=names.canon_minion(d["chosen"], line) if d.get("chosen") is not None else None,
                 allocate=tuple((names.canon_player(p, line), n) for p, n in allocate.items()), line=line, text=text)


@FORMS.structured("vote", ("by", "with", "card", "votes"), "{vote: for, by: Lucinde}")
def _s_vote(d, names, line, text):
    side = _side(d["vote"], line)
    by = str(d["by"])
    count = int(d["votes"]) if d.get("votes") is not None else None
    if d.get("card"):
        return CastVote(player=names.canon_player(by, line), side=side, kind="card", source=str(d["card"]),
                        count=count, line=line, text=text)
    if d.get("with"):
        raw = str(d["with"])
        if raw.lower() in ("the edge", "edge"):
            return CastVote(player=names.canon_player(by, line), side=side, kind="edge", source="the Edge",
                            line=line, text=text)
        return CastVote(player=names.canon_player(by, line), side=side, kind="named", source=raw, line=line, text=text)
    return CastVote(player=None, side=side, kind="vampire", minion=names.canon_minion(by, line), count=count,
                    line=line, text=text)


@FORMS.structured("ballot", ("by",), "{ballot: against, by: Lucinde}")
def _s_ballot(d, names, line, text):
    return CastVote(player=None, side=_side(d["ballot"], line), kind="ballot", minion=names.canon_minion(d["by"], line),
                    line=line, text=text)


@FORMS.structured("close_polling", (), "{close_polling: true}")
def _s_close(d, names, line, text):
    return ClosePolling(line=line, text=text)
