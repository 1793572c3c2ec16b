"""Misère: where the nodes go by null-window test, and how candidate upper bounds compare.

    python benchmarks/misere_bounds.py [--set tune|report] [--positions N] [--seed SEED]

Part 1 (node counts, exact): the set's 200 fresh misère layouts, each from an empty table,
tested at targets 1, 2, ... as ``root_value`` does from its first guess (one
``Engine.reaches`` call a target, the table kept between them) until a test fails: the nodes
of the tests that succeed (the defenders force the target) and of the one that fails (the
declarer stays under it), by target.

Part 2: random misère positions of 3-7 tricks with a defender on lead (the engine's value;
the engine agrees with the reference in the tests), against two upper bounds of the
declarer's tricks (benchmarks/RESULTS.md, "misère, fifth session"):

* ``K``: the declarer's cards to take off the top of each suit the defenders hold so that
  the rest stays under the defenders' cards rank by rank (the rank-by-rank *clean* rule's
  excess); not a bound: the defenders can strip the suit he would exit with;
* ``D``: his cards above the defenders' lowest of their suit; not a bound either (the
  defenders can empty a suit of theirs and leave his cards in it winners);
* ``D+S``: ``D`` plus the most tricks he can be left to take at the end with every card he
  holds in suits the defenders have emptied (a proven bound).

For each: how often it is below the tricks left (could decide a test), equal to the value
(decides the test at the value + 1, the one that fails) and below the value (wrong).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from positions import PREF_SUITS, bits, cards_of  # noqa: E402
from pref_engine import Engine  # noqa: E402

from layouts import SETS, full_layouts  # noqa: E402
from pyanalyzer.model.position import Position  # noqa: E402


def nodes_by_test(seed: str) -> None:
    eng = Engine(tt_size_mb=16)
    by_test = collections.Counter()
    for layout in full_layouts("misere", seed=seed):
        eng.clear()
        target = 1
        while True:
            reached = eng.reaches(layout, target)
            by_test[target, reached] += eng.stats["nodes"]
            if not reached:
                break
            target += 1
    total = sum(by_test.values())
    print("| target | nodes, tests that succeed | nodes, tests that fail |")
    print("|---|---|---|")
    for target in sorted({t for t, _ in by_test}):
        print(f"| {target} | {by_test[target, True]:,} | {by_test[target, False]:,} |")
    failing = sum(n for (_, reached), n in by_test.items() if not reached)
    print(f"\nall tests: {total:,} nodes, {failing / total:.0%} in the failing ones\n")


def stays_under(low: list[int], high: list[int]) -> bool:
    return all(a < b for a, b in zip(sorted(low), sorted(high)))


def bounds(hands: list[int], declarer: int, leader: int, tricks: int) -> tuple[int, int, int]:
    """(K, D, D+S) for the declarer's tricks (see the module's notes)."""
    own = cards_of(hands[declarer])
    theirs = [c for seat in range(3) if seat != declarer for c in cards_of(hands[seat])]
    excess = high = 0
    others = []                       # (his cards not above theirs, their cards) per suit
    for suit in range(4):
        mine = sorted(c for c in own if c // 8 == suit)
        other = [c for c in theirs if c // 8 == suit]
        if not mine:
            continue
        above = sum(c > min(other) for c in mine) if other else 0
        high += above
        if mine[:len(mine) - above]:
            others.append((len(mine) - above, len(other)))
        if other:
            k = 0
            while not stays_under(mine[:len(mine) - k], other):
                k += 1
            excess += k
    first = 0 if leader == declarer else 1
    if first and high == 0:
        return excess, 0, 0
    most = 0
    for size in range(1, len(others) + 1):
        for chosen in itertools.combinations(others, size):
            n = sum(a for a, _ in chosen)
            d = sum(b for _, b in chosen)
            most = max(most, min(n, tricks - max(first, (d + 1) // 2)))
    return excess, high, high + most


NAMES = ("K", "D", "D+S")


def bounds_against_values(count: int, seed: str) -> None:
    rng = random.Random(seed)
    eng = Engine(tt_size_mb=4)
    below = collections.Counter()
    equal = collections.Counter()
    exceeded = collections.Counter()
    for _ in range(count):
        tricks = rng.randint(3, 7)
        suits = rng.sample(range(4), max(rng.choice([2, 3, 4]), (3 * tricks + 7) // 8))
        deck = rng.sample([s * 8 + r for s in suits for r in range(8)], 3 * tricks)
        hands = [bits(deck[k * tricks:(k + 1) * tricks]) for k in range(3)]
        declarer = rng.randrange(3)
        leader = rng.choice([seat for seat in range(3) if seat != declarer])
        pos = Position(tuple(hands), PREF_SUITS, None, True, leader, (),
                       tuple(seat == declarer for seat in range(3)), False)
        value = eng.solve(pos)
        for name, bound in zip(NAMES, bounds(hands, declarer, leader, tricks)):
            below[name] += bound < tricks
            equal[name] += bound == value
            exceeded[name] += value > bound
    print(f"{count} positions, a defender on lead:\n")
    print("| bound | below the tricks left | equal to the value | below the value |")
    print("|---|---|---|---|")
    for name in NAMES:
        print(f"| {name} | {below[name]} | {equal[name]} | {exceeded[name]} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=tuple(SETS), default="tune")
    parser.add_argument("--positions", type=int, default=4000, help="random positions of part 2")
    parser.add_argument("--seed", default="misere-bounds", help="seed of part 2's positions")
    args = parser.parse_args()
    nodes_by_test(SETS[args.set]["fresh"])
    bounds_against_values(args.positions, args.seed)


if __name__ == "__main__":
    main()
