"""One transposition table shared by engines in several threads (``Engine(share_with=...)``).

Expected values come from one engine alone solving the same splits (the engine itself is
cross-checked against the reference minimax in tests/test_engine.py), and for the
enumeration from the same enumeration run on separate tables.
"""

import itertools
import random
import threading
from dataclasses import replace

import pytest

pytest.importorskip("pref_engine")

from pref_engine import Engine  # noqa: E402

from pyanalyzer.analysis.splits import solve_splits  # noqa: E402
from pyanalyzer.engines.registry import FastBackend, make_backends, share_one_table  # noqa: E402
from pyanalyzer.model.position import Position  # noqa: E402

SUITS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)    # Preferans: 4 suits of 8 cards


def ending(kind: str, seed: int, tricks: int):
    """Declarer (seat 0, on lead) holds ``tricks`` random cards; the defenders' ``2 x tricks``
    cards, every split of them (the rest of the deck out of play)."""
    rng = random.Random(f"{kind}-{seed}")
    cards = rng.sample(range(32), 3 * tricks)
    declarer = sum(1 << c for c in cards[:tricks])
    unknown = cards[tricks:]
    full = sum(1 << c for c in unknown)
    splits = []
    for chosen in itertools.combinations(unknown, tricks):
        west = sum(1 << c for c in chosen)
        splits.append((west, full & ~west))
    template = Position((declarer, splits[0][0], splits[0][1]), SUITS, 0 if kind == "trump" else None, True,
                        0, (), (True, False, False), kind != "misere")
    return template, full, splits


def solve_in_threads(engines, template, splits, chunk=40):
    """The splits in chunks dealt round-robin, one thread per engine: engine ``i`` solves chunks
    ``i``, ``i + n``, ... (a fixed share, whatever the scheduler does), all threads released
    together so that they run side by side."""
    chunks = [splits[i:i + chunk] for i in range(0, len(splits), chunk)]
    out = [None] * len(chunks)
    start_together = threading.Barrier(len(engines))

    def work(lane, engine):
        start_together.wait()
        for i in range(lane, len(chunks), len(engines)):
            out[i] = engine.solve_batch(template, (1, 2), (0, 0), chunks[i])

    threads = [threading.Thread(target=work, args=(lane, engine)) for lane, engine in enumerate(engines)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [value for values in out for value in values]


@pytest.mark.parametrize("kind", ["misere", "trump"])
def test_two_threads_sharing_a_table_give_one_engines_values(kind):
    # 2 x 3,432 splits of a 7-trick ending; a small table, so that the threads write over
    # each other's buckets all the time.
    for seed in (1, 2):
        template, _, splits = ending(kind, seed, 7)
        alone = Engine(tt_size_mb=1).solve_batch(template, (1, 2), (0, 0), splits)
        first = Engine(tt_size_mb=1)
        second = Engine(tt_size_mb=1, share_with=first)
        assert first.shared_table is second.shared_table
        assert solve_in_threads([first, second], template, splits) == alone
        assert second.stats["tt_probes"] > 0       # each engine counts its own


def shared_pair():
    first = Engine(tt_size_mb=1)
    return first, Engine(tt_size_mb=1, share_with=first)


def test_a_torn_entry_is_a_miss():
    # Two keys of one meta in one bucket (the hash chosen): their entries' check words and data
    # words mixed up, as a reader could see them while another thread writes, are no hit.
    first, _ = shared_pair()
    table = first.shared_table
    meta, hash_value = (2 << 2) | (3 << 8) | (2 << 14) | (1 << 20), 0x123456789ABCDEF0
    one, other = (0b0101, 0b0011), (0b0110, 0b1001)
    table._store(*one, meta, hash_value, 4, 1, 3, 2)
    table._store(*other, meta, hash_value, 4, 2, 2, 5)
    assert table._probe(*one, meta, hash_value) == (1, 3, 2)
    assert table._probe(*other, meta, hash_value) == (2, 2, 5)
    words = table._bucket_words(hash_value)      # slot 0: the other key, slot 1: the first
    torn = [words[2], words[1]] + [0] * 6        # one's check word, the other's data word
    table._set_bucket_words(hash_value, torn)
    assert table._probe(*one, meta, hash_value) is None
    assert table._probe(*other, meta, hash_value) is None
    table._set_bucket_words(hash_value, words[2:4] + [0] * 6)   # one's entry whole again
    assert table._probe(*one, meta, hash_value) == (1, 3, 2)


def test_a_shared_table_takes_small_trick_counts_only():
    first, second = shared_pair()
    whist = Position((0b0001, 0b0010, 0b0100, 0b1000), (0xFFFF, 0xFFFF << 16, 0xFFFF << 32, 0xFFFF << 48),
                     None, True, 0, (), (True, False, True, False), True, heuristics="partnership")
    with pytest.raises(ValueError, match="sharing a table"):
        second.solve(whist)
    alone = Engine(tt_size_mb=1)
    assert alone.solve(whist) == 0               # (seat 3's card takes the one trick)


def test_clear_empties_the_shared_table_for_both():
    template, _, splits = ending("trump", 3, 6)
    first, second = shared_pair()
    values = first.solve_batch(template, (1, 2), (0, 0), splits[:50])
    second.solve_batch(template, (1, 2), (0, 0), splits[:50])
    warm = second.stats["nodes"]
    first.clear()
    assert second.solve_batch(template, (1, 2), (0, 0), splits[:50]) == values
    assert second.stats["nodes"] > warm            # its entries were gone


@pytest.mark.parametrize("kind", ["misere", "trump"])
def test_the_enumeration_is_the_same_on_one_shared_table(kind):
    layout, full, _ = ending(kind, 4, 6)
    template = replace(layout, hands=(layout.hands[0], 0, 0))    # the defenders' cards unknown
    sizes = (6, 6)
    shared = make_backends("fast", 2, 1)
    assert share_one_table(shared)
    separate = [FastBackend(1), FastBackend(1)]
    assert not share_one_table(separate)
    one = solve_splits(template, (1, 2), sizes, full, threads=1, tt_size_mb=1, block=64)
    both = solve_splits(template, (1, 2), sizes, full, threads=2, backends=shared, block=64)
    lanes = solve_splits(template, (1, 2), sizes, full, threads=2, backends=separate, block=64)
    by_default = solve_splits(template, (1, 2), sizes, full, threads=2, tt_size_mb=1, block=64)
    assert both.histogram == one.histogram == lanes.histogram == by_default.histogram
    assert both.splits == one.splits == 924 and both.exact


@pytest.mark.parametrize("kind", ["misere", "trump"])
def test_one_thread_on_a_shared_table_repeats_one_engine_exactly(kind):
    # In one thread the shared format (shared_probe, shared_store) must find exactly the
    # entries the single-engine format finds: the same values and the same node count.
    # (3,432 splits of a 7-trick ending on a quarter-megabyte table: full, so that the
    # replacement rule is exercised too)
    template, _, splits = ending(kind, 7, 7)
    alone = Engine(tt_size_mb=0.25)
    values = alone.solve_batch(template, (1, 2), (0, 0), splits)
    shared = Engine(tt_size_mb=0.25)
    partner = Engine(share_with=shared)             # (makes the table shared)
    assert shared.solve_batch(template, (1, 2), (0, 0), splits) == values
    assert shared.stats["nodes"] == alone.stats["nodes"]
    assert shared.stats["tt_hits"] == alone.stats["tt_hits"] > 0
    del partner
