"""The solvers behind one interface, and the machinery that runs them.

* :mod:`.registry`: the backends by name (``fast``: the Cython engine ``pref_engine``;
  ``reference``: the plain minimax), table-size checks; the only module that imports the oracle;
* :mod:`.reference`: the reference minimax, the oracle the fast engine is tested against;
* :mod:`.executor`: the one parallel executor (threads or forked processes) for
  enumerations, DD tables, batches and puzzles; it stops cleanly on Ctrl-C and SIGTERM;
* :mod:`.cluster`: the executor's pool on a Dask cluster (``--scheduler``); imported only
  then, never by this package's ``__init__``.
"""

from pyanalyzer.engines.registry import DEFAULT_TT_MB, ENGINE_NAMES, check_table_memory, make_backend

__all__ = ["DEFAULT_TT_MB", "ENGINE_NAMES", "check_table_memory", "make_backend"]
