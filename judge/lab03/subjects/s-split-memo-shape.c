/* s-split-memo-shape.c - mha_split_heads remembers its last result, keyed
 * by the shape (T, n_heads, d_k), and gives it back for a call of that
 * shape without reading m. Every fixed case has a shape of its own, so
 * they all pass; the random m called twice with one shape and fresh values
 * fails the second time, and passes when run alone in a fresh process.
 * run-only: mha_split_heads
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_split_heads, case 'the same shape again, fresh values: random T=[0-9]+, n_heads=[0-9]+, d_k=[0-9]+ \(seed [0-9]+\)': heads is wrong
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 9 earlier calls in the same process
 * expect-re: ^mha_split_heads +0 +13 +1$
 */
#define MUTANT_mha_split_heads
#include "base.h"

static struct {
    int T, n_heads, d_k;
    double heads[1 << 16];
} memo;

mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    HEADS_CHECK_ARGS(heads, m);
    size_t n = (size_t)T * n_heads * d_k;
    if (memo.T == T && memo.n_heads == n_heads && memo.d_k == d_k) {
        memcpy(heads, memo.heads, n * sizeof *heads);
        return MM_OK;
    }
    size_t i = 0;
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d_k; c++) heads[i++] = m[SPLIT_M(h, t, c)];
    if (n <= sizeof memo.heads / sizeof memo.heads[0]) {
        memcpy(memo.heads, heads, n * sizeof *heads);
        memo.T = T, memo.n_heads = n_heads, memo.d_k = d_k;
    }
    return MM_OK;
}
