"""Advice speed (issue 22 targets): a whole 10-card Preferans decision from the declarer's seat.

Random full deals (``tests/positions.py``, seeded): South declares a trump contract, his
discard is the two extra cards dealt, and he leads to the first trick seeing only his own
hand: every one of his legal cards is judged over the C(20, 10) = 184,756 ways West's and
East's cards lie (``exact``; target <= 20 s on 2 cores), or over 2,000 seeded random ones
(``sample``; target <= 1 s). ``discard``: the same deals before the discard (the two extra
cards as the talon), South asked which two to discard (``advise_discard``: the twelve-card
ranking, every class on 400 seeded layouts, the best three over all 184,756). Node counts are
exact (the same on any machine); seconds depend on the load, printed with them, and the
process's CPU seconds (all threads) beside them.

    python benchmarks/advice_speed.py --set report
    python benchmarks/advice_speed.py --set tune --only sample --count 5
    python benchmarks/advice_speed.py --set report --only discard

Ctrl-C stops; the deals finished are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from positions import deal_hands  # noqa: E402

from pyanalyzer.analysis.advise import advise  # noqa: E402
from pyanalyzer.model.contract import Contract  # noqa: E402
from pyanalyzer.model.layout import Layout  # noqa: E402
from pyanalyzer.model.rules import PREFERANS_RULES  # noqa: E402
from pyanalyzer.preferans.discard_advice import advise_discard  # noqa: E402

SEEDS = {"tune": "advice-tune", "report": "advice-report"}


def deals(seed: str, count: int) -> list[Layout]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hands, extra = deal_hands(rng, 10, 2, suits_drawn=None)
        contract = Contract.parse(rng.choice(["6s", "7c", "6d", "8h"]), PREFERANS_RULES)
        out.append(Layout(hands, contract, "S", "S", discard=tuple(extra)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SEEDS), default="tune")
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--only", choices=["exact", "sample", "discard"])
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    modes = [args.only] if args.only else ["sample", "exact"]
    print(f"set {args.set}, {args.count} deals, {args.threads} threads, load at start {os.getloadavg()[0]:.2f}")
    try:
        for number, layout in enumerate(deals(SEEDS[args.set], args.count), start=1):
            for mode in modes:
                start, cpu_start = time.perf_counter(), time.process_time()
                if mode == "discard":
                    before = Layout(layout.hands, layout.contract, "S", "S", talon=layout.discard)
                    ranked = advise_discard(before, "S", seed=number, threads=args.threads)
                    print(f"deal {number} {layout.contract.code:<3} discard {ranked.layouts:,} layouts, "
                          f"{len(ranked.cards)} classes ({sum(ranked.exact_discards.values())} exact), "
                          f"{ranked.solves:,} solves, {ranked.nodes:,} nodes, {time.perf_counter() - start:.2f} s, "
                          f"CPU {time.process_time() - cpu_start:.2f} s (load {os.getloadavg()[0]:.2f}), "
                          f"best {','.join(c.code for c in ranked.best)}", flush=True)
                    continue
                limit = 0 if mode == "sample" else 10**6
                advice = advise(layout, "S", exact_limit=limit, samples=2000, seed=number, threads=args.threads,
                                strategy="never")
                seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
                tallies = {id(a.tally): a.tally for a in advice.cards.values()}.values()  # touching cards share
                nodes = sum(t.nodes for t in tallies)
                solved = sum(t.solves for t in tallies)
                print(f"deal {number} {layout.contract.code:<3} {mode:<6} {len(advice.cards)} cards "
                      f"({len(tallies)} judged), "
                      f"{advice.layouts:,} layouts, {solved:,} solves, {nodes:,} nodes, {seconds:.2f} s "
                      f"({cpu:.2f} CPU s, load {os.getloadavg()[0]:.2f}), best {advice.best.code}", flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)


if __name__ == "__main__":
    main()
