"""The published layouts with known answers, read from their one home in the repository.

``layouts/published/test-NN.txt`` (eshavlyugin/Preferans's tests, source and corrections in
``layouts/published/README.md``) and ``layouts/kovalevskaya.txt`` (the classic study). Each
file's ``# answer: N`` comment line holds the answer: the declarer's tricks with best play by
all (for a misère, the tricks the defenders force on him).

Tests and benchmarks take these deals (and hands of them) from here, never from a copy:
``BY_NAME["test-05"].layout``, ``hand_codes("kovalevskaya", "S")``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import format_one_line, read_layout

LAYOUTS = Path(__file__).resolve().parents[1] / "layouts"
KOVALEVSKAYA_FILE = LAYOUTS / "kovalevskaya.txt"


@dataclass(frozen=True)
class Published:
    name: str
    answer: int
    layout: Layout

    @property
    def one_line(self) -> str:
        """The deal in the one-line form, without the discard, title and source."""
        return format_one_line(replace(self.layout, discard=(), title=None, source=None))


def _read(path: Path) -> Published:
    answers = re.findall(r"^# answer: (\d+)", path.read_text(encoding="utf-8"), flags=re.M)
    assert len(answers) == 1, f"{path} needs one '# answer: N' line"
    return Published(path.stem, int(answers[0]), read_layout(str(path)))


KOVALEVSKAYA = _read(KOVALEVSKAYA_FILE)
PUBLISHED = [_read(path) for path in sorted((LAYOUTS / "published").glob("test-*.txt"))]
#: Everything with a published answer: the nine tests and Kovalevskaya's misère.
ALL = [*PUBLISHED, KOVALEVSKAYA]
BY_NAME = {entry.name: entry for entry in ALL}


def hand_codes(name: str, seat: str) -> str:
    """One hand of a published deal as card codes, ``7s,8s,...`` (as ``--hand`` takes them)."""
    return ",".join(card.code for card in BY_NAME[name].layout.hands[seat])


def ids(entries) -> list[str]:
    return [entry.name for entry in entries]
