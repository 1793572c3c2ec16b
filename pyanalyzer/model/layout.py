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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from pyanalyzer.errors import DuplicateCardError, IllegalPlayError, LayoutError
from pyanalyzer.model.cards import Card, Suit
from pyanalyzer.model.contract import Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout_format import format_one_line
from pyanalyzer.model.move import Move
from pyanalyzer.model.play import TrickRules
from pyanalyzer.model.position import Position
from pyanalyzer.model.rules import GAMES, PREFERANS_RULES, MarriageRules, Rules, with_allpass, with_marriage_rules

#: Draws a layout as SVG for notebooks. The renderer (``pyanalyzer.render.svg``) is a later stage,
#: which the model may not import: it registers itself here when it is imported (the package's
#: public names and every analyzer import it).
_svg_drawer: Callable[[Layout], str] | None = None


def draw_layouts_with(drawer: Callable[[Layout], str]) -> None:
    """Make ``drawer`` draw layouts in notebooks (``Layout._repr_svg_``)."""
    global _svg_drawer
    _svg_drawer = drawer


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
    # -- a card points game's state (Thousand); empty in the trick games ----------
    #: The trump now (a declared marriage changes it); None: no trump yet.
    current_trump: Suit | None = None
    #: The seats that have already won a trick this deal (the leader may then declare).
    won: frozenset[str] = frozenset()
    #: Points each seat has already scored this deal (cards and marriages), by seat.
    scored: Mapping[str, int] = field(default_factory=dict)
    #: The card the declarer gave each opponent in the exchange (now in that opponent's hand).
    gave: Mapping[str, Card] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", MappingProxyType(dict(self.hands)))
        object.__setattr__(self, "talon", tuple(self.talon))
        object.__setattr__(self, "discard", tuple(self.discard))
        object.__setattr__(self, "played", tuple(self.played))
        object.__setattr__(self, "won", frozenset(self.won))
        object.__setattr__(self, "scored", MappingProxyType(dict(self.scored)))
        object.__setattr__(self, "gave", MappingProxyType(dict(self.gave)))
        self._check_seats()
        self._check_points_state()
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
        if self.contract.is_points != rules.counts_points:
            if rules.counts_points:
                raise LayoutError(f"a {rules.game} layout names a bid (bid=120), not the contract "
                                  f"{self.contract}", self.contract.code)
            raise LayoutError(f"a {rules.game} layout names a trick contract, misère or all-pass, "
                              f"not {self.contract}", self.contract.code)
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

    def _check_points_state(self) -> None:
        """The trump now, the seats that won a trick, the points scored and the cards given
        belong to a card points game (Thousand), and name its seats and cards."""
        rules = self.rules
        if not rules.counts_points:
            for key, value in (("trump", self.current_trump), ("won", self.won),
                               ("points", self.scored), ("gave", self.gave)):
                if value:
                    raise LayoutError(f"{key}= belongs to a card points game (Thousand), not "
                                      f"{rules.game}", key)
            return
        if self.current_trump is not None and self.current_trump not in rules.deck.suits:
            raise LayoutError(f"unknown trump {self.current_trump}", "trump")
        for seat in self.won:
            rules.seat(seat)
        for seat, points in self.scored.items():
            rules.seat(seat)
            if not 0 <= points <= rules.max_bid:
                raise LayoutError(f"points {seat}:{points} out of range: a seat scores 0 to "
                                  f"{rules.max_bid} in a deal", f"{seat}:{points}")
        for seat, card in self.gave.items():
            rules.seat(seat)
            if seat == self.declarer:
                raise LayoutError(f"gave {seat}:{card.code}: the declarer gives a card to each "
                                  "opponent, not to himself", f"{seat}:{card.code}")
            # Once played the card is gone; while it is held, the receiver holds it.
            holder = next((s for s, hand in self.hands.items() if card in hand), seat)
            if holder != seat:
                raise LayoutError(f"gave {seat}:{card.code}: {card.code} is in {holder}'s hand, "
                                  f"not {seat}'s", card.code)
        rules.check_bid(self.contract.bid)

    def _check_cards_unique(self) -> None:
        if not self.talon and self._cards_disjoint():   # (the common case: nothing to name)
            self._check_card_counts()
            return
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
            if owner is not None and owner not in (self.declarer, "discard") and not (
                    self.gave.get(owner) == card):
                raise DuplicateCardError(
                    f"card {card.code!r} is in both the talon and {owner}", card.code
                )

        self._check_card_counts()

    def _cards_disjoint(self) -> bool:
        """No card twice among the hands, the played cards and the discard (one test on the masks)."""
        union = count = 0
        for hand in self.hands.values():
            union |= hand.mask
            count += len(hand)
        for card in self.played + self.discard:
            union |= card.mask
            count += 1
        return union.bit_count() == count

    def _check_card_counts(self) -> None:
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
    def trump(self) -> Suit | None:
        """The trump now: the contract's (trick games), or the last declared marriage's (Thousand)."""
        return self.current_trump if self.rules.counts_points else self.contract.trump

    @property
    def trump_number(self) -> int | None:
        """The trump suit's number in the deck, or None (no-trump, misère, all-pass, no trump yet)."""
        trump = self.trump
        return None if trump is None else self.rules.deck.suit_index(trump)

    @property
    def exchange_pending(self) -> bool:
        """A card points game written before the exchange: the declarer's hand without the talon,
        which is in nobody's hand, and nothing given yet (Thousand: 7 cards each and 3 in the talon)."""
        if not self.rules.counts_points or not self.talon or self.gave or self.played:
            return False
        held = set().union(*(set(hand) for hand in self.hands.values()))
        return not held & set(self.talon)

    @property
    def may_declare(self) -> bool:
        """Whether the player on lead may declare now: at a trick boundary, having won a trick
        this deal (or on any lead, where the rules allow it on the first)."""
        return not self.played and self._leader_may_declare

    @property
    def _leader_may_declare(self) -> bool:
        """Whether this trick's leader has the right to declare: he has won a trick this deal, or
        the rules allow it on the first lead (the Position's ``leader_may_declare``)."""
        marriages = self.rules.marriages
        return marriages is not None and (self.lead in self.won or marriages.on_first_lead)

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

    @cached_property
    def tricks_left(self) -> int:   # (asked many times per solve: counted once, the layout is immutable)
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
        if self.exchange_pending:
            raise LayoutError("the exchange is still to be made: the declarer's hand is written without "
                              "the talon; add gave=W:<card>,E:<card> (or use pref thousand to rank the "
                              "exchanges)", "gave")
        if counted is None:
            raise LayoutError("all-pass: name the seat whose tricks are counted", "side")
        return position_of(self.rules, tuple(self.hands[s].mask for s in seats), self.trump_number,
                           seats.index(self.lead), tuple(c.index for c in self.played), counted,
                           self.contract.kind, tuple(c.index for c in self.talon_tricks),
                           self._leader_may_declare)

    def trick_rules(self) -> TrickRules:
        """How this layout's tricks are played (the model's one statement of the trick rules)."""
        return TrickRules(
            suit_masks=self.rules.position_terms.suit_masks,
            trump=self.trump_number,
            must_trump=self.rules.must_trump,
            talon_leads=tuple(c.index for c in self.talon_tricks),
            talon_must_beat=self.rules.allpass.talon_must_beat,
            card_points=self.rules.position_terms.card_points,
            marriages=self.rules.position_terms.marriages,
        )

    def _talon_card(self) -> int | None:
        """The talon card that fixes the suit of the current trick (all-pass), or None."""
        return self.talon_tricks[0].index if self.talon_tricks else None

    @property
    def led_suit(self) -> int | None:
        """The suit number the current trick must follow (a talon card's suit in all-pass)."""
        if self.talon_tricks:
            return self.talon_tricks[0].suit_number
        return self.played[0].suit_number if self.played else None

    def after(self, card: Card, declare: bool = False) -> Layout:
        """The layout after the player to move plays ``card`` (which must be legal); with
        ``declare`` (Thousand) he leads it declaring its marriage: his side scores it and its suit
        is trump from this trick on. A completed trick's card points go to its winner."""
        seat = self.to_move
        hands = dict(self.hands)
        if card not in hands[seat]:
            raise IllegalPlayError(f"card {card.code!r} is not in {seat}'s hand", card.code)
        if card not in self.legal_cards():
            raise IllegalPlayError(f"illegal card {card.code!r}: {seat} must follow suit or trump",
                                   card.code)
        trump, scored, won = self.current_trump, dict(self.scored), set(self.won)
        if declare:
            declared = self.declaration(Move(card, True))
            trump = self.rules.deck.suits[declared[0]]
            scored[seat] = scored.get(seat, 0) + declared[1]
        hands[seat] = hands[seat].without(card)
        played, lead, talon = self.played + (card,), self.lead, self.talon
        if len(played) == len(self.rules.seats):
            if self.talon_tricks:  # the same player plays first again; one talon card is used
                talon = talon[1:]
            else:
                lead = self.trick_winner(played, trump)
                if self.rules.counts_points:
                    won.add(lead)
                    points = sum(self.rules.card_points_of(c) for c in played)
                    scored[lead] = scored.get(lead, 0) + points
            played = ()
        return Layout(hands, self.contract, self.declarer, lead, talon, self.discard,
                      played, self.title, self.source, self.rules, trump, frozenset(won),
                      scored, self.gave)

    def play(self, move: Move) -> Layout:
        """The layout after ``move`` (a card, or a declaring lead)."""
        return self.after(move.card, move.declare)

    def declaration(self, move: Move) -> tuple[int, int]:
        """``(suit number, points)`` a declaring lead ``move`` declares, or an IllegalPlayError
        naming it when the player to move may not declare with it now."""
        seat = self.to_move
        code = move.card.code + "+"
        if self.rules.marriages is None:
            raise IllegalPlayError(f"illegal {code!r}: {self.rules.game} has no declarations", code)
        if self.played:
            raise IllegalPlayError(f"illegal {code!r}: only a lead declares a marriage", code)
        if not self.may_declare:
            raise IllegalPlayError(f"illegal {code!r}: {seat} has not won a trick yet and may not "
                                   "declare a marriage", code)
        hand = self.hands[seat].mask
        if move.engine_move not in self.trick_rules().moves(hand, (), may_declare=True):
            raise IllegalPlayError(f"illegal {code!r}: {seat} does not hold the whole marriage "
                                   f"of {move.card.code}", code)
        return self.trick_rules().declaration(move.engine_move)

    def moves(self) -> list[Move]:
        """The legal moves of the player to move in display order: each legal card, and (a leader
        who may declare) each declaring lead right after its card."""
        hand = self.hands[self.to_move].mask
        engine_moves = self.trick_rules().moves(hand, [c.index for c in self.played],
                                                may_declare=self.may_declare,
                                                talon_card=self._talon_card())
        return sorted((Move.from_engine(self.rules.deck, m) for m in engine_moves),
                      key=lambda move: move.display_key)

    def trick_winner(self, trick: Sequence[Card], declared_trump: Suit | None = None) -> str | None:
        """The seat that wins ``trick``, a full trick led by this layout's ``lead``; with
        ``declared_trump``, under the trump a marriage declared on its lead made.

        In a talon trick of all-pass the highest card of the talon card's suit
        wins (with the ``beat`` convention, only one above the talon card); if
        none does, no player takes the trick (None).
        """
        seats = self.rules.seats
        trump = self.trump_number if declared_trump is None else self.rules.deck.suit_index(declared_trump)
        # Counted from the leader (seat 0 of the trick), then placed at the table.
        place = self.trick_rules().trick_winner(0, [c.index for c in trick], self._talon_card(), trump=trump)
        return None if place is None else seats[(seats.index(self.lead) + place) % len(seats)]

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, in display order."""
        hand = self.hands[self.to_move]
        legal = self.trick_rules().legal_moves(hand.mask, [c.index for c in self.played],
                                               self._talon_card())
        return [card for card in hand if legal >> card.index & 1]

    def _repr_svg_(self) -> str | None:
        """The diagram as SVG, for Jupyter and IPython (None: no renderer loaded, the repr is shown)."""
        return None if _svg_drawer is None else _svg_drawer(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return (dict(self.hands), self.contract, self.declarer, self.lead, self.talon,
                self.discard, self.played, self.title, self.source, self.rules) == (
            dict(other.hands), other.contract, other.declarer, other.lead, other.talon,
            other.discard, other.played, other.title, other.source, other.rules) and (
            self.current_trump, self.won, dict(self.scored), dict(self.gave)) == (
            other.current_trump, other.won, dict(other.scored), dict(other.gave))

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
        if standard is not None and replace(standard, marriages=self.rules.marriages) == self.rules:
            return f"with_marriages({text}, {self.rules.marriages!r})"
        return f"<Layout under rules of its own for {self.rules.game}: {format_one_line(self)}>"


def position_of(rules: Rules, hands: tuple[int, ...], trump: int | None, leader: int, played: tuple[int, ...],
                counted: str, kind: str, talon_leads: tuple[int, ...] = (),
                leader_may_declare: bool = False) -> Position:
    """The :class:`Position` of a layout of ``rules`` from its parts (:meth:`Layout.position`):
    ``hands`` the masks in seat order, ``trump`` the suit number now, ``leader`` the leader's seat
    number, ``played`` the current trick's card numbers, ``counted`` the seat whose side is counted,
    ``kind`` the contract's kind, ``talon_leads`` (all-pass) the talon cards still to lead a trick."""
    terms = rules.position_terms
    # The fields in their order, by position (a batch builds a position per line: matching fourteen
    # keywords cost more than the rest of the call).
    return Position(
        hands,
        terms.suit_masks,
        trump,
        terms.must_trump,
        leader,
        played,
        terms.declarer_side[counted],
        kind in ("tricks", "points"),   # maximize
        talon_leads,
        terms.talon_must_beat,
        terms.card_points,
        terms.marriages,
        # At a trick boundary: may this leader declare? (After a trick the winner always may.)
        leader_may_declare,
        terms.heuristics,
    )


def with_marriages(layout: Layout, marriages: MarriageRules) -> Layout:
    """``layout`` played under the declaration options ``marriages`` (Thousand)."""
    return replace(layout, rules=with_marriage_rules(layout.rules, marriages))


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")
