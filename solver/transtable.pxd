# cython: language_level=3
"""Fixed-size transposition table keyed on rank-relative holdings.

Entries live at trick boundaries only. The key renumbers the cards still in
play (``bit_extract`` of each hand over the cards out), so positions that
differ only in cards already played share an entry. An entry holds a lower
and an upper bound on the declarer side's tricks from that position and the
best lead found (as an index among the cards out).

The key is three words: the owners of the cards out, in card order, as two
bit planes (owner = plane0 + 2 * plane1, seats 0-3), and the number of cards
out per suit with the leader. It is exact for any game of up to 64 cards.

Layout: ``2 ** k`` buckets of ``BUCKET`` 32-byte entries, one 64-byte cache
line per bucket; the bucket is chosen by a hash of the key. Replacement rule, in order: the entry with the
same key; an entry of an older generation (``clear`` only bumps the
generation); the entry with the fewest tricks left (cheapest to recompute).
"""

from solver.state cimport u64, Rules, Position

cdef enum:
    BUCKET = 2
    NO_MOVE = 255


cdef struct TTKey:
    u64 plane0                    # cards out held by seat 1 or 3
    u64 plane1                    # cards out held by seat 2 or 3
    u64 meta                      # cards out per suit, leader


cdef struct TTEntry:
    u64 plane0
    u64 plane1
    u64 meta
    unsigned int gen
    signed char lower
    signed char upper
    unsigned char best            # index of the best lead among the cards out
    unsigned char depth           # tricks left


cdef struct TransTable:
    TTEntry* entries
    void* memory                  # the allocation (entries are cache-line aligned in it)
    u64 nbuckets_mask             # number of buckets - 1
    u64 nentries
    unsigned int gen
    long long probes
    long long hits
    long long stores


cdef int tt_init(TransTable* tt, double size_mb) except -1
cdef void tt_free(TransTable* tt) noexcept nogil
cdef void tt_clear(TransTable* tt) noexcept nogil
cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil
cdef TTEntry* tt_probe(TransTable* tt, const TTKey* key) noexcept nogil
cdef void tt_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                   int best) noexcept nogil
cdef void tt_prefetch(TransTable* tt, const TTKey* key) noexcept nogil
