"""Rich display in notebooks: layouts as SVG (``_repr_svg_``), every result object as HTML
(``_repr_html_``: diagram, verdict, line, tables), and the example notebook executed as a user
would run it (nbclient, on this interpreter)."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pyanalyzer.model.layout_io import parse_layout
from pyanalyzer.render.html import HtmlView
from pyanalyzer.whist.deal import Deal
from pyanalyzer.whist.table import DDTable

ROOT = Path(__file__).resolve().parent.parent
KOVALEVSKAYA = (ROOT / "layouts" / "kovalevskaya.txt").read_text(encoding="utf-8")


def test_a_layout_draws_itself_as_svg():
    svg = parse_layout(KOVALEVSKAYA)._repr_svg_()
    root = ET.fromstring(svg)
    assert len([g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-card")]) == 32


def result_classes() -> list[type]:
    """The analyzers' result objects: every public class with a ``format`` method or ``verdict``,
    and the Whist tables (printed by ``str``)."""
    found = []
    for package in ("analysis", "preferans", "whist", "thousand"):
        path = ROOT / "pyanalyzer" / package
        for module_info in pkgutil.iter_modules([str(path)]):
            module = importlib.import_module(f"pyanalyzer.{package}.{module_info.name}")
            for name, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ != module.__name__ or name.startswith("_"):
                    continue
                if "format" in vars(cls) or "verdict" in vars(cls) or name in ("DDTable", "BidWhistResult"):
                    found.append(cls)
    return found


def test_every_result_object_shows_itself_in_a_notebook():
    classes = result_classes()
    assert len(classes) >= 15  # the finder finds them (Solution, the odds, the rankings, ...)
    assert [c.__name__ for c in classes if not issubclass(c, HtmlView)] == []


def test_a_solution_shows_the_diagram_with_card_values_the_verdict_and_the_line(fast_backend):
    from pyanalyzer.analysis.solve import solve

    result = solve(parse_layout(KOVALEVSKAYA), engine=fast_backend)
    html = result._repr_html_()
    assert "The defenders catch South&#x27;s misère for 1 trick." in html
    assert "Best play:" in html and "<svg" in html
    svg = html[html.index("<svg"):html.index("</svg>") + 6]
    root = ET.fromstring(svg)
    values = {g.get("data-card"): "".join(t.text or "" for t in g.iter("{http://www.w3.org/2000/svg}text")
                                         if "value" in t.get("class", "").split())
              for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-card")}
    for card, value in result.cards.items():
        assert values[card.code] == str(value)
    assert sum(bool(v) for v in values.values()) == len(result.cards)  # East's cards only
    best = sorted(g.get("data-card") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-card")
                  for t in g.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "value best")
    assert best == sorted(card.code for card, value in result.cards.items() if value == result.declarer_tricks)
    assert best == ["Jd", "Kd", "Qd", "Td"]  # the diamonds catch South (the published line leads ♦10)


def test_the_whist_table_is_an_html_table_under_the_deal():
    deal = Deal.from_pbn("N:KJ.AKQJ63.AQ3.A7 A64..T8742.T9863 T9872.85.KJ6.KQ2 Q53.T9742.95.J54")
    # Numbers made up for the drawing (the engine's table is checked against DDS elsewhere).
    tricks = {seat: dict(zip("shdcn", (1, 2, 3, 4, None))) for seat in "NESW"}
    html = DDTable(deal, tricks, nodes=0, seconds=0.0, engine="test", interrupted=True)._repr_html_()
    table = ET.fromstring(html[html.index("<table"):html.index("</table>") + 8])
    rows = [["".join(cell.itertext()) for cell in row] for row in table.iter("tr")]
    assert rows[0][1:] == ["♠", "♥", "♦", "♣", "NT"]
    assert rows[1:] == [[seat, "1", "2", "3", "4", "-"] for seat in "NSEW"]
    assert "PARTIAL (interrupted)" in html
    assert html.count('data-card="') == 52


def test_an_odds_result_without_a_layout_shows_its_text():
    from pyanalyzer.analysis.splits import Tally
    from pyanalyzer.model.contract import Contract
    from pyanalyzer.model.rules import PREFERANS_RULES
    from pyanalyzer.preferans.odds import TrickOdds

    # 1 split of 4 gives 5 tricks, 3 give 6: the 6♠ makes in 75% (made-up counts).
    tally = Tally([0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0], splits=4, total=4)
    html = TrickOdds(Contract.parse("6s", PREFERANS_RULES), "S", "W", tally, view="declarer")._repr_html_()
    assert "<svg" not in html and "The contract makes: 75.00%." in html and "█" in html


def test_the_example_notebook_runs(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat", reason="the test extra installs nbformat")
    nbclient = pytest.importorskip("nbclient", reason="the test extra installs nbclient")
    pytest.importorskip("ipykernel", reason="the test extra installs ipykernel")
    # The kernel "python3" is this interpreter (a kernel spec found first on JUPYTER_PATH).
    spec = tmp_path / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3", "language": "python"}), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    notebook = nbformat.read(ROOT / "examples" / "analysis.ipynb", as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells)  # committed without outputs
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    shown = "".join(out.get("data", {}).get("text/html", "") for out in outputs)
    assert "The defenders catch South&#x27;s misère for 1 trick." in shown
    assert "Double-dummy tricks of each declarer" in shown and "bid 125 made" in shown
    assert sum("image/svg+xml" in out.get("data", {}) for out in outputs) == 2


def test_the_public_names_bring_the_renderer():
    """``from pyanalyzer import parse_layout`` is how a notebook starts: the layouts then draw
    (in a fresh interpreter: here the renderer is loaded already)."""
    code = ("from pyanalyzer import parse_layout\n"
            "print(parse_layout('contract=6s declarer=S lead=W S=As W=7h E=7d')._repr_svg_()[:4])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "<svg\n"
