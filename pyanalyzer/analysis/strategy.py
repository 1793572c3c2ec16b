"""The exact value of the best single strategy for a player who cannot see every card.

Averaging double-dummy values over the layouts a player cannot tell apart lets him play
each later card as if he saw the layout ("strategy fusion"): the average overstates what
he can get. Here the player commits to **one strategy**: at each of his later turns one
card for every layout still consistent with what he has seen (all played cards are seen
by all, so his information is the public play; the misère defenders, playing open, decide
together on the same information). The other players see every card
(they are double dummy): his partner plays for him, the opponents against him, each
layout with its own best reply. The value is the mean over the equally likely layouts
of the result of his best strategy against those replies.

The search keeps, at each node of the public play, the set of layouts that reach it.
At the advised player's turn one card is chosen for the whole set. At another player's
turn each layout may take a different card: the set splits by card, the parts go on
separately (the advised player then sees which card came, so his later choices may
differ); the opponents choose the split that is worst for him (over the partitions of the
set: merging two parts never helps him, so parts with the same card need no special
care), the partner the best (one part per card). A set of one layout is the
double-dummy value, from the engine. Exponential in the number of layouts: for small
endings only (:data:`STRATEGY_LIMIT`).

>>> from pyanalyzer.model.layout_io import parse_layout
>>> from pyanalyzer.analysis.advise import advise
>>> layout = parse_layout("contract=7h declarer=S lead=S S=8s,Qc,9h W=8c,Ah,Kh E=Qs,Js,7h")
>>> lead = next(card for card in layout.hands["S"] if card.code == "8s")
>>> advice = advise(layout, "W", moves=[lead], engine="reference")  # West must trump: which card?
>>> [(str(c), round(a.expected, 3), round(a.strategy, 3)) for c, a in advice.cards.items()]
[('♥A', 0.1, 0.3), ('♥K', 0.1, 0.3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from pyanalyzer.analysis.small_search import TrickSearch, distinct_cards
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position, iter_bits

#: The best single strategy is searched when consistent layouts x tricks left is at most this.
STRATEGY_LIMIT = 48
#: ... and the consistent layouts are at most this many (the search is exponential in them).
STRATEGY_LAYOUTS = 10


#: Steps (nodes and partition blocks tried) the automatic search may take before it gives up.
STRATEGY_STEPS = 20_000


class SearchTooLarge(Exception):
    """The single-strategy search went over its step budget."""


class SingleStrategySearch:
    """The best single strategy's value for ``seat``, summed over ``worlds`` (see the module).

    ``base`` is the position now (its hands are replaced by each world's); ``worlds`` the
    layouts as tuples of hand masks; ``wants_high``: the advised player wants the value
    (the declarer side's, ``base.declarer_side``) high; ``deciders``: partners who decide on
    his information (their hands the same in every world)."""

    def __init__(self, base: Position, seat: int, backend, wants_high: bool,
                 deciders: Sequence[int] = (), steps: int | None = None) -> None:
        #: Steps left before :class:`SearchTooLarge` (None: no limit).
        self.steps = steps
        self.base = base
        self.seat = seat
        #: The seats that choose one card per public play: the advised player, and partners who
        #: know exactly what he knows (the misère defenders, playing open).
        self.deciders = {seat, *deciders}
        self.backend = backend
        self.rules = TrickRules.of(base)
        self.wants_high = wants_high
        side = base.declarer_side[seat]
        self.partners = {s for s in range(len(base.hands)) if base.declarer_side[s] == side}
        self.memo: dict = {}

    def card_values(self, worlds: Sequence[tuple[int, ...]]) -> dict[int, int]:
        """Each legal card of the advised player now -> the best strategy's summed value after it."""
        worlds = frozenset(worlds)
        hand = next(iter(worlds))[self.seat]
        legal = self.rules.legal_moves(hand, self.base.played)
        return {card: self._after(worlds, self.base.leader, self.base.played, card)
                for card in iter_bits(legal)}

    def _better(self, a: int, b: int) -> bool:
        return a > b if self.wants_high else a < b

    def _after(self, worlds: frozenset, leader: int, played: tuple[int, ...], card: int) -> int:
        """The summed value after the player to move plays ``card`` in every world of ``worlds``."""
        seat = (leader + len(played)) % len(self.base.hands)
        moved = frozenset(w[:seat] + (w[seat] & ~(1 << card),) + w[seat + 1:] for w in worlds)
        trick = played + (card,)
        if len(trick) < len(self.base.hands):
            return self.value(moved, leader, trick)
        winner = self.rules.trick_winner(leader, trick)
        gain = int(self.base.declarer_side[winner]) * len(moved)
        if not any(next(iter(moved))):
            return gain
        return gain + self.value(moved, winner, ())

    def _step(self) -> None:
        if self.steps is not None:
            self.steps -= 1
            if self.steps < 0:
                raise SearchTooLarge

    def value(self, worlds: frozenset, leader: int, played: tuple[int, ...]) -> int:
        key = (worlds, leader, played)
        if key in self.memo:
            return self.memo[key]
        self._step()
        if len(worlds) == 1:
            (world,) = worlds
            result = self.backend.solve(replace(self.base, hands=world, leader=leader, played=played))
        else:
            seat = (leader + len(played)) % len(self.base.hands)
            if seat in self.deciders:
                hand = next(iter(worlds))[seat]
                result = None
                for card in iter_bits(self.rules.legal_moves(hand, played)):
                    value = self._after(worlds, leader, played, card)
                    if result is None or self._better(value, result):
                        result = value
            else:
                result = self._split(worlds, leader, played, seat)
        self.memo[key] = result
        return result

    def _split(self, worlds: frozenset, leader: int, played: tuple[int, ...], seat: int) -> int:
        """Another player's turn: the worlds part by the card each plays."""
        ordered = sorted(worlds)
        legal = {w: set(iter_bits(self.rules.legal_moves(w[seat], played))) for w in ordered}
        cards = sorted(set().union(*legal.values()))
        helping = seat in self.partners

        def part_value(card: int, part: tuple) -> int:
            self._step()
            return self._after(frozenset(part), leader, played, card)

        if not helping:
            # The opponents: the worst partition for the advised player (blocks may share a card).
            best_for: dict[tuple, int] = {(): 0}

            def worst(rest: tuple) -> int:
                if rest in best_for:
                    return best_for[rest]
                first, others = rest[0], rest[1:]
                result = None
                for card in legal[first]:
                    able = [w for w in others if card in legal[w]]
                    for size in range(len(able) + 1):
                        for extra in combinations(able, size):
                            block = (first,) + extra
                            remaining = tuple(w for w in others if w not in extra)
                            value = part_value(card, block) + worst(remaining)
                            if result is None or self._better(result, value):
                                result = value
                best_for[rest] = result
                return result

            return worst(tuple(ordered))

        # The partner: the best assignment of one card per world (one part per card).
        def best(index: int, rest: tuple) -> int | None:
            if not rest:
                return 0
            if index == len(cards):
                return None
            card = cards[index]
            able = [w for w in rest if card in legal[w]]
            result = None
            for size in range(len(able) + 1):
                for block in combinations(able, size):
                    remaining = tuple(w for w in rest if w not in block)
                    later = best(index + 1, remaining)
                    if later is None:
                        continue
                    value = (part_value(card, block) if block else 0) + later
                    if result is None or self._better(value, result):
                        result = value
            return result

        return best(0, tuple(ordered))


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


def single_strategy_values(layout, seat: str, view, counted: str, wants_high: bool, backend,
                           force: bool = False) -> tuple[dict | None, str | None]:
    """The best single strategy's mean value after each legal card of ``seat`` (keyed like
    :class:`pyanalyzer.analysis.advise.Advice.cards`), or None with the reason it was not
    searched; and a note for the reader."""
    rules = layout.rules
    if rules.counts_points or layout.talon_tricks:
        return None, ("The best single strategy is searched in trick games without talon tricks "
                      "only; the values above are averages of double-dummy values.")
    count = view.count()
    if not count:
        return None, None
    if not force and (count > STRATEGY_LAYOUTS or count * layout.tricks_left > STRATEGY_LIMIT):
        return None, (f"Averages of double-dummy values: they assume {seat} sees the layout at his later "
                      f"turns; the best single strategy is searched only for small endings "
                      f"(at most {STRATEGY_LAYOUTS} layouts and {STRATEGY_LIMIT} layouts x tricks).")
    base = layout.position(side=counted)
    seats = rules.seats
    piles = view.hand_piles
    numbers = [seats.index(s) for s in view.piles[:piles]]
    worlds = []
    for split in view.splits():
        hands = list(base.hands)
        for number, known, cards in zip(numbers, view.known, split):
            hands[number] = known | cards
        worlds.append(tuple(hands))
    # The misère defenders play open and know the same: they decide together on it.
    deciders = ([seats.index(s) for s in layout.defenders if s != seat]
                if layout.contract.is_misere and seat != layout.declarer else [])
    search = SingleStrategySearch(base, seats.index(seat), backend, wants_high, deciders,
                                  None if force else STRATEGY_STEPS)
    try:
        sums = search.card_values(worlds)
    except SearchTooLarge:
        return None, (f"Averages of double-dummy values: the best single strategy over these "
                      f"{len(worlds)} layouts needs more than {STRATEGY_STEPS:,} search steps "
                      "(--strategy always searches it all the same).")
    deck = rules.deck
    values = {deck.from_index(card): total / len(worlds) for card, total in sums.items()}
    note = (f"One strategy: the mean result when {seat} fixes one card per situation he can tell "
            f"apart (the others seeing all cards), over all {len(worlds)} layouts; the averaged "
            "double-dummy value lets him see the layout at his later turns, so it can only flatter "
            "him.")
    return values, note


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
