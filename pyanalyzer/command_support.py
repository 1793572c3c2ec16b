"""What every ``pref`` command shares: one-line errors with exit status 2, and Ctrl-C."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from .errors import PrefInputError
from .progress import ProgressLine

INPUT_ERROR = 2
INTERRUPTED = 130


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


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
        click.echo("pref: interrupted.", err=True)
        sys.exit(INTERRUPTED)
    finally:
        if progress:
            progress.close()
