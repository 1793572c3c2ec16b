"""Local threads against a Dask cluster on this machine (results in RESULTS.md, "Dask cluster").

Three jobs, each timed locally and on Dask clusters of 1 and of 2 worker processes on this
machine (one thread each, started here on 127.0.0.1, warmed up by one untimed run):

* **batch**: 2,000 random full deals (``tests/positions.py``, seed "cluster-benchmark"),
  answered as ``pref solve --batch FILE --no-line`` answers them (the verdict of each);
  locally on one engine as the command does, and on two threads of the executor;
* **enumeration**: the misère declarer's view of README's example over all 184,756 splits
  (``pref misere --hand S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h --discard Kc,Ac --lead E``), on
  two local threads as the command does;
* **ranking**: the twelve-card misère of README (``pref misere --hand S=7s,...,Kc,Ac --lead E``):
  its 14 discard classes, each enumerated over the 184,756 splits until provably worse than the
  best complete one (a long job of 14 enumerations, each with its own start and tail).

Two kinds of cluster: Dask's defaults (a ``LocalCluster``: the scheduler and the nannies in this
process), and **README's recipe**: ``dask scheduler`` and ``dask worker ADDRESS --nthreads 1
--nworkers 2`` as processes of their own, with the recipe's lean settings (the workers' profiler
off, the event loops' watchdog tick and the memory monitor once a second instead of 50 and 10
times; on this 2-core machine the scheduler, 2 workers and 2 nannies idle took 17% of a core with
the defaults, 4% lean).

Every run's answers are checked equal to the first local run's. The workers' engines are
cleared before each timed run (a local run makes new ones; a warm table from the previous
run of the same enumeration would make the cluster look several times faster). The scheduler's cost per
task is measured apart: 400 tasks that do nothing, 2 per worker thread out at once (as
the executor sends them), wall time / 400. The overhead share of a job is that cost times
its tasks over the seconds its tasks worked. (The workers' idle time, ``workers x wall -
seconds in tasks``, is shown too: it adds the run's tail and, on a loaded machine, the CPU
the other processes took.) Measures the load does not distort as much: the engines' nodes (the
enumeration's, the ranking's classes'), the tasks' CPU seconds
(the thread that ran them) against their seconds, and the CPU seconds of the cluster's other
work during the run (worker processes beyond their tasks, the scheduler and the nannies in
processes of their own, this process: the client, and LocalCluster's scheduler and nannies),
against the local run's CPU seconds. (``benchmarks/cluster_trace.py`` splits one run further.)

    python benchmarks/cluster.py --repeat 3
    python benchmarks/cluster.py --repeat 1 --jobs enumeration,ranking --layouts 500   # shorter
    python benchmarks/cluster.py --repeat 3 --jobs enumeration,ranking --clusters recipe   # the target's runs
    python benchmarks/cluster.py --alternate --repeat 9 --jobs enumeration    # local and Dask in pairs
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import psutil  # noqa: E402 (a dependency of distributed)
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
from pyanalyzer.preferans.misere import rank_misere_discards  # noqa: E402
from pyanalyzer.preferans.odds import declarer_view  # noqa: E402

CONTRACTS = ["6s", "7c", "8n", "misere", "6h"]
JOBS = ("batch", "enumeration", "ranking")
#: The clusters timed, by name: (workers, kind).
CLUSTERS = {"1": (1, "defaults"), "2": (2, "defaults"), "recipe": (2, "recipe")}
#: README's recipe for the scheduler and workers (its ``DASK_...`` variables, "Running on a cluster").
LEAN = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
        "distributed.worker.memory.monitor-interval": "1s"}
#: Seconds to wait for the recipe's scheduler and workers to start.
START_SECONDS = 120
ANSWER = SolveLine(cards=False, line=False, ace_marriage=False, declare_first_lead=False)


def batch_lines(count: int) -> list[tuple[int, str, None]]:
    rng = random.Random("cluster-benchmark")
    return [(number, format_one_line(random_layout(rng, 10, CONTRACTS, talon_cards=2)), None)
            for number in range(1, count + 1)]


def batch_serial(lines) -> tuple[list[str], None]:
    """As ``pref solve --batch`` runs: one engine, kept warm from line to line. (Answers, and
    no node count: the batch's answers are text.)"""
    backend = make_backend("fast", 64)
    return [answer_line(ANSWER, solution_verdict, backend, number, text)[1] for number, text, _ in lines], None


def batch_on_executor(lines, threads: int) -> tuple[list[str], None]:
    executor = Executor(states=[make_backend("fast", 64) for _ in range(threads)], remote=WarmEngine("fast", 64))
    run = executor.map(BatchLine(ANSWER, solution_verdict), lines, ordered=True)
    with run:
        return [output for _failed, output in run], None


def enumeration(threads: int = 2) -> tuple[list[int], int]:
    """The histogram, and the engines' nodes."""
    rules = PREFERANS_RULES
    hand = Hand(parse_cards("7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", rules.deck), rules.deck)
    odds = declarer_view(hand, "S", parse_cards("Kc,Ac", rules.deck), Contract("misere"), "E", rules,
                         threads=threads)
    assert odds.tally.exact
    return odds.histogram, odds.tally.nodes


def ranking(threads: int = 2) -> tuple[tuple[list, list], int]:
    """The complete discard classes in order with their histograms, and the dropped ones by name
    (their partial counts depend on which blocks came back before the drop); and the nodes of
    the classes' enumerations (the screening's few random splits not counted)."""
    rules = PREFERANS_RULES
    twelve = parse_cards("7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h,Kc,Ac", rules.deck)
    result = rank_misere_discards(twelve, "S", "E", rules, threads=threads)
    assert not result.interrupted

    def name(entry) -> str:
        return ",".join(card.code for card in entry.discard)

    return (([(name(entry), entry.odds.histogram) for entry in result.ranked if not entry.pruned],
             sorted(name(entry) for entry in result.pruned)),
            sum(entry.odds.tally.nodes for entry in result.ranked))


def process_cpu(process) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:   # (gone)
        return 0.0
    return times.user + times.system


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


def environment_variable(key: str) -> str:
    """Dask's name for a setting in the environment: ``DASK_`` and the key, ``.`` as ``__``."""
    return "DASK_" + key.upper().replace(".", "__").replace("-", "_")


@contextlib.contextmanager
def recipe_cluster(workers: int):
    """README's recipe on 127.0.0.1: ``dask scheduler`` and ``dask worker ADDRESS --nthreads 1
    --nworkers N``, each a process of its own, with the lean settings in their environment."""
    with socket.socket() as probe:   # a free port for the scheduler
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    environment = {**os.environ, **{environment_variable(key): str(value) for key, value in LEAN.items()}}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": environment}
    children = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0"], **quiet)]
    try:
        children.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                          "--nthreads", "1", "--nworkers", str(workers),
                                          "--dashboard-address", ":0"], **quiet))
        yield address, psutil.Process(children[0].pid)
    finally:
        for child in reversed(children):
            child.terminate()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


@contextlib.contextmanager
def started(workers: int, kind: str):
    """A cluster of ``workers`` one-thread workers: its address, and its scheduler's process when
    that is not this one."""
    if kind == "recipe":
        with recipe_cluster(workers) as (address, scheduler):
            yield address, scheduler
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as local:
        yield local.scheduler_address, None


def timed(job) -> tuple[float, object]:
    start = time.perf_counter()
    result = job()
    return time.perf_counter() - start, result


def alternate(args, jobs: list[str], work: dict, record, rows: dict) -> None:
    """``--alternate``: on README's recipe, each repeat runs every job locally and then on the
    cluster, so that the machine's drift (its speed moves by 20% within minutes here) falls on
    both alike. During the local runs the cluster's processes are stopped (SIGSTOP), so they take
    none of its CPU, as when no cluster runs. Prints each pair's ratio and their median."""
    with started(2, "recipe") as (address, scheduler), DaskCluster(address) as cluster:
        cluster.client.wait_for_workers(2, timeout=START_SECONDS)
        pids = cluster.client.run(os.getpid)
        workers = [psutil.Process(pid) for pid in pids.values()]
        nannies = {process.parent() for process in workers} - {None}
        cli = {process.parent() for process in nannies} - {None, psutil.Process()}
        others = sorted(nannies | cli | {scheduler}, key=lambda process: process.pid)
        everything = workers + others
        with use_cluster(cluster):
            enumeration()   # warm-up: imports, engines
        for _ in range(args.repeat):
            for job in jobs:
                for process in everything:
                    process.suspend()
                try:
                    record(f"{job}, local: 2 threads (the command)", work[job], job, times=1)
                finally:
                    for process in everything:
                        process.resume()
                with use_cluster(cluster):
                    record(f"{job}, Dask: 2 workers, recipe", work[job], job, cluster, 2, everything, times=1)
    print("\n| job | local s | Dask s | ratio of each pair | median ratio |")
    print("|---|---|---|---|---|")
    for job in jobs:
        local, remote = rows[f"{job}, local: 2 threads (the command)"], rows[f"{job}, Dask: 2 workers, recipe"]
        ratios = [b / a for a, b in zip(local, remote)]
        print(f"| {job} | {', '.join(f'{s:.2f}' for s in local)} | {', '.join(f'{s:.2f}' for s in remote)} "
              f"| {', '.join(f'{r:.3f}' for r in ratios)} | {statistics.median(ratios):.3f} |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--layouts", type=int, default=2000)
    parser.add_argument("--jobs", default=",".join(JOBS), help=f"some of {', '.join(JOBS)}")
    parser.add_argument("--alternate", action="store_true",
                        help="README's recipe only: local and Dask runs one after the other, the cluster's "
                             "processes stopped (SIGSTOP) during the local runs; the ratio of each pair")
    parser.add_argument("--clusters", default=",".join(CLUSTERS),
                        help="some of 1, 2 (LocalClusters of 1 and 2 workers, Dask's defaults) and recipe "
                             "(README's, 2 workers)")
    args = parser.parse_args()
    jobs = [job.strip() for job in args.jobs.split(",")]
    if not set(jobs) <= set(JOBS):
        parser.error(f"--jobs: choose from {', '.join(JOBS)}")
    clusters = [name.strip() for name in args.clusters.split(",")]
    if not set(clusters) <= set(CLUSTERS):
        parser.error(f"--clusters: choose from {', '.join(CLUSTERS)}")
    lines = batch_lines(args.layouts)
    work = {"batch": lambda: batch_on_executor(lines, 2), "enumeration": enumeration, "ranking": ranking}
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)

    rows: dict[str, list[float]] = {}
    node_rows: dict[str, list[int | None]] = {}
    overheads: dict[str, list[tuple]] = {}
    cpu_rows: dict[str, list[tuple]] = {}
    expected = {}
    task_cost: dict[str, float] = {}
    this = psutil.Process()

    def record(name: str, job, key: str, cluster=None, workers: int = 0, processes=(), times=None) -> None:
        for _ in range(args.repeat if times is None else times):
            if cluster is not None:   # as cold as a local run, which makes new engines
                cluster.client.run(clear_warm_states)
                cluster.tasks = cluster.units = 0
                cluster.task_seconds = cluster.task_cpu_seconds = 0.0
            before = [process_cpu(process) for process in processes]
            here = process_cpu(this)
            seconds, (result, nodes) = timed(job)
            here = process_cpu(this) - here
            spent = [process_cpu(process) - start for process, start in zip(processes, before)]
            expected.setdefault(key, result)
            assert result == expected[key], f"{name}: not the local answers"
            rows.setdefault(name, []).append(seconds)
            node_rows.setdefault(name, []).append(nodes)
            if cluster is not None:
                overheads.setdefault(name, []).append((cluster.tasks, cluster.units, cluster.task_seconds,
                                                       workers * seconds))
                worker_cpu, nanny_cpu = sum(spent[:workers]), sum(spent[workers:])
                cpu_rows.setdefault(name, []).append((cluster.task_cpu_seconds, worker_cpu - cluster.task_cpu_seconds,
                                                      nanny_cpu, here))
            else:
                cpu_rows.setdefault(name, []).append((here,))
            counted = "" if nodes is None else f", {nodes / 1e6:.1f} M nodes"
            print(f"  {name}: {seconds:.2f} s{counted} (load {os.getloadavg()[0]:.2f})", flush=True)

    if args.alternate:
        alternate(args, jobs, work, record, rows)
        return
    if "batch" in jobs:
        record("batch, local: one engine (the command)", lambda: batch_serial(lines), "batch")
        record("batch, local: 2 threads", work["batch"], "batch")
    for job in ("enumeration", "ranking"):
        if job in jobs:
            record(f"{job}, local: 2 threads (the command)", work[job], job)
    for workers, kind in (CLUSTERS[name] for name in clusters):
        with started(workers, kind) as (address, scheduler), DaskCluster(address) as cluster:
            cluster.client.wait_for_workers(workers, timeout=START_SECONDS)
            label = f"Dask: {workers} worker{'s' * (workers > 1)}, {kind}"
            pids = cluster.client.run(os.getpid)
            worker_processes = [psutil.Process(pid) for pid in pids.values()]
            # LocalCluster runs the scheduler and the nannies in this process (the workers' parent):
            # counted as "here"; the recipe's are processes of their own.
            apart = ({process.parent() for process in worker_processes} | {scheduler}) - {this, None}
            processes = worker_processes + sorted(apart, key=lambda process: process.pid)
            with use_cluster(cluster):
                batch_on_executor(lines[:200], 2)   # warm-up: imports, engines
                enumeration()
                task_cost[label] = statistics.median(seconds_per_task(cluster) for _ in range(3))
                print(f"  {label}: {1000 * task_cost[label]:.2f} ms per empty task", flush=True)
                for job in jobs:
                    record(f"{job}, {label}", work[job], job, cluster, workers, processes)

    print("\n| run | median s | runs (s) | tasks | units per task | s per task | scheduler overhead "
          "| workers idle |")
    print("|---|---|---|---|---|---|---|---|")
    medians: dict[str, int] = {}
    for name, seconds in rows.items():
        medians[name] = sorted(range(len(seconds)), key=seconds.__getitem__)[len(seconds) // 2]
        cells = ["", "", "", "", ""]
        if name in overheads:
            label = name.split(", ", 1)[1]
            tasks, units, busy, capacity = overheads[name][medians[name]]
            idle = max(0.0, capacity - busy)
            cells = [f"{tasks}", f"{units / tasks:.0f}", f"{busy / tasks:.3f}",
                     f"{100 * task_cost[label] * tasks / busy:.2f}%", f"{100 * idle / capacity:.1f}%"]
        runs = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"| {name} | {statistics.median(seconds):.2f} | {runs} | " + " | ".join(cells) + " |")
    print("\nCPU seconds of the median run (local: this process, its threads; Dask: the tasks' threads, "
          "the worker processes beyond them, the scheduler and nannies in processes of their own (the "
          "recipe's), this process: the client, and LocalCluster's scheduler and nannies):\n")
    print("| run | CPU s | tasks' CPU s / tasks' s | worker processes beyond the tasks | scheduler and nannies apart "
          "| this process |")
    print("|---|---|---|---|---|---|")
    for name, cpus in cpu_rows.items():
        cpu = cpus[medians[name]]
        if len(cpu) == 1:
            print(f"| {name} | {cpu[0]:.2f} |  |  |  |  |")
            continue
        busy = overheads[name][medians[name]][2]
        print(f"| {name} | {sum(cpu):.2f} | {cpu[0]:.2f} / {busy:.2f} | {cpu[1]:.2f} | {cpu[2]:.2f} | {cpu[3]:.2f} |")
    print("\nEngine nodes (the machine-independent yardstick: the search's size, whatever the load) and "
          "CPU per node of the median run (local: the whole process's CPU; Dask: the tasks' CPU):\n")
    print("| run | nodes per run (M) | CPU ns per node |")
    print("|---|---|---|")
    for name, nodes in node_rows.items():
        if None in nodes:
            continue
        cpu = cpu_rows[name][medians[name]][0]
        print(f"| {name} | {', '.join(f'{n / 1e6:.1f}' for n in nodes)} | {1e9 * cpu / nodes[medians[name]]:.0f} |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
