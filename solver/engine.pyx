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

from solver.state cimport (u64, load_position, seat_to_move, legal_moves, low_index,
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
