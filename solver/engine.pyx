# cython: language_level=3
"""``Engine``: the solver object the Python layer uses.

>>> from pyanalyzer.reference import ReferencePosition
>>> from solver import Engine
>>> pos = ReferencePosition(hands=(0b0001, 0b0010, 0b0100), suit_masks=(0b1111,),
...     trump=None, must_trump=True, leader=0, played=(), declarer_side=(True, False, False),
...     maximize=True)
>>> Engine(tt_size_mb=1).solve(pos)
0

The engine keeps one transposition table. It is emptied whenever the rules
change (suits, trump, obligation to trump, sides, objective), and kept warm
otherwise, so solving many layouts of one deal family reuses work. An Engine
is not thread-safe, but the search releases the GIL: use one Engine per thread.
"""

from libc.stdlib cimport malloc, free

from solver.state cimport (u64, Position, bit_count, load_position, seat_to_move, legal_moves, low_index,
                           MAX_SEATS)
from solver.transtable cimport tt_init, tt_free, tt_clear, TTEntry
from solver.search cimport Undo, make_move, unmake_move, reaches, solve_value


cdef class Engine:
    """Exact double-dummy solver with a fixed-size transposition table.

    ``tt_size_mb`` fixes the table's memory (entries and their presence
    filter, rounded down to whole buckets); ``tt_bytes`` reports what was
    allocated.
    """

    def __cinit__(self, double tt_size_mb=16.0):
        if tt_size_mb <= 0:
            raise ValueError("tt_size_mb must be positive")
        self.tt.entries = NULL
        tt_init(&self.tt, tt_size_mb)
        self.s.tt = &self.tt
        self.s.child_key = NULL
        self.tt_size_mb = tt_size_mb
        self.rules_tag = None
        self.last_nodes = self.last_probes = self.last_hits = 0
        self.last_value = self.last_tricks = -1

    def __dealloc__(self):
        tt_free(&self.tt)

    @property
    def tt_bytes(self) -> int:
        """Memory held by the transposition table, in bytes."""
        return int(self.tt.nentries * sizeof(TTEntry) + (self.tt.filter_mask + 1) // 8)

    @property
    def tt_entries(self) -> int:
        return int(self.tt.nentries)

    @property
    def stats(self) -> dict:
        """Search counts of the last call: nodes, table probes and hits."""
        return {"nodes": self.last_nodes, "tt_probes": self.last_probes,
                "tt_hits": self.last_hits}

    def reset_stats(self) -> None:
        self.last_nodes = self.last_probes = self.last_hits = 0

    def clear(self) -> None:
        """Empty the transposition table (its generation is bumped, the small filter wiped)."""
        tt_clear(&self.tt)
        self.last_tricks = -1

    # -- internals -----------------------------------------------------------

    cdef int _load(self, object pos) except -1:
        if getattr(pos, "talon_leads", ()):
            # All-pass tricks led from the talon are not modelled by the engine.
            raise ValueError("the engine does not play talon-led tricks (talon_leads)")
        load_position(&self.s.rules, &self.s.pos, pos, self.ext_to_int, self.int_to_ext)
        tag = (tuple(int(m) for m in pos.suit_masks), pos.trump, bool(pos.must_trump),
               tuple(bool(x) for x in pos.declarer_side), bool(pos.maximize))
        if tag != self.rules_tag:
            tt_clear(&self.tt)
            self.rules_tag = tag
            self.last_tricks = -1
        return 0

    cdef void _begin(self) noexcept nogil:
        self.s.nodes = 0
        self.tt.probes = 0
        self.tt.hits = 0

    cdef void _end(self) noexcept nogil:
        self.last_nodes = self.s.nodes
        self.last_probes = self.tt.probes
        self.last_hits = self.tt.hits

    def _guess(self) -> int:
        # MTD(f)'s first target: the last value for a related layout (same rules
        # and length, as in an enumeration of splits); else misère is usually
        # (nearly) clean and a contract is guessed mid-way.
        if self.last_tricks == self.s.pos.tricks_left:
            return self.last_value
        return 0 if not self.s.rules.plain_tricks else (self.s.pos.tricks_left + 1) // 2

    # -- API -----------------------------------------------------------------

    def solve(self, pos) -> int:
        """Declarer side's tricks (current trick included) with best play by all."""
        self._load(pos)
        cdef int guess = self._guess()
        cdef int value
        with nogil:
            self._begin()
            value = solve_value(&self.s, guess)
            self._end()
        self.last_value = value
        self.last_tricks = self.s.pos.tricks_left
        return value

    def solve_batch(self, pos, seats, known, splits) -> list:
        """Values of many layouts that differ only in the hands at ``seats``.

        ``pos`` is the first layout, complete. For each entry of ``splits`` (one
        mask per seat in ``seats``) the hand of ``seats[j]`` becomes
        ``known[j] | split[j]`` and the layout is solved. The whole batch runs
        without the GIL, so threads with their own engines run in parallel.
        """
        cdef Py_ssize_t n = len(splits), k = len(seats), i, j
        cdef int seat_numbers[MAX_SEATS]
        cdef u64 known_masks[MAX_SEATS]
        cdef int sizes[MAX_SEATS]
        cdef u64 mask
        cdef u64* masks
        cdef int* out
        cdef Position start
        cdef int guess, value
        if not 1 <= k <= MAX_SEATS:
            raise ValueError("seats must name 1 to 4 seats")
        self._load(pos)
        start = self.s.pos
        if start.nplayed:
            raise ValueError("solve_batch starts at a trick boundary")
        for j in range(k):
            seat_numbers[j] = int(seats[j])
            known_masks[j] = <u64>int(known[j])
            sizes[j] = bit_count(start.hand[seat_numbers[j]])
        masks = <u64*>malloc(max(1, n * k) * sizeof(u64))
        out = <int*>malloc(max(1, n) * sizeof(int))
        if masks == NULL or out == NULL:
            free(masks)
            free(out)
            raise MemoryError()
        try:
            for i in range(n):
                split = splits[i]
                for j in range(k):
                    mask = known_masks[j] | <u64>int(split[j])
                    if bit_count(mask) != sizes[j]:
                        raise ValueError("every split must give each seat as many cards as the first layout")
                    masks[i * k + j] = mask
            guess = self._guess()
            with nogil:
                self._begin()
                for i in range(n):
                    self.s.pos = start
                    for j in range(k):
                        self.s.pos.hand[seat_numbers[j]] = _to_internal(masks[i * k + j], self.ext_to_int)
                    value = solve_value(&self.s, guess)
                    out[i] = value
                    guess = value
                self._end()
            self.s.pos = start
            if n:
                self.last_value = out[n - 1]
                self.last_tricks = start.tricks_left
            return [out[i] for i in range(n)]
        finally:
            free(masks)
            free(out)

    def card_values(self, pos) -> dict:
        """Every legal card of the player to move -> the value after it is played."""
        self._load(pos)
        cdef int guess = self._guess()
        cdef int seat = seat_to_move(&self.s.rules, &self.s.pos)
        cdef u64 moves = legal_moves(&self.s.rules, &self.s.pos, seat)
        cdef int card, gain, value
        cdef Undo u
        values = {}
        self._begin()
        while moves:
            card = low_index(moves)
            moves &= moves - 1
            with nogil:
                gain = make_move(&self.s, card, &u)
                value = gain + solve_value(&self.s, guess - gain)
                unmake_move(&self.s, seat, card, &u)
            guess = value
            values[self.int_to_ext[card]] = value
        self._end()
        return values

    def best_line(self, pos) -> list:
        """One optimal play to the end of the deal, as a list of cards in order."""
        self._load(pos)
        cdef int guess = self._guess()
        cdef int target, seat, card, gain
        cdef bint ok
        cdef u64 moves
        cdef Undo u
        line = []
        self._begin()
        with nogil:
            target = solve_value(&self.s, guess)
        while self.s.pos.tricks_left > 0:
            seat = seat_to_move(&self.s.rules, &self.s.pos)
            moves = legal_moves(&self.s.rules, &self.s.pos, seat)
            ok = False
            while moves:
                card = low_index(moves)
                moves &= moves - 1
                with nogil:
                    gain = make_move(&self.s, card, &u)
                    if self.s.rules.maxer[seat]:
                        ok = reaches(&self.s, target - gain)
                    else:
                        ok = not reaches(&self.s, target - gain + 1)
                    if not ok:
                        unmake_move(&self.s, seat, card, &u)
                if ok:
                    target -= gain
                    break
            if not ok:
                raise AssertionError("no card keeps the value")  # pragma: no cover
            line.append(self.int_to_ext[card])
        self._end()
        return line


cdef inline u64 _to_internal(u64 mask, const int* ext_to_int) noexcept nogil:
    """An external card mask renumbered into the engine's suit-contiguous bits."""
    cdef u64 out = 0
    while mask:
        out |= (<u64>1) << ext_to_int[low_index(mask)]
        mask &= mask - 1
    return out
