"""What every ``pref`` command shares: one-line errors with exit status 2, and Ctrl-C.

Interruption (Ctrl-C or SIGTERM), the same for every command: what is finished
is printed, marked partial, then one line ``pref: interrupted: ...`` on standard
error and exit status 130 (:func:`exit_interrupted`).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.engines.registry import ENGINE_NAMES
from pyanalyzer.errors import PrefInputError, shorten

#: Options that several commands share, spelled once.
NOTATION_OPTION = click.option(
    "--notation", type=click.Choice(["symbols", "letters", "russian"]), default="symbols",
    show_default=True, help="How cards are written: ♠10, Ts, or Russian letters (♠Т = ace of spades).")
ENGINE_OPTION = click.option(
    "--engine", type=click.Choice(ENGINE_NAMES), default="fast", show_default=True,
    help="fast: the Cython engine; reference: the plain minimax used as test oracle, for one "
         "layout at a time (not --hand) and with four hands at most 8 tricks.")

INPUT_ERROR = 2
INTERRUPTED = 130


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


def exit_interrupted(detail: str = "stopped before any result was complete") -> NoReturn:
    """The end of an interrupted run: one line on standard error, exit status 130. A run cut
    short because its cluster went away (``--scheduler``) ends as an error instead, saying so."""
    from pyanalyzer.engines.executor import cluster_loss

    loss = cluster_loss()
    if loss is not None:
        fail(f"{loss}; {detail}")
    click.echo(f"pref: interrupted: {detail}", err=True)
    sys.exit(INTERRUPTED)


def exit_if_interrupted(result, detail: str = "the result above is partial") -> None:
    """After printing ``result``: exit 130 if it was cut short by an interruption."""
    if getattr(result, "interrupted", False):
        exit_interrupted(detail)


@contextmanager
def command_errors(progress: ProgressLine | None = None) -> Iterator[None]:
    """Bad input -> one line and status 2; Ctrl-C -> a short note and status 130; no tracebacks."""
    try:
        yield
    except PrefInputError as error:
        if progress:
            progress.close()
        fail(str(error))
    except KeyboardInterrupt:
        if progress:
            progress.close()
        exit_interrupted()
    finally:
        if progress:
            progress.close()


def runs_take_the_stop_signals_with_hand(command):
    """For a command whose ``--hand`` mode works only in parallel runs (enumerations, samples):
    in that mode, Ctrl-C and SIGTERM are taken by the runs alone, up to the end of the printing
    (:func:`pyanalyzer.engines.executor.stop_signals_taken_by_runs`), so that one arriving after
    the last run does not throw the finished result away. (Its other modes search in this
    thread, which must stay stoppable.)"""

    @functools.wraps(command)
    def in_hand_mode_held(*args, **kwargs):
        if kwargs.get("hand_text") is None:
            return command(*args, **kwargs)
        from pyanalyzer.engines.executor import stop_signals_taken_by_runs

        with stop_signals_taken_by_runs():
            return command(*args, **kwargs)

    return in_hand_mode_held


class BoundedInt(click.IntRange):
    """A whole number between two stated bounds. A bad value (not ASCII digits, a number of
    thousands of digits, out of range) is one line naming the option, the token and the bounds.

    >>> BoundedInt(1, 64).convert("8", None, None)
    8
    """

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            # ASCII digits only ("²" and "1e5" are not numbers here), and no more than the
            # bound has: a number of 5,000 digits is refused before int() is asked to read it.
            if not re.fullmatch(r"[+-]?[0-9]+", text) or len(text.lstrip("+-0")) > len(str(self.max)):
                self._refuse(value, param)
            number = int(text)
        if not self.min <= number <= self.max:
            self._refuse(value, param)
        return number

    def _refuse(self, value, param) -> NoReturn:
        option = param.opts[0] if param is not None and param.opts else "the value"
        fail(f"{option} takes a whole number from {self.min:,} to {self.max:,}, "
             f"not {shorten(str(value))!r}")


#: Bounds of the number options (generous for any real use; they stop typing slips and
#: absurd values from running for days or starting thousands of processes).
MAX_SAMPLES = 100_000_000
MAX_SEED = 2**64 - 1
MAX_THREADS = 64
SAMPLES_TYPE = BoundedInt(1, MAX_SAMPLES)
SEED_TYPE = BoundedInt(0, MAX_SEED)
THREADS_TYPE = BoundedInt(1, MAX_THREADS)


#: The picture formats matplotlib writes (its Agg, PDF, PS and SVG back ends).
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "jpg", "jpeg", "tif", "tiff", "webp", "eps", "ps")


class PlotPath(click.ParamType):
    """The ``--plot`` file: a known picture format, in a folder that exists, and matplotlib
    installed, all checked when the options are read (not after a run of minutes)."""

    name = "FILE.png"

    def convert(self, value, param, ctx) -> str:
        import importlib.util
        import os

        path = str(value)
        extension = os.path.splitext(path)[1].lstrip(".").lower()
        if extension not in PLOT_FORMATS:
            fail(f"--plot {shorten(path)!r}: unknown picture format {('.' + extension) if extension else '(none)'}; "
                 f"use one of .{', .'.join(PLOT_FORMATS)}")
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            fail(f"--plot {shorten(path)!r}: no such folder {shorten(folder)!r}")
        if os.path.isdir(path):
            fail(f"--plot {shorten(path)!r} is a folder: give a file name, e.g. odds.png")
        if not os.access(folder, os.W_OK):
            fail(f"--plot {shorten(path)!r}: folder {shorten(folder)!r} is not writable")
        if importlib.util.find_spec("matplotlib") is None:
            fail("--plot needs matplotlib: pip install 'pref-solver[plot]'")
        return path
