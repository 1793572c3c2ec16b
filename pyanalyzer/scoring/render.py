"""Text drawings: the Preferans sheet (pool / mountain / whists), the settlement, Thousand and Whist sheets.

>>> print(table([["", "a"], ["x", "1\\n22"]]))
  | a
--+---
x | 1
  | 22
"""

from __future__ import annotations

from fractions import Fraction

from pyanalyzer.scoring.settlement import Settlement, mixed


def number(value) -> str:
    """A sheet number: whole, or a fraction ``7/2``.

    >>> number(Fraction(8)), number(Fraction(7, 2))
    ('8', '7/2')
    """
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def table(rows: list[list[str]], right: bool = False) -> str:
    """Draw ``rows`` (the first one is the header) with ``|`` columns; cells may hold several lines."""
    split = [[cell.split("\n") for cell in row] for row in rows]
    widths = [max(len(line) for row in split for line in row[col]) for col in range(len(rows[0]))]
    out: list[str] = []
    for index, row in enumerate(split):
        height = max(len(cell) for cell in row)
        for k in range(height):
            cells = []
            for col, cell in enumerate(row):
                text = cell[k] if k < len(cell) else ""
                cells.append(text.rjust(widths[col]) if right and col else text.ljust(widths[col]))
            out.append(" | ".join(cells).rstrip())
        if index == 0:
            out.append("-+-".join("-" * w for w in widths))
    return "\n".join(out)


def _running(values: list, total, width: int = 26, closed: bool = False) -> str:
    """Running totals as written on paper, ``2.6.10``, wrapped, then ``= total``."""
    lines: list[str] = []
    current = ""
    for value in values:
        piece = number(value)
        candidate = f"{current}.{piece}" if current else piece
        if current and len(candidate) > width:
            lines.append(current + ".")
            current = piece
        else:
            current = candidate
    if current:
        lines.append(current)
    summary = f"= {number(total)}" + (" closed" if closed else "")
    if not values:
        return "" if not total else summary
    return "\n".join([*lines, summary])


def preferans_sheet(sheet) -> str:
    """The familiar sheet: for each player his pool, his mountain and his whists on each opponent."""
    players = sheet.players
    rules = sheet.rules
    header = ["player", f"pool (to {rules.pool_target})", "mountain", *(f"whists on {p}" for p in players)]
    rows = [header]
    for seat in players:
        row = [seat,
               _running(sheet.pool_history[seat], sheet.pool[seat],
                        closed=sheet.pool[seat] >= rules.pool_target),
               _running(sheet.mountain_history[seat], sheet.mountain[seat])]
        for other in players:
            row.append("—" if other == seat else _running(sheet.whist_history[(seat, other)],
                                                          sheet.whists[(seat, other)]))
        rows.append(row)
    return table(rows)


def deal_log(rows) -> str:
    """One line per deal: its number, its line in the record, what it wrote."""
    out = []
    for index, row in enumerate(rows, start=1):
        where = f"line {row.deal.line}" if row.deal.line is not None else ""
        notes = "; ".join(row.entries.notes)
        out.append(f"{index:3}. {row.deal.describe():34} {notes}" + (f"  [{where}]" if where else ""))
    return "\n".join(out)


def settlement_text(result: Settlement, pool_correction: int | None = None) -> str:
    """The settlement step by step, one column per player, then the three results (and money)."""
    seats = result.seats
    rows = [["", *seats]]

    def add(label: str, values: dict, fmt=number) -> None:
        rows.append([label, *(fmt(values[seat]) for seat in seats)])

    if result.pools:
        add("pool", result.pools)
    add("mountain", result.mountains)
    if result.pools:
        add(f"corrected (×{pool_correction})" if pool_correction else "corrected", result.corrected)
    add("after amnesty", result.amnestied)
    add("mountain whists", result.mountain_whists, mixed)
    add("net whists", result.net_whists, mixed)
    add("exact result", result.exact, mixed)
    add("method 1", result.method1, mixed)
    add("method 2", result.method2, mixed)
    if result.whist_money:
        for name in ("exact", "method1", "method2"):
            label = {"exact": "money, exact", "method1": "money, method 1", "method2": "money, method 2"}[name]
            add(label, result.money(getattr(result, name)), mixed)
    lines = [table(rows, right=True), ""]

    def moves(values: dict) -> str:
        moved = [f"{seat}'s mountain {'+' if v > 0 else '−'}{number(abs(v))}" for seat, v in values.items() if v]
        return ", ".join(moved) if moved else "no move needed"

    lines.append(f"method 1: {moves(result.method1_moves)}; method 2 (drawn {result.drawn}): "
                 f"{moves(result.method2_moves)}")
    if result.whist_money:
        lines.append(f"money at {number(result.whist_money)} per whist")
    lines.extend(result.notes)
    return "\n".join(lines)


def thousand_sheet(sheet) -> str:
    """Running scores per player, bolts, the barrel and the notes."""
    rows = [["player", "scores", "total", "bolts"]]
    for seat in sheet.players:
        scores = ".".join(str(v) for v in sheet.history[seat])
        rows.append([seat, scores or "0", str(sheet.scores[seat]), str(sheet.bolts[seat])])
    lines = [table(rows)]
    if sheet.barrel_seat:
        lines.append(f"on the barrel: {sheet.barrel_seat} ({sheet.barrel_points()} gathered, "
                     f"{sheet.attempts} of {sheet.rules.barrel_attempts} attempts used)")
    lines.extend(sheet.notes)
    if sheet.winner:
        lines.append(f"winner: {sheet.winner}")
    return "\n".join(lines)


def whist_sheet(sheet) -> str:
    rows = [["side", "scores", "total"]]
    for side, history in sheet.history.items():
        rows.append([side, ".".join(str(v) for v in history) or "0", str(sheet.scores[side])])
    lines = [table(rows)]
    if sheet.winner:
        lines.append(f"game: {sheet.winner}")
    return "\n".join(lines)
