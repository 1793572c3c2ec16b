# cython: language_level=3
"""Misère: does the declarer surely take the trick now starting?

At a trick boundary of a misère without trumps and with one declarer seat, the
trick about to be played is decided by the lead and the holdings alone: either
the defenders can make him take it whatever he does (``1``), or he can lose it
whatever they do (``-1``). The search uses it as a bound on the tricks he takes:
at least one more in the first case, at most all but one in the second. Where he
can lose it on lead, ``misere_unduckable_suit`` looks one trick further: a suit the
defenders can lead to him after it. Inline (``.pxd`` only): compiled into the search.
"""

from pref_engine.state cimport Rules, Position, u64, low_index, single_declarer


cdef inline int misere_trick(const Rules* r, const Position* p) noexcept nogil:
    """1 if the declarer surely takes the trick now starting, -1 if he can lose it, 0 where
    the rule does not apply (a trump suit, or more than one seat on the declarer's side).

    The declarer on lead loses the trick when some lead of his must be overtaken: a suit
    he holds in which some defender's cards are all above his lowest card (he leads it,
    that defender must follow higher). Otherwise every lead of his wins: each defender is
    void in the suit (and discards) or holds a card below the declarer's lowest one of it,
    so below the card led, and plays it.

    A defender on lead makes him take it with a *forcing* lead: a card below all the
    declarer's cards of its suit, where every other defender is void in the suit or holds
    a card below the declarer's lowest one, so plays under whatever card the declarer
    plays (before or after him). Without such a lead the declarer loses the trick: a suit
    he is void in is discarded on; over a lead above his lowest card of the suit he plays
    that card; where another defender's cards of the suit are all above his lowest, he
    plays his lowest and that defender's card beats it.
    """
    cdef int declarer
    cdef int i, s, low
    cdef u64 own, h
    cdef bint forcing
    if p.trump >= 0:
        return 0
    declarer = single_declarer(r)
    if declarer < 0:
        return 0
    if p.leader == declarer:
        for s in range(r.nsuits):
            own = p.hand[declarer] & r.suit_mask[s]
            if not own:
                continue
            low = low_index(own)
            for i in range(r.nseats):
                if i != declarer:
                    h = p.hand[i] & r.suit_mask[s]
                    if h and low_index(h) > low:
                        return -1
        return 1
    for s in range(r.nsuits):
        own = p.hand[declarer] & r.suit_mask[s]
        h = p.hand[p.leader] & r.suit_mask[s]
        if not own or not h:
            continue
        low = low_index(own)
        if low_index(h) > low:
            continue
        forcing = True
        for i in range(r.nseats):
            if i != declarer and i != p.leader:
                h = p.hand[i] & r.suit_mask[s]
                if h and low_index(h) > low:
                    forcing = False
                    break
        if forcing:
            return 1
    return -1


cdef inline bint misere_unduckable_suit(const Rules* r, const Position* p) noexcept nogil:
    """At a trick's start with two tricks left or more (no trumps, one declarer seat, three
    seats), the declarer on lead: True if he surely takes a trick of those left. Some suit he
    holds has each defender's lowest card of it under his lowest card of it.

    He leads the first trick. A card of that suit wins it: each defender plays a card under
    it. Else each defender keeps his lowest card of the suit: he follows the suit led, or,
    void in it, discards a card of another suit, or his highest of this one when he holds
    no other (two cards or more). If a defender wins the trick he leads that lowest card,
    his partner plays his own, the declarer must follow with a card of the suit (he holds
    all of his), above both, and takes the trick."""
    cdef int declarer = r.lone_declarer
    cdef int i, s, low
    cdef u64 own, h
    cdef bint both
    if p.trump >= 0 or declarer < 0 or r.nseats != 3 or p.leader != declarer:
        return False
    for s in range(r.nsuits):
        own = p.hand[declarer] & r.suit_mask[s]
        if not own:
            continue
        low = low_index(own)
        both = True
        for i in range(3):
            if i != declarer:
                h = p.hand[i] & r.suit_mask[s]
                if not h or low_index(h) > low:
                    both = False
                    break
        if both:
            return True
    return False
