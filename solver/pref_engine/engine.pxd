# cython: language_level=3
"""The engine's Python-facing object (see engine.pyx)."""

from pref_engine.state cimport MAX_CARDS
from pref_engine.transtable cimport TransTable
from pref_engine.search cimport Searcher
from pref_engine.maxn cimport MaxnTable
from pref_engine.partition cimport RankTable
from pref_engine.splitguess cimport SplitGuesser
from pref_engine.root cimport LeadHistory


cdef class SharedTable:
    cdef TransTable tt                # the memory, its format and generation (no counts)
    cdef object rules_tag             # the rules its entries were found under
    cdef int users                    # engines using it
    cdef int searching                # of them, those inside a call
    cdef int waiting                  # of those, the ones waiting to wipe it (``_clear_table``)


cdef class Engine:
    cdef TransTable tt                # this engine's view of its table, and its own counts
    cdef SharedTable table            # the plain table (its own, or one shared)
    cdef MaxnTable maxn_table         # allocated on first use of self_interested
    cdef RankTable rank_table         # partition search (Whist), allocated on first use
    cdef public object partition      # None: where it pays (partition_fits); True/False: force
    cdef Searcher s
    cdef int ext_to_int[MAX_CARDS]
    cdef int int_to_ext[MAX_CARDS]
    cdef object rules_tag
    cdef public double tt_size_mb
    cdef long long last_nodes, last_probes, last_hits
    cdef int last_value, last_tricks
    cdef bint busy                    # a search is under way (see _enter)
    cdef SplitGuesser* guesser        # solve_batch's first guesses (trick counts), on first use
    cdef LeadHistory* lead_history    # solve_batch's root leads (misère), with the guesser

    cdef int _load(self, object pos) except -1
    cdef int _load_talon(self, object pos) except -1
    cdef void _begin(self) noexcept nogil
    cdef int _check_stopped(self) except -1
    cdef int _check_maxn_stopped(self) except -1
    cdef void _end(self) noexcept nogil
    cdef int _enter(self) except -1
    cdef void _leave(self)
    cdef void _view_table(self)
    cdef int _clear_table(self) except -1
    cdef int _clear(self) except -1
