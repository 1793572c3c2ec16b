"""A result as HTML: the diagram (:func:`~pyanalyzer.render.svg.layout_svg`), the verdict, and the
result's text (the best line, its tables and histograms) with red suits, for notebooks
(``_repr_html_``) and for the single-analysis files of ``pref solve ... --html``.

A result object gets ``_repr_html_`` from :class:`HtmlView`, which reads what the object has:
``layout`` (and ``cards``, the values printed under the cards), ``verdict()``, ``format()``. A
result without a layout (the odds of a hand) shows its text alone; one with a table of its own
(the Whist DD table) overrides :meth:`HtmlView.html_parts`.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> html = result_html(layout=parse_layout("contract=6s declarer=S lead=W S=As,Ks W=7h,8h E=7d,8d"),
...                    verdict="South takes 2 tricks.", text="Best play:\\n  1. W ♥8 ...")
>>> html.startswith('<div class="pref-result"') and '<svg' in html and 'color:#c8102e">♥</span>8' in html
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from pyanalyzer.model.cards import Card
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.render.svg import RED, layout_svg

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def coloured(text: str) -> str:
    """``text`` escaped for HTML, its ♦ and ♥ red."""
    out = escape(text)
    for symbol in "♦♥":
        out = out.replace(symbol, f'<span style="color:{RED}">{symbol}</span>')
    return out


def table_html(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A small table (``None`` cells shown as ``-``), the first column as row headings."""
    cell = "padding:2px 8px;text-align:right;border-bottom:1px solid #ddd"
    head = "".join(f'<th style="{cell}">{coloured(str(h))}</th>' for h in header)
    body = "".join(
        "<tr>" + "".join(
            f'<{"th" if i == 0 else "td"} style="{cell}">{coloured("-" if v is None else str(v))}'
            f'</{"th" if i == 0 else "td"}>' for i, v in enumerate(row)) + "</tr>"
        for row in rows)
    return (f'<table class="pref-table" style="border-collapse:collapse;font-family:{FONT};font-size:14px">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def result_html(*, layout: Layout | None = None, values: Mapping[Move | Card, object] | None = None,
                verdict: str | None = None, text: str = "", table: str = "",
                headline: str | None = None, best: Sequence[Move | Card] = (), style: str = "symbols",
                hidden: Sequence[str] = ()) -> str:
    """One result: its diagram (with ``values`` under the cards), the verdict in bold, a table
    (HTML, from :func:`table_html`) and the rest of its text, preformatted. ``headline``: the
    diagram's headline in place of the contract and who is to play (the seat to move unmarked).
    ``best``: the moves whose values are marked as best play's; ``style``: how the diagram writes
    ranks (the text comes written already); ``hidden``: the hands drawn as their count only (the
    layout as one player sees it)."""
    parts = [f'<div class="pref-result" style="font-family:{FONT}">']
    if layout is not None:
        drawing = layout_svg(layout, values=values, legal=False, headline=headline, mark_to_move=headline is None,
                             best=best, style=style, hidden=hidden)
        parts.append(f'<div class="pref-diagram">{drawing}</div>')
        if layout.source:
            parts.append(f'<p class="pref-source" style="font-size:12px;color:#555;margin:2px 0">'
                         f"Source: {coloured(layout.source)}</p>")
    if verdict:
        parts.append(f'<p class="pref-verdict" style="font-weight:bold;font-size:15px;margin:6px 0">'
                     f"{coloured(verdict).replace(chr(10), '<br>')}</p>")
    if table:
        parts.append(table)
    if text.strip():
        parts.append(f'<pre class="pref-text" style="font-family:{MONO};font-size:13px;line-height:1.3;'
                     f'margin:6px 0">{coloured(text.strip(chr(10)))}</pre>')
    parts.append("</div>")
    return "".join(parts)


class HtmlView:
    """Gives a result object a rich display in Jupyter (``_repr_html_``), like python-chess's
    boards: the diagram with each card's value, the verdict, the line and tables."""

    def best_card_value(self) -> object | None:
        """The value best play gives the player to move, to mark the cards that keep it
        (None: nothing marked)."""
        return None

    def html_parts(self, style: str = "symbols") -> dict:
        """The arguments of :func:`result_html` for this result, read from what it has, cards
        written in ``style``."""
        layout = getattr(self, "layout", None)
        values = getattr(self, "cards", None) if layout is not None else None
        top = self.best_card_value()
        best = [move for move, value in (values or {}).items() if top is not None and value == top]
        text = self.format(style) if callable(getattr(self, "format", None)) else str(self)
        verdict = self.verdict() if callable(getattr(self, "verdict", None)) else None
        if isinstance(verdict, list):  # a verdict of several sentences, one a line
            verdict = "\n".join(verdict)
        if verdict is None:  # the first line of the text is its headline
            verdict, _, text = text.partition("\n")
        elif text.startswith(verdict):
            text = text[len(verdict):]
        return {"layout": layout, "values": values, "verdict": verdict, "text": text, "best": best,
                "style": style}

    def _repr_html_(self) -> str:
        return result_html(**self.html_parts())


def page(title: str, body: str) -> str:
    """A self-contained HTML page around ``body`` (nothing fetched), which prints on A4 or
    letter: the diagrams are never split across pages."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
body {{ font-family: {FONT}; margin: 2em; color: #111; }}
.pref-result svg {{ max-width: 100%; height: auto; }}
.pref-diagram, svg, table, .puzzle {{ break-inside: avoid; page-break-inside: avoid; }}
@page {{ margin: 15mm; }}
@media print {{ body {{ margin: 0; }} }}
</style>
</head>
<body>
{body}
</body>
</html>
"""
