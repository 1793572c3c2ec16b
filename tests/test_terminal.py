"""The terminal (issue 19, item 5): red ♦ ♥ on a terminal only, and the progress bar.

The colour checks run ``python -m pyanalyzer`` with its standard output on a
pseudo-terminal (pty) or a pipe, as a user's shell would; the option and
environment rules are checked in-process with CliRunner (a pipe to click).
"""

from __future__ import annotations

import os
import subprocess
import sys

import child_process
import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main
from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.terminal import RED_SUIT, paint_red_suits

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals on this system")

#: Hearts and diamonds in every hand (West ♥A87, East ♦A ♥K10, South ♦7).
LAYOUT = "contract=6s declarer=S lead=W S=As,Ts,7d W=7h,8h,Ah E=Ad,Kh,Th"
RED = "\x1b[31m"
ESCAPE = "\x1b["
COLOUR_VARIABLES = ("NO_COLOR", "FORCE_COLOR", "PREF_COLOR", "TERM")


def pref(args: list[str], on_terminal: bool, **env: str) -> str:
    """What ``pref ARGS`` writes to standard output: a pty (``on_terminal``) or a pipe."""
    environment = child_process.child_environment(**env)
    for name in COLOUR_VARIABLES:
        if name not in env:
            environment.pop(name, None)
    command = [sys.executable, "-m", "pyanalyzer", *args]
    if not on_terminal:
        done = subprocess.run(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environment,
                              timeout=120, check=True)
        return done.stdout.decode()
    reader, writer = os.openpty()
    child = subprocess.Popen(command, stdout=writer, stdin=subprocess.DEVNULL, env=environment)
    os.close(writer)
    output = b""
    while True:
        try:
            chunk = os.read(reader, 65536)
        except OSError:  # Linux: EIO once the child has closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(reader)
    assert child.wait(120) == 0
    return output.decode().replace("\r\n", "\n")


@pytest.fixture
def plain_environment(monkeypatch):
    for name in COLOUR_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_red_suits_are_red_on_a_terminal():
    out = pref(["show", LAYOUT], on_terminal=True)
    # The diagram's suit lines, holding and all; the black suits stay plain.
    assert f"{RED}♥ A 8 7\x1b[0m" in out and f"{RED}♦ A\x1b[0m" in out and f"{RED}♦ 7\x1b[0m" in out
    assert f"{RED}♠" not in out and f"{RED}♣" not in out
    assert out.count(RED) == 6  # ♦ and ♥ of West, East and South


def test_no_colour_in_a_pipe_and_none_with_no_color_on_a_terminal():
    piped = pref(["show", LAYOUT], on_terminal=False)
    assert ESCAPE not in piped and "♥ A 8 7" in piped
    assert pref(["show", LAYOUT], on_terminal=True, NO_COLOR="1") == piped.replace("\r\n", "\n")


def test_color_never_on_a_terminal_and_always_in_a_pipe():
    assert ESCAPE not in pref(["--color", "never", "show", LAYOUT], on_terminal=True)
    assert f"{RED}♥ A 8 7" in pref(["show", LAYOUT], on_terminal=False, PREF_COLOR="always")


def test_the_whole_card_is_red_in_lines_and_card_values(plain_environment):
    out = CliRunner().invoke(main, ["--color", "always", "solve", LAYOUT, "--cards"]).output
    assert f"{RED}♥A\x1b[0m   2  best" in out    # a card value
    assert f"W {RED}♥7\x1b[0m  E {RED}♥10\x1b[0m  S ♠10" in out  # the best line, tens whole
    russian = CliRunner().invoke(main, ["--color", "always", "solve", LAYOUT, "--notation", "russian"]).output
    assert f"E {RED}♦Т\x1b[0m" in russian


@pytest.mark.parametrize("args", [["show", LAYOUT, "--json"], ["solve", LAYOUT, "--json"],
                                  ["show", LAYOUT, "--one-line"]], ids=["show-json", "solve-json", "one-line"])
def test_never_colour_in_json_or_without_symbols(plain_environment, args):
    result = CliRunner().invoke(main, ["--color", "always", *args])
    assert result.exit_code == 0 and ESCAPE not in result.output


def test_letters_colour_the_symbols_only(plain_environment):
    """--notation letters writes the cards of lines and values as letters (``7h``): plain;
    the diagram's suit symbols are still painted."""
    out = CliRunner().invoke(main, ["--color", "always", "solve", LAYOUT, "--cards", "--notation", "letters"]).output
    painted = [part.split("\x1b[0m")[0] for part in out.split(RED)[1:]]
    assert painted and all(part[0] in "♦♥" for part in painted)
    assert f"{RED}♥ K T\x1b[0m" in out
    line = next(text for text in out.splitlines() if text.lstrip().startswith("1. "))
    assert ESCAPE not in line and "7h" in line


def test_environment_rules(plain_environment, monkeypatch):
    runner = CliRunner()
    assert ESCAPE not in runner.invoke(main, ["show", LAYOUT]).output  # auto, not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert RED in runner.invoke(main, ["show", LAYOUT]).output
    monkeypatch.setenv("NO_COLOR", "1")  # NO_COLOR wins over FORCE_COLOR in auto ...
    assert ESCAPE not in runner.invoke(main, ["show", LAYOUT]).output
    assert RED in runner.invoke(main, ["--color", "always", "show", LAYOUT]).output  # ... not over a choice
    monkeypatch.setenv("PREF_COLOR", "blue")
    refused = runner.invoke(main, ["show", LAYOUT])
    assert refused.exit_code == 2 and "'blue' is not one of 'auto', 'always', 'never'" in refused.output


@pytest.mark.parametrize("text, red", [
    ("6♥ by South, West to lead", ["♥"]),
    ("        ♦ -              ♦ 8 7", ["♦ -", "♦ 8 7"]),
    ("♠QJ ♣97 ♦KQJ10 ♥J7", ["♦KQJ10", "♥J7"]),
    ("lead ♥K+, marriage ♦ 40", ["♥K", "♦"]),
    ("♥ trump; ♦Т, ♥Д", ["♥", "♦Т", "♥Д"]),
])
def test_what_is_painted(text, red):
    assert [match.group(0) for match in RED_SUIT.finditer(text)] == red
    painted = paint_red_suits(text, lambda part: f"<{part}>")
    assert painted.replace("<", "").replace(">", "") == text and painted.count("<") == len(red)


def read_terminal(reader: int) -> str:
    output = b""
    while True:
        try:
            chunk = os.read(reader, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    return output.decode()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_on_a_terminal_draws_a_bar(plain_environment):
    """On a pty: rich's bar, redrawn in place, with the stage, the count and the time left
    (an upper bound for a stage that may stop early); no plain ``progress:`` lines."""
    reader, writer = os.openpty()
    stream = open(writer, "w", encoding="utf-8")  # noqa: SIM115 (closed below, before reading)
    clock = Clock()
    progress = ProgressLine("splits", stream=stream, clock=clock)
    assert progress.terminal
    progress.stage("discard class", 3, 14, may_stop_early=True)
    for second in range(1, 4):
        clock.now = float(second)
        progress(second * 10, 100)
    progress.close()
    stream.close()
    drawn = read_terminal(reader)
    os.close(reader)
    assert "━" in drawn and "\r\x1b[2K" in drawn  # a bar, redrawn over itself
    assert "discard class 3 of 14" in drawn and "30 / 100 splits, at most 7 s left; 3 s so far" in drawn
    assert "progress:" not in drawn  # (the plain lines elsewhere: tests/test_interrupt_runner.py)
    assert drawn.endswith("\n\x1b[?25h")  # the last state left on screen, the cursor shown again


def test_a_count_without_a_total_draws_a_bar_without_a_share(plain_environment):
    """A batch read from standard input: its length is not known; the bar counts the lines."""
    reader, writer = os.openpty()
    stream = open(writer, "w", encoding="utf-8")  # noqa: SIM115 (closed below, before reading)
    progress = ProgressLine("layouts", stream=stream, clock=Clock())
    for done in range(1, 31):
        progress(done, None)
    progress.close()
    stream.close()
    drawn = read_terminal(reader)
    os.close(reader)
    assert "━" in drawn and drawn.endswith(" 30 layouts\r\n\x1b[?25h") and "%" not in drawn
