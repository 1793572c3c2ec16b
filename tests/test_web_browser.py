"""The web analyzer in a real browser: Debian's headless Chromium driven by Playwright (the
distribution's binary, never a downloaded one). Kovalevskaya's misère is clicked in card by card,
solved, stepped through, a card is played, an enumeration started and cancelled; a screenshot is
kept as the CI artifact ``artifacts/web-analyzer-test.png`` (``PREF_ARTIFACTS`` moves the folder).

Skips, saying why, only where no Chromium or no Playwright can be had (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
import urllib.parse
from pathlib import Path

import pytest

from pyanalyzer.model.layout_io import format_one_line, read_layout

REPO = Path(__file__).resolve().parent.parent
KOVALEVSKAYA = read_layout(str(REPO / "layouts" / "kovalevskaya.txt"))
CHROMIUM = next((shutil.which(name) for name in ("chromium-headless-shell", "chromium", "chromium-browser")
                 if shutil.which(name)), None)
#: Milliseconds the page may take for one step (an answer of the server); generous for a busy CI.
WAIT = 60_000

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian: apt-get install "
                                                "chromium-headless-shell; .ci/run does)"),
]


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                                                                       "(pip install 'pref-solver[test]')")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server():
    from web_server import running_server

    with running_server(workers=2, tt_mb=16) as (url, _app):
        yield url


def artifact(name: str) -> Path:
    folder = Path(os.environ.get("PREF_ARTIFACTS", REPO / "artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def click_in(page, layout) -> None:
    """Enter ``layout`` with the picker: each seat's cards, then the discard."""
    page.select_option("#game", "preferans")
    page.fill("#contract", "misere")
    page.dispatch_event("#contract", "change")
    page.select_option("#declarer", layout.declarer)
    page.select_option("#lead", layout.lead)
    for seat in layout.seats:
        page.click(f"#targets button[data-target='{seat}']")
        for card in layout.hands[seat]:
            page.click(f"#deck button[data-card='{card.code}']")
    page.click("#targets button[data-target='discard']")
    for card in layout.discard:
        page.click(f"#deck button[data-card='{card.code}']")


def to_move(page) -> str:
    return page.get_attribute("#diagram g.seat.to-move", "data-seat")


def test_kovalevskaya_clicked_in_solved_stepped_played_and_an_enumeration_cancelled(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(server + "/")
        click_in(page, KOVALEVSKAYA)
        assert page.text_content("#targets button[data-target='W'] .count") == "10"
        page.click("#solve")
        page.wait_for_function("document.getElementById('summary').textContent.startsWith('caught')",
                               timeout=WAIT)
        # The published answer: caught for exactly 1 trick; the verdict says the same.
        assert page.text_content("#summary").startswith("caught for 1 trick")
        assert page.text_content("#verdict") == "The defenders catch South's misère for 1 trick."
        # The address holds the layout entered, in the one-line form.
        query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        assert read_layout(query["layout"][0]).hands == KOVALEVSKAYA.hands
        # Each legal card of East's carries its value (the forced tricks after it) on the diagram.
        assert page.locator("#diagram g.card[data-legal='true']").count() == 10
        assert to_move(page) == "E"

        # Step through the line: one card forward, South to play; to the end and back.
        page.click("#forward")
        page.wait_for_function("document.getElementById('step-text').textContent === 'card 1 of 30'", timeout=WAIT)
        page.wait_for_function("document.querySelector('#diagram g.seat.to-move').dataset.seat === 'S'",
                               timeout=WAIT)
        page.click("#last")
        page.wait_for_function("document.getElementById('step-text').textContent === 'card 30 of 30'",
                               timeout=WAIT)
        assert page.locator("#diagram g.card[data-legal='true']").count() == 0  # the hands are played out
        page.click("#first")
        page.wait_for_function("document.getElementById('step-text').textContent === 'card 0 of 30'",
                               timeout=WAIT)
        assert to_move(page) == "E"

        # Play any card: East leads the ♠J (worth 0 on the diagram) and the misère is clean.
        page.click("#diagram g.card[data-card='Js'][data-legal='true']")
        page.wait_for_function("document.getElementById('summary').textContent.startsWith('clean')", timeout=WAIT)
        assert "moves=Js" in page.url
        assert page.is_visible("#undo")

        # The declarer's odds over all 184,756 splits: start, see it progress, cancel.
        page.click("#analyses button[data-analysis='odds']")
        page.wait_for_function("document.getElementById('job-bar').value > 0", timeout=WAIT)
        page.click("#cancel")
        page.wait_for_function("document.getElementById('job').dataset.state === 'cancelled'", timeout=WAIT)
        assert page.text_content("#job-text").startswith("Cancelled")
        assert "Partial" in page.text_content("#analysis")
        page.screenshot(path=str(artifact("web-analyzer-test.png")), full_page=True)
    finally:
        page.close()
    assert problems == []


def test_the_address_opens_the_layout_solved(browser, server):
    page = browser.new_page()
    try:
        page.goto(server + "/?layout=" + urllib.parse.quote(format_one_line(KOVALEVSKAYA)))
        page.wait_for_function("document.getElementById('verdict').textContent.length > 0", timeout=WAIT)
        assert page.text_content("#verdict") == "The defenders catch South's misère for 1 trick."
        assert page.locator("#diagram svg").count() == 1
    finally:
        page.close()


def test_bad_input_is_shown_in_one_line(browser, server):
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.click("#paste-box summary")
        page.fill("#paste", "contract=zz declarer=S lead=W S=As W=Ks E=Qs")
        page.click("#load")
        page.wait_for_selector("#message:not([hidden])", timeout=WAIT)
        assert page.text_content("#message") == "bad contract 'zz': write e.g. 6s, 7♦, 8nt, misere, allpass"
    finally:
        page.close()


#: A two-card ending: South cannot see West's and East's cards (six layouts); the ♣A takes both tricks.
ENDING = "contract=6s declarer=S lead=S S=Ac,Qc W=Kc,7d E=8d,9d"


def test_the_advise_control_shows_each_cards_expected_value(browser, server):
    """Which card for South, seeing neither hand: the job's table and the diagram's values (the
    same figures as ``pref advise ENDING --seat S``: ♣A 2 tricks, ♣Q none, over 6 layouts)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urllib.parse.urlparse(request.url).path))
    try:
        page.goto(server + "/?layout=" + urllib.parse.quote(ENDING))
        page.wait_for_selector("#advise-box:not([hidden])", timeout=WAIT)
        assert page.input_value("#advise-seat") == "S"  # the one to move
        assert sorted(page.eval_on_selector_all("#advise-sees input", "boxes => boxes.map(b => b.value)")) == ["E", "W"]
        page.click("#advise")
        page.wait_for_selector("#analysis table.advice", timeout=WAIT)
        rows = page.eval_on_selector_all("#analysis table.advice tbody tr",
                                         "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        assert [row[:2] for row in rows] == [["♣A", "2.000"], ["♣Q", "0.000"]]
        assert "exact over all 6 layouts" in page.text_content("#analysis")
        # The values are drawn under the cards too.
        page.wait_for_selector("#diagram g.card[data-card='Ac'] text.value", timeout=WAIT)
        assert page.text_content("#diagram g.card[data-card='Ac'] text.value") == "2.00"
        assert page.get_attribute("#job", "data-state") == "done"
        # The job was followed by its Server-Sent Events, not by polling.
        jobs = [path for path in asked if path.startswith("/api/jobs/")]
        assert jobs and all(path.endswith("/events") for path in jobs), jobs
    finally:
        page.close()
    assert problems == []


def test_the_play_judged_by_information(browser, server):
    """The README's record, played on the page (the address's moves): South's ♠A lead is unlucky
    (as ``pref contract ... --by-information`` says), West's ♠K forced."""
    record = "contract=6s declarer=E lead=S S=As,7s,9d W=Ks,Ac,Jc E=Qs,Jd,9h"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(server + "/?layout=" + urllib.parse.quote(record) + "&moves=As,Ks,Qs,7s,Jc,9h,9d,Ac,Jd")
        page.wait_for_function("document.getElementById('verdict').textContent === 'The hands are played out.'",
                               timeout=WAIT)
        page.click("#analyses button[data-analysis='by-information']")
        page.wait_for_selector("#analysis table", timeout=WAIT)
        rows = page.eval_on_selector_all("#analysis table tbody tr",
                                         "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        assert [row[1:5] for row in rows[:2]] == [["South", "♠A", "changed the result", "unlucky"],
                                                  ["West", "♠K", "–", "forced"]]
    finally:
        page.close()
