"""The engine's kernels side by side: modern and baseline (this checkout) against a build with
``-march=native`` (another checkout, e.g. main before the kernels), on the fixed benchmarks of
``side_by_side.py`` (fresh solves of 200 layouts per contract kind and the Whist endings).

Build both trees in place first, then run (one command; rounds alternate the builds so that a
change of the machine's load hits all of them alike):

    python setup.py build_ext --inplace                       # this checkout: modern + baseline
    git archive HEAD | (mkdir ../native-tree && tar -x -C ../native-tree)   # the same sources ...
    (cd ../native-tree && PREF_NATIVE=1 python setup.py build_ext --inplace)   # ... -march=native only
    python benchmarks/kernels.py ../native-tree --rounds 40

(The native tree must search the same way, e.g. the same commit: the nodes are compared.)

Prints the load average before and after, and for each build the median and the fastest of the
rounds per set and in total, and the median (with the quartiles) of its ratio to the native build
within each round (a change of load between rounds cancels out); each round runs the builds in a
rotated order. The nodes searched must be equal (the same search) or the script says so and exits 1.
``--instructions`` counts instructions instead (valgrind's cachegrind, one run per build: exact and
independent of the load; valgrind cannot run a native build that uses AVX-512).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETS = ("misere", "trump", "no-trump", "whist")


def builds(native_tree: Path) -> dict[str, tuple[Path, dict]]:
    """Name -> (tree, environment) of each build compared."""
    checkout = HERE.parent
    return {"native": (native_tree, {}), "modern": (checkout, {"PREF_KERNEL": "modern"}),
            "baseline": (checkout, {"PREF_KERNEL": "baseline"})}


def run_once(tree: Path, env: dict, prefix: list[str] = ()) -> tuple[list[float], list[int]]:
    result = subprocess.run([*prefix, sys.executable, str(HERE / "side_by_side.py"), str(tree)],
                            capture_output=True, text=True, check=True, env={**os.environ, **env})
    fields = result.stdout.split()[1:]
    return [float(x) for x in fields[:4]], [int(x) for x in fields[4:8]]


def instructions(tree: Path, env: dict) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cachegrind.out"
        run_once(tree, env, ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"])
        summary = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M)
        return int(summary.group(1))


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("native_tree", type=Path, help="a checkout built in place with -march=native")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="count instructions (cachegrind)")
    args = parser.parse_args()
    compared = builds(args.native_tree.resolve())
    print(f"load average before: {load()}")
    if args.instructions:
        counts = {}
        for name, (tree, env) in compared.items():
            try:
                counts[name] = instructions(tree, env)
            except subprocess.CalledProcessError as error:
                print(f"{name:9s} not counted: valgrind failed ({error})")
                continue
            print(f"{name:9s} {counts[name]:,} instructions"
                  + "".join(f"  {counts[name] / counts[other]:.3f} x {other}" for other in counts if other != name))
        print(f"load average after: {load()}")
        return 0
    seconds = {name: [] for name in compared}
    nodes = {}
    names = list(compared)
    for round_number in range(args.rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            tree, env = compared[name]
            times, counts = run_once(tree, env)
            seconds[name].append(times)
            nodes.setdefault(name, counts)
            if counts != nodes[name]:
                print(f"{name}: nodes differ between rounds: {counts} != {nodes[name]}")
                return 1
    print(f"load average after: {load()}")
    print(f"{'build':9s} " + " ".join(f"{s:>9s}" for s in SETS)
          + "     total  fastest  (seconds: medians of the rounds)  x native within a round: median [quartiles]")
    for name, rounds in seconds.items():
        medians = [statistics.median(r[i] for r in rounds) for i in range(len(SETS))]
        ratios = [sum(r) / sum(n) for r, n in zip(rounds, seconds["native"])]
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(f"{name:9s} " + " ".join(f"{m:9.3f}" for m in medians)
              + f" {statistics.median(sum(r) for r in rounds):9.3f} {min(sum(r) for r in rounds):8.3f}"
              + f"  {statistics.median(ratios):.3f} [{quartiles[0]:.3f}-{quartiles[2]:.3f}]")
    print("nodes     " + " ".join(f"{n:,}" for n in nodes["native"]))
    if any(counts != nodes["native"] for counts in nodes.values()):
        print("NODES DIFFER: " + "; ".join(f"{name} {counts}" for name, counts in nodes.items()))
        return 1
    print("nodes equal in every build")
    return 0


if __name__ == "__main__":
    sys.exit(main())
