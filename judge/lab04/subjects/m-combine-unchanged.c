/* m-combine-unchanged.c - mask_combine adds the masks into a buffer of its
 * own, then frees it without copying the sums back: bias is left as it
 * was.
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: bias is as it was: mask_combine writes the sum into bias itself
 */
#define MUTANT_mask_combine
#include "base.h"
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(other);
    COMBINE_CHECK_OVERLAP();
    size_t n = (size_t)T_q * T_k;
    double *sum = malloc(n * sizeof *sum);
    if (!sum) return mm_fail(MM_ENOMEM, "mask_combine: no memory");
    for (size_t e = 0; e < n; e++) {
        if (isnan(bias[e]) || isnan(other[e]) || bias[e] == INFINITY || other[e] == INFINITY) {
            free(sum);
            return mm_fail(MM_EINVAL, "mask_combine: element %zu", e);
        }
        sum[e] = bias[e] + other[e];
        if (isinf(sum[e]) && isfinite(bias[e]) && isfinite(other[e])) {
            free(sum);
            return mm_fail(MM_ERANGE, "mask_combine: element %zu overflows", e);
        }
    }
    free(sum);                                      /* "done" */
    return MM_OK;
}
