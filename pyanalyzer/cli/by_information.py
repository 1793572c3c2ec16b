"""``--by-information`` and its options, shared by the record reviews (``pref contract`` with
``played=``, Preferans and Whist; ``pref thousand`` with ``played=``)."""

from __future__ import annotations

import math

import click

from pyanalyzer.analysis.advise import parse_seats
from pyanalyzer.analysis.by_information import EXACT_LIMIT, EXACT_LIMIT_POINTS, THRESHOLD_POINTS, THRESHOLD_TRICKS
from pyanalyzer.cli.support import BoundedInt
from pyanalyzer.errors import LayoutError

#: The largest --exact-limit of a record review (each of some thirty decisions enumerates).
MAX_EXACT_LIMIT = 10_000_000


def by_information_options(command):
    """The options of ``--by-information`` (the record's cards judged by what their players knew)."""
    for option in reversed((
        click.option("--by-information", "by_information", is_flag=True,
                     help="Judge each card of the record by what its player knew: error (it lowered his "
                          "expectation by more than --threshold) or unlucky (best by information, wrong "
                          "double dummy)."),
        click.option("--threshold", type=float, metavar="X",
                     help=f"With --by-information: the loss that makes an error (default {THRESHOLD_TRICKS:g} "
                          f"tricks; {THRESHOLD_POINTS:g} points in Thousand)."),
        click.option("--open", "open_texts", multiple=True, metavar="SEAT",
                     help="With --by-information: a hand played face up, seen by every other player "
                          "(repeat, or W,E), e.g. the whisters playing open."),
        click.option("--exact-limit", type=BoundedInt(0, MAX_EXACT_LIMIT),
                     help=f"With --by-information: judge a decision exactly when it has at most this many "
                          f"consistent layouts, else over --samples random ones (default {EXACT_LIMIT:,}; "
                          f"{EXACT_LIMIT_POINTS:,} in Thousand)."),
    )):
        command = option(command)
    return command


def check_by_information_options(by_information: bool, threshold, open_texts, exact_limit) -> None:
    """The options of ``--by-information`` are refused without it, a threshold below 0 (or not a
    number) in any case: one line naming the option."""
    if threshold is not None and not 0 <= threshold < math.inf:
        raise LayoutError(f"--threshold must be a number of 0 or more, not {threshold:g}", f"{threshold:g}")
    if by_information:
        return
    for name, value in (("--threshold", threshold), ("--open", open_texts), ("--exact-limit", exact_limit)):
        if value is not None and value != ():
            raise LayoutError(f"{name} goes with --by-information", name)


def parse_open(texts, rules) -> tuple[str, ...]:
    """``--open W`` (repeated, or ``W,E``): the seats, each named once."""
    return parse_seats(texts, rules, "--open")
