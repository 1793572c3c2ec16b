"""Whist's move order is written twice: ``order_scored_moves`` (with ``partnership_lead_score``
and ``trick_follow_score``, the plain search's) and ``order_partnership_moves`` (the partition
search's, which scores a lead's suit once and lists some follows lowest first without
scoring). Both must give the same order (``solver/pref_engine/moves.pxd``): a drift would
not change a value, only the search's speed, so no value test would notice it.

The positions are random Whist endings, every trump (and no-trump), every seat on lead,
with 0-3 cards of the trick played, dealt plainly and skewed (long suits, voids, ruffs);
at a lead, two of the leader's cards get the killer bonuses.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pref_engine")

from positions import WHIST_SUITS, deal_masks, skewed_whist_deal  # noqa: E402
from pref_engine import Engine  # noqa: E402

from pyanalyzer.model.position import Position  # noqa: E402

TRUMPS = (None, 0, 1, 2, 3)


def suit_of(card: int) -> int:
    return card // 13


def legal(hand: int, played: tuple[int, ...]) -> list[int]:
    """Whist's legal cards (no obligation to trump)."""
    cards = [c for c in range(52) if hand >> c & 1]
    if played:
        follow = [c for c in cards if suit_of(c) == suit_of(played[0])]
        return follow or cards
    return cards


def skewed_hands(rng: random.Random, cards: int) -> list[int]:
    deal = skewed_whist_deal(rng, cards)
    # the deal's seats N E S W -> the engine's 0-3; its cards as (suit, rank) -> suit * 13 + rank
    masks = []
    for seat in ("N", "E", "S", "W"):
        mask = 0
        for card in deal.hands[seat]:
            mask |= 1 << (card.suit_number * 13 + card.rank_number)
        masks.append(mask)
    return masks


def random_position(rng: random.Random, skewed: bool) -> tuple[Position, list[int]]:
    cards = rng.randint(2, 13)
    hands = skewed_hands(rng, cards) if skewed else deal_masks(rng, range(52), 4, cards)[0]
    leader = rng.randrange(4)
    played: list[int] = []
    for i in range(rng.randrange(4)):
        seat = (leader + i) % 4
        card = rng.choice(legal(hands[seat], tuple(played)))
        hands[seat] &= ~(1 << card)
        played.append(card)
    position = Position(tuple(hands), WHIST_SUITS, rng.choice(TRUMPS), False, leader, tuple(played),
                        (True, False, True, False), True, heuristics="partnership")
    return position, hands


@pytest.mark.parametrize("skewed", [False, True], ids=["plain", "skewed"])
def test_the_two_whist_orders_agree(skewed):
    rng = random.Random(f"whist-orders-{skewed}")
    engine = Engine(tt_size_mb=1)
    checked = {"leads": 0, "follows": 0}
    differ = []
    for _ in range(3000):
        position, hands = random_position(rng, skewed)
        killers: list[int | None] = [None, None]
        if not position.played:
            mine = [c for c in range(52) if hands[position.leader] >> c & 1]
            killers = [rng.choice([None, *mine]) for _ in range(2)]
        scored, split = engine._partnership_orders(position, *killers)
        checked["follows" if position.played else "leads"] += 1
        if scored != split:
            differ.append(f"{position} killers {killers}: {scored} against {split}")
    assert not differ, f"{len(differ)} positions order differently, e.g.\n" + "\n".join(differ[:3])
    assert min(checked.values()) > 500, checked


def test_the_hook_refuses_other_heuristics():
    position = Position((0b11, 0b1100, 0b110000), tuple(0xFF << (8 * s) for s in range(4)), None, True, 0, (),
                        (True, False, False), True)
    with pytest.raises(ValueError, match="partnership"):
        Engine(tt_size_mb=1)._partnership_orders(position)
