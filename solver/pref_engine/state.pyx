# cython: language_level=3
"""Loading a position given in the primitive terms of ``pyanalyzer.model.position``.

``load_position`` reads any object with the attributes of
``Position`` (duck-typed), checks it, renumbers the cards so that
each suit is a contiguous run of bits (``ext_to_int``/``int_to_ext`` keep the
mapping) and fills the C structs the search works on.

Optional attributes (absent in older callers): ``heuristics`` (``"solo"``,
``"partnership"`` or ``"plain"``; missing: ``"partnership"`` for four seats,
else ``"solo"``), ``card_points`` (points per card number; empty: every trick
is worth 1), ``marriages`` (``(cards_mask, points)`` declarations) and
``leader_may_declare``.
"""

HEURISTICS = {"solo": HEURISTICS_SOLO, "partnership": HEURISTICS_PARTNERSHIP,
              "plain": HEURISTICS_PLAIN, "thousand": HEURISTICS_THOUSAND}

# Card points and marriages make the table key absolute (the cards out themselves, in the
# key's upper half): at most this many cards.
MAX_VALUED_CARDS = 32

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
        p.trump = NO_TRUMP
    else:
        p.trump = int(trump)
        if not 0 <= p.trump < nsuits:
            raise ValueError(f"trump {trump} is not a suit index")
    heuristics = getattr(pos, "heuristics", None)
    if heuristics is None:  # declared by the rule set, never guessed from the number of seats
        raise ValueError(f"the position must declare its heuristics: {', '.join(HEURISTICS)}")
    if heuristics not in HEURISTICS:
        raise ValueError(f"heuristics {heuristics!r} is not one of {', '.join(HEURISTICS)}")
    if heuristics == "partnership" and nseats != 4:
        raise ValueError("partnership heuristics need four seats")
    r.heuristics = HEURISTICS[heuristics]
    if heuristics == "thousand" and not getattr(pos, "card_points", ()):
        raise ValueError("thousand heuristics need card points")
    load_value(r, p, pos, base, ext_to_int)
    r.must_trump = bool(pos.must_trump)
    maximize = bool(pos.maximize)
    r.plain_tricks = maximize
    for seat in range(nseats):
        r.dside[seat] = 1 if sides[seat] else 0
        r.maxer[seat] = 1 if sides[seat] == maximize else 0
    declarers = [seat for seat in range(nseats) if sides[seat]]
    r.lone_declarer = declarers[0] if len(declarers) == 1 else -1

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
    for card in range(MAX_CARDS):
        if (all_cards >> card) & 1:
            p.points_left += r.points[ext_to_int[card]]
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


cdef int load_value(Rules* r, Position* p, object pos, int ncards, const int* ext_to_int) except -1:
    """The value's rules: card points, marriages, who may declare now; the run stops."""
    cdef int i, card
    cdef u64 used = 0
    cdef u64 mask
    points = [int(x) for x in getattr(pos, "card_points", ())]
    marriages = [tuple(int(x) for x in m) for m in getattr(pos, "marriages", ())]
    if len(points) > MAX_CARDS:
        raise ValueError(f"card_points has {len(points)} entries, cards are numbered 0 to 63")
    if any(x < 0 for x in points):
        raise ValueError("card points are at least 0")
    if len(marriages) > MAX_MARRIAGES:
        raise ValueError(f"at most {MAX_MARRIAGES} declarations (marriages)")
    if (points or marriages) and ncards > MAX_VALUED_CARDS:
        raise ValueError(f"card points and marriages need at most {MAX_VALUED_CARDS} cards")
    if (points or marriages) and getattr(pos, "talon_leads", ()):
        raise ValueError("talon leads are played for tricks only (no card points, no marriages)")
    r.unit_tricks = not points
    r.plain_value = not points and not marriages
    r.run_stops = r.bottoms
    for card, value in enumerate(points):
        if value and ext_to_int[card] < 0:
            raise ValueError(f"card {card} has points but is in no suit")
        if ext_to_int[card] >= 0:
            r.points[ext_to_int[card]] = value
    if points:
        for card in range(1, ncards):
            if r.points[card] != r.points[card - 1]:
                r.run_stops |= (<u64>1) << card
    r.nmarriages = len(marriages)
    for i, marriage in enumerate(marriages):
        if len(marriage) != 2:
            raise ValueError("a declaration is (cards_mask, points)")
        cards, value = marriage
        if cards <= 0 or cards >> MAX_CARDS:
            raise ValueError(f"declaration {marriage}: its cards must be cards of the deck")
        if not cards & (cards - 1):
            # (a lead of the last trick, one card in hand, never declares: the search
            # plays the last trick out without declarations)
            raise ValueError(f"declaration {marriage}: at least two cards")
        if value < 0:
            raise ValueError("declaration points are at least 0")
        mask = 0
        for card in range(MAX_CARDS):
            if cards >> card & 1:
                if ext_to_int[card] < 0:
                    raise ValueError(f"declaration {marriage}: card {card} is in no suit")
                mask |= (<u64>1) << ext_to_int[card]
        if mask & used:
            raise ValueError("a card is in two declarations")
        used |= mask
        r.marriage_cards[i] = mask
        r.marriage_points[i] = value
    r.run_stops |= used
    p.may_declare = bool(getattr(pos, "leader_may_declare", False))
    return 0
