"""All-pass (raspasy): every player for himself, to take as few tricks as possible.

All-pass is not a two-sided game, so it has no single "double-dummy value".
This module answers the two questions that are well defined:

1. **The guaranteed minimum of each seat**: the fewest tricks a seat can be
   sure of when the other two play together to give it as many as possible.
   Three exact searches (one per seat), each with the line that achieves it;
   for the player to move, also every legal card with his guaranteed minimum.
2. **A self-interested line**: everybody minimises his own tricks (max^n),
   with the tie rule of :mod:`solver.maxn`: among cards that are equally good
   for him, a player plays the first in card order (♠ ♣ ♦ ♥, low to high). It
   gives a full split of the tricks and the line played. It is *one solution
   concept among several*: other tie rules, or two players ganging up, give
   other splits. The guaranteed minima are the solid numbers.

The conventions (open talon, the talon card must be beaten, Rostov, four
hands) are :class:`~pyanalyzer.model.rules.AllPassRules`, part of the layout's
rules. With the talon open, its cards fix the suit of the first tricks also
in endings shorter than ten cards, so small cases can be checked by hand.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h")
>>> result = analyse_allpass(layout)
>>> result.guaranteed, result.split
({'S': 1, 'W': 0, 'E': 1}, {'S': 1, 'W': 0, 'E': 1, 'nobody': 0})
>>> beaten = analyse_allpass(with_conventions(layout, AllPassRules(talon="beat")))
>>> beaten.guaranteed, beaten.split
({'S': 1, 'W': 0, 'E': 0}, {'S': 1, 'W': 0, 'E': 0, 'nobody': 1})
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace

from pyanalyzer.analysis.tricks import Trick, format_tricks, line_to_tricks
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.rules import AllPassRules, with_allpass
from pyanalyzer.render.html import HtmlView

TIE_RULE = ("ties go to the first card in the order ♠ ♣ ♦ ♥, low to high")


@dataclass
class AllPassSolution(HtmlView):
    """Guaranteed minima (with their lines), card values and the self-interested line."""

    layout: Layout
    guaranteed: dict[str, int]
    lines: dict[str, list[Card]]
    cards: dict[Card, int] | None
    nodes: int
    seconds: float
    engine: str
    #: The self-interested line: tricks per seat (and ``nobody``/``dealer`` when
    #: there are talon tricks), or None when it was not asked for.
    split: dict[str, int] | None = None
    split_line: list[Card] | None = None

    @property
    def conventions(self) -> AllPassRules:
        return self.layout.rules.allpass

    @property
    def talon_rule(self) -> str:
        return "open" if self.layout.talon_tricks else "closed"

    def best_card_value(self) -> int:
        """Best play's value (each card after which it stays is marked best)."""
        return self.guaranteed[self.layout.to_move]

    def verdict(self, style: str = "symbols") -> str:
        names = self.layout.rules.seat_name
        parts = ", ".join(f"{names(s)} {_tricks(n)}" for s, n in self.guaranteed.items())
        if self.talon_rule == "open":
            talon = " ".join(format_card(c, style) for c in self.layout.talon_tricks)
            beaten = ", to be beaten" if self.conventions.talon_must_beat else ""
            rule = f"talon {talon} turned up for the first tricks{beaten}"
        elif self.conventions.talon_open:
            rule = "no talon tricks"
        else:
            rule = "Rostov: talon closed"
        return f"All-pass ({rule}): the fewest tricks each player can guarantee: {parts}."

    def split_text(self) -> str:
        names = self.layout.rules.seat_name
        return ", ".join(f"{names(s) if s in self.layout.seats else s} {n}"
                         for s, n in (self.split or {}).items())

    def __str__(self) -> str:
        return self.format()

    def format(self, style: str = "symbols") -> str:
        """Verdict, card values, each guarantee's line and the self-interested line."""
        untaken = self.conventions.untaken_talon_tricks
        out = [self.verdict(style)]
        if self.cards is not None:
            seat = self.layout.to_move
            out.append("")
            name = self.layout.rules.seat_name(seat)
            out.append(f"{name} to play; {name}'s guaranteed tricks after each card:")
            for card, value in sorted(self.cards.items(), key=lambda kv: (kv[0].suit_number,
                                                                          -kv[0].rank_number)):
                mark = "  best" if value == self.guaranteed[seat] else ""
                out.append(f"  {format_card(card, style):<4} {value}{mark}")
        for seat, line in self.lines.items():
            out.append("")
            out.append(f"Line holding {seat} to {_tricks(self.guaranteed[seat])} "
                       f"(the other two against {seat}):")
            out.extend("  " + text for text in format_tricks(line_to_tricks(self.layout, line),
                                                             style=style, untaken=untaken))
        if self.split is not None:
            aim = ("fewer tricks than each opponent" if self.conventions.aim == "fewer_than_each"
                   else "as few tricks as he can")
            out.append("")
            out.append(f"Self-interested play: {self.split_text()}.")
            out.append(f"  (Everybody plays for {aim}; {TIE_RULE}. One solution concept among "
                       "several: other tie rules or two players ganging up give other splits.)")
            out.extend("  " + text for text in format_tricks(self.split_tricks, style=style,
                                                             untaken=untaken))
        return "\n".join(out)

    @property
    def split_tricks(self) -> list[Trick]:
        return line_to_tricks(self.layout, self.split_line or [])

    def to_dict(self) -> dict:
        """The JSON object of ``pref allpass --json`` (a stable interface)."""
        from pyanalyzer.model.layout_io import format_one_line

        conventions = self.conventions
        return {
            "layout": format_one_line(self.layout),
            "contract": "allpass",
            "conventions": {"talon": conventions.talon, "four_handed": conventions.four_handed,
                            "aim": conventions.aim},
            "to_move": self.layout.to_move,
            "tricks_left": self.layout.tricks_left,
            "talon_rule": self.talon_rule,
            "guaranteed": self.guaranteed,
            "lines": {s: [c.code for c in line] for s, line in self.lines.items()},
            "cards": None if self.cards is None else {c.code: v for c, v in self.cards.items()},
            "split": self.split,
            "split_line": None if self.split_line is None else [c.code for c in self.split_line],
            "split_rule": f"max^n: each player minimises his own tricks; {TIE_RULE}"
            if conventions.aim == "fewest" else
            f"max^n: each player minimises his lead over the best opponent, then his tricks; {TIE_RULE}",
            "verdict": self.verdict(),
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyse_allpass(layout: Layout, engine: str | object = "fast", cards: bool = True,
                    lines: bool = True, split: bool = True,
                    taken: dict[str, int] | None = None) -> AllPassSolution:
    """The all-pass analysis of ``layout`` (its ``rules.allpass`` are the conventions).

    ``cards``: every legal card of the player to move with his guaranteed
    minimum; ``lines``: the line achieving each guarantee; ``split``: the
    self-interested line. ``taken``: tricks each seat took before the layout
    (only the Rostov aim depends on them; default none).
    """
    if not layout.contract.is_allpass:
        raise ValueError(f"not an all-pass layout: contract {layout.contract}")
    backend = make_backend(engine) if isinstance(engine, str) else engine
    deck = layout.rules.deck
    start_nodes, start = backend.nodes, time.perf_counter()
    guaranteed, best_lines = {}, {}
    for seat in layout.seats:
        position = layout.position(side=seat)
        guaranteed[seat] = backend.solve(position)
        if lines:
            best_lines[seat] = [deck.from_index(i) for i in backend.best_line(position)]
    card_values = None
    if cards:
        position = layout.position(side=layout.to_move)
        card_values = {deck.from_index(i): v for i, v in backend.card_values(position).items()}
    split_counts = split_line = None
    if split:
        before = [int((taken or {}).get(s, 0)) for s in layout.seats]
        counts, line = backend.self_interested(
            layout.position(side=layout.to_move),
            rostov=layout.rules.allpass.aim == "fewer_than_each", taken=before)
        split_counts = dict(zip(layout.seats, counts))
        if layout.talon_tricks:
            split_counts[layout.rules.allpass.untaken_talon_tricks] = layout.tricks_left - sum(counts)
        split_line = [deck.from_index(i) for i in line]
    seconds = time.perf_counter() - start
    return AllPassSolution(layout, guaranteed, best_lines, card_values, backend.nodes - start_nodes,
                           seconds, backend.name, split_counts, split_line)


def with_conventions(layout: Layout, allpass: AllPassRules) -> Layout:
    """``layout`` played under the all-pass conventions ``allpass``."""
    return dataclass_replace(layout, rules=with_allpass(layout.rules, allpass))


def _tricks(n: int, word: str = "trick") -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
