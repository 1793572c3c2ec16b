"""Where a job's time and CPU go on a Dask cluster of 2 workers (RESULTS.md, "Dask cluster: overhead").

One job of benchmarks/cluster.py (``enumeration`` or ``ranking``) on README's recipe (``--cluster
recipe``: scheduler and workers as processes of their own, lean settings) or a LocalCluster with
Dask's defaults (``--cluster 2``), once to warm up, then once timed, the workers' tables cleared
before. It prints:

* the CPU seconds of every process during the timed run: the scheduler, the nannies, each
  worker (its task thread and its event loop apart) and this process (the client);
* the tasks, and each worker's idle time (not in a task) split into the runs' heads (from a
  run's start to the worker's first task), tails (from its last task to the run's end), the gaps
  between its tasks inside a run, and the time between runs (the caller's own work);
* with ``--runs``, one line per run (an enumeration, a ranking's screening or discard class):
  its length, and per worker its tasks, head, tail and gaps in milliseconds.

The task times come from a wrapper put around the worker's task function (``client.run``), the
runs' boundaries from the client's pool; nothing else changes. Every figure but the wall times is
a measure the machine's load moves little (CPU seconds, tasks); the idle times are wall times.

    python benchmarks/cluster_trace.py --job ranking --runs
"""

from __future__ import annotations

import argparse
import os
import threading
import time

import psutil
from cluster import CLUSTERS, enumeration, process_cpu, ranking, started

from pyanalyzer.engines import cluster as dask_backend
from pyanalyzer.engines.cluster import DaskCluster, clear_warm_states
from pyanalyzer.engines.executor import use_cluster

JOBS = {"enumeration": enumeration, "ranking": ranking}


def trace_tasks() -> int:
    """On a worker: time every task from now on (start, end, its run); returns the process id."""
    from distributed.worker import thread_state

    if not hasattr(dask_backend, "traced_tasks"):
        untraced = dask_backend.run_units

        def run_units(*args):
            start = time.time()
            result = untraced(*args)
            run = getattr(thread_state, "key", "--").split("-")[1]   # (keys are pref-RUN-UNIT)
            dask_backend.traced_tasks.append((start, time.time(), run))
            return result

        dask_backend.traced_tasks = []
        dask_backend.run_units = run_units
    dask_backend.traced_tasks.clear()
    return os.getpid()


def traced_tasks() -> list:
    return sorted(dask_backend.traced_tasks)


def thread_names() -> dict[int, str]:
    return {thread.native_id: thread.name for thread in threading.enumerate()}


def thread_cpu(process: psutil.Process) -> dict[int, float]:
    return {thread.id: thread.user_time + thread.system_time for thread in process.threads()}


def trace_runs() -> list[list]:
    """The client's runs from now on: ``[run, start, end]`` (wall clock), by patching the pool."""
    runs: list[list] = []
    start, close = dask_backend.DaskPool.start, dask_backend.DaskPool.close

    def traced_start(pool, *args) -> None:
        began = time.time()
        start(pool, *args)
        runs.append([pool._run, began, None])

    def traced_close(pool) -> None:
        close(pool)
        for run in runs:
            if run[0] == pool._run and run[2] is None:
                run[2] = time.time()

    dask_backend.DaskPool.start, dask_backend.DaskPool.close = traced_start, traced_close
    return runs


def idle(runs: list[list], tasks: dict[str, list], begin: float, end: float, verbose: bool) -> None:
    heads = tails = gaps = between = 0.0
    lines = []
    previous = begin
    for run, start, stop in runs:
        between += (start - previous) * len(tasks)
        previous = stop
        cells = []
        for worker in sorted(tasks):
            mine = [task for task in tasks[worker] if task[2] == run]
            if not mine:
                heads += stop - start
                cells.append("-")
                continue
            head, tail = mine[0][0] - start, stop - mine[-1][1]
            inside = sum(later[0] - earlier[1] for earlier, later in zip(mine, mine[1:]))
            heads, tails, gaps = heads + head, tails + tail, gaps + inside
            cells.append(f"{len(mine)} tasks, head {1000 * head:.0f}, tail {1000 * tail:.0f}, gaps {1000 * inside:.0f}")
        lines.append(f"  {1000 * (stop - start):8.0f} ms: " + " | ".join(cells))
    between += (end - previous) * len(tasks)
    capacity = len(tasks) * (end - begin)
    print(f"workers idle (worker-seconds, of {capacity:.2f}): heads {heads:.2f}, tails {tails:.2f}, "
          f"gaps inside runs {gaps:.2f}, between runs {between:.2f}; {len(runs)} runs")
    if verbose:
        print("runs (ms; per worker):")
        print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", choices=sorted(JOBS), default="ranking")
    parser.add_argument("--cluster", choices=["2", "recipe"], default="recipe")
    parser.add_argument("--runs", action="store_true", help="one line per run")
    args = parser.parse_args()
    job = JOBS[args.job]
    workers, kind = CLUSTERS[args.cluster]
    this = psutil.Process()
    with started(workers, kind) as (address, scheduler), DaskCluster(address) as cluster:
        cluster.client.wait_for_workers(workers, timeout=120)
        with use_cluster(cluster):
            job()   # warm-up: imports, engines
            cluster.client.run(clear_warm_states)
            pids = cluster.client.run(trace_tasks)
            names = cluster.client.run(thread_names)
            worker_processes = {address: psutil.Process(pid) for address, pid in pids.items()}
            apart = ({process.parent() for process in worker_processes.values()} | {scheduler}) - {this, None}
            runs = trace_runs()
            before = {address: thread_cpu(process) for address, process in worker_processes.items()}
            apart_before = {process.pid: process_cpu(process) for process in apart}
            here = process_cpu(this)
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            begin = time.time()
            _result, nodes = job()
            end = time.time()
            here = process_cpu(this) - here
            after = {address: thread_cpu(process) for address, process in worker_processes.items()}
            apart_spent = {process.pid: process_cpu(process) - apart_before[process.pid] for process in apart}
            tasks = cluster.client.run(traced_tasks)
            labels = {process.pid: " ".join(process.cmdline()[1:3]) for process in apart}
    print(f"{args.job} on {args.cluster}: {end - begin:.2f} s, {nodes / 1e6:.1f} M nodes, "
          f"{sum(len(mine) for mine in tasks.values())} tasks (load average after {os.getloadavg()[0]:.2f})")
    print("CPU seconds:")
    for process in sorted(apart, key=lambda process: process.pid):
        print(f"  {labels[process.pid]} [{process.pid}]: {apart_spent[process.pid]:.2f}")
    print(f"  this process (the client{', the scheduler and the nannies' if scheduler is None else ''}): {here:.2f}")
    for address in sorted(worker_processes):
        spent = {thread: cpu - before[address].get(thread, 0.0) for thread, cpu in after[address].items()}
        busy = sorted(spent.items(), key=lambda item: -item[1])
        print(f"  worker {address}: " + ", ".join(f"{names[address].get(thread, thread)} {cpu:.2f}"
                                                  for thread, cpu in busy if cpu >= 0.01))
    idle(runs, tasks, begin, end, args.runs)


if __name__ == "__main__":
    main()
