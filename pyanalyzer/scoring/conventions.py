"""Scoring conventions as data: every option in one table, and the named presets.

A table plays with a preset (``sochi``, ``leningrad``, ``rostov``) plus overrides
written ``OPTION=VALUE``. Every option, its values and its default are listed in
:data:`OPTIONS`; ``pref score --help`` and the README print the same table.

>>> rules = convention("leningrad", ["pool_target=30"])
>>> rules.name, rules.pool_target, rules.mountain_factor, rules.lone_whist
('leningrad', 30, 2, 'gentleman')
>>> rules.price(7), rules.obligation(6)
(4, 4)
>>> convention("sochi").whist_responsibility
'full'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from pyanalyzer.scoring.errors import ConventionError, ScoringError
from pyanalyzer.scoring.inputs import MAX_MAGNITUDE, parse_number, parse_whole, shown

_TRUE = {"1", "yes", "y", "true", "on"}
_FALSE = {"0", "no", "n", "false", "off"}


def parse_levels(text: str) -> tuple[tuple[int, int], ...]:
    """Read ``6:2,7:4,...`` (a number for each contract level 6 to 10) as sorted pairs.

    >>> dict(parse_levels("6:2, 7:4, 8:6, 9:8, 10:10"))[9]
    8
    """
    table: dict[int, int] = {}
    for part in text.replace(" ", "").split(","):
        level, sep, value = part.partition(":")
        try:
            if not sep:
                raise ScoringError("no ':'")
            table[parse_whole(level, "level")] = parse_whole(value, "number")
        except ScoringError:
            raise ValueError(f"write LEVEL:NUMBER pairs like 6:2,7:4 (bad part {shown(part)})") from None
    missing = [level for level in range(6, 11) if level not in table]
    if missing or set(table) - set(range(6, 11)):
        raise ValueError("give exactly the levels 6, 7, 8, 9 and 10")
    return tuple(sorted(table.items()))


def _levels_text(table: tuple[tuple[int, int], ...]) -> str:
    return ",".join(f"{level}:{value}" for level, value in table)


def _parse_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("write yes or no")


def _parse_int(text: str) -> int:
    """A whole number 0 to a billion (ASCII digits); a ValueError says what is wrong."""
    try:
        return parse_whole(text, "number")
    except ScoringError:
        raise ValueError(f"write a whole number from 0 to {MAX_MAGNITUDE:,} in ASCII digits") from None


def _parse_fraction(text: str) -> Fraction:
    """A number or fraction within the bounds of :func:`~pyanalyzer.scoring.inputs.parse_number`."""
    try:
        return parse_number(text, "this option")
    except ScoringError as error:
        raise ValueError(str(error).split(": ", 1)[-1]) from None


def _choice(*values: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in values:
            raise ValueError(f"choose one of {', '.join(values)}")
        return word
    parse.values = values  # type: ignore[attr-defined]
    return parse


def _opt(default: Any, parse: Callable[[str], Any], game: str, doc: str) -> Any:
    return field(default=default, metadata={"parse": parse, "game": game, "doc": doc})


DEFAULT_PRICES = ((6, 2), (7, 4), (8, 6), (9, 8), (10, 10))
#: Tricks the two defenders must take together against each contract level; the one table
#: of them, read by the analyses too (``docs/rules.md``, "Whist (defence) obligations").
DEFAULT_OBLIGATIONS = ((6, 4), (7, 2), (8, 1), (9, 1), (10, 0))


@dataclass(frozen=True)
class Conventions:
    """The options of one table. Build it with :func:`convention`, never field by field."""

    name: str = "sochi"
    # --- Preferans: prices and whists -------------------------------------------------
    prices: tuple = _opt(DEFAULT_PRICES, parse_levels, "preferans",
                        "Price of a game by level, written 6:2,7:4,8:6,9:8,10:10.")
    misere_price: int = _opt(10, _parse_int, "preferans", "Price of misère.")
    obligations: tuple = _opt(DEFAULT_OBLIGATIONS, parse_levels, "preferans",
                             "Tricks the defenders owe together, by level (6:4,7:2,8:1,9:1,10:0).")
    whist_responsibility: str = _opt("full", _choice("full", "half"), "preferans",
                                     "Both whisting, the contract made: a whister short of his half of the "
                                     "obligation pays price × missing tricks on the mountain (full: responsible "
                                     "whist, Sochi) or half of it (half: half-responsible whist, Leningrad).")
    lone_whist: str = _opt("greedy", _choice("greedy", "gentleman"), "preferans",
                           "One whister, one passer. greedy: the whister writes whists for all the "
                           "defence's tricks; gentleman: the defence's tricks are written half each.")
    lone_whister_credit: str = _opt("defence", _choice("defence", "own"), "preferans",
                                    "defence: a lone whister is credited with, and answers for, all the "
                                    "defence's tricks; own: when he plays closed, only his own tricks "
                                    "count for him (the passer writes his own).")
    lone_penalty: str = _opt("whister", _choice("whister", "split"), "preferans",
                             "One whister, one passer, the contract made: the penalty for the defence's "
                             "missing tricks (price × missing tricks on the mountain) is paid by the whister "
                             "alone (whister: greedy whist) or half each by the whister and the passer "
                             "(split: gentleman's whist, Leningrad; not when he plays closed with "
                             "lone_whister_credit=own: then he answers for his own tricks alone).")
    consolation: str = _opt("all", _choice("all", "whisters", "none"), "preferans",
                            "On a remise each opponent (all), each whister (whisters) or nobody (none) "
                            "also writes price × undertricks whists on the declarer.")
    dealer_consolation: bool = _opt(True, _parse_bool, "preferans",
                                    "Four players: on a remise the dealer, who sits out, also writes the "
                                    "consolation on the declarer (unless consolation=none).")
    mountain_factor: int = _opt(1, _parse_int, "preferans",
                                "The declarer's remise (trick contract or misère) is written on the "
                                "mountain this many times (2 = doubled mountain, Leningrad).")
    half_whist: bool = _opt(True, _parse_bool, "preferans",
                            "After the other defender passed, a defender may say half-whist on a 6 or 7: "
                            "the game is not played, he writes whists for half the obligation.")
    stalingrad: bool = _opt(False, _parse_bool, "preferans", "6♠ must be whisted by both defenders.")
    ten_checked: bool = _opt(True, _parse_bool, "preferans",
                             "A 10-level game may be whisted and is played out (\"checked\"); "
                             "no: it is written as made without play.")
    # --- Preferans: all-pass ---------------------------------------------------------
    allpass_price: int = _opt(1, _parse_int, "preferans", "Mountain points per trick taken on all-pass.")
    allpass_progression: str = _opt("none", _choice("none", "1-2-3", "1-2-4"), "preferans",
                                    "Multiplier of consecutive all-passes: none (1-1-1), 1-2-3 (arithmetic) "
                                    "or 1-2-4 (doubling).")
    allpass_limited: bool = _opt(True, _parse_bool, "preferans",
                                 "The progression stops at its third step (3 or 4); no: it keeps growing.")
    allpass_exit: str = _opt("6-6-6", _choice("6-6-6", "6-7-7", "6-7-8"), "preferans",
                             "Lowest trick contract after the 1st, 2nd, 3rd+ consecutive all-pass "
                             "(misère is always allowed).")
    allpass_scoring: str = _opt("mountain", _choice("mountain", "rostov"), "preferans",
                                "mountain: each trick costs its price on the mountain; rostov: the player "
                                "with the fewest tricks writes whists on each other player for the "
                                "difference in tricks.")
    allpass_zero_pool: int = _opt(1, _parse_int, "preferans",
                                  "Pool points for taking no trick on all-pass (times the progression).")
    allpass_whists: int = _opt(10, _parse_int, "preferans",
                               "Rostov all-pass: whists per trick of difference (times the progression).")
    allpass_amnesty: bool = _opt(True, _parse_bool, "preferans",
                                 "Before writing an all-pass, subtract the fewest tricks from everyone (as in "
                                 "an amnesty); the pool point still goes to a player who took no trick.")
    # --- Preferans: the pool and the settlement --------------------------------------
    pool_target: int = _opt(20, _parse_int, "preferans", "Size of each player's pool (the game ends when all "
                            "are closed).")
    close_pool: bool = _opt(True, _parse_bool, "preferans",
                            "Pool-closing (\"helping\") rule: points beyond the target go into the other "
                            "pools, the helper writing help_whists per point on the helped player; when all "
                            "other pools are closed they come off his mountain (× pool_correction).")
    help_whists: int = _opt(10, _parse_int, "preferans", "Whists per pool point given to another player's pool.")
    help_order: str = _opt("left", _choice("left", "lowest"), "preferans",
                           "Whom the excess helps first: left (the next player in seat order, then the "
                           "next) or lowest (the smallest pool first).")
    mountain_start: int = _opt(0, _parse_int, "preferans",
                                "Each player's mountain at the start of the game (Rostov: a fixed value).")
    game_reduces_mountain: bool = _opt(False, _parse_bool, "preferans",
                                       "A game written in the declarer's pool also comes off his own mountain "
                                       "(down to 0 at most; Rostov).")
    close_mountain: bool = _opt(False, _parse_bool, "preferans",
                                "The game ends when every pool is closed and every mountain is at 0 (Rostov); "
                                "no: when every pool is closed.")
    pool_correction: int = _opt(1, _parse_int, "preferans",
                                "Settlement: mountain -= pool_correction × (pool − target) "
                                "(2 in Leningrad/Piter, where the mountain is doubled).")
    whist_money: Fraction = _opt(Fraction(0), _parse_fraction, "preferans",
                                 "Money per whist for the settlement (0: not shown), e.g. 1/2 or 100.")
    # --- Thousand --------------------------------------------------------------------
    thousand_target: int = _opt(1000, _parse_int, "thousand", "Thousand: the score that wins.")
    barrel: int = _opt(880, _parse_int, "thousand", "Thousand: a player reaching this sits on the barrel "
                       "(his score is set to it); 0 disables the barrel.")
    barrel_attempts: int = _opt(3, _parse_int, "thousand", "Thousand: deals a player has on the barrel.")
    barrel_penalty: int = _opt(120, _parse_int, "thousand",
                               "Thousand: falling off the barrel (attempts used up, or knocked off by "
                               "another player arriving) costs this after rounding down to tens.")
    barrel_mode: str = _opt("accumulate", _choice("accumulate", "contract"), "thousand",
                            "Thousand: accumulate: on the barrel every point counts exactly, unrounded "
                            "(34 then 57 → 91) and marriages do not count; contract: only a won bid counts.")
    barrel_fall: str = _opt("penalty", _choice("penalty", "zero"), "thousand",
                            "Thousand: falling off the barrel costs barrel_penalty after rounding down to tens "
                            "(penalty: 993 → 870) or sets the score to 0 (zero).")
    barrel_falls: int = _opt(0, _parse_int, "thousand",
                             "Thousand: after this many falls from the barrel the score becomes "
                             "barrel_falls_score (0: no limit).")
    barrel_falls_score: int = _opt(0, _parse_int, "thousand",
                                   "Thousand: the score after barrel_falls falls (0, or 5 in one variant).")
    barrel_falls_exempt: bool = _opt(False, _parse_bool, "thousand",
                                     "Thousand: after barrel_falls falls the player goes on to 1000 without the "
                                     "barrel.")
    bolts: int = _opt(3, _parse_int, "thousand", "Thousand: this many bolts (deals scoring nothing) cost "
                      "bolt_penalty and are wiped.")
    bolt_penalty: int = _opt(120, _parse_int, "thousand", "Thousand: the price of the bolts.")
    dump_555: bool = _opt(True, _parse_bool, "thousand", "Thousand: a score of exactly 555 or −555 becomes 0.")
    writeoff: str = _opt("60", _choice("60", "half"), "thousand",
                         "Thousand: a written-off game gives each opponent 60 (or half the bid, rounded "
                         "to 5); the declarer loses the bid.")
    # --- Whist -----------------------------------------------------------------------
    whist_game: int = _opt(5, _parse_int, "whist", "Whist and Bid Whist: points that win (−points lose).")

    def price(self, level: int) -> int:
        return dict(self.prices)[level]

    def obligation(self, level: int) -> int:
        return dict(self.obligations)[level]

    def value_text(self, name: str) -> str:
        """An option's value as it is written in ``--set`` and record files."""
        value = getattr(self, name)
        if isinstance(value, tuple):
            return _levels_text(value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def to_dict(self) -> dict[str, str]:
        return {option.name: self.value_text(option.name) for option in OPTIONS}


OPTIONS = tuple(f for f in fields(Conventions) if f.name != "name")
_OPTION_NAMES = {f.name: f for f in OPTIONS}

#: Presets: the options each named convention changes from the defaults (which are Sochi's).
PRESETS: dict[str, dict[str, str]] = {
    "sochi": {},
    "leningrad": {
        "whist_responsibility": "half",
        "lone_whist": "gentleman",
        "lone_penalty": "split",
        "mountain_factor": "2",
        "pool_correction": "2",
        "close_pool": "no",
        "pool_target": "21",
        "allpass_progression": "1-2-3",
        "allpass_exit": "6-7-7",
    },
    "rostov": {
        "allpass_scoring": "rostov",
        "allpass_zero_pool": "0",
        "allpass_exit": "6-7-8",
        "mountain_start": "20",
        "game_reduces_mountain": "yes",
        "close_mountain": "yes",
    },
}
PRESET_ALIASES = {"piter": "leningrad", "peter": "leningrad", "spb": "leningrad", "leningradka": "leningrad",
                  "sochinka": "sochi", "rostovka": "rostov"}


def set_option(rules: Conventions, name: str, value: str) -> Conventions:
    """``rules`` with option ``name`` set from the text ``value``; a ConventionError names a bad one.

    >>> set_option(convention("sochi"), "stalingrad", "yes").stalingrad
    True
    """
    key = name.strip().lower().replace("-", "_")
    option = _OPTION_NAMES.get(key)
    if option is None:
        raise ConventionError(f"unknown option {shown(name)}: options are {', '.join(_OPTION_NAMES)}", name)
    try:
        parsed = option.metadata["parse"](value)
    except (ValueError, ZeroDivisionError) as error:
        raise ConventionError(f"bad value {shown(value)} for option {key}: {error}", value) from None
    if isinstance(parsed, (int, Fraction)) and not isinstance(parsed, bool) and parsed < 0:
        raise ConventionError(f"bad value {shown(value)} for option {key}: must not be negative", value)
    return replace(rules, **{key: parsed})


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``OPTION=VALUE``.

    >>> parse_assignment("allpass_progression=1-2-3")
    ('allpass_progression', '1-2-3')
    """
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise ConventionError(f"bad setting {shown(text)}: write OPTION=VALUE", text)
    return name.strip(), value.strip()


def convention(name: str = "sochi", overrides: Iterable[str] = ()) -> Conventions:
    """The preset ``name`` with ``OPTION=VALUE`` overrides applied in order.

    >>> convention("rostov", ["allpass_progression=1-2-4"]).allpass_progression
    '1-2-4'
    """
    key = name.strip().lower()
    key = PRESET_ALIASES.get(key, key)
    if key not in PRESETS:
        raise ConventionError(f"unknown convention {shown(name)}: conventions are {', '.join(PRESETS)}", name)
    rules = Conventions(name=key)
    for option, value in PRESETS[key].items():
        rules = set_option(rules, option, value)
    for text in overrides:
        rules = set_option(rules, *parse_assignment(text))
    return rules


def options_table() -> str:
    """Every option with its values, its default and each preset's value, as Markdown.

    >>> options_table().splitlines()[0]
    '| option | values | sochi | leningrad | rostov | meaning |'
    """
    presets = {name: convention(name) for name in PRESETS}
    lines = [f"| option | values | {' | '.join(presets)} | meaning |",
             "|---|---|" + "---|" * len(presets) + "---|"]
    for option in OPTIONS:
        parse = option.metadata["parse"]
        values = "/".join(getattr(parse, "values", ())) or {
            _parse_int: "integer", _parse_bool: "yes/no", _parse_fraction: "number or fraction",
            parse_levels: "6:..,7:..,8:..,9:..,10:.."}[parse]
        cells = " | ".join(f"`{rules.value_text(option.name)}`" for rules in presets.values())
        doc = f"({option.metadata['game']}) {option.metadata['doc']}" if option.metadata["game"] != "preferans" \
            else option.metadata["doc"]
        lines.append(f"| `{option.name}` | {values} | {cells} | {doc} |")
    return "\n".join(lines)
