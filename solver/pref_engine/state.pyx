# cython: language_level=3
"""Loading a position given in the primitive terms of ``pyanalyzer.reference``.

``load_position`` reads any object with the attributes of
``ReferencePosition`` (duck-typed), checks it, renumbers the cards so that
each suit is a contiguous run of bits (``ext_to_int``/``int_to_ext`` keep the
mapping) and fills the C structs the search works on.
"""

from libc.string cimport memset


cdef int load_position(Rules* r, Position* p, object pos, int* ext_to_int,
                       int* int_to_ext) except -1:
    cdef int i, j, seat, card, nseats, nsuits, base
    cdef u64 seen = 0
    cdef u64 mask
    hands = [int(h) for h in pos.hands]
    suit_masks = [int(m) for m in pos.suit_masks]
    played = [int(c) for c in pos.played]
    sides = [bool(s) for s in pos.declarer_side]
    nseats = len(hands)
    nsuits = len(suit_masks)
    if not 2 <= nseats <= MAX_SEATS:
        raise ValueError(f"the engine plays 2 to {MAX_SEATS} seats, not {nseats}")
    if not 1 <= nsuits <= MAX_SUITS:
        raise ValueError(f"the engine plays 1 to {MAX_SUITS} suits, not {nsuits}")
    if len(sides) != nseats:
        raise ValueError("declarer_side needs one flag per seat")
    if any(h < 0 or h >> MAX_CARDS for h in hands + suit_masks):
        raise ValueError("cards are numbered 0 to 63")

    memset(r, 0, sizeof(Rules))
    memset(p, 0, sizeof(Position))
    for i in range(MAX_CARDS):
        ext_to_int[i] = -1
        int_to_ext[i] = -1
    r.nseats = nseats
    r.nsuits = nsuits
    base = 0
    for i in range(nsuits):
        mask = <u64>suit_masks[i]
        if mask & seen:
            raise ValueError(f"suit {i} shares cards with another suit")
        seen |= mask
        r.suit_base[i] = base
        r.suit_len[i] = bit_count(mask)
        r.bottoms |= (<u64>1) << base
        j = 0
        while mask:
            card = low_index(mask)
            mask &= mask - 1
            ext_to_int[card] = base + j
            int_to_ext[base + j] = card
            r.suit_of[base + j] = i
            j += 1
        if r.suit_len[i]:
            r.suit_mask[i] = (((<u64>1) << r.suit_len[i]) - 1) << base if r.suit_len[i] < 64 \
                else ~(<u64>0)
        else:
            r.bottoms &= ~((<u64>1) << base)
        base += r.suit_len[i]

    trump = pos.trump
    if trump is None:
        r.trump = NO_TRUMP
    else:
        r.trump = int(trump)
        if not 0 <= r.trump < nsuits:
            raise ValueError(f"trump {trump} is not a suit index")
    r.must_trump = bool(pos.must_trump)
    maximize = bool(pos.maximize)
    r.plain_tricks = maximize
    for seat in range(nseats):
        r.dside[seat] = 1 if sides[seat] else 0
        r.maxer[seat] = 1 if sides[seat] == maximize else 0

    cdef u64 all_cards = 0
    for seat in range(nseats):
        mask = <u64>hands[seat]
        if mask & all_cards:
            raise ValueError("a card is in two hands")
        all_cards |= mask
        while mask:
            card = low_index(mask)
            mask &= mask - 1
            if ext_to_int[card] < 0:
                raise ValueError(f"card {card} is in no suit")
            p.hand[seat] |= (<u64>1) << ext_to_int[card]
    leader = int(pos.leader)
    if not 0 <= leader < nseats:
        raise ValueError(f"leader {leader} is not a seat")
    if len(played) >= nseats:
        raise ValueError("a complete trick cannot be on the table")
    p.leader = leader
    for card in played:
        if not 0 <= card < MAX_CARDS or ext_to_int[card] < 0:
            raise ValueError(f"played card {card} is in no suit")
        if all_cards & ((<u64>1) << card):
            raise ValueError(f"played card {card} is still in a hand")
        all_cards |= (<u64>1) << card
        play_card(r, p, seat_to_move(r, p), ext_to_int[card])
    # Hands must be consistent with a whole number of tricks.
    for seat in range(nseats):
        j = bit_count(p.hand[seat])
        i = (seat - leader) % nseats
        if i < p.nplayed:
            j += 1
        if seat == 0:
            p.tricks_left = j
        elif j != p.tricks_left:
            raise ValueError("hands do not hold the same number of cards")
    return 0
