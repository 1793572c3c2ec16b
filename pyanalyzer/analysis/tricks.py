"""The tricks of a line of play: splitting a line into tricks, printing them, counting them."""

from __future__ import annotations

from dataclasses import dataclass

from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card


@dataclass
class Trick:
    """One trick of a line: who led, the cards in play order and the winner."""

    leader: str
    cards: list[Card]
    seats: list[str]
    complete: bool
    winner: str | None  # None: incomplete, or an all-pass talon trick nobody took
    #: All-pass: the turned-up talon card that fixed this trick's suit.
    talon_card: Card | None = None


def line_to_tricks(layout: Layout, line: list[Card]) -> list[Trick]:
    """Split a line of play from ``layout`` into tricks (the first may be the current one)."""
    tricks: list[Trick] = []
    position = layout
    seats: list[str] = list(layout.played_by())
    cards: list[Card] = list(layout.played)
    for card in line:
        seats.append(position.to_move)
        cards.append(card)
        if len(cards) == len(layout.seats):
            leader = position.lead
            talon_card = position.talon_tricks[0] if position.talon_tricks else None
            tricks.append(Trick(leader, cards, seats, True, position.trick_winner(cards), talon_card))
            cards, seats = [], []
        position = position.after(card)
    if cards:
        tricks.append(Trick(position.lead, cards, seats, False, None))
    return tricks


def format_tricks(tricks: list[Trick], start: int = 1, style: str = "symbols",
                  untaken: str = "nobody") -> list[str]:
    """``1. E ♦10  S ♦9  W ♦A  -> W`` per trick (``untaken``: who gets a talon trick no one takes)."""
    lines = []
    for number, trick in enumerate(tricks, start=start):
        plays = "  ".join(f"{s} {format_card(c, style)}" for s, c in zip(trick.seats, trick.cards))
        if trick.talon_card is not None:
            plays = f"(talon {format_card(trick.talon_card, style)})  {plays}"
        won = ""
        if trick.complete:
            won = f"  -> {trick.winner or untaken}"
        lines.append(f"{number:>2}. {plays}{won}")
    return lines


class TrickCounts:
    """Derived counts for results that hold ``layout`` and ``declarer_tricks``."""

    layout: Layout
    declarer_tricks: int

    @property
    def tricks_left(self) -> int:
        return self.layout.tricks_left

    @property
    def defender_tricks(self) -> int:
        return self.tricks_left - self.declarer_tricks

    @property
    def is_full_deal(self) -> bool:
        return self.tricks_left == self.layout.rules.hand_size and not self.layout.played


def tricks_phrase(n: int, word: str = "trick") -> str:
    """``n`` and ``word`` in the right number: "1 trick", "2 tricks"."""
    return f"{n} {word}" + ("" if n == 1 else "s")
