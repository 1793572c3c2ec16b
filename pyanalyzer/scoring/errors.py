"""Errors of the scoring package: each one is a :class:`~pyanalyzer.errors.PrefInputError`.

>>> issubclass(RecordError, PrefInputError)
True
>>> str(RecordError("bad seat 'X'", "X", line=4))
"line 4: bad seat 'X'"
"""

from __future__ import annotations

from ..errors import PrefInputError


class ScoringError(PrefInputError):
    """A deal, a sheet or a settlement cannot be scored as written."""


class ConventionError(ScoringError):
    """An unknown convention, an unknown option or a bad option value."""


class RecordError(ScoringError):
    """A line of a game record file is wrong; the message starts with its line number."""

    def __init__(self, message: str, token: str | None = None, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message, token)
        self.line = line
