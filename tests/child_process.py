"""Running ``python -m pyanalyzer`` in a child process the way the tests' own process imports it.

From a fresh checkout the folder ``solver/`` holds the engine's sources, not its build: a
child started in the repository would import that folder instead of the installed engine.
The children run elsewhere, with the paths of the modules this test process imported.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyanalyzer
import solver


def child_environment(**extra: str) -> dict:
    """``os.environ`` with PYTHONPATH leading to the same pyanalyzer and (built) solver as the
    test process imports, plus ``extra`` variables."""
    roots = {str(Path(module.__file__).resolve().parent.parent) for module in (pyanalyzer, solver)}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*sorted(roots), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env
