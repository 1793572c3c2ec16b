"""``odds``: trick odds over the layouts a player cannot see.

* **Declarer's view** (:func:`declarer_view`): his ten cards after the discard,
  the discard, the contract and the lead. Every split of the other twenty
  cards between the defenders (C(20,10) = 184,756) is equally likely and is
  solved exactly: the distribution of his tricks, the probability the
  contract makes and the probability the whisters meet their obligation (for
  misère: the probability it is caught).
* **Best discard** (:func:`rank_discards`): with his twelve cards, every
  discard (up to equivalent cards) and every contract, ranked by the
  probability of making.
* **Before the talon** (:func:`before_talon`): ten cards and a contract;
  Monte Carlo over talons and splits, with the best discard for each talon.
* **Whister's view** (:func:`whister_view`): one defender's ten cards; the
  defenders' tricks over every consistent layout (exactly when they are few
  enough, else a random sample with a confidence interval).

>>> from pyanalyzer import PREFERANS, Hand, Contract, PREFERANS_RULES
>>> hand = Hand.parse("♠AKQJ1098 ♣AK ♦A", PREFERANS)
>>> view = declarer_view(hand, "S", list(Hand.parse("♥AK", PREFERANS)),
...     Contract.parse("10s", PREFERANS_RULES), lead="S", threads=1)
>>> view.tally.splits, view.p_make
(184756, 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pyanalyzer.analysis.splits import Progress, Tally, count_splits, solve_splits
from pyanalyzer.engines.executor import Executor
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import TRICKS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import PREFERANS_RULES, Rules
from pyanalyzer.preferans.defence import whist_obligation
from pyanalyzer.preferans.makeable import DENOMINATIONS, discard_classes
from pyanalyzer.render.html import HtmlView

#: Above this many layouts the whister's view samples instead of enumerating.
EXACT_LIMIT = 250_000


def _template(rules: Rules, hands: dict[str, int], contract: Contract, declarer: str,
              lead: str) -> Position:
    deck = rules.deck
    trump = None if contract.trump is None else deck.suit_index(contract.trump)
    return Position(
        hands=tuple(hands.get(s, 0) for s in rules.seats),
        suit_masks=tuple(deck.suit_mask(i) for i in range(len(deck.suits))),
        trump=trump,
        must_trump=rules.must_trump,
        leader=rules.seats.index(lead),
        played=(),
        declarer_side=tuple(s == declarer for s in rules.seats),
        maximize=contract.kind == TRICKS,
        heuristics=rules.heuristics,
    )


def _mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def _check_disjoint(*groups: tuple[str, Sequence[Card]]) -> None:
    seen: dict[Card, str] = {}
    for name, cards in groups:
        for card in cards:
            if card in seen:
                raise LayoutError(f"card {card.code!r} is in both {seen[card]} and {name}", card.code)
            seen[card] = name



#: Significant digits of the probabilities (and other ratios) in JSON: beyond them a float only
#: carries rounding noise (1 - 0.9 = 0.09999999999999998).
JSON_DIGITS = 10


def tidy_json(value):
    """``value`` with every float rounded to :data:`JSON_DIGITS` significant digits (NaN, e.g.
    a probability over no layouts, becomes None: JSON has no NaN); dicts and lists recursively.

    >>> tidy_json({"p": 1 - 0.9, "interval": [0.1 + 0.2, float("nan")], "splits": 7})
    {'p': 0.1, 'interval': [0.3, None], 'splits': 7}
    """
    if isinstance(value, float):
        return None if math.isnan(value) else float(f"{value:.{JSON_DIGITS}g}")
    if isinstance(value, dict):
        return {key: tidy_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [tidy_json(item) for item in value]
    return value


def run_seed(seed: int | None) -> int:
    """The seed a sampled run uses: the one given, or a fresh one drawn (and then reported, so
    that the run can be repeated with ``--seed``)."""
    return seed if seed is not None else random.SystemRandom().randrange(1_000_000)


def symmetry_note(tally) -> str:
    """How many layouts an exact enumeration solved: fewer when interchangeable suits let one
    split stand for several, else every split (no symmetry applied)."""
    if tally.solves < tally.splits:
        return (f"{tally.solves:,} distinct layouts solved, the others the same up to "
                "interchangeable suits")
    return "each solved: no interchangeable suits"

@dataclass
class TrickOdds(HtmlView):
    """A distribution of the declarer's tricks over unseen layouts, with what it means."""

    contract: Contract
    declarer: str
    lead: str
    tally: Tally
    #: Whose view: "declarer" or the whister's seat.
    view: str
    #: The seed of a sampled run (the one drawn when none was given), None when exact.
    seed: int | None = None

    @property
    def histogram(self) -> list[int]:
        """Element k: the (weighted) number of layouts in which the declarer takes exactly k tricks."""
        return self.tally.histogram

    @property
    def tricks(self) -> int:
        return len(self.histogram) - 1

    @property
    def interrupted(self) -> bool:
        return self.tally.interrupted

    @property
    def p_make(self) -> float | None:
        if self.contract.kind != TRICKS:
            return None
        return self.tally.probability(lambda k: k >= self.contract.level)

    @property
    def p_whist_obligation_met(self) -> float | None:
        if self.contract.kind != TRICKS:
            return None
        owed = whist_obligation(self.contract.level)
        return self.tally.probability(lambda k: self.tricks - k >= owed)

    @property
    def p_caught(self) -> float | None:
        if not self.contract.is_misere:
            return None
        return self.tally.probability(lambda k: k >= 1)

    @property
    def expected_tricks(self) -> float:
        return self.tally.expected()

    def interval(self, predicate) -> tuple[float, float]:
        return self.tally.confidence(predicate)

    def headline(self) -> list[str]:
        t = self.tally
        if t.exact:
            how = f"exact over all {t.total:,} splits ({symmetry_note(t)})"
        elif t.enumeration:
            stopped = "interrupted" if t.interrupted else "stopped"
            how = (f"{stopped} after {t.splits:,} of {t.total:,} splits (an enumeration in order, "
                   "not a sample: only bounds are proven)")
        else:
            how = f"Monte Carlo over {t.splits:,} random layouts (seed {self.seed})"
            if t.partial:
                how += f" (interrupted: {t.splits:,} of the {t.total:,} samples asked for)"
        lines = [f"{self.contract} by {self.declarer}, {self.lead} leads: {how}, {t.seconds:.1f} s."]

        def share(what: str, predicate) -> str:
            if t.exact:
                return f"{what}: {100 * t.probability(predicate):.2f}%."
            if t.enumeration:
                low, high = t.bounds(predicate)
                return f"{what} in between {100 * low:.1f}% and {100 * high:.1f}% of all splits."
            low, high = t.confidence(predicate)
            return (f"{what}: {100 * t.probability(predicate):.2f}% "
                    f"(95% interval {100 * low:.1f}-{100 * high:.1f}%).")

        def mean(what: str) -> str:
            if t.exact or not t.enumeration:
                return f"{what}: {self.expected_tricks:.3f}."
            low, high = t.expected_bounds()
            return f"{what}: between {low:.3f} and {high:.3f}."

        if self.contract.kind == TRICKS:
            level, owed = self.contract.level, whist_obligation(self.contract.level)
            lines.append(share("The contract makes", lambda k: k >= level))
            lines.append(share(f"The whisters meet their obligation of {owed}",
                               lambda k: self.tricks - k >= owed))
            lines.append(mean("Expected declarer's tricks"))
        else:
            lines.append(share("The misère is caught", lambda k: k >= 1))
            lines.append(mean("Expected tricks forced on the declarer"))
        if t.partial and t.enumeration:
            lines.append("The distribution below covers the splits solved only.")
        return lines

    def format(self, style: str = "symbols") -> str:
        label = "tricks forced" if self.contract.is_misere else "declarer's tricks"
        return "\n".join(self.headline() + [""] + text_histogram(self.histogram, label))

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        """``exact`` only for a complete enumeration. A partial enumeration gives proven
        ``*_bounds`` over all splits (its point values are null); a sample gives
        ``*_interval`` (95%), partial or not."""
        t = self.tally
        out = {
            "view": self.view,
            "contract": self.contract.code,
            "declarer": self.declarer,
            "lead": self.lead,
            "method": t.method,
            "exact": t.exact,
            "partial": t.partial,
            "interrupted": t.interrupted,
            "splits": t.splits,
            "total": t.total,
            "solves": t.solves,
            "histogram": t.histogram,
            "expected_tricks": self.expected_tricks,
            "seconds": round(t.seconds, 3),
            "nodes": t.nodes,
            "seed": self.seed,
        }
        if self.contract.kind == TRICKS:
            level, owed = self.contract.level, whist_obligation(self.contract.level)
            measures = {"p_make": lambda k: k >= level,
                        "p_whist_obligation_met": lambda k: self.tricks - k >= owed}
        else:
            measures = {"p_caught": lambda k: k >= 1}
        for key, predicate in measures.items():
            out[key] = t.probability(predicate)
        if t.enumeration and t.partial:
            for key, predicate in measures.items():
                out[key] = None
                out[f"{key}_bounds"] = list(t.bounds(predicate))
            out["expected_tricks"] = None
            out["expected_tricks_bounds"] = list(t.expected_bounds())
        elif not t.enumeration:
            for key, predicate in measures.items():
                out[f"{key}_interval"] = list(t.confidence(predicate))
        return tidy_json(out)


def text_histogram(histogram: Sequence[int], label: str, width: int = 40) -> list[str]:
    """Rows ``tricks  count  share  bar`` for the values that occur (and those between)."""
    total = sum(histogram) or 1
    used = [k for k, n in enumerate(histogram) if n]
    if not used:
        return ["(no layouts)"]
    top = max(histogram)
    rows = [f"{label:>18}  {'layouts':>10}  {'share':>7}"]
    for k in range(used[0], used[-1] + 1):
        n = histogram[k]
        bar = "█" * max(1 if n else 0, round(width * n / top))
        rows.append(f"{k:>18}  {n:>10,}  {100 * n / total:>6.2f}%  {bar}")
    return rows


def plot_histogram(odds: TrickOdds, path: str) -> None:
    """Draw the distribution to a PNG file (needs matplotlib: ``pip install '.[plot]'``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LayoutError("--plot needs matplotlib: pip install 'pref-solver[plot]'", "--plot") from None
    total = sum(odds.histogram) or 1
    xs = list(range(len(odds.histogram)))
    figure, axes = plt.subplots(figsize=(7, 4))
    if odds.contract.is_misere:
        good, summary = (lambda k: k == 0), f"caught {100 * odds.p_caught:.1f}%"
    else:
        good, summary = (lambda k: k >= odds.contract.level), f"makes {100 * odds.p_make:.1f}%"
    tally = odds.tally
    if tally.enumeration and tally.partial:  # only bounds are proven
        low, high = tally.bounds((lambda k: k >= 1) if odds.contract.is_misere else good)
        summary = f"{summary.split()[0]} {100 * low:.1f}-{100 * high:.1f}% of all splits"
    colours = ["#3b8a4a" if good(k) else "#b5473a" for k in xs]
    axes.bar(xs, [100 * n / total for n in odds.histogram], color=colours)
    axes.set_xticks(xs)
    axes.set_xlabel("tricks forced on the declarer" if odds.contract.is_misere else "declarer's tricks")
    axes.set_ylabel("share of layouts (%)")
    what = ("exact" if tally.exact else f"{tally.splits:,} samples" if not tally.enumeration
            else f"partial: {tally.splits:,} of {tally.total:,} splits")
    axes.set_title(f"{odds.contract} by {odds.declarer}, {odds.lead} leads ({what}): {summary}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def declarer_view(hand: Hand, declarer: str, discard: Sequence[Card], contract: Contract, lead: str,
                  rules: Rules = PREFERANS_RULES, engine: str = "fast", threads: int = 2,
                  samples: int | None = None, seed: int | None = None,
                  progress: Progress | None = None, stop_when=None, backends=None) -> TrickOdds:
    """The declarer's tricks over every split of the defenders' cards (exact unless ``samples``)."""
    rules.seat(declarer)
    rules.seat(lead)
    if contract.is_allpass:
        raise LayoutError("the declarer's view needs a trick contract or misère", "allpass")
    if len(hand) != rules.hand_size:
        raise LayoutError(f"the declarer's hand must have {rules.hand_size} cards, not {len(hand)}",
                          "--hand")
    if len(discard) != rules.discard_size:
        raise LayoutError(f"the discard must have {rules.discard_size} cards, not {len(discard)}",
                          "--discard")
    _check_disjoint(("the hand", list(hand)), ("the discard", list(discard)))
    unknown = _mask(rules.deck) & ~hand.mask & ~_mask(discard)
    template = _template(rules, {declarer: hand.mask}, contract, declarer, lead)
    defenders = tuple(i for i, s in enumerate(rules.seats) if s != declarer)
    size = rules.hand_size
    seed = None if samples is None else run_seed(seed)
    tally = solve_splits(template, defenders, (size, size), unknown, engine=engine, threads=threads,
                         samples=samples, seed=seed, progress=progress, stop_when=stop_when,
                         backends=backends)
    return TrickOdds(contract, declarer, lead, tally, "declarer", seed)


def whister_view(hand: Hand, seat: str, declarer: str, contract: Contract, lead: str,
                 known: Sequence[Card] = (), rules: Rules = PREFERANS_RULES, engine: str = "fast",
                 threads: int = 2, samples: int | None = None, seed: int | None = None,
                 progress: Progress | None = None) -> TrickOdds:
    """The declarer's (hence the defenders') tricks over every layout consistent with one
    defender's hand and the declarer's ``known`` cards; his two discards are unseen."""
    rules.seat(seat)
    rules.seat(declarer)
    rules.seat(lead)
    if seat == declarer:
        raise LayoutError("the whister's view is for a defender: --hand names the declarer", seat)
    if contract.kind != TRICKS:
        raise LayoutError("the whister's view needs a trick contract", contract.code)
    if len(hand) != rules.hand_size:
        raise LayoutError(f"the whister's hand must have {rules.hand_size} cards, not {len(hand)}",
                          "--hand")
    _check_disjoint(("the hand", list(hand)), ("the declarer's known cards", list(known)))
    if len(known) > rules.hand_size:
        raise LayoutError("more known declarer cards than a hand holds", "--known")
    partner = next(s for s in rules.seats if s not in (seat, declarer))
    unknown = _mask(rules.deck) & ~hand.mask & ~_mask(known)
    template = _template(rules, {seat: hand.mask, declarer: _mask(known)}, contract, declarer, lead)
    seats = (rules.seats.index(declarer), rules.seats.index(partner))
    sizes = (rules.hand_size - len(known), rules.hand_size)
    if samples is None and count_splits(unknown, sizes) > EXACT_LIMIT:
        samples = 5000
    seed = None if samples is None else run_seed(seed)
    tally = solve_splits(template, seats, sizes, unknown, engine=engine, threads=threads,
                         samples=samples, seed=seed, progress=progress)
    return TrickOdds(contract, declarer, lead, tally, seat, seed)


@dataclass
class DiscardChoice:
    """One discard with one contract: its odds of making."""

    discard: tuple[Card, ...]
    contract: Contract
    odds: TrickOdds

    @property
    def p_make(self) -> float:
        return self.odds.p_make if self.contract.kind == TRICKS else 1 - self.odds.p_caught

    def bounds(self) -> tuple[float, float]:
        """Proven bounds on the share of all splits in which it makes (a point when complete)."""
        tally = self.odds.tally
        if self.contract.kind == TRICKS:
            return tally.bounds(lambda k: k >= self.contract.level)
        return tally.bounds(lambda k: k == 0)


@dataclass
class DiscardRanking(HtmlView):
    """The best discards and contracts for a twelve-card hand."""

    twelve: list[Card]
    declarer: str
    lead: str
    #: Screening: each (discard, denomination) on the same random splits.
    screened: list[DiscardChoice]
    #: The best few, solved exactly over every split (when interrupted, the last may be partial).
    exact: list[DiscardChoice]
    level: int
    #: Stopped by Ctrl-C while the finalists were enumerated.
    interrupted: bool = False
    #: Finalists chosen for the exact enumeration (``exact`` holds those begun).
    finalists: int = 0

    def format(self, style: str = "symbols") -> str:
        twelve = " ".join(format_card(c, style) for c in sorted(
            self.twelve, key=lambda c: (c.suit_number, -c.rank_number)))
        out = [f"{self.declarer}'s twelve cards: {twelve}; {self.lead} leads.", ""]
        screening = self.screened[0].odds.tally.splits if self.screened else 0
        out.append(f"Screening: every discard and trump on the same {screening:,} random splits; "
                   f"highest level with a discard making at least half the time: {self.level}.")
        out.append("Top candidates, solved exactly over all splits:")
        if self.interrupted:
            done = sum(c.odds.tally.exact for c in self.exact)
            out.append(f"PARTIAL (interrupted): {done} of {self.finalists} candidates solved completely; "
                       "a candidate cut short shows what is proven over all splits (bounds).")
        out.append(f"  {'discard':<10} {'contract':<9} {'P(make)':>8} {'E[tricks]':>10}")
        for choice in self.exact:
            discard = " ".join(format_card(c, style) for c in choice.discard)
            tally = choice.odds.tally
            if tally.exact:
                chance, mean = f"{100 * choice.p_make:.2f}%", f"{choice.odds.expected_tricks:.3f}"
            else:
                low, high = choice.bounds()
                e_low, e_high = tally.expected_bounds()
                chance, mean = f"{100 * low:.1f}-{100 * high:.1f}%", f"{e_low:.2f}-{e_high:.2f}"
            out.append(f"  {discard:<10} {str(choice.contract):<9} {chance:>8} {mean:>10}")
            if not tally.exact:
                out.append(f"  {'':<10} (interrupted after {tally.splits:,} of {tally.total:,} splits)")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        def row(choice: DiscardChoice) -> dict:
            tally = choice.odds.tally
            data = {"discard": [c.code for c in choice.discard], "contract": choice.contract.code,
                    "method": tally.method, "exact": tally.exact, "partial": tally.partial,
                    "p_make": choice.p_make, "expected_tricks": choice.odds.expected_tricks,
                    "histogram": choice.odds.histogram, "splits": tally.splits, "total": tally.total}
            if tally.enumeration and tally.partial:
                data.update(p_make=None, p_make_bounds=list(choice.bounds()), expected_tricks=None,
                            expected_tricks_bounds=list(tally.expected_bounds()))
            return data

        complete = [c for c in self.exact if c.odds.tally.exact]
        return tidy_json({"twelve": [c.code for c in self.twelve], "declarer": self.declarer,
                          "lead": self.lead, "level": self.level,
                          "partial": self.interrupted, "interrupted": self.interrupted,
                          "finalists": self.finalists,
                          "best": row(complete[0]) if complete else None,
                          "exact": [row(c) for c in self.exact],
                          "screened": [row(c) for c in self.screened[:20]]})


def rank_discards(twelve: Sequence[Card], declarer: str, lead: str, contract: Contract | None = None,
                  rules: Rules = PREFERANS_RULES, engine: str = "fast", threads: int = 2,
                  screen_samples: int = 400, finalists: int = 3, seed: int | None = 0,
                  progress: Progress | None = None, backends=None) -> DiscardRanking:
    """Rank the discards (and trump choices) of a twelve-card hand by the probability of making.

    Every discard class and denomination (or only ``contract``'s) is screened
    on the same ``screen_samples`` random splits; the contract level is the
    highest that some choice makes at least half the time (or ``contract``'s);
    the ``finalists`` best choices at that level are then solved exactly. ``backends``: the
    engines to use, one per thread (by default new ones).
    """
    twelve = list(twelve)
    if len(twelve) != rules.hand_size + rules.discard_size:
        raise LayoutError(f"a hand with the talon has {rules.hand_size + rules.discard_size} cards, "
                          f"not {len(twelve)}", "--hand")
    outside = _mask(rules.deck) & ~_mask(twelve)
    classes = discard_classes(twelve, outside)
    if contract is not None:
        denominations = [contract.trump.letter if contract.trump else "n"] if contract.kind == TRICKS else [None]
    else:
        denominations = list(DENOMINATIONS)

    def contract_for(denomination: str | None, level: int) -> Contract:
        if denomination is None:
            return Contract("misere")
        return Contract.parse(f"{level}{denomination}", rules)

    from pyanalyzer.engines.registry import make_backends

    if backends is None:  # shared by every enumeration below
        backends = make_backends(engine, threads)
    screened: list[DiscardChoice] = []
    staged = progress is not None and hasattr(progress, "stage")
    if staged:
        progress.stage(f"screening on {screen_samples} random splits", unit="discard and trump choices")
    for denomination in denominations:
        for discard in classes:
            if staged:
                progress(len(screened), len(denominations) * len(classes))
            hand = Hand([c for c in twelve if c not in discard], rules.deck)
            trial = contract_for(denomination, rules.contract_levels[0])
            odds = declarer_view(hand, declarer, discard, trial, lead, rules, engine, threads,
                                 samples=screen_samples, seed=seed, backends=backends)
            if odds.tally.interrupted:  # nothing is ranked yet: nothing to keep
                raise KeyboardInterrupt
            screened.append(DiscardChoice(discard, trial, odds))

    def chance(choice: DiscardChoice, level: int) -> float:
        if choice.contract.is_misere:
            return 1 - choice.odds.p_caught
        return choice.odds.tally.probability(lambda k: k >= level)

    if contract is not None:
        level = contract.level or 0
    else:
        levels = [lv for lv in rules.contract_levels if any(chance(c, lv) >= 0.5 for c in screened)]
        level = max(levels) if levels else rules.contract_levels[0]
    for choice in screened:
        choice.contract = contract_for(None if choice.contract.is_misere else
                                       (choice.contract.trump.letter if choice.contract.trump else "n"),
                                       level)
        choice.odds.contract = choice.contract
    screened.sort(key=lambda c: (-chance(c, level), -c.odds.expected_tricks))
    exact = []
    chosen = screened[:finalists]
    interrupted = False
    for number, choice in enumerate(chosen, start=1):
        try:
            if staged:
                progress.stage("exact candidate", number, len(chosen))
            hand = Hand([c for c in twelve if c not in choice.discard], rules.deck)
            odds = declarer_view(hand, declarer, choice.discard, choice.contract, lead, rules, engine, threads,
                                 progress=progress, backends=backends)
        except KeyboardInterrupt:  # between two enumerations: the candidates finished stand
            interrupted = True
            break
        exact.append(DiscardChoice(choice.discard, choice.contract, odds))
        if odds.tally.interrupted:  # keep what is finished; the rest is not started
            interrupted = True
            break
    # Complete enumerations first, best first; a partial one (bounds only) after them.
    exact.sort(key=lambda c: (not c.odds.tally.exact, -c.p_make, -c.odds.expected_tricks))
    return DiscardRanking(twelve, declarer, lead, screened, exact, level, interrupted, len(chosen))


@dataclass
class TalonEstimate(HtmlView):
    """Monte Carlo estimate of making a contract before seeing the talon."""

    hand: Hand
    declarer: str
    contract: Contract
    lead: str
    samples: int
    made: int
    seed: int
    #: Stopped by Ctrl-C: a smaller sample than asked for (its interval says how much smaller).
    partial: bool = False
    #: Samples asked for.
    asked: int = 0

    @property
    def interrupted(self) -> bool:
        return self.partial

    @property
    def p_make(self) -> float:
        return self.made / self.samples if self.samples else float("nan")

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        n, p = self.samples, self.p_make
        if not n:
            return float("nan"), float("nan")
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def format(self, style: str = "symbols") -> str:
        low, high = self.interval()
        what = "is caught" if self.contract.is_misere else "makes"
        p = 1 - self.p_make if self.contract.is_misere else self.p_make
        lo, hi = (1 - high, 1 - low) if self.contract.is_misere else (low, high)
        partial = f" PARTIAL (interrupted after {self.samples} of {self.asked} samples)" if self.partial else ""
        return (f"{self.contract} by {self.declarer} before the talon, {self.lead} leads{partial}: "
                f"it {what} in {100 * p:.1f}% of {self.samples} sampled deals "
                f"(95% interval {100 * lo:.1f}-{100 * hi:.1f}%; seed {self.seed}).\n"
                "Each sample deals a random talon and split; the declarer picks his discard by its "
                "odds on a few other random splits, then plays it on the sampled split.")

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        key = "p_caught" if self.contract.is_misere else "p_make"
        p = 1 - self.p_make if self.contract.is_misere else self.p_make
        low, high = self.interval()
        interval = [1 - high, 1 - low] if self.contract.is_misere else [low, high]
        return tidy_json({"view": "before_talon", "contract": self.contract.code,
                          "declarer": self.declarer, "lead": self.lead, "samples": self.samples,
                          key: p, f"{key}_interval": interval, "seed": self.seed, "method": "sample",
                          "exact": False, "partial": self.partial, "interrupted": self.partial,
                          "samples_asked": self.asked})


@dataclass(frozen=True)
class TalonSample:
    """The work on one sampled deal before the talon (picklable: a cluster worker runs it):
    the declarer picks his discard by its odds on the trial splits, then plays it on the
    sampled split; True when the contract succeeds."""

    rules: Rules
    declarer: str
    contract: Contract
    lead: str
    hand: tuple[Card, ...]

    def succeeds(self, tricks: int) -> bool:
        return tricks == 0 if self.contract.is_misere else tricks >= self.contract.level

    def value(self, backend, keep: list[Card], split: tuple[int, int]) -> int:
        rules = self.rules
        hands = {self.declarer: _mask(keep)}
        defenders = [seat for seat in rules.seats if seat != self.declarer]
        for seat, mask in zip(defenders, split):
            hands[seat] = mask
        return backend.solve(_template(rules, hands, self.contract, self.declarer, self.lead))

    def __call__(self, backend, sample) -> bool:
        talon, outside, trial_splits, split = sample
        twelve = list(self.hand) + list(talon)
        best, best_score = None, -1
        for discard in discard_classes(twelve, outside):
            keep = [c for c in twelve if c not in discard]
            score = sum(self.succeeds(self.value(backend, keep, s)) for s in trial_splits)
            if score > best_score:
                best, best_score = keep, score
        return self.succeeds(self.value(backend, best, split))


def talon_samples(hand: Hand, rules: Rules, samples: int, choice_samples: int,
                  rng: random.Random) -> Iterator[tuple]:
    """The random draws of :func:`before_talon`, in order, made here (not where they are solved):
    the numbers are the same whoever solves them. Each: the talon, the cards outside the
    declarer's twelve, the trial splits and the split played."""
    others = [c for c in rules.deck if c not in hand]
    size = rules.hand_size

    def deal(unknown: list[Card]) -> tuple[int, int]:
        cards = unknown[:]
        rng.shuffle(cards)
        return _mask(cards[:size]), _mask(cards[size:2 * size])

    for _ in range(samples):
        talon = rng.sample(others, rules.talon_size)
        unknown = [c for c in others if c not in talon]
        trial_splits = [deal(unknown) for _ in range(choice_samples)]
        yield tuple(talon), _mask(unknown), trial_splits, deal(unknown)


def before_talon(hand: Hand, declarer: str, contract: Contract, lead: str,
                 rules: Rules = PREFERANS_RULES, engine: str = "fast", samples: int = 200,
                 choice_samples: int = 12, seed: int | None = None,
                 progress: Progress | None = None) -> TalonEstimate:
    """Monte Carlo odds of a contract from ten cards, before the talon is seen.

    The samples are drawn here from ``seed`` and solved on one engine, or on the workers
    of the cluster in use (:func:`pyanalyzer.engines.executor.use_cluster`): the same
    numbers either way. Ctrl-C keeps the samples finished (a smaller sample, marked partial)."""
    from pyanalyzer.engines.registry import WarmEngine, make_backend

    if len(hand) != rules.hand_size:
        raise LayoutError(f"the hand must have {rules.hand_size} cards, not {len(hand)}", "--hand")
    seed = run_seed(seed)
    rng = random.Random(seed)
    work = TalonSample(rules, declarer, contract, lead, tuple(hand))
    made = done = 0

    def tick() -> None:
        progress(done, samples)

    executor = Executor(states=[make_backend(engine)], remote=WarmEngine(engine))
    run = executor.map(work, talon_samples(hand, rules, samples, choice_samples, rng), ordered=False,
                       tick=tick if progress else None)
    with run:
        for success in run:
            made += success
            done += 1
    if progress:
        progress(done, samples)
    return TalonEstimate(hand, declarer, contract, lead, done, made, seed, run.interrupted or done < samples,
                         samples)
