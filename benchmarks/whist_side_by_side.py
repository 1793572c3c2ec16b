"""Whist DD tables of fixed-seed deals for one build: node counts, answers and seconds.

The Whist counterpart of ``side_by_side.py``: run it once per build, naming the build's tree
(a checkout built in place with ``python setup.py build_ext --inplace``), alternating, e.g.

    for i in 1 2 3; do
      for tree in ../old-build .; do python benchmarks/whist_side_by_side.py $tree; done
    done

A restructuring of the engine must leave the node counts and the answers' digest identical.
Each DD table runs as ``pyanalyzer.whist.dd_table`` runs it (denominations s, h, d, c, n, the
leaders N, S, E, W, the table kept warm across one deal's searches and emptied before the
next deal; 64 MB table). The sets: the 50 ten-card endings of ``test_bench_whist.py``, 300
endings of 4 to 9 cards a hand, and the first 8 full deals of ``whist_vs_dds.py``.

Prints the tree, then per set: its name, the nodes of all its searches, a digest of every
answer, the seconds, and the process's CPU seconds (on a shared machine these move less than
the seconds when other processes compete for the cores).
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from side_by_side import engine_class  # noqa: E402

DENOMINATIONS = ("s", "h", "d", "c", "n")
LEADERS = ("N", "S", "E", "W")
SEED = 20240607


def deal_sets():
    """The named sets of deals (see the module's docstring)."""
    from pyanalyzer.whist import random_deal

    rng = random.Random(SEED)
    endings10 = [random_deal(rng, 10) for _ in range(50)]
    rng = random.Random(f"{SEED}-endings")
    endings = [random_deal(rng, rng.randint(4, 9)) for _ in range(300)]
    rng = random.Random(SEED)
    full = [random_deal(rng, 13) for _ in range(8)]
    return {"endings10": endings10, "endings4-9": endings, "full": full}


def run_set(engine, deals) -> tuple[int, str, float, float]:
    """Nodes, a digest of the answers, seconds and CPU seconds for the DD tables of ``deals``."""
    from pyanalyzer.whist.deal import whist_layout

    positions = [[whist_layout(deal, None if d == "n" else d, "N", lead=leader).position()
                  for d in DENOMINATIONS for leader in LEADERS] for deal in deals]
    nodes = 0
    answers = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    for searches in positions:
        engine.clear()
        for position in searches:
            answers.append(engine.solve(position))
            nodes += engine.stats["nodes"]
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return nodes, hashlib.sha1(bytes(answers)).hexdigest()[:12], seconds, cpu_seconds


def main() -> None:
    tree = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    Engine, package = engine_class(tree)
    print(package)
    engine = Engine(tt_size_mb=64)
    for name, deals in deal_sets().items():
        nodes, digest, seconds, cpu_seconds = run_set(engine, deals)
        print(f"{name:12} nodes {nodes:>12,} answers {digest} {seconds:8.3f} s {cpu_seconds:8.3f} s CPU",
              flush=True)


if __name__ == "__main__":
    main()
