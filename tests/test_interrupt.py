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
    command = [sys.executable, "-m", "pyanalyzer", "misere", "--hand", "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h",
               "--discard", "Kc,Ac", "--lead", "E", "--threads", "1", "--json"]
    # A background process may start with SIGINT ignored; give the child the default disposition.
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=tmp_path, env=child_environment(),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3.0)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    data = json.loads(out)
    assert data["partial"] is True
    assert 0 < data["splits"] < data["total"] == 184756
    assert sum(data["histogram"]) == data["splits"]
