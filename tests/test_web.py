"""The web analyzer's server (``pref serve``): the API answers what the commands print with --json,
bad input and limits get 4xx, a full pool 503, a cancelled job frees its worker, a real Uvicorn
answers many requests at once, and the command stops cleanly on SIGTERM.

The page itself is driven in a real browser in tests/test_web_browser.py.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
try:  # the HTTP client Starlette's test client runs on: httpx2 (Starlette 1.x), or httpx (older)
    import httpx2 as http_client
except ImportError:
    http_client = pytest.importorskip("httpx")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from web_server import running_server  # noqa: E402

from pyanalyzer.cli.main import main  # noqa: E402
from pyanalyzer.model.layout_io import format_one_line, read_layout  # noqa: E402
from pyanalyzer.web.app import create_app  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
KOVALEVSKAYA = format_one_line(read_layout(str(REPO / "layouts" / "kovalevskaya.txt")))
SEVEN_CLUBS = format_one_line(read_layout(str(REPO / "layouts" / "seven-clubs.txt")))
#: An ending where South's best single plan is worth less than his averages (README's worked example).
FUSION = "contract=6n declarer=S lead=W S=Kc,Tc,Qd W=Jc,Kh,8h E=7c,7d,Qh"
SEVEN_CLUBS_DISCARD = format_one_line(read_layout(str(REPO / "layouts" / "seven-clubs-discard.txt")))
ALLPASS = format_one_line(read_layout(str(REPO / "layouts" / "allpass.txt")))
THOUSAND = format_one_line(read_layout(str(REPO / "layouts" / "thousand-deal.txt")))
#: A Whist ending: three cards each, small enough for a table in well under a second.
WHIST_ENDING = "game=whist contract=n declarer=N lead=E N=As,Ks,Ah E=Qs,Js,Kh S=Ts,9s,Qh W=8s,7s,Jh"
#: Thousand before the exchange (pref thousand --help's example): the ranking of the gives.
THOUSAND_BEFORE_EXCHANGE = "game=thousand declarer=S lead=S talon=Kh,Qh,9c S=As,Ah W=Ts,Tc E=Ac,Ad"
#: A PBN ending (three cards each).
PBN = "N:AK..A. QJ..K. T9..Q. 87..J."
#: Timing fields: the server's engine keeps its table from one request to the next.
TIMING = {"nodes", "seconds"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2, tt_mb=16)) as test_client:
        yield test_client


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cli_error(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("pref: error: ")
    return line.removeprefix("pref: error: ")


def without_timing(data):
    if isinstance(data, dict):
        return {key: without_timing(value) for key, value in data.items() if key not in TIMING}
    if isinstance(data, list):
        return [without_timing(value) for value in data]
    return data


#: A layout file's text, pasted as it is.
KOVALEVSKAYA_FILE_TEXT = (REPO / "layouts" / "kovalevskaya.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("layout", [KOVALEVSKAYA, KOVALEVSKAYA_FILE_TEXT, SEVEN_CLUBS, ALLPASS, THOUSAND,
                                    WHIST_ENDING])
def test_api_solve_answers_what_pref_solve_json_cards_prints(client, layout):
    """The page shows every card's value: the API answers ``pref solve LAYOUT --json --cards``."""
    answer = client.post("/api/solve", json={"layout": layout})
    assert answer.status_code == 200, answer.text
    assert without_timing(answer.json()) == without_timing(cli_json("solve", layout, "--cards"))


@pytest.mark.parametrize("path, body, command", [
    ("/api/misere", {"layout": KOVALEVSKAYA}, ["misere", KOVALEVSKAYA]),
    ("/api/misere", {"layout": KOVALEVSKAYA, "talon": "Kc,Ac"}, ["misere", KOVALEVSKAYA, "--talon", "Kc,Ac"]),
    ("/api/contract", {"layout": SEVEN_CLUBS}, ["contract", SEVEN_CLUBS]),
    ("/api/allpass", {"layout": ALLPASS, "talon_rule": "rostov"}, ["allpass", ALLPASS, "--talon-rule", "rostov"]),
    ("/api/table", {"layout": WHIST_ENDING}, ["table", WHIST_ENDING]),
    ("/api/thousand", {"layout": THOUSAND}, ["thousand", THOUSAND]),
    ("/api/thousand", {"layout": THOUSAND_BEFORE_EXCHANGE}, ["thousand", THOUSAND_BEFORE_EXCHANGE]),
    ("/api/table", {"deal": PBN}, ["table", PBN]),
    ("/api/advise", {"layout": SEVEN_CLUBS, "seat": "E", "moves": "As,Js", "sees": "W"},
     ["advise", SEVEN_CLUBS, "--seat", "E", "--moves", "As,Js", "--sees", "W"]),
    ("/api/advise", {"layout": SEVEN_CLUBS, "seat": "E", "moves": "As,Js", "samples": "50", "seed": "4",
                     "exact_limit": "10"},
     ["advise", SEVEN_CLUBS, "--seat", "E", "--moves", "As,Js", "--samples", "50", "--seed", "4",
      "--exact-limit", "10"]),
    ("/api/advise", {"layout": FUSION, "seat": "S", "moves": "8h,Qh", "strategy": "always"},
     ["advise", FUSION, "--seat", "S", "--moves", "8h,Qh", "--strategy", "always"]),
])
def test_each_analysis_answers_its_commands_json(client, path, body, command):
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    assert without_timing(answer.json()) == without_timing(cli_json(*command))


def test_kovalevskaya_is_caught_for_one_trick(client):
    """The published answer (layouts/kovalevskaya.txt: caught for exactly 1 trick)."""
    data = client.post("/api/misere", json={"layout": KOVALEVSKAYA}).json()
    assert data["caught"] is True and data["declarer_tricks"] == 1
    assert data["summary"].startswith("caught for 1 trick")


def test_position_after_moves_has_the_diagram_and_the_legal_moves(client):
    data = client.post("/api/position", json={"layout": KOVALEVSKAYA, "moves": ["Td"], "values": {"7d": 1}}).json()
    assert data["played"] == ["Td"] and data["to_move"] == "S"
    assert sorted(data["moves"]) == ["7d", "8d", "9d"]  # South must follow diamonds
    svg = data["svg"]
    assert svg.startswith("<svg") and '<g class="seat to-move" data-seat="S">' in svg
    assert 'data-card="7d" data-seat="S" data-legal="true"' in svg
    # The position's one-line form solves as it stands (what the page does after "play a card"),
    # and the values solved for the diagram are the command's.
    assert client.post("/api/solve", json={"layout": data["one_line"]}).status_code == 200
    solved = client.post("/api/position", json={"layout": KOVALEVSKAYA, "moves": ["Td"], "values": "solve"}).json()
    assert solved["cards"] == cli_json("solve", data["one_line"], "--cards")["cards"]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/?layout=" + KOVALEVSKAYA.replace(" ", "+"))
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


@pytest.mark.parametrize("layout, command", [
    ("contract=zz declarer=S lead=W S=As W=Ks E=Qs", ["solve"]),
    ("contract=6s declarer=S lead=W S=As,As W=Ks,Kh E=Qs,Qh", ["solve"]),
    ("contract=6s declarer=S lead=W S=Xx W=Ks E=Qs", ["solve"]),
])
def test_a_malformed_layout_gets_the_command_lines_message_with_400(client, layout, command):
    answer = client.post("/api/solve", json={"layout": layout})
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(*command, layout)}


@pytest.mark.parametrize("body, status, says", [
    (b"not json", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"layout": 5}', 400, "layout must be a string"),
    (b"{}", 400, "missing \"layout\""),
    (b'{"layout": "' + b"9" * 70_000 + b'"}', 413, "over 65,536 bytes"),
])
def test_bad_requests_get_4xx_and_one_line(client, body, status, says):
    answer = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == status
    assert says in answer.json()["error"] and "Traceback" not in answer.text


def test_an_oversized_body_sent_in_chunks_is_refused_too(client):
    """No Content-Length to trust: the body is counted as it arrives."""
    chunks = (b"x" * 8192 for _ in range(20))
    answer = client.post("/api/solve", content=chunks, headers={"content-type": "application/json"})
    assert answer.status_code == 413


def test_a_path_in_a_request_is_never_read(client, tmp_path):
    """A layout file's name is just text to the server: not a layout, and nothing is read."""
    secret = tmp_path / "layout.txt"
    secret.write_text((REPO / "layouts" / "kovalevskaya.txt").read_text(encoding="utf-8"), encoding="utf-8")
    answer = client.post("/api/solve", json={"layout": str(secret)})
    assert answer.status_code == 400
    assert "Kovalevskaya" not in answer.text


def test_unknown_api_and_job_are_404_json(client):
    assert client.post("/api/nothing", json={}).status_code == 404
    answer = client.get("/api/jobs/0123456789abcdef")
    assert answer.status_code == 404 and "no job" in answer.json()["error"]


def test_bad_odds_parameters_are_refused_before_a_job_starts(client):
    answer = client.post("/api/jobs", json={"analysis": "odds", "hand": "S=As,Ks", "discard": "7s,8s",
                                            "contract": "6s", "lead": "W"})
    assert answer.status_code == 400 and "10 cards" in answer.json()["error"]


def finished_job(client, params: dict) -> dict:
    """Start a job and poll it until it has finished (bounded): its last status."""
    started = client.post("/api/jobs", json=params)
    assert started.status_code == 202, started.text
    for _ in range(12_000):
        status = client.get(f"/api/jobs/{started.json()['id']}").json()
        if status["state"] not in ("queued", "running"):
            return status
        threading.Event().wait(0.05)
    raise AssertionError("the job did not finish in ten minutes")


#: The README's record judged by information (South's ♠A lead is unlucky).
RECORD = "contract=6s declarer=E lead=S S=As,7s,9d W=Ks,Ac,Jc E=Qs,Jd,9h"
RECORD_PLAYED = "As,Ks,Qs,7s,Jc,9h,9d,Ac,Jd"


@pytest.mark.parametrize("params, command", [
    ({"layout": SEVEN_CLUBS, "seat": "E", "moves": "As,Js", "sees": "W"},
     ["advise", SEVEN_CLUBS, "--seat", "E", "--moves", "As,Js", "--sees", "W"]),
    ({"layout": SEVEN_CLUBS, "seat": "E", "moves": ["As", "Js"], "samples": "40", "seed": "4", "exact_limit": "10"},
     ["advise", SEVEN_CLUBS, "--seat", "E", "--moves", "As,Js", "--samples", "40", "--seed", "4",
      "--exact-limit", "10"]),
    ({"layout": RECORD + " played=As,Ks,Qs,7s,Jc,9h", "seat": "S"},  # a record: its cards played
     ["advise", RECORD + " played=As,Ks,Qs,7s,Jc,9h", "--seat", "S"]),
    ({"layout": SEVEN_CLUBS_DISCARD, "seat": "S", "exact_limit": "0", "samples": "10", "seed": "2"},  # his discard
     ["advise", SEVEN_CLUBS_DISCARD, "--seat", "S", "--exact-limit", "0", "--samples", "10", "--seed", "2"]),
])
def test_an_advise_job_answers_what_pref_advise_json_prints(client, params, command):
    """The page's advise control runs a job; its result is ``pref advise ... --json`` (timings aside)."""
    finished = finished_job(client, {"analysis": "advise", **params})
    assert finished["state"] == "done", finished
    assert without_timing(finished["result"]) == without_timing(cli_json(*command))


def test_a_jobs_events_stream_its_progress_and_end_with_the_result(client):
    """``GET /api/jobs/ID/events``: Server-Sent Events, each a status as ``GET /api/jobs/ID`` gives
    it; the stream ends after the finished one, which holds the result."""
    started = client.post("/api/jobs", json={"analysis": "advise", "layout": SEVEN_CLUBS, "seat": "E",
                                             "moves": "As,Js", "sees": "W"})
    assert started.status_code == 202
    events = []
    with client.stream("GET", f"/api/jobs/{started.json()['id']}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line.removeprefix("data: ")))
    assert events and all(e["id"] == started.json()["id"] for e in events)
    assert all(e["state"] in ("queued", "running") for e in events[:-1]) and events[-1]["state"] == "done"
    assert all(before != after for before, after in zip(events, events[1:]))  # one event per change
    assert without_timing(events[-1]["result"]) == without_timing(
        cli_json("advise", SEVEN_CLUBS, "--seat", "E", "--moves", "As,Js", "--sees", "W"))
    assert client.get("/api/jobs/0123456789abcdef/events").status_code == 404


@pytest.mark.parametrize("params", [
    {"layout": RECORD + " played=" + RECORD_PLAYED},
    {"layout": RECORD, "moves": RECORD_PLAYED},  # the cards played on the page, after the layout
    {"layout": RECORD + " played=As,Ks,Qs", "moves": RECORD_PLAYED.split(",")[3:]},
])
def test_a_by_information_job_answers_what_pref_contract_by_information_prints(client, params):
    finished = finished_job(client, {"analysis": "by_information", **params})
    assert finished["state"] == "done", finished
    expected = cli_json("contract", RECORD + " played=" + RECORD_PLAYED, "--by-information")
    assert without_timing(finished["result"]) == without_timing(expected)
    steps = finished["result"]["by_information"]["steps"]
    assert [(s["seat"], s["card"], s["verdict"]) for s in steps][:2] == [("S", "As", "unlucky"), ("W", "Ks", "forced")]


@pytest.mark.parametrize("params, says", [
    ({"analysis": "advise", "layout": SEVEN_CLUBS, "seat": "W"}, "W is not to move"),
    ({"analysis": "advise", "layout": SEVEN_CLUBS}, "missing --seat"),
    ({"analysis": "advise", "layout": SEVEN_CLUBS, "seat": "S", "samples": "0"}, "--samples takes"),
    ({"analysis": "by_information", "layout": SEVEN_CLUBS}, "give played="),
    ({"analysis": "by_information", "layout": RECORD, "moves": RECORD_PLAYED, "threshold": "-1"},
     "--threshold takes"),
    ({"analysis": "sing"}, "unknown analysis 'sing'"),
])
def test_bad_job_parameters_are_refused_with_the_command_lines_message(client, params, says):
    answer = client.post("/api/jobs", json=params)
    assert answer.status_code == 400 and says in answer.json()["error"], answer.text


def test_a_full_pool_answers_503_and_serves_again_when_free():
    """One worker, no waiting line, held by a job blocked on an Event: deterministic."""
    release = threading.Event()
    with TestClient(create_app(workers=1, waiting=0, tt_mb=16)) as test_client:
        pool = test_client.app.state.pool
        holder = pool.submit(lambda engine, job: release.wait(60), "holder")
        answer = test_client.post("/api/solve", json={"layout": SEVEN_CLUBS})
        assert answer.status_code == 503
        assert "busy" in answer.json()["error"]
        release.set()
        assert holder.finished.wait(60)
        assert test_client.post("/api/solve", json={"layout": SEVEN_CLUBS}).status_code == 200


class GatedEngine:
    """The real engine, but the first block of an enumeration waits until its job is cancelled (as
    a long block would be under way when the client cancels)."""

    def __init__(self, engine, gate: threading.Event) -> None:
        self._engine, self._gate = engine, gate
        self.entered = threading.Event()

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def _hold(self) -> None:
        if not self.entered.is_set():
            self.entered.set()
            assert self._gate.wait(60), "the job was never cancelled"

    def solve_batch(self, *args, **kwargs):
        self._hold()
        return self._engine.solve_batch(*args, **kwargs)

    def solve(self, *args, **kwargs):  # (a block starting in mid-trick is solved layout by layout)
        self._hold()
        return self._engine.solve(*args, **kwargs)


def gated_pool(monkeypatch):
    """One worker whose engine holds its first search until the job is cancelled (then the
    block under way finishes): the client, the engines made, and the other searches stopped."""
    from pyanalyzer.engines.registry import make_backend
    from pyanalyzer.web import pool as pool_module

    gate = threading.Event()
    engines = []

    def make_engine():
        engines.append(GatedEngine(make_backend("fast", tt_size_mb=16), gate))
        return engines[-1]

    cancel = pool_module.Job.cancel

    def cancel_and_open(job, reason="cancelled"):
        cancel(job, reason)
        gate.set()

    monkeypatch.setattr(pool_module.Job, "cancel", cancel_and_open)
    stopped_searches = []
    monkeypatch.setattr(pool_module, "stop_running_searches", lambda: stopped_searches.append(1))
    return TestClient(create_app(workers=1, waiting=0, make_engine=make_engine)), engines, stopped_searches


def cancel_and_wait(test_client, job_id) -> dict:
    """Cancel the job, then its state once it is no longer running (the block under way
    finishes first)."""
    cancelled = test_client.delete(f"/api/jobs/{job_id}").json()
    for _ in range(1200):
        if cancelled["state"] != "running":
            break
        threading.Event().wait(0.05)
        cancelled = test_client.get(f"/api/jobs/{job_id}").json()
    return cancelled


def test_a_cancelled_job_frees_its_worker_and_keeps_what_finished(monkeypatch):
    """Deterministic: the enumeration is held in its first block until the cancel; then that
    block finishes, no other starts, and the result says how far it got."""
    gated_client, engines, stopped_searches = gated_pool(monkeypatch)
    with gated_client as test_client:
        started = test_client.post("/api/jobs", json={
            "analysis": "odds", "hand": "S=7s,8s,9s,Ts,8c,7d,8d,9d,8h,9h", "discard": "Kc,Ac",
            "contract": "misere", "lead": "E"})
        assert started.status_code == 202
        job_id = started.json()["id"]
        assert engines[0].entered.wait(60)  # the enumeration is searching on the one worker
        assert test_client.post("/api/solve", json={"layout": SEVEN_CLUBS}).status_code == 503
        cancelled = cancel_and_wait(test_client, job_id)
        assert cancelled["state"] == "cancelled"
        result = cancelled["result"]  # what finished is kept, marked partial
        assert result["partial"] is True and 0 < result["splits"] < result["total"] == 184_756
        assert result["exact"] is False and result["p_caught"] is None  # bounds only, not a figure
        assert stopped_searches == []  # no other job's search was cut short
        assert test_client.post("/api/solve", json={"layout": SEVEN_CLUBS}).status_code == 200


def test_a_cancelled_advise_job_keeps_the_cards_finished_and_stops_no_other_search(monkeypatch):
    """As the odds' cancel: South's advice at the start of seven-clubs.txt (184,756 layouts a card)
    is held in its first block until the cancel; that block finishes, no other starts, and the
    answer holds the card begun, marked partial with its bounds."""
    gated_client, engines, stopped_searches = gated_pool(monkeypatch)
    with gated_client as test_client:
        started = test_client.post("/api/jobs", json={"analysis": "advise", "layout": SEVEN_CLUBS, "seat": "S"})
        assert started.status_code == 202, started.text
        job_id = started.json()["id"]
        assert engines[0].entered.wait(60)
        cancelled = cancel_and_wait(test_client, job_id)
        assert cancelled["state"] == "cancelled"
        result = cancelled["result"]
        assert result["interrupted"] is True and result["exact"] is False and result["layouts"] == 184_756
        assert result["cards"] and all(card["partial"] for card in result["cards"].values())
        assert len(result["cards"]) < 10  # not every card begun
        assert stopped_searches == []


@pytest.mark.parametrize("params, command", [
    ({"game": "thousand", "hand": "S=As,Ts,Ah,Kh,Qh,Ac,Kc,9d", "gave": "W:9s,E:Jd", "bid": "120",
      "samples": "200", "seed": "1"},
     ["thousand", "--hand", "S=As,Ts,Ah,Kh,Qh,Ac,Kc,9d", "--gave", "W:9s,E:Jd", "--bid", "120",
      "--samples", "200", "--seed", "1"]),
    ({"hand": "S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah", "discard": "8s,7s", "contract": "7c", "lead": "S",
      "samples": 300, "seed": 2},
     ["contract", "--hand", "S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah", "--discard", "8s,7s", "--contract", "7c",
      "--lead", "S", "--samples", "300", "--seed", "2"]),
])
def test_an_odds_job_reports_progress_and_the_commands_result(client, params, command):
    """The declarer's view (the commands' --help examples, sampled with a seed: cheap and
    reproducible), compared with the command's own --json."""
    params = {"analysis": "odds", **params}
    job = client.post("/api/jobs", json=params).json()
    pool = client.app.state.pool
    assert pool is not None
    finished = None
    for _ in range(6000):
        status = client.get(f"/api/jobs/{job['id']}").json()
        if status["state"] not in ("queued", "running"):
            finished = status
            break
        threading.Event().wait(0.05)
    assert finished is not None and finished["state"] == "done"
    assert finished["done"] == finished["total"] == int(params["samples"])
    assert without_timing(finished["result"]) == without_timing(cli_json(*command))


def test_bad_sampling_parameters_are_refused(client):
    answer = client.post("/api/jobs", json={"analysis": "odds", "hand": "S=As,7c,8c,9c,Ac,Jd,Kd,Th,Kh,Ah",
                                            "discard": "8s,7s", "contract": "7c", "lead": "S", "samples": "1e9"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "--samples takes a whole number from 1 to 100,000,000, not '1e9'"}


def random_ending(rng: random.Random) -> str:
    """A random four-card Preferans ending (a trick contract), in the one-line form."""
    deck = [rank + suit for suit in "scdh" for rank in "789TJQKA"]
    rng.shuffle(deck)
    hands = {seat: deck[4 * n:4 * n + 4] for n, seat in enumerate("SWE")}
    trump = rng.choice("scdhn")
    return (f"contract={rng.choice('6789')}{trump} declarer=S lead={rng.choice('SWE')} "
            + " ".join(f"{seat}={','.join(cards)}" for seat, cards in hands.items()))


def test_twenty_four_requests_at_once_on_a_real_server_are_all_answered_correctly():
    """Real Uvicorn on a free port of 127.0.0.1; each answer checked against the reference
    minimax (the test oracle)."""
    from pyanalyzer.analysis.solve import solve
    from pyanalyzer.model.layout_io import parse_layout

    rng = random.Random(19)
    layouts = [random_ending(rng) for _ in range(24)]
    expected = [solve(parse_layout(text), "reference", cards=True, line=False) for text in layouts]
    with running_server(workers=2, tt_mb=16) as (url, _app):
        def ask(text: str):
            return http_client.post(f"{url}/api/solve", json={"layout": text}, timeout=60)

        with ThreadPoolExecutor(len(layouts)) as threads:
            answers = list(threads.map(ask, layouts))
    for answer, oracle in zip(answers, expected, strict=True):
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["declarer_tricks"] == oracle.declarer_tricks
        assert data["cards"] == {card.code: value for card, value in oracle.cards.items()}


def test_pref_serve_answers_and_stops_cleanly_on_sigterm():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "pyanalyzer", "serve", "--port", "0", "--tt-mb", "16"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()

    def read_errors() -> None:
        for line in process.stderr:
            lines.put(line)
        lines.put("")  # the end

    reader = threading.Thread(target=read_errors, daemon=True)
    reader.start()
    try:
        url = None
        while url is None:  # uvicorn says where it listens (bounded: a minute)
            line = lines.get(timeout=60)
            assert line, "pref serve ended before it listened"
            if "Uvicorn running on " in line:
                url = line.split("Uvicorn running on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        answer = http_client.post(f"{url}/api/solve", json={"layout": SEVEN_CLUBS}, timeout=60)
        assert answer.json()["declarer_tricks"] == 7  # the published answer (layouts/seven-clubs.txt)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        reader.join(60)
        rest = "".join(iter(lines.get_nowait, ""))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, rest
    assert "pref: server stopped" in rest and "Traceback" not in rest


class BlockingEngine:
    """An engine whose searches wait until the pool stops them, then end as a stopped search does."""

    def __init__(self, stopped: threading.Event) -> None:
        self.stopped = stopped
        self.name, self.nodes = "blocking", 0

    def solve(self, position):
        assert self.stopped.wait(60), "the time limit never stopped the search"
        raise KeyboardInterrupt


def test_an_analysis_over_the_time_limit_is_stopped_with_503(monkeypatch):
    """Deterministic: the search runs until the limit stops it, however fast the machine."""
    from pyanalyzer.web import pool as pool_module

    stopped = threading.Event()
    monkeypatch.setattr(pool_module, "stop_running_searches", stopped.set)
    app = create_app(workers=1, waiting=0, time_limit=0.2, make_engine=lambda: BlockingEngine(stopped))
    with TestClient(app) as test_client:
        answer = test_client.post("/api/solve", json={"layout": SEVEN_CLUBS})
        assert answer.status_code == 503
        assert answer.json() == {"error": "the solve analysis was stopped at the server's time limit of 0.2 s"}
        assert stopped.is_set()
        assert test_client.app.state.pool.busy == 0  # the worker is free again


class BrokenEngine:
    name, nodes = "broken", 0

    def solve(self, position):
        raise RuntimeError("a bug: /secret/path/engine.c line 12")


def test_an_unexpected_error_is_500_with_a_short_message_and_logged(caplog):
    with TestClient(create_app(workers=1, make_engine=BrokenEngine)) as test_client:
        with caplog.at_level("ERROR", logger="pyanalyzer.web"):
            answer = test_client.post("/api/solve", json={"layout": SEVEN_CLUBS})
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error in the solve analysis (RuntimeError); the details are in "
                                      "the server's log"}
    assert "/secret/path" not in answer.text  # nothing of the internals goes out ...
    assert "a bug: /secret/path/engine.c" in caplog.text and "Traceback" in caplog.text  # ... it is logged


def test_an_engine_that_cannot_be_built_is_said_at_start():
    """(e.g. no memory for its table): the pool refuses to start instead of hanging requests."""
    from pyanalyzer.web.pool import EnginePool

    def no_memory():
        raise MemoryError("no room for the table")

    with pytest.raises(MemoryError, match="no room"):
        EnginePool(no_memory, workers=2)


def test_a_job_whose_search_another_jobs_cancel_cut_short_is_run_again():
    """A cancel of a job without its own stop stops every search in the process; a block of
    another job's enumeration then returns fewer values without raising. That job must be
    run again, not end "done" with the short result. Deterministic: the first run of job A
    returns (as a cut-short block would) only once job B's cancel has returned, its stop
    issued."""
    from types import SimpleNamespace

    from pyanalyzer.web.pool import EnginePool

    b_running, b_cancel_returned = threading.Event(), threading.Event()
    runs = []

    def enumeration(engine, job):
        runs.append(job.id)
        if len(runs) == 1:
            assert b_cancel_returned.wait(60)
            return SimpleNamespace(interrupted=False, splits=7, total=10)  # cut short, not marked
        return SimpleNamespace(interrupted=False, splits=10, total=10)

    def plain_search(engine, job):
        b_running.set()
        assert job._cancel.wait(60)
        raise KeyboardInterrupt  # its own search, stopped by its cancel

    pool = EnginePool(lambda: None, workers=2)
    try:
        job_b = pool.submit(plain_search, "solve")
        assert b_running.wait(60)
        job_a = pool.submit(enumeration, "odds")
        while not runs:
            threading.Event().wait(0.01)
        job_b.cancel("the client went away")   # no on_cancel: stops every search under way
        b_cancel_returned.set()
        assert job_a.finished.wait(60) and job_b.finished.wait(60)
        assert job_b.state == "cancelled"
        assert job_a.state == "done" and job_a.result.splits == 10 and len(runs) == 2
        # With no stop while it runs, a job runs once.
        calls = []
        job_c = pool.submit(lambda engine, job: calls.append(1), "solve")
        assert job_c.finished.wait(60) and job_c.state == "done" and calls == [1]
    finally:
        pool.close()


def test_api_advise_bad_input_is_the_command_line_message(client):
    answer = client.post("/api/advise", json={"layout": SEVEN_CLUBS, "seat": "W"})
    assert answer.status_code == 400, answer.text
    assert "W is not to move" in answer.text and answer.text.count("\n") <= 1
    assert "W is not to move" in cli_error("advise", SEVEN_CLUBS, "--seat", "W")
