"""Reading a ``--batch`` file line by line, shared by ``pref solve``, ``allpass`` and ``table``.

The lines are answered in chunks: a chunk's lines are read, then solved back to back (no
Python between the engine's searches: its caches stay warm), then written, in input order. A
chunk holds at most :data:`CHUNK_LINES` lines of a file, and its solving stops after
:data:`CHUNK_SECONDS` of work, so the answers still stream; from a pipe or a terminal a chunk is one
line (``--batch -`` works in a pipeline: each line is answered before the next is read).

A line that cannot be read (not UTF-8, a control character, too long) is not fatal: it comes
back as an error for that line, and the batch goes on. The exit status of a batch is 1 when
some line failed (every line still gets its answer or its error record), 0 otherwise.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

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

#: The most lines read, solved and written together.
CHUNK_LINES = 64
#: A chunk stops solving after this many seconds of work (its lines read and not yet solved go
#: to the next): answers keep coming while the lines are quick.
CHUNK_SECONDS = 0.05
#: What a chunk's work is measured in: the process's CPU time, its solving threads' included (on a
#: busy machine the wall clock would cut the chunks short, and with them the engine's warm stretches).
_work_clock = time.process_time

#: ``json.dumps(record, ensure_ascii=False)`` without a new encoder per line.
_json_line = json.JSONEncoder(ensure_ascii=False).encode

_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
_CHUNK = 1 << 16
#: Batch files larger than this are not read twice just to show a total in the progress line.
_COUNTED_SIZE = 64 << 20


def run_batch(path: str, answer: Callable[[object, str], object], backend, unit: str = "layouts",
              verdict: Callable[[object], str] | None = None, remote=None) -> None:
    """Answer every line of a batch file, in order, in chunks written (and flushed) as soon as
    they are known: ``answer(backend, text)`` gives a result with ``to_dict()``, printed as one
    JSON line, or, with ``verdict``, as ``line N: <verdict(result)>``. An ``answer`` with a
    ``read(text)`` method does its work without the engine there, and returns the rest as
    ``task(backend)``: the chunk's tasks then run back to back. A bad line gets its error
    record and the batch goes on (exit status 1 at the end); Ctrl-C keeps the lines written
    (status 130), every line solved before it included.

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

    def emit(outputs: list[tuple[bool, str]]) -> None:
        nonlocal done, failed
        if outputs:
            write("\n".join(text for _failed, text in outputs))
            sys.stdout.flush()
            done += len(outputs)
            failed += sum(line_failed for line_failed, _text in outputs)
            progress(done, total)

    executor = Executor(states=[backend], remote=remote) if remote is not None else None
    try:
        if executor is not None and executor.cluster is not None:
            run = executor.map(BatchLine(answer, verdict), _line_units(path), ordered=True)
            with run:
                for output in run:
                    emit([output])
            if run.interrupted:
                raise KeyboardInterrupt
        else:
            answer_chunks(path, answer, verdict, backend, emit)
    except KeyboardInterrupt:
        progress.close()
        noun = unit if done != 1 or total is not None else unit.removesuffix("s")
        exit_interrupted(f"after {done:,}{of_total} {noun}; the results written are complete")
    progress.close()
    if failed:
        sys.exit(BATCH_LINES_FAILED)


def answer_chunks(path: str, answer, verdict, backend, emit: Callable[[list[tuple[bool, str]]], None]) -> None:
    """Answer the lines of ``path`` chunk by chunk: each chunk's ``(failed, output line)`` in
    input order to ``emit``. Ctrl-C in a chunk first emits the lines solved before it."""
    for chunk in batch_chunks(path, CHUNK_LINES):
        tasks = [(number, read_line(answer, text)) for number, text in chunk]
        while tasks:
            finished: list[tuple[int, object]] = []
            stop = _work_clock() + CHUNK_SECONDS
            try:
                for number, task in tasks:
                    finished.append((number, run_task(task, backend)))
                    if _work_clock() > stop:
                        break
            finally:   # (Ctrl-C: the lines finished are written)
                emit([line_output(verdict, number, result) for number, result in finished])
            tasks = tasks[len(finished):]


def read_line(answer, text: str | PrefInputError):
    """A line's task for :func:`run_task`: ``answer.read(text)`` (its reading done now), or all of
    ``answer`` for later; the error of a line that cannot be read."""
    if isinstance(text, PrefInputError):
        return text
    read = getattr(answer, "read", None)
    if read is None:
        return lambda backend: answer(backend, text)
    try:
        return read(text)
    except PrefInputError as error:
        return error


def run_task(task, backend):
    """A line's result, or its error (a PrefInputError)."""
    if isinstance(task, PrefInputError):
        return task
    try:
        return task(backend)
    except PrefInputError as error:
        return error


def answer_line(answer, verdict, backend, number: int, text: str | PrefInputError) -> tuple[bool, str]:
    """One batch line's output: ``(failed, text)``, its result or its error record."""
    return line_output(verdict, number, run_task(read_line(answer, text), backend))


def line_output(verdict, number: int, result) -> tuple[bool, str]:
    """``(failed, text)`` of one line: its result, or its error record (a PrefInputError)."""
    if isinstance(result, PrefInputError):
        return True, (f"line {number}: error: {result}" if verdict else
                      json.dumps({"error": str(result), "line": number}, ensure_ascii=False))
    if verdict:
        return False, f"line {number}: {verdict(result)}"
    json_line = getattr(result, "json_line", None)   # (a result that writes its JSON itself: no dict)
    return False, json_line() if json_line is not None else _json_line(result.to_dict())


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


def batch_chunks(path: str, size: int) -> Iterator[list[tuple[int, str | PrefInputError]]]:
    """The lines of :func:`batch_lines` in lists of at most ``size``, each what can be read
    without waiting for a writer: from a file, its next ``size`` lines; from a pipe or a
    terminal, one line (each is answered before the next is read)."""
    if not _is_regular_file(path):
        size = 1
    lines = batch_lines(path)
    while chunk := list(islice(lines, size)):
        yield chunk


def _is_regular_file(path: str) -> bool:
    """Whether the batch comes from a regular file (reading it never waits for a writer)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode if path == "-" else os.stat(path).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISREG(mode)


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
