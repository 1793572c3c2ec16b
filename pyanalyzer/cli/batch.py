"""Reading a ``--batch`` file line by line, shared by ``pref solve``, ``allpass`` and ``table``.

Each line is read and answered before the next is read (``--batch -`` works in
a pipeline). A line that cannot be read (not UTF-8, a control character, too
long) is not fatal: it comes back as an error for that line, and the batch goes
on. The exit status of a batch is 1 when some line failed (every line still
gets its answer or its error record), 0 otherwise.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import click

from pyanalyzer.cli.progress import ProgressLine
from pyanalyzer.cli.support import exit_interrupted, fail
from pyanalyzer.cli.terminal import echo_text
from pyanalyzer.errors import LayoutError, PrefInputError
from pyanalyzer.model.layout_io import MAX_LAYOUT_SIZE

#: Exit status of a batch in which some lines failed.
BATCH_LINES_FAILED = 1

#: What the help of every ``--batch`` option says about the exit status.
BATCH_EXIT_HELP = "Exit status 1 if any line failed (each still gets its result or error record)."

_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
_CHUNK = 1 << 16
#: Batch files larger than this are not read twice just to show a total in the progress line.
_COUNTED_SIZE = 64 << 20


def run_batch(path: str, answer: Callable[[object, str], object], backend, unit: str = "layouts",
              verdict: Callable[[object], str] | None = None, remote=None) -> None:
    """Answer every line of a batch file, in order, each written (and flushed) as soon as it
    is known: ``answer(backend, text)`` gives a result with ``to_dict()``, printed as one JSON
    line, or, with ``verdict``, as ``line N: <verdict(result)>``. A bad line gets its error
    record and the batch goes on (exit status 1 at the end); Ctrl-C keeps the lines written
    (status 130).

    ``remote`` (the engine a cluster worker uses, :class:`pyanalyzer.engines.registry.WarmEngine`):
    with a cluster in use (``--scheduler``), the lines are answered on its workers, in chunks,
    and written in input order as they come back; ``answer`` and ``verdict`` must then pickle."""
    from pyanalyzer.engines.executor import Executor

    total = counted_lines(path)
    of_total = f" of {total:,}" if total is not None else ""
    # A bar only on a terminal, and only while the results go elsewhere (a file): on the screen
    # they show the progress themselves, and a log gets the results, not a count.
    progress = ProgressLine(unit, enabled=_is_terminal(sys.stderr) and not _is_terminal(sys.stdout))
    # Verdict lines may be coloured on a terminal; JSON Lines never are.
    write = echo_text if verdict else click.echo
    done = failed = 0
    executor = Executor(states=[backend], remote=remote) if remote is not None else None
    try:
        if executor is not None and executor.cluster is not None:
            run = executor.map(BatchLine(answer, verdict), _line_units(path), ordered=True)
            with run:
                for line_failed, output in run:
                    write(output)
                    sys.stdout.flush()
                    done += 1
                    failed += line_failed
                    progress(done, total)
            if run.interrupted:
                raise KeyboardInterrupt
        else:
            for number, text in batch_lines(path):
                line_failed, output = answer_line(answer, verdict, backend, number, text)
                write(output)
                sys.stdout.flush()
                done += 1
                failed += line_failed
                progress(done, total)
    except KeyboardInterrupt:
        progress.close()
        exit_interrupted(f"after {done:,}{of_total} {unit}; the results written are complete")
    progress.close()
    if failed:
        sys.exit(BATCH_LINES_FAILED)


def answer_line(answer, verdict, backend, number: int, text: str | PrefInputError) -> tuple[bool, str]:
    """One batch line's output: ``(failed, text)``, its result or its error record."""
    try:
        if isinstance(text, PrefInputError):  # the line could not be read (not UTF-8, too long)
            raise text
        result = answer(backend, text)
    except PrefInputError as error:
        return True, (f"line {number}: error: {error}" if verdict else
                      json.dumps({"error": str(error), "line": number}, ensure_ascii=False))
    return False, (f"line {number}: {verdict(result)}" if verdict else
                   json.dumps(result.to_dict(), ensure_ascii=False))


@dataclass(frozen=True)
class BatchLine:
    """The work on one batch line on a cluster worker: a unit ``(number, text, error)`` (the
    error a line that could not be read, as text) -> ``(failed, output line)``."""

    answer: Callable[[object, str], object]
    verdict: Callable[[object], str] | None

    def __call__(self, backend, unit: tuple[int, str | None, str | None]) -> tuple[bool, str]:
        number, text, error = unit
        if error is not None:
            text = PrefInputError(error, f"line {number}")
        return answer_line(self.answer, self.verdict, backend, number, text)


def _line_units(path: str) -> Iterator[tuple[int, str | None, str | None]]:
    for number, text in batch_lines(path):
        if isinstance(text, PrefInputError):
            yield number, None, str(text)
        else:
            yield number, text, None


def batch_lines(path: str) -> Iterator[tuple[int, str | PrefInputError]]:
    """``(line number, text)`` for each line to answer, or ``(line number, error)`` for one
    that cannot be read. Blank lines and ``#`` comments are skipped (numbers still count them)."""
    try:
        handle = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        fail(f"cannot read batch file {path!r}: {error.strerror or error}")
    try:
        number = 0
        while True:
            try:
                raw, complete = _read_line(handle)
            except OSError as error:
                fail(f"cannot read batch file {path!r} after line {number}: {error.strerror or error}")
            if not raw and complete:
                return
            number += 1
            if number == 1 and raw.startswith(_BYTE_ORDER_MARK):
                raw = raw[len(_BYTE_ORDER_MARK):]
            if not complete:
                yield number, LayoutError(f"line {number} is over {MAX_LAYOUT_SIZE:,} bytes: not a layout",
                                          f"line {number}")
                continue
            try:
                text = raw.decode("utf-8").strip()
            except UnicodeDecodeError as error:
                yield number, LayoutError(f"line {number} is not UTF-8 text (byte 0x{raw[error.start]:02x} "
                                          f"at column {error.start + 1})", f"line {number}")
                continue
            if text and not text.startswith("#"):
                yield number, text
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _read_line(handle) -> tuple[bytes, bool]:
    """One line (at most ``MAX_LAYOUT_SIZE`` bytes): ``(bytes, True)``, or ``(b"", False)`` for
    a longer line, whose rest is skipped without keeping it. ``(b"", True)`` at the end."""
    line = handle.readline(MAX_LAYOUT_SIZE + 2)
    if len(line) <= MAX_LAYOUT_SIZE + 1 or line.endswith(b"\n"):
        return line, True
    while line and not line.endswith(b"\n"):
        line = handle.readline(_CHUNK)
    return b"", False


def counted_lines(path: str) -> int | None:
    """How many lines a batch file has to answer, for the progress display; None when it
    cannot be known without reading ahead (standard input, a pipe)."""
    if path == "-" or not os.path.isfile(path) or os.path.getsize(path) > _COUNTED_SIZE:
        return None
    count = 0
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                text = raw.strip()
                if text and not text.startswith(b"#") and text != _BYTE_ORDER_MARK:
                    count += 1
    except OSError:
        return None
    return count


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
