# cython: language_level=3
"""Transposition table: see transtable.pxd for the layout and replacement rule."""

from libc.stdlib cimport calloc, free
from libc.string cimport memset

from solver.state cimport bit_extract, bit_count, MAX_SUITS


cdef inline bint maybe_stored(const TransTable* tt, const TTKey* key) noexcept nogil:
    cdef u64 b = key.hash & tt.filter_mask
    return (tt.filter[b >> 6] >> (b & 63)) & 1


cdef int tt_init(TransTable* tt, double size_mb) except -1:
    cdef u64 total = <u64>(size_mb * 1048576.0)
    cdef u64 fbits = 1 << 12
    cdef u64 nb
    # The filter: about one bit per two entries, at most 2 ** 21 bits (256 KB).
    while fbits * 2 <= total // (sizeof(TTEntry) * 2) and fbits < (1 << 21):
        fbits *= 2
    nb = (total - fbits // 8) // (sizeof(TTEntry) * BUCKET)
    if nb < 1:
        nb = 1
    if nb >= (<u64>1 << 32):
        nb = (<u64>1 << 32) - 1
    tt.memory = calloc(nb * BUCKET * sizeof(TTEntry) + fbits // 8 + 64, 1)
    if tt.memory == NULL:
        raise MemoryError("cannot allocate the transposition table")
    tt.entries = <TTEntry*>((<size_t>tt.memory + 63) & ~(<size_t>63))
    tt.filter = <u64*>(tt.entries + nb * BUCKET)
    tt.filter_mask = fbits - 1
    tt.nbuckets = nb
    tt.nentries = nb * BUCKET
    tt.gen = 1
    tt.probes = tt.hits = tt.stores = 0
    return 0


cdef void tt_free(TransTable* tt) noexcept nogil:
    free(tt.memory)
    tt.memory = NULL
    tt.entries = NULL


cdef void tt_clear(TransTable* tt) noexcept nogil:
    """Forget every entry: entries of an older generation are empty; the filter is wiped."""
    tt.gen += 1
    memset(tt.filter, 0, (tt.filter_mask + 1) // 8)
    if tt.gen == 0:                       # wrapped: really wipe, once in 4e9 clears
        memset(tt.entries, 0, tt.nentries * sizeof(TTEntry))
        tt.gen = 1


cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil:
    """Rank-relative key of a trick-boundary position (``out``: cards in hands)."""
    key.meta = tt_suit_counts(r, out) | <u64>p.leader
    key.plane0 = bit_extract(p.hand[1] | p.hand[3], out)
    key.plane1 = bit_extract(p.hand[2] | p.hand[3], out)
    tt_hash_key(key)


cdef TTEntry* tt_probe(TransTable* tt, const TTKey* key) noexcept nogil:
    cdef TTEntry* e = bucket_of(tt, key)
    cdef int i
    tt.probes += 1
    if not maybe_stored(tt, key):
        # Surely absent: skip the memory load (the bucket is fetched for the store).
        prefetch_line(e)
        return NULL
    for i in range(BUCKET):
        if (e[i].gen == tt.gen and e[i].meta == key.meta and e[i].plane0 == key.plane0
                and e[i].plane1 == key.plane1):
            tt.hits += 1
            return &e[i]
    return NULL


cdef void tt_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                   int best) noexcept nogil:
    """Store (or tighten) the bounds of ``key``; see the replacement rule."""
    cdef TTEntry* e = bucket_of(tt, key)
    cdef TTEntry* victim = NULL
    cdef int i
    tt.stores += 1
    tt.filter[(key.hash & tt.filter_mask) >> 6] |= (<u64>1) << (key.hash & 63)
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
    # Two tiers: slot 0 keeps the entry with the most tricks left (costly to
    # recompute), slot 1 the latest of the others.
    if e[0].gen != tt.gen or depth >= e[0].depth:
        if e[0].gen == tt.gen:
            e[1] = e[0]
        victim = &e[0]
    else:
        victim = &e[1]
    victim.plane0 = key.plane0
    victim.plane1 = key.plane1
    victim.meta = key.meta
    victim.gen = tt.gen
    victim.lower = lower
    victim.upper = upper
    victim.best = best
    victim.depth = depth
