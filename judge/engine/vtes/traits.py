"""Traits and unique titles: what the books say a minion's trait or title does, as data and small checks.

A minion's `traits:` are read here (`read_traits`): each must be one the books define (`TRAITS`), so a
misspelt or unknown trait is a malformed scenario, never silently ignored. The checks an action makes
on its minion's traits at its announcement (a slave's directed actions, a sterile vampire's actions that
put a vampire in play) are `check_announce`, which helpers.announce calls for every action.

Titles: which titles are unique, and which two claims contest each other (`title_claim`,
`titles_conflict`): a prince, archbishop or baron of a city against any of them of the same city; a clan's
justicar, Inner Circle member or kholo against the same title of the same clan; the regent. Primogen,
bishop, cardinal, priscus and magaji are not unique. This module imports no rule module (the handlers of
situations.py and phases.py use it), only the rules, the errors and the state.
"""
from __future__ import annotations

import re
from typing import Optional

from judge.engine.vtes import rules as R
from judge.engine.errors import Refusal, ScenarioError
from judge.engine.vtes.state import TORPOR, VAMPIRE, Draft, Minion

# The traits the books define (VEKN book, 7. Legacy sets, Traits; older book, 11. Special Terms), lower case,
# with what the engine does with each. "slave" takes its master clan: "Slave (Tremere)".
TRAITS = {
    "black hand": "lets the minion play or use cards requiring Black Hand minions (cards are described)",
    "blood cursed": "the vampire cannot commit diablerie",
    "circle": "a Blood Brother's circle (cards are described)",
    "flight": "lets the minion play or use cards requiring Flight (cards are described)",
    "infernal": "the minion does not unlock as normal; its controller may burn 1 pool to unlock it",
    "red list": "any Methuselah may mark it with a master phase action; vampires may then enter combat with it",
    "scarce": "moving it to the ready region burns 3 pool per vampire of its clan already controlled",
    # VEKN book, Traits: "There may be other Traits that allow vampires and minions to play cards."
    "seraph": "lets the minion play or use cards requiring a Seraph (cards are described)",
    "slave": "no directed action unless its controller controls a ready member of its master clan",
    "sterile": "the vampire performs no action that puts a new vampire in play",
}
_SLAVE = re.compile(r"slave\s*(?:\(\s*(?P<a>[^()]+?)\s*\)|(?:to|of|:)\s+(?P<b>.+))?$", re.I)


def read_traits(raw, line: Optional[int]) -> tuple[str, ...]:
    """The traits of a minion's `traits:` list, lower case ("slave (tremere)"); ScenarioError at `line` for one the
    books do not define, or a slave without its master clan."""
    out = []
    for item in raw or ():
        text = " ".join(str(item).split()).lower()
        m = _SLAVE.match(text)
        if m:
            clan = m.group("a") or m.group("b")
            if not clan:
                raise ScenarioError(f"the trait {item!r} needs its master clan, e.g. 'Slave (Tremere)'", line)
            out.append(f"slave ({clan.strip()})")
            continue
        if text.startswith("circle"):
            out.append(text)
            continue
        if text not in TRAITS:
            raise ScenarioError(f"unknown trait {item!r}; the traits the books define are: "
                                f"{', '.join(t.title() for t in TRAITS)} (e.g. 'Slave (Tremere)')", line)
        out.append(text)
    return tuple(out)


def has(m: Minion, trait: str) -> bool:
    return trait in m.traits


def slave_master(m: Minion) -> Optional[str]:
    """The clan a slave serves ("tremere"), or None if the minion is no slave."""
    for t in m.traits:
        if t.startswith("slave ("):
            return t[len("slave ("):-1]
    return None


def check_announce(d: Draft, m: Minion, directed: bool, puts_vampire: bool = False) -> None:
    """Refuse an action its minion's traits forbid: a slave's directed action without a ready member of its master
    clan; a sterile vampire's action that puts a new vampire in play."""
    master = slave_master(m)
    if master and directed:
        if not any(o.controller == m.controller and o.name != m.name and o.ready and o.kind == VAMPIRE
                   and (o.clan or "").strip().lower() == master for o in d.minions.values()):
            raise Refusal(f"{m.name} is a slave to the {master.title()} and {m.controller} controls no ready "
                          f"{master.title()}: a slave cannot perform a directed action", [R.SLAVE])
    if puts_vampire and has(m, "sterile"):
        raise Refusal(f"{m.name} is sterile: a sterile vampire cannot perform an action that puts a new vampire "
                      f"in play", [R.STERILE])


# -- unique titles --------------------------------------------------------------------------------------
CITY_TITLES = ("prince", "archbishop", "baron")
CLAN_TITLES = ("justicar", "inner circle", "kholo")
NOT_UNIQUE = ("primogen", "bishop", "cardinal", "priscus", "magaji")


def title_claim(m: Minion) -> Optional[tuple]:
    """What a vampire's title claims, for contests: ("city", "paris"), ("justicar", "tremere"), ("regent",);
    None for no title or a title that is not unique; ("unknown", the title) for a title the books do not list."""
    t = " ".join((m.title or "").lower().replace(",", " ").split())
    if not t:
        return None
    for key in CITY_TITLES:
        city = re.fullmatch(rf"{key} of (?:the )?(.+)", t)
        if city:
            return ("city", city.group(1))
        if t == key:
            return ("unknown", t)  # a ruler of no named city: which city it rules is not said
    for key in CLAN_TITLES:
        if key in t:
            clan = t.replace(key, "").replace(" of ", " ").replace("member", "").strip() or (m.clan or "").lower()
            return (key, clan.strip()) if clan else ("unknown", t)
    if t.startswith("regent"):
        return ("regent",)
    if any(t == k or t.startswith(k + " ") for k in NOT_UNIQUE):
        return None
    return ("unknown", t)


def titles_conflict(a: Minion, b: Minion) -> bool:
    """Whether two vampires' titles contest each other (neither is an unknown title)."""
    ca, cb = title_claim(a), title_claim(b)
    return ca is not None and ca == cb and ca[0] != "unknown"


def title_rules(m: Minion) -> list:
    """The rules saying why `m`'s title is unique."""
    claim = title_claim(m)
    if claim and claim[0] == "city":
        return [R.TITLE_IN_PLAY, R.TITLE_CITY]
    return [R.TITLE_IN_PLAY, R.TITLE_CLAN_UNIQUE]


def title_contest_cost(d: Draft, m: Minion, rivals: list) -> tuple[int, list]:
    """The blood `m` pays to keep contesting its title, and the rules: 1 blood; under the older book an anarch
    baron contesting with a prince or archbishop pays 1 more."""
    if not R.ANARCH_CONTEST_COST.exists_in(d.edition):
        return 1, [R.CONTEST_TITLE]
    baron = (m.title or "").lower().startswith("baron")
    rulers = any((o.title or "").lower().startswith(("prince", "archbishop")) for o in rivals)
    if baron and (m.anarch or (m.sect or "").lower() == "anarch") and rulers:
        return 2, [R.CONTEST_TITLE, R.ANARCH_CONTEST_COST]
    return 1, [R.CONTEST_TITLE]


def in_play(m: Minion) -> bool:
    """A card in play: controlled (ready or in torpor) and face up."""
    return m.region in ("ready", TORPOR) and not m.contested
