/* m-count-one-head.c - attention_param_count counts the matrices of one head.
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: set count = 7168; expected 16384
 * expect: hint: your count has 3 d_model d_k weights for W_Q, W_K and W_V: that is one head's
 * expect-re: ^attention_param_count +0 +4 +5$
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
    *count = 3 * d * d_k + d * d;
    return MM_OK;
}
