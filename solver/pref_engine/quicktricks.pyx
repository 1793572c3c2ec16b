# cython: language_level=3
"""Quick tricks at the start of a trick (the trick-count ones are ``inline`` in
``quicktricks.pxd``, compiled into the search; this module keeps ``quick_points``, the
card points of Thousand, and ``defenders_short_with_trumps``, the trump contracts'
defenders on lead short of every trick).

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


cdef bint defenders_short_with_trumps(const Rules* r, const Position* p, u64 out) noexcept nogil:
    """A trump contract with a lone declarer of three seats (four suits at most, the void
    must trump), the defenders on lead at a trick boundary: True if they surely cannot take
    every trick left (the declarer takes one).

    Count the defenders' trumps, plus over the plain suits: where a defender holds the top
    card out, their longest holding; where the declarer does and some defender void in it
    holds a trump (he could ruff it), their longest holding less one; where the declarer
    does and no defender can ruff it (each holding a trump holds a card of it), nothing.
    The declarer plays his top card of the suit led when he holds it, and discards a card
    that is not his suit's top card where he can. Every trick the defenders take then
    lowers the count by one: a trump played by a defender lowers their trumps; a trick
    won without a trump was led in a suit they top (the declarer's top card would win it)
    and takes a card from their longest holding of it; the declarer's top card leaves his
    hand only where a defender ruffs it (the suit led, their longest holding one shorter)
    and a suit no defender can ruff stays so (a defender holding a trump follows suit or
    ruffs: he loses his last card of it only where it is led, and there the top card
    wins). The count can rise only where the declarer must discard a top card: his whole
    hand singleton top cards of plain suits, three cards at most; every position of three
    cards a hand or fewer is checked against the reference minimax (tests/test_engine.py,
    three cards slow), so the count holds from there on too."""
    cdef int declarer = r.lone_declarer
    cdef u64 mine, first, second, first_trumps, second_trumps, suit_out
    cdef int s, n1, n2, total
    if r.nseats != 3 or r.nsuits > 4 or not r.must_trump or declarer < 0:
        return False
    mine = p.hand[declarer]
    first = p.hand[(declarer + 1) % 3]
    second = p.hand[(declarer + 2) % 3]
    first_trumps = first & r.suit_mask[p.trump]
    second_trumps = second & r.suit_mask[p.trump]
    total = bit_count(first_trumps | second_trumps)
    for s in range(r.nsuits):
        if total >= p.tricks_left:
            return False
        suit_out = out & r.suit_mask[s]
        if s == p.trump or not suit_out:
            continue
        n1 = bit_count(first & suit_out)
        n2 = bit_count(second & suit_out)
        if not ((mine >> high_index(suit_out)) & 1):
            total += n1 if n1 > n2 else n2
        elif n1 == 0:
            if first_trumps and n2:
                total += n2 - 1
        elif n2 == 0 and second_trumps:
            total += n1 - 1
    return total < p.tricks_left
