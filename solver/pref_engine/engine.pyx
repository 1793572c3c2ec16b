# cython: language_level=3
"""``Engine``: the solver object the Python layer uses.

>>> from pyanalyzer.model.position import Position
>>> from pref_engine import Engine
>>> pos = Position(hands=(0b0001, 0b0010, 0b0100), suit_masks=(0b1111,),
...     trump=None, must_trump=True, leader=0, played=(), declarer_side=(True, False, False),
...     maximize=True)
>>> Engine(tt_size_mb=1).solve(pos)
0

The engine keeps one transposition table. It is emptied whenever the rules
change (suits, trump, obligation to trump, sides, objective, heuristics, card
points, marriages), and kept warm otherwise, so solving many layouts of one
deal family reuses work. (With marriages the trump is part of the table key,
so a change of trump keeps the table; so does Whist's winning-rank table, whose
key names the trump while a trump is out.)

Moves are card numbers, or ``card | DECLARE`` for a lead declaring a marriage
(positions with ``marriages``); values count tricks, or card points where the
position gives ``card_points``, plus the declarer side's marriages. An Engine
is not thread-safe, but the search releases the GIL: use one Engine per thread.

Engines in several threads may share one plain table (``share_with``: an enumeration's
threads, whose splits use each other's entries): lock-free, each entry checked whole as it is
read (transtable.pxd, "Threads sharing a table"). A shared table holds trick counts of at most
32 cards (Preferans: its small entries); the engines' other tables stay their own.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdlib cimport calloc, malloc, free

from pref_engine.state cimport (u64, Rules, Position, bit_count, load_position, seat_to_move, low_index,
                           pref_signal_count_t, value_bound, HEURISTICS_PARTNERSHIP,
                           cards_out, legal_moves, run_bottoms,
                           high_index, single_declarer, MAX_SEATS, MAX_CARDS,
                           DECLARE as DECLARE_FLAG)
import time

from pref_engine.transtable cimport (tt_init, tt_free, tt_clear, tt_set_small, tt_set_shared, BUCKET_BYTES,
                                  SMALL_MAX_CARDS, TTKey, tt_store, tt_probe, bucket_of,
                                  GEN_LIMIT)
from pref_engine.maxn cimport Maxn, MaxnEntry, maxn_init, maxn_free, maxn_clear, maxn_choice
from pref_engine.partition cimport (rank_table_init, rank_table_free, rank_table_clear, rank_table_new_trump,
                               partition_fits, RankPair, PBUCKET)
from pref_engine.search cimport Searcher, Undo, MAX_TALON, reset_killers
from pref_engine.root cimport (root_make_move, root_unmake_move, root_reaches, root_value,
                          root_moves, talon_trick_winner, LeadHistory, lead_history_reset)
from pref_engine.moves cimport MAX_LEAD_MOVES, MAX_MOVES, order_scored_moves, order_partnership_moves
from pref_engine.splitguess cimport SplitGuesser, guesser_reset, guesser_guess, guesser_learn

DECLARE = DECLARE_FLAG
"""A move ``card | DECLARE`` leads ``card`` declaring the declaration (marriage) it is in."""


ctypedef void (*signal_handler)(int) noexcept nogil

cdef extern from "<signal.h>" nogil:
    int SIGINT
    int SIGTERM

cdef extern from "signal_hooks.h" nogil:
    void pref_chain_signal(int signum, signal_handler hook, signal_handler* saved)
    int PREF_SIGNALS_CHECKED_EACH_CALL

# Ctrl-C (or SIGTERM) during a search. The search runs without the GIL, so Python's
# own handler, which only notes the signal for the interpreter, cannot stop it: a hook in
# front of it also counts the signals, each search polls the count, and the Python handler
# still runs (the KeyboardInterrupt comes as usual). Installed over a Python handler
# only (never over "ignore" or the default action), with its flags (signal_hooks.h),
# checked again at every call of an Engine (POSIX): a Python handler installed since then
# (SIGTERM by the pref command, SIGINT by a notebook's kernel before every cell, by
# asyncio.run or by the user) replaces the hook, which goes back in front of it.
#
# One hook and one count per process, whichever kernels are loaded: each kernel is a copy of
# this module, and hooks of their own would chain over each other (a Ctrl-C looping between
# them). The first kernel imported makes the state and leaves it on the pref_engine package.
cdef struct SignalState:
    pref_signal_count_t count       # signals and stop_searches() so far
    signal_handler python_sigint    # the handlers the hook passes the signals on to
    signal_handler python_sigterm
    signal_handler hook             # the hook in use: the first kernel's on_signal

cdef SignalState* signals    # (set below, once on_signal exists)


cdef void on_signal(int signum) noexcept nogil:
    # Python's handler first, then the count: a call's snapshot of the count (_enter) comes
    # either before the count (its search sees the change) or after Python noted the signal
    # (its PyErr_CheckSignals raises), whichever thread the signal lands in.
    if signum == SIGINT and signals.python_sigint != NULL:
        signals.python_sigint(signum)
    elif signum == SIGTERM and signals.python_sigterm != NULL:
        signals.python_sigterm(signum)
    signals.count += 1


cdef SignalState* shared_signal_state() except NULL:
    """The process's SignalState: the one an earlier kernel made, else a new one (never
    freed: the hook may run until the process ends)."""
    import pref_engine
    cdef SignalState* state
    capsule = getattr(pref_engine, "_signal_state", None)
    if capsule is not None:
        return <SignalState*>PyCapsule_GetPointer(capsule, b"pref_engine.signal_state")
    state = <SignalState*>calloc(1, sizeof(SignalState))
    if state == NULL:
        raise MemoryError()
    state.hook = on_signal
    pref_engine._signal_state = PyCapsule_New(state, b"pref_engine.signal_state", NULL)
    return state


signals = shared_signal_state()


cdef void install_signal_hooks() noexcept nogil:
    pref_chain_signal(SIGINT, signals.hook, &signals.python_sigint)
    pref_chain_signal(SIGTERM, signals.hook, &signals.python_sigterm)


def stop_searches() -> None:
    """Stop every search under way, as Ctrl-C does (each stopped search raises or returns
    partial results as documented). For callers that take the signal themselves."""
    signals.count += 1


class EngineBusy(RuntimeError):
    """An Engine was asked to search while another search on it is under way."""


cdef class SharedTable:
    """An engine's plain transposition table, which other engines may share: its memory,
    format and generation, the rules its entries hold for, and who uses it (see Engine)."""

    def __cinit__(self, double size_mb):
        self.tt.buckets = NULL
        tt_init(&self.tt, size_mb)
        self.rules_tag = None
        self.users = self.searching = self.waiting = 0

    def __dealloc__(self):
        tt_free(&self.tt)

    # Test hooks (tests/test_shared_table.py): a key given by its words, its hash chosen.
    def _store(self, plane0, plane1, meta, hash_value, int depth, int lower, int upper, int best):
        cdef TTKey key = _test_key(plane0, plane1, meta, hash_value)
        tt_store(&self.tt, &key, depth, lower, upper, best)

    def _probe(self, plane0, plane1, meta, hash_value):
        """(lower, upper, best) stored for the key, or None."""
        cdef TTKey key = _test_key(plane0, plane1, meta, hash_value)
        cdef int lower, upper, best
        if tt_probe(&self.tt, &key, &lower, &upper, &best):
            return lower, upper, best
        return None

    def _bucket_words(self, hash_value) -> list:
        """The 8 words of the bucket of a hash."""
        cdef TTKey key = _test_key(0, 0, 0, hash_value)
        cdef u64* words = <u64*>bucket_of(&self.tt, &key)
        return [int(words[i]) for i in range(BUCKET_BYTES // 8)]

    def _set_bucket_words(self, hash_value, words) -> None:
        cdef TTKey key = _test_key(0, 0, 0, hash_value)
        cdef u64* target = <u64*>bucket_of(&self.tt, &key)
        for i in range(BUCKET_BYTES // 8):
            target[i] = <u64>int(words[i])


cdef TTKey _test_key(plane0, plane1, meta, hash_value):
    cdef TTKey key
    key.plane0 = <u64>int(plane0)
    key.plane1 = <u64>int(plane1)
    key.meta = <u64>int(meta)
    key.hash = <u64>int(hash_value)
    return key


cdef class Engine:
    """Exact double-dummy solver with fixed-size transposition tables.

    ``tt_size_mb`` fixes each table's memory (rounded down to whole buckets):
    the plain table, always; the winning-rank table of partition search, on
    first use (``partition``: None uses it where it pays, for Whist; True or
    False forces it); the max^n table of ``self_interested``, on first use.
    ``tt_bytes`` reports what is allocated.

    ``share_with``: use that engine's plain table instead of a new one (``tt_size_mb`` then
    sizes this engine's other tables only). The engines may search at the same time, one
    thread each; each counts its own probes and hits. The table switches to small entries
    (trick counts, at most 32 cards) and stays so while shared: a position it cannot hold
    raises ValueError. ``clear`` (and a change of rules, which clears) empties the table for
    every engine sharing it, from each one's next call: a search under way in another engine
    goes on with the entries it knew, and what it stores then is invisible to the others.
    """

    def __cinit__(self, double tt_size_mb=16.0, partition=None, Engine share_with=None):
        if tt_size_mb <= 0:
            raise ValueError("tt_size_mb must be positive")
        self.tt.buckets = NULL
        self.maxn_table.entries = NULL
        self.rank_table.entries = NULL
        self.s.rank_table = NULL
        self.s.interrupts = &signals.count
        self.s.stopped = False
        install_signal_hooks()
        self.busy = False
        self.guesser = NULL
        self.lead_history = NULL
        self.partition = partition
        if share_with is None:
            self.table = SharedTable(tt_size_mb)
        else:
            if not share_with.table.tt.shared:
                if share_with.table.searching:
                    raise EngineBusy("the table to share is in use by a search")
                tt_set_shared(&share_with.table.tt)
            self.table = share_with.table
        self.table.users += 1
        self._view_table()
        self.s.tt = &self.tt
        self.s.child_key = NULL
        self.s.declarer_leads = NULL
        reset_killers(&self.s)
        self.tt_size_mb = tt_size_mb
        self.rules_tag = None
        self.last_nodes = self.last_probes = self.last_hits = 0
        self.last_value = self.last_tricks = -1

    def __dealloc__(self):
        if self.table is not None:
            self.table.users -= 1
        maxn_free(&self.maxn_table)
        rank_table_free(&self.rank_table)
        free(self.guesser)
        free(self.lead_history)

    @property
    def tt_bytes(self) -> int:
        """Memory held by the tables, in bytes: the plain table, and the winning-rank
        (Whist) and max^n (all-pass) tables once used; each is at most ``tt_size_mb``,
        but for the winning-rank table's count of used entries (a byte a bucket of 64)."""
        total = self.table.tt.nbuckets * BUCKET_BYTES + (self.table.tt.filter_mask + 1) // 8
        if self.rank_table.entries != NULL:
            total += (self.rank_table.nbuckets * (PBUCKET // 2) * sizeof(RankPair)
                      + self.rank_table.nbuckets + 8)
        if self.maxn_table.entries != NULL:
            total += self.maxn_table.nentries * sizeof(MaxnEntry)
        return int(total)

    @property
    def tt_entries(self) -> int:
        return int(self.table.tt.nentries)

    @property
    def shared_table(self) -> SharedTable:
        """The plain table (the same object for engines that share one)."""
        return self.table

    @property
    def stats(self) -> dict:
        """Search counts of the last call: nodes, table probes and hits."""
        return {"nodes": self.last_nodes, "tt_probes": self.last_probes,
                "tt_hits": self.last_hits}

    def reset_stats(self) -> None:
        self.last_nodes = self.last_probes = self.last_hits = 0

    def clear(self) -> None:
        """Empty the transposition table (its generation is bumped, the small filter wiped);
        a shared table for every engine sharing it (see the class)."""
        self._enter()
        try:
            self._clear()
        finally:
            self._leave()

    @property
    def searching(self) -> bool:
        """True while a search on this engine is under way (in any thread)."""
        return self.busy

    cdef int _enter(self) except -1:
        """Claim the engine for one call: two searches at once would corrupt its state.
        (Checked and set with the GIL held and no Python code between: atomic.)"""
        while self.table.waiting:           # another engine waits to wipe the shared table
            time.sleep(0.001)
        if self.busy:                       # (after the wait: the sleep lets other threads run)
            raise EngineBusy("this Engine is already searching (in another thread); "
                             "use one Engine per thread")
        self.busy = True
        self.table.searching += 1
        if PREF_SIGNALS_CHECKED_EACH_CALL:
            install_signal_hooks()
        # Signals (and stop_searches) from now on stop this call, even before its search begins.
        self.s.interrupts_seen = signals.count
        # One counted just before that line has its Python handler still to run (main thread):
        # run it now, not after a whole search.
        try:
            PyErr_CheckSignals()
        except BaseException:
            self._leave()
            raise
        return 0

    cdef void _leave(self):
        """The end of a call (``_enter``)."""
        self.busy = False
        self.table.searching -= 1

    cdef void _view_table(self):
        """This engine's view of its table: the shared fields (memory, format, generation)
        as they are now; a search keeps them to its end."""
        cdef TransTable* t = &self.table.tt
        self.tt.buckets = t.buckets
        self.tt.memory.base = NULL            # (the SharedTable frees it)
        self.tt.nbuckets = t.nbuckets
        self.tt.nentries = t.nentries
        self.tt.small = t.small
        self.tt.shared = t.shared
        self.tt.filter = t.filter
        self.tt.filter_mask = t.filter_mask
        self.tt.gen = t.gen

    cdef int _clear_table(self) except -1:
        """Empty the plain table: a new generation for it. When the generations run out the
        memory is wiped, and first every other engine sharing it must be out of its call (one
        still searching would store entries of an old generation that a later one could take
        for its own); engines that wait to wipe it do not count, and none begins a call
        meanwhile (``_enter``)."""
        cdef SharedTable table = self.table
        table.waiting += 1
        try:
            while table.tt.gen + 1 == GEN_LIMIT and table.searching > table.waiting:
                time.sleep(0.001)
        finally:
            table.waiting -= 1
        tt_clear(&table.tt)
        self._view_table()
        return 0

    cdef int _clear(self) except -1:
        self._clear_table()
        reset_killers(&self.s)
        if self.rank_table.entries != NULL:
            rank_table_clear(&self.rank_table)
        self.last_tricks = -1
        return 0

    # -- internals -----------------------------------------------------------

    cdef int _load(self, object pos) except -1:
        cdef int i, ncards = 0
        load_position(&self.s.rules, &self.s.pos, pos, self.ext_to_int, self.int_to_ext)
        self._load_talon(pos)
        for i in range(self.s.rules.nsuits):
            ncards += self.s.rules.suit_len[i]
        cdef bint small = ncards <= SMALL_MAX_CARDS and self.s.rules.plain_value
        cdef SharedTable table = self.table
        if small != table.tt.small:
            if table.users > 1:
                raise ValueError("engines sharing a table solve trick counts of at most "
                                 f"{SMALL_MAX_CARDS} cards; give this engine its own table")
            tt_set_small(&table.tt, small)
        table.tt.stores = 1                   # (may be written from now on: a wipe must clear it)
        marriages = tuple(tuple(int(x) for x in m) for m in getattr(pos, "marriages", ()))
        # (the trump apart from the other rules: Whist's winning-rank table survives a new trump)
        tag = (None if marriages else pos.trump,
               (tuple(int(m) for m in pos.suit_masks), bool(pos.must_trump),
                tuple(bool(x) for x in pos.declarer_side), bool(pos.maximize), self.s.rules.heuristics,
                tuple(int(x) for x in getattr(pos, "card_points", ())), marriages))
        if tag != table.rules_tag:
            self._clear_table()
            table.rules_tag = tag
        self._view_table()
        if tag != self.rules_tag:
            reset_killers(&self.s)
            if self.rank_table.entries != NULL:
                # A new trump alone keeps the winning-rank entries: their keys name the
                # trump where one is out (a DD table's denominations share the rest).
                if self.rules_tag is not None and tag[1] == self.rules_tag[1]:
                    rank_table_new_trump(&self.rank_table)
                else:
                    rank_table_clear(&self.rank_table)
            self.rules_tag = tag
            self.last_tricks = -1
        self.s.rank_table = NULL
        if partition_fits(&self.s) if self.partition is None else bool(self.partition):
            if not partition_fits(&self.s):
                raise ValueError("partition search needs plain trick play counting tricks, "
                                 "partnership heuristics and at most 4 suits of 15 cards")
            if self.rank_table.entries == NULL:
                rank_table_init(&self.rank_table, self.tt_size_mb)
            self.s.rank_table = &self.rank_table
        return 0

    cdef int _load_talon(self, object pos) except -1:
        """All-pass talon-led tricks (``talon_leads``, ``talon_must_beat``)."""
        cdef int i, card
        cdef u64 used = 0
        talon = [int(c) for c in getattr(pos, "talon_leads", ())]
        self.s.ntalon = 0
        self.s.talon_next = 0
        self.s.talon_must_beat = bool(getattr(pos, "talon_must_beat", False))
        if not talon:
            return 0
        if len(talon) > MAX_TALON or len(talon) > self.s.pos.tricks_left:
            raise ValueError(f"{len(talon)} talon leads for {self.s.pos.tricks_left} tricks")
        for i in range(self.s.rules.nseats):
            used |= self.s.pos.hand[i]
        used |= self.s.pos.trick_cards
        for i, ext in enumerate(talon):
            card = self.ext_to_int[ext] if 0 <= ext < MAX_CARDS else -1
            if card < 0:
                raise ValueError(f"talon card {ext} is in no suit")
            if used & ((<u64>1) << card):
                raise ValueError(f"talon card {ext} is also in play")
            used |= (<u64>1) << card
            self.s.talon_card[i] = card
        self.s.ntalon = len(talon)
        return 0

    cdef void _begin(self) noexcept nogil:
        self.s.stopped = False
        self.s.nodes = 0
        self.tt.probes = 0
        self.tt.hits = 0
        self.rank_table.probes = 0
        self.rank_table.hits = 0

    cdef void _end(self) noexcept nogil:
        self.last_nodes = self.s.nodes
        self.last_probes = self.tt.probes + self.rank_table.probes
        self.last_hits = self.tt.hits + self.rank_table.hits

    cdef int _check_stopped(self) except -1:
        """After a search: if Ctrl-C stopped it, forget what it stored and raise.

        Python's handler has noted the signal too: let it raise (once), as it
        would have without the engine; raise ourselves only if it does not.
        """
        if self.s.stopped:
            self.s.stopped = False
            self._clear()
            PyErr_CheckSignals()
            raise KeyboardInterrupt
        return 0

    cdef int _check_maxn_stopped(self) except -1:
        if self.s.stopped:
            maxn_clear(&self.maxn_table)
        return self._check_stopped()

    def _external(self, int move):
        """A move in the caller's card numbers."""
        return self.int_to_ext[move & ~DECLARE_FLAG] | (move & DECLARE_FLAG)

    def _guess(self) -> int:
        # MTD(f)'s first target: the last value for a related layout (same rules
        # and length, as in an enumeration of splits); else misère is usually
        # (nearly) clean, a contract is guessed from each side's top winners (a lone
        # declarer's from his hand); points: the middle of their range.
        if self.last_tricks == self.s.pos.tricks_left:
            return self.last_value
        if not self.s.rules.plain_value:
            return value_bound(&self.s.rules, &self.s.pos) // 2
        if not self.s.rules.plain_tricks:
            return 0
        if self.s.rules.heuristics == HEURISTICS_PARTNERSHIP or single_declarer(&self.s.rules) < 0:
            return estimate_tricks(&self.s.rules, &self.s.pos)
        return lone_declarer_guess(&self.s.rules, &self.s.pos)

    # -- API -----------------------------------------------------------------

    def solve(self, pos, first_guess=None) -> int:
        """Declarer side's tricks (current trick included) with best play by all: card
        points of its tricks and its marriages where the position has them.

        ``first_guess``: where MTD(f) starts (default: the last value for a layout
        of the same length, else an estimate); any guess gives the same answer.
        """
        self._enter()
        try:
            return self._solve(pos, first_guess)
        finally:
            self._leave()

    def _solve(self, pos, first_guess=None) -> int:
        self._load(pos)
        cdef int guess = self._guess() if first_guess is None else int(first_guess)
        cdef int value
        with nogil:
            self._begin()
            value = root_value(&self.s, guess, NULL)
            self._end()
        self._check_stopped()
        self.last_value = value
        self.last_tricks = self.s.pos.tricks_left
        return value

    def reaches(self, pos, int target) -> bool:
        """True if the declarer's side can take ``target`` tricks (current trick included;
        points where the position has them): one null-window search, cheaper than
        ``solve`` when only a contract matters."""
        self._enter()
        try:
            return self._reaches(pos, target)
        finally:
            self._leave()

    def _reaches(self, pos, int target) -> bool:
        self._load(pos)
        cdef bint result
        with nogil:
            self._begin()
            result = root_reaches(&self.s, target)
            self._end()
        self._check_stopped()
        return result

    def solve_batch(self, pos, seats, known, splits) -> list:
        """Values of many layouts that differ only in the hands at ``seats``.

        ``pos`` is the first layout, complete, at a trick boundary or with a trick in
        progress (its cards are the same in every layout). For each entry of ``splits`` (one
        mask per seat in ``seats``) the hand of ``seats[j]`` becomes
        ``known[j] | split[j]`` and the layout is solved. The whole batch runs
        without the GIL, so threads with their own engines run in parallel.
        Ctrl-C stops it: the list then holds the values finished so far.
        """
        self._enter()
        try:
            return self._solve_batch(pos, seats, known, splits)
        finally:
            self._leave()

    def _solve_batch(self, pos, seats, known, splits) -> list:
        cdef Py_ssize_t n = len(splits), k = len(seats), i, j
        cdef int seat_numbers[MAX_SEATS]
        cdef u64 known_masks[MAX_SEATS]
        cdef int sizes[MAX_SEATS]
        cdef u64 mask
        cdef u64* masks
        cdef int* out
        cdef Position start
        cdef int guess, value
        cdef SplitGuesser* guesser
        cdef LeadHistory* history
        cdef Py_ssize_t done = 0
        cdef u64 fixed = 0, dealt
        if not 1 <= k <= MAX_SEATS:
            raise ValueError("seats must name 1 to 4 seats")
        self._load(pos)
        start = self.s.pos
        for j in range(k):
            seat_numbers[j] = int(seats[j])
            known_masks[j] = <u64>int(known[j])
            sizes[j] = bit_count(start.hand[seat_numbers[j]])
        # The cards no split moves (the other hands, a trick in progress), in external numbers.
        for card in pos.played:
            fixed |= (<u64>1) << int(card)
        for j in range(len(pos.hands)):
            if j not in seats:
                fixed |= <u64>int(pos.hands[j])
        masks = <u64*>malloc(max(1, n * k) * sizeof(u64))
        out = <int*>malloc(max(1, n) * sizeof(int))
        if masks == NULL or out == NULL:
            free(masks)
            free(out)
            raise MemoryError()
        try:
            for i in range(n):
                split = splits[i]
                dealt = fixed
                for j in range(k):
                    mask = known_masks[j] | <u64>int(split[j])
                    if bit_count(mask) != sizes[j]:
                        raise ValueError("every split must give each seat as many cards as the first layout")
                    if mask & dealt or not in_suits(mask, self.ext_to_int):
                        raise ValueError(f"split {i} puts a card in two places, or a card in no suit")
                    dealt |= mask
                    masks[i * k + j] = mask
            guess = self._guess()
            guesser = NULL
            history = NULL
            if self.s.rules.plain_value:
                # trick counts: the first guesses of splitguess.pxd and the root's lead
                # history (root.pyx, misère), kept across the batches of one enumeration
                # (the same length, no clear in between)
                if self.guesser == NULL:
                    self.guesser = <SplitGuesser*>malloc(sizeof(SplitGuesser))
                    self.lead_history = <LeadHistory*>malloc(sizeof(LeadHistory))
                    if self.guesser == NULL or self.lead_history == NULL:
                        free(self.guesser)
                        free(self.lead_history)
                        self.guesser = NULL
                        self.lead_history = NULL
                        raise MemoryError()
                    guesser_reset(self.guesser)
                    lead_history_reset(self.lead_history)
                elif self.last_tricks != start.tricks_left:
                    guesser_reset(self.guesser)
                    lead_history_reset(self.lead_history)
                guesser = self.guesser
                guesser.last = -1
                history = self.lead_history
                if not self.s.rules.plain_tricks:
                    self.s.declarer_leads = &history.declarer_leads
            with nogil:
                self._begin()
                for i in range(n):
                    self.s.pos = start
                    for j in range(k):
                        self.s.pos.hand[seat_numbers[j]] = _to_internal(masks[i * k + j], self.ext_to_int)
                    if not self.s.rules.unit_tricks:
                        self.s.pos.points_left = points_out(&self.s.rules, &self.s.pos)
                    if guesser != NULL:
                        guess = guesser_guess(guesser, &self.s.rules, self.s.pos.hand[seat_numbers[0]], guess)
                    value = root_value(&self.s, guess, history)
                    if self.s.stopped:
                        break
                    out[i] = value
                    if guesser != NULL:
                        guesser_learn(guesser, value)
                    guess = value
                    done += 1
                self._end()
            self.s.pos = start
            if self.s.stopped:                    # Ctrl-C: keep what was finished
                self.s.stopped = False
                self._clear()
            elif done:
                self.last_value = out[done - 1]
                self.last_tricks = start.tricks_left
            return [out[i] for i in range(done)]
        finally:
            self.s.declarer_leads = NULL
            free(masks)
            free(out)

    def card_values(self, pos) -> dict:
        """Every legal move of the player to move -> the value after it is made (a card, or
        ``card | DECLARE`` for a lead declaring a marriage)."""
        self._enter()
        try:
            return self._card_values(pos)
        finally:
            self._leave()

    def _card_values(self, pos) -> dict:
        self._load(pos)
        cdef int guess = self._guess()
        cdef int seat = seat_to_move(&self.s.rules, &self.s.pos)
        cdef int moves[MAX_LEAD_MOVES]
        cdef int nmoves = root_moves(&self.s, seat, moves)
        cdef int i, move, gain, value
        cdef Undo u
        values = {}
        self._begin()
        for i in range(nmoves):
            move = moves[i]
            with nogil:
                gain = root_make_move(&self.s, move, &u)
                value = gain + root_value(&self.s, guess - gain, NULL)
                root_unmake_move(&self.s, seat, move, &u)
            self._check_stopped()
            guess = value
            values[self._external(move)] = value
        self._end()
        return values

    def _partnership_orders(self, pos, killer=None, killer2=None) -> tuple:
        """A test hook: the moves of the player to move (one a run of equivalent cards), in
        the order of the plain search's Whist ordering (``order_scored_moves``) and in that
        of the partition search's copy (``order_partnership_moves``); ``killer``, ``killer2``:
        leads given the killer bonuses. The two must agree (tests/test_whist_move_orders.py)."""
        self._load(pos)
        if self.s.rules.heuristics != HEURISTICS_PARTNERSHIP:
            raise ValueError("the partnership orders need a position with partnership heuristics")
        cdef const Rules* r = &self.s.rules
        cdef const Position* p = &self.s.pos
        cdef int seat = seat_to_move(r, p)
        cdef u64 out = cards_out(r, p)
        cdef u64 moves = legal_moves(r, p, seat) & run_bottoms(p.hand[seat], out, r.run_stops)
        cdef int k1 = -1 if killer is None else self.ext_to_int[int(killer)]
        cdef int k2 = -1 if killer2 is None else self.ext_to_int[int(killer2)]
        cdef int scored[MAX_MOVES]
        cdef int split[MAX_MOVES]
        cdef int n1 = order_scored_moves(r, p, seat, moves, -1, out, scored, k1, k2)
        cdef int n2 = order_partnership_moves(r, p, seat, moves, out, split, k1, k2)
        return ([self._external(scored[i]) for i in range(n1)],
                [self._external(split[i]) for i in range(n2)])

    def best_line(self, pos) -> list:
        """One optimal play to the end of the deal, as a list of moves in order (cards, or
        ``card | DECLARE``)."""
        self._enter()
        try:
            return self._best_line(pos)
        finally:
            self._leave()

    def _best_line(self, pos) -> list:
        self._load(pos)
        cdef int guess = self._guess()
        cdef int target, seat, card, gain, i, nmoves
        cdef bint ok
        cdef int moves[MAX_LEAD_MOVES]
        cdef Undo u
        line = []
        self._begin()
        with nogil:
            target = root_value(&self.s, guess, NULL)
        self._check_stopped()
        while self.s.pos.tricks_left > 0:
            seat = seat_to_move(&self.s.rules, &self.s.pos)
            nmoves = root_moves(&self.s, seat, moves)
            ok = False
            for i in range(nmoves):
                card = moves[i]
                with nogil:
                    gain = root_make_move(&self.s, card, &u)
                    if self.s.rules.maxer[seat]:
                        ok = root_reaches(&self.s, target - gain)
                    else:
                        ok = not root_reaches(&self.s, target - gain + 1)
                    if not ok:
                        root_unmake_move(&self.s, seat, card, &u)
                self._check_stopped()
                if ok:
                    target -= gain
                    break
            if not ok:
                raise AssertionError("no move keeps the value")  # pragma: no cover
            line.append(self._external(move=card))
        self._end()
        return line


    def self_interested(self, pos, rostov=False, taken=None) -> tuple:
        """All-pass, every seat for himself: ``(tricks per seat, line)``.

        Every seat minimises its own tricks (``rostov``: its lead over the best
        opponent, then its own tricks), ties to the first card in card order;
        see ``maxn.pyx``. ``taken``: tricks each seat took before this
        position (they matter only under ``rostov``). The table for this
        search has the engine's size, is allocated on first use and emptied
        for every call.
        """
        self._enter()
        try:
            return self._self_interested(pos, rostov, taken)
        finally:
            self._leave()

    def _self_interested(self, pos, rostov=False, taken=None) -> tuple:
        self._load(pos)
        if not self.s.rules.plain_value:
            raise ValueError("self-interested play counts tricks (no card points, no marriages)")
        cdef Maxn m
        cdef int card, gain, seat, winner, i
        cdef unsigned int value, total
        cdef Undo u
        cdef int nseats = self.s.rules.nseats
        if self.maxn_table.entries == NULL:
            maxn_init(&self.maxn_table, self.tt_size_mb)
        maxn_clear(&self.maxn_table)
        taken = [0] * nseats if taken is None else [int(x) for x in taken]
        if len(taken) != nseats:
            raise ValueError("taken needs one count per seat")
        m.s = &self.s
        m.table = &self.maxn_table
        m.rostov = bool(rostov)
        m.nodes = 0
        for i in range(MAX_SEATS):
            m.taken[i] = taken[i] if i < nseats else 0
        line = []
        total = 0
        self._begin()
        with nogil:
            maxn_choice(&m, &total)
        self._check_maxn_stopped()
        while self.s.pos.tricks_left > 0:
            seat = seat_to_move(&self.s.rules, &self.s.pos)
            with nogil:
                card = maxn_choice(&m, &value)
            self._check_maxn_stopped()
            with nogil:
                root_make_move(&self.s, card, &u)
            if u.trick_done:
                winner = (talon_winner_of(&self.s, &u) if u.talon_trick else self.s.pos.leader)
                if winner >= 0:
                    m.taken[winner] += 1
            line.append(self.int_to_ext[card])
        self.s.nodes = m.nodes
        self._end()
        return tuple((total >> (8 * i)) & 0xFF for i in range(nseats)), line

cdef int estimate_tricks(const Rules* r, const Position* p) noexcept nogil:
    """A first guess of the declarer side's tricks (any guess gives the same answer).

    Each side's top winners: per suit, its run of the highest cards out, in a
    trump contract at most the length of the shortest opponent who could ruff.
    The guess is a quarter of the way from the declarer side's winners to all
    the tricks the other side's winners leave. Against starting mid-way: about
    40% fewer nodes for a cold Whist solve. (A lone declarer, Preferans, has his own
    guess: ``lone_declarer_guess``.)
    """
    cdef int low = side_winners(r, p, 1)
    cdef int high = p.tricks_left - side_winners(r, p, 0)
    if high < low:
        high = low
    return low + (high - low) // 4


cdef int lone_declarer_guess(const Rules* r, const Position* p) noexcept nogil:
    """A first guess of a lone declarer's tricks (Preferans). No trumps: his top winners
    (``side_winners``) and one. A trump contract, from his hand as a player values it:
    half a trick a top winner, a trick a trump, an eighth a high-card point (ace 4, king
    3, queen 2, jack 1), half a trick a void, less one. The weights were fitted on the
    tuning set's fresh layouts, and lean high: a test above the value fails cheaply, one
    below costs more (benchmarks/RESULTS.md)."""
    cdef int declarer = single_declarer(r)
    cdef int eighths, suit, rank
    cdef u64 hand, cards
    if p.trump < 0:
        return min(side_winners(r, p, 1) + 1, p.tricks_left)
    hand = p.hand[declarer]
    eighths = 4 * side_winners(r, p, 1) + 8 * bit_count(hand & r.suit_mask[p.trump]) - 8
    for suit in range(r.nsuits):
        cards = hand & r.suit_mask[suit]
        if not cards:
            eighths += 4
        while cards:
            rank = r.suit_base[suit] + r.suit_len[suit] - 1 - low_index(cards)   # 0: the top
            if rank < 4:
                eighths += 4 - rank
            cards &= cards - 1
    if eighths < 0:
        return 0
    return min(eighths // 8, p.tricks_left)


cdef int side_winners(const Rules* r, const Position* p, int side) noexcept nogil:
    cdef int suit, seat, run, total = 0, length
    cdef u64 out = 0
    cdef u64 suit_out
    cdef int c
    for seat in range(r.nseats):
        out |= p.hand[seat]
    for suit in range(r.nsuits):
        suit_out = out & r.suit_mask[suit]
        run = 0
        while suit_out:
            c = high_index(suit_out)
            suit_out &= ~((<u64>1) << c)
            seat = 0
            while not (p.hand[seat] >> c) & 1:
                seat += 1
            if r.dside[seat] != side:
                break
            run += 1
        if p.trump >= 0 and suit != p.trump:
            for seat in range(r.nseats):
                if r.dside[seat] != side and p.hand[seat] & r.suit_mask[p.trump]:
                    length = bit_count(p.hand[seat] & r.suit_mask[suit])
                    if length < run:
                        run = length
        total += run
    return total if total < p.tricks_left else p.tricks_left


cdef inline bint in_suits(u64 mask, const int* ext_to_int) noexcept nogil:
    """True if every card of the external mask is in one of the position's suits."""
    while mask:
        if ext_to_int[low_index(mask)] < 0:
            return False
        mask &= mask - 1
    return True


cdef inline u64 _to_internal(u64 mask, const int* ext_to_int) noexcept nogil:
    """An external card mask renumbered into the engine's suit-contiguous bits."""
    cdef u64 out = 0
    while mask:
        out |= (<u64>1) << ext_to_int[low_index(mask)]
        mask &= mask - 1
    return out


cdef inline int talon_winner_of(Searcher* s, const Undo* u) noexcept nogil:
    """The seat that took the talon trick just completed (``u``), or -1."""
    return talon_trick_winner(s, u.played, u.leader, s.talon_card[s.talon_next - 1])


cdef int points_out(const Rules* r, const Position* p) noexcept nogil:
    """The card points of the cards in hands and on the table."""
    cdef u64 cards = p.trick_cards
    cdef int seat, total = 0
    for seat in range(r.nseats):
        cards |= p.hand[seat]
    while cards:
        total += r.points[low_index(cards)]
        cards &= cards - 1
    return total
