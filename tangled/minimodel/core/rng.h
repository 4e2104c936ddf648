/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* rng.h - the seeded generator of the minimodel library.
 * Integers: splitmix64, pure 64-bit integer arithmetic, so the stream of a
 * seed is the same on every machine. Normals: Marsaglia's polar method on
 * that stream; it uses only +, *, /, sqrt (correctly rounded in IEEE 754)
 * and log. */
#ifndef MINIMODEL_CORE_RNG_H
#define MINIMODEL_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>
#include "error.h"

#include <float.h>

typedef struct {
    uint64_t state;       /* splitmix64 state */
    double spare;         /* second normal of the last polar pair */
    int has_spare;        /* 1 when spare is unused */
} mm_rng;

/* mm_rng_seed - start the stream of seed.
 * Unchecked: r is not NULL and points to an mm_rng. */
void mm_rng_seed(mm_rng *r, uint64_t seed);

/* mm_rng_next - next 64-bit integer of the stream.
 * Unchecked: r is not NULL and was seeded. */
uint64_t mm_rng_next(mm_rng *r);

/* mm_rng_uniform - uniform double in [0, 1): 53 random bits.
 * Unchecked: r is not NULL and was seeded. */
double mm_rng_uniform(mm_rng *r);

/* mm_rng_normal - standard normal N(0, 1), never beyond +-MM_NORMAL_BOUND.
 * Unchecked: r is not NULL and was seeded. */
double mm_rng_normal(mm_rng *r);

#define MM_NORMAL_BOUND 12.01              /* > sqrt(-2 ln 2^-104) */
#define MM_STD_MAX (DBL_MAX / 16)          /* std * draw stays finite */

/* mm_fill_normal - w[0..n) = std * N(0, 1) draws, in index order.
 *   w (n)  written;  r  read and advanced
 * Checked, MM_EINVAL: w, r not NULL; 0 < n <= MM_MAX_ELEMENTS;
 * 0 <= std <= MM_STD_MAX (so every draw is finite); w does not overlap *r.
 * Unchecked: w holds n doubles; r was seeded.
 * On failure: w and r are unchanged. */
mm_status mm_fill_normal(double *w, size_t n, double std, mm_rng *r);

#endif
