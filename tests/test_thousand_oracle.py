"""Thousand card play checked against an independent brute force (issue 18, "Correctness").

The oracle is ``tests/thousand_brute_force.py``: written from the rules for these tests,
sharing no rules code with the project. Its own semantics are pinned first by endings
worked by hand (below). Then:

* random endings of 2-5 cards a hand (random trump or none, random ``won`` sets, marriages
  and sometimes the ace marriage and declaring on the first lead, a few cards of the
  current trick already played): the fast engine (``pref_engine``) and the reference
  minimax (``pyanalyzer.engines.reference``) give the brute force's value and each legal
  move's value, declaring leads included;
* full 8-card deals: the engine equals the reference minimax;
* permuting the suits (the trump and the marriage values with them) changes none of the
  engine's values.

Cards become engine numbers ``suit * 6 + rank`` (suits s c d h, ranks 9 J Q K T A from 0);
:func:`thousand_position` is the one place a Position is built.
"""

from __future__ import annotations

import doctest

import pytest
import thousand_brute_force as brute
from pref_engine import DECLARE
from thousand_brute_force import ACE, KING, QUEEN, Card, Ending, Move, card, hand

from pyanalyzer.model.position import Position

SUIT_MASKS = tuple(0b111111 << (6 * suit) for suit in range(4))
CARD_POINTS = tuple(Card(number // 6, number % 6).points for number in range(24))
DEFAULT_MARRIAGES = ((0, 40), (1, 60), (2, 80), (3, 100))


def number(c: Card) -> int:
    return c.suit * 6 + c.rank


def move_number(move: Move) -> int:
    return number(move.card) | (DECLARE if move.declare else 0)


def mask(cards) -> int:
    return sum(1 << number(c) for c in cards)


def thousand_position(ending: Ending, heuristics: str = "solo") -> Position:
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

def values_by_name(ending: Ending) -> dict[str, int]:
    return {str(move): value for move, value in brute.move_values(ending).items()}


def test_brute_force_docstring_example():
    assert doctest.testmod(brute).failed == 0


def test_declaring_needs_a_trick_won_unless_the_option_allows_it():
    """The docstring's ending: Ks+/Qs+ are offered only to a leader in ``won`` (or with
    ``on_first_lead``); without them spades are no trump and West's ace and East's hearts
    take everything (values from the docstring's hand count)."""
    ending = Ending(hands=(hand("Ks Qs"), hand("As 9h"), hand("Th Jh")), leader=0,
                    won=frozenset({1, 2}), marriages=((0, 40),))
    assert values_by_name(ending) == {"Ks": 0, "Qs": 0}
    assert values_by_name(Ending(**{**ending.__dict__, "on_first_lead": True})) == {
        "Ks": 0, "Qs": 0, "Ks+": 45, "Qs+": 46}


def test_a_declaration_turns_the_trump_for_its_own_trick():
    """Spades trump; South leads a heart of his marriage. Plain, West (void in hearts) trumps
    with 9s and takes the Ac trick too: 0. Declared, hearts are trump at once: South takes
    both tricks, every card's points (3+4+0+11+2+10 = 30) and the 100 (worked by hand)."""
    ending = Ending(hands=(hand("Kh Qh"), hand("9s Ac"), hand("Jd Td")), leader=0, trump=0,
                    won=frozenset({0}), marriages=DEFAULT_MARRIAGES)
    assert values_by_name(ending) == {"Kh": 0, "Qh": 0, "Kh+": 130, "Qh+": 130}


def test_a_defenders_declaration_scores_nothing_for_the_declarer():
    """West (not the declarer) holds the marriage and may lead it declaring; South (void in
    hearts, holding no trump) throws clubs under East's aces, or West's Qh trumps the Ac:
    South, the declarer, takes no trick and no marriage points whatever West leads: 0."""
    ending = Ending(hands=(hand("9c Tc"), hand("Kh Qh"), hand("Ah Ac")), leader=1,
                    won=frozenset({1}), marriages=DEFAULT_MARRIAGES, declarer=0)
    assert set(values_by_name(ending).values()) == {0}
    assert {"Kh+", "Qh+"} <= set(values_by_name(ending))


def test_ace_marriage_scores_once_and_turns_the_trump():
    """South's four aces take every trick whatever he leads (44 + 16 + 12 = 72 points);
    leading an ace declaring adds 200, once: after it he no longer holds four aces."""
    ending = Ending(hands=(hand("As Ac Ad Ah"), hand("Ks Kc Kd Kh"), hand("Qs Qc Qd Qh")), leader=0,
                    won=frozenset({0}), ace_marriage=200)
    values = values_by_name(ending)
    assert values == {**{f"A{s}": 72 for s in "scdh"}, **{f"A{s}+": 272 for s in "scdh"}}
    # no marriage values: West holds kings only, East queens only; nobody else may declare
    assert brute.solve(Ending(**{**ending.__dict__, "ace_marriage": 0})) == 72


def test_ace_marriage_turns_the_trump():
    """Spades trump; West holds 9s and clubs, East hearts only. Worked by hand: As or Ac first
    draws West's trump and every trick is South's (69 points); Ad or Ah first is ruffed by
    the 9s with East's Kh under it (69 - 15). Ad+ makes diamonds trump, which only South
    holds: 200 + 69. Ac+ makes West's clubs trumps: after Ac (West's Jc, East's 9h) and As
    (9s, Jh) West ruffs the rest: 200 + 13 + 13. Ah+ makes East's hearts trumps: South takes
    only the first trick, 9s and 9h under the ace: 200 + 11."""
    ending = Ending(hands=(hand("As Ac Ad Ah"), hand("9s Kc Jc Tc"), hand("Kh Qh Jh 9h")), leader=0,
                    trump=0, won=frozenset({0}), ace_marriage=200)
    assert values_by_name(ending) == {"As": 69, "Ac": 69, "Ad": 54, "Ah": 54,
                                      "As+": 269, "Ac+": 226, "Ad+": 269, "Ah+": 211}


def test_mid_trick_follow_and_trump_duties():
    """Hearts trump; South led Ks, West trumped with 9h. East (the declarer) must follow with
    As if he has it (then West's 9h wins; East takes the Tc trick with Th: 10 + 2 + 10); void in
    spades he must trump with Th (4 + 0 + 10, then Ad takes 11 + 2 + 10). Worked by hand."""
    following = Ending(hands=(hand("Jc"), hand("Tc"), hand("As Th")), leader=0, trick=(card("Ks"), card("9h")),
                       trump=3, won=frozenset({1}), declarer=2, marriages=DEFAULT_MARRIAGES)
    assert values_by_name(following) == {"As": 22}
    trumping = Ending(**{**following.__dict__, "hands": (hand("Jc"), hand("Tc"), hand("Ad Th"))})
    assert values_by_name(trumping) == {"Th": 37}


def test_brute_force_refuses_impossible_endings():
    with pytest.raises(ValueError, match="two places"):
        brute.solve(Ending(hands=(hand("As"), hand("As"), hand("Ks")), leader=0))
    with pytest.raises(ValueError, match="sizes"):
        brute.solve(Ending(hands=(hand("As Ts"), hand("Ks"), hand("Qs")), leader=0))
