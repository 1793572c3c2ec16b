"""Whole enumerations against an outside solver: every split, value for value.

The declarer's ten cards are fixed, seat 0 (South) leads, and each of the C(20,10) = 184,756
splits of the defenders' twenty cards is solved. The expected values are those of an
independent program, A. Slovesnov's C++ Preferans solver (github.com/slovesnov/bridge at
ff7c908, ``src/solver``, its "solve all deals" loop run headless; misère as no-trump with its
misère flag), on every split of these hands, 2026-12-04 (benchmarks/RESULTS.md, "Twentieth
session", gives the build). They are kept here as the histogram and the SHA-256 of the 184,756
values, one byte each, in the order below: one split valued otherwise anywhere fails the test.

The hands are the report set's declarer hands of ``benchmarks/layouts.py`` (``r2`` misère,
``r5`` misère and trump), written out. Card numbering of the engine tests (``positions.py``):
suit * 8 + rank, suits s, c, d, h; the splits in ``itertools.combinations`` order of the
twenty cards (lowest numbers first), West (seat 1, second to play) taking the chosen ten.
"""

from __future__ import annotations

import hashlib
import itertools

import pytest
from positions import PREF_SUITS, bits, cards_of
from pref_engine import Engine

from pyanalyzer import PREFERANS, PREFERANS_RULES, Contract, Hand
from pyanalyzer.model.position import Position
from pyanalyzer.preferans.odds import declarer_view

SUITS, RANKS = "scdh", "789TJQKA"

# (kind, South's ten cards, the talon (in no hand), the C++ solver's histogram of South's
# tricks, SHA-256 of its 184,756 values)
JOBS = {
    "misere-r2": ("misere", "7s,Ts,Js,7c,9c,Tc,Ac,8d,Kd,Qh", "Ks,9h",
                  [110, 6357, 61357, 89756, 24957, 2155, 64, 0, 0, 0, 0],
                  "7c55a06e59772f3f2a6296979af5062ecaa1198fd6931edcf037ab59c338a779"),
    "trump-r5": ("trump", "8s,9s,Ts,Qc,Kc,8d,9d,Kd,8h,Th", "Qs,9h",
                 [29490, 107700, 45469, 2077, 20, 0, 0, 0, 0, 0, 0],
                 "3bbd8efdfa5536ddfa04b0d0ae186d51a6311ba0b0f7c4d17aadbeb3a2e48168"),
    "misere-r5": ("misere", "7c,Jc,Kc,9d,Td,Kd,7h,8h,Th,Jh", "As,8c",
                  [2840, 3445, 11459, 35688, 80680, 47007, 3637, 0, 0, 0, 0],
                  "6bced09a4535770fdc54e75bfc6aaa5e4c733e7918044c0cd87b7cdd6c4ab984"),
}
# misère r5 takes twice as long as the other two together: with the long cross-checks.
SLOW = {"misere-r5"}


def card_number(code: str) -> int:
    return SUITS.index(code[1]) * 8 + RANKS.index(code[0])


def mask_of(codes: str) -> int:
    return bits(card_number(code) for code in codes.split(","))


def job_params(names):
    return [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in names]


@pytest.mark.parametrize("name", job_params(JOBS))
def test_every_split_has_the_outside_solvers_value(name):
    kind, south, talon, histogram, digest = JOBS[name]
    declarer = mask_of(south)
    unknown = (1 << 32) - 1 & ~declarer & ~mask_of(talon)
    cards = cards_of(unknown)
    assert len(cards) == 20
    splits = [(bits(west), unknown & ~bits(west)) for west in itertools.combinations(cards, 10)]
    first = Position((declarer, *splits[0]), PREF_SUITS, 0 if kind == "trump" else None, True, 0, (),
                     (True, False, False), kind != "misere")
    values = Engine(tt_size_mb=128).solve_batch(first, [1, 2], [0, 0], splits)
    assert len(values) == len(splits) == 184756
    assert [values.count(v) for v in range(11)] == histogram
    assert hashlib.sha256(bytes(values)).hexdigest() == digest


@pytest.mark.parametrize("name", job_params(["misere-r2", "trump-r5"]))
def test_the_declarers_view_gives_the_outside_solvers_histogram(name):
    """The product's path (``pref misere``/``pref contract --hand``): two threads on one
    shared table, blocks of splits, the talon as the discard."""
    kind, south, talon, histogram, _ = JOBS[name]
    hand = Hand.parse(south.replace(",", " "), PREFERANS)
    discard = list(Hand.parse(talon.replace(",", " "), PREFERANS))
    contract = Contract.parse("misere" if kind == "misere" else "6s", PREFERANS_RULES)
    view = declarer_view(hand, "S", discard, contract, lead="S", threads=2)
    assert view.tally.exact and view.tally.splits == 184756
    assert view.histogram == histogram[:len(view.histogram)]
    assert sum(histogram[len(view.histogram):]) == 0
