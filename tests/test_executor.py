"""The parallel executor itself: ordering, worker states, errors, stops, Ctrl-C, both backends.

Every interleaving a test needs is forced with events (a unit waits for another unit, for
the consumer, for the stop or for a tick); no test sleeps for a while or times anything.
The waits have generous timeouts only so that a broken executor fails instead of hanging.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

import pytest

import pyanalyzer.engines.executor as executor_module
from pyanalyzer.engines.executor import Executor, Lanes, UnitReader

FORK = multiprocessing.get_context("fork") if sys.platform != "win32" else None
needs_fork = pytest.mark.skipif(FORK is None, reason="worker processes are forked (POSIX)")
needs_signals = pytest.mark.skipif(not (hasattr(signal, "pthread_sigmask") and hasattr(signal, "sigtimedwait")),
                                   reason="the run takes Ctrl-C synchronously (POSIX)")
WAIT = 60   # seconds: only a broken executor ever waits that long


def square(state, unit: int) -> int:
    return unit * unit


@pytest.mark.parametrize("processes", [False, pytest.param(True, marks=needs_fork)])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_ordered_results_do_not_depend_on_the_number_of_workers(workers, processes):
    factory = (lambda: None) if processes else None
    run = Executor(workers, factory=factory, processes=processes).map(square, range(25))
    assert list(run) == [n * n for n in range(25)]
    assert not run.interrupted and not run.stopped


def test_ordered_results_wait_for_an_earlier_unit_that_finishes_last():
    """Unit 0 finishes only after unit 1 has run on the other worker: still delivered first."""
    second_ran = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 0:
            assert second_ran.wait(WAIT)
        if unit == 1:
            second_ran.set()
        return unit

    assert list(Executor(2).map(work, range(6))) == list(range(6))


def test_unordered_results_come_as_they_are_finished():
    """Unit 0 is held until the consumer has unit 1's result: with ordered=False, 1 comes first."""
    release = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 0:
            assert release.wait(WAIT)
        return unit

    results = []
    with Executor(2).map(work, range(2), ordered=False) as run:
        for result in run:
            results.append(result)
            release.set()
    assert results == [1, 0]


@needs_fork
def test_processes_deliver_in_order_an_earlier_unit_that_finishes_last():
    """The units are queued breadth-first (unit 1 on the second process), and unit 0 waits for it."""
    second_ran = FORK.Event()

    def work(state, unit: int) -> int:
        if unit == 0:
            assert second_ran.wait(WAIT)
        if unit == 1:
            second_ran.set()
        return unit

    assert list(Executor(2, factory=lambda: None, processes=True).map(work, range(8))) == list(range(8))


def test_each_thread_builds_its_state_once_and_keeps_it():
    built: list[threading.Thread] = []
    lock = threading.Lock()

    def factory() -> dict:
        with lock:
            built.append(threading.current_thread())
        return {"thread": threading.current_thread()}

    def work(state: dict, unit: int) -> tuple[threading.Thread, threading.Thread]:
        return state["thread"], threading.current_thread()

    results = list(Executor(3, factory=factory).map(work, range(30)))
    assert len(built) <= 3 and len(set(built)) == len(built)
    assert all(owner is runner for owner, runner in results)   # a state stays with its thread
    assert threading.current_thread() not in built              # built in the workers


def test_given_states_are_each_used_by_one_worker_only():
    """Engines passed in (``states``) are shared out one per worker: never two threads on one."""
    states = [{"name": name, "threads": set()} for name in "ab"]

    def work(state: dict, unit: int) -> str:
        state["threads"].add(threading.current_thread())
        return state["name"]

    executor = Executor(states=states)
    assert executor.workers == 2
    assert set(Executor(states=states).map(work, range(20))) <= {"a", "b"}
    assert all(len(state["threads"]) <= 1 for state in states)


def test_a_worker_takes_its_own_lane_in_order_then_the_next_lanes_left():
    reader = UnitReader(Lanes([["a1", "a2"], ["b1", "b2", "b3"], []]))
    taken = [reader.next_for(worker) for worker in (1, 0, 2, 0, 0)]
    # Worker 2's lane is empty: it takes the next lane's; worker 0, its own done, lane 1's.
    assert taken == [(0, "b1"), (1, "a1"), (2, "a2"), (3, "b2"), (4, "b3")]   # numbered as taken
    for worker in range(3):
        with pytest.raises(StopIteration):
            reader.next_for(worker)


@pytest.mark.parametrize("processes", [False, pytest.param(True, marks=needs_fork)])
def test_with_lanes_each_worker_runs_its_own_lane_in_order(processes):
    """Both workers hold their first unit before either goes on (a barrier), so each starts on
    its own lane; a worker ends its lane before it takes the other's, and every unit runs once."""
    lanes = [list(range(0, 8)), list(range(100, 108))]
    barrier = (FORK.Barrier(2) if processes else threading.Barrier(2))

    def work(state, unit: int) -> tuple[int, int]:
        if unit in (0, 100):
            barrier.wait(WAIT)
        return os.getpid() if processes else threading.get_ident(), unit

    factory = (lambda: None) if processes else None
    results = list(Executor(2, factory=factory, processes=processes).map(work, Lanes(lanes), ordered=False))
    assert sorted(unit for _, unit in results) == lanes[0] + lanes[1]
    by_worker: dict[int, list[int]] = {}
    for worker, unit in results:
        by_worker.setdefault(worker, []).append(unit)
    assert len(by_worker) == 2
    for units in by_worker.values():
        own = [unit for unit in units if unit // 100 == units[0] // 100]
        assert own == sorted(own) and units[:len(own)] == own   # its lane first, in order
    assert sorted(units[0] for units in by_worker.values()) == [0, 100]


def test_lanes_are_for_unordered_runs():
    with pytest.raises(ValueError, match="unordered"):
        Executor(2).map(square, Lanes([[1], [2]]))


@needs_fork
def test_each_process_builds_its_state_once():
    built_here = []

    def factory() -> tuple[int, int]:
        built_here.append(os.getpid())   # (a list of the child's own memory)
        return os.getpid(), len(built_here)

    results = list(Executor(2, factory=factory, processes=True).map(lambda state, unit: state, range(12)))
    assert {builds for _, builds in results} == {1}
    assert os.getpid() not in {pid for pid, _ in results} and built_here == []
    assert multiprocessing.active_children() == []


def test_a_streaming_unit_delivers_each_item_and_keeps_them_before_an_error():
    def work(state, unit: int):
        for item in range(3):
            if unit == 1 and item == 2:
                raise ValueError("unit 1 failed at its third item")
            yield unit, item

    assert list(Executor(1).map(lambda s, u: iter([(u, 0), (u, 1)]), range(2), streams=True)) == \
        [(0, 0), (0, 1), (1, 0), (1, 1)]
    received = []
    with pytest.raises(ValueError, match="third item"):
        for item in Executor(1).map(work, range(3), streams=True):
            received.append(item)
    assert received == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]


def test_a_workers_error_is_raised_in_the_caller_once_every_worker_has_returned():
    """Unit 0 fails; unit 1, on the other worker, runs until the stop that the error sets."""
    second_started = threading.Event()
    second_returned = threading.Event()
    stop = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 0:
            assert second_started.wait(WAIT)
            raise ValueError("unit 0 failed")
        if unit == 1:
            second_started.set()
            assert stop.wait(WAIT)
            second_returned.set()
        return unit

    with pytest.raises(ValueError, match="unit 0 failed"):
        list(Executor(2).map(work, range(10), stop=stop))
    assert second_returned.is_set()


def test_errors_of_the_factory_and_of_the_units_are_raised_in_the_caller():
    def no_engine():
        raise MemoryError("cannot allocate the transposition table")

    with pytest.raises(MemoryError, match="cannot allocate"):
        list(Executor(2, factory=no_engine).map(square, range(4)))

    def units():
        yield 1
        raise LookupError("the units ran out badly")

    with pytest.raises(LookupError, match="ran out badly"):
        list(Executor(1).map(square, units()))


@needs_fork
def test_a_worker_processs_error_is_raised_in_the_parent_and_the_children_are_reaped():
    def work(state, unit: int) -> int:
        if unit == 3:
            raise ValueError(f"unit {unit} failed in process {os.getpid()}")
        return unit

    with pytest.raises(ValueError, match="unit 3 failed in process") as failure:
        list(Executor(2, factory=lambda: None, processes=True).map(work, range(10)))
    assert str(os.getpid()) not in str(failure.value)
    assert multiprocessing.active_children() == []


@needs_fork
def test_a_worker_process_that_dies_is_an_error_in_the_parent():
    def work(state, unit: int) -> int:
        if unit == 2:
            os._exit(3)
        return unit

    with pytest.raises(RuntimeError, match=r"a worker process ended unexpectedly \(exit status 3\)"):
        list(Executor(2, factory=lambda: None, processes=True).map(work, range(10)))
    assert multiprocessing.active_children() == []


@needs_fork
def test_a_worker_process_killed_by_sigterm_interrupts_the_run():
    """SIGTERM sent to the whole process group (``timeout``, a service manager's stop) often
    kills a child before the caller takes its own: an interruption, never an error."""
    def work(state, unit: int) -> int:
        if unit == 2:
            os.kill(os.getpid(), signal.SIGTERM)   # (the child's default action: it ends here)
        return unit

    run = Executor(2, factory=lambda: None, processes=True).map(work, range(10))
    with run:
        results = list(run)
    assert run.interrupted
    assert results == list(range(len(results))) and len(results) <= 2   # (in order, up to unit 2)
    assert multiprocessing.active_children() == []


def test_after_a_stop_no_unit_starts_and_the_units_taken_after_it_are_not_run():
    """The consumer stops after unit 0's result; the worker's next unit is handed out only
    after that stop (the units' generator waits for it): it must not run."""
    stopped = threading.Event()
    started = []

    def units():
        yield 0
        assert stopped.wait(WAIT)
        yield 1
        yield 2

    def work(state, unit: int) -> int:
        started.append(unit)
        return unit

    results = []
    with Executor(1).map(work, units()) as run:
        for result in run:
            results.append(result)
            run.stop()
            stopped.set()
    assert results == [0] and started == [0]
    assert run.stopped and not run.interrupted


def test_units_under_way_at_a_stop_finish_and_are_delivered():
    """Unit 1 is under way (it waits for the stop) when the consumer stops after unit 0."""
    first_delivered = threading.Event()
    stop = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 1:
            assert first_delivered.wait(WAIT) and stop.wait(WAIT)
        elif unit > 1:
            raise AssertionError("a unit started after the stop")
        return unit

    def units():
        yield 0
        yield 1
        assert stop.wait(WAIT)
        yield 2

    results = []
    with Executor(2).map(work, units(), ordered=False, stop=stop) as run:
        for result in run:
            results.append(result)
            if result == 0:
                run.stop()
                first_delivered.set()
    assert sorted(results) == [0, 1]


@needs_fork
def test_a_stop_ends_worker_processes_at_once():
    never = FORK.Event()

    def work(state, unit: int) -> int:
        if unit > 0:
            assert never.wait(WAIT)
        return unit

    results = []
    run = Executor(2, factory=lambda: None, processes=True).map(work, range(10))
    with run:
        for result in run:
            results.append(result)
            run.stop()
    assert results == [0] and run.stopped
    assert multiprocessing.active_children() == []


def test_ticks_come_from_the_calling_thread_while_the_workers_run():
    ticked_twice = threading.Event()
    ticks = []

    def tick() -> None:
        ticks.append(threading.current_thread())
        if len(ticks) == 2:
            ticked_twice.set()

    def work(state, unit: int) -> int:
        assert ticked_twice.wait(WAIT)
        return unit

    assert list(Executor(1).map(work, [7], tick=tick, interval=0.001)) == [7]
    assert len(ticks) >= 2 and set(ticks) == {threading.current_thread()}


def test_a_keyboard_interrupt_from_a_tick_or_a_worker_interrupts_the_run(monkeypatch):
    stopped_searches = []
    monkeypatch.setattr(executor_module, "stop_running_searches", lambda: stopped_searches.append(True))
    stop = threading.Event()
    started = threading.Event()

    def tick() -> None:
        if started.is_set():  # (interrupting before unit 0 starts would deliver nothing)
            raise KeyboardInterrupt

    def wait_for_stop(state, unit: int) -> int:
        started.set()
        assert stop.wait(WAIT)
        return unit

    run = Executor(1).map(wait_for_stop, range(5), stop=stop, tick=tick, interval=0.001)
    assert list(run) == [0]                     # the unit under way finishes and counts
    assert run.interrupted and stopped_searches == [True]

    def search_stopped(state, unit: int) -> int:   # as a search stopped by the signal does
        if unit == 2:
            raise KeyboardInterrupt
        return unit

    run = Executor(1).map(search_stopped, range(5))
    assert list(run) == [0, 1] and run.interrupted


@pytest.mark.parametrize("processes", [False, True])
def test_a_stop_kept_for_the_next_run_interrupts_that_run_only(processes, monkeypatch):
    """``stop_next_run`` (a Ctrl-C whose KeyboardInterrupt was dropped): the next run starts
    interrupted and runs no unit; the run after it is whole."""
    monkeypatch.setattr(executor_module, "_stop_pending", False)   # (and so after the test)
    ran = []

    def record(state, unit: int) -> int:
        ran.append(unit)
        return unit

    executor_module.stop_next_run()
    with Executor(2, processes=processes).map(record, range(5)) as run:
        assert list(run) == []
    assert run.interrupted and ran == []
    with Executor(2).map(record, range(5)) as run:
        assert list(run) == [0, 1, 2, 3, 4]
    assert not run.interrupted


def test_an_error_in_a_tick_is_raised_once_the_workers_are_done():
    stop = threading.Event()

    def tick() -> None:
        raise OSError("the progress display failed")

    def work(state, unit: int) -> int:
        assert stop.wait(WAIT)
        return unit

    with pytest.raises(OSError, match="display failed"):
        list(Executor(1).map(work, range(3), stop=stop, tick=tick, interval=0.001))


def test_off_the_main_thread_a_keyboard_interrupt_in_the_waiting_thread_stops_the_run():
    stop = threading.Event()
    outcome = []
    lock = threading.Lock()
    started: list[int] = []

    def tick() -> None:
        with lock:  # interrupt once both workers hold a unit (earlier, fewer would be under way)
            if len(started) == 2:
                raise KeyboardInterrupt

    def work(state, unit: int) -> int:
        with lock:
            started.append(unit)
        assert stop.wait(WAIT)
        return unit

    def caller() -> None:
        run = Executor(2).map(work, range(4), stop=stop, tick=tick, interval=0.001)
        outcome.append((sorted(run), run.interrupted))

    thread = threading.Thread(target=caller)
    thread.start()
    thread.join(WAIT)
    assert not thread.is_alive()
    assert outcome == [([0, 1], True)]


@needs_signals
def test_ctrl_c_stops_the_threads_and_is_not_raised(monkeypatch):
    """SIGINT to the main thread while a unit runs: the run takes it, stops the searches,
    lets the unit finish (its result counts) and reports the interruption."""
    stopped_searches = []
    monkeypatch.setattr(executor_module, "stop_running_searches", lambda: stopped_searches.append(True))
    stop = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 0:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            assert stop.wait(WAIT)
        return unit

    with Executor(1).map(work, range(5), stop=stop) as run:
        results = list(run)
    assert results == [0] and run.interrupted and stopped_searches == [True]


@needs_signals
def test_the_signals_are_held_through_a_with_block_and_only_while_waiting_without_one():
    def held() -> bool:
        return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

    assert not held()
    with Executor(1).map(square, range(3)) as run:
        for _ in run:
            assert held()          # the caller's bookkeeping is never cut by Ctrl-C
    assert not held()
    run = Executor(1).map(square, range(3))
    for _ in run:
        assert not held()          # a generator yielding results on: Ctrl-C reaches its consumer
    run.close()
    assert not held()


@needs_signals
def test_the_signals_are_unblocked_even_when_stopping_on_a_held_signal_fails(monkeypatch):
    def held() -> bool:
        return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

    def failing_stop() -> None:
        raise RuntimeError("the pool could not be stopped")

    run = Executor(1).map(square, range(3))
    monkeypatch.setattr(run, "_on_signal", failing_stop)
    previous = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        run._hold()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)   # pending while held
        with pytest.raises(RuntimeError):
            run._release()
        assert not held()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        signal.signal(signal.SIGINT, previous)
    run.close()


@needs_signals
def test_a_keyboard_interrupt_in_a_with_block_stops_the_workers_before_it_goes_on(monkeypatch):
    monkeypatch.setattr(executor_module, "stop_running_searches", lambda: None)
    stop = threading.Event()
    returned = threading.Event()
    second_started = threading.Event()

    def work(state, unit: int) -> int:
        if unit == 0:  # delivered only once unit 1 is under way on the other worker
            assert second_started.wait(WAIT)
        if unit == 1:
            second_started.set()
            assert stop.wait(WAIT)
            returned.set()
        return unit

    with pytest.raises(KeyboardInterrupt):
        with Executor(2).map(work, range(4), stop=stop) as run:
            for result in run:
                if result == 0:
                    raise KeyboardInterrupt
    assert returned.is_set() and run.interrupted


@needs_fork
@needs_signals
def test_ctrl_c_ends_worker_processes_and_is_not_raised():
    """The first tick after unit 1 has started sends SIGINT to the (waiting) main thread."""
    started = FORK.Event()
    never = FORK.Event()
    sent = []

    def work(state, unit: int) -> int:
        if unit == 1:
            started.set()
            assert never.wait(WAIT)
        return unit

    def tick() -> None:
        if started.is_set() and not sent:
            sent.append(True)
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    results = []
    run = Executor(2, factory=lambda: None, processes=True).map(work, range(6), tick=tick, interval=0.001)
    try:
        for result in run:
            results.append(result)
    finally:
        run.close()
    assert run.interrupted and sent == [True]
    assert 1 not in results
    assert multiprocessing.active_children() == []


def test_a_run_needs_workers_and_one_source_of_states():
    with pytest.raises(ValueError, match="states or a factory"):
        Executor(states=[1], factory=lambda: 1)
    with pytest.raises(ValueError, match="at least one worker"):
        Executor(0)
    with pytest.raises(ValueError, match="2 workers for 1 states"):
        Executor(2, states=[1])
    with pytest.raises(ValueError, match="give a factory"):
        Executor(states=[1], processes=True)
