/* The transposition tables' memory (transtable.pyx): big blocks straight from the system,
 * zeroed, touched lazily, on huge pages where the system offers them.
 *
 * Linux: mmap, the block 2 MB aligned and advised for transparent huge pages (the tables are
 * probed all over; with 4 KB pages most probes also miss the TLB). Other POSIX systems (macOS):
 * mmap alone. Windows: VirtualAlloc / VirtualFree.
 */
#ifndef PREF_SOLVER_HUGE_PAGES_H
#define PREF_SOLVER_HUGE_PAGES_H

#include <stddef.h>
#include <stdint.h>

#define PREF_HUGE_PAGE ((size_t)2 << 20)

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
/* rpcndr.h's "small" would rename the table's field of that name */
#ifdef small
#undef small
#endif

/* ``size`` zeroed bytes; the block to give back in *base (NULL if the system refuses). */
static char* pref_map_pages(size_t size, void** base, size_t* mapped) {
    *mapped = size;
    *base = VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    return (char*)*base;
}

static void pref_unmap_pages(void* base, size_t mapped) {
    (void)mapped;
    VirtualFree(base, 0, MEM_RELEASE);
}
#else
#include <sys/mman.h>
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static char* pref_map_pages(size_t size, void** base, size_t* mapped) {
#ifdef MADV_HUGEPAGE
    /* one huge page more, to align the block on one */
    *mapped = size + PREF_HUGE_PAGE;
#else
    *mapped = size;
#endif
    *base = mmap(NULL, *mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (*base == MAP_FAILED) {
        *base = NULL;
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    char* aligned = (char*)(((uintptr_t)*base + PREF_HUGE_PAGE - 1) & ~(uintptr_t)(PREF_HUGE_PAGE - 1));
    madvise(aligned, size, MADV_HUGEPAGE);
    return aligned;
#else
    return (char*)*base;
#endif
}

static void pref_unmap_pages(void* base, size_t mapped) { munmap(base, mapped); }
#endif

#endif
