"""The forms of torpor and diablerie: leave torpor, rescue, diablerize, and a blocker declining to diablerize
(docs/scenarios.md, "Torpor and diablerie")."""
from __future__ import annotations

import re
from typing import Optional

from judge.engine.errors import ScenarioError
from judge.engine.vtes.events import Cost, Diablerize, LeaveTorpor, NoDiablerie, Rescue
from judge.engine.vtes.forms import NUM, FormTable, bare_name, cost_of, minion_of, number

FORMS = FormTable()


def _diablerie_props(text: Optional[str], line: int) -> dict:
    out: dict = {"take": [], "take_all": False, "discipline": None, "capacity": 0}
    if not text:
        return out
    for raw in re.split(r"\s*[,;]\s*", text.strip().rstrip(".")):
        item = raw.strip()
        low = item.lower()
        if not item:
            continue
        if low in ("taking all equipment", "taking all the equipment", "taking everything", "taking all its equipment",
                   "taking all her equipment", "taking all his equipment"):
            out["take_all"] = True
        elif low in ("taking nothing", "taking no equipment"):
            pass
        elif low.startswith("taking "):
            out["take"] += [bare_name(x) for x in re.split(r"\s+and\s+", item[7:]) if x.strip()]
        elif (m := re.fullmatch(r"(?:gaining|getting|and gains?) (?:a discipline(?: \((.+)\)|: (.+))?|(.+))", item, re.I)):
            out["discipline"] = (m.group(1) or m.group(2) or m.group(3) or "a Discipline").strip()
        elif (m := re.fullmatch(rf"\+({NUM}) capacity", low)):
            out["capacity"] = number(m.group(1))
        else:
            raise ScenarioError(f"in a diablerie: cannot read {item!r}; expected: taking <equipment>, taking all "
                                f"equipment, gaining a Discipline (Presence), +1 capacity", line)
    return out


@FORMS.wording(r"{M} (?:leaves|attempts to leave) torpor(?: (?:with|using) (?P<x>[^,:]+?))?(?:[:,] costing (?P<n>" + NUM
               + r") (?P<unit>blood|pool))?", "Quentin leaves torpor")
def _leave_torpor(m, names, line, text):
    cost = None
    if m.group("n"):
        n = number(m.group("n"))
        cost = Cost(blood=n) if m.group("unit") == "blood" else Cost(pool=n)
    return LeaveTorpor(actor=minion_of(m, names, line), card=bare_name(m.group("x")), cost=cost, line=line, text=text)


@FORMS.wording(r"{M} (?:rescues|attempts to rescue) {M2}(?: from torpor)?(?:,? (?P<who>[^,]+?) paying (?P<n>" + NUM
               + r")(?: blood)?)?", "Belinde rescues Carna, Carna paying 1 blood")
def _rescue(m, names, line, text):
    target = minion_of(m, names, line, "m2")
    pays = 0
    if m.group("who"):
        if names.canon_minion(m.group("who"), line) != target:
            raise ScenarioError("only the rescued vampire's share of the cost is written ('Carna paying 1 blood'); "
                                "the rescuer pays the rest", line)
        pays = number(m.group("n"))
    return Rescue(actor=minion_of(m, names, line), target=target, rescued_pays=pays, line=line, text=text)


@FORMS.wording(r"{M} (?:diableri[sz]es|attempts to diableri[sz]e|commits diablerie on) {M2}(?:[:,] (?P<props>.+))?",
               "Belinde diablerizes Carna, taking the .44 Magnum")
def _diablerize(m, names, line, text):
    p = _diablerie_props(m.group("props"), line)
    return Diablerize(actor=minion_of(m, names, line), victim=minion_of(m, names, line, "m2"), take=tuple(p["take"]),
                      take_all=p["take_all"], discipline=p["discipline"], capacity=p["capacity"], line=line, text=text)


@FORMS.wording(r"{M} (?:declines to diableri[sz]e|does not diableri[sz]e)(?: {M2})?", "Carna declines to diablerize")
def _no_diablerie(m, names, line, text):
    return NoDiablerie(minion=minion_of(m, names, line), line=line, text=text)


@FORMS.structured("leave_torpor", ("card", "cost"), "{leave_torpor: Quentin}")
def _s_leave(d, names, line, text):
    return LeaveTorpor(actor=names.canon_minion(d["leave_torpor"], line), card=d.get("card"),
                       cost=cost_of(d) if d.get("cost") is not None else None, line=line, text=text)


@FORMS.structured("rescue", ("by", "rescued_pays", "cost"), "{rescue: Carna, by: Belinde, rescued_pays: 1}")
def _s_rescue(d, names, line, text):
    return Rescue(actor=names.canon_minion(d["by"], line), target=names.canon_minion(d["rescue"], line),
                  rescued_pays=int(d.get("rescued_pays", 0)), cost=cost_of(d) if d.get("cost") is not None else None,
                  line=line, text=text)


@FORMS.structured("diablerize", ("by", "take", "discipline", "capacity"),
                  "{diablerize: Carna, by: Belinde, take: [.44 Magnum], discipline: Presence}")
def _s_diablerize(d, names, line, text):
    take = d.get("take") or ()
    take_all = take == "all"
    if isinstance(take, str) and not take_all:
        take = [take]
    return Diablerize(actor=names.canon_minion(d["by"], line), victim=names.canon_minion(d["diablerize"], line),
                      take=() if take_all else tuple(str(t) for t in take), take_all=take_all,
                      discipline=d.get("discipline"), capacity=int(d.get("capacity", 0)), line=line, text=text)


@FORMS.structured("no_diablerie", (), "{no_diablerie: Carna}")
def _s_no_diablerie(d, names, line, text):
    who = d["no_diablerie"]
    return NoDiablerie(minion=names.canon_minion(who, line) if isinstance(who, str) else None, line=line, text=text)
