"""What every ``pref`` command shares: one-line errors with exit status 2, and Ctrl-C.

Interruption (Ctrl-C or SIGTERM), the same for every command: what is finished
is printed, marked partial, then one line ``pref: interrupted: ...`` on standard
error and exit status 130 (:func:`exit_interrupted`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from .engines import ENGINE_NAMES
from .errors import PrefInputError
from .progress import ProgressLine

#: Options that several commands share, spelled once.
NOTATION_OPTION = click.option(
    "--notation", type=click.Choice(["symbols", "letters", "russian"]), default="symbols",
    show_default=True, help="How cards are written: ♠10, Ts, or Russian letters (♠Т = ace of spades).")
ENGINE_OPTION = click.option(
    "--engine", type=click.Choice(ENGINE_NAMES), default="fast", show_default=True,
    help="fast: the Cython engine; reference: the plain minimax used as test oracle.")

INPUT_ERROR = 2
INTERRUPTED = 130


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


def exit_interrupted(detail: str = "stopped before any result was complete") -> NoReturn:
    """The end of an interrupted run: one line on standard error, exit status 130."""
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
