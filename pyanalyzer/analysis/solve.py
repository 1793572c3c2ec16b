"""``solve``: the double-dummy result of an open layout.

For a trick contract: the declarer's tricks with best play by all. For misère:
the tricks the defenders force on the declarer. For all-pass: the fewest
tricks each player can guarantee against the other two. A layout whose
declarer's hand is written before the talon, without a discard, is played with
his best discard (found with open cards, and named).

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh")
>>> result = solve(layout, engine="reference")
>>> result.declarer_tricks, result.defender_tricks
(1, 1)
>>> print(result.verdict())
South takes 1 of the 2 tricks left, the defenders 1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from pyanalyzer.analysis.tricks import Trick, TrickCounts, format_tricks, line_to_tricks, tricks_phrase
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import Card, Deck
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_format import format_one_line
from pyanalyzer.model.layout_io import read_one_line
from pyanalyzer.model.layout_masks import LayoutMasks
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import Rules
from pyanalyzer.preferans.allpass import AllPassSolution, analyse_allpass
from pyanalyzer.preferans.makeable import best_discard, discard_still_open
from pyanalyzer.render.html import HtmlView
from pyanalyzer.thousand.exchange import best_exchange
from pyanalyzer.thousand.solution import PointsSolution, line_to_points_tricks


@dataclass
class _TrickAnswer(TrickCounts):
    """The fields, the verdict and the JSON record of a trick contract's or misère's answer,
    shared by :class:`Solution` and :class:`LineSolution`: they read the facts of ``layout`` (a
    :class:`Layout` or a :class:`LayoutMasks`: rules, contract, declarer, who is to move, the
    tricks left and played) and the answer's fields below, and each subclass's ``discards``."""

    layout: Layout | LayoutMasks
    declarer_tricks: int
    line: list[Card]
    cards: dict[Card, int] | None
    nodes: int
    seconds: float
    engine: str

    def verdict(self) -> str:
        """One plain sentence with the answer."""
        return self._said()[2]

    def _said(self) -> tuple[Rules, Contract, str, str, str]:
        """``(rules, contract, the verdict, the JSON record's fields from "contract" to
        "defender_tricks", the verdict as a JSON string)``: what the answer says, made once per
        rules, contract, declarer, lead, cards played to the trick, tricks taken and tricks left
        (a batch says a few hundred things over and over; the rules and the contract are kept with
        it, so that their ids stay theirs)."""
        layout = self.layout
        rules, contract = layout.rules, layout.contract
        n, left = self.declarer_tricks, layout.tricks_left
        key = (id(rules), id(contract), layout.declarer, layout.lead, len(layout.played), n, left)
        known = _SAID.get(key)
        if known is not None and known[0] is rules and known[1] is contract:
            return known
        if len(_SAID) >= _SAID_KEPT:
            _SAID.clear()
        verdict = self._verdict_text()
        head = (f'"contract": "{contract.code}", "declarer": "{layout.declarer}", "to_move": "{layout.to_move}", '
                f'"tricks_left": {left}, "declarer_tricks": {n}, "defender_tricks": {left - n}')
        known = _SAID[key] = (rules, contract, verdict, head, _json_string(verdict))
        return known

    def _verdict_text(self) -> str:
        layout = self.layout
        rules = layout.rules
        name = rules.side_name(layout.declarer)
        n, left = self.declarer_tricks, self.tricks_left
        # Partnerships (Whist): "North-South take ..., East-West ...".
        takes = "take" if rules.has_partnerships else "takes"
        others = "the defenders"
        if rules.has_partnerships:
            others = rules.side_name(next(s for s in rules.seats if s not in rules.side_of(layout.declarer)))
        if layout.contract.is_misere:
            if not self.is_full_deal:
                return (f"The defenders force {n} of the {left} tricks left on {name}"
                        + (" (the misère stays clean from here)." if n == 0 else "."))
            if n == 0:
                return f"Clean misère: the defenders cannot force a trick on {name}."
            return f"The defenders catch {name}'s misère for {tricks_phrase(n)}."
        if not self.is_full_deal:
            return (f"{name} {takes} {n} of the {left} tricks left, "
                    f"{others} {self.defender_tricks}.")
        if layout.contract.level is None:  # Whist without a bid: just the tricks
            return f"{name} {takes} {tricks_phrase(n)}, {others} {self.defender_tricks}."
        level = layout.contract.level + rules.book
        outcome = (f"{layout.contract} makes" + (f" with {tricks_phrase(n - level, 'overtrick')}"
                                                  if n > level else "")
                   if n >= level else f"{layout.contract} goes down by {tricks_phrase(level - n)}")
        return f"{name} {takes} {tricks_phrase(n)}, {others} {self.defender_tricks}: {outcome}."

    def to_dict(self) -> dict:
        """The JSON object of ``pref solve --json`` (a stable interface): :meth:`json_line` read back."""
        return json.loads(self.json_line())

    def json_line(self) -> str:
        """The JSON object of ``pref solve --json`` on one line, as ``json.dumps(..., ensure_ascii=False)``
        writes it (``pref solve --batch --json`` writes a line per layout: written here, not from a dict)."""
        layout = self.layout
        text = format_one_line(layout) if isinstance(layout, Layout) else layout.one_line()
        cards = "null" if self.cards is None else "{" + ", ".join(
            [f'"{card.code}": {value}' for card, value in self.cards.items()]) + "}"
        line = ", ".join([f'"{card.code}"' for card in self.line]) if self.line else ""
        discards = "null" if self.discards is None else "{" + ", ".join(
            [f'"{",".join([c.code for c in discard])}": {value}' for discard, value in self.discards.items()]) + "}"
        _rules, _contract, _verdict, head, verdict = self._said()
        return (f'{{"layout": {_json_string(text)}, {head}, "cards": {cards}, "line": [{line}], '
                f'"verdict": {verdict}, "engine": "{self.engine}", "nodes": {self.nodes}, '
                f'"seconds": {round(self.seconds, 6)!r}, "discards": {discards}}}')


@dataclass
class Solution(_TrickAnswer, HtmlView):
    """The result of :func:`solve` for a trick contract or misère."""

    layout: Layout
    tricks: list[Trick] = field(default_factory=list)
    #: The discard was still open (talon in no hand, no discard): each discard class's value;
    #: ``layout`` then holds the best one.
    discards: dict[tuple[Card, ...], int] | None = None

    def best_card_value(self) -> int:
        """Best play's value (each card after which it stays is marked best)."""
        return self.declarer_tricks

    def __str__(self) -> str:
        return self.format()

    def format(self, style: str = "symbols") -> str:
        """The verdict, the card values (if computed) and the best line, cards in ``style``."""
        out = [self.verdict()]
        if self.discards is not None:
            layout = self.layout
            chosen = " ".join(format_card(c, style) for c in layout.discard)
            talon = " ".join(format_card(c, style) for c in layout.talon)
            out.append(f"{layout.rules.seat_name(layout.declarer)}'s best discard with open cards: "
                       f"{chosen} (of {len(self.discards)} kinds of discard after the talon {talon}).")
        if self.cards is not None:
            out.append("")
            mover = self.layout.rules.seat_name(self.layout.to_move)
            what = "tricks forced on the declarer" if self.layout.contract.is_misere else (
                "declarer's tricks")
            if self.layout.rules.has_partnerships and not self.layout.contract.is_misere:
                what = f"{self.layout.rules.side_name(self.layout.declarer)} tricks"
            out.append(f"{mover} to play; {what} after each card:")
            for card, value in sorted(self.cards.items(), key=lambda kv: kv[0].display_key):
                mark = "  best" if value == self.declarer_tricks else ""
                out.append(f"  {format_card(card, style):<4} {value}{mark}")
        if self.tricks:
            out.append("")
            out.append("Best play:")
            out.extend("  " + line for line in format_tricks(self.tricks, style=style))
        return "\n".join(out)



@dataclass
class LineSolution(_TrickAnswer):
    """A batch line's answer (``pref solve --batch``) for a layout read in masks
    (:func:`solve_one_line_later`): its verdict and JSON record, as :class:`Solution` gives them."""

    layout: LayoutMasks
    discards: None = None


#: :meth:`_TrickAnswer._said` by (the ids of the rules and the contract, declarer, lead, cards played
#: to the trick, tricks taken, tricks left); a batch of full layouts meets a few hundred.
_SAID: dict[tuple, tuple[Rules, Contract, str, str, str]] = {}
_SAID_KEPT = 4096

#: A JSON string of any text, as ``json.dumps(text, ensure_ascii=False)`` writes it. (Card codes,
#: seats, contract codes and engine names are plain ASCII letters and digits: written as they are.)
_json_string = json.encoder.encode_basestring


def solve(layout: Layout, engine: str | object = "fast", cards: bool = True,
          line: bool = True) -> Solution | AllPassSolution | PointsSolution:
    """Solve ``layout`` exactly with best play by all.

    ``engine`` is ``"fast"`` (the Cython engine), ``"reference"`` (the plain
    minimax) or a backend object from :func:`pyanalyzer.engines.registry.make_backend`
    (to keep its table warm across many layouts). ``cards`` adds the value of
    every legal card of the player to move; ``line`` adds one best line.
    """
    backend = make_backend(engine) if isinstance(engine, str) else engine
    return solve_later(layout, cards, line)(backend)


def solve_later(layout: Layout, cards: bool = True,
                line: bool = True) -> Callable[[object], Solution | AllPassSolution | PointsSolution]:
    """:func:`solve` in two steps: the work that needs no engine now (the position), the rest
    returned as ``task(backend)``. A batch reads many layouts, then runs their tasks back to back."""
    if layout.contract.is_allpass:
        return partial(analyse_allpass, layout, cards=cards, lines=line, split=False)
    if layout.rules.counts_points:
        return partial(_solve_points, layout, cards=cards, line=line)
    # The hand before the talon: the engine finds the best discard first.
    position = None if discard_still_open(layout) else layout.position()
    return partial(_solve_tricks, layout, position, cards=cards, line=line)


def solve_one_line_later(text: str, cards: bool = True,
                         line: bool = True) -> Callable[[object], Solution | LineSolution | AllPassSolution
                                                          | PointsSolution]:
    """:func:`solve_later` of a one-line layout (a batch line): a trick layout of the common form is
    read in masks (:func:`pyanalyzer.model.layout_io.read_one_line`) and answered as a
    :class:`LineSolution` (the same verdict and JSON record, without the tricks of the line);
    any other line as :func:`solve_later` answers its layout."""
    layout = read_one_line(text)
    if isinstance(layout, Layout):
        return solve_later(layout, cards, line)
    return partial(_solve_masks, layout, layout.position(), cards=cards, line=line)


def _solve_masks(layout: LayoutMasks, position: Position, backend, cards: bool, line: bool) -> LineSolution:
    start_nodes, start = backend.nodes, time.perf_counter()
    value, card_values, best = _searched(backend, position, layout.rules.deck, cards, line)
    return LineSolution(layout, value, best, card_values, backend.nodes - start_nodes,
                        time.perf_counter() - start, backend.name)


def _solve_tricks(layout: Layout, position: Position | None, backend, cards: bool, line: bool) -> Solution:
    """A trick contract or misère (``position`` None: the best discard is still to be found)."""
    start_nodes, start = backend.nodes, time.perf_counter()
    discards = None
    if position is None:
        layout, discards = best_discard(layout, backend)
        position = layout.position()
    value, card_values, best = _searched(backend, position, layout.rules.deck, cards, line)
    seconds = time.perf_counter() - start
    return Solution(layout, value, best, card_values, backend.nodes - start_nodes, seconds,
                    backend.name, line_to_tricks(layout, best) if line else [], discards)


def _searched(backend, position: Position, deck: Deck, cards: bool,
              line: bool) -> tuple[int, dict[Card, int] | None, list[Card]]:
    """The engine's answers on ``position``: its value, each card's (``cards``), a best line (``line``)."""
    value = backend.solve(position)
    card_values = None
    if cards:
        card_values = {deck.from_index(i): v for i, v in backend.card_values(position).items()}
    best = [deck.from_index(i) for i in backend.best_line(position)] if line else []
    return value, card_values, best


def _solve_points(layout: Layout, backend, cards: bool, line: bool) -> PointsSolution:
    """A card points layout (Thousand): the declarer's points, each move's, one best line."""
    deck = layout.rules.deck
    start_nodes, start = backend.nodes, time.perf_counter()
    exchange = None
    if layout.exchange_pending:  # written before the exchange: make the best one (open cards)
        layout, exchange = best_exchange(layout, backend)
    position = layout.position()
    value = backend.solve(position)
    move_values = None
    if cards:
        move_values = {Move.from_engine(deck, m): v for m, v in backend.card_values(position).items()}
    best = [Move.from_engine(deck, m) for m in backend.best_line(position)] if line else []
    seconds = time.perf_counter() - start
    tricks, seat_points = line_to_points_tricks(layout, best) if line else ([], {})
    return PointsSolution(layout, value, best, move_values, backend.nodes - start_nodes, seconds,
                          backend.name, tricks, seat_points, exchange)
