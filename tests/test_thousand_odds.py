"""Thousand analyzers: the exchange with open cards, the declarer's view, the best give-away and
the odds before the talon, each against an independent computation.

The brute force below is written from the rules alone (docs/rules.md, "Thousand": follow suit, else trump,
else any card; A 10 K Q J 9 worth 11 10 4 3 2 0; a player on lead who has won a trick may lead
the K or Q of a marriage he holds declaring it: his side scores it and that suit is trump from
that trick on), with no memo and no pruning, independent of ``pyanalyzer.model.play`` and of
the engines. The splits are enumerated here with ``itertools.combinations``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from pyanalyzer.analysis.solve import solve
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import THOUSAND
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.model.notation import parse_cards
from pyanalyzer.model.rules import THOUSAND_RULES, MarriageRules, with_marriage_rules
from pyanalyzer.thousand.exchange import bid_limit, highest_bid, rank_exchange, rank_gives
from pyanalyzer.thousand.odds import before_talon, declarer_view, rank_gives_by_odds, talon_deals

ORDER = "9JQKTA"
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGES = {"s": 40, "c": 60, "d": 80, "h": 100}


def brute_points(hands: tuple[frozenset[str], ...], marriages=MARRIAGES, on_first_lead=False) -> int:
    """Seat 0's points (the declarer, on lead to the first trick; seats play 0, 1, 2) with
    best play by all: every move tried."""

    def play(hands, leader, trick, trump, won) -> int:
        if len(trick) == 3:
            led = trick[0][1][1]

            def strength(card: str) -> tuple[int, int]:
                return (2 if card[1] == trump else 1 if card[1] == led else 0, ORDER.index(card[0]))

            winner = max(trick, key=lambda entry: strength(entry[1]))[0]
            gain = sum(POINTS[card[0]] for _, card in trick) if winner == 0 else 0
            if not any(hands):
                return gain
            return gain + play(hands, winner, (), trump, won | {winner})
        seat = (leader + len(trick)) % 3
        hand = hands[seat]
        if trick:
            led = trick[0][1][1]
            options = [(c, None) for c in ([c for c in hand if c[1] == led]
                                           or [c for c in hand if c[1] == trump] or hand)]
        else:
            options = [(c, None) for c in hand]
            if seat in won or on_first_lead:
                for suit in marriages:
                    if "K" + suit in hand and "Q" + suit in hand:
                        options += [("K" + suit, suit), ("Q" + suit, suit)]
        values = []
        for card, declared in options:
            after = list(hands)
            after[seat] = hand - {card}
            gain = marriages[declared] if declared and seat == 0 else 0
            values.append(gain + play(tuple(after), leader, trick + ((seat, card),),
                                      declared or trump, won))
        return max(values) if seat == 0 else min(values)

    return play(hands, 0, (), None, frozenset())


def codes(cards) -> frozenset[str]:
    return frozenset(card.code for card in cards)


def cards(text: str):
    return parse_cards(text, THOUSAND)


def random_ending(rng: random.Random, size: int):
    """The declarer's ``size`` cards, the cards given (one each), the opponents' other cards."""
    deck = list(THOUSAND)
    rng.shuffle(deck)
    kept, gave_w, gave_e = deck[:size], deck[size], deck[size + 1]
    others = deck[size + 2:size + 2 + 2 * (size - 1)]
    return kept, {"W": gave_w, "E": gave_e}, others


def brute_histogram(kept, gave, others, marriages=MARRIAGES, on_first_lead=False) -> Counter:
    size = len(kept) - 1
    found = Counter()
    for west in itertools.combinations(others, size):
        east = [c for c in others if c not in west]
        hands = (codes(kept), codes([gave["W"], *west]), codes([gave["E"], *east]))
        found[brute_points(hands, marriages, on_first_lead)] += 1
    return found


def as_counter(histogram) -> Counter:
    return Counter({value: n for value, n in enumerate(histogram) if n})


# -- bids ----------------------------------------------------------------------------------


def test_highest_bid_and_the_bidding_limit():
    # docs/rules.md, "Thousand": bids from 100 in fives; above 120 only with a marriage, at most 120 + marriages.
    assert [highest_bid(THOUSAND_RULES, p) for p in (99, 100, 104, 105, 171)] == [None, 100, 100, 105, 170]
    assert bid_limit(THOUSAND_RULES, cards("As,Ts,Ah,Kh,Jh,Ac,Kc")) == 120
    assert bid_limit(THOUSAND_RULES, cards("As,Ts,Ah,Kh,Qh,Ac,Kc")) == 220
    assert bid_limit(THOUSAND_RULES, cards("Ks,Qs,Kc,Qc,9d")) == 220
    aces = with_marriage_rules(THOUSAND_RULES, MarriageRules(ace_marriage=200))
    assert bid_limit(aces, cards("As,Ac,Ad,Ah,9s")) == 320
    assert bid_limit(THOUSAND_RULES, cards("As,Ac,Ad,Ah,9s")) == 120


# -- the exchange ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_exchange_in_endings_matches_the_brute_force(seed):
    rng = random.Random(seed)
    deck = list(THOUSAND)
    rng.shuffle(deck)
    size = rng.randint(1, 2)
    hand, talon = deck[:size], deck[size:size + 3]
    west, east = deck[size + 3:2 * size + 3], deck[2 * size + 3:3 * size + 3]
    ranking = rank_gives(THOUSAND_RULES, "S", hand, talon, {"W": west, "E": east}, engine="reference")
    ten = hand + talon
    assert len(ranking.gives) == len(ten) * (len(ten) - 1)
    assert len({(g.given["W"], g.given["E"]) for g in ranking.gives}) == len(ranking.gives)
    for give in ranking.gives:
        kept = [c for c in ten if c not in give.given.values()]
        assert sorted(give.kept) == sorted(kept)
        expected = brute_points((codes(kept), codes([*west, give.given["W"]]), codes([*east, give.given["E"]])))
        assert give.points == expected, give
    points = [g.points for g in ranking.gives]
    assert points == sorted(points, reverse=True)


@pytest.mark.parametrize("seed", range(3))
def test_exchange_of_full_deals_matches_solving_each_give(seed):
    """Each of the 90 gives, written as a layout with gave= (the hands built by the layout reader)
    and solved alone, gives the points of the ranking."""
    rng = random.Random(100 + seed)
    deck = list(THOUSAND)
    rng.shuffle(deck)
    one_line = (f"game=thousand declarer=S lead=S talon={','.join(c.code for c in deck[21:])} "
                f"S={','.join(c.code for c in deck[:7])} W={','.join(c.code for c in deck[7:14])} "
                f"E={','.join(c.code for c in deck[14:21])}")
    layout = parse_layout(one_line)
    ranking = rank_exchange(layout, engine="fast", threads=2)
    assert len(ranking.gives) == 90
    backend = make_backend("fast")
    for give in ranking.gives[::7] + ranking.gives[:3]:
        given = parse_layout(f"{one_line} gave=W:{give.given['W'].code},E:{give.given['E'].code}")
        assert solve(given, backend, cards=False, line=False).declarer_points == give.points, give
    assert ranking.highest_bid == highest_bid(THOUSAND_RULES, ranking.best.points)


def test_exchange_needs_a_layout_before_the_exchange():
    layout = parse_layout("game=thousand declarer=S lead=S S=As,Ah,9c W=Ts,Tc,9s E=Ac,Ad,Js")
    with pytest.raises(LayoutError, match="exchange is not open"):
        rank_exchange(layout, engine="reference")


# -- the declarer's view -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_declarer_view_distribution_matches_the_brute_force(seed):
    rng = random.Random(seed)
    size = rng.choice((2, 3, 3, 4))
    kept, gave, others = random_ending(rng, size)
    view = declarer_view(kept, gave, others=others, engine="fast", threads=rng.choice((1, 2)), tt_mb=4)
    expected = brute_histogram(kept, gave, others)
    assert view.tally.exact
    assert view.tally.splits == view.tally.total == math.comb(2 * (size - 1), size - 1)
    assert as_counter(view.histogram) == expected
    mean = sum(v * n for v, n in expected.items()) / sum(expected.values())
    assert view.expected_points == pytest.approx(mean)
    for level in (100, 120):
        made = sum(n for v, n in expected.items() if v >= level) / sum(expected.values())
        assert view.p_make(level) == pytest.approx(made)


def test_declarer_view_with_the_marriage_options_matches_the_brute_force():
    rules = with_marriage_rules(THOUSAND_RULES, MarriageRules(on_first_lead=True))
    for seed in range(15):
        rng = random.Random(500 + seed)
        kept, gave, others = random_ending(rng, 3)
        view = declarer_view(kept, gave, rules, others=others, engine="reference", threads=1)
        assert as_counter(view.histogram) == brute_histogram(kept, gave, others, on_first_lead=True)


def test_interchangeable_suits_are_solved_once_when_no_marriage_tells_them_apart():
    # Spades and clubs look alike: S holds the ace, the unknown cards are K and 10, the queens
    # are out of play, so no marriage is possible in either: splits mirrored between them are
    # the same layout. 6 splits of {Ks, Ts, Kc, Tc}, 4 orbits.
    kept, gave, others = cards("As,Ac,Ah"), {"W": THOUSAND.card("9", "d"), "E": THOUSAND.card("J", "d")}, \
        cards("Ks,Ts,Kc,Tc")
    view = declarer_view(kept, gave, others=others, engine="fast", threads=1, tt_mb=4)
    assert (view.tally.splits, view.tally.solves) == (6, 4)
    assert as_counter(view.histogram) == brute_histogram(kept, gave, others)


def test_suits_whose_marriages_differ_are_not_interchangeable():
    # The same shape with the queens unknown instead: a marriage of spades (40) or clubs (60) is
    # possible for an opponent, so the suits differ and every split is solved.
    kept, gave, others = cards("As,Ac,9h"), {"W": THOUSAND.card("9", "d"), "E": THOUSAND.card("J", "d")}, \
        cards("Ks,Qs,Kc,Qc")
    view = declarer_view(kept, gave, others=others, engine="fast", threads=1, tt_mb=4)
    assert (view.tally.splits, view.tally.solves) == (6, 6)
    assert as_counter(view.histogram) == brute_histogram(kept, gave, others)
    # With equal values the two marriages are alike again: symmetry applies, the answer is the same.
    equal = {"s": 60, "c": 60, "d": 80, "h": 100}
    rules = with_marriage_rules(THOUSAND_RULES, MarriageRules(values=tuple(equal.items())))
    view = declarer_view(kept, gave, rules, others=others, engine="fast", threads=1, tt_mb=4)
    assert view.tally.solves < view.tally.splits == 6
    assert as_counter(view.histogram) == brute_histogram(kept, gave, others, marriages=equal)


def test_declarer_view_of_a_full_deal_counts_every_split():
    # A sample (quick) of a full deal: C(14,7) = 3,432 splits in all; the sample is seeded.
    kept = cards("As,Ts,Ah,Kh,Qh,Ac,Kc,9d")
    gave = {"W": THOUSAND.card("9", "s"), "E": THOUSAND.card("J", "d")}
    first = declarer_view(kept, gave, bid=120, samples=20, seed=7, threads=1, tt_mb=4)
    again = declarer_view(kept, gave, bid=120, samples=20, seed=7, threads=2, tt_mb=4)
    assert first.tally.total == 20 and not first.tally.enumeration
    assert first.to_dict()["distribution"] == again.to_dict()["distribution"]
    data = first.to_dict()
    assert set(data["p_make_interval_by_bid"]) == set(data["p_make_by_bid"])


def test_declarer_view_refuses_bad_input():
    gave = {"W": THOUSAND.card("9", "s"), "E": THOUSAND.card("J", "d")}
    with pytest.raises(LayoutError, match="keeps 8 cards"):
        declarer_view(cards("As,Ts,Ah"), gave)
    with pytest.raises(LayoutError, match="bad bid 123"):
        declarer_view(cards("As,Ts,Ah,Kh,Qh,Ac,Kc,9d"), gave, bid=123)
    with pytest.raises(LayoutError, match="in both"):
        declarer_view(cards("As,Ts,Ah,Kh,Qh,Ac,Kc,9s"), gave)


# -- the best give-away ---------------------------------------------------------------------


@pytest.mark.parametrize("seed, bid", [(1, 125), (4, 155), (7, 145), (0, 100), (1, 100)])
def test_best_give_away_matches_the_brute_force(seed, bid):
    """Endings of four tricks with the hearts marriage among the six cards (bids of 100 and more
    within reach): every give's P(make) from the reference minimax, split by split. The ranking's best is the best;
    every give enumerated to the end shows its exact value; every give dropped (checked after
    each pair of splits) is truly no better than the best and within its bounds; when the best
    always makes, the others need no enumeration; a give that keeps too few points to reach the
    bid is not searched. (The cases: (1, 125) (4, 155) (7, 145) drop gives and have hopeless
    ones, (0, 100) stops after the first give, (1, 100) makes with no give.)"""
    rng = random.Random(seed)
    rest = [c for c in THOUSAND if c.code not in ("Kh", "Qh")]
    rng.shuffle(rest)
    ten = [THOUSAND.card("K", "h"), THOUSAND.card("Q", "h"), *rest[:4]]
    others = rest[4:10]
    ranking = rank_gives_by_odds(ten, bid, others=others, threads=1, tt_mb=4, screen_samples=3, block=2)
    truth = {}   # (the brute force is slow at four tricks: the reference minimax, layout by layout)
    reference = make_backend("reference")
    for west_card, east_card in itertools.permutations(ten, 2):
        kept = [c for c in ten if c not in (west_card, east_card)]
        made = total = 0
        for west in itertools.combinations(others, 3):
            east = [c for c in others if c not in west]
            hands = {"S": Hand(kept, THOUSAND), "W": Hand([west_card, *west], THOUSAND),
                     "E": Hand([east_card, *east], THOUSAND)}
            layout = Layout(hands, Contract("points", bid), "S", "S", rules=THOUSAND_RULES)
            made += reference.solve(layout.position()) >= bid
            total += 1
        truth[(west_card, east_card)] = made / total
    assert ranking.gives == 30 and not ranking.interrupted
    assert len(ranking.rows) + ranking.unexamined + len(ranking.hopeless) == ranking.decided == 30
    for give in ranking.hopeless:
        assert truth[(give["W"], give["E"])] == 0
    best = ranking.best
    assert best.odds.p_make() == pytest.approx(max(truth.values()))
    if ranking.unexamined:
        assert best.odds.p_make() == 1
    for row in ranking.rows:
        true = truth[(row.given["W"], row.given["E"])]
        if row.complete:
            assert row.odds.p_make() == pytest.approx(true)
        else:
            assert row.dropped
            low, high = row.bounds()
            assert low - 1e-9 <= true <= high + 1e-9 and true <= best.odds.p_make() + 1e-9


# -- before the talon ----------------------------------------------------------------------


def test_before_talon_matches_the_brute_force_sample_by_sample():
    """An ending (two cards each, three in the talon): the same seed deals the same samples; in
    each, the value is the best give's points with open cards."""
    hand = cards("Kh,Qh")
    others = cards("Ah,Th,As,Ts,9c,Jc,Ac")
    result = before_talon(hand, bid=100, samples=12, seed=5, others=others, threads=2, tt_mb=4)
    assert result.samples == 12 and not result.interrupted
    expected = Counter()
    for talon, west, east in talon_deals(hand, others, 3, 12, random.Random(5)):
        ten = list(hand) + list(talon)
        expected[max(brute_points((codes([c for c in ten if c not in pair]), codes([*west, pair[0]]),
                                   codes([*east, pair[1]])))
                     for pair in itertools.permutations(ten, 2))] += 1
    assert as_counter(result.tally.histogram) == expected
    data = result.to_dict()
    assert data["optimistic"] is True and data["seed"] == 5
    low, high = data["p_make_interval"]
    assert low <= data["p_make"] <= high


def test_before_talon_is_reproducible_with_a_seed():
    hand = cards("As,Ts,Ah,Kh,Qh,Ac,Kc")
    first = before_talon(hand, samples=3, seed=11, threads=1, tt_mb=4).to_dict()
    again = before_talon(hand, samples=3, seed=11, threads=2, tt_mb=4).to_dict()
    assert first["distribution"] == again["distribution"] and first["seed"] == again["seed"] == 11
    assert first["bid_limit"] == 220   # 120 + the hearts marriage in the seven cards
