"""The web server's bounded pool: a fixed number of worker threads, each owning one engine (its
transposition table kept from one request to the next), and a bounded waiting line.

* ``submit(task)`` hands ``task(engine, job)`` to the pool and returns the :class:`Job` at once;
  when every worker is busy and the waiting line is full it raises :class:`PoolFull` (the
  server answers 503).
* A job can be cancelled (:meth:`Job.cancel`): a job not started never runs; an enumeration
  under way stops after its block of searches (it asks :meth:`Job.stop_requested` between
  blocks); any other job has its search stopped. Its worker is free again as soon as the task
  returns.
* The engine's stop is process-wide (``pref_engine.stop_searches`` stops every search under
  way, as Ctrl-C does): a search of another job stopped by it raises KeyboardInterrupt, or
  a block of an enumeration returns fewer values without raising, although that job was not
  cancelled. So a job that was running while any such stop was issued is run again from the
  start (the stopped engine has cleared its table, so the rerun is exact), up to
  ``MAX_RERUNS`` times, whether or not the stop reached one of its searches. (A signal stops
  the searches through the engine's own hook, uncounted: the server is then stopping. A job
  whose block came back short between the signal and the pool's close, which cancels every
  job, can end "done" with that result, marked partial.)
* :meth:`close` stops everything (jobs cancelled, searches stopped) and joins the workers.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable

from pyanalyzer.engines.executor import searches_stopped, stop_running_searches

log = logging.getLogger("pyanalyzer.web")

#: Reruns of a job that was running while another job's cancel stopped the searches, before
#: giving up.
MAX_RERUNS = 3


class PoolFull(RuntimeError):
    """Every worker is busy and the waiting line is full."""


class JobCancelled(RuntimeError):
    """The job was cancelled (by its client, its time limit or the server stopping)."""


class Job:
    """One unit of work in the pool: its state, progress, result or error."""

    def __init__(self, task: Callable[[object, Job], object], kind: str) -> None:
        self.id = uuid.uuid4().hex[:16]
        self.kind = kind
        self.task = task
        self.state = "queued"  # queued, running, done, failed, cancelled
        self.done = 0
        self.total = 0
        #: What the job is doing now, when it runs in stages (``card Ks 2 of 5``).
        self.stage_text = ""
        self.stage_unit: str | None = None
        self.result: object = None
        self.error: BaseException | None = None
        self.reason = ""
        self.created = time.monotonic()
        self.started: float | None = None
        self.finished = threading.Event()
        self._cancel = threading.Event()
        #: Called (from any thread) when the job is cancelled while it runs: e.g. terminate
        #: the process it waits for.
        self.on_cancel: Callable[[], None] | None = None
        self._callbacks: list[Callable[[], None]] = []
        self._callback_lock = threading.Lock()

    def when_finished(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (from the worker's thread) once the job has finished; at once if it has."""
        with self._callback_lock:
            if not self.finished.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def _finish(self) -> None:
        with self._callback_lock:
            self.finished.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self, reason: str = "cancelled") -> None:
        if self.finished.is_set() or self._cancel.is_set():
            return
        self.reason = reason
        self._cancel.set()
        hook = self.on_cancel
        if hook is not None:
            hook()
        elif self.state == "running":
            stop_running_searches()

    def progress(self, done: int, total: int) -> None:
        """The analyzers' progress callback: records the count."""
        self.done, self.total = done, total

    def stage(self, label: str, number: int | None = None, count: int | None = None, unit: str | None = None,
              **_more) -> None:
        """The analyzers' stage callback (``card Ks 2 of 5``): recorded, the count starts again;
        ``unit``: what the stage counts, when not the analysis' own unit."""
        self.stage_text = f"{label} {number} of {count}" if number is not None else label
        self.stage_unit = unit
        self.done = self.total = 0

    @property
    def reporter(self) -> _Reporter:
        """The progress callback of an analysis that runs in stages: ``reporter(done, total)``
        and ``reporter.stage(label, number, count)``."""
        return _Reporter(self)

    def stops_between_blocks(self) -> None:
        """For a task that checks :meth:`stop_requested` between short blocks of searches (the
        enumerations): a cancel waits for the block under way instead of stopping every search
        in the process, so other jobs' searches are not cut short and run again."""
        self.on_cancel = _no_stop

    def stop_requested(self, _histogram=None) -> bool:
        """The enumerations' ``stop_when``: true once the job is cancelled (no new block starts;
        the search under way is stopped by :meth:`cancel`), so what finished is kept, marked
        partial."""
        return self._cancel.is_set()

    def status(self) -> dict:
        out = {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done, "total": self.total}
        if self.stage_text:
            out["stage"] = self.stage_text
        if self.stage_unit:
            out["unit"] = self.stage_unit
        if self.reason:
            out["reason"] = self.reason
        return out


class _Reporter:
    def __init__(self, job: Job) -> None:
        self.job = job

    def __call__(self, done: int, total: int) -> None:
        self.job.progress(done, total)

    def stage(self, label: str, number: int | None = None, count: int | None = None, **more) -> None:
        self.job.stage(label, number, count, **more)


def _no_stop() -> None:
    """The cancel of a job that stops itself between blocks: nothing to interrupt."""


class EnginePool:
    """``workers`` threads, each with the engine ``make_engine()`` builds, and at most
    ``waiting`` jobs queued behind them."""

    def __init__(self, make_engine: Callable[[], object], workers: int = 2, waiting: int = 32) -> None:
        self.workers = workers
        self.capacity = workers + waiting
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._pending = 0  # queued or running
        self._running: set[Job] = set()
        self._closing = False
        self._make_engine = make_engine
        self._threads = [threading.Thread(target=self._serve, name=f"pref-web-worker-{n}", daemon=True)
                         for n in range(workers)]
        self._ready = threading.Barrier(workers + 1)
        self._start_errors: list[BaseException] = []
        for thread in self._threads:
            thread.start()
        self._ready.wait()
        if self._start_errors:  # e.g. no memory for an engine's table: say so at start, not on a request
            self.close()
            raise self._start_errors[0]

    @property
    def busy(self) -> int:
        """Jobs queued or running."""
        return self._pending

    def submit(self, task: Callable[[object, Job], object], kind: str = "job") -> Job:
        job = Job(task, kind)
        with self._lock:
            if self._closing:
                raise PoolFull("the server is stopping")
            if self._pending >= self.capacity:
                raise PoolFull(f"all {self.workers} workers are busy and {self.capacity - self.workers} "
                               "jobs are waiting: try again in a moment")
            self._pending += 1
        self._queue.put(job)
        return job

    def _serve(self) -> None:
        engine = None
        try:
            engine = self._make_engine()
        except BaseException as error:  # noqa: BLE001 - handed to the constructor, which raises it
            self._start_errors.append(error)
        self._ready.wait()
        if self._start_errors:
            self._queue.get()  # the closing sentinel
            return
        while True:
            job = self._queue.get()
            if job is None:
                return
            try:
                self._run(job, engine)
            finally:
                with self._lock:
                    self._pending -= 1
                    self._running.discard(job)
                job._finish()

    def _run(self, job: Job, engine) -> None:
        if job.cancelled:
            job.state = "cancelled"
            return
        with self._lock:
            self._running.add(job)
        job.state = "running"
        job.started = time.monotonic()
        for _ in range(MAX_RERUNS + 1):
            stops_before = searches_stopped()
            try:
                job.result = job.task(engine, job)
            except KeyboardInterrupt:  # a search stopped: this job's cancel, or another job's
                if job.cancelled or self._closing:
                    job.state = "cancelled"
                    job.reason = job.reason or "the server is stopping"
                    job.result = None
                    return
                continue
            except BaseException as error:  # reported to the client by the server, logged there
                job.error = error
                job.state = "failed"
                return
            if job.cancelled:
                job.state = "cancelled"
                return
            if not self._closing and (searches_stopped() != stops_before
                                      or getattr(job.result, "interrupted", False)):
                continue  # another job's stop may have cut a search of this one short: run it again
            job.state = "done"
            return
        job.error = JobCancelled(f"the job was run {MAX_RERUNS + 1} times and each time cut short (other jobs' "
                                 "cancels stopped the searches under way): try again")
        job.state = "failed"

    def cancel_all(self, reason: str) -> None:
        with self._lock:
            self._closing = True
            running = list(self._running)
        while True:  # the queued jobs never start
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                job.cancel(reason)
                job.state = "cancelled"
                with self._lock:
                    self._pending -= 1
                job._finish()
        for job in running:
            job.cancel(reason)
        stop_running_searches()

    def close(self) -> None:
        """Cancel every job, stop the searches, and return once every worker has ended."""
        self.cancel_all("the server is stopping")
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join()
