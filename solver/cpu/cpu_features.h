/* Whether this CPU runs the engine's "modern" kernel (solver/cpu/_cpu.pyx asks; pref_engine picks
 * the fastest kernel at import).
 *
 * The "modern" kernel is compiled for x86-64-v3: it may use every instruction of that level
 * (AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE and the x86-64-v2 set below them), and AVX
 * needs the operating system to save the YMM registers (OSXSAVE, then XCR0 bits 1-2). The module
 * including this is compiled for the baseline, so it runs everywhere. */
#ifndef PREF_CPU_FEATURES_H
#define PREF_CPU_FEATURES_H

#if defined(__x86_64__) || defined(_M_X64) || defined(_M_AMD64)
#define PREF_X86_64 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <immintrin.h>
#include <intrin.h>
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    int out[4];
    __cpuidex(out, (int)leaf, (int)subleaf);
    for (int i = 0; i < 4; i++) regs[i] = (unsigned)out[i];
}
static unsigned long long xcr0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    __cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
}
static unsigned long long xcr0(void) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}
#endif

#define PREF_CPU_BIT(n) (1u << (n))

static int x86_64_v3(void) {
    unsigned r[4];
    cpuid(0, 0, r);
    unsigned max_leaf = r[0];
    if (max_leaf < 7) return 0;
    cpuid(1, 0, r);
    unsigned ecx1 = r[2];
    /* SSE3, SSSE3, FMA, CX16, SSE4.1, SSE4.2, MOVBE, POPCNT, OSXSAVE, AVX, F16C */
    unsigned need1 = PREF_CPU_BIT(0) | PREF_CPU_BIT(9) | PREF_CPU_BIT(12) | PREF_CPU_BIT(13) | PREF_CPU_BIT(19) | PREF_CPU_BIT(20) | PREF_CPU_BIT(22) | PREF_CPU_BIT(23)
                     | PREF_CPU_BIT(27) | PREF_CPU_BIT(28) | PREF_CPU_BIT(29);
    if ((ecx1 & need1) != need1) return 0;
    if ((xcr0() & 6) != 6) return 0;            /* the OS saves the XMM and YMM registers */
    cpuid(7, 0, r);
    unsigned need7 = PREF_CPU_BIT(3) | PREF_CPU_BIT(5) | PREF_CPU_BIT(8);  /* BMI1, AVX2, BMI2 */
    if ((r[1] & need7) != need7) return 0;
    cpuid(0x80000000u, 0, r);
    if (r[0] < 0x80000001u) return 0;
    cpuid(0x80000001u, 0, r);
    unsigned need_ext = PREF_CPU_BIT(0) | PREF_CPU_BIT(5);        /* LAHF/SAHF, LZCNT */
    return (r[2] & need_ext) == need_ext;
}
#endif

/* 1 if the CPU and the OS run x86-64-v3 code, else 0 (always 0 off x86-64). */
static int pref_cpu_runs_x86_64_v3(void) {
#ifdef PREF_X86_64
    return x86_64_v3();
#else
    return 0;
#endif
}

#endif
