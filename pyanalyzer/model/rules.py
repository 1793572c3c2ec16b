"""The rules of each game, as data: deck, seats, hand size, contracts, play rules.

>>> PREFERANS_RULES.seats
('S', 'W', 'E')
>>> PREFERANS_RULES.next_seat("E")
'S'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.cards import PREFERANS, THOUSAND, WHIST, Card, Deck, Rank
from pyanalyzer.model.position import HEURISTICS


@dataclass(frozen=True)
class AllPassRules:
    """The all-pass conventions (``docs/rules.md``, "All-pass conventions"; see ``pyanalyzer/preferans/allpass.py``).

    * ``talon``: ``open`` (the talon cards, turned up one at a time, fix the
      suit of the first tricks; the highest card of that suit takes the trick),
      ``beat`` (as ``open``, but only a card above the talon card takes it) or
      ``closed`` (Rostov: the talon stays closed, first hand leads normally);
    * ``four_handed``: the dealer sits out and takes every talon trick no
      player takes (three-handed: nobody takes it);
    * ``aim``: ``fewest`` (each player takes as few tricks as he can) or
      ``fewer_than_each`` (Rostov: fewer tricks than each opponent). The aim
      matters only for the self-interested line, not for the guaranteed minima.
    """

    talon: str = "open"
    four_handed: bool = False
    aim: str = "fewest"

    TALON_CHOICES = ("open", "beat", "closed")
    AIM_CHOICES = ("fewest", "fewer_than_each")

    def __post_init__(self) -> None:
        if self.talon not in self.TALON_CHOICES:
            raise LayoutError(f"unknown all-pass talon rule {self.talon!r}: choose from "
                              f"{', '.join(self.TALON_CHOICES)}", self.talon)
        if self.aim not in self.AIM_CHOICES:
            raise LayoutError(f"unknown all-pass aim {self.aim!r}: choose from "
                              f"{', '.join(self.AIM_CHOICES)}", self.aim)

    @classmethod
    def named(cls, convention: str, four_handed: bool = False) -> AllPassRules:
        """``standard`` (open talon), ``beat-talon`` or ``rostov`` (closed talon, fewer than each)."""
        presets = {"standard": ("open", "fewest"), "beat-talon": ("beat", "fewest"),
                   "rostov": ("closed", "fewer_than_each")}
        if convention not in presets:
            raise LayoutError(f"unknown all-pass convention {convention!r}: choose from "
                              f"{', '.join(presets)}", convention)
        talon, aim = presets[convention]
        return cls(talon=talon, four_handed=four_handed, aim=aim)

    @property
    def talon_must_beat(self) -> bool:
        return self.talon == "beat"

    @property
    def talon_open(self) -> bool:
        return self.talon != "closed"

    @property
    def untaken_talon_tricks(self) -> str:
        """Who takes a talon trick that no player takes: ``dealer`` or ``nobody``."""
        return "dealer" if self.four_handed else "nobody"

    def describe(self) -> str:
        if not self.talon_open:
            text = "Rostov: the talon stays closed, first hand leads; aim: fewer tricks than each opponent"
        else:
            beaten = " above the talon card" if self.talon_must_beat else ""
            nobody = ("the dealer (sitting out) takes it" if self.four_handed
                      else "nobody takes it")
            text = (f"open talon: each talon card fixes the suit of one trick, the highest card{beaten} "
                    f"of that suit takes it; if no card does, {nobody}")
            if self.aim == "fewer_than_each":
                text += "; aim: fewer tricks than each opponent"
        if self.four_handed and not self.talon_open:
            text += " (four-handed: the dealer sits out)"
        return text


@dataclass(frozen=True)
class MarriageRules:
    """Thousand's declarations (``docs/rules.md``, "Thousand"): what a marriage is worth and when it
    may be declared.

    * ``values``: points of the K+Q marriage of each suit, by suit letter (the source's ♠40 ♣60 ♦80 ♥100);
    * ``ace_marriage``: points of the four aces declared together (0: not played; the option is 200):
      leading any ace declares it and makes that ace's suit trump;
    * ``on_first_lead``: the declarer may declare on the deal's first lead (the source: not before
      a player has won a trick).

    >>> MarriageRules().value_of("h"), MarriageRules().describe()
    (100, 'marriages ♠40 ♣60 ♦80 ♥100, declared by a player on lead who has won a trick')
    """

    values: tuple[tuple[str, int], ...] = (("s", 40), ("c", 60), ("d", 80), ("h", 100))
    ace_marriage: int = 0
    on_first_lead: bool = False

    def __post_init__(self) -> None:
        letters = sorted(letter for letter, _points in self.values)
        if letters != sorted("scdh"):
            raise ValueError(f"marriage values must name each suit s c d h once, not {self.values}")
        if any(not 0 < points <= 1000 for _letter, points in self.values) or not 0 <= self.ace_marriage <= 1000:
            raise ValueError(f"marriage values must be 1 to 1000 points, not {self.values}, {self.ace_marriage}")

    def value_of(self, suit_letter: str) -> int:
        return dict(self.values)[suit_letter]

    def describe(self) -> str:
        from pyanalyzer.model.cards import SUITS

        by_suit = " ".join(f"{suit.symbol}{self.value_of(suit.letter)}" for suit in SUITS)
        text = f"marriages {by_suit}"
        if self.ace_marriage:
            text += f", four aces {self.ace_marriage}"
        text += (", declared by a player on lead (also on the first lead)" if self.on_first_lead
                 else ", declared by a player on lead who has won a trick")
        return text


#: How the players form sides: the declarer alone against the others (Preferans), or two
#: partnerships whose tricks count together (Whist).
ALONE, PARTNERSHIPS = "alone", "partnerships"
SIDES = (ALONE, PARTNERSHIPS)
#: A player void in the suit led: must trump if he can (Preferans, Thousand), or may play any card (Whist).
FOLLOW_TRUMP, FOLLOW_ANY = "trump", "any"
FOLLOW_RULES = (FOLLOW_TRUMP, FOLLOW_ANY)
#: What a side plays for: the number of tricks (Preferans, Whist) or the card points in them (Thousand).
TRICKS_OBJECTIVE, CARD_POINTS_OBJECTIVE = "tricks", "card points"
OBJECTIVES = (TRICKS_OBJECTIVE, CARD_POINTS_OBJECTIVE)
#: The engine's game-tuned move ordering and pruning (``Position.heuristics``): ``solo`` is tuned
#: for Preferans (one declarer against two defenders), ``partnership`` for Whist (two
#: partnerships), ``thousand`` for Thousand (card points, declarations), ``plain`` uses none
#: (a game not tuned for yet).
SOLO_HEURISTICS, PARTNERSHIP_HEURISTICS, PLAIN_HEURISTICS = "solo", "partnership", "plain"
THOUSAND_HEURISTICS = "thousand"
#: The games the engine's heuristics were tuned on, by game name. A rule set of any other game
#: gets ``plain`` unless it asks for others (``Rules.heuristics_override``): tuning measured on
#: one game says nothing about another that happens to have as many seats.
TUNED_HEURISTICS = {"preferans": SOLO_HEURISTICS, "whist": PARTNERSHIP_HEURISTICS,
                    "thousand": THOUSAND_HEURISTICS}


class PositionTerms(NamedTuple):
    """What :attr:`Rules.position_terms` holds: a rule set's constant part of a position."""

    suit_masks: tuple[int, ...]
    must_trump: bool
    talon_must_beat: bool
    card_points: tuple[int, ...]
    marriages: tuple[tuple[int, int], ...]
    heuristics: str
    #: The ``declarer_side`` flags of each seat's side, by seat.
    declarer_side: dict[str, tuple[bool, ...]]


#: :attr:`Rules.position_terms` by rule set, kept apart from the frozen rules (their ``__dict__``
#: holds their fields only); a few rule sets are in use at a time.
_POSITION_TERMS: dict[int, tuple[Rules, PositionTerms]] = {}
_POSITION_TERMS_KEPT = 64


@dataclass(frozen=True)
class Rules:
    """What a layout of one game may contain and how its tricks are played.

    A rule set declares its game: the sides, the follow rule, the objective, whether a
    contract is bid, and (through the game's name) which engine heuristics apply. Nothing is
    inferred from the number of seats.
    """

    game: str
    deck: Deck
    #: Seats in play order: each trick goes seats[i] -> seats[i + 1] -> ...
    seats: tuple[str, ...]
    hand_size: int
    talon_size: int
    discard_size: int
    contract_levels: tuple[int, ...]
    #: A player void in the suit led: ``trump`` (must trump if he can) or ``any`` (any card).
    follow: str
    #: ``alone`` (the declarer against the others) or ``partnerships`` (see ``partnerships``).
    sides: str
    #: ``tricks`` or ``card points``: what the declarer's side counts.
    objective: str = TRICKS_OBJECTIVE
    #: Players bid for the contract, so a trick contract names its level (Preferans). Without
    #: bidding (Whist) a contract may name just its trump, and a level is optional.
    bidding: bool = True
    seat_names: tuple[tuple[str, str], ...] = ()
    #: The partnerships of a ``partnerships`` game (Whist: N-S and E-W).
    partnerships: tuple[tuple[str, ...], ...] = ()
    #: Tricks a side takes before its contract level counts (Whist: six, the book).
    book: int = 0
    #: How all-pass is played (Preferans).
    allpass: AllPassRules = AllPassRules()
    #: The engine heuristics this rule set asks for instead of those tuned for its game
    #: (``TUNED_HEURISTICS``); None: the game's own, ``plain`` for a game none is tuned for.
    heuristics_override: str | None = None
    #: Card points by rank, lowest rank first (a ``card points`` game: Thousand's 9 J Q K 10 A = 0 2 3 4 10 11).
    rank_points: tuple[int, ...] = ()
    #: The declarations of a game that has them (Thousand's marriages); None: none.
    marriages: MarriageRules | None = None
    #: A ``card points`` game's bids: lowest, step, and the highest without a marriage in hand.
    bid_range: tuple[int, int, int] = ()

    def __post_init__(self) -> None:
        for name, value, choices in (("follow rule", self.follow, FOLLOW_RULES),
                                     ("sides", self.sides, SIDES),
                                     ("objective", self.objective, OBJECTIVES)):
            if value not in choices:
                raise ValueError(f"unknown {name} {value!r}: choose from {', '.join(choices)}")
        if self.heuristics_override is not None and self.heuristics_override not in HEURISTICS:
            raise ValueError(f"unknown heuristics {self.heuristics_override!r}: choose from "
                             f"{', '.join(HEURISTICS)}")
        if (self.objective == CARD_POINTS_OBJECTIVE) != bool(self.rank_points):
            raise ValueError(f"{self.game}: a card points game gives the points of each rank, "
                             "and only a card points game does")
        if self.rank_points and len(self.rank_points) != len(self.deck.ranks):
            raise ValueError(f"{self.game}: {len(self.rank_points)} rank points for "
                             f"{len(self.deck.ranks)} ranks")
        if (self.sides == PARTNERSHIPS) != bool(self.partnerships):
            raise ValueError(f"{self.game}: a partnerships game names its partnerships, "
                             "and only a partnerships game does")
        if self.partnerships and sorted(s for side in self.partnerships for s in side) != sorted(self.seats):
            raise ValueError(f"{self.game}: the partnerships {self.partnerships} do not "
                             f"cover the seats {self.seats} once each")

    @property
    def must_trump(self) -> bool:
        """A player void in the suit led must trump if he can (the ``trump`` follow rule)."""
        return self.follow == FOLLOW_TRUMP

    @property
    def rank_order(self) -> tuple[Rank, ...]:
        """The ranks of the deck from the highest to the lowest in play.

        >>> "".join(rank.letter for rank in PREFERANS_RULES.rank_order)
        'AKQJT987'
        """
        return tuple(reversed(self.deck.ranks))

    @property
    def heuristics(self) -> str:
        """Which game-tuned engine heuristics apply: ``solo``, ``partnership``, ``thousand`` or
        ``plain``.

        >>> PREFERANS_RULES.heuristics, WHIST_RULES.heuristics, THOUSAND_RULES.heuristics
        ('solo', 'partnership', 'thousand')
        >>> replace(PREFERANS_RULES, game="kitty").heuristics
        'plain'
        """
        if self.heuristics_override is not None:
            return self.heuristics_override
        return TUNED_HEURISTICS.get(self.game, PLAIN_HEURISTICS)

    @property
    def counts_points(self) -> bool:
        """True if a trick is worth its card points (Thousand), not 1."""
        return self.objective == CARD_POINTS_OBJECTIVE

    def card_points_of(self, card: Card) -> int:
        """The points ``card`` is worth in a trick (0 in a trick game).

        >>> THOUSAND_RULES.card_points_of(Card("Ts", THOUSAND)), sum(map(THOUSAND_RULES.card_points_of, THOUSAND))
        (10, 120)
        """
        return self.rank_points[card.rank_number] if self.rank_points else 0

    def card_points(self) -> tuple[int, ...]:
        """The points of every card number of the deck (the Position's ``card_points``); () in a trick game."""
        return tuple(self.card_points_of(card) for card in self.deck) if self.rank_points else ()

    @property
    def position_terms(self) -> PositionTerms:
        """The parts of every :class:`~pyanalyzer.model.position.Position` of these rules that no
        layout changes (worked out once per rule set: a batch builds a position per line)."""
        known = _POSITION_TERMS.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        if len(_POSITION_TERMS) >= _POSITION_TERMS_KEPT:
            _POSITION_TERMS.clear()
        terms = self._position_terms()
        _POSITION_TERMS[id(self)] = (self, terms)   # (the rules kept alive: their id stays theirs)
        return terms

    def _position_terms(self) -> PositionTerms:
        deck = self.deck
        return PositionTerms(
            suit_masks=tuple(deck.suit_mask(i) for i in range(len(deck.suits))),
            must_trump=self.must_trump,
            talon_must_beat=self.allpass.talon_must_beat,
            card_points=self.card_points(),
            marriages=self.declarations(),
            heuristics=self.heuristics,
            declarer_side={seat: tuple(s in self.side_of(seat) for s in self.seats) for seat in self.seats},
        )

    def declarations(self) -> tuple[tuple[int, int], ...]:
        """The declarations of the Position: ``(mask of the cards, points)``; a player on lead who
        may declare and holds all the cards may lead any of them declaring.

        >>> [(bin(mask), points) for mask, points in THOUSAND_RULES.declarations()][:1]
        [('0b1100', 40)]
        """
        marriages = self.marriages
        if marriages is None:
            return ()
        deck = self.deck
        entries = [(deck.card("K", suit.letter).mask | deck.card("Q", suit.letter).mask,
                    marriages.value_of(suit.letter)) for suit in deck.suits]
        if marriages.ace_marriage:
            aces = 0
            for suit in deck.suits:
                aces |= deck.card("A", suit.letter).mask
            entries.append((aces, marriages.ace_marriage))
        return tuple(entries)

    def bid_levels(self, marriages_in_hand: int | None = None) -> tuple[int, ...]:
        """The bids of a card points game, lowest first; with ``marriages_in_hand`` (their points),
        only those the bidding rule allows: above the no-marriage limit only with a marriage, and never
        above that limit plus the marriages (docs/rules.md, "Thousand").

        >>> THOUSAND_RULES.bid_levels(0)[-1], THOUSAND_RULES.bid_levels(60)[-1]
        (120, 180)
        """
        if not self.bid_range:
            return ()
        low, step, plain_limit = self.bid_range
        top = self.max_bid if marriages_in_hand is None else plain_limit + marriages_in_hand
        return tuple(range(low, top + 1, step))

    def check_bid(self, bid: int | None, what: str = "bid") -> None:
        """Refuse a bid this game does not have (``what`` names it in the message: ``--bid``).

        >>> THOUSAND_RULES.check_bid(123)
        Traceback (most recent call last):
        ...
        pyanalyzer.errors.LayoutError: bad bid 123: bids go from 100 in steps of 5 up to 400
        """
        if bid is not None and bid not in self.bid_levels():
            low, step, _plain = self.bid_range
            raise LayoutError(f"bad {what} {bid}: bids go from {low} in steps of {step} up to "
                              f"{self.max_bid}", str(bid))

    @property
    def max_bid(self) -> int:
        """The highest bid there can be: the cards' points plus every declaration."""
        if not self.bid_range:
            return 0
        return sum(self.card_points()) + sum(points for _mask, points in self.declarations())

    @property
    def has_partnerships(self) -> bool:
        return self.sides == PARTNERSHIPS

    def seat(self, text: str) -> str:
        """The seat named by ``text`` (case-insensitive), or a LayoutError naming it."""
        name = text.strip().upper()
        if name in self.seats:
            return name
        raise LayoutError(
            f"unknown seat {shorten(text)!r}: {self.game} seats are {', '.join(self.seats)}", text
        )

    def seat_number(self, seat: str) -> int:
        return self.seats.index(seat)

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def seat_name(self, seat: str) -> str:
        for known, name in self.seat_names:
            if known == seat:
                return name
        return seat

    def side_of(self, seat: str) -> tuple[str, ...]:
        """The seats playing together with ``seat`` (itself included), in play order."""
        return next((side for side in self.partnerships if seat in side), (seat,))

    def side_name(self, seat: str) -> str:
        """``South`` alone, or ``North-South`` for a partnership."""
        return "-".join([self.seat_name(s) for s in self.side_of(seat)])


PREFERANS_RULES = Rules(
    game="preferans",
    deck=PREFERANS,
    seats=("S", "W", "E"),
    hand_size=10,
    talon_size=2,
    discard_size=2,
    contract_levels=(6, 7, 8, 9, 10),
    follow=FOLLOW_TRUMP,
    sides=ALONE,
    objective=TRICKS_OBJECTIVE,
    bidding=True,
    seat_names=(("S", "South"), ("W", "West"), ("E", "East")),
)

#: Whist: four seats, partners opposite; follow suit, else any card. There is no
#: bidding: a layout's contract is its trump (``s``, ``nt``) and the declarer any
#: seat of the side whose tricks are counted; levels 1-7 mean six (the book) + n.
WHIST_RULES = Rules(
    game="whist",
    deck=WHIST,
    seats=("N", "E", "S", "W"),
    hand_size=13,
    talon_size=0,
    discard_size=0,
    contract_levels=(1, 2, 3, 4, 5, 6, 7),
    follow=FOLLOW_ANY,
    sides=PARTNERSHIPS,
    objective=TRICKS_OBJECTIVE,
    bidding=False,
    seat_names=(("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")),
    partnerships=(("N", "S"), ("E", "W")),
    book=6,
)


#: Thousand: 24 cards (A 10 K Q J 9), three players, 8 cards each after the exchange; follow
#: suit, else trump, else any card; the declarer plays for the card points of his tricks plus
#: the marriages he declares (which change the trump). Bids go in fives from 100.
THOUSAND_RULES = Rules(
    game="thousand",
    deck=THOUSAND,
    seats=("S", "W", "E"),
    hand_size=8,
    talon_size=3,
    discard_size=2,
    contract_levels=(),
    follow=FOLLOW_TRUMP,
    sides=ALONE,
    objective=CARD_POINTS_OBJECTIVE,
    bidding=True,
    seat_names=(("S", "South"), ("W", "West"), ("E", "East")),
    rank_points=(0, 2, 3, 4, 10, 11),
    marriages=MarriageRules(),
    bid_range=(100, 5, 120),
)


def with_marriage_rules(rules: Rules, marriages: MarriageRules) -> Rules:
    """``rules`` with the declaration options ``marriages`` (Thousand)."""
    return replace(rules, marriages=marriages)


def with_allpass(rules: Rules, allpass: AllPassRules) -> Rules:
    """``rules`` with the all-pass conventions ``allpass``."""
    return replace(rules, allpass=allpass)


GAMES = {rules.game: rules for rules in (PREFERANS_RULES, WHIST_RULES, THOUSAND_RULES)}


def rules_for(game: str) -> Rules:
    """The rules of the game named ``game`` (``preferans``, ``whist``, ``thousand``)."""
    try:
        return GAMES[game.strip().lower()]
    except KeyError:
        raise LayoutError(
            f"unknown game {game!r}: supported games are {', '.join(GAMES)}", game
        ) from None
