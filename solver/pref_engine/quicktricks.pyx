# cython: language_level=3
"""Quick tricks at the start of a trick (the trick-count ones are ``inline`` in
``quicktricks.pxd``, compiled into the search; this module keeps ``quick_points``,
``partner_quick_tricks``, and the no-trump and trump bounds ``leader_side_short`` and
``trumps_decide``).

The leader cashes his top trumps, then the top cards of the other suits. A
plain suit's top cards count only when nobody who could spoil them can ruff:
an opponent must follow every round or hold no trump after the trump cashing;
a partner who must trump when void could overtake and take the lead away, so
the same condition applies to him when the rules force trumping. Every trick
counted is taken by the leader himself, keeping the lead, so the count is a
lower bound on the leading side's tricks (used for trick contracts only).
``quick_tricks_from`` also returns the cards it counted (the top run of each
suit that counted), which partition search records as deciding cards.
"""

from pref_engine.state cimport bit_count, high_index, low_index, MAX_CARDS


cdef inline u64 top_cards(u64 mine, u64 others) noexcept nogil:
    """The cards of ``mine`` above every card of ``others`` (one suit)."""
    if not others:
        return mine
    return mine & ~((((<u64>1) << high_index(others)) << 1) - 1)


cdef int quick_points(const Rules* r, const Position* p) noexcept nogil:
    """Card points the side on lead surely takes, at the start of a trick: the leader cashes
    his top trumps (above every other trump out), then, once nobody else holds a trump (or
    with no trump), his top cards of every other suit. He keeps the lead throughout, so
    nobody else can declare and the trump stays. Every card played to those tricks is his
    side's: his own, and from every other seat at least its lowest-point cards, one a trick.
    A lower bound of the side's card points."""
    cdef int leader = p.leader
    cdef int suit, seat, rounds, n, k, c, j, worst
    cdef int total = 0
    cdef u64 others_all = 0
    cdef u64 cards, counted = 0
    cdef int low[MAX_CARDS]
    for seat in range(r.nseats):
        if seat != leader:
            others_all |= p.hand[seat]
    if p.trump >= 0:
        counted = top_cards(p.hand[leader] & r.suit_mask[p.trump], others_all & r.suit_mask[p.trump])
        rounds = bit_count(counted)
        for seat in range(r.nseats):
            if seat != leader and bit_count(p.hand[seat] & r.suit_mask[p.trump]) > rounds:
                break                    # trumps left out: another suit's top cards could be ruffed
        else:
            for suit in range(r.nsuits):
                if suit != p.trump:
                    counted |= top_cards(p.hand[leader] & r.suit_mask[suit], others_all & r.suit_mask[suit])
    else:
        for suit in range(r.nsuits):
            counted |= top_cards(p.hand[leader] & r.suit_mask[suit], others_all & r.suit_mask[suit])
    rounds = bit_count(counted)
    if not rounds:
        return 0
    cards = counted
    while cards:
        total += r.points[low_index(cards)]
        cards &= cards - 1
    for seat in range(r.nseats):
        if seat == leader:
            continue
        # the ``rounds`` lowest points of his hand, kept in ``low[:n]`` in rising order
        n = 0
        cards = p.hand[seat]
        while cards:
            c = r.points[low_index(cards)]
            cards &= cards - 1
            if n == rounds and c >= low[n - 1]:
                continue
            j = n if n < rounds else n - 1
            while j > 0 and low[j - 1] > c:
                low[j] = low[j - 1]
                j -= 1
            low[j] = c
            if n < rounds:
                n += 1
        for k in range(n):
            total += low[k]
    return total


cdef int partner_quick_tricks(const Rules* r, const Position* p, u64 out,
                              int leader_count) noexcept nogil:
    """No-trump (or no trump left), at a trick boundary: the quick tricks of the side on lead
    through a partner of the leader whose top card of a suit the leader can lead to (0 if
    none): the leader cashes his own ``leader_count`` (in other suits: a suit has one side's
    top run), the partner discarding his cards outside his counted ones first, the entry
    card last; then the leader leads to it, and the partner cashes the cards he kept (his
    ``long_quick_tricks``: a run's lower cards are top cards once its higher ones are gone,
    and his length winners once the others are void), all the tricks left at most. Called
    only where the leader's count does not decide (kept out of line: the search is at the
    C compiler's inlining limit)."""
    cdef int seat, s, count
    cdef u64 suit_out
    for seat in range(r.nseats):
        if seat == p.leader or r.dside[seat] != r.dside[p.leader]:
            continue
        for s in range(r.nsuits):
            suit_out = out & r.suit_mask[s]
            if (p.hand[p.leader] & suit_out) and ((p.hand[seat] >> high_index(suit_out)) & 1):
                count = long_quick_tricks(r, p, out, seat, True) + leader_count
                return count if count < p.tricks_left else p.tricks_left
    return 0


cdef bint leader_side_short(const Rules* r, const Position* p, u64 out) noexcept nogil:
    """No-trump (or no trump left), at a trick boundary of a trick contract with a lone
    declarer: True if the side on lead surely cannot take every trick left (DDS's "later
    tricks" for no-trump).

    Count, over the suits whose top card out the side on lead holds, its longest holding of
    the suit; the count is short when it is below the tricks left. A side that takes every
    trick leads every one, each in a suit it tops (else the other side's top card, which
    must follow, wins), and each such trick takes a card from its longest holding of the
    suit: the count falls by one a trick, and it can only rise when the other side discards
    a top card. The side not on lead never has to, so squeezes cannot break the count:
    * the lone declarer on lead: a defender must discard a top card only if each of his
      cards is his only one of its suit, the suit's top card, and the declarer holds the
      suit; the declarer, who has led, holds a card fewer than the defender: never;
    * the defenders on lead (three hands, four suits): the declarer must only if his whole
      hand is singleton top cards of suits other than the one led, three cards at most;
      every position of three cards a hand or fewer is checked against the reference
      minimax (tests/test_engine.py, slow), so the count holds from there on too.
    Kept out of line (the search is at the C compiler's inlining limit)."""
    cdef u64 mine = 0
    cdef u64 suit_out
    cdef int s, seat, n, longest, total = 0
    cdef int side = r.dside[p.leader]
    if not side and (r.nseats != 3 or r.nsuits > 4):
        return False                      # (the defenders' case is proved there only)
    for seat in range(r.nseats):
        if r.dside[seat] == side:
            mine |= p.hand[seat]
    for s in range(r.nsuits):
        suit_out = out & r.suit_mask[s]
        if not suit_out or not ((mine >> high_index(suit_out)) & 1):
            continue
        longest = 0
        for seat in range(r.nseats):
            if r.dside[seat] == side:
                n = bit_count(p.hand[seat] & suit_out)
                if n > longest:
                    longest = n
        total += longest
    return total < p.tricks_left


cdef int trumps_decide(const Rules* r, const Position* p, int target) noexcept nogil:
    """A trump contract at a trick boundary: 1 if the declarer's side's trumps surely take
    ``target`` tricks, -1 if the defenders' trumps surely take enough to keep it short
    (``trumps_take``), else 0. Kept out of line (the search is at the C compiler's inlining
    limit)."""
    if trumps_take(r, p, 1, target):
        return 1
    if trumps_take(r, p, 0, p.tricks_left - target + 1):
        return -1
    return 0
