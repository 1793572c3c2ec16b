"""The declarer's discard at the table (issue 22, item 4): ``pref advise --seat S`` for the declarer
holding twelve cards (the talon taken, his discard still to choose) answers which two cards to
discard, in advise's shape: each discard -> the expected result and its distribution over the
layouts of the twenty cards he cannot see, the best discard, and what each other one costs.

The ranking is the one ``pref contract --hand S=<12 cards>`` and ``pref misere --hand S=<12 cards>``
compute (:func:`pyanalyzer.preferans.odds.rank_discards`,
:func:`pyanalyzer.preferans.misere.rank_misere_discards`), reused here and not redone:

* a trick contract: every discard class screened on the same ``samples`` random layouts, the best
  few (``FINALISTS``) then solved over all 184,756; with ``exact_limit`` below that, every class
  stays sampled. The best discard is the one most likely to make the contract;
* misère: every class enumerated over all layouts, a class dropped as soon as it is provably
  caught more often than the best one (its figures are then bounds). The best is the one least
  often caught.

``cost`` is counted in the probability that decides: how much less likely than with the best
discard the contract is made (the misère is clean). Discards of touching cards are one class,
listed once by its lowest cards.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from pyanalyzer.analysis.advise import card_advice
from pyanalyzer.analysis.splits import count_splits
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.preferans.makeable import discard_still_open, twelve_cards
from pyanalyzer.preferans.misere import rank_misere_discards
from pyanalyzer.preferans.odds import rank_discards, tidy_json
from pyanalyzer.render.html import HtmlView, table_html

#: Discard classes of a trick contract solved over every layout after the screening (the ranking's).
FINALISTS = 3
#: The screening's random layouts per discard class (a trick contract; the ranking's default).
SCREEN_SAMPLES = 400


def asks_for_a_discard(layout: Layout, seat: str, moves=()) -> bool:
    """Is ``seat`` the declarer with twelve cards, his discard still to choose (no card played)?"""
    return (not layout.rules.counts_points and not moves and layout.declarer == seat
            and discard_still_open(layout))


@dataclass
class DiscardAdvice(HtmlView):
    """The answer of :func:`advise_discard`: ``cards`` maps each discard class (a tuple of two
    cards) to its :class:`~pyanalyzer.analysis.advise.CardAdvice`."""

    layout: Layout
    seat: str
    twelve: list[Card]
    cards: dict
    best: tuple[Card, ...] | None
    #: Layouts of the cards he cannot see (each discard is judged over them).
    layouts: int
    #: Per discard: every layout solved (else sampled, or a misère class dropped: bounds).
    exact_discards: dict
    #: The probability that decides per discard: of making the contract, of a clean misère.
    deciding: dict
    seconds: float
    seed: int | None
    samples: int
    interrupted: bool = False
    #: The ranking's work: layouts solved and engine nodes (a trick contract's screening included;
    #: the misère ranking keeps no tally of its screening).
    solves: int = 0
    nodes: int = 0

    @property
    def exact(self) -> bool:
        return bool(self.cards) and all(self.exact_discards.values()) and not self.interrupted

    @property
    def deciding_word(self) -> str:
        return "clean" if self.layout.contract.is_misere else "made"

    def _decides(self, tricks: int) -> bool:
        """Does the declarer's result count as made (a clean misère)?"""
        contract = self.layout.contract
        return tricks == 0 if contract.is_misere else tricks >= contract.level + self.layout.rules.book

    def _code(self, discard, style: str = "letters") -> str:
        return ",".join(c.code for c in discard) if style == "letters" else " ".join(
            format_card(c, style) for c in discard)

    def headline(self, style: str = "symbols") -> str:
        twelve = " ".join(format_card(c, style) for c in sorted(self.twelve, key=lambda c: (c.suit_number,
                                                                                           -c.rank_number)))
        rules = self.layout.rules
        return (f"{rules.seat_name(self.seat)} ({self.seat}), declarer in {self.layout.contract}, holds twelve "
                f"cards {twelve}; {self.layout.lead} leads. Which two to discard?")

    def method(self) -> str:
        if self.layout.contract.is_misere:
            how = (f"every discard class over all {self.layouts:,} layouts of the cards he cannot see; a class "
                   "dropped once provably caught more often than the best (bounds)")
        elif any(self.exact_discards.values()):
            how = (f"every discard class on the same {self.samples:,} random layouts (seed {self.seed}), the "
                   f"best {sum(self.exact_discards.values())} then over all {self.layouts:,}")
        else:
            how = (f"every discard class on the same {self.samples:,} random layouts (seed {self.seed}) of "
                   f"{self.layouts:,}")
        partial = "PARTIAL (interrupted): " if self.interrupted else ""
        return f"{partial}{how}, {self.seconds:.1f} s. Values: {self.layout.rules.seat_name(self.seat)}'s tricks."

    def _rows(self, style: str) -> list[list]:
        rows = []
        for discard, advice in self.cards.items():
            how = "exact" if self.exact_discards[discard] else (
                "sampled" if not advice.tally.enumeration else "dropped")
            expected = advice.expected_text()
            chance = self.deciding[discard]
            if chance is None:  # an enumeration cut short: its bounds
                high = advice.tally.bounds(self._decides)[1]
                shown = f"<= {100 * high:.1f}%"
                cost = "-" if self.best is None else f">= {100 * max(0.0, self.deciding[self.best] - high):.1f}"
            else:
                shown, cost = f"{100 * chance:.1f}%", "-" if math.isnan(advice.cost) else f"{100 * advice.cost:.1f}"
            rows.append([self._code(discard, style) + (" (best)" if discard == self.best else ""), expected,
                         shown, cost, how])
        return rows

    def format(self, style: str = "symbols") -> str:
        out = [self.headline(style), self.method(), ""]
        out.append(f"  {'discard':<14} {'expected':>16} {'P(' + self.deciding_word + ')':>10} {'cost':>7}  how")
        for row in self._rows(style):
            out.append(f"  {row[0]:<14} {row[1]:>16} {row[2]:>10} {row[3]:>7}  {row[4]}")
        out += ["", f"cost: how much less likely than with the best discard the contract is {self.deciding_word} "
                    "(percentage points)."]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def html_parts(self, style: str = "symbols") -> dict:
        """The layout as the declarer sees it (the defenders' hands as their count) and the table."""
        header = ["discard", "expected", f"P({self.deciding_word})", "cost (points of %)", "how"]
        return {"layout": self.layout, "values": None, "verdict": f"{self.headline(style)}\n{self.method()}",
                "text": "", "style": style, "best": [],
                "hidden": [s for s in self.layout.seats if s != self.seat],
                "table": table_html(header, self._rows(style))}

    def to_json(self) -> dict:
        cards = {}
        for discard, advice in self.cards.items():
            entry = advice.to_json()
            entry["discard"] = [c.code for c in discard]
            entry["exact"] = self.exact_discards[discard]
            entry["method"] = advice.tally.method
            entry["solved"] = advice.tally.splits
            entry["p_" + self.deciding_word] = self.deciding[discard]
            if self.deciding[discard] is None:  # an enumeration cut short: what it proves
                low, high = advice.tally.bounds(self._decides)
                entry[f"p_{self.deciding_word}_bounds"] = [low, high]
                if self.best is not None:
                    entry["cost_at_least"] = max(0.0, self.deciding[self.best] - high)
            if advice.tally.pruned:
                entry["dropped"] = True
            cards[self._code(discard)] = entry
        return tidy_json({
            "question": "discard", "seat": self.seat, "counted": self.seat, "contract": self.layout.contract.code,
            "lead": self.layout.lead, "twelve": [c.code for c in self.twelve], "layouts": self.layouts,
            "classes": len(self.cards), "exact": self.exact, "ranked_by": "p_" + self.deciding_word,
            "cost_unit": "probability", "samples": self.samples, "seed": self.seed,
            "partial": self.interrupted or not self.exact, "interrupted": self.interrupted,
            "cards": cards, "best": None if self.best is None else self._code(self.best),
            "seconds": round(self.seconds, 3)})

    def to_dict(self) -> dict:
        return self.to_json()


def advise_discard(layout: Layout, seat: str, *, engine="fast", exact_limit: int | None = None,
                   samples: int = SCREEN_SAMPLES, seed: int | None = None, threads: int = 2, progress=None,
                   backends=None) -> DiscardAdvice:
    """Which two cards ``seat``, the declarer holding twelve cards in ``layout`` (the talon in no hand,
    no discard), should discard; see the module docstring. ``exact_limit`` below the layouts' count
    (184,756) leaves a trick contract's discards all sampled."""
    start = time.perf_counter()
    rules = layout.rules
    seat = rules.seat(seat)
    if not asks_for_a_discard(layout, seat):
        raise LayoutError(f"{seat} has no discard to choose: the declarer's, with the talon given and no "
                          "discard= (before the play)", seat)
    twelve = twelve_cards(layout)
    unseen = sum(len(layout.hands[s]) for s in layout.seats if s != seat)
    layouts = count_splits((1 << unseen) - 1, tuple(len(layout.hands[s]) for s in layout.seats if s != seat))
    seed = 0 if seed is None else seed
    contract = layout.contract
    exact, deciding, cards = {}, {}, {}
    if contract.is_misere:
        ranking = rank_misere_discards(twelve, seat, layout.lead, rules, engine, threads, seed=seed,
                                       progress=progress, backends=backends)
        interrupted = ranking.interrupted
        tallies = [entry.odds.tally for entry in ranking.ranked]
        for entry in ranking.ranked:
            tally = entry.odds.tally
            cards[entry.discard] = card_advice(tally, 0, layout, seat, 0)
            exact[entry.discard] = tally.exact
            deciding[entry.discard] = (1 - entry.p_caught) if tally.exact else None
    else:
        finalists = FINALISTS if exact_limit is None or exact_limit >= layouts else 0
        ranking = rank_discards(twelve, seat, layout.lead, contract, rules, engine, threads, screen_samples=samples,
                                finalists=finalists, seed=seed, progress=progress, backends=backends)
        interrupted = ranking.interrupted
        tallies = [choice.odds.tally for choice in ranking.exact + ranking.screened]
        for choice in ranking.exact + ranking.screened:
            if choice.discard in cards:  # a finalist: its exact figures stand, not the screening's
                continue
            tally = choice.odds.tally
            cards[choice.discard] = card_advice(tally, 0, layout, seat, 0)
            exact[choice.discard] = tally.exact
            deciding[choice.discard] = choice.p_make if not (tally.enumeration and tally.partial) else None
    decided = [d for d in cards if deciding[d] is not None]
    # The best: the most likely to make (be clean), the exact figures before the sampled ones.
    best = max(decided, key=lambda d: (exact[d], deciding[d], cards[d].expected * (-1 if contract.is_misere else 1)),
               default=None)
    for discard, advice in cards.items():
        if best is not None and deciding[discard] is not None:
            advice.cost = deciding[best] - deciding[discard]
    order = sorted(cards, key=lambda d: (d != best, deciding[d] is None, -(deciding[d] or 0)))
    cards = {d: cards[d] for d in order}
    return DiscardAdvice(layout, seat, twelve, cards, best, layouts, exact, deciding, time.perf_counter() - start,
                         seed, samples, interrupted, sum(t.solves for t in tallies), sum(t.nodes for t in tallies))
