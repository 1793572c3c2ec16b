"""The ``pref table`` command: the double-dummy table of a whist deal given in PBN.

Bad input gives one line ``pref: error: <message>`` on standard error and exit
status 2; in a batch, a bad line gives ``{"error": ..., "line": N}`` and the
batch goes on.
"""

from __future__ import annotations

import re
import sys
from typing import NoReturn

import click

from pyanalyzer.cli.batch import BATCH_EXIT_HELP, run_batch
from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler
from pyanalyzer.cli.support import BoundedInt, exit_interrupted
from pyanalyzer.cli.terminal import echo_answer
from pyanalyzer.engines.registry import ENGINE_NAMES, WarmEngine, check_table_memory, make_backend
from pyanalyzer.errors import LayoutError, PrefInputError
from pyanalyzer.model.layout_io import parse_one_line, read_layout
from pyanalyzer.whist.deal import Deal
from pyanalyzer.whist.table import dd_table

INPUT_ERROR = 2


_PBN_START = re.compile(r"^\s*(\[\s*deal\b|[nesw]\s*:)", re.IGNORECASE)


def read_deal(argument: str, files: bool = True) -> Deal:
    """A whist deal from a PBN deal string, or from a whist layout (``game: whist``): a layout
    file (when ``files``) or the one-line form."""
    if _PBN_START.match(argument):
        return Deal.from_pbn(argument)
    layout = read_layout(argument) if files else parse_one_line(argument)
    if layout.rules.game != "whist":
        raise LayoutError(f"pref table reads a whist deal (PBN, or a layout with game: whist), "
                          f"not a {layout.rules.game} layout", layout.rules.game)
    if layout.played:
        raise LayoutError("pref table starts before a trick: remove played=", "played")
    return Deal.from_layout(layout)


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


def table_line(backends, text: str):
    """``pref table --batch``: one line's table (on the engines given, one or a list)."""
    return dd_table(read_deal(text, files=False), backends)


@click.command("table")
@click.argument("pbn", metavar="DEAL", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSON Lines with --batch).")
@click.option("--batch", "batch_file", metavar="FILE",
              help="One deal per line of FILE (PBN, or a one-line whist layout; '-' for standard "
                   "input); writes JSON Lines. " + BATCH_EXIT_HELP)
@click.option("--engine", type=click.Choice(ENGINE_NAMES), default="fast", show_default=True,
              help="fast: the Cython engine; reference: the plain minimax (endings of at most 8 tricks).")
@click.option("--tt-mb", type=BoundedInt(1, 65536), default=256, show_default=True,
              help="Size of each transposition table in MB (hard deals need room: one took 66 s "
                   "with 64 MB, 27 s with 256).")
@click.option("--threads", type=BoundedInt(1, 5), default=2, show_default=True,
              help="Threads sharing out the five denominations, each with its own table "
                   "(memory: threads x --tt-mb).")
@SCHEDULER_OPTION
def table_command(pbn: str | None, as_json: bool, batch_file: str | None, engine: str, tt_mb: int,
                  threads: int, scheduler: str | None) -> None:
    """Double-dummy table of a whist deal: tricks for each declarer and denomination.

    DEAL is a whist layout (a file such as layouts/whist-deal.txt, or the one-line
    form, with game=whist), or a PBN deal string such as "N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 876.AKQ.JT95.AKQ
    5432.5432.432.87" (first seat, then the hands clockwise, suits S.H.D.C). The
    declarer's left-hand opponent leads, as in DDS's CalcDDtable.

    \b
    Examples:
      pref table "N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 876.AKQ.JT95.AKQ 5432.5432.432.87"
      pref table "N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543" --json
      pref table layouts/whist-deal.txt
      pref table --batch deals.pbn > tables.jsonl
    """
    if (pbn is None) == (batch_file is None):
        fail("give either a DEAL (PBN or a whist layout) or --batch FILE")
    try:
        if engine == "fast":
            check_table_memory(tt_mb, threads)
        backends = [make_backend(engine, tt_size_mb=tt_mb) for _ in range(threads)]
    except PrefInputError as error:
        fail(str(error))
    if batch_file is not None:
        # Here the deal's denominations are shared among the threads; on a cluster each worker
        # solves its deals whole, with its one engine.
        with on_scheduler(scheduler):
            run_batch(batch_file, table_line, backends, unit="deals", remote=WarmEngine(engine, tt_mb))
        return
    try:
        deal = read_deal(pbn)
    except PrefInputError as error:
        fail(str(error))
    with on_scheduler(scheduler):   # the five denominations on the cluster's workers
        progress = ProgressLine("searches")
        try:
            table = dd_table(deal, backends, progress, keep_partial=True, tt_mb=tt_mb)
        except PrefInputError as error:  # e.g. a deal too large for the reference engine
            progress.close()
            fail(str(error))
        except KeyboardInterrupt:  # (outside the searches)
            progress.close()
            exit_interrupted("the table was not complete")
        except MemoryError:  # a table allocated on first use (the winning-rank table)
            progress.close()
            fail(f"not enough memory for the transposition tables ({threads} x {tt_mb:,} MB): lower --tt-mb")
        progress.close()
    echo_answer(table, as_json, deal.pbn(), str(table))
    if table.interrupted:
        exit_interrupted("the table above is partial")
