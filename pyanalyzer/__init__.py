"""pyanalyzer: the Python layer of the Preferans double-dummy solver.

>>> from pyanalyzer import parse_layout, solve
>>> layout = parse_layout("contract=misere declarer=S lead=E S=7s,8d W=As,Ad E=Ks,Kd")
>>> solve(layout, engine="reference").declarer_tricks
0
"""

from pyanalyzer.analysis.solve import Solution, solve
from pyanalyzer.errors import (
    DuplicateCardError,
    IllegalPlayError,
    LayoutError,
    NotationError,
    PrefInputError,
    UnknownCardError,
)
from pyanalyzer.model.cards import PREFERANS, THOUSAND, WHIST, Card, Deck, Rank, Suit
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import (
    format_layout_file,
    format_one_line,
    parse_layout,
    parse_one_line,
    read_layout,
)
from pyanalyzer.model.notation import format_card, format_cards, parse_card, parse_cards
from pyanalyzer.model.rules import PREFERANS_RULES, WHIST_RULES, AllPassRules, Rules
from pyanalyzer.preferans.allpass import AllPassSolution, analyse_allpass, with_conventions

__all__ = [
    "PREFERANS", "THOUSAND", "WHIST", "Card", "Deck", "Rank", "Suit",
    "Contract", "Hand", "Layout", "Rules", "AllPassRules", "PREFERANS_RULES", "WHIST_RULES",
    "DuplicateCardError", "IllegalPlayError", "LayoutError", "NotationError",
    "PrefInputError", "UnknownCardError",
    "format_layout_file", "format_one_line", "parse_layout", "parse_one_line", "read_layout",
    "format_card", "format_cards", "parse_card", "parse_cards",
    "AllPassSolution", "analyse_allpass", "with_conventions", "Solution", "solve",
]
