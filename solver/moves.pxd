# cython: language_level=3
"""Move ordering: the table's best move first, then heuristics per seat.

A good first move makes a null-window search cut at once, so ordering is most
of the speed. The heuristics depend on what the seat wants from the trick:

* a seat that wants its side to win the trick (trick contracts): as leader,
  cash the top card of a suit, else lead low; as follower, win as cheaply as
  possible unless the partner already holds the trick when the seat is last;
  otherwise play low;
* a seat that wants its side to lose the trick (misère, both sides): duck with
  the highest card that still loses, and win, when forced, with the highest;
  as leader, the declarer leads cards that opponents must overtake and the
  defenders lead low cards under the declarer's.
"""

from solver.state cimport (u64, Rules, Position, MAX_SEATS, beats, bit_count, low_index,
                           high_index)

cdef enum:
    MAX_MOVES = 32


cdef inline int lead_score(const Rules* r, const Position* p, int seat, int card,
                           u64 out) noexcept nogil:
    cdef int s = r.suit_of[card]
    cdef u64 suit_out = out & r.suit_mask[s]
    cdef u64 mine = 0
    cdef u64 theirs = 0
    cdef u64 above = suit_out & ~((((<u64>1) << card) << 1) - 1)
    cdef int i
    for i in range(r.nseats):
        if r.dside[i] == r.dside[seat]:
            mine |= p.hand[i]
        else:
            theirs |= p.hand[i]
    if r.plain_tricks:
        if not (above & ~mine):
            return 200 + bit_count(mine & suit_out)          # a sure winner: cash it
        if r.trump >= 0 and s != r.trump and not (theirs & suit_out):
            return 150 - card                                # a ruff for the partner
        return 50 + bit_count(theirs & suit_out & above) - (card - r.suit_base[s])
    if r.dside[seat]:
        # misere declarer: lead cards the opponents must overtake
        if not (theirs & suit_out):
            return -200 + card
        if theirs & suit_out & ~above:
            return -(card - r.suit_base[s])
        return 100 + bit_count(theirs & above)
    # misere defender: lead under the declarer's cards
    if not (theirs & suit_out):
        return -100 - card
    if theirs & suit_out & above:
        return 100 + bit_count(theirs & above) * 4 - (card - r.suit_base[s])
    return -(card - r.suit_base[s])


cdef inline int follow_score(const Rules* r, const Position* p, int seat,
                             int card) noexcept nogil:
    cdef bint wins = beats(r, card, p.win_card)
    cdef bint own_side = r.dside[seat] == r.maxer[seat]    # wants its side to win tricks
    cdef bint partner_wins = r.dside[p.win_seat] == r.dside[seat]
    cdef bint last = p.nplayed == r.nseats - 1
    if own_side:
        if partner_wins and last:
            return -card
        if wins:
            return 1000 - card
        return -card
    if wins:
        if partner_wins and last:
            return -2000 + card
        return -1000 + card
    return card


cdef inline int order_moves(const Rules* r, const Position* p, int seat, u64 moves,
                            int first, u64 out, int* cards) noexcept nogil:
    """Fill ``cards`` with ``moves`` best first; ``first`` (or -1) goes ahead of all."""
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int c, sc, j
    while moves:
        c = low_index(moves)
        moves &= moves - 1
        if c == first:
            sc = 1000000
        elif p.nplayed == 0:
            sc = lead_score(r, p, seat, c, out)
        else:
            sc = follow_score(r, p, seat, c)
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            cards[j] = cards[j - 1]
            j -= 1
        scores[j] = sc
        cards[j] = c
        n += 1
    return n
