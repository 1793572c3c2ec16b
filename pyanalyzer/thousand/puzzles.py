"""Thousand puzzles for ``pref puzzles``: make the bid, when to declare, the exchange.

Kinds (the CLI names):

* ``thousand-play`` -- South, the declarer, to play: exactly one move (up to
  equivalent cards) makes the bid;
* ``thousand-marriage`` -- South on lead may declare a marriage: declare one
  now (which, when he holds two), or play on (declaring later, or not at
  all)? Exactly one of these choices makes the bid (:func:`choice_of`);
* ``thousand-exchange`` -- South has taken the talon: which card to give West
  and which East? Exactly one pair of cards (up to equivalent cards) makes
  the bid.

The deal: South holds a marriage (the king and queen of a random suit), the
other cards fall at random (8 each; for the exchange 7 each and 3 in the
talon). The bid is the declarer's double-dummy points for the deal rounded
down to a multiple of 5, at least 100 (a deal worth less is dropped): with
best play he makes it, and the puzzle asks for the one way to. A play or
marriage question is asked on the deal's best line: the deal is played along
it to the trick asked for (``--tricks``: the tricks left), so the trump, the
tricks won and the points scored so far come from real play.

Uniqueness is proven with the engine: every legal move (every give-away of
one card to each opponent) is solved. Moves are equivalent when they are the
same card run of South's hand (touching cards: no card of another hand
between them), the same kind of lead (declaring or not) and worth the same;
two give-aways when they give the same two runs (to either opponent).

The rating (:class:`~pyanalyzer.preferans.puzzles.Rating`) counts as the
Preferans kinds do, in points: an alternative is ``close`` when it misses the
bid by at most 10 points, ``by_a_lot`` otherwise. The natural choices: for a
move ``highest``, ``lowest``, ``longest suit`` and ``declare at once`` (the
biggest marriage, when South may declare); for the marriage ``declare at
once``; for the exchange ``two lowest`` (the two cards of fewest points) and
``shortest suit``. ``depth`` is the last trick of the best line in which South
again has a single way to make the bid.

Generation is deterministic per seed and attempt, as for the Preferans kinds
(:func:`~pyanalyzer.preferans.puzzles.attempt_rng`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import POINTS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_layout_file, format_one_line, parse_layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import format_card, format_move
from pyanalyzer.model.rules import THOUSAND_RULES
from pyanalyzer.preferans.puzzles import (
    BANDS,
    REGISTERED_KINDS,
    Constraint,
    Order,
    Puzzle,
    PuzzleKind,
    Rating,
    attempt_rng,
)
from pyanalyzer.thousand.review import declarer_total, exchange_layouts

PLAY, MARRIAGE, EXCHANGE = "thousand-play", "thousand-marriage", "thousand-exchange"
THOUSAND_KINDS = (PLAY, MARRIAGE, EXCHANGE)
#: The tricks left at the question when ``--tricks`` is not given.
DEFAULT_TRICKS = {PLAY: (3, 6), MARRIAGE: (5, 7), EXCHANGE: (8, 8)}
#: A wrong choice that misses the bid by at most this many points is a close (tempting) one.
CLOSE_POINTS = 10
DECLARER = "S"
PLAY_ON = "play on"


def bid_for(points: int, rules=THOUSAND_RULES) -> int | None:
    """The bid a deal worth ``points`` to the declarer is set at: rounded down to the bids'
    step, None when below the lowest bid.

    >>> bid_for(127), bid_for(99), bid_for(100)
    (125, None, 100)
    """
    low, step, _plain = rules.bid_range
    bid = points - (points - low) % step
    return bid if bid >= low else None


# -- the puzzle --------------------------------------------------------------


@dataclass
class ThousandPuzzle(Puzzle):
    """A Thousand puzzle: the answer is a move, a choice (declare or play on) or a give-away.

    ``answer`` holds the answer's cards (the move's card; the cards given to West and East);
    ``moves`` the answer's moves (the good ones of an equivalent class, or of the choice);
    ``choice`` the marriage answer (``declare h``, ``play on``: :func:`choice_of`); ``gave`` the
    give-away.
    """

    moves: list[Move] = field(default_factory=list)
    choice: str | None = None
    gave: dict[str, Card] = field(default_factory=dict)
    #: Other give-aways of the answer's class that make the bid too (exchange).
    good_gives: list[tuple[Card, Card]] = field(default_factory=list)

    @property
    def bid(self) -> int:
        return self.layout.contract.bid

    @property
    def answer_text(self) -> str:
        if self.kind == MARRIAGE:
            leads = " or ".join(format_move(m) for m in self.moves)
            return f"{choice_text(self.choice)} ({'lead ' if self.choice != PLAY_ON else ''}{leads})"
        if self.kind == EXCHANGE:
            return f"{format_card(self.gave['W'])} to West, {format_card(self.gave['E'])} to East"
        return format_move(self.moves[0])

    @property
    def equivalent_text(self) -> str:
        if self.kind == EXCHANGE:
            others = [(w, e) for w, e in self.good_gives if (w, e) != (self.gave["W"], self.gave["E"])]
            if not others:
                return ""
            return " (or " + ", ".join(f"{format_card(w)} to West, {format_card(e)} to East"
                                       for w, e in others) + ": the same)"
        if self.kind == PLAY and len(self.moves) > 1:
            return " (or " + " ".join(format_move(m) for m in self.moves[1:]) + ": the same)"
        return ""

    def result_text(self, value: int) -> str:
        verdict = "makes the bid" if value >= self.bid else f"fails by {self.bid - value}"
        return f"declarer makes {value}: {verdict}"

    def file_text(self, number: int | None = None) -> str:
        lines = [f"# {self.question}"]
        lines.append(format_layout_file(self.layout).rstrip("\n"))
        lines.append(f"# solution: {self.answer_text}{self.equivalent_text} ({self.result_text(self.value)})")
        for wrong, value in self.refutations.items():
            lines.append(f"#   {_wrong_text(self.kind, wrong)}: {self.result_text(value)}")
        if self.line:
            lines.append("# best line: " + " ".join(format_move(m) for m in self.line))
        lines.append(f"# rating: {rating_text(self.rating)}")
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict:
        record = super().to_dict()
        record.update({
            "answer": self.answer_code,
            "equivalent": [m.code for m in self.moves] if self.kind != EXCHANGE else
            sorted({c.code for pair in self.good_gives for c in pair}),
            "line": [m.code for m in self.line],
            "bid": self.bid,
        })
        if self.kind == MARRIAGE:
            record["choice"] = self.choice
        if self.kind == EXCHANGE:
            record["gave"] = {seat: card.code for seat, card in self.gave.items()}
            record["good_gives"] = [[w.code, e.code] for w, e in self.good_gives]
        return record

    @property
    def answer_code(self) -> str:
        """The answer as the JSON record writes it: ``Kh+``, ``declare h``, ``Js 9c`` (West's, East's)."""
        if self.kind == MARRIAGE:
            return self.choice
        if self.kind == EXCHANGE:
            return f"{self.gave['W'].code} {self.gave['E'].code}"
        return self.moves[0].code


def rating_text(rating: Rating) -> str:
    """The rating in words, in points (:meth:`Rating.describe` counts tricks)."""
    failing = ", ".join(rating.heuristics_failing) or "none"
    fail = "1 alternative fails" if rating.alternatives == 1 else f"{rating.alternatives} alternatives fail"
    later = rating.depth - 1
    clear = ("at the question itself" if not later
             else f"{later} trick{'s' if later != 1 else ''} after the question")
    return (f"{rating.band} (score {rating.score}): {fail}, {rating.close} by {CLOSE_POINTS} points or less, "
            f"{rating.by_a_lot} by more; natural choices that fail: {failing}; the point is clear {clear}")


def _wrong_text(kind: str, wrong: str) -> str:
    """A refutation's key in words: ``♠A``, ``♥K+``, ``play on``, ``♠A to West, ♣9 to East``."""
    deck = THOUSAND_RULES.deck
    if kind == MARRIAGE:
        return choice_text(wrong)
    if kind == EXCHANGE:
        west, east = (Card(code, deck) for code in wrong.split("+"))
        return f"{format_card(west)} to West, {format_card(east)} to East"
    declare = wrong.endswith("+")
    return format_move(Move(Card(wrong.rstrip("+"), deck), declare))


# -- judging a position ------------------------------------------------------


def move_values(layout: Layout, backend) -> dict[Move, int]:
    """Each legal move's value: the declarer's points for the deal after it, with best play."""
    deck = layout.rules.deck
    scored = layout.scored.get(layout.declarer, 0)
    return {Move.from_engine(deck, m): scored + v for m, v in backend.card_values(layout.position()).items()}


def _run_of(card: Card, hand: list[Card], in_play: int) -> int:
    """The lowest card number of the run of touching cards of ``hand`` holding ``card``: no card
    still in play in another hand (or on the table) lies between."""
    own = 0
    for c in hand:
        own |= c.mask
    run = card.index
    for other in sorted((c for c in hand if c.suit_number == card.suit_number and c.index < card.index),
                        key=lambda c: -c.index):
        between = in_play & ~own & ((1 << run) - 1) & ~((1 << (other.index + 1)) - 1)
        if between:
            break
        run = other.index
    return run


def _in_play(layout: Layout) -> int:
    mask = 0
    for hand in layout.hands.values():
        mask |= hand.mask
    for card in layout.played:
        mask |= card.mask
    return mask


def move_classes(layout: Layout, values: dict[Move, int]) -> list[list[Move]]:
    """The moves grouped into equivalent ones (same run, same kind of lead, same value), each
    group in display order, the groups in the order of their first move."""
    hand = list(layout.hands[layout.to_move])
    in_play = _in_play(layout)
    groups: dict[tuple, list[Move]] = {}
    for move in sorted(values, key=lambda m: m.display_key):
        key = (_run_of(move.card, hand, in_play), move.declare, values[move])
        groups.setdefault(key, []).append(move)
    return list(groups.values())


def judge_play(layout: Layout, bid: int, backend, values: dict[Move, int] | None = None):
    """The one class of moves that makes ``bid`` at ``layout``, or None: ``(answer class,
    classes, values)``."""
    values = move_values(layout, backend) if values is None else values
    classes = move_classes(layout, values)
    good = [cl for cl in classes if values[cl[0]] >= bid]
    if len(good) != 1 or len(classes) < 2:
        return None
    return good[0], classes, values


def choice_of(move: Move) -> str:
    """The marriage question's choice a move belongs to: ``declare h`` (the suit of the marriage
    it declares; ``declare aces`` for the four aces) or ``play on`` (any plain card).

    >>> from pyanalyzer.model.cards import THOUSAND
    >>> choice_of(Move(THOUSAND.card("Q", "h"), True)), choice_of(Move(THOUSAND.card("A", "s")))
    ('declare h', 'play on')
    """
    if not move.declare:
        return PLAY_ON
    return "declare aces" if move.card.rank.letter == "A" else f"declare {move.card.suit.letter}"


def choice_text(choice: str) -> str:
    """``declare the ♥ marriage``, ``declare the four aces``, ``play on``."""
    if choice == PLAY_ON:
        return choice
    what = choice.split()[1]
    if what == "aces":
        return "declare the four aces"
    suit = next(s for s in THOUSAND_RULES.deck.suits if s.letter == what)
    return f"declare the {suit.symbol} marriage"


def judge_marriage(layout: Layout, bid: int, backend, values: dict[Move, int] | None = None):
    """Declare now (which marriage) or play on, at ``layout`` (the declarer on lead, free to
    declare): the one choice with a move that makes ``bid``, or None: ``(choice, its good moves,
    {other choice: its best value}, values)``."""
    values = move_values(layout, backend) if values is None else values
    by_choice: dict[str, dict[Move, int]] = {}
    for move, value in values.items():
        by_choice.setdefault(choice_of(move), {})[move] = value
    if PLAY_ON not in by_choice or len(by_choice) < 2:
        return None
    good = [choice for choice, moves in by_choice.items() if max(moves.values()) >= bid]
    if len(good) != 1:
        return None
    choice = good[0]
    chosen = by_choice[choice]
    moves = sorted((m for m, v in chosen.items() if v >= bid), key=lambda m: (-chosen[m], m.display_key))
    others = {other: max(moves_of.values()) for other, moves_of in sorted(by_choice.items()) if other != choice}
    return choice, moves, others, values


def _depth(layout: Layout, line: list[Move], bid: int, backend) -> int:
    """The last trick of ``line`` (from ``layout``) in which the declarer again has a single way
    (class of moves) to make the bid; 1: the question itself."""
    depth, current = 1, layout
    start = layout.tricks_left
    for played, move in enumerate(line):
        if played and current.to_move == current.declarer and len(current.moves()) > 1:
            if judge_play(current, bid, backend) is not None:
                depth = start - current.tricks_left + 1
        current = current.play(move)
    return depth


def _line(layout: Layout, first: Move, backend) -> list[Move]:
    """``first`` and then one best line to the end."""
    after = layout.play(first)
    deck = layout.rules.deck
    rest = [Move.from_engine(deck, m) for m in backend.best_line(after.position())] if after.tricks_left else []
    return [first, *rest]


def _rating(losses: list[int], heuristics_failing: list[str], depth: int) -> Rating:
    return Rating(alternatives=len(losses), close=sum(1 for x in losses if x <= CLOSE_POINTS),
                  by_a_lot=sum(1 for x in losses if x > CLOSE_POINTS),
                  heuristics_failing=heuristics_failing, depth=depth)


def _natural_moves(layout: Layout, values: dict[Move, int]) -> dict[str, Move]:
    """The natural choices among the legal moves (see the module docstring)."""
    hand = list(layout.hands[layout.to_move])
    lengths = {s: sum(1 for c in hand if c.suit_number == s) for s in range(4)}
    plain = [m for m in values if not m.declare]
    natural = {
        "highest": max(plain, key=lambda m: (m.card.rank_number, lengths[m.card.suit_number], m.card.suit_number)),
        "lowest": min(plain, key=lambda m: (m.card.rank_number, -lengths[m.card.suit_number], m.card.suit_number)),
        "longest suit": max(plain, key=lambda m: (lengths[m.card.suit_number], m.card.rank_number)),
    }
    declaring = [m for m in values if m.declare]
    if declaring:
        natural["declare at once"] = max(declaring, key=lambda m: (layout.declaration(m)[1], m.card.rank_number))
    return natural


def play_puzzle(layout: Layout, bid: int, backend) -> ThousandPuzzle | None:
    """The make-the-bid question at ``layout`` (the declarer to move), or None if not unique."""
    verdict = judge_play(layout, bid, backend)
    if verdict is None:
        return None
    answer, classes, values = verdict
    refutations = {cl[0].code: values[cl[0]] for cl in classes if cl is not answer}
    losses = [bid - v for v in refutations.values()]
    failing = [name for name, move in _natural_moves(layout, values).items() if move not in answer]
    line = _line(layout, answer[0], backend)
    rating = _rating(losses, failing, _depth(layout, line, bid, backend))
    return ThousandPuzzle(PLAY, layout, DECLARER, question_text(PLAY, layout), (answer[0].card,),
                          tuple(m.card for m in answer), values[answer[0]], refutations, rating, line,
                          moves=list(answer))


def marriage_puzzle(layout: Layout, bid: int, backend) -> ThousandPuzzle | None:
    """The declare-now-or-play-on question at ``layout``, or None unless one choice alone makes
    the bid."""
    verdict = judge_marriage(layout, bid, backend)
    if verdict is None:
        return None
    choice, good, others, values = verdict
    natural = _natural_moves(layout, values)["declare at once"]
    failing = [] if choice_of(natural) == choice else ["declare at once"]
    line = _line(layout, good[0], backend)
    rating = _rating([bid - v for v in others.values()], failing, _depth(layout, line, bid, backend))
    return ThousandPuzzle(MARRIAGE, layout, DECLARER, question_text(MARRIAGE, layout), (good[0].card,),
                          tuple(m.card for m in good), values[good[0]], others, rating, line,
                          moves=good, choice=choice)


def exchange_puzzle(layout: Layout, backend, bid: int | None = None) -> ThousandPuzzle | None:
    """The which-cards-to-give question for ``layout`` (before the exchange), or None if not
    unique. Without ``bid`` it is set from the best give-away (:func:`bid_for`)."""
    declarer = layout.declarer
    opponents = [s for s in layout.seats if s != declarer]
    values: dict[tuple[Card, Card], int] = {}
    after: dict[tuple[Card, Card], Layout] = {}
    for pair, trial in exchange_layouts(layout):
        values[pair] = declarer_total(trial, backend)
        after[pair] = trial
    if bid is None:
        bid = bid_for(max(values.values()))
        if bid is None:
            return None
    ten = sorted(set(layout.hands[declarer]) | set(layout.talon), key=lambda c: c.index)
    in_play = 0
    for card in ten:
        in_play |= card.mask
    for seat in opponents:
        in_play |= layout.hands[seat].mask

    def key(pair) -> tuple[int, int]:
        return tuple(sorted(_run_of(c, ten, in_play) for c in pair))

    classes: dict[tuple, list[tuple[Card, Card]]] = {}
    for pair in values:
        classes.setdefault(key(pair), []).append(pair)
    good = [k for k, pairs in classes.items() if max(values[p] for p in pairs) >= bid]
    if len(good) != 1 or len(classes) < 2:
        return None
    pairs = sorted(classes[good[0]], key=lambda p: (-values[p], p[0].index, p[1].index))
    best = pairs[0]
    good_gives = [p for p in pairs if values[p] >= bid]
    refutations = {}
    for k, members in classes.items():
        if k == good[0]:
            continue
        top = max(members, key=lambda p: (values[p], -p[0].index, -p[1].index))
        refutations[f"{top[0].code}+{top[1].code}"] = values[top]
    losses = [bid - v for v in refutations.values()]
    points = THOUSAND_RULES.card_points_of
    lengths = {s: sum(1 for c in ten if c.suit_number == s) for s in range(4)}
    natural = {
        "two lowest": sorted(ten, key=lambda c: (points(c), c.rank_number, -lengths[c.suit_number]))[:2],
        "shortest suit": sorted(ten, key=lambda c: (lengths[c.suit_number], points(c)))[:2],
    }
    failing = [name for name, pair in natural.items() if key(tuple(pair)) != good[0]]
    chosen = replace(after[best], contract=Contract(POINTS, bid))
    deck = layout.rules.deck
    line = [Move.from_engine(deck, m) for m in backend.best_line(chosen.position())]
    rating = _rating(losses, failing, _depth(chosen, line, bid, backend))
    puzzle_layout = replace(layout, contract=Contract(POINTS, bid))
    return ThousandPuzzle(EXCHANGE, puzzle_layout, DECLARER, question_text(EXCHANGE, puzzle_layout),
                          best, tuple(sorted({c for p in good_gives for c in p}, key=lambda c: c.index)),
                          values[best], refutations, rating, line, talon=tuple(layout.talon),
                          gave=dict(zip(opponents, best)), good_gives=good_gives)


def question_text(kind: str, layout: Layout) -> str:
    """The question in words: the bid, the trump, who is to play, what is asked."""
    names = layout.rules.seat_name
    bid = layout.contract.bid
    who = names(layout.declarer)
    if kind == EXCHANGE:
        talon = " ".join(format_card(c) for c in layout.talon)
        return (f"Bid {bid} by {who}, talon {talon}: which card does he give West and which East "
                f"to make {bid}?")
    scored = layout.scored.get(layout.declarer, 0)
    trump = layout.current_trump
    state = (f"{trump.symbol} trump" if trump else "no trump yet") + f", {who} has {scored} points"
    left = layout.tricks_left
    tricks = f"{left} trick{'s' if left != 1 else ''} left"
    if kind == MARRIAGE:
        held = sorted({choice_of(m) for m in layout.moves() if m.declare})
        now = (f"{choice_text(held[0])} now" if len(held) == 1
               else "declare a marriage now (which?)")
        return f"Bid {bid} by {who} ({state}, {tricks}), {who} to lead: {now}, or play on?"
    doing = "lead" if not layout.played else "play"
    declaring = ", declaring a marriage or not" if any(m.declare for m in layout.moves()) else ""
    return f"Bid {bid} by {who} ({state}, {tricks}), {who} to {doing}: which card makes the bid{declaring}?"


# -- dealing and attempts ----------------------------------------------------


def _deal(rng: random.Random, kind: str, constraints=()) -> Layout | None:
    """A random deal: South holds the king and queen of a random suit, the cards a ``has``
    constraint asks for are in their hands, the rest at random; before the exchange (7 each and
    the talon) for the exchange kind, else 8 each. None: the constraints cannot be dealt."""
    rules = THOUSAND_RULES
    deck = rules.deck
    suit = deck.suits[rng.randrange(len(deck.suits))]
    marriage = [deck.card("K", suit.letter), deck.card("Q", suit.letter)]
    rest = [c for c in deck if c not in marriage]
    rng.shuffle(rest)
    size = rules.hand_size - 1 if kind == EXCHANGE else rules.hand_size
    placed: dict[str, list[Card]] = {"S": marriage, "W": [], "E": []}
    for constraint in constraints:
        if constraint.kind != "has":
            continue
        for card in constraint.cards:
            if card in placed[constraint.seat]:
                continue
            if any(card in cards for cards in placed.values()):
                return None  # wanted in two hands (or the marriage's card elsewhere)
            rest.remove(card)
            placed[constraint.seat].append(card)
    hands = {}
    for seat in ("S", "W", "E"):
        need = size - len(placed[seat])
        if need < 0:
            return None
        hands[seat] = Hand(placed[seat] + rest[:need], deck)
        del rest[:need]
    talon = tuple(rest) if kind == EXCHANGE else ()
    return Layout(hands, Contract(POINTS, None), DECLARER, DECLARER, talon=talon, rules=rules)


def attempt(order: Order, seed: int, number: int, backend=None) -> ThousandPuzzle | None:
    """Attempt ``number`` of ``seed`` for a Thousand kind: a puzzle, or None. Deterministic."""
    backend = backend or make_backend("fast")
    order = replace(order, constraints=tuple(_in_thousand_cards(c) for c in order.constraints))
    rng = attempt_rng(seed, order.kind, number)
    deal = _deal(rng, order.kind, order.constraints)
    if deal is None:
        return None
    if order.kind == EXCHANGE:
        # The constraints look at the deal as the puzzle shows it: tried before the 90 solves.
        if not _meets(order, deal):
            return None
        puzzle = exchange_puzzle(deal, backend)
    else:
        puzzle = _play_along(deal, order, rng, backend)
    if puzzle is None:
        return None
    if order.band and puzzle.rating.band != order.band:
        return None
    puzzle.attempt = number
    puzzle.key = canonical_key(puzzle)
    return puzzle


def _in_thousand_cards(constraint: Constraint) -> Constraint:
    """A ``has`` constraint's cards (read in the Preferans deck by ``parse_constraint``) as
    Thousand cards (:func:`check_order` has refused those Thousand lacks)."""
    if constraint.kind != "has":
        return constraint
    return replace(constraint, cards=tuple(THOUSAND_RULES.deck.card(c.rank.letter, c.suit.letter)
                                           for c in constraint.cards))


def _meets(order: Order, layout: Layout) -> bool:
    """Does the question's layout meet the constraints? The declarer's cards are his hand, with
    the talon before the exchange. (``tricks N`` is the order's trick range, met by construction:
    the exchange's eight tricks are a deal before it, of seven cards a hand.)"""
    cards = list(layout.hands[DECLARER]) + list(layout.talon)
    return all(c.holds(layout, cards) for c in order.constraints if c.kind != "tricks")


def _play_along(deal: Layout, order: Order, rng: random.Random, backend) -> ThousandPuzzle | None:
    """Play the deal along its best line to the question (see the module docstring)."""
    deck = deal.rules.deck
    bid = bid_for(declarer_total(deal, backend))
    if bid is None:
        return None
    layout = replace(deal, contract=Contract(POINTS, bid))
    line = [Move.from_engine(deck, m) for m in backend.best_line(layout.position())]
    lo, hi = order.tricks
    target = rng.randint(lo, hi)
    current = layout
    for move in line:
        left = current.tricks_left
        if order.kind == PLAY and left == target and current.to_move == DECLARER:
            return play_puzzle(current, bid, backend) if _meets(order, current) else None
        if (order.kind == MARRIAGE and lo <= left <= hi and current.to_move == DECLARER
                and any(m.declare for m in current.moves()) and _meets(order, current)):
            puzzle = marriage_puzzle(current, bid, backend)
            if puzzle is not None:
                return puzzle
        if left < lo:
            break
        current = current.play(move)
    return None


def canonical_key(puzzle: ThousandPuzzle) -> tuple:
    """The puzzle's position (suits are not interchangeable in Thousand: the marriages differ)."""
    layout = replace(puzzle.layout, title=None, source=None)
    return (puzzle.kind, format_one_line(layout))


def check_order(order: Order) -> None:
    """Refuse what a Thousand kind cannot do, in one line naming the option."""
    lo, hi = order.tricks
    if order.kind == EXCHANGE:
        if order.tricks != (8, 8):
            raise LayoutError("thousand-exchange puzzles are full deals: --tricks 8 (or leave it out)",
                              "--tricks")
    elif not 2 <= lo <= hi <= (7 if order.kind == MARRIAGE else 8):
        top = 7 if order.kind == MARRIAGE else 8
        raise LayoutError(f"bad trick range {lo}..{hi} for {order.kind}: tricks left must be 2 to {top}",
                          "--tricks")
    if order.after:
        raise LayoutError(f"--after does not apply to {order.kind}: the deal is played along its best "
                          "line to the trick --tricks asks for", "--after")
    if order.contract:
        raise LayoutError(f"--contract does not apply to {order.kind}: the bid is what the declarer "
                          "can make with best play, rounded down to 5", order.contract)
    if order.band is not None and order.band not in BANDS:
        raise LayoutError(f"unknown difficulty {order.band!r}: choose from {', '.join(BANDS)}", order.band)
    ranks = {rank.letter for rank in THOUSAND_RULES.deck.ranks}
    for c in order.constraints:
        missing = [card.code for card in c.cards if card.rank.letter not in ranks]
        if missing:
            raise LayoutError(f"constraint {c.text!r}: Thousand has no {missing[0]} (its cards are "
                              "A 10 K Q J 9)", c.text)
        if c.kind in ("trumps", "misere-like"):
            raise LayoutError(f"constraint {c.text!r} does not apply to Thousand puzzles: use "
                              "'S has ...', 'S shape ...' or 'tricks N'", c.text)
        if c.kind == "tricks" and order.kind == EXCHANGE and (c.low, c.high) != (8, 8):
            raise LayoutError(f"constraint {c.text!r}: thousand-exchange puzzles are full deals", c.text)
        # South's cards at the question: as many as the tricks left (ten with the talon).
        held = range(10, 11) if order.kind == EXCHANGE else range(lo, hi + 1)
        if c.kind == "shape" and sum(c.shape) not in held:
            raise LayoutError(f"constraint {c.text!r}: the shape has {sum(c.shape)} cards, South holds "
                              f"{held.start}" + (f" to {held.stop - 1}" if len(held) > 1 else ""), c.text)


def verify(puzzle: ThousandPuzzle, backend=None) -> bool:
    """Re-prove from scratch that the puzzle's answer is the only good choice."""
    backend = backend or make_backend("fast")
    bid = puzzle.bid
    if puzzle.kind == EXCHANGE:
        again = exchange_puzzle(puzzle.layout, backend, bid)
        return again is not None and again.gave == puzzle.gave
    if puzzle.kind == MARRIAGE:
        verdict = judge_marriage(puzzle.layout, bid, backend)
        return verdict is not None and verdict[0] == puzzle.choice and puzzle.moves[0] in verdict[1]
    verdict = judge_play(puzzle.layout, bid, backend)
    return verdict is not None and puzzle.moves[0] in verdict[0]


def load_puzzle(record: dict) -> ThousandPuzzle:
    """A Thousand puzzle back from its JSON record (the rating is taken as recorded)."""
    layout = parse_layout(record["layout"])
    deck = layout.rules.deck
    r = record["rating"]
    rating = Rating(r["alternatives"], r["close"], r["by_a_lot"], r["heuristics_failing"], r["depth"])
    kind = record["kind"]

    def move(code: str) -> Move:
        return Move(Card(code.rstrip("+"), deck), code.endswith("+"))

    line = [move(code) for code in record["line"]]
    talon = tuple(Card(code, deck) for code in record.get("talon", []))
    if kind == EXCHANGE:
        gave = {seat: Card(code, deck) for seat, code in record["gave"].items()}
        good_gives = [(Card(w, deck), Card(e, deck)) for w, e in record["good_gives"]]
        answer = (gave["W"], gave["E"])
        equivalent = tuple(Card(code, deck) for code in record["equivalent"])
        return ThousandPuzzle(kind, layout, DECLARER, record["question"], answer, equivalent, record["value"],
                              record["refutations"], rating, line, talon=talon,
                              attempt=record.get("attempt", 0), gave=gave, good_gives=good_gives)
    moves = [move(code) for code in record["equivalent"]]
    return ThousandPuzzle(kind, layout, DECLARER, record["question"], (moves[0].card,),
                          tuple(m.card for m in moves), record["value"], record["refutations"], rating,
                          line, talon=talon, attempt=record.get("attempt", 0), moves=moves,
                          choice=record.get("choice"))


def solution_line(record: dict) -> str:
    """One line of ``solutions.txt`` for a Thousand puzzle record."""
    puzzle = load_puzzle(record)
    wrong = ", ".join(f"{_wrong_text(puzzle.kind, k)} -> {v}" for k, v in record["refutations"].items())
    return (f"{puzzle.answer_text}{puzzle.equivalent_text}  (bid {record['bid']}, result {record['value']}; "
            f"wrong: {wrong}; {record['rating']['band']}, score {record['rating']['score']})")


REGISTERED_KINDS.update({kind: PuzzleKind(attempt=attempt, load=load_puzzle, check_order=check_order,
                                          key=canonical_key, verify=verify, solution_line=solution_line,
                                          default_tricks=DEFAULT_TRICKS[kind], game="Thousand")
                         for kind in THOUSAND_KINDS})
