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


def marriage_options(command):
    """``--ace-marriage`` and ``--declare-first-lead``: Thousand's declaration options (docs/rules.md)."""
    command = click.option(
        "--declare-first-lead", is_flag=True,
        help="Thousand: a marriage may be declared on the deal's first lead too.")(command)
    return click.option(
        "--ace-marriage", is_flag=True,
        help="Thousand: the four aces are a marriage worth 200 (leading any ace declares it).")(command)


def with_marriage_options(layout, ace_marriage: bool, declare_first_lead: bool):
    """``layout`` under the Thousand declaration options asked for; a layout of another game
    with one of them is an input error naming the option."""
    if not (ace_marriage or declare_first_lead):
        return layout
    from dataclasses import replace

    from pyanalyzer.errors import PrefInputError
    from pyanalyzer.model.layout import with_marriages

    if layout.rules.marriages is None:
        option = "--ace-marriage" if ace_marriage else "--declare-first-lead"
        raise PrefInputError(f"{option} is a Thousand option: this is a {layout.rules.game} layout", option)
    marriages = replace(layout.rules.marriages, ace_marriage=200 if ace_marriage else 0,
                        on_first_lead=declare_first_lead)
    return with_marriages(layout, marriages)
