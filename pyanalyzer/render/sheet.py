"""A printable puzzle sheet: the diagrams two per row as in a puzzle book, under each who leads (or
plays) and what is asked, the solutions on a page of their own. One self-contained HTML page
(the diagrams inline SVG, nothing fetched) that a browser prints on A4 or letter.

The puzzle machinery (``pyanalyzer.preferans.puzzles``, Thousand's kinds too) gathers the puzzles
and their solutions; this module only lays them out.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d")
>>> page = puzzle_sheet("Preferans puzzles", [SheetPuzzle(1, layout, "Can South take both?")], ["1. ♠A"])
>>> page.count('<section class="puzzle">'), "6♠ by South, West to lead</p>" in page
(1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from pyanalyzer.model.layout import Layout
from pyanalyzer.render.diagram import headline
from pyanalyzer.render.html import FONT, coloured
from pyanalyzer.render.svg import layout_svg

#: The diagrams' size on the sheet: six puzzles to an A4 page, the cards still 11 pt.
DIAGRAM_SCALE = 0.8

SHEET_STYLE = f"""
body {{ font-family: {FONT}; margin: 0 auto; max-width: 186mm; color: #111; }}
h1 {{ font-size: 20px; margin: 0 0 2px; }}
.intro {{ font-size: 12px; color: #444; margin: 0 0 10px; }}
.puzzles {{ display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 4mm 6mm; }}
.puzzle {{ break-inside: avoid; page-break-inside: avoid; border: 1px solid #bbb; border-radius: 4px;
           padding: 2mm 3mm; }}
.puzzle h2 {{ font-size: 14px; margin: 0 0 2px; }}
.puzzle svg {{ max-width: 100%; height: auto; display: block; margin: 0 auto; }}
.puzzle p {{ margin: 3px 0; font-size: 13px; }}
.headline {{ font-weight: bold; }}
.band {{ color: #666; font-size: 11px; font-weight: normal; margin-left: 6px; }}
.solutions {{ break-before: page; page-break-before: always; }}
.solutions li {{ margin: 4px 0; font-size: 13px; break-inside: avoid; }}
@page {{ size: A4; margin: 12mm; }}
@media screen {{ body {{ padding: 12px; }} }}
"""


@dataclass(frozen=True)
class SheetPuzzle:
    """One puzzle on the sheet: its number, the layout, the question, its difficulty."""

    number: int
    layout: Layout
    question: str
    band: str = ""


def puzzle_sheet(name: str, puzzles: Sequence[SheetPuzzle], solutions: Sequence[str]) -> str:
    """The sheet as an HTML page: ``name`` as its heading, ``solutions`` (one line a puzzle,
    ``"3. ..."``) on a page of their own."""
    cells = [_cell(puzzle) for puzzle in puzzles]
    answers = "".join(f"<li>{coloured(line.split('. ', 1)[-1])}</li>" for line in solutions if line.strip())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(name)}</title>
<style>{SHEET_STYLE}</style>
</head>
<body>
<h1>{escape(name)}</h1>
<p class="intro">Open cards, best play by all. Solutions on the last page.</p>
<div class="puzzles">
{chr(10).join(cells)}
</div>
<section class="solutions" style="page-break-before:always">
<h1>Solutions</h1>
<ol>{answers}</ol>
</section>
</body>
</html>
"""


def _cell(puzzle: SheetPuzzle) -> str:
    layout = puzzle.layout
    title = layout.title or f"Puzzle {puzzle.number}"
    drawing = layout_svg(layout, title=False, headline="", legal=False, scale=DIAGRAM_SCALE)
    band = f' <span class="band">{escape(puzzle.band)}</span>' if puzzle.band else ""
    return (f'<section class="puzzle"><h2>{coloured(title)}{band}</h2>{drawing}'
            f'<p class="headline">{coloured(headline(layout))}</p>'
            f'<p class="question"><b>Q{puzzle.number}.</b> {coloured(puzzle.question)}</p></section>')
