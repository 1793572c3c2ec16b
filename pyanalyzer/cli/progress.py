"""Progress on standard error: a redrawn line on a terminal, an occasional plain line in logs.

On a terminal: ``[ 45%] 83,000 / 184,756 splits, 3 s left``, redrawn in place.
Otherwise (a log file, a pipe): the same text on a line of its own every
``PREF_PROGRESS_EVERY`` seconds (default 10), so that the log of a long run
shows it is progressing. A job of several enumerations (a twelve-card ranking)
names its stage: ``discard class 3 of 14: [ 45%] ...``; the time left is then
that of the stage, measured from the stage's own start.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

#: Seconds between plain progress lines when standard error is not a terminal.
DEFAULT_EVERY = 10.0


def _every_from_environment() -> float:
    text = os.environ.get("PREF_PROGRESS_EVERY", "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_EVERY
    return value if value >= 0 else DEFAULT_EVERY


class ProgressLine:
    """Call with ``(done, total)``; draws ``[ 45%] 83,000 / 184,756 splits, 3 s left``.

    ``enabled=False`` silences it. ``every``: seconds between plain lines when
    the stream is not a terminal (default: ``PREF_PROGRESS_EVERY`` or 10).
    """

    def __init__(self, unit: str = "splits", stream=None, enabled: bool | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.unit = unit
        self.stream = stream or sys.stderr
        try:
            self.terminal = self.stream.isatty()
        except (AttributeError, ValueError):
            self.terminal = False
        self.enabled = True if enabled is None else enabled
        self.every = _every_from_environment() if every is None else every
        self.clock = clock
        self.start = self.stage_start = clock()
        self.last_line: float | None = None
        self.stage_text = self.stage_label = ""
        self.stage_may_stop_early = False
        self.stage_unit: str | None = None
        self.drawn = False

    def stage(self, label: str, number: int | None = None, count: int | None = None,
              may_stop_early: bool = False, unit: str | None = None) -> None:
        """A new stage of a job (``discard class 3 of 14``): the percentage and the time left
        are the stage's (``may_stop_early``: the time left is an upper bound); ``unit``
        names what the stage counts, if not the line's unit."""
        self.stage_text = f"{label} {number} of {count}: " if number is not None else f"{label}: "
        self.stage_label = label if number is not None else ""
        self.stage_start = self.clock()
        self.stage_may_stop_early = may_stop_early
        self.stage_unit = unit

    def text(self, done: int, total: int) -> str:
        now = self.clock()
        elapsed = now - self.stage_start
        line = f"{self.stage_text}[{100 * done / total:3.0f}%] {done:,} / {total:,} {self.stage_unit or self.unit}"
        if 0 < done < total and elapsed > 0:
            left = elapsed * (total - done) / done
            bound = "at most " if self.stage_may_stop_early else ""
            where = f" in this {self.stage_label}" if self.stage_label else ""
            line += f", {bound}{left:.0f} s left{where}"
        if self.stage_text:
            line += f"; {now - self.start:.0f} s so far"
        return line

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or not total:
            return
        if self.terminal:
            self.stream.write(f"\r{self.text(done, total)}   ")
            self.stream.flush()
            self.drawn = True
            return
        now = self.clock()
        if self.last_line is None:
            self.last_line = self.start
        if now - self.last_line >= self.every:
            self.last_line = now
            self.stream.write(f"progress: {self.text(done, total)}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
