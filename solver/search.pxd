# cython: language_level=3
"""Null-window alpha-beta search and the MTD(f) driver."""

from solver.state cimport u64, Rules, Position, MAX_SEATS
from solver.transtable cimport TransTable, TTKey


cdef struct Searcher:
    Rules rules
    Position pos
    TransTable* tt
    long long nodes
    const TTKey* child_key        # the key of the next position, if the caller made it


cdef struct Undo:
    int win_seat
    int win_card
    int leader
    int played[MAX_SEATS]
    u64 trick_cards
    bint trick_done


cdef int make_move(Searcher* s, int card, Undo* u) noexcept nogil
cdef void unmake_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil
cdef bint reaches(Searcher* s, int target) noexcept nogil
cdef int solve_value(Searcher* s, int guess) noexcept nogil
