# cython: language_level=3
"""The search from the root: the MTD(f) driver, and the all-pass talon-led
tricks that may come before the main search (see root.pyx)."""

from pref_engine.state cimport u64
from pref_engine.search cimport Searcher, Undo, DeclarerLeadHistory

cdef int root_moves(Searcher* s, int seat, int* moves) noexcept nogil
cdef int root_make_move(Searcher* s, int move, Undo* u) noexcept nogil
cdef void root_unmake_move(Searcher* s, int seat, int move, const Undo* u) noexcept nogil
cdef u64 root_legal_moves(Searcher* s, int seat) noexcept nogil
cdef u64 root_distinct_moves(Searcher* s, int seat) noexcept nogil
cdef int talon_trick_winner(const Searcher* s, const int* played, int leader, int talon_card) noexcept nogil
cdef bint root_reaches(Searcher* s, int target) noexcept nogil


cdef struct LeadHistory:
    # Misère enumerations (``solve_batch``): per lead card of the root, over the tests so far
    # that a root lead cut off: the tests that tried it, those it cut off, and the nodes under
    # it in them (see ``misere_root_reaches``).
    long long tried[64]
    long long held[64]
    long long nodes[64]
    DeclarerLeadHistory declarer_leads   # his leads below the root (``search.pyx``)


cdef void lead_history_reset(LeadHistory* h) noexcept nogil
cdef int root_value(Searcher* s, int guess, LeadHistory* history) noexcept nogil
