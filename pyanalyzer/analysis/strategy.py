"""What one plan is worth when a player cannot see every card.

Two questions, both about a player committed to one plan (one card for each thing he may
have seen) against players who see every card:

* :class:`BestSingleStrategy` (``pref advise``, issue 22 item 2): the exact mean value of the
  advised player's best single strategy over the layouts he cannot tell apart, per first card:
  what the averaged double-dummy value flatters (it lets him see the layout at each later
  decision: strategy fusion). :func:`single_strategy_values` asks it for ``advise``, within a
  step budget.
* :class:`OneStrategyGuarantee` is the misère's unknown-discard search, general in the hidden
  player: the other players choose one card for every hand he may hold (they see every hand
  but his), he plays knowing his hand; the value is the tricks one plan forces on him against
  all his candidate hands. :func:`misere_guarantee` asks it for a misère defender's cards at
  any point of the play (``pref advise``); :mod:`pyanalyzer.preferans.misere` asks it at the
  first lead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from operator import ge

from pyanalyzer.analysis.small_search import TrickSearch, distinct_cards
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position, iter_bits


class OneStrategyGuarantee(TrickSearch):
    """What one plan guarantees against every candidate hand of one hidden player: the tricks
    forced on him (the misère with an unseen discard: the defenders' one defence against
    every discard). max over the other players' cards (one card for all candidates: they see
    every hand but his), min over his cards *and* the candidate hands.

    A node carries (as its ``extra``) the set of candidate declarer hands still
    consistent with the play; a declarer card keeps the candidates that could
    play it. With one candidate left the engine gives the open-card value; with
    several, the open-card values bound the result from above (knowing the
    discard can only help the defenders), which prunes the search.
    """

    def __init__(self, base: Position, declarer: int, backend) -> None:
        super().__init__(TrickRules.of(base), len(base.hands))
        self.base = base
        self.declarer = declarer
        self.backend = backend
        self.open_values: dict[tuple, int] = {}

    def card_values(self, candidates: list[int]) -> dict[int, int]:
        """Each legal card of the player to move now (one of the planners) -> the tricks one plan
        forces after it against every hand of ``candidates``."""
        base = self.base
        hands = base.hands[:self.declarer] + (0,) + base.hands[self.declarer + 1:]
        seat = base.to_move
        tricks = max(bin(h).count("1") for h in candidates) + 1
        legal = self.rules.legal_moves(hands[seat], base.played)
        values = {}
        for card in iter_bits(legal):
            child = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
            trick = base.played + (card,)
            if len(trick) < self.seats:
                values[card] = self.search(child, base.leader, trick, frozenset(candidates), -1, tricks)
                continue
            winner = self.rules.trick_winner(base.leader, trick)
            gain = self.gain(winner)
            if self.finished(child, frozenset(candidates)):
                values[card] = gain
            else:
                values[card] = gain + self.search(child, winner, (), frozenset(candidates), -1, tricks)
        return values

    def one_defence(self, candidates: list[int]) -> int:
        """Tricks one defence forces against every hand of ``candidates``."""
        hands = self.base.hands[:self.declarer] + (0,) + self.base.hands[self.declarer + 1:]
        tricks = max(bin(h).count("1") for h in candidates)
        return self.value(hands, self.base.leader, self.base.played, frozenset(candidates), -1, tricks + 1)

    def _open_value(self, hands, leader, played, hand: int) -> int:
        key = (hands, leader, played, hand)
        if key not in self.open_values:
            full = hands[:self.declarer] + (hand,) + hands[self.declarer + 1:]
            self.open_values[key] = self.backend.solve(replace(self.base, hands=full, leader=leader, played=played))
        return self.open_values[key]

    def known(self, hands, leader, played, candidates):
        if len(candidates) == 1:
            return self._open_value(hands, leader, played, next(iter(candidates)))
        if not played and not any(hands) and not any(candidates):
            return 0
        return None

    def finished(self, hands, candidates):
        return not any(hands) and not any(candidates)

    def bounds(self, hands, leader, candidates):
        return 0, min(self._open_value(hands, leader, (), h) for h in candidates)

    def maximising(self, seat):
        return seat != self.declarer

    def gain(self, winner):
        return int(winner == self.declarer)

    def expand(self, hands, leader, played, candidates, seat):
        if seat == self.declarer:
            # The declarer picks a card, and in doing so the worst candidate hands for the defence.
            moves: dict[int, list[int]] = {}
            for hand in candidates:
                for card in iter_bits(self.rules.legal_moves(hand, played)):
                    moves.setdefault(card, []).append(hand & ~(1 << card))
            return [(card, hands, frozenset(rest)) for card, rest in sorted(moves.items())], None
        union = 0
        for hand in candidates:
            union |= hand
        legal = list(iter_bits(self.rules.legal_moves(hands[seat], played)))
        full = hands[:self.declarer] + (union,) + hands[self.declarer + 1:]
        return [(card, hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:], candidates)
                for card in distinct_cards(legal, full, played, self.base.suit_masks)], None


#: The misère guarantee is searched against at most this many candidate declarer hands
#: (the twelve cards less any two: 66).
GUARANTEE_CANDIDATES = 66


def misere_guarantee(layout, seat: str, view, backend) -> dict | None:
    """A misère defender's cards -> the tricks one defence forces after it against every hand
    the declarer may hold (his twelve cards less the unseen discard): the question of the
    unknown-discard analysis (:class:`OneStrategyGuarantee`), asked at this point of the play.
    None when it does not apply (not a misère defender, other hands unseen, too many hands)."""
    if not layout.contract.is_misere or seat == layout.declarer:
        return None
    if view.piles[:view.hand_piles] != (layout.declarer,):
        return None
    candidates = sorted({view.known[0] | split[0] for split in view.splits()})
    if len(candidates) > GUARANTEE_CANDIDATES:
        return None
    base = layout.position()
    hidden = layout.seats.index(layout.declarer)
    search = OneStrategyGuarantee(base, hidden, backend)
    deck = layout.rules.deck
    return {deck.from_index(card): value for card, value in search.card_values(candidates).items()}


# -- the best single strategy (pref advise, issue 22 item 2) ------------------------------------

#: ``strategy="auto"`` searches when the consistent layouts are at most this many...
STRATEGY_LAYOUTS = 100
#: ... the advised player has at most this many tricks left to play...
STRATEGY_TRICKS = 4
#: ... and gives up after this many search steps (a count: the same answer on any machine).
STRATEGY_STEPS = 50_000
#: A search step is a node of the play, a vector combined at another player's node, or this
#: many comparisons of two vectors (about as long).
COMPARISONS_PER_STEP = 10
#: Search steps between two calls of the progress display.
PROGRESS_EVERY = 2_000


class StrategyGaveUp(Exception):
    """The search reached its step budget."""


class StrategyStopped(Exception):
    """The search's ``stop_when`` answered true (a cancelled web job)."""


def move_gain(before: Layout, after: Layout, move: Move, counted: str) -> int:
    """What ``move`` itself adds to ``counted``'s side's result: the trick it completes (Thousand:
    its card points) and the marriage it declares."""
    side = before.rules.side_of(counted)
    if before.rules.counts_points:
        return sum(after.scored.get(s, 0) - before.scored.get(s, 0) for s in side)
    if len(before.played) + 1 < len(before.rules.seats):
        return 0
    winner = before.trick_winner(before.played + (move.card,))
    return int(winner is not None and winner in side)


def deciding_together(layout: Layout, seat: str) -> frozenset[str]:
    """The players who commit to one plan with ``seat``: he alone, or in the misère defence both
    defenders (they play open: each sees the other's hand and both know the same)."""
    if layout.contract.is_misere and seat != layout.declarer:
        return frozenset(layout.defenders)
    return frozenset((seat,))


def pareto_front(vectors: Iterable[tuple[int, ...]], most: int | None = None) -> tuple[list[tuple[int, ...]], int]:
    """The vectors no other one matches or beats in every component (duplicates once),
    highest sum first, and how many comparisons of two vectors that took (more than ``most``:
    :class:`StrategyGaveUp`).

    >>> pareto_front([(1, 2), (2, 1), (1, 1), (2, 1), (0, 3)])
    ([(1, 2), (2, 1), (0, 3)], 4)
    """
    kept: list[tuple[int, ...]] = []
    compared = 0
    for vector in sorted(set(vectors), key=sum, reverse=True):
        for other in kept:
            compared += 1
            if all(map(ge, other, vector)):
                break
        else:
            kept.append(vector)
        if most is not None and compared > most:
            raise StrategyGaveUp
    return kept, compared


class BestSingleStrategy:
    """The exact mean value of the best single strategy of the player to move, for each of his
    moves, over ``layouts`` (each with its weight: how many consistent layouts it stands for).

    The model (issue 22, item 2): the deciding players (:func:`deciding_together`) commit to one
    move for each *information set*, the moves seen since the advice (everything else is the
    same in every layout); the others see every card and the plan: his partners choose per
    layout to help him, his opponents to hurt him. A move's value is the best, over the plans
    starting with it, of the weighted mean over the layouts: never better for him than the mean
    of the double-dummy values, which lets him choose per layout at every later decision.

    The search walks the public play (the moves since the advice) once. At each node it keeps
    the *front*: for each plan of the deciders below the node, the vector of its values (for the
    player, the counted side's result times ``sign``) in the layouts still alive there (those
    whose hidden hands could make these moves), without the vectors another one matches or
    beats in every layout. A deciders' node's front is the union of its moves' fronts. At
    another player's node every layout takes the worst (an opponent) or the best (a partner) of
    the moves legal in it, and the plans below different moves are chosen independently, so its
    front combines one vector of each move's front in every way (pruned after each move: taking
    a minimum or maximum keeps the order of the vectors). With one layout alive, or when no
    decider has two cards left, the plan can follow the layout: the engine's double-dummy values.
    The value of a first move is its front's best weighted mean; the fronts are memoised by the
    public play's state and the layouts alive.
    """

    def __init__(self, layouts: Sequence[Layout], weights: Sequence[int], seat: str, counted: str,
                 wants_high: bool, backend, max_steps: int | None = None,
                 progress: Callable[[int, int | None], None] | None = None,
                 stop_when: Callable[[], bool] | None = None) -> None:
        first = layouts[0]
        rules = first.rules
        self.layouts = tuple(layouts)
        self.weights = tuple(weights)
        self.seats = rules.seats
        self.deck = rules.deck
        self.counted = counted
        self.sign = 1 if wants_high else -1
        self.deciders = deciding_together(first, seat)
        side = rules.side_of(counted)
        his_side = side if seat in side else tuple(s for s in rules.seats if s not in side)
        self.partners = frozenset(his_side) - self.deciders
        self.backend = backend
        self.max_steps = max_steps
        self.progress = progress
        self.stop_when = stop_when
        self.steps = 0
        self.memo: dict[Hashable, list[tuple[int, ...]]] = {}

    def card_values(self) -> dict[Move, float]:
        """Each legal move of the player to move -> the counted side's mean result from here
        (the move's own trick included) under the best plan starting with it."""
        here = self.layouts[0]
        alive = tuple(range(len(self.layouts)))
        hands = tuple(_hand_masks(layout) for layout in self.layouts)
        total = sum(self.weights)
        values: dict[Move, float] = {}
        for move, same in self._deciders_moves(here, hands):
            gain, child, child_hands = self._play(here, hands, move)
            best = max(sum(w * u for w, u in zip(self.weights, vector))
                       for vector in self._front(alive, child, child_hands))
            for other in same:
                values[other] = gain + self.sign * best / total
        return values

    # -- the search -------------------------------------------------------------------------
    #
    # A node is the play in one layout (``here``, a Layout: the first one alive) and the hands
    # (masks, by seat) in each layout alive: everything but the hidden hands is the same in all.

    def _step(self, count: int = 1) -> None:
        before = self.steps
        self.steps += count
        if self.max_steps is not None and self.steps > self.max_steps:
            raise StrategyGaveUp
        if before // PROGRESS_EVERY != self.steps // PROGRESS_EVERY:
            if self.stop_when is not None and self.stop_when():
                raise StrategyStopped
            if self.progress is not None:
                self.progress(self.steps, self.max_steps)

    def _play(self, here: Layout, hands: Sequence[tuple[int, ...]], move: Move
              ) -> tuple[int, Layout, tuple[tuple[int, ...], ...]]:
        """``move`` played in every layout of ``hands`` (``here`` is the first): what it adds to
        the counted side, the first layout after it, and the hands after it."""
        child = here.play(move)
        seat = self.seats.index(here.to_move)
        keep = ~move.card.mask
        after = tuple(h[:seat] + (h[seat] & keep,) + h[seat + 1:] for h in hands)
        return move_gain(here, child, move, self.counted), child, after

    def _front(self, alive: tuple[int, ...], here: Layout, hands: tuple[tuple[int, ...], ...]
               ) -> list[tuple[int, ...]]:
        self._step()
        if len(alive) == 1 or all(len(here.hands[s]) <= 1 for s in self.deciders):
            if not here.played and not any(hands[0]):
                return [(0,) * len(alive)]
            position = here.position(side=self.counted)
            return [tuple(self.sign * self.backend.solve(replace(position, hands=h)) for h in hands)]
        gone = _union(self.layouts[alive[0]]) & ~_union_of(hands[0])
        key = (alive, gone, here.played, here.lead, here.current_trump, here.won)
        if key in self.memo:
            return self.memo[key]
        if here.to_move in self.deciders:
            vectors = []
            for move, _ in self._deciders_moves(here, hands):
                gain, child, child_hands = self._play(here, hands, move)
                shift = self.sign * gain
                vectors += [tuple(shift + u for u in vector) for vector in self._front(alive, child, child_hands)]
            front = self._pareto(vectors)
        else:
            front = self._others_front(alive, here, hands, helps=here.to_move in self.partners)
        self.memo[key] = front
        return front

    def _others_front(self, alive: tuple[int, ...], here: Layout, hands: tuple[tuple[int, ...], ...],
                      helps: bool) -> list[tuple[int, ...]]:
        """A node where a player who sees every card moves: in each layout he takes the move
        best (``helps``) or worst for the player among those legal there."""
        rules = here.trick_rules()
        seat = self.seats.index(here.to_move)
        played = tuple(c.index for c in here.played)
        talon_card = here.talon_tricks[0].index if here.talon_tricks else None
        where: dict[int, list[int]] = {}
        for number, h in enumerate(hands):
            for move in rules.moves(h[seat], played, may_declare=here.may_declare, talon_card=talon_card):
                where.setdefault(move, []).append(number)
        pick = max if helps else min
        front = [(-_UNSET if helps else _UNSET,) * len(alive)]
        for engine_move, numbers in sorted(where.items()):
            first = numbers[0]
            layout = here if first == 0 else self._layout_at(here, alive[first], hands[first])
            gain, child, child_hands = self._play(layout, [hands[n] for n in numbers],
                                                  Move.from_engine(self.deck, engine_move))
            shift = self.sign * gain
            below = self._front(tuple(alive[n] for n in numbers), child, child_hands)
            combined = []
            for vector in front:
                for option in below:
                    self._step()
                    mixed = list(vector)
                    for n, u in zip(numbers, option):
                        mixed[n] = pick(mixed[n], shift + u)
                    combined.append(tuple(mixed))
            front = self._pareto(combined)
        return front

    def _pareto(self, vectors: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """:func:`pareto_front`, its comparisons counted in steps."""
        most = None
        if self.max_steps is not None:
            most = (self.max_steps - self.steps + 1) * COMPARISONS_PER_STEP
        front, compared = pareto_front(vectors, most)
        self._step(compared // COMPARISONS_PER_STEP)
        return front

    def _layout_at(self, here: Layout, number: int, hands: tuple[int, ...]) -> Layout:
        """Layout ``number`` at ``here``'s point of the play (its hands ``hands``)."""
        return replace(here, hands={s: Hand.from_mask(h, self.deck) for s, h in zip(self.seats, hands)},
                       discard=self.layouts[number].discard)

    def _deciders_moves(self, here: Layout, hands: Sequence[tuple[int, ...]]) -> list[tuple[Move, list[Move]]]:
        """The decider's legal moves, one per run of touching cards (no card in any layout's
        hands lies between: the same in every layout), each with the moves it stands for.
        Card points games keep every card (touching cards score differently)."""
        moves = here.moves()
        if here.rules.counts_points or any(m.declare for m in moves):
            return [(m, [m]) for m in moves]
        in_play = 0
        for h in hands:
            in_play |= _union_of(h)
        hand = here.hands[here.to_move].mask
        by_card = {m.card.index: m for m in moves}
        chosen = distinct_cards(sorted(by_card), (hand, in_play & ~hand), tuple(c.index for c in here.played),
                                here.trick_rules().suit_masks)
        groups: dict[int, list[Move]] = {}
        for card in sorted(by_card):
            stands_for = max(c for c in chosen if c <= card)
            groups.setdefault(stands_for, []).append(by_card[card])
        return [(by_card[card], same) for card, same in groups.items()]


#: Beyond any value: a layout no move has reached yet at an opponent's (a partner's) node.
_UNSET = 1 << 40


def _hand_masks(layout: Layout) -> tuple[int, ...]:
    return tuple(layout.hands[s].mask for s in layout.rules.seats)


def _union_of(masks: Iterable[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


def _union(layout: Layout) -> int:
    """The cards in the layout's hands."""
    return _union_of(_hand_masks(layout))


@dataclass
class StrategyValues:
    """The best single strategy's values for ``advise``: ``values`` (legal move -> the counted
    side's mean result; None when not computed), why not (``note``), the search steps taken."""

    values: dict[Move, float] | None
    note: str
    steps: int = 0
    interrupted: bool = False


def consistent_layouts(layout: Layout, view) -> list[Layout]:
    """Every layout consistent with ``view`` (a :class:`pyanalyzer.analysis.advise.View` of
    ``layout``): the unseen hands (and an unseen discard) dealt each consistent way."""
    deck = layout.rules.deck
    piles = view.hand_piles
    found = []
    for split in view.splits():
        hands = dict(layout.hands)
        for seat, known, part in zip(view.piles[:piles], view.known, split[:piles]):
            hands[seat] = Hand.from_mask(known | part, deck)
        discard = layout.discard
        if len(view.piles) > piles:  # the unseen discard
            discard = tuple(deck.from_index(c) for c in iter_bits(view.known[piles] | split[piles]))
        found.append(replace(layout, hands=hands, discard=discard))
    return found


def single_strategy_values(layout: Layout, seat: str, view, counted: str, wants_high: bool, backend, *,
                           limited: bool = True, progress=None,
                           stop_when: Callable[[], bool] | None = None) -> StrategyValues:
    """The best single strategy's value of each legal move of ``seat`` (to move in ``layout``) over
    the layouts consistent with ``view`` (:class:`BestSingleStrategy`). ``limited`` (``--strategy
    auto``): only for at most :data:`STRATEGY_LAYOUTS` layouts and :data:`STRATEGY_TRICKS` tricks,
    given up after :data:`STRATEGY_STEPS` steps; else searched to the end. Ctrl-C, or
    ``stop_when`` answering true (asked every :data:`PROGRESS_EVERY` steps), stops it
    (``interrupted``; no values)."""
    count = view.count()
    tricks = layout.tricks_left
    if limited and count > STRATEGY_LAYOUTS:
        return StrategyValues(None, f"not computed: {count:,} consistent layouts, more than the "
                                    f"{STRATEGY_LAYOUTS} searched automatically (--strategy always: any number)")
    if limited and tricks > STRATEGY_TRICKS:
        return StrategyValues(None, f"not computed: {tricks} tricks left, more than the {STRATEGY_TRICKS} "
                                    "searched automatically (--strategy always: any number)")
    budget = STRATEGY_STEPS if limited else None
    search = None
    try:
        search = BestSingleStrategy(consistent_layouts(layout, view), [1] * count, seat, counted, wants_high,
                                    backend, budget, progress, stop_when)
        values = search.card_values()
    except StrategyGaveUp:
        return StrategyValues(None, f"not computed: gave up after {STRATEGY_STEPS:,} search steps "
                                    "(--strategy always: no limit)", search.steps)
    except (KeyboardInterrupt, StrategyStopped):
        steps = search.steps if search is not None else 0
        return StrategyValues(None, f"not computed: interrupted after {steps:,} search steps", steps,
                              interrupted=True)
    return StrategyValues(values, f"exact over the {count:,} layouts, {search.steps:,} search steps", search.steps)
