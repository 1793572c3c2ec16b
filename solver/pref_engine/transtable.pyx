# cython: language_level=3
"""Transposition table: see transtable.pxd for the layout and replacement rule."""

from libc.string cimport memset

cdef extern from "huge_pages.h" nogil:
    char* pref_map_pages(size_t size, void** base, size_t* mapped)
    void pref_unmap_pages(void* base, size_t mapped)


cdef char* huge_alloc(HugeBlock* block, size_t size) noexcept nogil:
    """``size`` bytes, on huge pages where the system has them (huge_pages.h: the tables are
    probed all over, and with 4 KB pages most probes also missed the TLB: 5-7% slower at
    64 MB); zeroed pages straight from the system, touched lazily as calloc's are. NULL if the
    system refuses; ``huge_free`` gives the memory back."""
    return pref_map_pages(size, &block.base, &block.size)


cdef void huge_free(HugeBlock* block) noexcept nogil:
    if block.base != NULL:
        pref_unmap_pages(block.base, block.size)
    block.base = NULL


cdef int tt_init(TransTable* tt, double size_mb) except -1:
    cdef u64 total = <u64>(size_mb * 1048576.0)
    cdef u64 fbits = 1 << 12
    cdef u64 nb
    # The filter: about one bit per bucket, at most 2 ** 21 bits (256 KB).
    while fbits * 2 <= total // BUCKET_BYTES and fbits < (1 << 21):
        fbits *= 2
    nb = (total - fbits // 8) // BUCKET_BYTES
    if nb < 1:
        nb = 1
    if nb >= (<u64>1 << 32):
        nb = (<u64>1 << 32) - 1
    tt.buckets = huge_alloc(&tt.memory, nb * BUCKET_BYTES + fbits // 8)
    if tt.buckets == NULL:
        raise MemoryError("cannot allocate the transposition table")
    tt.filter = <u64*>(tt.buckets + nb * BUCKET_BYTES)
    tt.filter_mask = fbits - 1
    tt.nbuckets = nb
    tt.small = False
    tt.nentries = nb * BUCKET
    tt.gen = 1
    tt.probes = tt.hits = tt.stores = 0
    return 0


cdef void tt_free(TransTable* tt) noexcept nogil:
    huge_free(&tt.memory)
    tt.buckets = NULL


cdef void tt_wipe(TransTable* tt) noexcept nogil:
    if tt.stores:                         # (a new table is zeroed and untouched: keep it so)
        memset(tt.buckets, 0, tt.nbuckets * BUCKET_BYTES)
        memset(tt.filter, 0, (tt.filter_mask + 1) // 8)
    tt.stores = 0
    tt.gen = 1


cdef void tt_clear(TransTable* tt) noexcept nogil:
    """Forget every entry: entries of an older generation are empty; the filter is wiped."""
    tt.gen += 1
    memset(tt.filter, 0, (tt.filter_mask + 1) // 8)
    if tt.gen == GEN_LIMIT:               # the small entries' field is full: really wipe
        tt_wipe(tt)


cdef void tt_set_small(TransTable* tt, bint small) noexcept nogil:
    """Use small (``small``) or wide entries; a change of format empties the table."""
    if small == tt.small:
        return
    tt.small = small
    tt.nentries = tt.nbuckets * (SMALL_BUCKET if small else BUCKET)
    tt_wipe(tt)


cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil:
    """The key of a trick-boundary position (``out``: cards in hands): rank-relative for
    trick counts, absolute for points (see the module's notes)."""
    if r.plain_value:
        key.meta = tt_suit_counts(r, out) | <u64>p.leader
    else:
        key.meta = absolute_meta(p.leader, p.trump, p.may_declare, out)
    tt_planes(p, out, &key.plane0, &key.plane1)
    tt_hash_key(key)
