"""Ctrl-C during a long enumeration prints the result over the splits finished, marked partial."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pyanalyzer
import solver


def child_environment() -> dict:
    """Import the same pyanalyzer and (built) solver as this test process does."""
    roots = {str(Path(module.__file__).resolve().parent.parent) for module in (pyanalyzer, solver)}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*sorted(roots), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_keeps_the_finished_splits(tmp_path):
    # Two million sampled splits take minutes on any machine (the exact 184,756 took four
    # seconds, too close to the moment of the Ctrl-C on a fast machine or a slow start).
    command = [sys.executable, "-m", "pyanalyzer", "misere", "--hand", "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h",
               "--discard", "Kc,Ac", "--lead", "E", "--threads", "1", "--samples", "2000000", "--seed", "1",
               "--json"]
    # A background process may start with SIGINT ignored; give the child the default disposition.
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=tmp_path, env=child_environment(),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4.0)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    data = json.loads(out)
    assert data["partial"] is True
    assert 0 < data["splits"] < data["total"] == 2000000
    assert sum(data["histogram"]) == data["splits"]


# A hard deal (two voids, long suits; deal 87 of benchmarks/RESULTS.md). Its table now takes
# a few seconds with the default tables and about a second for the no-trump search with
# North on lead with 16 MB: the tests that must stop it mid-search give the engine a 1 MB
# table (several seconds for that search, over a minute for the whole table on one thread),
# so that a faster engine or machine does not finish before the Ctrl-C.
SLOW_WHIST_DEAL = "N:.Q8765.A9.KQ8532 K93.T2.863.AJT76 QT854.K93.QT542. AJ762.AJ4.KJ7.94"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_long_search_at_once(tmp_path):
    """The search runs without the GIL; Ctrl-C must stop it, not wait for it to end."""
    command = [sys.executable, "-m", "pyanalyzer", "table", "--threads", "1", "--tt-mb", "1",
               SLOW_WHIST_DEAL]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=tmp_path, env=child_environment(),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3.0)
    assert child.poll() is None, "the search ended before Ctrl-C: pick a slower deal"
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert time.monotonic() - sent < 10
    assert child.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


def test_an_engine_stopped_by_ctrl_c_answers_correctly_afterwards():
    """A stopped search leaves nothing behind: the next answers equal a fresh engine's."""
    import threading

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout
    from solver import Engine

    engine = Engine(tt_size_mb=1)         # (slow enough to be stopped mid-search)
    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    timer = threading.Timer(1.0, signal.raise_signal, args=(signal.SIGINT,))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.solve(slow)
    timer.join()
    assert time.monotonic() - started < 30
    # The same rules (no-trump, North-South counted), so the engine keeps its tables
    # unless the stop cleared them: endings of the slow deal (eight of each hand's
    # cards) would meet what the stopped search stored.
    import random

    from pyanalyzer.cards import WHIST
    from pyanalyzer.hand import Hand

    deal = Deal.from_pbn(SLOW_WHIST_DEAL)
    fresh = Engine(tt_size_mb=16)
    rng = random.Random(3)
    for _ in range(25):
        ending = Deal({s: Hand(rng.sample(list(deal.hands[s]), 8), WHIST) for s in "NESW"})
        for lead in "NESW":
            pos = whist_layout(ending, None, "N", lead=lead).position()
            assert engine.solve(pos) == fresh.solve(pos)


def test_ctrl_c_during_a_batch_returns_the_values_finished():
    """solve_batch stops at Ctrl-C and returns the values finished so far (no exception),
    so an enumeration keeps its partial tally."""
    import itertools
    import threading

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout
    from solver import Engine

    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    splits = [(0,)] * 50                   # the same (slow) layout 50 times: seat 1 keeps its cards
    engine = Engine(tt_size_mb=1)         # (slow enough to be stopped mid-search)
    result = []
    worker = threading.Thread(target=lambda: result.append(
        engine.solve_batch(slow, [1], [slow.hands[1]], splits)), daemon=True)
    worker.start()
    time.sleep(1.0)
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
        for _ in itertools.count():       # the handler's exception comes at the next check
            time.sleep(0.01)
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(result) == 1 and len(result[0]) < len(splits)
