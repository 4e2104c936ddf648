/* m-forward-one-head.c - mha_forward takes d_k as d_model: one attention
 * over the full width of Q, K, V (sdpa once, scale 1/sqrt(d_model), its
 * weights in the first (T, T) block), then W_O - single-head attention.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you computed one attention over the whole width
 */
#define MUTANT_mha_forward
#include "base.h"
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    int d = layer->d_model;
    size_t td = (size_t)T * d;
    double *qkv = malloc(3 * td * sizeof *qkv), *qkv_cut = malloc(3 * td * sizeof *qkv);
    double *concat = malloc(td * sizeof *concat);
    mm_status st = MM_OK;
    if (!qkv || !qkv_cut || !concat) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK)
        st = qkv_split(qkv_cut, qkv_cut + td, qkv_cut + 2 * td, qkv, T, d, d);
    if (st == MM_OK)
        st = sdpa(concat, weights, qkv_cut, qkv_cut + td, qkv_cut + 2 * td, bias, T, T, d, d);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(qkv);
    free(qkv_cut);
    free(concat);
    return st;
}
