"""Scenario files, of either game: load (with the line of everything), read, replay, check expectations.

A scenario is YAML: the table, a list of `events`, and an optional `expect:` block (paths into the final
state, or an expected refusal), so a scenario is also a test. Its `game:` key says which game it is of
(V:TES when absent), and the game's package reads the rest: judge/engine/vtes/scenario.py,
judge/engine/rivals/scenario.py (`GAME_MODULES`). What both share is here and beside it: reading the YAML
(yamlfile.py), the schema's wording (validation.py), the expected stops (expect.py) and the limits
(limits.py, the same for `judge check` and the web app): a scenario over one is an `OverLimit` naming the
limit, its value and the line. Any malformed part is a `ScenarioError` naming the line and what was
expected there, before anything is replayed.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, Optional

from judge.datafile import FileTooLarge, read_regular
from judge.errors import SourceError
from judge.engine import limits as L
from judge.engine.citations import ALIASES, GAMES, RIVALS, RULES_EDITIONS, VTES
from judge.engine.errors import ScenarioError
from judge.engine.expect import Check, cite_ids  # noqa: F401 - part of this module's interface
from judge.engine.limits import Limits, OverLimit  # noqa: F401 - part of this module's interface
from judge.engine.rivals import scenario as rivals_scenario
from judge.engine.runs import Run, Step, Stop  # noqa: F401 - part of this module's interface
from judge.engine.vtes import scenario as vtes_scenario
from judge.engine.yamlfile import Lines, decoded, read_yaml  # noqa: F401 - part of this module's interface

# Each game's scenario module, with one interface: its Scenario; parse_data(data, lines, file, limits, clock,
# cards), replay(scenario, edition, limits), run(scenario, edition, locator, limits), state_json(state),
# state_summary(state); SIZED, its lists checked against the limits before anything is built.
GAME_MODULES: dict[str, ModuleType] = {VTES: vtes_scenario, RIVALS: rivals_scenario}


def game_module(game: str) -> ModuleType:
    return GAME_MODULES[game]


def load(path: str | Path, limits: Limits = L.DEFAULT, cards=None) -> Any:
    path = Path(path)
    try:
        # Only a regular file (a named pipe would block), and not read past what the character limit allows.
        data = read_regular(path, "the scenario", L.UTF8_BYTES_PER_CHARACTER * (limits.characters + 1))
    except FileTooLarge as exc:
        size = f"{exc.size:,} bytes" if exc.size is not None else "longer"
        raise OverLimit("characters", limits.characters, f"the whole file is {size}, more than "
                        f"{limits.characters:,} characters can take", None, str(path)) from None
    except SourceError as exc:
        raise ScenarioError(exc.message, None, str(path)) from None
    try:
        return parse(decoded(data), str(path), limits, cards)
    except ScenarioError as exc:
        raise exc.at(str(path)) from None


def parse(text: str, file: str = "<scenario>", limits: Limits = L.DEFAULT, cards=None) -> Any:
    """The scenario in `text`; ScenarioError naming the line for anything malformed, OverLimit (one) for a
    scenario over `limits`. `cards` (a cards.Catalog, built once by the caller) resolves the cards the
    scenario names; without it, naming a card is refused."""
    clock = L.Clock(limits, "reading the scenario")
    if len(text) > limits.characters:  # where it went over is the line to name
        L.over(limits, "characters", len(text), "the scenario is {count:,} characters long",
               text.count("\n", 0, limits.characters) + 1)
    data, lines = read_yaml(text, limits)
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping with players, turn, phase and events", 1)
    game = game_of(data, lines)
    _check_sizes(data, lines, limits, game_module(game).SIZED)
    clock.check()
    return game_module(game).parse_data(data, lines, file, limits, clock, cards)


def game_of(data: dict, lines: Lines) -> str:
    """The game a scenario is of: its `game:` key (V:TES when absent)."""
    game = data.get("game", VTES)
    if not isinstance(game, str):  # a list or mapping: named by its kind, never looked up (it cannot be)
        raise ScenarioError(f"game: expected a name, one of: {', '.join(GAMES)} (V:TES when absent); "
                            f"got a {type(game).__name__}", lines.of(("game",)))
    if game not in GAMES:
        raise ScenarioError(f"unknown game {game!r}; expected one of: {', '.join(GAMES)} (V:TES when absent)",
                            lines.of(("game",)))
    return game


def _check_sizes(data: dict, lines: Lines, limits: Limits, sized: tuple) -> None:
    """The limits on the table and the lists, before anything is built from them (each at the line of the
    first item over it): `sized` is the game's (its key, the limit that bounds it)."""
    for key, name in sized:
        items = data.get(key)
        if isinstance(items, list):
            L.over(limits, name, len(items), f"the scenario has {{count:,}} {key}",
                   lines.of((key, min(len(items) - 1, getattr(limits, name)))))
    expect = data.get("expect")
    if isinstance(expect, dict):
        where = [(k,) if not (isinstance(v, dict) and (k in RULES_EDITIONS or k in ALIASES)) else (k, kk)
                 for k, v in expect.items() for kk in (v if isinstance(v, dict) else [None])]
        if len(where) > limits.expectations:
            L.over(limits, "expectations", len(where), "the scenario has {count:,} expectations",
                   lines.key(("expect",) + where[limits.expectations]))


def replay(scenario: Any, edition: Optional[str] = None, limits: Limits = L.DEFAULT) -> tuple[list[Step], Any,
                                                                                              Optional[Stop]]:
    """Replay every event of `scenario` under `edition` (its own when None); see its game's `replay`."""
    return game_module(scenario.game).replay(scenario, edition, limits)


def run(scenario: Any, edition: Optional[str] = None, locator=None, limits: Limits = L.DEFAULT) -> Run:
    return game_module(scenario.game).run(scenario, edition, locator, limits)


def find_scenarios(target: str | Path) -> list[Path]:
    target = Path(target)
    if target.is_dir():
        return sorted(p for p in target.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    return [target]
