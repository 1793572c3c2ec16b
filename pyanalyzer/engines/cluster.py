"""The Dask backend of the executor: runs on the workers of a ``distributed`` cluster.

Imported only when a command is given ``--scheduler ADDRESS`` (or ``PREF_SCHEDULER``):
without it the package never imports Dask. Used through :mod:`pyanalyzer.engines.executor`::

    with DaskCluster("tcp://10.0.0.1:8786") as cluster, use_cluster(cluster):
        tally = solve_splits(...)       # its runs go to the cluster's workers

What a run on the cluster does (the executor's contract; ordering, signals, errors and
progress stay in :class:`pyanalyzer.engines.executor.Run`):

* **Warm state per worker.** Each worker process keeps, per worker thread, the state a run
  names (a :class:`pyanalyzer.engines.registry.WarmEngine`: the engine and its table),
  built on its first task and reused by every later task and run.
* **Chunked tasks.** Short units (under :data:`SHORT_UNIT_SECONDS` each by the time per unit
  measured so far; one unit per task at first) go out together, as many as take about
  :data:`TASK_SECONDS`, so that the cost of a task (a few milliseconds of the scheduler's, the
  client's and the worker's CPU, and a round trip) stays a small share of the work. Longer ones
  (an enumeration's blocks) go one per task, as the caller cut them: a run stopped early (a
  discard class dropped) then wastes no more than the unit under way on each worker, as locally.
  At most :data:`TASKS_PER_THREAD` tasks per worker thread are out at once: units are read
  lazily (a batch from standard input streams) and results come back as they finish.
* **Affinity.** Each worker thread has a slot (the workers sorted by address): a slot's tasks
  go to its worker (``allow_other_workers``: when that worker is gone they run elsewhere), and
  it takes its units from its own lane (:class:`pyanalyzer.engines.executor.Lanes`), so the
  same worker's engine sees the same share of every run.
* **Faults.** A worker that dies: the scheduler runs its tasks again elsewhere; each task's
  result is taken once, so nothing is lost or counted twice. A stop cancels the tasks out
  (Ctrl-C cancels the job on the cluster). The scheduler gone: :class:`ClusterLost`, the run
  ends like an interrupted one with what it had received.
"""

from __future__ import annotations

import asyncio
import math
import pickle
import queue
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable

import dask
from dask.utils import parse_timedelta
from distributed import Client
from distributed.comm import resolve_address
from distributed.core import rpc

from pyanalyzer.engines.executor import DONE, ERROR, ITEM, ClusterLost, UnitReader

#: Seconds of work a task of short units aims at, once the time per unit is known.
TASK_SECONDS = 0.5
#: Units that take less (on average, so far) are short: several go out in one task.
SHORT_UNIT_SECONDS = 0.1
#: Units in one task at most (whatever their measured time).
MAX_UNITS_PER_TASK = 10_000
#: Tasks out at once per worker thread: one running, one queued behind it.
TASKS_PER_THREAD = 2
#: Seconds the scheduler's list of workers is reused: runs that follow one another (a ranking's
#: enumerations) ask for it once, not twice per run while the workers wait.
WORKERS_SECONDS = 1.0


#: The states each worker process keeps between tasks and runs: ``(thread, factory) -> state``.
#: (A module-level cache rather than a registered worker plugin: registering one waits for
#: every worker's answer, so one hung worker would hold up every command at its start.)
_warm: dict = {}
_warm_lock = threading.Lock()


def _warm_state(factory):
    """This worker thread's state for ``factory``: built on first use, then kept."""
    if factory is None:
        return None
    key = (threading.get_ident(), factory)
    with _warm_lock:
        state = _warm.get(key)
    if state is None:
        state = factory()
        with _warm_lock:
            _warm[key] = state
    return state


def clear_warm_states() -> int:
    """Empty the tables of this worker's warm engines (run on every worker with
    ``client.run``: a benchmark's runs then start as cold as local ones). Returns how many."""
    with _warm_lock:
        states = list(_warm.values())
    for state in states:
        clear = getattr(state, "clear", None)
        if clear is not None:
            clear()
    return len(states)


class Units:
    """A task's units, pickled once by the client and unpickled once, in the task.

    Dask's scheduler unpickles a task's arguments and pickles them again for the worker, and
    ``Client.submit`` walks list and tuple arguments element by element looking for futures: for
    a block of thousands of splits both cost more CPU than the task's round trip. Bytes pass
    through both untouched (and the worker's event loop does not decode them either)."""

    __slots__ = ("_units", "_pickled")

    def __init__(self, units: list | None = None, pickled: bytes | None = None) -> None:
        self._units = units
        self._pickled = pickled

    @property
    def units(self) -> list:
        if self._units is None:
            self._units = pickle.loads(self._pickled)
        return self._units

    def __reduce__(self):
        if self._pickled is None:
            self._pickled = pickle.dumps(self._units, protocol=pickle.HIGHEST_PROTOCOL)
        return _pickled_units, (self._pickled,)


def _pickled_units(pickled: bytes) -> Units:
    return Units(pickled=pickled)


def run_units(work, factory, streams: bool, units: Units) -> tuple[list, float, float]:
    """One task on a worker: the units' events, in order, the seconds they took and the CPU
    seconds of the thread that ran them (less than the seconds when the worker had to wait for
    a core). An error ends the task (its event last); the units before it are delivered."""
    start, cpu = time.perf_counter(), time.thread_time()
    units = units.units
    events: list = []
    try:
        state = _warm_state(factory)
    except Exception as error:  # noqa: BLE001 (raised in the caller)
        return [(ERROR, None, error)], time.perf_counter() - start, time.thread_time() - cpu
    for index, unit in units:
        try:
            if streams:
                for item in work(state, unit):
                    events.append((ITEM, index, item))
            else:
                events.append((ITEM, index, work(state, unit)))
        except Exception as error:  # noqa: BLE001 (raised in the caller)
            events.append((ERROR, index, error))
            break
        events.append((DONE, index, None))
    return events, time.perf_counter() - start, time.thread_time() - cpu


class DaskCluster:
    """A connection to a Dask scheduler, for :func:`pyanalyzer.engines.executor.use_cluster`.

    ``timeout``: seconds to wait for the scheduler (default: Dask's
    ``distributed.comm.timeouts.connect``). Raises :class:`ClusterLost` when it cannot be reached.
    """

    def __init__(self, address: str, timeout: float | None = None) -> None:
        self.address = address
        try:   # (a client given a malformed address lingers and hangs the exit: checked first)
            resolve_address(address)
        except ValueError as error:
            raise ClusterLost(f"--scheduler {address!r} is not a scheduler address ({_reason(error)}); "
                              "write e.g. tcp://10.0.0.5:8786") from None
        except OSError as error:
            raise ClusterLost(f"cannot reach the Dask scheduler at {address}: {_reason(error)}") from None
        if timeout is None:
            timeout = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
        # Asked who it is before a client is made: a client that fails to connect (another
        # service at the address, garbage for an answer) lingers and hangs the exit.
        try:
            identity = asyncio.run(_identity(address, timeout))
        except Exception as error:  # noqa: BLE001 (whatever answered, or did not: one line)
            reason = _reason(error) if not isinstance(error, TimeoutError) else f"no answer in {timeout:g} s"
            raise ClusterLost(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
            raise ClusterLost(f"{address} is not a Dask scheduler (it says it is a "
                              f"{identity.get('type') if isinstance(identity, dict) else 'something else'})")
        # The client's event loop thread starts now: with the stop signals blocked, so that
        # Ctrl-C and SIGTERM stay with the calling thread (where a run takes them).
        stop_signals = {getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)}
        masked = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals) if masked else None
        try:
            self.client = Client(address, set_as_default=False, timeout=timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            raise ClusterLost(f"cannot reach the Dask scheduler at {address}: {_reason(error)}") from None
        finally:
            if masked:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        block_stop_signals_in_loop(self.client)
        #: Tasks whose results came back, the units in them, the seconds the workers spent on
        #: them and the CPU seconds of those seconds (for the overhead per task, benchmarks/cluster.py).
        self.tasks = self.units = 0
        self.task_seconds = self.task_cpu_seconds = 0.0
        self._threads: dict[str, int] = {}
        self._threads_asked = -math.inf

    def threads(self) -> dict[str, int]:
        """The worker threads of each worker now (asked of the scheduler at most once every
        :data:`WORKERS_SECONDS` while it has workers): ``{address: threads}``."""
        now = time.monotonic()
        if not self._threads or now - self._threads_asked > WORKERS_SECONDS:
            try:
                self._threads = dict(self.client.nthreads())
            except (OSError, TimeoutError):
                return self._threads
            self._threads_asked = now
        return self._threads

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now (1 while it has none: tasks wait for one)."""
        return max(1, sum(self.threads().values()))

    def pool(self, factory) -> DaskPool:
        return DaskPool(self, factory)

    def lost(self) -> bool:
        return self.client.status not in ("running", "connecting", "newly-created")

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        except (OSError, TimeoutError):   # the scheduler already gone: nothing to tell it
            pass

    def __enter__(self) -> DaskCluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def block_stop_signals_in_loop(client) -> None:
    """Block SIGINT and SIGTERM in the client's event loop thread (and so in the threads it
    starts): Dask may have started that thread before, with them open, and a signal taken
    there would raise KeyboardInterrupt in the main thread at any point, not where a run takes it."""
    if not hasattr(signal, "pthread_sigmask"):
        return
    stop_signals = {getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)}

    async def block() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)

    client.sync(block)


async def _identity(address: str, timeout: float) -> dict:
    scheduler = rpc(address, timeout=timeout)
    try:
        return await asyncio.wait_for(scheduler.identity(), timeout)
    finally:
        await scheduler.close_rpc()


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


class DaskPool:
    """The executor's pool on a Dask cluster (see the module's docstring)."""

    def __init__(self, cluster: DaskCluster, factory) -> None:
        self._cluster = cluster
        self._client = cluster.client
        self._factory = factory
        self._out: dict[str, object] = {}     # futures out, by key
        self._slot_of: dict[str, int] = {}    # the slot of each future out
        self._slot_keys: list[deque] = []     # each slot's futures out, oldest (likely running) first
        self._finished: queue.SimpleQueue = queue.SimpleQueue()   # futures done (callbacks)
        self._pending: deque = deque()        # events received, not yet taken
        self._exhausted = False
        self._ended = False
        self._units_done = 0
        self._seconds_done = 0.0

    def start(self, work, units: Iterable, streams: bool, stop: threading.Event) -> None:
        self._work = work
        self._streams = streams
        self._reader = UnitReader(units)
        self._stop = stop
        self._run = uuid.uuid4().hex[:12]
        threads = self._cluster.threads()
        #: One slot per worker thread, the workers sorted by address (None: no worker yet, any).
        self._slots = [address for address in sorted(threads) for _ in range(threads[address])] or [None]
        self._slot_keys = [deque() for _ in self._slots]
        if stop.is_set():
            self._ended = True
            return
        self._submit()

    def _units_per_task(self) -> int:
        if not self._units_done or self._seconds_done <= 0:
            return 1
        per_unit = self._seconds_done / self._units_done
        if per_unit >= SHORT_UNIT_SECONDS:
            return 1
        return max(1, min(MAX_UNITS_PER_TASK, int(TASK_SECONDS / per_unit)))

    def _submit(self) -> None:
        """Send tasks, each slot's to its worker, until every slot has its tasks out (or the units end)."""
        while not self._ended and not self._exhausted:
            slot = min(range(len(self._slots)), key=lambda number: len(self._slot_keys[number]))
            if len(self._slot_keys[slot]) >= TASKS_PER_THREAD:
                return
            group = []
            size = self._units_per_task()
            try:
                while len(group) < size:
                    group.append(self._reader.next_for(slot))
            except StopIteration:
                self._exhausted = True
            except BaseException as error:  # noqa: BLE001 (raised in the calling thread, as locally)
                self._exhausted = True
                self._pending.append((ERROR, None, error))
            if not group:
                return
            key = f"pref-{self._run}-{group[0][0]}"
            address = self._slots[slot]
            try:
                placement = {} if address is None else {"workers": [address], "allow_other_workers": True}
                future = self._client.submit(run_units, self._work, self._factory, self._streams, Units(group),
                                             key=key, pure=False, **placement)
            except (OSError, TimeoutError, RuntimeError) as error:
                self._lose(error)
                return
            self._out[key] = future
            self._slot_of[key] = slot
            self._slot_keys[slot].append(key)
            future.add_done_callback(self._finished.put)

    def take(self, timeout: float):
        if self._stop.is_set() and not self._ended:   # (set by the caller or the work)
            self.stop(interrupt=False)
        if not self._pending:
            # Every event delivered: the slots are refilled before waiting, so a worker whose
            # task just came back finds the next one queued behind the one it is running. (Not
            # while events wait: reading a pipe's next lines could hold up their delivery.)
            self._submit()
        if not self._pending and self._out:
            try:
                future = self._finished.get(timeout=timeout)
            except queue.Empty:
                if self._cluster.lost():
                    self._lose(None)
            else:
                self._collect(future)
        return self._pending.popleft() if self._pending else None

    def _collect(self, future) -> None:
        if self._out.pop(future.key, None) is None:   # cancelled by a stop: nothing to deliver
            return
        self._slot_keys[self._slot_of.pop(future.key)].remove(future.key)
        status = future.status
        if status == "finished":
            try:
                events, seconds, cpu_seconds = future.result()
            except Exception as error:  # noqa: BLE001 (the data could not be fetched)
                if self._cluster.lost():
                    self._lose(error)
                else:
                    self._pending.append((ERROR, None, error))
                return
            future.release()
            self._pending.extend(events)
            units = sum(kind == DONE for kind, _index, _payload in events)
            self._units_done += units
            self._seconds_done += seconds
            self._cluster.tasks += 1
            self._cluster.units += units
            self._cluster.task_seconds += seconds
            self._cluster.task_cpu_seconds += cpu_seconds
        elif status == "error":
            error = future.exception()
            future.release()
            self._pending.append((ERROR, None, error))
        else:   # cancelled without a stop of ours, or lost: the scheduler has gone
            self._lose(None)

    def _lose(self, error: BaseException | None) -> None:
        reason = f": {_reason(error)}" if error is not None else ""
        self._pending.append((ERROR, None, ClusterLost(
            f"lost the Dask scheduler at {self._cluster.address}{reason}")))
        self._ended = True
        self._out.clear()
        self._slot_of.clear()
        for keys in self._slot_keys:
            keys.clear()

    def finished(self) -> bool:
        if self._pending:
            return False
        return not self._out and (self._ended or self._exhausted)

    def stop(self, interrupt: bool) -> None:
        """No new task. The tasks queued behind each slot's oldest are cancelled (they have not
        started: a stop starts no unit, as locally); the oldest finish and are delivered, or with
        ``interrupt`` are cancelled too (their units are not delivered)."""
        self._ended = True
        keep = 0 if interrupt else 1
        futures = []
        for keys in self._slot_keys:
            while len(keys) > keep:
                key = keys.pop()
                self._slot_of.pop(key, None)
                futures.append(self._out.pop(key))
        if futures and not self._cluster.lost():
            try:
                self._client.cancel(futures)
            except (OSError, TimeoutError, RuntimeError):   # the scheduler has gone: nothing runs for us
                pass

    def close(self) -> None:
        self.stop(interrupt=True)
