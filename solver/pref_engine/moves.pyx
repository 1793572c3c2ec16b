# cython: language_level=3
"""Move ordering (the heuristics are inline in moves.pxd, compiled into each search)."""


cdef int order_moves_declaring(const Rules* r, const Position* p, int seat, u64 moves, int first,
                               u64 out, int* cards, int room) noexcept nogil:
    """``order_moves`` (``order_points_moves`` for the Thousand heuristics), then at a lead
    ``add_declarations``. Out of line, for the search of
    points and declarations: the trick-count search is then ``order_moves``'s only caller in
    its module, and the compiler keeps it inlined there."""
    cdef int n
    if r.heuristics == HEURISTICS_THOUSAND:
        n = order_points_moves(r, p, seat, moves, first, out, cards)
    else:
        n = order_moves(r, p, seat, moves, first, out, cards, room)
    if r.nmarriages and p.nplayed == 0:
        n = add_declarations(r, p, seat, cards, n, first)
    return n
