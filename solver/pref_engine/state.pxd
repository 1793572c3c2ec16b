# cython: language_level=3
"""Position, rules, move generation and trick resolution (the engine's core types).

Cards are numbered *internally* so that every suit occupies a contiguous run
of bits, lowest card first (``Rules.suit_base``). The engine API maps the
caller's card numbers to this numbering and back, so the search can use plain
shifts and carries to find touching cards and rank-relative holdings.

Everything here is ``nogil`` and free of Python objects; the small hot helpers
are ``inline`` in this file so every search module compiles them in place.
"""

from libc.stdint cimport uint64_t

ctypedef uint64_t u64

cdef extern from "bits.h" nogil:
    ctypedef int pref_signal_count_t
    int bit_count(u64 x)
    int low_index(u64 x)
    int high_index(u64 x)
    u64 bit_extract(u64 x, u64 mask)
    u64 bit_deposit(u64 x, u64 mask)

cdef enum:
    MAX_SEATS = 4
    MAX_SUITS = 5
    MAX_CARDS = 64
    NO_TRUMP = -1
    DECLARE = 64                  # a move: card | DECLARE leads the card with a declaration
    MAX_MARRIAGES = MAX_SUITS + 1  # a marriage per suit and Thousand's ace marriage
    # Rules.heuristics: the game-tuned move ordering, declared by the rule set
    HEURISTICS_SOLO = 0           # declarer alone against the others (Preferans-tuned)
    HEURISTICS_PARTNERSHIP = 1    # two partnerships of two (Whist-tuned)
    HEURISTICS_PLAIN = 2          # no game-specific ordering
    HEURISTICS_THOUSAND = 3       # card points and declarations (Thousand-tuned)


cdef struct Rules:
    int nseats
    int nsuits
    bint must_trump               # void in the suit led must trump if possible
    u64 suit_mask[MAX_SUITS]      # internal numbering: contiguous runs
    int suit_base[MAX_SUITS]
    int suit_len[MAX_SUITS]
    unsigned char suit_of[MAX_CARDS]
    u64 bottoms                   # the lowest card of every suit
    u64 run_stops                 # cards that end a run of equivalent cards (``run_bottoms``)
    int dside[MAX_SEATS]          # 1 for the declarer's side
    int maxer[MAX_SEATS]          # 1 if the seat wants more declarer-side value
    int lone_declarer             # the declarer's seat if his side has no other (``single_declarer``)
    bint plain_tricks             # every seat wants its own side's tricks (not misere)
    int heuristics                # HEURISTICS_*
    # The value: every trick worth 1 (``unit_tricks``) or its cards' points; declarations.
    bint unit_tricks              # no card points: a trick is worth 1
    bint plain_value              # unit tricks and no declarations: the value is a trick count
    unsigned short points[MAX_CARDS]
    int nmarriages                # declarations: leading a card of a whole mask held
    u64 marriage_cards[MAX_MARRIAGES]   # each declaration's cards (K+Q of a suit; the four aces)
    int marriage_points[MAX_MARRIAGES]


cdef struct Position:
    u64 hand[MAX_SEATS]
    u64 trick_cards               # cards on the table in the current trick
    int leader
    int nplayed
    int played[MAX_SEATS]
    int win_seat                  # seat winning the trick so far
    int win_card
    int tricks_left               # current trick included
    int trump                     # suit index or NO_TRUMP: the trump now (a marriage changes it)
    bint may_declare              # the seat leading this trick may declare a marriage
    int points_left               # card points of the cards in hands and on the table


cdef inline int seat_to_move(const Rules* r, const Position* p) noexcept nogil:
    cdef int s = p.leader + p.nplayed
    if s >= r.nseats:
        s -= r.nseats
    return s


cdef inline u64 cards_out(const Rules* r, const Position* p) noexcept nogil:
    """Cards still in play: every hand plus the cards on the table. (A loop of the constant
    ``MAX_SEATS``, which the compiler unrolls: the seats beyond ``Rules.nseats`` hold no
    cards, ``load_position``.)"""
    cdef u64 out = p.trick_cards
    cdef int i
    for i in range(MAX_SEATS):
        out |= p.hand[i]
    return out


cdef inline u64 legal_moves(const Rules* r, const Position* p, int seat) noexcept nogil:
    """Follow suit; if void, trump when the rules demand it; else any card."""
    cdef u64 hand = p.hand[seat]
    cdef u64 follow
    if p.nplayed == 0:
        return hand
    follow = hand & r.suit_mask[r.suit_of[p.played[0]]]
    if follow:
        return follow
    if r.must_trump and p.trump >= 0:
        follow = hand & r.suit_mask[p.trump]
        if follow:
            return follow
    return hand


cdef inline u64 run_bottoms(u64 hand, u64 out, u64 bottoms) noexcept nogil:
    """The lowest card of every run of touching cards of ``hand``.

    Two cards of one hand touch when no card still out (any hand or the
    table) lies between them in their suit; such cards are equivalent, so the
    search tries only the lowest of each run. A carry through the gone cards
    above each card finds the next card still out; the cards of ``stops``
    (suit bottoms, and ``Rules.run_stops``: cards worth other points than the
    card below them, marriage cards) stop carries and always begin a run.
    """
    cdef u64 gone = ~out & ~bottoms
    cdef u64 up = hand << 1
    cdef u64 covered = (up & ~gone) | ((gone + (up & gone)) & ~gone)
    return hand & ~(covered & ~bottoms)


cdef inline bint beats(const Rules* r, const Position* p, int card, int best) noexcept nogil:
    """True if ``card`` beats ``best``, the card winning the trick so far."""
    cdef int s = r.suit_of[card]
    cdef int b = r.suit_of[best]
    if s == b:
        return card > best
    return s == p.trump


cdef inline u64 beating_cards(const Rules* r, const Position* p) noexcept nogil:
    """The cards that beat ``p.win_card``, the card winning the trick so far (``beats`` as a
    mask): the higher cards of its suit, and the trumps over a plain card."""
    cdef int ws = r.suit_of[p.win_card]
    cdef u64 mask = r.suit_mask[ws] & ~((((<u64>1) << p.win_card) << 1) - 1)
    if p.trump >= 0 and ws != p.trump:
        mask |= r.suit_mask[p.trump]
    return mask


cdef inline int last_trick_cards(const Rules* r, const Position* p, int* cards) noexcept nogil:
    """The last trick played out (every seat holds one card, or has played it): fills
    ``cards`` with its cards in the order played and returns the place of the winning
    one (its seat: the leader's plus the place)."""
    cdef int best = 0
    cdef int k, seat
    for k in range(p.nplayed):
        cards[k] = p.played[k]
    seat = p.leader + p.nplayed
    for k in range(p.nplayed, r.nseats):
        if seat >= r.nseats:
            seat -= r.nseats
        cards[k] = low_index(p.hand[seat])
        seat += 1
    for k in range(1, r.nseats):
        if beats(r, p, cards[k], cards[best]):
            best = k
    return best


cdef inline void play_card(const Rules* r, Position* p, int seat, int card) noexcept nogil:
    """Put ``card`` of ``seat`` on the table (the trick is not resolved here)."""
    cdef u64 bit = (<u64>1) << card
    p.hand[seat] &= ~bit
    p.trick_cards |= bit
    if p.nplayed == 0 or beats(r, p, card, p.win_card):
        p.win_seat = seat
        p.win_card = card
    p.played[p.nplayed] = card
    p.nplayed += 1


cdef inline int trick_points(const Rules* r, const int* cards, int n) noexcept nogil:
    """The card points of ``cards[:n]``."""
    cdef int k, total = 0
    for k in range(n):
        total += r.points[cards[k]]
    return total


cdef inline int marriages_held(const Rules* r, const Position* p) noexcept nogil:
    """The points of the declarations a seat of the declarer's side still holds whole (the
    most its declarations can still add)."""
    cdef int i, seat, total = 0
    for i in range(r.nmarriages):
        for seat in range(r.nseats):
            if r.dside[seat] and (p.hand[seat] & r.marriage_cards[i]) == r.marriage_cards[i]:
                total += r.marriage_points[i]
    return total


cdef inline int value_bound(const Rules* r, const Position* p) noexcept nogil:
    """The most the declarer's side can still score: the tricks left, or the points of
    the cards still out, plus the marriages it still holds."""
    if r.plain_value:
        return p.tricks_left
    if r.unit_tricks:
        return p.tricks_left + marriages_held(r, p)
    return p.points_left + marriages_held(r, p)


cdef inline u64 declarable(const Rules* r, const Position* p, int seat) noexcept nogil:
    """The cards ``seat`` may lead with a declaration now: every card of each declaration he
    holds whole, when he leads and may declare."""
    cdef u64 cards = 0
    cdef int i
    if p.nplayed or not p.may_declare:
        return 0
    for i in range(r.nmarriages):
        if (p.hand[seat] & r.marriage_cards[i]) == r.marriage_cards[i]:
            cards |= r.marriage_cards[i]
    return cards


cdef inline int marriage_of(const Rules* r, int card) noexcept nogil:
    """The index of the declaration ``card`` belongs to (it is in one)."""
    cdef int i = 0
    while not (r.marriage_cards[i] >> card) & 1:
        i += 1
    return i


cdef inline int single_declarer(const Rules* r) noexcept nogil:
    """The declarer's seat when he is the only seat of his side (misère), else -1."""
    return r.lone_declarer


cdef int load_position(Rules* r, Position* p, object pos, int* ext_to_int, int* int_to_ext) except -1
