"""Whist DD tables side by side: our engine and DDS (via endplay), one thread each.

The same random deals go to both solvers in one run, deal by deal and alternating
which solver goes first (so a busy host slows both alike); every table is also
compared entry by entry. DDS runs ``CalcDDtable`` for full deals and 20
``SolveBoard`` calls (one per denomination and leader) for endings, where
``CalcDDtable`` does not apply. Ours runs :func:`pyanalyzer.whist.dd_table` with
its transposition tables emptied before each deal.

Two sets of deals: ``--set tune`` (seed 20240607, the deals the engine was tuned
on; its first 8 full deals are the tuning sets of benchmarks/RESULTS.md) and
``--set report`` (seed ``whist-report``, deals no tuning step looks at: the
figures against DDS are taken there).

``--nodes`` measures the exact yardstick instead of time: per search (each
denomination and leader, the tables kept warm across a denomination's leaders on
both sides), DDS's trick nodes (``futureTricks.nodes`` of ``SolveBoard``, counted
at the start of each trick) against our table probes (also one per trick start),
in all and split by the search's place in its denomination (the first one starts
from an empty table) and by denomination.

Usage (from the repository root, after ``python setup.py build_ext --inplace``
and ``pip install endplay``)::

    python benchmarks/whist_vs_dds.py --set report           # 200 full deals, time
    python benchmarks/whist_vs_dds.py --set tune --deals 8 --nodes
    python benchmarks/whist_vs_dds.py --cards 10             # endings of 10 cards a hand
    python benchmarks/whist_vs_dds.py --budget 600           # stop after 600 s of ours

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
from pyanalyzer.whist.deal import whist_layout  # noqa: E402
from pyanalyzer.whist.pbn import PBN_SEATS  # noqa: E402

#: The seeds of the two sets: the tuning deals (the historic benchmark seed) and the report deals.
SEEDS = {"tune": 20240607, "report": "whist-report"}
DENOMS = ("s", "h", "d", "c", "n")
#: Our leaders' order within a denomination (``dd_table``'s)
LEADERS = ("N", "S", "E", "W")
DDS_STRAIN = {"s": 0, "h": 1, "d": 2, "c": 3, "n": 4}
DDS_HAND = {"N": 0, "E": 1, "S": 2, "W": 3}


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


def dds_search(pbn: str, denomination: str, leader: str) -> tuple[int, int]:
    """DDS's ``SolveBoard`` for one leader: (the leader side's tricks, DDS's trick nodes).
    Called for the leaders of a denomination one after the other, DDS keeps its table."""
    import endplay._dds as _dds

    deal = _dds.dealPBN()
    deal.trump = DDS_STRAIN[denomination]
    deal.first = DDS_HAND[leader]
    deal.remainCards = pbn.encode()
    result = _dds.futureTricks()
    _dds.SolveBoardPBN(deal, -1, 1, 1, result, 0)
    return result.score[0], result.nodes


def node_counts(deal, engine) -> tuple[list[int], list[int], int]:
    """Per search (denominations in DDS's order, our leaders' order): DDS's trick nodes and
    our table probes; and the number of searches whose answers differ."""
    pbn = deal.pbn()
    dds_nodes, our_probes, differ = [], [], 0
    engine.clear()
    for d in DENOMS:
        for leader in LEADERS:
            theirs, nodes = dds_search(pbn, d, leader)
            dds_nodes.append(nodes)
            north_south = engine.solve(whist_layout(deal, None if d == "n" else d, "N", lead=leader).position())
            our_probes.append(engine.stats["tt_probes"])
            ours = north_south if leader in "NS" else deal.tricks - north_south
            differ += ours != theirs
    return dds_nodes, our_probes, differ


def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="deal_set", choices=tuple(SEEDS), default="report",
                        help="tune: the tuning deals; report: deals no tuning step looks at")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--cards", type=int, default=13, help="cards a hand (13: full deals)")
    parser.add_argument("--seed", default=None, help="another seed instead of the set's")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds of our engine's time after which it stops")
    parser.add_argument("--tt-mb", type=int, default=256, help="table size (pref table's default)")
    parser.add_argument("--nodes", action="store_true",
                        help="count DDS's trick nodes and our table probes per search instead of timing")
    args = parser.parse_args(argv)

    import endplay._dds as _dds

    _dds.SetMaxThreads(1)
    # (a number is a number: --seed 1 draws the deals of the earlier sessions' seed 1)
    seed = SEEDS[args.deal_set] if args.seed is None else int(args.seed) if args.seed.isdigit() else args.seed
    rng = random.Random(seed)
    deals = [random_deal(rng, args.cards) for _ in range(args.deals)]
    full = args.cards == 13
    print(f"Deals: {args.deals} random ({args.deal_set} set, seed {seed!r}), {args.cards} cards a hand; "
          f"{load_average()} at the start.", flush=True)
    if args.nodes:
        return count_nodes(deals, args.tt_mb)

    backend = make_backend("fast", tt_size_mb=args.tt_mb)
    # One untimed deal each first: the first use of our table sets up its huge pages (0.5 s
    # or more, once a process, as for a batch), and DDS allocates its memory.
    warm_up = random_deal(random.Random("warm-up"), args.cards)
    dds_table(warm_up.pbn(), full)
    dd_table(warm_up, backend)
    dds_times, ours, mismatches, nodes = [], [], 0, []
    for i, deal in enumerate(deals):
        if args.budget is not None and sum(ours) > args.budget:
            break

        def run_dds(deal=deal):
            start = time.perf_counter()
            expected = dds_table(deal.pbn(), full)
            dds_times.append(time.perf_counter() - start)
            return expected

        def run_ours(deal=deal):
            backend.clear()
            table = dd_table(deal, backend)
            ours.append(table.seconds)
            nodes.append(table.nodes)
            return table

        if i % 2:
            table, expected = run_ours(), run_dds()
        else:
            expected, table = run_dds(), run_ours()
        if table.tricks != expected:
            mismatches += 1
            print(f"MISMATCH {deal.pbn()}: ours {table.tricks} DDS {expected}", file=sys.stderr)
        print(f"[{len(ours)}/{len(deals)}] {ours[-1]:.3f} s (DDS {dds_times[-1]:.3f} s)",
              file=sys.stderr, flush=True)

    n = len(ours)

    def row(name, times):
        return (f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
                f"{statistics.mean(times) * 1000:.1f} | {max(times) * 1000:.1f} | {sum(times):.2f} |")

    hardest = max(range(n), key=lambda k: dds_times[k])
    print(f"Finished {n} of {len(deals)}; tables that differ: {mismatches}; {load_average()} at the end.")
    print()
    print("| solver | deals | median ms | mean ms | max ms | total s |")
    print("|---|---|---|---|---|---|")
    print(row("DDS (endplay " + _endplay_version() + "), 1 thread", dds_times))
    print(row("ours (fast engine), 1 thread", ours))
    print()
    median_ratio = statistics.median(ours) / statistics.median(dds_times)
    print(f"Ratio ours / DDS: total {sum(ours) / sum(dds_times):.2f}x, median {median_ratio:.2f}x "
          f"(median of per-deal ratios {statistics.median(o / d for o, d in zip(ours, dds_times)):.2f}x); "
          f"DDS's hardest deal (#{hardest + 1}): ours {ours[hardest]:.3f} s, DDS {dds_times[hardest]:.3f} s; "
          f"our slowest: {max(ours):.3f} s; our nodes per table: median {statistics.median(nodes):,.0f}, "
          f"max {max(nodes):,}.")
    return 1 if mismatches else 0


def count_nodes(deals, tt_mb: int) -> int:
    """``--nodes``: DDS's trick nodes against our table probes, per search and in all."""
    from pref_engine import Engine

    engine = Engine(tt_size_mb=tt_mb)
    dds_all, ours_all, differ = [], [], 0
    for i, deal in enumerate(deals):
        dds_nodes, our_probes, bad = node_counts(deal, engine)
        dds_all += dds_nodes
        ours_all += our_probes
        differ += bad
        print(f"[{i + 1}/{len(deals)}] DDS {sum(dds_nodes):,} ours {sum(our_probes):,} "
              f"({sum(our_probes) / max(1, sum(dds_nodes)):.2f}x)", file=sys.stderr, flush=True)
    ratios = sorted(o / d for o, d in zip(ours_all, dds_all) if d)
    print(f"Searches: {len(dds_all)}; answers that differ: {differ}.")
    print(f"Trick nodes: DDS {sum(dds_all):,}, ours (table probes) {sum(ours_all):,}: "
          f"{sum(ours_all) / sum(dds_all):.3f}x in all; per search median {statistics.median(ratios):.2f}x, "
          f"worst {ratios[-1]:.1f}x.")
    # Where the gap is: by the search's place in its denomination (the first starts from an
    # empty table, the others find it warm) and by denomination.
    per_deal = len(DENOMS) * len(LEADERS)
    groups = [(f"leader {leader} ({'first, cold table' if i == 0 else 'warm table'})",
               lambda k, i=i: k % len(LEADERS) == i) for i, leader in enumerate(LEADERS)]
    groups += [(f"denomination {d}", lambda k, j=j: k % per_deal // len(LEADERS) == j)
               for j, d in enumerate(DENOMS)]
    print("| searches | DDS trick nodes | our probes | ratio | our probes beyond DDS's |")
    print("|---|---|---|---|---|")
    for name, member in groups:
        theirs = sum(n for k, n in enumerate(dds_all) if member(k))
        mine = sum(n for k, n in enumerate(ours_all) if member(k))
        print(f"| {name} | {theirs:,} | {mine:,} | {mine / max(1, theirs):.2f}x | {mine - theirs:,} |")
    return 1 if differ else 0


def _endplay_version() -> str:
    from importlib.metadata import version

    return version("endplay")


if __name__ == "__main__":
    sys.exit(main())
