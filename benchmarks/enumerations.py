"""Whole enumerations through the product's path: every split of the defenders' cards.

    python benchmarks/enumerations.py [--set tune|report] [--kinds misere,trump,nt]
                                      [--hands SEED,...] [--threads N] [--limit N] [--tt-mb MB]

For each declarer hand of the set (``benchmarks/layouts.py``: the declarer, seat 0, on
lead) and contract kind, all C(20,10) = 184,756 splits of the defenders' 20 cards are
solved by ``pyanalyzer.analysis.splits.solve_splits``, as ``pref contract``/``pref misere``
run them: suit symmetry reduction, blocks of splits per thread, each thread an engine with
its share of one table (``--tt-mb``, solve_splits' default), the histograms merged in Python
between blocks. Printed per hand: the wall time, the splits solved after the symmetry
reduction, nodes per solve (exact), and the load average when the run ended (the machine
may be shared: wall times are only comparable at the same load). ``--limit N``: the first
N splits only (quick checks).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from layouts import SETS, split_masks  # noqa: E402
from pyanalyzer.analysis import splits as splits_module  # noqa: E402
from pyanalyzer.analysis.splits import solve_splits  # noqa: E402
from pyanalyzer.engines.registry import SPLITS_TT_MB  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=sorted(SETS), default="tune", dest="layout_set")
    parser.add_argument("--kinds", default="misere,trump")
    parser.add_argument("--hands", help="seeds of the declarer hands (default: the set's five)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="the first N splits only (0: all)")
    parser.add_argument("--tt-mb", type=int, default=SPLITS_TT_MB,
                        help=f"each thread's share of the table (solve_splits' default: {SPLITS_TT_MB})")
    args = parser.parse_args()
    hands = args.hands.split(",") if args.hands else SETS[args.layout_set]["hands"]
    if args.limit:
        # solve_splits draws its splits from the module's all_splits: keep the first N (the
        # tally is then marked partial; quick checks and instruction counts only)
        everything = splits_module.all_splits
        splits_module.all_splits = lambda unknown, sizes, start=0: itertools.islice(
            everything(unknown, sizes, start), max(0, args.limit - start))   # (a worker's share starts at start)
    print(f"set {args.layout_set!r}, {args.threads} threads, solve_splits ({args.tt_mb} MB a thread)\n")
    print("| kind | hand | splits | solved | seconds | µs per split | nodes per solve | load |")
    print("|---|---|---|---|---|---|---|---|")
    worst = {}
    for kind in args.kinds.split(","):
        for hand in hands:
            first, masks = split_masks(kind, hand)
            unknown = masks[0][0] | masks[0][1]
            template = replace(first, hands=(first.hands[0], 0, 0))
            t = time.perf_counter()
            tally = solve_splits(template, (1, 2), (10, 10), unknown, threads=args.threads,
                                 tt_size_mb=args.tt_mb)
            seconds = time.perf_counter() - t
            worst[kind] = max(worst.get(kind, 0.0), seconds)
            print(f"| {kind} | {hand} | {tally.splits:,} | {tally.solves:,} | {seconds:.2f} |"
                  f" {seconds / max(1, tally.splits) * 1e6:.1f} | {tally.nodes / max(1, tally.solves):.0f} |"
                  f" {os.getloadavg()[0]:.1f} |", flush=True)
    print("\nslowest hand: " + ", ".join(f"{kind} {s:.2f} s" for kind, s in worst.items()))


if __name__ == "__main__":
    main()
