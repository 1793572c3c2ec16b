# cython: language_level=3
"""Sure tricks at the start of a trick: quick tricks of the side on lead (trick
contracts) and the misère declarer caught for every trick or clean of all."""

from pref_engine.state cimport Rules, Position, u64, low_index, high_index

cdef int quick_tricks(const Rules* r, const Position* p, u64 out) noexcept nogil
cdef int quick_points(const Rules* r, const Position* p) noexcept nogil
cdef u64 quick_tricks_from(const Rules* r, const Position* p, u64 out, int lead, int* count,
                          int* suits) noexcept nogil

cdef inline int misere_sure(const Rules* r, const Position* p) noexcept nogil:
    """Misère without trumps, at a trick boundary: 1 if the declarer's side must take
    every remaining trick, -1 if it is sure to take none, else 0.

    *Caught* (1): in every suit, the lowest card of the declarer's side beats
    every opponent's card (or the opponents are void). Whatever it leads wins,
    and it keeps the lead. If an opponent is on lead, he must hold a suit the
    declarer's side holds: he leads it, the declarer's side wins and leads.

    *Clean* (-1): in every suit both sides hold, the highest card of the
    declarer's side is below every opponent's card. An opponent's lead is
    always ducked, and the declarer's side leading such a suit is always
    overtaken, so it never gets the lead back; suits only it holds are never
    led. If it is on lead, the leader needs one such suit to lead.

    Both stay true as cards leave (lowest cards only rise, highest only fall).
    """
    cdef u64 mine = 0
    cdef u64 theirs = 0
    cdef u64 m, t, lead = p.hand[p.leader]
    cdef int i
    cdef bint caught = True
    cdef bint clean = True
    cdef bint shared = False
    if p.trump >= 0:
        return 0
    for i in range(r.nseats):
        if r.dside[i]:
            mine |= p.hand[i]
        else:
            theirs |= p.hand[i]
    for i in range(r.nsuits):
        m = mine & r.suit_mask[i]
        t = theirs & r.suit_mask[i]
        if m and t:
            if low_index(m) < high_index(t):
                caught = False
            if high_index(m) > low_index(t):
                clean = False
            if lead & r.suit_mask[i]:
                shared = True
    if caught and (shared or r.dside[p.leader]):
        return 1
    if clean and (shared or not r.dside[p.leader]):
        return -1
    return 0
