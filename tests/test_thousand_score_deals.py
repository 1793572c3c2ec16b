"""``pref score`` with Thousand deals written down: a ``deal`` line after a deal's line gives its
cards, and the sheet says for each failed bid whether it was makeable (double dummy).

Expected points: the small ending is counted by hand (tests/test_thousand_review.py explains the
count: 113 with best play, 13 after the declarer's ♥Q); full deals are solved afresh with
``solve`` as a layout of their own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.analysis.solve import solve
from pyanalyzer.cli.main import main
from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.scoring.errors import RecordError
from pyanalyzer.scoring.record import parse_record

RECORDS = Path(__file__).resolve().parent.parent / "layouts" / "records"
ENDING_HANDS = "won=S S=Kh,Qh,As W=9h,Ah,9s E=Th,Js,Ts"
ENDING_RECORD = "Qh,9h,Th,Js,As,9s,Kh,Ah,Ts"


def run(*args):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, text: str) -> str:
    path = tmp_path / "record.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_failed_bid_that_was_makeable_and_the_move_that_lost_it(tmp_path):
    # South's 13 card points here are all he took; the other 107 fell to the defenders earlier.
    record = write(tmp_path, "game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\n"
                             f"deal {ENDING_HANDS} played={ENDING_RECORD}\n")
    result = run("score", record)
    assert result.exit_code == 0, result.output
    assert "Failed bids, against the cards written down (double dummy):" in result.output
    assert "line 3: S bid 100 and failed: makeable, best play gives 113; moves that changed it: " \
           "trick 6 S ♥Q (-100)" in result.output
    data = json.loads(run("score", record, "--json").output)
    check, = data["bid_checks"]
    assert (check["line"], check["failed"], check["best_points"], check["makeable"]) == (3, True, 113, True)
    assert check["review"]["mistakes"][0]["move"] == "Qh"


def test_made_bids_are_checked_in_json_only(tmp_path):
    record = write(tmp_path, f"game thousand\nplayers S W E\nS 100 | S 13+100 | W 0 | E 107\ndeal {ENDING_HANDS}\n")
    result = run("score", record)
    assert result.exit_code == 0 and "Failed bids" not in result.output
    check, = json.loads(run("score", record, "--json").output)["bid_checks"]
    assert (check["failed"], check["best_points"], check["review"]) == (False, 113, None)


def test_the_example_record_against_fresh_solves():
    result = run("score", str(RECORDS / "thousand-cards.txt"), "--json")
    assert result.exit_code == 0, result.output
    checks = json.loads(result.output)["bid_checks"]
    record = parse_record((RECORDS / "thousand-cards.txt").read_text(encoding="utf-8"))
    written = [deal for deal in record.deals if deal.deal is not None]
    assert [c["line"] for c in checks] == [deal.line for deal in written] and len(checks) == 2
    given = written[0].deal
    assert checks[0]["best_points"] == solve(given, cards=False, line=False).total
    assert checks[0]["makeable"] and checks[0]["failed"]
    # Before the exchange: the best give-away, solved as a layout with that gave=.
    best = checks[1]["best_gave"]
    text = (RECORDS / "thousand-cards.txt").read_text(encoding="utf-8").splitlines()
    deal_text = next(line for line in text if line.startswith("deal W="))[5:]
    layout = parse_layout(f"game=thousand bid=110 declarer=W lead=W {deal_text} "
                          f"gave={','.join(f'{s}:{c}' for s, c in best.items())}")
    assert checks[1]["best_points"] == solve(layout, cards=False, line=False).total
    assert not checks[1]["makeable"] and checks[1]["failed"]


@pytest.mark.parametrize("text, words", [
    ("game thousand\nplayers S W E\ndeal S=As W=Ah E=Ac\n", ["line 3", "follows the line of its deal"]),
    ("players W E S\nS 6s 7 | W whist 2 | E pass 1\ndeal S=As W=Ah E=Ac\n", ["line 3", "Thousand record"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal\n", ["line 4", "write the deal"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal bid=120 " + ENDING_HANDS + "\n",
     ["line 4", "bid=120 disagrees"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal " + ENDING_HANDS + "\ndeal "
     + ENDING_HANDS + "\n", ["line 5", "one per deal"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal won=S S=Kh,Qh,7s W=9h,Ah,9s E=Th,Js,Ts\n",
     ["line 4", "'7s'"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal " + ENDING_HANDS + " played=Qh,9s,Th\n",
     ["line 4", "9s"]),
    ("game thousand\nplayers Ann Bob Cid\nAnn 100 | Ann 13 | Bob 60 | Cid 47\ndeal " + ENDING_HANDS + "\n",
     ["line 4", "'Ann'"]),
    ("game thousand\nplayers S W E\nS 100 | S 13 | W 60 | E 47\ndeal game=preferans " + ENDING_HANDS + "\n",
     ["line 4", "game=preferans"]),
])
def test_bad_deal_lines_are_named(tmp_path, text, words):
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    for word in words:
        assert word in str(caught.value)
    result = run("score", write(tmp_path, text))
    assert result.exit_code == 2 and result.output.startswith("pref: error: line ")
    assert "Traceback" not in result.output
