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

Layout: as many buckets of ``BUCKET`` (= 2) 32-byte entries as the size
allows, one 64-byte cache line per bucket; the bucket is chosen by the high
half of a hash of the key (multiplied by the number of buckets, so any number
works). Replacement rule, in order: the entry with the same key (bounds
tightened); an entry of an older generation (``clear`` only bumps the
generation); else two tiers: slot 0 keeps the entry with the most tricks left
(costly to recompute) and the displaced one moves to slot 1, or the new entry
takes slot 1 (the latest of the shallower ones). Keeping the latest shallow
entries matters when the table is full, as in an enumeration of splits.

Presence filter: one bit per hash value (the low bits of the key's hash),
set on every store and wiped by ``clear``. A probe whose bit is clear is a
sure miss and skips the load of its bucket (it only prefetches it for the
store that follows the search). Fresh solves touch a few thousand scattered
buckets, so this saves most of their memory stalls; a full table sets every
bit and the filter then costs one cached load per probe. The filter's bytes
are part of the table's fixed size.
"""

from solver.state cimport u64, Rules, Position, bit_count

cdef enum:
    BUCKET = 2
    NO_MOVE = 255


cdef struct TTKey:
    u64 plane0                    # cards out held by seat 1 or 3
    u64 plane1                    # cards out held by seat 2 or 3
    u64 meta                      # cards out per suit, leader
    u64 hash                      # of the three words (``tt_hash_key``)


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
    u64 nbuckets                  # number of buckets (below 2 ** 32)
    u64 nentries
    u64* filter                   # one bit per hash: set when a key with it is stored
    u64 filter_mask               # number of filter bits - 1
    unsigned int gen
    long long probes
    long long hits
    long long stores


cdef int tt_init(TransTable* tt, double size_mb) except -1
cdef void tt_free(TransTable* tt) noexcept nogil
cdef void tt_clear(TransTable* tt) noexcept nogil
cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil
cdef extern from *:
    void prefetch_line "__builtin_prefetch"(const void* addr) nogil


cdef inline TTEntry* bucket_of(const TransTable* tt, const TTKey* key) noexcept nogil:
    # the high half of the hash scaled to the number of buckets (any number)
    return tt.entries + (((key.hash >> 32) * tt.nbuckets) >> 32) * BUCKET


cdef inline void tt_prefetch(const TransTable* tt, const TTKey* key) noexcept nogil:
    """Start loading the bucket of ``key`` into the cache."""
    prefetch_line(bucket_of(tt, key))


cdef inline u64 tt_suit_counts(const Rules* r, u64 out) noexcept nogil:
    """The cards-per-suit part of ``TTKey.meta`` for the cards ``out``."""
    cdef u64 meta = 0
    cdef int i
    for i in range(r.nsuits):
        meta |= (<u64>bit_count(out & r.suit_mask[i])) << (2 + 7 * i)
    return meta


cdef inline u64 mix(u64 x) noexcept nogil:
    # splitmix64 finaliser
    x ^= x >> 30
    x *= <u64>0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= <u64>0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline void tt_hash_key(TTKey* key) noexcept nogil:
    key.hash = mix(key.plane0 * <u64>0x9e3779b97f4a7c15ULL
                   ^ key.plane1 * <u64>0xc2b2ae3d27d4eb4fULL ^ key.meta)


cdef inline u64 tt_suit_one(int suit) noexcept nogil:
    """One card of ``suit`` in the counts of ``TTKey.meta``."""
    return (<u64>1) << (2 + 7 * suit)


cdef TTEntry* tt_probe(TransTable* tt, const TTKey* key) noexcept nogil
cdef void tt_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                   int best) noexcept nogil
