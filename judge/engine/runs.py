"""What a replay gives, whichever game it is of: its steps (`Step`), where and why it stopped (`Stop`), and
the `Run` that holds them with the checks of the scenario's expectations; and what a replay has done against
its limits (`ReplayWork`). Each game's scenario.py (judge/engine/vtes/, judge/engine/rivals/) makes them;
trace.py reports them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from judge.engine import limits as L
from judge.engine.citations import Rule
from judge.engine.limits import Limits


@dataclass
class Step:
    n: int  # the event's number (1-based); len(events) + 1 for the end of the scenario
    event: str
    text: str
    rules: tuple[Rule, ...]
    line: Optional[int] = None


@dataclass
class Stop:
    """Where and why a replay stopped: kind is "refused" or "not-modelled" (EngineStop.kind)."""

    kind: str
    message: str
    rules: tuple[Rule, ...]
    n: int
    event: str
    line: Optional[int]

    @property
    def rule(self) -> Optional[str]:
        """The name of the rule the stop is about (the first one it cites), e.g. "BLEED_ONCE"."""
        return self.rules[0].name if self.rules else None


@dataclass
class Run:
    scenario: Any  # the Scenario replayed (vtes.scenario.Scenario, rivals.scenario.Scenario)
    edition: str
    steps: list[Step]
    state: Any  # the game's state after the replay
    stop: Optional[Stop]
    checks: list = field(default_factory=list)  # expect.Check

    @property
    def judged(self) -> bool:
        """Whether this replay is checked: under the scenario's own edition always; under another, only if
        the scenario has expectations for that edition (otherwise it is shown, not judged)."""
        return self.edition == self.scenario.rules or self.scenario.expect.judged(self.edition)

    @property
    def ok(self) -> bool:
        if not self.judged:
            return True
        return all(c.ok for c in self.checks) and (self.stop is None or self._stop_expected())

    def _stop_expected(self) -> bool:
        key = "refused" if self.stop.kind == "refused" else "not_modelled"
        return any(c.path == key and c.ok and c.expected is not False for c in self.checks)


class ReplayWork:
    """What one replay has done, against its limits, of either game: turns begun, steps, the bytes its steps will
    take in the report (an estimate, so that a replay stops as soon as it goes over `answer_bytes`; the report
    itself is measured by trace.checked_json), and its wall time."""

    STEP_BYTES = 120  # a step's keys, its number and its cites' IDs, beside its two texts

    def __init__(self, limits: Limits, first_turn: int):
        self.limits, self.first_turn = limits, first_turn
        self.clock = L.Clock(limits, "replaying the scenario")
        self.answer_bytes = 0

    def add(self, steps: list, new: list) -> None:
        steps.extend(new)
        self.answer_bytes += sum(len(s.event) + len(s.text) + self.STEP_BYTES for s in new)

    def check(self, state: Any, steps: list, n: int, line: Optional[int]) -> None:
        at = f" by event {n}" if line is not None else " at the end of the events"
        L.over(self.limits, "turns", state.turn_number - self.first_turn, f"the replay began {{count:,}} turns{at}",
               line)
        L.over(self.limits, "steps", len(steps), f"the replay took {{count:,}} steps{at}", line)
        L.over(self.limits, "answer_bytes", self.answer_bytes, f"the replay's report would take more than {{count:,}} "
               f"bytes{at}", line)
        self.clock.check(line, at)
