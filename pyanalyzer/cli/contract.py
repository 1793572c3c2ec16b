"""``pref contract``: whist tricks, what was makeable, who erred, and trick odds."""

from __future__ import annotations

import json

import click

from pyanalyzer.analysis.by_information import SAMPLES, judge_by_information
from pyanalyzer.analysis.playcheck import check_play
from pyanalyzer.cli.by_information import by_information_options, check_by_information_options, parse_open
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
from pyanalyzer.engines.registry import DEFAULT_TT_MB, SPLITS_TT_MB, check_table_memory, make_backend
from pyanalyzer.errors import LayoutError
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_io import parse_layout_with_record, read_text
from pyanalyzer.model.notation import parse_cards
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans.defence import analyse_contract_layout
from pyanalyzer.preferans.odds import (
    DiscardRanking,
    TrickOdds,
    before_talon,
    declarer_view,
    plot_histogram,
    rank_discards,
    whister_view,
)

PLOT_NEEDS_ODDS = "--plot draws a distribution: use it with --hand and --discard, twelve cards or --declarer"


def _seat_cards(text: str, option: str) -> tuple[str, Hand]:
    seat, sep, cards = text.partition("=")
    if not sep:
        raise LayoutError(f"{option} takes SEAT=CARDS, e.g. S=As,Ks,... (got {text!r})", text)
    seat = PREFERANS_RULES.seat(seat)
    return seat, Hand(parse_cards(cards, PREFERANS_RULES.deck), PREFERANS_RULES.deck)


def _emit(result, as_json: bool, notation: str) -> None:
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        echo_text(result.format(notation))


@click.command("contract")
@click.argument("layout", required=False)
@click.option("--hand", "hand_text", metavar="SEAT=CARDS",
              help="Only this hand is known: the declarer's (10 or 12 cards), or a whister's with --declarer.")
@click.option("--discard", "discard_text", metavar="CARDS", help="The declarer's discard (with a 10-card --hand).")
@click.option("--contract", "contract_text", metavar="CONTRACT", help="6s ... 10n, or misere.")
@click.option("--lead", "lead_text", metavar="SEAT", help="The seat on lead to the first trick.")
@click.option("--declarer", "declarer_text", metavar="SEAT",
              help="The declarer's seat, for the whister's view (--hand is then a defender's).")
@click.option("--known", "known_text", metavar="CARDS",
              help="Whister's view: cards known to be in the declarer's hand (e.g. the talon he kept).")
@click.option("--samples", type=SAMPLES_TYPE, help="Sample this many random layouts instead of all.")
@click.option("--seed", type=SEED_TYPE, help="Seed for the random samples (reproducible runs).")
@click.option("--threads", type=THREADS_TYPE, default=2, show_default=True, help="Solver threads.")
@click.option("--plot", "plot_path", type=PlotPath(), metavar="FILE.png",
              help="Draw the distribution (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@by_information_options
@ENGINE_OPTION
@NOTATION_OPTION
@picture_options
@SCHEDULER_OPTION
@runs_take_the_stop_signals_with_hand
def contract_command(layout, hand_text, discard_text, contract_text, lead_text, declarer_text, known_text,
                     samples, seed, threads, plot_path, as_json, by_information, threshold, open_texts,
                     exact_limit, engine, notation, svg_path, html_path, scheduler) -> None:
    """Trick contracts: whist tricks, the talon's best discard, mistakes, and odds.

    \b
    With a LAYOUT (file or one-line form):
      an open layout         tricks, whist obligation, how the defenders split them
      with talon=            (talon not in any hand) best discard per trump, highest
                             makeable contract; with discard= and a contract, was it made
      with played= (a whole trick or more)
                             replay the record, mark every card that changed the result;
                             --by-information: judge each card by what its player knew
                             (error / unlucky; --threshold, --open, --exact-limit,
                             --samples, --seed); Whist records too (game=whist)
    \b
    With --hand (the other hands unknown):
      --hand S=10 cards --discard .. --contract 6s --lead W
                             exact distribution of S's tricks over all 184,756 splits
      --hand S=12 cards --lead W [--contract 6s]
                             best discard and contract by probability of making
      --hand S=10 cards --declarer S --contract 6s --lead W  (no discard)
                             before the talon: Monte Carlo (--samples, --seed)
      --hand E=10 cards --declarer S --contract 6s --lead W [--known ..]
                             the whister's view: odds that whisting pays
    \b
    Examples:
      pref contract layouts/seven-clubs.txt
      pref contract --hand S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah --discard 8s,7s --contract 7c --lead S
      pref contract --hand W=Ts,Js,Qs,Jc,Kc,7d,9d,Ad,9h,Jh --declarer S --contract 6c --lead W --samples 200 --seed 1
      pref contract "contract=6s declarer=E lead=S S=As,7s,9d W=Ks,Ac,Jc E=Qs,Jd,9h played=As,Ks,Qs" --by-information
    """
    if (layout is None) == (hand_text is None):
        fail("give either a LAYOUT or --hand SEAT=CARDS")
    if plot_path and layout is not None:
        fail(PLOT_NEEDS_ODDS)
    scheduler = scheduler_for(scheduler, hand_text is not None,
                              "it goes with --hand (a LAYOUT is analysed here)")
    progress = ProgressLine("splits")
    with command_errors(progress):
        check_by_information_options(by_information, threshold, open_texts, exact_limit)
        if by_information and layout is None:
            raise LayoutError("--by-information judges the cards of a play record: give a LAYOUT with played=",
                              "--by-information")
        check_svg_has_a_layout(svg_path, layout is not None)
        if layout is not None and by_information:
            progress.unit = "layouts"
            result = _by_information_mode(layout, engine, threshold, open_texts, exact_limit, samples, seed,
                                          threads, progress)
        elif layout is not None:
            result = _layout_mode(layout, engine)
        else:
            with on_scheduler(scheduler):
                result = _hand_mode(hand_text, discard_text, contract_text, lead_text, declarer_text, known_text,
                                    samples, seed, threads, plot_path, engine, progress)
        write_pictures(result, svg_path, html_path, notation)
    _emit(result, as_json, notation)
    exit_if_interrupted(result)


def _layout_mode(argument: str, engine: str):
    layout, record = parse_layout_with_record(read_text(argument))
    return analyse_contract_layout(layout, record, make_backend(engine))


def _by_information_mode(argument: str, engine: str, threshold, open_texts, exact_limit, samples, seed, threads,
                         progress):
    layout, record = parse_layout_with_record(read_text(argument))
    if not record:
        raise LayoutError("--by-information judges the cards of a play record: give played= with a whole trick "
                          "or more", "--by-information")
    if engine == "fast":
        check_table_memory(DEFAULT_TT_MB, threads, advice="lower --threads")
    replay = check_play(layout, record, make_backend(engine))
    result = judge_by_information(replay, record, open_hands=parse_open(open_texts, layout.rules),
                                  threshold=threshold, engine=engine,
                                  exact_limit=exact_limit,
                                  samples=samples or SAMPLES, seed=seed, threads=threads, progress=progress)
    progress.close()
    return result


def _hand_mode(hand_text, discard_text, contract_text, lead_text, declarer_text, known_text, samples,
               seed, threads, plot_path, engine, progress):
    rules = PREFERANS_RULES
    if engine == "fast":
        check_table_memory(SPLITS_TT_MB, threads, advice="lower --threads")
    else:
        raise LayoutError("--hand solves thousands of layouts, too many for the reference engine (the "
                          "plain minimax, for single small endings): use --engine fast", "--engine")
    seat, hand = _seat_cards(hand_text, "--hand")
    if lead_text is None:
        raise LayoutError("missing --lead: the seat on lead to the first trick", "--lead")
    lead = rules.seat(lead_text)
    contract = Contract.parse(contract_text, rules) if contract_text else None
    discard = parse_cards(discard_text, rules.deck) if discard_text else []
    result = None
    declarer = rules.seat(declarer_text) if declarer_text is not None else None
    if declarer is None and len(hand) == rules.hand_size and not discard:
        # Ten cards and no discard: the declarer's before the talon, or a whister's. Never guess.
        raise LayoutError(f"missing --declarer: say whose contract it is (--declarer {seat} for "
                          f"{seat}'s own, before the talon; the declarer's seat for {seat}'s view "
                          "as a whister)", "--declarer")
    if declarer is not None and declarer != seat:
        if contract is None:
            raise LayoutError("missing --contract for the whister's view", "--contract")
        if discard:
            raise LayoutError(f"--discard is the declarer's, but --hand is {seat}'s and --declarer "
                              f"{declarer}: leave out --discard (or give the declarer's hand)",
                              "--discard")
        known = parse_cards(known_text, rules.deck) if known_text else []
        result = whister_view(hand, seat, declarer, contract, lead, known, rules, engine,
                              threads, samples, seed, progress)
    elif known_text:
        raise LayoutError("--known is for the whister's view: give --declarer with another seat "
                          "than --hand's", "--known")
    elif len(hand) == rules.hand_size + rules.discard_size:
        if discard:
            raise LayoutError("with twelve cards, leave out --discard: the best one is searched for", "--discard")
        result = rank_discards(list(hand), seat, lead, contract, rules, engine, threads,
                               seed=0 if seed is None else seed, progress=progress)
    elif len(hand) == rules.hand_size and discard:
        if contract is None:
            raise LayoutError("missing --contract, e.g. --contract 6s or --contract misere", "--contract")
        result = declarer_view(hand, seat, discard, contract, lead, rules, engine, threads, samples, seed,
                               progress)
    elif len(hand) == rules.hand_size:
        if contract is None:
            raise LayoutError("missing --contract, e.g. --contract 6s", "--contract")
        if plot_path:  # said before the run, not after it
            raise LayoutError(PLOT_NEEDS_ODDS, "--plot")
        progress.unit = "deals"
        result = before_talon(hand, seat, contract, lead, rules, engine, samples or 200, seed=seed,
                              progress=progress)
    else:
        raise LayoutError(f"--hand has {len(hand)} cards: give 10 (with or without --discard) or 12",
                          "--hand")
    progress.close()
    if plot_path:
        odds = result.exact[0].odds if isinstance(result, DiscardRanking) else result
        if not isinstance(odds, TrickOdds):
            raise LayoutError(PLOT_NEEDS_ODDS, "--plot")
        try:
            plot_histogram(odds, plot_path)
        except OSError as error:
            raise LayoutError(f"cannot write --plot {plot_path!r}: {error.strerror or error}", "--plot") from None
    return result
