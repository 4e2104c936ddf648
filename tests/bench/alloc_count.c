/* alloc_count.c - the allocation counter of alloc_count.h. A file of its
 * own: the compiler, which knows what malloc does, must not see the counter
 * at the calls it counts (it may move a store to a flag across a malloc it
 * believes reads no flag). */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "alloc_count.h"

#define MAX_LIVE 4096                /* blocks alive at once while counting */
static struct { void *p; size_t n; } live[MAX_LIVE];
static int n_live;
static atomic_int counting;
static atomic_flag busy = ATOMIC_FLAG_INIT;    /* one thread in the table */
static alloc_count c;

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
    c = (alloc_count){ 0, 0, 0, 0 };
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
