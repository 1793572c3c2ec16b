"""Game record files: one deal per line, readable by a person, replayed into a sheet.

Format (``#`` starts a comment; blank lines are ignored; header lines come
before the first deal)::

    game preferans            # or thousand, whist, bidwhist (default preferans)
    convention sochi          # sochi, leningrad (piter), rostov
    set pool_target=10 allpass_progression=1-2-3
    players W E S             # Preferans: 3 or 4 of N E S W (default W E S)
    drawn S                   # settlement method 2: the drawn player (default: the last player)

    S 6s 7 | W whist 2 | E pass 1          # declarer contract tricks | defender decision tricks | ...
    S 6s 7 | W whist 1 closed | E pass 2   # a lone whister playing closed (default: open)
    S 7h | W pass | E pass                 # both passed: not played, no tricks
    S 6d | W pass | E half                 # half-whist: not played
    W misere 0                             # misère: the declarer's tricks
    allpass | W 3 | E 5 | S 2              # all-pass: each player's tricks

Thousand (``game thousand``; ``start W=880`` sets starting scores)::

    W 140 | W 110+40 | E 10 | S 0          # declarer bid | each player's card points + marriages
    deal W=... E=... S=... talon=... gave=E:9c,S:Jd   # optional: the deal above, as a one-line layout
    E 120 writeoff                         # the declarer gives up

Whist (``game whist``): ``NS 7`` (a side and its tricks of 13). Bid Whist
(``game bidwhist``): ``NS 7 9`` (side, bid, tricks counting the kitty).

>>> record = parse_record("players W E S\\nS 6s 7 | W whist 2 | E pass 1\\n")
>>> record.players, record.deals[0].describe()
(['W', 'E', 'S'], 'S 6♠ 7, W whist 2, E pass 1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.layout_io import check_moves, layout_from_fields, one_line_fields
from pyanalyzer.model.notation import parse_moves
from pyanalyzer.model.rules import PREFERANS_RULES, rules_for
from pyanalyzer.scoring.conventions import ConventionError, Conventions, convention, parse_assignment, set_option
from pyanalyzer.scoring.errors import RecordError
from pyanalyzer.scoring.inputs import parse_whole, read_text, shown
from pyanalyzer.scoring.preferans import HALF, PASS, WHIST, Deal, Sheet
from pyanalyzer.scoring.thousand import ThousandDeal, ThousandSheet
from pyanalyzer.scoring.whist import SIDES, WhistSheet

GAMES = ("preferans", "thousand", "whist", "bidwhist")
PREFERANS_SEATS = ("N", "E", "S", "W")
_DECISION_WORDS = {"whist": WHIST, "w": WHIST, "pass": PASS, "p": PASS, "half": HALF, "halfwhist": HALF,
                   "half-whist": HALF}
_PLAY_WORDS = {"open": False, "closed": True, "light": False, "dark": True}


@dataclass
class GameRecord:
    """A parsed record: the header and the deals, each deal carrying its line number."""

    game: str = "preferans"
    convention: str | None = None
    settings: list = field(default_factory=list)  # (line, "OPTION=VALUE")
    players: list = field(default_factory=list)
    drawn: str | None = None
    drawn_line: int | None = None
    start: dict = field(default_factory=dict)
    deals: list = field(default_factory=list)

    def rules(self, name: str | None = None, overrides: tuple = ()) -> Conventions:
        """The table's conventions: preset (``name`` beats the file's), the file's settings, then ``overrides``."""
        rules = convention(name or self.convention or "sochi")
        for line, text in self.settings:
            try:
                rules = set_option(rules, *parse_assignment(text))
            except ConventionError as error:
                raise RecordError(str(error), error.token, line) from None
        for text in overrides:
            rules = set_option(rules, *parse_assignment(text))
        return rules


def _number(token: str, line: int, what: str) -> int:
    return parse_whole(token, what, line)


def _seat(token: str, record: GameRecord, line: int) -> str:
    name = token.strip()
    if record.game == "preferans":
        name = name.upper()
    if record.players and name not in record.players:
        raise RecordError(f"unknown player {token!r}: the players are {' '.join(record.players)}", token, line)
    return name


def _header(words: list, record: GameRecord, line: int) -> None:
    keyword = words[0].lower()
    if len(words) < 2:
        raise RecordError(f"{keyword!r} needs a value", words[0], line)
    if keyword == "game":
        game = words[1].lower().replace("-", "").replace("_", "")
        if game not in GAMES or len(words) != 2:
            raise RecordError(f"unknown game {words[1]!r}: games are {', '.join(GAMES)}", words[1], line)
        record.game = game
    elif keyword == "convention":
        try:
            convention(words[1])
        except ConventionError as error:
            raise RecordError(str(error), words[1], line) from None
        record.convention = words[1]
    elif keyword == "set":
        for text in words[1:]:
            try:
                parse_assignment(text)
            except ConventionError as error:
                raise RecordError(str(error), text, line) from None
            record.settings.append((line, text))
    elif keyword == "players":
        players = [w.upper() if record.game == "preferans" else w for w in words[1:]]
        if record.game == "preferans":
            for token, seat in zip(words[1:], players):
                if seat not in PREFERANS_SEATS:
                    raise RecordError(f"unknown seat {token!r}: Preferans seats are N, E, S, W", token, line)
            if len(players) not in (3, 4):
                raise RecordError(f"Preferans needs 3 or 4 players, got {len(players)}", words[-1], line)
        if len(set(players)) != len(players):
            raise RecordError("a player is named twice", words[1], line)
        record.players = players
    elif keyword == "drawn":
        record.drawn, record.drawn_line = _seat(words[1], record, line), line
    elif keyword == "start":
        for text in words[1:]:
            seat, sep, value = text.partition("=")
            if not sep:
                raise RecordError(f"bad start score {text!r}: write PLAYER=SCORE", text, line)
            sign = -1 if value.startswith("-") else 1
            record.start[_seat(seat, record, line)] = sign * _number(value.lstrip("-"), line, "score")
    else:  # pragma: no cover - callers pass header keywords only
        raise RecordError(f"unknown line {words[0]!r}", words[0], line)


HEADERS = ("game", "convention", "set", "players", "drawn", "start")


def parse_record(text: str) -> GameRecord:
    """Read a record file's text; a RecordError names the line and the offending token."""
    record = GameRecord()
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        words = body.split()
        if words[0].lower() in HEADERS:
            if record.deals:
                raise RecordError(f"{words[0]!r} must come before the first deal", words[0], number)
            _header(words, record, number)
            continue
        if words[0].lower() == "deal":
            _attach_deal(body, record, number)
            continue
        if not record.players and record.game == "preferans":
            record.players = ["W", "E", "S"]
        parse = {"preferans": _preferans_deal, "thousand": _thousand_deal,
                 "whist": _whist_deal, "bidwhist": _whist_deal}[record.game]
        record.deals.append(parse(body, record, number))
    return record


#: Longer than any contract word (``10nt``, ``misère``, ``all-pass``): refused before parsing.
_CONTRACT_CHARS = 16


def _contract(token: str, line: int) -> Contract:
    if len(token) > _CONTRACT_CHARS:
        raise RecordError(f"bad contract {token!r}: write e.g. 6s, 7♦, 8nt, misere", token, line)
    try:
        return Contract.parse(token, PREFERANS_RULES)
    except PrefInputError as error:
        raise RecordError(str(error), token, line) from None


def _preferans_deal(body: str, record: GameRecord, line: int) -> Deal:
    parts = [part.split() for part in body.split("|")]
    if any(not part for part in parts):
        raise RecordError("empty part between '|' separators", "|", line)
    head = parts[0]
    tricks: dict = {}
    decisions: dict = {}
    closed = False
    if head[0].lower() in ("allpass", "all-pass", "raspasy"):
        contract, declarer = _contract("allpass", line), None
        if len(head) > 1:
            raise RecordError(f"unexpected {head[1]!r} after all-pass: write allpass | W 3 | E 5 | S 2",
                              head[1], line)
    else:
        if len(head) < 2:
            raise RecordError(f"write DECLARER CONTRACT [TRICKS], e.g. 'S 6s 7' (got {' '.join(head)!r})",
                              head[0], line)
        declarer = _seat(head[0], record, line)
        contract = _contract(head[1], line)
        if contract.is_allpass:
            raise RecordError(f"all-pass has no declarer: write allpass | W 3 | ... (got {head[1]!r})",
                              head[1], line)
        if len(head) > 3:
            raise RecordError(f"unexpected {head[3]!r} after the declarer's tricks", head[3], line)
        if len(head) == 3:
            tricks[declarer] = _number(head[2], line, "number of tricks")
    for part in parts[1:]:
        seat = _seat(part[0], record, line)
        if seat in tricks or seat in decisions or seat == declarer:
            raise RecordError(f"{part[0]!r} is written twice in this deal", part[0], line)
        rest = part[1:]
        if rest and rest[0].lower() in _DECISION_WORDS:
            if contract.is_misere:
                raise RecordError(f"misère is not whisted: remove {rest[0]!r} of {seat}", rest[0], line)
            if contract.is_allpass:
                raise RecordError(f"all-pass has no whist decisions: remove {rest[0]!r}", rest[0], line)
            decisions[seat] = _DECISION_WORDS[rest[0].lower()]
            rest = rest[1:]
        elif not contract.is_allpass and not contract.is_misere:
            token = rest[0] if rest else seat
            raise RecordError(f"write the decision of {seat}: whist, pass or half (got {token!r})", token, line)
        for token in rest:
            word = token.lower()
            if word in _PLAY_WORDS:
                if decisions.get(seat) != WHIST:
                    raise RecordError(f"{token!r}: only a whister plays open or closed", token, line)
                closed = _PLAY_WORDS[word]
            elif seat in tricks:
                raise RecordError(f"unexpected {token!r}: the tricks of {seat} are already written", token, line)
            else:
                tricks[seat] = _number(token, line, "number of tricks")
    if not contract.is_allpass and not contract.is_misere and len(decisions) != 2:
        raise RecordError(f"{contract} needs both defenders: '{' '.join(head)} | W whist 2 | E pass 1'",
                          head[1], line)
    seats = tuple(tricks) if contract.is_allpass else ()
    return Deal(contract, declarer, tricks, decisions, closed, seats, line)


_POINTS = re.compile(r"([0-9]+)((?:\+[0-9]+)*)\Z")


def _thousand_deal(body: str, record: GameRecord, line: int) -> ThousandDeal:
    parts = [part.split() for part in body.split("|")]
    if any(not part for part in parts):
        raise RecordError("empty part between '|' separators", "|", line)
    head = parts[0]
    if len(head) < 2:
        raise RecordError(f"write DECLARER BID, e.g. 'W 120' (got {' '.join(head)!r})", head[0], line)
    declarer = _seat(head[0], record, line)
    bid = _number(head[1], line, "bid")
    writeoff = False
    for token in head[2:]:
        if token.lower() not in ("writeoff", "write-off"):
            raise RecordError(f"unexpected {token!r}: only 'writeoff' may follow the bid", token, line)
        writeoff = True
    points: dict = {}
    marriages: dict = {}
    for part in parts[1:]:
        seat = _seat(part[0], record, line)
        if seat in points:
            raise RecordError(f"{part[0]!r} is written twice in this deal", part[0], line)
        if len(part) != 2:
            raise RecordError(f"write {seat} POINTS or {seat} POINTS+MARRIAGES, e.g. '{seat} 85+40'",
                              " ".join(part), line)
        match = _POINTS.match(part[1])
        if not match:
            raise RecordError(f"bad points {part[1]!r}: write e.g. 85 or 85+40", part[1], line)
        points[seat] = _number(match.group(1), line, "card points")
        declared = tuple(_number(x, line, "marriage") for x in match.group(2).split("+") if x)
        if declared:
            marriages[seat] = declared
    return ThousandDeal(declarer, bid, points, marriages, writeoff, line)


def _attach_deal(body: str, record: GameRecord, line: int) -> None:
    """A ``deal`` line: the cards of the Thousand deal written on the line before it.

    The rest of the line is a one-line Thousand layout (``game=thousand`` is implied):
    the hands (before the talon, with ``talon=`` and ``gave=``, or the eight cards each
    played), and optionally ``played=`` the play record from the first lead (``Kh+`` a
    declaring lead). The declarer and the bid come from the deal's line; written again here
    they must agree; ``lead`` defaults to the declarer.
    """
    if record.game != "thousand":
        raise RecordError(f"a 'deal' line belongs to a Thousand record, not {record.game}", "deal", line)
    if not record.deals or record.deals[-1].deal is not None:
        raise RecordError("a 'deal' line follows the line of its deal (one per deal)", "deal", line)
    deal = record.deals[-1]
    text = body.split(None, 1)[1] if len(body.split(None, 1)) > 1 else ""
    if not text.strip():
        raise RecordError("write the deal after 'deal', e.g. 'deal S=... W=... E=... talon=... "
                          "gave=W:9c,E:Jd'", "deal", line)
    try:
        rules = rules_for("thousand")
        fields = one_line_fields(text)
        game = fields.setdefault("game", "thousand")
        if game.strip().lower() != "thousand":
            raise RecordError(f"the deal of a Thousand record is a Thousand deal, not game={game}", game, line)
        if deal.declarer.upper() not in rules.seats:
            raise RecordError(f"a deal's cards are written by seat ({', '.join(rules.seats)}): name the "
                              f"players {' '.join(rules.seats)} to write deals, not {deal.declarer!r}",
                              deal.declarer, line)
        seat = rules.seat(deal.declarer)
        for key, value in (("declarer", seat), ("bid", str(deal.bid))):
            written = fields.setdefault(key, value)
            if written.strip().upper() != value.upper():
                raise RecordError(f"{key}={written} disagrees with the deal's line ({value})", written, line)
        fields.setdefault("lead", seat)
        moves = parse_moves(fields.pop("played", ""), rules.deck)
        layout = layout_from_fields(fields)
        check_moves(layout, moves)
    except RecordError:
        raise
    except PrefInputError as error:
        raise RecordError(str(error), error.token, line) from None
    record.deals[-1] = replace(deal, deal=layout, play=tuple(moves))


_WHIST_EXAMPLES = {"whist": "NS 7 (side, tricks)", "bidwhist": "NS 7 9 (side, bid, tricks with the kitty)"}


def _whist_deal(body: str, record: GameRecord, line: int) -> tuple:
    words = [w for w in body.split() if w.lower() not in ("bid", "took", "tricks")]
    if not words:
        raise RecordError(f"write a deal, e.g. {_WHIST_EXAMPLES[record.game]} (got {body!r})", body, line)
    side = words[0].upper()
    if side not in SIDES:
        raise RecordError(f"unknown side {words[0]!r}: sides are NS and EW", words[0], line)
    wanted = 3 if record.game == "bidwhist" else 2
    if len(words) != wanted:
        example = _WHIST_EXAMPLES[record.game]
        token = words[wanted] if len(words) > wanted else words[-1]
        raise RecordError(f"write {example}", token, line)
    names = ("bid", "number of tricks") if record.game == "bidwhist" else ("number of tricks",)
    numbers = [_number(word, line, name) for word, name in zip(words[1:], names)]
    return (line, side, *numbers)


@dataclass
class Replay:
    """A replayed record: the sheet of its game, the conventions and the record."""

    record: GameRecord
    rules: Conventions
    sheet: object
    #: Each deal's scores in order (Thousand: what the deal wrote for each player, before bolts,
    #: the barrel and 555).
    deal_scores: list = field(default_factory=list)


def replay(record: GameRecord, convention_name: str | None = None, overrides: tuple = ()) -> Replay:
    """Replay every deal of ``record`` into its sheet.

    >>> game = replay(parse_record("S 6s 7 | W whist 2 | E pass 1\\nallpass | W 0 | E 4 | S 6"))
    >>> game.sheet.pool, game.sheet.mountain["S"]
    ({'W': Fraction(1, 1), 'E': Fraction(0, 1), 'S': Fraction(2, 1)}, Fraction(6, 1))
    """
    rules = record.rules(convention_name, overrides)
    if record.game == "preferans":
        sheet = Sheet(record.players, rules)
        for deal in record.deals:
            sheet.play(deal)
    elif record.game == "thousand":
        if not record.players:
            raise RecordError("a Thousand record needs a 'players' line", None, 1)
        sheet = ThousandSheet(record.players, rules, record.start)
        scores = [sheet.play(deal) for deal in record.deals]
        return Replay(record, rules, sheet, scores)
    else:
        sheet = WhistSheet(bid=record.game == "bidwhist", game=rules.whist_game)
        for line, side, *numbers in record.deals:
            if record.game == "bidwhist":
                sheet.play(side, numbers[1], bid=numbers[0], line=line)
            else:
                sheet.play(side, numbers[0], line=line)
    return Replay(record, rules, sheet)


def read_record(path: str) -> GameRecord:
    """Read and parse the record file at ``path`` (``-`` for standard input)."""
    record = parse_record(read_text(path, "record file"))
    if not record.deals:
        example = {"preferans": "S 6s 7 | W whist 2 | E pass 1", "thousand": "W 120 | W 95+40 | E 20 | S 5",
                   "whist": "NS 7", "bidwhist": "NS 4 10"}[record.game]
        raise RecordError(f"record file {shown(path)} holds no deal: write one deal per line, e.g. '{example}'",
                          path)
    return record
