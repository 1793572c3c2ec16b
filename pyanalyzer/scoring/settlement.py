"""Settlement of a finished Preferans sheet ("painting the bullet").

Steps, all in exact fractions (1 mountain point = 10 whists):

1. pool correction: ``mountain -= pool_correction × (pool − target)`` (Piter: ×2);
2. amnesty: the smallest mountain is taken off every mountain;
3. mountain whists: ``10 × (A − mountain)`` where ``A`` is the average mountain;
4. plus each player's net whists (written on the others minus written on him).

Whole whists by the two methods of the source: *method 1* moves by one point
the mountain of each player whose share ``10 × mountain / N`` is not whole;
*method 2* moves the *drawn* player's mountain so that the average is whole.
Either way the others give back (or get) ``round(10 / N)`` whists per point
moved (3 for three and for four players). Every result sums to zero.

>>> s = settle({"W": 8, "E": 19, "S": 14}, balances={"W": -26, "E": 24, "S": 2})
>>> [str(s.exact[p]) for p in "WES"], [s.method1[p] for p in "WES"], [s.method2[p] for p in "WES"]
(['92/3', '-88/3', '-4/3'], [31, -30, -1], [31, -29, -2])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor, gcd

from pyanalyzer.scoring.errors import ScoringError

MOUNTAIN_WHISTS = 10


@dataclass
class Settlement:
    """Every step of a settlement, seat by seat, in the order of ``seats``."""

    seats: list
    mountains: dict
    pools: dict
    target: Fraction | None
    corrected: dict
    amnestied: dict
    mountain_whists: dict
    net_whists: dict
    exact: dict
    method1: dict
    method1_moves: dict
    method2: dict
    method2_moves: dict
    drawn: str
    whist_money: Fraction = Fraction(0)
    notes: list = field(default_factory=list)

    def money(self, result: dict) -> dict:
        """``result`` (whists) times the money per whist."""
        return {seat: result[seat] * self.whist_money for seat in self.seats}

    def to_dict(self) -> dict:
        """JSON-ready: every value a JSON number (see :func:`json_number`); ``fractions`` repeats the
        exact values as strings like ``"92/3"``.

        >>> data = settle({"W": 8, "E": 19, "S": 14}, balances={"W": -26, "E": 24, "S": 2}).to_dict()
        >>> data["exact"], data["fractions"]["exact"]
        ({'W': 30.666667, 'E': -29.333333, 'S': -1.333333}, {'W': '92/3', 'E': '-88/3', 'S': '-4/3'})
        """
        exact_maps = {
            "mountains": self.mountains,
            "pools": self.pools or None,
            "corrected": self.corrected,
            "amnestied": self.amnestied,
            "mountain_whists": self.mountain_whists,
            "net_whists": self.net_whists,
            "exact": self.exact,
            "method1_moves": {seat: v for seat, v in self.method1_moves.items() if v},
            "method2_moves": {seat: v for seat, v in self.method2_moves.items() if v},
        }
        data: dict = {"seats": list(self.seats)}
        fractions: dict = {}
        for name, values in exact_maps.items():
            data[name] = None if values is None else {seat: json_number(v) for seat, v in values.items()}
            if values is not None:
                fractions[name] = {seat: fraction_text(v) for seat, v in values.items()}
        data["target"] = None if self.target is None else json_number(self.target)
        if self.target is not None:
            fractions["target"] = fraction_text(self.target)
        data["method1"] = {seat: int(self.method1[seat]) for seat in self.seats}
        data["method2"] = {seat: int(self.method2[seat]) for seat in self.seats}
        data["drawn"] = self.drawn
        if self.whist_money:
            data["whist_money"] = json_number(self.whist_money)
            fractions["whist_money"] = fraction_text(self.whist_money)
            money = {name: self.money(getattr(self, name)) for name in ("exact", "method1", "method2")}
            data["money"] = {name: {seat: json_number(v) for seat, v in values.items()}
                             for name, values in money.items()}
            fractions["money"] = {name: {seat: fraction_text(v) for seat, v in values.items()}
                                  for name, values in money.items()}
        data["fractions"] = fractions
        if self.notes:
            data["notes"] = list(self.notes)
        return data


#: Decimal places of a non-whole number in JSON (its exact value is given as a fraction beside it).
JSON_DECIMALS = 6


def json_number(value) -> int | float:
    """A JSON number: whole values as integers, others rounded to six decimals (no float noise).

    >>> json_number(Fraction(8)), json_number(Fraction(92, 3)), json_number(Fraction(1, 10))
    (8, 30.666667, 0.1)
    """
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(round(value, JSON_DECIMALS))


def fraction_text(value) -> str:
    """The exact value as a string: ``8``, ``-88/3``.

    >>> fraction_text(Fraction(-88, 3))
    '-88/3'
    """
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def mixed(value: Fraction) -> str:
    """A signed mixed number: ``+30 2/3``, ``-1 1/3``, ``+31``, ``0``.

    >>> mixed(Fraction(92, 3)), mixed(Fraction(-4, 3)), mixed(Fraction(0))
    ('+30 2/3', '-1 1/3', '0')
    """
    value = Fraction(value)
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "-"
    whole, rest = divmod(abs(value), 1)
    if not rest:
        return f"{sign}{whole}"
    return f"{sign}{whole} {rest}" if whole else f"{sign}{rest}"


def compensation(players: int) -> int:
    """Whists each other player gives back per mountain point moved: round(10 / N), halves up.

    >>> compensation(3), compensation(4), compensation(2)
    (3, 3, 5)
    """
    return floor(Fraction(MOUNTAIN_WHISTS, players) + Fraction(1, 2))


def _step(players: int) -> int:
    """Mountains must be multiples of this for 10 × mountain / N to be whole."""
    return players // gcd(MOUNTAIN_WHISTS, players)


def _move(value: Fraction, step: int) -> Fraction:
    """The smallest move (down on a remainder below half a step, else up) to a multiple of ``step``."""
    rest = value % step
    if rest == 0:
        return Fraction(0)
    return -rest if rest * 2 < step else step - rest


def _whole(values: dict, seats: list) -> dict:
    """Whole numbers summing to zero (largest remainders; only for fractional mountains or whists)."""
    floors = {seat: floor(values[seat]) for seat in seats}
    missing = -sum(floors.values())
    order = sorted(seats, key=lambda seat: (-(values[seat] - floors[seat]), seats.index(seat)))
    for seat in order[:missing]:
        floors[seat] += 1
    return floors


def net_whists(whists: dict, seats: list) -> dict:
    """Each seat's whists on the others minus the others' whists on him; ``whists[(a, b)]`` is a on b.

    >>> net_whists({("W", "E"): 10, ("E", "W"): 4, ("S", "W"): 6}, ["W", "E", "S"])
    {'W': Fraction(0, 1), 'E': Fraction(-6, 1), 'S': Fraction(6, 1)}
    """
    net = {seat: Fraction(0) for seat in seats}
    for (writer, on), value in whists.items():
        for seat in (writer, on):
            if seat not in net:
                raise ScoringError(f"whists name {seat}, who has no mountain", seat)
        if writer == on:
            raise ScoringError(f"{writer} cannot write whists on himself", writer)
        net[writer] += Fraction(value)
        net[on] -= Fraction(value)
    return net


def settle(mountains: dict, pools: dict | None = None, target: int | Fraction | None = None,
           whists: dict | None = None, balances: dict | None = None, pool_correction: int = 1,
           drawn: str | None = None, whist_money: Fraction | int = 0, order: list | None = None) -> Settlement:
    """Settle a sheet: ``mountains`` per seat, optional ``pools`` and ``target``, whists.

    Whists come either as ``whists[(writer, on)]`` or as ``balances`` (net whists
    per seat, summing to zero). ``pool_correction`` applies only when pools are
    given (1: Sochi, 2: Piter); ``target`` defaults to the largest pool. ``drawn``
    is method 2's drawn player (default: the last seat).

    >>> piter = settle({"1": 76, "2": 40, "3": 52, "4": 80}, pools={"1": 56, "2": 12, "3": 6, "4": 16},
    ...                target=21, pool_correction=2)
    >>> [int(piter.corrected[p]) for p in "1234"], [int(piter.amnestied[p]) for p in "1234"]
    ([6, 58, 82, 90], [0, 52, 76, 84])
    >>> [int(piter.mountain_whists[p]) for p in "1234"]
    [530, 10, -230, -310]
    """
    seats = list(order) if order else list(mountains)
    if not 2 <= len(seats) <= 6:
        raise ScoringError(f"a settlement needs 2 to 6 players, got {len(seats)}")
    if set(seats) != set(mountains):
        raise ScoringError("the seats of the mountains and of the table differ")
    n = len(seats)
    mountain = {seat: Fraction(mountains[seat]) for seat in seats}
    corrected = dict(mountain)
    pool_values: dict = {}
    if pools:
        unknown = [seat for seat in pools if seat not in mountain]
        if unknown:
            raise ScoringError(f"the pool of {unknown[0]} has no mountain", unknown[0])
        pool_values = {seat: Fraction(pools.get(seat, 0)) for seat in seats}
        target = Fraction(max(pool_values.values()) if target is None else target)
        for seat in seats:
            corrected[seat] -= pool_correction * (pool_values[seat] - target)
    if whists is not None and balances is not None:
        raise ScoringError("give whists or balances, not both")
    if balances is not None:
        unknown = [seat for seat in balances if seat not in mountain]
        if unknown:
            raise ScoringError(f"the whist balance of {unknown[0]} has no mountain", unknown[0])
        net = {seat: Fraction(balances.get(seat, 0)) for seat in seats}
        if sum(net.values()) != 0:
            raise ScoringError(f"the whist balances sum to {fraction_text(sum(net.values()))}, not 0")
    else:
        net = net_whists(whists or {}, seats)
    drawn = seats[-1] if drawn is None else drawn
    if drawn not in mountain:
        raise ScoringError(f"the drawn player {drawn!r} is not at the table ({' '.join(seats)})", drawn)
    lowest = min(corrected.values())
    amnestied = {seat: corrected[seat] - lowest for seat in seats}
    average = sum(amnestied.values()) / n
    mountain_whists = {seat: MOUNTAIN_WHISTS * (average - amnestied[seat]) for seat in seats}
    exact = {seat: mountain_whists[seat] + net[seat] for seat in seats}
    step, back = _step(n), compensation(n)
    notes: list = []
    if any(v.denominator != 1 for v in amnestied.values()):
        notes.append("fractional mountains: whole results by largest remainders")
    moves1 = {seat: _move(amnestied[seat], step) for seat in seats}
    method1 = _rounded(amnestied, moves1, net, seats, back)
    moves2 = {seat: Fraction(0) for seat in seats}
    moves2[drawn] = _move(sum(amnestied.values()), step)
    method2 = _rounded(amnestied, moves2, net, seats, back)
    return Settlement(seats, mountain, pool_values, None if not pools else Fraction(target), corrected,
                      amnestied, mountain_whists, net, exact, method1, moves1, method2, moves2, drawn,
                      Fraction(whist_money), notes)


def _rounded(amnestied: dict, moves: dict, net: dict, seats: list, back: int) -> dict:
    moved = {seat: amnestied[seat] + moves[seat] for seat in seats}
    average = sum(moved.values()) / len(seats)
    result = {seat: MOUNTAIN_WHISTS * (average - moved[seat]) + net[seat] for seat in seats}
    for seat, move in moves.items():
        if move:
            for other in seats:
                if other != seat:
                    result[other] -= move * back
                    result[seat] += move * back
    if any(v.denominator != 1 for v in result.values()):
        return _whole(result, seats)
    return {seat: int(result[seat]) for seat in seats}
