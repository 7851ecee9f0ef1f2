"""A V:TES scenario's `expect:` block: its state paths read and checked when the file is loaded, then looked
up in the replay's final state (the machinery both games share is judge/engine/expect.py).

Each key is a path into the final state (the `state` object of `--json`) with shortcuts
(`pool.Alexis`, `blood.Belinde`, `edge`, ...), or an expected stop (`refused`, `not_modelled`).
A path naming an unknown player or minion, a value of the wrong kind (`locked.Belinde: 3`),
an expected stop at an event the scenario does not have, or a cite from the other book is a
malformed scenario, reported with its line when the file is loaded: otherwise it would only
show up as an expectation that can never be met.

Top-level expectations describe the replay under the scenario's own edition (`rules:`). A
block named after an edition (`current:`, `older:`) is checked when the scenario is replayed
under that edition (`--rules`, `--compare`); for the scenario's own edition it adds to (and
overrides) the top-level keys. Replayed under an edition it has no expectations for, a
scenario is shown, not judged.
"""
from __future__ import annotations

from typing import Any, Optional

from judge.engine.citations import ALIASES, BOOK, RULES_EDITIONS, rules_edition
from judge.engine.errors import ScenarioError
from judge.engine.expect import EXPECT_STOPS, Check, Expectations, follow, read_stop
from judge.engine import expect as X
from judge.engine.vtes.state import PHASES, REGIONS, state_to_json

PLAYER_KEYS = ("pool", "vp", "hand", "hand_size", "library", "crypt", "ousted", "withdrawn", "withdrawing",
               "prey", "predator", "locations", "contested_cards")
MINION_KEYS = ("blood", "life", "capacity", "region", "locked", "controller", "sect", "title", "equipment",
               "retainers", "clan", "anarch", "type", "strength", "bleed", "contested", "recruited",
               "title_contested", "infernal", "disciplines", "traits", "votes", "owner", "attached")
PHASE_KEYS = ("transfers", "master_actions", "discard_actions", "edge_pool_taken")
RESULT_KEYS = ("winner", "over", "tied")
# The fields of the state's open stages (state_to_json); tests/test_engine_expect.py keeps them in step.
STAGE_KEYS = {
    "action": ("actor", "kind", "summary", "directed", "targets", "stealth", "bleed", "may_block", "declined",
               "blocker", "intercept"),
    "combat": ("acting", "opposing", "action", "cause", "round", "range", "step", "pair", "ended", "press",
               "additional_strikes", "damage_taken", "wounded", "burning", "pending_damage"),
    "referendum": ("kind", "caller", "player", "card", "step", "for", "against", "prisci", "votes"),
    "diablerie_chance": ("blocker", "victim"),
    "resolved": ("actor", "kind", "summary", "successful", "blocked", "passed", "blocker", "margin"),
    "result": ("over", "winner", "tied", "scores"),
    "phase_state": PHASE_KEYS,
}
SCALARS = ("edge", "turn", "phase", "turn_number", "bank", "ousted_order", "rules") + PHASE_KEYS + RESULT_KEYS

# What each path's value must be: a kind, checked when the scenario is loaded.
INT, NUMBER, BOOL, TEXT, LIST, MAPPING = "a whole number", "a number", "true or false", "text", "a list", "a mapping"
PLAYER, MINION_KIND = "a player's name", "vampire or ally"
KINDS = {
    "pool": INT, "vp": NUMBER, "score": NUMBER, "hand": INT, "hand_size": INT, "library": (INT, None),
    "crypt": (INT, None), "ousted": BOOL, "withdrawn": BOOL, "withdrawing": BOOL, "prey": (PLAYER, None),
    "predator": (PLAYER, None), "locations": LIST, "contested_cards": LIST,
    "blood": INT, "life": INT, "capacity": INT, "strength": INT, "bleed": INT, "region": REGIONS, "locked": BOOL,
    "controller": PLAYER, "owner": PLAYER, "sect": (TEXT, None), "title": (TEXT, None), "clan": (TEXT, None), "equipment": LIST,
    "attached": LIST,
    "retainers": MAPPING, "anarch": BOOL, "contested": BOOL, "recruited": BOOL, "title_contested": BOOL,
    "infernal": BOOL, "type": ("vampire", "ally"), "disciplines": LIST, "traits": LIST, "votes": (INT, None),
    "in_play": BOOL,
    "edge": (PLAYER, None), "turn": PLAYER, "phase": PHASES, "turn_number": INT, "transfers": INT,
    "master_actions": INT, "discard_actions": INT, "edge_pool_taken": BOOL, "winner": (PLAYER, None), "over": BOOL,
    "tied": LIST, "ousted_order": LIST, "bank": INT, "rules": tuple(RULES_EDITIONS),
    "action": (MAPPING, None), "combat": (MAPPING, None), "referendum": (MAPPING, None),
    "diablerie_chance": (MAPPING, None), "resolved": (MAPPING, None),
}


def read(block: Any, lines, own: str, players: list[str], minions: list[str], n_events: int) -> Expectations:
    """The `expect:` block, checked: unknown names, wrong kinds and impossible stops are ScenarioErrors."""
    ctx = _Context(lines, players, minions, n_events)
    paths: dict = {own: {}}
    stops: dict = {own: {}}
    blocks = []
    for key, value in (block or {}).items():
        if key in RULES_EDITIONS or key in ALIASES:
            blocks.append((key, value))
        else:
            ctx.add(paths[own], stops[own], key, value, ("expect", key), own)
    for key, value in blocks:  # an edition's own block overrides the top-level keys for that edition
        ed = rules_edition(key)
        if not isinstance(value, dict):
            raise ScenarioError(f"expect.{key} must be a mapping of what to expect under the {ed} edition",
                                lines.of(("expect", key)))
        for k, v in value.items():
            ctx.add(paths.setdefault(ed, {}), stops.setdefault(ed, {}), k, v, ("expect", key, k), ed)
    return Expectations(paths, stops)


class _Context:
    def __init__(self, lines, players: list[str], minions: list[str], n_events: int):
        self.lines, self.players, self.minions, self.n_events = lines, players, minions, n_events

    def add(self, paths: dict, stops: dict, key: Any, value: Any, where: tuple, edition: str) -> None:
        line = self.lines.of(where)
        key_line = self.lines.key(where)
        if key in EXPECT_STOPS:
            self._check_stop(key, value, line, edition, _dotted(where))
            stops[key] = (value, line)
            return
        if not isinstance(key, str):
            raise ScenarioError(f"{_dotted(where[:-1])}: {key!r} is not a state path; expected a path like "
                                f"pool.<player>, blood.<minion>, edge, phase, or refused/not_modelled", key_line)
        self._check_path(key, value, key_line, line)
        paths[key] = (value, line)

    def _check_stop(self, key: str, spec: Any, line: Optional[int], edition: str, where: str) -> None:
        read_stop(spec, line, where, self.n_events, BOOK[edition], f"the {edition} edition's book",
                  f"{BOOK[edition]}:bleed/3", " (under --compare, put the other book's expectations in a block named after its edition)")

    # -- state paths ---------------------------------------------------------------------------------
    def _check_path(self, path: str, value: Any, key_line: Optional[int], line: Optional[int]) -> None:
        head, _, rest = path.partition(".")
        if head in PLAYER_KEYS or head == "score":
            self._name(rest, self.players, "player", path, key_line, f"{head}.<player>")
            self._kind(path, KINDS[head], value, line)
        elif head in MINION_KEYS or head == "in_play":
            self._name(rest, self.minions, "minion", path, key_line, f"{head}.<minion>")
            self._kind(path, KINDS[head], value, line)
        elif head in ("players", "minions"):
            names, what = (self.players, "player") if head == "players" else (self.minions, "minion")
            known = _match_name(rest, names)
            if known is None:
                raise ScenarioError(f"unknown {what} in {path!r} (the {what}s are "
                                    f"{', '.join(names) or 'none'})", key_line)
        elif head in STAGE_KEYS:
            if rest:
                field = rest.split(".", 1)[0]
                if field not in STAGE_KEYS[head]:
                    raise ScenarioError(f"{path!r}: {head} has no {field!r}; expected one of: "
                                        f"{', '.join(STAGE_KEYS[head])}", key_line)
            elif head in KINDS:
                self._kind(path, KINDS[head], value, line)
        elif head in SCALARS:
            if rest:
                raise ScenarioError(f"{path!r}: {head} is a single value, with nothing after the dot", key_line)
            self._kind(path, KINDS[head], value, line)
        else:
            raise ScenarioError(f"unknown expectation {path!r}; expected a state path like pool.<player>, "
                                f"blood.<minion>, edge, phase, or refused/not_modelled", key_line)

    def _name(self, rest: str, names: list[str], what: str, path: str, line, form: str) -> None:
        if not rest:
            raise ScenarioError(f"{path!r} needs a {what}: {form}", line)
        if rest not in names:
            raise ScenarioError(f"unknown {what} {rest!r} in {path!r} (the {what}s are {', '.join(names) or 'none'}; "
                                f"names are written exactly as in the table)", line)

    def _kind(self, path: str, kind: Any, value: Any, line: Optional[int]) -> None:
        kinds = kind if isinstance(kind, tuple) and (None in kind or kind[0] in KIND_TESTS) else (kind,)
        if any(self._is(k, value) for k in kinds):
            return
        words = " or ".join("null" if k is None else (" or ".join(map(repr, k)) if isinstance(k, tuple) else k)
                            for k in kinds)
        raise ScenarioError(f"{path!r}: expected {words}, got {value!r}", line)

    def _is(self, kind: Any, value: Any) -> bool:
        if kind is None:
            return value is None
        if isinstance(kind, tuple):  # one of these values
            return value in kind
        if kind == PLAYER:
            return value in self.players
        return KIND_TESTS[kind](value)


KIND_TESTS = {
    INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
    NUMBER: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    BOOL: lambda v: isinstance(v, bool),
    TEXT: lambda v: isinstance(v, str),
    LIST: lambda v: isinstance(v, list),
    MAPPING: lambda v: isinstance(v, dict),
}


def _dotted(where: tuple) -> str:
    return ".".join(str(p) for p in where)


def _match_name(rest: str, names: list[str]) -> Optional[str]:
    """The name a `players.X...`/`minions.X...` path starts with (names may contain dots: "Dr. Fox")."""
    for name in sorted(names, key=len, reverse=True):
        if rest == name or rest.startswith(name + "."):
            return name
    return None


# -- checking a replay ----------------------------------------------------------------------------
def check(expect: Expectations, edition: str, state, stop, locator=None) -> list[Check]:
    return X.check(expect, edition, state_to_json(state), lookup, stop, locator)


def lookup(view: dict, path: str) -> tuple[bool, Any]:
    head, _, rest = path.partition(".")
    if head in PLAYER_KEYS and rest and rest in view["players"]:
        return True, view["players"][rest][head]
    if head == "score" and rest in view["players"]:
        return True, view["players"][rest]["vp"]
    if head in MINION_KEYS and rest:
        m = view["minions"].get(rest)
        if m is None:
            return False, None
        key = head
        if head in ("blood", "life"):  # blood on a vampire, life on an ally
            key = "life" if m["type"] == "ally" else "blood"
        return (key in m), m.get(key)
    if head == "in_play" and rest:
        return True, rest in view["minions"]
    if head in PHASE_KEYS and not rest:
        return True, view["phase_state"][head]
    if head in RESULT_KEYS and not rest:
        return True, view["result"][head]
    return follow(view, path.split("."))
