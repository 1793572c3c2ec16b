"""Rules of the sources the scorer lacked (issue 16, section 4) and the rough edges of section 3.

Expected values are derived by hand from the rules as copied into pyanalyzer/scoring/README.md
("Rules from the sources"), each derivation in a comment naming its source.
"""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.scoring import (
    Deal,
    Sheet,
    ThousandDeal,
    ThousandSheet,
    convention,
    parse_record,
    replay,
    score_deal,
)
from pyanalyzer.scoring.errors import ScoringError

RECORDS = Path(__file__).resolve().parent.parent / "layouts" / "records"


def contract(text):
    return Contract.parse(text, PREFERANS_RULES)


def run(*args):
    return CliRunner().invoke(main, list(args))


# --- Gentleman's whist splits the penalty too ---------------------------------------------------

LONE = Deal(contract("6s"), "S", {"S": 7, "W": 1, "E": 2}, {"W": "whist", "E": "pass"})


def test_gentleman_whist_splits_the_penalty_between_whister_and_passer():
    """scoring README, sources 000, 002: gentleman's whist, "whists and penalties of the whister and the
    passer are split in half"; the full penalty is price × missing tricks. 6♠ (price 2) made with 7:
    the defence took 3 of the 4 it owed, short by 1 → penalty 2 × 1 = 2, split 1 and 1; whists
    3 tricks × 2 = 6, split 3 and 3."""
    entries = score_deal(LONE, convention("leningrad"))
    assert dict(entries.mountain) == {"W": 1, "E": 1}
    assert dict(entries.whists) == {("W", "S"): 3, ("E", "S"): 3}


def test_greedy_whister_pays_the_whole_penalty():
    """Same deal, greedy whist (Sochi, and lone_penalty=whister at Leningrad): the whister writes the
    whole penalty 2 × 1 = 2 on his own mountain (sources 000, 002: "penalties for the shortfall to
    himself, for himself and for the passer")."""
    assert dict(score_deal(LONE, convention("sochi")).mountain) == {"W": 2}
    assert dict(score_deal(LONE, convention("leningrad", ["lone_penalty=whister"])).mountain) == {"W": 2}


def test_closed_whister_counting_his_own_tricks_pays_alone():
    """lone_whister_credit=own, W whists closed with 1 trick: he owes the 4 alone, short by 3 →
    3 × 2 = 6 on his mountain; the passer E, who writes his own tricks, shares no penalty."""
    closed = Deal(contract("6s"), "S", {"S": 7, "W": 1, "E": 2}, {"W": "whist", "E": "pass"}, closed=True)
    entries = score_deal(closed, convention("leningrad", ["lone_whister_credit=own"]))
    assert dict(entries.mountain) == {"W": 6}
    assert dict(entries.whists) == {("W", "S"): 2, ("E", "S"): 4}


def test_half_responsible_whist_is_for_both_whisting():
    """Both whist on 6♠ (price 2) made with 7: each owes 2; W took 1, short by 1 → responsible 2,
    half-responsible 2 / 2 = 1 (sources 000, 002, "behaviour with both whisting")."""
    both = Deal(contract("6s"), "S", {"S": 7, "W": 1, "E": 2}, {"W": "whist", "E": "whist"})
    assert dict(score_deal(both, convention("sochi")).mountain) == {"W": 2}
    assert dict(score_deal(both, convention("leningrad")).mountain) == {"W": 1}


# --- Four players: the dealer writes the consolation too -----------------------------------------

FOUR = "players W E S N\nE 7h 6 | S whist 3 | N whist 1\n"


def test_dealer_writes_the_consolation_with_four_players():
    """Seeds 000, 002: "the consolation is usually written by all players, including the dealer".
    7♥ (price 4) failed by one: each of S, N and the dealer W writes 4 × 1 = 4 whists of consolation;
    S and N also write their tricks, 4 × 3 = 12 and 4 × 1 = 4."""
    sheet = replay(parse_record(FOUR)).sheet
    assert sheet.whists[("W", "E")] == 4
    assert sheet.whists[("S", "E")] == 12 + 4 and sheet.whists[("N", "E")] == 4 + 4
    without = replay(parse_record(FOUR), overrides=("dealer_consolation=no",)).sheet
    assert without.whists[("W", "E")] == 0 and without.whists[("S", "E")] == 16


# --- Rostov: a fixed starting mountain, games reduce it, the game ends when both are closed ------

def rostov(*settings):
    return convention("rostov", ["pool_target=2", *settings])


def made_six(declarer, others):
    return Deal(contract("6s"), declarer, {declarer: 6, others[0]: 2, others[1]: 2},
                {others[0]: "whist", others[1]: "whist"})


def test_rostov_games_reduce_the_fixed_starting_mountain():
    """Seed 000, Rostov: "for the game played the player gets points in the pool and reduces the
    mountain ... the number of mountain points a player has at first is fixed beforehand". Start 2,
    6♠ (price 2) made exactly, whisters meeting their 2 each: S pool 2, mountain 2 − 2 = 0."""
    sheet = Sheet(["W", "E", "S"], rostov("mountain_start=2"))
    assert sheet.mountain == {"W": 2, "E": 2, "S": 2}
    sheet.play(made_six("S", ["W", "E"]))
    assert sheet.pool["S"] == 2 and sheet.mountain == {"W": 2, "E": 2, "S": 0}
    assert not sheet.closed  # W's and E's pools and mountains are still open


def test_rostov_game_ends_when_pools_and_mountains_are_closed():
    """Seed 000: "the game ends with the closing of the pool and the mountain". Start 2: after each
    player makes a 6♠ (2 points), every pool is 2 and every mountain 2 − 2 = 0 → over. Start 4:
    the pools close but the mountains stay at 4 − 2 = 2 → not over (it would be under Sochi's rule)."""
    closing = Sheet(["W", "E", "S"], rostov("mountain_start=2"))
    opening = Sheet(["W", "E", "S"], rostov("mountain_start=4"))
    for declarer, others in (("S", ["W", "E"]), ("W", ["E", "S"]), ("E", ["W", "S"])):
        closing.play(made_six(declarer, others))
        opening.play(made_six(declarer, others))
    assert closing.closed and closing.mountain == {"W": 0, "E": 0, "S": 0}
    assert not opening.closed and opening.mountain == {"W": 2, "E": 2, "S": 2}
    assert all(opening.pool[seat] == 2 for seat in opening.players)


def test_rostov_mountain_goes_down_to_zero_at_most():
    """A made game with a mountain below its price: the mountain stops at 0 (the choice documented)."""
    sheet = Sheet(["W", "E", "S"], rostov("mountain_start=1"))
    sheet.play(made_six("S", ["W", "E"]))
    assert sheet.mountain["S"] == 0


# --- All-pass amnesty, as usual in source 001 -------------------------------------------------------

def test_allpass_amnesty_is_the_default():
    """Seed 001: "after the game everyone has the same number of tricks taken off, as in an amnesty".
    W 3, E 5, S 2: the fewest (2) off everyone → mountains 1, 3, 0; nobody took no trick, so no pool
    point."""
    sheet = Sheet(["W", "E", "S"], convention("sochi"))
    sheet.play(Deal(contract("allpass"), None, {"W": 3, "E": 5, "S": 2}))
    assert sheet.mountain == {"W": 1, "E": 3, "S": 0} and not any(sheet.pool.values())
    off = Sheet(["W", "E", "S"], convention("sochi", ["allpass_amnesty=no"]))
    off.play(Deal(contract("allpass"), None, {"W": 3, "E": 5, "S": 2}))
    assert off.mountain == {"W": 3, "E": 5, "S": 2}
    # Three players: the amnesty takes the same off every mountain, so the settlement is the same.
    assert sheet.settlement().exact == off.settlement().exact


# --- Thousand: barrel variants, a marriage claimed twice ----------------------------------------

def on_the_barrel_deal(points):
    """E declares 100 and makes it; W, on the barrel, gathers ``points`` (counted exactly)."""
    return ThousandDeal("E", 100, {"W": points, "E": 115 - points, "S": 5}, {"E": (60,)})


def test_failing_on_the_barrel_resets_to_zero():
    """Seed 003: "the player on the barrel has only 3 deals ...; if in 3 deals he does not score 1000
    or more, his points are reset to zero". 880 + 34 + 57 + 22 = 993 < 1000 → 0 (the penalty variant
    gives 990 − 120 = 870)."""
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi", ["barrel_fall=zero"]), {"W": 880})
    for points in (34, 57, 22):
        sheet.play(on_the_barrel_deal(points))
    assert sheet.scores["W"] == 0 and sheet.barrel_seat is None


def barrel_falls_sheet(*settings):
    """W falls three times: one attempt on the barrel (890 → 890 − 120 = 770), then climbs back
    with a bid of 110 made (770 + 110 = 880, on the barrel again)."""
    sheet = ThousandSheet(["W", "E", "S"], convention("sochi", ["barrel_attempts=1", *settings]), {"W": 880})
    climb = ThousandDeal("W", 110, {"W": 110, "E": 10, "S": 0})
    for step in range(3):
        sheet.play(on_the_barrel_deal(10))
        if step < 2:
            assert sheet.scores["W"] == 770
            sheet.play(climb)
            assert sheet.scores["W"] == 880 and sheet.barrel_seat == "W"
    return sheet


def test_three_falls_from_the_barrel_give_zero():
    """Seed 003: "if a player has fallen from the barrel 3 times, his score becomes zero" (or five)."""
    assert barrel_falls_sheet("barrel_falls=3").scores["W"] == 0
    assert barrel_falls_sheet("barrel_falls=3", "barrel_falls_score=5").scores["W"] == 5
    assert barrel_falls_sheet().scores["W"] == 770  # no limit: the third fall is a fall like the others


def test_after_the_falls_he_plays_without_the_barrel():
    """Seed 003: "... and then this player must reach a thousand without the barrel"."""
    sheet = barrel_falls_sheet("barrel_falls=3", "barrel_falls_exempt=yes")
    sheet.scores["W"] = 870
    sheet.play(ThousandDeal("W", 110, {"W": 110, "E": 10, "S": 0}))
    assert sheet.scores["W"] == 980 and sheet.barrel_seat is None


@pytest.mark.parametrize("points, message", [
    ({"W": "95+40+40", "E": "20", "S": "5"}, "the marriage 40 of W is claimed twice"),
    ({"W": "95+100", "E": "20+100", "S": "5"}, "the marriage 100 of E is claimed by W already"),
])
def test_the_same_marriage_twice_in_one_deal_is_refused(points, message):
    """scoring README, sources 003: a marriage is the K and Q of one suit, each card exists once."""
    line = "W 120 | " + " | ".join(f"{seat} {value}" for seat, value in points.items())
    record = parse_record(f"game thousand\nplayers W E S\n{line}\n")
    with pytest.raises(ScoringError, match=f"line 3: {message}"):
        replay(record)


def test_different_marriages_of_one_player_count():
    """♠ 40 + ♥ 100 (scoring README, source 003): 60 card points + 140 reach the bid of 200."""
    record = parse_record("game thousand\nplayers W E S\nW 200 | W 60+40+100 | E 40 | S 20\n")
    assert replay(record).sheet.scores["W"] == 200


# --- Section 3: the score command's rough edges --------------------------------------------------

def test_closed_is_echoed_on_the_whister():
    """`E whist 1 closed` used to be echoed as `S pass 1 closed` when the passer came last."""
    record = parse_record("W 7s 8 | E whist 1 closed | S pass 1\nW 7s 8 | S pass 1 | E whist 1 closed\n"
                          "W 7s 8 | E whist 1 closed | S whist 1\n")
    assert [deal.describe() for deal in record.deals] == [
        "W 7♠ 8, E whist 1 closed, S pass 1", "W 7♠ 8, S pass 1, E whist 1 closed",
        "W 7♠ 8, E whist 1, S whist 1"]  # two whisters always play closed: not echoed on both


def test_exit_level_error_names_the_option_that_relaxes_it():
    result = run("score", str(RECORDS / "sochi-evening.txt"), "--convention", "leningrad")
    assert result.exit_code == 2
    assert "below the exit level 7" in result.output and "--set allpass_exit=6-6-6" in result.output
    relaxed = run("score", str(RECORDS / "sochi-evening.txt"), "--convention", "leningrad",
                  "--set", "allpass_exit=6-6-6")
    assert relaxed.exit_code == 0, relaxed.output


def test_score_json_gives_numbers_and_exact_fractions(tmp_path):
    """JSON numbers, not strings ("8", "92/3"); a value that is not whole also appears exactly under
    "fractions". Leningrad (gentleman's), 6♠ priced 3, lone whister, defence 3 of 4 owed."""
    record = tmp_path / "game.txt"
    record.write_text("convention leningrad\nS 6s 7 | W whist 1 | E pass 2\n", encoding="utf-8")
    data = json.loads(run("score", str(record), "--json", "--set", "prices=6:3,7:4,8:6,9:8,10:10").output)
    # 6♠ at price 3: whists 3 × 3 / 2 = 9/2 each; penalty 3 × 1 / 2 = 3/2 each.
    assert data["whists"]["W>S"] == 4.5 and data["fractions"]["whists"]["W>S"] == "9/2"
    assert data["mountain"]["W"] == 1.5 and data["fractions"]["mountain"]["W"] == "3/2"
    assert data["pool"]["S"] == 3 and type(data["pool"]["S"]) is int
    assert data["deals"][0]["mountain"] == {"W": 1.5, "E": 1.5}
    assert isinstance(data["settlement"]["exact"]["W"], (int, float))
