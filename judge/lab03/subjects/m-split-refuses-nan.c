/* m-split-refuses-nan.c - mha_split_heads refuses a NaN or an infinity in m,
 * where it should copy every value as it is.
 * expect-exit: 1
 * expect: hint: a split only moves values
 */
#define MUTANT_mha_split_heads
#include "base.h"
mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    HEADS_CHECK_ARGS(heads, m);
    MM_NEED_FINITE(m, T, n_heads * d_k);
    size_t i = 0;
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d_k; c++) heads[i++] = m[SPLIT_M(h, t, c)];
    return MM_OK;
}
