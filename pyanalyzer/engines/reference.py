"""The reference solver: plain, exact minimax over every legal move.

It is deliberately simple (alpha-beta with a memo of bounds at trick
boundaries, nothing else) so that it is obviously correct. It is the oracle the
fast engine (``pref_engine``) is tested against, and it is used by
``pref solve --engine reference``. It reads a :class:`~pyanalyzer.model.position.Position`
and plays by the one Python copy of the trick rules, :mod:`pyanalyzer.model.play`.

The value is the declarer side's total over the remaining play (the current
trick included) with best play by all: its tricks, or with card points the
points of its tricks, plus the points of its declarations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import DECLARE, Position, iter_bits


@dataclass
class ReferenceSolver:
    """Exact minimax for one position family (same seats, trick rules and sides).

    The memo is kept between calls, so per-move values and the best line reuse
    the work of the first solve.
    """

    rules: TrickRules
    declarer_side: tuple[bool, ...]
    maximize: bool
    nodes: int = 0
    memo: dict = field(default_factory=dict)

    @classmethod
    def for_position(cls, position: Position) -> ReferenceSolver:
        return cls(rules=TrickRules.of(position), declarer_side=tuple(position.declarer_side),
                   maximize=position.maximize)

    # -- search --------------------------------------------------------------

    def solve(self, position: Position) -> int:
        """The declarer side's total from ``position`` with best play by all."""
        self._check(position)
        return self._value(*self._start(position))

    def card_values(self, position: Position) -> dict[int, int]:
        """For each legal move of the player to move, the value after it is made (a declaring
        lead is the key ``card | DECLARE``)."""
        self._check(position)
        hands, leader, played, talon, trump, may_declare = self._start(position)
        seat = position.to_move
        values = {}
        for move in self.rules.moves(hands[seat], played, trump, may_declare, self.rules.talon_card(talon)):
            child, child_trump, gain = self._make(hands, seat, move, trump)
            values[move] = gain + self._value(child, leader, played + (move & ~DECLARE,), talon,
                                              child_trump, may_declare)
        return values

    def best_line(self, position: Position) -> list[int]:
        """One optimal play to the end: at each turn the first move keeping the value."""
        self._check(position)
        hands, leader, played, talon, trump, may_declare = self._start(position)
        target = self.solve(position)
        line: list[int] = []
        while any(hands) or played:
            seat = (leader + len(played)) % len(hands)
            talon_card = self.rules.talon_card(talon)
            for move in self.rules.moves(hands[seat], played, trump, may_declare and not played, talon_card):
                child, child_trump, gain = self._make(hands, seat, move, trump)
                card = move & ~DECLARE
                if gain + self._value(child, leader, played + (card,), talon, child_trump,
                                      may_declare) == target:
                    break
            else:  # pragma: no cover - the value is always kept by some move
                raise AssertionError("no move keeps the minimax value")
            line.append(move)
            hands, trump, target = child, child_trump, target - gain
            played += (card,)
            if len(played) == len(hands):
                winner = self.rules.trick_winner(leader, played, talon_card, trump)
                if winner is not None and self.declarer_side[winner]:
                    target -= self.rules.trick_value(played)
                if talon_card is None:
                    leader, may_declare = winner, bool(self.rules.marriages)
                else:
                    talon += 1
                played = ()
        return line

    def fits(self, position: Position) -> bool:
        """True if ``position`` plays by this solver's rules (so its memo applies)."""
        return (TrickRules.of(position) == self.rules
                and tuple(position.declarer_side) == self.declarer_side
                and position.maximize == self.maximize)

    def _check(self, position: Position) -> None:
        if not self.fits(position):
            raise ValueError("position does not belong to this solver's rules")

    @staticmethod
    def _start(position: Position) -> tuple:
        return (tuple(position.hands), position.leader, tuple(position.played), 0, position.trump,
                bool(getattr(position, "leader_may_declare", False)))

    def _make(self, hands: tuple[int, ...], seat: int, move: int, trump: int | None) -> tuple:
        """The hands after ``seat`` makes ``move``, the trump then, and what the declaration scores
        for the declarer's side."""
        card = move & ~DECLARE
        child = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
        declared = self.rules.declaration(move)
        if declared is None:
            return child, trump, 0
        suit, points = declared
        return child, suit, points if self.declarer_side[seat] else 0

    def _bound(self, hands: tuple[int, ...]) -> int:
        """At a trick boundary: the most the declarer's side can still get."""
        if not self.rules.card_points:
            return bin(hands[0]).count("1")
        points = sum(self.rules.card_points[card] for hand in hands for card in iter_bits(hand))
        return points + sum(p for mask, p in self.rules.marriages
                            if any(hand & mask == mask for hand in hands))

    def _value(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...], talon: int,
               trump: int | None, may_declare: bool) -> int:
        everything = 0
        for hand in hands:
            everything |= hand
        for card in played:
            everything |= 1 << card
        seats = len(hands)
        hi = self._bound((everything,) + (0,) * (seats - 1)) if self.rules.card_points \
            else -(-(sum(bin(h).count("1") for h in hands) + len(played)) // seats)
        return self._search(hands, leader, played, talon, trump, may_declare, -1, hi + 1)

    def _search(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...], talon: int,
                trump: int | None, may_declare: bool, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta; the value is the declarer side's total."""
        self.nodes += 1
        seats = len(hands)
        rules = self.rules
        talon_card = rules.talon_card(talon)
        if len(played) == seats:
            winner = rules.trick_winner(leader, played, talon_card, trump)
            gain = rules.trick_value(played) if winner is not None and self.declarer_side[winner] else 0
            if not any(hands):
                return gain
            if talon_card is None:
                leader, may_declare = winner, bool(rules.marriages)
            else:  # after a talon trick the same player leads (or plays first) again
                talon += 1
            return gain + self._search(hands, leader, (), talon, trump, may_declare, alpha - gain, beta - gain)

        key = None
        if not played:
            key = (hands, leader, talon, trump, may_declare)
            lower, upper = self.memo.get(key, (0, self._bound(hands)))
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        window_alpha, window_beta = alpha, beta

        seat = (leader + len(played)) % seats
        wants_more = self.declarer_side[seat] == self.maximize
        best = -1 if wants_more else 1 << 30
        moves = rules.moves(hands[seat], played, trump, may_declare and not played, talon_card)
        # Order only speeds the cut-offs; every move is still tried if needed.
        # Highest first for the side that wants tricks, lowest first for the other.
        if wants_more:
            moves.reverse()
        for move in moves:
            child, child_trump, gain = self._make(hands, seat, move, trump)
            value = gain + self._search(child, leader, played + (move & ~DECLARE,), talon, child_trump,
                                        may_declare, alpha - gain, beta - gain)
            if wants_more:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break

        if key is not None:
            bounds = self.memo.get(key, (0, self._bound(hands)))
            self.memo[key] = tighten(bounds, best, window_alpha, window_beta)
        return best


def tighten(bounds: tuple[int, int], best: int, alpha: int, beta: int) -> tuple[int, int]:
    """Memo bounds after a fail-soft search of window (alpha, beta) returned ``best``:
    at or below alpha it is an upper bound, at or above beta a lower bound, else exact."""
    lower, upper = bounds
    if best <= alpha:
        return lower, min(upper, best)
    if best >= beta:
        return max(lower, best), upper
    return best, best


def reference_tricks(position: Position) -> int:
    """Solve one position from scratch with the reference solver."""
    return ReferenceSolver.for_position(position).solve(position)


def self_interested_play(position: Position, rostov: bool = False,
                         taken: Sequence[int] | None = None) -> tuple[tuple[int, ...], list[int]]:
    """All-pass, every seat for himself, by plain max^n over every legal card.

    Returns the tricks each seat takes from ``position`` to the end and the
    line played. The seat to move picks the card whose outcome is best for
    him: the fewest own tricks (``rostov``: the smallest lead over the
    opponent with the fewest tricks, ``taken`` included, then the fewest own
    tricks); ties go to the first card in card order (suits in the order of
    ``suit_masks``, low to high). Every legal card is tried (no equivalent
    cards, no cut-offs); only whole positions are memoised. The oracle for
    the engine's ``self_interested``.
    """
    rules = TrickRules.of(position)
    seats = position.seats
    before = tuple(taken) if taken is not None else (0,) * seats
    suit_rank = {}
    for suit, mask in enumerate(position.suit_masks):
        for card in iter_bits(mask):
            suit_rank[card] = (suit, card)

    def preference(seat: int, outcome: tuple[int, ...], so_far: tuple[int, ...]) -> tuple:
        if not rostov:
            return (outcome[seat],)
        totals = [a + b for a, b in zip(outcome, so_far)]
        fewest = min(t for i, t in enumerate(totals) if i != seat)
        return (totals[seat] - fewest, totals[seat])

    memo: dict = {}

    def play(hands, leader, played, talon, so_far):
        if not any(hands) and not played:
            return (0,) * seats, []
        key = (hands, leader, played, talon, so_far if rostov else None)
        if key in memo:
            return memo[key]
        seat = (leader + len(played)) % seats
        talon_card = rules.talon_card(talon)
        best = None
        cards = sorted(iter_bits(rules.legal_moves(hands[seat], played, talon_card)),
                       key=suit_rank.__getitem__)
        for card in cards:
            child = list(hands)
            child[seat] &= ~(1 << card)
            trick = tuple(played) + (card,)
            if len(trick) < seats:
                outcome, line = play(tuple(child), leader, trick, talon, so_far)
            else:
                winner = rules.trick_winner(leader, trick, talon_card)
                gain = tuple(int(i == winner) for i in range(seats))
                next_leader = leader if talon_card is not None or winner is None else winner
                rest, line = play(tuple(child), next_leader, (), talon + (talon_card is not None),
                                  tuple(a + b for a, b in zip(so_far, gain)))
                outcome = tuple(a + b for a, b in zip(gain, rest))
            pref = preference(seat, outcome, so_far)
            if best is None or pref < best[0]:
                best = (pref, outcome, [card] + line)
        memo[key] = best[1], best[2]
        return memo[key]

    return play(tuple(position.hands), position.leader, tuple(position.played), 0, before)
