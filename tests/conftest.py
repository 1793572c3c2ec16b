"""Fixtures shared by the test modules.

* ``engine``: one fast engine per module (a 4 MB table kept warm across its tests);
* ``fast_backend`` / ``reference_backend``: a fresh backend of each kind for one test
  (``pyanalyzer.engines.registry.make_backend``), as the analyzers take them;
* ``dds_one_thread``: DDS (through endplay) on one thread, for the modules that compare
  with it (the machine's cores are left to our own engine's threads);
* ``python_ctrl_c`` (the session): Python's SIGINT handler, for the in-process Ctrl-C tests;
* ``default_colour`` (every test): the ``--color`` choice back to ``auto``. Tests that invoke a
  subcommand directly skip ``pref``'s group, which is what sets it, so a ``--color always``
  of an earlier test in the same process would colour their output.

The published layouts with their answers are read by ``tests/published_layouts.py`` from
``layouts/``; the random positions come from ``tests/positions.py``.
"""

from __future__ import annotations

import signal

import pytest
from pref_engine import Engine

from pyanalyzer.cli.terminal import set_color
from pyanalyzer.engines.registry import make_backend


@pytest.fixture(autouse=True, scope="session")
def python_ctrl_c():
    """Ctrl-C raises KeyboardInterrupt in the tests, as in ``pref``: a ``pytest -n`` worker may
    start with SIGINT ignored, and the in-process Ctrl-C tests (engine, executor) need Python's
    handler (with SIGINT ignored the engine leaves it alone and nothing stops a search)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(autouse=True)
def default_colour():
    set_color("auto")


@pytest.fixture(scope="module")
def engine():
    return Engine(tt_size_mb=4)


@pytest.fixture
def fast_backend():
    return make_backend("fast")


@pytest.fixture
def reference_backend():
    return make_backend("reference")


@pytest.fixture(scope="module")
def dds_one_thread():
    import endplay._dds as dds

    dds.SetMaxThreads(1)
