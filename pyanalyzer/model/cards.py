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

#: The four suits' symbols and English names, by letter.
_SUIT_FACES = {"s": ("♠", "spades"), "c": ("♣", "clubs"), "d": ("♦", "diamonds"), "h": ("♥", "hearts")}
#: The outline symbols read as the suits too (``pyanalyzer.model.notation.SUIT_SYMBOLS``).
_SUIT_SYMBOL_VARIANTS = {"s": ("♤",), "c": ("♧",), "d": ("♢",), "h": ("♡",)}


@dataclass(frozen=True)
class Suit:
    """A suit: its letter (``s c d h``), symbol and English name.

    ``Suit('s')`` fills in the symbol and name of one of the four suits (its repr).
    """

    letter: str
    symbol: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if not self.symbol and not self.name:
            if self.letter not in _SUIT_FACES:
                raise ValueError(f"no suit {self.letter!r}: the suits are {', '.join(_SUIT_FACES)}")
            symbol, name = _SUIT_FACES[self.letter]
            object.__setattr__(self, "symbol", symbol)
            object.__setattr__(self, "name", name)

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Suit({self.letter!r})"


SPADES, CLUBS, DIAMONDS, HEARTS = (Suit(letter) for letter in "scdh")
#: Suits in the Preferans order of seniority (♠ < ♣ < ♦ < ♥), used for display too.
SUITS = (SPADES, CLUBS, DIAMONDS, HEARTS)


#: The Russian letters of the court cards and the ace (``В Д К Т``), by rank letter.
_RUSSIAN_LETTERS = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}


@dataclass(frozen=True)
class Rank:
    """A rank: its short ASCII letter (``T`` for ten), its display text and Russian letter.

    ``Rank('T')`` fills in the display text (``10``) and the Russian letter (its repr).
    """

    letter: str
    text: str = ""
    russian: str | None = None

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", "10" if self.letter == "T" else self.letter)
            object.__setattr__(self, "russian", _RUSSIAN_LETTERS.get(self.letter))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Rank({self.letter!r})"


NINE, TEN, JACK, QUEEN, KING, ACE = (Rank(letter) for letter in "9TJQKA")
LOW_RANKS = tuple(Rank(str(n)) for n in range(2, 9))


class _SuitCodes(dict):
    """The codes of a suit's cards, high cards first, comma-separated, by the suit's bits (lowest
    rank the lowest bit); each made when first asked for."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        super().__init__({0: ""})
        self.cards = cards

    def __missing__(self, bits: int) -> str:
        codes = self[bits] = ",".join([card.code for rank, card in reversed(list(enumerate(self.cards)))
                                       if bits >> rank & 1])
        return codes


@dataclass(frozen=True)
class Deck:
    """The cards of one game: suits, and ranks from lowest to highest in play."""

    name: str
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    #: Suit numbers in the order hands and diagrams show them (default: ``suits``' order).
    display_order: tuple[int, ...] = ()
    _cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    #: Each card by every spelling of the rank-then-suit form (``Td``, ``td``, ``10d``, ``TD``,
    #: ``T♦``): the common case of :func:`pyanalyzer.model.notation.parse_cards`, looked up
    #: (any other text, which that function reads too, is not here).
    by_spelling: dict[str, Card] = field(init=False, repr=False, compare=False)
    #: :meth:`compact`'s suits in display order: ``(the suit's lowest bit, its cards' codes by the
    #: suit's bits)``, the codes filled as they are met.
    _suit_codes: tuple[tuple[int, _SuitCodes], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        order = self.display_order or tuple(range(len(self.suits)))
        if sorted(order) != list(range(len(self.suits))):
            raise ValueError(f"display_order {order} is not an order of the {len(self.suits)} suits")
        object.__setattr__(self, "display_order", order)
        cards = tuple(Card._of(self, s, r) for s in range(len(self.suits)) for r in range(len(self.ranks)))
        object.__setattr__(self, "_cards", cards)
        spellings: dict[str, Card] = {}
        for card in cards:
            rank, suit = card.rank.letter, card.suit
            ranks = {rank, rank.lower()} | ({"10"} if rank == "T" else set())
            suits = {suit.letter.lower(), suit.letter.upper(), suit.symbol,
                     *_SUIT_SYMBOL_VARIANTS.get(suit.letter, ())}
            for rank_text in ranks:
                for suit_text in suits:
                    spellings[rank_text + suit_text] = card
        object.__setattr__(self, "by_spelling", spellings)
        width = len(self.ranks)
        object.__setattr__(self, "_suit_codes", tuple((suit * width, _SuitCodes(cards[suit * width:(suit + 1) * width]))
                                                      for suit in order))

    def compact(self, mask: int) -> str:
        """The cards of ``mask`` as their codes in display order (suits in the display order,
        high cards first), comma-separated; ``-`` for none (``Hand.compact``).

        >>> PREFERANS.compact(PREFERANS.card("T", "d").mask | PREFERANS.card("A", "s").mask | 1)
        'As,7s,Td'
        """
        full = (1 << len(self.ranks)) - 1
        return ",".join([codes for shift, known in self._suit_codes if (codes := known[mask >> shift & full])]) or "-"

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


@dataclass(frozen=True, eq=False, init=False)
class Card:
    """One card of a deck. Cards compare by deck order: suit, then rank.

    ``Card('Qs')`` is the Preferans queen of spades, ``Card('2h', WHIST)`` a card of another
    deck (the ASCII ``code``, as the repr writes it); each deck holds its cards once, and
    these are they. Each card keeps its ``index``, ``mask``, ``code``, ``display_key`` and hash,
    computed once by its deck (a batch reads and hashes hundreds of cards per layout).

    >>> Card('Qs') is PREFERANS.card("Q", "s"), Card('Td', WHIST)
    (True, Card('Td', WHIST))
    """

    deck: Deck = field(repr=False)
    suit_number: int
    rank_number: int

    def __new__(cls, code: str, deck: Deck | None = None) -> Card:
        deck = PREFERANS if deck is None else deck
        if not isinstance(code, str) or len(code) < 2:
            raise ValueError(f"not a card code {code!r}: write rank then suit, e.g. 'Qs', 'Td'")
        return deck.card(code[:-1], code[-1])

    #: The card's bit in the engine's masks.
    index: int = field(init=False, repr=False)
    mask: int = field(init=False, repr=False)
    #: Compact ASCII notation: rank letter then suit letter, e.g. ``Td``.
    code: str = field(init=False, repr=False)
    #: Sort key for showing cards: suits in the deck's display order, high cards first.
    display_key: tuple[int, int] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    @classmethod
    def _of(cls, deck: Deck, suit_number: int, rank_number: int) -> Card:
        """A new card object (only a deck makes its cards; after its display order is set)."""
        card = object.__new__(cls)
        index = suit_number * len(deck.ranks) + rank_number
        for name, value in (("deck", deck), ("suit_number", suit_number), ("rank_number", rank_number),
                            ("index", index), ("mask", 1 << index),
                            ("code", deck.ranks[rank_number].letter + deck.suits[suit_number].letter),
                            ("display_key", (deck.display_order.index(suit_number), -rank_number)),
                            ("_hash", hash((deck.name, index)))):
            object.__setattr__(card, name, value)
        return card

    @property
    def suit(self) -> Suit:
        return self.deck.suits[self.suit_number]

    @property
    def rank(self) -> Rank:
        return self.deck.ranks[self.rank_number]

    def __str__(self) -> str:
        return self.suit.symbol + self.rank.text

    def __repr__(self) -> str:
        if self.deck.name == PREFERANS.name:
            return f"Card({self.code!r})"
        if DECKS.get(self.deck.name) is self.deck:
            return f"Card({self.code!r}, {self.deck.name.upper()})"
        return f"Card({self.code!r}, {self.deck!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index and (
            self.deck is other.deck or self.deck.name == other.deck.name)

    def __reduce__(self):
        # By value: the deck (looked up by name, see Deck.__reduce__) and the card's index.
        return (_card_of, (self.deck, self.index))

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


PREFERANS = Deck(
    "preferans",
    SUITS,
    tuple(Rank(str(n)) for n in (7, 8)) + (NINE, TEN, JACK, QUEEN, KING, ACE),
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
