"""A readable text diagram of a layout: West and East above, South below.

>>> from pyanalyzer.model.layout_io import parse_layout
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

from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card, format_rank

COLUMN = 17
INDENT = 8


def hand_lines(layout: Layout, seat: str, style: str = "symbols") -> list[str]:
    """One line per suit: ``♠ A K 10`` (``-`` for a void)."""
    deck = layout.rules.deck
    hand = layout.hands[seat]
    lines = []
    for number, suit in deck.display_suits():
        ranks = [format_rank(c, style) for c in hand.cards_of_suit(number)]
        lines.append(f"{suit.symbol} {' '.join(ranks) or '-'}")
    return lines


def headline(layout: Layout) -> str:
    """``misère by South, East to lead`` (and who is to play in mid-trick)."""
    rules = layout.rules
    if layout.contract.is_allpass:
        text = "all-pass"
    elif layout.contract.kind == "tricks" and layout.contract.level is None:  # Whist: trump, no bid
        trump = layout.contract.trump
        text = (f"{trump.name.capitalize()} trump" if trump else "No-trump") + (
            f", {rules.side_name(layout.declarer)} counted")
    elif layout.contract.is_points:  # Thousand: the bid and the trump now
        bid = layout.contract.bid
        text = (f"bid {bid}" if bid is not None else "Thousand") + f" by {rules.seat_name(layout.declarer)}"
        trump = layout.current_trump
        text += f", {trump.symbol} trump" if trump else ", no trump yet"
    else:
        text = f"{layout.contract} by {rules.seat_name(layout.declarer)}"
    if layout.played:
        return f"{text}, {rules.seat_name(layout.to_move)} to play"
    return f"{text}, {rules.seat_name(layout.lead)} to lead"


def diagram(layout: Layout, style: str = "symbols") -> str:
    """The whole layout as text (Preferans: W left, E right, S below; Whist: N above too)."""
    rules = layout.rules
    out = []
    if layout.title:
        out.append(layout.title)
    out.append(headline(layout))
    out.append("")
    if "N" in rules.seats:
        out.extend(_four_hands(layout, style))
    else:
        out.extend(_three_hands(layout, style))
    extras = []
    for key in ("talon", "discard"):
        cards = getattr(layout, key)
        if cards:
            extras.append(f"{key.capitalize()}: {' '.join(format_card(c, style) for c in cards)}")
    if layout.gave:
        extras.append("Gave: " + ", ".join(f"{seat} {format_card(card, style)}" for seat, card in layout.gave.items()))
    if layout.won:
        extras.append("Have won a trick: " + ", ".join(s for s in layout.seats if s in layout.won))
    if layout.scored:
        extras.append("Points so far: " + ", ".join(f"{rules.seat_name(s)} {layout.scored[s]}"
                                                    for s in layout.seats if s in layout.scored))
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


def _three_hands(layout: Layout, style: str) -> list[str]:
    """Preferans: West and East side by side, South below."""
    names = layout.rules.seat_name
    west, east, south = (hand_lines(layout, s, style) for s in ("W", "E", "S"))
    pad = " " * INDENT
    out = [pad + names("W").ljust(COLUMN) + names("E")]
    out.extend(pad + left.ljust(COLUMN) + right for left, right in zip(west, east))
    centre = " " * (INDENT + COLUMN // 2)
    out.append(centre + names("S"))
    out.extend(centre + line for line in south)
    return out


def _four_hands(layout: Layout, style: str) -> list[str]:
    """Whist: North above, West and East side by side, South below (as in bridge columns)."""
    names = layout.rules.seat_name
    north, west, east, south = (hand_lines(layout, s, style) for s in ("N", "W", "E", "S"))
    width = max(COLUMN, *(len(line) + 2 for line in west + north + south))
    centre = " " * (width // 2 + 2)
    out = [centre + names("N")]
    out.extend(centre + line for line in north)
    out.append(names("W").ljust(width) + names("E"))
    out.extend(left.ljust(width) + right for left, right in zip(west, east))
    out.append(centre + names("S"))
    out.extend(centre + line for line in south)
    return out
