"""Reading and writing cards and hands as text.

Accepted forms (case-insensitive, commas or spaces between tokens):

* compact cards: ``Js,Qs,7c,9c,Td,Jd`` (rank then suit; ``T`` or ``10``);
  a single card may also be written suit first: ``♠J``, ``sJ``;
* suit-grouped: ``♠JQ ♣79 ♦10JQK ♥7J``, ``S:JQ C:79 D:TJQK H:7J``, or with
  spaces ``♠ J Q``; ``-`` (or nothing after ``S:``) marks a void;
* Russian rank letters ``Т К Д В`` (ace, king, queen, jack): ``♠ТК ♦Д10``. The
  Cyrillic ``Т`` (ace) looks like the Latin ``T`` (ten): cards that use Russian
  letters must write the ten ``10``; a Latin ``T`` among them is refused.

Suits: letters ``s c d h`` or symbols ``♠ ♣ ♦ ♥`` (also ``♤ ♧ ♢ ♡``).

>>> from pyanalyzer.model.cards import PREFERANS
>>> cards = parse_cards("♠JQ ♣79 ♦10JQK ♥7J", PREFERANS)
>>> format_cards(cards)
'♠QJ ♣97 ♦KQJ10 ♥J7'
>>> format_cards(cards, "compact")
'Qs,Js,9c,7c,Kd,Qd,Jd,Td,Jh,7h'
>>> format_cards(parse_cards("S:AK D:- H:T", PREFERANS), "letters")
'S:AK C:- D:- H:T'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pyanalyzer.errors import DuplicateCardError, NotationError, UnknownCardError, shorten
from pyanalyzer.model.cards import Card, Deck
from pyanalyzer.model.move import DECLARE_MARK, Move

SUIT_SYMBOLS = {"♠": "s", "♤": "s", "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h"}
RUSSIAN_RANKS = {"Т": "A", "К": "K", "Д": "Q", "В": "J"}
STYLES = ("symbols", "letters", "compact", "russian")

_TOKEN_SPLIT = re.compile(r"[\s,;]+")


def _suit_letter(char: str) -> str | None:
    """The ASCII suit letter for ``char``, or None if it is not a suit."""
    if char in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[char]
    if char.lower() in "scdh" and len(char) == 1:
        return char.lower()
    return None


def _read_ranks(text: str, deck: Deck, token: str) -> list[int]:
    """Rank numbers in ``text`` (``10`` counts as one rank); empty or ``-`` is a void."""
    if text in ("", "-"):
        return []
    ranks: list[int] = []
    letters = {r.letter: i for i, r in enumerate(deck.ranks)}
    i = 0
    while i < len(text):
        if text.startswith("10", i):
            letter, i = "T", i + 2
        else:
            char = text[i].upper()
            letter, i = RUSSIAN_RANKS.get(char, char), i + 1
        if letter not in letters:
            raise UnknownCardError(f"unknown card {shorten(token)!r}", token)
        ranks.append(letters[letter])
    return ranks


def _rank_part(token: str, deck: Deck) -> list[int] | None:
    """Ranks if ``token`` is made of ranks only, else None (without raising)."""
    try:
        return _read_ranks(token, deck, token) if token != "-" else []
    except UnknownCardError:
        return None


def check_ten_spelling(texts: Iterable[str]) -> None:
    """Refuse a Latin ``T`` (the ten) in cards that also use Russian rank letters.

    The Cyrillic ``Т`` (туз, the ace) and the Latin ``T`` (the ten) look alike: once
    Russian letters appear, a ``T`` may be either, so the ten must be written ``10``.

    >>> check_ten_spelling(["♠ТК ♦Д10", "Td 10h"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pyanalyzer.errors.NotationError: ambiguous 'Td': a Latin T (the ten) among Russian rank ... 10 for the ten
    """
    texts = list(texts)
    if all(text.isascii() for text in texts):   # (no ASCII letter is a Russian one, in any case)
        return
    if not any(char.upper() in RUSSIAN_RANKS for text in texts for char in text):
        return
    for text in texts:
        for token in _TOKEN_SPLIT.split(text.strip()):
            if "T" in token.upper():
                raise NotationError(f"ambiguous {token!r}: a Latin T (the ten) among Russian rank "
                                    "letters, where Т is the ace; write 10 for the ten", token)


def parse_cards(text: str, deck: Deck) -> list[Card]:
    """Read cards in any accepted form; raise on an unknown token or a repeated card.

    >>> from pyanalyzer.model.cards import PREFERANS
    >>> [c.code for c in parse_cards("Td 10h ♠ТК", PREFERANS)]  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pyanalyzer.errors.NotationError: ambiguous 'Td': a Latin T (the ten) among Russian ... the ten
    >>> [c.code for c in parse_cards("Td 10h ♠AK", PREFERANS)]
    ['Td', 'Th', 'As', 'Ks']
    >>> [c.code for c in parse_cards("♦10 ♠ТК", PREFERANS)]
    ['Td', 'As', 'Ks']
    """
    text = text.strip()
    if not text:
        return []
    # The common case looked up: every token a rank-then-suit card (read as below), none twice.
    spelled = list(map(deck.by_spelling.get, text.split(",")))
    if all(spelled) and len(set(spelled)) == len(spelled):
        return spelled
    tokens = _TOKEN_SPLIT.split(text)
    check_ten_spelling([text])
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    current_suit: str | None = None  # set by a bare suit token such as "♠" or "S:"

    def add(suit: str, rank_numbers: list[int], token: str) -> None:
        s = next(i for i, x in enumerate(deck.suits) if x.letter == suit)
        for r in rank_numbers:
            card = deck.cards[s * len(deck.ranks) + r]
            if card in seen:
                raise DuplicateCardError(f"duplicate card {card.code!r} (in {shorten(token)!r})", token)
            seen[card] = token
            cards.append(card)

    for token in tokens:
        if not token or (token == "-" and current_suit is None):
            continue  # nothing, or "-" for a whole empty hand
        # 1. rank then suit: "Js", "10d", "ТК" is not this (no suit at the end)
        last = _suit_letter(token[-1])
        if last is not None and len(token) >= 2 and _suit_letter(token[0]) is None:
            ranks = _read_ranks(token[:-1], deck, token)
            if len(ranks) != 1:
                raise UnknownCardError(f"unknown card {shorten(token)!r}", token)
            add(last, ranks, token)
            current_suit = None
            continue
        # 2. suit then ranks: "♠JQ", "S:JQ", "sJ", "♠", "S:", "♣-"
        first = _suit_letter(token[0])
        if first is not None:
            rest = token[1:]
            if rest.startswith(":"):
                rest = rest[1:]
            add(first, _read_ranks(rest, deck, token), token)
            current_suit = first
            continue
        # 3. ranks alone, continuing the suit named just before: "♠ J Q"
        ranks = _rank_part(token, deck)
        if ranks is not None and current_suit is not None:
            add(current_suit, ranks, token)
            continue
        raise UnknownCardError(f"unknown card {shorten(token)!r}", token)
    return cards


def parse_card(text: str, deck: Deck) -> Card:
    """Read exactly one card.

    >>> from pyanalyzer.model.cards import PREFERANS
    >>> parse_card("♥10", PREFERANS).code
    'Th'
    """
    cards = parse_cards(text, deck)
    if len(cards) != 1:
        raise UnknownCardError(f"not a single card: {shorten(text)!r}", text)
    return cards[0]


def parse_moves(text: str, deck: Deck) -> list[Move]:
    """Read a play record: cards in play order, a declaring lead marked ``+`` (``Kh+``, ``♥К+``).

    >>> from pyanalyzer.model.cards import THOUSAND
    >>> [m.code for m in parse_moves("Kh+ 9h Ah, As", THOUSAND)]
    ['Kh+', '9h', 'Ah', 'As']
    """
    moves: list[Move] = []
    for token in _TOKEN_SPLIT.split(text.strip()):
        if not token:
            continue
        declare = token.endswith(DECLARE_MARK)
        body = token[:-1] if declare else token
        if not body:
            raise UnknownCardError(f"unknown card {shorten(token)!r}", token)
        cards = parse_cards(body, deck)
        if declare and len(cards) != 1:
            raise UnknownCardError(f"not a single card before {DECLARE_MARK!r}: {shorten(token)!r}", token)
        moves.extend(Move(card, declare) for card in cards)
    seen: set[Card] = set()
    for move in moves:
        if move.card in seen:
            raise DuplicateCardError(f"duplicate card {move.card.code!r} in the play record", move.card.code)
        seen.add(move.card)
    return moves


def format_move(move: Move, style: str = "symbols") -> str:
    """One move: the card as :func:`format_card` writes it, ``+`` after a declaring lead."""
    return format_card(move.card, style) + (DECLARE_MARK if move.declare else "")


def format_card(card: Card, style: str = "symbols") -> str:
    """One card: ``♠10`` (symbols), ``Ts`` (letters, compact), ``♠Т`` (russian)."""
    if style in ("compact", "letters"):
        return card.code
    return card.suit.symbol + format_rank(card, style)


def format_rank(card: Card, style: str = "symbols") -> str:
    """The card's rank alone, as a suit-grouped hand writes it in ``style``.

    >>> from pyanalyzer.model.cards import PREFERANS
    >>> ten, ace = PREFERANS.card("T", "s"), PREFERANS.card("A", "s")
    >>> [format_rank(c, s) for s in ("symbols", "letters", "russian") for c in (ten, ace)]
    ['10', 'A', 'T', 'A', '10', 'Т']
    """
    if style in ("compact", "letters"):
        return card.rank.letter
    if style == "russian":
        return card.rank.russian or card.rank.text
    if style == "symbols":
        return card.rank.text
    raise ValueError(f"unknown style {style!r}; choose from {', '.join(STYLES)}")


def format_cards(cards: Iterable[Card], style: str = "symbols") -> str:
    """Cards grouped by suit, highest first; every suit shown (``-`` for a void) except in compact.

    ``compact`` gives comma-separated codes; ``letters`` gives ``S:AK C:- ...``.
    """
    cards = list(cards)
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
    if not cards:
        return "-" if style == "compact" else ""
    deck = cards[0].deck
    ordered = sorted(cards, key=lambda c: c.display_key)
    if style == "compact":
        return ",".join(c.code for c in ordered)
    groups = []
    for s, suit in deck.display_suits():
        in_suit = [c for c in ordered if c.suit_number == s]
        if style == "letters":
            ranks = "".join(c.rank.letter for c in in_suit) or "-"
            groups.append(f"{suit.letter.upper()}:{ranks}")
        else:
            ranks = "".join(format_rank(c, style) for c in in_suit) or "-"
            groups.append(suit.symbol + ranks)
    return " ".join(groups)
