"""The ``pref`` command-line tool.

Bad input never gives a traceback: one line naming the offending token on
standard error, and exit status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import click

from .command_support import ENGINE_OPTION, NOTATION_OPTION, exit_interrupted, fail
from .diagram import diagram
from .engines import make_backend
from .errors import PrefInputError
from .layout_io import format_layout_file, format_one_line, parse_one_line, read_layout
from .solve import solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pref-solver")
def main() -> None:
    """Exact double-dummy analysis of Preferans (and Whist) layouts."""


def _batch_lines(path: str) -> Iterator[tuple[int, str]]:
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        fail(f"cannot read batch file {path!r}: {error.strerror}")
    with handle:
        for number, raw in enumerate(handle, start=1):
            text = raw.strip()
            if text and not text.startswith("#"):
                yield number, text


@main.command("show")
@click.argument("layout")
@click.option("--one-line", is_flag=True, help="Print the layout in the one-line form.")
@click.option("--file-format", is_flag=True, help="Print the layout in the layout file format.")
@NOTATION_OPTION
def show_command(layout: str, one_line: bool, file_format: bool, notation: str) -> None:
    """Check LAYOUT and print it: as a diagram, or converted to the other text format.

    \b
    Examples:
      pref show layouts/kovalevskaya.txt --one-line
      pref show "contract=7c declarer=S lead=S S=As,7c W=Ts,Jc E=9s,Tc" --file-format
    """
    try:
        parsed = read_layout(layout)
    except PrefInputError as error:
        fail(str(error))
    if one_line:
        click.echo(format_one_line(parsed))
    elif file_format:
        click.echo(format_layout_file(parsed, notation), nl=False)
    else:
        click.echo(diagram(parsed, notation))


@main.command("solve")
@click.argument("layout", required=False)
@click.option("--cards", "show_cards", is_flag=True,
              help="List every legal card of the player to move with its result.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSON Lines with --batch).")
@click.option("--batch", "batch_file", metavar="FILE",
              help="Solve one one-line layout per line of FILE ('-' for standard input).")
@ENGINE_OPTION
@click.option("--no-line", is_flag=True, help="Skip the best line (faster in batches).")
@NOTATION_OPTION
def solve_command(layout: str | None, show_cards: bool, as_json: bool, batch_file: str | None,
                  engine: str, no_line: bool, notation: str) -> None:
    """Solve LAYOUT: a layout file, or a one-line layout in quotes.

    \b
    Examples:
      pref solve layouts/kovalevskaya.txt
      pref solve "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh" --cards
      pref solve --batch deals.txt --json > results.jsonl
    """
    if (layout is None) == (batch_file is None):
        fail("give either a LAYOUT or --batch FILE")
    backend = make_backend(engine)
    if batch_file is not None:
        _run_batch(batch_file, backend, as_json, show_cards or as_json, not no_line)
        return
    try:
        parsed = read_layout(layout)
    except PrefInputError as error:
        fail(str(error))
    try:
        result = solve(parsed, backend, cards=show_cards or as_json, line=not no_line)
    except KeyboardInterrupt:
        exit_interrupted()
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    click.echo(diagram(parsed, notation))
    click.echo("")
    click.echo(result.format(notation))
    click.echo("")
    click.echo(f"[{result.engine} engine: {result.nodes:,} nodes, {result.seconds:.3f} s]")


def _run_batch(path: str, backend, as_json: bool, cards: bool, line: bool) -> None:
    """Each result is written (and flushed) as soon as it is known; Ctrl-C keeps what is done."""
    lines = list(_batch_lines(path))
    progress = sys.stderr.isatty()
    done = 0
    try:
        for number, text in lines:
            try:
                result = solve(parse_one_line(text), backend, cards=cards, line=line)
            except PrefInputError as error:
                record = {"error": str(error), "line": number}
                output = json.dumps(record, ensure_ascii=False) if as_json else (
                    f"line {number}: error: {error}")
            else:
                output = json.dumps(result.to_dict(), ensure_ascii=False) if as_json else (
                    f"line {number}: {result.verdict()}")
            click.echo(output)
            sys.stdout.flush()
            done += 1
            if progress:
                click.echo(f"\r[{done}/{len(lines)} layouts]", err=True, nl=False)
    except KeyboardInterrupt:
        if progress:
            click.echo("", err=True)
        exit_interrupted(f"after {done} of {len(lines)} layouts; the results written are complete")
    if progress:
        click.echo("", err=True)


# Commands that live with their analyzers.
from .allpass_command import allpass_command  # noqa: E402
from .contract_command import contract_command  # noqa: E402
from .misere_command import misere_command  # noqa: E402
from .puzzle_command import puzzle_command  # noqa: E402
from .scoring.commands import score_command, settle_command  # noqa: E402
from .whist.commands import table_command  # noqa: E402

main.add_command(allpass_command)
main.add_command(contract_command)
main.add_command(misere_command)
main.add_command(puzzle_command)
main.add_command(score_command)
main.add_command(settle_command)
main.add_command(table_command)


if __name__ == "__main__":  # pragma: no cover
    main()
