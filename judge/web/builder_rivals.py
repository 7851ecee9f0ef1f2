"""The guided builder's Rivals table (/check?game=rivals): the players with their Prestige, Agenda and Rival; the
vampires with their Blood Potency, attributes, location and party; the City Deck's Mortals in the Streets; the
Prince; the Conspiracies in play. The state is a Rivals scenario (docs/rivals.md) as a mapping, carried from step
to step as the V:TES table is (judge/web/builder.py); the events are the Rivals engine's own structured forms
(`judge.engine.rivals.scenario.forms`, its schema's `event_*`), so a form the engine gains appears here too.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from judge.web import builder as vtes
from judge.web.builder import BuilderError, EventForm, _list, _number, a_list, new_name, new_names

GAME = "rivals"
PHASES = ("beginning", "action", "end")
LOCATIONS = ("haven", "streets", "torpor")
MORTAL_KINDS = ("citizen", "vagrant", "sad", "mortal")
START_PRESTIGE = 20
VAMPIRE_NUMBERS = ("bp", "blood", "physical", "social", "mental", "party")
TOP_KEYS = ("game", "title", "source", "rules", "players", "turn", "phase", "prince")
# How the builder groups the Rivals engine's forms (a form not named here is listed under "More").
FORM_GROUPS = {
    "The turn": ("turn", "phase", "step", "end_turn", "pass"),
    "Actions": ("attack", "block", "reaction", "retarget", "action_card", "move", "party", "draw_action", "recruit",
                "ability", "claim_prince", "scheme", "mend"),
    "Influence and conspiracies": ("exert", "title", "conspiracy", "reveal", "contribute", "resolve"),
    "The city, damage and effects": ("city", "draw", "damage", "antagonist", "burn_retainer", "effect",
                                     "not_modelled"),
}
# The event fields that name a card rather than someone at the table.
CARD_KEYS = ("card", "name")


def new_state() -> dict:
    return {"game": GAME, "players": [], "turn": None, "phase": "action", "vampires": [], "mortals": [],
            "events": []}


def is_rivals(state: dict) -> bool:
    return isinstance(state, dict) and state.get("game") == GAME


def buildable(state: dict) -> bool:
    """Whether the builder can show and extend this Rivals scenario (its players names or mappings with a name,
    its vampires, mortals and conspiracies mappings, its events a list)."""
    players_ok = a_list(state, "players") and all(isinstance(p, (str, int)) or (isinstance(p, dict) and "name" in p)
                                           for p in state.get("players") or ())
    named = all(isinstance(v.get("name"), (str, int)) for key in ("vampires", "mortals")
                for v in state.get(key) or () if isinstance(v, dict))
    return (players_ok and a_list(state, "vampires", dict) and a_list(state, "mortals", dict)
            and a_list(state, "conspiracies", dict) and a_list(state, "events") and named and not state.get("setup"))


def players(state: dict) -> list[str]:
    return [str(p["name"] if isinstance(p, dict) else p) for p in state.get("players") or ()]


def player_rows(state: dict) -> list[dict]:
    """Each player as a mapping (a bare name is one with the defaults)."""
    return [p if isinstance(p, dict) else {"name": str(p)} for p in state.get("players") or ()]


def names(state: dict) -> list[str]:
    """The vampires' and Mortals' names (the event fields' suggestions besides the players)."""
    return [str(v.get("name")) for key in ("vampires", "mortals") for v in state.get(key) or () if v.get("name")]


def dump(state: dict) -> str:
    return vtes.dump(state, TOP_KEYS, ("vampires", "mortals", "conspiracies", "events"))


def set_table(state: dict, form) -> None:
    """The turn, the phase and the Prince, as the table's selects say."""
    if form.get("turn") in players(state):
        state["turn"] = form["turn"]
    if form.get("phase") in PHASES:
        state["phase"] = form["phase"]
    prince = form.get("prince")
    if prince is not None:
        if prince in ("", "deck"):
            state.pop("prince", None)
        elif prince in [v.get("name") for v in state.get("vampires") or ()]:
            state["prince"] = prince


def add_players(state: dict, form) -> None:
    """One player, or several at once ("Brujah, Toreador"), with the Prestige, Agenda and Rival fields applying
    to the first."""
    for n, name in enumerate(new_names("player", form.get("player", ""), players(state) + names(state))):
        row: dict[str, Any] = {"name": name}
        if n == 0:
            prestige = _number("player_prestige", form.get("player_prestige", ""))
            agenda = _number("player_agenda", form.get("player_agenda", ""))
            if prestige is not None and prestige != START_PRESTIGE:
                if prestige < 1:
                    raise BuilderError("player_prestige", "a player still in the game has at least 1 Prestige")
                row["prestige"] = prestige
            if agenda:
                if not 0 <= agenda <= 12:
                    raise BuilderError("player_agenda", "Agenda runs from 0 to 12")
                row["agenda"] = agenda
            rival = form.get("player_rival", "")
            if rival:
                if rival not in players(state):
                    raise BuilderError("player_rival", "a Rival is another player at the table")
                row["rival"] = rival
        _list(state, "players").append(row)
    if not state.get("turn"):
        state["turn"] = players(state)[0]


def remove_player(state: dict, index: int) -> None:
    rows = state.get("players") or []
    if not 0 <= index < len(rows):
        raise BuilderError("players", "no such player to remove")
    name = players(state)[index]
    for key in ("vampires", "conspiracies"):
        if any(v.get("controller") == name for v in state.get(key) or ()):
            raise BuilderError("players", f"{name} still controls cards at the table: remove them first")
    del rows[index]
    if state.get("turn") == name:
        state["turn"] = players(state)[0] if players(state) else None


def add_vampire(state: dict, form) -> None:
    name = new_name("vampire", form.get("vampire", ""), players(state) + names(state))
    controller = form.get("controller", "")
    if controller not in players(state):
        raise BuilderError("controller", "choose the player who controls it (add the players first)")
    vampire: dict[str, Any] = {"name": name, "controller": controller}
    for key in VAMPIRE_NUMBERS:
        value = _number(f"vampire_{key}", form.get(f"vampire_{key}", ""))
        if value is not None:
            vampire[key] = value
    if "bp" not in vampire:
        raise BuilderError("vampire_bp", "a vampire needs its Blood Potency (the number on its card)")
    if vampire["bp"] < 1:
        raise BuilderError("vampire_bp", "Blood Potency is at least 1")
    if not 0 <= vampire.get("blood", vampire["bp"]) <= vampire["bp"]:
        raise BuilderError("vampire_blood", "a vampire has from 0 to its Blood Potency in Blood")
    clan = " ".join(form.get("vampire_clan", "").split())
    if clan:
        vampire["clan"] = clan
    location = form.get("vampire_location") or "haven"
    if location not in LOCATIONS:
        raise BuilderError("vampire_location", f"a vampire is in its haven, the streets or torpor, not {location!r}")
    if location != "haven":
        vampire["location"] = location
    if vampire.get("blood") == 0 and location != "torpor":
        raise BuilderError("vampire_blood", "a vampire with 0 Blood is in torpor: choose torpor, or give it Blood")
    if form.get("vampire_leader"):
        vampire["leader"] = True
    _list(state, "vampires").append(vampire)


def add_mortal(state: dict, form) -> None:
    name = new_name("mortal", form.get("mortal", ""), players(state) + names(state))
    blood = _number("mortal_blood", form.get("mortal_blood", ""))
    if blood is None or blood < 1:
        raise BuilderError("mortal_blood", "a City Deck Mortal needs its Blood (at least 1)")
    mortal: dict[str, Any] = {"name": name, "blood": blood}
    kind = form.get("mortal_kind") or "citizen"
    if kind not in MORTAL_KINDS:
        raise BuilderError("mortal_kind", f"a Mortal is a {', '.join(MORTAL_KINDS)}")
    if kind != "citizen":
        mortal["kind"] = kind
    agenda = _number("mortal_agenda", form.get("mortal_agenda", ""))
    if agenda:
        mortal["agenda"] = agenda
    _list(state, "mortals").append(mortal)


def add_conspiracy(state: dict, form) -> None:
    card = " ".join(form.get("conspiracy", "").split())
    if not card:
        raise BuilderError("conspiracy", "name the Conspiracy card")
    controller = form.get("conspiracy_controller", "")
    if controller not in players(state):
        raise BuilderError("conspiracy_controller", "choose the player who played it")
    required = _number("conspiracy_required", form.get("conspiracy_required", ""))
    if required is None or required < 1:
        raise BuilderError("conspiracy_required", "a Conspiracy needs the Prestige it requires (on its card)")
    _list(state, "conspiracies").append({"card": card, "controller": controller, "required": required})


@lru_cache(maxsize=1)
def event_forms() -> tuple[EventForm, ...]:
    """Every structured form of the Rivals engine, grouped for the builder."""
    from judge.engine.rivals.scenario import forms
    group_of = {key: group for group, keys in FORM_GROUPS.items() for key in keys}
    out = []
    for key, form in forms().items():
        example = (form.get("examples") or [f"{{{key}: …}}"])[0]
        try:
            hints = yaml.safe_load(example)
        except yaml.YAMLError:
            hints = None
        allowed = tuple(k for k in (form.get("properties") or {}) if k not in (key, "text"))
        out.append(EventForm(key, group_of.get(key, "More"), allowed, example, hints if isinstance(hints, dict) else {}))
    order = {key: n for n, key in enumerate(k for keys in FORM_GROUPS.values() for k in keys)}
    return tuple(sorted(out, key=lambda f: order.get(f.key, len(order))))


def event_form(key: str):
    return next((f for f in event_forms() if f.key == key), None)
