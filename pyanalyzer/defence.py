"""``defence``: how many tricks do the whisters get, and do they meet their obligation?

For an open layout with a trick contract: the declarer's and the defenders'
tricks with best play, the whist verdict against the obligation table, how the
defenders' tricks fall between them along the best line, and the most tricks
each defender can secure for himself while the pair still takes its maximum.

>>> from pyanalyzer.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=W S=As,Ks,7d W=Ah,Kh,8d E=Ad,Qh,9d")
>>> result = analyse_defence(layout, engine="reference")
>>> result.declarer_tricks, result.defender_tricks, result.secured
(2, 1, {'W': 0, 'E': 1})
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .cards import Card
from .engines import make_backend
from .errors import LayoutError
from .layout import Layout
from .model.play import TrickRules
from .reference import ReferencePosition, tighten
from .solve import Trick, TrickCounts, format_tricks, line_to_tricks

#: Tricks the two defenders must take together against each contract level
#: (``docs/rules.md``, "Whist (defence) obligations"). Ten is played out all the same.
WHIST_OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 0}


@dataclass
class DefenceResult(TrickCounts):
    """The answer of :func:`analyse_defence`."""

    layout: Layout
    declarer_tricks: int
    line: list[Card]
    tricks: list[Trick]
    #: Tricks each defender takes along the best line.
    line_split: dict[str, int]
    #: The most tricks each defender can secure for himself while the pair takes its maximum.
    secured: dict[str, int]
    nodes: int
    seconds: float
    engine: str

    @property
    def obligation(self) -> int | None:
        """What the defenders owe together (full deals only: an ending lacks the earlier tricks)."""
        return WHIST_OBLIGATION[self.layout.contract.level] if self.is_full_deal else None

    @property
    def shortfall(self) -> int | None:
        """How many tricks the defenders are short of their obligation (0 = met)."""
        if self.obligation is None:
            return None
        return max(0, self.obligation - self.defender_tricks)

    @property
    def contract_margin(self) -> int | None:
        """Declarer's tricks minus the contract level (negative: down), full deals only."""
        return self.declarer_tricks - self.layout.contract.level if self.is_full_deal else None

    def verdict(self) -> list[str]:
        layout, names = self.layout, self.layout.rules.seat_name
        d1, d2 = layout.defenders
        lines = []
        if self.is_full_deal:
            margin = self.contract_margin
            made = (f"{layout.contract} makes" + (f" with {margin} overtrick{'s' * (margin != 1)}"
                                                   if margin else "")
                    if margin >= 0 else f"{layout.contract} goes down by {-margin}")
            lines.append(f"{names(layout.declarer)} takes {self.declarer_tricks} tricks: {made}.")
            if self.shortfall == 0:
                whist = f"the whist obligation of {self.obligation} is met"
            else:
                whist = f"short of the whist obligation of {self.obligation} by {self.shortfall}"
            lines.append(f"The defenders take {self.defender_tricks}: {whist}.")
        else:
            lines.append(f"{names(layout.declarer)} takes {self.declarer_tricks} of the "
                         f"{self.tricks_left} tricks left, the defenders {self.defender_tricks}.")
        lines.append(f"Along the best line: {names(d1)} {self.line_split[d1]}, "
                     f"{names(d2)} {self.line_split[d2]}.")
        lines.append(f"Each can secure for himself, the pair keeping its {self.defender_tricks}: "
                     f"{names(d1)} {self.secured[d1]}, {names(d2)} {self.secured[d2]}.")
        return lines

    def format(self, style: str = "symbols") -> str:
        out = list(self.verdict())
        if self.tricks:
            out.append("")
            out.append("Best play:")
            out.extend("  " + text for text in format_tricks(self.tricks, style=style))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        from .layout_io import format_one_line

        return {
            "layout": format_one_line(self.layout),
            "contract": self.layout.contract.code,
            "declarer": self.layout.declarer,
            "tricks_left": self.tricks_left,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
            "contract_margin": self.contract_margin,
            "whist_obligation": self.obligation,
            "whist_shortfall": self.shortfall,
            "line_split": self.line_split,
            "secured": self.secured,
            "line": [c.code for c in self.line],
            "engine": self.engine,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyse_defence(layout: Layout, engine: str | object = "fast") -> DefenceResult:
    """Whist tricks for an open layout with a trick contract (see the module docstring)."""
    if layout.contract.kind != "tricks":
        raise LayoutError(f"the defence analysis needs a trick contract, not {layout.contract}",
                          layout.contract.code)
    backend = make_backend(engine) if isinstance(engine, str) else engine
    start_nodes, start = backend.nodes, time.perf_counter()
    position = layout.position()
    value = backend.solve(position)
    deck = layout.rules.deck
    line = [deck.from_index(i) for i in backend.best_line(position)]
    tricks = line_to_tricks(layout, line)
    line_split = {seat: sum(1 for t in tricks if t.complete and t.winner == seat)
                  for seat in layout.defenders}
    secured = {seat: secured_tricks(layout, seat, backend) for seat in layout.defenders}
    return DefenceResult(layout, value, line, tricks, line_split, secured,
                         backend.nodes - start_nodes, time.perf_counter() - start, backend.name)


def secured_tricks(layout: Layout, defender: str, backend) -> int:
    """The most tricks ``defender`` can be sure of while the pair still takes its maximum.

    A lexicographic game (the pair's tricks first, then the defender's own):
    both sides only ever play cards that keep the pair's double-dummy value
    (any other card is strictly worse for whoever plays it), so the search
    walks the tree of such cards, asking the engine which cards they are,
    and counts the defender's tricks with the declarer minimising them.
    """
    position = layout.position()
    rules = TrickRules.of(position)
    seats = len(position.hands)
    target_seat = layout.seats.index(defender)
    declarer_side = position.declarer_side
    memo: dict[tuple, tuple[int, int]] = {}

    def at(hands, leader, played) -> ReferencePosition:
        return ReferencePosition(hands, position.suit_masks, position.trump, position.must_trump,
                                 leader, played, declarer_side, position.maximize)

    def search(hands: tuple[int, ...], leader: int, played: tuple[int, ...],
               alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the defender's own tricks from here."""
        seat = (leader + len(played)) % seats
        legal = rules.legal_moves(hands[seat], played)
        if legal & (legal - 1):
            values = backend.card_values(at(hands, leader, played))
            keep = max(values.values()) if declarer_side[seat] else min(values.values())
            cards = [c for c, v in values.items() if v == keep]
            pair_tricks = (sum(bin(h).count("1") for h in hands) + len(played)) // seats - keep
        else:
            cards = [legal.bit_length() - 1]
            pair_tricks = None
        key = None
        if not played:
            key = (hands, leader)
            lower, upper = memo.get(key, (0, bin(hands[0]).count("1")))
            if pair_tricks is not None:
                upper = min(upper, pair_tricks)
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window_alpha, window_beta = alpha, beta
        minimising = declarer_side[seat]
        best = 1 << 30 if minimising else -1
        for card in distinct_cards(cards, hands, played, position.suit_masks):
            child = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
            trick = played + (card,)
            if len(trick) == seats:
                winner = rules.trick_winner(leader, trick)
                gain = int(winner == target_seat)
                own = gain + (search(child, winner, (), alpha - gain, beta - gain) if any(child) else 0)
            else:
                own = search(child, leader, trick, alpha, beta)
            if minimising:
                if own < best:
                    best, beta = own, min(beta, own)
            elif own > best:
                best, alpha = own, max(alpha, own)
            if alpha >= beta:
                break
        if key is not None:
            memo[key] = tighten(memo.get(key, (0, bin(hands[0]).count("1"))), best, window_alpha, window_beta)
        return best

    hands = tuple(position.hands)
    return search(hands, position.leader, tuple(position.played), -1, layout.tricks_left + 1)


def distinct_cards(cards: list[int], hands: tuple[int, ...], played: tuple[int, ...],
                   suit_masks: tuple[int, ...]) -> list[int]:
    """One card per run of touching cards of one hand: no other card still in play lies between.

    Such cards are interchangeable for every question asked here, so one stands for all.
    """
    in_play = 0
    for hand in hands:
        in_play |= hand
    for card in played:
        in_play |= 1 << card
    chosen: list[int] = []
    for card in sorted(cards):
        if chosen:
            low = chosen[-1]
            hand = next((h for h in hands if h >> card & 1), 0)
            between = in_play & ((1 << card) - 1) & ~((1 << (low + 1)) - 1)
            same_suit = any(m >> low & 1 and m >> card & 1 for m in suit_masks)
            if hand >> low & 1 and same_suit and not between & ~hand:
                continue
        chosen.append(card)
    return chosen
