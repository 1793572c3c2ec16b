"""Make docs/screenshots/puzzle-sheet.png: the first printed page of a puzzle sheet, as a reader
of the README sees it.

    python docs/screenshots/puzzle_sheet.py

Generates six misère puzzles (a fixed seed: the same set every time) with ``pref puzzles``,
prints the sheet to PDF with headless Chromium (``chromium-headless-shell``, or another Chromium)
and turns page one into a PNG with ``pdftoppm`` (Debian/Ubuntu: ``apt install poppler-utils``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "puzzle-sheet.png"
CHROMIUMS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")


def need(program: str | None, what: str) -> str:
    if program is None:
        sys.exit(f"puzzle_sheet.py: {what} not found")
    return program


def main() -> None:
    chromium = need(next((shutil.which(name) for name in CHROMIUMS if shutil.which(name)), None),
                    "headless Chromium (" + ", ".join(CHROMIUMS) + ")")
    pdftoppm = need(shutil.which("pdftoppm"), "pdftoppm (apt install poppler-utils)")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        subprocess.run([sys.executable, "-m", "pyanalyzer", "puzzles", "misere", "--count", "6", "--seed", "3",
                        "--jobs", "1", "--out", str(work / "set")], check=True, stdout=subprocess.DEVNULL)
        pdf = work / "sheet.pdf"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                        f"--print-to-pdf={pdf}", (work / "set" / "sheet.html").as_uri()],
                       check=True, capture_output=True, timeout=120)
        # Page one at 80 dpi: readable on a README, well under 300 KB.
        subprocess.run([pdftoppm, "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                        str(OUT.with_suffix(""))], check=True)
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
