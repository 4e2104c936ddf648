/* m-count-no-range.c - attention_param_count never checks that the count
 * fits in a long: for d_model = 1518500250 it wraps and still succeeds.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=1518500250 n_heads=1': returned MM_OK (0) for d_model = 1518500250, n_heads = 1; expected MM_ERANGE (3)
 * expect: hint: the count 4 d_model^2 does not fit in a long for d_model = 1518500250
 * expect-re: ^attention_param_count +0 +8 +1$ */
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0) return MM_EINVAL;
    /* long arithmetic that overflows, as it wraps (without undefined behaviour) */
    unsigned long d = (unsigned long)d_model, d_k = d / (unsigned long)n_heads;
    *count = (long)((unsigned long)n_heads * 3 * d * d_k + d * d);
    return MM_OK;
}
