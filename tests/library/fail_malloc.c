/* fail_malloc.c - an LD_PRELOAD shim that makes the Nth allocation of the
 * process fail once it is armed, below every library (OpenBLAS included),
 * where the --wrap of alloc_fail.c reaches only our own objects. The
 * program arms it by setting fail_malloc_countdown (found with dlsym) to N;
 * fail_malloc_count counts the allocations made since. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

long fail_malloc_countdown = 0;    /* 0: never fail; N: fail the Nth call */
long fail_malloc_count = 0;        /* allocations while armed or counting */

/* fails - whether this allocation is the one to fail */
static int fails(void)
{
    fail_malloc_count++;
    return fail_malloc_countdown > 0 && fail_malloc_count == fail_malloc_countdown;
}

void *malloc(size_t n)
{
    static void *(*real)(size_t);
    if (!real) real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    return fails() ? NULL : real(n);
}

void *calloc(size_t k, size_t n)
{
    static void *(*real)(size_t, size_t);
    if (!real) real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    return real != NULL && fails() ? NULL : real ? real(k, n) : NULL;
}

void *realloc(void *p, size_t n)
{
    static void *(*real)(void *, size_t);
    if (!real) real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    return fails() ? NULL : real(p, n);
}

int posix_memalign(void **p, size_t align, size_t n)
{
    static int (*real)(void **, size_t, size_t);
    if (!real) real = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    return fails() ? 12 /* ENOMEM */ : real(p, align, n);
}
