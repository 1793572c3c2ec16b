"""``pref thousand``: Thousand's exchange with open cards, a layout solved in points, and the odds."""

from __future__ import annotations

import json

import click

from pyanalyzer.analysis.by_information import SAMPLES as BY_INFORMATION_SAMPLES
from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.by_information import by_information_options, check_by_information_options, parse_open
from pyanalyzer.cli.options import marriage_options, tt_mb_option, with_marriage_options
from pyanalyzer.cli.pictures import check_svg_has_a_layout, picture_options, write_pictures
from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.scheduler import SCHEDULER_OPTION, on_scheduler, scheduler_for
from pyanalyzer.cli.support import (
    ENGINE_OPTION,
    NOTATION_OPTION,
    SAMPLES_TYPE,
    SEED_TYPE,
    THREADS_TYPE,
    command_errors,
    exit_if_interrupted,
)
from pyanalyzer.cli.terminal import echo_answer, echo_text
from pyanalyzer.cli.thousand_review import has_play_record, review_command_text, review_result
from pyanalyzer.engines.registry import DEFAULT_TT_MB, check_table_memory
from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.cards import Card
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_io import read_layout
from pyanalyzer.model.notation import parse_card, parse_cards
from pyanalyzer.model.rules import THOUSAND_RULES, MarriageRules, Rules, with_marriage_rules
from pyanalyzer.render.diagram import diagram
from pyanalyzer.thousand.exchange import engine_list, rank_exchange
from pyanalyzer.thousand.odds import before_talon, declarer_view, rank_gives_by_odds

#: Samples before the talon when --samples is not given.
DEFAULT_TALON_SAMPLES = 100


def _rules(ace_marriage: bool, declare_first_lead: bool) -> Rules:
    marriages = MarriageRules(ace_marriage=200 if ace_marriage else 0, on_first_lead=declare_first_lead)
    return with_marriage_rules(THOUSAND_RULES, marriages)


def _hand(text: str, rules: Rules) -> tuple[str, list[Card]]:
    seat, sep, cards = text.partition("=")
    if not sep:
        raise LayoutError(f"--hand takes SEAT=CARDS, e.g. S=As,Ts,Kh,... (got {shorten(text)!r})", text)
    return rules.seat(seat.strip()), parse_cards(cards, rules.deck)


def _gave(text: str, rules: Rules, declarer: str) -> dict[str, Card]:
    gave: dict[str, Card] = {}
    for token in (t for t in text.replace(" ", ",").split(",") if t):
        seat, sep, card = token.partition(":")
        if not sep:
            raise LayoutError(f"--gave takes SEAT:CARD pairs, e.g. W:Js,E:9h (got {shorten(token)!r})", token)
        seat = rules.seat(seat.strip())
        if seat == declarer:
            raise LayoutError(f"--gave {shorten(token)!r}: the declarer ({declarer}) gives a card to each "
                              "opponent, not to himself", token)
        if seat in gave:
            raise LayoutError(f"--gave names {seat} twice (in {shorten(token)!r})", token)
        gave[seat] = parse_card(card.strip(), rules.deck)
    opponents = [s for s in rules.seats if s != declarer]
    if sorted(gave) != sorted(opponents):
        raise LayoutError(f"--gave names the card given to each opponent: {opponents[0]}:<card>,"
                          f"{opponents[1]}:<card> (got {shorten(text)!r})", text)
    return gave


@click.command("thousand")
@click.argument("layout", required=False)
@click.option("--hand", "hand_text", metavar="SEAT=CARDS",
              help="Only the declarer's cards are known: 8 (with --gave), 10 (with --bid) or 7 (before the talon).")
@click.option("--gave", "gave_text", metavar="W:CARD,E:CARD", help="The card the declarer gave each opponent.")
@click.option("--bid", type=click.IntRange(0, 9999), help="The bid (100, 105, ...): P(make) and the best give-away.")
@click.option("--samples", type=SAMPLES_TYPE,
              help=f"Random deals (before the talon: default {DEFAULT_TALON_SAMPLES}; with --gave: sample "
                   "instead of all splits).")
@click.option("--seed", type=SEED_TYPE, help="Seed for the random deals (reproducible runs).")
@click.option("--threads", type=THREADS_TYPE, default=2, show_default=True, help="Solver threads.")
@tt_mb_option(default=DEFAULT_TT_MB)
@marriage_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@by_information_options
@ENGINE_OPTION
@NOTATION_OPTION
@picture_options
@SCHEDULER_OPTION
def thousand_command(layout, hand_text, gave_text, bid, samples, seed, threads, tt_mb, ace_marriage,
                     declare_first_lead, as_json, by_information, threshold, open_texts, exact_limit, engine,
                     notation, svg_path, html_path, scheduler) -> None:
    """Thousand: the exchange with open cards, a layout in points, and the declarer's odds.

    \b
    With a LAYOUT (file or one-line form, game=thousand):
      7-card hands and talon=   every way to give one card to each opponent (90),
                                ranked by the declarer's points with open cards;
                                the highest bid he makes, and the bidding rule
      8-card hands (or gave=)   the layout solved: points, every card, the line
      with played= (whole tricks)
                                replay the record: was the bid makeable, was it
                                made, every move that changed the result;
                                --by-information: each move judged by what its
                                player knew (error / unlucky; --threshold,
                                --open, --exact-limit, --samples, --seed)
    \b
    With --hand (the other hands unknown):
      --hand S=8 cards --gave W:Js,E:9h [--bid 120]
                                his points over all 3,432 ways the other cards
                                lie: distribution, P(make) per bid, expectation
      --hand S=10 cards --bid 120
                                every give-away (90) by P(make) over all splits
      --hand S=7 cards [--bid 120] [--samples 200 --seed 1]
                                before the talon: Monte Carlo, the exchange made
                                with open cards in each sample (optimistic)
    \b
    Examples:
      pref thousand "game=thousand declarer=S lead=S talon=Kh,Qh,9c S=As,Ah W=Ts,Tc E=Ac,Ad"
      pref thousand --hand S=As,Ts,Ah,Kh,Qh,Ac,Kc,9d --gave W:9s,E:Jd --bid 120 --samples 200 --seed 1
      pref thousand --hand S=As,Ts,Ah,Kh,Qh,Ac,Kc --bid 120 --samples 20 --seed 1
      pref thousand layouts/thousand-deal.txt --html deal.html --svg deal.svg
    """
    progress = ProgressLine("splits")
    with command_errors(progress):
        if (layout is None) == (hand_text is None):
            raise LayoutError("give either a LAYOUT or --hand SEAT=CARDS", "--hand")
        scheduler = scheduler_for(scheduler, hand_text is not None or (layout is not None and not by_information),
                                  LOCAL_LAYOUT)
        if engine == "fast":
            check_table_memory(tt_mb, threads)
        check_svg_has_a_layout(svg_path, layout is not None)
        check_by_information_options(by_information, threshold, open_texts, exact_limit)
        if layout is not None and by_information:
            if not has_play_record(layout):
                raise LayoutError("--by-information judges the moves of a play record: give played= with a "
                                  "whole trick or more", "--by-information")
            options = {"open_hands": parse_open(open_texts, THOUSAND_RULES), "threshold": threshold,
                       "exact_limit": exact_limit,
                       "samples": samples or BY_INFORMATION_SAMPLES, "seed": seed, "threads": threads,
                       "progress": progress}
            progress.unit = "layouts"
            result = review_result(layout, engine, lambda deal: with_marriage_options(
                deal, ace_marriage, declare_first_lead), options)
            progress.close()
            write_pictures(result, svg_path, html_path, notation)
            _answer(result, as_json, notation)
            return
        elif by_information:
            raise LayoutError("--by-information judges the moves of a play record: give a LAYOUT with played=",
                              "--by-information")
        elif layout is not None:
            for option, value in (("--gave", gave_text), ("--samples", samples), ("--seed", seed)):
                if value is not None:
                    raise LayoutError(f"{option} goes with --hand; a LAYOUT says it all (gave= in the layout)",
                                      option)
            if bid is not None:
                raise LayoutError("--bid goes with --hand; write the bid in the layout (bid=120)", "--bid")
            _layout_mode(layout, ace_marriage, declare_first_lead, engine, threads, tt_mb, as_json, notation,
                         svg_path, html_path, scheduler)
            return
        if engine != "fast":
            raise LayoutError("--hand solves thousands of layouts, too many for the reference engine (the plain "
                              "minimax, for single small endings): use --engine fast", "--engine")
        with on_scheduler(scheduler):
            result = _hand_mode(_rules(ace_marriage, declare_first_lead), hand_text, gave_text, bid, samples,
                                seed, threads, tt_mb, progress)
        progress.close()
        write_pictures(result, None, html_path, notation)
    _answer(result, as_json, notation)


#: Where ``--scheduler`` applies to ``pref thousand`` (a layout after the exchange or with its play is
#: analysed here).
LOCAL_LAYOUT = "it goes with --hand or a layout before the exchange (this one is analysed here)"


def _answer(result, as_json: bool, notation: str) -> None:
    """Print a ranking's, view's or review's answer (JSON or text); exit 130 when it was cut short."""
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        echo_text(result.format(notation))
    exit_if_interrupted(result)


def _layout_mode(text, ace_marriage, declare_first_lead, engine, threads, tt_mb, as_json, notation,
                 svg_path, html_path, scheduler) -> None:
    if has_play_record(text):  # a deal with its play: was the bid makeable, who changed the result
        scheduler_for(scheduler, False, LOCAL_LAYOUT)
        if svg_path or html_path:
            raise LayoutError(f"{'--svg' if svg_path else '--html'} draws an open layout or an exchange, "
                              "not a play record", "--svg" if svg_path else "--html")
        review = review_command_text(text, as_json, notation, engine, rules_change=lambda layout:
                                     with_marriage_options(layout, ace_marriage, declare_first_lead))
        if as_json:
            click.echo(review)
        else:
            echo_text(review)
        return
    layout = with_marriage_options(read_layout(text), ace_marriage, declare_first_lead)
    if not layout.rules.counts_points:
        raise LayoutError(f"pref thousand takes a Thousand layout (game=thousand), not a {layout.rules.game} one; "
                          "use pref solve", "game")
    backends = engine_list(engine, threads, tt_mb)
    scheduler = scheduler_for(scheduler, layout.exchange_pending, LOCAL_LAYOUT)
    if layout.exchange_pending:   # 90 deals: on the cluster with --scheduler
        with on_scheduler(scheduler):
            result = rank_exchange(layout, backends, tt_mb=tt_mb)
        write_pictures(result, svg_path, html_path, notation, layout=layout)
        if as_json:
            click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        else:
            echo_text(result.format(notation))
        return
    result = solve(layout, backends[0], cards=True, line=True)
    write_pictures(result, svg_path, html_path, notation)
    echo_answer(result, as_json, diagram(result.layout, notation), result.format(notation))


def _hand_mode(rules, hand_text, gave_text, bid, samples, seed, threads, tt_mb, progress):
    declarer, cards = _hand(hand_text, rules)
    rules.check_bid(bid, "--bid")
    kept_size = rules.hand_size
    if len(cards) == kept_size:
        if gave_text is None:
            raise LayoutError(f"with {kept_size} cards (after the exchange) say what was given: --gave "
                              "W:<card>,E:<card>", "--gave")
        gave = _gave(gave_text, rules, declarer)
        Hand(cards + list(gave.values()), rules.deck)  # a card both kept and given: named
        return declarer_view(cards, gave, rules, declarer, bid, engine="fast", threads=threads, tt_mb=tt_mb,
                             samples=samples, seed=seed, progress=progress)
    if gave_text is not None:
        raise LayoutError(f"--gave goes with the {kept_size} cards kept after the exchange, not {len(cards)}",
                          "--gave")
    if len(cards) == kept_size + rules.discard_size:
        if bid is None:
            raise LayoutError("with ten cards (hand and talon) give the bid: --bid 120; the best give-away "
                              "is the one most likely to make it", "--bid")
        if samples is not None:
            raise LayoutError("--samples is for the declarer's view or before the talon; the give-aways "
                              "are ranked over all splits", "--samples")
        progress.unit = "gives"
        return rank_gives_by_odds(cards, bid, rules, declarer, threads=threads, tt_mb=tt_mb,
                                  seed=0 if seed is None else seed, progress=progress)
    if len(cards) == kept_size - 1:
        progress.unit = "deals"
        return before_talon(cards, rules, declarer, bid, samples or DEFAULT_TALON_SAMPLES, seed,
                            threads=threads, tt_mb=tt_mb, progress=progress)
    raise LayoutError(f"--hand {shorten(hand_text)!r} has {len(cards)} cards: give 7 (before the talon), "
                      f"{kept_size} (after the exchange, with --gave) or {kept_size + rules.discard_size} "
                      "(with the talon, and --bid)", hand_text)
