/* r-hang.c - mask_padding walks the keys of a row until it meets the first
 * hidden one, then fills the rest; with length = T_k there is none, and
 * the loop looks for it forever. The harness stops the call at its
 * deadline and names the call in flight; the function's later checks are
 * not run (each would wait as long) and count as failed.
 * run-only: mask_padding
 * expect-exit: nonzero
 * expect: HANG  mask_padding, case 'every key real: T_q=3 T_k=4 length=4': did not return within
 * expect: call in flight: mask_padding(bias, 3, 4, 4)
 * expect-re: ^mask_padding +0 +1 +10$
 */
#define MUTANT_mask_padding
#include "base.h"
mm_status mask_padding(double *bias, int T_q, int T_k, int length)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    if (length < 0 || length > T_k) return mm_fail(MM_EINVAL, "mask_padding: length %d", length);
    for (int i = 0; i < T_q; i++) {
        double *row = bias + (size_t)i * T_k;
        int j = 0;
        while (j != length || j == T_k) {          /* "up to the first padding key" */
            if (j < T_k) row[j] = 0.0;
            j = (j + 1) % (T_k + 1);
        }
        for (; j < T_k; j++) row[j] = -INFINITY;
    }
    return MM_OK;
}
