# cython: language_level=3
"""Self-interested all-pass play: the max^n search (see maxn.pyx)."""

from pref_engine.state cimport u64, MAX_SEATS
from pref_engine.search cimport Searcher


cdef struct MaxnEntry:
    u64 plane0
    u64 plane1
    u64 meta
    unsigned int tricks           # every seat's tricks from here on, 8 bits a seat
    unsigned int gen


cdef struct MaxnTable:
    MaxnEntry* entries
    u64 nentries
    unsigned int gen


cdef struct Maxn:
    Searcher* s
    MaxnTable* table
    bint rostov                   # aim: fewer tricks than each opponent (Rostov)
    int taken[MAX_SEATS]          # tricks taken before the current position
    long long nodes


cdef int maxn_init(MaxnTable* t, double size_mb) except -1
cdef void maxn_free(MaxnTable* t) noexcept nogil
cdef void maxn_clear(MaxnTable* t) noexcept nogil
cdef unsigned int maxn_value(Maxn* m) noexcept nogil
cdef int maxn_choice(Maxn* m, unsigned int* value) noexcept nogil
