/* alloc_fail.c - the wrapped allocator of alloc_fail.h. */
#include <stddef.h>
#include "alloc_fail.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

enum { MAX_LIVE = 4096 };
static int armed;
static long fail_at, attempts;
static void *live[MAX_LIVE];        /* blocks allocated while armed */
static long n_live;
static size_t bytes;                /* requested by the allocations that succeeded */

void alloc_fail_arm(long n) { armed = 1; fail_at = n; attempts = 0; n_live = 0; bytes = 0; }
void alloc_fail_disarm(void) { armed = 0; fail_at = 0; n_live = 0; }
long alloc_fail_attempts(void) { return attempts; }
long alloc_fail_live(void) { return n_live; }
size_t alloc_fail_bytes(void) { return bytes; }

/* failing_now - count one attempt; whether it is the one to fail */
static int failing_now(void)
{
    if (!armed) return 0;
    return ++attempts == fail_at;
}

/* track - remember p, a block of size bytes just allocated while armed */
static void track(void *p, size_t size)
{
    if (armed && p) bytes += size;
    if (armed && p && n_live < MAX_LIVE) live[n_live++] = p;
}

static void untrack(void *p)
{
    for (long i = 0; i < n_live; i++)
        if (live[i] == p) { live[i] = live[--n_live]; return; }
}

void *__wrap_malloc(size_t size)
{
    if (failing_now()) return NULL;
    void *p = __real_malloc(size);
    track(p, size);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (failing_now()) return NULL;
    void *p = __real_calloc(n, size);
    track(p, n * size);
    return p;
}

void *__wrap_realloc(void *old, size_t size)
{
    if (failing_now()) return NULL;           /* old is left as it was */
    void *p = __real_realloc(old, size);
    if (p) { untrack(old); track(p, size); }
    return p;
}

void __wrap_free(void *p)
{
    untrack(p);
    __real_free(p);
}
