# cython: language_level=3
"""Transposition table: see transtable.pxd for the layout and replacement rule."""

from libc.stdlib cimport calloc, free
from libc.string cimport memset

from solver.state cimport bit_extract, bit_count, MAX_SUITS


cdef inline u64 mix(u64 x) noexcept nogil:
    # splitmix64 finaliser
    x ^= x >> 30
    x *= <u64>0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= <u64>0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline u64 key_hash(const TTKey* key) noexcept nogil:
    return mix(key.plane0 * <u64>0x9e3779b97f4a7c15ULL ^ key.plane1 * <u64>0xc2b2ae3d27d4eb4fULL
               ^ key.meta)


cdef int tt_init(TransTable* tt, double size_mb) except -1:
    cdef u64 want = <u64>(size_mb * 1048576.0 / sizeof(TTEntry) / BUCKET)
    cdef u64 nb = 1
    while nb * 2 <= want:
        nb *= 2
    tt.memory = calloc(nb * BUCKET * sizeof(TTEntry) + 64, 1)
    if tt.memory == NULL:
        raise MemoryError("cannot allocate the transposition table")
    tt.entries = <TTEntry*>((<size_t>tt.memory + 63) & ~(<size_t>63))
    tt.nbuckets_mask = nb - 1
    tt.nentries = nb * BUCKET
    tt.gen = 1
    tt.probes = tt.hits = tt.stores = 0
    return 0


cdef void tt_free(TransTable* tt) noexcept nogil:
    free(tt.memory)
    tt.memory = NULL
    tt.entries = NULL


cdef void tt_clear(TransTable* tt) noexcept nogil:
    """Forget every entry in O(1): entries of an older generation are empty."""
    tt.gen += 1
    if tt.gen == 0:                       # wrapped: really wipe, once in 4e9 clears
        memset(tt.entries, 0, tt.nentries * sizeof(TTEntry))
        tt.gen = 1


cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil:
    """Rank-relative key of a trick-boundary position (``out``: cards in hands)."""
    cdef u64 meta = <u64>p.leader
    cdef int i
    for i in range(r.nsuits):
        meta |= (<u64>bit_count(out & r.suit_mask[i])) << (2 + 7 * i)
    key.meta = meta
    key.plane0 = bit_extract(p.hand[1] | p.hand[3], out)
    key.plane1 = bit_extract(p.hand[2] | p.hand[3], out)


cdef extern from *:
    void __builtin_prefetch(const void* addr) nogil


cdef void tt_prefetch(TransTable* tt, const TTKey* key) noexcept nogil:
    """Start loading the bucket of ``key`` into the cache."""
    __builtin_prefetch(tt.entries + (key_hash(key) & tt.nbuckets_mask) * BUCKET)


cdef TTEntry* tt_probe(TransTable* tt, const TTKey* key) noexcept nogil:
    cdef TTEntry* e = tt.entries + (key_hash(key) & tt.nbuckets_mask) * BUCKET
    cdef int i
    tt.probes += 1
    for i in range(BUCKET):
        if (e[i].gen == tt.gen and e[i].meta == key.meta and e[i].plane0 == key.plane0
                and e[i].plane1 == key.plane1):
            tt.hits += 1
            return &e[i]
    return NULL


cdef void tt_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                   int best) noexcept nogil:
    """Store (or tighten) the bounds of ``key``; see the replacement rule."""
    cdef TTEntry* e = tt.entries + (key_hash(key) & tt.nbuckets_mask) * BUCKET
    cdef TTEntry* victim = NULL
    cdef int i
    tt.stores += 1
    for i in range(BUCKET):
        if (e[i].gen == tt.gen and e[i].meta == key.meta and e[i].plane0 == key.plane0
                and e[i].plane1 == key.plane1):
            if lower > e[i].lower:
                e[i].lower = lower
            if upper < e[i].upper:
                e[i].upper = upper
            if best != NO_MOVE:
                e[i].best = best
            return
    for i in range(BUCKET):
        if e[i].gen != tt.gen:
            victim = &e[i]
            break
        if victim == NULL or e[i].depth < victim.depth:
            victim = &e[i]
    victim.plane0 = key.plane0
    victim.plane1 = key.plane1
    victim.meta = key.meta
    victim.gen = tt.gen
    victim.lower = lower
    victim.upper = upper
    victim.best = best
    victim.depth = depth
