# cython: language_level=3
"""Quick tricks at the start of a trick (the trick-count ones are ``inline`` in
``quicktricks.pxd``, compiled into the search; this module keeps ``quick_points``, the
card points of Thousand).

The leader cashes his top trumps, then the top cards of the other suits. A
plain suit's top cards count only when nobody who could spoil them can ruff:
an opponent must follow every round or hold no trump after the trump cashing;
a partner who must trump when void could overtake and take the lead away, so
the same condition applies to him when the rules force trumping. Every trick
counted is taken by the leader himself, keeping the lead, so the count is a
lower bound on the leading side's tricks (used for trick contracts only).
``quick_tricks_from`` also returns the cards it counted (the top run of each
suit that counted), which partition search records as deciding cards.
"""

from pref_engine.state cimport bit_count, high_index, low_index, MAX_CARDS


cdef inline u64 top_cards(u64 mine, u64 others) noexcept nogil:
    """The cards of ``mine`` above every card of ``others`` (one suit)."""
    if not others:
        return mine
    return mine & ~((((<u64>1) << high_index(others)) << 1) - 1)


cdef int quick_points(const Rules* r, const Position* p) noexcept nogil:
    """Card points the side on lead surely takes, at the start of a trick: the leader cashes
    his top trumps (above every other trump out), then, once nobody else holds a trump (or
    with no trump), his top cards of every other suit. He keeps the lead throughout, so
    nobody else can declare and the trump stays. Every card played to those tricks is his
    side's: his own, and from every other seat at least its lowest-point cards, one a trick.
    A lower bound of the side's card points."""
    cdef int leader = p.leader
    cdef int suit, seat, rounds, n, k, c, j, worst
    cdef int total = 0
    cdef u64 others_all = 0
    cdef u64 cards, counted = 0
    cdef int low[MAX_CARDS]
    for seat in range(r.nseats):
        if seat != leader:
            others_all |= p.hand[seat]
    if p.trump >= 0:
        counted = top_cards(p.hand[leader] & r.suit_mask[p.trump], others_all & r.suit_mask[p.trump])
        rounds = bit_count(counted)
        for seat in range(r.nseats):
            if seat != leader and bit_count(p.hand[seat] & r.suit_mask[p.trump]) > rounds:
                break                    # trumps left out: another suit's top cards could be ruffed
        else:
            for suit in range(r.nsuits):
                if suit != p.trump:
                    counted |= top_cards(p.hand[leader] & r.suit_mask[suit], others_all & r.suit_mask[suit])
    else:
        for suit in range(r.nsuits):
            counted |= top_cards(p.hand[leader] & r.suit_mask[suit], others_all & r.suit_mask[suit])
    rounds = bit_count(counted)
    if not rounds:
        return 0
    cards = counted
    while cards:
        total += r.points[low_index(cards)]
        cards &= cards - 1
    for seat in range(r.nseats):
        if seat == leader:
            continue
        # the ``rounds`` lowest points of his hand, kept in ``low[:n]`` in rising order
        n = 0
        cards = p.hand[seat]
        while cards:
            c = r.points[low_index(cards)]
            cards &= cards - 1
            if n == rounds and c >= low[n - 1]:
                continue
            j = n if n < rounds else n - 1
            while j > 0 and low[j - 1] > c:
                low[j] = low[j - 1]
                j -= 1
            low[j] = c
            if n < rounds:
                n += 1
        for k in range(n):
            total += low[k]
    return total


