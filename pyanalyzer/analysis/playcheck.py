"""``playcheck``: replay a played deal and find every card that changed the result.

After each card the double-dummy result is computed again; a card whose
result differs from the one before was a mistake by whoever played it (with
best play the result never moves). Works for trick contracts and misère (there
the mistake is the card that catches or releases the declarer).

>>> from pyanalyzer.model.layout_io import parse_layout_with_record
>>> layout, record = parse_layout_with_record(
...     "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh played=7h,Kh,As,7d,8h,Ad")
>>> check = check_play(layout, record, engine="reference")
>>> [str(m) for m in check.mistakes]
[]
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import IllegalPlayError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.render.html import HtmlView


@dataclass
class PlayStep:
    """One card of the record with the double-dummy result before and after it."""

    trick: int
    seat: str
    card: Card
    #: Declarer's tricks (over the tricks left when the record starts) before and after the card.
    before: int
    after: int
    #: The cards that would have kept the result, when this one changed it.
    keeping: list[Card]
    declarer: str
    misere: bool

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def is_declarer(self) -> bool:
        return self.seat == self.declarer

    def describe(self, style: str = "symbols", names=None) -> str:
        """``trick 3, W played ♥K: defenders lose 1 trick; ♥7 kept it``."""
        name = names(self.seat) if names else self.seat
        delta = self.after - self.before
        n = abs(delta)
        tricks = f"{n} trick" + ("s" if n != 1 else "")
        if self.misere:
            effect = (f"the declarer takes {tricks} more" if delta > 0 else
                      f"the declarer escapes {tricks}")
        elif self.is_declarer:
            effect = f"declarer loses {tricks}"
        else:
            effect = f"defenders lose {tricks}"
        kept = " ".join(format_card(c, style) for c in self.keeping)
        verb = "kept" if len(self.keeping) == 1 else "would have kept"
        return (f"trick {self.trick}, {name} played {format_card(self.card, style)}: {effect}; "
                f"{kept} {verb} it")

    def __str__(self) -> str:
        return self.describe()


@dataclass
class PlayCheck(HtmlView):
    """The replay of a record: each card with its result, and the mistakes."""

    layout: Layout
    steps: list[PlayStep]
    start_value: int
    nodes: int
    seconds: float
    engine: str

    @property
    def mistakes(self) -> list[PlayStep]:
        return [s for s in self.steps if s.changed]

    @property
    def final_value(self) -> int:
        return self.steps[-1].after if self.steps else self.start_value

    def format(self, style: str = "symbols") -> str:
        names = self.layout.rules.seat_name
        who = "tricks forced on the declarer" if self.layout.contract.is_misere else "declarer's tricks"
        out = [f"Double-dummy {who} at the start: {self.start_value}; "
               f"after the last card checked: {self.final_value}."]
        if not self.mistakes:
            out.append("No card changed the result: every card kept the double-dummy value.")
        else:
            out.append(f"{len(self.mistakes)} card(s) changed the result:")
            out.extend("  " + m.describe(style, names) for m in self.mistakes)
        out.append("")
        out.append(f"Card by card ({who} after each card):")
        out.extend(step_rows(self.steps, lambda step: format_card(step.card, style)))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        from pyanalyzer.model.layout_io import format_one_line

        def step(s: PlayStep) -> dict:
            return {"trick": s.trick, "seat": s.seat, "card": s.card.code, "before": s.before,
                    "after": s.after, "changed": s.changed,
                    "keeping": [c.code for c in s.keeping] if s.changed else []}

        return {
            "layout": format_one_line(self.layout),
            "contract": self.layout.contract.code,
            "declarer": self.layout.declarer,
            "start_value": self.start_value,
            "final_value": self.final_value,
            "steps": [step(s) for s in self.steps],
            "mistakes": [dict(step(s), text=s.describe("letters")) for s in self.mistakes],
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def check_play(layout: Layout, record: list[Card], engine: str | object = "fast") -> PlayCheck:
    """Replay ``record`` from ``layout`` and mark each card that changed the result.

    Values count the declarer's tricks over the tricks left at the start of
    the record (tricks already won during the record included).
    """
    if layout.contract.is_allpass:
        raise IllegalPlayError("the play check needs a trick contract or misère, not all-pass",
                               "allpass")
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    position = layout
    value = start_value = backend.solve(layout.position())
    won = 0  # declarer's tricks already taken during the record
    trick = 1
    steps: list[PlayStep] = []
    for card in record:
        seat = position.to_move
        values = backend.card_values(position.position())
        if card.index not in values:
            legal = " ".join(format_card(c) for c in position.legal_cards())
            where = "is not in" if card not in position.hands[seat] else "may not be played from"
            raise IllegalPlayError(
                f"trick {trick}: card {card.code!r} {where} {seat}'s hand here (legal: {legal})",
                card.code)
        after = won + values[card.index]
        keeping = [] if after == value else sorted(
            (layout.rules.deck.from_index(i) for i, v in values.items() if won + v == value),
            key=lambda c: (c.suit_number, -c.rank_number))
        steps.append(PlayStep(trick, seat, card, value, after, keeping, layout.declarer,
                              layout.contract.is_misere))
        value = after
        next_position = position.after(card)
        if not next_position.played and len(position.played) == len(layout.seats) - 1:
            trick_cards = position.played + (card,)
            won += int(position.trick_winner(trick_cards) in layout.rules.side_of(layout.declarer))
            trick += 1
        position = next_position
        if position.tricks_left == 0:
            break
    if len(steps) < len(record):
        extra = record[len(steps)]
        raise IllegalPlayError(f"card {extra.code!r} is played after the last trick", extra.code)
    return PlayCheck(layout, steps, start_value, backend.nodes - start_nodes,
                     time.perf_counter() - start, backend.name)


def step_rows(steps, played) -> list[str]:
    """A replayed record, one row per trick: ``  1. S ♠K 98 !  W ♣9 98 ...`` (each step's seat,
    ``played(step)``, the value after it, ``!`` where it changed). A step has ``trick``, ``seat``,
    ``after`` and ``changed``."""
    rows, trick, row = [], None, []
    for step in steps:
        if step.trick != trick and row:
            rows.append(f"  {trick:>2}. " + "  ".join(row))
            row = []
        trick = step.trick
        mark = " !" if step.changed else ""
        row.append(f"{step.seat} {played(step)} {step.after}{mark}")
    if row:
        rows.append(f"  {trick:>2}. " + "  ".join(row))
    return rows
