"""Local threads against a Dask cluster on this machine (results in RESULTS.md, "Dask cluster").

Two jobs, each timed locally and on a local Dask cluster of 1 and of 2 worker processes (one
thread each, started here on 127.0.0.1, warmed up by one untimed run):

* **batch**: 2,000 random full deals (``tests/positions.py``, seed "cluster-benchmark"),
  answered as ``pref solve --batch FILE --no-line`` answers them (the verdict of each);
  locally on one engine as the command does, and on two threads of the executor;
* **enumeration**: the misère declarer's view of README's example over all 184,756 splits
  (``pref misere --hand S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h --discard Kc,Ac --lead E``), on
  two local threads as the command does.

Every run's answers are checked equal to the first local run's. The workers' engines are
cleared before each timed run (a local run makes new ones; a warm table from the previous
run of the same enumeration would make the cluster look several times faster). The scheduler's cost per
task is measured apart: 400 tasks that do nothing, 2 per worker thread out at once (as
the executor sends them), wall time / 400. The overhead share of a job is that cost times
its tasks over the seconds its tasks worked. (The workers' idle time, ``workers x wall -
seconds in tasks``, is shown too: it adds the run's tail and, on a loaded machine, the CPU
the other processes took.)

    python benchmarks/cluster.py --repeat 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from distributed import LocalCluster  # noqa: E402
from positions import random_layout  # noqa: E402

from pyanalyzer.cli.batch import BatchLine, answer_line  # noqa: E402
from pyanalyzer.cli.main import SolveLine, solution_verdict  # noqa: E402
from pyanalyzer.engines.cluster import DaskCluster, clear_warm_states  # noqa: E402
from pyanalyzer.engines.executor import Executor, use_cluster  # noqa: E402
from pyanalyzer.engines.registry import WarmEngine, make_backend  # noqa: E402
from pyanalyzer.model.contract import Contract  # noqa: E402
from pyanalyzer.model.hand import Hand  # noqa: E402
from pyanalyzer.model.layout_io import format_one_line  # noqa: E402
from pyanalyzer.model.notation import parse_cards  # noqa: E402
from pyanalyzer.model.rules import PREFERANS_RULES  # noqa: E402
from pyanalyzer.preferans.odds import declarer_view  # noqa: E402

CONTRACTS = ["6s", "7c", "8n", "misere", "6h"]
ANSWER = SolveLine(cards=False, line=False, ace_marriage=False, declare_first_lead=False)


def batch_lines(count: int) -> list[tuple[int, str, None]]:
    rng = random.Random("cluster-benchmark")
    return [(number, format_one_line(random_layout(rng, 10, CONTRACTS, talon_cards=2)), None)
            for number in range(1, count + 1)]


def batch_serial(lines) -> list[str]:
    """As ``pref solve --batch`` runs: one engine, kept warm from line to line."""
    backend = make_backend("fast", 64)
    return [answer_line(ANSWER, solution_verdict, backend, number, text)[1] for number, text, _ in lines]


def batch_on_executor(lines, threads: int) -> list[str]:
    executor = Executor(states=[make_backend("fast", 64) for _ in range(threads)], remote=WarmEngine("fast", 64))
    run = executor.map(BatchLine(ANSWER, solution_verdict), lines, ordered=True)
    with run:
        return [output for _failed, output in run]


def enumeration(threads: int = 2) -> list[int]:
    rules = PREFERANS_RULES
    hand = Hand(parse_cards("7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", rules.deck), rules.deck)
    odds = declarer_view(hand, "S", parse_cards("Kc,Ac", rules.deck), Contract("misere"), "E", rules,
                         threads=threads)
    assert odds.tally.exact
    return odds.histogram


def nothing(value):
    return value


def seconds_per_task(cluster: DaskCluster, tasks: int = 400) -> float:
    """The round trip of an empty task through the scheduler, ``2 x workers`` of them out at once."""
    client = cluster.client
    out = 2 * cluster.workers
    start = time.perf_counter()
    futures = [client.submit(nothing, n, pure=False) for n in range(out)]
    sent = out
    while futures:
        future = futures.pop(0)
        future.result()
        if sent < tasks:
            futures.append(client.submit(nothing, sent, pure=False))
            sent += 1
    return (time.perf_counter() - start) / tasks


def timed(job) -> tuple[float, object]:
    start = time.perf_counter()
    result = job()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--layouts", type=int, default=2000)
    args = parser.parse_args()
    lines = batch_lines(args.layouts)
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)

    rows: dict[str, list[float]] = {}
    overheads: dict[str, list[tuple[int, int, float, float]]] = {}
    expected = {}
    task_cost: dict[int, float] = {}

    def record(name: str, job, key: str, cluster=None, workers: int = 0) -> None:
        for _ in range(args.repeat):
            if cluster is not None:   # as cold as a local run, which makes new engines
                cluster.client.run(clear_warm_states)
                cluster.tasks = cluster.units = 0
                cluster.task_seconds = 0.0
            seconds, result = timed(job)
            expected.setdefault(key, result)
            assert result == expected[key], f"{name}: not the local answers"
            rows.setdefault(name, []).append(seconds)
            if cluster is not None:
                overheads.setdefault(name, []).append((cluster.tasks, cluster.units, cluster.task_seconds,
                                                       workers * seconds))
            print(f"  {name}: {seconds:.2f} s (load {os.getloadavg()[0]:.2f})", flush=True)

    record("batch, local: one engine (the command)", lambda: batch_serial(lines), "batch")
    record("batch, local: 2 threads", lambda: batch_on_executor(lines, 2), "batch")
    record("enumeration, local: 2 threads (the command)", enumeration, "enumeration")
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0") as local, DaskCluster(local.scheduler_address) as cluster:
            with use_cluster(cluster):
                batch_on_executor(lines[:200], 2)   # warm-up: imports, engines
                enumeration()
                task_cost[workers] = statistics.median(seconds_per_task(cluster) for _ in range(3))
                print(f"  {workers} worker(s): {1000 * task_cost[workers]:.2f} ms per empty task", flush=True)
                record(f"batch, Dask: {workers} worker{'s' * (workers > 1)}",
                       lambda: batch_on_executor(lines, 2), "batch", cluster, workers)
                record(f"enumeration, Dask: {workers} worker{'s' * (workers > 1)}", enumeration, "enumeration",
                       cluster, workers)

    print("\n| run | median s | runs (s) | tasks | units per task | s per task | scheduler overhead "
          "| workers idle |")
    print("|---|---|---|---|---|---|---|---|")
    for name, seconds in rows.items():
        cells = ["", "", "", "", ""]
        if name in overheads:
            workers = 1 if "1 worker" in name else 2
            median_run = sorted(range(len(seconds)), key=seconds.__getitem__)[len(seconds) // 2]
            tasks, units, busy, capacity = overheads[name][median_run]
            idle = max(0.0, capacity - busy)
            cells = [f"{tasks}", f"{units / tasks:.0f}", f"{busy / tasks:.3f}",
                     f"{100 * task_cost[workers] * tasks / busy:.2f}%", f"{100 * idle / capacity:.1f}%"]
        runs = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"| {name} | {statistics.median(seconds):.2f} | {runs} | " + " | ".join(cells) + " |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
