"""pytest-benchmark runs of the all-pass (raspasy) searches, issue 6 (figures in RESULTS.md).

Run:    python -m pytest benchmarks/test_bench_allpass.py -p no:randomly --benchmark-only -q
Table:  python benchmarks/test_bench_allpass.py [--repeat N]   (the Markdown table of RESULTS.md)

Deals: 200 random full deals (``tests/positions.py``'s ``deal_masks``). Deal ``i`` is
``random.Random(f"allpass-{i}")`` drawing the 32 cards in a random order: the first 10 to
S (seat 0), the next 10 to W (seat 1), the next 10 to E (seat 2), the last two are the
talon in the order it is turned up; S is first hand. Card = suit * 8 + rank (suits s c d h = 0..3,
ranks 7..A = 0..7), no trump, every seat counted for itself (``maximize=False``).

Guaranteed minimum (``Engine.solve``: the fewest tricks the counted seat can be sure
of against the other two), three talon conventions: ``open`` (the talon cards lead the
first two tricks), ``beat`` (the same, a trick taken only by a card beating the talon
card: ``talon_must_beat=True``) and ``closed`` (Rostov, ``talon_leads=()``). Each round
is one deal x one seat, all three seats of every deal: 600 rounds per convention, in the
order deal 0 seat 0, 1, 2, deal 1 seat 0, ...; the table (16 MB) is emptied before each.

Self-interested line (``Engine.self_interested``, max^n, open talon): one round per deal,
200 rounds (its own table is emptied by every call; ``clear()`` is called as well).

``analyse_allpass`` on ``layouts/allpass.txt`` (three guaranteed minima with their lines,
the card values of the player to move and the self-interested line): ``default`` is the
call as the CLI makes it (a new 64 MB engine per call, so table allocation is included),
``reused`` passes one 16 MB backend emptied before each round.

Nothing is asserted on speed. Each benchmark's ``extra_info`` holds p90 (ms), the node
counts (median, max) and its slowest round; ``--benchmark-json FILE`` keeps them.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from positions import PREF_DECK, PREF_SUITS, deal_masks  # noqa: E402
from pref_engine import Engine  # noqa: E402

from pyanalyzer.engines.registry import make_backend  # noqa: E402
from pyanalyzer.model.layout_io import read_layout  # noqa: E402
from pyanalyzer.model.position import Position  # noqa: E402
from pyanalyzer.preferans.allpass import analyse_allpass  # noqa: E402

COUNT = 200
SEATS = 3
TT_MB = 16
LAYOUT = ROOT / "layouts" / "allpass.txt"
#: Talon conventions of the guaranteed-minimum sets: (talon turned up, talon must be beaten).
TALON = {"open": (True, False), "beat": (True, True), "closed": (False, False)}
ANALYSE_ROUNDS = 20


def seed(i: int) -> str:
    return f"allpass-{i}"


def deal(i: int) -> tuple[tuple[int, ...], tuple[int, int]]:
    """Deal ``i``: (hands of S, W, E as card masks, the two talon cards in order)."""
    hands, talon = deal_masks(random.Random(seed(i)), PREF_DECK, SEATS, 10, extra=2)
    return tuple(hands), (talon[0], talon[1])


def position(i: int, seat: int, talon: str = "open") -> Position:
    """Deal ``i`` with ``seat`` counted, S to lead, under the talon convention ``talon``."""
    hands, cards = deal(i)
    turned_up, must_beat = TALON[talon]
    return Position(hands, PREF_SUITS, None, True, 0, (), tuple(s == seat for s in range(SEATS)),
                             False, cards if turned_up else (), must_beat)


def minimum_cases(talon: str, count: int = COUNT) -> list[tuple[str, Position]]:
    """(label, position) of every deal x seat, deal-major."""
    return [(f"{seed(i)} seat {seat}", position(i, seat, talon)) for i in range(count) for seat in range(SEATS)]


def maxn_cases(count: int = COUNT) -> list[tuple[str, Position]]:
    return [(seed(i), position(i, 0, "open")) for i in range(count)]


def quantile(values, q: float):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(labels, seconds, nodes) -> dict:
    ms = [t * 1e3 for t in seconds]
    slowest = max(range(len(ms)), key=ms.__getitem__)
    out = {"rounds": len(ms), "median_ms": statistics.median(ms), "p90_ms": quantile(ms, 0.9),
           "max_ms": max(ms), "mean_ms": statistics.mean(ms), "total_s": sum(seconds),
           "slowest": labels[slowest]}
    if nodes:
        out.update(nodes_median=statistics.median(nodes), nodes_max=max(nodes),
                   slowest_nodes=nodes[slowest])
    return out


def _bench_cases(benchmark, eng: Engine, method, cases) -> None:
    """One round per case, table emptied before each; extra_info from the rounds' own timings."""
    pending = iter(cases)
    nodes: list[int] = []

    def setup():
        eng.clear()
        return (next(pending)[1],), {}

    def teardown(*_):
        nodes.append(eng.stats["nodes"])

    benchmark.pedantic(method, setup=setup, teardown=teardown, rounds=len(cases), iterations=1)
    if benchmark.stats is not None and len(nodes) == len(cases):
        benchmark.extra_info.update(summary([label for label, _ in cases], benchmark.stats.stats.data, nodes))


@pytest.mark.parametrize("talon", list(TALON))
def test_guaranteed_minimum(benchmark, talon):
    eng = Engine(tt_size_mb=TT_MB)
    _bench_cases(benchmark, eng, eng.solve, minimum_cases(talon))


def test_self_interested(benchmark):
    eng = Engine(tt_size_mb=TT_MB)
    _bench_cases(benchmark, eng, eng.self_interested, maxn_cases())


@pytest.mark.parametrize("engine", ["default", "reused"])
def test_analyse_allpass(benchmark, engine):
    layout = read_layout(str(LAYOUT))
    backend = make_backend("fast", tt_size_mb=TT_MB)
    if engine == "reused":
        analyse_allpass(layout, engine=backend)  # allocates the self-interested table once

    def setup():
        backend.clear()
        return (layout,), ({"engine": backend} if engine == "reused" else {})

    result = benchmark.pedantic(analyse_allpass, setup=setup, rounds=ANALYSE_ROUNDS, iterations=1)
    if benchmark.stats is not None:
        benchmark.extra_info.update(summary(["allpass.txt"] * ANALYSE_ROUNDS, benchmark.stats.stats.data, []))
        benchmark.extra_info.update(nodes=result.nodes, guaranteed=result.guaranteed, split=result.split)


# -- the table of RESULTS.md ------------------------------------------------------------


def _time_cases(eng: Engine, method, cases, repeat: int) -> tuple[list[float], list[int]]:
    """Fresh-table time of every case (fastest of ``repeat``, each from an emptied table) and its nodes."""
    seconds, nodes = [float("inf")] * len(cases), [0] * len(cases)
    for _ in range(repeat):
        for k, (_, pos) in enumerate(cases):
            eng.clear()
            t = time.perf_counter()
            method(pos)
            seconds[k] = min(seconds[k], time.perf_counter() - t)
            nodes[k] = eng.stats["nodes"]
    return seconds, nodes


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="fresh solves per position (fastest kept)")
    parser.add_argument("--deals", type=int, default=COUNT)
    args = parser.parse_args()
    repeat = max(1, args.repeat)

    eng = Engine(tt_size_mb=TT_MB)
    rows, times, counts = [], {}, {}
    for talon in TALON:
        cases = minimum_cases(talon, args.deals)
        seconds, nodes = _time_cases(eng, eng.solve, cases, repeat)
        times[talon], counts[talon] = seconds, nodes
        rows.append((f"guaranteed minimum, {talon}", summary([lb for lb, _ in cases], seconds, nodes)))
    cases = maxn_cases(args.deals)
    seconds, nodes = _time_cases(eng, eng.self_interested, cases, repeat)
    rows.append(("self-interested (max^n), open", summary([lb for lb, _ in cases], seconds, nodes)))

    layout = read_layout(str(LAYOUT))
    for name in ("default", "reused"):
        backend = make_backend("fast", tt_size_mb=TT_MB)
        if name == "reused":
            analyse_allpass(layout, engine=backend)
        seconds = []
        for _ in range(ANALYSE_ROUNDS):
            backend.clear()
            t = time.perf_counter()
            result = analyse_allpass(layout, engine=backend) if name == "reused" else analyse_allpass(layout)
            seconds.append(time.perf_counter() - t)
        stats = summary(["allpass.txt"] * len(seconds), seconds, [result.nodes] * len(seconds))
        rows.append((f"analyse_allpass, {name} engine", stats))

    print(f"table: {eng.tt_bytes:,} bytes; repeat {repeat} (fastest kept)\n")
    print("| search | rounds | median ms | p90 ms | max ms | mean ms | nodes median | nodes max | slowest |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, s in rows:
        print(f"| {name} | {s['rounds']} | {s['median_ms']:.3f} | {s['p90_ms']:.3f} | {s['max_ms']:.2f} |"
              f" {s['mean_ms']:.3f} | {s['nodes_median']:,.0f} | {s['nodes_max']:,} |"
              f" {s['slowest']} ({s['slowest_nodes']:,} nodes) |")

    print()
    for talon in ("open", "beat"):
        paired = [a / b for a, b in zip(times[talon], times["closed"])]
        print(f"{talon} / closed: medians {statistics.median(times[talon]) / statistics.median(times['closed']):.2f}x,"
              f" totals {sum(times[talon]) / sum(times['closed']):.2f}x,"
              f" per position median {statistics.median(paired):.2f}x"
              f" (p10 {quantile(paired, 0.1):.2f}x, p90 {quantile(paired, 0.9):.2f}x),"
              f" slower than closed in {sum(r > 1 for r in paired)} of {len(paired)};"
              f" nodes: medians {statistics.median(counts[talon]) / statistics.median(counts['closed']):.2f}x,"
              f" totals {sum(counts[talon]) / sum(counts['closed']):.2f}x")


if __name__ == "__main__":
    main()
