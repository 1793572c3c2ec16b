"""pytest-benchmark runs of whist DD tables (figures in RESULTS.md; nothing asserted on speed).

Run: python -m pytest benchmarks/test_bench_whist.py -p no:randomly --benchmark-only
Each round is one DD table (20 searches) of a fixed-seed set of random deals,
with the table emptied first. Full random deals take our engine seconds to
minutes today, so the rounds use 10-card endings; ``whist_vs_dds.py`` runs
full deals against DDS side by side. With endplay installed, DDS runs the
same endings (20 ``SolveBoard`` calls a table, one thread).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pyanalyzer.engines.registry import make_backend  # noqa: E402
from pyanalyzer.whist import Deal, dd_table, random_deal  # noqa: E402

COUNT = 50
CARDS = 10
SEED = 20240607
#: layouts/whist-deal.txt: a full deal (about 10 s a table for our engine today, 0.1 s for DDS).
FULL = "N:KJ.AKQJ63.AQ3.A7 A64..T8742.T9863 T9872.85.KJ6.KQ2 Q53.T9742.95.J54"


def deals() -> list[Deal]:
    rng = random.Random(SEED)
    return [random_deal(rng, CARDS) for _ in range(COUNT)]


def test_table_endings(benchmark):
    backend = make_backend("fast")
    todo = iter(deals())

    def setup():
        backend.clear()
        return (next(todo), backend), {}

    benchmark.pedantic(dd_table, setup=setup, rounds=COUNT, iterations=1)


def test_table_full_deal(benchmark):
    backend = make_backend("fast")
    deal = Deal.from_pbn(FULL)

    def setup():
        backend.clear()
        return (deal, backend), {}

    benchmark.pedantic(dd_table, setup=setup, rounds=3, iterations=1)


def test_dds_table_endings(benchmark):
    pytest.importorskip("endplay")
    import endplay._dds as dds
    from whist_vs_dds import dds_table

    dds.SetMaxThreads(1)
    todo = iter(deals())

    def setup():
        return (next(todo).pbn(), False), {}

    benchmark.pedantic(dds_table, setup=setup, rounds=COUNT, iterations=1)
