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

from pref_engine.state cimport (Rules, Position, u64, low_index, high_index, bit_count,
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


cdef inline bint deep_suit(const Rules* r, const Position* p, int declarer, int s) noexcept nogil:
    """Some defender holds two cards or more of suit ``s`` (one trick cannot strip it)."""
    cdef int i
    for i in range(r.nseats):
        if i != declarer and bit_count(p.hand[i] & r.suit_mask[s]) >= 2:
            return True
    return False


cdef inline int misere_by_rank(const Rules* r, const Position* p, u64 out, int target) noexcept nogil:
    """The module's three rules in one pass over the suits, at a trick's start (``out``: the
    cards in the hands): 1 if the declarer must take every trick left (*caught*), -1 if he
    can stay under ``target`` (*clean*; *clean after one lead* for a target of 2 or more),
    else 0.

    A suit both sides hold is *unclean* where his cards do not stay under theirs rank by
    rank; *clean* wants none (and on lead an exit), *clean after one lead* at most one,
    the suit he then leads the highest card of. The pass stops as soon as no rule can hold.
    """
    cdef int declarer, i, s
    cdef u64 own, theirs, suit_own, suit_theirs, rest, h
    cdef bint on_lead, caught, after_lead
    cdef int unclean = 0
    cdef bint exits = False           # a suit whose cards all lie under theirs
    cdef bint deep_exits = False      # ... that some defender holds two cards or more of
    cdef bint rest_exit = False       # a suit whose cards but the highest are a deep exit
    cdef bint unclean_rest_clean = False   # the unclean suit without its highest card
    cdef bint unclean_rest_exit = False
    if p.trump >= 0:
        return 0
    declarer = single_declarer(r)
    if declarer < 0:
        return 0
    own = p.hand[declarer]
    theirs = out & ~own
    on_lead = p.leader == declarer
    caught = on_lead
    after_lead = on_lead and target >= 2
    for s in range(r.nsuits):
        suit_own = own & r.suit_mask[s]
        suit_theirs = theirs & r.suit_mask[s]
        if not suit_own or not suit_theirs:
            continue
        if caught:
            for i in range(r.nseats):
                if i != declarer:
                    h = p.hand[i] & r.suit_mask[s]
                    if h and not stays_under(h, suit_own):
                        caught = False
                        break
        if unclean == 0 or (unclean == 1 and unclean_rest_clean):
            rest = suit_own & ~((<u64>1) << high_index(suit_own))
            if stays_under(suit_own, suit_theirs):
                if high_index(suit_own) < low_index(suit_theirs):
                    exits = True
                    if after_lead and not deep_exits:
                        deep_exits = deep_suit(r, p, declarer, s)
                elif (after_lead and not rest_exit and rest and high_index(rest) < low_index(suit_theirs)
                      and deep_suit(r, p, declarer, s)):
                    rest_exit = True
            else:
                unclean += 1
                if after_lead and unclean == 1:
                    unclean_rest_clean = stays_under(rest, suit_theirs)
                    unclean_rest_exit = (unclean_rest_clean and rest != 0
                                         and high_index(rest) < low_index(suit_theirs)
                                         and deep_suit(r, p, declarer, s))
        if not caught and not (unclean == 0 or (unclean == 1 and unclean_rest_clean)):
            return 0
    if unclean == 0 and (not on_lead or exits):
        return -1
    if caught:
        return 1
    if after_lead:
        if unclean == 0 and rest_exit:
            return -1
        if unclean == 1 and unclean_rest_clean and (unclean_rest_exit or deep_exits):
            return -1
    return 0
