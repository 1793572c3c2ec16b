"""Cards, suits and ranks, parameterised by the deck of each game.

A :class:`Deck` fixes the suits and the ranks in trick-taking order (lowest
first). A :class:`Card` is a (suit, rank) pair of one deck; its ``index``
(``suit * len(ranks) + rank``) is the bit the engine uses, so that inside a
suit a higher bit is a higher card.

>>> card = PREFERANS.card("Q", "s")
>>> card, card.index
(Card('Qs'), 5)
>>> str(card)
'♠Q'
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Suit:
    """A suit: its letter (``s c d h``), symbol and English name."""

    letter: str
    symbol: str
    name: str

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Suit({self.letter!r})"


SPADES = Suit("s", "♠", "spades")
CLUBS = Suit("c", "♣", "clubs")
DIAMONDS = Suit("d", "♦", "diamonds")
HEARTS = Suit("h", "♥", "hearts")
#: Suits in the Preferans order of seniority (♠ < ♣ < ♦ < ♥), used for display too.
SUITS = (SPADES, CLUBS, DIAMONDS, HEARTS)


@dataclass(frozen=True)
class Rank:
    """A rank: its short ASCII letter (``T`` for ten), its display text and Russian letter."""

    letter: str
    text: str
    russian: str | None = None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Rank({self.letter!r})"


NINE = Rank("9", "9")
TEN = Rank("T", "10")
JACK = Rank("J", "J", "В")
QUEEN = Rank("Q", "Q", "Д")
KING = Rank("K", "K", "К")
ACE = Rank("A", "A", "Т")
LOW_RANKS = tuple(Rank(str(n), str(n)) for n in range(2, 9))


@dataclass(frozen=True)
class Deck:
    """The cards of one game: suits, and ranks from lowest to highest in play."""

    name: str
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    #: Suit numbers in the order hands and diagrams show them (default: ``suits``' order).
    display_order: tuple[int, ...] = ()
    _cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(Card(self, s, r) for s in range(len(self.suits)) for r in range(len(self.ranks)))
        object.__setattr__(self, "_cards", cards)
        order = self.display_order or tuple(range(len(self.suits)))
        if sorted(order) != list(range(len(self.suits))):
            raise ValueError(f"display_order {order} is not an order of the {len(self.suits)} suits")
        object.__setattr__(self, "display_order", order)

    def display_suits(self) -> list[tuple[int, Suit]]:
        """(suit number, suit) in display order.

        >>> [suit.symbol for _, suit in WHIST.display_suits()]
        ['♠', '♥', '♦', '♣']
        """
        return [(number, self.suits[number]) for number in self.display_order]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self):
        return iter(self._cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r})"

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    def card(self, rank: str, suit: str) -> Card:
        """The card with rank letter ``rank`` and suit letter ``suit`` (ASCII, as in ``Card.code``)."""
        s = next((i for i, x in enumerate(self.suits) if x.letter == suit.lower()), None)
        r = next((i for i, x in enumerate(self.ranks) if x.letter == rank.upper()), None)
        if s is None or r is None:
            raise ValueError(f"no card {rank}{suit} in the {self.name} deck")
        return self._cards[s * len(self.ranks) + r]

    def from_index(self, index: int) -> Card:
        return self._cards[index]

    def suit_mask(self, suit: int) -> int:
        """The engine's bit mask of all cards of suit number ``suit``."""
        width = len(self.ranks)
        return ((1 << width) - 1) << (suit * width)

    def suit_index(self, suit: Suit) -> int:
        return self.suits.index(suit)

    def __reduce__(self):
        # A game's deck is one object: pickling (e.g. to a worker process) names it, and
        # unpickling looks the same object up, so its cards still compare equal.
        if DECKS.get(self.name) is self:
            return (deck_named, (self.name,))
        return (Deck, (self.name, self.suits, self.ranks, self.display_order))


@dataclass(frozen=True, eq=False)
class Card:
    """One card of a deck. Cards compare by deck order: suit, then rank."""

    deck: Deck = field(repr=False)
    suit_number: int
    rank_number: int

    @property
    def suit(self) -> Suit:
        return self.deck.suits[self.suit_number]

    @property
    def rank(self) -> Rank:
        return self.deck.ranks[self.rank_number]

    @property
    def index(self) -> int:
        """The card's bit in the engine's masks."""
        return self.suit_number * len(self.deck.ranks) + self.rank_number

    @property
    def mask(self) -> int:
        return 1 << self.index

    @property
    def display_key(self) -> tuple[int, int]:
        """Sort key for showing cards: suits in the deck's display order, high cards first."""
        return self.deck.display_order.index(self.suit_number), -self.rank_number

    @property
    def code(self) -> str:
        """Compact ASCII notation: rank letter then suit letter, e.g. ``Td``."""
        return self.rank.letter + self.suit.letter

    def __str__(self) -> str:
        return self.suit.symbol + self.rank.text

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index and (
            self.deck is other.deck or self.deck.name == other.deck.name)

    def __reduce__(self):
        # By value: the deck (looked up by name, see Deck.__reduce__) and the card's index.
        return (_card_of, (self.deck, self.index))

    def __hash__(self) -> int:
        return hash((self.deck.name, self.index))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


PREFERANS = Deck(
    "preferans",
    SUITS,
    tuple(Rank(str(n), str(n)) for n in (7, 8, 9)) + (TEN, JACK, QUEEN, KING, ACE),
)
#: Whist players (as bridge players) show the suits ♠ ♥ ♦ ♣, the order of PBN and DDS.
WHIST = Deck("whist", SUITS, LOW_RANKS + (NINE, TEN, JACK, QUEEN, KING, ACE),
             display_order=(0, 3, 2, 1))
#: Thousand ranks its ten second only to the ace.
THOUSAND = Deck("thousand", SUITS, (NINE, JACK, QUEEN, KING, TEN, ACE))

DECKS = {deck.name: deck for deck in (PREFERANS, WHIST, THOUSAND)}


def deck_named(name: str) -> Deck:
    """The game's deck called ``name`` (``preferans``, ``whist``, ``thousand``)."""
    return DECKS[name]


def _card_of(deck: Deck, index: int) -> Card:
    """The card with engine index ``index`` of ``deck`` (how a pickled card comes back)."""
    return deck.from_index(index)
