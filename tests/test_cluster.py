"""The commands on a Dask cluster (``--scheduler``): the same results as on local threads.

One local cluster per module, started here on 127.0.0.1: a scheduler and two worker
processes of one thread each. The expected values are the local runs' (the oracle is the
command without ``--scheduler``): batches line for line, an exact enumeration's histogram bit
for bit, a seeded Monte Carlo's numbers on one worker, two workers and here. Faults are
driven, never timed: a worker is stopped (SIGSTOP) so that a task is surely held on it when
it is killed; Ctrl-C is sent after the first result is written.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import types

import pytest
from child_process import child_environment
from click.testing import CliRunner
from positions import random_layout

from pyanalyzer.cli.main import main
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_io import format_one_line
from pyanalyzer.model.notation import parse_cards
from pyanalyzer.model.rules import PREFERANS_RULES
from pyanalyzer.preferans.odds import declarer_view

# Imported with the stop signals blocked: the native threads its imports start (numpy's) keep
# them blocked, and SIGINT sent to this process by other tests reaches the main thread alone.
_open = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
try:
    distributed = pytest.importorskip("distributed", reason="the cluster tests need pip install 'pref-solver[cluster]'")
finally:
    signal.pthread_sigmask(signal.SIG_SETMASK, _open)
import dask  # noqa: E402 (installed with distributed)

from pyanalyzer.engines.cluster import DaskCluster, DaskPool, Units, block_stop_signals_in_loop  # noqa: E402
from pyanalyzer.engines.executor import DONE, ITEM, use_cluster  # noqa: E402

#: Generous bound on waiting for a condition the test drives (never a guess at how long work takes).
PATIENCE = 120.0
#: The layouts of the batches: random full deals, every contract kind (tests/positions.py).
CONTRACTS = ["6s", "7c", "8n", "misere", "6h"]
#: An exact enumeration small enough for a test: the whister's view with seven of the
#: declarer's cards known (30,030 splits).
WHISTER_VIEW = ["contract", "--hand", "E=Ts,Js,Qs,Jc,Kc,7d,9d,Ad,9h,Jh", "--declarer", "S", "--contract", "6c",
                "--lead", "W", "--known", "As,Ks,Ac,Ah,Kh,Qh,Kd", "--json"]
#: A sampled declarer's view (Monte Carlo over the splits) and a before-the-talon estimate.
MISERE_SAMPLED = ["misere", "--hand", "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", "--discard", "Kc,Ac", "--lead", "E",
                  "--samples", "3000", "--seed", "11", "--json"]
#: README's Thousand layout before the exchange: its 90 gives solved with open cards.
THOUSAND_EXCHANGE = ["thousand", "game=thousand declarer=S lead=S S=As,Ts,Ah,Kh,Ac,Kc,9d W=9h,Jh,Tc,Ad,Th,Js,Jc "
                     "E=Qs,Qd,Qc,Ks,Kd,Td,9c talon=Qh,Jd,9s", "--json"]
BEFORE_TALON = ["contract", "--hand", "S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah", "--declarer", "S", "--contract", "7c",
                "--lead", "W", "--samples", "6", "--seed", "5", "--json"]


@contextlib.contextmanager
def stop_signals_blocked():
    """Dask's threads in this process start inside: they inherit SIGINT and SIGTERM blocked
    and leave them to the main thread, as ``pref`` does for its client's (other tests send
    this process SIGINT and expect the main thread alone to take it)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def start_cluster(workers: int):
    with stop_signals_blocked():
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address=":0")


@pytest.fixture(scope="module")
def cluster():
    with start_cluster(2) as local:
        with stop_signals_blocked():
            client = distributed.Client(local, set_as_default=False)
        block_stop_signals_in_loop(client)
        with client:
            yield local.scheduler_address, client


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    rng = random.Random("cluster-batch")
    path = tmp_path_factory.mktemp("batch") / "deals.txt"
    path.write_text("".join(format_one_line(random_layout(rng, 10, CONTRACTS, talon_cards=2)) + "\n"
                            for _ in range(200)))
    return path


@pytest.fixture(scope="module")
def local_records(batch):
    """The oracle of the batch tests: the local run's records."""
    result = pref("solve", "--batch", str(batch), "--json", "--no-line")
    assert result.exit_code == 0, result.output
    return records(result.stdout)


def pref(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def records(output: str) -> list[dict]:
    """JSON lines without the work figures (nodes depend on what each engine's table held)."""
    out = []
    for line in output.splitlines():
        record = json.loads(line)
        for key in ("nodes", "seconds"):
            record.pop(key, None)
        out.append(record)
    return out


def without_work(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in ("nodes", "seconds")}


def worker_pids(client) -> dict[str, int]:
    client.wait_for_workers(2, timeout=PATIENCE)
    return client.run(os.getpid)


def engines_on_workers(client) -> set[tuple[str, int]]:
    """The engines (name, table MB) the workers keep warm: a run that went to them left its own."""
    def warm() -> list[tuple[str, int]]:
        from pyanalyzer.engines.cluster import _warm
        return [(factory.name, factory.tt_size_mb) for _thread, factory in _warm]

    return {engine for engines in client.run(warm).values() for engine in engines}


def unbuffered(command: list[str]) -> subprocess.Popen:
    """A ``pref`` child whose first line the test reads before the rest: its pipes unbuffered here
    (a buffered ``readline`` may take the second line too, and ``communicate`` then misses it)."""
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                            env=child_environment())


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


class CountedUnit:
    """A unit that counts how often it is pickled and unpickled (in this process)."""

    pickled = unpickled = 0

    def __init__(self, value: int) -> None:
        self.value = value

    def __reduce__(self):
        CountedUnit.pickled += 1
        return _unpickled_unit, (self.value,)


def _unpickled_unit(value: int) -> CountedUnit:
    CountedUnit.unpickled += 1
    return CountedUnit(value)


def test_a_tasks_units_are_pickled_once_and_unpickled_once_in_the_task():
    """The scheduler unpickles a task's arguments and pickles them again for the worker: the
    units pass through it as bytes, and are decoded only when the task reads them."""
    CountedUnit.pickled = CountedUnit.unpickled = 0
    sent = pickle.dumps(Units([(0, CountedUnit(7)), (1, CountedUnit(8))]))      # the client
    on_the_way = pickle.dumps(pickle.loads(sent))                              # the scheduler
    in_the_task = pickle.loads(on_the_way)                                     # the worker
    assert (CountedUnit.pickled, CountedUnit.unpickled) == (2, 0)
    assert [(index, unit.value) for index, unit in in_the_task.units] == [(0, 7), (1, 8)]
    assert (CountedUnit.pickled, CountedUnit.unpickled) == (2, 2)


@pytest.mark.parametrize(("seconds_per_unit", "units_per_task"), [(None, 1), (0.2, 1), (0.1, 1), (0.05, 10),
                                                                  (0.006, 83)])
def test_short_units_share_a_task_and_long_ones_go_alone(seconds_per_unit, units_per_task):
    """Units under 0.1 s go out by about half a second (a batch's lines); longer ones, an
    enumeration's blocks, one per task as cut (a stopped run then wastes one per worker)."""
    pool = DaskPool(types.SimpleNamespace(client=None), factory=None)
    if seconds_per_unit is not None:   # (what the run measured so far: 10 units)
        pool._units_done, pool._seconds_done = 10, 10 * seconds_per_unit
    assert pool._units_per_task() == units_per_task


class StubFuture:
    """A task the test finishes when it chooses (the pool sees what Dask's futures show it)."""

    def __init__(self, key: str, units: list) -> None:
        self.key, self.units, self.status = key, units, "pending"
        self._callbacks: list = []

    def add_done_callback(self, callback) -> None:
        self._callbacks.append(callback)

    def finish(self) -> None:
        self.status = "finished"
        for callback in self._callbacks:
            callback(self)

    def result(self):
        events = [event for index, unit in self.units for event in ((ITEM, index, unit * 10), (DONE, index, None))]
        return events, 0.2, 0.2

    def release(self) -> None:
        pass


class StubClient:
    def __init__(self) -> None:
        self.submitted: list[StubFuture] = []

    def submit(self, function, work, factory, streams, units, key, pure, **placement) -> StubFuture:
        self.submitted.append(StubFuture(key, units.units))
        return self.submitted[-1]


def test_a_worker_gets_its_next_task_before_the_pool_waits_for_another_result():
    """One worker thread: one task running, one queued. When the first comes back and its events
    are delivered, its replacement goes out before the pool waits again: were it sent only after
    the next result, the worker would run dry at every task (15% idle in the README enumeration)."""
    client = StubClient()
    cluster = types.SimpleNamespace(client=client, address="tcp://127.0.0.1:1", threads=lambda: {"tcp://w": 1},
                                    lost=lambda: False, tasks=0, units=0, task_seconds=0.0, task_cpu_seconds=0.0)
    pool = DaskPool(cluster, factory=None)
    pool.start(work=None, units=range(10), streams=False, stop=threading.Event())
    assert len(client.submitted) == 2
    client.submitted[0].finish()
    assert [pool.take(0), pool.take(0)] == [(ITEM, 0, 0), (DONE, 0, None)]
    client.submitted[1].finish()                # (the worker now runs the queued task's successor, if sent)
    assert pool.take(0) == (ITEM, 1, 10)
    assert [future.units for future in client.submitted] == [[(0, 0)], [(1, 1)], [(2, 2)]]


def test_a_run_started_before_any_worker_joined_waits_for_one(batch, local_records):
    """A scheduler without workers: the command's tasks wait on it (not an error), and run once a
    worker joins."""
    lines = batch.read_text().splitlines()[:6]
    short = batch.parent / "six.txt"
    short.write_text("\n".join(lines) + "\n")
    with start_cluster(0) as local:
        process = subprocess.Popen([sys.executable, "-m", "pyanalyzer", "solve", "--batch", str(short), "--json",
                                    "--no-line", "--scheduler", local.scheduler_address],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment())
        try:
            wait_until(lambda: process.poll() is not None
                       or local.scheduler.tasks, "the command's first task on the scheduler")
            assert process.poll() is None, process.communicate()[1].decode()
            with stop_signals_blocked():
                local.scale(1)
            out, errors = (text.decode() for text in process.communicate(timeout=PATIENCE))
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, errors
    assert records(out) == local_records[:6]


def test_without_a_scheduler_dask_is_not_imported():
    code = ("import sys; from pyanalyzer.cli.runner import run; "
            "status = run(['contract', '--hand', 'S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah', '--declarer', 'S', "
            "'--contract', '7c', '--lead', 'W', '--samples', '2', '--seed', '1', '--json']); "
            "assert status == 0, status; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=PATIENCE,
                          env=child_environment(PREF_SCHEDULER=""))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_batch_of_200_layouts_equals_the_local_run(cluster, batch, local_records):
    address, _client = cluster
    remote = pref("solve", "--batch", str(batch), "--json", "--no-line", "--scheduler", address)
    assert remote.exit_code == 0, remote.output
    assert len(local_records) == 200
    assert records(remote.stdout) == local_records   # the same answers, in input order


def test_an_exact_enumeration_gives_the_local_histogram(cluster):
    address, _client = cluster
    local = json.loads(pref(*WHISTER_VIEW).stdout)
    remote = json.loads(pref(*WHISTER_VIEW, "--scheduler", address).stdout)
    assert local["exact"] and local["total"] == 30_030
    assert without_work(remote) == without_work(local)


def test_the_thousand_exchange_ranking_equals_the_local_run(cluster):
    address, client = cluster
    local = json.loads(pref(*THOUSAND_EXCHANGE, "--tt-mb", "24").stdout)
    remote = json.loads(pref(*THOUSAND_EXCHANGE, "--tt-mb", "24", "--scheduler", address).stdout)
    assert len(local["gives"]) == 90
    assert without_work(remote) == without_work(local)
    assert ("fast", 24) in engines_on_workers(client)   # (no other test asks for 24 MB)
    assert remote["nodes"] > 0   # the workers' searches, counted


def test_one_double_dummy_table_equals_the_local_run(cluster):
    address, client = cluster
    deal = "N:AKQ.JT9.87.65432 JT9.876.AKQ6.JT9 876.AKQ.JT95.AKQ 5432.5432.432.87"   # (the command's example)
    local = json.loads(pref("table", deal, "--json", "--tt-mb", "20").stdout)
    remote = json.loads(pref("table", deal, "--json", "--tt-mb", "20", "--scheduler", address).stdout)
    assert not local["partial"] and all(None not in row.values() for row in local["table"].values())
    assert without_work(remote) == without_work(local)
    assert ("fast", 20) in engines_on_workers(client)   # (no other test asks for 20 MB)
    assert remote["nodes"] > 0   # the workers' searches, counted


def test_a_seeded_monte_carlo_is_the_same_on_one_and_two_workers(cluster):
    address, _client = cluster
    expected = [without_work(json.loads(pref(*command).stdout)) for command in (MISERE_SAMPLED, BEFORE_TALON)]
    assert expected[0]["splits"] == 3000 and expected[1]["samples"] == 6
    with start_cluster(1) as single:
        for workers in (single.scheduler_address, address):
            got = [without_work(json.loads(pref(*command, "--scheduler", workers).stdout))
                   for command in (MISERE_SAMPLED, BEFORE_TALON)]
            assert got == expected


def test_a_short_sample_goes_out_as_one_block_per_worker(cluster):
    """200 random splits on 2 workers: 2 tasks (a task costs a round trip: not one per few splits),
    and the local run's histogram."""
    address, _client = cluster
    rules = PREFERANS_RULES
    hand = Hand(parse_cards("7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", rules.deck), rules.deck)

    def view():
        return declarer_view(hand, "S", parse_cards("Kc,Ac", rules.deck), Contract("misere"), "E", rules,
                             samples=200, seed=3).tally

    local = view()
    with DaskCluster(address) as remote, use_cluster(remote):
        tally = view()
        assert remote.tasks == 2
    assert (tally.histogram, tally.splits) == (local.histogram, local.splits) and local.splits == 200


def test_a_worker_killed_during_a_batch_loses_and_repeats_nothing(cluster, batch, local_records):
    """Worker B is stopped before the batch starts; once it holds a task it is killed. Its
    tasks run again elsewhere; the output is every line, once, in order, as locally."""
    address, client = cluster
    pids = worker_pids(client)
    victim = sorted(pids)[1]
    os.kill(pids[victim], signal.SIGSTOP)
    command = [sys.executable, "-m", "pyanalyzer", "solve", "--batch", str(batch), "--json", "--no-line",
               "--scheduler", address]
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=child_environment())
        wait_until(lambda: process.poll() is not None or client.processing(workers=[victim]).get(victim),
                   "a task on the stopped worker")
    finally:
        os.kill(pids[victim], signal.SIGKILL)
    output, errors = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, errors
    assert records(output) == local_records


def test_ctrl_c_stops_the_batch_and_cancels_its_tasks_on_the_cluster(cluster, batch, local_records):
    address, client = cluster
    worker_pids(client)   # (both workers up: the previous test killed one)
    command = [sys.executable, "-m", "pyanalyzer", "solve", "--batch", str(batch), "--json", "--no-line",
               "--scheduler", address]
    process = unbuffered(command)
    first = process.stdout.readline().decode()
    process.send_signal(signal.SIGINT)
    rest, errors = (text.decode() for text in process.communicate(timeout=PATIENCE))
    lines = [first.rstrip("\n"), *rest.splitlines()]
    assert process.returncode == 130, errors
    assert errors.splitlines() == [f"pref: interrupted: after {len(lines):,} of 200 layouts; "
                                   "the results written are complete"]
    assert records("\n".join(lines)) == local_records[:len(lines)]   # a prefix, in order
    assert len(lines) < 200
    count = lambda dask_scheduler: len(dask_scheduler.tasks)  # noqa: E731
    wait_until(lambda: client.run_on_scheduler(count) == 0, "the scheduler to forget the batch's tasks")


def test_an_unreachable_scheduler_is_one_line_and_status_2(batch):
    with socket.socket() as probe:   # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = pref("solve", "--batch", str(batch), "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"pref: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}")


def test_a_scheduler_given_where_nothing_runs_remotely_is_refused():
    result = pref("solve", "contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh", "--scheduler",
                  "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stderr == ("pref: error: --scheduler 'tcp://127.0.0.1:8786': it goes with --batch "
                             "(one layout is solved here)\n")
    after_the_exchange = "game=thousand declarer=S lead=S gave=W:Kc,E:9d S=As,Ts,Ah,Kh,Ac,Qh,Jd,9s " \
                         "W=9h,Jh,Tc,Ad,Th,Js,Jc,Kc E=Qs,Qd,Qc,Ks,Kd,Td,9c,9d"
    result = pref("thousand", after_the_exchange, "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stderr == ("pref: error: --scheduler 'tcp://127.0.0.1:8786': it goes with --hand or a layout "
                             "before the exchange (this one is analysed here)\n")


@pytest.mark.slow   # a scheduler and a worker of its own, as processes (about 10 s)
def test_a_scheduler_lost_during_a_batch_ends_it_with_one_line_keeping_the_lines_written(batch, local_records):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": child_environment()}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0"], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                               "--dashboard-address", ":0", "--death-timeout", "30"], **quiet)
    try:
        with stop_signals_blocked():
            client = distributed.Client(address, set_as_default=False, timeout=PATIENCE)
        with client:
            client.wait_for_workers(1, timeout=PATIENCE)
        command = [sys.executable, "-m", "pyanalyzer", "solve", "--batch", str(batch), "--json", "--no-line",
                   "--scheduler", address]
        process = unbuffered(command)
        first = process.stdout.readline().decode()
        scheduler.kill()
        rest, errors = (text.decode() for text in process.communicate(timeout=PATIENCE))
    finally:
        for child in (worker, scheduler):
            child.kill()
            child.wait()
    lines = [first.rstrip("\n"), *rest.splitlines()]
    assert process.returncode == 2, errors
    assert errors.splitlines() == [f"pref: error: lost the Dask scheduler at {address}; after {len(lines):,} "
                                   "of 200 layouts; the results written are complete"]
    assert records("\n".join(lines)) == local_records[:len(lines)]
    assert len(lines) < 200
