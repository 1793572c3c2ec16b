"""``pref puzzles``: generate a set of puzzles with unique answers, rated, as files and sheets."""

from __future__ import annotations

import json
import re

import click

from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler
from pyanalyzer.cli.support import SEED_TYPE, BoundedInt, command_errors, exit_interrupted, fail
from pyanalyzer.cli.terminal import echo_text
from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.preferans.puzzles import (
    BANDS,
    KINDS,
    REGISTERED_KINDS,
    Order,
    PuzzleWriter,
    check_order,
    generate,
    parse_constraint,
)
from pyanalyzer.thousand.puzzles import THOUSAND_KINDS

#: Bounds of the number options: a set of puzzles, processes, deals tried.
MAX_COUNT = 10_000
MAX_JOBS = 64
MAX_ATTEMPTS = 100_000_000


def _trick_range(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("..")
    if not all(re.fullmatch(r"\s*[0-9]{1,2}\s*", part) for part in ((low, high) if sep else (low,))):
        raise LayoutError(f"bad --tricks {shorten(text)!r}: write e.g. 5 or 4..6", text)
    lo = int(low)
    hi = int(high) if sep else lo
    return lo, hi


@click.command("puzzles")
@click.argument("kind", type=click.Choice(KINDS + THOUSAND_KINDS))
@click.option("--count", type=BoundedInt(1, MAX_COUNT), default=10, show_default=True,
              help="Puzzles in the set.")
@click.option("--seed", type=SEED_TYPE, default=0, show_default=True, help="The same seed gives the same set.")
@click.option("--constraint", "constraints", multiple=True, metavar="TEXT",
              help="'S has As', 'S shape 4-3-2-1', 'trumps 5+', 'S misere-like', 'tricks 5' (repeatable).")
@click.option("--difficulty", type=click.Choice(BANDS), help="Keep only puzzles of this band.")
@click.option("--tricks", "tricks_text", metavar="N|LO..HI",
              help="Tricks left at the question (10: full deals; Thousand 8). Default 4..6; "
                   "thousand-play 3..6, thousand-marriage 5..7, thousand-exchange 8.")
@click.option("--after", type=click.IntRange(0, 8), default=0, show_default=True,
              help="Play this many tricks of the best line before the question.")
@click.option("--contract", "contract_code", metavar="CODE",
              help="Fix the contract (e.g. 6h; misere for discard puzzles). Default: random trump.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Output folder; re-running with the same seed resumes the set there.")
@click.option("--jobs", type=BoundedInt(1, MAX_JOBS), default=2, show_default=True,
              help="Processes (with --scheduler: the cluster's workers instead).")
@click.option("--max-attempts", type=BoundedInt(1, MAX_ATTEMPTS), default=50000, show_default=True,
              help="Give up after this many random deals.")
@click.option("--json", "as_json", is_flag=True, help="Print each puzzle's JSON record as it is found.")
@SCHEDULER_OPTION
def puzzle_command(kind, count, seed, constraints, difficulty, tricks_text, after, contract_code, out_dir,
                   jobs, max_attempts, as_json, scheduler) -> None:
    """Generate COUNT puzzles of KIND, each with one provably unique answer.

    \b
    Kinds: misere (catch the misère), contract (declarer: make it),
    defend (defender: the only card), allpass (keep your minimum),
    discard (the only discard after picking up the talon);
    Thousand: thousand-play (the only card that makes the bid),
    thousand-marriage (declare now or play on), thousand-exchange
    (the two cards to give away to make the bid).
    \b
    Writes to --out: one layout file per puzzle (question, solution and
    rating as # comments; `pref solve FILE` reads it), puzzles.jsonl,
    sheet.txt, sheet.html (solutions on their own page) and solutions.txt.
    Each puzzle is written as soon as it is found; Ctrl-C keeps them and
    the same command resumes the set.
    \b
    Examples:
      pref puzzles misere --count 3 --out my-puzzles
      pref puzzles contract --count 3 --tricks 5 --constraint "S has As" --out aces --json
      pref puzzles thousand-marriage --count 3 --out marriages
    """
    progress = ProgressLine("puzzles")
    writer = None
    interrupted = False
    with command_errors(progress):
        if tricks_text is None:
            lo, hi = REGISTERED_KINDS[kind].default_tricks if kind in REGISTERED_KINDS else (4, 6)
            tricks_text = f"{lo}..{hi}"
        order = Order(kind, _trick_range(tricks_text), after,
                      tuple(parse_constraint(c) for c in constraints), difficulty, contract_code)
        for c in order.constraints:
            if c.kind == "tricks":
                order = Order(kind, (c.low, c.high), after, order.constraints, difficulty, contract_code)
        check_order(order)
        from pathlib import Path

        writer = PuzzleWriter(Path(out_dir), order, seed)
        if writer.dropped_line:
            click.echo(f"pref: note: line {writer.dropped_line} of {Path(out_dir) / 'puzzles.jsonl'} was cut "
                       "short (a run stopped while writing it): dropped, its puzzle is made again", err=True)
        done = len(writer.records)
        tried = [0]

        def show(attempts: int, accepted: int) -> None:
            tried[0] = attempts
            progress.unit = f"puzzles ({attempts:,} deals tried)"
            progress(done + accepted, count)

        try:
            if done < count:
                with on_scheduler(scheduler):
                    for puzzle in generate(order, count - done, seed, start=writer.next_attempt,
                                           seen=writer.seen_keys(), jobs=jobs, max_attempts=max_attempts,
                                           progress=show):
                        record = writer.add(puzzle)
                        show(tried[0], len(writer.records) - done)
                        if as_json:
                            click.echo(json.dumps(record, ensure_ascii=False))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            writer.write_sheets()
        progress.close()
    if interrupted:
        exit_interrupted(f"{len(writer.records)} of {count} puzzles are in {out_dir} (each written as found); "
                         "the same command resumes the set")
    found = len(writer.records)
    if found < count:
        fail(f"only {found} of {count} puzzles found in {max_attempts:,} deals: relax the constraints "
             "or raise --max-attempts")
    if not as_json:
        echo_text(f"{found} {kind} puzzles in {out_dir} (puzzles.jsonl, sheet.txt, sheet.html, "
                   "solutions.txt)")
