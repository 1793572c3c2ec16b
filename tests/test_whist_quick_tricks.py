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


# A finesse in the suit led to the partner: North leads low towards South's ace-queen,
# East (playing before South) holding the king: the king falls to the ace or the queen
# wins, and South keeps the lead. North leads; the last ending has hearts trumps.
FINESSE_ENTRY = [
    ("N:2...432 K3.3.3. AQ.4.4. ...AKQJ", None, 4),   # the finesse: all four
    ("N:2...432 4.3.3.Q AQ.4.4. K5...AK", None, 3),   # the king plays after South
    ("N:2...432 KJ.3.3. AT.4.4. ...AKQJ", None, 3),   # the card below the king is East's
    ("N:.2..432 K3.3.3. AQ.4.4. ...AKQJ", None, 3),   # North holds no spade to lead
    ("N:2...432 K.3.32. AQ5...5 ...AKQJ", None, 3),   # the king alone: South's count has the length
    ("N:2...432 K3..32. AQ..54. 4.A..AK", "h", 1),    # West, void after a round, ruffs
]


# Cash, cross to the partner's count, back to the leader's run in that suit: North leads
# low to South's ace, South cashes his aces and returns a spade to North's king. North
# leads; the last ending has diamonds trumps.
RETURN_TO_LEADER = [
    ("N:K2...32 54.5.5. A3.A.A. ...AKQJ", None, 4),   # all four
    ("N:Q2...32 K4.5.5. A3.A.A. ...AKQJ", None, 3),   # the card below the ace is East's
    ("N:K...432 54.5.5. A3.A.A. ...AKQJ", None, 3),   # North's king goes to the ace
    ("N:K2...32 54.5.5. A.A.A.4 3...AKQ", None, 3),   # South has no spade to return
    ("N:K2...32 5.5.5.4 A3.A..5 4...AKQ", "d", 2),    # East ruffs the return
    ("N:KJ2..2. Q54.A.. A3..43. 6.K.AK.", None, 2),    # East's queen splits North's king-jack
]


@pytest.mark.parametrize(("pbn", "trump", "tricks"), FINESSE_ENTRY + RETURN_TO_LEADER)
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_partner_suit_endings(pbn, trump, tricks, engine):
    layout = whist_layout(Deal.from_pbn(pbn), trump, "N", lead="N")
    assert solve(layout, engine=engine).declarer_tricks == tricks


@pytest.mark.parametrize("seed", [18, 1818])
def test_partner_suit_endings_equal_reference(seed, fast_backend, reference_backend):
    # endings of 4 and 5 cards, every denomination and leader
    rng = random.Random(seed)
    for _ in range(30):
        deal = random_deal(rng, rng.choice((4, 5)))
        assert dd_table(deal, fast_backend).tricks == dd_table(deal, reference_backend).tricks, deal.pbn()


# A bound stored from a count must hold for every position its deciding cards match. Each
# pair: the count decides A (its entry stored), and B differs from A in the owner of a
# card the count relied on; B solved after A on the same engine must still equal the
# reference (an entry missing that card would answer B with A's value, one trick too many).
STORED_THEN_MATCHED = [
    # the finesse through East's king (B: the card below South's ace is West's, who plays
    # after South)
    ("N:2..432. K..AKQ. AQ.A..2 J4...AK", "N:2..432. 3..AKQ. AT.A..2 J4...AK"),
    # back to North's king (B: the card below South's ace is East's)
    ("N:K2...32 54.5.5. A3.A.A. ...AKQJ", "N:Q2...32 K4.5.5. A3.A.A. ...AKQJ"),
    # North's own count cashed first (B: the heart ace is East's)
    ("N:K2.A2.. 54.K3.. A3..54. ..AK.AK", "N:K2.32.. 54.AK.. A3..54. ..AK.AK"),
]


@pytest.mark.parametrize(("first", "second"), STORED_THEN_MATCHED)
def test_entries_of_the_partner_suit_counts_hold_where_they_match(first, second, reference_backend):
    engine = make_backend("fast")
    for pbn in (first, second):
        position = whist_layout(Deal.from_pbn(pbn), None, "N", lead="N").position()
        assert engine.solve(position) == reference_backend.solve(position), pbn
