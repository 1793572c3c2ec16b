"""Cost per node: machine-independent figures for engine tuning on a shared machine.

    python benchmarks/cost_per_node.py [--set tune|report] [--fresh N] [--splits N]
                                       [--kinds misere,trump,nt] [--hand SEED] [--cachegrind]

Runs a fixed job per contract kind: the first ``--fresh`` layouts of the set solved from
an empty table, then the first ``--splits`` splits of one declarer hand (default: the
set's first) with the table
kept warm (``Engine.solve_batch``, 64 MB, as the enumerations run). Prints the nodes
(exact) and the wall time (noisy: labelled with the load average). With
``--cachegrind`` each kind's job runs again under ``valgrind --tool=cachegrind`` and the
instructions executed inside the engine (functions whose source is under
``pref_engine``) are divided by the nodes: instructions per node, the same on any
x86-64 machine for the same build (loads from memory are not counted: cache misses show
in wall time only).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from pref_engine import Engine  # noqa: E402

from layouts import SETS, full_layouts, split_masks  # noqa: E402


def run_job(kind: str, fresh: int, count: int, seed: str, hand: str) -> tuple[int, int, float, float]:
    """The job of one kind: (fresh nodes, warm nodes, fresh seconds, warm seconds)."""
    eng = Engine(tt_size_mb=16)
    fresh_nodes = 0
    t = time.perf_counter()
    for pos in full_layouts(kind, seed=seed)[:fresh]:
        eng.clear()
        eng.solve(pos)
        fresh_nodes += eng.stats["nodes"]
    fresh_time = time.perf_counter() - t
    eng = Engine(tt_size_mb=64)
    first, masks = split_masks(kind, hand)
    masks = masks[:count]
    t = time.perf_counter()
    if masks:
        eng.solve_batch(first, (1, 2), (0, 0), masks)
    return fresh_nodes, eng.stats["nodes"] if masks else 0, fresh_time, time.perf_counter() - t


def engine_instructions(out_file: str) -> int:
    """Instructions executed in functions whose source file is under ``pref_engine``."""
    total = 0
    counting = False
    with open(out_file) as f:
        for line in f:
            if line.startswith("fl="):
                counting = "pref_engine" in line
            elif counting and line[:1].isdigit():
                total += int(line.split()[1])
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=sorted(SETS), default="tune", dest="layout_set")
    parser.add_argument("--fresh", type=int, default=50, help="fresh layouts per kind")
    parser.add_argument("--splits", type=int, default=5000, help="warm splits per kind")
    parser.add_argument("--kinds", default="misere,trump,nt")
    parser.add_argument("--hand", help="seed of the warm declarer hand (default: the set's first)")
    parser.add_argument("--cachegrind", action="store_true",
                        help="also count the engine's instructions per node (valgrind)")
    parser.add_argument("--job", help=argparse.SUPPRESS)   # (one kind's job, under valgrind)
    args = parser.parse_args()
    seed = SETS[args.layout_set]["fresh"]
    hand = args.hand or SETS[args.layout_set]["hands"][0]
    if args.job:
        print(*run_job(args.job, args.fresh, args.splits, seed, hand))
        return
    load = os.getloadavg()[0]
    print(f"set {args.layout_set!r}: fresh, first {args.fresh} layouts, 16 MB; warm, first {args.splits}"
          f" splits of hand {hand!r}, 64 MB; load average {load:.1f}\n")
    print("| kind | fresh nodes | warm nodes | fresh ms (wall) | warm µs per split (wall) |"
          " engine instructions per node, fresh | warm |")
    print("|---|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        fn, wn, ft, wt = run_job(kind, args.fresh, args.splits, seed, hand)
        per_node = ["-", "-"]
        if args.cachegrind:
            for i, (fresh, count) in enumerate(((args.fresh, 0), (0, args.splits))):
                with tempfile.TemporaryDirectory() as tmp:
                    out = os.path.join(tmp, "cg.out")
                    proc = subprocess.run(
                        ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
                         sys.executable, __file__, "--job", kind, "--fresh", str(fresh),
                         "--splits", str(count), "--set", args.layout_set, "--hand", hand],
                        capture_output=True, text=True, check=True)
                    nodes = [int(x) for x in re.findall(r"\S+", proc.stdout.strip().splitlines()[-1])[:2]]
                    per_node[i] = f"{engine_instructions(out) / max(1, nodes[i]):.1f}"
        print(f"| {kind} | {fn:,} | {wn:,} | {ft / max(1, args.fresh) * 1e3:.3f} |"
              f" {wt / max(1, args.splits) * 1e6:.1f} | {per_node[0]} | {per_node[1]} |", flush=True)


if __name__ == "__main__":
    main()
