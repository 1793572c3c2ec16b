"""The ``pref`` command line: JSON shape, text output, --cards, --batch, and errors (exit 2)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import published_layouts
import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main

REPO = Path(__file__).resolve().parent.parent

#: Kovalevskaya's misère (layouts/kovalevskaya.txt): the defenders catch it for 1 trick.
KOVALEVSKAYA = published_layouts.KOVALEVSKAYA.one_line

# 6♥ by S, W leads: W's ♠7 lead forces E to ruff and S to under-ruff: S = 0 of 2
# (♦8 would give S a ruff: 1). See tests/test_reference.py.
SMALL = "contract=6h declarer=S lead=W S=Tc,9h W=7s,8d E=Td,Jh"


def run(*args: str):
    return CliRunner().invoke(main, ["solve", *args, "--engine", "reference"])


def assert_input_error(result, *tokens: str):
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    err = result.stderr
    assert err.endswith("\n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    for token in tokens:
        assert token in lines[0], (token, lines[0])
    assert result.stdout == ""


# -- JSON ----------------------------------------------------------------------


def test_kovalevskaya_json():
    # The default engine (the reference minimax's value on this deal: tests/test_reference.py).
    result = CliRunner().invoke(main, ["solve", KOVALEVSKAYA, "--json", "--cards"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert '"declarer_tricks": 1' in result.stdout
    data = json.loads(lines[0])
    assert data["engine"] == "fast"
    assert data["declarer_tricks"] == 1 and type(data["declarer_tricks"]) is int
    assert data["defender_tricks"] == 9 and type(data["defender_tricks"]) is int
    # cards: every legal card of East (all ten at the lead) -> declarer's tricks
    cards = data["cards"]
    assert set(cards) == set(published_layouts.hand_codes("kovalevskaya", "E").split(","))
    assert all(type(v) is int for v in cards.values())
    # Only a diamond lead catches the misère.
    assert {c for c, v in cards.items() if v == 1} == {"Td", "Jd", "Qd", "Kd"}
    assert max(cards.values()) == data["declarer_tricks"]
    # line: the best play to the end, 30 cards, starting with a diamond from East
    line = data["line"]
    assert isinstance(line, list) and len(line) == 30 and len(set(line)) == 30
    assert line[0] in {"Td", "Jd", "Qd", "Kd"}
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert isinstance(data["seconds"], (int, float)) and data["seconds"] >= 0


def test_small_json_shape_and_values():
    result = run(SMALL, "--json", "--cards")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["declarer_tricks"], data["defender_tricks"]) == (0, 2)
    assert data["cards"] == {"7s": 0, "8d": 1}
    assert data["line"][:3] == ["7s", "Jh", "9h"] and len(data["line"]) == 6
    for key in ("declarer_tricks", "defender_tricks", "cards", "line", "nodes", "seconds"):
        assert key in data


def test_json_no_line():
    result = run(SMALL, "--json", "--no-line")
    data = json.loads(result.stdout)
    assert data["declarer_tricks"] == 0 and data["line"] == []


def test_allpass_json():
    result = run("contract=allpass lead=S S=As,7h W=Ks,8h E=Qs,9h", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["guaranteed"] == {"S": 1, "W": 0, "E": 1}


# -- text ----------------------------------------------------------------------


def test_text_output_from_file():
    result = run(str(published_layouts.KOVALEVSKAYA_FILE), "--no-line")
    assert result.exit_code == 0, result.output
    out = result.stdout
    # the diagram
    assert "Kovalevskaya's misère" in out
    assert "misère by South, East to lead" in out
    for text in ("West", "East", "South", "♠ A K", "♦ K Q J 10", "♠ 10 9 8 7", "♥ 9 8"):
        assert text in out, text
    # the verdict
    assert "The defenders catch South's misère for 1 trick." in out
    assert "Traceback" not in out


def test_text_output_small_with_line():
    result = run(SMALL)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "6♥ by South, West to lead" in out
    assert "South takes 0 of the 2 tricks left, the defenders 2." in out
    assert "Best play:" in out
    assert "W ♠7  E ♥J  S ♥9  -> E" in out


def test_cards_option():
    result = run(SMALL, "--cards", "--no-line")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "West to play" in out
    lines = [ln.split() for ln in out.splitlines() if ln.startswith("  ♠") or ln.startswith("  ♦")]
    table = {parts[0]: parts[1:] for parts in lines if parts and parts[0] in ("♠7", "♦8")}
    assert table["♠7"][0] == "0" and "best" in table["♠7"]
    assert table["♦8"][0] == "1" and "best" not in table["♦8"]


def test_mid_trick_cli():
    result = run("contract=6s declarer=S lead=W S=7s,8h W=Ad E=7d played=Ah,7h", "--json", "--cards")
    data = json.loads(result.stdout)
    assert data["to_move"] == "S"
    assert data["cards"] == {"8h": 1}
    assert data["declarer_tricks"] == 1 and data["defender_tricks"] == 1


# -- batch ---------------------------------------------------------------------


def test_batch_json_lines(tmp_path):
    batch = tmp_path / "batch.txt"
    batch.write_text(
        "# endings\n"
        "\n"
        f"{SMALL}\n"                                                   # line 3
        "contract=6s declarer=S lead=S S=As,Xs W=Ks,Kh E=Qs,Qh\n"       # line 4: bad card
        "   \n"
        "contract=misere declarer=S lead=E S=7s,Ad W=8s,Ah E=7d,7h\n"   # line 6
        "  # indented comment\n"
        "contract=6s declarer=S lead=W S=7s W=Ah E=7c\n"                # line 8
        "contract=6s lead=S S=As W=Ks E=Qs\n",                          # line 9: no declarer
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["solve", "--batch", str(batch), "--json", "--cards",
                                       "--engine", "reference"])
    assert result.exit_code == 1, result.output  # lines 4 and 9 failed
    assert "Traceback" not in result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 5
    assert records[0]["declarer_tricks"] == 0 and records[0]["cards"] == {"7s": 0, "8d": 1}
    assert set(records[1]) == {"error", "line"}
    assert records[1]["line"] == 4 and "Xs" in records[1]["error"]
    assert records[2]["declarer_tricks"] == 2
    assert records[3]["declarer_tricks"] == 1
    assert records[4]["line"] == 9 and "declarer" in records[4]["error"]
    for record in (records[0], records[2], records[3]):
        for key in ("declarer_tricks", "defender_tricks", "cards", "line", "nodes", "seconds"):
            assert key in record


@pytest.mark.parametrize("batch", [False, True], ids=["single", "batch"])
def test_json_has_card_values_only_with_cards(tmp_path, batch):
    """``--json`` alone answers the value (no card is solved apart: a batch runs at the engine's
    speed); ``--json --cards`` adds every legal card's value. The oracle: the reference minimax's
    card values (``solve(..., "reference", cards=True)``) for random four-card endings."""
    from positions import random_layout

    from pyanalyzer.analysis.solve import solve
    from pyanalyzer.model.layout_io import format_one_line

    rng = random.Random("json-cards")
    layouts = [random_layout(rng, 4, ["6s", "misere", "7n"]) for _ in range(6)]
    expected = [{card.code: value for card, value in solve(layout, "reference", cards=True, line=False).cards.items()}
                for layout in layouts]

    def records(*options: str) -> list[dict]:
        if batch:
            path = tmp_path / "endings.txt"
            path.write_text("".join(format_one_line(layout) + "\n" for layout in layouts), encoding="utf-8")
            result = CliRunner().invoke(main, ["solve", "--batch", str(path), "--json", *options])
            assert result.exit_code == 0, result.output
            return [json.loads(line) for line in result.stdout.splitlines()]
        out = []
        for layout in layouts:
            result = CliRunner().invoke(main, ["solve", format_one_line(layout), "--json", *options])
            assert result.exit_code == 0, result.output
            out.append(json.loads(result.stdout))
        return out

    plain, with_cards = records(), records("--cards")
    assert [record["cards"] for record in plain] == [None] * len(layouts)
    assert [record["cards"] for record in with_cards] == expected
    assert [r["declarer_tricks"] for r in plain] == [r["declarer_tricks"] for r in with_cards]


def test_batch_text(tmp_path):
    batch = tmp_path / "batch.txt"
    batch.write_text(f"{SMALL}\nnonsense\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["solve", "--batch", str(batch), "--engine", "reference"])
    assert result.exit_code == 1, result.output  # line 2 failed
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("line 1:") and "South takes 0" in lines[0]
    assert lines[1].startswith("line 2: error:") and "nonsense" in lines[1]


def test_batch_stdin():
    result = CliRunner().invoke(main, ["solve", "--batch", "-", "--json", "--engine", "reference"],
                                input=f"{SMALL}\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["declarer_tricks"] == 0


def test_batch_missing_file(tmp_path):
    missing = str(tmp_path / "none.txt")
    result = CliRunner().invoke(main, ["solve", "--batch", missing, "--json",
                                       "--engine", "reference"])
    assert_input_error(result, missing)


# -- errors: exit 2, one line on stderr naming the token, no traceback ---------

GOOD = "contract=6s declarer=S lead=S"


@pytest.mark.parametrize(
    "layout, token",
    [
        (f"{GOOD} S=As,Xs W=Ks,Kh E=Qs,Qh", "Xs"),                    # unknown card
        (f"{GOOD} S=As,As W=Ks,Kh E=Qs,Qh", "As"),                    # duplicated card
        (f"{GOOD} S=As,Ah W=As,Kh E=Qs,Qh", "As"),                    # card in two hands
        (f"{GOOD} S=As W=Ks E=Qs talon=Ks,7h", "Ks"),                 # talon and defender
        (f"{GOOD} S=As,Ks W=Ah E=Ad,Kd", "W"),                        # wrong hand sizes
        ("contract=6s declarer=N lead=S S=As W=Ks E=Qs", "N"),        # unknown seat
        ("contract=6s declarer=S lead=X S=As W=Ks E=Qs", "X"),        # unknown seat
        ("contract=5s declarer=S lead=S S=As W=Ks E=Qs", "5s"),       # bad contract
        ("contract=6x declarer=S lead=S S=As W=Ks E=Qs", "6x"),       # bad contract
        ("contract=6s lead=S S=As W=Ks E=Qs", "declarer"),            # missing declarer
        ("contract=6s declarer=S S=As W=Ks E=Qs", "lead"),            # missing leader
        ("contract=allpass declarer=S lead=S S=As W=Ks E=Qs", "S"),   # declarer on all-pass
        ("contract=6h declarer=S lead=S S=Ah,Kh W=Ks,Qd E=7s,8s,9s played=As,Qc", "Qc"),
        ("contract=6h declarer=S lead=S S=Ad,Kd W=Kh,Qd E=Kc,8s,9s played=As,Qc", "Qc"),
        (f"{GOOD} S=Ah W=Kh E=Qh played=As,Ks,Qs", "played"),         # too many played
        (f"{GOOD} S=As W=Ks E=Qs bogus=1", "bogus"),                  # unknown key
        (f"{GOOD} lead=W S=As W=Ks E=Qs", "lead"),                    # duplicate key
        (f'{GOOD} S=As W=Ks E=Qs title="open', "quotation"),          # unclosed quote
    ],
)
def test_input_errors_exit_2(layout, token):
    assert_input_error(run(layout), token)
    assert_input_error(run(layout, "--json"), token)


def test_nonexistent_file():
    assert_input_error(run("no/such/layout.txt"), "no/such/layout.txt")


def test_bad_file_contents(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("contract: misere\ndeclarer: S\nlead: E\nW: ♠AK\nE: ♠QJ\nS: ♠1X\n",
                    encoding="utf-8")
    assert_input_error(run(str(path)), "♠1X")


def test_layout_and_batch_together_or_neither(tmp_path):
    assert_input_error(CliRunner().invoke(main, ["solve", "--engine", "reference"]))
    batch = tmp_path / "b.txt"
    batch.write_text(SMALL + "\n", encoding="utf-8")
    assert_input_error(run(SMALL, "--batch", str(batch)))


def test_layout_file_path_works(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(
        "title: under-ruff\ncontract: 6h\ndeclarer: S\nlead: W\n"
        "S: ♣10 ♥9\nW: ♠7 ♦8\nE: ♦10 ♥J\n",
        encoding="utf-8",
    )
    result = run(str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["declarer_tricks"] == 0
    text = run(str(path)).stdout
    assert text.startswith("under-ruff\n")


def test_real_process_error_exit_status():
    # Outside CliRunner: the installed entry point's behaviour via ``python -m pyanalyzer``.
    proc = subprocess.run(
        [sys.executable, "-m", "pyanalyzer", "solve", f"{GOOD} S=As,Xs W=Ks,Kh E=Qs,Qh",
         "--engine", "reference"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Xs" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_real_process_json():
    proc = subprocess.run(
        [sys.executable, "-m", "pyanalyzer", "solve", SMALL, "--json", "--engine", "reference"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["declarer_tricks"] == 0


# -- default (fast) engine, show, notation ---------------------------------------


def test_show_converts_between_formats():
    one_line = CliRunner().invoke(main, ["show", str(REPO / "layouts/kovalevskaya.txt"), "--one-line"])
    assert one_line.exit_code == 0, one_line.output
    assert one_line.stdout.startswith("contract=misere declarer=S lead=E S=Ts,9s,8s,7s,8c,")
    back = CliRunner().invoke(main, ["show", one_line.stdout.strip(), "--file-format"])
    assert back.exit_code == 0, back.output
    assert "W: ♠AK ♣QJ10 ♦A ♥AKQ10\n" in back.stdout
    assert "discard: ♣K ♣A\n" in back.stdout


def test_show_bad_layout_exits_2():
    result = CliRunner().invoke(main, ["show", "contract=6s declarer=S lead=W S=As,Xd W=7h,8h E=Ad,Kh"])
    assert_input_error(result, "Xd")


def test_russian_notation_in_diagram_and_line():
    result = run(str(REPO / "layouts/seven-clubs.txt"), "--notation", "russian")
    assert result.exit_code == 0, result.output
    assert "♠ Т\n" in result.stdout  # South's singleton ace of spades
    assert "♣ Т 9 8 7" in result.stdout
    assert "7♣ makes." in result.stdout
