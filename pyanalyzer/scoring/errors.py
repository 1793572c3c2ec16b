"""Errors of the scoring package: each one is a :class:`~pyanalyzer.errors.PrefInputError`.

>>> issubclass(RecordError, PrefInputError)
True
>>> str(RecordError("bad seat 'X'", "X", line=4))
"line 4: bad seat 'X'"
"""

from __future__ import annotations

from pyanalyzer.errors import PrefInputError

#: Longest token quoted whole in a message; a longer one is cut (a 1 MB token makes no error line).
QUOTED_CHARS = 40


def quoted(token: str) -> str:
    """``repr(token)``, cut after :data:`QUOTED_CHARS` characters.

    >>> quoted("W"), quoted("x" * 100)
    ("'W'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'")
    """
    return repr(token if len(token) <= QUOTED_CHARS else token[:QUOTED_CHARS] + "...")


class ScoringError(PrefInputError):
    """A deal, a sheet or a settlement cannot be scored as written; a long token is quoted cut short."""

    def __init__(self, message: str, token: str | None = None) -> None:
        if token is not None and len(token) > QUOTED_CHARS:
            message = message.replace(repr(token), quoted(token)).replace(token, quoted(token)[1:-1])
        super().__init__(message, token)


class ConventionError(ScoringError):
    """An unknown convention, an unknown option or a bad option value."""


class RecordError(ScoringError):
    """A line of a game record file is wrong; the message starts with its line number."""

    def __init__(self, message: str, token: str | None = None, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message, token)
        self.line = line
