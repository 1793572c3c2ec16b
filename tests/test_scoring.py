"""Scoring: the worked examples of the sources, exactly, and the Preferans sheet."""

import doctest
import importlib
import pkgutil
from fractions import Fraction

import pytest

import pyanalyzer.scoring
from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.scoring import (
    Deal,
    Sheet,
    ThousandDeal,
    ThousandSheet,
    WhistSheet,
    bid_whist_score,
    convention,
    deal_scores,
    parse_record,
    replay,
    round5,
    score_deal,
    settle,
    whist_points,
    whister_shortfalls,
)
from pyanalyzer.scoring.errors import ConventionError, RecordError, ScoringError

SCORING_MODULES = sorted(
    ["pyanalyzer.scoring",
     *(name for _, name, _ in pkgutil.iter_modules(pyanalyzer.scoring.__path__, "pyanalyzer.scoring."))]
)


@pytest.mark.parametrize("name", SCORING_MODULES)
def test_scoring_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def contract(text):
    return Contract.parse(text, PREFERANS_RULES)


SOCHI = convention("sochi")


# --- Settlement: the source's worked examples ---------------------------------------------------

def test_sochi_settlement_example():
    result = settle({"W": 8, "E": 19, "S": 14}, balances={"W": -26, "E": 24, "S": 2})
    assert result.exact == {"W": Fraction(92, 3), "E": Fraction(-88, 3), "S": Fraction(-4, 3)}
    assert result.method1 == {"W": 31, "E": -30, "S": -1}
    assert result.method1_moves == {"W": 0, "E": 1, "S": 0}  # East's mountain + 1
    assert result.method2 == {"W": 31, "E": -29, "S": -2}
    assert result.method2_moves == {"W": 0, "E": 0, "S": 1}  # South (drawn) + 1
    assert result.amnestied == {"W": 0, "E": 11, "S": 6}


def test_sochi_example_equal_pools_change_nothing():
    with_pools = settle({"W": 8, "E": 19, "S": 14}, pools={"W": 20, "E": 20, "S": 20}, target=20,
                        balances={"W": -26, "E": 24, "S": 2}, pool_correction=2)
    assert with_pools.exact == settle({"W": 8, "E": 19, "S": 14}, balances={"W": -26, "E": 24, "S": 2}).exact


def test_piter_settlement_example():
    result = settle({"1": 76, "2": 40, "3": 52, "4": 80}, pools={"1": 56, "2": 12, "3": 6, "4": 16},
                    target=21, pool_correction=2)
    assert [result.corrected[p] for p in "1234"] == [6, 58, 82, 90]
    assert [result.amnestied[p] for p in "1234"] == [0, 52, 76, 84]
    assert [result.mountain_whists[p] for p in "1234"] == [530, 10, -230, -310]
    assert sum(result.exact.values()) == 0


def test_settlement_from_a_whists_matrix():
    whists = {("W", "E"): 30, ("E", "W"): 4, ("S", "W"): 10, ("S", "E"): 8}
    result = settle({"W": 0, "E": 3, "S": 3}, whists=whists)
    assert result.net_whists == {"W": 16, "E": -34, "S": 18}
    assert sum(result.exact.values()) == 0


def test_settlement_errors():
    with pytest.raises(ScoringError, match="sum to 1"):
        settle({"W": 1, "E": 2, "S": 3}, balances={"W": 1, "E": 0, "S": 0})
    with pytest.raises(ScoringError, match="'X'"):
        settle({"W": 1, "E": 2, "S": 3}, drawn="X")


# --- One deal -> entries ------------------------------------------------------------------------

def test_whist_obligation_example():
    """6♠ made with 7 tricks: the whisters needed 4, 2 each when both whist."""
    assert SOCHI.obligation(6) == 4
    both = whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "whist"}, SOCHI)
    assert both == {"W": 1, "E": 0}
    # The source: a lone whister is charged for the 1 missing trick (4 − 1 = 3 taken by the defence).
    lone = whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "pass"}, SOCHI)
    assert lone == {"W": 1}
    # Counting only his own trick (closed play, lone_whister_credit=own): a lone whister with 1 is short by 3.
    own = convention("sochi", ["lone_whister_credit=own"])
    assert whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "pass"}, own, closed=True) == {"W": 3}


def test_made_contract_entries_sochi():
    deal = Deal(contract("6s"), "S", {"S": 7, "W": 1, "E": 2}, {"W": "whist", "E": "pass"})
    entries = score_deal(deal, SOCHI)
    assert entries.pool["S"] == 2
    assert entries.mountain["W"] == 2  # short by one, responsible whist: full price
    assert dict(entries.whists) == {("W", "S"): 6}  # greedy: all three defence tricks


def test_made_contract_entries_leningrad():
    deal = Deal(contract("6s"), "S", {"S": 7, "W": 1, "E": 2}, {"W": "whist", "E": "pass"})
    entries = score_deal(deal, convention("leningrad"))
    assert entries.mountain["W"] == 1  # half-responsible
    assert dict(entries.whists) == {("W", "S"): 3, ("E", "S"): 3}  # gentleman's whist


def test_remise_with_consolation_and_doubled_mountain():
    deal = Deal(contract("7d"), "S", {"S": 5, "W": 3, "E": 2}, {"W": "whist", "E": "whist"})
    sochi = score_deal(deal, SOCHI)
    assert sochi.mountain["S"] == 8 and not sochi.pool
    assert sochi.whists[("W", "S")] == 4 * 3 + 4 * 2 and sochi.whists[("E", "S")] == 4 * 2 + 4 * 2
    assert score_deal(deal, convention("leningrad")).mountain["S"] == 16
    none = score_deal(deal, convention("sochi", ["consolation=none"]))
    assert none.whists[("W", "S")] == 12


def test_eight_both_whisting_owe_half_a_trick_each():
    deal = Deal(contract("8h"), "E", {"E": 10, "W": 0, "S": 0}, {"W": "whist", "S": "whist"})
    entries = score_deal(deal, SOCHI)
    assert entries.mountain["W"] == 3 and entries.mountain["S"] == 3


def test_misere_made_and_caught():
    assert score_deal(Deal(contract("misere"), "W", {"W": 0}), SOCHI).pool["W"] == 10
    assert score_deal(Deal(contract("misere"), "W", {"W": 2}), SOCHI).mountain["W"] == 20
    assert score_deal(Deal(contract("misere"), "W", {"W": 2}), convention("leningrad")).mountain["W"] == 40


def test_both_pass_and_half_whist():
    entries = score_deal(Deal(contract("7h"), "S", {}, {"W": "pass", "E": "pass"}), SOCHI)
    assert entries.pool["S"] == 4 and not entries.whists
    half = score_deal(Deal(contract("6c"), "S", {}, {"W": "pass", "E": "half"}), SOCHI)
    assert half.pool["S"] == 2 and dict(half.whists) == {("E", "S"): 4}


def test_allpass_progression_and_exit():
    rules = convention("sochi", ["allpass_progression=1-2-4", "allpass_exit=6-7-8", "allpass_amnesty=no"])
    sheet = Sheet(["W", "E", "S"], rules)
    for _ in range(3):
        sheet.play(Deal(contract("allpass"), None, {"W": 0, "E": 4, "S": 6}))
    assert sheet.mountain == {"W": 0, "E": 4 * (1 + 2 + 4), "S": 6 * (1 + 2 + 4)}
    assert sheet.pool["W"] == 1 + 2 + 4
    with pytest.raises(ScoringError, match="below the exit level 8"):
        sheet.play(Deal(contract("7s"), "S", {"S": 7, "W": 2, "E": 1}, {"W": "whist", "E": "pass"}))
    sheet.play(Deal(contract("misere"), "S", {"S": 0}))
    sheet.play(Deal(contract("allpass"), None, {"W": 1, "E": 4, "S": 5}))
    assert sheet.mountain["W"] == 1  # the progression restarted


def test_rostov_allpass_fewest_tricks_writes_whists():
    entries = score_deal(Deal(contract("allpass"), None, {"W": 1, "E": 4, "S": 5}), convention("rostov"))
    assert dict(entries.whists) == {("W", "E"): 30, ("W", "S"): 40}
    assert not entries.mountain and not entries.pool


@pytest.mark.parametrize("deal, message", [
    (Deal(contract("6s"), "S", {"S": 7, "W": 2, "E": 2}, {"W": "whist", "E": "pass"}), "= 11 do not sum to 10"),
    (Deal(contract("misere"), "S", {"S": 1}, {"W": "whist"}), "misère is not whisted"),
    (Deal(contract("6s"), "S", {"S": 7, "W": 2}, {"W": "whist", "E": "pass"}), "tricks of E are missing"),
    (Deal(contract("7s"), "S", {"S": 7, "W": 2, "E": 1}, {"W": "pass", "E": "pass"}), "write no tricks"),
    (Deal(contract("allpass"), None, {"W": 1, "E": 2, "S": 3}), "do not sum to 8 to 10"),
])
def test_impossible_deals(deal, message):
    with pytest.raises(ScoringError, match=message):
        score_deal(deal, SOCHI)


def test_stalingrad_and_unchecked_ten():
    lone = Deal(contract("6s"), "S", {"S": 6, "W": 4, "E": 0}, {"W": "whist", "E": "pass"})
    with pytest.raises(ScoringError, match="Stalingrad"):
        score_deal(lone, convention("sochi", ["stalingrad=yes"]))
    ten = Deal(contract("10n"), "S", {"S": 10, "W": 0, "E": 0}, {"W": "whist", "E": "pass"})
    with pytest.raises(ScoringError, match="ten is not checked"):
        score_deal(ten, convention("sochi", ["ten_checked=no"]))


# --- The sheet and the pool-closing rule --------------------------------------------------------

def test_pool_closing_helps_and_writes_whists():
    sheet = Sheet(["W", "E", "S"], convention("sochi", ["pool_target=10"]))
    sheet.play(Deal(contract("misere"), "S", {"S": 0}))
    sheet.play(Deal(contract("8s"), "S", {}, {"W": "pass", "E": "pass"}))
    # S: 10 + 6 = 16; the excess 6 goes to W (next after S), who writes nothing; S writes 60 on W.
    assert sheet.pool == {"W": 6, "E": 0, "S": 10}
    assert sheet.whists[("S", "W")] == 60
    sheet.play(Deal(contract("10n"), "S", {}, {"W": "pass", "E": "pass"}))
    assert sheet.pool == {"W": 10, "E": 6, "S": 10}
    assert sheet.whists[("S", "W")] == 100 and sheet.whists[("S", "E")] == 60


def test_pool_closing_off_the_mountain_when_all_closed():
    sheet = Sheet(["W", "E", "S"], convention("sochi", ["pool_target=2"]))
    sheet.play(Deal(contract("allpass"), None, {"W": 0, "E": 4, "S": 6}))
    sheet.play(Deal(contract("allpass"), None, {"W": 4, "E": 0, "S": 6}))
    sheet.play(Deal(contract("allpass"), None, {"W": 4, "E": 6, "S": 0}))
    sheet.play(Deal(contract("misere"), "S", {"S": 0}))
    assert sheet.closed
    # S's misère: 10 in a pool of 2 → 1 helps W, 1 helps E, the other 7 come off his mountain of 12.
    assert sheet.mountain["S"] == 6 + 6 - 7
    assert sheet.whists[("S", "W")] == 10 and sheet.whists[("S", "E")] == 10


def test_lowest_help_order():
    sheet = Sheet(["W", "E", "S"], convention("sochi", ["pool_target=10", "help_order=lowest"]))
    sheet.play(Deal(contract("misere"), "W", {"W": 0}))
    sheet.play(Deal(contract("misere"), "S", {"S": 0}))
    sheet.play(Deal(contract("6s"), "S", {}, {"W": "pass", "E": "pass"}))
    assert sheet.whists[("S", "E")] == 20 and sheet.pool["E"] == 2


# --- Conventions --------------------------------------------------------------------------------

def test_presets_and_overrides():
    assert convention("piter").name == "leningrad"
    assert convention("sochi", ["prices=6:4,7:6,8:8,9:10,10:12"]).price(6) == 4
    with pytest.raises(ConventionError, match="unknown convention 'moscow'"):
        convention("moscow")
    with pytest.raises(ConventionError, match="unknown option 'colour'"):
        convention("sochi", ["colour=red"])
    with pytest.raises(ConventionError, match="bad value 'maybe' for option stalingrad"):
        convention("sochi", ["stalingrad=maybe"])
    with pytest.raises(ConventionError, match="bad setting 'stalingrad'"):
        convention("sochi", ["stalingrad"])


# --- Record files -------------------------------------------------------------------------------

def test_record_replay_and_settlement():
    text = """
    convention sochi
    set pool_target=4
    players W E S
    S 6s 7 | W whist 2 | E pass 1
    W misere 0
    E 7d 6 | W whist 3 | S whist 1
    """
    game = replay(parse_record(text))
    sheet = game.sheet
    # W's misère: 10 in a pool of 4 → 4 help E (next after W), 2 help S; W writes 10 whists per point.
    assert sheet.pool == {"W": 4, "E": 4, "S": 4} and sheet.closed
    assert sheet.whists[("W", "E")] == 40 + 4 * 3 + 4 and sheet.whists[("W", "S")] == 6 + 20
    result = sheet.settlement()
    assert sum(result.exact.values()) == 0
    assert sum(result.method1.values()) == 0 == sum(result.method2.values())


@pytest.mark.parametrize("text, message", [
    ("S 6s 7 | W whist 2 | E pass 2", "line 1: the tricks 7 + 2 + 2 = 11 do not sum to 10"),
    ("\nW misere 1 | E whist 5", "line 2: misère is not whisted: remove 'whist'"),
    ("S 6x 7 | W whist 2 | E pass 1", "line 1: bad contract '6x'"),
    ("S 6s seven | W whist 2 | E pass 1", "line 1: bad number of tricks 'seven'"),
    ("S 6s 7 | W maybe 2 | E pass 1", "line 1: write the decision of W: whist, pass or half (got 'maybe')"),
    ("X 6s 7 | W whist 2 | E pass 1", "line 1: unknown player 'X'"),
    ("S 6s 7 | W whist 3", "line 1: 6♠ needs both defenders"),
    ("convention moscow", "line 1: unknown convention 'moscow'"),
    ("set nonsense=1\nS 6s | W pass | E pass", "line 1: unknown option 'nonsense'"),
    ("game chess", "line 1: unknown game 'chess'"),
    ("S 6s | W pass | E pass\nplayers W E S", "line 2: 'players' must come before the first deal"),
])
def test_bad_record_lines(text, message):
    with pytest.raises(PrefInputError) as caught:
        replay(parse_record(text))
    assert str(caught.value).startswith(message)


def test_record_error_is_a_pref_input_error():
    assert issubclass(RecordError, PrefInputError)


# --- Thousand -----------------------------------------------------------------------------------

def test_thousand_worked_examples():
    rules = convention("sochi")
    assert deal_scores(ThousandDeal("W", 140, {"W": 110, "E": 10, "S": 0}, {"W": 60}), rules)["W"] == 140
    assert deal_scores(ThousandDeal("W", 140, {"W": 90, "E": 30, "S": 0}, {"W": 80}), rules)["W"] == 140
    assert round5(67) == 65 and round5(68) == 70
    assert deal_scores(ThousandDeal("W", 100, {"W": 53, "E": 67, "S": 0}, {"W": 60}), rules)["E"] == 65


def test_thousand_barrel_accumulates_exactly():
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi"), {"W": 880})
    sheet.play(ThousandDeal("E", 100, {"W": 34, "E": 80, "S": 6}))
    assert sheet.barrel_points() == 34
    sheet.play(ThousandDeal("E", 100, {"W": 57, "E": 60, "S": 3}, {"E": 40}))
    assert sheet.barrel_points() == 91 and sheet.scores["W"] == 971


def test_thousand_barrel_failing_after_three_attempts():
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi"), {"W": 880})
    for points in (34, 57, 22):
        sheet.play(ThousandDeal("E", 100, {"W": points, "E": 120 - points - 5, "S": 5}, {"E": 60}))
    assert sheet.scores["W"] == 870  # 993 → 990 − 120
    assert sheet.barrel_seat is None


def test_thousand_knocked_off_the_barrel():
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi"), {"W": 880, "E": 800})
    sheet.play(ThousandDeal("E", 120, {"W": 10, "E": 100, "S": 10}, {"E": 40}))
    assert sheet.barrel_seat == "E" and sheet.scores["E"] == 880
    assert sheet.scores["W"] == 890 - 120


def test_thousand_three_bolts():
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi"))
    for _ in range(3):
        sheet.play(ThousandDeal("W", 100, {"W": 100, "E": 20, "S": 0}))
    assert sheet.scores["S"] == -120 and sheet.bolts["S"] == 0


def test_thousand_555_and_writeoff():
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi"), {"W": 455})
    sheet.play(ThousandDeal("W", 100, {"W": 100, "E": 20, "S": 0}))
    assert sheet.scores["W"] == 0
    assert deal_scores(ThousandDeal("W", 130, writeoff=True), convention("sochi"), ["W", "E", "S"]) == {
        "W": -130, "E": 60, "S": 60}
    half = convention("sochi", ["writeoff=half"])
    assert deal_scores(ThousandDeal("W", 130, writeoff=True), half, ["W", "E", "S"])["E"] == 65


def test_thousand_bad_deal():
    with pytest.raises(ScoringError, match="sum to 110, not 120"):
        deal_scores(ThousandDeal("W", 100, {"W": 100, "E": 10, "S": 0}), convention("sochi"))
    with pytest.raises(ScoringError, match="bad marriages 50"):
        deal_scores(ThousandDeal("W", 100, {"W": 100, "E": 20, "S": 0}, {"W": 50}), convention("sochi"))


def test_thousand_record():
    text = "game thousand\nplayers W E S\nW 140 | W 110+60 | E 10 | S 0\nE 120 writeoff\n"
    sheet = replay(parse_record(text)).sheet
    assert sheet.scores == {"W": 140 + 60, "E": 10 - 120, "S": 60}


# --- Whist --------------------------------------------------------------------------------------

def test_whist_worked_examples():
    assert whist_points(7) == 1
    assert bid_whist_score(7, 9) == -4


def test_whist_game_at_five():
    sheet = WhistSheet()
    sheet.play("NS", 9)
    sheet.play("NS", 8)
    assert sheet.scores == {"NS": 5, "EW": 0} and sheet.winner == "NS"
    with pytest.raises(ScoringError, match="game is over"):
        sheet.play("EW", 7)


def test_bid_whist_record():
    sheet = replay(parse_record("game bidwhist\nNS 7 9\nEW 2 9\n")).sheet
    assert sheet.scores == {"NS": -4, "EW": 3}


def test_readme_documents_every_option():
    from pathlib import Path

    from pyanalyzer.scoring import options_table

    readme = (Path(pyanalyzer.scoring.__file__).parent / "README.md").read_text(encoding="utf-8")
    assert options_table() in readme
