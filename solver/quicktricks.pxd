# cython: language_level=3
"""Quick tricks: tricks the side on lead is sure to take by cashing top cards."""

from solver.state cimport Rules, Position, u64

cdef int quick_tricks(const Rules* r, const Position* p, u64 out) noexcept nogil
