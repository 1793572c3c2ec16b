"""``odds``: the declarer's points over the layouts he cannot see (Thousand).

* **Declarer's view** (:func:`declarer_view`): the eight cards he keeps after the exchange
  and the card he gave each opponent. The other fourteen cards lie in C(14,7) = 3,432 ways,
  all equally likely; each is solved exactly (double dummy, from his first lead): the
  distribution of his points for the deal, P(make) for every bid, the expected points.
* **Best give-away** (:func:`rank_gives_by_odds`): his ten cards (hand and talon) and a bid:
  every give (90) by the probability of making the bid over all 3,432 splits.
* **Before the talon** (:func:`before_talon`): his seven cards. Monte Carlo over talons and
  splits; in each sample he chooses the exchange seeing every card (the give with the most
  points double dummy), so the estimate is optimistic: P(make) per bid with 95% intervals.

Every function takes endings as well (fewer cards in each hand, ``others`` naming the cards
the opponents hold between them), so that the tests can check them against a brute force.

>>> from pyanalyzer.model.cards import THOUSAND
>>> from pyanalyzer.model.notation import parse_cards
>>> view = declarer_view(parse_cards("As,Ts,Ah", THOUSAND), {"W": THOUSAND.card("9", "s"),
...     "E": THOUSAND.card("9", "h")}, others=parse_cards("Ac,Tc,Ad,Td", THOUSAND),
...     engine="reference", threads=1)
>>> view.tally.splits, view.expected_points
(6, 74.0)
"""

from __future__ import annotations

import functools
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pyanalyzer.analysis.splits import Progress, Tally, solve_splits
from pyanalyzer.engines.executor import Executor
from pyanalyzer.engines.registry import DEFAULT_TT_MB, WarmEngine
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.rules import THOUSAND_RULES, Rules
from pyanalyzer.preferans.odds import run_seed, symmetry_note, tidy_json
from pyanalyzer.render.html import HtmlView
from pyanalyzer.thousand.exchange import (
    bid_limit,
    cards_mask,
    cards_text,
    deal_position,
    engine_list,
    every_give,
    marriages_held,
    solve_deals,
    solve_gives,
    sort_cards,
)

#: Width of a row of the text histogram, in points.
HISTOGRAM_BIN = 10


def _opponents(rules: Rules, declarer: str) -> list[str]:
    return [seat for seat in rules.seats if seat != declarer]


def _check_distinct(groups: Sequence[tuple[str, Sequence[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for name, cards in groups:
        for card in cards:
            if card in seen:
                raise LayoutError(f"card {card.code!r} is in both {seen[card]} and {name}", card.code)
            seen[card] = name


def histogram_rows(histogram: Sequence[int], width: int = 40, bin_size: int = HISTOGRAM_BIN) -> list[str]:
    """Text rows ``points  layouts  share  bar``, the points in bins of ``bin_size``."""
    total = sum(histogram)
    used = [v for v, n in enumerate(histogram) if n]
    if not used:
        return ["(no layouts)"]
    bins = {}
    for low in range(used[0] // bin_size * bin_size, used[-1] + 1, bin_size):
        bins[low] = sum(histogram[low:low + bin_size])
    top = max(bins.values())
    rows = [f"{'points':>9}  {'layouts':>8}  {'share':>7}"]
    for low, n in bins.items():
        bar = "█" * max(1 if n else 0, round(width * n / top))
        rows.append(f"{low:>4}-{low + bin_size - 1:<4}  {n:>8,}  {100 * n / total:>6.2f}%  {bar}")
    return rows


def shown_levels(rules: Rules, tally: Tally, bid: int | None) -> list[int]:
    """The bids from the lowest up to the first one never made (and ``bid``)."""
    out = []
    for level in rules.bid_levels():
        out.append(level)
        if not tally.count(lambda v, level=level: v >= level):
            break
    if bid is not None and bid not in out:
        out.append(bid)
    return out


def text_levels(levels: list[int], always) -> tuple[list[int], int | None]:
    """The bids to show as rows in text: those below the highest bid made in every layout
    are summed up by that one (returned second, None if there is none)."""
    sure = [level for level in levels if always(level)]
    if len(sure) < 2:
        return levels, None
    return [level for level in levels if level >= sure[-1]], sure[-1]


@dataclass
class PointsOdds(HtmlView):
    """The declarer's points for the deal over the layouts he cannot see."""

    rules: Rules
    declarer: str
    kept: tuple[Card, ...]
    gave: Mapping[str, Card]
    bid: int | None
    tally: Tally
    #: The seed of a sampled run, None for an exact one.
    seed: int | None = None

    @property
    def histogram(self) -> list[int]:
        """Element v: the (weighted) number of layouts in which the declarer makes v points."""
        return self.tally.histogram

    @property
    def interrupted(self) -> bool:
        return self.tally.interrupted

    @property
    def expected_points(self) -> float:
        return self.tally.expected()

    def p_make(self, bid: int | None = None) -> float:
        """P(points >= bid) over the splits counted (exact when the tally is)."""
        level = self.bid if bid is None else bid
        if level is None:
            raise ValueError("no bid to make")
        return self.tally.probability(lambda v: v >= level)

    def levels(self) -> list[int]:
        """The bids worth showing: from the lowest up to the first one never made."""
        return shown_levels(self.rules, self.tally, self.bid)

    def _share(self, level: int) -> str:
        t = self.tally
        def predicate(v: int) -> bool:
            return v >= level

        if t.exact:
            return f"{100 * t.probability(predicate):6.2f}%"
        if t.enumeration:
            low, high = t.bounds(predicate)
            return f"{100 * low:.1f}-{100 * high:.1f}%"
        low, high = t.confidence(predicate)
        return f"{100 * t.probability(predicate):6.2f}% ({100 * low:.1f}-{100 * high:.1f}%)"

    def headline(self) -> list[str]:
        t = self.tally
        name = self.rules.seat_name(self.declarer)
        gave = ", ".join(f"{format_card(card)} to {seat}" for seat, card in self.gave.items())
        lines = [f"{name} keeps {cards_text(self.kept)} and gave {gave}."]
        if t.exact:
            how = f"Exact over all {t.total:,} ways the other cards lie ({symmetry_note(t)})"
        elif t.enumeration:
            stopped = "Interrupted" if t.interrupted else "Stopped"
            how = (f"PARTIAL: {stopped.lower()} after {t.splits:,} of {t.total:,} splits (an enumeration "
                   "in order, not a sample: only bounds over all splits are proven)")
        else:
            how = f"Monte Carlo over {t.splits:,} random layouts (seed {self.seed})"
        lines.append(f"{how}; each solved double dummy from {name}'s first lead, {t.seconds:.2f} s.")
        if t.exact or not t.enumeration:
            lines.append(f"Expected points: {self.expected_points:.1f}.")
        else:
            low, high = t.expected_bounds()
            lines.append(f"Expected points: between {low:.1f} and {high:.1f}.")
        if self.bid is not None:
            lines.append(f"Bid {self.bid} makes: {self._share(self.bid).strip()}.")
        return lines

    def format(self, style: str = "symbols") -> str:
        out = self.headline() + [""]
        t = self.tally
        rows, sure = text_levels(self.levels(), lambda level: t.count(lambda v: v < level) == 0
                                 and (t.exact or not t.enumeration))
        if sure is not None:
            out.append(f"Every bid up to {sure} makes in every " + ("split." if t.exact else "layout counted."))
        out.append("  bid   P(make)")
        for level in rows:
            out.append(f"  {level:>3}   {self._share(level)}")
        out += ["", *histogram_rows(self.histogram)]
        if self.tally.partial and self.tally.enumeration:
            out.append("The distribution covers the splits solved only.")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        """``exact`` only for a complete enumeration; a partial one gives proven ``*_bounds``
        (point values null); a sample gives 95% ``*_interval``."""
        t = self.tally
        levels = self.levels()
        out = {
            "view": "declarer", "game": self.rules.game, "declarer": self.declarer,
            "kept": [c.code for c in sort_cards(self.kept)],
            "gave": {seat: card.code for seat, card in self.gave.items()},
            "bid": self.bid, "method": t.method, "exact": t.exact,
            "partial": t.partial, "interrupted": t.interrupted, "splits": t.splits, "total": t.total,
            "solves": t.solves,
            "distribution": [[v, n] for v, n in enumerate(t.histogram) if n],
            "expected_points": self.expected_points,
            "p_make": None if self.bid is None else self.p_make(),
            "p_make_by_bid": {str(level): self.p_make(level) for level in levels},
            "seconds": round(t.seconds, 3), "nodes": t.nodes, "seed": self.seed,
        }
        if t.enumeration and t.partial:
            out["p_make"] = None
            out["p_make_by_bid"] = {str(level): None for level in levels}
            out["p_make_bounds_by_bid"] = {str(level): list(t.bounds(lambda v, level=level: v >= level))
                                           for level in levels}
            if self.bid is not None:
                out["p_make_bounds"] = list(t.bounds(lambda v: v >= self.bid))
            out["expected_points"] = None
            out["expected_points_bounds"] = list(t.expected_bounds())
        elif not t.enumeration:
            out["p_make_interval_by_bid"] = {str(level): list(t.confidence(lambda v, level=level: v >= level))
                                             for level in levels}
            if self.bid is not None:
                out["p_make_interval"] = list(t.confidence(lambda v: v >= self.bid))
        return tidy_json(out)


def declarer_view(kept: Sequence[Card], gave: Mapping[str, Card], rules: Rules = THOUSAND_RULES,
                  declarer: str = "S", bid: int | None = None, others: Sequence[Card] | None = None,
                  engine: str = "fast", threads: int = 2, tt_mb: int = DEFAULT_TT_MB,
                  samples: int | None = None, seed: int | None = None,
                  progress: Progress | None = None, stop_when: Callable[[list[int]], bool] | None = None,
                  backends=None, block: int | None = None) -> PointsOdds:
    """The declarer's points over every way the cards he cannot see lie (exact unless ``samples``).

    ``kept``: his cards after the exchange; ``gave``: the card he gave each opponent (by seat);
    ``others``: the cards the two opponents hold besides those (default: the rest of the deck;
    in an ending, the cards still in their hands). ``stop_when(histogram)`` is asked after each
    ``block`` of splits (default: a few blocks per thread) and stops the enumeration when true.
    """
    rules.seat(declarer)
    rules.check_bid(bid)
    opponents = _opponents(rules, declarer)
    kept = tuple(kept)
    if sorted(gave) != sorted(opponents):
        raise LayoutError(f"say which card went to each opponent: gave {opponents[0]}:<card>,"
                          f"{opponents[1]}:<card>", "--gave")
    if others is None:
        if len(kept) != rules.hand_size:
            raise LayoutError(f"the declarer keeps {rules.hand_size} cards after the exchange, not {len(kept)}",
                              "--hand")
        known = set(kept) | set(gave.values())
        others = [card for card in rules.deck if card not in known]
    others = tuple(others)
    _check_distinct([("the hand", kept), ("the cards given", tuple(gave.values())), ("the other cards", others)])
    size = len(kept) - 1
    if len(others) != 2 * size:
        raise LayoutError(f"the opponents hold {2 * size} cards besides those given, not {len(others)}",
                          "others")
    # The template: the first split dealt (a layout the model checks), then the unknown cards taken out.
    first = {declarer: kept, opponents[0]: (gave[opponents[0]], *others[:size]),
             opponents[1]: (gave[opponents[1]], *others[size:])}
    template = deal_position(rules, declarer, first, bid, gave)
    seats = rules.seats
    hands = list(template.hands)
    for seat in opponents:
        hands[seats.index(seat)] = gave[seat].mask
    template = replace(template, hands=tuple(hands))
    if backends is None:
        backends = engine_list(engine, threads, tt_mb)
    seed = None if samples is None else run_seed(seed)
    tally = solve_splits(template, tuple(seats.index(s) for s in opponents), (size, size), cards_mask(others),
                         engine=engine, threads=threads, samples=samples, seed=seed, progress=progress,
                         stop_when=stop_when, backends=backends, block=block, tt_size_mb=tt_mb)
    return PointsOdds(rules, declarer, kept, dict(gave), bid, tally, seed)


@dataclass
class GiveOdds:
    """One give of the ten cards with its odds of making the bid."""

    given: Mapping[str, Card]
    odds: PointsOdds
    #: Dropped early: provably no better than the best give (as many splits fail as for it).
    pruned: bool = False

    @property
    def complete(self) -> bool:
        return self.odds.tally.exact

    @property
    def dropped(self) -> bool:
        return self.pruned and not self.complete

    def bounds(self) -> tuple[float, float]:
        """Proven bounds on P(make) over all splits (a point when complete)."""
        bid = self.odds.bid
        return self.odds.tally.bounds(lambda v: v >= bid)

    def to_dict(self) -> dict:
        t = self.odds.tally
        low, high = self.bounds()
        row = {"gave": {seat: card.code for seat, card in self.given.items()},
               "kept": [c.code for c in sort_cards(self.odds.kept)], "complete": self.complete,
               "pruned": self.dropped, "interrupted": t.interrupted,
               "splits": t.splits, "total": t.total,
               "p_make": self.odds.p_make() if self.complete else None,
               "p_make_bounds": [low, high],
               "expected_points": self.odds.expected_points if self.complete else None}
        return row


@dataclass
class GiveRanking(HtmlView):
    """Every give of a ten-card hand by P(make) over all splits, best first."""

    rules: Rules
    declarer: str
    ten: tuple[Card, ...]
    bid: int
    rows: list[GiveOdds]
    #: Gives in all (90); ``rows`` holds those begun.
    gives: int
    screen_samples: int
    #: The ways the other cards lie (3,432 in a deal).
    splits: int
    seconds: float
    interrupted: bool = False
    #: Gives not enumerated at all: the best makes in every split, none can do better.
    unexamined: int = 0
    #: Gives that fail in every split without a search: the card points in play and the
    #: marriages they keep add up to less than the bid.
    hopeless: list = field(default_factory=list)

    @property
    def decided(self) -> int:
        """Gives whose place is known: enumerated to the end, dropped, not needed, or hopeless."""
        return sum(row.complete or row.dropped for row in self.rows) + self.unexamined + len(self.hopeless)

    @property
    def partial(self) -> bool:
        return self.interrupted

    @property
    def best(self) -> GiveOdds | None:
        complete = [row for row in self.rows if row.complete]
        return complete[0] if complete else None

    def format(self, style: str = "symbols") -> str:
        name = self.rules.seat_name(self.declarer)
        opponents = _opponents(self.rules, self.declarer)
        out = [f"{name}'s ten cards: {cards_text(self.ten, style)}; bid {self.bid}.",
               f"Every give ({self.gives}) over all {self.splits:,} ways the other cards lie, each solved "
               f"double dummy; gives first tried on {self.screen_samples} random splits, then enumerated "
               "best first; a give is dropped (no better) once as many splits fail for it as for the "
               f"best ({self.seconds:.1f} s)."]
        if self.interrupted:
            out.append(f"PARTIAL (interrupted): {self.decided} of {self.gives} gives decided; the others are "
                       "not shown.")
        if self.hopeless:
            out.append(f"{len(self.hopeless)} gives cannot reach {self.bid} in any split (every card point "
                       "plus the marriages they keep fall short): not searched.")
        if self.unexamined:
            out.append(f"The best makes in every split: the other {self.unexamined} gives were not enumerated "
                       "(none can do better).")
        best = self.best
        if best is None and len(self.hopeless) == self.gives:
            out.append(f"No give can make {self.bid}.")
        if best is not None:
            to = ", ".join(f"{format_card(card, style)} to {seat}" for seat, card in best.given.items())
            out.append(f"Best: give {to}: bid {self.bid} makes in {100 * best.odds.p_make():.2f}% "
                       f"(expected points {best.odds.expected_points:.1f}).")
        out += ["", f"  {'to ' + opponents[0]:<6}{'to ' + opponents[1]:<6}{'P(make)':>14}  {'E[points]':>9}"]
        for row in self.rows:
            cells = "".join(f"{format_card(row.given[seat], style):<6}" for seat in opponents)
            if row.complete:
                chance, mean = f"{100 * row.odds.p_make():.2f}%", f"{row.odds.expected_points:.1f}"
            else:
                low, high = row.bounds()
                chance = f"<= {100 * high:.1f}%" if row.dropped else f"{100 * low:.1f}-{100 * high:.1f}%"
                mean = "no better" if row.dropped else "cut short"
            out.append(f"  {cells}{chance:>14}  {mean:>9}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        best = self.best
        return tidy_json({"view": "best_give", "game": self.rules.game, "declarer": self.declarer,
                          "ten": [c.code for c in sort_cards(self.ten)], "bid": self.bid,
                          "gives": self.gives, "decided": self.decided, "unexamined": self.unexamined,
                          "hopeless": [{seat: card.code for seat, card in give.items()} for give in self.hopeless],
                          "partial": self.interrupted, "interrupted": self.interrupted,
                          "screen_samples": self.screen_samples, "splits": self.splits,
                          "seconds": round(self.seconds, 3),
                          "best": best.to_dict() if best else None,
                          "ranked": [row.to_dict() for row in self.rows]})


def rank_gives_by_odds(ten: Sequence[Card], bid: int, rules: Rules = THOUSAND_RULES, declarer: str = "S",
                       others: Sequence[Card] | None = None, engine: str = "fast", threads: int = 2,
                       tt_mb: int = DEFAULT_TT_MB, screen_samples: int = 8, seed: int = 0,
                       progress: Progress | None = None, block: int | None = None) -> GiveRanking:
    """Every give of the declarer's ten cards, ranked by P(make ``bid``) over all splits.

    Each give is first tried on the same ``screen_samples`` random splits (seed ``seed``); they
    are then enumerated exactly in that order, the engines and their tables shared by all, and
    an enumeration stops as soon as as many splits fail for its give as for the best complete
    one (it cannot be better: its bounds are kept); once the best makes in every split the rest
    are not enumerated at all (a give is checked after each ``block`` of splits). Ctrl-C keeps
    the gives decided, marked partial.
    """
    start = time.perf_counter()
    rules.check_bid(bid)
    if bid is None:
        raise LayoutError("the best give-away needs a bid, e.g. --bid 120", "--bid")
    ten = tuple(ten)
    opponents = _opponents(rules, declarer)
    if others is None:
        if len(ten) != rules.hand_size + rules.discard_size:
            raise LayoutError(f"the declarer's hand with the talon has {rules.hand_size + rules.discard_size} "
                              f"cards, not {len(ten)}", "--hand")
        others = [card for card in rules.deck if card not in ten]
    gives = every_give(ten, opponents)
    # A give can make at most every card point in play plus the marriages it keeps: below the bid
    # it fails in every split, no search needed.
    in_play = sum(rules.card_points_of(c) for c in (*ten, *others))
    hopeless = [give for give in gives
                if in_play + marriages_held(rules, [c for c in ten if c not in give.values()]) < bid]
    all_gives = len(gives)
    gives = [give for give in gives if give not in hopeless]
    backends = engine_list(engine, threads, tt_mb)
    staged = progress is not None and hasattr(progress, "stage")

    def view(give: Mapping[str, Card], **options) -> PointsOdds:
        """The declarer's view of one give, on the shared engines."""
        kept = [c for c in ten if c not in give.values()]
        return declarer_view(kept, give, rules, declarer, bid, others, engine, threads, backends=backends,
                             **options)

    # Screening: every give on the same random splits, all in one batch per engine.
    if staged:
        progress.stage(f"trying each give on {screen_samples} random splits", unit="gives")
    if progress:
        progress(0, len(gives))
    if not gives:
        return GiveRanking(rules, declarer, ten, bid, [], all_gives, screen_samples,
                           math.comb(len(others), len(ten) - 3), time.perf_counter() - start, hopeless=hopeless)
    splits = list(talon_deals((), others, 0, screen_samples, random.Random(seed), size=len(ten) - 3))
    deals = []
    for give in gives:
        kept = [c for c in ten if c not in give.values()]
        for _talon, first, second in splits:
            deals.append({declarer: kept, opponents[0]: [give[opponents[0]], *first],
                          opponents[1]: [give[opponents[1]], *second]})
    values, _nodes = solve_deals(rules, declarer, deals, backends, tt_mb)
    screened = []
    for number, give in enumerate(gives):
        mine = values[number * screen_samples:(number + 1) * screen_samples]
        screened.append((give, (-sum(v >= bid for v in mine), -sum(mine))))
    screened.sort(key=lambda pair: pair[1])

    rows: list[GiveOdds] = []
    best_fails: list[int] = []   # (the fewest splits failing for a complete give)
    interrupted = False

    def fails(histogram: list[int]) -> int:
        return sum(histogram[:bid])

    unexamined = 0
    for number, (give, _screen) in enumerate(screened, start=1):
        limit = best_fails[0] if best_fails else None
        if limit == 0:  # the best makes in every split: nothing can be better
            unexamined = len(screened) - number + 1
            break
        if staged:
            progress.stage("give", number, len(gives), may_stop_early=True, unit="splits")
        stop_when = None if limit is None else (lambda histogram, limit=limit: fails(histogram) >= limit)
        odds = view(give, progress=progress, stop_when=stop_when, block=block)
        tally = odds.tally
        if tally.interrupted:
            interrupted = True
            if tally.splits:
                rows.append(GiveOdds(give, odds, pruned=False))
            break
        row = GiveOdds(give, odds, pruned=tally.pruned)
        rows.append(row)
        if row.complete:
            failed = fails(tally.histogram)
            if not best_fails or failed < best_fails[0]:
                best_fails[:] = [failed]
    rows.sort(key=lambda r: (not r.complete, -r.bounds()[1] if not r.complete else -r.odds.p_make(),
                             -(r.odds.expected_points if r.complete else 0)))
    size = len(ten) - 3
    return GiveRanking(rules, declarer, ten, bid, rows, all_gives, screen_samples,
                       math.comb(len(others), size), time.perf_counter() - start, interrupted, unexamined,
                       hopeless)


@dataclass
class TalonOdds(HtmlView):
    """Monte Carlo odds of each bid before the talon is seen (optimistic: see the module)."""

    rules: Rules
    declarer: str
    hand: tuple[Card, ...]
    tally: Tally
    seed: int
    bid: int | None = None
    #: Samples asked for.
    asked: int = 0
    seconds: float = 0.0
    nodes: int = 0
    best_gives: list = field(default_factory=list, repr=False)

    @property
    def interrupted(self) -> bool:
        return self.tally.interrupted

    @property
    def samples(self) -> int:
        return self.tally.splits

    @property
    def bid_limit(self) -> int:
        """The highest bid the bidding rule allows with the seven cards (before the talon)."""
        return bid_limit(self.rules, self.hand)

    def p_make(self, bid: int | None = None) -> float:
        level = self.bid if bid is None else bid
        return self.tally.probability(lambda v: v >= level)

    def interval(self, bid: int | None = None) -> tuple[float, float]:
        level = self.bid if bid is None else bid
        return self.tally.confidence(lambda v: v >= level)

    def levels(self) -> list[int]:
        """The bids worth showing: from the lowest up to the first one never made."""
        return shown_levels(self.rules, self.tally, self.bid)

    def format(self, style: str = "symbols") -> str:
        name = self.rules.seat_name(self.declarer)
        partial = (f" PARTIAL (interrupted after {self.samples:,} of {self.asked:,} samples)"
                   if self.tally.partial else "")
        out = [f"{name}'s {len(self.hand)} cards before the talon: {cards_text(self.hand, style)}.{partial}",
               f"Monte Carlo over {self.samples:,} deals (seed {self.seed}): a random talon and a random split "
               "of the other cards; in each, the declarer gives away the two cards that score most with "
               "open cards, then the deal is solved double dummy.",
               "This is an optimistic estimate: it assumes he sees every card when he makes the exchange "
               "and when he plays.",
               f"Expected points: {self.tally.expected():.1f}.  ({self.seconds:.1f} s)", "",
               ]
        rows, sure = text_levels(self.levels(), lambda level: self.p_make(level) == 1)
        if sure is not None:
            out.append(f"Every bid up to {sure} makes in every sample.")
        out.append("  bid   P(make)   95% interval")
        limit = self.bid_limit
        for level in rows:
            low, high = self.interval(level)
            star = "*" if level > limit else " "
            mark = "  <- bid" if level == self.bid else ""
            out.append(f"  {level:>3}{star}  {100 * self.p_make(level):6.2f}%   "
                       f"{100 * low:5.1f}-{100 * high:5.1f}%{mark}")
        out.append(f"  * above {limit}, the most the bidding rule lets {name} bid with these {len(self.hand)} cards "
                   "(above 120 only with a marriage in hand, never above 120 plus the marriages he holds): "
                   "reached only by raising after the exchange")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        levels = self.levels()
        return tidy_json({
            "view": "before_talon", "game": self.rules.game, "declarer": self.declarer,
            "hand": [c.code for c in sort_cards(self.hand)], "bid": self.bid, "bid_limit": self.bid_limit,
            "method": "sample", "exact": False, "optimistic": True,
            "exchange": "per sample, the give with the most points with open cards",
            "samples": self.samples, "samples_asked": self.asked, "seed": self.seed,
            "partial": self.tally.partial, "interrupted": self.interrupted,
            "distribution": [[v, n] for v, n in enumerate(self.tally.histogram) if n],
            "expected_points": self.tally.expected(),
            "p_make": None if self.bid is None else self.p_make(),
            "p_make_interval": None if self.bid is None else list(self.interval()),
            "p_make_by_bid": {str(level): self.p_make(level) for level in levels},
            "p_make_interval_by_bid": {str(level): list(self.interval(level)) for level in levels},
            "seconds": round(self.seconds, 3), "nodes": self.nodes})


def talon_deals(hand: Sequence[Card], others: Sequence[Card], talon_size: int, samples: int,
                rng: random.Random, size: int | None = None):
    """``samples`` random deals of the cards the declarer cannot see: (talon, first
    opponent's cards, second's), the opponents holding ``size`` each (default: as many as he
    does)."""
    size = len(hand) if size is None else size
    pool = sort_cards(others)
    for _ in range(samples):
        cards = pool[:]
        rng.shuffle(cards)
        yield (tuple(cards[:talon_size]), tuple(cards[talon_size:talon_size + size]),
               tuple(cards[talon_size + size:talon_size + 2 * size]))


def _best_points(rules: Rules, declarer: str, hand: tuple, opponents, backend, deal) -> int:
    """The declarer's points in one sampled deal, after his best give with open cards."""
    talon, first, second = deal
    ten = hand + talon
    values, _nodes = solve_gives(rules, declarer, ten, {opponents[0]: first, opponents[1]: second},
                                 every_give(ten, opponents), backend)
    return max(values)


def before_talon(hand: Sequence[Card], rules: Rules = THOUSAND_RULES, declarer: str = "S",
                 bid: int | None = None, samples: int = 200, seed: int | None = None,
                 others: Sequence[Card] | None = None, engine: str = "fast", threads: int = 2,
                 tt_mb: int = DEFAULT_TT_MB, progress: Progress | None = None) -> TalonOdds:
    """Monte Carlo odds of every bid from the declarer's hand before the talon.

    Each sample deals a random talon and split (seeded: ``seed``, drawn and reported when
    None); the declarer's points are those of his best give with open cards. Samples run on
    ``threads`` engines; Ctrl-C keeps the samples finished, marked partial (a smaller sample).
    """
    start = time.perf_counter()
    rules.check_bid(bid)
    hand = tuple(hand)
    opponents = _opponents(rules, declarer)
    if others is None:
        if len(hand) != rules.hand_size - 1:
            raise LayoutError(f"before the talon the declarer holds {rules.hand_size - 1} cards, not {len(hand)}",
                              "--hand")
        others = [card for card in rules.deck if card not in hand]
    if len(others) != rules.talon_size + 2 * len(hand):
        raise LayoutError(f"the talon and the opponents hold {rules.talon_size + 2 * len(hand)} cards, "
                          f"not {len(others)}", "others")
    _check_distinct([("the hand", hand), ("the other cards", tuple(others))])
    seed = run_seed(seed)
    rng = random.Random(seed)
    backends = engine_list(engine, threads, tt_mb)
    start_nodes = [backend.nodes for backend in backends]
    ceiling = sum(rules.card_points_of(c) for c in (*hand, *others)) + sum(p for _m, p in rules.declarations())
    histogram = [0] * (ceiling + 1)
    stop = threading.Event()

    best_points = functools.partial(_best_points, rules, declarer, hand, opponents)
    done = 0

    def tick() -> None:
        progress(done, samples)

    deals = talon_deals(hand, others, rules.talon_size, samples, rng)
    run = Executor(states=backends, remote=WarmEngine(engine, tt_mb)).map(
        best_points, deals, ordered=False, stop=stop, tick=tick if progress else None)
    with run:
        for points in run:
            histogram[points] += 1
            done += 1
    if progress:
        progress(done, samples)
    nodes = sum(b.nodes - n for b, n in zip(backends, start_nodes, strict=True))
    seconds = time.perf_counter() - start
    tally = Tally(histogram, done, done, samples, run.interrupted or done < samples, seconds, nodes,
                  enumeration=False, interrupted=run.interrupted)
    return TalonOdds(rules, declarer, hand, tally, seed, bid, samples, seconds, nodes)


__all__ = ["PointsOdds", "GiveOdds", "GiveRanking", "TalonOdds", "declarer_view", "rank_gives_by_odds",
           "before_talon", "talon_deals", "histogram_rows"]
