"""Whole enumerations against an outside solver: every split, value for value.

The declarer's (South's) ten cards are fixed and each of the C(20,10) = 184,756 splits of the
defenders' twenty cards is solved. The expected values are those of an independent program,
A. Slovesnov's C++ Preferans solver (github.com/slovesnov/bridge at ff7c908, ``src/solver``,
its "solve all deals" loop run headless; misère as no-trump with its misère flag), on every
split of these hands, 2026-12-04 (benchmarks/RESULTS.md, "Twentieth session", gives the
build). They are kept here as the histogram and the SHA-256 of the 184,756 values, one byte
each, in the order below: one split valued otherwise anywhere fails the test.

The hands are the report set's declarer hands of ``benchmarks/layouts.py`` (its seeds
``r1``-``r5`` per kind), written out, with every seat on lead somewhere. Card numbering of the
engine tests (``positions.py``): suit * 8 + rank, suits s, c, d, h; the splits in
``itertools.combinations`` order of the twenty cards (lowest numbers first), West (seat 1,
second to play after South) taking the chosen ten.
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
SEATS = "SWE"   # seats 0, 1, 2 in play order

# (kind, the seat on lead, South's ten cards, the talon (in no hand), the C++ solver's histogram
# of South's tricks, SHA-256 of its 184,756 values)
JOBS = {
    "misere-r2-S": ("misere", "S", "7s,Ts,Js,7c,9c,Tc,Ac,8d,Kd,Qh", "Ks,9h",
                    [110, 6357, 61357, 89756, 24957, 2155, 64, 0, 0, 0, 0],
                    "7c55a06e59772f3f2a6296979af5062ecaa1198fd6931edcf037ab59c338a779"),
    "misere-r5-S": ("misere", "S", "7c,Jc,Kc,9d,Td,Kd,7h,8h,Th,Jh", "As,8c",
                    [2840, 3445, 11459, 35688, 80680, 47007, 3637, 0, 0, 0, 0],
                    "6bced09a4535770fdc54e75bfc6aaa5e4c733e7918044c0cd87b7cdd6c4ab984"),
    "misere-r1-E": ("misere", "E", "As,Jd,Qd,Kd,7h,8h,9h,Th,Kh,Ah", "7c,Jh",
                    [0, 0, 0, 19, 0, 0, 4, 544, 91656, 90412, 2121],
                    "5c062070064fcdad5a011fbdbd17f64c0f175d3ae7f9c1c690744e8ab9a1e17e"),
    "misere-r4-W": ("misere", "W", "8s,Ks,8c,Jc,Kc,7d,8d,9d,Td,Th", "Qd,7h",
                    [305, 2426, 4238, 14615, 41453, 68125, 46165, 6707, 722, 0, 0],
                    "9badabf3a2551e935643cd5e76d422b4aa71a6381883e0f734fa17c8bca85204"),
    "trump-r5-S": ("trump", "S", "8s,9s,Ts,Qc,Kc,8d,9d,Kd,8h,Th", "Qs,9h",
                   [29490, 107700, 45469, 2077, 20, 0, 0, 0, 0, 0, 0],
                   "3bbd8efdfa5536ddfa04b0d0ae186d51a6311ba0b0f7c4d17aadbeb3a2e48168"),
    "trump-r2-W": ("trump", "W", "9s,Js,Qs,As,7c,Tc,Ac,7d,Ad,Th", "8d,Jd",
                   [0, 0, 0, 0, 1193, 104165, 79398, 0, 0, 0, 0],
                   "e779d5f85bd0485c96c275f9eccf90f8294a22a733eb6a975135e8cfd895c0b0"),
    "nt-r3-S": ("nt", "S", "8s,Js,Ks,9c,Ac,7d,Ad,7h,Th,Kh", "7s,Kc",
                [0, 0, 23312, 136654, 24678, 112, 0, 0, 0, 0, 0],
                "2ccda0418da5a3687e388cbed6571d23443ecd87968380903dd4115efa2fef04"),
    "nt-r5-E": ("nt", "E", "9s,Qs,7c,Tc,Ac,8d,Jd,Kd,9h,Th", "7s,Qd",
                [34480, 147088, 3034, 154, 0, 0, 0, 0, 0, 0, 0],
                "b1319e50c305da6bd3028c02bbf70e4d1605a7a3e8fa840849740d30b70a6ed7"),
}
# The longest (one engine: 7-16 s each) run with the slow cross-checks.
SLOW = {"misere-r5-S", "misere-r4-W", "nt-r3-S"}
# Spades are trumps in the trump jobs ("6s" below).
CONTRACTS = {"misere": "misere", "trump": "6s", "nt": "6nt"}


def card_number(code: str) -> int:
    return SUITS.index(code[1]) * 8 + RANKS.index(code[0])


def mask_of(codes: str) -> int:
    return bits(card_number(code) for code in codes.split(","))


def job_params(names):
    return [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in names]


@pytest.mark.parametrize("name", job_params(JOBS))
def test_every_split_has_the_outside_solvers_value(name):
    kind, lead, south, talon, histogram, digest = JOBS[name]
    declarer = mask_of(south)
    unknown = (1 << 32) - 1 & ~declarer & ~mask_of(talon)
    cards = cards_of(unknown)
    assert len(cards) == 20
    splits = [(bits(west), unknown & ~bits(west)) for west in itertools.combinations(cards, 10)]
    first = Position((declarer, *splits[0]), PREF_SUITS, 0 if kind == "trump" else None, True, SEATS.index(lead),
                     (), (True, False, False), kind != "misere")
    values = Engine(tt_size_mb=128).solve_batch(first, [1, 2], [0, 0], splits)
    assert len(values) == len(splits) == 184756
    assert [values.count(v) for v in range(11)] == histogram
    assert hashlib.sha256(bytes(values)).hexdigest() == digest


@pytest.mark.parametrize("name", job_params(["misere-r2-S", "misere-r1-E", "trump-r5-S", "nt-r5-E"]))
def test_the_declarers_view_gives_the_outside_solvers_histogram(name):
    """The product's path (``pref misere``/``pref contract --hand``): two threads on one
    shared table, blocks of splits, the talon as the discard."""
    kind, lead, south, talon, histogram, _ = JOBS[name]
    hand = Hand.parse(south.replace(",", " "), PREFERANS)
    discard = list(Hand.parse(talon.replace(",", " "), PREFERANS))
    contract = Contract.parse(CONTRACTS[kind], PREFERANS_RULES)
    view = declarer_view(hand, "S", discard, contract, lead=lead, threads=2)
    assert view.tally.exact and view.tally.splits == 184756
    assert view.histogram == histogram[:len(view.histogram)]
    assert sum(histogram[len(view.histogram):]) == 0
