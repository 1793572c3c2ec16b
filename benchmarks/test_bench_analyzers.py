"""pytest-benchmark runs of the analyzers that solve many layouts (figures in RESULTS.md).

Run: python -m pytest benchmarks/test_bench_analyzers.py --benchmark-only
Each benchmark is one round: they take seconds to minutes, and speed is never
asserted. The extra_info of each records the number of distinct solves.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import published_layouts  # noqa: E402  (the published deals' one home: layouts/, read by tests/)

from pyanalyzer import PREFERANS, PREFERANS_RULES, Contract, Hand, parse_layout
from pyanalyzer.model.notation import parse_cards
from pyanalyzer.preferans.makeable import analyse_makeable
from pyanalyzer.preferans.misere import analyse_unknown_discard, rank_misere_discards
from pyanalyzer.preferans.odds import declarer_view

#: Kovalevskaya's declarer: ten cards after discarding the talon's ♣K ♣A; East leads.
KOVALEVSKAYA_HAND = published_layouts.hand_codes("kovalevskaya", "S")
KOVALEVSKAYA = published_layouts.KOVALEVSKAYA.one_line
#: The published 7♣ deal (test 5, South leads).
SEVEN_CLUBS_HAND = published_layouts.hand_codes("test-05", "S")


def test_misere_catch_probability_all_splits(benchmark):
    hand = Hand.parse(KOVALEVSKAYA_HAND, PREFERANS)

    def run():
        return declarer_view(hand, "S", parse_cards("Kc,Ac", PREFERANS), Contract("misere"), "E", threads=2)

    view = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(splits=view.tally.splits, solves=view.tally.solves, p_caught=view.p_caught)


def test_misere_best_discard_of_twelve(benchmark):
    twelve = parse_cards(KOVALEVSKAYA_HAND + ",Kc,Ac", PREFERANS)
    ranking = benchmark.pedantic(lambda: rank_misere_discards(twelve, "S", "E", PREFERANS_RULES, threads=2),
                                 rounds=1, iterations=1)
    benchmark.extra_info.update(classes=len(ranking.ranked), pruned=len(ranking.pruned),
                                best=[c.code for c in ranking.ranked[0].discard])


def test_misere_unknown_discard(benchmark):
    layout = parse_layout(KOVALEVSKAYA)
    result = benchmark.pedantic(lambda: analyse_unknown_discard(layout, parse_cards("Kc,Ac", PREFERANS)),
                                rounds=1, iterations=1)
    benchmark.extra_info.update(status=result.status, nodes=result.nodes)


def test_trump_contract_distribution_all_splits(benchmark):
    hand = Hand.parse(SEVEN_CLUBS_HAND, PREFERANS)

    def run():
        return declarer_view(hand, "S", parse_cards("8s,7s", PREFERANS), Contract.parse("7c", PREFERANS_RULES),
                             "S", threads=2)

    view = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(splits=view.tally.splits, solves=view.tally.solves, p_make=view.p_make)


def test_makeable_table(benchmark):
    seven_clubs = published_layouts.BY_NAME["test-05"].one_line.replace(" lead=S ", " lead=W ")
    layout = parse_layout(seven_clubs + " talon=8s,7s")
    table = benchmark.pedantic(lambda: analyse_makeable(layout), rounds=3, iterations=1)
    benchmark.extra_info.update(highest=str(table.highest_makeable), nodes=table.nodes)
