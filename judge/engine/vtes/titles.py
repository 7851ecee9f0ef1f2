"""A political action card that puts itself on a vampire to represent a title (issue 37): Praxis Seizure, Crusade,
the Justicars, Cardinal Benediction, read as printed.

"Title. Choose a ready Brujah. If this referendum passes, put this card on the chosen Brujah to represent the unique
Camarilla title of Brujah Justicar. In this referendum, each ready Brujah gets 1 additional vote." `title_card_of`
reads such a text into a `TitleCard`: the title and its sect, on whom the card goes (the acting vampire, or the vampire
the caller chooses as the referendum's terms, and what that vampire must be), the votes it gives a clan in its own
referendum, who alone may vote in it, and what it does beside the title when it passes (a capacity increase for a
clan, an unlock in the caller's next discard phase, all vampires of a clan locked). A text with any other sentence is
read so far only: the sentences not read stay the card's unread text, and playing it stops naming them.

The engine side: `check_playable` as the card is played (no vampire fitting the choice: the card cannot be played,
the rulings), `choose` at the terms step, `extra_votes` and `may_vote` in the polling, `take_effect` when it passes.
The title itself is gained by `situations.gain_title` (one title a vampire, contests).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from judge.engine.errors import NotModelled, Refusal
from judge.engine.vtes import rules as R
from judge.engine.vtes.card_text import CLAN_NAME, ruling_quote, same_clan
from judge.engine.vtes.events import GainTitle
from judge.engine.vtes.helpers import Log, names
from judge.engine.vtes.state import VAMPIRE, Draft, Minion, Referendum
from judge.engine.vtes import traits

_CHOOSE = re.compile(rf"Choose an? (?P<ready>ready )?(?P<sect>Camarilla |Sabbat )?(?P<who>vampire|{CLAN_NAME})"
                     rf"(?: with capacity (?P<n>\d+) or more)?")
_PUT = re.compile(
    r"(?:If this referendum (?:is successful|passes|succeeds), put this card on|Successful referendum means this card "
    rf"is put on) (?:(?P<acting>the acting vampire|this vampire)|the chosen (?:vampire|{CLAN_NAME})) to represent the "
    r"(?P<unique>unique )?(?P<sect>Camarilla|Sabbat) title of (?P<title>.+?)"
    rf"(?:, and if this vampire is not (?:an? )?(?P<not>{CLAN_NAME}), lock all (?P<all>{CLAN_NAME}))?")
_VOTES = re.compile(rf"(?:During|In) this referendum, each (?P<ready>ready )?(?P<clan>{CLAN_NAME}) gets "
                    r"(?:\+(?P<n>\d) votes?|(?P<n2>\d|an|one) (?:additional|extra) votes?)")
_VOTERS = re.compile(r"During this referendum, non-(?P<sect>Sabbat|Camarilla) vampires cannot cast votes or ballots")
_CAPACITY = re.compile(rf"If (?:the prince|this vampire) is (?P<clan>{CLAN_NAME}), (?:his or her|their) capacity "
                       r"increases by (?P<n>\d)")
_UNLOCK = re.compile(rf"If this vampire is (?P<clan>{CLAN_NAME}), (?:he or she unlocks|they unlock) during your next "
                     r"discard phase")
_REMINDERS = ("Title", "This could lead to a contested title")
# a ruling naming the sect the chosen vampire must be of ("Only a Camarilla vampire can be chosen, ...": the Justicars
# whose text does not say it)
_RULED_SECT = re.compile(r"Only an? (?P<sect>Camarilla|Sabbat) vampire can be chosen")


@dataclass(frozen=True)
class Choice:
    """"Choose a ready Camarilla Brujah.": the vampire the caller names as the referendum's terms."""

    sentence: str
    ready: bool
    sect: Optional[str]  # the sentence's, or a ruling's (`ruling`)
    clan: Optional[str]  # None: any vampire
    capacity: Optional[int]  # "with capacity N or more"
    ruling: str = ""  # the ruling that adds the sect, quoted ("[G00034/lsj-20041026] Only a Camarilla ...")

    def why_not(self, m: Minion) -> Optional[str]:
        """Why `m` cannot be chosen, or None; NotModelled when the table does not say its clan or sect."""
        if m.kind != VAMPIRE:
            return f"{m.name} is not a vampire"
        if not traits.in_play(m):
            return f"{m.name} is not in play"
        if self.ready and not m.ready:
            return f"{m.name} is not ready"
        if self.clan:
            _known(m, "clan", f"\"{self.sentence.strip()}\"", R.POLITICAL_TERMS)
            if not same_clan(m.clan, self.clan):
                return f"{m.name} is {m.clan}, not {self.clan}"
        if self.sect:
            _known(m, "sect", f"\"{self.sentence.strip()}\"" + (f" ({self.ruling})" if self.ruling else ""),
                   R.POLITICAL_TERMS)
            if m.sect.casefold() != self.sect.casefold():
                return f"{m.name} is {m.sect}, not {self.sect}" + (f" ({self.ruling})" if self.ruling else "")
        if self.capacity is not None and m.capacity < self.capacity:
            return f"{m.name} has capacity {m.capacity}, not {self.capacity} or more"
        return None


@dataclass(frozen=True)
class TitleCard:
    """A title political action card read (`title_card_of`)."""

    card: str
    title: str  # as the card names it, capitalised: "Prince of Paris", "Brujah Justicar", "Cardinal"
    sect: str
    put: str  # the sentence putting the card on the vampire
    choice: Optional[Choice] = None  # None: the card goes on the acting vampire
    votes: Optional[tuple[str, int, str]] = None  # (clan, votes, sentence): "each ready Brujah gets 1 additional vote"
    voters: Optional[tuple[str, str]] = None  # (sect, sentence): only its vampires vote ("non-Sabbat vampires cannot")
    capacity: Optional[tuple[str, int, str]] = None  # (clan, increase, sentence)
    capacity_ruling: str = ""  # its ruling on the capacity, quoted for the step ("; the ruling [ID]: ...")
    unlock: Optional[tuple[str, str]] = None  # (clan, sentence): it unlocks in the caller's next discard phase
    lock_all: Optional[tuple[str, str]] = None  # (clan, sentence): "and if this vampire is not X, lock all X"
    read: frozenset = frozenset()  # every sentence read, as split from the text (with its period)
    rulings: tuple = ()  # the card's (ID, text), quoted where one decides a step

    def ruling(self, *words: str) -> str:
        """" (the ruling [ID]: "...")" for the card's first ruling holding all `words`, or ""."""
        return ruling_quote(self.rulings, *words)


def title_card_of(name: str, sentences: list[str], rulings: tuple = ()) -> Optional[TitleCard]:
    """The card's text read as a title card, or None when no sentence of it puts the card on a vampire to represent
    a title. `sentences`: the text split into sentences; `rulings`: the card's (ID, text)."""
    put = next(((s, m) for s in sentences if (m := _PUT.fullmatch(s.strip().rstrip("."))) is not None), None)
    if put is None:
        return None
    sentence, m = put
    title = m.group("title")
    if "." in title.split()[-1]:
        title += "."  # an abbreviation's last period, taken for the sentence's: "Archbishop of Washington, D.C."
    fields: dict = {"card": name, "title": title[0].upper() + title[1:], "sect": m.group("sect"), "put": sentence}
    read = {sentence}
    if m.group("not"):
        if not same_clan(m.group("not"), m.group("all")[:-1] if m.group("all").endswith("s") else m.group("all")):
            return None  # (another clan than the one it locks: not this form)
        fields["lock_all"] = (m.group("not"), sentence)
    for s in sentences:
        text = s.strip().rstrip(".")
        if text in _REMINDERS:
            read.add(s)
        elif (c := _CHOOSE.fullmatch(text)) and m.group("acting") is None and "choice" not in fields:
            clan = None if c.group("who") == "vampire" else c.group("who")
            sect = (c.group("sect") or "").strip() or None
            ruling = ""
            if sect is None:
                ruled = next(((rid, t) for rid, t in rulings if _RULED_SECT.match(t)), None)
                if ruled:
                    sect, ruling = _RULED_SECT.match(ruled[1]).group("sect"), f"[{ruled[0]}] {ruled[1]}"
            fields["choice"] = Choice(s, bool(c.group("ready")), sect, clan,
                                      int(c.group("n")) if c.group("n") else None, ruling)
            read.add(s)
        elif (v := _VOTES.fullmatch(text)) and "votes" not in fields:
            n = v.group("n") or v.group("n2")
            fields["votes"] = (v.group("clan"), 1 if n in ("an", "one") else int(n), s)
            read.add(s)
        elif (v := _VOTERS.fullmatch(text)) and "voters" not in fields:
            fields["voters"] = (v.group("sect"), s)
            read.add(s)
        elif (c := _CAPACITY.fullmatch(text)) and "capacity" not in fields:
            fields["capacity"] = (c.group("clan"), int(c.group("n")), s)
            ruled = next(((rid, t) for rid, t in rulings if "capacity is lost" in t), None)
            fields["capacity_ruling"] = f"; the ruling [{ruled[0]}]: \"{ruled[1]}\"" if ruled else ""
            read.add(s)
        elif (u := _UNLOCK.fullmatch(text)) and "unlock" not in fields:
            fields["unlock"] = (u.group("clan"), s)
            read.add(s)
    if m.group("acting") is None and "choice" not in fields:
        return None  # "the chosen Brujah" with no sentence saying whom to choose: not read
    return TitleCard(read=frozenset(read), rulings=tuple(rulings), **fields)


# -- the engine ------------------------------------------------------------------------------------------------
def _quote(tc: TitleCard, sentence: str) -> str:
    return f"{tc.card}: \"{sentence.strip()}\""


def _known(m: Minion, what: str, asking: str, rule) -> None:
    """NotModelled when the table does not say `m`'s clan or sect (`what`), which the card's words `asking` ask."""
    if getattr(m, what) is None:
        raise NotModelled(f"the table does not say {m.name}'s {what}, which {asking} asks", [rule])


def fits(tc: TitleCard, m: Minion) -> Optional[bool]:
    """Whether `m` may be chosen as the card's terms: it fits the choice and does not hold the title already (the
    rulings: "uniqueness" among the terms that cannot be met); None when the table does not say enough."""
    try:
        return tc.choice.why_not(m) is None and (m.title or "").casefold() != tc.title.casefold()
    except NotModelled:
        return None


def check_playable(d: Draft, tc: TitleCard, actor: Minion) -> None:
    """As the card is played: a card whose terms choose a vampire is not played when none fits (the rulings: "Cannot
    be used or played if the conditions for the terms of the referendum cannot be met"); a card going on the acting
    vampire, which holds that title already, is not modelled."""
    if tc.choice is None:
        if tc.sect and actor.sect_key and actor.sect_key != tc.sect.casefold():  # (played "as if" of the card's sect: Vlad Tepes, Mata Hari)
            raise NotModelled(f"{actor.name} ({actor.sect or 'no sect'}) would hold {tc.card}'s {tc.sect} title: a "
                              f"title of another sect is dormant, the vampire counting as untitled (a ruling on Vlad "
                              f"Tepes), which the engine does not model. {_quote(tc, tc.put)}",
                              [R.ONE_TITLE, R.GOLDEN_RULE])
        if (actor.title or "").casefold() == tc.title.casefold():
            raise NotModelled(f"{actor.name} already holds the title {actor.title}, which {tc.card} would put on it: "
                              f"what that does is not said. {_quote(tc, tc.put)}", [R.ONE_TITLE, R.GOLDEN_RULE])
        return
    vampires = [m for m in d.minions.values() if m.kind == VAMPIRE and traits.in_play(m)]
    if any(fits(tc, m) for m in vampires):
        return
    unknown = [m.name for m in vampires if fits(tc, m) is None]
    if unknown:
        raise NotModelled(f"no vampire in play is known to fit {tc.card}'s terms, \"{tc.choice.sentence.strip()}\", "
                          f"and the table does not say enough of {names(unknown)}", [R.POLITICAL_TERMS])
    raise Refusal(f"{tc.card} cannot be played: no vampire in play fits its terms, \"{tc.choice.sentence.strip()}\""
                  f"{' (' + tc.choice.ruling + ')' if tc.choice.ruling else ''}"
                  f"{tc.ruling('conditions for the terms') or '.'}", [R.POLITICAL_TERMS, R.GOLDEN_RULE])


def needs_choice(r: Referendum) -> Optional[TitleCard]:
    """The title card of the referendum, when its terms choose a vampire and none is chosen yet."""
    tc = of(r)
    return tc if tc is not None and tc.choice is not None and r.chosen is None else None


def of(r: Optional[Referendum]) -> Optional[TitleCard]:
    """The title card that called the referendum, or None."""
    a = r.action if r is not None else None
    return a.payload if a is not None and isinstance(a.payload, TitleCard) else None


def choose(d: Draft, r: Referendum, name: str) -> Minion:
    """The vampire chosen as the terms of a title card's referendum, checked against its choice."""
    tc = of(r)
    if tc is None or tc.choice is None:
        card = f"{r.card}'s terms, as the engine reads them," if r.card else "the referendum's terms"
        raise Refusal(f"{card} choose no vampire", [R.POLITICAL_TERMS])
    m = d.minions.get(name)
    if m is None:
        raise Refusal(f"{name} is not in play", [R.POLITICAL_TERMS])
    why = tc.choice.why_not(m)
    if why:
        raise Refusal(f"{name} cannot be chosen: {why}. {_quote(tc, tc.choice.sentence)}",
                      [R.POLITICAL_TERMS, R.GOLDEN_RULE])
    if (m.title or "").casefold() == tc.title.casefold():
        ruled = tc.ruling("conditions for the terms")
        if not ruled:
            raise NotModelled(f"{m.name} already holds the title {m.title}: what {tc.card} put on it does is not said",
                              [R.ONE_TITLE, R.GOLDEN_RULE])
        raise Refusal(f"{m.name} cannot be chosen: it holds the title {m.title} already{ruled}",
                      [R.POLITICAL_TERMS, R.GOLDEN_RULE])
    return m


def extra_votes(r: Optional[Referendum], m: Minion) -> tuple[int, str]:
    """The votes a title card gives `m` in its own referendum ("each ready Brujah gets 1 additional vote"), and
    the words for the step; (0, "") when none."""
    tc = of(r)
    if tc is None or tc.votes is None:
        return 0, ""
    clan, n, sentence = tc.votes
    _known(m, "clan", _quote(tc, sentence), R.CARD_VOTES)
    if not same_clan(m.clan, clan):
        return 0, ""
    return n, f"{n} from {tc.card} (\"{sentence.strip()}\")"


def may_vote(r: Optional[Referendum], m: Minion) -> None:
    """Refused when the title card calling the referendum lets only one sect's vampires vote."""
    tc = of(r)
    if tc is None or tc.voters is None:
        return
    sect, sentence = tc.voters
    _known(m, "sect", _quote(tc, sentence), R.CARD_VOTES)
    if m.sect.casefold() != sect.casefold():
        raise Refusal(f"{m.name} is {m.sect}. {_quote(tc, sentence)}", [R.GOLDEN_RULE, R.TITLE_VOTES])


def take_effect(d: Draft, log: Log, r: Referendum, gain_title) -> None:
    """The referendum passed: the card goes on its vampire, who gains the title (`gain_title`: situations'), then
    what the card does beside. Its capacity increase is the title's and goes with it (the ruling: "The additional
    capacity is lost if the title is lost.")."""
    tc = of(r)
    name = r.chosen if tc.choice is not None else r.caller
    m = d.minions.get(name)
    if m is None or not traits.in_play(m):
        raise NotModelled(f"{name}, on whom {tc.card} goes, is no longer in play: what becomes of the card is not said",
                          [R.REFERENDUM_RESULT, R.GOLDEN_RULE])
    if m.sect is None or m.sect.casefold() != tc.sect.casefold():
        sect = f"{m.sect}, not {tc.sect}," if m.sect else "of a sect the table does not say"
        raise NotModelled(f"{m.name} is {sect} as {tc.card} passes: a vampire must belong to the appropriate sect to "
                          f"receive a title; what becomes of the card is not said. {_quote(tc, tc.put)}",
                          [R.TITLE_RECEIVE_SECT, R.GOLDEN_RULE])
    capacity = 0
    if tc.capacity is not None:
        clan, n, sentence = tc.capacity
        _known(m, "clan", _quote(tc, sentence), R.GOLDEN_RULE)
        capacity = n if same_clan(m.clan, clan) else 0
    if capacity:
        rivals = [o.name for o in d.minions.values() if o.name != m.name and o.kind == VAMPIRE and traits.in_play(o)
                  and traits.titles_conflict(o, Minion(name=m.name, controller=m.controller, title=tc.title))]
        if rivals:
            raise NotModelled(f"{m.name} would gain the title {tc.title} contested by {names(rivals)}: whether "
                              f"\"{tc.capacity[2].strip()}\" holds while the title is contested (its holders treated "
                              f"as having no title) is not said", [R.TITLE_IN_PLAY, R.GOLDEN_RULE])
    gain_title(d, GainTitle(minion=m.name, title=tc.title, source=f"{tc.card} (\"{tc.put.strip()}\")", line=0,
                            text=tc.put), log)
    if capacity:
        m = d.minions[m.name]
        d.put_minion(m.name, capacity=m.capacity + capacity, title_capacity=capacity)
        log.add(f"{tc.card}: {m.name} is {m.clan}, so its capacity increases by {capacity}, to "
                f"{m.capacity + capacity}, while it holds the title (\"{tc.capacity[2].strip()}\"{tc.capacity_ruling})."
                , R.GOLDEN_RULE)
    if tc.unlock is not None:
        clan, sentence = tc.unlock
        _known(m, "clan", _quote(tc, sentence), R.GOLDEN_RULE)
        if same_clan(m.clan, clan):
            d.put_minion(m.name, unlocks_at_discard=(r.player, f"{tc.card}: \"{sentence.strip()}\""))
            log.add(f"{tc.card}: {m.name} is {m.clan}, so it will unlock during {r.player}'s next discard phase "
                    f"(\"{sentence.strip()}\").", R.GOLDEN_RULE)
    if tc.lock_all is not None:
        clan, _ = tc.lock_all
        _known(m, "clan", _quote(tc, tc.put), R.GOLDEN_RULE)
        said = re.search(r"if this vampire is not .*", tc.put.strip()).group(0)
        if same_clan(m.clan, clan):
            renamed = f", the clan the card prints as {clan}" if m.clan.casefold() != clan.casefold() else ""
            log.add(f"{tc.card}: {m.name} is {m.clan}{renamed}, so no one locks (\"{said}\").", R.GOLDEN_RULE,
                    *([R.CLAN_RENAMED] if renamed else []))
        else:
            unknown = [o.name for o in d.minions.values() if o.kind == VAMPIRE and traits.in_play(o) and o.clan is None]
            if unknown:
                raise NotModelled(f"the table does not say the clan of {names(unknown)}, which {_quote(tc, tc.put)} "
                                  f"asks", [R.GOLDEN_RULE])
            locked = [o.name for o in d.minions.values() if o.kind == VAMPIRE and traits.in_play(o)
                      and same_clan(o.clan, clan)]
            for o in locked:
                d.put_minion(o, locked=True)
            log.add(f"{tc.card}: {m.name} is not {clan}, so every {clan} in play locks: "
                    f"{names(locked) if locked else 'none is in play'} (\"{said}\").", R.GOLDEN_RULE)
