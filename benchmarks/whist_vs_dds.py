"""Whist DD tables side by side: our engine and DDS (via endplay), one thread each.

The same random deals (fixed seed) go to both solvers in one run; every table
is also compared entry by entry. DDS runs ``CalcDDtable`` for full deals and
20 ``SolveBoard`` calls (one per denomination and leader) for endings, where
``CalcDDtable`` does not apply. Ours runs :func:`pyanalyzer.whist.dd_table`
with the transposition table emptied before each deal.

Usage (from the repository root, after ``python setup.py build_ext --inplace``
and ``pip install endplay``)::

    python benchmarks/whist_vs_dds.py                      # 200 full deals
    python benchmarks/whist_vs_dds.py --cards 10           # 200 endings of 10 cards a hand
    python benchmarks/whist_vs_dds.py --budget 600         # stop our engine after 600 s

With ``--budget`` the ratio is taken over the deals both solvers finished.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyanalyzer.engines.registry import make_backend  # noqa: E402
from pyanalyzer.whist import dd_table, random_deal  # noqa: E402
from pyanalyzer.whist.pbn import PBN_SEATS  # noqa: E402

SEED = 20240607
DENOMS = ("s", "h", "d", "c", "n")


def dds_table(pbn: str, full: bool) -> dict[str, dict[str, int]]:
    """The DD table of ``pbn`` from DDS, in our ``tricks[declarer][denomination]`` form."""
    from endplay.dds import calc_dd_table, solve_board
    from endplay.types import Deal, Denom, Player

    denoms = {"s": Denom.spades, "h": Denom.hearts, "d": Denom.diamonds, "c": Denom.clubs, "n": Denom.nt}
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    deal = Deal(pbn)
    if full:
        table = calc_dd_table(deal)
        return {seat: {d: table[denoms[d], players[seat]] for d in DENOMS} for seat in PBN_SEATS}
    total = len(deal[Player.north])
    tricks: dict[str, dict[str, int]] = {seat: {} for seat in PBN_SEATS}
    for d in DENOMS:
        for i, declarer in enumerate(PBN_SEATS):
            leader = PBN_SEATS[(i + 1) % 4]
            deal.first, deal.trump = players[leader], denoms[d]
            best = max(score for _, score in solve_board(deal))  # the leader's side
            tricks[declarer][d] = total - best
    return tricks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--cards", type=int, default=13, help="cards a hand (13: full deals)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds of our engine's time after which it stops")
    parser.add_argument("--tt-mb", type=int, default=256, help="table size (pref table's default)")
    args = parser.parse_args(argv)

    import endplay._dds as _dds

    _dds.SetMaxThreads(1)
    rng = random.Random(args.seed)
    deals = [random_deal(rng, args.cards) for _ in range(args.deals)]
    full = args.cards == 13

    dds_times, dds_tables = [], []
    for deal in deals:
        start = time.perf_counter()
        dds_tables.append(dds_table(deal.pbn(), full))
        dds_times.append(time.perf_counter() - start)

    backend = make_backend("fast", tt_size_mb=args.tt_mb)
    ours, mismatches, nodes = [], 0, []
    for deal, expected in zip(deals, dds_tables):
        if args.budget is not None and sum(ours) > args.budget:
            break
        backend.clear()
        table = dd_table(deal, backend)
        ours.append(table.seconds)
        nodes.append(table.nodes)
        if table.tricks != expected:
            mismatches += 1
            print(f"MISMATCH {deal.pbn()}: ours {table.tricks} DDS {expected}", file=sys.stderr)
        print(f"[{len(ours)}/{len(deals)}] {table.seconds:.3f} s (DDS {dds_times[len(ours) - 1]:.3f} s)",
              file=sys.stderr, flush=True)

    n = len(ours)
    both = dds_times[:n]

    def row(name, times):
        return (f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
                f"{statistics.mean(times) * 1000:.1f} | {max(times) * 1000:.1f} | {sum(times):.2f} |")

    print(f"Deals: {args.deals} random, {args.cards} cards a hand, seed {args.seed}; "
          f"ours finished {n}; tables that differ: {mismatches}.")
    print()
    print("| solver | deals | median ms | mean ms | max ms | total s |")
    print("|---|---|---|---|---|---|")
    print(row("DDS (endplay " + _endplay_version() + "), 1 thread", dds_times))
    if n < len(deals):
        print(row("DDS, same deals as ours", both))
    print(row("ours (fast engine)", ours))
    print()
    print(f"Ratio ours / DDS on the same {n} deals: total {sum(ours) / sum(both):.1f}x, "
          f"median of per-deal ratios {statistics.median(o / d for o, d in zip(ours, both)):.1f}x; "
          f"our nodes per table: median {statistics.median(nodes):,.0f}, max {max(nodes):,}.")
    return 1 if mismatches else 0


def _endplay_version() -> str:
    from importlib.metadata import version

    return version("endplay")


if __name__ == "__main__":
    sys.exit(main())
