"""The reference solver: plain, exact minimax over every legal card.

It is deliberately simple (alpha-beta with a memo of bounds at trick
boundaries, nothing else) so that it is obviously correct. It is the oracle the
fast engine in ``solver/`` is tested against, and it is used by
``pref solve --engine reference``.

The position is given in the engine's primitive terms, shared by every game:

* ``hands``: one bit mask of cards per seat, seats numbered in play order
  (seat ``i + 1`` plays after seat ``i``);
* ``suit_masks``: the cards of each suit; inside a suit a higher bit is a
  higher card, so the rank order of the game is encoded by the numbering;
* ``trump``: index into ``suit_masks``, or ``None`` for no trump;
* ``must_trump``: a player void in the suit led must trump if he can
  (Preferans, Thousand); otherwise any card (Whist);
* ``leader`` and ``played``: the seat that led the current trick and the cards
  played to it so far, in order (empty at a trick boundary);
* ``declarer_side``: one flag per seat, true for the declarer and his partner;
* ``maximize``: true if the declarer's side wants as many tricks as possible
  (trick contracts), false for misère.

The value is the number of the remaining tricks (the current one included)
taken by the declarer's side with best play by all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


def iter_bits(mask: int):
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass
class ReferencePosition:
    """A position in the engine's primitive terms (see the module docstring).

    ``talon_leads`` (all-pass with an open talon) are the talon cards still to
    be turned up, in order: each fixes the suit of one trick to which every
    seat plays in turn starting with ``leader``; the highest card of that suit
    takes it (with ``talon_must_beat``, only if it beats the talon card), nobody
    takes it if nobody follows, and ``leader`` leads again after it.
    """

    hands: tuple[int, ...]
    suit_masks: tuple[int, ...]
    trump: int | None
    must_trump: bool
    leader: int
    played: tuple[int, ...]
    declarer_side: tuple[bool, ...]
    maximize: bool
    talon_leads: tuple[int, ...] = ()
    talon_must_beat: bool = False

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.played)) % self.seats

    @property
    def tricks_left(self) -> int:
        cards = sum(bin(h).count("1") for h in self.hands) + len(self.played)
        return cards // self.seats


@dataclass
class ReferenceSolver:
    """Exact minimax for one position family (same seats, suits and rules).

    The memo is kept between calls, so per-card values and the best line reuse
    the work of the first solve.
    """

    suit_masks: tuple[int, ...]
    trump: int | None
    must_trump: bool
    declarer_side: tuple[bool, ...]
    maximize: bool
    talon_leads: tuple[int, ...] = ()
    talon_must_beat: bool = False
    nodes: int = 0
    memo: dict = field(default_factory=dict)

    @classmethod
    def for_position(cls, position: ReferencePosition) -> ReferenceSolver:
        return cls(
            suit_masks=tuple(position.suit_masks),
            trump=position.trump,
            must_trump=position.must_trump,
            declarer_side=tuple(position.declarer_side),
            maximize=position.maximize,
            talon_leads=tuple(getattr(position, "talon_leads", ())),
            talon_must_beat=getattr(position, "talon_must_beat", False),
        )

    # -- rules ---------------------------------------------------------------

    def suit_of(self, card: int) -> int:
        bit = 1 << card
        for suit, mask in enumerate(self.suit_masks):
            if mask & bit:
                return suit
        raise ValueError(f"card {card} is in no suit")

    def legal_moves(self, hand: int, played: Sequence[int], talon_card: int | None = None) -> int:
        """The cards of ``hand`` that may be played to the current trick."""
        if talon_card is not None:  # a talon trick: follow the talon card's suit, else anything
            follow = hand & self.suit_masks[self.suit_of(talon_card)]
            return follow or hand
        if not played:
            return hand
        follow = hand & self.suit_masks[self.suit_of(played[0])]
        if follow:
            return follow
        if self.must_trump and self.trump is not None:
            trumps = hand & self.suit_masks[self.trump]
            if trumps:
                return trumps
        return hand

    def trick_winner(self, leader: int, played: Sequence[int],
                     talon_card: int | None = None) -> int | None:
        """The seat that wins a complete trick led by ``leader`` (None: nobody, talon trick)."""
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
                suit == self.trump and best_suit != self.trump
            )
            if beats:
                best, best_suit = i, suit
        return (leader + best) % len(played)

    def _talon_card(self, talon: int) -> int | None:
        return self.talon_leads[talon] if talon < len(self.talon_leads) else None

    # -- search --------------------------------------------------------------

    def solve(self, position: ReferencePosition) -> int:
        """Declarer's side's tricks from ``position`` with best play by all."""
        self._check(position)
        return self._value(tuple(position.hands), position.leader, tuple(position.played), 0)

    def card_values(self, position: ReferencePosition) -> dict[int, int]:
        """For each legal card of the player to move, the value after it is played."""
        self._check(position)
        seat = position.to_move
        hands = list(position.hands)
        values = {}
        legal = self.legal_moves(hands[seat], position.played, self._talon_card(0))
        for card in iter_bits(legal):
            child = list(hands)
            child[seat] &= ~(1 << card)
            values[card] = self._value(tuple(child), position.leader, position.played + (card,), 0)
        return values

    def best_line(self, position: ReferencePosition) -> list[int]:
        """One optimal play to the end: at each turn the first card keeping the value."""
        self._check(position)
        hands = list(position.hands)
        leader, played, talon = position.leader, tuple(position.played), 0
        target = self.solve(position)
        line: list[int] = []
        while any(hands) or played:
            seat = (leader + len(played)) % len(hands)
            talon_card = self._talon_card(talon)
            for card in iter_bits(self.legal_moves(hands[seat], played, talon_card)):
                child = list(hands)
                child[seat] &= ~(1 << card)
                if self._value(tuple(child), leader, played + (card,), talon) == target:
                    break
            else:  # pragma: no cover - the value is always kept by some card
                raise AssertionError("no card keeps the minimax value")
            line.append(card)
            hands = child
            played += (card,)
            if len(played) == len(hands):
                winner = self.trick_winner(leader, played, talon_card)
                if winner is not None:
                    target -= int(self.declarer_side[winner])
                if talon_card is None:
                    leader = winner
                else:
                    talon += 1
                played = ()
        return line

    def fits(self, position: ReferencePosition) -> bool:
        """True if ``position`` plays by this solver's rules (so its memo applies)."""
        return (
            tuple(position.suit_masks) == self.suit_masks
            and position.trump == self.trump
            and position.must_trump == self.must_trump
            and tuple(position.declarer_side) == self.declarer_side
            and position.maximize == self.maximize
            and tuple(getattr(position, "talon_leads", ())) == self.talon_leads
            and getattr(position, "talon_must_beat", False) == self.talon_must_beat
        )

    def _check(self, position: ReferencePosition) -> None:
        if not self.fits(position):
            raise ValueError("position does not belong to this solver's rules")

    def _value(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...],
               talon: int) -> int:
        cards = sum(bin(h).count("1") for h in hands) + len(played)
        hi = -(-cards // len(hands))
        return self._search(hands, leader, played, talon, -1, hi + 1)

    def _search(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...],
                talon: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta; the value counts the declarer side's tricks."""
        self.nodes += 1
        seats = len(hands)
        talon_card = self._talon_card(talon)
        if len(played) == seats:
            winner = self.trick_winner(leader, played, talon_card)
            gain = 0 if winner is None else int(self.declarer_side[winner])
            if not any(hands):
                return gain
            if talon_card is None:
                leader = winner
            else:  # after a talon trick the same player leads (or plays first) again
                talon += 1
            return gain + self._search(hands, leader, (), talon, alpha - gain, beta - gain)

        key = None
        if not played:
            key = (hands, leader, talon)
            lower, upper = self.memo.get(key, (0, bin(hands[0]).count("1")))
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
        legal = list(iter_bits(self.legal_moves(hands[seat], played, talon_card)))
        # Order only speeds the cut-offs; every card is still tried if needed.
        # Highest first for the side that wants tricks, lowest first for the other.
        if wants_more:
            legal.reverse()
        for card in legal:
            child = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
            value = self._search(child, leader, played + (card,), talon, alpha, beta)
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
            bounds = self.memo.get(key, (0, bin(hands[0]).count("1")))
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


def reference_tricks(position: ReferencePosition) -> int:
    """Solve one position from scratch with the reference solver."""
    return ReferenceSolver.for_position(position).solve(position)


def self_interested_play(position: ReferencePosition, rostov: bool = False,
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
    rules = ReferenceSolver.for_position(position)
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
        talon_card = rules._talon_card(talon)
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
