"""Layouts written out: the one-line form, the layout file format and the JSON object.

Each parses back (:mod:`pyanalyzer.model.layout_io`) to an equal layout. The
layout itself needs these for its ``repr``, so they live apart from the parsers,
which need the layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pyanalyzer.model.notation import format_card, format_cards

if TYPE_CHECKING:
    from pyanalyzer.model.cards import Card
    from pyanalyzer.model.contract import Contract
    from pyanalyzer.model.layout import Layout
    from pyanalyzer.model.rules import Rules

CARD_KEYS = ("talon", "discard", "played")


def _quote(value: str) -> str:
    if value and re.fullmatch(r"[^\s\"'\\]+", value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_one_line(layout: Layout) -> str:
    """The one-line form, in ASCII card codes; parses back to an equal layout."""
    return one_line_form(layout.rules, layout.contract, layout.declarer, layout.lead,
                         tuple(layout.hands[seat].mask for seat in layout.seats),
                         (layout.talon, layout.discard, layout.played), layout.title, layout.source,
                         points_state_fields(layout, "compact"))


def one_line_form(rules: Rules, contract: Contract, declarer: str | None, lead: str | None,
                  hands: tuple[int, ...], card_fields: tuple[tuple[Card, ...], ...], title: str | None,
                  source: str | None, state_fields: Iterable[tuple[str, str]] = ()) -> str:
    """:func:`format_one_line` from a layout's parts: ``hands`` the masks in seat order,
    ``card_fields`` the cards of :data:`CARD_KEYS`, ``state_fields`` a card points game's state."""
    parts = []
    if rules.game != "preferans":
        parts.append(f"game={rules.game}")
    if contract.is_points:
        if contract.bid is not None:
            parts.append(f"bid={contract.bid}")
    else:
        parts.append(f"contract={contract.code}")
    if declarer:
        parts.append(f"declarer={declarer}")
    parts.append(f"lead={lead}")
    parts += [f"{key}={value}" for key, value in state_fields]
    compact = rules.deck.compact
    parts += [f"{seat}={compact(mask)}" for seat, mask in zip(rules.seats, hands)]
    parts += [f"{key}={','.join([c.code for c in cards])}" for key, cards in zip(CARD_KEYS, card_fields) if cards]
    for key, value in (("title", title), ("source", source)):
        if value:
            parts.append(f"{key}={_quote(value)}")
    return " ".join(parts)


def format_layout_file(layout: Layout, style: str = "symbols") -> str:
    """The layout file format; parses back to an equal layout."""
    lines = []
    for key in ("title", "source"):
        value = getattr(layout, key)
        if value:
            lines.append(f"{key}: {value}")
    if layout.rules.game != "preferans":
        lines.append(f"game: {layout.rules.game}")
    if layout.contract.is_points:
        if layout.contract.bid is not None:
            lines.append(f"bid: {layout.contract.bid}")
    else:
        lines.append(f"contract: {layout.contract.code}")
    if layout.declarer:
        lines.append(f"declarer: {layout.declarer}")
    lines.append(f"lead: {layout.lead}")
    lines += [f"{key}: {value}" for key, value in points_state_fields(layout, style)]
    for key in ("talon", "discard"):
        cards = getattr(layout, key)
        if cards:
            lines.append(f"{key}: {' '.join(format_card_list(cards, style))}")
    for seat in layout.seats:
        lines.append(f"{seat}: {format_cards(layout.hands[seat], style)}")
    if layout.played:
        lines.append(f"played: {' '.join(format_card_list(layout.played, style))}")
    return "\n".join(lines) + "\n"


def points_state_fields(layout: Layout, style: str = "symbols") -> list[tuple[str, str]]:
    """A card points game's state as ``(key, text)``: trump, won, points, gave (what is set)."""
    fields = []
    if layout.current_trump is not None:
        fields.append(("trump", layout.current_trump.letter if style == "compact" else layout.current_trump.symbol))
    if layout.won:
        fields.append(("won", ",".join(s for s in layout.seats if s in layout.won)))
    if layout.scored:
        fields.append(("points", ",".join(f"{s}:{layout.scored[s]}" for s in layout.seats if s in layout.scored)))
    if layout.gave:
        fields.append(("gave", ",".join(f"{s}:{format_card(layout.gave[s], style)}"
                                        for s in layout.seats if s in layout.gave)))
    return fields


def format_card_list(cards, style: str = "symbols") -> list[str]:
    """Cards one by one, in the given order (for talon, discard and played)."""
    return [format_card(c, style) for c in cards]



def layout_to_dict(layout: Layout) -> dict:
    """The JSON object of ``pref show --json``: the layout's fields, cards as ASCII codes."""
    return {
        "game": layout.rules.game,
        "title": layout.title,
        "source": layout.source,
        "contract": layout.contract.code,
        "declarer": layout.declarer,
        "lead": layout.lead,
        "to_move": layout.to_move,
        "hands": {seat: [c.code for c in layout.hands[seat]] for seat in layout.seats},
        "talon": [c.code for c in layout.talon],
        "discard": [c.code for c in layout.discard],
        "played": [c.code for c in layout.played],
        "tricks_left": layout.tricks_left,
        "one_line": format_one_line(layout),
    } | ({
        "bid": layout.contract.bid,
        "trump": None if layout.current_trump is None else layout.current_trump.letter,
        "won": [s for s in layout.seats if s in layout.won],
        "points": {s: layout.scored[s] for s in layout.seats if s in layout.scored},
        "gave": {s: layout.gave[s].code for s in layout.seats if s in layout.gave},
    } if layout.contract.is_points else {})
