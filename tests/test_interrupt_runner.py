"""The ``pref`` program's one rule: option errors in one line (exit 2), interruptions exit 130
without a traceback (start-up included), SIGTERM like Ctrl-C; and the progress display."""

from __future__ import annotations

import io
import signal
import sys
import threading
import types

import published_layouts
import pytest

from pyanalyzer.cli import runner
from pyanalyzer.cli.progress import ProgressLine


def run(argv, capsys) -> tuple[int, str, str]:
    status = runner.run(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("argv, token", [
    (["solve", "--bogus"], "--bogus"),
    (["puzzles", "misere", "--out", "x", "--jobs", "0"], "--jobs"),
    (["frobnicate"], "frobnicate"),
    (["contract", "--threads"], "--threads"),
])
def test_option_errors_are_one_line_with_status_2(capsys, argv, token):
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pref: error: ") and token in lines[0], err


def test_help_and_version_still_work(capsys):
    status, out, err = run(["--help"], capsys)
    assert status == 0 and "Usage: pref" in out and err == ""
    status, out, _ = run(["solve", "--help"], capsys)
    assert status == 0 and "pref solve" in out
    status, out, _ = run(["--version"], capsys)
    assert status == 0 and "version" in out
    status, out, err = run([], capsys)      # plain ``pref``: the help, as click 8.1 gave it
    assert status == 0 and "Usage: pref" in out and err == ""


def test_ctrl_c_during_start_up_gives_one_line_and_130(capsys, monkeypatch):
    """A KeyboardInterrupt while the commands are being imported: no traceback."""

    class Interrupting(types.ModuleType):
        def __getattr__(self, name):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "pyanalyzer.cli.main", Interrupting("pyanalyzer.cli.main"))
    monkeypatch.delattr("pyanalyzer.cli.main", raising=False)
    status, out, err = run(["solve", "x"], capsys)
    assert status == 130 and out == ""
    assert err.splitlines() == ["pref: interrupted: stopped before any result was complete"]


def test_ctrl_c_in_a_command_without_its_own_handling_gives_130(capsys, monkeypatch):
    import pyanalyzer.cli.main as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "read_layout", interrupted)
    status, _, err = run(["show", "layouts/kovalevskaya.txt"], capsys)
    assert status == 130
    assert len(err.splitlines()) == 1 and err.startswith("pref: interrupted: ")


@pytest.mark.skipif(not hasattr(signal, "SIGTERM"), reason="no SIGTERM")
def test_sigterm_raises_keyboard_interrupt(monkeypatch):
    monkeypatch.setattr(signal, "getsignal", lambda signum: signal.SIG_DFL)
    installed = {}
    monkeypatch.setattr(signal, "signal", lambda signum, handler: installed.setdefault(signum, handler))
    runner.install_sigterm_handler()
    with pytest.raises(KeyboardInterrupt):
        installed[signal.SIGTERM](signal.SIGTERM, None)


def test_the_stop_signals_are_ignored_at_the_end_unless_a_thread_holds_the_exit(monkeypatch):
    calls = []
    monkeypatch.setattr(signal, "signal", lambda signum, handler: calls.append((signum, handler)))
    monkeypatch.setattr(signal, "pthread_sigmask", lambda how, signals: calls.append(("mask", how, set(signals))))
    release = threading.Event()
    holder = threading.Thread(target=release.wait)     # not a daemon: the shutdown waits for it
    holder.start()
    try:
        assert runner.ignore_stop_signals() is False and calls == []
    finally:
        release.set()
        holder.join()
    assert runner.ignore_stop_signals() is True
    stop = {signal.SIGINT, signal.SIGTERM}
    assert calls == [("mask", signal.SIG_BLOCK, stop), (signal.SIGINT, signal.SIG_IGN),
                     (signal.SIGTERM, signal.SIG_IGN)]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_in_a_log_is_an_occasional_plain_line():
    stream, clock = io.StringIO(), Clock()
    progress = ProgressLine("splits", stream=stream, every=10, clock=clock)
    for second in range(0, 31):
        clock.now = float(second)
        progress(second * 1000, 100_000)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines == ["progress: [ 10%] 10,000 / 100,000 splits, 90 s left",
                     "progress: [ 20%] 20,000 / 100,000 splits, 80 s left",
                     "progress: [ 30%] 30,000 / 100,000 splits, 70 s left"]
    assert "\r" not in stream.getvalue()


def test_progress_of_a_ranking_names_the_stage_and_times_it_from_the_stage_start():
    """Class 3 of 14 after 40 s of the job: the time left is this class's (2 s in, a quarter
    done: 6 s), not the whole job's elapsed time spread over the class (120 s)."""
    stream, clock = io.StringIO(), Clock()
    progress = ProgressLine("splits", stream=stream, every=0, clock=clock)
    clock.now = 38.0
    progress.stage("discard class", 3, 14, may_stop_early=True)
    clock.now = 40.0
    progress(25, 100)
    assert stream.getvalue() == ("progress: discard class 3 of 14: [ 25%] 25 / 100 splits, "
                                 "at most 6 s left in this discard class; 40 s so far\n")


def test_an_interrupted_estimate_before_the_talon_is_printed_marked_and_exits_130(capsys, monkeypatch):
    """Monte Carlo before the talon, stopped (deterministically) at the 800th solve (a sample
    takes about 170): the smaller sample is printed, marked partial, and the run exits 130."""
    import pyanalyzer.engines.registry as engines

    real = engines.make_backend

    class StopsAt800th:
        def __init__(self, *args, **kwargs) -> None:
            self.inner = real(*args, **kwargs)
            self.calls = 0
            self.name = self.inner.name

        @property
        def nodes(self) -> int:
            return self.inner.nodes

        def solve(self, position):
            self.calls += 1
            if self.calls == 800:
                raise KeyboardInterrupt
            return self.inner.solve(position)

    monkeypatch.setattr(engines, "make_backend", StopsAt800th)
    status, out, err = run(["misere", "--hand", "S=" + published_layouts.hand_codes("kovalevskaya", "S"), "--lead", "E",
                            "--samples", "50", "--seed", "1", "--json"], capsys)
    assert status == 130
    assert err.splitlines() == ["pref: interrupted: the result above is partial"]
    import json

    data = json.loads(out)
    assert data["partial"] is True and data["method"] == "sample" and data["exact"] is False
    assert 0 < data["samples"] < data["samples_asked"] == 50


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_output_closed_by_its_reader_ends_quietly():
    """``pref ... | head``: the reader has gone (here: before the first write). No traceback."""
    import os
    import subprocess

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        child = subprocess.run([sys.executable, "-m", "pyanalyzer", "--help"], stdout=write_end,
                               stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert child.returncode == 1
    assert child.stderr == ""


# A ``pref`` that sends itself a signal during the interpreter's shutdown, after its output
# is written and its status decided: at the shutdown's first step (an atexit callback, while
# the handlers are still Python's), or at its collection of cycles (a finaliser), which comes
# right after the shutdown resets the handled signals to their default action.
SIGNALS_ITSELF_AT_SHUTDOWN = """
import atexit, gc, os, signal, sys

signum = getattr(signal, sys.argv[1])


class SignalsWhenCollected:
    def __del__(self):
        os.kill(os.getpid(), signum)


if sys.argv[2] == "atexit":
    atexit.register(os.kill, os.getpid(), signum)
else:
    late = SignalsWhenCollected()
    late.cycle = late
    del late
    gc.disable()   # (collected by the shutdown, not before)

from pyanalyzer.cli.runner import console_main

sys.argv = ["pref", *sys.argv[3:]]
console_main()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("moment", ["atexit", "collection"])
@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_after_the_result_leaves_it_whole_with_its_status(tmp_path, name, moment):
    """A signal once the result is written and the status decided changes nothing: no death
    by the signal (status 143 for SIGTERM), no traceback from the shutdown's code."""
    import subprocess
    from pathlib import Path

    import child_process

    script = tmp_path / "signals_itself.py"
    script.write_text(SIGNALS_ITSELF_AT_SHUTDOWN)
    layout = Path(__file__).resolve().parent.parent / "layouts" / "kovalevskaya.txt"
    child = subprocess.run([sys.executable, str(script), name, moment, "misere", str(layout), "--notation", "letters"],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path,
                           env=child_process.child_environment(),
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.returncode == 0, (child.returncode, child.stderr)
    assert child.stderr == ""
    assert "caught" in child.stdout and child.stdout.rstrip().splitlines()[-1].startswith("  10. ")


# A ``pref`` whose stop signal is handled inside a finaliser, just before its enumeration
# begins (as it counts the splits): the handler's KeyboardInterrupt cannot propagate from
# there (Python prints a traceback and goes on).
SIGNALS_ITSELF_IN_A_FINALISER = """
import gc, os, signal, sys

signum = getattr(signal, sys.argv[1])


class SignalsWhenCollected:
    def __del__(self):
        os.kill(os.getpid(), signum)


import pyanalyzer.analysis.splits as splits

count_splits = splits.count_splits


def signal_then_count_splits(*args, **kwargs):
    late = SignalsWhenCollected()
    late.cycle = late
    del late
    gc.collect()
    return count_splits(*args, **kwargs)


splits.count_splits = signal_then_count_splits

from pyanalyzer.cli.runner import console_main

sys.argv = ["pref", *sys.argv[2:]]
console_main()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_stop_handled_inside_a_finaliser_is_not_lost(tmp_path, name):
    """The stop is kept for the enumeration, which starts interrupted: the empty enumeration
    is marked partial, exit 130, and no traceback (not the whole enumeration, status 0).
    (A Thousand declarer's view: misère and contract ``--hand`` hold the signals for their
    runs, so that there the handler never runs in a finaliser.)"""
    import json
    import subprocess

    import child_process

    script = tmp_path / "signals_in_a_finaliser.py"
    script.write_text(SIGNALS_ITSELF_IN_A_FINALISER)
    child = subprocess.run([sys.executable, str(script), name, "thousand", "--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc,9d",
                            "--gave", "W:9s,E:Jd", "--bid", "120", "--threads", "1", "--json"],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path,
                           env=child_process.child_environment(),
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.returncode == 130, (child.returncode, child.stderr)
    assert child.stderr.splitlines() == ["pref: interrupted: the result above is partial"]
    data = json.loads(child.stdout)
    assert data["partial"] is True and data["interrupted"] is True and data["splits"] == 0


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
@pytest.mark.parametrize("command", [
    ["misere", "--hand", "S=" + published_layouts.hand_codes("kovalevskaya", "S"), "--discard", "Kc,Ac",
     "--lead", "E"],
    ["contract", "--hand", "S=" + published_layouts.hand_codes("kovalevskaya", "S"), "--discard", "Kc,Ac",
     "--contract", "6s", "--lead", "E"],
])
def test_a_signal_between_the_last_run_and_the_print_keeps_the_finished_result(capsys, monkeypatch, command):
    """SIGTERM sent (from this thread) while the finished sample's result is being formatted:
    the result is printed whole and the status is 0, not "stopped before any result was
    complete" with nothing printed."""
    import threading as threads

    from pyanalyzer.preferans.odds import TrickOdds

    format_result = TrickOdds.format

    def signalled_then_formatted(self, *args, **kwargs):
        signal.pthread_kill(threads.main_thread().ident, signal.SIGTERM)
        return format_result(self, *args, **kwargs)

    monkeypatch.setattr(TrickOdds, "format", signalled_then_formatted)
    status, out, err = run([*command, "--samples", "200", "--seed", "1", "--threads", "1"], capsys)
    assert (status, err) == (0, "")
    assert "200 " in out and "interrupted" not in out and "PARTIAL" not in out


def wait_until_reading(pid: int, bound: float = 60.0) -> None:
    """Until process ``pid`` sleeps in a read of a pipe, where Linux says so
    (``/proc/PID/wchan``); elsewhere a moment (a signal sent before the read stops the
    child as well, but then the read itself is not tested)."""
    import time
    from pathlib import Path

    wchan = Path(f"/proc/{pid}/wchan")
    if not wchan.exists() or wchan.read_text() in ("", "0"):
        time.sleep(0.5)
        return
    deadline = time.monotonic() + bound
    while "pipe_read" not in wchan.read_text():
        assert time.monotonic() < deadline, f"the child never waited in a read ({wchan.read_text()!r})"
        time.sleep(0.01)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals sent to a child")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_batch_waiting_for_its_next_line_stops_at_once(tmp_path, signum):
    """``pref solve --batch -`` has answered a line and waits for the next, standard input
    still open: Ctrl-C or SIGTERM ends it with status 130 at once. (The engine's hook in front
    of Python's handler was once installed with SA_RESTART, so that the kernel restarted the
    read and the signal waited for the next line. The 60 s bound a hang, not the speed.)"""
    import subprocess

    import child_process

    process = subprocess.Popen([sys.executable, "-m", "pyanalyzer", "solve", "--batch", "-", "--json"],
                               cwd=tmp_path, env=child_process.child_environment(), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        process.stdin.write("contract=6s declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh\n")
        process.stdin.flush()
        assert '"declarer_tricks": 1' in process.stdout.readline()
        wait_until_reading(process.pid)
        process.send_signal(signum)
        status = process.wait(timeout=60)
        assert status == 130, process.stderr.read()
        assert process.stderr.read().strip() == "pref: interrupted: after 1 layout; the results written are complete"
    finally:
        process.kill()
        process.wait()
