"""The double-dummy table: tricks for each declarer in each denomination.

Like DDS's ``CalcDDtable``: 5 denominations (``s h d c n``) x 4 declarers;
the declarer's left-hand opponent leads, and the entry is the tricks of the
declarer's side. Each denomination is one family of positions for the
engine: the North-South tricks are searched for each of the four leaders
with the transposition table kept warm, and an East-West declarer's entry is
the rest of the tricks. One engine takes the denominations one after the other
on one table, no-trump last: a position with no trump left plays as no-trump in
every denomination, and the engine's table shares those positions.

>>> from pyanalyzer.whist.deal import Deal
>>> table = dd_table(Deal.from_pbn("N:A.K.. K.A.. Q.Q.. J.J.."), engine="reference")
>>> table.tricks["N"]
{'s': 1, 'h': 1, 'd': 1, 'c': 1, 'n': 1}
>>> print(table)
      ♠  ♥  ♦  ♣ NT
   N  1  1  1  1  1
   S  1  1  1  1  1
   E  1  1  1  1  1
   W  1  1  1  1  1
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pyanalyzer.engines.executor import Executor
from pyanalyzer.engines.registry import DEFAULT_TT_MB, WarmEngine, make_backend
from pyanalyzer.model.cards import WHIST
from pyanalyzer.model.rules import WHIST_RULES
from pyanalyzer.render.html import HtmlView, table_html
from pyanalyzer.whist.deal import SEATS, Deal, whist_layout

#: Denominations in DDS's strain order (its ``resTable``): spades, hearts, diamonds, clubs,
#: no-trump; the printed table's columns and the JSON's keys.
DENOMINATIONS = ("s", "h", "d", "c", "n")
COLUMNS = DENOMINATIONS
#: The order in which several threads take the denominations: no-trump, usually the
#: longest search, first.
SHARED_ORDER = ("n", "s", "h", "d", "c")
#: The printed rows: partners together, as DDS's and endplay's printed tables.
ROWS = ("N", "S", "E", "W")


@dataclass
class DDTable(HtmlView):
    """``tricks[declarer][denomination]``: the declarer side's tricks with best play."""

    deal: Deal
    #: (None where a search was not finished: an interrupted table)
    tricks: dict[str, dict[str, int | None]]
    nodes: int
    seconds: float
    engine: str
    #: Stopped by Ctrl-C: the entries not searched are None.
    interrupted: bool = False

    def __str__(self) -> str:
        heads = [("NT" if d == "n" else next(s.symbol for s in WHIST.suits if s.letter == d))
                 for d in COLUMNS]
        lines = ["    " + "".join(h.rjust(3) for h in heads)]
        for seat in ROWS:
            lines.append(seat.rjust(4) + "".join(
                ("-" if self.tricks[seat][d] is None else str(self.tricks[seat][d])).rjust(3) for d in COLUMNS))
        if self.interrupted:
            done = sum(v is not None for row in self.tricks.values() for v in row.values())
            lines.append(f"PARTIAL (interrupted): {done} of 20 entries searched, - for the others")
        return "\n".join(lines)

    def html_parts(self, style: str = "symbols") -> dict:
        """For notebooks: the deal's diagram and the table as an HTML table."""
        heads = ["NT" if d == "n" else next(s.symbol for s in WHIST.suits if s.letter == d) for d in COLUMNS]
        rows = [[seat, *(self.tricks[seat][d] for d in COLUMNS)] for seat in ROWS]
        text = str(self).splitlines()[-1] if self.interrupted else ""
        return {"layout": whist_layout(self.deal), "headline": "Double-dummy tricks of each declarer",
                "verdict": "Tricks the declarer's side takes, by declarer and denomination:",
                "table": table_html(["", *heads], rows), "text": text, "style": style}

    def to_dict(self) -> dict:
        """The JSON object of ``pref table --json``."""
        return {
            "deal": self.deal.pbn(),
            # DDS's resTable order: seats N E S W, strains s h d c n.
            "table": {seat: {d: self.tricks[seat][d] for d in DENOMINATIONS} for seat in SEATS},
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "partial": self.interrupted,
            "interrupted": self.interrupted,
        }


@dataclass
class DenominationSearches:
    """The work on one denomination of :func:`dd_table`: its four entries, ``(declarer,
    denomination, tricks, nodes)``, as found. Picklable (a cluster worker runs it); ``stop`` (a
    local run's, set on Ctrl-C: no new search starts) stays behind."""

    deal: Deal
    stop: threading.Event | None = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "stop": None}

    def __call__(self, backend, denomination: str) -> Iterator[tuple[str, str, int, int]]:
        trump = None if denomination == "n" else denomination
        # Partners lead one after the other: their results are close, and the engine
        # starts each search from the previous value (its table kept warm).
        for leader in ("N", "S", "E", "W"):
            if self.stop is not None and self.stop.is_set():
                return
            before = backend.nodes
            north_south = backend.solve(whist_layout(self.deal, trump, "N", lead=leader).position())
            # The declarer is the leader's right-hand opponent.
            declarer = SEATS[(SEATS.index(leader) - 1) % len(SEATS)]
            in_ns = declarer in WHIST_RULES.side_of("N")
            yield (declarer, denomination, north_south if in_ns else self.deal.tricks - north_south,
                   backend.nodes - before)


def dd_table(deal: Deal, engine: str | object | Sequence[object] = "fast", progress=None,
             threads: int = 1, keep_partial: bool = False, tt_mb: int = DEFAULT_TT_MB) -> DDTable:
    """The double-dummy table of ``deal`` (an ending gives the tricks left).

    ``engine`` is ``fast``, ``reference``, a backend from
    :func:`pyanalyzer.engines.registry.make_backend` or a list of them (one per thread;
    reused across deals). With ``threads`` > 1 (or several backends) the five
    denominations are shared out among threads (:class:`pyanalyzer.engines.executor.Executor`),
    each with its own engine and table: the searches run without the GIL, so two cores
    nearly halve the time. ``progress``, if given, is called from the calling thread
    with ``(searches done, 20)`` after each search.
    Ctrl-C raises KeyboardInterrupt, or with ``keep_partial`` returns the table of the
    searches finished, marked interrupted (the others None). With ``--scheduler`` the
    denominations go to the cluster's workers (engines of ``tt_mb``).
    """
    if isinstance(engine, str):
        backends = [make_backend(engine) if engine != "fast" else make_backend(engine, tt_mb)
                    for _ in range(max(1, threads))]
    elif isinstance(engine, Sequence):
        backends = list(engine)
    else:
        backends = [engine]
    start_nodes = [backend.nodes for backend in backends]
    start = time.perf_counter()
    tricks: dict[str, dict[str, int]] = {seat: {} for seat in SEATS}
    stop = threading.Event()              # set on Ctrl-C: no new search starts
    executor = Executor(states=backends, remote=WarmEngine(backends[0].name, tt_mb))
    # One engine takes the denominations in the table's order; several share them out, each
    # taking the next one left (no-trump, usually the longest, first).
    order = DENOMINATIONS if executor.workers == 1 else SHARED_ORDER
    run = executor.map(DenominationSearches(deal, stop), order, ordered=False, streams=True, stop=stop)
    interrupted = False
    remote_nodes = 0
    try:
        with run:
            for declarer, denomination, value, search_nodes in run:
                tricks[declarer][denomination] = value
                remote_nodes += search_nodes
                if progress is not None:
                    progress(sum(len(row) for row in tricks.values()), len(DENOMINATIONS) * len(SEATS))
        if run.interrupted:
            raise KeyboardInterrupt
    except KeyboardInterrupt:  # (from the run, or from the progress display)
        if not keep_partial:
            raise
        interrupted = True
    # Here, the engines' own counts (a search cut short by Ctrl-C did work too); on a cluster, the searches'.
    nodes = (remote_nodes if executor.cluster is not None else
             sum(backend.nodes - before for backend, before in zip(backends, start_nodes, strict=True)))
    ordered = {seat: {d: tricks[seat].get(d) for d in DENOMINATIONS} for seat in SEATS}
    return DDTable(deal, ordered, nodes,
                   time.perf_counter() - start, backends[0].name, interrupted)
