/* m-count-full-heads.c - attention_param_count gives every head full
 * d_model x d_model matrices: 53248 for (64, 4).
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: returned 53248; expected 16384
 * expect: hint: each head's W_Q, W_K and W_V are d_model x d_k
 */
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    long d = d_model;
    return n_heads * 3 * d * d + d * d;
}
