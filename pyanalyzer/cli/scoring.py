"""The ``pref score`` and ``pref settle`` commands (registered on the main ``pref`` group).

Bad input gives one line ``pref: error: <message>`` on standard error and exit status 2.

>>> parse_seat_values("W=8,E=19,S=14", "--mountains")
{'W': Fraction(8, 1), 'E': Fraction(19, 1), 'S': Fraction(14, 1)}
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import NoReturn

import click

from pyanalyzer.cli.terminal import echo_text
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.errors import PrefInputError
from pyanalyzer.scoring.conventions import convention, options_table
from pyanalyzer.scoring.errors import RecordError, ScoringError
from pyanalyzer.scoring.inputs import parse_number, read_text
from pyanalyzer.scoring.preferans import sheet_numbers
from pyanalyzer.scoring.record import read_record, replay
from pyanalyzer.scoring.render import deal_log, preferans_sheet, settlement_text, thousand_sheet, whist_sheet
from pyanalyzer.scoring.settlement import settle
from pyanalyzer.thousand.review import check_bid

INPUT_ERROR = 2


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    click.echo(f"pref: error: {message}", err=True)
    sys.exit(INPUT_ERROR)


def parse_seat_values(text: str, option: str) -> dict:
    """Read ``W=8,E=19,S=14`` (numbers may be negative or fractions) for ``option``."""
    values: dict = {}
    for part in text.replace(" ", "").split(","):
        seat, sep, value = part.partition("=")
        if not sep or not seat:
            raise ScoringError(f"bad {option} entry {part!r}: write SEAT=NUMBER, e.g. W=8,E=19,S=14", part)
        number = parse_number(value, f"{seat} in {option}")
        if seat in values:
            raise ScoringError(f"{seat} is written twice in {option}", seat)
        values[seat] = number
    return values


def read_whists_matrix(path: str) -> dict:
    """Read a whists file: lines ``W: E=10 S=4`` (W wrote 10 whists on E and 4 on S); ``#`` comments."""
    lines = read_text(path, "whists file").splitlines()
    whists: dict = {}
    for number, raw in enumerate(lines, start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        writer, sep, rest = body.partition(":")
        if not sep or not writer.strip():
            raise RecordError(f"bad whists line {body!r}: write e.g. 'W: E=10 S=4'", body, number)
        try:
            values = parse_seat_values(",".join(rest.split()), "the whists file")
        except ScoringError as error:
            raise RecordError(str(error), error.token, number) from None
        for on, value in values.items():
            key = (writer.strip(), on)
            if key in whists:
                raise RecordError(f"the whists of {key[0]} on {on} are written twice", on, number)
            whists[key] = value
    return whists


def _settlement_json(result, rules) -> dict:
    data = result.to_dict()
    data["pool_correction"] = rules.pool_correction
    return data


def _print_options(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        echo_text(options_table())
        ctx.exit()


def _bid_checks(game) -> list:
    """Each Thousand deal that carries its cards (a ``deal`` line), checked double dummy."""
    written = [(deal, scores) for deal, scores in zip(game.record.deals, game.deal_scores)
               if deal.deal is not None]
    if not written:
        return []
    backend = make_backend("fast")
    return [check_bid(deal.deal, deal.play, deal.line, scores[deal.declarer] < 0, backend)
            for deal, scores in written]


@click.command("score")
@click.argument("record", metavar="RECORD")
@click.option("--convention", "convention_name", metavar="NAME",
              help="sochi, leningrad (piter) or rostov; overrides the record's 'convention' line.")
@click.option("--set", "settings", multiple=True, metavar="OPTION=VALUE",
              help="Override one option (repeatable); see --options.")
@click.option("--drawn", metavar="SEAT", help="The drawn player of settlement method 2 (default: the record's "
              "'drawn' line, else the last player).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--options", is_flag=True, is_eager=True, expose_value=False, callback=_print_options,
              help="Print every option with each convention's value, and exit.")
def score_command(record: str, convention_name: str | None, settings: tuple, drawn: str | None,
                  as_json: bool) -> None:
    """Replay the game RECORD file into its sheet and settle it.

    \b
    Examples:
      pref score layouts/records/sochi-evening.txt
      pref score game.txt --convention leningrad --set allpass_progression=1-2-4
      pref score game.txt --json
    """
    try:
        game = replay(read_record(record), convention_name, settings)
        settlement = None
        if game.record.game == "preferans":
            chosen = drawn if drawn is not None else game.record.drawn
            if chosen is not None:
                chosen = chosen.strip().upper()
            settlement = game.sheet.settlement(drawn=chosen)
        checks = _bid_checks(game) if game.record.game == "thousand" else []
    except PrefInputError as error:
        fail(str(error))
    sheet, rules = game.sheet, game.rules
    if as_json:
        data: dict = {"game": game.record.game, "convention": rules.name, "options": rules.to_dict()}
        if game.record.game == "preferans":
            data.update({
                "players": sheet.players,
                "deals": [{"line": row.deal.line, "deal": row.deal.describe(), **row.entries.to_dict()}
                          for row in sheet.rows],
                **sheet_numbers(sheet.pool, sheet.mountain, sheet.whists),
                "closed": sheet.closed,
                "settlement": _settlement_json(settlement, rules),
            })
        elif game.record.game == "thousand":
            data.update({"players": sheet.players, "scores": sheet.scores, "history": sheet.history,
                         "bolts": sheet.bolts, "barrel": sheet.barrel_seat, "notes": sheet.notes,
                         "winner": sheet.winner, "bid_checks": [check.to_dict() for check in checks]})
        else:
            data.update({"scores": sheet.scores, "history": sheet.history, "winner": sheet.winner})
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    if game.record.game == "preferans":
        if rules.close_mountain:
            state = "game over: pools and mountains closed" if sheet.closed else "pools and mountains not all closed"
        else:
            state = "all pools closed" if sheet.closed else "pools not all closed"
        echo_text(f"Preferans, {rules.name} convention, pool to {rules.pool_target}, "
                   f"{len(sheet.players)} players, {len(sheet.rows)} deals ({state})")
        echo_text("")
        if sheet.rows:
            echo_text(deal_log(sheet.rows))
            echo_text("")
        echo_text(preferans_sheet(sheet))
        echo_text("")
        echo_text(f"Settlement (1 mountain point = 10 whists; pool correction ×{rules.pool_correction})")
        echo_text(settlement_text(settlement, rules.pool_correction))
    elif game.record.game == "thousand":
        echo_text(f"Thousand to {rules.thousand_target}, {len(game.record.deals)} deals")
        echo_text(thousand_sheet(sheet))
        failed = [check for check in checks if check.failed]
        if failed:
            echo_text("")
            echo_text("Failed bids, against the cards written down (double dummy):")
            for check in failed:
                echo_text("  " + check.describe())
    else:
        name = "Bid Whist" if game.record.game == "bidwhist" else "Whist"
        echo_text(f"{name} to {rules.whist_game}, {len(game.record.deals)} deals")
        echo_text(whist_sheet(sheet))


@click.command("settle")
@click.option("--mountains", required=True, metavar="W=8,E=19,S=14", help="Each player's mountain.")
@click.option("--pools", metavar="W=20,E=20,S=20", help="Each player's pool (for the pool correction).")
@click.option("--target", type=str, metavar="N", help="The pool size (default: the convention's pool_target).")
@click.option("--whists-balance", metavar="W=-26,E=24,S=2", help="Each player's net whists (summing to 0).")
@click.option("--whists-matrix", metavar="FILE", help="Whists written, one line per writer: 'W: E=10 S=4'.")
@click.option("--convention", "convention_name", default="sochi", show_default=True, metavar="NAME",
              help="sochi, leningrad (piter: pool correction ×2) or rostov.")
@click.option("--set", "settings", multiple=True, metavar="OPTION=VALUE",
              help="Override an option, e.g. pool_correction=2 or whist_money=100.")
@click.option("--drawn", metavar="SEAT", help="Method 2's drawn player (default: the last one in --mountains).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: exact, method1, method2, ...")
def settle_command(mountains: str, pools: str | None, target: str | None, whists_balance: str | None,
                   whists_matrix: str | None, convention_name: str, settings: tuple, drawn: str | None,
                   as_json: bool) -> None:
    """Settle a finished sheet given directly: mountains, pools, whists.

    \b
    Examples:
      pref settle --mountains W=8,E=19,S=14 --whists-balance W=-26,E=24,S=2
      pref settle --convention piter --target 21 --mountains 1=76,2=40,3=52,4=80 --pools 1=56,2=12,3=6,4=16
    """
    try:
        rules = convention(convention_name, settings)
        mountain = parse_seat_values(mountains, "--mountains")
        pool = parse_seat_values(pools, "--pools") if pools else None
        if whists_balance and whists_matrix:
            raise ScoringError("give --whists-balance or --whists-matrix, not both")
        balances = parse_seat_values(whists_balance, "--whists-balance") if whists_balance else None
        matrix = read_whists_matrix(whists_matrix) if whists_matrix else None
        if target is not None:
            goal = parse_number(target, "--target")
        else:
            goal = Fraction(rules.pool_target)
        result = settle(mountain, pools=pool, target=goal, whists=matrix, balances=balances,
                        pool_correction=rules.pool_correction, drawn=drawn, whist_money=rules.whist_money)
    except PrefInputError as error:
        fail(str(error))
    if as_json:
        click.echo(json.dumps(_settlement_json(result, rules), ensure_ascii=False))
        return
    echo_text(f"Settlement, {rules.name} convention (1 mountain point = 10 whists"
               + (f"; pool correction ×{rules.pool_correction} to {goal}" if pool else "") + ")")
    echo_text(settlement_text(result, rules.pool_correction if pool else None))
