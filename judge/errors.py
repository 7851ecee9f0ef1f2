"""Errors judge reports to its users: each says what went wrong and where."""
from __future__ import annotations


class JudgeError(Exception):
    """Base class: a user-facing error with a clear message (never a traceback).

    Raised while answering a web request, it is the visitor's mistake (a bad
    parameter: 400), unless it is an `OwnFileError`."""


class OwnFileError(JudgeError):
    """A fault of judge's own files or of the disk holding them (a rulebook, the
    manifest, a data file, a built index, a template), not of whoever asked. The
    web answers 500 and logs it, telling the visitor no path; the command line
    shows the message."""


class SourceError(OwnFileError):
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
