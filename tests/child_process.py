"""Running ``python -m pyanalyzer`` in a child process the way the tests' own process imports it.

The children run outside the checkout, with the paths of the modules this test process
imported, so parent and child run the same pyanalyzer and the same engine build.
"""

from __future__ import annotations

import os
from pathlib import Path

import pref_engine

import pyanalyzer


def child_environment(**extra: str) -> dict:
    """``os.environ`` with PYTHONPATH leading to the same pyanalyzer and engine as the
    test process imports, plus ``extra`` variables."""
    roots = {str(Path(module.__file__).resolve().parent.parent) for module in (pyanalyzer, pref_engine)}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*sorted(roots), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env
