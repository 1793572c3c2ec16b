# cython: language_level=3
"""Search: "can the declarer's side score ``target`` over the rest of the play?"

``reaches`` is a null-window alpha-beta over the declarer side's value: it
answers yes/no (``root.pyx`` drives it from a first guess until the bounds
meet). The value of a position is the declarer side's tricks, or where tricks
are worth their card points (``Rules.unit_tricks`` false) the points of the
tricks it takes, plus the marriages it declares; ``Rules.maxer`` says which
seats want it high (trick contracts: the declarer's side; misère: the
defenders). A move is a card, or ``card | DECLARE`` for a lead declaring a
declaration (the trump becomes the suit of the card led). Whist searches with ``partition.pyx``
instead: the same steps, with winning-rank table entries.
"""

from pref_engine.state cimport (Rules, Position, MAX_SEATS, seat_to_move, cards_out, legal_moves,
                           last_trick_cards, trick_points, value_bound, marriage_of, DECLARE,
                           run_bottoms, play_card, beating_cards, bit_count, low_index, bit_deposit)
from pref_engine.transtable cimport (TTKey, TTChildKeys, tt_make_key, tt_probe, tt_store,
                                tt_prefetch, tt_child_keys_begin, tt_child_key_relative,
                                tt_child_key_absolute, NO_MOVE)
from pref_engine.quicktricks cimport (long_quick_tricks, quick_points,
                                      trumps_decide, leader_side_short,
                                      partner_quick_tricks, last_card_reaches,
                                      defenders_short_with_trumps)
from pref_engine.miseresteps cimport misere_before_table, misere_after_table
from pref_engine.moves cimport (order_trick_moves, order_misere_moves, order_moves_declaring,
                               MAX_MOVES, MAX_LEAD_MOVES)


cdef enum:
    TT_MIN_TRICKS = 1              # (the last trick is played out directly)
    # Misère enumerations: the declarer's leads ordered by their history over the splits
    # (``DeclarerLeadHistory``) where this many tricks are left or more, each lead's nodes
    # counted with a prior of ``LEAD_PRIOR_NODES``
    LEAD_HISTORY_MIN_TRICKS = 3
    LEAD_PRIOR_NODES = 5


cdef inline void order_by_lead_history(const DeclarerLeadHistory* h, int spare, int tricks,
                                       int* cards, int n, int start) noexcept nogil:
    """Sort ``cards[start:n]`` by falling ``lead_merit_of`` (stable: ties keep the misère
    order), with a smaller prior than the root's: the subtrees below the root are smaller."""
    cdef double merit[MAX_LEAD_MOVES]
    cdef int i
    for i in range(start, n):
        merit[i] = <float>lead_merit_of(h.held[spare][tricks][cards[i]], h.tried[spare][tricks][cards[i]],
                                        h.nodes[spare][tricks][cards[i]] + LEAD_PRIOR_NODES)
    sort_by_merit(cards, merit, start, n)


# The search is compiled three times (a fused type picks the version): for trick counts
# (``Rules.plain_value``: every trick worth 1 and no declarations, so the value is bounded by
# the tricks left) in trick contracts (``TrickCount``: ``Rules.plain_tricks``, each side
# wants its own tricks) and in misère (``MisereCount``: the declarer's side wants few), and
# for any other value (``PointValue``: card points, declarations). Each version carries
# none of the others' tests, and gcc inlines each one's move order on its own budget.
cdef struct TrickCount:
    char unused
cdef struct MisereCount:
    char unused
cdef struct PointValue:
    char unused
ctypedef fused Valuation:
    TrickCount
    MisereCount
    PointValue


cdef int make_move(Searcher* s, int move, Undo* u) noexcept nogil:
    """Make ``move`` for the seat to move; returns the declarer side's gain: the trick's
    (1 or its card points) if it ends, a declaration's points."""
    if s.rules.plain_value:
        return do_move(s, move, u, <TrickCount*>NULL)
    return do_move(s, move, u, <PointValue*>NULL)


cdef void unmake_move(Searcher* s, int seat, int move, const Undo* u) noexcept nogil:
    if s.rules.plain_value:
        undo_move(s, seat, move, u, <TrickCount*>NULL)
    else:
        undo_move(s, seat, move, u, <PointValue*>NULL)


cdef int make_trick_move(Searcher* s, int card, Undo* u) noexcept nogil:
    """``make_move`` where the value is a trick count (``Rules.plain_value``)."""
    return do_move(s, card, u, <TrickCount*>NULL)


cdef void unmake_trick_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil:
    undo_move(s, seat, card, u, <TrickCount*>NULL)


cdef inline int do_move(Searcher* s, int move, Undo* u, Valuation* value) noexcept nogil:
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int i, winner
    if Valuation is PointValue:
        if move >= DECLARE:
            return declare_lead(s, move - DECLARE, u)
    u.win_seat = p.win_seat
    u.win_card = p.win_card
    u.trick_done = False
    play_card(r, p, seat_to_move(r, p), move)
    if p.nplayed < r.nseats:
        return 0
    # The trick is complete: the winner leads the next one (and may declare).
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
    if Valuation is not PointValue:
        return r.dside[winner]
    u.may_declare = p.may_declare
    p.may_declare = True
    if r.unit_tricks:
        return r.dside[winner]
    u.trick_points = trick_points(r, p.played, r.nseats)
    p.points_left -= u.trick_points
    return u.trick_points if r.dside[winner] else 0


cdef inline int declare_lead(Searcher* s, int card, Undo* u) noexcept nogil:
    """Lead ``card`` declaring the declaration it belongs to: the trump becomes the card's
    suit, and the declarer's side scores the points if the leader is on it."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int seat = seat_to_move(r, p)
    cdef int m = marriage_of(r, card)
    u.win_seat = p.win_seat
    u.win_card = p.win_card
    u.trick_done = False
    u.trump = p.trump
    p.trump = r.suit_of[card]
    play_card(r, p, seat, card)           # (a lead: the trick goes on)
    return r.marriage_points[m] if r.dside[seat] else 0


cdef inline void undo_move(Searcher* s, int seat, int move, const Undo* u,
                           Valuation* value) noexcept nogil:
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef int i
    cdef u64 bit
    if Valuation is PointValue:
        if move >= DECLARE:
            p.trump = u.trump
            move -= DECLARE
    bit = (<u64>1) << move
    if u.trick_done:
        p.leader = u.leader
        p.nplayed = r.nseats
        p.trick_cards = u.trick_cards
        p.tricks_left += 1
        if Valuation is PointValue:
            p.may_declare = u.may_declare
            if not r.unit_tricks:
                p.points_left += u.trick_points
        for i in range(MAX_SEATS):
            p.played[i] = u.played[i]
    p.nplayed -= 1
    p.hand[seat] |= bit
    p.trick_cards &= ~bit
    p.win_seat = u.win_seat
    p.win_card = u.win_card


cdef inline int last_trick_gain(const Rules* r, Position* p, Valuation* value) noexcept nogil:
    """Declarer side's gain in the last trick: every seat has one card left."""
    cdef int cards[MAX_SEATS]
    cdef int place = last_trick_cards(r, p, cards)
    cdef int side = r.dside[(p.leader + place) % r.nseats]
    if Valuation is not PointValue:
        return side
    if r.unit_tricks or not side:
        return side
    return trick_points(r, cards, r.nseats)


cdef inline int best_declaration(const Rules* r, const Position* p) noexcept nogil:
    """The most points one declaration the leader may make now scores."""
    cdef int i, best = 0
    for i in range(r.nmarriages):
        if (p.hand[p.leader] & r.marriage_cards[i]) == r.marriage_cards[i] and r.marriage_points[i] > best:
            best = r.marriage_points[i]
    return best


cdef void reset_killers(Searcher* s) noexcept nogil:
    killers_reset(&s.killers)


cdef inline int killer_slot(const Rules* r, const Position* p, int seat) noexcept nogil:
    """The main search keeps its killer leads per tricks left and side on lead."""
    return 2 * p.tricks_left + r.dside[seat]


cdef bint reaches(Searcher* s, int target) noexcept nogil:
    """True if the declarer's side can score ``target`` over the rest of the play."""
    cdef u64 out = cards_out(&s.rules, &s.pos)
    if s.rules.plain_value:
        if s.rules.plain_tricks:
            return search(s, target, <TrickCount*>NULL, out)
        return search(s, target, <MisereCount*>NULL, out)
    return search(s, target, <PointValue*>NULL, out) >= target


cdef int points_bound(Searcher* s, int target) noexcept nogil:
    """Card points and declarations (``Rules.plain_value`` false): a bound of the value from
    one null-window test at ``target``: a lower bound if it is at least ``target`` (the
    target is reached), else an upper bound (fail-soft)."""
    return search(s, target, <PointValue*>NULL, cards_out(&s.rules, &s.pos))


cdef int search(Searcher* s, int target, Valuation* value, u64 out) noexcept nogil:
    """``reaches`` for one kind of value (``Valuation``): for trick counts 1 or 0 (reached or
    not); for points fail-soft, a bound of the value (see ``points_bound``). ``out``: the
    cards in play (``cards_out``; the caller knows them: they change at a trick's end only)."""
    cdef Rules* r = &s.rules
    cdef Position* p = &s.pos
    cdef TTKey key
    cdef int lower, upper, stored_best, t2
    cdef Undo u
    cdef int cards[MAX_LEAD_MOVES]
    cdef int first = -1
    cdef int n, i, seat, card, gain, q, bound, best = -1, table_points = 0
    cdef bint result, v, maxer
    cdef int found, child                 # points: the bound found, a child's
    cdef int q2
    cdef int sure_low, sure_high          # trick counts: the sure bounds of step 4
    cdef bint no_trump_out                # (no-trump, or no trump left)
    cdef u64 moves, child_out, beaters
    cdef TTChildKeys child_base
    cdef TTKey child_keys[MAX_MOVES]
    cdef int child_winner[MAX_MOVES]      # the seat taking the trick after each card
    cdef bint child_lost[MAX_MOVES]       # trick counts: the table says the child fails the mover
    cdef bint keyed = False
    cdef int killer = -1

    s.nodes += 1
    # Step 1. Bounds from what is left to score (the tricks left, for trick counts).
    if Valuation is not PointValue:
        if target <= 0:
            return True
        if target > p.tricks_left:
            return False
        if p.tricks_left == 1:
            return last_trick_gain(r, p, value) >= target
        if Valuation is TrickCount and target == 1 and p.nplayed == r.nseats - 1:
            # The trick's last card, the declarer's side one trick short: if the trick is
            # surely its own, reached without searching the moves (``last_card_reaches``:
            # the children count as the nodes step 7 would count).
            q = last_card_reaches(r, p, seat_to_move(r, p), out)
            if q:
                s.nodes += q
                return True
    else:
        if target <= 0:
            return 0
        bound = value_bound(r, p)
        if target > bound:
            return bound
        if p.tricks_left == 1:
            return last_trick_gain(r, p, value)

    if p.nplayed == 0 and p.tricks_left > TT_MIN_TRICKS:
        # Ctrl-C (checked at the start of tricks: a stopped search unwinds a trick at a time)
        if stop_requested(s):
            return False                  # (a stopped search's answers are void)
        # Step 2. Misère at the first and last targets only: the trick now starting surely
        # the declarer's (target 1 reached), or one he can lose (all the tricks left out of
        # reach); before the table, cheaper than its probe.
        if Valuation is MisereCount:
            if misere_before_table(r, p, target, &v):
                return v
        # Step 3. Transposition table lookup (trick boundaries only); the key may
        # come from the caller (step 6).
        if s.child_key != NULL:
            key = s.child_key[0]
            s.child_key = NULL
        else:
            tt_make_key(r, p, out, &key)
        if tt_probe(s.tt, &key, &lower, &upper, &stored_best):
            if lower >= target:
                if Valuation is not PointValue:
                    return True
                return lower
            if upper < target:
                if Valuation is not PointValue:
                    return False
                return upper
            if stored_best != NO_MOVE:
                if Valuation is not PointValue:
                    first = low_index(bit_deposit((<u64>1) << stored_best, out))
                else:
                    first = low_index(bit_deposit((<u64>1) << (stored_best & 63), out)) \
                        | (stored_best & DECLARE)
        # Misère, after the table (cheaper where the probe answers): the declarer caught for
        # every remaining trick, or clean; then the rules of rankbyrank.pxd.
        if Valuation is MisereCount:
            if misere_after_table(r, p, out, target, &v):
                return v
        # Step 4. Quick tricks of the side on lead (trick contracts counting tricks; where
        # no trump is left, length winners too, and the leader's and his partner's, reached
        # by a lead); in
        # trump contracts the sure trump tricks of both sides, in no-trump the side on lead
        # short of every trick left (where it needs them all); for card points, the
        # points the side on lead surely takes bound the value.
        if Valuation is PointValue:
            if r.plain_tricks and not r.unit_tricks:     # (each side wants its own points)
                q = quick_points(r, p)
                if r.dside[p.leader] and p.may_declare:
                    q2 = best_declaration(r, p)
                    if q2 > q:
                        q = q2
                if q:
                    if r.dside[p.leader]:
                        if q >= target:
                            tt_store(s.tt, &key, p.tricks_left, q, bound, NO_MOVE)
                            return q
                    elif bound - q < target:
                        tt_store(s.tt, &key, p.tricks_left, 0, bound - q, NO_MOVE)
                        return bound - q
        if Valuation is TrickCount:
            no_trump_out = p.trump < 0 or not (out & r.suit_mask[p.trump])
            q = long_quick_tricks(r, p, out, p.leader, no_trump_out)
            if no_trump_out and (q < target if r.dside[p.leader] else p.tricks_left - q >= target):
                q2 = partner_quick_tricks(r, p, out, q)
                if q2 > q:
                    q = q2
            sure_low = q if r.dside[p.leader] else 0
            sure_high = p.tricks_left if r.dside[p.leader] else p.tricks_left - q
            if not no_trump_out and sure_low < target <= sure_high:
                # the trumps either side surely makes, whoever is on lead
                q2 = trumps_decide(r, p, target)
                if q2 > 0:
                    sure_low = target
                elif q2 < 0:
                    sure_high = target - 1
                elif (target == 1 and not r.dside[p.leader]
                        and defenders_short_with_trumps(r, p, out)):
                    # the defenders on lead need every trick left and cannot take them
                    sure_low = target
            elif (no_trump_out and r.lone_declarer >= 0 and sure_low < target <= sure_high
                    and target == (p.tricks_left if r.dside[p.leader] else 1)):
                # no-trump (or no trump left): the side on lead needs every trick left
                # and cannot take them
                if leader_side_short(r, p, out):
                    if r.dside[p.leader]:
                        sure_high = target - 1
                    else:
                        sure_low = target
                elif not r.dside[p.leader] and defenders_short_with_trumps(r, p, out):
                    sure_low = target           # (the defenders' count with the stoppers)
            if sure_low >= target or sure_high < target:
                tt_store(s.tt, &key, p.tricks_left, sure_low, sure_high, NO_MOVE)
                return sure_low >= target

    # Step 5. Moves: legal cards, one per run of equivalent cards, best first.
    seat = seat_to_move(r, p)
    moves = legal_moves(r, p, seat) & run_bottoms(p.hand[seat], out, r.run_stops)
    if (Valuation is TrickCount or (Valuation is PointValue and r.plain_tricks)) \
            and p.nplayed == 0 and first < 0:
        # Trick contracts: the killer lead where the table has no move, in no-trump (and
        # for card points) ahead of all, in trump contracts counting tricks a bonus to its
        # score (``order_trick_moves``). (Not in misère: there the right lead depends on
        # the target.)
        killer = killer_lead(&s.killers, killer_slot(r, p, seat), 0, moves)
        if Valuation is PointValue or p.trump < 0:
            first = killer
            killer = -1
    if Valuation is TrickCount:
        n = order_trick_moves(r, p, seat, moves, first, out, cards, killer)
    elif Valuation is MisereCount:
        n = order_misere_moves(r, p, seat, moves, first, out, cards, target)
    else:
        n = order_moves_declaring(r, p, seat, moves, first, out, cards, target)
    maxer = r.maxer[seat]
    if Valuation is MisereCount:
        result = not maxer                # (step 7's, here: the declarer's learnt leads set it)

    # Step 6. The last card of a trick leads to table positions: make their keys
    # (without playing the cards) and prefetch their buckets, so the memory loads
    # overlap the search of the first moves; each child gets its key. Then an
    # enhanced transposition cut-off: a child whose stored bound already decides the
    # target the mover's way ends the search (most pay off in an enumeration of
    # splits, where the table is full of related positions).
    if p.nplayed == r.nseats - 1 and p.tricks_left > TT_MIN_TRICKS + 1:
        keyed = True
        tt_child_keys_begin(r, p, out, &child_base)
        beaters = beating_cards(r, p)
        for i in range(n):
            card = cards[i]
            child_winner[i] = seat if (beaters >> card) & 1 else p.win_seat
            if Valuation is not PointValue:
                tt_child_key_relative(r, &child_base, card, child_winner[i], &child_keys[i])
            else:
                tt_child_key_absolute(&child_base, card, child_winner[i], &child_keys[i])
            if n > 1:
                tt_prefetch(s.tt, &child_keys[i])
        if Valuation is PointValue:
            if not r.unit_tricks:
                table_points = trick_points(r, p.played, p.nplayed)
        for i in range(n):
            if Valuation is not PointValue:
                t2 = target - r.dside[child_winner[i]]
                if t2 <= 0 or t2 > p.tricks_left - 1:
                    continue
            else:
                if r.unit_tricks:
                    t2 = target - r.dside[child_winner[i]]
                else:
                    t2 = target - r.dside[child_winner[i]] * (table_points + r.points[cards[i]])
                if t2 <= 0:
                    continue
            if Valuation is not PointValue:
                child_lost[i] = False
            if tt_probe(s.tt, &child_keys[i], &lower, &upper, &stored_best):
                if (maxer and lower >= t2) or (not maxer and upper < t2):
                    s.nodes += 1
                    if Valuation is not PointValue:
                        return maxer
                    return (lower if maxer else upper) + target - t2
                if Valuation is not PointValue:
                    # its bound decides the target the other way: no need to call it (a
                    # sibling's search may change the entry, never make the bound false)
                    child_lost[i] = (maxer and upper < t2) or (not maxer and lower >= t2)
    elif Valuation is MisereCount:
        # Step 7 in a misère enumeration, the declarer on lead: his leads are searched by
        # ``declarer_leads_learnt`` (ordered and learnt by the history over the splits). An
        # ``elif`` of step 6 so that a trick's last card, never a lead, skips the test.
        if (p.nplayed == 0 and s.declarer_leads != NULL and r.dside[seat] and n > 1
                and p.tricks_left >= LEAD_HISTORY_MIN_TRICKS):
            best = search_declarer_leads(s, target, out, cards, n, 1 if cards[0] == first else 0)
            if best >= 0:
                result = maxer
            n = 0                         # (searched: step 7's loop has nothing to do)

    # Step 7. Search the moves; one success (maximiser) or failure (minimiser) cuts.
    # Points: ``found`` is the bound proved so far (fail-soft): the best child's upper
    # bound while the maximiser fails, the worst child's lower bound while the minimiser
    # succeeds; the cutting child's bound when one cuts.
    if Valuation is not MisereCount:
        result = not maxer
    found = -1 if maxer else 1 << 30
    for i in range(n):
        card = cards[i]
        gain = do_move(s, card, &u, value)
        if Valuation is not PointValue:
            bound = p.tricks_left
        else:
            bound = value_bound(r, p)
        if target - gain <= 0 or target - gain > bound:
            # decided by what is left to score alone (step 1, without the call)
            s.nodes += 1
            v = target - gain <= 0
            if Valuation is PointValue:
                child = gain if v else gain + bound
        elif Valuation is not PointValue and keyed and child_lost[i]:
            s.nodes += 1                  # (as the child's table probe would answer)
            v = not maxer
        else:
            if keyed:
                s.child_key = &child_keys[i]
            child_out = out & ~u.trick_cards if u.trick_done else out
            if Valuation is not PointValue:
                v = search(s, target - gain, value, child_out)
            else:
                child = gain + search(s, target - gain, value, child_out)
                v = child >= target
            s.child_key = NULL
        undo_move(s, seat, card, &u, value)
        if Valuation is PointValue:
            if (maxer and child > found) or (not maxer and child < found) or v == maxer:
                found = child
        if v == maxer:
            result = v
            best = card
            if (Valuation is TrickCount or (Valuation is PointValue and r.plain_tricks)) \
                    and p.nplayed == 0:
                killers_record(&s.killers, killer_slot(r, p, seat), card)
            break

    # Step 8. Store the bound (and the move that proved it) at trick boundaries
    # (not while a stopped search unwinds: its answers are void).
    if p.nplayed == 0 and p.tricks_left > TT_MIN_TRICKS and not s.stopped:
        if best < 0:
            best = NO_MOVE
        elif Valuation is not PointValue:
            best = bit_count(out & (((<u64>1) << best) - 1))
        else:
            best = bit_count(out & (((<u64>1) << (best & 63)) - 1)) | (best & DECLARE)
        if Valuation is not PointValue:
            # (one call for both bounds: each inlined store costs the search's inlining budget)
            tt_store(s.tt, &key, p.tricks_left, target if result else 0,
                     p.tricks_left if result else target - 1, best)
        else:
            if result:
                tt_store(s.tt, &key, p.tricks_left, found, value_bound(r, p), best)
            else:
                tt_store(s.tt, &key, p.tricks_left, 0, found, best)
    if Valuation is not PointValue:
        return result
    return found


cdef int declarer_leads_learnt(Searcher* s, int target, u64 out, int* cards, int n,
                               int start) noexcept nogil:
    """Step 7 of a misère search in an enumeration (``Searcher.declarer_leads`` set), the
    declarer on lead: his leads ``cards[:n]`` (the misère order, ``cards[:start]`` the table's
    move) tried in falling ``lead_merit`` from ``start``; returns the lead that holds him
    under ``target``, or -1 if none does. Where one does, the history learns from the leads
    tried: each one's nodes, the one that held. (Out of the search's body: it runs in
    enumerations only, and inlined it costs every search registers.)"""
    cdef DeclarerLeadHistory* h = s.declarer_leads
    cdef Position* p = &s.pos
    cdef int spare = target > 1
    cdef int tricks = p.tricks_left
    cdef int seat = seat_to_move(&s.rules, p)
    cdef long long nodes[MAX_LEAD_MOVES]
    cdef int i, j, card, best = -1
    cdef bint v
    cdef Undo u
    order_by_lead_history(h, spare, tricks, cards, n, start)
    for i in range(n):
        card = cards[i]
        nodes[i] = s.nodes
        do_move(s, card, &u, <MisereCount*>NULL)          # (a lead ends no trick)
        v = search(s, target, <MisereCount*>NULL, out)
        undo_move(s, seat, card, &u, <MisereCount*>NULL)
        nodes[i] = s.nodes - nodes[i]
        if not v:
            best = card
            break
    if best >= 0 and not s.stopped:
        h.held[spare][tricks][best] += 1
        for j in range(i + 1):
            h.tried[spare][tricks][cards[j]] += 1
            h.nodes[spare][tricks][cards[j]] += nodes[j]
    return best


# Called through a pointer, so that gcc keeps it out of the search's body.
ctypedef int (*DeclarerLeadsSearch)(Searcher*, int, u64, int*, int, int) noexcept nogil
cdef DeclarerLeadsSearch search_declarer_leads = declarer_leads_learnt
