"""How much one scenario may ask of judge: the bounds of the format and the limits of a replay.

Anyone may send a scenario to the web app (/check, /api/check), so the work one scenario can cause
is bounded, and bounded the same way wherever it is read: the web routes apply `DEFAULT`, and so
does `judge check` unless its `--limit NAME=N` options raise a limit (`Limits.with_override`).
docs/scenarios.md ("Limits") lists them with the reasons for their values.

Two kinds of bound:

* the format's own (fixed, checked where the YAML is read, yamlfile.py): every number is between
  -NUMBER_BOUND and NUMBER_BOUND, every text value (and key) at most TEXT_CHARS characters, and a
  player's or minion's name at most NAME_CHARS. A step of a replay repeats its event's text and
  names the players and minions it is about, so these keep every step, and with `steps` the whole
  report, small whatever the scenario says.
* the replay's (`Limits`): the scenario's size, its table and events, and the work of one replay
  (turns, steps, wall time, the size of its report). Going over one is an `OverLimit`, which names
  the limit and its value (and the line where the scenario went over it, when there is one); the web
  answers it 413 (the text is too long) or 422 (the scenario asks too much).
"""
from __future__ import annotations

import gc
import time
from dataclasses import dataclass, fields, replace
from typing import Optional

from judge.engine.errors import ScenarioError

NUMBER_BOUND = 1_000  # a pool, blood, capacity, votes, damage, turn number...: a real table stays far below
NUMBER_CHARS = 24  # a number written longer than this is refused before it is converted
TEXT_CHARS = 1_000  # a sentence, a card's name, a title, a key
NAME_CHARS = 100  # a player's or minion's name: sentences are matched against every name
UTF8_BYTES_PER_CHARACTER = 4  # the most UTF-8 takes for one character: a text's bytes bound from its characters
NUMBERS = f"numbers in a scenario are between -{NUMBER_BOUND:,} and {NUMBER_BOUND:,}"

# The unit of each limit, as its message says it: "the limit 'events' is 100 events".
UNITS = {"characters": "characters", "values": "values", "players": "players", "minions": "minions", "events": "events",
         "expectations": "expectations", "turns": "turns", "steps": "steps", "seconds": "seconds",
         "answer_bytes": "bytes"}


@dataclass(frozen=True)
class Limits:
    """The replay's limits. The defaults let through scenarios several times larger than any in scenarios/,
    and keep the work of one at all of them small beside a web worker's (docs/scenarios.md, "Limits", gives
    the measures behind each value)."""

    characters: int = 100_000  # the scenario's text
    values: int = 5_000  # texts, numbers, lists and mappings in it: reading works value by value
    players: int = 10
    minions: int = 60
    events: int = 100
    expectations: int = 100  # keys of the expect: block, its edition blocks' included
    turns: int = 30  # turns begun during one replay ("Sarah's next turn" at a table of 10 begins 10)
    steps: int = 500  # steps in one replay's trace
    seconds: float = 1.0  # wall time to read the scenario, and again for each replay of it (a backstop)
    answer_bytes: int = 1_000_000  # the replay's JSON report

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_override(self, setting: str) -> "Limits":
        """These limits with one changed, from "NAME=N" (the `judge check --limit` option); ValueError
        saying what is wrong otherwise."""
        name, sep, value = setting.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in self.names():
            raise ValueError(f"expected NAME=N with NAME one of {', '.join(self.names())}; got {setting!r}")
        kind = float if name == "seconds" else int
        try:
            number = kind(value.strip().replace("_", ""))
        except ValueError:
            raise ValueError(f"{name}: expected {'a number' if kind is float else 'a whole number'}, "
                             f"got {value.strip()!r}") from None
        if not number > 0:
            raise ValueError(f"{name}: a limit is above 0; got {value.strip()!r}")
        return replace(self, **{name: number})

    def body_bytes(self) -> int:
        """The largest request body the web app reads: the UTF-8 of the longest scenario allowed (4 bytes a
        character at most) and room for a form's envelope around it. The character limit is then the one
        that decides, for every route and every encoding of the same text."""
        return UTF8_BYTES_PER_CHARACTER * self.characters + 64 * 1024


DEFAULT = Limits()


class OverLimit(ScenarioError):
    """A scenario over one of the limits: names the limit (`limit`) and its value (`maximum`)."""

    kind = "over-limit"

    def __init__(self, limit: str, maximum: float, found: str, line: Optional[int] = None, file: str = ""):
        self.limit, self.maximum, self.found = limit, maximum, found
        shown = f"{maximum:g}" if isinstance(maximum, float) else f"{maximum:,}"
        unit = UNITS[limit] if maximum != 1 else UNITS[limit][:-1]
        super().__init__(f"{found}; the limit '{limit}' is {shown} {unit}", line, file)

    def at(self, file: str) -> "OverLimit":
        return OverLimit(self.limit, self.maximum, self.found, self.line, file)


def check_name(name: str, line: Optional[int]) -> None:
    """ScenarioError for a player's or minion's name longer than NAME_CHARS."""
    if len(name) > NAME_CHARS:
        raise ScenarioError(f"the name {name[:40]!r}... is {len(name):,} characters long; a player's or minion's name "
                            f"is at most {NAME_CHARS} characters", line)


def over(limits: Limits, name: str, count: int, found: str, line: Optional[int] = None) -> None:
    """OverLimit if `count` is above the limit `name`; `found` says what was found ("the scenario has 250
    events"): a format string given `count`, e.g. "the scenario has {count:,} events"."""
    maximum = getattr(limits, name)
    if count > maximum:
        raise OverLimit(name, maximum, found.format(count=count), line)


class _CollectorTime:
    """The time the process has spent in Python's cyclic garbage collector. A collection of the whole heap is paid
    by whatever allocates when it comes due: in a process holding a large heap (the test suite's, with the corpus
    and every test's leftovers) one can take a second on a busy machine, work the scenario did not cause. Watched
    from the first Clock on (gc.callbacks), not at import."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._since: Optional[float] = None
        self.watching = False

    def watch(self) -> None:
        if not self.watching:
            self.watching = True
            gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._since = time.monotonic()
        elif self._since is not None:
            self.spent += time.monotonic() - self._since
            self._since = None


_COLLECTOR = _CollectorTime()


class Clock:
    """The wall time of one reading or one replay, checked between its steps (`check`); the process's garbage
    collections meanwhile are not counted (_CollectorTime says why)."""

    def __init__(self, limits: Limits, what: str):
        _COLLECTOR.watch()
        self.limits, self.what = limits, what
        self.deadline = time.monotonic() + limits.seconds
        self.collected = _COLLECTOR.spent

    def check(self, line: Optional[int] = None, where: str = "") -> None:
        if time.monotonic() - (_COLLECTOR.spent - self.collected) > self.deadline:
            raise OverLimit("seconds", self.limits.seconds,
                            f"{self.what} took more than {self.limits.seconds:g} seconds{where}", line)
