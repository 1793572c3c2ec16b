"""Worker threads that share engines, and Ctrl-C: control never returns while one still runs.

An engine's state belongs to the one search running on it; a worker still
searching after its job was abandoned would corrupt the next job on the same
engine (wrong values, errors, crashes). So :func:`run_workers` returns only
once every worker has returned, whatever happens in the calling thread:

* in the main thread (POSIX), SIGINT and SIGTERM (when their handlers raise
  KeyboardInterrupt) are blocked while the workers run (the workers inherit the
  block, so no signal handler runs in them) and taken synchronously between waits: no KeyboardInterrupt can land in the
  middle of the bookkeeping, and a second Ctrl-C is part of the same stop;
* elsewhere, a KeyboardInterrupt in the calling thread starts the stop and
  further ones are absorbed until the workers are done.

(``Thread.join`` alone is not enough: a KeyboardInterrupt that interrupts
``join`` can leave a running thread marked as finished, Python 3.11.)
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager


def _stop_signals() -> set:
    """The signals whose handler raises KeyboardInterrupt (Python's for SIGINT; the ``pref``
    command's for SIGTERM): those are taken here. A program with its own handlers keeps them."""
    taken = set()
    for name in ("SIGINT", "SIGTERM"):
        number = getattr(signal, name, None)
        handler = signal.getsignal(number) if number is not None else None
        if handler is signal.default_int_handler or getattr(handler, "raises_keyboard_interrupt", False):
            taken.add(number)
    return taken


def stop_running_searches() -> None:
    """Stop the engine searches under way (as the engine's own Ctrl-C hook does)."""
    try:
        from pref_engine import stop_searches
    except ImportError:  # the reference engine only: nothing runs without the GIL
        return
    stop_searches()


def _can_take_signals() -> bool:
    return (hasattr(signal, "pthread_sigmask") and hasattr(signal, "sigtimedwait")
            and threading.current_thread() is threading.main_thread())


@contextmanager
def _signals_blocked(signals: set) -> Iterator[None]:
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _take_signal(signals: set) -> bool:
    """Consume the pending (blocked) ``signals``; True if there was one."""
    taken = False
    while signal.sigtimedwait(signals, 0) is not None:
        taken = True
    return taken


def run_workers(targets: Sequence[Callable[[], None]], stop: threading.Event,
                tick: Callable[[], None] | None = None, interval: float = 0.2) -> bool:
    """Run each target on its own thread and wait until every one has returned.

    ``tick()`` is called about every ``interval`` seconds from the calling
    thread (a progress display; it may raise KeyboardInterrupt). On Ctrl-C or
    SIGTERM, ``stop`` is set (targets poll it between units of work), the
    engine searches under way are stopped, and the wait goes on until all
    targets have returned. Returns True if the run was interrupted; the caller
    decides whether to keep the partial work or raise KeyboardInterrupt.
    """
    finished = threading.Event()
    lock = threading.Lock()
    running = [len(targets)]

    def body(target: Callable[[], None]) -> None:
        try:
            target()
        finally:
            with lock:
                running[0] -= 1
                if not running[0]:
                    finished.set()

    threads = [threading.Thread(target=body, args=(t,), daemon=True) for t in targets]
    if not threads:
        return False
    interrupted = False

    def interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        stop.set()
        stop_running_searches()

    signals = _stop_signals() if _can_take_signals() else set()
    if signals:
        with _signals_blocked(signals):
            for thread in threads:
                thread.start()
            while not finished.wait(interval):
                if _take_signal(signals) and not interrupted:
                    interrupt()
                if tick and not interrupted:
                    try:
                        tick()
                    except KeyboardInterrupt:
                        interrupt()
            for thread in threads:
                thread.join()  # each has returned from its target: this only reaps it
            if _take_signal(signals):
                interrupted = True
        return interrupted
    started: list[threading.Thread] = []
    while True:
        try:
            if interrupted:
                stop.set()
            for thread in threads[len(started):]:
                started.append(thread)
                thread.start()
            while not finished.wait(interval):
                if tick and not interrupted:
                    tick()
            for thread in started:
                thread.join()
            return interrupted
        except KeyboardInterrupt:
            interrupt()
