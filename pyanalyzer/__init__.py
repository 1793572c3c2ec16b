"""pyanalyzer: the Python layer of the Preferans double-dummy solver.

>>> from pyanalyzer import parse_layout, solve
>>> layout = parse_layout("contract=misere declarer=S lead=E S=7s,8d W=As,Ad E=Ks,Kd")
>>> solve(layout, engine="reference").declarer_tricks
0
"""

from .allpass import AllPassSolution, analyse_allpass, with_conventions
from .cards import PREFERANS, THOUSAND, WHIST, Card, Deck, Rank, Suit
from .contract import Contract
from .errors import (
    DuplicateCardError,
    IllegalPlayError,
    LayoutError,
    NotationError,
    PrefInputError,
    UnknownCardError,
)
from .hand import Hand
from .layout import Layout
from .layout_io import (
    format_layout_file,
    format_one_line,
    parse_layout,
    parse_one_line,
    read_layout,
)
from .notation import format_card, format_cards, parse_card, parse_cards
from .rules import PREFERANS_RULES, WHIST_RULES, AllPassRules, Rules
from .solve import Solution, solve

__all__ = [
    "PREFERANS", "THOUSAND", "WHIST", "Card", "Deck", "Rank", "Suit",
    "Contract", "Hand", "Layout", "Rules", "AllPassRules", "PREFERANS_RULES", "WHIST_RULES",
    "DuplicateCardError", "IllegalPlayError", "LayoutError", "NotationError",
    "PrefInputError", "UnknownCardError",
    "format_layout_file", "format_one_line", "parse_layout", "parse_one_line", "read_layout",
    "format_card", "format_cards", "parse_card", "parse_cards",
    "AllPassSolution", "analyse_allpass", "with_conventions", "Solution", "solve",
]
