"""``pref misere``: is this misère catchable, and for how many tricks?"""

from __future__ import annotations

import json

import click

from pyanalyzer.analysis.solve import Solution
from pyanalyzer.cli.options import NO_LINE_OPTION, cards_option
from pyanalyzer.cli.pictures import check_svg_has_a_layout, picture_options, write_pictures
from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler, scheduler_for
from pyanalyzer.cli.support import (
    ENGINE_OPTION,
    NOTATION_OPTION,
    SAMPLES_TYPE,
    SEED_TYPE,
    THREADS_TYPE,
    PlotPath,
    command_errors,
    exit_if_interrupted,
    fail,
    runs_take_the_stop_signals_with_hand,
)
from pyanalyzer.cli.terminal import echo_text
from pyanalyzer.engines.registry import SPLITS_TT_MB, check_table_memory, make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.layout_io import read_layout
from pyanalyzer.model.notation import parse_cards
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans.misere import analyse_misere_layout, catching_summary, rank_misere_discards
from pyanalyzer.preferans.odds import TrickOdds, before_talon, declarer_view, plot_histogram
from pyanalyzer.render.diagram import diagram


@click.command("misere")
@click.argument("layout", required=False)
@click.option("--talon", "talon_text", metavar="CARDS",
              help="The talon: the declarer's twelve cards are known, his discard is not.")
@click.option("--hand", "hand_text", metavar="SEAT=CARDS",
              help="Only the declarer's hand is known (10 cards with --discard, 12, or 10 before the talon).")
@click.option("--discard", "discard_text", metavar="CARDS", help="The declarer's discard (with 10 cards).")
@click.option("--lead", "lead_text", metavar="SEAT", help="The seat on lead (with --hand).")
@click.option("--samples", type=SAMPLES_TYPE, help="Sample this many layouts instead of all.")
@click.option("--seed", type=SEED_TYPE, help="Seed for random samples.")
@click.option("--threads", type=THREADS_TYPE, default=2, show_default=True)
@click.option("--top", type=click.IntRange(1), default=5, show_default=True, help="Discards shown (12 cards).")
@click.option("--plot", "plot_path", type=PlotPath(), metavar="FILE.png",
              help="Draw the distribution (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@cards_option(default=True)
@NO_LINE_OPTION
@ENGINE_OPTION
@NOTATION_OPTION
@picture_options
@SCHEDULER_OPTION
@runs_take_the_stop_signals_with_hand
def misere_command(layout, talon_text, hand_text, discard_text, lead_text, samples, seed, threads, top,
                   plot_path, as_json, show_cards, no_line, engine, notation, svg_path, html_path,
                   scheduler) -> None:
    """Misère: forced tricks, catching line, unknown discard, catch odds, best discard.

    \b
    pref misere LAYOUT                     open cards: tricks forced, catching line, each card
    pref misere LAYOUT --talon Kc,Ac       the discard unseen: one defence against every discard?
    pref misere --hand S=10 cards --discard .. --lead E
                                           exact catch probability over all 184,756 splits
    pref misere --hand S=12 cards --lead E best discards by catch probability (exact, pruned)
    pref misere --hand S=10 cards --lead E before the talon: Monte Carlo (--samples, --seed)
    \b
    Examples:
      pref misere layouts/kovalevskaya.txt
      pref misere layouts/kovalevskaya.txt --talon Kc,Ac
      pref misere --hand S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h --discard Kc,Ac --lead E
      pref misere --hand S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h --lead E --samples 20 --seed 1
      pref misere layouts/kovalevskaya.txt --html kovalevskaya.html
    """
    if (layout is None) == (hand_text is None):
        fail("give either a LAYOUT or --hand SEAT=CARDS")
    scheduler = scheduler_for(scheduler, hand_text is not None,
                              "it goes with --hand (a LAYOUT is analysed here)")
    if plot_path and not (hand_text and discard_text):  # said before the run, not after it
        fail("--plot draws the catch distribution: use it with --hand and --discard")
    progress = ProgressLine("splits")
    with command_errors(progress):
        check_svg_has_a_layout(svg_path, layout is not None)
        if layout is not None:
            result = _layout_mode(layout, talon_text, engine, show_cards, not no_line)
        else:
            with on_scheduler(scheduler):
                result = _hand_mode(hand_text, discard_text, lead_text, samples, seed, threads, top, engine,
                                    progress)
        progress.close()
        if plot_path:
            if not isinstance(result, TrickOdds):
                raise LayoutError("--plot draws the catch distribution: use it with --hand and --discard",
                                  "--plot")
            try:
                plot_histogram(result, plot_path)
            except OSError as error:
                raise LayoutError(f"cannot write --plot {plot_path!r}: {error.strerror or error}",
                                  "--plot") from None
        write_pictures(result, svg_path, html_path, notation)
    if as_json:
        data = result.to_dict()
        if isinstance(result, Solution):  # the open layout: add the catching verdict
            data["caught"] = result.declarer_tricks > 0
            data["summary"] = catching_summary(result, "letters")
        click.echo(json.dumps(data, ensure_ascii=False))
        exit_if_interrupted(result)
        return
    if isinstance(result, Solution):  # the verdict (in result.format) says it once
        echo_text(diagram(result.layout, notation))
        echo_text("")
    echo_text(result.format(notation))
    exit_if_interrupted(result)


def _layout_mode(argument: str, talon_text: str | None, engine: str, cards: bool = True,
                 line: bool = True):
    return analyse_misere_layout(read_layout(argument), make_backend(engine), talon_text, cards=cards, line=line)


def _hand_mode(hand_text, discard_text, lead_text, samples, seed, threads, top, engine, progress):
    from pyanalyzer.model.hand import Hand

    rules = PREFERANS_RULES
    if engine == "fast":
        check_table_memory(SPLITS_TT_MB, threads, advice="lower --threads")
    else:
        raise LayoutError("--hand solves thousands of layouts, too many for the reference engine (the "
                          "plain minimax, for single small endings): use --engine fast", "--engine")
    seat, sep, cards_text = hand_text.partition("=")
    if not sep:
        raise LayoutError(f"--hand takes SEAT=CARDS (got {hand_text!r})", hand_text)
    seat = rules.seat(seat)
    cards = parse_cards(cards_text, rules.deck)
    if lead_text is None:
        raise LayoutError("missing --lead: the seat on lead to the first trick", "--lead")
    lead = rules.seat(lead_text)
    misere = Contract("misere")
    discard = parse_cards(discard_text, rules.deck) if discard_text else []
    if len(cards) == rules.hand_size + rules.discard_size:
        if discard:
            raise LayoutError("with twelve cards, leave out --discard: the best one is searched for",
                              "--discard")
        return rank_misere_discards(cards, seat, lead, rules, engine, threads, top, progress=progress)
    hand = Hand(cards, rules.deck)
    if len(cards) == rules.hand_size and discard:
        return declarer_view(hand, seat, discard, misere, lead, rules, engine, threads, samples, seed,
                             progress)
    if len(cards) == rules.hand_size:
        progress.unit = "deals"
        return before_talon(hand, seat, misere, lead, rules, engine, samples or 200, seed=seed,
                            progress=progress)
    raise LayoutError(f"--hand has {len(cards)} cards: give 10 (with or without --discard) or 12", "--hand")
