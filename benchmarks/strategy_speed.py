"""The best single strategy's cost (issue 22 item 2): search steps and CPU seconds per ending.

Endings drawn as ``tests/test_advise_oracle.py`` draws its single-strategy cases (the advised
player holds 3 cards: the first trick of a 3-card ending or the second of a 4-card one; a
Preferans declarer or misère defender, a Preferans defender or a Whist player with a partner, a
Thousand player), on seeds of their own per set, and larger ones: the first lead of a 4-card
Preferans ending (a declarer seeing neither hand: C(8, 4) = 70 layouts). Each ending's search
(:class:`pyanalyzer.analysis.strategy.BestSingleStrategy`, the fast engine at the leaves) is
timed alone, in CPU seconds (less distorted by a busy machine than wall time; the load is
printed); the steps are exact, the same on any machine. An ending still unsolved after
``--cap`` steps is stopped and counted as such.

    python benchmarks/strategy_speed.py --set report
    python benchmarks/strategy_speed.py --set tune --count 40 --verbose --only "4 cards"

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
from pyanalyzer.analysis.strategy import (  # noqa: E402
    STRATEGY_STEPS,
    BestSingleStrategy,
    StrategyGaveUp,
    consistent_layouts,
)
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


def measure(case, seed: int, backend, cap: int) -> tuple[int, int, float, int | None]:
    """(layouts, steps, CPU seconds, cards where one plan is worth less than the average; None:
    stopped after ``cap`` steps)."""
    start, moves, seat, sees = case(seed)
    averaged = advise(start, seat, sees, moves=moves, engine="fast", threads=1, strategy="never",
                      backends=[backend])
    now, view = information(start, moves, seat, sees)
    began = time.process_time()
    search = BestSingleStrategy(consistent_layouts(now, view), [1] * averaged.layouts, seat, averaged.counted,
                                averaged.wants_high, backend, max_steps=cap)
    try:
        values = search.card_values()
    except StrategyGaveUp:
        return averaged.layouts, search.steps, time.process_time() - began, None
    seconds = time.process_time() - began
    differ = sum(abs(value - averaged.cards[m if m.declare else m.card].expected) > 1e-9
                 for m, value in values.items())
    return averaged.layouts, search.steps, seconds, differ


def group_line(name: str, rows: list[tuple[int, int, float, int]]) -> str:
    steps = [r[1] for r in rows]
    seconds = [r[2] for r in rows]
    layouts = [r[0] for r in rows]
    over = sum(s > STRATEGY_STEPS for s in steps)
    stopped = sum(r[3] is None for r in rows)
    return (f"{name}: {len(rows)} endings, {min(layouts)}-{max(layouts)} layouts; steps median "
            f"{statistics.median(steps):,.0f}, max {max(steps):,}; CPU s median {statistics.median(seconds):.3f}, "
            f"max {max(seconds):.2f}, total {sum(seconds):.2f}; over the auto budget ({STRATEGY_STEPS:,}): "
            f"{over}; stopped at the cap: {stopped}; endings where one plan is worth less on some card: "
            f"{sum(bool(r[3]) for r in rows)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(FIRST_SEED), default="tune")
    parser.add_argument("--count", type=int, default=30, help="Seeds tried per ending family.")
    parser.add_argument("--verbose", action="store_true", help="One line per ending.")
    parser.add_argument("--only", choices=sorted(CASES), help="One size of ending.")
    parser.add_argument("--cap", type=int, default=400_000, help="Search steps before an ending is stopped.")
    args = parser.parse_args()
    print(f"set {args.set}, {args.count} seeds per family, load at start {os.getloadavg()[0]:.2f}")
    backend = make_backend("fast")
    first = FIRST_SEED[args.set]
    try:
        for size, families in CASES.items():
            if args.only and size != args.only:
                continue
            groups: dict[str, list] = {}
            for family in families:
                for seed in range(first, first + args.count):
                    row = measure(family, seed, backend, args.cap)
                    band = "tiny (<= 10 layouts)" if row[0] <= 10 else ("11-20 layouts" if row[0] <= 20
                                                                          else f"{row[0]} layouts")
                    groups.setdefault(f"{size}, {band}", []).append(row)
                    if args.verbose:
                        below = "stopped" if row[3] is None else f"{row[3]} card(s) below the average"
                        print(f"  {family.__name__} {seed}: {row[0]} layouts, {row[1]:,} steps, {row[2]:.3f} s, "
                              f"{below}", flush=True)
            for name, rows in groups.items():
                print(group_line(name, rows) + f" (load {os.getloadavg()[0]:.2f})", flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)


if __name__ == "__main__":
    main()
