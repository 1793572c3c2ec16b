# cython: language_level=3
"""Null-window search with winning-rank (partition) table entries (see partition.pyx)."""

from pref_engine.state cimport u64
from pref_engine.search cimport Searcher, Killers
from pref_engine.transtable cimport HugeBlock


cdef enum:
    PBUCKET = 64                  # entries per bucket
    NLEVELS = 3                   # bucket levels (``level_spread``)


cdef extern from "rankscan.h" nogil:
    # Two entries of 32 bytes, one cache line, field by field (a probe compares both at
    # once: ``rank_pair_matches``); entry ``i`` of a bucket is lane ``i & 1`` of its pair
    # ``i >> 1``.
    ctypedef struct RankPair:
        u64 key[2]                # shape (``shape_of``) | tricks left << 48 | leader << 52 | trump << 54
        u64 mask[2]               # deciding cards (numbered among the cards out) | lower << 56 | upper << 60
        u64 plane0[2]             # their owners, as in TTKey (masked)
        u64 plane1[2]             # (masked)
    unsigned rank_pair_matches(const RankPair* g, u64 word, u64 p0, u64 p1)
    unsigned rank_lane_bit(int i)


cdef struct RankKey:
    # A position's key in the winning-rank table (``rank_key``), for its probe
    # (``rank_probe``) and the store after the search (``rank_store``).
    u64 word                      # shape, tricks left, leader and trump, as in ``RankPair.key``
    u64 plane0                    # the owners of the cards out, as in TTKey
    u64 plane1
    u64 bucket[NLEVELS]           # the position's bucket at each level


cdef struct RankTable:
    RankPair* entries             # in ``memory``: PBUCKET // 2 pairs a bucket
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
