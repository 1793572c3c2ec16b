"""The position every engine consumes: a layout in the engines' primitive terms.

Shared by every game; the layout produces it (``Layout.position``), the fast
engine (``pref_engine``) and the reference minimax read it:

* ``hands``: one bit mask of cards per seat, seats numbered in play order
  (seat ``i + 1`` plays after seat ``i``);
* ``suit_masks``: the cards of each suit; inside a suit a higher bit is a
  higher card, so the rank order of the game is encoded by the numbering;
* ``trump``: index into ``suit_masks`` of the trump *now*, or ``None``;
* ``must_trump``: the follow rule: a player void in the suit led must trump if
  he can (Preferans, Thousand); otherwise any card (Whist);
* ``leader`` and ``played``: the seat that led the current trick and the cards
  played to it so far, in order (empty at a trick boundary);
* ``declarer_side``: one flag per seat, true for the declarer and his partner;
* ``maximize``: true if the declarer's side wants as much as possible (trick
  and point contracts), false for misère;
* ``talon_leads`` (all-pass with an open talon): the talon cards still to be
  turned up, in order; each fixes the suit of one trick to which every seat
  plays in turn starting with ``leader``; the highest card of that suit takes
  it (with ``talon_must_beat``, only if it beats the talon card), nobody takes
  it if nobody follows, and ``leader`` leads again after it;
* ``card_points``: the points of each card number (Thousand); empty: every
  trick is worth 1;
* ``marriages``: the declarations that may be made, ``(cards_mask, points)``:
  a seat leading a trick who holds every card of the mask may lead any one of
  them *declaring* it (the move ``card | DECLARE``): his side scores ``points``
  and the suit of the card led is trump from then on (a marriage, king and
  queen of a suit: that suit; Thousand's ace marriage, the four aces: the suit
  of the ace led). A card is in at most one declaration;
* ``leader_may_declare``: whether the current leader may declare now (not on
  the very first lead; after every complete trick the winner may);
* ``heuristics``: the engine heuristics the rule set declares (``solo``,
  ``partnership``, ``plain``, or ``thousand`` for card points and declarations).

The value of a position is the declarer side's total over the rest of the
play, the current trick included: its tricks (or the card points of its
tricks) plus the points of its declarations.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The flag of a move that leads a card with a declaration (a marriage): ``card | DECLARE``.
DECLARE = 64
HEURISTICS = ("solo", "partnership", "plain", "thousand")


def iter_bits(mask: int):
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def move_card(move: int) -> int:
    """The card a move plays (without its declaration flag)."""
    return move & ~DECLARE


def declares(move: int) -> bool:
    return bool(move & DECLARE)


@dataclass
class Position:
    """A position in the engines' primitive terms (see the module docstring)."""

    hands: tuple[int, ...]
    suit_masks: tuple[int, ...]
    trump: int | None
    must_trump: bool
    leader: int
    played: tuple[int, ...]
    declarer_side: tuple[bool, ...]
    maximize: bool
    talon_leads: tuple[int, ...] = ()
    talon_must_beat: bool = False
    card_points: tuple[int, ...] = ()
    marriages: tuple[tuple[int, int], ...] = ()
    leader_may_declare: bool = False
    heuristics: str = "solo"

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.played)) % self.seats

    @property
    def tricks_left(self) -> int:
        cards = sum(bin(h).count("1") for h in self.hands) + len(self.played)
        return cards // self.seats

    @property
    def counts_points(self) -> bool:
        """True if a trick is worth its card points rather than 1."""
        return bool(self.card_points)

    def value_bound(self) -> int:
        """An upper bound of the value: every trick (or card point) left and every
        declaration still possible."""
        if not self.card_points:
            return self.tricks_left
        cards = 0
        for mask in (*self.hands, *(1 << card for card in self.played)):
            cards |= mask
        points = sum(self.card_points[card] for card in iter_bits(cards))
        return points + sum(p for mask, p in self.marriages
                            if any(hand & mask == mask for hand in self.hands))
