"""Draw docs/screenshots/web-analyzer.png, the README's picture of the web analyzer.

Starts ``pref serve``'s application on a free port of 127.0.0.1, opens Kovalevskaya's misère in
Debian's headless Chromium (driven by Playwright; the browser is the distribution's, never a
download), solves it (each of East's cards shows the tricks it forces) and saves the page.

    python docs/screenshots/web_analyzer.py [--chromium /usr/bin/chromium-headless-shell]

Needs the test extra (``pip install '.[test]'``, for Playwright) and a Chromium.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "web-analyzer.png"
WAIT = 60_000  # milliseconds for one answer of the server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=next(
        (shutil.which(n) for n in ("chromium-headless-shell", "chromium") if shutil.which(n)), None))
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    if args.chromium is None:
        print("web_analyzer.py: error: no Chromium found (apt-get install chromium-headless-shell)", file=sys.stderr)
        return 2

    import uvicorn
    from playwright.sync_api import sync_playwright

    from pyanalyzer.model.layout_io import format_one_line, read_layout
    from pyanalyzer.web.app import create_app

    layout = format_one_line(read_layout(str(REPO / "layouts" / "kovalevskaya.txt")))
    server = uvicorn.Server(uvicorn.Config(create_app(workers=1, tt_mb=16), host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            print("web_analyzer.py: error: the server did not start", file=sys.stderr)
            return 1
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium)
            page = browser.new_page(viewport={"width": 1200, "height": 790})
            page.goto(f"http://127.0.0.1:{port}/?layout={urllib.parse.quote(layout)}")
            page.wait_for_function("document.getElementById('summary').textContent.startsWith('caught')",
                                   timeout=WAIT)
            page.screenshot(path=args.out, full_page=False)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(60)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
