"""The best single strategy's cost (issue 22 item 2): search steps and CPU seconds per ending.

Endings drawn as ``tests/test_advise_oracle.py`` draws its single-strategy cases (the advised
player holds 3 cards: the first trick of a 3-card ending or the second of a 4-card one; a
Preferans declarer or misère defender, a Preferans defender or a Whist player with a partner, a
Thousand player), on seeds of their own per set, and larger ones: the first lead of a 4-card
Preferans ending (a declarer seeing neither hand: C(8, 4) = 70 layouts). Each ending's search
(:func:`pyanalyzer.analysis.strategy.single_strategy_values`, no step limit, the fast engine at
the leaves) is timed alone, in CPU seconds (less distorted by a busy machine than wall time; the
load is printed); the steps are exact, the same on any machine.

    python benchmarks/strategy_speed.py --set report
    python benchmarks/strategy_speed.py --set tune --count 40 --verbose

Ctrl-C stops; the groups finished are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_advise_oracle import (  # noqa: E402
    partner_strategy_case,
    random_ending,
    strategy_case,
    thousand_strategy_case,
)

from pyanalyzer.analysis.advise import advise, information  # noqa: E402
from pyanalyzer.analysis.strategy import STRATEGY_STEPS, single_strategy_values  # noqa: E402
from pyanalyzer.engines.registry import make_backend  # noqa: E402

#: The first seed of each set (the tests use seeds below 200).
FIRST_SEED = {"tune": 2000, "report": 1000}


def four_card_lead(seed: int):
    """A 4-card Preferans trick-contract ending at the first lead, the declarer to lead."""
    rng = random.Random(f"strategy speed 4 {seed}")
    while True:
        start = random_ending(rng, "preferans", 4)
        if start.to_move == start.declarer:
            return start, (), start.declarer, ()


CASES = {"3 cards": (strategy_case, partner_strategy_case, thousand_strategy_case), "4 cards": (four_card_lead,)}


def measure(case, seed: int, backend) -> tuple[int, int, float, int]:
    """(layouts, steps, CPU seconds, cards where one plan is worth less than the average)."""
    start, moves, seat, sees = case(seed)
    averaged = advise(start, seat, sees, moves=moves, engine="fast", threads=1, strategy="never",
                      backends=[backend])
    now, view = information(start, moves, seat, sees)
    began = time.process_time()
    answer = single_strategy_values(now, seat, view, averaged.counted, averaged.wants_high, backend,
                                    limited=False)
    seconds = time.process_time() - began
    differ = sum(abs(value - averaged.cards[m if m.declare else m.card].expected) > 1e-9
                 for m, value in answer.values.items())
    return averaged.layouts, answer.steps, seconds, differ


def group_line(name: str, rows: list[tuple[int, int, float, int]]) -> str:
    steps = [r[1] for r in rows]
    seconds = [r[2] for r in rows]
    layouts = [r[0] for r in rows]
    over = sum(s > STRATEGY_STEPS for s in steps)
    return (f"{name}: {len(rows)} endings, {min(layouts)}-{max(layouts)} layouts; steps median "
            f"{statistics.median(steps):,.0f}, max {max(steps):,}; CPU s median {statistics.median(seconds):.3f}, "
            f"max {max(seconds):.2f}, total {sum(seconds):.2f}; over the auto budget ({STRATEGY_STEPS:,}): "
            f"{over}; endings where one plan is worth less on some card: {sum(r[3] > 0 for r in rows)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(FIRST_SEED), default="tune")
    parser.add_argument("--count", type=int, default=30, help="Seeds tried per ending family.")
    parser.add_argument("--verbose", action="store_true", help="One line per ending.")
    args = parser.parse_args()
    print(f"set {args.set}, {args.count} seeds per family, load at start {os.getloadavg()[0]:.2f}")
    backend = make_backend("fast")
    first = FIRST_SEED[args.set]
    try:
        for size, families in CASES.items():
            groups: dict[str, list] = {}
            for family in families:
                for seed in range(first, first + args.count):
                    row = measure(family, seed, backend)
                    band = "tiny (<= 10 layouts)" if row[0] <= 10 else ("11-20 layouts" if row[0] <= 20
                                                                          else f"{row[0]} layouts")
                    groups.setdefault(f"{size}, {band}", []).append(row)
                    if args.verbose:
                        print(f"  {family.__name__} {seed}: {row[0]} layouts, {row[1]:,} steps, {row[2]:.3f} s, "
                              f"{row[3]} card(s) below the average", flush=True)
            for name, rows in groups.items():
                print(group_line(name, rows) + f" (load {os.getloadavg()[0]:.2f})", flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)


if __name__ == "__main__":
    main()
