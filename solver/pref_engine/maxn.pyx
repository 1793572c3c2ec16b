# cython: language_level=3
"""Self-interested all-pass play: every seat minimises its own tricks (max^n).

Each position has one outcome: the tricks every seat takes from there to the
end. The seat to move picks, among its legal cards, the child whose outcome
is best *for him*: fewest own tricks, or under ``rostov`` (aim: fewer tricks
than each opponent) the smallest lead over the best opponent, counting the
tricks already taken, then the fewest own tricks. **Ties** go to the first
card in the engine's card order: suits in the deck's order, low to high.
That order survives the rank-relative renumbering of the table's key, so
positions sharing a table entry share their outcome.

This is one solution concept among several (paranoid play, coalitions,
other tie rules give other splits); the guaranteed minima of ``root.pyx``
are the solid numbers, this is a plausible line.

max^n has no alpha-beta cut-offs; two exact ones remain. Equivalent cards
(one per run of touching cards) give equal outcomes, and a seat that finds a
card taking no further trick stops looking (no later card can be better,
and ties go to the first). The outcome of every trick-boundary position
after the talon tricks is kept in a fixed-size, always-replace table.
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memset

from pref_engine.state cimport (Rules, Position, seat_to_move, cards_out, low_index)
from pref_engine.search cimport Undo, stop_requested
from pref_engine.transtable cimport TTKey, tt_make_key, tt_key_add_taken
from pref_engine.root cimport (root_make_move, root_unmake_move, root_distinct_moves,
                          talon_trick_winner)


cdef int maxn_init(MaxnTable* t, double size_mb) except -1:
    cdef u64 n = <u64>(size_mb * 1048576.0) // sizeof(MaxnEntry)
    if n < 1:
        n = 1
    if n >= (<u64>1 << 32):
        n = (<u64>1 << 32) - 1
    t.entries = <MaxnEntry*>calloc(n, sizeof(MaxnEntry))
    if t.entries == NULL:
        raise MemoryError("cannot allocate the max^n table")
    t.nentries = n
    t.gen = 1
    return 0


cdef void maxn_free(MaxnTable* t) noexcept nogil:
    free(t.entries)
    t.entries = NULL


cdef void maxn_clear(MaxnTable* t) noexcept nogil:
    t.gen += 1
    if t.gen == 0:
        memset(t.entries, 0, t.nentries * sizeof(MaxnEntry))
        t.gen = 1


cdef inline int own(unsigned int tricks, int seat) noexcept nogil:
    return (tricks >> (8 * seat)) & 0xFF


cdef inline int preference(const Maxn* m, int seat, unsigned int tricks) noexcept nogil:
    """Lower is better for ``seat``."""
    cdef int mine, other, fewest, i
    if not m.rostov:
        return own(tricks, seat)
    mine = m.taken[seat] + own(tricks, seat)
    fewest = 1 << 20
    for i in range(m.s.rules.nseats):
        if i != seat:
            other = m.taken[i] + own(tricks, i)
            if other < fewest:
                fewest = other
    return (mine - fewest + 64) * 128 + mine


cdef inline unsigned int after_card(Maxn* m, int seat, int card) noexcept nogil:
    """The outcome (from the current position) after ``seat`` plays ``card``."""
    cdef Searcher* s = m.s
    cdef Undo u
    cdef int winner = -1
    cdef unsigned int value
    root_make_move(s, card, &u)
    if u.trick_done:
        if u.talon_trick:
            winner = talon_trick_winner(s, u.played, u.leader, s.talon_card[s.talon_next - 1])
        else:
            winner = s.pos.leader
        if winner >= 0:
            m.taken[winner] += 1
    value = maxn_value(m)
    if winner >= 0:
        m.taken[winner] -= 1
        value += (<unsigned int>1) << (8 * winner)
    root_unmake_move(s, seat, card, &u)
    return value


cdef int maxn_choice(Maxn* m, unsigned int* value) noexcept nogil:
    """The card the seat to move plays, and (in ``value``) the outcome it leads to."""
    cdef Searcher* s = m.s
    cdef int seat = seat_to_move(&s.rules, &s.pos)
    cdef u64 moves = root_distinct_moves(s, seat)
    cdef int card, pref
    cdef int best_card = -1
    cdef int best_pref = 1 << 30
    cdef unsigned int v
    m.nodes += 1
    s.nodes += 1
    value[0] = 0
    if stop_requested(s):
        return -1
    while moves:
        card = low_index(moves)
        moves &= moves - 1
        v = after_card(m, seat, card)
        pref = preference(m, seat, v)
        if pref < best_pref:
            best_pref = pref
            best_card = card
            value[0] = v
            if not m.rostov and own(v, seat) == 0:
                break                     # nothing beats no trick; ties go to the first
    return best_card


cdef unsigned int maxn_value(Maxn* m) noexcept nogil:
    """Every seat's tricks from the current position to the end (8 bits a seat)."""
    cdef Searcher* s = m.s
    cdef Position* p = &s.pos
    cdef MaxnTable* t = m.table
    cdef TTKey key
    cdef MaxnEntry* e
    cdef unsigned int value
    if p.tricks_left == 0:
        return 0
    if s.ntalon or p.nplayed or p.tricks_left < 2:
        maxn_choice(m, &value)
        return value
    tt_make_key(&s.rules, p, cards_out(&s.rules, p), &key)
    if m.rostov:                          # the choices depend on the tricks taken so far
        tt_key_add_taken(&key, m.taken, s.rules.nseats)
    e = t.entries + (((key.hash >> 32) * t.nentries) >> 32)
    if e.gen == t.gen and e.plane0 == key.plane0 and e.plane1 == key.plane1 and e.meta == key.meta:
        return e.tricks
    maxn_choice(m, &value)
    e.plane0 = key.plane0
    e.plane1 = key.plane1
    e.meta = key.meta
    e.tricks = value
    e.gen = t.gen
    return value
