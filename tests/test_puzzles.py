"""Puzzle sets: unique answers re-proven from scratch, determinism, constraints, dedup, rating, CLI."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from pyanalyzer.cli import main
from pyanalyzer.defence import distinct_cards
from pyanalyzer.engines import make_backend
from pyanalyzer.hand import Hand
from pyanalyzer.layout import Layout
from pyanalyzer.layout_io import format_one_line, parse_layout
from pyanalyzer.makeable import discard_classes
from pyanalyzer.puzzle_command import puzzle_command
from pyanalyzer.puzzles import (
    BANDS,
    KINDS,
    Order,
    canonical_key,
    generate,
    load_puzzle,
    misere_like,
    parse_constraint,
)


def _set(kind: str, count: int = 4, seed: int = 7, **kwargs) -> list:
    return list(generate(Order(kind, **kwargs), count, seed))


def _independent_check(puzzle) -> None:
    """Solve every legal card (discard class) with a fresh engine: exactly one class is good."""
    backend = make_backend("fast", tt_size_mb=8)
    layout = puzzle.layout
    if puzzle.kind == "discard":
        twelve = sorted(list(layout.hands["S"]) + list(puzzle.talon), key=lambda c: c.index)
        outside = layout.hands["W"].mask | layout.hands["E"].mask
        results = []
        for pair in discard_classes(twelve, outside):
            hand = Hand([c for c in twelve if c not in pair], layout.rules.deck)
            trial = Layout({**layout.hands, "S": hand}, layout.contract, "S", layout.lead)
            results.append((pair, backend.solve(trial.position())))
        misere = layout.contract.is_misere
        best = 0 if misere else max(v for _, v in results)
        good = [p for p, v in results if v == best]
        assert len(good) == 1
        assert set(good[0]) <= set(puzzle.equivalent)
        assert {c for c in puzzle.answer} <= set(puzzle.equivalent)
        assert results and puzzle.value == best
        return
    counted = layout.to_move if puzzle.kind == "allpass" else None
    pos = layout.position(side=counted)
    values = backend.card_values(pos)
    assert set(values) == {c.index for c in layout.legal_cards()}
    reps = distinct_cards(sorted(values), pos.hands, pos.played, pos.suit_masks)
    if puzzle.kind == "misere":
        good = [r for r in reps if values[r] >= 1]
    else:
        maximise = (layout.contract.kind == "tricks") == (layout.to_move == layout.declarer) \
            and puzzle.kind != "allpass"
        best = max(values.values()) if maximise else min(values.values())
        good = [r for r in reps if values[r] == best]
    assert len(good) == 1, (puzzle.kind, format_one_line(layout), values)
    answer = puzzle.answer[0].index
    assert values[answer] == values[good[0]] == puzzle.value
    # The answer is in the good card's run: the same class once equivalent cards are merged.
    assert distinct_cards(sorted({answer, good[0]}), pos.hands, pos.played, pos.suit_masks) == \
        [min(answer, good[0])]
    assert len(reps) - 1 == len(puzzle.refutations)


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
    import pyanalyzer.puzzle_command as command

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


def test_bundled_sets_hold_ten_verified_puzzles_a_kind():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "layouts" / "puzzles"
    for kind in KINDS:
        lines = (root / kind / "puzzles.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) >= 10
        for line in lines:
            record = json.loads(line)
            puzzle = load_puzzle(record)
            _independent_check(puzzle)
            assert format_one_line(parse_layout((root / kind / record["file"]).read_text())) == \
                record["layout"]


@pytest.mark.parametrize("kind", ["misere", "contract", "allpass"])
def test_question_after_some_tricks(kind):
    for puzzle in _set(kind, 2, seed=4, tricks=(4, 4), after=3):
        assert puzzle.layout.tricks_left == 4
        _independent_check(puzzle)
