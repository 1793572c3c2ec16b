"""Thousand puzzles (pyanalyzer/thousand/puzzles.py): unique answers re-proven from scratch,
determinism, the command line, the bundled sets.

The independent check solves every legal move (every give-away) afresh as a layout of its own
with ``solve`` -- not the move values the generator reads -- and groups the moves by this file's
own rule of equivalence. The solver is the reference minimax on endings; on full deals, where it
takes seconds a deal, the engine (itself checked against the reference on random Thousand deals
in the engine tests), and the reference in the slow test of the bundled sets.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.main import main
from pyanalyzer.cli.puzzles import puzzle_command
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import THOUSAND, Card
from pyanalyzer.model.contract import POINTS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_one_line, parse_layout
from pyanalyzer.model.move import Move
from pyanalyzer.model.rules import THOUSAND_RULES
from pyanalyzer.preferans.puzzles import Order, generate, load_puzzle, verify
from pyanalyzer.thousand.puzzles import (
    EXCHANGE,
    MARRIAGE,
    PLAY,
    THOUSAND_KINDS,
    exchange_puzzle,
)

BUNDLED = Path(__file__).resolve().parent.parent / "layouts" / "puzzles"


def _set(kind: str, count: int, seed: int = 7, **kwargs) -> list:
    return list(generate(Order(kind, **kwargs), count, seed))


# -- an independent check ----------------------------------------------------------------


def total(layout: Layout, engine: str) -> int:
    """The declarer's points for the deal with best play from ``layout``, solved afresh."""
    if not layout.tricks_left:
        return layout.scored.get(layout.declarer, 0)
    return solve(layout, engine=engine, cards=False, line=False).total


def _touching(a: Card, b: Card, own: set, in_play: set) -> bool:
    """Same suit, and no card between them still in play outside ``own``."""
    if a.suit_number != b.suit_number:
        return False
    low, high = sorted((a.rank_number, b.rank_number))
    return all(c in own or c not in in_play for c in THOUSAND
               if c.suit_number == a.suit_number and low < c.rank_number < high)


def _choice(move: Move) -> str:
    if not move.declare:
        return "play on"
    return "declare aces" if move.card.rank.letter == "A" else f"declare {move.card.suit.letter}"


def _in_play(layout: Layout) -> set:
    return {c for hand in layout.hands.values() for c in hand} | set(layout.played)


def check_card_puzzle(puzzle, engine: str) -> None:
    layout, bid = puzzle.layout, puzzle.layout.contract.bid
    assert layout.to_move == layout.declarer == "S"
    values = {move: total(layout.play(move), engine) for move in layout.moves()}
    good = {m for m, v in values.items() if v >= bid}
    assert values[puzzle.moves[0]] == puzzle.value >= bid
    if puzzle.kind == PLAY:
        assert good == set(puzzle.moves)
        own, in_play = set(layout.hands["S"]), _in_play(layout)
        first = puzzle.moves[0]
        for move in puzzle.moves:  # one class: same kind of lead, same value, touching cards
            assert move.declare == first.declare and values[move] == values[first]
            assert _touching(move.card, first.card, own, in_play)
        for code, value in puzzle.refutations.items():
            wrong = Move(Card(code.rstrip("+"), THOUSAND), code.endswith("+"))
            assert values[wrong] == value < bid
        assert len(values) - len(good) >= len(puzzle.refutations) >= 1
    else:
        by_choice: dict[str, list[int]] = {}
        for move, value in values.items():
            by_choice.setdefault(_choice(move), []).append(value)
        winning = [c for c, vs in by_choice.items() if max(vs) >= bid]
        assert winning == [puzzle.choice]
        assert good == {m for m in values if _choice(m) == puzzle.choice and values[m] >= bid} == set(puzzle.moves)
        assert puzzle.refutations == {c: max(vs) for c, vs in by_choice.items() if c != puzzle.choice}


def check_exchange_puzzle(puzzle, engine: str) -> None:
    layout, bid = puzzle.layout, puzzle.layout.contract.bid
    assert layout.exchange_pending
    ten = list(layout.hands["S"]) + list(layout.talon)
    outside = set(layout.hands["W"]) | set(layout.hands["E"])
    values = {}
    for west in ten:
        for east in ten:
            if west != east:
                text = format_one_line(layout) + f" gave=W:{west.code},E:{east.code}"
                values[(west, east)] = total(parse_layout(text), engine)
    answer = (puzzle.gave["W"], puzzle.gave["E"])
    assert values[answer] == puzzle.value >= bid

    def same_class(pair) -> bool:  # the same two runs of touching cards, to either opponent
        a, b = answer
        x, y = pair
        in_play = set(ten) | outside
        return ((_touching(a, x, set(ten), in_play) and _touching(b, y, set(ten), in_play))
                or (_touching(a, y, set(ten), in_play) and _touching(b, x, set(ten), in_play)))

    good = [pair for pair, value in values.items() if value >= bid]
    assert good and all(same_class(pair) for pair in good)
    assert set(good) == set(puzzle.good_gives)
    for key, value in puzzle.refutations.items():
        west, east = (Card(code, THOUSAND) for code in key.split("+"))
        assert values[(west, east)] == value < bid and not same_class((west, east))


def check(puzzle, engine: str) -> None:
    if puzzle.kind == EXCHANGE:
        check_exchange_puzzle(puzzle, engine)
    else:
        check_card_puzzle(puzzle, engine)
    assert verify(puzzle)
    again = load_puzzle(json.loads(json.dumps(puzzle.to_dict())))
    assert again.to_dict() == puzzle.to_dict()


# -- the kinds ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind, tricks", [(PLAY, (2, 4)), (MARRIAGE, (3, 4))])
def test_card_puzzles_are_unique_against_the_reference_minimax(kind, tricks):
    puzzles = _set(kind, 3, seed=3, tricks=tricks)
    assert len(puzzles) == 3
    for puzzle in puzzles:
        assert tricks[0] <= puzzle.layout.tricks_left <= tricks[1]
        check(puzzle, "reference")
        assert parse_layout(puzzle.file_text()) == puzzle.layout


def test_exchange_puzzles_on_full_deals_against_fresh_solves():
    for puzzle in _set(EXCHANGE, 1, seed=3, tricks=(8, 8)):
        assert puzzle.layout.tricks_left == 8 - 1 and len(puzzle.talon) == 3  # 7 cards before the exchange
        check(puzzle, "fast")


def test_small_exchanges_against_the_reference_minimax():
    """Three cards each and the talon: 30 give-aways, each solved by the reference minimax."""
    rng, backend, found = random.Random(11), make_backend("fast"), 0
    deck = THOUSAND
    for _ in range(60):
        cards = [c for c in deck if c.code not in ("Kh", "Qh")]
        rng.shuffle(cards)
        south = [deck.card("K", "h"), deck.card("Q", "h"), cards[0]]
        hands = {"S": Hand(south, deck), "W": Hand(cards[1:4], deck), "E": Hand(cards[4:7], deck)}
        layout = Layout(hands, Contract(POINTS, None), "S", "S", talon=tuple(cards[7:10]),
                        rules=THOUSAND_RULES, won=frozenset("S"), scored={"S": 40})
        puzzle = exchange_puzzle(layout, backend)
        if puzzle is not None:
            check_exchange_puzzle(puzzle, "reference")
            found += 1
            if found == 3:
                break
    assert found == 3


def test_the_marriage_choice_is_one_of_the_marriages_or_playing_on():
    for puzzle in _set(MARRIAGE, 4, seed=5):
        assert puzzle.choice in ("play on", "declare s", "declare c", "declare d", "declare h")
        assert all((m.declare and puzzle.choice != "play on") or (not m.declare and puzzle.choice == "play on")
                   for m in puzzle.moves)
        assert puzzle.layout.may_declare and puzzle.layout.lead == "S"
        check(puzzle, "fast")


def test_sets_are_reproducible_and_independent_of_the_processes():
    for kind in THOUSAND_KINDS:
        tricks, count = ((8, 8), 1) if kind == EXCHANGE else ((3, 5), 3)
        first = [p.to_dict() for p in generate(Order(kind, tricks=tricks), count, 21)]
        again = [p.to_dict() for p in generate(Order(kind, tricks=tricks), count, 21, jobs=2)]
        assert first == again and len(first) == count
        other = [p.to_dict() for p in generate(Order(kind, tricks=tricks), count, 22)]
        assert other != first


def test_ratings_in_points():
    for puzzle in _set(PLAY, 4, seed=9, tricks=(3, 5)):
        r = puzzle.rating
        bid = puzzle.layout.contract.bid
        assert r.alternatives == len(puzzle.refutations)
        assert r.close == sum(1 for v in puzzle.refutations.values() if bid - v <= 10)
        assert r.close + r.by_a_lot == r.alternatives
        assert set(r.heuristics_failing) <= {"highest", "lowest", "longest suit", "declare at once"}
        assert 1 <= r.depth <= puzzle.layout.tricks_left
        assert "points or less" in puzzle.file_text()


# -- the command line ---------------------------------------------------------------------


def _run(args):
    return CliRunner().invoke(puzzle_command, args)


@pytest.mark.parametrize("kind", THOUSAND_KINDS)
def test_cli_writes_the_set(tmp_path, kind):
    out = tmp_path / kind
    result = _run([kind, "--count", "2", "--seed", "4", "--out", str(out), "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [r["number"] for r in records] == [1, 2]
    assert records == [json.loads(line) for line in (out / "puzzles.jsonl").read_text().splitlines()]
    for record in records:
        assert {"kind", "layout", "question", "answer", "equivalent", "value", "refutations", "rating",
                "bid"} <= set(record)
        text = (out / record["file"]).read_text(encoding="utf-8")
        assert text.startswith(f"# {record['question']}\n") and "# solution: " in text
        if kind != EXCHANGE:  # (an exchange still to be made is for the exchange ranking)
            solved = CliRunner().invoke(main, ["solve", str(out / record["file"])])
            assert solved.exit_code == 0, solved.output
    assert "Thousand puzzles" in (out / "sheet.html").read_text(encoding="utf-8")
    assert (out / "solutions.txt").read_text(encoding="utf-8").count("\n") == 2


@pytest.mark.parametrize("args, words", [
    ([PLAY, "--after", "2"], "--after"),
    ([PLAY, "--contract", "6s"], "--contract"),
    ([PLAY, "--tricks", "9"], "trick range"),
    ([MARRIAGE, "--tricks", "8"], "trick range"),
    ([EXCHANGE, "--tricks", "5"], "--tricks 8"),
    ([PLAY, "--constraint", "trumps 4+"], "does not apply"),
    ([EXCHANGE, "--constraint", "tricks 4"], "full deals"),
    ([PLAY, "--constraint", "S shape 4-3-2-1", "--tricks", "4"], "shape"),
    ([PLAY, "--constraint", "S has 7s"], "no 7s"),
])
def test_cli_errors_are_one_line_with_status_2(tmp_path, args, words):
    result = _run([*args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output


def test_ctrl_c_keeps_the_puzzles_already_written(tmp_path, monkeypatch):
    import pyanalyzer.cli.puzzles as command

    real = command.generate

    def interrupted(*args, **kwargs):
        for number, puzzle in enumerate(real(*args, **kwargs)):
            if number == 1:
                raise KeyboardInterrupt
            yield puzzle

    monkeypatch.setattr(command, "generate", interrupted)
    out, fresh = tmp_path / "set", tmp_path / "fresh"
    args = [PLAY, "--count", "3", "--seed", "3", "--jobs", "1"]
    result = _run([*args, "--out", str(out)])
    assert result.exit_code == 130
    assert len((out / "puzzles.jsonl").read_text().splitlines()) == 1
    monkeypatch.setattr(command, "generate", real)
    assert _run([*args, "--out", str(out)]).exit_code == 0
    assert _run([*args, "--out", str(fresh)]).exit_code == 0
    assert (out / "puzzles.jsonl").read_text() == (fresh / "puzzles.jsonl").read_text()


# -- the bundled sets ---------------------------------------------------------------------


def _bundled(kind: str) -> list[dict]:
    return [json.loads(line) for line in (BUNDLED / kind / "puzzles.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("kind", THOUSAND_KINDS)
def test_bundled_sets_are_verified(kind):
    """Every card puzzle; the first two exchanges (180 full deals each), the rest in the slow run."""
    records = _bundled(kind)
    assert len(records) >= 10
    for record in records[:2] if kind == EXCHANGE else records:
        check(load_puzzle(record), "fast")
    for record in records:
        assert format_one_line(parse_layout((BUNDLED / kind / record["file"]).read_text())) == record["layout"]


@pytest.mark.slow
def test_bundled_sets_in_full():
    """The other exchanges with the engine; the card puzzles with the reference minimax."""
    for record in _bundled(EXCHANGE)[2:]:
        check(load_puzzle(record), "fast")
    for kind in (PLAY, MARRIAGE):
        for record in _bundled(kind):
            check(load_puzzle(record), "reference")


def test_constraints_hold_at_the_question():
    from pyanalyzer.preferans.puzzles import parse_constraint

    has = parse_constraint("S has As")
    for puzzle in _set(PLAY, 2, seed=2, tricks=(6, 6), constraints=(parse_constraint("W has 9h"),)):
        assert THOUSAND.card("9", "h") in puzzle.layout.hands["W"] and puzzle.layout.tricks_left == 6
    for puzzle in _set(EXCHANGE, 1, seed=2, tricks=(8, 8), constraints=(has, parse_constraint("tricks 8"))):
        assert THOUSAND.card("A", "s") in list(puzzle.layout.hands["S"]) + list(puzzle.talon)
