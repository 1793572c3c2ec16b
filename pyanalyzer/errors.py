"""Precise errors for bad input. Each one quotes the offending token.

The command-line tool prints ``str(error)`` on one line and exits with status 2.
"""

from __future__ import annotations


class PrefInputError(ValueError):
    """Base class: the user's input is wrong. ``token`` is the offending text."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class NotationError(PrefInputError):
    """A card, hand or contract could not be read."""


class UnknownCardError(NotationError):
    """A token is not a card of the game's deck."""


class DuplicateCardError(PrefInputError):
    """The same card is written twice, in one hand or in two places."""


class LayoutError(PrefInputError):
    """The layout as a whole is inconsistent (hand sizes, seats, contract, ...)."""


class IllegalPlayError(LayoutError):
    """A card of the current trick breaks the rules of play."""


def shorten(token: str, limit: int = 60) -> str:
    """``token`` as quoted in a one-line message: a long one cut in the middle, its length said.

    >>> shorten("9" * 5000)
    '9999999999999999999999999…9999999999 (5,000 characters)'
    """
    if len(token) <= limit:
        return token
    return f"{token[:25]}…{token[-10:]} ({len(token):,} characters)"
