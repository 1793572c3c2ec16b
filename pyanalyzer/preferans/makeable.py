"""``makeable``: from a written-down deal with the talon, what could the declarer make?

The declarer holds twelve cards after taking the talon and discards two. For
each trump choice (♠ ♣ ♦ ♥ and no-trump) and each discard, the declarer's
tricks with best play by all; the best discard(s) per trump, the highest
makeable contract and, with the actual discard and contract, whether the
contract was makeable and by how much.

Discards that differ only by touching cards (no card outside the twelve
between them) are equivalent: one of each class is solved.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=W talon=Ah,Kh "
...     "S=As,Ks,Qs W=7h,8h,9h E=7d,8d,9d")
>>> table = analyse_makeable(layout, engine="reference")
>>> table.best["h"].tricks, [d.code for d in table.best["h"].discards[0]]
(2, ['Qs', 'Ks'])
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from pyanalyzer.analysis.tricks import tricks_phrase
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import TRICKS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.render.html import HtmlView

#: Denominations in the order of bidding seniority: ♠ < ♣ < ♦ < ♥ < no-trump.
DENOMINATIONS = ("s", "c", "d", "h", "n")


def twelve_cards(layout: Layout) -> list[Card]:
    """The declarer's twelve cards: his hand plus the talon (or plus his discard)."""
    hand = set(layout.hands[layout.declarer])
    if layout.discard:
        return sorted(hand | set(layout.discard))
    if not layout.talon:
        raise LayoutError("give the talon (or the declarer's discard) to analyse the discards",
                          "talon")
    if set(layout.talon) & hand:
        raise LayoutError("the talon is already in the declarer's hand: give his discard too",
                          "discard")
    return sorted(hand | set(layout.talon))


def discard_still_open(layout: Layout) -> bool:
    """The layout gives the talon in no hand and no discard: the declarer's hand is written
    before he took the talon, and his discard is still to be chosen (README, layout format)."""
    return (bool(layout.talon) and not layout.discard and layout.declarer is not None
            and not layout.contract.is_allpass and not layout.played
            and not any(card in hand for card in layout.talon for hand in layout.hands.values()))


def best_discard(layout: Layout, engine: str | object = "fast"
                 ) -> tuple[Layout, dict[tuple[Card, ...], int]]:
    """The declarer's best discard with open cards, for a layout whose discard is still open.

    Every class of equivalent discards is solved; the best (most tricks in a trick contract,
    fewest forced in a misère; the first in card order on a tie) is returned as the layout
    with that discard made, with each class's value.
    """
    backend = make_backend(engine) if isinstance(engine, str) else engine
    twelve = twelve_cards(layout)
    outside = 0
    for seat in layout.defenders:
        outside |= layout.hands[seat].mask
    values = {}
    for discard in discard_classes(twelve, outside):
        trial = _with_hand(layout, layout.contract, [c for c in twelve if c not in discard], discard)
        values[discard] = backend.solve(trial.position())
    pick = min if layout.contract.is_misere else max
    chosen = pick(values, key=values.get)
    return _with_hand(layout, layout.contract, [c for c in twelve if c not in chosen], chosen), values


def discard_classes(twelve: list[Card], outside: int) -> list[tuple[Card, Card]]:
    """One discard per class of equivalent discards (touching cards are interchangeable).

    ``outside`` is the mask of the cards not among the twelve (the defenders').
    """
    runs: list[list[Card]] = []
    for card in sorted(twelve, key=lambda c: c.index):
        if runs:
            last = runs[-1][-1]
            between = outside & ((1 << card.index) - 1) & ~((1 << (last.index + 1)) - 1)
            if last.suit_number == card.suit_number and not between:
                runs[-1].append(card)
                continue
        runs.append([card])
    seen, chosen = set(), []
    for pair in itertools.combinations(twelve, 2):
        shape = tuple(sum(1 for c in pair if c in run) for run in runs)
        if shape not in seen:
            seen.add(shape)
            # The lowest cards of each run stand for the class.
            picked = []
            for run, n in zip(runs, shape):
                picked.extend(run[:n])
            chosen.append(tuple(sorted(picked, key=lambda c: c.index)))
    return chosen


@dataclass
class DenominationResult:
    """The best the declarer can do with one trump choice."""

    denomination: str
    tricks: int
    #: Every discard class that gives ``tricks``.
    discards: list[tuple[Card, ...]]
    #: Tricks for every discard class tried.
    by_discard: dict[tuple[Card, ...], int] = field(repr=False, default_factory=dict)


@dataclass
class MakeableTable(HtmlView):
    """The answer of :func:`analyse_makeable`."""

    layout: Layout
    twelve: list[Card]
    best: dict[str, DenominationResult]
    actual: int | None  # declarer's tricks with the actual discard and named contract
    nodes: int
    seconds: float
    engine: str

    @property
    def highest_makeable(self) -> Contract | None:
        """The highest contract the declarer could make (by level, then seniority)."""
        rules = self.layout.rules
        best = None
        for denomination in DENOMINATIONS:
            level = min(self.best[denomination].tricks, rules.contract_levels[-1])
            if level < rules.contract_levels[0]:
                continue
            key = (level, DENOMINATIONS.index(denomination))
            if best is None or key > best[0]:
                best = (key, denomination)
        if best is None:
            return None
        (level, _), denomination = best
        return Contract.parse(f"{level}{denomination}", rules)

    def format(self, style: str = "symbols") -> str:
        layout = self.layout
        names = layout.rules.seat_name
        twelve = " ".join(format_card(c, style)
                          for c in sorted(self.twelve, key=lambda c: (c.suit_number, -c.rank_number)))
        out = [f"{names(layout.declarer)}'s twelve cards: {twelve}", "",
               "trump  tricks  best discard(s)"]
        for denomination in DENOMINATIONS:
            row = self.best[denomination]
            label = "NT" if denomination == "n" else next(
                s.symbol for s in layout.rules.deck.suits if s.letter == denomination)
            shown = ", ".join(" ".join(format_card(c, style) for c in d) for d in row.discards[:4])
            more = f" (+{len(row.discards) - 4} more)" if len(row.discards) > 4 else ""
            out.append(f"{label:<6} {row.tricks:>6}  {shown}{more}")
        top = self.highest_makeable
        out.append("")
        out.append(f"Highest makeable contract: {top}." if top else "No contract of six or more is makeable.")
        if self.actual is not None:
            contract = layout.contract
            best = self.best[_denomination(contract)].tricks
            margin = self.actual - contract.level
            discard = " ".join(format_card(c, style) for c in layout.discard)
            made = (f"made with {margin} to spare" if margin > 0 else "made exactly") if margin >= 0 else (
                f"down by {-margin}")
            out.append(f"With the actual discard {discard}, {contract} takes {tricks_phrase(self.actual)}: {made}.")
            if best > self.actual:
                out.append(f"The best discard for {contract} gives {tricks_phrase(best)}.")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        from pyanalyzer.model.layout_io import format_one_line

        top = self.highest_makeable
        result = {
            "layout": format_one_line(self.layout),
            "declarer": self.layout.declarer,
            "twelve": [c.code for c in self.twelve],
            "table": {d: {"tricks": r.tricks, "best_discards": [[c.code for c in x] for x in r.discards]}
                      for d, r in self.best.items()},
            "highest_makeable": top.code if top else None,
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.actual is not None:
            result["actual"] = {"contract": self.layout.contract.code,
                                "discard": [c.code for c in self.layout.discard],
                                "tricks": self.actual,
                                "margin": self.actual - self.layout.contract.level}
        return result


def _denomination(contract: Contract) -> str:
    return contract.trump.letter if contract.trump else "n"


def analyse_makeable(layout: Layout, engine: str | object = "fast") -> MakeableTable:
    """The table of what was makeable from a written-down deal with the talon."""
    if layout.declarer is None or layout.contract.is_allpass:
        raise LayoutError("the talon analysis needs a declarer", "declarer")
    if layout.played:
        raise LayoutError("the talon analysis starts before the first card: remove played=", "played")
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    rules = layout.rules
    twelve = twelve_cards(layout)
    outside = 0
    for seat in layout.defenders:
        outside |= layout.hands[seat].mask
    classes = discard_classes(twelve, outside)
    best: dict[str, DenominationResult] = {}
    for denomination in DENOMINATIONS:
        contract = Contract(TRICKS, rules.contract_levels[0],
                            None if denomination == "n" else next(
                                s for s in rules.deck.suits if s.letter == denomination))
        by_discard = {}
        for discard in classes:
            trial = _with_hand(layout, contract, [c for c in twelve if c not in discard], discard)
            by_discard[discard] = backend.solve(trial.position())
        top = max(by_discard.values())
        best[denomination] = DenominationResult(
            denomination, top, [d for d, v in by_discard.items() if v == top], by_discard)
    actual = None
    if layout.discard and layout.contract.kind == TRICKS:
        actual = backend.solve(layout.position())
    return MakeableTable(layout, twelve, best, actual, backend.nodes - start_nodes,
                         time.perf_counter() - start, backend.name)


def _with_hand(layout: Layout, contract: Contract, hand: list[Card], discard) -> Layout:
    hands = dict(layout.hands)
    hands[layout.declarer] = Hand(hand, layout.rules.deck)
    return Layout(hands, contract, layout.declarer, layout.lead, layout.talon, tuple(discard),
                  (), layout.title, layout.source, layout.rules)
