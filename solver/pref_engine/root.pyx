# cython: language_level=3
"""The search from the root: all-pass talon tricks, then the main search.

All-pass with an open talon: the talon cards, turned up one at a time, fix
the suit of the first tricks. Every seat in turn, first hand first, plays to
the talon card's suit (any card when void); the highest card of that suit
takes the trick (with ``talon_must_beat``: only a card above the talon card);
if none does, nobody takes it. First hand plays first again after it. These
tricks are searched here, with their own move rule and ordering, and hand
over to ``search.reaches`` once the talon is used up. They sit at the top of
the tree only, so they are not stored in the table (whose positions are all
plain ones).

``root_value`` is the MTD(f) driver: null-window tests from a first guess
until the bounds meet, moving the target one trick at a time where the value
is a trick count, else halving the interval between the proven bounds
(card points: the values span hundreds; each test there returns a bound).

In a misère enumeration (``solve_batch``: one root per split, the same root
leads in each) the root is searched here (``misere_root_reaches``): the
search's root steps, with the leads ordered by what the earlier splits'
tests learnt of each lead card (``LeadHistory``): how often it held the
test where tried, and what it cost.
"""

from libc.string cimport memset

from pref_engine.state cimport (u64, Rules, Position, MAX_SEATS, seat_to_move, cards_out, legal_moves,
                           run_bottoms, low_index, bit_count, bit_deposit, value_bound, declarable,
                           DECLARE)
from pref_engine.search cimport (make_move, unmake_move, make_trick_move, unmake_trick_move, reaches,
                            points_bound, stop_requested, lead_merit_of, sort_by_merit)
from pref_engine.partition cimport RankTable, partition_reaches
from pref_engine.moves cimport insert_by_score, order_misere_moves, MAX_MOVES
from pref_engine.transtable cimport TTKey, tt_make_key, tt_probe, tt_store, NO_MOVE
from pref_engine.miseresteps cimport misere_before_table, misere_after_table


cdef inline int current_talon(const Searcher* s) noexcept nogil:
    return s.talon_card[s.talon_next]


cdef inline u64 talon_cards_left(const Searcher* s) noexcept nogil:
    cdef u64 cards = 0
    cdef int i
    for i in range(s.talon_next, s.talon_next + s.ntalon):
        cards |= (<u64>1) << s.talon_card[i]
    return cards


cdef int talon_trick_winner(const Searcher* s, const int* played, int leader,
                            int talon_card) noexcept nogil:
    """The seat that takes a complete talon trick, or -1 if nobody does."""
    cdef const Rules* r = &s.rules
    cdef int suit = r.suit_of[talon_card]
    cdef int best = talon_card if s.talon_must_beat else -1
    cdef int seat = -1
    cdef int k, c
    for k in range(r.nseats):
        c = played[k]
        if r.suit_of[c] == suit and c > best:
            best = c
            seat = (leader + k) % r.nseats
    return seat


cdef u64 root_legal_moves(Searcher* s, int seat) noexcept nogil:
    """Legal cards: the talon card's suit in a talon trick (any card if void)."""
    cdef u64 hand, follow
    if s.ntalon == 0:
        return legal_moves(&s.rules, &s.pos, seat)
    hand = s.pos.hand[seat]
    follow = hand & s.rules.suit_mask[s.rules.suit_of[current_talon(s)]]
    return follow if follow else hand


cdef u64 root_distinct_moves(Searcher* s, int seat) noexcept nogil:
    """Legal cards, one per run of equivalent cards.

    While talon tricks remain and a talon card must be beaten, the talon
    cards count as cards out: a card just under one is not equivalent to
    the card just over it.
    """
    cdef u64 out = cards_out(&s.rules, &s.pos)
    if s.ntalon and s.talon_must_beat:
        out |= talon_cards_left(s)
    return root_legal_moves(s, seat) & run_bottoms(s.pos.hand[seat], out, s.rules.run_stops)


cdef int root_moves(Searcher* s, int seat, int* moves) noexcept nogil:
    """Every legal move of ``seat`` in card order, a lead declaring a marriage right after
    the plain lead of its card; returns their number."""
    cdef u64 cards = root_legal_moves(s, seat)
    cdef u64 declaring = declarable(&s.rules, &s.pos, seat) if s.ntalon == 0 else 0
    cdef int n = 0
    cdef int card
    while cards:
        card = low_index(cards)
        cards &= cards - 1
        moves[n] = card
        n += 1
        if (declaring >> card) & 1:
            moves[n] = card | DECLARE
            n += 1
    return n


cdef int root_make_move(Searcher* s, int move, Undo* u) noexcept nogil:
    """Make ``move`` for the seat to move; the declarer side's gain (see ``make_move``)."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int card = move
    cdef u64 bit = (<u64>1) << card
    cdef int seat, i, winner
    if s.ntalon == 0:
        u.talon_trick = False
        return make_move(s, move, u)
    seat = seat_to_move(r, p)
    u.win_seat = p.win_seat
    u.win_card = p.win_card
    u.trick_done = False
    u.talon_trick = False
    p.hand[seat] &= ~bit
    p.trick_cards |= bit
    p.played[p.nplayed] = card
    p.nplayed += 1
    if p.nplayed < r.nseats:
        return 0
    u.trick_done = True
    u.talon_trick = True
    u.leader = p.leader
    u.trick_cards = p.trick_cards
    for i in range(MAX_SEATS):
        u.played[i] = p.played[i]
    winner = talon_trick_winner(s, p.played, p.leader, current_talon(s))
    p.nplayed = 0
    p.trick_cards = 0
    p.tricks_left -= 1
    s.ntalon -= 1
    s.talon_next += 1
    return r.dside[winner] if winner >= 0 else 0


cdef void root_unmake_move(Searcher* s, int seat, int move, const Undo* u) noexcept nogil:
    # A talon trick is taken back as any trick is; only its talon card returns.
    if u.talon_trick:
        s.ntalon += 1
        s.talon_next -= 1
    unmake_move(s, seat, move, u)


cdef inline int talon_score(const Searcher* s, int seat, int card) noexcept nogil:
    """Move ordering in a talon trick (higher first).

    The counted seat (it wants few tricks) ducks under the best card so far
    with its highest card that still loses; forced to win, it wins low unless
    it is last (then high: the trick is his anyway). The others (they want
    the counted seat to take tricks) play low to leave it room. A void seat
    discards its highest card.
    """
    cdef const Rules* r = &s.rules
    cdef const Position* p = &s.pos
    cdef int talon = current_talon(s)
    cdef int suit = r.suit_of[talon]
    cdef int best = talon if s.talon_must_beat else -1
    cdef int k, c
    cdef bint last = p.nplayed == r.nseats - 1
    if r.suit_of[card] != suit:
        return card                                   # a discard: highest first
    for k in range(p.nplayed):
        c = p.played[k]
        if r.suit_of[c] == suit and c > best:
            best = c
    if r.maxer[seat]:
        return -card
    if card < best:
        return 1000 + card
    return card if last else -card


cdef bint talon_reaches(Searcher* s, int target) noexcept nogil:
    """``reaches`` for a position inside the talon tricks."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int cards[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int seat, card, i, gain
    cdef bint v, maxer
    cdef u64 moves
    cdef Undo u
    s.nodes += 1
    if target <= 0:
        return True
    if target > p.tricks_left:
        return False
    seat = seat_to_move(r, p)
    moves = root_distinct_moves(s, seat)
    while moves:
        card = low_index(moves)
        moves &= moves - 1
        n = insert_by_score(cards, scores, n, card, talon_score(s, seat, card))
    maxer = r.maxer[seat]
    for i in range(n):
        card = cards[i]
        gain = root_make_move(s, card, &u)
        v = root_reaches(s, target - gain)
        root_unmake_move(s, seat, card, &u)
        if v == maxer:
            return v
    return not maxer


cdef bint root_reaches(Searcher* s, int target) noexcept nogil:
    """True if the declarer's side can score ``target`` over the rest of the play."""
    if s.ntalon:
        return talon_reaches(s, target)
    if s.rank_table != NULL:
        return partition_reaches(s, <RankTable*>s.rank_table, target)
    return reaches(s, target)


cdef void lead_history_reset(LeadHistory* h) noexcept nogil:
    memset(h, 0, sizeof(LeadHistory))


cdef inline double lead_merit(const LeadHistory* h, int card) noexcept nogil:
    """``lead_merit_of`` a root lead, with a prior of 100 nodes where it has little history."""
    return lead_merit_of(h.held[card], h.tried[card], h.nodes[card] + 100.0)


cdef bint misere_root_reaches(Searcher* s, int target, LeadHistory* history) noexcept nogil:
    """``reaches`` at the root of a misère counting tricks, at a trick's start with more than
    one trick left: the search's root steps (its rules, the table's probe and store), its
    leads tried in falling ``lead_merit`` (ties: the misère order), the table's move first.
    A test that a lead cuts off adds to ``history``: every lead it tried and its nodes, the
    lead that cut off."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef u64 out = cards_out(r, p)
    cdef u64 moves
    cdef TTKey key
    cdef Undo u
    cdef int cards[MAX_MOVES]
    cdef long long nodes[MAX_MOVES]
    cdef double merit[MAX_MOVES]
    cdef int lower, upper, stored_best, q, n, i, j, start, seat, card, gain
    cdef int first = -1, best = -1
    cdef bint result, v, maxer
    s.nodes += 1
    if target <= 0:
        return True
    if target > p.tricks_left:
        return False
    if stop_requested(s):
        return False
    if misere_before_table(r, p, target, &v):
        return v
    tt_make_key(r, p, out, &key)
    if tt_probe(s.tt, &key, &lower, &upper, &stored_best):
        if lower >= target:
            return True
        if upper < target:
            return False
        if stored_best != NO_MOVE:
            first = low_index(bit_deposit((<u64>1) << stored_best, out))
    if misere_after_table(r, p, out, target, &v):
        return v
    seat = seat_to_move(r, p)
    moves = legal_moves(r, p, seat) & run_bottoms(p.hand[seat], out, r.run_stops)
    n = order_misere_moves(r, p, seat, moves, first, out, cards, target)
    start = 1 if n and cards[0] == first else 0
    for i in range(start, n):
        merit[i] = lead_merit(history, cards[i])
    sort_by_merit(cards, merit, start, n)
    maxer = r.maxer[seat]
    result = not maxer
    for i in range(n):
        card = cards[i]
        nodes[i] = s.nodes
        gain = make_trick_move(s, card, &u)
        if target - gain <= 0 or target - gain > p.tricks_left:
            s.nodes += 1                  # (decided by the tricks left, as the call would be)
            v = target - gain <= 0
        else:
            v = reaches(s, target - gain)
        unmake_trick_move(s, seat, card, &u)
        nodes[i] = s.nodes - nodes[i]
        if v == maxer:
            result = v
            best = card
            break
    if s.stopped:                         # (its answers are void)
        return result
    if best < 0:
        best = NO_MOVE
    else:
        history.held[best] += 1
        for j in range(i + 1):
            history.tried[cards[j]] += 1
            history.nodes[cards[j]] += nodes[j]
        best = bit_count(out & (((<u64>1) << best) - 1))
    tt_store(s.tt, &key, p.tricks_left, target if result else 0,
             p.tricks_left if result else target - 1, best)
    return result


cdef int root_value(Searcher* s, int guess, LeadHistory* history) noexcept nogil:
    """Exact value by null-window tests, the first at ``guess``: MTD(f) one trick at a time
    for trick counts (the guess is rarely more than a trick off); for card points each test
    returns a bound (fail-soft) and the next one bisects the interval still open.
    ``history``: an enumeration's root lead history (misère), else NULL."""
    cdef int lo = 0
    cdef int hi = value_bound(&s.rules, &s.pos)
    cdef int t = guess
    cdef int v
    if not s.rules.plain_value:
        while lo < hi:
            if t <= lo:
                t = lo + 1
            if t > hi:
                t = hi
            v = points_bound(s, t)
            if s.stopped:
                break
            if v >= t:
                lo = v if v < hi else hi
            else:
                hi = v if v > lo else lo
            t = (lo + hi + 1) // 2
        return lo
    cdef bint misere_root = (history != NULL and not s.rules.plain_tricks and s.ntalon == 0
                             and s.rank_table == NULL and s.pos.nplayed == 0
                             and s.pos.tricks_left > 1)
    cdef bint reached
    while lo < hi:
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        if misere_root:
            reached = misere_root_reaches(s, t, history)
        else:
            reached = root_reaches(s, t)
        if reached:
            lo = t
            t = t + 1
        else:
            hi = t - 1
            t = t - 1
    return lo
