"""A layout: the hands, the contract, who leads, and the cards of the current trick.

A layout is validated when it is made; every inconsistency raises a
:class:`~pyanalyzer.errors.LayoutError` that names the offending seat or card.
An ending (fewer than ten cards a hand) is a valid layout: results then count
the tricks left.

>>> from pyanalyzer.model.layout_io import parse_layout
>>> layout = parse_layout("contract=6s declarer=S lead=S S=As,Ks W=7h,8h E=7d,8d")
>>> layout.tricks_left, layout.to_move
(2, 'S')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from pyanalyzer.errors import DuplicateCardError, IllegalPlayError, LayoutError
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_format import format_one_line
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import GAMES, PREFERANS_RULES, Rules, with_allpass


@dataclass(frozen=True, eq=False)
class Layout:
    """An open layout of one game, checked for consistency on construction."""

    hands: Mapping[str, Hand]
    contract: Contract
    declarer: str | None
    lead: str | None
    talon: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    #: Cards already played to the current trick, in play order, starting with ``lead``.
    played: tuple[Card, ...] = ()
    title: str | None = None
    source: str | None = None
    rules: Rules = field(default=PREFERANS_RULES)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", MappingProxyType(dict(self.hands)))
        object.__setattr__(self, "talon", tuple(self.talon))
        object.__setattr__(self, "discard", tuple(self.discard))
        object.__setattr__(self, "played", tuple(self.played))
        self._check_seats()
        self._check_cards_unique()
        self._check_sizes()
        self._check_played()

    # -- validation ----------------------------------------------------------

    def _check_seats(self) -> None:
        rules = self.rules
        for seat in self.hands:
            rules.seat(seat)
        for seat in rules.seats:
            if seat not in self.hands:
                raise LayoutError(f"missing hand for {seat}", seat)
        if self.contract.is_allpass:
            if self.declarer is not None:
                raise LayoutError(
                    f"all-pass has no declarer (got declarer={self.declarer})", self.declarer
                )
        elif self.declarer is None:
            raise LayoutError(f"missing declarer for the {self.contract} contract", "declarer")
        else:
            rules.seat(self.declarer)
        if self.lead is None:
            raise LayoutError("missing lead: name the seat that leads the current trick", "lead")
        rules.seat(self.lead)
        if self.discard and self.declarer is None:
            raise LayoutError("a discard needs a declarer", "discard")

    def _check_cards_unique(self) -> None:
        where: dict[Card, str] = {}

        def place(cards: Sequence[Card] | Hand, name: str) -> None:
            for card in cards:
                if card in where:
                    raise DuplicateCardError(
                        f"card {card.code!r} is in both {where[card]} and {name}", card.code
                    )
                where[card] = name

        for seat in self.rules.seats:
            place(self.hands[seat], seat)
        place(self.played, "played")
        place(self.discard, "discard")
        played_by = dict(zip(self.played, self.played_by()))
        # The declarer took the talon: its cards may now be in his hand or discard.
        seen_talon: set[Card] = set()
        for card in self.talon:
            if card in seen_talon:
                raise DuplicateCardError(f"card {card.code!r} is twice in the talon", card.code)
            seen_talon.add(card)
            owner = where.get(card)
            if owner == "played":
                owner = played_by[card]
            if owner is not None and owner not in (self.declarer, "discard"):
                raise DuplicateCardError(
                    f"card {card.code!r} is in both the talon and {owner}", card.code
                )

        rules = self.rules
        for name, cards, size in (("talon", self.talon, rules.talon_size),
                                  ("discard", self.discard, rules.discard_size)):
            # All-pass turns the talon up card by card: a part of it may be left.
            allowed = range(size + 1) if name == "talon" and self.contract.is_allpass else (0, size)
            if len(cards) not in allowed:
                raise LayoutError(f"{name} must have {size} cards, not {len(cards)}", name)

    def _check_sizes(self) -> None:
        rules = self.rules
        if len(self.played) >= len(rules.seats):
            raise LayoutError(
                f"played has {len(self.played)} cards; a trick in progress has at most "
                f"{len(rules.seats) - 1}", "played"
            )
        already = set(self.played_by())
        sizes = {s: len(self.hands[s]) + (s in already) for s in rules.seats}
        counts = sorted(set(sizes.values()))
        if len(counts) > 1:
            usual = max(counts, key=lambda n: (list(sizes.values()).count(n), n))
            odd = next(s for s in rules.seats if sizes[s] != usual)
            detail = ", ".join(f"{s} {len(self.hands[s])}" for s in rules.seats)
            note = " after the played cards" if self.played else ""
            raise LayoutError(
                f"wrong hand sizes: {odd} has {_cards(len(self.hands[odd]))}{note} "
                f"({detail}); every hand must have the same number", odd
            )
        if len(self.talon_tricks) > counts[0]:
            raise LayoutError(
                f"talon has {_cards(len(self.talon_tricks))} to turn up but only "
                f"{_cards(counts[0])} a hand: give only the talon cards still to lead a trick",
                "talon")
        if counts[0] > rules.hand_size:
            seat = rules.seats[0]
            raise LayoutError(
                f"wrong hand sizes: {seat} has {_cards(len(self.hands[seat]))}; "
                f"a {rules.game} hand has at most {rules.hand_size}", seat
            )

    def _check_played(self) -> None:
        if not self.played:
            return
        rules, trick_rules, talon_card = self.rules, self.trick_rules(), self._talon_card()
        led = rules.deck.suits[self.led_suit] if self.led_suit is not None else None
        for i, (seat, card) in enumerate(zip(self.played_by(), self.played)):
            hand = self.hands[seat]
            before = tuple(c.index for c in self.played[:i])
            if trick_rules.legal_moves(hand.mask | card.mask, before, talon_card) >> card.index & 1:
                continue
            if hand.cards_of_suit(self.led_suit):
                raise IllegalPlayError(
                    f"illegal played card {card.code!r}: {seat} holds {led} and must follow suit",
                    card.code,
                )
            raise IllegalPlayError(
                f"illegal played card {card.code!r}: {seat} has no {led} and must trump",
                card.code,
            )

    # -- derived facts -------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.seats

    @property
    def talon_tricks(self) -> tuple[Card, ...]:
        """All-pass with an open talon: the talon cards that fix the suit of the first tricks."""
        if self.contract.is_allpass and self.rules.allpass.talon_open:
            return self.talon
        return ()

    @property
    def trump_number(self) -> int | None:
        """The trump suit's number in the deck, or None (no-trump, misère, all-pass)."""
        trump = self.contract.trump
        return None if trump is None else self.rules.deck.suit_index(trump)

    def played_by(self) -> list[str]:
        """The seats that played the cards of the current trick, in order."""
        seats, order = self.rules.seats, []
        seat = self.lead
        for _ in self.played:
            order.append(seat)
            seat = seats[(seats.index(seat) + 1) % len(seats)]
        return order

    @property
    def to_move(self) -> str:
        """The seat whose turn it is."""
        seats = self.rules.seats
        return seats[(seats.index(self.lead) + len(self.played)) % len(seats)]

    @property
    def tricks_left(self) -> int:
        cards = sum(len(h) for h in self.hands.values()) + len(self.played)
        return cards // len(self.rules.seats)

    @property
    def defenders(self) -> tuple[str, ...]:
        return tuple(s for s in self.rules.seats if s not in self.rules.side_of(self.declarer))

    def position(self, side: str | None = None) -> Position:
        """The position in the engine's primitive terms.

        For trick contracts and misère the side is the declarer; for all-pass
        pass ``side``: the seat whose tricks are counted (it plays to take
        as few as possible, the others to give it as many as possible).
        """
        seats = self.rules.seats
        counted = side if side is not None else self.declarer
        if counted is None:
            raise LayoutError("all-pass: name the seat whose tricks are counted", "side")
        return Position(
            hands=tuple(self.hands[s].mask for s in seats),
            suit_masks=self._suit_masks(),
            trump=self.trump_number,
            must_trump=self.rules.must_trump,
            leader=seats.index(self.lead),
            played=tuple(c.index for c in self.played),
            declarer_side=tuple(s in self.rules.side_of(counted) for s in seats),
            maximize=self.contract.kind == "tricks",
            talon_leads=tuple(c.index for c in self.talon_tricks),
            talon_must_beat=self.rules.allpass.talon_must_beat,
            heuristics=self.rules.heuristics,
        )

    def trick_rules(self) -> TrickRules:
        """How this layout's tricks are played (the model's one statement of the trick rules)."""
        return TrickRules(
            suit_masks=self._suit_masks(),
            trump=self.trump_number,
            must_trump=self.rules.must_trump,
            talon_leads=tuple(c.index for c in self.talon_tricks),
            talon_must_beat=self.rules.allpass.talon_must_beat,
        )

    def _suit_masks(self) -> tuple[int, ...]:
        deck = self.rules.deck
        return tuple(deck.suit_mask(i) for i in range(len(deck.suits)))

    def _talon_card(self) -> int | None:
        """The talon card that fixes the suit of the current trick (all-pass), or None."""
        return self.talon_tricks[0].index if self.talon_tricks else None

    @property
    def led_suit(self) -> int | None:
        """The suit number the current trick must follow (a talon card's suit in all-pass)."""
        if self.talon_tricks:
            return self.talon_tricks[0].suit_number
        return self.played[0].suit_number if self.played else None

    def after(self, card: Card) -> Layout:
        """The layout after the player to move plays ``card`` (which must be legal)."""
        seat = self.to_move
        hands = dict(self.hands)
        if card not in hands[seat]:
            raise IllegalPlayError(f"card {card.code!r} is not in {seat}'s hand", card.code)
        if card not in self.legal_cards():
            raise IllegalPlayError(f"illegal card {card.code!r}: {seat} must follow suit or trump",
                                   card.code)
        hands[seat] = hands[seat].without(card)
        played, lead, talon = self.played + (card,), self.lead, self.talon
        if len(played) == len(self.rules.seats):
            if self.talon_tricks:  # the same player plays first again; one talon card is used
                talon = talon[1:]
            else:
                lead = self.trick_winner(played)
            played = ()
        return Layout(hands, self.contract, self.declarer, lead, talon, self.discard,
                      played, self.title, self.source, self.rules)

    def trick_winner(self, trick: Sequence[Card]) -> str | None:
        """The seat that wins ``trick``, a full trick led by this layout's ``lead``.

        In a talon trick of all-pass the highest card of the talon card's suit
        wins (with the ``beat`` convention, only one above the talon card); if
        none does, no player takes the trick (None).
        """
        seats = self.rules.seats
        # Counted from the leader (seat 0 of the trick), then placed at the table.
        place = self.trick_rules().trick_winner(0, [c.index for c in trick], self._talon_card())
        return None if place is None else seats[(seats.index(self.lead) + place) % len(seats)]

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, in display order."""
        hand = self.hands[self.to_move]
        legal = self.trick_rules().legal_moves(hand.mask, [c.index for c in self.played],
                                               self._talon_card())
        return [card for card in hand if legal >> card.index & 1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return (dict(self.hands), self.contract, self.declarer, self.lead, self.talon,
                self.discard, self.played, self.title, self.source, self.rules) == (
            dict(other.hands), other.contract, other.declarer, other.lead, other.talon,
            other.discard, other.played, other.title, other.source, other.rules)

    def __repr__(self) -> str:
        """``parse_layout('…')`` (the one-line form), which reads back to an equal layout.

        Under other all-pass conventions than the game's own: ``with_conventions(parse_layout('…'),
        AllPassRules(…))``. A rule set that is no game's (made in code) has no text form: the
        repr then says so in angle brackets.
        """
        text = f"parse_layout({format_one_line(self)!r})"
        standard = GAMES.get(self.rules.game)
        if standard == self.rules:
            return text
        if standard is not None and with_allpass(standard, self.rules.allpass) == self.rules:
            return f"with_conventions({text}, {self.rules.allpass!r})"
        return f"<Layout under rules of its own for {self.rules.game}: {format_one_line(self)}>"


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")
