"""Scoring: the Preferans sheet (pool, mountain, whists) and its settlement; Thousand and Whist scores.

>>> from pyanalyzer.scoring import settle
>>> result = settle({"W": 8, "E": 19, "S": 14}, balances={"W": -26, "E": 24, "S": 2})
>>> str(result.exact["W"]), result.method1["W"], result.method2["E"]
('92/3', 31, -29)
"""

from pyanalyzer.scoring.conventions import OPTIONS, PRESETS, Conventions, convention, options_table
from pyanalyzer.scoring.errors import ConventionError, RecordError, ScoringError
from pyanalyzer.scoring.preferans import Deal, Entries, Sheet, score_deal, whister_shortfalls
from pyanalyzer.scoring.record import GameRecord, parse_record, read_record, replay
from pyanalyzer.scoring.settlement import Settlement, settle
from pyanalyzer.scoring.thousand import ThousandDeal, ThousandSheet, deal_scores, round5
from pyanalyzer.scoring.whist import WhistSheet, bid_whist_score, whist_points

__all__ = [
    "OPTIONS", "PRESETS", "Conventions", "convention", "options_table",
    "ConventionError", "RecordError", "ScoringError",
    "Deal", "Entries", "Sheet", "score_deal", "whister_shortfalls",
    "GameRecord", "parse_record", "read_record", "replay",
    "Settlement", "settle",
    "ThousandDeal", "ThousandSheet", "deal_scores", "round5",
    "WhistSheet", "bid_whist_score", "whist_points",
]
