"""The analyzers' own small searches: one alpha-beta helper over the rest of a card play.

The defence analysis (what one defender can secure, :func:`pyanalyzer.preferans.defence.secured_tricks`)
and the misère with an unseen discard (one defence against every possible discard,
:mod:`pyanalyzer.preferans.misere`) each search a game tree of their own on top of the engine. Both
are a :class:`TrickSearch`: fail-soft alpha-beta whose nodes are ``(hands, leader, played,
extra)`` (``extra``: whatever else the search tracks, e.g. the declarer's candidate hands),
tricks completed by the trick rules (:class:`~pyanalyzer.model.play.TrickRules`), and a memo
of bounds at trick boundaries kept across calls (:func:`tighten`). A subclass says what is
searched: the cards tried at a node (``expand``; :func:`distinct_cards` keeps one card of each
run of equivalent ones), who maximises, what a trick is worth to the value, the bounds known
at a trick boundary and where the value is known without search.

>>> from pyanalyzer.model.play import TrickRules
>>> from pyanalyzer.model.position import iter_bits
>>> class Tricks(TrickSearch):  # plain minimax on seat 0's tricks
...     def expand(self, hands, leader, played, extra, seat):
...         legal = iter_bits(self.rules.legal_moves(hands[seat], played))
...         return [(c, hands[:seat] + (hands[seat] & ~(1 << c),) + hands[seat + 1:], None)
...                 for c in legal], None
...     def maximising(self, seat): return seat == 0
...     def gain(self, winner): return int(winner == 0)
...     def bounds(self, hands, leader, extra): return 0, bin(hands[0]).count("1")
>>> rules = TrickRules(suit_masks=(0b0111, 0b111000), trump=None, must_trump=True)
>>> Tricks(rules, seats=2).value((0b010001, 0b001010), leader=0)  # each side makes one trick
1
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable

from pyanalyzer.model.play import TrickRules

#: A node's children: ``(card, hands after it, extra after it)`` in the order they are tried.
Moves = Iterable[tuple[int, tuple[int, ...], Hashable]]


def tighten(bounds: tuple[int, int], best: int, alpha: int, beta: int) -> tuple[int, int]:
    """Memo bounds after a fail-soft search of window (alpha, beta) returned ``best``:
    at or below alpha it is an upper bound, at or above beta a lower bound, else exact.

    >>> tighten((0, 5), 2, 2, 4), tighten((0, 5), 4, 2, 4), tighten((0, 5), 3, 2, 4)
    ((0, 2), (4, 5), (3, 3))
    """
    lower, upper = bounds
    if best <= alpha:
        return lower, min(upper, best)
    if best >= beta:
        return max(lower, best), upper
    return best, best


def distinct_cards(cards: list[int], hands: tuple[int, ...], played: tuple[int, ...],
                   suit_masks: tuple[int, ...]) -> list[int]:
    """One card per run of touching cards of one hand: no other card still in play lies between.

    Such cards are interchangeable for every question asked here, so one stands for all.

    >>> distinct_cards([0, 1, 3], (0b1011, 0b0100), (), (0xFF,))  # 0 and 1 touch; 2 is in the other hand
    [0, 3]
    """
    in_play = 0
    for hand in hands:
        in_play |= hand
    for card in played:
        in_play |= 1 << card
    chosen: list[int] = []
    for card in sorted(cards):
        if chosen:
            low = chosen[-1]
            hand = next((h for h in hands if h >> card & 1), 0)
            between = in_play & ((1 << card) - 1) & ~((1 << (low + 1)) - 1)
            same_suit = any(m >> low & 1 and m >> card & 1 for m in suit_masks)
            if hand >> low & 1 and same_suit and not between & ~hand:
                continue
        chosen.append(card)
    return chosen


class TrickSearch(ABC):
    """Fail-soft alpha-beta over the rest of a play, with a memo of bounds at trick boundaries.

    Subclasses define :meth:`expand`, :meth:`maximising`, :meth:`gain` and :meth:`bounds`,
    and may define :meth:`known`, :meth:`finished` and :meth:`key`. The memo lives as long
    as the object, so several :meth:`value` calls share it.
    """

    def __init__(self, rules: TrickRules, seats: int) -> None:
        self.rules = rules
        self.seats = seats
        self.memo: dict[Hashable, tuple[int, int]] = {}

    # -- what is searched (the subclass's) --------------------------------------------------

    @abstractmethod
    def expand(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...], extra: Hashable,
               seat: int) -> tuple[Moves, int | None]:
        """The children of a node whose ``seat`` is to move, and an upper bound of its value
        known on the way (None: none). Called before the memo is looked at."""

    @abstractmethod
    def maximising(self, seat: int) -> bool:
        """True if ``seat`` wants the value as high as possible."""

    @abstractmethod
    def gain(self, winner: int) -> int:
        """What a trick taken by ``winner`` adds to the value."""

    @abstractmethod
    def bounds(self, hands: tuple[int, ...], leader: int, extra: Hashable) -> tuple[int, int]:
        """(lower, upper) bounds of the value at a trick boundary with nothing in the memo."""

    def known(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...],
              extra: Hashable) -> int | None:
        """The value where it is known without searching (None: search)."""
        return None

    def finished(self, hands: tuple[int, ...], extra: Hashable) -> bool:
        """True when no card is left to play after a trick."""
        return not any(hands)

    def key(self, hands: tuple[int, ...], leader: int, extra: Hashable) -> Hashable:
        """The memo key of a trick boundary."""
        return hands, leader, extra

    # -- the search ------------------------------------------------------------------------

    def value(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...] = (),
              extra: Hashable = None, alpha: int = -1, beta: int | None = None) -> int:
        """The value of a node; the window defaults to (-1, the tricks left + 1)."""
        if beta is None:
            beta = (sum(bin(h).count("1") for h in hands) + len(played)) // self.seats + 1
        return self.search(hands, leader, played, extra, alpha, beta)

    def search(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...], extra: Hashable,
               alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the value if inside (alpha, beta), else a bound beyond the window."""
        known = self.known(hands, leader, played, extra)
        if known is not None:
            return known
        seat = (leader + len(played)) % self.seats
        moves, upper_known = self.expand(hands, leader, played, extra, seat)
        key = None
        if not played:
            key = self.key(hands, leader, extra)
            lower, upper = self.memo[key] if key in self.memo else self.bounds(hands, leader, extra)
            if upper_known is not None:
                upper = min(upper, upper_known)
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window_alpha, window_beta = alpha, beta
        maximising = self.maximising(seat)
        best = -1 if maximising else 1 << 30
        for card, child_hands, child_extra in moves:
            trick = played + (card,)
            if len(trick) < self.seats:
                value = self.search(child_hands, leader, trick, child_extra, alpha, beta)
            else:
                winner = self.rules.trick_winner(leader, trick)
                gain = self.gain(winner)
                if self.finished(child_hands, child_extra):
                    value = gain
                else:
                    value = gain + self.search(child_hands, winner, (), child_extra, alpha - gain, beta - gain)
            if maximising:
                if value > best:
                    best, alpha = value, max(alpha, value)
            elif value < best:
                best, beta = value, min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            bounds = self.memo[key] if key in self.memo else self.bounds(hands, leader, extra)
            self.memo[key] = tighten(bounds, best, window_alpha, window_beta)
        return best
