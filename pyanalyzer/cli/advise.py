"""``pref advise``: which card to play with the cards one player can see."""

from __future__ import annotations

import json

import click

from pyanalyzer.analysis.advise import EXACT_LIMIT, SAMPLES, STRATEGY_CHOICES, advise, parse_sees
from pyanalyzer.cli.pictures import picture_options, write_pictures
from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler, scheduler_for
from pyanalyzer.cli.support import (
    ENGINE_OPTION,
    NOTATION_OPTION,
    SAMPLES_TYPE,
    SEED_TYPE,
    THREADS_TYPE,
    BoundedInt,
    command_errors,
    exit_if_interrupted,
    exit_interrupted,
)
from pyanalyzer.cli.terminal import echo_text
from pyanalyzer.engines.registry import DEFAULT_TT_MB, check_table_memory
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.layout_io import parse_layout_with_moves, read_text
from pyanalyzer.model.notation import parse_moves
from pyanalyzer.preferans.discard_advice import SCREEN_SAMPLES, advise_discard, asks_for_a_discard

#: The largest --exact-limit: every layout of a whole Preferans deal seen by a defender.
MAX_EXACT_LIMIT = 100_000_000


@click.command("advise")
@click.argument("layout")
@click.option("--seat", "seat_text", required=True, metavar="SEAT",
              help="The player to advise (he must be the one to move).")
@click.option("--sees", "sees_texts", multiple=True, metavar="SEAT",
              help="A hand open to him besides what the rules show (repeat, or E,S).")
@click.option("--moves", "moves_text", metavar="CARDS",
              help="Cards played from LAYOUT so far, in order (after any played= record in it).")
@click.option("--exact-limit", type=BoundedInt(0, MAX_EXACT_LIMIT), default=EXACT_LIMIT, show_default=True,
              help="Solve every consistent layout when there are at most this many, else sample.")
@click.option("--samples", type=SAMPLES_TYPE,
              help=f"Random layouts to solve when there are more than --exact-limit (default {SAMPLES:,}; "
                   f"the declarer's discard: {SCREEN_SAMPLES} per discard).")
@click.option("--seed", type=SEED_TYPE, help="Seed of the random layouts (reproducible runs).")
@click.option("--threads", type=THREADS_TYPE, default=2, show_default=True, help="Solver threads.")
@click.option("--strategy", type=click.Choice(STRATEGY_CHOICES), default="auto", show_default=True,
              help="Also the exact value of his best single strategy per card: auto (small endings, "
                   "within a step budget), always (no limit), never.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@ENGINE_OPTION
@NOTATION_OPTION
@picture_options
@SCHEDULER_OPTION
def advise_command(layout, seat_text, sees_texts, moves_text, exact_limit, samples, seed, threads, strategy,
                   as_json, engine, notation, svg_path, html_path, scheduler) -> None:
    """Which card should SEAT play, knowing only what he can see?

    LAYOUT is the real deal (all hands, as for pref solve; played= may hold the play so far).
    Every layout of the cards he cannot see that agrees with what he knows (his hand, the hands
    open to him, the talon or discard as the game shows them, the cards played and the voids
    they showed) is equally likely; each of his cards gets the expected result and the chance
    of each outcome over them: exactly, or over a seeded sample with 95% intervals. For small
    endings also the exact value of his best single strategy (one card for each thing he may
    see; the average flatters him by letting him guess the layout at later decisions).

    \b
    Examples:
      pref advise layouts/seven-clubs.txt --seat S
      pref advise layouts/seven-clubs.txt --seat W --moves Ac --sees E --json
      pref advise "contract=6s declarer=S lead=W S=Ac,Qc,7s W=Kc,7d,8s E=8d,9d,9s" --seat W
      pref advise "contract=6s declarer=S lead=S S=Ac,Qc W=Kc,7d E=8d,9d" --seat S --svg advice.svg --html advice.html
      pref advise layouts/seven-clubs-discard.txt --seat S --exact-limit 0 --samples 100 --seed 1

    The declarer holding twelve cards (the talon given in no hand, no discard=) is
    asked which two to discard: each discard's expected tricks over the layouts of
    the cards he cannot see (pref contract/misere --hand's ranking of twelve cards:
    every discard on --samples layouts, the best three then over all of them; with
    --exact-limit 0, all sampled).

    --svg draws the layout as he sees it (the hands he cannot see as their count of
    cards) with each card's expected value under it; --html adds the table of cards.
    """
    scheduler = scheduler_for(scheduler, True, "")
    progress = ProgressLine("layouts")
    with command_errors(progress):
        if engine == "fast":
            check_table_memory(DEFAULT_TT_MB, threads, advice="lower --threads")
        deal, record = parse_layout_with_moves(read_text(layout))
        rules = deal.rules
        moves = list(record) + (parse_moves(moves_text, rules.deck) if moves_text else [])
        seat = rules.seat(seat_text)
        sees = parse_sees(sees_texts, rules)
        with on_scheduler(scheduler):
            discard = asks_for_a_discard(deal, seat, moves)
            if discard:
                if sees:
                    raise LayoutError("--sees: the declarer's discard is judged over every layout of the "
                                      "defenders' cards (he sees neither hand)", "--sees")
                result = advise_discard(deal, seat, engine=engine, exact_limit=exact_limit,
                                        samples=samples or SCREEN_SAMPLES, seed=seed, threads=threads,
                                        progress=progress)
            else:
                result = advise(deal, seat, sees, moves=moves, engine=engine, exact_limit=exact_limit,
                                samples=samples or SAMPLES, seed=seed, threads=threads, strategy=strategy,
                                progress=progress)
        progress.close()
        write_pictures(result, svg_path, html_path, notation)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        echo_text(result.format(notation))
    exit_if_interrupted(result)
    if not discard and result.strategy_interrupted:
        exit_interrupted("the single-strategy values were not finished")
