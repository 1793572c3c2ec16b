"""Fresh solves of the fixed benchmark layouts (200 per contract kind), timed for one build.

Run it once per build, alternating, with PYTHONPATH naming the build's tree, e.g. an older
commit built in a worktree beside this one:

    for i in 1 2 3 4 5 6 7 8; do
      for tree in ../old-build .; do PYTHONPATH=$tree python benchmarks/side_by_side.py; done
    done

Prints the tree, then the seconds for the misère, trump and no-trump layouts (a table cleared
before each layout, so every solve is fresh; 16 MB table).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layouts import KINDS, full_layouts  # noqa: E402
from solver import Engine  # noqa: E402


def main() -> None:
    seconds = []
    for kind in KINDS:
        engine = Engine(tt_size_mb=16)
        positions = full_layouts(kind)
        start = time.perf_counter()
        for position in positions:
            engine.clear()
            engine.solve(position)
        seconds.append(time.perf_counter() - start)
    tree = Path(sys.modules["solver"].__file__).resolve().parent.parent
    print(tree, " ".join(f"{s:.3f}" for s in seconds))


if __name__ == "__main__":
    main()
