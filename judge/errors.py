"""Errors judge reports to its users: each says what went wrong and where."""
from __future__ import annotations


class JudgeError(Exception):
    """Base class: a user-facing error with a clear message (never a traceback)."""


class SourceError(JudgeError):
    """A rulebook or the manifest could not be read; names the file and line."""

    def __init__(self, file: str, line: int, message: str):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")


class UnknownIdError(JudgeError):
    """No paragraph or section answers to an ID; carries close matches."""

    def __init__(self, wanted: str, suggestions: list[str]):
        self.wanted, self.suggestions = wanted, suggestions
        hint = f" (did you mean: {', '.join(suggestions)})" if suggestions else ""
        super().__init__(f"no such paragraph: {wanted!r}{hint}")
