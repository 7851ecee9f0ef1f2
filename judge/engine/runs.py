"""What a replay gives, whichever game it is of: its steps (`Step`), where and why it stopped (`Stop`), and
the `Run` that holds them with the checks of the scenario's expectations. scenario.py (V:TES) and
rivals/scenario.py (Rivals) both make them; trace.py reports them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from judge.engine.citations import Rule


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
    scenario: Any  # the Scenario replayed (scenario.Scenario, rivals.scenario.Scenario)
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
