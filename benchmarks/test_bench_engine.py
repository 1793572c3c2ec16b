"""pytest-benchmark runs of the engine (figures in RESULTS.md; nothing asserted on speed).

Run: python -m pytest benchmarks -p no:randomly --benchmark-only
Each round solves one layout of a fixed-seed set of 200 with an emptied table
(a fresh solve), so the reported median/max are per fresh solve.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pref_engine import Engine  # noqa: E402

from layouts import COUNT, KINDS, full_layouts, split_masks, splits  # noqa: E402


@pytest.mark.parametrize("kind", KINDS)
def test_fresh_solve(benchmark, kind):
    eng = Engine(tt_size_mb=16)
    layouts = iter(full_layouts(kind))

    def setup():
        eng.clear()
        return (next(layouts),), {}

    benchmark.pedantic(eng.solve, setup=setup, rounds=COUNT, iterations=1)


@pytest.mark.parametrize("kind", ["misere", "trump"])
def test_warm_splits(benchmark, kind):
    """Solve 2,000 consecutive splits of the defenders' cards with the table kept warm."""
    eng = Engine(tt_size_mb=16)
    batch = list(itertools.islice(splits(kind), 2000))

    def run():
        for pos in batch:
            eng.solve(pos)

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["layouts"] = len(batch)


@pytest.mark.parametrize("kind", KINDS)
def test_warm_batch(benchmark, kind):
    """The first 20,000 splits through ``Engine.solve_batch`` (the enumerations' API) with
    their default 64 MB table (all 184,756: ``report.py --splits 0``)."""
    eng = Engine(tt_size_mb=64)
    first, masks = split_masks(kind)
    masks = masks[:20000]
    eng.solve(first)

    def setup():
        eng.clear()

    benchmark.pedantic(eng.solve_batch, args=(first, (1, 2), (0, 0), masks), setup=setup,
                       rounds=1, iterations=1)
    benchmark.extra_info["layouts"] = len(masks)
