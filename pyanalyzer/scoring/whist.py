"""Whist scoring (the English partnership game, not the Preferans defence).

Whist: the side with more than six tricks scores tricks − 6; the game is 5.
Bid Whist: a bid of n promises 6 + n tricks, the kitty counting as one trick
of the bidders; made → tricks − 6, failed → minus the shortfall.

>>> whist_points(7), whist_points(6)
(1, 0)
>>> bid_whist_score(7, 9)
-4
"""

from __future__ import annotations

from dataclasses import dataclass

from pyanalyzer.scoring.errors import ScoringError

SIDES = ("NS", "EW")
WHIST_TRICKS = 13
BOOK = 6


def whist_points(tricks: int) -> int:
    """Points of a side that took ``tricks`` of 13: tricks − 6 if it has more than six, else 0.

    >>> [whist_points(n) for n in (0, 6, 7, 13)]
    [0, 0, 1, 7]
    """
    if not 0 <= tricks <= WHIST_TRICKS:
        raise ScoringError(f"a side cannot take {tricks} tricks of {WHIST_TRICKS}", str(tricks))
    return max(0, tricks - BOOK)


def bid_whist_score(bid: int, tricks: int) -> int:
    """The bidding side's score: ``tricks`` counts the kitty as one trick (13 in all).

    >>> bid_whist_score(4, 10), bid_whist_score(4, 12), bid_whist_score(7, 9)
    (4, 6, -4)
    """
    if not 1 <= bid <= 7:
        raise ScoringError(f"bad bid {bid}: Bid Whist bids are 1 to 7", str(bid))
    if not 0 <= tricks <= WHIST_TRICKS:
        raise ScoringError(f"the bidders cannot take {tricks} tricks of {WHIST_TRICKS}", str(tricks))
    made = tricks - BOOK
    return made if made >= bid else -(bid - made)


def other_side(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass
class WhistSheet:
    """Running score of a Whist or Bid Whist game, ``game`` points to win (and, in Bid Whist, −game to lose).

    >>> sheet = WhistSheet(bid=False)
    >>> sheet.play("NS", 7), sheet.play("EW", 11), sheet.scores
    ({'NS': 1, 'EW': 0}, {'NS': 0, 'EW': 5}, {'NS': 1, 'EW': 5})
    >>> sheet.winner
    'EW'
    """

    bid: bool = False
    game: int = 5

    def __post_init__(self) -> None:
        self.scores = {side: 0 for side in SIDES}
        self.history: dict = {side: [] for side in SIDES}
        self.winner: str | None = None

    def play(self, side: str, tricks: int, bid: int | None = None, line: int | None = None) -> dict:
        """Write one deal: ``side`` took ``tricks`` (Whist) or bid ``bid`` and took ``tricks`` (Bid Whist)."""
        where = f"line {line}: " if line is not None else ""
        if side not in SIDES:
            raise ScoringError(f"{where}unknown side {side!r}: sides are NS and EW", side)
        if self.winner:
            raise ScoringError(f"{where}the game is over: {self.winner} won")
        try:
            if self.bid:
                if bid is None:
                    raise ScoringError("Bid Whist needs the bid")
                points = {side: bid_whist_score(bid, tricks), other_side(side): 0}
            else:
                points = {side: whist_points(tricks), other_side(side): whist_points(WHIST_TRICKS - tricks)}
            deal = {name: points[name] for name in SIDES}
        except ScoringError as error:
            raise ScoringError(f"{where}{error}", error.token) from None
        for name in SIDES:
            self.scores[name] += deal[name]
            self.history[name].append(self.scores[name])
        for name in SIDES:
            if self.scores[name] >= self.game:
                self.winner = name
            elif self.bid and self.scores[name] <= -self.game:
                self.winner = other_side(name)
        return deal
