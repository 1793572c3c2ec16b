"""Options that mean the same on every command that takes them, spelled once.

``--notation`` and ``--engine`` are in :mod:`pyanalyzer.cli.support`. Which
command takes which option is listed in README ("Command line").
"""

from __future__ import annotations

import click

from pyanalyzer.cli.support import BoundedInt


def cards_option(default: bool):
    """``--cards/--no-cards``: every legal card of the player to move with its result."""
    return click.option(
        "--cards/--no-cards", "show_cards", default=default, show_default=True,
        help="List every legal card of the player to move with its result.")


NO_LINE_OPTION = click.option("--no-line", is_flag=True, help="Skip the best line(s) (faster).")


def tt_mb_option(default: int):
    """``--tt-mb``: the size of the engine's transposition table."""
    return click.option(
        "--tt-mb", type=BoundedInt(1, 65536), default=default, show_default=True,
        help="Size of the engine's transposition table in MB (hard layouts need room).")
