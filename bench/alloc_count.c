/* alloc_count.c - the allocation counter of alloc_count.h. A file of its
 * own: the compiler, which knows what malloc does, must not see the counter
 * at the calls it counts (it may move a store to a flag across a malloc it
 * believes reads no flag). */
#define _DEFAULT_SOURCE              /* syscall, mincore, MAP_ANONYMOUS */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "alloc_count.h"

#define MAX_LIVE 4096                /* blocks alive at once while counting */
static struct { void *p; size_t n; } live[MAX_LIVE];
static int n_live;
static atomic_int counting;
static atomic_flag busy = ATOMIC_FLAG_INIT;    /* one thread in the table */
static alloc_count c;
#ifndef ALLOC_COUNT_PRELOAD
#define MAX_MAPS 256                 /* regions mapped by mmap at once */
static struct { uintptr_t a, n; int counted; } maps[MAX_MAPS];
static int n_maps, maps_lost;
#endif

static void lock(void)   { while (atomic_flag_test_and_set(&busy)) ; }
static void unlock(void) { atomic_flag_clear(&busy); }

static void track(void *p, size_t n)
{
    if (!atomic_load(&counting) || p == NULL) return;
    lock();
    if (n_live == MAX_LIVE) {
        c.lost = 1;
    } else {
        live[n_live].p = p;  live[n_live].n = n;  n_live++;
        c.blocks++;
        c.now += n;
        if (c.now > c.peak) c.peak = c.now;
    }
    unlock();
}

static void untrack(void *p)
{
    if (!atomic_load(&counting) || p == NULL) return;
    lock();
    for (int i = n_live - 1; i >= 0; i--)        /* the newest first */
        if (live[i].p == p) {
            c.now -= live[i].n;
            live[i] = live[--n_live];
            break;
        }
    unlock();
}

void alloc_count_start(void)
{
    lock();
    n_live = 0;
    c = (alloc_count){ 0 };
#ifndef ALLOC_COUNT_PRELOAD
    for (int i = 0; i < n_maps; i++) maps[i].counted = 0;   /* mapped before */
#endif
    unlock();
    atomic_store(&counting, 1);
}

void alloc_count_stop(void) { atomic_store(&counting, 0); }

alloc_count alloc_counted(void)
{
    lock();
    alloc_count r = c;
    unlock();
    return r;
}

size_t alloc_count_peak(void)   { return alloc_counted().peak; }
size_t alloc_count_blocks(void) { return alloc_counted().blocks; }
int alloc_count_lost(void)      { return alloc_counted().lost; }

#ifndef ALLOC_COUNT_PRELOAD
/* ---- mmap and munmap of the program and its shared libraries --------------
 * The program's own definitions: the shared libraries' calls (OpenBLAS's
 * buffer pool) bind to them. They go on to the kernel by syscall, not to
 * glibc's mmap, which would be these again. */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static uintptr_t page_up(size_t n)
{
    static uintptr_t page;
    if (page == 0) page = (uintptr_t)sysconf(_SC_PAGESIZE);
    return ((uintptr_t)n + page - 1) / page * page;
}

void *mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off)
{
    void *p = (void *)syscall(SYS_mmap, addr, n, prot, flags, fd, off);
    if (p == MAP_FAILED) return p;
    uintptr_t len = page_up(n);
    int on = atomic_load(&counting);
    lock();
    if (n_maps == MAX_MAPS) {
        maps_lost = 1;
    } else {
        maps[n_maps].a = (uintptr_t)p;  maps[n_maps].n = len;
        maps[n_maps].counted = on;  n_maps++;
    }
    if (on) {
        c.map_calls++;
        c.map_now += len;
        if (c.map_now > c.map_peak) c.map_peak = c.map_now;
    }
    unlock();
    return p;
}

int munmap(void *addr, size_t n)
{
    int r = (int)syscall(SYS_munmap, addr, n);
    if (r != 0) return r;
    uintptr_t lo = (uintptr_t)addr, hi = lo + page_up(n);
    lock();
    for (int i = n_maps - 1; i >= 0; i--) {
        uintptr_t a = maps[i].a, b = a + maps[i].n;
        if (b <= lo || a >= hi) continue;
        uintptr_t gone = (b < hi ? b : hi) - (a > lo ? a : lo);
        if (maps[i].counted && atomic_load(&counting)) c.map_now -= gone;
        if (lo <= a && hi >= b) {                        /* all of it */
            maps[i] = maps[--n_maps];
        } else if (lo <= a) {                            /* its head */
            maps[i].a = hi;  maps[i].n = b - hi;
        } else if (hi >= b) {                            /* its tail */
            maps[i].n = lo - a;
        } else if (n_maps < MAX_MAPS) {                  /* a hole: two */
            maps[n_maps] = maps[i];
            maps[n_maps].a = hi;  maps[n_maps].n = b - hi;  n_maps++;
            maps[i].n = lo - a;
        } else {
            maps_lost = 1;
            maps[i].n = lo - a;
        }
    }
    unlock();
    return r;
}

size_t alloc_count_mapped(size_t *resident)
{
    static unsigned char vec[4096];         /* mincore's answer, in pieces */
    uintptr_t page = page_up(1);
    size_t mapped = 0, in = 0;
    lock();
    for (int i = 0; i < n_maps; i++) {
        mapped += maps[i].n;
        for (uintptr_t a = maps[i].a, end = a + maps[i].n; a < end; ) {
            uintptr_t len = end - a < sizeof vec * page ? end - a : sizeof vec * page;
            if (mincore((void *)a, len, vec) == 0)
                for (uintptr_t k = 0; k < len / page; k++) in += (vec[k] & 1) * page;
            a += len;
        }
    }
    unlock();
    if (resident != NULL) *resident = maps_lost ? (size_t)-1 : in;
    return maps_lost ? (size_t)-1 : mapped;
}

/* ---- linked with -Wl,--wrap=...: the program's calls come here ---------- */
void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t n);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
#define REAL(f) __real_##f
#define HOOK(f) __wrap_##f
#else
/* ---- preloaded: the process's calls come here, and go on to glibc ------- */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t count, size_t n);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *__libc_memalign(size_t alignment, size_t n);
void *__libc_valloc(size_t n);
#define REAL(f) __libc_##f
#define HOOK(f) f
size_t alloc_count_mapped(size_t *resident)     /* mmap is not followed here */
{
    if (resident != NULL) *resident = 0;
    return 0;
}
void *memalign(size_t alignment, size_t n);
void *valloc(size_t n);
int posix_memalign(void **p, size_t alignment, size_t n);

void *memalign(size_t alignment, size_t n)
{
    void *p = __libc_memalign(alignment, n);
    track(p, n);
    return p;
}

void *aligned_alloc(size_t alignment, size_t n)
{
    void *p = __libc_memalign(alignment, n);
    track(p, n);
    return p;
}

void *valloc(size_t n)
{
    void *p = __libc_valloc(n);
    track(p, n);
    return p;
}

int posix_memalign(void **p, size_t alignment, size_t n)
{
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
        return EINVAL;
    void *q = __libc_memalign(alignment, n);
    if (q == NULL) return ENOMEM;
    track(q, n);
    *p = q;
    return 0;
}
#endif

void *HOOK(malloc)(size_t n)
{
    void *p = REAL(malloc)(n);
    track(p, n);
    return p;
}

void *HOOK(calloc)(size_t count, size_t n)
{
    void *p = REAL(calloc)(count, n);
    track(p, count * n);        /* not NULL: calloc checked count * n */
    return p;
}

void *HOOK(realloc)(void *p, size_t n)
{
    void *q = REAL(realloc)(p, n);
    if (q != NULL || n == 0) {        /* p was released (or moved to q) */
        untrack(p);
        track(q, n);
    }
    return q;
}

void HOOK(free)(void *p)
{
    untrack(p);
    REAL(free)(p);
}
