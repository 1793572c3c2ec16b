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
    tt.shared = False
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
    tt.shared = False
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


cdef void tt_set_shared(TransTable* tt) noexcept nogil:
    """Small entries checked whole, for engines in several threads (see transtable.pxd); the
    table is emptied if it was not so already."""
    if tt.shared:
        return
    tt_set_small(tt, True)
    tt.shared = True
    tt_wipe(tt)


# A shared table's small entry as two words (transtable.pxd, "Threads sharing a table"):
# CHECK = mix(planes) ^ (DATA without SMALL_USED); DATA is TTSmallEntry's second word,
# meta | gen_depth << 32 | bounds << 48 | best << 56 (little-endian).
cdef enum:
    CHECK = 0
    DATA = 1
    WORDS = 2                     # words an entry

cdef extern from *:
    """
    #define PREF_SMALL_META 0xFFFFFFFFULL
    #define PREF_SMALL_KEY 0xFFF0FFFFFFFFULL
    #define PREF_SMALL_BOUNDS 0xFF000000000000ULL
    #define PREF_SMALL_BEST 0x3F00000000000000ULL
    #define PREF_SMALL_USED 0x8000000000000000ULL
    """
    const u64 SMALL_META "PREF_SMALL_META"        # the key's third word (counts, leader)
    const u64 SMALL_KEY "PREF_SMALL_KEY"          # meta and generation: what a probe compares
    const u64 SMALL_BOUNDS "PREF_SMALL_BOUNDS"
    const u64 SMALL_BEST "PREF_SMALL_BEST"
    const u64 SMALL_USED "PREF_SMALL_USED"        # USED_BIT of best


cdef inline u64 planes_mix(const TTKey* key) noexcept nogil:
    # the planes mixed (a bijection: the check word names the planes exactly)
    return mix(key.plane0 | (key.plane1 << 32))


cdef inline bint same_key(const u64* e, u64 data, u64 want, u64 mixed) noexcept nogil:
    # the entry ``e`` (its data word read as ``data``) holds the key: meta, generation, planes
    return (data & SMALL_KEY) == want and word_load(&e[CHECK]) ^ (data & ~SMALL_USED) == mixed


if SMALL_BUCKET != 4:  # first_candidate below is unrolled for four slots
    raise ImportError(f"transtable: first_candidate is written for 4 slots a bucket, not {SMALL_BUCKET}")


cdef inline u64* first_candidate(u64* e, u64 want, u64* data) noexcept nogil:
    # the first entry of the bucket ``e`` whose data word (read into ``data``) holds the key's
    # meta and generation (NULL: none); unrolled by hand (SMALL_BUCKET = 4)
    data[0] = word_load(&e[DATA])
    if (data[0] & SMALL_KEY) == want:
        return e
    data[0] = word_load(&e[WORDS + DATA])
    if (data[0] & SMALL_KEY) == want:
        return &e[WORDS]
    data[0] = word_load(&e[2 * WORDS + DATA])
    if (data[0] & SMALL_KEY) == want:
        return &e[2 * WORDS]
    data[0] = word_load(&e[3 * WORDS + DATA])
    if (data[0] & SMALL_KEY) == want:
        return &e[3 * WORDS]
    return NULL


cdef inline void write_entry(u64* e, u64 mixed, u64 data) noexcept nogil:
    word_store(&e[CHECK], mixed ^ (data & ~SMALL_USED))
    word_store(&e[DATA], data)


cdef u64 shared_probe(TransTable* tt, const TTKey* key) noexcept nogil:
    """``tt_probe`` on a shared table (its presence filter passed): the data word of the
    key's entry (``tt_probe`` reads the bounds and best lead from it), or 0 if none (the
    data word of an entry is never 0: it holds the table's generation, 1 or more)."""
    cdef u64* e = <u64*>bucket_of(tt, key)
    cdef u64 want = (key.meta & SMALL_META) | (<u64>tt.gen) << 36
    cdef u64 mixed, data
    cdef u64* entry = first_candidate(e, want, &data)
    if entry == NULL:
        return 0
    mixed = planes_mix(key)               # (the planes are mixed only for a candidate)
    if pref_unlikely(word_load(&entry[CHECK]) ^ (data & ~SMALL_USED) != mixed):
        # another key of the same meta, or an entry torn by a writer: the later slots
        entry += WORDS
        while True:
            if entry == &e[SMALL_BUCKET * WORDS]:
                return 0
            data = word_load(&entry[DATA])
            if same_key(entry, data, want, mixed):
                break
            entry += WORDS
    tt.hits += 1
    if not data & SMALL_USED:
        word_store(&entry[DATA], data | SMALL_USED)
    return data


cdef void shared_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                       int best) noexcept nogil:
    """``tt_store`` on a shared table (the replacement rule of ``store_small``). A new entry
    goes to slot 0 and the entries before the victim shift down, so the entries of the current
    generation fill a prefix of the bucket and the scan stops at the first empty slot: every
    write of a probe or a store writes a data word of the writer's generation, at or before the
    first empty slot it saw, so threads of one generation keep the prefix whatever their
    interleaving. (An engine still searching in the generation before a ``clear`` can
    overwrite a slot in front of a newer entry: the scan then misses that entry and the key is
    stored again, in front, with true bounds; the older copy's bounds are no longer tightened.
    Nodes may rise, never a value.)"""
    cdef u64* e = <u64*>bucket_of(tt, key)
    cdef u64 want = (key.meta & SMALL_META) | (<u64>tt.gen) << 36
    cdef u64 mixed = planes_mix(key)
    cdef u64 data
    cdef u64* word = &tt.filter[(key.hash & tt.filter_mask) >> 6]
    cdef u64 bit = (<u64>1) << (key.hash & 63)
    cdef int i, lo, up, victim = -1
    if not word_load(word) & bit:
        word_store(word, word_load(word) | bit)
    for i in range(SMALL_BUCKET):
        data = word_load(&e[i * WORDS + DATA])
        if (data & SMALL_KEY) != want:
            if ((data >> 36) & (GEN_LIMIT - 1)) != tt.gen:
                victim = i                # the first empty slot: the entries end here
                break
        elif same_key(&e[i * WORDS], data, want, mixed):
            lo = (data >> 48) & 15
            up = (data >> 52) & 15
            if lower > lo:
                lo = lower
            if upper < up:
                up = upper
            data = (data & ~SMALL_BOUNDS) | (<u64>(lo | (up << 4))) << 48
            if best != NO_MOVE:
                data = (data & ~SMALL_BEST) | (<u64>best) << 56
            write_entry(&e[i * WORDS], mixed, data)
            return
    if victim < 0:
        victim = SMALL_BUCKET - 1
        while victim >= 0 and (word_load(&e[victim * WORDS + DATA]) & SMALL_USED):
            victim -= 1
        if victim < 0:
            for i in range(SMALL_BUCKET):
                word_store(&e[i * WORDS + DATA], word_load(&e[i * WORDS + DATA]) & ~SMALL_USED)
            victim = SMALL_BUCKET - 1
    for i in range(victim, 0, -1):
        word_store(&e[i * WORDS + CHECK], word_load(&e[(i - 1) * WORDS + CHECK]))
        word_store(&e[i * WORDS + DATA], word_load(&e[(i - 1) * WORDS + DATA]))
    write_entry(e, mixed, want | (<u64>depth) << 32 | (<u64>(lower | (upper << 4))) << 48
                | (<u64>(BEST_BITS if best == NO_MOVE else best)) << 56)
