"""PBN deal strings: ``N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 ...``.

The first letter names the seat of the first hand; the hands follow clockwise
(N E S W). Each hand lists its spades, hearts, diamonds and clubs (the
standard's suit order S H D C) separated by dots, ranks ``AKQJT98765432``.
A ``[Deal "..."]`` tag is accepted too. Hands may be shorter than 13 cards
(an ending), but all four must have the same number.

>>> first, hands = parse_pbn("N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q")
>>> first, str(hands["E"])
('N', '♠K ♥Q ♦J ♣A')
>>> format_pbn(hands, first="E")
'E:K.Q.J.A Q.J.A.K J.A.K.Q A.K.Q.J'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pyanalyzer.errors import DuplicateCardError, LayoutError, NotationError, UnknownCardError, shorten
from pyanalyzer.model.cards import WHIST, Card
from pyanalyzer.model.hand import Hand

#: Seats clockwise, as PBN lists them.
PBN_SEATS = ("N", "E", "S", "W")
#: PBN's suit order: spades, hearts, diamonds, clubs.
PBN_SUITS = ("s", "h", "d", "c")
RANK_LETTERS = "AKQJT98765432"

#: A deal string is about 70 characters; anything over this bound is not one.
MAX_PBN_SIZE = 1_000

_TAG = re.compile(r'^\[\s*Deal\s+"(.*)"\s*\]$', re.IGNORECASE)


def parse_pbn(text: str) -> tuple[str, dict[str, Hand]]:
    """The first seat and the four hands of a PBN deal string.

    >>> parse_pbn("N:AK.. Q.J..")
    Traceback (most recent call last):
    ...
    pyanalyzer.errors.NotationError: bad PBN deal 'N:AK.. Q.J..': it needs four hands, not 2
    """
    if len(text) > MAX_PBN_SIZE:
        raise NotationError(f"bad PBN deal {shorten(text)!r}: a deal has at most {MAX_PBN_SIZE:,} characters",
                            shorten(text))
    body = text.strip()
    tag = _TAG.match(body)
    if tag:
        body = tag.group(1).strip()
    first, sep, rest = body.partition(":")
    if not sep or first.strip().upper() not in PBN_SEATS:
        raise NotationError(
            f"bad PBN deal {shorten(text)!r}: it starts with the first seat, e.g. 'N:AKQ.JT9.87.65432 ...'", text)
    first = first.strip().upper()
    parts = rest.split()
    if len(parts) != 4:
        raise NotationError(f"bad PBN deal {shorten(text)!r}: it needs four hands, not {len(parts)}", text)
    start = PBN_SEATS.index(first)
    hands: dict[str, Hand] = {}
    owner: dict[Card, str] = {}
    for offset, part in enumerate(parts):
        seat = PBN_SEATS[(start + offset) % 4]
        cards = _parse_hand(part)
        for card in cards:
            if card in owner:
                raise DuplicateCardError(
                    f"card {card.code!r} is in both {owner[card]} and {seat}", card.code)
            owner[card] = seat
        hands[seat] = Hand(cards, WHIST)
    sizes = {seat: len(hand) for seat, hand in hands.items()}
    if len(set(sizes.values())) > 1:
        detail = ", ".join(f"{s} {sizes[s]}" for s in PBN_SEATS)
        raise LayoutError(f"wrong hand sizes in {shorten(text)!r} ({detail}): every hand must have the same number",
                          text)
    if max(sizes.values()) == 0:
        raise LayoutError(f"empty PBN deal {shorten(text)!r}: the four hands hold no cards", text)
    if max(sizes.values()) > 13:
        raise LayoutError(f"wrong hand sizes in {shorten(text)!r}: a whist hand has at most 13 cards", text)
    return first, {seat: hands[seat] for seat in PBN_SEATS}


def _parse_hand(part: str) -> list[Card]:
    holdings = part.split(".")
    if len(holdings) != 4:
        raise NotationError(
            f"bad PBN hand {shorten(part)!r}: write four suits S.H.D.C separated by dots, e.g. AKQ.JT9.87.65432", part)
    cards = []
    for suit, holding in zip(PBN_SUITS, holdings):
        seen = set()
        for char in holding.upper().replace("10", "T"):
            if char not in RANK_LETTERS:
                raise UnknownCardError(f"unknown card {char!r} in PBN hand {shorten(part)!r}", part)
            if char in seen:
                raise DuplicateCardError(f"duplicate card {char + suit!r} in PBN hand {shorten(part)!r}", part)
            seen.add(char)
            cards.append(WHIST.card(char, suit))
    return cards


def format_hand(hand: Hand) -> str:
    """One hand in PBN: ``AKQ.JT9.87.65432`` (a void is an empty holding)."""
    groups = []
    for suit in PBN_SUITS:
        number = WHIST.suit_index(next(s for s in WHIST.suits if s.letter == suit))
        groups.append("".join(c.rank.letter for c in hand.cards_of_suit(number)))
    return ".".join(groups)


def format_pbn(hands: Mapping[str, Hand], first: str = "N") -> str:
    """The PBN deal string of four hands, starting with seat ``first``."""
    start = PBN_SEATS.index(first)
    order = [PBN_SEATS[(start + i) % 4] for i in range(4)]
    return f"{first}:" + " ".join(format_hand(hands[seat]) for seat in order)
