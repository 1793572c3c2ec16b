"""The reference minimax with card points and declarations (marriages), against a brute force.

The brute force below is written from the rules alone (docs/rules.md, Thousand: a trick is worth
its card points; a player on lead who holds K+Q of a suit may lead either one declaring it, his
side scores the marriage and that suit is trump from then on; not on the very first lead), with
no memo and no pruning, independent of ``pyanalyzer.model.play`` on purpose.
"""

from __future__ import annotations

import random

import pytest

from pyanalyzer.engines.reference import ReferenceSolver
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import DECLARE, Position

SUIT_SIZE = 4
SUITS = 3


def suit(card: int) -> int:
    return card // SUIT_SIZE


def brute_force(hands, leader, played, trump, may_declare, points, marriages, side, maximize) -> int:
    """The declarer side's total with best play by all: every move tried, nothing remembered."""
    seats = len(hands)
    if len(played) == seats:
        best = 0
        for i in range(1, seats):
            card, top = played[i], played[best]
            if (suit(card) == suit(top) and card > top) or (suit(card) == trump and suit(top) != trump):
                best = i
        winner = (leader + best) % seats
        gain = sum(points[c] for c in played) if side[winner] else 0
        if not any(hands):
            return gain
        return gain + brute_force(hands, winner, (), trump, True, points, marriages, side, maximize)
    seat = (leader + len(played)) % seats
    cards = [c for c in range(SUIT_SIZE * SUITS) if hands[seat] >> c & 1]
    if played:
        follow = [c for c in cards if suit(c) == suit(played[0])]
        trumps = [c for c in cards if trump is not None and suit(c) == trump]
        cards = follow or trumps or cards
    options = [(card, trump, 0) for card in cards]
    if not played and may_declare:
        for king, queen, score in marriages:
            if hands[seat] >> king & 1 and hands[seat] >> queen & 1:
                options += [(king, suit(king), score), (queen, suit(king), score)]
    wants_more = side[seat] == maximize
    values = []
    for card, new_trump, score in options:
        child = list(hands)
        child[seat] &= ~(1 << card)
        gain = score if side[seat] else 0
        values.append(gain + brute_force(tuple(child), leader, played + (card,), new_trump, may_declare,
                                         points, marriages, side, maximize))
    return max(values) if wants_more else min(values)


def random_position(rng: random.Random, tricks: int) -> Position:
    deck = list(range(SUIT_SIZE * SUITS))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * tricks:(i + 1) * tricks]) for i in range(3)]
    leader = rng.randrange(3)
    played: list[int] = []
    for k in range(rng.randrange(3) if tricks > 1 else 0):
        seat = (leader + k) % 3
        card = rng.choice([c for c in range(12) if hands[seat] >> c & 1])
        hands[seat] &= ~(1 << card)
        played.append(card)
    points = tuple(rng.choice((0, 0, 2, 3, 4, 10, 11)) for _ in range(12))
    # The top two cards of each suit are its king and queen here (the numbering is the rank order).
    marriages = tuple((s * SUIT_SIZE + 3, s * SUIT_SIZE + 2, rng.choice((40, 60, 80, 100)))
                      for s in range(SUITS) if rng.random() < 0.7)
    side = [False] * 3
    side[rng.randrange(3)] = True
    return Position(hands=tuple(hands), suit_masks=tuple(0b1111 << (4 * s) for s in range(SUITS)),
                    trump=rng.choice((None, 0, 1, 2)), must_trump=True, leader=leader,
                    played=tuple(played), declarer_side=tuple(side), maximize=rng.random() < 0.7,
                    card_points=points, marriages=marriages, leader_may_declare=rng.random() < 0.5,
                    heuristics="plain")


def brute_value(position: Position) -> int:
    return brute_force(position.hands, position.leader, position.played, position.trump,
                       position.leader_may_declare, position.card_points, position.marriages,
                       position.declarer_side, position.maximize)


@pytest.mark.parametrize("tricks", [1, 2, 3])
def test_reference_equals_brute_force_with_points_and_marriages(tricks):
    rng = random.Random(1700 + tricks)
    for _ in range(150 if tricks < 3 else 60):
        position = random_position(rng, tricks)
        assert ReferenceSolver.for_position(position).solve(position) == brute_value(position), position


def test_move_values_and_best_line_keep_the_value():
    rng = random.Random(17)
    declaring = 0
    for _ in range(80):
        position = random_position(rng, 3)
        solver = ReferenceSolver.for_position(position)
        value = solver.solve(position)
        moves = solver.card_values(position)
        seat = position.to_move
        wants_more = position.declarer_side[seat] == position.maximize
        assert (max if wants_more else min)(moves.values()) == value
        declaring += sum(1 for move in moves if move & DECLARE)
        line = solver.best_line(position)
        assert len(line) == sum(bin(h).count("1") for h in position.hands)
    assert declaring > 0  # the sample does exercise declarations


def test_a_declaration_scores_and_changes_the_trump():
    """South leads a heart of his marriage declaring it: he scores 100 on top of the tricks."""
    # Suits: 0 spades (cards 0-3), 1 hearts (4-7); rank = number; king 7, queen 6 of hearts.
    south = 1 << 6 | 1 << 7
    west = 1 << 3 | 1 << 2
    position = Position(hands=(south, west), suit_masks=(0b1111, 0b1111 << 4), trump=None,
                        must_trump=True, leader=0, played=(), declarer_side=(True, False),
                        maximize=True, card_points=(0, 0, 3, 11, 0, 0, 3, 4),
                        marriages=((7, 6, 100),), leader_may_declare=True, heuristics="plain")
    solver = ReferenceSolver.for_position(position)
    values = solver.card_values(position)
    # Without declaring, West discards his spades on South's hearts: South takes 3+3 and 4+11.
    assert values[6] == values[7] == 3 + 3 + 4 + 11
    assert values[6 | DECLARE] == values[7 | DECLARE] == 100 + 3 + 3 + 4 + 11
    assert TrickRules.of(position).declaration(6 | DECLARE) == (1, 100)
    # On the very first lead no declaration is offered.
    first = Position(**{**position.__dict__, "leader_may_declare": False})
    assert not any(move & DECLARE for move in solver.card_values(first))
