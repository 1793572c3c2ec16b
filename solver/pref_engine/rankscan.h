/* The winning-rank table's entries, two to a cache line field by field, and the compare of
 * a probe with both entries of a line at once (partition.pyx: ``rank_probe``).
 *
 * An entry matches a probe when its key equals the probe's and its owner planes equal the
 * probe's on its deciding cards: ((p0 ^ plane0) | (p1 ^ plane1)) & mask | (word ^ key) == 0
 * (the stored planes are masked; the bounds above the 56 card bits of ``mask`` meet only
 * zeros in the probe's planes). With SSE2 (every x86-64 kernel) both lanes are compared by
 * one vector compare; otherwise lane by lane. The vector loads are aligned ones: the table
 * comes page-aligned from ``huge_alloc`` and a pair is 64 bytes.
 */
#ifndef PREF_SOLVER_RANKSCAN_H
#define PREF_SOLVER_RANKSCAN_H

#include <stdint.h>
#if defined(__SSE2__) || defined(_M_X64)
#define PREF_RANK_SSE2 1
#include <emmintrin.h>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#endif

typedef struct {
    uint64_t key[2];      /* shape | tricks left << 48 | leader << 52 | trump << 54 */
    uint64_t mask[2];     /* deciding cards (numbered among the cards out) | lower << 56 | upper << 60 */
    uint64_t plane0[2];   /* their owners, as in TTKey (masked) */
    uint64_t plane1[2];
} RankPair;

/* The lanes of ``g`` that match: nonzero if any; lane ``i`` matches if the bit
 * rank_lane_bit(i) is set. */
static inline unsigned rank_pair_matches(const RankPair* g, uint64_t word, uint64_t p0,
                                         uint64_t p1) {
#ifdef PREF_RANK_SSE2
    __m128i x = _mm_or_si128(
        _mm_xor_si128(_mm_load_si128((const __m128i*)g->plane0), _mm_set1_epi64x((long long)p0)),
        _mm_xor_si128(_mm_load_si128((const __m128i*)g->plane1), _mm_set1_epi64x((long long)p1)));
    x = _mm_and_si128(x, _mm_load_si128((const __m128i*)g->mask));
    x = _mm_or_si128(x, _mm_xor_si128(_mm_load_si128((const __m128i*)g->key),
                                      _mm_set1_epi64x((long long)word)));
#if defined(__SSE4_1__)
    return (unsigned)_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpeq_epi64(x, _mm_setzero_si128())));
#else
    /* a lane is zero where both of its 32-bit halves are */
    unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, _mm_setzero_si128())));
    return m & (m >> 1) & 5;
#endif
#else
    unsigned m = 0;
    int i;
    for (i = 0; i < 2; i++)
        if (((((p0 ^ g->plane0[i]) | (p1 ^ g->plane1[i])) & g->mask[i]) | (word ^ g->key[i])) == 0)
            m |= 1u << (2 * i);
    return m;
#endif
}

/* The bit of lane ``i`` (0 or 1) in rank_pair_matches's answer. */
static inline unsigned rank_lane_bit(int i) {
#if defined(PREF_RANK_SSE2) && defined(__SSE4_1__)
    return 1u << i;
#else
    return 1u << (2 * i);
#endif
}

#endif
