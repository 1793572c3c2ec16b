"""Puzzle sets: unique answers re-proven from scratch, determinism, constraints, dedup, rating, CLI."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main
from pyanalyzer.cli.puzzles import puzzle_command
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.cards import Card
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_one_line, parse_layout
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans import puzzles
from pyanalyzer.preferans.puzzles import (
    BANDS,
    KINDS,
    Order,
    canonical_key,
    generate,
    load_puzzle,
    misere_like,
    parse_constraint,
)
from pyanalyzer.render.html import coloured
from pyanalyzer.thousand.puzzles import THOUSAND_KINDS


def _set(kind: str, count: int = 4, seed: int = 7, **kwargs) -> list:
    return list(generate(Order(kind, **kwargs), count, seed))


# -- an independent check of a puzzle ----------------------------------------------------
# Written from the rules, sharing nothing with the generator (pyanalyzer/preferans/puzzles.py and the
# helpers it uses, distinct_cards and discard_classes): every legal card (every one of the
# discards) is solved, and the cards are grouped by this file's own rule of equivalence. The
# solver is the reference minimax on endings; on full deals, where it is too slow for the
# default run, the engine (itself checked against the reference in test_engine.py), and the
# reference in the slow test of the bundled sets.


def _touching(a: Card, b: Card, own: set, in_play: set) -> bool:
    """Two cards of one holding are equivalent: same suit, and no card between them is still
    in play in another holding (cards played in earlier tricks are gone)."""
    if a.suit_number != b.suit_number:
        return False
    low, high = sorted((a.rank_number, b.rank_number))
    return all(c in own or c not in in_play for c in PREFERANS_RULES.deck
               if c.suit_number == a.suit_number and low < c.rank_number < high)


def _classes(cards: list, same) -> list[list]:
    """``cards`` grouped by the equivalence ``same`` (checked to be one: equal classes)."""
    classes: list[list] = []
    for card in cards:
        home = [cl for cl in classes if same(cl[0], card)]
        if home:
            assert len(home) == 1 and all(same(card, other) for other in home[0])
            home[0].append(card)
        else:
            classes.append([card])
    return classes


def _oracle(puzzle, slow: bool = False):
    return make_backend("reference" if slow or puzzle.layout.tricks_left <= 6 else "fast")


def _independent_check(puzzle, backend=None) -> None:
    """Exactly one class of equivalent choices is good, it holds the answer, and every other
    class is a refutation with its value."""
    backend = backend or _oracle(puzzle)
    if puzzle.kind == "discard":
        _check_discard(puzzle, backend)
        return
    layout = puzzle.layout
    mover = layout.to_move
    deck = layout.rules.deck
    counted = mover if puzzle.kind == "allpass" else None
    values = {deck.from_index(i): v
              for i, v in backend.card_values(layout.position(side=counted)).items()}
    legal = sorted(layout.legal_cards(), key=lambda c: c.index)
    assert sorted(values, key=lambda c: c.index) == legal
    own = set(layout.hands[mover])
    in_play = {c for seat in layout.seats for c in layout.hands[seat]} | set(layout.played)
    classes = _classes(legal, lambda a, b: _touching(a, b, own, in_play))
    assert all(len({values[c] for c in cl}) == 1 for cl in classes)  # equivalent: equal values
    if puzzle.kind == "misere":
        good = [c for c in legal if values[c] >= 1]                  # the card still catches
    else:
        # contract: the declarer takes the most; defend: the fewest; allpass: the mover's fewest
        pick = max if puzzle.kind == "contract" else min
        good = [c for c in legal if values[c] == pick(values.values())]
    answer_class = next(cl for cl in classes if puzzle.answer[0] in cl)
    assert sorted(good, key=lambda c: c.index) == answer_class, (puzzle.kind, format_one_line(layout))
    assert set(puzzle.equivalent) == set(answer_class)
    assert values[puzzle.answer[0]] == puzzle.value
    others = [cl for cl in classes if cl is not answer_class]
    assert len(puzzle.refutations) == len(others)
    for code, value in puzzle.refutations.items():
        card = next(c for c in legal if c.code == code)
        assert card not in answer_class and values[card] == value


def _check_discard(puzzle, backend) -> None:
    layout = puzzle.layout
    deck = layout.rules.deck
    twelve = sorted(list(layout.hands["S"]) + list(puzzle.talon), key=lambda c: c.index)
    outside = set(layout.hands["W"]) | set(layout.hands["E"])
    # Runs: the twelve cards split where a defender's card lies between (all twelve are South's).
    runs = _classes(twelve, lambda a, b: _touching(a, b, set(twelve), set(twelve) | outside))
    values = {}
    for pair in itertools.combinations(twelve, 2):
        hand = Hand([c for c in twelve if c not in pair], deck)
        trial = Layout({**layout.hands, "S": hand}, layout.contract, "S", layout.lead, rules=layout.rules)
        values[frozenset(pair)] = backend.solve(trial.position())

    def shape(pair) -> tuple:
        """Two discards are equivalent when they take as many cards from every run."""
        return tuple(len(set(pair) & set(run)) for run in runs)

    classes: dict[tuple, set] = {}
    for pair, value in values.items():
        classes.setdefault(shape(pair), set()).add(value)
    assert all(len(v) == 1 for v in classes.values())                # equivalent: equal values
    if layout.contract.is_misere:
        good = {pair for pair, v in values.items() if v == 0}          # the misère stays clean
    else:
        good = {pair for pair, v in values.items() if v == max(values.values())}
    assert {shape(pair) for pair in good} == {shape(puzzle.answer)}
    assert values[frozenset(puzzle.answer)] == puzzle.value
    assert len(puzzle.refutations) == len(classes) - 1
    codes = {c.code: c for c in twelve}
    for wrong, value in puzzle.refutations.items():
        pair = frozenset(codes[code] for code in wrong.split("+"))
        assert shape(pair) != shape(puzzle.answer) and values[pair] == value


@pytest.mark.parametrize("kind", KINDS)
def test_every_puzzle_is_unique_when_solved_again(kind):
    puzzles = _set(kind, 5, seed=3, tricks=(4, 6))
    assert len(puzzles) == 5
    for puzzle in puzzles:
        _independent_check(puzzle)
        # And the file written for it reads back to the same layout (pref solve reads it).
        again = parse_layout(puzzle.file_text())
        assert format_one_line(again) == format_one_line(puzzle.layout)


def test_full_deals_and_after():
    for puzzle in _set("contract", 2, seed=1, tricks=(10, 10)):
        _independent_check(puzzle)
        assert puzzle.layout.tricks_left == 10
        assert puzzle.layout.contract.level == puzzle.value
    for puzzle in _set("defend", 2, seed=2, tricks=(4, 4), after=2):
        _independent_check(puzzle)
        assert puzzle.layout.tricks_left == 4 and puzzle.layout.to_move != "S"


def test_same_seed_same_set_any_jobs():
    order = Order("misere", tricks=(4, 6))
    one = [p.to_dict() for p in generate(order, 6, 11)]
    again = [p.to_dict() for p in generate(order, 6, 11)]
    parallel = [p.to_dict() for p in generate(order, 6, 11, jobs=2)]
    other = [p.to_dict() for p in generate(order, 6, 12)]
    assert one == again == parallel
    assert one != other


def test_constraints_are_honoured():
    for puzzle in _set("contract", 3, tricks=(5, 5), constraints=(parse_constraint("S has As"),)):
        assert "As" in [c.code for c in puzzle.layout.hands["S"]]
    shape = parse_constraint("S shape 3-1-1-0")
    for puzzle in _set("contract", 3, tricks=(5, 5), constraints=(shape,)):
        lengths = sorted((len(puzzle.layout.hands["S"].cards_of_suit(s)) for s in range(4)),
                         reverse=True)
        assert lengths == [3, 1, 1, 0]
    for puzzle in _set("defend", 3, tricks=(6, 6), constraints=(parse_constraint("trumps 3+"),)):
        assert len(puzzle.layout.hands["S"].cards_of_suit(puzzle.layout.trump_number)) >= 3
    for puzzle in _set("misere", 3, tricks=(5, 5), constraints=(parse_constraint("S misere-like"),)):
        assert misere_like(puzzle.layout.hands["S"])
    for puzzle in _set("allpass", 3, constraints=(parse_constraint("tricks 4"),), tricks=(4, 4)):
        assert puzzle.layout.tricks_left == 4
    for puzzle in _set("discard", 3, tricks=(5, 5), constraints=(parse_constraint("S has Ah"),)):
        assert any(c.code == "Ah" for c in list(puzzle.layout.hands["S"]) + list(puzzle.talon))


def _permuted(puzzle, mapping):
    """The same puzzle with suit i renamed mapping[i]."""
    deck = puzzle.layout.rules.deck
    text = format_one_line(puzzle.layout)
    letters = "scdh"
    table = {letters[i]: letters[j].upper() for i, j in mapping.items()}
    fields = []
    for token in text.split():
        key, _, value = token.partition("=")
        if key in ("S", "W", "E"):
            value = "".join(table.get(ch, ch) for ch in value).lower()
        elif key == "contract" and value[-1] in table:
            value = value[:-1] + table[value[-1]].lower()
        fields.append(f"{key}={value}")
    other = load_puzzle({**puzzle.to_dict(), "layout": " ".join(fields).replace("title=", "x=")
                         .split(" x=")[0]})
    assert other.layout.rules.deck is deck
    return other


def test_dedup_key_ignores_suit_permutation_and_equivalent_ranks():
    misere = _set("misere", 1, tricks=(5, 5))[0]
    rotated = _permuted(misere, {0: 1, 1: 2, 2: 3, 3: 0})
    assert format_one_line(rotated.layout) != format_one_line(misere.layout)
    assert canonical_key(rotated) == canonical_key(misere)
    contract = _set("contract", 1, tricks=(5, 5), contract="6s")[0]
    swapped = _permuted(contract, {1: 3, 3: 1})  # clubs <-> hearts, spades stay trumps
    assert canonical_key(swapped) == canonical_key(contract)
    # Ranks count only relative to the cards in play: an ending of 7-8-9 equals one of J-Q-K.
    low = parse_layout("contract=misere declarer=S lead=W S=7s W=8s E=9s")
    high = parse_layout("contract=misere declarer=S lead=W S=Jd W=Qd E=Kd")
    base = load_puzzle({**misere.to_dict(), "layout": format_one_line(low)})
    other = load_puzzle({**misere.to_dict(), "layout": format_one_line(high)})
    assert canonical_key(base) == canonical_key(other)


def test_no_duplicates_in_a_set():
    puzzles = _set("allpass", 15, tricks=(2, 3))
    keys = [canonical_key(p) for p in puzzles]
    assert len(set(keys)) == len(keys)


def test_rating_fields_are_sane():
    for kind in KINDS:
        for puzzle in _set(kind, 4, tricks=(4, 6)):
            r = puzzle.rating
            assert r.alternatives == len(puzzle.refutations) >= 1
            assert r.close + r.by_a_lot == r.alternatives
            assert 1 <= r.depth <= puzzle.layout.tricks_left
            assert set(r.heuristics_failing) <= {"highest", "lowest", "longest suit", "two lowest",
                                                 "shortest suit", "two highest"}
            assert 0 <= r.score <= 14 and r.band in BANDS
    for band in ("easy", "hard"):
        for puzzle in _set("contract", 3, tricks=(4, 6), band=band):
            assert puzzle.rating.band == band


def _run(args):
    return CliRunner().invoke(puzzle_command, args)


def test_cli_writes_files_sheets_and_index(tmp_path):
    out = tmp_path / "set"
    result = _run(["discard", "--count", "3", "--seed", "5", "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "puzzles.jsonl").read_text().splitlines()]
    assert len(records) == 3
    for key in ("kind", "layout", "question", "answer", "refutations", "rating"):
        assert key in records[0]
    for record in records:
        solved = CliRunner().invoke(main, ["solve", str(out / record["file"])])
        assert solved.exit_code == 0, solved.output
    sheet = (out / "sheet.txt").read_text()
    assert "Q3." in sheet and "♠" in sheet
    html = (out / "sheet.html").read_text()
    assert "page-break-before:always" in html and "Solutions" in html and "♥" in html
    assert (out / "solutions.txt").read_text().count("\n") == 3


def test_cli_resumes_to_the_same_set(tmp_path):
    fresh, resumed = tmp_path / "fresh", tmp_path / "resumed"
    args = ["defend", "--seed", "9", "--jobs", "1", "--tricks", "4..5"]
    assert _run([*args, "--count", "5", "--out", str(fresh)]).exit_code == 0
    assert _run([*args, "--count", "2", "--out", str(resumed)]).exit_code == 0
    # An interrupted run: the index holds what was accepted so far.
    assert _run([*args, "--count", "5", "--out", str(resumed)]).exit_code == 0
    assert (fresh / "puzzles.jsonl").read_text() == (resumed / "puzzles.jsonl").read_text()
    assert sorted(p.name for p in fresh.iterdir()) == sorted(p.name for p in resumed.iterdir())


@pytest.mark.parametrize("args, words", [
    (["contract", "--constraint", "S owns everything"], "bad constraint"),
    (["misere", "--constraint", "trumps 5+"], "no trumps"),
    (["discard", "--after", "2"], "--after"),
    (["contract", "--tricks", "9..12"], "trick range"),
    (["contract", "--tricks", "x"], "bad --tricks"),
    (["contract", "--contract", "misere"], "needs"),
    (["contract", "--constraint", "S shape 5-4-1-0", "--tricks", "4"], "shape"),
])
def test_cli_errors_are_one_line_with_status_2(tmp_path, args, words):
    result = _run([*args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output


def test_cli_refuses_a_folder_of_another_set(tmp_path):
    out = str(tmp_path / "s")
    assert _run(["allpass", "--count", "1", "--seed", "1", "--out", out, "--jobs", "1"]).exit_code == 0
    result = _run(["allpass", "--count", "1", "--seed", "2", "--out", out, "--jobs", "1"])
    assert result.exit_code == 2 and "another set" in result.output


CHROMIUM = next((shutil.which(n) for n in ("chromium-headless-shell", "chromium", "chromium-browser",
                                           "google-chrome", "headless_shell") if shutil.which(n)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium on this machine")
def test_html_sheet_renders(tmp_path):
    out = tmp_path / "set"
    assert _run(["misere", "--count", "2", "--out", str(out), "--jobs", "1"]).exit_code == 0
    shot = tmp_path / "sheet.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={shot}", "--window-size=800,1200",
                    (out / "sheet.html").as_uri()], check=True, timeout=60, capture_output=True)
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    colours = image.getcolors(1 << 20)
    assert colours and len(colours) > 10  # text drawn, not a blank page
    assert any(r > 150 and g < 80 and b < 80 for _, (r, g, b) in colours)  # red suit symbols
    # Printed, the solutions start a page of their own: two puzzles fit on page one.
    pdf = tmp_path / "sheet.pdf"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", (out / "sheet.html").as_uri()],
                   check=True, timeout=60, capture_output=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())) >= 2


def test_ctrl_c_keeps_the_puzzles_already_written(tmp_path, monkeypatch):
    import pyanalyzer.cli.puzzles as command

    real = command.generate

    def interrupted(*args, **kwargs):
        for number, puzzle in enumerate(real(*args, **kwargs)):
            if number == 2:
                raise KeyboardInterrupt
            yield puzzle

    monkeypatch.setattr(command, "generate", interrupted)
    out = tmp_path / "set"
    result = _run(["contract", "--count", "5", "--seed", "3", "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 130
    assert len((out / "puzzles.jsonl").read_text().splitlines()) == 2
    assert (out / "contract-002.txt").exists() and (out / "sheet.html").exists()
    monkeypatch.setattr(command, "generate", real)
    assert _run(["contract", "--count", "5", "--seed", "3", "--out", str(out), "--jobs", "1"]).exit_code == 0
    fresh = tmp_path / "fresh"
    assert _run(["contract", "--count", "5", "--seed", "3", "--out", str(fresh), "--jobs", "1"]).exit_code == 0
    assert (out / "puzzles.jsonl").read_text() == (fresh / "puzzles.jsonl").read_text()


BUNDLED = Path(__file__).resolve().parent.parent / "layouts" / "puzzles"


def _bundled(kind: str) -> list[dict]:
    return [json.loads(line) for line in
            (BUNDLED / kind / "puzzles.jsonl").read_text(encoding="utf-8").splitlines()]


def test_bundled_sets_hold_ten_verified_puzzles_a_kind():
    for kind in KINDS:
        records = _bundled(kind)
        assert len(records) >= 10
        for record in records:
            puzzle = load_puzzle(record)
            _independent_check(puzzle)
            assert format_one_line(parse_layout((BUNDLED / kind / record["file"]).read_text())) == \
                record["layout"]


@pytest.mark.slow
def test_bundled_sets_against_the_reference_minimax():
    """Every bundled card puzzle, and the first two discard puzzles (a misère and a trick
    contract: 66 full deals each), with the reference minimax; the other discard puzzles would
    take it most of an hour, and the default run checks them all with the engine."""
    for kind in KINDS:
        records = _bundled(kind)[:2] if kind == "discard" else _bundled(kind)
        for record in records:
            puzzle = load_puzzle(record)
            _independent_check(puzzle, _oracle(puzzle, slow=True))


def _documented_commands() -> list[list[str]]:
    """The ``pref puzzles ...`` commands of layouts/puzzles/README.md, as argument lists."""
    text = (BUNDLED / "README.md").read_text(encoding="utf-8")
    return [line.split()[1:] for line in text.splitlines() if line.strip().startswith("pref puzzles ")]


def test_bundled_sets_are_what_their_documented_commands_generate(tmp_path):
    commands = _documented_commands()
    assert sorted(args[1] for args in commands) == sorted(KINDS + THOUSAND_KINDS)
    for args in commands:
        kind = args[1]
        out = tmp_path / kind
        options = dict(zip(args[2::2], args[3::2]))
        assert options["--out"] == f"layouts/puzzles/{kind}"
        options.update({"--out": str(out), "--count": "2", "--jobs": "1"})
        result = _run([kind, *itertools.chain.from_iterable(options.items())])
        assert result.exit_code == 0, result.output
        fresh = (out / "puzzles.jsonl").read_text(encoding="utf-8").splitlines()
        assert [json.loads(line) for line in fresh] == _bundled(kind)[:2], kind
        for record in _bundled(kind)[:2]:
            assert (out / record["file"]).read_text(encoding="utf-8") == \
                (BUNDLED / kind / record["file"]).read_text(encoding="utf-8")


def test_each_kind_deals_its_own_hands(monkeypatch):
    """The same seed must not deal the same hands to two kinds (each kind seeds apart)."""
    real_deal = puzzles._deal
    dealt: dict[str, set] = {kind: set() for kind in KINDS}

    def recording(rng, order):
        deal = real_deal(rng, order)
        layout, talon = deal
        south = frozenset(layout.hands["S"]) | frozenset(talon)
        dealt[order.kind].add(frozenset(c for c in south if c not in talon))
        return None  # rejected: no solving

    monkeypatch.setattr(puzzles, "_deal", recording)
    for kind in KINDS:
        for number in range(40):
            assert puzzles.attempt(Order(kind, tricks=(10, 10)), 7, number) is None
    for first, second in itertools.combinations(KINDS, 2):
        assert not dealt[first] & dealt[second], (first, second)


def test_attempt_random_generator_is_the_same_in_every_process():
    """Seeded by a text, not by ``hash()``: another process with another PYTHONHASHSEED deals
    the same cards."""
    code = ("from pyanalyzer.preferans.puzzles import attempt_rng; "
            "print(attempt_rng(7, 'discard', 3).random())")
    values = set()
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        values.add(done.stdout.strip())
    assert values == {str(puzzles.attempt_rng(7, "discard", 3).random())}


# -- the wording ------------------------------------------------------------------------


def test_rating_says_one_alternative_fails_in_the_singular():
    one = puzzles.Rating(alternatives=1, close=1, by_a_lot=0, heuristics_failing=[], depth=1)
    assert "1 alternative fails," in one.describe() and "alternatives" not in one.describe()
    assert "3 alternatives fail," in puzzles.Rating(3, 1, 2, [], 1).describe()


def test_questions_say_who_leads_and_what_is_asked():
    contract = parse_layout("contract=6s declarer=S lead=S S=As,7d,8d W=Ks,7h,8h E=Qs,7c,8c")
    assert puzzles.question_text("contract", contract, 1) == \
        "6♠ by South, South to lead: with which card can he take 1 of the 3 tricks?"
    assert "all 3 tricks" in puzzles.question_text("contract", contract, 3)
    allpass = parse_layout("contract=allpass lead=W S=As,7d W=Ks,7h E=Qs,7c")
    assert puzzles.question_text("allpass", allpass, 1) == (
        "All-pass, West to lead: which card guarantees that he takes no more than 1 of the 2 "
        "tricks, whatever the others do?")
    assert "guarantees that he takes none of the 2 tricks, whatever the others do?" in \
        puzzles.question_text("allpass", allpass, 0)
    defend = parse_layout("contract=6s declarer=S lead=W S=As,7d,8d W=Ks,7h,8h E=Qs,7c,8c")
    assert puzzles.question_text("defend", defend, 2).endswith(
        "West to lead: which card holds the declarer to 2 of the 3 tricks?")
    assert puzzles.question_text("defend", defend, 0).endswith(
        "which card stops the declarer from taking any of the 3 tricks?")


def test_discard_puzzles_say_who_leads_everywhere(tmp_path):
    out = tmp_path / "set"
    result = _run(["discard", "--count", "3", "--seed", "5", "--out", str(out), "--jobs", "1",
                   "--tricks", "5"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "puzzles.jsonl").read_text().splitlines()]
    sheet = (out / "sheet.txt").read_text(encoding="utf-8")
    page = (out / "sheet.html").read_text(encoding="utf-8")
    for record in records:
        layout = parse_layout(record["layout"])
        leads = f"{layout.rules.seat_name(layout.lead)} to lead"
        assert record["lead"] == layout.lead
        assert leads in record["question"]
        first_line = (out / record["file"]).read_text(encoding="utf-8").splitlines()[0]
        assert first_line == f"# {record['question']}"
        assert f"Q{record['number']}. {record['question']}" in sheet
        # Under the diagram, its suit symbols red as in the hands.
        assert f"<b>Q{record['number']}.</b> {coloured(record['question'])}</p>" in page
    assert page.count(" to lead</p>") == len(records)   # each diagram's headline names the leader
    assert '<span style="color:#c8102e">' in page


@pytest.mark.parametrize("kind", ["misere", "contract", "allpass"])
def test_question_after_some_tricks(kind):
    for puzzle in _set(kind, 2, seed=4, tricks=(4, 4), after=3):
        assert puzzle.layout.tricks_left == 4
        _independent_check(puzzle)
