"""``--scheduler ADDRESS`` (or ``PREF_SCHEDULER``): the commands that run many solves run them
on a Dask cluster (``pip install 'pref-solver[cluster]'``; README, "Running on a cluster").

Without it nothing changes: the solves run on local threads and Dask is not imported.
Given on the command line to a command (or a mode of one) whose solves run here, it is an
input error naming the option; set in the environment, it is used where it applies.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from pyanalyzer.cli.support import fail

SCHEDULER_OPTION = click.option(
    "--scheduler", metavar="ADDRESS", envvar="PREF_SCHEDULER",
    help="Run the solves on the Dask cluster of this scheduler (e.g. tcp://10.0.0.5:8786; default: "
         "PREF_SCHEDULER); results as without it. Needs pip install 'pref-solver[cluster]'.")


def scheduler_for(address: str | None, applies: bool, where: str) -> str | None:
    """The scheduler to use: ``address`` where it ``applies``; given on the command line where
    it does not, an input error saying ``where`` it goes (from ``PREF_SCHEDULER``: ignored)."""
    if not address or applies:
        return address or None
    source = click.get_current_context().get_parameter_source("scheduler")
    if source is not None and source.name == "COMMANDLINE":
        fail(f"--scheduler {address!r}: {where}")
    return None


@contextmanager
def on_scheduler(address: str | None) -> Iterator[None]:
    """Inside, the runs that can go to a cluster go to the one of ``address`` (none: local).
    A scheduler that cannot be reached is one line and exit status 2."""
    if not address:
        yield
        return
    import signal

    # Imported with the stop signals blocked, so that the native threads its imports start
    # (numpy's) leave Ctrl-C and SIGTERM to the main thread, where a run takes them.
    blocked = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, blocked) if hasattr(signal, "pthread_sigmask") else None
    try:
        from pyanalyzer.engines.cluster import DaskCluster
    except ImportError:
        fail("--scheduler needs Dask's distributed: pip install 'pref-solver[cluster]'")
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    from pyanalyzer.engines.executor import ClusterLost, use_cluster

    _quiet_dask_logs()

    try:
        cluster = DaskCluster(address)
    except ClusterLost as error:
        fail(str(error))
    try:
        with use_cluster(cluster):
            yield
    finally:
        cluster.close()


def _quiet_dask_logs() -> None:
    """Dask's client logs its reconnection attempts with tracebacks: a command says what
    happened in its own one line instead."""
    import logging

    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
