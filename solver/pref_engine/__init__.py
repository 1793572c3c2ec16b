"""Fast exact double-dummy engine (Cython).

The folder is the algorithm's outline, one module per technique:

* ``state``: position, rules, move generation, trick resolution;
* ``moves``: move ordering;
* ``transtable``: the fixed-size transposition table on rank-relative holdings;
* ``quicktricks``: sure tricks of the side on lead, and the trumps either side surely makes;
* ``suretrick``: misère, the trick now starting surely the declarer's, or one he can lose
  (inline, ``.pxd`` only);
* ``rankbyrank``: misère, the declarer clean of or caught for every trick left, his cards
  compared with the defenders' rank by rank (inline, ``.pxd`` only);
* ``miseresteps``: misère, those rules in the order a trick's start asks them, shared by the
  search and an enumeration's root (inline, ``.pxd`` only);
* ``splitguess``: MTD(f)'s first guess in an enumeration of splits, from the values of
  earlier splits that share cards with it (inline, ``.pxd`` only);
* ``search``: null-window alpha-beta (the main search);
* ``partition``: the same search with winning-rank (partition) table entries,
  used for Whist;
* ``root``: the MTD(f) driver (in a misère enumeration, the root's leads in the order of
  their history over the earlier splits), and the all-pass talon-led tricks played
  before the main search;
* ``maxn``: all-pass, every seat for himself (max^n, the self-interested line);
* ``engine``: the ``Engine`` object; ``EngineBusy``, raised when one Engine is asked for two
  searches at once; ``stop_searches``, which stops every search under way as Ctrl-C does;
  ``DECLARE``, the flag of a move that leads a card declaring a marriage (``card | DECLARE``).

The modules are compiled once per CPU level, each copy a *kernel* (``pref_engine._kernels.<name>``,
see setup.py): ``modern`` (x86-64-v3: BMI2's PEXT/PDEP, POPCNT, AVX2), ``baseline`` (any x86-64,
and ARM64) and, in a developer build (``PREF_NATIVE=1``), ``native``. Importing ``pref_engine``
loads the fastest kernel this CPU runs, or the one the environment variable ``PREF_KERNEL``
names (``PREF_KERNEL=baseline``: for tests and bug reports); ``KERNEL`` says which.
"""

import importlib
import importlib.util
import os

from ._cpu import supported_kernels

#: Every kernel the build knows, fastest first.
KERNELS = ("native", "modern", "baseline")


def built_kernels() -> list[str]:
    """The kernels this install has, fastest first."""
    return [name for name in KERNELS if importlib.util.find_spec(f"{__name__}._kernels.{name}.engine") is not None]


def _choose_kernel() -> str:
    built = built_kernels()
    wanted = os.environ.get("PREF_KERNEL", "").strip()
    if not wanted:
        for name in supported_kernels():
            if name in built:
                return name
        raise ImportError(f"pref_engine: none of the kernels built here ({', '.join(built) or 'none'}) "
                          "runs on this CPU; reinstall pref-solver")
    if wanted not in KERNELS:
        raise ImportError(f"PREF_KERNEL={wanted}: unknown kernel (known: {', '.join(KERNELS)})")
    if wanted not in built:
        raise ImportError(f"PREF_KERNEL={wanted}: this install has no {wanted} kernel "
                          f"(built: {', '.join(built) or 'none'})")
    if wanted not in supported_kernels():
        raise ImportError(f"PREF_KERNEL={wanted}: this CPU cannot run the {wanted} kernel "
                          "(it needs x86-64-v3: AVX2, BMI2)")
    return wanted


#: The kernel in use: ``"modern"``, ``"baseline"`` or ``"native"``.
KERNEL = _choose_kernel()
_engine = importlib.import_module(f"{__name__}._kernels.{KERNEL}.engine")

DECLARE = _engine.DECLARE
Engine = _engine.Engine
EngineBusy = _engine.EngineBusy
stop_searches = _engine.stop_searches

__all__ = ["DECLARE", "KERNEL", "KERNELS", "Engine", "EngineBusy", "built_kernels", "stop_searches",
           "supported_kernels"]
