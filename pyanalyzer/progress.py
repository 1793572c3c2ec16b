"""A one-line progress display with the time left, on standard error when it is a terminal."""

from __future__ import annotations

import sys
import time


class ProgressLine:
    """Call with ``(done, total)``; draws ``[ 45%] 83,000 / 184,756 splits, 3 s left``.

    Silent when standard error is not a terminal (scripts, CI, pipes).
    """

    def __init__(self, unit: str = "splits", stream=None, enabled: bool | None = None) -> None:
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or not total:
            return
        elapsed = time.perf_counter() - self.start
        left = elapsed * (total - done) / done if done else float("nan")
        eta = f", {left:.0f} s left" if done and done < total else ""
        self.stream.write(f"\r[{100 * done / total:3.0f}%] {done:,} / {total:,} {self.unit}{eta}   ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
