# cython: language_level=3
"""Move ordering: the table's best move first, then heuristics per seat.

A good first move makes a null-window search cut at once, so ordering is most
of the speed. The heuristics depend on what the seat wants from the trick:

* a seat that wants its side to win the trick (trick contracts): as leader,
  cash the top card of a suit, else (Preferans) lead to the partner's top card, else
  lead low (Preferans: less a penalty per card the other side may reply with, as
  DDS weighs its leads: a defender leads the suit the declarer holds fewest cards of
  first, whatever its class; the declarer weighs the defenders' replies against the
  classes); as follower, win as cheaply as possible unless the partner already
  holds the trick when the seat is last
  (Preferans: or holds it against every opponent still to play, or the partner is last
  and beats the card winning it; and a card that wins now but a later opponent can beat
  comes after the ones nobody can beat);
  otherwise play low (four hands: second hand beats the lead as cheaply as
  possible, low only when the partner holds the trick or nothing beats the lead;
  third hand plays the lowest card that beats the trick and the fourth hand's
  cards, else low);
* a seat that wants its side to lose the trick (misère, both sides): duck with
  the highest card that still loses; win, when forced, with the highest (the
  declarer, when a defender is still to play: with the lowest); a defender
  last to play may overtake his partner as freely as not.

Misère leads (the order that searched fewest nodes on the benchmark layouts,
benchmarks/RESULTS.md): the declarer first cashes a suit in which his lowest
card is above all the defenders' (it wins whenever the suit is led, unless he
can discard it first: cashing now keeps the lead and costs nothing); when the
target leaves him room for a trick (``room``: he may take this one and still
stay under it), a sure winner, highest first (he sheds a card that could be
caught later); then he leads a card that some defender must overtake (one whose
cards in the suit are all higher), the highest such card first (ranks counted
among the cards still out), then the card with the fewest defender cards below
it, and last a suit the defenders are void in (he wins it). A defender
first leads a card above all the declarer's cards of the suit (lowest first),
then one between his cards (fewest declarer cards above first), then one under
all of them, and last a suit the declarer is void in.
"""

from pref_engine.state cimport (u64, Rules, Position, MAX_SEATS, beats, beating_cards, bit_count,
                           low_index, high_index, declarable, marriage_of, DECLARE,
                           HEURISTICS_SOLO, HEURISTICS_PARTNERSHIP, HEURISTICS_THOUSAND)

cdef enum:
    MAX_MOVES = 32                # cards a hand
    # and the leads with a declaration: a card is in one at most, and declarations come only
    # with at most 32 cards (``state.pyx``), so a hand of 16 at most: 32 moves in all
    MAX_LEAD_MOVES = MAX_MOVES
    # Whist leads (``partnership_lead_score``): less, per card the opponents may reply with,
    REPLY_PENALTY = 8
    # Preferans leads (``trick_lead_score``), less per card the other side may reply with: a
    # defender, more than the classes' whole range (the declarer's fewest replies first, the
    # class breaking ties); the declarer, a fraction of a class (benchmarks/RESULTS.md)
    SOLO_DEFENDER_REPLY = 200
    SOLO_DECLARER_REPLY = 30
    # and less, a lead into an opponent's ruff, or into the fourth hand's top cards; more, a
    # singleton to the partner's top card for a ruff on the way back (DDS's weights)
    RUFF_PENALTY = 12
    FOURTH_HAND_TOPS = 12
    RUFF_RETURN = 19
    # the killer leads of partition search (the last two that cut off with as many tricks
    # left), added to their scores: a killer that was right elsewhere is likely, not sure,
    # to be right here, so a far better class still goes first (DDS weighs its last cut-off
    # so, benchmarks/RESULTS.md). In no-trump the latest killer goes ahead of every class
    # (as DDS's +126 there) and the one before earns nothing.
    KILLER_BONUS = 40
    KILLER2_BONUS = 20
    KILLER_BONUS_NT = 126
    KILLER2_BONUS_NT = 0
    # low leads: the side holding the second and third best (``next_round_bonus``)
    NEXT_ROUND_PARTNER = 30
    NEXT_ROUND_SPLIT = 20
    # low leads: the top of a run headed by the second-best card (``second_best_run``)
    SECOND_BEST_RUN = 12
    # and less, in no-trump, a suit the partner is void in (he discards at will: DDS's -9)
    PARTNER_VOID_NT = 20
    # the classes' best scores (``partnership_lead_class``), a few replies apart
    CASH_CLASS = 100
    TO_TOP_CLASS = 90
    PARTNER_RUFF_CLASS = 90
    FINESSE_CLASS = 75
    LOW_CLASS = 50
    # low leads: more per card the leader holds in the suit (a little: DDS weighs no length,
    # and the classes lie a few replies apart; benchmarks/RESULTS.md)
    LOW_LENGTH = 2
    # Whist discards (``discard_score``): more per card the hand holds in the suit, a few
    # ranks' worth (DDS: about 2.5), so a much lower card of a shorter suit goes first
    DISCARD_LENGTH = 3
    # misère lead classes (scores of the class's best card)
    CAUGHT_BASE = 300             # declarer: his whole suit is above the defenders'
    WINNER_BASE = 250             # declarer with room for a trick: a sure winner
    SAFE_BASE = 100               # declarer: a defender must overtake
    ABOVE_BASE = 200              # defender: above all the declarer's cards
    FORCE_BASE = -50              # defender: under all the declarer's cards


cdef inline int trick_lead_score(const Rules* r, const Position* p, int seat, int card,
                                 u64 out, u64 mine, u64 theirs) noexcept nogil:
    """A lead's score in trick contracts (``Rules.plain_tricks``); ``mine``/``theirs``: the
    cards of the leader's side and of the other side."""
    cdef int s = r.suit_of[card]
    cdef u64 suit_out = out & r.suit_mask[s]
    cdef u64 above = suit_out & ~((((<u64>1) << card) << 1) - 1)
    if r.heuristics != HEURISTICS_SOLO:
        if r.heuristics != HEURISTICS_PARTNERSHIP:
            return plain_lead_score(r, seat, card, suit_out, above, mine)
        return partnership_lead_score(r, p, seat, card, suit_out, above)
    return solo_lead_class(r, p, seat, card, s, suit_out, above, mine, theirs) \
        - (SOLO_DECLARER_REPLY if r.dside[seat] else SOLO_DEFENDER_REPLY) \
        * other_side_replies(r, p, seat, suit_out)


cdef inline int misere_lead_score(const Rules* r, const Position* p, int seat, int card,
                                  u64 out, u64 mine, u64 theirs, int room) noexcept nogil:
    """A lead's score in misère (not ``Rules.plain_tricks``); ``mine``/``theirs`` as in
    ``trick_lead_score``; ``room``: tricks the declarer may still take and stay under the
    target."""
    cdef int s = r.suit_of[card]
    cdef u64 suit_out = out & r.suit_mask[s]
    cdef u64 above = suit_out & ~((((<u64>1) << card) << 1) - 1)
    if r.heuristics != HEURISTICS_SOLO and r.heuristics != HEURISTICS_PARTNERSHIP:
        return plain_lead_score(r, seat, card, suit_out, above, mine)
    if r.dside[seat]:
        return misere_declarer_lead(r, p, seat, card, suit_out, theirs, above, room)
    return misere_defender_lead(r, p, seat, card, suit_out, theirs, above)


cdef inline int solo_lead_class(const Rules* r, const Position* p, int seat, int card, int s,
                                u64 suit_out, u64 above, u64 mine, u64 theirs) noexcept nogil:
    """Preferans leads in trick contracts, by class: a sure winner (200 and up), the
    partner's top card (175 and down), a low card (50 and up: the more of the other side's
    cards above it, the lower the card, the better); the classes span less than 200."""
    if not (above & ~mine):
        return 200 + bit_count(mine & suit_out)          # a sure winner: cash it
    if p.trump >= 0 and s != p.trump and not (theirs & suit_out):
        return 150 - card                                # a ruff for the partner
    if (mine & ~p.hand[seat]) >> high_index(suit_out) & 1:
        return 175 - (card - r.suit_base[s])             # to the partner's top card
    return 50 + bit_count(theirs & suit_out & above) - (card - r.suit_base[s])


cdef inline int other_side_replies(const Rules* r, const Position* p, int seat,
                                   u64 suit_out) noexcept nogil:
    """The cards the other side of ``seat`` may reply with to a lead of ``suit_out``
    (``replies``, summed over its seats)."""
    cdef int i
    cdef int total = 0
    for i in range(r.nseats):
        if r.dside[i] != r.dside[seat]:
            total += replies(p, i, suit_out)
    return total


cdef inline int points_lead_score(const Rules* r, const Position* p, int seat, int card,
                                  u64 above, u64 theirs) noexcept nogil:
    """Thousand leads (``HEURISTICS_THOUSAND``): a sure winner of the side first (no opponent
    holds a higher card of the suit or can ruff it), the most points first; then the other
    cards, fewest points first."""
    cdef int s = r.suit_of[card]
    cdef int rank = card - r.suit_base[s]
    if not (above & theirs) and not opponents_ruff(r, p, seat, s):
        return 200 + r.points[card]
    return -8 * r.points[card] - rank


cdef inline bint opponents_ruff(const Rules* r, const Position* p, int seat, int s) noexcept nogil:
    """An opponent of ``seat`` void in suit ``s`` holds a trump."""
    cdef int i
    if p.trump < 0 or s == p.trump:
        return False
    for i in range(r.nseats):
        if r.dside[i] != r.dside[seat] and not (p.hand[i] & r.suit_mask[s]) \
                and (p.hand[i] & r.suit_mask[p.trump]):
            return True
    return False


cdef inline bint later_beats(const Rules* r, const Position* p, int seat, int best) noexcept nogil:
    """An opponent of ``seat`` still to play to this trick can beat ``best`` (a card of the
    suit led or a trump)."""
    cdef int led = r.suit_of[p.played[0]]
    cdef int bs = r.suit_of[best]
    cdef u64 higher = ~((((<u64>1) << best) << 1) - 1)
    cdef u64 h, follow, trumps
    cdef int k
    cdef int other = seat
    for k in range(p.nplayed + 1, r.nseats):
        other += 1
        if other == r.nseats:
            other = 0
        if r.dside[other] == r.dside[seat]:
            continue
        h = p.hand[other]
        follow = h & r.suit_mask[led]
        if follow:
            if bs == led and (follow & higher):
                return True
        elif p.trump >= 0:
            trumps = h & r.suit_mask[p.trump]
            if trumps and (bs != p.trump or (trumps & higher)):
                return True
    return False


cdef inline int points_follow_score(const Rules* r, const Position* p, int seat,
                                    int card) noexcept nogil:
    """Thousand, following (``HEURISTICS_THOUSAND``): on a trick the side surely takes, the
    most points; else the cheapest card that surely wins it; else the fewest points."""
    cdef int rank = card - r.suit_base[r.suit_of[card]]
    cdef int points = r.points[card]
    if r.dside[p.win_seat] == r.dside[seat] and not later_beats(r, p, seat, p.win_card):
        return 2000 + 16 * points + rank
    if beats(r, p, card, p.win_card) and not later_beats(r, p, seat, card):
        return 1000 - 16 * points - rank
    return -16 * points - rank


cdef inline int plain_lead_score(const Rules* r, int seat, int card, u64 suit_out, u64 above,
                                 u64 mine) noexcept nogil:
    """Leads without game-specific tuning: a seat that wants its side to take tricks cashes
    a sure winner first; otherwise, and for everyone else, low cards first."""
    cdef int rank = card - r.suit_base[r.suit_of[card]]
    if r.dside[seat] == r.maxer[seat] and not (above & ~mine):
        return 200 + bit_count(mine & suit_out)
    return -rank


cdef inline int partnership_lead_score(const Rules* r, const Position* p, int seat, int card,
                                      u64 suit_out, u64 above) noexcept nogil:
    """Whist leads: by class (``partnership_lead_class``), less a penalty for the replies
    the opponents have (DDS weighs its leads so: the search is smallest where the
    opponents have few cards to choose from). An opponent void in the suit counts as
    tricks left + 1 cards, as in DDS: he may discard any card, and the more he holds the
    more that costs. A lead into an opponent's ruff keeps its class, less a small
    penalty (DDS's weights: the void already costs it the most replies; ranked last, such
    leads were the later cut-offs of a third of the leads); trumps the opponents do not
    hold go last: two of the side's trumps spent on one trick, and both opponents void,
    free to discard (their replies counted as above, without a class: below every other
    lead). In no-trump a suit the partner is void in costs a little more (his discards).
    The classes lie a reply or a few apart, so the penalties
    can put a low lead before a cash into a void (benchmarks/RESULTS.md). (The partition
    search counts the same score in two parts, ``order_partnership_moves``: a change here
    goes there too.)"""
    cdef int s = r.suit_of[card]
    cdef int rank = card - r.suit_base[s]
    cdef int partner = (seat + 2) % 4
    cdef int lho = (seat + 1) % 4
    cdef int rho = (seat + 3) % 4
    cdef u64 trumps = r.suit_mask[p.trump] if p.trump >= 0 else 0
    cdef u64 opp = p.hand[lho] | p.hand[rho]
    cdef bint lho_ruffs = s != p.trump and not (p.hand[lho] & suit_out) and (p.hand[lho] & trumps)
    cdef bint rho_ruffs = s != p.trump and not (p.hand[rho] & suit_out) and (p.hand[rho] & trumps)
    if s == p.trump and not (opp & trumps):
        # trumps the opponents have none of: two voids (they discard at will)
        return -rank - REPLY_PENALTY * 2 * (p.tricks_left + 1)
    return partnership_lead_class(r, p, seat, card, suit_out, above, rank, partner, lho, trumps) \
        - REPLY_PENALTY * (replies(p, lho, suit_out) + replies(p, rho, suit_out)) \
        - (RUFF_PENALTY if lho_ruffs or rho_ruffs else 0) \
        - (FOURTH_HAND_TOPS if fourth_hand_tops(p, rho, suit_out) else 0) \
        + (RUFF_RETURN if s != p.trump and ruff_return(p, seat, partner, suit_out, trumps) else 0) \
        - (PARTNER_VOID_NT if p.trump < 0 and not (p.hand[partner] & suit_out) else 0)


cdef inline int next_round_bonus(const Position* p, int seat, int partner, u64 suit_out,
                                 u64 top) noexcept nogil:
    """A low lead of a suit whose top card an opponent holds, the side holding its second
    and third best: once the top card is out, the side holds the suit's best (DDS's weights:
    more if the partner holds both; with the cards split, the partner must not be alone)."""
    cdef u64 rest = suit_out & ~top
    cdef u64 second, third
    if not rest:
        return 0
    second = (<u64>1) << high_index(rest)
    rest &= ~second
    if not rest:
        return 0
    third = (<u64>1) << high_index(rest)
    if p.hand[partner] & second and p.hand[partner] & third:
        return NEXT_ROUND_PARTNER
    if (((p.hand[seat] & second and p.hand[partner] & third)
            or (p.hand[partner] & second and p.hand[seat] & third))
            and bit_count(p.hand[partner] & suit_out) > 1):
        return NEXT_ROUND_SPLIT
    return 0


cdef inline bint fourth_hand_tops(const Position* p, int rho, u64 suit_out) noexcept nogil:
    """The fourth hand (the leader's right-hand opponent) holds the best or the second-best
    card of the suit, and not alone: he plays over the partner's card (DDS: -12)."""
    cdef u64 rest
    cdef u64 his = p.hand[rho] & suit_out
    if not his or not (his & (his - 1)):
        return False
    if (his >> high_index(suit_out)) & 1:
        return True
    rest = suit_out & ~((<u64>1) << high_index(suit_out))
    return rest != 0 and (his >> high_index(rest)) & 1


cdef inline bint ruff_return(const Position* p, int seat, int partner, u64 suit_out,
                             u64 trumps) noexcept nogil:
    """A singleton led to the partner's top card of the suit, the leader holding a trump:
    the partner wins and returns the suit for a ruff (DDS: +19)."""
    return (bit_count(p.hand[seat] & suit_out) == 1 and (p.hand[seat] & trumps) != 0
            and bit_count(p.hand[partner] & suit_out) > 1
            and (p.hand[partner] >> high_index(suit_out)) & 1)


cdef inline int replies(const Position* p, int seat, u64 suit_out) noexcept nogil:
    """The cards ``seat`` may play to a lead of the suit ``suit_out``: his cards of it, or
    (void) tricks left + 1, more than any holding, the more the longer his hand."""
    cdef int n = bit_count(p.hand[seat] & suit_out)
    return n if n else p.tricks_left + 1


cdef inline int partnership_lead_class(const Rules* r, const Position* p, int seat, int card,
                                       u64 suit_out, u64 above, int rank, int partner, int lho,
                                       u64 trumps) noexcept nogil:
    """Cash a sure winner, lead to a partner's card above both opponents' or to his ruff, or
    through the second hand's top card to the partner's second-best; else lead low."""
    cdef int s = r.suit_of[card]
    cdef u64 top
    if not (above & ~p.hand[seat]):
        return CASH_CLASS + bit_count(p.hand[seat] & suit_out)  # a sure winner: cash it
    top = (<u64>1) << high_index(suit_out)
    # the partner's best card beats both opponents' (the leader may hold higher ones: DDS's
    # "our side can win the trick"); the masks are disjoint, so the one holding the higher
    # top bit compares greater
    if (p.hand[partner] & suit_out) > (suit_out & ~p.hand[seat] & ~p.hand[partner]):
        return TO_TOP_CLASS - rank                           # to the partner's winning card
    if s != p.trump and not (p.hand[partner] & suit_out) and (p.hand[partner] & trumps):
        return PARTNER_RUFF_CLASS - rank                     # the partner ruffs
    if p.hand[lho] & top and p.hand[partner] & ((<u64>1) << high_index(suit_out & ~top)):
        return FINESSE_CLASS - rank                          # through the top card to a finesse
    if second_best_run(p, seat, card, suit_out, top):
        return LOW_CLASS + LOW_LENGTH * bit_count(p.hand[seat] & suit_out) + SECOND_BEST_RUN
    return (LOW_CLASS + LOW_LENGTH * bit_count(p.hand[seat] & suit_out) - rank
            + next_round_bonus(p, seat, partner, suit_out, top))


cdef inline bint second_best_run(const Position* p, int seat, int card, u64 suit_out,
                                 u64 top) noexcept nogil:
    """``card`` is in a run of two or more of the leader's cards (touching among the cards
    out) headed by the suit's second-best card, an opponent holding the best (the king from
    KQ against the ace: DDS's weights lead it before the low cards)."""
    cdef u64 rest = suit_out & ~top
    cdef u64 second, run
    if not rest:
        return False
    second = (<u64>1) << high_index(rest)
    if not (p.hand[seat] & second):
        return False
    # the cards out from ``card`` up to the second best: all the leader's, two at least
    run = rest & ~(((<u64>1) << card) - 1)
    if run & ~p.hand[seat]:
        return False
    if run != second:
        return True
    rest &= ~second
    return rest != 0 and (p.hand[seat] >> high_index(rest)) & 1


cdef inline int misere_declarer_lead(const Rules* r, const Position* p, int seat, int card,
                                     u64 suit_out, u64 theirs, u64 above, int room) noexcept nogil:
    """Misère, the declarer on lead: a card some opponent must overtake loses for sure."""
    cdef int i
    cdef u64 h
    cdef int rank = card - r.suit_base[r.suit_of[card]]
    if not (theirs & suit_out):
        return -200 + card                               # everyone discards: he wins
    for i in range(r.nseats):
        if r.dside[i] == r.dside[seat]:
            continue
        h = p.hand[i] & suit_out
        if h and not (h & ~above):
            # one must overtake: the highest such card first (among the cards out)
            return SAFE_BASE + bit_count(suit_out & ~above) * 8 + bit_count(theirs & above)
    if (theirs & suit_out) < ((<u64>1) << low_index(p.hand[seat] & suit_out)):
        return CAUGHT_BASE + rank           # every card of his in the suit wins anyway: cash it
    if room > 0 and not (theirs & above):
        return WINNER_BASE + rank           # he can afford the trick: shed a sure winner
    return -bit_count(theirs & ~above) * 8 - rank           # fewest cards to duck under


cdef inline int misere_defender_lead(const Rules* r, const Position* p, int seat, int card,
                                     u64 suit_out, u64 theirs, u64 above) noexcept nogil:
    """Misère, a defender on lead (see the module's notes for the order of classes)."""
    cdef int rank = bit_count(suit_out & ~above)         # among the cards out
    cdef u64 d = theirs & suit_out
    cdef u64 low, partner
    cdef int i
    if not d:
        return -100 - card
    if not (d & ~above):
        # every declarer card in the suit is above this one: forced unless a
        # partner must play over the declarer's lowest card
        low = d & (0 - d)
        partner = 0
        for i in range(r.nseats):
            if i != seat and r.dside[i] == r.dside[seat]:
                partner |= p.hand[i] & suit_out
        if not partner or (partner & (low - 1)):
            return FORCE_BASE + bit_count(d) * 4 - rank
    if d & above:
        return 100 - bit_count(d & above) * 4 - rank
    return ABOVE_BASE - rank


cdef inline bint higher_out(const Rules* r, const Position* p, int card) noexcept nogil:
    """Some card still in a hand is above ``card`` in its suit."""
    cdef u64 higher = r.suit_mask[r.suit_of[card]] & ~((((<u64>1) << card) << 1) - 1)
    cdef int i
    for i in range(r.nseats):
        if p.hand[i] & higher:
            return True
    return False


cdef inline bint partner_card_holds(const Rules* r, const Position* p, int seat) noexcept nogil:
    """Third hand, the partner winning: the fourth hand cannot beat the partner's card
    (holds no higher card of its suit, and follows or cannot ruff). Only the fourth hand
    counts: higher cards elsewhere are not played to this trick."""
    cdef int win = p.win_card
    cdef int s = r.suit_of[win]
    cdef u64 fourth = p.hand[(seat + 1) % 4]
    if fourth & r.suit_mask[s] & ~((((<u64>1) << win) << 1) - 1):
        return False
    if s == p.trump or p.trump < 0:
        return True
    return (fourth & r.suit_mask[s]) != 0 or not (fourth & r.suit_mask[p.trump])


cdef inline bint partner_tops_suit(const Rules* r, const Position* p, int seat) noexcept nogil:
    """Second hand, void in the suit led: the third hand follows, and the partner (fourth
    hand) holds a card of the suit above the lead and the third hand's cards, so the trick
    is his unless the second hand ruffs it (DDS discards first there too)."""
    cdef int led = r.suit_of[p.played[0]]
    cdef u64 third = p.hand[(seat + 1) & 3] & r.suit_mask[led]
    cdef u64 fourth = p.hand[(seat + 2) & 3] & r.suit_mask[led]
    if not third or not fourth:
        return False
    return high_index(fourth) > high_index(third) and high_index(fourth) > p.played[0]


cdef inline int discard_score(const Rules* r, const Position* p, int seat, int card) noexcept nogil:
    """A discard (plain tricks, four hands): low cards of long suits first, a card more in
    the suit weighing ``DISCARD_LENGTH`` ranks (fewer nodes on Whist deals; Preferans keeps
    the plain lowest-card order)."""
    cdef int s = r.suit_of[card]
    return (-1000 + DISCARD_LENGTH * bit_count(p.hand[seat] & r.suit_mask[s])
            - (card - r.suit_base[s]))


cdef inline int third_hand_score(const Rules* r, const Position* p, int seat, int card,
                                 bint partner_wins) noexcept nogil:
    """Third hand following suit (four hands): the lowest card that beats both the trick
    and every card the fourth hand holds in the suit; else the lowest card that beats the
    trick and the fourth hand's second-best card, so he must spend his top card to win
    (DDS's "force out the ace"); else low (no overtaking of a partner's card that already
    forces the fourth hand's top card or that he cannot beat)."""
    cdef int s = r.suit_of[card]
    cdef u64 fourth = p.hand[(seat + 1) & 3] & r.suit_mask[s]
    cdef int top4 = high_index(fourth) if fourth else -1
    cdef int second4
    if partner_wins and partner_card_holds(r, p, seat):
        return -card                                      # the partner's card holds
    if beats(r, p, card, p.win_card) and card > top4:
        return 1000 - card                                # wins over the fourth hand too
    second4 = high_index(fourth & ~((<u64>1) << top4)) if fourth & (fourth - 1) else -1
    if partner_wins and second4 < p.win_card:
        return -card                                      # the partner's card forces it
    if beats(r, p, card, p.win_card) and card > second4:
        return 100 - card                                 # forces the fourth hand's top card
    return -card


cdef inline int second_hand_score(const Rules* r, const Position* p, int seat, int card,
                                  bint wins) noexcept nogil:
    """Second hand following suit (four hands): where the partner's best card beats the
    lead and every card the third hand holds in the suit (the fourth hand is the partner),
    the lowest first, even before a sure winner of his own (DDS's weights: the partner
    wins the trick anyway; a void third hand is not checked for a ruff: low first was
    better there too); else the cheapest card that surely wins the trick first, the top
    card out of the suit or one above every card the third hand holds in it (who cannot
    ruff either). A cheaper sure winner goes before the top card out of the suit: the ace
    from AQ over the leader's king would spend the tenace. The cards that cannot win the
    trick by themselves go by DDS's weights: a card below every card of the third hand's
    or of the partner's in the suit (beaten anyway), the lowest first; a card above the
    lead, the cheapest first (more if the hand holds the next rank up too: it may set up a
    winner); a card below the lead, the lowest first. DDS's scales mix the groups: a low
    card beaten anyway goes before a high card that only makes the third hand go higher."""
    cdef int s = r.suit_of[card]
    cdef u64 third = p.hand[(seat + 1) & 3]
    cdef u64 third_suit = third & r.suit_mask[s]
    cdef u64 fourth = p.hand[(seat + 2) & 3] & r.suit_mask[s]
    cdef int top3 = high_index(third_suit) if third_suit else -1
    cdef int top4 = high_index(fourth) if fourth else -1
    cdef u64 suit_out
    cdef int order_from_top, rank
    if top4 > top3 and top4 > p.win_card:
        return -card                                      # the partner wins it anyway
    if wins and not higher_out(r, p, card):
        return 500 - card                                 # a sure winner
    if wins and card > top3 and (third_suit or s == p.trump or p.trump < 0
                                 or not (third & r.suit_mask[p.trump])):
        return 500 - card                                 # the third hand cannot beat it
    # DDS's weights (below -90: after every card above): its rank 2-14, and its place
    # among the suit's cards in the hands counted from the top (1: the best)
    suit_out = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & r.suit_mask[s]
    order_from_top = bit_count(suit_out & ~((((<u64>1) << card) << 1) - 1)) + 1
    rank = card - r.suit_base[s] + 2
    if (third_suit and card < low_index(third_suit)) or (fourth and card < low_index(fourth)):
        return -100 - 9 + order_from_top                  # beaten anyway
    if not wins:
        return -100 - 16 + order_from_top                 # below the lead
    if (p.hand[seat] >> (card + 1)) & 1:
        return -100 + 22 - rank                           # the next rank up is his too
    return -100 + 10 - rank                               # the third hand must go higher


cdef inline int trick_follow_score(const Rules* r, const Position* p, int seat,
                                   int card) noexcept nogil:
    """A follower's card in trick contracts (``Rules.plain_tricks``: the seat wants its
    side to win the trick)."""
    cdef bint wins = beats(r, p, card, p.win_card)
    cdef bint partner_wins = r.dside[p.win_seat] == r.dside[seat]
    cdef bint last = p.nplayed == r.nseats - 1
    cdef int s = r.suit_of[card]
    if r.heuristics == HEURISTICS_PARTNERSHIP and s != r.suit_of[p.played[0]]:
        if s != p.trump:
            return discard_score(r, p, seat, card)
        if partner_wins and (last or partner_card_holds(r, p, seat)):
            return -2000 - card                           # no need to ruff the partner's trick
        if not wins:
            return -1500 - card                           # an underruff: rather discard
        if p.nplayed == 1 and partner_tops_suit(r, p, seat):
            return -2000 - card                           # second hand: the partner wins it
    if partner_wins and last:
        return -card
    if r.heuristics == HEURISTICS_PARTNERSHIP and p.nplayed == 1 and s == r.suit_of[p.played[0]]:
        return second_hand_score(r, p, seat, card, wins)
    if r.heuristics == HEURISTICS_PARTNERSHIP and p.nplayed == 2 and s == r.suit_of[p.played[0]]:
        return third_hand_score(r, p, seat, card, partner_wins)
    if wins:
        return 1000 - card
    return -card


cdef inline int misere_follow_score(const Rules* r, const Position* p, int seat,
                                    int card) noexcept nogil:
    """A follower's card in misère (not ``Rules.plain_tricks``: the seat wants its side to
    lose the trick)."""
    if beats(r, p, card, p.win_card):
        if r.dside[p.win_seat] == r.dside[seat] and p.nplayed == r.nseats - 1:
            return card - r.suit_base[r.suit_of[card]]
        if r.dside[seat] and p.nplayed < r.nseats - 1:
            return -1000 - card                           # misère declarer: lowest
        return -1000 + card
    return card


cdef inline int append_cards(int* cards, int n, u64 group) noexcept nogil:
    """Append the cards of ``group`` to ``cards[:n]``, lowest first; returns the new count."""
    while group:
        cards[n] = low_index(group)
        group &= group - 1
        n += 1
    return n


cdef inline bint last_partner_beats(const Rules* r, const Position* p, int seat) noexcept nogil:
    """The seat after ``seat`` is the last to play to the trick and his partner, and one of
    his cards beats the card winning it (a higher card of the suit led; void in it, a trump
    over a plain card or over a lower trump): the trick is theirs whatever ``seat`` plays."""
    cdef int led = r.suit_of[p.played[0]]
    cdef int ws = r.suit_of[p.win_card]
    cdef int next_seat = seat + 1 if seat + 1 < r.nseats else 0
    cdef u64 h = p.hand[next_seat]
    cdef u64 follow = h & r.suit_mask[led]
    if p.nplayed != r.nseats - 2 or r.dside[next_seat] != r.dside[seat]:
        return False
    if follow:
        return ws == led and high_index(follow) > p.win_card
    if p.trump < 0:
        return False
    h &= r.suit_mask[p.trump]
    if not h:
        return False
    return ws != p.trump or high_index(h) > p.win_card


cdef inline int order_solo_follows(const Rules* r, const Position* p, int seat, u64 moves,
                                   int first, int* cards) noexcept nogil:
    """``order_trick_moves`` for a follower in Preferans' trick contracts (``HEURISTICS_SOLO``,
    plain tricks), by groups of cards, each lowest first: where the partner holds the trick
    (the seat is last, or no opponent still to play can beat the partner's card:
    ``later_beats``), or takes it last (``last_partner_beats``: a defender second to play
    keeps his high cards), all the cards as one group; else the cards that win the trick and no
    later opponent can beat, then the ones that win it for now, then the rest (discards
    too). ``first`` (or -1) goes ahead of all."""
    cdef int n = 0
    cdef int c
    cdef bint last = p.nplayed == r.nseats - 1
    cdef u64 sure = 0
    cdef u64 for_now = 0
    cdef u64 rest
    if first >= 0 and (moves >> first) & 1:
        cards[0] = first
        n = 1
        moves &= ~((<u64>1) << first)
    if r.dside[p.win_seat] != r.dside[seat] and last_partner_beats(r, p, seat):
        return append_cards(cards, n, moves)      # the partner takes it: low first
    if not (r.dside[p.win_seat] == r.dside[seat]
            and (last or not later_beats(r, p, seat, p.win_card))):
        rest = moves
        while rest:
            c = low_index(rest)
            rest &= rest - 1
            if beats(r, p, c, p.win_card):
                if not last and later_beats(r, p, seat, c):
                    for_now |= (<u64>1) << c
                else:
                    sure |= (<u64>1) << c
    n = append_cards(cards, n, sure)
    n = append_cards(cards, n, for_now)
    return append_cards(cards, n, moves & ~(sure | for_now))


cdef inline int append_cards_high_first(int* cards, int n, u64 group) noexcept nogil:
    """Append the cards of ``group`` to ``cards[:n]``, highest first; returns the new count."""
    cdef int c
    while group:
        c = high_index(group)
        cards[n] = c
        group ^= (<u64>1) << c
        n += 1
    return n


cdef inline int order_misere_follows(const Rules* r, const Position* p, int seat, u64 moves,
                                     int first, int* cards) noexcept nogil:
    """``order_misere_moves`` for a follower in misère (not ``Rules.plain_tricks``; with a trump,
    not for the last to play with his partner holding the trick): the order of the follow
    scores, by groups: the cards that lose the trick, highest first, then the ones that
    win it, the declarer with a defender still to play the lowest first, else the highest
    first; the last to play with his partner holding the trick, the two groups merged by
    the scores (a winner's rank in its suit against a loser's card). ``first`` (or -1)
    goes ahead of all."""
    cdef int n = 0
    cdef int ws = r.suit_of[p.win_card]
    cdef int base, lo, hi
    cdef u64 winners, losers
    if first >= 0 and (moves >> first) & 1:
        cards[0] = first
        n = 1
        moves &= ~((<u64>1) << first)
    winners = moves & beating_cards(r, p)
    losers = moves & ~winners
    if p.nplayed == r.nseats - 1 and r.dside[p.win_seat] == r.dside[seat]:
        # last, the partner holding the trick: a winner scores its rank in the suit, a
        # loser its card; both highest first, merged (a tie: the lower card, the loser)
        base = r.suit_base[ws]
        while losers and winners:
            lo = high_index(losers)
            hi = high_index(winners)
            if lo >= hi - base:
                cards[n] = lo
                losers ^= (<u64>1) << lo
            else:
                cards[n] = hi
                winners ^= (<u64>1) << hi
            n += 1
    n = append_cards_high_first(cards, n, losers)
    if r.dside[seat] and p.nplayed < r.nseats - 1:
        return append_cards(cards, n, winners)
    return append_cards_high_first(cards, n, winners)


cdef inline int insert_by_score(int* cards, int* scores, int n, int card, int score) noexcept nogil:
    """Insert ``card`` into the first ``n`` cards, kept in falling score order; returns n + 1."""
    cdef int j = n
    while j > 0 and scores[j - 1] < score:
        scores[j] = scores[j - 1]
        cards[j] = cards[j - 1]
        j -= 1
    scores[j] = score
    cards[j] = card
    return n + 1


cdef inline int order_trick_moves(const Rules* r, const Position* p, int seat, u64 moves,
                                  int first, u64 out, int* cards, int killer=-1,
                                  int killer2=-1) noexcept nogil:
    """Fill ``cards`` with ``moves`` best first, in trick contracts (``Rules.plain_tricks``);
    ``first`` (or -1) goes ahead of all. ``killer``, ``killer2`` (or -1): leads whose
    scores gain ``KILLER_BONUS`` and ``KILLER2_BONUS`` (no-trump: the ``_NT`` ones)."""
    if p.nplayed and r.heuristics == HEURISTICS_SOLO and moves & (moves - 1):
        return order_solo_follows(r, p, seat, moves, first, cards)
    return order_scored_moves(r, p, seat, moves, first, out, cards, killer, killer2)


cdef inline int order_scored_moves(const Rules* r, const Position* p, int seat, u64 moves,
                                   int first, u64 out, int* cards, int killer,
                                   int killer2) noexcept nogil:
    """``order_trick_moves`` by the cards' scores: every lead, and the follows of the
    partnership heuristics (Whist's partition search has its own copy,
    ``order_partnership_moves``)."""
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int c, sc, i
    cdef u64 mine = 0
    cdef u64 theirs = 0
    if not (moves & (moves - 1)):         # one move (or none): nothing to score
        if moves:
            cards[0] = low_index(moves)
            return 1
        return 0
    if p.nplayed == 0:
        for i in range(r.nseats):
            if r.dside[i] == r.dside[seat]:
                mine |= p.hand[i]
            else:
                theirs |= p.hand[i]
    while moves:
        c = low_index(moves)
        moves &= moves - 1
        if c == first:
            sc = 1000000
        elif p.nplayed == 0:
            sc = trick_lead_score(r, p, seat, c, out, mine, theirs)
            if c == killer:
                sc += KILLER_BONUS if p.trump >= 0 else KILLER_BONUS_NT
            elif c == killer2:
                sc += KILLER2_BONUS if p.trump >= 0 else KILLER2_BONUS_NT
        else:
            sc = trick_follow_score(r, p, seat, c)
        n = insert_by_score(cards, scores, n, c, sc)
    return n


cdef inline bint lowest_follow_first(const Rules* r, const Position* p, int seat) noexcept nogil:
    """Following suit (partnership heuristics): every card scores ``-card`` in
    ``trick_follow_score`` (the lowest first) where the partner holds the trick and the
    seat is last, or is third and the partner's card holds (``third_hand_score``), or the
    seat is second and the partner's best card beats the lead and the third hand's cards
    (``second_hand_score``)."""
    cdef int led = r.suit_of[p.played[0]]
    cdef u64 third, fourth
    if r.dside[p.win_seat] == r.dside[seat]:
        if p.nplayed == 3:
            return True
        if p.nplayed == 2:
            return partner_card_holds(r, p, seat)
    if p.nplayed != 1:
        return False
    third = p.hand[(seat + 1) & 3] & r.suit_mask[led]
    fourth = p.hand[(seat + 2) & 3] & r.suit_mask[led]
    return fourth != 0 and high_index(fourth) > p.win_card and (
        not third or high_index(fourth) > high_index(third))


cdef inline int order_partnership_moves(const Rules* r, const Position* p, int seat, u64 moves,
                                        u64 out, int* cards, int killer,
                                        int killer2) noexcept nogil:
    """``order_scored_moves`` for the partnership heuristics (Whist's partition search), the
    same order: a lead's score (``partnership_lead_score``) split into what depends on its
    suit, counted once a suit, and what depends on the card (its class where it cashes or
    by its run, its rank)."""
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int c, sc, s, rank, length, pen, cls, low, partner, lho, rho
    cdef u64 group, suit_out, above, trumps, opp, top, mine
    cdef bint free_trumps
    if not (moves & (moves - 1)):         # one move (or none): nothing to score
        if moves:
            cards[0] = low_index(moves)
            return 1
        return 0
    if p.nplayed:
        if moves & r.suit_mask[r.suit_of[p.played[0]]] and lowest_follow_first(r, p, seat):
            return append_cards(cards, 0, moves)
        if moves & r.suit_mask[r.suit_of[p.played[0]]] and p.nplayed == 3:
            # the last hand following suit, the trick not his side's: the cards that win
            # it, then the others, each lowest first
            group = moves & beating_cards(r, p)
            return append_cards(cards, append_cards(cards, 0, group), moves & ~group)
        while moves:
            c = low_index(moves)
            moves &= moves - 1
            n = insert_by_score(cards, scores, n, c, trick_follow_score(r, p, seat, c))
        return n
    partner = (seat + 2) & 3
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    trumps = r.suit_mask[p.trump] if p.trump >= 0 else 0
    opp = p.hand[lho] | p.hand[rho]
    mine = p.hand[seat]
    while moves:
        # the moves of one suit, lowest first (the cards go in rising order, as there)
        s = r.suit_of[low_index(moves)]
        group = moves & r.suit_mask[s]
        moves &= ~group
        suit_out = out & r.suit_mask[s]
        free_trumps = s == p.trump and not (opp & trumps)
        length = bit_count(mine & suit_out)
        pen = (-REPLY_PENALTY * (replies(p, lho, suit_out) + replies(p, rho, suit_out))
               - (RUFF_PENALTY if s != p.trump and (
                   (not (p.hand[lho] & suit_out) and (p.hand[lho] & trumps))
                   or (not (p.hand[rho] & suit_out) and (p.hand[rho] & trumps))) else 0)
               - (FOURTH_HAND_TOPS if fourth_hand_tops(p, rho, suit_out) else 0)
               + (RUFF_RETURN if s != p.trump and ruff_return(p, seat, partner, suit_out, trumps)
                  else 0)
               - (PARTNER_VOID_NT if p.trump < 0 and not (p.hand[partner] & suit_out) else 0))
        cls = -1                          # the suit's class below a cash (counted once needed)
        low = 0
        while group:
            c = low_index(group)
            group &= group - 1
            rank = c - r.suit_base[s]
            above = suit_out & ~((((<u64>1) << c) << 1) - 1)
            if free_trumps:
                sc = -rank - REPLY_PENALTY * 2 * (p.tricks_left + 1)
            elif not (above & ~mine):
                sc = CASH_CLASS + length + pen
            else:
                if cls < 0:
                    top = (<u64>1) << high_index(suit_out)
                    cls = 0
                    if (p.hand[partner] & suit_out) > (suit_out & ~mine & ~p.hand[partner]):
                        cls = TO_TOP_CLASS
                    elif (s != p.trump and not (p.hand[partner] & suit_out)
                            and (p.hand[partner] & trumps)):
                        cls = PARTNER_RUFF_CLASS
                    elif (p.hand[lho] & top
                            and p.hand[partner] & ((<u64>1) << high_index(suit_out & ~top))):
                        cls = FINESSE_CLASS
                    else:
                        low = (LOW_CLASS + LOW_LENGTH * length
                               + next_round_bonus(p, seat, partner, suit_out, top))
                if cls:
                    sc = cls - rank + pen
                elif second_best_run(p, seat, c, suit_out, (<u64>1) << high_index(suit_out)):
                    sc = LOW_CLASS + LOW_LENGTH * length + SECOND_BEST_RUN + pen
                else:
                    sc = low - rank + pen
            if c == killer:
                sc += KILLER_BONUS if p.trump >= 0 else KILLER_BONUS_NT
            elif c == killer2:
                sc += KILLER2_BONUS if p.trump >= 0 else KILLER2_BONUS_NT
            n = insert_by_score(cards, scores, n, c, sc)
    return n


cdef inline int order_misere_moves(const Rules* r, const Position* p, int seat, u64 moves,
                                   int first, u64 out, int* cards, int target) noexcept nogil:
    """Fill ``cards`` with ``moves`` best first, in misère (not ``Rules.plain_tricks``);
    ``first`` (or -1) goes ahead of all. ``target``: the search's (the declarer's side
    fails it); at the declarer's leads it gives his ``room`` (``misere_lead_score``)."""
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int c, sc, i
    cdef int room = 0
    cdef u64 mine = 0
    cdef u64 theirs = 0
    if not (moves & (moves - 1)):         # one move (or none): nothing to score
        if moves:
            cards[0] = low_index(moves)
            return 1
        return 0
    if p.nplayed == 0:
        for i in range(r.nseats):
            if r.dside[i] == r.dside[seat]:
                mine |= p.hand[i]
            else:
                theirs |= p.hand[i]
        # the declarer may take target - 1 more tricks and still stay under the target; that
        # room changes his leads only where he is not caught for most of the tricks left
        # (there, shedding a winner just feeds the defenders)
        if r.dside[seat] and 2 * target <= p.tricks_left:
            room = target - 1
    elif p.trump < 0 or not (p.nplayed == r.nseats - 1 and r.dside[p.win_seat] == r.dside[seat]):
        return order_misere_follows(r, p, seat, moves, first, cards)
    while moves:
        c = low_index(moves)
        moves &= moves - 1
        if c == first:
            sc = 1000000
        elif p.nplayed == 0:
            sc = misere_lead_score(r, p, seat, c, out, mine, theirs, room)
        else:
            sc = misere_follow_score(r, p, seat, c)
        n = insert_by_score(cards, scores, n, c, sc)
    return n


cdef inline int order_points_moves(const Rules* r, const Position* p, int seat, u64 moves,
                                   int first, u64 out, int* cards) noexcept nogil:
    """``order_trick_moves`` by the Thousand heuristics (``points_lead_score``,
    ``points_follow_score``); kept apart so the trick games' ordering carries no test of it."""
    cdef int scores[MAX_MOVES]
    cdef int n = 0
    cdef int c, sc, i
    cdef u64 theirs = 0
    if p.nplayed == 0:
        for i in range(r.nseats):
            if r.dside[i] != r.dside[seat]:
                theirs |= p.hand[i]
    while moves:
        c = low_index(moves)
        moves &= moves - 1
        if c == first:
            sc = 1000000
        elif p.nplayed == 0:
            sc = points_lead_score(r, p, seat, c,
                                   out & r.suit_mask[r.suit_of[c]] & ~((((<u64>1) << c) << 1) - 1), theirs)
        else:
            sc = points_follow_score(r, p, seat, c)
        n = insert_by_score(cards, scores, n, c, sc)
    return n


cdef inline int add_declarations(const Rules* r, const Position* p, int seat, int* moves, int n,
                                 int first) noexcept nogil:
    """Leads: put before each card of ``moves[:n]`` that may be led with a declaration the
    move declaring it (it scores, or changes the trump); ``first``, if a declaration, goes
    ahead of all (if it is one of them). Returns the number of moves."""
    cdef u64 cards = declarable(r, p, seat)
    cdef int i, j, m
    if not cards:
        return n
    if r.heuristics == HEURISTICS_THOUSAND and r.maxer[seat]:
        return declarations_first(r, moves, n, cards, first)
    i = n - 1
    j = n + bit_count(cards) - 1
    n = j + 1
    while i >= 0:
        m = moves[i]
        moves[j] = m
        j -= 1
        if (cards >> m) & 1:
            moves[j] = m | DECLARE
            j -= 1
        i -= 1
    if first >= DECLARE:
        i = 0
        while i < n and moves[i] != first:
            i += 1
        if i == n:
            return n
        while i > 0:
            moves[i] = moves[i - 1]
            i -= 1
        moves[0] = first
    return n


cdef inline int declarations_first(const Rules* r, int* moves, int n, u64 cards,
                                   int first) noexcept nogil:
    """Thousand, a seat that wants points on lead: every declaring lead ahead of the plain
    moves (``first`` ahead of all), the most points first, each kind in the order given."""
    cdef int declaring[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int plain[MAX_MOVES]
    cdef int nd = 0
    cdef int i, m, k = 0
    for i in range(n):
        plain[i] = moves[i]
        m = moves[i]
        if (cards >> m) & 1:
            nd = insert_by_score(declaring, scores, nd, m | DECLARE,
                                 r.marriage_points[marriage_of(r, m)])
    if first >= DECLARE:
        for i in range(nd):
            if declaring[i] == first:
                moves[k] = first
                k += 1
    elif first >= 0 and plain[0] == first:
        moves[k] = first
        k += 1
    for i in range(nd):
        if declaring[i] != first:
            moves[k] = declaring[i]
            k += 1
    for i in range(n):
        if plain[i] != first:
            moves[k] = plain[i]
            k += 1
    return k


cdef int order_moves_declaring(const Rules* r, const Position* p, int seat, u64 moves, int first,
                               u64 out, int* cards, int target) noexcept nogil
