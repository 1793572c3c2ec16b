"""The double-dummy result of a Thousand layout: the declarer's points with best play by all.

The value is the declarer's points *from the position on*: the card points of the tricks he
takes (the current one included) plus the marriages he declares. The defenders play to keep it
low; their own points along the best line (cards and their marriages) are reported too. With a
bid, the verdict adds the points already scored (``points=``) and says whether the bid is made.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> from pyanalyzer.analysis.solve import solve
>>> layout = parse_layout("game=thousand bid=120 declarer=S lead=S won=S "
...                       "S=As,Ts,Ks,Qs W=Ac,Tc,Kc,Qc E=Ad,Td,Kd,Qd")
>>> result = solve(layout, engine="reference")
>>> result.declarer_points, result.defender_points, result.made
(124, 0, True)
>>> print(result.verdict())
South makes 124 points from here (4 tricks left), the defenders 0: bid 120 made with 4 to spare.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_card, format_move
from pyanalyzer.render.html import HtmlView


@dataclass
class PointsTrick:
    """One trick of a line: who played what (declarations marked), the winner, its card points."""

    leader: str
    seats: list[str]
    moves: list[Move]
    complete: bool
    winner: str | None
    points: int
    #: ``(seat, suit symbol, points)`` of a marriage declared on this trick's lead.
    declared: tuple[str, str, int] | None = None


@dataclass
class PointsSolution(HtmlView):
    """The result of :func:`pyanalyzer.analysis.solve.solve` for a card points layout (Thousand)."""

    layout: Layout
    #: The declarer's points from the position on: card points of his tricks + his marriages.
    declarer_points: int
    line: list[Move]
    cards: dict[Move, int] | None
    nodes: int
    seconds: float
    engine: str
    tricks: list[PointsTrick] = field(default_factory=list)
    #: Points each seat makes along ``line`` from the position on (cards and marriages).
    seat_points: dict[str, int] = field(default_factory=dict)
    #: The layout was written before the exchange: the ranking of every give-away
    #: (``pyanalyzer.thousand.exchange.ExchangeRanking``); ``layout`` then holds the best one.
    exchange: object | None = None

    @property
    def defender_points(self) -> int | None:
        """The defenders' points along the best line (None without a line)."""
        if not self.seat_points:
            return None
        return sum(p for seat, p in self.seat_points.items() if seat != self.layout.declarer)

    @property
    def total(self) -> int:
        """The declarer's points for the deal: what he has scored already plus ``declarer_points``."""
        return self.layout.scored.get(self.layout.declarer, 0) + self.declarer_points

    @property
    def made(self) -> bool | None:
        bid = self.layout.contract.bid
        return None if bid is None else self.total >= bid

    @property
    def tricks_left(self) -> int:
        return self.layout.tricks_left

    @property
    def is_full_deal(self) -> bool:
        return self.tricks_left == self.layout.rules.hand_size and not self.layout.played

    def best_card_value(self) -> int:
        """Best play's value (each card after which it stays is marked best)."""
        return self.declarer_points

    def verdict(self) -> str:
        layout = self.layout
        name = layout.rules.seat_name(layout.declarer)
        before = layout.scored.get(layout.declarer, 0)
        where = ("" if self.is_full_deal and not before
                 else f" from here ({self.tricks_left} trick{'s' if self.tricks_left != 1 else ''} left)")
        text = f"{name} makes {self.declarer_points} points{where}"
        if before:
            text += f", {self.total} with the {before} already scored"
        if self.defender_points is not None:
            text += f", the defenders {self.defender_points}"
        bid = layout.contract.bid
        if bid is None:
            return text + "."
        if self.made:
            spare = self.total - bid
            return text + f": bid {bid} made" + (f" with {spare} to spare." if spare else " exactly.")
        return text + f": bid {bid} fails by {bid - self.total}."

    def format(self, style: str = "symbols") -> str:
        out = [self.verdict()]
        if self.exchange is not None:
            layout = self.layout
            given = ", ".join(f"{seat} {format_card(card, style)}" for seat, card in layout.gave.items())
            out.append(f"{layout.rules.seat_name(layout.declarer)}'s best exchange with open cards: gives "
                       f"{given} (of {len(self.exchange.gives)} ways to give the cards away).")
        if self.cards is not None:
            mover = self.layout.rules.seat_name(self.layout.to_move)
            out += ["", f"{mover} to play; declarer's points after each choice:"]
            for move, value in sorted(self.cards.items(), key=lambda kv: kv[0].display_key):
                mark = "  best" if value == self.declarer_points else ""
                note = "  (declaring the marriage)" if move.declare else ""
                out.append(f"  {format_move(move, style):<5} {value}{mark}{note}")
        if self.tricks:
            out += ["", "Best play (+ declares a marriage):"]
            out += ["  " + line for line in format_points_tricks(self.tricks, style)]
            totals = ", ".join(f"{self.layout.rules.seat_name(s)} {p}" for s, p in self.seat_points.items())
            out.append(f"  Points from here: {totals}.")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        """The JSON object of ``pref solve --json`` for a Thousand layout (a stable interface)."""
        from pyanalyzer.model.layout_io import format_one_line

        layout = self.layout
        return {
            "layout": format_one_line(layout),
            "game": layout.rules.game,
            "bid": layout.contract.bid,
            "declarer": layout.declarer,
            "to_move": layout.to_move,
            "trump": None if layout.current_trump is None else layout.current_trump.letter,
            "tricks_left": self.tricks_left,
            "declarer_points": self.declarer_points,
            "defender_points": self.defender_points,
            "seat_points": dict(self.seat_points) or None,
            "scored_before": layout.scored.get(layout.declarer, 0),
            "total": self.total,
            "made": self.made,
            "cards": None if self.cards is None else {m.code: v for m, v in self.cards.items()},
            "line": [m.code for m in self.line],
            "tricks": [{"leader": t.leader, "moves": [m.code for m in t.moves], "winner": t.winner,
                        "points": t.points,
                        "declared": None if t.declared is None else
                        {"seat": t.declared[0], "suit": t.declared[1], "points": t.declared[2]}}
                       for t in self.tricks],
            "exchange": None if self.exchange is None else
            {"gave": {seat: card.code for seat, card in layout.gave.items()}, "gives": len(self.exchange.gives)},
            "verdict": self.verdict(),
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def line_to_points_tricks(layout: Layout, line: list[Move]) -> tuple[list[PointsTrick], dict[str, int]]:
    """Split a line from ``layout`` into tricks, and each seat's points along it (cards of the
    tricks it takes, the current trick's included, and its declarations)."""
    seats = layout.seats
    points = dict.fromkeys(seats, 0)
    tricks: list[PointsTrick] = []
    current = layout
    trick_seats, trick_moves = list(layout.played_by()), [Move(c) for c in layout.played]
    declared = None
    for move in line:
        seat = current.to_move
        if move.declare:
            suit, value = current.declaration(move)
            points[seat] += value
            declared = (seat, current.rules.deck.suits[suit].symbol, value)
        trick_seats.append(seat)
        trick_moves.append(move)
        if len(trick_moves) == len(seats):
            cards = [m.card for m in trick_moves]
            leader = current.lead
            after = current.play(move)
            winner = after.lead
            value = sum(layout.rules.card_points_of(c) for c in cards)
            points[winner] += value
            tricks.append(PointsTrick(leader, trick_seats, trick_moves, True, winner, value, declared))
            trick_seats, trick_moves, declared = [], [], None
            current = after
        else:
            current = current.play(move)
    if trick_moves:
        value = sum(layout.rules.card_points_of(m.card) for m in trick_moves)
        tricks.append(PointsTrick(current.lead, trick_seats, trick_moves, False, None, value, declared))
    return tricks, points


def format_points_tricks(tricks: list[PointsTrick], style: str = "symbols", start: int = 1) -> list[str]:
    """``1. S ♥K+  W ♥9  E ♥A  -> E 15`` per trick, the marriage declared noted after it."""
    lines = []
    for number, trick in enumerate(tricks, start=start):
        plays = "  ".join(f"{s} {format_move(m, style)}" for s, m in zip(trick.seats, trick.moves))
        won = f"  -> {trick.winner} {trick.points}" if trick.complete else ""
        note = ""
        if trick.declared is not None:
            seat, suit, value = trick.declared
            note = f"   ({seat} declares the {suit} marriage: +{value}, {suit} trump)"
        lines.append(f"{number:>2}. {plays}{won}{note}")
    return lines
