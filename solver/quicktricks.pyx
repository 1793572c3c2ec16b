# cython: language_level=3
"""Quick tricks at the start of a trick.

The leader cashes his top trumps, then the top cards of the other suits. A
plain suit's top cards count only when nobody who could spoil them can ruff:
an opponent must follow every round or hold no trump after the trump cashing;
a partner who must trump when void could overtake and take the lead away, so
the same condition applies to him when the rules force trumping. Every trick
counted is taken by the leader himself, keeping the lead, so the count is a
lower bound on the leading side's tricks (used for trick contracts only).
"""

from solver.state cimport bit_count, high_index, MAX_SEATS


cdef inline int top_run(u64 hand, u64 suit_out) noexcept nogil:
    """How many of the highest cards still out in a suit are in ``hand``."""
    cdef int n = 0
    cdef int c
    while suit_out:
        c = high_index(suit_out)
        if not (hand >> c) & 1:
            break
        n += 1
        suit_out &= ~((<u64>1) << c)
    return n


cdef int quick_tricks(const Rules* r, const Position* p, u64 out) noexcept nogil:
    cdef int lead = p.leader
    cdef u64 hand = p.hand[lead]
    cdef int trumps_after[MAX_SEATS]
    cdef int total = 0
    cdef int n, s, seat, length
    cdef u64 suit_out
    cdef bint ok
    for seat in range(r.nseats):
        trumps_after[seat] = 0
    if r.trump >= 0:
        suit_out = out & r.suit_mask[r.trump]
        n = top_run(hand, suit_out)
        total = n
        for seat in range(r.nseats):
            length = bit_count(p.hand[seat] & suit_out)
            trumps_after[seat] = length - n if length > n else 0
    for s in range(r.nsuits):
        if s == r.trump:
            continue
        suit_out = out & r.suit_mask[s]
        if not hand & suit_out:
            continue
        n = top_run(hand, suit_out)
        if n == 0:
            continue
        ok = True
        for seat in range(r.nseats):
            if seat == lead or trumps_after[seat] == 0:
                continue
            if r.dside[seat] == r.dside[lead] and not r.must_trump:
                continue
            if bit_count(p.hand[seat] & suit_out) < n:
                ok = False
                break
        if ok:
            total += n
    if total > p.tricks_left:
        total = p.tricks_left
    return total
