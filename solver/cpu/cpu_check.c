/* Which engine kernels this CPU can run (pref_engine/__init__.py picks the fastest).
 *
 * The "modern" kernel is compiled for x86-64-v3: it may use every instruction of that level
 * (AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE and the x86-64-v2 set below them), and AVX
 * needs the operating system to save the YMM registers (OSXSAVE, then XCR0 bits 1-2). This
 * module is compiled for the baseline, so it runs everywhere. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

#define BIT(n) (1u << (n))

static int x86_64_v3(void) {
    unsigned r[4];
    cpuid(0, 0, r);
    unsigned max_leaf = r[0];
    if (max_leaf < 7) return 0;
    cpuid(1, 0, r);
    unsigned ecx1 = r[2];
    /* SSE3, SSSE3, FMA, CX16, SSE4.1, SSE4.2, MOVBE, POPCNT, OSXSAVE, AVX, F16C */
    unsigned need1 = BIT(0) | BIT(9) | BIT(12) | BIT(13) | BIT(19) | BIT(20) | BIT(22) | BIT(23)
                     | BIT(27) | BIT(28) | BIT(29);
    if ((ecx1 & need1) != need1) return 0;
    if ((xcr0() & 6) != 6) return 0;            /* the OS saves the XMM and YMM registers */
    cpuid(7, 0, r);
    unsigned need7 = BIT(3) | BIT(5) | BIT(8);  /* BMI1, AVX2, BMI2 */
    if ((r[1] & need7) != need7) return 0;
    cpuid(0x80000000u, 0, r);
    if (r[0] < 0x80000001u) return 0;
    cpuid(0x80000001u, 0, r);
    unsigned need_ext = BIT(0) | BIT(5);        /* LAHF/SAHF, LZCNT */
    return (r[2] & need_ext) == need_ext;
}
#endif

static PyObject* supported_kernels(PyObject* self, PyObject* unused) {
    (void)self;
    (void)unused;
#ifdef PREF_X86_64
    if (x86_64_v3()) return Py_BuildValue("(sss)", "native", "modern", "baseline");
#endif
    return Py_BuildValue("(ss)", "native", "baseline");
}

static PyMethodDef methods[] = {
    {"supported_kernels", supported_kernels, METH_NOARGS,
     "The kernels this CPU can run, fastest first (\"native\": built for this machine, if built)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pref_engine._cpu", "Which engine kernels this CPU can run.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cpu(void) { return PyModule_Create(&module); }
