"""Bid Whist card play: uptown or downtown ranking, two jokers as the highest trumps.

* **uptown**: A K Q ... 2 as in whist;
* **downtown**: the low cards win: 2 beats 3 ... beats K, and the ace stays
  the highest card of its suit;
* **jokers**: the big joker, then the little joker, are the two highest trumps
  (above the trump ace): a joker follows a trump lead and a joker lead calls
  for trumps;
* **no-trump**: jokers have no power and belong to no suit. The engine knows
  only cards of a suit, so no-trump is solved when no joker is left in a hand
  (the bidder usually buries them in the kitty); a joker in a no-trump hand is
  reported as not supported.

The engine takes any suits whose higher bits are higher cards, so a ranking is
just a numbering: downtown numbers K as the lowest card of its suit and the
jokers are bits 52 and 53 on top of the trump suit.

A deal is written as PBN with the jokers after a ``+`` (``B`` big, ``L``
little): ``N:AKQ.JT9.87.6543+B ...``. The kitty (six cards) counts as the
bidder's first trick: add one to the bidding side's tricks of a full deal.

>>> deal = BidWhistDeal.from_pbn("N:2...+B K3... ..2.A ..3.2")
>>> [solve_bid_whist(deal, "s", ranking, lead="N", engine="reference").tricks
...  for ranking in ("uptown", "downtown")]
[1, 2]
>>> deal.pbn()
'N:2...+B K3... ..2.A ..3.2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError, NotationError
from pyanalyzer.model.cards import WHIST, Suit
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import WHIST_RULES
from pyanalyzer.render.html import HtmlView
from pyanalyzer.whist.deal import SEATS, _trump_suit, lho
from pyanalyzer.whist.pbn import PBN_SEATS, _parse_hand, format_hand

RANKINGS = ("uptown", "downtown")
#: Engine bits of the jokers: above the 52 cards, so above any suit.
LITTLE_JOKER, BIG_JOKER = 52, 53
JOKER_LETTERS = {"L": LITTLE_JOKER, "B": BIG_JOKER}


@dataclass(frozen=True, eq=False)
class BidWhistDeal:
    """Four hands of Bid Whist: whist cards, and the jokers each seat holds (``"B"``, ``"L"``)."""

    hands: Mapping[str, Hand]
    jokers: Mapping[str, str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", MappingProxyType({s: self.hands[s] for s in SEATS}))
        jokers = {s: "".join(sorted(self.jokers.get(s, ""))) for s in SEATS}
        letters = "".join(jokers.values())
        for letter in letters:
            if letter not in JOKER_LETTERS:
                raise NotationError(f"unknown joker {letter!r}: write B (big) or L (little)", letter)
            if letters.count(letter) > 1:
                raise LayoutError(f"joker {letter!r} is in two hands", letter)
        object.__setattr__(self, "jokers", MappingProxyType(jokers))
        sizes = {s: len(self.hands[s]) + len(jokers[s]) for s in SEATS}
        if len(set(sizes.values())) > 1:
            detail = ", ".join(f"{s} {n}" for s, n in sizes.items())
            raise LayoutError(f"wrong hand sizes ({detail}): every hand must have the same number", "hands")
        if sizes["N"] > 12:
            raise LayoutError(f"a bid whist hand has at most 12 cards, not {sizes['N']}", "hands")

    @classmethod
    def from_pbn(cls, text: str) -> BidWhistDeal:
        """PBN with jokers after ``+``: ``N:AKQ.JT9.87.6543+B ...``."""
        first, sep, rest = text.strip().partition(":")
        if not sep or first.strip().upper() not in PBN_SEATS or len(rest.split()) != 4:
            raise NotationError(f"bad bid whist deal {text!r}: write e.g. 'N:AKQ.JT9.87.6543+B ...' "
                                "with four hands", text)
        start = PBN_SEATS.index(first.strip().upper())
        hands, jokers = {}, {}
        for offset, part in enumerate(rest.split()):
            seat = PBN_SEATS[(start + offset) % 4]
            cards, _, joker = part.partition("+")
            hands[seat] = Hand(_parse_hand(cards), WHIST)
            jokers[seat] = joker.upper()
        seen = {}
        for seat, hand in hands.items():
            for card in hand:
                if card in seen:
                    raise LayoutError(f"card {card.code!r} is in both {seen[card]} and {seat}", card.code)
                seen[card] = seat
        return cls(hands, jokers)

    def pbn(self) -> str:
        return "N:" + " ".join(format_hand(self.hands[s]) + (f"+{self.jokers[s]}" if self.jokers[s] else "")
                               for s in SEATS)

    @property
    def tricks(self) -> int:
        return len(self.hands["N"]) + len(self.jokers["N"])

    def __repr__(self) -> str:
        return f"BidWhistDeal.from_pbn({self.pbn()!r})"


def card_bit(suit_number: int, rank_number: int, ranking: str) -> int:
    """The engine bit of a card: inside a suit a higher bit is a higher card.

    >>> card_bit(0, 12, "downtown"), card_bit(0, 0, "downtown"), card_bit(0, 11, "downtown")
    (12, 11, 0)
    """
    if ranking not in RANKINGS:
        raise NotationError(f"unknown ranking {ranking!r}: choose uptown or downtown", ranking)
    if ranking == "downtown" and rank_number < 12:  # K lowest ... 2, then the ace on top
        rank_number = 11 - rank_number
    return suit_number * 13 + rank_number


def bid_whist_position(deal: BidWhistDeal, trump: Suit | None, ranking: str, declarer: str,
                       lead: str) -> Position:
    """The position in the engine's terms (North-South or East-West counted as ``declarer``'s side)."""
    if trump is None and any(deal.jokers.values()):
        holders = ", ".join(s for s in SEATS if deal.jokers[s])
        raise LayoutError(f"no-trump with a joker in hand ({holders}): jokers belong to no suit, which "
                          "the engine does not play yet; bury them in the kitty", "jokers")
    hands = []
    for seat in SEATS:
        mask = sum(1 << card_bit(c.suit_number, c.rank_number, ranking) for c in deal.hands[seat])
        mask |= sum(1 << JOKER_LETTERS[j] for j in deal.jokers[seat])
        hands.append(mask)
    suit_masks = [WHIST.suit_mask(i) for i in range(len(WHIST.suits))]
    trump_number = None if trump is None else WHIST.suit_index(trump)
    if trump_number is not None:
        suit_masks[trump_number] |= (1 << LITTLE_JOKER) | (1 << BIG_JOKER)
    side = WHIST_RULES.side_of(declarer)
    return Position(
        hands=tuple(hands), suit_masks=tuple(suit_masks), trump=trump_number,
        must_trump=WHIST_RULES.must_trump, leader=SEATS.index(lead), played=(),
        declarer_side=tuple(s in side for s in SEATS), maximize=True, heuristics=WHIST_RULES.heuristics)


@dataclass
class BidWhistResult(HtmlView):
    """The declarer side's tricks in play (``tricks``); ``with_kitty`` adds the kitty's trick."""

    deal: BidWhistDeal
    trump: Suit | None
    ranking: str
    declarer: str
    lead: str
    tricks: int

    @property
    def with_kitty(self) -> int:
        """Tricks of the bidding side counting the kitty as one (a full 12-card deal)."""
        return self.tricks + 1

    def __str__(self) -> str:
        trump = "no-trump" if self.trump is None else f"{self.trump.name} trump"
        side = WHIST_RULES.side_name(self.declarer)
        return (f"{self.ranking} {trump}, {self.lead} leads: {side} take {self.tricks} of "
                f"{self.deal.tricks} tricks")


def solve_bid_whist(deal: BidWhistDeal, trump: Suit | str | None, ranking: str = "uptown",
                    declarer: str = "N", lead: str | None = None,
                    engine: str | object = "fast") -> BidWhistResult:
    """The declarer side's tricks with best play (the bidder's left leads by default)."""
    declarer = WHIST_RULES.seat(declarer)
    lead = WHIST_RULES.seat(lead) if lead else lho(declarer)
    suit = _trump_suit(trump)
    backend = make_backend(engine) if isinstance(engine, str) else engine
    value = backend.solve(bid_whist_position(deal, suit, ranking, declarer, lead))
    return BidWhistResult(deal, suit, ranking, declarer, lead, value)
