# cython: language_level=3
"""Null-window alpha-beta search and the MTD(f) driver."""

from solver.state cimport u64, Rules, Position, MAX_SEATS
from solver.transtable cimport TransTable, TTKey


cdef enum:
    MAX_TALON = 4


cdef struct Searcher:
    Rules rules
    Position pos
    TransTable* tt
    long long nodes
    const TTKey* child_key        # the key of the next position, if the caller made it
    # All-pass with an open talon (root.pyx): talon-led tricks still to play
    # before the main search; they are never stored in the table.
    int ntalon
    int talon_next                # index of the current talon card in talon_card
    int talon_card[MAX_TALON]     # internal numbering
    bint talon_must_beat          # only a card above the talon card takes the trick
    # Partition search (partition.pyx): its table when in use, else NULL, and the
    # cards that decided the last answer.
    void* rank_table
    u64 rel


cdef struct Undo:
    int win_seat
    int win_card
    int leader
    int played[MAX_SEATS]
    u64 trick_cards
    bint trick_done
    bint talon_trick              # the move completed a talon-led trick


cdef int make_move(Searcher* s, int card, Undo* u) noexcept nogil
cdef void unmake_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil
cdef bint reaches(Searcher* s, int target) noexcept nogil
