"""Preferans scoring: one deal → the entries on the sheet; a list of deals → the running sheet.

Each player has a *pool* (games made, zero tricks on all-pass), a *mountain*
(penalties: remises, whist shortfalls, tricks on all-pass) and *whists* written
on each opponent. Amounts are exact :class:`~fractions.Fraction` values.

>>> from pyanalyzer.model.contract import Contract
>>> from pyanalyzer.model.rules import PREFERANS_RULES
>>> from pyanalyzer.scoring.conventions import convention
>>> deal = Deal(Contract.parse("6s", PREFERANS_RULES), "S", {"S": 7, "W": 2, "E": 1}, {"W": "whist", "E": "whist"})
>>> entries = score_deal(deal, convention("sochi"))
>>> entries.pool["S"], entries.mountain["E"], entries.whists[("W", "S")], entries.whists[("E", "S")]
(Fraction(2, 1), Fraction(2, 1), Fraction(4, 1), Fraction(2, 1))
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from pyanalyzer.model.contract import Contract
from pyanalyzer.scoring.conventions import Conventions
from pyanalyzer.scoring.errors import ScoringError

WHIST, PASS, HALF = "whist", "pass", "half"
DECISIONS = (WHIST, PASS, HALF)
TOTAL_TRICKS = 10


@dataclass(frozen=True)
class Deal:
    """One deal as the sheet sees it.

    ``tricks`` maps each active seat to the tricks it took (empty when the game
    was not played: both defenders passed, or half-whist). ``decisions`` maps each
    defender to ``whist``, ``pass`` or ``half`` (trick contracts only). ``closed``
    says a lone whister played closed (in the dark); by default he plays open.
    ``seats`` lists the active seats for all-pass and misère without tricks.
    """

    contract: Contract
    declarer: str | None
    tricks: dict = field(default_factory=dict)
    decisions: dict = field(default_factory=dict)
    closed: bool = False
    seats: tuple = ()
    #: Tricks of an all-pass that nobody took (talon tricks no one followed).
    line: int | None = None

    def describe(self) -> str:
        """A short text of the deal, e.g. ``S 6♠ 7``.

        >>> from pyanalyzer.model.contract import Contract
        >>> from pyanalyzer.model.rules import PREFERANS_RULES
        >>> Deal(Contract.parse("allpass", PREFERANS_RULES), None, {"W": 3, "E": 5, "S": 2}).describe()
        'all-pass W 3, E 5, S 2'
        """
        if self.contract.is_allpass:
            return "all-pass " + ", ".join(f"{seat} {n}" for seat, n in self.tricks.items())
        text = f"{self.declarer} {self.contract}"
        if self.declarer in self.tricks:
            text += f" {self.tricks[self.declarer]}"
        lone = [seat for seat, decision in self.decisions.items() if decision == WHIST]
        for seat, decision in self.decisions.items():
            text += f", {seat} {decision}"
            if seat in self.tricks:
                text += f" {self.tricks[seat]}"
            if self.closed and lone == [seat]:  # the lone whister plays closed (two whisters always do)
                text += " closed"
        return text


@dataclass
class Entries:
    """What one deal writes: pool and mountain per seat, whists per (writer, on) pair, and notes."""

    pool: dict = field(default_factory=lambda: defaultdict(Fraction))
    mountain: dict = field(default_factory=lambda: defaultdict(Fraction))
    whists: dict = field(default_factory=lambda: defaultdict(Fraction))
    notes: list = field(default_factory=list)
    #: The game the declarer wrote in his pool (seat, points), for ``game_reduces_mountain``.
    game: tuple | None = None

    def add(self, other: Entries) -> None:
        for mine, theirs in ((self.pool, other.pool), (self.mountain, other.mountain),
                             (self.whists, other.whists)):
            for key, value in theirs.items():
                mine[key] += value
        self.notes.extend(other.notes)

    def to_dict(self) -> dict:
        """JSON-ready: numbers (see :func:`~pyanalyzer.scoring.settlement.json_number`), the exact values
        again as strings under ``fractions``."""
        return {**sheet_numbers(self.pool, self.mountain, self.whists, skip_zero=True),
                "notes": list(self.notes)}


def sheet_numbers(pool: dict, mountain: dict, whists: dict, skip_zero: bool = False) -> dict:
    """``pool``, ``mountain`` and ``whists`` (keys ``"W>S"``: W's whists on S) as JSON numbers, with
    ``fractions`` holding the same values exactly as strings (``"7/2"``).

    >>> data = sheet_numbers({"W": Fraction(7, 2)}, {}, {("W", "S"): Fraction(6)})
    >>> data["pool"], data["whists"], data["fractions"]["pool"]
    ({'W': 3.5}, {'W>S': 6}, {'W': '7/2'})
    """
    from pyanalyzer.scoring.settlement import fraction_text, json_number

    maps = {"pool": dict(pool), "mountain": dict(mountain),
            "whists": {f"{a}>{b}": v for (a, b), v in whists.items()}}
    maps = {name: {k: v for k, v in values.items() if v or not skip_zero} for name, values in maps.items()}
    data: dict = {name: {k: json_number(v) for k, v in values.items()} for name, values in maps.items()}
    data["fractions"] = {name: {k: fraction_text(v) for k, v in values.items()} for name, values in maps.items()}
    return data


def _fail(deal: Deal, message: str, token: str | None = None) -> ScoringError:
    where = f"line {deal.line}: " if deal.line is not None else ""
    return ScoringError(where + message, token)


def allpass_multiplier(rules: Conventions, count: int) -> int:
    """The price multiplier of the ``count``-th consecutive all-pass (1 for the first).

    >>> from pyanalyzer.scoring.conventions import convention
    >>> [allpass_multiplier(convention("sochi", ["allpass_progression=1-2-4"]), k) for k in (1, 2, 3, 4)]
    [1, 2, 4, 4]
    >>> [allpass_multiplier(convention("sochi", ["allpass_progression=1-2-3", "allpass_limited=no"]), k)
    ...  for k in (1, 2, 3, 4)]
    [1, 2, 3, 4]
    """
    if rules.allpass_progression == "none":
        return 1
    step = min(count, 3) if rules.allpass_limited else count
    return step if rules.allpass_progression == "1-2-3" else 2 ** (step - 1)


def exit_level(rules: Conventions, allpasses: int) -> int:
    """The lowest trick contract allowed after ``allpasses`` consecutive all-passes.

    >>> from pyanalyzer.scoring.conventions import convention
    >>> [exit_level(convention("rostov"), k) for k in (0, 1, 2, 3, 4)]
    [6, 6, 7, 8, 8]
    """
    if allpasses == 0:
        return 6
    steps = [int(level) for level in rules.allpass_exit.split("-")]
    return steps[min(allpasses, 3) - 1]


def whister_shortfalls(level: int, tricks: dict, decisions: dict, rules: Conventions,
                       closed: bool = False) -> dict:
    """Tricks each whister is short of his obligation when the contract is made.

    Both whist: each owes half the obligation. One whists: he owes all of it,
    counting the defence's tricks (or only his own, closed, with
    ``lone_whister_credit=own``). The source's example: 6♠ made with 7 tricks.

    >>> from pyanalyzer.scoring.conventions import convention
    >>> sochi = convention("sochi")
    >>> whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "whist"}, sochi)
    {'W': Fraction(1, 1), 'E': Fraction(0, 1)}
    >>> whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "pass"}, sochi)
    {'W': Fraction(1, 1)}
    >>> own = convention("sochi", ["lone_whister_credit=own"])
    >>> whister_shortfalls(6, {"W": 1, "E": 2}, {"W": "whist", "E": "pass"}, own, closed=True)
    {'W': Fraction(3, 1)}
    """
    obligation = Fraction(rules.obligation(level))
    whisters = [seat for seat, decision in decisions.items() if decision == WHIST]
    if len(whisters) == 2:
        return {seat: max(Fraction(0), obligation / 2 - tricks[seat]) for seat in whisters}
    if len(whisters) == 1:
        (whister,) = whisters
        counted = tricks[whister] if closed and rules.lone_whister_credit == "own" else sum(tricks.values())
        return {whister: max(Fraction(0), obligation - counted)}
    return {}


def _check_tricks(deal: Deal, seats: list, total_range: tuple[int, int]) -> None:
    for seat in seats:
        if seat not in deal.tricks:
            raise _fail(deal, f"the tricks of {seat} are missing", seat)
    extra = [seat for seat in deal.tricks if seat not in seats]
    if extra:
        raise _fail(deal, f"{extra[0]} does not play this deal", extra[0])
    for seat, n in deal.tricks.items():
        if not 0 <= n <= TOTAL_TRICKS:
            raise _fail(deal, f"{seat} cannot take {n} tricks", str(n))
    total = sum(deal.tricks.values())
    low, high = total_range
    if not low <= total <= high:
        wanted = "10" if low == high else f"{low} to {high}"
        written = " + ".join(str(deal.tricks[s]) for s in seats)
        raise _fail(deal, f"the tricks {written} = {total} do not sum to {wanted}", str(total))


def score_deal(deal: Deal, rules: Conventions, allpass_count: int = 1, after_allpasses: int = 0,
               dealer: str | None = None) -> Entries:
    """The entries one deal writes on the sheet.

    ``allpass_count`` is the number of this all-pass in a run of consecutive
    all-passes (for the progression); ``after_allpasses`` is the number of
    all-passes just before a contract (for the exit rule); ``dealer`` is the
    fourth player, sitting out (for ``dealer_consolation``).

    >>> from pyanalyzer.model.contract import Contract
    >>> from pyanalyzer.model.rules import PREFERANS_RULES
    >>> from pyanalyzer.scoring.conventions import convention
    >>> failed = Deal(Contract.parse("7d", PREFERANS_RULES), "S", {"S": 5, "W": 3, "E": 2},
    ...               {"W": "whist", "E": "pass"})
    >>> e = score_deal(failed, convention("sochi"))
    >>> e.mountain["S"], e.whists[("W", "S")], e.whists[("E", "S")]
    (Fraction(8, 1), Fraction(28, 1), Fraction(8, 1))
    """
    if deal.contract.is_allpass:
        return _score_allpass(deal, rules, allpass_count)
    if deal.declarer is None:
        raise _fail(deal, "the declarer is missing")
    if deal.contract.is_misere:
        return _score_misere(deal, rules)
    return _score_tricks(deal, rules, after_allpasses, dealer)


def _score_misere(deal: Deal, rules: Conventions) -> Entries:
    if deal.decisions:
        seat = next(iter(deal.decisions))
        raise _fail(deal, f"misère is not whisted: remove the decision of {seat} "
                          f"({deal.decisions[seat]!r})", deal.decisions[seat])
    if deal.declarer not in deal.tricks:
        raise _fail(deal, f"the tricks of the declarer {deal.declarer} on misère are missing", deal.declarer)
    if len(deal.tricks) > 1:
        _check_tricks(deal, list(deal.tricks), (TOTAL_TRICKS, TOTAL_TRICKS))
    taken = deal.tricks[deal.declarer]
    if not 0 <= taken <= TOTAL_TRICKS:
        raise _fail(deal, f"{deal.declarer} cannot take {taken} tricks", str(taken))
    entries = Entries()
    if taken == 0:
        entries.pool[deal.declarer] += rules.misere_price
        entries.game = (deal.declarer, Fraction(rules.misere_price))
        entries.notes.append(f"{deal.declarer} made misère: +{rules.misere_price} pool")
    else:
        cost = rules.misere_price * taken * rules.mountain_factor
        entries.mountain[deal.declarer] += cost
        entries.notes.append(f"{deal.declarer} caught on misère with {taken} trick(s): +{cost} mountain")
    return entries


def _score_tricks(deal: Deal, rules: Conventions, after_allpasses: int, dealer: str | None = None) -> Entries:
    contract, declarer = deal.contract, deal.declarer
    level = contract.level
    defenders = list(deal.decisions)
    if len(defenders) != 2 or declarer in defenders:
        raise _fail(deal, f"{contract} by {declarer} needs the decisions of the two defenders "
                          f"(whist or pass), got {', '.join(defenders) or 'none'}")
    minimum = exit_level(rules, after_allpasses)
    if level < minimum:
        raise _fail(deal, f"{contract} is below the exit level {minimum} after {after_allpasses} all-pass(es) "
                          f"under allpass_exit={rules.allpass_exit}; '--set allpass_exit=6-6-6' (or a "
                          f"'set allpass_exit=6-6-6' line) allows it", contract.code)
    decisions = deal.decisions
    for seat, decision in decisions.items():
        if decision not in DECISIONS:
            raise _fail(deal, f"bad decision {decision!r} of {seat}: write whist, pass or half", decision)
    whisters = [seat for seat in defenders if decisions[seat] == WHIST]
    halves = [seat for seat in defenders if decisions[seat] == HALF]
    price = Fraction(rules.price(level))
    entries = Entries()
    if (rules.stalingrad and level == 6 and contract.trump is not None and contract.trump.letter == "s"
            and len(whisters) < 2):
        raise _fail(deal, "Stalingrad: 6♠ must be whisted by both defenders", contract.code)
    if level == 10 and not rules.ten_checked and whisters:
        raise _fail(deal, f"the ten is not checked (ten_checked=no): {whisters[0]} cannot whist", whisters[0])
    if halves:
        half = halves[0]
        other = next(seat for seat in defenders if seat != half)
        if not rules.half_whist:
            raise _fail(deal, "half-whist is not played at this table (half_whist=no)", HALF)
        if len(halves) == 2 or decisions[other] != PASS or level not in (6, 7):
            raise _fail(deal, f"half-whist by {half} needs a 6 or 7 and the other defender passing", HALF)
        if deal.tricks:
            raise _fail(deal, "with half-whist the game is not played: write no tricks")
        whists = price * rules.obligation(level) / 2
        entries.pool[declarer] += price
        entries.game = (declarer, price)
        entries.whists[(half, declarer)] += whists
        entries.notes.append(f"{declarer} {contract} not played (half-whist): +{price} pool; "
                             f"{half} writes {whists} whists")
        return entries
    if not whisters:
        if deal.tricks:
            raise _fail(deal, "both defenders passed: the game is not played, write no tricks")
        entries.pool[declarer] += price
        entries.game = (declarer, price)
        entries.notes.append(f"{declarer} {contract}: both passed, +{price} pool")
        return entries
    _check_tricks(deal, [declarer, *defenders], (TOTAL_TRICKS, TOTAL_TRICKS))
    taken = deal.tricks[declarer]
    defence = {seat: deal.tricks[seat] for seat in defenders}
    # Whists for the defence's tricks.
    credit: dict = {}
    if len(whisters) == 2 or (deal.closed and rules.lone_whister_credit == "own"):
        credit = {seat: Fraction(n) for seat, n in defence.items()}
    elif rules.lone_whist == "greedy":
        credit = {whisters[0]: Fraction(sum(defence.values()))}
    else:
        credit = {seat: Fraction(sum(defence.values()), 2) for seat in defenders}
    for seat, n in credit.items():
        if n:
            entries.whists[(seat, declarer)] += price * n
    written = [f"{seat} {price * n}" for seat, n in credit.items() if n]
    if taken >= level:
        entries.pool[declarer] += price
        entries.game = (declarer, price)
        entries.notes.append(f"{declarer} made {contract} with {taken}: +{price} pool")
        if written:
            entries.notes.append(f"whists on {declarer}: {', '.join(written)}")
        for seat, short in whister_shortfalls(level, defence, decisions, rules, deal.closed).items():
            if not short:
                continue
            if len(whisters) == 2:
                # Responsible or half-responsible whist: a rule for both whisting (scoring README, sources 000, 002).
                cost = price * short * (Fraction(1, 2) if rules.whist_responsibility == "half" else 1)
                entries.mountain[seat] += cost
                entries.notes.append(f"{seat} short of his whist by {short}: +{cost} mountain")
                continue
            cost = price * short
            own_tricks = deal.closed and rules.lone_whister_credit == "own"
            if rules.lone_penalty == "split" and not own_tricks:
                # Gentleman's whist: "whists and penalties of the whister and the passer are split in half"
                # (scoring README, sources 000, 002).
                passer = next(other for other in defenders if other != seat)
                for payer in (seat, passer):
                    entries.mountain[payer] += cost / 2
                entries.notes.append(f"the defence short of {seat}'s whist by {short}: +{cost / 2} mountain "
                                     f"each to {seat} and {passer} (gentleman's)")
            else:
                entries.mountain[seat] += cost
                entries.notes.append(f"{seat} short of his whist by {short}: +{cost} mountain")
    else:
        under = level - taken
        cost = price * under * rules.mountain_factor
        entries.mountain[declarer] += cost
        entries.notes.append(f"{declarer} failed {contract} by {under}: +{cost} mountain")
        consoled = list({"all": defenders, "whisters": whisters, "none": []}[rules.consolation])
        if consoled and dealer is not None and rules.dealer_consolation:
            # "Consolation is usually written by all players, including the dealer" (sources 000, 002).
            consoled.append(dealer)
        for seat in consoled:
            entries.whists[(seat, declarer)] += price * under
        if written:
            entries.notes.append(f"whists on {declarer}: {', '.join(written)}")
        if consoled:
            entries.notes.append(f"consolation {price * under} each to {', '.join(consoled)}")
    return entries


def _score_allpass(deal: Deal, rules: Conventions, count: int) -> Entries:
    if deal.decisions:
        raise _fail(deal, "all-pass has no whist decisions", next(iter(deal.decisions.values())))
    seats = list(deal.seats or deal.tricks)
    if len(seats) != 3:
        raise _fail(deal, f"all-pass needs the tricks of the three players, got {len(deal.tricks)}")
    # Talon tricks that nobody followed go to nobody (three-handed all-pass with an open talon).
    _check_tricks(deal, seats, (TOTAL_TRICKS - 2, TOTAL_TRICKS))
    times = allpass_multiplier(rules, count)
    tricks = dict(deal.tricks)
    if rules.allpass_amnesty:
        fewest = min(tricks.values())
        tricks = {seat: n - fewest for seat, n in tricks.items()}
    entries = Entries()
    label = f"all-pass ×{times}" if times > 1 else "all-pass"
    for seat in seats:
        if deal.tricks[seat] == 0 and rules.allpass_zero_pool:
            entries.pool[seat] += rules.allpass_zero_pool * times
    if rules.allpass_scoring == "rostov":
        fewest = min(tricks.values())
        for low in (seat for seat in seats if tricks[seat] == fewest):
            for other in seats:
                if tricks[other] > fewest:
                    entries.whists[(low, other)] += rules.allpass_whists * times * (tricks[other] - fewest)
    else:
        for seat in seats:
            if tricks[seat]:
                entries.mountain[seat] += rules.allpass_price * times * tricks[seat]
    note = f"{label}: " + ", ".join(f"{seat} {deal.tricks[seat]}" for seat in seats)
    if rules.allpass_amnesty and min(deal.tricks.values()):
        # Seed 001: "everyone has the same number of tricks taken off, as in an amnesty".
        note += f" (amnesty: {min(deal.tricks.values())} off each)"
    entries.notes.append(note)
    return entries


@dataclass
class SheetRow:
    """One deal in the sheet's history: the deal, its entries and the notes of pool closing."""

    deal: Deal
    entries: Entries


class Sheet:
    """The running Preferans sheet: replay deals in order with :meth:`play`.

    >>> from pyanalyzer.model.contract import Contract
    >>> from pyanalyzer.model.rules import PREFERANS_RULES
    >>> from pyanalyzer.scoring.conventions import convention
    >>> sheet = Sheet(["W", "E", "S"], convention("sochi", ["pool_target=4"]))
    >>> _ = sheet.play(Deal(Contract.parse("8s", PREFERANS_RULES), "S", {}, {"W": "pass", "E": "pass"}))
    >>> sheet.pool["S"], sheet.pool["W"], sheet.whists[("S", "W")]
    (Fraction(4, 1), Fraction(2, 1), Fraction(20, 1))
    """

    def __init__(self, players: list[str], rules: Conventions) -> None:
        if len(players) not in (3, 4) or len(set(players)) != len(players):
            raise ScoringError(f"a Preferans sheet needs 3 or 4 different players, got {' '.join(players)}")
        self.players = list(players)
        self.rules = rules
        self.pool: dict = {seat: Fraction(0) for seat in players}
        # Rostov: every mountain starts at a fixed value (source 000, "Rostov").
        self.mountain: dict = {seat: Fraction(rules.mountain_start) for seat in players}
        self.whists: dict = {(a, b): Fraction(0) for a in players for b in players if a != b}
        #: Running totals written so far, as on paper: seat -> list of values.
        self.pool_history: dict = {seat: [] for seat in players}
        self.mountain_history: dict = {seat: [self.mountain[seat]] if rules.mountain_start else []
                                       for seat in players}
        self.whist_history: dict = {key: [] for key in self.whists}
        self.rows: list[SheetRow] = []
        self.allpasses = 0

    @property
    def closed(self) -> bool:
        """The game is over: every pool has reached the target (and, with ``close_mountain``, every
        mountain is at 0: Rostov, "the game ends with the closing of the pool and the mountain", source 000)."""
        pools = all(self.pool[seat] >= self.rules.pool_target for seat in self.players)
        return pools and (not self.rules.close_mountain or all(self.mountain[s] <= 0 for s in self.players))

    def play(self, deal: Deal) -> Entries:
        """Score ``deal`` and write it (with the pool-closing rule) on the sheet."""
        seats = [deal.declarer, *deal.decisions] if deal.declarer else list(deal.seats or deal.tricks)
        for seat in [*seats, *deal.tricks]:
            if seat is not None and seat not in self.players:
                raise _fail(deal, f"{seat} is not at this table ({' '.join(self.players)})", seat)
        if deal.contract.is_allpass:
            self.allpasses += 1
            entries = score_deal(deal, self.rules, allpass_count=self.allpasses)
        else:
            sitting_out = [seat for seat in self.players if seat not in seats]
            dealer = sitting_out[0] if len(self.players) == 4 and len(sitting_out) == 1 else None
            entries = score_deal(deal, self.rules, after_allpasses=self.allpasses, dealer=dealer)
            self.allpasses = 0
        if self.rules.game_reduces_mountain and entries.game is not None:
            # Rostov: "for the game played the player gets points in the pool and reduces the mountain"
            # (source 000, "Rostov"); a mountain goes down to 0 at most.
            seat, points = entries.game
            off = min(points, max(Fraction(0), self.mountain[seat] + entries.mountain[seat]))
            if off:
                entries.mountain[seat] -= off
                entries.notes.append(f"{seat} takes {off} off his mountain for the game")
        for seat, value in entries.pool.items():
            self.pool[seat] += value
        for seat, value in entries.mountain.items():
            self.mountain[seat] += value
        for key, value in entries.whists.items():
            self.whists[key] += value
        if self.rules.close_pool:
            self._close_pools(entries)
        self._record(entries)
        self.rows.append(SheetRow(deal, entries))
        return entries

    def _close_pools(self, entries: Entries) -> None:
        target = self.rules.pool_target
        for helper in self.players:
            excess = self.pool[helper] - target
            if excess <= 0:
                continue
            self.pool[helper] = Fraction(target)
            entries.pool[helper] -= excess
            for other in self._help_order(helper):
                room = target - self.pool[other]
                if excess <= 0 or room <= 0:
                    continue
                given = min(excess, room)
                self.pool[other] += given
                entries.pool[other] += given
                whists = given * self.rules.help_whists
                self.whists[(helper, other)] += whists
                entries.whists[(helper, other)] += whists
                entries.notes.append(f"{helper} closes his pool and helps {other} with {given}: "
                                     f"{whists} whists on {other}")
                excess -= given
            if excess > 0:
                off = excess * self.rules.pool_correction
                self.mountain[helper] -= off
                entries.mountain[helper] -= off
                entries.notes.append(f"all pools closed: {helper} takes {off} off his mountain")

    def _help_order(self, helper: str) -> list[str]:
        start = self.players.index(helper)
        others = [self.players[(start + k) % len(self.players)] for k in range(1, len(self.players))]
        if self.rules.help_order == "lowest":
            others.sort(key=lambda seat: self.pool[seat])
        return others

    def _record(self, entries: Entries) -> None:
        for seat in self.players:
            if entries.pool.get(seat):
                self.pool_history[seat].append(self.pool[seat])
            if entries.mountain.get(seat):
                self.mountain_history[seat].append(self.mountain[seat])
        for key in self.whists:
            if entries.whists.get(key):
                self.whist_history[key].append(self.whists[key])

    def settlement(self, drawn: str | None = None):
        """Settle the sheet as it stands (see :func:`pyanalyzer.scoring.settlement.settle`)."""
        from pyanalyzer.scoring.settlement import settle

        return settle(self.mountain, pools=self.pool, target=self.rules.pool_target,
                      whists=self.whists, pool_correction=self.rules.pool_correction,
                      drawn=drawn, whist_money=self.rules.whist_money, order=self.players)
