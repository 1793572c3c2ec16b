"""pytest-benchmark runs of the analyzers that solve many layouts (figures in RESULTS.md).

Run: python -m pytest benchmarks/test_bench_analyzers.py --benchmark-only
Each benchmark is one round: they take seconds to minutes, and speed is never
asserted. The extra_info of each records the number of distinct solves.
"""

from __future__ import annotations

from pyanalyzer import PREFERANS, PREFERANS_RULES, Contract, Hand, parse_layout
from pyanalyzer.makeable import analyse_makeable
from pyanalyzer.misere import analyse_unknown_discard, rank_misere_discards
from pyanalyzer.notation import parse_cards
from pyanalyzer.odds import declarer_view

#: Kovalevskaya's declarer: ten cards after discarding the talon's ♣K ♣A; East leads.
KOVALEVSKAYA_HAND = "7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h"
KOVALEVSKAYA = ("contract=misere declarer=S lead=E E=Js,Qs,7c,9c,Td,Jd,Qd,Kd,7h,Jh "
                "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h W=Ks,As,Tc,Jc,Qc,Ad,Th,Qh,Kh,Ah")
#: The published 7♣ deal (South leads).
SEVEN_CLUBS_HAND = "As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah"


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
    layout = parse_layout("contract=7c declarer=S lead=W talon=8s,7s S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah "
                          "W=Ts,Js,Qs,Jc,Kc,7d,9d,Ad,9h,Jh E=9s,Ks,Tc,Qc,8d,Td,Qd,7h,8h,Qh")
    table = benchmark.pedantic(lambda: analyse_makeable(layout), rounds=3, iterations=1)
    benchmark.extra_info.update(highest=str(table.highest_makeable), nodes=table.nodes)
