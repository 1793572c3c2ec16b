# cython: language_level=3
"""Misère: the declarer clean of, or caught for, every trick left, rank by rank.

``quicktricks.misere_sure`` decides the all-or-nothing cases from one card per suit: *clean*
when the declarer's highest card of every shared suit is below all the defenders' cards,
*caught* when his lowest card of every suit is above them. Comparing the cards rank by rank
decides more positions (one declarer seat, no trumps, at a trick boundary):

* **clean**: in every suit both sides hold, his ``j``-th lowest card lies under the
  defenders' ``j``-th lowest (their cards counted together), for every ``j`` both sides
  have. He ducks each round of such a suit with his highest card under the card led, and
  discards the highest card of some suit; the condition survives both (``stays_under``),
  so he never takes a trick, never leads, and suits only he holds are never led. On lead he
  needs an exit: a suit whose cards all lie under every defender's card of it (he leads
  its highest; someone must overtake, and the condition still holds after the trick).
* **clean after one lead**: he is on lead, and leading the highest card of one suit leaves
  his other cards clean by rank, with an exit in which some defender holds two cards or more
  (so the trick cannot strip it): he takes at most that trick. (Whoever wins it, he is clean
  after it, and holds an exit if it was his.)
* **caught**: he is on lead and in every suit he holds, each defender's cards lie under
  his rank by rank. Whatever he leads, each defender ducks it with his highest card under
  it, or discards the highest card of some suit, and the condition survives: he takes
  every trick and keeps the lead. (Not with a defender on lead: the lowest card he leads
  leaves a gap in his own cards.)

Inline (``.pxd`` only): compiled into the search.
"""

from pref_engine.state cimport (Rules, Position, u64, low_index, high_index, bit_count, MAX_SUITS,
                                single_declarer)


cdef inline bint stays_under(u64 low, u64 high) noexcept nogil:
    """Cards of one suit: the ``j``-th lowest of ``low`` under the ``j``-th lowest of
    ``high``, for every ``j`` both have.

    It survives a round in which ``high``'s side plays a card ``h`` and ``low``'s side its
    highest card under ``h``: say ``h`` is the ``m``-th lowest of ``high`` and the card
    played the ``p``-th lowest of ``low``. If ``low`` holds a card above it, ``p`` is at least
    ``m`` (else the ``(p + 1)``-th lowest of ``low`` would lie above ``h``, so above the
    ``(p + 1)``-th of ``high``), so the cards of ``low`` above the one played move down a
    place as ``h`` leaves from under them. Any other card leaving ``high``, and the highest
    card leaving ``low``, keep it too.
    """
    cdef int j = 0
    cdef int k = bit_count(low)
    while high and j < k:
        j += 1
        if bit_count(low & ((high & (0 - high)) - 1)) < j:    # fewer than j under the j-th
            return False
        high &= high - 1
    return True


cdef inline bint misere_clean_by_rank(const Rules* r, const Position* p) noexcept nogil:
    """True if the declarer can lose every trick left (the module's *clean*)."""
    cdef int declarer, i, s
    cdef u64 own, theirs = 0
    cdef u64 suit_own, suit_theirs
    cdef bint exit_lead = False
    if p.trump >= 0:
        return False
    declarer = single_declarer(r)
    if declarer < 0:
        return False
    for i in range(r.nseats):
        if i != declarer:
            theirs |= p.hand[i]
    own = p.hand[declarer]
    for s in range(r.nsuits):
        suit_own = own & r.suit_mask[s]
        suit_theirs = theirs & r.suit_mask[s]
        if not suit_own or not suit_theirs:
            continue
        if not stays_under(suit_own, suit_theirs):
            return False
        if high_index(suit_own) < low_index(suit_theirs):
            exit_lead = True
    return p.leader != declarer or exit_lead


cdef inline bint misere_caught_by_rank(const Rules* r, const Position* p) noexcept nogil:
    """True if the declarer, on lead, must take every trick left (the module's *caught*)."""
    cdef int declarer, i, s
    cdef u64 suit_own, h
    if p.trump >= 0:
        return False
    declarer = single_declarer(r)
    if declarer < 0 or p.leader != declarer:
        return False
    for s in range(r.nsuits):
        suit_own = p.hand[declarer] & r.suit_mask[s]
        if not suit_own:
            continue
        for i in range(r.nseats):
            if i != declarer:
                h = p.hand[i] & r.suit_mask[s]
                if h and not stays_under(h, suit_own):
                    return False
    return True


cdef inline bint misere_clean_after_lead(const Rules* r, const Position* p) noexcept nogil:
    """True if the declarer, on lead, takes at most one more trick (the module's *clean after
    one lead*)."""
    cdef int declarer, i, s
    cdef u64 theirs = 0
    cdef u64 own, other, rest
    cdef int unclean = 0, unclean_suit = -1
    cdef bint deep
    cdef bint clean[MAX_SUITS]
    cdef bint clean_rest[MAX_SUITS]      # without his highest card of the suit
    cdef bint exit_suit[MAX_SUITS]
    cdef bint exit_rest[MAX_SUITS]
    if p.trump >= 0:
        return False
    declarer = single_declarer(r)
    if declarer < 0 or p.leader != declarer:
        return False
    for i in range(r.nseats):
        if i != declarer:
            theirs |= p.hand[i]
    for s in range(r.nsuits):
        own = p.hand[declarer] & r.suit_mask[s]
        other = theirs & r.suit_mask[s]
        clean[s] = clean_rest[s] = True
        exit_suit[s] = exit_rest[s] = False
        if not own or not other:
            continue
        rest = own & ~((<u64>1) << high_index(own))
        clean[s] = stays_under(own, other)
        clean_rest[s] = stays_under(rest, other)
        deep = False
        for i in range(r.nseats):
            if i != declarer and bit_count(p.hand[i] & r.suit_mask[s]) >= 2:
                deep = True
        exit_suit[s] = deep and high_index(own) < low_index(other)
        exit_rest[s] = deep and rest != 0 and high_index(rest) < low_index(other)
        if not clean[s]:
            unclean += 1
            unclean_suit = s
    if unclean > 1:
        return False
    for s in range(r.nsuits):
        # the suit he leads its highest card of: the one not clean, if any
        if not (p.hand[declarer] & r.suit_mask[s]) or (unclean and s != unclean_suit):
            continue
        if not clean_rest[s]:
            continue
        if exit_rest[s]:
            return True
        for i in range(r.nsuits):
            if i != s and exit_suit[i]:
                return True
    return False
