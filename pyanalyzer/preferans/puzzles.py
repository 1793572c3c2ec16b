"""Puzzle sets: random layouts whose question has one provably unique answer, rated and printed.

Kinds (the CLI names):

* ``misere`` -- catch the misère: the defenders to play, exactly one card
  (up to equivalent cards) still catches the declarer;
* ``contract`` -- the declarer to play, exactly one card takes his best number
  of tricks (on a full deal the contract level is set to that number);
* ``defend`` -- a defender to play, exactly one card holds the declarer to his
  least number of tricks (on a full deal the contract is set one above it,
  so only that card sets the contract);
* ``allpass`` -- all-pass without a talon, the player to move: exactly one card
  keeps his guaranteed minimum of tricks;
* ``discard`` -- the declarer picks up the talon: exactly one discard class
  (touching cards are equivalent, :func:`~pyanalyzer.preferans.makeable.discard_classes`)
  makes the most tricks, or keeps the misère clean.

Uniqueness is proven with the engine: every legal card (every discard class)
is solved; cards that differ only by touching cards
(:func:`~pyanalyzer.preferans.defence.distinct_cards`) count once.

Difficulty rating (:class:`Rating`), in terms a player would recognise:

* ``alternatives`` -- the legal choices besides the answer (all of them fail);
* ``close`` -- of those, how many fail by only one trick (the tempting ones);
* ``by_a_lot`` -- how many fail by two tricks or more (easy to dismiss);
* ``heuristics_failing`` -- which natural choices fail: ``highest`` (the
  highest card), ``lowest`` (the lowest card), ``longest suit`` (the top card
  of the longest suit); for a discard ``two lowest``, ``shortest suit``
  (the two cards of the shortest suits) and ``two highest``;
* ``depth`` -- how deep the line goes before the point is clear: the number of
  the last trick of the best line in which the solver's side again has only one
  good card (1: the point is the question card itself);
* ``score`` = min(``close``, 4) + 2 x (heuristics failing) + min(``depth`` - 1, 4),
  from 0 to 14; band ``easy`` (score <= 5), ``medium`` (6-9) or ``hard`` (10 and more).
  On endings of 4-6 tricks about a quarter come out easy, half medium, a fifth
  hard; on full deals most are hard (the lines are longer).

Generation is deterministic: attempt ``i`` of seed ``S`` for kind ``K`` deals
from its own random generator seeded with the text ``"S:K:i"`` (:func:`attempt_rng`;
:class:`random.Random` turns a text seed into a number through SHA-512, so the
deal does not depend on ``PYTHONHASHSEED`` or on the process), so a run can
resume at the next attempt and attempts can be spread over processes and still
give the same set. The kind is part of the seed so that the sets of different
kinds made with the same seed do not share their deals.
Duplicates -- the same layout up to a permutation of the non-trump suits and
equivalent cards -- are dropped (:func:`canonical_key`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from pyanalyzer.engines.executor import Executor
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_layout_file, format_one_line, parse_layout
from pyanalyzer.model.notation import format_card
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans.defence import distinct_cards
from pyanalyzer.preferans.makeable import discard_classes
from pyanalyzer.render.diagram import diagram
from pyanalyzer.render.sheet import SheetPuzzle, puzzle_sheet

KINDS = ("misere", "contract", "defend", "allpass", "discard")
BANDS = ("easy", "medium", "hard")
TRUMPS = ("s", "c", "d", "h")


@dataclass(frozen=True)
class PuzzleKind:
    """A puzzle kind of another game, made by its own module and run by the machinery here (the
    set, the files, resuming, the sheets): Thousand's register from ``pyanalyzer.thousand.puzzles``."""

    #: ``(order, seed, number, backend) -> puzzle or None``, deterministic.
    attempt: Callable
    #: A puzzle back from its JSON record.
    load: Callable
    #: Refuses an order the kind cannot do (a LayoutError).
    check_order: Callable
    #: The duplicate key of a puzzle.
    key: Callable
    #: ``(puzzle, backend) -> bool``: the answer re-proved unique.
    verify: Callable
    #: A record's line of ``solutions.txt``.
    solution_line: Callable
    #: The tricks left at the question when the command does not say.
    default_tricks: tuple[int, int]
    #: The game's name, for the sheets' titles.
    game: str


#: The kinds of other games, by CLI name, filled by the modules that make them when imported
#: (``import pyanalyzer.thousand.puzzles`` for Thousand's; ``pref puzzles`` does).
REGISTERED_KINDS: dict[str, PuzzleKind] = {}


# -- constraints -------------------------------------------------------------


@dataclass(frozen=True)
class Constraint:
    """One filter on the puzzle's layout: ``S has As``, ``S shape 4-3-2-1``,
    ``trumps 5+``, ``S misere-like``, ``tricks 5``."""

    text: str
    kind: str
    seat: str | None = None
    cards: tuple[Card, ...] = ()
    shape: tuple[int, ...] = ()
    low: int = 0
    high: int = 10

    def holds(self, puzzle_layout: Layout, hand: Iterable[Card] | None = None) -> bool:
        """Does the layout (the declarer's twelve cards for a discard, via ``hand``) meet it?"""
        if self.kind == "tricks":
            return self.low <= puzzle_layout.tricks_left <= self.high
        seat = self.seat or puzzle_layout.declarer or puzzle_layout.to_move
        cards = list(hand) if hand is not None and seat == puzzle_layout.declarer else list(
            puzzle_layout.hands[seat])
        if self.kind == "has":
            return all(c in cards for c in self.cards)
        lengths = [sum(1 for c in cards if c.suit_number == s) for s in range(4)]
        if self.kind == "shape":
            return tuple(sorted(lengths, reverse=True)) == self.shape
        if self.kind == "trumps":
            trump = puzzle_layout.trump_number
            return trump is not None and self.low <= lengths[trump] <= self.high
        if self.kind == "misere-like":
            return misere_like(cards)
        raise AssertionError(self.kind)


def misere_like(cards: Iterable[Card]) -> bool:
    """A misère-like hand: every suit held has its 7 or 8, and no more high cards
    (10, J, Q, K, A) than low ones (7, 8, 9)."""
    for suit in range(4):
        ranks = [c.rank_number for c in cards if c.suit_number == suit]
        if not ranks:
            continue
        if min(ranks) > 1:
            return False
        if sum(r >= 3 for r in ranks) > sum(r < 3 for r in ranks):
            return False
    return True


_SEAT = r"(?:(?P<seat>[SWEswe])\s+)?"


def parse_constraint(text: str) -> Constraint:
    """Read one ``--constraint``; a LayoutError names what is wrong."""
    deck = PREFERANS_RULES.deck
    words = text.strip()
    m = re.fullmatch(r"(?P<seat>[SWEswe])\s+(?:has|holds)\s+(?P<cards>.+)", words)
    if m:
        from pyanalyzer.model.notation import parse_cards

        cards = tuple(parse_cards(m.group("cards"), deck))
        return Constraint(text, "has", m.group("seat").upper(), cards=cards)
    m = re.fullmatch(_SEAT + r"shape\s+(?P<shape>\d{1,2}(?:-\d{1,2}){3})", words)
    if m:
        shape = tuple(sorted((int(x) for x in m.group("shape").split("-")), reverse=True))
        return Constraint(text, "shape", (m.group("seat") or "").upper() or None, shape=shape)
    m = re.fullmatch(r"(?:trumps?|trump length)\s+(?P<lo>\d{1,2})(?:(?P<plus>\+)|-(?P<hi>\d{1,2}))?", words)
    if m:
        low = int(m.group("lo"))
        high = 10 if m.group("plus") else int(m.group("hi") or low)
        return Constraint(text, "trumps", None, low=low, high=high)
    m = re.fullmatch(_SEAT + r"mis[eè]re[- ]like", words, flags=re.IGNORECASE)
    if m:
        return Constraint(text, "misere-like", (m.group("seat") or "").upper() or None)
    m = re.fullmatch(r"tricks\s+(?P<lo>\d{1,2})(?:\.\.(?P<hi>\d{1,2}))?", words)
    if m:
        low = int(m.group("lo"))
        return Constraint(text, "tricks", None, low=low, high=int(m.group("hi") or low))
    raise LayoutError(
        f"bad constraint {shorten(text)!r}: write e.g. 'S has As', 'S shape 4-3-2-1', 'trumps 5+', "
        "'S misere-like' or 'tricks 5'", text)


# -- the puzzle --------------------------------------------------------------


@dataclass
class Rating:
    """How hard the puzzle is (see the module docstring)."""

    alternatives: int
    close: int
    by_a_lot: int
    heuristics_failing: list[str]
    depth: int

    @property
    def score(self) -> int:
        return (min(self.close, 4) + 2 * len(self.heuristics_failing)
                + min(self.depth - 1, 4))

    @property
    def band(self) -> str:
        return "easy" if self.score <= 5 else "medium" if self.score <= 9 else "hard"

    def to_dict(self) -> dict:
        return {"alternatives": self.alternatives, "close": self.close, "by_a_lot": self.by_a_lot,
                "heuristics_failing": self.heuristics_failing, "depth": self.depth,
                "score": self.score, "band": self.band}

    def describe(self) -> str:
        failing = ", ".join(self.heuristics_failing) or "none"
        fail = "1 alternative fails" if self.alternatives == 1 else \
            f"{self.alternatives} alternatives fail"
        return (f"{self.band} (score {self.score}): {fail}, "
                f"{self.close} by one trick, {self.by_a_lot} by two or more; natural choices "
                f"that fail: {failing}; the point is clear at trick {self.depth}")


@dataclass
class Puzzle:
    """One puzzle: the layout at the question, the unique answer and the refutations."""

    kind: str
    layout: Layout
    seat: str
    question: str
    #: The answer: one card, or the two discarded cards.
    answer: tuple[Card, ...]
    #: The cards equivalent to the answer (the same touching run), for checking a reply.
    equivalent: tuple[Card, ...]
    #: The result of the answer (the counted tricks; for ``discard`` with the talon picked up).
    value: int
    #: Each wrong choice (one per class, codes joined with '+') -> its result.
    refutations: dict[str, int]
    rating: Rating
    line: list[Card]
    talon: tuple[Card, ...] = ()
    attempt: int = 0
    key: tuple = field(default=(), repr=False)

    @property
    def answer_text(self) -> str:
        return " ".join(format_card(c) for c in self.answer)

    def file_text(self, number: int | None = None) -> str:
        """The layout file, with the question, the answer and the rating as ``#`` comments."""
        lines = [f"# {self.question}"]
        lines.append(format_layout_file(self.layout).rstrip("\n"))
        lines.append(f"# solution: {self.answer_text}{self.equivalent_text} "
                     f"({self.result_text(self.value)})")
        cards = {c.code: c for c in self.layout.rules.deck}
        for wrong, value in self.refutations.items():
            shown = " ".join(format_card(cards[code]) for code in wrong.split("+"))
            lines.append(f"#   {shown}: {self.result_text(value)}")
        if self.line:
            lines.append("# best line: " + " ".join(format_card(c) for c in self.line))
        lines.append(f"# rating: {self.rating.describe()}")
        return "\n".join(lines) + "\n"

    @property
    def equivalent_text(self) -> str:
        """`` (or ♣10 ♣9 ♣8: the same)`` when touching cards do as well."""
        others = [c for c in self.equivalent if c not in self.answer]
        if not others:
            return ""
        return " (or " + " ".join(format_card(c) for c in others) + ": the same)"

    def result_text(self, value: int) -> str:
        if self.kind == "allpass":
            return f"{self.seat} takes {value}"
        return f"declarer takes {value}"

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "layout": format_one_line(self.layout),
            "lead": self.layout.lead,
            "question": self.question,
            "answer": " ".join(c.code for c in self.answer),
            "equivalent": [c.code for c in self.equivalent],
            "value": self.value,
            "refutations": self.refutations,
            "rating": self.rating.to_dict(),
            "line": [c.code for c in self.line],
            "talon": [c.code for c in self.talon],
            "attempt": self.attempt,
        }


# -- solving the question ----------------------------------------------------


class _Judge:
    """Engine helpers: each legal card's value, the classes, the best line."""

    def __init__(self, backend) -> None:
        self.backend = backend

    def position(self, layout: Layout, counted: str | None):
        return layout.position(side=counted)

    def values(self, layout: Layout, counted: str | None) -> dict[int, int]:
        pos = self.position(layout, counted)
        legal = [c.index for c in layout.legal_cards()]
        if len(legal) == 1:
            return {legal[0]: self.backend.solve(pos)}
        return self.backend.card_values(pos)

    def classes(self, layout: Layout, cards: list[int]) -> list[list[int]]:
        """Cards grouped into runs of equivalent cards (the representative first)."""
        pos = layout.position(side=layout.declarer or layout.to_move)
        reps = distinct_cards(sorted(cards), pos.hands, pos.played, pos.suit_masks)
        groups: dict[int, list[int]] = {r: [] for r in reps}
        for card in sorted(cards):
            rep = max(r for r in reps if r <= card)
            groups[rep].append(card)
        return list(groups.values())


def _goal(kind: str, values: dict[int, int], wants_high: bool) -> Callable[[int], bool]:
    if kind == "misere":
        return lambda v: v >= 1
    best = max(values.values()) if wants_high else min(values.values())
    return lambda v: v == best


def judge(layout: Layout, kind: str, backend=None) -> dict | None:
    """The unique-answer test for a card question at ``layout``; None when not unique.

    Returns ``answer`` (card indices of the answer's class), ``value``, ``values``
    (class representative -> value) and ``classes``.
    """
    backend = backend or make_backend("fast")
    j = _Judge(backend)
    counted = layout.to_move if kind == "allpass" else None
    values = j.values(layout, counted)
    mover = layout.to_move
    wants_high = _wants_high(layout, mover, kind)
    goal = _goal(kind, values, wants_high)
    classes = j.classes(layout, list(values))
    good = [cl for cl in classes if goal(values[cl[0]])]
    if len(good) != 1 or len(classes) < 2:
        return None
    return {"answer": good[0], "value": values[good[0][0]], "classes": classes,
            "values": {cl[0]: values[cl[0]] for cl in classes}, "wants_high": wants_high}


def _wants_high(layout: Layout, mover: str, kind: str) -> bool:
    """Does the player to move want the counted value high?"""
    if kind == "allpass":
        return False
    declarer_side = mover == layout.declarer
    maximise = layout.contract.kind == "tricks"
    return maximise == declarer_side


def _heuristic_cards(layout: Layout, legal: list[Card]) -> dict[str, Card]:
    hand = list(layout.hands[layout.to_move])
    lengths = {s: sum(1 for c in hand if c.suit_number == s) for s in range(4)}
    highest = max(legal, key=lambda c: (c.rank_number, lengths[c.suit_number], c.suit_number))
    lowest = min(legal, key=lambda c: (c.rank_number, -lengths[c.suit_number], c.suit_number))
    longest = max(legal, key=lambda c: (lengths[c.suit_number], c.rank_number))
    return {"highest": highest, "lowest": lowest, "longest suit": longest}


def _depth(layout: Layout, kind: str, line: list[Card], backend, solver_side) -> int:
    """The last trick of the best line in which the solver's side has a single good card."""
    depth, current = 1, layout
    seats = len(layout.seats)
    for played, card in enumerate(line):
        if played and solver_side(current.to_move) and len(current.legal_cards()) > 1:
            verdict = judge(current, kind, backend)
            if verdict is not None:
                depth = played // seats + 1
        current = current.after(card)
    return depth


def _rate(kind: str, verdict: dict, losses: list[int], heur_fail: list[str], depth: int) -> Rating:
    return Rating(alternatives=len(losses), close=sum(1 for x in losses if x <= 1),
                  by_a_lot=sum(1 for x in losses if x >= 2), heuristics_failing=heur_fail,
                  depth=depth)


def card_puzzle(layout: Layout, kind: str, backend=None) -> Puzzle | None:
    """The puzzle at ``layout`` (the player to move asked for one card), or None if not unique."""
    backend = backend or make_backend("fast")
    verdict = judge(layout, kind, backend)
    if verdict is None:
        return None
    deck = layout.rules.deck
    answer = verdict["answer"]
    value = verdict["value"]
    wants_high = verdict["wants_high"]
    refutations, losses = {}, []
    for rep, v in verdict["values"].items():
        if rep in answer:
            continue
        refutations[deck.from_index(rep).code] = v
        losses.append(value - v if wants_high else v - value)
    if kind == "misere":  # catching: count by how much the catch is lost (tricks of the catch)
        losses = [value - v for v in verdict["values"].values() if v < 1]
    legal = layout.legal_cards()
    heur_fail = [name for name, card in _heuristic_cards(layout, legal).items()
                 if card.index not in answer]
    first = deck.from_index(answer[0])
    after = layout.after(first)
    counted = layout.to_move if kind == "allpass" else None
    rest = [deck.from_index(i) for i in backend.best_line(after.position(side=counted))] \
        if after.tricks_left else []
    line = [first] + rest
    mover = layout.to_move
    if kind == "allpass":
        def solver_side(seat):
            return seat == mover
    elif mover == layout.declarer:
        def solver_side(seat):
            return seat == layout.declarer
    else:
        def solver_side(seat):
            return seat != layout.declarer
    depth = _depth(layout, kind, line, backend, solver_side)
    rating = _rate(kind, verdict, losses, heur_fail, depth)
    equivalent = tuple(deck.from_index(i) for i in answer)
    return Puzzle(kind, layout, mover, question_text(kind, layout, value), (first,), equivalent,
                  value, refutations, rating, line)


def _tricks_of(value: int, n: int) -> str:
    """``3 of the 5 tricks``, ``1 of the 5 tricks``, ``all 5 tricks``, ``none of the 5 tricks``."""
    if value == n:
        return "the only trick" if n == 1 else f"all {n} tricks"
    if value == 0:
        return f"none of the {n} tricks"
    return f"{value} of the {n} tricks"


def question_text(kind: str, layout: Layout, value: int, talon=()) -> str:
    """The question in words; it names who leads, on which every answer depends."""
    names = layout.rules.seat_name
    mover, n = names(layout.to_move), layout.tricks_left
    declarer = names(layout.declarer) if layout.declarer else None
    if kind == "misere":
        return f"Misère by {declarer}, {mover} to lead: which card catches it?"
    if kind == "contract":
        return (f"{layout.contract} by {mover}, {mover} to lead: with which card can he take "
                f"{_tricks_of(value, n)}?")
    if kind == "defend":
        if n == 10:
            return f"{layout.contract} by {declarer}, {mover} to lead: which card sets it?"
        if value == 0:
            return (f"{layout.contract} by {declarer}, {mover} to lead: which card stops "
                    f"the declarer from taking any of the {n} tricks?")
        return (f"{layout.contract} by {declarer}, {mover} to lead: which card holds "
                f"the declarer to {_tricks_of(value, n)}?")
    if kind == "allpass":
        share = _tricks_of(value, n) if value == 0 else f"no more than {_tricks_of(value, n)}"
        return (f"All-pass, {mover} to lead: which card guarantees that he takes {share}, "
                "whatever the others do?")
    cards = " ".join(format_card(c) for c in talon)
    lead = names(layout.lead)
    if layout.contract.is_misere:
        return (f"Misère by {declarer}, talon {cards}, {lead} to lead after the discard: "
                "which two cards does he discard to keep it clean?")
    return (f"{layout.contract} by {declarer}, talon {cards}, {lead} to lead after the discard: "
            f"which two cards does he discard to take {_tricks_of(value, n)}?")


# -- dealing -----------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """What to generate."""

    kind: str
    tricks: tuple[int, int] = (5, 5)
    after: int = 0
    constraints: tuple[Constraint, ...] = ()
    band: str | None = None
    contract: str | None = None


def check_order(order: Order) -> None:
    """Refuse impossible orders with one clear message (a LayoutError)."""
    if order.kind in REGISTERED_KINDS:
        REGISTERED_KINDS[order.kind].check_order(order)
        return
    if order.kind not in KINDS:
        raise LayoutError(f"unknown puzzle kind {order.kind!r}: choose from {', '.join(KINDS)}",
                          order.kind)
    lo, hi = order.tricks
    if not 1 <= lo <= hi or hi + order.after > 10 or lo < 2:
        raise LayoutError(f"bad trick range {lo}..{hi} with --after {order.after}: tricks left "
                          "must be 2 to 10 and tricks + after at most 10", "--tricks")
    if order.kind == "discard" and order.after:
        raise LayoutError("--after does not apply to discard puzzles (the discard comes first)",
                          "--after")
    if order.band is not None and order.band not in BANDS:
        raise LayoutError(f"unknown difficulty {order.band!r}: choose from {', '.join(BANDS)}",
                          order.band)
    for c in order.constraints:
        if c.kind == "trumps" and order.kind in ("misere", "allpass"):
            raise LayoutError(f"constraint {c.text!r}: {order.kind} has no trumps", c.text)
        if c.kind == "trumps" and order.contract and _contract(order.contract).kind != "tricks":
            raise LayoutError(f"constraint {c.text!r}: {order.contract} has no trumps", c.text)
        if c.kind == "shape" and sum(c.shape) not in range(lo, hi + 3):
            raise LayoutError(f"constraint {c.text!r}: the shape has {sum(c.shape)} cards, the "
                              f"hands {lo} to {hi}", c.text)
    if order.contract:
        contract = _contract(order.contract)
        allowed = {"misere": ("misere",), "contract": ("tricks",), "defend": ("tricks",),
                   "allpass": ("allpass",), "discard": ("tricks", "misere")}[order.kind]
        if contract.kind not in allowed:
            raise LayoutError(f"--contract {order.contract}: a {order.kind} puzzle needs "
                              f"{' or '.join(allowed)}", order.contract)


def _contract(code: str) -> Contract:
    return Contract.parse(code, PREFERANS_RULES)


def _deal(rng: random.Random, order: Order) -> tuple[Layout, tuple[Card, ...]] | None:
    """A random layout for one attempt: the deal before the ``after`` tricks."""
    rules = PREFERANS_RULES
    deck = rules.deck
    tricks = rng.randint(*order.tricks) + order.after
    kind = order.kind
    talon_size = 2 if kind == "discard" else 0
    cards = list(deck)
    rng.shuffle(cards)
    if kind == "misere":  # a misère worth catching: the declarer's hand looks like one
        for _ in range(300):
            if misere_like(cards[:tricks]):
                break
            rng.shuffle(cards)
    seats = rules.seats
    placed: dict[str, list[Card]] = {s: [] for s in seats}
    if not order.after:
        for c in order.constraints:
            if c.kind == "has":
                for card in c.cards:
                    if card in cards:
                        cards.remove(card)
                        placed[c.seat].append(card)
    sizes = {s: tricks for s in seats}
    if kind == "discard":
        sizes["S"] += 2
    hands: dict[str, list[Card]] = {}
    for s in seats:
        need = sizes[s] - len(placed[s])
        if need < 0:
            return None
        hands[s] = placed[s] + cards[:need]
        del cards[:need]
    if order.contract:
        contract = _contract(order.contract)
    elif kind in ("contract", "defend") or (kind == "discard" and rng.random() < 0.6):
        contract = Contract("tricks", 6, deck.suits[rng.randrange(4)])
    else:
        contract = Contract({"misere": "misere", "allpass": "allpass"}.get(kind, "misere"))
    if contract.kind == "tricks" and contract.level is None:
        contract = Contract("tricks", 6, contract.trump)
    declarer = None if contract.is_allpass else "S"
    if kind == "contract" and not order.after:
        lead = "S"
    elif kind in ("misere", "defend", "discard") and not order.after:
        lead = rng.choice(("W", "E"))
    else:
        lead = rng.choice(seats)
    talon: tuple[Card, ...] = ()
    if kind == "discard":
        twelve = hands["S"]
        talon = tuple(twelve[-talon_size:])
        hands["S"] = twelve[:-talon_size]
    layout = Layout({s: Hand(h, deck) for s, h in hands.items()}, contract, declarer, lead,
                    talon=talon, rules=rules)
    return layout, talon


def _play_best(layout: Layout, tricks: int, backend, kind: str) -> Layout:
    deck = layout.rules.deck
    counted = layout.lead if kind == "allpass" else None
    line = backend.best_line(layout.position(side=counted))
    for index in line[: tricks * len(layout.seats)]:
        layout = layout.after(deck.from_index(index))
    return layout


def _with_contract_level(layout: Layout, level: int) -> Layout:
    contract = Contract("tricks", level, layout.contract.trump)
    return Layout(dict(layout.hands), contract, layout.declarer, layout.lead, layout.talon,
                  layout.discard, layout.played, layout.title, layout.source, layout.rules)


def attempt_rng(seed: int, kind: str, number: int) -> random.Random:
    """The random generator of attempt ``number`` of ``seed`` for ``kind``.

    Seeded with a text: :class:`random.Random` hashes it with SHA-512, which is
    the same in every process and Python run (unlike ``hash()``).
    """
    return random.Random(f"{seed}:{kind}:{number}")


def attempt(order: Order, seed: int, number: int, backend=None) -> Puzzle | None:
    """Attempt ``number`` of ``seed``: a puzzle, or None (rejected). Deterministic."""
    if order.kind in REGISTERED_KINDS:
        return REGISTERED_KINDS[order.kind].attempt(order, seed, number, backend)
    backend = backend or make_backend("fast")
    rng = attempt_rng(seed, order.kind, number)
    dealt = _deal(rng, order)
    if dealt is None:
        return None
    layout, talon = dealt
    kind = order.kind
    if kind == "discard":
        puzzle = discard_puzzle(layout, backend)
    else:
        if order.after:
            layout = _play_best(layout, order.after, backend, kind)
        mover = layout.to_move
        if kind == "contract" and mover != layout.declarer:
            return None
        if kind in ("misere", "defend") and mover == layout.declarer:
            return None
        puzzle = card_puzzle(layout, kind, backend)
        if puzzle is not None and layout.tricks_left == 10 and kind in ("contract", "defend"):
            level = puzzle.value if kind == "contract" else puzzle.value + 1
            if level not in PREFERANS_RULES.contract_levels:
                return None
            puzzle.layout = _with_contract_level(layout, level)
            puzzle.question = question_text(kind, puzzle.layout, puzzle.value)
    if puzzle is None:
        return None
    hand = (list(puzzle.layout.hands["S"]) + list(talon)) if kind == "discard" else None
    if not all(c.holds(puzzle.layout, hand) for c in order.constraints):
        return None
    if order.band and puzzle.rating.band != order.band:
        return None
    puzzle.attempt = number
    puzzle.key = canonical_key(puzzle)
    return puzzle


def discard_puzzle(layout: Layout, backend=None) -> Puzzle | None:
    """The best-discard question: S holds his cards and the talon; one class of discards is best."""
    backend = backend or make_backend("fast")
    deck = layout.rules.deck
    twelve = sorted(list(layout.hands["S"]) + list(layout.talon), key=lambda c: c.index)
    outside = 0
    for s in ("W", "E"):
        outside |= layout.hands[s].mask
    misere = layout.contract.is_misere
    results = []
    for pair in discard_classes(twelve, outside):
        hand = Hand([c for c in twelve if c not in pair], deck)
        trial = Layout({**layout.hands, "S": hand}, layout.contract, "S", layout.lead,
                       rules=layout.rules)
        results.append((pair, backend.solve(trial.position()), trial))
    values = [v for _, v, _ in results]
    best = min(values) if misere else max(values)
    good = [r for r in results if (r[1] == 0 if misere else r[1] == best)]
    if len(good) != 1 or len(results) < 2:
        return None
    pair, value, trial = good[0]
    refutations = {"+".join(c.code for c in p): v for p, v, _ in results if p is not pair}
    losses = [abs(v - value) for p, v, _ in results if p is not pair]
    # The natural discards.
    lengths = {s: sum(1 for c in twelve if c.suit_number == s) for s in range(4)}
    natural = {
        "two lowest": sorted(twelve, key=lambda c: (c.rank_number, -lengths[c.suit_number]))[:2],
        "shortest suit": sorted(twelve, key=lambda c: (lengths[c.suit_number], c.rank_number))[:2],
        "two highest": sorted(twelve, key=lambda c: (-c.rank_number, lengths[c.suit_number]))[:2],
    }
    answer_class = _pair_class(pair, twelve, outside)
    heur_fail = [name for name, p in natural.items()
                 if _pair_class(tuple(p), twelve, outside) != answer_class]
    line = [deck.from_index(i) for i in backend.best_line(trial.position())]

    def declarer(seat):
        return seat == "S"
    # After the discard the declarer may still need exact cards (a clean misère needs none).
    depth = 1 if misere else _depth(trial, "contract", line, backend, declarer)
    rating = Rating(alternatives=len(losses), close=sum(1 for x in losses if x <= 1),
                    by_a_lot=sum(1 for x in losses if x >= 2), heuristics_failing=heur_fail,
                    depth=depth)
    puzzle_layout = Layout(dict(layout.hands), layout.contract, "S", layout.lead,
                           talon=layout.talon, rules=layout.rules)
    equivalent = tuple(c for c in twelve if _run_of(c, twelve, outside) in
                       {_run_of(p, twelve, outside) for p in pair})
    return Puzzle("discard", puzzle_layout, "S",
                  question_text("discard", puzzle_layout, value, layout.talon), tuple(pair),
                  equivalent, value, refutations, rating, line, talon=layout.talon)


def _run_of(card: Card, twelve: list[Card], outside: int) -> int:
    """The lowest card index of the run of touching cards holding ``card``."""
    run = card.index
    for other in sorted((c for c in twelve if c.suit_number == card.suit_number),
                        key=lambda c: -c.index):
        if other.index < run:
            between = outside & ((1 << run) - 1) & ~((1 << (other.index + 1)) - 1)
            if not between:
                run = other.index
    return run


def _pair_class(pair, twelve, outside) -> tuple:
    return tuple(sorted(_run_of(c, twelve, outside) for c in pair))


# -- duplicates --------------------------------------------------------------


def canonical_key(puzzle: Puzzle) -> tuple:
    """The layout up to a permutation of the non-trump suits and equivalent cards.

    Each suit becomes the owners of its cards in play from low to high (the
    talon counts as an owner ``T``): ranks matter only relative to each other.
    The trump suit keeps its place; the other suits' patterns are sorted.
    (Another game's kind has its own key.)
    """
    if puzzle.kind in REGISTERED_KINDS:
        return REGISTERED_KINDS[puzzle.kind].key(puzzle)
    layout = puzzle.layout
    owners: dict[Card, str] = {}
    for seat in layout.seats:
        for card in layout.hands[seat]:
            owners[card] = seat
    for card in puzzle.talon:
        owners[card] = "T"
    patterns = []
    for suit in range(4):
        cards = sorted((c for c in owners if c.suit_number == suit), key=lambda c: c.index)
        patterns.append("".join(owners[c] for c in cards))
    trump = layout.trump_number
    trump_pattern = patterns[trump] if trump is not None else None
    others = sorted(p for i, p in enumerate(patterns) if i != trump)
    return (puzzle.kind, layout.contract.kind, layout.declarer, layout.lead, trump_pattern,
            tuple(others))


# -- sets --------------------------------------------------------------------

def _puzzle_backend():
    """Each worker's engine, built once per run (in the worker process when there are several)."""
    return make_backend("fast", tt_size_mb=16)


def _attempt_record(backend, task) -> tuple[int, dict | None]:
    """One attempt; the puzzle travels as its JSON record (from a worker process)."""
    order, seed, number = task
    puzzle = attempt(order, seed, number, backend)
    return number, None if puzzle is None else puzzle.to_dict()


def generate(order: Order, count: int, seed: int, start: int = 0, seen: set | None = None,
             jobs: int = 1, max_attempts: int = 20000,
             progress: Callable[[int, int], None] | None = None) -> Iterator[Puzzle]:
    """Yield new puzzles as they are accepted, attempts ``start``, ``start + 1``, ... in order.

    ``seen`` holds the canonical keys already accepted (it is updated). The set
    depends only on the order, the seed and ``count``, not on ``jobs``: with ``jobs`` > 1
    the attempts run on that many forked processes (the work is mostly Python), or on the
    cluster in use (:func:`pyanalyzer.engines.executor.use_cluster`), their results taken in
    attempt order (:class:`pyanalyzer.engines.executor.Executor`). Ctrl-C raises
    KeyboardInterrupt once the workers are stopped; the puzzles yielded before stand.
    """
    check_order(order)
    seen = set() if seen is None else seen
    accepted = 0
    if count <= 0:
        return
    tasks = ((order, seed, n) for n in range(start, start + max_attempts))
    run = Executor(jobs, factory=_puzzle_backend, processes=jobs > 1, remote=_puzzle_backend).map(
        _attempt_record, tasks)
    try:
        for number, record in run:
            if run.interrupted:   # (results finished before the Ctrl-C: not taken any more)
                break
            if progress:
                progress(number - start + 1, accepted)
            if record is None:
                continue
            puzzle = load_puzzle(record)
            puzzle.key = canonical_key(puzzle)
            if puzzle.key in seen:
                continue
            seen.add(puzzle.key)
            accepted += 1
            yield puzzle
            if accepted >= count:
                return
    finally:
        run.close()  # stops the workers and waits for them
    if run.interrupted:
        raise KeyboardInterrupt


def verify(puzzle: Puzzle, backend=None) -> bool:
    """Re-prove from scratch that the puzzle's answer is the only good choice."""
    backend = backend or make_backend("fast")
    if puzzle.kind in REGISTERED_KINDS:
        return REGISTERED_KINDS[puzzle.kind].verify(puzzle, backend)
    if puzzle.kind == "discard":
        again = discard_puzzle(Layout(dict(puzzle.layout.hands), puzzle.layout.contract, "S",
                                      puzzle.layout.lead, talon=puzzle.talon,
                                      rules=puzzle.layout.rules), backend)
        return again is not None and set(again.answer) <= set(puzzle.equivalent)
    verdict = judge(puzzle.layout, puzzle.kind, backend)
    return verdict is not None and puzzle.answer[0].index in verdict["answer"]


# -- output ------------------------------------------------------------------

INDEX = "puzzles.jsonl"


def file_name(number: int, kind: str) -> str:
    return f"{kind}-{number:03d}.txt"


class PuzzleWriter:
    """Writes each accepted puzzle at once: its layout file and a line of the JSON index."""

    def __init__(self, out: Path, order: Order, seed: int) -> None:
        self.out = Path(out)
        self.order, self.seed = order, seed
        self.records: list[dict] = []
        self.puzzles: list[Puzzle] = []
        #: The line number of an incomplete last line of the index dropped on resuming, if any.
        self.dropped_line: int | None = None
        with _writing(self.out):
            self.out.mkdir(parents=True, exist_ok=True)
            probe = self.out / ".pref-write-test"
            probe.write_bytes(b"")  # unwritable: said now, not after the first puzzle is found
            probe.unlink()
            index = self.out / INDEX
            if index.exists():
                self._resume(index)

    def _resume(self, index: Path) -> None:
        """Read the records of an earlier run. A last line cut short (a run killed while writing
        it) is dropped and its puzzle made again; anything else unreadable is an error."""
        data = index.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise LayoutError(f"{index} is not UTF-8 text (line {line}): use another --out", "--out") from None
        *complete, last = text.split("\n")
        for number, line in enumerate(complete, start=1):
            if line.strip():
                self.records.append(self._record(line, number, index))
        if last.strip():
            try:
                json.loads(last)
            except ValueError:  # cut short: drop it from the file too, so the next line starts clean
                self.dropped_line = len(complete) + 1
                index.write_text("".join(line + "\n" for line in complete), encoding="utf-8")
            else:
                self.records.append(self._record(last, len(complete) + 1, index))
                index.write_text(text + "\n", encoding="utf-8")

    def _record(self, line: str, number: int, index: Path) -> dict:
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("attempt"), int):
            raise LayoutError(f"line {number} of {index} is not a puzzle record: use another --out",
                              "--out")
        if record.get("seed") != self.seed or record.get("order") != order_text(self.order):
            raise LayoutError(f"{index} holds another set ({record.get('order')}, "
                              f"seed {record.get('seed')}): use another --out", "--out")
        return record

    @property
    def next_attempt(self) -> int:
        return self.records[-1]["attempt"] + 1 if self.records else 0

    def seen_keys(self) -> set:
        keys = set()
        for number, record in enumerate(self.records, start=1):
            try:
                puzzle = load_puzzle(record)
            except (KeyError, TypeError, ValueError, IndexError):
                raise LayoutError(f"puzzle {number} of {self.out / INDEX} is not a valid record: "
                                  "use another --out", "--out") from None
            keys.add(canonical_key(puzzle))
        return keys

    def add(self, puzzle: Puzzle) -> dict:
        number = len(self.records) + 1
        name = file_name(number, puzzle.kind)
        puzzle.layout = _titled(puzzle.layout, f"Puzzle {number}: {puzzle.kind}",
                                f"pref puzzles {puzzle.kind}, seed {self.seed}, deal {puzzle.attempt}")
        record = puzzle.to_dict()
        record.update({"number": number, "file": name, "seed": self.seed,
                       "order": order_text(self.order)})
        with _writing(self.out):
            (self.out / name).write_text(puzzle.file_text(number), encoding="utf-8")
            with (self.out / INDEX).open("a", encoding="utf-8") as stream:
                stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.records.append(record)
        return record

    def write_sheets(self) -> None:
        with _writing(self.out):
            (self.out / "sheet.txt").write_text(text_sheet(self.records), encoding="utf-8")
            (self.out / "solutions.txt").write_text(solutions_text(self.records), encoding="utf-8")
            (self.out / "sheet.html").write_text(html_sheet(self.records), encoding="utf-8")


@contextmanager
def _writing(out: Path):
    """An OS error while reading or writing the --out folder: one line naming it and the reason."""
    try:
        yield
    except OSError as error:
        where = error.filename or out
        raise LayoutError(f"cannot use --out {str(out)!r}: {error.strerror or error} "
                          f"({where})", "--out") from None


def order_text(order: Order) -> str:
    """The generating order in words (stored in the index so a resume checks it is the same)."""
    lo, hi = order.tricks
    parts = [order.kind, f"tricks {lo}..{hi}", f"after {order.after}"]
    parts += [f"constraint {c.text}" for c in order.constraints]
    if order.band:
        parts.append(f"difficulty {order.band}")
    if order.contract:
        parts.append(f"contract {order.contract}")
    return ", ".join(parts)


def _titled(layout: Layout, title: str, source: str | None = None) -> Layout:
    return replace(layout, title=title, source=source or layout.source)


def load_puzzle(record: dict) -> Puzzle:
    """A puzzle back from its JSON record (the rating is taken as recorded)."""
    if record.get("kind") in REGISTERED_KINDS:
        return REGISTERED_KINDS[record["kind"]].load(record)
    layout = parse_layout(record["layout"])
    deck = layout.rules.deck
    cards = {c.code: c for c in deck}
    r = record["rating"]
    rating = Rating(r["alternatives"], r["close"], r["by_a_lot"], r["heuristics_failing"],
                    r["depth"])
    return Puzzle(record["kind"], layout, layout.to_move if record["kind"] != "discard" else "S",
                  record["question"], tuple(cards[c] for c in record["answer"].split()),
                  tuple(cards[c] for c in record["equivalent"]), record["value"],
                  record["refutations"], rating, [cards[c] for c in record["line"]],
                  talon=tuple(cards[c] for c in record.get("talon", [])),
                  attempt=record.get("attempt", 0))


def text_sheet(records: list[dict]) -> str:
    """The printable text sheet: diagram and question of each puzzle."""
    out = []
    for record in records:
        layout = parse_layout(record["layout"])
        out.append(diagram(layout))
        out.append("")
        out.append(f"Q{record['number']}. {record['question']}  [{record['rating']['band']}]")
        out.append("")
        out.append("-" * 44)
        out.append("")
    return "\n".join(out)


def solutions_text(records: list[dict]) -> str:
    out = []
    for record in records:
        if record["kind"] in REGISTERED_KINDS:
            out.append(f"{record['number']}. {REGISTERED_KINDS[record['kind']].solution_line(record)}")
            continue
        layout = parse_layout(record["layout"])
        cards = {c.code: c for c in layout.rules.deck}
        answer = " ".join(format_card(cards[c]) for c in record["answer"].split())
        wrong = ", ".join(f"{' '.join(format_card(cards[c]) for c in k.split('+'))} -> {v}"
                          for k, v in record["refutations"].items())
        same = [format_card(cards[c]) for c in record["equivalent"]
                if c not in record["answer"].split()]
        if same:
            answer += f" (or {' '.join(same)})"
        out.append(f"{record['number']}. {answer}  (result {record['value']}; wrong: {wrong}; "
                   f"{record['rating']['band']}, score {record['rating']['score']})")
    return "\n".join(out) + "\n"


def html_sheet(records: list[dict]) -> str:
    """A printable HTML sheet (:mod:`pyanalyzer.render.sheet`): the diagrams two per row with who
    leads and what is asked, the solutions on a page of their own."""
    puzzles = [SheetPuzzle(record["number"], parse_layout(record["layout"]), record["question"],
                           record["rating"]["band"]) for record in records]
    games = {REGISTERED_KINDS[r["kind"]].game if r["kind"] in REGISTERED_KINDS else "Preferans" for r in records}
    name = "Puzzles" if len(games) > 1 else f"{games.pop() if games else 'Preferans'} puzzles"
    return puzzle_sheet(name, puzzles, solutions_text(records).splitlines())
