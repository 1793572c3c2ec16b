"""The engine's kernels (``pref_engine._kernels``): the one picked is named, ``PREF_KERNEL``
forces one or fails in one line, and every kernel built gives the same answers.

Each kernel runs in a child process (a process loads one kernel, chosen when ``pref_engine``
is first imported).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pref_engine
import pytest
from child_process import child_environment

import pyanalyzer

TESTS = Path(__file__).resolve().parent

BUILT = pref_engine.built_kernels()
#: Kernels this machine can run (the others are checked under emulation: .ci/wheel_check).
RUNNABLE = [name for name in BUILT if name in pref_engine.supported_kernels()]

#: Layouts of each kind of search (trick counts, misère, Whist's rank partitions, Thousand's
#: points): their values and card values, compared between kernels.
ANSWERS_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import pref_engine
from published_layouts import ALL
from pyanalyzer import read_layout, solve
layouts = [entry.layout for entry in ALL[:4]] + [read_layout(sys.argv[2] + "/" + name) for name in
           ("kovalevskaya.txt", "whist-squeeze.txt", "thousand-deal.txt", "allpass.txt")]
answers = []
for layout in layouts:
    result = solve(layout)
    answers.append([str(result.declarer_tricks if hasattr(result, "declarer_tricks") else result),
                    sorted((card.code, str(value)) for card, value in (getattr(result, "cards", None) or {}).items())])
print(json.dumps({"kernel": pref_engine.KERNEL, "answers": answers}))
"""


def run_python(args: list[str], kernel: str | None = None) -> subprocess.CompletedProcess:
    env = child_environment(**({"PREF_KERNEL": kernel} if kernel else {}))
    if not kernel:
        env.pop("PREF_KERNEL", None)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tempfile.gettempdir())


def test_the_kernel_picked_is_the_fastest_this_cpu_runs():
    fastest = next(name for name in pref_engine.supported_kernels() if name in BUILT)
    result = run_python(["-c", "import pref_engine; print(pref_engine.KERNEL)"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == fastest
    assert pyanalyzer.engine_kernel() == pref_engine.KERNEL


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_pref_version_names_the_kernel(kernel):
    result = run_python(["-m", "pyanalyzer", "--version"], kernel)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(f"engine: {kernel} kernel"), result.stdout


@pytest.mark.parametrize("value, message", [
    ("fastest", "PREF_KERNEL=fastest: unknown kernel"),
    # a kernel this install did not build (a default install has no native one)
    *[(name, f"PREF_KERNEL={name}: this install has no {name} kernel")
      for name in pref_engine.KERNELS if name not in BUILT][:1],
])
def test_a_bad_pref_kernel_is_one_line_and_exit_2(value, message):
    result = run_python(["-m", "pyanalyzer", "solve", str(TESTS.parent / "layouts" / "kovalevskaya.txt")], value)
    assert result.returncode == 2
    assert result.stderr.startswith(f"pref: error: {message}") and result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == ""


def test_every_kernel_gives_the_same_answers():
    if len(RUNNABLE) < 2:
        pytest.skip(f"only the {RUNNABLE[0]} kernel is built here (PREF_NATIVE=1 or not x86-64)")
    runs = {}
    for kernel in RUNNABLE:
        result = run_python(["-c", ANSWERS_SCRIPT, str(TESTS), str(TESTS.parent / "layouts")], kernel)
        assert result.returncode == 0, result.stderr
        runs[kernel] = json.loads(result.stdout)
        assert runs[kernel]["kernel"] == kernel
    first, *others = RUNNABLE
    for kernel in others:
        assert runs[kernel]["answers"] == runs[first]["answers"], (first, kernel)
    # (the answers themselves are checked by the rest of the suite, in the default kernel)
    assert runs[first]["answers"][4][0] == "1"          # Kovalevskaya: caught for 1 (published)


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_the_wheel_smoke_test_passes(kernel):
    """tests/wheel_smoke.py, the check every wheel runs after install, in each kernel."""
    result = run_python([str(TESTS / "wheel_smoke.py")], kernel)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"engine kernel: {kernel}\n") and "3 of 3 checks passed" in result.stdout


def test_the_smoke_test_fails_on_a_wrong_answer(monkeypatch, capsys):
    """The smoke test can fail: a stored answer changed is reported and exits 1."""
    import wheel_smoke

    monkeypatch.setattr(wheel_smoke, "checks", lambda: [("a check", 1, 2), ("another", 3, 3)])
    assert wheel_smoke.main() == 1
    out = capsys.readouterr().out
    assert "FAIL a check: 2 (stored: 1)" in out and "ok   another: 3" in out
