"""The two text formats of a layout: the layout file and the one-line form.

Layout file: ``key: value`` header lines and one line per hand; ``#`` starts a
comment line::

    title: Kovalevskaya's misère
    contract: misere
    declarer: S
    lead: E
    W: ♠AK ♣QJ10 ♦A ♥AKQ10
    E: ♠QJ ♣97 ♦KQJ10 ♥J7
    S: ♠10987 ♣8 ♦987 ♥98

One-line form (for batches): ``key=value`` tokens separated by spaces; a value
with spaces is quoted (``title="A study"``); cards inside a value are separated
by commas::

    contract=6s declarer=S lead=S S=As,Ks W=7h,8h E=7d,8d

Keys: ``game`` (default preferans), ``contract``, ``declarer``, ``lead``,
``talon``, ``discard``, ``played`` (cards of the current trick in play order,
starting with the leader's), ``title``, ``source``, and one key per seat.

>>> layout = parse_layout("contract=misere declarer=S lead=W S=7s W=8s,9h E=Ad")
Traceback (most recent call last):
...
pyanalyzer.errors.LayoutError: wrong hand sizes: W has 2 cards (S 1, W 2, E 1); every hand must have the same number
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Iterator

from pyanalyzer.errors import LayoutError, shorten
from pyanalyzer.model.cards import Card
from pyanalyzer.model.contract import POINTS, Contract
from pyanalyzer.model.hand import Hand
from pyanalyzer.model.layout import Layout
from pyanalyzer.model.layout_format import CARD_KEYS
from pyanalyzer.model.layout_format import format_card_list as format_card_list
from pyanalyzer.model.layout_format import format_layout_file as format_layout_file
from pyanalyzer.model.layout_format import format_one_line as format_one_line
from pyanalyzer.model.layout_format import layout_to_dict as layout_to_dict
from pyanalyzer.model.layout_masks import LayoutMasks, read_masks
from pyanalyzer.model.move import Move
from pyanalyzer.model.notation import SUIT_SYMBOLS, check_ten_spelling, parse_card, parse_cards, parse_moves
from pyanalyzer.model.rules import rules_for

HEADER_KEYS = ("title", "source", "game", "contract", "declarer", "lead", "talon", "discard")
#: The keys of a card points game's state (Thousand).
POINTS_KEYS = ("bid", "trump", "won", "points", "gave")
ALL_KEYS = HEADER_KEYS + POINTS_KEYS + ("played",)
_ALL_KEYS = frozenset(ALL_KEYS)

_ONE_LINE_START = re.compile(r"^\s*[A-Za-z_]+\s*=")

#: The longest layout read, in characters (a layout text) or bytes (a layout file). A full
#: layout with a long title is a few hundred; anything near this bound is not a layout.
MAX_LAYOUT_SIZE = 100_000

#: One token of the one-line form, as a POSIX shell splits words: unquoted characters, a
#: backslash and the character it escapes, "double-quoted" (backslash escapes " and \\
#: inside) or 'single-quoted' text. Matched in linear time (``shlex`` is quadratic in the
#: length of a token: a megabyte-long line took over 15 s).
_WORD = re.compile(r"""(?:[^ \t\r\n"'\\]+|\\.|\\$|"[^"\\]*(?:\\.[^"\\]*)*"?|'[^']*'?)+""", re.DOTALL)
_WORD_PART = re.compile(r"""[^ \t\r\n"'\\]+|\\(.)|\\$|"([^"\\]*(?:\\.[^"\\]*)*)("?)|'([^']*)('?)""",
                        re.DOTALL)
_DOUBLE_QUOTED_ESCAPE = re.compile(r'\\([\\"])')
#: The ASCII characters :func:`check_characters` refuses (Unicode category Cc but the allowed).
_ASCII_REFUSED_IN_LINE = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
_ASCII_REFUSED_IN_FILE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: Whitespace between the tokens of the one-line form (as ``shlex``).
_BLANKS = " \t\r\n"
_BLANK_RUN = re.compile("[ \t\r\n]+")


def check_size(text: str, what: str = "the layout") -> None:
    """Refuse absurdly long input before any parsing."""
    if len(text) > MAX_LAYOUT_SIZE:
        raise LayoutError(f"{what} is {len(text):,} characters long: a layout has at most "
                          f"{MAX_LAYOUT_SIZE:,}", text[:20] + "...")


def check_characters(text: str, line_breaks: bool) -> None:
    """Refuse control characters and Unicode line separators (U+2028 ...), naming the first.

    Only the tab is allowed, and with ``line_breaks`` (a layout file) the newline and
    carriage return. Other line separators would split a line differently in a batch
    file (read line by line at newlines) than in a layout given alone.
    """
    allowed = "\t\n\r" if line_breaks else "\t"
    if text.isascii() and text.isprintable():   # (the common case: no control character at all)
        return
    if text.isascii():   # (one search: in ASCII only C0 controls and DEL are refused)
        found = (_ASCII_REFUSED_IN_FILE if line_breaks else _ASCII_REFUSED_IN_LINE).search(text)
        if found is None:
            return
        text = text[:found.end()]
    for column, char in enumerate(text, start=1):
        if char in allowed:
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or char in "\ufeff":
            name = unicodedata.name(char, "control character")
            raise LayoutError(f"character U+{ord(char):04X} ({name}) at column {column} is not "
                              "allowed in a layout", f"U+{ord(char):04X}")


def split_words(text: str) -> list[str]:
    """Split the one-line form into words as a POSIX shell does (quotes and backslashes).

    >>> split_words('title="A \\\\"study\\\\"" S=As,Ks it\\\\ is')
    ['title=A "study"', 'S=As,Ks', 'it is']
    """
    # The common case: no quoting; the words are the runs between blanks (most often spaces alone).
    if '"' not in text and "'" not in text and "\\" not in text:
        if "\t" in text or "\r" in text or "\n" in text:
            return [word for word in _BLANK_RUN.split(text) if word]
        return [word for word in text.split(" ") if word]
    words = []
    position, end = 0, len(text)
    while position < end:
        if text[position] in _BLANKS:
            position += 1
            continue
        match = _WORD.match(text, position)
        if match is None:  # cannot happen: every non-blank character starts a word
            raise LayoutError(f"cannot read the line at column {position + 1}", text[position:position + 20])
        words.append(_unquote(match.group(0)))
        position = match.end()
    return words


def _unquote(word: str) -> str:
    parts = []
    for part in _WORD_PART.finditer(word):
        text = part.group(0)
        if text.startswith("\\"):
            if part.group(1) is None:
                raise LayoutError("cannot read the line: a backslash ends it", word)
            parts.append(part.group(1))
        elif text.startswith('"'):
            if not part.group(3):
                raise LayoutError(f"cannot read the line: no closing quotation in {shorten(word)!r}", word)
            parts.append(_DOUBLE_QUOTED_ESCAPE.sub(r"\1", part.group(2)))
        elif text.startswith("'"):
            if not part.group(5):
                raise LayoutError(f"cannot read the line: no closing quotation in {shorten(word)!r}", word)
            parts.append(part.group(4))
        else:
            parts.append(text)
    return "".join(parts)


def layout_from_fields(fields: dict[str, str]) -> Layout:
    """Build a layout from ``key -> text`` pairs (keys as in both formats)."""
    rules = rules_for(fields.get("game", "preferans"))
    # Russian letters in one hand make a Latin T anywhere in the layout ambiguous (ace or ten?).
    check_ten_spelling(value for key, value in fields.items() if key not in HEADER_KEYS + POINTS_KEYS
                       or key in CARD_KEYS or key == "gave")
    hands: dict[str, Hand] = {}
    for key, value in fields.items():
        if key in ALL_KEYS:
            continue
        if key.upper() in rules.seats:
            hands[key.upper()] = Hand.parse(value, rules.deck)
            continue
        raise LayoutError(
            f"unknown key {shorten(key)!r}: expected one of {', '.join(ALL_KEYS)} "
            f"or a seat ({', '.join(rules.seats)})", key
        )
    if rules.counts_points:
        contract, state = _points_state(fields, rules)
    else:
        for key in POINTS_KEYS:
            if key in fields:
                raise LayoutError(f"{key}= belongs to a card points game (game=thousand), not "
                                  f"{rules.game}", key)
        if "contract" not in fields:
            raise LayoutError("missing contract: add e.g. contract=6s or contract=misere", "contract")
        contract, state = Contract.parse(fields["contract"], rules), {}

    def seat_or_none(key: str) -> str | None:
        return rules.seat(fields[key]) if fields.get(key) else None

    cards = {key: tuple(parse_cards(fields.get(key, ""), rules.deck)) for key in CARD_KEYS}
    declarer = seat_or_none("declarer")
    if declarer in hands and cards["discard"] and cards["talon"]:
        hands[declarer] = _hand_after_discard(hands[declarer], cards["talon"], cards["discard"])
    if declarer in hands and state.get("gave") and cards["talon"]:
        _hands_after_exchange(hands, declarer, cards["talon"], state["gave"])
    layout = Layout(
        hands=hands,
        contract=contract,
        declarer=declarer,
        lead=seat_or_none("lead"),
        talon=cards["talon"],
        discard=cards["discard"],
        played=cards["played"],
        title=fields.get("title"),
        source=fields.get("source"),
        rules=rules,
        **state,
    )
    if layout.tricks_left == 0:
        raise LayoutError("the hands are empty: there is no trick left to play", "hands")
    return layout


def _points_state(fields: dict[str, str], rules) -> tuple[Contract, dict]:
    """A card points game's contract (its bid) and state: ``bid=120 trump=h won=S,E
    points=S:45,W:20 gave=W:Js,E:9h``."""
    if "contract" in fields:
        raise LayoutError(f"a {rules.game} layout names its bid (bid=120), not contract=", "contract")
    bid = fields.get("bid", "").strip()
    if bid and not (bid.isdigit() and len(bid) <= 4):
        raise LayoutError(f"bad bid {shorten(bid)!r}: write a number such as bid=120", bid)
    contract = Contract(POINTS, int(bid) if bid else None)
    state: dict = {}
    trump = fields.get("trump", "").strip()
    if trump and trump.lower() not in ("-", "none"):
        letter = SUIT_SYMBOLS.get(trump, trump.lower())
        suit = next((s for s in rules.deck.suits if letter in (s.letter, s.name, s.name.rstrip("s"))), None)
        if suit is None:
            raise LayoutError(f"unknown trump {shorten(trump)!r}: write s, c, d, h or a suit symbol", trump)
        state["current_trump"] = suit
    won = [token for token in re.split(r"[\s,]+", fields.get("won", "").strip()) if token and token != "-"]
    state["won"] = frozenset(rules.seat(token) for token in won)
    scored: dict[str, int] = {}
    for token in _pairs(fields.get("points", "")):
        seat, sep, value = token.partition(":")
        if not sep or not value.strip().isdigit() or len(value.strip()) > 4:
            raise LayoutError(f"bad points {shorten(token)!r}: write seat:points, e.g. points=S:45,W:20", token)
        seat = rules.seat(seat)
        if seat in scored:
            raise LayoutError(f"points for {seat} given twice", token)
        scored[seat] = int(value)
    state["scored"] = scored
    gave: dict[str, Card] = {}
    for token in _pairs(fields.get("gave", "")):
        seat, sep, card_text = token.partition(":")
        if not sep:
            raise LayoutError(f"bad gave {shorten(token)!r}: write seat:card, e.g. gave=W:Js,E:9h", token)
        seat = rules.seat(seat)
        if seat in gave:
            raise LayoutError(f"gave names {seat} twice: the declarer gives each opponent one card", token)
        gave[seat] = parse_card(card_text, rules.deck)
    state["gave"] = gave
    return contract, state


def _pairs(text: str) -> list[str]:
    """``seat:value`` tokens separated by commas or spaces (``S:45, W:20`` or ``S: 45``)."""
    text = re.sub(r"\s*:\s*", ":", text.strip())
    return [token for token in re.split(r"[\s,]+", text) if token]


def _hands_after_exchange(hands: dict[str, Hand], declarer: str, talon, gave: dict[str, Card]) -> None:
    """A written-down deal gives the hands before the exchange (the declarer's without the talon)
    and the cards he gave: each opponent gets his card, the declarer keeps the other eight of his
    ten. (A deal written after the exchange, or any other overlap, is left for validation.)"""
    ten = set(hands[declarer]) | set(talon)
    given = set(gave.values())
    if set(talon) & set(hands[declarer]) or not given <= ten:
        return
    if any(card in hands.get(seat, ()) for seat, card in gave.items()):
        return
    deck = hands[declarer].deck
    hands[declarer] = Hand(ten - given, deck)
    for seat, card in gave.items():
        if seat in hands:
            hands[seat] = Hand(set(hands[seat]) | {card}, deck)


def _hand_after_discard(hand: Hand, talon, discard) -> Hand:
    """A written-down deal gives the declarer's ten cards before the talon and his discard:
    he plays the other ten of his twelve. (Any other overlap is left for validation to report.)"""
    twelve = set(hand) | set(talon)
    if set(talon) & set(hand) or not set(discard) & set(hand) or not set(discard) <= twelve:
        return hand
    return Hand(twelve - set(discard), hand.deck)


def _fields(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The fields of ``(key, value)`` pairs, both stripped. Header keys are stored in lower case;
    other keys (seats) as typed, for precise errors; a key given twice (in any case) is an error."""
    fields: dict[str, str] = {}
    seen: set[str] = set()   # (the keys so far in lower case: one look-up, not a scan per key)
    for key, value in pairs:
        key = key.strip()
        lower = key.lower()
        if lower in seen:
            raise LayoutError(f"key {shorten(key)!r} is given twice", key)
        seen.add(lower)
        fields[lower if lower in _ALL_KEYS else key] = value.strip()
    return fields


def _lines(text: str) -> list[str]:
    """The lines of a layout text, whatever its line ends (\\n, \\r\\n or \\r)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def parse_one_line(text: str) -> Layout:
    """Read the one-line form ``key=value key=value ...``.

    >>> parse_one_line("contract=7h declarer=W lead=E S=As W=Ah E=Ks").tricks_left
    1
    """
    return layout_from_fields(one_line_fields(text))


def read_one_line(text: str) -> Layout | LayoutMasks:
    """:func:`parse_one_line` for a batch line: a trick layout of the common form in masks, without
    its ``Hand``s (:mod:`pyanalyzer.model.layout_masks`), any other line as its :class:`Layout`
    (or the layout's error)."""
    return read_masks(text) or layout_from_fields(one_line_fields(text))


def one_line_fields(text: str) -> dict[str, str]:
    """The ``key -> value`` pairs of a one-line layout."""
    check_size(text)
    check_characters(text, line_breaks=False)
    return _fields(_one_line_pairs(split_words(text)))


def _one_line_pairs(tokens: list[str]) -> Iterator[tuple[str, str]]:
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise LayoutError(f"expected key=value, got {shorten(token)!r}", token)
        yield key, value


def parse_layout_file_text(text: str) -> Layout:
    """Read the layout file format (``key: value`` lines)."""
    return layout_from_fields(layout_file_fields(text))


def layout_file_fields(text: str) -> dict[str, str]:
    """The ``key -> value`` pairs of a layout file."""
    check_size(text)
    check_characters(text, line_breaks=True)
    return _fields(_file_pairs(text))


def _file_pairs(text: str) -> Iterator[tuple[str, str]]:
    for raw in _lines(text):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or " " in key.strip():
            raise LayoutError(f"expected 'key: value', got {shorten(line)!r}", line)
        yield key, value


def layout_fields(text: str) -> dict[str, str]:
    """The ``key -> value`` pairs of a layout in either format."""
    check_size(text)
    check_characters(text, line_breaks=True)
    lines = [ln for ln in _lines(text) if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) == 1 and _ONE_LINE_START.match(lines[0]):
        return one_line_fields(lines[0])
    return layout_file_fields(text)


def parse_layout(text: str) -> Layout:
    """Read a layout in either format (the one-line form starts with ``key=``)."""
    return layout_from_fields(layout_fields(text))


def parse_layout_with_record(text: str) -> tuple[Layout, list[Card]]:
    """A layout and the cards played from it, in order.

    ``played`` holding at least a whole trick is a play record from the
    layout's start (with fewer cards it is the current trick, as usual).

    >>> layout, record = parse_layout_with_record(
    ...     "contract=6s declarer=S lead=S S=As,7d W=7h,8h E=Ad,Kh played=As,7h,Kh,7d,8h,Ad")
    >>> layout.played, [c.code for c in record]
    ((), ['As', '7h', 'Kh', '7d', '8h', 'Ad'])
    """
    fields = layout_fields(text)
    rules = rules_for(fields.get("game", "preferans"))
    record = parse_cards(fields.get("played", ""), rules.deck)
    if len(record) < len(rules.seats):
        return layout_from_fields(fields), []
    del fields["played"]
    return layout_from_fields(fields), record


def parse_layout_with_moves(text: str) -> tuple[Layout, list[Move]]:
    """A layout and the moves played from it, in order: as :func:`parse_layout_with_record`,
    with declaring leads marked ``+`` (Thousand: ``Kh+``). Each move is checked in turn.

    >>> layout, moves = parse_layout_with_moves("game=thousand declarer=S lead=S won=S "
    ...     "S=Kh,Qh W=9h,9s E=Ah,Ts played=Kh+,9h,Ah")
    >>> [m.code for m in moves], layout.play(moves[0]).current_trump
    (['Kh+', '9h', 'Ah'], Suit('h'))
    """
    fields = layout_fields(text)
    rules = rules_for(fields.get("game", "preferans"))
    record = parse_moves(fields.get("played", ""), rules.deck)
    if len(record) < len(rules.seats):
        if any(move.declare for move in record):
            raise LayoutError("a declared lead (+) belongs to a play record of whole tricks: in the "
                              "current trick give the trump and points it made instead (trump=, points=)",
                              "played")
        return layout_from_fields(fields), []
    del fields["played"]
    layout = layout_from_fields(fields)
    check_moves(layout, record)
    return layout, record


def check_moves(layout: Layout, moves: list[Move]) -> Layout:
    """Replay ``moves`` from ``layout``; the first one that cannot be played raises an
    IllegalPlayError naming it. Returns the layout after them."""
    from pyanalyzer.errors import IllegalPlayError

    current = layout
    for number, move in enumerate(moves, start=1):
        if current.tricks_left == 0:
            raise IllegalPlayError(f"the play record has {len(moves)} cards: the hands are empty after "
                                   f"{number - 1}", move.code)
        try:
            current = current.play(move)
        except IllegalPlayError as error:
            raise IllegalPlayError(f"move {number} of the play record: {error}", move.code) from None
    return current


def read_text(argument: str) -> str:
    """The text of a layout argument: a file's contents, or the argument itself.

    A file is read as UTF-8 (a leading byte-order mark is dropped), at most
    ``MAX_LAYOUT_SIZE`` bytes; anything that keeps it from being read is one
    ``LayoutError`` naming the file and the reason.
    """
    if "=" in argument or "\n" in argument:
        check_size(argument)
        return argument.removeprefix("\ufeff")  # e.g. "$(cat file)" of a file with a byte-order mark
    shown = argument if len(argument) <= 80 else argument[:60] + "..."
    try:
        if os.path.isdir(argument):
            raise LayoutError(f"layout file {shown!r} is a directory", argument)
        with open(argument, "rb") as handle:
            data = handle.read(MAX_LAYOUT_SIZE + 1)
    except FileNotFoundError:
        raise LayoutError(f"no such layout file {shown!r}", argument) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise LayoutError(f"cannot read layout file {shown!r}: {reason}", argument) from None
    if len(data) > MAX_LAYOUT_SIZE:
        raise LayoutError(f"layout file {shown!r} is over {MAX_LAYOUT_SIZE:,} bytes: not a layout",
                          argument)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LayoutError(f"layout file {shown!r} is not UTF-8 text (byte 0x{data[error.start]:02x} "
                          f"at offset {error.start})", argument) from None
    if not text.strip():
        raise LayoutError(f"layout file {shown!r} is empty", argument)
    return text


def read_layout(argument: str) -> Layout:
    """A layout from a file path, or from the text itself if it is not a file."""
    return parse_layout(read_text(argument))
