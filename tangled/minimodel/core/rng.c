/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* rng.c - splitmix64 and the polar method */
#include <math.h>
#include "rng.h"

/* mm_rng_seed - the state is the seed; no normal is pending */
void mm_rng_seed(mm_rng *r, uint64_t seed)
{
    r->state = seed;
    r->spare = 0.0;
    r->has_spare = 0;
}

/* mm_rng_next - advance by the golden-ratio constant, then mix */
uint64_t mm_rng_next(mm_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* mm_rng_uniform - the top 53 bits, scaled into [0, 1) */
double mm_rng_uniform(mm_rng *r)
{
    return (double)(mm_rng_next(r) >> 11) * 0x1.0p-53;
}

/* mm_rng_normal - Marsaglia's polar method, one pair per two calls */
double mm_rng_normal(mm_rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {                                  /* a point in the unit disc, not 0 */
        u = 2.0 * mm_rng_uniform(r) - 1.0;
        v = 2.0 * mm_rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);   /* GCOVR_EXCL_BR_LINE: see the text */
    double scale = sqrt(-2.0 * log(s) / s);
    r->spare = v * scale;
    r->has_spare = 1;
    return u * scale;
}

/* mm_fill_normal - n scaled normal draws into w */
mm_status mm_fill_normal(double *w, size_t n, double std, mm_rng *r)
{
    MM_NEED_BUFFER(w);  MM_NEED_BUFFER(r);
    if (n == 0 || n > MM_MAX_ELEMENTS)
        return mm_fail(MM_EINVAL, "%s: n must be in 1..%zu, got %zu", __func__,
                       MM_MAX_ELEMENTS, n);
    if (!(std >= 0.0 && std <= MM_STD_MAX))                /* false for NaN */
        return mm_fail(MM_EINVAL, "%s: std must be in [0, DBL_MAX / 16], "
                       "got %g", __func__, std);
    const mm_buffer bufs[] = { MM_BUFFER(w, n), MM_BUFFER(r, 1) };
    MM_NEED_DISJOINT(bufs, 1);
    for (size_t i = 0; i < n; i++) w[i] = std * mm_rng_normal(r);
    return MM_OK;
}
