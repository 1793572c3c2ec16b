# cython: language_level=3
"""Null-window search with winning-rank (partition) table entries (see partition.pyx)."""

from solver.state cimport u64
from solver.search cimport Searcher


cdef enum:
    PBUCKET = 64                  # entries per bucket


cdef struct RankEntry:
    u64 shape                     # cards per suit of every seat, 4 bits each
    u64 mask                      # the cards that decided the bound (numbered among the cards out)
    u64 plane0                    # their owners, as in TTKey (masked)
    u64 plane1
    unsigned int gen
    signed char lower
    signed char upper
    unsigned char best            # best lead, numbered among the cards out
    unsigned char leader


cdef struct RankTable:
    RankEntry* entries
    u64* filled                   # one bit per bucket: something was stored there
    u64 nbuckets
    unsigned int gen
    long long probes
    long long hits
    signed char killer[16]        # per tricks left: the last lead that cut off (-1: none yet)


cdef int rank_table_init(RankTable* t, double size_mb) except -1
cdef void rank_table_free(RankTable* t) noexcept nogil
cdef void rank_table_clear(RankTable* t) noexcept nogil
cdef bint partition_fits(const Searcher* s) noexcept nogil
cdef bint partition_reaches(Searcher* s, RankTable* t, int target) noexcept nogil
