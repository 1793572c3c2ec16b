"""Rough edges a new user hit (issue 16, section 3): pickled cards, notations, flags, help examples."""

from __future__ import annotations

import copy
import pickle

import pytest

from pyanalyzer.cards import DECKS, PREFERANS, WHIST
from pyanalyzer.puzzles import Order, generate, parse_constraint

# -- cards keep their identity through pickling (worker processes) ---------------------------


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_card_survives_pickling(deck):
    assert pickle.loads(pickle.dumps(deck)) is deck
    for card in deck:
        again = pickle.loads(pickle.dumps(card))
        assert again == card and hash(again) == hash(card)
        assert again is card  # the deck's own card object comes back
        assert copy.deepcopy(card) is card


def test_pickled_cards_find_each_other_in_containers():
    hand = [PREFERANS.card("A", "s"), PREFERANS.card("T", "h")]
    again = pickle.loads(pickle.dumps(hand))
    assert PREFERANS.card("A", "s") in again
    assert set(again) == set(hand)
    assert WHIST.card("A", "s") != PREFERANS.card("A", "s")  # other deck, other card


def test_has_constraint_matches_with_two_jobs():
    # The worker processes receive the order (and the constraint's cards) pickled; before the
    # fix no card compared equal to its pickled copy and "S has As" never matched.
    order = Order("contract", tricks=(5, 5), constraints=(parse_constraint("S has As"),))
    puzzles = list(generate(order, 2, 3, jobs=2, max_attempts=400))
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert "As" in [c.code for c in puzzle.layout.hands["S"]]
