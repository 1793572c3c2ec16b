"""A move: a card played, or (Thousand) a lead that declares a marriage with it.

The engines number a move ``card.index``, with ``DECLARE`` added for a declaring lead;
the text form writes a declaring lead with a ``+`` after the card: ``Kh+`` (``♥K+``).

>>> from pyanalyzer.model.cards import THOUSAND
>>> move = Move(THOUSAND.card("K", "h"), declare=True)
>>> move.code, str(move), Move.from_engine(THOUSAND, move.engine_move) == move
('Kh+', '♥K+', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from pyanalyzer.model.cards import Card, Deck
from pyanalyzer.model.position import DECLARE

#: The mark of a declaring lead in the text forms.
DECLARE_MARK = "+"


@dataclass(frozen=True, order=True)
class Move:
    """``card``, led with a declaration when ``declare`` (Thousand's marriages)."""

    card: Card
    declare: bool = False

    @classmethod
    def from_engine(cls, deck: Deck, move: int) -> Move:
        return cls(deck.from_index(move & ~DECLARE), bool(move & DECLARE))

    @property
    def engine_move(self) -> int:
        return self.card.index | (DECLARE if self.declare else 0)

    @property
    def code(self) -> str:
        return self.card.code + (DECLARE_MARK if self.declare else "")

    @property
    def display_key(self) -> tuple[int, int, bool]:
        return (*self.card.display_key, self.declare)

    def __str__(self) -> str:
        return str(self.card) + (DECLARE_MARK if self.declare else "")

    def __repr__(self) -> str:
        return f"Move({self.card!r}{', declare=True' if self.declare else ''})"
