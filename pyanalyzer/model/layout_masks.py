"""A one-line layout read straight to the engine's terms, for batches: its hands as card masks.

A batch line costs the engine about half a millisecond; building the full :class:`Layout` (a
``Hand`` per seat, the layout's checks card by card) cost a fifth of that again. For the common
lines, a trick contract or misère of a game without card points, its talon out of play, every card
written as a rank-then-suit code (``As``, ``10d``, ``T♦``), :func:`read_masks` reads the fields to
masks and checks them on the masks.

The :class:`Layout` stays the one definition of a valid layout: :func:`read_masks` accepts only
lines that it can show the layout accepts, and gives ``None`` for anything else, the bad lines
included; the caller then reads the line in full (:func:`pyanalyzer.model.layout_io.read_one_line`),
and the layout's own check says what is wrong, with its one-line error naming the token. The
tests read every line of theirs both ways and compare the positions and the written forms.

>>> from pyanalyzer.model.layout_io import one_line_fields
>>> masks = read_masks(one_line_fields("contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh"))
>>> masks.tricks_left, masks.to_move, masks.one_line()
(2, 'W', 'contract=6s declarer=S lead=W S=As,7d W=8h,7h E=Ad,Kh')
>>> read_masks(one_line_fields("contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad")) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import MISERE, TRICKS, Contract
from pyanalyzer.model.layout import position_of
from pyanalyzer.model.layout_format import one_line_form
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import GAMES, PREFERANS_RULES, Rules

_mask = attrgetter("mask")
#: The keys :func:`read_masks` reads (a seat's hand apart); any other key is left to the full reader.
_KEYS = frozenset(("game", "contract", "declarer", "lead", "talon", "discard", "played", "title", "source"))


@dataclass(frozen=True, slots=True)
class LayoutMasks:
    """A checked trick layout (trick contract or misère) in masks: what a batch line's answer
    needs (the position, the one-line form, who is to move, the tricks left)."""

    rules: Rules
    contract: Contract
    declarer: str
    lead: str
    #: Each seat's cards, in the rules' seat order.
    hands: tuple[int, ...]
    discard: tuple[Card, ...]
    #: Cards already played to the current trick, in play order, starting with ``lead``'s.
    played: tuple[Card, ...]
    title: str | None
    source: str | None
    tricks_left: int

    @property
    def to_move(self) -> str:
        seats = self.rules.seats
        return seats[(seats.index(self.lead) + len(self.played)) % len(seats)]

    @property
    def is_full_deal(self) -> bool:
        return self.tricks_left == self.rules.hand_size and not self.played

    def position(self) -> Position:
        """The position, as :meth:`Layout.position` gives it."""
        rules = self.rules
        trump = self.contract.trump
        return position_of(rules, self.hands, None if trump is None else rules.deck.suit_index(trump),
                           rules.seats.index(self.lead), tuple([card.index for card in self.played]),
                           self.declarer, self.contract.kind)

    def one_line(self) -> str:
        """The one-line form, as :func:`pyanalyzer.model.layout_format.format_one_line` writes it."""
        return one_line_form(self.rules, self.contract, self.declarer, self.lead, self.hands,
                             ((), self.discard, self.played), self.title, self.source)


def read_masks(fields: dict[str, str]) -> LayoutMasks | None:
    """The layout of a one-line form's ``fields`` (``one_line_fields``) in masks, or None when
    it is not one of the lines read this way or the layout would refuse it (the module's
    docstring)."""
    game = fields.get("game")
    rules = PREFERANS_RULES if game is None else GAMES.get(game)
    if rules is None or rules.counts_points or fields.get("talon") or not fields.keys() <= _keys(rules):
        return None
    contract = _contract(rules, fields.get("contract"))
    declarer, lead = _seat(rules, fields.get("declarer")), _seat(rules, fields.get("lead"))
    if contract is None or declarer is None or lead is None:
        return None
    by_spelling = rules.deck.by_spelling
    seats = rules.seats
    hands, sizes = [], []
    for seat in seats:
        text = fields.get(seat)
        cards = _cards(by_spelling, fields.get(seat.lower()) if text is None else text)
        if cards is None:
            return None
        hands.append(sum(map(_mask, cards)))
        sizes.append(len(cards))
    discard, played = _cards(by_spelling, fields.get("discard", "")), _cards(by_spelling, fields.get("played", ""))
    if discard is None or played is None or len(discard) not in (0, rules.discard_size) or len(played) >= len(seats):
        return None
    # A card twice would carry in the sum: its bits would count fewer than the cards.
    if (sum(hands) + sum(map(_mask, discard + played))).bit_count() != sum(sizes) + len(discard) + len(played):
        return None
    leader = seats.index(lead)
    for number in range(len(played)):
        sizes[(leader + number) % len(seats)] += 1
    size = sizes[0]
    if size == 0 or size > rules.hand_size or sizes.count(size) != len(seats):
        return None
    masks = LayoutMasks(rules, contract, declarer, lead, tuple(hands), discard, played,
                        fields.get("title"), fields.get("source"), size)
    if played and not _legal_trick(masks):
        return None
    return masks


def _legal_trick(masks: LayoutMasks) -> bool:
    """Whether each card of the current trick was a legal play (the layout's check, on masks)."""
    position = masks.position()
    trick_rules = TrickRules.of(position)
    seats = len(masks.hands)
    for number, card in enumerate(position.played):
        hand = position.hands[(position.leader + number) % seats] | 1 << card
        if not trick_rules.legal_moves(hand, position.played[:number]) >> card & 1:
            return False
    return True


def _cards(by_spelling: dict[str, Card], text: str | None) -> tuple[Card, ...] | None:
    """The cards of a comma-separated list of rank-then-suit codes (``-`` or nothing: none), or
    None for any other text (a hand not given, other spellings, an unknown card)."""
    if text is None:
        return None
    if text in ("", "-"):
        return ()
    cards = tuple(map(by_spelling.get, text.split(",")))
    return cards if all(cards) else None


#: By game: the keys of the fields read here (a seat's key as typed: ``S`` or ``s``), the
#: contracts and the seats as spelled in the lines met (each read once).
_KNOWN_KEYS: dict[str, frozenset[str]] = {}
_CONTRACTS: dict[tuple[str, str], Contract | None] = {}
_SEATS: dict[tuple[str, str], str | None] = {}
_SPELLINGS_KEPT = 1024


def _keys(rules: Rules) -> frozenset[str]:
    keys = _KNOWN_KEYS.get(rules.game)
    if keys is None:
        keys = _KNOWN_KEYS[rules.game] = _KEYS | {spelling for seat in rules.seats for spelling in (seat, seat.lower())}
    return keys


def _contract(rules: Rules, text: str | None) -> Contract | None:
    """The trick contract or misère ``text`` names under ``rules``; None for any other text."""
    if text is None:
        return None
    key = (rules.game, text)
    if key not in _CONTRACTS:
        try:
            contract = Contract.parse(text, rules)
        except PrefInputError:
            contract = None
        if len(_CONTRACTS) >= _SPELLINGS_KEPT:
            _CONTRACTS.clear()
        _CONTRACTS[key] = contract if contract is not None and contract.kind in (TRICKS, MISERE) else None
    return _CONTRACTS[key]


def _seat(rules: Rules, text: str | None) -> str | None:
    """The seat ``text`` names under ``rules``; None for any other text."""
    if not text:
        return None
    key = (rules.game, text)
    if key not in _SEATS:
        try:
            seat = rules.seat(text)
        except PrefInputError:
            seat = None
        if len(_SEATS) >= _SPELLINGS_KEPT:
            _SEATS.clear()
        _SEATS[key] = seat
    return _SEATS[key]
