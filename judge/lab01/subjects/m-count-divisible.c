/* m-count-divisible.c - attention_param_count does not check that n_heads
 * divides d_model: (65, 4) succeeds with 16705.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=65 n_heads=4': returned MM_OK (0) for d_model = 65, n_heads = 4; expected MM_EINVAL (1)
 * expect: hint: 65 is not divisible by 4
 * expect-re: ^attention_param_count +0 +7 +2$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    long d = d_model, d_k = d_model / n_heads;
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;
    *count = n_heads * 3 * d * d_k + d * d;
    return MM_OK;
}
