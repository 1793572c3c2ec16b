"""Fixed-seed benchmark layouts: random full 10-card Preferans deals, and Whist endings.

Drawn by the tests' one random-position generator (``tests/positions.py``): card =
suit * 8 + rank, suits s, c, d, h = 0..3, ranks 7..A = 0..7; seats 0, 1, 2 in play order.
Whist: card = suit * 13 + rank (2..A = 0..12), seats 0..3, seats 0 and 2 the declarer's side.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from positions import (  # noqa: E402
    KINDS,
    PREF_DECK,
    PREF_SUITS,
    WHIST_SUITS,
    bits,
    cards_of,
    deal_masks,
    full_deal,
)

from pyanalyzer.model.position import Position  # noqa: E402

__all__ = ["KINDS", "COUNT", "SETS", "full_layouts", "whist_endings", "split_masks", "splits"]

COUNT = 200

# Tune on one set, report on another: the seeds of the fresh layouts and the declarer hands
# of the warm enumerations. "tune" is the benchmark's historical set (every tuning step so
# far looked at it); "report" is never looked at while tuning, only when judging a step.
SETS = {
    "tune": {"fresh": "bench", "hands": ("splits", "s1", "s2", "s3", "s4")},
    "report": {"fresh": "report", "hands": ("r1", "r2", "r3", "r4", "r5")},
}


def position(hands, kind: str, declarer: int, leader: int) -> Position:
    trump = 0 if kind == "trump" else None
    return Position(tuple(hands), PREF_SUITS, trump, True, leader, (),
                             tuple(s == declarer for s in range(3)), kind != "misere")


def full_layouts(kind: str, count: int = COUNT, seed: str = "bench") -> list[Position]:
    """``count`` random deals (10 cards each, 2 in the talon) for one contract kind."""
    rng = random.Random(f"{seed}-{kind}")
    return [full_deal(rng, kind) for _ in range(count)]


def whist_endings(count: int = 40, cards: int = 10, seed: str = "bench") -> list[Position]:
    """``count`` random Whist endings of ``cards`` cards a hand, trump random (or none)."""
    rng = random.Random(f"{seed}-whist")
    out = []
    for _ in range(count):
        hands, _ = deal_masks(rng, range(52), 4, cards)
        trump = rng.choice((None, 0, 1, 2, 3))
        out.append(Position(tuple(hands), WHIST_SUITS, trump, False, rng.randrange(4), (),
                            (True, False, True, False), True, heuristics="partnership"))
    return out


def split_masks(kind: str, seed: str = "splits"):
    """The splits of ``splits`` for ``Engine.solve_batch``: the first layout and, per
    split, the hands of seats 1 and 2 as masks (same order)."""
    from itertools import combinations

    (declarer, west, east), _ = deal_masks(random.Random(f"{seed}-{kind}"), PREF_DECK, 3, 10)
    full = west | east
    masks = [(bits(w), full & ~bits(w)) for w in combinations(cards_of(full), 10)]
    return position((declarer, masks[0][0], masks[0][1]), kind, 0, 0), masks


def splits(kind: str, seed: str = "splits"):
    """Declarer (seat 0) keeps one hand; yield every split of the defenders' 20 cards.

    Splits come in ``itertools.combinations`` order (lexicographic), as an
    enumeration would produce them; the declarer leads.
    """
    from itertools import combinations

    (declarer, west, east), _ = deal_masks(random.Random(f"{seed}-{kind}"), PREF_DECK, 3, 10)
    full = west | east
    for chosen in combinations(cards_of(full), 10):
        w = bits(chosen)
        yield position((declarer, w, full & ~w), kind, 0, 0)
