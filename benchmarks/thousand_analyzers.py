"""Timings of the Thousand analyzers (figures in RESULTS.md, "Thousand analyzers").

Run from the repository root (after building the engine):

    python benchmarks/thousand_analyzers.py [--deals 20] [--views 5] [--talon-samples 10] [--seed 1]

* the exchange: every give (90) of random deals with open cards, ``--threads`` engines made
  once and kept for every deal (their tables warm), each deal timed;
* the declarer's view: all 3,432 splits for the best give of random deals, on ``--threads``;
* before the talon: seconds per sample (90 gives solved for each), on ``--threads``;
* with ``--give-away``: the best give-away of one ten-card hand by P(make 120) (minutes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import THOUSAND
from pyanalyzer.model.rules import THOUSAND_RULES
from pyanalyzer.thousand.exchange import rank_gives
from pyanalyzer.thousand.odds import before_talon, declarer_view, rank_gives_by_odds


def random_deal(rng: random.Random):
    deck = list(THOUSAND)
    rng.shuffle(deck)
    return deck[:7], deck[21:], {"W": deck[7:14], "E": deck[14:21]}


def summary(times: list[float]) -> str:
    return (f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
            f"mean {statistics.mean(times):.3f} s over {len(times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--views", type=int, default=5)
    parser.add_argument("--talon-samples", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--give-away", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engines = [make_backend("fast") for _ in range(args.threads)]

    times, bests = [], []
    for _ in range(args.deals):
        hand, talon, opponents = random_deal(rng)
        start = time.perf_counter()
        ranking = rank_gives(THOUSAND_RULES, "S", hand, talon, opponents, engine=engines)
        times.append(time.perf_counter() - start)
        bests.append(ranking.best)
    print(f"exchange (90 gives, open cards, {args.threads} threads): {summary(times)}")

    times = []
    for best in bests[:args.views]:
        view = declarer_view(best.kept, best.given, threads=args.threads)
        times.append(view.tally.seconds)
        print(f"  declarer's view: {view.tally.splits:,} splits, {view.tally.solves:,} solved, "
              f"{view.tally.seconds:.2f} s, {view.tally.nodes / view.tally.solves:,.0f} nodes per layout, "
              f"expected {view.expected_points:.1f}")
    print(f"declarer's view (3,432 splits, {args.threads} threads): {summary(times)}")

    hand, _talon, _opponents = random_deal(rng)
    estimate = before_talon(hand, samples=args.talon_samples, seed=args.seed, threads=args.threads)
    print(f"before the talon: {estimate.samples} samples in {estimate.seconds:.2f} s "
          f"({estimate.seconds / estimate.samples:.3f} s per sample, {args.threads} threads)")

    if args.give_away:
        hand, talon, _opponents = random_deal(rng)
        ranking = rank_gives_by_odds(hand + talon, 120, threads=args.threads)
        complete = sum(row.complete for row in ranking.rows)
        pruned = sum(row.pruned for row in ranking.rows)
        print(f"best give-away (bid 120): {ranking.seconds:.1f} s, {complete} gives enumerated to the end, "
              f"{pruned} dropped early")


if __name__ == "__main__":
    main()
