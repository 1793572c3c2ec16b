# cython: language_level=3
"""Quick tricks at the start of a trick (the trick-count ones are ``inline`` in
``quicktricks.pxd``, compiled into the search; this module keeps ``quick_points``, the
card points of Thousand, and ``defenders_short_with_trumps``, the trump contracts'
defenders on lead short of every trick, with the declarer's stoppers also in no-trump).

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
    """A trump contract (or, for the stopper form below, no trump out) with a lone declarer
    of three seats (four suits at most, the void must trump), the defenders on lead at a
    trick boundary: True if they surely cannot take every trick left (the declarer takes one).

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
    three cards slow), so the count holds from there on too.

    Stoppers, where the declarer has cards to spare: a stopper is a plain suit where the
    defenders' top card, the only one above the declarer's highest, lies with the defender
    playing before him (no finesse), he holds two cards or more of it and a defender
    two or more. It counts one trick (the top card) instead of their longest
    holding, plus, where a defender holding a trump holds fewer than two of its cards (he
    could ruff it later), that holding less two (its ``residue``). The declarer plays low
    under the top card and his highest card otherwise, so a stopper's suit led gives the
    defenders at most the top card's trick, after which the suit counts as his (the
    residue at most, or less one trump where they ruff his highest card): the count drops.
    A forced discard could raise it (a squeeze): his critical cards are two of each
    stopper and the top card of each suit he tops where the defenders hold a card; the
    rest are spare (``spare``). Apart from the stoppers (K), the count (E) drops by one with
    each trick the defenders take, and by one more whenever a card of the declarer becomes
    critical, while each trick takes at most one spare card: so with E <= spare he always
    has a spare card to play, the stoppers hold, and the count is the plain one above
    after the top card's trick. So the declarer takes a trick where E + K < tricks left
    and E <= spare. With no trump out (or in no-trump, ``p.trump`` < 0) the count is
    ``leader_side_short``'s, and the search asks this one where that does not decide."""
    cdef int declarer = r.lone_declarer
    cdef u64 mine, first, second, first_trumps, second_trumps, suit_out, mine_suit
    cdef int s, n1, n2, longest, total, elsewhere
    cdef int stopper_saving = 0     # over the stoppers: their longest holding less one less residue
    cdef int stoppers_count = 0
    cdef int critical_tops = 0      # suits the declarer tops where the defenders hold a card
    if r.nseats != 3 or r.nsuits > 4 or not r.must_trump or declarer < 0:
        return False
    mine = p.hand[declarer]
    first = p.hand[(declarer + 1) % 3]
    second = p.hand[(declarer + 2) % 3]
    first_trumps = first & r.suit_mask[p.trump] if p.trump >= 0 else 0
    second_trumps = second & r.suit_mask[p.trump] if p.trump >= 0 else 0
    total = bit_count(first_trumps | second_trumps)
    for s in range(r.nsuits):
        if total - stopper_saving >= p.tricks_left:
            return False                # (each suit adds to the count less the saving)
        suit_out = out & r.suit_mask[s]
        if s == p.trump or not suit_out:
            continue
        n1 = bit_count(first & suit_out)
        n2 = bit_count(second & suit_out)
        if not ((mine >> high_index(suit_out)) & 1):
            longest = n1 if n1 > n2 else n2
            total += longest
            mine_suit = mine & suit_out
            if (longest >= 2 and bit_count(mine_suit) >= 2
                    and bit_count(suit_out >> high_index(mine_suit)) == 2
                    and ((second >> high_index(suit_out)) & 1
                         or bit_count(suit_out >> high_index(mine_suit & ~((<u64>1) << high_index(mine_suit)))) == 3)):
                stoppers_count += 1
                if (first_trumps and n1 < 2) or (second_trumps and n2 < 2):
                    stopper_saving += 1          # (the residue: longest less two)
                else:
                    stopper_saving += longest - 1
        else:
            if n1 or n2:
                critical_tops += 1
            if n1 == 0:
                if first_trumps and n2:
                    total += n2 - 1
            elif n2 == 0 and second_trumps:
                total += n1 - 1
    if total < p.tricks_left:
        return True
    total -= stopper_saving
    if total >= p.tricks_left:
        return False
    elsewhere = total - stoppers_count
    return elsewhere <= p.tricks_left - 2 * stoppers_count - critical_tops
