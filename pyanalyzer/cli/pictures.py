"""``--svg FILE`` and ``--html FILE``: one analysis as a picture or a page, besides the normal
output. The SVG is the diagram with each card's value (the verdict under it); the HTML page
holds the diagram inline, the verdict, the best line and the tables, and prints cleanly.

The file names are checked when the options are read (a folder that exists and is writable),
so a slip is said before a long run, not after it.
"""

from __future__ import annotations

import os

import click

from pyanalyzer.cli.support import fail
from pyanalyzer.errors import PrefInputError, shorten
from pyanalyzer.model.layout import Layout
from pyanalyzer.render.html import page, result_html
from pyanalyzer.render.svg import layout_svg


class OutputFile(click.ParamType):
    """A file to write: in a folder that exists and is writable, not a folder itself."""

    name = "FILE"

    def convert(self, value, param, ctx) -> str:
        option = param.opts[0] if param is not None and param.opts else "the file"
        path = str(value)
        folder = os.path.dirname(path) or "."
        if not path or path.endswith(("/", os.sep)) or os.path.isdir(path):
            fail(f"{option} {shorten(path)!r} is a folder: give a file name, e.g. deal{option.replace('--', '.')}")
        if not os.path.isdir(folder):
            fail(f"{option} {shorten(path)!r}: no such folder {shorten(folder)!r}")
        if not os.access(folder, os.W_OK):
            fail(f"{option} {shorten(path)!r}: folder {shorten(folder)!r} is not writable")
        return path


def picture_options(command):
    """``--svg FILE`` and ``--html FILE`` on a command that shows or analyses one layout."""
    command = click.option(
        "--html", "html_path", type=OutputFile(), metavar="FILE",
        help="Also write the analysis as an HTML page (diagram, verdict, line; prints well).")(command)
    return click.option("--svg", "svg_path", type=OutputFile(), metavar="FILE",
                        help="Also write the diagram with each card's value as an SVG picture.")(command)


def check_svg_has_a_layout(svg_path: str | None, has_layout: bool) -> None:
    """``--svg`` draws a layout: refused (before the run) for an analysis of a hand alone."""
    if svg_path and not has_layout:
        raise PrefInputError("--svg draws a layout: give a LAYOUT (the odds of a hand have no diagram; "
                             "use --html for them)", "--svg")


def write_pictures(result, svg_path: str | None, html_path: str | None, style: str = "symbols",
                   layout: Layout | None = None) -> None:
    """Write ``result`` to the files asked for (an unwritable file: one-line error, status 2);
    ``layout``: the layout analysed, drawn when the result holds none (Thousand's exchange)."""
    parts = result.html_parts(style)
    if parts.get("layout") is None and layout is not None:
        parts["layout"] = layout
    if svg_path:
        if parts.get("layout") is None:
            check_svg_has_a_layout(svg_path, False)
        caption = parts["verdict"].splitlines() if parts.get("verdict") and "headline" not in parts else []
        _write(svg_path, "--svg", layout_svg(parts["layout"], values=parts.get("values"), style=style,
                                             legal=False, caption=caption, best=parts.get("best", ()),
                                             hidden=parts.get("hidden", ())))
    if html_path:
        layout = parts.get("layout")
        title = (layout.title if layout is not None and layout.title else None) or parts.get("verdict") or "pref"
        _write(html_path, "--html", page(title, result_html(**parts)))


def write_layout_pictures(layout: Layout, svg_path: str | None, html_path: str | None,
                          style: str = "symbols") -> None:
    """``pref show``: the layout alone, its legal cards unmarked."""
    if svg_path:
        _write(svg_path, "--svg", layout_svg(layout, style=style, legal=False))
    if html_path:
        _write(html_path, "--html", page(layout.title or "pref", result_html(layout=layout, style=style)))


def _write(path: str, option: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        fail(f"cannot write {option} {shorten(path)!r}: {error.strerror or error}")
