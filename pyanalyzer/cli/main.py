"""The ``pref`` command-line tool.

Bad input never gives a traceback: one line naming the offending token on
standard error, and exit status 2.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import click

from pyanalyzer.analysis.solve import solve, solve_later, solve_one_line_later
from pyanalyzer.cli.batch import BATCH_EXIT_HELP, run_batch
from pyanalyzer.cli.options import NO_LINE_OPTION, cards_option, marriage_options, tt_mb_option, with_marriage_options
from pyanalyzer.cli.pictures import picture_options, write_layout_pictures, write_pictures
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler, scheduler_for
from pyanalyzer.cli.support import ENGINE_OPTION, NOTATION_OPTION, exit_interrupted, fail
from pyanalyzer.cli.terminal import COLOR_CHOICES, echo_answer, echo_text, set_color
from pyanalyzer.engines.registry import WarmEngine, check_table_memory, make_backend
from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.layout_io import format_layout_file, format_one_line, layout_to_dict, parse_one_line, read_layout
from pyanalyzer.render.diagram import diagram


def _print_version(context: click.Context, _option: click.Parameter, value: bool) -> None:
    if not value or context.resilient_parsing:
        return
    from importlib.metadata import version

    from pyanalyzer.engines.registry import engine_kernel

    try:
        kernel = f"{engine_kernel()} kernel"
    except ImportError as error:
        kernel = f"unavailable: {error}"
    click.echo(f"pref, version {version('pref-solver')}; engine: {kernel}")
    context.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the engine's kernel (the CPU level it is compiled for), and exit.")
@click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto", envvar="PREF_COLOR",
              show_default=True, show_envvar=True,
              help="Red ♦ ♥ in the output: auto (on a terminal, unless NO_COLOR is set), always, never.")
def main(color: str) -> None:
    """Exact double-dummy analysis of Preferans, Whist and Thousand layouts."""
    set_color(color)


@main.command("show")
@click.argument("layout")
@click.option("--one-line", is_flag=True, help="Print the layout in the one-line form.")
@click.option("--file-format", is_flag=True, help="Print the layout in the layout file format.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the layout as one JSON object (hands, contract, talon, ..., one_line).")
@NOTATION_OPTION
@picture_options
def show_command(layout: str, one_line: bool, file_format: bool, as_json: bool, notation: str,
                 svg_path: str | None, html_path: str | None) -> None:
    """Check LAYOUT and print it: as a diagram, or converted to the other text format.

    \b
    Examples:
      pref show layouts/kovalevskaya.txt --one-line
      pref show "contract=7c declarer=S lead=S S=As,7c W=Ts,Jc E=9s,Tc" --file-format
      pref show layouts/seven-clubs.txt --json
      pref show layouts/whist-deal.txt --svg whist-deal.svg
    """
    if one_line and file_format:
        fail("give --one-line or --file-format, not both")
    if as_json and (one_line or file_format):
        fail("--json prints the layout as JSON: leave out --one-line and --file-format")
    try:
        parsed = read_layout(layout)
    except PrefInputError as error:
        fail(str(error))
    write_layout_pictures(parsed, svg_path, html_path, notation)
    if as_json:
        click.echo(json.dumps(layout_to_dict(parsed), ensure_ascii=False))
    elif one_line:
        click.echo(format_one_line(parsed))
    elif file_format:
        echo_text(format_layout_file(parsed, notation), nl=False)
    else:
        echo_text(diagram(parsed, notation))


@main.command("solve")
@click.argument("layout", required=False)
@cards_option(default=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSON Lines with --batch).")
@click.option("--batch", "batch_file", metavar="FILE",
              help="Solve one one-line layout per line of FILE ('-' for standard input). "
                   + BATCH_EXIT_HELP)
@ENGINE_OPTION
@NO_LINE_OPTION
@NOTATION_OPTION
@tt_mb_option(default=64)
@marriage_options
@picture_options
@SCHEDULER_OPTION
def solve_command(layout: str | None, show_cards: bool, as_json: bool, batch_file: str | None,
                  engine: str, no_line: bool, notation: str, tt_mb: int, ace_marriage: bool,
                  declare_first_lead: bool, svg_path: str | None, html_path: str | None,
                  scheduler: str | None) -> None:
    """Solve LAYOUT: a layout file, or a one-line layout in quotes.

    \b
    Examples:
      pref solve layouts/kovalevskaya.txt
      pref solve "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh" --cards
      pref solve --batch deals.txt --json > results.jsonl
      pref solve layouts/kovalevskaya.txt --html kovalevskaya.html --svg kovalevskaya.svg
    """
    if (layout is None) == (batch_file is None):
        fail("give either a LAYOUT or --batch FILE")
    if batch_file is not None and (svg_path or html_path):
        fail(f"{'--svg' if svg_path else '--html'} draws one analysis: give a LAYOUT, not --batch")
    scheduler = scheduler_for(scheduler, batch_file is not None, "it goes with --batch (one layout is solved here)")
    try:
        if engine == "fast":
            check_table_memory(tt_mb, 1)
        backend = make_backend(engine, tt_size_mb=tt_mb)
    except PrefInputError as error:
        fail(str(error))
    if batch_file is not None:
        answer = SolveLine(show_cards, not no_line, ace_marriage, declare_first_lead)
        with on_scheduler(scheduler):
            run_batch(batch_file, answer, backend, verdict=None if as_json else solution_verdict,
                      remote=WarmEngine(engine, tt_mb))
        return
    try:
        parsed = with_marriage_options(read_layout(layout), ace_marriage, declare_first_lead)
    except PrefInputError as error:
        fail(str(error))
    try:
        pictures = bool(svg_path or html_path)  # they show each card's value
        result = solve(parsed, backend, cards=show_cards or pictures, line=not no_line)
    except PrefInputError as error:  # e.g. a deal too large for the reference engine
        fail(str(error))
    except KeyboardInterrupt:
        exit_interrupted()
    write_pictures(result, svg_path, html_path, notation)
    if pictures and not show_cards:  # the text and JSON stay as asked: no card values
        result = dataclasses.replace(result, cards=None)
    # The diagram with the discard solve chose, if it did.
    echo_answer(result, as_json, diagram(result.layout, notation), result.format(notation))


@dataclass(frozen=True)
class SolveLine:
    """``pref solve --batch``: one line's solution (picklable: a cluster worker runs it)."""

    cards: bool
    line: bool
    ace_marriage: bool
    declare_first_lead: bool

    def __call__(self, backend, text: str):
        return self.read(text)(backend)

    def read(self, text: str):
        """The line read (and its position built): the rest as ``task(backend)``."""
        if not (self.ace_marriage or self.declare_first_lead):
            return solve_one_line_later(text, cards=self.cards, line=self.line)
        parsed = with_marriage_options(parse_one_line(text), self.ace_marriage, self.declare_first_lead)
        return solve_later(parsed, cards=self.cards, line=self.line)


def solution_verdict(result) -> str:
    return result.verdict()


# Commands that live with their analyzers.
from pyanalyzer.cli.advise import advise_command  # noqa: E402
from pyanalyzer.cli.allpass import allpass_command  # noqa: E402
from pyanalyzer.cli.contract import contract_command  # noqa: E402
from pyanalyzer.cli.misere import misere_command  # noqa: E402
from pyanalyzer.cli.puzzles import puzzle_command  # noqa: E402
from pyanalyzer.cli.scoring import score_command, settle_command  # noqa: E402
from pyanalyzer.cli.serve import serve_command  # noqa: E402
from pyanalyzer.cli.thousand import thousand_command  # noqa: E402
from pyanalyzer.cli.whist import table_command  # noqa: E402

main.add_command(advise_command)
main.add_command(allpass_command)
main.add_command(contract_command)
main.add_command(misere_command)
main.add_command(puzzle_command)
main.add_command(score_command)
main.add_command(serve_command)
main.add_command(settle_command)
main.add_command(table_command)
main.add_command(thousand_command)


if __name__ == "__main__":  # pragma: no cover
    main()
