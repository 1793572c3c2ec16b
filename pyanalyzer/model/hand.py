"""A hand: an immutable set of cards of one deck.

>>> from pyanalyzer.model.cards import PREFERANS
>>> hand = Hand.parse("♠JQ ♣79 ♦10JQK ♥7J", PREFERANS)
>>> len(hand), str(hand)
(10, '♠QJ ♣97 ♦KQJ10 ♥J7')
>>> Hand.parse(hand.compact(), PREFERANS) == hand
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter

from pyanalyzer.model.cards import Card, Deck
from pyanalyzer.model.notation import format_cards, parse_cards

_display_key = attrgetter("display_key")


class Hand:
    """The cards one player holds. Iterates in display order (by suit, highest first)."""

    __slots__ = ("deck", "_cards", "_mask", "_shown")

    def __init__(self, cards: Iterable[Card], deck: Deck) -> None:
        self.deck = deck
        self._cards = frozenset(cards)
        mask = 0
        for card in self._cards:
            mask |= card.mask
        self._mask = mask
        self._shown: tuple[Card, ...] | None = None   # the display order, sorted once when asked

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Hand:
        """Read a hand in any notation that :func:`~pyanalyzer.model.notation.parse_cards` accepts."""
        return cls(parse_cards(text, deck), deck)

    @classmethod
    def from_mask(cls, mask: int, deck: Deck) -> Hand:
        return cls((c for c in deck if mask >> c.index & 1), deck)

    @property
    def mask(self) -> int:
        """The engine's bit mask of the hand."""
        return self._mask

    def cards_of_suit(self, suit_number: int) -> list[Card]:
        return [c for c in self if c.suit_number == suit_number]

    def without(self, card: Card) -> Hand:
        return Hand(self._cards - {card}, self.deck)

    def __iter__(self) -> Iterator[Card]:
        if self._shown is None:
            self._shown = tuple(sorted(self._cards, key=_display_key))
        return iter(self._shown)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self.deck is other.deck and self._cards == other._cards

    def __hash__(self) -> int:
        return hash((self.deck.name, self._mask))

    def format(self, style: str = "symbols") -> str:
        return format_cards(self, style)

    def compact(self) -> str:
        """The cards' codes in display order, comma-separated (``-`` for none), as
        ``format_cards(hand, "compact")`` writes them."""
        return self.deck.compact(self._mask)

    def __str__(self) -> str:
        return format_cards(self, "symbols")

    def __repr__(self) -> str:
        return f"Hand.parse({self.compact()!r}, {self.deck.name.upper()})"
