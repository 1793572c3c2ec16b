"""``--batch`` in chunks (pyanalyzer/cli/batch.py): a chunk's lines are read, then solved back to
back, then written. The output must be the one-line-at-a-time output byte for byte (but for each
line's measured ``seconds``), in input order, streamed chunk by chunk; Ctrl-C writes every line
solved before it, and nothing after."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from click.testing import CliRunner
from positions import play_random_cards, random_layout

import pyanalyzer.cli.batch as batch
from pyanalyzer.analysis.solve import solve_later
from pyanalyzer.cli.allpass import AllpassLine
from pyanalyzer.cli.batch import answer_chunks, answer_line
from pyanalyzer.cli.main import SolveLine, main, solution_verdict
from pyanalyzer.engines.registry import make_backend
from pyanalyzer.model.layout_io import format_one_line, parse_one_line, read_layout, read_one_line
from pyanalyzer.model.layout_masks import LayoutMasks
from pyanalyzer.model.rules import AllPassRules
from pyanalyzer.preferans.allpass import AllPassSolution


def _mixed_lines() -> list[bytes]:
    """Every kind of line ``pref solve --batch`` answers, and every kind it refuses: trump,
    no-trump and misère endings, some from a trick in progress, all-pass, a full deal with the
    discard still open, Whist and Thousand endings; a bad card, a missing declarer, a byte that
    is not UTF-8, comments and blank lines (skipped, still counted)."""
    rng = random.Random("batch-chunks")
    lines = []
    for i in range(70):
        layout = random_layout(rng, rng.randint(3, 5), ["6s", "7h", "8n", "misere", "allpass"])
        if i % 3 == 0:
            layout = play_random_cards(rng, layout, rng.randint(1, 2))
        lines.append(format_one_line(layout).encode())
    discard_open = read_layout("layouts/seven-clubs-discard.txt")
    whist = read_layout("layouts/whist-deal.txt")
    thousand = read_layout("layouts/thousand-deal.txt")
    lines[5:5] = [format_one_line(replace(discard_open, title=None, source=None)).encode()]
    lines[20:20] = [format_one_line(play_random_cards(rng, whist, 36)).encode()]
    lines[30:30] = [format_one_line(play_random_cards(rng, thousand, 15)).encode()]
    lines[10:10] = [b"contract=6s declarer=S lead=S S=As,Xs W=Ks,Kh E=Qs,Qh", b"# a comment", b""]
    lines[40:40] = [b"contract=6s lead=S S=As W=Ks E=Qs", b"contract=6s S=\xff\xfe"]
    return lines


LINES = _mixed_lines()
SECONDS = re.compile(rb'"seconds": [0-9.e-]+')


def _one_line_at_a_time(answer, verdict, lines: list[bytes]) -> bytes:
    """The oracle: each line read, solved and written before the next (``answer_line``, as a
    cluster worker answers a line), one engine for all, as the batch's."""
    backend, out = make_backend("fast", 16), []
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            continue  # (the batch's own error record for it is checked apart)
        if text and not text.startswith("#"):
            out.append(answer_line(answer, verdict, backend, number, text)[1].encode() + b"\n")
    return b"".join(out)


@pytest.mark.parametrize("chunk_lines, chunk_seconds", [(64, 0.05), (4, 0.05), (64, -1.0)],
                         ids=["default", "small-chunks", "one-solve-a-chunk"])
@pytest.mark.parametrize("options", [["--json"], [], ["--json", "--cards"], ["--cards", "--no-line"],
                                     ["--json", "--no-line"]], ids=" ".join)
def test_chunks_write_what_one_line_at_a_time_writes(tmp_path, monkeypatch, options, chunk_lines, chunk_seconds):
    """Chunks of 64, of 4, and chunks whose solving stops after every line (the time bound, set
    below zero: the lines read and not solved carry over) against the one-line-at-a-time oracle;
    the line that is not UTF-8 gets its error record at its place."""
    monkeypatch.setattr(batch, "CHUNK_LINES", chunk_lines)
    monkeypatch.setattr(batch, "CHUNK_SECONDS", chunk_seconds)
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    result = CliRunner().invoke(main, ["solve", "--batch", str(path), "--tt-mb", "16", *options])
    assert result.exit_code == 1, result.output   # (some lines fail)
    answer = SolveLine("--cards" in options, "--no-line" not in options, False, False)
    expected = _one_line_at_a_time(answer, None if "--json" in options else solution_verdict, LINES)
    got = result.stdout_bytes
    bad_byte = LINES.index(b"contract=6s S=\xff\xfe") + 1
    bad_record = next(line for line in got.splitlines() if b"not UTF-8" in line)
    assert (json.loads(bad_record)["line"] if "--json" in options
            else int(bad_record.split(b":")[0].removeprefix(b"line "))) == bad_byte
    got = got.replace(bad_record + b"\n", b"")
    assert SECONDS.sub(b"", got) == SECONDS.sub(b"", expected)


class _FullReading:
    """``pref solve --batch``'s answer with every line read as its full Layout (the oracle of the
    lines read in masks: ``pyanalyzer/model/layout_masks.py``)."""

    def __init__(self, cards: bool, line: bool) -> None:
        self.cards, self.line = cards, line

    def read(self, text: str):
        return solve_later(parse_one_line(text), cards=self.cards, line=self.line)


@pytest.mark.parametrize("options", [["--json"], [], ["--json", "--cards"], ["--json", "--no-line"]], ids=" ".join)
def test_lines_read_in_masks_write_what_their_layouts_write(tmp_path, options):
    """The batch (most of its lines read in masks, answered as LineSolution) against each line read
    as its Layout and answered as a Solution: byte for byte, errors included."""
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    result = CliRunner().invoke(main, ["solve", "--batch", str(path), "--tt-mb", "16", *options])
    assert result.exit_code == 1, result.output
    verdict = None if "--json" in options else solution_verdict
    expected = _one_line_at_a_time(_FullReading("--cards" in options, "--no-line" not in options), verdict, LINES)
    got = b"".join(line + b"\n" for line in result.stdout_bytes.splitlines() if b"not UTF-8" not in line)
    assert SECONDS.sub(b"", got) == SECONDS.sub(b"", expected)
    if "--json" in options:   # (each record as json.dumps writes its object: the lines are written without it)
        assert all(json.dumps(json.loads(line), ensure_ascii=False).encode() == line for line in got.splitlines())
    in_masks = sum(isinstance(read_one_line(raw.decode()), LayoutMasks) for raw in LINES[:10])
    assert in_masks >= 4   # (the lines before the bad ones: regression count 5 of 10 read in masks)


def test_allpass_batches_in_chunks_alike(tmp_path, monkeypatch):
    """``pref allpass --batch`` reads its lines ahead too: the same records as one at a time."""
    monkeypatch.setattr(batch, "CHUNK_LINES", 8)
    rng = random.Random("allpass-chunks")
    lines = [format_one_line(random_layout(rng, 4, "allpass")).encode() for _ in range(20)] + [b"nonsense"]
    path = tmp_path / "allpass.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = CliRunner().invoke(main, ["allpass", "--batch", str(path), "--tt-mb", "16"])
    assert result.exit_code == 1, result.output
    answer = AllpassLine(AllPassRules.named("standard", False), cards=True, lines=True, split=True)  # (the defaults)
    expected = _one_line_at_a_time(answer, None, lines)
    assert SECONDS.sub(b"", result.stdout_bytes) == SECONDS.sub(b"", expected)
    assert isinstance(answer.read(lines[0].decode())(make_backend("reference")), AllPassSolution)


class _Reading:
    """A ``pref solve`` answer that logs each line it reads and each line it solves."""

    def __init__(self, log: list) -> None:
        self.answer = SolveLine(False, False, False, False)
        self.log = log

    def read(self, text: str):
        self.log.append("read")
        task = self.answer.read(text)

        def solve(backend):
            self.log.append("solved")
            return task(backend)
        return solve


@pytest.mark.parametrize("chunk_seconds", [0.05, -1.0], ids=["lines", "time"])
def test_a_chunk_is_written_before_the_next_lines_are_read(tmp_path, monkeypatch, chunk_seconds):
    """Streaming, driven by the chunk's bounds (the work clock stopped): 20 lines in chunks of
    8 lines, or of one solve each (the time bound below zero): each chunk's answers are written
    before a line after the chunk's is read, and the lines are read at most a chunk ahead."""
    monkeypatch.setattr(batch, "CHUNK_LINES", 8)
    monkeypatch.setattr(batch, "CHUNK_SECONDS", chunk_seconds)
    monkeypatch.setattr(batch, "_work_clock", lambda: 0.0)   # (the work takes no time: the bounds decide)
    rng = random.Random("streaming")
    path = tmp_path / "batch.txt"
    path.write_text("".join(format_one_line(random_layout(rng, 3, "6s")) + "\n" for _ in range(20)),
                    encoding="utf-8")
    log: list = []
    answer_chunks(str(path), _Reading(log), None, make_backend("fast", 16),
                  lambda outputs: log.append(len(outputs)))
    written = [entry for entry in log if isinstance(entry, int)]
    assert written == ([8, 8, 4] if chunk_seconds > 0 else [1] * 20)
    assert log[:log.index(written[0])].count("read") == 8   # the first chunk's lines only
    reads = solved = done = 0
    for entry in log:
        if entry == "read":
            reads += 1
            assert reads - done <= 8, "a line read more than a chunk ahead of the answers written"
        elif entry == "solved":
            solved += 1
        else:
            done += entry
            assert done == solved, "a line written before it was solved, or a solved line held back"


class _StoppedAt:
    """A backend whose ``number``-th search is stopped by Ctrl-C (as the engine raises it)."""

    def __init__(self, number: int) -> None:
        self.inner, self.number, self.calls = make_backend("fast", 16), number, 0
        self.name = self.inner.name

    @property
    def nodes(self) -> int:
        return self.inner.nodes

    def solve(self, position) -> int:
        self.calls += 1
        if self.calls == self.number:
            raise KeyboardInterrupt
        return self.inner.solve(position)


def test_ctrl_c_in_a_chunk_writes_the_lines_solved_before_it(tmp_path, monkeypatch):
    """Ctrl-C at the 12th search of a chunk of 64: the 11 lines solved are written (complete),
    nothing after them; status 130 and one line saying how many were written."""
    rng = random.Random("ctrl-c")
    path = tmp_path / "batch.txt"
    path.write_text("".join(format_one_line(random_layout(rng, 3, "6s")) + "\n" for _ in range(30)),
                    encoding="utf-8")
    monkeypatch.setattr("pyanalyzer.cli.main.make_backend", lambda *args, **kwargs: _StoppedAt(12))
    result = CliRunner().invoke(main, ["solve", "--batch", str(path), "--json", "--no-line"])
    assert result.exit_code == 130, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 11 and all("declarer_tricks" in record for record in records)
    assert result.stderr.strip() == ("pref: interrupted: after 11 of 30 layouts; the results written "
                                     "are complete")
