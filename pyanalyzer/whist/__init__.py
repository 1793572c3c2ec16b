"""Whist: the four-hand partnership game on the fast engine, with PBN and DD tables.

* :mod:`.deal`: a :class:`Deal` (four hands), seats and partnerships, trump
  from the turned-up card, leader on the dealer's left, layouts for ``solve``;
* :mod:`.pbn`: PBN deal strings in and out (``N:AKQ.JT9.87.65432 ...``, suit
  order S H D C), the format of endplay and DDS;
* :mod:`.table`: the double-dummy table (5 denominations x 4 declarers), like
  DDS's ``CalcDDtable``;
* :mod:`.bid`: Bid Whist: uptown and downtown ranking, two jokers as the
  highest trumps;
* :mod:`.commands`: the ``pref table`` command.

The rules themselves are :data:`pyanalyzer.model.rules.WHIST_RULES` (``game=whist``
in layouts).

>>> deal = Deal.from_pbn("N:AKQJ.AKQ.AK.AKQ2 T987.JT9.QJT.JT9 6543.876.987.876 2.5432.65432.543")
>>> dd_table(deal).tricks["N"]["n"]
13
"""

from pyanalyzer.whist.deal import Deal, lho, partner, random_deal, trump_from_turned, whist_layout
from pyanalyzer.whist.pbn import format_pbn, parse_pbn
from pyanalyzer.whist.table import DENOMINATIONS, DDTable, dd_table

__all__ = [
    "Deal", "lho", "partner", "random_deal", "trump_from_turned", "whist_layout",
    "format_pbn", "parse_pbn",
    "DENOMINATIONS", "DDTable", "dd_table",
]
