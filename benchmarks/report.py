"""Measure the engine and print the figures recorded in RESULTS.md.

    python benchmarks/report.py [--reference N] [--splits N] [--repeat N] [--tt-mb MB]

Fresh solves: 200 fixed-seed full layouts per kind, the table emptied before
each; with ``--repeat N`` each layout is solved N times (table emptied every
time) and its fastest time kept, which filters out the noise of a shared
machine. Reference ratio: the first N layouts of each kind also solved by
``pyanalyzer.reference`` (slow: 10-80 s per deal). Warm: the first N splits
of the defenders' cards for one declarer hand, table kept warm.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from layouts import KINDS, full_layouts, splits  # noqa: E402
from pyanalyzer.reference import reference_tricks  # noqa: E402
from solver import Engine  # noqa: E402


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", type=int, default=0, help="layouts per kind for the ratio")
    parser.add_argument("--splits", type=int, default=20000, help="warm splits per kind (0: all)")
    parser.add_argument("--tt-mb", type=float, default=16.0)
    parser.add_argument("--repeat", type=int, default=1, help="fresh solves per layout (min)")
    args = parser.parse_args()

    eng = Engine(tt_size_mb=args.tt_mb)
    eng.solve(full_layouts(KINDS[0])[0])          # (the entry format follows the deck)
    print(f"table: {eng.tt_bytes} bytes ({eng.tt_entries} entries)\n")
    print("| kind | median ms | p90 ms | max ms | mean ms | nodes median | nodes max |"
          " reference ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in KINDS:
        layouts = full_layouts(kind)
        times, nodes = [float("inf")] * len(layouts), [0] * len(layouts)
        for _ in range(max(1, args.repeat)):
            for i, pos in enumerate(layouts):
                eng.clear()
                t = time.perf_counter()
                eng.solve(pos)
                times[i] = min(times[i], time.perf_counter() - t)
                nodes[i] = eng.stats["nodes"]
        ratio = "-"
        if args.reference:
            ratios = []
            for pos, t_engine in zip(layouts[:args.reference], times, strict=False):
                t = time.perf_counter()
                want = reference_tricks(pos)
                ratios.append((time.perf_counter() - t) / t_engine)
                eng.clear()
                assert eng.solve(pos) == want
            ratio = f"{statistics.median(ratios):,.0f}x (n={len(ratios)})"
        ms = [x * 1e3 for x in times]
        print(f"| {kind} | {statistics.median(ms):.3f} | {quantile(ms, 0.9):.3f} | {max(ms):.2f} |"
              f" {statistics.mean(ms):.3f} | {int(statistics.median(nodes))} | {max(nodes)} |"
              f" {ratio} |")

    print("\n| kind | splits | µs per split (warm) | nodes per split | table hits/probes |")
    print("|---|---|---|---|---|")
    for kind in ("misere", "trump", "nt"):
        eng.clear()
        gen = splits(kind)
        if args.splits:
            gen = itertools.islice(gen, args.splits)
        n = nodes = probes = hits = 0
        t = time.perf_counter()
        for pos in gen:
            eng.solve(pos)
            n += 1
            stats = eng.stats
            nodes += stats["nodes"]
            probes += stats["tt_probes"]
            hits += stats["tt_hits"]
        dt = time.perf_counter() - t
        print(f"| {kind} | {n} | {dt / n * 1e6:.1f} | {nodes / n:.0f} | {hits / max(probes, 1):.2f} |")


if __name__ == "__main__":
    main()
