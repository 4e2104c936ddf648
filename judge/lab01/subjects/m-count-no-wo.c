/* m-count-no-wo.c - attention_param_count leaves out W_O: 12288 for (64, 4).
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=64 n_heads=4': attention_param_count(&count, 64, 4) set count = 12288; expected 16384
 * expect: hint: you left out W_O
 * expect-re: ^attention_param_count +0 +3 +6$
 */
#include <limits.h>
#define MUTANT_attention_param_count
#include "base.h"

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    if (d_model % n_heads != 0) return MM_EINVAL;
    long d = d_model, d_k = d_model / n_heads;
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;
    *count = n_heads * 3 * d * d_k;
    return MM_OK;
}
