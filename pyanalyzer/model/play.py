"""The trick rules, written once in Python: legal moves, declarations, trick winner, trick value.

The layout, the reference minimax, the analyzers' own small searches and the
tests use these; the fast engine has the same rules in C
(``solver/pref_engine/state.pxd``), and the tests cross-check the two.

>>> from pyanalyzer.model.position import Position
>>> rules = TrickRules.of(Position(hands=(0b0011, 0b1100), suit_masks=(0b0011, 0b1100), trump=1,
...                                must_trump=True, leader=0, played=(), declarer_side=(True, False),
...                                maximize=True))
>>> rules.trick_winner(0, (1, 2))  # seat 1 trumps seat 0's lead
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyanalyzer.model.position import DECLARE, Position, iter_bits

#: ``trump=`` default of the rule methods: the position's trump (it changes only with a declaration).
INITIAL_TRUMP = object()


@dataclass(frozen=True)
class TrickRules:
    """How the tricks of one position family are played (same suits, follow rule, talon, points)."""

    suit_masks: tuple[int, ...]
    trump: int | None
    must_trump: bool
    talon_leads: tuple[int, ...] = ()
    talon_must_beat: bool = False
    card_points: tuple[int, ...] = ()
    marriages: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, position: Position) -> TrickRules:
        return cls(
            suit_masks=tuple(position.suit_masks),
            trump=position.trump,
            must_trump=position.must_trump,
            talon_leads=tuple(getattr(position, "talon_leads", ())),
            talon_must_beat=getattr(position, "talon_must_beat", False),
            card_points=tuple(getattr(position, "card_points", ())),
            marriages=tuple(tuple(m) for m in getattr(position, "marriages", ())),
        )

    def suit_of(self, card: int) -> int:
        bit = 1 << card
        for suit, mask in enumerate(self.suit_masks):
            if mask & bit:
                return suit
        raise ValueError(f"card {card} is in no suit")

    def talon_card(self, talon: int) -> int | None:
        """The talon card that fixes the suit of talon trick number ``talon`` (None: no talon trick)."""
        return self.talon_leads[talon] if talon < len(self.talon_leads) else None

    def legal_moves(self, hand: int, played: Sequence[int], talon_card: int | None = None,
                    trump=INITIAL_TRUMP) -> int:
        """The cards of ``hand`` that may be played to the current trick: follow suit; if void,
        trump when the follow rule demands it; else any card. A talon trick: follow the talon
        card's suit, else anything."""
        if trump is INITIAL_TRUMP:
            trump = self.trump
        if talon_card is not None:
            follow = hand & self.suit_masks[self.suit_of(talon_card)]
            return follow or hand
        if not played:
            return hand
        follow = hand & self.suit_masks[self.suit_of(played[0])]
        if follow:
            return follow
        if self.must_trump and trump is not None:
            trumps = hand & self.suit_masks[trump]
            if trumps:
                return trumps
        return hand

    def declarations(self, hand: int) -> list[tuple[int, int, int]]:
        """The declaring leads of ``hand``: ``(card, suit, points)`` for each card of a declaration
        it holds whole; the suit (the trump from then on) is the card's own."""
        return [(card, self.suit_of(card), points)
                for mask, points in self.marriages if hand & mask == mask
                for card in iter_bits(mask)]

    def moves(self, hand: int, played: Sequence[int], trump=INITIAL_TRUMP, may_declare: bool = False,
              talon_card: int | None = None) -> list[int]:
        """Every legal move, lowest card first: the legal cards, then (leading, when the leader may
        declare) each declaring lead ``card | DECLARE``."""
        moves = list(iter_bits(self.legal_moves(hand, played, talon_card, trump)))
        if may_declare and not played and talon_card is None:
            moves += sorted(card | DECLARE for card, _suit, _points in self.declarations(hand))
        return moves

    def declaration(self, move: int) -> tuple[int, int] | None:
        """``(suit, points)`` declared by ``move`` (the new trump: the suit of the card led), or
        None for a plain card."""
        if not move & DECLARE:
            return None
        card = move & ~DECLARE
        for mask, points in self.marriages:
            if mask >> card & 1:
                return self.suit_of(card), points
        raise ValueError(f"card {card} belongs to no declaration")

    def trick_winner(self, leader: int, played: Sequence[int], talon_card: int | None = None,
                     trump=INITIAL_TRUMP) -> int | None:
        """The seat that wins a complete trick led by ``leader``: the highest trump, else the
        highest card of the suit led. A talon trick: the highest card of the talon card's suit
        (with ``talon_must_beat``, above it); None if nobody takes it."""
        if trump is INITIAL_TRUMP:
            trump = self.trump
        if talon_card is not None:
            suit = self.suit_of(talon_card)
            floor = talon_card if self.talon_must_beat else -1
            best = None
            for i, card in enumerate(played):
                if self.suit_of(card) == suit and card > floor:
                    if best is None or card > played[best]:
                        best = i
            return None if best is None else (leader + best) % len(played)
        best = 0
        best_suit = self.suit_of(played[0])
        for i in range(1, len(played)):
            suit = self.suit_of(played[i])
            beats = (suit == best_suit and played[i] > played[best]) or (
                suit == trump and best_suit != trump
            )
            if beats:
                best, best_suit = i, suit
        return (leader + best) % len(played)

    def trick_value(self, played: Sequence[int]) -> int:
        """What a complete trick is worth to the side that takes it: 1, or its cards' points."""
        if not self.card_points:
            return 1
        return sum(self.card_points[card] for card in played)
