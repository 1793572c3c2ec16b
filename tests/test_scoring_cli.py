"""The ``score`` and ``settle`` commands, called through the ``pref`` command group."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main

RECORDS = Path(__file__).resolve().parent.parent / "layouts" / "records"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_settle_sochi_example_json():
    result = run("settle", "--mountains", "W=8,E=19,S=14", "--whists-balance", "W=-26,E=24,S=2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # The source's worked example: exact +92/3, -88/3, -4/3 (scoring README, settlement example); JSON numbers
    # rounded to six decimals, the exact fractions beside them under "fractions".
    assert data["exact"] == {"W": 30.666667, "E": -29.333333, "S": -1.333333}
    assert data["fractions"]["exact"] == {"W": "92/3", "E": "-88/3", "S": "-4/3"}
    assert data["mountains"] == {"W": 8, "E": 19, "S": 14}
    assert all(type(v) is int for v in data["net_whists"].values())
    assert data["method1"] == {"W": 31, "E": -30, "S": -1}
    assert data["method2"] == {"W": 31, "E": -29, "S": -2}


def test_settle_piter_example_text():
    result = run("settle", "--convention", "piter", "--target", "21", "--mountains", "1=76,2=40,3=52,4=80",
                 "--pools", "1=56,2=12,3=6,4=16")
    assert result.exit_code == 0, result.output
    assert "+530" in result.output and "-310" in result.output
    data = json.loads(run("settle", "--set", "pool_correction=2", "--target", "21", "--mountains",
                          "1=76,2=40,3=52,4=80", "--pools", "1=56,2=12,3=6,4=16", "--json").output)
    assert data["amnestied"] == {"1": 0, "2": 52, "3": 76, "4": 84}
    assert data["mountain_whists"] == {"1": 530, "2": 10, "3": -230, "4": -310}


def test_settle_whists_matrix_and_money(tmp_path):
    matrix = tmp_path / "whists.txt"
    matrix.write_text("# writer: on=whists\nW: E=10 S=4\nE: W=30\n", encoding="utf-8")
    result = run("settle", "--mountains", "W=0,E=3,S=3", "--whists-matrix", str(matrix),
                 "--set", "whist_money=1/2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["net_whists"] == {"W": -16, "E": 20, "S": -4}
    assert sum(data["method2"].values()) == 0 and "money" in data


def test_score_example_record():
    result = run("score", str(RECORDS / "sochi-evening.txt"))
    assert result.exit_code == 0, result.output
    for text in ("pool (to 10)", "mountain", "whists on W", "exact result", "method 1", "method 2"):
        assert text in result.output
    data = json.loads(run("score", str(RECORDS / "sochi-evening.txt"), "--json").output)
    assert data["closed"] is True
    assert sum(int(v) for v in data["settlement"]["method1"].values()) == 0


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.txt")))
def test_every_example_record_scores(name):
    result = run("score", str(RECORDS / name), "--json")
    assert result.exit_code == 0, result.output


def test_score_options_table():
    result = run("score", "--options")
    assert result.exit_code == 0 and "allpass_progression" in result.output


@pytest.mark.parametrize("args, message", [
    (["settle", "--mountains", "W=8,E=x"], "pref: error: bad number 'x' for E in --mountains"),
    (["settle", "--mountains", "W=8,E=1", "--convention", "moscow"], "pref: error: unknown convention 'moscow'"),
    (["settle", "--mountains", "W=8,E=1", "--set", "foo=1"], "pref: error: unknown option 'foo'"),
    (["settle", "--mountains", "W=8,E=1", "--whists-balance", "W=1,E=1"], "pref: error: the whist balances sum"),
    (["score", "missing-file.txt"], "pref: error: cannot read record file 'missing-file.txt'"),
])
def test_cli_errors(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith(message)
    assert "Traceback" not in result.output


def test_score_bad_record_line(tmp_path):
    record = tmp_path / "bad.txt"
    record.write_text("players W E S\nS 6s 7 | W whist 2 | E pass 1\nS 7h 6 | W whist 3 | E pass 3\n",
                      encoding="utf-8")
    result = run("score", str(record))
    assert result.exit_code == 2
    assert "pref: error: line 3: the tricks 6 + 3 + 3 = 12 do not sum to 10" in result.output
    result = run("score", str(record), "--set", "stalingrad")
    assert result.exit_code == 2 and "bad setting 'stalingrad'" in result.output
