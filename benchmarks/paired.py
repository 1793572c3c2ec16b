"""Time two builds of the engine against each other, interleaved layout by layout.

    python benchmarks/paired.py --a TREE --b TREE [--set tune|report] [--kinds KIND,...]
                                [--rounds N] [--repeat N] [--layouts N] [--tt-mb MB] [--seed N]
    python benchmarks/paired.py --a TREE --b TREE --warm HAND [--kinds KIND] [--splits N]
                                [--chunk N] [--rounds N] [--warm-tt-mb MB]

A shared machine's speed drifts by tens of percent from one minute to the next, so two
builds timed one after the other (``report.py`` run twice) compare badly. Here each build
runs in its own worker process (``TREE`` is a checkout with the engine built in place, its
``pref_engine`` and ``pyanalyzer`` used), and the two are asked in turn for the same work a
few milliseconds apart, the order of each pair drawn at random: the drift falls on both.

Fresh (the default): the set's 200 layouts of each kind, each solved ``--repeat`` times from
an empty table per turn, the fastest kept; ``--rounds`` turns per layout, the fastest kept
again. Printed per kind: each build's median and mean, and the median over layouts of the
time ratio b / a with its spread over rounds (the median ratio of each round alone).

Warm (``--warm HAND``): the first ``--splits`` splits of the defenders' cards for one declarer
hand, solved as the enumerations do (``Engine.solve_batch``, one table kept warm per build),
in chunks of ``--chunk`` splits, the two builds alternating chunk by chunk. ``--rounds`` whole
passes, each build's table emptied before a pass. Printed: the seconds of each pass and the
ratio of the total times.

Both builds must give the same value for every layout (checked; nodes may differ). A row is
printed only when its kind (or pass) is complete: Ctrl-C or SIGTERM stops both workers, leaves
the rows printed so far, says so on stderr and exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------------------------
# The worker: one build, answering requests on stdin with one JSON line each.


def worker(tree: Path) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # (the coordinating process stops it)
    sys.path[:0] = [str(tree), str(tree / "solver"), str(HERE)]
    import pref_engine

    if not os.path.abspath(pref_engine.__file__).startswith(str(tree) + os.sep):
        raise SystemExit(f"paired: the engine of {tree} was not imported ({pref_engine.__file__})")
    from layouts import full_layouts, split_masks

    engine = None
    layouts: dict[tuple[str, str], list] = {}
    batches: dict[tuple[str, str], tuple] = {}
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        if op == "engine":
            engine = pref_engine.Engine(tt_size_mb=request["tt_mb"])
            reply = {"tt_bytes": engine.tt_bytes}
        elif op == "fresh":
            key = (request["kind"], request["seed"])
            if key not in layouts:
                layouts[key] = full_layouts(request["kind"], seed=request["seed"])
            pos = layouts[key][request["index"]]
            best = None
            for _ in range(request["repeat"]):
                engine.clear()
                t = time.perf_counter_ns()
                value = engine.solve(pos)
                dt = time.perf_counter_ns() - t
                best = dt if best is None else min(best, dt)
            reply = {"ns": best, "value": value, "nodes": engine.stats["nodes"]}
        elif op == "warm":
            key = (request["kind"], request["hand"])
            if key not in batches:
                first, masks = split_masks(request["kind"], request["hand"])
                engine.solve(first)       # (the entry format follows the deck)
                batches[key] = (first, masks)
            first, masks = batches[key]
            if request["start"] == 0:
                engine.clear()
            chunk = masks[request["start"]:request["stop"]]
            t = time.perf_counter_ns()
            values = engine.solve_batch(first, (1, 2), (0, 0), chunk)
            dt = time.perf_counter_ns() - t
            reply = {"ns": dt, "values": list(values), "nodes": engine.stats["nodes"]}
        else:
            raise SystemExit(f"paired: unknown request {op!r}")
        print(json.dumps(reply), flush=True)


class Build:
    """A worker process running one tree's build."""

    def __init__(self, name: str, tree: Path):
        self.name = name
        self.tree = tree
        env = dict(os.environ, PYTHONPATH=f"{tree}{os.pathsep}{tree / 'solver'}")
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree, env=env)

    def ask(self, **request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"paired: the worker of {self.tree} ended")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def in_turn(rng: random.Random, builds, **request):
    """Ask both builds for the same work, in a random order; the replies in the builds' order."""
    order = list(range(len(builds)))
    rng.shuffle(order)
    replies = [None] * len(builds)
    for i in order:
        replies[i] = builds[i].ask(**request)
    return replies


def fresh(args, builds, rng) -> None:
    from layouts import SETS

    count = args.layouts
    seed = SETS[args.set]["fresh"]
    print(f"set: {args.set} (seed {seed!r}, {count} layouts a kind), {args.rounds} rounds x"
          f" {args.repeat} solves a turn, {args.tt_mb:g} MB\n")
    print("| kind | a median ms | b median ms | a mean ms | b mean ms | median ratio b/a |"
          " ratio by round (min-max) | a nodes | b nodes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        best = [[None] * count for _ in builds]
        round_ratios = []
        nodes = [0, 0]
        for _ in range(args.rounds):
            ratios = []
            indices = list(range(count))
            rng.shuffle(indices)
            for i in indices:
                a, b = in_turn(rng, builds, op="fresh", kind=kind, seed=seed, index=i,
                               repeat=args.repeat)
                if a["value"] != b["value"]:
                    raise SystemExit(f"paired: {kind} layout {i}: values differ {a['value']} / {b['value']}")
                for k, reply in enumerate((a, b)):
                    old = best[k][i]
                    best[k][i] = reply["ns"] if old is None else min(old, reply["ns"])
                    nodes[k] += reply["nodes"]
                ratios.append(b["ns"] / a["ns"])
            round_ratios.append(statistics.median(ratios))
        ms = [[ns / 1e6 for ns in times] for times in best]
        ratio = statistics.median(b / a for a, b in zip(ms[0], ms[1], strict=True))
        print(f"| {kind} | {statistics.median(ms[0]):.3f} | {statistics.median(ms[1]):.3f} |"
              f" {statistics.mean(ms[0]):.3f} | {statistics.mean(ms[1]):.3f} | **{ratio:.3f}** |"
              f" {min(round_ratios):.3f}-{max(round_ratios):.3f} |"
              f" {nodes[0] // args.rounds:,} | {nodes[1] // args.rounds:,} |", flush=True)


def warm(args, builds, rng) -> None:
    from layouts import split_masks

    kind = args.kinds.split(",")[0]
    _, masks = split_masks(kind, args.warm)
    total = len(masks) if args.splits == 0 else min(args.splits, len(masks))
    print(f"warm: {kind}, hand {args.warm}, {total} splits in chunks of {args.chunk},"
          f" {args.warm_tt_mb:g} MB a build, {args.rounds} passes\n")
    print("| pass | a s | b s | b/a | a nodes | b nodes |")
    print("|---|---|---|---|---|---|")
    sums = [0, 0]
    for n in range(args.rounds):
        seconds = [0, 0]
        nodes = [0, 0]
        for start in range(0, total, args.chunk):
            stop = min(start + args.chunk, total)
            a, b = in_turn(rng, builds, op="warm", kind=kind, hand=args.warm, start=start, stop=stop)
            if a["values"] != b["values"]:
                raise SystemExit(f"paired: {kind} {args.warm} splits {start}-{stop}: values differ")
            for k, reply in enumerate((a, b)):
                seconds[k] += reply["ns"] / 1e9
                nodes[k] += reply["nodes"]
        sums[0] += seconds[0]
        sums[1] += seconds[1]
        print(f"| {n + 1} | {seconds[0]:.3f} | {seconds[1]:.3f} | {seconds[1] / seconds[0]:.3f} |"
              f" {nodes[0]:,} | {nodes[1]:,} |", flush=True)
    print(f"\ntotal b/a: **{sums[1] / sums[0]:.3f}**")


def stop(signum, frame) -> None:
    """SIGTERM stops the run as Ctrl-C does."""
    raise KeyboardInterrupt


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(Path(sys.argv[2]).resolve())
        return
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parent))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, type=Path, help="the first tree (the baseline)")
    parser.add_argument("--b", required=True, type=Path, help="the second tree (the change)")
    parser.add_argument("--set", choices=("tune", "report"), default="report")
    parser.add_argument("--kinds", default="misere,trump,nt")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="fresh: solves a turn (fastest kept)")
    parser.add_argument("--layouts", type=int, default=200, help="fresh: the first N layouts a kind")
    parser.add_argument("--tt-mb", type=float, default=16.0)
    parser.add_argument("--warm", metavar="HAND", help="warm: the declarer hand's seed (e.g. r2)")
    parser.add_argument("--splits", type=int, default=20000, help="warm: splits (0: all)")
    parser.add_argument("--chunk", type=int, default=500, help="warm: splits a turn")
    parser.add_argument("--warm-tt-mb", type=float, default=64.0)
    parser.add_argument("--seed", type=int, default=1, help="the order of the turns")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1 or args.chunk < 1 or args.splits < 0 \
            or not 1 <= args.layouts <= 200:
        parser.error("--rounds, --repeat and --chunk must be positive, --splits not negative,"
                     " --layouts 1-200")
    rng = random.Random(args.seed)
    signal.signal(signal.SIGTERM, stop)
    builds = [Build("a", args.a.resolve()), Build("b", args.b.resolve())]
    try:
        mb = args.warm_tt_mb if args.warm else args.tt_mb
        sizes = [b.ask(op="engine", tt_mb=mb)["tt_bytes"] for b in builds]
        print(f"a: {args.a}\nb: {args.b}\ntables: {sizes[0]:,} / {sizes[1]:,} bytes")
        (warm if args.warm else fresh)(args, builds, rng)
    except KeyboardInterrupt:
        print("paired: interrupted; the rows above are complete, the one in progress is left out",
              file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        for b in builds:
            b.close()


if __name__ == "__main__":
    main()
