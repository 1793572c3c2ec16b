"""``pref allpass``: how few tricks can each player guarantee, and how would it go?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

import click

from pyanalyzer.cli.batch import BATCH_EXIT_HELP, run_batch
from pyanalyzer.cli.options import NO_LINE_OPTION, cards_option, tt_mb_option
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler, scheduler_for
from pyanalyzer.cli.support import ENGINE_OPTION, NOTATION_OPTION, command_errors, fail
from pyanalyzer.cli.terminal import echo_answer
from pyanalyzer.engines.registry import WarmEngine, check_table_memory, make_backend
from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import parse_one_line, read_layout
from pyanalyzer.model.rules import AllPassRules
from pyanalyzer.preferans.allpass import analyse_allpass, with_conventions
from pyanalyzer.render.diagram import diagram

CONVENTIONS = ("standard", "beat-talon", "rostov")
#: The reference max^n has no pruning: beyond this many tricks it takes minutes.
REFERENCE_SPLIT_TRICKS = 6


@click.command("allpass")
@click.argument("layout", required=False)
@click.option("--talon-rule", "--convention", "talon_rule", type=click.Choice(CONVENTIONS),
              default="standard", show_default=True,
              help="standard: the talon cards fix the suit of the first tricks; beat-talon: only a "
                   "card above the talon card takes such a trick; rostov: the talon stays closed and "
                   "each player aims to take fewer tricks than each opponent. (--convention is the "
                   "old name, still accepted; pref score's --convention is a scoring convention.)")
@click.option("--four-handed", is_flag=True,
              help="Four at the table: the dealer sits out and takes the talon tricks no player takes.")
@click.option("--taken", "taken_text", metavar="SEAT=N,...",
              help="Tricks each player took before this layout (the Rostov aim depends on them).")
@click.option("--no-split", is_flag=True, help="Skip the self-interested line.")
@cards_option(default=True)
@NO_LINE_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSON Lines with --batch).")
@click.option("--batch", "batch_file", metavar="FILE",
              help="Analyse one one-line layout per line of FILE ('-' for standard input). "
                   + BATCH_EXIT_HELP)
@ENGINE_OPTION
@NOTATION_OPTION
@tt_mb_option(default=64)
@SCHEDULER_OPTION
def allpass_command(layout, talon_rule, four_handed, taken_text, no_split, show_cards, no_line, as_json,
                    batch_file, engine, notation, tt_mb, scheduler) -> None:
    """All-pass: each player's guaranteed minimum and a self-interested line.

    LAYOUT is a layout file or a one-line layout with contract=allpass. With
    talon= given, the talon cards fix the suit of the first tricks (also in
    endings shorter than ten cards).

    \b
    For each player: the fewest tricks he can guarantee against the other two
    playing together, with the line; for the player to move, every legal card;
    and one self-interested line, everybody minimising his own tricks (max^n;
    ties go to the first card in the order ♠ ♣ ♦ ♥, low to high), a full
    split of the tricks. That line is one solution concept among several.

    \b
    Examples:
      pref allpass layouts/allpass.txt
      pref allpass layouts/allpass.txt --talon-rule rostov --json
      pref allpass "contract=allpass lead=S talon=Kh S=As,7h W=Ks,8h E=Qs,9h"
    """
    if (layout is None) == (batch_file is None):
        fail("give either a LAYOUT or --batch FILE")
    scheduler = scheduler_for(scheduler, batch_file is not None, "it goes with --batch (one layout is analysed here)")
    conventions = AllPassRules.named(talon_rule, four_handed)
    with command_errors():
        if engine == "fast":
            check_table_memory(tt_mb, 1)
        backend = make_backend(engine, tt_size_mb=tt_mb)
    wanted = {"cards": show_cards, "lines": not no_line, "split": not no_split}
    if batch_file is not None:
        with on_scheduler(scheduler):
            run_batch(batch_file, AllpassLine(conventions, wanted["cards"], wanted["lines"], wanted["split"]),
                      backend, remote=WarmEngine(engine, tt_mb))
        return
    with command_errors():
        parsed = _prepare(read_layout(layout), conventions)
        if engine == "reference" and not no_split and parsed.tricks_left > REFERENCE_SPLIT_TRICKS:
            raise LayoutError(f"the reference engine plays the self-interested line by plain search, "
                              f"too slow beyond {REFERENCE_SPLIT_TRICKS} tricks: add --no-split or use "
                              "the fast engine", "--engine")
        taken = _parse_taken(taken_text, parsed)
        result = analyse_allpass(parsed, backend, taken=taken, **wanted)
    echo_answer(result, as_json, diagram(parsed, notation), f"Conventions: {conventions.describe()}.",
                result.format(notation))


@dataclass(frozen=True)
class AllpassLine:
    """``pref allpass --batch``: one line's analysis (picklable: a cluster worker runs it)."""

    conventions: AllPassRules
    cards: bool
    lines: bool
    split: bool

    def __call__(self, backend, text: str):
        return self.read(text)(backend)

    def read(self, text: str):
        """The line read: the analysis as ``task(backend)``."""
        return partial(analyse_allpass, _prepare(parse_one_line(text), self.conventions), cards=self.cards,
                       lines=self.lines, split=self.split)


def _prepare(layout: Layout, conventions: AllPassRules) -> Layout:
    if not layout.contract.is_allpass:
        raise LayoutError(f"pref allpass needs contract=allpass, not {layout.contract.code}",
                          layout.contract.code)
    if layout.rules.game != "preferans":
        raise LayoutError(f"all-pass is a Preferans contract, not {layout.rules.game}", layout.rules.game)
    return with_conventions(layout, conventions)


def _parse_taken(text: str | None, layout: Layout) -> dict[str, int] | None:
    """``S=1,W=0,E=2`` -> {seat: tricks}; seats left out took none."""
    if not text:
        return None
    taken: dict[str, int] = {}
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        seat, _, count = token.partition("=")
        seat = layout.rules.seat(seat)
        # ASCII digits, at most two ("²" is a digit to str.isdigit but not to int()).
        if not re.fullmatch(r"[0-9]{1,2}", count) or int(count) > layout.rules.hand_size:
            raise LayoutError(f"bad trick count in --taken: {shorten(token)!r} (a whole number from 0 to "
                              f"{layout.rules.hand_size}; write e.g. S=1,W=0,E=2)", token)
        if seat in taken:
            raise LayoutError(f"--taken gives {seat} twice: {shorten(text)!r}", seat)
        taken[seat] = int(count)
    done = sum(taken.values())
    if done + layout.tricks_left > layout.rules.hand_size:
        raise LayoutError(f"--taken {text} counts {done} tricks but only "
                          f"{layout.rules.hand_size - layout.tricks_left} are played before this layout",
                          text)
    return taken
