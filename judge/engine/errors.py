"""What the scenario engine tells its user when it cannot go on.

Three different situations, never to be confused:

* `Refusal`: the move is illegal under the chosen edition; it carries the
  paragraphs that forbid it. A scenario may expect one (`expect: {refused: ...}`).
* `NotModelled`: the rules cover the move, but this engine does not (yet):
  it stops rather than guess, and names the paragraphs a judge should read.
* `ScenarioError`: the scenario file itself is malformed; it names the line
  and what was expected there.
"""
from __future__ import annotations

from typing import Optional, Sequence

from judge.errors import JudgeError


class EngineStop(JudgeError):
    """Base class of the two ways a replay stops on a legal-looking event.

    `kind` is machine-readable ("refused", "not-modelled"; a ScenarioError's is "malformed"), and
    `rule` names the rule the stop is about (the first of `rules`), e.g. "BLEED_ONCE": the JSON
    report carries both, so a program need not parse the message.
    """

    kind = "stop"

    def __init__(self, message: str, rules: Sequence = ()):
        self.message = message
        self.rules = tuple(rules)  # judge.engine.citations.Rule objects
        super().__init__(message)

    @property
    def rule(self) -> Optional[str]:
        return self.rules[0].name if self.rules else None


class Refusal(EngineStop):
    """An illegal move, refused with the rule that forbids it."""

    kind = "refused"


class NotModelled(EngineStop):
    """A move the rules cover but this engine does not: it never guesses."""

    kind = "not-modelled"

    def __init__(self, message: str, rules: Sequence = ()):
        super().__init__(message if message.startswith("not modelled") else f"not modelled: {message}", rules)


class ScenarioError(JudgeError):
    """A malformed scenario: names the file, the line and what was expected."""

    kind = "malformed"

    def __init__(self, message: str, line: Optional[int] = None, file: str = ""):
        self.message, self.line, self.file = message, line, file
        where = f"{file}:{line}: " if file and line else (f"line {line}: " if line else (f"{file}: " if file else ""))
        super().__init__(f"{where}{message}")

    def at(self, file: str) -> "ScenarioError":
        return ScenarioError(self.message, self.line, file)
