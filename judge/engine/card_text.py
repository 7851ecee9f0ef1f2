"""Reading a crypt card's text into what the engine applies (issue 37: never a silent default).

A vampire named by its crypt card gets what the card prints: capacity, clan, sect, title, Disciplines
(`cards.crypt_fields`), and what its text says, sentence by sentence:

* the sect and title the text opens with ("Sabbat:", "Camarilla Prince of Seattle:"), the card's own;
* "+N bleed.", "+N strength.", "+N stealth.", "+N intercept." (its own bleed, strength, stealth, intercept);
* the traits the books define ("Infernal.", "Black Hand.", "Red List.", "Scarce.", "Sterile.", "Blood
  cursed.", "Flight [FLIGHT].", a circle, a slave clan: `traits.TRAITS`);
* an extra master phase action while it is ready or unlocked ("If Anson is ready during your master phase,
  you get two master phase actions (instead of one).", "If Cybele is unlocked at the start of your master
  phase, you get +1 master phase action.").

Every other sentence is *unread*: the minion carries it (`Minion.unread`), and the engine stops as not
modelled, naming it, at the first step where it could matter (the minion acts, blocks, reacts, fights, or
its controller's master phase begins), unless the scenario sets it aside (`ignore_text: true`). It is never
silently replaced by a default.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

# "Sabbat: ...", "Camarilla Prince of Seattle: ...", "Independent. 2 votes (titled): ..."
_SECT_PREFIX = re.compile(r"^(?P<head>[A-Z][^:.]*?(?:\. \d+ votes? \(titled\))?):\s*")
_SENTENCE = re.compile(r"(?<=[.)])\s+(?=[A-Z+(\[])")
_BONUS = re.compile(r"\+(?P<n>\d) (?P<what>bleed|strength|stealth|intercept)")
_TRAITS = ("infernal", "black hand", "red list", "scarce", "sterile", "blood cursed")
_MASTER = re.compile(r"(?:If|While) (?P<who>[\w' ,.-]+?) is (?P<state>ready|unlocked)(?: during your master phase"
                     r"| at the start of your master phase)?, you get (?:two master phase actions \(instead of "
                     r"one\)|\+1 master phase action)(?: each master phase)?")


@dataclass
class CryptText:
    """What a crypt card's text gives its minion, and what is left unread."""

    bonus: dict[str, int] = field(default_factory=dict)  # "bleed"/"strength"/"stealth"/"intercept" -> +N
    traits: list[str] = field(default_factory=list)
    master_actions: int = 0  # extra master phase actions
    master_when: str = "ready"  # while the minion is "ready" or "unlocked" at the start of the master phase
    unread: list[str] = field(default_factory=list)  # sentences not read, as printed


def read_crypt_text(text: str, sect: Optional[str], title: Optional[str]) -> CryptText:
    out = CryptText()
    body = " ".join((text or "").split())
    m = _SECT_PREFIX.match(body)
    if m and _is_sect_head(m.group("head"), sect, title):
        body = body[m.end():]
        slave = re.search(r"(?P<clan>\w[\w ]*?) slave$", m.group("head"), re.I)
        if slave:  # "Camarilla Tremere Slave:": the heading names the slave clan
            clan = slave.group("clan").split(" ", 1)[-1] if " " in slave.group("clan") else slave.group("clan")
            out.traits.append(f"slave ({clan.lower()})")
    for sentence in (s.strip() for s in _SENTENCE.split(body) if s.strip()):
        if not _read_sentence(sentence.rstrip("."), out, sect, title):
            out.unread.append(sentence)
    return out


def _is_sect_head(head: str, sect: Optional[str], title: Optional[str]) -> bool:
    """Whether the text's opening "...:" is the card's sect (and title) as the card list prints it."""
    first = head.split(".")[0].split()[0].casefold() if head.split() else ""
    return bool(sect) and first == str(sect).split()[0].casefold() or first == "independent"


def _read_sentence(s: str, out: CryptText, sect: Optional[str], title: Optional[str]) -> bool:
    folded = s.casefold()
    if sect and folded == str(sect).casefold():
        return True
    if sect and title and folded in (f"{sect} {title}".casefold(), str(title).casefold()):
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
    master = _MASTER.fullmatch(s)
    if master:
        out.master_actions += 1
        out.master_when = master.group("state")
        return True
    return False


# -- "Only usable ..." conditions of library cards ----------------------------------------------------------------
# Each form the engine checks: a pattern of the sentence (after "Only usable "), and what it asks of the moment
# (the draft `d`) and of the minion `m` playing the card, as the reason it is not met (None: met). A form not
# listed is not read: the card stops as not modelled, naming it (`cards.modelled` keeps it in `rest`).
def _action(d):
    return d.action_()


def _combat(d):
    return getattr(d, "combat", None)


def _announced(d, m):
    a = _action(d)
    if a is None:
        return "no action is in progress"
    if a.attempt is not None or a.declined:
        return "the action was announced already: blocks are being decided"
    return None


def _polling(d, m, political: bool = True, before_votes: bool = False):
    r = getattr(d, "referendum", None)
    if r is None:
        return "no referendum is in progress"
    if political and r.kind != "political":
        return f"the referendum is a {r.kind}'s, not a political action's"
    if political and r.step != "polling":
        return f"the referendum is in its {r.step} step, not polling"
    if before_votes and r.votes:
        return "votes and ballots were cast already"
    return None


def _range(d, m, which=None, before_strikes=False, step=None, first=False):
    c = _combat(d)
    if c is None:
        return "no combat is in progress"
    if step and c.step != step:
        return f"the combat is at its {c.step} step"
    if which and c.step == "before range":
        return "the range is not determined yet"
    if which and (c.range or "close") != which:
        return f"the range is {c.range or 'close'}"
    if before_strikes and c.step not in ("before range", "range", "before strikes"):
        return "strikes are chosen already"
    if first and c.round != 1:
        return f"it is round {c.round} of the combat"
    return None


def _attempting(d, m):
    a = _action(d)
    return None if a is not None and a.attempt is not None else "no block attempt is in progress"


def _directed_at(d, m):
    a = _action(d)
    if a is None:
        return "no action is in progress"
    return None if a.directed and m.controller in a.targets else f"the action is not directed at {m.controller}"


def _bled_declined(d, m):
    a = _action(d)
    if a is None or a.kind != "bleed" or m.controller not in a.targets:
        return f"no minion is bleeding {m.controller}"
    return None if m.controller in a.declined else f"{m.controller} has not declined to block"


def _blocks(d, m):
    a = _action(d)
    return None if a is not None and a.attempt is not None and a.attempt.blocker == m.name else \
        f"{m.name} is not attempting to block"


def _is_blocked(d, m):
    a = _action(d)
    return None if a is not None and a.actor == m.name and a.attempt is not None else \
        f"{m.name} is not the acting minion facing a block attempt"


def _torpor(d, m):
    return None if m.region == "torpor" else f"{m.name} is not in torpor"


def _against(d, m, younger: bool):
    c = _combat(d)
    if c is None or m.name not in (c.acting, c.opposing):
        return f"{m.name} is not in combat"
    other = d.minions.get(c.opposing if m.name == c.acting else c.acting)
    if other is None:
        return "the opposing minion is gone"
    if other.kind == "ally" or younger and other.kind != "ally" and other.capacity < m.capacity:
        return None
    return f"{other.name} is not an ally" + (" nor a younger vampire" if younger else "")


def _combat_from_block(d, m):
    c = _combat(d)
    return None if c is not None and c.action is not None else "no action was blocked"


CONDITIONS: list[tuple[re.Pattern, object]] = [(re.compile(p + r"\.?", re.I), f) for p, f in [
    (r"(?:as|when) the action is announced", _announced),
    (r"during the polling step of a political action", lambda d, m: _polling(d, m)),
    (r"during the polling step of a political action,? before (?:any )?votes (?:and|or) ballots are cast",
     lambda d, m: _polling(d, m, before_votes=True)),
    (r"during a referendum", lambda d, m: _polling(d, m, political=False)),
    (r"during a referendum,? before (?:any )?votes (?:and|or) ballots are cast",
     lambda d, m: _polling(d, m, political=False, before_votes=True)),
    (r"at long range", lambda d, m: _range(d, m, "long")),
    (r"at close range", lambda d, m: _range(d, m, "close")),
    (r"at close range,? before strikes are chosen", lambda d, m: _range(d, m, "close", before_strikes=True)),
    (r"before range is (?:determined|chosen)", lambda d, m: _range(d, m, step="before range")),
    (r"before range is (?:determined|chosen),? (?:on|during) the first round(?: of combat)?",
     lambda d, m: _range(d, m, step="before range", first=True)),
    (r"on the first round of combat", lambda d, m: _range(d, m, first=True)),
    (r"if a minion attempts to block", _attempting),
    (r"during an action directed at you \(or a card you control\)", _directed_at),
    (r"if a minion is bleeding you,? after blocks are declined", _bled_declined),
    (r"by a blocking vampire", _blocks),
    (r"if this (?:vampire|minion) blocks,? before block resolution", _blocks),
    (r"if this (?:vampire|minion) is blocked,? before block resolution", _is_blocked),
    (r"by a vampire in torpor", _torpor),
    (r"in combat with an ally", lambda d, m: _against(d, m, younger=False)),
    (r"in combat with an ally or younger vampire", lambda d, m: _against(d, m, younger=True)),
    (r"when an action is blocked", _combat_from_block),
]]


def condition_of(sentence: str):
    """The check of an "Only usable ..." sentence the engine reads (a function of the draft and the playing
    minion giving the reason it is not met, or None), or None when it does not read that form."""
    rest = re.sub(r"^Only usable\s+", "", sentence.strip(), flags=re.I)
    if rest == sentence.strip():
        return None
    for pattern, check in CONDITIONS:
        if pattern.fullmatch(rest):
            return check
    return None


# -- a strike card's strike ----------------------------------------------------------------------------------------
_STRIKE = re.compile(r"Strike: (?:(?P<n>\d+)(?P<r>R)? (?P<agg>aggravated )?damage|(?P<dodge>dodge)|(?P<ends>combat ends)"
                     r"|steal (?P<steal>\d+) blood(?: or life)?"
                     r"|(?P<hand>hand strike)(?: at \+(?P<bonus>\d+) damage)?(?P<handagg>, aggravated)?)"
                     r"(?P<first>, with first strike| \(first strike\))?\.?")


def strike_of(sentence: str):
    """The strike a combat card's sentence states ("Strike: 2R damage.", "Strike: dodge.", "Strike: combat
    ends.", "Strike: steal 1 blood.", "Strike: hand strike at +1 damage.", "..., with first strike"), as (kind,
    amount, ranged, aggravated, first), a hand strike's amount being its damage beyond the striker's strength;
    None for another sentence."""
    m = _STRIKE.fullmatch(sentence.strip())
    if m is None:
        return None
    if m.group("dodge"):
        return ("dodge", None, False, False, bool(m.group("first")))
    if m.group("ends"):
        return ("combat ends", None, False, False, bool(m.group("first")))
    if m.group("steal"):
        return ("steal blood", int(m.group("steal")), False, False, bool(m.group("first")))
    if m.group("hand"):  # the amount: the damage beyond the striker's strength
        return ("hand", int(m.group("bonus") or 0), False, bool(m.group("handagg")), bool(m.group("first")))
    return ("damage", int(m.group("n")), bool(m.group("r")), bool(m.group("agg")), bool(m.group("first")))
