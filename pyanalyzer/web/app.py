"""The web analyzer's ASGI application (Starlette): the page, its static files and the JSON API.

API (every body is JSON, at most ``max_body`` bytes; every answer is JSON):

* ``POST /api/solve`` ``{"layout": "<one-line layout>"}`` -> what ``pref solve LAYOUT --json --cards`` prints;
  likewise ``/api/misere`` (``talon``), ``/api/contract``, ``/api/allpass`` (``talon_rule``),
  ``/api/table`` (a PBN deal or a Whist layout), ``/api/thousand``, ``/api/advise`` (``seat``,
  ``sees``, ``moves``, ``exact_limit``, ``samples``, ``seed``: ``pref advise``'s options, as text).
* ``POST /api/position`` ``{"layout": .., "moves": ["Td", ..], "values": {"Td": 1}}`` -> the layout
  after the moves (``pref show --json``), its legal ``moves`` and its ``svg`` diagram (``"values":
  "solve"``: each legal card's value solved, under the card and as ``cards``).
* ``POST /api/jobs`` ``{"analysis": "odds", "hand": "S=..", ...}`` -> 202 and the job's status;
  the long analyses: ``odds`` (the declarer's odds over every split), ``advise`` (the fields of
  ``/api/advise``), ``by_information`` (``layout`` with its ``played=`` record, ``moves`` after it,
  ``open``, ``threshold``, ``exact_limit``, ``samples``, ``seed``: ``pref contract LAYOUT
  --by-information --json``, ``pref thousand`` for a Thousand deal);
  ``GET /api/jobs/ID`` -> its state, ``done`` / ``total``, the ``stage`` of an analysis in stages
  (``card Ks 2 of 5``; ``unit``: what it counts, when not the analysis' own) and, once finished,
  ``result`` (the
  command's ``--json``; a cancelled job keeps what it finished, marked partial);
  ``GET /api/jobs/ID/events`` -> the same statuses as Server-Sent Events (``text/event-stream``),
  one each time it changes, the last with the result; the page follows a job so;
  ``DELETE /api/jobs/ID`` cancels it (its worker is free again at once).

Errors: bad input -> 400 ``{"error": "<the command line's one-line message>"}``; a body over
the limit -> 413; every worker busy and the waiting line full -> 503; an analysis over the time
limit -> 503 (stopped); anything unexpected -> 500 with a short message (the traceback is logged
on the server). No request reads a file: layouts are text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pyanalyzer.errors import PrefInputError, shorten
from pyanalyzer.web import analyses
from pyanalyzer.web.pool import EnginePool, Job, PoolFull

log = logging.getLogger("pyanalyzer.web")

STATIC = Path(__file__).resolve().parent / "static"
#: Largest request body: a layout file's text is a few hundred bytes.
MAX_BODY = 64 * 1024
#: Longest an analysis may run before it is stopped (seconds).
TIME_LIMIT = 600.0
#: Finished long jobs kept for their clients to read.
KEPT_JOBS = 200
#: How often a job's event stream looks at its progress (seconds).
EVENT_INTERVAL = 0.25


class RequestError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(workers: int = 2, tt_mb: int = 64, waiting: int = 32, max_body: int = MAX_BODY,
               time_limit: float = TIME_LIMIT, make_engine=None) -> Starlette:
    """The application. ``workers`` engines of ``tt_mb`` MB each (``make_engine`` overrides how
    one is built); at most ``waiting`` requests wait for a free worker."""
    if make_engine is None:
        def make_engine():
            from pyanalyzer.engines.registry import make_backend
            return make_backend("fast", tt_size_mb=tt_mb)

    jobs: OrderedDict[str, Job] = OrderedDict()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.pool = EnginePool(make_engine, workers=workers, waiting=waiting)
        try:
            yield
        finally:
            await asyncio.to_thread(app.state.pool.close)

    async def read_json(request: Request) -> dict:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > max_body):
            raise RequestError(413, f"the request is over {max_body:,} bytes: a layout is a few hundred")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > max_body:
                raise RequestError(413, f"the request is over {max_body:,} bytes: a layout is a few hundred")
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as problem:
            raise RequestError(400, f"the request body is not JSON: {shorten(str(problem))}") from None
        if not isinstance(data, dict):
            raise RequestError(400, "the request body must be a JSON object, e.g. {\"layout\": \"...\"}")
        return data

    def submit(request: Request, task, kind: str) -> Job:
        try:
            return request.app.state.pool.submit(task, kind)
        except PoolFull as full:
            raise RequestError(503, f"the server is busy: {full}") from None

    async def wait(job: Job, limit: float) -> None:
        """Until ``job`` has finished; past ``limit`` seconds it is stopped (and waited for)."""
        loop = asyncio.get_running_loop()
        finished = loop.create_future()

        def wake() -> None:
            loop.call_soon_threadsafe(lambda: finished.done() or finished.set_result(None))

        job.when_finished(wake)
        try:
            await asyncio.wait_for(asyncio.shield(finished), limit)
        except asyncio.TimeoutError:
            job.cancel(f"stopped at the server's time limit of {limit:g} s")
            await finished
        except asyncio.CancelledError:  # the client went away: free the worker
            job.cancel("the client went away")
            raise

    def failure(job: Job) -> JSONResponse:
        problem = job.error
        if isinstance(problem, PrefInputError):
            return error(400, str(problem))
        if isinstance(problem, MemoryError):
            return error(503, "not enough memory for this analysis on the server")
        log.error("analysis %s failed", job.kind, exc_info=(type(problem), problem, problem.__traceback__))
        return error(500, f"internal error in the {job.kind} analysis ({type(problem).__name__}); "
                          "the details are in the server's log")

    def api(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestError as problem:
                return error(problem.status, str(problem))
            except PrefInputError as problem:
                return error(400, str(problem))
            except Exception as problem:  # noqa: BLE001 - a short answer; the traceback goes to the log
                log.exception("request %s failed", request.url.path)
                return error(500, f"internal error ({type(problem).__name__}); the details are in the server's log")
        return endpoint

    def analysis_endpoint(name: str):
        function, extra = analyses.ANALYSES[name]

        async def handler(request: Request) -> Response:
            data = await read_json(request)
            field = "deal" if name == "table" and "deal" in data else "layout"
            text = analyses.check_text_field(data.get(field), field)
            options = {key: analyses.check_text_field(data[key], key) for key in extra if data.get(key)}
            job = submit(request, lambda engine, _job: function(engine, text, **options), name)
            await wait(job, time_limit)
            if job.state == "done":
                return JSONResponse(job.result)
            if job.state == "cancelled":
                return error(503, f"the {name} analysis was {job.reason or 'cancelled'}")
            return failure(job)
        return api(handler)

    async def position(request: Request) -> Response:
        data = await read_json(request)
        text = analyses.check_text_field(data.get("layout"), "layout")
        moves = data.get("moves") or []
        values = data.get("values") or None
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RequestError(400, "moves must be a list of card codes, e.g. [\"Td\", \"7d\"]")
        if values is not None and not isinstance(values, dict) and values != "solve":
            raise RequestError(400, "values must be an object, e.g. {\"Td\": 1}, or \"solve\"")
        job = submit(request, lambda engine, _job: analyses.position(text, moves, values, engine), "position")
        await wait(job, time_limit)
        return JSONResponse(job.result) if job.state == "done" else failure(job)

    def job_answer(job: Job) -> dict:
        out = job.status()
        if job.finished.is_set():
            if job.result is not None:
                out["result"] = job.result.to_dict()
            if job.error is not None:
                out["error"] = str(job.error) if isinstance(job.error, PrefInputError) else (
                    f"internal error ({type(job.error).__name__}); the details are in the server's log")
        return out

    async def start_job(request: Request) -> Response:
        data = await read_json(request)
        kind = data.get("analysis")
        if kind not in analyses.JOBS:
            raise RequestError(400, f"unknown analysis {shorten(str(kind))!r}: give one of "
                                    + ", ".join(f'"{name}"' for name in analyses.JOBS))
        task = analyses.JOBS[kind](data)  # bad parameters: 400 now, not a failed job later
        job = submit(request, task, kind)
        jobs[job.id] = job
        while len(jobs) > KEPT_JOBS:
            oldest = next(iter(jobs.values()))
            if not oldest.finished.is_set():
                break
            jobs.popitem(last=False)

        async def watchdog() -> None:
            await wait(job, time_limit)
            if job.error is not None and not isinstance(job.error, PrefInputError):
                failure(job)  # logged

        request.app.state.watchdogs = getattr(request.app.state, "watchdogs", set())
        task_handle = asyncio.get_running_loop().create_task(watchdog())
        request.app.state.watchdogs.add(task_handle)
        task_handle.add_done_callback(request.app.state.watchdogs.discard)
        return JSONResponse(job_answer(job), status_code=202)

    def find_job(request: Request) -> Job:
        job = jobs.get(request.path_params["job_id"])
        if job is None:
            raise RequestError(404, f"no job {shorten(request.path_params['job_id'])!r} (finished jobs are "
                                    "kept for a while only)")
        return job

    async def job_status(request: Request) -> Response:
        return JSONResponse(job_answer(find_job(request)))

    async def job_events(request: Request) -> Response:
        """The job's status as Server-Sent Events: one event each time it changes, the last one
        (with the result) once it has finished; then the stream ends."""
        job = find_job(request)

        async def events():
            last = None
            while True:
                finished = job.finished.is_set()
                answer = job_answer(job)
                if answer != last:
                    last = answer
                    yield f"data: {json.dumps(answer, ensure_ascii=False)}\n\n"
                if finished or await request.is_disconnected():
                    return
                await asyncio.sleep(EVENT_INTERVAL)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def cancel_job(request: Request) -> Response:
        job = find_job(request)
        job.cancel("cancelled")
        deadline = time.monotonic() + 5.0
        while not job.finished.is_set() and time.monotonic() < deadline:  # the stop takes a moment
            await asyncio.sleep(0.02)
        return JSONResponse(job_answer(job))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def not_found(request: Request, exc) -> Response:
        if request.url.path.startswith("/api/"):
            return error(404, f"no such API: {shorten(request.url.path)}")
        return Response("not found", status_code=404, media_type="text/plain")

    routes = [Route("/", page)]
    routes += [Route(f"/api/{name}", analysis_endpoint(name), methods=["POST"]) for name in analyses.ANALYSES]
    routes += [
        Route("/api/position", api(position), methods=["POST"]),
        Route("/api/jobs", api(start_job), methods=["POST"]),
        Route("/api/jobs/{job_id}", api(job_status), methods=["GET"]),
        Route("/api/jobs/{job_id}/events", api(job_events), methods=["GET"]),
        Route("/api/jobs/{job_id}", api(cancel_job), methods=["DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found})
