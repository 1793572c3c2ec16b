"""``exchange``: the declarer's exchange with open cards, every way of giving the two cards.

The declarer of a Thousand deal holds seven cards and takes the three of the talon; he then
gives one card face down to each opponent (10 x 9 = 90 ways) and plays the eight he keeps.
With every hand open, each give is solved double dummy from the first lead: his points for
the whole deal (card points of his tricks plus the marriages he declares), and the highest
bid those points make (bids go in fives from 100). The bidding rule (docs/rules.md, "Thousand": above 120
only with a marriage in hand, never above 120 plus the marriages he holds) is applied to his
seven cards, when he bid: a higher bid is reached only by raising after the exchange (the
points he makes never exceed 120 plus the marriages he keeps).

The functions take endings too (fewer cards in every hand, the talon still three cards), so
that the tests can check them against the reference minimax.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("game=thousand declarer=S lead=S talon=Kh,Qh,9c "
...     "S=As,Ah W=Ts,Tc E=Ac,Ad")
>>> ranking = rank_exchange(layout, engine="reference")
>>> len(ranking.gives), ranking.best.points, ranking.highest_bid, ranking.bidding_limit
(20, 171, 170, 120)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pyanalyzer.engines.executor import Executor
from pyanalyzer.engines.registry import DEFAULT_TT_MB, WarmEngine, make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import POINTS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import Rules
from pyanalyzer.render.html import HtmlView


def cards_mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def marriages_held(rules: Rules, cards) -> int:
    """The points of the declarations whose cards are all among ``cards`` (Thousand: the
    marriages, and the four aces when that option is on)."""
    mask = cards_mask(cards)
    return sum(points for needed, points in rules.declarations() if needed & ~mask == 0)


def bid_limit(rules: Rules, cards) -> int:
    """The highest bid the bidding rule allows a player holding ``cards``: the limit without a
    marriage (120) plus the marriages he holds (docs/rules.md, "Thousand")."""
    return rules.bid_levels(marriages_held(rules, cards))[-1]


def highest_bid(rules: Rules, points: int) -> int | None:
    """The highest bid ``points`` make (a bid is made when the points reach it), or None when
    they make not even the lowest bid.

    >>> from pyanalyzer.model.rules import THOUSAND_RULES
    >>> highest_bid(THOUSAND_RULES, 133), highest_bid(THOUSAND_RULES, 95)
    (130, None)
    """
    made = [level for level in rules.bid_levels() if level <= points]
    return made[-1] if made else None


def sort_cards(cards) -> list[Card]:
    return sorted(cards, key=lambda c: c.display_key)


def cards_text(cards, style: str = "symbols") -> str:
    return " ".join(format_card(c, style) for c in sort_cards(cards))


def engine_list(engine, threads: int = 1, tt_mb: int = DEFAULT_TT_MB) -> list:
    """Engines to run on: ``threads`` new ones for an engine name, else the engine(s) given."""
    if isinstance(engine, str):
        if engine == "fast":
            return [make_backend(engine, tt_mb) for _ in range(max(1, threads))]
        return [make_backend(engine) for _ in range(max(1, threads))]
    return list(engine) if isinstance(engine, (list, tuple)) else [engine]


def deal_position(rules: Rules, declarer: str, hands: Mapping[str, Sequence[Card]],
                  bid: int | None = None, gave: Mapping[str, Card] | None = None) -> Position:
    """The engines' position of a deal (or an ending) from its first lead, the declarer on lead."""
    layout = Layout({seat: Hand(cards, rules.deck) for seat, cards in hands.items()},
                    Contract(POINTS, bid), declarer, declarer, rules=rules, gave=dict(gave or {}))
    return layout.position()


@dataclass(frozen=True)
class Give:
    """One way to give the cards away, with the declarer's points for the deal (open cards)."""

    #: The card given to each opponent, by seat.
    given: Mapping[str, Card]
    #: The cards the declarer keeps and plays.
    kept: tuple[Card, ...]
    #: The declarer's points for the whole deal with best play by all.
    points: int
    #: The highest bid those points make (None: not even the lowest).
    highest_bid: int | None
    #: The highest bid the bidding rule allows with the cards kept (a raise after the exchange).
    raise_limit: int

    def makes(self, bid: int) -> bool:
        return self.points >= bid

    def to_dict(self) -> dict:
        return {"gave": {seat: card.code for seat, card in self.given.items()},
                "kept": [c.code for c in sort_cards(self.kept)], "points": self.points,
                "highest_bid": self.highest_bid, "raise_limit": self.raise_limit}


@dataclass
class ExchangeRanking(HtmlView):
    """Every give of an exchange, best first (most points; card order on a tie)."""

    rules: Rules
    declarer: str
    hand: tuple[Card, ...]
    talon: tuple[Card, ...]
    #: The opponents' hands before the exchange, by seat.
    opponents: Mapping[str, tuple[Card, ...]]
    gives: list[Give]
    bid: int | None
    seconds: float
    nodes: int
    engine: str

    @property
    def best(self) -> Give:
        return self.gives[0]

    @property
    def highest_bid(self) -> int | None:
        """The highest bid some give makes."""
        return self.best.highest_bid

    @property
    def bidding_limit(self) -> int:
        """The highest bid the bidding rule allowed with his hand before the talon."""
        return bid_limit(self.rules, self.hand)

    @property
    def highest_bid_allowed(self) -> bool | None:
        """Whether the bidding rule let him bid the highest bid made before the talon (None: no
        bid is made); above it only a raise after the exchange reaches it."""
        return None if self.highest_bid is None else self.highest_bid <= self.bidding_limit

    def gives_making(self, bid: int) -> list[Give]:
        return [give for give in self.gives if give.makes(bid)]

    def summary(self) -> list[str]:
        rules, best = self.rules, self.best
        name = rules.seat_name(self.declarer)
        ways = len(self.gives)
        lines = [f"{name} holds {cards_text(self.hand)} and takes the talon {cards_text(self.talon)}; "
                 f"{ways} ways to give one card to each opponent, each solved with open cards "
                 f"(double dummy, the whole deal from {name}'s first lead)."]
        to = ", ".join(f"{format_card(card)} to {seat}" for seat, card in best.given.items())
        text = f"Best: give {to}: {best.points} points"
        if best.highest_bid is None:
            low = rules.bid_levels()[0]
            lines.append(text + f", not enough for the lowest bid ({low}).")
        else:
            lines.append(text + f", enough for a bid of {best.highest_bid}.")
            if not self.highest_bid_allowed:
                lines.append(f"The bidding rule forbids bidding {best.highest_bid} before the talon: with his "
                             f"{len(self.hand)} cards he may bid at most {self.bidding_limit} (above 120 only with a "
                             "marriage in hand, never above 120 plus the marriages he holds); only a raise "
                             f"after the exchange reaches it (up to {best.raise_limit} with the cards kept).")
        if self.bid is not None:
            making = self.gives_making(self.bid)
            lines.append(f"Bid {self.bid}: made by {len(making)} of the {ways} gives" + (
                "." if making else f"; the best falls short by {self.bid - best.points}."))
        return lines

    def format(self, style: str = "symbols") -> str:
        seats = list(self.opponents)
        out = self.summary() + ["", f"  {'rank':>4}  {'to ' + seats[0]:<6}{'to ' + seats[1]:<6}"
                                    f"{'points':>6}  {'bid':>4}"]
        rank = 0
        previous = None
        for number, give in enumerate(self.gives, start=1):
            if give.points != previous:
                rank, previous = number, give.points
            bid = "-" if give.highest_bid is None else str(give.highest_bid)
            cells = "".join(f"{format_card(give.given[seat], style):<6}" for seat in seats)
            out.append(f"  {rank:>4}  {cells}{give.points:>6}  {bid:>4}")
        out.append(f"[{self.engine} engine: {self.nodes:,} nodes, {self.seconds:.3f} s]")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        best = self.best
        return {"view": "exchange", "game": self.rules.game, "declarer": self.declarer,
                "hand": [c.code for c in sort_cards(self.hand)],
                "talon": [c.code for c in sort_cards(self.talon)],
                "opponents": {seat: [c.code for c in sort_cards(cards)] for seat, cards in self.opponents.items()},
                "bid": self.bid, "best": best.to_dict(), "best_points": best.points,
                "highest_bid": best.highest_bid, "bidding_limit": self.bidding_limit,
                "highest_bid_allowed": self.highest_bid_allowed,
                "made": None if self.bid is None else best.makes(self.bid),
                "gives": [give.to_dict() for give in self.gives], "engine": self.engine,
                "nodes": self.nodes, "seconds": round(self.seconds, 6)}


def every_give(ten: Sequence[Card], opponents: Sequence[str]) -> list[dict[str, Card]]:
    """Every way to give one of ``ten`` to each opponent (ordered: 10 x 9 = 90)."""
    first, second = opponents
    return [{first: a, second: b} for a in sort_cards(ten) for b in sort_cards(ten) if a != b]


def solve_gives(rules: Rules, declarer: str, ten: Sequence[Card], opponents: Mapping[str, Sequence[Card]],
                gives: Sequence[Mapping[str, Card]], backends, tt_mb: int = DEFAULT_TT_MB) -> tuple[list[int], int]:
    """The declarer's points with open cards for each give, and the nodes (see :func:`solve_deals`)."""
    deals = []
    for give in gives:
        hands = {declarer: [c for c in ten if c not in give.values()]}
        for seat, cards in opponents.items():
            hands[seat] = [*cards, give[seat]]
        deals.append(hands)
    return solve_deals(rules, declarer, deals, backends, tt_mb)


@dataclass(frozen=True)
class DealRunSolver:
    """The work on one run of consecutive deals, all from the same first lead: ``(index of its
    first deal, the values, nodes)``. Picklable (a cluster worker runs it)."""

    first: Position

    def __call__(self, backend, run: tuple[int, list[tuple[int, ...]]]) -> tuple[int, list[int], int]:
        begin, chunk = run
        before = backend.nodes
        if hasattr(backend, "solve_batch"):
            seats = len(self.first.hands)
            values = backend.solve_batch(replace(self.first, hands=chunk[0]), list(range(seats)), [0] * seats, chunk)
            if len(values) < len(chunk):  # stopped by Ctrl-C
                raise KeyboardInterrupt
        else:
            values = [backend.solve(replace(self.first, hands=hand_masks)) for hand_masks in chunk]
        return begin, values, backend.nodes - before


def solve_deals(rules: Rules, declarer: str, deals: Sequence[Mapping[str, Sequence[Card]]], backends,
                tt_mb: int = DEFAULT_TT_MB) -> tuple[list[int], int]:
    """The declarer's points with best play by all in each deal (hands by seat, all of one size),
    the declarer on lead to the first trick; and the engines' nodes.

    ``backends`` is one engine or a list of them (one thread each): the deals are cut into as
    many runs of consecutive deals, each solved in one call of the fast engine (without the GIL,
    its table kept warm). With ``--scheduler`` the runs go to the cluster's workers (engines of
    ``tt_mb``), one per worker thread. Ctrl-C raises KeyboardInterrupt once every engine has stopped."""
    backends = list(backends) if isinstance(backends, (list, tuple)) else [backends]
    seats = rules.seats
    solve_run = DealRunSolver(deal_position(rules, declarer, deals[0]))
    masks = [tuple(cards_mask(hands[seat]) for seat in seats) for hands in deals]
    executor = Executor(states=backends, remote=WarmEngine(backends[0].name, tt_mb))
    if executor.cluster is None and len(backends) == 1:
        _begin, values, nodes = solve_run(backends[0], (0, masks))
        return values, nodes
    size = -(-len(masks) // executor.workers)
    runs = [(begin, masks[begin:begin + size]) for begin in range(0, len(masks), size)]
    values: list[int | None] = [None] * len(masks)
    nodes = 0
    run = executor.map(solve_run, runs, ordered=False)
    with run:
        for begin, chunk_values, run_nodes in run:
            values[begin:begin + len(chunk_values)] = chunk_values
            nodes += run_nodes
    if run.interrupted:
        raise KeyboardInterrupt
    return values, nodes


def rank_gives(rules: Rules, declarer: str, hand: Sequence[Card], talon: Sequence[Card],
               opponents: Mapping[str, Sequence[Card]], bid: int | None = None,
               engine: str | object = "fast", threads: int = 1,
               tt_mb: int = DEFAULT_TT_MB) -> ExchangeRanking:
    """Rank every give of the exchange by the declarer's points with open cards.

    ``hand`` is the declarer's before the talon, ``opponents`` the two other hands (as many
    cards each as ``hand``: seven in a deal, fewer in an ending). ``engine``: a name (then
    ``threads`` engines of ``tt_mb`` each are made), an engine or a list of engines."""
    backends = engine_list(engine, threads, tt_mb)
    start = time.perf_counter()
    hand, talon = tuple(hand), tuple(talon)
    if len(talon) != rules.talon_size:
        raise LayoutError(f"the talon has {rules.talon_size} cards, not {len(talon)}", "talon")
    seats = [seat for seat in rules.seats if seat != declarer]
    if sorted(opponents) != sorted(seats):
        raise LayoutError(f"give the hands of {' and '.join(seats)}", "hands")
    for seat in seats:
        if len(opponents[seat]) != len(hand):
            raise LayoutError(f"before the exchange every hand has as many cards as the declarer's "
                              f"({len(hand)}), not {seat}'s {len(opponents[seat])}", seat)
    ten = hand + talon
    gives = every_give(ten, seats)
    values, nodes = solve_gives(rules, declarer, ten, {seat: tuple(opponents[seat]) for seat in seats}, gives,
                                backends, tt_mb)
    ranked = []
    for give, points in zip(gives, values, strict=True):
        kept = tuple(c for c in ten if c not in give.values())
        ranked.append(Give(give, kept, points, highest_bid(rules, points), bid_limit(rules, kept)))
    order = {card: n for n, card in enumerate(sort_cards(ten))}
    ranked.sort(key=lambda g: (-g.points, [order[g.given[seat]] for seat in seats]))
    return ExchangeRanking(rules, declarer, hand, talon, {seat: tuple(opponents[seat]) for seat in seats},
                           ranked, bid, time.perf_counter() - start, nodes, backends[0].name)


def rank_exchange(layout: Layout, engine: str | object = "fast", threads: int = 1,
                  tt_mb: int = DEFAULT_TT_MB) -> ExchangeRanking:
    """The exchange ranking of a Thousand layout written before the exchange (the declarer's
    hand without the talon, the talon in nobody's hand, nothing given)."""
    if not layout.exchange_pending:
        raise LayoutError("the exchange is not open in this layout: give the hands before it (the "
                          "declarer's without the talon) and talon=, without gave=", "talon")
    declarer = layout.declarer
    if declarer is None:
        raise LayoutError("missing declarer: name the seat that took the talon", "declarer")
    if layout.lead != declarer:
        raise LayoutError(f"the declarer leads the first trick: lead={declarer}, not {layout.lead}",
                          layout.lead)
    opponents = {seat: tuple(layout.hands[seat]) for seat in layout.rules.seats if seat != declarer}
    return rank_gives(layout.rules, declarer, tuple(layout.hands[declarer]), layout.talon, opponents,
                      layout.contract.bid, engine, threads, tt_mb)


def layout_after(layout: Layout, give: Give) -> Layout:
    """``layout`` (written before the exchange) with ``give`` made: the declarer holds the cards
    he kept, each opponent his own and the card given (``gave=``)."""
    return layout_given(layout, give.given)


def layout_given(layout: Layout, given: Mapping[str, Card]) -> Layout:
    """``layout`` (written before the exchange) after the declarer gives ``given[seat]`` to each
    opponent: he keeps the other eight of his ten cards (his hand and the talon)."""
    rules, declarer = layout.rules, layout.declarer
    kept = (set(layout.hands[declarer]) | set(layout.talon)) - set(given.values())
    hands = {declarer: Hand(kept, rules.deck)}
    for seat, card in given.items():
        hands[seat] = Hand([*layout.hands[seat], card], rules.deck)
    return replace(layout, hands=hands, gave=dict(given))


def best_exchange(layout: Layout, engine: str | object = "fast", threads: int = 1,
                  tt_mb: int = DEFAULT_TT_MB) -> tuple[Layout, ExchangeRanking]:
    """The layout with the best give made (most points with open cards; card order on a tie),
    and the ranking of every give, for a layout whose exchange is still to be made."""
    ranking = rank_exchange(layout, engine, threads, tt_mb)
    return layout_after(layout, ranking.best), ranking
