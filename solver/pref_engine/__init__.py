"""Fast exact double-dummy engine (Cython).

The folder is the algorithm's outline, one module per technique:

* ``state``: position, rules, move generation, trick resolution;
* ``moves``: move ordering;
* ``transtable``: the fixed-size transposition table on rank-relative holdings;
* ``quicktricks``: sure tricks of the side on lead;
* ``suretrick``: misère, the trick now starting surely the declarer's, or one he can lose
  (inline, ``.pxd`` only);
* ``search``: null-window alpha-beta (the main search);
* ``partition``: the same search with winning-rank (partition) table entries,
  used for Whist;
* ``root``: the MTD(f) driver, and the all-pass talon-led tricks played
  before the main search;
* ``maxn``: all-pass, every seat for himself (max^n, the self-interested line);
* ``engine``: the ``Engine`` object; ``EngineBusy``, raised when one Engine is asked for two
  searches at once; ``stop_searches``, which stops every search under way as Ctrl-C does;
  ``DECLARE``, the flag of a move that leads a card declaring a marriage (``card | DECLARE``).
"""

from .engine import DECLARE, Engine, EngineBusy, stop_searches

__all__ = ["DECLARE", "Engine", "EngineBusy", "stop_searches"]
