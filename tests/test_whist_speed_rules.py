"""Exactness of the Whist search's speed rules (``solver/pref_engine/partition.pyx``) against DDS.

The rules checked here cut off searches early (length winners in the quick tricks,
the second hand's quick tricks), skip moves (small cards like a refuted one), only
reorder moves, or share the table across denominations; either way the DD table must
not change. Loosening any condition of the second hand's count (above the lead, the
holder keeping the lead, another hand holding the suit) makes these tests fail. Random deals have
few long suits and voids, so the endings here are dealt with each hand favouring
one suit: long runs, voids and length winners in every denomination.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("endplay")
pytestmark = pytest.mark.usefixtures("dds_one_thread")

from endplay.dds import solve_board  # noqa: E402
from endplay.dds.solve import SolveMode  # noqa: E402
from endplay.types import Deal as EndplayDeal  # noqa: E402
from endplay.types import Denom, Player  # noqa: E402
from positions import skewed_whist_deal, split_trumps_whist_deal  # noqa: E402

from pyanalyzer.engines.registry import make_backend  # noqa: E402
from pyanalyzer.whist import DENOMINATIONS, Deal, dd_table  # noqa: E402
from pyanalyzer.whist.deal import whist_layout  # noqa: E402

DENOMS = {"s": Denom.spades, "h": Denom.hearts, "d": Denom.diamonds, "c": Denom.clubs, "n": Denom.nt}
PLAYERS = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
SEATS = ("N", "E", "S", "W")


def dds_tricks(deal: Deal) -> dict[str, dict[str, int]]:
    """DDS's table: one SolveBoard a denomination and leader, asked for the best card's score only."""
    board = EndplayDeal(deal.pbn())
    tricks: dict[str, dict[str, int]] = {s: {} for s in SEATS}
    for d in DENOMINATIONS:
        for i, declarer in enumerate(SEATS):
            board.first, board.trump = PLAYERS[SEATS[(i + 1) % 4]], DENOMS[d]
            tricks[declarer][d] = deal.tricks - max(score for _, score in solve_board(board, SolveMode.OptimalOne))
    return tricks


@pytest.mark.parametrize("sizes,count,seed", [((3, 4, 5, 6), 400, 1), ((7, 8, 9), 100, 2)])
def test_skewed_endings_agree_with_dds(sizes, count, seed):
    rng = random.Random(f"whist-speed-{seed}")
    backend = make_backend("fast", tt_size_mb=16)
    wrong = []
    for i in range(count):
        deal = skewed_whist_deal(rng, sizes[i % len(sizes)])
        backend.clear()
        ours = dd_table(deal, backend).tricks
        theirs = dds_tricks(deal)
        if ours != theirs:
            wrong.append(f"{deal.pbn()}: ours {ours}, DDS {theirs}")
    assert not wrong, "\n".join(wrong[:5])


def test_denominations_share_only_no_trump_positions():
    """A new trump keeps the winning-rank table (``rank_table_new_trump``): an entry's key
    names its trump while a card of the trump suit is out, so only positions with no trump
    left (no-trump play whatever the denomination) answer across denominations. One engine
    solves the denominations in two orders, its table emptied only between deals; every
    answer must be DDS's. Keying entries without their trump fails here."""
    rng = random.Random("whist-shared-denominations")
    backend = make_backend("fast", tt_size_mb=16)
    wrong = []
    for i in range(120):
        deal = skewed_whist_deal(rng, (4, 5, 6, 7)[i % 4])
        theirs = dds_tricks(deal)
        for order in (DENOMINATIONS, DENOMINATIONS[::-1]):
            backend.clear()
            for d in order:
                for k, declarer in enumerate(SEATS):
                    leader = SEATS[(k + 1) % 4]
                    north_south = backend.solve(
                        whist_layout(deal, None if d == "n" else d, "N", lead=leader).position())
                    ours = north_south if declarer in "NS" else deal.tricks - north_south
                    if ours != theirs[declarer][d]:
                        wrong.append(f"{deal.pbn()} {''.join(order)}: {declarer} {d} ours {ours}, "
                                     f"DDS {theirs[declarer][d]}")
    assert not wrong, "\n".join(wrong[:5])


@pytest.mark.parametrize("sizes,count,seed", [((4, 5, 6, 7), 300, 1), ((8, 9), 60, 2)])
def test_split_top_trumps_agree_with_dds(sizes, count, seed):
    """Spade contracts where one partnership holds most spades with the top ones split
    between its hands, every seat on lead: the positions where the sure-trick counts
    (the leader's trumps, the partner's through an entry, cash-cross-cash, the sure trump
    tricks) meet trumps that must be cashed crossing between the hands; every answer must
    be DDS's."""
    rng = random.Random(f"whist-split-trumps-{seed}")
    backend = make_backend("fast", tt_size_mb=16)
    wrong = []
    for i in range(count):
        deal = split_trumps_whist_deal(rng, sizes[i % len(sizes)])
        board = EndplayDeal(deal.pbn())
        board.trump = Denom.spades
        for leader in SEATS:
            board.first = PLAYERS[leader]
            theirs = max(score for _, score in solve_board(board, SolveMode.OptimalOne))     # the side on lead
            backend.clear()
            north_south = backend.solve(whist_layout(deal, "s", "N", lead=leader).position())
            ours = north_south if leader in "NS" else deal.tricks - north_south
            if ours != theirs:
                wrong.append(f"{deal.pbn()} {leader} leads: ours {ours}, DDS {theirs}")
    assert not wrong, "\n".join(wrong[:5])
