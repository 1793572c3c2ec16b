"""Contracts: a trick contract (level and trump or no-trump), misère, all-pass.

>>> from pyanalyzer.rules import PREFERANS_RULES
>>> c = Contract.parse("7♦", PREFERANS_RULES)
>>> c, str(c), c.code
(Contract('7d'), '7♦', '7d')
>>> str(Contract.parse("6nt", PREFERANS_RULES)), str(Contract.parse("misere", PREFERANS_RULES))
('6NT', 'misère')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import Suit
from .errors import NotationError, shorten
from .notation import SUIT_SYMBOLS
from .rules import Rules

TRICKS, MISERE, ALLPASS = "tricks", "misere", "allpass"

_MISERE_WORDS = {"misere", "misère", "miser", "mizer", "мизер"}
_ALLPASS_WORDS = {"allpass", "all-pass", "all_pass", "raspasy", "распасы", "pass"}
_NO_TRUMP_WORDS = {"n", "nt", "notrump", "no-trump", "no_trump", "бк"}
_TRICK_CONTRACT = re.compile(r"^(\d+)\s*(.+)$")


@dataclass(frozen=True)
class Contract:
    """``kind`` is ``tricks``, ``misere`` or ``allpass``; trick contracts have a level and a trump."""

    kind: str
    level: int | None = None
    trump: Suit | None = None

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Contract:
        """Read ``6s``, ``7♦``, ``6n``/``6nt``/``6NT``, ``misere``/``misère``, ``allpass``."""
        word = text.strip().lower()
        if word in _MISERE_WORDS:
            return cls(MISERE)
        if word in _ALLPASS_WORDS:
            return cls(ALLPASS)
        if not rules.bidding and not word[:1].isdigit():
            # Whist has no bidding: the contract may be just the trump (``s``, ``♥``, ``nt``).
            return cls(TRICKS, None, _denomination(word, text, rules))
        match = _TRICK_CONTRACT.match(word)
        if not match and not rules.bidding:
            raise NotationError(f"bad contract {shorten(text)!r}: a whist contract names its trump, alone "
                                f"(h, nt) or after a bid of {rules.contract_levels[0]} to "
                                f"{rules.contract_levels[-1]} ({rules.book} + n tricks: 4h, 1nt)", text)
        if not match:
            raise NotationError(f"bad contract {shorten(text)!r}: write e.g. 6s, 7♦, 8nt, misere, allpass", text)
        digits, denomination = match.group(1), match.group(2).strip()
        # A level of thousands of digits is out of range before int() is asked to read it.
        level = int(digits) if len(digits.lstrip("0")) <= 2 else None
        if level not in rules.contract_levels:
            levels = f"{rules.contract_levels[0]} to {rules.contract_levels[-1]}"
            raise NotationError(f"bad contract {shorten(text)!r}: the level must be {levels}", text)
        return cls(TRICKS, level, _denomination(denomination, text, rules))

    @property
    def is_misere(self) -> bool:
        return self.kind == MISERE

    @property
    def is_allpass(self) -> bool:
        return self.kind == ALLPASS

    @property
    def code(self) -> str:
        """The ASCII form used in files: ``7d``, ``6n``, ``misere``, ``allpass``."""
        if self.kind != TRICKS:
            return self.kind
        return f"{self.level or ''}{self.trump.letter if self.trump else 'n'}"

    def __str__(self) -> str:
        if self.kind == MISERE:
            return "misère"
        if self.kind == ALLPASS:
            return "all-pass"
        return f"{self.level or ''}{self.trump.symbol if self.trump else 'NT'}"

    def __repr__(self) -> str:
        return f"Contract({self.code!r})"


def _denomination(denomination: str, text: str, rules: Rules) -> Suit | None:
    """The trump suit named by ``denomination``, or None for no-trump."""
    if denomination in _NO_TRUMP_WORDS:
        return None
    letter = SUIT_SYMBOLS.get(denomination, denomination)
    for suit in rules.deck.suits:
        if letter in (suit.letter, suit.name, suit.name.rstrip("s")):
            return suit
    raise NotationError(f"bad contract {shorten(text)!r}: unknown trump {shorten(denomination)!r}", text)
