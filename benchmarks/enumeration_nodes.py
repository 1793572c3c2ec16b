"""Exact nodes of whole enumerations: one engine, every split in order through ``solve_batch``.

    python benchmarks/enumeration_nodes.py [--set tune|report] [--kinds misere,trump]
                                           [--hands H,...] [--tt-mb MB] [--every K] [--block N]

For each declarer hand (``benchmarks/layouts.py``) every split of the defenders' 20 cards
(lexicographic, as an enumeration deals them; ``--every K``: every K-th only) is solved by one
engine with a fixed table (128 MB: the enumerations' two threads share one of 2 x 64 MB), in
batches of ``--block`` splits (the product's 8,192). One engine and no threads, so the node
count is exact and repeatable (the product's two threads sharing a table vary a little run to
run): the yardstick for a change of the warm search or of ``solve_batch``'s first guesses.
Printed per hand: nodes a split, a hash of the values (equal before and after an exact
change), and the seconds (a hint only on a shared machine).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from pref_engine import Engine  # noqa: E402

from layouts import SETS, split_masks  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=sorted(SETS), default="tune", dest="layout_set")
    parser.add_argument("--kinds", default="misere")
    parser.add_argument("--hands", help="seeds of the declarer hands (default: the set's five)")
    parser.add_argument("--tt-mb", type=float, default=128)
    parser.add_argument("--every", type=int, default=1, help="every K-th split only")
    parser.add_argument("--block", type=int, default=8192, help="splits a solve_batch call")
    args = parser.parse_args()
    hands = args.hands.split(",") if args.hands else SETS[args.layout_set]["hands"]
    print("| kind | hand | splits | nodes a split | values | seconds |")
    print("|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        for hand in hands:
            first, masks = split_masks(kind, hand)
            masks = masks[::args.every]
            engine = Engine(tt_size_mb=args.tt_mb)
            nodes, values = 0, []
            start = time.perf_counter()
            for b in range(0, len(masks), args.block):
                values += engine.solve_batch(first, (1, 2), (0, 0), masks[b:b + args.block])
                nodes += engine.stats["nodes"]
            digest = hashlib.sha1(bytes(values)).hexdigest()[:12]
            print(f"| {kind} | {hand} | {len(masks):,} | {nodes / len(masks):,.2f} | {digest} | "
                  f"{time.perf_counter() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
