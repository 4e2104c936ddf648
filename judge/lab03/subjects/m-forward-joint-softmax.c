/* m-forward-joint-softmax.c - mha_forward puts the scores of all the heads
 * of a query in one row (n_heads T scores) and takes one softmax over it:
 * each head's weights then sum to less than 1.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you took one softmax over the scores of all the heads of a query
 */
#define MUTANT_mha_forward
#include "base.h"
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    for (size_t e = 0; bias && e < (size_t)T * T; e++)
        if (isnan(bias[e]) || bias[e] == INFINITY)
            return mm_fail(MM_EINVAL, "mha_forward: bias[%zu] is %g", e, bias[e]);
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k, n = (size_t)T * 3 * d;
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    double *row = malloc((size_t)H * T * sizeof *row), *concat = malloc((size_t)T * d * sizeof *row);
    double *o = malloc((size_t)T * d * sizeof *o);
    mm_status st = MM_OK;
    if (!qkv || !heads || !row || !concat || !o) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    for (int i = 0; i < T && st == MM_OK; i++) {
        for (int h = 0; h < H; h++)              /* query i's scores, head after head */
            for (int j = 0; j < T; j++) {
                double dot = 0.0;
                for (int c = 0; c < d_k; c++)
                    dot += heads[h * hs + i * d_k + c] * heads[(H + h) * hs + j * d_k + c];
                row[h * T + j] = dot / sqrt((double)d_k) + (bias ? bias[i * T + j] : 0.0);
            }
        st = softmax_row(row, H * T);
        for (int h = 0; h < H && st == MM_OK; h++) {
            if (weights) memcpy(weights + ((size_t)h * T + i) * T, row + h * T, T * sizeof *row);
            for (int c = 0; c < d_k; c++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++) acc += row[h * T + j] * heads[(2 * H + h) * hs + j * d_k + c];
                o[h * hs + i * d_k + c] = acc;
            }
        }
    }
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(qkv);
    free(heads);
    free(row);
    free(concat);
    free(o);
    return st;
}
