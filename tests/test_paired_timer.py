"""benchmarks/paired.py, the timer of two builds in turn: its output, its stop, its refusals.

The two "builds" are checkouts made of links to the engine and the Python layer this test runs
with (installed or built in place), so the test needs no second build. No time is asserted.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pref_engine

import pyanalyzer

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "paired.py"


def make_tree(root: Path, with_engine: bool = True) -> Path:
    """A checkout for paired.py: ``solver/pref_engine`` and ``pyanalyzer`` linked to ours."""
    root.mkdir()
    (root / "solver").mkdir()
    if with_engine:
        (root / "solver" / "pref_engine").symlink_to(Path(pref_engine.__file__).parent)
    (root / "pyanalyzer").symlink_to(Path(pyanalyzer.__file__).parent)
    return root


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600)


def test_fresh_rows_compare_the_same_layouts(tmp_path):
    a, b = make_tree(tmp_path / "a"), make_tree(tmp_path / "b")
    done = run("--a", str(a), "--b", str(b), "--kinds", "trump,misere", "--layouts", "3",
               "--rounds", "2", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    rows = {line.split("|")[1].strip(): line.split("|") for line in done.stdout.splitlines()
            if re.match(r"\| (trump|misere) \|", line)}
    assert set(rows) == {"trump", "misere"}
    for cells in rows.values():
        assert re.fullmatch(r" \*\*\d+\.\d{3}\*\* ", cells[6])         # the median ratio
        assert cells[8] == cells[9] and int(cells[8].replace(",", "")) > 0   # same engine, same nodes


def test_warm_passes_alternate_chunks(tmp_path):
    a, b = make_tree(tmp_path / "a"), make_tree(tmp_path / "b")
    done = run("--a", str(a), "--b", str(b), "--kinds", "misere", "--warm", "s1", "--splits", "25",
               "--chunk", "10", "--rounds", "2")
    assert done.returncode == 0, done.stderr
    passes = [line for line in done.stdout.splitlines() if re.match(r"\| [12] \|", line)]
    assert len(passes) == 2
    assert "25 splits in chunks of 10" in done.stdout
    assert re.search(r"total b/a: \*\*\d+\.\d{3}\*\*", done.stdout)


def test_sigterm_stops_both_workers_and_keeps_the_finished_rows(tmp_path):
    a, b = make_tree(tmp_path / "a"), make_tree(tmp_path / "b")
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "--a", str(a), "--b", str(b), "--kinds",
                             "misere", "--rounds", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:                  # both workers answered: the run is under way
        if line.startswith("tables:"):
            break
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err.strip() == "paired: interrupted; the rows above are complete, the one in progress is left out"
    assert not re.search(r"^\| misere \|", out, re.M)          # (its rounds were not finished)
    workers = subprocess.run(["pgrep", "-f", f"paired.py --worker {a.resolve()}"], capture_output=True, text=True)
    assert workers.stdout == ""


def test_a_tree_without_its_own_engine_is_refused(tmp_path):
    a, b = make_tree(tmp_path / "a"), make_tree(tmp_path / "b", with_engine=False)
    done = run("--a", str(a), "--b", str(b), "--layouts", "1", "--rounds", "1", "--repeat", "1")
    assert done.returncode != 0
    assert f"the engine of {b.resolve()} was not imported" in done.stderr


def test_absurd_numbers_are_refused(tmp_path):
    a = make_tree(tmp_path / "a")
    done = run("--a", str(a), "--b", str(a), "--layouts", "0")
    assert done.returncode == 2
    assert "--layouts 1-200" in done.stderr
