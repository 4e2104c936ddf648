/* m-count-one-head.c - attention_param_count counts the matrices of one head.
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: returned 7168; expected 16384
 * expect: hint: you counted the W_Q, W_K and W_V of one head
 */
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    long d = d_model, d_k = d_model / n_heads;
    return 3 * d * d_k + d * d;
}
