"""The text of ``pref thousand LAYOUT`` for a Thousand deal with its play record: was the bid
makeable, was it made, and which moves changed the result (:mod:`pyanalyzer.thousand.review`).

The command (``pyanalyzer/cli/thousand.py``) calls :func:`review_command_text` when
:func:`has_play_record` says the layout carries one; bad input raises a
:class:`~pyanalyzer.errors.PrefInputError` naming the offending token, which the command's
``command_errors`` turns into one ``pref: error:`` line and exit status 2.
"""

from __future__ import annotations

import json

from pyanalyzer.analysis.by_information import judge_by_information
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.layout_io import (
    check_moves,
    layout_fields,
    layout_from_fields,
    parse_layout_with_moves,
    read_text,
)
from pyanalyzer.model.notation import parse_moves
from pyanalyzer.model.rules import rules_for
from pyanalyzer.thousand.review import review_deal


def has_play_record(argument: str) -> bool:
    """Does the layout argument (a file or the one-line text) carry a play record: ``played=``
    with a whole trick or more? (Fewer cards are the trick in progress, as in every layout.)"""
    fields = layout_fields(read_text(argument))
    rules = rules_for(fields.get("game", "preferans"))
    return len(parse_moves(fields.get("played", ""), rules.deck)) >= len(rules.seats)


def review_command_text(argument: str, as_json: bool = False, notation: str = "symbols",
                        engine: str = "fast", rules_change=None) -> str:
    """The review of the deal in ``argument`` as the command prints it: text in ``notation``,
    or one JSON object. ``rules_change`` (optional) turns the parsed layout into the one to
    analyse, e.g. the command's ``with_marriage_options``."""
    result = review_result(argument, engine, rules_change)
    if as_json:
        return json.dumps(result.to_dict(), ensure_ascii=False)
    return result.format(notation)


def review_result(argument: str, engine: str = "fast", rules_change=None, by_information: dict | None = None):
    """The review of the deal in ``argument`` (see :func:`review_command_text`); ``by_information``:
    the options of :func:`~pyanalyzer.analysis.by_information.judge_by_information`, to judge each
    move by what its player knew too (its result's ``interrupted`` says if it is partial)."""
    text = read_text(argument)
    if rules_change is None:
        layout, record = parse_layout_with_moves(text)
    else:  # the record is checked under the changed rules (a declaration on the first lead ...)
        fields = layout_fields(text)
        rules = rules_for(fields.get("game", "preferans"))
        record = parse_moves(fields.pop("played", ""), rules.deck)
        layout = rules_change(layout_from_fields(fields))
        check_moves(layout, record)
    result = review_deal(layout, record, make_backend(engine))
    if by_information is not None:
        result = judge_by_information(result, record, engine=engine, **by_information)
    return result
