"""The one random-position generator of the tests and the benchmarks.

Every draw comes from a ``random.Random`` the caller seeds, so a seed always gives the
same positions. Two levels:

* engine positions (``pyanalyzer.model.position.Position``, cards as numbers, hands as masks):
  :func:`deal_masks`, :func:`random_position`, :func:`random_preferans`,
  :func:`random_whist`, :func:`full_deal`, :func:`thousand_deal`, :func:`random_thousand`;
* layouts (``Layout``, the Preferans deck): :func:`deal_hands`, :func:`random_layout` and
  :func:`play_random_cards`; skewed Whist endings: :func:`skewed_whist_deal` (uniform
  Whist deals are ``pyanalyzer.whist.random_deal``).

The benchmarks import this module too (``sys.path``), so their fixed layouts come from
the same draws.

Card numbers (the engine's terms, restated here so the tests need no game code for
them): Preferans ``suit * 8 + rank``, suits s, c, d, h = 0..3, ranks 7..A = 0..7;
Whist ``suit * 13 + rank``, ranks 2..A = 0..12; Thousand ``suit * 6 + rank``, ranks
9 J Q K 10 A = 0..5. Seats are numbered in play order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pyanalyzer.model.cards import PREFERANS, Card
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import DECLARE, Position
from pyanalyzer.model.rules import PREFERANS_RULES, Rules
from pyanalyzer.whist import Deal

__all__ = ["PREF_SUITS", "WHIST_SUITS", "PREF_DECK", "KINDS", "bits", "cards_of", "deal_masks",
           "random_position", "random_preferans", "random_whist", "full_deal", "THOUSAND_SUITS",
           "THOUSAND_POINTS", "THOUSAND_MARRIAGES", "THOUSAND_ACES", "thousand_deal",
           "random_thousand", "deal_hands", "random_layout",
           "play_random_cards", "skewed_whist_deal"]

PREF_SUITS = tuple(0xFF << (8 * s) for s in range(4))
WHIST_SUITS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
PREF_DECK = tuple(range(32))
#: Preferans contract kinds of the engine positions: a trump contract (spades in
#: :func:`full_deal`), no-trump, misère.
KINDS = ("misere", "trump", "nt")
LAYOUT_SEATS = ("S", "W", "E")


def bits(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


# -- engine positions ---------------------------------------------------------------------


def deal_masks(rng: random.Random, deck: Sequence[int], seats: int, tricks: int,
               extra: int = 0) -> tuple[list[int], list[int]]:
    """``tricks`` cards to each of ``seats`` hands from ``deck`` and ``extra`` more cards.

    One ``rng.sample`` of all the cards dealt: the hands (bit masks, in seat order) take
    them in turn, ``tricks`` each, and the extra cards (a talon, in order) follow.
    """
    dealt = rng.sample(deck, seats * tricks + extra)
    hands = [bits(dealt[i * tricks:(i + 1) * tricks]) for i in range(seats)]
    return hands, dealt[seats * tricks:]


def random_position(rng: random.Random, *, seats: int, tricks: int, trump, must_trump: bool,
                    maximize: bool, declarer_side, suit_masks=PREF_SUITS,
                    mid_trick: bool = False, heuristics: str = "solo") -> Position:
    """Deal ``tricks`` cards to each seat, a random leader; ``mid_trick``: 1 to seats - 1
    random legal cards already played to the trick. ``heuristics``: the engine's, as the
    game's rules declare them (Whist: ``partnership``)."""
    hands, _ = deal_masks(rng, cards_of(sum(suit_masks)), seats, tricks)
    leader = rng.randrange(seats)
    pos = Position(tuple(hands), tuple(suit_masks), trump, must_trump, leader, (),
                            tuple(declarer_side), maximize, heuristics=heuristics)
    if mid_trick:
        rules = TrickRules.of(pos)
        played: list[int] = []
        for k in range(rng.randrange(1, seats)):
            seat = (leader + k) % seats
            card = rng.choice(cards_of(rules.legal_moves(hands[seat], played)))
            hands[seat] &= ~(1 << card)
            played.append(card)
        pos = Position(tuple(hands), tuple(suit_masks), trump, must_trump, leader,
                                tuple(played), tuple(declarer_side), maximize, heuristics=heuristics)
    return pos


def random_preferans(rng: random.Random, tricks: int, *, kind: str | None = None,
                     mid_trick: bool | None = None) -> Position:
    """A 3-hand Preferans position: a trick contract in any denomination or misère
    (``kind`` unset: trump twice as often as no-trump or misère), a random declarer,
    mid-trick 40% of the time unless ``mid_trick`` says."""
    kind = kind or rng.choice(["trump", "trump", "nt", "misere"])
    declarer = rng.randrange(3)
    side = tuple(s == declarer for s in range(3))
    if mid_trick is None:
        mid_trick = rng.random() < 0.4
    trump = rng.randrange(4) if kind == "trump" else None
    return random_position(rng, seats=3, tricks=tricks, trump=trump, must_trump=True,
                           maximize=kind != "misere", declarer_side=side, mid_trick=mid_trick)


def random_whist(rng: random.Random, tricks: int) -> Position:
    """A 4-hand Whist-like position: partnerships, free discards, trump or not, the
    declarer's side wanting tricks 85% of the time (else a misère-like aim)."""
    trump = rng.choice([None, 0, 1, 2, 3])
    first = rng.randrange(2)
    side = tuple(s % 2 == first for s in range(4))
    return random_position(rng, seats=4, tricks=tricks, trump=trump, must_trump=False,
                           maximize=rng.random() < 0.85, declarer_side=side,
                           suit_masks=WHIST_SUITS, mid_trick=rng.random() < 0.4,
                           heuristics="partnership")


def full_deal(rng: random.Random, kind: str) -> Position:
    """A full 10-card Preferans deal (2 cards left in the talon) of one contract kind:
    spades trump for ``trump``; a random declarer and a random leader."""
    hands, _ = deal_masks(rng, PREF_DECK, 3, 10)
    declarer, leader = rng.randrange(3), rng.randrange(3)
    return Position(tuple(hands), PREF_SUITS, 0 if kind == "trump" else None, True, leader, (),
                             tuple(s == declarer for s in range(3)), kind != "misere")


# Thousand (docs/rules.md): 24 cards, 9 J Q K 10 A lowest first; card points 9 0, J 2, Q 3,
# K 4, 10 10, A 11; marriages (K+Q) s 40, c 60, d 80, h 100; the ace marriage (the four aces) 200.
THOUSAND_SUITS = tuple(0x3F << (6 * s) for s in range(4))
THOUSAND_POINTS = (0, 2, 3, 4, 10, 11) * 4
THOUSAND_MARRIAGES = tuple((1 << (6 * s + 3) | 1 << (6 * s + 2), value)
                           for s, value in enumerate((40, 60, 80, 100)))
THOUSAND_ACES = (sum(1 << (6 * s + 5) for s in range(4)), 200)


def thousand_deal(rng: random.Random, ace_marriage: bool = False, heuristics: str = "plain") -> Position:
    """A fresh Thousand deal after the exchange: 8 cards to each of S W E (seats 0 1 2), the
    declarer S leads, no trump yet, no declaring on the first lead, the four marriages (and
    with ``ace_marriage`` the aces, 200)."""
    hands, _ = deal_masks(rng, tuple(range(24)), 3, 8)
    marriages = THOUSAND_MARRIAGES + ((THOUSAND_ACES,) if ace_marriage else ())
    return Position(tuple(hands), THOUSAND_SUITS, None, True, 0, (), (True, False, False), True,
                    card_points=THOUSAND_POINTS, marriages=marriages, leader_may_declare=False,
                    heuristics=heuristics)


def random_thousand(rng: random.Random, tricks: int, *, mid_trick: bool | None = None,
                    heuristics: str = "plain") -> Position:
    """A Thousand ending of ``tricks`` cards a hand: a random declarer, leader, trump (none a
    fifth of the time) and right to declare; the ace marriage a third of the time (then the
    four aces go to one hand half of the time: they rarely meet by chance); mid-trick 40% of
    the time unless ``mid_trick`` says."""
    deck = list(range(24))
    rng.shuffle(deck)
    ace_marriage = rng.random() < 0.33
    if ace_marriage and tricks >= 4 and rng.random() < 0.5:
        aces = [6 * s + 5 for s in range(4)]
        first = rng.randrange(3) * tricks
        rest = [c for c in deck if c not in aces]
        deck = rest[:first] + aces + rest[first:]
    hands = [bits(deck[i * tricks:(i + 1) * tricks]) for i in range(3)]
    declarer, leader = rng.randrange(3), rng.randrange(3)
    marriages = THOUSAND_MARRIAGES + ((THOUSAND_ACES,) if ace_marriage else ())
    trump = None if rng.random() < 0.2 else rng.randrange(4)
    pos = Position(tuple(hands), THOUSAND_SUITS, trump, True, leader, (),
                   tuple(s == declarer for s in range(3)), True, card_points=THOUSAND_POINTS,
                   marriages=marriages, leader_may_declare=rng.random() < 0.7, heuristics=heuristics)
    if mid_trick if mid_trick is not None else rng.random() < 0.4:
        rules = TrickRules.of(pos)
        played: list[int] = []
        for k in range(rng.randrange(1, 3)):
            seat = (leader + k) % 3
            move = rng.choice(rules.moves(hands[seat], played, trump, pos.leader_may_declare))
            card = move & ~DECLARE
            declared = rules.declaration(move)
            if declared is not None:
                trump = declared[0]
            hands[seat] &= ~(1 << card)
            played.append(card)
        pos = Position(tuple(hands), THOUSAND_SUITS, trump, True, leader, tuple(played),
                       pos.declarer_side, True, card_points=THOUSAND_POINTS, marriages=marriages,
                       leader_may_declare=pos.leader_may_declare, heuristics=heuristics)
    return pos


# -- layouts --------------------------------------------------------------------------------


def deal_hands(rng: random.Random, tricks: int, extra: int = 0,
               suits_drawn: tuple[int, int] | None = (1, 3)) -> tuple[dict[str, Hand], list[Card]]:
    """``tricks`` Preferans cards to each of S, W, E and ``extra`` more cards (in order).

    ``suits_drawn`` (lowest, highest): half of the time the cards come from that many suits
    drawn at random (more voids), when the cards dealt fit in the most suits allowed and
    the suits drawn hold them; ``None``: always the whole deck.
    """
    pool = list(PREFERANS.cards)
    needed = 3 * tricks + extra
    if suits_drawn and rng.random() < 0.5 and needed <= 8 * suits_drawn[1]:
        suits = rng.sample(range(4), rng.randint(*suits_drawn))
        fewer = [c for c in pool if c.suit_number in suits]
        if len(fewer) >= needed:
            pool = fewer
    dealt = rng.sample(pool, needed)
    hands = {s: Hand(dealt[i * tricks:(i + 1) * tricks], PREFERANS) for i, s in enumerate(LAYOUT_SEATS)}
    return hands, dealt[3 * tricks:]


def random_layout(rng: random.Random, tricks: int, contracts: str | Sequence[str], *,
                  declarer: str | None = None, talon_cards: int = 0,
                  suits_drawn: tuple[int, int] | None = (1, 3), rules: Rules = PREFERANS_RULES) -> Layout:
    """A Preferans layout of ``tricks`` cards a hand, at the first lead.

    * the cards as :func:`deal_hands` deals them, ``talon_cards`` of them to the talon;
    * ``contracts``: one contract code, or codes to draw one from;
    * ``declarer``: fixed, or (None) drawn for any contract but all-pass; the lead is drawn.

    Then :func:`play_random_cards` plays into the first trick if wanted.
    """
    hands, talon = deal_hands(rng, tricks, talon_cards, suits_drawn)
    contract = Contract.parse(contracts if isinstance(contracts, str) else rng.choice(contracts), rules)
    if declarer is None and not contract.is_allpass:
        declarer = rng.choice(LAYOUT_SEATS)
    return Layout(hands, contract, declarer, rng.choice(LAYOUT_SEATS), talon=tuple(talon), rules=rules)


def play_random_cards(rng: random.Random, layout: Layout, count: int, *,
                      legal: Callable[[Layout], list] = Layout.legal_cards,
                      keep_last_trick: bool = False) -> Layout:
    """``layout`` after ``count`` random legal cards (drawn from ``legal(layout)``, in its
    order); ``keep_last_trick``: stop when one trick is left."""
    for _ in range(count):
        if keep_last_trick and layout.tricks_left <= 1:
            break
        layout = layout.after(rng.choice(legal(layout)))
    return layout


# -- Whist deals ------------------------------------------------------------------------------

WHIST_RANKS = "AKQJT98765432"


def skewed_whist_deal(rng: random.Random, cards: int) -> Deal:
    """A Whist ending of ``cards`` a hand, each hand drawing mostly (70%) from a suit of its
    own: long suits and voids, where the speed rules' shortcuts are tested hardest."""
    deck = [(suit, rank) for suit in range(4) for rank in range(13)]
    rng.shuffle(deck)
    hands: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    favourite = [rng.randrange(4) for _ in range(4)]
    for _ in range(cards):
        for seat in range(4):
            mine = [c for c in deck if c[0] == favourite[seat]]
            card = mine[0] if mine and rng.random() < 0.7 else deck[0]
            deck.remove(card)
            hands[seat].append(card)
    pbn = " ".join(".".join("".join(WHIST_RANKS[r] for r in sorted(rank for s, rank in hand if s == suit))
                            for suit in range(4)) for hand in hands)
    return Deal.from_pbn("N:" + pbn)


# -- two hand-worked two-suit endings (values worked by hand in test_points_and_declarations) ---
# Suits: 0 spades (cards 0-3), 1 hearts (4-7); the rank is the number inside the suit.


def heart_marriage_ending() -> Position:
    """South holds the heart marriage (K 7, Q 6; 100), West two spades; South leads, may declare."""
    return Position(hands=(1 << 6 | 1 << 7, 1 << 3 | 1 << 2), suit_masks=(0b1111, 0b1111 << 4),
                    trump=None, must_trump=True, leader=0, played=(), declarer_side=(True, False),
                    maximize=True, card_points=(0, 0, 3, 11, 0, 0, 3, 4),
                    marriages=((1 << 7 | 1 << 6, 100),), leader_may_declare=True, heuristics="plain")


def ace_marriage_ending() -> Position:
    """South holds both aces (3, 7: this deck's ace marriage, 200) and a low spade; West three
    hearts, the king among them; South leads and may declare."""
    return Position(hands=(1 << 3 | 1 << 7 | 1 << 0, 1 << 4 | 1 << 5 | 1 << 6),
                    suit_masks=(0b1111, 0b1111 << 4), trump=None, must_trump=True, leader=0, played=(),
                    declarer_side=(True, False), maximize=True, card_points=(0, 0, 4, 11, 0, 0, 4, 11),
                    marriages=((1 << 3 | 1 << 7, 200),), leader_may_declare=True, heuristics="plain")


def split_trumps_whist_deal(rng: random.Random, cards: int) -> Deal:
    """A Whist ending of ``cards`` a hand in which one partnership holds most of the spades
    with the top ones split between its hands (the ace in one, the king in the other, the
    queen in either), the other partnership few: the positions where the side on lead
    cashes its trumps crossing between the hands."""
    deck = [(suit, rank) for suit in range(4) for rank in range(13)]
    rng.shuffle(deck)
    hands: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    rich = rng.randrange(2)
    first = rich + 2 * rng.randrange(2)
    for card, seat in (((0, 0), first), ((0, 1), (first + 2) % 4), ((0, 2), rich + 2 * rng.randrange(2))):
        deck.remove(card)
        hands[seat].append(card)
    for _ in range(cards):
        for seat in range(4):
            if len(hands[seat]) >= cards:
                continue
            spades = [c for c in deck if c[0] == 0]
            chance = 0.6 if seat % 2 == rich else 0.1
            card = spades[0] if spades and rng.random() < chance else deck[0]
            deck.remove(card)
            hands[seat].append(card)
    pbn = " ".join(".".join("".join(WHIST_RANKS[r] for r in sorted(rank for s, rank in hand if s == suit))
                            for suit in range(4)) for hand in hands)
    return Deal.from_pbn("N:" + pbn)
