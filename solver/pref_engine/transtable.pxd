# cython: language_level=3
"""Fixed-size transposition table keyed on rank-relative holdings.

Entries live at trick boundaries only. The key renumbers the cards still in
play (``bit_extract`` of each hand over the cards out), so positions that
differ only in cards already played share an entry. An entry holds a lower
and an upper bound on the declarer side's tricks from that position and the
best lead found (as an index among the cards out).

The key is three words: the owners of the cards out, in card order, as two
bit planes (owner = plane0 + 2 * plane1, seats 0-3), and the number of cards
out per suit (6 bits a suit) with the leader. It is exact for any game of up
to 64 cards whose value is a trick count (``Rules.plain_value``).

Where tricks are worth their card points, or marriages may be declared, cards
of one rank order are no longer interchangeable (their points differ, a queen
is half of a marriage): the key is *absolute*, the planes as above and in the
third word the cards out themselves (upper 32 bits: at most 32 cards), the
leader, the trump (it changes with a marriage) and whether the leader may
declare. The key functions below are the only place that knows the layout.

Layout: buckets of one 64-byte cache line each, as many as the size allows;
the bucket is chosen by the high half of a hash of the key (multiplied by the
number of buckets, so any number works). Two entry formats share it:

* *small* (16 bytes, 4 a bucket) for trick counts in games of at most 32
  cards (Preferans): both planes fit one word and the bounds 4 bits each. Twice the
  entries in the same memory, which is what an enumeration of splits needs
  (its table is always full).
* *wide* (32 bytes, 2 a bucket) for bigger decks and for points (bounds of
  16 bits: Thousand's card points and marriages exceed 300).

The engine picks the format from the rules (``tt_set_small``). Replacement
rule, in order: the entry with the same key (bounds tightened); an entry of
an older generation (``clear`` only bumps the generation); else

* small buckets keep their entries in the order stored, latest first, and a
  probe that finds an entry marks it used: the oldest entry not used since it
  was stored goes (the used ones get a second chance; if all were used, the
  marks are cleared and the oldest goes). In an enumeration of splits (the
  table always full) this keeps the entries that later layouts share and drops
  those of one layout only: 7% fewer nodes than keeping the deepest entry;
* wide buckets: two tiers, slot 0 the entry with the most tricks left (costly
  to recompute) and slot 1 the latest of the others.

Presence filter: one bit per hash value (the low bits of the key's hash),
set on every store and wiped by ``clear``. A probe whose bit is clear is a
sure miss and skips the load of its bucket (it only prefetches it for the
store that follows the search). Fresh solves touch a few thousand scattered
buckets, so this saves most of their memory stalls; a full table sets every
bit and the filter then costs one cached load per probe. The filter's bytes
are part of the table's fixed size.

Threads sharing a table (``Engine(share_with=...)``, an enumeration's threads): small entries
only, probed and stored without locks (lockless hashing, as in Hyatt and Mann's chess
programs; ``shared_probe`` and ``shared_store`` in transtable.pyx, called out of line so that
a table of one engine keeps its inlined code). A shared table's small entry is two words:
``data``, the second word of ``TTSmallEntry`` (meta, tricks left and generation, bounds, best
lead and the used bit), and ``check`` = ``mix(planes) ^ data`` in place of the planes (the
used bit left out), each loaded and stored whole (``word_load``/``word_store``). A probe
takes an entry only if ``data`` holds the key's meta and the generation and ``check ^ data``
is the key's ``mix(planes)``; ``mix`` is a bijection, so for an entry written whole this is
exactly the key. An entry torn by another thread (one word from each of two writes) passes
only if ``mix`` of two different planes differ by exactly the XOR of the two data words: one
chance in about 2 ** 64, on top of the tear itself (rare) and the 44 bits of meta and
generation it must match; otherwise it is a miss, and a miss is always safe. A lost update
(two threads tightening or replacing in one bucket at once) drops a bound or an entry, never
makes one false: every entry written holds bounds true of its key. Likewise a presence filter
bit lost to two threads setting bits of one word at once is only a miss; a shared store sets
its bit only where it is clear, so that once the table is full the threads no longer write
the filter's cache lines (each write would take the line from the other core).

Probe and store are ``inline`` here so the search compiles them in place.
"""

from pref_engine.state cimport u64, Rules, Position, bit_count, bit_extract, MAX_SEATS, MAX_SUITS

cdef extern from *:
    void prefetch_line "__builtin_prefetch"(const void* addr) nogil

cdef extern from "bits.h" nogil:
    bint pref_unlikely(bint x)
    u64 word_load(const u64* p)
    void word_store(u64* p, u64 x)

cdef enum:
    BUCKET_BYTES = 64
    BUCKET = 2                    # wide entries a bucket
    SMALL_BUCKET = 4              # small entries a bucket
    NO_MOVE = 255
    BEST_BITS = 63                # small entries: the best lead (63: none) ...
    USED_BIT = 128                # ... and a bit set when a probe finds the entry
    GEN_LIMIT = 4096              # generations fit the small entries' 12 bits
    SMALL_MAX_CARDS = 32


cdef struct TTKey:
    u64 plane0                    # cards out held by seat 1 or 3
    u64 plane1                    # cards out held by seat 2 or 3
    u64 meta                      # cards out per suit, leader
    u64 hash                      # of the three words (``tt_hash_key``)


cdef struct TTEntry:              # wide: 32 bytes
    u64 plane0
    u64 plane1
    u64 meta
    unsigned short gen            # (below GEN_LIMIT)
    short lower
    short upper
    unsigned char best            # index of the best lead among the cards out (| DECLARE)
    unsigned char depth           # tricks left


cdef struct TTSmallEntry:         # small: 16 bytes, at most 32 cards and 15 tricks
    u64 planes                    # plane0 | plane1 << 32
    unsigned int meta
    unsigned short gen_depth      # generation << 4 | tricks left
    unsigned char bounds          # lower | upper << 4
    unsigned char best


cdef struct HugeBlock:           # a mapping made by ``huge_alloc``
    void* base
    size_t size


cdef char* huge_alloc(HugeBlock* block, size_t size) noexcept nogil
cdef void huge_free(HugeBlock* block) noexcept nogil


cdef struct TransTable:
    char* buckets                 # nbuckets cache lines
    HugeBlock memory              # the allocation (``huge_alloc``)
    u64 nbuckets                  # number of buckets (below 2 ** 32)
    u64 nentries                  # entries in the current format
    bint small                    # small entries in use
    bint shared                   # small entries checked whole: engines in threads share it
    u64* filter                   # one bit per hash: set when a key with it is stored
    u64 filter_mask               # number of filter bits - 1
    unsigned int gen
    long long probes
    long long hits
    long long stores


cdef int tt_init(TransTable* tt, double size_mb) except -1
cdef void tt_free(TransTable* tt) noexcept nogil
cdef void tt_clear(TransTable* tt) noexcept nogil
cdef void tt_set_small(TransTable* tt, bint small) noexcept nogil
cdef void tt_set_shared(TransTable* tt) noexcept nogil
cdef u64 shared_probe(TransTable* tt, const TTKey* key) noexcept nogil
cdef void shared_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                       int best) noexcept nogil
cdef void tt_make_key(const Rules* r, const Position* p, u64 out, TTKey* key) noexcept nogil


cdef inline void tt_planes(const Position* p, u64 out, u64* plane0, u64* plane1) noexcept nogil:
    """The key's bit planes: the owners of the cards ``out``, numbered among them."""
    plane0[0] = bit_extract(p.hand[1] | p.hand[3], out)
    plane1[0] = bit_extract(p.hand[2] | p.hand[3], out)


cdef inline u64 absolute_meta(int leader, int trump, bint may_declare, u64 out) noexcept nogil:
    """The third word of an absolute key (``Rules.plain_value`` false)."""
    return (<u64>leader | (<u64>(trump + 1) << 2) | (<u64>may_declare << 5)
            | (out << 32))


cdef inline void tt_key_add_taken(TTKey* key, const int* taken, int nseats) noexcept nogil:
    """Add to a trick-count key the tricks each seat took before it (6 bits a seat above the
    counts: max^n under Rostov's aim, whose choices depend on them)."""
    cdef int i
    for i in range(nseats):
        key.meta |= (<u64>taken[i]) << (40 + 6 * i)
    tt_hash_key(key)


cdef struct TTChildKeys:
    # What the keys of the positions after the last card of a trick share (``tt_child_key_*``).
    u64 out                       # the cards out after the trick
    u64 meta                      # relative keys: the counts of ``out`` per suit
    u64 owners1                   # seats 1 and 3's cards
    u64 owners2                   # seats 2 and 3's cards
    int trump


cdef inline void tt_child_keys_begin(const Rules* r, const Position* p, u64 out,
                                     TTChildKeys* c) noexcept nogil:
    """Prepare the keys of the positions the last card of the current trick leads to."""
    c.out = out & ~p.trick_cards
    c.meta = tt_suit_counts(r, c.out) if r.plain_value else 0
    c.owners1 = p.hand[1] | p.hand[3]
    c.owners2 = p.hand[2] | p.hand[3]
    c.trump = p.trump


cdef inline void tt_child_key_relative(const Rules* r, const TTChildKeys* c, int card,
                                       int winner, TTKey* key) noexcept nogil:
    """The key of the position after ``card`` ends the trick and ``winner`` leads (made
    without playing the card), for trick counts (``Rules.plain_value``)."""
    cdef u64 out = c.out & ~((<u64>1) << card)
    key.meta = (c.meta - tt_suit_one(r.suit_of[card])) | <u64>winner
    key.plane0 = bit_extract(c.owners1, out)
    key.plane1 = bit_extract(c.owners2, out)
    tt_hash_key(key)


cdef inline void tt_child_key_absolute(const TTChildKeys* c, int card, int winner,
                                       TTKey* key) noexcept nogil:
    """``tt_child_key_relative`` for points and declarations (a completed trick lets the
    winner declare)."""
    cdef u64 out = c.out & ~((<u64>1) << card)
    key.meta = absolute_meta(winner, c.trump, True, out)
    key.plane0 = bit_extract(c.owners1, out)
    key.plane1 = bit_extract(c.owners2, out)
    tt_hash_key(key)


cdef inline char* bucket_of(const TransTable* tt, const TTKey* key) noexcept nogil:
    # the high half of the hash scaled to the number of buckets (any number)
    return tt.buckets + (((key.hash >> 32) * tt.nbuckets) >> 32) * BUCKET_BYTES


cdef inline void tt_prefetch(const TransTable* tt, const TTKey* key) noexcept nogil:
    """Start loading the bucket of ``key`` into the cache."""
    prefetch_line(bucket_of(tt, key))


cdef inline u64 tt_suit_one(int suit) noexcept nogil:
    """One card of ``suit`` in the counts of ``TTKey.meta``."""
    return (<u64>1) << (2 + 6 * suit)


cdef inline u64 tt_suit_counts(const Rules* r, u64 out) noexcept nogil:
    """The cards-per-suit part of ``TTKey.meta`` for the cards ``out``. (A loop of the
    constant ``MAX_SUITS``, which the compiler unrolls: the suits beyond ``Rules.nsuits``
    have empty masks, ``load_position``.)"""
    cdef u64 meta = 0
    cdef int i
    for i in range(MAX_SUITS):
        meta |= (<u64>bit_count(out & r.suit_mask[i])) << (2 + 6 * i)
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


cdef inline bint maybe_stored(const TransTable* tt, const TTKey* key) noexcept nogil:
    cdef u64 b = key.hash & tt.filter_mask
    return (tt.filter[b >> 6] >> (b & 63)) & 1


cdef inline bint tt_probe(TransTable* tt, const TTKey* key, int* lower, int* upper,
                          int* best) noexcept nogil:
    """Look ``key`` up; if stored, set its bounds and best lead and return True."""
    cdef char* bucket = bucket_of(tt, key)
    cdef TTEntry* e
    cdef TTSmallEntry* m
    cdef u64 planes, data
    cdef unsigned int meta
    cdef unsigned char bounds
    cdef int i, small_best
    tt.probes += 1
    if not maybe_stored(tt, key):
        # Surely absent: skip the memory load (the bucket is fetched for the store).
        prefetch_line(bucket)
        return False
    if tt.small:
        # an entry's bounds (lower | upper << 4) and best lead (BEST_BITS: none), then read
        # below once for both formats
        if pref_unlikely(tt.shared):
            data = shared_probe(tt, key)
            if not data:
                return False
            bounds = <unsigned char>(data >> 48)
            small_best = (data >> 56) & BEST_BITS
        else:
            m = <TTSmallEntry*>bucket
            planes = key.plane0 | (key.plane1 << 32)
            meta = <unsigned int>key.meta
            for i in range(SMALL_BUCKET):
                if m[i].planes == planes and m[i].meta == meta and (m[i].gen_depth >> 4) == tt.gen:
                    break
            else:
                return False
            tt.hits += 1
            bounds = m[i].bounds
            small_best = m[i].best & BEST_BITS
            m[i].best |= USED_BIT
        lower[0] = bounds & 15
        upper[0] = bounds >> 4
        best[0] = NO_MOVE if small_best == BEST_BITS else small_best
        return True
    e = <TTEntry*>bucket
    for i in range(BUCKET):
        if (e[i].gen == tt.gen and e[i].meta == key.meta and e[i].plane0 == key.plane0
                and e[i].plane1 == key.plane1):
            tt.hits += 1
            lower[0] = e[i].lower
            upper[0] = e[i].upper
            best[0] = e[i].best
            return True
    return False


cdef inline void tt_store(TransTable* tt, const TTKey* key, int depth, int lower, int upper,
                          int best) noexcept nogil:
    """Store (or tighten) the bounds of ``key``; see the replacement rule."""
    tt.stores += 1
    if pref_unlikely(tt.shared):
        shared_store(tt, key, depth, lower, upper, best)
        return
    tt.filter[(key.hash & tt.filter_mask) >> 6] |= (<u64>1) << (key.hash & 63)
    if tt.small:
        store_small(tt, <TTSmallEntry*>bucket_of(tt, key), key, depth, lower, upper, best)
    else:
        store_wide(tt, <TTEntry*>bucket_of(tt, key), key, depth, lower, upper, best)


cdef inline void store_small(TransTable* tt, TTSmallEntry* e, const TTKey* key, int depth,
                             int lower, int upper, int best) noexcept nogil:
    cdef u64 planes = key.plane0 | (key.plane1 << 32)
    cdef unsigned int meta = <unsigned int>key.meta
    cdef int i, lo, up, victim = -1
    for i in range(SMALL_BUCKET):
        if (e[i].gen_depth >> 4) != tt.gen:
            if victim < 0:
                victim = i
        elif e[i].planes == planes and e[i].meta == meta:
            lo = e[i].bounds & 15
            up = e[i].bounds >> 4
            if lower > lo:
                lo = lower
            if upper < up:
                up = upper
            e[i].bounds = <unsigned char>(lo | (up << 4))
            if best != NO_MOVE:
                e[i].best = (e[i].best & USED_BIT) | best
            return
    if victim < 0:
        # Slots in order of storing, latest first; the oldest entry never hit since
        # it was stored goes (a second chance for the used ones).
        victim = SMALL_BUCKET - 1
        while victim >= 0 and (e[victim].best & USED_BIT):
            victim -= 1
        if victim < 0:
            for i in range(SMALL_BUCKET):
                e[i].best &= ~USED_BIT
            victim = SMALL_BUCKET - 1
    for i in range(victim, 0, -1):
        e[i] = e[i - 1]
    e[0].planes = planes
    e[0].meta = meta
    e[0].gen_depth = <unsigned short>((tt.gen << 4) | depth)
    e[0].bounds = <unsigned char>(lower | (upper << 4))
    e[0].best = BEST_BITS if best == NO_MOVE else best


cdef inline void tighten(short* lower, short* upper, unsigned char* best,
                         int new_lower, int new_upper, int new_best) noexcept nogil:
    """A stored entry met again: keep the tighter bounds and the latest best move
    (``NO_MOVE``: none found)."""
    if new_lower > lower[0]:
        lower[0] = new_lower
    if new_upper < upper[0]:
        upper[0] = new_upper
    if new_best != NO_MOVE:
        best[0] = new_best


cdef inline void store_wide(TransTable* tt, TTEntry* e, const TTKey* key, int depth,
                            int lower, int upper, int best) noexcept nogil:
    cdef TTEntry* victim = NULL
    cdef int i
    for i in range(BUCKET):
        if (e[i].gen == tt.gen and e[i].meta == key.meta and e[i].plane0 == key.plane0
                and e[i].plane1 == key.plane1):
            tighten(&e[i].lower, &e[i].upper, &e[i].best, lower, upper, best)
            return
    # Two tiers: slot 0 keeps the entry with the most tricks left, slot 1 the
    # latest of the others.
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
