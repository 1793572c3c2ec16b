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

>>> masks = read_masks("contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad,Kh")
>>> masks.tricks_left, masks.to_move, masks.one_line()
(2, 'W', 'contract=6s declarer=S lead=W S=As,7d W=8h,7h E=Ad,Kh')
>>> read_masks("contract=6s declarer=S lead=W S=As,7d W=7h,8h E=Ad") is None
True
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from pyanalyzer.errors import PrefInputError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import MISERE, TRICKS, Contract
from pyanalyzer.model.layout import position_of
from pyanalyzer.model.layout_format import one_line_form
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import GAMES, Rules

_mask = attrgetter("mask")
#: The keys :func:`read_masks` reads (a seat's hand apart); any other key is left to the full reader.
_KEYS = frozenset(("game", "contract", "declarer", "lead", "talon", "discard", "played", "title", "source"))


class LayoutMasks(NamedTuple):
    """A checked trick layout (trick contract or misère) in masks: what a batch line's answer
    needs (the position, the one-line form, who is to move, the tricks left). (A named tuple: a
    batch makes one a line.)"""

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


def read_masks(text: str) -> LayoutMasks | None:
    """The layout of a one-line form in masks, or None when it is not one of the lines read this
    way or the layout would refuse it (the module's docstring). The line must be plain: printable
    characters (no tab, no control character), words between single spaces, no quotes or
    backslashes, keys written as ``one_line_fields`` stores them (lower case, a seat's either case)."""
    if len(text) > _LONGEST or not text.isprintable() or '"' in text or "'" in text or "\\" in text:
        return None
    fields: dict[str, str] = {}
    for word in text.split(" "):
        if not word:   # (between two spaces)
            continue
        key, equals, value = word.partition("=")
        if key in fields or not equals:
            return None
        fields[key] = value   # (a word "=x" is refused below: "" is no key)
    game = fields.get("game")
    reading = _READINGS.get("preferans" if game is None else game)
    if reading is None or fields.get("talon") or not fields.keys() <= reading.keys:
        return None
    rules, spelled = reading.rules, reading.seats
    contract = reading.contract(fields.get("contract"))
    declarer, lead = spelled.get(fields.get("declarer")), spelled.get(fields.get("lead"))
    if contract is None or declarer is None or lead is None:
        return None
    by_spelling, card_masks = rules.deck.by_spelling, reading.card_masks
    hands, sizes = [], []
    for seat, lower in reading.seat_keys:
        hand = fields.get(seat)
        if hand is None:
            hand = fields.get(lower)
            if hand is None:
                return None
        elif lower in fields and lower != seat:   # (given twice: S= and s=)
            return None
        if hand in ("", "-"):
            hands.append(0)
            sizes.append(0)
            continue
        codes = hand.split(",")
        try:
            hands.append(sum(map(card_masks.__getitem__, codes)))
        except KeyError:   # (another spelling, or not a card)
            return None
        sizes.append(len(codes))
    discard = _cards(by_spelling, fields["discard"]) if "discard" in fields else ()
    played = _cards(by_spelling, fields["played"]) if "played" in fields else ()
    seats = len(hands)
    if discard is None or played is None or len(discard) not in (0, rules.discard_size) or len(played) >= seats:
        return None
    # A card twice would carry in the sum: its bits would count fewer than the cards.
    if (sum(hands) + sum(map(_mask, discard + played))).bit_count() != sum(sizes) + len(discard) + len(played):
        return None
    if played:
        leader = rules.seats.index(lead)
        for number in range(len(played)):
            sizes[(leader + number) % seats] += 1
    size = sizes[0]
    if size == 0 or size > rules.hand_size or sizes.count(size) != seats:
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


class _Reading:
    """What :func:`read_masks` needs of a game's rules, worked out once: the keys read (a seat's
    key as typed: ``S`` or ``s``), the seats by spelling, and the contracts met (each read once)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seat_keys = tuple((seat, seat.lower()) for seat in rules.seats)
        self.keys = _KEYS | {key for pair in self.seat_keys for key in pair}
        self.seats = {key: seat for seat, lower in self.seat_keys for key in (seat, lower)}
        #: Each card's mask by its rank-then-suit spellings (a hand is read to its mask without its cards).
        self.card_masks = {spelling: card.mask for spelling, card in rules.deck.by_spelling.items()}
        self._contracts: dict[str | None, Contract | None] = {None: None}

    def contract(self, text: str | None) -> Contract | None:
        """The trick contract or misère ``text`` names; None for any other text."""
        contracts = self._contracts
        if text in contracts:
            return contracts[text]
        try:
            contract = Contract.parse(text, self.rules)
        except PrefInputError:
            contract = None
        if len(contracts) >= _CONTRACTS_KEPT:
            contracts.clear()
            contracts[None] = None
        contracts[text] = contract if contract is not None and contract.kind in (TRICKS, MISERE) else None
        return contracts[text]


#: Longer lines are read in full (a full Whist deal with a title is a few hundred characters).
_LONGEST = 2000
#: The contracts kept read per game (a batch names a few; a file of odd spellings stays bounded).
_CONTRACTS_KEPT = 1024
#: The games whose lines are read in masks: the trick games.
_READINGS = {name: _Reading(rules) for name, rules in GAMES.items() if not rules.counts_points}
