"""``pref solve --batch FILE --json --no-line`` against the engine's own time for the same layouts
(results in RESULTS.md, "Batch overhead (issue 21)").

Layouts: random full deals of every contract kind after the discard (``tests/positions.py``), one set for tuning
(seed "batch-overhead-tuning") and one for the report (seed "batch-overhead-report"), written
one per line to a file. Per repeat:

* **engine**: the layouts read and their positions built beforehand (not timed), then one
  engine (a 64 MB table, as the command's) solves them in order, as the command's ``solve``
  does: ``Engine.solve(position)`` each; CPU and wall seconds of that loop alone;
* **command**: ``python -m pyanalyzer solve --batch FILE --json --no-line`` in a child process,
  its output to a file; CPU seconds (user + system, from ``wait4``) and wall seconds; the same
  command on an empty batch file gives its start-up (interpreter, imports), subtracted for the
  per-layout figures.

* **Python alone**: the command's work on the lines (``answer_chunks``: read a chunk, solve it,
  format it) with the engine stubbed out, in this process: its Python per layout without the
  engine's noise.

The overhead per layout is ``(command - start-up - engine) / layouts``; the target (issue 21) is
the command within 10% of the engine. CPU seconds are the yardstick on a shared machine (both
sides run one thread); the wall times are shown with the load average. Every run's values and
node counts are checked equal to the engine loop's (the command solves the same positions in the
same order on the same kind of engine, so its nodes match too).

    python benchmarks/batch_overhead.py --set report --repeat 3
    python benchmarks/batch_overhead.py --profile      # where the command's Python time goes
    python benchmarks/batch_overhead.py --set report --repeat 5 --against /path/to/main   # before/after
    python benchmarks/batch_overhead.py --set report --instructions --layouts 400   # any load

``--instructions``: the same three figures in instructions executed (valgrind's cachegrind, no
cache simulation; the same on any machine and at any load, but blind to the caches): the
command on the layouts less the command on an empty file, the engine's loop less the same child
that only builds the positions, and the Python alone (engine stubbed) less the same on an empty
file; each per layout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from positions import random_layout  # noqa: E402

from pyanalyzer.engines.registry import make_backend  # noqa: E402
from pyanalyzer.model.layout_io import format_one_line, parse_one_line  # noqa: E402

CONTRACTS = ["6s", "7c", "8n", "misere", "6h"]
SEEDS = {"tuning": "batch-overhead-tuning", "report": "batch-overhead-report"}
COMMAND = [sys.executable, "-m", "pyanalyzer", "solve", "--batch"]
THIS_TREE = Path(__file__).resolve().parents[1]
OPTIONS = ["--json", "--no-line"]


def write_layouts(path: Path, seed: str, count: int) -> list[str]:
    """Full deals after the discard (the talon's two cards out of play): one solve each."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        layout = random_layout(rng, 10, CONTRACTS, talon_cards=2)
        lines.append(format_one_line(replace(layout, talon=(), discard=layout.talon)))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return lines


def engine_run(lines: list[str]) -> tuple[float, float, list[int], int]:
    """The engine alone: ``(cpu s, wall s, values, nodes)``."""
    positions = [parse_one_line(line).position() for line in lines]
    backend = make_backend("fast", 64)
    values = []
    solve = backend.solve
    cpu, wall = time.process_time(), time.perf_counter()
    for position in positions:
        values.append(solve(position))
    return time.process_time() - cpu, time.perf_counter() - wall, values, backend.nodes


def command_run(batch: Path, out: Path, tree: str | None = None) -> tuple[float, float]:
    """The command in a child process: ``(cpu s, wall s)``; ``tree``: the ``pyanalyzer`` of that
    source tree instead of this one's (the engine stays the installed one)."""
    env, folder = tree_environment(tree, batch.parent)
    with open(out, "wb") as sink:
        wall = time.perf_counter()
        process = subprocess.Popen([*COMMAND, str(batch), *OPTIONS], stdout=sink, env=env, cwd=folder)
        _pid, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - wall
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"the command failed (exit status {process.returncode})")
    return usage.ru_utime + usage.ru_stime, wall


def tree_environment(tree: str | None, folder: Path) -> tuple[dict[str, str], Path]:
    """The environment and working folder of a child that imports ``tree``'s ``pyanalyzer`` (None:
    this script's tree), checked. (``python -m`` puts its working folder first on ``sys.path``:
    run from a checkout, it would import that checkout's, whatever ``PYTHONPATH`` says.)"""
    tree = str(Path(tree or THIS_TREE).resolve())
    env = {**os.environ, "PYTHONPATH": tree}
    found = subprocess.run([sys.executable, "-c", "import pyanalyzer; print(pyanalyzer.__file__)"], env=env,
                           cwd=folder, capture_output=True, text=True, check=True).stdout.strip()
    if not found.startswith(tree + os.sep):
        raise SystemExit(f"the child imports {found}, not the tree {tree}")
    return env, folder


def check_output(out: Path, values: list[int], nodes: int) -> None:
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    got = [record["declarer_tricks"] for record in records]
    assert got == values, "the command's values are not the engine's"
    assert all(record["cards"] is None for record in records), "--json without --cards computed card values"
    assert sum(record["nodes"] for record in records) == nodes, "the command searched other nodes"


class StubEngine:
    """An engine that answers at once: the command's own Python per layout, measured alone."""

    name = "fast"
    nodes = 0

    def solve(self, position) -> int:
        return 0


def python_run(batch: Path) -> float:
    """CPU seconds of the command's work on the batch (``answer_chunks``, as ``run_batch`` calls
    it) with the engine stubbed: reading the layouts, building their positions, the results,
    their JSON lines (built, not written)."""
    from pyanalyzer.cli.batch import answer_chunks
    from pyanalyzer.cli.main import SolveLine

    answer, stub = SolveLine(cards=False, line=False, ace_marriage=False, declare_first_lead=False), StubEngine()
    cpu = time.process_time()
    answer_chunks(str(batch), answer, None, stub, lambda outputs: None)
    return time.process_time() - cpu


def profile(batch: Path) -> None:
    """cProfile of the command's batch loop, in this process (the top entries by own time)."""
    import cProfile
    import io
    import pstats
    from contextlib import redirect_stdout

    from pyanalyzer.cli.main import main

    profiler = cProfile.Profile()
    sink = io.StringIO()
    with redirect_stdout(sink):
        profiler.enable()
        try:
            main(["solve", "--batch", str(batch), *OPTIONS], standalone_mode=False)
        finally:
            profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(40)


def instructions(argv: list[str], folder: Path, tree: str | None) -> int:
    """Instructions a child Python executes with ``argv`` (valgrind's cachegrind), importing
    ``tree``'s ``pyanalyzer`` (None: this script's; run in ``folder``)."""
    env, folder = tree_environment(tree, folder)
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, *argv], capture_output=True, text=True, env=env, cwd=folder)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind {' '.join(argv)} failed (exit status {run.returncode}): {run.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def count_instructions(batch: Path, empty: Path, layouts: int, tree: str | None = None) -> None:
    """A row of the ``--instructions`` table (see the module docstring) for ``tree`` (None: this one)."""
    me, folder = str(Path(__file__).resolve()), batch.parent

    def difference(argv: list[str], baseline: list[str]) -> int:
        return instructions(argv, folder, tree) - instructions(baseline, folder, tree)

    per_layout = {
        "command": difference([*COMMAND[1:], str(batch), *OPTIONS], [*COMMAND[1:], str(empty), *OPTIONS]),
        "engine": difference([me, "--child", "engine", str(batch)], [me, "--child", "positions", str(batch)]),
        "Python alone": difference([me, "--child", "python", str(batch)], [me, "--child", "python", str(empty)]),
    }
    per_layout = {name: count / layouts for name, count in per_layout.items()}
    command, engine = per_layout["command"], per_layout["engine"]
    print(f"| {tree or THIS_TREE} | {layouts} | {command / 1e3:,.0f} K | {engine / 1e3:,.0f} K "
          f"| {command / engine:.3f} | {(command - engine) / 1e3:,.0f} K | {per_layout['Python alone'] / 1e3:,.0f} K |")


def child(job: str, batch: Path) -> None:
    """``--child``: one job of ``--instructions`` in this process (valgrind counts it)."""
    if job == "python":
        python_run(batch)
        return
    lines = batch.read_text(encoding="utf-8").splitlines()
    if job == "engine":
        engine_run(lines)
    else:
        [parse_one_line(line).position() for line in lines]
        make_backend("fast", 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SEEDS), default="report")
    parser.add_argument("--layouts", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile the command's loop instead")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions instead of timing (valgrind; use fewer --layouts, e.g. 400)")
    parser.add_argument("--child", nargs=2, metavar=("JOB", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--against", metavar="TREE",
                        help="also time the command of another source tree (e.g. a checkout of main), "
                             "right after this one's in every repeat")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        batch, empty, out = Path(folder, "layouts.txt"), Path(folder, "empty.txt"), Path(folder, "out.jsonl")
        lines = write_layouts(batch, SEEDS[args.set], args.layouts)
        empty.write_text("", encoding="utf-8")
        if args.profile:
            profile(batch)
            return
        if args.instructions:
            print("| tree | layouts | command, per layout | engine, per layout | command / engine "
                  "| overhead per layout | Python alone per layout |")
            print("|---|---|---|---|---|---|---|", flush=True)
            for tree in (None, args.against) if args.against else (None,):
                count_instructions(batch, empty, len(lines), tree)
            return
        print(f"{args.set} set, {len(lines)} layouts; load average before: {os.getloadavg()[0]:.2f}", flush=True)
        engine_cpu, engine_wall, command_cpu, command_wall, startup_cpu, python_cpu = [], [], [], [], [], []
        other_cpu, other_startup_cpu = [], []
        for _ in range(args.repeat):
            cpu_engine, wall, values, nodes = engine_run(lines)
            engine_cpu.append(cpu_engine)
            engine_wall.append(wall)
            startup_cpu.append(command_run(empty, out)[0])
            cpu, wall = command_run(batch, out)
            check_output(out, values, nodes)
            command_cpu.append(cpu)
            command_wall.append(wall)
            python_cpu.append(python_run(batch))
            print(f"  engine {engine_cpu[-1]:.2f} s CPU ({engine_wall[-1]:.2f} s wall); command {cpu:.2f} s CPU "
                  f"({wall:.2f} s wall), start-up {startup_cpu[-1]:.2f} s CPU, Python alone "
                  f"{python_cpu[-1]:.2f} s CPU; load {os.getloadavg()[0]:.2f}",
                  flush=True)
            if args.against:
                other_startup_cpu.append(command_run(empty, out, args.against)[0])
                other_cpu.append(command_run(batch, out, args.against)[0])
                check_output(out, values, nodes)
                print(f"  {args.against}: command {other_cpu[-1]:.2f} s CPU, start-up {other_startup_cpu[-1]:.2f} s "
                      f"CPU, without start-up / engine {(other_cpu[-1] - other_startup_cpu[-1]) / cpu_engine:.3f} "
                      f"(this tree's {(cpu - startup_cpu[-1]) / cpu_engine:.3f})", flush=True)
        engine, command, startup = (statistics.median(x) for x in (engine_cpu, command_cpu, startup_cpu))
        per_layout = 1e6 * (command - startup - engine) / len(lines)
        print(f"\nnodes per run: {nodes:,}")
        python = 1e6 * statistics.median(python_cpu) / len(lines)
        print("| set | layouts | engine CPU s | command CPU s | start-up CPU s | command / engine "
              "| without start-up | overhead per layout | Python alone per layout | engine per layout |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        print(f"| {args.set} | {len(lines)} | {engine:.2f} | {command:.2f} | {startup:.2f} | {command / engine:.3f} "
              f"| {(command - startup) / engine:.3f} | {per_layout:.0f} µs | {python:.0f} µs "
              f"| {1e6 * engine / len(lines):.0f} µs |")
        print(f"(medians of {args.repeat}; wall: engine {statistics.median(engine_wall):.2f} s, command "
              f"{statistics.median(command_wall):.2f} s; load average after: {os.getloadavg()[0]:.2f})")
        if args.against:
            other, other_startup = statistics.median(other_cpu), statistics.median(other_startup_cpu)
            print(f"{args.against}: command {other:.2f} s CPU, start-up {other_startup:.2f} s, without start-up "
                  f"/ engine {(other - other_startup) / engine:.3f} (medians of {args.repeat})")


if __name__ == "__main__":
    main()
