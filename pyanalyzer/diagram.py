"""A readable text diagram of a layout: West and East above, South below.

>>> from pyanalyzer.layout_io import parse_layout
>>> print(diagram(parse_layout("contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d")))
6♠ by South, West to lead
<BLANKLINE>
        West             East
        ♠ -              ♠ -
        ♣ -              ♣ -
        ♦ -              ♦ 8 7
        ♥ 8 7            ♥ -
                South
                ♠ A K
                ♣ -
                ♦ -
                ♥ -
"""

from __future__ import annotations

from .layout import Layout
from .notation import format_card

COLUMN = 17
INDENT = 8


def hand_lines(layout: Layout, seat: str, style: str = "symbols") -> list[str]:
    """One line per suit: ``♠ A K 10`` (``-`` for a void)."""
    deck = layout.rules.deck
    hand = layout.hands[seat]
    lines = []
    for number, suit in enumerate(deck.suits):
        ranks = [format_card(c, style)[1:] for c in hand.cards_of_suit(number)]
        lines.append(f"{suit.symbol} {' '.join(ranks) or '-'}")
    return lines


def headline(layout: Layout) -> str:
    """``misère by South, East to lead`` (and who is to play in mid-trick)."""
    rules = layout.rules
    if layout.contract.is_allpass:
        text = "all-pass"
    else:
        text = f"{layout.contract} by {rules.seat_name(layout.declarer)}"
    if layout.played:
        return f"{text}, {rules.seat_name(layout.to_move)} to play"
    return f"{text}, {rules.seat_name(layout.lead)} to lead"


def diagram(layout: Layout, style: str = "symbols") -> str:
    """The whole layout as text (Preferans: W left, E right, S below)."""
    rules = layout.rules
    out = []
    if layout.title:
        out.append(layout.title)
    out.append(headline(layout))
    out.append("")
    west, east, south = (hand_lines(layout, s, style) for s in ("W", "E", "S"))
    pad = " " * INDENT
    out.append(pad + rules.seat_name("W").ljust(COLUMN) + rules.seat_name("E"))
    for left, right in zip(west, east):
        out.append(pad + left.ljust(COLUMN) + right)
    centre = " " * (INDENT + COLUMN // 2)
    out.append(centre + rules.seat_name("S"))
    out.extend(centre + line for line in south)
    extras = []
    for key in ("talon", "discard"):
        cards = getattr(layout, key)
        if cards:
            extras.append(f"{key.capitalize()}: {' '.join(format_card(c, style) for c in cards)}")
    if layout.played:
        trick = ", ".join(
            f"{seat} {format_card(card, style)}"
            for seat, card in zip(layout.played_by(), layout.played)
        )
        extras.append(f"Current trick: {trick}")
    if extras:
        out.append("")
        out.extend(extras)
    if layout.source:
        out.append(f"Source: {layout.source}")
    return "\n".join(out)
