# cython: language_level=3
"""Null-window search with winning-rank (partition) table entries (see partition.pyx)."""

from pref_engine.state cimport u64
from pref_engine.search cimport Searcher, Killers
from pref_engine.transtable cimport HugeBlock


cdef enum:
    PBUCKET = 64                  # entries per bucket
    NLEVELS = 3                   # bucket levels (``level_spread``)


cdef struct RankEntry:
    # 32 bytes, two to a cache line (a probe scans many entries of a bucket)
    u64 key                       # shape (``shape_of``) | tricks left << 48 | leader << 52 | trump << 54
    u64 mask                      # deciding cards (numbered among the cards out) | lower << 56 | upper << 60
    u64 plane0                    # their owners, as in TTKey (masked)
    u64 plane1                    # (masked)


cdef struct RankKey:
    # A position's key in the winning-rank table (``rank_key``), for its probe
    # (``rank_probe``) and the store after the search (``rank_store``).
    u64 word                      # shape, tricks left, leader and trump, as in ``RankEntry.key``
    u64 plane0                    # the owners of the cards out, as in TTKey
    u64 plane1
    u64 bucket[NLEVELS]           # the position's bucket at each level


cdef struct RankTable:
    RankEntry* entries            # in ``memory``
    HugeBlock memory
    unsigned char* used           # per bucket: its used entries, the first ones (0 .. PBUCKET)
    u64 nbuckets
    long long probes
    long long hits
    Killers killers               # per tricks left (the slot): the last two leads that cut off


cdef int rank_table_init(RankTable* t, double size_mb) except -1
cdef void rank_table_free(RankTable* t) noexcept nogil
cdef void rank_table_clear(RankTable* t) noexcept nogil
cdef void rank_table_new_trump(RankTable* t) noexcept nogil
cdef bint partition_fits(const Searcher* s) noexcept nogil
cdef bint partition_reaches(Searcher* s, RankTable* t, int target) noexcept nogil
