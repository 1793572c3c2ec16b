"""Engines shared by an interrupted enumeration are free and consistent when control returns.

The interruption is driven from inside the work, deterministically: a backend
wrapper sends SIGINT to the main thread at its second batch and then waits
until the enumeration has registered the stop. Nothing depends on the
machine's speed.
"""

from __future__ import annotations

import signal
import sys
import threading

import published_layouts
import pytest

from pyanalyzer import PREFERANS, Contract, Hand
from pyanalyzer.analysis.splits import solve_splits
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans.odds import TrickOdds, _template

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# Deal 87 of benchmarks/RESULTS.md (see tests/test_interrupt.py): with a 1 MB table one
# search of it takes seconds, and 50 in a batch far longer than the checks below.
SLOW_WHIST_DEAL = "N:.Q8765.A9.KQ8532 K93.T2.863.AJT76 QT854.K93.QT542. AJ762.AJ4.KJ7.94"


def wait_until(condition, failure: str, timeout: float = 60.0) -> None:
    """Wait for evidence (``condition()`` true), polling; fail after ``timeout`` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.001)

# The misère of tests/test_interrupt.py: S's ten cards, his discard Kc Ac, East leads.
HAND = published_layouts.KOVALEVSKAYA.layout.hands["S"]
DISCARD = list(Hand.parse("♣AK", PREFERANS))


def misere_enumeration():
    rules = PREFERANS_RULES
    template = _template(rules, {"S": HAND.mask}, Contract("misere"), "S", "E")
    unknown = 0
    for card in rules.deck:
        if card not in HAND and card not in DISCARD:
            unknown |= card.mask
    defenders = tuple(i for i, s in enumerate(rules.seats) if s != "S")
    return template, defenders, unknown


class SignallingBackend:
    """A fast backend that counts the calls under way and, at the second batch of the run,
    sends SIGINT to the main thread and waits until the run has taken it (``stopped``)."""

    calls = 0
    lock = threading.Lock()

    def __init__(self, stopped: threading.Event) -> None:
        self.inner = make_backend("fast")
        self.stopped = stopped
        self.active = 0
        self.name = "fast"

    @property
    def nodes(self) -> int:
        return self.inner.nodes

    def solve_batch(self, position, seats, known, splits):
        with SignallingBackend.lock:
            SignallingBackend.calls += 1
            signal_now = SignallingBackend.calls == 2
        self.active += 1
        try:
            if signal_now:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                assert self.stopped.wait(60), "the enumeration never took the Ctrl-C"
            return self.inner.solve_batch(position, seats, known, splits)
        finally:
            self.active -= 1

    def solve(self, position):
        self.active += 1
        try:
            return self.inner.solve(position)
        finally:
            self.active -= 1


@pytest.mark.parametrize("threads", [1, 2])
def test_an_interrupted_enumeration_returns_only_when_its_engines_are_free(monkeypatch, threads):
    import pyanalyzer.engines.executor as executor

    stopped = threading.Event()
    original = executor.stop_running_searches

    def noted_stop() -> None:
        original()
        stopped.set()

    monkeypatch.setattr(executor, "stop_running_searches", noted_stop)
    SignallingBackend.calls = 0
    backends = [SignallingBackend(stopped) for _ in range(threads)]
    template, defenders, unknown = misere_enumeration()
    tally = solve_splits(template, defenders, (10, 10), unknown, block=256, backends=backends)

    # Control came back: no worker may still be inside an engine.
    assert [b.active for b in backends] == [0] * threads
    assert tally.interrupted and tally.partial and not tally.exact
    assert 0 < tally.splits < tally.total == 184756
    # The next solves on the same engines equal a fresh engine's (layouts of this enumeration).
    fresh = make_backend("fast")
    known = [template.hands[seat] for seat in defenders]
    from pyanalyzer.analysis.splits import all_splits

    splits = [s for _, s in zip(range(300), all_splits(unknown, (10, 10)))][::7]
    for backend in backends:
        for split in splits:
            hands = list(template.hands)
            for seat, mask, base in zip(defenders, split, known):
                hands[seat] = base | mask
            from dataclasses import replace

            position = replace(template, hands=tuple(hands))
            assert backend.solve(position) == fresh.solve(position)


def test_a_second_search_on_a_busy_engine_is_refused():
    """Two searches at once on one Engine would corrupt it: the second is refused."""
    from pref_engine import Engine, EngineBusy, stop_searches

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout

    engine = Engine(tt_size_mb=1)
    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    outcome = []

    def search() -> None:
        try:
            outcome.append(engine.solve_batch(slow, [1], [slow.hands[1]], [(0,)] * 50))
        except BaseException as error:  # noqa: BLE001 (reported below)
            outcome.append(error)

    worker = threading.Thread(target=search, daemon=True)
    worker.start()
    wait_until(lambda: engine.searching or outcome, "the batch never started")
    try:
        with pytest.raises(EngineBusy):
            engine.solve(slow)
        assert engine.searching, "the batch ended before the check: give it more work"
    finally:
        stop_searches()
        worker.join(60)
    assert not worker.is_alive()
    assert len(outcome) == 1 and len(outcome[0]) < 50   # stopped, values finished so far
    assert not engine.searching
    assert engine.solve(whist_layout(Deal.from_pbn("N:AK... QJ... T9... 87..."), None, "N", lead="N")
                        .position()) == 2


def test_a_partial_enumeration_reports_bounds_not_an_interval(monkeypatch):
    """Stopped after some splits, in order: not a sample. What is proven is shown: bounds."""
    import pyanalyzer.engines.executor as executor

    stopped = threading.Event()
    original = executor.stop_running_searches
    monkeypatch.setattr(executor, "stop_running_searches", lambda: (original(), stopped.set()))
    SignallingBackend.calls = 0
    template, defenders, unknown = misere_enumeration()
    tally = solve_splits(template, defenders, (10, 10), unknown, block=256,
                         backends=[SignallingBackend(stopped)])
    odds = TrickOdds(Contract("misere"), "S", "E", tally, "declarer")
    caught = tally.count(lambda k: k >= 1)
    low, high = tally.bounds(lambda k: k >= 1)
    assert low == caught / 184756 and high == (caught + 184756 - tally.splits) / 184756
    data = odds.to_dict()
    assert data["exact"] is False and data["partial"] is True and data["method"] == "enumeration"
    assert data["p_caught"] is None and data["p_caught_bounds"] == pytest.approx([low, high], abs=1e-9)
    assert "p_caught_interval" not in data
    # The complete enumeration's answer lies inside: 0.5648 (README's worked example of this deal,
    # a regression value of the full run).
    assert low <= 0.5648 <= high
    text = odds.format()
    assert f"interrupted after {tally.splits:,} of 184,756 splits" in text
    assert "The misère is caught in between" in text and "interval" not in text


def test_the_layouts_solved_count_only_the_finished_ones(monkeypatch):
    """A block cut short by the stop: its unfinished layouts are not counted as solved."""
    import pyanalyzer.engines.executor as executor

    stopped = threading.Event()
    original = executor.stop_running_searches
    monkeypatch.setattr(executor, "stop_running_searches", lambda: (original(), stopped.set()))
    SignallingBackend.calls = 0
    template, defenders, unknown = misere_enumeration()
    backend = SignallingBackend(stopped)
    real_batch = backend.inner.solve_batch
    monkeypatch.setattr(backend.inner, "solve_batch",
                        lambda *args: real_batch(*args)[:100] if SignallingBackend.calls == 2 else real_batch(*args))
    tally = solve_splits(template, defenders, (10, 10), unknown, block=256, backends=[backend])
    assert tally.interrupted
    assert tally.solves == 256 + 100


def test_ctrl_c_between_two_classes_keeps_the_classes_finished():
    """The twelve-card misère ranking, stopped (deterministically) as discard class 2 begins:
    class 1 stands, complete; the result is marked interrupted."""
    from pyanalyzer.cli.progress import ProgressLine
    from pyanalyzer.preferans.misere import rank_misere_discards

    class StopsAtClassTwo(ProgressLine):
        def stage(self, label, number=None, count=None, **kwargs):
            if label == "discard class" and number == 2:
                raise KeyboardInterrupt
            super().stage(label, number, count, **kwargs)

    twelve = list(HAND) + DISCARD
    ranking = rank_misere_discards(twelve, "S", "E", threads=2,
                                   progress=StopsAtClassTwo(enabled=False))
    assert ranking.interrupted and ranking.classes == 14
    assert len(ranking.ranked) == 1 and ranking.ranked[0].odds.tally.exact
    data = ranking.to_dict()
    assert data["partial"] is True and data["classes_finished"] == 1
    assert data["best"]["p_caught"] == pytest.approx(ranking.ranked[0].p_caught, abs=1e-9)
    assert "PARTIAL (interrupted): 1 of 14 discard classes finished" in ranking.format()


def test_a_second_ctrl_c_while_the_workers_stop_is_part_of_the_same_stop():
    """The first Ctrl-C comes from the progress hook; the worker, once told to stop, sends a
    second one and returns only when the run has taken it. The run must neither return
    before the worker nor let that second KeyboardInterrupt escape."""
    import time

    from pyanalyzer.engines.executor import Executor

    stop = threading.Event()
    started = threading.Event()
    returned = []

    def work(state, unit) -> None:
        started.set()
        assert stop.wait(60)
        # To the main thread, which blocks it: pending until taken. (Sent to the process, it may
        # go to a thread of the test runner's own that does not block it: pytest -n.)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        deadline = time.monotonic() + 60
        while signal.SIGINT in signal.sigpending() and time.monotonic() < deadline:
            time.sleep(0.001)
        returned.append(True)

    def tick() -> None:
        if started.is_set():  # the unit is under way: a stop cannot keep it from being delivered
            raise KeyboardInterrupt

    # Ctrl-C raises KeyboardInterrupt, as in pref (pytest -n's worker processes ignore SIGINT).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = Executor(1).map(work, [0], stop=stop, tick=tick, interval=0.01)
        with run:
            assert list(run) == [None]
    finally:
        signal.signal(signal.SIGINT, previous)
    assert run.interrupted is True
    assert returned == [True]


def test_the_plot_of_a_partial_enumeration_states_bounds(tmp_path, monkeypatch):
    """A hand-made partial tally (80 of 100 splits: 60 make, 20 fail): the title gives what is
    proven, 60-80% of all splits, not the 75% of the splits solved."""
    pytest.importorskip("matplotlib")
    import matplotlib.axes

    from pyanalyzer.analysis.splits import Tally
    from pyanalyzer.preferans.odds import plot_histogram

    titles = []
    monkeypatch.setattr(matplotlib.axes.Axes, "set_title", lambda self, text, **kw: titles.append(text))
    tally = Tally([0, 0, 0, 0, 0, 20, 60, 0, 0, 0, 0], splits=80, solves=80, total=100, partial=True,
                  interrupted=True)
    odds = TrickOdds(Contract.parse("6s", PREFERANS_RULES), "S", "W", tally, "declarer")
    plot_histogram(odds, str(tmp_path / "partial.png"))
    assert titles and "partial: 80 of 100 splits" in titles[0] and "makes 60.0-80.0% of all splits" in titles[0]


def test_a_stopped_search_counts_its_nodes():
    """An interrupted run reports the work it did: the nodes of a search that Ctrl-C stopped
    are added to the backend's count (they were lost: 'pref table' said '0 nodes' after
    seconds of search)."""
    from pref_engine import stop_searches

    from pyanalyzer.whist import Deal
    from pyanalyzer.whist.table import whist_layout

    backend = make_backend("fast", tt_size_mb=1)   # (slow enough to be stopped mid-search)
    slow = whist_layout(Deal.from_pbn(SLOW_WHIST_DEAL), None, "N", lead="N").position()
    def search(outcome: list) -> None:
        try:
            outcome.append(backend.solve(slow))
        except BaseException as error:  # noqa: BLE001 (checked below)
            outcome.append(error)

    for _ in range(20):   # a stop that lands before the first node leaves nothing to count: again
        outcome: list = []
        worker = threading.Thread(target=search, args=(outcome,), daemon=True)
        worker.start()
        wait_until(lambda outcome=outcome: backend._engine.searching or outcome, "the search never started")
        stop_searches()
        worker.join(60)
        assert not worker.is_alive()
        assert isinstance(outcome[0], KeyboardInterrupt), "the search ended before the stop"
        stopped_nodes = backend._engine.stats["nodes"]
        if stopped_nodes:
            break
    assert stopped_nodes > 0
    assert backend.nodes >= stopped_nodes
