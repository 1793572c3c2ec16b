"""The fast engine generic over value and state: card points, marriages, the trump in the
position, declared heuristics.

The oracle is the reference minimax (``pyanalyzer.engines.reference``), which plays the same position
(``pyanalyzer.model.position.Position``) by the one Python copy of the rules
(``pyanalyzer.model.play``). Trick games (Preferans, Whist) are covered by the other engine tests.
"""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest
from positions import THOUSAND_ACES, ace_marriage_ending, heart_marriage_ending, random_thousand
from pref_engine import DECLARE, Engine

from pyanalyzer.engines.reference import ReferenceSolver
from pyanalyzer.model import position as model_position
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position

# Thousand's card points, highest rank first (A 11, 10 10, K 4, Q 3, J 2, 9 0: docs/rules.md).
THOUSAND_POINTS = (11, 10, 4, 3, 2, 0)


def suit_masks(suits: int, per_suit: int) -> tuple[int, ...]:
    """Cards numbered rank * suits + suit (suits interleaved, so the engine must renumber)."""
    return tuple(sum(1 << (rank * suits + s) for rank in range(per_suit)) for s in range(suits))


def play(position: Position, move: int) -> tuple[Position, int]:
    """The position after ``move`` and what it scored for the declarer's side, by the model's rules."""
    rules = TrickRules.of(position)
    seat = position.to_move
    card = move & ~DECLARE
    hands = list(position.hands)
    hands[seat] &= ~(1 << card)
    trump, gain = position.trump, 0
    declared = rules.declaration(move)
    if declared is not None:
        trump = declared[0]
        gain += declared[1] if position.declarer_side[seat] else 0
    played = position.played + (card,)
    leader, may_declare = position.leader, position.leader_may_declare
    if len(played) == position.seats:
        leader = rules.trick_winner(position.leader, played, trump=trump)
        gain += rules.trick_value(played) if position.declarer_side[leader] else 0
        played, may_declare = (), True
    return dataclasses.replace(position, hands=tuple(hands), trump=trump, leader=leader,
                               played=played, leader_may_declare=may_declare), gain


def give_aces(rng: random.Random, hands: list[int], seat: int, aces: list[int]) -> None:
    """Put every ace into the hand of ``seat`` (four aces rarely meet in a short hand by chance):
    each ace he lacks replaces one of his other cards, which takes the ace's place (another
    hand, or the undealt cards)."""
    for ace in aces:
        if hands[seat] >> ace & 1:
            continue
        others = [c for c in range(hands[seat].bit_length()) if hands[seat] >> c & 1 and c not in aces]
        card = rng.choice(others)
        for i, hand in enumerate(hands):
            if hand >> ace & 1:
                hands[i] = hand & ~(1 << ace) | 1 << card
        hands[seat] = hands[seat] & ~(1 << card) | 1 << ace


def random_position(rng: random.Random, seats: int = 3) -> Position:
    """A small deal with card points and (mostly) marriages; a trick in progress 40% of the time."""
    suits = rng.choice((2, 3, 4))
    per_suit = rng.choice((4, 5, 6))
    tricks = rng.choice((3, 4, 5))
    while suits * per_suit < seats * tricks:
        per_suit += 1
    masks = suit_masks(suits, per_suit)
    deck = rng.sample(range(suits * per_suit), seats * tricks)
    hands = [sum(1 << c for c in deck[i::seats]) for i in range(seats)]
    points = [0] * (suits * per_suit)
    for card in range(suits * per_suit):
        from_top = per_suit - 1 - card // suits
        points[card] = (THOUSAND_POINTS[from_top] if from_top < len(THOUSAND_POINTS)
                        and rng.random() < 0.8 else rng.choice((0, 0, 1, 5, 11)))
    # King and queen: the third and fourth card of a suit from the top, as in Thousand; the
    # ace marriage (the top card of every suit, 200) a third of the time.
    marriages = tuple((1 << ((per_suit - 3) * suits + s) | 1 << ((per_suit - 4) * suits + s),
                       rng.choice((40, 60, 80, 100)))
                      for s in range(suits) if rng.random() < 0.7)
    if rng.random() < 0.33:
        aces = [(per_suit - 1) * suits + s for s in range(suits)]
        marriages += (sum(1 << ace for ace in aces), 200),
        if rng.random() < 0.6 and tricks >= suits:
            give_aces(rng, hands, rng.randrange(seats), aces)
    side = [False] * seats
    side[rng.randrange(seats)] = True
    if seats == 4:
        side[(side.index(True) + 2) % 4] = True
    heuristics = rng.choice(("solo", "plain", "thousand")) if seats != 4 else \
        rng.choice(("partnership", "plain", "thousand"))
    position = Position(hands=tuple(hands), suit_masks=masks,
                        trump=rng.choice((None, *range(suits))), must_trump=rng.random() < 0.8,
                        leader=rng.randrange(seats), played=(), declarer_side=tuple(side),
                        maximize=rng.random() < 0.7, card_points=tuple(points),
                        marriages=marriages if rng.random() < 0.85 else (),
                        leader_may_declare=rng.random() < 0.5, heuristics=heuristics)
    if rng.random() < 0.4:
        for _ in range(rng.randrange(1, seats)):
            rules = TrickRules.of(position)
            seat = position.to_move
            moves = rules.moves(position.hands[seat], position.played, position.trump,
                                position.leader_may_declare)
            position, _gain = play(position, rng.choice(moves))
    return position


@pytest.mark.parametrize("seed", range(10))
def test_engine_agrees_with_the_reference_on_points_and_marriages(seed):
    """Values, per-move values (declaring leads included) and the null-window answers equal the
    reference minimax's; one engine is kept warm across the positions as in an analysis."""
    rng = random.Random(f"generic-{seed}")
    engine = Engine(tt_size_mb=1)
    declaring = above_15 = 0
    for _ in range(200):
        position = random_position(rng, seats=3 if rng.random() < 0.85 else rng.choice((2, 4)))
        solver = ReferenceSolver.for_position(position)
        value = solver.solve(position)
        assert engine.solve(position) == value, position
        moves = solver.card_values(position)
        assert engine.card_values(position) == moves, position
        assert engine.reaches(position, value) and not engine.reaches(position, value + 1)
        declaring += sum(1 for move in moves if move & DECLARE)
        above_15 += value > 15
    # the sample does exercise declarations and values beyond a 4-bit table bound (the ace
    # marriage's declarations: test_thousand_endings_agree_with_the_reference)
    assert declaring > 0 and above_15 > 0


def test_thousand_endings_agree_with_the_reference():
    """Thousand's deck, points and declarations (the ace marriage among them): endings of 4 and 5
    cards a hand (mid-trick too), engine = reference minimax (full deals: the Thousand tests)."""
    rng = random.Random("generic-thousand")
    engine = Engine(tt_size_mb=4)
    aces_declaring = 0
    for i in range(90):
        position = random_thousand(rng, 4 + i % 2)
        solver = ReferenceSolver.for_position(position)
        moves = solver.card_values(position)
        assert engine.card_values(position) == moves, position
        aces_declaring += sum(1 for move in moves if move & DECLARE and THOUSAND_ACES[0] >> (move & ~DECLARE) & 1)
    assert aces_declaring > 0


def test_best_line_keeps_the_value():
    """Played out by the model's rules, the engine's line scores exactly the value."""
    rng = random.Random("generic-line")
    engine = Engine(tt_size_mb=1)
    declared = 0
    for _ in range(120):
        position = random_position(rng)
        value = engine.solve(position)
        total = 0
        for move in engine.best_line(position):
            declared += bool(move & DECLARE)
            rules = TrickRules.of(position)
            legal = rules.moves(position.hands[position.to_move], position.played, position.trump,
                                position.leader_may_declare)
            assert move in legal
            position, gain = play(position, move)
            total += gain
        assert not any(position.hands) and total == value
    assert declared > 0


def test_any_first_guess_and_a_batch_give_the_reference_values():
    """The bisection between proven bounds finds the value from any first guess; a batch of
    layouts (the defenders' cards redistributed) gives each layout's value."""
    rng = random.Random("generic-guess")
    engine = Engine(tt_size_mb=1)
    for _ in range(40):
        position = random_position(rng)
        value = ReferenceSolver.for_position(position).solve(position)
        for guess in (0, 1, value, value + 1, 500):
            engine.clear()
            assert engine.solve(position, first_guess=guess) == value
        swapped = list(position.hands)  # (a trick in progress too: its cards stay)
        one, two = rng.sample([1, 2], 2)
        a = swapped[one] & -swapped[one]
        b = swapped[two] & -swapped[two]
        swapped[one] ^= a | b
        swapped[two] ^= a | b
        other = dataclasses.replace(position, hands=tuple(swapped))
        splits = [(position.hands[1], position.hands[2]), (other.hands[1], other.hands[2])]
        expected = [value, ReferenceSolver.for_position(other).solve(other)]
        assert engine.solve_batch(position, (1, 2), (0, 0), splits) == expected


def test_a_declaring_lead_scores_and_turns_the_trump():
    """South leads a heart of his marriage declaring it: 100 on top of the tricks (the values
    worked by hand: without declaring West discards his spades, South takes 3+3 and 4+11)."""
    position = heart_marriage_ending()
    values = Engine(tt_size_mb=1).card_values(position)
    assert values == {6: 21, 7: 21, 6 | DECLARE: 121, 7 | DECLARE: 121}
    first_lead = dataclasses.replace(position, leader_may_declare=False)
    assert Engine(tt_size_mb=1).card_values(first_lead) == {6: 21, 7: 21}


def test_the_ace_marriage_turns_the_trump_to_the_suit_of_the_ace_led():
    """The worked example of test_points_and_declarations (values worked by hand there): South
    holds both aces of a two-suit deck (200) and a low spade, West three hearts with the king."""
    position = ace_marriage_ending()
    values = Engine(tt_size_mb=1).card_values(position)
    assert values == {0: 226, 3: 26, 7: 26, 3 | DECLARE: 226, 7 | DECLARE: 211}


def test_declarations_are_checked():
    position = random_position(random.Random("generic-declarations"))
    masks = position.suit_masks
    lowest = masks[0] & -masks[0]
    low_two = lowest | (masks[0] ^ lowest) & -(masks[0] ^ lowest)   # the two lowest cards of suit 0
    with pytest.raises(ValueError, match="two declarations"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, marriages=((low_two, 40), (masks[0], 200))))
    with pytest.raises(ValueError, match="at least two cards"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, marriages=((masks[0] & -masks[0], 40),)))
    with pytest.raises(ValueError, match="cards_mask, points"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, marriages=((1, 2, 40),)))
    with pytest.raises(ValueError, match="no suit"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, marriages=((1 << 63 | 1 << 62, 40),)))


def test_the_trump_and_the_right_to_declare_are_part_of_the_table_key():
    """With marriages the table is kept across positions of another trump (or right to
    declare): their entries must not answer for each other."""
    rng = random.Random("generic-key")
    engine = Engine(tt_size_mb=1)
    differing = 0
    for _ in range(150):
        position = random_position(rng)
        if not position.marriages or position.played:
            continue
        suits = len(position.suit_masks)
        others = [dataclasses.replace(position, trump=t) for t in (None, *range(suits))]
        others.append(dataclasses.replace(position, leader_may_declare=not position.leader_may_declare))
        values = set()
        for other in [position, *others]:
            value = ReferenceSolver.for_position(other).solve(other)
            values.add(value)
            assert engine.solve(other) == value, other
        differing += len(values) > 1
    assert differing > 10


def test_points_need_an_absolute_key_small_deck_only_and_no_talon():
    rng = random.Random("generic-refuse")
    position = random_position(rng)
    big = dataclasses.replace(position, suit_masks=suit_masks(4, 9), card_points=(1,) * 36,
                              marriages=())
    with pytest.raises(ValueError, match="at most 32 cards"):
        Engine(tt_size_mb=1).solve(big)
    with pytest.raises(ValueError, match="talon"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, played=(),
                                                       talon_leads=(0,)))
    with pytest.raises(ValueError, match="counts tricks"):
        Engine(tt_size_mb=1).self_interested(position)


def test_declare_flag_is_the_models():
    assert DECLARE == model_position.DECLARE == 64


# -- declared heuristics ------------------------------------------------------------------

def preferans_ending(rng: random.Random, tricks: int = 7) -> Position:
    deck = rng.sample(range(32), 3 * tricks)
    return Position(hands=tuple(sum(1 << c for c in deck[i::3]) for i in range(3)),
                    suit_masks=tuple(0xFF << (8 * s) for s in range(4)),
                    trump=rng.choice((None, 0)), must_trump=True, leader=rng.randrange(3),
                    played=(), declarer_side=(True, False, False), maximize=rng.random() < 0.7)


def whist_ending(rng: random.Random, tricks: int = 6) -> Position:
    deck = rng.sample(range(52), 4 * tricks)
    return Position(hands=tuple(sum(1 << c for c in deck[i::4]) for i in range(4)),
                    suit_masks=tuple(0x1FFF << (13 * s) for s in range(4)),
                    trump=rng.choice((None, 1)), must_trump=False, leader=rng.randrange(4),
                    played=(), declarer_side=(True, False, True, False), maximize=True,
                    heuristics="partnership")


def test_declared_heuristics_change_the_search_not_the_value():
    """'plain' drops the Preferans-tuned ordering: the same values (the reference's), another
    search (node counts differ on some ending)."""
    rng = random.Random("generic-heuristics")
    differing = 0
    for _ in range(12):
        position = preferans_ending(rng, tricks=5)
        value = ReferenceSolver.for_position(position).solve(position)
        nodes = {}
        for heuristics in ("solo", "plain"):
            engine = Engine(tt_size_mb=1)
            assert engine.solve(dataclasses.replace(position, heuristics=heuristics)) == value
            nodes[heuristics] = engine.stats["nodes"]
        differing += nodes["solo"] != nodes["plain"]
    assert differing > 0


def test_partnership_is_declared_not_inferred_from_four_seats():
    """Four seats get the Whist search (its winning-rank table) only when the position declares
    'partnership'; a position that declares nothing is refused rather than guessed from its seats."""
    rng = random.Random("generic-whist")
    position = whist_ending(rng)
    value = ReferenceSolver.for_position(position).solve(position)
    sizes = {}
    for heuristics in ("partnership", "solo", "plain"):
        engine = Engine(tt_size_mb=1)
        assert engine.solve(dataclasses.replace(position, heuristics=heuristics)) == value
        sizes[heuristics] = engine.tt_bytes
    assert sizes["partnership"] > sizes["solo"] == sizes["plain"]
    old_caller = SimpleNamespace(**{k: v for k, v in dataclasses.asdict(position).items()
                                    if k != "heuristics"})
    with pytest.raises(ValueError, match="must declare its heuristics"):
        Engine(tt_size_mb=1).solve(old_caller)


def test_heuristics_are_checked():
    rng = random.Random("generic-check")
    position = preferans_ending(rng)
    with pytest.raises(ValueError, match="four seats"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, heuristics="partnership"))
    with pytest.raises(ValueError, match="heuristics"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, heuristics="bridge"))
    with pytest.raises(ValueError, match="need card points"):
        Engine(tt_size_mb=1).solve(dataclasses.replace(position, heuristics="thousand"))


def test_thousand_heuristics_change_the_search_not_the_value():
    """'thousand' orders by card points and puts the declarer's declarations first: the
    reference's values, fewer nodes in all than 'plain' on these deals (benchmarks/RESULTS.md
    has the measured figures)."""
    rng = random.Random("generic-thousand-heuristics")
    nodes = {"plain": 0, "thousand": 0}
    for _ in range(6):
        position = random_thousand(rng, 6, mid_trick=False)
        value = ReferenceSolver.for_position(position).solve(position)
        for heuristics in nodes:
            engine = Engine(tt_size_mb=4)
            assert engine.solve(dataclasses.replace(position, heuristics=heuristics)) == value
            nodes[heuristics] += engine.stats["nodes"]
    assert nodes["thousand"] != nodes["plain"]
