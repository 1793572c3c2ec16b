/* Bit helpers for the engine: popcount, bit scans, PEXT/PDEP and the cache prefetch.
 *
 * PEXT/PDEP and POPCNT use the instructions when the kernel is compiled for them (BMI2:
 * -march=x86-64-v3 or -march=native with GCC/Clang, PREF_USE_BMI2 with MSVC's /arch:AVX2) and
 * portable code otherwise (the baseline x86-64 kernel, ARM64), so no build depends on the CPU it
 * runs on. GCC and Clang use their builtins; MSVC its intrinsics.
 */
#ifndef PREF_SOLVER_BITS_H
#define PREF_SOLVER_BITS_H

#include <stdint.h>
#if defined(__BMI2__) || defined(PREF_USE_BMI2)
#define PREF_BMI2 1
#include <immintrin.h>
#endif
#if defined(_MSC_VER) && !defined(__clang__)
#define PREF_MSVC 1
#include <intrin.h>
#include <xmmintrin.h>
#endif

/* The count of Ctrl-C presses, set from a signal handler (see engine.pyx): volatile, so
 * every read goes to memory. */
typedef volatile int pref_signal_count_t;

#ifdef PREF_MSVC
static inline int bit_count(uint64_t x) {
#ifdef PREF_BMI2
    return (int)__popcnt64(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
/* Index of the lowest / highest set bit; x must be non-zero. */
static inline int low_index(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int high_index(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
/* transtable.pxd names the GCC builtin: MSVC gets the SSE prefetch under that name. */
#define __builtin_prefetch(addr) _mm_prefetch((const char*)(addr), _MM_HINT_T0)
#else
static inline int bit_count(uint64_t x) { return __builtin_popcountll(x); }
/* Index of the lowest / highest set bit; x must be non-zero. */
static inline int low_index(uint64_t x) { return __builtin_ctzll(x); }
static inline int high_index(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

/* Gather the bits of x selected by mask into the low bits of the result. */
static inline uint64_t bit_extract(uint64_t x, uint64_t mask) {
#ifdef PREF_BMI2
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
#ifdef PREF_BMI2
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

/* A branch the compiler should lay out off the common path (a shared table's test). */
#if defined(__GNUC__) || defined(__clang__)
#define pref_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define pref_unlikely(x) (x)
#endif

/* One 8-byte word of a table that engines in several threads share (transtable.pxd): loaded
 * and stored whole, never split or re-read by the compiler (an aligned 8-byte access is atomic
 * on x86-64 and ARM64; a relaxed atomic is a plain move there). */
#ifdef PREF_MSVC
static inline uint64_t word_load(const uint64_t* p) { return *(const volatile uint64_t*)p; }
static inline void word_store(uint64_t* p, uint64_t x) { *(volatile uint64_t*)p = x; }
#else
static inline uint64_t word_load(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void word_store(uint64_t* p, uint64_t x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }
#endif

#endif
