"""The rules of each game, as data: deck, seats, hand size, contracts, play rules.

>>> PREFERANS_RULES.seats
('S', 'W', 'E')
>>> PREFERANS_RULES.next_seat("E")
'S'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import PREFERANS, WHIST, Deck
from .errors import LayoutError


@dataclass(frozen=True)
class Rules:
    """What a layout of one game may contain and how its tricks are played."""

    game: str
    deck: Deck
    #: Seats in play order: each trick goes seats[i] -> seats[i + 1] -> ...
    seats: tuple[str, ...]
    hand_size: int
    talon_size: int
    discard_size: int
    contract_levels: tuple[int, ...]
    #: A player void in the suit led must trump if he can (Preferans, Thousand).
    must_trump: bool
    seat_names: tuple[tuple[str, str], ...] = ()
    #: Partnerships (Whist: N-S and E-W); empty: the declarer plays alone against the others.
    partnerships: tuple[tuple[str, ...], ...] = ()
    #: Tricks a side takes before its contract level counts (Whist: six, the book).
    book: int = 0

    def seat(self, text: str) -> str:
        """The seat named by ``text`` (case-insensitive), or a LayoutError naming it."""
        name = text.strip().upper()
        if name in self.seats:
            return name
        raise LayoutError(
            f"unknown seat {text!r}: {self.game} seats are {', '.join(self.seats)}", text
        )

    def seat_number(self, seat: str) -> int:
        return self.seats.index(seat)

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def seat_name(self, seat: str) -> str:
        return dict(self.seat_names).get(seat, seat)

    def side_of(self, seat: str) -> tuple[str, ...]:
        """The seats playing together with ``seat`` (itself included), in play order."""
        return next((side for side in self.partnerships if seat in side), (seat,))

    def side_name(self, seat: str) -> str:
        """``South`` alone, or ``North-South`` for a partnership."""
        return "-".join(self.seat_name(s) for s in self.side_of(seat))


PREFERANS_RULES = Rules(
    game="preferans",
    deck=PREFERANS,
    seats=("S", "W", "E"),
    hand_size=10,
    talon_size=2,
    discard_size=2,
    contract_levels=(6, 7, 8, 9, 10),
    must_trump=True,
    seat_names=(("S", "South"), ("W", "West"), ("E", "East")),
)

#: Whist: four seats, partners opposite; follow suit, else any card. There is no
#: bidding: a layout's contract is its trump (``s``, ``nt``) and the declarer any
#: seat of the side whose tricks are counted; levels 1-7 mean six (the book) + n.
WHIST_RULES = Rules(
    game="whist",
    deck=WHIST,
    seats=("N", "E", "S", "W"),
    hand_size=13,
    talon_size=0,
    discard_size=0,
    contract_levels=(1, 2, 3, 4, 5, 6, 7),
    must_trump=False,
    seat_names=(("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")),
    partnerships=(("N", "S"), ("E", "W")),
    book=6,
)

GAMES = {rules.game: rules for rules in (PREFERANS_RULES, WHIST_RULES)}


def rules_for(game: str) -> Rules:
    """The rules of the game named ``game`` (``preferans``, ``whist``)."""
    try:
        return GAMES[game.strip().lower()]
    except KeyError:
        raise LayoutError(
            f"unknown game {game!r}: supported games are {', '.join(GAMES)}", game
        ) from None
