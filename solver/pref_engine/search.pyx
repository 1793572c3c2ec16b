# cython: language_level=3
"""Search: "can the declarer's side take ``target`` of the remaining tricks?"

``reaches`` is a null-window alpha-beta over the declarer side's tricks: it
answers yes/no (``root.pyx`` drives it MTD(f)-style, moving the target one
trick at a time from a first guess until the bounds meet). The value of a
position is always the declarer side's tricks; ``Rules.maxer`` says which
seats want it high (trick contracts: the declarer's side; misère: the
defenders). Whist searches with ``partition.pyx`` instead: the same steps, with
winning-rank table entries.
"""

from pref_engine.state cimport (Rules, Position, MAX_SEATS, seat_to_move, cards_out, legal_moves,
                           last_trick_cards,
                           run_bottoms, play_card, beats, bit_count, low_index, bit_deposit,
                           bit_extract)
from pref_engine.transtable cimport (TTKey, tt_make_key, tt_probe, tt_store, tt_prefetch,
                                tt_suit_counts, tt_suit_one, tt_hash_key, NO_MOVE)
from pref_engine.quicktricks cimport quick_tricks, misere_sure
from pref_engine.moves cimport order_moves, MAX_MOVES


cdef enum:
    TT_MIN_TRICKS = 1              # (the last trick is played out directly)


cdef int make_move(Searcher* s, int card, Undo* u) noexcept nogil:
    """Play ``card`` for the seat to move; returns the trick's gain (0/1) if it ends."""
    return do_move(s, card, u)


cdef void unmake_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil:
    undo_move(s, seat, card, u)


cdef inline int do_move(Searcher* s, int card, Undo* u) noexcept nogil:
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int i, winner
    u.win_seat = p.win_seat
    u.win_card = p.win_card
    u.trick_done = False
    play_card(r, p, seat_to_move(r, p), card)
    if p.nplayed < r.nseats:
        return 0
    # The trick is complete: the winner leads the next one.
    u.trick_done = True
    u.leader = p.leader
    u.trick_cards = p.trick_cards
    for i in range(MAX_SEATS):             # (a fixed size: copied in registers)
        u.played[i] = p.played[i]
    winner = p.win_seat
    p.leader = winner
    p.nplayed = 0
    p.trick_cards = 0
    p.tricks_left -= 1
    return r.dside[winner]


cdef inline void undo_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil:
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int i
    cdef u64 bit = (<u64>1) << card
    if u.trick_done:
        p.leader = u.leader
        p.nplayed = r.nseats
        p.trick_cards = u.trick_cards
        p.tricks_left += 1
        for i in range(MAX_SEATS):
            p.played[i] = u.played[i]
    p.nplayed -= 1
    p.hand[seat] |= bit
    p.trick_cards &= ~bit
    p.win_seat = u.win_seat
    p.win_card = u.win_card


cdef inline int last_trick_gain(const Rules* r, Position* p) noexcept nogil:
    """Declarer side's gain in the last trick: every seat has one card left."""
    cdef int cards[MAX_SEATS]
    cdef int place = last_trick_cards(r, p, cards)
    return r.dside[(p.leader + place) % r.nseats]


cdef void reset_killers(Searcher* s) noexcept nogil:
    killers_reset(&s.killers)


cdef inline int killer_slot(const Rules* r, const Position* p, int seat) noexcept nogil:
    """The main search keeps its killer leads per tricks left and side on lead."""
    return 2 * p.tricks_left + r.dside[seat]


cdef bint reaches(Searcher* s, int target) noexcept nogil:
    """True if the declarer's side can take ``target`` of the remaining tricks."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef TTKey key
    cdef int lower, upper, stored_best, t2
    cdef Undo u
    cdef int cards[MAX_MOVES]
    cdef int first = -1
    cdef int n, i, seat, card, gain, q, room, best = -1
    cdef bint result, v, maxer
    cdef u64 out, moves, base_out, base_meta, h1, h2, bit
    cdef TTKey child_keys[MAX_MOVES]
    cdef int child_winner[MAX_MOVES]      # the seat taking the trick after each card
    cdef bint keyed = False

    s.nodes += 1
    # Step 1. Bounds from the trick count alone.
    if target <= 0:
        return True
    if target > p.tricks_left:
        return False
    if p.tricks_left == 1:
        return last_trick_gain(r, p) >= target

    out = cards_out(r, p)
    if p.nplayed == 0 and p.tricks_left > TT_MIN_TRICKS:
        # Ctrl-C (checked at the start of tricks: a stopped search unwinds a trick at a time)
        if stop_requested(s):
            return False
        # Step 2. Misère: the declarer caught for every remaining trick, or clean.
        if not r.plain_tricks:
            q = misere_sure(r, p)
            if q:
                return q > 0
        # Step 3. Transposition table lookup (trick boundaries only); the key may
        # come from the caller (step 6).
        if s.child_key != NULL:
            key = s.child_key[0]
            s.child_key = NULL
        else:
            tt_make_key(r, p, out, &key)
        if tt_probe(s.tt, &key, &lower, &upper, &stored_best):
            if lower >= target:
                return True
            if upper < target:
                return False
            if stored_best != NO_MOVE:
                first = low_index(bit_deposit((<u64>1) << stored_best, out))
        # Step 4. Quick tricks of the side on lead (trick contracts).
        if r.plain_tricks:
            q = quick_tricks(r, p, out)
            if r.dside[p.leader]:
                if q >= target:
                    tt_store(s.tt, &key, p.tricks_left, q, p.tricks_left, NO_MOVE)
                    return True
            elif p.tricks_left - q < target:
                tt_store(s.tt, &key, p.tricks_left, 0, p.tricks_left - q, NO_MOVE)
                return False

    # Step 5. Moves: legal cards, one per run of equivalent cards, best first.
    seat = seat_to_move(r, p)
    moves = legal_moves(r, p, seat) & run_bottoms(p.hand[seat], out, r.bottoms)
    # Misère: the declarer may take target - 1 more tricks and still stay under the
    # target; that room changes his leads only where he is not caught for most of
    # the tricks left (there, shedding a winner just feeds the defenders).
    room = 0
    if not r.plain_tricks and r.dside[seat] and 2 * target <= p.tricks_left:
        room = target - 1
    if r.plain_tricks and p.nplayed == 0 and first < 0:
        # Trick contracts: the killer lead where the table has no move. (Not in misère:
        # there the right lead depends on the target.)
        first = killer_lead(&s.killers, killer_slot(r, p, seat), 0, moves)
    n = order_moves(r, p, seat, moves, first, out, cards, room)
    maxer = r.maxer[seat]

    # Step 6. The last card of a trick leads to table positions: make their keys
    # (without playing the cards) and prefetch their buckets, so the memory loads
    # overlap the search of the first moves; each child gets its key. Then an
    # enhanced transposition cut-off: a child whose stored bound already decides the
    # target the mover's way ends the search (most pay off in an enumeration of
    # splits, where the table is full of related positions).
    if p.nplayed == r.nseats - 1 and p.tricks_left > TT_MIN_TRICKS + 1:
        keyed = True
        base_out = out & ~p.trick_cards
        base_meta = tt_suit_counts(r, base_out)
        h1 = p.hand[1] | p.hand[3]
        h2 = p.hand[2] | p.hand[3]
        for i in range(n):
            card = cards[i]
            bit = (<u64>1) << card
            child_winner[i] = seat if beats(r, card, p.win_card) else p.win_seat
            child_keys[i].meta = (base_meta - tt_suit_one(r.suit_of[card])) | <u64>child_winner[i]
            child_keys[i].plane0 = bit_extract(h1, base_out & ~bit)
            child_keys[i].plane1 = bit_extract(h2, base_out & ~bit)
            tt_hash_key(&child_keys[i])
            if n > 1:
                tt_prefetch(s.tt, &child_keys[i])
        for i in range(n):
            t2 = target - r.dside[child_winner[i]]
            if t2 <= 0 or t2 > p.tricks_left - 1:
                continue
            if tt_probe(s.tt, &child_keys[i], &lower, &upper, &stored_best):
                if (maxer and lower >= t2) or (not maxer and upper < t2):
                    s.nodes += 1
                    return maxer

    # Step 7. Search the moves; one success (maximiser) or failure (minimiser) cuts.
    result = not maxer
    for i in range(n):
        card = cards[i]
        gain = do_move(s, card, &u)
        if target - gain <= 0 or target - gain > p.tricks_left:
            # decided by the trick count alone (reaches' step 1, without the call)
            s.nodes += 1
            v = target - gain <= 0
        else:
            if keyed:
                s.child_key = &child_keys[i]
            v = reaches(s, target - gain)
            s.child_key = NULL
        undo_move(s, seat, card, &u)
        if v == maxer:
            result = v
            best = card
            if r.plain_tricks and p.nplayed == 0:
                killers_record(&s.killers, killer_slot(r, p, seat), card)
            break

    # Step 8. Store the bound (and the move that proved it) at trick boundaries
    # (not while a stopped search unwinds: its answers are void).
    if p.nplayed == 0 and p.tricks_left > TT_MIN_TRICKS and not s.stopped:
        if best >= 0:
            best = bit_count(out & (((<u64>1) << best) - 1))
        else:
            best = NO_MOVE
        if result:
            tt_store(s.tt, &key, p.tricks_left, target, p.tricks_left, best)
        else:
            tt_store(s.tt, &key, p.tricks_left, 0, target - 1, best)
    return result
