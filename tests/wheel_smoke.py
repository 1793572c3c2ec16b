"""The smoke test of an installed pref-solver (a wheel on each platform, .ci/wheel_check,
.github/workflows/wheels.yml): three answers of the fast engine against stored values.

Run it with any Python that has pref-solver installed, from any folder (it needs nothing else):
``python tests/wheel_smoke.py`` checks the kernel picked for this CPU, ``PREF_KERNEL=baseline``
the baseline, ``--all-kernels`` every kernel built that this CPU runs (one child process each: a
process loads one kernel). It prints the kernel and one line per check, and exits 1 if an answer
differs (2 if the engine cannot load).

The stored answers and where they come from:

* Kovalevskaya's misère (layouts/kovalevskaya.txt): the defenders catch South for exactly 1
  trick, the published answer of the classic study.
* One enumeration: the whister's view of the 7♣ of layouts/seven-clubs.txt (West's hand; nine of
  South's ten cards known, so 858 layouts): the histogram of South's tricks. Regression value,
  from the `-march=native` build of main before the kernels (commit f33b84a) and equal in the
  modern and baseline kernels.
* One Whist double-dummy table, of layouts/whist-deal.txt: DDS's table (endplay 0.5.12's
  ``calc_dd_table``), the oracle the Whist tests use.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

KOVALEVSKAYA = ("contract=misere declarer=S lead=E discard=Kc,Ac W=As,Ks,Qc,Jc,Tc,Ad,Ah,Kh,Qh,Th "
                "E=Qs,Js,9c,7c,Kd,Qd,Jd,Td,Jh,7h S=Ts,9s,8s,7s,8c,9d,8d,7d,9h,8h")

WHIST_PBN = "N:KJ.AKQJ63.AQ3.A7 A64..T8742.T9863 T9872.85.KJ6.KQ2 Q53.T9742.95.J54"
#: DDS's table of WHIST_PBN: tricks of each declarer in s h d c n (endplay's calc_dd_table).
WHIST_TABLE = {
    "N": {"s": 11, "h": 11, "d": 10, "c": 8, "n": 11},
    "E": {"s": 2, "h": 2, "d": 3, "c": 4, "n": 2},
    "S": {"s": 10, "h": 11, "d": 10, "c": 8, "n": 11},
    "W": {"s": 2, "h": 2, "d": 3, "c": 4, "n": 2},
}

WHISTER_HAND = "Qs,Js,Ts,Kc,Jc,Ad,9d,7d,Jh,9h"        # West, layouts/seven-clubs.txt
SOUTH_KNOWN = "As,Ac,9c,8c,7c,Kd,Jd,Ah,Kh"            # nine of South's ten cards
#: South's tricks over the 858 layouts: layouts[k] = how many give him exactly k tricks.
SEVEN_CLUBS_HISTOGRAM = [0, 0, 0, 0, 0, 0, 186, 522, 150, 0, 0]


def checks() -> list[tuple[str, object, object]]:
    """(what, stored answer, the engine's answer) for each check."""
    from pyanalyzer import PREFERANS, Contract, Hand, parse_cards, parse_layout, solve
    from pyanalyzer.preferans.odds import whister_view
    from pyanalyzer.whist.deal import Deal
    from pyanalyzer.whist.table import dd_table

    misere = solve(parse_layout(KOVALEVSKAYA)).declarer_tricks
    odds = whister_view(Hand.parse(WHISTER_HAND, PREFERANS), "W", "S", Contract("7c"), "S",
                        known=parse_cards(SOUTH_KNOWN, PREFERANS), threads=1)
    table = dd_table(Deal.from_pbn(WHIST_PBN)).tricks
    return [
        ("Kovalevskaya's misere: tricks forced on South", 1, misere),
        ("7c, West's view: histogram of South's tricks", SEVEN_CLUBS_HISTOGRAM, list(odds.histogram)),
        ("Whist DD table of layouts/whist-deal.txt", WHIST_TABLE, {s: dict(t) for s, t in table.items()}),
    ]


def main() -> int:
    try:
        from pyanalyzer import engine_kernel

        kernel = engine_kernel()
    except ImportError as error:
        print(f"smoke: the engine cannot load: {error}", file=sys.stderr)
        return 2
    print(f"engine kernel: {kernel}")
    start = time.perf_counter()
    results = checks()
    failed = 0
    for what, stored, found in results:
        ok = stored == found
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {found}" + ("" if ok else f" (stored: {stored})"))
    print(f"{len(results) - failed} of {len(results)} checks passed ({time.perf_counter() - start:.1f} s)")
    return 1 if failed else 0


def all_kernels() -> int:
    try:
        import pref_engine
    except ImportError as error:
        print(f"smoke: the engine cannot load: {error}", file=sys.stderr)
        return 2
    kernels = [name for name in pref_engine.built_kernels() if name in pref_engine.supported_kernels()]
    status = 0
    for kernel in kernels:
        child = subprocess.run([sys.executable, __file__], env={**os.environ, "PREF_KERNEL": kernel})
        status = max(status, child.returncode)
    print(f"kernels checked: {', '.join(kernels)}; {'all passed' if status == 0 else 'FAILED'}")
    return status


if __name__ == "__main__":
    sys.exit(all_kernels() if sys.argv[1:] == ["--all-kernels"] else main())
