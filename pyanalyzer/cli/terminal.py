"""Colour on the terminal: the red suits (♦ ♥) in red, the cards with them.

Text is formatted first (diagrams, lines, tables: the analyzers' ``format()``),
then :func:`show` colours it as it is written, so widths and alignment are those
of the plain text. Colour is used only when standard output is a terminal
(``--color auto``, the default), never in a pipe, a file or JSON output:

* ``--color always|never`` on the ``pref`` group, or ``PREF_COLOR=always|never|auto``;
* in ``auto``: ``NO_COLOR`` (set, not empty) turns colour off, ``FORCE_COLOR``
  (set, not empty, not ``0``) turns it on in a pipe too; ``TERM=dumb`` is plain.

>>> paint_red_suits("♥ K 10 7   ♠ A", paint=lambda text: f"<{text}>")
'<♥ K 10 7>   ♠ A'
>>> paint_red_suits("6♦ by South; lead ♦10, then ♥K+", paint=lambda text: f"<{text}>")
'6<♦> by South; lead <♦10>, then <♥K>+'
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable

import click

COLOR_CHOICES = ("auto", "always", "never")

#: A red suit symbol and the card or suit holding written after it: ``♥10``, ``♦KQJ``
#: (suit-grouped), ``♥ K 10 7`` (a diagram's suit line; ``♥ K T`` with --notation letters),
#: Russian ranks ``♦Т``.
_RANK = r"(?:10|[2-9AKQJTТКДВ])"
RED_SUIT = re.compile(rf"[♦♥♢♡](?:{_RANK}+|(?: (?:{_RANK}|-)(?=[\s,;.)]|$))+)?", re.MULTILINE)

_choice = "auto"


def set_color(choice: str) -> None:
    """The ``--color`` choice for this run (``auto``, ``always`` or ``never``)."""
    global _choice
    _choice = choice


def _flag(name: str) -> bool:
    value = os.environ.get(name, "")
    return value != "" and value != "0"


def color_wanted(stream=None) -> bool:
    """Whether text written to ``stream`` (default: standard output) is coloured."""
    if _choice != "auto":
        return _choice == "always"
    if os.environ.get("NO_COLOR", "") != "":
        return False
    if _flag("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def paint_red_suits(text: str, paint: Callable[[str], str]) -> str:
    """``text`` with every red suit (and the cards written with it) passed through ``paint``."""
    return RED_SUIT.sub(lambda match: paint(match.group(0)), text)


def red(text: str) -> str:
    return click.style(text, fg="red")


def echo_text(text: str = "", nl: bool = True) -> None:
    """Write ``text`` (formatted for people, never JSON) to standard output, coloured when
    :func:`color_wanted`."""
    if color_wanted():
        click.echo(paint_red_suits(text, red), nl=nl, color=True)
    else:
        click.echo(text, nl=nl, color=False)


def echo_answer(result, as_json: bool, *sections: str) -> None:
    """One analysis's answer: its ``--json`` object, or the text ``sections`` (a diagram, the
    result...) each followed by a blank line, then the engine's footer (name, nodes, seconds)."""
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    for section in sections:
        echo_text(section)
        echo_text("")
    echo_text(f"[{result.engine} engine: {result.nodes:,} nodes, {result.seconds:.3f} s]")
