"""A layout, or a position in mid-play, as a self-contained SVG diagram in the book convention.

Preferans and Thousand: West top left, East top right, South below, the trick in progress in the
middle and the talon, the discard (Thousand: the cards given away, the trump now, the points so
far) beside South. Whist: North, East, South and West round the table. Each hand is written in
suit rows (``♠ A K 10``), ♦ and ♥ in red; each card may carry a value printed under it.

Every card is one element ``<g class="card" data-card="Ah" data-seat="W">`` (``data-seat`` is
``talon`` or ``discard`` for a card lying there); the cards the player to move may play also
carry ``data-legal="true"`` and ``data-move`` (the move's code), and a lead that may declare a
marriage (Thousand) has a child ``<g class="move" data-move="Kh+">``. The seat to move is the
element ``<g class="seat to-move">``. So a web page can make the cards clickable with a CSS
selector, and a test can read the diagram back with an XML parser. A hand drawn from another
player's point of view (``hidden``) shows its count only: ``<g class="seat hidden" data-count="10">``.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> svg = layout_svg(parse_layout("contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d"))
>>> svg.startswith("<svg") and svg.count('class="card"')
6
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout, draw_layouts_with
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_rank
from pyanalyzer.render.diagram import headline as describe

#: The books' two colours: red diamonds and hearts, black spades and clubs.
RED = "#c8102e"
BLACK = "#111111"
RED_SUITS = frozenset("dh")
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"

PAD = 12                # margin round the drawing
CHIP = 19               # width of one card in a suit row
TEN_CHIP = 25           # ... of a two-letter rank (10)
SUIT_COLUMN = 18        # the suit symbol before a row
ROW = 21                # height of a suit row without values
VALUE_ROW = 14          # added under a row when values are shown
DECLARE_ROW = 12        # ... and when a lead may declare a marriage (its own line, "+value")
LABEL = 20              # the seat's name above its hand
GAP = 16                # between hands
FACE_W, FACE_H = 30, 40  # a card face of the trick in progress

BLUE = "#0b5cad"
GREEN = "#1a7f37"
#: How each kind of element looks, as SVG presentation attributes (not only CSS: a notebook may
#: strip an SVG's <style>, and the colours must survive). An element of several classes takes
#: each one's attributes, the later class winning.
LOOK = {
    "headline": {"font-size": "14", "font-weight": "bold", "fill": BLACK},
    "title": {"font-size": "13", "fill": "#444"},
    "seat-name": {"font-size": "13", "font-weight": "bold", "fill": "#333"},
    "now": {"fill": BLUE},
    "to-move-mark": {"fill": BLUE},
    "suit": {"font-size": "15"},
    "suit-small": {"font-size": "13"},
    "rank": {"font-size": "14", "fill": BLACK},
    "red": {"fill": RED},
    "black": {"fill": BLACK},
    "void": {"font-size": "14", "fill": "#777"},
    "value": {"font-size": "11", "font-weight": "bold", "fill": BLUE},
    "best": {"fill": GREEN},
    "note": {"font-size": "12", "fill": "#333"},
    "caption": {"font-size": "13", "font-weight": "bold", "fill": BLACK},
    "face": {"fill": "#fff", "stroke": "#555", "stroke-width": "1"},
    "slot": {"fill": "none", "stroke": BLUE, "stroke-width": "1", "stroke-dasharray": "3 2"},
    "hit": {"fill": "#fff", "fill-opacity": "0"},
    "legal": {"fill": BLUE, "fill-opacity": "0.08"},
}


def _look(classes: str) -> str:
    """``class="…"`` and the presentation attributes of those classes."""
    attributes: dict[str, str] = {}
    for name in classes.split():
        attributes.update(LOOK.get(name, {}))
    return f'class="{classes}"' + "".join(f' {key}="{value}"' for key, value in attributes.items())


@dataclass
class _Canvas:
    """The SVG elements drawn so far and the extent they cover."""

    parts: list[str] = field(default_factory=list)
    width: float = 0
    height: float = 0

    def add(self, element: str, right: float = 0, bottom: float = 0) -> None:
        self.parts.append(element)
        self.width = max(self.width, right)
        self.height = max(self.height, bottom)


def layout_svg(layout: Layout, *, values: Mapping[Move | Card, object] | None = None,
               style: str = "symbols", legal: Iterable[Move | Card] | bool | None = None,
               title: bool = True, headline: str | None = None, mark_to_move: bool = True,
               caption: Sequence[str] = (), scale: float = 1.0, best: Iterable[Move | Card] = (),
               hidden: Iterable[str] = ()) -> str:
    """``layout`` as an SVG document (a string): the diagram, the headline (contract, who is to
    lead or play), the trick in progress, the talon and discard.

    ``values``: a number (or short text) to print under each card or move, as a solution's
    ``cards`` holds them (tricks or points; a declaring lead ``Kh+`` under its king, after a
    ``+``). ``legal``: the moves to mark playable; None marks the player to move's legal moves,
    False none. ``style``: how ranks are written (``symbols``: 10, ``letters``: T, ``russian``:
    Т К Д В). ``title``: show the layout's title above the headline. ``headline``: a text in place
    of the contract and who is to play (a table of a whole deal; "" for none: a puzzle sheet says
    it under the diagram). ``mark_to_move``: mark the seat to move. ``caption``: lines of text under the diagram (a
    verdict). ``scale``: the size it is shown at (its width and height; the drawing is the same).
    ``best``: the moves whose value is the best play's, their values marked (green). ``hidden``:
    the seats (and ``"discard"``) a player cannot see, drawn as their count of cards only: the
    layout from his point of view.
    """
    moves = _legal_moves(layout, legal)
    shown = _values_by_move(values)
    best_moves = {item if isinstance(item, Move) else Move(item) for item in best}
    canvas = _Canvas()
    y = PAD
    if title and layout.title:
        y += 14
        canvas.add(f'<text {_look("title")} x="{PAD}" y="{y}">{_coloured(layout.title)}</text>',
                   PAD + _text_width(layout.title, 7), y)
        y += 6
    head = describe(layout) if headline is None else headline
    canvas.add(f"<title>{escape(' - '.join(filter(None, (layout.title, head))))}</title>")
    if head:
        y += 16
        canvas.add(f'<text {_look("headline")} x="{PAD}" y="{y}">{_coloured(head)}</text>',
                   PAD + _text_width(head, 8.2), y)
    top = y + 12
    declares = any(move.declare for move in (*moves, *shown))
    row = ROW + (VALUE_ROW if shown else 0) + (DECLARE_ROW if declares else 0)
    hidden = set(hidden)
    hands = {seat: _Hand(layout, seat, style, moves, shown, row, mark_to_move, best_moves, seat in hidden)
             for seat in layout.seats}
    width = max(max(hand.width for hand in hands.values()), 110)
    height = LABEL + row * len(layout.rules.deck.suits)
    if "N" in layout.seats:
        _four_hands(canvas, layout, hands, width, height, top, style, "discard" in hidden)
    else:
        _three_hands(canvas, layout, hands, width, height, top, style, "discard" in hidden)
    y = canvas.height + 6
    for line in caption:
        y += 18
        canvas.add(f'<text {_look("caption")} x="{PAD}" y="{y}">{_coloured(line)}</text>',
                   PAD + _text_width(line, 8.2), y + 4)
    return _document(canvas, scale)


def _legal_moves(layout: Layout, legal: Iterable[Move | Card] | bool | None) -> set[Move]:
    if legal is False:
        return set()
    if legal is None or legal is True:
        return set(layout.moves()) if layout.tricks_left else set()
    return {item if isinstance(item, Move) else Move(item) for item in legal}


def _values_by_move(values: Mapping[Move | Card, object] | None) -> dict[Move, str]:
    if not values:
        return {}
    return {(key if isinstance(key, Move) else Move(key)): str(value) for key, value in values.items()}


def _text_width(text: str, per_char: float) -> float:
    """A generous estimate of a text's width (the SVG must be wide enough without fonts known)."""
    return len(text) * per_char


def _suit_class(card: Card) -> str:
    return "red" if card.suit.letter in RED_SUITS else "black"


class _Hand:
    """One seat's hand as suit rows, measured before it is placed."""

    def __init__(self, layout: Layout, seat: str, style: str, moves: set[Move],
                 values: dict[Move, str], row: float, mark_to_move: bool, best: set[Move],
                 hidden: bool = False) -> None:
        self.layout, self.seat, self.style, self.moves, self.values, self.row, self.best = (
            layout, seat, style, moves, values, row, best)
        self.to_move = mark_to_move and seat == layout.to_move and layout.tricks_left > 0
        deck = layout.rules.deck
        hand = layout.hands[seat]
        self.rows = [(suit, hand.cards_of_suit(number)) for number, suit in deck.display_suits()]
        self.hidden = f"{len(hand)} card{'s' if len(hand) != 1 else ''}, unseen" if hidden else None
        if self.hidden:
            self.width = _text_width(self.hidden, 7.5)
        else:
            self.width = SUIT_COLUMN + max(sum(self._chip(card) for card in cards) for _, cards in self.rows)
        name = self.label()
        self.width = max(self.width, _text_width(name, 8) + 16)

    def _chip(self, card: Card) -> float:
        """The width of a card in its row: its rank's, or the widest value printed under it."""
        width = TEN_CHIP if len(format_rank(card, self.style)) > 1 else CHIP
        shown = [self.values.get(Move(card), ""), "+" + self.values.get(Move(card, True), "")]
        return max(width, *(7 * len(text) + 6 for text in shown))

    def label(self) -> str:
        layout = self.layout
        name = layout.rules.seat_name(self.seat)
        if self.seat == layout.declarer and not layout.rules.has_partnerships:
            name += " (declarer)"
        return name

    def draw(self, canvas: _Canvas, x: float, y: float) -> None:
        seat, to_move = self.seat, self.to_move
        hidden = f' data-count="{len(self.layout.hands[seat])}"' if self.hidden else ""
        out = [f'<g class="seat{" to-move" if to_move else ""}{" hidden" if self.hidden else ""}" '
               f'data-seat="{seat}"{hidden}>']
        label_x = x
        if to_move:
            out.append(f'<path {_look("to-move-mark")} d="M{x} {y + 4}l8 5-8 5z"/>')
            label_x += 12
        name = _look("seat-name now" if to_move else "seat-name")
        out.append(f'<text {name} x="{label_x}" y="{y + 14}">{escape(self.label())}</text>')
        right = x + self.width
        if self.hidden:
            out.append(f'<text {_look("void")} x="{x}" y="{y + LABEL + 15}">{escape(self.hidden)}</text></g>')
            canvas.add("".join(out), right, y + LABEL + self.row * len(self.rows))
            return
        for i, (suit, cards) in enumerate(self.rows):
            base = y + LABEL + i * self.row + 15
            colour = "red" if suit.letter in RED_SUITS else "black"
            out.append(f'<text {_look(f"suit {colour}")} x="{x}" y="{base}">{suit.symbol}</text>')
            cx = x + SUIT_COLUMN
            if not cards:
                out.append(f'<text {_look("void")} x="{cx}" y="{base}">–</text>')
            for card in cards:
                chip = self._chip(card)
                out.append(_card_in_row(card, seat, cx, base, chip, self.style, self.moves, self.values,
                                        self.row, self.best))
                cx += chip
        out.append("</g>")
        canvas.add("".join(out), right, y + LABEL + self.row * len(self.rows))


def _card_in_row(card: Card, seat: str, x: float, base: float, chip: float, style: str,
                 moves: set[Move], values: dict[Move, str], row: float, best: set[Move]) -> str:
    plain, declaring = Move(card), Move(card, True)
    attributes = f'class="card" data-card="{card.code}" data-seat="{seat}"'
    if plain in moves:
        attributes += f' data-legal="true" data-move="{plain.code}"'
    parts = [f"<g {attributes}>",
             f'<rect {_look("hit legal" if plain in moves else "hit")} x="{x - 1}" y="{base - 15}" '
             f'width="{chip - 2}" height="{row - 2}" rx="3"/>',
             f'<text {_look("rank")} x="{x + (chip - 4) / 2}" y="{base}" text-anchor="middle">'
             f"{escape(format_rank(card, style))}</text>"]
    if plain in values:
        parts.append(f'<text {_look("value best" if plain in best else "value")} x="{x + (chip - 4) / 2}" '
                     f'y="{base + VALUE_ROW}" '
                     f'text-anchor="middle">{escape(values[plain])}</text>')
    if declaring in moves or declaring in values:
        legal = ' data-legal="true"' if declaring in moves else ""
        text = "+" + values.get(declaring, "")
        parts.append(f'<g class="move" data-move="{declaring.code}"{legal}>'
                     f'<text {_look("value best" if declaring in best else "value")} x="{x + (chip - 4) / 2}" '
                     f'y="{base + (VALUE_ROW if values else 0) + DECLARE_ROW}" '
                     f'text-anchor="middle">{escape(text)}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def _face(card: Card, seat: str, x: float, y: float, style: str) -> str:
    """A small card face (the trick in progress), top left corner at (x, y)."""
    colour = _suit_class(card)
    return (f'<g class="card played" data-card="{card.code}" data-seat="{seat}">'
            f'<rect {_look("face")} x="{x}" y="{y}" width="{FACE_W}" height="{FACE_H}" rx="3"/>'
            f'<text {_look("rank")} x="{x + FACE_W / 2}" y="{y + 17}" text-anchor="middle">'
            f"{escape(format_rank(card, style))}</text>"
            f'<text {_look(f"suit {colour}")} x="{x + FACE_W / 2}" y="{y + 34}" text-anchor="middle">'
            f"{card.suit.symbol}</text></g>")


def _trick(canvas: _Canvas, layout: Layout, spots: dict[str, tuple[float, float]], style: str) -> None:
    """The cards of the trick in progress at their players' spots, and a dashed slot for the
    player to move."""
    for seat, card in zip(layout.played_by(), layout.played):
        x, y = spots[seat]
        canvas.add(_face(card, seat, x, y, style), x + FACE_W, y + FACE_H)
    if layout.played and layout.tricks_left:
        x, y = spots[layout.to_move]
        canvas.add(f'<rect {_look("slot")} x="{x}" y="{y}" width="{FACE_W}" height="{FACE_H}" rx="3"/>',
                   x + FACE_W, y + FACE_H)


def _middle(layout: Layout) -> float:
    """The room between West and East: the trick in progress, or a narrow gap."""
    return 3 * FACE_W + 4 * GAP if layout.played else 3 * GAP


def _three_hands(canvas: _Canvas, layout: Layout, hands: dict[str, _Hand], width: float,
                 height: float, top: float, style: str, discard_hidden: bool = False) -> None:
    """West top left, East top right, South below in the middle; the trick between them."""
    middle = _middle(layout)
    west_x, east_x = PAD, PAD + width + middle
    hands["W"].draw(canvas, west_x, top)
    hands["E"].draw(canvas, east_x, top)
    centre_x = PAD + width + middle / 2
    south_y = top + height + GAP
    hands["S"].draw(canvas, centre_x - hands["S"].width / 2, south_y)
    trick_y = top + height / 2 - FACE_H / 2
    spots = {"W": (centre_x - FACE_W * 1.5 - 8, trick_y), "E": (centre_x + FACE_W / 2 + 8, trick_y),
             "S": (centre_x - FACE_W / 2, trick_y + FACE_H * 0.6)}
    _trick(canvas, layout, spots, style)
    _notes(canvas, layout, centre_x - hands["S"].width / 2, centre_x + hands["S"].width / 2, south_y, style,
           discard_hidden)
    canvas.width = max(canvas.width, east_x + width)


def _four_hands(canvas: _Canvas, layout: Layout, hands: dict[str, _Hand], width: float,
                height: float, top: float, style: str, discard_hidden: bool = False) -> None:
    """Whist: North above, West and East beside the trick, South below."""
    middle = max(_middle(layout), 100)
    centre_x = PAD + width + middle / 2
    hands["N"].draw(canvas, centre_x - hands["N"].width / 2, top)
    side_y = top + height + GAP / 2
    hands["W"].draw(canvas, PAD, side_y)
    hands["E"].draw(canvas, PAD + width + middle, side_y)
    south_y = side_y + height + GAP / 2
    hands["S"].draw(canvas, centre_x - hands["S"].width / 2, south_y)
    mid_y = side_y + height / 2
    spots = {"N": (centre_x - FACE_W / 2, mid_y - FACE_H - 6), "S": (centre_x - FACE_W / 2, mid_y + 6),
             "W": (centre_x - FACE_W * 1.5 - 6, mid_y - FACE_H / 2),
             "E": (centre_x + FACE_W / 2 + 6, mid_y - FACE_H / 2)}
    _trick(canvas, layout, spots, style)
    _notes(canvas, layout, centre_x - hands["S"].width / 2, centre_x + hands["S"].width / 2, south_y, style,
           discard_hidden)
    canvas.width = max(canvas.width, PAD + 2 * width + middle)


def _notes(canvas: _Canvas, layout: Layout, south_left: float, south_right: float, y: float,
           style: str, discard_hidden: bool = False) -> None:
    """Beside South (left of him when they fit there, else right): the talon and discard (a card
    lying there that is in no hand is a card element; ``discard_hidden``: its count only), and a
    points game's state: the trump now, the cards given in the exchange, the points so far (one
    item a line when they are long)."""
    rules = layout.rules
    held = {card for hand in layout.hands.values() for card in hand} | set(layout.played)
    card_lines: list[tuple[str, list[tuple[Card, str | None]]]] = []
    if layout.talon:
        card_lines.append(("Talon:", [(card, None if card in held or card in layout.discard else "talon")
                                      for card in layout.talon]))
    items: list[tuple[str, list[str]]] = []
    if layout.discard and discard_hidden:
        items.append(("Discard:", [f"{len(layout.discard)} cards, unseen"]))
    elif layout.discard:
        card_lines.append(("Discard:", [(card, "discard") for card in layout.discard]))
    if rules.counts_points:
        trump = layout.current_trump
        items.append(("Trump:", [trump.symbol if trump else "none yet"]))
        if layout.gave:
            items.append(("Gave:", [f"{rules.seat_name(s)} {_plain(layout.gave[s], style)}"
                                    for s in layout.seats if s in layout.gave]))
        if layout.scored:
            items.append(("Points:", [f"{rules.seat_name(s)} {layout.scored[s]}"
                                      for s in layout.seats if s in layout.scored]))
    if not card_lines and not items:
        return
    label_width = max(_text_width(label, 7) for label, _ in [*card_lines, *items]) + 6
    text_lines = [(label if i == 0 else "", part + ("," if i < len(parts) - 1 else ""))
                  for label, parts in items
                  for i, part in enumerate(parts if len(", ".join(parts)) > 14 else [", ".join(parts)])]
    widths = [sum(22 + 9 * len(format_rank(card, style)) for card, _ in cards) for _, cards in card_lines]
    widths += [_text_width(text, 7) for _, text in text_lines]
    needed = label_width + max(widths)
    x = PAD if PAD + needed <= south_left - GAP else south_right + GAP
    out = ['<g class="notes">']
    for label, cards in card_lines:
        y += 18
        out.append(f'<text {_look("note")} x="{x}" y="{y}">{label}</text>')
        cx = x + label_width
        for card, place in cards:
            rank = escape(format_rank(card, style))
            face = (f'<text {_look("rank")} x="{cx}" y="{y}"><tspan {_look(f"suit-small {_suit_class(card)}")}>'
                    f'{card.suit.symbol}</tspan>{rank}</text>')
            if place is None:  # also in a hand or played: shown here as a note, not a second card
                out.append(f'<g class="talon-card" data-talon="{card.code}">{face}</g>')
            else:
                out.append(f'<g class="card" data-card="{card.code}" data-seat="{place}">{face}</g>')
            cx += 22 + 9 * len(rank)
        canvas.add("", cx, y + 4)
    for label, text in text_lines:
        y += 16
        if label:
            out.append(f'<text {_look("note")} x="{x}" y="{y}">{label}</text>')
        out.append(f'<text {_look("note")} x="{x + label_width}" y="{y}">{_coloured(text)}</text>')
        canvas.add("", x + label_width + _text_width(text, 7), y + 4)
    out.append("</g>")
    canvas.add("".join(out))


def _plain(card: Card, style: str) -> str:
    return card.suit.symbol + format_rank(card, style)


def _coloured(text: str) -> str:
    """``text`` escaped, its red suit symbols in red."""
    out = escape(text)
    for symbol in "♦♥":
        out = out.replace(symbol, f'<tspan {_look("red")}>{symbol}</tspan>')
    return out


def _document(canvas: _Canvas, scale: float) -> str:
    width = round(canvas.width + PAD)
    height = round(canvas.height + PAD)
    body = "".join(part for part in canvas.parts if part)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="{round(width * scale)}" '
            f'height="{round(height * scale)}" '
            f'font-family="{FONT}" '
            f'viewBox="0 0 {width} {height}" role="img">'
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>'
            f"{body}</svg>")


# Layouts draw themselves in notebooks (Layout._repr_svg_) with this renderer.
draw_layouts_with(layout_svg)
