"""``review``: was the Thousand bid makeable, was it made, and which cards changed the result.

From a written-down deal (all hands, the talon and what the declarer gave each
opponent, or the eight cards each played; the bid) and optionally the played
record (``Kh+`` for a declaring lead): the declarer's points with best play by
all, so whether the bid was makeable; then, move by move through the record,
the double-dummy value after each move, as :mod:`pyanalyzer.analysis.playcheck`
does for Preferans. With best play the value never moves, so a move that
changes it was a mistake: one that lowers the declarer's points is his own
(only his moves can), one that raises them a defender's. A complete record
also gives the points the declarer actually made (card points of his tricks and
his marriages), so whether the bid was made in the play.

Values are the declarer's points for the whole deal: the points he had when the
layout starts (``points=``) plus, with best play from there on, the card
points of the tricks he takes and the marriages he declares.

>>> from pyanalyzer.model.layout_io import parse_layout_with_moves
>>> layout, record = parse_layout_with_moves("game=thousand bid=100 declarer=S lead=S won=S "
...     "S=Kh,Qh,As W=9h,Ah,9s E=Th,Js,Ts played=Qh,9h,Th,Js,As,9s,Kh,Ah,Ts")
>>> review = review_deal(layout, record, engine="reference")
>>> review.start_value, review.makeable, [(str(m.move), m.before, m.after) for m in review.mistakes]
(113, True, [('♥Q', 113, 13)])
>>> review.actual_points, review.made
(13, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from pyanalyzer.analysis.playcheck import step_rows
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import IllegalPlayError, LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_card, format_move
from pyanalyzer.render.html import HtmlView
from pyanalyzer.thousand.exchange import layout_given


@dataclass
class ReviewStep:
    """One move of the record with the declarer's double-dummy points before and after it."""

    trick: int
    seat: str
    move: Move
    before: int
    after: int
    #: The moves that would have kept the value, when this one changed it.
    keeping: list[Move]
    declarer: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def mistake_by(self) -> str | None:
        """``declarer`` or ``defender`` for a move that changed the value, else None."""
        if not self.changed:
            return None
        return "declarer" if self.seat == self.declarer else "defender"

    def describe(self, style: str = "symbols", names=None) -> str:
        """``trick 3, West played ♥K: a defender's mistake, the declarer gains 14 (106 -> 120); ♥9 kept it``."""
        name = names(self.seat) if names else self.seat
        delta = self.after - self.before
        points = f"{abs(delta)} point" + ("s" if abs(delta) != 1 else "")
        effect = (f"the declarer's mistake, he loses {points}" if delta < 0
                  else f"a defender's mistake, the declarer gains {points}")
        kept = " ".join(format_move(m, style) for m in self.keeping)
        verb = "kept" if len(self.keeping) == 1 else "would have kept"
        return (f"trick {self.trick}, {name} played {format_move(self.move, style)}: {effect} "
                f"({self.before} -> {self.after}); {kept} {verb} it")

    def __str__(self) -> str:
        return self.describe()

    def to_dict(self) -> dict:
        return {"trick": self.trick, "seat": self.seat, "move": self.move.code, "before": self.before,
                "after": self.after, "changed": self.changed, "mistake_by": self.mistake_by,
                "keeping": [m.code for m in self.keeping]}


@dataclass
class DealReview(HtmlView):
    """The answer of :func:`review_deal` (see the module docstring)."""

    layout: Layout
    #: The declarer's points for the deal with best play from the layout on.
    start_value: int
    steps: list[ReviewStep]
    #: Points each seat has at the end of the record (cards and marriages, with ``points=``).
    record_points: dict[str, int]
    #: Marriages declared in the record: ``(seat, suit symbol, points)`` in play order.
    declared: list[tuple[str, str, int]]
    #: Every card of the deal was played: ``record_points`` are the deal's final points.
    complete: bool
    nodes: int
    seconds: float
    engine: str

    @property
    def bid(self) -> int | None:
        return self.layout.contract.bid

    @property
    def declarer(self) -> str:
        return self.layout.declarer

    @property
    def makeable(self) -> bool | None:
        """Could the declarer make his bid with best play from the start (None without a bid)?"""
        return None if self.bid is None else self.start_value >= self.bid

    @property
    def mistakes(self) -> list[ReviewStep]:
        return [s for s in self.steps if s.changed]

    @property
    def final_value(self) -> int:
        """The declarer's points with best play from the end of the record on."""
        return self.steps[-1].after if self.steps else self.start_value

    @property
    def actual_points(self) -> int | None:
        """The declarer's points in the play (a complete record), else None."""
        return self.record_points.get(self.declarer, 0) if self.complete else None

    @property
    def made(self) -> bool | None:
        """Was the bid made in the play (None: no bid, or the record stops before the end)?"""
        if self.bid is None or not self.complete:
            return None
        return self.actual_points >= self.bid

    def verdict(self) -> str:
        """The answer in one or two sentences."""
        names = self.layout.rules.seat_name
        who = names(self.declarer)
        start = "from the first lead" if _is_deal_start(self.layout) else "from the position given"
        text = f"With best play {start} {who} makes {self.start_value} points"
        if self.bid is not None:
            margin = self.start_value - self.bid
            text += (f": bid {self.bid} was makeable" + (f" with {margin} to spare." if margin else " exactly.")
                     if margin >= 0 else f": bid {self.bid} was not makeable ({-margin} short).")
        else:
            text += "."
        if self.complete:
            text += f" In the play he made {self.actual_points}"
            marriages = sum(p for seat, _suit, p in self.declared if seat == self.declarer)
            if marriages:
                text += f" ({self.actual_points - marriages} in cards, {marriages} in marriages)"
            if self.bid is not None:
                margin = self.actual_points - self.bid
                text += (": the bid was made" + (f" with {margin} to spare." if margin else " exactly.")
                         if margin >= 0 else f": the bid failed by {-margin}.")
            else:
                text += "."
        return text

    def format(self, style: str = "symbols") -> str:
        names = self.layout.rules.seat_name
        out = [self.verdict()]
        if not self.steps:
            return "\n".join(out)
        if not self.complete:
            out.append(f"After the last move of the record, best play gives {self.final_value}.")
        out.append("")
        if not self.mistakes:
            out.append("No move changed the result: every one kept the double-dummy value.")
        else:
            count = len(self.mistakes)
            out.append(f"{count} move{'s' if count != 1 else ''} changed the result:")
            out.extend("  " + m.describe(style, names) for m in self.mistakes)
        out.append("")
        out.append("Move by move (the declarer's points with best play after each move; ! changed it):")
        out.extend(step_rows(self.steps, lambda step: format_move(step.move, style)))
        if self.declared:
            out.append("Marriages declared: " + ", ".join(f"{names(seat)} {suit} {points}"
                                                          for seat, suit, points in self.declared) + ".")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        from pyanalyzer.model.layout_io import format_one_line

        return {
            "layout": format_one_line(self.layout),
            "game": self.layout.rules.game,
            "declarer": self.declarer,
            "bid": self.bid,
            "start_value": self.start_value,
            "makeable": self.makeable,
            "final_value": self.final_value,
            "complete": self.complete,
            "record_points": dict(self.record_points),
            "declared": [{"seat": seat, "suit": suit, "points": points}
                         for seat, suit, points in self.declared],
            "actual_points": self.actual_points,
            "made": self.made,
            "steps": [s.to_dict() for s in self.steps],
            "mistakes": [dict(s.to_dict(), text=s.describe("letters")) for s in self.mistakes],
            "verdict": self.verdict(),
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def _is_deal_start(layout: Layout) -> bool:
    return (layout.tricks_left == layout.rules.hand_size and not layout.played
            and not layout.scored and not layout.won)


def declarer_total(layout: Layout, backend) -> int:
    """The declarer's points for the deal with best play from ``layout``: what he has scored
    already (``points=``) plus the engine's value from here on."""
    return layout.scored.get(layout.declarer, 0) + backend.solve(layout.position())


def exchange_layouts(layout: Layout) -> list[tuple[tuple[Card, Card], Layout]]:
    """Every give-away from a layout before the exchange: ``((card to W, card to E), layout)``,
    the declarer's ten cards in card order, the 90 of a full deal."""
    opponents = [s for s in layout.seats if s != layout.declarer]
    ten = sorted(set(layout.hands[layout.declarer]) | set(layout.talon), key=lambda c: c.index)
    return [((first, second), layout_given(layout, dict(zip(opponents, (first, second)))))
            for first in ten for second in ten if first != second]


def best_points(layout: Layout, backend) -> tuple[int, dict[str, Card] | None]:
    """The declarer's points for the deal with best play, and the give-away that gets them when
    the exchange is still to be made (the best of every give-away; None: the layout's own)."""
    if not layout.exchange_pending:
        return declarer_total(layout, backend), None
    best, gave = -1, None
    for _pair, trial in exchange_layouts(layout):
        value = declarer_total(trial, backend)
        if value > best:
            best, gave = value, dict(trial.gave)
    return best, gave


def review_deal(layout: Layout, record: list[Move] = (), engine: str | object = "fast") -> DealReview:
    """Replay ``record`` from ``layout`` (a Thousand layout) and mark each move that changed
    the declarer's double-dummy points; see the module docstring."""
    if not layout.rules.counts_points:
        raise LayoutError(f"the deal review is for Thousand layouts (game=thousand), not "
                          f"{layout.rules.game}: use pref contract for a Preferans record", "game")
    if layout.exchange_pending:
        raise LayoutError("the exchange is still to be made: write what the declarer gave, "
                          "gave=W:<card>,E:<card>", "gave")
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    rules = layout.rules
    deck = rules.deck
    declarer = layout.declarer
    position = layout
    value = start_value = declarer_total(layout, backend)
    steps: list[ReviewStep] = []
    declared: list[tuple[str, str, int]] = []
    for number, move in enumerate(record, start=1):
        if position.tricks_left == 0:
            raise IllegalPlayError(f"move {number} of the play record ({move.code}) comes after the "
                                   "last trick", move.code)
        seat = position.to_move
        scored = position.scored.get(declarer, 0)
        values = {Move.from_engine(deck, m): scored + v
                  for m, v in backend.card_values(position.position()).items()}
        if move not in values:
            legal = " ".join(m.code for m in position.moves())
            raise IllegalPlayError(f"move {number} of the play record: {seat} may not play "
                                   f"{move.code} here (legal: {legal})", move.code)
        after = values[move]
        keeping = [] if after == value else sorted(
            (m for m, v in values.items() if v == value), key=lambda m: m.display_key)
        trick = rules.hand_size - position.tricks_left + 1
        steps.append(ReviewStep(trick, seat, move, value, after, keeping, declarer))
        if move.declare:
            suit, points = position.declaration(move)
            declared.append((seat, deck.suits[suit].symbol, points))
        position = position.play(move)
        value = after
    record_points = {seat: position.scored.get(seat, 0) for seat in layout.seats}
    return DealReview(layout, start_value, steps, record_points, declared, position.tricks_left == 0,
                      backend.nodes - start_nodes, time.perf_counter() - start, backend.name)


@dataclass
class BidCheck:
    """A deal of a score record (``pref score``) checked against the cards written with it."""

    line: int | None
    declarer: str
    bid: int
    #: The sheet wrote minus the bid (points short, or the game written off).
    failed: bool
    #: The declarer's points for the deal with best play by all.
    best: int
    #: The best give-away, when the record gives the hands before the exchange without one.
    best_gave: dict[str, Card] | None
    #: The review of the recorded play, when the record carries it.
    review: DealReview | None = None

    @property
    def makeable(self) -> bool:
        return self.best >= self.bid

    def describe(self, style: str = "symbols") -> str:
        """``line 3: E bid 140 and failed: makeable, best play gives 145``, and the mistakes."""
        where = f"line {self.line}: " if self.line is not None else ""
        outcome = "failed" if self.failed else "made it"
        verdict = (f"makeable, best play gives {self.best}" if self.makeable
                   else f"not makeable, best play gives {self.best}")
        if self.best_gave:
            given = ", ".join(f"{format_card(card, style)} to {seat}" for seat, card in self.best_gave.items())
            verdict += f" (giving {given})"
        text = f"{where}{self.declarer} bid {self.bid} and {outcome}: {verdict}"
        if self.review is not None and self.review.steps:
            mistakes = self.review.mistakes
            if not mistakes:
                text += "; in the play no move changed the result"
            else:
                shown = ", ".join(f"trick {m.trick} {m.seat} {format_move(m.move, style)} "
                                  f"({m.after - m.before:+d})" for m in mistakes)
                text += f"; moves that changed it: {shown}"
        return text

    def to_dict(self) -> dict:
        return {"line": self.line, "declarer": self.declarer, "bid": self.bid, "failed": self.failed,
                "best_points": self.best, "makeable": self.makeable,
                "best_gave": None if self.best_gave is None else
                {seat: card.code for seat, card in self.best_gave.items()},
                "review": None if self.review is None else self.review.to_dict()}


def check_bid(layout: Layout, play, line: int | None, failed: bool, backend) -> BidCheck:
    """Was the bid of a recorded deal makeable (and, with its play, which moves changed that)?
    ``layout`` is the deal as written, ``play`` its moves from the first lead (may be empty)."""
    best, gave = best_points(layout, backend)
    review = review_deal(layout, list(play), backend) if play else None
    return BidCheck(line, layout.declarer, layout.contract.bid, failed, best, gave, review)
