"""The deciding-card rule of misère proofs (``benchmarks/misere_deciding.py``) is sound.

A null-window proof's entry claims every position with the same shape, leader and owners of
the cards out down to the lowest deciding card of each suit: all the redeals of its free
cards (each hand's count per suit fixed). Checked against the reference minimax on small
random misère positions (2-4 tricks, the declarer seat 0, every seat on lead), at the
value (the test succeeds: each image reaches it) and the value + 1 (it fails: no image
reaches it); with the misère rules *caught* and *clean* too (their own deciding cards). With
the runs rule, the winners rule or the rules' deciding cards dropped the check fails (kept as
the ``loosened`` cases). And a search answering from such entries, one table for all the
positions of a length (so entries meet positions with other cards out: the entries match by
the owners of the top cards, not the cards), gives the reference's answers at every target
(with the winners rule dropped it does not; the runs rule's cases are too rare here to show).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from positions import PREF_DECK, PREF_SUITS, deal_masks  # noqa: E402

from pyanalyzer.engines.reference import ReferenceSolver  # noqa: E402
from pyanalyzer.model.position import Position  # noqa: E402

_spec = importlib.util.spec_from_file_location("misere_deciding", ROOT / "benchmarks" / "misere_deciding.py")
deciding = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(deciding)

DEALS = 40          # a tricks-left: 3 leaders each, so 360 positions


def misere(hands, leader) -> Position:
    return Position(tuple(hands), PREF_SUITS, None, True, leader, (), (True, False, False), False)


def unsound_entries(**rules):
    """Yield every (position, leader, target, image) whose reference value contradicts the
    bound of the position's entry."""
    rng = random.Random("misere-deciding")
    reference = ReferenceSolver.for_position(misere((1, 2, 4), 0))
    for tricks in (2, 3, 4):
        for _ in range(DEALS):
            hands, _ = deal_masks(rng, PREF_DECK, 3, tricks)
            for leader in range(3):
                value = reference.solve(misere(hands, leader))
                prover = deciding.Prover(0, **rules)
                for target in (value, value + 1):
                    if not 0 < target <= tricks:
                        continue
                    reached, cards = prover.reaches(tuple(hands), leader, target)
                    assert reached == (target == value)
                    for image in deciding.images(hands, cards):
                        if (reference.solve(misere(image, leader)) >= target) != reached:
                            yield hands, leader, target, image


@pytest.mark.parametrize("rules", [{}, {"caught_clean": True}])
def test_every_image_of_an_entry_has_its_bound(rules):
    assert list(unsound_entries(**rules)) == []


@pytest.mark.parametrize("loosened", [{"runs_rule": False}, {"winners_rule": False},
                                      {"caught_clean": True, "caught_clean_cards": False}])
def test_loosened_rule_is_caught(loosened):
    assert next(unsound_entries(**loosened), None) is not None


def partition_mismatches(**rules):
    """Yield the positions where a search answering from deciding-card entries (one table
    for all the positions of a length, so entries meet other cards out) differs from the
    reference."""
    rng = random.Random("misere-partition")
    reference = ReferenceSolver.for_position(misere((1, 2, 4), 0))
    for tricks in (3, 4):
        prover = deciding.Prover(0, partition=deciding.ShadowTable(), **rules)
        for _ in range(DEALS):
            hands, _ = deal_masks(rng, PREF_DECK, 3, tricks)
            for leader in range(3):
                value = reference.solve(misere(hands, leader))
                for target in range(1, tricks + 1):
                    if prover.reaches(tuple(hands), leader, target)[0] != (value >= target):
                        yield hands, leader, target


@pytest.mark.parametrize("rules", [{}, {"caught_clean": True}])
def test_partition_search_matches_reference(rules):
    assert list(partition_mismatches(**rules)) == []


def test_partition_search_without_the_winners_rule_is_caught():
    assert next(partition_mismatches(winners_rule=False), None) is not None
