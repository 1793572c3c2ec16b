"""Contracts: a trick contract (level and trump or no-trump), misère, all-pass.

>>> from pyanalyzer.model.rules import PREFERANS_RULES
>>> c = Contract.parse("7♦", PREFERANS_RULES)
>>> c, str(c), c.code
(Contract('7d'), '7♦', '7d')
>>> str(Contract.parse("6nt", PREFERANS_RULES)), str(Contract.parse("misere", PREFERANS_RULES))
('6NT', 'misère')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyanalyzer.errors import NotationError, shorten
from pyanalyzer.model.cards import SUITS, Suit
from pyanalyzer.model.notation import SUIT_SYMBOLS
from pyanalyzer.model.rules import GAMES, Rules

TRICKS, MISERE, ALLPASS, POINTS = "tricks", "misere", "allpass", "points"
KINDS = (TRICKS, MISERE, ALLPASS, POINTS)
#: The levels some game bids (Whist 1-7, Preferans 6-10): what ``Contract('7d')`` accepts.
ANY_GAME_LEVELS = tuple(sorted({level for rules in GAMES.values() for level in rules.contract_levels}))

_MISERE_WORDS = {"misere", "misère", "miser", "mizer", "мизер"}
_ALLPASS_WORDS = {"allpass", "all-pass", "all_pass", "raspasy", "распасы", "pass"}
_NO_TRUMP_WORDS = {"n", "nt", "notrump", "no-trump", "no_trump", "бк"}
_TRICK_CONTRACT = re.compile(r"^(\d+)\s*(.+)$")
_POINTS_BID = re.compile(r"^bid\s*(\d{1,4})$")


@dataclass(frozen=True)
class Contract:
    """``kind`` is ``tricks``, ``misere``, ``allpass`` or ``points``; trick contracts have a level and a
    trump; a ``points`` contract (Thousand) has the bid as its level (None: no bid named).

    ``Contract('7d')`` reads a contract's ASCII ``code`` (its repr), in any game's terms:
    ``6n`` (no-trump), ``s`` (Whist, trump alone), ``misere``, ``allpass``; a level must be one
    that some game bids. ``Contract('tricks', 7, DIAMONDS)`` gives the parts.

    >>> from pyanalyzer.model.rules import PREFERANS_RULES
    >>> Contract('7d') == Contract.parse("7♦", PREFERANS_RULES), Contract('n')
    (True, Contract('n'))
    """

    kind: str
    level: int | None = None
    trump: Suit | None = None

    def __post_init__(self) -> None:
        if self.kind in KINDS:
            return
        if self.level is not None or self.trump is not None:
            raise ValueError(f"unknown contract kind {self.kind!r}: choose from {', '.join(KINDS)}")
        code = _read(self.kind, None)
        object.__setattr__(self, "kind", code.kind)
        object.__setattr__(self, "level", code.level)
        object.__setattr__(self, "trump", code.trump)

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Contract:
        """Read ``6s``, ``7♦``, ``6n``/``6nt``/``6NT``, ``misere``/``misère``, ``allpass``."""
        return _read(text, rules)

    @property
    def is_misere(self) -> bool:
        return self.kind == MISERE

    @property
    def is_allpass(self) -> bool:
        return self.kind == ALLPASS

    @property
    def is_points(self) -> bool:
        return self.kind == POINTS

    @property
    def bid(self) -> int | None:
        """A points contract's bid (Thousand), or None."""
        return self.level if self.kind == POINTS else None

    @property
    def code(self) -> str:
        """The ASCII form: ``7d``, ``6n``, ``misere``, ``allpass``, ``bid120`` (``points``: no bid)."""
        if self.kind == POINTS:
            return f"bid{self.level}" if self.level is not None else POINTS
        if self.kind != TRICKS:
            return self.kind
        return f"{self.level or ''}{self.trump.letter if self.trump else 'n'}"

    def __str__(self) -> str:
        if self.kind == MISERE:
            return "misère"
        if self.kind == ALLPASS:
            return "all-pass"
        if self.kind == POINTS:
            return f"bid {self.level}" if self.level is not None else "no bid"
        return f"{self.level or ''}{self.trump.symbol if self.trump else 'NT'}"

    def __repr__(self) -> str:
        return f"Contract({self.code!r})"


def _read(text: str, rules: Rules | None) -> Contract:
    """The contract written ``text``, under ``rules`` (None: any game's levels and forms)."""
    word = text.strip().lower()
    if word in _MISERE_WORDS:
        return Contract(MISERE)
    if word in _ALLPASS_WORDS:
        return Contract(ALLPASS)
    if word == POINTS:
        return Contract(POINTS)
    bid = _POINTS_BID.match(word)
    if bid:
        return Contract(POINTS, int(bid.group(1)))
    bidding = rules.bidding if rules is not None else False
    if not bidding and not word[:1].isdigit():
        # Whist has no bidding: the contract may be just the trump (``s``, ``♥``, ``nt``).
        return Contract(TRICKS, None, _denomination(word, text, rules))
    match = _TRICK_CONTRACT.match(word)
    if not match and rules is not None and not rules.bidding:
        raise NotationError(f"bad contract {shorten(text)!r}: a whist contract names its trump, alone "
                            f"(h, nt) or after a bid of {rules.contract_levels[0]} to "
                            f"{rules.contract_levels[-1]} ({rules.book} + n tricks: 4h, 1nt)", text)
    if not match:
        raise NotationError(f"bad contract {shorten(text)!r}: write e.g. 6s, 7♦, 8nt, misere, allpass", text)
    digits, denomination = match.group(1), match.group(2).strip()
    # A level of thousands of digits is out of range before int() is asked to read it.
    level = int(digits) if len(digits.lstrip("0")) <= 2 else None
    levels = rules.contract_levels if rules is not None else ANY_GAME_LEVELS
    if level not in levels:
        raise NotationError(f"bad contract {shorten(text)!r}: the level must be {levels[0]} to {levels[-1]}",
                            text)
    return Contract(TRICKS, level, _denomination(denomination, text, rules))


def _denomination(denomination: str, text: str, rules: Rules | None) -> Suit | None:
    """The trump suit named by ``denomination``, or None for no-trump."""
    if denomination in _NO_TRUMP_WORDS:
        return None
    letter = SUIT_SYMBOLS.get(denomination, denomination)
    for suit in rules.deck.suits if rules is not None else SUITS:
        if letter in (suit.letter, suit.name, suit.name.rstrip("s")):
            return suit
    raise NotationError(f"bad contract {shorten(text)!r}: unknown trump {shorten(denomination)!r}", text)
