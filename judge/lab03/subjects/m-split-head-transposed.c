/* m-split-head-transposed.c - mha_split_heads stores each head transposed,
 * (d_k, T): heads[h][c][t] = m[t][h d_k + c].
 * expect-exit: 1
 * expect: hint: you stored each head transposed, (d_k, T)
 */
#define MUTANT_mha_split_heads
#include "base.h"
mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    HEADS_CHECK_ARGS(heads, m);
    for (int h = 0; h < n_heads; h++)
        for (int c = 0; c < d_k; c++)
            for (int t = 0; t < T; t++)
                heads[((size_t)h * d_k + c) * T + t] = m[(size_t)t * n_heads * d_k + h * d_k + c];
    return MM_OK;
}
