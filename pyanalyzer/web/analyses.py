"""The analyses the web analyzer offers, each on the engine of the pool's worker that runs it.

Each answer is the JSON object the matching command prints with ``--json`` (the same analyzer,
the same ``to_dict()``): ``solve`` is ``pref solve LAYOUT --json --cards``, ``advise`` is
``pref advise LAYOUT --seat S .. --json``, ``misere`` is
``pref misere LAYOUT [--talon ..] --json``, and so on. Input is text only: a layout is read from
the text given (one-line form, a layout file's text, or PBN for Whist), never from a path.
Bad input raises :class:`~pyanalyzer.errors.PrefInputError` with the command line's message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from pyanalyzer.analysis.advise import advise, information, parse_seats, parse_sees
from pyanalyzer.analysis.by_information import SAMPLES as BY_INFORMATION_SAMPLES
from pyanalyzer.analysis.by_information import judge_by_information
from pyanalyzer.analysis.playcheck import check_play
from pyanalyzer.analysis.solve import Solution, solve
from pyanalyzer.errors import LayoutError, PrefInputError, shorten
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_io import (
    format_one_line,
    layout_to_dict,
    parse_layout,
    parse_layout_with_moves,
    parse_layout_with_record,
)
from pyanalyzer.model.notation import parse_card, parse_cards, parse_moves
from pyanalyzer.model.rules import PREFERANS_RULES, THOUSAND_RULES, AllPassRules
from pyanalyzer.preferans.allpass import analyse_allpass, with_conventions
from pyanalyzer.preferans.defence import analyse_contract_layout
from pyanalyzer.preferans.discard_advice import SCREEN_SAMPLES, advise_discard, asks_for_a_discard
from pyanalyzer.preferans.misere import analyse_misere_layout, catching_summary
from pyanalyzer.preferans.odds import declarer_view
from pyanalyzer.render.svg import layout_svg
from pyanalyzer.thousand.exchange import rank_exchange
from pyanalyzer.thousand.odds import declarer_view as thousand_declarer_view
from pyanalyzer.thousand.review import review_deal
from pyanalyzer.whist.deal import Deal, whist_layout
from pyanalyzer.whist.table import dd_table

#: A PBN deal (``N:AKQ.JT9.87.65432 ...`` or a ``[Deal "..."]`` tag).
PBN_START = re.compile(r"^\s*(\[\s*deal\b|[nesw]\s*:)", re.IGNORECASE)
TALON_RULES = ("standard", "beat-talon", "rostov")


def read_layout_text(text: str) -> Layout:
    """A layout from its text: the one-line form, a layout file's text, or a PBN deal (a Whist
    layout, no trumps, North declaring). Never a file name."""
    if not isinstance(text, str) or not text.strip():
        raise LayoutError("give a layout: the one-line form, a layout file's text, or PBN", "layout")
    if PBN_START.match(text):
        return whist_layout(Deal.from_pbn(text.strip()))
    return parse_layout(text)


def position(text: str, moves: list[str] | None = None, values: Mapping[str, object] | str | None = None,
             engine=None) -> dict:
    """The layout after ``moves`` (card or move codes, in order): its JSON form (``pref show
    --json``), the SVG diagram (the cards it may play marked, ``values`` printed under them).
    ``values="solve"``: each legal card's value solved here on ``engine`` (also as ``cards``), best
    play's marked."""
    layout = read_layout_text(text)
    for number, code in enumerate(moves or [], start=1):
        if layout.tricks_left == 0:
            raise LayoutError(f"move {number} ({shorten(str(code))!r}): the hands are empty", str(code))
        played = parse_moves(str(code), layout.rules.deck)
        if len(played) != 1:
            raise LayoutError(f"move {number}: give one card, not {shorten(str(code))!r}", str(code))
        layout = layout.play(played[0])
    shown, best = None, []
    if values == "solve":
        if layout.tricks_left:
            solution = solve(layout, engine, cards=True, line=False)
            shown = solution.cards
            best = [move for move, value in shown.items() if value == solution.best_card_value()]
    elif values:
        shown = {parse_moves(str(code), layout.rules.deck)[0]: value for code, value in values.items()}
    data = layout_to_dict(layout)
    if values == "solve":
        data["cards"] = {move.code: value for move, value in (shown or {}).items()}
    data["moves"] = [move.code for move in layout.moves()] if layout.tricks_left else []
    data["svg"] = layout_svg(layout, values=shown, best=best)
    return data


def solve_layout(engine, text: str) -> dict:
    """``pref solve LAYOUT --json --cards`` (the page shows every card's value)."""
    return solve(read_layout_text(text), engine, cards=True, line=True).to_dict()


def misere(engine, text: str, talon: str | None = None) -> dict:
    """``pref misere LAYOUT [--talon CARDS] --json``: the open misère, or with the discard unknown
    (the talon given, or the hand written before the talon) the table of discards."""
    result = analyse_misere_layout(read_layout_text(text), engine, talon or None)
    data = result.to_dict()
    if isinstance(result, Solution):
        data["caught"] = result.declarer_tricks > 0
        data["summary"] = catching_summary(result, "letters")
    return data


def contract(engine, text: str) -> dict:
    """``pref contract LAYOUT --json``: the defence of an open layout, what was makeable from the
    talon, or a play record checked."""
    return analyse_contract_layout(*parse_layout_with_record(text), engine).to_dict()


def allpass(engine, text: str, talon_rule: str = "standard") -> dict:
    """``pref allpass LAYOUT [--talon-rule R] --json``: each player's guaranteed minimum."""
    if talon_rule not in TALON_RULES:
        raise LayoutError(f"unknown talon rule {shorten(str(talon_rule))!r}: give one of "
                          f"{', '.join(TALON_RULES)}", str(talon_rule))
    layout = read_layout_text(text)
    if not layout.contract.is_allpass:
        raise LayoutError(f"pref allpass needs contract=allpass, not {layout.contract.code}", layout.contract.code)
    if layout.rules.game != "preferans":
        raise LayoutError(f"all-pass is a Preferans contract, not {layout.rules.game}", layout.rules.game)
    layout = with_conventions(layout, AllPassRules.named(talon_rule))
    return analyse_allpass(layout, engine, cards=True, lines=True, split=True).to_dict()


def table(engine, text: str) -> dict:
    """``pref table DEAL --json``: the Whist double-dummy table (a PBN deal or a Whist layout)."""
    if isinstance(text, str) and PBN_START.match(text):
        deal = Deal.from_pbn(text.strip())
    else:
        layout = read_layout_text(text)
        if layout.rules.game != "whist":
            raise LayoutError(f"pref table reads a whist deal (PBN, or a layout with game: whist), "
                              f"not a {layout.rules.game} layout", layout.rules.game)
        if layout.played:
            raise LayoutError("pref table starts before a trick: remove played=", "played")
        deal = Deal.from_layout(layout)
    return dd_table(deal, [engine]).to_dict()


def thousand(engine, text: str) -> dict:
    """``pref thousand LAYOUT --json``: the exchange ranking of a layout before the exchange, else
    the layout solved in points."""
    layout = read_layout_text(text)
    if not layout.rules.counts_points:
        raise LayoutError(f"pref thousand takes a Thousand layout (game=thousand), not a {layout.rules.game} one; "
                          "use pref solve", "game")
    if layout.exchange_pending:
        return rank_exchange(layout, [engine]).to_dict()
    return solve(layout, engine, cards=True, line=True).to_dict()


def advise_layout(engine, text: str, seat: str = "", sees: str = "", moves: str = "", exact_limit: str = "",
                  samples: str = "", seed: str = "", strategy: str = "") -> dict:
    """``pref advise LAYOUT --seat S [--sees E] [--moves ..] [--exact-limit N] [--samples N] [--seed N]
    [--strategy auto|always|never] --json``: each card of the player to move judged over the layouts
    he cannot tell apart."""
    task = advise_task({"layout": text, "seat": seat, "sees": sees, "moves": moves, "exact_limit": exact_limit,
                        "samples": samples, "seed": seed, "strategy": strategy})
    return task(engine, None).to_json()


def _layout_and_moves(params: Mapping[str, object]) -> tuple[Layout, list]:
    """The ``layout`` parameter (its ``played=`` record) and the ``moves`` played after it, checked."""
    text = check_text_field(params.get("layout"), "layout")
    layout, record = parse_layout_with_moves(text) if not PBN_START.match(text) else (read_layout_text(text), [])
    moves = params.get("moves") or ""
    if isinstance(moves, list):
        moves = ",".join(str(m) for m in moves)
    played = list(record) + (parse_moves(str(moves), layout.rules.deck) if moves else [])
    return layout, played


def advise_task(params: Mapping[str, object]) -> Callable[[object, object], object]:
    """``pref advise`` as a pool task ``task(engine, job)`` returning the :class:`Advice` (its
    ``to_json()`` is the command's ``--json``); the parameters (``layout``, ``seat``, ``sees``,
    ``moves``, ``exact_limit``, ``samples``, ``seed``, ``strategy``: the command's options, as
    text) are checked here, before a job is queued."""
    layout, played = _layout_and_moves(params)
    rules = layout.rules
    seat = str(params.get("seat") or "")
    if not seat:
        raise LayoutError("missing --seat: the player to advise (the one to move)", "--seat")
    sees = params.get("sees") or ""
    sees = parse_sees(sees if isinstance(sees, list) else [str(sees)], rules)
    limit = _whole_number(params, "exact_limit", 0, MAX_SAMPLES, "--exact-limit")
    count = _whole_number(params, "samples", 1, MAX_SAMPLES)
    seed = _whole_number(params, "seed", 0, MAX_SEED)
    options = {"exact_limit": limit} if limit is not None else {}
    if count is not None:
        options["samples"] = count
    if params.get("strategy"):  # (advise() names the choices when it is none of them)
        options["strategy"] = str(params["strategy"])
    seat = rules.seat(seat)
    if asks_for_a_discard(layout, seat, played):
        if sees:
            raise LayoutError("--sees: the declarer's discard is judged over every layout of the defenders' "
                              "cards (he sees neither hand)", "--sees")

        def discard_task(engine, job):
            return advise_discard(layout, seat, engine=engine, exact_limit=limit, seed=seed, threads=1,
                                  backends=[engine], progress=None if job is None else job.reporter,
                                  samples=count or SCREEN_SAMPLES)
        return discard_task
    information(layout, played, seat, sees)  # (he is not to move, ...: 400 now, not a failed job later)

    def task(engine, job):
        if job is None:  # (answered at once: /api/advise)
            return advise(layout, seat, sees, moves=played, engine=engine, seed=seed, threads=1, backends=[engine],
                          **options)
        job.stops_between_blocks()
        return advise(layout, seat, sees, moves=played, engine=engine, seed=seed, threads=1, backends=[engine],
                      progress=job.reporter, stop_when=job.stop_requested, **options)
    return task


def by_information_task(params: Mapping[str, object]) -> Callable[[object, object], object]:
    """``pref contract LAYOUT --by-information --json`` (``pref thousand`` for a Thousand deal) as a
    pool task: the play record (``played=`` in ``layout``, then ``moves``) replayed double dummy and
    each card judged by what its player knew. Options as text: ``open``, ``threshold``,
    ``exact_limit``, ``samples``, ``seed``."""
    layout, record = _layout_and_moves(params)
    rules = layout.rules
    if not record:
        raise LayoutError("--by-information judges the cards of a play record: give played= with a whole trick "
                          "or more", "--by-information")
    open_text = params.get("open") or ""
    open_hands = parse_seats(open_text if isinstance(open_text, list) else [str(open_text)], rules, "--open")
    threshold = None
    if params.get("threshold") not in (None, ""):
        text = str(params["threshold"]).strip()
        if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?", text):
            raise LayoutError(f"--threshold takes a number of 0 or more, not {shorten(text)!r}", "--threshold")
        threshold = float(text)
    options = {"open_hands": open_hands, "threshold": threshold,
               "exact_limit": _whole_number(params, "exact_limit", 0, MAX_SAMPLES, "--exact-limit"),
               "samples": _whole_number(params, "samples", 1, MAX_SAMPLES) or BY_INFORMATION_SAMPLES,
               "seed": _whole_number(params, "seed", 0, MAX_SEED)}

    def task(engine, job):
        if rules.counts_points:
            replay = review_deal(layout, record, engine)
        else:
            replay = check_play(layout, [move.card for move in record], engine)
        job.stops_between_blocks()
        return judge_by_information(replay, record, engine=engine, threads=1, backends=[engine],
                                    progress=job.reporter, stop_when=job.stop_requested, **options)
    return task


def _seat_cards(text: str, option: str, rules) -> tuple[str, list[Card]]:
    seat, sep, cards = str(text).partition("=")
    if not sep:
        raise LayoutError(f"{option} takes SEAT=CARDS, e.g. S=As,Ks,... (got {shorten(str(text))!r})", str(text))
    return rules.seat(seat.strip()), parse_cards(cards, rules.deck)


#: Bounds of the sampling parameters (as the command line's --samples and --seed).
MAX_SAMPLES = 100_000_000
MAX_SEED = 2**64 - 1


def _whole_number(params: Mapping[str, object], name: str, low: int, high: int,
                  option: str | None = None) -> int | None:
    """``params[name]`` as a whole number from ``low`` to ``high`` (None when not given);
    ``option``: the command line's name of it, in the message (``--name`` by default)."""
    option = option or f"--{name}"
    value = params.get(name)
    if value in (None, ""):
        return None
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]{1,20}", text) or not low <= int(text) <= high:
        raise LayoutError(f"{option} takes a whole number from {low:,} to {high:,}, not {shorten(str(value))!r}",
                          option)
    return int(text)


def odds_task(params: Mapping[str, object]) -> Callable[[object, object], object]:
    """The declarer's odds over every split, as a pool task ``task(engine, job)`` returning the
    result object (its ``to_dict()`` is the command's ``--json``). The parameters are checked
    here, before the job is queued:

    * Preferans (``pref contract/misere --hand S=.. --discard .. --contract .. --lead ..``):
      ``hand`` (10 cards), ``discard``, ``contract``, ``lead``;
    * Thousand (``pref thousand --hand S=.. --gave W:..,E:.. [--bid N]``): ``game="thousand"``,
      ``hand`` (8 cards), ``gave``, optional ``bid``.

    Optional for both: ``samples`` (random layouts instead of all) and ``seed``.
    """
    game = str(params.get("game") or "preferans")
    samples = _whole_number(params, "samples", 1, MAX_SAMPLES)
    seed = _whole_number(params, "seed", 0, MAX_SEED)
    if game == "thousand":
        return _thousand_odds_task(params, samples, seed)
    if game != "preferans":
        raise LayoutError(f"the declarer's odds are for preferans or thousand, not {shorten(game)!r}", game)
    rules = PREFERANS_RULES
    seat, cards = _seat_cards(params.get("hand") or "", "--hand", rules)
    hand = Hand(cards, rules.deck)
    discard = parse_cards(str(params.get("discard") or ""), rules.deck)
    contract_text = str(params.get("contract") or "")
    if not contract_text:
        raise LayoutError("missing --contract, e.g. --contract 6s or --contract misere", "--contract")
    chosen = Contract.parse(contract_text, rules)
    if not params.get("lead"):
        raise LayoutError("missing --lead: the seat on lead to the first trick", "--lead")
    lead = rules.seat(str(params["lead"]))
    if len(hand) != rules.hand_size or len(discard) != rules.discard_size:
        raise LayoutError(f"the declarer's view takes his {rules.hand_size} cards and the {rules.discard_size} "
                          f"discarded (got {len(hand)} and {len(discard)})", "--hand")

    def task(engine, job):
        job.stops_between_blocks()
        return declarer_view(hand, seat, discard, chosen, lead, rules, threads=1, samples=samples, seed=seed,
                             progress=job.progress,
                             stop_when=job.stop_requested, backends=[engine])
    return task


def _thousand_odds_task(params: Mapping[str, object], samples: int | None,
                        seed: int | None) -> Callable[[object, object], object]:
    rules = THOUSAND_RULES
    seat, kept = _seat_cards(params.get("hand") or "", "--hand", rules)
    gave: dict[str, Card] = {}
    for token in (t for t in str(params.get("gave") or "").replace(" ", ",").split(",") if t):
        where, sep, card = token.partition(":")
        if not sep:
            raise LayoutError(f"--gave takes SEAT:CARD pairs, e.g. W:Js,E:9h (got {shorten(token)!r})", token)
        gave[rules.seat(where.strip())] = parse_card(card.strip(), rules.deck)
    opponents = [s for s in rules.seats if s != seat]
    if sorted(gave) != sorted(opponents):
        raise LayoutError(f"--gave names the card given to each opponent: {opponents[0]}:<card>,"
                          f"{opponents[1]}:<card>", "--gave")
    if len(kept) != rules.hand_size:
        raise LayoutError(f"--hand has {len(kept)} cards: the declarer's view takes the {rules.hand_size} "
                          "kept after the exchange", "--hand")
    Hand(kept + list(gave.values()), rules.deck)  # a card both kept and given: named
    bid_text = params.get("bid")
    bid = None
    if bid_text not in (None, ""):
        if not re.fullmatch(r"[0-9]{1,4}", str(bid_text)):
            raise LayoutError(f"--bid takes a whole number (100, 105, ...), not {shorten(str(bid_text))!r}",
                              str(bid_text))
        bid = int(str(bid_text))
        rules.check_bid(bid, "--bid")

    def task(engine, job):
        job.stops_between_blocks()
        return thousand_declarer_view(kept, gave, rules, seat, bid, threads=1, samples=samples, seed=seed,
                                      progress=job.progress,
                                      stop_when=job.stop_requested, backends=[engine])
    return task


#: The analyses answered at once (a pool job the request waits for): name -> (function, the
#: request fields it takes besides the layout).
ANALYSES: dict[str, tuple[Callable[..., dict], tuple[str, ...]]] = {
    "solve": (solve_layout, ()),
    "misere": (misere, ("talon",)),
    "contract": (contract, ()),
    "allpass": (allpass, ("talon_rule",)),
    "table": (table, ()),
    "thousand": (thousand, ()),
    "advise": (advise_layout, ("seat", "sees", "moves", "exact_limit", "samples", "seed", "strategy")),
}

#: The long analyses run as jobs (``POST /api/jobs {"analysis": NAME, ...}``): name -> the
#: function checking the parameters and returning the pool task.
JOBS: dict[str, Callable[[Mapping[str, object]], Callable[[object, object], object]]] = {
    "odds": odds_task,
    "advise": advise_task,
    "by_information": by_information_task,
}


def check_text_field(value: object, name: str) -> str:
    if value is None:
        raise PrefInputError(f"missing \"{name}\": give a layout (the one-line form, a layout file's text, "
                             "or PBN)", name)
    if not isinstance(value, str):
        raise PrefInputError(f"{name} must be a string", name)
    return value


def one_line(text: str) -> str:
    """The one-line form of a layout text (for the page's address)."""
    return format_one_line(read_layout_text(text))
