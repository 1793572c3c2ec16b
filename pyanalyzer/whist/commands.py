"""The ``pref table`` command: the double-dummy table of a whist deal given in PBN.

Bad input gives one line ``pref: error: <message>`` on standard error and exit
status 2; in a batch, a bad line gives ``{"error": ..., "line": N}`` and the
batch goes on.
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from ..command_support import exit_interrupted
from ..engines import ENGINE_NAMES, make_backend
from ..errors import PrefInputError
from ..progress import ProgressLine
from .deal import Deal
from .table import dd_table

INPUT_ERROR = 2


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


@click.command("table")
@click.argument("pbn", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSON Lines with --batch).")
@click.option("--batch", "batch_file", metavar="FILE",
              help="One PBN deal per line of FILE ('-' for standard input); writes JSON Lines.")
@click.option("--engine", type=click.Choice(ENGINE_NAMES), default="fast", show_default=True,
              help="fast: the Cython engine; reference: the plain minimax (small endings only).")
@click.option("--tt-mb", type=click.IntRange(1, 65536), default=256, show_default=True,
              help="Size of each transposition table in MB (hard deals need room: one took 66 s "
                   "with 64 MB, 27 s with 256).")
@click.option("--threads", type=click.IntRange(1, 5), default=2, show_default=True,
              help="Threads sharing out the five denominations, each with its own table "
                   "(memory: threads x --tt-mb).")
def table_command(pbn: str | None, as_json: bool, batch_file: str | None, engine: str, tt_mb: int,
                  threads: int) -> None:
    """Double-dummy table of a whist deal: tricks for each declarer and denomination.

    PBN is a deal string such as "N:AKQ.JT9.87.65432 JT9.876.AKQ.JT9 876.AKQ.JT9.AKQ
    5432.5432.65432.87" (first seat, then the hands clockwise, suits S.H.D.C). The
    declarer's left-hand opponent leads, as in DDS's CalcDDtable.

    \b
    Examples:
      pref table "N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543"
      pref table "N:..." --json
      pref table --batch deals.pbn > tables.jsonl
    """
    if (pbn is None) == (batch_file is None):
        fail("give either a PBN deal or --batch FILE")
    backends = [make_backend(engine, tt_size_mb=tt_mb) for _ in range(threads)]
    if batch_file is not None:
        _run_batch(batch_file, backends)
        return
    try:
        deal = Deal.from_pbn(pbn)
    except PrefInputError as error:
        fail(str(error))
    progress = ProgressLine("searches")
    try:
        table = dd_table(deal, backends, progress)
    except KeyboardInterrupt:
        progress.close()
        exit_interrupted("the table was not complete")
    progress.close()
    if as_json:
        click.echo(json.dumps(table.to_dict(), ensure_ascii=False))
        return
    click.echo(deal.pbn())
    click.echo("")
    click.echo(str(table))
    click.echo("")
    click.echo(f"[{table.engine} engine: {table.nodes:,} nodes, {table.seconds:.3f} s]")


def _run_batch(path: str, backends) -> None:
    """One JSON object per PBN line, written as soon as it is known."""
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        fail(f"cannot read batch file {path!r}: {error.strerror}")
    done = 0
    try:
        with handle:
            for number, raw in enumerate(handle, start=1):
                text = raw.strip()
                if not text or text.startswith("#"):
                    continue
                try:
                    record = dd_table(Deal.from_pbn(text), backends).to_dict()
                except PrefInputError as error:
                    record = {"error": str(error), "line": number}
                click.echo(json.dumps(record, ensure_ascii=False))
                sys.stdout.flush()
                done += 1
    except UnicodeDecodeError:
        fail(f"batch file {path!r} is not UTF-8 text")
    except KeyboardInterrupt:
        click.echo("", err=True)
        exit_interrupted(f"after {done} deals; the results written are complete")
