"""Thousand (Tysiacha) scoring: one deal's scores and the running sheet to 1000.

The declarer scores his bid if his card points plus his marriages reach it,
else loses it; the opponents score their points rounded to 5 (67 → 65,
68 → 70). Bolts, the barrel, 555 and the write-off follow the options of
:mod:`pyanalyzer.scoring.conventions` (``barrel``, ``bolts``, ``writeoff`` ...).

>>> round5(67), round5(68)
(65, 70)
>>> deal_scores(ThousandDeal("W", 140, {"W": 110, "E": 10, "S": 0}, {"W": 60}), convention("sochi"))
{'W': 140, 'E': 10, 'S': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from pyanalyzer.model.layout import Layout
from pyanalyzer.model.move import Move
from pyanalyzer.scoring.conventions import Conventions, convention
from pyanalyzer.scoring.errors import ScoringError

CARD_POINTS = 120
MARRIAGES = (40, 60, 80, 100)
ACE_MARRIAGE = 200
_MARRIAGE_SUMS = {sum(c) for k in range(5) for c in combinations((*MARRIAGES, ACE_MARRIAGE), k)}

__all__ = ["ThousandDeal", "ThousandSheet", "deal_scores", "round5", "round_down10", "convention"]


def round5(points: int) -> int:
    """An opponent's points rounded to the nearest 5 (remainders 1, 2 down; 3, 4 up).

    >>> [round5(p) for p in (0, 2, 3, 65, 67, 68, 120)]
    [0, 0, 5, 65, 65, 70, 120]
    """
    return (points + 2) // 5 * 5


def round_down10(points: int) -> int:
    """Rounded down to tens, as on falling off the barrel: 993 → 990.

    >>> round_down10(993), round_down10(-7)
    (990, -10)
    """
    return points // 10 * 10


@dataclass(frozen=True)
class ThousandDeal:
    """A deal: the declarer, his (final) bid, each player's card points, marriages declared.

    ``marriages`` maps a player to the marriages he declared: a tuple of their
    values (``(40, 100)``, as a record writes ``+40+100``), or a single number,
    their total. ``writeoff`` means the declarer gave up before play (no card
    points then). ``deal`` is the deal itself when the record carries it (a
    ``deal`` line after the deal's line): the layout, whose double-dummy
    result says whether the bid was makeable, and ``play`` its played moves.
    """

    declarer: str
    bid: int
    points: dict = field(default_factory=dict)
    marriages: dict = field(default_factory=dict)
    writeoff: bool = False
    line: int | None = None
    deal: Layout | None = field(default=None, compare=False)
    #: The play record of ``deal`` from the first lead, when the record carries it.
    play: tuple[Move, ...] = field(default=(), compare=False)

    def fail(self, message: str, token: str | None = None) -> ScoringError:
        return ScoringError((f"line {self.line}: " if self.line is not None else "") + message, token)


def _check(deal: ThousandDeal, seats: list) -> None:
    if deal.declarer not in seats:
        raise deal.fail(f"the declarer {deal.declarer} is not at the table ({' '.join(seats)})", deal.declarer)
    if deal.bid < 100 or deal.bid % 5:
        raise deal.fail(f"bad bid {deal.bid}: bids are 100 or more, in steps of 5", str(deal.bid))
    claimed: dict = {}
    for seat, value in deal.marriages.items():
        if seat not in seats:
            raise deal.fail(f"{seat} is not at the table", seat)
        if not isinstance(value, tuple):
            if value not in _MARRIAGE_SUMS:
                raise deal.fail(f"bad marriages {value} of {seat}: marriages are 40, 60, 80, 100 "
                                f"(and 200 for four aces)", str(value))
            continue
        for one in value:
            if one not in (*MARRIAGES, ACE_MARRIAGE):
                raise deal.fail(f"bad marriage {one} of {seat}: marriages are 40, 60, 80, 100 "
                                f"(and 200 for four aces)", str(one))
            # Each suit has one king and one queen (and there are four aces): a marriage,
            # known by its value, can be declared once per deal (scoring README, sources 003).
            if one in claimed:
                who = "twice" if claimed[one] == seat else f"by {claimed[one]} already"
                raise deal.fail(f"the marriage {one} of {seat} is claimed {who}: each marriage exists once "
                                f"in a deal", str(one))
            claimed[one] = seat
    if deal.writeoff:
        if deal.points:
            raise deal.fail("a written-off game is not played: write no card points")
        return
    missing = [seat for seat in seats if seat not in deal.points]
    if missing:
        raise deal.fail(f"the card points of {missing[0]} are missing", missing[0])
    for seat, value in deal.points.items():
        if seat not in seats:
            raise deal.fail(f"{seat} is not at the table", seat)
        if not 0 <= value <= CARD_POINTS:
            raise deal.fail(f"{seat} cannot take {value} card points", str(value))
    total = sum(deal.points.values())
    if total != CARD_POINTS:
        raise deal.fail(f"the card points sum to {total}, not {CARD_POINTS}", str(total))


def marriage_total(value) -> int:
    """The points of a player's marriages: a total, or the tuple of the marriages declared.

    >>> marriage_total((40, 100)), marriage_total(60)
    (140, 60)
    """
    return sum(value) if isinstance(value, tuple) else value


def deal_scores(deal: ThousandDeal, rules: Conventions, seats: list | None = None,
                barrel_seat: str | None = None) -> dict:
    """Each player's score for one deal (before bolts, barrel and 555).

    The player on the barrel (``barrel_seat``) counts his card points exactly
    and without marriages (``barrel_mode=accumulate``) or only a won bid
    (``barrel_mode=contract``).

    >>> rules = convention("sochi")
    >>> deal_scores(ThousandDeal("W", 140, {"W": 75, "E": 30, "S": 15}, {"W": 40}), rules)
    {'W': -140, 'E': 30, 'S': 15}
    >>> deal_scores(ThousandDeal("W", 140, writeoff=True), rules, ["W", "E", "S"])
    {'W': -140, 'E': 60, 'S': 60}
    """
    seats = list(seats) if seats else list(deal.points)
    _check(deal, seats)
    opponents = [seat for seat in seats if seat != deal.declarer]
    if deal.writeoff:
        if barrel_seat is not None:
            raise deal.fail(f"{barrel_seat} is on the barrel: nobody may write off a game now")
        gift = 60 if rules.writeoff == "60" else round5((deal.bid + 1) // 2)
        return {seat: -deal.bid if seat == deal.declarer else gift for seat in seats}
    scores = {}
    for seat in seats:
        marriages = marriage_total(deal.marriages.get(seat, 0))
        if seat == barrel_seat:
            marriages = 0
        total = deal.points[seat] + marriages
        if seat == deal.declarer:
            scores[seat] = deal.bid if total >= deal.bid else -deal.bid
        elif seat == barrel_seat:
            scores[seat] = total if rules.barrel_mode == "accumulate" else 0
        else:
            scores[seat] = round5(total)
    assert set(opponents) <= set(scores)
    return scores


class ThousandSheet:
    """The running Thousand sheet: :meth:`play` each deal in order.

    >>> sheet = ThousandSheet(["W", "E", "S"], convention("sochi"))
    >>> sheet.play(ThousandDeal("E", 100, {"W": 67, "E": 53, "S": 0}))
    {'W': 65, 'E': -100, 'S': 0}
    >>> sheet.scores, sheet.bolts["S"]
    ({'W': 65, 'E': -100, 'S': 0}, 1)
    """

    def __init__(self, players: list[str], rules: Conventions, scores: dict | None = None) -> None:
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise ScoringError(f"a Thousand sheet needs 2 to 4 different players, got {' '.join(players)}")
        self.players = list(players)
        self.rules = rules
        self.scores = {seat: 0 for seat in players}
        self.scores.update(scores or {})
        self.bolts = {seat: 0 for seat in players}
        #: Falls from the barrel so far (for ``barrel_falls``); players past them sit on no barrel.
        self.falls = {seat: 0 for seat in players}
        self.no_barrel: set = set()
        self.history: dict = {seat: [] for seat in players}
        self.notes: list = []
        self.barrel_seat: str | None = None
        self.barrel_start = 0
        self.attempts = 0
        self.winner: str | None = None
        for seat in players:
            if rules.barrel and self.scores[seat] >= rules.barrel and self.scores[seat] < rules.thousand_target:
                self.barrel_seat, self.barrel_start = seat, self.scores[seat]

    def barrel_points(self) -> int:
        """Points the player on the barrel has gathered since he sat on it."""
        return self.scores[self.barrel_seat] - self.barrel_start if self.barrel_seat else 0

    def _note(self, deal: ThousandDeal, text: str) -> None:
        self.notes.append((f"line {deal.line}: " if deal.line is not None else "") + text)

    def _fall(self, seat: str, deal: ThousandDeal, why: str) -> None:
        """``seat`` falls off the barrel: the penalty, or back to zero (``barrel_fall``)."""
        before = self.scores[seat]
        if self.rules.barrel_fall == "zero":
            # Seed 003: "if in 3 deals he does not score 1000 or more, his points are reset to zero".
            self.scores[seat] = 0
            self._note(deal, f"{seat} {why}: {before} → 0")
        else:
            self.scores[seat] = round_down10(before) - self.rules.barrel_penalty
            self._note(deal, f"{seat} {why}: {before} → {round_down10(before)} − {self.rules.barrel_penalty} "
                             f"= {self.scores[seat]}")
        self._count_fall(seat, deal)

    def _count_fall(self, seat: str, deal: ThousandDeal) -> None:
        """Seed 003: "if a player has fallen from the barrel 3 times, his score becomes zero"
        (or five, and he then goes for 1000 without the barrel)."""
        rules = self.rules
        self.falls[seat] += 1
        if rules.barrel_falls and self.falls[seat] >= rules.barrel_falls:
            self.scores[seat] = rules.barrel_falls_score
            self.falls[seat] = 0
            text = f"{seat} has fallen from the barrel {rules.barrel_falls} times: score {rules.barrel_falls_score}"
            if rules.barrel_falls_exempt:
                self.no_barrel.add(seat)
                text += "; he now plays to the end without the barrel"
            self._note(deal, text)

    def play(self, deal: ThousandDeal) -> dict:
        """Score ``deal``, write it, and apply bolts, the barrel and 555; returns the deal's scores."""
        rules = self.rules
        if self.winner:
            raise deal.fail(f"the game is over: {self.winner} reached {rules.thousand_target}")
        scores = deal_scores(deal, rules, self.players, self.barrel_seat)
        for seat in self.players:
            self.scores[seat] += scores[seat]
            if scores[seat] == 0 and seat != self.barrel_seat and not deal.writeoff:
                self.bolts[seat] += 1
                if self.bolts[seat] >= rules.bolts:
                    self.scores[seat] -= rules.bolt_penalty
                    self.bolts[seat] = 0
                    self._note(deal, f"{seat}: {rules.bolts} bolts, −{rules.bolt_penalty}")
        sitting = self.barrel_seat
        if sitting is not None:
            self.attempts += 1
            if self.scores[sitting] >= rules.thousand_target:
                self.barrel_seat = None
            elif self.scores[sitting] < rules.barrel:
                self.barrel_seat = None
                self._note(deal, f"{sitting} drops off the barrel to {self.scores[sitting]}")
                self._count_fall(sitting, deal)
            elif self.attempts >= rules.barrel_attempts:
                self.barrel_seat = None
                self._fall(sitting, deal, f"fails in {rules.barrel_attempts} attempts on the barrel")
        if rules.barrel:
            arriving = [seat for seat in self.players if seat != sitting and seat not in self.no_barrel
                        and self.scores[seat] >= rules.barrel and self.scores[seat] - scores[seat] < rules.barrel]
            for seat in arriving:
                self.scores[seat] = rules.barrel
            if len(arriving) > 1:
                for seat in arriving:
                    self._fall(seat, deal, "reaches the barrel together with another player and falls")
            if arriving and self.barrel_seat is not None:
                self._fall(self.barrel_seat, deal, f"is knocked off the barrel by {arriving[0]}")
                self.barrel_seat = None
            if len(arriving) == 1:
                self.barrel_seat, self.barrel_start, self.attempts = arriving[0], rules.barrel, 0
                self._note(deal, f"{arriving[0]} sits on the barrel at {rules.barrel}")
        if rules.dump_555:
            for seat in self.players:
                if abs(self.scores[seat]) == 555:
                    self._note(deal, f"{seat} has {self.scores[seat]}: back to 0")
                    self.scores[seat] = 0
        for seat in self.players:
            self.history[seat].append(self.scores[seat])
            if self.scores[seat] >= rules.thousand_target and self.winner is None:
                self.winner = seat
                self._note(deal, f"{seat} wins with {self.scores[seat]}")
        return scores
