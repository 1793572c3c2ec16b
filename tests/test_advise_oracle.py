"""``pref advise`` (issue 22) against an oracle written here from the issue and the rules alone.

Nothing in this file comes from ``pyanalyzer.analysis.advise``: the oracle has its own idea of what
the advised player knows and its own enumeration, and uses the project only for the rules of play
(``Layout``: legal cards, trick winners, points) and the reference minimax for the double-dummy
value of a layout (both checked elsewhere against independent brute forces).

What the player to move knows (the issue, item 1; ``docs/rules.md``): his own hand, the hands
open to him (``sees``), every card played. The cards of the other hands are unknown to him, their
counts known, and a player who did not follow the suit led has shown a void in it (in Preferans and
Thousand, where a void player must trump, one who neither followed nor trumped has shown a void in
trumps too; in Whist any card may be discarded). Every assignment of the unseen cards to the unseen
hands with those counts and voids is a consistent layout, each equally likely.

* **averaged value** of a card: the mean over the consistent layouts of the card's double-dummy
  value (the declarer's side's tricks, or points in Thousand, from the position on), and the
  distribution of that value;
* **best single strategy**: the player fixes one card for each of his information sets (what he has
  seen: the play since the advice, the rest being the same in every layout), the others play
  double dummy knowing the layout and his strategy (his opponents against him, his partner with
  him); its value is the mean over the layouts, maximised over his strategies (for the side that
  wants fewer tricks: minimised). It can only be worse for him than the averaged value, which lets
  him "see" the layout at each later decision (strategy fusion).

Endings are small and seeded, so the whole file runs in seconds; the larger sweeps are ``slow``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from click.testing import CliRunner

from pyanalyzer.analysis.advise import advise
from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.main import main
from pyanalyzer.engines.reference import ReferenceSolver
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_one_line, parse_layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import parse_card
from pyanalyzer.model.rules import GAMES

# -- the oracle: what the player knows -----------------------------------------------------------


def replay(layout: Layout, moves) -> tuple[Layout, dict[str, set[int]]]:
    """The layout after ``moves`` (cards or Moves, from ``layout``), and the suits (numbers) each
    seat has shown void in: by the cards of ``layout``'s current trick and by ``moves``."""
    voids: dict[str, set[int]] = {seat: set() for seat in layout.seats}
    must_trump = layout.rules.must_trump

    def note(seat: str, card, led: int, trump: int | None) -> None:
        if card.suit_number != led:
            voids[seat].add(led)
            if must_trump and trump is not None and card.suit_number != trump:
                voids[seat].add(trump)

    if layout.played:
        led = layout.played[0].suit_number
        for seat, card in list(zip(layout.played_by(), layout.played))[1:]:
            note(seat, card, led, layout.trump_number)
    for move in moves:
        move = move if isinstance(move, Move) else Move(move)
        if layout.played:
            note(layout.to_move, move.card, layout.played[0].suit_number, layout.trump_number)
        layout = layout.play(move)
    return layout, voids


def open_by_rules(current: Layout, seat: str, first_lead: bool) -> set[str]:
    """The hands the rules open to ``seat`` (``docs/rules.md``, misère): the defenders play open, so
    they see each other, and the declarer sees them, except at his lead to the first trick of the
    deal (he leads before they open)."""
    if not current.contract.is_misere:
        return set()
    defenders = {s for s in current.seats if s != current.declarer}
    if seat != current.declarer:
        return defenders - {seat}
    return set() if first_lead and current.to_move == seat else defenders


def consistent_layouts(current: Layout, seat: str, sees=(), voids=None, first_lead: bool = False) -> list[Layout]:
    """Every layout the player at ``seat`` cannot tell from ``current``: the cards of the hands he
    does not see dealt over those hands, each keeping its count and its shown voids. In Preferans a
    defender does not see the declarer's discard: its cards join the unseen ones, and the talon,
    shown to all, is known to lie in the declarer's hand or his discard."""
    voids = voids or {}
    visible = {seat, *sees} | open_by_rules(current, seat, first_lead)
    piles: list[str | None] = [s for s in current.seats if s not in visible]
    sizes = [len(current.hands[s]) for s in piles]
    pool = [c for s in piles for c in current.hands[s]]
    talon: set = set()
    if current.discard and seat != current.declarer and not current.rules.counts_points:
        piles.append(None)  # the discard
        sizes.append(len(current.discard))
        pool += list(current.discard)
        if not current.contract.is_allpass:
            talon = set(current.talon)
    pool.sort(key=lambda c: c.index)
    deck = current.rules.deck

    def fits(card, pile) -> bool:
        if pile is None:
            return True
        return card.suit_number not in voids.get(pile, ()) and (card not in talon or pile == current.declarer)

    found = []

    def deal(k: int, left: list, dealt: dict) -> None:
        if k == len(piles):
            hands = dict(current.hands)
            hands.update({s: Hand(cards, deck) for s, cards in dealt.items() if s is not None})
            discard = tuple(dealt[None]) if None in dealt else current.discard
            found.append(replace(current, hands=hands, discard=discard))
            return
        pile = piles[k]
        for cards in itertools.combinations([c for c in left if fits(c, pile)], sizes[k]):
            deal(k + 1, [c for c in left if c not in cards], {**dealt, pile: cards})

    deal(0, pool, {})
    return found


def known_to(start: Layout, moves, seat: str, sees=()) -> tuple[Layout, list[Layout]]:
    """The position after ``moves`` and the layouts consistent with what ``seat`` knows there."""
    current, voids = replay(start, moves)
    first_lead = start.tricks_left == start.rules.hand_size and not start.played and not moves
    return current, consistent_layouts(current, seat, sees, voids, first_lead)


#: Reference solvers kept warm, one per family of positions (trick rules and sides).
_SOLVERS: list[ReferenceSolver] = []


def _solver(position) -> ReferenceSolver:
    solver = next((s for s in _SOLVERS if s.fits(position)), None)
    if solver is None:
        solver = ReferenceSolver.for_position(position)
        _SOLVERS.append(solver)
    return solver


def counted_seat(layout: Layout, seat: str) -> str:
    """The seat whose side's result is counted: the declarer, or in all-pass the advised player."""
    return layout.declarer if layout.declarer is not None else seat


def dd_values(layout: Layout, counted: str) -> dict[str, int]:
    """The reference minimax's value of each legal move of the player to move (``counted``'s
    side's tricks or points from the position on), by the move's text (``Kh+``: a declaring lead)."""
    position = layout.position(side=counted)
    values = _solver(position).card_values(position)
    return {Move.from_engine(layout.rules.deck, m).code: v for m, v in values.items()}


def dd_value(layout: Layout, counted: str) -> int:
    position = layout.position(side=counted)
    return _solver(position).solve(position)


def wants_more(layout: Layout, seat: str) -> bool:
    """True if ``seat``'s side wants the value (the counted side's tricks or points) high."""
    counted = counted_seat(layout, seat)
    return (seat in layout.rules.side_of(counted)) == (layout.contract.kind in ("tricks", "points"))


class Averaged:
    """The oracle's averaged answer for the player to move in ``current``."""

    def __init__(self, current: Layout, seat: str, layouts: list[Layout]) -> None:
        assert current.to_move == seat
        self.layouts = layouts
        counted = counted_seat(current, seat)
        per_layout = [dd_values(layout, counted) for layout in layouts]
        n = len(self.layouts)
        self.count = n
        self.values = {code: [values[code] for values in per_layout] for code in per_layout[0]}
        self.expected = {code: Fraction(sum(v), n) for code, v in self.values.items()}
        self.distribution = {code: {value: Fraction(k, n) for value, k in Counter(v).items()}
                             for code, v in self.values.items()}
        pick = max if wants_more(current, seat) else min
        self.best_value = pick(self.expected.values())
        self.best = {code for code, e in self.expected.items() if e == self.best_value}
        self.cost = {code: abs(self.best_value - e) for code, e in self.expected.items()}


# -- the oracle: the best single strategy, by brute force over pure strategies ------------------


def _gain(state: Layout, child: Layout, move: Move, side: tuple[str, ...]) -> int:
    """What ``move`` (from ``state`` to ``child``) adds to ``side``'s total: its points and
    declaration in a card points game, else the trick it ends if ``side`` wins it."""
    if state.rules.counts_points:
        return sum(child.scored.get(s, 0) - state.scored.get(s, 0) for s in side)
    if len(state.played) < len(state.seats) - 1:
        return 0
    return int(state.trick_winner(state.played + (move.card,)) in side)


def _game_tree(state: Layout, team: set[str], history: tuple, counted: str, ally: set[str]):
    """The play from ``state`` as a tree: ``("leaf", value)`` once the ``team`` (the advised player,
    and a partner who knows just what he knows: the open misère defence) has no decision left (at
    most one card each: the double-dummy value, exact since they have no choice), ``("choose", key,
    options)`` where one of them chooses, keyed by what they have seen since the advice (the moves),
    and ``("ally"|"foe", options)`` where a partner or an opponent chooses knowing the layout. An
    option is ``(move text, gain, subtree)``; values count for ``counted``'s side."""
    if not any(len(h) for h in state.hands.values()):
        return ("leaf", 0)
    if all(len(state.hands[s]) <= 1 for s in team):
        return ("leaf", dd_value(state, counted))
    side = state.rules.side_of(counted)
    options = []
    for move in state.moves():
        child = state.play(move)
        options.append((move.code, _gain(state, child, move, side),
                        _game_tree(child, team, history + (move.code,), counted, ally)))
    mover = state.to_move
    if mover in team:
        return ("choose", history, tuple(options))
    return ("ally" if mover in ally else "foe", tuple(options))


def _evaluate(node, chosen: dict, sign: int, reached: set | None = None) -> int:
    """``sign`` x the tree's value under the partial strategy ``chosen``; at an information set not
    yet chosen the player takes the best option for this layout (an upper bound for him).
    ``reached`` collects the information sets that may be reached."""
    kind = node[0]
    if kind == "leaf":
        return sign * node[1]
    if kind == "choose":
        key, options = node[1], node[2]
        if reached is not None:
            reached.add(key)
        if key in chosen:
            options = [o for o in options if o[0] == chosen[key]]
        return max(sign * gain + _evaluate(child, chosen, sign, reached) for _, gain, child in options)
    pick = max if kind == "ally" else min
    return pick(sign * gain + _evaluate(child, chosen, sign, reached) for _, gain, child in node[1])


def _information_sets(trees) -> list[tuple[tuple, tuple[str, ...]]]:
    """Every information set where the player has more than one card to choose from, earliest first."""
    found: dict = {}

    def walk(node) -> None:
        if node[0] == "leaf":
            return
        if node[0] == "choose":
            if len(node[2]) > 1:
                found[node[1]] = tuple(code for code, _, _ in node[2])
            for _, _, child in node[2]:
                walk(child)
        else:
            for _, _, child in node[1]:
                walk(child)

    for tree in trees:
        walk(tree)
    return sorted(found.items(), key=lambda item: (len(item[0]), item[0]))


def _trees_after(current: Layout, seat: str, layouts: list[Layout], code: str) -> list:
    """Each layout's tree after ``seat``'s first move ``code`` (as a node with that one option)."""
    counted = counted_seat(current, seat)
    side = current.rules.side_of(counted)
    team = {seat}
    if current.contract.is_misere and seat != current.declarer:  # the defenders see each other
        team |= set(current.seats) - {current.declarer}
    # His partners: the players counted with him (in Preferans the defenders play together against
    # the declarer, though the rules name no partnerships).
    his_side = set(side) if seat in side else set(current.seats) - set(side)
    ally = his_side - team
    trees = []
    for layout in layouts:
        move = next(m for m in layout.moves() if m.code == code)
        child = layout.play(move)
        trees.append(("ally", ((code, _gain(layout, child, move, side),
                                _game_tree(child, team, (code,), counted, ally)),)))
    return trees


def _branch_and_bound(trees: list, sets: list, sign: int) -> int:
    """The best total over the trees of a pure strategy (``sign`` x the value), by branch and bound."""
    keys_of = []
    for tree in trees:
        keys: set = set()
        _evaluate(tree, {}, sign, keys)
        keys_of.append(keys)
    trees_with = {key: [i for i, keys in enumerate(keys_of) if key in keys] for key, _ in sets}
    best = None

    def search(k: int, chosen: dict, values: list[int], reached: list[set]) -> None:
        nonlocal best
        if best is not None and sum(values) <= best:
            return
        anywhere = set().union(*reached)
        while k < len(sets) and sets[k][0] not in anywhere:  # unreachable now: nothing to choose
            k += 1
        if k == len(sets):
            best = sum(values)
            return
        key, options = sets[k]
        branches = []
        for option in options:
            now = {**chosen, key: option}
            child_values, child_reached = list(values), list(reached)
            for i in trees_with[key]:
                seen: set = set()
                child_values[i] = _evaluate(trees[i], now, sign, seen)
                child_reached[i] = seen
            branches.append((sum(child_values), now, child_values, child_reached))
        for _, now, child_values, child_reached in sorted(branches, key=lambda b: -b[0]):
            search(k + 1, now, child_values, child_reached)

    start_reached = [set(keys) for keys in keys_of]
    search(0, {}, [_evaluate(t, {}, sign) for t in trees], start_reached)
    return best


def best_strategy_values(current: Layout, seat: str, layouts: list[Layout], *,
                         literal: bool = False) -> dict[str, Fraction]:
    """For each legal first move of ``seat``: the value (declarer's side's mean over ``layouts``) of
    his best pure strategy starting with it.

    Branch and bound over his information sets: a partial strategy's bound lets him choose per
    layout where he has not chosen yet; a set no longer reachable is not branched on. ``literal``:
    instead, every combination of choices (every pure strategy) is evaluated, for small endings.
    """
    sign = 1 if wants_more(current, seat) else -1
    values = {}
    for code in (m.code for m in current.moves()):
        trees = _trees_after(current, seat, layouts, code)
        sets = _information_sets(trees)
        if literal:
            best = max(sum(_evaluate(t, dict(zip((k for k, _ in sets), choice)), sign) for t in trees)
                       for choice in itertools.product(*(options for _, options in sets)))
        else:
            best = _branch_and_bound(trees, sets, sign)
        values[code] = Fraction(sign * best, len(layouts))
    return values


# -- random endings of the three games -------------------------------------------------------------


def random_ending(rng: random.Random, game: str, cards: int, kind: str = "tricks", discard: bool = False) -> Layout:
    """A random ending of ``game`` with ``cards`` a hand, at a trick's first lead. Preferans:
    ``kind`` ``tricks`` (a trick contract, trumps or no-trump), ``misere`` or ``allpass``;
    ``discard``: the declarer's discard (two cards out of play) and the talon he showed (two of his
    cards or of the discard) are written in the layout."""
    rules = GAMES[game]
    seats = rules.seats
    dealt = rng.sample(list(rules.deck), cards * len(seats) + 2 * discard)
    hands = {seat: dealt[i * cards:(i + 1) * cards] for i, seat in enumerate(seats)}
    declarer, lead = rng.choice(seats), rng.choice(seats)
    extra = ""
    if game == "preferans":
        head = {"misere": "contract=misere", "allpass": "contract=allpass"}.get(
            kind, f"contract=6{rng.choice('scdhn')}")
        if discard:
            thrown = dealt[-2:]
            talon = rng.sample(hands[declarer] + thrown, 2)
            extra = f" talon={talon[0].code},{talon[1].code} discard={thrown[0].code},{thrown[1].code}"
    elif game == "whist":
        head = f"game=whist contract={rng.choice('scdhn')}"
    else:
        head = "game=thousand bid=100"
        if rng.random() < 0.5:  # a trump already declared
            head += f" trump={rng.choice('scdh')}"
        won = [s for s in seats if rng.random() < 0.5]
        if won:  # these may declare a marriage when on lead
            head += " won=" + ",".join(won)
    if kind != "allpass":
        head += f" declarer={declarer}"
    hand_text = " ".join(f"{s}=" + ",".join(c.code for c in h) for s, h in hands.items())
    return parse_layout(f"{head} lead={lead}{extra} {hand_text}")


def random_case(rng: random.Random, game: str, cards: int, hidden: int, kind: str = "tricks",
                discard: bool = False):
    """A random ending of ``cards + 1`` cards a hand after 1 to ``seats`` random moves (so voids
    may have shown), the player to move and the hands he is told he sees (all but ``hidden`` of
    the others; the rules may open more). With ``discard`` the player is not the declarer."""
    while True:
        start = random_ending(rng, game, cards + 1, kind, discard)
        moves = []
        layout = start
        for _ in range(rng.randrange(1, len(start.seats) + 1)):
            moves.append(rng.choice(layout.legal_cards()))
            layout = layout.after(moves[-1])
        seat = layout.to_move
        if not discard or seat != start.declarer:
            break
    others = [s for s in layout.seats if s != seat]
    sees = tuple(sorted(rng.sample(others, len(others) - hidden)))
    return start, tuple(moves), seat, sees


def code_of(key) -> str:
    return getattr(key, "code", str(key))


def check_against_oracle(start: Layout, moves, seat: str, sees, **options):
    """``advise`` equals the oracle's averaged answer exactly (every consistent layout solved)."""
    current, layouts = known_to(start, moves, seat, sees)
    oracle = Averaged(current, seat, layouts)
    advice = advise(start, seat, sees, moves=moves, **options)
    context = (format_one_line(start), [code_of(m) for m in moves], seat, sees)
    assert advice.exact, context
    assert advice.layouts == oracle.count, context
    assert advice.solved == oracle.count, context
    cards = {code_of(k): v for k, v in advice.cards.items()}
    assert set(cards) == set(oracle.expected), context
    for code, card in cards.items():
        assert card.expected == pytest.approx(float(oracle.expected[code]), abs=1e-9), (code, context)
        distribution = {float(k): p for k, p in card.distribution.items()}
        assert distribution == pytest.approx({float(v): float(p) for v, p in oracle.distribution[code].items()},
                                             abs=1e-9), (code, context)
        assert card.interval is None, (code, context)
        assert card.cost == pytest.approx(float(oracle.cost[code]), abs=1e-9), (code, context)
    assert code_of(advice.best) in oracle.best, context
    return advice, oracle, current


# -- 1. every card visible: the double-dummy values --------------------------------------------


@pytest.mark.parametrize("game,kind", [("preferans", "tricks"), ("preferans", "misere"),
                                       ("whist", "tricks"), ("thousand", "points")])
def test_every_card_visible_gives_the_double_dummy_values(game, kind):
    """The issue's first correctness rule; the values are ``solve``'s per-card values (the engine's)."""
    rng = random.Random(f"visible {game} {kind}")
    for _ in range(4):
        start, moves, seat, _ = random_case(rng, game, rng.randrange(2, 5), 0, kind)
        current, _ = replay(start, moves)
        sees = tuple(s for s in current.seats if s != seat)
        advice = advise(start, seat, sees, moves=moves)
        solution = solve(current, line=False)
        assert advice.exact and advice.layouts == 1 and advice.solved == 1
        expected = {code_of(k): v for k, v in solution.cards.items()}
        cards = {code_of(k): v for k, v in advice.cards.items()}
        assert {code: c.expected for code, c in cards.items()} == expected, format_one_line(start)
        for code, card in cards.items():
            assert {float(k): p for k, p in card.distribution.items()} == {expected[code]: 1.0}


# -- 2. the averaged value over every consistent layout ------------------------------------------

#: (game, kind, hands hidden from the player, a discard he does not know). In the three-handed
#: games one hidden hand leaves nothing unknown (the counts fix it) unless the discard is unseen;
#: in misère the defenders play open (so the declarer sees them, and a defender sees his partner).
CASES = [("preferans", "tricks", 1, False), ("preferans", "tricks", 2, False),
         ("preferans", "tricks", 1, True), ("preferans", "tricks", 2, True),
         ("preferans", "misere", 2, False), ("preferans", "misere", 2, True),
         ("preferans", "allpass", 2, False),
         ("whist", "tricks", 1, False), ("whist", "tricks", 2, False), ("whist", "tricks", 3, False),
         ("thousand", "points", 2, False)]


def _case_cards(game: str, hidden: int, discard: bool) -> tuple[int, ...]:
    if game == "whist" and hidden == 3:
        return (1, 2)
    return (2, 3) if discard and hidden == 2 else (2, 3, 4)


@pytest.mark.parametrize("game,kind,hidden,discard", CASES)
def test_expectation_is_the_average_over_every_consistent_layout(game, kind, hidden, discard):
    """Random small endings after a few random cards (voids shown), 2-4 cards a hand."""
    check_random_endings(f"average {game} {kind} {hidden} {discard}", 3, game, kind, hidden, discard)


def check_random_endings(seed: str, count: int, game, kind, hidden, discard) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        start, moves, seat, sees = random_case(rng, game, rng.choice(_case_cards(game, hidden, discard)),
                                               hidden, kind, discard)
        check_against_oracle(start, moves, seat, sees)


def test_shown_voids_are_applied():
    """A hand-made case: West did not follow hearts and did not trump (6♠ contract), so he has shown
    he has neither hearts nor spades; the oracle and ``advise`` both count 3 layouts, not 6."""
    start = parse_layout("contract=6s declarer=S lead=S S=Ah,7c,8c W=Ac,Kc,9d E=Kh,Qs,Td")
    cards = [parse_card(code, start.rules.deck) for code in ("Ah", "9d", "Kh")]
    current, voids = replay(start, cards)
    hearts, spades = cards[0].suit_number, parse_card("Qs", start.rules.deck).suit_number
    assert voids == {"S": set(), "W": {hearts, spades}, "E": set()}
    # Unseen: Ac Kc Qs Td, two to each of W and E; W may not hold Qs.
    assert len(known_to(start, cards, "S")[1]) == 3
    advice, _, _ = check_against_oracle(start, cards, "S", ())
    assert advice.layouts == 3


def test_unseen_discard_and_shown_talon():
    """A defender does not see the declarer's discard, but saw the talon: the talon cards lie in the
    declarer's hand or in his discard. West sees no hand: East's 2 cards, South's 2 and the discard's
    2 are unknown to him (6! / (2! 2! 2!) = 90 ways), but the talon's ♥A and ♦A cannot be East's:
    East holds 2 of the other 4 cards (6 ways), South and the discard share the rest (6): 36."""
    start = parse_layout("contract=6s declarer=S lead=W talon=Ah,Ad discard=Ad,7h "
                         "S=Ah,7s W=8h,8d E=9h,9d")
    assert len(known_to(start, (), "W")[1]) == 36
    advice, _, _ = check_against_oracle(start, (), "W", ())
    assert advice.layouts == 36


def test_touching_cards_are_judged_by_what_the_player_knows():
    """East holds ♦J ♦10 ♦7; the ♦9 is in the discard, which East cannot see: it may as well be in
    South's hand, so the ♦10 and the ♦7 are not the same card to him. Over the 15 layouts (the
    oracle) the ♦7 forces 14/15 of a trick on South, the ♦10 and ♦J 26/15. (Found by the slow sweep:
    ``advise`` took touching cards from the real layout, where the ♦9 is out of play.)"""
    start = parse_layout("contract=misere declarer=S lead=W S=Ts,Qc,Tc,8h W=Ks,8s,7c,Qh E=Jd,Td,7d,Kh "
                         "talon=Qc,Tc discard=9h,9d")
    moves = [parse_card("7c", start.rules.deck)]
    _, oracle, _ = check_against_oracle(start, moves, "E", ())
    assert oracle.count == 15
    assert oracle.expected["7d"] == Fraction(14, 15) and oracle.expected["Td"] == Fraction(26, 15)


@pytest.mark.slow
@pytest.mark.parametrize("game,kind,hidden,discard", CASES)
def test_expectation_on_many_random_endings(game, kind, hidden, discard):
    check_random_endings(f"average many {game} {kind} {hidden} {discard}", 25, game, kind, hidden, discard)


# -- 3. the best single strategy ------------------------------------------------------------------


def strategy_case(seed: int):
    """A tiny ending where the advised player holds 3 cards (one later decision): in the first trick
    of a 3-card ending, or after one trick of a 4-card one. The declarer, alone on his side, seeing
    no other hand (a trick contract), or a misère defender not knowing the declarer's discard (the
    defenders play open: both decide knowing the same)."""
    rng = random.Random(f"strategy {seed}")
    game, kind = [("preferans", "tricks"), ("preferans", "misere")][seed % 2]
    while True:
        cards = rng.choice((3, 4))
        start = random_ending(rng, game, cards, kind, discard=kind == "misere")
        layout, moves = start, []
        for _ in range(len(start.seats) if cards == 4 else rng.randrange(len(start.seats))):
            moves.append(rng.choice(layout.legal_cards()))
            layout = layout.after(moves[-1])
        if (layout.to_move == start.declarer) != (kind == "misere"):
            return start, tuple(moves), layout.to_move, ()


def test_the_branch_and_bound_equals_every_pure_strategy_enumerated():
    """The oracle's own check: its branch and bound against the literal enumeration of every pure
    strategy, on endings small enough to enumerate them all."""
    compared = 0
    for seed in range(40):
        start, moves, seat, sees = strategy_case(seed)
        current, layouts = known_to(start, moves, seat, sees)
        trees = [_trees_after(current, seat, layouts, m.code) for m in current.moves()]
        if max(len(_information_sets(t)) for t in trees) > 10:
            continue
        assert best_strategy_values(current, seat, layouts) == best_strategy_values(
            current, seat, layouts, literal=True)
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def partner_strategy_case(seed: int):
    """A tiny ending where the advised player has a partner who sees every card: a Preferans
    defender of a trick contract seeing neither hand, or a Whist player seeing one other hand. He
    holds 3 cards, in the first trick of a 3-card ending or after one trick of a 4-card one."""
    rng = random.Random(f"partner strategy {seed}")
    game = ("preferans", "whist")[seed % 2]
    while True:
        cards = rng.choice((3, 4))
        start = random_ending(rng, game, cards)
        layout, moves = start, []
        for _ in range(len(start.seats) if cards == 4 else rng.randrange(len(start.seats))):
            moves.append(rng.choice(layout.legal_cards()))
            layout = layout.after(moves[-1])
        seat = layout.to_move
        if game == "preferans" and seat != start.declarer:
            return start, tuple(moves), seat, ()
        if game == "whist":
            return start, tuple(moves), seat, (rng.choice([s for s in start.seats if s != seat]),)


def thousand_strategy_case(seed: int):
    """A tiny Thousand ending (card points, marriages that may be declared on a lead), the player to
    move seeing no other hand, holding 3 cards as in :func:`strategy_case`."""
    rng = random.Random(f"thousand strategy {seed}")
    cards = rng.choice((3, 4))
    start = random_ending(rng, "thousand", cards, "points")
    layout, moves = start, []
    for _ in range(len(start.seats) if cards == 4 else rng.randrange(len(start.seats))):
        moves.append(rng.choice(layout.legal_cards()))
        layout = layout.after(moves[-1])
    return start, tuple(moves), layout.to_move, ()


def check_strategy(seeds, case=strategy_case, most: int = 10) -> tuple[int, int]:
    """``Advice.strategy`` (asked for: ``strategy="always"``) equals the brute force's best pure
    strategy per card and is never better for the player than the averaged value. Only endings of
    at most ``most`` consistent layouts (the brute force's cost grows fast with them). Returns
    how many endings were checked and on how many cards the two values differed."""
    checked = differ = 0
    for seed in seeds:
        start, moves, seat, sees = case(seed)
        current, layouts = known_to(start, moves, seat, sees)
        if len(layouts) > most:
            continue
        advice, oracle, current = check_against_oracle(start, moves, seat, sees, strategy="always")
        expected = best_strategy_values(current, seat, oracle.layouts)
        assert advice.strategy is not None, format_one_line(start)
        strategy = {code_of(k): v for k, v in advice.strategy.items()}
        assert strategy == pytest.approx({c: float(v) for c, v in expected.items()}, abs=1e-9)
        sign = 1 if wants_more(current, seat) else -1
        for code, value in expected.items():
            assert sign * value <= sign * oracle.expected[code]
            differ += value != oracle.expected[code]
        checked += 1
    return checked, differ


def test_single_strategy_value_matches_the_brute_force():
    """Tiny endings of a trick contract and of the misère defence; on one of them (seed 1: 6
    layouts) the single strategy is worth less than the average, so the comparison has teeth."""
    checked, differ = check_strategy(range(12))
    assert checked >= 6 and differ


@pytest.mark.slow
def test_single_strategy_value_on_many_tiny_endings():
    checked, _ = check_strategy(range(12, 120))
    assert checked >= 40


def test_single_strategy_value_with_a_partner_matches_the_brute_force():
    """The partner sees every card and plays to help (a Preferans defender's, a Whist player's);
    on seed 20 (a Preferans defender, 20 layouts) one plan is worth less than the average."""
    checked, differ = check_strategy((1, 2, 4, 5, 20), partner_strategy_case, most=20)
    assert checked == 5 and differ


@pytest.mark.slow
def test_single_strategy_value_with_a_partner_on_many_endings():
    # Seed 23 (Whist, 20 layouts) left out: the brute force's branch and bound takes minutes on it.
    checked, differ = check_strategy([s for s in range(6, 80) if s != 23], partner_strategy_case, most=20)
    assert checked >= 60 and differ


def test_single_strategy_value_in_thousand_matches_the_brute_force():
    """Points and declarations; on seeds 2 and 9 one plan is worth less than the average."""
    checked, differ = check_strategy((1, 2, 8, 9, 12), thousand_strategy_case, most=20)
    assert checked == 5 and differ


@pytest.mark.slow
def test_single_strategy_value_in_thousand_on_many_endings():
    # Seeds 24 and 32 left out: the brute force's branch and bound takes minutes on them.
    checked, differ = check_strategy([s for s in range(13, 60) if s not in (24, 32)], thousand_strategy_case,
                                     most=20)
    assert checked >= 40 and differ


# -- 4. sampling -----------------------------------------------------------------------------------

#: Preferans, 4 cards a hand, South (declarer, 6♥) to lead, seeing neither hand: C(8,4) = 70 layouts.
SAMPLED = "contract=6h declarer=S lead=S S=Ah,Kh,As,7d W=Qh,8h,Ks,8d E=9h,Qs,Ad,Kd"


def test_a_fixed_seed_reproduces_the_sample():
    start = parse_layout(SAMPLED)
    first = advise(start, "S", exact_limit=10, samples=25, seed=7)
    again = advise(start, "S", exact_limit=10, samples=25, seed=7)
    other = advise(start, "S", exact_limit=10, samples=25, seed=8)
    assert not first.exact and first.layouts == 70 and first.solved == 25
    strip = [{k: v for k, v in a.to_json().items() if k != "seconds"} for a in (first, again, other)]
    assert strip[0] == strip[1]
    assert strip[0] != strip[2]
    assert all(c.interval is not None for c in first.cards.values())


def test_the_95_percent_interval_covers_the_exact_value():
    """The issue: over 200 checks (seeds 0-199) each card's 95% interval holds the exact mean,
    computed here by the oracle, at least 190 times. Two of the cards have a skewed distribution
    (the lower value in 3 layouts of 35), where an interval from the normal approximation with the
    sample's variance covers less often (and has no width when every sample agrees)."""
    start = parse_layout(SAMPLED)
    exact = Averaged(start, "S", known_to(start, (), "S")[1]).expected
    covered: Counter = Counter()
    for seed in range(200):
        # (strategy="never": only the averages' intervals are checked here)
        advice = advise(start, "S", exact_limit=10, samples=30, seed=seed, strategy="never")
        assert not advice.exact
        for key, card in advice.cards.items():
            low, high = card.interval
            covered[code_of(key)] += low - 1e-9 <= exact[code_of(key)] <= high + 1e-9
    assert set(covered) == set(exact)
    assert all(times >= 190 for times in covered.values()), dict(covered)


# -- 5. the command line ---------------------------------------------------------------------------

ENDING = "contract=6s declarer=S lead=W S=As,7c,8c W=Ac,Kc,9d E=Kh,Qs,Td"


def run(*args: str):
    return CliRunner().invoke(main, ["advise", *args])


def test_cli_json_has_the_issue_keys_and_the_oracle_values():
    result = run(ENDING, "--seat", "W", "--sees", "E", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert {"layouts", "exact", "cards", "best", "seconds"} <= set(answer)
    layout = parse_layout(ENDING)
    oracle = Averaged(layout, "W", known_to(layout, (), "W", ("E",))[1])
    assert answer["layouts"] == oracle.count == 1
    assert answer["exact"] is True
    assert set(answer["cards"]) == set(oracle.expected)
    for code, card in answer["cards"].items():
        assert card["expected"] == pytest.approx(float(oracle.expected[code]))
        assert {int(float(v)): p for v, p in card["distribution"].items()} == pytest.approx(
            {v: float(p) for v, p in oracle.distribution[code].items()})
    assert answer["best"] in oracle.best


def test_cli_json_hidden_hand():
    result = run(ENDING, "--seat", "W", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    layout = parse_layout(ENDING)
    oracle = Averaged(layout, "W", known_to(layout, (), "W")[1])
    assert answer["layouts"] == oracle.count == 20
    for code, card in answer["cards"].items():
        assert card["expected"] == pytest.approx(float(oracle.expected[code]))


def test_cli_text_names_the_best_card():
    result = run(ENDING, "--seat", "W")
    assert result.exit_code == 0, result.output
    assert "best" in result.stdout.lower()


@pytest.mark.parametrize("args,token", [
    (["--seat", "E"], "E"),                       # not East's turn: West leads
    (["--seat", "N"], "N"),                       # no such seat in Preferans
    (["--seat", "W", "--sees", "W"], "W"),        # his own hand
    (["--seat", "W", "--sees", "X"], "X"),
    (["--seat", "W", "--samples", "0"], "0"),
    (["--seat", "W", "--samples", "-5"], "-5"),
    (["--seat", "W", "--exact-limit", "-1"], "-1"),
    (["--seat", "W", "--seed", "abc"], "abc"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, token):
    result = run(ENDING, *args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert token in lines[0], lines[0]
    assert result.stdout == ""


def test_seat_not_to_move_is_a_value_error():
    with pytest.raises(ValueError, match="E"):
        advise(parse_layout(ENDING), "E")
