"""Thousand speed (issue 18 targets): fresh deals, the declarer's view, the exchange.

Three measurements on random Thousand deals (``tests/positions.py``: 24 cards, card
points, the four marriages s 40 c 60 d 80 h 100; the declarer S, seat 0, leads; no trump
yet; no declaring on the first lead):

* ``fresh``: full 8-card deals after the exchange, each solved from an empty table
  (target: median <= 3 ms, max <= 50 ms over 200 deals);
* ``splits``: the declarer's view: his 8 cards and the card he gave each opponent known,
  every C(14, 7) = 3,432 ways the other 14 cards lie between W and E, solved by
  ``Engine.solve_batch`` on two threads with an engine each, half of the splits each
  (target: <= 1 s a deal on 2 cores);
* ``exchange``: the declarer's 7 cards and the 3-card talon, the opponents' 7 cards open;
  every way of giving one card to W and one to E (90), each solved, one engine kept warm
  (target: <= 0.5 s a deal).

``--set tune`` and ``--set report`` draw different deals (seeds ``thousand-tune`` and
``thousand-report``): tune the engine on one, report on the other. ``--heuristics`` picks
the engine's move ordering (default: ``thousand``). Node counts are exact (the same search
gives the same count on any machine); seconds depend on the machine's load.

    python benchmarks/thousand_speed.py --set report
    python benchmarks/thousand_speed.py --set tune --only fresh --worst 5
    python benchmarks/thousand_speed.py --set tune --tuning    # node counts only

Progress goes to stderr; Ctrl-C stops and prints the figures of what finished.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from positions import THOUSAND_MARRIAGES, THOUSAND_POINTS, THOUSAND_SUITS, bits, thousand_deal  # noqa: E402
from pref_engine import Engine  # noqa: E402

from pyanalyzer.model.position import HEURISTICS, Position  # noqa: E402

TT_MB = 64


def progress(text: str) -> None:
    print(f"\r{text}", end="", file=sys.stderr, flush=True)


def summary(name: str, seconds: list[float], nodes: list[int], unit: float = 1000.0,
            label: str = "ms") -> str:
    if not seconds:
        return f"{name}: nothing finished"
    scaled = sorted(s * unit for s in seconds)
    p90 = scaled[min(len(scaled) - 1, int(0.9 * len(scaled)))]
    return (f"{name}: n={len(seconds)} median {statistics.median(scaled):.3f} {label}, "
            f"p90 {p90:.3f}, max {scaled[-1]:.3f}, mean {statistics.fmean(scaled):.3f}; "
            f"nodes median {int(statistics.median(nodes)):,}, max {max(nodes):,}, "
            f"total {sum(nodes):,}")


def fresh_deals(rng: random.Random, count: int, heuristics: str, worst: int) -> list[str]:
    engine = Engine(tt_size_mb=TT_MB)
    seconds, nodes, deals = [], [], []
    try:
        for i in range(count):
            position = thousand_deal(rng, heuristics=heuristics)
            engine.clear()
            start = time.perf_counter()
            value = engine.solve(position)
            seconds.append(time.perf_counter() - start)
            nodes.append(engine.stats["nodes"])
            deals.append((nodes[-1], i, value, position.hands))
            progress(f"fresh {i + 1}/{count}")
    except KeyboardInterrupt:
        print("\ninterrupted: fresh deals finished so far", file=sys.stderr)
    lines = [summary("fresh deals", seconds, nodes)]
    for n, i, value, hands in sorted(deals, reverse=True)[:worst]:
        lines.append(f"  deal {i}: {n:,} nodes, value {value}, hands {[hex(h) for h in hands]}")
    return lines


def solve_chunk(engine: Engine, position: Position, gave: tuple[int, int], chunk: list,
                results: list, counts: list, k: int) -> None:
    """One thread's share of the splits, on its own engine (the search releases the GIL)."""
    first = replace(position, hands=(position.hands[0], gave[0] | chunk[0][0], gave[1] | chunk[0][1]))
    engine.clear()
    results[k] = engine.solve_batch(first, (1, 2), gave, chunk)
    counts[k] = engine.stats["nodes"]


def view_splits(rng: random.Random, count: int, heuristics: str, threads: int) -> list[str]:
    """The declarer's view of ``count`` deals: every split of the 14 unseen cards."""
    engines = [Engine(tt_size_mb=TT_MB) for _ in range(threads)]
    seconds, nodes = [], []
    try:
        for i in range(count):
            position = thousand_deal(rng, heuristics=heuristics)
            west, east = position.hands[1], position.hands[2]
            gave = (west & -west, east & -east)          # the cards he gave: known
            unseen = [c for c in range(24) if (west | east) >> c & 1 and not (gave[0] | gave[1]) >> c & 1]
            splits = []
            for west_cards in itertools.combinations(unseen, 7):
                w = bits(west_cards)
                splits.append((w, bits(unseen) & ~w))
            chunks = [splits[k::threads] for k in range(threads)]
            results: list[list[int]] = [[] for _ in range(threads)]
            counts = [0] * threads
            workers = [threading.Thread(target=solve_chunk,
                                        args=(engines[k], position, gave, chunks[k], results, counts, k))
                       for k in range(threads)]
            start = time.perf_counter()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            seconds.append(time.perf_counter() - start)
            nodes.append(sum(counts))
            if sum(len(r) for r in results) != len(splits):
                raise KeyboardInterrupt
            progress(f"splits {i + 1}/{count}")
    except KeyboardInterrupt:
        print("\ninterrupted: declarer's views finished so far", file=sys.stderr)
    return [summary(f"declarer's view, 3,432 splits on {threads} threads", seconds, nodes, 1.0, "s")]


def exchanges(rng: random.Random, count: int, heuristics: str) -> list[str]:
    """The 90 give-aways of ``count`` deals: the declarer's 7 cards + talon, open hands."""
    engine = Engine(tt_size_mb=TT_MB)
    seconds, nodes = [], []
    try:
        for i in range(count):
            deck = list(range(24))
            rng.shuffle(deck)
            ten, west, east = deck[:10], bits(deck[10:17]), bits(deck[17:24])
            engine.clear()
            total = 0
            start = time.perf_counter()
            for to_west, to_east in itertools.permutations(ten, 2):
                kept = bits(ten) & ~(1 << to_west | 1 << to_east)
                position = Position((kept, west | 1 << to_west, east | 1 << to_east), THOUSAND_SUITS,
                                    None, True, 0, (), (True, False, False), True,
                                    card_points=THOUSAND_POINTS, marriages=THOUSAND_MARRIAGES,
                                    leader_may_declare=False, heuristics=heuristics)
                engine.solve(position)
                total += engine.stats["nodes"]
            seconds.append(time.perf_counter() - start)
            nodes.append(total)
            progress(f"exchanges {i + 1}/{count}")
    except KeyboardInterrupt:
        print("\ninterrupted: exchanges finished so far", file=sys.stderr)
    return [summary("exchange, 90 give-aways", seconds, nodes, 1.0, "s")]


def tuning_nodes(seed: str, heuristics: str) -> list[str]:
    """The exact measure the tuning steps were judged by (no timing): nodes of the 200 fresh
    deals, and of every third of the first 2,400 splits of each of the first two declarer's
    views, solved in order on one engine."""
    engine = Engine(tt_size_mb=TT_MB)
    rng = random.Random(f"{seed}-fresh")
    fresh = []
    for _ in range(200):
        engine.clear()
        engine.solve(thousand_deal(rng, heuristics=heuristics))
        fresh.append(engine.stats["nodes"])
    rng = random.Random(f"{seed}-splits")
    split_nodes = 0
    for _ in range(2):
        position = thousand_deal(rng, heuristics=heuristics)
        west, east = position.hands[1], position.hands[2]
        gave = (west & -west, east & -east)
        unseen = [c for c in range(24) if (west | east) >> c & 1 and not (gave[0] | gave[1]) >> c & 1]
        splits = [(bits(w), bits(unseen) & ~bits(w)) for w in itertools.combinations(unseen, 7)][:2400:3]
        engine.clear()
        engine.solve_batch(position, (1, 2), gave, splits)
        split_nodes += engine.stats["nodes"]
    return [f"tuning nodes: fresh total {sum(fresh):,} (max {max(fresh):,}); 1,600 splits {split_nodes:,}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("tune", "report"), default="report")
    parser.add_argument("--heuristics", choices=HEURISTICS, default="thousand")
    parser.add_argument("--only", choices=("fresh", "splits", "exchange"))
    parser.add_argument("--deals", type=int, default=200, help="fresh deals (default 200)")
    parser.add_argument("--views", type=int, default=10, help="declarer's views (default 10)")
    parser.add_argument("--exchanges", type=int, default=20, help="exchange deals (default 20)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--worst", type=int, default=0, help="list the fresh deals of most nodes")
    parser.add_argument("--tuning", action="store_true",
                        help="only the node counts the tuning was judged by (no timing)")
    args = parser.parse_args()
    seed = f"thousand-{args.set}"
    print(f"set {args.set}, heuristics {args.heuristics}, table {TT_MB} MB")
    if args.tuning:
        print("\n".join(tuning_nodes(seed, args.heuristics)))
        return
    lines = []
    if args.only in (None, "fresh"):
        lines += fresh_deals(random.Random(f"{seed}-fresh"), args.deals, args.heuristics, args.worst)
    if args.only in (None, "splits"):
        lines += view_splits(random.Random(f"{seed}-splits"), args.views, args.heuristics, args.threads)
    if args.only in (None, "exchange"):
        lines += exchanges(random.Random(f"{seed}-exchange"), args.exchanges, args.heuristics)
    print(file=sys.stderr)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
