# cython: language_level=3
"""Null-window alpha-beta search and the MTD(f) driver."""

from libc.string cimport memset

from pref_engine.state cimport u64, Rules, Position, MAX_SEATS, pref_signal_count_t
from pref_engine.transtable cimport TransTable, TTKey


cdef enum:
    MAX_TALON = 4
    MAX_TRICKS = 32                # (64 cards, three hands: 21)
    KILLER_SLOTS = 2 * MAX_TRICKS


cdef struct Killers:
    # Killer leads: per slot (a search's choice: tricks left, and side on lead or not),
    # the last two distinct leads that cut off there (-1: none). Siblings of a subtree
    # mostly want the same lead (cash the same winners, set up the same suit), so a lead
    # that cut off is tried early where nothing better is known.
    signed char lead[KILLER_SLOTS][2]


cdef inline void killers_reset(Killers* k) noexcept nogil:
    memset(k.lead, -1, sizeof(k.lead))


cdef inline int killer_lead(const Killers* k, int slot, int which, u64 moves) noexcept nogil:
    """The killer lead ``which`` (0: the latest, 1: the one before) of ``slot`` if its card
    is among ``moves``, else -1 (a lead is a card, or ``card | DECLARE``)."""
    cdef int card = k.lead[slot][which]
    if card >= 0 and (moves >> (card & 63)) & 1:
        return card
    return -1


cdef inline void killers_record(Killers* k, int slot, int card) noexcept nogil:
    """``card`` cut off at a lead in ``slot``: it becomes the latest killer lead there."""
    if k.lead[slot][0] != card:
        k.lead[slot][1] = k.lead[slot][0]
        k.lead[slot][0] = card


cdef struct DeclarerLeadHistory:
    # Misère enumerations (``solve_batch``): the declarer's leads below the root, per target
    # (``spare``: 0 where he must lose every trick left, 1 where he may take some), tricks left
    # and lead card, over the trick starts of the splits so far where a lead of his cut off:
    # the tests that tried it, those it cut off, the nodes under it (the root's own leads:
    # ``root.pxd``'s LeadHistory).
    int tried[2][MAX_TRICKS][64]
    int held[2][MAX_TRICKS][64]
    float nodes[2][MAX_TRICKS][64]


cdef inline double lead_merit_of(double held, double tried, double cost) noexcept nogil:
    """A lead's chance to cut a test off over the nodes it costs (``cost``: its nodes plus a
    prior), from how often it was tried and held (a prior of one cut-off in two tries):
    trying leads in falling merit minimises the expected nodes until one cuts off. Used by
    the root's lead history (``root.pyx``) and the declarer's below it (``search.pyx``)."""
    return (held + 1.0) * (tried + 1.0) / ((tried + 2.0) * cost)


cdef inline void sort_by_merit(int* cards, double* merit, int start, int n) noexcept nogil:
    """Sort ``cards[start:n]`` by falling ``merit`` (``merit[i]`` is ``cards[i]``'s; both
    arrays are reordered), stable: ties keep the given order."""
    cdef int i, j, card
    cdef double m
    for i in range(start + 1, n):
        card = cards[i]
        m = merit[i]
        j = i
        while j > start and m > merit[j - 1]:
            cards[j] = cards[j - 1]
            merit[j] = merit[j - 1]
            j -= 1
        cards[j] = card
        merit[j] = m


cdef struct Searcher:
    Rules rules
    Position pos
    TransTable* tt
    long long nodes
    const TTKey* child_key        # the key of the next position, if the caller made it
    # Trick contracts: killer leads per tricks left and side on lead (``reset_killers``).
    Killers killers
    # Misère enumerations: the declarer's lead history over the splits (NULL: none, the
    # misère order alone: every other search)
    DeclarerLeadHistory* declarer_leads
    # All-pass with an open talon (root.pyx): talon-led tricks still to play
    # before the main search; they are never stored in the table.
    int ntalon
    int talon_next                # index of the current talon card in talon_card
    int talon_card[MAX_TALON]     # internal numbering
    bint talon_must_beat          # only a card above the talon card takes the trick
    # Partition search (partition.pyx): its table when in use, else NULL, and the
    # cards that decided the last answer.
    void* rank_table
    u64 rel
    # Ctrl-C: the engine's count of presses, and its value when this search began.
    # A search that sees it change stops (every node returns at once) and is discarded.
    pref_signal_count_t* interrupts
    int interrupts_seen
    bint stopped


cdef struct Undo:
    int win_seat
    int win_card
    int leader
    int played[MAX_SEATS]
    u64 trick_cards
    bint trick_done
    bint talon_trick              # the move completed a talon-led trick
    bint may_declare              # (a completed trick)
    int trick_points              # (a completed trick, card points)
    int trump                     # (a lead with a declaration)


cdef int make_move(Searcher* s, int move, Undo* u) noexcept nogil
cdef void unmake_move(Searcher* s, int seat, int move, const Undo* u) noexcept nogil
cdef int make_trick_move(Searcher* s, int card, Undo* u) noexcept nogil
cdef void unmake_trick_move(Searcher* s, int seat, int card, const Undo* u) noexcept nogil
cdef inline bint stop_requested(Searcher* s) noexcept nogil:
    """True once Ctrl-C was pressed during this search (the count is read when the
    node count is a multiple of 4,096)."""
    if (s.nodes & 0xFFF) == 0 and s.interrupts != NULL and s.interrupts[0] != s.interrupts_seen:
        s.stopped = True
    return s.stopped


cdef bint reaches(Searcher* s, int target) noexcept nogil
cdef int points_bound(Searcher* s, int target) noexcept nogil
cdef void reset_killers(Searcher* s) noexcept nogil
