/* alloc_fail.h - a wrapped allocator that fails the Nth allocation on demand.
 *
 * Every test binary of the library is linked with
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
 * so that each call to malloc, calloc, realloc or free made by the library or
 * by a test goes through __wrap_malloc and friends (alloc_fail.c). They pass
 * through to the C library until a test arms a failure: then allocation
 * number n (counted from the arming, from 1) returns NULL, and every block
 * allocated while armed is tracked until it is freed, so that a test can see
 * a leak on the failure path. One process at a time (Criterion runs each
 * test in its own); not for use from several threads. */
#ifndef TESTS_LIBRARY_ALLOC_FAIL_H
#define TESTS_LIBRARY_ALLOC_FAIL_H

#include <stddef.h>

/* alloc_fail_arm - count allocations from now; the nth fails (0: none) */
void alloc_fail_arm(long n);

/* alloc_fail_disarm - stop counting and failing; forget the tracked blocks */
void alloc_fail_disarm(void);

/* alloc_fail_attempts - allocations attempted since alloc_fail_arm */
long alloc_fail_attempts(void);

/* alloc_fail_live - blocks allocated since alloc_fail_arm, not yet freed */
long alloc_fail_live(void);

/* alloc_fail_bytes - bytes requested by the allocations that succeeded
 * since alloc_fail_arm (a realloc counts its new size) */
size_t alloc_fail_bytes(void);

#endif
