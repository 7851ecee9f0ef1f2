"""The forms of the situations met in play (docs/scenarios.md, "Situations met in play"): a title or sect changed
by a card, the Red List, an ally put into play by an effect. The reaction properties that reduce or redirect a
bleed or wake a minion, and an action card's "puts a vampire in play", are card properties (forms.py)."""
from __future__ import annotations

import re

from judge.engine.vtes.events import (AllyIntoPlay, ChangeControl, ChangeSect, GainTitle, MarkRedList, RedListHunt,
                                 SlaveTakesOver)
from judge.engine.vtes.forms import FormTable, card_name, minion_of, parse_props, player_of

FORMS = FormTable()

SECTS = ("camarilla", "sabbat", "anarch", "independent", "laibon")
# A title as the books name them, optionally after a clan or an article: "Prince of Paris", "Tremere Justicar".
_TITLE = (r"(?:(?:the|a|an) )?(?P<title>(?:[\w'-]+ )?(?:prince|archbishop|baron|justicar|inner circle(?: member)?|kholo|"
          r"regent|primogen|bishop|cardinal|priscus|magaji)\b.*)")


def _sect_name(text: str) -> str:
    words = text.strip().split()
    return words[0].capitalize() if len(words) == 1 else text.strip()


# -- sentences ---------------------------------------------------------------------------------------
@FORMS.wording(r"{M} (?:becomes|is made|is named) " + _TITLE, "Lucinde becomes Prince of Paris")
def _becomes_title(m, names, line, text):
    return GainTitle(minion=minion_of(m, names, line), title=m.group("title").strip(), line=line, text=text)


@FORMS.wording(r"{M} (?:gains|receives|takes) the title(?: of)? (?P<title>.+)", "Lucinde gains the title Seraph")
def _gains_title(m, names, line, text):
    return GainTitle(minion=minion_of(m, names, line), title=card_name(m.group("title")), line=line, text=text)


@FORMS.wording(r"{M} loses {PRON} title", "Lucinde loses her title")
def _loses_title(m, names, line, text):
    return GainTitle(minion=minion_of(m, names, line), title=None, line=line, text=text)


_SECT = r"(?P<sect>camarilla|sabbat|independent|laibon|anarch)"


@FORMS.wording(r"{M}'s sect becomes " + _SECT, "Lucinde's sect becomes Sabbat")
def _sect(m, names, line, text):
    return ChangeSect(minion=minion_of(m, names, line), sect=_sect_name(m.group("sect")), line=line, text=text)


@FORMS.wording(r"{M} (?:joins|becomes a member of) the " + _SECT + r"s?", "Lucinde joins the Sabbat")
def _sect_join(m, names, line, text):
    return ChangeSect(minion=minion_of(m, names, line), sect=_sect_name(m.group("sect")), line=line, text=text)


@FORMS.wording(r"{M} becomes (?:a |an )?(?P<sect>camarilla|sabbat|independent|laibon)(?: vampire)?",
               "Lucinde becomes Sabbat")
def _sect_becomes(m, names, line, text):
    return ChangeSect(minion=minion_of(m, names, line), sect=_sect_name(m.group("sect")), line=line, text=text)


@FORMS.wording(r"{P} marks {M}(?: as (?:a |the )?red list minion)?(?: with a master phase action)?",
               "Sarah marks Carna as a Red List minion")
def _mark(m, names, line, text):
    return MarkRedList(player=player_of(m, names, line), minion=minion_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{M} (?:hunts|goes after|attempts to enter combat with|enters combat with) the red list minion {M2}",
               "Belinde hunts the Red List minion Carna")
def _red_list(m, names, line, text):
    return RedListHunt(actor=minion_of(m, names, line), target=minion_of(m, names, line, "m2"), line=line, text=text)


@FORMS.wording(r"(?:an effect|a card(?:'s effect)?|(?P<src>[^,:]+?)) puts (?:the |an |a )?(?:(?P<unique>unique) )?"
               r"(?:ally )?(?P<ally>[^,:]+?) into play (?:for|under) {P}(?:'s control)?(?:[:,] (?P<props>.+))?",
               "an effect puts the ally Underbridge Stray into play for Sarah: life 2")
def _ally(m, names, line, text):
    raw = m.group("props") or ""
    items = [x.strip() for x in re.split(r"\s*(?:,|;|\band\b)\s*", raw) if x.strip()]
    unique = bool(m.group("unique")) or any(x.lower() == "unique" for x in items)
    props = parse_props(", ".join(x for x in items if x.lower() != "unique"), names, line, "ally")
    ally = card_name(m.group("ally"))
    names.add_minion(ally, line)
    return AllyIntoPlay(player=player_of(m, names, line), ally=ally, life=props.life or 1, bleed=props.ally_bleed or 1,
                        strength=props.strength or 1, card=props.name, unique=unique,
                        source=card_name(m.group("src")), line=line, text=text)


@FORMS.wording(r"{P} gains control of {M}(?: (?:with|through) (?P<src>.+))?",
               "Sarah gains control of Carna")
def _control(m, names, line, text):
    return ChangeControl(minion=minion_of(m, names, line), player=player_of(m, names, line),
                         source=card_name(m.group("src")), line=line, text=text)


@FORMS.wording(r"{M} comes under {P}'s control", "Carna comes under Sarah's control")
def _control2(m, names, line, text):
    return ChangeControl(minion=minion_of(m, names, line), player=player_of(m, names, line), line=line, text=text)


@FORMS.wording(r"{M} (?:locks to )?takes? {M2}'s place(?: in (?:the )?combat)?", "Carna takes Belinde's place in combat")
def _slave(m, names, line, text):
    return SlaveTakesOver(slave=minion_of(m, names, line), master=minion_of(m, names, line, "m2"), line=line, text=text)


# -- structured forms ---------------------------------------------------------------------------------
@FORMS.structured("gain_title", ("title", "source"), "{gain_title: Lucinde, title: Prince of Paris}")
def _s_gain_title(d, names, line, text):
    title = d.get("title")
    return GainTitle(minion=names.canon_minion(d["gain_title"], line), title=str(title) if title else None,
                     source=d.get("source"), line=line, text=text)


@FORMS.structured("change_sect", ("sect", "source"), "{change_sect: Lucinde, sect: Sabbat}")
def _s_sect(d, names, line, text):
    sect = str(d["sect"]).strip()
    if sect.lower() not in SECTS:
        raise ValueError(f"sect must be one of {', '.join(s.title() for s in SECTS)}")
    return ChangeSect(minion=names.canon_minion(d["change_sect"], line), sect=_sect_name(sect), source=d.get("source"),
                      line=line, text=text)


@FORMS.structured("mark_red_list", ("by",), "{mark_red_list: Carna, by: Sarah}")
def _s_mark(d, names, line, text):
    return MarkRedList(player=names.canon_player(d["by"], line), minion=names.canon_minion(d["mark_red_list"], line),
                       line=line, text=text)


@FORMS.structured("red_list", ("target",), "{red_list: Belinde, target: Carna}")
def _s_red_list(d, names, line, text):
    return RedListHunt(actor=names.canon_minion(d["red_list"], line), target=names.canon_minion(d["target"], line),
                       line=line, text=text)


@FORMS.structured("ally_into_play", ("player", "life", "bleed", "strength", "card", "unique", "source"),
                  "{ally_into_play: Underbridge Stray, player: Sarah, life: 2}")
def _s_ally(d, names, line, text):
    ally = str(d["ally_into_play"])
    names.add_minion(ally, line)
    return AllyIntoPlay(player=names.canon_player(d["player"], line), ally=ally, life=int(d.get("life", 1)),
                        bleed=int(d.get("bleed", 1)), strength=int(d.get("strength", 1)), card=d.get("card"),
                        unique=bool(d.get("unique")), source=d.get("source"), line=line, text=text)


@FORMS.structured("take_control", ("by", "source"), "{take_control: Carna, by: Sarah}")
def _s_control(d, names, line, text):
    return ChangeControl(minion=names.canon_minion(d["take_control"], line), player=names.canon_player(d["by"], line),
                         source=d.get("source"), line=line, text=text)


@FORMS.structured("slave_takes_over", (), "{slave_takes_over: Carna}")
def _s_slave(d, names, line, text):
    return SlaveTakesOver(slave=names.canon_minion(d["slave_takes_over"], line), line=line, text=text)
