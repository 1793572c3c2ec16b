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


cdef inline bint misere_escapes_one(const Rules* r, const Position* p) noexcept nogil:
    """At a trick's start (one declarer seat, no trumps, three seats) with a defender on lead:
    True if the declarer surely takes fewer than all the tricks left; False where this rule
    cannot tell (and with him on lead: there the search asks ``misere_by_rank``).

    To take every trick he must keep the lead once he has it, and with him on lead *caught*
    is exact: where some defender's cards of a suit he holds do not lie under his rank by
    rank (an *escape suit*: the ``j``-th lowest above his ``j``-th lowest), he leads that suit
    from the bottom; the defender ducks his first ``j - 1`` cards with cards under them and
    then, holding the suit with none under the ``j``-th, must overtake.

    A defender on lead must make him take this trick, so leads a card under all his cards of
    a *forcing* suit (as in ``suretrick.misere_trick``: the partner void in it or holding a
    card under them too); then he is on lead and must be caught. An escape suit of the
    leader's stays one: outside the led suit the leader keeps his cards; in it he plays one
    under all the declarer's, and the declarer his highest (the ``j``-th violation moves to
    the ``j - 1``-th). So does one of the partner's: outside the led suit he keeps his cards
    unless, void in it, he discards; in it he plays under the declarer's card (the declarer
    plays his lowest when the partner plays after him, else his highest). The partner's
    discard removes one escape suit at most, and only where the violation is at his highest
    card of it alone (any other card leaving moves it up, not away).
    """
    cdef int declarer = r.lone_declarer
    cdef int partner, s
    cdef u64 own, suit_own, lead_s, part_s
    cdef unsigned int forcing = 0, partner_escapes = 0, discard_fixes = 0, partner_voids = 0
    cdef unsigned int bit
    if p.trump >= 0 or declarer < 0 or r.nseats != 3:
        return False
    if p.leader == declarer:
        return False
    own = p.hand[declarer]
    partner = 3 - declarer - p.leader
    for s in range(r.nsuits):
        bit = 1u << s
        suit_own = own & r.suit_mask[s]
        lead_s = p.hand[p.leader] & r.suit_mask[s]
        part_s = p.hand[partner] & r.suit_mask[s]
        if not part_s:
            partner_voids |= bit
        if not suit_own:
            continue
        if lead_s and not stays_under(lead_s, suit_own):
            return True
        if part_s and not stays_under(part_s, suit_own):
            partner_escapes |= bit
            if stays_under(part_s & ~((<u64>1) << high_index(part_s)), suit_own):
                discard_fixes |= bit
        if (lead_s and low_index(lead_s) < low_index(suit_own)
                and (not part_s or low_index(part_s) < low_index(suit_own))):
            forcing |= bit
    if not forcing:
        return True               # (the one-trick rule's case: he loses this trick)
    if not partner_escapes:
        return False
    # one escape suit of the partner's, which his discard on a forcing suit he is void in fixes
    return not ((forcing & partner_voids) and not (partner_escapes & (partner_escapes - 1))
                and partner_escapes == discard_fixes)


cdef inline bint misere_escapes_two(const Rules* r, const Position* p) noexcept nogil:
    """At a trick's start (one declarer seat, no trumps, three seats), the declarer on lead and
    not *caught*: True if he surely takes at most all the tricks left but two.

    Some defender holds escape suits (``misere_escapes_one``) in three suits, or in two of
    which one stays an escape when he discards his highest card of it. The declarer leads
    the other from the bottom: he escapes a trick within the round that holds the violation,
    and the defender follows suit throughout, so keeps his other escape suits. Then a
    defender is on lead and he needs every trick left: that defender's escape suit, or two
    of the partner's, or one the partner's discard cannot remove, give him another escape
    (``misere_escapes_one``).
    """
    cdef int declarer = r.lone_declarer
    cdef int i, s, escapes, kept
    cdef u64 own, suit_own, h
    if p.trump >= 0 or declarer < 0 or r.nseats != 3 or p.leader != declarer:
        return False
    own = p.hand[declarer]
    for i in range(r.nseats):
        if i == declarer:
            continue
        escapes = 0
        kept = 0
        for s in range(r.nsuits):
            suit_own = own & r.suit_mask[s]
            h = p.hand[i] & r.suit_mask[s]
            if suit_own and h and not stays_under(h, suit_own):
                escapes += 1
                if not stays_under(h & ~((<u64>1) << high_index(h)), suit_own):
                    kept += 1
        if escapes >= 3 or (escapes == 2 and kept >= 1):
            return True
    return False


cdef inline bint misere_escapes_two_led_to(const Rules* r, const Position* p) noexcept nogil:
    """At a trick's start (one declarer seat, no trumps, three seats) with a defender on lead:
    True if the declarer surely takes at most all the tricks left but two.

    Some defender holds two *kept* escape suits ``A`` and ``B`` (``misere_escapes_two``: an
    escape suit of his that stays one without his highest card of it, so without any one
    card of it; he holds two cards of it or more). The declarer plays his highest card of
    the led suit where he holds it, else discards a card outside ``A`` and ``B`` where he
    holds one.

    * Led outside ``A`` and ``B``, he follows: the defender plays one card, so both stay
      escape suits, and one of them untouched stays kept.
    * Led in ``A``: the defender follows, ``B`` is untouched; if the declarer takes the
      trick, his card is above the defender's and ``A`` stays an escape suit: a violation
      at the defender's ``j``-th card, ``j`` below his count (kept), lies under the declarer's
      highest card played, so below the declarer's count; the card leaving the defender's
      at or under it moves it down a place over the declarer's cards under it, one above it
      leaves it where it is.
    * He is void in the led suit (and loses the trick): holding a suit outside ``A`` and
      ``B`` he keeps both escape suits. Else, if the defender follows, ``A`` or ``B`` is
      untouched and stays kept; if the defender discards too, the other defender led and
      wins the trick, and the defender keeps an escape suit and cards of ``A`` and ``B``,
      the only suits the declarer holds.

    Taking the trick, the declarer is on lead needing all the tricks left but one, with
    two escape suits of one defender of which one is kept: ``misere_escapes_two`` fails that.
    Losing it, he needs every trick left with a defender on lead, which
    ``misere_escapes_one`` fails: the defender on lead holds an escape suit, or his partner
    holds two, or a kept one, or one while void in none of the declarer's suits.
    """
    cdef int declarer = r.lone_declarer
    cdef int i, s
    cdef u64 own, suit_own, h
    cdef bint kept
    if p.trump >= 0 or declarer < 0 or r.nseats != 3 or p.leader == declarer:
        return False
    own = p.hand[declarer]
    for i in range(3):
        if i == declarer:
            continue
        kept = False
        for s in range(r.nsuits):
            suit_own = own & r.suit_mask[s]
            h = p.hand[i] & r.suit_mask[s]
            if suit_own and h and not stays_under(h & ~((<u64>1) << high_index(h)), suit_own):
                if kept:
                    return True
                kept = True
    return False
