"""Misère enumerations: where the nodes of a warm run go, split by split.

    python benchmarks/misere_splits.py [--set tune|report] [--hands H,...] [--splits N]
                                       [--cold-every K] [--tt-mb MB]

For each declarer hand, the first ``N`` splits (``benchmarks/layouts.py``, lexicographic
order, as an enumeration deals them) are solved with one warm table, MTD(f) from the last
split's value as ``Engine.solve_batch`` does, one ``Engine.reaches`` call a null-window
test (the same nodes as ``root_value``; node counts are exact). Printed per hand:

* how the nodes spread over the splits: the quantiles of nodes per split and the share of
  all nodes in the costliest 1% / 10% / 50% of the splits;
* by the split's value: splits and nodes;
* by test: the nodes of the tests that succeed (the defenders force the target) and fail
  (the declarer stays under it), and the tests a split takes;
* sharing across splits: every ``K``-th split solved again from an empty table (same first
  guess): its nodes cold against warm (how much the table's entries stored by earlier
  splits save).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from pref_engine import Engine  # noqa: E402

from layouts import SETS, split_masks  # noqa: E402


def mtd_tests(eng: Engine, pos, guess: int, tricks: int):
    """``root_value``'s tests from ``guess``: [(target, reached, nodes)], and the value."""
    lo, hi, t = 0, tricks, guess
    tests = []
    while lo < hi:
        t = min(max(t, lo + 1), hi)
        reached = eng.reaches(pos, t)
        tests.append((t, reached, eng.stats["nodes"]))
        if reached:
            lo, t = t, t + 1
        else:
            hi, t = t - 1, t - 1
    return tests, lo


def run_hand(kind: str, hand: str, count: int, cold_every: int, tt_mb: float) -> None:
    first, masks = split_masks(kind, hand)
    masks = masks[:count] if count else masks
    tricks = bin(first.hands[0]).count("1")
    eng = Engine(tt_size_mb=tt_mb)
    cold = Engine(tt_size_mb=tt_mb)
    per_split = []
    by_value = collections.Counter()
    splits_by_value = collections.Counter()
    by_test = collections.Counter()
    tests_per_split = collections.Counter()
    warm_sample = cold_sample = 0
    guess = 0
    for i, (w, e) in enumerate(masks):
        pos = replace(first, hands=(first.hands[0], w, e))
        tests, value = mtd_tests(eng, pos, guess, tricks)
        nodes = sum(n for _, _, n in tests)
        per_split.append(nodes)
        by_value[value] += nodes
        splits_by_value[value] += 1
        tests_per_split[len(tests)] += 1
        for _, reached, n in tests:
            by_test[reached] += n
        if cold_every and i % cold_every == 0:
            cold.clear()
            cold_tests, cold_value = mtd_tests(cold, pos, guess, tricks)
            assert cold_value == value
            warm_sample += nodes
            cold_sample += sum(n for _, _, n in cold_tests)
        guess = value
    total = sum(per_split)
    ranked = sorted(per_split, reverse=True)
    n = len(ranked)

    def share(frac: float) -> str:
        return f"{sum(ranked[:max(1, int(n * frac))]) / total:.0%}"

    q = statistics.quantiles(per_split, n=100)
    print(f"\n### {kind} {hand}: {n:,} splits, {total / n:,.0f} nodes per split\n")
    print(f"nodes per split: median {statistics.median(per_split):,.0f}, p90 {q[89]:,.0f}, "
          f"p99 {q[98]:,.0f}, max {ranked[0]:,}; share of all nodes in the costliest 1% / 10% / "
          f"50% of splits: {share(0.01)} / {share(0.1)} / {share(0.5)}")
    print("\n| value | splits | nodes | nodes per split |\n|---|---|---|---|")
    for v in sorted(splits_by_value):
        print(f"| {v} | {splits_by_value[v]:,} | {by_value[v] / total:.1%} |"
              f" {by_value[v] / splits_by_value[v]:,.0f} |")
    print(f"\ntests: nodes in tests that succeed {by_test[True] / total:.1%}, that fail"
          f" {by_test[False] / total:.1%}; tests a split: "
          + ", ".join(f"{k}: {v:,}" for k, v in sorted(tests_per_split.items())))
    if cold_sample:
        print(f"\nevery {cold_every}th split from an empty table: {cold_sample / max(1, warm_sample):.1f}x"
              f" the warm nodes ({cold_sample * cold_every / n:,.0f} against"
              f" {warm_sample * cold_every / n:,.0f} per split)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=sorted(SETS), default="tune", dest="layout_set")
    parser.add_argument("--hands", help="declarer hands (default: the set's five)")
    parser.add_argument("--splits", type=int, default=10000, help="the first N splits (0: all)")
    parser.add_argument("--cold-every", type=int, default=20, help="0: no cold solves")
    parser.add_argument("--tt-mb", type=float, default=64)
    args = parser.parse_args()
    hands = args.hands.split(",") if args.hands else SETS[args.layout_set]["hands"]
    for hand in hands:
        run_hand("misere", hand, args.splits, args.cold_every, args.tt_mb)


if __name__ == "__main__":
    main()
