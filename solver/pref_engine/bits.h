/* Bit helpers for the engine: popcount, bit scans, and PEXT/PDEP.
 *
 * PEXT/PDEP use the BMI2 instructions when the compiler targets them
 * (-mbmi2 or -march=native) and a portable loop otherwise, so the build never
 * depends on the CPU it runs on.
 */
#ifndef PREF_SOLVER_BITS_H
#define PREF_SOLVER_BITS_H

#include <stdint.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

/* The count of Ctrl-C presses, set from a signal handler (see engine.pyx): volatile, so
 * every read goes to memory. */
typedef volatile int pref_signal_count_t;

static inline int bit_count(uint64_t x) { return __builtin_popcountll(x); }

/* Index of the lowest / highest set bit; x must be non-zero. */
static inline int low_index(uint64_t x) { return __builtin_ctzll(x); }
static inline int high_index(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Gather the bits of x selected by mask into the low bits of the result. */
static inline uint64_t bit_extract(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(x, mask);
#else
    uint64_t out = 0, bit = 1;
    while (mask) {
        uint64_t low = mask & (0 - mask);
        if (x & low) out |= bit;
        bit <<= 1;
        mask ^= low;
    }
    return out;
#endif
}

/* Scatter the low bits of x to the positions selected by mask. */
static inline uint64_t bit_deposit(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
    return _pdep_u64(x, mask);
#else
    uint64_t out = 0, bit = 1;
    while (mask) {
        uint64_t low = mask & (0 - mask);
        if (x & bit) out |= low;
        bit <<= 1;
        mask ^= low;
    }
    return out;
#endif
}

#endif
