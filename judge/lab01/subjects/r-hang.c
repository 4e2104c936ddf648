/* r-hang.c - attention_param_count counts head by head with a step of 2,
 * so it never stops when n_heads is odd. The harness stops the check at
 * its deadline and names the call in flight; the function's later checks
 * are not run (each would wait as long) and count as failed.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: HANG  attention_param_count, case 'd_model=12 n_heads=3': did not return within
 * expect: call in flight: attention_param_count(&count, 12, 3)
 * expect-re: ^attention_param_count +0 +1 +8$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0) return MM_EINVAL;
    long d = d_model, d_k = d_model / n_heads, n = d * d;
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;
    for (long h = 0; h != n_heads; h += 2) {  /* two heads at a time, past INT_MAX */
        if (mm_need_positive("attention_param_count", "d_k", d_k) != MM_OK) return MM_EINVAL;
        n += 2 * 3 * d * d_k;
    }
    *count = n;
    return MM_OK;
}
