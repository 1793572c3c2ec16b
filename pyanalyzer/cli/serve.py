"""``pref serve``: the local web analyzer (Starlette, served by Uvicorn)."""

from __future__ import annotations

import click

from pyanalyzer.cli.options import tt_mb_option
from pyanalyzer.cli.support import THREADS_TYPE, BoundedInt, fail
from pyanalyzer.engines.registry import check_table_memory
from pyanalyzer.errors import PrefInputError

#: Seconds the server waits for open connections when stopping, after the jobs are stopped.
GRACEFUL_SECONDS = 5


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0 opens it to the network).")
@click.option("--port", type=BoundedInt(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--workers", type=THREADS_TYPE, default=2, show_default=True,
              help="Analyses run at once, each on its own engine (memory: workers x --tt-mb).")
@click.option("--waiting", type=BoundedInt(0, 1000), default=32, show_default=True,
              help="Requests that may wait for a free worker; beyond them the server answers 503.")
@click.option("--time-limit", type=BoundedInt(1, 86400), default=600, show_default=True,
              help="Seconds an analysis may run before it is stopped.")
@tt_mb_option(default=64)
def serve_command(host: str, port: int, workers: int, waiting: int, time_limit: int, tt_mb: int) -> None:
    """Serve the web analyzer: enter a deal, see the diagram, solve, step through the play.

    Open the address it prints in a browser. A layout in the address opens
    solved: http://127.0.0.1:8000/?layout=<the one-line layout, URL-encoded>.
    The page's JSON API answers what the commands print with --json, e.g.
    POST /api/solve {"layout": "..."} is pref solve LAYOUT --json. Stop with Ctrl-C.

    \b
    Examples:
      pref serve --port 8000
      pref serve --port 8080 --workers 4 --tt-mb 128
    """
    try:
        check_table_memory(tt_mb, workers, advice="lower --tt-mb or --workers")
    except PrefInputError as error:
        fail(str(error))
    import uvicorn

    from pyanalyzer.web.app import create_app

    app = create_app(workers=workers, tt_mb=tt_mb, waiting=waiting, time_limit=float(time_limit))

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # Stop the analyses under way first, so that no request keeps the server waiting.
            pool = getattr(app.state, "pool", None)
            if pool is not None:
                pool.cancel_all("the server is stopping")
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="info",
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    server = Server(config)
    try:
        server.run()
    except KeyboardInterrupt:  # the signal uvicorn passes on after its own clean stop
        pass
    except OSError as error:  # e.g. the port is taken
        fail(f"cannot serve on {host}:{port}: {error.strerror or error}")
    click.echo("pref: server stopped", err=True)
