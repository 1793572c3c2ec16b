"""Progress on standard error: a bar on a terminal, an occasional plain line in logs.

On a terminal: a bar drawn by rich (``━━━━━━╸━━━━━  45% 83,000 / 184,756 splits,
3 s left``), redrawn in place. Otherwise (a log file, a pipe): the same figures as
text, ``progress: [ 45%] 83,000 / 184,756 splits, 3 s left``, on a line of its own
every ``PREF_PROGRESS_EVERY`` seconds (default 10), so that the log of a long run
shows it is progressing. A job of several enumerations (a twelve-card ranking)
names its stage: ``discard class 3 of 14``; the time left is then that of the
stage, measured from the stage's own start, and an upper bound (``at most``)
where the stage may stop early.
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


#: Seconds between redraws of the bar (the figures are updated at every call).
REDRAW_EVERY = 0.1


class ProgressLine:
    """Call with ``(done, total)``: a bar on a terminal, ``progress: [ 45%] 83,000 / 184,756
    splits, 3 s left`` lines otherwise.

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
        self.bar: TerminalBar | None = None

    def stage(self, label: str, number: int | None = None, count: int | None = None,
              may_stop_early: bool = False, unit: str | None = None) -> None:
        """A new stage of a job (``discard class 3 of 14``): the percentage and the time left
        are the stage's (``may_stop_early``: the time left is an upper bound); ``unit``
        names what the stage counts, if not the line's unit."""
        self.stage_text = f"{label} {number} of {count}" if number is not None else label
        self.stage_label = label if number is not None else ""
        self.stage_start = self.clock()
        self.stage_may_stop_early = may_stop_early
        self.stage_unit = unit

    def figures(self, done: int, total: int | None) -> tuple[str, str]:
        """``("83,000 / 184,756 splits", "at most 3 s left")``: the count and the time left
        (empty before the first unit is done, once all are, and when the total is unknown)."""
        unit = self.stage_unit or self.unit
        if total is None:
            return f"{done:,} {unit}", ""
        count = f"{done:,} / {total:,} {unit}"
        elapsed = self.clock() - self.stage_start
        if not (0 < done < total and elapsed > 0):
            return count, ""
        bound = "at most " if self.stage_may_stop_early else ""
        return count, f"{bound}{elapsed * (total - done) / done:.0f} s left"

    def text(self, done: int, total: int | None) -> str:
        """The plain line: ``discard class 3 of 14: [ 45%] 83,000 / 184,756 splits, at most
        3 s left in this discard class; 40 s so far``."""
        count, left = self.figures(done, total)
        share = f"[{100 * done / total:3.0f}%] " if total is not None else ""
        line = (f"{self.stage_text}: " if self.stage_text else "") + share + count
        if left:
            line += f", {left}" + (f" in this {self.stage_label}" if self.stage_label else "")
        if self.stage_text:
            line += f"; {self.clock() - self.start:.0f} s so far"
        return line

    def __call__(self, done: int, total: int | None) -> None:
        """``done`` of ``total`` units (``total`` None: not known, counted without a share)."""
        if not self.enabled or total == 0:
            return
        if self.terminal:
            if self.bar is None:
                self.bar = TerminalBar(self.stream, self.clock)
            count, left = self.figures(done, total)
            figures = f"{count}, {left}" if left else count
            if self.stage_text:
                figures = f"{self.stage_text}: {figures}; {self.clock() - self.start:.0f} s so far"
            self.bar.update(done, total, figures)
            return
        now = self.clock()
        if self.last_line is None:
            self.last_line = self.start
        if now - self.last_line >= self.every:
            self.last_line = now
            self.stream.write(f"progress: {self.text(done, total)}\n")
            self.stream.flush()

    def close(self) -> None:
        """End the bar (its last state stays on the screen); safe to call more than once."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class TerminalBar:
    """One rich progress bar on ``stream`` (a terminal), redrawn by the caller's updates at
    most every :data:`REDRAW_EVERY` seconds: no drawing thread of its own, so an interruption
    finds nothing running but the caller."""

    def __init__(self, stream, clock: Callable[[], float]) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

        from pyanalyzer.cli.terminal import color_wanted

        console = Console(file=stream, force_terminal=True, no_color=not color_wanted(stream),
                          highlight=False)
        self.clock = clock
        self.progress = Progress(
            BarColumn(bar_width=30), TaskProgressColumn(), TextColumn("{task.fields[figures]}", markup=False),
            console=console, auto_refresh=False, get_time=clock, redirect_stdout=False, redirect_stderr=False)
        self.task = self.progress.add_task("", total=None, figures="")
        self.drawn_at: float | None = None

    def update(self, done: int, total: int | None, figures: str) -> None:
        self.progress.update(self.task, completed=done, total=total, figures=figures)
        now = self.clock()
        if self.drawn_at is None:
            self.progress.start()  # draws the first state
        elif now - self.drawn_at >= REDRAW_EVERY or done == total:
            self.progress.refresh()
        else:
            return
        self.drawn_at = now

    def close(self) -> None:
        """Draw the last state and leave it on the screen."""
        if self.drawn_at is not None:
            self.progress.stop()
