"""One parallel executor: units of work on N workers, each owning its state; results in the calling thread.

Enumerations over the unknown cards (:mod:`pyanalyzer.analysis.splits`), double-dummy tables
(:mod:`pyanalyzer.whist.table`) and the puzzle generator (:mod:`pyanalyzer.preferans.puzzles`) all run
their parallel work here::

    run = Executor(states=engines).map(solve_block, blocks, ordered=False, stop=stop, tick=show)
    with run:
        for result in run:      # in the calling thread: bookkeeping needs no lock
            merge(result)
    run.interrupted             # Ctrl-C or SIGTERM ended it: what was merged is partial

The contract, the same for every backend:

* **Workers and their state.** Each worker owns one state for the whole run: one of
  ``states`` (engines the caller keeps across runs, with their tables) or one built once by
  ``factory`` inside the worker. ``work(state, unit)`` returns the unit's result; with
  ``streams=True`` it returns an iterable whose items are delivered one by one as they come
  (a Whist denomination's four searches: each entry counts even if the unit is cut short).
* **Delivery.** ``ordered=True``: results in the order of ``units``, whatever the number of
  workers and the timing (after a stop: up to the first unit not finished);
  ``ordered=False``: as they come. ``units`` is read lazily.
* **Lanes.** ``units`` may be :class:`Lanes`, one sequence of units per worker (unordered runs
  only): worker *n* takes lane *n*'s units in their order, so that its state (an engine's
  table) sees consecutive work, run after run on the same lane; a worker whose lane is empty
  takes the next units of the other lanes. (An enumeration's engines need markedly fewer
  nodes when each one solves a contiguous share of the splits than when they take turns.)
* **Stop.** ``stop`` (a :class:`threading.Event`, shared with the work so that long units
  can poll it) is set by :meth:`Run.stop` (an early stop: ``stop_when``, enough puzzles), by
  Ctrl-C, by an error. No unit starts after it; the results of the units that still finish
  are delivered, then the iteration ends.
* **Ctrl-C and SIGTERM** (when their handlers raise KeyboardInterrupt, as Python's and the
  ``pref`` command's do) are taken by the run in the main thread: blocked while the run's
  own code runs (the worker threads are started with them blocked, so no handler runs in
  them), read synchronously between waits, and turned into a stop that also stops the
  engine searches under way; ``interrupted`` is then true and nothing is raised. A second
  signal during the stop is part of the same stop. Inside ``with run:`` the body is covered
  too, so the caller's bookkeeping is never cut in the middle; a run iterated without
  ``with`` (a generator that yields the results on) is covered only while it waits, and
  its owner calls :meth:`Run.close`. Off the main thread (or without ``sigtimedwait``) a
  KeyboardInterrupt in the waiting thread starts the stop and further ones are absorbed.
  Control never returns while a worker thread still runs: an engine belongs to the one
  search running on it, and a worker still searching would corrupt the next run on it.
  A stop whose KeyboardInterrupt was dropped (raised in a finaliser) is kept by
  :func:`stop_next_run`: the next run starts interrupted.
* **Errors.** A worker's exception (or the factory's, or ``units``') stops the run and is
  raised in the calling thread once every worker has returned. A KeyboardInterrupt from a
  worker (a search stopped by the signal) is part of the interruption, not an error.
* **Progress.** ``tick()`` is called from the calling thread about every ``interval``
  seconds until an interruption; it may raise KeyboardInterrupt (a progress display that
  takes Ctrl-C), which interrupts the run.

Backends:

* **threads** (the default): for work that releases the GIL, as the engine does while it
  searches. The workers read ``units`` themselves, one at a time under a lock.
* **processes** (``processes=True``, POSIX fork; where there is no fork, Windows, threads
  instead): for Python-heavy work (the puzzle generator). Each child builds its state with
  ``factory``, ignores SIGINT (the caller's business) and dies on SIGTERM; units and results
  travel pickled over one pipe per child, at most two units queued on each. A stop
  terminates the children: they own nothing the caller shares, so their units under way are
  abandoned. A child killed by SIGTERM (or SIGINT) interrupts the run as the caller's own
  signal does: a stop sent to the whole process group (``timeout``, a service manager's stop,
  ``kill -TERM -PGID``) often reaches the children before the caller takes its own.

* **a Dask cluster** (:mod:`pyanalyzer.engines.cluster`, imported only when a command is
  given ``--scheduler``): inside :func:`use_cluster`, a run whose executor names a
  ``remote`` state (a picklable factory, e.g. :class:`pyanalyzer.engines.registry.WarmEngine`)
  goes to the cluster's workers; other runs stay local. ``work`` and the units must then
  pickle (module-level functions, :func:`functools.partial` of them).

A backend is a *pool* with five operations, used only by :class:`Run` --
``start(work, units, streams, stop)``; ``take(timeout)``, the next event ``(kind, unit
index, payload)`` (a result item, a unit done, an error) or None; ``finished()``, true once
no worker runs and no event is left; ``stop(interrupt)``, no new unit (``interrupt``: stop
the work under way too); ``close()``, returns once every worker has ended. Ordering,
signals, errors and ticks stay in :class:`Run`. A pool that loses its cluster reports a
:class:`ClusterLost` error: the run ends as an interrupted one (what was delivered stands,
marked partial) and :func:`cluster_loss` says why.
"""

from __future__ import annotations

import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

#: The events a pool hands to its run: ``(kind, unit index, payload)``.
ITEM, DONE, ERROR = "item", "done", "error"
#: A worker process's exit status when a stop signal killed it (``-signum``).
STOPPED_BY_SIGNAL = frozenset(-getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))


class Lanes:
    """Units in lanes, one per worker (see the module's docstring): ``Lanes([first, second])``."""

    def __init__(self, lanes: Sequence[Iterable]) -> None:
        if not lanes:
            raise ValueError("lanes need at least one lane")
        self.lanes = list(lanes)


class UnitReader:
    """The units as the workers take them: numbered in the order taken; ``Lanes`` or one
    sequence shared by all. Not thread-safe (the thread pool reads it under its lock)."""

    def __init__(self, units: Iterable | Lanes) -> None:
        lanes = units.lanes if isinstance(units, Lanes) else [units]
        self._lanes: list[Iterator | None] = [iter(lane) for lane in lanes]
        self._taken = 0

    def next_for(self, worker: int) -> tuple[int, object]:
        """The next unit for ``worker``: from its own lane, else from the next lane not empty.
        StopIteration once every lane is empty."""
        count = len(self._lanes)
        for step in range(count):
            lane = (worker + step) % count
            units = self._lanes[lane]
            if units is None:
                continue
            try:
                unit = next(units)
            except StopIteration:
                self._lanes[lane] = None
                continue
            self._taken += 1
            return self._taken - 1, unit
        raise StopIteration


class ClusterLost(Exception):
    """The cluster a run was on went away (its scheduler unreachable): the run ends like an
    interrupted one, keeping what was delivered."""


#: The cluster runs go to (set by :func:`use_cluster`), and the last loss of one.
_cluster = None
_cluster_loss: ClusterLost | None = None


@contextmanager
def use_cluster(cluster) -> Iterator[None]:
    """Send the runs that can go remote (executors with a ``remote`` state) to ``cluster``
    (an object with ``workers`` and ``pool(remote)``, see :mod:`pyanalyzer.engines.cluster`)."""
    global _cluster, _cluster_loss
    previous, _cluster, _cluster_loss = _cluster, cluster, None
    try:
        yield
    finally:
        _cluster = previous


def cluster_loss() -> ClusterLost | None:
    """Why the last run on a cluster ended early because the cluster went away (None if none did)."""
    return _cluster_loss


def _note_cluster_loss(error: ClusterLost) -> None:
    global _cluster_loss
    _cluster_loss = error


def _stop_signals() -> set:
    """The signals whose handler raises KeyboardInterrupt (Python's for SIGINT; the ``pref``
    command's for SIGTERM): those are taken by a run. A program with its own handlers keeps them."""
    taken = set()
    for name in ("SIGINT", "SIGTERM"):
        number = getattr(signal, name, None)
        handler = signal.getsignal(number) if number is not None else None
        if handler is signal.default_int_handler or getattr(handler, "raises_keyboard_interrupt", False):
            taken.add(number)
    return taken


def _can_take_signals() -> bool:
    return (hasattr(signal, "pthread_sigmask") and hasattr(signal, "sigtimedwait")
            and threading.current_thread() is threading.main_thread())


def _take_signal(signals: set) -> bool:
    """Consume the pending (blocked) ``signals``; True if there was one."""
    taken = False
    while signal.sigtimedwait(signals, 0) is not None:
        taken = True
    return taken


#: A stop asked where its KeyboardInterrupt could not be raised (see :func:`stop_next_run`).
_stop_pending = False


def stop_next_run() -> None:
    """A Ctrl-C or SIGTERM whose KeyboardInterrupt was dropped (its handler ran inside a
    finaliser or a weakref callback, where an exception cannot propagate): the next run
    starts interrupted, so that the stop is not lost (the ``pref`` program calls this)."""
    global _stop_pending
    _stop_pending = True


def _take_pending_stop() -> bool:
    global _stop_pending
    pending, _stop_pending = _stop_pending, False
    return pending


@contextmanager
def stop_signals_taken_by_runs() -> Iterator[None]:
    """Ctrl-C and SIGTERM (those a run takes) blocked in this thread for the whole block,
    between and after its runs too: one that comes outside a run is taken by the next run
    (its first wait: interrupted), one after the last run by nobody, the work being done.
    For a command whose work is all in runs (an enumeration) and its printing: a signal in
    the milliseconds between the last run and the print can no longer throw the finished
    result away. An engine search of this thread outside a run would not be stopped:
    never around one."""
    signals = _stop_signals() if _can_take_signals() else set()
    if not signals:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        try:
            _take_signal(signals)   # after the last run: the work is done and written
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


_stops_lock = threading.Lock()
_stops_issued = 0


def searches_stopped() -> int:
    """How many times :func:`stop_running_searches` has been called in this process: a caller
    that notes it before its searches and finds it unchanged after them knows that no such
    stop cut one of them short (a stopped block returns fewer values without raising). Stops
    by the engine's own signal hook are not counted."""
    with _stops_lock:
        return _stops_issued


def stop_running_searches() -> None:
    """Stop the engine searches under way in this process (as the engine's own Ctrl-C hook does)."""
    global _stops_issued
    # Counted and issued under one lock: a caller reading the count either sees it unchanged
    # and begins its searches after the stop (which then does not reach them), or sees it move.
    try:
        from pref_engine import stop_searches
    except ImportError:  # the reference engine only: nothing runs without the GIL, nothing stops
        return
    with _stops_lock:
        _stops_issued += 1
        stop_searches()


class Executor:
    """Runs units of work on ``workers`` workers (threads, or forked processes).

    Give either ``states`` (one per worker, e.g. engines reused across runs; the number of
    workers is their number) or ``factory`` (called once in each worker to build its state),
    or neither (every state is None). ``remote``: the state a cluster worker uses (a picklable
    factory, its result kept warm on the worker across runs); with it, the runs go to the
    cluster in use (:func:`use_cluster`), if any, and :attr:`workers` is the cluster's.
    See the module's docstring for the contract.
    """

    def __init__(self, workers: int | None = None, *, states: Sequence[object] | None = None,
                 factory: Callable[[], object] | None = None, processes: bool = False,
                 remote: Callable[[], object] | None = None) -> None:
        if states is not None and factory is not None:
            raise ValueError("give states or a factory, not both")
        if states is not None:
            if workers is not None and workers != len(states):
                raise ValueError(f"{workers} workers for {len(states)} states")
            workers = len(states)
        workers = 1 if workers is None else workers
        if workers < 1:
            raise ValueError(f"an executor needs at least one worker, not {workers}")
        if processes and states is not None:
            raise ValueError("worker processes build their own state: give a factory")
        self.states = None if states is None else list(states)
        self.factory = factory
        self.processes = processes and _can_fork()
        #: The cluster the runs go to (None: they run here).
        self.cluster = _cluster if remote is not None else None
        self.remote = remote
        #: Workers the runs are shared among (the cluster's worker threads, when on one).
        self.workers = workers if self.cluster is None else max(1, self.cluster.workers)

    def map(self, work: Callable[[object, object], object], units: Iterable, *, ordered: bool = True,
            streams: bool = False, stop: threading.Event | None = None,
            tick: Callable[[], None] | None = None, interval: float = 0.2) -> Run:
        """A run of ``work(state, unit)`` over ``units``: iterate it for the results (inside
        ``with run:``, or calling :meth:`Run.close` when done). Nothing starts before the
        first result is asked for (or the ``with``)."""
        if ordered and isinstance(units, Lanes):
            raise ValueError("lanes are for unordered runs: their units are numbered as taken")
        if self.cluster is not None:
            pool = self.cluster.pool(self.remote)
        elif self.processes:
            pool = _ProcessPool(self.workers, self.factory)
        else:
            pool = _ThreadPool(self.workers, self.states, self.factory)
        return Run(pool, work, units, ordered=ordered, streams=streams,
                   stop=threading.Event() if stop is None else stop, tick=tick, interval=interval)


class Run:
    """One run of an :class:`Executor`: an iterator over the results, and a context manager."""

    def __init__(self, pool, work, units: Iterable, *, ordered: bool, streams: bool,
                 stop: threading.Event, tick, interval: float) -> None:
        self._pool = pool
        self._work = work
        self._units = units
        self._streams = streams
        self._ordered = ordered
        self.stop_event = stop
        self._tick = tick
        self._interval = interval
        #: Ended by Ctrl-C, SIGTERM, a KeyboardInterrupt from ``tick`` or from a worker.
        self.interrupted = False
        #: Ended early by :meth:`stop`.
        self.stopped = False
        #: The cluster went away (then ``interrupted`` is true too): why.
        self.lost: ClusterLost | None = None
        self._error: BaseException | None = None
        self._started = False
        self._closed = False
        self._ready: deque = deque()            # results as they come (unordered)
        self._items: dict[int, deque] = {}      # results per unit (ordered)
        self._done: set[int] = set()
        self._next_unit = 0
        self._signals = _stop_signals() if _can_take_signals() else set()
        self._depth = 0
        self._mask: set | None = None
        self._next_tick = 0.0

    # -- signals -------------------------------------------------------------------------

    def _hold(self) -> None:
        """Block the stop signals in this thread (nested: the outermost release restores the mask)."""
        if self._signals:
            if not self._depth:
                self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, self._signals)
            self._depth += 1

    def _release(self) -> None:
        """End one hold; at the outermost, a signal that came meanwhile is taken as an
        interruption (never raised) before the mask is restored."""
        if self._signals:
            self._depth -= 1
            if not self._depth:
                try:
                    if _take_signal(self._signals):
                        self._on_signal()
                finally:   # a failing stop (a lost cluster) must not leave Ctrl-C blocked
                    signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)

    @contextmanager
    def _held(self) -> Iterator[None]:
        self._hold()
        try:
            yield
        finally:
            self._release()

    def _on_signal(self) -> None:
        if not self.interrupted:   # a second one is part of the same stop
            self.interrupt()

    # -- control -------------------------------------------------------------------------

    def stop(self) -> None:
        """Start no new unit; the units under way finish (abandoned by processes)."""
        self.stopped = True
        self.stop_event.set()
        if self._started:
            self._pool.stop(interrupt=False)

    def interrupt(self) -> None:
        """What Ctrl-C does: stop, and stop the engine searches under way."""
        self.interrupted = True
        self.stop_event.set()
        if self._started and not self._pool.finished():
            self._pool.stop(interrupt=True)

    def close(self) -> None:
        """Stop (if not done) and return once no worker runs. Raises nothing of the workers'."""
        if self._closed:
            return
        with self._held():
            while self._started:
                try:
                    if not self._pool.finished():
                        self.stop_event.set()
                        self._pool.stop(interrupt=self.interrupted)
                    while not self._pool.finished():
                        self._wait_once(ticking=False)
                    self._pool.close()
                    break
                except KeyboardInterrupt:   # (only where the signals cannot be blocked): the same stop
                    self._on_signal()
            self._closed = True

    def __enter__(self) -> Run:
        self._hold()              # until __exit__; the workers start with the signals blocked
        try:
            self._start()
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, kind, error, trace) -> None:
        try:
            if kind is not None and issubclass(kind, KeyboardInterrupt):
                self.interrupt()
            self.close()
        finally:
            self._release()

    # -- results -------------------------------------------------------------------------

    def __iter__(self) -> Run:
        return self

    def __next__(self):
        if self._closed:
            raise StopIteration
        with self._held():
            try:
                self._start()
                while True:
                    if self._error is None:
                        found, item = self._pop_ready()
                        if found:
                            return item
                    if self._pool.finished():
                        break
                    self._wait_once(ticking=True)
            except BaseException:   # (the pool's own failure): no worker may outlive the run
                self.interrupt()
                self.close()
                raise
            self._pool.close()
            self._closed = True
            if self._error is not None:
                raise self._error
            raise StopIteration

    def _start(self) -> None:
        if not self._started:
            self._started = True
            if _take_pending_stop():   # no unit starts
                self.interrupted = True
                self.stop_event.set()
            self._next_tick = time.monotonic() + self._interval
            self._pool.start(self._work, self._units, self._streams, self.stop_event)

    def _pop_ready(self) -> tuple[bool, object]:
        if not self._ordered:
            return (True, self._ready.popleft()) if self._ready else (False, None)
        while True:
            items = self._items.get(self._next_unit)
            if items:
                return True, items.popleft()
            if self._next_unit not in self._done:
                return False, None
            self._done.discard(self._next_unit)
            self._items.pop(self._next_unit, None)
            self._next_unit += 1

    def _wait_once(self, ticking: bool) -> None:
        """Wait for the next event (at most until the next tick), then take the signals and tick."""
        timeout = self._interval
        if ticking:
            timeout = max(0.0, min(timeout, self._next_tick - time.monotonic()))
        try:
            event = self._pool.take(timeout)
        except KeyboardInterrupt:   # (only where the signals cannot be blocked)
            self._on_signal()
            return
        if event is not None:
            self._record(*event)
        if self._signals and _take_signal(self._signals):
            self._on_signal()
        if ticking and time.monotonic() >= self._next_tick:
            self._next_tick = time.monotonic() + self._interval
            if self._tick is not None and not self.interrupted:
                try:
                    self._tick()
                except KeyboardInterrupt:
                    self._on_signal()
                except BaseException as error:  # noqa: BLE001 (raised once the workers are done)
                    self._fail(error)

    def _record(self, kind: str, index: int | None, payload) -> None:
        if kind == ITEM:
            if self._ordered:
                self._items.setdefault(index, deque()).append(payload)
            else:
                self._ready.append(payload)
        elif kind == DONE:
            if self._ordered:
                self._done.add(index)
        else:  # ERROR
            if self._ordered and index is not None:
                self._done.add(index)
            if isinstance(payload, ClusterLost):   # what was delivered stands, marked partial
                self.lost = payload
                _note_cluster_loss(payload)
                self.interrupted = True
                self.stop_event.set()
                self._pool.stop(interrupt=True)
            elif isinstance(payload, KeyboardInterrupt):   # a search stopped by the signal
                self.interrupted = True
                self.stop_event.set()
                self._pool.stop(interrupt=False)
            else:
                self._fail(payload)

    def _fail(self, error: BaseException) -> None:
        if self._error is None:
            self._error = error
        self.stop_event.set()
        self._pool.stop(interrupt=False)


class _ThreadPool:
    """Worker threads reading the units themselves; events through one queue."""

    def __init__(self, count: int, states: list | None, factory) -> None:
        self._count = count
        self._states = states
        self._factory = factory
        self._threads: list[threading.Thread] = []

    def start(self, work, units: Iterable, streams: bool, stop: threading.Event) -> None:
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self._reader = UnitReader(units)
        self._lock = threading.Lock()
        self._stop = stop
        self._running = self._count
        self._all_returned = threading.Event()
        self._threads = [threading.Thread(target=self._serve, args=(number, work, streams), daemon=True)
                         for number in range(self._count)]
        for thread in self._threads:
            thread.start()

    def _serve(self, number: int, work, streams: bool) -> None:
        put = self._events.put
        try:
            try:
                state = (self._states[number] if self._states is not None
                         else self._factory() if self._factory is not None else None)
            except BaseException as error:  # noqa: BLE001 (raised in the calling thread)
                self._stop.set()
                put((ERROR, None, error))
                return
            while not self._stop.is_set():
                with self._lock:
                    try:
                        index, unit = self._reader.next_for(number)
                    except StopIteration:
                        return
                    except BaseException as error:  # noqa: BLE001 (raised in the calling thread)
                        self._stop.set()
                        put((ERROR, None, error))
                        return
                if self._stop.is_set():   # taken after the stop: not started
                    return
                try:
                    if streams:
                        for item in work(state, unit):
                            put((ITEM, index, item))
                    else:
                        put((ITEM, index, work(state, unit)))
                except BaseException as error:  # noqa: BLE001 (raised in the calling thread)
                    self._stop.set()
                    put((ERROR, index, error))
                    return
                put((DONE, index, None))
        finally:
            with self._lock:
                self._running -= 1
                last = not self._running
            if last:
                self._all_returned.set()
                put(None)   # wakes the waiting run

    def take(self, timeout: float):
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def finished(self) -> bool:
        return self._all_returned.is_set() and self._events.empty()

    def stop(self, interrupt: bool) -> None:
        self._stop.set()
        if interrupt:
            stop_running_searches()

    def close(self) -> None:
        for thread in self._threads:
            thread.join()  # each has returned from its work (finished): this only reaps it


def _serve_in_process(connection, work, factory, streams: bool) -> None:
    """A worker process: units in, events out, over its own pipe (no shared locks, so a worker
    stopped at any moment cannot leave the parent blocked). Ctrl-C is the parent's business:
    SIGINT is ignored, and SIGTERM (sent by the parent) ends the process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stop_signals = {signal.SIGINT}
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        stop_signals.add(signal.SIGTERM)
    if hasattr(signal, "pthread_sigmask"):   # forked from a run that holds them
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
    state_error = None
    try:
        state = factory() if factory is not None else None
    except Exception as error:  # noqa: BLE001 (raised in the parent with the first unit)
        state, state_error = None, error
    while True:
        try:
            index, unit = connection.recv()
        except (EOFError, OSError):  # the parent has gone
            return
        try:
            if state_error is not None:
                raise state_error
            if streams:
                for item in work(state, unit):
                    connection.send((ITEM, index, item))
            else:
                connection.send((ITEM, index, work(state, unit)))
            connection.send((DONE, index, None))
        except Exception as error:  # noqa: BLE001 (raised again in the parent)
            connection.send((ERROR, index, error))


def _can_fork() -> bool:
    """Worker processes are forked: not on Windows, where the runs take threads instead."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


class _ProcessPool:
    """Forked worker processes, each with its own pipe and at most ``IN_FLIGHT`` units queued."""

    IN_FLIGHT = 2

    def __init__(self, count: int, factory) -> None:
        self._count = count
        self._factory = factory
        self._workers: list = []
        self._queued: dict = {}          # units sent to each worker's pipe and not answered
        self._pending: deque = deque()   # events received, not yet taken
        self._exhausted = False
        self._ended = False

    def start(self, work, units: Iterable, streams: bool, stop: threading.Event) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._reader = UnitReader(units)
        self._stop = stop
        if stop.is_set():   # stopped before it began: nothing to start
            self._ended = True
            return
        for _ in range(self._count):
            parent_end, child_end = context.Pipe()
            process = context.Process(target=_serve_in_process, args=(child_end, work, self._factory, streams),
                                      daemon=True)
            process.start()
            child_end.close()
            self._workers.append((process, parent_end))
        self._queued = {connection: 0 for _, connection in self._workers}

    def _feed(self) -> None:
        """Queue units breadth-first: one more to each worker per round, up to ``IN_FLIGHT``."""
        while not self._exhausted:
            sent = False
            for number, (connection, queued) in enumerate(self._queued.items()):
                if queued >= self.IN_FLIGHT:
                    continue
                try:
                    task = self._reader.next_for(number)
                except StopIteration:
                    self._exhausted = True
                    return
                except Exception as error:  # noqa: BLE001 (raised in the calling thread)
                    self._exhausted = True
                    self._pending.append((ERROR, None, error))
                    return
                try:
                    connection.send(task)
                except OSError:   # (BrokenPipeError) the worker has died
                    self._died(connection)
                    return
                self._queued[connection] += 1
                sent = True
            if not sent:
                return

    def take(self, timeout: float):
        from multiprocessing.connection import wait

        if self._stop.is_set() and not self._ended:   # (set by the caller or the work)
            self.stop(interrupt=False)
        if not self._pending and not self._ended:
            self._feed()
            if not self._ended and any(self._queued.values()):
                for connection in wait(list(self._queued), timeout):
                    try:
                        event = connection.recv()
                    except (EOFError, OSError):
                        self._died(connection)
                        break
                    if event[0] != ITEM:
                        self._queued[connection] -= 1
                    self._pending.append(event)
        return self._pending.popleft() if self._pending else None

    def _died(self, connection) -> None:
        process = next(p for p, c in self._workers if c is connection)
        process.join(1)
        if process.exitcode in STOPPED_BY_SIGNAL:   # a stop sent to the whole group: an interruption
            self._pending.append((ERROR, None, KeyboardInterrupt()))
        else:
            self._pending.append((ERROR, None, RuntimeError(
                f"a worker process ended unexpectedly (exit status {process.exitcode})")))
        self.stop(interrupt=False)

    def finished(self) -> bool:
        if self._pending:
            return False
        return self._ended or (self._exhausted and not any(self._queued.values()))

    def stop(self, interrupt: bool) -> None:
        """The children own nothing the caller shares: end them now."""
        self._ended = True
        for process, _connection in self._workers:
            if process.is_alive():
                process.terminate()

    def close(self) -> None:
        self.stop(interrupt=False)
        for process, connection in self._workers:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
            connection.close()
        self._workers = []
