"""``defence``: how many tricks do the whisters get, and do they meet their obligation?

For an open layout with a trick contract: the declarer's and the defenders'
tricks with best play, the whist verdict against the obligation table, how the
defenders' tricks fall between them along the best line, and the most tricks
each defender can secure for himself while the pair still takes its maximum.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=W S=As,Ks,7d W=Ah,Kh,8d E=Ad,Qh,9d")
>>> result = analyse_defence(layout, engine="reference")
>>> result.declarer_tricks, result.defender_tricks, result.secured
(2, 1, {'W': 0, 'E': 1})
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from pyanalyzer.analysis.playcheck import check_play
from pyanalyzer.analysis.small_search import TrickSearch, distinct_cards
from pyanalyzer.analysis.solve import Trick, TrickCounts, format_tricks, line_to_tricks
from pyanalyzer.analysis.tricks import tricks_phrase
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position
from pyanalyzer.preferans.makeable import analyse_makeable
from pyanalyzer.render.html import HtmlView
from pyanalyzer.scoring.conventions import Conventions

#: The conventions whose whist obligations the analyses report: the defaults (the
#: ``obligations`` option, ``docs/rules.md``, "Whist (defence) obligations").
ANALYSIS_CONVENTIONS = Conventions()


def whist_obligation(level: int) -> int:
    """Tricks the two defenders owe together against a trick contract of ``level``."""
    return ANALYSIS_CONVENTIONS.obligation(level)


@dataclass
class DefenceResult(TrickCounts, HtmlView):
    """The answer of :func:`analyse_defence`."""

    layout: Layout
    declarer_tricks: int
    line: list[Card]
    tricks: list[Trick]
    #: Tricks each defender takes along the best line.
    line_split: dict[str, int]
    #: The most tricks each defender can secure for himself while the pair takes its maximum.
    secured: dict[str, int]
    nodes: int
    seconds: float
    engine: str

    @property
    def obligation(self) -> int | None:
        """What the defenders owe together (full deals only: an ending lacks the earlier tricks)."""
        if not self.is_full_deal:
            return None
        return whist_obligation(self.layout.contract.level)

    @property
    def shortfall(self) -> int | None:
        """How many tricks the defenders are short of their obligation (0 = met)."""
        if self.obligation is None:
            return None
        return max(0, self.obligation - self.defender_tricks)

    @property
    def contract_margin(self) -> int | None:
        """Declarer's tricks minus the contract level (negative: down), full deals only."""
        return self.declarer_tricks - self.layout.contract.level if self.is_full_deal else None

    def verdict(self) -> list[str]:
        layout, names = self.layout, self.layout.rules.seat_name
        d1, d2 = layout.defenders
        lines = []
        if self.is_full_deal:
            margin = self.contract_margin
            made = (f"{layout.contract} makes" + (f" with {margin} overtrick{'s' * (margin != 1)}"
                                                   if margin else "")
                    if margin >= 0 else f"{layout.contract} goes down by {-margin}")
            lines.append(f"{names(layout.declarer)} takes {tricks_phrase(self.declarer_tricks)}: {made}.")
            if self.shortfall == 0:
                whist = f"the whist obligation of {self.obligation} is met"
            else:
                whist = f"short of the whist obligation of {self.obligation} by {self.shortfall}"
            lines.append(f"The defenders take {self.defender_tricks}: {whist}.")
        else:
            lines.append(f"{names(layout.declarer)} takes {self.declarer_tricks} of the "
                         f"{self.tricks_left} tricks left, the defenders {self.defender_tricks}.")
        lines.append(f"Along the best line: {names(d1)} {self.line_split[d1]}, "
                     f"{names(d2)} {self.line_split[d2]}.")
        lines.append(f"Each can secure for himself, the pair keeping its {self.defender_tricks}: "
                     f"{names(d1)} {self.secured[d1]}, {names(d2)} {self.secured[d2]}.")
        return lines

    def format(self, style: str = "symbols") -> str:
        out = list(self.verdict())
        if self.tricks:
            out.append("")
            out.append("Best play:")
            out.extend("  " + text for text in format_tricks(self.tricks, style=style))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        from pyanalyzer.model.layout_io import format_one_line

        return {
            "layout": format_one_line(self.layout),
            "contract": self.layout.contract.code,
            "declarer": self.layout.declarer,
            "tricks_left": self.tricks_left,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
            "contract_margin": self.contract_margin,
            "whist_obligation": self.obligation,
            "whist_shortfall": self.shortfall,
            "line_split": self.line_split,
            "secured": self.secured,
            "line": [c.code for c in self.line],
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyse_defence(layout: Layout, engine: str | object = "fast") -> DefenceResult:
    """Whist tricks for an open layout with a trick contract (see the module docstring)."""
    if layout.contract.kind != "tricks":
        raise LayoutError(f"the defence analysis needs a trick contract, not {layout.contract}",
                          layout.contract.code)
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    position = layout.position()
    value = backend.solve(position)
    deck = layout.rules.deck
    line = [deck.from_index(i) for i in backend.best_line(position)]
    tricks = line_to_tricks(layout, line)
    line_split = {seat: sum(1 for t in tricks if t.complete and t.winner == seat)
                  for seat in layout.defenders}
    secured = {seat: secured_tricks(layout, seat, backend) for seat in layout.defenders}
    return DefenceResult(layout, value, line, tricks, line_split, secured,
                         backend.nodes - start_nodes, time.perf_counter() - start, backend.name)


def secured_tricks(layout: Layout, defender: str, backend) -> int:
    """The most tricks ``defender`` can be sure of while the pair still takes its maximum.

    A lexicographic game (the pair's tricks first, then the defender's own):
    both sides only ever play cards that keep the pair's double-dummy value
    (any other card is strictly worse for whoever plays it), so the search
    walks the tree of such cards, asking the engine which cards they are,
    and counts the defender's tricks with the declarer minimising them.
    """
    position = layout.position()
    search = _SecuredTricks(position, layout.seats.index(defender), backend)
    return search.value(tuple(position.hands), position.leader, tuple(position.played))


class _SecuredTricks(TrickSearch):
    """The defender's own tricks, over the cards that keep the pair's value (see secured_tricks)."""

    def __init__(self, position: Position, defender: int, backend) -> None:
        super().__init__(TrickRules.of(position), len(position.hands))
        self.position = position
        self.defender = defender
        self.backend = backend

    def expand(self, hands, leader, played, extra, seat):
        legal = self.rules.legal_moves(hands[seat], played)
        pair_tricks = None
        if legal & (legal - 1):
            values = self.backend.card_values(replace(self.position, hands=hands, leader=leader, played=played))
            keep = max(values.values()) if self.position.declarer_side[seat] else min(values.values())
            cards = [c for c, v in values.items() if v == keep]
            pair_tricks = (sum(bin(h).count("1") for h in hands) + len(played)) // self.seats - keep
        else:
            cards = [legal.bit_length() - 1]
        moves = ((card, hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:], None)
                 for card in distinct_cards(cards, hands, played, self.position.suit_masks))
        return moves, pair_tricks

    def maximising(self, seat):
        return not self.position.declarer_side[seat]

    def gain(self, winner):
        return int(winner == self.defender)

    def bounds(self, hands, leader, extra):
        return 0, bin(hands[0]).count("1")


def analyse_contract_layout(layout: Layout, record, engine):
    """What ``pref contract LAYOUT`` answers: a play record checked (``record``: the moves of
    ``played=``), what was makeable from a written-down deal (the talon and either the hands before
    it or the discard), or the defence of an open layout."""
    if record:
        return check_play(layout, record, engine)
    if layout.talon and not layout.contract.is_allpass and (layout.discard or not any(
            card in hand for card in layout.talon for hand in layout.hands.values())):
        return analyse_makeable(layout, engine)
    if layout.contract.kind == "tricks":
        return analyse_defence(layout, engine)
    command = "pref misere" if layout.contract.is_misere else "pref allpass"
    raise LayoutError(f"pref contract analyses trick contracts; for {layout.contract} use "
                      f"{command} (or give played= to check a play record)", layout.contract.code)
