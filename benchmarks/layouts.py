"""Fixed-seed benchmark layouts: random full 10-card Preferans deals, and Whist endings.

Self-contained (the tests' helpers are not imported): card = suit * 8 + rank,
suits s, c, d, h = 0..3, ranks 7..A = 0..7; seats 0, 1, 2 in play order.
Whist: card = suit * 13 + rank (2..A = 0..12), seats 0..3, seats 0 and 2 the
declarer's side.
"""

from __future__ import annotations

import random

from pyanalyzer.reference import ReferencePosition

SUITS = tuple(0xFF << (8 * s) for s in range(4))
KINDS = ("misere", "trump", "nt")
COUNT = 200


def bits(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def position(hands, kind: str, declarer: int, leader: int) -> ReferencePosition:
    trump = 0 if kind == "trump" else None
    return ReferencePosition(tuple(hands), SUITS, trump, True, leader, (),
                             tuple(s == declarer for s in range(3)), kind != "misere")


def full_layouts(kind: str, count: int = COUNT, seed: str = "bench") -> list[ReferencePosition]:
    """``count`` random deals (10 cards each, 2 in the talon) for one contract kind."""
    rng = random.Random(f"{seed}-{kind}")
    out = []
    for _ in range(count):
        deck = rng.sample(range(32), 30)
        hands = [bits(deck[i * 10:(i + 1) * 10]) for i in range(3)]
        out.append(position(hands, kind, rng.randrange(3), rng.randrange(3)))
    return out


WHIST_SUITS = tuple(0x1FFF << (13 * s) for s in range(4))


def whist_endings(count: int = 40, cards: int = 10, seed: str = "bench") -> list[ReferencePosition]:
    """``count`` random Whist endings of ``cards`` cards a hand, trump random (or none)."""
    rng = random.Random(f"{seed}-whist")
    out = []
    for _ in range(count):
        deck = rng.sample(range(52), 4 * cards)
        hands = [bits(deck[i * cards:(i + 1) * cards]) for i in range(4)]
        trump = rng.choice((None, 0, 1, 2, 3))
        out.append(ReferencePosition(tuple(hands), WHIST_SUITS, trump, False, rng.randrange(4),
                                     (), (True, False, True, False), True,
                                     heuristics="partnership"))
    return out


def split_masks(kind: str, seed: str = "splits"):
    """The splits of ``splits`` for ``Engine.solve_batch``: the first layout and, per
    split, the hands of seats 1 and 2 as masks (same order)."""
    from itertools import combinations

    rng = random.Random(f"{seed}-{kind}")
    deck = rng.sample(range(32), 30)
    rest = sorted(deck[10:])
    full = bits(rest)
    masks = [(bits(west), full & ~bits(west)) for west in combinations(rest, 10)]
    return position((bits(deck[:10]), masks[0][0], masks[0][1]), kind, 0, 0), masks


def splits(kind: str, seed: str = "splits"):
    """Declarer (seat 0) keeps one hand; yield every split of the defenders' 20 cards.

    Splits come in ``itertools.combinations`` order (lexicographic), as an
    enumeration would produce them; the declarer leads.
    """
    from itertools import combinations

    rng = random.Random(f"{seed}-{kind}")
    deck = rng.sample(range(32), 30)
    declarer = bits(deck[:10])
    rest = sorted(deck[10:])
    full = bits(rest)
    for west in combinations(rest, 10):
        w = bits(west)
        yield position((declarer, w, full & ~w), kind, 0, 0)
