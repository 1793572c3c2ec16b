"""``pref thousand``: the exchange ranking, the solve of a layout, the odds; bad input; Ctrl-C."""

from __future__ import annotations

import json
import signal
import sys

import pytest
from click.testing import CliRunner
from test_interrupt import Pref, assert_interrupted_note, splits_done

from pyanalyzer.cli.main import main

# An ending before the exchange: S takes the hearts marriage from the talon. Giving ♠A and ♣9
# away, he wins every trick (♥A first, then the marriage declared): 71 card points + 100.
EXCHANGE_ENDING = "game=thousand declarer=S lead=S talon=Kh,Qh,9c S=As,Ah W=Ts,Tc E=Ac,Ad"
EIGHT = "As,Ts,Ah,Kh,Qh,Ac,Kc,9d"
GAVE = "W:9s,E:Jd"


def pref(*args: str):
    return CliRunner().invoke(main, ["thousand", *args])


def assert_input_error(result, *tokens: str):
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pref: error: "), result.stderr
    for token in tokens:
        assert token in lines[0], (token, lines[0])
    assert result.stdout == ""


def test_exchange_ranking_json():
    result = pref(EXCHANGE_ENDING, "--engine", "reference", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["view"] == "exchange" and len(data["gives"]) == 20
    # Hand-checked: see EXCHANGE_ENDING.
    assert data["best_points"] == 171 and data["highest_bid"] == 170
    assert data["best"]["gave"] in ({"W": "As", "E": "9c"}, {"W": "9c", "E": "As"})
    # Seven cards without a marriage: the bidding rule allowed at most 120 before the talon.
    assert data["bidding_limit"] == 120 and data["highest_bid_allowed"] is False
    points = [give["points"] for give in data["gives"]]
    assert points == sorted(points, reverse=True)


def test_exchange_ranking_text_names_the_bidding_rule():
    result = pref(EXCHANGE_ENDING, "--engine", "reference")
    assert result.exit_code == 0, result.output
    assert "enough for a bid of 170" in result.stdout
    assert "forbids bidding 170 before the talon" in result.stdout


def test_a_layout_after_the_exchange_is_solved_in_points():
    result = pref(EXCHANGE_ENDING + " gave=W:As,E:9c bid=170", "--engine", "reference", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["declarer_points"] == 171 and data["made"] is True
    assert any(move.endswith("+") for move in data["line"])   # the marriage declared


def test_declarer_view_sample_json():
    result = pref("--hand", "S=" + EIGHT, "--gave", GAVE, "--bid", "120", "--samples", "12", "--seed", "3",
                  "--threads", "1", "--tt-mb", "8", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["view"] == "declarer" and data["method"] == "sample" and data["seed"] == 3
    assert data["total"] == data["splits"] == 12
    assert sum(n for _, n in data["distribution"]) == 12
    assert data["gave"] == {"W": "9s", "E": "Jd"}
    low, high = data["p_make_interval"]
    assert low <= data["p_make"] <= high


def test_before_the_talon_json_is_reproducible():
    args = ("--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc", "--samples", "2", "--seed", "4", "--tt-mb", "8", "--json")
    first, again = pref(*args), pref(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["view"] == "before_talon" and data["optimistic"] is True and data["samples"] == 2
    assert data["distribution"] == json.loads(again.stdout)["distribution"]


@pytest.mark.parametrize("args, tokens", [
    (["--hand", "S=" + EIGHT + ",Jh"], ["9 cards"]),
    (["--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc,8d", "--gave", GAVE], ["8d"]),
    (["--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc,7d", "--gave", GAVE], ["7d"]),
    (["--hand", "S=" + EIGHT, "--gave", GAVE, "--bid", "123"], ["123"]),
    (["--hand", "S=" + EIGHT, "--gave", GAVE, "--bid", "90"], ["90"]),
    (["--hand", "S=" + EIGHT, "--gave", "S:9s,E:Jd"], ["S:9s", "declarer"]),
    (["--hand", "S=" + EIGHT, "--gave", "W:9s"], ["W:9s"]),
    (["--hand", "S=" + EIGHT, "--gave", "W:9s,E:9d"], ["9d"]),
    (["--hand", "S=" + EIGHT], ["--gave"]),
    (["--hand", "S=" + EIGHT + ",Jh,9h"], ["--bid"]),
    (["--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc", "--gave", GAVE], ["--gave"]),
    (["--hand", "S=" + EIGHT, "--gave", GAVE, "--engine", "reference"], ["--engine"]),
    (["--hand", "X=" + EIGHT, "--gave", GAVE], ["X"]),
    ([EXCHANGE_ENDING, "--gave", GAVE], ["--gave"]),
    ([EXCHANGE_ENDING, "--bid", "120"], ["--bid", "bid=120"]),
    (["contract=6s declarer=S lead=S S=As W=Ks E=Qs"], ["game=thousand"]),
    ([], ["LAYOUT", "--hand"]),
])
def test_bad_input_is_one_line_naming_the_token(args, tokens):
    assert_input_error(pref(*args), *tokens)


# -- Ctrl-C ------------------------------------------------------------------------------

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@posix_only
def test_an_interrupted_declarer_view_reports_proven_bounds(tmp_path):
    run = Pref(["thousand", "--hand", "S=" + EIGHT, "--gave", GAVE, "--bid", "120", "--threads", "1",
                "--json"], tmp_path)
    run.wait_for(lambda line: 0 < splits_done(line), "a finished block of splits")
    status, out, errors = run.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True and data["exact"] is False
    assert 0 < data["splits"] < data["total"] == 3432
    assert data["p_make"] is None
    low, high = data["p_make_bounds"]
    assert high - low == pytest.approx((data["total"] - data["splits"]) / data["total"])


@posix_only
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_talon_estimate_is_a_smaller_sample(tmp_path, signum):
    run = Pref(["thousand", "--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc", "--samples", "100000", "--seed", "1",
                "--json"], tmp_path)
    run.wait_for(lambda line: 0 < splits_done(line), "a finished sample")
    status, out, errors = run.interrupt(signum)
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True
    assert 0 < data["samples"] < data["samples_asked"] == 100000
    assert sum(n for _, n in data["distribution"]) == data["samples"]


@posix_only
@pytest.mark.slow   # (a whole give enumerated first: half a minute on a busy machine)
def test_an_interrupted_give_away_ranking_keeps_the_gives_decided(tmp_path):
    # A weak hand (no marriage): no give makes 120 in every split, so the second give is
    # enumerated, and the values are small (quick searches).
    run = Pref(["thousand", "--hand", "S=As,Ts,Qs,Ac,Kc,9c,Jd,9d,Ah,Kh", "--bid", "120", "--json"], tmp_path)
    run.wait_for(lambda line: "give 2 of 90" in line, "the first give enumerated")
    status, out, errors = run.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True
    assert 1 <= data["decided"] < data["gives"] == 90
    assert data["best"] is not None and data["best"]["complete"] is True
    cut_short = [row for row in data["ranked"] if row["interrupted"]]
    assert len(cut_short) <= 1
