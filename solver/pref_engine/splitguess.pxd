# cython: language_level=3
"""MTD(f)'s first guess in an enumeration of splits (``Engine.solve_batch``, trick counts).

Any first guess gives the same value; a guess at the value (or one above it) needs the two
tests a value takes (it is reached, the next trick is not), each trick further off one more
test. The last split's value is a good guess where consecutive splits differ in a few cards of
little weight, but in lexicographic order a run of the fastest-changing cards (the last suit's)
comes back again and again under new slow cards, and where those cards carry the value it
jumps by several tricks from one split to the next.

So several predictors run side by side, each a guess from the splits seen so far:

* the last split's value;
* for each suit, the last value of a split that gave the first unknown seat the same cards of
  that suit and the same number of cards in every suit;
* the last value of a split with the same suit lengths there.

Each keeps a score, its hits (guess equal to the value) with older ones fading (a shift of
``SCORE_FADE`` bits a split); the guess is the best-scoring predictor's, ties to the earlier
one (the last value first). A guess is only a starting point: a wrong one costs tests, never
a wrong value.
"""

from pref_engine.state cimport u64, Rules, MAX_SUITS, bit_count
from pref_engine.transtable cimport mix

cdef enum:
    GUESS_SLOTS_BITS = 12
    GUESS_SLOTS = 1 << GUESS_SLOTS_BITS   # remembered keys a predictor (a hash table)
    GUESS_PREDICTORS = MAX_SUITS + 2      # the last value, one a suit, the suit lengths
    SCORE_FADE = 4
    SCORE_HIT = 16


cdef struct SplitGuesser:
    u64 keys[GUESS_PREDICTORS][GUESS_SLOTS]     # 0: an empty slot
    signed char values[GUESS_PREDICTORS][GUESS_SLOTS]
    int score[GUESS_PREDICTORS]
    int guess[GUESS_PREDICTORS]                 # this split's guesses
    u64 split_keys[GUESS_PREDICTORS]            # this split's keys
    int last                                    # the last split's value (-1: none yet)


cdef inline void guesser_reset(SplitGuesser* g) noexcept nogil:
    cdef int i, j
    for i in range(GUESS_PREDICTORS):
        g.score[i] = 0
        for j in range(GUESS_SLOTS):
            g.keys[i][j] = 0
    g.last = -1


cdef inline int guesser_guess(SplitGuesser* g, const Rules* r, u64 hand, int fallback) noexcept nogil:
    """The first guess for the split whose first unknown seat holds ``hand`` (internal cards);
    ``fallback``: the guess without history."""
    cdef u64 lengths = 0, key
    cdef int s, i, slot, best
    cdef int prev = g.last if g.last >= 0 else fallback
    for s in range(r.nsuits):
        lengths |= (<u64>bit_count(hand & r.suit_mask[s])) << (5 * s)
    g.guess[0] = prev
    g.split_keys[0] = 0
    for i in range(1, GUESS_PREDICTORS):
        s = i - 1
        if s < r.nsuits:
            key = mix((hand & r.suit_mask[s]) + mix(lengths + 1))
        elif s == MAX_SUITS:
            key = mix(lengths + 1)
        else:
            key = 0                                     # (no such suit)
        if key == 0:
            g.split_keys[i] = 0
            g.guess[i] = prev
            continue
        g.split_keys[i] = key
        slot = <int>(key >> (64 - GUESS_SLOTS_BITS))
        g.guess[i] = g.values[i][slot] if g.keys[i][slot] == key else prev
    best = 0
    for i in range(1, GUESS_PREDICTORS):
        if g.score[i] > g.score[best]:
            best = i
    return g.guess[best]


cdef inline void guesser_learn(SplitGuesser* g, int value) noexcept nogil:
    """After the split of the last ``guesser_guess``: its value."""
    cdef int i, slot
    cdef u64 key
    for i in range(GUESS_PREDICTORS):
        g.score[i] += (SCORE_HIT if g.guess[i] == value else 0) - (g.score[i] >> SCORE_FADE)
        key = g.split_keys[i]
        if key:
            slot = <int>(key >> (64 - GUESS_SLOTS_BITS))
            g.keys[i][slot] = key
            g.values[i][slot] = <signed char>value
    g.last = value
