"""Reading card texts into what the engine applies (issue 37: never a silent default): a crypt card's sentences,
and the parts of library cards' texts the other modules share.

A vampire named by its crypt card gets what the card prints: capacity, clan, sect, title, Disciplines
(`cards.crypt_fields`), and what its text says, sentence by sentence:

* the sect and title the text opens with ("Sabbat:", "Camarilla Prince of Seattle:"), the card's own;
* "+N bleed.", "+N strength.", "+N stealth.", "+N intercept." (its own bleed, strength, stealth, intercept);
* the traits the books define ("Infernal.", "Black Hand.", "Red List.", "Scarce.", "Sterile.", "Blood
  cursed.", "Flight [FLIGHT].", a circle, a slave clan: `traits.TRAITS`);
* an extra master phase action while it is ready or unlocked ("If Anson is ready during your master phase,
  you get two master phase actions (instead of one).", "If Cybele is unlocked at the start of your master
  phase, you get +1 master phase action.");
* a bonus that holds at some times only (`Bonus`): "+N stealth or bleed" on its actions of some kinds ("when
  hunting", "on political actions", "during directed actions") or when bleeding a Methuselah who controls a
  ready minion of a group ("a ready Ventrue", "a ready titled vampire"); "+N intercept" when it attempts to
  block an action of some kinds or a minion of a group; "+N strength" in combat with a minion of a group
  (a `Group`: a clan, a sect, titled, an ally, older or younger...);
* what else it may or may not do (`Ability`): cannot use cards requiring a Discipline, cannot block some
  minions or undirected actions, aggravated hand strikes, no diablerie, "+N hunt", an optional press or
  maneuver each combat, a strike of its own (dodge, combat ends), an action to enter combat, blood burned for a
  bonus during an action.

An advanced vampire's text opens "Advanced, <sect>:" (read as the sect above), and its lines marked "[MERGED]"
hold only once it is merged (`read_crypt_text(..., merged=True)`; a minion's `merged: true`): unmerged, they do not
apply to it.

Every other sentence is *unread*: the minion carries it (`Minion.unread`), and the engine stops as not
modelled, naming it, at the first step where it could matter (the minion acts, blocks, reacts, fights, or
its controller's unlock, master or discard phase begins, when the sentence names that phase), unless the scenario
sets it aside (`ignore_text: true`). It is never silently replaced by a default.

Of library cards, read here and shared: the "Only usable ..." and "Not usable ..." sentences, clause by clause
(`condition_of`); a combat card's strike (`strike_of`); a level written from the line above it ("As above, ...":
`written_out`); how a scenario names a minion's own ability ("with his optional press": `named_ability`).
cards.modelled reads the rest of a library card's line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

from judge.engine.errors import NotModelled
from judge.engine.vtes import rules as R
from judge.engine.vtes.cancels import CancelText, cancel_of
from judge.engine.vtes.clans import is_clan
from judge.engine.vtes.state import ALLY, CHOSEN_RANGE, READY, TORPOR, VAMPIRE

# "Sabbat: ...", "Camarilla Prince of Seattle: ...", "Independent. 2 votes (titled): ..."
_SECT_PREFIX = re.compile(r"^(?P<head>[A-Z][^:.]*?(?:\. \d+ votes? \(titled\))?):\s*")
_SENTENCE = re.compile(r"(?<=[.)])\s+(?=[A-Z+(\[]|-\d)")
_BONUS = re.compile(r"(?P<n>[+-]\d) (?P<what>bleed|strength|stealth|intercept)")
_CIRCLE_HEAD = re.compile(r"(?P<circle>\w+) Circle: (?P<rest>.+)")
# "Black Hand: Dylan gets ...", "Black Hand Seraph: ...", "Red List: ...": the vampire has those traits (the books
# define them), and the sentence after the heading is read as any other
_TRAIT_HEAD = re.compile(r"(?P<traits>Black Hand Seraph|Black Hand|Seraph|Red List): (?P<rest>.+)")
_TRAITS = ("infernal", "black hand", "red list", "scarce", "sterile", "blood cursed", "seraph")
_MASTER = re.compile(r"(?:If|While) (?P<who>[\w' ,.-]+?) is (?P<state>ready|unlocked)(?: during your master phase"
                     r"| at the start of your master phase)?, you get (?:two master phase actions \(instead of "
                     r"one\)|\+1 master phase action)(?: each master phase)?")


@dataclass
class CryptText:
    """What a crypt card's text gives its minion, and what is left unread."""

    votes: int = 0  # "Cesewayo gets two additional votes.": votes of its card text, no title (Minion.card_votes)

    bonus: dict[str, int] = field(default_factory=dict)  # "bleed"/"strength"/"stealth"/"intercept" -> +N
    traits: list[str] = field(default_factory=list)
    master_actions: int = 0  # extra master phase actions
    master_when: str = "ready"  # while the minion is "ready" or "unlocked" at the start of the master phase
    bonuses: list["Bonus"] = field(default_factory=list)  # bonuses that hold at some times only
    abilities: list["Ability"] = field(default_factory=list)  # what else it may or may not do (`Ability`)
    unread: list[str] = field(default_factory=list)  # sentences not read, as printed


def read_crypt_text(text: str, sect: Optional[str], title: Optional[str], name: str = "",
                    merged: bool = False, base_text: Optional[str] = None) -> CryptText:
    """What the text of the crypt card `name` gives its minion (`name` tells its sentences about the vampire
    itself: "Brunhilde gets +1 bleed ..."); `merged`: the advanced vampire is merged, and its "[MERGED]" lines hold
    too, and its base card's text (`base_text`: the book, "When merged, the text on the base card still applies").
    A "[MERGED]" line's heading is read only when it is the card's own sect (and title): one that changes them
    ("[MERGED] Sabbat regent: +2 bleed.") leaves the line unread."""
    out = CryptText()
    lines = (text or "").split("\n")
    _read_text(" ".join(" ".join(ln for ln in lines if not ln.startswith(_MERGED)).split()), out, sect, title, name)
    if merged:
        for line in (" ".join(ln[len(_MERGED):].split()) for ln in lines if ln.startswith(_MERGED)):
            head = _SECT_PREFIX.match(line)
            own = {str(sect or "").casefold(), f"{sect} {title}".casefold()} if title else {str(sect or "").casefold()}
            if head and head.group("head").casefold() not in own:
                out.unread.append(line)  # a sect or title of its own once merged: not read
            else:
                _read_text(line, out, sect, title, name)
        if base_text:  # its heading's sect and title give way to the advanced card's (the book: "the advanced card
            # has precedence"); the rest applies
            body = " ".join(base_text.split())
            head = _SECT_PREFIX.match(body)
            if head and head.group("head").split()[0].casefold() in _SECTS:
                body = body[head.end():]
            _read_text(body, out, sect, title, name)
    return out


_MERGED = "[MERGED] "


def _read_text(body: str, out: CryptText, sect: Optional[str], title: Optional[str], name: str) -> None:
    body = re.sub(r"^Advanced, ", "", body)  # an advanced vampire's heading: its sect (and title) follow
    m = _SECT_PREFIX.match(body)
    if m and _is_sect_head(m.group("head"), sect, title):
        body = body[m.end():]
        slave = re.search(r"(?P<clan>\w[\w ]*?) slave$", m.group("head"), re.I)
        if slave:  # "Camarilla Tremere Slave:": the heading names the slave clan
            clan = slave.group("clan").split(" ", 1)[-1] if " " in slave.group("clan") else slave.group("clan")
            out.traits.append(f"slave ({clan.lower()})")
    for sentence in (s.strip() for s in _SENTENCE.split(body) if s.strip()):
        circle = _CIRCLE_HEAD.fullmatch(sentence)
        if circle and (bonus_of(circle.group("rest"), name) or ability_of(circle.group("rest"), name)):
            # "Torrance Circle: Mark gets +1 intercept when ...": the circle, and the sentence after it
            out.traits.append(f"circle ({circle.group('circle').lower()})")
            sentence = circle.group("rest")
        printed = sentence
        headed = _TRAIT_HEAD.fullmatch(sentence)
        if headed:  # the heading is the trait (the books: "Black Hand", "Red List", "Seraph"), whatever follows it
            out.traits.extend(t for t in (["black hand", "seraph"] if headed.group("traits") == "Black Hand Seraph"
                                          else [headed.group("traits").casefold()]) if t not in out.traits)
            sentence = headed.group("rest")
        bonus = bonus_of(sentence, name)
        ability = ability_of(sentence, name) if bonus is None else None
        if bonus is not None:
            out.bonuses.append(bonus)
        elif ability is not None:
            out.abilities.append(ability)
        elif not _read_sentence(sentence.rstrip("."), out, sect, title, name):
            out.unread.append(printed)


def _is_sect_head(head: str, sect: Optional[str], title: Optional[str]) -> bool:
    """Whether the text's opening "...:" is the card's sect (and title) as the card list prints it."""
    first = head.split(".")[0].split()[0].casefold() if head.split() else ""
    return bool(sect) and first == str(sect).split()[0].casefold() or first == "independent"


def _read_sentence(s: str, out: CryptText, sect: Optional[str], title: Optional[str], name: str = "") -> bool:
    folded = s.casefold()
    if sect and folded == str(sect).casefold():
        return True
    if sect and title:  # "Camarilla Prince of Boston." (its city said too: the minion's title has it, or not yet)
        bare_title = re.sub(r" of .+$", "", str(title)).casefold()
        heads = {folded, re.sub(r" of [a-z][\w .,'-]*$", "", folded)}
        if heads & {f"{sect} {title}".casefold(), f"{sect} {bare_title}".casefold(), str(title).casefold()}:
            return True
    circle = re.fullmatch(r"(?P<circle>\w+) Circle: (?P<rest>.+)", s)
    if circle and _read_sentence(circle.group("rest"), out, sect, title, name):  # "Torrance Circle: Sterile."
        out.traits.append(f"circle ({circle.group('circle').lower()})")
        return True
    if re.fullmatch(r"(?:independent[.:] )?\d+ votes? \(titled\)", folded) or re.fullmatch(
            r"[\w' ,.-]+ has \d+ votes? \(titled\)", folded):
        return True  # its votes: `crypt_fields` reads them from the card's title line
    parts = [p.strip() for p in re.split(r"\.\s+|,\s+(?=\+)", s)]
    bonuses = [_BONUS.fullmatch(p) for p in parts]
    if all(bonuses):
        for b in bonuses:
            out.bonus[b.group("what")] = out.bonus.get(b.group("what"), 0) + int(b.group("n"))
        return True
    if folded in _TRAITS or folded.startswith("flight [flight]"):
        out.traits.append("flight" if folded.startswith("flight") else folded)
        return True
    if folded.endswith(" circle") and len(folded.split()) <= 3:
        out.traits.append(f"circle ({s[:-len(' circle')].lower()})")
        return True
    slave = re.fullmatch(r"(?P<clan>[\w ]+?) slave", s)
    if slave:
        out.traits.append(f"slave ({slave.group('clan').lower()})")
        return True
    more = re.fullmatch(r"(?P<who>[\w' .-]+?) gets (?:(?P<n>\d|one|two|three) additional votes?|\+(?P<n2>\d) votes?)", s)
    if more and is_self(more.group("who"), name):
        n = more.group("n") or more.group("n2")
        out.votes += {"one": 1, "two": 2, "three": 3}.get(n) or int(n)
        return True
    master = _MASTER.fullmatch(s)
    if master:
        out.master_actions += 1
        out.master_when = master.group("state")
        return True
    return False


# -- "Only usable ..." conditions of library cards ----------------------------------------------------------------
# A condition is read clause by clause: "Only usable by a ready unlocked vampire other than the acting minion, during
# a bleed action directed at you, after blocks are declined." is three clauses, each one of the forms below, in any
# order, joined by commas, "and", ";" or a space. Each form is a pattern and what it asks of the moment (the draft
# `d`) and of the minion `m` playing the card, as the reason it is not met (None: met). A sentence is read when every
# one of its clauses is; otherwise it is not read at all, and the card stops as not modelled, naming it
# (`cards.modelled` keeps it in `rest`). Who is "younger" is told against the minion playing the card, as the cards
# mean it ("an ally or younger vampire is bleeding you": younger than the vampire reacting).
Check = Callable[[Any, Any], Optional[str]]
# The titles a card's requirement or condition names ("Requires a prince or justicar.", "by a locked prince or
# justicar"), folded
TITLES = ("prince", "justicar", "primogen", "baron", "bishop", "archbishop", "cardinal", "regent", "inner circle",
          "priscus", "magaji", "kholo")


@dataclass(frozen=True)
class Condition:
    """An "Only usable ..." sentence read: its clauses' checks, every one to be met, and what its "by ..." clause says
    of who plays the card beyond its type's rule."""

    clauses: tuple[tuple[str, Check], ...]  # (the clause as printed, its check)
    locked: bool = False  # "by a locked ...": played by a locked minion (the card over who plays reactions)
    other_than_acting: bool = False  # "by a ... other than the acting minion"
    # a clause speaks of the minion playing the card ("by a ...", "this vampire", "younger" than it); the others
    # speak of its Methuselah ("you") or of the moment, and are checked for a master card too
    minion: bool = False
    outside_combat: bool = False  # "by a ... not involved in the combat"
    torpor: bool = False  # "by a ... in torpor"
    after_resolution: bool = False  # "after resolution of a successful action": played once the action resolved
    after_block: bool = False  # "by a vampire who has blocked, after block resolution": a reaction, then, by its blocker
    # "Not usable <clause>": the card is refused when its one clause holds (a clause of the moment or the action,
    # never of who plays it)
    negated: bool = False

    def reason(self, d, m) -> Optional[str]:
        """Why the condition is not met as `m` plays the card now; None when it is."""
        if self.negated:
            (clause, check), = self.clauses
            return None if check(d, m) else f"it is played {clause}"
        for _, check in self.clauses:
            why = check(d, m)
            if why:
                return why
        return None


@dataclass(frozen=True)
class Methuselah:
    """The Methuselah playing a master card, as the one a condition's "you" is (its clauses of the minion playing
    the card are not read for a master card: `Condition.minion`)."""

    name: str

    @property
    def controller(self) -> str:
        return self.name


def _action(d):
    return d.action_()


def _combat(d):
    return getattr(d, "combat", None)


@dataclass(frozen=True)
class _InReferendum:
    """A political action whose referendum is running, as the clauses about "the action" read it: the referendum is
    part of the action's resolution (the book), so its acting vampire is the one that called it, it is political and
    undirected, and its blocks were declined (it succeeded)."""

    actor: str
    player: str
    summary: str
    kind: str = "political"
    directed: bool = False
    targets: tuple = ()
    attempt: None = None
    order: tuple = ()
    declined: tuple = ()


def _action_or_referendum(d):
    """The action in progress, or the political action whose referendum is running (`_InReferendum`), or None."""
    a = _action(d)
    if a is not None:
        return a
    r = getattr(d, "referendum", None)
    if r is not None and r.action is not None:
        return _InReferendum(r.caller, r.player, r.action.summary)
    return None


def _political_referendum(d, m):
    """During the referendum of a political action: any of its steps (choosing the terms, polling)."""
    r = getattr(d, "referendum", None)
    if r is None:
        return "no referendum is in progress"
    return None if r.kind == "political" else f"the referendum is a {r.kind}'s, not a political action's"


def _announced(d, m):
    a = _action(d)
    if a is None:
        return "no action is in progress"
    if a.attempt is not None or a.declined:
        return "the action was announced already: blocks are being decided"
    if a.announce_over:  # (the rulings on such cards: played before the modifiers that are not)
        return f"the action was announced already: {a.announce_over}, a card not played as it is announced, was " \
               f"played"
    return None


def _declined(d, m):
    """After blocks are declined: every Methuselah who may block the action has declined, and no attempt is on."""
    a = _action_or_referendum(d)
    if a is None:
        return "no action is in progress"
    if a.attempt is not None:
        return f"{a.attempt.blocker} is attempting to block"
    waiting = [p for p in a.order if p not in a.declined]
    return f"{' and '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} not declined to block" if waiting \
        else None


def _before_block_resolution(d, m):
    a = _action(d)
    return None if a is not None and a.attempt is not None else "no block attempt is in progress"


def _polling(d, m, political: bool = True):
    r = getattr(d, "referendum", None)
    if r is None:
        return "no referendum is in progress"
    if political and r.kind != "political":
        return f"the referendum is a {r.kind}'s, not a political action's"
    if political and r.step != "polling":
        return f"the referendum is in its {r.step} step, not polling"
    return None


def _before_votes(d, m):
    r = getattr(d, "referendum", None)
    if r is None:
        return "no referendum is in progress"
    return "votes and ballots were cast already" if r.votes else None


def _range(d, m, which=None, before_strikes=False, step=None, first=False):
    c = _combat(d)
    if c is None:
        return "no combat is in progress"
    if step and c.step != step:
        return f"the combat is at its {c.step} step"
    fixed = c.fixed_range()  # (a range a card lets its player choose is determined once said)
    if which and c.step == "before range" and (fixed is None or fixed[1] == CHOSEN_RANGE):
        return "the range is not determined yet"
    if which and (c.range or "close") != which:
        return f"the range is {c.range or 'close'}"
    if before_strikes and c.step not in ("before range", "range", "before strikes"):
        return "strikes are chosen already"
    if first and c.round != 1:
        return f"it is round {c.round} of the combat"
    return None


def _acting_has(code: str, name: str, superior: bool = False) -> Check:
    """The acting minion has a Discipline, at any level ("Not usable if the acting minion has Celerity [cel].") or at
    the superior level ("... has superior Celerity [CEL].")."""
    def check(d, m):
        o, why = _acting_minion(d)
        if why:
            return why
        level = discipline_level(o, code, name)
        if superior:
            return None if level == "superior" else f"{o.name} does not have superior {name} [{code.upper()}]"
        return None if level is not None else f"{o.name} does not have {name} [{code}]"
    return check


def _more_intercept(n: int) -> Check:
    """"by a vampire with more than N intercept" (a "Not usable ..." clause: Legwork): its own intercept, its card's or
    the table's, and the attempt's when it is blocking."""
    def check(d, m):
        a = _action(d)
        mine = a.attempt.intercept if a is not None and a.attempt is not None and a.attempt.blocker == m.name \
            else m.intercept
        return None if mine > n else f"{m.name} has {mine} intercept, not more than {n}"
    return check


def _choosing_strike(d, m):
    """As the minion chooses its strike: in the strike step, its strike for this pair not chosen yet."""
    c = _combat(d)
    if c is None or m.name not in (c.acting, c.opposing):
        return f"{m.name} is not in combat"
    if c.step not in ("before strikes", "strike"):
        return f"the combat is at its {c.step} step, not choosing strikes"
    if any(x.minion == m.name for x in c.chosen):
        return f"{m.name} has chosen its strike already"
    return None


def _still_ready(d, c, name: str) -> bool:
    """A combatant still ready: in play, in the ready region, and not going to torpor or being burned in this combat
    (the book: a wounded vampire is "no longer ready ... until the combat is over")."""
    return name in d.minions and d.minions[name].ready and name not in c.wounded and name not in c.burning


def _both_ready(d, m):
    c = _combat(d)
    if c is None:
        return "no combat is in progress"
    down = [n for n in (c.acting, c.opposing) if not _still_ready(d, c, n)]
    return f"{' and '.join(down)} {'is' if len(down) == 1 else 'are'} no longer ready" if down else None


# "Only usable if combat would end.", "... is about to end.": the moment combat.no_press stops at
WOULD_END = re.compile(r"combat (?:would end|is about to end)")


def _would_end(d, m):
    """"if combat would end" / "is about to end": the combat is at the end of a round with no press to continue
    standing (combat.would_end), where the engine stops for such cards."""
    c = _combat(d)
    if c is None:
        return "no combat is in progress"
    if c.ended and (c.wounded or c.burning):  # (a combatant going to torpor or burned: not read)
        raise NotModelled("a card usable as combat would end, played after a combatant was wounded or burned: not "
                          "modelled", [R.END_OF_ROUND, R.GOLDEN_RULE])
    if c.ended:  # ended prematurely by a strike or a card: the combat would end then too (a ruling on Relentless
        return None  # Reaper: "can be played if the round ends prematurely")
    if c.step != "end of round":
        return f"the combat is at its {c.step} step, not the end of a round"
    if c.press:
        return f"{c.press}'s press to continue stands: the combat goes on"
    return None


def _ready_opponent_not(d, m):
    """"if this vampire is ready and the opposing minion is not": in combat, this one still ready, the other not."""
    c = _combat(d)
    if c is None or m.name not in (c.acting, c.opposing):
        return f"{m.name} is not in combat"
    other = c.other(m.name)
    if not _still_ready(d, c, m.name):
        return f"{m.name} is no longer ready"
    return None if not _still_ready(d, c, other) else f"{other} is still ready"


def _press_step(d, m):
    c = _combat(d)
    return None if c is not None and c.step == "press" else "the combat is not at its press step"


def _is_kind(who: str) -> Callable[[Any, Any, Any], Optional[str]]:
    """A test of another minion `o` by the words the card names it with (`named_of`: "a minion", "an ally or younger
    vampire", "a Camarilla or Sabbat vampire", "a vampire without Auspex [aus]", "a minion controlled by your
    predator"...), `m` playing the card: the reason `o` is not such a minion, or None. Built only for words
    `named_of` reads (`_named`)."""
    named = named_of(who)

    def test(d, o, m) -> Optional[str]:
        return named.misfit(d, o, m, f"the card names \"{named.words}\"")
    return test


def _named(g: dict) -> bool:
    """The clause's `who` words, and its "this <noun>", are forms `named_of` reads (else the clause, and its
    sentence, are not read)."""
    self_noun = g.get("self") or "vampire"
    return (not g.get("who") or named_of(g["who"]) is not None) and \
        (self_noun.casefold() in ("vampire", "minion") or named_of(_a(self_noun)) is not None)


# the words naming another minion ("an ally or younger vampire", "a Toreador, Toreador antitribu, ally or younger
# vampire"): matched loosely here, read by `named_of` (a clause whose words it does not read is not read)
_WORD = r"(?:who is not|who does not have|(?!(?:is|blocks|attempts|bleeding|before|after|during|when|if|and|in|to)\b)" \
        r"[\w\[\]-]+)"
_OTHER = r"(?:an?|another) " + _WORD + r"(?:(?:,? or |, | )" + _WORD + r")*"
_END = r"(?=$|[,;])"  # where a clause ending in such words ends


def _acting_minion(d):
    """(the acting minion, None), or (None, why there is none): no action in progress, or its minion gone."""
    a = _action_or_referendum(d)
    if a is None:
        return None, "no action is in progress"
    o = d.minions.get(a.actor)
    return (o, None) if o is not None else (None, f"the acting minion {a.actor} is not in play")


def _acting_is(who: str) -> Check:
    test = _is_kind(who)

    def check(d, m):
        o, why = _acting_minion(d)
        return why or test(d, o, m)
    return check


def _bleeding_you(who: str, at_least: Optional[int]) -> Check:
    test = _is_kind(who)

    def check(d, m):
        a = _action(d)
        if a is None or a.kind != "bleed" or m.controller not in a.targets:
            return f"no minion is bleeding {m.controller}"
        if at_least is not None and a.bleed < at_least:
            return f"the bleed is for {a.bleed}, not {at_least} or more"
        o = d.minions.get(a.actor)
        return None if o is None else test(d, o, m)
    return check


def _bleed_amount(at_least: int) -> Check:
    def check(d, m):
        a = _action(d)
        if a is None or a.kind != "bleed":
            return "no bleed is in progress"
        return None if a.bleed >= at_least else f"the bleed is for {a.bleed}, not {at_least} or more"
    return check


def _attempting(who: str, succeeds: bool = False) -> Check:
    """Such a minion is attempting to block; `succeeds`: "<minions> blocks", the block succeeding (its intercept meets
    the stealth), as the engine holds it until the block resolves."""
    test = _is_kind(who)

    def check(d, m):
        a = _action(d)
        if a is None or a.attempt is None:
            return "no block attempt is in progress"
        if succeeds and a.attempt.intercept < a.stealth:
            return _not_blocked_yet(a)
        o = d.minions.get(a.attempt.blocker)
        return None if o is None else test(d, o, m)
    return check


def _not_blocked_yet(a) -> str:
    return (f"{a.attempt.blocker} is attempting to block, and does not block yet ({a.attempt.intercept} intercept "
            f"against {a.stealth} stealth)")


def _this_blocks(who: Optional[str], succeeds: bool = False) -> Check:
    """This minion is attempting to block (`succeeds`: "this vampire blocks", the block succeeding: its intercept
    meets the stealth), or (a combat card) is the blocker in the combat its block began."""
    test = _is_kind(who) if who else None

    def check(d, m):
        a, c = _action(d), _combat(d)
        if a is None and c is not None and c.action is not None and c.opposing == m.name:
            o = d.minions.get(c.acting)
        elif a is None or a.attempt is None or a.attempt.blocker != m.name:
            return f"{m.name} is not attempting to block" + (", nor the blocker in this combat" if c else "")
        elif succeeds and a.attempt.intercept < a.stealth:
            return _not_blocked_yet(a)
        else:
            o = d.minions.get(a.actor)
        return None if test is None or o is None else test(d, o, m)
    return check


def _this_blocked(d, m):
    a = _action(d)
    return None if a is not None and a.actor == m.name and a.attempt is not None else \
        f"{m.name} is not the acting minion facing a block attempt"


_KINDS = {"bleed": "bleed", "hunt": "hunt", "equip": "equip", "political": "political", "recruit ally": "recruit",
          "employ retainer": "employ"}
_KIND = r"(?:bleed|hunt|equip|political|recruit ally|employ retainer|directed|undirected)"


def _during_action(kinds: list[str], at_you: bool) -> Check:
    def check(d, m):
        a = _action_or_referendum(d)
        if a is None:
            return "no action is in progress"
        fits = [k for k in kinds if (k == "directed" and a.directed) or (k == "undirected" and not a.directed)
                or _KINDS.get(k) == a.kind]
        if kinds and not fits:
            return f"{a.summary} is not {' or '.join(_a(k) + ' action' for k in kinds)}"
        if at_you and not (a.directed and m.controller in a.targets):
            return f"the action is not directed at {m.controller}"
        return None
    return check


# the minion an action of each kind aims at, from what its announcement keeps (`Action.payload`); the kinds not here
# aim at no minion (a bleed, a hunt, an equip, a political action...), "card" at its card's `chosen` when its text is
# read (`Action.success`)
_AIMED_BY_PAYLOAD = {"target action": lambda p: p[1], "enter combat": lambda p: p, "red list": lambda p: p,
                     "rescue": lambda p: p[0], "diablerize": lambda p: p[0]}


def aimed_minion(a) -> tuple[bool, Optional[str]]:
    """(whether the engine knows which minion the action `a` aims at, that minion or None for none)."""
    if a.kind in _AIMED_BY_PAYLOAD:
        return True, _AIMED_BY_PAYLOAD[a.kind](a.payload)
    if a.kind == "card":
        return (True, a.chosen) if a.success is not None else (False, None)
    return True, None


def _directed_at(what: str) -> Check:
    """"during an action directed at this vampire", "... at a minion [or location] you control", "... at a location":
    the minion the action aims at (the actions the engine reads aim at no location); NotModelled when the engine does
    not know it (an action card described, not read)."""
    def check(d, m):
        a = _action(d)
        if a is None:
            return "no action is in progress"
        known, aimed = aimed_minion(a)
        if not known:
            raise NotModelled(f"which minion {a.summary} is directed at is not read (its card is described): say "
                              f"what the card does with effect: or says:", [R.GOLDEN_RULE])
        if not a.directed:
            return f"{a.summary} is not a directed action"
        t = d.minions.get(aimed) if aimed else None
        at = f"{a.summary} is directed at " + (f"{aimed}" if aimed else "no minion")
        if what == "this":
            return None if aimed == m.name else f"{at}, not at {m.name}"
        if what == "location":
            return f"{at}, not at a location"
        return None if t is not None and t.controller == m.controller and a.player != m.controller else \
            f"{at}, not at a minion {m.controller} controls"
    return check


def _a(word: str) -> str:
    return ("an " if word[:1].casefold() in "aeiou" else "a ") + word


def _in_combat_with(who: str) -> Check:
    test = _is_kind(who)

    def check(d, m):
        c = _combat(d)
        if c is None or m.name not in (c.acting, c.opposing):
            return f"{m.name} is not in combat"
        other = d.minions.get(c.opposing if m.name == c.acting else c.acting)
        return "the opposing minion is gone" if other is None else test(d, other, m)
    return check


def _combat_from_block(d, m):
    c = _combat(d)
    return None if c is not None and c.action is not None else "no action was blocked"


def _resolved(how: Optional[str], directed: bool, kind: Optional[str], passed: bool) -> Check:
    """After the action resolved (`state.Resolved`): successful, unsuccessful or blocked, directed, of a kind, a
    political action whose referendum passed."""
    kind = {"bleed action": "bleed", "hunt action": "hunt", "political action": "political"}.get(kind or "", kind)

    def check(d, m):
        if _action(d) is not None:
            return "the action has not resolved yet"
        r = getattr(d, "resolved", None)
        if r is None:
            return "no action has just resolved"
        if how == "successful" and not r.successful or how == "unsuccessful" and r.successful:
            return f"{r.summary} was {'not ' if how == 'successful' else ''}successful"
        if how == "blocked" and not r.blocked:
            return f"{r.summary} was not blocked"
        if directed and not r.directed:
            return f"{r.summary} was not directed"
        if kind not in (None, "action") and r.kind != kind:
            return f"{r.summary} was not {_a(kind)} action"
        if passed and not r.passed:
            return f"the referendum of {r.summary} did not pass"
        return None
    return check


def _has_blocked(locked: bool, vampire: bool) -> Check:
    """"by a [locked] vampire|minion who has blocked, after block resolution": the blocker of the action that has just
    resolved (blocked: its combat over), now."""
    def check(d, m):
        if vampire and m.kind != VAMPIRE:
            return f"{m.name} is not a vampire"
        if _action(d) is not None:
            return "the action has not resolved yet"
        r = getattr(d, "resolved", None)
        if r is None:
            return "no action has just resolved"
        if not r.blocked or r.blocker != m.name:
            return f"{m.name} did not block {r.summary}" + (f" ({r.blocker} did)" if r.blocker else "")
        if locked and not m.locked:
            return f"{m.name} is not locked"
        return None
    return check


def _resolved_by_this(d, m):
    r = getattr(d, "resolved", None)
    return None if r is not None and r.actor == m.name else f"{m.name} did not perform the action that resolved"


def _victory_points(at_least: int) -> Check:
    def check(d, m):
        vp = d.players[m.controller].vp
        return None if vp >= at_least else f"{m.controller} has {vp:g} victory points, not {at_least} or more"
    return check


def _edge(whose: str, uncontrolled: bool = False) -> Check:
    """"if you control the Edge", "if your prey has the Edge" ("... or the Edge is uncontrolled")."""
    def check(d, m):
        holder = m.controller if whose == "you" else d.prey(m.controller)
        if d.edge == holder or (uncontrolled and not d.edge):
            return None
        return (f"the Edge is {d.edge}'s" if d.edge else "no one has the Edge") + f", not {holder}'s"
    return check


def _all(*checks: Check) -> Check:
    """One clause asking several things: the first reason found."""
    def check(d, m):
        return next((why for why in (c(d, m) for c in checks) if why), None)
    return check


def _kind_is(kind: str, negated: bool) -> Check:
    """The action in progress is (not, `negated`) of a kind: bleed, political, directed or undirected."""
    def check(d, m):
        a = _action(d)
        if a is None:
            return "no action is in progress"
        fits = a.directed if kind == "directed" else not a.directed if kind == "undirected" else a.kind == kind
        if fits == negated:
            return f"the action is {'' if negated else 'not '}{_a(kind)} action ({a.summary})"
        return None
    return check


def _this_acting(d, m):
    a = _action(d)
    return None if a is not None and a.actor == m.name else f"{m.name} is not the acting minion"


# "this vampire", "this minion", "this Anarch", "this Baali": the minion playing the card, of those
_SELF = r"(?P<self>vampire|minion|(?-i:[A-Z][a-z]+(?: antitribu)?))"


def _this_is(noun: str) -> Check:
    """The minion playing the card is what "this <noun>" says (a vampire or minion: any)."""
    if noun.casefold() in ("vampire", "minion"):
        return lambda d, m: None if noun.casefold() == "minion" or m.kind == VAMPIRE else f"{m.name} is not a vampire"
    named = named_of(_a(noun))

    def check(d, m):
        return named.misfit(d, m, m, f"the card says \"this {noun}\"")
    return check


def _more_blood(d, m):
    c = _combat(d)
    if c is None or m.name not in (c.acting, c.opposing):
        return f"{m.name} is not in combat"
    other = d.minions.get(c.opposing if m.name == c.acting else c.acting)
    if other is None:
        return "the opposing minion is gone"
    return None if m.blood > other.blood else \
        f"{m.name} has {m.blood} blood, not more than {other.name}'s {other.blood}"


def _you_control(who: str) -> Check:
    """"if you have at least one unlocked Ravnos in play": a minion its Methuselah controls, of those."""
    named = named_of(who)

    def check(d, m):
        mine = [o for o in d.minions.values() if o.controller == m.controller and o.controlled and not o.contested
                and o.region in (READY, TORPOR)]
        unknown = None
        for o in mine:
            try:
                if named.misfit(d, o, m, f"the card names \"{named.words}\"") is None:
                    return None
            except NotModelled as stop:  # (decides only if no other minion fits)
                unknown = unknown or stop
        if unknown is not None:
            raise unknown
        return f"{m.controller} controls no {named.words.split(' ', 1)[1]} in play"
    return check


def _who(adjectives: str, noun: str, other_than_acting: bool, outside_combat: bool, torpor: bool,
         capacity: Optional[tuple[str, int]]) -> Check:
    """"by a [ready] [unlocked|locked] [non-acting] vampire|minion|ally|anarch|<clan>|<sect> vampire [other than the
    acting minion] [not involved in the combat] [in torpor] [with capacity ...]": the minion playing the card."""
    adjs = set(re.findall(r"[\w-]+", adjectives.casefold()))
    noun = " ".join(noun.split())

    def check(d, m):
        a = _action_or_referendum(d)
        if ("non-acting" in adjs or other_than_acting) and (a is None or a.actor == m.name):
            return f"{m.name} is the acting minion" if a is not None else "no action is in progress"
        if "ready" in adjs and not m.ready:
            return f"{m.name} is not ready"
        if "unlocked" in adjs and m.locked:
            return f"{m.name} is locked"
        if "locked" in adjs and not m.locked:
            return f"{m.name} is not locked"
        folded = noun.casefold()
        titles = re.split(r",? or |, ", folded)
        by_title = all(t in TITLES for t in titles)
        if by_title and not holds_title(m, titles):
            return f"{m.name} is not {_a(noun)} ({m.title or 'no title'})"
        if folded == "vampire" and m.kind != VAMPIRE:
            return f"{m.name} is not a vampire"
        if folded == "ally" and m.kind != ALLY:
            return f"{m.name} is not an ally"
        if folded == "anarch" and not (m.anarch or (m.sect or "").casefold() == "anarch"):
            return f"{m.name} is not an anarch"
        sect = re.fullmatch(r"(camarilla|sabbat|laibon|independent) vampire", folded)
        if sect and (m.kind != VAMPIRE or (m.sect or "").casefold() != sect.group(1)):
            return f"{m.name} is not {_a(sect.group(1).capitalize())} vampire"
        if folded not in ("vampire", "minion", "ally", "anarch") and not sect and not by_title and \
                not same_clan(m.clan or "", noun):
            return f"{m.name} is not {_a(noun)} ({m.clan or 'no clan'})"
        if outside_combat:
            c = _combat(d)
            if c is None:
                return "no combat is in progress"
            if m.name in (c.acting, c.opposing):
                return f"{m.name} is in the combat"
        if torpor and m.region != TORPOR:
            return f"{m.name} is not in torpor"
        if capacity:
            how, n = capacity
            fits = {"more": m.capacity >= n, "less": m.capacity <= n, "above": m.capacity > n}[how]
            if m.kind != VAMPIRE or not fits:
                limit = f"above {n}" if how == "above" else f"{n} or {how}"
                return f"{m.name} is not a vampire of capacity {limit}"
        return None
    return check


CLAN_NAME = r"(?-i:[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?(?: antitribu)?)"  # a clan as printed, capitalised
# The clans the current book names otherwise (8. Glossaries: "Assamite: see Banu Haqim", "Follower of Set: see
# Ministry"): a card printed with the former name means the clan under either.
_RENAMED_CLANS = {"assamite": "banu haqim", "follower of set": "ministry"}


def ruling_quote(rulings: tuple, *words: str) -> str:
    """" (the ruling [ID]: "...")" for the first of a card's rulings ((ID, text) pairs) holding all `words`, or ""."""
    found = next(((rid, text) for rid, text in rulings if all(w in text for w in words)), None)
    return f" (the ruling [{found[0]}]: \"{found[1]}\")" if found else ""


def same_clan(a: str, b: str) -> bool:
    def fold(name: str) -> str:
        name = re.sub(r"^(follower|daughter)s of ", r"\1 of ", " ".join(name.casefold().split()))  # (the plural)
        if name.endswith("s") and is_clan(name[:-1]):  # the plural a card prints ("Assamites", "Malkavians")
            name = name[:-1]
        return _RENAMED_CLANS.get(name, name)
    return bool(a) and fold(a) == fold(b)


def _younger(g: dict) -> dict:
    """A clause naming a "younger vampire" speaks of the minion playing the card: younger than it."""
    return {"minion": bool(re.search(r"\b(?:younger|older)\b", g.get("who") or ""))}


_TITLE = "(?:" + "|".join(sorted(TITLES, key=len, reverse=True)) + ")"
_TITLES = _TITLE + r"(?:(?:,|,? or) " + _TITLE + r")*"  # "a locked prince or justicar": a vampire of those titles
_WHO = (
    r"by (?:a |an |the )?(?P<adjs>(?:(?:ready|unlocked|locked|non-acting),? (?:and )?)*)"
    r"(?P<noun>" + _TITLES + r"|vampire|minion|ally|anarch|(?:Camarilla|Sabbat|Laibon|Independent) vampire|" + CLAN_NAME +
    r")"
    r"(?P<other>,? other than the acting (?:minion|vampire))?"
    r"(?P<outside> not involved in (?:the |the current )?combat)?"
    r"(?P<torpor> in torpor)?"
    r"(?: with capacity (?:(?P<above>above) (?P<n1>\d+)|(?P<n2>\d+) or (?P<moreless>more|less)))?")  # "by a ..."

# (a clause's pattern, matched at its place in the sentence -> from its groups, its check and the Condition's flags
# it sets)
_CLAUSES: list[tuple[re.Pattern, Callable[[dict], tuple[Check, dict]]]] = [(re.compile(p, re.I), f) for p, f in [
    (r"(?:as|when) (?:the|an) action is announced", lambda g: (_announced, {})),
    (r"(?:as|when) (?:a|an|the) (?P<non>non-)?(?P<kind>bleed|directed|undirected|political) action is announced",
     lambda g: (_all(_announced, _kind_is(g["kind"].casefold(), bool(g["non"]))), {})),
    (r"after blocks are declined", lambda g: (_declined, {})),
    (r"before block resolution", lambda g: (_before_block_resolution, {})),
    (r"during the polling step of a political action", lambda g: (_polling, {})),
    (r"during the referendum of a political action", lambda g: (_political_referendum, {})),
    (r"during a referendum", lambda g: (lambda d, m: _polling(d, m, political=False), {})),
    (r"before (?:any )?votes (?:and|or) ballots are cast", lambda g: (_before_votes, {})),
    (r"at (?P<which>long|close) range", lambda g: (lambda d, m: _range(d, m, g["which"].casefold()), {})),
    (r"before strikes are chosen", lambda g: (lambda d, m: _range(d, m, before_strikes=True), {})),
    (r"before range is (?:determined|chosen)", lambda g: (lambda d, m: _range(d, m, step="before range"), {})),
    (r"(?:(?:on|during) )?(?:the )?first round(?: of combat)?", lambda g: (lambda d, m: _range(d, m, first=True), {})),
    (r"if both combatants are still ready", lambda g: (_both_ready, {})),
    (r"(?:if )?" + WOULD_END.pattern, lambda g: (_would_end, {})),
    (r"if this (?:vampire|minion|[A-Z][a-z]+) is ready and the opposing minion is not",
     lambda g: (_ready_opponent_not, {"minion": True})),
    (r"during the press step", lambda g: (_press_step, {})),
    (r"(?P<you>when a bleed against you is about to be successful)|if a bleed would be successful",
     lambda g: (_all(_declined, _during_action(["bleed"], bool(g["you"])), _bleed_amount(1)), {})),
    # a hunt about to succeed: its blocks declined, before it resolves (the blood is gained as it resolves)
    (r"(?:if|when) this " + _SELF + r" (?:is about to (?:successfully hunt|hunt successfully)|would successfully hunt|"
     r"successfully hunts)",
     lambda g: (_all(_this_is(g["self"]), _this_acting, _kind_is("hunt", False), _declined), {"minion": True})),
    (r"(?:if|when) (?P<who>" + _OTHER + r") (?:is about to (?:successfully hunt|hunt successfully)|would successfully "
     r"hunt|successfully hunts)",
     lambda g: (_all(_kind_is("hunt", False), _acting_is(g["who"]), _declined), _younger(g))),
    (r"when a hunt action is successful, after resolution",
     lambda g: (_resolved("successful", False, "hunt", False), {"after_resolution": True})),
    (r"by a (?:vampire|minion) who successfully blocks an action",
     lambda g: (_this_blocks(None, succeeds=True), {"minion": True})),
    (r"after a combat resulting from a block",
     lambda g: (_resolved("blocked", False, None, False), {"after_resolution": True})),
    (r"after (?:action )?resolution(?: \(successful or not\))?",
     lambda g: (_resolved(None, False, None, False), {"after_resolution": True})),
    (r"after resolution of (?:a|an) (?:(?P<how>successful|unsuccessful|blocked) )?(?:(?P<directed>directed) )?"
     r"(?P<kind>bleed action|bleed|hunt action|hunt|political action|action)(?P<passed> whose referendum passed)?",
     lambda g: (_resolved(g["how"], bool(g["directed"]), g["kind"], bool(g["passed"])), {"after_resolution": True})),
    (r"(?:on|after) a successful (?:(?P<directed>directed) action|(?P<kind>bleed))"
     r"|at the end of a successful action \(after resolving the action\)",
     lambda g: (_resolved("successful", bool(g["directed"]), g["kind"], False), {"after_resolution": True})),
    (r"by a (?P<locked>locked )?(?P<noun>vampire|minion) who has blocked,? after block resolution",
     lambda g: (_has_blocked(bool(g["locked"]), g["noun"].casefold() == "vampire"), {"after_resolution": True, "after_block": True, "minion": True,
                                                  "locked": bool(g["locked"])})),
    (r"when this (?:acting )?(?:vampire|minion) successfully bleeds a Methuselah",
     lambda g: (_all(_resolved("successful", False, "bleed", False), _resolved_by_this), {"after_resolution": True,
                                                                                         "minion": True})),
    (r"if the action was (?P<how>successful|blocked)",
     lambda g: (_resolved(g["how"], False, None, False), {"after_resolution": True})),
    (r"(?:if|when) (?P<who>" + _OTHER + r") (?:attempts|is attempting) to block(?P<this> this (?:acting )?(?:minion|vampire))?",
     lambda g: (_all(_attempting(g["who"]), *([_this_acting] if g["this"] else [])),
                {"minion": bool(g["this"]) or _younger(g)["minion"]})),
    (r"(?:if|when) (?P<who>" + _OTHER + r") (?:successfully )?blocks" + _END,
     lambda g: (_attempting(g["who"], succeeds=True), _younger(g))),
    (r"(?:during|on) (?:a|an) (?:(?P<kinds>" + _KIND + r"(?:, " + _KIND + r")*(?:,? or " + _KIND + r")?) )?"
     r"(?:action|(?P<bleed>bleed))(?: (?:directed at|against) (?P<you>you)(?: \(or a card you control\))?)?",
     lambda g: (_during_action(re.split(r",? or |, ", g["kinds"]) if g["kinds"]
                               else (["bleed"] if g["bleed"] else []), bool(g["you"])), {})),
    (r"(?:if|when) (?P<who>" + _OTHER + r") is bleeding you(?: for (?P<n>\d+) or more)?",
     lambda g: (_bleeding_you(g["who"], int(g["n"]) if g["n"] else None), _younger(g))),
    (r"when you are being bled by (?P<who>" + _OTHER + r")" + _END,
     lambda g: (_bleeding_you(g["who"], None), _younger(g))),
    (r"(?:if|when) (?P<who>" + _OTHER + r") is (?:taking|performing) an action directed at (?:you"
     r"(?: \(or a card you control\))?|(?P<mine>a minion you control))",
     lambda g: (_all(_acting_is(g["who"]), _directed_at("yours") if g["mine"] else _during_action([], True)),
                _younger(g))),
    (r"the bleed amount is (?P<n>\d+) or more", lambda g: (_bleed_amount(int(g["n"])), {})),
    (r"(?:if|when) (?P<who>" + _OTHER + r") is acting", lambda g: (_acting_is(g["who"]), {**_younger(g), "acting": True})),
    (r"if the acting (?:minion|vampire) has (?P<name>[A-Z][a-z]+) \[(?P<code>[a-z]{3})\]",
     lambda g: (_acting_has(g["code"], g["name"]), {})),
    (r"if the acting (?:minion|vampire) has superior (?P<name>[A-Z][a-z]+) \[(?P<code>[A-Z]{3})\]",
     lambda g: (_acting_has(g["code"].casefold(), g["name"], superior=True), {})),
    (r"by a (?:vampire|minion) with more than (?P<n>\d+) intercept",
     lambda g: (_more_intercept(int(g["n"])), {"minion": True})),
    (r"if the blocking (?:minion|vampire) is (?P<who>" + _OTHER + r")" + _END,
     lambda g: (_attempting(g["who"]), _younger(g))),
    (r"if the acting (?:minion|vampire) is (?P<who>" + _OTHER + r")" + _END,
     lambda g: (_acting_is(g["who"]), _younger(g))),
    (r"(?:if|when) (?P<who>" + _OTHER + r") is bleeding" + _END,
     lambda g: (_all(_kind_is("bleed", False), _acting_is(g["who"])), _younger(g))),
    (r"(?:if|when) (?P<who>" + _OTHER + r") is hunting",
     lambda g: (_all(_kind_is("hunt", False), _acting_is(g["who"])), _younger(g))),
    (r"when attempting to block (?:an? (?P<kind>bleed|political|hunt|directed|undirected) action)",
     lambda g: (_all(_this_blocks(None), _during_action([g["kind"].casefold()], False)), {"minion": True})),
    (r"(?:if|when) this " + _SELF + r" blocks(?: (?P<who>" + _OTHER + r")(?P<bleeding> bleeding you)?)?" + _END,
     lambda g: (_all(_this_is(g["self"]), _this_blocks(g["who"], succeeds=True),
                     *([_during_action(["bleed"], True)] if g["bleeding"] else [])), {"minion": True})),
    (r"(?:if|when) this " + _SELF + r" blocks (?:an? (?P<kind>recruit ally|employ retainer|bleed|political|hunt|equip|"
     r"directed|undirected) action|an action directed at (?P<you>you)(?: \(or a card you control\))?)",
     lambda g: (_all(_this_is(g["self"]), _this_blocks(None, succeeds=True),
                     _during_action([g["kind"].casefold()] if g["kind"] else [], bool(g["you"]))), {"minion": True})),
    (r"by a blocking (?:vampire|minion)", lambda g: (_this_blocks(None), {"minion": True})),
    (r"during an action directed at (?:(?P<this>this (?:vampire|minion))|a (?:minion|vampire)(?: or location)? you "
     r"control|(?P<location>a location))",
     lambda g: (_directed_at("this" if g["this"] else "location" if g["location"] else "yours"),
                {"minion": bool(g["this"])})),
    (r"(?:if|when) this " + _SELF + r" is blocked",
     lambda g: (_all(_this_is(g["self"]), _this_blocked), {"minion": True})),
    (r"(?:(?:in|during) combat with|against) (?P<who>" + _OTHER + r")" + _END,
     lambda g: (_in_combat_with(g["who"]), {"minion": True})),
    (r"if this (?:vampire|minion) has more blood than the opposing (?:vampire|minion)",
     lambda g: (_more_blood, {"minion": True})),

    (r"when an action is blocked|(?:(?:of )?(?:the )?combat )?resulting from a block|in the resulting combat",
     lambda g: (_combat_from_block, {})),
    (r"as this (?:minion|vampire) chooses (?:a|his or her|its|their) strike", lambda g: (_choosing_strike, {"minion": True})),
    (r"if you have (?:at least (?P<n>\d+)|(?P<one>one) or more) victory points?",
     lambda g: (_victory_points(int(g["n"] or 1)), {})),
    (r"if (?P<whose>you) control the Edge|if (?P<prey>your prey) (?:has|controls) the Edge"
     r"(?P<none> or the Edge is uncontrolled)?",
     lambda g: (_edge("you" if g["whose"] else "prey", uncontrolled=bool(g["none"])), {})),
    (r"if you have at least one (?P<who>(?:(?:ready|unlocked|locked) )*[\w -]+?) in play",
     lambda g: (_you_control(_a(g["who"])), _younger(g))),
    (_WHO, lambda g: (_who(g["adjs"] or "", g["noun"], bool(g["other"]), bool(g["outside"]), bool(g["torpor"]),
                           ("above", int(g["n1"])) if g["above"] else
                           (g["moreless"].casefold(), int(g["n2"])) if g["n2"] else None),
                      {"locked": "locked" in (g["adjs"] or "").casefold().replace("unlocked", ""),
                       "other_than_acting": bool(g["other"]) or "non-acting" in (g["adjs"] or "").casefold(),
                       "outside_combat": bool(g["outside"]), "torpor": bool(g["torpor"]), "minion": True})),
]]
# between two clauses: a comma, a semicolon or a space, with "and" or a repeated "only usable"
_JOIN = re.compile(r"(?:,\s*|;\s*|\s+)(?:and\s+|only usable\s+)?", re.I)


def condition_of(sentence: str) -> Optional[Condition]:
    """The "Only usable ..." sentence read into its clauses' checks, or None when a part of it is not one of the
    forms the engine reads (or it is not such a sentence). A "Not usable ..." sentence is read when it is one
    clause of the moment or the action ("Not usable on the first round of combat."): the card is refused when
    it holds."""
    text = sentence.strip().rstrip(".")
    start = re.match(r"(?:Only|(?P<not>Not)) usable\s+", text, re.I)
    if start is None:
        return None
    clauses, at = [], start.end()
    flags = {"locked": False, "other_than_acting": False, "minion": False, "outside_combat": False, "torpor": False,
             "after_resolution": False, "after_block": False, "acting": False}
    while at < len(text):
        found = max((m for m in (pattern.match(text, at) for pattern, _ in _CLAUSES) if m and _named(m.groupdict())),
                    key=lambda m: m.end(), default=None)
        if found is None or found.end() == at:
            return None
        builder = next(b for pattern, b in _CLAUSES if pattern is found.re)
        check, sets = builder(found.groupdict())
        clauses.append((found.group(0), check))
        flags.update({k: flags[k] or v for k, v in sets.items()})
        at = found.end()
        if at < len(text):
            join = _JOIN.match(text, at)
            if join is None or join.end() == at:
                return None
            at = join.end()
    if flags.pop("acting") and flags["after_resolution"]:
        # "when a non-Seraph Black Hand vampire is acting, after resolution": a card played once the action resolved,
        # by another vampire than the one that acted (Seraph's Second): who plays it then is not read
        return None
    if start.group("not"):  # one clause, of the moment or the action: who may play it is not negated here
        if len(clauses) != 1 or any(v for k, v in flags.items() if k != "minion"):
            return None
        return Condition(tuple(clauses), negated=True, minion=flags["minion"])
    return Condition(tuple(clauses), **flags) if clauses else None


# -- a strike card's strike ----------------------------------------------------------------------------------------
_STRIKE = re.compile(r"Strike(?P<ranged>, ranged)?: (?:(?P<n>\d+)(?P<r>R)? (?P<unprev>unpreventable )?(?P<agg>aggravated )?"
                     r"(?P<unprev2>unpreventable )?damage|(?P<dodge>dodge)|(?P<ends>combat ends)"
                     r"|steal (?P<steal>\d+) blood(?: or life)?(?: \(becoming blood\))?"
                     r"|(?P<hand>hand strike)(?: at \+(?P<bonus>\d+) damage)?(?P<handagg>, aggravated)?)"
                     r"(?P<first>, with first strike| \(first strike\))?\.?")


class StrikeText(NamedTuple):
    """A strike as a card prints it (`strike_of`)."""

    kind: str  # damage | hand | dodge | combat ends | steal blood
    amount: Optional[int]  # damage, blood to steal, or a hand strike's damage beyond the striker's strength
    ranged: bool
    aggravated: bool
    first: bool  # first strike
    unpreventable: bool


def strike_of(sentence: str) -> Optional[StrikeText]:
    """The strike a combat card's sentence states ("Strike: 2R damage.", "Strike: 2R unpreventable damage.",
    "Strike: dodge.", "Strike: combat ends.", "Strike, ranged: steal 1 blood or life (becoming blood).", "Strike:
    hand strike at +1 damage.", "..., with first strike"), as (kind, amount, ranged, aggravated, first,
    unpreventable), a hand strike's amount being its damage beyond the striker's strength; None for another
    sentence."""
    m = _STRIKE.fullmatch(sentence.strip())
    if m is None:
        return None
    first = bool(m.group("first"))
    if m.group("dodge"):
        return StrikeText("dodge", None, False, False, first, False)
    if m.group("ends"):
        return StrikeText("combat ends", None, False, False, first, False)
    if m.group("steal"):
        return StrikeText("steal blood", int(m.group("steal")), bool(m.group("ranged")), False, first, False)
    if m.group("hand"):  # the amount: the damage beyond the striker's strength
        return StrikeText("hand", int(m.group("bonus") or 0), False, bool(m.group("handagg")), first, False)
    if m.group("unprev") and m.group("unprev2"):
        return None
    return StrikeText("damage", int(m.group("n")), bool(m.group("r") or m.group("ranged")), bool(m.group("agg")),
                      first, bool(m.group("unprev") or m.group("unprev2")))


# -- a level written from another: "As above, ..." -------------------------------------------------------------
# A card's superior line is often written from its inferior one ("[AUS] +1 stealth. [OBF] As above, but for +2
# stealth."). The line is written out from the line above it, as the printed words say, and then read like any
# line. Three ways of saying the change are read:
#   "but <quantity>" replaces the one quantity of the same kind above ("but for 3R damage", "but with +2
#   intercept", "but this action is at +2 stealth");
#   "with <a rider>" adds to the line above: a press, a maneuver, an additional strike or first strike to its one
#   strike ("Strike: 2R damage, with an optional press."), a +N stealth, intercept or bleed as a sentence of its own;
#   "and <a clause>" adds the clause as a sentence of its own ("As above, and unlock this vampire.").
# "but do not lock this vampire" drops the line's lock. Any other change is not written out (the line stays unread,
# as printed): a change is never guessed.
# "As above, but ...", "As [val] above, and ..." (the line of those Disciplines: `above_codes`)
_AS_ABOVE = re.compile(r"As (?:(?P<codes>(?:\[[A-Za-z]{3}\])+) )?above,? (?P<how>but|with|and) (?P<change>.+?)\.?")
_QUANTITY = r"(?P<q>[+-]?\d+R?) (?P<unit>aggravated damage|damage|stealth|intercept|bleed|strength|votes?)"
_BUT = re.compile(r"(?:for|with|at|this action is at|this vampire gets) " + _QUANTITY)
_ABOVE_QUANTITY = re.compile(r"(?<![\w+-])[+-]?\d+R? (?P<unit>aggravated damage|damage|stealth|intercept|bleed|"
                             r"strength|votes?)\b")
_STRIKE_RIDER = re.compile(r"(?:an|one|\d) (?:optional press|optional maneuver|additional strikes?)(?: \(limited\))?"
                           r"(?:, only usable to (?:continue|end) combat)?|first strike")
# a strike's one rider as printed ("Strike: dodge, with an optional press."): a second of the other kind joins it
_RIDER_ON_STRIKE = re.compile(r", with (?P<rider>[^,]+?)\.?$")
_MANEUVER_OR_PRESS = re.compile(r"(?:an|one|1) optional (?:maneuver|press)")
_ADDED_BONUS = re.compile(r"\+\d (?:stealth|intercept|bleed)")
_COMBAT_RIDER = re.compile(r"(?:an|one|\d) optional (?:maneuver or press|maneuver|press) during the (?:first round of the )?"
                           r"resulting combat if this vampire (?:blocks|is blocked)")
_DROPS = {"do not lock this vampire": re.compile(r"Lock this (?:reacting |acting )?vampire\.?$"),
          "do not lock this reacting vampire": re.compile(r"Lock this (?:reacting )?vampire\.?$")}
_LOCK_AND = re.compile(r"Lock this (?:reacting )?vampire and (?P<rest>.+)")
# a library card's text split into its sentences (cards.modelled reads them one by one)
LIBRARY_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z(+\[])")


def is_as_above(text: str) -> bool:
    """Whether a line is written from the line above it ("As above, ...")."""
    return _AS_ABOVE.fullmatch(text.strip()) is not None


def above_codes(text: str) -> Optional[tuple[tuple[str, ...], str]]:
    """The Discipline line an "As [val] above, ..." line names: (its codes, its level: "inferior" for lower case,
    "superior" for upper case); None when the line names none ("As above, ...")."""
    m = _AS_ABOVE.fullmatch(text.strip())
    if m is None or not m.group("codes"):
        return None
    codes = re.findall(r"\[([A-Za-z]{3})\]", m.group("codes"))
    return tuple(c.casefold() for c in codes), "superior" if codes[0].isupper() else "inferior"


def life_as_above(name: str, line: str, above: Optional[str]) -> Optional[int]:
    """The life an ally's or retainer's "As above, but Raven Spy has 2 life." line gives (its card's name, "it" or
    "this ally"), the rest read from `above`; None when `line` is no such line or there is no line above."""
    m = re.fullmatch(r"As above, but (?:this ally|it|" + re.escape(name) + r") has (?P<life>\d+) life\.?", line.strip())
    return int(m.group("life")) if m and above is not None else None


def written_out(line: str, above: str) -> Optional[str]:
    """The "As above, ..." `line` written out from `above` (the line it is written from, as printed), or None when
    its change is not one of the ways read here."""
    m = _AS_ABOVE.fullmatch(line.strip())
    if m is None:
        return None
    how, change = m.group("how"), m.group("change").strip()
    sentences = [s.strip() for s in LIBRARY_SENTENCE.split(above.strip()) if s.strip()]
    if how == "but":
        if change.casefold() == "usable by a locked vampire":  # ("As above, but usable by a locked vampire.")
            return " ".join(sentences + ["Usable by a locked vampire."])
        if change.startswith("choose "):  # "As above, but choose any vampire.": the choice above, of those
            chosen = [i for i, x in enumerate(sentences) if x.startswith("Choose ")]
            if len(chosen) != 1:
                return None
            sentences[chosen[0]] = "C" + change[1:] + "."
            return " ".join(sentences)
        drop = _DROPS.get(change.casefold())
        if drop is not None:
            kept = [s for s in sentences if not drop.match(s)]
            # "Lock this vampire and end the action." without its lock: "End the action." (Mental Maze)
            kept = [(lambda rest: rest[0].upper() + rest[1:])(c.group("rest")) if (c := _LOCK_AND.fullmatch(s))
                    else s for s in kept]
            return " ".join(kept) if kept != sentences else None
        q = _BUT.fullmatch(change)
        if q is None:
            return None
        unit = q.group("unit").rstrip("s")
        found = [(i, hit) for i, s in enumerate(sentences) for hit in _ABOVE_QUANTITY.finditer(s)
                 if hit.group("unit").rstrip("s") == unit]
        if len(found) != 1:  # none, or two of its kind: which one changes is not said
            return None
        i, hit = found[0]
        number = re.match(r"[+-]?\d+R?", hit.group(0)).group(0)
        if number[0] in "+-" and q.group("q")[0] not in "+-" or ("R" in number) != ("R" in q.group("q")):
            return None  # "+1 stealth" for "2 stealth", a ranged strike for a close one: not the same quantity
        sentences[i] = sentences[i][:hit.start()] + q.group("q") + sentences[i][hit.start() + len(number):]
        return " ".join(sentences)
    if how == "with":
        if _ADDED_BONUS.fullmatch(change):
            return " ".join(sentences + [change + "."])
        if _COMBAT_RIDER.fullmatch(change):  # "with 1 optional maneuver during the resulting combat if this vampire
            # blocks": what the card gives in the combat its block begins, a sentence of its own
            return " ".join(sentences + [f"This vampire gets {change}."])
        if not _STRIKE_RIDER.fullmatch(change):
            return None
        strikes = [i for i, s in enumerate(sentences) if s.startswith("Strike: ")]
        if len(strikes) != 1:
            return None
        i = strikes[0]
        rider = _RIDER_ON_STRIKE.search(sentences[i])
        if rider is None:
            sentences[i] = sentences[i].rstrip(".") + f", with {change}."
        elif _MANEUVER_OR_PRESS.fullmatch(change) and _MANEUVER_OR_PRESS.fullmatch(rider.group("rider")) and \
                ("maneuver" in change) != ("maneuver" in rider.group("rider")):
            # a maneuver added to a strike's press, or a press to its maneuver: "Strike: 1R damage, with 1 optional
            # maneuver and 1 optional press." (Aid from Bats at superior)
            sentences[i] = sentences[i].rstrip(".") + f" and {change}."
        else:  # a rider the strike already has, or one with a limit of its own: how the two go together is not said
            return None
        return " ".join(sentences)
    # "and <clause>"
    return " ".join(sentences + [change[0].upper() + change[1:] + "."])


# -- a crypt card's bonus that holds at some times only --------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Minions a crypt card's bonus names ("a ready Ventrue", "a titled vampire", "Camarilla vampires", "an older
    vampire"): `kind` is "clan", "sect", "titled", "ally", "minion", "vampire", "red list", "older" or "younger" (than the
    vampire whose card it is), `name` the clan or sect as printed."""

    kind: str
    name: str = ""
    below: int = 0  # "vampires with capacity 3 or less": of capacity below 4 (0: any)
    above: int = 0  # "with capacity 4 or more": above 3 (0: any)
    age: str = ""  # "younger Tremere": "younger" (or "older") than the vampire whose card it is, too

    def fits(self, o, me=None) -> Optional[bool]:
        """Whether the minion `o` is one of them (`me`: the vampire whose card names them); None when the table does
        not say (a vampire described without its clan or sect)."""
        if self.below or self.above:
            if o.kind != VAMPIRE or (self.below and o.capacity >= self.below) or (self.above and o.capacity <= self.above):
                return False
        if self.age and (o.kind != VAMPIRE or not Group(self.age).fits(o, me)):
            return False
        if self.kind == "minion":
            return True
        if self.kind == "ally":
            return o.kind == ALLY
        if self.kind == "red list":
            return "red list" in o.traits
        if o.kind != VAMPIRE:
            return False
        if self.kind == "vampire":
            return True
        if self.kind in ("older", "younger"):
            return me is not None and (o.capacity > me.capacity if self.kind == "older" else o.capacity < me.capacity)
        if self.kind == "titled":
            return o.titled
        if self.kind == "sect":
            if o.anarch:  # becoming anarch is a change of sect
                return self.name.casefold() == "anarch"
            return None if o.sect is None else o.sect.casefold() == self.name.casefold()
        if o.clan is None:
            return None
        return same_clan(o.clan, self.name) or same_clan(o.clan + "s", self.name)  # "Malkavians"

    @staticmethod
    def any_fits(groups: tuple["Group", ...], o, me=None) -> Optional[bool]:
        """Whether `o` is of one of `groups`: True, False, or None when the table does not say for one of them."""
        found = [g.fits(o, me) for g in groups]
        return True if True in found else None if None in found else False

    def words(self) -> str:
        bounds = (f" of capacity below {self.below}" if self.below else "") + (
            f" of capacity above {self.above}" if self.above else "") + (f", {self.age}" if self.age else "")
        return {"titled": "titled vampire", "ally": "ally", "minion": "minion", "vampire": "vampire",
                "red list": "Red List minion",
                "older": "older vampire", "younger": "younger vampire"}.get(
            self.kind, f"{self.name} vampire" if self.kind == "sect" else self.name) + bounds


@dataclass(frozen=True)
class Bonus:
    """A crypt card's "+N stealth, bleed, intercept or strength" that holds at some times only, and when:
    `on` is "action" (its own actions: stealth, bleed), "block" (its block attempts: intercept) or "combat"
    (strength); `kinds` the actions it holds on (empty: any), `directed` whether they must be directed (None:
    either); `groups` the minions it names, one of which must be: a ready one the Methuselah bled controls
    ("action"), the acting minion ("block"), the opposing minion ("combat")."""

    stat: str
    amount: int
    on: str
    sentence: str  # as printed
    kinds: frozenset = frozenset()
    directed: Optional[bool] = None
    groups: tuple[Group, ...] = ()
    ready: bool = True  # of "action": the Methuselah bled controls a *ready* one ("controls a Ventrue": any)
    not_kinds: frozenset = frozenset()  # the actions it does not hold on ("on non-hunt actions": hunt)
    edge: bool = False  # "While you have the Edge, ...": while its Methuselah has the Edge
    pool_at_most: Optional[int] = None  # "While you have 5 or fewer pool, ...": while its Methuselah has that or less
    none: bool = False  # of "action": the Methuselah controls none of `groups` ("who controls no ready titled vampires")

    def group_words(self) -> str:
        return " or ".join(("an " if g.words()[0].casefold() in "aeiou" else "a ") + g.words() for g in self.groups)


_SECTS = ("camarilla", "sabbat", "laibon", "independent", "anarch")
_NOT_A_NAME = frozenset({"the", "lord", "lady", "sir", "dame", "baron", "count", "countess", "prince", "princess",
                         "king", "queen", "duke", "father", "mother", "sister", "brother", "doctor", "dr.", "high",
                         "priest", "priestess", "bishop", "archbishop", "cardinal", "regent", "justicar",
                         "primogen", "inner", "circle", "elder", "old", "young", "mr.", "mrs.", "miss", "saint", "st.",
                         *_SECTS})
_ALT = re.compile(r"(?:a |an |the )?(?:ready )?(?:other )?(?P<w>titled vampires?|all(?:y|ies)|minions?|vampires?|Red List minions?"
                  r"|(?P<age>older|younger) vampires?|(?P<sect>Camarilla|Sabbat|Laibon|Independent|Anarch)s?(?: vampires?)?"
                  r"|(?P<clan>Followers? of Set|Daughters? of Cacophony|Children of Osiris"
                  r"|(?-i:[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?(?: antitribu)?))(?: vampires?)?)", re.I)


def groups_of(text: str) -> Optional[tuple[Group, ...]]:
    """"a ready Toreador or Toreador antitribu", "Lasombra and Tzimisce", "an ally or a Camarilla vampire": each
    alternative a Group, or None when one is not a form read."""
    out = []
    for alt in re.split(r",? (?:or|and) |, ", text.strip()):
        aged = re.fullmatch(r"(?P<age>[Oo]lder|[Yy]ounger) (?P<rest>(?-i:[A-Z]).+)", alt.strip())
        if aged:  # "younger Tremere", "Younger Camarilla vampires": a clan or sect, older or younger too
            inner = groups_of(aged.group("rest"))
            if not inner or len(inner) != 1 or inner[0].kind not in ("clan", "sect"):
                return None
            out.append(Group(inner[0].kind, inner[0].name, age=aged.group("age").casefold()))
            continue
        m = _ALT.fullmatch(alt.strip())
        if m is None:
            return None
        w = m.group("w").casefold()
        if m.group("age"):
            out.append(Group(m.group("age").casefold()))
        elif m.group("sect"):
            out.append(Group("sect", m.group("sect")))
        elif m.group("clan"):
            clan = re.sub(r"^(Follower|Daughter)s of", r"\1 of", m.group("clan"))
            if clan.casefold() in _SECTS or not is_clan(clan):  # "Princes", "Younger Tremere": no clan's name
                return None
            out.append(Group("clan", clan))
        elif w.startswith("titled"):
            out.append(Group("titled"))
        elif w.startswith("all"):
            out.append(Group("ally"))
        elif w.startswith("red list"):
            out.append(Group("red list"))
        elif w.startswith("vampire"):
            out.append(Group("vampire"))
        else:
            out.append(Group("minion"))
    return tuple(out)


# -- the minion's Disciplines ---------------------------------------------------------------------------
def level_of(entry: str) -> tuple[str, str, str]:
    """(entry, its name or code folded, level) of one of a minion's Disciplines as a scenario writes it:
    `dom` or `Dominate` basic; `DOM`, `superior Dominate` or `Dominate (superior)` superior."""
    text = entry.strip()
    low = text.casefold()
    if low.startswith("superior "):
        return entry, low[len("superior "):].strip(), "superior"
    if low.endswith("(superior)"):
        return entry, low[: -len("(superior)")].strip(), "superior"
    if low.endswith("(inferior)") or low.endswith("(basic)"):
        return entry, low.rsplit("(", 1)[0].strip(), "inferior"
    if len(text) == 3 and text.isupper():
        return entry, low, "superior"
    return entry, low, "inferior"


def discipline_level(m, code: str, name: str) -> Optional[str]:
    """The level at which `m` has a Discipline (by code or name), or None."""
    best = None
    for entry in m.disciplines:
        _, key, level = level_of(str(entry))
        if key in (code.casefold(), name.casefold()):
            if level == "superior":
                return level
            best = level
    return best


# -- the minions a condition names ------------------------------------------------------------------------------
_NAMED_TRAITS = frozenset({"black hand", "seraph", "red list", "infernal"})  # traits a condition names minions by


@dataclass(frozen=True)
class Named:
    """The minions a condition's clause names beyond `Group`s ("an ally or younger vampire" is groups alone): "a
    Camarilla or Sabbat vampire", "a non-anarch minion", "an older non-Anarch vampire", "a vampire without Auspex
    [aus]", "a vampire who is not Black Hand", "a non-Seraph Black Hand vampire", "a minion controlled by your
    predator", "a minion you control", "a locked prince or justicar". "younger" and "older" are told against the
    minion playing the card (`me`)."""

    words: str  # as printed
    groups: tuple[Group, ...] = ()  # one of these (none: any minion)
    titles: tuple[str, ...] = ()  # or one holding one of these titles
    states: frozenset = frozenset()  # ready, unlocked, locked
    not_group: Optional[Group] = None  # "non-anarch"
    trait: str = ""  # "Black Hand vampire"
    not_trait: str = ""  # "non-Seraph", "who is not Black Hand" ("titled": not titled)
    lacks: tuple[str, str] = ("", "")  # "without Auspex [aus]": (code, name)
    whose: str = ""  # you | your predator | your prey | another Methuselah

    def misfit(self, d, o, me, said: str) -> Optional[str]:
        """Why the minion `o` is not one of them (None: it is), `me` playing the card; NotModelled when the table does
        not say (a vampire described without its clan or sect): `said`, what the card says."""

        def unknown():
            return NotModelled(f"{said}, and the table does not say whether {o.name} is {self.words} (give its clan "
                               f"and sect)", [R.CARD_REQUIREMENTS])
        for state in sorted(self.states):
            if state == "ready" and not o.ready:
                return f"{o.name} is not ready"
            if state == "locked" and not o.locked:
                return f"{o.name} is not locked"
            if state == "unlocked" and o.locked:
                return f"{o.name} is locked"
        player = me.controller
        if self.whose:
            owners = {"you": (player,), "your predator": (d.predator(player),), "your prey": (d.prey(player),)}
            if self.whose == "another Methuselah" and o.controller == player:
                return f"{o.name} is {player}'s own minion, not another Methuselah's"
            if self.whose in owners and o.controller not in owners[self.whose]:
                return f"{o.name} is not controlled by " + (player if self.whose == "you" else
                                                            f"{player}'s {self.whose[5:]} ({owners[self.whose][0]})")
        if self.titles or self.groups:
            titled = holds_title(o, self.titles)
            fits = True if titled else Group.any_fits(self.groups, o, me) if self.groups else False
            if fits is None:
                raise unknown()
            if not fits:
                aged = any(g.kind in ("older", "younger") or g.age for g in self.groups) and o.kind == VAMPIRE
                return f"{o.name} is not {self.words}" + (
                    f" (of capacity {o.capacity}; {me.name}, playing the card, {me.capacity})" if aged else "")
        if self.not_group is not None:
            fits = self.not_group.fits(o, me)
            if fits is None:
                raise unknown()
            if fits:
                return f"{o.name} is {_a(self.not_group.words())}, and the card says {self.words}"
        if self.trait and self.trait not in o.traits:
            return f"{o.name} is not {self.words}"
        if self.not_trait and (o.titled if self.not_trait == "titled" else self.not_trait in o.traits):
            return f"{o.name} is {self.not_trait}, and the card says {self.words}"
        code, name = self.lacks
        if code and (o.kind != VAMPIRE or discipline_level(o, code, name) is not None):
            return f"{o.name} is not {self.words}"
        return None


def holds_title(m, titles) -> bool:
    """Whether the minion holds one of `titles` (folded: "prince", "justicar"), its title as the table or its card
    gives it ("prince of Atlanta", "Tremere justicar"); a contested title is held by neither claimant for this."""
    held = " ".join((m.title or "").casefold().split())
    return bool(held) and not m.title_contested and any(re.search(rf"\b{re.escape(t)}\b", held) for t in titles)


def named_of(words: str) -> Optional[Named]:
    """The minions `words` name (`Named`), or None when a part is not a form read."""
    text = " ".join(words.split())
    fields: dict = {"words": text}
    m = re.fullmatch(r"(?P<rest>.+?)(?: (?P<mine>you control)| controlled by (?P<whose>your predator|your prey|"
                     r"another Methuselah))", text)
    if m:
        fields["whose"] = "you" if m.group("mine") else m.group("whose")
        text = m.group("rest")
    m = re.fullmatch(r"(?P<rest>.+?) (?:without|who does not have) (?P<name>[A-Z][a-z]+) \[(?P<code>[a-z]{3})\]", text)
    if m:
        fields["lacks"] = (m.group("code"), m.group("name"))
        text = m.group("rest")
    m = re.fullmatch(r"(?P<rest>.+?) who is not (?P<what>Black Hand|titled)", text)
    if m:
        fields["not_trait"] = m.group("what").casefold()
        text = m.group("rest")
    m = re.fullmatch(r"(?P<art>(?:an?|another) )?(?P<states>(?:(?:ready|unlocked|locked),? )*)(?P<rest>.+)", text)
    fields["states"] = frozenset(m.group("states").replace(",", " ").split())
    text = m.group("rest")
    alternatives = re.split(r",? or |, ", text)
    if all(t.casefold() in TITLES for t in alternatives):
        return Named(titles=tuple(t.casefold() for t in alternatives), **fields)
    m = re.fullmatch(r"(?P<age>older |younger )?non-(?P<not>anarch|titled|Seraph|Black Hand|Red List|[A-Z][a-z]+"
                     r"(?: antitribu)?) (?P<rest>.+)", text, re.I)
    if m:
        what = m.group("not").casefold()
        if what in _NAMED_TRAITS or what == "titled":
            fields["not_trait"] = what
        else:
            group = groups_of(m.group("not"))
            if group is None or len(group) != 1:
                return None
            fields["not_group"] = group[0]
        text = (m.group("age") or "") + m.group("rest")
    m = re.fullmatch(r"(?P<age>older |younger )?(?P<trait>Black Hand|Seraph|Red List|infernal) (?P<rest>vampire|minion)",
                     text, re.I)
    if m:
        fields["trait"] = m.group("trait").casefold()
        text = (m.group("age") or "") + m.group("rest")
    groups = groups_of(text)
    if groups is None:
        aged = re.fullmatch(r"(?P<age>older|younger) (?P<rest>vampire|minion)", text)
        if aged is None:
            return None
        groups = (Group(aged.group("age")),)
    return Named(groups=groups, **fields)


# a bonus's action words -> the engine's action kinds (not the conditions' `_KINDS` above: "recruit ally")
_BONUS_KINDS = {"bleed": "bleed", "hunt": "hunt", "political": "political", "diablerie": "diablerize",
                "recruit": "recruit", "employ": "employ", "equip": "equip"}
_KIND_WORDS = r"(?:bleed|hunt|political|diablerie|recruit|employ|equip)"
_KIND_LIST = r"(?P<kinds>" + _KIND_WORDS + r"(?:(?:,| and| or|, and|, or) " + _KIND_WORDS + r")*) actions?"
# (the stats a scope is read for, the scope's pattern): the groups read from a scope are its `kinds`, `dir`
# (directed, undirected), `always`, `group` (the minions named) and the fixed kinds of `hunting`, `bleeding`,
# `employing`, `recruiting`
# the Methuselah a bonus names by the minions they control, or do not: "who controls a ready Ventrue", "controlling no
# ready titled vampire", "who doesn't control a ready Sabbat vampire", "who controls neither a ready Tremere nor a ready
# Tremere antitribu" (`_none_of` reads the group's words)
_CONTROLS = r"(?:who (?:controls?|(?P<doesnt>doesn't|does not) control)|controlling) "
_BONUS_SCOPES: list[tuple[str, re.Pattern]] = [(stats, re.compile(p, re.I)) for stats, p in [
    ("stealth bleed intercept", r"(?:on|during) non-(?P<notkind>bleed|hunt|political) actions"),
    ("stealth bleed", r"(?:on|during) " + _KIND_LIST + r"|(?:on|during) (?P<dir>directed|undirected) actions"
                      r"|(?P<always>on each of (?:his|her|their|its) actions)|(?P<hunting>when hunting)"
                      r"|(?P<bleeding>when bleeding)|(?P<employing>when employing retainers)(?P<recruiting> and "
                      r"recruiting allies)?"),
    ("stealth bleed", r"(?:(?P<bleeding>when bleeding)|against|(?:on|during) (?:(?P<kinds>bleed) )?actions (?P<at>directed at)) "
                      r"(?:a |the )?Methuselahs? " + _CONTROLS + r"(?P<group>.+)"),
    ("strength", r"(?:when )?in combat with (?P<group>.+)"),
    ("intercept", r"(?:when attempting to block|during|vs\.) (?:an? )?" + _KIND_LIST +
                  r"|(?:during|when attempting to block|when blocking) (?P<dir>directed|undirected) actions"),
    ("intercept", r"(?:when attempting to block|against) (?P<group>.+)"),
]]
_BONUS_HEAD = re.compile(r"(?:While you (?:have|control) (?:(?P<edge>the Edge)|(?P<pool>\d+) or fewer pool), )?(?P<who>.+?) gets "
                         r"(?:an additional )?(?P<n>[+-]\d) (?P<stat>stealth|bleed|intercept|strength)"
                         r"(?: (?P<scope>.+?))?\.?")


def bonus_of(sentence: str, name: str) -> Optional[Bonus]:
    """The crypt card `name`'s sentence read as a `Bonus` ("Abiku gets +1 stealth when hunting."), or None when it is
    not one of the forms read (then it stays unread)."""
    m = _BONUS_HEAD.fullmatch(sentence.strip())
    if m is None or not is_self(m.group("who"), name):
        return None
    stat, scope = m.group("stat"), m.group("scope")
    held = dict(edge=bool(m.group("edge")), pool_at_most=int(m.group("pool")) if m.group("pool") else None)
    if scope is None:  # "While you have the Edge, Anxo gets +1 strength.": always, while that holds
        if not (held["edge"] or held["pool_at_most"] is not None):
            return None  # (an unconditional bonus is read as the card's own figure: _read_sentence)
        return Bonus(stat, int(m.group("n")), {"intercept": "block", "strength": "combat"}.get(stat, "action"),
                     sentence.strip(), **held)
    for stats, pattern in _BONUS_SCOPES:
        s = pattern.fullmatch(scope) if stat in stats.split() else None
        if s is None:
            continue
        g = {k: v for k, v in s.groupdict().items() if v}
        kinds = {_BONUS_KINDS[k.casefold()] for k in re.findall(_KIND_WORDS, g.get("kinds", ""), re.I)}
        kinds |= {k for k, key in (("hunt", "hunting"), ("employ", "employing"), ("recruit", "recruiting")) if key in g}
        if "bleeding" in g or (stat == "bleed" and "group" in g):
            kinds.add("bleed")
        directed = {"directed": True, "undirected": False}.get((g.get("dir") or "").casefold())
        if "at" in g:  # "on actions directed at a Methuselah who ...": directed ones, at that Methuselah
            directed = True
        groups, none = (), False
        if "group" in g:
            none, words = _none_of(g["group"], "doesnt" in g)
            groups = groups_of(words) if words else None
            if groups is None:
                return None
        on = {"intercept": "block", "strength": "combat"}.get(stat, "action")
        if on == "action" and any(x.kind in ("older", "younger") for x in groups):
            return None  # a Methuselah's minion older than the vampire: not read
        ready = "group" not in g or bool(re.match(r"(?:a |an |the )?ready ", words, re.I))
        if none and on != "action":
            return None  # ("in combat with no ...": not a form cards print)
        not_kinds = frozenset({_BONUS_KINDS[g["notkind"].casefold()]}) if g.get("notkind") else frozenset()
        if not_kinds and stat == "intercept":
            on = "block"
        return Bonus(stat, int(m.group("n")), on, sentence.strip(), frozenset(kinds), directed, groups, ready,
                     not_kinds, none=none, **held)
    return None


def _none_of(words: str, doesnt: bool) -> tuple[bool, Optional[str]]:
    """Whether a bonus's Methuselah controls none of the minions `words` names ("no ready titled vampires",
    "neither a ready Tremere nor a ready Tremere antitribu"; `doesnt`: "who doesn't control ..."), and the minions'
    words as a list groups_of reads ("a ready Tremere or a ready Tremere antitribu"); None for the words when a
    negation is read twice or half ("doesn't control no ...", "neither ..." without "nor")."""
    m = re.fullmatch(r"neither (?P<a>.+?) nor (?P<b>.+)", words)
    if m:
        return (None, None) if doesnt else (True, f"{m.group('a')} or {m.group('b')}")
    m = re.fullmatch(r"no (?P<rest>.+)", words)
    if m:
        return (None, None) if doesnt else (True, m.group("rest"))
    return doesnt, words


def is_self(who: str, name: str) -> bool:
    """Whether a sentence's subject is the vampire itself: a pronoun, its name, its name before the comma, or one
    word of that ("Legba" for Papa Legba, "Zara" for Lady Zara Slatikov: the cards call themselves so)."""
    who = who.strip()
    if who.casefold() in ("he", "she", "they", "it", "him", "her", "them"):
        return True
    if not name:
        return False
    full = name.split(",")[0].strip()
    # a word of the name that names others too is not the vampire: a clan ("Lord Tremere"), a sect ("Anarch
    # Convert"), a title or an honorific ("Baron", "Lady")
    words = [w for w in re.sub(r" \(.*\)$", "", full).split() if len(w) > 2 and w[0].isupper()
             and w.casefold() not in _NOT_A_NAME and not is_clan(w)]
    first = full.split()[0] if full.split() else ""
    if first.casefold() in _NOT_A_NAME or is_clan(first):  # "Anarch Convert", "Giovanni del Georgio"
        first = ""
    # the name's first words, an honorific with the given name ("Lady Scarlett" for Lady Scarlett Churchill)
    lead = full.split()
    prefix = len(who.split()) >= 2 and lead[:len(who.split())] == who.split()
    return prefix or who in (name, full, first, re.sub(r" \(.*\)$", "", full), *words)


# -- what else a crypt card says its vampire may or may not do ------------------------------------------------------
@dataclass(frozen=True)
class Ability:
    """A crypt card's sentence the engine applies, by `kind`:
    "cannot use"    "He cannot use cards requiring Celerity [cel].": refused any card requiring one of `codes`;
    "cannot block"  "Marie-Pierre cannot block older vampires." (`groups`), "... cannot block undirected actions.";
    "aggravated hands"  "Damage from Basilia's hand strikes is aggravated.";
    "no diablerie"  "Ferox cannot commit diablerie.";
    "bleed against you"  "Toreador and Toreador antitribu get +1 bleed against you.": other Methuselahs' minions of
                    `groups` get +`amount` bleed when they bleed its controller;
    "hunt"          "+1 hunt.": its hunts gain `amount` more blood;
    "press", "maneuver"  "Aidan gets 1 optional press each combat.": `uses` presses (maneuvers) each combat that
                    play no card ("Aidan Lyle presses to continue with his optional press"); `first_round`: "during
                    the first round of combat";
    "strike"        "Once each combat, Alexis can strike: dodge.", "Agnieszka can burn 1 blood to strike: combat
                    ends.", "Laika can burn 1 blood to strike: 2R damage.", "Lazarus may inflict 1R damage as a
                    strike.", "Once each combat, Bronwen may dodge as a strike.": a strike of `strike_kind` ("dodge",
                    "combat ends", "damage": `amount`, `ranged`, `aggravated`), `uses` times each combat (0: any
                    number), costing `blood`;
    "burn for"      "During an action, Chavi can burn 1 blood to get +1 stealth.", "Once each action, Julia can burn 1
                    blood to get +1 bleed.": `amount` more of `stat` ("stealth", "bleed", "intercept") for `blood`,
                    during the actions `during` names ("action": any, "bleed", "directed"), `once` each "action",
                    "turn" or any number of times ("");
    "aggravate hands"  "Once each round, Crossbreaker can burn 1 blood to make the damage from his hand strikes
                    aggravated that round.": `blood` for aggravated hand strikes this round, `once` each "round" or
                    "combat";
    "unblockable by"  "Allies cannot block Lord Fianna.": the minions of `groups` (a group may bound capacity:
                    "Vampires with capacity 3 or less") cannot attempt to block it;
    "block cost"    "Younger vampires must burn 1 blood to attempt to block Ferox.": those minions pay `blood` (or life,
                    `or_life`) to attempt to block it; "Janet must burn 1 blood to attempt to block." (`itself`: the
                    vampire pays to block those minions, any when no `groups`);
    "blockers intercept"  "Brujah get +1 intercept when attempting to block Nik.": `amount` more intercept for those
                    minions' block attempts against it;
    "card cost"     "Cards requiring Quietus [qui] cost Izhim 1 fewer blood.", "Combat cards cost Adana 1 fewer blood.",
                    "Equipment costs Ivan 1 fewer blood or pool to equip.": the cards it plays of `codes` (their
                    Discipline) or `types` cost `amount` less of `unit` ("blood", "pool", "blood or pool");
    "prevent"       "Lizette can prevent 1 damage each combat.": `amount` damage each combat (`once` "combat") or round
                    ("round"), of normal damage only when `non_aggravated`;
    "as if"         "Abraham can play cards requiring a Tremere as if he were a Tremere.": cards requiring one of the
                    clans `types` ("*": any, "... a sect and/or clan as if she were of that required sect and/or
                    clan."), the titles `titles` ("Karl can play cards requiring a justicar as if he were a
                    justicar.", "*": any) or the sects `sects` ("*") are played by it as if it had them; "You and
                    Gem can play ..." (`whose` "you"): its Methuselah's master cards too;
    "votes"         "During the polling step of any referendum, Stefano can burn 1 blood to get +1 vote.": `amount` more
                    votes for the vampire in the referendum (times its ready minions of `groups` "for each ready Anarch
                    you control"), once each referendum (the rulings), paid by `verb`: "burn" (`blood`), "lock", or
                    "discard" (the card, as printed: `unit`); `during` "political" when only a political action's;
                    `phase` "polling" when during the polling step only;
    "bleed action"  "The Arcadian can bleed with +1 bleed as a +1 stealth (D) action that costs 1 blood.", "Julia can
                    bleed any Methuselah as a (D) action.", "Rafaele can bleed your predator as a (D) action.": a
                    bleed of its own at `amount` more bleed and `stealth`, costing `blood`, at the prey, any
                    Methuselah (`whose` "any") or the predator ("predator");
    "transfers"     "If Len is ready at the start of your influence phase, you get +1 transfer.": `amount` more transfers;
    "cannot"        "Bela cannot perform political actions.", "Toy cannot act or block.", "Aimee cannot play reaction
                    cards.": what it may not do, `types` among "political", "act", "block", "action cards",
                    "reaction cards";
    "rescue cost"   "Rescuing a vampire from torpor costs Doc Martina -1 blood." (its rescues; of `groups` when named),
                    "Rescuing Ankla Hotep from torpor costs 1 fewer blood." (`itself`: rescuing it): `amount` added to
                    the rescue's blood cost;
    "no blood hunt" "Blood hunts cannot be called on Ariadne." (its diablerie calls none), "If Harlan is diablerized,
                    no blood hunt can be called." (`itself`: the diablerie of it calls none);
    "discard action"  "If Cicatriz is ready during your discard phase, you get an additional discard phase action.":
                    `amount` more discard phase actions for its controller;
    "self unlock"   "During your discard phase, Antonio may burn 1 blood to unlock.": it unlocks in `phase` ("discard",
                    "minion") of its controller's turn (`whose` "you") or anyone's ("any"), paying `blood`, or the
                    Edge (`edge`), or nothing; "You can unlock Sybren after a referendum called by him passes." (phase
                    "after referendum");
    "hunt stealth"  "Igo does not get the usual +1 stealth when hunting.": its hunts are at 0 stealth;
    "stays locked after hunt"  "If Adisa successfully hunts, she does not unlock as normal during her next unlock
                    phase.";
    "target action"  "Gabrin can lock an ally or a younger vampire as a +1 stealth (D) action.", "Etrius may steal up
                    to 3 blood from a Tremere vampire as a +1 stealth (D) action.": an action at a minion of `groups` (as
                    "enter combat" names them), that locks it (`verb` "lock") or steals `amount` of its blood
                    ("steal blood"; `up_to`: at most that; `or_life`: an ally's life, becoming blood);
    "hand size"     "While Abraham is ready, you get +1 hand size.": `amount` more (or fewer) cards in the hand size of
                    `whose` ("you": its controller, "each": every Methuselah, "prey": its controller's prey) while it is
                    ready, or in combat (`during` "combat": "While Dana is in combat, ...");
    "enter combat"  "Dorka can enter combat with a minion controlled by your predator or prey as a (D) action.": an
                    action (directed, "(D)" printed or not: abilities.py) at `stealth`, costing `blood`, that enters combat with a minion of
                    `groups` (a group may bound capacity), `state` ("ready", "locked" or ""),
                    controlled by `whose` ("predator or prey", "another Methuselah" or "": any other Methuselah);
    "cancel"        "During a combat, Asguresh can cancel a combat card played by the opposing minion as it is played,
                    and its cost is not paid.", "Once each combat, Michaela can burn 1 blood to cancel a grapple or aim
                    card ...": `cancel` (cancels.CancelText: the cards it reaches, their cost, the blood burned), used
                    `during` a "combat" it is in, an "action" it performs or a "referendum" it calls ("": any time),
                    `once` each "combat", "action" or "turn" ("": any number of times)."""

    kind: str
    sentence: str
    amount: int = 0  # "hunt": the blood more
    uses: int = 0  # "press", "maneuver", "strike": how many each combat (0: any number)
    codes: tuple[str, ...] = ()
    groups: tuple[Group, ...] = ()
    undirected: bool = False
    first_round: bool = False
    strike_kind: str = ""
    blood: int = 0
    ranged: bool = False  # "strike": a damage strike's "R"
    aggravated: bool = False  # "strike": its damage aggravated
    stealth: int = 0  # "enter combat", "target action": the action's stealth
    verb: str = ""  # "target action": "lock" or "steal blood"
    up_to: bool = False  # "target action": "steal up to N blood"
    state: str = ""
    whose: str = ""
    or_life: bool = False  # "block cost": an ally may pay life
    itself: bool = False  # "block cost": the vampire pays to block; "rescue cost": rescuing it; "no blood hunt": its
    # diablerie by another
    stat: str = ""  # "burn for": the stat it adds to
    during: str = ""  # "burn for": the actions it is used in; "hand size": "combat" while it fights
    once: str = ""  # "burn for": once each "action" or "turn" ("": any number of times)
    press_to: str = ""  # "press": "continue" when the press is only usable to continue combat
    types: tuple[str, ...] = ()  # "card cost": the card types it is about; "as if": the clans
    titles: tuple[str, ...] = ()  # "as if": the titles it stands in for ("*": any)
    sects: tuple[str, ...] = ()  # "as if": the sects it stands in for ("*": any)
    unit: str = ""  # "card cost": "blood", "pool" or "blood or pool"
    non_aggravated: bool = False  # "prevent": normal damage only
    phase: str = ""  # "self unlock": the phase it is used in
    edge: bool = False  # "self unlock": paid by burning the Edge
    cancel: Optional[CancelText] = None  # "cancel": what it cancels, and how

    def reaches(self, o, me) -> Optional[bool]:
        """Whether the minion `o` is one of the minions this ability names (`me`: the vampire whose card it is; any
        minion when it names none); None when the table does not say (Group.fits)."""
        return Group.any_fits(self.groups, o, me) if self.groups else True

    def target_words(self) -> str:
        """Whom an "enter combat" ability lets the vampire fight, in the card's terms."""
        state = f"{self.state} " if self.state else ""
        whose = f" controlled by {'your ' if self.whose == 'predator or prey' else ''}{self.whose}" if self.whose else ""
        return state + " or ".join(g.words() for g in self.groups) + whose


_CANNOT_USE = re.compile(r"(?P<who>.+?) cannot (?:use|play) cards requiring (?P<what>(?:[A-Z][a-z]+ \[[a-z]{3}\]"
                         r"(?:,? or )?)+)\.?")
_AGGRAVATED_HANDS = re.compile(r"Damage from (?P<who>.+?)(?:'s)? hand strikes is aggravated\.?")
_NO_DIABLERIE = re.compile(r"(?P<who>.+?) cannot commit diablerie\.?")
_HUNT = re.compile(r"\+(?P<n>\d) hunt\.?")
_FEWER = r"(?:(?P<n>\d) (?:fewer|less)|-(?P<n2>\d)) (?P<unit>blood or pool|blood|pool)"
_CARD_COST = re.compile(rf"(?:Cards requiring [A-Z][a-z]+ \[(?P<code>[a-z]{{3}})\]|(?P<types>Combat cards|Equipment|Allies and "
                        rf"retainers)) costs? (?P<who>.+?) {_FEWER}(?: to equip)?\.?")
_COST_TYPES = {"Combat cards": ("Combat",), "Equipment": ("Equipment",), "Allies and retainers": ("Ally", "Retainer")}
_PREVENT_EACH = re.compile(r"(?P<who>.+?) (?:can|may) prevent (?P<n>\d|one) (?P<na>non-aggravated )?damage each "
                           r"(?P<span>combat|round)\.?")
_AS_CLAN = re.compile(r"(?:You and )?(?P<who>.+?) can play cards requiring an? (?P<clan>[A-Za-z][\w ]+?) as if (?P<who2>.+?) "
                      r"were an? (?P<clan2>[A-Za-z][\w ]+?)\.?")
# "You and Lisandro can play cards requiring a Samedi or a Ventrue antitribu as if he were of that required clan."
_AS_CLANS = re.compile(r"(?:You and )?(?P<who>.+?) can play cards requiring an? (?P<clans>[A-Z][\w ]+?(?: or an? [A-Z][\w ]+?)+)"
                       r" as if (?:he|she|they|it) were of that required clan\.?")
# "You and Mata Hari can play cards requiring a sect and/or clan as if she were of that required sect and/or clan.",
# "Vlad uses and can play cards requiring a title or a sect as if he had that required title or were of that required
# sect."
_AS_ANY = re.compile(r"(?:You and )?(?P<who>.+?) (?:uses and )?can play cards requiring (?:a sect and/or clan as if (?:he|she|they) "
                     r"were of that required sect and/or clan|(?P<title>a title or a sect as if (?:he|she|they) had that "
                     r"required title or were of that required sect))\.?")
_BLEED_ACTION = re.compile(r"(?P<who>.+?) can bleed (?:(?P<any>any Methuselah)|(?P<pred>your predator)|with \+(?P<n>\d) "
                           r"bleed) as an? (?:\+(?P<st>\d) stealth )?\(D\) action(?: that costs (?P<blood>\d) blood)?\.?")
_TRANSFERS = re.compile(r"If (?P<who>.+?) is ready (?:at the start of|during) your influence phase, you get \+(?P<n>\d) "
                        r"transfers?\.?")
_CANNOT_DO = re.compile(r"(?P<who>.+?) cannot (?P<what>perform political actions|act or block|play reaction cards|play "
                        r"action cards|block or play reaction cards)\.?")
_CANNOT_WHAT = {"perform political actions": ("political",), "act or block": ("act", "block"),
                "play reaction cards": ("reaction cards",), "play action cards": ("action cards",),
                "block or play reaction cards": ("block", "reaction cards")}
_RESCUE_COST = re.compile(r"Rescuing (?P<whom>.+?) from torpor costs (?:(?P<who>.+?) )?(?:(?P<less>\d) fewer|-(?P<minus>\d)|"
                          r"\+(?P<plus>\d)|(?P<more>\d) additional) blood\.?")
_NO_BLOOD_HUNT = re.compile(r"Blood hunts cannot be called on (?P<who>.+?)\.?|If (?P<victim>.+?) is diablerized, no blood "
                            r"hunt can be called\.?")
_DISCARD_ACTION = re.compile(r"If (?P<who>.+?) is ready (?:at the start of|during) your discard phase, you get (?:\+"
                             r"(?P<n>\d)|an additional|one additional) discard phase actions?\.?")
_SELF_UNLOCK = re.compile(r"During (?P<whose>your|any Methuselah's) (?P<phase>discard|minion) phase, (?P<who>.+?) (?:can|"
                          r"may) (?:burn (?P<blood>\d|a) blood to |(?P<edge>burn the Edge to ))?unlock\.?"
                          r"|You (?:can|may) burn the Edge during your (?P<phase2>discard|minion) phase to unlock "
                          r"(?P<who2>.+?)\.?"
                          r"|You (?:can|may) unlock (?P<who3>.+?) after a referendum called by (?:him|her|them|it) "
                          r"passes\.?")
_NO_UNLOCK_AFTER_HUNT = re.compile(r"If (?P<who>.+?) successfully hunts, (?P<who2>.+?) does not unlock as normal during "
                                   r"(?:his|her|their|its) next unlock phase\.?")
_NO_HUNT_STEALTH = re.compile(r"(?P<who>.+?) does not get the usual \+1 stealth when hunting\.?")
_AGGRAVATE = re.compile(r"Once each (?P<span>round|round of combat|combat), (?P<who>.+?) (?:can|may) burn (?P<blood>\d|a) "
                        r"blood to make the damage from (?P<whose>.+?)(?:'s?)? hand strikes aggravated (?:that round|this "
                        r"round|for the current round)\.?")
# "While Abraham is ready, you get +1 hand size.", "If Cassandra is ready, your hand size is increased by one.", "While
# Jan is ready, every Methuselah's hand size is reduced by 1.", "While Angra is ready, your prey gets -1 hand size."
_HAND_SIZE = re.compile(r"(?:While|If) (?P<who>.+?) is (?P<when>ready|in combat), (?:(?P<whose>you|each Methuselah|every "
                        r"Methuselah|your prey)"
                        r" gets? (?P<n>[+-]\d) hand size|(?P<whose2>your|each Methuselah's|every Methuselah's) hand "
                        r"size is (?:(?P<dir>increased|reduced) by (?P<n2>\d|one)|(?P<n3>one) card larger))\.?")
_OPTIONAL = re.compile(r"(?P<who>.+?) gets (?P<n>an|one|\d) optional (?P<what>press|maneuver) (?:each combat|"
                       r"(?P<first>(?:during|on) the first round of combat))\.?")
# "Once each combat, Juggler can burn 1 blood to get a maneuver.", "... may burn a blood for a press", "..., only usable
# to continue combat."
_BURN_FOR_PRESS = re.compile(r"Once each combat, (?P<who>.+?) (?:can|may) burn (?P<blood>\d|a) blood (?:to get|for) "
                             r"(?:a|one|1) (?P<what>press|maneuver)(?P<cont>, only usable to continue combat)?\.?")
_BURN_FOR = re.compile(r"(?:(?P<once>Once each action|Once per action|Once each turn)|During (?:an|a (?P<kind>bleed|"
                       r"directed)) action)?,? ?(?P<who>[^,]+?) (?:can|may) burn (?P<blood>\d|a) blood to get (?:an "
                       r"additional )?\+(?P<n>\d) (?P<stat>stealth|bleed|intercept)(?P<current> for the current action)?"
                       r"\.?")
_STRIKE_ABILITY = re.compile(r"(?P<once>Once each combat, )?(?P<who>.+?) (?:can|may) (?:burn (?P<blood>\d) blood to )?"
                             r"strike: (?:(?P<what>dodge|combat ends)|(?P<n>\d)(?P<r>R)? (?P<agg>aggravated )?damage)\.?"
                             r"|(?P<once2>Once each combat, )?(?P<who2>.+?) may dodge as a strike(?: that costs "
                             r"(?P<blood2>\d) blood)?\.?"
                             r"|(?P<who3>.+?) may inflict (?P<n3>\d)(?P<r3>R)? damage as a strike\.?")
_CANNOT_BLOCK = re.compile(r"(?P<who>.+?) cannot block (?P<what>.+?)\.?")
_BLOCK_COST = re.compile(r"(?P<what>.+?) must burn (?P<blood>\d|a) blood(?P<life> or life)? to attempt to block"
                         r"(?: (?P<whom>.+?))?\.?")
_BLOCKERS_INTERCEPT = re.compile(r"(?P<what>.+?) gets? (?P<n>[+-]\d) intercept (?:when attempting to block|against) "
                                 r"(?P<whom>.+?)\.?")
_CAPACITY = re.compile(r"(?P<what>.+?) (?:with|of) (?:a )?capacity (?:(?P<le>\d+) or less|(?P<ge>\d+) or more|below "
                       r"(?P<lt>\d+)|above (?P<gt>\d+))")


def _groups_with_capacity(text: str) -> Optional[tuple["Group", ...]]:
    """"Vampires with capacity 2 or less", "Allies and vampires with capacity 3 or less": the groups, the capacity
    bounds on the last one (the words bound the noun they follow: allies of any life)."""
    m = _CAPACITY.fullmatch(text.strip())
    groups = groups_of(m.group("what") if m else text)
    if groups is None or m is None:
        return groups
    below = int(m.group("le")) + 1 if m.group("le") else int(m.group("lt") or 0)
    above = int(m.group("ge")) - 1 if m.group("ge") else int(m.group("gt") or 0)
    return groups[:-1] + (Group(groups[-1].kind, groups[-1].name, below, above),)
_COMBAT_TARGET = (r"(?:any |an? )?(?P<state>ready |locked )?(?P<what>.+?)(?: (?:of|with) (?:a )?capacity (?:below "
                  r"(?P<below>\d+)|(?P<atmost>\d+) or less|(?P<atleast>\d+) or more))?(?: controlled by (?P<whose>your "
                  r"predator or prey|another Methuselah))?")
_COMBAT_ACTION = r"an? (?:\+(?P<stealth>\d) stealth )?(?P<d>\(D\) )?action(?: that costs (?P<blood>\d) blood)?"
# "Gabrin can lock an ally or a younger vampire as a +1 stealth (D) action.", "Etrius may steal up to 3 blood from a
# Tremere vampire as a +1 stealth (D) action.", "Gabrielle can steal 1 blood or life (becoming blood) from a ready
# minion as a +1 stealth (D) action."
_TARGET_ACTION = re.compile(rf"(?P<who>.+?) (?:can|may) (?P<verb>lock|steal (?P<upto>up to )?(?P<n>\d) blood(?P<life> or "
                            rf"life)?(?: \(becoming blood\))? from) {_COMBAT_TARGET} as "
                            rf"{_COMBAT_ACTION.replace('(?P<d>', '(?:')}\.?")
_ENTER_COMBAT = re.compile(rf"(?P<who>.+?) (?:can|may) enter combat with {_COMBAT_TARGET} as {_COMBAT_ACTION}\.?"
                           rf"|As {_COMBAT_ACTION.replace('?P<', '?P<x')}, (?P<xwho>.+?) (?:can|may) enter combat with "
                           rf"{_COMBAT_TARGET.replace('?P<', '?P<x')}\.?")


# "During a combat, Asguresh can cancel ...", "Once each combat, Michaela can burn 1 blood to cancel ...", "During a
# referendum she calls, Diana can burn 1 blood to cancel ...", "Once each action he performs, he can ..."
_CANCEL_ABILITY = re.compile(r"(?:(?:During (?:(?P<combat>a combat)|an action (?P<actor>.+?) performs|a referendum "
                             r"(?P<caller>.+?) calls)|Once each (?P<once>combat|turn|action)(?: (?P<performer>he|she|"
                             r"they|it) performs)?), )?(?P<who>.+?) (?:can|may) (?P<rest>(?:burn \d blood to )?cancel .+)")


def _cancel_ability(s: str, name: str) -> Optional[Ability]:
    """A crypt card's cancel (`Ability` "cancel"), or None."""
    m = _CANCEL_ABILITY.fullmatch(s)
    if not m or not is_self(m.group("who"), name) or not all(
            is_self(m.group(g), name) for g in ("actor", "caller", "performer") if m.group(g)):
        return None
    rest = m.group("rest").replace(" by an opposing minion", " by the opposing minion")
    cancel = cancel_of(rest[0].upper() + rest[1:])
    if cancel is None:
        return None
    during = ("combat" if m.group("combat") else "action" if m.group("actor") or m.group("performer") else
              "referendum" if m.group("caller") else "")
    return Ability("cancel", s, cancel=cancel._replace(sentence=s), during=during, once=m.group("once") or "")


# "During the polling step of any referendum, Stefano can burn 1 blood to get +1 vote.", "... Rebekah can discard a card
# requiring Auspex [aus] to get +2 votes.", "... Aisha can burn 1 blood to get +1 vote for each ready Anarch you
# control.", "During a referendum, Sundown can burn 1 blood to gain 1 vote.", "Gustav can lock during the polling step
# of any referendum to get +5 votes."
_VOTES_FOR = re.compile(r"During (?:the polling step of (?:any|a) (?P<kind>referendum|political action)|a referendum), "
                        r"(?P<who>.+?) (?:can|may) (?:burn (?P<blood>\d|a) blood|(?P<lock>lock)|discard (?P<card>.+?)) "
                        r"to (?:get|gain) \+?(?P<n>\d) (?:additional )?votes?(?: for each ready (?P<per>.+?) you control)?"
                        r"\.?|(?P<who2>.+?) can (?P<lock2>lock) during the polling step of any referendum to get "
                        r"\+(?P<n2>\d) votes?\.?")


# "Toreador and Toreador antitribu get +1 bleed against you.", "Baali get +1 bleed when bleeding you.": what other
# Methuselahs' minions of those get when they bleed this vampire's controller
_AGAINST_YOU = re.compile(r"(?P<who>.+?) get \+(?P<n>\d) bleed (?:against you|when bleeding (?:you|(?P<own>.+?)'s "
                          r"controller))\.?")


def ability_of(sentence: str, name: str) -> Optional[Ability]:
    """The crypt card `name`'s sentence read as an `Ability`, or None when it is none of the forms read."""
    s = sentence.strip()
    m = _AGAINST_YOU.fullmatch(s)
    if m and not is_self(m.group("who"), name) and (m.group("own") is None or is_self(m.group("own"), name)):
        groups = groups_of(m.group("who"))
        if groups is not None:
            return Ability("bleed against you", s, amount=int(m.group("n")), groups=groups)
    m = _VOTES_FOR.fullmatch(s)
    if m and is_self(m.group("who") or m.group("who2"), name):
        per = groups_of(m.group("per")) if m.group("per") else ()
        if per is not None:
            blood = m.group("blood")
            return Ability("votes", s, amount=int(m.group("n") or m.group("n2")), groups=per,
                           phase="" if s.startswith("During a referendum") else "polling",
                           blood=1 if blood == "a" else int(blood or 0),
                           verb="lock" if m.group("lock") or m.group("lock2") else "discard" if m.group("card") else
                           "burn", unit=m.group("card") or "", during="political" if m.group("kind") == "political "
                           "action" else "referendum")
    found = _cancel_ability(s, name)
    if found is not None:
        return found
    m = _CANNOT_USE.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("cannot use", s, codes=tuple(re.findall(r"\[([a-z]{3})\]", m.group("what"))))
    m = _AGGRAVATED_HANDS.fullmatch(s)
    if m and (is_self(m.group("who"), name) or m.group("who") in ("his", "her", "their")):
        return Ability("aggravated hands", s)
    m = _NO_DIABLERIE.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("no diablerie", s)
    m = _OPTIONAL.fullmatch(s)
    if m and is_self(m.group("who"), name):
        n = 1 if m.group("n") in ("an", "one") else int(m.group("n"))
        return Ability(m.group("what"), s, uses=n, first_round=bool(m.group("first")))
    m = _BURN_FOR_PRESS.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability(m.group("what"), s, uses=1, blood=1 if m.group("blood") == "a" else int(m.group("blood")),
                       press_to="continue" if m.group("cont") else "")
    m = _BURN_FOR.fullmatch(s)
    if m and is_self(m.group("who"), name) and (m.group("current") is None) == (m.group("once") != "Once each turn"):
        once = {"Once each action": "action", "Once per action": "action", "Once each turn": "turn"}.get(
            m.group("once") or "", "")
        return Ability("burn for", s, amount=int(m.group("n")), stat=m.group("stat"), during=m.group("kind") or "action",
                       once=once, blood=1 if m.group("blood") == "a" else int(m.group("blood")))
    m = _STRIKE_ABILITY.fullmatch(s)
    if m and is_self(m.group("who") or m.group("who2") or m.group("who3"), name):
        n = m.group("n") or m.group("n3")
        return Ability("strike", s, uses=1 if m.group("once") or m.group("once2") else 0,
                       strike_kind="dodge" if m.group("who2") else m.group("what") or "damage",
                       blood=int(m.group("blood") or m.group("blood2") or 0), amount=int(n or 0),
                       ranged=bool(m.group("r") or m.group("r3")), aggravated=bool(m.group("agg")))
    m = _ENTER_COMBAT.fullmatch(s) or _TARGET_ACTION.fullmatch(s)
    if m:  # the sentence's two orders: "<who> can enter combat with <whom> as a (D) action", "As a (D) action, <who> ..."
        g = {k.lstrip("x"): v for k, v in m.groupdict().items() if v is not None and (k.startswith("x")) == bool(
            m.groupdict().get("xwho"))}
        groups = groups_of(g["what"]) if is_self(g["who"], name) else None
        if groups:
            below = int(g["below"]) if "below" in g else int(g["atmost"]) + 1 if "atmost" in g else 0
            above = int(g["atleast"]) - 1 if "atleast" in g else 0
            if below or above:
                groups = groups[:-1] + (Group(groups[-1].kind, groups[-1].name, below=below, above=above),)
            verb = g.get("verb", "enter combat")
            return Ability("enter combat" if verb == "enter combat" else "target action", s, groups=groups,
                           state=g.get("state", "").strip(), whose=g.get("whose", "").replace("your ", ""),
                           stealth=int(g.get("stealth", 0)), blood=int(g.get("blood", 0)),
                           verb="lock" if verb == "lock" else "steal blood" if verb != "enter combat" else "",
                           amount=int(g.get("n", 0)), or_life="life" in g, up_to="upto" in g)
    m = _AGGRAVATE.fullmatch(s)
    if m and is_self(m.group("who"), name) and (m.group("whose") in ("his", "her", "their", "its")
                                                 or is_self(m.group("whose"), name)):
        return Ability("aggravate hands", s, uses=1, once="combat" if m.group("span") == "combat" else "round",
                       blood=1 if m.group("blood") == "a" else int(m.group("blood")))
    m = _CARD_COST.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("card cost", s, codes=(m.group("code"),) if m.group("code") else (),
                       types=_COST_TYPES.get(m.group("types") or "", ()), amount=int(m.group("n") or m.group("n2")),
                       unit=m.group("unit"))
    m = _PREVENT_EACH.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("prevent", s, amount=1 if m.group("n") == "one" else int(m.group("n")), once=m.group("span"),
                       non_aggravated=bool(m.group("na")))
    # "You and Gem can play ...": its Methuselah's master cards too (`whose` "you"); without "You and", its own
    whose = "you" if s.startswith("You and ") else ""
    m = _AS_CLAN.fullmatch(s)
    if m and is_self(m.group("who"), name) and is_self(m.group("who2"), name) and m.group("clan") == m.group("clan2"):
        if is_clan(m.group("clan")):
            return Ability("as if", s, types=(m.group("clan"),), whose=whose)
        if m.group("clan").casefold() in TITLES:  # "Karl can play cards requiring a justicar as if he were a justicar."
            return Ability("as if", s, titles=(m.group("clan").casefold(),), whose=whose)
    m = _AS_CLANS.fullmatch(s)
    if m and is_self(m.group("who"), name):
        clans = tuple(re.split(r" or an? ", m.group("clans")))
        if all(is_clan(c) for c in clans):
            return Ability("as if", s, types=clans, whose=whose)
    m = _AS_ANY.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("as if", s, titles=("*",) if m.group("title") else (), types=() if m.group("title") else ("*",),
                       sects=("*",), whose=whose)
    m = _BLEED_ACTION.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("bleed action", s, amount=int(m.group("n") or 0), stealth=int(m.group("st") or 0),
                       blood=int(m.group("blood") or 0),
                       whose="any" if m.group("any") else "predator" if m.group("pred") else "")
    m = _TRANSFERS.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("transfers", s, amount=int(m.group("n")))
    m = _CANNOT_DO.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("cannot", s, types=_CANNOT_WHAT[m.group("what")])
    m = _RESCUE_COST.fullmatch(s)
    if m:
        n = int(m.group("plus") or m.group("more") or 0) - int(m.group("less") or m.group("minus") or 0)
        if m.group("who") and is_self(m.group("who"), name):  # its own rescues
            groups = groups_of(m.group("whom"))
            if groups:
                return Ability("rescue cost", s, amount=n, groups=groups)
        elif not m.group("who") and is_self(m.group("whom"), name):  # rescuing it
            return Ability("rescue cost", s, amount=n, itself=True)
    m = _NO_BLOOD_HUNT.fullmatch(s)
    if m and is_self(m.group("who") or m.group("victim"), name):
        return Ability("no blood hunt", s, itself=bool(m.group("victim")))
    m = _DISCARD_ACTION.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("discard action", s, amount=int(m.group("n") or 1))
    m = _SELF_UNLOCK.fullmatch(s)
    if m and m.group("who3") and is_self(m.group("who3"), name):  # "after a referendum called by him passes"
        return Ability("self unlock", s, phase="after referendum", whose="any")
    if m and is_self(m.group("who") or m.group("who2") or "", name):
        return Ability("self unlock", s, phase=m.group("phase") or m.group("phase2"),
                       whose="any" if m.group("whose") == "any Methuselah's" else "you",
                       blood=1 if m.group("blood") == "a" else int(m.group("blood") or 0),
                       edge=bool(m.group("edge") or m.group("who2")))
    m = _NO_UNLOCK_AFTER_HUNT.fullmatch(s)
    if m and is_self(m.group("who"), name) and is_self(m.group("who2"), name):
        return Ability("stays locked after hunt", s)
    m = _NO_HUNT_STEALTH.fullmatch(s)
    if m and is_self(m.group("who"), name):
        return Ability("hunt stealth", s)
    m = _HAND_SIZE.fullmatch(s)
    if m and is_self(m.group("who"), name):
        whose = (m.group("whose") or m.group("whose2")).replace("'s", "")
        whose = {"you": "you", "your": "you", "your prey": "prey"}.get(whose, "each")
        if m.group("n"):
            n = int(m.group("n"))
        else:
            n = 1 if (m.group("n2") or m.group("n3")) == "one" else int(m.group("n2"))
            n = -n if m.group("dir") == "reduced" else n
        return Ability("hand size", s, amount=n, whose=whose, during="combat" if m.group("when") == "in combat" else "")
    m = _HUNT.fullmatch(s)
    if m:
        return Ability("hunt", s, amount=int(m.group("n")))
    m = _CANNOT_BLOCK.fullmatch(s)
    if m and is_self(m.group("who"), name):
        what = m.group("what")
        if what.casefold() == "undirected actions":
            return Ability("cannot block", s, undirected=True)
        read = _groups_with_capacity(what)
        if read:
            return Ability("cannot block", s, groups=read)
    if m and is_self(m.group("what"), name) and not is_self(m.group("who"), name):  # "Allies cannot block Lord Fianna."
        read = _groups_with_capacity(m.group("who"))
        if read:
            return Ability("unblockable by", s, groups=read)
    m = _BLOCK_COST.fullmatch(s)
    if m:
        blood = 1 if m.group("blood") == "a" else int(m.group("blood"))
        if is_self(m.group("what"), name):  # "Janet must burn 1 blood to attempt to block [older vampires]."
            read = _groups_with_capacity(m.group("whom")) if m.group("whom") else ()
            if read is not None:
                return Ability("block cost", s, groups=read, blood=blood, or_life=bool(m.group("life")), itself=True)
        elif m.group("whom") and is_self(m.group("whom"), name):  # "Younger vampires must burn 1 blood to ... Ferox."
            read = _groups_with_capacity(m.group("what"))
            if read:
                return Ability("block cost", s, groups=read, blood=blood, or_life=bool(m.group("life")))
    m = _BLOCKERS_INTERCEPT.fullmatch(s)
    if m and is_self(m.group("whom"), name) and not is_self(m.group("what"), name):
        read = _groups_with_capacity(re.sub(r"^Other ", "", m.group("what")))
        if read:
            return Ability("blockers intercept", s, groups=read, amount=int(m.group("n")))
    return None


def abilities_of(m, kind: str) -> list[Ability]:
    """The abilities of `kind` a minion's card gives it, its retainers' cards give their employer, and the cards put
    on it give it (Shadow of the Beast)."""
    return [a for a in (*m.abilities, *(a for r in m.retainers for a in r.abilities),
                        *(a for x in getattr(m, "attached", ()) for a in x.abilities)) if a.kind == kind]


# -- a minion's own ability, as a scenario names it ---------------------------------------------------------------
_NAMED_ABILITY = re.compile(r"(?:(?:his|her|their|its|(?P<whose>[\w' .-]+?)'s?) )?(?:optional (?P<what>press|maneuver)|"
                            r"(?:special )?ability)", re.I)


def named_ability(source: Optional[str]) -> Optional[tuple[Optional[str], str]]:
    """A strike's, maneuver's or press's source that names the minion's own ability rather than a card or weapon
    ("his special ability", "her optional press", "Aidan's optional maneuver"), as (whose: the name said or None,
    what: "press", "maneuver" or "ability"); None for any other source."""
    hit = _NAMED_ABILITY.fullmatch((source or "").strip())
    if hit is None:
        return None
    return hit.group("whose"), (hit.group("what") or "ability").casefold()


def is_own(whose: Optional[str], m) -> bool:
    """Whether the name a scenario gives an ability's owner ("Aidan's optional press") is the minion `m`'s."""
    return whose is None or whose.casefold() == m.name.casefold() or is_self(whose, m.card)
