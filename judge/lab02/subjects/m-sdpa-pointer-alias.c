/* m-sdpa-pointer-alias.c - sdpa compares its outputs' pointers with the
 * other buffers' (out == q, ...): the same buffer is refused, but an output
 * that starts inside another buffer is not.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'out = q + 2': returned MM_OK (0) for out starting 2 element(s) into q; expected MM_EINVAL (1)
 * expect: hint: two buffers can overlap without starting at the same address: compare the ranges of bytes, not the pointers
 * expect-not: case 'out = q':
 * expect-re: ^sdpa +0 +20 +1$
 */
#define ARGS_NO_OVERLAP
#define MUTANT_sdpa
#include "base.h"
static mm_status same_pointers(const double *out, const double *weights, const double *q,
                               const double *k, const double *v, const double *bias)
{
    if (out == q || out == k || out == v || out == bias || out == weights)
        return mm_fail(MM_EINVAL, "sdpa: out is another buffer");
    if (weights && (weights == q || weights == k || weights == v || weights == bias))
        return mm_fail(MM_EINVAL, "sdpa: weights is another buffer");
    return MM_OK;
}
#undef SDPA_CHECK_OVERLAPS
#define SDPA_CHECK_OVERLAPS() MM_TRY(same_pointers(out, weights, q, k, v, bias))
#include "row.h"
