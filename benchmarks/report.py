"""Measure the engine and print the figures recorded in RESULTS.md.

    python benchmarks/report.py [--set tune|report] [--kinds KIND,...] [--only fresh|warm]
                                [--reference N] [--splits N] [--repeat N] [--tt-mb MB]
                                [--warm-tt-mb MB] [--hands SEED,...] [--per-call]

``--set``: the tuning set (the historical benchmark layouts and hands, the default) or
the report set (fresh seeds and five other declarer hands, ``layouts.SETS``), which no
tuning step looks at.

Fresh solves: 200 fixed-seed full layouts per kind, the table emptied before
each; with ``--repeat N`` each layout is solved N times (table emptied every
time) and its fastest time kept, which filters out the noise of a shared
machine. Reference ratio: the first N layouts of each kind also solved by
``pyanalyzer.engines.reference`` (slow: 10-80 s per deal). Warm: the first N splits
of the defenders' cards for one declarer hand (``--hands``: seeds of the hands,
default: the set's five), table kept warm, solved by
``Engine.solve_batch`` as the enumerations do (``--per-call``: one
``Engine.solve`` call from Python per split, 3-4 µs more each).
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

from pref_engine import Engine  # noqa: E402

from layouts import KINDS, SETS, full_layouts, split_masks, splits  # noqa: E402
from pyanalyzer.engines.reference import reference_tricks  # noqa: E402


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=tuple(SETS), default="tune",
                        help="tune: the layouts tuning looks at; report: fresh seeds it never saw")
    parser.add_argument("--kinds", default=",".join(KINDS), help="contract kinds, comma-separated")
    parser.add_argument("--only", choices=("fresh", "warm"), help="only the fresh or the warm part")
    parser.add_argument("--reference", type=int, default=0, help="layouts per kind for the ratio")
    parser.add_argument("--splits", type=int, default=20000, help="warm splits per kind (0: all)")
    parser.add_argument("--tt-mb", type=float, default=16.0)
    parser.add_argument("--repeat", type=int, default=1, help="fresh solves per layout (min)")
    parser.add_argument("--warm-tt-mb", type=float, default=None, help="warm table (default: --tt-mb)")
    parser.add_argument("--hands", help="seeds of the declarer hands, comma-separated (default: the set's)")
    parser.add_argument("--per-call", action="store_true", help="warm: one Engine.solve call per split")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r} (one of {', '.join(KINDS)})")
    chosen = SETS[args.set]
    hands = args.hands.split(",") if args.hands else list(chosen["hands"])
    print(f"set: {args.set} (fresh seed {chosen['fresh']!r}, hands {','.join(hands)})")
    if args.only != "warm":
        fresh(args, kinds, chosen["fresh"])
    if args.only != "fresh":
        warm(args, kinds, hands)


def fresh(args, kinds, seed: str) -> None:
    eng = Engine(tt_size_mb=args.tt_mb)
    eng.solve(full_layouts(KINDS[0], 1, seed)[0])  # (the entry format follows the deck)
    print(f"table: {eng.tt_bytes} bytes ({eng.tt_entries} entries)\n")
    print("| kind | median ms | p90 ms | max ms | mean ms | nodes median | nodes max | nodes total |"
          " reference ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        layouts = full_layouts(kind, seed=seed)
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
              f" {sum(nodes)} | {ratio} |", flush=True)


def warm(args, kinds, hands) -> None:
    warm_mb = args.warm_tt_mb or args.tt_mb
    print(f"\nWarm: {warm_mb:g} MB table, one thread, "
          f"{'Engine.solve per split' if args.per_call else 'Engine.solve_batch'}\n")
    print("| kind | hand | splits | µs per split (warm) | nodes per split | table hits/probes |")
    print("|---|---|---|---|---|---|")
    for hand in hands:
        for kind in kinds:
            eng = Engine(tt_size_mb=warm_mb)
            n, dt, stats = warm_run(eng, kind, hand, args.splits, args.per_call)
            print(f"| {kind} | {hand} | {n} | {dt / n * 1e6:.1f} | {stats['nodes'] / n:.0f} |"
                  f" {stats['tt_hits'] / max(stats['tt_probes'], 1):.2f} |", flush=True)
            del eng


def warm_run(eng, kind: str, hand: str, count: int, per_call: bool):
    """Solve the first ``count`` splits (0: all) of one hand with the table kept warm;
    returns the number solved, the seconds and the summed statistics."""
    if per_call:
        gen = splits(kind, hand)
        if count:
            gen = itertools.islice(gen, count)
        total = {"nodes": 0, "tt_probes": 0, "tt_hits": 0}
        n = 0
        t = time.perf_counter()
        for pos in gen:
            eng.solve(pos)
            n += 1
            for key in total:
                total[key] += eng.stats[key]
        return n, time.perf_counter() - t, total
    first, masks = split_masks(kind, hand)
    if count:
        masks = masks[:count]
    eng.solve(first)                      # (the entry format follows the deck)
    eng.clear()
    t = time.perf_counter()
    eng.solve_batch(first, (1, 2), (0, 0), masks)
    return len(masks), time.perf_counter() - t, eng.stats


if __name__ == "__main__":
    main()
