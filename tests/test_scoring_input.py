"""Bad input to ``pref score`` and ``pref settle``: one line ``pref: error: ...`` naming the token, exit 2.

Issue 16, section 2: a Latin-1 whists file, a Whist record line ``bid``, numbers over 4,300
digits, ``--mountains W=1e999999999`` (which used to build a number of a billion digits), and
the other malformed records and sheets tried here (empty file, directory, Unicode digits, ...).
"""

import click
import pytest
from click.testing import CliRunner

from pyanalyzer.cli.scoring import score_command, settle_command


@click.group()
def pref():
    """Test group standing in for the main ``pref`` group."""


pref.add_command(score_command)
pref.add_command(settle_command)

SHEET = ["settle", "--mountains", "W=8,E=19,S=14"]


def run(*args):
    return CliRunner().invoke(pref, list(args))


def assert_one_line_error(result, *fragments):
    """Exit 2, no traceback, and one error line holding every fragment."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("pref: error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def write(tmp_path, name, data):
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return str(path)


def test_latin1_whists_matrix_names_the_line_and_byte(tmp_path):
    matrix = write(tmp_path, "whists.txt", "W: E=10 S=4\nE: W=3 # Andr\xe9\n".encode("latin-1"))
    assert_one_line_error(run(*SHEET, "--whists-matrix", matrix), "line 2:", "not UTF-8", "0xe9")


def test_latin1_record_names_the_line(tmp_path):
    record = write(tmp_path, "game.txt", "players W E S\nS 6s 7 | W whist 2 | E pass 1 # \xe9\n".encode("latin-1"))
    assert_one_line_error(run("score", record), "line 2:", "not UTF-8")


def test_a_byte_order_mark_is_skipped(tmp_path):
    record = write(tmp_path, "game.txt", "\ufeffplayers W E S\nS 6s 7 | W whist 2 | E pass 1\n")
    assert run("score", record).exit_code == 0


@pytest.mark.parametrize("game, line", [("whist", "bid"), ("bidwhist", "bid took tricks")])
def test_whist_line_of_filler_words_only(tmp_path, game, line):
    record = write(tmp_path, "whist.txt", f"game {game}\n{line}\n")
    assert_one_line_error(run("score", record), "line 2:", f"got {line!r}")


HUGE = "9" * 5000


@pytest.mark.parametrize("text, token", [
    (f"game whist\nNS {HUGE}\n", "99999"),
    (f"S 6s {HUGE} | W whist 2 | E pass 1\n", "number of tricks"),
    (f"game thousand\nplayers W E S\nstart W={HUGE}\nW 120 | W 95 | E 20 | S 5\n", "score"),
    (f"game thousand\nplayers W E S\nW {HUGE} | W 95 | E 20 | S 5\n", "bid"),
    (f"game thousand\nplayers W E S\nW 120 | W 95+{HUGE} | E 20 | S 5\n", "marriage"),
    (f"S {HUGE}s 7 | W whist 2 | E pass 1\n", "bad contract '99999"),
    (f"set pool_target={HUGE}\nS 6s 7 | W whist 2 | E pass 1\n", "pool_target"),
    (f"set prices=6:{HUGE},7:4,8:6,9:8,10:10\nS 6s 7 | W whist 2 | E pass 1\n", "prices"),
])
def test_numbers_over_4300_digits_in_records(tmp_path, text, token):
    assert_one_line_error(run("score", write(tmp_path, "game.txt", text)), token)


@pytest.mark.parametrize("args, fragments", [
    (["settle", "--mountains", "W=1e5000,E=19,S=14"], ["'1e5000'", "W in --mountains", "exponent"]),
    # Used to run for minutes building 10**999999999; refused before any arithmetic now.
    (["settle", "--mountains", "W=1e999999999,E=19,S=14"], ["'1e999999999'", "exponent"]),
    ([*SHEET, "--set", "whist_money=1e5000"], ["'1e5000'", "whist_money"]),
    ([*SHEET, "--set", f"whist_money={HUGE}"], ["whist_money", "at most"]),
    (["settle", "--mountains", f"W={HUGE},E=19,S=14"], ["W in --mountains", "at most 40 characters"]),
    (["settle", "--mountains", "W=2000000000,E=19,S=14"], ["'2000000000'", "out of range"]),
    (["settle", "--mountains", "W=1/3000000,E=19,S=14"], ["'1/3000000'", "denominator"]),
    ([*SHEET, "--target", "1e99"], ["'1e99'", "--target"]),
    ([*SHEET, "--pools", "W=1/0,E=1,S=1"], ["'1/0'", "division by zero"]),
    ([*SHEET, "--whists-balance", "W=1_0,E=-10,S=0"], ["'1_0'", "ASCII digits"]),
    (["settle", "--mountains", "W=٣,E=19,S=14"], ["'٣'", "ASCII digits"]),
    ([*SHEET, "--set", "pool_target=٢٠"], ["'٢٠'", "pool_target"]),
    ([*SHEET, "--set", "whist_money=-1"], ["whist_money", "must not be negative"]),
    ([*SHEET, "--set", "nonsense=1"], ["unknown option 'nonsense'"]),
    ([*SHEET, "--convention", "moscow"], ["unknown convention 'moscow'"]),
])
def test_bad_settle_numbers_and_options(args, fragments):
    assert_one_line_error(run(*args), *fragments)


def test_negative_and_fractional_mountains_are_settled():
    """Mountains may be negative (pool closing takes points off) or fractional (half-responsible whist)."""
    result = run("settle", "--mountains", "W=-1,E=1/2,S=0.5", "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("text, fragments", [
    ("S 6s ٧ | W whist ٢ | E pass ١\n", ["'٧'", "ASCII digits"]),
    ("S 6s -1 | W whist 2 | E pass 9\n", ["'-1'"]),
    ("S 6s 7 | W whist 2.5 | E pass 1\n", ["'2.5'"]),
    ("set allpass_nonsense=yes\nS 6s 7 | W whist 2 | E pass 1\n", ["line 1:", "unknown option 'allpass_nonsense'"]),
    ("game thousand\nplayers W E S\nW 120 | W ٩٥ | E 20 | S 5\n", ["'٩٥'"]),
])
def test_bad_record_numbers(tmp_path, text, fragments):
    assert_one_line_error(run("score", write(tmp_path, "game.txt", text)), *fragments)


@pytest.mark.parametrize("text", ["", "# only a comment\n", "players W E S\n", "game whist\n"])
def test_a_record_without_deals(tmp_path, text):
    assert_one_line_error(run("score", write(tmp_path, "game.txt", text)), "holds no deal", "write one deal")


def test_a_directory_and_a_missing_file(tmp_path):
    assert_one_line_error(run("score", str(tmp_path)), "cannot read record file", "directory")
    assert_one_line_error(run(*SHEET, "--whists-matrix", str(tmp_path / "nope.txt")), "cannot read whists file")


@pytest.mark.parametrize("text", [
    "S 6s 7 | W whist 2 | E pass 1 " + "x" * 100_000,
    "Q" * 100_000 + " 6s 7 | W whist 2 | E pass 1",
    "S 6s 7 | W whist 2 | E pass 1 | " + "N" * 100_000,
])
def test_a_huge_token_is_quoted_cut_short(tmp_path, text):
    result = run("score", write(tmp_path, "game.txt", text + "\n"))
    assert_one_line_error(result, "line 1:", "...'")
    assert len(result.output) < 300


def test_a_huge_record_is_refused(tmp_path):
    line = "S 6s 7 | W whist 2 | E pass 1\n"
    record = write(tmp_path, "huge.txt", line * (2**20 // len(line) + 1))  # just over the documented 1 MB
    assert_one_line_error(run("score", record), "too large", "1 MB")
