"""The reference minimax with card points and declarations (marriages), against a brute force.

The brute force below is written from the rules alone (docs/rules.md, Thousand: a trick is worth
its card points; a player on lead who holds K+Q of a suit may lead either one declaring it, his
side scores the marriage and that suit is trump from then on; with the ace marriage, a player
holding the four aces may lead any of them declaring it, 200, and the suit of the ace led is
trump; not on the very first lead), with no memo and no pruning, independent of
``pyanalyzer.model.play`` on purpose.
"""

from __future__ import annotations

import random

import pytest
from positions import ace_marriage_ending, heart_marriage_ending

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
        for mask, score in marriages:
            cards_of_mask = [c for c in range(SUIT_SIZE * SUITS) if mask >> c & 1]
            if all(hands[seat] >> c & 1 for c in cards_of_mask):
                options += [(c, suit(c), score) for c in cards_of_mask]
    wants_more = side[seat] == maximize
    values = []
    for card, new_trump, score in options:
        child = list(hands)
        child[seat] &= ~(1 << card)
        gain = score if side[seat] else 0
        values.append(gain + brute_force(tuple(child), leader, played + (card,), new_trump, may_declare,
                                         points, marriages, side, maximize))
    return max(values) if wants_more else min(values)


ACES = tuple(s * SUIT_SIZE + 3 for s in range(SUITS))


def random_position(rng: random.Random, tricks: int) -> Position:
    deck = list(range(SUIT_SIZE * SUITS))
    rng.shuffle(deck)
    leader = rng.randrange(3)
    ace_marriage = rng.random() < 0.33
    if ace_marriage and tricks >= SUITS and rng.random() < 0.6:
        # the aces rarely meet in one short hand by chance: put them into the leader's
        rest = [c for c in deck if c not in ACES]
        deck = rest[:leader * tricks] + list(ACES) + rest[leader * tricks:]
    hands = [sum(1 << c for c in deck[i * tricks:(i + 1) * tricks]) for i in range(3)]
    played: list[int] = []
    for k in range(rng.randrange(3) if tricks > 1 else 0):
        seat = (leader + k) % 3
        card = rng.choice([c for c in range(12) if hands[seat] >> c & 1])
        hands[seat] &= ~(1 << card)
        played.append(card)
    points = tuple(rng.choice((0, 0, 2, 3, 4, 10, 11)) for _ in range(12))
    # The second and third cards of each suit are its king and queen here (the numbering is the
    # rank order), the top card its ace; the ace marriage (every ace, 200) a third of the time.
    marriages = tuple((1 << (s * SUIT_SIZE + 2) | 1 << (s * SUIT_SIZE + 1), rng.choice((40, 60, 80, 100)))
                      for s in range(SUITS) if rng.random() < 0.7)
    if ace_marriage:
        marriages += (sum(1 << ace for ace in ACES), 200),
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
    declaring = aces_declaring = 0
    for _ in range(80):
        position = random_position(rng, 3)
        solver = ReferenceSolver.for_position(position)
        value = solver.solve(position)
        moves = solver.card_values(position)
        seat = position.to_move
        wants_more = position.declarer_side[seat] == position.maximize
        assert (max if wants_more else min)(moves.values()) == value
        declaring += sum(1 for move in moves if move & DECLARE)
        aces_declaring += sum(1 for move in moves if move & DECLARE and move & ~DECLARE in ACES)
        line = solver.best_line(position)
        assert len(line) == sum(bin(h).count("1") for h in position.hands)
    assert declaring > aces_declaring > 0  # the sample does exercise declarations of both kinds


def test_a_declaration_scores_and_changes_the_trump():
    """South leads a heart of his marriage declaring it: he scores 100 on top of the tricks."""
    position = heart_marriage_ending()
    solver = ReferenceSolver.for_position(position)
    values = solver.card_values(position)
    # Without declaring, West discards his spades on South's hearts: South takes 3+3 and 4+11.
    assert values[6] == values[7] == 3 + 3 + 4 + 11
    assert values[6 | DECLARE] == values[7 | DECLARE] == 100 + 3 + 3 + 4 + 11
    assert TrickRules.of(position).declaration(6 | DECLARE) == (1, 100)
    # On the very first lead no declaration is offered.
    first = Position(**{**position.__dict__, "leader_may_declare": False})
    assert not any(move & DECLARE for move in solver.card_values(first))


def test_the_ace_marriage_makes_the_suit_of_the_ace_led_trump():
    """South holds both aces (the ace marriage of this two-suit deck, 200) and a low spade; West
    three hearts, the king among them. Values worked by hand: declaring with the ace of spades
    makes spades trump and South takes every trick (200 + 11 + 11 + 4); declaring with the ace
    of hearts makes hearts trump, West ruffs the ace of spades and takes the rest (200 + 11);
    leading an ace without declaring breaks the set: South takes every trick, no trump (26);
    leading the low spade first, he wins it and declares with the ace of spades next (226)."""
    position = ace_marriage_ending()
    south, west = position.hands
    expected = {0: 226, 3: 26, 7: 26, 3 | DECLARE: 226, 7 | DECLARE: 211}
    assert ReferenceSolver.for_position(position).card_values(position) == expected
    for move, value in expected.items():
        rules = TrickRules.of(position)
        if move & DECLARE:
            assert rules.declaration(move) == ((move & ~DECLARE) // SUIT_SIZE, 200)
        after = Position(**{**position.__dict__, "hands": (south & ~(1 << (move & ~DECLARE)), west),
                            "played": (move & ~DECLARE,),
                            "trump": rules.declaration(move)[0] if move & DECLARE else None})
        gain = 200 if move & DECLARE else 0
        assert gain + brute_value(after) == value
