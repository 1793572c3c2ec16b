"""An independent brute force for Thousand card play, the oracle of ``test_thousand_oracle.py``.

Written for the tests from the rules (docs/rules.md, "Thousand"; issue 18) and sharing no
code with the project's rules (``pyanalyzer.model.play``, the reference minimax, the
engine): its own cards, its own moves, its own trick winner, and a plain minimax that
looks at every move (no pruning, a memo of exact values only).

The rules, as written here:

* three seats play in turn (seat ``i + 1`` after seat ``i``); ranks 9 J Q K T A, lowest
  first; card points A 11, T 10, K 4, Q 3, J 2, 9 0;
* follow suit; if void, trump when holding one; else any card. The highest trump wins
  the trick, else the highest card of the suit led; the winner leads the next trick;
* a leader who *may declare* (he has won a trick in this deal, or the option
  ``on_first_lead`` lets anyone declare) and holds the king and queen of a suit with a
  marriage value may lead either of them declaring: the declaring side scores the value
  and that suit is trump from this trick on (this trick included); with the ace marriage
  (``ace_marriage`` points, 0 = off) he may lead any ace declaring while holding all four:
  that ace's suit becomes trump;
* the value of an ending is the declarer's points from it on: the card points of the
  tricks he takes (the current trick included) plus the marriages he declares; the
  declarer maximises, the two others minimise.

>>> ending = Ending(hands=(hand("Ks Qs"), hand("As 9h"), hand("Th Jh")), leader=0,
...                 won=frozenset({0}), marriages=((0, 40),))
>>> sorted((str(move), value) for move, value in move_values(ending).items())
[('Ks', 0), ('Ks+', 45), ('Qs', 0), ('Qs+', 46)]

(Qs+: 40; West's ace takes the trick, East throws his ten under it; South trumps the 9h
with the Ks and East's last heart falls: 0 + 4 + 2. Ks+ keeps the queen: a point less.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

RANKS = "9JQKTA"
SUITS = "scdh"
POINTS_OF_RANK = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
QUEEN, KING, ACE = RANKS.index("Q"), RANKS.index("K"), RANKS.index("A")
SEATS = 3


class Card(NamedTuple):
    suit: int   # index into SUITS
    rank: int   # index into RANKS: a higher index is a higher card

    @property
    def points(self) -> int:
        return POINTS_OF_RANK[RANKS[self.rank]]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]


class Move(NamedTuple):
    card: Card
    declare: bool = False

    def __str__(self) -> str:
        return f"{self.card}{'+' if self.declare else ''}"


def card(text: str) -> Card:
    """``card("Th")``: a card from its rank and suit letters."""
    return Card(SUITS.index(text[1]), RANKS.index(text[0]))


def hand(text: str) -> frozenset[Card]:
    """``hand("Ks Qs 9h")``: a hand from space separated cards."""
    return frozenset(card(word) for word in text.split())


DECK = tuple(Card(suit, rank) for suit in range(len(SUITS)) for rank in range(len(RANKS)))


@dataclass(frozen=True)
class Ending:
    """A Thousand position: the hands (seats in play order), the leader of the current trick
    and its cards so far, the trump now (a suit index or None), the seats that have won a
    trick in this deal, the declarer, the marriages that may be declared (``(suit, points)``),
    the ace marriage's points (0: not played) and whether declaring needs no trick won."""

    hands: tuple[frozenset[Card], ...]
    leader: int
    trick: tuple[Card, ...] = ()
    trump: int | None = None
    won: frozenset[int] = frozenset()
    declarer: int = 0
    marriages: tuple[tuple[int, int], ...] = ()
    ace_marriage: int = 0
    on_first_lead: bool = False


class _State(NamedTuple):
    """What changes during play (the memo key)."""

    hands: tuple[frozenset[Card], ...]
    leader: int
    trick: tuple[Card, ...]
    trump: int | None
    won: frozenset[int]


class BruteForce:
    """Plain minimax over every move of one ending's rules, with a memo of exact values."""

    def __init__(self, ending: Ending):
        self.declarer = ending.declarer
        self.marriage_points = dict(ending.marriages)
        self.ace_marriage = ending.ace_marriage
        self.on_first_lead = ending.on_first_lead
        self.memo: dict[_State, int] = {}

    # -- the rules -------------------------------------------------------------------------

    def moves(self, state: _State) -> list[Move]:
        seat = (state.leader + len(state.trick)) % SEATS
        cards = state.hands[seat]
        if not state.trick:
            moves = [Move(c) for c in cards]
            if state.leader in state.won or self.on_first_lead:
                moves += [Move(c, True) for c in self.declarable(cards)]
            return moves
        led = state.trick[0].suit
        followers = [c for c in cards if c.suit == led]
        if followers:
            return [Move(c) for c in followers]
        trumps = [c for c in cards if c.suit == state.trump]
        return [Move(c) for c in (trumps or cards)]

    def declarable(self, cards: frozenset[Card]) -> Iterable[Card]:
        """The cards of ``cards`` that may be led declaring."""
        for suit, _points in self.marriage_points.items():
            king, queen = Card(suit, KING), Card(suit, QUEEN)
            if king in cards and queen in cards:
                yield king
                yield queen
        aces = [Card(suit, ACE) for suit in range(len(SUITS))]
        if self.ace_marriage and all(ace in cards for ace in aces):
            yield from aces

    def declared_points(self, led: Card) -> int:
        return self.ace_marriage if led.rank == ACE else self.marriage_points[led.suit]

    def winner(self, leader: int, trick: tuple[Card, ...], trump: int | None) -> int:
        trumps = [c for c in trick if c.suit == trump]
        candidates = trumps or [c for c in trick if c.suit == trick[0].suit]
        best = max(candidates, key=lambda c: c.rank)
        return (leader + trick.index(best)) % SEATS

    def play(self, state: _State, move: Move) -> tuple[_State, int]:
        """The state after ``move`` and the points it scored for the declarer."""
        seat = (state.leader + len(state.trick)) % SEATS
        hands = list(state.hands)
        hands[seat] = hands[seat] - {move.card}
        hands = tuple(hands)
        trump, gain = state.trump, 0
        if move.declare:
            trump = move.card.suit
            if seat == self.declarer:
                gain += self.declared_points(move.card)
        trick = state.trick + (move.card,)
        if len(trick) < SEATS:
            return _State(hands, state.leader, trick, trump, state.won), gain
        winner = self.winner(state.leader, trick, trump)
        if winner == self.declarer:
            gain += sum(c.points for c in trick)
        return _State(hands, winner, (), trump, state.won | {winner}), gain

    # -- the search --------------------------------------------------------------------------

    def value(self, state: _State) -> int:
        known = self.memo.get(state)
        if known is not None:
            return known
        if not state.trick and not any(state.hands):
            return 0
        seat = (state.leader + len(state.trick)) % SEATS
        outcomes = []
        for move in self.moves(state):
            child, gain = self.play(state, move)
            outcomes.append(gain + self.value(child))
        result = max(outcomes) if seat == self.declarer else min(outcomes)
        self.memo[state] = result
        return result


def _state(ending: Ending) -> _State:
    return _State(tuple(ending.hands), ending.leader, tuple(ending.trick), ending.trump,
                  frozenset(ending.won))


def check(ending: Ending) -> None:
    """Refuse an ending the brute force cannot mean: a card twice, hands of the wrong sizes."""
    cards = [c for h in ending.hands for c in h] + list(ending.trick)
    if len(cards) != len(set(cards)):
        raise ValueError("a card is in two places")
    sizes = [len(h) + (1 if (i - ending.leader) % SEATS < len(ending.trick) else 0)
             for i, h in enumerate(ending.hands)]
    if len(set(sizes)) != 1 or len(ending.trick) >= SEATS:
        raise ValueError(f"hands of sizes {sizes} with {len(ending.trick)} card(s) in the trick")


def solve(ending: Ending) -> int:
    """The declarer's points from ``ending`` on with best play by all."""
    check(ending)
    return BruteForce(ending).value(_state(ending))


def move_values(ending: Ending) -> dict[Move, int]:
    """Each legal move of the seat to move and the value after it (points it scores included)."""
    return analyse(ending)[1]


def analyse(ending: Ending) -> tuple[int, dict[Move, int]]:
    """The value and each legal move's value, from one search."""
    check(ending)
    brute = BruteForce(ending)
    state = _state(ending)
    values = {}
    for move in brute.moves(state):
        child, gain = brute.play(state, move)
        values[move] = gain + brute.value(child)
    return brute.value(state), values


def legal_moves(ending: Ending) -> list[Move]:
    return BruteForce(ending).moves(_state(ending))


def after(ending: Ending, move: Move) -> tuple[Ending, int]:
    """The ending after ``move`` (which must be legal) and the points it scored for the declarer."""
    brute = BruteForce(ending)
    state = _state(ending)
    if move not in brute.moves(state):
        raise ValueError(f"{move} is not a legal move")
    child, gain = brute.play(state, move)
    return replace(ending, hands=child.hands, leader=child.leader, trick=child.trick,
                   trump=child.trump, won=child.won), gain
