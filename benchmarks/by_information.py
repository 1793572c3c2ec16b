"""``--by-information`` on whole records (results in RESULTS.md, "Mistakes by information").

Each record is a whole deal played to the end: README's 6♦ record (its nine cards, then the
double-dummy best line to the last trick) and the bundled Thousand deal (``layouts/thousand-deal.txt``,
its best line). Every card is judged as ``pref contract ... --by-information`` (or ``pref thousand``)
judges it, with the command's defaults (exact up to 20,000 consistent layouts, 2,000 in Thousand,
else 400 sampled, seed 0) on two threads; printed: the wall time and the CPU time, the decisions judged exactly and
sampled, the verdicts, and the load average (wall time on a shared machine is noisy).

    python benchmarks/by_information.py [--samples 400] [--exact-limit N] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from pyanalyzer.analysis.by_information import SAMPLES, judge_by_information
from pyanalyzer.analysis.playcheck import check_play
from pyanalyzer.analysis.solve import solve
from pyanalyzer.model.layout_io import parse_layout_with_record, read_layout
from pyanalyzer.thousand.review import review_deal

REPO = Path(__file__).resolve().parents[1]
PREFERANS = ("contract=6d declarer=W lead=E S=Qs,Js,Jc,Tc,Jd,8d,7d,Kh,Th,7h W=As,Ts,9s,Ac,Qc,7c,Ad,Qd,9d,Ah "
             "E=Ks,8s,7s,Kc,9c,8c,Kd,Td,Qh,Jh played=Ks,Qs,As,Ad,Td,7d,Qd,Kd,8d")


def whole_record(layout, record):
    """``record`` from ``layout``, then the double-dummy best line to the end."""
    now = layout
    for move in record:
        now = now.play(move) if hasattr(move, "declare") else now.after(move)
    rest = solve(now, line=True, cards=False).line
    return list(record) + list(rest)


def run(name: str, review, record, options: dict) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    result = judge_by_information(review, record, **options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    judged = [s for s in result.steps if s.verdict != "forced"]
    exact = sum(1 for s in judged if s.exact)
    verdicts = Counter(s.verdict for s in result.steps)
    print(f"{name}: {len(record)} cards, {len(judged)} judged ({exact} exactly, {len(judged) - exact} sampled); "
          f"{dict(verdicts)}; {wall:.1f} s wall, {cpu:.1f} s CPU (load {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--exact-limit", type=int, default=None, help="default: the command's, by game")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    options = {"samples": args.samples, "exact_limit": args.exact_limit, "threads": args.threads, "seed": 0}

    layout, record = parse_layout_with_record(PREFERANS)
    record = whole_record(layout, record)
    run("Preferans 6♦ (README)", check_play(layout, record), record, options)

    deal = read_layout(str(REPO / "layouts" / "thousand-deal.txt"))
    solution = solve(deal, line=True, cards=False)
    deal, moves = solution.layout, list(solution.line)  # the exchange made, if the file has none
    run("Thousand (layouts/thousand-deal.txt)", review_deal(deal, moves), moves, options)


if __name__ == "__main__":
    main()
