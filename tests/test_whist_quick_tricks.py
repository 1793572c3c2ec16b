"""Whist quick tricks in partition search: cash, cross to the partner's entry, cash.

The fast engine's no-trump bounds must agree with the plain reference search,
including endings where the side on lead needs both hands' top runs.
"""

from __future__ import annotations

import random

import pytest

from pyanalyzer.analysis.solve import solve
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.whist import Deal, dd_table, random_deal, whist_layout

# North cashes the spade ace and king, crosses with the heart two to South's ace: three
# tricks; the fourth goes to West's club or diamond. North alone counts two, South one.
CROSS = "N:AK.2..2 QJ.KQ.. .A.32.3 .J.K.A4"


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_cash_cross_cash_ending(engine):
    deal = Deal.from_pbn(CROSS)
    layout = whist_layout(deal, None, "N", lead="N")
    assert solve(layout, engine=engine).declarer_tricks == 3


def test_cash_cross_cash_table_equals_reference():
    # every leader and denomination of the ending (the cross count decides North's lead)
    deal = Deal.from_pbn(CROSS)
    table = dd_table(deal, make_backend("fast"))
    assert table.tricks == dd_table(deal, make_backend("reference")).tricks


def test_no_trump_endings_with_voids_equal_reference(fast_backend, reference_backend):
    rng = random.Random(2026)
    for _ in range(12):
        deal = random_deal(rng, 5)
        assert dd_table(deal, fast_backend).tricks == dd_table(deal, reference_backend).tricks, deal.pbn()


# The leader's top run, then a low card to the partner's card next below it (DDS's second
# best at the partner): each hand needs a card more than the run; then the partner may cash
# his own. North leads, no-trump.
RUN_THEN_PARTNER = [
    ("N:A2... QJ... K3... .AK..", 2),   # ace, then the two to the king
    ("N:A2... QJ... K.2.. .AK..", 1),   # South's king falls under the ace
    ("N:A..2. QJ... K3... ..AK.", 1),   # North has no low spade to reach the king
    ("N:AQ2... KJ.2.. T3.3.. .AKQ..", 1),  # the card below the run is East's king
    ("N:A2...2 QJ..K. K3..A. ..Q.AK", 3),  # then South, on lead, cashes his diamond ace
]


@pytest.mark.parametrize(("pbn", "tricks"), RUN_THEN_PARTNER)
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_run_then_partner_endings(pbn, tricks, engine):
    layout = whist_layout(Deal.from_pbn(pbn), None, "N", lead="N")
    assert solve(layout, engine=engine).declarer_tricks == tricks


def test_run_then_partner_endings_equal_reference(fast_backend, reference_backend):
    # no-trump endings with the top cards split between the partners
    rng = random.Random(17)
    for _ in range(40):
        deal = random_deal(rng, rng.choice((3, 4, 5)))
        assert dd_table(deal, fast_backend).tricks == dd_table(deal, reference_backend).tricks, deal.pbn()
