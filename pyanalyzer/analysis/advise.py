"""``advise``: which card to play, knowing only what one player knows (single-dummy advice).

The advised player sees his own hand, the hands open to him (``sees``, and those the game's
rules show him: the misère defenders play open, the declarer's talon is shown, he knows his
own discard), and every card played so far. The cards he cannot see are dealt into the hands
he cannot see (their counts are known) in every way consistent with what the play showed:
a player who did not follow suit (or did not trump when he had to) holds no card of it. Each
consistent layout is equally likely.

For each of his legal cards, the position after the card is an enumeration over the unseen
cards (:func:`pyanalyzer.analysis.splits.solve_splits`: the warm block solver, suit symmetry),
giving the distribution of the declarer side's result from here on: exact when the consistent
layouts are at most ``exact_limit``, else over ``samples`` seeded random ones, with 95%
confidence intervals. Every card is judged on the same layouts (the same seed).

Averaging double-dummy values lets the player see the layout at his later decisions
("strategy fusion"): the averages flatter him. :mod:`pyanalyzer.analysis.strategy` adds, for
small endings, the exact value of his best single strategy (one card for each thing he may
have seen), and for a misère defender what one defence forces for sure.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=S S=Ac,Qc W=Kc,7d E=8d,9d")
>>> advice = advise(layout, "S", engine="reference")
>>> advice.layouts, advice.exact, str(advice.best), advice.cards[advice.best].expected
(6, True, '♣A', 2.0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from pyanalyzer.analysis.small_search import distinct_cards
from pyanalyzer.analysis.splits import (
    Progress,
    Tally,
    all_splits,
    count_splits,
    random_splits,
    solve_splits_each,
    wilson_interval,
)
from pyanalyzer.analysis.strategy import (
    deciding_together,
    misere_guarantee,
    single_strategy_values,
)
from pyanalyzer.analysis.strategy import move_gain as _gain
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.position import Position, iter_bits
from pyanalyzer.render.html import HtmlView, table_html

#: At most this many consistent layouts are all solved; more are sampled.
EXACT_LIMIT = 200_000
#: Random layouts solved when there are more than ``exact_limit``.
SAMPLES = 2000
#: The normal quantile of a 95% interval.
Z95 = 1.96
#: ``advise(strategy=...)``: the best single strategy's value for small endings within a step
#: budget, without limit, or not at all.
STRATEGY_CHOICES = ("auto", "always", "never")


@dataclass(frozen=True)
class View:
    """What the advised player knows of the cards he cannot see.

    ``piles`` are the hands he cannot see (by seat) and, last, the cards out of play he does
    not know (``None``: an unseen discard); ``known`` the cards he knows to be in each pile,
    ``sizes`` how many unknown cards each pile holds; ``allowed`` the piles a card may lie in
    (as a bit mask of pile numbers) for the cards the play or the rules restrict.
    """

    piles: tuple[str | None, ...]
    known: tuple[int, ...]
    sizes: tuple[int, ...]
    unknown: int
    allowed: dict[int, int] = field(default_factory=dict)

    @property
    def hand_piles(self) -> int:
        """The piles that are hands (the unseen discard, if any, is last)."""
        return sum(pile is not None for pile in self.piles)

    def count(self) -> int:
        """How many layouts are consistent with the view."""
        if not self.allowed:
            return count_splits(self.unknown, self.sizes)
        return _GroupCounts(self).ways(0, (0,) * len(self.piles))

    def splits(self) -> Iterator[tuple[int, ...]]:
        """Every consistent split, as one mask per pile, in lexicographic order."""
        if not self.piles:
            yield ()
            return
        if not self.allowed:
            yield from all_splits(self.unknown, self.sizes)
            return
        everywhere = (1 << len(self.piles)) - 1
        cards = list(iter_bits(self.unknown))
        allowed = {card: self.allowed.get(card, everywhere) for card in cards}
        last = len(self.piles) - 1

        def deal(pile: int, remaining: list[int], piles: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            size, here = self.sizes[pile], 1 << pile
            if pile == last:
                if len(remaining) == size and all(allowed[c] & here for c in remaining):
                    yield piles + (_mask(remaining),)
                return
            later = everywhere & ~((here << 1) - 1)
            forced = [c for c in remaining if not allowed[c] & later]
            if any(not allowed[c] & here for c in forced):
                return
            optional = [c for c in remaining if allowed[c] & here and allowed[c] & later]
            need = size - len(forced)
            if need < 0 or need > len(optional):
                return
            for chosen in combinations(optional, need):
                taken = _mask(forced) | _mask(chosen)
                yield from deal(pile + 1, [c for c in remaining if not taken >> c & 1], piles + (taken,))

        yield from deal(0, cards, ())

    def sample(self, count: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
        """``count`` independent uniformly random consistent splits."""
        if not self.allowed:
            yield from random_splits(self.unknown, self.sizes, count, rng)
            return
        counts = _GroupCounts(self)
        for _ in range(count):
            yield counts.draw(rng)


def _mask(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class _GroupCounts:
    """Counting and uniform sampling of the consistent splits: the unknown cards fall into
    groups of the same allowed piles; a split is a choice, per group, of how many of its cards
    go to each pile (a multinomial number of ways), the piles filling exactly."""

    def __init__(self, view: View) -> None:
        self.view = view
        everywhere = (1 << len(view.piles)) - 1
        groups: dict[int, list[int]] = {}
        for card in iter_bits(view.unknown):
            groups.setdefault(view.allowed.get(card, everywhere), []).append(card)
        self.groups = sorted(groups.items())
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def _shares(self, group: int, filled: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Each way to share group ``group``'s cards among its piles with room: (counts, ways)."""
        piles_mask, cards = self.groups[group]
        piles = [p for p in range(len(filled)) if piles_mask >> p & 1]

        def share(i: int, left: int, counts: list[int]) -> Iterator[list[int]]:
            if i == len(piles) - 1:
                if filled[piles[i]] + left <= self.view.sizes[piles[i]]:
                    yield counts + [left]
                return
            room = self.view.sizes[piles[i]] - filled[piles[i]]
            for k in range(min(room, left) + 1):
                yield from share(i + 1, left - k, counts + [k])

        if not piles:
            return
        for counts in share(0, len(cards), []):
            ways = math.factorial(len(cards))
            after = list(filled)
            for pile, k in zip(piles, counts):
                ways //= math.factorial(k)
                after[pile] += k
            yield tuple(after), ways

    def ways(self, group: int, filled: tuple[int, ...]) -> int:
        """Consistent ways to deal the groups from ``group`` on, the piles holding ``filled``."""
        if group == len(self.groups):
            return int(filled == self.view.sizes)
        key = (group, filled)
        if key not in self.memo:
            self.memo[key] = sum(ways * self.ways(group + 1, after) for after, ways in self._shares(group, filled))
        return self.memo[key]

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        filled = (0,) * len(self.view.piles)
        piles = [0] * len(filled)
        for group in range(len(self.groups)):
            options = [(after, ways * self.ways(group + 1, after)) for after, ways in self._shares(group, filled)]
            pick = rng.randrange(sum(weight for _, weight in options))
            after = options[-1][0]
            for option, weight in options:
                if pick < weight:
                    after = option
                    break
                pick -= weight
            cards = list(self.groups[group][1])
            rng.shuffle(cards)
            start = 0
            for pile, (old, new) in enumerate(zip(filled, after)):
                piles[pile] |= _mask(cards[start:start + new - old])
                start += new - old
            filled = after
        return tuple(piles)


def parse_seats(texts, rules, option: str = "--sees") -> tuple[str, ...]:
    """A seat list option (``--sees E``, ``--open W``; repeated, or ``E,S``): the seats, each named once."""
    seats: list[str] = []
    for text in texts:
        for part in text.replace(",", " ").split():
            seat = rules.seat(part)
            if seat in seats:
                raise LayoutError(f"{option} names {seat} twice", part)
            seats.append(seat)
    return tuple(seats)


def parse_sees(texts, rules) -> tuple[str, ...]:
    """``--sees E`` (repeated, or ``E,S``): the seats, each named once."""
    return parse_seats(texts, rules, "--sees")


def _seat_sees_by_rules(layout: Layout, seat: str, first_lead: bool) -> set[str]:
    """The hands the game's rules open to ``seat``: in misère the defenders play open (they see
    each other; the declarer sees them once they open, after his lead if he leads first)."""
    if not layout.contract.is_misere:
        return set()
    declarer = layout.declarer
    if seat != declarer:
        return {s for s in layout.defenders if s != seat}
    if first_lead and layout.to_move == declarer:
        return set()
    return set(layout.defenders)


def information(start: Layout, moves: Sequence[Move], seat: str, sees: Sequence[str] = ()) -> tuple[Layout, View]:
    """The layout after ``moves`` and what ``seat`` knows of it (see :class:`View`).

    Voids: a card that would have been illegal had its player held an unknown card shows he
    does not hold it (he did not follow suit, or did not trump when he had to)."""
    rules = start.rules
    seat = rules.seat(seat)
    seen = {rules.seat(s) for s in sees}
    moves = [m if isinstance(m, Move) else Move(m, False) for m in moves]
    if seat in seen:
        raise LayoutError(f"--sees {seat}: {seat} is the advised player; name the other hands open to him", seat)
    full_deal = start.tricks_left == rules.hand_size and not start.played
    history = []  # (trick rules, cards before in the trick, talon card, seat, card)
    layout = start
    for i, card in enumerate(start.played):
        history.append((start.trick_rules(), tuple(c.index for c in start.played[:i]),
                        _talon_card(start), start.played_by()[i], card))
    for move in moves:
        history.append((layout.trick_rules(), tuple(c.index for c in layout.played), _talon_card(layout),
                        layout.to_move, move.card))
        layout = layout.play(move)
    if not layout.tricks_left:
        raise LayoutError("the play is over: no card left to advise on", seat)
    if layout.to_move != seat:
        raise LayoutError(f"{seat} is not to move: {layout.to_move} is", seat)
    first_lead = full_deal and not moves
    visible = {seat} | seen | _seat_sees_by_rules(layout, seat, first_lead)
    piles: list[str | None] = [s for s in rules.seats if s not in visible]
    known = [0] * len(piles)
    sizes = [len(layout.hands[s]) for s in piles]
    unknown = 0
    for s in piles:
        unknown |= layout.hands[s].mask
    # Cards known to lie in a hand he cannot see: what the declarer gave there (Thousand).
    if seat == layout.declarer:
        for target, card in layout.gave.items():
            if target in piles and card in layout.hands[target]:
                number = piles.index(target)
                known[number] |= card.mask
                sizes[number] -= 1
                unknown &= ~card.mask
    discard_unseen = bool(layout.discard) and seat != layout.declarer and not rules.counts_points
    if discard_unseen:
        piles.append(None)
        known.append(0)
        sizes.append(len(layout.discard))
        for card in layout.discard:
            unknown |= card.mask
    everywhere = (1 << len(piles)) - 1
    allowed: dict[int, int] = {}

    def restrict(card: int, piles_mask: int) -> None:
        allowed[card] = allowed.get(card, everywhere) & piles_mask

    # The talon was shown: its cards are in the declarer's hand or his discard.
    if layout.talon and not layout.contract.is_allpass and not rules.counts_points and seat != layout.declarer:
        declarer_piles = sum(1 << i for i, p in enumerate(piles) if p in (layout.declarer, None))
        for card in layout.talon:
            if unknown >> card.index & 1:
                restrict(card.index, declarer_piles)
    for trick_rules, before, talon_card, player, card in history:
        if player not in piles:
            continue
        pile = piles.index(player)
        for other in iter_bits(unknown):
            if not trick_rules.legal_moves(card.mask | 1 << other, before, talon_card) >> card.index & 1:
                restrict(other, everywhere & ~(1 << pile))
    view = _settle(View(tuple(piles), tuple(known), tuple(sizes), unknown, allowed))
    return layout, view


def _talon_card(layout: Layout) -> int | None:
    return layout.talon_tricks[0].index if layout.talon_tricks else None


def _settle(view: View) -> View:
    """Cards with one possible pile become known there; unrestricted cards are left out of
    ``allowed`` (and with no restriction left, the plain enumeration applies)."""
    known, sizes, unknown = list(view.known), list(view.sizes), view.unknown
    allowed = dict(view.allowed)
    everywhere = (1 << len(view.piles)) - 1
    changed = True
    while changed:
        changed = False
        full = sum(1 << i for i, size in enumerate(sizes) if size == 0)
        for card in list(allowed):
            piles = allowed[card] & ~full
            if piles == 0:
                raise LayoutError("the play contradicts itself: a card fits in no hand", str(card))
            allowed[card] = piles
            if piles & (piles - 1) == 0:
                pile = piles.bit_length() - 1
                del allowed[card]
                unknown &= ~(1 << card)
                known[pile] |= 1 << card
                sizes[pile] -= 1
                changed = True
        if full:
            for card in iter_bits(unknown):
                if card not in allowed:
                    allowed[card] = everywhere
                    changed = True
    allowed = {card: piles for card, piles in allowed.items() if piles != everywhere}
    return View(view.piles, tuple(known), tuple(sizes), unknown, allowed)


@dataclass
class CardAdvice:
    """One legal card's result over the consistent layouts (for the declarer's side)."""

    #: Mean result from here on: tricks, or points in Thousand, of the declarer's side
    #: (in all-pass, the advised player's own tricks).
    expected: float
    #: Result (this trick included) -> probability.
    distribution: dict[int, float]
    #: 95% confidence interval of ``expected`` when sampled; None when exact.
    interval: tuple[float, float] | None
    #: How much worse than the best card for the advised player's side (0 for the best; NaN
    #: for a card whose enumeration was cut short).
    cost: float
    #: The game's verdict words with their probabilities (make/defeat, caught/clean), when the
    #: result of the deal is known from here (a full deal replayed, or Thousand's points).
    outcomes: dict[str, float] | None
    tally: Tally
    #: The mean result (as ``expected``) of the advised player's best single strategy starting
    #: with this card (:class:`pyanalyzer.analysis.strategy.BestSingleStrategy`; None: not computed).
    strategy: float | None = None

    def expected_text(self) -> str:
        """The expected value as the tables show it: ``2.150``, ``2.150 ±0.210`` when sampled (half
        the 95% interval), ``1.80..2.40`` (proven bounds) for an enumeration cut short."""
        if self.tally.enumeration and not self.tally.exact:
            low, high = self.tally.expected_bounds()
            return f"{low:.2f}..{high:.2f}"
        if self.interval is not None:
            return f"{self.expected:.3f} ±{(self.interval[1] - self.interval[0]) / 2:.3f}"
        return f"{self.expected:.3f}"

    def to_json(self) -> dict:
        """``expected``, ``distribution``, ``cost``; ``interval`` when sampled, ``outcomes`` when
        known, ``partial`` and ``expected_bounds`` for an enumeration cut short."""
        entry = {"expected": self.expected,
                 "distribution": {str(v): p for v, p in sorted(self.distribution.items())},
                 "cost": self.cost}
        if self.interval is not None:
            entry["interval"] = list(self.interval)
        if self.outcomes is not None:
            entry["outcomes"] = self.outcomes
        if self.tally.enumeration and not self.tally.exact:
            entry["partial"] = True
            entry["expected_bounds"] = list(self.tally.expected_bounds())
        return entry


@dataclass
class Advice(HtmlView):
    """The answer of :func:`advise`."""

    layout: Layout
    seat: str
    sees: tuple[str, ...]
    view: View
    #: Consistent layouts (each equally likely).
    layouts: int
    #: Layouts solved per card (after symmetry, counted with their weight).
    solved: int
    exact: bool
    cards: dict
    best: Card | Move | None
    seconds: float
    #: The seat whose result is counted (the declarer, or in all-pass the advised player).
    counted: str
    #: True when the advised player wants the counted result high.
    wants_high: bool
    seed: int | None = None
    #: Stopped by Ctrl-C: ``cards`` holds the cards finished, the one cut short marked.
    interrupted: bool = False
    #: The best single strategy's value per card (as ``CardAdvice.strategy``; None: not computed)
    #: and what was done (computed, or why not).
    strategy: dict | None = None
    strategy_note: str | None = None
    engine: str = "fast"
    #: A misère defender: each card -> the tricks one defence forces after it against every
    #: hand the declarer may hold (the unknown-discard question); None: not asked.
    guarantee: dict | None = None
    #: Ctrl-C stopped the single-strategy search (the averages are complete).
    strategy_interrupted: bool = False
    #: The card whose best single strategy is best for the advised side (None: not computed).
    best_strategy: Card | Move | None = None

    @property
    def partial(self) -> bool:
        return self.interrupted or any(not c.tally.exact and c.tally.enumeration for c in self.cards.values())

    def _what(self) -> str:
        layout = self.layout
        if layout.contract.is_allpass:
            return f"{self.counted}'s tricks"
        unit = "points" if layout.rules.counts_points else "tricks"
        if layout.contract.is_misere:
            return f"tricks on {self.counted}"
        return f"{layout.rules.side_name(self.counted)}'s {unit}"

    def headline(self) -> str:
        seat, layout = self.seat, self.layout
        sees = f", seeing {' '.join(self.sees)}" if self.sees else ""
        if self.interrupted:
            how = (f"INTERRUPTED: {len(self.cards)} card(s) begun; an enumeration cut short shows proven bounds, "
                   "a sample is a smaller sample")
        elif self.exact:
            how = f"exact over all {self.layouts:,} consistent layouts"
        else:
            how = (f"sampled: {self.solved:,} random layouts of {self.layouts:,} consistent "
                   f"(seed {self.seed}), 95% intervals")
        if self.strategy_interrupted:
            how += "; the single-strategy search INTERRUPTED"
        return (f"{layout.rules.seat_name(seat)} ({seat}) to play{sees}: {how}, {self.seconds:.1f} s. "
                f"Values: {self._what()} from here on.")

    def format(self, style: str = "symbols") -> str:
        out = [self.headline(), ""]
        words = list(next((c.outcomes for c in self.cards.values() if c.outcomes), None) or ())
        header = f"  {'card':<5} {'expected':>16}" + "".join(f" {'P(' + w + ')':>12}" for w in words)
        header += f" {'cost':>6}"
        if self.strategy is not None:
            header += f" {'one plan':>9}"
        if self.guarantee is not None:
            header += f" {'sure':>5}"
        out.append(header)
        for move, advice in self.cards.items():
            code = _move_text(move, style)
            row = f"  {code:<5} {advice.expected_text():>16}"
            for w in words:
                p = (advice.outcomes or {}).get(w)
                row += f" {'-' if p is None else f'{100 * p:.1f}%':>12}"
            row += f" {'-' if math.isnan(advice.cost) else format(advice.cost, '.3f'):>6}"
            if self.strategy is not None:
                row += f" {'-' if advice.strategy is None else format(advice.strategy, '.3f'):>9}"
            if self.guarantee is not None:
                sure = self.guarantee.get(move)
                row += f" {'-' if sure is None else sure:>5}"
            if move == self.best:
                row += "  best"
            elif move == self.best_strategy:
                row += "  best plan"
            out.append(row)
        if self.strategy_note:
            out += ["", self._strategy_text()]
        if self.guarantee is not None:
            out += ["", "sure: the tricks one defence forces after the card whatever the declarer discarded "
                        "(the defenders see each other, not the discard)."]
        return "\n".join(out)

    def _strategy_text(self) -> str:
        if self.strategy is None:
            return f"one plan (the best single strategy's value): {self.strategy_note}."
        together = len(deciding_together(self.layout, self.seat)) > 1
        who, them = ("the defenders'", "them") if together else ("his", "him")
        worse = "lower" if self.wants_high else "higher"
        best = "" if self.best_strategy in (None, self.best) else " ('best plan': the card whose plan is best)"
        return (f"one plan{best}: the mean result of {who} best single plan starting with the card (one card "
                f"for each thing seen; the others see every card), {self.strategy_note}. It is {worse} than "
                f"expected where the average lets {them} guess the layout at a later decision (strategy fusion).")

    def __str__(self) -> str:
        return self.format()

    def html_parts(self, style: str = "symbols") -> dict:
        """The ``--svg``/``--html`` pictures: the layout as the advised player sees it (the hands
        he cannot see, and an unseen discard, as their count only), each card's expected value
        under it (the best marked), the table of cards and distributions."""
        values = {move: f"{advice.expected:.2f}" for move, advice in self.cards.items()
                  if not math.isnan(advice.expected)}
        words = list(next((c.outcomes for c in self.cards.values() if c.outcomes), None) or ())
        header = ["card", "expected (±: 95% interval)", *(f"P({w})" for w in words), "distribution", "cost"]
        if self.guarantee is not None:
            header.append("sure")
        rows = []
        for move, advice in self.cards.items():
            row = [_move_text(move, style) + (" (best)" if move == self.best else ""), advice.expected_text(),
                   *(None if advice.outcomes is None else f"{100 * advice.outcomes[w]:.1f}%" for w in words),
                   ", ".join(f"{v}: {100 * p:.1f}%" for v, p in sorted(advice.distribution.items())),
                   None if math.isnan(advice.cost) else f"{advice.cost:.3f}"]
            if self.guarantee is not None:
                row.append(self.guarantee.get(move))
            rows.append(row)
        hidden = [pile for pile in self.view.piles if pile is not None]
        if None in self.view.piles:
            hidden.append("discard")
        best = "" if self.best is None else f"; best {_move_text(self.best, style)}"
        seat = self.seat
        if self.exact:
            how = (f"exact over all {self.layouts:,} layouts he cannot tell apart" if self.layouts > 1
                   else "exact: he can tell the layout")
        elif any(not c.tally.enumeration for c in self.cards.values()):
            how = f"{self.solved:,} sampled of {self.layouts:,} layouts (seed {self.seed})"
        else:
            how = f"PARTIAL: {self.layouts:,} layouts, not all solved"
        verdict = (f"{self.layout.rules.seat_name(seat)} ({seat}) to play{best}.\n"
                   f"Expected {self._what()}: {how}.")
        notes = self.format(style).split("\n\n")[2:]  # after the headline and the table: the notes
        return {"layout": self.layout, "values": values, "verdict": verdict, "text": "\n".join(notes),
                "best": [m for m, advice in self.cards.items() if abs(advice.cost) < 1e-9],  # (NaN: not best)
                "style": style, "hidden": hidden,
                "table": table_html(header, rows)}

    def to_json(self) -> dict:
        from pyanalyzer.preferans.odds import tidy_json

        cards = {}
        for move, advice in self.cards.items():
            entry = advice.to_json()
            if self.guarantee is not None:
                entry["guaranteed"] = self.guarantee.get(move)
            entry["strategy"] = advice.strategy
            cards[_move_text(move, "letters")] = entry
        data = {"seat": self.seat, "sees": list(self.sees), "counted": self.counted,
                "layouts": self.layouts, "solved": self.solved, "exact": self.exact,
                "method": "enumeration" if all(c.tally.enumeration for c in self.cards.values()) else "sample",
                "partial": self.partial, "interrupted": self.interrupted or self.strategy_interrupted,
                "strategy_note": self.strategy_note, "seed": self.seed,
                "cards": cards, "best": None if self.best is None else _move_text(self.best, "letters"),
                "best_strategy": None if self.best_strategy is None else _move_text(self.best_strategy, "letters"),
                "seconds": round(self.seconds, 3)}
        return tidy_json(data)

    def to_dict(self) -> dict:
        return self.to_json()


def _move_text(move, style: str) -> str:
    if isinstance(move, Move):
        return (move.code if style == "letters" else format_card(move.card, style) + ("+" if move.declare else ""))
    return move.code if style == "letters" else format_card(move, style)


def advise(layout: Layout, seat: str, sees: Sequence[str] = (), *, moves: Sequence = (), engine: str = "fast",
           exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES, seed: int | None = None,
           threads: int | None = None, strategy: str = "auto", progress: Progress | None = None,
           backends: Sequence | None = None, stop_when=None) -> Advice:
    """Advice for ``seat``, to move after ``moves`` from ``layout`` (the real deal), seeing
    ``sees`` besides what the rules show him. See the module docstring.

    ``stop_when(histogram)`` is asked between blocks of layouts: once true the advice stops as
    after Ctrl-C (``interrupted``: the cards finished kept, the one cut short with its bounds).

    ``strategy``: the best single strategy's value of each card too
    (:func:`pyanalyzer.analysis.strategy.single_strategy_values`): "auto" for small endings within
    a step budget, "always" (no limit), "never".
    """
    start_time = time.perf_counter()
    if exact_limit < 0:
        raise LayoutError(f"--exact-limit must be 0 or more, not {exact_limit}", str(exact_limit))
    if samples < 1:
        raise LayoutError(f"--samples must be at least 1, not {samples}", str(samples))
    if strategy not in STRATEGY_CHOICES:
        raise LayoutError(f"strategy must be auto, always or never, not {strategy!r}", strategy)
    rules = layout.rules
    if not layout.rules.counts_points and layout.talon and not layout.discard and layout.declarer \
            and not layout.contract.is_allpass and layout.tricks_left == rules.hand_size \
            and not any(c in layout.hands[layout.declarer] for c in layout.talon):
        raise LayoutError(f"the declarer's discard is still open: give discard= (advice starts with the play), "
                          f"or ask the declarer (--seat {layout.declarer}) which two cards to discard", "discard")
    moves = [m if isinstance(m, Move) else Move(m, False) for m in moves]
    now, view = information(layout, moves, seat, sees)
    seat = rules.seat(seat)
    counted = now.declarer if now.declarer is not None else seat
    position = now.position(side=counted)
    wants_high = position.maximize == (seat in rules.side_of(counted))
    total = view.count()
    exact = total <= exact_limit
    if not exact:
        seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    threads = threads or 2
    if backends is None:
        backends = [make_backend(engine) for _ in range(threads)]
    piles = view.hand_piles
    seat_numbers = tuple(rules.seats.index(s) for s in view.piles[:piles])
    start_total = _deal_total_so_far(layout, moves, counted)
    same_as = _equivalent_cards(now, view.unknown)
    legal = now.moves()
    judged = [move for move in legal if (move if move.declare else move.card) not in same_as]
    afters = [now.play(move) for move in judged]
    templates = [_template(after.position(side=counted), seat_numbers, view) for after in afters]
    if not piles:  # every hand seen: the one layout (the block solver deals into one hand)
        other = next(i for i, s in enumerate(rules.seats) if s != seat)
        tallies = solve_splits_each(templates, (other,), (0,), 0, engine=engine, threads=1,
                                    backends=backends[:1], dealt=([((0,), 1)], 1))
    elif exact:
        # Card by card: each enumeration's long runs of consecutive layouts keep the table warm
        # (all the cards per block of layouts took more nodes here: benchmarks/RESULTS.md).
        tallies = []
        for number, (move, template) in enumerate(zip(judged, templates, strict=True), start=1):
            if progress is not None and hasattr(progress, "stage"):
                progress.stage(f"card {_move_text(move if move.declare else move.card, 'letters')}",
                               number, len(judged))
            dealt = (((split[:piles], 1) for split in view.splits()), total) if view.allowed else None
            tallies += solve_splits_each([template], seat_numbers, view.sizes[:piles], view.unknown,
                                         engine=engine, threads=threads, progress=progress, backends=backends,
                                         dealt=dealt, stop_when=stop_when)
            if tallies[-1].interrupted or tallies[-1].pruned:  # (pruned: stopped by stop_when)
                break
    else:
        # Every card on each block of the same layouts, on one engine: the positions after his
        # cards share most of their subtrees. Sorted: neighbouring layouts share more positions
        # (the tally does not depend on the order).
        if progress is not None and hasattr(progress, "stage"):
            progress.stage(f"{len(judged)} cards on each layout", unit="positions")
        sample = sorted(split[:piles] for split in view.sample(samples, random.Random(seed)))
        tallies = solve_splits_each(templates, seat_numbers, view.sizes[:piles], view.unknown, engine=engine,
                                    threads=threads, samples=samples, progress=progress, backends=backends,
                                    dealt=(((split, 1) for split in sample), samples), stop_when=stop_when)
    interrupted = any(tally.interrupted or tally.pruned for tally in tallies)
    cards: dict = {}
    for move, after, tally in zip(judged, afters, tallies):
        if tally.splits or tally.enumeration:  # (a sample cut before its first block says nothing)
            cards[move if move.declare else move.card] = card_advice(
                tally, _gain(now, after, move, counted), now, counted, start_total)
    cards = {m: (replace(cards[same_as[m]]) if m in same_as else cards[m]) for m in
             (m if m.declare else m.card for m in legal) if m in cards or same_as.get(m) in cards}
    key = (lambda m: cards[m].expected) if wants_high else (lambda m: -cards[m].expected)
    finished = [m for m in cards if not (cards[m].tally.enumeration and not cards[m].tally.exact)]
    best = max(finished, key=key) if finished else None
    if best is not None:
        top = cards[best].expected
        for m in finished:
            cards[m].cost = (top - cards[m].expected) if wants_high else (cards[m].expected - top)
    strategy_values, note, strategy_interrupted = None, "not asked (--strategy never)", False
    best_strategy = None
    if interrupted:
        note = "not computed: the averages were interrupted"
    elif strategy != "never":
        if progress is not None and hasattr(progress, "stage"):
            progress.stage("single strategy", unit="search steps")
        answer = single_strategy_values(now, seat, view, counted, wants_high, backends[0],
                                        limited=strategy == "auto", progress=progress,
                                        stop_when=None if stop_when is None else (lambda: stop_when([])))
        note, strategy_interrupted = answer.note, answer.interrupted
        if answer.values is not None:
            strategy_values = {(m if m.declare else m.card): v for m, v in answer.values.items()}
            for m, value in strategy_values.items():
                cards[m].strategy = value
            best_strategy = max(strategy_values, key=lambda m: (strategy_values[m] if wants_high
                                                                 else -strategy_values[m], m == best))
    guarantee = None
    if not interrupted and not strategy_interrupted:
        guarantee = misere_guarantee(now, seat, view, backends[0])
    solved = next(iter(cards.values())).tally.solves if cards else 0
    return Advice(now, seat, tuple(rules.seat(s) for s in sees), view, total, solved,
                  exact and not interrupted, cards, best, time.perf_counter() - start_time, counted, wants_high,
                  None if exact else seed, interrupted, strategy_values, note,
                  engine if isinstance(engine, str) else getattr(engine, "name", "fast"), guarantee,
                  strategy_interrupted, best_strategy)


def _equivalent_cards(layout: Layout, unknown: int) -> dict[Card, Card]:
    """Legal cards of the player to move that touch a lower one of his (no card that may still
    be in play lies between: the cards in the hands, and the ``unknown`` ones, an unseen
    discard's included): the same result in every layout he cannot tell apart (trick games
    only: in Thousand touching cards score different points)."""
    if layout.rules.counts_points:
        return {}
    seats = layout.rules.seats
    hands = tuple(layout.hands[s].mask for s in seats) + (unknown,)
    played = tuple(c.index for c in layout.played)
    legal = [c.index for c in layout.legal_cards()]
    chosen = distinct_cards(legal, hands, played, layout.trick_rules().suit_masks)
    deck, same, representative = layout.rules.deck, {}, None
    for card in sorted(legal):
        if card in chosen:
            representative = card
        else:
            same[deck.from_index(card)] = deck.from_index(representative)
    return same


def _template(position: Position, seat_numbers: tuple[int, ...], view: View) -> Position:
    """The position with the unseen hands holding only the cards known to be there."""
    hands = list(position.hands)
    for number, known in zip(seat_numbers, view.known):
        hands[number] = known
    return replace(position, hands=tuple(hands))


def _deal_total_so_far(start: Layout, moves: Sequence[Move], counted: str) -> int | None:
    """The counted side's result so far in the deal: Thousand's points written in the layout, or
    the tricks won during ``moves`` when the layout is a whole deal (else unknown: None)."""
    rules = start.rules
    side = rules.side_of(counted)
    layout = start
    if rules.counts_points:
        for move in moves:
            layout = layout.play(move)
        return sum(layout.scored.get(s, 0) for s in side)
    if start.tricks_left != rules.hand_size or start.played:
        return None
    total = 0
    for move in moves:
        total += _gain(layout, layout.play(move), move, counted)
        layout = layout.play(move)
    return total


def _outcomes(layout: Layout, counted: str, total_so_far: int | None, distribution: dict[int, float]
              ) -> dict[str, float] | None:
    """The game's verdicts with their probabilities, from the result from here on."""
    if total_so_far is None:
        return None
    contract = layout.contract
    if contract.is_misere:
        caught = sum(p for v, p in distribution.items() if total_so_far + v >= 1)
        return {"caught": caught, "clean": 1 - caught}
    if layout.rules.counts_points:
        if contract.bid is None:
            return None
        made = sum(p for v, p in distribution.items() if total_so_far + v >= contract.bid)
        return {"made": made, "failed": 1 - made}
    if contract.is_allpass or contract.level is None:
        return None
    need = contract.level + layout.rules.book
    made = sum(p for v, p in distribution.items() if total_so_far + v >= need)
    return {"made": made, "defeated": 1 - made}


def mean_interval(mean: float, n: int, top: int, z: float = Z95) -> tuple[float, float]:
    """A 95% interval for the mean of a value from 0 to ``top`` estimated from ``n`` random layouts.

    The Wilson score interval of the mean scaled to [0, 1], with the largest variance a value
    of that range and mean can have (``m (top - m)``): conservative, and never of zero width
    when every sample agreed (a rare result may not have been drawn; the plain normal
    interval with the sample's variance misses it far more often than 5%).

    >>> [round(x, 3) for x in mean_interval(0.0, 30, 1)]  # nothing in 30 draws: up to 11%
    [0.0, 0.114]
    """
    if top <= 0:
        return mean, mean
    low, high = wilson_interval(mean / top, n, z)
    return low * top, high * top


def card_advice(tally: Tally, gain: int, layout: Layout, counted: str, total_so_far: int | None) -> CardAdvice:
    """A card's advice from the tally of the results after it (``gain``: what the card itself
    adds; ``total_so_far``: the counted side's result before, for the outcomes)."""
    n = tally.splits
    distribution = {v + gain: count / n for v, count in enumerate(tally.histogram) if count} if n else {}
    expected = tally.expected() + gain if n else float("nan")
    interval = None
    if not tally.enumeration and n:
        low, high = mean_interval(tally.expected(), n, len(tally.histogram) - 1)
        interval = (low + gain, high + gain)
    return CardAdvice(expected, distribution, interval, float("nan"),  # (set once the best is known)
                      _outcomes(layout, counted, total_so_far, distribution), tally)
