# cython: language_level=3
"""Partition search: the main search (``search.pyx``) with winning-rank table entries.

``partition_reaches`` answers the same question as ``search.reaches`` ("can the
declarer's side take ``target`` of the remaining tricks?"); its recursion,
``partition_search`` (handed the cards out and the shape by its parent), works in
numbered steps that follow the main search's: bounds from the trick count, the
table, sure tricks, the moves in order, the search of the moves, the store. It has no
misère step (it serves plain trick play only) and makes no child keys at the
last card of a trick (a cut-off there saved nodes but not time:
benchmarks/RESULTS.md); it adds the second hand's sure tricks (step 4) and the
deciding cards of a node where every move failed (step 7).

What it adds above all is its table: the plain table (``transtable``) matches a
position only if every card out has the same owner, while a winning-rank entry
records which cards *decided* its bound and matches every position with the
same shape (cards per suit of every seat) and leader whose deciding cards have
the same owners; the cards below them in each suit are interchangeable small
cards. This is the partition search of Ginsberg's GIB and the "winning ranks"
of DDS, which make most of their speed in bridge: with 13-card suits, most
tricks are decided by a few high cards, so one entry answers for many
positions. In Preferans 8-card suits nearly every card decides and the plain
table is faster (benchmarks/RESULTS.md): partition search is used for plain
trick play counting tricks where the rules declare partnership heuristics (four
seats), at most 4 suits of at most 15 cards (Whist; ``partition_fits``).

Why a bound carries over. Number the cards out of each suit from the top. An
entry keeps, per suit, the top ``k`` cards (down to the lowest deciding card)
with their owners. A position matching it has the same top cards in the same
hands, and in every hand the same number of small cards per suit (same shape).
Map each small card to the small card of the same hand and suit at the same
place: every play of the proof has its image, legal by the same suit rules,
and a trick has the same winner if the winning card was compared by rank only
with lower cards: so the *deciding cards* are
  * the winner of every trick of the proof that beat a card of its own suit,
  * the cards a sure-trick count relied on (the leader's top cards counted as
    quick tricks, for instance: each count returns its own),
  * where every card of a seat was refuted, the bottom card of each run of
    touching cards the search tried once for the whole run (the run must stay
    a run),
  * the deciding cards of the table entries the proof used.
A proof's deciding cards are computed bottom-up with the search (``s.rel``).

The same argument lets the search skip small cards (DDS's "lowest winning
rank"): once a card is refuted whose whole run lies below the deciding cards
its proof found in its suit, every other such run of the hand in that suit is
skipped, since playing it leads to a position that differs only in small cards
of that suit, which the same proof covers. Where every card was refuted, the
deciding cards are those of the cards tried: the skipped ones stay below them
in every position the entry will match.

Because an entry is so general, a cut-off is worth more here than in the main
search, and the search counts more sure tricks before it branches: quick
tricks with length winners, through the partner's entry and crossing between
the partners, sure trump tricks, the tricks the side not on lead surely takes
(DDS's "later tricks"), and the second hand's sure tricks (DDS's
QuickTricksSecondHand). Each returns the cards it relied on. Its killer leads
are the last two distinct leads that cut off with as many tricks left; as in
DDS, they earn the lead's score a bonus (``order_partnership_moves``) rather than going
first whatever the position.

The table (``rank_key``, ``rank_probe``, ``rank_store``: the only code that
knows its format). Entries of 32 bytes, two to a cache line, stored field by field
(``RankPair``: a probe compares both with one vector compare): the shape as three
suits a seat plus the tricks left, the leader, the trump (none once no card of the
trump suit is out: from there play is no-trump's whatever the denomination, so the
denominations of a DD table, searched on one table, share those positions), the
deciding cards (numbered among the cards out) with their owners as two bit planes
like the plain key's, and the bounds in the bits above the 56 card bits (so at
most 56 cards a deal). Buckets of ``PBUCKET`` entries, chosen
by a hash of the shape, the leader, the trump and the owners of the top few cards
of each suit (the *spread*: 0, 1 or 3 cards, one bucket per level). An entry goes to the most
specific level whose spread its deciding cards cover in every suit shared by
two or more seats, so it loses no generality: an entry whose bound does not
depend on the cards of some suit sits with the shape alone, one that needs the
top three of every suit in a bucket of its own. A probe scans the used entries
of the bucket of each level. A byte per bucket counts them (a bucket fills from
its first entry on), so a scan tests no slot for being used, probes of empty
buckets cost no memory load, and emptying the table clears only the counts.
Replacement: a free slot; else a free slot of the position's bucket at the next, more specific level (the
shape's bucket at level 0 fills first: the entry then answers only positions with
the same owners of the top cards, but it stays); else, at the last level, the
entry with the fewest tricks left and, among those (a bucket's
entries mostly share the shape), the most deciding cards (the least general);
a store takes the first free slot, without looking for an entry
of the same key to tighten (its bucket has mostly left the cache by then); an
entry that cuts a probe off swaps places with the one halfway to the bucket's
front, so often-used entries are met sooner. The table is probed before the
sure tricks are counted (most probes hit); a sure-trick cut-off is stored from 3
tricks left up (its entry, with few deciding cards, answers many positions). The
entries sit in 2 MB huge pages where the system allows it (probes are scattered:
page-table misses would cost), and only a bucket's first lines are prefetched
(the scan streams the rest).
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memset

from pref_engine.state cimport (u64, Rules, Position, seat_to_move, cards_out, legal_moves,
                           run_bottoms, bit_count, low_index, high_index, bit_extract,
                           bit_deposit, MAX_SEATS, last_trick_cards, HEURISTICS_PARTNERSHIP,
                           play_card)
from pref_engine.search cimport (Undo, stop_requested,
                                 killers_reset, killer_lead, killers_record)
from pref_engine.transtable cimport mix, prefetch_line, huge_alloc, huge_free, tt_planes
from pref_engine.moves cimport order_partnership_moves, MAX_MOVES
from pref_engine.quicktricks cimport quick_tricks_from

cdef enum:
    PREFETCH_BYTES = 256          # of each bucket probed
    MAX_CARDS = 56                # cards a deal (the entry's fields, below)

# An entry's words: the cards' fields take the low 56 bits, the rest sits above them.
cdef u64 CARD_BITS = ((<u64>1) << MAX_CARDS) - 1


cdef int rank_table_init(RankTable* t, double size_mb) except -1:
    cdef u64 nb = <u64>(size_mb * 1048576.0) // (sizeof(RankPair) * (PBUCKET // 2))
    if nb < 1:
        nb = 1
    if nb >= (<u64>1 << 32):
        nb = (<u64>1 << 32) - 1
    # (only the used entries of a bucket are read: untouched pages cost nothing)
    t.entries = <RankPair*>huge_alloc(&t.memory, nb * (PBUCKET // 2) * sizeof(RankPair))
    t.used = <unsigned char*>calloc(nb + 8, 1)
    if t.entries == NULL or t.used == NULL:
        huge_free(&t.memory)
        free(t.used)
        t.entries = NULL
        t.used = NULL
        raise MemoryError("cannot allocate the winning-rank table")
    t.nbuckets = nb
    t.probes = t.hits = 0
    killers_reset(&t.killers)
    return 0


cdef void rank_table_free(RankTable* t) noexcept nogil:
    huge_free(&t.memory)
    free(t.used)
    t.entries = NULL
    t.used = NULL


cdef void rank_table_new_trump(RankTable* t) noexcept nogil:
    """The trump changes, nothing else: the no-trump entries stay (a position's key names
    its trump unless no trump is out, ``trump_code``: then it is a no-trump position
    whatever the denomination, and an entry stored in one denomination's search answers in
    another's). The entries naming the old trump match no position of the new one: each
    bucket keeps only its no-trump entries, moved to its front, so probes do not scan the
    others (one pass over the entries stored). The killer leads are forgotten (they were
    right for the old trump)."""
    cdef u64 b, word
    cdef int i, kept
    cdef RankPair* e
    killers_reset(&t.killers)
    for word in range(t.nbuckets // 8 + 1):
        if not (<u64*>t.used)[word]:
            continue                  # (eight unused buckets)
        for b in range(word * 8, word * 8 + 8 if word * 8 + 8 < t.nbuckets else t.nbuckets):
            e = t.entries + b * (PBUCKET // 2)
            kept = 0
            for i in range(t.used[b]):
                if not (e[i >> 1].key[i & 1] >> 54) & 7:
                    if kept != i:
                        copy_entry(e, kept, i)
                    kept += 1
            t.used[b] = kept


cdef void rank_table_clear(RankTable* t) noexcept nogil:
    """Empty the table: no bucket has a used entry."""
    killers_reset(&t.killers)
    memset(t.used, 0, t.nbuckets + 8)


cdef bint partition_fits(const Searcher* s) noexcept nogil:
    """Partition search is used for plain trick play counting tricks, partnership
    heuristics (4 seats), at most 4 suits of 15 cards and 56 cards in all."""
    cdef int i, total = 0
    if (s.rules.heuristics != HEURISTICS_PARTNERSHIP or s.rules.nsuits > 4
            or not s.rules.plain_tricks or not s.rules.plain_value):
        return False
    for i in range(s.rules.nsuits):
        if s.rules.suit_len[i] > 15:
            return False
        total += s.rules.suit_len[i]
    return total <= MAX_CARDS


cdef inline u64 shape_of(const Rules* r, const Position* p) noexcept nogil:
    """The shape (cards per suit of every seat) and the tricks left, 52 bits: a trick's start,
    where every hand holds as many cards as there are tricks left, so a hand's cards of the
    fourth suit follow from those of the first three. (Fixed bounds, so that the loops
    unroll: the seats beyond ``nseats`` hold no cards and the suits beyond ``nsuits`` have
    empty masks, ``load_position``.)"""
    cdef u64 shape = (<u64>p.tricks_left) << 48
    cdef int seat, suit
    for seat in range(4):
        for suit in range(3):
            shape |= (<u64>bit_count(p.hand[seat] & r.suit_mask[suit])) << (12 * seat + 4 * suit)
    return shape


cdef inline u64 trick_shape(const Rules* r, int leader, const int* played, int n) noexcept nogil:
    """What the cards ``played[:n]`` of a trick led by ``leader`` count in ``shape_of`` while
    still held (the key's shape is handed down the search: a finished trick takes its four
    cards and a trick off the parent's)."""
    cdef u64 held = 0
    cdef int k, suit
    for k in range(n):
        suit = r.suit_of[played[k]]
        if suit < 3:
            held += (<u64>1) << (12 * ((leader + k) & 3) + 4 * suit)
    return held


cdef inline u64 trump_code(const Rules* r, const Position* p, u64 out) noexcept nogil:
    """The trump in a key: 0 where no card of the trump suit is out (no-trump play from
    here on, whatever the denomination), else the trump suit + 1."""
    if p.trump < 0 or not (out & r.suit_mask[p.trump]):
        return 0
    return <u64>(p.trump + 1)


cdef inline int level_spread(int level) noexcept nogil:
    """Cards a suit whose owners choose the bucket at ``level`` (0 .. NLEVELS - 1; ``rank_key``
    builds these spreads' masks directly)."""
    return 0 if level == 0 else (1 if level == 1 else 3)


cdef inline int entry_level(const Rules* r, const Position* p, u64 out, u64 top) noexcept nogil:
    """The most specific level whose spread the entry's cards ``top`` cover in every suit
    (a suit one seat holds alone, or whose cards ``top`` holds all, does not count: the
    shape, or the entry, says who holds its cards)."""
    cdef int suit, seat, d, least = 99, level
    cdef u64 suit_out
    for suit in range(r.nsuits):
        suit_out = out & r.suit_mask[suit]
        if not suit_out:
            continue
        for seat in range(4):
            if not (suit_out & ~p.hand[seat]):
                break
        else:
            d = bit_count(top & suit_out)
            if d < least and top & suit_out != suit_out:
                least = d
    level = 0
    while level + 1 < NLEVELS and level_spread(level + 1) <= least:
        level += 1
    return level


cdef inline u64 bucket_index(const RankTable* t, u64 shape, int leader, u64 tops) noexcept nogil:
    cdef u64 h = mix(shape * <u64>0x9e3779b97f4a7c15ULL + <u64>leader + tops * <u64>0xc2b2ae3d27d4eb4fULL)
    return ((h >> 32) * t.nbuckets) >> 32


cdef inline u64 top_cards_from(const Rules* r, u64 rel, u64 out) noexcept nogil:
    """Every card out at or above the lowest card of ``rel`` in its suit, per suit."""
    cdef u64 result = 0
    cdef u64 in_suit
    cdef int suit
    rel &= out
    for suit in range(r.nsuits):
        in_suit = rel & r.suit_mask[suit]
        if in_suit:
            result |= out & r.suit_mask[suit] & ~((in_suit & (0 - in_suit)) - 1)
    return result


cdef inline void rank_key(const RankTable* t, const Rules* r, const Position* p, u64 out,
                          u64 shape, RankKey* k) noexcept nogil:
    """The key of the position (at a trick's start) and its bucket at every level; the
    loads of the buckets holding entries start at once (a probe reads them all)."""
    shape |= trump_code(r, p, out) << 54
    cdef RankPair* e
    cdef int level, i, suit, base = 0
    cdef u64 top_mask[NLEVELS]        # each suit's top ``level_spread`` cards, among the cards out
    cdef u64 tops, ends = 0, bounds, second
    tt_planes(p, out, &k.plane0, &k.plane1)
    k.word = shape | (<u64>p.leader << 52)
    # Among the cards out, suit after suit: a bit at the end of each suit (its top card's
    # number + 1). The top card of a suit sits below its end, the next below it unless that
    # is the suit's start (a boundary). (Fixed bounds: the suits beyond ``nsuits`` are empty.)
    for suit in range(4):
        base += bit_count(out & r.suit_mask[suit])
        ends |= (<u64>1) << base
    bounds = ends | 1
    top_mask[0] = 0                   # (spread 0: the shape's own bucket)
    top_mask[1] = ends >> 1
    second = (top_mask[1] & ~bounds) >> 1
    top_mask[2] = top_mask[1] | second | ((second & ~bounds) >> 1)
    for level in range(NLEVELS):
        # the owners of those cards, read from the key's bit planes, spread the entries of
        # one shape over many buckets (the shape says how many cards each suit has out)
        tops = ((k.plane0 & top_mask[level])
                ^ ((k.plane1 & top_mask[level]) * <u64>0x9e3779b97f4a7c15ULL))
        k.bucket[level] = bucket_index(t, shape, p.leader + 8 * level, tops)
        if t.used[k.bucket[level]]:
            e = t.entries + k.bucket[level] * (PBUCKET // 2)
            for i in range(0, PREFETCH_BYTES, 64):   # (the scan streams the rest)
                prefetch_line(<char*>e + i)


cdef inline int rank_probe(RankTable* t, RankKey* k, u64 out, int target,
                           u64* rel) noexcept nogil:
    """1 (0) if an entry matching ``k`` says the declarer's side can (cannot) take
    ``target`` tricks, its deciding cards (among the cards ``out``) in ``rel``; -1 if
    none decides."""
    cdef u64 plane0 = k.plane0
    cdef u64 plane1 = k.plane1
    cdef u64 word = k.word
    cdef RankPair* e
    cdef u64 mask
    cdef unsigned m
    cdef int level, j, lane, i, n, lower
    t.probes += 1
    for level in range(NLEVELS):
        # (a bucket fills from its first entry on: the used ones come first)
        n = t.used[k.bucket[level]]
        e = t.entries + k.bucket[level] * (PBUCKET // 2)
        for j in range((n + 1) >> 1):
            # (both entries of a line at once; most entries of a bucket share the shape, the
            # cards decide)
            m = rank_pair_matches(&e[j], word, plane0, plane1)
            if not m:
                continue
            for lane in range(2):
                i = 2 * j + lane
                if not m & rank_lane_bit(lane) or i >= n:
                    continue              # (past the used entries: a stale slot)
                mask = e[j].mask[lane]
                lower = (mask >> 56) & 0xF
                if lower >= target or (mask >> 60) < <u64>target:
                    t.hits += 1
                    rel[0] = bit_deposit(mask & CARD_BITS, out)
                    if i:
                        # halfway to the front: often-hit entries are found sooner
                        swap_entries(e, i, i >> 1)
                    return lower >= target
    return -1


cdef inline void rank_store(RankTable* t, const RankKey* k, const Rules* r, const Position* p,
                            u64 out, u64 rel, int lower, int upper) noexcept nogil:
    """Store the bounds of ``k``'s position with the deciding cards ``rel``. No search for
    an entry with the same key (to tighten it): by the time of the store the bucket has
    mostly left the cache, and a duplicate is harmless (a probe checks every entry that
    matches). The new entry goes to the first free slot of the bucket of its level (its
    count of used entries: a search only adds entries, ``rank_table_new_trump`` drops
    some); if that bucket is full, to the position's bucket at the next, more specific
    level (a probe scans every level, and an entry found there is checked card by
    card as anywhere: it only answers fewer positions); only a full bucket at the last level
    replaces a victim."""
    cdef u64 top = top_cards_from(r, rel, out)
    cdef int level = entry_level(r, p, out, top)
    cdef u64 b
    cdef RankPair* e
    cdef RankPair* g
    cdef u64 mask = bit_extract(top, out)
    cdef int i, victim = 0
    while True:
        b = k.bucket[level]
        e = t.entries + b * (PBUCKET // 2)
        i = t.used[b]
        if i < PBUCKET:
            victim = i
            t.used[b] = i + 1
            break
        if level + 1 < NLEVELS:
            level += 1                # full: the more specific bucket
            continue
        # the entry with the fewest tricks left (cheapest to recompute)
        victim = 0
        for i in range(1, PBUCKET):
            if victim_score(e, i) < victim_score(e, victim):
                victim = i
        break
    g = &e[victim >> 1]
    i = victim & 1
    g.key[i] = k.word
    g.mask[i] = mask | (<u64>lower << 56) | (<u64>upper << 60)
    g.plane0[i] = k.plane0 & mask
    g.plane1[i] = k.plane1 & mask


cdef inline void copy_entry(RankPair* e, int dst, int src) noexcept nogil:
    """Entry ``src`` of the bucket ``e`` to slot ``dst``."""
    e[dst >> 1].key[dst & 1] = e[src >> 1].key[src & 1]
    e[dst >> 1].mask[dst & 1] = e[src >> 1].mask[src & 1]
    e[dst >> 1].plane0[dst & 1] = e[src >> 1].plane0[src & 1]
    e[dst >> 1].plane1[dst & 1] = e[src >> 1].plane1[src & 1]


cdef inline void swap_words(u64* x, u64* y) noexcept nogil:
    cdef u64 tmp = x[0]
    x[0] = y[0]
    y[0] = tmp


cdef inline void swap_entries(RankPair* e, int a, int b) noexcept nogil:
    """Entries ``a`` and ``b`` of the bucket ``e`` change places."""
    swap_words(&e[a >> 1].key[a & 1], &e[b >> 1].key[b & 1])
    swap_words(&e[a >> 1].mask[a & 1], &e[b >> 1].mask[b & 1])
    swap_words(&e[a >> 1].plane0[a & 1], &e[b >> 1].plane0[b & 1])
    swap_words(&e[a >> 1].plane1[a & 1], &e[b >> 1].plane1[b & 1])


cdef inline int victim_score(const RankPair* e, int i) noexcept nogil:
    """Lowest goes first: fewest tricks left, then most deciding cards."""
    return (<int>((e[i >> 1].key[i & 1] >> 48) & 0xF) * 64
            - bit_count(e[i >> 1].mask[i & 1] & CARD_BITS))


cdef inline int play_trick_card(const Rules* r, Position* p, int seat, int card,
                                 Undo* u) noexcept nogil:
    """``make_trick_move`` for this search: four seats, trick counts, no declarations, and
    the seat to move given (inlined here: the shared one is a call through a pointer, and
    its seat count is not a constant)."""
    cdef int i
    u.win_seat = p.win_seat
    u.win_card = p.win_card
    u.trick_done = False
    play_card(r, p, seat, card)
    if p.nplayed < 4:
        return 0
    u.trick_done = True
    u.leader = p.leader
    u.trick_cards = p.trick_cards
    for i in range(4):
        u.played[i] = p.played[i]
    p.leader = p.win_seat
    p.nplayed = 0
    p.trick_cards = 0
    p.tricks_left -= 1
    return r.dside[p.leader]


cdef inline void take_back_trick_card(Position* p, int seat, int card,
                                      const Undo* u) noexcept nogil:
    """``unmake_trick_move`` for this search (``play_trick_card``)."""
    cdef u64 bit = (<u64>1) << card
    cdef int i
    if u.trick_done:
        p.leader = u.leader
        p.nplayed = 4
        p.trick_cards = u.trick_cards
        p.tricks_left += 1
        for i in range(4):
            p.played[i] = u.played[i]
    p.nplayed -= 1
    p.hand[seat] |= bit
    p.trick_cards &= ~bit
    p.win_seat = u.win_seat
    p.win_card = u.win_card


cdef inline u64 quick_tricks_long(const Rules* r, const Position* p, u64 out, int lead, int* count,
                                   int* suits) noexcept nogil:
    """``quick_tricks_from`` plus length winners: where no opponent holds a trump once
    the counted top trumps are cashed, a suit whose counted top run is at least as long
    as every other hand's holding in it takes all of ``lead``'s cards of the suit (the
    others are void after the run, and nobody can ruff). The extra tricks rely on the
    shape and the runs alone, so the deciding cards stay those of the runs."""
    cdef u64 rel = quick_tricks_from(r, p, out, lead, count, suits)
    cdef u64 suit_out, trumps
    cdef int seat, suit, n, mine, extra = 0
    cdef bint longer
    if count[0] >= p.tricks_left:
        return rel
    if p.trump >= 0:
        # the count cashes the top trumps first: they must leave no spoiler a trump
        # (a partner who need not trump may discard instead)
        trumps = out & r.suit_mask[p.trump]
        n = bit_count(rel & trumps)
        for seat in range(4):
            if ((r.dside[seat] != r.dside[lead] or (r.must_trump and seat != lead))
                    and bit_count(p.hand[seat] & trumps) > n):
                return rel
    for suit in range(r.nsuits):
        if not (suits[0] >> suit) & 1:
            continue
        suit_out = out & r.suit_mask[suit]
        n = bit_count(rel & suit_out)
        mine = bit_count(p.hand[lead] & suit_out)
        if mine <= n:
            continue
        longer = False
        for seat in range(4):
            if seat != lead and bit_count(p.hand[seat] & suit_out) > n:
                longer = True
        if not longer:
            extra += mine - n
    if extra:
        count[0] = count[0] + extra if count[0] + extra < p.tricks_left else p.tricks_left
    return rel


cdef struct Quick:
    # the quick tricks of the leader and of his partner (each counted once a node)
    u64 rel
    u64 prel
    int q
    int qp
    int suits
    int psuits


cdef inline void count_quick_tricks(const Rules* r, const Position* p, u64 out, Quick* k) noexcept nogil:
    k.rel = quick_tricks_long(r, p, out, p.leader, &k.q, &k.suits)
    k.prel = quick_tricks_long(r, p, out, (p.leader + 2) & 3, &k.qp, &k.psuits)


cdef inline u64 side_quick_tricks(const Rules* r, const Position* p, const Quick* k, int* count,
                                  int* entry) noexcept nogil:
    """Quick tricks of the side on lead: the leader's own, or his partner's after an entry
    (its suit in ``entry``, left as it is for the leader's own).

    The partner's count stands if the leader can reach him first: a suit the
    partner counts, in which the leader holds a card (the partner's top card
    wins it) and nobody can ruff that first round now (both opponents hold the
    suit or have no trump, or it is the trump suit).
    """
    cdef int lead = p.leader
    cdef int suit, other
    cdef bint safe
    count[0] = k.q
    if k.qp <= k.q or r.dside[(lead + 2) & 3] != r.dside[lead]:
        return k.rel
    for suit in range(r.nsuits):
        if not (k.psuits >> suit) & 1 or not p.hand[lead] & r.suit_mask[suit]:
            continue
        safe = True
        if p.trump >= 0 and suit != p.trump:
            for other in range(r.nseats):
                if (r.dside[other] != r.dside[lead] and not p.hand[other] & r.suit_mask[suit]
                        and p.hand[other] & r.suit_mask[p.trump]):
                    safe = False
        if safe:
            count[0] = k.qp
            entry[0] = suit
            return k.prel
    return k.rel


cdef inline u64 run_then_partner(const Rules* r, const Position* p, u64 out,
                                 u64 rel) noexcept nogil:
    """No trump out: a suit whose card next below the leader's counted top run (``rel``'s
    cards of it, ``n``) is his partner's, each holding more than ``n`` cards of it, takes
    a trick more (DDS's second best at the partner): the leader cashes his other tricks,
    then the run (the partner following low), then leads low to the partner's card, now
    the best. That card, or 0 (one such suit: the lead ends with the partner)."""
    cdef int partner = (p.leader + 2) & 3
    cdef int suit, n, c
    cdef u64 suit_out, run, others
    if p.trump >= 0 and out & r.suit_mask[p.trump]:
        return 0
    for suit in range(r.nsuits):
        run = rel & r.suit_mask[suit]
        if not run:
            continue
        suit_out = out & r.suit_mask[suit]
        others = suit_out & ~p.hand[p.leader]
        if not others:
            continue
        c = high_index(others)
        n = bit_count(run)
        if ((p.hand[partner] >> c) & 1 and bit_count(p.hand[p.leader] & suit_out) > n
                and bit_count(p.hand[partner] & suit_out) > n):
            return (<u64>1) << c
    return 0


cdef inline u64 cross_quick_tricks(const Rules* r, const Position* p, u64 out, const Quick* k,
                                   int* count, int* entry) noexcept nogil:
    """Cash, cross, cash (no trumps out, or the leader's top trumps, cashed first, as many
    as each opponent's trumps): the leader cashes his top runs, then leads a
    suit whose top run is his partner's and in which he holds a card, and the partner
    cashes his runs. A suit's top run is one hand's only, so the counts add; the partner,
    holding as many cards as there are tricks, can keep his winners while the sum is at
    most the tricks left (else he keeps enough to take all: the top of the entry suit and
    of each counted suit's run, then its length winners). Length winners count as in
    ``quick_tricks_long`` (other hands' holdings only shrink while the leader cashes).
    0 where there is no entry; the entry suit in ``entry``."""
    cdef int lead = p.leader
    cdef int partner = (lead + 2) & 3
    cdef int suit, both, seat, n
    cdef u64 trumps
    count[0] = 0
    if not k.qp or r.dside[partner] != r.dside[lead]:
        return 0
    if p.trump >= 0 and out & r.suit_mask[p.trump]:
        # trumps out: the leader's counted top trumps, cashed first, must leave the
        # opponents none (then nobody can ruff a winner or the entry)
        if r.must_trump:
            return 0
        trumps = out & r.suit_mask[p.trump]
        n = bit_count(k.rel & trumps)
        for seat in range(4):
            if r.dside[seat] != r.dside[lead] and bit_count(p.hand[seat] & trumps) > n:
                return 0
    for suit in range(r.nsuits):
        if (k.psuits >> suit) & 1 and p.hand[lead] & r.suit_mask[suit]:
            both = k.q + k.qp
            count[0] = both if both < p.tricks_left else p.tricks_left
            entry[0] = suit
            return k.rel | k.prel
    return 0


cdef inline int sure_trump_tricks(const Rules* r, const Position* p, u64 out, int side,
                                  u64* rel) noexcept nogil:
    """Tricks ``side`` (1: the declarer's) surely takes with trumps above all the other
    side's trumps: the most such trumps in one hand. ``rel``: the trumps out from the top
    down to the other side's best trump (none if it has no trump: the shape decides)."""
    cdef u64 trumps = out & r.suit_mask[p.trump]
    cdef u64 theirs = 0
    cdef u64 above
    cdef int seat, best = 0, n
    for seat in range(r.nseats):
        if r.dside[seat] != side:
            theirs |= p.hand[seat] & trumps
    above = trumps & ~((((<u64>1) << high_index(theirs)) << 1) - 1) if theirs else trumps
    for seat in range(r.nseats):
        if r.dside[seat] == side:
            n = bit_count(p.hand[seat] & above)
            if n > best:
                best = n
    rel[0] = trumps & ~(((<u64>1) << high_index(theirs)) - 1) if theirs else 0
    return best


cdef inline int owner_of(const Position* p, int card) noexcept nogil:
    cdef int seat
    for seat in range(3):
        if (p.hand[seat] >> card) & 1:
            return seat
    return 3


cdef inline int later_tricks(const Rules* r, const Position* p, u64 out, u64* rel) noexcept nogil:
    """Tricks the side not on lead surely takes (0, 1 or 2), from the top cards alone
    (DDS's "later tricks"); ``rel``: the cards the count relied on. Four seats, at the
    start of a trick; ``side`` below is the leader's side, ``other`` the one not on lead.

    No trumps out: if the other side holds the top card of a suit, the side on lead
    takes at most, in the suits whose top card it holds, the longer of its two hands'
    holdings in each; if that sum is below the tricks left, it cannot take them all.
    Trumps out, the side on lead holding the top trump: the other side takes a trick
    with its second-best trump held at least twice if that hand plays right after the
    top trump's, or if it holds the third-best trump as well. The other side holding the
    top two trumps with one of its hands holding two or more takes two tricks (the top
    trump alone: one, as the sure trump tricks count already).
    """
    cdef int side = r.dside[p.leader]
    cdef int suit, top, holder, a, b, k, k_seat, q, total = 0
    cdef u64 suit_out, trumps, rest, tops = 0
    if p.trump < 0 or not (out & r.suit_mask[p.trump]):
        for suit in range(r.nsuits):
            suit_out = out & r.suit_mask[suit]
            if not suit_out:
                continue
            top = high_index(suit_out)
            holder = owner_of(p, top)
            if r.dside[holder] == side:
                a = bit_count(p.hand[holder] & suit_out)
                b = bit_count(p.hand[(holder + 2) & 3] & suit_out)
                total += a if a > b else b
            elif suit_out & ~p.hand[holder]:
                tops |= (<u64>1) << top           # (a suit one hand holds: the shape says it)
        if total < p.tricks_left:
            rel[0] = tops
            return 1
        return 0
    trumps = out & r.suit_mask[p.trump]
    top = high_index(trumps)
    holder = owner_of(p, top)
    rest = trumps & ~((<u64>1) << top)
    if not rest:
        return 0
    k = high_index(rest)
    k_seat = owner_of(p, k)
    if r.dside[k_seat] == side:
        return 0
    if r.dside[holder] != side:
        if (bit_count(p.hand[k_seat] & trumps) > 1
                or bit_count(p.hand[(k_seat + 2) & 3] & trumps) > 1):
            rel[0] = (<u64>1) << k
            return 2
        return 0
    if bit_count(p.hand[k_seat] & trumps) < 2:
        return 0
    if k_seat == ((holder + 1) & 3):
        rel[0] = (<u64>1) << k
        return 1
    rest &= ~((<u64>1) << k)
    if rest:
        q = high_index(rest)
        if r.dside[owner_of(p, q)] != side:
            rel[0] = (<u64>1) << q
            return 1
    return 0


cdef inline u64 rank_winner(const Rules* r, const int* played, int nseats, int win_card) noexcept nogil:
    """The trick's winning card if it beat a card of its own suit (a win by rank), else 0."""
    cdef int k
    for k in range(nseats):
        if played[k] != win_card and r.suit_of[played[k]] == r.suit_of[win_card]:
            return (<u64>1) << win_card
    return 0


cdef inline int last_trick(const Rules* r, Position* p, u64* rel) noexcept nogil:
    """Declarer side's gain in the last trick, and its deciding card in ``rel``."""
    cdef int cards[MAX_SEATS]
    cdef int place = last_trick_cards(r, p, cards)
    rel[0] = rank_winner(r, cards, r.nseats, cards[place])
    return r.dside[(p.leader + place) % r.nseats]


cdef inline u64 runs_to_keep(const Rules* r, u64 moves, u64 hand, u64 out, u64 rel) noexcept nogil:
    """The run bottoms (of ``moves``) that must join the deciding cards ``rel``.

    Where every card of a seat was refuted, each run of touching cards was
    tried through its bottom card only. If the deciding cards of the suit all
    lie above the run, any small card of that seat leads to a position the
    same proof covers, so nothing is needed; otherwise the run must stay a run,
    so its bottom joins (and with it every card above it).
    """
    cdef u64 result = 0
    cdef u64 suit_out, above, top
    cdef int c, t
    while moves:
        c = low_index(moves)
        moves &= moves - 1
        suit_out = out & r.suit_mask[r.suit_of[c]]
        # the top of the run: climb while the next card out is the seat's
        t = c
        while True:
            above = suit_out & ~((((<u64>1) << t) << 1) - 1)
            if not above or not (hand >> low_index(above)) & 1:
                break
            t = low_index(above)
        if t == c:
            continue                                  # a single card: nothing was skipped
        top = (((<u64>1) << t) << 1) - 1               # the cards up to the run's top
        if rel & suit_out & top:
            result |= (<u64>1) << c
    return result


cdef inline int run_top(const Rules* r, u64 hand, u64 out, int card) noexcept nogil:
    """The top card of the run of touching cards of ``hand`` whose bottom is ``card``."""
    cdef u64 suit_out = out & r.suit_mask[r.suit_of[card]]
    cdef u64 breaks = suit_out & ~hand & ~((((<u64>1) << card) << 1) - 1)
    cdef u64 mine = hand & suit_out
    if breaks:
        mine &= ((<u64>1) << low_index(breaks)) - 1
    return high_index(mine)


cdef inline int second_hand_tricks(const Rules* r, const Position* p, int seat, int need,
                                   u64* rel) noexcept nogil:
    """Tricks the second hand's side surely takes, the trick being played included (0 if
    it may lose it), counted until they reach ``need``, and in ``rel`` the cards the count
    relied on (as DDS's count, it stops there: the tricks counted are cashed in turn by
    the hand that wins this one, so the cards of the later ones do not decide).

    The trick is the side's if one of its hands holds a card of the suit led above the
    lead and above every card the third hand holds in it, and the third hand cannot ruff
    (the fourth hand is the partner); or, outside trumps, if one of them is void with a
    trump and the third hand must follow or holds no trump (whoever ruffs, the partner
    plays last). Without trumps the hand that wins it then keeps the lead for the best
    card of the suit left after the trick if it holds it, for the best card of every
    other suit it holds, and for all of a suit nobody else holds (DDS's second-hand
    quick tricks).
    Deciding cards: the cards counted by rank (the shape says who follows and ruffs)."""
    cdef int lead_card = p.played[0]
    cdef int suit = r.suit_of[lead_card]
    cdef u64 sm = r.suit_mask[suit]
    cdef int third = (seat + 1) & 3
    cdef int partner = (seat + 2) & 3
    cdef u64 ours = (p.hand[seat] | p.hand[partner]) & sm
    cdef u64 theirs = p.hand[third] & sm
    cdef u64 trumps = r.suit_mask[p.trump] if p.trump >= 0 else 0
    cdef u64 held, rest, others
    cdef int best, winner, s2, q, top
    rel[0] = 0
    if p.trump >= 0 and suit != p.trump and not theirs and p.hand[third] & trumps:
        return 0                                  # the third hand may ruff
    if ours:
        best = high_index(ours)
        if best < lead_card or (theirs and high_index(theirs) > best):
            return 0
        rel[0] = (<u64>1) << best
    elif (p.trump >= 0 and suit != p.trump
            and ((not p.hand[seat] & sm and p.hand[seat] & trumps)
                 or (not p.hand[partner] & sm and p.hand[partner] & trumps))):
        return 1                                  # a ruff the third hand cannot beat
    else:
        return 0
    q = 1
    if p.trump >= 0 or q >= need:
        return q
    winner = seat if (p.hand[seat] >> best) & 1 else partner
    held = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    rest = held & sm & ~((<u64>1) << best)
    if rest and (p.hand[winner] >> high_index(rest)) & 1:
        q += 1                                    # the two best of the suit
        rel[0] |= (<u64>1) << high_index(rest)
    for s2 in range(r.nsuits):
        if q >= need:
            break
        if s2 == suit or not p.hand[winner] & r.suit_mask[s2]:
            continue
        others = held & r.suit_mask[s2] & ~p.hand[winner]
        if not others:
            q += bit_count(p.hand[winner] & r.suit_mask[s2])   # nobody else holds it
        else:
            top = high_index(held & r.suit_mask[s2])
            if (p.hand[winner] >> top) & 1:
                q += 1
                rel[0] |= (<u64>1) << top
    return q


cdef inline u64 fewest_runs(const Rules* r, const Position* p, u64 rel, int need,
                            int entry) noexcept nogil:
    """The quick tricks ``rel`` of the leader, or of his partner reached through the suit
    ``entry`` (-1: the leader's own), or of both (cash, cross through ``entry``, cash), cut
    to the cards that reach ``need`` tricks alone: the trump run whole, the top card of the
    entry suit, then the top cards of the plain-suit runs, in suit order, as many as still
    needed (``rel`` itself if the runs do not reach ``need``: the length winners counted
    too; or if more cards than the tricks left remain, where the partner could not keep
    his winners while the leader cashes his). Cashed from the top, a plain suit's cards
    win by the shape and the trump run alone (who can ruff them: an opponent who follows
    to the whole run follows to its top cards), and the entry by the shape and its top
    card, so a position with the same shape and the same owners of the cards kept takes
    as many tricks by cashing them (DDS's quick tricks likewise stop at the cut-off): the
    entries stored above the cut-off need fewer deciding cards."""
    cdef u64 kept = rel & r.suit_mask[p.trump] if p.trump >= 0 else 0
    cdef u64 run
    cdef int suit, room, n
    if entry >= 0 and rel & r.suit_mask[entry]:
        kept |= (<u64>1) << high_index(rel & r.suit_mask[entry])
    room = need - bit_count(kept)             # tricks still to find
    for suit in range(r.nsuits):
        if room <= 0:
            break
        run = rel & r.suit_mask[suit] & ~kept
        n = bit_count(run)
        while n > room:
            run &= run - 1                    # (its lowest card: the top ones stay)
            n -= 1
        kept |= run
        room -= n
    return kept if room <= 0 and need - room <= p.tricks_left else rel


cdef inline int leader_tricks_decide(const Rules* r, const Position* p, int q,
                                     int target) noexcept nogil:
    """The side on lead surely takes ``q`` tricks: 1 if the declarer's side surely
    reaches ``target``, -1 if it surely cannot, else 0."""
    if r.dside[p.leader]:
        return 1 if q >= target else 0
    return -1 if p.tricks_left - q < target else 0


cdef inline int leader_side_tricks(const Rules* r, const Position* p, u64 out, int target,
                                   u64* rel) noexcept nogil:
    """At a trick's start: 1 if the sure tricks of the side on lead (or of the other side)
    show that the declarer's side surely reaches ``target``, -1 if it surely cannot, else
    0; where decided, the cards the count relied on in ``rel``. The cheaper counts go first;
    each later one relies on more cards."""
    cdef Quick quick
    cdef u64 qrel
    cdef int q, decided, entry, side
    # The leader's quick tricks, or his partner's after an entry.
    count_quick_tricks(r, p, out, &quick)
    entry = -1
    qrel = side_quick_tricks(r, p, &quick, &q, &entry)
    decided = leader_tricks_decide(r, p, q, target)
    if not decided:
        # The two hands' runs together: cash, cross, cash (with trumps out only where the
        # leader's top trumps draw the opponents': checked inside).
        qrel = cross_quick_tricks(r, p, out, &quick, &q, &entry)
        decided = leader_tricks_decide(r, p, q, target)
    if (not decided and quick.q < p.tricks_left
            and leader_tricks_decide(r, p, quick.q + 1 + quick.qp, target)):
        # The leader's own count and a trick more through the partner's second best.
        qrel = run_then_partner(r, p, out, quick.rel)
        if qrel:
            if leader_tricks_decide(r, p, quick.q + 1, target):
                qrel |= quick.rel
                q = quick.q + 1
                entry = -1
                decided = leader_tricks_decide(r, p, q, target)
            elif (quick.qp and quick.q + 1 + quick.qp <= p.tricks_left
                    and r.dside[(p.leader + 2) & 3] == r.dside[p.leader]):
                # then the partner, on lead, cashes his own: he keeps them, and the
                # cards to reach his, while the leader cashes (the sum fits his cards)
                rel[0] = qrel | quick.rel | quick.prel
                return leader_tricks_decide(r, p, quick.q + 1 + quick.qp, target)
    if decided:
        rel[0] = fewest_runs(r, p, qrel,
                             target if r.dside[p.leader] else p.tricks_left - target + 1, entry)
        return decided
    if p.trump >= 0:
        # Sure trump tricks: a trump above all the other side's trumps wins the trick it
        # is played to, and one hand plays one card a trick.
        # (one call site for both sides: the code stays small enough for the move order
        # to be inlined)
        for side in range(1, -1, -1):
            q = sure_trump_tricks(r, p, out, side, &qrel)
            if (q >= target) if side else (p.tricks_left - q < target):
                rel[0] = qrel
                return 1 if side else -1
    # Later tricks: the side not on lead surely takes one or two (counted only where that
    # decides the target: the side on lead needs (nearly) all the tricks).
    if (target >= p.tricks_left - 1) if r.dside[p.leader] else (target <= 2):
        q = later_tricks(r, p, out, &qrel)
        if q:
            if r.dside[p.leader]:
                if target > p.tricks_left - q:
                    rel[0] = qrel
                    return -1
            elif target <= q:
                rel[0] = qrel
                return 1
    return 0


cdef bint partition_reaches(Searcher* s, RankTable* t, int target) noexcept nogil:
    """True if the declarer's side can take ``target`` of the remaining tricks; the cards
    that decided the answer are left in ``s.rel``."""
    return partition_search(s, t, target, cards_out(&s.rules, &s.pos),
                            shape_of(&s.rules, &s.pos)
                            + trick_shape(&s.rules, s.pos.leader, s.pos.played, s.pos.nplayed))


cdef bint partition_search(Searcher* s, RankTable* t, int target, u64 out,
                           u64 shape) noexcept nogil:
    """``partition_reaches`` given the cards ``out`` and the shape at the trick's start
    (``shape_of``): its parent's, changed only when a trick is done, by the trick's cards."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef RankKey key
    cdef Undo u
    cdef int cards[MAX_MOVES]
    cdef int killer = -1
    cdef int killer2 = -1
    cdef int found
    cdef int decided = 0
    cdef int n, i, seat, card, gain, q
    cdef bint result, v, maxer, boundary
    cdef u64 moves, rel = 0, child_rel, qrel, child_out, child_shape
    cdef int small_below[4]          # per suit: a run topped below this card is skipped
    cdef int suit, low
    cdef u64 tried = 0

    s.nodes += 1
    s.rel = 0
    # Step 1. Bounds from the trick count alone.
    if target <= 0:
        return True
    if target > p.tricks_left:
        return False
    if p.tricks_left == 1:
        return last_trick(r, p, &s.rel) >= target

    boundary = p.nplayed == 0
    if boundary:
        # Ctrl-C (checked at the start of tricks: a stopped search unwinds a trick at a time)
        if stop_requested(s):
            return False
        # Step 2. Winning-rank table lookup (trick boundaries only): an entry whose
        # deciding cards have the same owners here.
        rank_key(t, r, p, out, shape, &key)
        found = rank_probe(t, &key, out, target, &s.rel)
        if found >= 0:
            return found
        # Step 3. Sure tricks at the start of a trick (after the table: most probes hit,
        # and then these cost nothing). A cut-off from 3 tricks left up is stored (step 8):
        # its deciding cards are few, so its entry answers many positions, and finding it
        # costs a probe less than counting again (at 2 tricks left such entries only crowd
        # the buckets).
        decided = leader_side_tricks(r, p, out, target, &s.rel)
        if decided:
            if p.tricks_left < 3:
                return decided > 0
            rel = s.rel

    # Step 4. Second hand: the tricks his side surely takes from here.
    seat = seat_to_move(r, p)
    if p.nplayed == 1:
        q = target if r.dside[seat] else p.tricks_left - target + 1
        if second_hand_tricks(r, p, seat, q, &qrel) >= q:
            s.rel = qrel
            return r.dside[seat] != 0

    # Step 5. Moves: legal cards, one per run of equivalent cards, best first; at the lead
    # the two killer leads score a bonus (only the order changes: every move is searched).
    # (none after a sure-trick cut-off: its bound goes to the store)
    n = 0
    if not decided:
        moves = legal_moves(r, p, seat) & run_bottoms(p.hand[seat], out, r.bottoms)
        if boundary:
            killer = killer_lead(&t.killers, p.tricks_left, 0, moves)
            killer2 = killer_lead(&t.killers, p.tricks_left, 1, moves)
        n = order_partnership_moves(r, p, seat, moves, out, cards, killer, killer2)

    # Step 6. Search the moves; one success (maximiser) or failure (minimiser) cuts. The
    # deciding cards of a cut are those of the move that cut, else those of every move.
    maxer = r.maxer[seat]
    result = decided > 0 if decided else not maxer
    for i in range(4):
        small_below[i] = -1
    for i in range(n):
        card = cards[i]
        suit = r.suit_of[card]
        if small_below[suit] >= 0 and run_top(r, p.hand[seat], out, card) < small_below[suit]:
            continue                      # small, like a card refuted already
        tried |= (<u64>1) << card
        gain = play_trick_card(r, p, seat, card, &u)
        if target - gain <= 0 or target - gain > p.tricks_left:
            # decided by the trick count alone (step 1, without the call)
            s.nodes += 1
            v = target - gain <= 0
            child_rel = 0
        else:
            child_out = out
            child_shape = shape
            if u.trick_done:
                child_out &= ~u.trick_cards
                child_shape -= trick_shape(r, u.leader, u.played, 4) + ((<u64>1) << 48)
            v = partition_search(s, t, target - gain, child_out, child_shape)
            child_rel = s.rel
        if u.trick_done:
            # (the winner beat a card of its own suit: ``rank_winner`` by the trick's mask)
            if u.trick_cards & r.suit_mask[r.suit_of[p.win_card]] & ~((<u64>1) << p.win_card):
                child_rel |= (<u64>1) << p.win_card
        take_back_trick_card(p, seat, card, &u)
        if v == maxer:
            result = v
            rel = child_rel
            if boundary:
                killers_record(&t.killers, p.tricks_left, card)
            break
        rel |= child_rel
        if small_below[suit] < 0:
            # Refuted with a run of cards all below the deciding cards of their suit:
            # every other such run of this hand is small too, and playing it instead
            # leads to a position that differs only in small cards, which the same
            # proof covers (DDS's "lowest winning rank").
            low = low_index(child_rel & r.suit_mask[suit]) if child_rel & r.suit_mask[suit] else 64
            if run_top(r, p.hand[seat], out, card) < low:
                small_below[suit] = low

    # Step 7. Every card was refuted, each run of touching cards through one card: a run
    # that reaches its suit's deciding cards must stay a run, so its bottom card decides
    # too (the runs skipped as small need nothing: their positions differ in small cards
    # only).
    if result != maxer and not decided:
        rel |= runs_to_keep(r, tried, p.hand[seat], out, rel)

    # Step 8. Store the bound with its deciding cards at trick boundaries (not while a
    # stopped search unwinds: its answers are void).
    if boundary and not s.stopped:
        rank_store(t, &key, r, p, out, rel, target if result else 0,
                   p.tricks_left if result else target - 1)
    s.rel = rel
    return result
