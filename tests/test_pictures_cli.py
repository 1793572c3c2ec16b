"""``--svg FILE`` and ``--html FILE`` on the commands that analyse one layout: the file is written
(the SVG valid XML with every card and each card's value; the HTML self-contained with the
diagram, verdict and line), the normal output is still printed, and a bad file name is one line
``pref: error: ...`` with status 2, said before any search."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyanalyzer.cli.main import main

LAYOUTS = Path(__file__).resolve().parent.parent / "layouts"
KOVALEVSKAYA = str(LAYOUTS / "kovalevskaya.txt")
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_error(result, *tokens: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pref: error: "), result.stderr
    for token in tokens:
        assert token in lines[0], (token, lines[0])


def card_values(svg_text: str) -> dict[str, str]:
    root = ET.fromstring(svg_text)
    return {g.get("data-card"): "".join(t.text or "" for t in g.iter(f"{SVG}text")
                                        if "value" in t.get("class", "").split())
            for g in root.iter(f"{SVG}g") if g.get("data-card")}


def test_solve_writes_the_svg_and_the_page_and_still_prints_the_analysis(tmp_path):
    svg, html = tmp_path / "k.svg", tmp_path / "k.html"
    plain = run("solve", KOVALEVSKAYA)
    result = run("solve", KOVALEVSKAYA, "--svg", str(svg), "--html", str(html))
    assert result.exit_code == 0, result.output
    # The same text as without the files (the engine's timing line aside): no card list added.
    assert result.stdout.splitlines()[:-1] == plain.stdout.splitlines()[:-1]
    values = card_values(svg.read_text(encoding="utf-8"))
    assert len(values) == 32
    # East's cards with the tricks forced after each (the published answer: 1 after a diamond lead).
    assert {card: value for card, value in values.items() if value} == {
        "Qs": "0", "Js": "0", "9c": "0", "7c": "0", "Kd": "1", "Qd": "1", "Jd": "1", "Td": "1", "Jh": "0", "7h": "0"}
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "@media print" in page
    assert "The defenders catch South&#x27;s misère for 1 trick." in page and "Best play:" in page
    assert "Source: classic Preferans study" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched


def test_misere_contract_and_thousand_write_pictures_of_a_layout(tmp_path):
    # The cards each layout holds: 30 in hands and 2 in the discard; 30 in hands; 24 in hands.
    for command, layout, cards in (("misere", KOVALEVSKAYA, 32), ("contract", str(LAYOUTS / "seven-clubs.txt"), 30),
                                   ("thousand", str(LAYOUTS / "thousand-deal.txt"), 24)):
        svg, html = tmp_path / f"{command}.svg", tmp_path / f"{command}.html"
        result = run(command, layout, "--svg", str(svg), "--html", str(html))
        assert result.exit_code == 0, (command, result.output)
        assert len(card_values(svg.read_text(encoding="utf-8"))) == cards, command
        assert "<svg" in html.read_text(encoding="utf-8")
    assert "7♣ makes" in (tmp_path / "contract.html").read_text(encoding="utf-8")


def test_show_draws_a_layout_without_analysing_it(tmp_path):
    svg, html = tmp_path / "w.svg", tmp_path / "w.html"
    result = run("show", str(LAYOUTS / "whist-deal.txt"), "--svg", str(svg), "--html", str(html))
    assert result.exit_code == 0 and "North" in result.stdout  # the text diagram still printed
    assert len(card_values(svg.read_text(encoding="utf-8"))) == 52
    assert not [v for v in card_values(svg.read_text(encoding="utf-8")).values() if v]
    assert "Hearts trump" in html.read_text(encoding="utf-8")


def test_a_hand_alone_has_a_page_but_no_diagram(tmp_path):
    hand = ["--hand", "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", "--lead", "E", "--samples", "3", "--seed", "1"]
    assert_error(run("misere", *hand, "--svg", str(tmp_path / "x.svg")), "--svg", "LAYOUT")
    assert not (tmp_path / "x.svg").exists()
    result = run("misere", *hand, "--html", str(tmp_path / "odds.html"))
    assert result.exit_code == 0, result.output
    assert "caught in" in (tmp_path / "odds.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_a_bad_file_name_is_one_line_before_the_run(tmp_path, option):
    missing = str(tmp_path / "no" / "such" / "k.out")
    assert_error(run("solve", KOVALEVSKAYA, option, missing), option, "no such folder")
    assert_error(run("solve", KOVALEVSKAYA, option, str(tmp_path)), option, "is a folder")
    assert_error(run("solve", "--batch", "-", option, str(tmp_path / "k.out")), option, "--batch")


def test_the_pictures_write_cards_in_the_notation_asked_for(tmp_path):
    svg, html = tmp_path / "k.svg", tmp_path / "k.html"
    assert run("solve", KOVALEVSKAYA, "--notation", "russian", "--svg", str(svg), "--html", str(html)).exit_code == 0
    ranks = [t.text for t in ET.fromstring(svg.read_text(encoding="utf-8")).iter(f"{SVG}text")
             if t.get("class") == "rank"]
    assert ranks.count("Т") == 3 and "A" not in ranks  # West's three aces, in Russian (Т: туз)
    assert "Т" in html.read_text(encoding="utf-8").split("Best play:")[1]  # the line too
