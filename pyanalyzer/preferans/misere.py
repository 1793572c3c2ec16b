"""``misere``: is this misère catchable, and for how many tricks?

* **Open layout** (:func:`analyse_open`): the tricks the defenders can force,
  the catching line and every card's value (built on :func:`pyanalyzer.analysis.solve.solve`).
* **Unknown discard** (:func:`analyse_unknown_discard`): the defenders know
  the declarer's twelve cards but not which two he discarded. For each
  possible discard (equivalent discards collapsed) the tricks forced with the
  discard known, and then the exact answer to the question at the table: is
  there **one defence** that catches against every possible discard, and for
  how many tricks at least? That is an imperfect-information search: the
  defenders' choice must be the same for every declarer hand still consistent
  with the play so far, while the declarer, who knows his hand, plays any card
  his real hand allows (and so reveals it is there).
* The declarer's view, the best discard and the odds before the talon are in
  :mod:`pyanalyzer.preferans.odds` (shared with trick contracts).

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=misere declarer=S lead=W S=7s,Ah W=8s,Kh E=9s,Qh")
>>> result = analyse_unknown_discard(layout, talon=[], discard_candidates=None, engine="reference")
>>> result.one_defence, result.status
(1, 'caught')
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace

from pyanalyzer.analysis.solve import Solution, solve
from pyanalyzer.analysis.strategy import OneStrategyGuarantee
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card, parse_cards
from pyanalyzer.model.position import Position
from pyanalyzer.preferans.makeable import discard_classes, discard_still_open
from pyanalyzer.preferans.odds import tidy_json
from pyanalyzer.render.html import HtmlView


def analyse_open(layout: Layout, engine: str | object = "fast", cards: bool = True,
                 line: bool = True) -> Solution:
    """Open misère: forced tricks, catching line, each card's value."""
    if not layout.contract.is_misere:
        raise LayoutError(f"pref misere needs contract=misere, not {layout.contract}", layout.contract.code)
    return solve(layout, engine, cards=cards, line=line)


def catching_summary(solution: Solution, style: str = "symbols", cards: int = 3) -> str:
    """``caught for 2 tricks: lead ♦7, ...`` from a solved open misère."""
    n = solution.declarer_tricks
    if n == 0:
        return "clean: the defenders cannot force a trick"
    first = ", ".join(f"{t.seats[i]} {format_card(c, style)}"
                      for t in solution.tricks[:1] for i, c in enumerate(t.cards[:cards]))
    trick_word = "trick" if n == 1 else "tricks"
    if not first:  # solved without the line
        return f"caught for {n} {trick_word}"
    return f"caught for {n} {trick_word}: {first} …"


@dataclass
class DiscardOutcome:
    """One possible discard (standing for its equivalent ones) with the discard known."""

    discard: tuple[Card, ...]
    forced: int
    #: The defenders' first cards that catch for ``forced`` when they know this discard.
    catching_cards: list[Card]


@dataclass
class UnknownDiscardResult(HtmlView):
    """The answer of :func:`analyse_unknown_discard`."""

    layout: Layout
    twelve: list[Card]
    outcomes: list[DiscardOutcome]
    #: Tricks one defence forces against every possible discard.
    one_defence: int
    #: Guessing game: pairs of catchable discards that no single defence catches both of.
    splitting_pairs: list[tuple[tuple[Card, ...], tuple[Card, ...]]]
    nodes: int
    seconds: float
    engine: str

    @property
    def status(self) -> str:
        """``caught`` (one defence catches them all), ``guessing`` or ``clean``."""
        if self.one_defence > 0:
            return "caught"
        if all(o.forced > 0 for o in self.outcomes):
            return "guessing"
        return "clean"

    def verdict(self, style: str = "symbols") -> str:
        names = self.layout.rules.seat_name
        declarer = names(self.layout.declarer)
        if self.status == "caught":
            n = self.one_defence
            return (f"Caught for sure: one defence forces at least {n} trick{'s' * (n != 1)} "
                    f"on {declarer} whatever he discarded.")
        if self.status == "guessing":
            return (f"Guessing game: every discard is catchable once known, but no single defence "
                    f"catches them all; the defenders must guess {declarer}'s discard.")
        clean = [o for o in self.outcomes if o.forced == 0]
        shown = "; ".join(" ".join(format_card(c, style) for c in o.discard) for o in clean[:4])
        return f"Clean: with the discard {shown} the misère cannot be caught even with open cards."

    def format(self, style: str = "symbols") -> str:
        twelve = " ".join(format_card(c, style) for c in sorted(
            self.twelve, key=lambda c: (c.suit_number, -c.rank_number)))
        out = [self.verdict(style), "", f"Declarer's twelve cards: {twelve}",
               "Each possible discard (equivalent ones collapsed), with the discard known:",
               f"  {'discard':<9} {'forced':>6}  catching first cards"]
        for o in sorted(self.outcomes, key=lambda o: (-o.forced, [c.index for c in o.discard])):
            discard = " ".join(format_card(c, style) for c in o.discard)
            catching = " ".join(format_card(c, style) for c in o.catching_cards) if o.forced else "-"
            out.append(f"  {discard:<9} {o.forced:>6}  {catching}")
        if self.splitting_pairs:
            out.append("")
            out.append("Discards that split the defence (no single defence catches both):")
            for first, second in self.splitting_pairs[:8]:
                a = " ".join(format_card(c, style) for c in first)
                b = " ".join(format_card(c, style) for c in second)
                out.append(f"  {a}  /  {b}")
            if len(self.splitting_pairs) > 8:
                out.append(f"  ... and {len(self.splitting_pairs) - 8} more pairs")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "one_defence": self.one_defence,
            "twelve": [c.code for c in self.twelve],
            "discards": [{"discard": [c.code for c in o.discard], "forced": o.forced,
                          "catching_cards": [c.code for c in o.catching_cards]} for o in self.outcomes],
            "splitting_pairs": [[[c.code for c in a], [c.code for c in b]] for a, b in self.splitting_pairs],
            "verdict": self.verdict(),
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyse_unknown_discard(layout: Layout, talon, discard_candidates=None,
                            engine: str | object = "fast") -> UnknownDiscardResult:
    """Misère with the discard unseen: per-discard results and the one-defence value.

    The declarer's twelve cards are his hand plus ``talon`` plus the layout's
    discard (whichever of them are given); with fewer than twelve (an
    ending) the declarer's hand plus the given cards are the candidates'
    pool and each candidate keeps as many cards as the other hands hold.
    ``discard_candidates`` may restrict the discards considered.
    """
    if not layout.contract.is_misere:
        raise LayoutError(f"the unknown-discard analysis needs a misère, not {layout.contract}",
                          layout.contract.code)
    if layout.played:
        raise LayoutError("the unknown-discard analysis starts at the first lead: remove played=", "played")
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    declarer = layout.declarer
    pool = sorted(set(layout.hands[declarer]) | set(talon) | set(layout.discard), key=lambda c: c.index)
    size = len(layout.hands[layout.defenders[0]])
    extra = len(pool) - size
    if extra < 0:
        raise LayoutError("the declarer has fewer cards than the defenders", declarer)
    for card in pool:
        for seat in layout.defenders:
            if card in layout.hands[seat]:
                raise LayoutError(f"talon card {card.code!r} is in {seat}'s hand", card.code)
    outside = 0
    for seat in layout.defenders:
        outside |= layout.hands[seat].mask
    if discard_candidates is None:
        if extra == 2:
            discard_candidates = discard_classes(pool, outside)
        else:
            discard_candidates = [tuple(c) for c in itertools.combinations(pool, extra)]
    base = layout.position()
    seat_number = layout.seats.index(declarer)
    hands = {}
    outcomes = []
    for discard in discard_candidates:
        keep = 0
        for card in pool:
            if card not in discard:
                keep |= card.mask
        hands[discard] = keep
        position = _with_declarer(base, seat_number, keep)
        forced = backend.solve(position)
        catching = []
        if forced and base.to_move != seat_number:
            values = backend.card_values(position)
            catching = [layout.rules.deck.from_index(i) for i, v in sorted(values.items()) if v == forced]
        outcomes.append(DiscardOutcome(tuple(discard), forced, catching))
    search = OneStrategyGuarantee(base, seat_number, backend)
    value = search.one_defence(list(hands.values()))
    pairs = []
    if value == 0 and all(o.forced > 0 for o in outcomes):
        # Which catchable discards cannot be caught by one defence together?
        for first, second in itertools.combinations(outcomes, 2):
            if search.one_defence([hands[first.discard], hands[second.discard]]) == 0:
                pairs.append((first.discard, second.discard))
    return UnknownDiscardResult(layout, pool, outcomes, value, pairs, backend.nodes - start_nodes,
                                time.perf_counter() - start, backend.name)


def _with_declarer(base: Position, seat: int, hand: int) -> Position:
    return replace(base, hands=base.hands[:seat] + (hand,) + base.hands[seat + 1:])


@dataclass
class MisereDiscard:
    """One discard of a twelve-card misère hand with its catch odds (exact, or pruned)."""

    discard: tuple[Card, ...]
    odds: object  # pyanalyzer.preferans.odds.TrickOdds
    pruned: bool

    @property
    def p_caught(self) -> float:
        return self.odds.p_caught

    @property
    def caught_splits(self) -> int:
        return self.odds.tally.splits - self.odds.histogram[0]


@dataclass
class MisereDiscardRanking(HtmlView):
    """The discards of a twelve-card misère hand, best first."""

    twelve: list[Card]
    declarer: str
    lead: str
    ranked: list[MisereDiscard]
    pruned: list[MisereDiscard]
    seconds: float
    top: int
    #: Stopped by Ctrl-C: the classes after the last in ``ranked`` were not enumerated, and
    #: that last one only in part (bounds).
    interrupted: bool = False
    #: Discard classes in all.
    classes: int = 0

    def _cut_short(self, entry: MisereDiscard) -> bool:
        return entry.odds.tally.interrupted and not entry.pruned

    def _shown(self) -> list[MisereDiscard]:
        """The ``top`` best, and a class cut short by an interruption in any case."""
        shown = self.ranked[:self.top]
        shown += [e for e in self.ranked[self.top:] if self._cut_short(e)]
        return shown

    def format(self, style: str = "symbols") -> str:
        twelve = " ".join(format_card(c, style) for c in sorted(
            self.twelve, key=lambda c: (c.suit_number, -c.rank_number)))
        out = [f"{self.declarer}'s misère with twelve cards {twelve}, {self.lead} leads."]
        if self.interrupted:
            cut = [e for e in self.ranked if self._cut_short(e)]
            finished = len(self.ranked) - len(cut)
            out.append(f"PARTIAL (interrupted): {finished} of {self.classes} discard classes finished "
                       f"({len(self.pruned)} of them dropped once provably worse than the best)"
                       + (", the one cut short shown with proven bounds" if cut else "")
                       + f", {self.classes - len(self.ranked)} not enumerated ({self.seconds:.1f} s).")
        else:
            out.append(f"Every discard class enumerated exactly over all splits; {len(self.pruned)} of "
                       f"{len(self.ranked)} dropped once provably worse than the best ({self.seconds:.1f} s).")
        out += ["", f"  {'discard':<9} {'P(caught)':>10} {'E[tricks]':>10}"]
        shown = self._shown()
        for entry in shown:
            discard = " ".join(format_card(c, style) for c in entry.discard)
            if self._cut_short(entry):
                tally = entry.odds.tally
                low, high = tally.bounds(lambda k: k >= 1)
                e_low, e_high = tally.expected_bounds()
                out.append(f"  {discard:<9} {f'{100 * low:.1f}-{100 * high:.1f}%':>10} "
                           f"{f'{e_low:.2f}-{e_high:.2f}':>10}  (interrupted after {tally.splits:,} "
                           f"of {tally.total:,} splits)")
            elif entry.pruned:
                total = entry.odds.tally.total
                out.append(f"  {discard:<9} {'>= ' + format(100 * entry.caught_splits / total, '.2f'):>9}% "
                           f"{'(dropped)':>10}")
            else:
                out.append(f"  {discard:<9} {100 * entry.p_caught:>9.2f}% {entry.odds.expected_tricks:>10.3f}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        def row(entry: MisereDiscard) -> dict:
            data = {"discard": [c.code for c in entry.discard], "pruned": entry.pruned,
                    "splits": entry.odds.tally.splits, "histogram": entry.odds.histogram}
            if self._cut_short(entry):
                tally = entry.odds.tally
                data.update(interrupted=True, total=tally.total,
                            p_caught_bounds=list(tally.bounds(lambda k: k >= 1)),
                            expected_tricks_bounds=list(tally.expected_bounds()))
            elif not entry.pruned:
                data.update(p_caught=entry.p_caught, expected_tricks=entry.odds.expected_tricks)
            else:
                data["p_caught_at_least"] = entry.caught_splits / entry.odds.tally.total
            return data

        finished = [e for e in self.ranked if not self._cut_short(e)]
        best = finished[0] if finished and not finished[0].pruned else None
        shown = self._shown()
        return tidy_json({"view": "best_discard", "declarer": self.declarer, "lead": self.lead,
                          "twelve": [c.code for c in self.twelve],
                          "partial": self.interrupted, "interrupted": self.interrupted,
                          "classes": self.classes, "classes_finished": len(finished),
                          "best": row(best) if best else None,
                          "ranked": [row(e) for e in shown],
                          "pruned": [row(e) for e in self.pruned], "seconds": round(self.seconds, 3)})


def rank_misere_discards(twelve, declarer: str, lead: str, rules=None, engine: str = "fast",
                         threads: int = 2, top: int = 5, screen_samples: int = 200, seed: int = 0,
                         progress=None, backends=None) -> MisereDiscardRanking:
    """Rank every discard class by the exact probability that the misère is caught.

    Candidates are screened on a few random splits to try the promising ones
    first; each is then enumerated exactly, and dropped as soon as its caught
    splits exceed those of the best complete one (it can only get worse), so
    for dropped discards the probability shown is a lower bound. ``backends``: the engines to
    use, one per thread (by default new ones).
    """
    from pyanalyzer.model.contract import Contract
    from pyanalyzer.model.hand import Hand
    from pyanalyzer.model.rules import PREFERANS_RULES
    from pyanalyzer.preferans.odds import declarer_view

    rules = rules or PREFERANS_RULES
    start = time.perf_counter()
    twelve = list(twelve)
    if len(twelve) != rules.hand_size + rules.discard_size:
        raise LayoutError(f"a hand with the talon has {rules.hand_size + rules.discard_size} cards, "
                          f"not {len(twelve)}", "--hand")
    outside = 0
    for card in rules.deck:
        if card not in twelve:
            outside |= card.mask
    misere = Contract("misere")
    classes = discard_classes(twelve, outside)
    from pyanalyzer.engines.registry import make_backend

    if backends is None:  # shared by every enumeration below
        backends = [make_backend(engine) for _ in range(threads)]

    def keep(discard):
        return Hand([c for c in twelve if c not in discard], rules.deck)

    screened = []
    staged = progress is not None and hasattr(progress, "stage")
    if staged:
        progress.stage(f"screening on {screen_samples} random splits", unit="discard classes")
    for discard in classes:
        if staged:
            progress(len(screened), len(classes))
        odds = declarer_view(keep(discard), declarer, list(discard), misere, lead, rules, engine, threads,
                             samples=screen_samples, seed=seed, backends=backends)
        if odds.tally.interrupted:  # nothing is enumerated yet: nothing to keep
            raise KeyboardInterrupt
        screened.append((odds.p_caught, odds.expected_tricks, discard))
    screened.sort(key=lambda x: (x[0], x[1]))
    complete: list[MisereDiscard] = []
    pruned: list[MisereDiscard] = []
    cut_short: list[MisereDiscard] = []
    interrupted = False
    for number, (_, _, discard) in enumerate(screened, start=1):
        threshold = min((e.caught_splits for e in complete), default=None)

        def worse(histogram, threshold=threshold) -> bool:
            return threshold is not None and sum(histogram) - histogram[0] > threshold

        try:
            if staged:
                progress.stage("discard class", number, len(screened), may_stop_early=True)
            odds = declarer_view(keep(discard), declarer, list(discard), misere, lead, rules, engine, threads,
                                 progress=progress, stop_when=worse, backends=backends)
        except KeyboardInterrupt:  # between two enumerations: the classes finished stand
            interrupted = True
            break
        entry = MisereDiscard(discard, odds, odds.tally.pruned)
        interrupted = odds.tally.interrupted
        if interrupted and not entry.pruned:  # keep what is finished, and this class's bounds
            cut_short.append(entry)
            break
        (pruned if entry.pruned else complete).append(entry)
        if interrupted:  # (it was dropped all the same: decided)
            break
    complete.sort(key=lambda e: (e.p_caught, e.odds.expected_tricks))
    pruned.sort(key=lambda e: e.caught_splits)
    return MisereDiscardRanking(twelve, declarer, lead, complete + pruned + cut_short, pruned,
                                time.perf_counter() - start, top, interrupted=interrupted,
                                classes=len(screened))


def analyse_misere_layout(layout: Layout, engine, talon_text: str | None = None, cards: bool = True,
                          line: bool = True):
    """What ``pref misere LAYOUT [--talon CARDS]`` answers: the open misère, or, with the talon
    given (or the hand written before the talon, no discard), the table of discards when the
    defenders do not know the discard."""
    if not layout.contract.is_misere:
        raise LayoutError(f"pref misere needs contract=misere, not {layout.contract}", layout.contract.code)
    if talon_text is not None:
        return analyse_unknown_discard(layout, talon_cards(talon_text, layout), engine=engine)
    if discard_still_open(layout):
        return analyse_unknown_discard(layout, layout.talon, engine=engine)
    return analyse_open(layout, engine, cards=cards, line=line)


def talon_cards(text: str, layout: Layout) -> list[Card]:
    """The ``--talon`` cards: exactly the talon's size, none already in a hand. (They may be the
    layout's discard=: the declarer put the talon back.)"""
    rules = layout.rules
    talon = parse_cards(text, rules.deck)
    if not talon:
        raise LayoutError(f"--talon is empty: give the {rules.discard_size} talon cards, e.g. --talon Kc,Ac",
                          "--talon")
    if len(talon) != rules.discard_size:
        raise LayoutError(f"--talon {shorten(text)!r} has {len(talon)} card{'s' if len(talon) != 1 else ''}: "
                          f"the talon has {rules.discard_size}", text)
    for card in talon:
        for seat in layout.seats:
            if card in layout.hands[seat]:
                raise LayoutError(f"talon card {card.code!r} is already in {seat}'s hand", card.code)
    return talon
