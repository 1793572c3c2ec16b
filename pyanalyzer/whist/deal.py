"""A whist deal: four hands, seats N E S W, partners opposite.

The play is bridge's: follow suit if you can, otherwise any card. The last
card dealt (the dealer's) is turned up and its suit is trump; the player on
the dealer's left leads. A :func:`whist_layout` is an ordinary
:class:`~pyanalyzer.model.layout.Layout` (``game=whist``), so ``solve`` gives the
tricks of each side, the value of every card and a best line.

>>> deal = Deal.from_pbn("N:A.K.. K.A.. Q.Q.. J.J..")
>>> deal
Deal.from_pbn('N:A.K.. K.A.. Q.Q.. J.J..')
>>> layout = whist_layout(deal, trump="nt", declarer="N")
>>> layout.lead, layout.contract.code
('E', 'n')
>>> from pyanalyzer.analysis.solve import solve
>>> print(solve(layout, engine="reference").verdict())
North-South take 1 of the 2 tricks left, East-West 1.
>>> trump_from_turned(deal, dealer="S", card="Qh")
Suit('h')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import WHIST, Card, Suit
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import parse_card
from pyanalyzer.model.rules import WHIST_RULES
from pyanalyzer.whist.pbn import PBN_SEATS, format_pbn, parse_pbn

SEATS = WHIST_RULES.seats


def lho(seat: str) -> str:
    """The left-hand opponent: the next seat clockwise (who leads after ``seat`` deals).

    >>> lho("N"), lho("W")
    ('E', 'N')
    """
    return WHIST_RULES.next_seat(WHIST_RULES.seat(seat))


def partner(seat: str) -> str:
    """The seat opposite.

    >>> partner("E")
    'W'
    """
    return lho(lho(seat))


@dataclass(frozen=True, eq=False)
class Deal:
    """Four whist hands. ``first`` is the seat PBN lists first (by custom the dealer)."""

    hands: Mapping[str, Hand]
    first: str = "N"

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", MappingProxyType({s: self.hands[s] for s in SEATS}))

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Read a PBN deal string (see :mod:`pyanalyzer.whist.pbn`)."""
        first, hands = parse_pbn(text)
        return cls(hands, first)

    @classmethod
    def from_layout(cls, layout: Layout) -> Deal:
        """The hands of a whist layout (cards of a trick in progress are not included)."""
        if layout.rules.game != "whist":
            raise LayoutError(f"not a whist layout (game={layout.rules.game})", layout.rules.game)
        return cls(dict(layout.hands))

    def pbn(self, first: str | None = None) -> str:
        """The PBN deal string, starting with ``first`` (default: this deal's first seat)."""
        return format_pbn(self.hands, first or self.first)

    @property
    def tricks(self) -> int:
        return len(self.hands["N"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return dict(self.hands) == dict(other.hands)

    def __hash__(self) -> int:
        return hash(tuple(self.hands[s].mask for s in SEATS))

    def __str__(self) -> str:
        return self.pbn()

    def __reduce__(self):
        """Picklable (a cluster worker solves it): the hands as a plain dict (not the read-only view)."""
        return Deal, (dict(self.hands), self.first)

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.pbn()!r})"


def random_deal(rng: random.Random, cards: int = 13) -> Deal:
    """A random deal of ``cards`` cards a hand (fewer than 13: a random ending).

    >>> random_deal(random.Random(7), cards=2).tricks
    2
    """
    if not 1 <= cards <= 13:
        raise ValueError(f"a whist hand has 1 to 13 cards, not {cards}")
    pack = list(WHIST.cards)
    rng.shuffle(pack)
    return Deal({seat: Hand(pack[i * cards:(i + 1) * cards], WHIST) for i, seat in enumerate(SEATS)})


def trump_from_turned(deal: Deal, dealer: str, card: Card | str) -> Suit:
    """The trump suit of a deal whose last card, ``card``, was turned up by ``dealer``.

    The turned card is the dealer's (it was the last dealt), so it must be in his hand.
    """
    dealer = WHIST_RULES.seat(dealer)
    if isinstance(card, str):
        card = parse_card(card, WHIST)
    if card not in deal.hands[dealer]:
        raise LayoutError(
            f"the turned-up card {card.code!r} is not in the dealer's hand ({dealer})", card.code)
    return card.suit


def _trump_suit(trump: Suit | str | None) -> Suit | None:
    if trump is None or isinstance(trump, Suit):
        return trump
    contract = Contract.parse(trump, WHIST_RULES)
    return contract.trump


def whist_layout(deal: Deal, trump: Suit | str | None = None, declarer: str = "N",
                 lead: str | None = None, dealer: str | None = None,
                 turned: Card | str | None = None, title: str | None = None) -> Layout:
    """A ``game=whist`` layout of ``deal``: ready for :func:`~pyanalyzer.analysis.solve.solve`.

    ``trump`` is a suit or its name (``s``, ``♥``, ``nt``); or give ``dealer``
    and the ``turned`` card, whose suit is trump. ``declarer`` is any seat of
    the side whose tricks are counted. The leader is ``lead``, else the
    dealer's left, else the declarer's left (as in bridge and in DDS tables).
    """
    declarer = WHIST_RULES.seat(declarer)
    if turned is not None:
        if dealer is None:
            raise LayoutError("a turned-up card needs the dealer who turned it", "dealer")
        suit = trump_from_turned(deal, dealer, turned)
        if trump is not None and _trump_suit(trump) != suit:
            raise LayoutError(f"trump {trump!r} differs from the turned-up card's suit {suit}", str(trump))
        trump = suit
    suit = _trump_suit(trump)
    if lead is None:
        lead = lho(dealer) if dealer is not None else lho(declarer)
    return Layout(
        hands=dict(deal.hands),
        contract=Contract("tricks", None, suit),
        declarer=declarer,
        lead=WHIST_RULES.seat(lead),
        title=title,
        rules=WHIST_RULES,
    )


assert PBN_SEATS == SEATS  # PBN's clockwise order is the play order
