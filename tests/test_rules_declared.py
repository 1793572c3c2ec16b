"""A rule set declares its game; nothing is inferred from the number of seats or from ``book``.

Facts of the games: ``docs/rules.md`` (Preferans: ranks A K Q J 10 9 8 7, ace high; a void
player must trump; the declarer plays alone against two defenders) and the README's Whist
section (seats N E S W, partners opposite, a contract that is just the trump or a bid of
6 + n tricks). Whist's void player may play any card, as in bridge.
"""

from dataclasses import replace

import pytest

from pyanalyzer.analysis.solve import solve
from pyanalyzer.errors import NotationError
from pyanalyzer.model.cards import WHIST
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.model.rules import PREFERANS_RULES, WHIST_RULES
from pyanalyzer.whist.bid import BidWhistDeal, bid_whist_position

PREFERANS_LAYOUT = "contract=6s declarer=S lead=S S=As,Ks W=7h,8h E=7d,8d"
WHIST_LAYOUT = "game=whist contract=nt declarer=N lead=N N=As,Ah E=2s,2h S=3s,3h W=4s,4h"


def test_preferans_declares_its_game():
    rules = PREFERANS_RULES
    assert (rules.game, rules.sides, rules.follow, rules.objective) == (
        "preferans", "alone", "trump", "tricks")
    assert rules.must_trump and rules.bidding and rules.heuristics == "solo"
    assert [rank.letter for rank in rules.rank_order] == list("AKQJT987")


def test_whist_declares_its_game():
    rules = WHIST_RULES
    assert (rules.game, rules.sides, rules.follow, rules.objective) == (
        "whist", "partnerships", "any", "tricks")
    assert not rules.must_trump and not rules.bidding and rules.heuristics == "partnership"
    assert rules.book == 6 and rules.partnerships == (("N", "S"), ("E", "W"))
    assert [rank.letter for rank in rules.rank_order] == list("AKQJT98765432")


def test_a_three_seat_game_that_is_not_preferans_gets_plain_heuristics():
    other = replace(PREFERANS_RULES, game="three-seat test game")
    assert len(other.seats) == 3 and other.heuristics == "plain"
    assert replace(other, heuristics_override="solo").heuristics == "solo"
    four_seats = replace(WHIST_RULES, game="four-seat test game")
    assert four_seats.heuristics == "plain"


@pytest.mark.parametrize("change", [
    {"follow": "sometimes"},
    {"sides": "everyone"},
    {"objective": "glory"},
    {"heuristics_override": "clever"},
    {"sides": "partnerships"},  # a partnerships game without partnerships
])
def test_an_unknown_declaration_is_refused(change):
    with pytest.raises(ValueError):
        replace(PREFERANS_RULES, **change)


def test_partnerships_must_cover_the_seats_once():
    with pytest.raises(ValueError, match="cover the seats"):
        replace(WHIST_RULES, partnerships=(("N", "S"), ("E", "N")))


def test_a_bare_trump_contract_follows_bidding_not_the_book():
    # Whist without a book still has no bidding; Preferans with a book still has bidding.
    assert Contract.parse("s", replace(WHIST_RULES, book=0)).level is None
    with pytest.raises(NotationError):
        Contract.parse("s", replace(PREFERANS_RULES, book=6))
    assert Contract.parse("nt", replace(PREFERANS_RULES, bidding=False)).trump is None


def test_the_verdict_names_partnerships_as_declared():
    # A Whist layout played out: both tricks to North-South (regression value, checked by hand:
    # North's two aces win both tricks, no trump).
    layout = parse_layout(WHIST_LAYOUT)
    verdict = solve(layout, engine="reference").verdict()
    assert verdict.startswith("North-South take 2")
    alone = replace(layout, rules=replace(WHIST_RULES, sides="alone", partnerships=()))
    assert solve(alone, engine="reference").verdict().startswith("North takes 2")


def test_positions_carry_the_declared_heuristics():
    preferans, whist = parse_layout(PREFERANS_LAYOUT), parse_layout(WHIST_LAYOUT)
    assert preferans.position().heuristics == "solo"
    assert whist.position().heuristics == "partnership"
    other = replace(preferans, rules=replace(PREFERANS_RULES, game="three-seat test game"))
    assert other.position().heuristics == "plain"
    told = replace(other, rules=replace(other.rules, heuristics_override="solo"))
    assert told.position().heuristics == "solo"
    deal = BidWhistDeal.from_pbn("N:2...+B K3... ..2.A ..3.2")
    assert bid_whist_position(deal, WHIST.suits[0], "uptown", "N", "N").heuristics == "partnership"
