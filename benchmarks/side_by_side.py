"""Fresh solves of the fixed benchmark layouts (200 per contract kind), timed for one build.

Run it once per build, alternating, naming the build's tree (a checkout built in place with
``python setup.py build_ext --inplace``), e.g. an older commit built in a worktree beside this one:

    for i in 1 2 3 4 5 6 7 8; do
      for tree in ../old-build .; do python benchmarks/side_by_side.py $tree; done
    done

The engine is imported from that tree: ``solver/pref_engine`` or, in builds before the engine
was installed as ``pref_engine``, the package ``solver``.

Prints the tree, then the seconds for the misère, trump and no-trump layouts and for the
Whist endings (a table cleared before each layout, so every solve is fresh; 16 MB table),
then the nodes searched per set (independent of the machine's load: equal nodes mean the
same search).
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layouts import KINDS, full_layouts, whist_endings  # noqa: E402


def engine_class(tree: Path):
    """The ``Engine`` class built in the checkout ``tree``."""
    if (tree / "solver" / "pref_engine").is_dir():
        sys.path.insert(0, str(tree / "solver"))
        module = importlib.import_module("pref_engine")
    else:
        sys.path.insert(0, str(tree))
        module = importlib.import_module("solver")
    return module.Engine, Path(module.__file__).resolve().parent


def main() -> None:
    tree = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    Engine, package = engine_class(tree)
    seconds = []
    nodes = []
    for positions in [full_layouts(kind) for kind in KINDS] + [whist_endings()]:
        engine = Engine(tt_size_mb=16)
        count = 0
        start = time.perf_counter()
        for position in positions:
            engine.clear()
            engine.solve(position)
            count += engine.stats["nodes"]
        seconds.append(time.perf_counter() - start)
        nodes.append(count)
    print(package, " ".join(f"{s:.3f}" for s in seconds), " ".join(str(n) for n in nodes))


if __name__ == "__main__":
    main()
