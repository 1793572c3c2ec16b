"""A real Uvicorn server with the web analyzer on 127.0.0.1 and a free port, for the tests:
started in a thread, stopped (and joined, bounded) when the block ends."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

#: Seconds the server may take to start or to stop.
BOUND = 60.0


@contextmanager
def running_server(**app_options):
    """Yields ``(base_url, app)``."""
    import uvicorn

    from pyanalyzer.web.app import create_app

    app = create_app(**app_options)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(BOUND)
        assert not thread.is_alive(), "the test server did not stop"
