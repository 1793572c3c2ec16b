"""Ctrl-C (and SIGTERM) on a running ``pref``: partial result marked, a one-line note, exit 130.

No test presses Ctrl-C after a fixed sleep: each waits for evidence on the
child's standard error (progress lines, written at once with
``PREF_PROGRESS_EVERY=0``) that the work it wants to interrupt is under way,
then sends the signal. In-process tests wait for the engine to be searching.
"""

from __future__ import annotations

import ctypes
import functools
import json
import operator
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import child_process
import published_layouts
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# The misère of the README's worked example (Kovalevskaya's): S's ten cards, his discard Kc Ac, East leads.
MISERE_TEN = "S=" + published_layouts.hand_codes("kovalevskaya", "S")
MISERE_TWELVE = MISERE_TEN + ",Kc,Ac"
# The twelve-card hand; with Jd Kd discarded, 6 clubs makes in 92.17% of all splits
# (regression value of the complete enumeration, 170,294 of 184,756; JSON gives ten digits).
# (South of the published 7♣ deal, test 5, with the two cards no hand holds.)
CONTRACT_TWELVE = "S=" + published_layouts.hand_codes("test-05", "S") + ",8s,7s"
CONTRACT_TEN = "S=" + ",".join(c for c in CONTRACT_TWELVE[2:].split(",") if c not in ("Jd", "Kd"))
CONTRACT_P_MAKE = 170294 / 184756

# A hard deal (two voids, long suits; deal 87 of benchmarks/RESULTS.md). With a 1 MB table
# one of its searches takes seconds and the whole table, on one thread, over a minute.
SLOW_WHIST_DEAL = "N:.Q8765.A9.KQ8532 K93.T2.863.AJT76 QT854.K93.QT542. AJ762.AJ4.KJ7.94"

PROGRESS = re.compile(r"\] ([\d,]+) / ([\d,]+) ")


def child_environment() -> dict:
    """The test process's pyanalyzer and solver (see child_process.py); progress lines at every
    update."""
    return child_process.child_environment(PREF_PROGRESS_EVERY="0")


class Pref:
    """``python -m pyanalyzer ARGS`` with its standard error read line by line as it comes."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        # A background process may start with SIGINT ignored; give the child the default disposition.
        self.child = subprocess.Popen([sys.executable, "-m", "pyanalyzer", *args], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, cwd=cwd, env=child_environment(),
                                      preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.out = ""
        self.readers = [threading.Thread(target=self._read_err, daemon=True),
                        threading.Thread(target=self._read_out, daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read_err(self) -> None:
        for line in self.child.stderr:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def _read_out(self) -> None:
        self.out = self.child.stdout.read()

    def wait_for(self, condition, what: str, timeout: float = 300.0) -> str:
        """The first standard-error line satisfying ``condition`` (evidence of progress)."""
        deadline = time.monotonic() + timeout
        seen = 0
        with self.changed:
            while True:
                for line in self.lines[seen:]:
                    if condition(line):
                        return line
                seen = len(self.lines)
                assert self.child.poll() is None, f"pref ended before {what}: {self.lines[-5:]}"
                assert time.monotonic() < deadline, f"no {what} after {timeout} s"
                self.changed.wait(1.0)

    def interrupt(self, signum: int = signal.SIGINT, timeout: float = 120.0) -> tuple[int, str, list[str]]:
        assert self.child.poll() is None, "pref ended before the signal: give it more work"
        self.child.send_signal(signum)
        self.child.wait(timeout)
        for reader in self.readers:
            reader.join(timeout)
        errors = [line for line in self.lines if not line.startswith("progress:")]
        return self.child.returncode, self.out, errors


def splits_done(line: str) -> int:
    match = PROGRESS.search(line)
    return int(match.group(1).replace(",", "")) if match and line.startswith("progress:") else 0


def assert_interrupted_note(errors: list[str]) -> None:
    assert errors and errors[-1].startswith("pref: interrupted: "), errors
    assert len(errors) == 1, errors          # one line, no traceback
    assert not any("Traceback" in line for line in errors)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_sample_is_a_smaller_sample_marked_partial(tmp_path, signum):
    pref = Pref(["misere", "--hand", MISERE_TEN, "--discard", "Kc,Ac", "--lead", "E", "--threads", "1",
                 "--samples", "2000000", "--seed", "1", "--json"], tmp_path)
    pref.wait_for(lambda line: splits_done(line) > 0, "a finished block of samples")
    status, out, errors = pref.interrupt(signum)
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True
    assert data["exact"] is False and data["method"] == "sample"
    assert 0 < data["splits"] < data["total"] == 2000000
    assert sum(data["histogram"]) == data["splits"]
    low, high = data["p_caught_interval"]
    assert low <= data["p_caught"] <= high


def test_an_interrupted_enumeration_reports_proven_bounds(tmp_path):
    pref = Pref(["contract", "--hand", CONTRACT_TEN, "--discard", "Jd,Kd", "--contract", "6c", "--lead", "S",
                 "--threads", "1", "--json"], tmp_path)
    pref.wait_for(lambda line: splits_done(line) > 0, "a finished block of splits")
    status, out, errors = pref.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["exact"] is False and data["partial"] is True and data["method"] == "enumeration"
    assert 0 < data["splits"] < data["total"] == 184756
    assert data["p_make"] is None and "p_make_interval" not in data
    low, high = data["p_make_bounds"]
    assert low <= CONTRACT_P_MAKE <= high
    assert high - low == pytest.approx((data["total"] - data["splits"]) / data["total"])


def test_twelve_card_misere_keeps_the_classes_finished(tmp_path):
    pref = Pref(["misere", "--hand", MISERE_TWELVE, "--lead", "E", "--json"], tmp_path)
    pref.wait_for(lambda line: "discard class 2 of " in line, "a finished discard class")
    status, out, errors = pref.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True
    assert 1 <= data["classes_finished"] < data["classes"]
    # The class under way when the signal came is shown with its bounds (unless it had just
    # been dropped as provably worse, which decides it all the same).
    cut_short = [row for row in data["ranked"] if row.get("interrupted")]
    assert len(cut_short) <= 1
    for row in cut_short:
        low, high = row["p_caught_bounds"]
        assert 0 <= low <= high <= 1 and row["splits"] < row["total"]


def test_twelve_card_contract_ranking_is_never_silently_partial(tmp_path):
    pref = Pref(["contract", "--hand", CONTRACT_TWELVE, "--lead", "S", "--json"], tmp_path)
    pref.wait_for(lambda line: "exact candidate 2 of 3" in line, "the first candidate finished")
    status, out, errors = pref.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["partial"] is True and data["interrupted"] is True
    complete = [row for row in data["exact"] if row["exact"]]
    partial = [row for row in data["exact"] if not row["exact"]]
    assert complete and len(partial) <= 1
    if partial:
        assert partial[0]["p_make"] is None and len(partial[0]["p_make_bounds"]) == 2
    # The best discard is the first candidate, finished: its complete value.
    assert data["best"]["discard"] == ["Jd", "Kd"]
    assert data["best"]["p_make"] == pytest.approx(CONTRACT_P_MAKE, abs=1e-9)


def test_puzzles_with_two_processes_stop_cleanly_and_keep_what_was_found(tmp_path):
    out = tmp_path / "set"
    pref = Pref(["puzzles", "misere", "--count", "10000", "--out", str(out)], tmp_path)
    pref.wait_for(lambda line: splits_done(line) > 0, "a puzzle found")
    status, _, errors = pref.interrupt(timeout=60)
    assert status == 130
    assert_interrupted_note(errors)
    found = int(re.search(r"interrupted: (\d+) of", errors[-1]).group(1))
    assert found > 0
    assert len((out / "puzzles.jsonl").read_text(encoding="utf-8").splitlines()) == found


def test_ctrl_c_stops_a_long_search_at_once(tmp_path):
    """The search runs without the GIL; Ctrl-C must stop it, not wait for it to end."""
    pref = Pref(["table", "--threads", "1", "--tt-mb", "1", SLOW_WHIST_DEAL, "--json"], tmp_path)
    pref.wait_for(lambda line: splits_done(line) > 0, "the first search finished")
    sent = time.monotonic()
    status, out, errors = pref.interrupt()   # (checks that the table is still being searched)
    assert time.monotonic() - sent < 10
    assert status == 130
    assert_interrupted_note(errors)
    # The searches finished are kept, the others null, the table marked partial.
    data = json.loads(out)
    assert data["partial"] is True
    entries = [value for row in data["table"].values() for value in row.values()]
    assert 1 <= sum(value is not None for value in entries) < 20


def wait_until_searching(engine, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not engine.searching:
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.001)


def test_an_engine_stopped_by_ctrl_c_answers_correctly_afterwards():
    """A stopped search leaves nothing behind: the next answers equal a fresh engine's."""
    import random

    from pref_engine import Engine

    from pyanalyzer.model.cards import WHIST
    from pyanalyzer.model.hand import Hand
    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout

    engine = Engine(tt_size_mb=1)         # (slow enough to be stopped mid-search)
    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    presser = threading.Thread(target=lambda: (wait_until_searching(engine),
                                               signal.raise_signal(signal.SIGINT)))
    presser.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.solve(slow)
    presser.join()
    assert time.monotonic() - started < 30
    # The same rules (no-trump, North-South counted), so the engine keeps its tables
    # unless the stop cleared them: endings of the slow deal (eight of each hand's
    # cards) would meet what the stopped search stored.
    deal = Deal.from_pbn(SLOW_WHIST_DEAL)
    fresh = Engine(tt_size_mb=16)
    rng = random.Random(3)
    for _ in range(25):
        ending = Deal({s: Hand(rng.sample(list(deal.hands[s]), 8), WHIST) for s in "NESW"})
        for lead in "NESW":
            pos = whist_layout(ending, None, "N", lead=lead).position()
            assert engine.solve(pos) == fresh.solve(pos)


def batch_values_at_ctrl_c(python_handler_again: bool = False) -> tuple[list, int]:
    """Ctrl-C while ``solve_batch`` runs 50 slow searches in a thread (the main thread gets the
    KeyboardInterrupt): the values it returned, and how many were asked. With
    ``python_handler_again``, Python's SIGINT handler is installed once more after the Engine
    was made, as a notebook's kernel does before every cell."""

    from pref_engine import Engine

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout

    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    splits = [(0,)] * 50                   # the same (slow) layout 50 times: seat 1 keeps its cards
    engine = Engine(tt_size_mb=1)         # (slow enough to be stopped mid-search)
    if python_handler_again:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    result = []
    worker = threading.Thread(target=lambda: result.append(
        engine.solve_batch(slow, [1], [slow.hands[1]], splits)), daemon=True)
    worker.start()
    wait_until_searching(engine)
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
        for _ in range(6000):             # the handler's exception comes at the next check
            time.sleep(0.01)
    worker.join(timeout=60)               # (a batch the signal did not reach runs on for minutes)
    assert not worker.is_alive()
    assert len(result) == 1
    return result[0], len(splits)


def test_ctrl_c_during_a_batch_returns_the_values_finished():
    """solve_batch stops at Ctrl-C and returns the values finished so far (no exception),
    so an enumeration keeps its partial tally."""
    values, asked = batch_values_at_ctrl_c()
    assert len(values) < asked


def test_ctrl_c_stops_a_search_after_python_installed_its_handler_again():
    """A notebook's kernel installs Python's SIGINT handler before every cell (so do
    asyncio.run and user code), which replaces the engine's hook: the engine's next call
    puts it back, so Ctrl-C still stops an engine made in an earlier cell."""
    values, asked = batch_values_at_ctrl_c(python_handler_again=True)
    assert len(values) < asked


def test_a_signal_just_before_a_call_stops_it_before_its_search():
    """A signal the hook counted just before a call, its Python handler not yet run, stops the
    call before its search (not after the whole search)."""
    from pref_engine import Engine

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout

    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    engine = Engine(tt_size_mb=1)
    engine.reset_stats()
    raise_sigint = functools.partial(ctypes.CDLL(None)["raise"], signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        # Two C calls with no check of the interpreter's between them: the signal is raised,
        # counted by the hook and noted by Python's handler, then the engine is called.
        list(map(operator.methodcaller("__call__"), [raise_sigint, functools.partial(engine.solve, slow)]))
    assert engine.stats["nodes"] == 0 and not engine.searching


def test_two_kernels_in_one_process_share_one_hook():
    """Each kernel is a copy of the engine module: hooks of their own would chain over each
    other and a Ctrl-C would loop between them. They share one hook and one count."""
    import pref_engine

    kernels = [k for k in pref_engine.built_kernels() if k in pref_engine.supported_kernels()]
    if len(kernels) < 2:
        pytest.skip("one kernel here")
    child = f"""
import importlib, signal, threading
from pyanalyzer.model.position import Position
from pyanalyzer.whist import Deal
from pyanalyzer.whist.table import whist_layout
first, second = (importlib.import_module(f"pref_engine._kernels.{{k}}.engine") for k in {kernels[:2]!r})
pos = Position(hands=(0b0001, 0b0010, 0b0100), suit_masks=(0b1111,), trump=None, must_trump=True,
               leader=0, played=(), declarer_side=(True, False, False), maximize=True)
a, b = first.Engine(tt_size_mb=1), second.Engine(tt_size_mb=1)
a.solve(pos); b.solve(pos); a.solve(pos)     # each call checks that the hook is in front
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:
    print("KeyboardInterrupt")
slow = whist_layout(Deal.from_pbn({SLOW_WHIST_DEAL!r}), None, "N", lead="N").position()
stopped = []
def search():
    try:
        b.solve(slow)
    except KeyboardInterrupt:
        stopped.append(True)
worker = threading.Thread(target=search)
worker.start()
while not b.searching:
    pass
first.stop_searches()                         # one kernel's stop reaches the other's search
worker.join()
print("stopped" if stopped else "not stopped")
"""
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120,
                         env=child_environment())
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["KeyboardInterrupt", "stopped"]


def test_interrupted_advice_keeps_the_cards_finished_and_marks_the_cut_one(tmp_path):
    seven_clubs = Path(__file__).resolve().parents[1] / "layouts" / "seven-clubs.txt"
    pref = Pref(["advise", str(seven_clubs), "--seat", "S", "--threads", "1",
                 "--json"], tmp_path)
    pref.wait_for(lambda line: splits_done(line) > 0, "a finished block of layouts")
    status, out, errors = pref.interrupt()
    assert status == 130
    assert_interrupted_note(errors)
    data = json.loads(out)
    assert data["interrupted"] is True and data["partial"] is True and data["exact"] is False
    cut = [card for card, entry in data["cards"].items() if entry.get("partial")]
    assert len(cut) == 1 and list(data["cards"])[-1] == cut[0]  # the cards before it are complete
    low, high = data["cards"][cut[0]]["expected_bounds"]
    assert 0 <= low <= high <= 10 and data["cards"][cut[0]]["cost"] is None
