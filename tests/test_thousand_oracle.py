"""Thousand card play checked against an independent brute force (issue 18, "Correctness").

The oracle is ``tests/thousand_brute_force.py``: written from the rules for these tests,
sharing no rules code with the project. Its own semantics are pinned first by endings
worked by hand (below). Then:

* random endings of 2-5 cards a hand (random trump or none, random ``won`` sets, marriages
  and sometimes the ace marriage and declaring on the first lead, a few cards of the
  current trick already played): the fast engine (``pref_engine``) and the reference
  minimax (``pyanalyzer.engines.reference``) give the brute force's value and each legal
  move's value, declaring leads included;
* full 8-card deals: the engine equals the reference minimax (a few in CI, 100 in the
  ``slow`` test: the reference takes seconds a deal);
* permuting the suits (the trump and the marriage values with them) changes none of the
  engine's values.

Cards become engine numbers ``suit * 6 + rank`` (suits s c d h, ranks 9 J Q K T A from 0);
:func:`thousand_position` is the one place a Position is built.
"""

from __future__ import annotations

import doctest
import random
from dataclasses import replace

import pytest
import thousand_brute_force as brute
from pref_engine import DECLARE, Engine
from thousand_brute_force import ACE, KING, QUEEN, Card, Ending, Move, card, hand

from pyanalyzer.analysis.solve import solve
from pyanalyzer.engines.reference import ReferenceSolver
from pyanalyzer.model.cards import THOUSAND
from pyanalyzer.model.layout import Layout, with_marriages
from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.model.move import Move as ModelMove
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import MarriageRules

SUIT_MASKS = tuple(0b111111 << (6 * suit) for suit in range(4))
CARD_POINTS = tuple(Card(number // 6, number % 6).points for number in range(24))
DEFAULT_MARRIAGES = ((0, 40), (1, 60), (2, 80), (3, 100))


def number(c: Card) -> int:
    return c.suit * 6 + c.rank


def move_number(move: Move) -> int:
    return number(move.card) | (DECLARE if move.declare else 0)


def mask(cards) -> int:
    return sum(1 << number(c) for c in cards)


def thousand_position(ending: Ending, heuristics: str = "thousand") -> Position:
    """The engine Position of an ending: the one place the tests spell the Position format.

    A marriage is ``(cards_mask, points)``: any card of the mask may be led declaring while
    the whole mask is held, the led card's suit becomes trump."""
    marriages = [(mask((Card(suit, KING), Card(suit, QUEEN))), points) for suit, points in ending.marriages]
    if ending.ace_marriage:
        marriages.append((mask(Card(suit, ACE) for suit in range(4)), ending.ace_marriage))
    return Position(hands=tuple(mask(h) for h in ending.hands), suit_masks=SUIT_MASKS, trump=ending.trump,
                    must_trump=True, leader=ending.leader, played=tuple(number(c) for c in ending.trick),
                    declarer_side=tuple(seat == ending.declarer for seat in range(3)), maximize=True,
                    card_points=CARD_POINTS, marriages=tuple(marriages),
                    leader_may_declare=ending.leader in ending.won or ending.on_first_lead,
                    heuristics=heuristics)


def brute_values(ending: Ending) -> tuple[int, dict[int, int]]:
    """The brute force's value and per-move values, moves as engine numbers."""
    value, moves = brute.analyse(ending)
    return value, {move_number(move): move_value for move, move_value in moves.items()}


# -- the brute force itself, on endings worked by hand ------------------------------------------

#: The brute force's docstring example: South may declare his spade marriage (40).
SPADE_MARRIAGE = Ending(hands=(hand("Ks Qs"), hand("As 9h"), hand("Th Jh")), leader=0, won=frozenset({0}),
                        marriages=((0, 40),))
TRUMP_TURNS = Ending(hands=(hand("Kh Qh"), hand("9s Ac"), hand("Jd Td")), leader=0, trump=0,
                     won=frozenset({0}), marriages=DEFAULT_MARRIAGES)
DEFENDER_MARRIAGE = Ending(hands=(hand("9c Tc"), hand("Kh Qh"), hand("Ah Ac")), leader=1,
                           won=frozenset({1}), marriages=DEFAULT_MARRIAGES, declarer=0)
FOUR_ACES = Ending(hands=(hand("As Ac Ad Ah"), hand("Ks Kc Kd Kh"), hand("Qs Qc Qd Qh")), leader=0,
                   won=frozenset({0}), ace_marriage=200)
ACES_TURN_THE_TRUMP = Ending(hands=(hand("As Ac Ad Ah"), hand("9s Kc Jc Tc"), hand("Kh Qh Jh 9h")), leader=0,
                             trump=0, won=frozenset({0}), ace_marriage=200)
MID_TRICK_FOLLOW = Ending(hands=(hand("Jc"), hand("Tc"), hand("As Th")), leader=0, trick=(card("Ks"), card("9h")),
                          trump=3, won=frozenset({1}), declarer=2, marriages=DEFAULT_MARRIAGES)
MID_TRICK_TRUMP = replace(MID_TRICK_FOLLOW, hands=(hand("Jc"), hand("Tc"), hand("Ad Th")))
HAND_WORKED = (SPADE_MARRIAGE, TRUMP_TURNS, DEFENDER_MARRIAGE, FOUR_ACES, ACES_TURN_THE_TRUMP, MID_TRICK_FOLLOW,
               MID_TRICK_TRUMP)


def values_by_name(ending: Ending) -> dict[str, int]:
    return {str(move): value for move, value in brute.move_values(ending).items()}


def test_brute_force_docstring_example():
    assert doctest.testmod(brute).failed == 0


def test_declaring_needs_a_trick_won_unless_the_option_allows_it():
    """The docstring's ending: Ks+/Qs+ are offered only to a leader in ``won`` (or with
    ``on_first_lead``); without them spades are no trump and West's ace and East's hearts
    take everything (values from the docstring's hand count)."""
    ending = replace(SPADE_MARRIAGE, won=frozenset({1, 2}))
    assert values_by_name(ending) == {"Ks": 0, "Qs": 0}
    assert values_by_name(replace(ending, on_first_lead=True)) == {
        "Ks": 0, "Qs": 0, "Ks+": 45, "Qs+": 46}


def test_a_declaration_turns_the_trump_for_its_own_trick():
    """Spades trump; South leads a heart of his marriage. Plain, West (void in hearts) trumps
    with 9s and takes the Ac trick too: 0. Declared, hearts are trump at once: South takes
    both tricks, every card's points (3+4+0+11+2+10 = 30) and the 100 (worked by hand)."""
    assert values_by_name(TRUMP_TURNS) == {"Kh": 0, "Qh": 0, "Kh+": 130, "Qh+": 130}


def test_a_defenders_declaration_scores_nothing_for_the_declarer():
    """West (not the declarer) holds the marriage and may lead it declaring; South (void in
    hearts, holding no trump) throws clubs under East's aces, or West's Qh trumps the Ac:
    South, the declarer, takes no trick and no marriage points whatever West leads: 0."""
    values = values_by_name(DEFENDER_MARRIAGE)
    assert set(values.values()) == {0} and {"Kh+", "Qh+"} <= set(values)


def test_ace_marriage_scores_once():
    """South's four aces take every trick whatever he leads (44 + 16 + 12 = 72 points);
    leading an ace declaring adds 200, once: after it he no longer holds four aces."""
    values = values_by_name(FOUR_ACES)
    assert values == {**{f"A{s}": 72 for s in "scdh"}, **{f"A{s}+": 272 for s in "scdh"}}
    assert brute.solve(replace(FOUR_ACES, ace_marriage=0)) == 72


def test_ace_marriage_turns_the_trump():
    """Spades trump; West holds 9s and clubs, East hearts only. Worked by hand: As or Ac first
    draws West's trump and every trick is South's (69 points); Ad or Ah first is ruffed by
    the 9s with East's Kh under it (69 - 15). Ad+ makes diamonds trump, which only South
    holds: 200 + 69. Ac+ makes West's clubs trumps: after Ac (West's Jc, East's 9h) and As
    (9s, Jh) West ruffs the rest: 200 + 13 + 13. Ah+ makes East's hearts trumps: South takes
    only the first trick, 9s and 9h under the ace: 200 + 11."""
    assert values_by_name(ACES_TURN_THE_TRUMP) == {"As": 69, "Ac": 69, "Ad": 54, "Ah": 54,
                                      "As+": 269, "Ac+": 226, "Ad+": 269, "Ah+": 211}


def test_mid_trick_follow_and_trump_duties():
    """Hearts trump; South led Ks, West trumped with 9h. East (the declarer) must follow with
    As if he has it (then West's 9h wins; East takes the Tc trick with Th: 10 + 2 + 10); void in
    spades he must trump with Th (4 + 0 + 10, then Ad takes 11 + 2 + 10). Worked by hand."""
    assert values_by_name(MID_TRICK_FOLLOW) == {"As": 22}
    assert values_by_name(MID_TRICK_TRUMP) == {"Th": 37}


@pytest.mark.parametrize("ending", HAND_WORKED)
def test_engine_and_reference_on_the_hand_worked_endings(ending):
    expected = brute_values(ending)
    position = thousand_position(ending)
    reference = ReferenceSolver.for_position(position)
    assert (reference.solve(position), reference.card_values(position)) == expected
    engine = Engine(tt_size_mb=1)
    assert (engine.solve(position), engine.card_values(position)) == expected


def test_brute_force_refuses_impossible_endings():
    with pytest.raises(ValueError, match="two places"):
        brute.solve(Ending(hands=(hand("As"), hand("As"), hand("Ks")), leader=0))
    with pytest.raises(ValueError, match="sizes"):
        brute.solve(Ending(hands=(hand("As Ts"), hand("Ks"), hand("Qs")), leader=0))


# -- random endings ------------------------------------------------------------------------

def random_ending_at_a_boundary(rng: random.Random, cards: int) -> Ending:
    """``cards`` cards a hand, a trick to be led.

    The rules drawn: the trump (or none), who has won a trick (``won``), the declarer, the
    leader, the marriage values (the defaults, a permutation of them, or a few suits only),
    the ace marriage (a third of the endings) and declaring without a trick won (one in
    eight). Dealt: half the time a king and queen of a suit to one seat, and in 3 of 5
    ace-marriage endings with 4+ cards the four aces to one seat, the leader half the
    time, so that declarations are often possible."""
    values = [40, 60, 80, 100]
    kind = rng.random()
    if kind < 0.5:
        marriages = DEFAULT_MARRIAGES
    elif kind < 0.8:
        rng.shuffle(values)
        marriages = tuple(enumerate(values))
    else:
        marriages = tuple((suit, rng.choice(values)) for suit in sorted(rng.sample(range(4), rng.randrange(4))))
    ace_marriage = 200 if rng.random() < 1 / 3 else 0
    leader = rng.randrange(3)
    hands: list[set[Card]] = [set(), set(), set()]
    if rng.random() < 0.5:
        suit, seat = rng.randrange(4), leader if rng.random() < 0.5 else rng.randrange(3)
        hands[seat] |= {Card(suit, KING), Card(suit, QUEEN)}
    if ace_marriage and cards >= 4 and rng.random() < 0.6:
        seat = leader if rng.random() < 0.5 else rng.randrange(3)
        if len(hands[seat]) <= cards - 4:
            hands[seat] |= {Card(suit, ACE) for suit in range(4)} - set().union(*hands)
    rest = [c for c in brute.DECK if not any(c in h for h in hands)]
    rng.shuffle(rest)
    for h in hands:
        while len(h) < cards:
            h.add(rest.pop())
    ending = Ending(hands=tuple(frozenset(h) for h in hands), leader=leader,
                    trump=rng.choice((None, 0, 1, 2, 3)),
                    won=frozenset(seat for seat in range(3) if rng.random() < 0.5),
                    declarer=rng.randrange(3), marriages=marriages, ace_marriage=ace_marriage,
                    on_first_lead=rng.random() < 1 / 8)
    return ending


def random_ending_and_trick(rng: random.Random, cards: int) -> tuple[Ending, list[Move]]:
    """:func:`random_ending_at_a_boundary`, then (two times in five) 1 or 2 legal moves of a
    trick: a declaring lead half the time it is possible. Returns the ending and those moves."""
    ending = random_ending_at_a_boundary(rng, cards)
    moves = []
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        legal = brute.legal_moves(ending)
        declaring = [move for move in legal if move.declare]
        move = rng.choice(declaring if declaring and rng.random() < 0.5 else legal)
        ending, _gain = brute.after(ending, move)
        moves.append(move)
    return ending, moves


#: Endings of each hand size compared with the brute force in CI (3,000 in all; the larger
#: ones cost the brute force most), in chunks of 100 with their own seeds; the slow test adds
#: 1,000 more of 5 cards and 200 of 6.
ENDINGS_PER_SIZE = {2: 800, 3: 1000, 4: 1000, 5: 200}
CHUNK = 100
CHUNKS = [(cards, chunk) for cards, count in ENDINGS_PER_SIZE.items() for chunk in range(count // CHUNK)]
SLOW_CHUNKS = [(5, chunk) for chunk in range(2, 12)] + [(6, chunk) for chunk in range(2)]
#: The engine heuristics the endings are solved with in turn (Thousand's own first).
HEURISTICS = ("thousand", "solo", "plain")


def chunk_of_endings(cards: int, chunk: int) -> list[tuple[Ending, list[Move]]]:
    rng = random.Random(f"thousand-oracle-{cards}-{chunk}")
    return [random_ending_and_trick(rng, cards) for _ in range(CHUNK)]


def check_with_the_brute_force(engine: Engine, cards: int, chunk: int) -> None:
    """Value and every legal move's value (declaring leads included) equal the brute force's,
    for the reference minimax and for the fast engine (kept warm across the endings, as in
    an analysis; the Thousand heuristics and two others in turn: they change the search, never
    the value); the engine's null-window answers bracket the value."""
    for number_in_chunk, (ending, _trick) in enumerate(chunk_of_endings(cards, chunk)):
        position = thousand_position(ending, heuristics=HEURISTICS[number_in_chunk % len(HEURISTICS)])
        expected = brute_values(ending)
        reference = ReferenceSolver.for_position(position)
        assert (reference.solve(position), reference.card_values(position)) == expected, ending
        assert (engine.solve(position), engine.card_values(position)) == expected, ending
        assert engine.reaches(position, expected[0]) and not engine.reaches(position, expected[0] + 1), ending


@pytest.mark.parametrize(("cards", "chunk"), CHUNKS)
def test_engine_and_reference_agree_with_the_brute_force(engine, cards, chunk):
    check_with_the_brute_force(engine, cards, chunk)


@pytest.mark.slow
@pytest.mark.parametrize(("cards", "chunk"), SLOW_CHUNKS)
def test_more_and_larger_endings_agree_with_the_brute_force(engine, cards, chunk):
    check_with_the_brute_force(engine, cards, chunk)


def test_the_random_endings_cover_the_rules():
    """The endings of the comparison above exercise what they are meant to: declaring leads
    of marriages and of the ace marriage (by the declarer and by the others, by a leader
    who has won no trick under the option), a leader holding a marriage who may not declare,
    every trump and none, mid-trick positions (some led by a declaration), and declarations
    that change the value beyond their points (the new trump decides tricks)."""
    seen = dict.fromkeys(("declaring", "ace declaring", "defender declaring", "first lead option", "refused",
                          "no trump", "mid-trick", "declared this trick", "the trump decides"), 0)
    trumps = set()
    for cards, chunk in CHUNKS:
        for ending, trick in chunk_of_endings(cards, chunk):
            declaring = [move for move in brute.legal_moves(ending) if move.declare]
            seen["declaring"] += bool(declaring)
            seen["ace declaring"] += any(move.card.rank == ACE for move in declaring)
            seen["defender declaring"] += bool(declaring) and ending.leader != ending.declarer
            seen["first lead option"] += bool(declaring) and ending.leader not in ending.won
            holds_marriage = any({Card(suit, KING), Card(suit, QUEEN)} <= ending.hands[ending.leader]
                                 for suit, _points in ending.marriages)
            seen["refused"] += not ending.trick and holds_marriage and not declaring
            trumps.add(ending.trump)
            seen["no trump"] += ending.trump is None
            seen["mid-trick"] += bool(trick)
            seen["declared this trick"] += bool(trick) and trick[0].declare
            if cards <= 3 and declaring:
                values = brute.move_values(ending)
                for move in declaring:
                    points = (ending.ace_marriage if move.card.rank == ACE else dict(ending.marriages)[move.card.suit]
                              ) if ending.leader == ending.declarer else 0
                    seen["the trump decides"] += values[move] - values[Move(move.card)] != points
    assert trumps == {None, 0, 1, 2, 3}
    assert all(count >= 20 for count in seen.values()), seen


# -- full deals: the engine against the reference minimax ---------------------------------------

def random_full_deal(rng: random.Random) -> Ending:
    """All 24 cards dealt 8 a hand, as after the exchange: the declarer leads the first trick,
    no trump, nobody has won a trick; the default marriage values, the ace marriage and
    declaring on the first lead each half the time."""
    deck = list(brute.DECK)
    rng.shuffle(deck)
    declarer = rng.randrange(3)
    return Ending(hands=tuple(frozenset(deck[seat::3]) for seat in range(3)), leader=declarer,
                  declarer=declarer, marriages=DEFAULT_MARRIAGES, ace_marriage=rng.choice((0, 200)),
                  on_first_lead=rng.random() < 0.5)


def check_full_deals(engine: Engine, seed: str, deals: int) -> None:
    rng = random.Random(seed)
    for _ in range(deals):
        position = thousand_position(random_full_deal(rng))
        reference = ReferenceSolver.for_position(position)
        expected = reference.solve(position), reference.card_values(position)
        assert (engine.solve(position), engine.card_values(position)) == expected, position


def test_full_deals_engine_equals_the_reference(engine):
    """A few full 8-card deals (value and each first lead's value) in CI; the slow test below
    has 100."""
    check_full_deals(engine, "thousand-full-ci", 3)


@pytest.mark.slow
def test_hundred_full_deals_engine_equals_the_reference(engine):
    check_full_deals(engine, "thousand-full-slow", 100)


# -- symmetry: the suits are names ----------------------------------------------------------------

def permute_suits(ending: Ending, permutation: list[int], marriages_too: bool = True) -> Ending:
    """The ending with suit ``s`` renamed ``permutation[s]``, the trump and (unless told not to)
    the marriage values renamed with it."""
    def rename(c: Card) -> Card:
        return Card(permutation[c.suit], c.rank)
    marriages = tuple(sorted((permutation[suit], points) for suit, points in ending.marriages)
                      if marriages_too else ending.marriages)
    return Ending(hands=tuple(frozenset(map(rename, h)) for h in ending.hands), leader=ending.leader,
                  trick=tuple(map(rename, ending.trick)),
                  trump=None if ending.trump is None else permutation[ending.trump], won=ending.won,
                  declarer=ending.declarer, marriages=marriages, ace_marriage=ending.ace_marriage,
                  on_first_lead=ending.on_first_lead)


def test_permuting_the_suits_changes_no_value(engine):
    """On random positions of 4-8 cards a hand (every trump and none, mid-trick ones among
    them), the engine's value and per-move values are the same after renaming the suits with
    the marriage values; renaming the suits alone does change some values (so the marriage
    values do matter to the comparison)."""
    rng = random.Random("thousand-symmetry")
    changed_without_values = 0
    for _ in range(300):
        ending, _trick = random_ending_and_trick(rng, rng.randrange(4, 9))
        permutation = rng.sample(range(4), 4)
        renamed = permute_suits(ending, permutation)
        position, renamed_position = thousand_position(ending), thousand_position(renamed)
        value, moves = engine.solve(position), engine.card_values(position)
        assert engine.solve(renamed_position) == value, ending
        rename = {move_number(move): move_number(Move(Card(permutation[move.card.suit], move.card.rank),
                                                      move.declare))
                  for move in brute.legal_moves(ending)}
        assert engine.card_values(renamed_position) == {rename[move]: v for move, v in moves.items()}, ending
        suits_only = thousand_position(permute_suits(ending, permutation, marriages_too=False))
        changed_without_values += engine.solve(suits_only) != value
    assert changed_without_values >= 10


# -- the layout model: its Position and Layout.after against the oracle ------------------------------

SEAT_NAMES = "SWE"


def thousand_layout(ending: Ending, scored: dict[int, int]) -> Layout:
    """The model's layout of an ending, written in the user's notation and played under the
    ending's declaration options; ``scored``: the points each seat already has this deal."""
    def cards(group) -> str:
        return ",".join(str(c) for c in sorted(group))
    words = ["game=thousand", f"declarer={SEAT_NAMES[ending.declarer]}", f"lead={SEAT_NAMES[ending.leader]}",
             *(f"{seat}={cards(h)}" for seat, h in zip(SEAT_NAMES, ending.hands))]
    if ending.trick:
        words.append("played=" + ",".join(map(str, ending.trick)))
    if ending.trump is not None:
        words.append(f"trump={brute.SUITS[ending.trump]}")
    if ending.won:
        words.append("won=" + ",".join(SEAT_NAMES[seat] for seat in sorted(ending.won)))
    if scored:
        words.append("points=" + ",".join(f"{SEAT_NAMES[seat]}:{points}" for seat, points in scored.items()))
    options = MarriageRules(values=tuple((brute.SUITS[suit], points) for suit, points in ending.marriages),
                            ace_marriage=ending.ace_marriage, on_first_lead=ending.on_first_lead)
    return with_marriages(parse_layout(" ".join(words)), options)


def test_layout_position_and_after_follow_the_brute_force(engine):
    """On random Thousand layouts (2-8 cards a hand, mid-trick ones among them, points already
    scored): the layout's Position is the one the comparisons above check (so they hold for
    layouts), and replaying the engine's best line with ``Layout.play`` keeps the layout's
    state where the brute force's rules put it: the legal moves (declaring leads included),
    who leads, the trump, who has won a trick; the declarer's ``scored`` grows by the brute
    force's gains and ends at the engine's value over it; every seat's points together grow
    by the cards' points plus the marriages declared."""
    rng = random.Random("thousand-layout")
    declared = mid_trick = 0
    for _ in range(150):
        ending, trick = random_ending_and_trick(rng, rng.randrange(2, 9))
        if len(ending.marriages) < 4:  # the model's options name every suit's marriage
            ending = replace(ending, marriages=DEFAULT_MARRIAGES)
        scored = {seat: rng.randrange(0, 300) for seat in rng.sample(range(3), rng.randrange(4))}
        layout = thousand_layout(ending, scored)
        mid_trick += bool(trick)
        position = layout.position()
        assert position == thousand_position(ending), layout
        value = engine.solve(position)
        declarer = SEAT_NAMES[ending.declarer]
        start_total = sum(layout.scored.values())
        in_play = sum(c.points for h in ending.hands for c in h) + sum(c.points for c in ending.trick)
        gained = marriages = 0
        for engine_move in engine.best_line(position):
            assert sorted(move.code for move in layout.moves()) == sorted(map(str, brute.legal_moves(ending)))
            model_move = ModelMove.from_engine(THOUSAND, engine_move)
            move = Move(card(model_move.card.code), model_move.declare)
            layout = layout.play(model_move)
            ending, gain = brute.after(ending, move)
            gained += gain
            if move.declare:
                declared += 1
                marriages += ending.ace_marriage if move.card.rank == ACE else dict(ending.marriages)[move.card.suit]
            assert layout.lead == SEAT_NAMES[ending.leader], layout
            assert layout.trump_number == ending.trump, layout
            assert layout.won == {SEAT_NAMES[seat] for seat in ending.won}, layout
            assert layout.scored.get(declarer, 0) - scored.get(ending.declarer, 0) == gained, layout
        assert gained == value
        assert sum(layout.scored.values()) - start_total == in_play + marriages
    assert declared >= 20 and mid_trick >= 20


@pytest.mark.parametrize("backend_name", ["fast_backend", "reference_backend"])
def test_solve_of_a_layout_gives_the_brute_force_points(backend_name, request):
    """``solve`` on random Thousand layouts of 2-4 cards a hand: the declarer's points and each
    move's (declaring leads as ``Kh+``) are the brute force's; the line, played by the brute
    force's rules, scores them, and the seats' points along it add up to the cards in play
    plus the marriages declared on it."""
    backend = request.getfixturevalue(backend_name)
    rng = random.Random(f"thousand-solve-{backend_name}")
    declaring_moves = declared = 0
    for _ in range(100):
        ending, _trick = random_ending_and_trick(rng, rng.randrange(2, 5))
        if len(ending.marriages) < 4:
            ending = replace(ending, marriages=DEFAULT_MARRIAGES)
        value, moves = brute.analyse(ending)
        result = solve(thousand_layout(ending, {}), engine=backend)
        assert result.declarer_points == value
        assert {move.code: v for move, v in result.cards.items()} == {str(move): v for move, v in moves.items()}
        declaring_moves += sum(move.declare for move in result.cards)
        in_play = sum(c.points for h in ending.hands for c in h) + sum(c.points for c in ending.trick)
        gained = marriages = 0
        for model_move in result.line:
            move = Move(card(model_move.card.code), model_move.declare)
            if move.declare:
                declared += 1
                marriages += ending.ace_marriage if move.card.rank == ACE else dict(ending.marriages)[move.card.suit]
            ending, gain = brute.after(ending, move)
            gained += gain
        assert gained == value == result.seat_points[SEAT_NAMES[ending.declarer]]
        assert sum(result.seat_points.values()) == in_play + marriages
    assert declaring_moves >= 10 and declared >= 3
