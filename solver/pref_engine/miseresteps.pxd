# cython: language_level=3
"""Misère: the sure rules at a trick's start, in the order the search asks them, shared by
the search (``search.pyx``) and an enumeration's root (``root.pyx``).

Each returns True where it decides the test of ``target`` tricks, its answer in ``*reached``.
``misere_before_table`` holds the rules cheaper than the table's probe (the trick now starting
surely his or one he can lose, and the escapes with a defender on lead), asked at the first
and last targets only; ``misere_after_table`` those the probe's answer usually spares (clean or
caught, rank by rank, then the declarer's escapes on lead). Inline (``.pxd`` only): compiled
into the search.
"""

from pref_engine.state cimport Rules, Position, u64
from pref_engine.suretrick cimport misere_trick, misere_unduckable_suit
from pref_engine.quicktricks cimport misere_sure
from pref_engine.rankbyrank cimport (misere_by_rank, misere_escapes_one, misere_escapes_two,
                                     misere_escapes_two_led_to)


cdef inline bint misere_before_table(const Rules* r, const Position* p, int target, bint* reached) noexcept nogil:
    """The trick now starting surely the declarer's (target 1 reached), or one he can lose (all
    the tricks left out of reach); on lead, a suit he cannot duck (``misere_unduckable_suit``:
    target 1 reached); a defender on lead and the declarer surely escaping a trick later
    (``misere_escapes_one``: all the tricks left out of reach)."""
    cdef int q
    if target == 1 or target == p.tricks_left:
        q = misere_trick(r, p)
        if target == 1 and (q > 0 or (q < 0 and misere_unduckable_suit(r, p))):
            reached[0] = True
            return True
        if q < 0 and target == p.tricks_left:
            reached[0] = False
            return True
        if target == p.tricks_left and p.leader != r.lone_declarer and misere_escapes_one(r, p):
            reached[0] = False
            return True
    return False


cdef inline bint misere_after_table(const Rules* r, const Position* p, u64 out, int target,
                                    bint* reached) noexcept nogil:
    """The declarer caught for every remaining trick, or clean (``misere_sure``); the rules of
    rankbyrank.pxd; then, on lead and not caught, he escapes a trick, so fails a test of every
    trick left (``misere_escapes_one``), and two, failing all but one, where
    ``misere_escapes_two`` says so."""
    cdef int q = misere_sure(r, p, out)
    if q:
        reached[0] = q > 0
        return True
    q = misere_by_rank(r, p, out, target)
    if q:
        reached[0] = q > 0
        return True
    if (target >= p.tricks_left - 1 and p.leader == r.lone_declarer and p.trump < 0
            and (target == p.tricks_left or misere_escapes_two(r, p))):
        reached[0] = False
        return True
    if target == p.tricks_left - 1 and misere_escapes_two_led_to(r, p):
        reached[0] = False
        return True
    return False
