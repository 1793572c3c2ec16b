"""pyanalyzer: the Python layer of the double-dummy solver for Preferans and Whist.

>>> from pyanalyzer import parse_layout, solve
>>> layout = parse_layout("contract=misere declarer=S lead=E S=7s,8d W=As,Ad E=Ks,Kd")
>>> solve(layout, engine="reference").declarer_tricks
0

The public names below are imported on first use (PEP 562), so that ``python -m
pyanalyzer`` sets up its signal handlers before any analyzer is loaded.
"""

from __future__ import annotations

import importlib

#: Each public name and the module that defines it.
_EXPORTS = {
    "Solution": "pyanalyzer.analysis.solve",
    "solve": "pyanalyzer.analysis.solve",
    "DuplicateCardError": "pyanalyzer.errors",
    "IllegalPlayError": "pyanalyzer.errors",
    "LayoutError": "pyanalyzer.errors",
    "NotationError": "pyanalyzer.errors",
    "PrefInputError": "pyanalyzer.errors",
    "UnknownCardError": "pyanalyzer.errors",
    "PREFERANS": "pyanalyzer.model.cards",
    "THOUSAND": "pyanalyzer.model.cards",
    "WHIST": "pyanalyzer.model.cards",
    "Card": "pyanalyzer.model.cards",
    "Deck": "pyanalyzer.model.cards",
    "Rank": "pyanalyzer.model.cards",
    "Suit": "pyanalyzer.model.cards",
    "Contract": "pyanalyzer.model.contract",
    "Hand": "pyanalyzer.model.hand",
    "Layout": "pyanalyzer.model.layout",
    "with_marriages": "pyanalyzer.model.layout",
    "Move": "pyanalyzer.model.move",
    "parse_layout_with_moves": "pyanalyzer.model.layout_io",
    "format_layout_file": "pyanalyzer.model.layout_io",
    "format_one_line": "pyanalyzer.model.layout_io",
    "parse_layout": "pyanalyzer.model.layout_io",
    "parse_one_line": "pyanalyzer.model.layout_io",
    "read_layout": "pyanalyzer.model.layout_io",
    "format_card": "pyanalyzer.model.notation",
    "format_cards": "pyanalyzer.model.notation",
    "parse_card": "pyanalyzer.model.notation",
    "parse_cards": "pyanalyzer.model.notation",
    "PREFERANS_RULES": "pyanalyzer.model.rules",
    "WHIST_RULES": "pyanalyzer.model.rules",
    "THOUSAND_RULES": "pyanalyzer.model.rules",
    "MarriageRules": "pyanalyzer.model.rules",
    "AllPassRules": "pyanalyzer.model.rules",
    "Rules": "pyanalyzer.model.rules",
    "AllPassSolution": "pyanalyzer.preferans.allpass",
    "analyse_allpass": "pyanalyzer.preferans.allpass",
    "with_conventions": "pyanalyzer.preferans.allpass",
    "PointsSolution": "pyanalyzer.thousand.solution",
    "engine_kernel": "pyanalyzer.engines.registry",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pyanalyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    import pyanalyzer.render.svg  # noqa: F401  (registers the drawing of layouts in notebooks)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
