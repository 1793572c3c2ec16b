# cython: language_level=3
"""Move ordering (the heuristics are inline in moves.pxd, compiled into each search)."""


cdef int order_moves_declaring(const Rules* r, const Position* p, int seat, u64 moves, int first,
                               u64 out, int* cards, int target) noexcept nogil:
    """``order_trick_moves`` or ``order_misere_moves`` (``order_points_moves`` for the
    Thousand heuristics), then at a lead ``add_declarations``. Out of line, for the search of
    points and declarations: each trick-count search is then its move order's only caller
    in its module, and the compiler keeps it inlined there."""
    cdef int n
    if r.heuristics == HEURISTICS_THOUSAND:
        n = order_points_moves(r, p, seat, moves, first, out, cards)
    elif r.plain_tricks:
        n = order_trick_moves(r, p, seat, moves, first, out, cards)
    else:
        n = order_misere_moves(r, p, seat, moves, first, out, cards, target)
    if r.nmarriages and p.nplayed == 0:
        n = add_declarations(r, p, seat, cards, n, first)
    return n
