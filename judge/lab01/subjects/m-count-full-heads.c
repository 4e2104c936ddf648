/* m-count-full-heads.c - attention_param_count gives every head full
 * d_model x d_model matrices: 53248 for (64, 4).
 * run-only: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count(&count, 64, 4) set count = 53248; expected 16384
 * expect: hint: each head's W_Q, W_K and W_V are d_model x d_k
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
    long d = d_model;
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;
    *count = n_heads * 3 * d * d + d * d;
    return MM_OK;
}
