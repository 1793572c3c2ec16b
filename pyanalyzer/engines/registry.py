"""The solvers behind the analyzers, behind one small interface.

* ``fast``: the Cython engine in ``solver/pref_engine/`` (the default);
* ``reference``: the plain minimax of :mod:`pyanalyzer.engines.reference`, the oracle.

Both take a position in the engine's primitive terms (see
:mod:`pyanalyzer.engines.reference`) and answer the same questions: the value,
each legal card's value, one optimal line, and (all-pass) the self-interested
line of play.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pyanalyzer.engines.reference import ReferenceSolver, self_interested_play
from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.position import Position

ENGINE_NAMES = ("fast", "reference")
#: The fast engine's transposition table when a command does not say (MB).
DEFAULT_TT_MB = 64
#: Each thread's share of an enumeration's one table (MB; :func:`make_backends`). A misère
#: enumeration of a hard hand (some 2,000 nodes a split) still finds entries to reuse in
#: 256 MB that 128 MB had lost (benchmarks/RESULTS.md, thirteenth session).
SPLITS_TT_MB = 128


def available_memory_mb() -> int | None:
    """Memory available to a new allocation, in MB (``MemAvailable`` of ``/proc/meminfo``,
    else the free physical pages); None if the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (ValueError, OSError, AttributeError):
        return None


def check_table_memory(size_mb: int, threads: int, advice: str = "lower --tt-mb or --threads") -> None:
    """Refuse one transposition table of ``size_mb`` per thread when they do not fit in the
    memory available now, before allocating any (one line instead of swapping or a MemoryError)."""
    available = available_memory_mb()
    needed = size_mb * threads
    if available is not None and needed > available:
        raise PrefInputError(
            f"{threads} thread{'s' if threads != 1 else ''} x a {size_mb:,} MB transposition table need "
            f"{needed:,} MB, but only {available:,} MB of memory is available: {advice}", "--tt-mb")


#: The plain minimax has no pruning beyond alpha-beta and a memo: with four hands a table of
#: 8 tricks takes seconds, 9 minutes, a full deal of 13 longer than anyone waits. Three
#: hands (Preferans) are fine up to the full 10 tricks (10-80 s).
REFERENCE_MAX_TRICKS_FOUR_HANDS = 8


def check_reference_size(position: Position) -> None:
    """Refuse a position too large for the reference minimax, in one line, before searching."""
    if position.seats >= 4 and position.tricks_left > REFERENCE_MAX_TRICKS_FOUR_HANDS:
        raise PrefInputError(
            f"the reference engine (the plain minimax used as test oracle) is for small endings: at most "
            f"{REFERENCE_MAX_TRICKS_FOUR_HANDS} tricks with four hands, not {position.tricks_left}; "
            "use --engine fast", "--engine")


class ReferenceBackend:
    """The plain Python minimax. Its memo is kept while the rules stay the same."""

    name = "reference"

    def __init__(self) -> None:
        self._solver: ReferenceSolver | None = None
        self.nodes = 0

    def _for(self, position: Position) -> ReferenceSolver:
        check_reference_size(position)
        solver = self._solver
        if solver is None or not solver.fits(position):
            solver = self._solver = ReferenceSolver.for_position(position)
        return solver

    def _counted(self, position: Position, method: str):
        solver = self._for(position)
        before = solver.nodes
        result = getattr(solver, method)(position)
        self.nodes += solver.nodes - before
        return result

    def solve(self, position: Position) -> int:
        return self._counted(position, "solve")

    def card_values(self, position: Position) -> dict[int, int]:
        return self._counted(position, "card_values")

    def best_line(self, position: Position) -> list[int]:
        return self._counted(position, "best_line")

    def self_interested(self, position: Position, rostov: bool = False,
                        taken=None) -> tuple[tuple[int, ...], list[int]]:
        """All-pass, every seat for himself (plain max^n; see ``reference.self_interested_play``)."""
        return self_interested_play(position, rostov, taken)

    def clear(self) -> None:
        self._solver = None


class FastBackend:
    """The Cython engine, with its fixed-size transposition table kept warm between calls."""

    name = "fast"

    def __init__(self, tt_size_mb: int = DEFAULT_TT_MB, share_with: FastBackend | None = None) -> None:
        from pref_engine import Engine

        try:
            self._engine = Engine(tt_size_mb=tt_size_mb,
                                  share_with=None if share_with is None else share_with._engine)
        except MemoryError:
            raise PrefInputError(f"cannot allocate a transposition table of {tt_size_mb:,} MB: not enough "
                                 "memory (lower --tt-mb or --threads)", "--tt-mb") from None
        self.nodes = 0

    def _counted(self, position: Position, method: str):
        return self._counted_call(getattr(self._engine, method), position)

    def solve(self, position: Position) -> int:
        return self._counted(position, "solve")

    def card_values(self, position: Position) -> dict[int, int]:
        return self._counted(position, "card_values")

    def best_line(self, position: Position) -> list[int]:
        return self._counted(position, "best_line")

    def self_interested(self, position: Position, rostov: bool = False,
                        taken=None) -> tuple[tuple[int, ...], list[int]]:
        """All-pass, every seat for himself (max^n; see ``solver.Engine.self_interested``)."""
        return self._counted_call(self._engine.self_interested, position, rostov, taken)

    def _counted_call(self, method, *args):
        """``method(*args)``, its nodes added to ``self.nodes`` (also those of a search that
        Ctrl-C stopped: an interrupted run reports the work it did)."""
        self._engine.reset_stats()
        try:
            return method(*args)
        finally:
            self.nodes += self._engine.stats["nodes"]

    def solve_batch(self, position: Position, seats, known, splits) -> list[int]:
        """Values of layouts differing only at ``seats`` (see ``solver.Engine.solve_batch``)."""
        return self._counted_call(self._engine.solve_batch, position, seats, known, splits)

    @property
    def table_bytes(self) -> int:
        return self._engine.tt_bytes

    @property
    def shared_table(self):
        """The engine's plain table: the same object for backends that share one."""
        return self._engine.shared_table

    def clear(self) -> None:
        self._engine.clear()


def engine_kernel() -> str:
    """The fast engine's kernel in use: ``"modern"`` (x86-64-v3), ``"baseline"`` or ``"native"``
    (see ``pref_engine``; ``PREF_KERNEL`` forces one). ImportError if the engine cannot load."""
    import pref_engine

    return pref_engine.KERNEL


def fast_engine_available() -> bool:
    try:
        from pref_engine import Engine  # noqa: F401
    except ImportError:
        return False
    return True


def make_backend(name: str = "fast", tt_size_mb: int = DEFAULT_TT_MB):
    """A backend by name: ``fast`` (the Cython engine) or ``reference``."""
    if name == "reference":
        return ReferenceBackend()
    if name == "fast":
        return FastBackend(tt_size_mb=tt_size_mb)
    raise ValueError(f"unknown engine {name!r}; choose from {', '.join(ENGINE_NAMES)}")


def make_backends(name: str, count: int, tt_size_mb: int = SPLITS_TT_MB) -> list:
    """``count`` backends for the threads of one enumeration: fast engines that share one table
    of ``count x tt_size_mb`` (the memory of a table each; the splits one thread solves use the
    entries of the other's, see :mod:`pyanalyzer.analysis.splits`)."""
    if name != "fast" or count <= 1:
        return [make_backend(name, tt_size_mb) for _ in range(max(1, count))]
    first = FastBackend(tt_size_mb * count)
    return [first, *(FastBackend(tt_size_mb, share_with=first) for _ in range(count - 1))]


def share_one_table(backends) -> bool:
    """True if the backends are several fast engines sharing one table (:func:`make_backends`)."""
    table = getattr(backends[0], "shared_table", None) if len(backends) > 1 else None
    return table is not None and all(getattr(backend, "shared_table", None) is table for backend in backends)


@dataclass(frozen=True)
class WarmEngine:
    """What a cluster worker solves with: an engine by name and table size, built on the worker
    the first time and kept there (its table warm) for every later task that names the same.
    Picklable and hashable, the key of the worker's engines (:mod:`pyanalyzer.engines.cluster`)."""

    name: str = "fast"
    tt_size_mb: int = DEFAULT_TT_MB

    def __call__(self):
        return make_backend(self.name, self.tt_size_mb)
