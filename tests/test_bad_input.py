"""Bad input never gets a traceback or a hang (issue 16, section 2).

Every bad input here gets one line ``pref: error: ...`` on standard error
naming the offending token and exit status 2; a batch answers every line in
order and exits with status 1 when some line failed.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from child_process import child_environment
from click.testing import CliRunner

from pyanalyzer.cli.main import main
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.layout_io import MAX_LAYOUT_SIZE, parse_layout, split_words

# South leads As, West and East follow; then 7d: South takes 1 of 2 (the fast engine's answer,
# the same as tests/test_cli.py's layouts of this size).
GOOD = "contract=6s declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh"
ALLPASS = "contract=allpass lead=S S=As,7h W=Ks,8h E=Qs,9h"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def assert_error(result, *tokens: str, status: int = 2) -> str:
    """One line ``pref: error: ...`` naming every token, the given status, no traceback."""
    assert result.exit_code == status, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pref: error: "), lines[0]
    for token in tokens:
        assert token in lines[0], (token, lines[0])
    return lines[0]


# -- 1. layout files that cannot be read --------------------------------------

LAYOUT_COMMANDS = [
    ["solve"], ["show"], ["misere"], ["contract"], ["allpass"],
]


@pytest.mark.parametrize("command", LAYOUT_COMMANDS)
def test_a_directory_is_reported_as_a_directory(command, tmp_path):
    assert_error(run(*command, str(tmp_path)), str(tmp_path), "is a directory")


@pytest.mark.parametrize("command", LAYOUT_COMMANDS)
def test_dev_null_is_an_empty_file_not_a_missing_one(command):
    message = assert_error(run(*command, os.devnull), os.devnull, "empty")
    assert "no such" not in message


def test_a_file_name_over_255_characters():
    name = "a" * 300
    assert_error(run("solve", name), "a" * 40, "File name too long")


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux /proc only")
def test_proc_self_mem_gives_its_os_error():
    assert_error(run("solve", "/proc/self/mem"), "/proc/self/mem", "cannot read")


# The files below are named relative to the test's folder: a message quotes a long path
# shortened (as it should), and the temporary folder's path is longer in some runs (pytest -n).

def test_a_file_without_read_permission(tmp_path, monkeypatch):
    # Tests often run as root, who may read anything: the permission error is raised by hand.
    monkeypatch.chdir(tmp_path)
    path = Path("secret.txt")
    path.write_text(GOOD, encoding="utf-8")
    real_open = open

    def refusing_open(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing_open)
    for command in LAYOUT_COMMANDS:
        assert_error(run(*command, str(path)), str(path), "Permission denied")


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    result = run("solve", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["declarer_tricks"] == 1
    path.write_bytes(b"\xef\xbb\xbfcontract: 6s\ndeclarer: S\nlead: S\nS: As 7d\nW: 7h 8h\nE: Ad Kh\n")
    assert run("show", str(path), "--one-line").exit_code == 0


@pytest.mark.parametrize("command", LAYOUT_COMMANDS)
def test_a_file_that_is_not_utf8(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = Path("latin1.txt")
    path.write_bytes("title: Mis\xe8re\n".encode("latin-1") + GOOD.encode())
    assert_error(run(*command, str(path)), str(path), "not UTF-8", "0xe8")


def test_a_huge_layout_file_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = Path("huge.txt")
    path.write_bytes(b"title: " + b"x" * (2 * MAX_LAYOUT_SIZE))
    assert_error(run("solve", str(path)), str(path), f"{MAX_LAYOUT_SIZE:,} bytes")


# -- 2. batches: a bad byte loses one line, not the batch ----------------------

@pytest.mark.parametrize("command, good", [
    (["solve", "--json"], GOOD),
    (["allpass"], ALLPASS),
    (["table"], "N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q"),
])
def test_a_non_utf8_line_gets_its_error_record_and_the_batch_goes_on(command, good, tmp_path):
    path = tmp_path / "batch.txt"
    path.write_bytes(good.encode() + b"\n# comment\nS=\xff\xfe\n" + good.encode() + b"\n")
    result = run(*command, "--batch", str(path))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 3
    assert "error" not in records[0] and "error" not in records[2]
    assert records[1]["line"] == 3
    assert "not UTF-8" in records[1]["error"] and "0xff" in records[1]["error"]


def test_batch_text_output_marks_the_bad_line(tmp_path):
    path = tmp_path / "batch.txt"
    path.write_bytes(GOOD.encode() + b"\n\xff\n" + GOOD.encode() + b"\n")
    result = run("solve", "--batch", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("line 1: South takes 1")
    assert lines[1].startswith("line 2: error: line 2 is not UTF-8")
    assert lines[2].startswith("line 3: South takes 1")


@pytest.mark.parametrize("command, good", [
    (["solve", "--json"], GOOD), (["allpass"], ALLPASS), (["table"], "N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q"),
])
def test_a_batch_without_failures_exits_0(command, good, tmp_path):
    path = tmp_path / "batch.txt"
    path.write_bytes(b"\xef\xbb\xbf" + f"{good}\n\n# comment\n{good}\n".encode())
    result = run(*command, "--batch", str(path))
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


def test_batch_exit_status_is_in_the_help():
    for command in ("solve", "allpass", "table"):
        assert "Exit status 1 if any line failed" in " ".join(run(command, "--help").stdout.split())


def test_a_batch_line_over_the_size_bound_is_one_error(tmp_path):
    path = tmp_path / "batch.txt"
    path.write_bytes(GOOD.encode() + b"\n" + b"x" * (3 * MAX_LAYOUT_SIZE) + b"\n" + GOOD.encode() + b"\n")
    result = run("solve", "--batch", str(path), "--json")
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert ["error" in r for r in records] == [False, True, False]
    assert records[1]["line"] == 2
    assert f"over {MAX_LAYOUT_SIZE:,} bytes" in records[1]["error"]


def test_batch_from_standard_input_streams(tmp_path):
    """Each line is answered before the next one is written: a reader that waited for the end
    of standard input would never answer while standard input stays open. (The 120 s are a
    bound on a hang, not a guess at the speed: the answer comes in well under a second; a
    child that ends early ends the wait at once.)"""
    process = subprocess.Popen(
        [sys.executable, "-m", "pyanalyzer", "solve", "--batch", "-", "--json"], cwd=tmp_path,
        env=child_environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    answers: queue.Queue[str] = queue.Queue()

    def read_answers() -> None:
        for line in process.stdout:
            answers.put(line)
        answers.put(f"(standard output closed; standard error: {process.stderr.read()!r})")

    threading.Thread(target=read_answers, daemon=True).start()
    try:
        for _ in range(3):
            process.stdin.write(GOOD + "\n")
            process.stdin.flush()
            assert json.loads(answers.get(timeout=120))["declarer_tricks"] == 1
        process.stdin.write("nonsense\n")
        process.stdin.close()
        assert "error" in json.loads(answers.get(timeout=120))
        assert process.wait(timeout=120) == 1
    finally:
        process.kill()
        process.wait()


# -- 5. a megabyte-long line: linear reading and a stated bound -----------------

def test_split_words_agrees_with_shlex():
    """The linear word splitter against ``shlex.split`` (the POSIX rules it replaces) on
    random strings of quotes, backslashes, blanks and letters; both fail on the same ones."""
    rng = random.Random(16)
    for _ in range(20_000):
        text = "".join(rng.choice(" \t\"'\\ab=\n") for _ in range(rng.randint(0, 12)))
        try:
            expected = shlex.split(text, comments=False, posix=True)
        except ValueError:
            expected = "error"
        try:
            got = split_words(text)
        except LayoutError:
            got = "error"
        assert got == expected, text


def test_reading_a_long_line_is_linear():
    """Compares two sizes rather than a time limit, so the machine's speed cancels out: for
    4x the text, ``shlex`` (quadratic) took about 16x the time; a linear reader about 4x.
    The bound 10x is between, over the best of seven runs each, in this process's CPU time
    (other processes on a busy machine do not count in it)."""
    def best(size: int) -> float:
        text = GOOD + ' title="' + "x" * size + '"'
        times = []
        for _ in range(7):
            start = time.process_time()
            split_words(text)
            times.append(time.process_time() - start)
        return min(times)

    assert best(200_000) < 10 * best(50_000)


def test_a_layout_over_the_bound_is_refused_with_the_bound():
    text = GOOD + " title=" + "x" * MAX_LAYOUT_SIZE
    assert_error(run("solve", text), f"{MAX_LAYOUT_SIZE:,}")
    with pytest.raises(LayoutError, match="at most"):
        parse_layout("x" * 1_000_000)


def _letters(number: int) -> str:
    """A key made of letters only (the one-line form starts with letters and ``=``)."""
    word = ""
    while True:
        number, digit = divmod(number, 26)
        word += "abcdefghijklmnopqrstuvwxyz"[digit]
        if not number:
            return "k" + word


def test_many_keys_are_read_in_linear_time():
    """Each key was compared with every earlier one (quadratic: 16x the time for 4x the keys);
    now a set look-up (4x; the bound is 10x, in this process's CPU time as above). The error
    names the first unknown key, once all are read."""
    def best(count: int) -> float:
        text = " ".join(f"{_letters(i)}=1" for i in range(count))
        times = []
        for _ in range(7):
            start = time.process_time()
            with pytest.raises(LayoutError, match="unknown key 'ka'"):
                parse_layout(text)
            times.append(time.process_time() - start)
        return min(times)

    assert best(8_000) < 10 * best(2_000)


# -- 8. line separators and control characters --------------------------------

@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x00", "\ufeff"])
def test_a_line_separator_is_refused_alone_and_in_a_batch_alike(char, tmp_path):
    layout = f"{GOOD} title=a{char}b"
    code = f"U+{ord(char):04X}"
    message = assert_error(run("solve", layout), code)
    path = tmp_path / "batch.txt"
    path.write_bytes(f"{GOOD}\n{layout}\n".encode())
    result = run("solve", "--batch", str(path), "--json")
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[1]["line"] == 2 and records[1]["error"] == message.removeprefix("pref: error: ")


# -- 3. numbers: no traceback, bounds stated, the token named -------------------

HUGE = "9" * 5000  # over Python's 4,300-digit limit for int() of a string
HAND10 = "S=As,Ks,Qs,Js,Ts,9s,8s,7s,Ah,Kh"


@pytest.mark.parametrize("args, tokens", [
    (["allpass", ALLPASS, "--taken", "S=²"], ["S=²", "0 to 10"]),
    (["allpass", ALLPASS, "--taken", f"S={HUGE}"], ["S=999", "5,002 characters"]),
    (["allpass", ALLPASS, "--taken", "S=1,S=2"], ["S twice", "S=1,S=2"]),
    (["allpass", ALLPASS, "--taken", "S=1e1"], ["S=1e1"]),
    (["solve", f"contract={HUGE}s declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh"],
     ["bad contract", "5,001 characters", "6 to 10"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", f"{HUGE}s"], ["bad contract", "6 to 10"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--samples", HUGE],
     ["--samples", "1 to 100,000,000", "5,000 characters"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--samples", "0"], ["--samples", "'0'"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--seed", "²"], ["--seed", "'²'"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--seed", HUGE], ["--seed"]),
    (["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--threads", "100000"],
     ["--threads", "1 to 64", "100000"]),
    (["misere", "--hand", HAND10, "--lead", "W", "--samples", "-5"], ["--samples", "'-5'"]),
    (["misere", "--hand", HAND10, "--lead", "W", "--seed", "1.5"], ["--seed", "'1.5'"]),
    (["puzzles", "misere", "--out", "unused", "--count", HUGE], ["--count", "1 to 10,000"]),
    (["puzzles", "misere", "--out", "unused", "--seed", HUGE], ["--seed"]),
    (["puzzles", "misere", "--out", "unused", "--jobs", "1000"], ["--jobs", "1 to 64", "1000"]),
    (["puzzles", "misere", "--out", "unused", "--max-attempts", HUGE], ["--max-attempts"]),
    (["puzzles", "misere", "--out", "unused", "--tricks", HUGE], ["--tricks", "5,000 characters"]),
    (["puzzles", "misere", "--out", "unused", "--constraint", f"tricks {HUGE}"], ["bad constraint"]),
    (["puzzles", "misere", "--out", "unused", "--constraint", f"trumps {HUGE}+"], ["bad constraint"]),
    (["puzzles", "misere", "--out", "unused", "--constraint", f"S shape {HUGE}-1-1-1"], ["bad constraint"]),
    (["table", "N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q", "--tt-mb", HUGE], ["--tt-mb", "1 to 65,536"]),
    (["table", "N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q", "--threads", "6"], ["--threads", "1 to 5"]),
])
def test_bad_numbers_are_one_line_naming_the_token(args, tokens, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # puzzles --out must not write into the repository
    message = assert_error(run(*args), *tokens)
    assert len(message) < 300, message  # a 5,000-digit token is shortened, not echoed whole


def test_good_numbers_still_pass():
    result = run("allpass", ALLPASS, "--taken", "S=4,W=4", "--json")
    assert result.exit_code == 0, result.output
    result = run("puzzles", "--help")
    assert "1<=x<=64" in result.stdout  # the bound is in the help


# -- 7. misere --talon ------------------------------------------------------------

KOVALEVSKAYA = "layouts/kovalevskaya.txt"  # S holds ♠10987 ♣8 ♦987 ♥98, W ♠AK ..., discard ♣K ♣A


@pytest.mark.parametrize("talon, tokens", [
    ("", ["--talon is empty"]),
    (",", ["--talon is empty"]),
    ("9s,Ac", ["9s", "S's hand"]),             # already in the declarer's hand
    ("As,Kc", ["As", "W's hand"]),             # already in a defender's hand
    ("Kc", ["'Kc'", "1 card", "the talon has 2"]),
    ("Kc,Ac,Qh", ["Kc,Ac,Qh", "3 cards"]),
    ("Ac,Ac", ["Ac", "duplicate"]),           # given twice
])
def test_misere_talon_is_validated(talon, tokens):
    assert_error(run("misere", KOVALEVSKAYA, "--talon", talon), *tokens)


def test_misere_talon_may_be_the_discard():
    """The declarer may put the talon back: --talon equal to the layout's discard is fine."""
    result = run("misere", KOVALEVSKAYA, "--talon", "Kc,Ac", "--json")
    assert result.exit_code == 0, result.output


# -- 8. minor ---------------------------------------------------------------------

def test_show_one_line_and_file_format_together_is_an_error():
    assert_error(run("show", GOOD, "--one-line", "--file-format"), "--one-line", "--file-format")


@pytest.mark.parametrize("deal", ["N:... ... ... ...", "E:... ... ... ..."])
def test_an_empty_pbn_deal_is_an_error(deal, tmp_path):
    assert_error(run("table", deal), deal, "no cards")
    path = tmp_path / "deals.pbn"
    path.write_text(f"{deal}\n", encoding="utf-8")
    result = run("table", "--batch", str(path))
    assert result.exit_code == 1
    assert "no cards" in json.loads(result.stdout)["error"]


# -- 6. --tt-mb and threads against the memory available ---------------------------

EASY_PBN = "N:A.K.Q.J K.Q.J.A Q.J.A.K J.A.K.Q"


def test_tables_larger_than_the_available_memory_are_refused_before_allocating(monkeypatch):
    import pyanalyzer.engines.registry as engines

    monkeypatch.setattr(engines, "available_memory_mb", lambda: 1000)

    def no_allocation(*args, **kwargs):
        raise AssertionError("a table was allocated before the memory check")

    monkeypatch.setattr(engines, "FastBackend", no_allocation)
    assert_error(run("table", EASY_PBN, "--tt-mb", "600", "--threads", "2"),
                 "1,200 MB", "1,000 MB", "--tt-mb")
    assert_error(run("contract", "--hand", HAND10, "--lead", "W", "--contract", "6s",
                     "--threads", "20"), "20 threads", "1,000 MB", "--threads")
    assert_error(run("misere", "--hand", HAND10, "--lead", "W", "--threads", "20"), "1,000 MB")


def test_tables_that_fit_are_allowed(monkeypatch):
    import pyanalyzer.engines.registry as engines

    monkeypatch.setattr(engines, "available_memory_mb", lambda: 1000)
    result = run("table", EASY_PBN, "--tt-mb", "400", "--threads", "2", "--json")
    assert result.exit_code == 0, result.output


def test_a_memory_error_from_the_allocation_is_one_line(monkeypatch):
    import pref_engine as solver

    class NoMemory:
        def __init__(self, *args, **kwargs):
            raise MemoryError("cannot allocate the transposition table")

    monkeypatch.setattr(solver, "Engine", NoMemory)
    assert_error(run("table", EASY_PBN, "--tt-mb", "64"), "cannot allocate", "64 MB")
    assert_error(run("solve", GOOD), "cannot allocate")
    assert_error(run("allpass", ALLPASS), "cannot allocate")
    assert_error(run("misere", KOVALEVSKAYA), "cannot allocate")


def test_the_available_memory_is_read():
    from pyanalyzer.engines.registry import available_memory_mb

    available = available_memory_mb()
    assert available is None or available > 0


# -- 5. the reference engine beyond small endings ----------------------------------

FULL_PBN = "N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543"  # 13 tricks


@pytest.mark.parametrize("args", [
    ["table", FULL_PBN, "--engine", "reference"],
    ["solve", "layouts/whist-deal.txt", "--engine", "reference"],
    ["contract", "layouts/whist-deal.txt", "--engine", "reference"],
])
def test_the_reference_engine_refuses_a_full_whist_deal(args):
    """Before, these ran for hours (a full 13-trick Whist deal by plain minimax)."""
    assert_error(run(*args), "--engine fast", "at most 8 tricks", "not 13")


def test_the_reference_engine_refuses_a_full_deal_in_a_batch_line_and_goes_on(tmp_path):
    path = tmp_path / "deals.pbn"
    path.write_text(f"{FULL_PBN}\n{EASY_PBN}\n", encoding="utf-8")
    result = run("table", "--batch", str(path), "--engine", "reference")
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["line"] == 1 and "at most 8 tricks" in first["error"]
    assert second["table"]["N"]["n"] == 2  # an ending of 2 tricks: solved


@pytest.mark.parametrize("command", [
    ["contract", "--contract", "6s", "--discard", "Ad,Kd"], ["misere"], ["misere", "--discard", "Ad,Kd"],
])
def test_the_reference_engine_refuses_the_hand_modes(command):
    """--hand enumerates up to 184,756 layouts: days by plain minimax."""
    assert_error(run(*command, "--hand", HAND10, "--lead", "W", "--engine", "reference"),
                 "--engine fast", "--hand")


def test_the_reference_engine_still_solves_small_endings():
    ending = "N:AK... QJ... T9... 87..."  # two tricks, spades only
    result = run("table", ending, "--engine", "reference", "--json")
    assert result.exit_code == 0, result.output
    # Three hands: a full Preferans deal is allowed (its value alone: the line would take the
    # reference minimax twenty more seconds).
    result = run("solve", "layouts/kovalevskaya.txt", "--engine", "reference", "--json", "--no-line")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["declarer_tricks"] == 1   # (the published answer)


# -- 4. puzzles --out and its index --------------------------------------------------

PUZZLE_ARGS = ["puzzles", "defend", "--seed", "9", "--jobs", "1", "--tricks", "4..5"]


def test_puzzles_out_that_cannot_be_a_folder(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("", encoding="utf-8")
    out = str(blocker / "set")
    assert_error(run(*PUZZLE_ARGS, "--count", "1", "--out", out), "--out", out, "Not a directory")


def test_puzzles_out_unwritable_is_said_before_the_search(tmp_path, monkeypatch):
    import pyanalyzer.cli.puzzles as puzzle_command

    def no_search(*args, **kwargs):
        raise AssertionError("the search started before the folder was checked")

    monkeypatch.setattr(puzzle_command, "generate", no_search)
    real_write_bytes = type(tmp_path).write_bytes

    def refusing_write_bytes(path, data):
        if path.name == ".pref-write-test":  # as root every folder is writable: refuse by hand
            raise PermissionError(13, "Permission denied", str(path))
        return real_write_bytes(path, data)

    monkeypatch.setattr(type(tmp_path), "write_bytes", refusing_write_bytes)
    assert_error(run(*PUZZLE_ARGS, "--count", "1", "--out", str(tmp_path / "set")),
                 "--out", "Permission denied")


def test_puzzles_resume_drops_a_last_line_cut_short(tmp_path):
    """A run killed while writing a line leaves it cut short: the resume says so, drops it and
    makes that puzzle again, ending with the same set as an uninterrupted run."""
    fresh, cut = tmp_path / "fresh", tmp_path / "cut"
    assert run(*PUZZLE_ARGS, "--count", "2", "--out", str(fresh)).exit_code == 0
    assert run(*PUZZLE_ARGS, "--count", "2", "--out", str(cut)).exit_code == 0
    index = (cut / "puzzles.jsonl").read_text(encoding="utf-8")
    first_end = index.index("\n") + 1
    (cut / "puzzles.jsonl").write_text(index[:first_end + 40], encoding="utf-8")
    result = run(*PUZZLE_ARGS, "--count", "2", "--out", str(cut))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    notes = result.stderr.splitlines()
    assert len(notes) == 1 and notes[0].startswith("pref: note: line 2 of") and "cut short" in notes[0]
    assert (cut / "puzzles.jsonl").read_text() == (fresh / "puzzles.jsonl").read_text()


@pytest.mark.parametrize("content, tokens", [
    (b'{"seed": 9\n{"x": 1}\n', ["line 1", "not a puzzle record"]),       # a bad line not at the end
    (b"\xff\xfe{}\n", ["not UTF-8", "line 1"]),
    (b'[1, 2]\n', ["line 1", "not a puzzle record"]),
])
def test_puzzles_resume_with_an_unreadable_index_is_one_line(content, tokens, tmp_path):
    out = tmp_path / "set"
    out.mkdir()
    (out / "puzzles.jsonl").write_bytes(content)
    assert_error(run(*PUZZLE_ARGS, "--count", "1", "--out", str(out)), "puzzles.jsonl", *tokens)


# -- 4. --plot is checked before the run ------------------------------------------------

CONTRACT_ODDS = ["contract", "--hand", HAND10, "--lead", "W", "--contract", "6s", "--discard", "Ad,Kd"]
MISERE_ODDS = ["misere", "--hand", HAND10, "--lead", "W", "--discard", "Ad,Kd"]


@pytest.fixture
def no_run(monkeypatch):
    """Makes any analysis fail the test: the error must come before it starts."""
    import pyanalyzer.cli.contract as contract_command
    import pyanalyzer.cli.misere as misere_command

    def ran(*args, **kwargs):
        raise AssertionError("the analysis ran before --plot was checked")

    for module in (contract_command, misere_command):
        for name in ("declarer_view", "before_talon", "rank_discards", "whister_view",
                     "rank_misere_discards", "analyse_open"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, ran)


@pytest.mark.parametrize("command", [CONTRACT_ODDS, MISERE_ODDS])
@pytest.mark.parametrize("plot, tokens", [
    ("missing-folder/odds.png", ["no such folder", "missing-folder"]),
    ("odds.gif", ["unknown picture format .gif", ".png"]),
    ("odds", ["unknown picture format (none)"]),
])
def test_plot_problems_are_said_before_the_run(command, plot, tokens, no_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_error(run(*command, "--plot", plot), "--plot", *tokens)


def test_plot_into_a_folder_name(no_run, tmp_path):
    folder = tmp_path / "pictures.png"
    folder.mkdir()
    assert_error(run(*CONTRACT_ODDS, "--plot", str(folder)), "is a folder")


def test_plot_without_matplotlib_is_said_before_the_run(no_run, tmp_path, monkeypatch):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real_find_spec(name, *a))
    assert_error(run(*CONTRACT_ODDS, "--plot", str(tmp_path / "odds.png")), "matplotlib")


@pytest.mark.parametrize("args", [
    ["contract", "--hand", HAND10, "--declarer", "S", "--lead", "W", "--contract", "6s"],  # before the talon
    ["contract", "layouts/seven-clubs.txt"],
    ["misere", "--hand", HAND10, "--lead", "W"],
    ["misere", "layouts/kovalevskaya.txt"],
])
def test_plot_in_a_mode_without_a_distribution_is_said_before_the_run(args, no_run, tmp_path):
    assert_error(run(*args, "--plot", str(tmp_path / "odds.png")), "--plot", "--discard")


# -- fuzz: mutated layouts and batch lines -------------------------------------------------

SEEDS = [
    GOOD,
    "contract=misere declarer=S lead=E S=7s,Ad W=8s,Ah E=7d,7h",
    'contract=7h declarer=W lead=E S=As W=Ah E=Ks title="A \\"quoted\\" title"',
    "contract: 6s\ndeclarer: S\nlead: S\nS: ♠A ♦7\nW: ♥78\nE: ♦A ♥K\n",
    "contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h",
    "game=whist contract=s lead=W N=As S=Ks E=Qs W=Js",
]
#: What a mutation inserts: syntax, digits that are not ASCII, separators, controls, Russian.
NOISE = ["=", ",", " ", '"', "'", "\\", ":", "#", "²", "٦", "1" * 30, "\u2028", "\x00", "\x1b", "\ufeff",
         "\u00a0", "Т", "10", "x", "S=", "♠", "\t", "-", "\r"]


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        position = rng.randrange(len(text) + 1)
        kind = rng.randrange(4)
        if kind == 0:
            text = text[:position] + rng.choice(NOISE) + text[position:]
        elif kind == 1:
            text = text[:position] + text[position + rng.randint(1, 4):]
        elif kind == 2:
            end = min(len(text), position + rng.randint(1, 12))
            text = text[:end] + text[position:end] + text[end:]   # repeat a piece
        else:
            text = text[:position]                                   # cut short
    return text


def test_mutated_layouts_get_an_answer_or_one_error_line():
    """300 seeded mutations of good layouts: each is answered (exit 0) or refused in one line
    (exit 2); never a traceback."""
    rng = random.Random(1616)
    for _ in range(300):
        text = _mutate(rng.choice(SEEDS), rng)
        if "=" not in text and "\n" not in text:
            text += " ="  # keep it a layout text, not a file name
        result = run("solve", text, "--json", "--no-line")
        assert result.exit_code in (0, 2), (text, result.output, result.exception)
        assert "Traceback" not in result.output, text
        if result.exit_code == 2:
            assert result.exception is None or isinstance(result.exception, SystemExit), text
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("pref: error: "), (text, result.stderr)


def test_a_batch_of_mutated_lines_answers_every_line_in_order(tmp_path):
    """400 mutated one-line layouts, some with a byte that is not UTF-8, in one batch: one record
    per line to answer, in order, with its line number; exit status 1 (some fail)."""
    rng = random.Random(2026)
    raw_lines = []
    for _ in range(400):
        line = _mutate(rng.choice(SEEDS[:3] + SEEDS[4:]), rng).replace("\n", " ").replace("\r", " ")
        data = line.encode("utf-8")
        if rng.random() < 0.1:
            cut = rng.randrange(len(data) + 1)
            data = data[:cut] + bytes([rng.choice([0x80, 0xc3, 0xff, 0xfe])]) + data[cut:]
        raw_lines.append(data)
    path = tmp_path / "batch.txt"
    path.write_bytes(b"\n".join(raw_lines) + b"\n")

    expected = []  # the numbers of the lines to answer, as the reader decides it
    for number, data in enumerate(raw_lines, start=1):
        try:
            text = data.decode("utf-8").strip()
        except UnicodeDecodeError:
            expected.append(number)
            continue
        if text and not text.startswith("#"):
            expected.append(number)
    result = run("solve", "--batch", str(path), "--json", "--no-line")
    assert "Traceback" not in result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == len(expected)
    failed = [r for r in records if "error" in r]
    assert [r["line"] for r in failed] == [n for n, r in zip(expected, records) if "error" in r]
    assert failed and result.exit_code == 1


def test_a_byte_order_mark_at_the_start_of_a_layout_text_is_accepted():
    result = run("solve", "\ufeff" + GOOD, "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", ["solve", "allpass", "table"])
def test_a_batch_file_that_is_a_directory(command, tmp_path):
    assert_error(run(command, "--batch", str(tmp_path)), str(tmp_path), "Is a directory")


@pytest.mark.parametrize("layout, start", [
    ("contract=6s declarer=S lead=S S={long}s W=7h,8h E=Ad,Kh", "unknown card 'AAAA"),
    ("contract=6s declarer={long} lead=S S=As,7d W=7h,8h E=Ad,Kh", "unknown seat 'AAAA"),
    ("contract=6s declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh {long}=1", "unknown key 'AAAA"),
    ("contract=6{long} declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh", "bad contract '6AAA"),
])
def test_a_long_token_is_shortened_in_the_message(layout, start):
    message = assert_error(run("solve", layout.format(long="A" * 90_000)), start, "90,00")
    assert len(message) < 300, message


# -- a whist contract without its trump ------------------------------------------------------

@pytest.mark.parametrize("contract", ["4", "7"])
def test_a_whist_bid_without_a_trump_gets_a_whist_hint(contract):
    """A whist bid names its trump (4h); the Preferans hint (6s, misere, allpass) misled."""
    layout = f"game=whist contract={contract} declarer=N lead=E N=As,Ks E=Qs,Js S=Ts,9s W=8s,7s"
    result = run("solve", layout)
    assert_error(result, repr(contract), "whist", "4h")
    assert "misere" not in result.stderr
