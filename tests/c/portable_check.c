/* The engine's portable C headers checked on their own, for any target a compiler here can
 * build for (tests/test_portability.py: this machine's kernels, ARM64 under qemu-aarch64, a
 * Windows build with MinGW): bits.h's popcount, bit scans and PEXT/PDEP against plain loops over
 * the 64 bit positions (a different algorithm from both of bits.h's), and huge_pages.h's blocks
 * (zeroed, writable, given back). Prints "ok" and the number of cases, exit 0; else the first
 * difference, exit 1. */
#define _GNU_SOURCE   /* as Python.h does for the engine's modules: mmap's MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "huge_pages.h"

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void) {   /* xorshift64 */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static uint64_t plain_extract(uint64_t x, uint64_t mask) {
    uint64_t out = 0;
    int k = 0;
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1) out |= (x >> i & 1) << k++;
    return out;
}

static uint64_t plain_deposit(uint64_t x, uint64_t mask) {
    uint64_t out = 0;
    int k = 0;
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1) out |= (x >> k++ & 1) << i;
    return out;
}

static int plain_count(uint64_t x) {
    int n = 0;
    for (int i = 0; i < 64; i++) n += (int)(x >> i & 1);
    return n;
}

static int fail(const char* what, uint64_t x, uint64_t mask, uint64_t got, uint64_t want) {
    printf("FAIL %s x=%016llx mask=%016llx: %llx, not %llx\n", what, (unsigned long long)x,
           (unsigned long long)mask, (unsigned long long)got, (unsigned long long)want);
    return 1;
}

int main(void) {
    long cases = 0;
    for (int round = 0; round < 200000; round++) {
        uint64_t x = next_random(), mask = next_random();
        if (round % 3 == 1) mask &= next_random();            /* sparse masks */
        if (round % 3 == 2) mask |= next_random();            /* dense masks */
        if (round == 0) mask = ~0ULL;
        if (round == 1) mask = 0;
        if (bit_extract(x, mask) != plain_extract(x, mask))
            return fail("bit_extract", x, mask, bit_extract(x, mask), plain_extract(x, mask));
        if (bit_deposit(x, mask) != plain_deposit(x, mask))
            return fail("bit_deposit", x, mask, bit_deposit(x, mask), plain_deposit(x, mask));
        if (bit_count(mask) != plain_count(mask))
            return fail("bit_count", mask, mask, (uint64_t)bit_count(mask), (uint64_t)plain_count(mask));
        if (mask) {
            int low = 0, high = 63;
            while (!(mask >> low & 1)) low++;
            while (!(mask >> high & 1)) high--;
            if (low_index(mask) != low) return fail("low_index", mask, mask, (uint64_t)low_index(mask), (uint64_t)low);
            if (high_index(mask) != high)
                return fail("high_index", mask, mask, (uint64_t)high_index(mask), (uint64_t)high);
        }
        cases++;
    }
    for (int round = 0; round < 3; round++) {
        size_t size = ((size_t)5 << 20) + (size_t)round * 4093;
        void* base;
        size_t mapped;
        char* block = pref_map_pages(size, &base, &mapped);
        if (block == NULL || base == NULL || mapped < size) {
            printf("FAIL pref_map_pages(%lu)\n", (unsigned long)size);
            return 1;
        }
        for (size_t i = 0; i < size; i += 4096)
            if (block[i] != 0) {
                printf("FAIL pref_map_pages: byte %lu not zero\n", (unsigned long)i);
                return 1;
            }
        memset(block, 0xA5, size);
        if ((unsigned char)block[size - 1] != 0xA5) {
            printf("FAIL pref_map_pages: last byte\n");
            return 1;
        }
        pref_unmap_pages(base, mapped);
        cases++;
    }
    printf("ok %ld\n", cases);
    return 0;
}
