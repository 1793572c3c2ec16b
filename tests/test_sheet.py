"""The printable puzzle sheet (pyanalyzer/render/sheet.py): each puzzle a diagram drawn by the one
SVG renderer, who leads and the question under it, two puzzles a row, the solutions on a page of
their own, red suits outside the hands too. (tests/test_puzzles.py prints a generated set with
headless Chromium.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.render.sheet import SheetPuzzle, puzzle_sheet

LAYOUTS = [
    parse_layout("contract=6h declarer=S lead=E S=As,Ks,Ah W=7h,8h,9h E=7d,8d,Qh title=\"Puzzle 1: contract\""),
    parse_layout("contract=misere declarer=S lead=W S=7s,8d W=As,Ad E=Ks,Kd"),
    parse_layout("game=thousand bid=120 declarer=S lead=S won=S points=S:30 S=Kh,Qh,As W=9h,Jh,Ks E=Th,Ah,Qs"),
]


def sheet() -> str:
    puzzles = [SheetPuzzle(n, layout, f"Question {n}: which card, ♥ or ♦?", "easy")
               for n, layout in enumerate(LAYOUTS, 1)]
    return puzzle_sheet("Preferans puzzles", puzzles, ["1. ♥A", "2. ♠7 (or ♦8)", "3. ♥K+"])


def test_each_puzzle_is_a_diagram_with_who_leads_and_the_question_under_it():
    page = sheet()
    sections = re.findall(r'<section class="puzzle">(.*?)</section>', page, re.S)
    assert len(sections) == 3
    for number, (section, layout) in enumerate(zip(sections, LAYOUTS), 1):
        svg = ET.fromstring(section[section.index("<svg"):section.index("</svg>") + 6])
        drawn = sorted(g.get("data-card") for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("data-card"))
        assert drawn == sorted(card.code for seat in layout.seats for card in layout.hands[seat])
        after = section[section.index("</svg>"):]
        lead = f"{layout.rules.seat_name(layout.lead)} to lead</p>"
        assert after.index(lead) < after.index(f"<b>Q{number}.</b>")


def test_two_a_row_and_the_solutions_on_their_own_page_with_red_suits():
    page = sheet()
    assert "grid-template-columns: repeat(2, minmax(0, 1fr))" in page
    solutions = page[page.index('<section class="solutions"'):]
    assert "page-break-before:always" in solutions and "break-before: page" in page
    assert re.findall(r"<li>(.*?)</li>", solutions) == [
        '<span style="color:#c8102e">♥</span>A', "♠7 (or <span style=\"color:#c8102e\">♦</span>8)",
        '<span style="color:#c8102e">♥</span>K+']
    assert 'which card, <span style="color:#c8102e">♥</span> or' in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched
