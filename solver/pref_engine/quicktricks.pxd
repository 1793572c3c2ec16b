# cython: language_level=3
"""Sure tricks at the start of a trick: quick tricks of the side on lead (trick
contracts; in no-trump also length winners, and through the leader's partner, reached by
a lead to his top card), the trumps either side surely
makes whoever leads (trump contracts), the side on lead short of every trick left
(no-trump; in trump contracts the defenders on lead), and the misère declarer caught for
every trick or clean of all.

The trick-count ones are ``inline`` here, compiled into the search (a call into another
extension module goes through a function pointer the C compiler cannot inline; the
trick-contract search has its own inlining budget, apart from misère's); ``quick_points``
(Thousand) and ``defenders_short_with_trumps`` (asked only where the trumps do not decide:
inline, it cost every trick-contract node) stay in ``quicktricks.pyx``. Also the trick's
last card where the declarer's side needs one trick more (``last_card_reaches``).
"""

from pref_engine.state cimport (Rules, Position, u64, low_index, high_index, bit_count, MAX_SEATS,
                                legal_moves, run_bottoms, beating_cards)

cdef int quick_points(const Rules* r, const Position* p) noexcept nogil
cdef bint defenders_short_with_trumps(const Rules* r, const Position* p, u64 out) noexcept nogil


cdef inline u64 top_run_cards(u64 hand, u64 suit_out) noexcept nogil:
    """The highest cards still out in a suit that are in ``hand``, from the top down:
    the cards of ``hand`` above the highest card out that ``hand`` lacks."""
    cdef u64 missing = suit_out & ~hand
    if not missing:
        return suit_out
    return suit_out & ~((((<u64>1) << high_index(missing)) << 1) - 1)


cdef inline u64 quick_tricks_from(const Rules* r, const Position* p, u64 out, int lead, int* count,
                                 int* suits) noexcept nogil:
    """Quick tricks of ``lead`` on lead, and the cards they count (for partition search).

    The leader cashes his top trumps, then the top cards of the other suits,
    which count when nobody who could spoil them can ruff. Returns the cards
    counted (the top run of each suit that counted); ``suits``: those suits, as bits.
    """
    cdef u64 hand = p.hand[lead]
    cdef int trumps_after[MAX_SEATS]
    cdef int total = 0
    cdef int n, s, seat, length
    cdef u64 suit_out, run, rel = 0
    cdef bint ok, ruffs = False       # someone may still ruff after the trumps are cashed
    suits[0] = 0
    if p.trump >= 0:
        suit_out = out & r.suit_mask[p.trump]
        run = top_run_cards(hand, suit_out)
        n = bit_count(run)
        total = n
        rel |= run
        if n:
            suits[0] |= 1 << p.trump
        for seat in range(r.nseats):
            length = bit_count(p.hand[seat] & suit_out)
            trumps_after[seat] = length - n if length > n else 0
            if trumps_after[seat] and seat != lead:
                ruffs = True
    for s in range(r.nsuits):
        if s == p.trump:
            continue
        suit_out = out & r.suit_mask[s]
        if not hand & suit_out:
            continue
        run = top_run_cards(hand, suit_out)
        n = bit_count(run)
        if n == 0:
            continue
        ok = True
        if ruffs:
            for seat in range(r.nseats):
                if seat == lead or trumps_after[seat] == 0:
                    continue
                if r.dside[seat] == r.dside[lead] and not r.must_trump:
                    continue
                if bit_count(p.hand[seat] & suit_out) < n:
                    ok = False
                    break
        if ok:
            total += n
            rel |= run
            suits[0] |= 1 << s
    if total > p.tricks_left:
        total = p.tricks_left
    count[0] = total
    return rel


cdef inline int long_quick_tricks(const Rules* r, const Position* p, u64 out, int lead,
                                  bint length) noexcept nogil:
    """At a trick boundary: the quick tricks of ``lead`` on lead (his top runs,
    ``quick_tricks_from``); with ``length`` (no-trump, or no trump left) plus length
    winners: a suit whose top run is at
    least as long as every other hand's holding of it takes all his cards of the suit (the
    others are void after the run; holdings only shrink while he cashes, so the suits'
    counts add). All the tricks left at most. (One function for both counts: the search
    inlines one copy of ``quick_tricks_from``.)"""
    cdef int count, suits, seat, s, n, mine, extra = 0
    cdef u64 rel = quick_tricks_from(r, p, out, lead, &count, &suits)
    cdef u64 suit_out
    cdef bint longer
    if not length or count >= p.tricks_left:
        return count
    for s in range(r.nsuits):
        if not (suits >> s) & 1:
            continue
        suit_out = out & r.suit_mask[s]
        n = bit_count(rel & suit_out)
        mine = bit_count(p.hand[lead] & suit_out)
        if mine <= n:
            continue
        longer = False
        for seat in range(r.nseats):
            if seat != lead and bit_count(p.hand[seat] & suit_out) > n:
                longer = True
        if not longer:
            extra += mine - n
    count += extra
    return count if count < p.tricks_left else p.tricks_left


cdef inline int partner_quick_tricks(const Rules* r, const Position* p, u64 out,
                                     int leader_count) noexcept nogil:
    """No-trump (or no trump left), at a trick boundary: the quick tricks of the side on lead
    through a partner of the leader whose top card of a suit the leader can lead to (0 if
    none): the leader cashes his own ``leader_count`` (in other suits: a suit has one side's
    top run), the partner discarding his cards outside his counted ones first, the entry
    card last; then the leader leads to it, and the partner cashes the cards he kept (his
    ``long_quick_tricks``: a run's lower cards are top cards once its higher ones are gone,
    and his length winners once the others are void), all the tricks left at most. Called
    only where the leader's count does not decide."""
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


cdef inline int trumps_decide(const Rules* r, const Position* p, int target) noexcept nogil:
    """A trump contract at a trick boundary: 1 if the declarer's side's trumps surely take
    ``target`` tricks, -1 if the defenders' trumps surely take enough to keep it short
    (``trumps_take``), else 0."""
    if trumps_take(r, p, 1, target):
        return 1
    if trumps_take(r, p, 0, p.tricks_left - target + 1):
        return -1
    return 0


cdef inline int last_card_reaches(const Rules* r, const Position* p, int seat,
                                  u64 out) noexcept nogil:
    """Trick contracts, the trick's last card to play, the declarer's side needing one
    trick more: the trick alone reaches it if the seat is on the declarer's side and it
    holds the trick or has a card that takes it (the search tries such a card first), or
    the seat is a defender and no card of his takes it for the defenders (every move
    gives the declarer's side the trick). Returns the children the search would count
    there (1, or every move it would try: ``run_bottoms``), or 0 where the trick does not
    decide. A seat's side takes the trick when it holds it already or a legal card of the
    seat beats the winning card (a higher card of its suit, or a trump over a plain card)."""
    cdef u64 legal = legal_moves(r, p, seat)
    cdef bint takes = (r.dside[p.win_seat] == r.dside[seat]
                       or (legal & beating_cards(r, p)) != 0)
    if r.dside[seat]:
        return 1 if takes else 0
    if takes:
        return 0
    return bit_count(legal & run_bottoms(p.hand[seat], out, r.run_stops))


cdef inline bint trumps_take(const Rules* r, const Position* p, int side,
                             int tricks) noexcept nogil:
    """At a trick boundary of a trump contract: True if the trumps of ``side`` (1: the
    declarer's side) surely take ``tricks`` tricks (at least one), whoever leads and however
    the others play.

    A trump wins the trick it is played to unless a higher trump of the other side is
    played to the same trick (a partner's higher trump takes it for the side all the same).
    One seat plays one card a trick, so each trump of the other side beats at most one of
    that seat's, and every card is played before the end: of a seat's ``i`` highest trumps,
    at least ``i`` less the other side's trumps above the ``i``-th win."""
    cdef u64 trumps = r.suit_mask[p.trump]
    cdef u64 mine, theirs = 0
    cdef int seat, c, i
    cdef bint long_enough = False
    for seat in range(r.nseats):
        if r.dside[seat] != side:
            theirs |= p.hand[seat]
        elif bit_count(p.hand[seat] & trumps) >= tricks:
            long_enough = True
    if not long_enough:
        return False
    theirs &= trumps
    for seat in range(r.nseats):
        if r.dside[seat] != side:
            continue
        mine = p.hand[seat] & trumps
        i = 0
        while mine:
            c = high_index(mine)
            mine &= ~((<u64>1) << c)
            i += 1
            # (bit c is this seat's: only the other side's higher trumps count)
            if i >= tricks and bit_count(theirs >> c) <= i - tricks:
                return True
    return False


cdef inline bint leader_side_short(const Rules* r, const Position* p, u64 out) noexcept nogil:
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
      minimax (tests/test_engine.py, slow), so the count holds from there on too."""
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


cdef inline int misere_sure(const Rules* r, const Position* p, u64 out) noexcept nogil:
    """Misère without trumps, at a trick boundary (``out``: the cards in the hands): 1 if
    the declarer's side must take every remaining trick, -1 if it is sure to take none,
    else 0.

    *Caught* (1): in every suit, the lowest card of the declarer's side beats
    every opponent's card (or the opponents are void). Whatever it leads wins,
    and it keeps the lead. If an opponent is on lead, he must hold a suit the
    declarer's side holds: he leads it, the declarer's side wins and leads.

    *Clean* (-1): in every suit both sides hold, the highest card of the
    declarer's side is below every opponent's card. An opponent's lead is
    always ducked, and the declarer's side leading such a suit is always
    overtaken, so it never gets the lead back; suits only it holds are never
    led. If it is on lead, the leader needs one such suit to lead.

    Both stay true as cards leave (lowest cards only rise, highest only fall).
    """
    cdef u64 mine = 0
    cdef u64 theirs = 0
    cdef u64 m, t, lead = p.hand[p.leader]
    cdef int i
    cdef bint caught = True
    cdef bint clean = True
    cdef bint shared = False
    if p.trump >= 0:
        return 0
    if r.lone_declarer >= 0:
        mine = p.hand[r.lone_declarer]
        theirs = out & ~mine
    else:
        for i in range(r.nseats):
            if r.dside[i]:
                mine |= p.hand[i]
            else:
                theirs |= p.hand[i]
    for i in range(r.nsuits):
        m = mine & r.suit_mask[i]
        t = theirs & r.suit_mask[i]
        if m and t:
            if low_index(m) < high_index(t):
                caught = False
            if high_index(m) > low_index(t):
                clean = False
            if not caught and not clean:
                return 0
            if lead & r.suit_mask[i]:
                shared = True
    if caught and (shared or r.dside[p.leader]):
        return 1
    if clean and (shared or not r.dside[p.leader]):
        return -1
    return 0
